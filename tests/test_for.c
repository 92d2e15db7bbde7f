/* test_for.c - host loops (.for VAR = A, B [, STEP] ... .end, issue 14
 * item 7): how many launches a loop makes and with which values (hand
 * counted), nested loops, negative steps, every error with its line:col,
 * and the per-launch and total figures of the reports on a tiny kernel
 * whose counts are known by hand.  Run from the repo root. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "isa/asm.h"
#include "sim/base/config.h"
#include "sim/front/report.h"
#include "sim/front/run.h"

/* An entry of three instructions per warp and a buffer; TAIL is the host part. */
#define HEAD \
    ".buffer a .u32[4] zero\n" \
    ".entry k (.param .u64 a, .param .u32 n)\n{\n    mov.u32 %r1, %tid.x;\n    add.u32 %r2, %r1, 1;\n    ret;\n}\n"

static Program *assemble(const char *text, DiagList *dl)
{
    return asm_assemble("t.s", text, strlen(text), &(AsmOptions){ NULL, 0 }, dl);
}

/* The value of loop variable `name` at launch l, or -999. */
static long long val(const Program *p, const LaunchSpec *l, const char *name)
{
    for (int k = 0; k < l->nloop; k++)
        if (!strcmp(p->loop_vars[l->loop_var[k]], name)) return (long long)l->loop_val[k];
    return -999;
}

static void test_step_three(void **state)
{
    (void)state;
    DiagList dl = { 0 };
    Program *p = assemble(HEAD ".for i = 0, 10, 3\n.launch k grid=(i+1) block=(32) args=(a, 2*i)\n.end\n", &dl);
    assert_non_null(p);
    assert_int_equal(p->nlaunches, 4);   /* i = 0, 3, 6, 9: 10 is not reached (half-open) */
    for (int n = 0; n < 4; n++) {
        const LaunchSpec *l = &p->launches[n];
        assert_int_equal(l->nloop, 1);
        assert_int_equal(val(p, l, "i"), 3 * n);
        assert_int_equal(l->grid[0], 3 * n + 1);
        assert_int_equal(l->args[1].i, 6 * n);
        assert_int_equal(l->line, 9);
    }
    assert_true(program_has_loops(p));
    program_free(p);
    diag_free(&dl);
}

static void test_bounds(void **state)
{
    (void)state;
    DiagList dl = { 0 };
    /* B exclusive; a loop that runs no times; a launch outside loops */
    Program *p = assemble(HEAD ".for i = 0, 3\n.launch k grid=(1) block=(32) args=(a, i)\n.end\n"
                               ".for j = 5, 5\n.launch k grid=(j) block=(32) args=(a, j)\n.end\n"
                               ".launch k grid=(1) block=(32) args=(a, 7)\n", &dl);
    assert_non_null(p);
    assert_int_equal(p->nlaunches, 4);
    assert_int_equal(p->launches[2].loop_val[0], 2);
    assert_int_equal(p->launches[3].nloop, 0);
    assert_int_equal(p->launches[3].args[1].i, 7);
    program_free(p);
    diag_free(&dl);
}

static void test_negative_step(void **state)
{
    (void)state;
    DiagList dl = { 0 };
    Program *p = assemble(HEAD ".define N 10\n.for i = N, 0, -4\n.launch k grid=(i) block=(32) args=(a, i)\n.end\n", &dl);
    assert_non_null(p);
    assert_int_equal(p->nlaunches, 3);   /* 10, 6, 2: while i > 0 */
    assert_int_equal(p->launches[0].grid[0], 10);
    assert_int_equal(p->launches[1].grid[0], 6);
    assert_int_equal(p->launches[2].grid[0], 2);
    program_free(p);
    diag_free(&dl);
}

static void test_nested(void **state)
{
    (void)state;
    DiagList dl = { 0 };
    /* an inner bound of the outer variable: (0,0) (0,1) (0,2) (1,1) (1,2), and
     * a second launch line per outer iteration after the inner loop */
    Program *p = assemble(HEAD ".for i = 0, 2\n    .for j = i, 3\n        .launch k grid=(i+1, j+1) block=(32) args=(a, i*10+j)\n"
                               "    .end\n    .launch k grid=(1) block=(32, i+1) args=(a, 100+i)\n.end\n", &dl);
    assert_non_null(p);
    assert_int_equal(p->nlaunches, 7);
    /* {args[1], i, j} per launch */
    static const int expect[7][3] = { { 0, 0, 0 }, { 1, 0, 1 }, { 2, 0, 2 }, { 100, 0, -999 }, { 11, 1, 1 }, { 12, 1, 2 }, { 101, 1, -999 } };
    for (int n = 0; n < 7; n++) {
        const LaunchSpec *l = &p->launches[n];
        assert_int_equal(l->args[1].i, expect[n][0]);
        assert_int_equal(val(p, l, "i"), expect[n][1]);
        assert_int_equal(val(p, l, "j"), expect[n][2]);
        assert_int_equal(l->nloop, expect[n][2] == -999 ? 1 : 2);
    }
    assert_int_equal(p->launches[4].grid[0], 2);
    assert_int_equal(p->launches[4].grid[1], 2);
    assert_int_equal(p->launches[6].block[1], 2);
    char buf[64];
    assert_string_equal(program_loop_text(p, &p->launches[5], buf, sizeof buf), "i=1 j=2");
    assert_int_equal(p->nloop_vars, 2);
    program_free(p);
    diag_free(&dl);
}

/* Each bad file gives exactly this error at this line and column. */
static void test_errors(void **state)
{
    (void)state;
    static const struct { const char *host; int line, col; const char *msg; } cases[] = {
        { ".for i = 0, 2\n.launch k grid=(1) block=(32) args=(a, i)\n", 8, 1,
          "unterminated .for i: no .end before the end of the file" },
        { ".end\n", 8, 1, ".end without .for" },
        { ".for i = 0, 4, 0\n.end\n", 8, 16, ".for step is 0: the loop would never end" },
        { ".define N 3\n.for N = 0, 2\n.end\n", 9, 6, "loop variable 'N' shadows the .define at line 8" },
        { ".for i = 0, 2\n .for i = 0, 2\n .end\n.end\n", 9, 7,
          "loop variable 'i' shadows the one of the enclosing .for at line 8 (at i=0)" },
        { ".for a = 0, 2\n.end\n", 8, 6, "loop variable 'a' has the name of a buffer" },
        { ".for i = 0, 2000000\n.end\n", 8, 1, ".for i runs 2000000 times: more than the limit of 1000000" },
        { ".for i = 0, 1001\n.for j = 0, 1000\n.end\n.end\n", 9, 1,
          ".for loops run more than 1000000 iterations in all (the limit) (at i=999)" },
        { ".for i = 0, 2\n.buffer b .u32[4] zero\n.end\n", 9, 1,
          ".buffer inside a .for: buffers are declared and checked once, outside the loops (at i=0)" },
        { ".for i = 0, 2\n.check a fill=1\n.end\n", 9, 1,
          ".check inside a .for: buffers are declared and checked once, outside the loops (at i=0)" },
        { ".for i = 0, 2\n.define M 4\n.end\n", 9, 1,
          ".define inside a .for: a .define has one value for the whole file (put it before the loop) (at i=0)" },
        { ".for i = 0, 5\n.launch k grid=(3 - i) block=(32) args=(a, i)\n.end\n", 9, 17,
          "grid dimension 0 is out of range [1,2^31-1] (at i=3)" },
        { ".for i = 0, 3\n.launch k grid=(1) block=(32) args=(a, i, i)\n.end\n", 9, 9,
          ".launch k passes 3 arguments; the entry takes 2 (at i=0)" },
        { ".for i = 0, 2\n.launch k grid=(1) block=(32) args=(a, M)\n.end\n.define M i\n", 11, 11,
          "loop variable 'i' in the value of a .define: a .define has one value for the whole file "
          "(write the expression in the .launch line) (at i=0)" },
        { ".for i = 0 2\n.end\n", 8, 12, "expected ',' between the start and the bound (.for VAR = A, B [, STEP]), got '2'" },
    };
    for (size_t n = 0; n < sizeof cases / sizeof cases[0]; n++) {
        char text[1024];
        snprintf(text, sizeof text, "%s%s", HEAD, cases[n].host);
        DiagList dl = { 0 };
        Program *p = assemble(text, &dl);
        if (p || dl.n != 1 || dl.v[0].line != cases[n].line || dl.v[0].col != cases[n].col || strcmp(dl.v[0].msg, cases[n].msg)) {
            print_error("case %zu:\n%s\n", n, cases[n].host);
            diag_print(&dl, stderr);
            fail();
        }
        program_free(p);
        diag_free(&dl);
    }
}

/* Launches with grid = i blocks of 64 threads (2 warps of 32), each warp 3
 * instructions, for i = 1, 2, 3: warp instructions 6i, thread instructions
 * 192i, blocks i; totals 36, 1152 and 6. */
static void test_report_figures(void **state)
{
    (void)state;
    DiagList dl = { 0 };
    Program *p = assemble(HEAD ".for i = 1, 4\n.launch k grid=(i) block=(64) args=(a, i)\n.end\n", &dl);
    assert_non_null(p);
    Config c;
    config_defaults(&c);
    assert_int_equal(config_set(&c, "core.schedule=source", &dl), 0);
    assert_int_equal(c.sm.warp_size, 32);
    Run r;
    assert_int_equal(run_program(&r, p, &c, "(defaults)", &(RunOptions){ .functional = 1 }, &dl), RUN_OK);
    for (int n = 0; n < 3; n++) {
        assert_int_equal(r.per_launch[n].inst, 6 * (n + 1));
        assert_int_equal(r.per_launch[n].thread_inst, 192 * (n + 1));
        assert_int_equal(r.per_launch[n].ctas, n + 1);
        assert_int_equal(r.per_launch[n].cycles, 0);
    }
    char *txt = NULL, *json = NULL;
    size_t ntxt, njson;
    FILE *f = open_memstream(&txt, &ntxt);
    report_text(&r, f);
    fclose(f);
    f = open_memstream(&json, &njson);
    report_json(&r, f);
    fclose(f);
    assert_non_null(strstr(txt, "3 launches, 3 of them made by .for loops, from 1 .launch line\n"));
    assert_non_null(strstr(txt, "per launch (3 launches)\n"
                                 "   launch  line  loop vars  grid       warp inst    thread inst\n"
                                 "        1     9  i=1        (1,1,1)            6            192\n"
                                 "        2     9  i=2        (2,1,1)           12            384\n"
                                 "        3     9  i=3        (3,1,1)           18            576\n"
                                 "    total                                     36           1152\n"));
    assert_non_null(strstr(json, "\"line\": 9, \"loop\": {\"i\": 2}, \"metrics\": {\"smsp__inst_executed.sum\": 12, "
                                 "\"smsp__thread_inst_executed.sum\": 384, \"launch__grid_size\": 2}}"));
    assert_non_null(strstr(json, "\"launch_totals\": {\"launches\": 3, \"in_loops\": 3, \"metrics\": "
                                 "{\"smsp__inst_executed.sum\": 36, \"smsp__thread_inst_executed.sum\": 1152, \"launch__grid_size\": 6}}"));
    free(txt);
    free(json);
    /* timing: the per-launch cycles add up to the run's */
    run_free(&r);
    assert_int_equal(run_program(&r, p, &c, "(defaults)", &(RunOptions){ 0 }, &dl), RUN_OK);
    uint64_t cyc = 0;
    for (int n = 0; n < 3; n++) { assert_true(r.per_launch[n].cycles > 0); cyc += r.per_launch[n].cycles; }
    assert_int_equal(cyc, r.stats.cycles);
    assert_int_equal(r.per_launch[2].inst, 18);
    run_free(&r);
    program_free(p);
    diag_free(&dl);
}

/* The example files: the stencil and the LU pass their checks, in both modes. */
static void test_examples(void **state)
{
    (void)state;
    static const char *const files[] = { "tests/data/for_stencil.s", "tests/data/for_lu.s" };
    static const int launches[] = { 10, 46 };
    for (int i = 0; i < 2; i++) {
        DiagList dl = { 0 };
        Program *p = asm_assemble_file(files[i], &(AsmOptions){ NULL, 0 }, &dl);
        assert_non_null(p);
        assert_int_equal(p->nlaunches, launches[i]);
        Config c;
        config_defaults(&c);
        for (int functional = 0; functional < 2; functional++) {
            Run r;
            assert_int_equal(run_program(&r, p, &c, "(defaults)", &(RunOptions){ .functional = functional }, &dl), RUN_OK);
            run_free(&r);
        }
        program_free(p);
        diag_free(&dl);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_step_three),
        cmocka_unit_test(test_bounds),
        cmocka_unit_test(test_negative_step),
        cmocka_unit_test(test_nested),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_report_figures),
        cmocka_unit_test(test_examples),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
