/* test_sweep.c - parameter sweeps (docs/sweeps.md): the cartesian product
 * and its row order, the same CSV at any -j, ranges, error rows that let
 * the sweep go on, --emit-jobs + --merge reproducing a local run, and the
 * SVG plot.  Most cases run the binary named by $GPUSIM (./gpusim by
 * default); one drives the sweep engine directly. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sim/front/sweep.h"

static const char *bin(void)
{
    const char *b = getenv("GPUSIM");
    return b && *b ? b : "./gpusim";
}

static char *slurp_stream(FILE *f)
{
    size_t cap = 1 << 16, len = 0, n;
    char *buf = malloc(cap);
    while ((n = fread(buf + len, 1, cap - len - 1, f)) > 0) {
        len += n;
        if (len + 1 == cap) { cap *= 2; buf = realloc(buf, cap); }
    }
    buf[len] = '\0';
    return buf;
}

/* Runs a shell command line, stdout into *out; returns the exit code. */
static int sh(const char *cmd, char **out)
{
    FILE *f = popen(cmd, "r");
    assert_non_null(f);
    *out = slurp_stream(f);
    int st = pclose(f);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* "gpusim ARGS" with stderr dropped (or kept, to look for a message). */
static int gpusim(const char *args, int with_stderr, char **out)
{
    char cmd[8192];
    snprintf(cmd, sizeof cmd, "%s %s %s </dev/null", bin(), args, with_stderr ? "2>&1" : "2>/dev/null");
    return sh(cmd, out);
}

/* gpusim ARGS must stop with exit 2 and say needle. */
static void expect_refused(const char *args, const char *needle)
{
    char *out;
    assert_int_equal(gpusim(args, 1, &out), 2);
    if (!strstr(out, needle)) print_error("gpusim %s said:\n%s\n", args, out);
    assert_non_null(strstr(out, needle));
    free(out);
}

static int count_lines(const char *s)
{
    int n = 0;
    for (; *s; s++) n += *s == '\n';
    return n;
}

/* Field f (0-based) of line l (0 = header) of a CSV without quoted commas. */
static void field(const char *csv, int l, int f, char *buf, size_t n)
{
    const char *s = csv;
    for (int i = 0; i < l && s; i++) s = strchr(s, '\n') ? strchr(s, '\n') + 1 : NULL;
    assert_non_null(s);
    for (int i = 0; i < f; i++) {
        s = strpbrk(s, ",\n");
        assert_true(s && *s == ',');
        s++;
    }
    size_t len = strcspn(s, ",\n");
    snprintf(buf, n, "%.*s", (int)(len < n ? len : n - 1), s);
}

static void expect_field(const char *csv, int l, int f, const char *want)
{
    char got[256];
    field(csv, l, f, got, sizeof got);
    if (strcmp(got, want)) print_error("line %d field %d: got '%s', want '%s'\n%s\n", l, f, got, want, csv);
    assert_string_equal(got, want);
}

static char tmpdir[64];

static void path(char *buf, size_t n, const char *name)
{
    snprintf(buf, n, "%s/%s", tmpdir, name);
}

/* Two swept keys of 3 values and 2 kernels: 18 rows, kernels outermost,
 * the last key fastest; the same bytes at -j 1 and -j 2 (timing runs). */
#define SWEEP_18 "--no-time -D N=128 --sweep gpu.num_sms=1,2,4 --sweep sched.policy=lrr,gto,two_level " \
                 "configs/fermi.ini kernels/vecadd.s kernels/reduce_shfl.s"

static void test_cartesian_any_j(void **state)
{
    (void)state;
    char *a, *b;
    assert_int_equal(gpusim("-j 1 " SWEEP_18, 0, &a), 0);
    assert_int_equal(gpusim("-j 2 " SWEEP_18, 0, &b), 0);
    assert_int_equal(count_lines(a), 1 + 18);
    assert_string_equal(a, b);
    expect_field(a, 0, 0, "gpu.num_sms");
    expect_field(a, 0, 1, "sched.policy");
    expect_field(a, 0, 2, "kernel");
    expect_field(a, 0, 3, "status");
    expect_field(a, 0, 4, "cycles");
    expect_field(a, 1, 0, "1");
    expect_field(a, 1, 1, "lrr");
    expect_field(a, 2, 1, "gto");
    expect_field(a, 4, 0, "2");
    expect_field(a, 1, 2, "kernels/vecadd.s");
    expect_field(a, 10, 2, "kernels/reduce_shfl.s");
    expect_field(a, 18, 0, "4");
    expect_field(a, 18, 1, "two_level");
    expect_field(a, 18, 3, "ok");
    char cyc1[32], cyc4[32];
    field(a, 1, 4, cyc1, sizeof cyc1);
    field(a, 7, 4, cyc4, sizeof cyc4);
    assert_true(atol(cyc1) > 0 && atol(cyc4) > 0);
    free(a);
    free(b);
    /* three keys of three values, functional: 54 rows, any -j */
    const char *three = "--functional --no-time --sweep gpu.num_sms=1,2,4 --sweep sched.policy=lrr,gto,two_level "
                        "-D N=64,100,1003 configs/fermi.ini kernels/vecadd.s tests/data/bad_check.s";
    char args[1024];
    snprintf(args, sizeof args, "-j 1 %s", three);
    assert_int_equal(gpusim(args, 0, &a), 1);   /* bad_check fails its check on purpose */
    snprintf(args, sizeof args, "-j 3 %s", three);
    assert_int_equal(gpusim(args, 0, &b), 1);
    assert_int_equal(count_lines(a), 1 + 54);
    assert_string_equal(a, b);
    expect_field(a, 1, 4, "ok");
    expect_field(a, 28, 4, "check_failed");
    free(a);
    free(b);
}

static void test_host_seconds_last(void **state)
{
    (void)state;
    char *a;
    assert_int_equal(gpusim("--functional --sweep gpu.num_sms=1,2 configs/fermi.ini kernels/vecadd.s", 0, &a), 0);
    const char *nl = strchr(a, '\n');
    assert_non_null(nl);
    assert_true(nl - a > 13 && !strncmp(nl - 13, ",host_seconds", 13));
    free(a);
}

/* 1..4 and 2^1..2^3 expand in order; bad lists are usage errors. */
static void test_ranges(void **state)
{
    (void)state;
    char *a;
    assert_int_equal(gpusim("--functional --no-time --sweep gpu.num_sms=1..4 -D N=2^6..2^8 configs/fermi.ini kernels/vecadd.s", 0, &a), 0);
    assert_int_equal(count_lines(a), 1 + 12);
    const char *want_sms[] = { "1", "1", "1", "2", "2", "2", "3", "3", "3", "4", "4", "4" };
    const char *want_n[] = { "64", "128", "256" };
    for (int r = 0; r < 12; r++) {
        expect_field(a, r + 1, 0, want_sms[r]);
        expect_field(a, r + 1, 1, want_n[r % 3]);
    }
    free(a);
    assert_int_equal(gpusim("--functional --no-time --sweep gpu.num_sms=1,3..4,2^4 configs/fermi.ini kernels/vecadd.s", 0, &a), 0);
    expect_field(a, 1, 0, "1");
    expect_field(a, 2, 0, "3");
    expect_field(a, 3, 0, "4");
    expect_field(a, 4, 0, "16");
    free(a);
    expect_refused("--sweep gpu.num_sms=4..1 configs/fermi.ini kernels/vecadd.s", "bad range '4..1'");
    expect_refused("--sweep gpu.num_sms=1,,2 configs/fermi.ini kernels/vecadd.s", "empty value");
    expect_refused("--sweep gpu.nums_sms=1,2 configs/fermi.ini kernels/vecadd.s", "unknown config key");
    expect_refused("--sweep gpu.num_sms configs/fermi.ini kernels/vecadd.s", "need NAME=LIST");
}

/* A value that fails validation, a missing define, a fault: each point
 * records its error and the sweep goes on; the exit code is the worst. */
static void test_error_rows(void **state)
{
    (void)state;
    char *a;
    /* 7 warps x 32 threads < 1536 threads per SM: config_validate refuses */
    assert_int_equal(gpusim("--functional --no-time --sweep sm.max_warps=7,48 configs/fermi.ini kernels/vecadd.s", 0, &a), 2);
    assert_int_equal(count_lines(a), 3);
    expect_field(a, 1, 2, "error: sm.max_warps: sm.max_warps (7) x sm.warp_size (32) is less than sm.max_threads (1536)");
    expect_field(a, 2, 2, "ok");
    expect_field(a, 2, 6, "544");   /* inst: 32 warps x 17 machine instructions (19 PTX) */
    free(a);
    /* a .define only one kernel has */
    assert_int_equal(gpusim("--functional --no-time -D N=64,128 configs/fermi.ini kernels/vecadd.s kernels/transpose_shared.s", 0, &a), 2);
    expect_field(a, 1, 2, "ok");
    assert_non_null(strstr(a, "error: N: kernels/transpose_shared.s has no .define N"));
    free(a);
    /* faults: the message has commas, so the field is quoted (RFC 4180) */
    assert_int_equal(gpusim("--functional --no-time --max-cycles 5 -D N=64,128 configs/fermi.ini kernels/vecadd.s", 0, &a), 3);
    assert_non_null(strstr(a, "\n64,kernels/vecadd.s,\"fault: kernels/vecadd.s:"));
    assert_non_null(strstr(a, "block (0,0,0)"));
    assert_int_equal(count_lines(a), 3);
    free(a);
    assert_int_equal(gpusim("--functional --no-time -D N=64,128 configs/fermi.ini kernels/vecadd.s nope.s", 0, &a), 2);
    assert_non_null(strstr(a, "\n64,nope.s,error: nope.s: cannot open"));
    free(a);
}

/* --emit-jobs, each job run on its own (in reverse order), --merge: the
 * local CSV again, byte for byte. */
static void test_jobs_and_merge(void **state)
{
    (void)state;
    const char *args = "--functional --no-time --set gpu.num_sms=2 --sweep sm.max_warps=7,48 -D 'N=64,2^10' "
                       "configs/fermi.ini kernels/vecadd.s tests/data/bad_check.s";
    char *local, *jobs, cmd[4096], rows[256], merged[256];
    assert_int_equal(gpusim(args, 0, &local), 2);
    snprintf(cmd, sizeof cmd, "--emit-jobs %s", args);
    assert_int_equal(gpusim(cmd, 0, &jobs), 0);
    assert_int_equal(count_lines(jobs), 8);
    assert_non_null(strstr(jobs, "--sweep-point 7 "));
    path(rows, sizeof rows, "rows.csv");
    remove(rows);
    /* run the jobs last to first, each appending to rows.csv */
    char *line[8], *save = NULL;
    int n = 0;
    for (char *l = strtok_r(jobs, "\n", &save); l && n < 8; l = strtok_r(NULL, "\n", &save)) line[n++] = l;
    assert_int_equal(n, 8);
    for (int i = n - 1; i >= 0; i--) {
        char *out;
        /* the emitted commands name ./gpusim as invoked; run them with $GPUSIM */
        const char *rest = strstr(line[i], " --");
        assert_non_null(rest);
        snprintf(cmd, sizeof cmd, "%s%s >> %s", bin(), rest, rows);
        int rc = sh(cmd, &out);
        assert_true(rc == 0 || rc == 1 || rc == 2);
        free(out);
    }
    path(merged, sizeof merged, "merged.csv");
    char *out;
    snprintf(cmd, sizeof cmd, "--merge -o %s %s", merged, rows);
    assert_int_equal(gpusim(cmd, 0, &out), 2);   /* the same exit code as the local run */
    free(out);
    FILE *f = fopen(merged, "r");
    assert_non_null(f);
    char *m = slurp_stream(f);
    fclose(f);
    assert_string_equal(m, local);
    free(m);
    /* --plot after --merge names the config in its title, as a local sweep's
     * plot does (the jobs' "# config:" line) */
    char svg[256];
    path(svg, sizeof svg, "merged.svg");
    snprintf(cmd, sizeof cmd, "--merge -o %s --y inst --plot %s %s", merged, svg, rows);
    assert_int_equal(gpusim(cmd, 0, &out), 2);
    free(out);
    f = fopen(svg, "r");
    assert_non_null(f);
    char *plot = slurp_stream(f);
    fclose(f);
    assert_non_null(strstr(plot, "<title>inst vs sm.max_warps on GTX 480, configs/fermi.ini</title>"));
    free(plot);
    /* stdin works too */
    snprintf(cmd, sizeof cmd, "cat %s | %s --merge -", rows, bin());
    assert_int_equal(sh(cmd, &out), 2);
    assert_string_equal(out, local);
    free(out);
    /* a missing point and a repeated point are refused */
    snprintf(cmd, sizeof cmd, "grep -v '^3/8,' %s > %s.part", rows, rows);
    assert_int_equal(sh(cmd, &out), 0);
    free(out);
    snprintf(cmd, sizeof cmd, "--merge %s.part", rows);
    assert_int_equal(gpusim(cmd, 1, &out), 2);
    assert_non_null(strstr(out, "1 of 8 points missing: 3"));
    free(out);
    snprintf(cmd, sizeof cmd, "--merge %s %s", rows, rows);
    assert_int_equal(gpusim(cmd, 1, &out), 2);
    assert_non_null(strstr(out, "appears twice"));
    free(out);
    free(jobs);
    free(local);
}

static char *read_file(const char *p)
{
    FILE *f = fopen(p, "r");
    assert_non_null(f);
    char *s = slurp_stream(f);
    fclose(f);
    return s;
}

static int count(const char *s, const char *what)
{
    int n = 0;
    for (const char *p = s; (p = strstr(p, what)); p++) n++;
    return n;
}

static void test_plot(void **state)
{
    (void)state;
    char svg[256], cmd[1024], *out;
    path(svg, sizeof svg, "sweep.svg");
    snprintf(cmd, sizeof cmd, "--no-time -D N=128 --sweep gpu.num_sms=1,2,4 --plot %s configs/fermi.ini "
                              "kernels/vecadd.s kernels/reduce_shfl.s", svg);
    assert_int_equal(gpusim(cmd, 0, &out), 0);
    free(out);
    char *s = read_file(svg);
    assert_true(!strncmp(s, "<svg xmlns=\"http://www.w3.org/2000/svg\"", 39));
    assert_non_null(strstr(s, ">gpu.num_sms (log2 scale)</text>"));   /* x label: 1, 2, 4 */
    assert_non_null(strstr(s, ">cycles</text>"));                       /* y label */
    assert_non_null(strstr(s, ">cycles vs gpu.num_sms on GTX 480, configs/fermi.ini</text>"));   /* title */
    assert_non_null(strstr(s, ">vecadd</text>"));                        /* legend */
    assert_non_null(strstr(s, ">reduce_shfl</text>"));
    assert_int_equal(count(s, "<polyline"), 2);                          /* one per kernel */
    assert_null(strstr(s, "href"));                                      /* self-contained */
    assert_true(strstr(s, "</svg>\n") && !strstr(s, "</svg>\n")[7]);
    free(s);
    /* --y: another column, or a report metric added as a column; a second
     * swept key gives one line per value; categories on x */
    snprintf(cmd, sizeof cmd, "--functional --no-time --sweep sched.policy=lrr,gto --sweep gpu.num_sms=1..3 "
                              "--y smsp__thread_inst_executed.sum --plot %s configs/fermi.ini kernels/vecadd.s", svg);
    assert_int_equal(gpusim(cmd, 0, &out), 0);
    assert_non_null(strstr(out, ",dram_gbps,smsp__thread_inst_executed.sum\n"));
    free(out);
    s = read_file(svg);
    assert_int_equal(count(s, "<polyline"), 0);                          /* x: categories, as grouped bars */
    assert_int_equal(count(s, "<rect class=\"bar\""), 6);                /* 2 policies x 3 SM counts */
    assert_non_null(strstr(s, ">gpu.num_sms=2</text>"));
    assert_non_null(strstr(s, ">gto</text>"));
    assert_non_null(strstr(s, ">smsp__thread_inst_executed.sum</text>"));
    free(s);
    snprintf(cmd, sizeof cmd, "--functional --sweep gpu.num_sms=1,2 --y nope --plot %s configs/fermi.ini kernels/vecadd.s", svg);
    assert_int_equal(gpusim(cmd, 1, &out), 2);
    assert_non_null(strstr(out, "--y: error: 'nope': not a column, a report metric or stall.REASON (docs/metrics.md lists them)"));
    free(out);
    /* a misspelt --y stops the sweep before its first point, with or
     * without --plot, and says what was meant */
    assert_int_equal(gpusim("--sweep gpu.num_sms=1,2 --y cycle configs/fermi.ini kernels/vecadd.s", 1, &out), 2);
    assert_non_null(strstr(out, "--y: error: 'cycle': not a column, a report metric or stall.REASON (did you mean 'cycles'?)"));
    assert_null(strstr(out, "kernels/vecadd.s,ok"));
    free(out);
    expect_refused("--sweep gpu.num_sms=1,2 --y lts__t_sector_hit_rat.pct configs/fermi.ini kernels/vecadd.s",
                   "(did you mean 'lts__t_sector_hit_rate.pct'?)");
    expect_refused("--sweep gpu.num_sms=1,2 --y stall.barier configs/fermi.ini kernels/vecadd.s",
                   "--y: error: 'stall.barier': no such stall reason (did you mean 'stall.barrier'?)");
    /* a metric the functional run does not report is still a name: its cells are empty */
    assert_int_equal(gpusim("--functional --no-time --sweep gpu.num_sms=1 --y dram__bytes_read.sum configs/fermi.ini kernels/vecadd.s",
                            0, &out), 0);
    assert_non_null(strstr(out, ",dram_gbps,dram__bytes_read.sum\n"));
    free(out);
}

/* Issue 16: linked (zipped) keys, several configs, failed points as rows,
 * gaps and stderr lines, byte-size ticks, speedup. */
static void test_zip_configs_and_failures(void **state)
{
    (void)state;
    char *out;
    assert_int_equal(gpusim("--functional --no-time --sweep l1.size_bytes=16KiB,48KiB --zip l1.assoc=4,6 "
                            "configs/fermi.ini kernels/vecadd.s", 0, &out), 0);
    assert_string_equal(out, "l1.size_bytes,l1.assoc,kernel,status,cycles,ipc,occupancy_pct,inst,stall_1,stall_2,stall_3,"
                             "bank_conflicts,sectors_per_request,l1_hit_pct,l2_hit_pct,dram_bytes,dram_gbps\n"
                             "16KiB,4,kernels/vecadd.s,ok,,,,544,,,,0,3.9375,,,,\n"     /* 32 warps x 17 machine inst */
                             "48KiB,6,kernels/vecadd.s,ok,,,,544,,,,0,3.9375,,,,\n");
    free(out);
    expect_refused("--functional --zip l1.assoc=4 configs/fermi.ini kernels/vecadd.s", "--zip varies a name together with the --sweep or -D list before it");
    assert_int_equal(gpusim("--functional --sweep l1.size_bytes=16KiB,48KiB --zip l1.assoc=4,6,8 configs/fermi.ini "
                            "kernels/vecadd.s", 1, &out), 2);
    assert_non_null(strstr(out, "l1.assoc has 3 values and l1.size_bytes 2: zipped lists need the same length"));
    free(out);
    /* several configs: a config column, configs outermost; sm.warp_size alone (max_warps derived) */
    assert_int_equal(gpusim("--functional --no-time --sweep sm.warp_size=8,32 configs/fermi.ini configs/volta.ini "
                            "kernels/vecadd.s", 0, &out), 0);
    assert_non_null(strstr(out, "config,sm.warp_size,kernel,status,"));
    assert_non_null(strstr(out, "\nconfigs/fermi.ini,8,kernels/vecadd.s,ok,,,,2160,"));
    assert_non_null(strstr(out, "\nconfigs/volta.ini,32,kernels/vecadd.s,ok,,,,544,"));
    free(out);
    assert_int_equal(gpusim("--emit-jobs --sweep sm.warp_size=8,32 --zip sm.max_warps=192,48 configs/fermi.ini "
                            "configs/volta.ini kernels/vecadd.s", 0, &out), 0);
    assert_non_null(strstr(out, "--sweep sm.warp_size=8,32 --zip sm.max_warps=192,48 --sweep-point 3 configs/fermi.ini "
                                "configs/volta.ini kernels/vecadd.s\n"));
    free(out);
    /* --threads goes with each job; a local sweep's points share the cores (gpu_threads_share) */
    assert_int_equal(gpusim("--emit-jobs --threads 2 --sweep sm.warp_size=8,32 configs/fermi.ini kernels/vecadd.s", 0, &out), 0);
    assert_non_null(strstr(out, " --threads 2 --sweep sm.warp_size=8,32 --sweep-point 1 configs/fermi.ini kernels/vecadd.s\n"));
    free(out);
    char *a, *b;
    assert_int_equal(gpusim("--no-time -j 2 --threads 3 --sweep gpu.num_sms=4,8 configs/hopper.ini kernels/vecadd.s", 0, &a), 0);
    assert_int_equal(gpusim("--no-time -j 1 --threads 1 --sweep gpu.num_sms=4,8 configs/hopper.ini kernels/vecadd.s", 0, &b), 0);
    assert_string_equal(a, b);
    free(a);
    free(b);
    /* a failing point: its row, a line on stderr, a gap in the plot */
    char svg[256], cmd[1024];
    path(svg, sizeof svg, "gaps.svg");
    snprintf(cmd, sizeof cmd, "--functional --no-time --sweep l1.assoc=2,3,4 --y inst --plot %s configs/fermi.ini "
                              "kernels/vecadd.s", svg);
    assert_int_equal(gpusim(cmd, 1, &out), 2);
    assert_non_null(strstr(out, "\n3,kernels/vecadd.s,error: l1.assoc: l1.size_bytes (16384) is not l1.assoc (3)"));
    assert_non_null(strstr(out, "gpusim: point 1 of 3 (l1.assoc=3, kernels/vecadd.s): error: l1.assoc:"));
    free(out);
    char *s = read_file(svg);
    assert_int_equal(count(s, "<polyline"), 2);                          /* 2 | gap | 4 */
    assert_non_null(strstr(s, ">3</text>"));                             /* the axis keeps x = 3 */
    free(s);
    /* byte sizes on x, speedup on y */
    snprintf(cmd, sizeof cmd, "--no-time --sweep l1.size_bytes=8KiB,16KiB,32KiB --speedup --plot %s configs/fermi.ini "
                              "kernels/vecadd.s", svg);
    assert_int_equal(gpusim(cmd, 0, &out), 0);
    free(out);
    s = read_file(svg);
    assert_non_null(strstr(s, ">16 KiB</text>"));
    assert_non_null(strstr(s, ">speedup in cycles over the first l1.size_bytes</text>"));
    free(s);
}

/* The engine without the binary: the same bytes from 1 and 4 threads. */
static void test_engine_direct(void **state)
{
    (void)state;
    const char *kernels[] = { "kernels/vecadd.s", "kernels/evenodd.s" };
    SweepArg axes[] = { { "gpu.num_sms=1..3", 0, 0 }, { "sched.policy=lrr,gto", 0, 0 } };
    char *text[2];
    for (int k = 0; k < 2; k++) {
        const char *configs[] = { "configs/fermi.ini" };
        SweepSpec sp = { "gpusim", configs, 1, kernels, 2, axes, 2, NULL, 0, NULL, 0, { .trace_opt = { .sm = -1 } }, NULL, k ? 4 : 1, 1, 0 };
        DiagList dl = { 0 };
        Sweep *s = sweep_new(&sp, &dl);
        assert_non_null(s);
        assert_int_equal(sweep_points(s), 12);
        size_t len;
        FILE *m = open_memstream(&text[k], &len);
        assert_int_equal(sweep_run(s, m), 0);
        fclose(m);
        assert_int_equal(sweep_table(s)->nrows, 12);
        sweep_free(s);
        diag_free(&dl);
    }
    assert_string_equal(text[0], text[1]);
    assert_int_equal(count_lines(text[0]), 13);
    free(text[0]);
    free(text[1]);
}

static int setup(void **state)
{
    (void)state;
    snprintf(tmpdir, sizeof tmpdir, "/tmp/gpusim_sweep_XXXXXX");
    return mkdtemp(tmpdir) ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", tmpdir);
    return system(cmd) == 0 ? 0 : -1;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cartesian_any_j),
        cmocka_unit_test(test_host_seconds_last),
        cmocka_unit_test(test_ranges),
        cmocka_unit_test(test_error_rows),
        cmocka_unit_test(test_jobs_and_merge),
        cmocka_unit_test(test_plot),
        cmocka_unit_test(test_zip_configs_and_failures),
        cmocka_unit_test(test_engine_direct),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
