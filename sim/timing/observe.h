/* observe.h - what the timing model tells an observer while it runs.
 *
 * The timing model knows nothing of files or screens: the front end (the
 * visual trace, the stepper) hands it an Observer, and the model calls it
 * as things happen.  Every call is read-only for the model: an observer can
 * never change a run, and a run without one does no extra work.
 *
 *   state   a warp spent cycles [from, to) in state r at source line `line`
 *           (the same intervals the stall counters are charged with);
 *   issue   a warp issued the instruction at pc in `cycle`: active lanes,
 *           lanes whose guard was true, and for memory instructions the
 *           access;
 *   cycle   the cycle loop finished a cycle in which the observed SM
 *           (GpuStep.sm) changed; `skipped` cycles passed since the last
 *           such call with nothing changing (--step prints here);
 *   sample  (optional: NULL for none) the whole GPU's running totals at
 *           `cycle`: warp instructions and the memory system's counters
 *           (NULL under mem.model=fixed).  Called at the first cycle the
 *           loop reaches in each period of `sample_every` cycles (the loop
 *           skips idle cycles, so samples are at least that far apart),
 *           and once when a launch ends.
 */
#ifndef GPUSIM_OBSERVE_H
#define GPUSIM_OBSERVE_H

#include <stdint.h>

#include "sim/base/lanes.h"
#include "sim/base/stats.h"
#include "sim/mem/access.h"
#include "sim/mem/memsys.h"

/* Which warp: launch, block (linear index and coordinates), warp in block. */
typedef struct TraceWarp {
    int launch;
    uint64_t cta;
    uint32_t ctaid[3];
    int warp;
    int sm, slot;
} TraceWarp;

typedef struct Observer {
    void *ctx;
    void (*state)(void *ctx, const TraceWarp *w, StallReason r, uint64_t from, uint64_t to, uint32_t line);
    void (*issue)(void *ctx, const TraceWarp *w, uint64_t cycle, uint32_t pc, LaneMask active,
                  LaneMask exec, const MemAccess *mem);
    void (*sample)(void *ctx, uint64_t cycle, uint64_t inst, const MemStats *ms);
    uint64_t sample_every;
} Observer;

#endif
