// latency_hiding.s - how many warps does it take to hide memory latency?
// (seed 003, "latency hiding" from first principles)
//
// What it shows: every warp does 16 rounds of "load a value, then use
// it".  The use depends on the load, so a warp can issue at most one
// instruction pair per load latency L; with n warps resident, the scheduler
// finds about 2n/L instructions per cycle to issue.  Issue rate (IPC) grows
// with the number of resident warps until the issue slot is full.
//
// What to change: -D WARPS=1,2,4,...,32 (one block of WARPS warps of WS
// threads; WS is 32, so on a config with another sm.warp_size give -D WS=
// the same value to keep WARPS warps).  To see
// the seed's model exactly, give the SM one scheduler and a full-width LSU,
// and a round latency:
//   ./gpusim --set gpu.num_sms=1 --set sm.schedulers=1 --set unit.lsu_width=32 \
//            --set mem.model=fixed --set lat.global_fixed=64 --set lat.alu=4 -D WARPS=8 \
//            configs/fermi.ini kernels/latency_hiding.s
// What to look for: IPC per active SM and long_scoreboard stalls as WARPS
// grows: with L = 64 and two instructions per round, IPC reaches ~1 near
// WARPS = 32 (= L/2), and long_scoreboard's share falls.
// sizes: WARPS=1 | WARPS=32 | WARPS=5
.define WARPS 8
.define WS 32                        // threads per warp: match sm.warp_size
.define N (WARPS*WS)
.buffer in .u32[N] iota
.buffer out .u32[N] zero
.launch latency_hiding grid=(1) block=(N) args=(in, out)
.check out ref=affine(in, 16, 0)

.entry latency_hiding (.param .u64 in, .param .u64 out)
{
    ld.param.u64    %rd1, [in];
    ld.param.u64    %rd2, [out];
    mov.u32         %r1, %tid.x;
    mul.wide.u32    %rd3, %r1, 4;
    add.s64         %rd4, %rd1, %rd3;
    mov.u32         %r2, 0;
    ld.global.u32   %r3, [%rd4];     // round 1: load ...
    add.s32         %r2, %r2, %r3;   // ... and use it (waits L cycles)
    ld.global.u32   %r3, [%rd4];
    add.s32         %r2, %r2, %r3;
    ld.global.u32   %r3, [%rd4];
    add.s32         %r2, %r2, %r3;
    ld.global.u32   %r3, [%rd4];
    add.s32         %r2, %r2, %r3;
    ld.global.u32   %r3, [%rd4];
    add.s32         %r2, %r2, %r3;
    ld.global.u32   %r3, [%rd4];
    add.s32         %r2, %r2, %r3;
    ld.global.u32   %r3, [%rd4];
    add.s32         %r2, %r2, %r3;
    ld.global.u32   %r3, [%rd4];     // round 8
    add.s32         %r2, %r2, %r3;
    ld.global.u32   %r3, [%rd4];
    add.s32         %r2, %r2, %r3;
    ld.global.u32   %r3, [%rd4];
    add.s32         %r2, %r2, %r3;
    ld.global.u32   %r3, [%rd4];
    add.s32         %r2, %r2, %r3;
    ld.global.u32   %r3, [%rd4];
    add.s32         %r2, %r2, %r3;
    ld.global.u32   %r3, [%rd4];
    add.s32         %r2, %r2, %r3;
    ld.global.u32   %r3, [%rd4];
    add.s32         %r2, %r2, %r3;
    ld.global.u32   %r3, [%rd4];
    add.s32         %r2, %r2, %r3;
    ld.global.u32   %r3, [%rd4];     // round 16
    add.s32         %r2, %r2, %r3;
    add.s64         %rd5, %rd2, %rd3;
    st.global.u32   [%rd5], %r2;
    ret;
}
