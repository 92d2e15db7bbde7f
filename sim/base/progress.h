/* progress.h - how far a long run has got, for the front end to show
 * (sim/front/main.c: --progress).
 *
 * The simulator calls tick() now and then: every 4,096 turns of the timing
 * model's cycle loop (from the loop itself, between phases: the host
 * threads are idle), and every 2^20 warp instructions and every block of a
 * --functional run.  clear() comes before anything else is written (a
 * kernel's printf at the end of each launch) and at the end of the run.
 * What the front end shows never goes into a report or changes one. */
#ifndef GPUSIM_PROGRESS_H
#define GPUSIM_PROGRESS_H

#include <stdint.h>

typedef struct ProgressPoint {
    int launch;                    /* index of the running launch */
    int functional;                /* no cycles: a --functional run */
    uint64_t cycles;               /* of this launch so far */
    uint64_t warp_inst;            /* issued so far, all launches of the run */
    uint64_t blocks_started;       /* of this launch */
    uint64_t blocks;               /* in this launch's grid */
} ProgressPoint;

typedef struct Progress {
    void (*tick)(void *ctx, const ProgressPoint *at);
    void (*clear)(void *ctx);
    void *ctx;
} Progress;

#endif
