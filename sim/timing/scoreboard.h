/* scoreboard.h - register dependencies of each instruction, and the
 * per-warp scoreboard that holds an instruction back while a register it
 * reads or writes has a write in flight.
 *
 * Knows instruction metadata only: which registers an instruction reads and
 * writes (precomputed once per entry), never what it computes.  A pending
 * register records when its value arrives and what kind of producer it
 * waits on, which names the stall (wait / short_scoreboard /
 * long_scoreboard).  Checked by the scheduler every cycle; written at issue.
 */
#ifndef GPUSIM_SCOREBOARD_H
#define GPUSIM_SCOREBOARD_H

#include <stdint.h>

#include "isa/isa.h"
#include "sim/base/config.h"
#include "sim/base/stats.h"

#define SB_NEVER UINT64_MAX          /* pending until an event releases it */

typedef enum PendKind { PEND_FIXED, PEND_SHORT, PEND_LONG, PEND_IMC } PendKind;

/* Registers are numbered value registers first, then predicates
 * (nregs + index). */
typedef struct Deps {
    uint16_t reg[12];    /* reads, then writes */
    uint8_t bit[12];     /* each one's bit in Scoreboard.pending */
    uint8_t nread, nwrite;
    uint8_t posted;      /* a global reduction nobody waits for (red, or atom whose result is never read) */
    uint64_t bits;       /* 1 << bit[i] of every register in reg[] */
} Deps;

/* A register's pending bit: its own for 63 of them, one shared bit (63)
 * for the rest.  deps_build gives their own bits to the 63 registers its
 * instructions name most often (nvcc declares a hundred registers or more
 * per kernel, its 64-bit addresses and predicates last); bit 63 is never
 * cleared, so a register on it is always looked up. */
#define SB_SHARED_BIT 63

/* deps[pc] for every instruction of e; NULL if out of memory. */
Deps *deps_build(const Entry *e);

typedef struct Scoreboard {
    uint64_t *ready;     /* cycle at which the register's pending value lands */
    uint8_t *kind;       /* PendKind of that write */
    /* Registers that may still have a write in flight (Deps.bit): set by
     * scoreboard_set, cleared when a check finds the value landed (never
     * the shared bit).  A clear bit means ready <= now, so checks skip
     * reading ready[]. */
    uint64_t pending;
} Scoreboard;

int scoreboard_init(Scoreboard *s, int nregs);
/* s as scoreboard_init(s, nregs) leaves it, on the arrays it has (a warp
 * slot's next warp of a launch: no allocation).  s is zeroed (no arrays:
 * they are allocated) or was set up for the same nregs.  0, or -1 if out
 * of memory. */
int scoreboard_reset(Scoreboard *s, int nregs);
void scoreboard_free(Scoreboard *s);
/* First register of d (reads and writes) still pending at `now`, or -1. */
static inline int scoreboard_blocking(Scoreboard *s, const Deps *d, uint64_t now)
{
    if (!(s->pending & d->bits)) return -1;
    for (int i = 0; i < d->nread + d->nwrite; i++) {
        int r = d->reg[i], b = d->bit[i];
        if (b != SB_SHARED_BIT && !(s->pending >> b & 1)) continue;
        if (s->ready[r] > now) return r;
        if (b != SB_SHARED_BIT) s->pending &= ~(1ull << b);   /* landed: no need to look again */
    }
    return -1;
}
static inline StallReason scoreboard_reason(const Scoreboard *s, int reg)
{
    return s->kind[reg] == PEND_LONG ? STALL_LONG_SCOREBOARD
         : s->kind[reg] == PEND_SHORT ? STALL_SHORT_SCOREBOARD
         : s->kind[reg] == PEND_IMC ? STALL_IMC_MISS : STALL_WAIT;
}
/* Mark d's writes pending until `ready`. */
static inline void scoreboard_set(Scoreboard *s, const Deps *d, uint64_t ready, PendKind k)
{
    for (int i = d->nread; i < d->nread + d->nwrite; i++) {
        s->ready[d->reg[i]] = ready;
        s->kind[d->reg[i]] = (uint8_t)k;
        s->pending |= 1ull << d->bit[i];
    }
}

#endif
