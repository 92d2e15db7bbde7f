/* stats.c - see stats.h. */
#include "sim/base/stats.h"

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

double stats_simd_efficiency(const Stats *s, int warp_size)
{
    /* thread_inst counts lanes per PTX instruction, whatever core.schedule is */
    if (!s->ptx_inst || warp_size <= 0) return 0.0;
    return 100.0 * (double)s->thread_inst / ((double)s->ptx_inst * warp_size);
}
