// tiled_mm.s - C = A x B with 16x16 shared-memory tiles (seed 000).
//
// What it shows: data reuse through shared memory.  Each block computes a
// TILE x TILE piece of C.  For every tile step along K, its threads copy one
// tile of A and one of B into shared memory (one element each, coalesced),
// wait at bar.sync, and then every element is reused TILE times from shared
// memory instead of being fetched from DRAM again: global traffic drops by a
// factor of TILE compared with naive_mm.s.
//
// Edge tiles: any M, N, K work.  Threads outside the matrices load zeros into
// the tiles (so the inner loop needs no bounds test) and skip the final store.
//
// What to change: -D M=.. -D N=.. -D K=.. for other sizes (TILE is tied to
// the block shape).  What to look for: shared-memory instructions and
// bar.sync stalls in the report, and global sectors against naive_mm.s.
// sizes: M=33 N=70 K=100 | M=64 N=64 K=64 | M=1 N=1 K=1 | M=17 N=5 K=300

.define M 96
.define N 80
.define K 72
.define TILE 16

.buffer A .f32[M*K] random(seed=1, min=-1, max=1)
.buffer B .f32[K*N] random(seed=2, min=-1, max=1)
.buffer C .f32[M*N] zero
.launch tiled_mm grid=((N+TILE-1)/TILE, (M+TILE-1)/TILE) block=(TILE, TILE) args=(A, B, C, M, N, K)
.check C ref=matmul(A, B, M, N, K) tol=1e-4

.entry tiled_mm (.param .u64 a, .param .u64 b, .param .u64 c,
                 .param .u32 m, .param .u32 n, .param .u32 k)
{
    .shared .align 4 .f32 As[TILE*TILE];     // As[ty][tx]
    .shared .align 4 .f32 Bs[TILE*TILE];     // Bs[ty][tx]

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
    mad.lo.s32      %r8, %r7, TILE, %r5;     // row = by*TILE + ty
    mad.lo.s32      %r9, %r6, TILE, %r4;     // col = bx*TILE + tx
    mov.f32         %f1, 0f00000000;         // acc = 0

    // Shared-memory addresses used every step.
    mov.u32         %r10, As;
    mov.u32         %r11, Bs;
    mad.lo.s32      %r12, %r5, TILE, %r4;    // ty*TILE + tx
    shl.b32         %r13, %r12, 2;
    add.s32         %r14, %r10, %r13;        // &As[ty][tx]
    add.s32         %r15, %r11, %r13;        // &Bs[ty][tx]
    mul.lo.s32      %r16, %r5, (TILE*4);
    add.s32         %r16, %r10, %r16;        // &As[ty][0]
    shl.b32         %r17, %r4, 2;
    add.s32         %r17, %r11, %r17;        // &Bs[0][tx]

    mov.u32         %r18, 0;                 // t: first k of this tile step
LOOP:
    setp.ge.s32     %p1, %r18, %r3;
    @%p1 bra        DONE;

    // As[ty][tx] = (row < M && t+tx < K) ? A[row][t+tx] : 0
    add.s32         %r19, %r18, %r4;
    mov.f32         %f2, 0f00000000;
    setp.lt.s32     %p2, %r8, %r1;
    setp.lt.and.s32 %p3, %r19, %r3, %p2;
    @!%p3 bra       SKIP_A;
    mad.lo.s32      %r20, %r8, %r3, %r19;    // row*K + t + tx
    mul.wide.s32    %rd4, %r20, 4;
    add.s64         %rd5, %rd1, %rd4;
    ld.global.f32   %f2, [%rd5];
SKIP_A:
    st.shared.f32   [%r14], %f2;

    // Bs[ty][tx] = (t+ty < K && col < N) ? B[t+ty][col] : 0
    add.s32         %r21, %r18, %r5;
    mov.f32         %f3, 0f00000000;
    setp.lt.s32     %p4, %r9, %r2;
    setp.lt.and.s32 %p5, %r21, %r3, %p4;
    @!%p5 bra       SKIP_B;
    mad.lo.s32      %r22, %r21, %r2, %r9;    // (t+ty)*N + col
    mul.wide.s32    %rd6, %r22, 4;
    add.s64         %rd7, %rd2, %rd6;
    ld.global.f32   %f3, [%rd7];
SKIP_B:
    st.shared.f32   [%r15], %f3;
    bar.sync        0;                       // both tiles are loaded

    // acc += As[ty][kk] * Bs[kk][tx] for kk = 0..TILE-1
    mov.u32         %r23, 0;
INNER:
    shl.b32         %r24, %r23, 2;
    add.s32         %r25, %r16, %r24;        // &As[ty][kk]: one word, broadcast
    ld.shared.f32   %f4, [%r25];
    mul.lo.s32      %r26, %r23, (TILE*4);
    add.s32         %r27, %r17, %r26;        // &Bs[kk][tx]: a row, conflict-free
    ld.shared.f32   %f5, [%r27];
    fma.rn.f32      %f1, %f4, %f5, %f1;
    add.s32         %r23, %r23, 1;
    setp.lt.s32     %p6, %r23, TILE;
    @%p6 bra        INNER;

    bar.sync        0;                       // done with the tiles
    add.s32         %r18, %r18, TILE;
    bra             LOOP;

DONE:
    setp.lt.s32     %p7, %r8, %r1;
    setp.lt.and.s32 %p8, %r9, %r2, %p7;
    @!%p8 bra       END;
    mad.lo.s32      %r28, %r8, %r2, %r9;     // row*N + col
    mul.wide.s32    %rd8, %r28, 4;
    add.s64         %rd9, %rd3, %rd8;
    st.global.f32   [%rd9], %f1;
END:
    ret;
}
