// l1_local_relaunch.s - a dirty L1 line across launches: in the first launch
// one warp stores its lane number to local memory (write-back in L1: one
// 128-byte line, 4 dirty sectors, 32 lanes x 4 bytes interleaved word by
// word) and reads it back into out (one line); the second launch only
// writes out.  With l1.invalidate_on_launch the L1 is emptied before the
// second launch: the dirty local line must reach L2 and be counted as
// written at the end (128 + 128 bytes), as when the L1 keeps it
// (test_timing.c).
.buffer out .u32[32] zero
.launch k grid=(1) block=(32) args=(out, 1)
.launch k grid=(1) block=(32) args=(out, 0)

.entry k (.param .u64 po, .param .u32 plocal)
{
    .local .align 4 .u32 l[1];
    ld.param.u64    %rd1, [po];
    ld.param.u32    %r3, [plocal];
    mov.u32         %r1, %tid.x;
    mov.u32         %r2, %r1;
    setp.eq.u32     %p1, %r3, 0;
    @%p1 bra        STORE;
    st.local.u32    [l], %r1;
    ld.local.u32    %r2, [l];
STORE:
    mul.wide.u32    %rd2, %r1, 4;
    add.s64         %rd3, %rd1, %rd2;
    st.global.u32   [%rd3], %r2;
    ret;
}
