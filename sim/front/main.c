/* main.c - the gpusim command line.  It only parses argv, calls into the
 * library and turns results into output and an exit code:
 *   0 ran and every check passed   1 a .check failed
 *   2 bad usage, kernel file or config   3 the kernel faulted at run time */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "isa/asm.h"
#include "isa/disasm.h"
#include "sim/base/config.h"
#include "sim/front/meter.h"
#include "sim/front/report.h"
#include "sim/front/run.h"
#include "sim/front/sweep.h"
#include "sim/timing/gpu.h"

#ifndef GPUSIM_VERSION
#define GPUSIM_VERSION "dev"
#endif

enum { EXIT_CHECK = 1, EXIT_USAGE = 2, EXIT_FAULT = 3 };

typedef struct Options {
    const char **sets; int nsets;
    AsmDefine *defines; int ndefines;
    const char *format;
    const char *output;
    long long max_cycles;
    int disasm, dump_config, functional, occupancy;
    int checks, checks_set;              /* --check: CHECK_* (sim/core/check.h) */
    const char *trace;                   /* --trace FILE.html|.json */
    uint64_t trace_from, trace_to;
    int trace_sm;
    int trace_warps[64]; int ntrace_warps;
    int step, step_sm, step_warp;        /* --step */
    const char *doc;
    char **dumps; int ndumps;
    /* sweeps (docs/sweeps.md) */
    SweepArg *axes; int naxes;
    int jobs, no_time, emit_jobs, merge;
    int threads;                         /* --threads: host threads per launch (0: the default) */
    int progress;                        /* --progress 1, --no-progress -1, 0: on a terminal only */
    double progress_every;               /* --progress=S; -1: the meter's default */
    long sweep_point;                    /* -1: not a job */
    const char *plot, *y;
    int plot_scale;                      /* --relative, --speedup */
    const char *baseline;                /* --baseline X */
} Options;

static void usage(FILE *out)
{
    fputs("Usage: gpusim [OPTION]... CONFIG.ini KERNEL.s\n"
          "  or:  gpusim [OPTION]... --sweep KEY=LIST... CONFIG.ini... KERNEL.s...\n"
          "  or:  gpusim --merge [-o FILE] [--plot FILE.svg] JOB-OUTPUT...\n"
          "Run a PTX-like kernel file on a cycle-level model of a SIMT GPU and report\n"
          "cycles, stalls, divergence, memory transactions and occupancy.\n"
          "\n"
          "Options:\n"
          "      --set KEY=VALUE   override a config key, e.g. --set l1.assoc=8 (repeatable)\n"
          "  -D NAME=VALUE         override a .define of the kernel file (repeatable)\n"
          "      --format FMT      report format on stdout: text (default) or json\n"
          "  -o FILE               write the report to FILE instead of stdout\n"
          "      --max-cycles N    stop with a fault after N simulated cycles (watchdog)\n"
          "      --functional      run without the timing model (fast; counts only)\n"
          "      --progress[=S]    show how far a long run has got on stderr: on a\n"
          "                        terminal (the default there, unless stdout is piped)\n"
          "                        one line kept up to date from 2 s in, erased at the\n"
          "                        end; elsewhere a line every S seconds (10);\n"
          "                        --no-progress: never\n"
          "      --threads N       host threads to simulate one launch on (default: the\n"
          "                        CPUs this process may use, counting its affinity mask\n"
          "                        and cgroup CPU quota, at most one per 32 SMs); the report is\n"
          "                        the same, bit for bit, for every N (docs/parallel.md)\n"
          "      --check LIST      run-time checks, comma-separated: races (shared memory\n"
          "                        written by one warp and touched by another with no\n"
          "                        bar.sync between), global (races in global memory\n"
          "                        within a block), uninit (registers read before the\n"
          "                        thread wrote them), all, none; NAME=error makes a\n"
          "                        finding exit 3 (default: races,uninit with\n"
          "                        --functional, none with timing)\n"
          "      --trace FILE      write a visual trace of the timing run: FILE.html (a\n"
          "                        self-contained viewer) or FILE.json (Trace Event\n"
          "                        Format, for Perfetto / chrome://tracing)\n"
          "      --trace-cycles A:B  trace only cycles A to B (default: from cycle 0 until\n"
          "                        the file would pass about 12 MB)\n"
          "      --trace-sm N      trace only SM N\n"
          "      --trace-warps LIST  trace only these warps of each block (e.g. 0,1)\n"
          "      --step            print every cycle that changes on one SM: what each\n"
          "                        scheduler issued, each warp's pc, active lanes and\n"
          "                        state, and one warp's SIMT stack (use tiny.ini); on a\n"
          "                        terminal it stops after each cycle and takes commands:\n"
          "                        n, s, c, b LINE [if block=B warp=W], w ADDR, p %REG,\n"
          "                        f BLOCK WARP, q, h (docs/stepper.md)\n"
          "      --step-sm N       the SM to show (default 0)\n"
          "      --step-warp W     whose SIMT stack to show: warp W of the lowest block (0)\n"
          "      --occupancy       print the occupancy calculator for each launch: blocks\n"
          "                        per SM allowed by each resource, and which one binds\n"
          "      --dump NAME[=FILE]  after the run, write buffer NAME one value per line\n"
          "                        to FILE (default: stdout, after the report)\n"
          "      --disasm          print KERNEL.s as the assembler decoded it: pcs, source\n"
          "                        lines, basic blocks and every branch's reconvergence\n"
          "                        point (CONFIG may be omitted)\n"
          "      --dump-config     print the effective configuration as a .ini file\n"
          "                        (CONFIG may be omitted: the built-in defaults)\n"
          "      --doc TOPIC       print generated reference docs: isa or config\n"
          "\n"
          "Sweeps (CSV, one row per point; docs/sweeps.md):\n"
          "      --sweep KEY=LIST  run every value of a config key, or of a .define if KEY\n"
          "                        has no dot; LIST: 16,32,64 or 1..8 or 2^0..2^5\n"
          "      --zip KEY=LIST    vary KEY together with the --sweep (or -D list) before\n"
          "                        it, value by value: --sweep l1.size_bytes=16KiB,48KiB\n"
          "                        --zip l1.assoc=4,6 runs 2 points, not 4\n"
          "  -D NAME=LIST          a .define with a list or range is swept too\n"
          "                        (several KERNEL.s are swept as well, and several\n"
          "                        CONFIG.ini before them, with a config column)\n"
          "  -j N                  run N points at a time (same output for any N)\n"
          "      --no-time         leave out the host_seconds column\n"
          "      --plot FILE.svg   draw METRIC against the first swept name\n"
          "      --y METRIC        the column to plot (default cycles); any report metric\n"
          "                        or stall.REASON adds a column\n"
          "      --relative        plot METRIC / its value at each line's baseline point\n"
          "      --speedup         plot baseline / METRIC (for cycles: the speedup)\n"
          "      --baseline X      the baseline point: x = X (default: each line's first)\n"
          "      --emit-jobs       print one shell command per point instead of running\n"
          "      --sweep-point I   run point I only and print it for --merge\n"
          "      --merge           join --sweep-point output (files, - for stdin) into the\n"
          "                        CSV a local run writes\n"
          "\n"
          "      --help            display this help and exit\n"
          "      --version         output version information and exit\n"
          "\n"
          "Exit status: 0 ran and all checks passed, 1 a .check failed, 2 bad usage,\n"
          "kernel file or config, 3 the kernel faulted at run time.\n"
          "\n"
          "Example: gpusim configs/fermi.ini kernels/tiled_mm.s\n"
          "Docs: README.md and docs/ (isa.md, kernel-format.md, config.md).\n", out);
}

static int bad_usage(const char *fmt, const char *arg)
{
    fputs("gpusim: ", stderr);
    fprintf(stderr, fmt, arg);
    fputs("\nTry 'gpusim --help' for more information.\n", stderr);
    return EXIT_USAGE;
}

static int print_diags(DiagList *dl)
{
    diag_print(dl, stderr);
    int n = diag_count(dl);
    if (n > 1) fprintf(stderr, "%d errors\n", n);
    diag_free(dl);
    return EXIT_USAGE;
}

static int load_config(Config *cfg, const char *path, const Options *o, DiagList *dl)
{
    config_defaults(cfg);
    if (path && config_load_file(cfg, path, dl)) return -1;
    for (int i = 0; i < o->nsets; i++) config_set(cfg, o->sets[i], dl);
    if (diag_count(dl)) return -1;
    return config_validate(cfg, dl);
}

/* --dump NAME[=FILE]: check the names before running. */
static int check_dumps(const Program *p, const Options *o)
{
    for (int i = 0; i < o->ndumps; i++) {
        char name[256];
        snprintf(name, sizeof name, "%s", o->dumps[i]);
        char *eq = strchr(name, '=');
        if (eq) *eq = '\0';
        if (program_find_buffer(p, name) < 0) {
            fprintf(stderr, "gpusim: --dump %s: %s has no buffer named '%s'\n", o->dumps[i], p->filename, name);
            return -1;
        }
    }
    return 0;
}

static int write_dumps(const Run *r, const Options *o, FILE *report_out)
{
    for (int i = 0; i < o->ndumps; i++) {
        char name[256];
        snprintf(name, sizeof name, "%s", o->dumps[i]);
        char *eq = strchr(name, '=');
        const char *path = NULL;
        if (eq) { *eq = '\0'; path = eq + 1; }
        int b = program_find_buffer(r->prog, name);
        FILE *f = path ? fopen(path, "w") : report_out;
        if (!f) { fprintf(stderr, "gpusim: --dump: cannot write %s: %s\n", path, strerror(errno)); return -1; }
        host_dump(r->prog, &r->mem, b, f);
        if (path) fclose(f);
    }
    return 0;
}

/* "gpusim: wrote t.html (1.2 MB)" on stderr, for files the run wrote. */
static void say_wrote(const char *path)
{
    struct stat st;
    if (stat(path, &st)) return;
    double b = (double)st.st_size;
    if (b >= 1e6) fprintf(stderr, "gpusim: wrote %s (%.1f MB)\n", path, b / 1e6);
    else if (b >= 1e3) fprintf(stderr, "gpusim: wrote %s (%.0f KB)\n", path, b / 1e3);
    else fprintf(stderr, "gpusim: wrote %s (%.0f bytes)\n", path, b);
}

/* stdout goes to another program (`| less`, `| grep`): a pager may own the
 * terminal, and a meter line on it would garble the screen. */
static int stdout_is_pipe(void)
{
    struct stat st;
    return fstat(STDOUT_FILENO, &st) == 0 && S_ISFIFO(st.st_mode);
}

static int run_and_report(const Program *p, const Config *cfg, const char *cfg_path, const Options *o, DiagList *dl)
{
    if (check_dumps(p, o)) return EXIT_USAGE;
    RunOptions ro = { .functional = o->functional, .max_cycles = (uint64_t)o->max_cycles, .trace = o->trace,
                      .trace_opt = { o->trace_from, o->trace_to, o->trace_sm, o->trace_warps, o->ntrace_warps },
                      .step = o->step ? stdout : NULL, .step_sm = o->step_sm, .step_warp = o->step_warp,
                      .step_in = o->step && isatty(STDIN_FILENO) && isatty(STDOUT_FILENO) ? stdin : NULL,
                      /* the checks cost nothing in a functional run's terms: on there unless asked */
                      .checks = o->checks_set ? o->checks : o->functional ? CHECK_RACES | CHECK_UNINIT : 0,
                      /* the kernels' printf goes to stdout, as CUDA's, unless a JSON report goes there */
                      .printf_out = !strcmp(o->format, "json") && !o->output ? stderr : stdout,
                      .threads = gpu_threads_share(o->threads, 1, gpu_threads_default()) };
    if (o->trace && o->functional)
        fprintf(stderr, "gpusim: note: --trace %s not written: a --functional run has no cycles to show "
                        "(drop --functional to trace the timing run)\n", o->trace);
    /* not with --step, which prints every cycle itself; by default not
     * while stdout feeds another program */
    Meter *meter = o->step ? NULL : meter_create(o->progress, o->progress_every, p, stderr, isatty(STDERR_FILENO),
                                                 !o->output && stdout_is_pipe());
    ro.progress = meter_progress(meter);
    Run r;
    int rc = run_program(&r, p, cfg, cfg_path, &ro, dl);
    meter_destroy(meter);
    if (o->trace && !o->functional && rc != RUN_BAD_INPUT) say_wrote(o->trace);
    if (rc == RUN_BAD_INPUT) { run_free(&r); return print_diags(dl); }
    if (rc == RUN_FAULT) {
        report_fault(&r, stderr);
        report_findings(&r, stderr);
        run_free(&r);
        return EXIT_FAULT;
    }
    FILE *out = stdout;
    if (o->output && !(out = fopen(o->output, "w"))) {
        fprintf(stderr, "gpusim: cannot write %s: %s\n", o->output, strerror(errno));
        run_free(&r);
        return EXIT_USAGE;
    }
    if (!strcmp(o->format, "json")) report_json(&r, out);
    else report_text(&r, out);
    if (write_dumps(&r, o, out)) rc = EXIT_USAGE;
    if (out != stdout) fclose(out);
    if (rc == RUN_CHECK_FAILED) {
        fputs("gpusim: a .check failed:\n", stderr);
        report_checks(&r, stderr);
    }
    if ((r.check.flags & CHECK_ERROR) && check_findings(&r.check)) {
        fprintf(stderr, "gpusim: the run-time checks found %d problem%s (--check ...=error): see the report\n",
                check_findings(&r.check), check_findings(&r.check) == 1 ? "" : "s");
        rc = EXIT_FAULT;
    }
    run_free(&r);
    return rc;
}

static FILE *open_output(const char *path)
{
    if (!path) return stdout;
    FILE *f = fopen(path, "w");
    if (!f) fprintf(stderr, "gpusim: cannot write %s: %s\n", path, strerror(errno));
    return f;
}

/* --plot after a sweep or a merge; returns the worse of rc and its own. */
static int write_plot(const SweepTable *t, const Options *o, const char *config, int rc)
{
    if (!o->plot) return rc;
    FILE *f = open_output(o->plot);
    if (!f) return rc > EXIT_USAGE ? rc : EXIT_USAGE;
    DiagList dl = { 0 };
    SweepPlotOptions po = { o->y, config, o->plot_scale, o->baseline };
    int bad = sweep_plot(t, &po, f, &dl);
    fclose(f);
    if (!bad) return rc;
    print_diags(&dl);
    return rc > EXIT_USAGE ? rc : EXIT_USAGE;
}

static int ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && !strcmp(s + n - m, suffix);
}

/* CONFIG.ini comes first: a kernel file before a .ini file is the classic
 * slip, and would otherwise give one error per line of the .ini; so is a
 * second .ini where the kernel goes. */
static int swapped_operands(char **args, int n)
{
    if (n == 2 && ends_with(args[0], ".ini") && ends_with(args[1], ".ini")) {
        fprintf(stderr, "gpusim: %s is a config, not a kernel: CONFIG.ini, then KERNEL.s "
                        "(gpusim %s kernels/vecadd.s)\n", args[1], args[0]);
        return 1;
    }
    if (n < 2 || !ends_with(args[0], ".s")) return 0;
    for (int i = 1; i < n; i++)
        if (ends_with(args[i], ".ini")) {
            fprintf(stderr, "gpusim: operands swapped? CONFIG.ini comes first: gpusim %s %s\n", args[i], args[0]);
            return 1;
        }
    return 0;
}

/* Sweep mode: a swept name, several kernels, or a sweep-only option. */
static int is_sweep(const Options *o, int npos)
{
    return o->naxes || npos > 2 || o->emit_jobs || o->sweep_point >= 0 || o->plot || o->no_time;
}

static int run_sweep(char **argv, int pos, int npos, const Options *o)
{
    if (npos < 2) return bad_usage("missing operand: a sweep needs CONFIG.ini and KERNEL.s...%s", "");
    if (strcmp(o->format, "text") || o->ndumps || o->occupancy)
        return bad_usage("a sweep writes CSV: --format, --dump and --occupancy do not apply%s", "");
    /* CONFIG.ini first; more .ini files after it are swept as configs */
    int ncfg = 1;
    while (ncfg < npos - 1 && ends_with(argv[pos + ncfg], ".ini")) ncfg++;
    SweepSpec sp = { argv[0], (const char *const *)argv + pos, ncfg, (const char *const *)argv + pos + ncfg,
                     npos - ncfg, o->axes, o->naxes,
                     o->sets, o->nsets, o->defines, o->ndefines,
                     { .functional = o->functional, .max_cycles = (uint64_t)o->max_cycles, .trace_opt = { .sm = -1 },
                       .threads = o->threads },
                     o->y, o->jobs, o->no_time,
                     /* points done on a terminal, unless the CSV goes there too; elsewhere if asked */
                     o->progress < 0 || o->emit_jobs || o->sweep_point >= 0 ? 0
                     : isatty(STDERR_FILENO)
                         ? ((o->output || (!isatty(STDOUT_FILENO) && (o->progress > 0 || !stdout_is_pipe()))) ? 1 : 0)
                     : o->progress > 0 ? 2 : 0 };
    DiagList dl = { 0 };
    Sweep *s = sweep_new(&sp, &dl);
    if (!s) return print_diags(&dl);
    if (o->sweep_point >= sweep_points(s)) {
        char n[64];
        snprintf(n, sizeof n, "%ld: the sweep has points 0 to %d", o->sweep_point, sweep_points(s) - 1);
        sweep_free(s);
        return bad_usage("--sweep-point %s", n);
    }
    /* an unwritable --plot fails now, not after a long sweep */
    int plotting = o->plot && !o->emit_jobs && o->sweep_point < 0;
    FILE *plot = plotting ? open_output(o->plot) : NULL;
    if (plot) fclose(plot);
    FILE *out = plotting && !plot ? NULL : open_output(o->output);
    if (!out) { sweep_free(s); return EXIT_USAGE; }
    int rc = 0;
    if (o->emit_jobs) sweep_emit_jobs(s, out);
    else if (o->sweep_point >= 0) rc = sweep_run_point(s, (int)o->sweep_point, out);
    else {
        rc = sweep_run(s, out);
        char title[256];
        rc = write_plot(sweep_table(s), o, sweep_config_title(s, title, sizeof title), rc);
    }
    if (out != stdout) fclose(out);
    sweep_free(s);
    return rc;
}

static int merge_files(char **paths, int n, const Options *o)
{
    if (n < 1) return bad_usage("--merge needs the output of the jobs (files, or - for stdin)%s", "");
    SweepTable t;
    DiagList dl = { 0 };
    if (sweep_merge((const char *const *)paths, n, &t, &dl)) return print_diags(&dl);
    FILE *out = open_output(o->output);
    int rc = EXIT_USAGE;
    if (out) {
        sweep_table_write(&t, out);
        if (out != stdout) fclose(out);
        rc = write_plot(&t, o, t.title, sweep_table_status(&t));
    }
    sweep_table_free(&t);
    return rc;
}

enum { NOT_MINE = -1000 };

enum { OPT_SET = 256, OPT_FORMAT, OPT_MAX_CYCLES, OPT_DISASM, OPT_DUMP_CONFIG, OPT_DOC, OPT_HELP, OPT_VERSION,
       OPT_FUNCTIONAL, OPT_DUMP, OPT_OCCUPANCY, OPT_TRACE, OPT_TRACE_CYCLES, OPT_TRACE_SM, OPT_TRACE_WARPS,
       OPT_STEP, OPT_STEP_SM, OPT_STEP_WARP, OPT_SWEEP, OPT_NO_TIME, OPT_PLOT, OPT_Y, OPT_EMIT_JOBS,
       OPT_SWEEP_POINT, OPT_MERGE, OPT_ZIP, OPT_RELATIVE, OPT_SPEEDUP, OPT_BASELINE, OPT_CHECK, OPT_THREADS,
       OPT_PROGRESS, OPT_NO_PROGRESS };

static const struct option longopts[] = {
    { "set", required_argument, NULL, OPT_SET },
    { "format", required_argument, NULL, OPT_FORMAT },
    { "max-cycles", required_argument, NULL, OPT_MAX_CYCLES },
    { "disasm", no_argument, NULL, OPT_DISASM },
    { "dump-config", no_argument, NULL, OPT_DUMP_CONFIG },
    { "doc", required_argument, NULL, OPT_DOC },
    { "functional", no_argument, NULL, OPT_FUNCTIONAL },
    { "threads", required_argument, NULL, OPT_THREADS },
    { "progress", optional_argument, NULL, OPT_PROGRESS },
    { "no-progress", no_argument, NULL, OPT_NO_PROGRESS },
    { "check", required_argument, NULL, OPT_CHECK },
    { "occupancy", no_argument, NULL, OPT_OCCUPANCY },
    { "trace", required_argument, NULL, OPT_TRACE },
    { "trace-cycles", required_argument, NULL, OPT_TRACE_CYCLES },
    { "trace-sm", required_argument, NULL, OPT_TRACE_SM },
    { "trace-warps", required_argument, NULL, OPT_TRACE_WARPS },
    { "step", no_argument, NULL, OPT_STEP },
    { "step-sm", required_argument, NULL, OPT_STEP_SM },
    { "step-warp", required_argument, NULL, OPT_STEP_WARP },
    { "dump", required_argument, NULL, OPT_DUMP },
    { "sweep", required_argument, NULL, OPT_SWEEP },
    { "zip", required_argument, NULL, OPT_ZIP },
    { "no-time", no_argument, NULL, OPT_NO_TIME },
    { "plot", required_argument, NULL, OPT_PLOT },
    { "y", required_argument, NULL, OPT_Y },
    { "relative", no_argument, NULL, OPT_RELATIVE },
    { "speedup", no_argument, NULL, OPT_SPEEDUP },
    { "baseline", required_argument, NULL, OPT_BASELINE },
    { "emit-jobs", no_argument, NULL, OPT_EMIT_JOBS },
    { "sweep-point", required_argument, NULL, OPT_SWEEP_POINT },
    { "merge", no_argument, NULL, OPT_MERGE },
    { "help", no_argument, NULL, OPT_HELP },
    { "version", no_argument, NULL, OPT_VERSION },
    { NULL, 0, NULL, 0 },
};

/* --check LIST: races, global, uninit, all, none, each optionally =error. */
static int parse_checks(const char *arg, int *flags)
{
    static const struct { const char *name; int flags; } names[] = {
        { "races", CHECK_RACES }, { "global", CHECK_RACES | CHECK_RACES_GLOBAL }, { "uninit", CHECK_UNINIT },
        { "all", CHECK_RACES | CHECK_RACES_GLOBAL | CHECK_UNINIT }, { "none", 0 },
    };
    char buf[200];
    snprintf(buf, sizeof buf, "%s", arg);
    *flags = 0;
    for (char *save = NULL, *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        char *eq = strchr(tok, '=');
        if (eq) {
            if (strcmp(eq, "=error")) return bad_usage("--check: '%s' (a check takes only =error)", tok);
            *eq = '\0';
            *flags |= CHECK_ERROR;
        }
        size_t i = 0;
        while (i < sizeof names / sizeof names[0] && strcmp(names[i].name, tok)) i++;
        if (i == sizeof names / sizeof names[0])
            return bad_usage("--check: no check '%s' (races, global, uninit, all, none)", tok);
        *flags |= names[i].flags;
    }
    return 0;
}

/* What to run and how: -D, --set, --format, -o, --max-cycles, --functional.  NOT_MINE if c is another group's. */
static int take_run_option(int c, Options *o)
{
    switch (c) {
    case OPT_SET:
        o->sets = realloc(o->sets, (size_t)(o->nsets + 1) * sizeof *o->sets);
        o->sets[o->nsets++] = optarg;
        break;
    case 'D': {
        char *eq = strchr(optarg, '=');
        if (!eq || eq == optarg || !eq[1]) return bad_usage("-D needs NAME=VALUE, got '%s'", optarg);
        if (strchr(eq, ',') || strstr(eq, "..")) {   /* a list: swept */
            o->axes = realloc(o->axes, (size_t)(o->naxes + 1) * sizeof *o->axes);
            o->axes[o->naxes++] = (SweepArg){ optarg, 1, 0 };
            break;
        }
        *eq = '\0';
        o->defines = realloc(o->defines, (size_t)(o->ndefines + 1) * sizeof *o->defines);
        o->defines[o->ndefines++] = (AsmDefine){ optarg, eq + 1 };
        break;
    }
    case OPT_FORMAT:
        if (strcmp(optarg, "text") && strcmp(optarg, "json"))
            return bad_usage("--format takes text or json, not '%s'", optarg);
        o->format = optarg;
        break;
    case 'o': o->output = optarg; break;
    case OPT_MAX_CYCLES: {
        char *end;
        errno = 0;
        o->max_cycles = strtoll(optarg, &end, 10);
        if (errno || *end || o->max_cycles <= 0) return bad_usage("--max-cycles takes a positive number, not '%s'", optarg);
        break;
    }
    case OPT_FUNCTIONAL: o->functional = 1; break;
    case OPT_THREADS: {
        char *end;
        long n = strtol(optarg, &end, 10);
        if (*end || n < 1 || n > GPU_MAX_THREADS)
            return bad_usage("--threads takes a number from 1 to " GPU_MAX_THREADS_TEXT ", not '%s'", optarg);
        o->threads = (int)n;
        break;
    }
    case OPT_CHECK: if (parse_checks(optarg, &o->checks)) return EXIT_USAGE; o->checks_set = 1; break;
    case OPT_PROGRESS: {
        o->progress = 1;
        o->progress_every = -1;
        if (!optarg) break;
        char *end;
        errno = 0;
        double s = strtod(optarg, &end);
        if (errno || end == optarg || *end || !(s >= 0 && s <= 86400))
            return bad_usage("--progress=S takes seconds from 0 to 86400, not '%s'", optarg);
        o->progress_every = s;
        break;
    }
    case OPT_NO_PROGRESS: o->progress = -1; break;
    default: return NOT_MINE;
    }
    return 0;
}

/* What to show of a run: --trace*, --step*, --dump, --occupancy.  NOT_MINE if c is another group's. */
static int take_view_option(int c, Options *o)
{
    switch (c) {
    case OPT_OCCUPANCY: o->occupancy = 1; break;
    case OPT_TRACE: o->trace = optarg; break;
    case OPT_STEP: o->step = 1; break;
    case OPT_STEP_SM: case OPT_STEP_WARP: {
        char *end;
        long v = strtol(optarg, &end, 10);
        if (*end || v < 0 || v > 100000) return bad_usage("--step-sm and --step-warp take a number, not '%s'", optarg);
        if (c == OPT_STEP_SM) o->step_sm = (int)v; else o->step_warp = (int)v;
        o->step = 1;
        break;
    }
    case OPT_TRACE_CYCLES: {
        unsigned long long a, b;
        char tail;
        if (sscanf(optarg, "%llu:%llu%c", &a, &b, &tail) != 2 || b <= a)
            return bad_usage("--trace-cycles takes A:B with A < B (cycles), not '%s'", optarg);
        o->trace_from = a;
        o->trace_to = b;
        break;
    }
    case OPT_TRACE_SM: {
        char *end;
        long v = strtol(optarg, &end, 10);
        if (*end || v < 0 || v > 100000) return bad_usage("--trace-sm takes an SM number, not '%s'", optarg);
        o->trace_sm = (int)v;
        break;
    }
    case OPT_TRACE_WARPS: {
        o->ntrace_warps = 0;
        for (char *p = optarg; *p;) {
            char *end;
            long v = strtol(p, &end, 10);
            if (end == p || v < 0 || v > 4096 || o->ntrace_warps == 64 || (*end && *end != ','))
                return bad_usage("--trace-warps takes warp numbers like 0,1,5, not '%s'", optarg);
            o->trace_warps[o->ntrace_warps++] = (int)v;
            p = *end ? end + 1 : end;
        }
        break;
    }
    case OPT_DUMP:
        o->dumps = realloc(o->dumps, (size_t)(o->ndumps + 1) * sizeof *o->dumps);
        o->dumps[o->ndumps++] = optarg;
        break;
    default: return NOT_MINE;
    }
    return 0;
}

/* Sweeps and their jobs: --sweep, --zip, -j, --no-time, --plot, --y, --emit-jobs, --sweep-point, --merge.  NOT_MINE if c is another group's. */
static int take_sweep_option(int c, Options *o)
{
    switch (c) {
    case OPT_SWEEP: case OPT_ZIP:
        o->axes = realloc(o->axes, (size_t)(o->naxes + 1) * sizeof *o->axes);
        o->axes[o->naxes++] = (SweepArg){ optarg, 0, c == OPT_ZIP };
        break;
    case 'j': {
        char *end;
        long n = strtol(optarg, &end, 10);
        if (*end || n < 1 || n > 4096) return bad_usage("-j takes a number of threads from 1 to 4096, not '%s'", optarg);
        o->jobs = (int)n;
        break;
    }
    case OPT_NO_TIME: o->no_time = 1; break;
    case OPT_PLOT: o->plot = optarg; break;
    case OPT_Y: o->y = optarg; break;
    case OPT_RELATIVE: o->plot_scale = SWEEP_PLOT_RELATIVE; break;
    case OPT_SPEEDUP: o->plot_scale = SWEEP_PLOT_SPEEDUP; break;
    case OPT_BASELINE: o->baseline = optarg; break;
    case OPT_EMIT_JOBS: o->emit_jobs = 1; break;
    case OPT_SWEEP_POINT: {
        char *end;
        errno = 0;
        o->sweep_point = strtol(optarg, &end, 10);
        if (errno || *end || end == optarg || o->sweep_point < 0)
            return bad_usage("--sweep-point takes a point number from 0, not '%s'", optarg);
        break;
    }
    case OPT_MERGE: o->merge = 1; break;
    default: return NOT_MINE;
    }
    return 0;
}

/* Answers without a run: --disasm, --dump-config, --doc, --help, --version (-1: exit 0 now).  NOT_MINE if c is another group's. */
static int take_info_option(int c, Options *o)
{
    switch (c) {
    case OPT_DISASM: o->disasm = 1; break;
    case OPT_DUMP_CONFIG: o->dump_config = 1; break;
    case OPT_DOC: o->doc = optarg; break;
    case OPT_HELP: usage(stdout); return -1;
    case OPT_VERSION:
        printf("gpusim %s\n"
               "A cycle-level SIMT GPU simulator for teaching and research.\n"
               "This is free software: you are free to change and redistribute it.\n"
               "There is NO WARRANTY, to the extent permitted by law.\n", GPUSIM_VERSION);
        return -1;
    default: return NOT_MINE;
    }
    return 0;
}

static int parse_args(int argc, char **argv, Options *o, int *first_pos)
{
    int c;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":D:o:j:", longopts, NULL)) != -1) {
        int (*const groups[])(int, Options *) = { take_run_option, take_view_option, take_sweep_option,
                                                  take_info_option };
        int rc = NOT_MINE;
        for (size_t g = 0; g < sizeof groups / sizeof groups[0] && rc == NOT_MINE; g++) rc = groups[g](c, o);
        if (rc != NOT_MINE) {
            if (rc) return rc;
            continue;
        }
        if (c == ':') {
            char opt[64];
            snprintf(opt, sizeof opt, "%s", optopt ? (char[]){ '-', (char)optopt, 0 } : argv[optind - 1]);
            return bad_usage("option '%s' requires an argument", opt);
        }
        return bad_usage("unrecognized option '%s'", argv[optind - 1]);
    }
    *first_pos = optind;
    return 0;
}

int main(int argc, char **argv)
{
    Options o;
    memset(&o, 0, sizeof o);
    o.format = "text";
    o.trace_sm = -1;
    o.sweep_point = -1;
    o.progress_every = -1;
    int pos = 0;
    int rc = parse_args(argc, argv, &o, &pos);
    if (rc) { free(o.sets); free(o.defines); free(o.axes); return rc < 0 ? 0 : rc; }
    int npos = argc - pos;
    DiagList dl = { 0 };
    AsmOptions aopt = { o.defines, o.ndefines };
    Config *cfg = calloc(1, sizeof *cfg);
    if (!cfg) return EXIT_USAGE;
    rc = 0;

    if (o.doc) {
        if (!strcmp(o.doc, "isa")) isa_doc(stdout);
        else if (!strcmp(o.doc, "config")) config_doc(stdout);
        else rc = bad_usage("--doc takes isa or config, not '%s'", o.doc);
    } else if (o.dump_config) {
        if (npos > 1) rc = bad_usage("--dump-config takes at most one CONFIG.ini%s", "");
        else if (load_config(cfg, npos ? argv[pos] : NULL, &o, &dl)) rc = print_diags(&dl);
        else config_dump(cfg, stdout);
    } else if (o.disasm) {
        if (npos < 1 || npos > 2) rc = bad_usage("--disasm takes [CONFIG.ini] KERNEL.s%s", "");
        else {
            Program *p = asm_assemble_file(argv[argc - 1], &aopt, &dl);
            if (!p) rc = print_diags(&dl);
            else { disasm_program(p, stdout); program_free(p); }
        }
    } else if (o.merge) {
        rc = merge_files(argv + pos, npos, &o);
    } else if (swapped_operands(argv + pos, npos)) {
        rc = EXIT_USAGE;
    } else if (is_sweep(&o, npos)) {
        rc = run_sweep(argv, pos, npos, &o);
    } else if (npos != 2) {
        rc = bad_usage(npos < 2 ? "missing operand: need CONFIG.ini and KERNEL.s%s" : "too many operands%s", "");
    } else if (load_config(cfg, argv[pos], &o, &dl)) {
        rc = print_diags(&dl);
    } else {
        Program *p = asm_assemble_file(argv[pos + 1], &aopt, &dl);
        if (!p) rc = print_diags(&dl);
        else if (o.occupancy) {
            report_occupancy(p, cfg, argv[pos], stdout);
            program_free(p);
        } else {
            rc = run_and_report(p, cfg, argv[pos], &o, &dl);
            program_free(p);
        }
    }
    free(cfg);
    free(o.sets);
    free(o.defines);
    free(o.dumps);
    free(o.axes);
    diag_free(&dl);
    return rc;
}
