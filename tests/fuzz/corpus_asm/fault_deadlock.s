// fault_deadlock.s - bar.sync 0, 128 in a block of 64 threads: the barrier
// waits for more threads than the block has (tests/test_faults.c).
.buffer out .u32[64] zero
.launch k grid=1 block=64 args=(out)

.entry k (.param .u64 out)
{
    mov.u32       %r1, %tid.x;
    bar.sync      0, 128;                    // only 64 threads can arrive
    ret;
}
