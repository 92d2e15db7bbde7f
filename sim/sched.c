/* sched.c - warp scheduler policies.  Each returns its warps in the order it
 * would issue them; the SM issues the first ready ones.  Ties never arise:
 * every order is a fixed function of slot ages and the last issued warp.
 *
 *   lrr        loose round robin: start after the warp issued last.
 *   gto        greedy then oldest: keep issuing the last warp while it is
 *              ready, otherwise the oldest ready warp.
 *   oldest     always the oldest ready warp.
 *   two_level  only the sched.two_level_active oldest warps not waiting on
 *              long-latency memory (or at a barrier, or draining) compete,
 *              round robin among them.
 */
#include <string.h>

#include "sim/sm.h"

void sched_add(Sched *s, int slot)
{
    s->pos[slot] = s->n;          /* ages increase: stays sorted */
    s->order[s->n++] = slot;
}

void sched_remove(Sched *s, int slot)
{
    for (int i = 0; i < s->n; i++)
        if (s->order[i] == slot) {
            memmove(&s->order[i], &s->order[i + 1], (size_t)(s->n - i - 1) * sizeof s->order[0]);
            s->n--;
            for (int k = i; k < s->n; k++) s->pos[s->order[k]] = k;
            /* keep the cached position of the last-issued warp right */
            if (s->last_pos == i) s->last_pos = -1;
            else if (s->last_pos > i) s->last_pos--;
            return;
        }
}

static int rotate_after(const Sched *s, const int *in, int n, int *out)
{
    int start = 0;
    for (int i = 0; i < n; i++)
        if (in[i] == s->last) { start = i + 1; break; }
    for (int i = 0; i < n; i++) out[i] = in[(start + i) % n];
    return n;
}

int sched_order(const Sm *sm, int si, int *out, int *ncand)
{
    const Sched *s = &sm->sched[si];
    *ncand = s->n;
    switch (sm->cfg->sched.policy) {
    case SCHED_LRR:
        return rotate_after(s, s->order, s->n, out);
    case SCHED_GTO: {
        int n = 0, pos = -1;
        for (int i = 0; i < s->n; i++) if (s->order[i] == s->last) pos = i;
        if (pos >= 0) out[n++] = s->last;
        for (int i = 0; i < s->n; i++) if (i != pos) out[n++] = s->order[i];
        return n;
    }
    case SCHED_TWO_LEVEL: {
        /* the active pool first (round robin), then everyone else */
        int active[WARP_MAX * 64], na = 0, n = 0;
        int limit = sm->cfg->sched.two_level_active;
        for (int i = 0; i < s->n && na < limit; i++) {
            const SmWarp *w = &sm->slots[s->order[i]];
            /* warps waiting on long latency or on others (barrier, drain)
             * leave the pool, so it never fills with warps that cannot go */
            if (w->state != STALL_LONG_SCOREBOARD && w->state != STALL_BARRIER && w->state != STALL_DRAIN &&
                w->state != STALL_MEMBAR && !w->w->at_barrier && !w->finishing)
                active[na++] = s->order[i];
        }
        n = rotate_after(s, active, na, out);
        *ncand = na;
        for (int i = 0; i < s->n; i++) {
            int in_pool = 0;
            for (int k = 0; k < na; k++) if (active[k] == s->order[i]) in_pool = 1;
            if (!in_pool) out[n++] = s->order[i];
        }
        return n;
    }
    default:   /* SCHED_OLDEST */
        memcpy(out, s->order, (size_t)s->n * sizeof *out);
        return s->n;
    }
}
