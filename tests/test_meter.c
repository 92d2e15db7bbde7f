/* test_meter.c - the progress meter (sim/front/meter.c): when it shows,
 * and what one line says.  The terminal's in-place line is test_cli's
 * (through script(1)); here the lines go to a memory stream. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "isa/asm.h"
#include "sim/front/meter.h"

static const char *kernel =
    ".buffer a .f32[64] zero\n"
    ".launch first grid=(1) block=(32) args=(a)\n"
    ".launch second grid=(2) block=(32) args=(a)\n"
    ".entry first (.param .u64 a) { ret; }\n"
    ".entry second (.param .u64 a) { ret; }\n";

static Program *program(void)
{
    DiagList dl = { 0 };
    Program *p = asm_assemble("m.s", kernel, strlen(kernel), NULL, &dl);
    if (!p) diag_print(&dl, stderr);
    assert_non_null(p);
    diag_free(&dl);
    return p;
}

/* By default only on a terminal, and not while the report feeds another
 * program (a pager may own the terminal); asked for, anywhere; never with
 * --no-progress. */
static void test_when_it_shows(void **state)
{
    (void)state;
    Program *p = program();
    struct { int on, tty, piped, shows; } cases[] = {
        { 0, 1, 0, 1 }, { 0, 1, 1, 0 }, { 0, 0, 0, 0 }, { 0, 0, 1, 0 },
        { 1, 1, 0, 1 }, { 1, 1, 1, 1 }, { 1, 0, 0, 1 }, { 1, 0, 1, 1 },
        { -1, 1, 0, 0 }, { -1, 0, 0, 0 },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        Meter *m = meter_create(cases[i].on, -1, p, stderr, cases[i].tty, cases[i].piped);
        assert_int_equal(m != NULL, cases[i].shows);
        assert_int_equal(meter_progress(m) != NULL, cases[i].shows);
        meter_destroy(m);
    }
    program_free(p);
}

/* What a meter asked for with every = 0 (a terminal's or not) writes for
 * these ticks and then `clears` calls of clear() and its end (malloc'd). */
static char *shown(int tty, const ProgressPoint *pts, int npts, int clears)
{
    Program *p = program();
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    assert_non_null(out);
    Meter *m = meter_create(1, 0, p, out, tty, 0);
    const Progress *pr = meter_progress(m);
    for (int i = 0; i < npts; i++) pr->tick(pr->ctx, &pts[i]);
    for (int i = 0; i < clears; i++) pr->clear(pr->ctx);
    meter_destroy(m);
    fclose(out);
    program_free(p);
    return text;
}

/* Away from a terminal, every = 0: a line a tick, thousands grouped, the
 * launch named by its entry, a functional run without a cycle; nothing to
 * erase. */
static void test_what_a_line_says(void **state)
{
    (void)state;
    ProgressPoint pts[] = { { 1, 0, 1234567, 2500000, 1, 2 }, { 0, 1, 0, 12000, 1, 1 } };
    char *text = shown(0, pts, 2, 1);
    assert_non_null(strstr(text, "gpusim: launch 2/2 second: cycle 1,234,567, blocks 1/2 started, 2.50 M warp instructions ("));
    assert_non_null(strstr(text, "gpusim: launch 1/2 first (functional): blocks 1/1 started, 0.01 M warp instructions ("));
    assert_null(strchr(text, '\r'));
    assert_null(strstr(text, "\033[K"));
    int lines = 0;
    for (const char *c = text; *c; c++) lines += *c == '\n';
    assert_int_equal(lines, 2);
    free(text);
}

/* A terminal's line is rewritten in place and erased by clear() and at
 * the end; every second at most (here the first tick shows: every = 0;
 * the second, within the second, does not; the second clear has nothing
 * left to erase). */
static void test_in_place(void **state)
{
    (void)state;
    ProgressPoint pts[] = { { 0, 0, 10, 20, 1, 1 }, { 0, 0, 10, 20, 1, 1 } };
    char *text = shown(1, pts, 2, 2);
    assert_true(!strncmp(text, "\rgpusim: launch 1/2 first: cycle 10, blocks 1/1 started", 55));
    const char *end = strstr(text, "\033[K");
    assert_non_null(end);
    assert_string_equal(end, "\033[K\r\033[K");
    free(text);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_when_it_shows),
        cmocka_unit_test(test_what_a_line_says),
        cmocka_unit_test(test_in_place),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
