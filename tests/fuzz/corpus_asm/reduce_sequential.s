// reduce_sequential.s - sum reduction with sequential addressing: no
// divergence until fewer than 32 threads are left (seed 003 reductions,
// seed 002 branch divergence).
//
// What it shows: the same tree as reduce_interleaved.s, with the active
// threads kept contiguous (seed 002: make the idle side of a branch a whole
// warp, "分支发散的另一个分支，不进行任何操作"):
//     for (s = blockDim/2; s > 0; s >>= 1) {
//         if (tid < s) sdata[tid] += sdata[tid + s];
//         __syncthreads();
//     }
// While s >= 32 the threads below s fill whole warps and the others are
// whole idle warps: every warp takes the branch the same way.  Only the
// last five steps (s = 16, 8, 4, 2, 1) split warp 0.  The reads
// sdata[tid + s] are consecutive words: conflict-free.  Thread 0 keeps the
// running sum in a register and writes the block's sum to partial[blockIdx];
// a second .launch of the same kernel, one block, reduces the partial sums
// into out[0].
//
// Data: random integers 0..9 in .u32, so the check is exact (integer
// addition is associative; floats would need a tolerance because the tree
// adds in another order than the host; see reduce_interleaved.s).
//
// Edges: any N works (a grid-stride loop: threads past the end add 0; one
// block reduces any number of partial sums).  BLOCK must be a power of two,
// <= 1024.
//
// What to change: -D N=.., -D BLOCK=64..1024.
//
// What to look for (default N=8192, BLOCK=256: 32 blocks, then 1 block, 8
// warps each; the same input as reduce_interleaved.s), observed with
// --functional:
//   divergent branches 165 = 33 blocks x 5.  By hand, per block: s = 128,
//   64, 32 are uniform in every warp (warps 0-3, 0-1, 0 run the body);
//   s = 16, 8, 4, 2, 1 diverge in warp 0 only = 5.
//   shared loads 396 (33 x 12 bodies: 4+2+1+1+1+1+1+1), shared stores 660
//   (33 x (8 + 12)), bar.sync 2376 (33 x 8 warps x 9), global loads 257,
//   global stores 33, warp instructions 22120, SIMD efficiency 96.41%
//   (reduce_interleaved.s: 1551 divergent branches, 1551 shared loads,
//   32119 instructions, 79.55%).
// sizes: N=77 | N=1000 | N=100000 BLOCK=128 | N=65536 BLOCK=1024 | N=1 BLOCK=64

.define N 8192
.define BLOCK 256
.define NB ((N+BLOCK-1)/BLOCK)             // blocks in launch 1 = partial sums

.buffer in      .u32[N] random(seed=7, min=0, max=9)
.buffer partial .u32[NB] zero
.buffer out     .u32[1] zero
.launch reduce_sequential grid=(NB) block=(BLOCK) args=(in, partial, N)
.launch reduce_sequential grid=(1) block=(BLOCK) args=(partial, out, NB)
.check out ref=sum(in, N)

.entry reduce_sequential (.param .u64 src, .param .u64 dst, .param .u32 n)
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

    shr.u32         %r12, %r4, 1;            // s = blockDim / 2
TREE:
    setp.ge.u32     %p2, %r2, %r12;
    @%p2 bra        NEXT;                    // uniform per warp while s >= 32
    shl.b32         %r15, %r12, 2;
    add.s32         %r15, %r11, %r15;        // &sdata[tid + s]
    ld.shared.u32   %r16, [%r15];            // consecutive words: no conflict
    add.s32         %r8, %r8, %r16;          // the running sum stays in a register
    st.shared.u32   [%r11], %r8;             // sdata[tid] += sdata[tid + s]
NEXT:
    bar.sync        0;
    shr.u32         %r12, %r12, 1;           // s >>= 1
    setp.ne.u32     %p3, %r12, 0;
    @%p3 bra        TREE;

    setp.ne.u32     %p4, %r2, 0;             // if (tid != 0) return;
    @%p4 ret;
    mul.wide.u32    %rd5, %r3, 4;
    add.s64         %rd6, %rd2, %rd5;
    st.global.u32   [%rd6], %r8;             // dst[blockIdx] = block sum
    ret;
}
