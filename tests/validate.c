/* validate.c - `make validate`: gpusim against a real H100, every committed
 * launch, no GPU needed (issue 13).
 *
 * Reads what Nsight Compute measured (tests/validation/h100/measured/
 * kernels_clock_none.csv and tests/validation/h100/corpus/corpus.csv), runs each row's
 * launch on configs/hopper.ini from tests/validation/KERNEL.s with the row's
 * `launch` column as -D values (m=n=k=256 -> -D M=256 -D N=256 -D K=256),
 * and compares cycles (SM-active and elapsed), executed instructions,
 * registers per thread and the access-pattern counters.
 *
 * tests/validation/split.csv puts every kernel in the training set (what
 * hopper.ini and the timing model may be calibrated on) or the validation
 * set (only ever measured), with its family.  Writes:
 *   docs/validation/correlation.csv       one row per launch
 *   docs/validation/cycles_sm_active.svg  simulated vs measured, log-log
 *   docs/validation/cycles_elapsed.svg
 *   docs/validation.md                    the section between the markers
 * Usage: validate [--threads N] [--only KERNEL] [--max-threads T] [--set KEY=VALUE]... [--no-write]
 *   --max-threads T   leave out launches of more than T threads (said so in the table)
 *   --all             also the launches split.csv marks slow (minutes each)
 *   --set KEY=VALUE   change a key of hopper.ini for this run (a what-if; implies --no-write)
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "isa/asm.h"
#include "sim/base/config.h"
#include "sim/front/report.h"
#include "sim/front/run.h"
#include "tests/csv.h"

#define CONFIG    "configs/hopper.ini"
#define SPLIT_CSV "tests/validation/split.csv"
#define OUT_DIR   "docs/validation/"
#define DOC       "docs/validation.md"
/* Launches above this many threads take minutes each to simulate: make
 * validate leaves them out, make validate-all (--all) runs them. */
#define DEFAULT_MAX_THREADS 4194304.0
#define BEGIN_MARK "<!-- make validate: begin -->"
#define END_MARK   "<!-- make validate: end -->"

/* What was measured, and where the gpusim kernel file of each row is.  The
 * cycles are Nsight Compute's with --clock-control none: the H100 at its own
 * clock (1.95-1.98 GHz), the clock of hopper.ini and of the microbenchmarks
 * (tests/validation/h100/measured/README.md).  counters.csv (the older
 * reference, taken at the 1.59 GHz base clock) is checked by test_validation. */
static const struct { const char *csv, *kernel_dir; } measured[] = {
    { "tests/validation/h100/measured/kernels_clock_none.csv", "tests/validation/nvcc/" },
    /* the real-PTX corpus of issue 14 (kernels_corpus.cu): validation only */
    { "tests/validation/h100/corpus/corpus.csv", "tests/validation/corpus/" },
};

/* The counters compared, by their Nsight names (the same in gpusim). */
static const char *const metric_names[] = {
    "sm__cycles_active.avg", "gpc__cycles_elapsed.max", "smsp__inst_executed.sum", "launch__registers_per_thread",
    "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
    "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum", "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum",
    "smsp__inst_executed_op_shared_ld.sum", "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
    "smsp__inst_executed_op_shared_st.sum", "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
};
enum { M_ACTIVE, M_ELAPSED, M_INST, M_REGS, M_FIRST_COUNTER, NMETRICS = sizeof metric_names / sizeof metric_names[0] };

typedef struct Launch {
    char kernel[64], launch[96], family[32];
    int validation;               /* 0: training set */
    char path[160];
    double hw[NMETRICS], sim[NMETRICS];
    int has_hw[NMETRICS];
    double threads;               /* grid x block */
    double host_s;                /* host seconds it took */
    int ran, rc;
    char why[200];                /* why it did not run */
} Launch;

typedef struct Work {
    Launch *l;
    int n, next;
    Config cfg;
    pthread_mutex_t mu;
} Work;

/* -D values from a launch string: "m=n=k=256 stride=2" -> M=256 N=256 K=256 STRIDE=2. */
static int launch_defines(const char *launch, char names[][32], char values[][32], int max)
{
    int n = 0;
    char buf[128];
    snprintf(buf, sizeof buf, "%s", launch);
    char *save = NULL;
    for (char *tok = strtok_r(buf, " ", &save); tok && n < max; tok = strtok_r(NULL, " ", &save)) {
        char *last = strrchr(tok, '=');
        if (!last) continue;
        *last = 0;
        char *p = tok;
        while (*p && n < max) {
            char *eq = strchr(p, '=');
            size_t len = eq ? (size_t)(eq - p) : strlen(p);
            if (len && len < 32) {
                for (size_t i = 0; i < len; i++) names[n][i] = (char)(p[i] >= 'a' && p[i] <= 'z' ? p[i] - 32 : p[i]);
                names[n][len] = 0;
                snprintf(values[n], 32, "%s", last + 1);
                n++;
            }
            p = eq ? eq + 1 : p + len;
        }
    }
    return n;
}

static void run_one(Work *w, Launch *l)
{
    char names[16][32], values[16][32];
    int nd = launch_defines(l->launch, names, values, 16);
    AsmDefine defs[16];
    for (int i = 0; i < nd; i++) defs[i] = (AsmDefine){ names[i], values[i] };
    AsmOptions ao = { defs, nd };
    DiagList dl = { 0 };
    Program *p = asm_assemble_file(l->path, &ao, &dl);
    if (!p) {
        snprintf(l->why, sizeof l->why, "does not assemble (%s)", dl.n ? dl.v[0].msg : "?");
        diag_free(&dl);
        return;
    }
    Run run;
    RunOptions o = { 0 };
    l->rc = run_program(&run, p, &w->cfg, CONFIG, &o, &dl);
    if (l->rc == RUN_OK || l->rc == RUN_CHECK_FAILED) {
        report_metrics(&run, metric_names, l->sim, NMETRICS);
        l->ran = 1;
        if (l->rc) snprintf(l->why, sizeof l->why, "ran, but a .check failed");
    } else {
        snprintf(l->why, sizeof l->why, "exit %d", l->rc);
    }
    run_free(&run);
    program_free(p);
    diag_free(&dl);
}

static void *worker(void *arg)
{
    Work *w = arg;
    for (;;) {
        pthread_mutex_lock(&w->mu);
        int i = w->next++;
        pthread_mutex_unlock(&w->mu);
        if (i >= w->n) return NULL;
        struct timespec t0, t1;
        clock_gettime(CLOCK_MONOTONIC, &t0);
        if (!w->l[i].why[0]) run_one(w, &w->l[i]);
        clock_gettime(CLOCK_MONOTONIC, &t1);
        w->l[i].host_s = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
        fprintf(stderr, "  %-20s %-24s %-10s %7.1f s %s\n", w->l[i].kernel, w->l[i].launch,
                w->l[i].validation ? "validation" : "training", w->l[i].host_s, w->l[i].why);
    }
}

/* ---- statistics ---------------------------------------------------------------- */
typedef struct Fit { int n; double mape, corr; } Fit;

/* Over launches that ran and were measured, in `set` (-1: both) and family
 * (NULL: all): mean absolute percentage error and Pearson correlation. */
static Fit fit(const Launch *l, int n, int metric, int set, const char *family)
{
    Fit f = { 0, 0, 0 };
    double sx = 0, sy = 0, sxx = 0, syy = 0, sxy = 0, err = 0;
    for (int i = 0; i < n; i++) {
        if (!l[i].ran || !l[i].has_hw[metric] || l[i].hw[metric] <= 0) continue;
        if (set >= 0 && l[i].validation != set) continue;
        if (family && strcmp(l[i].family, family)) continue;
        double x = l[i].hw[metric], y = l[i].sim[metric];
        err += fabs(y - x) / x;
        sx += x; sy += y; sxx += x * x; syy += y * y; sxy += x * y;
        f.n++;
    }
    if (!f.n) return f;
    f.mape = 100.0 * err / f.n;
    double vx = sxx - sx * sx / f.n, vy = syy - sy * sy / f.n;
    f.corr = vx > 0 && vy > 0 ? (sxy - sx * sy / f.n) / sqrt(vx * vy) : (f.n == 1 ? 1 : 0);
    return f;
}

/* ---- the plot -------------------------------------------------------------------- */
static void svg_scatter(const Launch *l, int n, int metric, const char *path, const char *title)
{
    FILE *f = fopen(path, "w");
    if (!f) { fprintf(stderr, "validate: cannot write %s\n", path); return; }
    double lo = 1e300, hi = 0;
    for (int i = 0; i < n; i++) {
        if (!l[i].ran || !l[i].has_hw[metric]) continue;
        double a = l[i].hw[metric], b = l[i].sim[metric];
        if (a > 0) { lo = fmin(lo, a); hi = fmax(hi, a); }
        if (b > 0) { lo = fmin(lo, b); hi = fmax(hi, b); }
    }
    if (hi <= 0) { lo = 1; hi = 10; }
    double d0 = floor(log10(lo)), d1 = ceil(log10(hi));
    if (d1 <= d0) d1 = d0 + 1;
    const double W = 560, H = 560, L = 80, T = 50, S = 420;   /* plot square S x S at (L, T) */
#define PX(v) (L + (log10(v) - d0) / (d1 - d0) * S)
#define PY(v) (T + S - (log10(v) - d0) / (d1 - d0) * S)
    fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" "
               "font-family=\"sans-serif\" font-size=\"13\">\n", W, H, W, H);
    fprintf(f, "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n");
    fprintf(f, "<text x=\"%.0f\" y=\"28\" text-anchor=\"middle\" font-size=\"15\">%s</text>\n", L + S / 2, title);
    for (double d = d0; d <= d1 + 1e-9; d++) {
        double v = pow(10, d);
        fprintf(f, "<line x1=\"%.1f\" y1=\"%.0f\" x2=\"%.1f\" y2=\"%.0f\" stroke=\"#ddd\"/>\n", PX(v), T, PX(v), T + S);
        fprintf(f, "<line x1=\"%.0f\" y1=\"%.1f\" x2=\"%.0f\" y2=\"%.1f\" stroke=\"#ddd\"/>\n", L, PY(v), L + S, PY(v));
        fprintf(f, "<text x=\"%.1f\" y=\"%.0f\" text-anchor=\"middle\">1e%.0f</text>\n", PX(v), T + S + 18, d);
        fprintf(f, "<text x=\"%.0f\" y=\"%.1f\" text-anchor=\"end\">1e%.0f</text>\n", L - 6, PY(v) + 4, d);
    }
    fprintf(f, "<rect x=\"%.0f\" y=\"%.0f\" width=\"%.0f\" height=\"%.0f\" fill=\"none\" stroke=\"#333\"/>\n", L, T, S, S);
    fprintf(f, "<line x1=\"%.0f\" y1=\"%.0f\" x2=\"%.0f\" y2=\"%.0f\" stroke=\"#888\" stroke-dasharray=\"6 4\"/>\n", L, T + S,
            L + S, T);
    fprintf(f, "<text x=\"%.0f\" y=\"%.0f\" text-anchor=\"middle\">H100, measured (Nsight Compute)</text>\n", L + S / 2,
            T + S + 40);
    fprintf(f, "<text transform=\"translate(22 %.0f) rotate(-90)\" text-anchor=\"middle\">gpusim, configs/hopper.ini</text>\n",
            T + S / 2);
    for (int i = 0; i < n; i++) {
        if (!l[i].ran || !l[i].has_hw[metric] || l[i].hw[metric] <= 0 || l[i].sim[metric] <= 0) continue;
        double x = PX(l[i].hw[metric]), y = PY(l[i].sim[metric]);
        if (l[i].validation)
            fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"9\" height=\"9\" fill=\"none\" stroke=\"#d95f02\" stroke-width=\"2\">",
                    x - 4.5, y - 4.5);
        else
            fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"4.5\" fill=\"#1b9e77\" fill-opacity=\"0.8\">", x, y);
        fprintf(f, "<title>%s %s: H100 %.0f, gpusim %.0f</title>%s\n", l[i].kernel, l[i].launch, l[i].hw[metric],
                l[i].sim[metric], l[i].validation ? "</rect>" : "</circle>");
    }
    Fit tr = fit(l, n, metric, 0, NULL), va = fit(l, n, metric, 1, NULL);
    double lx = L + 12, ly = T + 16;
    fprintf(f, "<circle cx=\"%.0f\" cy=\"%.0f\" r=\"4.5\" fill=\"#1b9e77\"/>", lx, ly);
    fprintf(f, "<text x=\"%.0f\" y=\"%.0f\">training (%d): MAPE %.0f%%, r %.3f</text>\n", lx + 10, ly + 4, tr.n, tr.mape, tr.corr);
    fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"9\" height=\"9\" fill=\"none\" stroke=\"#d95f02\" stroke-width=\"2\"/>", lx - 4.5,
            ly + 20 - 4.5);
    fprintf(f, "<text x=\"%.0f\" y=\"%.0f\">validation (%d): MAPE %.0f%%, r %.3f</text>\n", lx + 10, ly + 24, va.n, va.mape,
            va.corr);
    fprintf(f, "<text x=\"%.0f\" y=\"%.0f\" fill=\"#888\">dashed: y = x</text>\n", lx - 4, ly + 44);
    fprintf(f, "</svg>\n");
#undef PX
#undef PY
    fclose(f);
}

/* ---- the tables ------------------------------------------------------------------- */
static double pct(double sim, double hw) { return hw > 0 ? 100.0 * (sim - hw) / hw : 0; }

/* Short names of the access-pattern counters, in metric_names order from
 * M_FIRST_COUNTER. */
static const char *const counter_short[] = { "ld req", "ld sect", "st req", "st sect",
                                             "sh ld", "sh ld wf", "sh st", "sh st wf" };

/* "✓", or the counters that differ with their relative gap ("sh ld wf +3%"). */
static const char *counters_text(const Launch *l, char *buf, size_t n)
{
    size_t k = 0;
    buf[0] = 0;
    for (int m = M_FIRST_COUNTER; m < NMETRICS && k + 40 < n; m++)
        if (l->has_hw[m] && l->hw[m] != l->sim[m])
            k += (size_t)snprintf(buf + k, n - k, "%s%s %+.0f%%", k ? ", " : "", counter_short[m - M_FIRST_COUNTER],
                                  l->hw[m] ? 100.0 * (l->sim[m] - l->hw[m]) / l->hw[m] : 100.0);
    return k ? buf : "✓";
}

static void write_section(FILE *f, const Launch *l, int n)
{
    fprintf(f, "%s\n", BEGIN_MARK);
    fprintf(f, "<!-- written by `make validate` (tests/validate.c); edit the tool, not this section -->\n\n");
    fprintf(f, "![SM-active cycles](validation/cycles_sm_active.svg) ![elapsed cycles](validation/cycles_elapsed.svg)\n\n");
    const char *fams[64];
    int nf = 0;
    for (int i = 0; i < n; i++) {
        int k = 0;
        while (k < nf && strcmp(fams[k], l[i].family)) k++;
        if (k == nf && nf < 64) fams[nf++] = l[i].family;
    }
    fprintf(f, "| set | family | launches | SM-active MAPE | SM-active r | elapsed MAPE | elapsed r |\n");
    fprintf(f, "|---|---|---|---|---|---|---|\n");
    for (int set = 0; set < 2; set++) {
        for (int k = 0; k < nf; k++) {
            Fit a = fit(l, n, M_ACTIVE, set, fams[k]), e = fit(l, n, M_ELAPSED, set, fams[k]);
            if (!a.n) continue;
            fprintf(f, "| %s | %s | %d | %.1f%% | %.3f | %.1f%% | %.3f |\n", set ? "validation" : "training", fams[k], a.n,
                    a.mape, a.corr, e.mape, e.corr);
        }
        Fit a = fit(l, n, M_ACTIVE, set, NULL), e = fit(l, n, M_ELAPSED, set, NULL);
        fprintf(f, "| **%s** | **all** | **%d** | **%.1f%%** | **%.3f** | **%.1f%%** | **%.3f** |\n",
                set ? "validation" : "training", a.n, a.mape, a.corr, e.mape, e.corr);
    }
    fprintf(f, "\nEvery launch (cycles: gpusim vs H100, error in percent; counters: the ten access-pattern "
               "counters of the table above, ✓ when all equal):\n\n");
    fprintf(f, "| kernel | launch | set | SM-active H100 | gpusim | err | elapsed H100 | gpusim | err | inst H100 | gpusim | err "
               "| regs H100 | gpusim | counters |\n");
    fprintf(f, "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
    char ctext[256];
    for (int i = 0; i < n; i++) {
        const Launch *x = &l[i];
        if (!x->ran) {
            fprintf(f, "| %s | %s | %s | %.0f | — | | %.0f | — | | | | | | | not run: %s |\n", x->kernel, x->launch,
                    x->validation ? "validation" : "training", x->hw[M_ACTIVE], x->hw[M_ELAPSED], x->why);
            continue;
        }
        fprintf(f, "| %s | %s | %s | %.0f | %.0f | %+.0f%% | %.0f | %.0f | %+.0f%% | %.0f | %.0f | %+.0f%% | %.0f | %.0f | %s |\n",
                x->kernel, x->launch, x->validation ? "validation" : "training", x->hw[M_ACTIVE], x->sim[M_ACTIVE],
                pct(x->sim[M_ACTIVE], x->hw[M_ACTIVE]), x->hw[M_ELAPSED], x->sim[M_ELAPSED],
                pct(x->sim[M_ELAPSED], x->hw[M_ELAPSED]), x->hw[M_INST], x->sim[M_INST], pct(x->sim[M_INST], x->hw[M_INST]),
                x->hw[M_REGS], x->sim[M_REGS], counters_text(x, ctext, sizeof ctext));
    }
    fprintf(f, "\n%s\n", END_MARK);
}

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *s = n >= 0 ? malloc((size_t)n + 1) : NULL;
    if (s && fread(s, 1, (size_t)n, f) != (size_t)n) { free(s); s = NULL; }
    if (s) s[n] = 0;
    fclose(f);
    return s;
}

/* Replace the marked section of docs/validation.md (appended if absent). */
static int write_doc(const Launch *l, int n)
{
    char *doc = slurp(DOC);
    if (!doc) { fprintf(stderr, "validate: cannot read %s\n", DOC); return -1; }
    char *b = strstr(doc, BEGIN_MARK), *e = b ? strstr(b, END_MARK) : NULL;
    FILE *f = fopen(DOC ".tmp", "w");
    if (!f) { free(doc); return -1; }
    if (b && e) {
        fwrite(doc, 1, (size_t)(b - doc), f);
        write_section(f, l, n);
        fputs(e + strlen(END_MARK) + (e[strlen(END_MARK)] == '\n'), f);
    } else {
        fputs(doc, f);
        fputs("\n## Cycles against the H100 (`make validate`)\n\n", f);
        write_section(f, l, n);
    }
    free(doc);
    if (fclose(f) || rename(DOC ".tmp", DOC)) return -1;
    return 0;
}

static int write_csv(const Launch *l, int n)
{
    FILE *f = fopen(OUT_DIR "correlation.csv", "w");
    if (!f) return -1;
    fprintf(f, "kernel,launch,set,family,ran");
    for (int m = 0; m < NMETRICS; m++) fprintf(f, ",h100:%s,gpusim:%s", metric_names[m], metric_names[m]);
    fprintf(f, "\n");
    for (int i = 0; i < n; i++) {
        fprintf(f, "%s,%s,%s,%s,%d", l[i].kernel, l[i].launch, l[i].validation ? "validation" : "training", l[i].family,
                l[i].ran);
        for (int m = 0; m < NMETRICS; m++) fprintf(f, ",%.2f,%.2f", l[i].hw[m], l[i].ran ? l[i].sim[m] : 0.0);
        fprintf(f, "\n");
    }
    return fclose(f);
}

/* ---- reading the measurements ------------------------------------------------------- */
/* "(16, 16, 1)" -> 256 */
static double threads_of(const char *dim)
{
    double t = 1;
    for (const char *p = dim; *p;) {
        char *end;
        long v = strtol(p, &end, 10);
        if (end != p) { t *= (double)v; p = end; }
        else p++;
    }
    return t;
}

/* Whether launch is one of the ';'-separated launches in list. */
static int listed(const char *list, const char *launch)
{
    size_t n = strlen(launch);
    for (const char *p = list; *p;) {
        size_t k = strcspn(p, ";");
        if (k == n && !strncmp(p, launch, n)) return 1;
        p += k + (p[k] == ';');
    }
    return 0;
}

static int load(Launch **out, const char *only, double max_threads, int all)
{
    Csv split;
    if (csv_read(SPLIT_CSV, &split)) { fprintf(stderr, "validate: cannot read %s\n", SPLIT_CSV); return -1; }
    int sk = csv_col(&split, "kernel"), ss = csv_col(&split, "set"), sf = csv_col(&split, "family"),
        sl = csv_col(&split, "slow");
    Launch *l = NULL;
    int n = 0;
    for (size_t c = 0; c < sizeof measured / sizeof measured[0]; c++) {
        Csv m;
        if (csv_read(measured[c].csv, &m)) {
            fprintf(stderr, "validate: %s: not present, skipped\n", measured[c].csv);
            continue;
        }
        int ck = csv_col(&m, "kernel"), cl = csv_col(&m, "launch");
        for (int r = 0; r < m.nrows; r++) {
            const char *k = csv_get(&m, r, ck);
            if (only && strcmp(only, k)) continue;
            Launch *t = realloc(l, (size_t)(n + 1) * sizeof *l);
            if (!t) break;
            l = t;
            Launch *x = memset(&l[n++], 0, sizeof *l);
            snprintf(x->kernel, sizeof x->kernel, "%s", k);
            snprintf(x->launch, sizeof x->launch, "%s", csv_get(&m, r, cl));
            snprintf(x->path, sizeof x->path, "%s%s.s", measured[c].kernel_dir, k);
            x->threads = threads_of(csv_get(&m, r, csv_col(&m, "grid"))) * threads_of(csv_get(&m, r, csv_col(&m, "block")));
            if (max_threads && x->threads > max_threads)
                snprintf(x->why, sizeof x->why, "slow to simulate (%.0f threads): make validate-all runs it", x->threads);
            for (int i = 0; i < NMETRICS; i++) {
                int col = csv_col(&m, metric_names[i]);
                const char *v = csv_get(&m, r, col);
                x->has_hw[i] = col >= 0 && *v;
                x->hw[i] = x->has_hw[i] ? atof(v) : 0;
            }
            int found = 0;
            for (int s = 0; s < split.nrows; s++)
                if (!strcmp(csv_get(&split, s, sk), k)) {
                    x->validation = !strcmp(csv_get(&split, s, ss), "validation");
                    snprintf(x->family, sizeof x->family, "%s", csv_get(&split, s, sf));
                    found = 1;
                    if (!all && !x->why[0] && listed(csv_get(&split, s, sl), x->launch))
                        snprintf(x->why, sizeof x->why, "slow to simulate: make validate-all runs it");
                }
            if (!found) snprintf(x->why, sizeof x->why, "not in %s", SPLIT_CSV);
            FILE *kf = fopen(x->path, "r");
            if (kf) fclose(kf);
            else if (!x->why[0]) snprintf(x->why, sizeof x->why, "%s is missing", x->path);
        }
        csv_free(&m);
    }
    csv_free(&split);
    *out = l;
    return n;
}

int main(int argc, char **argv)
{
    int threads = 2, write = 1;
    double max_threads = 0;
    int all = 0;
    const char *only = NULL;
    const char *sets[32];
    int nsets = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--threads") && i + 1 < argc) threads = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--only") && i + 1 < argc) only = argv[++i];
        else if (!strcmp(argv[i], "--no-write")) write = 0;
        else if (!strcmp(argv[i], "--all")) all = 1;
        else if (!strcmp(argv[i], "--max-threads") && i + 1 < argc) max_threads = atof(argv[++i]);
        else if (!strcmp(argv[i], "--set") && i + 1 < argc && nsets < 32) { sets[nsets++] = argv[++i]; write = 0; }
        else {
            fprintf(stderr, "usage: validate [--threads N] [--only KERNEL] [--max-threads T] [--all] [--set KEY=VALUE]... [--no-write]\n");
            return 2;
        }
    }
    if (!all && max_threads == 0) max_threads = DEFAULT_MAX_THREADS;
    if (threads < 1) threads = 1;
    if (threads > 16) threads = 16;
    Work w = { 0 };
    DiagList dl = { 0 };
    config_defaults(&w.cfg);
    int bad = config_load_file(&w.cfg, CONFIG, &dl) != 0;
    for (int i = 0; i < nsets && !bad; i++) bad = config_set(&w.cfg, sets[i], &dl) != 0;
    if (!bad) bad = config_validate(&w.cfg, &dl) != 0;
    if (bad) { diag_print(&dl, stderr); diag_free(&dl); return 2; }
    diag_free(&dl);
    w.n = load(&w.l, only, max_threads, all);
    if (w.n < 0) return 2;
    fprintf(stderr, "validate: %d launches on %s, %d threads\n", w.n, CONFIG, threads);
    pthread_mutex_init(&w.mu, NULL);
    pthread_t th[16];
    for (int i = 0; i < threads; i++) pthread_create(&th[i], NULL, worker, &w);
    for (int i = 0; i < threads; i++) pthread_join(th[i], NULL);
    pthread_mutex_destroy(&w.mu);

    int notrun = 0;
    for (int i = 0; i < w.n; i++) notrun += !w.l[i].ran;
    for (int set = 0; set < 2; set++) {
        Fit a = fit(w.l, w.n, M_ACTIVE, set, NULL), e = fit(w.l, w.n, M_ELAPSED, set, NULL);
        printf("%-10s %3d launches: SM-active MAPE %6.1f%% r %.3f | elapsed MAPE %6.1f%% r %.3f\n",
               set ? "validation" : "training", a.n, a.mape, a.corr, e.mape, e.corr);
    }
    if (notrun) printf("%d launches did not run (see %s)\n", notrun, DOC);
    int rc = 0;
    if (write) {
        svg_scatter(w.l, w.n, M_ACTIVE, OUT_DIR "cycles_sm_active.svg", "SM-active cycles (sm__cycles_active.avg)");
        svg_scatter(w.l, w.n, M_ELAPSED, OUT_DIR "cycles_elapsed.svg", "Elapsed cycles (gpc__cycles_elapsed.max)");
        if (write_csv(w.l, w.n) || write_doc(w.l, w.n)) { fprintf(stderr, "validate: write error\n"); rc = 1; }
        else printf("wrote %s, %scorrelation.csv, %scycles_sm_active.svg, %scycles_elapsed.svg\n", DOC, OUT_DIR, OUT_DIR,
                    OUT_DIR);
    }
    free(w.l);
    return rc;
}
