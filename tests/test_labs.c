/* test_labs.c - every lab in docs/labs/ prints what it quotes.
 *
 * The convention (docs/labs/README.md, "How the labs are tested"): a fenced
 * block whose info string is `console` holds commands and their output.
 *   - A line starting with "$ " is a command; a line ending in a backslash
 *     continues it on the next line (as in a shell).
 *   - The lines after a command, up to the next "$ " line or the end of the
 *     block, are lines its output must contain, in that order, each one a
 *     whole line.  Runs of spaces and tabs compare equal to one space, and
 *     leading and trailing blanks are ignored.  A line "..." stands for
 *     output the lab leaves out; blank lines are ignored.
 *   - The command runs with /bin/sh from the repository root, stdout and
 *     stderr together, and must exit with status 0.  "./gpusim" is replaced
 *     by $GPUSIM when it is set (the Makefile sets it per build), so the
 *     sanitizer build runs the labs too.
 * Other fenced blocks (```sh, ```text, ...) are not run.
 *
 * One test per lab file, named after it; a failure names the file, the line
 * of the command, the expected line that is missing, and prints the output. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>

enum { MAX_LABS = 32, MAX_EXPECT = 256 };

#define LAB_DIR "docs/labs"

static char *lab_files[MAX_LABS];
static int nlab_files;

static const char *bin(void)
{
    const char *b = getenv("GPUSIM");
    return b && *b ? b : "./gpusim";
}

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

/* A growing string. */
typedef struct Buf { char *s; size_t len, cap; } Buf;

static void buf_add(Buf *b, const char *s, size_t n)
{
    if (b->len + n + 1 > b->cap) {
        b->cap = (b->len + n + 1) * 2;
        b->s = realloc(b->s, b->cap);
    }
    memcpy(b->s + b->len, s, n);
    b->len += n;
    b->s[b->len] = '\0';
}

static void buf_str(Buf *b, const char *s) { buf_add(b, s, strlen(s)); }

/* In place: runs of blanks become one space, no blanks at either end. */
static char *normalise(char *s)
{
    char *w = s;
    int blank = 0;
    for (char *r = s; *r; r++) {
        if (*r == ' ' || *r == '\t' || *r == '\r') { blank = 1; continue; }
        if (blank && w != s) *w++ = ' ';
        blank = 0;
        *w++ = *r;
    }
    *w = '\0';
    return s;
}

/* "./gpusim" at the start of a word becomes $GPUSIM. */
static void substitute_bin(Buf *out, const char *cmd)
{
    const char *b = bin();
    size_t n = strlen("./gpusim");
    for (const char *p = cmd; *p;) {
        int word_start = p == cmd || strchr(" \t\n(|;&`", p[-1]);
        if (word_start && !strncmp(p, "./gpusim", n) && (!p[n] || strchr(" \t\n);|&", p[n]))) {
            buf_str(out, b);
            p += n;
        } else {
            buf_add(out, p, 1);
            p++;
        }
    }
}

/* Run CMD with sh from the repo root; its stdout and stderr go to *out. */
static int run(const char *cmd, char **out)
{
    Buf sh = { 0 };
    buf_str(&sh, "(\n");
    substitute_bin(&sh, cmd);
    buf_str(&sh, "\n) 2>&1 </dev/null");
    FILE *f = popen(sh.s, "r");
    free(sh.s);
    if (!f) { *out = strdup(""); return -1; }
    Buf o = { 0 };
    buf_add(&o, "", 0);
    char chunk[8192];
    size_t n;
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0) buf_add(&o, chunk, n);
    int st = pclose(f);
    *out = o.s;
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

typedef struct Cmd {
    const char *lab;
    int line;                       /* of the "$ " line in the lab */
    Buf text;                       /* the command, continuation lines included */
    char *expect[MAX_EXPECT];       /* normalised expected lines */
    int expect_line[MAX_EXPECT];
    int nexpect;
} Cmd;

/* Runs the command and checks its expected lines; returns 0 if all is well. */
static int check_cmd(Cmd *c)
{
    char *out;
    int rc = run(c->text.s, &out);
    int bad = 0;
    if (rc != 0) {
        print_error("%s:%d: exit status %d (want 0) from:\n  %s\n", c->lab, c->line, rc, c->text.s);
        bad = 1;
    }
    /* the output as normalised lines */
    int cap = 64, nl = 0;
    char **lines = malloc((size_t)cap * sizeof *lines);
    char *copy = strdup(out);
    for (char *save = NULL, *l = strtok_r(copy, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
        if (nl == cap) lines = realloc(lines, (size_t)(cap *= 2) * sizeof *lines);
        lines[nl++] = normalise(l);
    }
    int at = 0;
    for (int i = 0; !bad && i < c->nexpect; i++) {
        int j = at;
        while (j < nl && strcmp(lines[j], c->expect[i])) j++;
        if (j == nl) {
            int anywhere = 0;
            for (int k = 0; k < at; k++) anywhere |= !strcmp(lines[k], c->expect[i]);
            print_error("%s:%d: the output of\n  %s\nhas no line\n  %s\n(quoted at %s:%d)%s\n",
                        c->lab, c->line, c->text.s, c->expect[i], c->lab, c->expect_line[i],
                        anywhere ? "; it is there, but before the previous quoted line" : "");
            bad = 1;
            break;
        }
        at = j + 1;
    }
    if (bad) {
        size_t len = strlen(out);
        print_error("---- output (%zu bytes)%s ----\n%.*s\n---- end of output ----\n", len,
                    len > 12000 ? ", first 12000 shown" : "", len > 12000 ? 12000 : (int)len, out);
    }
    free(lines);
    free(copy);
    free(out);
    return bad;
}

/* Runs the pending command, if any, and frees it; returns 1 on a failure. */
static int flush(Cmd **pc, int *ncmds, int *nexpect)
{
    Cmd *c = *pc;
    if (!c) return 0;
    int bad = check_cmd(c);
    (*ncmds)++;
    *nexpect += c->nexpect;
    for (int i = 0; i < c->nexpect; i++) free(c->expect[i]);
    free(c->text.s);
    free(c);
    *pc = NULL;
    return bad;
}

static int is_fence(const char *line, const char **info)
{
    while (*line == ' ') line++;
    if (strncmp(line, "```", 3)) return 0;
    *info = line + 3;
    return 1;
}

static void test_lab(void **state)
{
    const char *path = *state;
    char *doc = slurp(path);
    assert_non_null(doc);
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);

    int in_fence = 0, console = 0, lineno = 0, ncmds = 0, nexpect = 0, failed = 0;
    Cmd *c = NULL;
    /* strtok_r would skip empty lines and break line numbers: split by hand */
    for (char *line = doc; line; ) {
        char *nl = strchr(line, '\n');
        if (nl) *nl = '\0';
        lineno++;
        size_t len = strlen(line);
        if (len && line[len - 1] == '\r') line[--len] = '\0';
        const char *info;
        if (is_fence(line, &info)) {
            if (!in_fence) {
                char tag[32];
                snprintf(tag, sizeof tag, "%s", info);
                in_fence = 1;
                console = !strcmp(normalise(tag), "console");
            } else {
                in_fence = 0;
                console = 0;
            }
            failed |= flush(&c, &ncmds, &nexpect);
        } else if (console) {
            const char *t = line;
            while (*t == ' ') t++;
            if (!strncmp(t, "$ ", 2)) {
                failed |= flush(&c, &ncmds, &nexpect);
                c = calloc(1, sizeof *c);
                c->lab = path;
                c->line = lineno;
                buf_str(&c->text, t + 2);
                /* continuation lines: a command line ending in a backslash */
                while (c->text.len && c->text.s[c->text.len - 1] == '\\' && nl) {
                    line = nl + 1;
                    nl = strchr(line, '\n');
                    if (nl) *nl = '\0';
                    lineno++;
                    buf_str(&c->text, "\n");
                    buf_str(&c->text, line);
                }
            } else if (c) {
                char *e = normalise(strdup(line));
                if (!*e || !strcmp(e, "...")) { free(e); }
                else if (c->nexpect < MAX_EXPECT) {
                    c->expect_line[c->nexpect] = lineno;
                    c->expect[c->nexpect++] = e;
                } else {
                    print_error("%s:%d: more than %d expected lines for one command\n", path, lineno, MAX_EXPECT);
                    free(e);
                    failed = 1;
                }
            } else if (*t) {
                print_error("%s:%d: a console block must start with a \"$ \" command line\n", path, lineno);
                failed = 1;
            }
        }
        line = nl ? nl + 1 : NULL;
    }
    if (in_fence) { print_error("%s: a code block is not closed\n", path); failed = 1; }
    failed |= flush(&c, &ncmds, &nexpect);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double s = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
    print_message("%s: %d commands, %d quoted lines, %.1f s\n", path, ncmds, nexpect, s);
    /* a lab other than the index must quote something */
    if (!strstr(path, "README.md") && (ncmds == 0 || nexpect == 0)) {
        print_error("%s: no ```console block with a command and its quoted output\n", path);
        failed = 1;
    }
    free(doc);
    assert_false(failed);
}

/* The index links every lab, and the five labs of issue 7 are there. */
static void test_index(void **state)
{
    (void)state;
    char *idx = slurp(LAB_DIR "/README.md");
    if (!idx) print_error(LAB_DIR "/README.md is missing\n");
    assert_non_null(idx);
    const char *want[] = { "01-divergence.md", "02-coalescing.md", "03-bank-conflicts.md", "04-tiling.md",
                           "05-occupancy.md" };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        int found = 0;
        for (int j = 0; j < nlab_files; j++) found |= strstr(lab_files[j], want[i]) != NULL;
        if (!found) print_error(LAB_DIR "/%s is missing\n", want[i]);
        assert_true(found);
    }
    for (int j = 0; j < nlab_files; j++) {
        const char *name = strrchr(lab_files[j], '/') + 1;
        if (!strcmp(name, "README.md")) continue;
        char link[300];
        snprintf(link, sizeof link, "(%s)", name);
        if (!strstr(idx, link)) print_error(LAB_DIR "/README.md does not link %s\n", name);
        assert_non_null(strstr(idx, link));
    }
    free(idx);
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

int main(void)
{
    DIR *d = opendir(LAB_DIR);
    if (d) {
        struct dirent *de;
        while ((de = readdir(d)) && nlab_files < MAX_LABS) {
            size_t n = strlen(de->d_name);
            if (n > 3 && !strcmp(de->d_name + n - 3, ".md")) {
                char path[512];
                snprintf(path, sizeof path, LAB_DIR "/%s", de->d_name);
                lab_files[nlab_files++] = strdup(path);
            }
        }
        closedir(d);
    }
    qsort(lab_files, (size_t)nlab_files, sizeof lab_files[0], cmp_str);
    struct CMUnitTest tests[MAX_LABS + 1];
    int n = 0;
    tests[n++] = (struct CMUnitTest){ "index", test_index, NULL, NULL, NULL };
    for (int i = 0; i < nlab_files; i++) tests[n++] = (struct CMUnitTest){ lab_files[i], test_lab, NULL, NULL, lab_files[i] };
    int rc = _cmocka_run_group_tests("labs", tests, (size_t)n, NULL, NULL);
    for (int i = 0; i < nlab_files; i++) free(lab_files[i]);
    return rc;
}
