/* trace.c - see trace.h.  Events are kept in memory in arrival order (the
 * simulator's own fixed order) and written at trace_close. */
#include "sim/trace.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct TraceEvent {
    TraceWarp w;
    uint64_t from, to;        /* state interval, or the issue cycle (to = from + 1) */
    int kind;                 /* 0 state, 1 issue */
    int state;                /* StallReason */
    uint32_t line, pc;
    LaneMask active, exec;
} TraceEvent;

struct Trace {
    char *path;
    int html;
    TraceOptions opt;
    int *warps;
    const Program *prog;
    const Config *cfg;
    TraceEvent *ev;
    size_t n, cap;
};

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
    if (!t) return NULL;
    t->path = malloc(len + 1);
    memcpy(t->path, path, len + 1);
    t->html = html;
    t->opt = *o;
    if (o->nwarps > 0) {
        t->warps = malloc((size_t)o->nwarps * sizeof *t->warps);
        memcpy(t->warps, o->warps, (size_t)o->nwarps * sizeof *t->warps);
        t->opt.warps = t->warps;
    }
    t->prog = p;
    t->cfg = c;
    return t;
}

static int wanted(const Trace *t, const TraceWarp *w, uint64_t from, uint64_t to)
{
    if (t->opt.sm >= 0 && w->sm != t->opt.sm) return 0;
    if (to <= t->opt.from || (t->opt.to && from >= t->opt.to)) return 0;
    if (t->opt.nwarps > 0) {
        int found = 0;
        for (int i = 0; i < t->opt.nwarps; i++) found |= t->opt.warps[i] == w->warp;
        if (!found) return 0;
    }
    return 1;
}

static void push(Trace *t, const TraceEvent *e)
{
    if (t->n == t->cap) {
        t->cap = t->cap ? t->cap * 2 : 4096;
        TraceEvent *n = realloc(t->ev, t->cap * sizeof *t->ev);
        if (!n) abort();
        t->ev = n;
    }
    t->ev[t->n++] = *e;
}

void trace_state(Trace *t, const TraceWarp *w, StallReason r, uint64_t from, uint64_t to, uint32_t line)
{
    if (!wanted(t, w, from, to)) return;
    TraceEvent e = { *w, from, to, 0, (int)r, line, 0, 0, 0 };
    push(t, &e);
}

void trace_issue(Trace *t, const TraceWarp *w, uint64_t cycle, uint32_t pc, LaneMask active, LaneMask exec,
                 const MemAccess *mem)
{
    (void)mem;
    if (!wanted(t, w, cycle, cycle + 1)) return;
    uint32_t line = pc < (uint32_t)t->prog->entries[t->prog->launches[w->launch].entry].ncode
                  ? t->prog->entries[t->prog->launches[w->launch].entry].code[pc].line : 0;
    TraceEvent e = { *w, cycle, cycle + 1, 1, STALL_SELECTED, line, pc, active, exec };
    push(t, &e);
}

/* Trace Event Format: one process per SM, one thread per (block, warp);
 * a complete event ("X") per state interval, with the cycle as the
 * microsecond timestamp. */
static void write_json(const Trace *t, FILE *f)
{
    fputs("{\"displayTimeUnit\": \"ns\", \"otherData\": {\"generator\": \"gpusim\", \"time_unit\": \"cycle\"},\n"
          "\"traceEvents\": [\n", f);
    for (size_t i = 0; i < t->n; i++) {
        const TraceEvent *e = &t->ev[i];
        uint64_t tid = e->w.cta * 4096u + (uint64_t)e->w.warp;
        if (e->kind == 0)
            fprintf(f, "%s{\"name\": \"%s\", \"cat\": \"state\", \"ph\": \"X\", \"ts\": %" PRIu64 ", \"dur\": %" PRIu64
                       ", \"pid\": %d, \"tid\": %" PRIu64 ", \"args\": {\"line\": %u}}",
                    i ? ",\n" : "", stall_names[e->state], e->from, e->to - e->from, e->w.sm, tid, e->line);
        else
            fprintf(f, "%s{\"name\": \"issue\", \"cat\": \"issue\", \"ph\": \"i\", \"s\": \"t\", \"ts\": %" PRIu64
                       ", \"pid\": %d, \"tid\": %" PRIu64 ", \"args\": {\"pc\": %u, \"line\": %u, \"active\": \"0x%08x\", \"exec\": \"0x%08x\"}}",
                    i ? ",\n" : "", e->from, e->w.sm, tid, e->pc, e->line, e->active, e->exec);
    }
    fputs("\n]}\n", f);
}

int trace_close(Trace *t)
{
    if (!t) return 0;
    FILE *f = fopen(t->path, "w");
    int rc = -1;
    if (f) {
        write_json(t, f);   /* the HTML viewer embeds the same events (trace.c, html part) */
        rc = fclose(f) == 0 ? 0 : -1;
    }
    free(t->ev);
    free(t->warps);
    free(t->path);
    free(t);
    return rc;
}
