/* exec.h - the data semantics of one instruction: registers, predicates
 * and memory for a warp's executing lanes, with PTX's rules.  Knows
 * semantics, not time; control flow (branches, exit, barriers) is
 * warp_issue's (warp.h), which calls in here. */
#ifndef GPUSIM_EXEC_H
#define GPUSIM_EXEC_H

#include "sim/core/kernel.h"

/* What one issued warp instruction did, for the timing model: the lanes it
 * ran and its memory access (addresses per lane). */
typedef struct ExecOut {
    LaneMask exec;               /* lanes that executed (guard true) */
    int has_mem;
    MemAccess mem;
} ExecOut;

/* Data semantics of one instruction (exec.c): registers, predicates and
 * memory for the lanes in `exec`; fills out->mem.  0 ok, -1 fault. */
int exec_instr(Kernel *k, Warp *w, const Instr *in, LaneMask exec, ExecOut *out);
/* What exec_instr decides of each instruction of k->entry once, not at
 * every issue (Kernel.rows); -1 if out of memory. */
int exec_prepare(Kernel *k);

/* Apply a global store or atomic held back at issue (k->defer, kernel.h):
 * its lanes in ascending lane order. */
void exec_replay(Kernel *k, const Deferred *d);

/* A call of the built-in vprintf (CALL_VPRINTF, CUDA's printf): formats each
 * executing lane's line from its memory and keeps it for the end of the
 * launch (printf.h); writes the result .param.  0 ok, -1 fault. */
int exec_vprintf(Kernel *k, Warp *w, const Instr *in, const CallSite *cs, LaneMask exec);

#endif
