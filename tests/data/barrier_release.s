// barrier_release.s - when does a barrier let its warps go?  Two warps of
// one block: warp 1 loops LOOPS times before bar.sync, warp 0 waits there.
// Warp 1 reads %clock just before its bar.sync (t[1*2+0]); both read it on
// the instruction after the barrier (t[w*2+1]).  test_timing.c checks that
// the barrier releases both warps together, on the cycle after the last
// warp's bar.sync.
.define LOOPS 20
.buffer t .u32[4] zero
.launch k grid=(1) block=(64) args=(t)

.entry k (.param .u64 pt)
{
    ld.param.u64    %rd1, [pt];
    mov.u32         %r1, %tid.x;
    shr.u32         %r2, %r1, 5;             // warp
    and.b32         %r3, %r1, 31;            // lane
    setp.ne.u32     %p1, %r3, 0;
    mul.wide.u32    %rd2, %r2, 8;
    add.s64         %rd3, %rd1, %rd2;        // &t[warp*2]
    setp.eq.u32     %p2, %r2, 0;
    mov.u32         %r4, 0;
    @%p2 bra        WAIT;
SPIN:
    add.u32         %r4, %r4, 1;
    setp.lt.u32     %p3, %r4, LOOPS;
    @%p3 bra        SPIN;
WAIT:
    mov.u32         %r5, %clock;             // before the barrier
    bar.sync        0;
    mov.u32         %r6, %clock;             // the first instruction after it
    @%p1 bra        DONE;
    st.global.u32   [%rd3], %r5;
    st.global.u32   [%rd3+4], %r6;
DONE:
    ret;
}
