// l1_relaunch.s - the same warp load in two launches: one warp reads g[0..31]
// (one 128-byte line, 4 sectors) and stores the sum.  With the L1 kept between
// launches the second launch hits all 4 sectors; with l1.invalidate_on_launch
// it misses them again (test_timing.c).
.buffer g .u32[32] zero
.buffer out .u32[32] zero
.launch k grid=(1) block=(32) args=(g, out)
.launch k grid=(1) block=(32) args=(g, out)

.entry k (.param .u64 pg, .param .u64 po)
{
    ld.param.u64    %rd1, [pg];
    ld.param.u64    %rd2, [po];
    mov.u32         %r1, %tid.x;
    mul.wide.u32    %rd3, %r1, 4;
    add.s64         %rd4, %rd1, %rd3;
    add.s64         %rd5, %rd2, %rd3;
    ld.global.u32   %r2, [%rd4];
    st.global.u32   [%rd5], %r2;
    ret;
}
