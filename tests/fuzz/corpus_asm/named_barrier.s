// named_barrier.s - producer/consumer with a named barrier (PTX bar.arrive /
// bar.sync with a thread count): warp 0 writes a value to shared memory and
// arrives at barrier 1; warp 1 waits at barrier 1 (64 threads: both warps)
// and then reads it.  Warp 0 never waits.  Barrier 0 is not involved.
.buffer out .u32[64] zero
.launch k grid=1 block=64 args=(out)
.check out ref=affine(out, 0, 42)

.entry k (.param .u64 out)
{
    .shared .u32 box;
    ld.param.u64    %rd1, [out];
    mov.u32         %r1, %tid.x;
    mul.wide.u32    %rd2, %r1, 4;
    add.s64         %rd3, %rd1, %rd2;
    setp.ge.u32     %p1, %r1, 32;
    @%p1 bra        CONSUMER;
    mov.u32         %r2, 42;
    st.shared.u32   [box], %r2;
    bar.arrive      1, 64;
    st.global.u32   [%rd3], %r2;
    ret;
CONSUMER:
    bar.sync        1, 64;
    ld.shared.u32   %r3, [box];
    st.global.u32   [%rd3], %r3;
    ret;
}
