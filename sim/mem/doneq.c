/* doneq.c - see doneq.h. */
#include "sim/mem/doneq.h"

#include <stdlib.h>

int doneq_init(DoneQ *q, int ids)
{
    *q = (DoneQ){ 0 };
    size_t n = ids > 0 ? (size_t)ids : 1;
    q->head = malloc(DONEQ_WHEEL * sizeof *q->head);
    q->tail = malloc(DONEQ_WHEEL * sizeof *q->tail);
    q->next = malloc(n * sizeof *q->next);
    q->heap = malloc(n * sizeof *q->heap);
    if (!q->head || !q->tail || !q->next || !q->heap) { doneq_free(q); return -1; }
    for (int b = 0; b < DONEQ_WHEEL; b++) q->head[b] = -1;
    q->first = UINT64_MAX;
    return 0;
}

void doneq_free(DoneQ *q)
{
    free(q->head);
    free(q->tail);
    free(q->next);
    free(q->heap);
    *q = (DoneQ){ 0 };
    q->first = UINT64_MAX;
}

static uint64_t min64(uint64_t a, uint64_t b) { return a < b ? a : b; }

/* ---- the heap: (cycle, push) order ---------------------------------------------- */
static int before(const DoneQEntry *a, const DoneQEntry *b) { return a->at != b->at ? a->at < b->at : a->seq < b->seq; }

static void heap_push(DoneQ *q, uint64_t at, uint64_t seq, int id)
{
    DoneQEntry d = { at, seq, id };
    int i = q->nheap++;
    while (i > 0) {
        int p = (i - 1) / 2;
        if (!before(&d, &q->heap[p])) break;
        q->heap[i] = q->heap[p];
        i = p;
    }
    q->heap[i] = d;
}

static DoneQEntry heap_pop(DoneQ *q)
{
    DoneQEntry top = q->heap[0], last = q->heap[--q->nheap];
    int i = 0, n = q->nheap;
    for (;;) {
        int c = 2 * i + 1;
        if (c >= n) break;
        if (c + 1 < n && before(&q->heap[c + 1], &q->heap[c])) c++;
        if (!before(&q->heap[c], &last)) break;
        q->heap[i] = q->heap[c];
        i = c;
    }
    if (n) q->heap[i] = last;
    return top;
}

/* ---- the lists ------------------------------------------------------------------- */
static void append(DoneQ *q, uint64_t at, int id)
{
    int b = (int)(at & (DONEQ_WHEEL - 1));
    q->next[id] = -1;
    if (q->head[b] < 0) q->head[b] = id;
    else q->next[q->tail[b]] = id;
    q->tail[b] = id;
    q->occ[b / 64] |= 1ull << (b % 64);
    q->n++;
}

void doneq_push(DoneQ *q, uint64_t at, int id)
{
    uint64_t seq = q->seq++;
    if (at < q->first) q->first = at;
    if (at >= q->cur && at - q->cur < DONEQ_WHEEL) append(q, at, id);
    else heap_push(q, at, seq, id);
}

/* Every cycle before `to` has been popped: the heap's ids the window now
 * reaches go to their lists, in (cycle, push) order, before any push can
 * add to those lists. */
static void advance(DoneQ *q, uint64_t to)
{
    q->cur = to;
    while (q->nheap && q->heap[0].at >= to && q->heap[0].at - to < DONEQ_WHEEL) {
        DoneQEntry d = heap_pop(q);
        append(q, d.at, d.id);
    }
}

/* The first cycle from cur on whose list is not empty (q->n > 0): the
 * occupancy words from cur's bit round to the bit before it. */
static uint64_t list_next(const DoneQ *q)
{
    enum { NW = DONEQ_WHEEL / 64 };
    int b0 = (int)(q->cur & (DONEQ_WHEEL - 1));
    for (int k = 0; k <= NW; k++) {
        int wi = (b0 / 64 + k) % NW;
        uint64_t bits = q->occ[wi];
        if (k == 0) bits &= ~0ull << (b0 % 64);
        else if (k == NW) bits &= (1ull << (b0 % 64)) - 1;
        if (bits) {
            int b = wi * 64 + __builtin_ctzll(bits);
            return q->cur + (uint64_t)((b - b0) & (DONEQ_WHEEL - 1));
        }
    }
    return UINT64_MAX;
}

static int pop_due(DoneQ *q, uint64_t now, int *ids, int max)
{
    int k = 0;
    for (;;) {
        /* ids pushed for a cycle already passed come first: theirs is earlier */
        while (k < max && q->nheap && q->heap[0].at < q->cur && q->heap[0].at <= now) ids[k++] = heap_pop(q).id;
        if (k == max || q->cur > now) return k;
        int b = (int)(q->cur & (DONEQ_WHEEL - 1));
        while (k < max && q->head[b] >= 0) {
            ids[k++] = q->head[b];
            q->head[b] = q->next[q->head[b]];
            q->n--;
        }
        if (q->head[b] >= 0) return k;
        q->occ[b / 64] &= ~(1ull << (b % 64));
        /* on to the next cycle with a list, the heap's first (beyond the
         * lists), or past now, whichever comes first */
        uint64_t to = min64(now + 1, q->nheap ? q->heap[0].at : UINT64_MAX);
        if (q->n) to = min64(to, list_next(q));
        advance(q, to);
    }
}

int doneq_pop(DoneQ *q, uint64_t now, int *ids, int max)
{
    if (q->first > now || max <= 0) return 0;   /* most calls: nothing due */
    int k = pop_due(q, now, ids, max);
    uint64_t n = q->nheap ? q->heap[0].at : UINT64_MAX;
    q->first = q->n ? min64(n, list_next(q)) : n;
    return k;
}
