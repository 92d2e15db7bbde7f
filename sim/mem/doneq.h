/* doneq.h - accesses waiting for the cycle they complete at.
 *
 * The memory system's completions leave in (cycle, push) order: by cycle,
 * and in the order they were pushed within one.  A binary heap gives that
 * at log n a push and a pop; this is a calendar instead: one FIFO list a
 * cycle for the DONEQ_WHEEL cycles from `cur` on (push and pop O(1)), and
 * the rare completion further ahead (or, defensively, before `cur`) in a
 * heap ordered by (cycle, push).  A heap entry moves to its cycle's list as
 * soon as the window reaches it, before anything else can be pushed there,
 * so each list stays in push order.  test_doneq pins the order.
 */
#ifndef GPUSIM_DONEQ_H
#define GPUSIM_DONEQ_H

#include <stdint.h>

enum { DONEQ_WHEEL = 1024 };   /* cycles of lists (a power of two) */

typedef struct DoneQEntry {
    uint64_t at, seq;
    int id;
} DoneQEntry;

typedef struct DoneQ {
    int *head, *tail;          /* per list: first and last id, -1 empty */
    int *next;                 /* per id: the next in its list */
    uint64_t occ[DONEQ_WHEEL / 64];   /* bit b: list b is not empty */
    int n;                     /* ids in the lists */
    uint64_t cur;              /* every cycle before it has been popped */
    uint64_t first;            /* the earliest cycle queued, UINT64_MAX if none */
    DoneQEntry *heap;          /* cycles outside [cur, cur + DONEQ_WHEEL) */
    int nheap;
    uint64_t seq;
} DoneQ;

/* For ids 0 .. ids-1, each queued at most once at a time.  0, or -1 if out
 * of memory. */
int doneq_init(DoneQ *q, int ids);
void doneq_free(DoneQ *q);
/* id completes at cycle `at`. */
void doneq_push(DoneQ *q, uint64_t at, int id);
/* Up to max ids completing at or before `now`, in (cycle, push) order. */
int doneq_pop(DoneQ *q, uint64_t now, int *ids, int max);
/* The earliest cycle queued, UINT64_MAX if none. */
static inline uint64_t doneq_next(const DoneQ *q) { return q->first; }
static inline int doneq_count(const DoneQ *q) { return q->n + q->nheap; }

#endif
