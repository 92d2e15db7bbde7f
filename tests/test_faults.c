/* test_faults.c - run-time faults: every kind stops the run with RUN_FAULT
 * (exit code 3) and names the block, thread, warp, lane, pc and source line.
 *
 * Each kernel is a file in tests/data/fault_*.s whose header says what goes
 * wrong where.  The Fault record and the text report_fault() prints are
 * pinned for the functional engine, the timing model must agree on them,
 * and the real binary is run once to check the exit status and stderr.
 * Run from the repo root.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "isa/asm.h"
#include "sim/base/config.h"
#include "sim/front/report.h"
#include "sim/front/run.h"

typedef struct Expect {
    const char *file;
    uint64_t max_cycles;     /* RunOptions.max_cycles (0: default) */
    FaultKind kind;
    uint32_t cta[3];
    int warp, lane;          /* -1: the fault is not one warp's / lane's */
    uint32_t tid[3];         /* when lane >= 0 */
    uint32_t pc, line;
    const char *head;        /* report line 1 up to the message */
    const char *msg;         /* within the message */
    const char *where;       /* report line 3, exactly */
} Expect;

static const Expect oob = {
    "tests/data/fault_oob.s", 0, FAULT_OUT_OF_BOUNDS, { 15, 0, 0 }, 1, 11, { 43, 0, 0 }, 14, 28,
    "tests/data/fault_oob.s:28:5: fault (out-of-bounds access): out-of-bounds global access at 0x",
    ": c[1003] is 0 bytes past the end of c (1003 floats)",
    "  in launch 1 (vecadd), block (15,0,0), thread (43,0,0) (warp 1, lane 11), pc 14: st.global.f32 [%rd7], %f3;",
};

static const Expect before = {
    "tests/data/fault_before.s", 0, FAULT_OUT_OF_BOUNDS, { 0, 0, 0 }, 0, 21, { 5, 2, 0 }, 8, 18,
    "tests/data/fault_before.s:18:5: fault (out-of-bounds access): out-of-bounds global access at 0x",
    ": a[-1] is 4 bytes before the start of a (64 32-bit values)",
    "  in launch 1 (k), block (0,0,0), thread (5,2,0) (warp 0, lane 21), pc 8: ld.global.u32 %r5, [%rd4];",
};

static const Expect misaligned = {
    "tests/data/fault_misaligned.s", 0, FAULT_MISALIGNED, { 0, 0, 0 }, 0, 1, { 1, 0, 0 }, 5, 15,
    "tests/data/fault_misaligned.s:15:5: fault (misaligned access): ",
    "misaligned 4-byte global access at address 0x10000002, byte 2 of a (not a multiple of 4)",
    "  in launch 1 (k), block (0,0,0), thread (1,0,0) (warp 0, lane 1), pc 5: ld.global.f32 %f1, [%rd4];",
};

static const Expect shared_oob = {
    "tests/data/fault_shared_oob.s", 0, FAULT_OUT_OF_BOUNDS, { 0, 0, 0 }, 2, 0, { 64, 0, 0 }, 5, 15,
    "tests/data/fault_shared_oob.s:15:5: fault (out-of-bounds access): ",
    "out-of-bounds shared access at offset 256: the shared space has 256 bytes",
    "  in launch 1 (k), block (0,0,0), thread (64,0,0) (warp 2, lane 0), pc 5: st.shared.f32 [%r4], %f1;",
};

static const Expect bar_partial = {
    "tests/data/fault_bar_partial.s", 0, FAULT_BARRIER, { 0, 0, 0 }, 0, -1, { 0, 0, 0 }, 4, 12,
    "tests/data/fault_bar_partial.s:12:5: fault (barrier divergence): ",
    "bar.sync reached by only part of warp 0 (active lanes 0xaaaaaaaa of 0xffffffff)",
    "  in launch 1 (k), block (0,0,0), warp 0, pc 4: bar.sync 0;",
};

static const Expect bar_warps = {
    "tests/data/fault_bar_warps.s", 0, FAULT_BARRIER, { 0, 0, 0 }, -1, -1, { 0, 0, 0 }, 3, 12,
    "tests/data/fault_bar_warps.s:12:5: fault (barrier divergence): ",
    "in block (0,0,0): warps wait at different bar.sync instructions: "
    "warp 0 (lanes 0xffffffff) at line 12, warp 1 (lanes 0xffffffff) at line 15",
    "  in launch 1 (k), block (0,0,0), pc 3: bar.sync 0;",
};

static const Expect deadlock = {
    "tests/data/fault_deadlock.s", 0, FAULT_DEADLOCK, { 0, 0, 0 }, -1, -1, { 0, 0, 0 }, 1, 9,
    "tests/data/fault_deadlock.s:9:5: fault (deadlock): ",
    "deadlock in block (0,0,0): bar.sync 0 waits for 128 threads but only 64 can arrive",
    "  in launch 1 (k), block (0,0,0), pc 1: bar.sync 0, 128;",
};

/* ---- helpers ---------------------------------------------------------------------- */

typedef struct Faulted {
    Program *p;
    Config cfg;
    Run run;
    int rc;
    char *report;            /* what report_fault printed */
} Faulted;

static void run_file(Faulted *f, const char *path, uint64_t max_cycles, int functional)
{
    DiagList dl = { 0 };
    memset(f, 0, sizeof *f);
    config_defaults(&f->cfg);
    f->p = asm_assemble_file(path, NULL, &dl);
    if (!f->p)
        for (int i = 0; i < dl.n; i++) print_error("%s:%d:%d: %s\n", dl.v[i].file, dl.v[i].line, dl.v[i].col, dl.v[i].msg);
    assert_non_null(f->p);
    RunOptions o = { .functional = functional, .max_cycles = max_cycles };
    f->rc = run_program(&f->run, f->p, &f->cfg, "(defaults)", &o, &dl);
    if (f->rc == RUN_BAD_INPUT)
        for (int i = 0; i < dl.n; i++) print_error("%s:%d:%d: %s\n", dl.v[i].file, dl.v[i].line, dl.v[i].col, dl.v[i].msg);
    diag_free(&dl);
    if (f->rc == RUN_FAULT) {
        size_t len = 0;
        FILE *mem = open_memstream(&f->report, &len);
        assert_non_null(mem);
        report_fault(&f->run, mem);
        fclose(mem);
    }
}

static void faulted_free(Faulted *f)
{
    free(f->report);
    run_free(&f->run);
    program_free(f->p);
}

/* Line n (0-based) of text, without its newline, in buf. */
static const char *line_of(const char *text, int n, char *buf, size_t size)
{
    for (; n > 0 && text; n--) {
        text = strchr(text, '\n');
        if (text) text++;
    }
    assert_non_null(text);
    size_t len = strcspn(text, "\n");
    assert_true(len < size);
    memcpy(buf, text, len);
    buf[len] = '\0';
    return buf;
}

static void expect_fault(const Faulted *f, const Expect *e)
{
    const Fault *ft = &f->run.fault;
    if (f->rc != RUN_FAULT) fail_msg("%s: ran with code %d, want a fault (%d)", e->file, f->rc, RUN_FAULT);
    assert_int_equal(RUN_FAULT, 3);                  /* the exit code */
    assert_int_equal(ft->kind, e->kind);
    assert_int_equal(ft->launch, 0);
    assert_memory_equal(ft->cta, e->cta, sizeof e->cta);
    assert_int_equal(ft->warp, e->warp);
    assert_int_equal(ft->lane, e->lane);
    if (e->lane >= 0) assert_memory_equal(ft->tid, e->tid, sizeof e->tid);
    assert_int_equal(ft->pc, e->pc);
    assert_int_equal(ft->line, e->line);
    assert_int_equal(f->p->entries[f->p->launches[0].entry].code[ft->pc].line, e->line);
    char l1[800], l3[400];
    line_of(f->report, 0, l1, sizeof l1);
    line_of(f->report, 2, l3, sizeof l3);
    if (strncmp(l1, e->head, strlen(e->head)) || !strstr(l1, e->msg))
        fail_msg("report line 1:\n  %s\nwant it to start with\n  %s\nand contain\n  %s", l1, e->head, e->msg);
    assert_string_equal(l3, e->where);
}

/* The functional engine, then the timing model: same fault, same report. */
static void check(const Expect *e)
{
    Faulted f, t;
    run_file(&f, e->file, e->max_cycles, 1);
    expect_fault(&f, e);
    run_file(&t, e->file, e->max_cycles, 0);
    expect_fault(&t, e);
    assert_string_equal(t.report, f.report);
    faulted_free(&f);
    faulted_free(&t);
}

/* ---- one test per fault kind --------------------------------------------------------- */

static const Expect membermask = {
    "tests/data/fault_membermask.s", 0, FAULT_MEMBERMASK, { 0, 0, 0 }, 0, -1, { 0, 0, 0 }, 3, 13,
    "tests/data/fault_membermask.s:13:5: fault (membermask): ",
    "shfl.sync: membermask 0xffffffff names lanes 0xffff0000 that do not execute it here",
    "  in launch 1 (k), block (0,0,0), warp 0, pc 3: shfl.sync.down.b32 %r2, %r1, 1, 31, 4294967295;",
};

static void test_oob_store_past_end(void **state) { (void)state; check(&oob); }
static void test_oob_read_before_start(void **state) { (void)state; check(&before); }
static void test_misaligned_load(void **state) { (void)state; check(&misaligned); }
static void test_shared_oob(void **state) { (void)state; check(&shared_oob); }
static void test_barrier_part_of_warp(void **state) { (void)state; check(&bar_partial); }
static void test_barrier_different_warps(void **state) { (void)state; check(&bar_warps); }
static void test_barrier_deadlock(void **state) { (void)state; check(&deadlock); }
static void test_membermask(void **state) { (void)state; check(&membermask); }

/* The watchdog stops an endless loop.  Where it stops depends on the
 * engine's unit (warp instructions per block, or cycles), so only the kind
 * and the message are pinned, plus a pc inside the loop in functional mode. */
static void test_watchdog(void **state)
{
    (void)state;
    Faulted f;
    run_file(&f, "tests/data/fault_watchdog.s", 10000, 1);
    assert_int_equal(f.rc, RUN_FAULT);
    assert_int_equal(f.run.fault.kind, FAULT_WATCHDOG);
    assert_int_equal(f.run.fault.warp, 0);
    assert_true(f.run.fault.pc >= 1 && f.run.fault.pc <= 3);   /* LOOP: add, setp, bra */
    assert_int_equal(f.run.fault.line, f.p->entries[0].code[f.run.fault.pc].line);
    assert_non_null(strstr(f.report, "fault (watchdog): watchdog: block (0,0,0) issued more than 10000 warp instructions"));
    assert_non_null(strstr(f.report, "  in launch 1 (k), block (0,0,0), warp 0, pc "));
    faulted_free(&f);
    /* with timing, cycles; the fault names the warp of the loop, the one
     * still running that has issued the most (it named none, "file:0:0",
     * until the twenty-first session) */
    run_file(&f, "tests/data/fault_watchdog.s", 10000, 0);
    assert_int_equal(f.rc, RUN_FAULT);
    assert_int_equal(f.run.fault.kind, FAULT_WATCHDOG);
    assert_int_equal(f.run.fault.warp, 0);
    assert_true(f.run.fault.pc >= 1 && f.run.fault.pc <= 3);
    assert_int_equal(f.run.fault.line, f.p->entries[0].code[f.run.fault.pc].line);
    assert_non_null(strstr(f.report, "fault (watchdog): watchdog: the launch ran past 10000 cycles (an endless loop? "
                                     "raise --max-cycles); of the warps still running, this one has issued the most ("));
    assert_non_null(strstr(f.report, "  in launch 1 (k), block (0,0,0), warp 0, pc "));
    faulted_free(&f);
    /* block 1's warp 1 loops, its warp 0 waits at the barrier, block 0 is
     * done: warp 1 of block (1,0,0), in its loop (source pcs 7-9) */
    run_file(&f, "tests/data/fault_watchdog_warps.s", 20000, 0);
    assert_int_equal(f.rc, RUN_FAULT);
    assert_int_equal(f.run.fault.kind, FAULT_WATCHDOG);
    assert_int_equal(f.run.fault.cta[0], 1);
    assert_int_equal(f.run.fault.warp, 1);
    assert_true(f.run.fault.pc >= 7 && f.run.fault.pc <= 9);
    assert_non_null(strstr(f.report, "  in launch 1 (k), block (1,0,0), warp 1, pc "));
    faulted_free(&f);
}

/* The fault kernels are right apart from their one mistake: the same
 * vector add with enough threads' worth of c runs clean (a control for
 * test_oob_store_past_end). */
static void test_no_fault_without_the_mistake(void **state)
{
    (void)state;
    DiagList dl = { 0 };
    AsmDefine d = { "N", "1024" };
    AsmOptions o = { &d, 1 };
    Program *p = asm_assemble_file("tests/data/fault_oob.s", &o, &dl);
    assert_non_null(p);
    Config cfg;
    config_defaults(&cfg);
    Run r;
    assert_int_equal(run_program(&r, p, &cfg, "(defaults)", &(RunOptions){ .functional = 1 }, &dl), RUN_OK);
    assert_int_equal(r.faulted, 0);
    run_free(&r);
    program_free(p);
    diag_free(&dl);
}

/* ---- the real binary -------------------------------------------------------------------- */

static const char *gpusim_path(void)
{
    const char *g = getenv("GPUSIM");       /* tests/run.sh sets it per build */
    return g && *g ? g : "./gpusim";
}

/* Runs the binary with stderr captured; returns its exit status. */
static int run_binary(const char *args, char *err, size_t size)
{
    char path[] = "/tmp/gpusim_faults_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "%s %s >/dev/null 2>%s", gpusim_path(), args, path);
    int st = system(cmd);
    FILE *in = fopen(path, "r");
    assert_non_null(in);
    size_t n = fread(err, 1, size - 1, in);
    err[n] = '\0';
    fclose(in);
    unlink(path);
    assert_true(WIFEXITED(st));
    return WEXITSTATUS(st);
}

/* bar.arrive on a named barrier with a thread count lets a producer warp go
 * on while a consumer warp waits: no deadlock, and the consumer sees the
 * value (functional and timing). */
static void test_named_barrier_arrive(void **state)
{
    (void)state;
    DiagList dl = { 0 };
    Program *p = asm_assemble_file("tests/data/named_barrier.s", NULL, &dl);
    assert_non_null(p);
    Config cfg;
    config_defaults(&cfg);
    for (int functional = 0; functional < 2; functional++) {
        Run r;
        assert_int_equal(run_program(&r, p, &cfg, "(defaults)", &(RunOptions){ .functional = functional }, &dl), RUN_OK);
        run_free(&r);
    }
    program_free(p);
    diag_free(&dl);
}

static void test_binary_exit_status(void **state)
{
    (void)state;
    if (access(gpusim_path(), X_OK) != 0) fail_msg("%s is not built (run make first)", gpusim_path());
    const char *cfg = access("configs/fermi.ini", R_OK) == 0 ? "configs/fermi.ini" : NULL;
    if (!cfg) fail_msg("configs/fermi.ini is missing");
    char err[4096], args[512];
    snprintf(args, sizeof args, "--functional %s tests/data/fault_oob.s", cfg);
    assert_int_equal(run_binary(args, err, sizeof err), 3);
    char line[800];
    line_of(err, 0, line, sizeof line);
    assert_true(strncmp(line, oob.head, strlen(oob.head)) == 0);
    assert_non_null(strstr(line, oob.msg));
    assert_string_equal(line_of(err, 1, line, sizeof line),
                        "        st.global.f32 [%rd7], %f3;               // no \"if (i < n)\": faults at i = 1003");
    assert_string_equal(line_of(err, 2, line, sizeof line), oob.where);

    snprintf(args, sizeof args, "--functional --max-cycles 10000 %s tests/data/fault_watchdog.s", cfg);
    assert_int_equal(run_binary(args, err, sizeof err), 3);
    assert_non_null(strstr(err, "fault (watchdog): watchdog: block (0,0,0) issued more than 10000 warp instructions"));

    snprintf(args, sizeof args, "%s tests/data/fault_bar_warps.s", cfg);     /* the timing model */
    assert_int_equal(run_binary(args, err, sizeof err), 3);
    assert_non_null(strstr(err, bar_warps.msg));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_oob_store_past_end),
        cmocka_unit_test(test_oob_read_before_start),
        cmocka_unit_test(test_misaligned_load),
        cmocka_unit_test(test_shared_oob),
        cmocka_unit_test(test_barrier_part_of_warp),
        cmocka_unit_test(test_barrier_different_warps),
        cmocka_unit_test(test_barrier_deadlock),
        cmocka_unit_test(test_membermask),
        cmocka_unit_test(test_watchdog),
        cmocka_unit_test(test_no_fault_without_the_mistake),
        cmocka_unit_test(test_named_barrier_arrive),
        cmocka_unit_test(test_binary_exit_status),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
