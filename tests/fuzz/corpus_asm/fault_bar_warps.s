// fault_bar_warps.s - if (tid < 32) __syncthreads(); else __syncthreads();
// (seed 004, figure 4.4): each warp is uniform, but the two warps wait at
// different bar.sync instructions (tests/test_faults.c).
.buffer out .u32[64] zero
.launch k grid=1 block=64 args=(out)

.entry k (.param .u64 out)
{
    mov.u32       %r1, %tid.x;
    setp.ge.u32   %p1, %r1, 32;
@%p1 bra          ELSE;
    bar.sync      0;                         // warp 0 waits here
    bra.uni       END;
ELSE:
    bar.sync      0;                         // warp 1 waits here
END:
    ret;
}
