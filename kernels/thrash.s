// thrash.s - occupancy against cache thrashing: "optimal, not maximal
// occupancy" (seed 003).
//
// What it shows: every warp walks its own working set of WS bytes (WS/128
// lines of 128 bytes, one coalesced load per line) again and again, LOADS
// loads in all, and sums what it reads.  Each load is used at once, so a
// warp waits out one load latency per line: the L1 hit latency if its
// working set stayed in L1, the L2 latency if other warps evicted it.  With
// n warps resident on an SM the working sets add up to n x WS.  While that
// fits in L1 (16 KiB on Fermi), more warps hide more latency and the run
// gets faster; once it does not, lines are evicted before they are reused
// (LRU on a cyclic walk keeps almost nothing), nearly every load goes to L2
// and the run slows down at once.  Whether more warps then win back the loss
// depends on how much slower L2 is than L1 (docs/studies.md, study 5).
//
// Every run does the same work: WARPS warps of LOADS loads each, however
// many are resident at once, so cycles compare directly.  Warps are blocks
// of one warp (BLOCK = 32 threads), so sm.max_blocks sets how many are
// resident per SM (Fermi allows 8 blocks; the study raises it to 48 =
// sm.max_warps).  WARPS = 240 is a multiple of 1..6, 8, 10, 12, 15, 16, 20,
// 24, 30, 40 and 48, so each of these limits runs in whole waves.
//
// What to change: --set sm.max_blocks=1..48 (resident warps), -D WS=512,
// 1024, 2048, 4096 (a power of two >= 128, at most 128 x LOADS), l1.size_bytes.
// Threads form groups of 32 (lane = tid & 31): on a config with a smaller
// sm.warp_size the results stay right but a warp reads part of a line.
//   ./gpusim --set gpu.num_sms=1 --set sm.max_blocks=8 -D WS=2048 \
//            configs/fermi.ini kernels/thrash.s
// What to look for: IPC (the work is fixed, so IPC ~ 1/cycles) and the L1
// hit rate (l1tex__t_sector_hit_rate) as resident warps n grow: the hit rate
// stays at 1 - WS/(128 x LOADS) (the first pass misses) while n x WS <=
// l1.size_bytes and collapses just above; IPC peaks there.  With the
// command above, n = 8: 94% hits; --set sm.max_blocks=10: 2%, 2.8x slower.
// sizes: WS=128 LOADS=4 WARPS=3 | WS=512 LOADS=20 WARPS=5 | WS=4096 LOADS=64 WARPS=2
.define WS 2048                      // bytes in one warp's working set
.define LOADS 256                    // loads per warp, a multiple of WS/128
.define WARPS 240                    // warps in the grid
.define BLOCK 32                     // threads per block: one warp
.define LINES (WS/128)               // lines per working set
.buffer in .u32[WARPS*WS/4] iota
.buffer out .u32[WARPS*32] zero
.launch thrash grid=(WARPS*32/BLOCK) block=(BLOCK) args=(in, out)
// thread t = 32w + l reads in[w*WS/4 + 32*j + l] (= that index) LOADS/LINES
// times for each line j, and writes its sum minus LOADS*w*(WS/4 - 32), the
// part that comes from the gaps between working sets: LOADS*t + a constant.
.check out ref=affine(in, LOADS, 16*LOADS*(LINES-1))

// 10 registers per thread, so that 48 one-warp blocks fit on a Fermi SM.
.entry thrash (.param .u64 in, .param .u64 out)
{
    ld.param.u64    %rd1, [in];
    mov.u32         %r1, %ctaid.x;
    mov.u32         %r2, %ntid.x;
    mov.u32         %r3, %tid.x;
    mad.lo.s32      %r1, %r1, %r2, %r3;      // r1 = t: global thread index
    shr.u32         %r2, %r1, 5;             // r2 = w: global warp index
    and.b32         %r3, %r1, 31;            // r3 = l: lane
    mul.wide.u32    %rd2, %r2, WS;           // rd1 = the warp's working set:
    add.s64         %rd1, %rd1, %rd2;        //   in + w*WS ...
    mul.wide.u32    %rd2, %r3, 4;
    add.s64         %rd1, %rd1, %rd2;        //   ... + 4*l
    mov.u32         %r3, 0;                  // r3 = sum
    mov.u32         %r4, 0;                  // r4 = pass over the working set
PASS:
    mov.u64         %rd2, %rd1;              // back to its first line
    mov.u32         %r5, 0;                  // r5 = line
LINE:
    ld.global.u32   %r6, [%rd2];             // one 128-byte line per warp
    add.s64         %rd2, %rd2, 128;         // next line
    add.s32         %r5, %r5, 1;
    setp.lt.u32     %p1, %r5, LINES;
    add.s32         %r3, %r3, %r6;           // use the load: waits for it
@%p1 bra            LINE;
    add.s32         %r4, %r4, 1;
    setp.lt.u32     %p2, %r4, (LOADS/LINES);
@%p2 bra            PASS;
    mul.lo.u32      %r4, %r2, (LOADS*(WS/4-32));
    sub.u32         %r3, %r3, %r4;           // out[t] = sum - LOADS*w*(WS/4-32)
    ld.param.u64    %rd1, [out];
    mul.wide.u32    %rd2, %r1, 4;
    add.s64         %rd1, %rd1, %rd2;
    st.global.u32   [%rd1], %r3;
    ret;
}
