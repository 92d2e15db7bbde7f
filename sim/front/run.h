/* run.h - one run of a kernel file: lay out memory, initialise buffers, run
 * every .launch in order, then the .checks.  Owns the memory image, the
 * counters and the fault; report.c reads a finished Run. */
#ifndef GPUSIM_RUN_H
#define GPUSIM_RUN_H

#include <stdio.h>

#include "isa/diag.h"
#include "isa/isa.h"
#include "sim/base/config.h"
#include "sim/base/progress.h"
#include "sim/base/stats.h"
#include "sim/core/check.h"
#include "sim/core/warp.h"
#include "sim/front/host.h"
#include "sim/front/trace.h"
#include "sim/mem/mem.h"
#include "sim/mem/memsys.h"
#include "sim/timing/gpu.h"
#include "sim/timing/occupancy.h"

typedef struct RunOptions {
    int functional;          /* no timing model */
    uint64_t max_cycles;     /* watchdog; 0 = default */
    const char *trace;       /* --trace FILE.html|FILE.json, or NULL */
    TraceOptions trace_opt;
    FILE *step;              /* --step output, or NULL */
    FILE *step_in;           /* --step on a terminal: commands from here (stepper.h), else NULL */
    int step_sm, step_warp;
    const Progress *progress;  /* how far the run got, shown by the front end (--progress), or NULL */
    int checks;              /* CHECK_* (sim/core/check.h); 0: none */
    FILE *printf_out;        /* the kernels' printf output after each launch, or NULL: dropped */
    int threads;             /* host threads per timing launch (0 or 1: one; -N: automatic up to N, GpuHost);
                                any count gives the same result */
    GpuHostTimes *host_times;   /* where the host time went (make bench), or NULL */
    int rows_apart;          /* each register its own row, not packed (GpuHost.rows_apart; the tests) */
    int slow_paths;          /* every instruction by the per-lane paths (Kernel.slow; the tests) */
} RunOptions;

/* What one launch added to the run's counters (the reports' per-launch
 * table for files with .for loops). */
typedef struct LaunchFigures {
    uint64_t cycles;          /* gpc__cycles_elapsed.max (0 in functional mode) */
    uint64_t inst;            /* smsp__inst_executed.sum */
    uint64_t thread_inst;     /* smsp__thread_inst_executed.sum */
    uint64_t ctas;            /* launch__grid_size */
} LaunchFigures;

typedef struct Run {
    const Program *prog;
    const Config *cfg;
    const char *config_path;
    RunOptions opt;
    Memory mem;
    Stats stats;
    int faulted;
    Fault fault;
    Checker check;           /* the run-time checks' findings (flags 0: off) */
    CheckResult *checks;
    int nchecks, checks_failed;
    Occupancy *occ;          /* per launch */
    LaunchFigures *per_launch;   /* per launch; those after a fault stay 0 */
    int has_memstats;        /* timing with the memory hierarchy */
    MemStats memstats;
} Run;

enum { RUN_OK = 0, RUN_CHECK_FAILED = 1, RUN_BAD_INPUT = 2, RUN_FAULT = 3 };

/* Returns RUN_* (the exit code): RUN_BAD_INPUT with Diags in dl. */
int run_program(Run *r, const Program *p, const Config *cfg, const char *config_path,
                const RunOptions *o, DiagList *dl);
void run_free(Run *r);

#endif
