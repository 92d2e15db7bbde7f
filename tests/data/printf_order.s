// printf_order.s - CUDA's printf as nvcc compiles it (a vprintf call with the
// arguments packed in local memory), to pin down the order gpusim prints in:
// launch by launch, block, warp, the warp's call, lane.  Two blocks of two
// warps; lanes 0 and 16 of each warp print twice:
//   printf("blk %d warp %d lane %d call %d %s %.3f\n", blockIdx.x, warp, lane, call, "ok", 0.5);
// tests/test_printf.c expects 16 lines, the same in functional and timed runs.

.buffer out .u32[1] zero
.launch printer grid=(2) block=(64) args=(out)

.version 8.0
.target sm_90
.address_size 64

.extern .func (.param .b32 func_retval0) vprintf (.param .b64 vprintf_param_0, .param .b64 vprintf_param_1);
.global .align 1 .b8 $str[40] = {98, 108, 107, 32, 37, 100, 32, 119, 97, 114, 112, 32, 37, 100, 32, 108, 97, 110, 101, 32, 37, 100, 32, 99, 97, 108, 108, 32, 37, 100, 32, 37, 115, 32, 37, 46, 51, 102, 10, 0};
.global .align 1 .b8 $str1[3] = {111, 107, 0};

.visible .entry printer(.param .u64 out)
{
    .local .align 8 .b8 __local_depot0[32];
    .reg .b64 %SP;
    .reg .b64 %SPL;
    .reg .pred %p<2>;
    .reg .b32 %r<12>;
    .reg .f64 %fd<2>;
    .reg .b64 %rd<8>;

    mov.u64         %SPL, __local_depot0;
    cvta.local.u64  %SP, %SPL;
    mov.u32         %r1, %ctaid.x;
    mov.u32         %r2, %tid.x;
    shr.u32         %r3, %r2, 5;          // warp
    and.b32         %r4, %r2, 31;         // lane
    and.b32         %r5, %r2, 15;
    setp.ne.s32     %p1, %r5, 0;
    @%p1 bra        DONE;
    mov.u32         %r6, 0;               // call
LOOP:
    add.u64         %rd1, %SP, 0;
    add.u64         %rd2, %SPL, 0;
    st.local.v2.u32 [%rd2], {%r1, %r3};
    st.local.v2.u32 [%rd2+8], {%r4, %r6};
    mov.u64         %rd3, $str1;
    cvta.global.u64 %rd4, %rd3;
    st.local.u64    [%rd2+16], %rd4;
    mov.f64         %fd1, 0d3FE0000000000000;
    st.local.f64    [%rd2+24], %fd1;
    mov.u64         %rd5, $str;
    cvta.global.u64 %rd6, %rd5;
    {
    .param .b64 param0;
    st.param.b64    [param0+0], %rd6;
    .param .b64 param1;
    st.param.b64    [param1+0], %rd1;
    .param .b32 retval0;
    call.uni (retval0), vprintf, (param0, param1);
    ld.param.b32    %r7, [retval0+0];
    }
    ld.param.u64    %rd7, [out];
    st.global.u32   [%rd7], %r7;          // printf's result: 6 arguments
    add.s32         %r6, %r6, 1;
    setp.lt.s32     %p1, %r6, 2;
    @%p1 bra        LOOP;
DONE:
    ret;
}
