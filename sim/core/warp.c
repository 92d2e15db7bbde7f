/* warp.c - warp_issue(), the one place where architectural state changes,
 * and block barriers (see warp.h). */
#include "sim/core/warp.h"

#include "sim/core/check.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- issue ------------------------------------------------------------------------ */
static void count(Kernel *k, const Instr *in, LaneMask active, LaneMask exec)
{
    Stats *s = k->stats;
    int n = simt_lanes(active);
    s->inst += k->machine ? in->minst : 1;
    s->ptx_inst++;
    s->thread_inst += (uint64_t)n;
    s->thread_inst_pred_on += (uint64_t)(exec == active ? n : simt_lanes(exec));
    if (in->line <= (uint32_t)s->nlines) {
        s->line[in->line].inst++;
        s->line[in->line].thread_inst += (uint64_t)n;
    }
    if (in->op == OP_LD || in->op == OP_ST) s->mem_inst[in->space][in->op == OP_ST]++;
    else if (in->op == OP_ATOM || in->op == OP_RED) s->atomics[in->space]++;
}

static IssueResult issue_branch(Kernel *k, Warp *w, const Instr *in, uint32_t pc, LaneMask active, LaneMask taken)
{
    Stats *s = k->stats;
    LaneMask not_taken = active & ~taken;
    uint32_t target = (uint32_t)in->opd[0].imm;
    if (k->machine && !in->minst) {   /* if-converted away (isa/ifconv.c): no branch runs */
        simt_advance(&w->simt, target);
        return warp_done(w) ? ISSUE_DONE : ISSUE_OK;
    }
    s->branches++;
    if (!taken || !not_taken || target == pc + 1) {
        s->branch_targets++;
        s->branch_uniform++;
        simt_advance(&w->simt, taken ? target : pc + 1);
    } else {
        s->branch_targets += 2;
        s->branch_divergent++;
        if (in->line <= (uint32_t)s->nlines) s->line[in->line].divergent++;
        simt_diverge(&w->simt, taken, target, not_taken, pc + 1, in->reconv);
        if ((uint64_t)w->simt.max_depth > s->simt_max_depth) s->simt_max_depth = (uint64_t)w->simt.max_depth;
    }
    return warp_done(w) ? ISSUE_DONE : ISSUE_OK;
}

/* ---- device functions ----------------------------------------------------------- */
static uint32_t align8(uint32_t v) { return (v + 7u) & ~7u; }

/* Copy .param src of frame sb to .param dst of frame db, for the lanes in m. */
static void copy_param(const Kernel *k, Warp *w, LaneMask m, const Param *src, uint32_t sb, const Param *dst, uint32_t db)
{
    uint32_t n = src->size < dst->size ? src->size : dst->size;
    for (int l = 0; l < k->warp_size; l++)
        if (m >> l & 1u) {
            uint8_t *lane = w->fmem + (size_t)l * k->frame_stride;
            memmove(lane + db + dst->offset, lane + sb + src->offset, n);
        }
}

/* The callee's registers: saved at the call, given back at its return, so
 * an outer activation of the same .func (recursion) finds its own. */
static void swap_regs(const Kernel *k, Warp *w, const LinkedFunc *lf, CallFrame *f, int save)
{
    uint32_t off = k->row_off[lf->reg_base], nb = k->row_off[lf->reg_base + lf->nregs] - off;
    if (save) {
        f->saved_r = malloc(nb ? nb : 1);
        f->saved_p = malloc(lf->npreds ? (size_t)lf->npreds * sizeof *f->saved_p : 1);
        if (!f->saved_r || !f->saved_p) abort();
        memcpy(f->saved_r, w->rb + off, nb);
        memcpy(f->saved_p, &w->p[lf->pred_base], (size_t)lf->npreds * sizeof *f->saved_p);
    } else {
        memcpy(w->rb + off, f->saved_r, nb);
        memcpy(&w->p[lf->pred_base], f->saved_p, (size_t)lf->npreds * sizeof *f->saved_p);
        free(f->saved_r);
        free(f->saved_p);
    }
}

/* call: the arguments into a new frame, the lanes into the callee. */
static IssueResult issue_call(Kernel *k, Warp *w, const Instr *in, uint32_t pc, LaneMask exec)
{
    if (!exec) { simt_advance(&w->simt, pc + 1); return ISSUE_OK; }
    const Entry *e = k->entry;
    const CallSite *cs = &e->calls[in->opd[1].imm];
    if (cs->func == CALL_VPRINTF) {
        if (exec_vprintf(k, w, in, cs, exec)) return ISSUE_FAULT;
        simt_advance(&w->simt, pc + 1);
        return ISSUE_OK;
    }
    const LinkedFunc *lf = &e->linked[cs->linked];
    if (w->ncalls >= k->max_call_depth) {
        kernel_fault(k, w, -1, FAULT_CALL_DEPTH, "calling %s would nest %d calls deep; "
                     "sm.max_call_depth allows %d (deep or endless recursion?)", cs->name, w->ncalls + 1, k->max_call_depth);
        return ISSUE_FAULT;
    }
    if (w->ncalls == w->capcalls) {
        w->capcalls = w->capcalls ? w->capcalls * 2 : 4;
        w->calls = realloc(w->calls, (size_t)w->capcalls * sizeof *w->calls);
        if (!w->calls) abort();
    }
    CallFrame *f = &w->calls[w->ncalls++];
    *f = (CallFrame){ pc + 1, 0, w->frame_base, w->frame_bytes, (int)in->opd[1].imm, exec, NULL, NULL };
    swap_regs(k, w, lf, f, 1);
    uint32_t base = w->frame_base + align8(w->frame_bytes);
    for (int i = 0; i < cs->nargs; i++)
        copy_param(k, w, exec, &e->params[cs->params[cs->nrets + i]], w->frame_base,
                   &e->params[lf->param_base + cs->nrets + i], base);
    w->frame_base = base;
    w->frame_bytes = lf->frame_bytes;
    f->simt_base = simt_call(&w->simt, exec, lf->pc, pc + 1);
    if ((uint64_t)w->simt.max_depth > k->stats->simt_max_depth) k->stats->simt_max_depth = (uint64_t)w->simt.max_depth;
    return ISSUE_OK;
}

/* The last lanes left the callee: return values to the caller's frame. */
static void finish_call(Kernel *k, Warp *w)
{
    const Entry *e = k->entry;
    CallFrame *f = &w->calls[--w->ncalls];
    const CallSite *cs = &e->calls[f->call];
    const LinkedFunc *lf = &e->linked[cs->linked];
    for (int i = 0; i < cs->nrets; i++)
        copy_param(k, w, f->mask & w->live, &e->params[lf->param_base + i], w->frame_base, &e->params[cs->params[i]], f->caller_base);
    swap_regs(k, w, lf, f, 0);
    w->frame_base = f->caller_base;
    w->frame_bytes = f->caller_bytes;
}

static IssueResult issue_exit(Kernel *k, Warp *w, uint32_t pc, LaneMask exec)
{
    if (!exec) { simt_advance(&w->simt, pc + 1); return ISSUE_OK; }
    w->live &= ~exec;
    simt_exit_lanes(&w->simt, exec, pc + 1);
    /* calls whose lanes have all exited are over */
    while (w->ncalls && w->calls[w->ncalls - 1].simt_base >= w->simt.depth) finish_call(k, w);
    if (warp_done(w)) { w->cta->live_warps--; return ISSUE_DONE; }
    return ISSUE_OK;
}

/* ret: from a .func back to the caller (once all its lanes are back), or,
 * in the kernel itself, the end of the thread. */
static IssueResult issue_ret(Kernel *k, Warp *w, const Instr *in, uint32_t pc, LaneMask exec)
{
    if (!w->ncalls || in->op == OP_EXIT) return issue_exit(k, w, pc, exec);
    if (!exec) { simt_advance(&w->simt, pc + 1); return ISSUE_OK; }
    if (simt_return(&w->simt, w->calls[w->ncalls - 1].simt_base, exec, pc + 1)) finish_call(k, w);
    return ISSUE_OK;
}

/* The barrier number: an immediate, or a register read from the first
 * active lane; PTX allows 0-15. */
static int barrier_id(const Kernel *k, Warp *w, const Instr *in)
{
    const Operand *o = &in->opd[0];
    uint64_t v = (uint64_t)o->imm;
    if (o->kind == OPD_REG) {
        LaneMask a = warp_active(w);
        v = reg_get(k, w, o->r[0], a ? __builtin_ctz(a) : 0);
    }
    return (int)(v & 15u);
}

IssueResult warp_issue(Kernel *k, Warp *w, ExecOut *out)
{
    const Entry *e = k->entry;
    uint32_t pc = warp_pc(w);
    LaneMask active = warp_active(w);
    out->has_mem = 0;
    if (pc >= (uint32_t)e->ncode) {               /* ran off the end: an implicit ret */
        /* one warp instruction, as a ret is (and as ptxas's EXIT at the end
         * of every kernel): the timing model gives it an issue slot, and the
         * SMs' counts, the GPU's and the selected warp-cycles then agree.
         * No PTX instruction runs: ptx_inst and the thread counts stay. */
        k->stats->inst++;
        return issue_exit(k, w, pc, active);
    }
    const Instr *in = &e->code[pc];
    LaneMask exec = active;
    if (in->guard != REG_NONE) {
        LaneMask p = w->p[in->guard];
        exec &= in->guard_neg ? ~p : p;
    }
    out->exec = exec;
    w->issued++;
    count(k, in, active, exec);
    switch ((Opcode)in->op) {
    case OP_BRA:
        return issue_branch(k, w, in, pc, active, exec);
    case OP_RET: case OP_EXIT:
        return issue_ret(k, w, in, pc, exec);
    case OP_CALL:
        return issue_call(k, w, in, pc, exec);
    case OP_BAR_SYNC: case OP_BARRIER_SYNC:
        k->stats->barriers++;
        if (exec != w->live) {
            kernel_fault(k, w, -1, FAULT_BARRIER,
                         "barrier divergence: bar.sync reached by only part of warp %d (active lanes 0x%08x of 0x%08x); "
                         "every thread of the block must reach the same bar.sync", w->id, exec, w->live);
            return ISSUE_FAULT;
        }
        w->at_barrier = 1;
        w->barrier_pc = pc;
        w->barrier_id = barrier_id(k, w, in);
        w->cta->bar_arrived[w->barrier_id] += (uint32_t)k->warp_size;
        simt_advance(&w->simt, pc + 1);
        return ISSUE_BARRIER;
    case OP_BAR_ARRIVE: case OP_BARRIER_ARRIVE:
        w->cta->bar_arrived[barrier_id(k, w, in)] += (uint32_t)k->warp_size;
        simt_advance(&w->simt, pc + 1);
        return ISSUE_ARRIVE;
    default:
        if (exec_instr(k, w, in, exec, out)) return ISSUE_FAULT;
        simt_advance(&w->simt, pc + 1);
        return ISSUE_OK;
    }
}

/* With the checks on (check.h): the register reads before the instruction,
 * its memory access after it, and the cause of a fault. */
IssueResult warp_issue_checked(Kernel *k, Warp *w, ExecOut *out)
{
    uint32_t pc = warp_pc(w);
    LaneMask active = warp_active(w), exec = active;
    if (pc < (uint32_t)k->entry->ncode) {
        const Instr *in = &k->entry->code[pc];
        if (in->guard != REG_NONE) exec &= in->guard_neg ? ~w->p[in->guard] : w->p[in->guard];
    }
    check_before(k, w, pc, active, exec);
    IssueResult r = warp_issue(k, w, out);
    if (r == ISSUE_FAULT) check_explain_fault(k, w, k->fault.lane);
    else check_after(k, w, pc, out);
    return r;
}

/* ---- barriers ----------------------------------------------------------------------- */
/* A blamed barrier fault points at the bar.sync, not at the pc after it. */
static void blame_barrier(Kernel *k, const Warp *w)
{
    k->fault.warp = -1;
    k->fault.pc = kernel_source_pc(k, w->barrier_pc);
    k->fault.line = k->entry->code[w->barrier_pc].line;
}

/* Threads barrier id of this CTA waits for: the b operand of a waiting
 * bar.sync, else every live warp. */
static uint32_t barrier_need(const Kernel *k, const Cta *c, int id)
{
    for (int i = 0; i < c->nwarps; i++) {
        const Warp *w = &c->warps[i];
        if (warp_done(w) || !w->at_barrier || w->barrier_id != id) continue;
        const Instr *in = &k->entry->code[w->barrier_pc];
        if (in->nops > 1 && in->opd[1].kind == OPD_IMM) return (uint32_t)in->opd[1].imm;
    }
    return (uint32_t)(c->live_warps * k->warp_size);
}

static int release(Kernel *k, Cta *c, int id)
{
    const Warp *first = NULL;
    for (int i = 0; i < c->nwarps; i++) {
        Warp *w = &c->warps[i];
        if (warp_done(w) || !w->at_barrier || w->barrier_id != id) continue;
        if (!first) { first = w; continue; }
        if (w->barrier_pc == first->barrier_pc) continue;
        char list[400];
        size_t n = 0;
        for (int j = 0; j < c->nwarps && n < sizeof list - 60; j++) {
            const Warp *x = &c->warps[j];
            if (warp_done(x) || !x->at_barrier || x->barrier_id != id) continue;
            n += (size_t)snprintf(list + n, sizeof list - n, "%swarp %d (lanes 0x%08x) at line %u", n ? ", " : "",
                                  x->id, x->live, k->entry->code[x->barrier_pc].line);
        }
        kernel_fault(k, first, -1, FAULT_BARRIER,
                     "barrier divergence in block (%u,%u,%u): warps wait at different bar.sync instructions: %s",
                     c->id[0], c->id[1], c->id[2], list);
        blame_barrier(k, first);
        return -1;
    }
    for (int i = 0; i < c->nwarps; i++)
        if (c->warps[i].at_barrier && c->warps[i].barrier_id == id) c->warps[i].at_barrier = 0;
    c->bar_arrived[id] = 0;
    c->epoch++;                  /* a new interval for the race check */
    return 1;
}

int cta_barrier_check(Kernel *k, Cta *c)
{
    int released = 0, live = 0, blocked = 0;
    /* warps waiting at each barrier, counted in one pass (releasing one
     * barrier leaves the others' counts as they are), with the live and
     * blocked warps for the deadlock check below (nothing changes them
     * unless a barrier is released, and then it is not made) */
    int waiting[16] = { 0 };
    const Warp *stuck = NULL;
    for (int i = 0; i < c->nwarps; i++) {
        const Warp *w = &c->warps[i];
        if (warp_done(w)) continue;
        live++;
        if (!w->at_barrier) continue;
        waiting[w->barrier_id]++;
        blocked++;
        if (!stuck) stuck = w;
    }
    for (int id = 0; id < 16; id++) {
        if (!waiting[id] || c->bar_arrived[id] < barrier_need(k, c, id)) continue;
        if (release(k, c, id) < 0) return -1;
        released = 1;
    }
    if (released) return 1;
    if (!live || blocked < live) return 0;
    /* Every live warp waits and nothing can complete.  Warps of one
     * barrier at different instructions are divergence, whatever the counts
     * (release() reports it); otherwise the count can never be met. */
    uint32_t need = barrier_need(k, c, stuck->barrier_id);
    for (int i = 0; i < c->nwarps; i++) {
        const Warp *w = &c->warps[i];
        if (!warp_done(w) && w->at_barrier && w->barrier_id == stuck->barrier_id && w->barrier_pc != stuck->barrier_pc)
            return release(k, c, stuck->barrier_id);
    }
    kernel_fault(k, stuck, -1, FAULT_DEADLOCK,
                 "deadlock in block (%u,%u,%u): bar.sync %d waits for %u threads but only %u can arrive",
                 c->id[0], c->id[1], c->id[2], stuck->barrier_id, need, c->bar_arrived[stuck->barrier_id]);
    blame_barrier(k, stuck);
    return -1;
}
