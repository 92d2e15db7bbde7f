// vecadd_design.s - the DESIGN.md kernel with every host directive form,
// for tests/test_asm.c, which pins values and line numbers from this file.
.define N 1003                       // overridable: -D N=4096
.define BLOCK 64
.define GRID ((N+BLOCK-1)/BLOCK)
.buffer a .f32[N] random(seed=1)
.buffer b .f32[N] random(seed=2, min=-1, max=1)
.buffer c .f32[N] zero
.buffer d .u32[16] iota
.buffer e .s32[8] iota(5, -2)
.buffer f .f64[4] fill(2.5)
.buffer g .u8[3] file("data/in.bin")
.buffer h .s16[BLOCK*2] fill(-3)
.buffer u .f32[N]
.launch vecadd grid=((N+BLOCK-1)/BLOCK) block=(BLOCK) args=(a, b, c, N)
.launch vecadd grid=(2, 3) block=(8, 4, 2) args=(a, b, c, -1)
.launch vecadd grid=(GRID, 1, 2) block=32 args=(a, b, u, 0x10)
.check c ref=vecadd(a, b, N) tol=1e-5 rtol=0.001
.check d equals=e
.check f file="expect/f.bin"

.entry vecadd (.param .u64 a, .param .u64 b, .param .u64 c, .param .u32 n)
{
    ld.param.u64  %rd1, [a];
    ld.param.u64  %rd2, [b];
    ld.param.u64  %rd3, [c];
    ld.param.u32  %r5, [n];
    mov.u32       %r2, %ctaid.x;
    mov.u32       %r3, %ntid.x;
    mov.u32       %r4, %tid.x;
    mad.lo.s32    %r1, %r2, %r3, %r4;
    setp.ge.s32   %p1, %r1, %r5;
@%p1 bra          DONE;
    mul.wide.s32  %rd4, %r1, 4;
    add.s64       %rd5, %rd1, %rd4;
    add.s64       %rd6, %rd2, %rd4;
    add.s64       %rd7, %rd3, %rd4;
    ld.global.f32 %f1, [%rd5];
    ld.global.f32 %f2, [%rd6];
    add.f32       %f3, %f1, %f2;
    st.global.f32 [%rd7], %f3;
DONE:
    ret;
}
