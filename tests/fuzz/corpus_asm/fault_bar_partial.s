// fault_bar_partial.s - __syncthreads() inside if (tid % 2) (seed 004):
// only the odd lanes of warp 0 reach the barrier (tests/test_faults.c).
.buffer out .u32[64] zero
.launch k grid=1 block=64 args=(out)

.entry k (.param .u64 out)
{
    mov.u32       %r1, %tid.x;
    and.b32       %r2, %r1, 1;
    setp.eq.u32   %p1, %r2, 0;
@%p1 bra          SKIP;
    bar.sync      0;                         // reached by odd threads only
SKIP:
    ret;
}
