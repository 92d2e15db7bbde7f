// fault_membermask.s - shfl.sync with membermask 0xffffffff inside a branch
// that only lanes 0-15 take: lanes 16-31 are named but do not arrive, which
// PTX leaves undefined; gpusim stops with a membermask fault
// (tests/test_faults.c).
.buffer out .u32[32] zero
.launch k grid=1 block=32 args=(out)

.entry k (.param .u64 out)
{
    mov.u32         %r1, %tid.x;
    setp.ge.u32     %p1, %r1, 16;
    @%p1 bra        DONE;
    shfl.sync.down.b32 %r2, %r1, 1, 31, 0xffffffff;
DONE:
    ret;
}
