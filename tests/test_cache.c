/* test_cache.c - the generic set-associative sectored cache (sim/mem/cache.h)
 * on a tiny geometry: 2 sets x 2 ways, 128-byte lines, 32-byte sectors.
 * Set = (addr / 128) % 2, so 0x000, 0x100, 0x200, 0x300 share set 0 and
 * 0x080, 0x180 are in set 1.  Sector masks: bit i = bytes 32i..32i+31. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "sim/mem/cache.h"

enum { A = 0x000, B = 0x100, C = 0x200, D = 0x300, E = 0x080 };
#define FULL 0xFu

static CacheUnit *mk(int write_back, int alloc, int mshrs, int merge)
{
    CacheConfig cfg = { .sets = 2, .ways = 2, .line_bytes = 128, .sector_bytes = 32, .write_back = write_back,
                        .alloc_on_write = alloc, .mshrs = mshrs, .max_merge = merge };
    CacheUnit *c = cache_create(&cfg);
    assert_non_null(c);
    return c;
}

/* A read that, on a miss, is filled at once: the outcome of the lookup. */
static CacheOutcome rd(CacheUnit *c, uint64_t addr, uint32_t want)
{
    CacheResult r;
    CacheOutcome o = cache_read(c, addr, want, 7, &r);
    if (o == CACHE_MISS) {
        CacheWaiter w[8];
        cache_fill(c, addr, r.fetch, w);
    }
    return o;
}

/* A fixed run of reads (some left pending, some merged), fills, writes
 * and touches over 24 lines, line address 0 among them (its stored tag
 * is never the empty marker): every outcome, the victims and the final
 * counters, in one log that two units doing the same must match. */
enum { SCRIPT_LOG = 24 * 6 + 16 };
static void script(CacheUnit *c, uint64_t *log)
{
    int n = 0;
    CacheResult r;
    CacheWaiter w[8];
    for (int i = 0; i < 24; i++) {
        uint64_t addr = (uint64_t)(i * 7 % 24) * 0x80;
        CacheOutcome o = cache_read(c, addr, 1u << (i % 4), (uint32_t)i, &r);
        log[n++] = (uint64_t)o;
        log[n++] = r.evicted ? r.victim_addr : 0xdead;
        if (o == CACHE_MISS && i % 3) log[n++] = (uint64_t)cache_fill(c, addr, r.fetch, w);
        else log[n++] = 0xf111;
        o = cache_write(c, addr + 0x40, 0x4, &r);
        log[n++] = (uint64_t)o | (uint64_t)r.hit << 8 | (uint64_t)r.miss << 16;
        log[n++] = (uint64_t)cache_touch(c, addr ^ 0x800);
        CacheProbe p = cache_probe(c, addr);
        log[n++] = (uint64_t)p.present | (uint64_t)p.valid << 1 | (uint64_t)p.pending << 8 | (uint64_t)p.dirty << 16 |
                   (uint64_t)p.has_mshr << 24;
    }
    const CacheStats *st = cache_stats(c);
    const uint64_t v[] = { st->reads, st->writes, st->read_sector_hits, st->read_sector_misses, st->write_sector_hits,
                           st->write_sector_misses, st->mshr_allocs, st->mshr_merges, st->fills, st->evictions,
                           st->dirty_evictions, st->fail_mshr, st->fail_merge, st->fail_reserved,
                           (uint64_t)cache_mshrs_free(c), (uint64_t)cache_flush(c, NULL, NULL) };
    for (size_t k = 0; k < sizeof v / sizeof v[0]; k++) log[n++] = v[k];
    assert_int_equal(n, SCRIPT_LOG);
}

/* cache_reset: a unit made with room for 64 lines, emptied and given a
 * new geometry in place, unused (a launch's carve-out) or after use (the
 * next launch's), does what a unit made with that geometry does, counters
 * from zero; a geometry it has no room for, or other line, sector or MSHR
 * sizes, are refused and leave it as it was. */
static void reset_as_created(void **state)
{
    (void)state;
    CacheConfig small = { .sets = 2, .ways = 2, .line_bytes = 128, .sector_bytes = 32, .write_back = 1,
                          .alloc_on_write = 1, .mshrs = 4, .max_merge = 2 };
    CacheConfig big = small;
    big.sets = 4;
    big.ways = 16;                      /* 64 lines: the room */
    big.write_back = 0;
    big.set_hash = 1;
    uint64_t want[SCRIPT_LOG], got[SCRIPT_LOG];
    CacheUnit *c = cache_create(&big);
    assert_non_null(c);
    script(c, want);
    assert_int_equal(want[0], CACHE_MISS);                  /* line 0 missed, then... */
    assert_int_equal(want[5] & 1, 1);                       /* ...is present */
    cache_destroy(c);

    c = cache_create_room(&small, 64);
    assert_non_null(c);
    assert_int_equal(cache_reset(c, &big), 0);              /* unused */
    script(c, got);
    assert_memory_equal(got, want, sizeof want);
    assert_int_equal(cache_reset(c, &small), 0);            /* used: emptied */
    assert_int_equal(cache_pristine(c), 1);
    assert_int_equal(cache_stats(c)->reads, 0);
    assert_int_equal(cache_mshrs_free(c), 4);
    assert_int_equal(cache_probe(c, 0).present, 0);
    rd(c, A, FULL);
    assert_int_equal(cache_reset(c, &big), 0);
    script(c, got);
    assert_memory_equal(got, want, sizeof want);

    CacheConfig bad = big;
    bad.ways = 32;                                          /* 128 lines: no room */
    assert_int_equal(cache_reset(c, &bad), -1);
    bad = big;
    bad.mshrs = 8;
    assert_int_equal(cache_reset(c, &bad), -1);
    bad = big;
    bad.line_bytes = 64;
    assert_int_equal(cache_reset(c, &bad), -1);
    assert_int_equal(cache_pristine(c), 0);                 /* refused: as it was */
    assert_int_equal(cache_config(c)->sets, 4);
    assert_int_equal(cache_probe(c, 0).present, 1);
    cache_destroy(c);
    c = cache_create(&small);                               /* no room asked: its own lines */
    assert_non_null(c);
    assert_int_equal(cache_reset(c, &big), -1);
    cache_destroy(c);
}

static void geometry_and_masks(void **state)
{
    (void)state;
    CacheUnit *c = mk(1, 1, 4, 4);
    assert_int_equal(cache_line_addr(c, 0x1ff), 0x180);
    assert_int_equal(cache_sectors(c, 0x100, 4), 0x1);     /* bytes 0..3 of the line */
    assert_int_equal(cache_sectors(c, 0x13c, 8), 0x6);     /* bytes 60..67: sectors 1 (32..63) and 2 (64..95) */
    assert_int_equal(cache_sectors(c, 0x11c, 8), 0x3);     /* bytes 28..35 straddle sectors 0 and 1 */
    assert_int_equal(cache_sectors(c, 0x100, 128), FULL);
    assert_int_equal(cache_mshrs_free(c), 4);
    cache_destroy(c);
    /* unsupported: 64 sectors per line do not fit a uint32_t mask */
    CacheConfig bad = { .sets = 2, .ways = 2, .line_bytes = 256, .sector_bytes = 4, .mshrs = 1, .max_merge = 1 };
    assert_null(cache_create(&bad));
    bad.line_bytes = 128; bad.sector_bytes = 32; bad.sets = 3;   /* sets not a power of two */
    assert_null(cache_create(&bad));
}

/* LRU in set 0, whole-line reads:
 *   A miss, B miss (set full), A hit (A now most recent),
 *   C miss -> evicts B (least recent), B miss -> evicts A,
 *   A miss -> evicts C, C miss -> evicts B.
 * A set-1 line in between changes nothing in set 0.
 * Totals: 1 hit, 6 misses; 6 allocations of which 4 evict.
 * The probes after an eviction look up a line whose remembered place
 * (cache.c's lookup hint) now holds another line: absent, as it must be;
 * cache_present, the lookup without the line's state, says the same. */
static void lru_sequence(void **state)
{
    (void)state;
    CacheUnit *c = mk(1, 1, 4, 4);
    assert_int_equal(rd(c, A, FULL), CACHE_MISS);
    assert_int_equal(rd(c, B, FULL), CACHE_MISS);
    assert_int_equal(rd(c, A, FULL), CACHE_HIT);
    assert_int_equal(rd(c, E, FULL), CACHE_MISS);          /* set 1 */
    assert_int_equal(rd(c, C, FULL), CACHE_MISS);
    assert_false(cache_probe(c, B).present);
    assert_true(cache_probe(c, A).present);
    assert_false(cache_present(c, B));                     /* the lookup alone agrees */
    assert_true(cache_present(c, A));
    assert_true(cache_present(c, C + 0x40));               /* any byte of the line */
    assert_false(cache_present(c, D));
    assert_int_equal(rd(c, B, FULL), CACHE_MISS);
    assert_false(cache_probe(c, A).present);
    assert_int_equal(rd(c, A, FULL), CACHE_MISS);
    assert_false(cache_probe(c, C).present);
    assert_int_equal(rd(c, C, FULL), CACHE_MISS);
    assert_false(cache_probe(c, B).present);
    assert_true(cache_probe(c, E).present);
    const CacheStats *s = cache_stats(c);
    assert_int_equal(s->reads, 8);
    assert_int_equal(s->read_sector_hits, 4);              /* one line hit: 4 sectors */
    assert_int_equal(s->read_sector_misses, 7 * 4);
    assert_int_equal(s->evictions, 4);
    assert_int_equal(s->dirty_evictions, 0);
    cache_destroy(c);
}

/* A present line with some sectors valid: the others miss and only they
 * are fetched; the waiter comes back when its last sector arrives. */
static void sector_miss_in_present_line(void **state)
{
    (void)state;
    CacheUnit *c = mk(1, 1, 4, 4);
    CacheResult r;
    CacheWaiter w[4];
    assert_int_equal(cache_read(c, A, 0x1, 1, &r), CACHE_MISS);
    assert_int_equal(r.fetch, 0x1);
    assert_int_equal(cache_fill(c, A, 0x1, w), 1);
    assert_int_equal(w[0].id, 1);
    assert_int_equal(cache_mshrs_free(c), 4);
    /* sectors 0 and 1: 0 hits, 1 misses and is fetched */
    assert_int_equal(cache_read(c, A, 0x3, 2, &r), CACHE_MISS);
    assert_int_equal(r.hit, 0x1);
    assert_int_equal(r.miss, 0x2);
    assert_int_equal(r.fetch, 0x2);
    assert_false(r.evicted);                              /* the line stays; no allocation */
    CacheProbe p = cache_probe(c, A);
    assert_int_equal(p.valid, 0x1);
    assert_int_equal(p.pending, 0x2);
    assert_true(p.has_mshr);
    assert_int_equal(cache_fill(c, A, 0x2, w), 1);
    assert_int_equal(w[0].id, 2);
    assert_int_equal(w[0].need, 0x3);
    assert_int_equal(cache_read(c, A, 0x3, 3, &r), CACHE_HIT);
    const CacheStats *s = cache_stats(c);
    assert_int_equal(s->read_sector_hits, 1 + 2);
    assert_int_equal(s->read_sector_misses, 1 + 1);
    assert_int_equal(s->mshr_allocs, 2);
    assert_int_equal(s->fills, 2);
    cache_destroy(c);
}

/* Writes A(sector 0), B(sectors 0-1), C(all), A(all) with allocate-on-write
 * in set 0: C evicts A, then A evicts B.
 * Write-back: both victims are dirty: 2 dirty evictions, 1 + 2 = 3 dirty
 * sectors to write back, nothing forwarded.  Write-through: the same 2
 * evictions, none dirty, every write forwarded. */
static void write_back_vs_write_through(void **state)
{
    (void)state;
    for (int wb = 0; wb <= 1; wb++) {
        CacheUnit *c = mk(wb, 1, 4, 4);
        CacheResult r;
        uint64_t addr[4] = { A, B, C, A };
        uint32_t mask[4] = { 0x1, 0x3, FULL, FULL };
        int forwarded = 0;
        uint32_t victim_dirty[4];
        for (int i = 0; i < 4; i++) {
            assert_int_equal(cache_write(c, addr[i], mask[i], &r), CACHE_MISS);
            forwarded += r.forward;
            victim_dirty[i] = r.victim_dirty;
        }
        const CacheStats *s = cache_stats(c);
        assert_int_equal(s->evictions, 2);
        if (wb) {
            assert_int_equal(forwarded, 0);
            assert_int_equal(s->dirty_evictions, 2);
            assert_int_equal(s->dirty_sectors_evicted, 3);
            assert_int_equal(victim_dirty[2], 0x1);      /* C evicted A */
            assert_int_equal(victim_dirty[3], 0x3);      /* A evicted B */
            assert_int_equal(cache_probe(c, C).dirty, FULL);
        } else {
            assert_int_equal(forwarded, 4);
            assert_int_equal(s->dirty_evictions, 0);
            assert_int_equal(cache_probe(c, C).dirty, 0);
        }
        /* a write hit: write-back keeps it, write-through forwards it */
        assert_int_equal(cache_write(c, C, 0x1, &r), CACHE_HIT);
        assert_int_equal(r.forward, !wb);
        assert_int_equal(s->write_sector_hits, 1);
        assert_int_equal(s->write_sector_misses, 1 + 2 + 4 + 4);
        cache_destroy(c);
    }
}

/* No-allocate: a write miss goes around the cache (forwarded, line absent)
 * and a later read misses.  Allocate: the written sector is valid, a read
 * of it hits and a read of more sectors fetches only the rest. */
static void allocate_vs_no_allocate(void **state)
{
    (void)state;
    CacheResult r;
    CacheUnit *c = mk(0, 0, 4, 4);
    assert_int_equal(cache_write(c, A, 0x1, &r), CACHE_MISS);
    assert_true(r.forward);
    assert_false(cache_probe(c, A).present);
    assert_int_equal(cache_read(c, A, 0x1, 1, &r), CACHE_MISS);

    /* a caller's own policy (the L1's local memory): write-back, allocate,
     * in a write-through no-allocate cache */
    assert_int_equal(cache_write_as(c, B, 0x3, 1, 1, &r), CACHE_MISS);
    assert_false(r.forward);
    assert_int_equal(cache_probe(c, B).dirty, 0x3);
    assert_int_equal(cache_write(c, B, 0x4, &r), CACHE_HIT);   /* the cache's own policy again */
    assert_true(r.forward);
    assert_int_equal(cache_probe(c, B).dirty, 0x3);
    cache_destroy(c);

    c = mk(1, 1, 4, 4);
    assert_int_equal(cache_write(c, A, 0x1, &r), CACHE_MISS);
    assert_false(r.forward);
    assert_int_equal(cache_probe(c, A).valid, 0x1);
    assert_int_equal(cache_read(c, A, 0x1, 1, &r), CACHE_HIT);
    assert_int_equal(cache_read(c, A, 0x3, 2, &r), CACHE_MISS);
    assert_int_equal(r.fetch, 0x2);
    cache_destroy(c);
}

/* Two misses to one line: one MSHR, one fetch, one fill that wakes both
 * waiters in arrival order.  A third that needs a sector not yet asked
 * for rides on the same MSHR with its own fetch, and wakes only when that
 * sector arrives. */
static void mshr_merge(void **state)
{
    (void)state;
    CacheUnit *c = mk(1, 1, 4, 4);
    CacheResult r;
    CacheWaiter w[4];
    assert_int_equal(cache_read(c, A, 0x1, 10, &r), CACHE_MISS);
    assert_int_equal(r.fetch, 0x1);
    assert_int_equal(cache_read(c, A, 0x1, 11, &r), CACHE_HIT_PENDING);
    assert_int_equal(r.fetch, 0);
    assert_int_equal(cache_read(c, A, 0x3, 12, &r), CACHE_MISS);
    assert_int_equal(r.fetch, 0x2);
    assert_true(r.merged);
    assert_int_equal(cache_mshrs_free(c), 3);            /* one MSHR for the line */
    const CacheStats *s = cache_stats(c);
    assert_int_equal(s->mshr_allocs, 1);
    assert_int_equal(s->mshr_merges, 2);                 /* 11 and 12 joined 10's MSHR */
    assert_int_equal(cache_fill(c, A, 0x1, w), 2);
    assert_int_equal(w[0].id, 10);
    assert_int_equal(w[1].id, 11);
    assert_int_equal(cache_mshrs_free(c), 3);            /* sector 1 still pending */
    assert_int_equal(cache_fill(c, A, 0x2, w), 1);
    assert_int_equal(w[0].id, 12);
    assert_int_equal(cache_mshrs_free(c), 4);
    assert_int_equal(s->fills, 2);
    assert_int_equal(cache_fill(c, A, 0x2, w), 0);       /* nothing waits: ignored */
    cache_destroy(c);
}

/* Out of MSHRs, merge slots or free ways: the access fails and nothing
 * changes (the caller retries). */
static void mshrs_full_retry(void **state)
{
    (void)state;
    CacheUnit *c = mk(1, 1, 2, 2);
    CacheResult r;
    CacheWaiter w[2];
    assert_int_equal(cache_read(c, A, FULL, 1, &r), CACHE_MISS);
    assert_int_equal(cache_read(c, E, FULL, 2, &r), CACHE_MISS);
    assert_int_equal(cache_read(c, B, FULL, 3, &r), CACHE_FAIL_MSHR);
    assert_false(cache_probe(c, B).present);
    const CacheStats *s = cache_stats(c);
    assert_int_equal(s->reads, 2);
    assert_int_equal(s->read_sector_misses, 8);
    assert_int_equal(s->fail_mshr, 1);
    /* merge slots: 2 per MSHR */
    assert_int_equal(cache_read(c, A, FULL, 4, &r), CACHE_HIT_PENDING);
    assert_int_equal(cache_read(c, A, FULL, 5, &r), CACHE_FAIL_MERGE);
    assert_int_equal(s->fail_merge, 1);
    /* the fill frees an MSHR: the retry succeeds */
    assert_int_equal(cache_fill(c, A, FULL, w), 2);
    assert_int_equal(cache_read(c, B, FULL, 3, &r), CACHE_MISS);
    assert_false(r.evicted);                              /* set 0 still had a free way */
    cache_destroy(c);

    /* every way of the set waiting for a fill: no victim */
    c = mk(1, 1, 4, 4);
    assert_int_equal(cache_read(c, A, FULL, 1, &r), CACHE_MISS);
    assert_int_equal(cache_read(c, B, FULL, 2, &r), CACHE_MISS);
    CacheProbe p = cache_probe(c, C);
    uint32_t vd;
    assert_int_equal(p.reserved, 2);
    assert_false(cache_victim(c, C, &vd));
    assert_int_equal(cache_read(c, C, FULL, 3, &r), CACHE_FAIL_RESERVED);
    assert_int_equal(cache_write(c, C, FULL, &r), CACHE_FAIL_RESERVED);
    assert_int_equal(cache_stats(c)->fail_reserved, 2);
    cache_fill(c, B, FULL, w);
    assert_true(cache_victim(c, C, &vd));
    assert_int_equal(vd, 0);
    assert_int_equal(cache_read(c, C, FULL, 3, &r), CACHE_MISS);
    assert_true(r.evicted);
    assert_int_equal(r.victim_addr, B);                   /* A is still reserved */
    cache_destroy(c);
}

/* cache_touch (the constant cache): whole lines, LRU, no MSHRs. */
static void touch_and_flush(void **state)
{
    (void)state;
    CacheUnit *c = mk(1, 1, 0, 0);
    assert_int_equal(cache_touch(c, A + 4), 0);
    assert_int_equal(cache_touch(c, A + 8), 1);
    assert_int_equal(cache_touch(c, B), 0);
    assert_int_equal(cache_touch(c, C), 0);               /* evicts A */
    assert_int_equal(cache_touch(c, A), 0);
    CacheResult r;
    assert_int_equal(cache_read(c, D, FULL, 1, &r), CACHE_FAIL_MSHR);   /* no MSHRs at all */
    /* flush: the dirty lines, once */
    cache_destroy(c);
    c = mk(1, 1, 4, 4);
    cache_write(c, A, 0x5, &r);
    cache_write(c, E, 0x1, &r);
    int seen = 0;
    assert_int_equal(cache_flush(c, NULL, &seen), 2);
    assert_int_equal(cache_flush(c, NULL, &seen), 0);
    assert_int_equal(cache_probe(c, A).valid, 0x5);       /* still valid, now clean */
    assert_int_equal(cache_probe(c, A).dirty, 0);
    cache_destroy(c);
}

/* cache_pristine: a unit stays as created through lookups, victim queries
 * and flushes (nothing to write back), and stops being so at the first
 * read (even one refused: its failure is counted), write or touch. */
static void pristine_until_used(void **state)
{
    (void)state;
    CacheUnit *c = mk(1, 1, 0, 0);
    uint32_t dirty = 9;
    assert_int_equal(cache_pristine(c), 1);
    assert_int_equal(cache_probe(c, A).present, 0);
    assert_int_equal(cache_victim(c, B, &dirty), 1);
    assert_int_equal(dirty, 0);
    assert_int_equal(cache_flush(c, NULL, NULL), 0);
    assert_int_equal(cache_pristine(c), 1);
    CacheResult r;
    assert_int_equal(cache_read(c, D, FULL, 1, &r), CACHE_FAIL_MSHR);   /* no MSHRs */
    assert_int_equal(cache_pristine(c), 0);
    assert_int_equal(cache_stats(c)->fail_mshr, 1);
    cache_destroy(c);
    c = mk(1, 1, 4, 4);
    assert_int_equal(rd(c, A, FULL), CACHE_MISS);
    assert_int_equal(cache_pristine(c), 0);
    cache_destroy(c);
    c = mk(1, 1, 4, 4);
    cache_write(c, A, 0x1, &r);
    assert_int_equal(cache_pristine(c), 0);
    cache_destroy(c);
    c = mk(1, 1, 4, 4);
    assert_int_equal(cache_touch(c, A), 0);
    assert_int_equal(cache_pristine(c), 0);
    cache_destroy(c);
}

/* set_hash: the set is the XOR of the line number's log2(sets)-bit chunks
 * (a stride of sets lines no longer lands in one set), for every set
 * count, against the chunk-by-chunk fold, for absent lines and present
 * ones (whose probe reads the set off the line's index); and a lookup finds each line of a
 * full set, and misses one never installed, at 1 to 56 ways. */
static void set_hash_and_ways(void **state)
{
    (void)state;
    uint64_t seed = 7;
    for (int bits = 1; bits <= 12; bits++) {
        CacheConfig cfg = { .sets = 1 << bits, .ways = 2, .line_bytes = 128, .sector_bytes = 32, .mshrs = 1,
                            .max_merge = 1, .set_hash = 1 };
        CacheUnit *c = cache_create(&cfg);
        assert_non_null(c);
        for (int i = 0; i < 2000; i++) {
            seed = seed * 6364136223846793005ull + 1442695040888963407ull;
            uint64_t addr = i < 64 ? (uint64_t)i << (7 + bits) : seed;   /* a power-of-two stride, then anything */
            uint64_t line = addr >> 7, h = 0;
            for (uint64_t v = line; v; v >>= bits) h ^= v;
            assert_int_equal(cache_probe(c, addr).set, (int)(h & (uint64_t)(cfg.sets - 1)));
            if (i % 2) continue;
            cache_touch(c, addr);       /* present: the set read off its line's index is the same */
            CacheProbe p = cache_probe(c, addr);
            assert_true(p.present);
            assert_int_equal(p.set, (int)(h & (uint64_t)(cfg.sets - 1)));
        }
        cache_destroy(c);
    }
    /* 2 sets of 1 to 56 ways: fill set 0's ways, find each line, miss the
     * next line of set 0 and a line of set 1 */
    static const int ways[] = { 1, 7, 8, 9, 20, 56 };
    for (int k = 0; k < 6; k++) {
        CacheConfig cfg = { .sets = 2, .ways = ways[k], .line_bytes = 128, .sector_bytes = 32, .mshrs = 1,
                            .max_merge = 1 };
        CacheUnit *c = cache_create(&cfg);
        for (int w = 0; w < ways[k]; w++) assert_int_equal(cache_touch(c, (uint64_t)w * 256), 0);   /* set 0 */
        for (int w = 0; w < ways[k]; w++) assert_int_equal(cache_probe(c, (uint64_t)w * 256).present, 1);
        assert_int_equal(cache_probe(c, (uint64_t)ways[k] * 256).present, 0);
        assert_int_equal(cache_probe(c, 128).present, 0);                                          /* set 1 */
        cache_destroy(c);
    }
}

/* A set's lines take its ways in order and stay until replaced (cache.c:
 * a lookup scans only the ways a set has filled, and a set with room gives
 * its next way).  One set of 64 ways, 200 lines read whole, each once, in
 * order: the first 64 evict nothing and are all found afterwards (the
 * lookup hints, 64 by address hash, collide among them, so some are found
 * by the scan); each later one evicts the line read 64 before it (the
 * least recent: hand-computed, 136 evictions), which is then absent while
 * the 64 most recent are present.  After cache_reset the set fills from
 * its first way again: 64 more lines evict nothing (a reset that kept the
 * count would scan past the set: the sanitizer run reports the read). */
static void ways_filled_in_order(void **state)
{
    (void)state;
    CacheConfig cfg = { .sets = 1, .ways = 64, .line_bytes = 128, .sector_bytes = 32, .mshrs = 1, .max_merge = 1 };
    CacheUnit *c = cache_create(&cfg);
    assert_non_null(c);
    for (int i = 0; i < 200; i++) {
        assert_int_equal(cache_touch(c, (uint64_t)i * 128), 0);
        assert_int_equal((int)cache_stats(c)->evictions, i < 64 ? 0 : i - 63);
        if (i == 63)
            for (int j = 0; j < 64; j++) assert_int_equal(cache_probe(c, (uint64_t)j * 128).present, 1);
        if (i >= 64) assert_int_equal(cache_probe(c, (uint64_t)(i - 64) * 128).present, 0);
    }
    for (int j = 0; j < 200; j++) assert_int_equal(cache_probe(c, (uint64_t)j * 128).present, j >= 136);
    assert_int_equal((int)cache_stats(c)->evictions, 136);
    assert_int_equal(cache_reset(c, &cfg), 0);
    for (int i = 0; i < 64; i++) assert_int_equal(cache_touch(c, (uint64_t)(1000 + i) * 128), 0);
    assert_int_equal((int)cache_stats(c)->evictions, 0);
    for (int i = 0; i < 64; i++) assert_int_equal(cache_probe(c, (uint64_t)(1000 + i) * 128).present, 1);
    assert_int_equal(cache_probe(c, 0).present, 0);
    cache_destroy(c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(set_hash_and_ways),
        cmocka_unit_test(ways_filled_in_order),
        cmocka_unit_test(geometry_and_masks),
        cmocka_unit_test(lru_sequence),
        cmocka_unit_test(sector_miss_in_present_line),
        cmocka_unit_test(write_back_vs_write_through),
        cmocka_unit_test(allocate_vs_no_allocate),
        cmocka_unit_test(mshr_merge),
        cmocka_unit_test(mshrs_full_retry),
        cmocka_unit_test(touch_and_flush),
        cmocka_unit_test(pristine_until_used),
        cmocka_unit_test(reset_as_created),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
