/* bench.c - `make bench`: simulation speed on a fixed set of runs.
 *
 * For each run: simulated cycles, warp instructions, host seconds (median
 * of REPEATS), simulated warp instructions per host second and simulated
 * cycles per host second; for timing runs the same on 2 host threads,
 * each run paired with a 1-thread one, and the median of the pairs'
 * speedups.  Host time is measured here, never in the
 * simulator's reports, which stay bit-for-bit deterministic.
 *
 * `build/bench --check races` (or any --check LIST of the binary: races,
 * global, uninit, all) runs the same set with those run-time checks on,
 * to measure what they cost (docs/performance.md).  Other arguments pick
 * rows: `build/bench transpose_naive hopper` runs the rows whose config
 * and kernel paths contain every word given. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "isa/asm.h"
#include "sim/base/config.h"
#include "sim/front/run.h"
#include "sim/timing/gpu.h"

enum { REPEATS = 3, MAX_DEFS = 4 };

typedef struct Bench {
    const char *config, *kernel;
    AsmDefine defs[MAX_DEFS];
    int ndefs;
    int functional;
} Bench;

static const Bench benches[] = {
    { "configs/fermi.ini", "kernels/tiled_mm.s", { { "M", "512" }, { "N", "512" }, { "K", "512" } }, 3, 0 },
    { "configs/fermi.ini", "kernels/conv2d_tiled.s", { { "H", "1024" }, { "W", "1024" } }, 2, 0 },
    { "configs/fermi.ini", "kernels/transpose_shared.s", { { "ROWS", "2048" }, { "COLS", "2048" } }, 2, 0 },
    { "configs/hopper.ini", "kernels/transpose_shared.s", { { "ROWS", "2048" }, { "COLS", "2048" } }, 2, 0 },
    /* issue 17's hopper.ini targets: nvcc's PTX, big memory-bound launches */
    { "configs/hopper.ini", "tests/validation/nvcc/transpose_naive.s", { { "N", "2048" } }, 1, 0 },
    { "configs/hopper.ini", "tests/validation/nvcc/naive_mm.s", { { "M", "512" }, { "N", "512" }, { "K", "512" } }, 3, 0 },
    /* a compute-bound hopper.ini launch: what 2 host threads give when the SMs dominate */
    { "configs/hopper.ini", "tests/validation/nvcc/tiled_mm.s", { { "M", "512" }, { "N", "512" }, { "K", "512" } }, 3, 0 },
    { "configs/fermi.ini", "kernels/tiled_mm.s", { { "M", "512" }, { "N", "512" }, { "K", "512" } }, 3, 1 },
};

static double seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* Does row be match every word of argv[from..argc)? */
static int picked(const Bench *be, int argc, char **argv, int from)
{
    for (int i = from; i < argc; i++)
        if (!strstr(be->config, argv[i]) && !strstr(be->kernel, argv[i])) return 0;
    return 1;
}

static int parse_checks(int argc, char **argv)
{
    if (argc < 3 || strcmp(argv[1], "--check")) return 0;
    int f = 0;
    if (strstr(argv[2], "races")) f |= CHECK_RACES;
    if (strstr(argv[2], "global")) f |= CHECK_RACES | CHECK_RACES_GLOBAL;
    if (strstr(argv[2], "uninit")) f |= CHECK_UNINIT;
    if (strstr(argv[2], "all")) f |= CHECK_RACES | CHECK_RACES_GLOBAL | CHECK_UNINIT;
    return f;
}

/* One run of be at `threads`: host seconds; fills cycles, inst and the
 * phase times. */
static double run_once(const Bench *be, const Program *p, const Config *cfg, int checks, int threads, uint64_t *cycles,
                       uint64_t *inst, GpuHostTimes *phases, int *failed)
{
    DiagList dl = { 0 };
    Run run;
    memset(phases, 0, sizeof *phases);
    RunOptions o = { .functional = be->functional, .checks = checks, .threads = threads, .host_times = phases };
    double t0 = seconds();
    int rc = run_program(&run, p, cfg, be->config, &o, &dl);
    double t = seconds() - t0;
    if (rc != RUN_OK) { *failed = 1; fprintf(stderr, "%s: exit %d\n", be->kernel, rc); }
    *cycles = run.stats.cycles;
    *inst = run.stats.inst;
    run_free(&run);
    diag_free(&dl);
    return t;
}

/* The median of n values, and which of them it is. */
static double median(const double *v, int n, int *at)
{
    double sorted[REPEATS];
    memcpy(sorted, v, (size_t)n * sizeof *v);
    qsort(sorted, (size_t)n, sizeof sorted[0], cmp_double);
    for (int r = 0; r < n; r++)
        if (v[r] == sorted[n / 2]) *at = r;
    return sorted[n / 2];
}

/* Run be REPEATS times on 1 thread and, when two2 is set, each time
 * straight after on 2 threads (interleaved: this shared VM's speed drifts
 * within minutes, and 1-thread runs all before the 2-thread ones once
 * made a drift look like a speedup or a loss).  Medians of each; the
 * speedup is the median of the pairs' ratios; the phase times are the
 * median runs'. */
static void timed(const Bench *be, const Program *p, const Config *cfg, int checks, int two2, uint64_t *cycles,
                  uint64_t *inst, double *med1, double *med2, double *speedup, GpuHostTimes *ph1, GpuHostTimes *ph2,
                  int *failed)
{
    double t1[REPEATS], t2[REPEATS], ratio[REPEATS];
    GpuHostTimes p1[REPEATS], p2[REPEATS];
    for (int r = 0; r < REPEATS; r++) {
        t1[r] = run_once(be, p, cfg, checks, 1, cycles, inst, &p1[r], failed);
        if (two2) {
            t2[r] = run_once(be, p, cfg, checks, 2, cycles, inst, &p2[r], failed);
            ratio[r] = t1[r] / t2[r];
        }
    }
    int at = 0;
    *med1 = median(t1, REPEATS, &at);
    *ph1 = p1[at];
    *med2 = *speedup = 0;
    if (!two2) return;
    *med2 = median(t2, REPEATS, &at);
    *ph2 = p2[at];
    *speedup = median(ratio, REPEATS, &at);
}

int main(int argc, char **argv)
{
    int checks = parse_checks(argc, argv);
    int from = argc >= 3 && !strcmp(argv[1], "--check") ? 3 : 1;   /* the row filter's words */
    if (checks) printf("run-time checks on: %s\n", argv[2]);
    printf("%-20s %-22s %-18s %-10s %10s %11s %8s %12s %11s %8s %7s  %s\n", "config", "kernel", "size", "mode", "cycles",
           "warp inst", "host s", "warp inst/s", "cycles/s", "2 thr s", "speedup", "1 thread: memory/SMs/merge/other");
    int failed = 0;
    for (size_t b = 0; b < sizeof benches / sizeof benches[0]; b++) {
        const Bench *be = &benches[b];
        if (!picked(be, argc, argv, from)) continue;
        DiagList dl = { 0 };
        Config cfg;
        config_defaults(&cfg);
        if (config_load_file(&cfg, be->config, &dl) || config_validate(&cfg, &dl)) { diag_print(&dl, stderr); return 2; }
        AsmOptions ao = { be->defs, be->ndefs };
        Program *p = asm_assemble_file(be->kernel, &ao, &dl);
        if (!p) { diag_print(&dl, stderr); return 2; }
        uint64_t cycles = 0, inst = 0;
        GpuHostTimes ph = { 0 }, ph2 = { 0 };
        double med, med2, speedup;
        /* the same launch on 2 host threads too (issue 17): identical
         * output, less wall time; checks keep one thread, so they are not
         * re-run */
        timed(be, p, &cfg, checks, !be->functional && !checks, &cycles, &inst, &med, &med2, &speedup, &ph, &ph2, &failed);
        char size[64] = "", split[192] = "-";
        for (int i = 0; i < be->ndefs; i++)
            snprintf(size + strlen(size), sizeof size - strlen(size), "%s%s=%s", i ? " " : "", be->defs[i].name, be->defs[i].value);
        double all = ph.memory + ph.sms + ph.merge + ph.other, all2 = ph2.memory + ph2.sms + ph2.merge + ph2.other;
        if (!be->functional && all > 0)
            snprintf(split, sizeof split, "%.0f/%.0f/%.0f/%.0f%% of %.3f s, %.2f us/cycle", 100 * ph.memory / all,
                     100 * ph.sms / all, 100 * ph.merge / all, 100 * ph.other / all, all,
                     ph.visits ? 1e6 * all / (double)ph.visits : 0.0);
        if (!be->functional && all2 > 0)
            snprintf(split + strlen(split), sizeof split - strlen(split), "; 2 threads: %.3f/%.3f/%.3f/%.3f s",
                     ph2.memory, ph2.sms, ph2.merge, ph2.other);
        const char *name = strrchr(be->kernel, '/') ? strrchr(be->kernel, '/') + 1 : be->kernel;
        printf("%-20s %-22s %-18s %-10s %10llu %11llu %8.3f %12.0f %11.0f ", be->config, name, size,
               be->functional ? "functional" : "timing", (unsigned long long)cycles, (unsigned long long)inst, med,
               inst / med, be->functional ? 0.0 : cycles / med);
        if (med2 > 0) printf("%8.3f %6.2fx  %s\n", med2, speedup, split);
        else printf("%8s %7s  %s\n", "-", "-", split);
        fflush(stdout);
        program_free(p);
        diag_free(&dl);
    }
    printf("(host seconds: median of %d runs, including buffer setup and the host-reference check; 2 thr s: the same\n"
           " with --threads 2, each run straight after a 1-thread one; speedup: the median of those pairs' ratios;\n"
           " the split: where a one-thread run's cycle loop spent its time, and a 2-thread run's phases in seconds,\n"
           " docs/parallel.md)\n", REPEATS);
    return failed;
}
