// red_posted.s - 4 blocks of 256 threads each add 1 to one word, 4 times.
// MODE 0: red.global.add (posted: the warps go on and may retire before the
// L2 is done with them); MODE 1: atom.global.add whose old values the thread
// stores (each warp waits for its replies); MODE 2: atom.global.add whose
// result nothing reads (ptxas makes it a RED: posted).  All three are in the
// code, guarded by MODE.  The word ends at 4096 in every mode (test_timing.c).
.define MODE 0
.buffer w .u32[1] zero
.buffer out .u32[1024] zero
.launch k grid=(4) block=(256) args=(w, out)

.entry k (.param .u64 pw, .param .u64 po)
{
    ld.param.u64    %rd1, [pw];
    ld.param.u64    %rd2, [po];
    mov.u32         %r1, 0;
    mov.u32         %r5, 0;
    mov.u32         %r9, MODE;
    setp.eq.u32     %p2, %r9, 0;
    setp.eq.u32     %p3, %r9, 1;
    setp.eq.u32     %p4, %r9, 2;
LOOP:
    @%p2 red.global.add.u32 [%rd1], 1;
    @%p3 atom.global.add.u32 %r2, [%rd1], 1;
    @%p3 add.u32    %r5, %r5, %r2;
    @%p4 atom.global.add.u32 %r6, [%rd1], 1;
    add.u32         %r1, %r1, 1;
    setp.lt.u32     %p1, %r1, 4;
    @%p1 bra        LOOP;
    mov.u32         %r3, %tid.x;
    mov.u32         %r4, %ctaid.x;
    mad.lo.u32      %r3, %r4, 256, %r3;
    mul.wide.u32    %rd3, %r3, 4;
    add.s64         %rd4, %rd2, %rd3;
    st.global.u32   [%rd4], %r5;
    ret;
}
