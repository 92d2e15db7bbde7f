// reduce_shfl.s - sum reduction with warp shuffles: shfl.sync.down inside
// each warp, one shared slot per warp, then the first warp reduces those
// (seed 002 warp intrinsics, seed 003 reductions).  Runs at every warp size
// (sm.warp_size 4, 8, 16, 32): the warp's shape comes from PTX's WARP_SZ.
//
// What it shows: exchanging data through registers instead of shared memory
// (seed 002, "线程束洗牌函数" __shfl_down_sync, and its warp_reduce_kernel:
// for (offset = warp.size() / 2; offset > 0; offset /= 2)
//     v += shfl_down(v, offset)).
// shfl.sync.down.b32 d, v, off, WARP_SZ-1, membermask gives lane t the v of
// lane t+off (lanes with t+off past the last lane keep their own v); the
// membermask names all WARP_SZ lanes, (1 << WARP_SZ) - 1.  After offsets
// WARP_SZ/2, ..., 2, 1 (16, 8, 4, 2, 1 at warp size 32), lane 0 holds the
// warp's sum: log2(WARP_SZ) shuffles, no shared memory, no barrier, and the
// loop's branch is uniform.  Lane 0 of each warp stores its sum in
// wsum[warp]; after one bar.sync the other warps return and warp 0 gathers
// the BLOCK/WARP_SZ warp sums (lane l adds wsum[l], wsum[l + WARP_SZ], ...:
// one round unless BLOCK > WARP_SZ^2; 0 for lanes beyond the last warp) and
// shuffles them down the same way.  Thread 0 writes the block's sum to
// partial[blockIdx]; a second .launch of the same kernel, one block, reduces
// the partial sums into out[0].  Seed 003's warning about warp-synchronous
// shared-memory code without __syncwarp does not apply: shfl.sync
// synchronises the lanes in its mask by definition.
//
// Data: random integers 0..9 in .u32, so the check is exact (floats would
// need a tolerance because the tree adds in another order than the host;
// see reduce_interleaved.s).
//
// Edges: any N works (a grid-stride loop: threads past the end add 0, and
// all lanes of every warp take part in every shuffle).  BLOCK must be a
// multiple of 32 (so of every warp size), at most 1024.
//
// What to change: -D N=.., -D BLOCK=32..1024, --set sm.warp_size=4..32.
//
// What to look for (default N=8192, BLOCK=256: 32 blocks, then 1 block, 8
// warps each; the same input as reduce_interleaved.s), observed with
// --functional on fermi.ini (warp size 32):
//   divergent branches 0; shared stores 264 (33 blocks x 8 warps, one
//   predicated store each), shared loads 33 (warp 0 only), bar.sync 264
//   (one per warp: reduce_sequential.s needs 2376), global loads 257,
//   global stores 33, warp instructions 16939 (reduce_interleaved.s 32119,
//   reduce_sequential.s 22120; unrolling the two shuffle loops would save
//   about a third).  By hand, shuffles: 33 x (8 x 5 + 5) = 1485.  At warp
//   size 8 (--set sm.warp_size=8 --set sm.max_warps=192) there are 4 times
//   the warps and 3 shuffles each, 33 x (32 x 3 + 3) = 3267 shuffles, and
//   warp 0 gathers the 32 warp sums in 4 rounds: shared loads 132.
// sizes: N=77 | N=1000 | N=100000 BLOCK=128 | N=65536 BLOCK=1024 | N=1 BLOCK=32 | N=5000 BLOCK=96

.define N 8192
.define BLOCK 256
.define NB ((N+BLOCK-1)/BLOCK)             // blocks in launch 1 = partial sums

.buffer in      .u32[N] random(seed=7, min=0, max=9)
.buffer partial .u32[NB] zero
.buffer out     .u32[1] zero
.launch reduce_shfl grid=(NB) block=(BLOCK) args=(in, partial, N)
.launch reduce_shfl grid=(1) block=(BLOCK) args=(partial, out, NB)
.check out ref=sum(in, N)

.entry reduce_shfl (.param .u64 src, .param .u64 dst, .param .u32 n)
{
    .shared .align 4 .u32 wsum[(BLOCK+3)/4]; // one slot per warp (as many as warp size 4 makes)

    ld.param.u64    %rd1, [src];
    ld.param.u64    %rd2, [dst];
    ld.param.u32    %r1, [n];
    mov.u32         %r2, %tid.x;
    mov.u32         %r3, %ctaid.x;
    mov.u32         %r4, %ntid.x;
    mov.u32         %r5, %nctaid.x;
    mad.lo.s32      %r6, %r3, %r4, %r2;      // i = blockIdx*blockDim + tid
    mul.lo.s32      %r7, %r5, %r4;           // grid stride
    mov.u32         %r8, 0;                  // v = 0

    // v = in[i] + in[i+stride] + ... (once per thread in launch 1)
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
    // The warp's shape, from WARP_SZ (sm.warp_size, known at run time).
    mov.u32         %r10, %laneid;           // lane = tid % WARP_SZ
    div.u32         %r11, %r2, WARP_SZ;      // warp = tid / WARP_SZ
    sub.u32         %r17, WARP_SZ, 1;        // c: clamp at the warp's last lane
    shl.b32         %r18, 1, WARP_SZ;        // membermask: all WARP_SZ lanes =
    sub.u32         %r18, %r18, 1;           //   (1 << WARP_SZ) - 1 (shl by 32 gives 0: 0xffffffff)

    // Warp sum: for (off = WARP_SZ/2; off > 0; off /= 2) v += shfl_down(v, off).
    shr.u32         %r19, WARP_SZ, 1;        // off = WARP_SZ / 2
WARP_SUM:
    shfl.sync.down.b32 %r9, %r8, %r19, %r17, %r18;
    add.s32         %r8, %r8, %r9;
    shr.u32         %r19, %r19, 1;
    setp.ne.u32     %p5, %r19, 0;
    @%p5 bra        WARP_SUM;                // uniform: off is the same in every lane
                                             // lane 0: the warp's sum
    setp.eq.u32     %p2, %r10, 0;
    mov.u32         %r12, wsum;
    shl.b32         %r13, %r11, 2;
    add.s32         %r13, %r12, %r13;
    @%p2 st.shared.u32 [%r13], %r8;          // wsum[warp] = warp sum (lane 0)
    bar.sync        0;

    setp.ne.u32     %p3, %r11, 0;            // warps 1.. are done
    @%p3 ret;
    add.s32         %r14, %r4, %r17;
    div.u32         %r14, %r14, WARP_SZ;     // number of warps
    // v = wsum[lane] + wsum[lane + WARP_SZ] + ... (more than one round only
    // when the block has more warps than a warp has lanes: BLOCK > WARP_SZ^2)
    mov.u32         %r8, 0;
    mov.u32         %r7, 0;                  // base
GATHER:
    add.s32         %r6, %r7, %r10;          // j = base + lane
    setp.lt.u32     %p4, %r6, %r14;
    shl.b32         %r15, %r6, 2;
    add.s32         %r15, %r12, %r15;
    @%p4 ld.shared.u32 %r9, [%r15];          // lanes past the last warp add nothing
    @%p4 add.s32    %r8, %r8, %r9;
    add.s32         %r7, %r7, WARP_SZ;
    setp.lt.u32     %p6, %r7, %r14;
    @%p6 bra        GATHER;                  // uniform: base is the same in every lane

    shr.u32         %r19, WARP_SZ, 1;
BLOCK_SUM:
    shfl.sync.down.b32 %r9, %r8, %r19, %r17, %r18;
    add.s32         %r8, %r8, %r9;
    shr.u32         %r19, %r19, 1;
    setp.ne.u32     %p5, %r19, 0;
    @%p5 bra        BLOCK_SUM;               // lane 0 of warp 0: the block's sum

    mul.wide.u32    %rd5, %r3, 4;
    add.s64         %rd6, %rd2, %rd5;
    @%p2 st.global.u32 [%rd6], %r8;          // dst[blockIdx] = block sum (thread 0)
    ret;
}
