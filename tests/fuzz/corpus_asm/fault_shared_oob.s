// fault_shared_oob.s - a shared-memory array of 64 floats indexed by a
// block of 96 threads (tests/test_faults.c): thread 64 (warp 2, lane 0)
// stores one past the end of the block's 256 bytes of shared memory.
.buffer out .f32[96] zero
.launch k grid=2 block=96 args=(out)

.entry k (.param .u64 out)
{
    .shared .align 4 .f32 tile[64];
    mov.u32       %r1, %tid.x;
    mov.u32       %r2, tile;
    shl.b32       %r3, %r1, 2;
    add.u32       %r4, %r2, %r3;
    cvt.rn.f32.u32 %f1, %r1;
    st.shared.f32 [%r4], %f1;                // tile[tid]: tid < 96, not < 64
    bar.sync      0;
    ret;
}
