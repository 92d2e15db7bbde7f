// ready_split.s - two warps each run a mov, an add and a sin.approx.f32
// (the SFU) on the mov's result, then ret: one warp's sin is ready while
// the other's add takes the issue slot (not_selected, its SFU free), and
// the other's sin then waits while the first warp's holds the SFU
// (math_pipe_throttle).  test_timing ready_warps_charged works the
// states out cycle by cycle on tiny.ini.
.launch ready_split grid=(1) block=(16)

.entry ready_split ()
{
    mov.f32         %f1, 0f3F800000;
    add.f32         %f3, %f1, %f1;
    sin.approx.f32  %f2, %f1;
    ret;
}
