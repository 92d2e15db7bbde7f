// atom_conflict.s - shared atomics counted apart from loads (Nsight's op_atom,
// test_counters.c): one warp adds 1 to sh[lane % 4].  The four words sit in
// four banks, 8 lanes on each; atomics on one word do not merge, so the
// instruction takes 8 wavefronts, 7 of them conflicts.  A plain load of the
// same addresses is one wavefront (a word read by 8 lanes is a broadcast).
.buffer out .u32[4] zero
.buffer expected .u32[4] fill(8)
.launch k grid=(1) block=(32) args=(out)
.check out equals=expected

.entry k (.param .u64 o)
{
    .shared .align 4 .u32 sh[4];
    mov.u32         %r1, %tid.x;
    mov.u32         %r2, sh;
    and.b32         %r3, %r1, 3;
    shl.b32         %r3, %r3, 2;
    add.s32         %r3, %r2, %r3;
    setp.lt.u32     %p1, %r1, 4;
    @%p1 st.shared.u32 [%r3], 0;
    bar.sync        0;
    atom.shared.add.u32 %r4, [%r3], 1;
    bar.sync        0;
    ld.shared.u32   %r5, [%r3];
    @!%p1 bra       DONE;
    ld.param.u64    %rd1, [o];
    mul.wide.u32    %rd2, %r1, 4;
    add.s64         %rd1, %rd1, %rd2;
    st.global.u32   [%rd1], %r5;
DONE:
    ret;
}
