// transpose_padded.s - out = in^T through a 32x33 shared-memory tile: the
// +1 padding makes the column read conflict-free (seed 003).
//
// What it shows: removing bank conflicts by changing the layout (seed 003,
// "共享内存与存储体冲突": the number of banks a stride-s access touches is
// 32 / gcd(s, 32)).  Identical to transpose_shared.s (and to the H100
// reference kernel transpose_padded in tests/validation/h100/kernels.cu)
// except that a tile row is TILE+1 = 33 words long.  The column read
// tile[tx][ty] now touches words tx*33 + ty, i.e. bank (tx + ty) mod 32: a
// stride of s = 33 and gcd(33, 32) = 1, so the 32 lanes hit 32 different
// banks - one wavefront instead of 32.  The row store tile[ty][tx] is still
// 32 consecutive words.  The cost is 32 unused words (128 bytes) per tile.
//
// Edges: any ROWS and COLS work (as transpose_shared.s: out-of-range threads
// skip their accesses but all reach bar.sync).
//
// What to change: -D ROWS=.. -D COLS=..; try -D PAD=0 to get
// transpose_shared.s back, or PAD=2 (stride 34: gcd(34, 32) = 2, a 2-way
// conflict) when the timing model reports bank conflicts.
//
// What to look for (default 96 x 128: 12 blocks x 32 warps = 384 warps, no
// partial tiles), observed with --functional: the same counts as
// transpose_shared.s - shared stores 384, shared loads 384, bar.sync 384,
// global loads 384, global stores 384, divergent branches 0, 37
// instructions per warp (14208 in all); 4224 B shared per block (4096 in
// transpose_shared.s).  Only the bank pattern differs.
// With the timing model (hand-computed; 32 banks of 4 bytes as fermi.ini):
//   l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum   = 384
//   l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum = 0
//   (transpose_shared.s: 12288 and 11904).
//   H100, n=1024: 32768 shared loads, 33368 wavefronts, 600 conflicts (the
//   hardware counter's stray counts, see reference/h100/README.md).
// sizes: ROWS=77 COLS=45 | ROWS=1 COLS=33 | ROWS=256 COLS=256 | ROWS=96 COLS=80 PAD=0 | ROWS=40 COLS=70 PAD=2

.define ROWS 96
.define COLS 128
.define TILE 32
.define PAD 1

.buffer in  .f32[ROWS*COLS] random(seed=1, min=-1, max=1)
.buffer out .f32[COLS*ROWS] zero
.launch transpose_padded grid=((COLS+TILE-1)/TILE, (ROWS+TILE-1)/TILE) block=(TILE, TILE) args=(in, out, ROWS, COLS)
.check out ref=transpose(in, ROWS, COLS)

.entry transpose_padded (.param .u64 src, .param .u64 dst,
                         .param .u32 rows, .param .u32 cols)
{
    .shared .align 4 .f32 tile[TILE*(TILE+PAD)];  // tile[r][c] at word r*(TILE+PAD) + c

    ld.param.u64    %rd1, [src];
    ld.param.u64    %rd2, [dst];
    ld.param.u32    %r1, [rows];
    ld.param.u32    %r2, [cols];
    mov.u32         %r3, %tid.x;
    mov.u32         %r4, %tid.y;
    mov.u32         %r5, %ctaid.x;
    mov.u32         %r6, %ctaid.y;
    mov.u32         %r7, tile;

    // tile[ty][tx] = in[y][x], x = bx*TILE + tx, y = by*TILE + ty
    mad.lo.s32      %r8, %r5, TILE, %r3;     // x
    mad.lo.s32      %r9, %r6, TILE, %r4;     // y
    setp.lt.s32     %p1, %r8, %r2;           // x < cols
    setp.lt.and.s32 %p2, %r9, %r1, %p1;      // && y < rows
    @!%p2 bra       LOADED;
    mad.lo.s32      %r10, %r9, %r2, %r8;     // y*cols + x
    mul.wide.s32    %rd3, %r10, 4;
    add.s64         %rd4, %rd1, %rd3;
    ld.global.f32   %f1, [%rd4];             // coalesced row read
    mad.lo.s32      %r11, %r4, (TILE+PAD), %r3;   // ty*33 + tx
    shl.b32         %r11, %r11, 2;
    add.s32         %r11, %r7, %r11;
    st.shared.f32   [%r11], %f1;             // by row: 32 consecutive words
LOADED:
    bar.sync        0;

    // out[y2][x2] = tile[tx][ty], x2 = by*TILE + tx, y2 = bx*TILE + ty
    mad.lo.s32      %r12, %r6, TILE, %r3;    // x2: a column of out = row of in
    mad.lo.s32      %r13, %r5, TILE, %r4;    // y2: a row of out = column of in
    setp.lt.s32     %p3, %r12, %r1;          // x2 < rows
    setp.lt.and.s32 %p4, %r13, %r2, %p3;     // && y2 < cols
    @!%p4 bra       DONE;
    mad.lo.s32      %r14, %r3, (TILE+PAD), %r4;   // tx*33 + ty: stride 33 words
    shl.b32         %r14, %r14, 2;
    add.s32         %r14, %r7, %r14;
    ld.shared.f32   %f2, [%r14];             // by column: bank (tx+ty) mod 32, no conflict
    mad.lo.s32      %r15, %r13, %r1, %r12;   // y2*rows + x2
    mul.wide.s32    %rd5, %r15, 4;
    add.s64         %rd6, %rd2, %rd5;
    st.global.f32   [%rd6], %f2;             // coalesced row write
DONE:
    ret;
}
