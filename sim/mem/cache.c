/* cache.c - see cache.h.
 *
 * Layout: lines[set * ways + way], their tags in a separate array (a set's
 * tags share a few host cache lines even at 56 ways); a line is present
 * from its install to its eviction.  Each set counts its reserved ways
 * and its present lines: lines are only ever replaced, never invalidated,
 * and a miss takes the lowest empty way, so a set's present lines are its
 * first `fill` ways; a lookup scans those only and a set with room gives
 * its next way at once.
 * MSHRs sit on a free list; a line points to its MSHR and the MSHR back to
 * the line, so finding the MSHR of a line costs the tag lookup.
 *
 * Zero means empty in both arrays (a tag is kept complemented, a line's
 * MSHR as its index plus one), so they come from zalloc untouched: the
 * host maps a page only when a line of it is first used.  hopper.ini has
 * 132 L1s with room for the largest carve-out and 80 L2 slices of 5,120
 * lines, most of which a small kernel never reaches.
 */
#include "sim/mem/cache.h"
#include "sim/base/lanes.h"
#include "sim/base/zalloc.h"

#include <stdlib.h>
#include <string.h>

typedef struct Line {
    uint64_t lru;              /* stamp of the last access: smallest is least recent */
    uint32_t valid, dirty, pending;
    int32_t mshr1;             /* index of its MSHR plus one; 0: none */
} Line;

typedef struct SetCount {
    uint16_t reserved;         /* ways with sectors pending */
    uint16_t fill;             /* ways holding a line: ways 0 .. fill - 1 */
} SetCount;

typedef struct Mshr {
    int32_t line;              /* index into lines; -1 when free */
    int32_t nwait;
    int32_t next_free;
} Mshr;

struct CacheUnit {
    CacheConfig cfg;
    int room;                  /* lines the arrays hold (cache_reset) */
    int line_shift, sector_shift, nsectors;
    int set_bits;              /* log2(sets): the width of one fold of set_hash */
    uint32_t full;             /* all sectors of a line */
    Line *lines;
    uint64_t *tags;            /* per way: key() of its line address, 0 if empty; kept apart for fast lookups */
    int32_t *recent;           /* RECENT slots by line address: where a lookup last found a line (a hint) */
    SetCount *set;             /* per set: ways reserved and ways present */
    Mshr *mshr;
    CacheWaiter *wait;         /* mshr i owns wait[i * max_merge ...] */
    int free_mshr, nfree;
    uint64_t stamp;
    int used;                  /* read, written, filled or touched since cache_create */
    CacheStats st;
};

static int log2i(int v)
{
    if (v <= 0 || (v & (v - 1))) return -1;
    int s = 0;
    while ((1 << s) != v) s++;
    return s;
}

/* A line is present once installed: lines are only ever replaced, never
 * invalidated, so its tag alone says so.  A tag is stored as key(line
 * address), never 0 (a line address is never all ones), so that an empty
 * way is a zero. */
static uint64_t key(uint64_t line_addr) { return ~line_addr; }
static int present(const CacheUnit *c, int i) { return c->tags[i] != 0; }
static int line_mshr(const Line *l) { return l->mshr1 - 1; }   /* -1: none */

/* Lookups remember where they found a line, by a hash of its address: a
 * warp's next access to a line it just used (a loop over a row, a
 * neighbour's sector) costs one tag compare instead of a scan of the set.
 * Only a hint: the tag at that index decides. */
#define RECENT 64
static unsigned recent_slot(uint64_t tag) { return (unsigned)((tag * 0x9E3779B97F4A7C15ull) >> 58); }

static int geometry_ok(const CacheConfig *cfg)
{
    int ls = log2i(cfg->line_bytes), ss = log2i(cfg->sector_bytes);
    return ls >= 0 && ss >= 0 && ss <= ls && ls - ss <= 5 && log2i(cfg->sets) >= 0 && cfg->ways >= 1 &&
           cfg->ways <= UINT16_MAX && (int64_t)cfg->sets * cfg->ways <= INT32_MAX && cfg->mshrs >= 0 &&
           (cfg->mshrs == 0 || cfg->max_merge >= 1);
}

static void set_geometry(CacheUnit *c, const CacheConfig *cfg)
{
    c->cfg = *cfg;
    c->line_shift = log2i(cfg->line_bytes);
    c->set_bits = log2i(cfg->sets);
    c->sector_shift = log2i(cfg->sector_bytes);
    c->nsectors = 1 << (c->line_shift - c->sector_shift);
    c->full = c->nsectors == 32 ? UINT32_MAX : (1u << c->nsectors) - 1u;
}

static void mshrs_all_free(CacheUnit *c)
{
    for (int i = 0; i < c->cfg.mshrs; i++) {
        c->mshr[i].line = -1;
        c->mshr[i].nwait = 0;
        c->mshr[i].next_free = i + 1 < c->cfg.mshrs ? i + 1 : -1;
    }
    c->free_mshr = c->cfg.mshrs ? 0 : -1;
    c->nfree = c->cfg.mshrs;
}

CacheUnit *cache_create(const CacheConfig *cfg) { return cache_create_room(cfg, 0); }

CacheUnit *cache_create_room(const CacheConfig *cfg, int room_lines)
{
    if (!geometry_ok(cfg)) return NULL;
    CacheUnit *c = calloc(1, sizeof *c);
    if (!c) return NULL;
    set_geometry(c, cfg);
    int nl = cfg->sets * cfg->ways;
    c->room = room_lines > nl ? room_lines : nl;
    c->lines = zalloc((size_t)c->room, sizeof *c->lines);
    c->tags = zalloc((size_t)c->room, sizeof *c->tags);
    c->recent = calloc(RECENT, sizeof *c->recent);
    c->set = zalloc((size_t)c->room, sizeof *c->set);   /* a set per line at most */
    c->mshr = calloc((size_t)(cfg->mshrs ? cfg->mshrs : 1), sizeof *c->mshr);
    /* not cleared: an MSHR's waiters are written before they are read
     * (nwait), and an L1's array is large (hopper.ini: 512 x 64 x 8 bytes
     * = 256 KiB on each of 132 SMs).  (Not zalloc'd either: a launch in a
     * process that ran others reuses heap pages already mapped, where a
     * fresh mapping would fault in each page it reaches again.) */
    c->wait = malloc((size_t)(cfg->mshrs ? cfg->mshrs : 1) * (size_t)(cfg->max_merge > 0 ? cfg->max_merge : 1) *
                     sizeof *c->wait);
    if (!c->lines || !c->tags || !c->recent || !c->set || !c->mshr || !c->wait) { cache_destroy(c); return NULL; }
    mshrs_all_free(c);
    return c;
}

int cache_reset(CacheUnit *c, const CacheConfig *cfg)
{
    const CacheConfig *o = &c->cfg;
    if (!geometry_ok(cfg) || (int64_t)cfg->sets * cfg->ways > c->room || cfg->line_bytes != o->line_bytes ||
        cfg->sector_bytes != o->sector_bytes || cfg->mshrs != o->mshrs || cfg->max_merge != o->max_merge)
        return -1;
    /* An unused unit's lines, tags, set counts and MSHRs are still as
     * cache_create left them; only the lookup hints may have moved. */
    if (c->used) {
        size_t nl = (size_t)o->sets * (size_t)o->ways;
        memset(c->lines, 0, nl * sizeof *c->lines);
        memset(c->tags, 0, nl * sizeof *c->tags);
        memset(c->set, 0, (size_t)o->sets * sizeof *c->set);
        mshrs_all_free(c);
        c->stamp = 0;
        c->used = 0;
        memset(&c->st, 0, sizeof c->st);
    }
    set_geometry(c, cfg);
    memset(c->recent, 0, RECENT * sizeof *c->recent);
    return 0;
}

void cache_destroy(CacheUnit *c)
{
    if (!c) return;
    zfree(c->lines);
    zfree(c->tags);
    free(c->recent);
    zfree(c->set);
    free(c->mshr);
    free(c->wait);
    free(c);
}

const CacheConfig *cache_config(const CacheUnit *c) { return &c->cfg; }
const CacheStats *cache_stats(const CacheUnit *c) { return &c->st; }
int cache_mshrs_free(const CacheUnit *c) { return c->nfree; }
int cache_pristine(const CacheUnit *c) { return !c->used; }

uint64_t cache_line_addr(const CacheUnit *c, uint64_t addr) { return addr >> c->line_shift << c->line_shift; }

uint32_t cache_sectors(const CacheUnit *c, uint64_t addr, int bytes)
{
    uint64_t base = cache_line_addr(c, addr);
    uint64_t end = addr + (uint64_t)(bytes > 0 ? bytes : 1);
    uint64_t lim = base + (1ull << c->line_shift);
    if (end > lim) end = lim;
    int first = (int)((addr - base) >> c->sector_shift), last = (int)((end - 1 - base) >> c->sector_shift);
    uint32_t m = 0;
    for (int s = first; s <= last; s++) m |= 1u << s;
    return m;
}

static int set_of(const CacheUnit *c, uint64_t addr)
{
    uint64_t line = addr >> c->line_shift, mask = (uint64_t)(c->cfg.sets - 1);
    if (c->cfg.set_hash && mask) {
        /* fold every higher group of index bits in: a power-of-two stride
         * no longer lands in one set */
        uint64_t h = 0;
        for (uint64_t v = line; v; v >>= c->set_bits) h ^= v;
        return (int)(h & mask);
    }
    return (int)(line & mask);
}

/* Index of the present line holding addr, or -1.  (It updates the lookup
 * hint, which only the unit's own thread reads: each L1 belongs to its
 * SM's lane, the L2 slices to the memory side.) */
static int find(const CacheUnit *c, uint64_t addr)
{
    uint64_t line = cache_line_addr(c, addr), tag = key(line);
    int32_t *hint = &c->recent[recent_slot(line)];
    if (c->tags[*hint] == tag) return *hint;
    int set = set_of(c, addr), base = set * c->cfg.ways, n = c->set[set].fill;
    const uint64_t *t = &c->tags[base];
    for (int w = 0; w < n; w++)
        if (t[w] == tag) { *hint = base + w; return base + w; }
    return -1;
}

/* Replacement: an empty way (lowest first: the set's fill), else the least
 * recently used way with nothing pending; -1 if every way waits for a fill. */
static int victim(const CacheUnit *c, int set)
{
    int base = set * c->cfg.ways, best = -1;
    if (c->set[set].fill < c->cfg.ways) return base + c->set[set].fill;
    for (int w = 0; w < c->cfg.ways; w++) {
        const Line *l = &c->lines[base + w];
        if (l->pending) continue;
        if (best < 0 || l->lru < c->lines[best].lru) best = base + w;
    }
    return best;
}


CacheProbe cache_probe(const CacheUnit *c, uint64_t addr)
{
    CacheProbe p;
    memset(&p, 0, sizeof p);
    int i = find(c, addr);
    p.set = i >= 0 ? i / c->cfg.ways : set_of(c, addr);   /* a present line's index says its set */
    p.reserved = c->set[p.set].reserved;
    if (i >= 0) {
        const Line *l = &c->lines[i];
        p.present = 1;
        p.valid = l->valid;
        p.pending = l->pending;
        p.dirty = l->dirty;
        p.has_mshr = l->mshr1 != 0;
        p.merge_free = p.has_mshr && c->mshr[line_mshr(l)].nwait < c->cfg.max_merge;
    }
    return p;
}

int cache_present(const CacheUnit *c, uint64_t addr) { return find(c, addr) >= 0; }

int cache_victim(const CacheUnit *c, uint64_t addr, uint32_t *victim_dirty)
{
    int v = victim(c, set_of(c, addr));
    *victim_dirty = v >= 0 && present(c, v) ? c->lines[v].dirty : 0;
    return v >= 0;
}

static void touch(CacheUnit *c, Line *l) { l->lru = ++c->stamp; }

static void result_clear(CacheResult *r, CacheOutcome o)
{
    memset(r, 0, sizeof *r);
    r->outcome = o;
}

/* Empty line i (write its dirty sectors back through r) and install the
 * line at line_addr. */
static void install(CacheUnit *c, int i, uint64_t line_addr, CacheResult *r)
{
    Line *l = &c->lines[i];
    if (!present(c, i)) c->set[i / c->cfg.ways].fill++;   /* victim gave the set's next way */
    else {
        r->evicted = 1;
        r->victim_addr = key(c->tags[i]);
        r->victim_dirty = l->dirty;
        c->st.evictions++;
        if (l->dirty) {
            c->st.dirty_evictions++;
            c->st.dirty_sectors_evicted += (uint64_t)sectors_count(l->dirty);
        }
    }
    c->tags[i] = key(line_addr);
    l->valid = l->dirty = l->pending = 0;
    l->mshr1 = 0;
    touch(c, l);
}

static int mshr_alloc(CacheUnit *c, int line)
{
    int m = c->free_mshr;
    c->free_mshr = c->mshr[m].next_free;
    c->nfree--;
    c->mshr[m].line = line;
    c->mshr[m].nwait = 0;
    c->lines[line].mshr1 = m + 1;
    c->st.mshr_allocs++;
    return m;
}

static void mshr_free(CacheUnit *c, int m)
{
    c->lines[c->mshr[m].line].mshr1 = 0;
    c->mshr[m].line = -1;
    c->mshr[m].next_free = c->free_mshr;
    c->free_mshr = m;
    c->nfree++;
}

static void add_waiter(CacheUnit *c, int m, uint32_t id, uint32_t need)
{
    if (id == CACHE_NO_WAITER) return;
    CacheWaiter *w = &c->wait[(size_t)m * (size_t)c->cfg.max_merge + (size_t)c->mshr[m].nwait++];
    w->id = id;
    w->need = need;
}

static CacheOutcome fail(CacheUnit *c, CacheResult *r, CacheOutcome o)
{
    result_clear(r, o);
    if (o == CACHE_FAIL_MSHR) c->st.fail_mshr++;
    else if (o == CACHE_FAIL_MERGE) c->st.fail_merge++;
    else c->st.fail_reserved++;
    return o;
}

CacheOutcome cache_read(CacheUnit *c, uint64_t addr, uint32_t want, uint32_t id, CacheResult *r)
{
    c->used = 1;
    want &= c->full;
    int i = find(c, addr);
    if (i >= 0) {
        Line *l = &c->lines[i];
        uint32_t miss = want & ~l->valid, fetch = miss & ~l->pending;
        if (miss) {
            /* waits on the line's MSHR (a present line with nothing pending has none yet) */
            if (l->mshr1 && id != CACHE_NO_WAITER && c->mshr[line_mshr(l)].nwait >= c->cfg.max_merge)
                return fail(c, r, CACHE_FAIL_MERGE);
            if (!l->mshr1 && c->nfree == 0) return fail(c, r, CACHE_FAIL_MSHR);
        }
        result_clear(r, miss ? (fetch ? CACHE_MISS : CACHE_HIT_PENDING) : CACHE_HIT);
        r->hit = want & l->valid;
        r->miss = miss;
        r->fetch = fetch;
        if (miss) {
            r->merged = l->mshr1 != 0;
            int m = r->merged ? line_mshr(l) : mshr_alloc(c, i);
            if (r->merged) c->st.mshr_merges++;
            if (!l->pending && fetch) c->set[i / c->cfg.ways].reserved++;
            l->pending |= fetch;
            add_waiter(c, m, id, want);
        }
        touch(c, l);
        c->st.reads++;
        c->st.read_sector_hits += (uint64_t)sectors_count(r->hit);
        c->st.read_sector_misses += (uint64_t)sectors_count(miss);
        return r->outcome;
    }
    if (!want) { result_clear(r, CACHE_HIT); c->st.reads++; return CACHE_HIT; }
    if (c->nfree == 0) return fail(c, r, CACHE_FAIL_MSHR);
    int v = victim(c, set_of(c, addr));
    if (v < 0) return fail(c, r, CACHE_FAIL_RESERVED);
    result_clear(r, CACHE_MISS);
    install(c, v, cache_line_addr(c, addr), r);
    Line *l = &c->lines[v];
    l->pending = want;
    c->set[v / c->cfg.ways].reserved++;
    add_waiter(c, mshr_alloc(c, v), id, want);
    r->miss = r->fetch = want;
    c->st.reads++;
    c->st.read_sector_misses += (uint64_t)sectors_count(want);
    return CACHE_MISS;
}

CacheOutcome cache_write(CacheUnit *c, uint64_t addr, uint32_t sectors, CacheResult *r)
{
    return cache_write_as(c, addr, sectors, c->cfg.write_back, c->cfg.alloc_on_write, r);
}

CacheOutcome cache_write_as(CacheUnit *c, uint64_t addr, uint32_t sectors, int write_back, int alloc_on_write,
                            CacheResult *r)
{
    c->used = 1;
    sectors &= c->full;
    int i = find(c, addr);
    if (i >= 0) {
        Line *l = &c->lines[i];
        result_clear(r, CACHE_HIT);
        r->hit = sectors & l->valid;
        r->miss = sectors & ~l->valid;
        l->valid |= sectors;
        if (write_back) l->dirty |= sectors;
        else r->forward = 1;
        touch(c, l);
    } else if (alloc_on_write) {
        int v = victim(c, set_of(c, addr));
        if (v < 0) return fail(c, r, CACHE_FAIL_RESERVED);
        result_clear(r, CACHE_MISS);
        install(c, v, cache_line_addr(c, addr), r);
        Line *l = &c->lines[v];
        l->valid = sectors;
        if (write_back) l->dirty = sectors;
        else r->forward = 1;
        r->miss = sectors;
    } else {
        result_clear(r, CACHE_MISS);
        r->miss = sectors;
        r->forward = 1;
    }
    c->st.writes++;
    c->st.write_sector_hits += (uint64_t)sectors_count(r->hit);
    c->st.write_sector_misses += (uint64_t)sectors_count(r->miss);
    return r->outcome;
}

void cache_set_dirty(CacheUnit *c, uint64_t addr, uint32_t sectors)
{
    c->used = 1;
    int i = find(c, addr);
    if (i >= 0) c->lines[i].dirty |= sectors & c->lines[i].valid;
}

int cache_fill(CacheUnit *c, uint64_t addr, uint32_t sectors, CacheWaiter *out)
{
    c->used = 1;
    int i = find(c, addr);
    if (i < 0 || !c->lines[i].mshr1) return 0;
    Line *l = &c->lines[i];
    int m = line_mshr(l);
    l->valid |= sectors & c->full;
    if (l->pending && !(l->pending & ~sectors)) c->set[i / c->cfg.ways].reserved--;
    l->pending &= ~sectors;
    c->st.fills++;
    CacheWaiter *w = &c->wait[(size_t)m * (size_t)c->cfg.max_merge];
    int n = 0, keep = 0;
    for (int k = 0; k < c->mshr[m].nwait; k++) {
        if ((w[k].need & ~l->valid) == 0) out[n++] = w[k];
        else w[keep++] = w[k];
    }
    c->mshr[m].nwait = keep;
    if (!l->pending) mshr_free(c, m);   /* keep == 0 then: every need was valid or pending */
    return n;
}

int cache_touch(CacheUnit *c, uint64_t addr)
{
    c->used = 1;
    int i = find(c, addr);
    if (i >= 0 && c->lines[i].valid == c->full) {
        touch(c, &c->lines[i]);
        c->st.reads++;
        c->st.read_sector_hits += (uint64_t)c->nsectors;
        return 1;
    }
    CacheResult r;
    if (i < 0) {
        i = victim(c, set_of(c, addr));
        if (i < 0) return 0;            /* every way reserved: miss, nothing cached */
        install(c, i, cache_line_addr(c, addr), &r);
    }
    c->st.read_sector_hits += (uint64_t)sectors_count(c->lines[i].valid);
    c->st.read_sector_misses += (uint64_t)sectors_count(c->full & ~c->lines[i].valid);
    c->lines[i].valid = c->full;
    touch(c, &c->lines[i]);
    c->st.reads++;
    return 0;
}

int cache_flush(CacheUnit *c, void (*fn)(void *ctx, uint64_t addr, uint32_t dirty), void *ctx)
{
    int n = 0;
    if (!c->used) return 0;             /* nothing dirty, and its pages stay unmapped */
    size_t nl = (size_t)c->cfg.sets * (size_t)c->cfg.ways;
    for (size_t i = 0; i < nl; i++) {
        Line *l = &c->lines[i];
        if (!present(c, (int)i) || !l->dirty) continue;
        if (fn) fn(ctx, key(c->tags[i]), l->dirty);
        l->dirty = 0;
        n++;
    }
    return n;
}
