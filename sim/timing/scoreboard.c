/* scoreboard.c - see scoreboard.h. */
#include "sim/timing/scoreboard.h"
#include "isa/backend.h"

#include <stdlib.h>
#include <string.h>

static void add(Deps *d, int is_write, int reg)
{
    if (d->nread + d->nwrite >= 12) return;
    if (!is_write) {
        /* reads come first: shift the writes up */
        memmove(&d->reg[d->nread + 1], &d->reg[d->nread], (size_t)d->nwrite * sizeof d->reg[0]);
        d->reg[d->nread++] = (uint16_t)reg;
    } else {
        d->reg[d->nread + d->nwrite++] = (uint16_t)reg;
    }
}

static void add_operand(Deps *d, const Entry *e, const Operand *o, int is_write)
{
    switch ((OperandKind)o->kind) {
    case OPD_REG: add(d, is_write, o->r[0]); break;
    case OPD_PRED: add(d, is_write, e->nregs + o->r[0]); break;
    case OPD_MEM: if (o->r[0] != REG_NONE) add(d, 0, o->r[0]); break;
    case OPD_VEC:
        for (int i = 0; i < o->n; i++)
            if (o->r[i] != REG_NONE) add(d, is_write, o->r[i]);
        break;
    default: break;
    }
}

/* Which operand slots an instruction writes: its destination (slot 0)
 * except for stores, reductions and the no-destination formats; and the
 * second predicate destination of setp/shfl (slot 5). */
static int writes_slot(const Instr *in, int slot)
{
    Format f = isa_ops[in->op].format;
    if (slot == 5) return 1;
    if (slot != 0) return 0;
    return !(f == FMT_ST || f == FMT_RED || f == FMT_BRA || f == FMT_BAR || f == FMT_MASK || f == FMT_NONE);
}

/* A register and how many operands name it, for deps_build's ranking:
 * most named first, the lower number first among equals. */
typedef struct RegCount { int reg, uses; } RegCount;

static int by_uses(const void *a, const void *b)
{
    const RegCount *x = a, *y = b;
    if (x->uses != y->uses) return x->uses > y->uses ? -1 : 1;
    return (x->reg > y->reg) - (x->reg < y->reg);
}

Deps *deps_build(const Entry *e)
{
    Deps *deps = calloc((size_t)(e->ncode ? e->ncode : 1), sizeof *deps);
    if (!deps) return NULL;
    for (int pc = 0; pc < e->ncode; pc++) {
        const Instr *in = &e->code[pc];
        Deps *d = &deps[pc];
        if (in->guard != REG_NONE) add(d, 0, e->nregs + in->guard);
        for (int s = 0; s < ISA_MAX_OPS; s++) {
            if (in->opd[s].kind == OPD_NONE) continue;
            add_operand(d, e, &in->opd[s], writes_slot(in, s));
        }
    }
    /* Pending bits: their own to the 63 registers named most often (ties:
     * the lower number), the shared one to the rest. */
    int n = e->nregs + e->npreds;
    RegCount *u = calloc((size_t)(n ? n : 1), sizeof *u);
    uint8_t *bit = malloc((size_t)(n ? n : 1));
    if (!u || !bit) { free(u); free(bit); free(deps); return NULL; }
    for (int r = 0; r < n; r++) u[r].reg = r;
    for (int pc = 0; pc < e->ncode; pc++)
        for (int i = 0; i < deps[pc].nread + deps[pc].nwrite; i++) u[deps[pc].reg[i]].uses++;
    qsort(u, (size_t)n, sizeof *u, by_uses);
    for (int k = 0; k < n; k++) bit[u[k].reg] = (uint8_t)(k < SB_SHARED_BIT ? k : SB_SHARED_BIT);
    for (int pc = 0; pc < e->ncode; pc++) {
        Deps *d = &deps[pc];
        for (int i = 0; i < d->nread + d->nwrite; i++) {
            d->bit[i] = bit[d->reg[i]];
            d->bits |= 1ull << d->bit[i];
        }
    }
    free(u);
    free(bit);
    /* Posted reductions: a global red, or an atom whose result no
     * instruction reads (ptxas makes it a RED): the warp goes on without
     * waiting for it and may retire before it is done, as on the H100
     * (tests/validation/h100/measured/red_retire_ncu.csv).  The unread
     * result is not tracked. */
    uint8_t *read = backend_regs_read(e);
    if (!read) { free(deps); return NULL; }
    for (int pc = 0; pc < e->ncode; pc++) {
        const Instr *in = &e->code[pc];
        Deps *d = &deps[pc];
        if (!backend_posted(in, read)) continue;
        d->posted = 1;
        if (in->op == OP_ATOM && d->nwrite == 1) {
            d->nwrite = 0;
            d->bits = 0;
            for (int i = 0; i < d->nread; i++) d->bits |= 1ull << d->bit[i];
        }
    }
    free(read);
    return deps;
}

int scoreboard_init(Scoreboard *s, int n)
{
    s->pending = 0;
    s->ready = calloc((size_t)(n ? n : 1), sizeof *s->ready);
    s->kind = calloc((size_t)(n ? n : 1), 1);
    return s->ready && s->kind ? 0 : -1;
}

int scoreboard_reset(Scoreboard *s, int n)
{
    if (!s->ready || !s->kind) {
        scoreboard_free(s);
        return scoreboard_init(s, n);
    }
    s->pending = 0;
    memset(s->ready, 0, (size_t)(n ? n : 1) * sizeof *s->ready);
    memset(s->kind, 0, (size_t)(n ? n : 1));
    return 0;
}

void scoreboard_free(Scoreboard *s)
{
    free(s->ready);
    free(s->kind);
    s->ready = NULL;
    s->kind = NULL;
}
