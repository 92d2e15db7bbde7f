/* sched.c - warp scheduler policies.  sched_keys puts the warps that are due
 * this cycle in the order the policy would issue them; the SM issues the
 * first ready ones.  Ties never arise: every order is a fixed function of
 * slot ages and the last issued warp.  (lrr, gto and oldest are the age
 * order, rotated or led by the last-issued warp: sm.c's turn takes them
 * from a word of age positions instead of these keys, the same order.)
 *
 *   lrr        loose round robin: start after the warp issued last.
 *   gto        greedy then oldest: keep issuing the last warp while it is
 *              ready, otherwise the oldest ready warp.
 *   oldest     always the oldest ready warp.
 *   two_level  only the sched.two_level_active oldest warps not waiting on
 *              long-latency memory (or at a barrier, or draining) compete,
 *              round robin among them.
 */
#include <limits.h>
#include <string.h>

#include "sim/timing/sm.h"

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

void sched_keys(Sm *sm, int si, const int *slots, int n, int *keys, int *ncand)
{
    const Sched *s = &sm->sched[si];
    *ncand = INT_MAX;
    switch (sm->policy) {
    case SCHED_TWO_LEVEL: {
        /* the active pool first, round robin after the last-issued warp,
         * then everyone else by age */
        int pool[WARP_MAX * 64], np = 0, start = 0;
        int limit = sm->cfg->sched.two_level_active;
        for (int i = 0; i < s->n && np < limit; i++) {
            const SmWarp *w = &sm->slots[s->order[i]];
            /* warps waiting on long latency or on others (barrier, drain)
             * leave the pool, so it never fills with warps that cannot go */
            if (w->state != STALL_LONG_SCOREBOARD && w->state != STALL_BARRIER && w->state != STALL_DRAIN &&
                w->state != STALL_MEMBAR && !w->w->at_barrier && !w->finishing)
                pool[np++] = s->order[i];
        }
        for (int i = 0; i < np; i++)
            if (pool[i] == s->last) { start = i + 1; break; }
        for (int i = 0; i < s->n; i++) sm->rank[s->order[i]] = np + i;   /* outside the pool */
        for (int i = 0; i < np; i++) sm->rank[pool[(start + i) % np]] = i;
        for (int i = 0; i < n; i++) keys[i] = sm->rank[slots[i]];
        *ncand = np;
        return;
    }
    case SCHED_GTO: case SCHED_LRR: {
        /* GTO: the last-issued warp first, then by age; LRR: by age from
         * the warp after the last-issued one, wrapping */
        int start = 0, first = -1;
        if (s->last_pos >= 0) {
            if (sm->policy == SCHED_GTO) first = s->order[s->last_pos];
            else start = s->last_pos + 1 == s->n ? 0 : s->last_pos + 1;
        }
        for (int i = 0; i < n; i++) {
            int key = s->pos[slots[i]] - start;
            key += key < 0 ? s->n : 0;
            keys[i] = slots[i] == first ? -1 : key;
        }
        return;
    }
    default:   /* SCHED_OLDEST */
        for (int i = 0; i < n; i++) keys[i] = s->pos[slots[i]];
        return;
    }
}
