/* lsu.c - see lsu.h. */
#include "sim/lsu.h"

#include "sim/coalesce.h"
#include "sim/smem.h"

LsuCost lsu_account(const Config *c, const MemAccess *a, uint32_t line, Stats *st)
{
    LsuCost cost = { 1, 0, 0 };
    int op = a->is_store && !a->is_atomic ? 1 : 0;
    if (!a->mask) return cost;
    if (a->space == SP_SHARED) {
        SmemDetail d;
        int w = smem_wavefronts(a, c->smem.banks, c->smem.bank_bytes, c->sm.warp_size, &d);
        if (w < 1) w = 1;
        cost.wavefronts = w;
        st->smem_wavefronts[op] += (uint64_t)w;
        st->smem_conflicts[op] += (uint64_t)d.conflicts;
        if (line <= (uint32_t)st->nlines) {
            st->line[line].wavefronts += (uint64_t)w;
            st->line[line].bank_conflicts += (uint64_t)d.conflicts;
        }
        return cost;
    }
    if (a->space != SP_GLOBAL && a->space != SP_LOCAL) return cost;
    Coalesced co;
    if (a->space == SP_LOCAL) {
        /* Local addresses are per-thread offsets.  Hardware interleaves local
         * memory word by word across a warp's threads, so the same offset in
         * 32 threads is 32 consecutive words: one coalesced request (memsys.c
         * places them the same way). */
        MemAccess il = *a;
        uint64_t ws = (uint64_t)c->sm.warp_size;
        for (int l = 0; l < WARP_MAX; l++)
            if ((a->mask >> l) & 1u) il.addr[l] = (a->addr[l] / 4) * ws * 4 + (uint64_t)l * 4 + a->addr[l] % 4;
        coalesce(&il, c->l1.line_bytes, c->l1.sector_bytes, c->sm.warp_size, &co);
    } else {
        coalesce(a, c->l1.line_bytes, c->l1.sector_bytes, c->sm.warp_size, &co);
    }
    cost.sectors = co.nsectors;
    cost.lines = co.nlines;
    int sp = a->space == SP_LOCAL;
    st->requests[sp][op] += (uint64_t)co.requests;
    st->sectors[sp][op] += (uint64_t)co.nsectors;
    st->bytes_requested += co.bytes_requested;
    st->bytes_moved += co.bytes_moved;
    if (line <= (uint32_t)st->nlines) {
        st->line[line].requests += (uint64_t)co.requests;
        st->line[line].sectors += (uint64_t)co.nsectors;
    }
    return cost;
}
