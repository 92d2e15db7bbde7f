// block_smid.s - which SM ran each block: thread 0 of block b writes %smid to
// sm[b].  NB blocks of 256 threads (test_timing.c: the dispatcher's round
// robin puts block b + nsms on block b's SM, as the H100 does in
// tests/validation/h100/measured/blocktime.csv), whether or not block b has
// finished by then.
.define NB 256
.buffer sm .u32[NB] zero
.launch k grid=(NB) block=(256) args=(sm)

.entry k (.param .u64 psm)
{
    ld.param.u64    %rd1, [psm];
    mov.u32         %r1, %tid.x;
    setp.ne.u32     %p1, %r1, 0;
    @%p1 bra        DONE;
    mov.u32         %r2, %ctaid.x;
    mov.u32         %r3, %smid;
    mul.wide.u32    %rd2, %r2, 4;
    add.s64         %rd3, %rd1, %rd2;
    st.global.u32   [%rd3], %r3;
DONE:
    ret;
}
