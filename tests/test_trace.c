/* test_trace.c - the visual trace (--trace FILE.json / FILE.html).
 *
 * The JSON trace is checked by a small Trace Event Format checker written
 * here (a JSON parser plus the TEF rules: every event has name, ph, ts, pid
 * and tid; complete events have dur; timestamps never go back within a
 * thread).  Its state intervals must add up to the stall counters of the
 * report, exactly, and its issue events to the warp instructions.  The HTML
 * file must be self-contained (no URL, no external file), carry the views'
 * markers and the same events as the JSON, honour the window options, stay
 * under 20 MB by default, and be the same bytes on every run.  The page
 * around the data must be the web files of sim/front/viewer/ as they are
 * now (the build embeds them; a stale or broken embedding fails here). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "isa/asm.h"
#include "sim/base/config.h"
#include "sim/front/run.h"
#include "sim/front/trace.h"

/* ---- a small JSON parser ------------------------------------------------------------ */
typedef enum { J_NULL, J_BOOL, J_NUM, J_STR, J_ARR, J_OBJ } JType;
typedef struct JVal JVal;
struct JVal {
    JType type;
    double num;
    char *str;                  /* J_STR */
    JVal *item;                 /* J_ARR, J_OBJ: n values */
    char **key;                 /* J_OBJ: n keys */
    size_t n, cap;
};

typedef struct JParser { const char *s; size_t i, n; int err; } JParser;

static void jskip(JParser *p)
{
    while (p->i < p->n && (p->s[p->i] == ' ' || p->s[p->i] == '\n' || p->s[p->i] == '\t' || p->s[p->i] == '\r')) p->i++;
}

static int jlit(JParser *p, const char *w)
{
    size_t l = strlen(w);
    if (p->i + l > p->n || strncmp(p->s + p->i, w, l)) return 0;
    p->i += l;
    return 1;
}

static char *jstring(JParser *p)
{
    if (p->i >= p->n || p->s[p->i] != '"') { p->err = 1; return NULL; }
    p->i++;
    size_t cap = 16, len = 0;
    char *out = malloc(cap);
    while (p->i < p->n && p->s[p->i] != '"') {
        unsigned char ch = (unsigned char)p->s[p->i++];
        if (ch < 0x20) { p->err = 1; break; }
        if (ch == '\\') {
            if (p->i >= p->n) { p->err = 1; break; }
            char e = p->s[p->i++];
            switch (e) {
            case '"': case '\\': case '/': ch = (unsigned char)e; break;
            case 'n': ch = '\n'; break;
            case 't': ch = '\t'; break;
            case 'r': ch = '\r'; break;
            case 'b': ch = '\b'; break;
            case 'f': ch = '\f'; break;
            case 'u': {
                unsigned v = 0;
                for (int k = 0; k < 4; k++) {
                    char h = p->i < p->n ? p->s[p->i++] : 0;
                    int d = h >= '0' && h <= '9' ? h - '0' : h >= 'a' && h <= 'f' ? h - 'a' + 10
                          : h >= 'A' && h <= 'F' ? h - 'A' + 10 : -1;
                    if (d < 0) { p->err = 1; break; }
                    v = v * 16 + (unsigned)d;
                }
                ch = v < 0x80 ? (unsigned char)v : '?';
                break;
            }
            default: p->err = 1;
            }
        }
        if (len + 2 > cap) out = realloc(out, cap *= 2);
        out[len++] = (char)ch;
    }
    if (p->i >= p->n) p->err = 1;
    else p->i++;
    out[len] = '\0';
    return out;
}

static void jparse(JParser *p, JVal *v, int depth)
{
    memset(v, 0, sizeof *v);
    jskip(p);
    if (p->err || p->i >= p->n || depth > 64) { p->err = 1; return; }
    char c = p->s[p->i];
    if (c == '{' || c == '[') {
        v->type = c == '{' ? J_OBJ : J_ARR;
        p->i++;
        jskip(p);
        if (p->i < p->n && p->s[p->i] == (c == '{' ? '}' : ']')) { p->i++; return; }
        for (;;) {
            if (v->n == v->cap) {
                v->cap = v->cap ? v->cap * 2 : 8;
                v->item = realloc(v->item, v->cap * sizeof *v->item);
                if (v->type == J_OBJ) v->key = realloc(v->key, v->cap * sizeof *v->key);
            }
            if (v->type == J_OBJ) {
                jskip(p);
                v->key[v->n] = jstring(p);
                jskip(p);
                if (p->err || p->i >= p->n || p->s[p->i] != ':') { p->err = 1; if (v->key[v->n]) free(v->key[v->n]); return; }
                p->i++;
            }
            jparse(p, &v->item[v->n], depth + 1);
            v->n++;
            if (p->err) return;
            jskip(p);
            if (p->i < p->n && p->s[p->i] == ',') { p->i++; continue; }
            if (p->i < p->n && p->s[p->i] == (c == '{' ? '}' : ']')) { p->i++; return; }
            p->err = 1;
            return;
        }
    }
    if (c == '"') { v->type = J_STR; v->str = jstring(p); return; }
    if (jlit(p, "true") || jlit(p, "false")) { v->type = J_BOOL; return; }
    if (jlit(p, "null")) { v->type = J_NULL; return; }
    char *end;
    v->type = J_NUM;
    v->num = strtod(p->s + p->i, &end);
    if (end == p->s + p->i) { p->err = 1; return; }
    p->i = (size_t)(end - p->s);
}

static void jfree(JVal *v)
{
    for (size_t i = 0; i < v->n; i++) {
        jfree(&v->item[i]);
        if (v->key) free(v->key[i]);
    }
    free(v->item);
    free(v->key);
    free(v->str);
}

/* Parse all of text (nothing but white space after the value). */
static int jparse_all(const char *text, size_t n, JVal *out)
{
    JParser p = { text, 0, n, 0 };
    jparse(&p, out, 0);
    jskip(&p);
    if (!p.err && p.i != n) p.err = 1;
    if (p.err) print_error("JSON error near offset %zu: %.40s\n", p.i, text + (p.i < n ? p.i : n));
    return p.err ? -1 : 0;
}

static const JVal *jget(const JVal *o, const char *key)
{
    if (!o || o->type != J_OBJ) return NULL;
    for (size_t i = 0; i < o->n; i++)
        if (!strcmp(o->key[i], key)) return &o->item[i];
    return NULL;
}

/* ---- files and runs ------------------------------------------------------------------ */
static char tmpdir[64];

static int setup(void **state)
{
    (void)state;
    snprintf(tmpdir, sizeof tmpdir, "/tmp/gpusim-trace-XXXXXX");
    return mkdtemp(tmpdir) ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    const char *names[] = { "a.json", "b.json", "a.html", "b.html", "w.json", "w.html", "big.html", "x.txt" };
    char path[128];
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        snprintf(path, sizeof path, "%s/%s", tmpdir, names[i]);
        unlink(path);
    }
    rmdir(tmpdir);
    return 0;
}

static const char *tmp(const char *name)
{
    static char buf[4][128];
    static int k;
    k = (k + 1) % 4;
    snprintf(buf[k], sizeof buf[k], "%s/%s", tmpdir, name);
    return buf[k];
}

static char *slurp(const char *path, size_t *len)
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
    if (len) *len = (size_t)n;
    return s;
}

/* Run kernel with the timing model and a trace; returns the run's stats. */
static Stats run_traced(const char *kernel, const AsmDefine *defs, int ndefs, const char *out, TraceOptions to)
{
    DiagList dl = { 0 };
    AsmOptions ao = { defs, ndefs };
    Program *p = asm_assemble_file(kernel, &ao, &dl);
    if (!p) diag_print(&dl, stderr);
    assert_non_null(p);
    Config c;
    config_defaults(&c);
    assert_int_equal(config_load_file(&c, "configs/fermi.ini", &dl), 0);
    Run r;
    RunOptions o = { .trace = out, .trace_opt = to };
    int rc = run_program(&r, p, &c, "configs/fermi.ini", &o, &dl);
    if (rc != RUN_OK) diag_print(&dl, stderr);
    assert_int_equal(rc, RUN_OK);
    Stats s = r.stats;
    s.line = NULL;
    s.sm = NULL;
    run_free(&r);
    program_free(p);
    diag_free(&dl);
    return s;
}

static TraceOptions all(void)
{
    TraceOptions t = { 0, 0, -1, NULL, 0 };
    return t;
}

/* ---- the Trace Event Format checker ------------------------------------------------------ */
typedef struct TefSummary {
    size_t events, complete, instant, meta;
    uint64_t state_cycles[STALL_COUNT];
    double min_ts, max_end;
    int pid_min, pid_max;
    int tid_warp_mask;          /* bit w: an event of warp w (tid % 4096) */
    uint64_t launches_mask;     /* bit l: a thread of launch l (tid >> 44) */
} TefSummary;

static void check_tef(const char *path, TefSummary *sum)
{
    size_t n;
    char *text = slurp(path, &n);
    assert_non_null(text);
    JVal root;
    assert_int_equal(jparse_all(text, n, &root), 0);
    assert_int_equal(root.type, J_OBJ);
    const JVal *ev = jget(&root, "traceEvents");
    assert_non_null(ev);
    assert_int_equal(ev->type, J_ARR);
    memset(sum, 0, sizeof *sum);
    sum->min_ts = 1e300;
    sum->pid_min = 1 << 30;
    sum->pid_max = -1;
    /* last timestamp per thread: threads are written one after another, so
     * one running (pid, tid, ts) is enough; a thread seen again later must
     * not go back in time either, which the sorted-tid check below covers */
    double last_pid = -1, last_tid = -1, last_ts = -1;
    size_t nseen = 0, capseen = 64;
    double *seen = malloc(capseen * sizeof *seen * 2);
    for (size_t i = 0; i < ev->n; i++) {
        const JVal *e = &ev->item[i];
        assert_int_equal(e->type, J_OBJ);
        const JVal *name = jget(e, "name"), *ph = jget(e, "ph"), *ts = jget(e, "ts"), *pid = jget(e, "pid"),
                   *tid = jget(e, "tid"), *dur = jget(e, "dur");
        assert_non_null(name);
        assert_non_null(ph);
        assert_non_null(ts);
        assert_non_null(pid);
        assert_non_null(tid);
        assert_int_equal(name->type, J_STR);
        assert_int_equal(ph->type, J_STR);
        assert_int_equal(ts->type, J_NUM);
        assert_int_equal(pid->type, J_NUM);
        assert_int_equal(tid->type, J_NUM);
        assert_true(ts->num >= 0);
        sum->events++;
        if (!strcmp(ph->str, "M")) { sum->meta++; continue; }
        if (pid->num != last_pid || tid->num != last_tid) {
            /* a new thread: it must not have appeared before */
            for (size_t k = 0; k < nseen; k++) assert_false(seen[2 * k] == pid->num && seen[2 * k + 1] == tid->num);
            if (nseen == capseen) seen = realloc(seen, (capseen *= 2) * sizeof *seen * 2);
            seen[2 * nseen] = pid->num;
            seen[2 * nseen + 1] = tid->num;
            nseen++;
            last_pid = pid->num;
            last_tid = tid->num;
            last_ts = -1;
        }
        assert_true(ts->num >= last_ts);      /* sorted by ts within each thread */
        last_ts = ts->num;
        if (ts->num < sum->min_ts) sum->min_ts = ts->num;
        if ((int)pid->num < sum->pid_min) sum->pid_min = (int)pid->num;
        if ((int)pid->num > sum->pid_max) sum->pid_max = (int)pid->num;
        uint64_t t = (uint64_t)tid->num;
        if (t % 4096 < 31) sum->tid_warp_mask |= 1 << (t % 4096);   /* warps 0-30 are enough here */
        if ((t >> 44) < 64) sum->launches_mask |= 1ull << (t >> 44);
        if (!strcmp(ph->str, "X")) {
            assert_non_null(dur);
            assert_int_equal(dur->type, J_NUM);
            assert_true(dur->num > 0);
            sum->complete++;
            int r = -1;
            for (int s = 0; s < STALL_COUNT; s++)
                if (!strcmp(stall_names[s], name->str)) r = s;
            assert_true(r >= 0);
            sum->state_cycles[r] += (uint64_t)dur->num;
            if (ts->num + dur->num > sum->max_end) sum->max_end = ts->num + dur->num;
        } else {
            assert_string_equal(ph->str, "i");
            sum->instant++;
            if (ts->num + 1 > sum->max_end) sum->max_end = ts->num + 1;
        }
    }
    free(seen);
    jfree(&root);
    free(text);
}

/* ---- tests ----------------------------------------------------------------------------- */

/* The JSON trace is valid Trace Event Format, and it accounts for every
 * warp-cycle: per state, the intervals add up to the report's stall
 * counters; the issue events are the warp instructions. */
static void test_json_is_tef_and_sums_to_stalls(void **state)
{
    (void)state;
    const char *kernels[] = { "kernels/vecadd.s", "kernels/evenodd.s", "kernels/transpose_shared.s" };
    for (size_t k = 0; k < sizeof kernels / sizeof kernels[0]; k++) {
        Stats s = run_traced(kernels[k], NULL, 0, tmp("a.json"), all());
        TefSummary t;
        check_tef(tmp("a.json"), &t);
        assert_true(t.complete > 0);
        assert_true(t.meta > 0);
        for (int r = 0; r < STALL_COUNT; r++) {
            if (t.state_cycles[r] != s.stall[r])
                print_error("%s: %s: trace %llu, report %llu\n", kernels[k], stall_names[r],
                            (unsigned long long)t.state_cycles[r], (unsigned long long)s.stall[r]);
            assert_int_equal(t.state_cycles[r], s.stall[r]);
        }
        assert_int_equal(t.instant, s.issues);     /* one event per issue, an expansion's n slots included */
        assert_int_equal(t.state_cycles[STALL_SELECTED], s.inst);
        assert_true(t.max_end <= (double)s.cycles + 1);
    }
}

/* Several launches: each gets its own threads (tid = launch << 44 | ...). */
static void test_json_launches_apart(void **state)
{
    (void)state;
    Stats s = run_traced("kernels/scan.s", NULL, 0, tmp("a.json"), all());
    TefSummary t;
    check_tef(tmp("a.json"), &t);
    assert_int_equal(t.launches_mask, 7);      /* scan.s has three .launch lines */
    for (int r = 0; r < STALL_COUNT; r++) assert_int_equal(t.state_cycles[r], s.stall[r]);
}

static size_t count(const char *hay, const char *needle)
{
    size_t n = 0;
    for (const char *p = strstr(hay, needle); p; p = strstr(p + 1, needle)) n++;
    return n;
}

/* The embedded data of an HTML trace: parsed, with its event counts. */
typedef struct HtmlData { size_t rows, states, issues, mems; double win_from, win_to; int cut; } HtmlData;

static void html_data(const char *html, HtmlData *h)
{
    const char *open = "<script type=\"application/json\" id=\"trace-data\">";
    const char *a = strstr(html, open);
    assert_non_null(a);
    a += strlen(open);
    const char *b = strstr(a, "</script>");
    assert_non_null(b);
    JVal d;
    assert_int_equal(jparse_all(a, (size_t)(b - a), &d), 0);
    const JVal *rows = jget(&d, "rows"), *S = jget(&d, "S"), *I = jget(&d, "I"), *M = jget(&d, "M"), *win = jget(&d, "win");
    assert_non_null(rows);
    assert_non_null(S);
    assert_non_null(I);
    assert_non_null(M);
    assert_non_null(win);
    assert_int_equal(S->n, rows->n);
    assert_int_equal(I->n, rows->n);
    memset(h, 0, sizeof *h);
    h->rows = rows->n;
    for (size_t r = 0; r < rows->n; r++) {
        assert_int_equal(rows->item[r].n, 8);
        assert_int_equal(S->item[r].n % 4, 0);
        assert_int_equal(I->item[r].n % 5, 0);
        h->states += S->item[r].n / 4;
        h->issues += I->item[r].n / 5;
        for (size_t i = 4; i < I->item[r].n; i += 5) assert_true(I->item[r].item[i].num <= (double)M->n);
    }
    h->mems = M->n;
    h->win_from = win->item[0].num;
    h->win_to = win->item[1].num;
    h->cut = (int)win->item[4].num;
    jfree(&d);
}

/* One file, nothing from outside, the three views, the same events as the
 * JSON trace. */
static void test_html_self_contained(void **state)
{
    (void)state;
    run_traced("kernels/transpose_shared.s", NULL, 0, tmp("a.html"), all());
    run_traced("kernels/transpose_shared.s", NULL, 0, tmp("a.json"), all());
    char *html = slurp(tmp("a.html"), NULL);
    assert_non_null(html);
    assert_true(!strncmp(html, "<!DOCTYPE html>", 15));
    assert_non_null(strstr(html, "</html>"));
    const char *forbidden[] = { "http://", "https://", "src=", "<link", "@import", "url(", "//cdn", "<iframe" };
    for (size_t i = 0; i < sizeof forbidden / sizeof forbidden[0]; i++) {
        if (strstr(html, forbidden[i])) print_error("the HTML trace contains %s\n", forbidden[i]);
        assert_null(strstr(html, forbidden[i]));
    }
    /* the views and what they explain */
    const char *markers[] = { "id=\"timeline\"", "id=\"lanes\"", "id=\"detail\"", "id=\"legend\"", "Warp timeline",
                              "Lane activity", "Coalescing map", "Bank map", "Active mask", "wavefront",
                              "long_scoreboard", "id=\"fconf\"", "id=\"funco\"", "id=\"fdiv\"", "id=\"srclines\"",
                              "id=\"linesbody\"", "id=\"big\"", "id=\"luni\"" };
    for (size_t i = 0; i < sizeof markers / sizeof markers[0]; i++) {
        if (!strstr(html, markers[i])) print_error("the HTML trace lacks %s\n", markers[i]);
        assert_non_null(strstr(html, markers[i]));
    }
    assert_int_equal(count(html, "<script"), 2);   /* the data and the viewer, both inline */
    assert_int_equal(count(html, "</script>"), 2);
    HtmlData h;
    html_data(html, &h);
    TefSummary t;
    check_tef(tmp("a.json"), &t);
    assert_int_equal(h.states, t.complete);
    assert_int_equal(h.issues, t.instant);
    assert_true(h.mems > 0);
    assert_int_equal(h.cut, 0);
    free(html);
}

/* The page as sim/front/viewer/ says it should be, read here without the
 * build's generator: viewer.html with each line that is exactly {{FILE}}
 * replaced by that file, split at {{data}} into *head and *tail. */
static void viewer_from_files(char **head, char **tail)
{
    const char *dir = "sim/front/viewer/";
    char path[256];
    snprintf(path, sizeof path, "%sviewer.html", dir);
    char *tpl = slurp(path, NULL);
    if (!tpl) print_error("cannot read %s (run the tests from the repo root)\n", path);
    assert_non_null(tpl);
    size_t cap = 1 << 16, n = 0;
    char *page = malloc(cap);
    assert_non_null(page);
    for (char *s = tpl; *s;) {
        char *nl = strchr(s, '\n');
        size_t len = nl ? (size_t)(nl - s) + 1 : strlen(s);
        char *piece = s, *file = NULL;
        size_t piece_n = len;
        if (len > 5 && !strncmp(s, "{{", 2) && !strncmp(s + len - 3, "}}\n", 3) && strncmp(s, "{{data}}", 8)) {
            snprintf(path, sizeof path, "%s%.*s", dir, (int)(len - 5), s + 2);
            file = slurp(path, &piece_n);
            if (!file) print_error("viewer.html includes %s, which cannot be read\n", path);
            assert_non_null(file);
            piece = file;
        }
        while (n + piece_n + 1 > cap) {
            cap *= 2;
            page = realloc(page, cap);
            assert_non_null(page);
        }
        memcpy(page + n, piece, piece_n);
        n += piece_n;
        free(file);
        s += len;
    }
    page[n] = 0;
    free(tpl);
    char *mark = strstr(page, "{{data}}");
    assert_non_null(mark);
    *mark = 0;
    *head = page;
    *tail = strdup(mark + 8);
    assert_non_null(*tail);
}

/* Index of the first byte where a and b differ (up to n bytes). */
static size_t first_difference(const char *a, const char *b, size_t n)
{
    size_t i = 0;
    while (i < n && a[i] == b[i]) i++;
    return i;
}

/* The binary writes the page of sim/front/viewer/, byte for byte, around
 * the data: the embedded copy is current. */
static void test_viewer_matches_web_files(void **state)
{
    (void)state;
    char *head, *tail;
    viewer_from_files(&head, &tail);
    run_traced("kernels/evenodd.s", NULL, 0, tmp("a.html"), all());
    size_t n;
    char *html = slurp(tmp("a.html"), &n);
    assert_non_null(html);
    size_t hn = strlen(head), tn = strlen(tail);
    assert_true(hn > 1000 && tn > 10000);
    assert_true(n > hn + tn);
    size_t dh = first_difference(html, head, hn), dt = first_difference(html + n - tn, tail, tn);
    if (dh < hn)
        print_error("the trace's page head differs from sim/front/viewer/ at byte %zu: rebuild (make)\n", dh);
    if (dt < tn)
        print_error("the trace's page tail differs from sim/front/viewer/ at byte %zu of the tail: rebuild (make)\n",
                    dt);
    assert_true(dh == hn);
    assert_true(dt == tn);
    /* between them, nothing but the data */
    assert_true(html[hn] == '{' && html[n - tn - 1] == '}');
    free(html);
    free(head);
    free(tail);
}

/* --trace-cycles, --trace-sm and --trace-warps keep only what they name. */
static void test_window_options(void **state)
{
    (void)state;
    const char *k = "kernels/transpose_shared.s";
    run_traced(k, NULL, 0, tmp("a.json"), all());
    TefSummary full;
    check_tef(tmp("a.json"), &full);

    TraceOptions o = all();
    o.from = 500;
    o.to = 900;
    run_traced(k, NULL, 0, tmp("w.json"), o);
    TefSummary w;
    check_tef(tmp("w.json"), &w);
    assert_true(w.complete > 0 && w.complete < full.complete);
    assert_true(w.instant > 0 && w.instant < full.instant);
    assert_true(w.min_ts >= 500);
    assert_true(w.max_end <= 900);
    uint64_t cycles = 0;
    for (int r = 0; r < STALL_COUNT; r++) cycles += w.state_cycles[r];
    assert_true(cycles > 0 && cycles <= 400ull * 15 * 48);   /* at most every warp slot of every SM */

    size_t big, small;
    run_traced(k, NULL, 0, tmp("a.html"), all());
    run_traced(k, NULL, 0, tmp("w.html"), o);
    char *a = slurp(tmp("a.html"), &big), *b = slurp(tmp("w.html"), &small);
    assert_true(small < big);
    HtmlData ha, hb;
    html_data(a, &ha);
    html_data(b, &hb);
    assert_true(hb.states < ha.states && hb.issues < ha.issues);
    assert_int_equal(hb.states, w.complete);
    assert_int_equal(hb.issues, w.instant);
    assert_true(hb.win_from == 500 && hb.win_to == 900);
    assert_non_null(strstr(b, "\"win\":[500,900,"));
    free(a);
    free(b);

    o = all();
    o.sm = 3;
    run_traced(k, NULL, 0, tmp("w.json"), o);
    check_tef(tmp("w.json"), &w);
    assert_true(w.complete > 0 && w.complete < full.complete);
    assert_int_equal(w.pid_min, 3);
    assert_int_equal(w.pid_max, 3);

    int warps[] = { 0, 2 };
    o = all();
    o.warps = warps;
    o.nwarps = 2;
    run_traced(k, NULL, 0, tmp("w.json"), o);
    check_tef(tmp("w.json"), &w);
    assert_true(w.complete > 0);
    assert_int_equal(w.tid_warp_mask, (1 << 0) | (1 << 2));
    assert_int_equal(full.tid_warp_mask & 0xf, 0xf);
}

/* Same input, same bytes. */
static void test_deterministic(void **state)
{
    (void)state;
    const char *out[][2] = { { "a.html", "b.html" }, { "a.json", "b.json" } };
    for (int f = 0; f < 2; f++) {
        run_traced("kernels/evenodd.s", NULL, 0, tmp(out[f][0]), all());
        run_traced("kernels/evenodd.s", NULL, 0, tmp(out[f][1]), all());
        size_t na, nb;
        char *a = slurp(tmp(out[f][0]), &na), *b = slurp(tmp(out[f][1]), &nb);
        assert_non_null(a);
        assert_non_null(b);
        assert_int_equal(na, nb);
        assert_memory_equal(a, b, na);
        free(a);
        free(b);
    }
}

/* Without --trace-cycles a long run is cut where the trace reaches its size
 * budget, the page says so, and the file stays far below 20 MB. */
static void test_default_window_bounded(void **state)
{
    (void)state;
    AsmDefine d[] = { { "M", "128" }, { "N", "128" }, { "K", "64" } };
    Stats s = run_traced("kernels/naive_mm.s", d, 3, tmp("big.html"), all());
    size_t n;
    char *html = slurp(tmp("big.html"), &n);
    assert_non_null(html);
    assert_true(n < 20u * 1000 * 1000);
    HtmlData h;
    html_data(html, &h);
    assert_int_equal(h.cut, 1);
    assert_true(h.win_to > 0 && h.win_to < (double)s.cycles);
    assert_non_null(strstr(html, "default window"));
    free(html);
}

/* A divergent kernel: evenodd's if/else shows as issues with half the lanes
 * active and the branch's guard splitting the warp (in the 31 full warps;
 * the last one also diverges at the bounds test). */
static void test_lanes_recorded(void **state)
{
    (void)state;
    run_traced("kernels/evenodd.s", NULL, 0, tmp("a.json"), all());
    char *j = slurp(tmp("a.json"), NULL);
    assert_non_null(j);
    assert_true(count(j, "\"active\": \"0x55555555\"") >= 31);   /* then-path: even lanes */
    assert_true(count(j, "\"active\": \"0xaaaaaaaa\"") >= 31);   /* else-path: odd lanes */
    assert_true(count(j, "\"exec\": \"0xaaaaaaaa\"") >= 31);     /* @!%p2 bra ODD: odd lanes take it */
    free(j);
}

/* The memory system over time (observe.h sample, the page's "X"): the
 * samples cover the run without a gap, and their deltas add up to the
 * report's totals: warp instructions, L1 and L2 sectors, DRAM bytes (but
 * the end-of-run flush of dirty lines, which takes no simulated time). */
static void test_memsys_samples(void **state)
{
    (void)state;
    DiagList dl = { 0 };
    AsmDefine d[] = { { "STRIDE", "16" } };
    AsmOptions ao = { d, 1 };
    Program *p = asm_assemble_file("kernels/strided_copy.s", &ao, &dl);
    assert_non_null(p);
    Config c;
    config_defaults(&c);
    assert_int_equal(config_load_file(&c, "configs/fermi.ini", &dl), 0);
    Run r;
    RunOptions o = { .trace = tmp("ms.html"), .trace_opt = all() };
    assert_int_equal(run_program(&r, p, &c, "configs/fermi.ini", &o, &dl), RUN_OK);
    assert_true(r.has_memstats);
    char *html = slurp(tmp("ms.html"), NULL);
    assert_non_null(html);
    const char *a = strstr(html, "\"X\":{"), *b = strstr(a ? a : html, "]}");
    assert_non_null(a);
    assert_non_null(b);
    JVal x;
    assert_int_equal(jparse_all(a + 4, (size_t)(b + 2 - (a + 4)), &x), 0);
    assert_int_equal((int)jget(&x, "every")->num, 32);
    assert_int_equal((int)jget(&x, "mem")->num, 1);
    assert_int_equal((int)jget(&x, "from")->num, 0);
    const JVal *dv = jget(&x, "d");
    assert_int_equal(dv->n % 7, 0);
    double sum[7] = { 0 };
    for (size_t i = 0; i < dv->n; i++) {
        if (i % 7 == 0) assert_true(dv->item[i].num > 0);   /* time moves on */
        sum[i % 7] += dv->item[i].num;
    }
    const MemStats *m = &r.memstats;
    assert_true(sum[0] == (double)r.stats.cycles);
    assert_true(sum[1] == (double)r.stats.inst);
    assert_true(sum[2] == (double)m->l1_sector_hits && sum[3] == (double)m->l1_sector_misses);
    assert_true(sum[4] == (double)m->l2_sector_hits && sum[5] == (double)m->l2_sector_misses);
    assert_true(sum[6] == (double)(m->dram_bytes_read + m->dram_bytes_write - m->dram_flush_bytes));
    assert_true(sum[6] > 0);
    jfree(&x);
    free(html);
    run_free(&r);
    program_free(p);
    diag_free(&dl);
}

/* Per SM and per memory partition (the page's "U", memsys_sm_counters and
 * memsys_part_counters): the bins cover the run without a gap, per-SM warp
 * instructions and L1 sectors and per-partition L2 sectors and DRAM bytes
 * add up exactly to the report's counters, and nothing is in flight or
 * queued at the end.  Returns the bin period. */
static int check_units(const char *kernel, const char *define, const char *config, int sms, int parts)
{
    DiagList dl = { 0 };
    AsmDefine d[] = { { "STRIDE", define ? define : "1" } };
    AsmOptions ao = { d, define ? 1 : 0 };
    Program *p = asm_assemble_file(kernel, &ao, &dl);
    assert_non_null(p);
    Config c;
    config_defaults(&c);
    assert_int_equal(config_load_file(&c, config, &dl), 0);
    Run r;
    RunOptions o = { .trace = tmp("units.html"), .trace_opt = all() };
    assert_int_equal(run_program(&r, p, &c, config, &o, &dl), RUN_OK);
    assert_true(r.has_memstats);
    char *html = slurp(tmp("units.html"), NULL);
    assert_non_null(html);
    const char *a = strstr(html, "\"U\":{"), *b = strstr(a ? a : html, "]}");
    assert_non_null(a);
    assert_non_null(b);
    JVal x;
    assert_int_equal(jparse_all(a + 4, (size_t)(b + 2 - (a + 4)), &x), 0);
    assert_int_equal((int)jget(&x, "sms")->num, sms);
    assert_int_equal((int)jget(&x, "parts")->num, parts);
    assert_int_equal((int)jget(&x, "from")->num, 0);
    int every = (int)jget(&x, "every")->num;
    const JVal *dv = jget(&x, "d");
    size_t w = 1 + 4 * (size_t)sms + 5 * (size_t)parts;
    assert_int_equal(dv->n % w, 0);
    assert_true(dv->n / w <= 512);
    double cycles = 0, inst = 0, l1h = 0, l1m = 0, l2h = 0, l2m = 0, l2s = 0, dram = 0, flight = 0, queue = 0;
    for (size_t i = 0; i < dv->n; i += w) {
        const JVal *v = dv->item + i;
        assert_true(v[0].num > 0);
        cycles += v[0].num;
        for (int k = 0; k < sms; k++) {
            const JVal *u = v + 1 + 4 * k;
            inst += u[0].num; l1h += u[1].num; l1m += u[2].num;
            if (i + w == dv->n) flight += u[3].num;
        }
        for (int k = 0; k < parts; k++) {
            const JVal *u = v + 1 + 4 * sms + 5 * k;
            l2h += u[0].num; l2m += u[1].num; l2s += u[2].num; dram += u[3].num;
            if (i + w == dv->n) queue += u[4].num;
        }
    }
    const MemStats *m = &r.memstats;
    assert_true(cycles == (double)r.stats.cycles);
    assert_true(inst == (double)r.stats.inst);
    assert_true(l1h == (double)m->l1_sector_hits && l1m == (double)m->l1_sector_misses);
    assert_true(l2h == (double)m->l2_sector_hits && l2m == (double)m->l2_sector_misses);
    assert_true(l2s == (double)(m->l2_sectors_read + m->l2_sectors_write + m->l2_sectors_atom));
    assert_true(dram == (double)(m->dram_bytes_read + m->dram_bytes_write - m->dram_flush_bytes));
    assert_true(dram > 0 && l2s > 0);
    assert_true(flight == 0 && queue == 0);
    jfree(&x);
    free(html);
    run_free(&r);
    program_free(p);
    diag_free(&dl);
    return every;
}

static void test_unit_samples(void **state)
{
    (void)state;
    assert_int_equal(check_units("kernels/strided_copy.s", "16", "configs/fermi.ini", 15, 6), 32);
    /* two L2 slices on one DRAM channel: one partition */
    check_units("kernels/strided_copy.s", "16", "configs/tiny.ini", 1, 1);
    /* 28.3k cycles: more than 512 periods of 32, so the period doubled */
    assert_int_equal(check_units("kernels/naive_mm.s", NULL, "configs/fermi.ini", 15, 6), 64);
}

static void test_bad_file_name(void **state)
{
    (void)state;
    char err[256] = "";
    TraceOptions o = all();
    assert_null(trace_create(tmp("x.txt"), &o, NULL, NULL, err, sizeof err));
    assert_non_null(strstr(err, ".html or .json"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_json_is_tef_and_sums_to_stalls),
        cmocka_unit_test(test_json_launches_apart),
        cmocka_unit_test(test_html_self_contained),
        cmocka_unit_test(test_viewer_matches_web_files),
        cmocka_unit_test(test_window_options),
        cmocka_unit_test(test_deterministic),
        cmocka_unit_test(test_default_window_bounded),
        cmocka_unit_test(test_lanes_recorded),
        cmocka_unit_test(test_memsys_samples),
        cmocka_unit_test(test_unit_samples),
        cmocka_unit_test(test_bad_file_name),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
