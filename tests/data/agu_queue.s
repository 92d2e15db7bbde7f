// agu_queue.s - warps queue for their processing block's address stage.
// A block of 4 x K warps, K on each of hopper.ini's 4 schedulers; each
// warp issues one global load (one line a warp) and ends.
// test_timing.c: each load holds its scheduler's address stage
// unit.lsu_global_cycles = 6 cycles, so K warps' loads issue 6 cycles
// apart, in whatever order the policy takes the warps.
.define K 8
.buffer g .u32[32*4*K] zero
.launch k grid=(1) block=(32*4*K) args=(g)

.entry k (.param .u64 pg)
{
    .reg .b32 %r<4>;
    .reg .b64 %rd<6>;
    ld.param.u64    %rd2, [pg];
    mov.u32         %r1, %tid.x;
    mul.wide.u32    %rd3, %r1, 4;           // a line a warp
    add.s64         %rd4, %rd2, %rd3;
    bar.sync        0;                      // all warps want the stage at once
    ld.global.u32   %r2, [%rd4];
    ret;
}
