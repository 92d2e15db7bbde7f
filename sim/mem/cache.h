/* cache.h - one generic set-associative, sectored cache: the tag array and
 * its miss-status holding registers (MSHRs).  Used for the L1 data cache of
 * each SM, every L2 slice and the constant cache (memsys.c).
 *
 * Models: sets x ways lines of line_bytes, each split into sectors of
 * sector_bytes with their own valid, dirty and pending (requested, not yet
 * filled) bits; LRU replacement among the ways that have nothing pending;
 * write-back or write-through; allocate or not on a write miss.  A read miss
 * allocates its line at once (GPGPU-Sim's allocate-on-miss: the victim is
 * evicted and the line reserved until its fill) and an MSHR that records the
 * waiters; later misses to sectors already on their way merge into it
 * (up to max_merge waiters), later misses to other sectors of the same line
 * ride on the same MSHR with one more fetch.  When every way of a set is
 * reserved, or the MSHRs or an MSHR's merge slots run out, the access fails
 * and nothing changes: the caller retries.
 *
 * Owns no time: memsys.c decides when lookups and fills happen (hit_lat
 * and the rest are its business).  Deterministic: LRU ages come from an
 * access counter, ties go to the lowest way, waiters wake in arrival order.
 * No allocation after cache_create.
 */
#ifndef GPUSIM_CACHE_H
#define GPUSIM_CACHE_H

#include <stdint.h>

enum { CACHE_MAX_SECTORS = 32 };          /* sector masks are uint32_t */
#define CACHE_NO_WAITER UINT32_MAX

typedef struct CacheConfig {
    int sets, ways, line_bytes, sector_bytes;   /* powers of two; line/sector <= 32 */
    int write_back;                             /* 1 write-back, 0 write-through */
    int alloc_on_write;                         /* allocate a line on a write miss */
    int mshrs;                                  /* 0: no MSHRs (read misses fail) */
    int max_merge;                              /* waiters per MSHR */
    int set_hash;                               /* XOR-fold the line address into the set index */
} CacheConfig;

typedef struct CacheStats {
    uint64_t reads, writes;                     /* line accesses that succeeded */
    uint64_t read_sector_hits, read_sector_misses;
    uint64_t write_sector_hits, write_sector_misses;
    uint64_t mshr_allocs, mshr_merges, fills;  /* merges: misses that joined an MSHR in flight */
    uint64_t evictions, dirty_evictions, dirty_sectors_evicted;
    uint64_t fail_mshr, fail_merge, fail_reserved;
} CacheStats;

typedef enum CacheOutcome {
    CACHE_HIT,          /* every wanted sector valid (write: the line was present) */
    CACHE_HIT_PENDING,  /* read: the missing sectors are already on their way; waiter merged */
    CACHE_MISS,         /* read: fetch r->fetch; write: the line was absent */
    CACHE_FAIL_MSHR,    /* no free MSHR */
    CACHE_FAIL_MERGE,   /* the line's MSHR has no free waiter slot */
    CACHE_FAIL_RESERVED /* every way of the set is waiting for a fill */
} CacheOutcome;

typedef struct CacheResult {
    CacheOutcome outcome;
    uint32_t hit, miss;        /* wanted sectors found valid / not valid */
    uint32_t fetch;            /* read: sectors to request from the next level */
    int merged;                /* read: the waiter joined an MSHR already in flight */
    int forward;               /* write: pass the write on to the next level */
    int evicted;               /* a valid line was evicted to make room */
    uint64_t victim_addr;      /* its line address */
    uint32_t victim_dirty;     /* its dirty sectors: the caller writes them back */
} CacheResult;

typedef struct CacheWaiter {
    uint32_t id;               /* the caller's */
    uint32_t need;             /* sectors it waits for */
} CacheWaiter;

/* What a lookup would find, changing nothing (for all-or-nothing checks). */
typedef struct CacheProbe {
    int present;               /* the tag matches a line with valid or pending sectors */
    uint32_t valid, pending, dirty;
    int has_mshr, merge_free;  /* an MSHR is attached; it has a free waiter slot */
    int set;
    int reserved;              /* ways of the set with sectors pending */
} CacheProbe;

/* (isa.h's Cache is the PTX cache operator, .ca/.cg/...; hence CacheUnit.) */
typedef struct CacheUnit CacheUnit;

/* NULL if the geometry is unsupported or memory ran out. */
CacheUnit *cache_create(const CacheConfig *cfg);
/* The same, with arrays for up to room_lines lines (0: the geometry's), so
 * that cache_reset can later give it a larger geometry in place. */
CacheUnit *cache_create_room(const CacheConfig *cfg, int room_lines);
/* Empty the unit (its dirty lines are dropped: cache_flush them first)
 * and give it the geometry cfg, in place, as cache_create(cfg) would make
 * it, its counters zero: 0 done; -1 when cfg differs in more than its sets,
 * ways, set hash and write policies or needs more lines than the unit has
 * room for (make a new unit then).  An unused unit (cache_pristine) costs
 * nothing to empty; a used one, a clear of the lines it had. */
int cache_reset(CacheUnit *c, const CacheConfig *cfg);
void cache_destroy(CacheUnit *c);
const CacheConfig *cache_config(const CacheUnit *c);

uint64_t cache_line_addr(const CacheUnit *c, uint64_t addr);
/* Sectors of addr's line covered by [addr, addr + bytes). */
uint32_t cache_sectors(const CacheUnit *c, uint64_t addr, int bytes);
int cache_mshrs_free(const CacheUnit *c);

/* What a lookup of addr would find, changing nothing the model sees (it
 * moves the unit's lookup hint, cache.c: so one thread at a time per unit). */
CacheProbe cache_probe(const CacheUnit *c, uint64_t addr);
/* cache_probe's present alone (the tag lookup, none of the line's state). */
int cache_present(const CacheUnit *c, uint64_t addr);
/* For a line not present: 1 if a way can be freed for it (else every way
 * waits for a fill), and the dirty sectors of the line it would evict. */
int cache_victim(const CacheUnit *c, uint64_t addr, uint32_t *victim_dirty);

/* Read sectors `want` of addr's line for waiter id.  On CACHE_MISS and
 * CACHE_HIT_PENDING the waiter is registered and comes back from
 * cache_fill once all of `want` is valid; on CACHE_HIT nothing waits.
 * Fails (nothing changed, counted in fail_*) as described above. */
CacheOutcome cache_read(CacheUnit *c, uint64_t addr, uint32_t want, uint32_t id, CacheResult *r);

/* Write sectors (whole sectors: the timing model keeps no byte masks).
 * Hit: write-back marks them valid and dirty; write-through marks them
 * valid and forwards.  Miss: allocate-on-write installs them (dirty if
 * write-back, else forwarded), may evict, and can fail with
 * CACHE_FAIL_RESERVED; no-allocate forwards and leaves the cache alone. */
CacheOutcome cache_write(CacheUnit *c, uint64_t addr, uint32_t sectors, CacheResult *r);
/* The same with a policy of the caller's instead of the cache's (the L1
 * keeps local memory write-back whatever it does with global stores). */
CacheOutcome cache_write_as(CacheUnit *c, uint64_t addr, uint32_t sectors, int write_back, int alloc_on_write,
                            CacheResult *r);

/* Mark valid sectors of a present line dirty (an atomic's update). */
void cache_set_dirty(CacheUnit *c, uint64_t addr, uint32_t sectors);

/* Sectors arrive for addr's line.  Writes the waiters now satisfied to
 * out (at most max_merge of them, in arrival order) and returns how many;
 * frees the MSHR when nothing is pending any more.  A fill for a line that
 * is not waiting is ignored (returns 0). */
int cache_fill(CacheUnit *c, uint64_t addr, uint32_t sectors, CacheWaiter *out);

/* Look up a whole line without MSHRs (the constant cache, tests): 1 on a
 * hit; on a miss install it fully valid at once (evicting the LRU line)
 * and return 0. */
int cache_touch(CacheUnit *c, uint64_t addr);

/* Write back every dirty line: fn(ctx, line address, dirty sectors) for
 * each, in set/way order; dirty bits cleared.  Returns the line count. */
int cache_flush(CacheUnit *c, void (*fn)(void *ctx, uint64_t addr, uint32_t dirty), void *ctx);

const CacheStats *cache_stats(const CacheUnit *c);

/* 1 while nothing has read, written, filled or touched the unit since
 * cache_create (lookups and flushes leave it so): it is still as created. */
int cache_pristine(const CacheUnit *c);

#endif
