// A kernel whose answer is wrong on purpose: c = a - b checked as a + b.
.define N 40
.buffer a .f32[N] iota(1, 1)
.buffer b .f32[N] fill(1)
.buffer c .f32[N] zero
.launch vecsub grid=(1) block=(64) args=(a, b, c, N)
.check c ref=vecadd(a, b)

.entry vecsub (.param .u64 a, .param .u64 b, .param .u64 c, .param .u32 n)
{
    ld.param.u64    %rd1, [a];
    ld.param.u64    %rd2, [b];
    ld.param.u64    %rd3, [c];
    ld.param.u32    %r1, [n];
    mov.u32         %r2, %tid.x;
    setp.ge.u32     %p1, %r2, %r1;
    @%p1 bra        DONE;
    mul.wide.u32    %rd4, %r2, 4;
    add.s64         %rd5, %rd1, %rd4;
    add.s64         %rd6, %rd2, %rd4;
    add.s64         %rd7, %rd3, %rd4;
    ld.global.f32   %f1, [%rd5];
    ld.global.f32   %f2, [%rd6];
    sub.f32         %f3, %f1, %f2;
    st.global.f32   [%rd7], %f3;
DONE:
    ret;
}
