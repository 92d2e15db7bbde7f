// blocks_fresh.s - every block starts on zeroed shared and local memory
// and predicates, whatever block ran before it on the same arrays (the
// functional engine's cta_next; the timing model's block slots, which
// keep their arrays: sm.c).  Each thread of 3 blocks of 40 (a partial
// second warp) stores what its shared word, its local word and %p1 held
// before it wrote them (out[2t], 0 if fresh) and its block id
// (out[2t + 1]), then writes them, with a bar.sync between.  The 8 KB of
// local memory a thread (320 KB a block) is past kernel.c's
// RENEW_IN_PLACE: allocated afresh, the shared and predicate arrays
// cleared in place.  test_exec.c and test_timing.c check it.
.buffer out .u32[240] zero
.launch k grid=(3) block=(40) args=(out)
.entry k(.param .u64 po)
{
    .shared .align 4 .u32 sw[40];
    .local .align 4 .u32 lw[2048];
    ld.param.u64 %rd1, [po];
    mov.u32 %r1, %tid.x;
    mov.u32 %r2, %ctaid.x;
    mad.lo.u32 %r3, %r2, 40, %r1;
    mul.wide.u32 %rd2, %r3, 8;
    add.s64 %rd3, %rd1, %rd2;
    shl.b32 %r4, %r1, 2;
    mov.u32 %r5, sw;
    add.u32 %r5, %r5, %r4;
    ld.shared.u32 %r6, [%r5];
    ld.local.u32 %r7, [lw];
    selp.u32 %r8, 1, 0, %p1;
    add.u32 %r6, %r6, %r7;
    add.u32 %r6, %r6, %r8;
    st.global.u32 [%rd3], %r6;
    st.global.u32 [%rd3+4], %r2;
    add.u32 %r9, %r3, 1;
    st.shared.u32 [%r5], %r9;
    st.local.u32 [lw], %r9;
    setp.ne.u32 %p1, %r9, 0;
    bar.sync 0;
    ret;
}
