/* trace.c - see trace.h and docs/trace.md.
 *
 * Recording.  Events arrive in the simulator's own fixed order: a state
 * interval when it closes, an issue when it happens.  Each is kept if it
 * overlaps the window (TraceOptions).  Every warp (launch, block, warp in
 * block) gets a row the first time it is seen.  A memory instruction's
 * access (space, width, lanes and per-lane addresses) is kept once per
 * distinct access: issues refer to it by index.
 *
 * The default window.  Without --trace-cycles the window starts at cycle 0
 * and ends when the trace holds about TRACE_BUDGET bytes of output (the
 * HTML encoding's estimate), at the cycle that happens: a trace of a long
 * run stays small (tiled_mm 256 on fermi.ini: cycles 0 to 34,931 of
 * 638,166, all 15 SMs, 11.6 MB).  The page and stderr say so; the JSON gets
 * the same events.
 *
 * Writing.  Rows are sorted by SM, launch, block and warp; within a row
 * states and issues are in cycle order (they arrive so).  Intervals are
 * clipped to the window.  The HTML file embeds the events as compact JSON
 * arrays in a <script type="application/json"> block between the page's
 * head and tail (trace_viewer_head/tail): CSS, markup and the viewer
 * script that draws the timeline, the lane activity and the instruction
 * details.  The page lives as web files in sim/front/viewer/, embedded at
 * build time; this file writes only the data.  Output is a pure function of
 * the run: no clock, no pointers, no hash order.
 */
#include "sim/front/trace.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "isa/backend.h"
#include "isa/disasm.h"
#include "sim/mem/coalesce.h"
#include "sim/mem/smem.h"

/* Estimated output bytes of the default window (see above). */
#define TRACE_BUDGET (12u * 1000u * 1000u)
enum { EST_STATE = 10, EST_ISSUE = 14, EST_MEM = 24, EST_MEM_LANE = 5, EST_ROW = 40 };

typedef struct TraceState {
    uint32_t row, line;
    uint8_t state;
    uint64_t from, to;
} TraceState;

typedef struct TraceIssue {
    uint32_t row, pc;
    uint64_t cycle;
    LaneMask active, exec;
    uint32_t mem;                 /* 1 + index into Trace.mem, 0: none */
} TraceIssue;

typedef struct TraceRow {
    TraceWarp w;
    uint32_t order;               /* position after sorting */
} TraceRow;

/* One distinct memory access: inactive lanes' addresses are zeroed so equal
 * accesses compare equal byte for byte. */
typedef struct TraceMem {
    uint8_t space, bytes, flags;  /* flags: 1 store, 2 atomic */
    LaneMask mask;
    uint64_t addr[WARP_MAX];
} TraceMem;

/* The whole GPU's running totals at a cycle (observe.h, sample). */
typedef struct TraceSample {
    uint64_t cycle, inst, l1_hits, l1_misses, l2_hits, l2_misses, dram_bytes;
} TraceSample;

/* Samples every this many cycles: fine enough to see DRAM saturate, a few
 * tens of KB for a long window. */
enum { TRACE_SAMPLE_CYCLES = 32 };
/* Per SM and per memory partition, snapshots of the running totals every
 * `uevery` cycles (from TRACE_SAMPLE_CYCLES): when TRACE_UNIT_SNAPS are
 * held, every other one goes (the odd ones stay, so the latest does) and the
 * period doubles.  The deltas between those kept still add up exactly, and
 * the page gets at most TRACE_UNIT_SNAPS bins per unit whatever the run's
 * length (tiled_mm on Fermi: 15 SMs, 6 partitions, about 200 KB). */
enum { TRACE_UNIT_SNAPS = 512 };
/* A snapshot: cycle, then per SM U_SM values, then per partition U_PART. */
enum { U_SM = 4, U_PART = 5 };   /* [inst, L1 hits, misses, in flight], [L2 hits, misses, sectors, DRAM bytes, queue] */

struct Trace {
    char *path;
    int html;
    TraceOptions opt;
    int *warps;
    int auto_end;                 /* no --trace-cycles: the budget ends the window */
    int cut;                      /* the budget ended the window at opt.to */
    uint64_t est;                 /* estimated output bytes so far */
    uint64_t last;                /* the latest cycle the run reported */
    const Program *prog;
    const Config *cfg;
    TraceState *st; size_t nst, capst;
    TraceIssue *is; size_t nis, capis;
    TraceRow *rows; size_t nrows, caprows;
    uint32_t *rowhash; size_t rowhcap;   /* open addressing: row index + 1 */
    TraceMem *mem; size_t nmem, capmem;
    uint32_t *memhash; size_t memhcap;
    TraceSample *smp; size_t nsmp, capsmp;
    int has_memsys;               /* samples carry cache and DRAM counters */
    uint64_t *unit; size_t nunit; /* per-unit snapshots, ustride values each */
    int usms, uparts, ustride;
    uint64_t uevery, unext;
    int oom;
};

static void *grow(void *p, size_t *cap, size_t n, size_t size, int *oom)
{
    if (n < *cap) return p;
    size_t c = *cap ? *cap * 2 : 1024;
    void *q = realloc(p, c * size);
    if (!q) { *oom = 1; return NULL; }
    *cap = c;
    return q;
}

Trace *trace_create(const char *path, const TraceOptions *o, const Program *p, const Config *c, char *err, size_t errn)
{
    size_t len = strlen(path);
    int html = len > 5 && !strcmp(path + len - 5, ".html");
    int json = len > 5 && !strcmp(path + len - 5, ".json");
    if (!html && !json) {
        snprintf(err, errn, "--trace %s: the file name must end in .html or .json", path);
        return NULL;
    }
    FILE *f = fopen(path, "w");
    if (!f) {
        snprintf(err, errn, "--trace %s: %s", path, strerror(errno));
        return NULL;
    }
    fclose(f);
    Trace *t = calloc(1, sizeof *t);
    if (!t || !(t->path = malloc(len + 1))) {
        free(t);
        snprintf(err, errn, "--trace %s: out of memory", path);
        return NULL;
    }
    memcpy(t->path, path, len + 1);
    t->html = html;
    t->opt = *o;
    t->opt.warps = NULL;
    t->opt.nwarps = 0;
    if (o->nwarps > 0 && o->warps) {
        t->warps = malloc((size_t)o->nwarps * sizeof *t->warps);
        if (t->warps) {
            memcpy(t->warps, o->warps, (size_t)o->nwarps * sizeof *t->warps);
            t->opt.warps = t->warps;
            t->opt.nwarps = o->nwarps;
        }
    }
    t->auto_end = o->to == 0;
    t->prog = p;
    t->cfg = c;
    return t;
}

static int wanted(const Trace *t, const TraceWarp *w, uint64_t from, uint64_t to)
{
    if (t->oom) return 0;
    if (t->opt.sm >= 0 && w->sm != t->opt.sm) return 0;
    if (to <= t->opt.from || (t->opt.to && from >= t->opt.to)) return 0;
    if (t->opt.nwarps > 0) {
        int found = 0;
        for (int i = 0; i < t->opt.nwarps; i++) found |= t->opt.warps[i] == w->warp;
        if (!found) return 0;
    }
    return 1;
}

/* The budget: the first event that takes the estimate over it ends the
 * window at the cycle the run has reached. */
static void spend(Trace *t, uint64_t bytes, uint64_t now)
{
    t->est += bytes;
    if (t->auto_end && !t->cut && t->est > TRACE_BUDGET) {
        t->cut = 1;
        t->opt.to = now > t->opt.from ? now : t->opt.from + 1;
    }
}

static uint64_t mix64(uint64_t h, uint64_t v)
{
    h ^= v;
    h *= 0x100000001b3ull;
    h ^= h >> 29;
    return h;
}

static uint32_t row_of(Trace *t, const TraceWarp *w, uint64_t now)
{
    uint64_t h = mix64(mix64(mix64(0xcbf29ce484222325ull, (uint64_t)w->launch), w->cta), (uint64_t)w->warp);
    if (t->nrows * 2 >= t->rowhcap) {
        size_t nc = t->rowhcap ? t->rowhcap * 2 : 1024;
        uint32_t *nh = calloc(nc, sizeof *nh);
        if (!nh) { t->oom = 1; return 0; }
        for (size_t i = 0; i < t->nrows; i++) {
            const TraceWarp *x = &t->rows[i].w;
            uint64_t g = mix64(mix64(mix64(0xcbf29ce484222325ull, (uint64_t)x->launch), x->cta), (uint64_t)x->warp);
            size_t k = (size_t)(g & (nc - 1));
            while (nh[k]) k = (k + 1) & (nc - 1);
            nh[k] = (uint32_t)i + 1;
        }
        free(t->rowhash);
        t->rowhash = nh;
        t->rowhcap = nc;
    }
    size_t k = (size_t)(h & (t->rowhcap - 1));
    while (t->rowhash[k]) {
        const TraceWarp *x = &t->rows[t->rowhash[k] - 1].w;
        if (x->launch == w->launch && x->cta == w->cta && x->warp == w->warp) return t->rowhash[k] - 1;
        k = (k + 1) & (t->rowhcap - 1);
    }
    TraceRow *r = grow(t->rows, &t->caprows, t->nrows, sizeof *r, &t->oom);
    if (!r) return 0;
    t->rows = r;
    memset(&r[t->nrows], 0, sizeof r[0]);
    r[t->nrows].w = *w;
    t->rowhash[k] = (uint32_t)t->nrows + 1;
    spend(t, EST_ROW, now);
    return (uint32_t)t->nrows++;
}

void trace_state(Trace *t, const TraceWarp *w, StallReason r, uint64_t from, uint64_t to, uint32_t line)
{
    if (to > t->last) t->last = to;
    if (!wanted(t, w, from, to)) return;
    uint32_t row = row_of(t, w, to);
    TraceState *s = grow(t->st, &t->capst, t->nst, sizeof *s, &t->oom);
    if (!s) return;
    t->st = s;
    s[t->nst++] = (TraceState){ row, line, (uint8_t)r, from, to };
    spend(t, EST_STATE, to);
}

static uint32_t mem_of(Trace *t, const MemAccess *a, uint64_t now)
{
    TraceMem m;
    memset(&m, 0, sizeof m);
    m.space = a->space;
    m.bytes = a->bytes;
    m.flags = (uint8_t)((a->is_store ? 1 : 0) | (a->is_atomic ? 2 : 0));
    m.mask = a->mask;
    for (int l = 0; l < WARP_MAX; l++)
        if ((a->mask >> l) & 1u) m.addr[l] = a->addr[l];
    uint64_t h = mix64(mix64(0xcbf29ce484222325ull, (uint64_t)m.space << 16 | (uint64_t)m.bytes << 8 | m.flags), m.mask);
    for (int l = 0; l < WARP_MAX; l++) h = mix64(h, m.addr[l]);
    if (t->nmem * 2 >= t->memhcap) {
        size_t nc = t->memhcap ? t->memhcap * 2 : 1024;
        uint32_t *nh = calloc(nc, sizeof *nh);
        if (!nh) { t->oom = 1; return 0; }
        for (size_t i = 0; i < t->nmem; i++) {
            const TraceMem *x = &t->mem[i];
            uint64_t g = mix64(mix64(0xcbf29ce484222325ull, (uint64_t)x->space << 16 | (uint64_t)x->bytes << 8 | x->flags), x->mask);
            for (int l = 0; l < WARP_MAX; l++) g = mix64(g, x->addr[l]);
            size_t k = (size_t)(g & (nc - 1));
            while (nh[k]) k = (k + 1) & (nc - 1);
            nh[k] = (uint32_t)i + 1;
        }
        free(t->memhash);
        t->memhash = nh;
        t->memhcap = nc;
    }
    size_t k = (size_t)(h & (t->memhcap - 1));
    while (t->memhash[k]) {
        if (!memcmp(&t->mem[t->memhash[k] - 1], &m, sizeof m)) return t->memhash[k];
        k = (k + 1) & (t->memhcap - 1);
    }
    TraceMem *p = grow(t->mem, &t->capmem, t->nmem, sizeof *p, &t->oom);
    if (!p) return 0;
    t->mem = p;
    p[t->nmem] = m;
    t->memhash[k] = (uint32_t)t->nmem + 1;
    spend(t, EST_MEM + EST_MEM_LANE * (uint64_t)__builtin_popcount(m.mask), now);
    return (uint32_t)++t->nmem;
}

void trace_issue(Trace *t, const TraceWarp *w, uint64_t cycle, uint32_t pc, LaneMask active, LaneMask exec,
                 const MemAccess *mem)
{
    if (cycle + 1 > t->last) t->last = cycle + 1;
    if (!wanted(t, w, cycle, cycle + 1)) return;
    uint32_t row = row_of(t, w, cycle);
    uint32_t m = mem ? mem_of(t, mem, cycle) : 0;
    TraceIssue *s = grow(t->is, &t->capis, t->nis, sizeof *s, &t->oom);
    if (!s) return;
    t->is = s;
    s[t->nis++] = (TraceIssue){ row, pc, cycle, active, exec, m };
    spend(t, EST_ISSUE, cycle);
}

/* ---- common to both writers -------------------------------------------------------- */

typedef struct RowKey { TraceWarp w; uint32_t idx; } RowKey;

static int row_cmp(const void *a, const void *b)
{
    const TraceWarp *x = &((const RowKey *)a)->w, *y = &((const RowKey *)b)->w;
    if (x->sm != y->sm) return x->sm < y->sm ? -1 : 1;
    if (x->launch != y->launch) return x->launch < y->launch ? -1 : 1;
    if (x->cta != y->cta) return x->cta < y->cta ? -1 : 1;
    if (x->warp != y->warp) return x->warp < y->warp ? -1 : 1;
    return 0;
}

/* Rows in output order, and each row's states and issues (indices into
 * t->st and t->is, in arrival order, which is cycle order per row). */
typedef struct Layout {
    uint32_t *order;             /* order[k]: the k-th row to write */
    size_t *st_first, *is_first; /* per row (arrival index), nrows + 1 entries */
    uint32_t *st_idx, *is_idx;
} Layout;

static int layout(Trace *t, Layout *L)
{
    size_t nr = t->nrows;
    L->order = malloc((nr + 1) * sizeof *L->order);
    L->st_first = calloc(nr + 2, sizeof *L->st_first);
    L->is_first = calloc(nr + 2, sizeof *L->is_first);
    L->st_idx = malloc((t->nst + 1) * sizeof *L->st_idx);
    L->is_idx = malloc((t->nis + 1) * sizeof *L->is_idx);
    if (!L->order || !L->st_first || !L->is_first || !L->st_idx || !L->is_idx) return -1;
    RowKey *keys = malloc((nr + 1) * sizeof *keys);
    if (!keys) return -1;
    for (size_t i = 0; i < nr; i++) keys[i] = (RowKey){ t->rows[i].w, (uint32_t)i };
    qsort(keys, nr, sizeof *keys, row_cmp);
    for (size_t k = 0; k < nr; k++) L->order[k] = keys[k].idx;
    free(keys);
    for (size_t k = 0; k < nr; k++) t->rows[L->order[k]].order = (uint32_t)k;
    /* counting sort by row, stable */
    for (size_t i = 0; i < t->nst; i++) L->st_first[t->st[i].row + 1]++;
    for (size_t i = 0; i < t->nis; i++) L->is_first[t->is[i].row + 1]++;
    for (size_t r = 0; r < nr; r++) {
        L->st_first[r + 1] += L->st_first[r];
        L->is_first[r + 1] += L->is_first[r];
    }
    size_t *fill = calloc(nr + 1, sizeof *fill);
    if (!fill) return -1;
    for (size_t i = 0; i < t->nst; i++) {
        uint32_t r = t->st[i].row;
        L->st_idx[L->st_first[r] + fill[r]++] = (uint32_t)i;
    }
    memset(fill, 0, (nr + 1) * sizeof *fill);
    for (size_t i = 0; i < t->nis; i++) {
        uint32_t r = t->is[i].row;
        L->is_idx[L->is_first[r] + fill[r]++] = (uint32_t)i;
    }
    free(fill);
    return 0;
}

static void layout_free(Layout *L)
{
    free(L->order);
    free(L->st_first);
    free(L->is_first);
    free(L->st_idx);
    free(L->is_idx);
}

/* An interval clipped to the window; 0 if nothing is left. */
static int clip(const Trace *t, uint64_t *from, uint64_t *to)
{
    if (*from < t->opt.from) *from = t->opt.from;
    if (t->opt.to && *to > t->opt.to) *to = t->opt.to;
    return *to > *from;
}

static int issue_in(const Trace *t, uint64_t c)
{
    return c >= t->opt.from && (!t->opt.to || c < t->opt.to);
}

/* The end of the window as shown: the run's end if the window reaches past it. */
static uint64_t window_end(const Trace *t)
{
    uint64_t to = t->opt.to && t->opt.to < t->last ? t->opt.to : t->last;
    return to < t->opt.from ? t->opt.from : to;
}

static const Entry *entry_of(const Trace *t, int launch)
{
    if (launch < 0 || launch >= t->prog->nlaunches) return NULL;
    /* the code the warps issue: pcs are machine pcs in core.schedule=machine */
    return backend_entry(&t->prog->entries[t->prog->launches[launch].entry], t->cfg->core.schedule == CORE_SCHEDULE_MACHINE);
}

/* A JSON string; '/' and '<' escaped so that no "</script" and no URL can
 * appear in the page. */
static void jstr(FILE *f, const char *s, int n)
{
    fputc('"', f);
    for (int i = 0; n < 0 ? s[i] != '\0' : i < n; i++) {
        unsigned char ch = (unsigned char)s[i];
        if (ch == '"' || ch == '\\' || ch == '/') fprintf(f, "\\%c", ch);
        else if (ch == '<') fputs("\\u003c", f);
        else if (ch == '\n') fputs("\\n", f);
        else if (ch == '\t') fputs("\\t", f);
        else if (ch < 0x20 || ch == 0x7f) fprintf(f, "\\u%04x", ch);
        else fputc(ch, f);
    }
    fputc('"', f);
}

static void instr_text(const Trace *t, const Entry *e, uint32_t pc, char *buf, size_t n)
{
    if (!e || pc >= (uint32_t)e->ncode) { snprintf(buf, n, "pc %u", pc); return; }
    disasm_instr(t->prog, e, &e->code[pc], buf, n);
}

static uint32_t line_at(const Entry *e, uint32_t pc)
{
    return e && pc < (uint32_t)e->ncode ? e->code[pc].line : 0;
}

/* ---- Trace Event Format ------------------------------------------------------------
 * One process per SM, one thread per warp (tid = launch << 44 | block << 12
 * | warp), named by metadata events; a complete event ("X") per state
 * interval and an instant event ("i") per issued instruction, named by the
 * instruction, with the cycle as the microsecond timestamp.  Per thread the
 * events are in timestamp order. */
static uint64_t tid_of(const TraceWarp *w)
{
    return ((uint64_t)w->launch << 44) + w->cta * 4096u + (uint64_t)w->warp;
}

static void write_json(Trace *t, const Layout *L, FILE *f)
{
    fputs("{\"displayTimeUnit\": \"ns\", \"otherData\": {\"generator\": \"gpusim\", \"time_unit\": \"cycle\"",
          f);
    fprintf(f, ", \"window_from\": %" PRIu64 ", \"window_to\": %" PRIu64 ", \"window_cut\": %d",
            t->opt.from, window_end(t), t->cut);
    fputs("},\n\"traceEvents\": [", f);
    int first = 1;
    int last_sm = -1;
    char text[256];
    for (size_t k = 0; k < t->nrows; k++) {
        uint32_t r = L->order[k];
        const TraceWarp *w = &t->rows[r].w;
        uint64_t tid = tid_of(w);
        if (w->sm != last_sm) {
            fprintf(f, "%s\n{\"name\": \"process_name\", \"ph\": \"M\", \"ts\": 0, \"pid\": %d, \"tid\": 0, "
                       "\"args\": {\"name\": \"SM %d\"}}", first ? "" : ",", w->sm, w->sm);
            fprintf(f, ",\n{\"name\": \"process_sort_index\", \"ph\": \"M\", \"ts\": 0, \"pid\": %d, \"tid\": 0, "
                       "\"args\": {\"sort_index\": %d}}", w->sm, w->sm);
            first = 0;
            last_sm = w->sm;
        }
        fprintf(f, ",\n{\"name\": \"thread_name\", \"ph\": \"M\", \"ts\": 0, \"pid\": %d, \"tid\": %" PRIu64
                   ", \"args\": {\"name\": \"launch %d block %" PRIu64 " (%u,%u,%u) warp %d\"}}",
                w->sm, tid, w->launch + 1, w->cta, w->ctaid[0], w->ctaid[1], w->ctaid[2], w->warp);
        fprintf(f, ",\n{\"name\": \"thread_sort_index\", \"ph\": \"M\", \"ts\": 0, \"pid\": %d, \"tid\": %" PRIu64
                   ", \"args\": {\"sort_index\": %u}}", w->sm, tid, (unsigned)k);
        const Entry *e = entry_of(t, w->launch);
        /* merge states and issues by cycle; a state before an issue at the same cycle */
        size_t a = L->st_first[r], ae = L->st_first[r + 1], b = L->is_first[r], be = L->is_first[r + 1];
        while (a < ae || b < be) {
            const TraceState *s = a < ae ? &t->st[L->st_idx[a]] : NULL;
            const TraceIssue *x = b < be ? &t->is[L->is_idx[b]] : NULL;
            uint64_t sf = s ? (s->from < t->opt.from ? t->opt.from : s->from) : 0;
            if (s && (!x || sf <= x->cycle)) {
                uint64_t from = s->from, to = s->to;
                a++;
                if (!clip(t, &from, &to)) continue;
                fprintf(f, ",\n{\"name\": \"%s\", \"cat\": \"state\", \"ph\": \"X\", \"ts\": %" PRIu64
                           ", \"dur\": %" PRIu64 ", \"pid\": %d, \"tid\": %" PRIu64 ", \"args\": {\"line\": %u}}",
                        stall_names[s->state], from, to - from, w->sm, tid, s->line);
            } else {
                b++;
                if (!issue_in(t, x->cycle)) continue;
                instr_text(t, e, x->pc, text, sizeof text);
                fputs(",\n{\"name\": ", f);
                jstr(f, text, -1);
                fprintf(f, ", \"cat\": \"issue\", \"ph\": \"i\", \"s\": \"t\", \"ts\": %" PRIu64 ", \"pid\": %d, \"tid\": %"
                           PRIu64 ", \"args\": {\"pc\": %u, \"line\": %u, \"active\": \"0x%08x\", \"exec\": \"0x%08x\"}}",
                        x->cycle, w->sm, tid, x->pc, line_at(e, x->pc), (unsigned)x->active, (unsigned)x->exec);
            }
        }
    }
    fputs("\n]}\n", f);
}

/* ---- HTML ---------------------------------------------------------------------------- */

/* The page around the data, one string per line, NULL-terminated: made at
 * build time from the web files in sim/front/viewer/ (viewer.html, .css,
 * .js) by sim/front/viewer/embed.c into $(BUILD)/gen/viewer_data.c. */
extern const char *const trace_viewer_head[], *const trace_viewer_tail[];

/* Addresses of the active lanes: [0, base, stride] when lane l's address is
 * base + l * stride, else [1, first, delta to the previous active lane ...]. */
static void write_addrs(FILE *f, const TraceMem *m)
{
    int lanes[WARP_MAX], n = 0;
    for (int l = 0; l < WARP_MAX; l++)
        if ((m->mask >> l) & 1u) lanes[n++] = l;
    if (!n) { fputs("[0,0,0]", f); return; }
    int64_t stride = 0;
    int uniform = 1;
    if (n > 1) {
        int64_t d = (int64_t)(m->addr[lanes[1]] - m->addr[lanes[0]]);
        if (d % (lanes[1] - lanes[0])) uniform = 0;
        stride = d / (lanes[1] - lanes[0]);
        for (int i = 1; i < n && uniform; i++)
            if ((int64_t)(m->addr[lanes[i]] - m->addr[lanes[0]]) != stride * (lanes[i] - lanes[0])) uniform = 0;
    }
    if (uniform) {
        fprintf(f, "[0,%" PRIu64 ",%" PRId64 "]", m->addr[lanes[0]] - (uint64_t)(stride * lanes[0]), stride);
        return;
    }
    fprintf(f, "[1,%" PRIu64, m->addr[lanes[0]]);
    for (int i = 1; i < n; i++) fprintf(f, ",%" PRId64, (int64_t)(m->addr[lanes[i]] - m->addr[lanes[i - 1]]));
    fputc(']', f);
}

/* One distinct access: [space, bytes, flags, mask, addrs, detail].
 * detail: global/local [requests, sectors, lines, bytes requested, bytes
 * unique, bytes moved] from the coalescer (local: interleaved addresses, as
 * lsu.c and memsys.c place them); shared [wavefronts, ideal, conflicts,
 * max ways, lanes per group, groups, per-lane wavefront (only if more than
 * one)] from the bank model; others []. */
static void write_mem(const Trace *t, FILE *f, const TraceMem *m)
{
    const Config *c = t->cfg;
    MemAccess a;
    memset(&a, 0, sizeof a);
    a.space = m->space;
    a.bytes = m->bytes;
    a.is_store = m->flags & 1;
    a.is_atomic = (m->flags >> 1) & 1;
    a.mask = m->mask;
    memcpy(a.addr, m->addr, sizeof a.addr);
    int ws = c->sm.warp_size;
    if (m->space == SP_LOCAL)
        for (int l = 0; l < WARP_MAX; l++)
            if ((a.mask >> l) & 1u) a.addr[l] = (m->addr[l] / 4) * (uint64_t)ws * 4 + (uint64_t)l * 4 + m->addr[l] % 4;
    TraceMem shown = *m;
    memcpy(shown.addr, a.addr, sizeof a.addr);
    fprintf(f, "[%u,%u,%u,%d,", m->space, m->bytes, m->flags, (int32_t)m->mask);
    write_addrs(f, &shown);
    if (m->space == SP_GLOBAL || m->space == SP_LOCAL) {
        Coalesced co;
        coalesce(&a, c->l1.line_bytes, c->l1.sector_bytes, ws, &co);
        fprintf(f, ",[%d,%d,%d,%u,%u,%u]]", co.requests, co.nsectors, co.nlines, co.bytes_requested,
                co.bytes_unique, co.bytes_moved);
    } else if (m->space == SP_SHARED) {
        SmemDetail d;
        int wf = smem_wavefronts(&a, c->smem.banks, c->smem.bank_bytes, ws, &d);
        if (wf < 0) { fputs(",[]]", f); return; }
        fprintf(f, ",[%d,%d,%d,%d,%d,%d", wf, d.ideal_wavefronts, d.conflicts, d.max_ways, d.group_lanes, d.groups);
        if (wf > 1) {
            fputs(",[", f);
            for (int l = 0; l < ws && l < WARP_MAX; l++) fprintf(f, "%s%d", l ? "," : "", d.lane_wavefront[l]);
            fputc(']', f);
        }
        fputs("]]", f);
    } else {
        fputs(",[]]", f);
    }
}

/* X: the memory system over time, for the whole GPU: "every" (the sample
 * period), "clock" (MHz), "mem" (0: no cache/DRAM counters), "from" (the
 * cycle the first delta starts at) and "d", per sample in the window,
 * [cycles, warp instructions, L1 sector hits, misses, L2 sector hits,
 * misses, DRAM bytes] since the previous sample. */
static void write_samples(const Trace *t, FILE *f)
{
    uint64_t to = window_end(t);
    size_t first = 0;
    while (first < t->nsmp && t->smp[first].cycle <= t->opt.from) first++;
    const TraceSample *prev = first ? &t->smp[first - 1] : NULL;
    fprintf(f, ",\n\"X\":{\"every\":%d,\"clock\":%g,\"mem\":%d,\"from\":%" PRIu64 ",\"d\":[", TRACE_SAMPLE_CYCLES,
            t->cfg->gpu.core_clock_mhz, t->has_memsys, prev ? prev->cycle : t->opt.from);
    int n = 0;
    for (size_t i = first; i < t->nsmp && (i == first || t->smp[i - 1].cycle < to); i++) {
        const TraceSample *x = &t->smp[i];
        TraceSample z = { prev ? prev->cycle : t->opt.from, 0, 0, 0, 0, 0, 0 };
        const TraceSample *p = prev ? prev : &z;
        if (x->cycle <= p->cycle) { prev = x; continue; }
        fprintf(f, "%s%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64, n++ ? "," : "",
                x->cycle - p->cycle, x->inst - p->inst, x->l1_hits - p->l1_hits, x->l1_misses - p->l1_misses,
                x->l2_hits - p->l2_hits, x->l2_misses - p->l2_misses, x->dram_bytes - p->dram_bytes);
        prev = x;
    }
    fputs("]}", f);
}

/* U: per SM and per memory partition over time (unit_snapshot): "every"
 * (the bin period the snapshots ended with), "sms", "parts", "sector"
 * (bytes), "from" and "d", per bin in the window: [cycles, then per SM
 * [warp instructions, L1 sector hits, misses (deltas), accesses in flight
 * at the bin's end], then per partition [L2 sector hits, misses, sectors,
 * DRAM bytes (deltas), DRAM queue entries at the bin's end]]. */
static void write_units(const Trace *t, FILE *f)
{
    uint64_t to = window_end(t);
    size_t w = (size_t)t->ustride, first = 0;
    while (first < t->nunit && t->unit[first * w] <= t->opt.from) first++;
    const uint64_t *prev = first ? t->unit + (first - 1) * w : NULL;
    fprintf(f, ",\n\"U\":{\"every\":%" PRIu64 ",\"sms\":%d,\"parts\":%d,\"sector\":%d,\"from\":%" PRIu64 ",\"d\":[",
            t->uevery, t->usms, t->uparts, t->cfg->l2.sector_bytes, prev ? prev[0] : t->opt.from);
    int n = 0;
    for (size_t i = first; i < t->nunit && (i == first || t->unit[(i - 1) * w] < to); i++) {
        const uint64_t *x = t->unit + i * w;
        uint64_t base = prev ? prev[0] : t->opt.from;
        if (x[0] <= base) { prev = x; continue; }
        fprintf(f, "%s%" PRIu64, n++ ? ",\n" : "\n", x[0] - base);
        for (size_t k = 1; k < w; k++) {
            size_t pos = k - 1, sm_part = (size_t)U_SM * (size_t)t->usms;
            int level = pos < sm_part ? pos % U_SM == 3 : (pos - sm_part) % U_PART == 4;   /* a count now, not a total */
            fprintf(f, ",%" PRIu64, level ? x[k] : x[k] - (prev ? prev[k] : 0));
        }
        prev = x;
    }
    fputs("]}", f);
}

static void write_data(Trace *t, const Layout *L, FILE *f)
{
    const Program *p = t->prog;
    const Config *c = t->cfg;
    fputs("{\"v\":1,\"kernel\":", f);
    jstr(f, p->filename ? p->filename : "", -1);
    fputs(",\"gpu\":", f);
    jstr(f, c->gpu.name, -1);
    fprintf(f, ",\"ws\":%d,\"sms\":%d,\"sector\":%d,\"line\":%d,\"banks\":%d,\"bankBytes\":%d",
            c->sm.warp_size, c->gpu.num_sms, c->l1.sector_bytes, c->l1.line_bytes, c->smem.banks, c->smem.bank_bytes);
    uint64_t to = window_end(t);
    fprintf(f, ",\"win\":[%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%d,%d,%u],\"smSel\":%d,\"warpSel\":[",
            t->opt.from, to, t->last, t->auto_end, t->cut, TRACE_BUDGET, t->opt.sm);
    for (int i = 0; i < t->opt.nwarps; i++) fprintf(f, "%s%d", i ? "," : "", t->opt.warps[i]);
    fputs("],\"states\":[", f);
    for (int s = 0; s < STALL_COUNT; s++) fprintf(f, "%s\"%s\"", s ? "," : "", stall_names[s]);
    /* launches: [entry, block x, y, z, grid x, y, z] */
    fputs("],\"launches\":[", f);
    for (int i = 0; i < p->nlaunches; i++) {
        const LaunchSpec *l = &p->launches[i];
        fprintf(f, "%s[%d,%u,%u,%u,%u,%u,%u]", i ? "," : "", l->entry, l->block[0], l->block[1], l->block[2],
                l->grid[0], l->grid[1], l->grid[2]);
    }
    /* entries that are launched: name and code as [line, text] per pc */
    fputs("],\"entries\":[", f);
    char text[256];
    uint8_t *used_line = calloc((size_t)p->nlines + 2, 1);
    for (int i = 0; i < p->nentries; i++) {
        const Entry *e = backend_entry(&p->entries[i], t->cfg->core.schedule == CORE_SCHEDULE_MACHINE);
        int launched = 0;
        for (int k = 0; k < p->nlaunches; k++) launched |= p->launches[k].entry == i;
        fputs(i ? ",{\"name\":" : "{\"name\":", f);
        jstr(f, e->name, -1);
        fputs(",\"code\":[", f);
        for (int pc = 0; launched && pc < e->ncode; pc++) {
            disasm_instr(p, e, &e->code[pc], text, sizeof text);
            fprintf(f, "%s[%u,", pc ? "," : "", e->code[pc].line);
            jstr(f, text, -1);
            fputc(']', f);
            if (used_line && e->code[pc].line <= (uint32_t)p->nlines) used_line[e->code[pc].line] = 1;
        }
        fputs("]}", f);
    }
    fputs("],\"source\":[", f);
    int firstl = 1;
    for (int ln = 1; used_line && ln <= p->nlines; ln++) {
        if (!used_line[ln]) continue;
        int len;
        const char *s = program_line(p, ln, &len);
        fprintf(f, "%s[%d,", firstl ? "" : ",", ln);
        char where[512], lab[96];
        int cl;
        if (p->nfiles > 1 || program_cuda_line(p, ln, &cl)) {   /* .include / .loc: say where it came from */
            snprintf(where, sizeof where, "%.*s   // %s", len > 300 ? 300 : len, s, program_line_label(p, ln, 1, lab, sizeof lab));
            s = where;
            len = (int)strlen(where);
        }
        jstr(f, s, len);
        fputc(']', f);
        firstl = 0;
    }
    free(used_line);
    /* rows: [launch, block, bx, by, bz, warp, sm, slot] */
    fputs("],\n\"rows\":[", f);
    for (size_t k = 0; k < t->nrows; k++) {
        const TraceWarp *w = &t->rows[L->order[k]].w;
        fprintf(f, "%s[%d,%" PRIu64 ",%u,%u,%u,%d,%d,%d]", k ? "," : "", w->launch, w->cta, w->ctaid[0], w->ctaid[1],
                w->ctaid[2], w->warp, w->sm, w->slot);
    }
    /* S: per row, [gap from the previous interval's end, length, state, line] ... */
    fputs("],\n\"S\":[", f);
    for (size_t k = 0; k < t->nrows; k++) {
        uint32_t r = L->order[k];
        uint64_t prev = 0;
        int n = 0;
        fputs(k ? ",\n[" : "\n[", f);
        for (size_t i = L->st_first[r]; i < L->st_first[r + 1]; i++) {
            const TraceState *s = &t->st[L->st_idx[i]];
            uint64_t from = s->from, to = s->to;
            if (!clip(t, &from, &to)) continue;
            fprintf(f, "%s%" PRIu64 ",%" PRIu64 ",%u,%u", n++ ? "," : "", from - prev, to - from, s->state, s->line);
            prev = to;
        }
        fputc(']', f);
    }
    /* I: per row, [cycle - previous issue's cycle, pc, active, active ^ exec, mem] ... */
    fputs("],\n\"I\":[", f);
    for (size_t k = 0; k < t->nrows; k++) {
        uint32_t r = L->order[k];
        uint64_t prev = 0;
        int n = 0;
        fputs(k ? ",\n[" : "\n[", f);
        for (size_t i = L->is_first[r]; i < L->is_first[r + 1]; i++) {
            const TraceIssue *x = &t->is[L->is_idx[i]];
            if (!issue_in(t, x->cycle)) continue;
            fprintf(f, "%s%" PRIu64 ",%u,%d,%d,%u", n++ ? "," : "", x->cycle - prev, x->pc, (int32_t)x->active,
                    (int32_t)(x->active ^ x->exec), x->mem);
            prev = x->cycle;
        }
        fputc(']', f);
    }
    /* M: distinct memory accesses */
    fputs("],\n\"M\":[", f);
    for (size_t i = 0; i < t->nmem; i++) {
        fputs(i ? ",\n" : "\n", f);
        write_mem(t, f, &t->mem[i]);
    }
    fputc(']', f);
    write_samples(t, f);
    if (t->unit) write_units(t, f);
    fputc('}', f);
}

static void write_html(Trace *t, const Layout *L, FILE *f)
{
    for (int i = 0; trace_viewer_head[i]; i++) fputs(trace_viewer_head[i], f);
    write_data(t, L, f);
    for (int i = 0; trace_viewer_tail[i]; i++) fputs(trace_viewer_tail[i], f);
}

static void observe_state(void *ctx, const TraceWarp *w, StallReason r, uint64_t from, uint64_t to, uint32_t line)
{
    trace_state(ctx, w, r, from, to, line);
}

static void observe_issue(void *ctx, const TraceWarp *w, uint64_t cycle, uint32_t pc, LaneMask active,
                          LaneMask exec, const MemAccess *mem)
{
    trace_issue(ctx, w, cycle, pc, active, exec, mem);
}

/* Per SM and per partition: a snapshot at the first sample of each uevery
 * period and at the end of each launch (TRACE_UNIT_SNAPS).  Costs nothing
 * without --trace: the memory system only counts. */
static void unit_snapshot(Trace *t, uint64_t cycle, const Stats *st, const MemSys *msys, int last)
{
    if (!t->unit) {
        t->usms = st->nsms;
        t->uparts = msys ? memsys_partitions(msys) : 0;
        t->ustride = 1 + U_SM * t->usms + U_PART * t->uparts;
        t->uevery = TRACE_SAMPLE_CYCLES;
        t->unit = calloc((size_t)TRACE_UNIT_SNAPS * (size_t)t->ustride, sizeof *t->unit);
        if (!t->unit) { t->oom = 1; return; }
    }
    if (!last && cycle < t->unext) return;
    t->unext = (cycle / t->uevery + 1) * t->uevery;
    if (t->nunit && t->unit[(t->nunit - 1) * (size_t)t->ustride] == cycle) t->nunit--;   /* the same cycle again */
    if (t->nunit == TRACE_UNIT_SNAPS) {
        size_t w = (size_t)t->ustride;
        for (size_t i = 1, k = 0; i < t->nunit; i += 2, k++) memmove(t->unit + k * w, t->unit + i * w, w * sizeof *t->unit);
        t->nunit /= 2;
        t->uevery *= 2;
        t->unext = (cycle / t->uevery + 1) * t->uevery;
    }
    uint64_t *u = t->unit + t->nunit++ * (size_t)t->ustride;
    *u++ = cycle;
    for (int i = 0; i < t->usms; i++) {
        MemSmCounters c = { 0, 0, 0 };
        if (msys) memsys_sm_counters(msys, i, &c);
        *u++ = i < st->nsms ? st->sm[i].inst : 0;
        *u++ = c.l1_sector_hits;
        *u++ = c.l1_sector_misses;
        *u++ = (uint64_t)c.in_flight;
    }
    for (int p = 0; p < t->uparts; p++) {
        MemPartCounters c;
        memsys_part_counters(msys, p, &c);
        *u++ = c.l2_sector_hits;
        *u++ = c.l2_sector_misses;
        *u++ = c.l2_sectors;
        *u++ = c.dram_bytes;
        *u++ = (uint64_t)c.dram_queue;
    }
}

static void observe_sample(void *ctx, uint64_t cycle, uint64_t inst, const MemStats *ms, const Stats *st,
                           const MemSys *msys, int last)
{
    Trace *t = ctx;
    if (t->oom || !t->html) return;   /* the JSON trace has no counters */
    TraceSample *g = grow(t->smp, &t->capsmp, t->nsmp, sizeof *t->smp, &t->oom);
    if (!g) return;
    t->smp = g;
    TraceSample x = { cycle, inst, 0, 0, 0, 0, 0 };
    if (ms) {
        t->has_memsys = 1;
        x = (TraceSample){ cycle, inst, ms->l1_sector_hits, ms->l1_sector_misses, ms->l2_sector_hits, ms->l2_sector_misses,
                           ms->dram_bytes_read + ms->dram_bytes_write };
    }
    t->smp[t->nsmp++] = x;
    if (st) unit_snapshot(t, cycle, st, msys, last);
}

Observer trace_observer(Trace *t)
{
    return (Observer){ t, observe_state, observe_issue, observe_sample, TRACE_SAMPLE_CYCLES };
}

int trace_close(Trace *t)
{
    if (!t) return 0;
    int rc = -1;
    Layout L;
    memset(&L, 0, sizeof L);
    if (!t->oom && layout(t, &L) == 0) {
        FILE *f = fopen(t->path, "w");
        if (f) {
            if (t->html) write_html(t, &L, f);
            else write_json(t, &L, f);
            rc = ferror(f) ? -1 : 0;
            if (fclose(f)) rc = -1;
        }
        if (t->cut)
            fprintf(stderr, "gpusim: note: --trace %s holds cycles %" PRIu64 " to %" PRIu64 " of %" PRIu64
                            " (the default window; choose one with --trace-cycles A:B)\n",
                    t->path, t->opt.from, t->opt.to, t->last);
        if (t->nrows == 0) {      /* say why the page is empty */
            char where[64] = "", when[96] = "";
            if (t->opt.sm >= 0) snprintf(where, sizeof where, " on SM %d", t->opt.sm);
            if (!t->auto_end || t->opt.from)
                snprintf(when, sizeof when, " in cycles %" PRIu64 " to %" PRIu64, t->opt.from, t->opt.to);
            fprintf(stderr, "gpusim: note: --trace %s holds no warp: none ran%s%s (the run took %" PRIu64 " cycles)\n",
                    t->path, where, when, t->last);
        }
    } else {
        fprintf(stderr, "gpusim: --trace %s: out of memory\n", t->path);
    }
    layout_free(&L);
    free(t->st);
    free(t->is);
    free(t->rows);
    free(t->rowhash);
    free(t->mem);
    free(t->memhash);
    free(t->smp);
    free(t->unit);
    free(t->warps);
    free(t->path);
    free(t);
    return rc;
}
