/* gpu.h - the whole GPU for one launch: the block (CTA) dispatcher and the
 * cycle loop over the SMs.
 *
 * Blocks go to SMs in linear order, at most one per SM per cycle, round
 * robin over SMs that have room for all of its resources.  Each cycle every
 * SM runs in id order; when no SM can change anything before cycle c, the
 * clock jumps to c (nothing is lost: warp states are charged by interval).
 */
#ifndef GPUSIM_GPU_H
#define GPUSIM_GPU_H

#include <stdint.h>
#include <stdio.h>

#include "sim/config.h"
#include "sim/memsys.h"
#include "sim/occupancy.h"
#include "sim/trace.h"
#include "sim/warp.h"

/* Run launch li with timing, starting at cycle *now (updated to the end).
 * ms is the memory hierarchy (kept across launches: caches stay warm), or
 * NULL for fixed memory latencies.  max_cycles bounds this launch (0: no
 * bound).  0 ok, -1 fault. */
typedef struct GpuStep { FILE *out; int sm, warp; } GpuStep;   /* --step */

int gpu_run_launch(const Program *p, int li, Memory *m, Stats *st, const Config *cfg, MemSys *ms,
                   Trace *trace, const GpuStep *step, uint64_t *now, uint64_t max_cycles, Fault *fault);

#endif
