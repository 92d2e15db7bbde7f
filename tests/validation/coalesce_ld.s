// coalesce_ld.s - the H100 reference kernel coalesce_ld (tests/validation/h100/kernels.cu):
//
//   __global__ void coalesce_ld(const float* __restrict__ x, float* __restrict__ y, int stride, int offset) {
//     int i = blockIdx.x * blockDim.x + threadIdx.x;
//     y[i] = x[i * stride + offset] * 2.0f;
//   }
//
// counters.csv rows "coalesce_ld, stride=S offset=O": -D STRIDE=S -D OFFSET=O,
// grid (1, 1, 1), block (1024, 1, 1).  One 4-byte global load and one 4-byte
// global store per thread, as nvcc emits them (LDG.E.CONSTANT, STG.E): a warp's
// load touches 4, 8, 16 or 32 sectors at stride 1, 2, 4, >= 8 words; its store
// always 4.  tests/test_validation.c compares the counters with the hardware's.
//
// x[j] = j, so y[i] = 2 * (i * STRIDE + OFFSET): the check is an iota.

.define STRIDE 1
.define OFFSET 0
.define BLOCK 1024
.define GRID 1
.define NT (GRID*BLOCK)

.buffer x .f32[(NT-1)*STRIDE+OFFSET+1] iota(0, 1)
.buffer y .f32[NT] zero
.buffer expect .f32[NT] iota(2*OFFSET, 2*STRIDE)
.launch coalesce_ld grid=(GRID) block=(BLOCK) args=(x, y, STRIDE, OFFSET)
.check y equals=expect

.entry coalesce_ld (.param .u64 x, .param .u64 y, .param .u32 stride, .param .u32 offset)
{
    ld.param.u64    %rd1, [x];
    ld.param.u64    %rd2, [y];
    ld.param.u32    %r1, [stride];
    ld.param.u32    %r2, [offset];
    mov.u32         %r3, %ctaid.x;
    mov.u32         %r4, %ntid.x;
    mov.u32         %r5, %tid.x;
    mad.lo.s32      %r6, %r3, %r4, %r5;      // i
    mad.lo.s32      %r7, %r6, %r1, %r2;      // i * stride + offset
    mul.wide.s32    %rd3, %r7, 4;
    add.s64         %rd4, %rd1, %rd3;
    ld.global.nc.f32 %f1, [%rd4];            // __restrict__ const: the read-only path
    add.f32         %f2, %f1, %f1;           // * 2.0f
    mul.wide.s32    %rd5, %r6, 4;
    add.s64         %rd6, %rd2, %rd5;
    st.global.f32   [%rd6], %f2;
    ret;
}
