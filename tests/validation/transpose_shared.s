// transpose_shared.s - the H100 reference kernel transpose_shared
// (tests/validation/h100/kernels.cu), TD = 32:
//
//   __global__ void transpose_shared(const float* in, float* out, int n) {
//     __shared__ float tile[TD][TD];
//     int x = blockIdx.x * TD + threadIdx.x, y = blockIdx.y * TD + threadIdx.y;
//     tile[threadIdx.y][threadIdx.x] = in[y * n + x];
//     __syncthreads();
//     x = blockIdx.y * TD + threadIdx.x; y = blockIdx.x * TD + threadIdx.y;
//     out[y * n + x] = tile[threadIdx.x][threadIdx.y];
//   }
//
// counters.csv row "transpose_shared, n=1024": -D N=1024, grid (32, 32, 1),
// block (32, 32, 1).  Per warp: a coalesced row load and row store (4 sectors
// each), one shared store by row (1 wavefront) and one shared load by column:
// the tile is read by column: a warp (ty fixed) reads words tx*32 + ty, all in
// bank ty: a 32-way bank conflict, 32 wavefronts. Hardware counts 211 more
// wavefronts than the 32 per load (tests/validation/h100/README.md: the
// counter is not perfectly clean).
// Like the CUDA code it has no bounds test: N must be a multiple of 32.

.define N 1024
.define TD 32
.define ROW TD                 // words per tile row

.buffer in  .f32[N*N] random(seed=1, min=-1, max=1)
.buffer out .f32[N*N] zero
.launch transpose_shared grid=(N/TD, N/TD) block=(TD, TD) args=(in, out, N)
.check out ref=transpose(in, N, N)

.entry transpose_shared (.param .u64 in, .param .u64 out, .param .u32 n)
{
    .shared .align 4 .f32 tile[TD*ROW];     // tile[r][c] at word r*ROW + c

    ld.param.u64    %rd1, [in];
    ld.param.u64    %rd2, [out];
    ld.param.u32    %r1, [n];
    mov.u32         %r2, %tid.x;
    mov.u32         %r3, %tid.y;
    mov.u32         %r4, %ctaid.x;
    mov.u32         %r5, %ctaid.y;
    mov.u32         %r6, tile;
    mad.lo.s32      %r7, %r4, TD, %r2;       // x = bx*TD + tx
    mad.lo.s32      %r8, %r5, TD, %r3;       // y = by*TD + ty
    mad.lo.s32      %r9, %r8, %r1, %r7;      // y * n + x
    mul.wide.s32    %rd3, %r9, 4;
    add.s64         %rd4, %rd1, %rd3;
    ld.global.f32   %f1, [%rd4];             // a row of in: coalesced
    mad.lo.s32      %r10, %r3, ROW, %r2;     // tile[ty][tx]
    shl.b32         %r10, %r10, 2;
    add.s32         %r10, %r6, %r10;
    st.shared.f32   [%r10], %f1;             // by row: banks 0..31
    bar.sync        0;
    mad.lo.s32      %r11, %r5, TD, %r2;      // x = by*TD + tx
    mad.lo.s32      %r12, %r4, TD, %r3;      // y = bx*TD + ty
    mad.lo.s32      %r13, %r2, ROW, %r3;     // tile[tx][ty]: ROW words per lane
    shl.b32         %r13, %r13, 2;
    add.s32         %r13, %r6, %r13;
    ld.shared.f32   %f2, [%r13];             // by column
    mad.lo.s32      %r14, %r12, %r1, %r11;   // y * n + x
    mul.wide.s32    %rd5, %r14, 4;
    add.s64         %rd6, %rd2, %rd5;
    st.global.f32   [%rd6], %f2;             // a row of out: coalesced
    ret;
}
