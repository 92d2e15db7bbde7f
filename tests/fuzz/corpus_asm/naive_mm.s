// naive_mm.s - C = A x B, one thread per element of C, no reuse (seed 000).
//
// What it shows: the baseline that tiled_mm.s improves on.  The thread for
// C[row][col] walks row `row` of A and column `col` of B straight from
// global memory: 2*K global loads per thread for K multiply-adds, one
// load per floating-point operation.  Neighbouring threads of a warp (same
// row, consecutive col) read the same A element (a broadcast) and
// consecutive B elements (coalesced), but nothing is kept on chip, so every
// element of A is fetched N times and every element of B M times.
// tiled_mm.s stages TILE x TILE tiles in shared memory and cuts global
// loads by a factor of TILE.
//
// Same defines, launch shape and check as tiled_mm.s, so the two reports can
// be laid side by side.  Any M, N, K work: threads outside C skip the work
// (a combined col < N && row < M test, one branch per warp).
//
// What to change: -D M=.. -D N=.. -D K=.. (BLOCK is the 2D block edge).
// What to look for (default size 96x80 with K=72, --functional):
//   global loads            34560 = 240 warps x 2K (tiled_mm: 2280, about
//                           15x fewer: TILE=16, less the zero-filled edges)
//   global stores           240; shared loads 0 (tiled_mm: 38400)
//   warp instructions       163200 = 240 warps x (32 + 9 per k): fewer than
//                           tiled_mm's 232080; naive loses on memory traffic
//                           and latency (the timing report), not on issue
//   divergent branches      0 (M and N are multiples of 16; M=50 N=37: 25)
// sizes: M=50 N=37 K=23 | M=16 N=16 K=16 | M=33 N=70 K=100 | M=1 N=1 K=1
.define M 96
.define N 80
.define K 72
.define BLOCK 16

.buffer A .f32[M*K] random(seed=1, min=-1, max=1)
.buffer B .f32[K*N] random(seed=2, min=-1, max=1)
.buffer C .f32[M*N] zero
.launch naive_mm grid=((N+BLOCK-1)/BLOCK, (M+BLOCK-1)/BLOCK) block=(BLOCK, BLOCK) args=(A, B, C, M, N, K)
.check C ref=matmul(A, B, M, N, K) tol=1e-4

.entry naive_mm (.param .u64 a, .param .u64 b, .param .u64 c,
                 .param .u32 m, .param .u32 n, .param .u32 k)
{
    ld.param.u64    %rd1, [a];
    ld.param.u64    %rd2, [b];
    ld.param.u64    %rd3, [c];
    ld.param.u32    %r1, [m];
    ld.param.u32    %r2, [n];
    ld.param.u32    %r3, [k];
    mov.u32         %r4, %tid.x;
    mov.u32         %r5, %tid.y;
    mov.u32         %r6, %ctaid.x;
    mov.u32         %r7, %ctaid.y;
    mov.u32         %r8, %ntid.x;
    mov.u32         %r9, %ntid.y;
    mad.lo.s32      %r10, %r7, %r9, %r5;     // row = by*bh + ty
    mad.lo.s32      %r11, %r6, %r8, %r4;     // col = bx*bw + tx
    setp.lt.s32     %p1, %r11, %r2;
    setp.lt.and.s32 %p2, %r10, %r1, %p1;     // col < N && row < M
    @!%p2 bra       END;

    mul.lo.s32      %r12, %r10, %r3;         // row*K
    mul.wide.s32    %rd4, %r12, 4;
    add.s64         %rd5, %rd1, %rd4;        // pa = &A[row][0]
    mul.wide.s32    %rd6, %r11, 4;
    add.s64         %rd7, %rd2, %rd6;        // pb = &B[0][col]
    mul.wide.s32    %rd8, %r2, 4;            // one row of B: N*4 bytes
    mov.f32         %f1, 0f00000000;         // acc = 0
    mov.u32         %r13, 0;                 // kk = 0
LOOP:
    setp.ge.s32     %p3, %r13, %r3;
    @%p3 bra        STORE;
    ld.global.f32   %f2, [%rd5];             // A[row][kk]: same address in the warp's lanes of one row
    ld.global.f32   %f3, [%rd7];             // B[kk][col]: consecutive across the warp
    fma.rn.f32      %f1, %f2, %f3, %f1;      // acc += A[row][kk] * B[kk][col]
    add.s64         %rd5, %rd5, 4;           // next column of A
    add.s64         %rd7, %rd7, %rd8;        // next row of B
    add.s32         %r13, %r13, 1;
    bra             LOOP;

STORE:
    mad.lo.s32      %r14, %r10, %r2, %r11;   // row*N + col
    mul.wide.s32    %rd9, %r14, 4;
    add.s64         %rd10, %rd3, %rd9;
    st.global.f32   [%rd10], %f1;
END:
    ret;
}
