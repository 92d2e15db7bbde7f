/* schedule.c - list scheduling inside basic blocks (see backend.h).
 *
 * The dependence graph of a block has an edge a -> b (a before b in the
 * source) when b must stay after a:
 *   - registers and predicates: b reads what a writes (true), b writes what
 *     a reads (anti) or what a writes (output); a guard is a read, vector
 *     operands count element by element, a 64-bit register is one register;
 *   - memory, for loads and stores: two loads never conflict; different
 *     state spaces never alias (a generic access may be any space); .nc,
 *     .const and .param loads never conflict with stores; the same base
 *     register (and variable) with non-overlapping constant offsets does not
 *     alias, provided the base is not written between the two; otherwise a
 *     store keeps its order with the loads and stores of its space;
 *   - fences: nothing crosses a barrier (bar, barrier, bar.warp.sync),
 *     membar/fence, an atomic or reduction, a volatile access, a read of
 *     %clock/%clock64, or a warp-synchronous instruction (shfl, vote,
 *     activemask);
 *   - the block's branch, ret or exit stays last.
 * The order is the classic list schedule over a one-issue-per-cycle
 * clock: an instruction is available once its predecessors are placed and
 * their results have arrived (a true dependence waits the producer's
 * latency class, any other one cycle).  Each step takes, among the
 * available instructions, the one with the longest latency-weighted path to
 * the end of the block (so loads rise early and the work that does not need
 * them fills the wait); if none is available yet, the one available
 * soonest.  While the values that wait for their uses fill the register
 * budget, it prefers the one that adds the fewest registers.  The budget,
 * in 32-bit registers (a 64-bit value takes two), is what ptxas aims at:
 * BACKEND_TARGET_REGS per thread, less the reserved ones and the registers
 * the block reads from before it.  Ties go to source order, so the result
 * is deterministic.
 *
 * The rules assume what the PTX memory model assumes: threads that share
 * memory order their accesses with barriers, fences, atomics or volatile
 * accesses; lanes of a warp reading each other's plain stores without one
 * is a data race, whose outcome ptxas does not preserve either.
 */
#include "backend.h"

#include <stdlib.h>
#include <string.h>

enum {
    MAX_BLOCK = 2048,       /* longer blocks keep their source order */
    MIN_BUDGET = 8          /* registers for the block's own values, at least: a floor of the
                               model's own, not measured (a block that keeps more than 22
                               registers from before it would make ptxas spill or exceed 32) */
};
/* A value register's life in a block (schedule_block's budget). */
enum { UNSEEN, LIVE_IN, WRITTEN, REDEFINED, COUNTED, COUNTED_FIXED };

/* 32-bit registers a value register takes (predicates: none). */
static int reg_width(const Entry *e, int r)
{
    return r < e->nregs ? (e->regs[r].bits == 64 ? 2 : 1) : 0;
}

/* Latency weight of a machine class for the critical path. */
static int weight(const Instr *in)
{
    switch ((MClass)in->mclass) {
    case MCLS_FOLDED: return 0;
    case MCLS_GLOBAL: return (in->op == OP_LD) ? 400 : 1;
    case MCLS_SHARED: return (in->op == OP_ST) ? 1 : 30;
    case MCLS_SFU: case MCLS_S2R: return 20;
    case MCLS_CONST: return 10;
    case MCLS_DP: return 8;
    case MCLS_IMUL: case MCLS_FMA: case MCLS_ALU: return 4 + 2 * (in->minst > 1 ? in->minst - 1 : 0);
    default: return 1;
    }
}

static int reads_clock(const Instr *in)
{
    for (int s = 0; s < ISA_MAX_OPS; s++)
        if (in->opd[s].kind == OPD_SREG && (in->opd[s].r[0] == SR_CLOCK || in->opd[s].r[0] == SR_CLOCK64)) return 1;
    return 0;
}

/* Nothing moves across it. */
static int is_fence(const Instr *in)
{
    switch ((Opcode)in->op) {
    case OP_BAR_SYNC: case OP_BARRIER_SYNC: case OP_BAR_ARRIVE: case OP_BARRIER_ARRIVE:
    case OP_BAR_WARP_SYNC: case OP_MEMBAR: case OP_FENCE: case OP_ATOM: case OP_RED:
    case OP_SHFL: case OP_VOTE: case OP_ACTIVEMASK: case OP_BRA: case OP_RET: case OP_EXIT:
    case OP_CALL: case OP_REDUX: case OP_MATCH: case OP_NANOSLEEP:   /* a callee, or warp-synchronous */
    case OP_CP_ASYNC: case OP_CP_ASYNC_COMMIT: case OP_CP_ASYNC_WAIT: case OP_CP_ASYNC_WAIT_ALL:
        return 1;
    case OP_LD: case OP_ST: return (in->flags & IF_VOLATILE) != 0;
    default: return reads_clock(in);
    }
}

typedef struct MemRef {
    int kind;            /* 0 none, 1 load, 2 store */
    int space;
    int never_conflicts; /* .nc, .const, .param load */
    const Operand *addr;
    int bytes;
    uint32_t base_ver;   /* writes of the base register before it in the block */
} MemRef;

static MemRef mem_ref(const Instr *in)
{
    MemRef m = { 0, 0, 0, NULL, 0, 0 };
    if (in->op == OP_LD) { m.kind = 1; m.addr = &in->opd[1]; }
    else if (in->op == OP_ST) { m.kind = 2; m.addr = &in->opd[0]; }
    else return m;
    m.space = in->space;
    m.never_conflicts = m.kind == 1 && (in->space == SP_CONST || in->space == SP_PARAM || (in->flags & IF_NC));
    m.bytes = isa_type_bits((DataType)in->type) / 8 * (in->vec ? in->vec : 1);
    return m;
}

static int may_alias(const MemRef *a, const MemRef *b)
{
    if (a->kind == 1 && b->kind == 1) return 0;
    if (a->never_conflicts || b->never_conflicts) return 0;
    if (a->space != b->space && a->space != SP_NONE && b->space != SP_NONE) return 0;
    const Operand *x = a->addr, *y = b->addr;
    if (x->kind == OPD_MEM && y->kind == OPD_MEM && x->r[0] == y->r[0] && x->sym == y->sym &&
        x->is_param == y->is_param && a->base_ver == b->base_ver) {
        if (x->imm + a->bytes <= y->imm || y->imm + b->bytes <= x->imm) return 0;
    }
    return 1;
}

static int shares(const uint16_t *x, int nx, const uint16_t *y, int ny)
{
    for (int i = 0; i < nx; i++)
        for (int j = 0; j < ny; j++)
            if (x[i] == y[j]) return 1;
    return 0;
}

static int conflict(const Instr *a, const RegUse *ua, const MemRef *ma,
                    const Instr *b, const RegUse *ub, const MemRef *mb)
{
    if (is_fence(a) || is_fence(b)) return 1;
    if (shares(ua->wr, ua->nwr, ub->rd, ub->nrd)) return 1;   /* true */
    if (shares(ua->rd, ua->nrd, ub->wr, ub->nwr)) return 1;   /* anti */
    if (shares(ua->wr, ua->nwr, ub->wr, ub->nwr)) return 1;   /* output */
    if (ma->kind && mb->kind && may_alias(ma, mb)) return 1;
    return 0;
}

/* Base-register versions of a block's memory references. */
static void version_bases(const Entry *e, uint32_t first, int n, const RegUse *use, MemRef *mem, uint32_t *count)
{
    for (int i = 0; i < n; i++) {
        const Operand *o = mem[i].addr;
        if (mem[i].kind && o && o->kind == OPD_MEM && o->r[0] != REG_NONE) mem[i].base_ver = count[o->r[0]];
        for (int k = 0; k < use[i].nwr; k++) count[use[i].wr[k]]++;
    }
    for (int i = 0; i < n; i++) for (int k = 0; k < use[i].nwr; k++) count[use[i].wr[k]] = 0;
    (void)e; (void)first;
}

int backend_depends(const Entry *e, uint32_t a, uint32_t b)
{
    if (a == b) return 0;
    if (a > b) { uint32_t t = a; a = b; b = t; }
    RegUse ua, ub;
    backend_reg_use(e, &e->code[a], &ua);
    backend_reg_use(e, &e->code[b], &ub);
    MemRef ma = mem_ref(&e->code[a]), mb = mem_ref(&e->code[b]);
    /* base versions: writes of each base between a and b */
    if (ma.kind && mb.kind && ma.addr->kind == OPD_MEM && ma.addr->r[0] != REG_NONE) {
        RegUse u;
        for (uint32_t k = a; k < b; k++) {
            backend_reg_use(e, &e->code[k], &u);
            for (int i = 0; i < u.nwr; i++) if (u.wr[i] == ma.addr->r[0]) mb.base_ver++;
        }
    }
    return conflict(&e->code[a], &ua, &ma, &e->code[b], &ub, &mb);
}

/* Schedule one block of n instructions starting at `first`. */
/* live_out: the value registers live after the block (a bitset), or NULL
 * (all of them).  A register read from before the block that is not
 * live-out frees its registers at its last read. */
static int schedule_block(const Entry *e, uint32_t first, int n, uint32_t *order, uint32_t *count,
                          const uint64_t *live_out)
{
    RegUse *use = malloc((size_t)n * sizeof *use);
    MemRef *mem = malloc((size_t)n * sizeof *mem);
    uint16_t *edge = calloc((size_t)n * (size_t)n, sizeof *edge);   /* latency + 1, 0: no edge */
    int64_t *avail = calloc((size_t)n, sizeof *avail);
    int *npred = calloc((size_t)n, sizeof *npred), *height = calloc((size_t)n, sizeof *height);
    int *uses_left = calloc((size_t)n, sizeof *uses_left), *placed = calloc((size_t)n, sizeof *placed);
    int *producer = malloc((size_t)n * BACKEND_MAX_RD * sizeof *producer), *width = malloc((size_t)n * sizeof *width);
    int *old_left = calloc((size_t)e->nregs + 1, sizeof *old_left);   /* reads of a live-in value still to place */
    unsigned char *state = calloc((size_t)e->nregs + 1, 1);
    if (!use || !mem || !edge || !avail || !npred || !height || !uses_left || !placed || !producer || !width || !old_left ||
        !state) {
        free(use); free(mem); free(edge); free(avail); free(npred); free(height); free(uses_left); free(placed); free(producer);
        free(width); free(old_left); free(state);
        return -1;
    }
    const Instr *code = &e->code[first];
    for (int i = 0; i < n; i++) { backend_reg_use(e, &code[i], &use[i]); mem[i] = mem_ref(&code[i]); }
    /* the budget.  A register the block reads from before it is live on
     * entry: if the block writes it again (a loop-carried value) the old
     * value dies at its last read, which the waiting count follows; if not,
     * it stays live all through and its registers are taken from the budget */
    int budget = BACKEND_TARGET_REGS - BACKEND_RESERVED_REGS, waiting = 0;
    for (int i = 0; i < n; i++) {
        for (int k = 0; k < use[i].nrd; k++) {
            int r = use[i].rd[k];
            if (r < e->nregs && (state[r] == LIVE_IN || state[r] == UNSEEN)) { state[r] = LIVE_IN; old_left[r]++; }
        }
        for (int k = 0; k < use[i].nwr; k++) {
            int r = use[i].wr[k];
            if (r < e->nregs && state[r] != REDEFINED) state[r] = state[r] == LIVE_IN ? REDEFINED : WRITTEN;
        }
    }
    for (int i = 0; i < n; i++)
        for (int k = 0; k < use[i].nrd; k++) {
            int r = use[i].rd[k];
            if (r >= e->nregs || state[r] == COUNTED) continue;
            int dies = state[r] == REDEFINED || (state[r] == LIVE_IN && live_out && !(live_out[r / 64] >> (r % 64) & 1));
            if (dies) waiting += reg_width(e, r);
            else if (state[r] == LIVE_IN) budget -= reg_width(e, r);
            if (state[r] != WRITTEN) state[r] = dies ? COUNTED : COUNTED_FIXED;
        }
    if (budget < MIN_BUDGET) budget = MIN_BUDGET;
    for (int i = 0; i < n; i++) {
        width[i] = 0;
        for (int k = 0; k < use[i].nwr; k++) width[i] += reg_width(e, use[i].wr[k]);
    }
    version_bases(e, first, n, use, mem, count);
    for (int j = 0; j < n; j++) {
        for (int i = 0; i < j; i++)
            if (conflict(&code[i], &use[i], &mem[i], &code[j], &use[j], &mem[j])) {
                int lat = shares(use[i].wr, use[i].nwr, use[j].rd, use[j].nrd) ? weight(&code[i]) : 1;
                edge[i * n + j] = (uint16_t)(lat + 1);
                npred[j]++;
            }
        /* the in-block producer of each register j reads, for pressure */
        for (int k = 0; k < use[j].nrd; k++) {
            int p = -1;
            for (int i = j - 1; i >= 0 && p < 0; i--)
                for (int w = 0; w < use[i].nwr; w++) if (use[i].wr[w] == use[j].rd[k]) { p = i; break; }
            producer[j * BACKEND_MAX_RD + k] = p;
            if (p >= 0) uses_left[p]++;
        }
    }
    for (int i = n - 1; i >= 0; i--) {
        int h = 0;
        for (int j = i + 1; j < n; j++) if (edge[i * n + j] && height[j] > h) h = height[j];
        height[i] = h + weight(&code[i]);
    }
    /* waiting: registers of values that still have reads to place */
    int64_t now = 0;    /* issue cycle of the next instruction */
    for (int step = 0; step < n; step++) {
        int best = -1, best_delta = 0, best_ready = 0;
        for (int i = 0; i < n; i++) {
            if (placed[i] || npred[i]) continue;
            int ready = avail[i] <= now;
            int delta = uses_left[i] ? width[i] : 0;
            for (int k = 0; k < use[i].nrd; k++) {
                int p = producer[i * BACKEND_MAX_RD + k], r = use[i].rd[k];
                if (p >= 0 && uses_left[p] == 1) delta -= width[p];
                else if (p < 0 && r < e->nregs && state[r] == COUNTED && old_left[r] == 1) delta -= reg_width(e, r);
            }
            if (best < 0) { best = i; best_delta = delta; best_ready = ready; continue; }
            int better;
            if (waiting >= budget && delta != best_delta) better = delta < best_delta;
            else if (ready != best_ready) better = ready;
            else if (!ready && avail[i] != avail[best]) better = avail[i] < avail[best];
            else better = height[i] > height[best];
            if (better) { best = i; best_delta = delta; best_ready = ready; }
        }
        placed[best] = 1;
        if (avail[best] > now) now = avail[best];
        now += code[best].minst ? 1 : 0;
        order[step] = first + (uint32_t)best;
        if (uses_left[best]) waiting += width[best];
        for (int k = 0; k < use[best].nrd; k++) {
            int p = producer[best * BACKEND_MAX_RD + k], r = use[best].rd[k];
            if (p >= 0 && uses_left[p] > 0 && --uses_left[p] == 0) waiting -= width[p];
            else if (p < 0 && r < e->nregs && state[r] == COUNTED && old_left[r] > 0 && --old_left[r] == 0)
                waiting -= reg_width(e, r);
        }
        for (int j = best + 1; j < n; j++)
            if (edge[best * n + j]) {
                npred[j]--;
                int64_t t = now - (code[best].minst ? 1 : 0) + edge[best * n + j] - 1;
                if (t > avail[j]) avail[j] = t;
            }
    }
    free(use); free(mem); free(edge); free(avail); free(npred); free(height); free(uses_left); free(placed); free(producer);
    free(width); free(old_left); free(state);
    return 0;
}

/* The registers live at the end of each block (backend_liveness):
 * out[b * *words ..]; NULL and *words 0 if the entry is too large to
 * analyse (every register then counts as live after its block). */
static int live_out_sets(const Entry *e, uint64_t **out, int *words)
{
    uint64_t *in = NULL;
    int rc = backend_liveness(e, &in, out);
    free(in);
    *words = rc == 0 ? (e->nregs + e->npreds + 63) / 64 : 0;
    if (*words == 0 && rc == 0) *words = 1;
    return rc < 0 ? -1 : 0;
}

int backend_schedule(const Entry *e, uint32_t *order)
{
    for (int pc = 0; pc < e->ncode; pc++) order[pc] = (uint32_t)pc;
    uint32_t *count = calloc((size_t)(e->nregs + e->npreds + 1), sizeof *count);
    int words = 0;
    uint64_t *live = NULL;
    if (!count || live_out_sets(e, &live, &words)) { free(count); free(live); return -1; }
    for (int b = 0; b < e->nblocks; b++) {
        const BasicBlock *bb = &e->blocks[b];
        int n = (int)(bb->last - bb->first + 1);
        if (n < 2 || n > MAX_BLOCK) continue;
        if (schedule_block(e, bb->first, n, &order[bb->first], count, live ? &live[(size_t)b * words] : NULL)) {
            free(count); free(live); return -1;
        }
    }
    free(count);
    free(live);
    return 0;
}

static int is_control(const Instr *in)
{
    return in->op == OP_BRA || in->op == OP_RET || in->op == OP_EXIT;
}

void backend_entry_points(const Entry *m, uint8_t *entry)
{
    int n = m->ncode;
    memset(entry, 0, (size_t)n + 1);
    entry[0] = 1;
    for (int pc = 0; pc < n; pc++) {
        const Instr *in = &m->code[pc];
        if (in->op != OP_BRA || backend_folded_branch(in, pc)) continue;
        if (in->opd[0].imm >= 0 && in->opd[0].imm <= n) entry[in->opd[0].imm] = 1;
        if (in->reconv <= (uint32_t)n) entry[in->reconv] = 1;
    }
}

int backend_region_last(const Entry *m, const uint8_t *entry, int b)
{
    /* on through a folded branch or a fall-through, unless control can
     * also come to the next block some other way */
    while (b + 1 < m->nblocks && !entry[m->blocks[b + 1].first]) {
        uint32_t end = m->blocks[b].last;
        if (!backend_folded_branch(&m->code[end], (int)end) && is_control(&m->code[end])) break;
        b++;
    }
    return b;
}

int backend_schedule_regions(Entry *m)
{
    int n = m->ncode;
    uint8_t *entry = calloc((size_t)n + 1, 1);
    uint32_t *count = calloc((size_t)(m->nregs + m->npreds + 1), sizeof *count);
    uint32_t *order = malloc(((size_t)n + 1) * sizeof *order), *src = malloc(((size_t)n + 1) * sizeof *src);
    uint32_t *morder = malloc(((size_t)n + 1) * sizeof *morder);
    Instr *scratch = malloc(((size_t)n + 1) * sizeof *scratch), *code = malloc(((size_t)n + 1) * sizeof *code);
    int words = 0;
    uint64_t *live = NULL;
    if (!entry || !count || !order || !src || !morder || !scratch || !code || live_out_sets(m, &live, &words)) {
        free(entry); free(count); free(order); free(src); free(morder); free(scratch); free(code); free(live);
        return -1;
    }
    backend_entry_points(m, entry);
    int merged = 0;
    for (int b = 0; b < m->nblocks; ) {
        int first_b = b, last_b = backend_region_last(m, entry, b);
        uint32_t first = m->blocks[first_b].first, last = m->blocks[last_b].last;
        b = last_b + 1;
        if (last_b == first_b) continue;               /* one block: scheduled already */
        /* the region's instructions without its folded branches, its final
         * branch (if any) last; the folded ones go just before that */
        int nreal = 0, nfold = 0;
        uint32_t fold[64];
        for (uint32_t pc = first; pc <= last; pc++) {
            if (backend_folded_branch(&m->code[pc], (int)pc) && nfold < 64) fold[nfold++] = pc;
            else { src[nreal] = pc; scratch[nreal++] = m->code[pc]; }
        }
        if (nfold == 64 || nreal > MAX_BLOCK) continue;
        Entry view = *m;
        view.code = scratch;
        view.ncode = nreal;
        for (int i = 0; i < nreal; i++) order[i] = (uint32_t)i;
        if (nreal >= 2 && schedule_block(&view, 0, nreal, order, count, live ? &live[(size_t)last_b * words] : NULL)) {
            free(entry); free(count); free(order); free(src); free(morder); free(scratch); free(code); free(live);
            return -1;
        }
        int has_final = is_control(&scratch[order[nreal - 1]]);
        uint32_t pc = first;
        for (int i = 0; i < nreal - has_final; i++) {
            morder[pc] = m->morder[src[order[i]]];
            code[pc++] = scratch[order[i]];
        }
        for (int i = 0; i < nfold; i++) {
            morder[pc] = m->morder[fold[i]];
            code[pc] = m->code[fold[i]];
            code[pc].opd[0].imm = pc + 1;
            code[pc].reconv = pc + 1;
            pc++;
        }
        if (has_final) { morder[pc] = m->morder[src[order[nreal - 1]]]; code[pc++] = scratch[order[nreal - 1]]; }
        for (uint32_t q = first; q <= last; q++) { m->code[q] = code[q]; m->morder[q] = morder[q]; }
        merged++;
    }
    free(entry); free(count); free(order); free(src); free(morder); free(scratch); free(code); free(live);
    return merged;
}
