// lanes.s - what a thread sees of its warp at any warp size: one block of
// 40 threads (not a multiple of 16, so at warp size 16 the last warp has
// only 8 live lanes).  Thread t stores, at out[m*40 + t]:
//   m 0  WARP_SZ                      the config's sm.warp_size
//   m 1  %laneid                      t % WARP_SZ
//   m 2  tid / WARP_SZ                its warp in the block
//   m 3  activemask                   the warp's live lanes
//   m 4  activemask on the odd-lane path of a divergent branch
//   m 5  vote.ballot (%laneid < 3)    over all live lanes
//   m 6  %lanemask_lt
// No .check: tests/test_configs.c computes the expected values for each
// warp size and compares.
.define T 40
.buffer out .u32[7*T] zero
.launch lanes grid=(1) block=(T) args=(out)

.entry lanes (.param .u64 out)
{
    ld.param.u64    %rd1, [out];
    mov.u32         %r1, %tid.x;
    mul.wide.u32    %rd2, %r1, 4;
    add.s64         %rd2, %rd1, %rd2;        // &out[tid]
    mov.u32         %r2, WARP_SZ;
    st.global.u32   [%rd2], %r2;
    mov.u32         %r3, %laneid;
    st.global.u32   [%rd2+T*4], %r3;
    div.u32         %r4, %r1, WARP_SZ;
    st.global.u32   [%rd2+T*8], %r4;
    activemask.b32  %r5;
    st.global.u32   [%rd2+T*12], %r5;
    and.b32         %r6, %r3, 1;
    setp.eq.u32     %p1, %r6, 0;
    @%p1 bra        EVEN;                    // diverges in every warp
    activemask.b32  %r7;                     // odd lanes only
    st.global.u32   [%rd2+T*16], %r7;
EVEN:
    setp.lt.u32     %p2, %r3, 3;
    vote.sync.ballot.b32 %r8, %p2, %r5;      // membermask: the live lanes
    st.global.u32   [%rd2+T*20], %r8;
    mov.u32         %r9, %lanemask_lt;
    st.global.u32   [%rd2+T*24], %r9;
    ret;
}
