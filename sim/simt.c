/* simt.c - see simt.h. */
#include "simt.h"

#include <stdlib.h>

static void push(SimtStack *s, uint32_t pc, uint32_t rpc, LaneMask mask)
{
    if (s->depth == s->cap) {
        s->cap = s->cap ? s->cap * 2 : 8;
        s->e = realloc(s->e, (size_t)s->cap * sizeof *s->e);
        if (!s->e) abort();
    }
    s->e[s->depth++] = (SimtEntry){ pc, rpc, mask };
    if (s->depth > s->max_depth) s->max_depth = s->depth;
}

void simt_init(SimtStack *s, uint32_t pc, LaneMask mask)
{
    s->depth = 0;
    s->max_depth = 0;
    if (mask) push(s, pc, SIMT_NO_RPC, mask);
}

void simt_free(SimtStack *s)
{
    free(s->e);
    s->e = NULL;
    s->depth = s->cap = 0;
}

/* Pop entries whose pc reached their reconvergence point: their lanes are
 * already in the entry below, which continues from that pc. */
static void reconverge(SimtStack *s)
{
    while (s->depth > 1 && simt_top(s)->pc == simt_top(s)->rpc) s->depth--;
}

void simt_advance(SimtStack *s, uint32_t next_pc)
{
    simt_top(s)->pc = next_pc;
    reconverge(s);
}

void simt_diverge(SimtStack *s, LaneMask taken, uint32_t target,
                  LaneMask not_taken, uint32_t fallthrough, uint32_t rpc)
{
    simt_top(s)->pc = rpc;           /* the join: all lanes continue here */
    /* A path that starts at the join has no work (its lanes wait in the
     * join entry): not pushed, so max_depth counts only entries that run. */
    if (target != rpc) push(s, target, rpc, taken);
    if (fallthrough != rpc) push(s, fallthrough, rpc, not_taken);
    reconverge(s);
}

void simt_exit_lanes(SimtStack *s, LaneMask mask, uint32_t next_pc)
{
    if (s->depth == 0) return;
    simt_top(s)->pc = next_pc;
    for (int i = 0; i < s->depth; i++) s->e[i].mask &= ~mask;
    /* drop emptied entries anywhere in the stack, keeping order */
    int w = 0;
    for (int i = 0; i < s->depth; i++)
        if (s->e[i].mask) s->e[w++] = s->e[i];
    s->depth = w;
    reconverge(s);
}
