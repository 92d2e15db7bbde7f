/* unroll.c - ptxas's loop unrolling (see backend.h).
 *
 * nvcc already unrolls naive_mm's `for (i = 0; i < n; i++)` by 4; ptxas
 * unrolls the PTX loop 4 times more and keeps about 24 of its 32 loads in
 * flight per warp (the H100's SASS, tests/validation/h100/measured/
 * kernels_val.sass).  The back end schedules inside basic blocks, so
 * without this it keeps the PTX's 8.
 *
 * A loop is unrolled when it is one basic block ending in `@%p bra HEAD`,
 * counted by one `add i, i, C` (32-bit) and tested by one `setp` after it:
 * counting up (C > 0), `setp.lt.s32` (or `.lo.u32`) `%p, i, n`, n an
 * immediate or a register the body does not write; counting down (C < 0),
 * `setp.ne %p, i, K`, K an immediate (nvcc's form for its own unrolled
 * loops).  Nothing in the body is guarded, a control, barrier, fence,
 * atomic, warp-synchronous or asynchronous instruction; the body has at
 * most UNROLL_MAX_PTX PTX instructions, and its head carries no .pragma
 * "nounroll".  U = 4 copies (ptxas's factor; the rule's evidence is at
 * UNROLL_MAX_PTX).  It becomes
 *
 *   CHK:  T = (s64) i + (U-1) C;  q = T < (s64) n;  @!q bra ORIG
 *   UNR:  body 1 .. body U  (no test between them), the same T and q;
 *         @q bra UNR;  @!%p bra EXIT
 *   ORIG: body;  @%p bra ORIG          (the remainder: the loop as written)
 *   EXIT:
 *
 * q says the next U - 1 tests of the loop as written would all pass: the
 * values stay below n (counting down: T = i - (U-1) |C| > K, so every value
 * the copies skip testing lies above K and differs from it), so nothing
 * wraps, and computing T in 64 bits keeps it exact for any i and n.  Copies 1 .. U-1 write their own copies of the
 * registers the body defines before it reads them, so the scheduler can
 * raise a later copy's loads above an earlier copy's arithmetic; copy U
 * writes the original ones, which is what the code after the loop reads.
 * The memory a kernel leaves is the same as the loop's as written:
 * test_backend runs every kernel, and random kernels with loops, both ways.
 */
#include "backend.h"
#include "cfg.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ptxas's rule, read off the H100's SASS (tests/validation/h100/measured/
 * kernels_val.sass, inflight.sass, corpus/sass/kernels_corpus.sass) against
 * the PTX it came from: every counted loop it unrolled it unrolled 4 times,
 * and it unrolled those of 16, 17, 18, 22, 28, 29 and 45 PTX instructions
 * (inflight_d1, gemv_warp_per_row, gemv_row_per_thread, naive_mm,
 * inflight_d2, spmv_csr_scalar, spmv_ell) and none of 52 or more
 * (inflight_d4..d32, mm_float4 61, stencil3d_7pt 83).  The bound sits
 * between 45 and 52; loops nvcc marks .pragma "nounroll" stay rolled. */
enum { UNROLL_MAX_PTX = 48, UNROLL_FACTOR = BACKEND_UNROLL_FACTOR };

typedef struct Loop {
    int head, latch;        /* first pc, the branch's pc */
    int ireg, preg, u;
    int64_t step;
    Operand bound;
    int cmp;                /* CMP_LT (s32), CMP_LO (u32), or CMP_NE against an end value counting down */
    int down, narrow;       /* counting down; the counter's type */
} Loop;

static int unroll_blocker(const Instr *in)
{
    if (in->guard != REG_NONE) return 1;
    switch ((Opcode)in->op) {
    case OP_BRA: case OP_RET: case OP_EXIT: case OP_CALL:
    case OP_BAR_SYNC: case OP_BARRIER_SYNC: case OP_BAR_ARRIVE: case OP_BARRIER_ARRIVE: case OP_BAR_WARP_SYNC:
    case OP_MEMBAR: case OP_FENCE: case OP_ATOM: case OP_RED: case OP_SHFL: case OP_VOTE: case OP_ACTIVEMASK:
    case OP_REDUX: case OP_MATCH: case OP_NANOSLEEP: case OP_CP_ASYNC: case OP_CP_ASYNC_COMMIT:
    case OP_CP_ASYNC_WAIT: case OP_CP_ASYNC_WAIT_ALL:
        return 1;
    default:
        for (int s = 0; s < ISA_MAX_OPS; s++)
            if (in->opd[s].kind == OPD_SREG && (in->opd[s].r[0] == SR_CLOCK || in->opd[s].r[0] == SR_CLOCK64)) return 1;
        return 0;
    }
}

static int writes_reg(const Entry *e, const Instr *in, int reg)
{
    RegUse u;
    backend_reg_use(e, in, &u);
    for (int i = 0; i < u.nwr; i++) if (u.wr[i] == reg) return 1;
    return 0;
}

/* Is block b a loop the pass unrolls?  Fills *l. */
static int find_loop(const Entry *e, const BasicBlock *bb, Loop *l)
{
    const Instr *br = &e->code[bb->last];
    if (br->op != OP_BRA || br->guard == REG_NONE || br->guard_neg || br->opd[0].imm != bb->first ||
        bb->last <= bb->first)
        return 0;
    if (e->code[bb->first].flags & IF_NOUNROLL) return 0;
    int size = (int)(bb->last - bb->first + 1);        /* PTX instructions, the branch included */
    if (size > UNROLL_MAX_PTX) return 0;
    int p = e->nregs + br->guard, setp = -1, add = -1;
    for (uint32_t pc = bb->first; pc < bb->last; pc++) {
        const Instr *in = &e->code[pc];
        if (unroll_blocker(in)) return 0;
        if (writes_reg(e, in, p)) { if (setp >= 0) return 0; setp = (int)pc; }
    }
    if (setp < 0) return 0;
    const Instr *s = &e->code[setp];
    int down = s->cmp == CMP_NE && s->opd[2].kind == OPD_IMM &&
               (s->type == T_S32 || s->type == T_U32 || s->type == T_B32);
    if (s->op != OP_SETP || s->boolop != BOOL_NONE || s->opd[5].kind != OPD_NONE || s->opd[1].kind != OPD_REG ||
        !((s->cmp == CMP_LT && s->type == T_S32) || (s->cmp == CMP_LO && s->type == T_U32) || down) ||
        (s->opd[2].kind != OPD_REG && s->opd[2].kind != OPD_IMM))
        return 0;
    int i = s->opd[1].r[0];
    for (uint32_t pc = bb->first; pc < bb->last; pc++) {
        const Instr *in = &e->code[pc];
        if (s->opd[2].kind == OPD_REG && writes_reg(e, in, s->opd[2].r[0])) return 0;
        if (!writes_reg(e, in, i)) continue;
        if (add >= 0 || in->op != OP_ADD || (in->type != T_S32 && in->type != T_U32) || in->opd[0].r[0] != i ||
            in->opd[1].kind != OPD_REG || in->opd[1].r[0] != i || in->opd[2].kind != OPD_IMM ||
            (down ? in->opd[2].imm >= 0 || in->opd[2].imm < -(1 << 20) : in->opd[2].imm <= 0 || in->opd[2].imm > (1 << 20)))
            return 0;
        add = (int)pc;
    }
    if (add < 0 || add > setp) return 0;
    int64_t step = e->code[add].opd[2].imm;
    *l = (Loop){ (int)bb->first, (int)bb->last, i, br->guard, UNROLL_FACTOR, down ? -step : step, s->opd[2], s->cmp, down,
                 s->type == T_S32 ? T_S32 : T_U32 };
    return 1;
}

/* ---- building the unrolled entry ---------------------------------------------- */
typedef struct Build {
    Instr *code; uint32_t *src; int n, cap;
    RegInfo *regs; int nregs, capregs;
    RegInfo *preds; int npreds, cappreds;
} Build;

static void put(Build *b, const Instr *in, uint32_t src)
{
    if (b->n == b->cap) {
        b->cap = b->cap ? 2 * b->cap : 256;
        b->code = realloc(b->code, (size_t)b->cap * sizeof *b->code);
        b->src = realloc(b->src, (size_t)b->cap * sizeof *b->src);
        if (!b->code || !b->src) abort();
    }
    b->code[b->n] = *in;
    b->src[b->n++] = src;
}

static int new_reg(RegInfo **v, int *n, int *cap, const RegInfo *like, const char *suffix)
{
    if (*n == *cap) {
        *cap = *cap ? 2 * *cap : 64;
        *v = realloc(*v, (size_t)*cap * sizeof **v);
        if (!*v) abort();
    }
    RegInfo r = *like;
    size_t len = strlen(like->name) + strlen(suffix) + 1;
    r.name = malloc(len);
    if (!r.name) abort();
    snprintf(r.name, len, "%s%s", like->name, suffix);
    (*v)[*n] = r;
    return (*n)++;
}

static Operand reg_opd(int r) { Operand o = { 0 }; o.kind = OPD_REG; o.r[0] = (uint16_t)r; o.sym = -1; return o; }
static Operand imm_opd(int64_t v) { Operand o = { 0 }; o.kind = OPD_IMM; o.imm = v; o.sym = -1; return o; }

static Instr plain(int op, int type, const Instr *at)
{
    Instr in = { 0 };
    in.op = (uint8_t)op;
    in.type = (uint8_t)type;
    in.vec = 1;
    in.guard = REG_NONE;
    in.line = at->line;
    in.col = at->col;
    return in;
}

/* Counting up: T = (64-bit) i + k, q = T < (64-bit) n; counting down to 0:
 * T = (64-bit) i - k, q = T > 0.  Then @q or @!q bra target. */
static void emit_test(Build *b, const Loop *l, int t, int nreg, int q, int64_t k, int branch_if, int target,
                      const Instr *at, uint32_t src)
{
    int wide = l->down || l->cmp == CMP_LT ? T_S64 : T_U64, narrow = l->narrow;
    Instr in = plain(OP_CVT, wide, at);
    in.stype = (uint8_t)narrow;
    in.opd[0] = reg_opd(t); in.opd[1] = reg_opd(l->ireg); in.nops = 2;
    in.unit = (uint8_t)isa_unit(&in); put(b, &in, src);
    in = plain(OP_ADD, wide, at);
    in.opd[0] = reg_opd(t); in.opd[1] = reg_opd(t); in.opd[2] = imm_opd(l->down ? -k : k); in.nops = 3;
    in.unit = (uint8_t)isa_unit(&in); put(b, &in, src);
    Operand bound = l->bound;
    if (l->down) {           /* every value the copies skip testing lies above the end value K */
        bound = imm_opd(narrow == T_S32 ? (int64_t)(int32_t)l->bound.imm : (int64_t)(uint32_t)l->bound.imm);
    } else if (bound.kind == OPD_REG) {
        in = plain(OP_CVT, wide, at);
        in.stype = (uint8_t)narrow;
        in.opd[0] = reg_opd(nreg); in.opd[1] = l->bound; in.nops = 2;
        in.unit = (uint8_t)isa_unit(&in); put(b, &in, src);
        bound = reg_opd(nreg);
    } else if (l->cmp == CMP_LO) {
        bound.imm = (int64_t)(uint32_t)bound.imm;
    } else {
        bound.imm = (int64_t)(int32_t)bound.imm;
    }
    in = plain(OP_SETP, wide, at);
    in.cmp = (uint8_t)(l->down ? CMP_GT : l->cmp == CMP_LT ? CMP_LT : CMP_LO);
    in.opd[0].kind = OPD_PRED; in.opd[0].r[0] = (uint16_t)q; in.opd[0].sym = -1;
    in.opd[1] = reg_opd(t); in.opd[2] = bound; in.nops = 3;
    in.unit = (uint8_t)isa_unit(&in); put(b, &in, src);
    in = plain(OP_BRA, T_NONE, at);
    in.guard = (uint16_t)q; in.guard_neg = (uint8_t)!branch_if;
    in.opd[0].kind = OPD_LABEL; in.opd[0].imm = target; in.opd[0].sym = -1; in.nops = 1;
    in.unit = (uint8_t)isa_unit(&in); put(b, &in, src);
}

/* The registers (value and predicate, RegUse numbering) the body writes
 * before it reads them: each copy may have its own. */
static void private_regs(const Entry *e, const Loop *l, uint8_t *priv)
{
    int total = e->nregs + e->npreds;
    uint8_t *read = calloc((size_t)total + 1, 1), *written = calloc((size_t)total + 1, 1);
    if (!read || !written) abort();
    for (int pc = l->head; pc < l->latch; pc++) {
        RegUse u;
        backend_reg_use(e, &e->code[pc], &u);
        for (int k = 0; k < u.nrd; k++) if (!written[u.rd[k]]) read[u.rd[k]] = 1;
        for (int k = 0; k < u.nwr; k++) written[u.wr[k]] = 1;
    }
    for (int r = 0; r < total; r++) priv[r] = written[r] && !read[r];
    free(read);
    free(written);
}

static void rename_opd(Operand *o, const int *map)
{
    switch ((OperandKind)o->kind) {
    case OPD_REG: if (map[o->r[0]] >= 0) o->r[0] = (uint16_t)map[o->r[0]]; break;
    case OPD_MEM: if (o->r[0] != REG_NONE && map[o->r[0]] >= 0) o->r[0] = (uint16_t)map[o->r[0]]; break;
    case OPD_VEC:
        for (int i = 0; i < o->n; i++) if (o->r[i] != REG_NONE && map[o->r[i]] >= 0) o->r[i] = (uint16_t)map[o->r[i]];
        break;
    default: break;   /* predicates: emit_copies */
    }
}

/* Copies 0 .. u-2 of the body get private registers; copy u-1 the originals. */
static void emit_copies(Build *b, const Entry *e, const Loop *l, const uint8_t *priv, int *map)
{
    int total = e->nregs + e->npreds;
    for (int k = 0; k < l->u; k++) {
        char suffix[16];
        snprintf(suffix, sizeof suffix, ".u%d", k + 1);
        for (int r = 0; r < total; r++) {
            map[r] = -1;
            if (!priv[r] || k == l->u - 1) continue;
            /* value registers keep their numbers below e->nregs + the new
             * ones; predicates are renumbered after all value registers */
            if (r < e->nregs) map[r] = new_reg(&b->regs, &b->nregs, &b->capregs, &e->regs[r], suffix);
            else map[r] = -2 - new_reg(&b->preds, &b->npreds, &b->cappreds, &e->preds[r - e->nregs], suffix);
        }
        for (int pc = l->head; pc < l->latch; pc++) {
            Instr in = e->code[pc];
            for (int s = 0; s < ISA_MAX_OPS; s++) {
                Operand *o = &in.opd[s];
                if (o->kind == OPD_PRED && map[e->nregs + o->r[0]] <= -2) o->r[0] = (uint16_t)(-2 - map[e->nregs + o->r[0]]);
                else if (o->kind != OPD_PRED) rename_opd(o, map);
            }
            put(b, &in, (uint32_t)pc);
        }
    }
}

static RegInfo *copy_regs(const RegInfo *v, int n, int *cap)
{
    *cap = n + 64;
    RegInfo *c = malloc((size_t)*cap * sizeof *c);
    if (!c) abort();
    for (int i = 0; i < n; i++) {
        c[i] = v[i];
        size_t len = strlen(v[i].name) + 1;
        c[i].name = malloc(len);
        if (!c[i].name) abort();
        memcpy(c[i].name, v[i].name, len);
    }
    return c;
}

static void unroll_one(Build *b, const Entry *e, const Loop *l, int *pos, int *entry_of, uint8_t *fixed)
{
    int total = e->nregs + e->npreds;
    uint8_t *priv = malloc((size_t)total + 1);
    int *map = malloc(((size_t)total + 1) * sizeof *map);
    if (!priv || !map) abort();
    private_regs(e, l, priv);
    RegInfo wide = { "%unroll_t", 64, (uint8_t)(l->down || l->cmp == CMP_LT ? T_S64 : T_U64), 1 }, pred = { "%unroll_q", 1, T_PRED, 1 };
    int t = new_reg(&b->regs, &b->nregs, &b->capregs, &wide, ""), nreg = new_reg(&b->regs, &b->nregs, &b->capregs, &wide, "n");
    int q = new_reg(&b->preds, &b->npreds, &b->cappreds, &pred, "");
    const Instr *at = &e->code[l->latch];
    int64_t k = (int64_t)(l->u - 1) * l->step;
    entry_of[l->head] = b->n;                      /* CHK: where branches to the loop now land */
    int chk_branch = b->n + (!l->down && l->bound.kind == OPD_REG ? 4 : 3);
    emit_test(b, l, t, nreg, q, k, 0, -1, at, (uint32_t)l->head);
    int unr = b->n;
    emit_copies(b, e, l, priv, map);
    emit_test(b, l, t, nreg, q, k, 1, unr, at, (uint32_t)l->latch);
    Instr done = *at;                              /* @!%p bra EXIT: the loop as written is over */
    done.guard_neg = 1;
    int exit_branch = b->n;
    put(b, &done, (uint32_t)l->latch);
    for (int i = chk_branch; i < b->n; i++) fixed[i] = 1;
    int orig = b->n;
    b->code[chk_branch].opd[0].imm = orig;
    for (int pc = l->head; pc <= l->latch; pc++) { pos[pc] = b->n; put(b, &e->code[pc], (uint32_t)pc); }
    b->code[b->n - 1].opd[0].imm = orig;           /* the remainder's back edge */
    fixed[b->n - 1] = 1;
    b->code[exit_branch].opd[0].imm = -1 - (l->latch + 1);   /* patched to EXIT by the caller */
    free(priv);
    free(map);
}

int backend_unroll(const Entry *e, Entry **out, uint32_t **src)
{
    *out = NULL;
    *src = NULL;
    if (e->nlinked || e->ncode != e->ncode_own) return 0;   /* linked .funcs sit at fixed pcs */
    Loop *loops = malloc((size_t)(e->nblocks ? e->nblocks : 1) * sizeof *loops);
    int nl = 0;
    if (!loops) return -1;
    for (int b = 0; b < e->nblocks; b++) if (find_loop(e, &e->blocks[b], &loops[nl])) nl++;
    if (!nl) { free(loops); return 0; }
    Build b = { 0 };
    b.regs = copy_regs(e->regs, e->nregs, &b.capregs);
    b.nregs = e->nregs;
    b.preds = copy_regs(e->preds, e->npreds, &b.cappreds);
    b.npreds = e->npreds;
    int *pos = malloc(((size_t)e->ncode + 1) * sizeof *pos), *entry_of = malloc(((size_t)e->ncode + 1) * sizeof *entry_of);
    uint8_t *fixed = calloc((size_t)e->ncode * 8 + 64, 1);
    if (!pos || !entry_of || !fixed) abort();
    for (int pc = 0; pc <= e->ncode; pc++) entry_of[pc] = -1;
    int li = 0;
    for (int pc = 0; pc < e->ncode;) {
        if (li < nl && loops[li].head == pc) {
            unroll_one(&b, e, &loops[li], pos, entry_of, fixed);
            pc = loops[li++].latch + 1;
            continue;
        }
        pos[pc] = b.n;
        put(&b, &e->code[pc], (uint32_t)pc);
        pc++;
    }
    pos[e->ncode] = b.n;
    /* branch targets: a loop's head is now its CHK, everything else moved */
    for (int i = 0; i < b.n; i++) {
        Instr *in = &b.code[i];
        if (in->op != OP_BRA) continue;
        if (in->opd[0].imm < 0) { in->opd[0].imm = pos[-1 - in->opd[0].imm]; continue; }
        if (fixed[i]) continue;
        int64_t t = in->opd[0].imm;
        in->opd[0].imm = entry_of[t] >= 0 ? entry_of[t] : pos[t];
    }
    Entry *u = malloc(sizeof *u);
    if (!u) abort();
    *u = *e;
    u->code = b.code; u->ncode = u->ncode_own = b.n;
    u->regs = b.regs; u->nregs = b.nregs;
    u->preds = b.preds; u->npreds = b.npreds;
    u->labels = NULL; u->nlabels = 0;
    u->blocks = NULL; u->nblocks = 0;
    u->machine = NULL; u->morder = NULL;
    if (cfg_build(u)) abort();
    backend_account(u);
    /* The trip test as ptxas emits it: one ISETP against the bound less
     * (U-1) steps, computed before the loop, and the branch (naive_mm's
     * SASS: `ISETP.GT.AND P1, PT, R6, 0xc, PT; @P1 BRA`).  The widening
     * conversions and the offset add fold into that compare. */
    for (int pc = 0; pc < u->ncode; pc++) {
        Instr *in = &u->code[pc];
        if ((in->op == OP_CVT || in->op == OP_ADD) && in->opd[0].kind == OPD_REG && in->opd[0].r[0] >= e->nregs &&
            !strncmp(u->regs[in->opd[0].r[0]].name, "%unroll_t", 9)) {
            in->minst = 0;
            in->mclass = MCLS_FOLDED;
        }
    }
    free(pos); free(entry_of); free(fixed); free(loops);
    *out = u;
    *src = b.src;
    return nl;
}
