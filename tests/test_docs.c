/* test_docs.c - the hand-written docs keep up with the code: every metric
 * the JSON report prints is in docs/metrics.md, every kernel is in
 * docs/kernels.md, every host directive, initialiser and reference function
 * is in docs/kernel-format.md.  (docs/isa.md and docs/config.md are
 * generated; test_isa.c and test_config.c compare them byte for byte.) */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "isa/asm.h"
#include "sim/base/config.h"
#include "sim/front/host.h"
#include "sim/front/report.h"
#include "sim/front/run.h"

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *s = malloc((size_t)n + 1);
    if (s && fread(s, 1, (size_t)n, f) != (size_t)n) { free(s); s = NULL; }
    if (s) s[n] = '\0';
    fclose(f);
    return s;
}

static void must_mention(const char *doc, const char *docname, const char *what)
{
    if (!strstr(doc, what)) print_error("%s does not mention %s\n", docname, what);
    assert_non_null(strstr(doc, what));
}

static void test_metrics_documented(void **state)
{
    (void)state;
    char *doc = slurp("docs/metrics.md");
    assert_non_null(doc);
    Config c;
    DiagList dl = { 0 };
    config_defaults(&c);
    assert_int_equal(config_load_file(&c, "configs/fermi.ini", &dl), 0);
    Program *p = asm_assemble_file("kernels/vecadd.s", NULL, &dl);
    assert_non_null(p);
    for (int functional = 0; functional < 2; functional++) {
        Run r;
        RunOptions o = { .functional = functional };
        assert_int_equal(run_program(&r, p, &c, "configs/fermi.ini", &o, &dl), RUN_OK);
        char *json = NULL;
        size_t len = 0;
        FILE *m = open_memstream(&json, &len);
        report_json(&r, m);
        fclose(m);
        /* every "name": inside "metrics" */
        char *at = strstr(json, "\"metrics\"");
        assert_non_null(at);
        char *end = strchr(at, '}');
        for (char *q = strchr(at + 10, '"'); q && q < end; q = strchr(q + 1, '"')) {
            char *close = strchr(q + 1, '"');
            char name[128];
            snprintf(name, sizeof name, "%.*s", (int)(close - q - 1), q + 1);
            /* names with _ld/_st pairs are documented as "..._ld.sum`, `_st.sum" */
            char *st = strstr(name, "_st.sum");
            if (st) memcpy(st, "_ld", 3);
            must_mention(doc, "docs/metrics.md", name);
            q = close;
        }
        free(json);
        run_free(&r);
    }
    program_free(p);
    diag_free(&dl);
    free(doc);
}

static void test_kernels_documented(void **state)
{
    (void)state;
    char *doc = slurp("docs/kernels.md");
    assert_non_null(doc);
    DIR *d = opendir("kernels");
    assert_non_null(d);
    struct dirent *de;
    int n = 0;
    while ((de = readdir(d))) {
        size_t len = strlen(de->d_name);
        if (len < 3 || strcmp(de->d_name + len - 2, ".s")) continue;
        char name[300];
        snprintf(name, sizeof name, "`%s`", de->d_name);
        must_mention(doc, "docs/kernels.md", name);
        n++;
    }
    closedir(d);
    assert_true(n >= 17);
    free(doc);
}

static void test_kernel_format_documented(void **state)
{
    (void)state;
    char *doc = slurp("docs/kernel-format.md");
    assert_non_null(doc);
    const char *words[] = { ".define", ".buffer", ".launch", ".check", "grid=", "block=", "args=",
                            "zero", "random(seed=", "iota", "fill(V)", "file(\"PATH\")", "ref=", "equals=",
                            "tol=", "rtol=", ".nregs", ".shared", ".local", ".const", ".reg" };
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++) must_mention(doc, "docs/kernel-format.md", words[i]);
    for (int i = 0; i < host_ref_count(); i++) {
        char name[64];
        snprintf(name, sizeof name, "`%s(", host_ref_name(i));
        must_mention(doc, "docs/kernel-format.md", name);
    }
    free(doc);
}

/* The repo stands alone (issue 13): a clone has nothing beside it, so no
 * file that make, the tests or the docs read may name a path outside the
 * repo.  Walks the tracked top-level folders recursively. */
#define OUTSIDE "../" "shared/"      /* split, so this file does not match itself */

static int names_outside(const char *dir, int depth)
{
    DIR *d = opendir(dir);
    if (!d) return 0;
    int bad = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.') continue;
        char path[1024];
        if (strlen(dir) + strlen(e->d_name) + 2 > sizeof path) continue;
        strcpy(path, dir);
        strcat(path, "/");
        strcat(path, e->d_name);
        DIR *sub = depth < 6 ? opendir(path) : NULL;
        if (sub) {
            closedir(sub);
            bad += names_outside(path, depth + 1);
            continue;
        }
        size_t n = strlen(e->d_name);
        int text = (n > 2 && (!strcmp(e->d_name + n - 2, ".c") || !strcmp(e->d_name + n - 2, ".h") ||
                              !strcmp(e->d_name + n - 2, ".s"))) ||
                   (n > 3 && (!strcmp(e->d_name + n - 3, ".md") || !strcmp(e->d_name + n - 3, ".sh"))) ||
                   (n > 4 && !strcmp(e->d_name + n - 4, ".ini")) || !strcmp(e->d_name, "Makefile");
        if (!text) continue;
        char *s = slurp(path);
        if (s && strstr(s, OUTSIDE)) {
            print_error("%s names the shared folder beside the repo, which a clone does not have\n", path);
            bad++;
        }
        free(s);
    }
    closedir(d);
    return bad;
}

static void test_repo_stands_alone(void **state)
{
    (void)state;
    const char *roots[] = { "Makefile", "README.md", "sim", "isa", "kernels", "configs", "tests", "docs" };
    int bad = 0;
    for (size_t i = 0; i < sizeof roots / sizeof roots[0]; i++) {
        DIR *d = opendir(roots[i]);
        if (d) {
            closedir(d);
            bad += names_outside(roots[i], 0);
            continue;
        }
        char *s = slurp(roots[i]);     /* a file at the top */
        assert_non_null(s);
        if (strstr(s, OUTSIDE)) { print_error("%s names the shared folder beside the repo\n", roots[i]); bad++; }
        free(s);
    }
    assert_int_equal(bad, 0);
    char *readme = slurp("tests/validation/h100/README.md");
    assert_non_null(readme);           /* the measured data keep their origin beside them */
    must_mention(readme, "tests/validation/h100/README.md", "Origin");
    free(readme);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_metrics_documented),
        cmocka_unit_test(test_kernels_documented),
        cmocka_unit_test(test_kernel_format_documented),
        cmocka_unit_test(test_repo_stands_alone),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
