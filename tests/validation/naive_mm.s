// naive_mm.s - the H100 reference kernel naive_mm (tests/validation/h100/kernels.cu):
//
//   __global__ void naive_mm(const float* A, const float* B, float* C, int m, int n, int k) {
//     int row = blockIdx.y * blockDim.y + threadIdx.y;
//     int col = blockIdx.x * blockDim.x + threadIdx.x;
//     if (row < m && col < k) {
//       float sum = 0.0f;
//       for (int i = 0; i < n; i++) sum += A[row * n + i] * B[i * k + col];
//       C[row * k + col] = sum;
//     }
//   }
//
// C (m x k) = A (m x n) x B (n x k), row-major.  counters.csv row "naive_mm,
// m=n=k=256": -D M=256 -D N=256 -D K=256, grid (16, 16, 1), block (16, 16, 1).
// A warp is two 16-thread rows of the block.  Every iteration it loads
// A[row][i] (two addresses, one per row: 2 sectors) and B[i][col..col+15]
// (64 bytes, the same for both rows: 2 sectors); nvcc unrolls the loop by 4
// but keeps 4-byte loads (row * n + i has no known alignment), so requests =
// 2 x n per warp.  The store writes two
// 64-byte row pieces: 4 sectors.
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
.launch naive_mm grid=((K+TS-1)/TS, (M+TS-1)/TS) block=(TS, TS) args=(A, B, C, M, N, K)
.check C ref=matmul(A, B, M, K, N) tol=1e-4 rtol=1e-4

.entry naive_mm (.param .u64 a, .param .u64 b, .param .u64 c,
                 .param .u32 m, .param .u32 n, .param .u32 k)
{
    ld.param.u64    %rd1, [a];
    ld.param.u64    %rd2, [b];
    ld.param.u64    %rd3, [c];
    ld.param.u32    %r1, [m];
    ld.param.u32    %r2, [n];
    ld.param.u32    %r3, [k];
    mov.u32         %r4, %ctaid.y;
    mov.u32         %r5, %ntid.y;
    mov.u32         %r6, %tid.y;
    mad.lo.s32      %r7, %r4, %r5, %r6;      // row
    mov.u32         %r8, %ctaid.x;
    mov.u32         %r9, %ntid.x;
    mov.u32         %r10, %tid.x;
    mad.lo.s32      %r11, %r8, %r9, %r10;    // col
    setp.lt.s32     %p1, %r7, %r1;
    setp.lt.and.s32 %p2, %r11, %r3, %p1;     // row < m && col < k
    @!%p2 bra       END;

    mov.f32         %f1, 0f00000000;         // sum
    mul.lo.s32      %r12, %r7, %r2;
    mul.wide.s32    %rd4, %r12, 4;
    add.s64         %rd5, %rd1, %rd4;        // &A[row][0]
    mul.wide.s32    %rd6, %r11, 4;
    add.s64         %rd7, %rd2, %rd6;        // &B[0][col]
    mul.wide.s32    %rd8, %r3, 4;            // one row of B in bytes
    mov.u32         %r13, 0;                 // i
    // nvcc -O3 unrolls by 4 and issues the 8 loads of 4 iterations before
    // their FMAs (memory-level parallelism: cycles, not counts, depend on it)
    add.s32         %r15, %r2, -3;           // i + 3 < n: a whole group of 4
    setp.lt.s32     %p3, %r13, %r15;
    @!%p3 bra       REST;
LOOP4:
    ld.global.f32   %f2, [%rd5];             // A[row][i]: 2 sectors per warp
    ld.global.f32   %f3, [%rd7];             // B[i][col]: 2 sectors per warp
    add.s64         %rd11, %rd7, %rd8;
    ld.global.f32   %f4, [%rd5+4];           // A[row][i+1]
    ld.global.f32   %f5, [%rd11];            // B[i+1][col]
    add.s64         %rd12, %rd11, %rd8;
    ld.global.f32   %f6, [%rd5+8];
    ld.global.f32   %f7, [%rd12];
    add.s64         %rd13, %rd12, %rd8;
    ld.global.f32   %f8, [%rd5+12];
    ld.global.f32   %f9, [%rd13];
    fma.rn.f32      %f1, %f2, %f3, %f1;
    fma.rn.f32      %f1, %f4, %f5, %f1;
    fma.rn.f32      %f1, %f6, %f7, %f1;
    fma.rn.f32      %f1, %f8, %f9, %f1;
    add.s64         %rd5, %rd5, 16;
    add.s64         %rd7, %rd13, %rd8;
    add.s32         %r13, %r13, 4;
    setp.lt.s32     %p4, %r13, %r15;
    @%p4 bra        LOOP4;
REST:                                        // the n mod 4 last iterations
    setp.lt.s32     %p5, %r13, %r2;
    @!%p5 bra       STORE;
LOOP1:
    ld.global.f32   %f2, [%rd5];
    ld.global.f32   %f3, [%rd7];
    fma.rn.f32      %f1, %f2, %f3, %f1;
    add.s64         %rd5, %rd5, 4;
    add.s64         %rd7, %rd7, %rd8;
    add.s32         %r13, %r13, 1;
    setp.lt.s32     %p6, %r13, %r2;
    @%p6 bra        LOOP1;
STORE:
    mad.lo.s32      %r14, %r7, %r3, %r11;    // row * k + col
    mul.wide.s32    %rd9, %r14, 4;
    add.s64         %rd10, %rd3, %rd9;
    st.global.f32   [%rd10], %f1;
END:
    ret;
}
