/* bench.c - `make bench`: simulation speed on a fixed set of runs.
 *
 * For each run: simulated cycles, warp instructions, host seconds (median
 * of REPEATS), simulated warp instructions per host second and simulated
 * cycles per host second.  Host time is measured here, never in the
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

/* Run be REPEATS times at `threads`; returns the median host seconds and
 * fills cycles, inst and (median run's) phase times. */
static double timed(const Bench *be, const Program *p, const Config *cfg, int checks, int threads, uint64_t *cycles,
                    uint64_t *inst, GpuHostTimes *phases, int *failed)
{
    double t[REPEATS];
    GpuHostTimes ph[REPEATS];
    DiagList dl = { 0 };
    for (int r = 0; r < REPEATS; r++) {
        Run run;
        memset(&ph[r], 0, sizeof ph[r]);
        RunOptions o = { .functional = be->functional, .checks = checks, .threads = threads, .host_times = &ph[r] };
        double t0 = seconds();
        int rc = run_program(&run, p, cfg, be->config, &o, &dl);
        t[r] = seconds() - t0;
        if (rc != RUN_OK) { *failed = 1; fprintf(stderr, "%s: exit %d\n", be->kernel, rc); }
        *cycles = run.stats.cycles;
        *inst = run.stats.inst;
        run_free(&run);
    }
    diag_free(&dl);
    double sorted[REPEATS];
    memcpy(sorted, t, sizeof t);
    qsort(sorted, REPEATS, sizeof sorted[0], cmp_double);
    for (int r = 0; r < REPEATS; r++)
        if (t[r] == sorted[REPEATS / 2]) *phases = ph[r];
    return sorted[REPEATS / 2];
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
        double med = timed(be, p, &cfg, checks, 1, &cycles, &inst, &ph, &failed);
        /* the same launch on 2 host threads (issue 17): identical output,
         * less wall time; checks keep one thread, so they are not re-run */
        double med2 = be->functional || checks ? 0 : timed(be, p, &cfg, checks, 2, &cycles, &inst, &ph2, &failed);
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
        if (med2 > 0) printf("%8.3f %6.2fx  %s\n", med2, med / med2, split);
        else printf("%8s %7s  %s\n", "-", "-", split);
        fflush(stdout);
        program_free(p);
        diag_free(&dl);
    }
    printf("(host seconds: median of %d runs, including buffer setup and the host-reference check; 2 thr s: the same\n"
           " with --threads 2; the split: where a one-thread run's cycle loop spent its time, and a 2-thread run's\n"
           " phases in seconds, docs/parallel.md)\n", REPEATS);
    return failed;
}
