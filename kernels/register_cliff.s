// register_cliff.s - the register cliff: two more registers per thread, one
// block fewer per SM (seed 004, section 4.7, the 31 vs 33 registers example).
//
// What it shows: occupancy limited by the register file.  The entry states
// its register count with `.nregs REGS` instead of letting the assembler
// count (the kernel really needs far fewer), so -D REGS=.. plays the
// compiler that allocates two more registers.  Seed 004's numbers are for an
// A100 (configs/ampere.ini: 2048 threads, 64 warps and 65536 registers per
// SM) and blocks of 512 threads (16 warps):
//   REGS=31: 2048 threads x 31 = 63488 registers fit: 4 blocks/SM, 100%;
//   REGS=33: 2048 x 33 = 67584 do not: 3 blocks/SM (50688), 75%.
// gpusim allocates registers per warp in units of sm.reg_alloc_unit (256 on
// ampere.ini), so a warp at 31 registers takes 992 -> 1024 and one at 33
// takes 1056 -> 1280; the cliff is between 32 and 33.  On fermi.ini (32768
// registers, 1536 threads, unit 64) the same block falls from 3 to 2 blocks
// per SM between 20 and 21 registers.
//
// The work makes the lost warps matter: every thread does ROUNDS rounds of
// "load in[i], add it", and the add waits for the load.  ld.global.cg is
// cached in L2 only (PTX "cache global"), so every round pays the L2
// latency, which only other resident warps can hide.  out[i] = ROUNDS*in[i].
//
// What to change: -D REGS=.. (1..255, at most sm.max_regs_per_thread of the
// config), -D BLOCK=.., -D N=.. (N = 6144 is 12 blocks of 512: on one SM,
// 3 waves of 4 blocks or 4 waves of 3), -D ROUNDS=...
// What to look for: `--occupancy` (the registers row binds), and with
// `--set gpu.num_sms=1` on ampere.ini the cycles: 4 waves take longer than 3.
// What to look for (default size, --functional): 12 blocks, 192 warps,
// global loads 1536 = 192 x ROUNDS, global stores 192, divergent branches 0.
// sizes: REGS=33 | N=1000 BLOCK=128 REGS=63 | N=77 BLOCK=32 ROUNDS=1 | N=4096 REGS=20
.define N 6144
.define BLOCK 512
.define REGS 31                         // registers per thread, as a compiler would report
.define ROUNDS 8

.buffer in  .u32[N] iota
.buffer out .u32[N] zero
.launch register_cliff grid=((N+BLOCK-1)/BLOCK) block=(BLOCK) args=(in, out, N)
.check out ref=affine(in, ROUNDS, 0)

.entry register_cliff (.param .u64 in, .param .u64 out, .param .u32 n)
.nregs REGS
{
    ld.param.u64    %rd1, [in];
    ld.param.u64    %rd2, [out];
    ld.param.u32    %r1, [n];
    mov.u32         %r2, %ctaid.x;
    mov.u32         %r3, %ntid.x;
    mov.u32         %r4, %tid.x;
    mad.lo.s32      %r5, %r2, %r3, %r4;      // i = blockIdx.x*blockDim.x + threadIdx.x
    setp.ge.s32     %p1, %r5, %r1;
    @%p1 bra        DONE;

    mul.wide.s32    %rd3, %r5, 4;
    add.s64         %rd4, %rd1, %rd3;        // &in[i]
    mov.u32         %r6, 0;                  // sum
    mov.u32         %r7, 0;                  // round
LOOP:
    ld.global.cg.u32 %r8, [%rd4];            // in[i], from L2: a long wait ...
    add.s32         %r6, %r6, %r8;           // ... before this add can issue
    add.s32         %r7, %r7, 1;
    setp.lt.s32     %p2, %r7, ROUNDS;
    @%p2 bra        LOOP;

    add.s64         %rd5, %rd2, %rd3;
    st.global.u32   [%rd5], %r6;             // out[i] = ROUNDS*in[i]
DONE:
    ret;
}
