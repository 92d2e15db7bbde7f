// values(): small inline data (test_cli.c)
.buffer m .f32[3] values(0.25, 0.5, 0.25)
.buffer o .f32[3] zero
.launch copy3 grid=(1) block=(3) args=(m, o)
.check o equals=m

.entry copy3 (.param .u64 a, .param .u64 b)
{
    ld.param.u64      %rd1, [a];
    ld.param.u64      %rd2, [b];
    mov.u32           %r1, %tid.x;
    mul.wide.u32      %rd3, %r1, 4;
    add.s64           %rd4, %rd1, %rd3;
    add.s64           %rd5, %rd2, %rd3;
    ld.global.f32     %f1, [%rd4];
    st.global.f32     [%rd5], %f1;
    ret;
}
