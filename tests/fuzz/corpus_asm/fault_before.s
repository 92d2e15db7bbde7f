// fault_before.s - a read before the start of a buffer (tests/test_faults.c).
// Thread (x, y) of an 8x4 block reads a[20 - (8y + x)]: thread (5,2,0),
// lane 21, is the first to read a[-1].
.buffer a .u32[64] iota
.buffer out .u32[32] zero
.launch k grid=1 block=(8, 4) args=(a, out)

.entry k (.param .u64 a, .param .u64 out)
{
    ld.param.u64  %rd1, [a];
    ld.param.u64  %rd2, [out];
    mov.u32       %r1, %tid.x;
    mov.u32       %r2, %tid.y;
    mad.lo.u32    %r3, %r2, 8, %r1;          // linear thread index
    sub.s32       %r4, 20, %r3;              // negative from thread 21 on
    mul.wide.s32  %rd3, %r4, 4;
    add.s64       %rd4, %rd1, %rd3;
    ld.global.u32 %r5, [%rd4];
    mul.wide.u32  %rd5, %r3, 4;
    add.s64       %rd6, %rd2, %rd5;
    st.global.u32 [%rd6], %r5;
    ret;
}
