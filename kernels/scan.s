// scan.s - inclusive prefix sum (out[i] = in[0] + ... + in[i]) with warp
// shuffles: shfl.sync.up inside each warp, warp totals through shared
// memory, block totals through a second pass (seed 002 warp intrinsics,
// seed 003 shared memory).  Runs at every warp size (sm.warp_size 4, 8, 16,
// 32): the warp's shape comes from PTX's WARP_SZ.
//
// What it shows: __shfl_up_sync (seed 002, "线程束洗牌函数": lane t gets the v
// of lane t-d; lanes with t-d < 0 keep their own).  A warp scans its WARP_SZ
// values in log2(WARP_SZ) steps (five at warp size 32):
// for (d = 1; d < WARP_SZ; d *= 2) { t = shfl_up(v, d); if (lane >= d) v += t; }
// Here "lane >= d" is the predicate output of the shuffle itself:
//     shfl.sync.up.b32 %r9|%p5, %r8, d, 0, membermask;  @%p5 add ...
// (%p5 is false when the source lane t-d is out of range, whose result is
// the lane's own v - adding that would double it; membermask names all
// WARP_SZ lanes, (1 << WARP_SZ) - 1).  The last lane (WARP_SZ-1) then holds
// the warp's total: it stores it in wsum[warp]; after bar.sync warp 0 scans
// the warp totals the same way, WARP_SZ at a time (more than one round only
// when BLOCK > WARP_SZ^2), carrying each round's total to the next with
// shfl.sync.idx from the last lane; after another bar.sync each thread adds
// the totals of the warps before it.  No branch diverges: the per-lane
// choices are predicates, and the branches (the loops, warp 0 or not) are
// uniform.
//
// Whole array, three launches:
//   1. scan_blocks, one block per BLOCK-element chunk: out = the chunk's own
//      scan, sums[b] = chunk b's total;
//   2. scan_blocks again, ONE block over sums (in place): it loops over the
//      chunks of sums carrying a running total, so any number of blocks
//      works, and writes the grand total to total[0];
//   3. add_offsets: out[i] += sums[b-1] for every element of chunk b > 0.
// (Launch 2 alone, on in, would be option (a): a single block scanning the
// whole array chunk by chunk - try it as an exercise.)
//
// Data: random integers 0..9 in .u32: the check is exact.  Both the prefix
// sums (ref=scan) and the grand total (ref=sum) are checked.
//
// Edges: any N: lanes past the end scan zeros and store nothing.  BLOCK must
// be a multiple of 32 (so of every warp size), at most 1024.
//
// What to change: -D N=.., -D BLOCK=32..1024, --set sm.warp_size=4..32.
//
// What to look for (default N=8192, BLOCK=256: launch 1 has 32 blocks,
// launch 2 one block (one chunk of the 32 block sums), launch 3 32 blocks;
// 8 warps each), observed with --functional on fermi.ini (warp size 32):
//   divergent branches 0; shared stores 297 and shared loads 561, i.e. 9 and
//   17 per block-chunk in launches 1-2 (33 of them): stores 8 warp totals +
//   1 write-back of their scan, loads 1 (warp 0 reads the totals) + 8 (the
//   total of the warps before) + 8 (the block total); bar.sync 792 (3 per
//   warp per chunk); global loads 760 (256 + 8 in launches 1-2; launch 3
//   reads out and sums[b-1] in 31 blocks: 31 x 8 x 2 = 496), global stores
//   545 (256 + 8 scanned values, 32 + 1 totals, 248 in launch 3), warp
//   instructions 26830, SIMD efficiency 99.40%.  By hand, shuffles:
//   33 x (8 x 5 + 5 + 1) = 1518.  At warp size 8 (--set sm.warp_size=8
//   --set sm.max_warps=192) every block has 32 warps, so warp 0 scans their
//   totals in 4 rounds: shared loads 2244 = 33 x (4 + 32 + 32), shared
//   stores 1188 = 33 x (32 + 4).
// sizes: N=77 | N=1000 | N=100000 BLOCK=128 | N=300000 BLOCK=1024 | N=1 BLOCK=32 | N=5000 BLOCK=96 | N=20000 BLOCK=32

.define N 8192
.define BLOCK 256
.define NB ((N+BLOCK-1)/BLOCK)             // chunks = blocks of launches 1 and 3

.buffer in    .u32[N] random(seed=11, min=0, max=9)
.buffer out   .u32[N] zero
.buffer sums  .u32[NB] zero
.buffer total .u32[1] zero
.launch scan_blocks grid=(NB) block=(BLOCK) args=(in, out, sums, N)
.launch scan_blocks grid=(1) block=(BLOCK) args=(sums, sums, total, NB)
.launch add_offsets grid=(NB) block=(BLOCK) args=(out, sums, N)
.check out ref=scan(in, N)
.check total ref=sum(in, N)

// Block b scans chunks b, b + gridDim, b + 2*gridDim, ... as ONE sequence
// (carrying the running total from chunk to chunk) and writes its grand
// total to totals[b].  With one chunk per block that is a per-chunk scan;
// with a single block it is a scan of the whole array.
.entry scan_blocks (.param .u64 src, .param .u64 dst, .param .u64 totals,
                    .param .u32 n)
{
    .shared .align 4 .u32 wsum[(BLOCK+3)/4]; // one total per warp (as many as warp size 4 makes)

    ld.param.u64    %rd1, [src];
    ld.param.u64    %rd2, [dst];
    ld.param.u32    %r1, [n];
    mov.u32         %r2, %tid.x;
    mov.u32         %r3, %ctaid.x;
    mov.u32         %r4, %ntid.x;
    mov.u32         %r5, %nctaid.x;
    mul.lo.s32      %r6, %r3, %r4;           // base = first element of the chunk
    mul.lo.s32      %r7, %r5, %r4;           // chunk stride
    // The warp's shape, from WARP_SZ (sm.warp_size, known at run time).
    mov.u32         %r10, %laneid;           // lane = tid % WARP_SZ
    div.u32         %r11, %r2, WARP_SZ;      // warp = tid / WARP_SZ
    add.s32         %r12, %r4, WARP_SZ;
    sub.s32         %r12, %r12, 1;
    div.u32         %r12, %r12, WARP_SZ;     // number of warps
    shl.b32         %r20, 1, WARP_SZ;        // membermask: all WARP_SZ lanes =
    sub.u32         %r20, %r20, 1;           //   (1 << WARP_SZ) - 1 (shl by 32 gives 0: 0xffffffff)
    mov.u32         %r13, wsum;
    shl.b32         %r14, %r11, 2;
    add.s32         %r14, %r13, %r14;        // &wsum[warp]
    shl.b32         %r16, %r12, 2;
    add.s32         %r16, %r13, %r16;        // &wsum[nwarps]
    sub.u32         %r9, WARP_SZ, 1;
    setp.eq.u32     %p2, %r10, %r9;          // last lane of its warp
    setp.eq.u32     %p3, %r11, 0;            // warp 0
    mov.u32         %r17, 0;                 // carry: sum of the chunks before

CHUNK:
    setp.ge.u32     %p1, %r6, %r1;           // same for the whole block: uniform
    @%p1 bra        FINISH;
    add.s32         %r18, %r6, %r2;          // i = base + tid
    setp.lt.u32     %p6, %r18, %r1;
    mul.wide.u32    %rd3, %r18, 4;
    mov.u32         %r8, 0;
    add.s64         %rd4, %rd1, %rd3;
    @%p6 ld.global.u32 %r8, [%rd4];          // v = i < n ? src[i] : 0

    // Warp inclusive scan: for (d = 1; d < WARP_SZ; d *= 2) shuffle up by d.
    mov.u32         %r21, 1;
WARP_SCAN:
    shfl.sync.up.b32 %r9|%p5, %r8, %r21, 0, %r20;
    @%p5 add.s32    %r8, %r8, %r9;
    shl.b32         %r21, %r21, 1;
    setp.lt.u32     %p7, %r21, WARP_SZ;
    @%p7 bra        WARP_SCAN;               // uniform: d is the same in every lane
    @%p2 st.shared.u32 [%r14], %r8;          // wsum[warp] = warp total (last lane)
    bar.sync        0;

    // Warp 0 scans the warp totals, WARP_SZ at a time (one round unless the
    // block has more warps than a warp has lanes), carrying each round's
    // total into the next; lanes past the last warp scan zeros.
    @!%p3 bra       SCANNED;                 // uniform: whole warps
    mov.u32         %r5, 0;                  // round base
    mov.u32         %r22, 0;                 // total of the rounds before
TOTALS:
    add.s32         %r15, %r5, %r10;         // j = base + lane
    setp.lt.u32     %p4, %r15, %r12;         // j < nwarps
    shl.b32         %r15, %r15, 2;
    add.s32         %r15, %r13, %r15;        // &wsum[j]
    mov.u32         %r19, 0;
    @%p4 ld.shared.u32 %r19, [%r15];
    mov.u32         %r21, 1;
TOTALS_SCAN:
    shfl.sync.up.b32 %r9|%p5, %r19, %r21, 0, %r20;
    @%p5 add.s32    %r19, %r19, %r9;
    shl.b32         %r21, %r21, 1;
    setp.lt.u32     %p7, %r21, WARP_SZ;
    @%p7 bra        TOTALS_SCAN;
    add.s32         %r19, %r19, %r22;
    @%p4 st.shared.u32 [%r15], %r19;         // wsum[j] = total of warps 0..j
    sub.u32         %r9, WARP_SZ, 1;
    shfl.sync.idx.b32 %r22, %r19, %r9, %r9, %r20;   // carry = the last lane's value
    add.s32         %r5, %r5, WARP_SZ;
    setp.lt.u32     %p7, %r5, %r12;
    @%p7 bra        TOTALS;                  // uniform
SCANNED:
    bar.sync        0;

    @!%p3 ld.shared.u32 %r9, [%r14+-4];      // total of warps 0..warp-1
    @!%p3 add.s32   %r8, %r8, %r9;
    add.s32         %r8, %r8, %r17;          // + the chunks before
    add.s64         %rd4, %rd2, %rd3;
    @%p6 st.global.u32 [%rd4], %r8;          // dst[i]
    ld.shared.u32   %r9, [%r16+-4];          // the chunk's total (broadcast)
    add.s32         %r17, %r17, %r9;
    bar.sync        0;                       // wsum is rewritten next chunk
    add.s32         %r6, %r6, %r7;
    bra             CHUNK;

FINISH:
    setp.ne.u32     %p8, %r2, 0;             // if (tid != 0) return;
    @%p8 ret;
    ld.param.u64    %rd3, [totals];
    mul.wide.u32    %rd4, %r3, 4;
    add.s64         %rd3, %rd3, %rd4;
    st.global.u32   [%rd3], %r17;            // totals[blockIdx] = grand total
    ret;
}

// data[i] += sums[b-1] for the elements i < n of chunk b > 0.
.entry add_offsets (.param .u64 data, .param .u64 sums, .param .u32 n)
{
    mov.u32         %r1, %ctaid.x;
    setp.eq.u32     %p1, %r1, 0;             // chunk 0 is already final
    @%p1 ret;
    ld.param.u64    %rd1, [data];
    ld.param.u64    %rd2, [sums];
    ld.param.u32    %r2, [n];
    mov.u32         %r3, %tid.x;
    mov.u32         %r4, %ntid.x;
    mad.lo.s32      %r5, %r1, %r4, %r3;      // i
    setp.ge.u32     %p2, %r5, %r2;
    @%p2 ret;
    mul.wide.u32    %rd3, %r1, 4;
    add.s64         %rd3, %rd2, %rd3;
    ld.global.u32   %r6, [%rd3+-4];          // sums[b-1]: the chunks before b
    mul.wide.u32    %rd4, %r5, 4;
    add.s64         %rd4, %rd1, %rd4;
    ld.global.u32   %r7, [%rd4];
    add.s32         %r7, %r7, %r6;
    st.global.u32   [%rd4], %r7;
    ret;
}
