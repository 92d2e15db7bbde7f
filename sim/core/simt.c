/* simt.c - see simt.h. */
#include "sim/core/simt.h"

#include <stdlib.h>
#include <string.h>

static void push(SimtStack *s, uint32_t pc, uint32_t rpc, LaneMask mask)
{
    if (s->depth == s->cap) {
        int cap = s->cap * 2;
        SimtEntry *e = s->e == s->in_place ? malloc((size_t)cap * sizeof *e)
                                           : realloc(s->e, (size_t)cap * sizeof *e);
        if (!e) abort();
        if (s->e == s->in_place) memcpy(e, s->in_place, sizeof s->in_place);
        s->e = e;
        s->cap = cap;
    }
    s->e[s->depth++] = (SimtEntry){ pc, rpc, mask };
    if (s->depth > s->max_depth) s->max_depth = s->depth;
}

void simt_init(SimtStack *s, uint32_t pc, LaneMask mask)
{
    s->e = s->in_place;
    s->cap = SIMT_IN_PLACE;
    s->depth = 0;
    s->max_depth = 0;
    if (mask) push(s, pc, SIMT_NO_RPC, mask);
}

void simt_free(SimtStack *s)
{
    if (s->e != s->in_place) free(s->e);
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

int simt_call(SimtStack *s, LaneMask mask, uint32_t target, uint32_t ret_pc)
{
    simt_top(s)->pc = ret_pc;
    push(s, target, SIMT_CALL_RPC, mask);
    return s->depth - 1;
}

int simt_return(SimtStack *s, int base, LaneMask mask, uint32_t next_pc)
{
    simt_top(s)->pc = next_pc;
    int w = base;
    for (int i = base; i < s->depth; i++) {
        s->e[i].mask &= ~mask;
        if (s->e[i].mask) s->e[w++] = s->e[i];
    }
    s->depth = w;
    if (w > base) { reconverge(s); return 0; }
    reconverge(s);   /* the join may itself be at its reconvergence pc */
    return 1;
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
