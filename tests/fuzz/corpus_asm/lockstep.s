// lockstep.s - each warp loops ITERS times: a long-latency load, a use of
// it, then WORK independent ALU instructions.  Under loose round robin all
// warps reach their loads together and then all wait; greedy-then-oldest
// staggers them so one warp's compute hides another's load (the case the
// two-level scheduler paper, Narasiman et al. MICRO 2011, starts from).
.define WARPS 8
.define ITERS 8
.buffer in .u32[WARPS*32] iota
.buffer out .u32[WARPS*32] zero
.launch lockstep grid=(1) block=(WARPS*32) args=(in, out)

.entry lockstep (.param .u64 in, .param .u64 out)
{
    ld.param.u64    %rd1, [in];
    ld.param.u64    %rd2, [out];
    mov.u32         %r1, %tid.x;
    mul.wide.u32    %rd3, %r1, 4;
    add.s64         %rd4, %rd1, %rd3;
    mov.u32         %r2, 0;          // i
    mov.u32         %r3, 0;          // acc
LOOP:
    ld.global.u32   %r4, [%rd4];
    add.s32         %r3, %r3, %r4;
    add.s32         %r10, %r1, 1;
    add.s32         %r11, %r1, 2;
    add.s32         %r12, %r1, 3;
    add.s32         %r13, %r1, 4;
    add.s32         %r14, %r1, 5;
    add.s32         %r15, %r1, 6;
    add.s32         %r16, %r1, 7;
    add.s32         %r17, %r1, 8;
    add.s32         %r18, %r1, 9;
    add.s32         %r19, %r1, 10;
    add.s32         %r20, %r1, 11;
    add.s32         %r21, %r1, 12;
    add.s32         %r22, %r1, 13;
    add.s32         %r23, %r1, 14;
    add.s32         %r24, %r1, 15;
    add.s32         %r25, %r1, 16;
    add.s32         %r2, %r2, 1;
    setp.lt.u32     %p1, %r2, ITERS;
    @%p1 bra        LOOP;
    add.s64         %rd5, %rd2, %rd3;
    st.global.u32   [%rd5], %r3;
    ret;
}
