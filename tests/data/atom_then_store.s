// atom_then_store.s - a shared store issued right after a shared atomic by
// the same warp must count as a store (test_counters.c): one warp, each lane
// on its own word, so each instruction is one wavefront.
.buffer out .u32[1] zero
.launch k grid=(1) block=(32) args=(out)

.entry k (.param .u64 o)
{
    .shared .align 4 .u32 sh[32];
    mov.u32         %r1, %tid.x;
    mov.u32         %r2, sh;
    shl.b32         %r3, %r1, 2;
    add.s32         %r3, %r2, %r3;
    atom.shared.add.u32 %r4, [%r3], 1;
    st.shared.u32   [%r3], 0;              // immediate source: the general path
    ret;
}
