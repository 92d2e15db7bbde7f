// coalesce_st.s - the H100 reference kernel coalesce_st (tests/validation/h100/kernels.cu):
//
//   __global__ void coalesce_st(const float* __restrict__ x, float* __restrict__ y, int stride, int offset) {
//     int i = blockIdx.x * blockDim.x + threadIdx.x;
//     y[i * stride + offset] = x[i] * 2.0f;
//   }
//
// counters.csv rows "coalesce_st, stride=S offset=O": -D STRIDE=S -D OFFSET=O,
// grid (1, 1, 1), block (1024, 1, 1).  The load is coalesced (4 sectors per
// warp), the store touches 4 x min(STRIDE, 8) sectors per warp.
//
// x[i] = i, so y[i * STRIDE + OFFSET] = 2i and the rest of y stays 0.  The
// check reads y back at stride STRIDE (strided(y, STRIDE)) and compares it
// with twice x.  The host reference has no offset, so the check is exact for
// OFFSET = 0, as in every CSV row; tests/test_validation.c checks all of y.

.define STRIDE 1
.define OFFSET 0
.define BLOCK 1024
.define GRID 1
.define NT (GRID*BLOCK)

.buffer x .f32[NT] iota(0, 1)
.buffer y .f32[(NT-1)*STRIDE+OFFSET+1] zero
.buffer twice_x .f32[NT] iota(0, 2)
.launch coalesce_st grid=(GRID) block=(BLOCK) args=(x, y, STRIDE, OFFSET)
.check twice_x ref=strided(y, STRIDE)

.entry coalesce_st (.param .u64 x, .param .u64 y, .param .u32 stride, .param .u32 offset)
{
    ld.param.u64    %rd1, [x];
    ld.param.u64    %rd2, [y];
    ld.param.u32    %r1, [stride];
    ld.param.u32    %r2, [offset];
    mov.u32         %r3, %ctaid.x;
    mov.u32         %r4, %ntid.x;
    mov.u32         %r5, %tid.x;
    mad.lo.s32      %r6, %r3, %r4, %r5;      // i
    mul.wide.s32    %rd3, %r6, 4;
    add.s64         %rd4, %rd1, %rd3;
    ld.global.nc.f32 %f1, [%rd4];            // x[i]: coalesced
    add.f32         %f2, %f1, %f1;           // * 2.0f
    mad.lo.s32      %r7, %r6, %r1, %r2;      // i * stride + offset
    mul.wide.s32    %rd5, %r7, 4;
    add.s64         %rd6, %rd2, %rd5;
    st.global.f32   [%rd6], %f2;             // strided store
    ret;
}
