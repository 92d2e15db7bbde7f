// fault_watchdog_warps.s - the timing watchdog (--max-cycles) names the warp
// of the endless loop: block 0 ends at once, block 1's warp 0 waits at a
// barrier that its warp 1, looping for ever, never reaches.  Of the warps
// still running, warp 1 of block (1,0,0) has issued the most
// (tests/test_faults.c: watchdog).
.buffer out .u32[1] zero
.launch k grid=2 block=64 args=(out)

.entry k (.param .u64 out)
{
    mov.u32       %r1, %ctaid.x;
    mov.u32       %r2, %tid.x;
    setp.eq.u32   %p1, %r1, 0;
@%p1 bra          DONE;                      // block 0: nothing to do
    setp.lt.u32   %p2, %r2, 32;
@%p2 bra          WAIT;                      // warp 0 waits at the barrier
    mov.u32       %r3, 0;
LOOP:
    add.u32       %r3, %r3, 2;
    setp.eq.u32   %p3, %r3, 7;               // never: %r3 stays even
@!%p3 bra         LOOP;
WAIT:
    bar.sync      0;
DONE:
    ret;
}
