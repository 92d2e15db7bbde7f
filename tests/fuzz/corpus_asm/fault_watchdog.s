// fault_watchdog.s - a loop whose exit test can never be true: the
// watchdog (--max-cycles) stops it (tests/test_faults.c).
.buffer out .u32[32] zero
.launch k grid=1 block=32 args=(out)

.entry k (.param .u64 out)
{
    mov.u32       %r1, 0;
LOOP:
    add.u32       %r1, %r1, 2;
    setp.eq.u32   %p1, %r1, 7;               // never: %r1 stays even
@!%p1 bra         LOOP;
    ret;
}
