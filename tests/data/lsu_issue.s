// lsu_issue.s - how often can one warp issue memory instructions?  One warp
// reads %clock, issues N = 16 independent loads (SPACE 0: ld.shared, 1:
// ld.global, each lane its own word, no bank conflict, one sector a lane
// group), reads %clock again and stores the difference in t[0].
// test_timing.c: with unit.lsu_groups = sm.schedulers every load holds the
// warp's scheduler's address stage warp_size / (lsu_width / lsu_groups)
// cycles (unit.lsu_global_cycles for a global one), so the 16 issue that
// many cycles apart.
.define SPACE 0
.buffer t .u32[4] zero
.buffer g .u32[32*16] zero
.launch k grid=(1) block=(32) args=(t, g)

.entry k (.param .u64 pt, .param .u64 pg)
{
    .shared .u32 s[512];
    ld.param.u64    %rd1, [pt];
    ld.param.u64    %rd2, [pg];
    mov.u32         %r1, %tid.x;
    mul.wide.u32    %rd3, %r1, 4;
    add.s64         %rd4, %rd2, %rd3;
    mov.u32         %r2, s;
    shl.b32         %r3, %r1, 2;
    add.u32         %r4, %r2, %r3;
    setp.eq.u32     %p1, SPACE, 1;
    mov.u32         %r10, %clock;
    @%p1 bra        GLOBAL;
    ld.shared.u32   %r20, [%r4+0];
    ld.shared.u32   %r21, [%r4+128];
    ld.shared.u32   %r22, [%r4+256];
    ld.shared.u32   %r23, [%r4+384];
    ld.shared.u32   %r24, [%r4+512];
    ld.shared.u32   %r25, [%r4+640];
    ld.shared.u32   %r26, [%r4+768];
    ld.shared.u32   %r27, [%r4+896];
    ld.shared.u32   %r28, [%r4+1024];
    ld.shared.u32   %r29, [%r4+1152];
    ld.shared.u32   %r30, [%r4+1280];
    ld.shared.u32   %r31, [%r4+1408];
    ld.shared.u32   %r32, [%r4+1536];
    ld.shared.u32   %r33, [%r4+1664];
    ld.shared.u32   %r34, [%r4+1792];
    ld.shared.u32   %r35, [%r4+1920];
    bra             DONE;
GLOBAL:
    ld.global.u32   %r20, [%rd4+0];
    ld.global.u32   %r21, [%rd4+128];
    ld.global.u32   %r22, [%rd4+256];
    ld.global.u32   %r23, [%rd4+384];
    ld.global.u32   %r24, [%rd4+512];
    ld.global.u32   %r25, [%rd4+640];
    ld.global.u32   %r26, [%rd4+768];
    ld.global.u32   %r27, [%rd4+896];
    ld.global.u32   %r28, [%rd4+1024];
    ld.global.u32   %r29, [%rd4+1152];
    ld.global.u32   %r30, [%rd4+1280];
    ld.global.u32   %r31, [%rd4+1408];
    ld.global.u32   %r32, [%rd4+1536];
    ld.global.u32   %r33, [%rd4+1664];
    ld.global.u32   %r34, [%rd4+1792];
    ld.global.u32   %r35, [%rd4+1920];
DONE:
    mov.u32         %r11, %clock;
    add.u32         %r40, %r20, %r21;
    add.u32         %r40, %r40, %r22;
    add.u32         %r40, %r40, %r23;
    add.u32         %r40, %r40, %r24;
    add.u32         %r40, %r40, %r25;
    add.u32         %r40, %r40, %r26;
    add.u32         %r40, %r40, %r27;
    add.u32         %r40, %r40, %r28;
    add.u32         %r40, %r40, %r29;
    add.u32         %r40, %r40, %r30;
    add.u32         %r40, %r40, %r31;
    add.u32         %r40, %r40, %r32;
    add.u32         %r40, %r40, %r33;
    add.u32         %r40, %r40, %r34;
    add.u32         %r40, %r40, %r35;
    sub.u32         %r12, %r11, %r10;
    setp.ne.u32     %p2, %r1, 0;
    @%p2 bra        END;
    st.global.u32   [%rd1], %r12;
    st.global.u32   [%rd1+4], %r40;
END:
    ret;
}
