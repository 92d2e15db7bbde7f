/* backend.c - see backend.h: register use, machine-instruction accounting
 * and the pass that puts the pieces together.
 *
 * The accounting starts from isa.def's MI column and refines it where
 * ptxas's output depends on modifiers, types or operands.  Each rule says
 * which SASS it stands for (sm_70 to sm_90, as `cuobjdump -sass` shows it):
 *
 *   ld.param .u64       0  a pointer is the constant-bank operand c[0x0][..]
 *                          of the IMAD.WIDE that indexes it
 *   ld.param 32-bit     1  a ULDC or MOV: an instruction takes at most one
 *                          constant-bank operand, so a scalar parameter that
 *                          meets another one (i * stride + offset) is
 *                          loaded first; counted 1 each, calibrated on the
 *                          H100 reference (docs/validation.md)
 *   cvta.to.global,     0  generic and global addresses are the same on
 *   cvta.global            these GPUs: ptxas emits nothing
 *   mov %ntid/%nctaid,  0  launch constants live in the constant bank
 *   WARP_SZ                (c[0x0][0x0]...): an operand, not an instruction
 *   mov of a variable's 0  a shared/const address is an immediate operand
 *   address
 *   mov %tid, %ctaid... 1  S2R (class s2r: it waits like a short-scoreboard
 *                          producer, not like an ALU op)
 *   mul.wide + add.s64  1+0 IMAD.WIDE d, a, b, c: when the wide product's
 *                          only use is that add in the same block, the add
 *                          is fused and counts 0
 *   add/sub .s64/.u64   1  a general 64-bit add is IADD3 + IADD3.X, but
 *                          ptxas turns nearly all pointer arithmetic into
 *                          IMAD.WIDE, LEA/LEA.HI.X or load offsets; 1 is the
 *                          count that matches the reference kernels
 *   mul/mad .lo 64-bit  3  IMAD.WIDE.U32 + 2 IMAD
 *   shl/shr 64-bit      2  SHF.L.U64.HI + SHF.L.U32 (two funnel shifts)
 *   div/rem integer     by a power-of-two immediate: 1 (unsigned: SHF/LOP3)
 *                          or 3-4 (signed: sign fix-up); other immediate: 3-4
 *                          (IMAD.HI + shifts); by a register: 10/11 (32-bit:
 *                          I2F, MUFU.RCP, F2I, IMAD.HI, 2 corrections) or
 *                          30 (64-bit: a CALL to the division routine)
 *   div.f32             .approx 2 (MUFU.RCP + FMUL), .full 4, .rn 8 (the
 *                          fast path of the IEEE routine: MUFU.RCP, FFMA
 *                          refinement, FCHK, branch); .f64 12
 *   rcp/sqrt .rn.f32    6/8 (refinement around MUFU); .approx 1; .f64 10
 *   sin/cos             2  FMUL.RZ range reduction + MUFU.SIN/COS
 *   ret/exit            1  EXIT
 *   half arithmetic     1  HADD2/HMUL2/HFMA2/HMNMX2/HSETP2 (class fma): a
 *                          .f16x2/.bf16x2 instruction does both halves in
 *                          one; cvt.rn.f16x2.f32 is one F2FP.PACK_AB
 * Each warp also runs a prologue before pc 0: MOV R1, c[0x0][0x28] (the
 * stack pointer, every kernel), ULDC.64 of the global memory descriptor
 * when the entry touches global or generic memory (sm_80+), and a MOV of
 * the immediate multiplier when a fused IMAD.WIDE adds a constant-bank
 * pointer (IMAD.WIDE R, R, R(=4), c[..]: the bank operand takes the slot
 * an immediate would).
 */
#include "backend.h"
#include "cfg.h"

#include <stdlib.h>
#include <string.h>

#define X(e, n) [e] = n,
static const char *const mclass_names[MCLS_COUNT] = { BACKEND_MCLASSES(X) };
#undef X

const char *backend_mclass_name(int c) { return c >= 0 && c < MCLS_COUNT ? mclass_names[c] : "?"; }

/* ---- register use ------------------------------------------------------------ */
static void add_reg(RegUse *u, int is_write, int reg)
{
    if (is_write) { if (u->nwr < BACKEND_MAX_WR) u->wr[u->nwr++] = (uint16_t)reg; }
    else if (u->nrd < BACKEND_MAX_RD) u->rd[u->nrd++] = (uint16_t)reg;
}

/* Which operand slots an instruction writes (as the scoreboard has it):
 * slot 0 except for the no-destination formats, and slot 5. */
static int writes_slot(const Instr *in, int slot)
{
    Format f = isa_ops[in->op].format;
    if (slot == 5) return 1;
    if (slot != 0) return 0;
    return !(f == FMT_ST || f == FMT_RED || f == FMT_BRA || f == FMT_BAR || f == FMT_MASK || f == FMT_NONE);
}

void backend_reg_use(const Entry *e, const Instr *in, RegUse *u)
{
    u->nrd = u->nwr = 0;
    if (in->guard != REG_NONE) add_reg(u, 0, e->nregs + in->guard);
    for (int s = 0; s < ISA_MAX_OPS; s++) {
        const Operand *o = &in->opd[s];
        int w = writes_slot(in, s);
        switch ((OperandKind)o->kind) {
        case OPD_REG: add_reg(u, w, o->r[0]); break;
        case OPD_PRED: add_reg(u, w, e->nregs + o->r[0]); break;
        case OPD_MEM: if (o->r[0] != REG_NONE) add_reg(u, 0, o->r[0]); break;
        case OPD_VEC:
            for (int i = 0; i < o->n && i < 4; i++)
                if (o->r[i] != REG_NONE) add_reg(u, w, o->r[i]);
            break;
        default: break;
        }
    }
}

/* ---- accounting ---------------------------------------------------------------- */
static int is_pow2(int64_t v) { return v > 0 && (v & (v - 1)) == 0; }

static int int_divide(const Instr *in, int is_rem)
{
    int sgn = isa_type_kind((DataType)in->type) == TK_SINT;
    int bits = isa_type_bits((DataType)in->type);
    const Operand *b = &in->opd[2];
    /* WARP_SZ is the constant 32 to ptxas */
    if (b->kind == OPD_IMM || (b->kind == OPD_SREG && b->r[0] == SR_WARP_SZ)) {
        if (b->kind == OPD_SREG) return sgn ? 3 + is_rem : 1;
        if (is_pow2(b->imm)) return sgn ? 3 + is_rem : 1;
        return 3 + is_rem;
    }
    return bits == 64 ? 30 : 10 + is_rem;
}

int backend_minst(const Instr *in)
{
    const OpInfo *o = &isa_ops[in->op];
    DataType t = (DataType)in->type;
    int bits = isa_type_bits(t);
    TypeKind k = isa_type_kind(t);
    int isint = k == TK_UINT || k == TK_SINT || k == TK_BITS;
    switch ((Opcode)in->op) {
    case OP_MOV:
        if (in->opd[1].kind == OPD_SREG) {
            switch ((SpecialReg)in->opd[1].r[0]) {
            case SR_NTID_X: case SR_NTID_Y: case SR_NTID_Z:
            case SR_NCTAID_X: case SR_NCTAID_Y: case SR_NCTAID_Z:
            case SR_WARP_SZ:
                return 0;
            default: return 1;
            }
        }
        if (in->opd[1].kind == OPD_SYM) return 0;
        return 1;
    case OP_LD: return in->space == SP_PARAM && bits == 64 ? 0 : 1;
    case OP_CVTA: return in->space == SP_GLOBAL ? 0 : 1;
    case OP_MUL: case OP_MAD:
        if (isint && bits == 64 && in->mul != MUL_WIDE) return 3;
        return 1;
    case OP_SHL: case OP_SHR: return bits == 64 ? 2 : 1;
    case OP_DIV:
        if (k == TK_FLOAT) {
            if (bits == 64) return 12;
            if (in->flags & IF_APPROX) return 2;
            if (in->flags & IF_FULL) return 4;
            return 8;
        }
        return int_divide(in, 0);
    case OP_REM: return int_divide(in, 1);
    case OP_RCP:
        if (bits == 64) return 10;
        return (in->flags & IF_APPROX) ? 1 : 6;
    case OP_SQRT:
        if (bits == 64) return 10;
        return (in->flags & IF_APPROX) ? 1 : 8;
    case OP_RSQRT: return bits == 64 ? 10 : 1;
    default: return o->minst;
    }
}

MClass backend_mclass(const Instr *in)
{
    switch ((Opcode)in->op) {
    case OP_LD: case OP_ST: case OP_ATOM: case OP_RED:
        if (in->space == SP_SHARED) return MCLS_SHARED;
        if (in->space == SP_PARAM || in->space == SP_CONST) return MCLS_CONST;
        return MCLS_GLOBAL;
    case OP_SHFL: return MCLS_SHARED;
    case OP_MOV: if (in->opd[1].kind == OPD_SREG) return MCLS_S2R; break;
    case OP_VOTE: case OP_ACTIVEMASK: return MCLS_SYNC;
    default: break;
    }
    switch ((Unit)in->unit) {
    case UNIT_SFU: return MCLS_SFU;
    case UNIT_FP64: return MCLS_DP;
    case UNIT_FP32: return MCLS_FMA;
    case UNIT_CTRL: return MCLS_CTRL;
    case UNIT_SYNC: return MCLS_SYNC;
    case UNIT_LSU: return MCLS_GLOBAL;
    default:
        return (in->op == OP_MUL || in->op == OP_MAD || in->op == OP_DIV || in->op == OP_REM) ? MCLS_IMUL : MCLS_ALU;
    }
}

static int is_add64(const Instr *in)
{
    TypeKind k = isa_type_kind((DataType)in->type);
    return in->op == OP_ADD && isa_type_bits((DataType)in->type) == 64 && (k == TK_SINT || k == TK_UINT);
}

void backend_account(Entry *e)
{
    int touches_global = 0;
    for (int pc = 0; pc < e->ncode; pc++) {
        Instr *in = &e->code[pc];
        int m = backend_minst(in);
        in->minst = (uint8_t)(m > 255 ? 255 : m);
        in->mclass = (uint8_t)(m ? backend_mclass(in) : MCLS_FOLDED);
        if ((in->op == OP_LD || in->op == OP_ST || in->op == OP_ATOM || in->op == OP_RED) &&
            (in->space == SP_GLOBAL || in->space == SP_NONE))
            touches_global = 1;
    }
    e->prologue_minst = 1 + touches_global;
    /* mul.wide + add.s64 -> IMAD.WIDE: the wide product has one definition
     * and one use, that add, later in the same block, neither guarded */
    int n = e->nregs;
    if (n == 0) return;
    int *reads = calloc((size_t)n, sizeof *reads), *writes = calloc((size_t)n, sizeof *writes);
    int *def = malloc((size_t)n * sizeof *def);
    if (!reads || !writes || !def) { free(reads); free(writes); free(def); return; }
    RegUse u;
    for (int pc = 0; pc < e->ncode; pc++) {
        backend_reg_use(e, &e->code[pc], &u);
        for (int i = 0; i < u.nrd; i++) if (u.rd[i] < n) reads[u.rd[i]]++;
        for (int i = 0; i < u.nwr; i++) if (u.wr[i] < n) { writes[u.wr[i]]++; def[u.wr[i]] = pc; }
    }
    int imm_wide = 0;
    for (int pc = 0; pc < e->ncode; pc++) {
        Instr *in = &e->code[pc];
        if (!is_add64(in) || in->guard != REG_NONE) continue;
        for (int s = 1; s <= 2; s++) {
            const Operand *o = &in->opd[s];
            if (o->kind != OPD_REG) continue;
            int r = o->r[0];
            if (writes[r] != 1 || reads[r] != 1 || def[r] >= pc) continue;
            const Instr *m = &e->code[def[r]];
            if (m->op != OP_MUL || m->mul != MUL_WIDE || m->guard != REG_NONE) continue;
            int b = cfg_block_of(e, (uint32_t)pc);
            if (b < 0 || e->blocks[b].first > (uint32_t)def[r]) continue;
            in->minst = 0;
            in->mclass = MCLS_FOLDED;
            if (m->opd[2].kind == OPD_IMM) imm_wide = 1;
            break;
        }
    }
    e->prologue_minst += imm_wide;
    free(reads); free(writes); free(def);
}

uint8_t *backend_regs_read(const Entry *e)
{
    uint8_t *read = calloc((size_t)(e->nregs + e->npreds + 1), 1);
    if (!read) return NULL;
    RegUse u;
    for (int pc = 0; pc < e->ncode; pc++) {
        backend_reg_use(e, &e->code[pc], &u);
        for (int i = 0; i < u.nrd; i++) read[u.rd[i]] = 1;
    }
    return read;
}

int backend_posted(const Instr *in, const uint8_t *read)
{
    if (in->space != SP_GLOBAL) return 0;
    if (in->op == OP_RED) return 1;
    return in->op == OP_ATOM && in->opd[0].kind == OPD_REG && !read[in->opd[0].r[0]];
}

/* ---- the pass ------------------------------------------------------------------ */
int backend_run(Entry *e, const Var *vars, int nvars)
{
    free(e->morder);
    if (e->machine) free(e->machine->code);
    free(e->machine);
    e->machine = NULL;
    e->morder = NULL;
    backend_account(e);
    /* loops unrolled as ptxas does (unroll.c): the order is scheduled from
     * u, its pcs mapped back to e's by u2e */
    Entry *u = NULL;
    uint32_t *u2e = NULL;
    int unrolled = backend_unroll(e, &u, &u2e);
    if (unrolled < 0) return -1;
    const Entry *base = u ? u : e;
    size_t n = (size_t)(base->ncode ? base->ncode : 1);
    uint32_t *order = malloc(n * sizeof *order);
    Entry *m = malloc(sizeof *m);
    Instr *code = malloc(n * sizeof *code);
    if (!order || !m || !code || backend_schedule(base, order)) { free(order); free(m); free(code); return -1; }
    for (int pc = 0; pc < base->ncode; pc++) code[pc] = base->code[order[pc]];
    *m = *base;
    m->code = code;
    m->machine = NULL;
    if (u) {
        free(u->code);
        free(u);              /* m owns its registers and blocks now (m->unrolled says so) */
    }
    m->unrolled = unrolled;
    m->morder = order;        /* pcs of base (u's, if unrolled) until the end */
    RegAlloc ra, src;
    int rc = backend_regalloc(m, &ra);
    /* ptxas hoists the loads as this order does and still allocates what
     * the PTX order needs (rematerialising, reusing): the H100 gives
     * nbody_forces 32 and tiled_mm 32 registers, the colouring of this
     * order 56 and 40, of the PTX order 32 and 32 (docs/validation.md) */
    m->regs_order = m->regs_ptx = rc == 0 ? ra.regs : 0;
    if (rc == 0 && backend_regalloc(e, &src) == 0) {
        m->regs_ptx = src.regs;
        if (src.regs < ra.regs) ra.regs = src.regs;
        backend_regalloc_free(&src);
    }
    if (!e->regs_stated && rc == 0) {
        m->regs_per_thread = ra.regs;
        if (e->maxnreg && ra.regs > e->maxnreg) {
            m->regs_spilled = ra.regs - e->maxnreg;
            m->regs_per_thread = e->maxnreg;
        }
    }
    backend_regalloc_free(&ra);
    /* after the allocation: its liveness reads the branches as written */
    m->if_converted = backend_if_convert(m);
    /* vector loads from the neighbours the block schedule made, then the
     * if-converted runs scheduled as one (their vector loads move whole) */
    m->vectorized = backend_vectorize(m, vars, nvars);
    int regions = m->if_converted > 0 && m->vectorized >= 0 ? backend_schedule_regions(m) : 0;
    if (m->if_converted < 0 || regions < 0 || m->vectorized < 0) { free(order); free(m); free(code); free(u2e); return -1; }
    if (u2e) {
        /* the unrolled code's order stays for test_backend's permutation
         * check; morder names e's pcs, as the views expect */
        m->uorder = malloc((size_t)m->ncode * sizeof *m->uorder);
        if (!m->uorder) { free(order); free(m); free(code); free(u2e); return -1; }
        memcpy(m->uorder, order, (size_t)m->ncode * sizeof *order);
        for (int pc = 0; pc < m->ncode; pc++) order[pc] = u2e[order[pc]];
        free(u2e);
    }
    e->regs_spilled = m->regs_spilled;
    e->machine = m;
    e->morder = order;
    return 0;
}
