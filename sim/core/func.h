/* func.h - the functional engine (--functional): runs a launch to completion
 * with no timing, block after block, each warp until it blocks at a barrier
 * or finishes.  Fast, and the reference the timing model must agree with:
 * both drive the same warp_issue(), so they leave the same memory. */
#ifndef GPUSIM_FUNC_H
#define GPUSIM_FUNC_H

#include <stdint.h>

#include "sim/base/config.h"
#include "sim/base/progress.h"
#include "sim/core/warp.h"

struct Checker;

/* Run launch li of p.  max_steps bounds the warp instructions of one block
 * (0: no bound; the watchdog); chk: the run-time checks, or NULL; prog:
 * where to tell how far it got, or NULL; slow: Kernel.slow.  0 ok, -1 on a
 * fault (in *fault). */
int func_run(const Program *p, int li, Memory *m, Stats *st, const Config *cfg,
             uint64_t max_steps, struct Checker *chk, const Progress *prog, int slow, Fault *fault);

#endif
