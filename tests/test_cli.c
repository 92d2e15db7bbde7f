/* test_cli.c - the gpusim command line as a user meets it: GNU --help and
 * --version, exit codes 0/1/2/3 with their messages, -D, --set, -o,
 * --format, --dump, --disasm, --occupancy, --dump-config round trip.
 * Runs the binary named by $GPUSIM (the Makefile sets it; ./gpusim by
 * default). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <sys/stat.h>

#include "gpusim_run.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* Run "gpusim ARGS", capture stdout+stderr into *out (malloc'd); returns the exit code. */
static int run(const char *args, char **out) { return gpusim_run(args, out, 1); }

static void expect(const char *args, int code, const char *needle) { gpusim_expect(args, code, needle); }

static void test_help_version(void **s)
{
    (void)s;
    expect("--help", 0, "Usage: gpusim [OPTION]... CONFIG.ini KERNEL.s");
    expect("--version", 0, "gpusim 0.1.0");
    expect("--bogus", 2, "Try 'gpusim --help' for more information.");
    expect("--format", 2, "requires an argument");
    expect("--format xml configs/fermi.ini kernels/vecadd.s", 2, "--format takes text or json");
    expect("configs/fermi.ini", 2, "missing operand");
}

static void test_exit_codes(void **s)
{
    (void)s;
    expect("configs/fermi.ini kernels/vecadd.s", 0, "PASS");
    expect("configs/fermi.ini tests/data/bad_check.s", 1, "c[1]: expected 3, got 1");
    expect("configs/fermi.ini tests/data/missing.s", 2, "tests/data/missing.s: error: cannot open");
    expect("tests/data/bad.ini kernels/vecadd.s", 2, "tests/data/bad.ini:3:1: error:");
    expect("tests/data/bad.ini kernels/vecadd.s", 2, "did you mean 'sm.schedulers'");
    expect("--set l1.assoc=3x configs/fermi.ini kernels/vecadd.s", 2, "l1.assoc");
    expect("-D NOPE=3 configs/fermi.ini kernels/vecadd.s", 2, "has no .define NOPE");
    expect("--functional -D N=2000 --max-cycles 5 configs/fermi.ini kernels/vecadd.s", 3, "watchdog");
}

/* --threads (issue 17): a bad count exits 2 naming the range; any count
 * prints the same report, bit for bit, as one thread does. */
static void test_threads(void **s)
{
    (void)s;
    expect("--threads 0 configs/fermi.ini kernels/vecadd.s", 2, "--threads takes a number from 1 to 64, not '0'");
    expect("--threads two configs/fermi.ini kernels/vecadd.s", 2, "--threads takes a number from 1 to 64");
    expect("--help", 0, "--threads N       host threads to simulate one launch on");
    char *one, *two, *three;
    assert_int_equal(run("--threads 1 --format json configs/hopper.ini kernels/histogram.s --dump hist", &one), 0);
    assert_int_equal(run("--threads 2 --format json configs/hopper.ini kernels/histogram.s --dump hist", &two), 0);
    assert_int_equal(run("--threads 3 --format json configs/hopper.ini kernels/histogram.s --dump hist", &three), 0);
    assert_non_null(strstr(one, "\"gpc__cycles_elapsed.max\""));
    assert_string_equal(one, two);
    assert_string_equal(one, three);
    free(one);
    free(two);
    free(three);
}

/* The slips of a first session (issue 16): one line each, pointing at the fix. */
static void test_newcomer_slips(void **s)
{
    (void)s;
    char *out;
    assert_int_equal(run("kernels/evenodd.s configs/fermi.ini", &out), 2);
    assert_string_equal(out, "gpusim: operands swapped? CONFIG.ini comes first: gpusim configs/fermi.ini kernels/evenodd.s\n");
    free(out);
    expect("--sweep gpu.num_sms=1,2 kernels/vecadd.s configs/fermi.ini", 2, "operands swapped?");
    /* a directory where a file goes says so (it said "read error") */
    expect("configs/fermi.ini tests/data", 2, "tests/data: error: cannot read: Is a directory");
    expect("tests/data kernels/vecadd.s", 2, "tests/data: error: cannot read: Is a directory");
    assert_int_equal(run("configs/fermi.ini configs/volta.ini", &out), 2);
    assert_string_equal(out, "gpusim: configs/volta.ini is a config, not a kernel: CONFIG.ini, then KERNEL.s "
                             "(gpusim configs/fermi.ini kernels/vecadd.s)\n");
    free(out);
    expect("--set l1.size=4 configs/fermi.ini kernels/vecadd.s", 2, "l1.size: unknown key (did you mean 'l1.size_bytes'?)");
    expect("--sweep l1.size=4,8 configs/fermi.ini kernels/vecadd.s", 2, "did you mean 'l1.size_bytes'?");
    /* sizes that are not sizes, or that would keep the host reference busy
     * for hours: named at the argument or the .check, before the run */
    expect("configs/fermi.ini tests/data/bad_ref_sizes.s", 2,
           "tests/data/bad_ref_sizes.s:7:30: error: argument 4 of conv1d is a size: a whole number from 0 to 1073741824, "
           "not 4294967295");
    expect("configs/fermi.ini tests/data/bad_ref_sizes.s", 2, ":8:33: error: argument 5 of matmul is a size: a whole number "
           "from 0 to 1073741824, not -1");
    expect("configs/fermi.ini tests/data/bad_ref_sizes.s", 2, ":9:33: error: argument 5 of matmul is a size: a whole number "
           "from 0 to 1073741824, not 1.5");
    expect("configs/fermi.ini tests/data/bad_ref_sizes.s", 2, ":10:25: error: argument 2 of strided is a whole number from "
           "-1073741824 to 1073741824, not 1e+30");
    expect("configs/fermi.ini tests/data/bad_ref_sizes.s", 2, ":11:8: error: conv2d: the host reference would take 1.1e+13 "
           "steps with these sizes (at most 1e+11): are they right?");
    expect("configs/fermi.ini tests/data/bad_ref_sizes.s", 2, "5 errors");
    expect("configs/fermi.ini tests/data/bad_ref.s", 2,
           "unknown reference 'vecad' (did you mean 'vecadd'?); the references are vecadd, copy,");
    expect("--dump m configs/fermi.ini tests/data/values.s", 0, "0.25\n0.5\n0.25\n");
    /* tiled_mm's hotspots include a branch_resolving line: the note says where it is charged */
    expect("configs/fermi.ini kernels/tiled_mm.s", 0,
           "  (a warp is charged to the line it waits to issue: barrier to the line after the bar.sync,\n"
           "   branch_resolving to the branch target)\n");
}

/* --trace says what it wrote, and why a --functional run writes nothing. */
/* "gpusim --trace HTML OPTS configs/fermi.ini kernels/evenodd.s" must exit
 * with code and print want (its %s: HTML). */
/* 64-bit integers on the host side, exactly: the initialisers, --dump, a
 * file, and checks that tell 2^53 from 2^53 + 1 (the first versions went
 * through doubles: -1 and every .u64 above 2^63 became 0, and such a
 * check passed). */
static void test_integers_exact(void **s)
{
    (void)s;
    expect("--functional --dump b --dump t configs/fermi.ini tests/data/int64_exact.s", 0,
           "9007199254740993\n18446744073709551615\n9223372036854775808\n18446744073709551614\n"
           "-9007199254740993\n9223372036854775807\n");
    /* iota wraps in the element's width, as expr() does; -1 is all ones */
    expect("--functional --dump w --dump v --dump m configs/fermi.ini tests/data/int64_exact.s", 0,
           "65535\n65534\n65533\n-128\n-1\n126\n4294967295\n4294967295\n");
    /* random() beyond 2^53 draws exactly: the whole 64-bit range gives
     * splitmix64's outputs themselves (seed 1: computed apart from gpusim,
     * from the generator's definition), a span of 3 at 2^60 the draw mod 3 */
    expect("--functional --dump r --dump q configs/fermi.ini tests/data/int64_exact.s", 0,
           "10451216379200822465\n13757245211066428519\n1152921504606846977\n1152921504606846978\n"
           "1152921504606846976\n1152921504606846976\n");
    /* a file's integers: decimal (010 is ten) or 0x hex, signed either way */
    expect("--functional --dump h configs/fermi.ini tests/data/int64_exact.s", 0, "7\n10\n16\n-2\n3\n");
    expect("configs/fermi.ini tests/data/int64_exact.s", 0, "check g          PASS  (4 values, max abs error 0)");
    expect("-D OFF=-1 configs/fermi.ini tests/data/int64_exact.s", 1,
           "check b          FAIL  (1 of 4 values differ)\n    b[0]: expected 9007199254740992, got 9007199254740993\n");
    expect("configs/fermi.ini tests/data/int64_ref.s", 1,
           "    a[0]: expected 9007199254740992, got 9007199254740993\n    (1 of them at 2^53 or beyond, where the "
           "reference's doubles cannot tell neighbouring integers apart: check a with equals= or file=");
    expect("configs/fermi.ini tests/data/int64_bad_file.s", 2,
           "tests/data/int64_bad_file.s:3:9: error: buffer x: tests/data/int64_exact.expected: number 1 is "
           "'9007199254740993', not a whole number that fits .u8");
}

static void expect_trace(const char *html, const char *opts, int code, const char *want)
{
    char cmd[512], line[512];
    snprintf(cmd, sizeof cmd, "--trace %s %s configs/fermi.ini kernels/evenodd.s", html, opts);
    snprintf(line, sizeof line, want, html);
    expect(cmd, code, line);
}

static void test_trace_messages(void **s)
{
    (void)s;
    char path[] = "/tmp/gpusim_cli_trace_XXXXXX", cmd[512];
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    remove(path);
    char html[64];
    snprintf(html, sizeof html, "%s.html", path);
    snprintf(cmd, sizeof cmd, "--trace %s configs/fermi.ini kernels/evenodd.s", html);
    char want[512];
    snprintf(want, sizeof want, "gpusim: wrote %s (", html);
    expect(cmd, 0, want);
    remove(html);
    snprintf(cmd, sizeof cmd, "--functional --trace %s configs/fermi.ini kernels/evenodd.s", html);
    snprintf(want, sizeof want, "gpusim: note: --trace %s not written: a --functional run has no cycles to show", html);
    expect(cmd, 0, want);
    assert_int_equal(access(html, F_OK), -1);
    /* fermi.ini has 15 SMs; evenodd's blocks of 128 threads are 4 warps */
    expect_trace(html, "--trace-sm 15", 2, "--trace-sm: error: SM 15: configs/fermi.ini has 15 SMs (0 to 14)");
    assert_int_equal(access(html, F_OK), -1);
    expect_trace(html, "--trace-warps 1,4,3,9", 2,
                 "--trace-warps: error: warp 4: the largest block of kernels/evenodd.s has 4 warps (0 to 3)");
    expect_trace(html, "--trace-warps 1,4,3,9", 2, "--trace-warps: error: warp 9: the largest block");
    assert_int_equal(access(html, F_OK), -1);
    expect_trace(html, "--trace-sm 13 --trace-warps 3", 0, "gpusim: wrote %s (");
    remove(html);
    /* SM 14 exists but gets none of evenodd's 8 blocks: the page is empty, and
     * the run says why (837 cycles: the report's) */
    expect_trace(html, "--trace-sm 14", 0, "gpusim: note: --trace %s holds no warp: none ran on SM 14 (the run took 837 cycles)");
    remove(html);
    expect_trace(html, "--trace-cycles 900:1000", 0,
                 "gpusim: note: --trace %s holds no warp: none ran in cycles 900 to 1000 (the run took 837 cycles)");
    remove(html);
    snprintf(cmd, sizeof cmd, "--trace %s --trace-sm 7 configs/fermi.ini kernels/evenodd.s", html);
    char *out;
    assert_int_equal(run(cmd, &out), 0);
    assert_null(strstr(out, "holds no warp"));
    free(out);
    remove(html);
}

static void test_defines_and_sets(void **s)
{
    (void)s;
    expect("--functional --format json -D N=64 configs/fermi.ini kernels/vecadd.s", 0,
           "\"smsp__sass_branch_targets_threads_divergent.sum\": 0");
    expect("--functional --format json configs/fermi.ini kernels/vecadd.s", 0,
           "\"smsp__sass_branch_targets_threads_divergent.sum\": 1");
    expect("--format json --set gpu.num_sms=1 configs/fermi.ini kernels/vecadd.s", 0, "\"mode\": \"timing\"");
}

static void test_output_and_dump(void **s)
{
    (void)s;
    char *out;
    assert_int_equal(run("--functional -o /tmp/gpusim_test_report.txt --dump c=/tmp/gpusim_test_c.txt "
                         "-D N=5 configs/fermi.ini tests/data/bad_check.s", &out), 1);
    free(out);
    FILE *f = fopen("/tmp/gpusim_test_c.txt", "r");
    assert_non_null(f);
    double v[5];
    for (int i = 0; i < 5; i++) assert_int_equal(fscanf(f, "%lf", &v[i]), 1);
    fclose(f);
    /* c[i] = (i+1) - 1 = i */
    for (int i = 0; i < 5; i++) assert_true(v[i] == i);
    f = fopen("/tmp/gpusim_test_report.txt", "r");
    assert_non_null(f);
    fclose(f);
    expect("--dump nope configs/fermi.ini kernels/vecadd.s", 2, "no buffer named 'nope'");
}

static void test_disasm_occupancy(void **s)
{
    (void)s;
    expect("--disasm kernels/tiled_mm.s", 0, "reconverge at pc");
    expect("--disasm tests/data/vecadd_nvcc.ptx", 0, "@%p1 bra $L__BB11_2;   // may diverge");
    expect("--occupancy configs/fermi.ini kernels/tiled_mm.s", 0, "registers");
    expect("--occupancy configs/fermi.ini kernels/tiled_mm.s", 0, "<- binds");
    /* a red, and an atom whose result nothing reads, are posted */
    expect("--disasm configs/hopper.ini tests/data/red_posted.s", 0,
           "red.global.add.u32 [%rd1], 1;   posted (a RED): the warp does not wait for it");
    expect("--disasm configs/hopper.ini tests/data/red_posted.s", 0,
           "atom.global.add.u32 %r6, [%rd1], 1;   posted (a RED)");
    /* what the back end did, in the report and in the JSON launch */
    expect("configs/hopper.ini tests/validation/nvcc/naive_mm.s", 0, "as ptxas does: 1 loop unrolled 4 times;");
    expect("--format json configs/hopper.ini tests/validation/nvcc/naive_mm.s", 0,
           "\"back_end\": {\"unrolled_loops\": 1, \"if_converted_branches\": 0, \"vector_shared_loads\": 0}");
    expect("--format json configs/hopper.ini tests/validation/nvcc/tiled_mm.s", 0,
           "\"back_end\": {\"unrolled_loops\": 0, \"if_converted_branches\": 2, \"vector_shared_loads\": 4}");
}

/* build/validate beside the gpusim under test (make unit builds both). */
static int validate_run(const char *args, char **out)
{
    char dir[1024], cmd[2048];
    snprintf(dir, sizeof dir, "%s", gpusim_bin());
    char *slash = strrchr(dir, '/');
    if (slash) *slash = '\0';
    else snprintf(dir, sizeof dir, ".");
    snprintf(cmd, sizeof cmd, "%s/validate %s </dev/null 2>&1", dir, args);
    FILE *f = popen(cmd, "r");
    if (!f) abort();
    *out = gpusim_slurp(f);
    int st = pclose(f);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* validate --set: a what-if on hopper.ini that writes nothing.  On vecadd's
 * three training launches, one LSU address group for the SM instead of 4
 * (unit.lsu_groups) changes the SM-active error (13.0% -> 13.4%); the
 * committed table stays as it was; an unknown key is exit 2, named. */
static void test_validate_what_if(void **s)
{
    (void)s;
    struct stat before, after;
    assert_int_equal(stat("docs/validation/correlation.csv", &before), 0);
    char *base, *what, *bad;
    assert_int_equal(validate_run("--only vecadd --no-write", &base), 0);
    assert_int_equal(validate_run("--only vecadd --set unit.lsu_groups=1", &what), 0);
    const char *b = strstr(base, "training     3 launches: SM-active MAPE"), *w = strstr(what, "training     3 launches: SM-active MAPE");
    if (!b || !w) print_error("validate output:\n%s\n---\n%s\n", base, what);
    assert_non_null(b);
    assert_non_null(w);
    assert_true(strncmp(b, w, 48) != 0);                 /* the MAPE moved */
    assert_int_equal(stat("docs/validation/correlation.csv", &after), 0);
    assert_true(before.st_mtime == after.st_mtime && before.st_size == after.st_size);
    assert_int_equal(validate_run("--only vecadd --set nosuch.key=1", &bad), 2);
    assert_non_null(strstr(bad, "nosuch.key: unknown key"));
    free(base);
    free(what);
    free(bad);
}

/* --step on tiny.ini: evenodd's if/else shows both paths on the SIMT stack
 * (even lanes 1.1.1.1. first, odd lanes .1.1.1.1 below) with the join pc. */
static void test_step_mode(void **s)
{
    (void)s;
    expect("--step -D N=8 -D BLOCK=8 configs/tiny.ini kernels/evenodd.s", 0, "SIMT stack of block 0 warp 0 (top first):");
    expect("--step -D N=8 -D BLOCK=8 configs/tiny.ini kernels/evenodd.s", 0, "    pc   18  reconverge 19    .1.1.1.1");
    expect("--step -D N=8 -D BLOCK=8 configs/tiny.ini kernels/evenodd.s", 0, "scheduler 0: issued block 0 warp 0  pc 17 (line 60): bra JOIN;");
    expect("--step-sm x configs/tiny.ini kernels/evenodd.s", 2, "--step-sm and --step-warp take a number");
    /* an SM or warp the view would never show is an error, not an empty view
     * (tiny.ini: 1 SM, warps of 8 threads; a block of 8 is one warp) */
    expect("--step --step-sm 1 -D N=8 -D BLOCK=8 configs/tiny.ini kernels/evenodd.s", 2,
           "--step-sm: error: SM 1: configs/tiny.ini has 1 SM (SM 0)");
    expect("--step --step-warp 1 -D N=8 -D BLOCK=8 configs/tiny.ini kernels/evenodd.s", 2,
           "--step-warp: error: warp 1: the largest block of kernels/evenodd.s has 1 warp (warp 0)");
    expect("--step --step-warp 15 -D N=8 -D BLOCK=128 configs/tiny.ini kernels/evenodd.s", 0, "SIMT stack of block 0 warp 15");
    expect("--step --step-warp 16 -D N=8 -D BLOCK=128 configs/tiny.ini kernels/evenodd.s", 2,
           "--step-warp: error: warp 16: the largest block of kernels/evenodd.s has 16 warps (0 to 15)");
    /* without timing neither view runs: nothing to check */
    expect("--functional --step --step-sm 1 -D N=8 -D BLOCK=8 configs/tiny.ini kernels/evenodd.s", 0, "check out");
}

/* Output of "script -q -c 'SHELL_CMD' /dev/null": SHELL_CMD on a pseudo-
 * terminal, its %s the gpusim under test (malloc'd). */
static char *on_terminal(const char *shell_cmd)
{
    char inner[1024], cmd[1200];
    snprintf(inner, sizeof inner, shell_cmd, gpusim_bin());
    snprintf(cmd, sizeof cmd, "script -q -c '%s' /dev/null </dev/null", inner);
    FILE *f = popen(cmd, "r");
    assert_non_null(f);
    char *out = gpusim_slurp(f);
    pclose(f);
    return out;
}

/* The terminal's last line erased (the meter's "\r\033[K"), script's own
 * line end aside. */
static int ends_erased(const char *tty)
{
    size_t n = strlen(tty);
    while (n && (tty[n - 1] == '\n' || tty[n - 1] == '\r')) n--;
    return n >= 4 && !memcmp(tty + n - 4, "\r\033[K", 4);
}

/* --progress: where a long run has got, on stderr only.  --progress=0
 * writes a line at every tick: each block of a --functional run, every
 * 4,096 turns of the timing loop (fermi.ini tiled_mm's default size runs
 * 16,328 cycles: at least one tick).  Off by default where stderr is not
 * a terminal; the report is the same with it. */
static void test_progress(void **s)
{
    (void)s;
    expect("--progress=0 --functional configs/fermi.ini kernels/evenodd.s", 0,
           "gpusim: launch 1/1 evenodd (functional): ");
    expect("--progress=0 --functional configs/fermi.ini kernels/evenodd.s", 0, "(functional): blocks 8/8 started, ");
    expect("--progress=0 configs/fermi.ini kernels/tiled_mm.s", 0, "gpusim: launch 1/1 tiled_mm: cycle ");
    char *plain, *with, *quiet, *off;
    assert_int_equal(run("configs/fermi.ini kernels/tiled_mm.s", &plain), 0);
    assert_null(strstr(plain, "gpusim: launch"));                 /* not a terminal: off */
    assert_int_equal(gpusim_run("--progress=0 configs/fermi.ini kernels/tiled_mm.s", &with, 0), 0);
    assert_int_equal(gpusim_run("configs/fermi.ini kernels/tiled_mm.s", &quiet, 0), 0);
    assert_string_equal(with, quiet);                             /* stdout: the same report */
    assert_int_equal(run("--progress=0 --no-progress configs/fermi.ini kernels/tiled_mm.s", &off), 0);
    assert_null(strstr(off, "gpusim: launch"));
    free(plain);
    free(with);
    free(quiet);
    free(off);
    expect("--progress=x configs/fermi.ini kernels/evenodd.s", 2, "--progress=S takes seconds from 0 to 86400, not 'x'");
    expect("--progress=-1 configs/fermi.ini kernels/evenodd.s", 2, "--progress=S takes seconds");
    /* on a terminal (script(1) gives one, where it is installed and can
     * open a pseudo-terminal): one line rewritten in place, erased before
     * the report */
    if (system("script -q -c true /dev/null </dev/null >/dev/null 2>&1") == 0) {
        char *tty = on_terminal("%s --progress=0 configs/fermi.ini kernels/tiled_mm.s >/dev/null");
        assert_non_null(strstr(tty, "\rgpusim: launch 1/1 tiled_mm: cycle "));
        assert_non_null(strstr(tty, "\033[K"));
        assert_true(ends_erased(tty));                             /* erased at the end */
        free(tty);
        /* asked for, it shows even while stdout feeds another program (by
         * default it would not: test_meter) */
        tty = on_terminal("%s --progress=0 configs/fermi.ini kernels/tiled_mm.s | cat >/dev/null");
        assert_non_null(strstr(tty, "gpusim: launch 1/1 tiled_mm: cycle "));   /* asked for: shown */
        free(tty);
        /* a line that wrapped would not be rewritten in place: cut to the width */
        tty = on_terminal("stty cols 50; %s --progress=0 configs/fermi.ini kernels/tiled_mm.s >/dev/null");
        const char *cut = strstr(tty, "\rgpusim: launch 1/1 tiled_mm: cycle ");
        assert_non_null(cut);
        const char *end = strstr(cut, "\033[K");
        assert_non_null(end);
        assert_int_equal(end - cut - 1, 49);                      /* one column short of 50 */
        free(tty);
        /* a sweep whose CSV goes elsewhere counts its points instead */
        tty = on_terminal("%s --sweep l1.assoc=1,2 configs/fermi.ini kernels/evenodd.s >/dev/null");
        assert_non_null(strstr(tty, "\rgpusim: sweep: 2/2 points done, "));
        assert_true(ends_erased(tty));
        free(tty);
    }
    /* elsewhere only when asked: a line a point */
    expect("--progress --sweep l1.assoc=1,2 configs/fermi.ini kernels/evenodd.s", 0, "gpusim: sweep: 2/2 points done, ");
    char *sweep;
    assert_int_equal(run("--sweep l1.assoc=1,2 configs/fermi.ini kernels/evenodd.s", &sweep), 0);
    assert_null(strstr(sweep, "points done"));
    free(sweep);
}

/* Observations come from the measured pattern: the column read of
 * transpose_shared is a 32-way conflict with words 32 apart; the padded
 * tile has none.  Piped output has no colour codes. */
static void test_observations(void **s)
{
    (void)s;
    expect("--functional configs/fermi.ini kernels/transpose_shared.s", 0, "32.0 wavefronts per instruction: a 32-way shared-memory bank conflict.");
    expect("--functional configs/fermi.ini kernels/transpose_shared.s", 0, "Padding each row by one word (a stride of 33)");
    expect("--functional -D STRIDE=16 configs/fermi.ini kernels/strided_copy.s", 0, "Neighbouring lanes are 64 bytes apart");
    char *out;
    assert_int_equal(run("--functional configs/fermi.ini kernels/transpose_padded.s", &out), 0);
    assert_null(strstr(out, "bank conflict"));
    assert_null(strstr(out, "\033["));
    free(out);
}

static void test_dump_config_round_trip(void **s)
{
    (void)s;
    char *a, *b;
    assert_int_equal(run("--dump-config configs/fermi.ini", &a), 0);
    FILE *f = fopen("/tmp/gpusim_test_dump.ini", "w");
    assert_non_null(f);
    fputs(a, f);
    fclose(f);
    assert_int_equal(run("--dump-config /tmp/gpusim_test_dump.ini", &b), 0);
    assert_string_equal(a, b);
    free(a);
    free(b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_help_version),
        cmocka_unit_test(test_exit_codes),
        cmocka_unit_test(test_progress),
        cmocka_unit_test(test_threads),
        cmocka_unit_test(test_newcomer_slips),
        cmocka_unit_test(test_integers_exact),
        cmocka_unit_test(test_trace_messages),
        cmocka_unit_test(test_defines_and_sets),
        cmocka_unit_test(test_output_and_dump),
        cmocka_unit_test(test_disasm_occupancy),
        cmocka_unit_test(test_validate_what_if),
        cmocka_unit_test(test_dump_config_round_trip),
        cmocka_unit_test(test_step_mode),
        cmocka_unit_test(test_observations),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
