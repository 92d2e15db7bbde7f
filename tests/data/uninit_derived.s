// uninit_derived.s - an address computed from a register that most threads
// never wrote (tests/test_check.c).  Only thread 0 sets its index %r2 = 1;
// the others skip the mov, so their %r2 is never written (the simulator
// holds 0 there, hardware holds garbage).  Every thread then loads
// a[%r2 - 1]: thread 0 reads a[0], thread 1 (lane 1, the first to fault)
// reads a[-1].  The uninitialised-register check names %r2 at line 20 for
// thread 1, and the fault says that the address in %rd3 comes from it.
.buffer a .u32[32] iota
.buffer out .u32[32] zero
.launch k grid=1 block=32 args=(a, out)

.entry k (.param .u64 a, .param .u64 out)
{
    ld.param.u64  %rd1, [a];
    mov.u32       %r1, %tid.x;
    setp.ne.u32   %p1, %r1, 0;
    @%p1 bra      SKIP;
    mov.u32       %r2, 1;                    // only thread 0 sets its index
SKIP:
    sub.s32       %r3, %r2, 1;               // -1 where %r2 was never written
    mul.wide.s32  %rd2, %r3, 4;
    add.s64       %rd3, %rd1, %rd2;
    ld.global.u32 %r4, [%rd3];               // thread 1 faults: a[-1]
    ret;
}
