// histogram.s - histogram with shared-memory atomics: a private histogram
// per block, merged into the global one (seed 003: shared memory as a
// programmer-managed scratchpad; seed 002: atomics as one way to make
// concurrent updates safe, "使用原子操作").
//
// What it shows: privatisation.  hist[v mod BINS] += 1 for every input value
// v.  Done directly in global memory, every one of the N increments would be
// an atomic that travels to L2; here each block first counts into its own
// BINS-word histogram in shared memory (atom.shared.add.u32, on the SM),
// waits at bar.sync, and then adds each of its BINS counters to the global
// histogram once (red.global.add.u32: an atomic add that returns nothing).
// Global atomics drop from N to (blocks x BINS).  Within one warp, lanes
// that hit the same bin are applied one after another (atom is "one lane at
// a time", in lane order), so the result is exact and deterministic.
//
// Steps per block: (1) zero the shared histogram, threads striding over the
// bins; bar.sync; (2) each thread counts in[i] for i = its global index,
// + gridDim*blockDim, ... ; bar.sync; (3) threads striding over the bins
// red.global.add their counters into hist.
//
// Edges: any N, any BINS >= 1 (more bins than threads too: the zero and merge
// loops stride by blockDim).  The input is .u32 random integers 0..MAXV,
// binned by v mod BINS as the host reference histogram() does; the check is
// exact.
//
// What to change: -D N=.., -D BINS=.. (try BINS=1: every lane of every warp
// hits the same counter, the worst case for atomic contention), -D MAXV=..,
// -D BLOCK=...
//
// What to look for (default N=4096, BINS=64, BLOCK=256: 16 blocks x 8 warps),
// observed with --functional:
//   shared atomics 128 (one atom.shared per warp: 4096 lane updates),
//   global atomics 32 (16 blocks x 2 warps covering the 64 bins: 1024 lane
//   updates instead of 4096), shared stores 32 (zeroing, warps 0-1),
//   shared loads 32 (merge), bar.sync 256 (2 per warp), global loads 128,
//   divergent branches 0, warp instructions 4768.
//   By hand, the contention: 32 random values over 64 bins fall in about
//   64 x (1 - (63/64)^32) = 25.3 distinct bins, so a warp's atom.shared
//   serialises about 7 of its 32 lanes behind another lane (BINS=1: 31).
//   This input (seed=3) has 25.4 distinct bins per warp on average, and at
//   most 4 lanes of a warp on one bin (2.68 on average): the number of
//   rounds a conflict-serialising atomic unit needs per warp.
// sizes: N=77 | N=10000 BINS=7 | N=5000 BINS=300 BLOCK=128 | N=1000 BINS=1 | N=100000 BINS=256 MAXV=1000000

.define N 4096
.define BINS 64
.define BLOCK 256
.define MAXV 255

.buffer in   .u32[N] random(seed=3, min=0, max=MAXV)
.buffer hist .u32[BINS] zero
.launch histogram grid=((N+BLOCK-1)/BLOCK) block=(BLOCK) args=(in, hist, N, BINS)
.check hist ref=histogram(in, N, BINS)

.entry histogram (.param .u64 src, .param .u64 dst,
                  .param .u32 n, .param .u32 bins)
{
    .shared .align 4 .u32 sh[BINS];          // this block's histogram

    ld.param.u64    %rd1, [src];
    ld.param.u64    %rd2, [dst];
    ld.param.u32    %r1, [n];
    ld.param.u32    %r2, [bins];
    mov.u32         %r3, %tid.x;
    mov.u32         %r4, %ntid.x;
    mov.u32         %r5, %ctaid.x;
    mov.u32         %r6, %nctaid.x;
    mov.u32         %r7, sh;

    // (1) sh[b] = 0 for b = tid, tid + blockDim, ... < bins
    mov.u32         %r8, %r3;
ZERO:
    setp.ge.u32     %p1, %r8, %r2;
    @%p1 bra        ZEROED;
    shl.b32         %r9, %r8, 2;
    add.s32         %r9, %r7, %r9;
    st.shared.u32   [%r9], 0;
    add.s32         %r8, %r8, %r4;
    bra             ZERO;
ZEROED:
    bar.sync        0;

    // (2) sh[in[i] % bins] += 1 for i = global index, + grid stride, ... < n
    mad.lo.s32      %r8, %r5, %r4, %r3;      // i
    mul.lo.s32      %r10, %r6, %r4;          // grid stride
COUNT:
    setp.ge.u32     %p2, %r8, %r1;
    @%p2 bra        COUNTED;
    mul.wide.u32    %rd3, %r8, 4;
    add.s64         %rd4, %rd1, %rd3;
    ld.global.u32   %r11, [%rd4];            // v
    rem.u32         %r12, %r11, %r2;         // bin = v % bins
    shl.b32         %r12, %r12, 2;
    add.s32         %r12, %r7, %r12;
    atom.shared.add.u32 %r13, [%r12], 1;     // same-bin lanes serialise
    add.s32         %r8, %r8, %r10;
    bra             COUNT;
COUNTED:
    bar.sync        0;

    // (3) hist[b] += sh[b] for b = tid, tid + blockDim, ... < bins
    mov.u32         %r8, %r3;
MERGE:
    setp.ge.u32     %p3, %r8, %r2;
    @%p3 bra        DONE;
    shl.b32         %r9, %r8, 2;
    add.s32         %r14, %r7, %r9;
    ld.shared.u32   %r15, [%r14];
    cvt.u64.u32     %rd5, %r9;
    add.s64         %rd6, %rd2, %rd5;
    red.global.add.u32 [%rd6], %r15;         // one global atomic per bin per block
    add.s32         %r8, %r8, %r4;
    bra             MERGE;
DONE:
    ret;
}
