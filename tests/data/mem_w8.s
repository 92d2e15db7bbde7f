// mem_w8.s - one warp's memory pattern at warp size 8 (configs/tiny.ini):
// 8 threads, each lane l touching word l*STRIDE of a global buffer (one
// load) and of a shared array (one store, one load).  Expected, with
// 32-byte sectors and 8 four-byte banks (tests/test_configs.c pins them):
//   STRIDE 1: 32 contiguous bytes = 1 request, 1 sector; banks 0..7: 1 wavefront
//   STRIDE 2: 2 sectors; banks 0,2,4,6,0,2,4,6: 2-way conflict, 2 wavefronts
//   STRIDE 8: 8 sectors (one per lane); every lane in bank 0: 8 wavefronts
.define STRIDE 1
.define N (8*STRIDE)
.buffer in  .u32[N] iota
.buffer out .u32[8] zero
.launch mem_w8 grid=(1) block=(8) args=(in, out)
.check out ref=strided(in, STRIDE)

.entry mem_w8 (.param .u64 in, .param .u64 out)
{
    .shared .align 4 .u32 s[N];
    ld.param.u64    %rd1, [in];
    ld.param.u64    %rd2, [out];
    mov.u32         %r1, %tid.x;
    mul.lo.u32      %r2, %r1, STRIDE;        // word l*STRIDE
    mul.wide.u32    %rd3, %r2, 4;
    add.s64         %rd4, %rd1, %rd3;
    ld.global.u32   %r3, [%rd4];             // in[l*STRIDE]
    mov.u32         %r4, s;
    shl.b32         %r5, %r2, 2;
    add.s32         %r4, %r4, %r5;
    st.shared.u32   [%r4], %r3;              // s[l*STRIDE] = in[l*STRIDE]
    ld.shared.u32   %r6, [%r4];
    mul.wide.u32    %rd5, %r1, 4;
    add.s64         %rd6, %rd2, %rd5;
    st.global.u32   [%rd6], %r6;             // out[l] = s[l*STRIDE]
    ret;
}
