/* test_layout.c - the tree shows the machine (issue 11), and keeps showing
 * it: a test reads every `#include "..."` line under isa/ and sim/ and
 * checks that dependencies point one way,
 *
 *     sim/front -> sim/timing -> sim/core -> sim/mem -> sim/base -> isa
 *
 * (a folder may include itself and anything to its right, never to its
 * left), that every folder has a README.md saying what lives there, and
 * that no function outside generated tables grows past MAX_FUNC_LINES.
 * Run from the repo root. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Layers, lowest first: a file in layer i may include layers 0..i. */
static const char *const layers[] = { "isa", "sim/base", "sim/mem", "sim/core", "sim/timing", "sim/front" };
enum { NLAYERS = sizeof layers / sizeof layers[0] };

/* Folders whose .c and .h files are checked: the layers and the folders
 * inside them (a subfolder belongs to its parent's layer). */
static const char *const source_dirs[] = { "isa", "sim/base", "sim/mem", "sim/core", "sim/timing", "sim/front",
                                           "sim/front/viewer" };
enum { NSOURCE_DIRS = sizeof source_dirs / sizeof source_dirs[0] };

#define MAX_FUNC_LINES 150

/* Layer of a path like "sim/core/warp.h" (or "isa/isa.h"), -1 if none. */
static int layer_of(const char *path)
{
    int best = -1;
    size_t best_len = 0;
    for (int i = 0; i < NLAYERS; i++) {
        size_t n = strlen(layers[i]);
        if (strncmp(path, layers[i], n) == 0 && path[n] == '/' && n > best_len) { best = i; best_len = n; }
    }
    return best;
}

typedef int (*FileFn)(const char *path, void *ctx);

/* Calls fn on every .c and .h file directly in dir; returns the sum. */
static int each_source(const char *dir, FileFn fn, void *ctx)
{
    DIR *d = opendir(dir);
    if (!d) return 0;
    int sum = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        size_t n = strlen(e->d_name);
        if (n < 3 || e->d_name[n - 2] != '.' || (e->d_name[n - 1] != 'c' && e->d_name[n - 1] != 'h')) continue;
        char path[512];
        if (strlen(dir) + n + 2 > sizeof path) continue;
        strcpy(path, dir);
        strcat(path, "/");
        strcat(path, e->d_name);
        sum += fn(path, ctx);
    }
    closedir(d);
    return sum;
}

/* Upward or unrooted includes in f, read as the file `path`. */
static int bad_includes(const char *path, FILE *f, int quiet)
{
    int from = layer_of(path);
    char line[1024];
    int bad = 0, lineno = 0;
    while (fgets(line, sizeof line, f)) {
        lineno++;
        const char *s = line;
        while (*s == ' ' || *s == '\t') s++;
        if (strncmp(s, "#include \"", 10) != 0) continue;
        char target[256];
        const char *q = s + 10;
        size_t n = strcspn(q, "\"");
        if (n >= sizeof target) continue;
        memcpy(target, q, n);
        target[n] = 0;
        int to = layer_of(target);
        if (to < 0) {
            /* isa.def and friends: a relative include inside isa/ */
            if (from == 0 && strchr(target, '/') == NULL) continue;
            if (!quiet)
                print_error("%s:%d: #include \"%s\" names no layer (write the path from the repo root)\n", path,
                        lineno, target);
            bad++;
        } else if (to > from) {
            if (!quiet)
                print_error("%s:%d: %s may not include %s (%s -> %s points up; layers: isa < sim/base < sim/mem < "
                        "sim/core < sim/timing < sim/front)\n",
                        path, lineno, layers[from], target, layers[from], layers[to]);
            bad++;
        }
    }
    return bad;
}

static int check_includes(const char *path, void *ctx)
{
    (void)ctx;
    FILE *f = fopen(path, "r");
    if (!f) return 1;
    int bad = bad_includes(path, f, 0);
    fclose(f);
    return bad;
}

static void includes_point_down(void **state)
{
    (void)state;
    int bad = 0, files = 0;
    for (int i = 0; i < NSOURCE_DIRS; i++) {
        bad += each_source(source_dirs[i], check_includes, NULL);
        DIR *d = opendir(source_dirs[i]);
        assert_non_null(d);
        struct dirent *e;
        while ((e = readdir(d))) files += strstr(e->d_name, ".c") != NULL;
        closedir(d);
    }
    assert_int_equal(bad, 0);
    assert_true(files >= 30);     /* the walk found the sources */
}

/* The checker itself: an upward include is caught, a downward one is not. */
static int bad_text(const char *path, const char *text)
{
    FILE *f = tmpfile();
    assert_non_null(f);
    fputs(text, f);
    rewind(f);
    int bad = bad_includes(path, f, 1);
    fclose(f);
    return bad;
}

static void upward_include_is_caught(void **state)
{
    (void)state;
    assert_int_equal(layer_of("sim/core/warp.h"), 3);
    assert_int_equal(layer_of("isa/isa.h"), 0);
    assert_int_equal(layer_of("simx/a.h"), -1);
    const char *timing = "#include <stdio.h>\n#include \"sim/timing/sm.h\"\n";
    assert_int_equal(bad_text("sim/mem/fake.c", timing), 1);     /* memory -> timing: up */
    assert_int_equal(bad_text("sim/core/fake.c", timing), 1);    /* core -> timing: up */
    assert_int_equal(bad_text("sim/front/fake.c", timing), 0);   /* front end -> timing: down */
    assert_int_equal(bad_text("sim/timing/fake.c", timing), 0);  /* its own layer */
    assert_int_equal(bad_text("isa/fake.c", "#include \"sim/base/config.h\"\n"), 1);
    assert_int_equal(bad_text("isa/fake.c", "#include \"isa.def\"\n"), 0);
    assert_int_equal(bad_text("sim/core/fake.c", "#include \"warp.h\"\n"), 1);   /* unrooted */
}

static void every_folder_has_a_readme(void **state)
{
    (void)state;
    const char *dirs[] = { "isa", "sim", "sim/base", "sim/mem", "sim/core", "sim/timing", "sim/front",
                           "sim/front/viewer", "kernels", "configs", "tests", "docs" };
    for (size_t i = 0; i < sizeof dirs / sizeof dirs[0]; i++) {
        char path[256];
        snprintf(path, sizeof path, "%s/README.md", dirs[i]);
        FILE *f = fopen(path, "r");
        if (!f) print_error("%s is missing\n", path);
        assert_non_null(f);
        fclose(f);
    }
}

/* Function bodies: a line starting with '{' at column 0 opens one, the next
 * line starting with '}' closes it.  Generated tables are not functions. */
static int check_lengths(const char *path, void *ctx)
{
    int *longest = ctx;
    FILE *f = fopen(path, "r");
    if (!f) return 1;
    char line[4096], prev[4096] = "";
    int bad = 0, lineno = 0, open_at = 0;
    char name[256] = "";
    while (fgets(line, sizeof line, f)) {
        lineno++;
        if (line[0] == '{' && !open_at) {
            open_at = lineno;
            snprintf(name, sizeof name, "%.*s", (int)strcspn(prev, "\n"), prev);
        } else if (line[0] == '}' && open_at) {
            int len = lineno - open_at - 1;
            if (len > *longest) *longest = len;
            if (len > MAX_FUNC_LINES && !strchr(name, '=')) {
                print_error("%s:%d: %s has %d lines (most: %d)\n", path, open_at, name, len, MAX_FUNC_LINES);
                bad++;
            }
            open_at = 0;
        }
        strcpy(prev, line);
    }
    fclose(f);
    return bad;
}

static void no_oversized_functions(void **state)
{
    (void)state;
    int longest = 0, bad = 0;
    for (int i = 0; i < NSOURCE_DIRS; i++) bad += each_source(source_dirs[i], check_lengths, &longest);
    assert_int_equal(bad, 0);
    assert_true(longest > 20);    /* the scan saw real functions */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(includes_point_down),
        cmocka_unit_test(upward_include_is_caught),
        cmocka_unit_test(every_folder_has_a_readme),
        cmocka_unit_test(no_oversized_functions),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
