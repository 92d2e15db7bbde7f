// fault_oob.s - vector add without its bounds test (tests/test_faults.c).
// 16 blocks of 64 threads = 1024 threads for 1003 elements: thread 43 of
// block 15 (warp 1, lane 11) is the first to store c[1003], one past the
// end.  a and b are rounded up to the grid so that only the store faults.
.define N 1003
.define BLOCK 64
.buffer a .f32[1024] random(seed=1)
.buffer b .f32[1024] random(seed=2)
.buffer c .f32[N] zero
.launch vecadd grid=((N+BLOCK-1)/BLOCK) block=(BLOCK) args=(a, b, c, N)

.entry vecadd (.param .u64 a, .param .u64 b, .param .u64 c, .param .u32 n)
{
    ld.param.u64  %rd1, [a];
    ld.param.u64  %rd2, [b];
    ld.param.u64  %rd3, [c];
    mov.u32       %r2, %ctaid.x;
    mov.u32       %r3, %ntid.x;
    mov.u32       %r4, %tid.x;
    mad.lo.s32    %r1, %r2, %r3, %r4;
    mul.wide.s32  %rd4, %r1, 4;
    add.s64       %rd5, %rd1, %rd4;
    add.s64       %rd6, %rd2, %rd4;
    add.s64       %rd7, %rd3, %rd4;
    ld.global.f32 %f1, [%rd5];
    ld.global.f32 %f2, [%rd6];
    add.f32       %f3, %f1, %f2;
    st.global.f32 [%rd7], %f3;               // no "if (i < n)": faults at i = 1003
    ret;
}
