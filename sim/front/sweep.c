/* sweep.c - see sweep.h. */
#include "sim/front/sweep.h"

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "isa/suggest.h"
#include "sim/base/stats.h"
#include "sim/front/plot.h"
#include "sim/front/report.h"
#include "sim/timing/gpu.h"

/* Guards against a typo like 1..100000000 eating the machine. */
enum { MAX_AXES = 32, MAX_VALUES = 100000, MAX_POINTS = 1000000, MAX_MSG = 1000 };

/* The columns after the swept values and the kernel; docs/sweeps.md gives
 * their Nsight Compute sources. */
#define SWEEP_COLUMNS(X)                                                                       \
    X(COL_STATUS, "status") X(COL_CYCLES, "cycles") X(COL_IPC, "ipc")                          \
    X(COL_OCCUPANCY, "occupancy_pct") X(COL_INST, "inst")                                      \
    X(COL_STALL1, "stall_1") X(COL_STALL2, "stall_2") X(COL_STALL3, "stall_3")                 \
    X(COL_CONFLICTS, "bank_conflicts") X(COL_SECTORS, "sectors_per_request")                   \
    X(COL_L1, "l1_hit_pct") X(COL_L2, "l2_hit_pct") X(COL_DRAM_BYTES, "dram_bytes")            \
    X(COL_DRAM_GBPS, "dram_gbps")
#define X(e, n) e,
enum { SWEEP_COLUMNS(X) NCOLS };
#undef X
#define X(e, n) n,
static const char *const col_names[NCOLS] = { SWEEP_COLUMNS(X) };
#undef X

/* What the metric columns read from the report table (report_metrics). */
enum { M_CYCLES, M_IPC, M_OCC, M_INST, M_CONF_LD, M_CONF_ST, M_SECTORS, M_L1, M_L2, M_DRAM_RD, M_DRAM_WR, M_EXTRA, NMETRICS };
static const char *const metric_names[M_EXTRA] = {
    "gpc__cycles_elapsed.max", "gpusim__ipc", "sm__warps_active.avg.pct_of_peak_sustained_active",
    "smsp__inst_executed.sum", "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum",
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum", "gpusim__sectors_per_request_global_ld",
    "l1tex__t_sector_hit_rate.pct", "lts__t_sector_hit_rate.pct", "dram__bytes_read.sum", "dram__bytes_write.sum",
};

typedef struct Axis {
    char *name;
    int define;
    int zip;             /* takes the value index of the axis before it */
    const char *list;    /* as typed, for --emit-jobs */
    char **values;
    int nvalues;
} Axis;

struct Sweep {
    SweepSpec spec;      /* strings borrowed from the caller */
    Config *base;        /* per CONFIG: the file and the fixed --sets */
    int cfgcol;          /* 1: a "config" column first (several configs) */
    Axis *axes;
    int naxes, npoints;
    int extra;           /* --y names a metric outside the fixed columns */
    SweepTable table;
};

static char *xstrdup(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = malloc(n);
    if (d) memcpy(d, s, n);
    return d;
}

/* ---- value lists ------------------------------------------------------------ */

static int push_value(Axis *a, const char *v)
{
    if (a->nvalues >= MAX_VALUES) return -1;
    char **nv = realloc(a->values, (size_t)(a->nvalues + 1) * sizeof *nv);
    if (!nv) return -1;
    a->values = nv;
    return (a->values[a->nvalues++] = xstrdup(v)) ? 0 : -1;
}

/* "2^K" -> K in [0,62]; -1 if s is not that form. */
static int power_of_two(const char *s, size_t len)
{
    if (len < 3 || s[0] != '2' || s[1] != '^') return -1;
    int k = 0;
    for (size_t i = 2; i < len; i++) {
        if (s[i] < '0' || s[i] > '9' || k > 62) return -1;
        k = k * 10 + (s[i] - '0');
    }
    return k <= 62 ? k : -1;
}

static int integer(const char *s, size_t len, long long *v)
{
    char buf[32], *end;
    if (len == 0 || len >= sizeof buf) return -1;
    memcpy(buf, s, len);
    buf[len] = '\0';
    errno = 0;
    *v = strtoll(buf, &end, 10);
    return errno || *end ? -1 : 0;
}

/* One comma-separated item: a value, "2^K", "A..B" or "2^A..2^B". */
static int expand_item(Axis *a, const char *s, size_t len, DiagList *dl, const char *arg)
{
    const char *dots = NULL;
    for (size_t i = 0; i + 1 < len; i++)
        if (s[i] == '.' && s[i + 1] == '.') { dots = s + i; break; }
    char buf[64];
    if (!dots) {
        int k = power_of_two(s, len);
        if (k >= 0) {
            snprintf(buf, sizeof buf, "%llu", 1ull << k);
            return push_value(a, buf);
        }
        char *v = malloc(len + 1);
        if (!v) return -1;
        memcpy(v, s, len);
        v[len] = '\0';
        int rc = push_value(a, v);
        free(v);
        return rc;
    }
    size_t l1 = (size_t)(dots - s), l2 = len - l1 - 2;
    int k1 = power_of_two(s, l1), k2 = power_of_two(dots + 2, l2);
    long long lo, hi;
    if (k1 >= 0 && k2 >= 0 && k1 <= k2) {
        for (int k = k1; k <= k2; k++) {
            snprintf(buf, sizeof buf, "%llu", 1ull << k);
            if (push_value(a, buf)) goto too_many;
        }
        return 0;
    }
    if (k1 < 0 && k2 < 0 && !integer(s, l1, &lo) && !integer(dots + 2, l2, &hi) && lo <= hi) {
        if (hi - lo >= MAX_VALUES) goto too_many;
        for (long long v = lo; v <= hi; v++) {
            snprintf(buf, sizeof buf, "%lld", v);
            if (push_value(a, buf)) goto too_many;
        }
        return 0;
    }
    diag_add(dl, arg, 0, 0, NULL, "%s: bad range '%.*s': use A..B (integers, A <= B) or 2^A..2^B", a->name, (int)len, s);
    return -1;
too_many:
    diag_add(dl, arg, 0, 0, NULL, "%s: more than %d values", a->name, MAX_VALUES);
    return -1;
}

static int parse_axis(Axis *a, const SweepArg *arg, DiagList *dl)
{
    const char *opt = arg->zip ? "--zip" : arg->define ? "-D" : "--sweep";
    const char *eq = strchr(arg->spec, '=');
    if (!eq || eq == arg->spec || !eq[1]) {
        diag_add(dl, opt, 0, 0, NULL, "'%s': need NAME=LIST, e.g. sm.num_sms=1,2,4 or N=2^10..2^14", arg->spec);
        return -1;
    }
    a->name = malloc((size_t)(eq - arg->spec) + 1);
    if (!a->name) return -1;
    memcpy(a->name, arg->spec, (size_t)(eq - arg->spec));
    a->name[eq - arg->spec] = '\0';
    a->list = eq + 1;
    /* config keys are section.key; .define names have no dot */
    a->define = arg->define || !strchr(a->name, '.');
    if (!a->define && config_key_find(a->name) < 0) {
        const char *best = config_key_suggest(a->name);
        if (best)
            diag_add(dl, opt, 0, 0, NULL, "%s: unknown config key (did you mean '%s'?)", a->name, best);
        else
            diag_add(dl, opt, 0, 0, NULL, "%s: unknown config key (gpusim --doc config lists them)", a->name);
        return -1;
    }
    for (const char *s = a->list;;) {
        size_t len = strcspn(s, ",");
        if (len == 0) {
            diag_add(dl, opt, 0, 0, NULL, "%s: empty value in '%s'", a->name, a->list);
            return -1;
        }
        if (expand_item(a, s, len, dl, opt)) return -1;
        if (!s[len]) return 0;
        s += len + 1;
    }
}

/* ---- one point ---------------------------------------------------------------- */

/* Point i -> config x kernel and value indices: configs, then kernels
 * outermost, last axis fastest; a zipped axis shares the index of the axis
 * before it (its lists have the same length). */
static int decode(const Sweep *s, int point, int *vi)
{
    for (int a = s->naxes - 1; a >= 0; a--) {
        if (s->axes[a].zip) continue;
        vi[a] = point % s->axes[a].nvalues;
        point /= s->axes[a].nvalues;
    }
    for (int a = 1; a < s->naxes; a++)
        if (s->axes[a].zip) vi[a] = vi[a - 1];
    return point;
}

/* Messages go in one CSV field: one line, bounded. */
static char *status_msg(const char *kind, const char *msg)
{
    char buf[MAX_MSG];
    snprintf(buf, sizeof buf, "%s: %s", kind, msg);
    for (char *p = buf; *p; p++)
        if (*p == '\n' || *p == '\r' || *p == '\t') *p = ' ';
    size_t n = strlen(buf);
    while (n && buf[n - 1] == ' ') buf[--n] = '\0';
    return xstrdup(buf);
}

static char *diag_status(const DiagList *dl)
{
    char buf[MAX_MSG];
    if (!dl->n) return xstrdup("error: out of memory");
    const Diag *d = &dl->v[0];
    if (d->line > 0) snprintf(buf, sizeof buf, "%s:%d:%d: %s", d->file, d->line, d->col, d->msg);
    else if (d->file[0] == '-') snprintf(buf, sizeof buf, "%s", d->msg);   /* "--set", "-D": the row names the value */
    else snprintf(buf, sizeof buf, "%s: %s", d->file, d->msg);
    return status_msg("error", buf);
}

/* The first line of the fault report: "file:line:col: fault (kind): msg". */
static char *fault_status(const Run *r)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (!f) return xstrdup("fault");
    report_fault(r, f);
    fclose(f);
    text[strcspn(text, "\n")] = '\0';
    char *st = status_msg("fault", text);
    free(text);
    return st;
}

static char *num(double v)
{
    if (isnan(v)) return NULL;
    char buf[48];
    if (v == floor(v) && fabs(v) < 1e15) snprintf(buf, sizeof buf, "%.0f", v);
    else snprintf(buf, sizeof buf, "%.6g", v);
    return xstrdup(buf);
}

/* "stall.NAME": that state's share of the resident warp-cycles, in percent. */
static double stall_share(const Stats *st, const char *name)
{
    uint64_t total = 0;
    for (int k = 0; k < STALL_COUNT; k++) total += st->stall[k];
    for (int k = 0; k < STALL_COUNT; k++)
        if (!strcmp(name, stall_names[k])) return total ? 100.0 * (double)st->stall[k] / (double)total : NAN;
    return NAN;
}

/* The three largest stall reasons as "name:share%".  `selected` (issuing)
 * is not a stall; ties go to the earlier reason in stats.h order. */
static void top_stalls(const Stats *st, char **cells)
{
    uint64_t total = 0;
    for (int k = 0; k < STALL_COUNT; k++) total += st->stall[k];
    int used[STALL_COUNT] = { 0 };
    used[STALL_SELECTED] = 1;
    for (int t = 0; t < 3 && total; t++) {
        int best = -1;
        for (int k = 0; k < STALL_COUNT; k++)
            if (!used[k] && st->stall[k] && (best < 0 || st->stall[k] > st->stall[best])) best = k;
        if (best < 0) break;
        used[best] = 1;
        char buf[64];
        snprintf(buf, sizeof buf, "%s:%.1f%%", stall_names[best], 100.0 * (double)st->stall[best] / (double)total);
        cells[t] = xstrdup(buf);
    }
}

static void metrics(const Sweep *s, const Run *r, const Config *cfg, char **m)
{
    const char *names[NMETRICS];
    double v[NMETRICS];
    memcpy(names, metric_names, sizeof metric_names);
    int n = M_EXTRA;
    if (s->extra) names[n++] = s->spec.y;
    for (int i = 0; i < n; i++) v[i] = NAN;   /* absent: an empty cell */
    report_metrics(r, names, v, n);
    if (s->extra && !strncmp(s->spec.y, "stall.", 6)) v[M_EXTRA] = stall_share(&r->stats, s->spec.y + 6);
    m[COL_CYCLES] = num(v[M_CYCLES]);
    m[COL_IPC] = num(v[M_IPC]);
    m[COL_OCCUPANCY] = num(v[M_OCC]);
    m[COL_INST] = num(v[M_INST]);
    if (!r->opt.functional) top_stalls(&r->stats, &m[COL_STALL1]);
    m[COL_CONFLICTS] = num(v[M_CONF_LD] + v[M_CONF_ST]);
    m[COL_SECTORS] = num(v[M_SECTORS]);
    m[COL_L1] = num(v[M_L1]);
    m[COL_L2] = num(v[M_L2]);
    double bytes = v[M_DRAM_RD] + v[M_DRAM_WR];
    m[COL_DRAM_BYTES] = num(bytes);
    /* GB/s = bytes / (cycles / clock), as the report's achieved bandwidth:
     * the end-of-run flush of dirty L2 lines took no simulated time */
    double timed = bytes - (r->has_memstats ? (double)r->memstats.dram_flush_bytes : 0);
    if (v[M_CYCLES] > 0) m[COL_DRAM_GBPS] = num(timed * cfg->gpu.core_clock_mhz * 1e6 / v[M_CYCLES] / 1e9);
    if (s->extra) m[NCOLS] = num(v[M_EXTRA]);
}

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Runs one point into row (all NULL on entry).  Touches nothing shared but
 * the read-only Sweep: its own Config copy, Program, Run and DiagList. */
static void run_point(const Sweep *s, int point, char **row)
{
    double t0 = now_seconds();
    int vi[MAX_AXES];
    int ck = decode(s, point, vi);
    int ci = ck / s->spec.nkernels, k = ck % s->spec.nkernels;
    if (s->cfgcol) row[0] = xstrdup(s->spec.configs[ci]);
    for (int a = 0; a < s->naxes; a++) row[s->cfgcol + a] = xstrdup(s->axes[a].values[vi[a]]);
    const char *kernel = s->spec.kernels[k];
    row[s->cfgcol + s->naxes] = xstrdup(kernel);
    char **m = row + s->cfgcol + s->naxes + 1;   /* indexed by COL_* */

    DiagList dl = { 0 };
    Config *cfg = malloc(sizeof *cfg);
    AsmDefine *defs = malloc((size_t)(s->spec.ndefines + s->naxes + 1) * sizeof *defs);
    Program *p = NULL;
    if (!cfg || !defs) goto done;
    *cfg = s->base[ci];
    int nd = 0;
    for (int i = 0; i < s->spec.ndefines; i++) defs[nd++] = s->spec.defines[i];
    for (int a = 0; a < s->naxes; a++) {
        const Axis *ax = &s->axes[a];
        if (ax->define) { defs[nd++] = (AsmDefine){ ax->name, ax->values[vi[a]] }; continue; }
        char set[512];
        snprintf(set, sizeof set, "%s=%s", ax->name, ax->values[vi[a]]);
        config_set(cfg, set, &dl);
    }
    if (diag_count(&dl) || config_validate(cfg, &dl)) goto done;
    p = asm_assemble_file(kernel, &(AsmOptions){ defs, nd }, &dl);
    if (!p) goto done;
    Run r;
    int rc = run_program(&r, p, cfg, s->spec.configs[ci], &s->spec.run, &dl);
    if (rc == RUN_FAULT) m[COL_STATUS] = fault_status(&r);
    else if (rc != RUN_BAD_INPUT) {
        m[COL_STATUS] = xstrdup(rc == RUN_OK ? "ok" : "check_failed");
        metrics(s, &r, cfg, m);
    }
    run_free(&r);
done:
    if (!m[COL_STATUS]) m[COL_STATUS] = diag_status(&dl);
    if (!s->spec.no_time) {
        char buf[32];
        snprintf(buf, sizeof buf, "%.3f", now_seconds() - t0);
        row[s->table.ncols - 1] = xstrdup(buf);
    }
    if (p) program_free(p);
    free(defs);
    free(cfg);
    diag_free(&dl);
}

/* ---- CSV -------------------------------------------------------------------- */

/* RFC 4180: quote a field holding a comma, quote or line break. */
static void csv_field(FILE *out, const char *s)
{
    if (!s) return;
    if (!strpbrk(s, ",\"\r\n")) { fputs(s, out); return; }
    fputc('"', out);
    for (; *s; s++) {
        if (*s == '"') fputc('"', out);
        fputc(*s, out);
    }
    fputc('"', out);
}

static void csv_row(FILE *out, const char *first, char *const *cells, int n)
{
    if (first) { fputs(first, out); if (n) fputc(',', out); }
    for (int i = 0; i < n; i++) {
        if (i) fputc(',', out);
        csv_field(out, cells[i]);
    }
    fputc('\n', out);
}

/* Splits one CSV line (no line breaks inside fields: we never write them). */
static int csv_split(const char *line, char ***fields)
{
    int n = 0;
    char **f = NULL;
    const char *s = line;
    for (;;) {
        size_t cap = strlen(s) + 1, len = 0;
        char *v = malloc(cap);
        char **nf = realloc(f, (size_t)(n + 1) * sizeof *f);
        if (!v || !nf) { free(v); free(nf ? nf : f); return -1; }
        f = nf;
        if (*s == '"') {
            for (s++; *s && !(*s == '"' && s[1] != '"'); s++) {
                if (*s == '"') s++;
                v[len++] = *s;
            }
            if (*s == '"') s++;
        } else {
            while (*s && *s != ',') v[len++] = *s++;
        }
        v[len] = '\0';
        f[n++] = v;
        if (*s != ',') break;
        s++;
    }
    *fields = f;
    return n;
}

void sweep_table_write(const SweepTable *t, FILE *out)
{
    csv_row(out, NULL, t->head, t->ncols);
    for (int r = 0; r < t->nrows; r++) csv_row(out, NULL, &t->cell[(size_t)r * t->ncols], t->ncols);
}

void sweep_table_free(SweepTable *t)
{
    for (int c = 0; c < t->ncols; c++) free(t->head[c]);
    for (size_t i = 0; i < (size_t)t->nrows * t->ncols; i++) free(t->cell[i]);
    free(t->head);
    free(t->cell);
    free(t->title);
    memset(t, 0, sizeof *t);
}

static int column(const SweepTable *t, const char *name)
{
    for (int c = 0; c < t->ncols; c++)
        if (!strcmp(t->head[c], name)) return c;
    return -1;
}

int sweep_table_status(const SweepTable *t)
{
    int c = column(t, "status"), rc = 0;
    for (int r = 0; c >= 0 && r < t->nrows; r++) {
        const char *st = t->cell[(size_t)r * t->ncols + c];
        int code = !st ? RUN_BAD_INPUT
                 : !strcmp(st, "ok") ? RUN_OK
                 : !strcmp(st, "check_failed") ? RUN_CHECK_FAILED
                 : !strncmp(st, "fault", 5) ? RUN_FAULT : RUN_BAD_INPUT;
        if (code > rc) rc = code;
    }
    return rc;
}

/* ---- the sweep ------------------------------------------------------------- */

static int is_column(const Sweep *s, const char *name)
{
    for (int c = 0; c < NCOLS; c++)
        if (!strcmp(col_names[c], name)) return 1;
    for (int a = 0; a < s->naxes; a++)
        if (!strcmp(s->axes[a].name, name)) return 1;
    return !strcmp(name, "kernel") || !strcmp(name, "host_seconds") || (s->cfgcol && !strcmp(name, "config"));
}

/* The fixed part of every point: each CONFIG with the fixed --sets. */
static int load_bases(Sweep *s, DiagList *dl)
{
    const SweepSpec *spec = &s->spec;
    if (spec->nconfigs < 1) {
        diag_add(dl, "--sweep", 0, 0, NULL, "no CONFIG.ini");
        return -1;
    }
    s->base = calloc((size_t)spec->nconfigs, sizeof *s->base);
    if (!s->base) return -1;
    for (int c = 0; c < spec->nconfigs; c++) {
        config_defaults(&s->base[c]);
        if (config_load_file(&s->base[c], spec->configs[c], dl)) return -1;
        for (int i = 0; i < spec->nsets; i++) config_set(&s->base[c], spec->sets[i], dl);
        if (diag_count(dl)) return -1;
    }
    s->cfgcol = spec->nconfigs > 1;
    return 0;
}

/* --y names a column, a report metric or stall.REASON: a misspelt one
 * would give an empty column and an empty plot. */
static int check_y(const Sweep *s, DiagList *dl)
{
    const char *y = s->spec.y, *near = NULL;
    if (!strncmp(y, "stall.", 6)) {
        for (int k = 0; k < STALL_COUNT; k++)
            if (!strcmp(y + 6, stall_names[k])) return 0;
        near = suggest_best(y + 6, stall_names, STALL_COUNT, sizeof stall_names[0]);
        diag_add(dl, "--y", 0, 0, NULL, "'%s': no such stall reason%s%s%s", y, near ? " (did you mean 'stall." : "",
                 near ? near : "", near ? "'?)" : " (docs/metrics.md lists them)");
        return -1;
    }
    if (report_metric_known(&s->base[0], y, &near)) return 0;
    const char *col = suggest_best(y, col_names, NCOLS, sizeof col_names[0]);
    if (col) near = col;
    diag_add(dl, "--y", 0, 0, NULL, "'%s': not a column, a report metric or stall.REASON%s%s%s", y,
             near ? " (did you mean '" : "", near ? near : "", near ? "'?)" : " (docs/metrics.md lists them)");
    return -1;
}

/* Expands axis a and checks it against the ones before it; the number of
 * points it multiplies by (1 for a zipped axis), or -1. */
static double add_axis(Sweep *s, int a, DiagList *dl)
{
    const SweepArg *arg = &s->spec.axes[a];
    Axis *ax = &s->axes[a];
    s->naxes = a + 1;
    if (parse_axis(ax, arg, dl)) return -1;
    for (int b = 0; b < a; b++)
        if (!strcmp(ax->name, s->axes[b].name)) {
            diag_add(dl, "--sweep", 0, 0, NULL, "%s is swept twice", ax->name);
            return -1;
        }
    if (!arg->zip) return ax->nvalues;
    if (a == 0) {
        diag_add(dl, "--zip", 0, 0, NULL, "%s: --zip varies a name together with the --sweep or -D list before it, "
                 "and there is none", ax->name);
        return -1;
    }
    ax->zip = 1;
    if (ax->nvalues != s->axes[a - 1].nvalues) {
        diag_add(dl, "--zip", 0, 0, NULL, "%s has %d values and %s %d: zipped lists need the same length", ax->name,
                 ax->nvalues, s->axes[a - 1].name, s->axes[a - 1].nvalues);
        return -1;
    }
    return 1;
}

Sweep *sweep_new(const SweepSpec *spec, DiagList *dl)
{
    Sweep *s = calloc(1, sizeof *s);
    if (!s) return NULL;
    s->spec = *spec;
    if (s->spec.jobs < 1) s->spec.jobs = 1;
    if (load_bases(s, dl)) goto bad;
    if (spec->naxes > MAX_AXES) {
        diag_add(dl, "--sweep", 0, 0, NULL, "more than %d swept names", MAX_AXES);
        goto bad;
    }
    s->axes = calloc((size_t)(spec->naxes ? spec->naxes : 1), sizeof *s->axes);
    if (!s->axes) goto bad;
    double points = (double)spec->nkernels * spec->nconfigs;
    for (int a = 0; a < spec->naxes; a++) {
        double n = add_axis(s, a, dl);
        if (n < 0) goto bad;
        points *= n;
    }
    if (spec->nkernels < 1 || points > MAX_POINTS) {
        diag_add(dl, "--sweep", 0, 0, NULL, spec->nkernels < 1 ? "no kernel to run" : "more than %d points", MAX_POINTS);
        goto bad;
    }
    s->npoints = (int)points;
    s->extra = spec->y && !is_column(s, spec->y);
    if (s->extra && check_y(s, dl)) goto bad;
    /* header: [config], swept names, kernel, fixed columns, [--y metric], [host_seconds] */
    SweepTable *t = &s->table;
    t->ncols = s->cfgcol + s->naxes + 1 + NCOLS + s->extra + !spec->no_time;
    t->head = calloc((size_t)t->ncols, sizeof *t->head);
    if (!t->head) goto bad;
    int c = 0;
    if (s->cfgcol) t->head[c++] = xstrdup("config");
    for (int a = 0; a < s->naxes; a++) t->head[c++] = xstrdup(s->axes[a].name);
    t->head[c++] = xstrdup("kernel");
    for (int i = 0; i < NCOLS; i++) t->head[c++] = xstrdup(col_names[i]);
    if (s->extra) t->head[c++] = xstrdup(spec->y);
    if (!spec->no_time) t->head[c++] = xstrdup("host_seconds");
    return s;
bad:
    sweep_free(s);
    return NULL;
}

void sweep_free(Sweep *s)
{
    if (!s) return;
    for (int a = 0; a < s->naxes; a++) {
        for (int v = 0; v < s->axes[a].nvalues; v++) free(s->axes[a].values[v]);
        free(s->axes[a].values);
        free(s->axes[a].name);
    }
    free(s->axes);
    free(s->base);
    sweep_table_free(&s->table);
    free(s);
}

int sweep_points(const Sweep *s) { return s->npoints; }
const SweepTable *sweep_table(const Sweep *s) { return &s->table; }

/* A point that did not pass, said on stderr as its row is written:
 * "gpusim: point 2 of 4 (gpu.num_sms=4, kernels/x.s): error: ...". */
static void say_failed(const Sweep *s, int point, char *const *row)
{
    const char *st = row[s->cfgcol + s->naxes + 1 + COL_STATUS];
    if (st && !strcmp(st, "ok")) return;
    char what[512];
    int len = 0;
    for (int c = 0; c <= s->cfgcol + s->naxes && len < (int)sizeof what; c++) {
        const char *name = c == s->cfgcol + s->naxes ? NULL : c < s->cfgcol ? "config" : s->axes[c - s->cfgcol].name;
        len += snprintf(what + len, sizeof what - (size_t)len, "%s%s%s%s", c ? ", " : "", name ? name : "",
                        name ? "=" : "", row[c] ? row[c] : "");
    }
    fprintf(stderr, "gpusim: point %d of %d (%s): %s\n", point, s->npoints, what, st ? st : "error");
}

/* Workers take the next point; whoever finishes the lowest unwritten row
 * writes every finished row from there on, so output stays in point order. */
typedef struct Pool {
    Sweep *s;
    FILE *out;
    pthread_mutex_t lock;
    int next, written;
    char *done;
    int ndone, shown;          /* the meter (SweepSpec.meter): points done, a line on the terminal */
    double start;
} Pool;

/* "gpusim: sweep: 3/16 points done, 12 s" on stderr (under the lock). */
static void points_meter(Pool *p, int erase_only)
{
    if (p->shown) fputs("\r\033[K", stderr);
    p->shown = 0;
    if (erase_only) return;
    fprintf(stderr, "%sgpusim: sweep: %d/%d points done, %.0f s%s", p->s->spec.meter == 1 ? "\r" : "", p->ndone,
            p->s->npoints, now_seconds() - p->start, p->s->spec.meter == 1 ? "\033[K" : "\n");
    p->shown = p->s->spec.meter == 1;
    fflush(stderr);
}

static void *worker(void *arg)
{
    Pool *p = arg;
    SweepTable *t = &p->s->table;
    for (;;) {
        pthread_mutex_lock(&p->lock);
        int i = p->next < p->s->npoints ? p->next++ : -1;
        pthread_mutex_unlock(&p->lock);
        if (i < 0) return NULL;
        run_point(p->s, i, &t->cell[(size_t)i * t->ncols]);
        pthread_mutex_lock(&p->lock);
        p->done[i] = 1;
        p->ndone++;
        if (p->s->spec.meter) points_meter(p, 1);   /* before any failed point's message */
        for (; p->written < p->s->npoints && p->done[p->written]; p->written++) {
            csv_row(p->out, NULL, &t->cell[(size_t)p->written * t->ncols], t->ncols);
            say_failed(p->s, p->written, &t->cell[(size_t)p->written * t->ncols]);
        }
        fflush(p->out);
        if (p->s->spec.meter) points_meter(p, 0);
        pthread_mutex_unlock(&p->lock);
    }
}

int sweep_run(Sweep *s, FILE *out)
{
    SweepTable *t = &s->table;
    t->cell = calloc((size_t)s->npoints * t->ncols, sizeof *t->cell);
    Pool p = { .s = s, .out = out, .done = calloc((size_t)s->npoints, 1), .start = now_seconds() };
    if (!t->cell || !p.done) { free(p.done); return RUN_BAD_INPUT; }
    t->nrows = s->npoints;
    csv_row(out, NULL, t->head, t->ncols);
    fflush(out);
    pthread_mutex_init(&p.lock, NULL);
    int nthreads = s->spec.jobs < s->npoints ? s->spec.jobs : s->npoints;
    /* points are the outer parallelism: each gets its share of the cores
     * (points x threads per point never more than the cores) */
    s->spec.run.threads = gpu_threads_share(s->spec.run.threads, nthreads, gpu_threads_default());
    pthread_t *th = calloc((size_t)nthreads, sizeof *th);
    int started = 0;
    /* this thread is worker 0; if a thread cannot start, fewer do the work */
    for (int i = 1; th && i < nthreads; i++, started++)
        if (pthread_create(&th[started], NULL, worker, &p)) break;
    worker(&p);
    for (int i = 0; i < started; i++) pthread_join(th[i], NULL);
    if (s->spec.meter) points_meter(&p, 1);
    free(th);
    pthread_mutex_destroy(&p.lock);
    free(p.done);
    return sweep_table_status(t);
}

int sweep_run_point(Sweep *s, int point, FILE *out)
{
    int n = s->table.ncols;
    char **row = calloc((size_t)n, sizeof *row);
    if (!row) return RUN_BAD_INPUT;
    s->spec.run.threads = gpu_threads_share(s->spec.run.threads, 1, gpu_threads_default());   /* one job: the machine's */
    run_point(s, point, row);
    say_failed(s, point, row);
    SweepTable one = { n, 1, s->table.head, row, NULL };
    int rc = sweep_table_status(&one);
    /* both lines in one buffer, written at once */
    char *text = NULL, id[32], title[256];
    size_t len = 0;
    FILE *m = open_memstream(&text, &len);
    if (m) {
        snprintf(id, sizeof id, "%d/%d", point, s->npoints);
        fprintf(m, "# config: %s\n", sweep_config_title(s, title, sizeof title));
        csv_row(m, "point", s->table.head, n);
        csv_row(m, id, row, n);
        fclose(m);
        fwrite(text, 1, len, out);
        fflush(out);
        free(text);
    }
    for (int i = 0; i < n; i++) free(row[i]);
    free(row);
    return rc;
}

/* ---- jobs and merge --------------------------------------------------------- */

/* w as one shell word: as is if it is plain, else in single quotes. */
static void shell_quote(FILE *out, const char *w)
{
    static const char safe[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-./=,:+@%";
    if (*w && strspn(w, safe) == strlen(w)) { fputs(w, out); return; }
    fputc('\'', out);
    for (; *w; w++) {
        if (*w == '\'') fputs("'\\''", out);
        else fputc(*w, out);
    }
    fputc('\'', out);
}

static void shell_word(FILE *out, const char *w)
{
    fputc(' ', out);
    shell_quote(out, w);
}

static void shell_opt(FILE *out, const char *opt, const char *val)
{
    shell_word(out, opt);
    if (val) shell_word(out, val);
}

void sweep_emit_jobs(const Sweep *s, FILE *out)
{
    const SweepSpec *sp = &s->spec;
    for (int i = 0; i < s->npoints; i++) {
        char buf[32];
        shell_quote(out, sp->prog);
        if (sp->run.functional) shell_opt(out, "--functional", NULL);
        if (sp->run.max_cycles) {
            snprintf(buf, sizeof buf, "%llu", (unsigned long long)sp->run.max_cycles);
            shell_opt(out, "--max-cycles", buf);
        }
        if (sp->no_time) shell_opt(out, "--no-time", NULL);
        if (sp->run.threads) {
            snprintf(buf, sizeof buf, "%d", sp->run.threads);
            shell_opt(out, "--threads", buf);
        }
        for (int k = 0; k < sp->nsets; k++) shell_opt(out, "--set", sp->sets[k]);
        for (int k = 0; k < sp->ndefines; k++) {
            char d[512];
            snprintf(d, sizeof d, "%s=%s", sp->defines[k].name, sp->defines[k].value);
            shell_opt(out, "-D", d);
        }
        for (int a = 0; a < sp->naxes; a++)
            shell_opt(out, sp->axes[a].zip ? "--zip" : sp->axes[a].define ? "-D" : "--sweep", sp->axes[a].spec);
        if (sp->y) shell_opt(out, "--y", sp->y);
        snprintf(buf, sizeof buf, "%d", i);
        shell_opt(out, "--sweep-point", buf);
        for (int k = 0; k < sp->nconfigs; k++) shell_word(out, sp->configs[k]);
        for (int k = 0; k < sp->nkernels; k++) shell_word(out, sp->kernels[k]);
        fputc('\n', out);
    }
}


static void free_fields(char **f, int n)
{
    for (int i = 0; i < n; i++) free(f[i]);
    free(f);
}

/* Job output being merged: the first header and the rows by point, each
 * still with its "I/N" field in front. */
typedef struct Merge {
    char *title;         /* the first "# config:" line's */
    char **head;
    int nhead;
    int total;
    char ***row;
    int *nfields;
} Merge;

static int merge_line(Merge *m, char *line, const char *where, DiagList *dl)
{
    line[strcspn(line, "\r\n")] = '\0';
    if (!*line) return 0;
    if (*line == '#') {   /* "# config: TITLE" (the plot's title), other comments ignored */
        if (!m->title && !strncmp(line, "# config: ", 10)) m->title = xstrdup(line + 10);
        return 0;
    }
    char **f;
    int n = csv_split(line, &f);
    if (n < 0) return -1;
    if (!strcmp(f[0], "point")) {
        if (!m->head) {
            m->head = f;
            m->nhead = n;
            return 0;
        }
        int same = n == m->nhead;
        for (int c = 0; same && c < n; c++) same = !strcmp(f[c], m->head[c]);
        free_fields(f, n);
        if (same) return 0;
        diag_add(dl, where, 0, 0, NULL, "a header differs from the first one: rows of different sweeps?");
        return -1;
    }
    int i, of;
    char end;
    const char *err = NULL;
    if (sscanf(f[0], "%d/%d%c", &i, &of, &end) != 2 || of < 1 || of > MAX_POINTS || i < 0 || i >= of)
        err = "not a row of --sweep-point output";
    else if (m->total && of != m->total)
        err = "a row from a sweep with a different number of points";
    if (!err && !m->total) {
        m->total = of;
        m->row = calloc((size_t)of, sizeof *m->row);
        m->nfields = calloc((size_t)of, sizeof *m->nfields);
        if (!m->row || !m->nfields) err = "out of memory";
    }
    if (!err && m->row[i]) err = "a point that appears twice";
    if (err) {
        diag_add(dl, where, 0, 0, NULL, "%s: '%.60s'", err, line);
        free_fields(f, n);
        return -1;
    }
    m->row[i] = f;
    m->nfields[i] = n;
    return 0;
}

static int merge_check(const Merge *m, DiagList *dl)
{
    if (!m->head || !m->total) {
        diag_add(dl, "--merge", 0, 0, NULL, "no %s: expected the output of gpusim --sweep-point", m->head ? "rows" : "header line");
        return -1;
    }
    char list[200] = "";
    int missing = 0;
    for (int i = 0; i < m->total; i++) {
        if (m->row[i] && m->nfields[i] == m->nhead) continue;
        if (m->row[i]) {
            diag_add(dl, "--merge", 0, 0, NULL, "point %d has %d fields, the header %d", i, m->nfields[i], m->nhead);
            return -1;
        }
        size_t len = strlen(list);
        if (len < sizeof list - 16) snprintf(list + len, sizeof list - len, "%s%d", missing ? ", " : "", i);
        else if (list[len - 1] != '.') snprintf(list + len, sizeof list - len, ", ...");
        missing++;
    }
    if (missing) diag_add(dl, "--merge", 0, 0, NULL, "%d of %d points missing: %s", missing, m->total, list);
    return missing ? -1 : 0;
}

int sweep_merge(const char *const *paths, int n, SweepTable *t, DiagList *dl)
{
    Merge m = { 0 };
    int rc = 0;
    for (int k = 0; k < n && !rc; k++) {
        int std = !strcmp(paths[k], "-");
        FILE *f = std ? stdin : fopen(paths[k], "r");
        if (!f) {
            diag_add(dl, paths[k], 0, 0, NULL, "cannot open: %s", strerror(errno));
            rc = -1;
            break;
        }
        char *line = NULL;
        size_t cap = 0;
        while (!rc && getline(&line, &cap, f) >= 0) rc = merge_line(&m, line, paths[k], dl);
        free(line);
        if (!std) fclose(f);
    }
    if (!rc) rc = merge_check(&m, dl);
    memset(t, 0, sizeof *t);
    if (!rc) {
        t->ncols = m.nhead - 1;
        t->nrows = m.total;
        t->head = calloc((size_t)t->ncols, sizeof *t->head);
        t->cell = calloc((size_t)t->nrows * t->ncols, sizeof *t->cell);
        if (!t->head || !t->cell) rc = -1;
        for (int c = 0; !rc && c < t->ncols; c++) t->head[c] = xstrdup(m.head[c + 1]);
        if (!rc && m.title) { t->title = m.title; m.title = NULL; }
        for (int i = 0; !rc && i < m.total; i++)
            for (int c = 0; c < t->ncols; c++) {
                /* an empty field is an empty cell, as sweep_run leaves it */
                char *v = m.row[i][c + 1];
                t->cell[(size_t)i * t->ncols + c] = *v ? xstrdup(v) : NULL;
            }
    }
    if (m.head) free_fields(m.head, m.nhead);
    free(m.title);
    for (int i = 0; i < m.total; i++)
        if (m.row[i]) free_fields(m.row[i], m.nfields[i]);
    free(m.row);
    free(m.nfields);
    if (rc) sweep_table_free(t);
    return rc;
}

/* ---- plot ------------------------------------------------------------------ */

/* A cell as a number; sizes may carry the config's suffixes (16KiB). */
static int cell_number(const char *s, double *v)
{
    static const struct { const char *sfx; double mul; } sfx[] = {
        { "", 1 }, { "K", 1024 }, { "KiB", 1024 }, { "M", 1048576 }, { "MiB", 1048576 },
        { "G", 1073741824.0 }, { "GiB", 1073741824.0 },
    };
    if (!s || !*s) return -1;
    char *end;
    *v = strtod(s, &end);
    if (end == s || !isfinite(*v)) return -1;
    for (size_t i = 0; i < sizeof sfx / sizeof sfx[0]; i++)
        if (!strcmp(end, sfx[i].sfx)) { *v *= sfx[i].mul; return 0; }
    return -1;
}

static const char *cell(const SweepTable *t, int r, int c)
{
    const char *v = t->cell[(size_t)r * t->ncols + c];
    return v ? v : "";
}

static const char *base_name(const char *path)
{
    const char *b = strrchr(path, '/');
    return b ? b + 1 : path;
}

/* Rows a and b belong to one line: equal in every swept column but x, and
 * in the kernel. */
static int same_line(const SweepTable *t, int a, int b, int xcol, int kcol)
{
    for (int c = 0; c <= kcol; c++)
        if (c != xcol && strcmp(cell(t, a, c), cell(t, b, c))) return 0;
    return 1;
}

/* "kernel, KEY=VALUE": the kernel (its file name without .s) and the
 * swept values, only those that vary between lines (a config by its file
 * name without .ini). */
static char *line_label(const SweepTable *t, int r, int xcol, int kcol, const int *vary)
{
    char buf[256] = "";
    const char *k = base_name(cell(t, r, kcol)), *dot = strrchr(k, '.');
    int len = snprintf(buf, sizeof buf, "%.*s", dot && dot > k ? (int)(dot - k) : (int)strlen(k), k);
    if (kcol != xcol && !vary[kcol]) len = 0;
    for (int c = 0; c < kcol && len < (int)sizeof buf; c++) {
        if (c == xcol || !vary[c]) continue;
        const char *v = cell(t, r, c);
        if (!strcmp(t->head[c], "config")) {
            const char *b = base_name(v), *d = strrchr(b, '.');
            len += snprintf(buf + len, sizeof buf - (size_t)len, "%s%.*s", len ? ", " : "",
                            d && d > b ? (int)(d - b) : (int)strlen(b), b);
        } else {
            len += snprintf(buf + len, sizeof buf - (size_t)len, "%s%s=%s", len ? ", " : "", t->head[c], v);
        }
    }
    if (!len) snprintf(buf, sizeof buf, "%.*s", dot && dot > k ? (int)(dot - k) : (int)strlen(k), k);
    return xstrdup(buf);
}

const char *sweep_config_title(const Sweep *s, char *buf, size_t n)
{
    if (s->spec.nconfigs == 1) {
        snprintf(buf, n, "%s, %s", s->base[0].gpu.name, s->spec.configs[0]);
        return buf;
    }
    size_t len = 0;   /* several: their GPU names */
    buf[0] = '\0';
    for (int c = 0; c < s->spec.nconfigs && len < n; c++)
        len += (size_t)snprintf(buf + len, n - len, "%s%s", c ? c + 1 == s->spec.nconfigs ? " and " : ", " : "",
                                s->base[c].gpu.name);
    return buf;
}

/* The x of row r: its number, or its category's index. */
static double x_of(const SweepTable *t, int r, int xcol, int numeric, const char *const *cats)
{
    double xv = 0;
    if (numeric) cell_number(cell(t, r, xcol), &xv);
    else for (xv = 0; strcmp(cats[(int)xv], cell(t, r, xcol)); xv++) {}
    return xv;
}

/* --relative / --speedup: each line against its baseline point (the one at
 * x = baseline, else its first with a value).  0, or -1 if baseline is
 * given and no line has it. */
static int rescale(PlotLine *pl, int used, double *yv, const SweepPlotOptions *o, const double *xbase, int has_xbase)
{
    int found = 0;
    for (int l = 0; l < used; l++) {
        double *y = yv + (pl[l].y - yv), b = NAN;
        for (int i = 0; i < pl[l].n && isnan(b); i++)
            if (!has_xbase ? !isnan(y[i]) : pl[l].x[i] == *xbase) b = y[i];
        found |= !isnan(b);
        for (int i = 0; i < pl[l].n; i++)
            y[i] = o->scale == SWEEP_PLOT_RELATIVE ? y[i] / b : b / y[i];
    }
    return found ? 0 : -1;
}

/* Rows into lines: line[r] for every row, first[l] the first row of line l. */
static int group_lines(const SweepTable *t, int xcol, int kcol, int *line, int *first)
{
    int nlines = 0;
    for (int r = 0; r < t->nrows; r++) {
        int l = 0;
        while (l < nlines && !same_line(t, first[l], r, xcol, kcol)) l++;
        if (l == nlines) first[nlines++] = r;
        line[r] = l;
    }
    return nlines;
}

int sweep_plot(const SweepTable *t, const SweepPlotOptions *o, FILE *out, DiagList *dl)
{
    const char *y = o->y ? o->y : "cycles";
    int kcol = column(t, "kernel"), ycol = column(t, y);
    if (kcol < 0 || ycol < 0 || ycol <= kcol) {
        diag_add(dl, "--y", 0, 0, NULL, "%s: not a metric column of the sweep (e.g. cycles, ipc, occupancy_pct, inst)", y);
        return -1;
    }
    int cfgcol = kcol > 0 && !strcmp(t->head[0], "config");
    int xcol = kcol > cfgcol ? cfgcol : kcol;   /* no swept name: the kernels are the x axis */
    int n = t->nrows;
    int *line = malloc((size_t)(n ? n : 1) * sizeof *line), *first = malloc((size_t)(n ? n : 1) * sizeof *first);
    int *vary = calloc((size_t)kcol + 1, sizeof *vary);
    double *x = malloc((size_t)(n ? n : 1) * sizeof *x), *yv = malloc((size_t)(n ? n : 1) * sizeof *yv);
    const char **cats = calloc((size_t)(n ? n : 1), sizeof *cats);
    PlotLine *pl = calloc((size_t)(n ? n : 1), sizeof *pl);
    int rc = -1, ncats = 0, numeric = 1, pow2 = 1, used = 0, values = 0;
    if (!line || !first || !vary || !x || !yv || !cats || !pl) goto done;
    /* x: numbers (log2 if all are powers of two) or categories in row order */
    for (int r = 0; r < n; r++) {
        double v;
        int e;
        if (cell_number(cell(t, r, xcol), &v)) numeric = 0;
        else if (!(v > 0 && frexp(v, &e) == 0.5)) pow2 = 0;
        int k = 0;
        while (k < ncats && strcmp(cats[k], cell(t, r, xcol))) k++;
        if (k == ncats) cats[ncats++] = cell(t, r, xcol);
    }
    for (int r = 0; r < n; r++)
        for (int c = 0; c <= kcol; c++)
            if (strcmp(cell(t, r, c), cell(t, 0, c))) vary[c] = 1;
    int nlines = group_lines(t, xcol, kcol, line, first);
    /* points of line l at x[off..off+n), sorted by x; a failed point keeps
     * its x (the axis keeps its scale) with a NaN y (a gap) */
    int npts = 0;
    for (int l = 0; l < nlines; l++) {
        int off = npts;
        for (int r = 0; r < n; r++) {
            double v = NAN;
            if (line[r] != l) continue;
            if (!cell_number(cell(t, r, ycol), &v)) values++;
            else v = NAN;
            double xv = x_of(t, r, xcol, numeric, cats);
            int k = npts++;
            for (; k > off && x[k - 1] > xv; k--) { x[k] = x[k - 1]; yv[k] = yv[k - 1]; }
            x[k] = xv;
            yv[k] = v;
        }
        pl[used++] = (PlotLine){ line_label(t, first[l], xcol, kcol, vary), npts - off, x + off, yv + off };
    }
    if (!values) {
        diag_add(dl, "--y", 0, 0, NULL, "%s: no point has a numeric value in this column", y);
        goto done;
    }
    double xbase = 0;
    int has_xbase = 0;
    if (o->baseline) {
        has_xbase = 1;
        int k = 0;
        while (k < ncats && strcmp(cats[k], o->baseline)) k++;
        if (numeric ? cell_number(o->baseline, &xbase) : k == ncats) xbase = NAN;
        else if (!numeric) xbase = k;
    }
    if (o->scale != SWEEP_PLOT_ABSOLUTE && rescale(pl, used, yv, o, &xbase, has_xbase)) {
        diag_add(dl, "--baseline", 0, 0, NULL, "%s: no line has a value at %s = %s", o->baseline ? o->baseline : "",
                 t->head[xcol], o->baseline ? o->baseline : "");
        goto done;
    }
    char title[400], ylabel[300], base[120];
    if (o->baseline) snprintf(base, sizeof base, "%s = %s", t->head[xcol], o->baseline);
    else snprintf(base, sizeof base, "the first %s", t->head[xcol]);
    if (o->scale == SWEEP_PLOT_RELATIVE) snprintf(ylabel, sizeof ylabel, "%s relative to %s", y, base);
    else if (o->scale == SWEEP_PLOT_SPEEDUP) snprintf(ylabel, sizeof ylabel, "speedup in %s over %s", y, base);
    else snprintf(ylabel, sizeof ylabel, "%s", y);
    snprintf(title, sizeof title, "%s vs %s%s%s", o->scale == SWEEP_PLOT_SPEEDUP ? "speedup" : y, t->head[xcol],
             o->config ? " on " : "", o->config ? o->config : "");
    size_t xl = strlen(t->head[xcol]);
    Plot p = { title, t->head[xcol], ylabel, !numeric ? PLOT_CATEGORY : pow2 ? PLOT_LOG2 : PLOT_LINEAR,
               cats, ncats, pl, used, !numeric,
               numeric && xl > 6 && !strcmp(t->head[xcol] + xl - 6, "_bytes") };
    plot_svg(&p, out);
    rc = 0;
done:
    for (int l = 0; pl && l < used; l++) free((char *)pl[l].label);
    free(line); free(first); free(vary); free(x); free(yv); free(cats); free(pl);
    return rc;
}
