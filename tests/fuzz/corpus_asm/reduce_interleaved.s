// reduce_interleaved.s - sum reduction with the divergent interleaved tree
// (seed 003 reductions, seed 002 branch divergence).
//
// What it shows: how a badly shaped `if` wastes warps (seed 002, "分支发散").
// Each block of BLOCK threads loads its elements into shared memory and
// halves them in log2(BLOCK) steps:
//     for (s = 1; s < blockDim; s *= 2) {
//         if (tid % (2*s) == 0) sdata[tid] += sdata[tid + s];
//         __syncthreads();
//     }
// The active threads are 0, 2s, 4s, ... - spread over every warp, so for
// s = 1..16 all BLOCK/32 warps are divergent (16, 8, 4, 2, 1 useful lanes of
// 32) and still issue the body; for s >= 32 one lane per 2s/32 warps works.
// Thread 0 keeps its running sum in a register and writes the block's sum to
// partial[blockIdx.x].  A second .launch of the same kernel, one block,
// reduces the partial sums into out[0].  reduce_sequential.s keeps the
// active threads contiguous instead; reduce_shfl.s uses warp shuffles.
//
// Data: random integers 0..9 in .u32, so the check is exact: integer
// addition is associative, and any summation order gives the host's answer
// bit for bit.  (With floats the tree adds in another order than the host,
// which sums in double, so the last bits differ and the check needs a
// tolerance: a float version of this file is off by about 1e-8 relative at
// N=10^6, well inside .check's default rtol of 1e-5.)
//
// Edges: any N works.  Each thread first adds up in[i] for i = its global
// index, + gridDim*blockDim, ... (a grid-stride loop), so a thread past the
// end contributes 0, and one block can reduce any number of partial sums.
// BLOCK must be a power of two (tid + s stays below BLOCK) and <= 1024.
//
// What to change: -D N=.. for the input size, -D BLOCK=64..1024.
//
// What to look for (default N=8192, BLOCK=256: launch 1 has 32 blocks, launch
// 2 one block, 8 warps each), observed with --functional:
//   divergent branches 1551 = 33 blocks x 47.  Per block of 8 warps, by hand:
//   s = 1, 2, 4, 8, 16: 8 divergent warps each = 40; s = 32: warps 0, 2, 4, 6
//   (lane 0 of each) = 4; s = 64: warps 0, 4 = 2; s = 128: warp 0 = 1.
//   Total 47, and every one of those 47 warps runs the body for 1..16 lanes.
//   shared loads 1551 (33 x 47, one per body), shared stores 1815
//   (33 x (8 + 47): the initial store plus one per body), bar.sync 2376
//   (33 x 8 warps x 9), global loads 8192/32 + 1 = 257, global stores 33,
//   SIMD efficiency 79.55%.  Compare reduce_sequential.s: 5 divergent
//   branches and 12 bodies per block.
// sizes: N=77 | N=1000 | N=100000 BLOCK=128 | N=65536 BLOCK=1024 | N=1 BLOCK=64

.define N 8192
.define BLOCK 256
.define NB ((N+BLOCK-1)/BLOCK)             // blocks in launch 1 = partial sums

.buffer in      .u32[N] random(seed=7, min=0, max=9)
.buffer partial .u32[NB] zero
.buffer out     .u32[1] zero
.launch reduce_interleaved grid=(NB) block=(BLOCK) args=(in, partial, N)
.launch reduce_interleaved grid=(1) block=(BLOCK) args=(partial, out, NB)
.check out ref=sum(in, N)

.entry reduce_interleaved (.param .u64 src, .param .u64 dst, .param .u32 n)
{
    .shared .align 4 .u32 sdata[BLOCK];

    ld.param.u64    %rd1, [src];
    ld.param.u64    %rd2, [dst];
    ld.param.u32    %r1, [n];
    mov.u32         %r2, %tid.x;
    mov.u32         %r3, %ctaid.x;
    mov.u32         %r4, %ntid.x;
    mov.u32         %r5, %nctaid.x;
    mad.lo.s32      %r6, %r3, %r4, %r2;      // i = blockIdx*blockDim + tid
    mul.lo.s32      %r7, %r5, %r4;           // grid stride
    mov.u32         %r8, 0;                  // sum = 0

    // sum = in[i] + in[i+stride] + ... (once per thread in launch 1)
LOAD:
    setp.ge.u32     %p1, %r6, %r1;
    @%p1 bra        LOADED;
    mul.wide.u32    %rd3, %r6, 4;
    add.s64         %rd4, %rd1, %rd3;
    ld.global.u32   %r9, [%rd4];
    add.s32         %r8, %r8, %r9;
    add.s32         %r6, %r6, %r7;
    bra             LOAD;
LOADED:
    mov.u32         %r10, sdata;
    shl.b32         %r11, %r2, 2;
    add.s32         %r11, %r10, %r11;        // &sdata[tid]
    st.shared.u32   [%r11], %r8;
    bar.sync        0;

    mov.u32         %r12, 1;                 // s = 1
TREE:
    shl.b32         %r13, %r12, 1;           // 2s
    rem.u32         %r14, %r2, %r13;         // tid % (2s), as the C source says
    setp.ne.u32     %p2, %r14, 0;
    @%p2 bra        NEXT;                    // divergent for every 2s <= 32
    shl.b32         %r15, %r12, 2;
    add.s32         %r15, %r11, %r15;        // &sdata[tid + s]
    ld.shared.u32   %r16, [%r15];
    add.s32         %r8, %r8, %r16;          // the running sum stays in a register
    st.shared.u32   [%r11], %r8;             // sdata[tid] += sdata[tid + s]
NEXT:
    bar.sync        0;                       // all warps, reconverged
    mov.u32         %r12, %r13;              // s *= 2
    setp.lt.u32     %p3, %r12, %r4;
    @%p3 bra        TREE;

    setp.ne.u32     %p4, %r2, 0;             // if (tid != 0) return;
    @%p4 ret;
    mul.wide.u32    %rd5, %r3, 4;
    add.s64         %rd6, %rd2, %rd5;
    st.global.u32   [%rd6], %r8;             // dst[blockIdx] = block sum
    ret;
}
