// fault_uninit_address.s - tests/data/blur_nobar.s with the right halo's
// load addressed through %rd0, a register no instruction writes: the load
// faults (out of bounds at 0x4) in a cycle in which other warps have already
// issued.  Found by tests/fuzz/fuzz_run.c: on ampere.ini with the run-time
// checks, the warps that issued in that cycle had their issue slot charged
// and the launch stopped before counting the cycle as resident, so the
// stall states added up to one warp-cycle more than the resident
// warp-cycles (test_timing.c, stalls_add_up_after_a_fault).
.define N 1000
.define BLOCK 128

.buffer in   .f32[N] random(seed=8, min=-1, max=1)
.buffer m    .f32[3] fill(0.33333334)
.buffer out  .f32[N] zero
.launch blur grid=((N+BLOCK-1)/BLOCK) block=(BLOCK) args=(in, m, out, N)
.check out ref=conv1d(in, m, N, 3)

.entry blur (.param .u64 in, .param .u64 m, .param .u64 out, .param .u32 n)
{
    .shared .align 4 .f32 tile[BLOCK+2];     // tile[1+t] = in[i]; tile[0], tile[BLOCK+1]: the halo

    ld.param.u64    %rd1, [in];
    ld.param.u64    %rd2, [m];
    ld.param.u64    %rd3, [out];
    ld.param.u32    %r1, [n];
    mov.u32         %r2, %ctaid.x;
    mov.u32         %r3, %ntid.x;
    mov.u32         %r4, %tid.x;
    mad.lo.s32      %r5, %r2, %r3, %r4;      // i = blockIdx.x*blockDim.x + t
    mov.u32         %r6, tile;
    shl.b32         %r7, %r4, 2;
    add.s32         %r7, %r6, %r7;           // &tile[t]
    mul.wide.s32    %rd4, %r5, 4;
    add.s64         %rd5, %rd1, %rd4;        // &in[i]

    // the centre: tile[t+1] = i < n ? in[i] : 0
    mov.f32         %f1, 0f00000000;
    setp.lt.s32     %p1, %r5, %r1;
    @%p1 ld.global.f32 %f1, [%rd5];
    st.shared.f32   [%r7+4], %f1;

    // the left halo, by thread 0: tile[0] = i > 0 ? in[i-1] : 0
    setp.ne.s32     %p2, %r4, 0;
    @%p2 bra        RIGHT;
    mov.f32         %f2, 0f00000000;
    setp.gt.s32     %p3, %r5, 0;
    @%p3 ld.global.f32 %f2, [%rd5+-4];
    st.shared.f32   [%r7], %f2;
RIGHT:
    // the right halo, by the last thread: tile[BLOCK+1] = i+1 < n ? in[i+1] : 0
    add.s32         %r8, %r3, -1;
    setp.ne.s32     %p4, %r4, %r8;
    @%p4 bra        HALO_DONE;
    mov.f32         %f3, 0f00000000;
    add.s32         %r9, %r5, 1;
    setp.lt.s32     %p5, %r9, %r1;
    @%p5 ld.global.f32 %f3, [%rd0+4];
    st.shared.f32   [%r7+8], %f3;
HALO_DONE:

    @!%p1 bra       DONE;
    ld.global.f32   %f4, [%rd2];             // m[0], m[1], m[2]: one address per warp
    ld.global.f32   %f5, [%rd2+4];
    ld.global.f32   %f6, [%rd2+8];
    ld.shared.f32   %f7, [%r7];              // tile[t]   = in[i-1]
    ld.shared.f32   %f8, [%r7+4];            // tile[t+1] = in[i]
    ld.shared.f32   %f9, [%r7+8];            // tile[t+2] = in[i+1]
    mul.f32         %f10, %f7, %f4;
    fma.rn.f32      %f10, %f8, %f5, %f10;
    fma.rn.f32      %f10, %f9, %f6, %f10;
    mul.wide.s32    %rd6, %r5, 4;
    add.s64         %rd7, %rd3, %rd6;
    st.global.f32   [%rd7], %f10;
DONE:
    ret;
}
