/* warp.h - issuing a warp's next instruction, and block barriers.
 *
 * warp_issue() is THE place where architectural state changes: it executes
 * the instruction at the warp's pc for its active lanes (exec.c), applies
 * control flow to the SIMT stack and counts it.  The functional engine calls
 * it in a loop; the timing model calls it when a scheduler issues the warp.
 */
#ifndef GPUSIM_WARP_H
#define GPUSIM_WARP_H

#include <stdint.h>

#include "sim/core/exec.h"
#include "sim/core/kernel.h"

typedef enum IssueResult { ISSUE_OK, ISSUE_BARRIER, ISSUE_ARRIVE, ISSUE_DONE, ISSUE_FAULT } IssueResult;

/* Issue the instruction at w's pc (see above). */
IssueResult warp_issue(Kernel *k, Warp *w, ExecOut *out);
/* The same with the run-time checks of k->check (check.h) around it.  The
 * engines pick one or the other, so that with the checks off the issue
 * path is what it was without them. */
IssueResult warp_issue_checked(Kernel *k, Warp *w, ExecOut *out);
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

#endif
