// pointer_chase.s - memory latency by a dependent-load chain timed with
// %clock64, as tests/validation/h100/latency.txt measures it on the H100.
//
// One thread walks a chain over BYTES bytes of global memory at STRIDE bytes:
// the 8-byte word at offset o holds o + STRIDE, the next load's offset
// (iota(STRIDE, 8) over 8-byte elements), so each load's address depends on
// the previous load's value:
//
//     p = chain;  repeat LOADS times:  p = chain + *p       (ld + add)
//
// PASSES passes walk the whole chain (LOADS = BYTES / STRIDE loads each);
// only the last is timed, the earlier ones warm the caches.  PASSES = 1
// times a cold walk: with the memory hierarchy every load then goes to DRAM.
// CG = 1 loads with ld.global.cg (cached in L2 only, the L1 bypassed), as
// latency.txt's "global_cg" rows; CG = 0 with ld.global (L1 and L2).
//
// cycles[0] = clock64 after the timed pass - clock64 before it, cycles[1] =
// LOADS, cycles[2] = cycles[0] / LOADS (rounded down).  Per load that is the
// load-to-use latency plus the dependent add (lat.alu): a load can issue
// only when the add that forms its address has its result.  The loop is
// unrolled 16 times and its counter work issues in the shadow of the first
// load, so the only other cost is one taken branch per 16 loads.  .check can
// not know the cycles: it checks the chain's end, result[0] = BYTES (the
// pointer's offset after the timed pass).  Read cycles with
//
//   ./gpusim --dump cycles configs/hopper.ini tests/validation/pointer_chase.s
//
// and the other rows of latency.txt with -D BYTES=... -D STRIDE=... -D CG=1
// -D PASSES=1 (docs/validation.md lists the commands; tests/test_validation.c
// runs them).  BYTES must be a multiple of 16 x STRIDE, STRIDE of 8.

.define BYTES 16384
.define STRIDE 128
.define PASSES 2
.define CG 0
.define LOADS (BYTES/STRIDE)

.buffer chain  .u64[BYTES/8] iota(STRIDE, 8)
.buffer result .u64[1] zero
.buffer expect .u64[1] fill(BYTES)
.buffer cycles .u64[3] zero
.launch chase grid=(1) block=(1) args=(chain, result, cycles, LOADS, PASSES, CG)
.check result equals=expect

.entry chase (.param .u64 chain, .param .u64 result, .param .u64 cycles,
              .param .u32 loads, .param .u32 passes, .param .u32 cg)
{
    ld.param.u64    %rd1, [chain];           // base
    ld.param.u64    %rd2, [result];
    ld.param.u64    %rd3, [cycles];
    ld.param.u32    %r1, [loads];
    ld.param.u32    %r2, [passes];
    ld.param.u32    %r3, [cg];
    setp.ne.u32     %p1, %r3, 0;             // ld.global.cg
    shr.u32         %r4, %r1, 4;             // loop trips per pass: 16 loads each
    mov.u64         %rd4, %rd1;              // p
PASS:
    sub.s32         %r2, %r2, 1;             // passes left after this one
    mov.u32         %r5, %r4;
    mov.u64         %rd5, %clock64;          // t0
    @%p1 bra        CG_LOOP;
CA_LOOP:
    ld.global.u64   %rd6, [%rd4];
    sub.s32         %r5, %r5, 1;             // in the shadow of the load
    setp.ne.s32     %p2, %r5, 0;
    add.s64         %rd4, %rd1, %rd6;        // p = chain + *p
    ld.global.u64   %rd6, [%rd4];
    add.s64         %rd4, %rd1, %rd6;        // p = chain + *p
    ld.global.u64   %rd6, [%rd4];
    add.s64         %rd4, %rd1, %rd6;        // p = chain + *p
    ld.global.u64   %rd6, [%rd4];
    add.s64         %rd4, %rd1, %rd6;        // p = chain + *p
    ld.global.u64   %rd6, [%rd4];
    add.s64         %rd4, %rd1, %rd6;        // p = chain + *p
    ld.global.u64   %rd6, [%rd4];
    add.s64         %rd4, %rd1, %rd6;        // p = chain + *p
    ld.global.u64   %rd6, [%rd4];
    add.s64         %rd4, %rd1, %rd6;        // p = chain + *p
    ld.global.u64   %rd6, [%rd4];
    add.s64         %rd4, %rd1, %rd6;        // p = chain + *p
    ld.global.u64   %rd6, [%rd4];
    add.s64         %rd4, %rd1, %rd6;        // p = chain + *p
    ld.global.u64   %rd6, [%rd4];
    add.s64         %rd4, %rd1, %rd6;        // p = chain + *p
    ld.global.u64   %rd6, [%rd4];
    add.s64         %rd4, %rd1, %rd6;        // p = chain + *p
    ld.global.u64   %rd6, [%rd4];
    add.s64         %rd4, %rd1, %rd6;        // p = chain + *p
    ld.global.u64   %rd6, [%rd4];
    add.s64         %rd4, %rd1, %rd6;        // p = chain + *p
    ld.global.u64   %rd6, [%rd4];
    add.s64         %rd4, %rd1, %rd6;        // p = chain + *p
    ld.global.u64   %rd6, [%rd4];
    add.s64         %rd4, %rd1, %rd6;        // p = chain + *p
    ld.global.u64   %rd6, [%rd4];
    add.s64         %rd4, %rd1, %rd6;        // p = chain + *p
    @%p2 bra        CA_LOOP;
    bra.uni         PASS_END;
CG_LOOP:
    ld.global.cg.u64 %rd6, [%rd4];
    sub.s32         %r5, %r5, 1;             // in the shadow of the load
    setp.ne.s32     %p2, %r5, 0;
    add.s64         %rd4, %rd1, %rd6;        // p = chain + *p
    ld.global.cg.u64 %rd6, [%rd4];
    add.s64         %rd4, %rd1, %rd6;        // p = chain + *p
    ld.global.cg.u64 %rd6, [%rd4];
    add.s64         %rd4, %rd1, %rd6;        // p = chain + *p
    ld.global.cg.u64 %rd6, [%rd4];
    add.s64         %rd4, %rd1, %rd6;        // p = chain + *p
    ld.global.cg.u64 %rd6, [%rd4];
    add.s64         %rd4, %rd1, %rd6;        // p = chain + *p
    ld.global.cg.u64 %rd6, [%rd4];
    add.s64         %rd4, %rd1, %rd6;        // p = chain + *p
    ld.global.cg.u64 %rd6, [%rd4];
    add.s64         %rd4, %rd1, %rd6;        // p = chain + *p
    ld.global.cg.u64 %rd6, [%rd4];
    add.s64         %rd4, %rd1, %rd6;        // p = chain + *p
    ld.global.cg.u64 %rd6, [%rd4];
    add.s64         %rd4, %rd1, %rd6;        // p = chain + *p
    ld.global.cg.u64 %rd6, [%rd4];
    add.s64         %rd4, %rd1, %rd6;        // p = chain + *p
    ld.global.cg.u64 %rd6, [%rd4];
    add.s64         %rd4, %rd1, %rd6;        // p = chain + *p
    ld.global.cg.u64 %rd6, [%rd4];
    add.s64         %rd4, %rd1, %rd6;        // p = chain + *p
    ld.global.cg.u64 %rd6, [%rd4];
    add.s64         %rd4, %rd1, %rd6;        // p = chain + *p
    ld.global.cg.u64 %rd6, [%rd4];
    add.s64         %rd4, %rd1, %rd6;        // p = chain + *p
    ld.global.cg.u64 %rd6, [%rd4];
    add.s64         %rd4, %rd1, %rd6;        // p = chain + *p
    ld.global.cg.u64 %rd6, [%rd4];
    add.s64         %rd4, %rd1, %rd6;        // p = chain + *p
    @%p2 bra        CG_LOOP;
PASS_END:
    mov.u64         %rd7, %clock64;          // t1: the last add has issued, its load is back
    sub.s64         %rd8, %rd4, %rd1;        // offset reached: BYTES
    sub.s64         %rd4, %rd4, BYTES;       // back to the start, after the chain's end
    setp.ne.s32     %p3, %r2, 0;
    @%p3 bra        PASS;

    st.global.u64   [%rd2], %rd8;
    sub.s64         %rd9, %rd7, %rd5;
    st.global.u64   [%rd3], %rd9;
    cvt.u64.u32     %rd10, %r1;
    st.global.u64   [%rd3+8], %rd10;
    div.u64         %rd11, %rd9, %rd10;
    st.global.u64   [%rd3+16], %rd11;
    ret;
}
