// race_lanes.s - lanes of ONE warp pass values through shared memory with no
// barrier (tests/test_check.c).  Lane t stores s[t], then loads s[t+1]
// (lane 31 wraps to s[0]).  The warp runs in lockstep, so the model gives
// the right answer, and by default the race check says nothing; with
// sm.independent_threads=1 (Volta on) each load reads another thread's word
// with no __syncwarp: a read-after-write on s[1] first (lane 1 wrote it,
// lane 0 read it), 32 times.
.buffer out .u32[32] zero
.launch lanes grid=(1) block=(32) args=(out)

.entry lanes (.param .u64 out)
{
    .shared .align 4 .u32 s[32];
    ld.param.u64    %rd1, [out];
    mov.u32         %r1, %tid.x;
    mov.u32         %r2, s;
    shl.b32         %r3, %r1, 2;
    add.s32         %r4, %r2, %r3;
    st.shared.u32   [%r4], %r1;              // s[t] = t
    add.s32         %r5, %r1, 1;
    and.b32         %r5, %r5, 31;
    shl.b32         %r6, %r5, 2;
    add.s32         %r6, %r2, %r6;
    ld.shared.u32   %r7, [%r6];              // s[(t+1) % 32]
    mul.wide.u32    %rd2, %r1, 4;
    add.s64         %rd3, %rd1, %rd2;
    st.global.u32   [%rd3], %r7;
    ret;
}
