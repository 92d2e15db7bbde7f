/* grow.h - room for one more element in a growing array: the logs and
 * queues the engine fills a cycle at a time (held stores, a lane's inbox,
 * printf lines).  Doubles the capacity (from `first`) when n has reached
 * it; on running out of memory the run cannot go on, so it says so and
 * exits (the simulator never continues with a silently wrong number). */
#ifndef GPUSIM_GROW_H
#define GPUSIM_GROW_H

#include <stdio.h>
#include <stdlib.h>

/* p with room for element n (n <= *cap): p itself, or a larger copy. */
static inline void *grow_for_one(void *p, int *cap, int n, size_t elem, int first)
{
    if (n < *cap) return p;
    int c = *cap ? 2 * *cap : first;
    void *q = realloc(p, (size_t)c * elem);
    if (!q) {
        fputs("gpusim: out of memory\n", stderr);
        exit(1);
    }
    *cap = c;
    return q;
}

#endif
