/* test_memsys.c - the whole memory hierarchy (sim/mem/memsys.h) end to end with
 * configs/fermi.ini: latencies of L1 hits, L2 hits and DRAM accesses, hit
 * rates, DRAM bytes, write-back stores, the constant cache, back-pressure,
 * atomics, local memory.  Run from the repo root.
 *
 * fermi.ini numbers used below: l1.hit_lat 50, icnt.latency 8, flit 32 B,
 * icnt.queue_depth 8 flits, l2.hit_lat 240, 6 slices and 6 channels
 * interleaved every 256 bytes, GDDR5 tRCD = tCL = 12 DRAM clocks, 64-byte
 * bursts of 2 clocks, tCCDL 3; core/DRAM clock ratio 1401/924 = 467/308
 * (DRAM clock d starts at core cycle floor(d x 467 / 308)).
 *
 * Each stage boundary costs one cycle: a packet queued at cycle t may
 * move at t + 1.  A 128-byte reply is 4 flits: it arrives latency + 3
 * cycles after it starts.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include "isa/diag.h"
#include "sim/base/config.h"
#include "sim/base/zalloc.h"
#include "sim/mem/coalesce.h"
#include "sim/mem/memsys.h"
#include "sim/mem/icnt.h"
#include "tests/sanitized.h"

#define G 0x10000000ull            /* MEM_GLOBAL_BASE: slice/channel 4 (chunk 1048576 % 6) */

typedef struct Sim {
    MemSys *m;
    uint64_t now;
    int n;
    MemDone done[8192];
    uint64_t at[8192];
} Sim;

static Config fermi(void)
{
    Config c;
    config_defaults(&c);
    DiagList dl = { 0 };
    assert_int_equal(config_load_file(&c, "configs/fermi.ini", &dl), 0);
    diag_free(&dl);
    return c;
}

/* One key=value of the config changed, as --set does. */
static void set(Config *c, const char *kv)
{
    DiagList dl = { 0 };
    assert_int_equal(config_set(c, kv, &dl), 0);
    diag_free(&dl);
}

static Sim *sim_new(const Config *c)
{
    static Sim s;
    memset(&s, 0, sizeof s);
    assert_null(memsys_unsupported(c));
    s.m = memsys_create(c, c->gpu.num_sms);
    assert_non_null(s.m);
    return &s;
}

static void record(Sim *s, uint64_t t)
{
    MemDone out[64];
    int k;
    do {
        k = memsys_tick(s->m, t, out, 64);
        for (int i = 0; i < k && s->n < 8192; i++) {
            s->done[s->n] = out[i];
            s->at[s->n++] = t;
        }
    } while (k == 64);
}

/* Visit every cycle up to and including t. */
static void advance(Sim *s, uint64_t t)
{
    while (s->now < t) record(s, ++s->now);
}

/* Jump from event to event until nothing is in flight. */
static void drain(Sim *s)
{
    uint64_t t;
    while ((t = memsys_next_event(s->m)) != UINT64_MAX) {
        assert_true(t >= s->now);
        s->now = t;
        record(s, t);
    }
    assert_false(memsys_busy(s->m));
}

static uint64_t done_at(const Sim *s, uint32_t tag)
{
    for (int i = 0; i < s->n; i++)
        if (s->done[i].tag == tag) return s->at[i];
    fail_msg("tag %u never completed", tag);
    return 0;
}

/* 32 lanes, `bytes` each, lane i at base + i x stride. */
static MemAccess warp(int space, uint64_t base, uint64_t stride, int bytes)
{
    MemAccess a;
    memset(&a, 0, sizeof a);
    a.space = (uint8_t)space;
    a.bytes = (uint8_t)bytes;
    a.mask = 0xffffffffu;
    for (int l = 0; l < 32; l++) a.addr[l] = base + (uint64_t)l * stride;
    return a;
}

static MemAccess ld(uint64_t base) { return warp(SP_GLOBAL, base, 4, 4); }

static MemAccess st(uint64_t base)
{
    MemAccess a = ld(base);
    a.is_store = 1;
    return a;
}

/* Issue at s->now, retrying one cycle later until accepted. */
static int issue(Sim *s, int sm, int slot, uint32_t tag, const MemAccess *a, unsigned flags, uint64_t *done)
{
    int r;
    while ((r = memsys_access_ex(s->m, sm, slot, tag, a, flags, s->now, done)) == MEM_RETRY) advance(s, s->now + 1);
    return r;
}

/* ---- latencies ----------------------------------------------------------------------- */

/* One 128-byte line, cold, issued at cycle 0 by SM 0:
 *    0  L1 tag lookup: miss; the request (1 flit) may leave at 1
 *    1  crosses: arrives 1 + 8 = 9 at slice 4
 *  249  after l2.hit_lat 240: L2 miss, DRAM request (channel 4, bank closed)
 *       DRAM clocks: queued at the first clock after core 249, 165
 *       (= ceil(250 x 308 / 467)); ACT 165; RD 177 (tRCD) and 180 (tCCDL);
 *       last data 192..194; clock 194 starts at core 294
 *  294  L2 fill; the reply (4 flits) may leave at 295, arrives 295 + 8 + 3 = 306
 *  306  L1 fill; data to the warp l1.hit_lat later: 356.
 * The same line again from SM 0: an L1 hit, 50 cycles.  From SM 1 at 1000:
 * L1 miss, L2 hit: 1001 + 8 + 240 = 1249, reply leaves 1250, arrives 1261,
 * data at 1311: 311 = 1 + 8 + 240 + 1 + 8 + 3 + 50.
 * SM 2 at 2000 reads the next line, which is in the DRAM row just opened
 * (same 256-byte chunk): L2 at 2249, DRAM clock 1484: RD 1484 and 1487, data
 * to 1501, core 2275; reply arrives 2276 + 11 = 2287; data at 2337: 337,
 * 19 cycles less than the row miss (tRCD = 12 DRAM clocks). */
static void load_latencies(void **state)
{
    (void)state;
    Config c = fermi();
    Sim *s = sim_new(&c);
    MemAccess a = ld(G);
    uint64_t done = 0;
    assert_int_equal(memsys_access(s->m, 0, 0, 1, &a, 0, &done), MEM_PENDING);
    drain(s);
    assert_int_equal(done_at(s, 1), 356);

    advance(s, 400);
    assert_int_equal(memsys_access(s->m, 0, 1, 2, &a, 400, &done), MEM_OK);
    assert_int_equal(done, 450);

    advance(s, 1000);
    assert_int_equal(memsys_access(s->m, 1, 0, 3, &a, 1000, &done), MEM_PENDING);
    drain(s);
    assert_int_equal(done_at(s, 3), 1311);

    advance(s, 2000);
    MemAccess b = ld(G + 128);
    assert_int_equal(memsys_access(s->m, 2, 0, 4, &b, 2000, &done), MEM_PENDING);
    drain(s);
    assert_int_equal(done_at(s, 4), 2337);

    const MemStats *st = memsys_stats(s->m);
    assert_int_equal(st->dram_row_misses, 1);
    assert_int_equal(st->dram_row_hits, 1);
    assert_int_equal(st->dram_bytes_read, 256);
    printf("fermi.ini zero-load latencies: L1 hit 50, L2 hit 311, DRAM row miss 356, row hit 337 cycles\n");
    memsys_destroy(s->m);
}

/* Completions more than 1024 cycles ahead wait in the completion
 * calendar's heap (sim/mem/doneq.h) and come out on their cycle: with
 * l1.hit_lat 1500, load_latencies' cold load is done at 306 + 1500 = 1806
 * and SM 1's L2 hit, issued at 1000, at 1261 + 1500 = 2761. */
static void completions_beyond_calendar(void **state)
{
    (void)state;
    Config c = fermi();
    set(&c, "l1.hit_lat=1500");
    Sim *s = sim_new(&c);
    MemAccess a = ld(G);
    uint64_t done = 0;
    assert_int_equal(memsys_access(s->m, 0, 0, 1, &a, 0, &done), MEM_PENDING);
    advance(s, 1000);
    assert_int_equal(memsys_access(s->m, 1, 0, 2, &a, 1000, &done), MEM_PENDING);
    assert_int_equal(memsys_next_event(s->m), 1001);
    drain(s);
    assert_int_equal(s->n, 2);
    assert_int_equal(done_at(s, 1), 1806);
    assert_int_equal(done_at(s, 2), 2761);
    assert_int_equal(s->done[0].tag, 1);
    memsys_destroy(s->m);
}

/* Bypassing L1 (ld.cg): nothing is looked up in or filled into the L1;
 * the second load hits in L2 (311 cycles, as above). */
static void bypass_l1(void **state)
{
    (void)state;
    Config c = fermi();
    Sim *s = sim_new(&c);
    MemAccess a = ld(G);
    uint64_t done;
    assert_int_equal(memsys_access_ex(s->m, 0, 0, 1, &a, MEMSYS_BYPASS_L1, 0, &done), MEM_PENDING);
    drain(s);
    advance(s, 1000);
    assert_int_equal(memsys_access_ex(s->m, 0, 0, 2, &a, MEMSYS_BYPASS_L1, 1000, &done), MEM_PENDING);
    drain(s);
    assert_int_equal(done_at(s, 2), 1311);
    const MemStats *st = memsys_stats(s->m);
    assert_int_equal(st->l1_sector_hits + st->l1_sector_misses, 0);
    assert_int_equal(st->l2_sector_misses, 4);
    assert_int_equal(st->l2_sector_hits, 4);
    assert_int_equal(st->l1_sectors_ld, 8);
    memsys_destroy(s->m);

    /* l1.enabled = false does the same for every global load */
    set(&c, "l1.enabled=false");
    s = sim_new(&c);
    assert_int_equal(memsys_access(s->m, 0, 0, 1, &a, 0, &done), MEM_PENDING);
    drain(s);
    advance(s, 1000);
    assert_int_equal(memsys_access(s->m, 0, 0, 2, &a, 1000, &done), MEM_PENDING);
    drain(s);
    assert_int_equal(done_at(s, 2), 1311);
    assert_int_equal(memsys_stats(s->m)->l1_sector_hits + memsys_stats(s->m)->l1_sector_misses, 0);
    memsys_destroy(s->m);
}

/* ---- hit rates and bytes ------------------------------------------------------------ */

/* SM 0 reads 64 lines twice, then SM 1 reads them once.  64 lines fit in
 * the 128-line L1 (2 per set of 4 ways) and in L2.
 *   L1: pass 1 misses 256 sectors, pass 2 hits 256, SM 1 misses 256:
 *       hit rate 256 / 768 = 33.3%
 *   L2: pass 1 misses 256, SM 1 hits 256: 50% */
static void hit_rates(void **state)
{
    (void)state;
    Config c = fermi();
    Sim *s = sim_new(&c);
    uint64_t done;
    uint32_t tag = 0;
    for (int pass = 0; pass < 3; pass++) {
        int sm = pass == 2;
        for (int i = 0; i < 64; i++) {
            MemAccess a = ld(G + (uint64_t)i * 128);
            issue(s, sm, i % 48, tag++, &a, 0, &done);
            advance(s, s->now + 1);
        }
        drain(s);
    }
    const MemStats *st = memsys_stats(s->m);
    assert_int_equal(st->l1_requests_ld, 192);
    assert_int_equal(st->l1_sectors_ld, 768);
    assert_int_equal(st->l1_sector_hits, 256);
    assert_int_equal(st->l1_sector_misses, 512);
    assert_int_equal(st->l2_sector_hits, 256);
    assert_int_equal(st->l2_sector_misses, 256);
    assert_int_equal(st->l2_sectors_read, 512);
    assert_int_equal(st->dram_bytes_read, 64 * 128);
    assert_int_equal(st->dram_bytes_write, 0);
    printf("hit rates: L1 %.1f%%, L2 %.1f%%\n",
           100.0 * (double)st->l1_sector_hits / (double)(st->l1_sector_hits + st->l1_sector_misses),
           100.0 * (double)st->l2_sector_hits / (double)(st->l2_sector_hits + st->l2_sector_misses));
    memsys_destroy(s->m);
}

/* A coalesced stream of N = 64 KiB: DRAM reads exactly N bytes, and the
 * coalescer moves exactly what is requested.  The same 32 warp loads at a
 * stride of 128 bytes per lane touch one sector in each of 1024 lines:
 * 4 KiB requested, 32 KiB of sectors, and 64 KiB from DRAM (a 32-byte
 * sector costs a whole 64-byte burst). */
static void streaming_bytes(void **state)
{
    (void)state;
    Config c = fermi();
    Sim *s = sim_new(&c);
    uint64_t done;
    for (int i = 0; i < 512; i++) {
        MemAccess a = ld(G + (uint64_t)i * 128);
        issue(s, 0, i % 48, (uint32_t)i, &a, 0, &done);
        advance(s, s->now + 1);
    }
    drain(s);
    const MemStats *st = memsys_stats(s->m);
    assert_int_equal(st->dram_bytes_read, 65536);
    assert_int_equal(st->bytes_requested, 65536);
    assert_int_equal(st->bytes_moved, 65536);
    assert_int_equal(s->n, 512);
    memsys_destroy(s->m);

    s = sim_new(&c);
    for (int i = 0; i < 32; i++) {
        MemAccess a = warp(SP_GLOBAL, G + (uint64_t)i * 4096, 128, 4);
        issue(s, 0, i % 48, (uint32_t)i, &a, 0, &done);
        advance(s, s->now + 1);
    }
    drain(s);
    st = memsys_stats(s->m);
    assert_int_equal(st->l1_sectors_ld, 1024);
    assert_int_equal(st->bytes_requested, 4096);
    assert_int_equal(st->bytes_moved, 32768);
    assert_int_equal(st->dram_bytes_read, 65536);
    memsys_destroy(s->m);
}

/* Stores with the L2 shrunk to 12 KiB (6 slices x 2 sets x 8 ways):
 * 192 sequential lines (24 KiB), 32 per slice, 16 per set.  Write-allocate
 * fetches nothing; the first 8 lines of each set are evicted dirty by the
 * last 8: 96 lines x 128 B = 12 KiB written during the run, the other
 * 12 KiB by memsys_flush at the end.  One store alone completes when the
 * L2 has taken it plus the acknowledgement: 1 + 8 + 3 (4 flits of data)
 * = 12, + 240 = 252, + 8 = 260. */
static void write_back_stores(void **state)
{
    (void)state;
    Config c = fermi();
    DiagList dl = { 0 };
    assert_int_equal(config_set(&c, "l2.size_bytes=12KiB", &dl), 0);
    assert_int_equal(config_validate(&c, &dl), 0);
    diag_free(&dl);
    Sim *s = sim_new(&c);
    uint64_t done;
    MemAccess a = st(G);
    assert_int_equal(memsys_access(s->m, 0, 0, 1000, &a, 0, &done), MEM_PENDING);
    drain(s);
    assert_int_equal(done_at(s, 1000), 260);
    for (int i = 1; i < 192; i++) {
        a = st(G + (uint64_t)i * 128);
        issue(s, 0, i % 48, (uint32_t)i, &a, 0, &done);
        advance(s, s->now + 1);
    }
    drain(s);
    const MemStats *m = memsys_stats(s->m);
    assert_int_equal(m->l1_requests_st, 192);
    assert_int_equal(m->l1_sectors_st, 768);
    assert_int_equal(m->l2_sectors_write, 768);
    assert_int_equal(m->l2_sector_misses, 768);
    assert_int_equal(m->dram_bytes_read, 0);
    assert_int_equal(m->dram_bytes_write, 12288);
    assert_int_equal(m->l2_writebacks, 96);
    memsys_flush(s->m);
    assert_int_equal(m->dram_bytes_write, 24576);
    assert_int_equal(m->dram_flush_bytes, 12288);
    memsys_destroy(s->m);
}

/* dram.partition_hash, by hand: chunk k of dram.interleave_bytes (256)
 * lies in group g = k / slices at place (k % slices + rot(g)) % slices,
 * rot(g) = ((uint32_t)g x 2654435761 >> 8) % slices (memsys.c), and slice
 * s is channel s % channels's. */
static int hashed_slice(uint64_t addr, int slices)
{
    uint64_t k = addr / 256, g = k / (uint64_t)slices;
    uint64_t rot = (uint64_t)(((uint32_t)g * 2654435761u) >> 8) % (uint64_t)slices;
    return (int)((k % (uint64_t)slices + rot) % (uint64_t)slices);
}

/* A dirty L2 line's write-back goes to the DRAM channel its address
 * hashes to.  fermi.ini with 8 slices of one line each (l2.size_bytes
 * 1 KiB, one way) over 2 channels, the hash on: 64 full-line stores, each
 * to the first line of the first chunk of a group (k = 8g), so each lands
 * where rot(g) puts it and evicts, dirty, the line its slice held.  A
 * slice that took n lines wrote n - 1 back, to channel slice % 2: the
 * channels' DRAM bytes are 128 x those counts (worked out here from the
 * formula above; 64 stores, 56 write-backs: every slice took some).
 * A write-back sent to the line's unhashed place, or its slice's
 * neighbour's, moves bytes between the channels. */
static void partition_hash_writebacks(void **state)
{
    (void)state;
    Config c = fermi();
    set(&c, "dram.channels=2");
    set(&c, "l2.slices=8");
    set(&c, "l2.assoc=1");
    set(&c, "l2.size_bytes=1024");
    set(&c, "dram.partition_hash=true");
    DiagList dl = { 0 };
    assert_int_equal(config_validate(&c, &dl), 0);
    diag_free(&dl);
    Sim *s = sim_new(&c);
    int took[8] = { 0 };
    uint64_t done;
    for (int g = 0; g < 64; g++) {
        uint64_t addr = G + (uint64_t)g * 8 * 256;
        took[hashed_slice(addr, 8)]++;
        MemAccess a = st(addr);
        issue(s, 0, g % 48, (uint32_t)g, &a, 0, &done);
        advance(s, s->now + 1);
    }
    drain(s);
    uint64_t want[2] = { 0, 0 }, backs = 0;
    for (int sl = 0; sl < 8; sl++) {
        assert_true(took[sl] > 0);
        want[sl % 2] += 128u * (uint64_t)(took[sl] - 1);
        backs += (uint64_t)(took[sl] - 1);
    }
    assert_int_equal(backs, 56);
    assert_int_equal(memsys_stats(s->m)->l2_writebacks, 56);
    assert_true(want[0] != want[1]);     /* the hash, not an even split, decides */
    for (int ch = 0; ch < 2; ch++) {
        MemPartCounters pc;
        memsys_part_counters(s->m, ch, &pc);
        assert_int_equal(pc.dram_bytes, want[ch]);
    }
    memsys_destroy(s->m);
}

/* ---- constant cache ------------------------------------------------------------------ */

/* One address for the whole warp: one request, broadcast, no serialisation.
 * Cold: 22 + a miss penalty of 2 x 8 + 240 = 256 -> 278.  Warm: 22.
 * 32 distinct words (two 64-byte lines, one already cached): 31 extra
 * cycles and one miss; warm again: 22 + 31 = 53. */
static void constant_broadcast(void **state)
{
    (void)state;
    Config c = fermi();
    Sim *s = sim_new(&c);
    MemAccess one = warp(SP_CONST, 256, 0, 4), many = warp(SP_CONST, 256, 4, 4);
    int missed = -1;
    assert_int_equal(memsys_const_access(s->m, 0, &one, 0, &missed), 278);
    assert_int_equal(missed, 1);
    assert_int_equal(memsys_const_access(s->m, 0, &one, 1000, &missed), 1022);
    assert_int_equal(missed, 0);
    const MemStats *st = memsys_stats(s->m);
    assert_int_equal(st->const_requests, 2);
    assert_int_equal(st->const_serialized, 0);
    assert_int_equal(memsys_const_access(s->m, 0, &many, 2000, &missed), 2000 + 22 + 31 + 256);
    assert_int_equal(missed, 1);
    assert_int_equal(memsys_const_access(s->m, 0, &many, 3000, &missed), 3053);
    assert_int_equal(st->const_requests, 4);
    assert_int_equal(st->const_serialized, 62);
    assert_int_equal(st->const_misses, 2);
    /* another SM has its own constant cache */
    assert_int_equal(memsys_const_access(s->m, 1, &one, 4000, &missed), 4278);
    memsys_destroy(s->m);
}

/* ---- back-pressure ----------------------------------------------------------------- */


/* A held access keeps its coalesced lines (sm.c's SmRetry.co): the retry
 * given those lines must be the retry that coalesces again.  SM 0's 4-lane
 * scattered load takes the tag stage for cycles 0-3 (4 lines); the full
 * warp's load at cycle 1 is refused (tag stage busy) and taken at 4.
 * Counters: 2 load requests; 4 + 4 sectors (4 lanes in 4 lines; 32 x 4
 * contiguous bytes in one line); 1 busy refusal; the same completion. */
static void retry_with_held_lines(void **state)
{
    (void)state;
    Config c = fermi();
    uint64_t when[2];
    MemStats got[2];
    for (int held = 0; held < 2; held++) {
        Sim *s = sim_new(&c);
        MemAccess scattered = warp(SP_GLOBAL, G, 128, 4), next = ld(G + 65536);
        scattered.mask = 0xfu;
        static Coalesced co;
        coalesce(&next, c.l1.line_bytes, c.l1.sector_bytes, c.sm.warp_size, &co);
        uint64_t done;
        assert_int_equal(memsys_access(s->m, 0, 0, 1, &scattered, 0, &done), MEM_PENDING);
        assert_int_equal(memsys_sm_ready(s->m, 0), 4);
        advance(s, 1);
        assert_int_equal(memsys_access_co(s->m, 0, 1, 2, &next, &co, 0, 1, &done), MEM_RETRY);
        advance(s, 4);
        assert_int_equal(memsys_access_co(s->m, 0, 1, 2, &next, held ? &co : NULL, 0, 4, &done), MEM_PENDING);
        drain(s);
        when[held] = done_at(s, 2);
        got[held] = *memsys_stats(s->m);
        memsys_destroy(s->m);
    }
    for (int held = 0; held < 2; held++) {
        assert_int_equal(got[held].l1_requests_ld, 2);
        assert_int_equal(got[held].l1_sectors_ld, 8);
        assert_int_equal(got[held].retry_l1_busy, 1);
        assert_int_equal(got[held].bytes_requested, 4 * 4 + 32 * 4);
    }
    assert_int_equal(when[0], when[1]);
    assert_int_equal(got[0].l1_sector_misses, got[1].l1_sector_misses);
    assert_int_equal(got[0].l2_sector_misses, got[1].l2_sector_misses);
}

/* A load scattered over 32 lines holds the L1 tag stage 32 cycles (one
 * line per cycle) and takes all 32 MSHRs: the next load is refused at
 * cycle 1 (tag stage busy) and at 32 (no MSHR), changing nothing, and is
 * taken once a fill frees an MSHR.  The first fill: line 0 wants 1 sector,
 * 1 DRAM burst: ACT 165, RD 177, data 189..191, clock 191 starts at core
 * 289; the 1-flit reply leaves at 290 and arrives 290 + 8 = 298. */
static void retry_l1_busy_and_mshrs(void **state)
{
    (void)state;
    Config c = fermi();
    Sim *s = sim_new(&c);
    MemAccess scattered = warp(SP_GLOBAL, G, 128, 4), next = ld(G + 65536);
    uint64_t done;
    assert_int_equal(memsys_access(s->m, 0, 0, 1, &scattered, 0, &done), MEM_PENDING);
    assert_int_equal(memsys_sm_ready(s->m, 0), 32);
    advance(s, 1);
    MemStats before = *memsys_stats(s->m);
    assert_int_equal(memsys_access(s->m, 0, 1, 2, &next, 1, &done), MEM_RETRY);
    advance(s, 32);
    assert_int_equal(memsys_access(s->m, 0, 1, 2, &next, 32, &done), MEM_RETRY);
    const MemStats *after = memsys_stats(s->m);
    assert_int_equal(after->retry_l1_busy, 1);
    assert_int_equal(after->retry_mshr, 1);
    assert_int_equal(after->l1_requests_ld, before.l1_requests_ld);
    assert_int_equal(after->l1_sector_misses, before.l1_sector_misses);
    /* the same slot now wants a line already on its way: it merges, no
     * new MSHR needed, so it is taken although the MSHRs are all busy */
    MemAccess merge = ld(G + 5 * 128);
    assert_int_equal(memsys_access(s->m, 0, 1, 2, &merge, 32, &done), MEM_PENDING);
    assert_int_equal(after->l1_mshr_merges, 1);
    advance(s, 33);
    assert_int_equal(issue(s, 0, 2, 3, &next, 0, &done), MEM_PENDING);
    assert_int_equal(s->now, 298);                       /* only after the first fill */
    drain(s);
    assert_int_equal(s->n, 3);
    memsys_destroy(s->m);
}

/* A load that alone needs more of one L1 set's ways, or more MSHRs, than
 * the L1 has could never be taken (the launch stopped as a deadlock): its
 * last such lines go past the L1, read without a fill (memsys.c:
 * bypass_excess).  fermi.ini (32 sets of 4 ways, 32 MSHRs): a column walk,
 * lane j at G + 1 KiB x j, is 32 lines, line j in set 8j mod 32, so 8 in
 * each of sets 0, 8, 16, 24; each set keeps its first 4 (j < 16) and the
 * 16 lines j >= 16 go past.  All 32 sectors miss; then line 0 (kept)
 * hits and line 31 (past) misses.  tiny.ini (8-lane warps, 4 sets of 2
 * ways): lane j at G + 512 x j is line 4j, all 8 in set 0, which keeps 2
 * (j < 2) while 6 go past; then line 0 hits and line 7 misses. */
static void loads_past_a_full_l1(void **state)
{
    (void)state;
    static const char *const cfgs[] = { "configs/fermi.ini", "configs/tiny.ini" };
    const uint64_t stride[] = { 1024, 512 }, lanes[] = { 32, 8 };
    for (int i = 0; i < 2; i++) {
        Config c;
        config_defaults(&c);
        DiagList dl = { 0 };
        assert_int_equal(config_load_file(&c, cfgs[i], &dl), 0);
        diag_free(&dl);
        Sim *s = sim_new(&c);
        MemAccess col = warp(SP_GLOBAL, G, stride[i], 4);
        uint64_t done;
        assert_int_equal(memsys_access(s->m, 0, 0, 1, &col, 0, &done), MEM_PENDING);
        drain(s);
        assert_int_equal(s->n, 1);
        const MemStats *st = memsys_stats(s->m);
        assert_int_equal(st->l1_sector_misses, lanes[i]);
        assert_int_equal(st->l1_sector_hits, 0);
        assert_int_equal(st->retry_mshr, 0);
        MemAccess first = warp(SP_GLOBAL, G, 0, 4), last = warp(SP_GLOBAL, G + stride[i] * (lanes[i] - 1), 0, 4);
        assert_int_equal(issue(s, 0, 0, 2, &first, 0, &done), MEM_OK);   /* an L1 hit: no record */
        assert_int_equal(st->l1_sector_hits, 1);
        assert_int_equal(issue(s, 0, 0, 3, &last, 0, &done), MEM_PENDING);
        drain(s);
        assert_int_equal(st->l1_sector_misses, lanes[i] + 1);
        memsys_destroy(s->m);
    }
}

/* l1.mshr_merge: warps 0, 1, 2 of SM 0 load the same cold line at cycles
 * 0, 1 and 2 (the tag stage takes one line per cycle).  Warp 0's miss takes
 * an MSHR, warp 1 merges into it.  With l1.mshr_merge = 2 the MSHR is full:
 * warp 2 is refused (retry_mshr 1, nothing counted) and is taken only once
 * the fill at 306 has made the line valid, as an L1 hit: data at
 * 306 + 50 = 356, the same cycle as the others.  With fermi.ini's 8 it
 * merges at cycle 2. */
static void l1_merge_limit(void **state)
{
    (void)state;
    for (int merge = 2; merge <= 8; merge += 6) {
        Config c = fermi();
        char kv[32];
        snprintf(kv, sizeof kv, "l1.mshr_merge=%d", merge);
        set(&c, kv);
        Sim *s = sim_new(&c);
        MemAccess a = ld(G);
        uint64_t done = 0;
        assert_int_equal(memsys_access(s->m, 0, 0, 1, &a, 0, &done), MEM_PENDING);
        advance(s, 1);
        assert_int_equal(memsys_access(s->m, 0, 1, 2, &a, 1, &done), MEM_PENDING);
        advance(s, 2);
        const MemStats *st = memsys_stats(s->m);
        if (merge == 2) {
            assert_int_equal(memsys_access(s->m, 0, 2, 3, &a, 2, &done), MEM_RETRY);
            assert_int_equal(st->retry_mshr, 1);
            assert_int_equal(st->l1_requests_ld, 2);
            assert_int_equal(issue(s, 0, 2, 3, &a, 0, &done), MEM_OK);
            assert_int_equal(s->now, 306);
            assert_int_equal(done, 356);
        } else {
            assert_int_equal(memsys_access(s->m, 0, 2, 3, &a, 2, &done), MEM_PENDING);
            assert_int_equal(st->retry_mshr, 0);
        }
        drain(s);
        assert_int_equal(done_at(s, 1), 356);
        assert_int_equal(done_at(s, 2), 356);
        if (merge == 8) assert_int_equal(done_at(s, 3), 356);
        assert_int_equal(st->l1_requests_ld, 3);
        assert_int_equal(st->l1_mshr_merges, merge == 2 ? 1 : 2);
        /* tag hits: the merged and the retried access find the sectors
         * requested or valid; only the first access's 4 are fetched */
        assert_int_equal(st->l1_sector_misses, 4);
        assert_int_equal(st->l1_sector_hits, 8);
        assert_int_equal(st->l2_requests, 1);
        memsys_destroy(s->m);
    }
}

/* l2.mshr_merge: SMs 0, 1 and 2 load one word of a cold line at cycles 0,
 * 1 and 2, and SM 3 a word of the next line (same slice 4, same DRAM row)
 * at 3.  Each misses its own L1; the 1-flit requests reach the slice at 9,
 * 10, 11, 12 and its tag stage at 249, 250, 251, 252.  SM 0's miss goes to
 * DRAM (ACT 165, RD 177, one burst, fill at core 289, as in
 * retry_l1_busy_and_mshrs); SM 1 merges into its MSHR at 250.  The fill
 * answers the waiters one reply flit per cycle: they leave at 290, 291,
 * 292 and the data is at 290 + 8 + 50 = 348, 349, 350.
 *   l2.mshr_merge 4 (fermi.ini): SM 2 merges at 251.  SM 3 misses at 252:
 *     queued at DRAM clock 167 (= ceil(253 x 308 / 467)), a row hit behind
 *     SM 0's read: RD 180 (tCCDL), data 192..194, clock 194 = core 294;
 *     data at 295 + 8 + 50 = 353.  L2: 2 sector misses (the fills), 2 tag hits.
 *   l2.mshr_merge 2: the MSHR is full at 251.  SM 2's request stays at the
 *     head of the slice's queue and SM 3's waits behind it until the fill
 *     at 289, when SM 2 hits (its reply still third: 350).  SM 3 misses at
 *     290: DRAM clock 192, RD 192, data 204..206, clock 206 = core 312;
 *     data at 313 + 8 + 50 = 371, 18 cycles later.  L2: 2 misses, 2 hits. */
static void l2_merge_limit(void **state)
{
    (void)state;
    for (int merge = 2; merge <= 4; merge += 2) {
        Config c = fermi();
        char kv[32];
        snprintf(kv, sizeof kv, "l2.mshr_merge=%d", merge);
        set(&c, kv);
        Sim *s = sim_new(&c);
        MemAccess a = warp(SP_GLOBAL, G, 0, 4), b = warp(SP_GLOBAL, G + 128, 0, 4);
        uint64_t done;
        for (int sm = 0; sm < 4; sm++) {
            advance(s, (uint64_t)sm);
            assert_int_equal(memsys_access(s->m, sm, 0, (uint32_t)sm, sm < 3 ? &a : &b, s->now, &done), MEM_PENDING);
        }
        drain(s);
        assert_int_equal(done_at(s, 0), 348);
        assert_int_equal(done_at(s, 1), 349);
        assert_int_equal(done_at(s, 2), 350);
        assert_int_equal(done_at(s, 3), merge == 2 ? 371 : 353);
        const MemStats *st = memsys_stats(s->m);
        assert_int_equal(st->l2_requests, 4);
        /* tag hits: SM 1 and SM 2 find the sector requested (or, held back,
         * valid); the two fills are the misses, either way */
        assert_int_equal(st->l2_sector_misses, 2);
        assert_int_equal(st->l2_sector_hits, 2);
        /* gpusim__l2_wait_mshr: with 2, SM 2's request waits at the head of
         * the slice from its tag stage at 251 to the fill at 289: 38 cycles;
         * with 4 nothing waits */
        assert_int_equal(st->l2_wait_cycles[L2_WAIT_MSHR - 1], merge == 2 ? 38 : 0);
        assert_int_equal(st->l2_wait_cycles[L2_WAIT_DRAM - 1] + st->l2_wait_cycles[L2_WAIT_REPLY - 1] +
                         st->l2_wait_cycles[L2_WAIT_RESERVED - 1], 0);
        assert_int_equal(st->dram_reads, 2);
        assert_int_equal(st->dram_row_hits, 1);
        memsys_destroy(s->m);
    }
}

/* A write-back, write-allocate L1 (not Fermi's policy): a store stays in
 * L1 (done after l1.hit_lat, nothing sent), a load of it hits, and the
 * dirty line goes to L2 only when evicted: four more lines of its set
 * (32 sets: every 4 KiB) push it out. */
static void write_back_l1(void **state)
{
    (void)state;
    Config c = fermi();
    set(&c, "l1.write_policy=write_back");
    set(&c, "l1.alloc_on_write=true");
    Sim *s = sim_new(&c);
    MemAccess a = st(G), b = ld(G);
    uint64_t done;
    assert_int_equal(memsys_access(s->m, 0, 0, 1, &a, 0, &done), MEM_OK);
    assert_int_equal(done, 50);
    advance(s, 1);
    assert_int_equal(memsys_access(s->m, 0, 0, 2, &b, 1, &done), MEM_OK);
    assert_int_equal(done, 51);
    assert_int_equal(memsys_stats(s->m)->icnt_req_packets, 0);
    for (int i = 1; i <= 4; i++) {
        MemAccess e = ld(G + (uint64_t)i * 4096);
        advance(s, s->now + 1);
        issue(s, 0, i, (uint32_t)(10 + i), &e, 0, &done);
    }
    drain(s);
    const MemStats *st = memsys_stats(s->m);
    assert_int_equal(st->l1_evictions, 1);
    assert_int_equal(st->l2_sectors_write, 4);           /* the write-back of the dirty line */
    memsys_flush(s->m);
    assert_int_equal(st->dram_bytes_write, 128);
    memsys_destroy(s->m);
}

/* A crossbar for the hand-worked cases: 32-byte flits, lookahead 1. */
static Icnt *hand_icnt(int nsrc, int ndst, int queue_flits, int latency, int src_slots, int dst_slots)
{
    IcntParams p = { .nsrc = nsrc, .ndst = ndst, .flit_bytes = 32, .queue_flits = queue_flits, .latency = latency,
                     .src_slots = src_slots, .dst_slots = dst_slots, .lookahead = 1 };
    Icnt *n = icnt_create(&p);
    assert_non_null(n);
    return n;
}

/* Crossbar back-pressure: a v4 store (16 bytes per lane, 512 bytes, 4
 * lines of 4 flits) fills the SM's 8-flit port beyond its depth, which an
 * empty port accepts.  The port sends one flit per cycle from cycle 1, so
 * at cycle 4 it still holds 3 packets (12 flits) and refuses the next
 * 16-flit store; it is empty again at 13, when the last packet starts. */
/* The crossbar visits only ports with packets (bitmaps, icnt.c): the
 * destinations with a packet are found in ascending order across word
 * boundaries, and a port leaves the set when its last packet goes.  Hand
 * case: 132 sources, 100 destinations, latency 3; packets from sources 130
 * and 5 to destinations 70 and 2, ready at 0.  Cycle 0 (first source 0):
 * 5 sends to 2, then 130 to 70; both arrive at 0 + 3 + 1 - 1 = 3. */
static void icnt_visits_busy_ports(void **state)
{
    (void)state;
    Icnt *n = hand_icnt(132, 100, 8, 3, 8, 8);
    assert_int_equal(icnt_next_dst(n, 0), -1);
    assert_int_equal(icnt_next_event(n, 0), UINT64_MAX);
    IcntPacket a = { .ready = 0, .src = 130, .dst = 70, .flits = 1 }, b = { .ready = 0, .src = 5, .dst = 2, .flits = 1 };
    assert_int_equal(icnt_push(n, &a), 0);
    assert_int_equal(icnt_push(n, &b), 0);
    assert_int_equal(icnt_next_event(n, 0), 0);
    icnt_step(n, 0);
    assert_int_equal(icnt_next_event(n, 0), UINT64_MAX);     /* both sources empty */
    assert_int_equal(icnt_next_dst(n, 0), 2);
    assert_int_equal(icnt_next_dst(n, 3), 70);
    assert_int_equal(icnt_next_dst(n, 71), -1);
    assert_int_equal(icnt_head(n, 2)->arrive, 3);
    assert_int_equal(icnt_head(n, 70)->arrive, 3);
    icnt_pop(n, 2);
    assert_int_equal(icnt_next_dst(n, 0), 70);
    icnt_pop(n, 70);
    assert_int_equal(icnt_next_dst(n, 0), -1);
    assert_int_equal(icnt_busy(n), 0);
    /* next event with a floor: packets from 7 (ready 9) and 8 (ready 4);
     * exact 4; a floor of 9 stops at source 7's 9, one of 3 finds 4 */
    IcntPacket c = { .ready = 9, .src = 7, .dst = 1, .flits = 1 }, e = { .ready = 4, .src = 8, .dst = 3, .flits = 1 };
    assert_int_equal(icnt_push(n, &c), 0);
    assert_int_equal(icnt_push(n, &e), 0);
    assert_int_equal(icnt_next_event(n, 0), 4);
    assert_int_equal(icnt_next_event(n, 3), 4);
    assert_int_equal(icnt_next_event(n, 9), 9);
    icnt_destroy(n);
}

/* The crossbar's queues are rings over power-of-two arrays (icnt.c),
 * starting on a host line so that each 32-byte packet lies in one, whose
 * room stays the configured count: a source queue of 5 one-flit packets
 * and a destination buffer of 6 each hold that many at once, and every
 * packet comes out in the order it went in over three fillings (30
 * packets, so both rings wrap).  Hand case: one source, one destination,
 * latency 2; nothing is popped until the destination holds 6 and the
 * source 5 again, then everything is drained. */
static void icnt_rings_hold_their_room(void **state)
{
    (void)state;
    Icnt *n = hand_icnt(1, 1, 5, 2, 5, 6);
    uint64_t t = 0, pushed = 0, popped = 0;
    for (int round = 0; round < 3; round++) {
        for (int fill = 0; fill < 2; fill++) {
            for (;;) {
                IcntPacket a = { .addr = pushed, .ready = t, .src = 0, .dst = 0, .flits = 1 };
                if (icnt_push(n, &a)) break;
                pushed++;
            }
            assert_int_equal(icnt_src_flits(n, 0), 5);   /* the source holds its 5 */
            for (int k = 0; k < 8; k++) icnt_step(n, t++);
        }
        int held = 0;                                    /* 6 arrived, 4 wait at the source */
        for (const IcntPacket *h = icnt_head(n, 0); h && h->arrive <= t; h = icnt_head(n, 0)) {
            assert_int_equal((uintptr_t)h % 32, 0);      /* a packet within one host line */
            assert_int_equal(h->addr, popped);
            popped++;
            held++;
            icnt_pop(n, 0);
        }
        assert_int_equal(held, 6);
        while (icnt_busy(n)) {
            icnt_step(n, t++);
            const IcntPacket *h = icnt_head(n, 0);
            if (h && h->arrive <= t) {
                assert_int_equal(h->addr, popped);
                popped++;
                icnt_pop(n, 0);
            }
        }
    }
    assert_int_equal(pushed, 30);
    assert_int_equal(popped, 30);
    icnt_destroy(n);
}

/* Deferred pops (the memory partitions on several threads): a pop leaves
 * its destination's busy bit as it was, so another thread's pop cannot
 * race on the word, and icnt_sync_dst clears it once the queue is empty.
 * Hand case: one packet from source 0 to destination 1, latency 1, sent at
 * cycle 0; popped with pops deferred, destination 1 is still listed (at
 * worst a look at an empty queue) until synced. */
static void icnt_deferred_pop(void **state)
{
    (void)state;
    Icnt *n = hand_icnt(1, 2, 8, 1, 8, 8);
    IcntPacket a = { .addr = 7, .ready = 0, .src = 0, .dst = 1, .flits = 1 };
    assert_int_equal(icnt_push(n, &a), 0);
    icnt_step(n, 0);
    assert_int_equal(icnt_next_dst(n, 0), 1);
    assert_int_equal(icnt_head(n, 1)->arrive, 1);
    icnt_set_deferred_pop(n, 1);
    icnt_pop(n, 1);
    assert_null(icnt_head(n, 1));
    assert_int_equal(icnt_next_dst(n, 0), 1);
    icnt_sync_dst(n, 1);
    assert_int_equal(icnt_next_dst(n, 0), -1);
    icnt_set_deferred_pop(n, 0);
    icnt_destroy(n);
}

/* icnt_src_need: how many packets must leave a source before an access
 * fits, at least.  Hand case: queue_flits 10, src_slots 12, a source
 * holding 1-flit packets A, B, C, a 3-flit D and a 1-flit E (7 flits, 5
 * packets).  4 flits in 1 packet: 1 flit too many, and D may be the one to
 * leave: 1.  6 flits: 3 too many, D alone frees them: 1.  8 flits: 5 too
 * many, D and one more: ceil(5 / 3) = 2.  2 flits in 8 packets: 1 slot
 * short (5 + 8 > 12): 1.  11 flits (more than the queue): only an empty
 * queue takes it: all 5.  3 flits: it fits: 0.  Once A, B, C and D have
 * left (lookahead 1: in order), only E is queued, 1 flit: 8 more fit, 0.
 * With F (3 flits) pushed behind E: 4 flits queued, 8 more is 2 too many
 * and F alone frees 3: 1; 11 flits need the queue empty, E and F: 2. */
static void icnt_src_need_counts(void **state)
{
    (void)state;
    Icnt *n = hand_icnt(1, 1, 10, 1, 12, 16);
    const uint16_t fl[] = { 1, 1, 1, 3, 1 };
    for (int i = 0; i < 5; i++) {
        IcntPacket a = { .addr = (uint64_t)i, .ready = 0, .src = 0, .dst = 0, .flits = fl[i] };
        assert_int_equal(icnt_push(n, &a), 0);
    }
    assert_int_equal(icnt_src_flits(n, 0), 7);
    assert_int_equal(icnt_src_need(n, 0, 3, 1), 0);
    assert_int_equal(icnt_src_need(n, 0, 4, 1), 1);
    assert_int_equal(icnt_src_need(n, 0, 6, 1), 1);
    assert_int_equal(icnt_src_need(n, 0, 8, 1), 2);
    assert_int_equal(icnt_src_need(n, 0, 2, 8), 1);
    assert_int_equal(icnt_src_need(n, 0, 11, 1), 5);
    uint64_t t = 0;
    while (icnt_src_sent(n, 0) < 4) icnt_step(n, t++);   /* A, B, C, D leave */
    assert_int_equal(icnt_src_flits(n, 0), 1);
    assert_int_equal(icnt_src_need(n, 0, 8, 1), 0);
    IcntPacket f = { .addr = 5, .ready = 0, .src = 0, .dst = 0, .flits = 3 };
    assert_int_equal(icnt_push(n, &f), 0);
    assert_int_equal(icnt_src_need(n, 0, 8, 1), 1);
    assert_int_equal(icnt_src_need(n, 0, 11, 1), 2);
    icnt_destroy(n);
}

/* With 16 or more sources queued, a step first marks the destinations that
 * can take a packet and passes over a source whose window (its lookahead)
 * goes only elsewhere (icnt.c, ICNT_GLANCE_SOURCES).  Hand case: 20
 * sources, 5 destinations, lookahead 2, one-flit packets ready at 0:
 * source i sends one to destination i % 4, and source 9 a second one to
 * destination 4.  Cycle 0 (first source 0): sources 0-3 take destinations
 * 0-3 (busy until 1); 9's head waits for destination 1 but its second
 * packet goes to 4; the other 15 are passed over.  Each of the 16 sources
 * whose ready head could not go counts as blocked.  Cycle 1 (first 1): the
 * 16 sources 4-19 are queued, destinations 0-3 free again: 4-7 send, the
 * other 12 are blocked.  9 packets, 28 blocked. */
static void icnt_glance_many_sources(void **state)
{
    (void)state;
    IcntParams p = { .nsrc = 20, .ndst = 5, .flit_bytes = 32, .queue_flits = 8, .latency = 1,
                     .src_slots = 8, .dst_slots = 8, .lookahead = 2 };
    Icnt *n = icnt_create(&p);
    assert_non_null(n);
    for (int i = 0; i < 20; i++) {
        IcntPacket a = { .ready = 0, .src = (int16_t)i, .dst = (int16_t)(i % 4), .flits = 1, .aux = (uint16_t)i };
        assert_int_equal(icnt_push(n, &a), 0);
    }
    IcntPacket b = { .ready = 0, .src = 9, .dst = 4, .flits = 1, .aux = 99 };
    assert_int_equal(icnt_push(n, &b), 0);
    icnt_step(n, 0);
    assert_int_equal(icnt_stats(n)->packets, 5);
    assert_int_equal(icnt_stats(n)->blocked, 16);
    assert_int_equal(icnt_head(n, 4)->aux, 99);             /* source 9's second packet */
    assert_int_equal(icnt_head(n, 1)->aux, 1);
    icnt_step(n, 1);
    assert_int_equal(icnt_stats(n)->packets, 9);
    assert_int_equal(icnt_stats(n)->blocked, 28);
    for (int d = 0; d < 4; d++) {                            /* in arrival order: i, then i + 4 */
        assert_int_equal(icnt_head(n, d)->aux, d);
        icnt_pop(n, d);
        assert_int_equal(icnt_head(n, d)->aux, d + 4);
    }
    /* what is left: sources 8-19, source 9's head (to 1) among them */
    assert_int_equal(icnt_src_flits(n, 9), 1);
    assert_int_equal(icnt_src_flits(n, 4), 0);
    icnt_destroy(n);
}

static void retry_icnt_full(void **state)
{
    (void)state;
    Config c = fermi();
    Sim *s = sim_new(&c);
    MemAccess a = warp(SP_GLOBAL, G, 16, 16), b = warp(SP_GLOBAL, G + 4096, 16, 16);
    a.is_store = b.is_store = 1;
    uint64_t done;
    assert_int_equal(memsys_access(s->m, 0, 0, 1, &a, 0, &done), MEM_PENDING);
    advance(s, 4);
    assert_int_equal(memsys_access(s->m, 0, 1, 2, &b, 4, &done), MEM_RETRY);
    assert_int_equal(memsys_stats(s->m)->retry_icnt, 1);
    assert_int_equal(issue(s, 0, 1, 2, &b, 0, &done), MEM_PENDING);
    assert_int_equal(s->now, 13);
    drain(s);
    assert_int_equal(memsys_stats(s->m)->icnt_req_flits, 32);
    memsys_destroy(s->m);
}

/* zalloc (sim/base/zalloc.h), which the memory system's tables come from:
 * small arrays (calloc) and large ones (fresh mappings, except under the
 * sanitizers) are zero, writable to their last byte and 16-byte aligned,
 * again after others were freed; a size that overflows is refused. */
static void zalloc_zeroed(void **state)
{
    (void)state;
    const size_t sizes[] = { 1, 100, 4096, 16 * 1024, 1 << 20, 3 << 20 };
    for (int round = 0; round < 2; round++)
        for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
            unsigned char *p = zalloc(sizes[i], 1);
            assert_non_null(p);
            assert_int_equal((uintptr_t)p % 16, 0);
            for (size_t k = 0; k < sizes[i]; k += 509) assert_int_equal(p[k], 0);
            assert_int_equal(p[sizes[i] - 1], 0);
            memset(p, 0xa5, sizes[i]);
            zfree(p);
        }
    uint64_t *q = zalloc(1000, sizeof *q);
    assert_non_null(q);
    for (int k = 0; k < 1000; k++) assert_int_equal(q[k], 0);
    zfree(q);
    assert_null(zalloc(SIZE_MAX / 2, 4));
    zfree(NULL);
}

/* Under the sanitizers an access just outside a zalloc'd array, mapped
 * or calloc'd, before it or after it, is reported (the child process
 * doing it does not finish); inside, it is not.  The first pass has no
 * sanitizer to report it: there the test only checks the accesses inside. */
static int child_writes(size_t n, long at)
{
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        int null = open("/dev/null", O_WRONLY);   /* the sanitizer's report is expected: not shown */
        if (null >= 0) dup2(null, 2);
        signal(SIGSEGV, SIG_DFL);                 /* the guard page ends the child, not CMocka's handler */
        signal(SIGBUS, SIG_DFL);
        volatile char *p = zalloc(n, 1);
        p[at] = 1;
        zfree((void *)p);
        _exit(0);
    }
    int st = 0;
    waitpid(pid, &st, 0);
    return WIFEXITED(st) && WEXITSTATUS(st) == 0;     /* 1: finished, nothing reported */
}

static void zalloc_bounds_checked(void **state)
{
    (void)state;
    const size_t sizes[] = { 100, 100000, 100003 };
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        assert_true(child_writes(sizes[i], 0));
        assert_true(child_writes(sizes[i], (long)sizes[i] - 1));
        if (!SANITIZED) continue;
        assert_false(child_writes(sizes[i], (long)sizes[i]));
        assert_false(child_writes(sizes[i], -1));
        assert_false(child_writes(sizes[i], (long)sizes[i] + 64));
    }
}

/* Records, one per warp access in flight: 16 per resident warp
 * (RECS_PER_WARP), so with sm.max_warps = 1 an SM holds 16 accesses.  On
 * fermi.ini 16 loads of different lines from SM 0 are taken (each an L1
 * miss; a DRAM read is hundreds of cycles away); 20 cycles later, the
 * crossbar port drained and the tag stage free, a 17th is refused for
 * want of a record, while SM 1, whose records are its own, is taken.
 * Once everything is back, SM 0 holds none and takes the 17th.  (Records
 * come from a free list, then the never used ones in index order.) */
static void records_run_out(void **state)
{
    (void)state;
    Config c = fermi();
    set(&c, "sm.max_warps=1");
    Sim *s = sim_new(&c);
    uint64_t done;
    MemSmCounters k;
    for (uint32_t i = 0; i < 16; i++) {
        MemAccess a = ld(G + 128 * (uint64_t)i);
        assert_int_equal(issue(s, 0, 0, i, &a, 0, &done), MEM_PENDING);
        memsys_sm_counters(s->m, 0, &k);
        assert_int_equal(k.in_flight, (int)i + 1);
    }
    advance(s, s->now + 20);
    MemAccess a = ld(G + 128 * 16), b = ld(G + 128 * 40);
    assert_int_equal(memsys_stats(s->m)->retry_records, 0);
    assert_int_equal(memsys_access_ex(s->m, 0, 0, 16, &a, 0, s->now, &done), MEM_RETRY);
    assert_int_equal(memsys_stats(s->m)->retry_records, 1);
    assert_int_equal(memsys_access_ex(s->m, 1, 0, 17, &b, 0, s->now, &done), MEM_PENDING);
    memsys_sm_counters(s->m, 1, &k);
    assert_int_equal(k.in_flight, 1);
    drain(s);
    memsys_sm_counters(s->m, 0, &k);
    assert_int_equal(k.in_flight, 0);
    assert_int_equal(issue(s, 0, 0, 16, &a, 0, &done), MEM_PENDING);
    memsys_sm_counters(s->m, 0, &k);
    assert_int_equal(k.in_flight, 1);
    drain(s);
    assert_int_equal(s->n, 18);              /* every access completed once */
    memsys_destroy(s->m);
}

/* The SM side's way of offering a refused access (sm.c): after a refusal
 * it asks memsys_retry_sleep whether to sleep, and offers again when
 * memsys_woken names it (checked each cycle after memsys_tick, as gpu.c's
 * deliver does) or at the timed wake; returns the cycle it was taken. */
static uint64_t offer_sleeping(Sim *s, int sm, int slot, uint32_t tag, const MemAccess *a, unsigned flags)
{
    uint64_t done;
    for (;;) {
        if (memsys_access_ex(s->m, sm, slot, tag, a, flags, s->now, &done) != MEM_RETRY) return s->now;
        uint64_t when = s->now + 1;
        if (!memsys_retry_sleep(s->m, sm, s->now, &when)) when = s->now + 1;
        for (int woken = 0; !woken;) {
            advance(s, s->now + 1);
            int w[64], n = memsys_woken(s->m, w);
            for (int i = 0; i < n; i++) woken |= w[i] == sm;
            woken |= s->now >= when;
        }
    }
}

/* A sleeping SM wakes when its access can have become acceptable: enough
 * packets have left its crossbar port (icnt_src_need), or, if its dry run
 * read the L1, a fill changed the L1.  Hand case on fermi.ini with a
 * write-back, write-allocate L1 (set 0's 4 ways take lines 4 KiB apart):
 * at 0 a load of P misses (its fill comes at 306, as in load_latencies);
 * at 1-3 stores to D1-D3 allocate them dirty, with no packets; at 290 an
 * atomic on 8 other lines, 4 sectors each, fills the port (an empty port
 * takes any one access: 8 packets of 4 flits; the tag stage is busy until
 * 298), which sends one every 4 cycles.  At 298 a load of X, in set 0
 * too, would take D1's way (P is pending): 2 packets of 5 flits (the miss,
 * and D1's 4 sectors written back), which fit once at most 3 of the port's
 * 24 flits are left: 6 departures away, at 299, 303, ..., 319.  At 306 P's
 * fill makes P, older than D1 and clean, the way to take: 1 packet of 1
 * flit, which fits once at most 7 are queued: after the fifth departure,
 * 315.  Offering every cycle and sleeping both take it at 315, with a
 * refusal counted for each of the 17 cycles 298-314; sleeping through the
 * fill until the sixth departure would take it at 319. */
static void retry_wakes_when_room_or_l1(void **state)
{
    (void)state;
    for (int sleeping = 0; sleeping < 2; sleeping++) {
        Config c = fermi();
        set(&c, "l1.write_policy=write_back");
        set(&c, "l1.alloc_on_write=true");
        Sim *s = sim_new(&c);
        uint64_t done;
        MemAccess p = ld(G), x = ld(G + 4 * 4096), burst = warp(SP_GLOBAL, G + (1u << 20), 32, 4);
        burst.is_atomic = 1;
        assert_int_equal(memsys_access(s->m, 0, 0, 1, &p, 0, &done), MEM_PENDING);
        for (int i = 1; i <= 3; i++) {
            advance(s, (uint64_t)i);
            MemAccess d = st(G + (uint64_t)i * 4096);
            assert_int_equal(memsys_access(s->m, 0, i, (uint32_t)(1 + i), &d, s->now, &done), MEM_OK);
        }
        advance(s, 290);
        assert_int_equal(memsys_access(s->m, 0, 4, 5, &burst, 290, &done), MEM_PENDING);
        advance(s, 298);
        uint64_t taken;
        if (sleeping) taken = offer_sleeping(s, 0, 5, 6, &x, 0);
        else {
            issue(s, 0, 5, 6, &x, 0, &done);
            taken = s->now;
        }
        assert_int_equal(taken, 315);
        assert_int_equal(memsys_stats(s->m)->retry_icnt, 17);
        assert_int_equal(memsys_stats(s->m)->retry_l1_busy, 0);
        drain(s);
        memsys_destroy(s->m);
    }
}

/* ---- atomics and local memory ------------------------------------------------------- */

/* Atomics on a line already in L2, issued at T; the request carries the
 * operands of the sectors it touches, the reply their results.  32 lanes on
 * one address: 1 sector, 1 flit each way; the atomic unit serialises the
 * lanes, 32 cycles: request arrives T + 9, L2 at T + 249, reply leaves
 * T + 281, arrives T + 289, data T + 339.  32 lanes on the 32 words of the
 * line: 4 flits each way, 1 cycle: arrives T + 1 + 8 + 3 = T + 12, L2 at
 * T + 252, reply leaves T + 253, arrives T + 264, data T + 314. */
static void atomics_at_l2(void **state)
{
    (void)state;
    Config c = fermi();
    Sim *s = sim_new(&c);
    MemAccess warm = ld(G), same = warp(SP_GLOBAL, G, 0, 4), spread = warp(SP_GLOBAL, G, 4, 4);
    same.is_atomic = spread.is_atomic = 1;
    uint64_t done;
    memsys_access(s->m, 0, 0, 1, &warm, 0, &done);
    drain(s);
    advance(s, 1000);
    assert_int_equal(memsys_access(s->m, 0, 0, 2, &same, 1000, &done), MEM_PENDING);
    drain(s);
    assert_int_equal(done_at(s, 2), 1339);
    advance(s, 2000);
    assert_int_equal(memsys_access(s->m, 0, 0, 3, &spread, 2000, &done), MEM_PENDING);
    drain(s);
    assert_int_equal(done_at(s, 3), 2314);
    const MemStats *st = memsys_stats(s->m);
    assert_int_equal(st->atom_requests, 2);
    assert_int_equal(st->atom_sectors, 1 + 4);
    assert_int_equal(st->atom_lane_ops, 64);
    assert_int_equal(st->atom_l2_cycles, 32 + 1);
    assert_int_equal(st->l2_sectors_atom, 5);
    assert_int_equal(st->l1_requests_ld, 1);             /* atomics are not loads */
    /* on a line not in L2: fetched from DRAM (1 sector, 1 burst), then done */
    MemAccess cold = warp(SP_GLOBAL, G + 4096, 0, 4);
    cold.is_atomic = 1;
    advance(s, 3000);
    assert_int_equal(memsys_access(s->m, 0, 0, 4, &cold, 3000, &done), MEM_PENDING);
    drain(s);
    assert_true(done_at(s, 4) > 3339);
    st = memsys_stats(s->m);                             /* the DRAM's counters as of now */
    assert_int_equal(st->dram_bytes_read, 128 + 64);
    /* atomics leave their sectors dirty in L2: line G all 4 (2 bursts),
     * the cold line sector 0 (1 burst) */
    memsys_flush(s->m);
    assert_int_equal(memsys_stats(s->m)->dram_flush_bytes, 128 + 64);
    memsys_destroy(s->m);
}

/* Local memory is interleaved by 32-bit word across threads: a warp reading
 * one 4-byte local variable is one coalesced 128-byte line (4 sectors); an
 * 8-byte variable is two words per thread: 2 lines, 8 sectors.  Loads of
 * it then hit in L1. */
static void local_memory_coalesces(void **state)
{
    (void)state;
    Config c = fermi();
    Sim *s = sim_new(&c);
    MemAccess a = warp(SP_LOCAL, 16, 0, 4), b = warp(SP_LOCAL, 8, 0, 8);
    uint64_t done;
    assert_int_equal(memsys_access(s->m, 0, 3, 1, &a, 0, &done), MEM_PENDING);
    drain(s);
    advance(s, s->now + 1);
    assert_int_equal(memsys_access(s->m, 0, 3, 2, &b, s->now, &done), MEM_PENDING);
    drain(s);
    advance(s, s->now + 1);
    uint64_t t = s->now;
    assert_int_equal(memsys_access(s->m, 0, 3, 3, &a, t, &done), MEM_OK);
    assert_int_equal(done, t + 50);
    const MemStats *st = memsys_stats(s->m);
    assert_int_equal(st->local_requests_ld, 3);
    assert_int_equal(st->local_sectors_ld, 4 + 8 + 4);
    assert_int_equal(st->l1_sectors_ld, 16);             /* global + local */
    assert_int_equal(st->l1_sector_hits, 4);
    /* another warp slot's copy of the variable is elsewhere: a miss */
    assert_int_equal(memsys_access(s->m, 0, 4, 4, &a, t + 1, &done), MEM_PENDING);
    drain(s);
    memsys_destroy(s->m);
}

/* Register spills: local stores stay in L1 (write-back with allocation,
 * although fermi.ini's L1 is write-through without allocation for global
 * stores), so the store is done after l1.hit_lat and the reload hits.  The
 * dirty line reaches L2 when 200 other lines push it out of the 128-line
 * L1; memsys_flush then counts it (and nothing else dirty) as a DRAM write. */
static void local_spills_stay_in_l1(void **state)
{
    (void)state;
    Config c = fermi();
    Sim *s = sim_new(&c);
    MemAccess spill = warp(SP_LOCAL, 32, 0, 4), reload = spill;
    spill.is_store = 1;
    uint64_t done;
    assert_int_equal(memsys_access(s->m, 0, 5, 1, &spill, 0, &done), MEM_OK);
    assert_int_equal(done, 50);
    advance(s, 1);
    assert_int_equal(memsys_access(s->m, 0, 5, 2, &reload, 1, &done), MEM_OK);
    assert_int_equal(done, 51);
    const MemStats *st = memsys_stats(s->m);
    assert_int_equal(st->local_requests_st, 1);
    assert_int_equal(st->local_sectors_st, 4);
    assert_int_equal(st->icnt_req_packets, 0);           /* nothing left the SM */
    for (int i = 0; i < 200; i++) {
        MemAccess a = ld(G + (uint64_t)i * 128);
        advance(s, s->now + 1);
        issue(s, 0, i % 48, (uint32_t)(10 + i), &a, 0, &done);
    }
    drain(s);
    assert_true(st->l1_evictions >= 72);                 /* 1 + 200 lines through 128 ways */
    assert_int_equal(st->l2_sectors_write, 4);           /* the spilled line, written back */
    memsys_flush(s->m);
    assert_int_equal(st->dram_bytes_write, 128);
    /* a second flush finds nothing dirty */
    memsys_flush(s->m);
    assert_int_equal(st->dram_bytes_write, 128);
    memsys_destroy(s->m);
}

/* ---- bandwidth and determinism ------------------------------------------------------ */

/* All 15 SMs stream one sequential region (line i read by SM i % 15),
 * each issuing as fast as its L1 takes requests; with store_every k > 0
 * every k-th line (i % k == 0) is written instead. */
static uint64_t stream_mix(Sim *s, int lines, int store_every)
{
    uint64_t done;
    int next[15] = { 0 };
    int left = lines;
    uint32_t tag = 0;
    while (left) {
        for (int sm = 0; sm < 15; sm++) {
            int i = next[sm] * 15 + sm;
            if (i >= lines) continue;
            MemAccess a = store_every && i % store_every == 0 ? st(G + (uint64_t)i * 128) : ld(G + (uint64_t)i * 128);
            if (memsys_access(s->m, sm, next[sm] % 48, tag, &a, s->now, &done) != MEM_RETRY) {
                tag++;
                next[sm]++;
                left--;
            }
        }
        advance(s, s->now + 1);
    }
    drain(s);
    return s->now;
}

static uint64_t stream_all(Sim *s, int lines) { return stream_mix(s, lines, 0); }

static void streaming_bandwidth(void **state)
{
    (void)state;
    Config c = fermi();
    Sim *s = sim_new(&c);
    int lines = 8192;
    uint64_t end = stream_all(s, lines);
    const MemStats *st = memsys_stats(s->m);
    assert_int_equal(st->dram_bytes_read, (uint64_t)lines * 128);
    double achieved = (double)lines * 128 / (double)end / memsys_peak_bytes_per_cycle(&c);
    double busy = (double)st->dram_busy_cycles / (double)st->dram_cycles;
    printf("1 MiB stream on 15 SMs: %llu cycles, %.1f%% of peak %.1f GB/s (DRAM bus busy %.1f%%), "
           "row hits %llu misses %llu conflicts %llu\n",
           (unsigned long long)end, 100 * achieved, memsys_peak_gbs(&c), 100 * busy,
           (unsigned long long)st->dram_row_hits, (unsigned long long)st->dram_row_misses,
           (unsigned long long)st->dram_row_conflicts);
    assert_true(achieved > 0.5);
    assert_true(busy > 0.5);
    assert_true(st->dram_row_hits > 10 * (st->dram_row_misses + st->dram_row_conflicts));
    memsys_destroy(s->m);
}

/* dram.ctrl_lat: the memory controller and PHY delay each DRAM read's data
 * on its way back to the L2, a pipelined delay line.  Latency: with
 * ctrl_lat 100, load_latencies' DRAM row miss (356) and row hit (337) take
 * exactly 100 cycles more, the L2 hit (311) nothing more.  Bandwidth: the
 * 1 MiB stream of streaming_bandwidth moves the same bursts over the DRAM
 * bus in the same busy clocks and ends about 100 cycles later (within 1%
 * of the stream): the delay is paid once, by the last reads, not once per
 * request.  (The DRAM sees the requests in a slightly different order: the
 * reply port's back-pressure on the L2 comes 100 cycles later.  And it
 * holds only while the MSHRs cover the longer trip, Little's law: fermi.ini
 * has enough for 100 cycles.) */
static void controller_delay(void **state)
{
    (void)state;
    Config c = fermi();
    set(&c, "dram.ctrl_lat=100");
    Sim *s = sim_new(&c);
    MemAccess a = ld(G), b = ld(G + 128);
    uint64_t done;
    assert_int_equal(memsys_access(s->m, 0, 0, 1, &a, 0, &done), MEM_PENDING);
    drain(s);
    assert_int_equal(done_at(s, 1), 356 + 100);
    advance(s, 1000);
    assert_int_equal(memsys_access(s->m, 1, 0, 2, &a, 1000, &done), MEM_PENDING);
    drain(s);
    assert_int_equal(done_at(s, 2), 1311);
    advance(s, 2000);
    assert_int_equal(memsys_access(s->m, 2, 0, 3, &b, 2000, &done), MEM_PENDING);
    drain(s);
    assert_int_equal(done_at(s, 3), 2337 + 100);
    memsys_destroy(s->m);

    MemStats st[2];
    uint64_t end[2];
    for (int run = 0; run < 2; run++) {
        Config k = fermi();
        k.dram.ctrl_lat = run ? 100 : 0;
        s = sim_new(&k);
        end[run] = stream_all(s, 8192);
        st[run] = *memsys_stats(s->m);
        memsys_destroy(s->m);
    }
    printf("1 MiB stream on 15 SMs: %llu cycles with dram.ctrl_lat 0, %llu with 100 "
           "(DRAM bus busy %llu DRAM clocks in both)\n",
           (unsigned long long)end[0], (unsigned long long)end[1], (unsigned long long)st[1].dram_busy_cycles);
    assert_int_equal(st[1].dram_bytes_read, st[0].dram_bytes_read);
    assert_int_equal(st[1].dram_reads, st[0].dram_reads);
    assert_int_equal(st[1].dram_busy_cycles, st[0].dram_busy_cycles);
    assert_true(end[1] >= end[0] + 100 - end[0] / 100 && end[1] <= end[0] + 100 + end[0] / 100);
}

static void deterministic(void **state)
{
    (void)state;
    Config c = fermi();
    MemStats first;
    uint64_t end0 = 0;
    static uint64_t at0[8192];
    for (int run = 0; run < 2; run++) {
        Sim *s = sim_new(&c);
        uint64_t end = stream_all(s, 2048);
        if (run == 0) {
            first = *memsys_stats(s->m);
            end0 = end;
            memcpy(at0, s->at, sizeof at0);
        } else {
            assert_int_equal(end, end0);
            assert_memory_equal(&first, memsys_stats(s->m), sizeof first);
            assert_memory_equal(at0, s->at, sizeof at0);
        }
        memsys_destroy(s->m);
    }
}

/* ---- partition lanes (memsys_set_lanes) ------------------------------------------------ */

/* Runners for the lanes' part of a step: in lane order, and backwards
 * (as threads may finish in any order); both count their calls. */
static void lanes_forward(void *ctx, int n, MemLaneFn fn, void *arg)
{
    for (int i = 0; i < n; i++) fn(arg, i);
    (*(int *)ctx)++;
}

static void lanes_backward(void *ctx, int n, MemLaneFn fn, void *arg)
{
    for (int i = n - 1; i >= 0; i--) fn(arg, i);
    (*(int *)ctx)++;
}

/* The lanes' part of a step touches only its partitions, and what it
 * would share waits for the merge: any number of lanes, run in any order,
 * gives the one-lane result.  load_latencies' and write_back_stores'
 * hand-worked cases keep their cycles (L2 hit 311, DRAM row miss 356 and
 * 456 with a 100-cycle controller delay, row hit 337, a lone store 260)
 * on six lanes run backwards; and mixed traffic on 12 slices (two per
 * channel, so a lane's slices are not contiguous: slices 0, 1, 6, 7 in
 * lane 0 of three) completes every access on the same cycle, in the same
 * order, with the same counters, on 1, 2, 3, 6 and (asked for 7) 6 lanes,
 * with and without the delay line. */
static void partition_lanes(void **state)
{
    (void)state;
    int calls = 0;
    for (int delay = 0; delay <= 100; delay += 100) {
        Config c = fermi();
        c.dram.ctrl_lat = delay;
        Sim *s = sim_new(&c);
        memsys_set_lanes(s->m, 6, lanes_backward, &calls);
        assert_int_equal(memsys_lanes(s->m), 6);
        MemAccess a = ld(G), b = ld(G + 128), w = st(G + 4096);
        /* SM k offers access k + 1 at `at`: done at `done`, plus the delay line's if it reads DRAM */
        const struct { const MemAccess *acc; uint64_t at, done; int dram; } step[] = {
            { &a, 0, 356, 1 }, { &a, 1000, 1311, 0 }, { &b, 2000, 2337, 1 }, { &w, 3000, 3260, 0 },
        };
        for (int k = 0; k < 4; k++) {
            uint64_t done = 0;
            advance(s, step[k].at);
            assert_int_equal(memsys_access(s->m, k, 0, (uint32_t)(k + 1), step[k].acc, step[k].at, &done), MEM_PENDING);
            drain(s);
            assert_int_equal(done_at(s, (uint32_t)(k + 1)), step[k].done + (step[k].dram ? (uint64_t)delay : 0));
        }
        memsys_destroy(s->m);
    }
    assert_true(calls > 0);

    static MemDone done0[8192];
    static uint64_t at0[8192];
    for (int delay = 0; delay <= 100; delay += 100) {
        MemStats first;
        uint64_t end0 = 0;
        int n0 = 0;
        const int lanes[] = { 1, 2, 3, 6, 7 };
        for (int run = 0; run < 5; run++) {
            Config c = fermi();
            set(&c, "l2.slices=12");
            c.dram.ctrl_lat = delay;
            Sim *s = sim_new(&c);
            calls = 0;
            memsys_set_lanes(s->m, lanes[run], run % 2 ? lanes_forward : lanes_backward, &calls);
            assert_int_equal(memsys_lanes(s->m), lanes[run] < 6 ? lanes[run] : 6);
            uint64_t end = stream_mix(s, 3000, 3);   /* every partition reads and writes at once */
            assert_true(lanes[run] == 1 ? calls == 0 : calls > 1000);
            const MemStats *st = memsys_stats(s->m);
            if (run == 0) {
                first = *st;
                end0 = end;
                n0 = s->n;
                memcpy(done0, s->done, sizeof done0);
                memcpy(at0, s->at, sizeof at0);
                assert_int_equal(s->n, 3000);
                assert_int_equal(st->l1_requests_st, 1000);
                assert_int_equal(st->l2_sectors_write, 4000);
                assert_int_equal(st->l2_sectors_read, 8000);
                assert_int_equal(st->dram_bytes_read, 2000 * 128);
            } else {
                assert_int_equal(end, end0);
                assert_int_equal(s->n, n0);
                assert_memory_equal(done0, s->done, sizeof done0);
                assert_memory_equal(at0, s->at, sizeof at0);
                assert_memory_equal(&first, st, sizeof first);
            }
            memsys_destroy(s->m);
        }
        printf("3000 loads and stores over 12 slices, dram.ctrl_lat %d: %llu cycles on 1, 2, 3 and 6 lanes\n",
               delay, (unsigned long long)end0);
    }
}

static void peak_and_support(void **state)
{
    (void)state;
    Config c = fermi();
    /* seed 001: 924 MHz x 4 = 3696 MT/s; x 384 bits / 8 = 177.408 GB/s */
    assert_true(memsys_peak_gbs(&c) > 177.407 && memsys_peak_gbs(&c) < 177.409);
    assert_true(memsys_peak_bytes_per_cycle(&c) > 126.62 && memsys_peak_bytes_per_cycle(&c) < 126.64);
    c.l1.sector_bytes = 64;
    assert_non_null(memsys_unsupported(&c));
    assert_null(memsys_create(&c, 1));
    c = fermi();
    c.dram.interleave_bytes = 384;      /* config.c refuses it too: addresses map by shifts */
    assert_string_equal(memsys_unsupported(&c), "dram.interleave_bytes must be a power of two");
    assert_null(memsys_create(&c, 1));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(load_latencies),
        cmocka_unit_test(completions_beyond_calendar),
        cmocka_unit_test(bypass_l1),
        cmocka_unit_test(hit_rates),
        cmocka_unit_test(streaming_bytes),
        cmocka_unit_test(write_back_stores),
        cmocka_unit_test(partition_hash_writebacks),
        cmocka_unit_test(constant_broadcast),
        cmocka_unit_test(retry_l1_busy_and_mshrs),
        cmocka_unit_test(loads_past_a_full_l1),
        cmocka_unit_test(retry_with_held_lines),
        cmocka_unit_test(retry_icnt_full),
        cmocka_unit_test(records_run_out),
        cmocka_unit_test(zalloc_zeroed),
        cmocka_unit_test(zalloc_bounds_checked),
        cmocka_unit_test(retry_wakes_when_room_or_l1),
        cmocka_unit_test(icnt_visits_busy_ports),
        cmocka_unit_test(icnt_rings_hold_their_room),
        cmocka_unit_test(icnt_glance_many_sources),
        cmocka_unit_test(icnt_src_need_counts),
        cmocka_unit_test(icnt_deferred_pop),
        cmocka_unit_test(l1_merge_limit),
        cmocka_unit_test(l2_merge_limit),
        cmocka_unit_test(write_back_l1),
        cmocka_unit_test(atomics_at_l2),
        cmocka_unit_test(local_memory_coalesces),
        cmocka_unit_test(local_spills_stay_in_l1),
        cmocka_unit_test(streaming_bandwidth),
        cmocka_unit_test(controller_delay),
        cmocka_unit_test(deterministic),
        cmocka_unit_test(partition_lanes),
        cmocka_unit_test(peak_and_support),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
