/* occupancy.c - see occupancy.h. */
#include "sim/timing/occupancy.h"

#include <stdio.h>
#include <string.h>

static int round_up(int v, int unit) { return unit > 1 ? (v + unit - 1) / unit * unit : v; }

const char *occupancy_limiter_name(OccLimiter l)
{
    static const char *const names[] = { "blocks", "warps", "registers", "shared memory" };
    return l < OCC_COUNT ? names[l] : "?";
}

void occupancy_compute(Occupancy *o, const Config *c, int threads, int regs, uint32_t smem, uint64_t grid_blocks)
{
    memset(o, 0, sizeof *o);
    int ws = c->sm.warp_size;
    o->threads_per_block = threads;
    o->warps_per_block = (threads + ws - 1) / ws;
    o->regs_per_thread = regs;
    /* registers are allocated per warp, in units of reg_alloc_unit */
    o->regs_per_warp = round_up(regs * ws, c->sm.reg_alloc_unit);
    /* CC 8.0 and later keep smem.reserved_bytes of every block's shared memory for the system */
    uint32_t need = smem + (uint32_t)c->smem.reserved_bytes;
    o->smem_per_block = need ? (uint32_t)round_up((int)need, c->sm.shared_alloc_unit) : 0;

    int max_warps = c->sm.max_warps;
    if (max_warps * ws > c->sm.max_threads) max_warps = c->sm.max_threads / ws;
    o->limit[OCC_BLOCKS] = c->sm.max_blocks;
    o->limit[OCC_WARPS] = o->warps_per_block ? max_warps / o->warps_per_block : 0;
    o->limit[OCC_REGISTERS] = o->regs_per_warp ? (c->sm.registers / o->regs_per_warp) / o->warps_per_block
                                               : c->sm.max_blocks;
    o->limit[OCC_SHARED] = o->smem_per_block ? (int)(c->sm.shared_bytes / o->smem_per_block) : c->sm.max_blocks;

    if (regs > c->sm.max_regs_per_thread)
        snprintf(o->error, sizeof o->error, "a thread needs %d registers; the SM allows %d per thread (state .nregs or use fewer)",
                 regs, c->sm.max_regs_per_thread);
    else if (o->limit[OCC_WARPS] == 0)
        snprintf(o->error, sizeof o->error, "a block of %d threads needs %d warps; an SM holds %d", threads,
                 o->warps_per_block, max_warps);
    else if (o->limit[OCC_REGISTERS] == 0)
        snprintf(o->error, sizeof o->error, "a block needs %d registers (%d warps x %d); an SM has %d",
                 o->regs_per_warp * o->warps_per_block, o->warps_per_block, o->regs_per_warp, c->sm.registers);
    else if (o->limit[OCC_SHARED] == 0)
        snprintf(o->error, sizeof o->error, "block needs %.4g KiB shared memory; an SM has %.4g KiB",
                 o->smem_per_block / 1024.0, (double)c->sm.shared_bytes / 1024.0);

    o->blocks = o->limit[0];
    o->binding = OCC_BLOCKS;
    for (int i = 1; i < OCC_COUNT; i++)
        if (o->limit[i] < o->blocks) { o->blocks = o->limit[i]; o->binding = (OccLimiter)i; }
    o->active_warps = o->blocks * o->warps_per_block;
    o->theoretical_pct = 100.0 * o->active_warps / (c->sm.max_warps ? c->sm.max_warps : 1);
    if (o->blocks > 0)
        o->waves = (double)grid_blocks / ((double)o->blocks * c->gpu.num_sms);
}
