// tiled_mm.s - the H100 reference kernel tiled_mm (tests/validation/h100/kernels.cu), TS = 16:
//
//   __global__ void tiled_mm(const float* A, const float* B, float* C, int m, int n, int k) {
//     __shared__ float As[TS][TS];
//     __shared__ float Bs[TS][TS];
//     int tx = threadIdx.x, ty = threadIdx.y;
//     int row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
//     float sum = 0.0f;
//     for (int t = 0; t < (n + TS - 1) / TS; t++) {
//       int a_col = t * TS + tx;
//       As[ty][tx] = (row < m && a_col < n) ? A[row * n + a_col] : 0.0f;
//       int b_row = t * TS + ty;
//       Bs[ty][tx] = (b_row < n && col < k) ? B[b_row * k + col] : 0.0f;
//       __syncthreads();
//       for (int i = 0; i < TS; i++) sum += As[ty][i] * Bs[i][tx];
//       __syncthreads();
//     }
//     if (row < m && col < k) C[row * k + col] = sum;
//   }
//
// C (m x k) = A (m x n) x B (n x k), row-major.  counters.csv row "tiled_mm,
// m=n=k=256": -D M=256 -D N=256 -D K=256, grid (16, 16, 1), block (16, 16, 1).
//
// What nvcc -O3 makes of the inner loop, and this file copies: the loop is
// unrolled, and the 16 floats As[ty][0..15] a thread reads are contiguous and
// 16-byte aligned, so they come in 4 LDS.128 (ld.shared.v4.f32); the 16
// Bs[i][tx] reads stay 4-byte loads.  Per warp and tile step that is 2 shared
// stores and 4 + 16 = 20 shared loads: 2048 warps x 16 steps x 20 = 655360
// instructions, as counters.csv has.  Wavefronts: a warp is two rows ty of
// 16 lanes; a Bs read is 16 words the two rows share (1 wavefront), an As
// v4 read has lanes 0-15 on one 16-byte address and lanes 16-31 on another:
// 2 wavefronts and no bank conflict (sim/mem/smem.c, rule 3).  16 x 1 + 4 x 2 =
// 24 per step: 786432, as counters.csv has.  Written with 4-byte As reads
// instead, the loads would be 32 per step (1048576) and the wavefronts 32.
//
// The host reference matmul(A, B, M, N, K) multiplies an M x K by a K x N
// matrix: here that is matmul(A, B, m, k, n).

.define M 256
.define N 256
.define K 256
.define TS 16

.buffer A .f32[M*N] random(seed=1, min=-1, max=1)
.buffer B .f32[N*K] random(seed=2, min=-1, max=1)
.buffer C .f32[M*K] zero
.launch tiled_mm grid=((K+TS-1)/TS, (M+TS-1)/TS) block=(TS, TS) args=(A, B, C, M, N, K)
.check C ref=matmul(A, B, M, K, N) tol=1e-4 rtol=1e-4

.entry tiled_mm (.param .u64 a, .param .u64 b, .param .u64 c,
                 .param .u32 m, .param .u32 n, .param .u32 k)
{
    .shared .align 16 .f32 As[TS*TS];       // As[ty][tx]: row ty is 64 bytes, 16-byte aligned
    .shared .align 16 .f32 Bs[TS*TS];

    ld.param.u64    %rd1, [a];
    ld.param.u64    %rd2, [b];
    ld.param.u64    %rd3, [c];
    ld.param.u32    %r1, [m];
    ld.param.u32    %r2, [n];
    ld.param.u32    %r3, [k];
    mov.u32         %r4, %tid.x;             // tx
    mov.u32         %r5, %tid.y;             // ty
    mov.u32         %r6, %ctaid.x;
    mov.u32         %r7, %ctaid.y;
    mad.lo.s32      %r8, %r7, TS, %r5;       // row
    mad.lo.s32      %r9, %r6, TS, %r4;       // col
    mov.f32         %f1, 0f00000000;         // sum
    mov.u32         %r10, As;
    mov.u32         %r11, Bs;
    shl.b32         %r12, %r5, 6;            // ty * 64 bytes
    shl.b32         %r13, %r4, 2;            // tx * 4 bytes
    add.s32         %r14, %r12, %r13;
    add.s32         %r15, %r10, %r14;        // &As[ty][tx]
    add.s32         %r16, %r11, %r14;        // &Bs[ty][tx]
    add.s32         %r17, %r10, %r12;        // &As[ty][0]
    add.s32         %r18, %r11, %r13;        // &Bs[0][tx]
    setp.lt.s32     %p1, %r8, %r1;           // row < m
    setp.lt.s32     %p2, %r9, %r3;           // col < k
    add.s32         %r19, %r2, (TS-1);
    div.s32         %r20, %r19, TS;          // tile steps (n + TS - 1) / TS
    mov.u32         %r21, 0;                 // t * TS
    setp.lt.s32     %p3, 0, %r20;
    @!%p3 bra       DONE;
STEP:
    // As[ty][tx] = (row < m && a_col < n) ? A[row * n + a_col] : 0
    add.s32         %r22, %r21, %r4;         // a_col
    setp.lt.and.s32 %p4, %r22, %r2, %p1;
    mov.f32         %f2, 0f00000000;
    mad.lo.s32      %r23, %r8, %r2, %r22;
    mul.wide.s32    %rd4, %r23, 4;
    add.s64         %rd5, %rd1, %rd4;
    @%p4 ld.global.f32 %f2, [%rd5];
    st.shared.f32   [%r15], %f2;
    // Bs[ty][tx] = (b_row < n && col < k) ? B[b_row * k + col] : 0
    add.s32         %r24, %r21, %r5;         // b_row
    setp.lt.and.s32 %p5, %r24, %r2, %p2;
    mov.f32         %f3, 0f00000000;
    mad.lo.s32      %r25, %r24, %r3, %r9;
    mul.wide.s32    %rd6, %r25, 4;
    add.s64         %rd7, %rd2, %rd6;
    @%p5 ld.global.f32 %f3, [%rd7];
    st.shared.f32   [%r16], %f3;
    bar.sync        0;
    // sum += As[ty][i] * Bs[i][tx], i = 0..15, unrolled as nvcc does
    ld.shared.v4.f32 {%f4, %f5, %f6, %f7}, [%r17+0];   // As[ty][0..3]
    ld.shared.f32   %f8, [%r18+0];      // Bs[0][tx]
    fma.rn.f32      %f1, %f4, %f8, %f1;
    ld.shared.f32   %f8, [%r18+64];     // Bs[1][tx]
    fma.rn.f32      %f1, %f5, %f8, %f1;
    ld.shared.f32   %f8, [%r18+128];    // Bs[2][tx]
    fma.rn.f32      %f1, %f6, %f8, %f1;
    ld.shared.f32   %f8, [%r18+192];    // Bs[3][tx]
    fma.rn.f32      %f1, %f7, %f8, %f1;
    ld.shared.v4.f32 {%f4, %f5, %f6, %f7}, [%r17+16];   // As[ty][4..7]
    ld.shared.f32   %f8, [%r18+256];    // Bs[4][tx]
    fma.rn.f32      %f1, %f4, %f8, %f1;
    ld.shared.f32   %f8, [%r18+320];    // Bs[5][tx]
    fma.rn.f32      %f1, %f5, %f8, %f1;
    ld.shared.f32   %f8, [%r18+384];    // Bs[6][tx]
    fma.rn.f32      %f1, %f6, %f8, %f1;
    ld.shared.f32   %f8, [%r18+448];    // Bs[7][tx]
    fma.rn.f32      %f1, %f7, %f8, %f1;
    ld.shared.v4.f32 {%f4, %f5, %f6, %f7}, [%r17+32];   // As[ty][8..11]
    ld.shared.f32   %f8, [%r18+512];    // Bs[8][tx]
    fma.rn.f32      %f1, %f4, %f8, %f1;
    ld.shared.f32   %f8, [%r18+576];    // Bs[9][tx]
    fma.rn.f32      %f1, %f5, %f8, %f1;
    ld.shared.f32   %f8, [%r18+640];    // Bs[10][tx]
    fma.rn.f32      %f1, %f6, %f8, %f1;
    ld.shared.f32   %f8, [%r18+704];    // Bs[11][tx]
    fma.rn.f32      %f1, %f7, %f8, %f1;
    ld.shared.v4.f32 {%f4, %f5, %f6, %f7}, [%r17+48];   // As[ty][12..15]
    ld.shared.f32   %f8, [%r18+768];    // Bs[12][tx]
    fma.rn.f32      %f1, %f4, %f8, %f1;
    ld.shared.f32   %f8, [%r18+832];    // Bs[13][tx]
    fma.rn.f32      %f1, %f5, %f8, %f1;
    ld.shared.f32   %f8, [%r18+896];    // Bs[14][tx]
    fma.rn.f32      %f1, %f6, %f8, %f1;
    ld.shared.f32   %f8, [%r18+960];    // Bs[15][tx]
    fma.rn.f32      %f1, %f7, %f8, %f1;
    bar.sync        0;
    add.s32         %r21, %r21, TS;
    sub.s32         %r20, %r20, 1;
    setp.ne.s32     %p6, %r20, 0;
    @%p6 bra        STEP;
DONE:
    setp.lt.and.s32 %p7, %r9, %r3, %p1;      // row < m && col < k
    @!%p7 bra       END;
    mad.lo.s32      %r26, %r8, %r3, %r9;     // row * k + col
    mul.wide.s32    %rd8, %r26, 4;
    add.s64         %rd9, %rd3, %rd8;
    st.global.f32   [%rd9], %f1;
END:
    ret;
}
