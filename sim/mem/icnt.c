/* icnt.c - see icnt.h.  Queues are rings of packets. */
#include "sim/mem/icnt.h"
#include "sim/base/lanes.h"

#include <stdlib.h>
#include <string.h>

/* icnt_step looks at destinations first from this many queued sources on */
#define ICNT_GLANCE_SOURCES 16

typedef struct Ring {
    IcntPacket *p;
    int head, n, cap;          /* cap: the queue's room; the array is mask + 1, a power of two */
    int mask;
} Ring;

/* icnt_src_need's histogram: queued packets by flits, the last bucket
 * for this many or more */
enum { FLIT_BUCKETS = 8 };

typedef struct Src {
    Ring q;
    int flits;                 /* queued flits */
    int by_flits[FLIT_BUCKETS];   /* queued packets by flits (FLIT_BUCKETS - 1: that many or more) */
    uint64_t free_at;          /* the port is busy before this cycle */
    uint64_t sent;
} Src;

typedef struct Dst {
    Ring q;                    /* crossing or arrived, in start order */
    uint64_t free_at;
} Dst;

struct Icnt {
    IcntParams p;
    Src *src;
    Dst *dst;
    /* bit i: source (destination) i has packets queued, so that a step or
     * a look at the next event visits only those, in the same order */
    uint64_t *src_busy, *dst_busy;
    /* per source, dwords words: bit d, a packet of its window goes to
     * destination d (wcnt: how many, ndst counts a source); and a step's
     * scratch, bit d: d can take a packet */
    uint64_t *win, *open;
    uint8_t *wcnt;
    int dwords;
    int deferred;              /* icnt_set_deferred */
    int deferred_pop;          /* icnt_set_deferred_pop */
    IcntStats st;
};

static void bit_set(uint64_t *b, int i) { b[i >> 6] |= 1ull << (i & 63); }
static void bit_clear(uint64_t *b, int i) { b[i >> 6] &= ~(1ull << (i & 63)); }

/* The first set bit at or after i and before end, or -1. */
static int bit_next(const uint64_t *b, int i, int end)
{
    while (i < end) {
        uint64_t w = b[i >> 6] >> (i & 63);
        if (w) {
            int k = i + __builtin_ctzll(w);
            return k < end ? k : -1;
        }
        i = (i | 63) + 1;
    }
    return -1;
}

static int ring_init(Ring *r, int cap)
{
    r->cap = cap > 0 ? cap : 1;
    r->head = r->n = 0;
    int size = 1;
    while (size < r->cap) size *= 2;
    r->mask = size - 1;
    /* on a host line: two packets a line.  Entries are read only once
     * pushed (cache.c: why not zalloc) */
    size_t bytes = ((size_t)size * sizeof *r->p + 63) / 64 * 64;
    r->p = aligned_alloc(64, bytes);
    return r->p ? 0 : -1;
}

/* Entry i (0 <= i < cap) after the head. */
static IcntPacket *ring_at(const Ring *r, int i) { return &r->p[(r->head + i) & r->mask]; }

static void ring_push(Ring *r, const IcntPacket *p)
{
    *ring_at(r, r->n) = *p;
    r->n++;
}

static void ring_pop(Ring *r)
{
    r->head = (r->head + 1) & r->mask;
    r->n--;
}

Icnt *icnt_create(const IcntParams *p)
{
    if (p->nsrc < 1 || p->ndst < 1 || p->flit_bytes < 1 || p->queue_flits < 1 || p->latency < 0) return NULL;
    Icnt *n = calloc(1, sizeof *n);
    if (!n) return NULL;
    n->p = *p;
    if (n->p.lookahead < 1) n->p.lookahead = 1;   /* 1: the head only */
    if (n->p.src_slots < n->p.queue_flits) n->p.src_slots = n->p.queue_flits;
    n->src = calloc((size_t)p->nsrc, sizeof *n->src);
    n->dst = calloc((size_t)p->ndst, sizeof *n->dst);
    n->src_busy = calloc((size_t)(p->nsrc + 63) / 64, sizeof *n->src_busy);
    n->dst_busy = calloc((size_t)(p->ndst + 63) / 64, sizeof *n->dst_busy);
    n->dwords = (p->ndst + 63) / 64;
    n->win = calloc((size_t)p->nsrc * (size_t)n->dwords, sizeof *n->win);
    n->open = calloc((size_t)n->dwords, sizeof *n->open);
    n->wcnt = calloc((size_t)p->nsrc * (size_t)p->ndst, 1);
    int bad = !n->src || !n->dst || !n->src_busy || !n->dst_busy || !n->win || !n->open || !n->wcnt ||
              n->p.lookahead > UINT8_MAX;
    for (int i = 0; !bad && i < p->nsrc; i++) bad = ring_init(&n->src[i].q, n->p.src_slots);
    for (int i = 0; !bad && i < p->ndst; i++) bad = ring_init(&n->dst[i].q, p->dst_slots);
    if (bad) { icnt_destroy(n); return NULL; }
    return n;
}

void icnt_destroy(Icnt *n)
{
    if (!n) return;
    for (int i = 0; n->src && i < n->p.nsrc; i++) free(n->src[i].q.p);
    for (int i = 0; n->dst && i < n->p.ndst; i++) free(n->dst[i].q.p);
    free(n->src);
    free(n->dst);
    free(n->src_busy);
    free(n->dst_busy);
    free(n->win);
    free(n->open);
    free(n->wcnt);
    free(n);
}

int icnt_flits(const Icnt *n, int bytes)
{
    int f = (bytes + n->p.flit_bytes - 1) / n->p.flit_bytes;
    return f > 0 ? f : 1;
}

int icnt_src_fits(const Icnt *n, int src, int flits, int packets)
{
    const Src *s = &n->src[src];
    if (s->q.n + packets > s->q.cap) return 0;
    return s->flits == 0 || s->flits + flits <= n->p.queue_flits;
}

int icnt_src_need(const Icnt *n, int src, int flits, int packets)
{
    const Src *s = &n->src[src];
    if (icnt_src_fits(n, src, flits, packets)) return 0;
    int need = s->q.n + packets - s->q.cap;   /* slots */
    if (flits > n->p.queue_flits) {           /* only a queue without flits takes it */
        int carrying = s->q.n - s->by_flits[0];
        if (carrying > need) need = carrying;
    } else {
        int maxf = FLIT_BUCKETS - 1, excess = s->flits + flits - n->p.queue_flits;   /* > 0: the flits do not fit */
        if (s->by_flits[maxf])                /* the largest, looked up */
            for (int j = 0; j < s->q.n; j++) { if (ring_at(&s->q, j)->flits > maxf) maxf = ring_at(&s->q, j)->flits; }
        else
            while (maxf > 1 && !s->by_flits[maxf]) maxf--;
        int k = excess > 0 ? (excess + maxf - 1) / maxf : 0;
        if (k > need) need = k;
    }
    return need > 1 ? need : 1;
}

int icnt_src_flits(const Icnt *n, int src) { return n->src[src].flits; }
uint64_t icnt_src_sent(const Icnt *n, int src) { return n->src[src].sent; }

static int window(const Icnt *n, const Src *s)
{
    return s->q.n < n->p.lookahead ? s->q.n : n->p.lookahead;
}

/* A packet to destination d enters (add 1) or leaves (-1) source i's window. */
static void win_count(Icnt *n, int i, int d, int add)
{
    uint8_t *c = &n->wcnt[(size_t)i * (size_t)n->p.ndst + (size_t)d];
    uint64_t *w = &n->win[(size_t)i * (size_t)n->dwords];
    *c = (uint8_t)(*c + add);
    if (*c) bit_set(w, d);
    else bit_clear(w, d);
}

int icnt_push(Icnt *n, const IcntPacket *p)
{
    Src *s = &n->src[p->src];
    if (s->q.n == s->q.cap) return -1;
    ring_push(&s->q, p);
    if (s->q.n <= n->p.lookahead) win_count(n, p->src, p->dst, 1);   /* it is in the window */
    s->flits += p->flits;
    s->by_flits[p->flits < FLIT_BUCKETS ? p->flits : FLIT_BUCKETS - 1]++;
    if (!n->deferred) bit_set(n->src_busy, p->src);   /* else icnt_sync_src's: another thread may set a bit of the word */
    return 0;
}

void icnt_set_deferred(Icnt *n, int on) { n->deferred = on; }

void icnt_sync_src(Icnt *n, int src)
{
    if (n->src[src].q.n) bit_set(n->src_busy, src);
}

void icnt_set_deferred_pop(Icnt *n, int on) { n->deferred_pop = on; }

void icnt_sync_dst(Icnt *n, int dst)
{
    if (!n->dst[dst].q.n) bit_clear(n->dst_busy, dst);
}

/* Packet j of a source's queue leaves: the packets before it keep their order. */
static void ring_take(Ring *r, int j)
{
    for (int m = j; m > 0; m--) *ring_at(r, m) = *ring_at(r, m - 1);
    ring_pop(r);
}


/* Sources with packets queued, at most `enough`. */
static int busy_sources(const Icnt *n, int enough)
{
    int c = 0;
    for (int i = 0; i < (n->p.nsrc + 63) / 64 && c < enough; i++) c += bits64(n->src_busy[i]);
    return c;
}

void icnt_step(Icnt *n, uint64_t now)
{
    int ns = n->p.nsrc, first = (int)(now % (uint64_t)ns);
    /* With many sources queued, most windows only hold packets for busy
     * or full destinations: the destinations that can take one this step
     * (fewer as the step goes on: a destination that takes a packet is
     * busy for the rest of it) let such a window be passed over at a
     * glance.  With few, looking at their packets is cheaper. */
    int glance = busy_sources(n, ICNT_GLANCE_SOURCES) >= ICNT_GLANCE_SOURCES;
    const int dw = n->dwords;
    uint64_t *open = n->open;
    uint64_t blocked = 0;                /* the counters, kept out of the loop's stores */
    if (glance) {
        memset(open, 0, (size_t)dw * sizeof *open);
        for (int d = 0; d < n->p.ndst; d++)
            if (n->dst[d].free_at <= now && n->dst[d].q.n < n->dst[d].q.cap) {
                bit_set(open, d);
                /* the slot a packet it takes goes to, on its way into the
                 * host's caches: otherwise most of a step's stores miss */
                __builtin_prefetch(ring_at(&n->dst[d].q, n->dst[d].q.n), 1);
            }
    }
    /* sources take turns: this cycle's first is now % nsrc; those with
     * nothing queued do nothing, so only the busy ones are visited */
    for (int pass = 0; pass < 2; pass++)
    for (int i = bit_next(n->src_busy, pass ? 0 : first, pass ? first : ns); i >= 0;
         i = bit_next(n->src_busy, i + 1, pass ? first : ns)) {
        Src *s = &n->src[i];
        if (s->free_at > now) continue;
        if (glance) {
            const uint64_t *w = &n->win[(size_t)i * (size_t)dw];
            uint64_t any = w[0] & open[0];
            if (dw > 1) any |= w[1] & open[1];
            for (int k = 2; k < dw; k++) any |= w[k] & open[k];
            if (!any) {                /* as the scan below would find: nothing can go */
                blocked += ring_at(&s->q, 0)->ready <= now;
                continue;
            }
        }
        /* the oldest ready packet of the window whose destination can take it */
        int w = window(n, s), j = 0;
        IcntPacket *p = NULL;
        Dst *d = NULL;
        for (; j < w; j++) {
            p = ring_at(&s->q, j);
            d = &n->dst[p->dst];
            if (p->ready <= now && d->free_at <= now && d->q.n < d->q.cap) break;
            if (j == 0 && p->ready <= now) blocked++;
        }
        if (j == w) continue;
        uint64_t f = p->flits ? p->flits : 1;
        p->arrive = now + (uint64_t)n->p.latency + f - 1;
        if (p->arrive <= now) p->arrive = now + 1;
        s->free_at = d->free_at = now + f;
        ring_push(&d->q, p);
        bit_set(n->dst_busy, p->dst);
        if (glance) bit_clear(open, p->dst);   /* busy until now + f */
        s->flits -= p->flits;
        s->by_flits[p->flits < FLIT_BUCKETS ? p->flits : FLIT_BUCKETS - 1]--;
        s->sent++;
        win_count(n, i, p->dst, -1);
        ring_take(&s->q, j);
        if (s->q.n >= n->p.lookahead) win_count(n, i, ring_at(&s->q, n->p.lookahead - 1)->dst, 1);   /* the next one moves up into it */
        if (!s->q.n) bit_clear(n->src_busy, i);
        n->st.packets++;
        n->st.flits += f;
    }
    n->st.blocked += blocked;
}

const IcntPacket *icnt_head(const Icnt *n, int dst)
{
    const Dst *d = &n->dst[dst];
    return d->q.n ? ring_at(&d->q, 0) : NULL;
}

void icnt_pop(Icnt *n, int dst)
{
    if (n->dst[dst].q.n) ring_pop(&n->dst[dst].q);
    if (!n->dst[dst].q.n && !n->deferred_pop) bit_clear(n->dst_busy, dst);   /* else icnt_sync_dst's */
}

int icnt_next_dst(const Icnt *n, int from) { return from < 0 ? -1 : bit_next(n->dst_busy, from, n->p.ndst); }

uint64_t icnt_next_event(const Icnt *n, uint64_t floor)
{
    uint64_t best = UINT64_MAX;
    for (int i = bit_next(n->src_busy, 0, n->p.nsrc); i >= 0; i = bit_next(n->src_busy, i + 1, n->p.nsrc)) {
        const Src *s = &n->src[i];
        for (int j = 0, w = window(n, s); j < w; j++) {
            const IcntPacket *p = ring_at(&s->q, j);
            const Dst *d = &n->dst[p->dst];
            if (d->q.n == d->q.cap) continue;
            uint64_t t = p->ready;
            if (s->free_at > t) t = s->free_at;
            if (d->free_at > t) t = d->free_at;
            if (t < best) best = t;
            if (best <= floor) return best;   /* nothing can be earlier than the caller's floor */
        }
    }
    return best;
}

int icnt_busy(const Icnt *n)
{
    for (int i = 0; i < n->p.nsrc; i++)
        if (n->src[i].q.n) return 1;
    for (int i = 0; i < n->p.ndst; i++)
        if (n->dst[i].q.n) return 1;
    return 0;
}

const IcntStats *icnt_stats(const Icnt *n) { return &n->st; }
