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

#include "sim/base/progress.h"
#include <stdint.h>
#include <stdio.h>

#include "sim/base/config.h"
#include "sim/core/warp.h"
#include "sim/mem/memsys.h"
#include "sim/timing/observe.h"
#include "sim/timing/occupancy.h"

/* Run launch li with timing, starting at cycle *now (updated to the end).
 * ms is the memory hierarchy (kept across launches: caches stay warm), or
 * NULL for fixed memory latencies.  max_cycles bounds this launch (0: no
 * bound).  0 ok, -1 fault. */
struct Timing;
struct Sm;
/* --step: after each cycle in which SM `sm` changed, print(ctx, ...) is
 * called with `skipped` quiet cycles before it; `warp` is the warp whose
 * SIMT stack the stepper shows.  print is NULL when not stepping.  With
 * all_sms set (the interactive stepper), it is called for every SM that
 * changed, and `skipped` counts from that SM's last call. */
typedef struct GpuStep {
    void (*print)(void *ctx, const struct Timing *t, const struct Sm *sm, uint64_t skipped);
    void *ctx;
    int sm, warp;
    int all_sms;
} GpuStep;

/* Where the host time of a launch went (docs/parallel.md's model, make
 * bench): seconds in each phase of the cycle loop, added up. */
typedef struct GpuHostTimes {
    double memory;           /* dispatch and the memory side (deliver): the calling thread */
    double sms;              /* the SM phase: every lane, until the last is done */
    double merge;            /* held stores replayed, the SMs' share handed to the memory side */
    double other;            /* the rest of the loop: next event, watchdog */
    uint64_t visits;         /* cycles the loop visited */
    int lanes;               /* the most host threads a launch ran on */
    int prefetch;            /* a launch looked ahead at its SMs' warps (sm_prefetch_pays) */
} GpuHostTimes;

/* How the host runs a launch: threads to spread the SMs over (capped at
 * the SM count; 1 with obs, step or chk; the result is the same, bit for
 * bit, for every count; -N: automatic, up to N threads but no fewer than
 * GPU_AUTO_SMS_PER_LANE SMs a thread), and where to add the host times
 * (NULL: not measured). */
#define GPU_AUTO_SMS_PER_LANE 32
typedef struct GpuHost {
    int threads;
    GpuHostTimes *times;
    /* each register a row of its own instead of rows shared as the machine
     * code shares registers (kernel_pack_rows): the same result, bit for
     * bit (test_threads compares them) */
    int rows_apart;
    int slow_paths;                /* Kernel.slow: no row loops (the tests' differential) */
    const Progress *progress;      /* NULL: nothing shown (sim/base/progress.h) */
} GpuHost;

/* obs: --trace's observer, or NULL; chk: the run-time checks
 * (sim/core/check.h), or NULL; host: NULL for one thread. */
struct Checker;
int gpu_run_launch(const Program *p, int li, Memory *m, Stats *st, const Config *cfg, MemSys *ms,
                   const Observer *obs, const GpuStep *step, uint64_t *now, uint64_t max_cycles,
                   struct Checker *chk, const GpuHost *host, Fault *fault);

/* --threads' default: the CPUs this process may use (sim/base/cpus.h: its
 * affinity mask and cgroup CPU quota counted), at most GPU_MAX_THREADS. */
#define GPU_MAX_THREADS 64
#define GPU_MAX_THREADS_TEXT "64"
int gpu_threads_default(void);
/* Host threads for each of `jobs` runs side by side (a sweep's -j) on a
 * machine of `cores`: requested, but never so many that jobs x threads
 * passes the cores, at least 1; requested 0: automatic up to that share
 * (returned negative, as GpuHost.threads takes it). */
int gpu_threads_share(int requested, int jobs, int cores);
/* For tests: with on set, the worker threads of the launches that follow
 * take no task, so the calling thread takes every lane's (test_threads). */
void gpu_test_idle_workers(int on);
/* For tests: the host prefetching of the launches that follow (sm.h:
 * sm_prefetch): -1 where sm_prefetch_pays (the default), 0 never, 1 always.
 * It changes no result (test_threads). */
void gpu_test_prefetch(int mode);
/* How the threads of a launch share out a phase's tasks (gpu.c, Pool):
 * the claim word of phase `gen` with n tasks, and a thread's attempt to
 * take task i of phase gen from it: 1 taken, 0 taken already (or not one
 * of the phase's), -1 the word is another phase's.  Here for test_threads. */
uint64_t claim_open(uint64_t gen, int n);
int claim_take(_Atomic uint64_t *claim, uint64_t gen, int i);
/* A waiting thread's next spin, in seconds, after a wait that outlasted
 * spin_s and took waited_s in all (gpu.c: sleep_until).  For test_threads. */
double gpu_spin_next(double spin_s, double waited_s);

#endif
