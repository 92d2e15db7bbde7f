// transpose_shared.s - out = in^T through a 32x32 shared-memory tile, read by
// column: 32-way bank conflicts (seed 003).
//
// What it shows: shared-memory banks (seed 003, "共享内存与存储体冲突").  This
// is the H100 reference kernel transpose_shared (tests/validation/h100/
// kernels.cu).  A 32x32 block loads a 32x32 tile of in with coalesced row
// reads and stores it by row: tile[ty][tx] = in[y][x].  After bar.sync it
// writes the transposed tile with coalesced row writes:
// out[bx*32+ty][by*32+tx] = tile[tx][ty].  The global stores are now as
// good as the loads (4 sectors per warp instead of transpose_naive's 32), but
// the tile is read by column: a warp (ty fixed, tx = 0..31) reads words
// tx*32 + ty, all in bank ty of the 32 banks (bank = word mod 32), so the
// read is serialised into 32 wavefronts: a 32-way bank conflict.  In seed
// 003's terms the stride is s = 32 words and gcd(32, 32) = 32 = 1 bank in use.
// transpose_padded.s pads the row to 33 words and removes the conflict.
//
// Edges: any ROWS and COLS work.  Threads outside the matrix skip their
// load and their store, but every thread reaches the bar.sync.  The tile
// element a thread reads is exactly the one written by a thread that was in
// range, so no stale shared data is ever stored.
//
// What to change: -D ROWS=.. -D COLS=..; TILE stays 32 (a warp is one tile
// row, so the column read hits all 32 banks' worth of lanes at one bank).
//
// What to look for (default 96 x 128: 12 blocks x 32 warps = 384 warps, no
// partial tiles), observed with --functional:
//   shared stores 384, shared loads 384, bar.sync 384, global loads 384,
//   global stores 384, divergent branches 0, 37 instructions per warp
//   (14208 in all).
// With the timing model (hand-computed; 32 banks of 4 bytes as fermi.ini):
//   l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum  = 384 (row stores)
//   l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum  = 384 x 32 = 12288
//   l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum = 12288 - 384
//     = 11904
//   global store sectors 384 x 4 = 1536 (transpose_naive: 12288).
//   H100, n=1024: 32768 shared loads, 1048787 wavefronts, 1016019 conflicts.
// sizes: ROWS=77 COLS=45 | ROWS=1 COLS=33 | ROWS=256 COLS=256 | ROWS=96 COLS=80

.define ROWS 96
.define COLS 128
.define TILE 32

.buffer in  .f32[ROWS*COLS] random(seed=1, min=-1, max=1)
.buffer out .f32[COLS*ROWS] zero
.launch transpose_shared grid=((COLS+TILE-1)/TILE, (ROWS+TILE-1)/TILE) block=(TILE, TILE) args=(in, out, ROWS, COLS)
.check out ref=transpose(in, ROWS, COLS)

.entry transpose_shared (.param .u64 src, .param .u64 dst,
                         .param .u32 rows, .param .u32 cols)
{
    .shared .align 4 .f32 tile[TILE*TILE];   // tile[r][c] at word r*TILE + c

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
    mad.lo.s32      %r11, %r4, TILE, %r3;    // ty*TILE + tx
    shl.b32         %r11, %r11, 2;
    add.s32         %r11, %r7, %r11;
    st.shared.f32   [%r11], %f1;             // by row: banks 0..31, no conflict
LOADED:
    bar.sync        0;

    // out[y2][x2] = tile[tx][ty], x2 = by*TILE + tx, y2 = bx*TILE + ty
    mad.lo.s32      %r12, %r6, TILE, %r3;    // x2: a column of out = row of in
    mad.lo.s32      %r13, %r5, TILE, %r4;    // y2: a row of out = column of in
    setp.lt.s32     %p3, %r12, %r1;          // x2 < rows
    setp.lt.and.s32 %p4, %r13, %r2, %p3;     // && y2 < cols
    @!%p4 bra       DONE;
    mad.lo.s32      %r14, %r3, TILE, %r4;    // tx*TILE + ty: stride 32 words
    shl.b32         %r14, %r14, 2;
    add.s32         %r14, %r7, %r14;
    ld.shared.f32   %f2, [%r14];             // by column: all lanes in bank ty
    mad.lo.s32      %r15, %r13, %r1, %r12;   // y2*rows + x2
    mul.wide.s32    %rd5, %r15, 4;
    add.s64         %rd6, %rd2, %rd5;
    st.global.f32   [%rd6], %f2;             // coalesced row write
DONE:
    ret;
}
