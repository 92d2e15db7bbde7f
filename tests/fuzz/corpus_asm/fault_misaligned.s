// fault_misaligned.s - ld.global.f32 at an address that is not a multiple
// of 4 (tests/test_faults.c): thread t reads at byte offset 2t, so thread 1
// (lane 1) is the first misaligned one.
.buffer a .f32[64] iota
.buffer out .f32[32] zero
.launch k grid=1 block=32 args=(a, out)

.entry k (.param .u64 a, .param .u64 out)
{
    ld.param.u64  %rd1, [a];
    ld.param.u64  %rd2, [out];
    mov.u32       %r1, %tid.x;
    mul.wide.u32  %rd3, %r1, 2;              // should have been 4
    add.s64       %rd4, %rd1, %rd3;
    ld.global.f32 %f1, [%rd4];
    mul.wide.u32  %rd5, %r1, 4;
    add.s64       %rd6, %rd2, %rd5;
    st.global.f32 [%rd6], %f1;
    ret;
}
