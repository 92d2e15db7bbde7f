/* vectorize.c - ptxas's vector shared loads (see backend.h).
 *
 * nvcc writes a thread's reads of As[ty][k], As[ty][k+1], ... in an unrolled
 * loop as separate 4-byte `ld.shared`s; ptxas, which places the shared
 * arrays and follows the address arithmetic, merges neighbours whose address
 * it can prove 16-byte (or 8-byte) aligned into one LDS.128 (LDS.64).  The
 * H100 runs tiled_mm's 16 As loads of a tile step as 4 such loads (Nsight:
 * 81920 shared loads at n = 128, not 131072; tests/validation/h100/corpus).
 * The machine entry does the same: the first load of the group becomes the
 * vector load of all the destinations, the others fold away (a branch to
 * the next pc that issues nothing).
 *
 * The alignment is proven, never assumed: a register's known alignment is
 * the least over all its definitions (iterated to a fixed point) of what
 * the operation keeps (shared variable addresses as laid out, immediates,
 * add, sub, shl, mul, mad, and, cvt between integers); anything else is 1.
 * A group's loads must be 4-byte, unguarded or under the same guard, in one
 * basic block, on the same base with offsets o, o+4 (, o+8, o+12), distinct
 * destinations, and nothing between the first and a later one may store to
 * shared (or generic) memory, be a fence, write the base or the guard, or
 * read or write that later load's destination: the merged load does what
 * the separate ones did.
 */
#include "backend.h"

#include <stdlib.h>

enum { CAP = 16 };

static int align_of_imm(int64_t v)
{
    int a = 1;
    while (a < CAP && !(v & a)) a <<= 1;
    return a;
}

static int min2(int a, int b) { return a < b ? a : b; }

static int var_align(const Var *vars, int nvars, int sym)
{
    if (sym < 0 || sym >= nvars || vars[sym].space != SP_SHARED || vars[sym].dynamic) return 1;
    return align_of_imm(vars[sym].offset);
}

static int operand_align(const Operand *o, const uint8_t *al, const Var *vars, int nvars)
{
    switch ((OperandKind)o->kind) {
    case OPD_REG: return al[o->r[0]];
    case OPD_IMM: return align_of_imm(o->imm);
    case OPD_SYM: return min2(var_align(vars, nvars, o->sym), align_of_imm(o->imm));
    default: return 1;
    }
}

/* What an instruction that writes value register opd[0] leaves it aligned to. */
static int def_align(const Instr *in, const uint8_t *al, const Var *vars, int nvars)
{
    TypeKind k = isa_type_kind((DataType)in->type);
    if (k == TK_FLOAT || k == TK_PRED) return 1;
    int a = in->nops > 1 ? operand_align(&in->opd[1], al, vars, nvars) : 1;
    int b = in->nops > 2 ? operand_align(&in->opd[2], al, vars, nvars) : 1;
    switch ((Opcode)in->op) {
    case OP_MOV: return a;
    case OP_CVT: return isa_type_kind((DataType)in->stype) == TK_FLOAT ? 1 : a;
    case OP_ADD: case OP_SUB: return min2(a, b);
    case OP_AND: return a > b ? a : b;
    case OP_SHL:
        if (in->opd[2].kind != OPD_IMM || in->opd[2].imm < 0 || in->opd[2].imm > 4) return in->opd[2].kind == OPD_IMM ? CAP : 1;
        return min2(CAP, a << in->opd[2].imm);
    case OP_MUL: return in->mul == MUL_HI ? 1 : min2(CAP, a * b);
    case OP_MAD:
        if (in->mul == MUL_HI) return 1;
        return min2(min2(CAP, a * b), in->nops > 3 ? operand_align(&in->opd[3], al, vars, nvars) : 1);
    default: return 1;
    }
}

static uint8_t *register_alignment(const Entry *m, const Var *vars, int nvars)
{
    uint8_t *al = malloc((size_t)(m->nregs ? m->nregs : 1));
    if (!al) return NULL;
    for (int r = 0; r < m->nregs; r++) al[r] = CAP;
    for (int changed = 1; changed;) {
        changed = 0;
        for (int pc = 0; pc < m->ncode; pc++) {
            const Instr *in = &m->code[pc];
            RegUse u;
            backend_reg_use(m, in, &u);
            /* one plain register result of an arithmetic instruction; loads,
             * vectors and several results are unknown */
            int known = in->opd[0].kind == OPD_REG && u.nwr == 1 && in->op != OP_LD && in->op != OP_ATOM;
            for (int w = 0; w < u.nwr; w++) {
                int r = u.wr[w];
                if (r >= m->nregs) continue;   /* a predicate */
                int a = known ? def_align(in, al, vars, nvars) : 1;
                if (a < al[r]) { al[r] = (uint8_t)a; changed = 1; }
            }
        }
    }
    return al;
}

static int candidate(const Instr *in)
{
    return in->op == OP_LD && in->space == SP_SHARED && in->vec <= 1 && !(in->flags & IF_VOLATILE) &&
           in->opd[0].kind == OPD_REG && in->opd[1].kind == OPD_MEM && isa_type_bits((DataType)in->type) == 32;
}

static int same_base(const Instr *a, const Instr *b)
{
    return a->opd[1].r[0] == b->opd[1].r[0] && a->opd[1].sym == b->opd[1].sym && a->opd[1].is_param == b->opd[1].is_param &&
           a->type == b->type && a->guard == b->guard && a->guard_neg == b->guard_neg;
}

static int touches(const RegUse *u, int reg)
{
    for (int i = 0; i < u->nrd; i++) if (u->rd[i] == reg) return 1;
    for (int i = 0; i < u->nwr; i++) if (u->wr[i] == reg) return 1;
    return 0;
}

static int writes(const RegUse *u, int reg)
{
    for (int i = 0; i < u->nwr; i++) if (u->wr[i] == reg) return 1;
    return 0;
}

/* Ends the search for members: memory a member could read changes, or order matters. */
static int barrier_to_loads(const Instr *in, int pc)
{
    switch ((Opcode)in->op) {
    case OP_ST: case OP_ATOM: case OP_RED: case OP_CP_ASYNC:
        return in->space == SP_SHARED || in->space == SP_NONE;
    case OP_BAR_SYNC: case OP_BARRIER_SYNC: case OP_BAR_ARRIVE: case OP_BARRIER_ARRIVE: case OP_BAR_WARP_SYNC:
    case OP_BRA:   /* a merged load's folded no-op (a branch to the next pc) is not one */
        return in->minst != 0 || in->opd[0].imm != pc + 1;
    case OP_MEMBAR: case OP_FENCE: case OP_CALL: case OP_RET: case OP_EXIT:
        return 1;
    default:
        return 0;
    }
}

/* The group of `want` loads at offsets g, g+4, ... (g = a multiple of 4 *
 * want) that code[i] belongs to, all at or after i: at[k] = pc of the load at
 * g + 4k.  Returns 1 if every one was found and may move up to i. */
static int find_members(const Entry *m, int i, int last, int want, int64_t g, int at[4])
{
    const Instr *lead = &m->code[i];
    for (int k = 0; k < want; k++) at[k] = -1;
    at[(lead->opd[1].imm - g) / 4] = i;
    int found = 1;
    for (int j = i + 1; j <= last && found < want; j++) {
        const Instr *in = &m->code[j];
        int64_t d = in->opd[1].imm - g;
        if (candidate(in) && same_base(lead, in) && d >= 0 && d % 4 == 0 && d / 4 < want && at[d / 4] < 0) {
            int k = (int)(d / 4);
            /* nothing between i and j may read or write its destination */
            int ok = in->opd[0].r[0] != lead->opd[1].r[0];
            for (int q = i + 1; q < j && ok; q++) {
                RegUse u;
                backend_reg_use(m, &m->code[q], &u);
                if (touches(&u, in->opd[0].r[0])) ok = 0;
            }
            for (int q = 0; q < want && ok; q++)
                if (at[q] >= 0 && m->code[at[q]].opd[0].r[0] == in->opd[0].r[0]) ok = 0;
            if (ok) { at[k] = j; found++; continue; }
        }
        if (barrier_to_loads(in, j)) break;
        RegUse u;
        backend_reg_use(m, in, &u);
        if ((lead->opd[1].r[0] != REG_NONE && writes(&u, lead->opd[1].r[0])) ||
            (lead->guard != REG_NONE && writes(&u, m->nregs + lead->guard)))
            break;
    }
    return found == want;
}

/* The vector load of the group goes where its first load was (pc i). */
static void merge(Entry *m, int i, const int at[4], int n, int64_t g)
{
    Instr *lead = &m->code[i];
    Operand d = { 0 };
    d.kind = OPD_VEC;
    d.n = (uint8_t)n;
    for (int k = 0; k < 4; k++) d.r[k] = k < n ? m->code[at[k]].opd[0].r[0] : REG_NONE;
    d.sym = -1;
    lead->opd[0] = d;
    lead->opd[1].imm = g;
    lead->vec = (uint8_t)n;
    for (int k = 0; k < n; k++) {
        if (at[k] == i) continue;
        Instr *x = &m->code[at[k]];
        uint32_t line = x->line, col = x->col, pc = (uint32_t)at[k];
        *x = (Instr){ 0 };
        x->op = OP_BRA;
        x->guard = REG_NONE;
        x->nops = 1;
        x->opd[0].kind = OPD_LABEL;
        x->opd[0].imm = pc + 1;
        x->opd[0].sym = -1;
        x->reconv = pc + 1;
        x->mclass = MCLS_FOLDED;
        x->line = line;
        x->col = col;
    }
}

int backend_vectorize(Entry *m, const Var *vars, int nvars)
{
    uint8_t *al = register_alignment(m, vars, nvars);
    if (!al) return -1;
    int merged = 0;
    for (int b = 0; b < m->nblocks; b++) {
        int first = (int)m->blocks[b].first, last = (int)m->blocks[b].last;
        for (int i = first; i <= last; i++) {
            const Instr *in = &m->code[i];
            if (!candidate(in)) continue;
            int base = in->opd[1].r[0] != REG_NONE ? al[in->opd[1].r[0]] : CAP;
            if (in->opd[1].sym >= 0) base = min2(base, var_align(vars, nvars, in->opd[1].sym));
            int64_t o = in->opd[1].imm, g16 = o & ~(int64_t)15, g8 = o & ~(int64_t)7;
            int at[4];
            if (base >= 16 && find_members(m, i, last, 4, g16, at)) { merge(m, i, at, 4, g16); merged++; }
            else if (base >= 8 && find_members(m, i, last, 2, g8, at)) { merge(m, i, at, 2, g8); merged++; }
        }
    }
    free(al);
    return merged;
}
