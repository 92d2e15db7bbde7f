/* warp.h - warps, thread blocks (CTAs) and the running kernel.
 *
 * A Kernel is one .launch in progress: the program and entry, the parameter
 * bytes, the memory image, the counters and the fault record.  A Cta holds a
 * block's shared memory, local memory and warps; a Warp holds its registers
 * (structure of arrays: register-major, lane-minor), predicate lane masks and
 * SIMT stack.
 *
 * warp_issue() is THE place where architectural state changes: it executes
 * the instruction at the warp's pc for its active lanes (exec.c), applies
 * control flow to the SIMT stack and counts it.  The functional engine calls
 * it in a loop; the timing model calls it when a scheduler issues the warp.
 */
#ifndef GPUSIM_WARP_H
#define GPUSIM_WARP_H

#include <stdint.h>

#include "isa/isa.h"
#include "sim/mem.h"
#include "sim/simt.h"
#include "sim/stats.h"

enum { WARP_MAX = 32 };          /* lanes in a LaneMask */

typedef enum FaultKind {
    FAULT_NONE, FAULT_OUT_OF_BOUNDS, FAULT_MISALIGNED, FAULT_BARRIER, FAULT_DEADLOCK,
    FAULT_WATCHDOG, FAULT_MEMBERMASK
} FaultKind;

typedef struct Fault {
    FaultKind kind;
    int launch;                  /* index of the .launch */
    uint32_t cta[3];             /* block */
    int warp;                    /* warp in the block, -1 if several */
    int lane;                    /* first faulting lane, -1 if none */
    uint32_t tid[3];             /* that lane's thread index */
    uint32_t pc;
    uint32_t line;
    char msg[600];
} Fault;

typedef struct Kernel Kernel;
typedef struct Cta Cta;

typedef struct Warp {
    int id;                      /* warp index within its CTA */
    Cta *cta;
    SimtStack simt;
    LaneMask valid;              /* lanes that are threads of the block */
    LaneMask live;               /* valid lanes that have not exited */
    uint64_t *r;                 /* r[reg * warp_size + lane] */
    LaneMask *p;                 /* predicate registers, one bit per lane */
    int at_barrier;              /* waiting at bar.sync */
    uint32_t barrier_pc;
    int barrier_id;              /* 0-15 */
    uint64_t issued;             /* warp instructions issued */
} Warp;

struct Cta {
    uint32_t id[3];
    uint64_t linear;             /* x fastest, then y, then z */
    int nthreads, nwarps;
    Warp *warps;
    uint8_t *smem; uint32_t smem_bytes;
    uint8_t *lmem; uint32_t lmem_bytes;   /* per thread */
    int live_warps;              /* warps with live lanes */
    int smid;
    uint32_t bar_arrived[16];    /* threads counted at each barrier (warps x warp size) */
};

struct Kernel {
    const Program *prog;
    const Entry *entry;
    const LaunchSpec *spec;
    int launch_index;
    Memory *mem;
    Stats *stats;
    int warp_size;
    int nsms, max_warps_per_sm;
    uint8_t *params;
    uint32_t param_bytes;
    uint64_t nctas;
    uint64_t clock;              /* %clock: cycles (timing) or steps (functional) */
    int machine;                 /* core.schedule=machine: entry is the back end's
                                    machine order; counts are machine instructions */
    Fault fault;
};

/* What one issued warp instruction did, for the timing model: the lanes it
 * ran, its memory access (addresses per lane), and how control moved. */
typedef struct MemAccess {
    uint8_t space;               /* resolved Space (generic accesses resolved) */
    uint8_t is_store, is_atomic;
    uint8_t bytes;               /* per lane, vector included */
    LaneMask mask;
    uint64_t addr[WARP_MAX];     /* state-space address per lane */
} MemAccess;

typedef enum IssueResult { ISSUE_OK, ISSUE_BARRIER, ISSUE_ARRIVE, ISSUE_DONE, ISSUE_FAULT } IssueResult;

typedef struct ExecOut {
    LaneMask exec;               /* lanes that executed (guard true) */
    int has_mem;
    MemAccess mem;
} ExecOut;

/* Set up a kernel for spec (parameters from the .launch args). */
int kernel_init(Kernel *k, const Program *p, int launch_index, Memory *mem, Stats *st,
                int warp_size, int nsms, int max_warps_per_sm);
void kernel_free(Kernel *k);
/* Issue the back end's machine order (machine = 1) or the source order. */
void kernel_use_schedule(Kernel *k, int machine);
/* Block linear index -> CTA with fresh warps, registers, shared and local
 * memory. */
int cta_init(Kernel *k, Cta *c, uint64_t linear, int smid);
void cta_free(Cta *c);

/* Issue the instruction at w's pc (see above). */
IssueResult warp_issue(Kernel *k, Warp *w, ExecOut *out);
static inline int warp_done(const Warp *w) { return simt_done(&w->simt); }
static inline uint32_t warp_pc(Warp *w) { return simt_top(&w->simt)->pc; }
static inline LaneMask warp_active(Warp *w) { return simt_top(&w->simt)->mask; }

/* Barrier bookkeeping of a CTA (PTX bar.sync/bar.arrive a[, b]): each warp
 * arriving at barrier a counts warp_size threads; the barrier completes when
 * b threads (default: every live warp of the block) have arrived, releasing
 * the warps waiting on it.  Warps released together from different bar.sync
 * instructions are barrier divergence (seed 004, figure 4.4); a block whose
 * live warps all wait on barriers that cannot complete is a deadlock.
 * Returns 1 if warps were released, 0 if none, -1 on a fault. */
int cta_barrier_check(Kernel *k, Cta *c);

/* Fill k->fault for warp w at its pc (lane -1: the whole warp). */
void kernel_fault(Kernel *k, const Warp *w, int lane, FaultKind kind, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

/* Data semantics of one instruction (exec.c): registers, predicates and
 * memory for the lanes in `exec`; fills out->mem.  0 ok, -1 fault. */
int exec_instr(Kernel *k, Warp *w, const Instr *in, LaneMask exec, ExecOut *out);

#endif
