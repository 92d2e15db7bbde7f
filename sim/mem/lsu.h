/* lsu.h - the load/store unit's view of one warp memory instruction: how
 * many shared-memory wavefronts it needs (bank conflicts, smem.c), or how
 * many requests, 32-byte sectors and cache lines it touches (coalesce.c).
 *
 * The counts depend only on the access pattern, so the functional engine
 * and the timing model both call lsu_account() right after warp_issue()
 * and report the same Nsight-named counters; the timing model also uses the
 * cost to occupy the pipe.  No state. */
#ifndef GPUSIM_LSU_H
#define GPUSIM_LSU_H

#include "sim/base/config.h"
#include "sim/base/stats.h"
#include "sim/mem/access.h"
#include "sim/mem/coalesce.h"

typedef struct LsuCost {
    int wavefronts;      /* shared: passes through the banks (>= 1) */
    int sectors, lines;  /* global/local: distinct 32-byte sectors and cache lines */
    int coalesced;       /* a global load or store: *co holds its coalescing */
} LsuCost;

/* Count one access into st (per source line too) and return its cost.  co
 * (NULL: a scratch of its own) receives the coalescing of a global access
 * at the L1's line and sector sizes, for memsys_access_co. */
LsuCost lsu_account(const Config *c, const MemAccess *a, uint32_t line, Stats *st, Coalesced *co);

#endif
