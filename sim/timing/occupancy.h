/* occupancy.h - how many blocks of a kernel fit on one SM, and which
 * resource binds (the CUDA occupancy calculator, seeds 003 and 004).
 *
 * A block needs, all at once: a block slot, its warps (threads rounded up to
 * whole warps), registers (per warp, rounded up to the allocation unit) and
 * shared memory (rounded up to its allocation unit).  Pure arithmetic on the
 * config and the entry; the dispatcher uses the same numbers.
 */
#ifndef GPUSIM_OCCUPANCY_H
#define GPUSIM_OCCUPANCY_H

#include <stdint.h>

#include "sim/base/config.h"

typedef enum OccLimiter { OCC_BLOCKS, OCC_WARPS, OCC_REGISTERS, OCC_SHARED, OCC_COUNT } OccLimiter;

typedef struct Occupancy {
    int threads_per_block, warps_per_block;
    int regs_per_thread, regs_per_warp;     /* regs_per_warp after rounding */
    uint32_t smem_per_block;                /* after rounding */
    int limit[OCC_COUNT];                   /* blocks per SM each resource allows */
    int blocks;                             /* the minimum: blocks per SM */
    OccLimiter binding;                     /* first resource reaching it */
    int active_warps;                       /* blocks x warps_per_block */
    double theoretical_pct;                 /* active_warps / max_warps */
    double waves;                           /* grid blocks / (blocks x SMs) */
    char error[160];                        /* non-empty if a block can never fit */
} Occupancy;

/* Fill o for blocks of `threads` threads using regs_per_thread registers and
 * smem bytes of shared memory, for a grid of grid_blocks. */
void occupancy_compute(Occupancy *o, const Config *c, int threads, int regs_per_thread,
                       uint32_t smem, uint64_t grid_blocks);
const char *occupancy_limiter_name(OccLimiter l);

#endif
