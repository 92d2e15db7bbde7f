// branch_to_end.s - a kernel with no ret: its last label is the end of the
// code, and a divergent branch jumps there while the warp's other lanes
// still have a loop to run (the branch skips more than if-conversion takes).
// A warp at the end of the code reconverges there: an implicit ret, one
// warp instruction with an issue slot.  The bar.sync lines the warps up, so
// that several reach the end in one cycle and wait in a scheduler's ready
// set (sm.c: ready_enter).  test_timing's stalls_at_the_end_of_the_code.
.define N 4096
.define BLOCK 256

.buffer a .f32[N] random(seed=1)
.buffer c .f32[N] zero
.launch halves grid=(N/BLOCK) block=(BLOCK) args=(a, c)

.entry halves (.param .u64 a, .param .u64 c)
{
    ld.param.u64  %rd1, [a];
    ld.param.u64  %rd3, [c];
    mov.u32       %r2, %ctaid.x;
    mov.u32       %r3, %ntid.x;
    mov.u32       %r4, %tid.x;
    mad.lo.s32    %r1, %r2, %r3, %r4;
    and.b32       %r5, %r4, 1;
    setp.ne.s32   %p1, %r5, 0;               // odd lanes skip to the end
    bar.sync      0;
@%p1 bra          DONE;
    mul.wide.s32  %rd4, %r1, 4;
    add.s64       %rd5, %rd1, %rd4;
    add.s64       %rd7, %rd3, %rd4;
    ld.global.f32 %f1, [%rd5];
    mov.u32       %r6, 0;
LOOP:
    add.f32       %f1, %f1, %f1;             // c[i] = a[i] * 256 for even i
    add.s32       %r6, %r6, 1;
    setp.lt.s32   %p2, %r6, 8;
@%p2 bra          LOOP;
    st.global.f32 [%rd7], %f1;
DONE:
}
