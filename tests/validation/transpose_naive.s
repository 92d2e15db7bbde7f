// transpose_naive.s - the H100 reference kernel transpose_naive
// (tests/validation/h100/kernels.cu), TD = 32:
//
//   __global__ void transpose_naive(const float* in, float* out, int n) {
//     int x = blockIdx.x * TD + threadIdx.x, y = blockIdx.y * TD + threadIdx.y;
//     out[x * n + y] = in[y * n + x];
//   }
//
// counters.csv row "transpose_naive, n=1024": -D N=1024, grid (32, 32, 1),
// block (32, 32, 1).  A warp (ty fixed, tx = 0..31) reads a row of in (4
// sectors) and writes a column of out: 32 lanes n floats apart, 32 sectors.
// Like the CUDA code it has no bounds test: N must be a multiple of 32.

.define N 1024
.define TD 32

.buffer in  .f32[N*N] random(seed=1, min=-1, max=1)
.buffer out .f32[N*N] zero
.launch transpose_naive grid=(N/TD, N/TD) block=(TD, TD) args=(in, out, N)
.check out ref=transpose(in, N, N)

.entry transpose_naive (.param .u64 in, .param .u64 out, .param .u32 n)
{
    ld.param.u64    %rd1, [in];
    ld.param.u64    %rd2, [out];
    ld.param.u32    %r1, [n];
    mov.u32         %r2, %ctaid.x;
    mov.u32         %r3, %tid.x;
    mad.lo.s32      %r4, %r2, TD, %r3;       // x
    mov.u32         %r5, %ctaid.y;
    mov.u32         %r6, %tid.y;
    mad.lo.s32      %r7, %r5, TD, %r6;       // y
    mad.lo.s32      %r8, %r7, %r1, %r4;      // y * n + x
    mul.wide.s32    %rd3, %r8, 4;
    add.s64         %rd4, %rd1, %rd3;
    ld.global.f32   %f1, [%rd4];             // a row: coalesced
    mad.lo.s32      %r9, %r4, %r1, %r7;      // x * n + y
    mul.wide.s32    %rd5, %r9, 4;
    add.s64         %rd6, %rd2, %rd5;
    st.global.f32   [%rd6], %f1;             // a column: one sector per lane
    ret;
}
