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
 * head and tail (trace_viewer_head/tail, at the end of this file): CSS,
 * markup and the viewer script that draws the timeline, the lane activity and the
 * instruction details.  Output is a pure function of the run: no clock, no
 * pointers, no hash order.
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
    fputs("]}", f);
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

Observer trace_observer(Trace *t)
{
    return (Observer){ t, observe_state, observe_issue };
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
    free(t->warps);
    free(t->path);
    free(t);
    return rc;
}

/* ---- the viewer ------------------------------------------------------------------------
 * Everything below is the page around the data: CSS, markup and script
 * (plain ES2015, no library).  No external resource of any kind: no URL,
 * no src= attribute, no font (tests/test_trace.c checks).  One C string per
 * line of the page keeps every literal short.  The script reads the data
 * described in docs/trace.md ("The data inside the page"). */
const char *const trace_viewer_head[] = {
    "<!DOCTYPE html>\n",
    "<html lang=\"en\">\n",
    "<head>\n",
    "<meta charset=\"utf-8\">\n",
    "<meta name=\"generator\" content=\"gpusim --trace\">\n",
    "<title>gpusim trace</title>\n",
    "<style>\n",
    "*{box-sizing:border-box}\n",
    "html,body{margin:0;height:100%;font:13px/1.35 system-ui,-apple-system,\"Segoe UI\",Roboto,Helvetica,Arial,sans-serif;color:#1d1d1f;background:#fafafa}\n",
    "body{display:flex;flex-direction:column;overflow:hidden}\n",
    "header{padding:6px 12px 4px;border-bottom:1px solid #ccc;background:#fff}\n",
    "h1{font-size:16px;margin:0 12px 0 0;display:inline}\n",
    "#meta{color:#444}\n",
    "#note{margin:3px 0;color:#5a4a00;background:#fff6d5;border:1px solid #ecd98b;padding:2px 6px;border-radius:3px;font-size:12px}\n",
    "#bar{display:flex;align-items:center;gap:6px;flex-wrap:wrap;margin-top:3px}\n",
    "#bar button{font:inherit;padding:1px 8px;border:1px solid #aaa;background:#f4f4f4;border-radius:3px;cursor:pointer}\n",
    "#bar button:hover{background:#e6e6e6}\n",
    "#bar button.on{background:#d7e6f7;border-color:#6b93c4}\n",
    "#range{font-variant-numeric:tabular-nums;color:#333;min-width:200px}\n",
    ".hint{color:#777;font-size:12px}\n",
    "#legend{margin-top:3px;display:flex;flex-wrap:wrap;gap:2px 12px;font-size:12px}\n",
    "#legend .lg{display:inline-flex;align-items:center;gap:4px;cursor:default;white-space:nowrap}\n",
    "main{flex:1;display:flex;min-height:0}\n",
    "#left{flex:1;display:flex;flex-direction:column;min-width:0}\n",
    ".panel{display:flex;flex-direction:column;min-height:0;border-bottom:1px solid #ccc}\n",
    "#tlpanel{flex:44}\n",
    "#lnpanel{flex:56}\n",
    ".ptitle{padding:2px 10px;background:#eef1f5;border-bottom:1px solid #d5d9df;font-weight:600;font-size:12px}\n",
    ".ptitle .hint{font-weight:normal;margin-left:8px}\n",
    ".scroll{flex:1;overflow-y:auto;overflow-x:hidden;position:relative;min-height:0;background:#fff}\n",
    ".scroll canvas{position:sticky;top:0;display:block;cursor:crosshair}\n",
    ".scroll canvas.drag{cursor:grabbing}\n",
    "#detail{width:460px;border-left:1px solid #ccc;overflow-y:auto;background:#fff;padding:6px 10px}\n",
    "#detail h2{font-size:14px;margin:4px 0 6px}\n",
    "#detail h3{font-size:12px;margin:10px 0 3px;color:#333;text-transform:uppercase;letter-spacing:.04em}\n",
    "#detail .instr{font:13px/1.3 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;background:#f3f5f8;padding:4px 6px;border-radius:3px;white-space:pre-wrap;word-break:break-all}\n",
    "#detail table.kv{border-collapse:collapse;margin:4px 0}\n",
    "#detail table.kv td{padding:1px 8px 1px 0;vertical-align:top}\n",
    "#detail table.kv td:first-child{color:#666;white-space:nowrap}\n",
    "#detail .mono,#detail code{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:12px}\n",
    "#detail .src{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:12px;color:#333;white-space:pre-wrap;word-break:break-all}\n",
    "#detail svg text{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}\n",
    "#detail .nav button{font:inherit;font-size:12px;padding:1px 6px;margin-right:4px;border:1px solid #aaa;background:#f4f4f4;border-radius:3px;cursor:pointer}\n",
    "#detail .sum{margin:3px 0}\n",
    "#detail .bad{color:#b00020;font-weight:600}\n",
    "#detail .good{color:#1b7a2e;font-weight:600}\n",
    "#detail table.addr{border-collapse:collapse;font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:11px}\n",
    "#detail table.addr td{padding:0 6px 0 0;white-space:nowrap}\n",
    "#detail table.addr td.l{color:#888;text-align:right}\n",
    "#detail table.sec{border-collapse:collapse;font-size:11px}\n",
    "#detail table.sec td,#detail table.sec th{padding:1px 5px 1px 0;text-align:left;white-space:nowrap}\n",
    "#detail table.sec th{color:#666;font-weight:normal}\n",
    "#detail table.hist{border-collapse:collapse;font-size:11px;width:100%}\n",
    "#detail table.hist td{padding:1px 4px 1px 0;white-space:nowrap}\n",
    "#detail table.hist tr{cursor:pointer}\n",
    "#detail table.hist tr:hover{background:#eef3fa}\n",
    "#detail table.hist tr.cur{background:#fff3c4;font-weight:600}\n",
    "#detail table.hist td.t{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;overflow:hidden;text-overflow:ellipsis;max-width:190px}\n",
    "#tip{position:fixed;pointer-events:none;background:rgba(25,25,30,.92);color:#fff;padding:4px 7px;border-radius:3px;font-size:12px;max-width:520px;display:none;z-index:10;white-space:pre-wrap}\n",
    "#empty{padding:20px;color:#555}\n",
    "</style>\n",
    "</head>\n",
    "<body>\n",
    "<header>\n",
    "<h1>gpusim trace</h1><span id=\"meta\"></span>\n",
    "<div id=\"note\"></div>\n",
    "<div id=\"bar\">\n",
    "<button id=\"zin\" title=\"zoom in (+ or mouse wheel)\">+</button><button id=\"zout\" title=\"zoom out (-)\">&minus;</button><button id=\"zfit\" title=\"show the whole window (0)\">fit</button><button id=\"pl\" title=\"pan left (left arrow)\">&#9664;</button><button id=\"pr\" title=\"pan right (right arrow)\">&#9654;</button>\n",
    "<span id=\"range\"></span>\n",
    "<button id=\"lrows\" class=\"on\" title=\"lane activity: one thin row per lane\">lanes: rows</button><button id=\"lheat\" title=\"lane activity: one strip per warp, darker = more lanes active\">lanes: heat strip</button><button id=\"ltall\" title=\"lane activity: taller lane rows (1x, 2x, 3x)\">lane height 1x</button>\n",
    "<span class=\"hint\">wheel: zoom at the cursor &middot; drag: pan &middot; shift+wheel: scroll rows &middot; click an issued instruction for its details</span>\n",
    "</div>\n",
    "<div id=\"legend\"></div>\n",
    "</header>\n",
    "<main>\n",
    "<div id=\"left\">\n",
    "<div class=\"panel\" id=\"tlpanel\"><div class=\"ptitle\">Warp timeline<span class=\"hint\">one row per warp, grouped by SM and block; colour = the warp's state each cycle (issued, or why it stalled)</span></div>\n",
    "<div class=\"scroll\" id=\"tlscroll\"><canvas id=\"timeline\"></canvas><div class=\"spacer\"></div></div></div>\n",
    "<div class=\"panel\" id=\"lnpanel\"><div class=\"ptitle\">Lane activity<span class=\"hint\">a thin row per lane: dark = active &middot; light = guard false at issue &middot; grey = off (diverged/exited) &middot; hatched = no thread</span></div>\n",
    "<div class=\"scroll\" id=\"lnscroll\"><canvas id=\"lanes\"></canvas><div class=\"spacer\"></div></div></div>\n",
    "</div>\n",
    "<aside id=\"detail\"><h2>Instruction details</h2><div id=\"detailbody\"><p class=\"hint\">Click an issued instruction (a green cell in the timeline, or a span in the lane view) to see its warp, cycle, pc, source line, active mask and, for memory instructions, the coalescing map or the bank map.</p></div></aside>\n",
    "</main>\n",
    "<div id=\"tip\"></div>\n",
    "<script type=\"application/json\" id=\"trace-data\">",
    NULL
};

const char *const trace_viewer_tail[] = {
    "</script>\n",
    "<script>\n",
    "'use strict';\n",
    "(function () {\n",
    "const D = JSON.parse(document.getElementById('trace-data').textContent);\n",
    "const WS = D.ws;\n",
    "const NS = D.states.length;\n",
    "const SPACE = ['none', 'global', 'shared', 'const', 'local', 'param'];\n",
    "/* state colours and meanings (docs/architecture.md) */\n",
    "const SC = {\n",
    "  selected: ['#2ca02c', 'issued an instruction this cycle'],\n",
    "  not_selected: ['#a6dba0', 'ready, but its scheduler issued another warp'],\n",
    "  wait: ['#ffd92f', 'waiting on a fixed-latency unit (ALU, FMA, DP, constant/param loads)'],\n",
    "  long_scoreboard: ['#d62728', 'a register it needs waits on a global or local memory load'],\n",
    "  short_scoreboard: ['#ff7f0e', 'a register it needs waits on shared memory, a shuffle or the SFU'],\n",
    "  barrier: ['#9467bd', 'waiting at bar.sync for the rest of its block'],\n",
    "  membar: ['#e377c2', 'a membar/fence waiting for its earlier memory accesses'],\n",
    "  math_pipe_throttle: ['#1f77b4', 'the SP, DP or SFU pipe it needs is busy'],\n",
    "  mio_throttle: ['#17becf', 'the shared-memory pipe is busy (bank-conflict replays)'],\n",
    "  lg_throttle: ['#8c564b', 'the global/local memory pipe is busy'],\n",
    "  no_instruction: ['#b0b0b0', 'its first instruction is not fetched yet'],\n",
    "  branch_resolving: ['#9ecae1', 'after a control transfer, waiting for the target instruction'],\n",
    "  dispatch_stall: ['#636363', 'dispatch stall'],\n",
    "  imc_miss: ['#bcbd22', 'immediate-constant cache miss'],\n",
    "  drain: ['#dddddd', 'exited, waiting for its memory accesses to finish']\n",
    "};\n",
    "const COL = D.states.map(function (n) { return (SC[n] || ['#888', n])[0]; });\n",
    "const $ = function (id) { return document.getElementById(id); };\n",
    "function fmt(n) { return Math.round(n).toString().replace(/\\B(?=(\\d{3})+(?!\\d))/g, ','); }\n",
    "function hex(n) { return '0x' + n.toString(16); }\n",
    "function esc(s) { return String(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/\"/g, '&quot;'); }\n",
    "function pop(m) { m = m >>> 0; let c = 0; while (m) { m &= m - 1; c++; } return c; }\n",
    "const srcText = {};\n",
    "D.source.forEach(function (p) { srcText[p[0]] = p[1]; });\n",
    "\n",
    "/* ---- rows ---- */\n",
    "const rows = D.rows.map(function (a, k) {\n",
    "  const L = D.launches[a[0]] || [0, 1, 1, 1, 1, 1, 1];\n",
    "  const threads = L[1] * L[2] * L[3];\n",
    "  let valid = 0;\n",
    "  for (let l = 0; l < WS; l++) if (a[5] * WS + l < threads) valid |= (1 << l);\n",
    "  const S = D.S[k], I = D.I[k];\n",
    "  const ns = S.length / 4, ni = I.length / 5;\n",
    "  const sFrom = new Float64Array(ns), sTo = new Float64Array(ns), sState = new Uint8Array(ns), sLine = new Uint32Array(ns);\n",
    "  let t = 0;\n",
    "  for (let i = 0; i < ns; i++) {\n",
    "    t += S[4 * i]; sFrom[i] = t; t += S[4 * i + 1]; sTo[i] = t; sState[i] = S[4 * i + 2]; sLine[i] = S[4 * i + 3];\n",
    "  }\n",
    "  const iCyc = new Float64Array(ni), iPc = new Uint32Array(ni), iAct = new Uint32Array(ni), iExec = new Uint32Array(ni), iMem = new Int32Array(ni);\n",
    "  t = 0;\n",
    "  for (let i = 0; i < ni; i++) {\n",
    "    t += I[5 * i]; iCyc[i] = t; iPc[i] = I[5 * i + 1]; iAct[i] = I[5 * i + 2] >>> 0;\n",
    "    iExec[i] = (I[5 * i + 2] ^ I[5 * i + 3]) >>> 0; iMem[i] = I[5 * i + 4] - 1;\n",
    "  }\n",
    "  let start = ns ? sFrom[0] : (ni ? iCyc[0] : 0), end = ns ? sTo[ns - 1] : (ni ? iCyc[ni - 1] + 1 : 0);\n",
    "  if (ni && iCyc[0] < start) start = iCyc[0];\n",
    "  if (ni && iCyc[ni - 1] + 1 > end) end = iCyc[ni - 1] + 1;\n",
    "  return { k: k, launch: a[0], cta: a[1], cid: [a[2], a[3], a[4]], warp: a[5], sm: a[6], slot: a[7],\n",
    "           entry: L[0], valid: valid >>> 0, sFrom: sFrom, sTo: sTo, sState: sState, sLine: sLine,\n",
    "           iCyc: iCyc, iPc: iPc, iAct: iAct, iExec: iExec, iMem: iMem, start: start, end: end };\n",
    "});\n",
    "function blockName(r) {\n",
    "  const L = D.launches[r.launch];\n",
    "  const c = r.cid;\n",
    "  const xyz = L && L[6] > 1 ? c.join(',') : L && L[5] > 1 ? c[0] + ',' + c[1] : '' + c[0];\n",
    "  return (D.launches.length > 1 ? 'L' + (r.launch + 1) + ' ' : '') + 'block (' + xyz + ')';\n",
    "}\n",
    "function warpName(r) { return 'SM ' + r.sm + ' \\u00b7 ' + blockName(r) + ' \\u00b7 warp ' + r.warp; }\n",
    "function instrOf(r, pc) { const e = D.entries[r.entry]; return e && e.code[pc] ? e.code[pc] : [0, 'pc ' + pc]; }\n",
    "\n",
    "/* ---- window and summary ---- */\n",
    "const W0 = D.win[0], W1 = Math.max(D.win[1], D.win[0] + 1), RUN_END = D.win[2];\n",
    "let v0 = W0, v1 = W1;\n",
    "(function header() {\n",
    "  const e = D.entries[(D.launches[0] || [0])[0]];\n",
    "  document.title = 'gpusim trace: ' + D.kernel;\n",
    "  $('meta').textContent = D.kernel + (e ? ' (' + D.entries.filter(function (x) { return x.code.length; }).map(function (x) { return x.name; }).join(', ') + ')' : '') +\n",
    "    ' on ' + D.gpu + ' \\u00b7 ' + D.sms + ' SMs \\u00b7 warp size ' + WS + ' \\u00b7 ' + rows.length + ' warps traced';\n",
    "  let n = 'Window: cycles ' + fmt(W0) + ' to ' + fmt(W1) + ' of a run of ' + fmt(RUN_END) + ' cycles';\n",
    "  n += D.smSel >= 0 ? ', SM ' + D.smSel + ' only' : ', all SMs';\n",
    "  n += D.warpSel.length ? ', warps ' + D.warpSel.join(',') + ' of each block' : ', all warps';\n",
    "  if (D.win[4]) n += '. This is the default window: it ends where the trace reached its size budget (about ' + fmt(D.win[5] / 1e6) + ' MB), so the file stays small. Choose another window with --trace-cycles A:B, --trace-sm N and --trace-warps LIST.';\n",
    "  else if (D.win[0] === 0 && D.win[1] >= RUN_END) n += ' (the whole run).';\n",
    "  else n += '.';\n",
    "  $('note').textContent = n;\n",
    "})();\n",
    "\n",
    "/* legend: swatches with each state's share of the traced warp-cycles */\n",
    "(function legend() {\n",
    "  const tot = new Float64Array(NS);\n",
    "  let all = 0;\n",
    "  rows.forEach(function (r) { for (let i = 0; i < r.sFrom.length; i++) { const d = r.sTo[i] - r.sFrom[i]; tot[r.sState[i]] += d; all += d; } });\n",
    "  let out = '';\n",
    "  const order = [];\n",
    "  for (let s = 0; s < NS; s++) if (tot[s] > 0 || D.states[s] === 'selected') order.push(s);\n",
    "  order.forEach(function (s) {\n",
    "    const name = D.states[s], pct = all ? (100 * tot[s] / all) : 0;\n",
    "    const label = name + ' ' + (pct >= 10 ? pct.toFixed(0) : pct.toFixed(1)) + '%';\n",
    "    out += '<span class=\"lg\" data-s=\"' + s + '\"><svg width=\"12\" height=\"12\"><rect x=\".5\" y=\".5\" width=\"11\" height=\"11\" rx=\"2\" fill=\"' + COL[s] + '\" stroke=\"#555\" stroke-width=\".5\"></rect></svg>' + esc(label) + '</span>';\n",
    "  });\n",
    "  $('legend').innerHTML = out + '<span class=\"lg hint\">(share of the traced warp-cycles; hover for the meaning)</span>';\n",
    "  $('legend').querySelectorAll('span.lg[data-s]').forEach(function (g) {\n",
    "    const s = +g.getAttribute('data-s');\n",
    "    g.addEventListener('mousemove', function (ev) { showTip(ev, D.states[s] + ': ' + SC[D.states[s]][1] + '\\n' + fmt(tot[s]) + ' warp-cycles in the window'); });\n",
    "    g.addEventListener('mouseleave', hideTip);\n",
    "  });\n",
    "})();\n",
    "\n",
    "/* ---- panels ---- */\n",
    "const GUT = 150, RULER = 22;\n",
    "let laneMode = 'rows';\n",
    "let sel = null;            /* {r, i} */\n",
    "let laneScale = 1;\n",
    "function laneH() { return (WS <= 8 ? 6 : WS <= 16 ? 4 : 2) * laneScale; }\n",
    "function buildItems(kind) {\n",
    "  const items = [];\n",
    "  let y = 0, lastSm = -1, lastBlock = null;\n",
    "  rows.forEach(function (r) {\n",
    "    if (r.sm !== lastSm) { items.push({ t: 'sm', sm: r.sm, y: y, h: 18 }); y += 18; lastSm = r.sm; lastBlock = null; }\n",
    "    const b = r.launch + ':' + r.cta;\n",
    "    const h = kind === 'tl' ? 14 : laneMode === 'heat' ? 14 : laneH() * WS + 18;\n",
    "    items.push({ t: 'w', r: r, y: y, h: h, first: b !== lastBlock });\n",
    "    lastBlock = b;\n",
    "    y += h;\n",
    "  });\n",
    "  return { items: items, h: y };\n",
    "}\n",
    "function Panel(kind, canvasId, scrollId) {\n",
    "  this.kind = kind; this.cv = $(canvasId); this.sc = $(scrollId);\n",
    "  this.ctx = this.cv.getContext('2d'); this.sp = this.sc.querySelector('.spacer');\n",
    "  this.relayout();\n",
    "}\n",
    "Panel.prototype.relayout = function () {\n",
    "  const L = buildItems(this.kind);\n",
    "  this.items = L.items; this.contentH = L.h;\n",
    "  this.resize();\n",
    "};\n",
    "Panel.prototype.resize = function () {\n",
    "  const w = this.sc.clientWidth, h = this.sc.clientHeight, dpr = window.devicePixelRatio || 1;\n",
    "  this.w = w; this.h = h;\n",
    "  this.cv.width = Math.max(1, Math.round(w * dpr)); this.cv.height = Math.max(1, Math.round(h * dpr));\n",
    "  this.cv.style.width = w + 'px'; this.cv.style.height = h + 'px';\n",
    "  this.ctx.setTransform(dpr, 0, 0, dpr, 0, 0);\n",
    "  this.sp.style.height = Math.max(0, this.contentH + RULER + 4 - h) + 'px';\n",
    "};\n",
    "Panel.prototype.itemAt = function (y) {\n",
    "  const yy = y - RULER + this.sc.scrollTop;\n",
    "  let lo = 0, hi = this.items.length - 1;\n",
    "  while (lo < hi) { const m = (lo + hi + 1) >> 1; if (this.items[m].y <= yy) lo = m; else hi = m - 1; }\n",
    "  const it = this.items[lo];\n",
    "  return it && yy >= it.y && yy < it.y + it.h ? { it: it, dy: yy - it.y } : null;\n",
    "};\n",
    "Panel.prototype.scrollToRow = function (r) {\n",
    "  for (const it of this.items) if (it.t === 'w' && it.r === r) {\n",
    "    const vis = this.h - RULER;\n",
    "    if (it.y < this.sc.scrollTop || it.y + it.h > this.sc.scrollTop + vis) this.sc.scrollTop = Math.max(0, it.y - vis / 2 + it.h / 2);\n",
    "    return;\n",
    "  }\n",
    "};\n",
    "const tl = new Panel('tl', 'timeline', 'tlscroll');\n",
    "const ln = new Panel('ln', 'lanes', 'lnscroll');\n",
    "const panels = [tl, ln];\n",
    "\n",
    "function plotW(p) { return Math.max(10, p.w - GUT); }\n",
    "function xOf(p, c) { return GUT + (c - v0) * plotW(p) / (v1 - v0); }\n",
    "function cycOf(p, x) { return v0 + (x - GUT) * (v1 - v0) / plotW(p); }\n",
    "function lowerBound(a, v) { let lo = 0, hi = a.length; while (lo < hi) { const m = (lo + hi) >> 1; if (a[m] < v) lo = m + 1; else hi = m; } return lo; }\n",
    "\n",
    "function drawRuler(p) {\n",
    "  const c = p.ctx, W = plotW(p);\n",
    "  c.fillStyle = '#f4f6f9'; c.fillRect(0, 0, p.w, RULER);\n",
    "  c.strokeStyle = '#bbb'; c.beginPath(); c.moveTo(0, RULER - .5); c.lineTo(p.w, RULER - .5); c.stroke();\n",
    "  const span = v1 - v0, target = span / (W / 90);\n",
    "  const mag = Math.pow(10, Math.floor(Math.log10(Math.max(target, 1e-9))));\n",
    "  let step = mag;\n",
    "  [1, 2, 5, 10].some(function (m) { step = m * mag; return step >= target; });\n",
    "  step = Math.max(1, step);\n",
    "  c.fillStyle = '#333'; c.font = '11px system-ui,sans-serif'; c.textBaseline = 'middle';\n",
    "  c.strokeStyle = '#888';\n",
    "  const minor = step / 5 >= 1 ? step / 5 : step;\n",
    "  for (let t = Math.ceil(v0 / minor) * minor; t <= v1; t += minor) {\n",
    "    const x = Math.round(xOf(p, t)) + .5, major = Math.abs(t / step - Math.round(t / step)) < 1e-9;\n",
    "    c.beginPath(); c.moveTo(x, major ? RULER - 9 : RULER - 4); c.lineTo(x, RULER); c.stroke();\n",
    "    if (major && x + 3 + c.measureText(fmt(t)).width < p.w) c.fillText(fmt(t), x + 3, 8);\n",
    "  }\n",
    "  c.fillStyle = '#555'; c.fillText('cycle', 8, 8);\n",
    "  c.fillStyle = '#f4f6f9'; c.fillRect(0, 0, 4, RULER);\n",
    "}\n",
    "\n",
    "function drawGutter(p, it, y) {\n",
    "  const c = p.ctx;\n",
    "  c.font = '11px system-ui,sans-serif'; c.textBaseline = 'middle';\n",
    "  if (it.t === 'sm') {\n",
    "    c.fillStyle = '#e4e8ee'; c.fillRect(0, y, p.w, it.h);\n",
    "    c.fillStyle = '#223'; c.font = 'bold 11px system-ui,sans-serif';\n",
    "    c.fillText('SM ' + it.sm, 6, y + it.h / 2);\n",
    "    return;\n",
    "  }\n",
    "  const r = it.r;\n",
    "  if (it.first) {\n",
    "    c.strokeStyle = '#5b6b82'; c.lineWidth = 1; c.beginPath(); c.moveTo(0, y + .5); c.lineTo(p.w, y + .5); c.stroke();\n",
    "  }\n",
    "  c.fillStyle = '#333';\n",
    "  const yy = p.kind === 'tl' || laneMode === 'heat' ? y + it.h / 2 : y + 8;\n",
    "  if (it.first) { c.fillText(blockName(r), 6, yy); }\n",
    "  c.textAlign = 'right'; c.fillText('w' + r.warp, GUT - 8, yy); c.textAlign = 'left';\n",
    "  if (p.kind === 'ln' && laneMode === 'rows') {\n",
    "    c.fillStyle = '#999'; c.font = '9px system-ui,sans-serif'; c.textAlign = 'right';\n",
    "    const lh = laneH();\n",
    "    c.fillText('lane 0', GUT - 8, y + 16 + lh / 2);\n",
    "    c.fillText('lane ' + (WS - 1), GUT - 8, y + 16 + lh * WS - lh / 2);\n",
    "    c.textAlign = 'left';\n",
    "  }\n",
    "}\n",
    "\n",
    "/* per-pixel dominant state at low zoom; rectangles at high zoom */\n",
    "const acc = { w: new Float32Array(0) };\n",
    "function drawStates(p, r, y, h) {\n",
    "  const c = p.ctx, W = plotW(p), sc = W / (v1 - v0);\n",
    "  const n = r.sFrom.length;\n",
    "  let i = lowerBound(r.sTo, v0 + 1e-9);\n",
    "  if (sc >= 1) {\n",
    "    for (; i < n && r.sFrom[i] < v1; i++) {\n",
    "      const x0 = xOf(p, Math.max(r.sFrom[i], v0)), x1 = xOf(p, Math.min(r.sTo[i], v1));\n",
    "      c.fillStyle = COL[r.sState[i]];\n",
    "      const wd = x1 - x0;\n",
    "      c.fillRect(x0, y, wd >= 4 ? wd - 1 : Math.max(wd, 1), h);\n",
    "    }\n",
    "  } else {\n",
    "    if (acc.w.length < W * NS) acc.w = new Float32Array(W * NS);\n",
    "    const a = acc.w;\n",
    "    a.fill(0, 0, W * NS);\n",
    "    let xmin = W, xmax = -1;\n",
    "    for (; i < n && r.sFrom[i] < v1; i++) {\n",
    "      const f = (Math.max(r.sFrom[i], v0) - v0) * sc, t = (Math.min(r.sTo[i], v1) - v0) * sc;\n",
    "      const s = r.sState[i];\n",
    "      let x = Math.floor(f);\n",
    "      const xe = Math.min(W - 1, Math.ceil(t) - 1);\n",
    "      if (x < xmin) xmin = x;\n",
    "      if (xe > xmax) xmax = xe;\n",
    "      for (; x <= xe; x++) a[x * NS + s] += Math.min(t, x + 1) - Math.max(f, x);\n",
    "    }\n",
    "    let runS = -1, runX = 0;\n",
    "    for (let x = Math.max(0, xmin); x <= xmax + 1; x++) {\n",
    "      let best = -1, bw = 0;\n",
    "      if (x <= xmax) for (let s = 0; s < NS; s++) { const v = a[x * NS + s]; if (v > bw) { bw = v; best = s; } }\n",
    "      if (best !== runS) {\n",
    "        if (runS >= 0) { c.fillStyle = COL[runS]; c.fillRect(GUT + runX, y, x - runX, h); }\n",
    "        runS = best; runX = x;\n",
    "      }\n",
    "    }\n",
    "  }\n",
    "  /* issue ticks and opcodes when zoomed in */\n",
    "  if (sc >= 3) {\n",
    "    let k = lowerBound(r.iCyc, v0 - 1);\n",
    "    c.fillStyle = 'rgba(0,60,0,.55)';\n",
    "    c.font = '10px ui-monospace,Menlo,Consolas,monospace'; c.textBaseline = 'middle';\n",
    "    for (; k < r.iCyc.length && r.iCyc[k] < v1; k++) {\n",
    "      const x = xOf(p, r.iCyc[k]);\n",
    "      c.fillRect(x, y, 1, h);\n",
    "      if (sc >= 40) {\n",
    "        const op = instrOf(r, r.iPc[k])[1].replace(/^@!?%\\w+\\s+/, '').split(/\\s/)[0];\n",
    "        c.save(); c.beginPath(); c.rect(x + 1, y, sc - 2, h); c.clip();\n",
    "        c.fillStyle = '#fff'; c.fillText(op, x + 3, y + h / 2 + .5); c.restore();\n",
    "        c.fillStyle = 'rgba(0,60,0,.55)';\n",
    "      }\n",
    "    }\n",
    "  }\n",
    "}\n",
    "\n",
    "function drawTimeline() {\n",
    "  const p = tl, c = p.ctx;\n",
    "  c.clearRect(0, 0, p.w, p.h);\n",
    "  const top = p.sc.scrollTop;\n",
    "  c.save(); c.beginPath(); c.rect(0, RULER, p.w, p.h - RULER); c.clip();\n",
    "  for (const it of p.items) {\n",
    "    const y = RULER + it.y - top;\n",
    "    if (y + it.h < RULER || y > p.h) continue;\n",
    "    drawGutter(p, it, y);\n",
    "    if (it.t !== 'w') continue;\n",
    "    c.save(); c.beginPath(); c.rect(GUT, y, p.w - GUT, it.h); c.clip();\n",
    "    drawStates(p, it.r, y + 2, it.h - 3);\n",
    "    c.restore();\n",
    "    if (sel && sel.r === it.r) {\n",
    "      c.fillStyle = 'rgba(255,200,0,.18)'; c.fillRect(0, y, GUT, it.h);\n",
    "      const x0 = xOf(p, sel.r.iCyc[sel.i]), x1 = Math.max(x0 + 3, xOf(p, sel.r.iCyc[sel.i] + 1));\n",
    "      c.strokeStyle = '#000'; c.lineWidth = 2; c.strokeRect(x0 - 1, y + 1, x1 - x0 + 2, it.h - 1); c.lineWidth = 1;\n",
    "    }\n",
    "  }\n",
    "  drawSelLine(p);\n",
    "  c.restore();\n",
    "  c.strokeStyle = '#ccc'; c.beginPath(); c.moveTo(GUT - .5, RULER); c.lineTo(GUT - .5, p.h); c.stroke();\n",
    "  drawRuler(p);\n",
    "}\n",
    "function drawSelLine(p) {\n",
    "  if (!sel) return;\n",
    "  const c = p.ctx, x = xOf(p, sel.r.iCyc[sel.i] + .5);\n",
    "  if (x < GUT || x > p.w) return;\n",
    "  c.strokeStyle = 'rgba(0,0,0,.45)'; c.setLineDash([4, 3]); c.beginPath(); c.moveTo(x, RULER); c.lineTo(x, p.h); c.stroke(); c.setLineDash([]);\n",
    "}\n",
    "\n",
    "/* lane view: per pixel column, per lane, the share of cycles the lane executed / was guarded off */\n",
    "const EX = [33, 102, 172], PR = [146, 197, 222], OFF = [226, 226, 226];\n",
    "let img = null, oc = null;\n",
    "function drawLaneRow(p, r, y, h) {\n",
    "  const c = p.ctx, W = Math.max(1, Math.floor(plotW(p))), sc = W / (v1 - v0);\n",
    "  const heat = laneMode === 'heat';\n",
    "  const lh = heat ? h : laneH(), H = heat ? h : lh * WS;\n",
    "  const E = new Float32Array(W * WS), A = new Float32Array(W * WS), C = new Float32Array(W);\n",
    "  /* While a warp waits to issue instruction k its active mask is k's\n",
    "   * (the SIMT stack changed right after the previous issue); in the issue\n",
    "   * cycle itself its lanes split into guard true and guard false. */\n",
    "  const n = r.iCyc.length;\n",
    "  const add = function (a, b, act, ex) {\n",
    "    const f = (Math.max(a, v0) - v0) * sc, t = (Math.min(b, v1) - v0) * sc;\n",
    "    if (t <= f) return;\n",
    "    const xs = Math.max(0, Math.floor(f)), xe = Math.min(W - 1, Math.ceil(t) - 1);\n",
    "    for (let x = xs; x <= xe; x++) {\n",
    "      const wgt = Math.min(t, x + 1) - Math.max(f, x);\n",
    "      C[x] += wgt;\n",
    "      for (let m = act; m; m &= m - 1) {\n",
    "        const l = 31 - Math.clz32(m & -m);\n",
    "        if ((ex >>> l) & 1) E[x * WS + l] += wgt; else A[x * WS + l] += wgt;\n",
    "      }\n",
    "    }\n",
    "  };\n",
    "  let k = Math.max(0, lowerBound(r.iCyc, v0) - 1);\n",
    "  let sa = 0, sb = 0, sAct = 0, sEx = 0, open = false;\n",
    "  const seg = function (a, b, act, ex) {\n",
    "    if (b <= a) return;\n",
    "    if (open && sb === a && sAct === act && sEx === ex) { sb = b; return; }\n",
    "    if (open) add(sa, sb, sAct, sEx);\n",
    "    sa = a; sb = b; sAct = act; sEx = ex; open = true;\n",
    "  };\n",
    "  for (; k < n; k++) {\n",
    "    const c = r.iCyc[k], prev = k ? r.iCyc[k - 1] + 1 : Math.min(r.start, c);\n",
    "    if (prev >= v1) break;\n",
    "    seg(prev, c, r.iAct[k], r.iAct[k]);\n",
    "    seg(c, c + 1, r.iAct[k], r.iExec[k]);\n",
    "  }\n",
    "  if (k === n && n) seg(r.iCyc[n - 1] + 1, lastEnd(r), r.iAct[n - 1], r.iAct[n - 1]);\n",
    "  if (open) add(sa, sb, sAct, sEx);\n",
    "  if (!oc) { oc = document.createElement('canvas'); }\n",
    "  if (oc.width !== W || oc.height < H) { oc.width = W; oc.height = Math.max(H, oc.height); img = null; }\n",
    "  const octx = oc.getContext('2d');\n",
    "  if (!img || img.width !== W || img.height !== H) img = octx.createImageData(W, H);\n",
    "  const d = img.data;\n",
    "  const nvalid = pop(r.valid) || 1;\n",
    "  for (let x = 0; x < W; x++) {\n",
    "    const cv = C[x];\n",
    "    if (heat) {\n",
    "      let fe = 0, fa = 0;\n",
    "      if (cv > 0) for (let l = 0; l < WS; l++) { fe += E[x * WS + l]; fa += A[x * WS + l]; }\n",
    "      fe = cv > 0 ? fe / cv / nvalid : 0; fa = cv > 0 ? fa / cv / nvalid : 0;\n",
    "      const fo = 1 - fe - fa;\n",
    "      for (let yy = 0; yy < H; yy++) {\n",
    "        const o = (yy * W + x) * 4;\n",
    "        if (cv <= 0) { d[o + 3] = 0; continue; }\n",
    "        d[o] = fe * EX[0] + fa * PR[0] + fo * OFF[0]; d[o + 1] = fe * EX[1] + fa * PR[1] + fo * OFF[1]; d[o + 2] = fe * EX[2] + fa * PR[2] + fo * OFF[2];\n",
    "        d[o + 3] = 255 * Math.min(1, cv);\n",
    "      }\n",
    "      continue;\n",
    "    }\n",
    "    for (let l = 0; l < WS; l++) {\n",
    "      let R, G, B, Al = 255;\n",
    "      if (cv <= 0) { Al = 0; R = G = B = 255; }\n",
    "      else if (!((r.valid >>> l) & 1)) { const hatch = ((x + l * lh) % 6) < 2; R = G = B = hatch ? 180 : 236; }\n",
    "      else {\n",
    "        const fe = E[x * WS + l] / cv, fa = A[x * WS + l] / cv, fo = Math.max(0, 1 - fe - fa);\n",
    "        R = fe * EX[0] + fa * PR[0] + fo * OFF[0]; G = fe * EX[1] + fa * PR[1] + fo * OFF[1]; B = fe * EX[2] + fa * PR[2] + fo * OFF[2];\n",
    "        Al = 255 * Math.min(1, cv);\n",
    "      }\n",
    "      for (let yy = 0; yy < lh; yy++) {\n",
    "        const o = ((l * lh + yy) * W + x) * 4;\n",
    "        d[o] = R; d[o + 1] = G; d[o + 2] = B; d[o + 3] = Al;\n",
    "      }\n",
    "    }\n",
    "  }\n",
    "  octx.putImageData(img, 0, 0);\n",
    "  c.imageSmoothingEnabled = false;\n",
    "  c.drawImage(oc, 0, 0, W, H, GUT, y, W, H);\n",
    "}\n",
    "/* the last issue's mask holds until the warp drains or the window ends */\n",
    "function lastEnd(r) {\n",
    "  if (r.lastEnd !== undefined) return r.lastEnd;\n",
    "  const n = r.iCyc.length, c = n ? r.iCyc[n - 1] : r.start, dr = D.states.indexOf('drain');\n",
    "  let e = r.end;\n",
    "  for (let i = lowerBound(r.sTo, c + 1); i < r.sFrom.length; i++) if (r.sState[i] === dr) { e = Math.max(c + 1, r.sFrom[i]); break; }\n",
    "  if (n && /^(@!?%\\w+\\s+)?(ret|exit)\\b/.test(instrOf(r, r.iPc[n - 1])[1])) e = c + 1;\n",
    "  r.lastEnd = e;\n",
    "  return e;\n",
    "}\n",
    "function drawLanes() {\n",
    "  const p = ln, c = p.ctx;\n",
    "  c.clearRect(0, 0, p.w, p.h);\n",
    "  const top = p.sc.scrollTop;\n",
    "  c.save(); c.beginPath(); c.rect(0, RULER, p.w, p.h - RULER); c.clip();\n",
    "  for (const it of p.items) {\n",
    "    const y = RULER + it.y - top;\n",
    "    if (y + it.h < RULER || y > p.h) continue;\n",
    "    drawGutter(p, it, y);\n",
    "    if (it.t !== 'w') continue;\n",
    "    if (laneMode === 'heat') drawLaneRow(p, it.r, y + 2, it.h - 3);\n",
    "    else drawLaneRow(p, it.r, y + 16, 0);\n",
    "    if (sel && sel.r === it.r) {\n",
    "      c.fillStyle = 'rgba(255,200,0,.18)'; c.fillRect(0, y, GUT, it.h);\n",
    "      const x0 = xOf(p, sel.r.iCyc[sel.i]);\n",
    "      const x1 = Math.max(x0 + 3, xOf(p, sel.r.iCyc[sel.i] + 1));\n",
    "      c.strokeStyle = '#000'; c.lineWidth = 2; c.strokeRect(x0 - 1, y + 1, x1 - x0 + 2, it.h - 2); c.lineWidth = 1;\n",
    "    }\n",
    "  }\n",
    "  drawSelLine(p);\n",
    "  c.restore();\n",
    "  c.strokeStyle = '#ccc'; c.beginPath(); c.moveTo(GUT - .5, RULER); c.lineTo(GUT - .5, p.h); c.stroke();\n",
    "  drawRuler(p);\n",
    "}\n",
    "\n",
    "let pending = false;\n",
    "function redraw() {\n",
    "  if (pending) return;\n",
    "  pending = true;\n",
    "  requestAnimationFrame(function () { pending = false; drawNow(); });\n",
    "}\n",
    "function drawNow() {\n",
    "  drawTimeline(); drawLanes();\n",
    "  $('range').textContent = 'cycles ' + fmt(v0) + ' \\u2013 ' + fmt(v1) + ' (' + fmt(v1 - v0) + ')';\n",
    "}\n",
    "\n",
    "/* ---- zoom and pan ---- */\n",
    "function setView(a, b) {\n",
    "  const minSpan = 8;\n",
    "  let span = Math.max(minSpan, Math.min(b - a, (W1 - W0) * 1.0));\n",
    "  if (W1 - W0 < minSpan) span = W1 - W0;\n",
    "  a = Math.max(W0, Math.min(a, W1 - span));\n",
    "  v0 = a; v1 = a + span;\n",
    "  redraw();\n",
    "}\n",
    "function zoomAt(f, cx) { const c0 = cx === undefined ? (v0 + v1) / 2 : cx; setView(c0 - (c0 - v0) * f, c0 + (v1 - c0) * f); }\n",
    "$('zin').onclick = function () { zoomAt(0.5); };\n",
    "$('zout').onclick = function () { zoomAt(2); };\n",
    "$('zfit').onclick = function () { setView(W0, W1); };\n",
    "$('pl').onclick = function () { const s = v1 - v0; setView(v0 - s / 3, v1 - s / 3); };\n",
    "$('pr').onclick = function () { const s = v1 - v0; setView(v0 + s / 3, v1 + s / 3); };\n",
    "function setLanes(m) {\n",
    "  laneMode = m; $('lrows').classList.toggle('on', m === 'rows'); $('lheat').classList.toggle('on', m === 'heat');\n",
    "  ln.relayout(); if (sel) ln.scrollToRow(sel.r); redraw();\n",
    "}\n",
    "$('lrows').onclick = function () { setLanes('rows'); };\n",
    "$('lheat').onclick = function () { setLanes('heat'); };\n",
    "function setLaneScale(k) { laneScale = k; $('ltall').textContent = 'lane height ' + k + 'x'; setLanes('rows'); }\n",
    "$('ltall').onclick = function () { setLaneScale(laneScale % 3 + 1); };\n",
    "window.addEventListener('keydown', function (ev) {\n",
    "  if (ev.key === '+' || ev.key === '=') zoomAt(0.5);\n",
    "  else if (ev.key === '-') zoomAt(2);\n",
    "  else if (ev.key === '0') setView(W0, W1);\n",
    "  else if (ev.key === 'ArrowLeft') { const s = v1 - v0; setView(v0 - s / 4, v1 - s / 4); }\n",
    "  else if (ev.key === 'ArrowRight') { const s = v1 - v0; setView(v0 + s / 4, v1 + s / 4); }\n",
    "  else return;\n",
    "  ev.preventDefault();\n",
    "});\n",
    "panels.forEach(function (p) {\n",
    "  p.sc.addEventListener('scroll', redraw);\n",
    "  p.cv.addEventListener('wheel', function (ev) {\n",
    "    ev.preventDefault();\n",
    "    if (ev.shiftKey) { p.sc.scrollTop += ev.deltaY || ev.deltaX; return; }\n",
    "    const rect = p.cv.getBoundingClientRect(), x = ev.clientX - rect.left;\n",
    "    const f = Math.pow(1.0015, ev.deltaY * (ev.deltaMode === 1 ? 30 : 1));\n",
    "    zoomAt(f, x > GUT ? cycOf(p, x) : undefined);\n",
    "  }, { passive: false });\n",
    "  let drag = null;\n",
    "  p.cv.addEventListener('mousedown', function (ev) {\n",
    "    drag = { x: ev.clientX, y: ev.clientY, v0: v0, v1: v1, top: p.sc.scrollTop, moved: false };\n",
    "  });\n",
    "  window.addEventListener('mousemove', function (ev) {\n",
    "    if (!drag) return;\n",
    "    const dx = ev.clientX - drag.x, dy = ev.clientY - drag.y;\n",
    "    if (Math.abs(dx) + Math.abs(dy) > 3) { drag.moved = true; p.cv.classList.add('drag'); }\n",
    "    if (!drag.moved) return;\n",
    "    const dc = dx * (drag.v1 - drag.v0) / plotW(p);\n",
    "    setView(drag.v0 - dc, drag.v1 - dc);\n",
    "    p.sc.scrollTop = drag.top - dy;\n",
    "  });\n",
    "  window.addEventListener('mouseup', function (ev) {\n",
    "    if (!drag) return;\n",
    "    const moved = drag.moved;\n",
    "    drag = null; p.cv.classList.remove('drag');\n",
    "    if (!moved && ev.target === p.cv) clickAt(p, ev);\n",
    "  });\n",
    "  p.cv.addEventListener('mousemove', function (ev) { if (!drag) hover(p, ev); });\n",
    "  p.cv.addEventListener('mouseleave', hideTip);\n",
    "});\n",
    "window.addEventListener('resize', function () { panels.forEach(function (p) { p.resize(); }); drawNow(); });\n",
    "\n",
    "/* ---- hit testing ---- */\n",
    "function issueNear(r, cyc, tolCycles) {\n",
    "  const a = r.iCyc;\n",
    "  if (!a.length) return -1;\n",
    "  let i = lowerBound(a, cyc - tolCycles - 1);\n",
    "  let best = -1, bd = Infinity;\n",
    "  for (; i < a.length && a[i] <= cyc + tolCycles; i++) {\n",
    "    const d = cyc >= a[i] && cyc < a[i] + 1 ? 0 : Math.min(Math.abs(cyc - a[i]), Math.abs(cyc - a[i] - 1));\n",
    "    if (d < bd) { bd = d; best = i; }\n",
    "  }\n",
    "  return bd <= tolCycles ? best : -1;\n",
    "}\n",
    "function issueSpanAt(r, cyc) {\n",
    "  const a = r.iCyc, n = a.length;\n",
    "  if (!n || cyc < Math.min(r.start, a[0])) return -1;\n",
    "  const i = lowerBound(a, cyc);\n",
    "  if (i < n) return i;\n",
    "  return cyc < lastEnd(r) ? n - 1 : -1;\n",
    "}\n",
    "function clickAt(p, ev) {\n",
    "  const rect = p.cv.getBoundingClientRect(), x = ev.clientX - rect.left, y = ev.clientY - rect.top;\n",
    "  if (x < GUT || y < RULER) return;\n",
    "  const h = p.itemAt(y);\n",
    "  if (!h || h.it.t !== 'w') return;\n",
    "  const r = h.it.r, cyc = cycOf(p, x);\n",
    "  const i = p.kind === 'tl' ? issueNear(r, cyc, Math.max(0.5, 5 * (v1 - v0) / plotW(p))) : issueSpanAt(r, Math.floor(cyc));\n",
    "  if (i >= 0) select(r, i, false);\n",
    "}\n",
    "function stateAt(r, cyc) {\n",
    "  const i = lowerBound(r.sTo, cyc + 1e-9);\n",
    "  return i < r.sFrom.length && r.sFrom[i] <= cyc ? i : -1;\n",
    "}\n",
    "function hover(p, ev) {\n",
    "  const rect = p.cv.getBoundingClientRect(), x = ev.clientX - rect.left, y = ev.clientY - rect.top;\n",
    "  if (x < GUT || y < RULER) { hideTip(); return; }\n",
    "  const h = p.itemAt(y);\n",
    "  if (!h || h.it.t !== 'w') { hideTip(); return; }\n",
    "  const r = h.it.r, cyc = Math.floor(cycOf(p, x));\n",
    "  let s = warpName(r) + '\\ncycle ' + fmt(cyc);\n",
    "  if (p.kind === 'tl') {\n",
    "    const i = stateAt(r, cyc);\n",
    "    if (i >= 0) {\n",
    "      const nm = D.states[r.sState[i]];\n",
    "      s += '\\n' + nm + ': cycles ' + fmt(r.sFrom[i]) + '\\u2013' + fmt(r.sTo[i]) + ' (' + fmt(r.sTo[i] - r.sFrom[i]) + ')\\n' + (SC[nm] || ['', ''])[1];\n",
    "      s += '\\nline ' + r.sLine[i] + ': ' + (srcText[r.sLine[i]] || '').trim();\n",
    "    }\n",
    "    const k = issueNear(r, cyc + .5, Math.max(0.5, 3 * (v1 - v0) / plotW(p)));\n",
    "    if (k >= 0) s += '\\nissued at ' + fmt(r.iCyc[k]) + ': ' + instrOf(r, r.iPc[k])[1] + '  (click for details)';\n",
    "  } else {\n",
    "    const k = issueSpanAt(r, cyc);\n",
    "    if (k >= 0) {\n",
    "      s += '\\n' + (r.iCyc[k] === cyc ? 'issues ' : r.iCyc[k] > cyc ? 'waits to issue (at ' + fmt(r.iCyc[k]) + ') ' : 'issued at ' + fmt(r.iCyc[k]) + ' ') + instrOf(r, r.iPc[k])[1] + '\\nactive lanes ' + pop(r.iAct[k]) + ' of ' + pop(r.valid) + (r.iExec[k] !== r.iAct[k] ? ' (' + pop(r.iExec[k]) + ' with a true guard)' : '');\n",
    "      if (laneMode === 'rows') {\n",
    "        const l = Math.floor((h.dy - 16) / laneH());\n",
    "        if (l >= 0 && l < WS) s += '\\nlane ' + l + ': ' + (!((r.valid >>> l) & 1) ? 'not a thread' : (r.iAct[k] >>> l) & 1 ? (r.iCyc[k] !== cyc || (r.iExec[k] >>> l) & 1 ? 'active' : 'active, guard false') : 'off');\n",
    "      }\n",
    "    }\n",
    "  }\n",
    "  showTip(ev, s);\n",
    "}\n",
    "function showTip(ev, s) {\n",
    "  const t = $('tip');\n",
    "  t.textContent = s; t.style.display = 'block';\n",
    "  const w = t.offsetWidth, h = t.offsetHeight;\n",
    "  let x = ev.clientX + 14, y = ev.clientY + 14;\n",
    "  if (x + w > window.innerWidth - 4) x = ev.clientX - w - 10;\n",
    "  if (y + h > window.innerHeight - 4) y = ev.clientY - h - 10;\n",
    "  t.style.left = x + 'px'; t.style.top = y + 'px';\n",
    "}\n",
    "function hideTip() { $('tip').style.display = 'none'; }\n",
    "\n",
    "/* ---- memory records ---- */\n",
    "const memCache = {};\n",
    "function memOf(i) {\n",
    "  if (i < 0) return null;\n",
    "  if (memCache[i]) return memCache[i];\n",
    "  const m = D.M[i];\n",
    "  const mask = m[3] >>> 0, enc = m[4], addr = new Array(WS).fill(null);\n",
    "  let prev = null, j = 2;\n",
    "  for (let l = 0; l < WS; l++) {\n",
    "    if (!((mask >>> l) & 1)) continue;\n",
    "    if (enc[0] === 0) addr[l] = enc[1] + enc[2] * l;\n",
    "    else if (prev === null) addr[l] = enc[1];\n",
    "    else addr[l] = prev + enc[j++];\n",
    "    prev = addr[l];\n",
    "  }\n",
    "  const o = { space: m[0], bytes: m[1], store: m[2] & 1, atomic: (m[2] >> 1) & 1, mask: mask, addr: addr, det: m[5] };\n",
    "  memCache[i] = o;\n",
    "  return o;\n",
    "}\n",
    "\n",
    "/* ---- details ---- */\n",
    "const PAL = ['#4e79a7', '#f28e2b', '#59a14f', '#e15759', '#76b7b2', '#edc948', '#b07aa1', '#ff9da7', '#9c755f', '#bab0ac'];\n",
    "function maskSvg(r, act, ex) {\n",
    "  const bw = Math.min(13, Math.floor(420 / WS)), h = 16;\n",
    "  let s = '<svg width=\"' + (WS * bw + 2) + '\" height=\"' + (h + 14) + '\">';\n",
    "  for (let l = 0; l < WS; l++) {\n",
    "    const x = 1 + l * bw;\n",
    "    const valid = (r.valid >>> l) & 1, a = (act >>> l) & 1, e = (ex >>> l) & 1;\n",
    "    const fill = !valid ? '#eee' : a ? (e ? 'rgb(33,102,172)' : 'rgb(146,197,222)') : '#fff';\n",
    "    s += '<rect x=\"' + x + '\" y=\"1\" width=\"' + (bw - 2) + '\" height=\"' + h + '\" fill=\"' + fill + '\" stroke=\"#777\" stroke-width=\".6\"><title>lane ' + l + ': ' +\n",
    "      (!valid ? 'not a thread' : a ? (e ? 'active, executes' : 'active, guard false') : 'inactive') + '</title></rect>';\n",
    "    if (!valid) s += '<line x1=\"' + x + '\" y1=\"1\" x2=\"' + (x + bw - 2) + '\" y2=\"' + (h + 1) + '\" stroke=\"#bbb\"></line>';\n",
    "    if (l % 8 === 0 || l === WS - 1) s += '<text x=\"' + (x + (bw - 2) / 2) + '\" y=\"' + (h + 12) + '\" font-size=\"9\" text-anchor=\"middle\" fill=\"#666\">' + l + '</text>';\n",
    "  }\n",
    "  return s + '</svg>';\n",
    "}\n",
    "function lanesStrip(mask, colourOf, bw) {\n",
    "  bw = bw || 7;\n",
    "  let s = '<svg width=\"' + (WS * bw + 1) + '\" height=\"11\">';\n",
    "  for (let l = 0; l < WS; l++) {\n",
    "    const on = (mask >>> l) & 1;\n",
    "    s += '<rect x=\"' + (l * bw + .5) + '\" y=\".5\" width=\"' + (bw - 1) + '\" height=\"10\" fill=\"' + (on ? colourOf(l) : '#f2f2f2') + '\" stroke=\"' + (on ? '#555' : '#ddd') + '\" stroke-width=\".5\"><title>lane ' + l + '</title></rect>';\n",
    "  }\n",
    "  return s + '</svg>';\n",
    "}\n",
    "function coalesceView(m) {\n",
    "  const S = D.sector, LB = D.line, det = m.det || [];\n",
    "  const secs = new Map();\n",
    "  for (let l = 0; l < WS; l++) {\n",
    "    const a = m.addr[l];\n",
    "    if (a === null) continue;\n",
    "    const b = Math.max(1, Math.min(32, m.bytes));\n",
    "    for (let s = Math.floor(a / S) * S; s < a + b; s += S) {\n",
    "      if (!secs.has(s)) secs.set(s, 0);\n",
    "      secs.set(s, (secs.get(s) | (1 << l)) >>> 0);\n",
    "    }\n",
    "  }\n",
    "  const keys = Array.from(secs.keys()).sort(function (x, y) { return x - y; });\n",
    "  const lines = new Set(keys.map(function (k) { return Math.floor(k / LB) * LB; }));\n",
    "  const secIdx = {};\n",
    "  keys.forEach(function (k, i) { secIdx[k] = i; });\n",
    "  const laneSec = function (l) { const a = m.addr[l]; return a === null ? -1 : secIdx[Math.floor(a / S) * S]; };\n",
    "  const nsec = det.length ? det[1] : keys.length, nlines = det.length ? det[2] : lines.size;\n",
    "  const nact = pop(m.mask), ideal = Math.max(1, Math.ceil(nact * m.bytes / S));\n",
    "  let h = '<h3>Coalescing map</h3>';\n",
    "  h += '<div class=\"sum\">1 request \\u2192 <b class=\"' + (nsec > ideal ? 'bad' : 'good') + '\">' + nsec + ' sector' + (nsec === 1 ? '' : 's') + '</b> of ' + S + ' B in ' + nlines + ' line' + (nlines === 1 ? '' : 's') + ' of ' + LB + ' B';\n",
    "  if (det.length) h += '<br>' + det[3] + ' B requested, ' + det[5] + ' B moved: ' + (det[5] ? (100 * det[3] / det[5]).toFixed(0) : 0) + '% efficiency (ideal ' + ideal + ' sector' + (ideal === 1 ? '' : 's') + ')';\n",
    "  if (m.space === 4) h += '<br><span class=\"hint\">local memory: per-thread offsets interleaved word by word across the warp, as the memory system places them</span>';\n",
    "  h += '</div>';\n",
    "  h += '<div>lane \\u2192 sector (colour = sector)</div>' + lanesStrip(m.mask, function (l) { return PAL[laneSec(l) % PAL.length]; }, 13);\n",
    "  h += '<table class=\"sec\"><tr><th>sector</th><th>line</th><th>lanes</th><th>#</th></tr>';\n",
    "  keys.slice(0, 64).forEach(function (k, i) {\n",
    "    const lm = secs.get(k);\n",
    "    h += '<tr><td class=\"mono\">' + hex(k) + '</td><td class=\"mono\">' + hex(Math.floor(k / LB) * LB) + '</td><td>' + lanesStrip(lm, function () { return PAL[i % PAL.length]; }) + '</td><td>' + pop(lm) + '</td></tr>';\n",
    "  });\n",
    "  if (keys.length > 64) h += '<tr><td colspan=\"4\">\\u2026 ' + (keys.length - 64) + ' more</td></tr>';\n",
    "  return h + '</table>';\n",
    "}\n",
    "function bankView(m) {\n",
    "  const B = D.banks, BB = D.bankBytes, det = m.det || [];\n",
    "  const wf = det[0] || 1, ideal = det[1] || 1, conf = det[2] || 0, ways = det[3] || 1;\n",
    "  const lw = det[6] || null;\n",
    "  /* lanes per bank; distinct words per bank */\n",
    "  const col = [];\n",
    "  for (let b = 0; b < B; b++) col.push([]);\n",
    "  const words = [];\n",
    "  for (let b = 0; b < B; b++) words.push(new Set());\n",
    "  for (let l = 0; l < WS; l++) {\n",
    "    const a = m.addr[l];\n",
    "    if (a === null) continue;\n",
    "    const w = Math.floor(a / BB), b = w % B;\n",
    "    col[b].push(l); words[b].add(w);\n",
    "  }\n",
    "  let maxStack = 1;\n",
    "  col.forEach(function (c) { if (c.length > maxStack) maxStack = c.length; });\n",
    "  const cw = Math.min(12, Math.floor(400 / B)), bh = maxStack > 24 ? 10 : 12, top = 26;\n",
    "  const H = top + maxStack * bh + 4;\n",
    "  let s = '<svg width=\"' + (B * cw + 34) + '\" height=\"' + H + '\">';\n",
    "  s += '<text x=\"0\" y=\"9\" font-size=\"9\" fill=\"#666\">bank</text><text x=\"0\" y=\"22\" font-size=\"9\" fill=\"#666\">words</text>';\n",
    "  for (let b = 0; b < B; b++) {\n",
    "    const x = 30 + b * cw, nw = words[b].size, hot = nw > 1;\n",
    "    if (hot) s += '<rect x=\"' + x + '\" y=\"' + (top - 14) + '\" width=\"' + cw + '\" height=\"' + (H - top + 14) + '\" fill=\"#f9caca\"></rect>';\n",
    "    if (b % 4 === 0) s += '<text x=\"' + (x + cw / 2) + '\" y=\"9\" font-size=\"8\" text-anchor=\"middle\" fill=\"#666\">' + b + '</text>';\n",
    "    if (nw) s += '<text x=\"' + (x + cw / 2) + '\" y=\"22\" font-size=\"8\" text-anchor=\"middle\" fill=\"' + (hot ? '#b00020' : '#333') + '\" font-weight=\"' + (hot ? 'bold' : 'normal') + '\">' + nw + '</text>';\n",
    "    col[b].forEach(function (l, k) {\n",
    "      const wv = lw ? lw[l] : 0;\n",
    "      const fill = hot ? (wv % 2 ? '#e8807c' : '#c9302c') : '#5e9e5e';\n",
    "      s += '<rect x=\"' + (x + .5) + '\" y=\"' + (top + k * bh) + '\" width=\"' + (cw - 1) + '\" height=\"' + (bh - 1) + '\" fill=\"' + fill + '\" stroke=\"' + (hot ? '#8b0000' : '#4a7a4a') + '\" stroke-width=\".5\"><title>lane ' + l + ': ' + hex(m.addr[l]) + ', word ' + Math.floor(m.addr[l] / BB) + ', bank ' + b + (lw ? ', wavefront ' + (wv + 1) : '') + '</title></rect>';\n",
    "      if (cw >= 11) s += '<text x=\"' + (x + cw / 2) + '\" y=\"' + (top + k * bh + bh - 3) + '\" font-size=\"7\" text-anchor=\"middle\" fill=\"#fff\">' + l + '</text>';\n",
    "    });\n",
    "  }\n",
    "  s += '</svg>';\n",
    "  let h = '<h3>Bank map</h3><div class=\"sum\">' + B + ' banks of ' + BB + ' B: <b class=\"' + (conf ? 'bad' : 'good') + '\">' + wf + ' wavefront' + (wf === 1 ? '' : 's') + '</b> (ideal ' + ideal + ')' +\n",
    "    (conf ? ', ' + conf + ' bank conflict' + (conf === 1 ? '' : 's') + ': <b class=\"bad\">' + ways + '-way</b>' : ': no bank conflict') + '</div>';\n",
    "  h += '<div class=\"hint\">one column per bank, the lanes that hit it stacked; red columns need more than one distinct word' + (lw ? ' (alternating shades: successive wavefronts)' : '') + '; lanes on the same word share it</div>';\n",
    "  return h + s;\n",
    "}\n",
    "function addrTable(m) {\n",
    "  const per = Math.ceil(WS / 4);\n",
    "  let h = '<h3>Lane addresses (' + SPACE[m.space] + ')</h3><table class=\"addr\">';\n",
    "  for (let i = 0; i < per; i++) {\n",
    "    h += '<tr>';\n",
    "    for (let c = 0; c < 4; c++) {\n",
    "      const l = c * per + i;\n",
    "      if (l >= WS) continue;\n",
    "      h += '<td class=\"l\">' + l + '</td><td>' + (m.addr[l] === null ? '\\u2013' : hex(m.addr[l])) + '</td>';\n",
    "    }\n",
    "    h += '</tr>';\n",
    "  }\n",
    "  return h + '</table>';\n",
    "}\n",
    "function select(r, i, fromHash) {\n",
    "  sel = { r: r, i: i };\n",
    "  const pc = r.iPc[i], ins = instrOf(r, pc), act = r.iAct[i], ex = r.iExec[i];\n",
    "  const m = memOf(r.iMem[i]);\n",
    "  let h = '<div class=\"instr\">' + esc(ins[1]) + '</div>';\n",
    "  h += '<table class=\"kv\">';\n",
    "  h += '<tr><td>warp</td><td>' + esc(warpName(r)) + ' (block #' + r.cta + ', slot ' + r.slot + ')</td></tr>';\n",
    "  h += '<tr><td>cycle</td><td>' + fmt(r.iCyc[i]) + '</td></tr>';\n",
    "  h += '<tr><td>pc</td><td>' + pc + ' in ' + esc((D.entries[r.entry] || { name: '' }).name) + '</td></tr>';\n",
    "  h += '<tr><td>line ' + ins[0] + '</td><td class=\"src\">' + esc((srcText[ins[0]] || '').trim()) + '</td></tr>';\n",
    "  h += '</table>';\n",
    "  h += '<div class=\"nav\"><button id=\"dprev\">\\u25c0 previous</button><button id=\"dnext\">next \\u25b6</button><button id=\"dmem\">next memory op</button><button id=\"dzoom\">zoom here</button></div>';\n",
    "  h += '<h3>Active mask: ' + pop(act) + ' of ' + pop(r.valid) + ' lanes' + (ex !== act ? ', ' + pop(ex) + ' with a true guard' : '') + '</h3>';\n",
    "  h += maskSvg(r, act, ex);\n",
    "  h += '<div class=\"hint mono\">active ' + hex(act) + ' \\u00b7 executed ' + hex(ex) + ' \\u00b7 threads ' + hex(r.valid) + '</div>';\n",
    "  if (m) {\n",
    "    const kind = m.atomic ? 'atomic' : m.store ? 'store' : 'load';\n",
    "    h += '<h3>Memory</h3><div class=\"sum\">' + SPACE[m.space] + ' ' + kind + ', ' + m.bytes + ' B per lane, ' + pop(m.mask) + ' lanes</div>';\n",
    "    if (m.space === 1 || m.space === 4) h += coalesceView(m);\n",
    "    else if (m.space === 2) h += bankView(m);\n",
    "    else {\n",
    "      const u = new Set(m.addr.filter(function (a) { return a !== null; }));\n",
    "      h += '<div class=\"sum\">' + u.size + ' distinct address' + (u.size === 1 ? '' : 'es') + (m.space === 3 ? (u.size > 1 ? ': the constant cache serves them one after another' : ': one broadcast') : '') + '</div>';\n",
    "    }\n",
    "    h += addrTable(m);\n",
    "  }\n",
    "  /* the warp's instruction stream around this one: divergence and\n",
    "   * reconvergence read top to bottom */\n",
    "  const h0 = Math.max(0, i - 6), h1 = Math.min(r.iCyc.length, i + 9);\n",
    "  h += '<h3>This warp, instruction by instruction</h3><table class=\"hist\">';\n",
    "  for (let k = h0; k < h1; k++) {\n",
    "    const a = r.iAct[k], e = r.iExec[k];\n",
    "    h += '<tr data-k=\"' + k + '\"' + (k === i ? ' class=\"cur\"' : '') + '><td>' + fmt(r.iCyc[k]) + '</td><td>' + r.iPc[k] + '</td><td class=\"t\">' + esc(instrOf(r, r.iPc[k])[1]) + '</td><td>' +\n",
    "      lanesStrip(a, function (l) { return (e >>> l) & 1 ? 'rgb(33,102,172)' : 'rgb(146,197,222)'; }, 4) + '</td><td>' + pop(a) + '</td></tr>';\n",
    "  }\n",
    "  h += '</table>';\n",
    "  $('detailbody').innerHTML = h;\n",
    "  $('detailbody').querySelectorAll('table.hist tr').forEach(function (tr) {\n",
    "    tr.onclick = function () { select(r, +tr.getAttribute('data-k'), false); };\n",
    "  });\n",
    "  $('dprev').onclick = function () { if (i > 0) select(r, i - 1, false); };\n",
    "  $('dnext').onclick = function () { if (i + 1 < r.iCyc.length) select(r, i + 1, false); };\n",
    "  $('dmem').onclick = function () { for (let k = i + 1; k < r.iCyc.length; k++) if (r.iMem[k] >= 0) { select(r, k, false); return; } };\n",
    "  $('dzoom').onclick = function () { const c = r.iCyc[i]; setView(c - 40, c + 40); };\n",
    "  const c = r.iCyc[i];\n",
    "  if (!fromHash && (c < v0 || c >= v1)) { const s = v1 - v0; setView(c - s / 2, c + s / 2); }\n",
    "  tl.scrollToRow(r); ln.scrollToRow(r);\n",
    "  if (!fromHash) {\n",
    "    try { history.replaceState(null, '', '#sm=' + r.sm + '&block=' + r.cta + '&warp=' + r.warp + '&launch=' + (r.launch + 1) + '&cycle=' + c); } catch (e) { /* file: URLs may refuse */ }\n",
    "  }\n",
    "  redraw();\n",
    "}\n",
    "\n",
    "/* ---- URL hash: preselect an instruction (for labs and screenshots) ----\n",
    " *   #pick=KIND   the first issue of a kind: divergent (fewer lanes active than\n",
    " *                the warp has threads), conflict (the most bank conflicts),\n",
    " *                uncoalesced (the most sectors), global, shared, mem, any\n",
    " *   filters      sm=S block=B (linear) warp=W launch=L pc=P cycle=C (at or after)\n",
    " *   view         zoom=N (N cycles around it), from=A&to=B, lanes=heat, laneh=1|2|3 */\n",
    "function pick(kind, q) {\n",
    "  let best = null, bv = -1;\n",
    "  const launch = q.launch ? +q.launch - 1 : null, c0 = q.cycle !== undefined ? +q.cycle : -Infinity;\n",
    "  rows.forEach(function (r) {\n",
    "    if ((q.sm !== undefined && r.sm !== +q.sm) || (q.block !== undefined && r.cta !== +q.block) ||\n",
    "        (q.warp !== undefined && r.warp !== +q.warp) || (launch !== null && r.launch !== launch)) return;\n",
    "    for (let i = lowerBound(r.iCyc, c0); i < r.iCyc.length; i++) {\n",
    "      if (q.pc !== undefined && r.iPc[i] !== +q.pc) continue;\n",
    "      let v = -1;\n",
    "      const m = r.iMem[i] >= 0 ? D.M[r.iMem[i]] : null;\n",
    "      if (kind === 'divergent') v = r.iAct[i] !== r.valid ? 1 : -1;\n",
    "      else if (kind === 'conflict') v = m && m[0] === 2 && m[5].length ? m[5][2] : -1;\n",
    "      else if (kind === 'uncoalesced') v = m && (m[0] === 1 || m[0] === 4) && m[5].length ? m[5][1] : -1;\n",
    "      else if (kind === 'global') v = m && m[0] === 1 ? 1 : -1;\n",
    "      else if (kind === 'shared') v = m && m[0] === 2 ? 1 : -1;\n",
    "      else if (kind === 'mem') v = m ? 1 : -1;\n",
    "      else v = 1;\n",
    "      if (v < 0) continue;\n",
    "      if (v > bv || (v === bv && r.iCyc[i] < best.r.iCyc[best.i])) { bv = v; best = { r: r, i: i }; }\n",
    "      if (kind !== 'conflict' && kind !== 'uncoalesced') break;\n",
    "    }\n",
    "  });\n",
    "  return best;\n",
    "}\n",
    "function fromHash() {\n",
    "  const q = {};\n",
    "  location.hash.replace(/^#/, '').split('&').forEach(function (kv) { const p = kv.split('='); if (p[0]) q[decodeURIComponent(p[0])] = decodeURIComponent(p[1] || ''); });\n",
    "  if (q.lanes === 'heat') setLanes('heat');\n",
    "  if (q.laneh) setLaneScale(Math.max(1, Math.min(3, +q.laneh | 0)));\n",
    "  if (q.from !== undefined && q.to !== undefined) setView(+q.from, +q.to);\n",
    "  const s = q.pick || q.cycle !== undefined || q.pc !== undefined ? pick(q.pick || 'any', q) : null;\n",
    "  if (s) {\n",
    "    if (q.zoom) { const c = s.r.iCyc[s.i], z = +q.zoom; setView(c - z / 2, c + z / 2); }\n",
    "    select(s.r, s.i, true);\n",
    "  }\n",
    "}\n",
    "if (!rows.length) $('detailbody').innerHTML = '<p id=\"empty\">Nothing was traced in this window.</p>';\n",
    "fromHash();\n",
    "window.addEventListener('hashchange', fromHash);\n",
    "drawNow();\n",
    "})();\n",
    "</script>\n",
    "</body>\n",
    "</html>\n",
    NULL
};
