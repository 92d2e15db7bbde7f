/* access.h - one warp's memory access as the memory system sees it: the
 * state space, the kind (load, store, atomic), the bytes per lane and each
 * active lane's address.  The functional core fills it when a memory
 * instruction executes (exec.c); the LSU, the coalescer, the shared-memory
 * banks and the hierarchy read it.  No instruction, no warp: only the
 * request, so nothing in sim/mem/ needs to know how it was made. */
#ifndef GPUSIM_ACCESS_H
#define GPUSIM_ACCESS_H

#include <stdint.h>

#include "isa/isa.h"              /* Space */
#include "sim/base/lanes.h"

typedef struct MemAccess {
    uint8_t space;               /* resolved Space (generic accesses resolved) */
    uint8_t is_store, is_atomic;
    uint8_t bytes;               /* per lane, vector included */
    LaneMask mask;
    uint64_t addr[WARP_MAX];     /* state-space address per lane */
} MemAccess;

#endif
