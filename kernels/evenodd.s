// evenodd.s - if/else divergence inside every warp (seed 002).
//
// What it shows: even threads compute out[i] = in[i]*2, odd threads
// out[i] = in[i]+1.  The condition depends on the thread index, so every
// warp has lanes on both sides: the SIMT stack runs the then-path with the
// 16 even lanes active, then the else-path with the 16 odd lanes, and the
// warp reconverges at the join (the branch's immediate post-dominator,
// shown by `./gpusim --disasm kernels/evenodd.s`).  Half the lanes idle on
// each path: the SIMD efficiency of the two paths is 50%.
//
// The code is a real if/else:  @!%p2 bra ODD;  <then>;  bra JOIN;
// ODD: <else>;  JOIN: <store>.  Before it, a bounds test (i < n) makes the
// last warp diverge once more, because N = 1000 is not a multiple of
// BLOCK = 128 (1024 threads, 32 warps; lanes 1000..1023 have no element).
//
// What to change: -D N=.. and -D BLOCK=..; to remove the divergence, make
// the condition depend on the warp rather than the lane, e.g. test bit 5 of
// i ((i/32) % 2): each warp then takes one path whole (the divergent count
// drops to the bounds test's 1, and the result no longer matches evenodd).
//
// What to look for (default size, --functional):
//   divergent branches      33 = 32 if/else (every warp) + 1 bounds test
//                           (the last warp); the `bra JOIN` is uniform.
//   branch instructions     96 (bounds, if/else, bra JOIN: 3 per warp);
//                           129 branch targets = 63 uniform + 2 x 33
//   warp instructions       672 = 32 warps x 21: every warp issues the
//                           then-path (2) and the else-path (1) one after
//                           the other; SIMD efficiency 91.80%
//   global loads / stores   32 / 32; deepest SIMT stack 4
// sizes: N=4096 | N=77 BLOCK=32 | N=999 BLOCK=64
.define N 1000
.define BLOCK 128

.buffer in  .f32[N] random(seed=3, min=-1, max=1)
.buffer out .f32[N] zero
.launch evenodd grid=((N+BLOCK-1)/BLOCK) block=(BLOCK) args=(in, out, N)
.check out ref=evenodd(in)

.entry evenodd (.param .u64 in, .param .u64 out, .param .u32 n)
{
    ld.param.u64    %rd1, [in];
    ld.param.u64    %rd2, [out];
    ld.param.u32    %r2, [n];
    mov.u32         %r3, %ctaid.x;
    mov.u32         %r4, %ntid.x;
    mov.u32         %r5, %tid.x;
    mad.lo.s32      %r1, %r3, %r4, %r5;      // i = blockIdx.x*blockDim.x + threadIdx.x
    setp.ge.s32     %p1, %r1, %r2;
    @%p1 bra        DONE;                    // bounds test: diverges in the last warp only

    mul.wide.s32    %rd3, %r1, 4;
    add.s64         %rd4, %rd1, %rd3;
    add.s64         %rd5, %rd2, %rd3;
    ld.global.f32   %f1, [%rd4];             // x = in[i]

    and.b32         %r6, %r1, 1;
    setp.eq.u32     %p2, %r6, 0;             // p2 = i is even
    @!%p2 bra       ODD;                     // if/else: diverges in every warp
    mul.f32         %f2, %f1, 2.0;           // then-path (even lanes): x*2
    bra             JOIN;                    // uniform: all active lanes jump
ODD:
    add.f32         %f2, %f1, 1.0;           // else-path (odd lanes): x+1
JOIN:                                        // reconvergence point: all lanes again
    st.global.f32   [%rd5], %f2;             // out[i]
DONE:
    ret;
}
