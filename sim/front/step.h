/* step.h - step mode (--step): the classroom walk-through.  After each
 * simulated cycle in which something changed on the chosen SM, prints what
 * each scheduler issued, every resident warp's pc, active mask and state,
 * and the SIMT stack of one warp, so a class can follow a divergent branch
 * and its reconvergence by hand.  Read-only: it never changes the run. */
#ifndef GPUSIM_STEP_H
#define GPUSIM_STEP_H

#include "sim/timing/gpu.h"
#include "sim/timing/sm.h"

/* Print cycle t->now of SM t->step->sm to the FILE * ctx; `skipped` is how
 * many cycles since the last print passed with no change (a GpuStep.print). */
void step_print(void *ctx, const Timing *t, const Sm *sm, uint64_t skipped);

#endif
