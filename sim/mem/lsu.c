/* lsu.c - see lsu.h. */
#include "sim/mem/lsu.h"

#include "sim/mem/coalesce.h"
#include "sim/mem/smem.h"

/* Remember how far apart the first two active lanes' addresses were, so the
 * report can say why a line conflicts or does not coalesce. */
static void note_stride(LineStats *ls, const MemAccess *a, uint64_t now)
{
    if (ls->stride_seen) return;
    int first = -1;
    for (int l = 0; l < WARP_MAX; l++) {
        if (!((a->mask >> l) & 1u)) continue;
        if (first < 0) { first = l; continue; }
        ls->lane_stride = ((int64_t)a->addr[l] - (int64_t)a->addr[first]) / (l - first);
        ls->mem_bytes = a->bytes;
        ls->stride_seen = 1;
        ls->stride_at = now;
        return;
    }
}

/* The common case first: a 4-byte (or narrower) access in which no two
 * lanes touch different words of one bank is one wavefront, no conflict
 * (broadcasts included).  Returns 0 when the full model must decide. */
static int conflict_free(const MemAccess *a, int banks, int bank_bytes, int warp_size)
{
    if (a->bytes > 4 || bank_bytes != 4 || banks > 64) return 0;
    /* Quick test: distinct words within one aligned run of `banks` words
     * lie in distinct banks, so only equal words (broadcasts) share one.
     * Covers the usual row and broadcast accesses without a bank table. */
    if ((banks & (banks - 1)) == 0) {
        LaneMask full = warp_size >= 32 ? 0xffffffffu : (1u << warp_size) - 1;
        uint64_t w0 = a->addr[__builtin_ctz(a->mask)] / 4, diff = 0;
        if (a->mask == full) for (int l = 0; l < warp_size; l++) diff |= (a->addr[l] / 4) ^ w0;
        else for (LaneMask m = a->mask; m; m &= m - 1) diff |= (a->addr[__builtin_ctz(m)] / 4) ^ w0;
        if (diff < (uint64_t)banks) return 1;
    }
    uint64_t used = 0, word_of[64];
    for (LaneMask m = a->mask; m; m &= m - 1) {
        uint64_t w = a->addr[__builtin_ctz(m)] / 4;
        int b = (int)(w % (uint64_t)banks);
        if ((used >> b) & 1u) { if (word_of[b] != w) return 0; }
        else { used |= 1ull << b; word_of[b] = w; }
    }
    return 1;
}

LsuCost lsu_account(const Config *c, const MemAccess *a, uint32_t line, Stats *st, Coalesced *co)
{
    LsuCost cost = { 1, 0, 0, 0 };
    /* Nsight counts shared atomics apart (op_atom): the H100's histogram256
     * and radix_digit_hist show only their plain loads under op_ld */
    int op = a->is_atomic ? 2 : a->is_store ? 1 : 0;
    if (!a->mask) return cost;
    if (a->space == SP_SHARED) {
        int w = 1, ideal = 1;
        if (a->is_atomic || !conflict_free(a, c->smem.banks, c->smem.bank_bytes, c->sm.warp_size))
            w = smem_wavefronts_ideal(a, c->smem.banks, c->smem.bank_bytes, c->sm.warp_size, &ideal);
        int conflicts = w > ideal ? w - ideal : 0;
        if (w < 1) w = 1;
        cost.wavefronts = w;
        st->smem_wavefronts[op] += (uint64_t)w;
        st->smem_conflicts[op] += (uint64_t)conflicts;
        if (line <= (uint32_t)st->nlines) {
            st->line[line].wavefronts += (uint64_t)w;
            st->line[line].bank_conflicts += (uint64_t)conflicts;
            if (conflicts) note_stride(&st->line[line], a, st->now);
        }
        return cost;
    }
    /* atomics are neither loads nor stores to Nsight (op_atom / op_red) */
    if ((a->space != SP_GLOBAL && a->space != SP_LOCAL) || a->is_atomic) return cost;
    Coalesced scratch;
    if (!co) co = &scratch;
    if (a->space == SP_LOCAL) {
        /* Local addresses are per-thread offsets.  Hardware interleaves local
         * memory word by word across a warp's threads, so the same offset in
         * 32 threads is 32 consecutive words: one coalesced request (memsys.c
         * places them the same way). */
        MemAccess il = *a;
        uint64_t ws = (uint64_t)c->sm.warp_size;
        for (int l = 0; l < WARP_MAX; l++)
            if ((a->mask >> l) & 1u) il.addr[l] = (a->addr[l] / 4) * ws * 4 + (uint64_t)l * 4 + a->addr[l] % 4;
        coalesce(&il, c->l1.line_bytes, c->l1.sector_bytes, c->sm.warp_size, co);
    } else {
        coalesce(a, c->l1.line_bytes, c->l1.sector_bytes, c->sm.warp_size, co);
        cost.coalesced = 1;
    }
    cost.sectors = co->nsectors;
    cost.lines = co->nlines;
    int sp = a->space == SP_LOCAL;
    st->requests[sp][op] += (uint64_t)co->requests;
    st->sectors[sp][op] += (uint64_t)co->nsectors;
    st->bytes_requested += co->bytes_requested;
    st->bytes_moved += co->bytes_moved;
    st->bytes_unique += co->bytes_unique;
    if (line <= (uint32_t)st->nlines) {
        LineStats *ls = &st->line[line];
        /* perfectly coalesced: the active lanes' bytes packed into sectors */
        uint64_t ideal = (co->bytes_requested + (uint32_t)c->l1.sector_bytes - 1) / (uint32_t)c->l1.sector_bytes;
        ls->requests += (uint64_t)co->requests;
        ls->sectors += (uint64_t)co->nsectors;
        ls->ideal_sectors += ideal;
        if ((uint64_t)co->nsectors > ideal && a->space == SP_GLOBAL) note_stride(ls, a, st->now);
    }
    return cost;
}
