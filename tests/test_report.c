/* test_report.c - the text report fits a 100-column terminal and says what
 * the JSON report says (issue 7).  For every kernel in kernels/ at its default size
 * on configs/fermi.ini with timing, and for two kernels with --functional:
 *   1. every line of the text report is at most 100 bytes of printable ASCII;
 *   2. the metric sections line up (header "value  metric" over the columns,
 *      every value right-aligned in its 9 columns, the name at column 45);
 *      every metric the text prints has the JSON report's value (integers
 *      exactly, 2-decimal values against the JSON value rounded to 2
 *      decimals); every JSON metric that is non-zero or not a .sum counter
 *      is printed (the text hides zero .sum counters on purpose);
 *   3. "warp states": each percentage is its warp-cycles over the total, the
 *      percentages add up to 100 within rounding, each count equals the JSON
 *      "stalls" entry, and the JSON "stalls" add up to the text's
 *      "(N warp-cycles)".  Functional runs have neither.
 * A failure names the kernel and mode, the line number and the line (or the
 * metric, text vs JSON), and lists every problem found before failing.
 * Runs the binary named by $GPUSIM (the Makefile sets it; ./gpusim by
 * default) from the repository root. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

enum { MAX_KERNELS = 64, MAX_KV = 160, WIDTH = 100 };

#define CONFIG "configs/fermi.ini"

/* Kernels also run with --functional. */
static const char *const functional_kernels[] = { "kernels/gray2d.s", "kernels/histogram.s" };

static char *kernels[MAX_KERNELS];
static int nkernels;

static const char *bin(void)
{
    const char *b = getenv("GPUSIM");
    return b && *b ? b : "./gpusim";
}

/* Run "gpusim ARGS", capture stdout+stderr into *out (malloc'd); returns the exit code. */
static int run(const char *args, char **out)
{
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "%s %s 2>&1 </dev/null", bin(), args);
    FILE *f = popen(cmd, "r");
    assert_non_null(f);
    size_t cap = 1 << 16, len = 0;
    char *buf = malloc(cap);
    assert_non_null(buf);
    size_t n;
    while ((n = fread(buf + len, 1, cap - len - 1, f)) > 0) {
        len += n;
        if (len + 1 == cap) { cap *= 2; buf = realloc(buf, cap); assert_non_null(buf); }
    }
    buf[len] = '\0';
    int st = pclose(f);
    *out = buf;
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* name -> value, as printed. */
typedef struct Kv {
    char name[80];
    char raw[32];       /* the number as printed */
    double v;
    int line;           /* text report line, 0 for JSON */
} Kv;
typedef struct Table { Kv kv[MAX_KV]; int n; } Table;

static const Kv *find(const Table *t, const char *name)
{
    for (int i = 0; i < t->n; i++)
        if (!strcmp(t->kv[i].name, name)) return &t->kv[i];
    return NULL;
}

/* The current run, for messages. */
static const char *what;
static int problems;

static void problem(const char *fmt, ...)
{
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    print_error("%s: %s\n", what, msg);
    problems++;
}

static int put(Table *t, const char *name, size_t nlen, const char *raw, size_t rlen, double v, int line)
{
    if (nlen >= sizeof t->kv[0].name || rlen >= sizeof t->kv[0].raw) { problem("name or value too long: %.*s", (int)nlen, name); return 0; }
    char nm[sizeof t->kv[0].name];
    memcpy(nm, name, nlen);
    nm[nlen] = '\0';
    if (find(t, nm)) { problem("metric %s printed twice%s", nm, line ? " in the text report" : " in the JSON report"); return 0; }
    if (t->n == MAX_KV) { problem("more than %d metrics", MAX_KV); return 0; }
    Kv *k = &t->kv[t->n++];
    memcpy(k->name, nm, nlen + 1);
    memcpy(k->raw, raw, rlen);
    k->raw[rlen] = '\0';
    k->v = v;
    k->line = line;
    return 1;
}

static int is_integer(const char *raw) { return !strpbrk(raw, ".eE"); }

/* A number as the text report prints it: -?[0-9]+ or -?[0-9]+.[0-9][0-9] */
static int text_number(const char *s, size_t n)
{
    size_t i = 0, d = 0;
    if (i < n && s[i] == '-') i++;
    while (i < n && s[i] >= '0' && s[i] <= '9') { i++; d++; }
    if (!d) return 0;
    if (i == n) return 1;
    return n - i == 3 && s[i] == '.' && s[i + 1] >= '0' && s[i + 1] <= '9' && s[i + 2] >= '0' && s[i + 2] <= '9';
}

static int metric_name(const char *s, size_t n)
{
    if (!n) return 0;
    for (size_t i = 0; i < n; i++)
        if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= '0' && s[i] <= '9') || s[i] == '_' || s[i] == '.')) return 0;
    for (size_t i = 0; i + 1 < n; i++)
        if (s[i] == '_' && s[i + 1] == '_') return 1;
    return 0;
}

/* "  LABEL(<=30, padded to 30) VALUE(right-aligned in 9)  NAME": printf
 * "  %-30.30s %9s  %s", so the value ends at column 42 and the name starts
 * at column 45 (byte 44). */
static void metric_line(Table *t, const char *line, size_t len, int no)
{
    const char *ns = line + len;
    while (ns > line && ns[-1] != ' ') ns--;
    size_t nlen = (size_t)(line + len - ns);
    const char *ve = ns - 2;   /* two spaces before the name */
    const char *vs = ve;
    while (vs > line && vs[-1] != ' ') vs--;
    const char *le = vs;
    while (le > line && le[-1] == ' ') le--;
    if (len < 4 || line[0] != ' ' || line[1] != ' ' || line[2] == ' ' || ns - line < 6 || ns[-1] != ' ' || ns[-2] != ' ' ||
        ns[-3] == ' ' || !metric_name(ns, nlen) || !text_number(vs, (size_t)(ve - vs)) || le <= line + 2) {
        problem("line %d is not a metric line (\"  label  value  metric\"):\n%.*s", no, (int)len, line);
        return;
    }
    if (le - (line + 2) > 30) problem("line %d: label longer than 30 columns: %.*s", no, (int)(le - line - 2), line + 2);
    if (ns - line != 44)
        problem("line %d: columns out of line (value should end at column 42, the metric name start at column 45):\n%.*s",
                no, (int)len, line);
    put(t, ns, nlen, vs, (size_t)(ve - vs), strtod(vs, NULL), no);
}

typedef struct State { char name[32]; unsigned long long count; double pct; int line; } State;

typedef struct Text {
    Table metrics;
    int has_states;
    unsigned long long states_total;
    State states[32];
    int nstates;
} Text;

/* Walk the text report: widths, metric sections, warp states. */
static void parse_text(char *text, Text *out)
{
    enum { NONE, METRICS, STATES } mode = NONE;
    memset(out, 0, sizeof *out);
    int no = 0;
    for (char *line = text; *line;) {
        char *nl = strchr(line, '\n');
        size_t len = nl ? (size_t)(nl - line) : strlen(line);
        no++;
        /* Nsight's one name longer than 56 (shared atomics' bank conflicts)
         * keeps the columns and runs past them */
        static const char long_nm[] = "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_atom.sum";
        int long_name = len >= sizeof long_nm - 1 && !memcmp(line + len - (sizeof long_nm - 1), long_nm, sizeof long_nm - 1);
        if (len > WIDTH + (long_name ? 2 : 0)) problem("line %d is %zu columns (at most %d):\n%.*s", no, len, WIDTH, (int)len, line);
        for (size_t i = 0; i < len; i++)
            if ((unsigned char)line[i] < 0x20 || (unsigned char)line[i] > 0x7e) {
                problem("line %d has byte 0x%02x at column %zu (not printable ASCII):\n%.*s", no, (unsigned char)line[i], i + 1,
                        (int)len, line);
                break;
            }
        if (!len) {
            mode = NONE;
        } else if (mode == NONE && len >= 13 && !strncmp(line + len - 13, "value  metric", 13)) {
            /* printf "%-32s %9s  %s": "value" ends at column 42 like the values */
            if (len != 50 || strncmp(line + 32, "     value  metric", 18))
                problem("line %d: section header out of line (a title of at most 32 columns, \"value\" ending at column 42):\n%.*s",
                        no, (int)len, line);
            mode = METRICS;
        } else if (mode == METRICS) {
            metric_line(&out->metrics, line, len, no);
        } else if (mode == NONE && !strncmp(line, "warp states (", 13)) {
            char tail[32] = "";
            if (out->has_states) problem("line %d: a second warp states section", no);
            if (sscanf(line, "warp states (%llu warp-cycle%31[^\n]", &out->states_total, tail) != 2 || strncmp(tail, "s)", 2))
                problem("line %d: cannot read the warp-cycle total: %.*s", no, (int)len, line);
            out->has_states = 1;
            mode = STATES;
        } else if (mode == STATES) {
            /* printf "  %-20s %14llu %5.1f%%  BAR" */
            State *s = &out->states[out->nstates];
            int pos = 0;
            char c = 0;
            if (out->nstates == 32 || sscanf(line, "  %31s %llu %lf%c%n", s->name, &s->count, &s->pct, &c, &pos) != 4 || c != '%') {
                problem("line %d is not a warp state line (\"  name  count  pct%%  bar\"):\n%.*s", no, (int)len, line);
            } else {
                for (size_t i = (size_t)pos; i < len; i++)
                    if (line[i] != ' ' && line[i] != '#') { problem("line %d: the bar is not made of '#':\n%.*s", no, (int)len, line); break; }
                s->line = no;
                out->nstates++;
            }
        }
        line = nl ? nl + 1 : line + len;
    }
}

/* The flat {"name": number, ...} object that follows "KEY": { at or after
 * *from; returns 1 and moves *from past it, 0 if there is none, -1 (with a
 * problem reported) if it does not parse. */
static int parse_object(const char **from, const char *key, Table *t)
{
    char pat[64];
    snprintf(pat, sizeof pat, "\"%s\": {", key);
    const char *p = strstr(*from, pat);
    if (!p) return 0;
    p += strlen(pat);
    for (;;) {
        while (*p == ' ' || *p == '\n' || *p == '\r' || *p == '\t') p++;
        if (*p == '}') break;
        if (t->n && *p++ != ',') { problem("JSON \"%s\": expected ',' at \"%.20s\"", key, p - 1); return -1; }
        while (*p == ' ' || *p == '\n' || *p == '\r' || *p == '\t') p++;
        const char *q = *p == '"' ? strchr(p + 1, '"') : NULL;
        if (!q) { problem("JSON \"%s\": expected a name at \"%.20s\"", key, p); return -1; }
        const char *name = p + 1;
        size_t nlen = (size_t)(q - name);
        p = q + 1;
        while (*p == ' ') p++;
        if (*p++ != ':') { problem("JSON \"%s\": expected ':' after %.*s", key, (int)nlen, name); return -1; }
        while (*p == ' ') p++;
        char *end;
        double v = strtod(p, &end);
        if (end == p) { problem("JSON \"%s\": %.*s is not a number", key, (int)nlen, name); return -1; }
        if (!put(t, name, nlen, p, (size_t)(end - p), v, 0)) return -1;
        p = end;
    }
    *from = p + 1;
    return 1;
}

static int is_sum(const char *name)
{
    size_t n = strlen(name);
    return n > 4 && !strcmp(name + n - 4, ".sum");
}

static void check(const char *kernel, int functional)
{
    char label[256], args[512];
    snprintf(label, sizeof label, "%s (%s)", kernel, functional ? "--functional" : "timing");
    what = label;
    problems = 0;
    const char *mode = functional ? "--functional " : "";

    char *text, *json;
    snprintf(args, sizeof args, "%s" CONFIG " %s", mode, kernel);
    int rc = run(args, &text);
    if (rc) problem("gpusim %s: exit %d:\n%s", args, rc, text);
    assert_int_equal(rc, 0);
    snprintf(args, sizeof args, "--format json %s" CONFIG " %s", mode, kernel);
    rc = run(args, &json);
    if (rc) problem("gpusim %s: exit %d:\n%s", args, rc, json);
    assert_int_equal(rc, 0);

    /* 1 and the layout of 2 and 3 */
    Text *t = calloc(1, sizeof *t);
    Table *jm = calloc(1, sizeof *jm), *js = calloc(1, sizeof *js);
    assert_non_null(t);
    assert_non_null(jm);
    assert_non_null(js);
    parse_text(text, t);

    const char *jp = json;
    if (parse_object(&jp, "metrics", jm) == 0) problem("the JSON report has no \"metrics\" object");
    int has_stalls = parse_object(&jp, "stalls", js);
    if (!t->metrics.n) problem("the text report has no metric lines");

    /* 2: text -> JSON */
    for (int i = 0; i < t->metrics.n; i++) {
        const Kv *k = &t->metrics.kv[i];
        const Kv *j = find(jm, k->name);
        if (!j) { problem("line %d: %s is in the text report (%s) but not in the JSON report", k->line, k->name, k->raw); continue; }
        if (is_integer(k->raw)) {
            if (!is_integer(j->raw) || k->v != j->v)
                problem("line %d: %s: text %s, JSON %s", k->line, k->name, k->raw, j->raw);
        } else if (llround(k->v * 100) != llround(j->v * 100)) {
            problem("line %d: %s: text %s, JSON %s", k->line, k->name, k->raw, j->raw);
        }
    }
    /* 2: JSON -> text */
    for (int i = 0; i < jm->n; i++) {
        const Kv *j = &jm->kv[i];
        if ((j->v != 0 || !is_sum(j->name)) && !find(&t->metrics, j->name))
            problem("%s = %s in the JSON report is missing from the text report", j->name, j->raw);
    }

    /* 3: warp states */
    if (functional) {
        if (t->has_states) problem("a functional run's text report has a warp states section");
        if (has_stalls) problem("a functional run's JSON report has a \"stalls\" object");
    } else {
        if (!t->has_states) problem("the text report has no \"warp states (N warp-cycles)\" section");
        if (has_stalls != 1) problem("the JSON report has no \"stalls\" object");
        unsigned long long total = t->states_total, json_sum = 0, text_sum = 0;
        double pct_sum = 0;
        for (int i = 0; i < js->n; i++) {
            json_sum += (unsigned long long)js->kv[i].v;
            if (js->kv[i].v < 0 || !is_integer(js->kv[i].raw)) problem("JSON stalls.%s = %s", js->kv[i].name, js->kv[i].raw);
        }
        if (json_sum != total) problem("the JSON \"stalls\" add up to %llu, the text says (%llu warp-cycles)", json_sum, total);
        for (int i = 0; i < t->nstates; i++) {
            const State *s = &t->states[i];
            const Kv *j = find(js, s->name);
            text_sum += s->count;
            pct_sum += s->pct;
            if (!j) problem("line %d: warp state %s is not in the JSON \"stalls\"", s->line, s->name);
            else if ((unsigned long long)j->v != s->count)
                problem("line %d: warp state %s: text %llu, JSON %s", s->line, s->name, s->count, j->raw);
            double want = total ? 100.0 * (double)s->count / (double)total : 0;
            if (fabs(s->pct - want) > 0.05 + 1e-9)
                problem("line %d: warp state %s: %.1f%% printed, %llu / %llu is %.3f%%", s->line, s->name, s->pct, s->count, total, want);
            for (int k = 0; k < i; k++)
                if (!strcmp(t->states[k].name, s->name)) problem("line %d: warp state %s printed twice", s->line, s->name);
        }
        for (int i = 0; i < js->n; i++) {
            int shown = 0;
            for (int k = 0; k < t->nstates; k++) shown |= !strcmp(t->states[k].name, js->kv[i].name);
            if (js->kv[i].v != 0 && !shown) problem("warp state %s = %s in the JSON report is missing from the text", js->kv[i].name, js->kv[i].raw);
        }
        if (text_sum != total) problem("the warp states printed add up to %llu warp-cycles, the heading says %llu", text_sum, total);
        /* each printed to 0.1: off by at most 0.05 each */
        if (fabs(pct_sum - 100.0) > 0.05 * t->nstates + 1e-9)
            problem("the warp states add up to %.1f%% (%d states)", pct_sum, t->nstates);
    }

    if (problems)
        print_error("%s: %d problem%s (the report: %s %s" CONFIG " %s)\n", what, problems, problems == 1 ? "" : "s", bin(), mode,
                    kernel);
    free(t);
    free(jm);
    free(js);
    free(text);
    free(json);
    assert_int_equal(problems, 0);
}

static void test_timing(void **state) { check((const char *)*state, 0); }
static void test_functional(void **state) { check((const char *)*state, 1); }

static void test_kernels_found(void **state)
{
    (void)state;
    assert_true(nkernels >= 2);
    for (size_t i = 0; i < sizeof functional_kernels / sizeof functional_kernels[0]; i++) {
        int found = 0;
        for (int k = 0; k < nkernels; k++) found |= !strcmp(kernels[k], functional_kernels[i]);
        if (!found) print_error("%s is missing\n", functional_kernels[i]);
        assert_true(found);
    }
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

int main(void)
{
    DIR *d = opendir("kernels");
    if (d) {
        struct dirent *de;
        while ((de = readdir(d)) && nkernels < MAX_KERNELS) {
            size_t n = strlen(de->d_name);
            if (n > 2 && !strcmp(de->d_name + n - 2, ".s")) {
                char path[512];
                snprintf(path, sizeof path, "kernels/%s", de->d_name);
                kernels[nkernels++] = strdup(path);
            }
        }
        closedir(d);
    }
    qsort(kernels, (size_t)nkernels, sizeof kernels[0], cmp_str);
    enum { NF = sizeof functional_kernels / sizeof functional_kernels[0] };
    struct CMUnitTest tests[1 + MAX_KERNELS + NF];
    int n = 0;
    tests[n++] = (struct CMUnitTest){ "kernels found", test_kernels_found, NULL, NULL, NULL };
    for (int i = 0; i < nkernels; i++) tests[n++] = (struct CMUnitTest){ kernels[i], test_timing, NULL, NULL, kernels[i] };
    static char fnames[NF][128];
    for (int i = 0; i < NF; i++) {
        snprintf(fnames[i], sizeof fnames[i], "%s --functional", functional_kernels[i]);
        tests[n++] = (struct CMUnitTest){ fnames[i], test_functional, NULL, NULL, (void *)functional_kernels[i] };
    }
    int rc = _cmocka_run_group_tests("report", tests, (size_t)n, NULL, NULL);
    for (int i = 0; i < nkernels; i++) free(kernels[i]);
    return rc;
}
