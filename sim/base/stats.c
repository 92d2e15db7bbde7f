/* stats.c - see stats.h. */
#include "sim/base/stats.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#define X(e, n) [e] = n,
const char *const stall_names[STALL_COUNT] = { STALL_REASONS(X) };
#undef X

int stats_init(Stats *s, int nlines, int nsms)
{
    memset(s, 0, sizeof *s);
    s->line = calloc((size_t)nlines + 1, sizeof *s->line);
    s->nlines = nlines;
    s->sm = calloc((size_t)(nsms > 0 ? nsms : 1), sizeof *s->sm);
    s->nsms = nsms;
    return s->line && s->sm ? 0 : -1;
}

void stats_free(Stats *s)
{
    free(s->line);
    free(s->sm);
    free(s->printf_text);
    s->line = NULL;
    s->sm = NULL;
    s->printf_text = NULL;
    s->printf_len = s->printf_cap = 0;
}

/* Every counter before `line` is a uint64_t that is only added to, except
 * simt_max_depth; in LineStats, every field before lane_stride. */
_Static_assert(offsetof(Stats, line) % sizeof(uint64_t) == 0, "Stats counters are uint64_t");
_Static_assert(offsetof(LineStats, lane_stride) % sizeof(uint64_t) == 0, "LineStats counters are uint64_t");

static void add_words(void *into, const void *from, size_t bytes)
{
    uint64_t *d = into;
    const uint64_t *s = from;
    for (size_t i = 0; i < bytes / sizeof *d; i++) d[i] += s[i];
}

void stats_merge(Stats *into, const Stats *from)
{
    uint64_t depth = into->simt_max_depth > from->simt_max_depth ? into->simt_max_depth : from->simt_max_depth;
    add_words(into, from, offsetof(Stats, line));
    into->simt_max_depth = depth;
    for (int i = 0; i <= into->nlines && i <= from->nlines; i++) {
        LineStats *d = &into->line[i];
        const LineStats *s = &from->line[i];
        add_words(d, s, offsetof(LineStats, lane_stride));
        if (s->stride_seen && (!d->stride_seen || s->stride_at < d->stride_at)) {
            d->lane_stride = s->lane_stride;
            d->mem_bytes = s->mem_bytes;
            d->stride_seen = 1;
            d->stride_at = s->stride_at;
        }
    }
}

double stats_simd_efficiency(const Stats *s, int warp_size)
{
    /* thread_inst counts lanes per PTX instruction, whatever core.schedule is */
    if (!s->ptx_inst || warp_size <= 0) return 0.0;
    return 100.0 * (double)s->thread_inst / ((double)s->ptx_inst * warp_size);
}
