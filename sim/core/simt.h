/* simt.h - the SIMT reconvergence stack of one warp (Fermi to Pascal style,
 * immediate post-dominator reconvergence).
 *
 * Each entry is (pc, reconvergence pc, lane mask); the top entry is what the
 * warp runs.  A divergent branch turns the top entry into the reconvergence
 * entry (its pc becomes the branch's ipdom) and pushes one entry per path,
 * the taken path below the fall-through path, so the fall-through path runs
 * first.  An entry is popped when its pc reaches its reconvergence pc, or
 * when all its lanes have exited.  Runs at issue, after the instruction.
 */
#ifndef GPUSIM_SIMT_H
#define GPUSIM_SIMT_H

#include <stdint.h>

#include "sim/base/lanes.h"

/* Lanes set in m (lanes.h). */
static inline int simt_lanes(LaneMask m) { return lanes_count(m); }

typedef struct SimtEntry {
    uint32_t pc;
    uint32_t rpc;            /* reconvergence pc; SIMT_NO_RPC for the base entry */
    LaneMask mask;
} SimtEntry;

#define SIMT_NO_RPC 0xffffffffu
#define SIMT_CALL_RPC 0xfffffffeu   /* a called .func's first entry: ends when its lanes ret */

#define SIMT_IN_PLACE 4

typedef struct SimtStack {
    SimtEntry *e;            /* in_place until the stack grows deeper */
    int depth;
    SimtEntry in_place[SIMT_IN_PLACE];   /* shallow stacks need no allocation, and the
                                            top entry sits beside the warp's other state */
    int cap;
    int max_depth;           /* deepest nesting seen, for reports */
} SimtStack;

/* s is zeroed or freed; it must not be copied once initialised (e may
 * point into it). */
void simt_init(SimtStack *s, uint32_t pc, LaneMask mask);
void simt_free(SimtStack *s);
static inline SimtEntry *simt_top(SimtStack *s) { return &s->e[s->depth - 1]; }

/* After a non-branch instruction (or a uniform branch): the top entry moves
 * to next_pc; entries that reached their reconvergence pc are popped. */
void simt_advance(SimtStack *s, uint32_t next_pc);
/* After a branch whose lanes split into taken (-> target) and not taken
 * (-> fallthrough); both masks non-empty. */
void simt_diverge(SimtStack *s, LaneMask taken, uint32_t target,
                  LaneMask not_taken, uint32_t fallthrough, uint32_t rpc);
/* Lanes in mask have exited: remove them everywhere, pop empty entries.
 * next_pc is where the surviving lanes of the top entry continue. */
void simt_exit_lanes(SimtStack *s, LaneMask mask, uint32_t next_pc);
/* A call by the lanes in mask: the top entry waits at ret_pc (the join:
 * lanes that did not call wait there too) and the callee runs from target.
 * Returns the stack index of the callee's entry. */
int simt_call(SimtStack *s, LaneMask mask, uint32_t target, uint32_t ret_pc);
/* Lanes in mask return from the .func whose first entry is at index base:
 * they leave every entry from base up.  Returns 1 when no lane is left in
 * the function (the top entry is then the join, at the return pc). */
int simt_return(SimtStack *s, int base, LaneMask mask, uint32_t next_pc);
/* No lanes left at all. */
static inline int simt_done(const SimtStack *s) { return s->depth == 0; }

#endif
