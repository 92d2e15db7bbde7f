// pipe_pool.s - WARPS warps each issue 64 independent add.f32 in a
// straight line (16 registers in turn), after mov and cvt and before
// mul.wide, add.s64 and ret: 69 instructions on the SP pipe a warp
// (ld.param takes no pipe, the store the LSU).  fermi.ini's two groups of
// 16 lanes each take a warp instruction every 2 cycles, pooled between
// the 2 schedulers: one a cycle, so 24 more warps cost 24 x 69 = 1656
// more cycles (test_timing pooled_pipe_throughput).
.define WARPS 8
.buffer out .f32[WARPS*32] zero
.buffer want .f32[WARPS*32] expr(i + 64)
.launch pipe_pool grid=(1) block=(WARPS*32) args=(out)
.check out equals=want

.entry pipe_pool (.param .u64 out)
{
    ld.param.u64    %rd1, [out];
    mov.u32         %r1, %tid.x;
    cvt.rn.f32.u32  %f1, %r1;
    add.f32         %f10, %f1, 1.0;
    add.f32         %f11, %f1, 2.0;
    add.f32         %f12, %f1, 3.0;
    add.f32         %f13, %f1, 4.0;
    add.f32         %f14, %f1, 5.0;
    add.f32         %f15, %f1, 6.0;
    add.f32         %f16, %f1, 7.0;
    add.f32         %f17, %f1, 8.0;
    add.f32         %f18, %f1, 9.0;
    add.f32         %f19, %f1, 10.0;
    add.f32         %f20, %f1, 11.0;
    add.f32         %f21, %f1, 12.0;
    add.f32         %f22, %f1, 13.0;
    add.f32         %f23, %f1, 14.0;
    add.f32         %f24, %f1, 15.0;
    add.f32         %f25, %f1, 16.0;
    add.f32         %f10, %f1, 17.0;
    add.f32         %f11, %f1, 18.0;
    add.f32         %f12, %f1, 19.0;
    add.f32         %f13, %f1, 20.0;
    add.f32         %f14, %f1, 21.0;
    add.f32         %f15, %f1, 22.0;
    add.f32         %f16, %f1, 23.0;
    add.f32         %f17, %f1, 24.0;
    add.f32         %f18, %f1, 25.0;
    add.f32         %f19, %f1, 26.0;
    add.f32         %f20, %f1, 27.0;
    add.f32         %f21, %f1, 28.0;
    add.f32         %f22, %f1, 29.0;
    add.f32         %f23, %f1, 30.0;
    add.f32         %f24, %f1, 31.0;
    add.f32         %f25, %f1, 32.0;
    add.f32         %f10, %f1, 33.0;
    add.f32         %f11, %f1, 34.0;
    add.f32         %f12, %f1, 35.0;
    add.f32         %f13, %f1, 36.0;
    add.f32         %f14, %f1, 37.0;
    add.f32         %f15, %f1, 38.0;
    add.f32         %f16, %f1, 39.0;
    add.f32         %f17, %f1, 40.0;
    add.f32         %f18, %f1, 41.0;
    add.f32         %f19, %f1, 42.0;
    add.f32         %f20, %f1, 43.0;
    add.f32         %f21, %f1, 44.0;
    add.f32         %f22, %f1, 45.0;
    add.f32         %f23, %f1, 46.0;
    add.f32         %f24, %f1, 47.0;
    add.f32         %f25, %f1, 48.0;
    add.f32         %f10, %f1, 49.0;
    add.f32         %f11, %f1, 50.0;
    add.f32         %f12, %f1, 51.0;
    add.f32         %f13, %f1, 52.0;
    add.f32         %f14, %f1, 53.0;
    add.f32         %f15, %f1, 54.0;
    add.f32         %f16, %f1, 55.0;
    add.f32         %f17, %f1, 56.0;
    add.f32         %f18, %f1, 57.0;
    add.f32         %f19, %f1, 58.0;
    add.f32         %f20, %f1, 59.0;
    add.f32         %f21, %f1, 60.0;
    add.f32         %f22, %f1, 61.0;
    add.f32         %f23, %f1, 62.0;
    add.f32         %f24, %f1, 63.0;
    add.f32         %f25, %f1, 64.0;
    mul.wide.u32    %rd2, %r1, 4;
    add.s64         %rd3, %rd1, %rd2;
    st.global.f32   [%rd3], %f25;
    ret;
}
