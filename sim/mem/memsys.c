/* memsys.c - see memsys.h.
 *
 * Structure.  memsys_access does the SM side at issue: coalescing, the L1
 * lookups and the request packets (all or nothing).  Everything after the
 * SM's crossbar port is event driven: memsys_tick runs step(t) only at the
 * cycles t where some unit can act, and each step updates the units in
 * reverse pipeline order (replies into the SMs, reply crossbar, DRAM, L2
 * tag stages, request crossbar), so a packet never crosses two stages in
 * one cycle and the result does not depend on whether the SM called
 * memsys_access before or after memsys_tick in a cycle: whatever a stage
 * hands on is ready the next cycle.
 *
 * Zero-load latencies (fermi.ini numbers in tests/test_memsys.c):
 *   L1 hit        l1.hit_lat
 *   L2 hit        1 + icnt.latency + l2.hit_lat + 1 + icnt.latency
 *                 + (reply flits - 1) + l1.hit_lat
 *   DRAM          L2 hit + the DRAM access (ACT tRCD RD tCL burst ...) in
 *                 DRAM clocks, rounded to core cycles at both crossings,
 *                 + dram.ctrl_lat
 * The 1s are the cycles a packet waits in a queue between stages.
 */
#include "sim/mem/memsys.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sim/base/grow.h"
#include "sim/base/zalloc.h"
#include "sim/mem/cache.h"
#include "sim/mem/coalesce.h"
#include "sim/mem/doneq.h"
#include "sim/mem/dram.h"
#include "sim/mem/icnt.h"

/* Warp accesses in flight per SM: records per resident warp slot.  A
 * structural bound of this model (a full pool answers MEM_RETRY), large
 * enough not to bind before the MSHRs do. */
#define RECS_PER_WARP 16
/* Local memory lives above every global buffer (mem.h places those from
 * MEM_GLOBAL_BASE), in a region no global address reaches. */
#define LOCAL_PHYS_BASE (1ull << 44)

enum {
    PK_READ,         /* L1 miss: reply fills the L1 line */
    PK_READ_NOFILL,  /* load that bypasses the L1: reply completes rec */
    PK_WRITE,        /* store (rec >= 0: acknowledge) or L1 write-back (rec -1) */
    PK_ATOM,         /* atomic, executed in the L2 slice; aux = the most lanes on one address (atom_cycles) */
    PK_FILL,         /* reply to PK_READ */
    PK_DATA          /* reply to PK_READ_NOFILL and PK_ATOM */
};

typedef struct Rec {         /* one warp access in flight */
    int sm, slot;
    uint32_t tag;
    int pending;             /* line parts not back yet */
    int posted;              /* MEMSYS_POSTED: freed when done, not reported */
    int next_free;
    uint64_t done;           /* latest part so far */
} Rec;

typedef struct L2Wait {      /* who an L2 MSHR waiter is */
    uint64_t addr;           /* global line address */
    int32_t rec;
    int16_t sm;
    uint8_t kind;            /* PK_READ, PK_READ_NOFILL, PK_ATOM */
    int next_free;
} L2Wait;

typedef struct SmPort {
    CacheUnit *l1, *cc;
    uint64_t l1_free;        /* tag stage busy before this cycle */
    /* Its records: a free list of those used and returned, then the never
     * used ones from rec_fresh to rec_end (taken in index order, as if the
     * list had started as all of them: the array is left as zalloc made it
     * and a page is mapped when one of its records is first used). */
    int rec_free, rec_fresh, rec_end;
    /* The last refusal, so that an SM retrying the same access every cycle
     * costs O(1) until what refused it changes: gen_l1 counts L1 fills
     * (which free MSHRs and reserved ways), gen_rec freed records, the
     * port's sent packets its free space; accepted accesses change all. */
    uint64_t gen_l1, gen_rec, gen_acc;
    uint64_t ref_gen, ref_fp;
    uint32_t ref_tag;
    int ref_slot, ref_why;   /* ref_why: 0 none, else the RETRY_* cause */
    /* The refused access's dry run, which holds while the L1 is as it was
     * (gen_l1 and gen_acc unchanged): a retry that only waits for the
     * crossbar or a record skips the coalescer and the tag lookups. */
    uint64_t plan_l1, plan_acc;
    int plan_why, plan_flits, plan_packets, plan_need_rec;
    int plan_reads_l1;       /* the dry run looked at the L1 (a cached load, a store the L1 keeps) */
    uint64_t l1_hits, l1_misses;   /* this SM's part of MemStats' (memsys_sm_counters) */
    /* An SM whose held access was refused need not offer it every cycle
     * (memsys_retry_sleep): it sleeps until the refusal's generation moves
     * (memsys_woken) or the tag stage frees; the refusals it skipped are
     * counted when it offers again, as if it had offered every cycle. */
    int sleep, sleep_why;    /* sleep_why: 0 the tag stage (until l1_free), else RETRY_* */
    int listed;              /* in MemSys.sleepers (2: to be added by memsys_sm_sync) */
    uint64_t sleep_since;    /* the cycle of the last refusal */
    /* Asleep on a full crossbar port: the port's sent count then and how
     * many packets must leave before the planned access can fit
     * (icnt_src_need): with the plan unchanged (gen_l1, gen_acc), every
     * offer before that many have left would be refused the same way. */
    uint64_t sleep_sent;
    int sleep_need;
    int posted;              /* its posted records in flight */
    int sync;                /* deferred mode: it sent packets or fell asleep since memsys_sm_sync */
    uint64_t kick;           /* deferred mode: the memory side has work from this cycle on (UINT64_MAX none) */
    /* Deferred mode: its L1-side counters, which memsys_stats adds to
     * MemSys.st (written only by the thread running this SM; read on the
     * memory side's thread only when asked for, not every cycle: each read
     * took the SM's cache lines from the core running it). */
    MemStats st;
} SmPort;

enum { RETRY_MSHR = 1, RETRY_ICNT, RETRY_RECORDS };

typedef struct Slice {
    CacheUnit *l2;
    uint64_t tag_free;
    int blocked;             /* head waits for a resource (its L2_WAIT_*): no timed wake-up */
    uint64_t blocked_since;
    L2Wait *w;
    int w_free, w_fresh, w_end;   /* free list, then never used ones (as SmPort's records) */
    uint64_t hits, misses, sectors;   /* this slice's part of MemStats' (memsys_part_counters) */
    MemStats *st;            /* where its counters go: MemSys.st, or its lane's (memsys_set_lanes) */
    int touched;             /* in its lane's touched list this step */
    CacheWaiter *woken;      /* cache_fill's answer for its fills (l2.mshr_merge entries) */
} Slice;

/* A DRAM read whose data is in the memory controller and PHY: it reaches
 * the L2 at cycle `at`. */
typedef struct CtrlRet {
    uint64_t at, addr;
    uint32_t bursts;
} CtrlRet;

/* A channel's reads in the controller: a ring, FIFO = arrival order = `at`
 * order (dram_done sees increasing cycles and adds the same delay). */
typedef struct CtrlRing {
    CtrlRet *e;
    int head, n, cap;
} CtrlRing;

/* A partition lane: the DRAM channels [c_lo, c_hi) and their L2 slices
 * (slice s is channel s % channels'), run by one host thread in a step's
 * partition phase (memsys_set_lanes).  What a lane does there touches its
 * partitions only; what would touch shared state waits here for
 * part_merge, which applies it in the one-lane order. */
typedef struct MemLane {
    int c_lo, c_hi;
    MemStats st;             /* its slices' counters (lanes > 1), added to MemSys.st when asked for (lanes_stats) */
    int *acks, nacks;        /* slices whose store was acknowledged this step (rec in MemSys.ack_rec), ascending */
    int *touched, ntouched;  /* lanes > 1: slices that took a request or sent a reply this step (Slice.touched) */
    /* Its controller rings' reads by `at`: every read a step's DRAM run
     * finishes has the same one (run cycle + dram.ctrl_lat) and a step
     * takes every read due, so a ring of the distinct `at`s, oldest first,
     * gives the earliest at once. */
    uint64_t *batch_at;
    int batch_head, nbatch, batch_cap;
    /* Its SMs (those of gpu.c's lane of the same number): their replies
     * this step, MemSys.arr[arr_lo, arr_hi), which it hands their L1s, and
     * the records those complete, nfin of them in MemSys.fin and fin_at
     * from its SMs' first record number (sm_lo * recs_per_sm) on, which
     * step queues after the lanes, lane by lane: the SMs' order, as one
     * lane gives it. */
    int sm_lo, sm_hi;
    int arr_lo, arr_hi;
    int nfin;
    CacheWaiter *woken;      /* cache_fill's answer for its SMs' fills (l1.mshr_merge entries) */
} MemLane;

typedef struct AccLine {
    uint64_t addr;
    uint32_t mask;
    LaneMask lanes;
} AccLine;

enum { MAX_LINES = COALESCE_MAX_LINES };

/* The lines of the access memsys_access_co is working on: scratch of the
 * calling host thread, so that SMs on other threads may access at once. */
static _Thread_local struct {
    AccLine line[MAX_LINES];
    int nlines;
    Coalesced co;
} acc;

struct MemSys {
    int nsms, slices, channels, warp_size, max_warps;
    int line_bytes, sector_bytes;
    int ib_shift;                    /* log2(dram.interleave_bytes) */
    uint64_t ib_mask;                /* dram.interleave_bytes - 1 */
    int phash;               /* dram.partition_hash */
    int l1_enabled, l1_hit, l2_hit, icnt_lat, cc_hit, const_penalty;
    int l2_wr, l2_wr_sector;             /* l2.write_cycles, l2.write_sector_cycles */
    double atom_lane;                    /* l2.atom_lane_cycles */
    int l1_wb, l1_alloc, l2_wb, l2_alloc;
    CacheConfig l1_cfg;               /* the L1s' geometry, now (memsys_set_l1_bytes) */
    int l1_room;                      /* lines an L1's arrays hold: the largest carve-out (replace_l1s) */
    int burst_bytes;
    uint32_t s2b[CACHE_MAX_SECTORS];     /* sector -> bursts holding it */
    uint32_t b2s[CACHE_MAX_SECTORS];     /* burst -> sectors it carries */
    SmPort *sm;
    int *sleepers, nsleep;   /* SMs asleep on a remembered refusal */
    int deferred;            /* memsys_set_deferred: the SM side's shared effects wait for memsys_sm_sync */
    Slice *sl;
    Icnt *req, *rep;
    Dram *dram;
    int ctrl_lat;
    CtrlRing *ctrl;          /* per channel */
    MemLane *lane;           /* partition lanes: maxlanes of them, nlanes in use (memsys_set_lanes) */
    int nlanes, maxlanes;
    MemRunFn run;            /* runs the lanes' part of a step when nlanes > 1 */
    void *run_ctx;
    uint64_t step_t;         /* the step part_lane runs */
    int32_t *ack_rec;        /* per slice: the record its store acknowledgement completes a part of */
    Rec *rec;
    int recs_per_sm;
    int nrecs;
    DoneQ done;              /* records complete, waiting for their cycle */
    uint64_t inner_next;     /* next cycle a unit can act */
    uint64_t next;           /* min(inner_next, earliest completion) */
    uint64_t last_now;
    MemStats st;
    uint64_t flush_bytes, flush_writes;
    IcntPacket *arr;         /* the replies a step takes from the crossbar, SM by SM (MemLane.arr_lo) */
    int narr, caparr;
    int *fin;                /* per lane, from its SMs' first record number on: records its replies completed */
    uint64_t *fin_at;        /* and when */
};

static uint64_t min64(uint64_t a, uint64_t b) { return a < b ? a : b; }
static uint64_t max64(uint64_t a, uint64_t b) { return a > b ? a : b; }
static int pop32(uint32_t m) { return sectors_count(m); }   /* mostly a line's sectors */

/* ---- configuration ----------------------------------------------------------------- */

static int is_pow2(int64_t v) { return v > 0 && (v & (v - 1)) == 0; }

const char *memsys_unsupported(const Config *c)
{
    int line = c->l2.line_bytes, burst = c->dram.bus_bits / 8 * c->dram.burst_length;
    if (c->l1.line_bytes != c->l2.line_bytes || c->l1.sector_bytes != c->l2.sector_bytes)
        return "l1.line_bytes and l1.sector_bytes must equal l2.line_bytes and l2.sector_bytes";
    if (!is_pow2(line) || !is_pow2(c->l2.sector_bytes) || line / c->l2.sector_bytes > CACHE_MAX_SECTORS ||
        c->l2.sector_bytes > line)
        return "a cache line must hold 1 to 32 sectors";
    if (!is_pow2(c->dram.interleave_bytes)) return "dram.interleave_bytes must be a power of two";
    if (line > c->dram.interleave_bytes || line > c->dram.row_bytes)
        return "l2.line_bytes must fit in dram.interleave_bytes and dram.row_bytes";
    if (burst < 1 || !is_pow2(burst) || (burst < line && line / burst > 32))
        return "a cache line must take at most 32 DRAM bursts";
    if (c->l2.slices % c->dram.channels) return "l2.slices must be a multiple of dram.channels";
    return NULL;
}

double memsys_peak_gbs(const Config *c)
{
    DramParams p;
    dram_params_from_config(&p, c);
    return dram_peak_gbs(&p);
}

double memsys_peak_bytes_per_cycle(const Config *c)
{
    return memsys_peak_gbs(c) * 1000.0 / c->gpu.core_clock_mhz;
}

/* ---- addresses ----------------------------------------------------------------------- */

/* L2 slices interleave like the DRAM channels, dram.interleave_bytes at a
 * time; inside a slice, lines are indexed by the slice-local address (the
 * slice bits squeezed out) so every set of every slice is used.
 *
 * dram.partition_hash: the partitions see a permuted address.  Chunk k of
 * interleave_bytes lies in group g = k / slices; its position in the group
 * is rotated by a hash of g, so every group still puts one chunk in each
 * slice (and channel: slices is a multiple of channels), but the slice of
 * a chunk no longer follows from a few low address bits: regular strides
 * (one block's base every 8 KiB) spread over the partitions instead of
 * piling onto a few of them.  A stand-in for [ASH]'s IPOLY partition
 * indexing; the hash is Knuth's multiplicative one, deterministic. */
static uint64_t rot_of(const MemSys *m, uint64_t g)
{
    return m->phash ? (uint64_t)(((uint32_t)g * 2654435761u) >> 8) % (uint64_t)m->slices : 0;
}

/* (dram.interleave_bytes is a power of two: config.c and
 * memsys_unsupported check; its log2 is ib_shift.  Chunk k's group and
 * place in it come from one division by the slice count, and rotating a
 * place below S is a subtraction: the values of the plain formulas
 * without the five divisions an address took each time.) */
static uint64_t hash_addr(const MemSys *m, uint64_t a)
{
    if (!m->phash) return a;
    uint64_t S = (uint64_t)m->slices, k = a >> m->ib_shift, g = k / S, x = k - g * S + rot_of(m, g);
    if (x >= S) x -= S;
    return (g * S + x) << m->ib_shift | (a & m->ib_mask);
}

static uint64_t unhash_addr(const MemSys *m, uint64_t h)
{
    if (!m->phash) return h;
    uint64_t S = (uint64_t)m->slices, k = h >> m->ib_shift, g = k / S, x = k - g * S + S - rot_of(m, g);
    if (x >= S) x -= S;
    return (g * S + x) << m->ib_shift | (h & m->ib_mask);
}

static int slice_of(const MemSys *m, uint64_t a) { return (int)((hash_addr(m, a) >> m->ib_shift) % (uint64_t)m->slices); }

/* The slice-local address of hashed address h. */
static uint64_t local_of(const MemSys *m, uint64_t h)
{
    return (h >> m->ib_shift) / (uint64_t)m->slices << m->ib_shift | (h & m->ib_mask);
}

static uint64_t to_local(const MemSys *m, uint64_t a) { return local_of(m, hash_addr(m, a)); }

/* The hashed address of slice s's local address: what the DRAM sees. */
static uint64_t hashed_of(const MemSys *m, uint64_t local, int s)
{
    return ((local >> m->ib_shift) * (uint64_t)m->slices + (uint64_t)s) << m->ib_shift | (local & m->ib_mask);
}

/* The DRAM sees the partitions' (hashed) addresses: h is one. */
static void to_dram(MemSys *m, uint64_t h, uint32_t bursts, int is_write, uint64_t now)
{
    dram_push(m->dram, h, bursts, is_write, 0, now);
}

static uint32_t sectors_to_bursts(const MemSys *m, uint32_t sectors)
{
    uint32_t b = 0;
    for (; sectors; sectors &= sectors - 1) b |= m->s2b[__builtin_ctz(sectors)];
    return b;
}

static uint32_t bursts_to_sectors(const MemSys *m, uint32_t bursts)
{
    uint32_t s = 0;
    for (; bursts; bursts &= bursts - 1) s |= m->b2s[__builtin_ctz(bursts)];
    return s;
}

/* ---- completions ------------------------------------------------------------------- */

static int rec_none(const SmPort *p) { return p->rec_free < 0 && p->rec_fresh == p->rec_end; }

static int rec_alloc(MemSys *m, int sm)
{
    SmPort *p = &m->sm[sm];
    int r = p->rec_free;
    if (r >= 0) p->rec_free = m->rec[r].next_free;
    else r = p->rec_fresh++;
    m->rec[r].sm = sm;
    return r;
}

static void rec_free(MemSys *m, int r)
{
    SmPort *p = &m->sm[m->rec[r].sm];
    m->rec[r].next_free = p->rec_free;
    p->rec_free = r;
    p->gen_rec++;
}

/* One line part of access r is done at cycle `when`. */
static void rec_part(MemSys *m, int r, uint64_t when)
{
    Rec *x = &m->rec[r];
    if (when > x->done) x->done = when;
    if (--x->pending == 0) doneq_push(&m->done, x->done, r);
}

/* rec_part in lane L's part of a step: a completed record waits in the
 * lane's list for step to queue it. */
static void rec_part_lane(MemSys *m, MemLane *L, int r, uint64_t when)
{
    Rec *x = &m->rec[r];
    if (when > x->done) x->done = when;
    if (--x->pending) return;
    int k = L->sm_lo * m->recs_per_sm + L->nfin++;
    m->fin[k] = r;
    m->fin_at[k] = x->done;
}

/* ---- partition lanes ---------------------------------------------------------------- */

/* Add counters held apart (an SM's in deferred mode, a lane's) to `to`
 * and clear them: every field a uint64_t sum. */
static void stats_move(MemStats *to, MemStats *from)
{
    _Static_assert(sizeof(MemStats) % sizeof(uint64_t) == 0, "MemStats holds uint64_t counters only");
    uint64_t *t = (uint64_t *)to, *f = (uint64_t *)from;
    for (size_t w = 0; w < sizeof(MemStats) / sizeof(uint64_t); w++) t[w] += f[w];
    memset(from, 0, sizeof *from);
}

/* Slice s belongs to channel s % channels (slices is a multiple of
 * channels, so an address's slice and channel agree). */
static int slice_channel(const MemSys *m, int s) { return s % m->channels; }

static int lane_of_slice(const MemSys *m, int s)
{
    int c = slice_channel(m, s), i = 0;
    while (c >= m->lane[i].c_hi) i++;
    return i;
}

/* Lanes > 1: slice s took a request or sent a reply, so its crossbar bits
 * want syncing after the step (part_merge). */
static void touch(MemSys *m, int s)
{
    Slice *S = &m->sl[s];
    if (m->nlanes == 1 || S->touched) return;
    MemLane *L = &m->lane[lane_of_slice(m, s)];
    S->touched = 1;
    L->touched[L->ntouched++] = s;
}

/* The lanes' L2 counters, into MemSys.st (they are read only from there,
 * through memsys_stats, and before the lanes change). */
static void lanes_stats(MemSys *m)
{
    for (int i = 0; m->nlanes > 1 && i < m->nlanes; i++) stats_move(&m->st, &m->lane[i].st);
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

void memsys_set_lanes(MemSys *m, int n, MemRunFn run, void *ctx)
{
    if (n > m->maxlanes) n = m->maxlanes;   /* a lane has a channel at least */
    if (n < 1 || !run) n = 1;
    lanes_stats(m);                          /* the old lanes' counters, before the slices point elsewhere */
    for (int i = 0; i < n; i++) {
        MemLane *L = &m->lane[i];
        L->c_lo = (int)((int64_t)m->channels * i / n);
        L->c_hi = (int)((int64_t)m->channels * (i + 1) / n);
        L->sm_lo = (int)((int64_t)m->nsms * i / n);
        L->sm_hi = (int)((int64_t)m->nsms * (i + 1) / n);
        /* between steps the lanes hold no acknowledgements or touched
         * slices (part_merge took them), only the `at`s of their channels'
         * reads in the controller (at most batch_cap distinct): gathered
         * afresh */
        L->batch_head = L->nbatch = 0;
        for (int c = L->c_lo; c < L->c_hi; c++)
            for (int k = 0; k < m->ctrl[c].n; k++) {
                uint64_t at = m->ctrl[c].e[(m->ctrl[c].head + k) % m->ctrl[c].cap].at;
                int seen = 0;
                for (int j = 0; j < L->nbatch && !seen; j++) seen = L->batch_at[j] == at;
                if (!seen && L->nbatch < L->batch_cap) L->batch_at[L->nbatch++] = at;
            }
        qsort(L->batch_at, (size_t)L->nbatch, sizeof *L->batch_at, cmp_u64);
    }
    m->nlanes = n;
    m->run = n > 1 ? run : NULL;
    m->run_ctx = n > 1 ? ctx : NULL;
    for (int s = 0; s < m->slices; s++) m->sl[s].st = n > 1 ? &m->lane[lane_of_slice(m, s)].st : &m->st;
    icnt_set_deferred(m->rep, n > 1);
    icnt_set_deferred_pop(m->req, n > 1);
}

int memsys_lanes(const MemSys *m) { return m->nlanes; }

/* ---- create ------------------------------------------------------------------------ */

static void dram_done(void *ctx, uint64_t addr, uint32_t bursts, uint64_t id, uint64_t now);

MemSys *memsys_create(const Config *c, int num_sms)
{
    if (num_sms < 1 || memsys_unsupported(c)) return NULL;
    MemSys *m = calloc(1, sizeof *m);
    if (!m) return NULL;
    m->nsms = num_sms;
    m->slices = c->l2.slices;
    m->channels = c->dram.channels;
    m->warp_size = c->sm.warp_size;
    m->max_warps = c->sm.max_warps > 0 ? c->sm.max_warps : 1;
    m->line_bytes = c->l2.line_bytes;
    m->sector_bytes = c->l2.sector_bytes;
    m->ib_shift = __builtin_ctz((unsigned)c->dram.interleave_bytes);   /* a power of two (memsys_unsupported) */
    m->ib_mask = (uint64_t)c->dram.interleave_bytes - 1;
    m->phash = c->dram.partition_hash;
    m->l1_enabled = c->l1.enabled;
    m->l1_hit = c->l1.hit_lat;
    m->l2_hit = c->l2.hit_lat;
    m->l2_wr = c->l2.write_cycles;
    m->l2_wr_sector = c->l2.write_sector_cycles;
    m->atom_lane = c->l2.atom_lane_cycles;
    m->icnt_lat = c->icnt.latency;
    m->ctrl_lat = c->dram.ctrl_lat;
    m->cc_hit = c->cc.hit_lat;
    m->const_penalty = 2 * c->icnt.latency + c->l2.hit_lat;
    m->l1_wb = c->l1.write_policy == CACHE_WRITE_BACK;
    m->l1_alloc = c->l1.alloc_on_write;
    m->l2_wb = c->l2.write_policy == CACHE_WRITE_BACK;
    m->l2_alloc = c->l2.alloc_on_write;
    m->last_now = 0;
    m->inner_next = m->next = UINT64_MAX;

    /* sector <-> burst maps: a burst smaller than a sector takes several per
     * sector; a burst larger than the line moves the line (and the bytes of
     * the whole burst are counted). */
    m->burst_bytes = c->dram.bus_bits / 8 * c->dram.burst_length;
    int ns = m->line_bytes / m->sector_bytes, B = m->burst_bytes, S = m->sector_bytes, L = m->line_bytes;
    int nb = B >= L ? 1 : L / B;
    for (int s = 0; s < ns; s++) {
        int first = s * S / B, last = ((s + 1) * S - 1) / B;
        for (int b = first; b <= last && b < nb; b++) m->s2b[s] |= 1u << b;
        if (first >= nb) m->s2b[s] |= 1u << (nb - 1);
    }
    for (int b = 0; b < nb; b++) {
        int end = (b + 1) * B < L ? (b + 1) * B : L;
        for (int s = b * B / S; s <= (end - 1) / S && s < ns; s++) m->b2s[b] |= 1u << s;
    }

    CacheConfig l1 = { .sets = (int)(c->l1.size_bytes / ((int64_t)c->l1.assoc * c->l1.line_bytes)),
                       .ways = c->l1.assoc, .line_bytes = c->l1.line_bytes, .sector_bytes = c->l1.sector_bytes,
                       .write_back = m->l1_wb, .alloc_on_write = m->l1_alloc, .mshrs = c->l1.mshrs,
                       .max_merge = c->l1.mshr_merge, .set_hash = c->l1.set_hash };
    CacheConfig cc = { .sets = (int)(c->cc.size_bytes / ((int64_t)c->cc.assoc * c->cc.line_bytes)),
                       .ways = c->cc.assoc, .line_bytes = c->cc.line_bytes, .sector_bytes = c->cc.line_bytes,
                       .write_back = 0, .alloc_on_write = 0, .mshrs = 0, .max_merge = 0 };
    CacheConfig l2 = { .sets = (int)(c->l2.size_bytes / ((int64_t)c->l2.slices * c->l2.assoc * c->l2.line_bytes)),
                       .ways = c->l2.assoc, .line_bytes = c->l2.line_bytes, .sector_bytes = c->l2.sector_bytes,
                       .write_back = m->l2_wb, .alloc_on_write = m->l2_alloc, .mshrs = c->l2.mshrs,
                       .max_merge = c->l2.mshr_merge };

    m->recs_per_sm = m->max_warps * RECS_PER_WARP;
    m->nrecs = num_sms * m->recs_per_sm;
    m->sm = calloc((size_t)num_sms, sizeof *m->sm);
    m->sleepers = calloc((size_t)num_sms, sizeof *m->sleepers);
    m->sl = calloc((size_t)m->slices, sizeof *m->sl);
    m->rec = zalloc((size_t)m->nrecs, sizeof *m->rec);
    int noq = doneq_init(&m->done, m->nrecs);
    m->fin = zalloc((size_t)m->nrecs, sizeof *m->fin);   /* a record completes once a step at most */
    m->fin_at = zalloc((size_t)m->nrecs, sizeof *m->fin_at);
    int bad = !m->sm || !m->sleepers || !m->sl || !m->rec || noq || !m->fin || !m->fin_at;
    m->l1_cfg = l1;
    /* room for the largest carve-out (memsys_set_l1_bytes): a launch's new
     * L1 geometry then reuses the arrays of an L1 nothing has used */
    m->l1_room = c->l1.unified_bytes > c->l1.size_bytes ? (int)(c->l1.unified_bytes / c->l1.line_bytes) : 0;
    for (int i = 0; !bad && i < num_sms; i++) {
        SmPort *p = &m->sm[i];
        p->l1 = cache_create_room(&l1, m->l1_room);
        p->cc = cache_create(&cc);
        bad = !p->l1 || !p->cc;
        p->rec_free = -1;
        p->rec_fresh = i * m->recs_per_sm;
        p->rec_end = p->rec_fresh + m->recs_per_sm;
        p->kick = UINT64_MAX;
    }
    int nw = c->l2.mshrs * c->l2.mshr_merge;   /* L2 waiters per slice */
    /* Every DRAM read was issued for an L2 MSHR waiter, which stays
     * allocated until that read's data fills the line: at most nw reads per
     * slice are anywhere between the L2 and the DRAM, the delay included. */
    m->ctrl = calloc((size_t)m->channels, sizeof *m->ctrl);
    bad = bad || !m->ctrl;
    for (int c = 0; !bad && m->ctrl_lat > 0 && c < m->channels; c++) {
        m->ctrl[c].cap = m->slices / m->channels * nw;
        m->ctrl[c].e = zalloc((size_t)m->ctrl[c].cap, sizeof *m->ctrl[c].e);
        bad = !m->ctrl[c].e;
    }
    m->ack_rec = calloc((size_t)m->slices, sizeof *m->ack_rec);
    m->maxlanes = m->channels < MEMSYS_MAX_LANES ? m->channels : MEMSYS_MAX_LANES;
    m->lane = calloc((size_t)m->maxlanes, sizeof *m->lane);
    bad = bad || !m->ack_rec || !m->lane;
    for (int i = 0; !bad && i < m->maxlanes; i++) {
        MemLane *L = &m->lane[i];
        L->acks = calloc((size_t)m->slices, sizeof *L->acks);   /* at most one a slice a step */
        L->touched = calloc((size_t)m->slices, sizeof *L->touched);
        L->batch_cap = m->ctrl_lat + 2;                          /* the `at`s in (last step, last step + ctrl_lat] */
        L->batch_at = calloc((size_t)L->batch_cap, sizeof *L->batch_at);
        /* a fill wakes at most one MSHR's waiters */
        L->woken = calloc((size_t)(c->l1.mshr_merge > 0 ? c->l1.mshr_merge : 1), sizeof *L->woken);
        bad = !L->acks || !L->touched || !L->batch_at || !L->woken;
    }
    for (int s = 0; !bad && s < m->slices; s++) {
        Slice *x = &m->sl[s];
        x->l2 = cache_create(&l2);
        x->w = zalloc((size_t)nw, sizeof *x->w);
        x->woken = calloc((size_t)(c->l2.mshr_merge > 0 ? c->l2.mshr_merge : 1), sizeof *x->woken);
        x->st = &m->st;
        bad = !x->l2 || !x->w || !x->woken;
        x->w_free = -1;
        x->w_fresh = 0;
        x->w_end = nw;
    }
    /* Request crossbar: an SM's port takes queue_depth flits, or one whole
     * access when empty (up to 2 packets per line: a miss and an L1
     * write-back).  Each slice buffers queue_depth packets beyond the
     * l2.hit_lat cycles of its pipeline (at most one arrival per cycle). */
    IcntParams rq = { .nsrc = num_sms, .ndst = m->slices, .latency = c->icnt.latency, .flit_bytes = c->icnt.flit_bytes,
                      .queue_flits = c->icnt.queue_depth, .src_slots = c->icnt.queue_depth + 2 * MAX_LINES, .lookahead = c->icnt.lookahead,
                      .dst_slots = c->l2.hit_lat + c->icnt.queue_depth + 1 };
    /* Reply crossbar: a slice stops taking requests while its port holds
     * more than queue_depth flits; fills of requests it already took may
     * still add one reply per MSHR waiter. */
    IcntParams rp = { .nsrc = m->slices, .ndst = num_sms, .latency = c->icnt.latency, .flit_bytes = c->icnt.flit_bytes,
                      .queue_flits = c->icnt.queue_depth, .src_slots = c->icnt.queue_depth + nw + 2, .lookahead = c->icnt.lookahead,
                      .dst_slots = c->icnt.latency + c->icnt.queue_depth + 8 };
    if (!bad) {
        m->req = icnt_create(&rq);
        m->rep = icnt_create(&rp);
        DramParams dp;
        dram_params_from_config(&dp, c);
        m->dram = dram_create(&dp, dram_done, m);
        bad = !m->req || !m->rep || !m->dram;
    }
    if (bad) { memsys_destroy(m); return NULL; }
    memsys_set_lanes(m, 1, NULL, NULL);
    return m;
}

void memsys_destroy(MemSys *m)
{
    if (!m) return;
    for (int i = 0; m->sm && i < m->nsms; i++) {
        cache_destroy(m->sm[i].l1);
        cache_destroy(m->sm[i].cc);
    }
    for (int s = 0; m->sl && s < m->slices; s++) {
        cache_destroy(m->sl[s].l2);
        zfree(m->sl[s].w);
        free(m->sl[s].woken);
    }
    for (int c = 0; m->ctrl && c < m->channels; c++) zfree(m->ctrl[c].e);
    for (int i = 0; m->lane && i < m->maxlanes; i++) {
        free(m->lane[i].acks);
        free(m->lane[i].touched);
        free(m->lane[i].batch_at);
        free(m->lane[i].woken);
    }
    free(m->lane);
    free(m->ack_rec);
    icnt_destroy(m->req);
    icnt_destroy(m->rep);
    dram_destroy(m->dram);
    free(m->ctrl);
    free(m->sm);
    free(m->sleepers);
    free(m->sl);
    zfree(m->rec);
    doneq_free(&m->done);
    free(m->arr);
    zfree(m->fin);
    zfree(m->fin_at);
    free(m);
}

/* ---- the SM side: coalescing ------------------------------------------------------- */

static void add_line_sector(MemSys *m, uint64_t pa, int lane)
{
    uint64_t la = pa / (uint64_t)m->line_bytes * (uint64_t)m->line_bytes;
    uint32_t bit = 1u << (pa % (uint64_t)m->line_bytes / (uint64_t)m->sector_bytes);
    int j = acc.nlines;
    while (j > 0 && acc.line[j - 1].addr > la) j--;
    if (j > 0 && acc.line[j - 1].addr == la) {
        acc.line[j - 1].mask |= bit;
        acc.line[j - 1].lanes |= 1u << lane;
        return;
    }
    if (acc.nlines == MAX_LINES) return;
    memmove(&acc.line[j + 1], &acc.line[j], (size_t)(acc.nlines - j) * sizeof acc.line[0]);
    acc.line[j] = (AccLine){ la, bit, 1u << lane };
    acc.nlines++;
}

/* Local memory as CUDA lays it out: 32-bit word w of the thread in lane l
 * of warp slot W (of all SMs) is at
 *   LOCAL_PHYS_BASE + ((w x warps + W) x warp_size + l) x 4,
 * so the lanes of a warp reading the same variable touch consecutive words. */
static void gather_local(MemSys *m, int sm, int slot, const MemAccess *a, uint32_t *bytes_req)
{
    uint64_t W = (uint64_t)sm * (uint64_t)m->max_warps + (uint64_t)(slot % m->max_warps);
    uint64_t NW = (uint64_t)m->nsms * (uint64_t)m->max_warps, ws = (uint64_t)m->warp_size;
    int bytes = a->bytes ? a->bytes : 1;
    LaneMask act = a->mask & (m->warp_size >= 32 ? ~0u : (1u << m->warp_size) - 1u);
    acc.nlines = 0;
    *bytes_req = (uint32_t)pop32(act) * (uint32_t)bytes;
    for (LaneMask lm = act; lm; lm &= lm - 1) {
        int l = __builtin_ctz(lm);
        uint64_t o = a->addr[l];
        for (uint64_t w = o / 4; w <= (o + (uint64_t)bytes - 1) / 4; w++) {
            uint64_t pa = LOCAL_PHYS_BASE + ((w * NW + W) * ws + (uint64_t)l) * 4;
            add_line_sector(m, pa, l);
        }
    }
}

/* co: the caller's coalescing of a (the L1 and the L2 share line and
 * sector sizes: memsys_unsupported), or NULL. */
static void gather_global(MemSys *m, const MemAccess *a, const Coalesced *co, uint32_t *bytes_req)
{
    if (!co) {
        coalesce(a, m->line_bytes, m->sector_bytes, m->warp_size, &acc.co);
        co = &acc.co;
    }
    acc.nlines = co->nlines;
    for (int i = 0; i < co->nlines; i++)
        acc.line[i] = (AccLine){ co->line[i].addr, (uint32_t)co->line[i].sector_mask, co->line[i].lanes };
    *bytes_req = co->bytes_requested;
}

/* The L2 atomic unit serialises lanes on one address: a line's atomic
 * takes as many cycles as the most lanes on any one of its addresses. */
static int atom_cycles(const MemAccess *a, LaneMask lanes)
{
    int most = 1;
    for (LaneMask x = lanes; x; x &= x - 1) {
        int l = __builtin_ctz(x), n = 0;
        for (LaneMask y = lanes; y; y &= y - 1)
            if (a->addr[__builtin_ctz(y)] == a->addr[l]) n++;
        if (n > most) most = n;
        if (most == pop32(lanes)) break;
    }
    return most;
}

/* ---- the SM side: memsys_access ----------------------------------------------------- */

/* aux is a packet's byte: an atomic's lanes on one address fit it whole */
_Static_assert(WARP_MAX <= UINT8_MAX, "IcntPacket.aux holds a warp's lane count");

static void push_req(MemSys *m, int sm, int kind, uint64_t addr, uint32_t mask, int rec, int flits,
                     uint64_t ready, int aux)
{
    IcntPacket p = { .addr = addr, .ready = ready, .mask = mask, .rec = rec, .src = (int16_t)sm,
                     .dst = (int16_t)slice_of(m, addr), .kind = (uint8_t)kind, .flits = (uint16_t)flits,
                     .aux = (uint8_t)aux };
    icnt_push(m->req, &p);
}

static int data_flits(const MemSys *m, const Icnt *n, uint32_t sectors)
{
    return icnt_flits(n, pop32(sectors) * m->sector_bytes);
}

/* What identifies a retried access: the same instruction of the same warp
 * comes back with the same lanes and addresses. */
static uint64_t fingerprint(const MemAccess *a, unsigned flags)
{
    uint64_t h = (uint64_t)a->mask * 0x9e3779b97f4a7c15ull;
    h ^= (uint64_t)a->space | (uint64_t)a->is_store << 8 | (uint64_t)a->is_atomic << 9 | (uint64_t)a->bytes << 10 |
         (uint64_t)flags << 20;
    if (a->mask) {
        h = (h ^ a->addr[__builtin_ctz(a->mask)]) * 0x100000001b3ull;
        h = (h ^ a->addr[31 - __builtin_clz(a->mask)]) * 0x100000001b3ull;
    }
    return h;
}

/* The count of the events that can lift a refusal for cause why. */
static uint64_t refusal_gen(const MemSys *m, int sm, int why)
{
    const SmPort *P = &m->sm[sm];
    uint64_t g = why == RETRY_MSHR ? P->gen_l1 : why == RETRY_ICNT ? icnt_src_sent(m->req, sm) : P->gen_rec;
    return g + (P->gen_acc << 40);
}

/* Where the SM side counts: the memory system's counters, or in deferred
 * mode the port's own, added to them when they are asked for
 * (memsys_stats): sums, the same in any order. */
static MemStats *sm_stats(MemSys *m, SmPort *P)
{
    return m->deferred ? &P->st : &m->st;
}

static int refuse(MemSys *m, SmPort *P, int why)
{
    MemStats *st = sm_stats(m, P);
    if (why == RETRY_MSHR) st->retry_mshr++;
    else if (why == RETRY_ICNT) st->retry_icnt++;
    else st->retry_records++;
    return MEM_RETRY;
}

static int remember(MemSys *m, int sm, int slot, uint32_t tag, uint64_t fp, int why)
{
    SmPort *P = &m->sm[sm];
    P->ref_slot = slot;
    P->ref_tag = tag;
    P->ref_fp = fp;
    P->ref_gen = refusal_gen(m, sm, why);
    P->ref_why = why;
    return refuse(m, P, why);
}

int memsys_access(MemSys *m, int sm, int slot, uint32_t tag, const MemAccess *a, uint64_t now, uint64_t *done)
{
    return memsys_access_ex(m, sm, slot, tag, a, 0, now, done);
}

/* One access's walk through the L1 stage, decided before anything moves:
 * what kind it is, and what it needs (records, MSHRs, crossbar packets). */
typedef struct AccPlan {
    int local, atomic, store, load;
    int uses_l1;              /* l1.enabled governs global accesses; local always uses it */
    int cached_load;          /* a load that looks up and fills the L1 */
    int st_wb, st_alloc;      /* store policy for this access */
    int need_rec, need_mshr, flits, packets;
    uint8_t present[MAX_LINES];   /* cached loads: line present in L1 before the access */
    uint8_t bypass[MAX_LINES];    /* cached loads: read past the L1, no fill (bypass_excess) */
    uint8_t fresh[MAX_LINES];     /* cached loads: the line takes a new line of the L1 */
    uint8_t line_set[MAX_LINES];  /* cached loads: the line's SetUse entry, if it takes a new line */
    uint16_t victim_flits[MAX_LINES];   /* and its victim's write-back flits (0: none) */
} AccPlan;

static void plan_kind(const MemSys *m, const MemAccess *a, unsigned flags, AccPlan *pl)
{
    memset(pl, 0, offsetof(AccPlan, present));
    pl->local = a->space == SP_LOCAL;
    pl->atomic = a->is_atomic;
    pl->store = !pl->atomic && a->is_store;
    pl->load = !pl->atomic && !pl->store;
    pl->uses_l1 = pl->local || m->l1_enabled;
    pl->cached_load = pl->load && pl->uses_l1 && !(!pl->local && (flags & MEMSYS_BYPASS_L1));
    /* Stores in L1: local memory is private to its thread, so the L1 keeps
     * it write-back with allocation whatever l1.write_policy says of global
     * stores (Fermi caches local memory write-back in L1: GPGPU-Sim's "L",
     * local write-back / global write-through, policy). */
    pl->st_wb = pl->local || m->l1_wb;
    pl->st_alloc = pl->local || m->l1_alloc;
}

/* Sets whose ways this access reserves (dry run bookkeeping). */
typedef struct SetUse { int id[MAX_LINES], cnt[MAX_LINES], res[MAX_LINES], n; } SetUse;

static int set_use(SetUse *u, const CacheProbe *pr)
{
    int k = 0;
    while (k < u->n && u->id[k] != pr->set) k++;
    if (k == u->n) { u->id[k] = pr->set; u->cnt[k] = 0; u->res[k] = pr->reserved; u->n++; }
    return k;
}

/* A cached load that alone needs more ways of one set, or more MSHRs,
 * than the L1 has would be refused for ever: the deadlock check stopped
 * nvcc's gemv_row_per_thread on fermi.ini (each lane a row 1 KiB apart:
 * 32 lines in 4 of the 4-way L1's 32 sets) and any load of more than 8
 * lines on tiny.ini (8 MSHRs).  Its last lines that would take a new line
 * go past the L1 instead (read without a fill, as ld.cg reads), until the
 * rest fits an L1 with nothing reserved; that rest still waits for the
 * reservations of others as before.  An access that can fit is planned as
 * it was (bypass cleared). */
static void bypass_excess(const MemSys *m, AccPlan *pl, SetUse *sets)
{
    int ways = m->l1_cfg.ways, mshrs = m->l1_cfg.mshrs, over = pl->need_mshr > mshrs;
    for (int k = 0; k < sets->n && !over; k++) over = sets->cnt[k] > ways;
    if (!over) return;
    for (int i = acc.nlines - 1; i >= 0; i--) {
        if (pl->bypass[i] || !pl->fresh[i]) continue;   /* (bypass: 0 for every line of a cached load) */
        int k = pl->line_set[i];
        if (sets->cnt[k] <= ways && pl->need_mshr <= mshrs) continue;
        pl->bypass[i] = 1;
        sets->cnt[k]--;
        pl->need_mshr--;
        if (pl->victim_flits[i]) { pl->packets--; pl->flits -= pl->victim_flits[i]; }
    }
}

/* Dry run over the lines: what the access needs, so that a refusal changes
 * nothing.  0 if it can go, else the RETRY_* reason. */
static int plan_lines(MemSys *m, SmPort *P, AccPlan *pl)
{
    SetUse sets;
    sets.n = 0;
    for (int i = 0; i < acc.nlines; i++) {
        const AccLine *L = &acc.line[i];
        if (pl->atomic) { pl->packets++; pl->flits += data_flits(m, m->req, L->mask); pl->need_rec = 1; continue; }
        if (pl->load && !pl->cached_load) { pl->packets++; pl->flits += 1; pl->need_rec = 1; continue; }
        if (pl->load) {
            CacheProbe pr = cache_probe(P->l1, L->addr);
            pl->present[i] = (uint8_t)pr.present;
            pl->bypass[i] = pl->fresh[i] = 0;
            uint32_t miss = L->mask & ~pr.valid;
            if (!miss) continue;
            pl->need_rec = 1;
            if (pr.present && pr.has_mshr) {
                if (!pr.merge_free) return RETRY_MSHR;
                if (miss & ~pr.pending) { pl->packets++; pl->flits += 1; }
                continue;
            }
            pl->need_mshr++;   /* reserves the line: a present one, or a victim's way */
            pl->packets++;
            pl->flits += 1;
            uint32_t vd = 0;
            int vf = 0;
            if (!pr.present && cache_victim(P->l1, L->addr, &vd) && vd) { vf = data_flits(m, m->req, vd); pl->packets++; pl->flits += vf; }
            int k = set_use(&sets, &pr);
            sets.cnt[k] += 1;
            pl->line_set[i] = (uint8_t)k;
            pl->victim_flits[i] = (uint16_t)vf;
            pl->fresh[i] = !pr.present;
            continue;
        }
        int forward = 1;   /* write-through without allocation: always */
        if (pl->uses_l1 && (pl->st_wb || pl->st_alloc)) {
            int present = cache_present(P->l1, L->addr);   /* most stores find their line: nothing more to plan */
            forward = !pl->st_wb || (!present && !pl->st_alloc);
            if (!present && pl->st_alloc) {
                CacheProbe pr = cache_probe(P->l1, L->addr);
                uint32_t vd = 0;
                if (cache_victim(P->l1, L->addr, &vd) && vd) { pl->packets++; pl->flits += data_flits(m, m->req, vd); }
                int k = set_use(&sets, &pr);
                /* a write allocation needs an unreserved way but does not reserve it */
                if (sets.res[k] >= m->l1_cfg.ways) return RETRY_MSHR;
            }
        }
        if (forward) { pl->packets++; pl->flits += data_flits(m, m->req, L->mask); pl->need_rec = 1; }
    }
    if (pl->cached_load) bypass_excess(m, pl, &sets);
    if (pl->need_mshr > cache_mshrs_free(P->l1)) return RETRY_MSHR;
    for (int k = 0; k < sets.n; k++)
        if (sets.res[k] + sets.cnt[k] > m->l1_cfg.ways) return RETRY_MSHR;
    return 0;
}

/* The coalescer's counters for an access that goes ahead. */
static void count_access(MemSys *m, SmPort *P, const AccPlan *pl, uint32_t bytes_req)
{
    MemStats *st = sm_stats(m, P);
    uint32_t nsect = 0;
    for (int i = 0; i < acc.nlines; i++) nsect += (uint32_t)pop32(acc.line[i].mask);
    if (pl->atomic) {
        st->atom_requests++;
        st->atom_sectors += nsect;
    } else if (pl->load) {
        st->l1_requests_ld++;
        st->l1_sectors_ld += nsect;
        if (pl->local) { st->local_requests_ld++; st->local_sectors_ld += nsect; }
    } else {
        st->l1_requests_st++;
        st->l1_sectors_st += nsect;
        if (pl->local) { st->local_requests_st++; st->local_sectors_st += nsect; }
    }
    if (!pl->atomic) {
        st->bytes_requested += bytes_req;
        st->bytes_moved += (uint64_t)nsect * (uint64_t)m->sector_bytes;
    }
}

/* A victim the L1 gave up: written back if dirty. */
static void write_back_victim(MemSys *m, int sm, const CacheResult *cr, uint64_t t)
{
    if (cr->evicted) sm_stats(m, &m->sm[sm])->l1_evictions++;
    if (cr->evicted && cr->victim_dirty)
        push_req(m, sm, PK_WRITE, cr->victim_addr, cr->victim_dirty, -1, data_flits(m, m->req, cr->victim_dirty), t + 1, 0);
}

/* The tag stage takes one line per cycle.  Cached loads look up the lines
 * already present first, so an allocation cannot evict a line a later
 * lookup of this same access was counted on.  Returns when the lines that
 * hit are done; record r (if any) counts the lines still in flight. */
static uint64_t issue_lines(MemSys *m, int sm, const MemAccess *a, const AccPlan *pl, int r, uint64_t now)
{
    SmPort *P = &m->sm[sm];
    MemStats *st = sm_stats(m, P);
    uint64_t hit_done = 0;
    int k = 0;
    for (int pass = 0; pass < (pl->cached_load ? 2 : 1); pass++)
        for (int i = 0; i < acc.nlines; i++) {
            const AccLine *L = &acc.line[i];
            if (pl->cached_load && pl->present[i] != (pass == 0)) continue;
            uint64_t t = now + (uint64_t)k++;
            if (pl->atomic) {
                m->rec[r].pending++;
                int svc = atom_cycles(a, L->lanes);
                st->atom_lane_ops += (uint64_t)pop32(L->lanes);
                push_req(m, sm, PK_ATOM, L->addr, L->mask, r, data_flits(m, m->req, L->mask), t + 1, svc);
            } else if (pl->load && !pl->cached_load) {
                m->rec[r].pending++;
                push_req(m, sm, PK_READ_NOFILL, L->addr, L->mask, r, 1, t + 1, 0);
            } else if (pl->load && pl->bypass[i]) {   /* past the L1 (bypass_excess): every sector misses */
                st->l1_sector_misses += (uint64_t)pop32(L->mask);
                P->l1_misses += (uint64_t)pop32(L->mask);
                m->rec[r].pending++;
                push_req(m, sm, PK_READ_NOFILL, L->addr, L->mask, r, 1, t + 1, 0);
            } else if (pl->load) {
                CacheResult cr;
                CacheOutcome o = cache_read(P->l1, L->addr, L->mask, r >= 0 ? (uint32_t)r : CACHE_NO_WAITER, &cr);
                /* Nsight's t-stage counts a tag hit: a sector already valid or
                 * already on its way (requested by an earlier access) hits;
                 * only the sectors this access makes the L1 fetch miss */
                st->l1_sector_hits += (uint64_t)pop32(L->mask & ~cr.fetch);
                st->l1_sector_misses += (uint64_t)pop32(cr.fetch);
                P->l1_hits += (uint64_t)pop32(L->mask & ~cr.fetch);
                P->l1_misses += (uint64_t)pop32(cr.fetch);
                if (o == CACHE_HIT) { hit_done = max64(hit_done, t + (uint64_t)m->l1_hit); continue; }
                m->rec[r].pending++;
                if (cr.merged) st->l1_mshr_merges++;
                if (o == CACHE_HIT_PENDING) continue;
                write_back_victim(m, sm, &cr, t);
                push_req(m, sm, PK_READ, L->addr, cr.fetch, -1, 1, t + 1, 0);
            } else {
                int forward = 1;
                if (pl->uses_l1) {
                    CacheResult cr;
                    cache_write_as(P->l1, L->addr, L->mask, pl->st_wb, pl->st_alloc, &cr);
                    forward = cr.forward;
                    write_back_victim(m, sm, &cr, t);
                }
                if (forward) {
                    m->rec[r].pending++;
                    push_req(m, sm, PK_WRITE, L->addr, L->mask, r, data_flits(m, m->req, L->mask), t + 1, 0);
                } else hit_done = max64(hit_done, t + (uint64_t)m->l1_hit);
            }
        }
    return hit_done;
}

/* An access walks four stages: the coalescer gathers its lines; a dry run
 * plans what it needs in the L1 and the crossbar (a refusal is remembered,
 * so the same retry is answered at once until something changes); the
 * counters count it; the tag stage sends its lines. */
int memsys_access_ex(MemSys *m, int sm, int slot, uint32_t tag, const MemAccess *a, unsigned flags,
                     uint64_t now, uint64_t *done)
{
    return memsys_access_co(m, sm, slot, tag, a, NULL, flags, now, done);
}

int memsys_access_co(MemSys *m, int sm, int slot, uint32_t tag, const MemAccess *a, const Coalesced *co,
                     unsigned flags, uint64_t now, uint64_t *done)
{
    SmPort *P = &m->sm[sm];
    MemStats *st = sm_stats(m, P);
    if (P->sleep) {
        /* the refusals an SM offering every cycle would have had meanwhile */
        uint64_t skipped = now > P->sleep_since + 1 ? now - P->sleep_since - 1 : 0;
        if (P->sleep_why == 0) st->retry_l1_busy += skipped;
        else if (P->sleep_why == RETRY_MSHR) st->retry_mshr += skipped;
        else if (P->sleep_why == RETRY_ICNT) st->retry_icnt += skipped;
        else st->retry_records += skipped;
        P->sleep = 0;
    }
    if (now < P->l1_free) { st->retry_l1_busy++; return MEM_RETRY; }
    uint64_t fp = fingerprint(a, flags);
    int same = P->ref_why && P->ref_slot == slot && P->ref_tag == tag && P->ref_fp == fp;
    if (same && P->ref_gen == refusal_gen(m, sm, P->ref_why)) return refuse(m, P, P->ref_why);
    if (same && P->plan_l1 == P->gen_l1 && P->plan_acc == P->gen_acc) {
        /* the dry run would plan what it planned: only the checks after it can change */
        int why = P->plan_why;
        if (!why && P->plan_packets && !icnt_src_fits(m->req, sm, P->plan_flits, P->plan_packets)) why = RETRY_ICNT;
        if (!why && P->plan_need_rec && rec_none(P)) why = RETRY_RECORDS;
        if (why) return remember(m, sm, slot, tag, fp, why);
    }
    AccPlan pl;
    plan_kind(m, a, flags, &pl);
    uint32_t bytes_req;
    if (pl.local) gather_local(m, sm, slot, a, &bytes_req);
    else gather_global(m, a, co, &bytes_req);
    int n = acc.nlines;
    if (n == 0) { *done = now; return MEM_OK; }

    int why = plan_lines(m, P, &pl);
    P->plan_l1 = P->gen_l1;
    P->plan_acc = P->gen_acc;
    P->plan_why = why;
    P->plan_flits = pl.flits;
    P->plan_packets = pl.packets;
    P->plan_need_rec = pl.need_rec;
    P->plan_reads_l1 = pl.cached_load || (pl.store && pl.uses_l1 && (pl.st_wb || pl.st_alloc));
    if (!why && pl.packets && !icnt_src_fits(m->req, sm, pl.flits, pl.packets)) why = RETRY_ICNT;
    if (!why && pl.need_rec && rec_none(P)) why = RETRY_RECORDS;
    if (why) return remember(m, sm, slot, tag, fp, why);
    P->ref_why = 0;
    P->gen_acc++;

    int r = -1;
    if (pl.need_rec) {
        r = rec_alloc(m, sm);
        Rec *x = &m->rec[r];
        x->slot = slot;
        x->tag = tag;
        x->pending = 1;        /* held until every line is issued */
        x->done = 0;
        x->posted = (flags & MEMSYS_POSTED) != 0;
        P->posted += x->posted;
    }
    count_access(m, P, &pl, bytes_req);
    uint64_t hit_done = issue_lines(m, sm, a, &pl, r, now);
    P->l1_free = now + (uint64_t)n;
    if (pl.packets && m->deferred) {
        P->kick = min64(P->kick, now + 1);   /* memsys_sm_sync tells the memory side */
        P->sync = 1;
    } else if (pl.packets) {
        m->inner_next = min64(m->inner_next, now + 1);
        m->next = min64(m->next, m->inner_next);
    }
    if (r < 0) { *done = hit_done; return MEM_OK; }
    Rec *x = &m->rec[r];
    x->done = max64(x->done, hit_done);
    if (--x->pending == 0) {   /* every line hit after all (merges count as pending) */
        *done = x->done;
        P->posted -= x->posted;
        rec_free(m, r);
        return MEM_OK;
    }
    return MEM_PENDING;
}

int memsys_posted_pending(const MemSys *m)
{
    int n = 0;
    for (int i = 0; i < m->nsms; i++) n += m->sm[i].posted;
    return n;
}

uint64_t memsys_sm_ready(const MemSys *m, int sm) { return m->sm[sm].l1_free; }

int memsys_retry_sleep(MemSys *m, int sm, uint64_t now, uint64_t *when)
{
    SmPort *P = &m->sm[sm];
    if (now < P->l1_free) {
        *when = P->l1_free;
        P->sleep_why = 0;
    } else if (P->ref_why && P->ref_gen == refusal_gen(m, sm, P->ref_why)) {
        *when = UINT64_MAX;
        P->sleep_why = P->ref_why;
        if (P->ref_why == RETRY_ICNT) {
            P->sleep_sent = icnt_src_sent(m->req, sm);
            P->sleep_need = icnt_src_need(m->req, sm, P->plan_flits, P->plan_packets);
        }
        if (P->listed) ;
        else if (m->deferred) { P->listed = 2; P->sync = 1; }   /* listed by memsys_sm_sync, in SM order */
        else { P->listed = 1; m->sleepers[m->nsleep++] = sm; }
    } else {
        return 0;
    }
    P->sleep = 1;
    P->sleep_since = now;
    return 1;
}

/* Would the sleeping SM's held access be refused again, for the same
 * reason?  Surely so while what refused it is as it was (refusal_gen);
 * for a full crossbar port also while fewer packets have left it than the
 * planned access needs and the plan is unchanged (gen_acc, and gen_l1 if
 * the dry run read the L1): an offer at each of those departures would
 * have been refused and counted as the skipped ones are. */
static int refusal_holds(const MemSys *m, int sm)
{
    const SmPort *P = &m->sm[sm];
    if (refusal_gen(m, sm, P->sleep_why) == P->ref_gen) return 1;
    return P->sleep_why == RETRY_ICNT && P->gen_acc == P->plan_acc && (P->gen_l1 == P->plan_l1 || !P->plan_reads_l1) &&
           icnt_src_sent(m->req, sm) - P->sleep_sent < (uint64_t)P->sleep_need;
}

int memsys_woken(MemSys *m, int *out)
{
    int n = 0, k = 0;
    for (int i = 0; i < m->nsleep; i++) {
        int sm = m->sleepers[i];
        SmPort *P = &m->sm[sm];
        int asleep = P->sleep && P->sleep_why;                  /* not offered again already */
        if (asleep && refusal_holds(m, sm)) { m->sleepers[k++] = sm; continue; }
        P->listed = 0;
        if (asleep) out[n++] = sm;
    }
    m->nsleep = k;
    return n;
}

/* ---- constant cache ------------------------------------------------------------------ */

uint64_t memsys_const_access(MemSys *m, int sm, const MemAccess *a, uint64_t now, int *missed)
{
    uint64_t addr[WARP_MAX];
    int n = 0;
    LaneMask act = a->mask & (m->warp_size >= 32 ? ~0u : (1u << m->warp_size) - 1u);
    for (LaneMask x = act; x; x &= x - 1) {
        uint64_t v = a->addr[__builtin_ctz(x)];
        int j = n;
        while (j > 0 && addr[j - 1] > v) j--;
        if (j > 0 && addr[j - 1] == v) continue;
        memmove(&addr[j + 1], &addr[j], (size_t)(n - j) * sizeof addr[0]);
        addr[j] = v;
        n++;
    }
    int misses = 0;
    for (int i = 0; i < n; i++) misses += !cache_touch(m->sm[sm].cc, addr[i]);
    MemStats *st = sm_stats(m, &m->sm[sm]);
    st->const_requests++;
    if (n > 1) st->const_serialized += (uint64_t)(n - 1);
    st->const_misses += (uint64_t)misses;
    if (missed) *missed = misses > 0;
    return now + (uint64_t)m->cc_hit + (uint64_t)(n > 1 ? n - 1 : 0) + (uint64_t)misses * (uint64_t)m->const_penalty;
}

/* ---- the partition side ------------------------------------------------------------- */

static void push_reply(MemSys *m, int s, const L2Wait *w, uint32_t mask, uint64_t ready)
{
    IcntPacket p = { .addr = w->addr, .ready = ready, .mask = mask, .rec = w->rec, .src = (int16_t)s, .dst = w->sm,
                     .kind = (uint8_t)(w->kind == PK_READ ? PK_FILL : PK_DATA),
                     .flits = (uint16_t)data_flits(m, m->rep, mask) };
    icnt_push(m->rep, &p);
    touch(m, s);
}

static void writeback(MemSys *m, int s, uint64_t local, uint32_t dirty, uint64_t now)
{
    MemStats *st = m->sl[s].st;
    st->l2_writebacks++;
    st->l2_writeback_sectors += (uint64_t)pop32(dirty);
    to_dram(m, hashed_of(m, local, s), sectors_to_bursts(m, dirty), 1, now);
}

/* DRAM read data reaches the L2 at cycle now: fill the line, answer the
 * waiters. */
static void l2_fill(MemSys *m, uint64_t addr, uint32_t bursts, uint64_t now)
{
    int s = slice_of(m, addr);
    Slice *S = &m->sl[s];
    uint64_t local = to_local(m, addr);
    CacheWaiter *w = S->woken;
    int n = cache_fill(S->l2, local, bursts_to_sectors(m, bursts), w);
    for (int i = 0; i < n; i++) {
        L2Wait *x = &S->w[w[i].id];
        if (x->kind == PK_ATOM) cache_set_dirty(S->l2, local, w[i].need);
        push_reply(m, s, x, w[i].need, now + 1);
        x->next_free = S->w_free;
        S->w_free = (int)w[i].id;
    }
}

/* The DRAM has moved a read's last data beat (at cycle now).  The memory
 * controller and PHY add dram.ctrl_lat before it reaches the L2: a delay
 * line, not a resource, so any number of reads are in it at once and the
 * DRAM's queue, scheduler and bus never see it.  The L2 line stays pending
 * (its MSHR held) meanwhile, as it would on the chip. */
static void dram_done(void *ctx, uint64_t addr, uint32_t bursts, uint64_t id, uint64_t now)
{
    (void)id;
    MemSys *m = ctx;
    int c = (int)((addr >> m->ib_shift) % (uint64_t)m->channels);   /* addr is hashed: its channel */
    CtrlRing *q = &m->ctrl[c];
    addr = unhash_addr(m, addr);
    if (m->ctrl_lat == 0) { l2_fill(m, addr, bursts, now); return; }
    if (q->n == q->cap) abort();   /* cannot happen: cap bounds the reads in flight */
    uint64_t at = now + (uint64_t)m->ctrl_lat;
    q->e[(q->head + q->n++) % q->cap] = (CtrlRet){ .at = at, .addr = addr, .bursts = bursts };
    MemLane *L = &m->lane[lane_of_slice(m, c)];
    int last = (L->batch_head + L->nbatch - 1 + L->batch_cap) % L->batch_cap;
    if (!L->nbatch || L->batch_at[last] != at) {
        if (L->nbatch == L->batch_cap) abort();   /* cannot happen: at most ctrl_lat + 1 cycles' batches */
        last = (L->batch_head + L->nbatch++) % L->batch_cap;
        L->batch_at[last] = at;
    }
}

/* Channel c's reads leaving the controller by cycle t. */
static void ctrl_stage(MemSys *m, int c, uint64_t t)
{
    CtrlRing *q = &m->ctrl[c];
    while (q->n && q->e[q->head].at <= t) {
        CtrlRet r = q->e[q->head];
        q->head = (q->head + 1) % q->cap;
        q->n--;
        l2_fill(m, r.addr, r.bursts, t);
    }
}

/* The L2 tag stage of slice s takes request p at cycle t.  Returns the
 * cycles it occupies the stage, or -L2_WAIT_* if a resource it needs is
 * full (nothing changed; it stays at the head of the queue). */
static int l2_handle(MemSys *m, int s, const IcntPacket *p, uint64_t t)
{
    Slice *S = &m->sl[s];
    MemStats *st = S->st;
    CacheUnit *c = S->l2;
    uint64_t h = hash_addr(m, p->addr), local = local_of(m, h);
    int ch = slice_channel(m, s);
    uint32_t need = p->mask;
    CacheProbe pr;
    if (p->kind == PK_WRITE) {   /* a write asks only whether the line is there */
        memset(&pr, 0, sizeof pr);
        pr.present = cache_present(c, local);
    } else pr = cache_probe(c, local);
    uint32_t vdirty = 0;
    int vok = pr.present || cache_victim(c, local, &vdirty);
    CacheResult r;
    if (p->kind == PK_WRITE) {
        int absent = !pr.present, alloc = absent && m->l2_alloc;
        if (alloc && !vok) return -L2_WAIT_RESERVED;
        int slots = (alloc && vdirty) + (!m->l2_wb || (absent && !m->l2_alloc));
        if (slots > dram_free_slots(m->dram, ch)) return -L2_WAIT_DRAM;
        cache_write(c, local, need, &r);
        st->l2_sectors_write += (uint64_t)pop32(need);
        st->l2_sector_hits += (uint64_t)pop32(r.hit);
        st->l2_sector_misses += (uint64_t)pop32(r.miss);
        S->hits += (uint64_t)pop32(r.hit);
        S->misses += (uint64_t)pop32(r.miss);
        S->sectors += (uint64_t)pop32(need);
        if (r.evicted && r.victim_dirty) writeback(m, s, r.victim_addr, r.victim_dirty, t);
        if (r.forward) to_dram(m, h, sectors_to_bursts(m, need), 1, t);
        if (p->rec >= 0) {             /* acknowledged: rec_part in part_merge, in slice order */
            MemLane *L = &m->lane[lane_of_slice(m, s)];
            m->ack_rec[s] = p->rec;
            L->acks[L->nacks++] = s;
        }
        return m->l2_wr + m->l2_wr_sector * pop32(need);
    }
    /* reads and atomics; stop taking them while the reply port is over budget.
     * An atomic holds the stage for its lanes on one address, one after
     * another, or for what a store of its sectors costs, whichever is longer
     * (hopper.ini's header: L2 atomics) */
    int occ = 1;
    if (p->kind == PK_ATOM) {
        int lanes = (int)ceil(m->atom_lane * (p->aux ? p->aux : 1) - 1e-9), store = m->l2_wr + m->l2_wr_sector * pop32(need);
        occ = lanes > store ? lanes : store;
    }
    if (!icnt_src_fits(m->rep, s, data_flits(m, m->rep, need), 1)) return -L2_WAIT_REPLY;
    uint32_t miss = need & ~pr.valid;
    if (!miss) {
        cache_read(c, local, need, CACHE_NO_WAITER, &r);
        if (p->kind == PK_ATOM) cache_set_dirty(c, local, need);
        L2Wait w = { .addr = p->addr, .rec = p->rec, .sm = p->src, .kind = p->kind };
        push_reply(m, s, &w, need, t + (uint64_t)occ);
    } else {
        uint32_t fetch = pr.present ? miss & ~pr.pending : need;
        if (!vok) return -L2_WAIT_RESERVED;
        int slots = (fetch != 0) + (vdirty != 0);
        if (slots > dram_free_slots(m->dram, ch)) return -L2_WAIT_DRAM;
        int wi = S->w_free >= 0 ? S->w_free : S->w_fresh < S->w_end ? S->w_fresh : -1;
        if (wi < 0) return -L2_WAIT_MSHR;
        CacheOutcome o = cache_read(c, local, need, (uint32_t)wi, &r);
        if (o != CACHE_MISS && o != CACHE_HIT_PENDING) return -L2_WAIT_MSHR;
        if (wi == S->w_free) S->w_free = S->w[wi].next_free;
        else S->w_fresh++;
        S->w[wi] = (L2Wait){ .addr = p->addr, .rec = p->rec, .sm = p->src, .kind = p->kind, .next_free = -1 };
        if (r.evicted && r.victim_dirty) writeback(m, s, r.victim_addr, r.victim_dirty, t);
        if (r.fetch) to_dram(m, h, sectors_to_bursts(m, r.fetch), 0, t);
    }
    /* tag hits, as for the L1: sectors valid or already requested hit */
    st->l2_sector_hits += (uint64_t)pop32(need & ~r.fetch);
    st->l2_sector_misses += (uint64_t)pop32(r.fetch);
    S->hits += (uint64_t)pop32(need & ~r.fetch);
    S->misses += (uint64_t)pop32(r.fetch);
    S->sectors += (uint64_t)pop32(need);
    if (p->kind == PK_ATOM) {
        st->l2_sectors_atom += (uint64_t)pop32(need);
        st->atom_l2_cycles += (uint64_t)occ;
    } else st->l2_sectors_read += (uint64_t)pop32(need);
    return occ;
}

static void l2_stage(MemSys *m, int s, uint64_t t)
{
    Slice *S = &m->sl[s];
    const IcntPacket *h = icnt_head(m->req, s);
    if (!h || h->arrive + (uint64_t)m->l2_hit > t || S->tag_free > t) return;
    IcntPacket p = *h;
    int occ = l2_handle(m, s, &p, t);
    if (occ < 0) {
        if (!S->blocked) S->blocked_since = t;
        S->blocked = -occ;
        return;
    }
    if (S->blocked) S->st->l2_wait_cycles[S->blocked - 1] += t - S->blocked_since;
    S->blocked = 0;
    icnt_pop(m->req, s);
    touch(m, s);
    S->tag_free = t + (uint64_t)occ;
    S->st->l2_requests++;
}

/* The replies that have reached SM sm by step t leave the crossbar (in
 * step's order, so the ports' room is as it was), into MemSys.arr. */
static void sm_arrivals(MemSys *m, int sm, uint64_t t)
{
    const IcntPacket *h;
    while ((h = icnt_head(m->rep, sm)) && h->arrive <= t) {
        m->arr = grow_for_one(m->arr, &m->caparr, m->narr, sizeof *m->arr, 256);
        m->arr[m->narr++] = *h;
        icnt_pop(m->rep, sm);
    }
}

/* Lane L's SMs take their replies of step t: each fills the L1 (and may
 * complete the accesses waiting on the line) or completes its access.
 * Only those SMs' L1s and records change, so lanes do this at once; what
 * an SM reads of them (its next accesses) comes after the step. */
static void sm_replies(MemSys *m, MemLane *L, uint64_t t)
{
    uint64_t when = t + (uint64_t)m->l1_hit;
    for (int k = L->arr_lo; k < L->arr_hi; k++) {
        const IcntPacket *p = &m->arr[k];
        SmPort *P = &m->sm[p->dst];
        P->gen_l1++;
        if (p->kind == PK_FILL) {
            int n = cache_fill(P->l1, p->addr, p->mask, L->woken);
            for (int i = 0; i < n; i++) rec_part_lane(m, L, (int)L->woken[i].id, when);
        } else rec_part_lane(m, L, p->rec, when);
    }
}

/* A lane's part of step t: its channels' DRAM and controller, then its
 * slices' tag stages, ascending. */
static void part_lane(void *arg, int lane)
{
    MemSys *m = arg;
    MemLane *L = &m->lane[lane];
    uint64_t t = m->step_t;
    sm_replies(m, L, t);
    dram_run_channels(m->dram, L->c_lo, L->c_hi);
    if (L->nbatch && L->batch_at[L->batch_head] <= t) {
        for (int c = L->c_lo; c < L->c_hi; c++) ctrl_stage(m, c, t);
        while (L->nbatch && L->batch_at[L->batch_head] <= t) {   /* all of them taken */
            L->batch_head = L->batch_head + 1 == L->batch_cap ? 0 : L->batch_head + 1;
            L->nbatch--;
        }
    }
    if (L->c_hi - L->c_lo == m->channels)
        for (int s = 0; s < m->slices; s++) l2_stage(m, s, t);
    else
        for (int base = 0; base < m->slices; base += m->channels)
            for (int c = L->c_lo; c < L->c_hi; c++) l2_stage(m, base + c, t);   /* ascending */
}

/* After the lanes' parts: the store acknowledgements in slice order, as
 * one lane gives them (each lane's list ascends: merged), and with several
 * lanes the crossbars' busy bits of the slices they touched. */
static void part_merge(MemSys *m)
{
    if (m->nlanes == 1) {                  /* one list, nothing deferred */
        MemLane *L = &m->lane[0];
        for (int i = 0; i < L->nacks; i++) rec_part(m, m->ack_rec[L->acks[i]], m->step_t + (uint64_t)m->icnt_lat);
        L->nacks = 0;
        return;
    }
    int pos[MEMSYS_MAX_LANES] = { 0 };
    for (;;) {
        int best = -1;
        for (int i = 0; i < m->nlanes; i++)
            if (pos[i] < m->lane[i].nacks && (best < 0 || m->lane[i].acks[pos[i]] < m->lane[best].acks[pos[best]])) best = i;
        if (best < 0) break;
        rec_part(m, m->ack_rec[m->lane[best].acks[pos[best]++]], m->step_t + (uint64_t)m->icnt_lat);
    }
    for (int i = 0; i < m->nlanes; i++) {
        MemLane *L = &m->lane[i];
        L->nacks = 0;
        for (int j = 0; j < L->ntouched; j++) {
            int sl = L->touched[j];
            icnt_sync_src(m->rep, sl);
            icnt_sync_dst(m->req, sl);
            m->sl[sl].touched = 0;
        }
        L->ntouched = 0;
    }
}

static void step(MemSys *m, uint64_t t)
{
    /* the replies, SM by SM: lane i's are arr[arr_lo, arr_hi) */
    m->narr = 0;
    for (int li = 0, i = icnt_next_dst(m->rep, 0); li < m->nlanes; li++) {
        MemLane *L = &m->lane[li];
        L->arr_lo = m->narr;
        for (; i >= 0 && i < L->sm_hi; i = icnt_next_dst(m->rep, i + 1)) sm_arrivals(m, i, t);
        L->arr_hi = m->narr;
    }
    icnt_step(m->rep, t);
    dram_run_begin(m->dram, t);
    m->step_t = t;
    if (m->nlanes > 1) m->run(m->run_ctx, m->nlanes, part_lane, m);
    else part_lane(m, 0);
    /* the records the replies completed, in the SMs' order */
    for (int li = 0; li < m->nlanes; li++) {
        MemLane *L = &m->lane[li];
        for (int k = L->sm_lo * m->recs_per_sm, e = k + L->nfin; k < e; k++) doneq_push(&m->done, m->fin_at[k], m->fin[k]);
        L->nfin = 0;
    }
    part_merge(m);
    icnt_step(m->req, t);
}

/* The next cycle after step t at which a unit can act (at least t + 1:
 * anything at or before it counts as t + 1, so the crossbars' scans stop
 * at the first such cycle). */
static uint64_t compute_inner_next(const MemSys *m, uint64_t t)
{
    /* cheapest first; once one says t + 1, the rest cannot say less */
    uint64_t n = icnt_next_event(m->rep, t + 1);
    for (int i = 0; i < m->nlanes; i++)
        if (m->lane[i].nbatch) n = min64(n, m->lane[i].batch_at[m->lane[i].batch_head]);
    for (int i = icnt_next_dst(m->rep, 0); i >= 0 && n > t + 1; i = icnt_next_dst(m->rep, i + 1))
        n = min64(n, icnt_head(m->rep, i)->arrive);
    for (int s = icnt_next_dst(m->req, 0); s >= 0 && n > t + 1; s = icnt_next_dst(m->req, s + 1)) {
        const IcntPacket *h = icnt_head(m->req, s);
        if (h && !m->sl[s].blocked) n = min64(n, max64(h->arrive + (uint64_t)m->l2_hit, m->sl[s].tag_free));
    }
    if (n > t + 1) n = min64(n, dram_next_event(m->dram));
    if (n > t + 1) n = min64(n, icnt_next_event(m->req, t + 1));
    return n;
}

static void sync_stats(MemSys *m)
{
    lanes_stats(m);
    DramStats d;
    dram_stats(m->dram, &d);
    m->st.dram_bytes_read = d.bytes_read;
    m->st.dram_bytes_write = d.bytes_write + m->flush_bytes;
    m->st.dram_flush_bytes = m->flush_bytes;
    m->st.dram_reads = d.reads;
    m->st.dram_writes = d.writes + m->flush_writes;
    m->st.dram_row_hits = d.row_hits;
    m->st.dram_row_misses = d.row_misses;
    m->st.dram_row_conflicts = d.row_conflicts;
    m->st.dram_activates = d.activates;
    m->st.dram_precharges = d.precharges;
    m->st.dram_busy_cycles = d.busy_clocks;
    const IcntStats *q = icnt_stats(m->req), *p = icnt_stats(m->rep);
    m->st.icnt_req_packets = q->packets;
    m->st.icnt_req_flits = q->flits;
    m->st.icnt_reply_packets = p->packets;
    m->st.icnt_reply_flits = p->flits;
}

int memsys_tick(MemSys *m, uint64_t now, MemDone *out, int max)
{
    if (now > m->last_now) m->last_now = now;
    if (m->next > now) return 0;
    while (m->inner_next <= now) {
        uint64_t t = m->inner_next;
        step(m, t);
        uint64_t n = compute_inner_next(m, t);
        m->inner_next = n > t ? n : t + 1;   /* every unit's output is ready the next cycle */
    }
    int k = 0, r[64];
    for (int n = 1; k < max && n > 0;) {
        n = doneq_pop(&m->done, now, r, max - k < 64 ? max - k : 64);
        for (int i = 0; i < n; i++) {
            Rec *x = &m->rec[r[i]];
            if (x->posted) m->sm[x->sm].posted--;   /* nobody waits: the warp may be gone */
            else out[k++] = (MemDone){ x->sm, x->slot, x->tag };
            rec_free(m, r[i]);
        }
    }
    m->next = min64(m->inner_next, doneq_next(&m->done));
    return k;
}

uint64_t memsys_next_event(const MemSys *m) { return m->next; }

int memsys_busy(const MemSys *m)
{
    int ctrl = 0;
    for (int c = 0; m->ctrl && c < m->channels; c++) ctrl |= m->ctrl[c].n;
    return doneq_count(&m->done) || icnt_busy(m->req) || icnt_busy(m->rep) || dram_busy(m->dram) || ctrl ||
           m->inner_next != UINT64_MAX;
}

static void flush_count(MemSys *m, uint32_t dirty)
{
    m->flush_bytes += (uint64_t)pop32(sectors_to_bursts(m, dirty)) * (uint64_t)m->burst_bytes;
    m->flush_writes++;
    m->st.l2_writebacks++;
    m->st.l2_writeback_sectors += (uint64_t)pop32(dirty);
}

/* A dirty L1 line goes to its L2 slice (or, if the L2 does not keep it,
 * straight to the DRAM count). */
static void flush_l1_line(void *ctx, uint64_t addr, uint32_t dirty)
{
    MemSys *m = ctx;
    CacheResult r;
    CacheOutcome o = cache_write(m->sl[slice_of(m, addr)].l2, to_local(m, addr), dirty, &r);
    if (o == CACHE_FAIL_RESERVED || r.forward) flush_count(m, dirty);
    if (r.evicted && r.victim_dirty) flush_count(m, r.victim_dirty);
}

static void flush_l2_line(void *ctx, uint64_t addr, uint32_t dirty)
{
    (void)addr;
    flush_count(ctx, dirty);
}

void memsys_flush(MemSys *m)
{
    for (int i = 0; i < m->nsms; i++) cache_flush(m->sm[i].l1, flush_l1_line, m);
    for (int s = 0; s < m->slices; s++) cache_flush(m->sl[s].l2, flush_l2_line, m);
    sync_stats(m);
}

const MemStats *memsys_stats(MemSys *m)
{
    for (int i = 0; i < m->nsms; i++) stats_move(&m->st, &m->sm[i].st);   /* deferred mode's (sm_stats) */
    sync_stats(m);     /* the DRAM's and crossbars' counters, summed when asked for, not every step */
    /* elapsed DRAM clocks: those starting before core cycle last_now + 1 */
    m->st.dram_cycles = dram_from_core(dram_params(m->dram), m->last_now + 1) * (uint64_t)m->channels;
    return &m->st;
}

void memsys_set_deferred(MemSys *m, int on)
{
    m->deferred = on;
    icnt_set_deferred(m->req, on);
}

void memsys_sm_sync(MemSys *m, int lo, int hi)
{
    for (int i = lo; i < hi; i++) {
        SmPort *P = &m->sm[i];
        if (!P->sync) continue;
        P->sync = 0;
        icnt_sync_src(m->req, i);
        if (P->listed == 2) { P->listed = 1; m->sleepers[m->nsleep++] = i; }
        if (P->kick != UINT64_MAX) {
            m->inner_next = min64(m->inner_next, P->kick);
            m->next = min64(m->next, m->inner_next);
            P->kick = UINT64_MAX;
        }
    }
}

int64_t memsys_l1_bytes(const MemSys *m)
{
    return (int64_t)m->l1_cfg.sets * m->l1_cfg.ways * m->l1_cfg.line_bytes;
}

/* ---- per-unit counters (observers) ------------------------------------------------ */

int memsys_partitions(const MemSys *m) { return m->channels; }

void memsys_sm_counters(const MemSys *m, int sm, MemSmCounters *out)
{
    const SmPort *P = &m->sm[sm];
    int free_recs = P->rec_end - P->rec_fresh;
    for (int r = P->rec_free; r >= 0; r = m->rec[r].next_free) free_recs++;
    *out = (MemSmCounters){ P->l1_hits, P->l1_misses, m->recs_per_sm - free_recs };
}

void memsys_part_counters(const MemSys *m, int part, MemPartCounters *out)
{
    memset(out, 0, sizeof *out);
    for (int s = part; s < m->slices; s += m->channels) {
        out->l2_sector_hits += m->sl[s].hits;
        out->l2_sector_misses += m->sl[s].misses;
        out->l2_sectors += m->sl[s].sectors;
    }
    const DramStats *d = dram_channel_stats(m->dram, part);
    out->dram_bytes = d->bytes_read + d->bytes_write;
    out->dram_queue = dram_params(m->dram)->queue_depth - dram_free_slots(m->dram, part);
}

/* Give every SM an empty L1 of geometry l1: the old one's dirty lines
 * (local memory) go to L2 first, as memsys_flush writes them; the L1 is
 * emptied in place (cache_reset: its arrays have room for the largest
 * carve-out; one nothing used since is not flushed or cleared).  Each
 * launch on a unified-L1 config with invalidate_on_launch asks twice: its
 * carve-out, then the invalidation. */
static int replace_l1s(MemSys *m, const CacheConfig *l1)
{
    for (int i = 0; i < m->nsms; i++) {
        SmPort *P = &m->sm[i];
        cache_flush(P->l1, flush_l1_line, m);
        if (cache_reset(P->l1, l1)) {   /* no room for l1 in its arrays */
            CacheUnit *c = cache_create_room(l1, m->l1_room);
            if (!c) return -1;
            cache_destroy(P->l1);
            P->l1 = c;
        }
        P->gen_l1++;                /* a remembered refusal no longer holds */
    }
    m->l1_cfg = *l1;
    return 0;
}

int memsys_set_l1_bytes(MemSys *m, int64_t bytes)
{
    if (bytes == memsys_l1_bytes(m) || memsys_busy(m)) return 0;   /* between launches only */
    CacheConfig l1 = m->l1_cfg;
    int lines = (int)(bytes / l1.line_bytes);
    int sets = 1;
    while (sets < lines && (lines / sets > 64 || lines % sets)) sets *= 2;
    if (lines < 1 || lines % sets) return -1;
    l1.sets = sets;
    l1.ways = lines / sets;
    return replace_l1s(m, &l1);
}

int memsys_invalidate_l1(MemSys *m)
{
    if (memsys_busy(m)) return 0;   /* between launches only */
    CacheConfig l1 = m->l1_cfg;
    return replace_l1s(m, &l1);   /* an L1 a launch's carve-out left empty costs nothing (cache_reset) */
}
