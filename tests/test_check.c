/* test_check.c - the run-time checks (sim/core/check.h): races between
 * barriers and registers read before they are written.
 *
 * Every expectation is worked out by hand in the kernel file's header:
 * tests/data/blur_nobar.s (kernels/blur.s without its bar.sync),
 * race_lanes.s (lanes of one warp, sm.independent_threads), race_global.s
 * (--check global) and uninit_halo.s.  A sweep over kernels/ and the nvcc
 * PTX of tests/validation/nvcc/ proves the checks quiet on correct code.
 * Run from the repo root.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "isa/asm.h"
#include "sim/base/config.h"
#include "sim/front/report.h"
#include "sim/front/run.h"

enum { ALL = CHECK_RACES | CHECK_RACES_GLOBAL | CHECK_UNINIT };

typedef struct Checked {
    Config cfg;
    Program *p;
    Run run;
    int rc;
} Checked;

static void print_diags(const DiagList *dl)
{
    for (int i = 0; i < dl->n; i++) print_error("%s:%d:%d: %s\n", dl->v[i].file, dl->v[i].line, dl->v[i].col, dl->v[i].msg);
}

/* Run path with the checks in flags; config: a file, or NULL for the
 * defaults (Fermi); set: one --set KEY=VALUE or NULL. */
static void run_checked(Checked *c, const char *path, const char *config, const char *set, int functional,
                        int flags)
{
    DiagList dl = { 0 };
    memset(c, 0, sizeof *c);
    config_defaults(&c->cfg);
    if (config) assert_int_equal(config_load_file(&c->cfg, config, &dl), 0);
    if (set) assert_int_equal(config_set(&c->cfg, set, &dl), 0);
    c->p = asm_assemble_file(path, NULL, &dl);
    if (!c->p) print_diags(&dl);
    assert_non_null(c->p);
    RunOptions o = { .functional = functional, .checks = flags };
    c->rc = run_program(&c->run, c->p, &c->cfg, config ? config : "(defaults)", &o, &dl);
    if (c->rc == RUN_BAD_INPUT) print_diags(&dl);
    diag_free(&dl);
}

static void checked_free(Checked *c)
{
    run_free(&c->run);
    program_free(c->p);
}

static void assert_site(const CheckSite *s, uint32_t line, int warp, int lane)
{
    assert_int_equal(s->line, line);
    assert_int_equal(s->warp, warp);
    assert_int_equal(s->lane, lane);
}

static const Hazard *hazard(const Checker *c, int i)
{
    assert_true(i < c->nhaz);
    return &c->haz[i];
}

/* tests/data/blur_nobar.s: line 55 stores tile[t+1]; lines 80 and 82 load
 * tile[t] and tile[t+2].  At each of the 3 warp boundaries of each of the 8
 * blocks, lane 31 needs the next warp's first word and lane 0 the previous
 * warp's last: 24 of each. */
enum { BLUR_ST = 55, BLUR_LD_LEFT = 80, BLUR_LD_RIGHT = 82 };

static void blur_functional(void **state)
{
    (void)state;
    Checked c;
    run_checked(&c, "tests/data/blur_nobar.s", NULL, NULL, 1, CHECK_RACES);
    assert_int_equal(c.rc, RUN_CHECK_FAILED);          /* 24 of 1000 values wrong, as the issue saw */
    assert_int_equal(c.run.checks[0].mismatches, 24);
    const Checker *k = &c.run.check;
    assert_int_equal(k->nhaz, 2);
    /* Warp 0 runs to its end first: its lane 31 reads tile[33] before warp
     * 1's lane 0 writes it... */
    const Hazard *h = hazard(k, 0);
    assert_int_equal(h->kind, HAZ_WAR);
    assert_int_equal(h->space, SP_SHARED);
    assert_int_equal(h->addr, 33 * 4);
    assert_site(&h->first, BLUR_LD_RIGHT, 0, 31);
    assert_site(&h->second, BLUR_ST, 1, 0);
    assert_int_equal(h->count, 24);
    /* ... then warp 1's lane 0 reads tile[32], which warp 0's lane 31 wrote. */
    h = hazard(k, 1);
    assert_int_equal(h->kind, HAZ_RAW);
    assert_int_equal(h->addr, 32 * 4);
    assert_site(&h->first, BLUR_ST, 0, 31);
    assert_site(&h->second, BLUR_LD_LEFT, 1, 0);
    assert_int_equal(h->count, 24);
    char word[64];
    check_word_name(c.p, &c.p->entries[0], SP_SHARED, h->addr, &c.run.mem, word, sizeof word);
    assert_string_equal(word, "tile[32]");
    checked_free(&c);
}

/* With timing, every warp stores before any loads (the loads come 25
 * instructions later), so both hazards are read-after-writes, and the
 * answer happens to be right: the check passes, the race check does not.
 * Fermi: 32 lanes, 3 boundaries x 8 blocks = 24 of each.  tiny.ini: 8
 * lanes, 15 boundaries in each of the first 7 blocks; in the last block
 * (i = 896 + t) only threads t < 104 (i < 1000) load, so the left
 * neighbour is read across boundaries 8..96 (12) and the right one across
 * 8..104 (13: thread 103 reads tile[105], which thread 104 stored, a 0). */
static void blur_timing(void **state)
{
    (void)state;
    const char *configs[] = { "configs/fermi.ini", "configs/tiny.ini" };
    const uint64_t want_left[] = { 24, 7 * 15 + 12 }, want_right[] = { 24, 7 * 15 + 13 };
    for (int i = 0; i < 2; i++) {
        Checked c;
        run_checked(&c, "tests/data/blur_nobar.s", configs[i], NULL, 0, CHECK_RACES);
        assert_int_equal(c.rc, RUN_OK);
        const Checker *k = &c.run.check;
        assert_int_equal(k->nhaz, 2);
        uint64_t left = 0, right = 0;
        for (int j = 0; j < 2; j++) {
            const Hazard *h = hazard(k, j);
            assert_int_equal(h->kind, HAZ_RAW);
            assert_int_equal(h->first.line, BLUR_ST);
            assert_int_equal(h->first.warp + (h->second.line == BLUR_LD_LEFT ? 1 : -1), h->second.warp);
            assert_int_equal(h->first.lane, h->second.line == BLUR_LD_LEFT ? c.cfg.sm.warp_size - 1 : 0);
            if (h->second.line == BLUR_LD_LEFT) left += h->count; else right += h->count;
        }
        assert_int_equal(left, want_left[i]);
        assert_int_equal(right, want_right[i]);
        checked_free(&c);
    }
}

/* kernels/blur.s has the bar.sync: nothing, in either mode. */
static void blur_with_barrier_is_clean(void **state)
{
    (void)state;
    for (int functional = 0; functional < 2; functional++) {
        Checked c;
        run_checked(&c, "kernels/blur.s", NULL, NULL, functional, ALL);
        assert_int_equal(c.rc, RUN_OK);
        assert_int_equal(check_findings(&c.run.check), 0);
        checked_free(&c);
    }
}

/* Off, the checker is never handed to the run. */
static void off_finds_nothing(void **state)
{
    (void)state;
    Checked c;
    run_checked(&c, "tests/data/blur_nobar.s", NULL, NULL, 1, 0);
    assert_int_equal(check_findings(&c.run.check), 0);
    checked_free(&c);
}

/* tests/data/race_lanes.s: one warp, lockstep by default; 32 hazards, one
 * distinct, under independent thread scheduling. */
static void lanes_of_one_warp(void **state)
{
    (void)state;
    Checked c;
    run_checked(&c, "tests/data/race_lanes.s", NULL, NULL, 1, CHECK_RACES);
    assert_int_equal(c.run.check.nhaz, 0);
    checked_free(&c);
    for (int functional = 0; functional < 2; functional++) {
        run_checked(&c, "tests/data/race_lanes.s", NULL, "sm.independent_threads=1", functional, CHECK_RACES);
        assert_int_equal(c.run.check.nhaz, 1);
        const Hazard *h = hazard(&c.run.check, 0);
        assert_int_equal(h->kind, HAZ_RAW);
        assert_int_equal(h->addr, 4);
        assert_site(&h->first, 19, 0, 1);
        assert_site(&h->second, 24, 0, 0);
        assert_int_equal(h->count, 32);
        checked_free(&c);
    }
}

/* tests/data/race_lanes_synced.s: a bar.warp.sync between the store and
 * the load orders the lanes, under independent thread scheduling too. */
static void lanes_after_syncwarp(void **state)
{
    (void)state;
    for (int functional = 0; functional < 2; functional++) {
        Checked c;
        run_checked(&c, "tests/data/race_lanes_synced.s", NULL, "sm.independent_threads=1", functional, CHECK_RACES);
        assert_int_equal(c.rc, RUN_OK);
        assert_int_equal(c.run.check.nhaz, 0);
        checked_free(&c);
    }
}

/* tests/data/race_global.s: only with CHECK_RACES_GLOBAL. */
static void global_races(void **state)
{
    (void)state;
    Checked c;
    run_checked(&c, "tests/data/race_global.s", NULL, NULL, 1, CHECK_RACES);
    assert_int_equal(c.run.check.nhaz, 0);
    checked_free(&c);
    run_checked(&c, "tests/data/race_global.s", NULL, NULL, 1, CHECK_RACES | CHECK_RACES_GLOBAL);
    const Checker *k = &c.run.check;
    assert_int_equal(k->nhaz, 2);
    const Hazard *h = hazard(k, 0);
    assert_int_equal(h->kind, HAZ_WAR);
    assert_int_equal(h->space, SP_GLOBAL);
    assert_site(&h->first, 24, 0, 0);
    assert_site(&h->second, 20, 1, 0);
    assert_int_equal(h->count, 32);
    char word[64];
    check_word_name(c.p, &c.p->entries[0], SP_GLOBAL, h->addr, &c.run.mem, word, sizeof word);
    assert_string_equal(word, "out[32]");
    h = hazard(k, 1);
    assert_int_equal(h->kind, HAZ_RAW);
    assert_site(&h->first, 20, 0, 0);
    assert_site(&h->second, 24, 1, 0);
    assert_int_equal(h->count, 32);
    checked_free(&c);
}

/* The text report names the kind, the word, both lines and the count. */
static void report_text_names_everything(void **state)
{
    (void)state;
    Checked c;
    run_checked(&c, "tests/data/blur_nobar.s", NULL, NULL, 1, CHECK_RACES);
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    report_findings(&c.run, f);
    fclose(f);
    assert_non_null(strstr(buf, "race check: 2 hazards"));
    assert_non_null(strstr(buf, "  read-after-write on shared tile[32], launch 1 block (0,0,0): 24 times\n"
                                "    line 55   warp 0 lane 31 wrote  st.shared.f32 [%r7+4], %f1;\n"
                                "    line 80   warp 1 lane 0  read   ld.shared.f32 %f7, [%r7];\n"));
    free(buf);
    checked_free(&c);
}

/* The JSON report carries the same findings, and an empty list when the
 * checks ran and found nothing. */
static void report_json_findings(void **state)
{
    (void)state;
    const char *files[] = { "tests/data/blur_nobar.s", "kernels/blur.s" };
    for (int i = 0; i < 2; i++) {
        Checked c;
        run_checked(&c, files[i], NULL, NULL, 1, CHECK_RACES | CHECK_UNINIT);
        char *buf = NULL;
        size_t len = 0;
        FILE *f = open_memstream(&buf, &len);
        report_json(&c.run, f);
        fclose(f);
        if (i == 0)
            assert_non_null(strstr(buf, "{\"kind\": \"read-after-write\", \"space\": \"shared\", \"word\": \"tile[32]\", "
                                        "\"launch\": 1, \"block\": [0, 0, 0], \"count\": 24, \"first\": {\"line\": 55, "
                                        "\"pc\": 16, \"warp\": 0, \"lane\": 31}, \"second\": {\"line\": 80, \"pc\": 35, "
                                        "\"warp\": 1, \"lane\": 0}}"));
        else
            assert_non_null(strstr(buf, "\"findings\": {\"races\": [], \"uninitialised\": [], \"dropped\": 0}\n}\n"));
        free(buf);
        checked_free(&c);
    }
}

/* tests/data/blur_uninit.s: the right halo loads through %rd8, which only
 * thread 0 writes (line 68); block 0's thread 127 (warp 3, lane 31) is the
 * first to fault, at line 79, address 8. */
static void uninit_halo(void **state)
{
    (void)state;
    Checked c;
    run_checked(&c, "tests/data/blur_uninit.s", NULL, NULL, 1, CHECK_UNINIT);
    assert_int_equal(c.rc, RUN_FAULT);
    const Fault *f = &c.run.fault;
    assert_int_equal(f->line, 79);
    assert_int_equal(f->warp, 3);
    assert_int_equal(f->lane, 31);
    assert_non_null(strstr(f->msg, "in[-67108862] is 268435448 bytes before the start of in (1000 floats). The cause: "
                                   "this thread never wrote the address register %rd8 (it is written at line 68, on "
                                   "a path this thread did not take)"));
    const Checker *k = &c.run.check;
    assert_int_equal(k->nun, 1);
    assert_string_equal(c.p->entries[0].regs[k->un[0].reg].name, "%rd8");
    assert_site(&k->un[0].site, 79, 3, 31);
    assert_int_equal(k->un[0].count, 1);
    checked_free(&c);
    /* without the check: the old message, and a hint */
    run_checked(&c, "tests/data/blur_uninit.s", NULL, NULL, 0, 0);
    assert_int_equal(c.rc, RUN_FAULT);
    assert_null(strstr(c.run.fault.msg, "The cause"));
    char *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    report_fault(&c.run, m);
    fclose(m);
    assert_non_null(strstr(buf, "(--check uninit, or --functional, says whether"));
    free(buf);
    checked_free(&c);
}

/* tests/data/uninit_derived.s: %r2 (written at line 18 by thread 0 only)
 * -> %r3 -> %rd2 -> %rd3, the address; thread 1 faults on a[-1]. */
static void uninit_derived(void **state)
{
    (void)state;
    for (int functional = 0; functional < 2; functional++) {
        Checked c;
        run_checked(&c, "tests/data/uninit_derived.s", NULL, NULL, functional, CHECK_UNINIT);
        assert_int_equal(c.rc, RUN_FAULT);
        assert_int_equal(c.run.fault.lane, 1);
        assert_non_null(strstr(c.run.fault.msg, "a[-1] is 4 bytes before the start of a (32 32-bit values). The cause: "
                                                "the address in %rd3 comes from %r2, which this thread never wrote (it "
                                                "is written at line 18, on a path this thread did not take); line 20 "
                                                "read it"));
        const Checker *k = &c.run.check;
        assert_int_equal(k->nun, 1);       /* one instruction, 31 threads: reported once, for the first */
        assert_string_equal(c.p->entries[0].regs[k->un[0].reg].name, "%r2");
        assert_site(&k->un[0].site, 20, 0, 1);
        checked_free(&c);
    }
}

/* Every shipped kernel and every nvcc-compiled one runs clean under all
 * checks, functional and timed. */
static void sweep_dir(const char *dir, const char *config, int functional)
{
    DIR *d = opendir(dir);
    assert_non_null(d);
    struct dirent *de;
    int n = 0;
    while ((de = readdir(d))) {
        size_t len = strlen(de->d_name);
        if (len < 3 || strcmp(de->d_name + len - 2, ".s")) continue;
        char path[512];
        snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
        Checked c;
        run_checked(&c, path, config, NULL, functional, ALL);
        if (c.rc != RUN_OK || check_findings(&c.run.check)) {
            print_error("%s (%s, %s): rc %d, %d findings\n", path, config, functional ? "functional" : "timing", c.rc,
                        check_findings(&c.run.check));
            report_findings(&c.run, stderr);
        }
        assert_int_equal(c.rc, RUN_OK);
        assert_int_equal(check_findings(&c.run.check), 0);
        checked_free(&c);
        n++;
    }
    closedir(d);
    assert_true(n >= 10);
}

static void no_false_positives_kernels(void **state)
{
    (void)state;
    sweep_dir("kernels", "configs/fermi.ini", 1);
    sweep_dir("kernels", "configs/fermi.ini", 0);
}

static void no_false_positives_nvcc(void **state)
{
    (void)state;
    sweep_dir("tests/validation/nvcc", "configs/hopper.ini", 1);
}

/* The binary: races=error turns a finding into exit 3; the default
 * functional run reports and keeps the .check's exit status. */
static int status_of(const char *cmd)
{
    int st = system(cmd);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static void exit_codes(void **state)
{
    (void)state;
    const char *bin = getenv("GPUSIM") && *getenv("GPUSIM") ? getenv("GPUSIM") : "./gpusim";
    char cmd[600];
    snprintf(cmd, sizeof cmd, "%s --check races=error configs/tiny.ini tests/data/blur_nobar.s >/dev/null 2>&1", bin);
    assert_int_equal(status_of(cmd), 3);
    snprintf(cmd, sizeof cmd, "%s --check races=error configs/tiny.ini kernels/blur.s >/dev/null 2>&1", bin);
    assert_int_equal(status_of(cmd), 0);
    snprintf(cmd, sizeof cmd, "%s --functional configs/fermi.ini tests/data/blur_nobar.s 2>/dev/null "
                              "| grep -q 'read-after-write on shared tile\\[32\\]'", bin);
    assert_int_equal(status_of(cmd), 0);
    snprintf(cmd, sizeof cmd, "%s --check bogus configs/fermi.ini kernels/blur.s >/dev/null 2>&1", bin);
    assert_int_equal(status_of(cmd), 2);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(blur_functional),
        cmocka_unit_test(blur_timing),
        cmocka_unit_test(blur_with_barrier_is_clean),
        cmocka_unit_test(off_finds_nothing),
        cmocka_unit_test(lanes_of_one_warp),
        cmocka_unit_test(lanes_after_syncwarp),
        cmocka_unit_test(global_races),
        cmocka_unit_test(report_text_names_everything),
        cmocka_unit_test(report_json_findings),
        cmocka_unit_test(uninit_halo),
        cmocka_unit_test(uninit_derived),
        cmocka_unit_test(no_false_positives_kernels),
        cmocka_unit_test(no_false_positives_nvcc),
        cmocka_unit_test(exit_codes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
