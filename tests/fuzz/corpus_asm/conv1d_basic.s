// conv1d_basic.s - 1D convolution, one thread per output (seed 001,
// convolution_1D_basic_kernel).
//
// What it shows: the basic convolution pattern and its boundary handling.
// Thread i computes P[i] = sum_j N[i - MASK_WIDTH/2 + j] * M[j]; input
// positions outside [0, N) are "ghost cells" and count as 0, which the
// kernel implements with a test inside the loop.  The mask M lives in plain
// global memory: every warp loads every mask element (all lanes the same
// address, a broadcast the L1 serves), and every input element is loaded by
// MASK_WIDTH different threads.  Compare conv2d_tiled.s (shared-memory
// tile, mask in constant memory).
//
// Divergence: the ghost-cell test only splits the warps at the two ends of
// the array, and only for the mask taps that fall off the end; the bounds
// test (i < N) splits the last warp, since N = 1000 is not a multiple of
// BLOCK = 128.
//
// What to change: -D N=.., -D MASK_WIDTH=.. (odd), -D BLOCK=...
// What to look for (default N=1000, MASK_WIDTH=5, 32 warps, --functional):
//   divergent branches      5 = 1 bounds test (last warp) + 2 ghost tests in
//                           warp 0 (taps j=0,1 read N[-2], N[-1]) + 2 in the
//                           last warp (taps j=3,4 read N[1000], N[1001])
//   global loads            320 = 32 warps x 5 taps x (input + mask)
//   global stores           32
// sizes: N=4096 | N=77 BLOCK=32 | N=3 MASK_WIDTH=7 | N=500 MASK_WIDTH=9 BLOCK=64
.define N 1000
.define MASK_WIDTH 5
.define BLOCK 128

.buffer in   .f32[N] random(seed=4, min=-1, max=1)
.buffer mask .f32[MASK_WIDTH] random(seed=5)
.buffer out  .f32[N] zero
.launch conv1d_basic grid=((N+BLOCK-1)/BLOCK) block=(BLOCK) args=(in, mask, out, N, MASK_WIDTH)
.check out ref=conv1d(in, mask, N, MASK_WIDTH)

.entry conv1d_basic (.param .u64 in, .param .u64 mask, .param .u64 out,
                     .param .u32 width, .param .u32 mask_width)
{
    ld.param.u64    %rd1, [in];
    ld.param.u64    %rd2, [mask];
    ld.param.u64    %rd3, [out];
    ld.param.u32    %r1, [width];
    ld.param.u32    %r2, [mask_width];
    mov.u32         %r3, %ctaid.x;
    mov.u32         %r4, %ntid.x;
    mov.u32         %r5, %tid.x;
    mad.lo.s32      %r6, %r3, %r4, %r5;      // i = blockIdx.x*blockDim.x + threadIdx.x
    setp.ge.s32     %p1, %r6, %r1;
    @%p1 bra        DONE;                    // no output element for this thread

    shr.s32         %r7, %r2, 1;             // MASK_WIDTH/2
    sub.s32         %r8, %r6, %r7;           // start = i - MASK_WIDTH/2
    mov.f32         %f1, 0f00000000;         // Pvalue = 0
    mov.u32         %r9, 0;                  // j = 0
LOOP:
    setp.ge.s32     %p2, %r9, %r2;
    @%p2 bra        STORE;                   // j == MASK_WIDTH: uniform exit
    add.s32         %r10, %r8, %r9;          // x = start + j
    setp.ge.s32     %p3, %r10, 0;
    setp.lt.and.s32 %p4, %r10, %r1, %p3;     // 0 <= x < N, else a ghost cell (0)
    @!%p4 bra       NEXT;                    // diverges only at the array ends
    mul.wide.s32    %rd4, %r10, 4;
    add.s64         %rd5, %rd1, %rd4;
    ld.global.f32   %f2, [%rd5];             // N[x]: consecutive across the warp
    mul.wide.s32    %rd6, %r9, 4;
    add.s64         %rd7, %rd2, %rd6;
    ld.global.f32   %f3, [%rd7];             // M[j]: one address for the whole warp
    fma.rn.f32      %f1, %f2, %f3, %f1;      // Pvalue += N[x]*M[j]
NEXT:
    add.s32         %r9, %r9, 1;
    bra             LOOP;

STORE:
    mul.wide.s32    %rd8, %r6, 4;
    add.s64         %rd9, %rd3, %rd8;
    st.global.f32   [%rd9], %f1;             // P[i]
DONE:
    ret;
}
