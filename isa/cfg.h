/* cfg.h - control-flow graph and reconvergence points.
 *
 * Splits an entry's code into basic blocks, links them, and computes every
 * block's immediate post-dominator (Cooper, Harvey and Kennedy's iterative
 * algorithm on the reverse graph).  A conditional branch's reconvergence pc
 * is the first pc of its block's immediate post-dominator - where a
 * Fermi-to-Pascal SIMT stack joins the two paths again - or entry->ncode
 * when the paths only meet at thread exit.
 */
#ifndef GPUSIM_CFG_H
#define GPUSIM_CFG_H

#include "isa.h"

/* Fills e->blocks and sets Instr.reconv on every branch. 0 ok, -1 no memory. */
int cfg_build(Entry *e);
/* Block containing pc. */
int cfg_block_of(const Entry *e, uint32_t pc);

#endif
