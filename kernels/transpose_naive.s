// transpose_naive.s - out = in^T straight through global memory (seed 003).
//
// What it shows: coalescing (seed 003, "合并内存访问" / "全局内存与合并访问").
// in is a ROWS x COLS row-major float matrix, out is COLS x ROWS.  A block is
// a 32x32 tile of threads (as the H100 reference kernel transpose_naive in
// tests/validation/h100/kernels.cu).  Thread (tx, ty) reads in[y][x] and
// writes out[x][y], with x = bx*32+tx and y = by*32+ty.  A warp is one row of
// the tile (ty fixed, tx = 0..31), so its 32 loads are consecutive words: one
// 128-byte line, 4 sectors (coalesced).  Its 32 stores go to 32 different
// rows of out, ROWS*4 bytes apart: 32 sectors per request (strided), 8 times
// the traffic for the same data.  transpose_shared.s and transpose_padded.s
// fix the stores by going through a shared-memory tile.
//
// Edges: any ROWS and COLS work; threads outside the matrix skip both
// accesses (the only divergent branches: edge warps whose row crosses COLS).
//
// What to change: -D ROWS=.. -D COLS=.. (TILE is tied to the block shape;
// keep it 32 so that a warp is exactly one tile row).
//
// What to look for (default 96 x 128: grid 4 x 3 = 12 blocks of 32 warps,
// no partial tiles), observed with --functional:
//   global loads 384 and global stores 384 (one of each per warp),
//   shared loads/stores 0, divergent branches 0, 22 warp instructions per warp
//   (8448 in all).
// With the timing model (hand-computed, the H100 pattern of counters.csv):
//   l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum = 384 x 4  = 1536
//   l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum = 384 x 32 = 12288
//   (H100, n=1024: 32768 requests each way, 131072 load sectors against
//   1048576 store sectors - the same 4 vs 32 per request).
//   At -D COLS=80 the last tile column is 16 wide: 96 warps are half
//   inactive and take a divergent branch each.
// sizes: ROWS=77 COLS=45 | ROWS=1 COLS=33 | ROWS=256 COLS=256 | ROWS=96 COLS=80

.define ROWS 96
.define COLS 128
.define TILE 32

.buffer in  .f32[ROWS*COLS] random(seed=1, min=-1, max=1)
.buffer out .f32[COLS*ROWS] zero
.launch transpose_naive grid=((COLS+TILE-1)/TILE, (ROWS+TILE-1)/TILE) block=(TILE, TILE) args=(in, out, ROWS, COLS)
.check out ref=transpose(in, ROWS, COLS)

.entry transpose_naive (.param .u64 src, .param .u64 dst,
                        .param .u32 rows, .param .u32 cols)
{
    ld.param.u64    %rd1, [src];
    ld.param.u64    %rd2, [dst];
    ld.param.u32    %r1, [rows];
    ld.param.u32    %r2, [cols];
    mov.u32         %r3, %tid.x;
    mov.u32         %r4, %tid.y;
    mov.u32         %r5, %ctaid.x;
    mov.u32         %r6, %ctaid.y;
    mad.lo.s32      %r7, %r5, TILE, %r3;     // x = bx*TILE + tx: a column of in
    mad.lo.s32      %r8, %r6, TILE, %r4;     // y = by*TILE + ty: a row of in

    setp.lt.s32     %p1, %r7, %r2;           // x < cols
    setp.lt.and.s32 %p2, %r8, %r1, %p1;      // && y < rows
    @!%p2 bra       DONE;

    mad.lo.s32      %r9, %r8, %r2, %r7;      // y*cols + x: consecutive in a warp
    mul.wide.s32    %rd3, %r9, 4;
    add.s64         %rd4, %rd1, %rd3;
    ld.global.f32   %f1, [%rd4];             // coalesced: 4 sectors per warp

    mad.lo.s32      %r10, %r7, %r1, %r8;     // x*rows + y: rows*4 bytes apart
    mul.wide.s32    %rd5, %r10, 4;
    add.s64         %rd6, %rd2, %rd5;
    st.global.f32   [%rd6], %f1;             // strided: 32 sectors per warp
DONE:
    ret;
}
