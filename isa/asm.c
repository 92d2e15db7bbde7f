/* asm.c - see asm.h.  The assembler's driver: the token stream and its
 * error recovery, the structure of a module (top-level directives) and of an
 * entry (parameters, body, labels, label fix-ups), and finishing the Program
 * (launches against their entries, the .define table).  Expressions,
 * declarations, instructions and host directives live in asm_expr.c,
 * asm_decl.c, asm_instr.c and asm_host.c (asm_internal.h lists them).
 *
 * One pass over the tokens builds the Program; a quiet prescan first finds
 * every `.define` so names can be used before their definition and cycles
 * can be reported.  Label uses are fixed up at the end of each entry, and
 * `.launch` lines are checked against their entry's parameters at the end of
 * the file.  Errors never stop the pass: the parser skips to the end of the
 * statement (';') or line and goes on, so one run reports them all.
 */
#include "asm.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "asm_internal.h"
#include "cfg.h"
#include "isa_mods.h"
#include "lex.h"
#include "strmap.h"
#include "suggest.h"

/* ---- small utilities ------------------------------------------------------ */
void *asm_xrealloc(void *p, size_t n)
{
    p = realloc(p, n ? n : 1);
    if (!p) abort();
    return p;
}

char *asm_xstrndup(const char *s, size_t n)
{
    char *d = asm_xrealloc(NULL, n + 1);
    memcpy(d, s, n);
    d[n] = '\0';
    return d;
}

int asm_tok_is(const Token *t, const char *s)
{
    return (int)strlen(s) == t->len && memcmp(t->s, s, (size_t)t->len) == 0;
}

static const char *line_of(const Asm *A, const Token *t)
{
    if (t->s < A->src || t->s > A->src + A->len) return NULL;
    return lex_line_start(&A->lx, t->s);
}

void asm_err(Asm *A, const Token *t, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    const char *file = A->file;
    const char *src = line_of(A, t);
    if (!src) file = "-D";   /* tokens of a -D override are not in the file */
    diag_vadd(A->dl, file, t->line, t->col, src, fmt, ap);
    va_end(ap);
}

/* What a token looks like in a message: its text, at most 40 characters. */
const char *asm_show(const Token *t, char *buf, size_t n)
{
    if (t->kind == TOK_EOF) return "end of file";
    if (t->kind == TOK_EOL) return "end of line";
    int len = t->len < 40 ? t->len : 40;
    snprintf(buf, n, "'%.*s%s'", len, t->s, t->len > 40 ? "..." : "");
    for (char *c = buf; *c; c++) if ((unsigned char)*c < 0x20 || (unsigned char)*c >= 0x7f) *c = '?';
    return buf;
}

/* ---- token stream --------------------------------------------------------- */
static Token *peek_raw(Asm *A, int k)
{
    while (A->nla <= k) A->la[A->nla++] = lex_next(&A->lx);
    return &A->la[k];
}

Token asm_peek_n(Asm *A, int k)
{
    Token t = *peek_raw(A, k);
    if (A->line_mode && t.bol && t.kind != TOK_EOF) {
        t.kind = TOK_EOL;
        t.len = 0;
    }
    if (A->line_mode) {
        /* tokens after an EOL stay hidden */
        for (int i = 0; i < k; i++) {
            Token *u = peek_raw(A, i);
            if (u->bol) { t.kind = TOK_EOL; t.len = 0; }
        }
    }
    return t;
}

Token asm_peek(Asm *A) { return asm_peek_n(A, 0); }

Token asm_next(Asm *A)
{
    Token t = asm_peek(A);
    if (t.kind == TOK_EOL || t.kind == TOK_EOF) return t;
    memmove(A->la, A->la + 1, (size_t)(A->nla - 1) * sizeof A->la[0]);
    A->nla--;
    /* the first token of a directive line is consumed in line mode too */
    return t;
}

/* Consume the first token of a line-mode directive (it has bol set). */
static Token next_raw(Asm *A)
{
    Token t = *peek_raw(A, 0);
    if (t.kind == TOK_EOF) return t;
    memmove(A->la, A->la + 1, (size_t)(A->nla - 1) * sizeof A->la[0]);
    A->nla--;
    return t;
}

int asm_is_punct(const Token *t, int c) { return t->kind == TOK_PUNCT && t->punct == c; }

int asm_accept(Asm *A, int c)
{
    Token t = asm_peek(A);
    if (asm_is_punct(&t, c)) { asm_next(A); return 1; }
    return 0;
}

int asm_expect(Asm *A, int c, const char *context)
{
    Token t = asm_peek(A);
    if (asm_is_punct(&t, c)) { asm_next(A); return 0; }
    char b[64];
    if (t.kind != TOK_ERROR) asm_err(A, &t, "expected '%c' %s, got %s", c, context, asm_show(&t, b, sizeof b));
    return -1;
}

/* Error recovery: skip to just past the next ';' (stopping before the '}'
 * that closes the entry, or at EOF), or in line mode to the end of the line.
 * Braces opened inside the statement ({%f1, %f2}, = {1, 2}) are skipped. */
void asm_skip_statement(Asm *A)
{
    for (int depth = 0;;) {
        Token t = asm_peek(A);
        if (t.kind == TOK_EOF || t.kind == TOK_EOL) return;
        if (asm_is_punct(&t, '}') && depth-- == 0) return;
        if (asm_is_punct(&t, '{')) depth++;
        asm_next(A);
        if (asm_is_punct(&t, ';')) return;
    }
}

/* After an error inside braces whose '{' is already consumed: skip past the
 * matching '}' (stopping before ';'), so the statement's own '}' is not taken
 * for the end of the entry. */
void asm_skip_braces(Asm *A)
{
    for (;;) {
        Token t = asm_peek(A);
        if (t.kind == TOK_EOF || t.kind == TOK_EOL || asm_is_punct(&t, ';')) return;
        asm_next(A);
        if (asm_is_punct(&t, '}')) return;
    }
}

void asm_skip_line(Asm *A)
{
    int saved = A->line_mode;
    A->line_mode = 1;
    while (asm_peek(A).kind != TOK_EOL && asm_peek(A).kind != TOK_EOF) asm_next(A);
    A->line_mode = saved;
}

/* ---- opcodes and modifiers ------------------------------------------------ */
static int find_mnemonic(const char *s, int len)
{
    for (int op = 0; op < OP_COUNT; op++)
        if ((int)strlen(isa_ops[op].mnemonic) == len && memcmp(isa_ops[op].mnemonic, s, (size_t)len) == 0)
            return op;
    return -1;
}

static void set_field(Instr *in, const ModInfo *m)
{
    switch ((ModField)m->field) {
    case MF_SPACE: in->space = (uint8_t)m->value; break;
    case MF_CACHE: in->cache = (uint8_t)m->value; break;
    case MF_VEC:   in->vec = (uint8_t)m->value; break;
    case MF_RND:   in->rnd = (uint8_t)m->value; break;
    case MF_MUL:   in->mul = (uint8_t)m->value; break;
    case MF_CMP:   in->cmp = (uint8_t)m->value; break;
    case MF_BOOL:  in->boolop = (uint8_t)m->value; break;
    case MF_SUB:   in->sub = (uint8_t)m->value; break;
    case MF_LEVEL: in->level = (uint8_t)m->value; break;
    case MF_SEM:   in->sem = (uint8_t)m->value; break;
    case MF_FLAG:  in->flags |= m->value; break;
    }
}

static int field_is_set(const Instr *in, const ModInfo *m)
{
    ModSlot s = { m->field, m->field == MF_FLAG ? m->value : 0 };
    if (m->field == MF_FLAG && (m->value == IF_APPROX || m->value == IF_FULL))
        return (in->flags & (IF_APPROX | IF_FULL)) != 0;
    return isa_mod_get(in, s) != 0;
}

/* Suggest a modifier or type valid for this opcode. */
static const char *suggest_mod(const char *word, const OpInfo *o)
{
    const char *cands[128];
    size_t n = 0;
    for (int i = 0; i < isa_nmods && n < 100; i++)
        if (isa_mods[i].cls & o->mods) cands[n++] = isa_mods[i].name;
    for (int t = 1; t < T_COUNT && n < 128; t++)
        if (o->types & TMASK(t)) cands[n++] = isa_type_name((DataType)t);
    return suggest_best(word, cands, n, sizeof cands[0]);
}

static const char *suggest_op(const char *word)
{
    const char *cands[OP_COUNT];
    for (int op = 0; op < OP_COUNT; op++) cands[op] = isa_ops[op].mnemonic;
    return suggest_best(word, cands, OP_COUNT, sizeof cands[0]);
}

static void types_list(uint32_t mask, char *buf, size_t n)
{
    size_t k = 0;
    buf[0] = '\0';
    for (int t = 1; t < T_COUNT && k + 8 < n; t++)
        if (mask & TMASK(t)) k += (size_t)snprintf(buf + k, n - k, "%s.%s", k ? " " : "", isa_type_name((DataType)t));
}

/* Split the opcode word, match the longest mnemonic, then apply modifiers
 * and types. Returns 0 or -1 (error reported). */
static int decode_mnemonic(Asm *A, const Token *t, Instr *in)
{
    const char *part[MAX_PARTS];
    int plen[MAX_PARTS], np = 0;
    for (int i = 0; i < t->len;) {
        int j = i;
        while (j < t->len && t->s[j] != '.') j++;
        if (np == MAX_PARTS) { asm_err(A, t, "too many modifiers in '%.*s'", t->len, t->s); return -1; }
        part[np] = t->s + i; plen[np] = j - i; np++;
        i = j + 1;
    }
    int op = -1, used = 0;
    for (int k = np < 3 ? np : 3; k >= 1 && op < 0; k--) {
        int len = (int)(part[k - 1] + plen[k - 1] - t->s);
        op = find_mnemonic(t->s, len);
        if (op >= 0) used = k;
    }
    if (op < 0) {
        char word[64];
        snprintf(word, sizeof word, "%.*s", plen[0] < 60 ? plen[0] : 60, t->s);
        const char *near = suggest_op(word);
        if (near) asm_err(A, t, "unknown opcode '%s' (did you mean '%s'?)", word, near);
        else asm_err(A, t, "unknown opcode '%s'", word);
        return -1;
    }
    const OpInfo *o = &isa_ops[op];
    in->op = (uint8_t)op;
    DataType ty[3];
    int nty = 0;
    for (int i = used; i < np; i++) {
        char word[64];
        int wl = plen[i];
        /* .shared::cta and .shared::cluster name the CTA's shared window */
        if (wl > 5 && memcmp(part[i], "shared::", 8 < wl ? 8 : (size_t)wl) == 0) wl = 6;
        snprintf(word, sizeof word, "%.*s", wl < 60 ? wl : 60, part[i]);
        DataType tt = isa_type_lookup(word, (int)strlen(word));
        if (tt != T_NONE) {
            if (nty < 3) ty[nty] = tt;
            nty++;
            continue;
        }
        const ModInfo *m = NULL;
        int known = 0;
        for (int k = 0; k < isa_nmods; k++) {
            if (strcmp(isa_mods[k].name, word) != 0) continue;
            known = 1;
            if (isa_mods[k].cls & o->mods) { m = &isa_mods[k]; break; }
        }
        if (!m) {
            if (known) asm_err(A, t, "'.%s' is not a modifier of %s", word, o->mnemonic);
            else {
                const char *near = suggest_mod(word, o);
                if (near) asm_err(A, t, "unknown modifier '.%s' in %s (did you mean '.%s'?)", word, o->mnemonic, near);
                else asm_err(A, t, "unknown modifier '.%s' in %s", word, o->mnemonic);
            }
            return -1;
        }
        if (field_is_set(in, m)) { asm_err(A, t, "'.%s' conflicts with an earlier modifier of %s", word, o->mnemonic); return -1; }
        set_field(in, m);
    }
    int want = o->types == 0 ? 0 : op == OP_CVT ? 2 : 1;
    char allowed[200];
    types_list(o->types, allowed, sizeof allowed);
    if (nty != want) {
        if (want == 0) asm_err(A, t, "%s takes no type suffix", o->mnemonic);
        else if (want == 2) asm_err(A, t, "cvt needs two types, destination then source (cvt.f32.s32)");
        else if (nty == 0) asm_err(A, t, "%s needs a type suffix (one of %s)", o->mnemonic, allowed);
        else asm_err(A, t, "%s takes one type suffix, got %d", o->mnemonic, nty);
        return -1;
    }
    for (int i = 0; i < nty; i++) {
        if (!(o->types & TMASK(ty[i]))) {
            asm_err(A, t, "%s does not take .%s (it takes %s)", o->mnemonic, isa_type_name(ty[i]), allowed);
            return -1;
        }
    }
    if (nty >= 1) in->type = (uint8_t)ty[0];
    if (nty == 2) in->stype = (uint8_t)ty[1];
    return 0;
}

/* Rules the table cannot say: required modifiers and combinations. */
static int check_modifiers(Asm *A, const Token *t, Instr *in)
{
    const char *mn = isa_ops[in->op].mnemonic;
    TypeKind k = isa_type_kind((DataType)in->type);
    int bits = isa_type_bits((DataType)in->type);
    switch ((Opcode)in->op) {
    case OP_MUL: case OP_MAD:
        if (k == TK_FLOAT) {
            if (in->mul) { asm_err(A, t, "%s.%s takes no .lo/.hi/.wide", mn, isa_type_name((DataType)in->type)); return -1; }
        } else {
            if (!in->mul) { asm_err(A, t, "integer %s needs .lo, .hi or .wide (%s.lo.%s)", mn, mn, isa_type_name((DataType)in->type)); return -1; }
            if (in->mul == MUL_WIDE && bits > 32) { asm_err(A, t, "%s.wide takes 16- or 32-bit types", mn); return -1; }
            if (in->rnd || (in->flags & IF_FTZ)) { asm_err(A, t, "rounding and .ftz apply to floating-point %s only", mn); return -1; }
        }
        break;
    case OP_FMA:
        if (in->rnd < RND_RN || in->rnd > RND_RP) { asm_err(A, t, "fma needs a rounding modifier (.rn, .rz, .rm or .rp)"); return -1; }
        break;
    case OP_SETP:
        if (!in->cmp) { asm_err(A, t, "setp needs a comparison (.eq .ne .lt .le .gt .ge, .lo .ls .hi .hs, .equ ... .nan)"); return -1; }
        if (in->cmp >= CMP_LO && in->cmp <= CMP_HS && k == TK_FLOAT) { asm_err(A, t, "unsigned comparisons (.lo .ls .hi .hs) are for integers"); return -1; }
        if (in->cmp >= CMP_EQU && k != TK_FLOAT) { asm_err(A, t, "unordered comparisons (.equ ... .nan) are for floating point"); return -1; }
        break;
    case OP_VOTE:
        if (!in->sub) { asm_err(A, t, "vote.sync needs .all, .any, .uni or .ballot"); return -1; }
        if ((in->sub == VOTE_BALLOT) != (in->type == T_B32)) {
            asm_err(A, t, in->sub == VOTE_BALLOT ? "vote.sync.ballot needs .b32" : "vote.sync.all/.any/.uni need .pred");
            return -1;
        }
        break;
    case OP_SHFL:
        if (!in->sub) { asm_err(A, t, "shfl.sync needs .up, .down, .bfly or .idx"); return -1; }
        break;
    case OP_ATOM: case OP_RED:
        if (!in->sub) { asm_err(A, t, "%s needs an operation (.add .min .max .inc .dec .exch .cas .and .or .xor)", mn); return -1; }
        if (in->op == OP_RED && in->sub == ATOM_CAS) { asm_err(A, t, "red has no .cas; use atom.cas"); return -1; }
        if (in->space != SP_NONE && in->space != SP_GLOBAL && in->space != SP_SHARED) {
            asm_err(A, t, "%s works on .global or .shared memory", mn);
            return -1;
        }
        if (k == TK_FLOAT && in->sub != ATOM_ADD && in->sub != ATOM_EXCH && in->sub != ATOM_MIN && in->sub != ATOM_MAX) {
            asm_err(A, t, "%s on floating point supports .add .exch .min .max", mn);
            return -1;
        }
        if ((in->sub == ATOM_AND || in->sub == ATOM_OR || in->sub == ATOM_XOR || in->sub == ATOM_EXCH || in->sub == ATOM_CAS) && k == TK_SINT) {
            asm_err(A, t, "%s.%s takes .b types", mn, in->sub == ATOM_CAS ? "cas" : "bitwise/exch");
            return -1;
        }
        break;
    case OP_ST:
        if (in->space == SP_CONST || in->space == SP_PARAM) { asm_err(A, t, "cannot store to %s memory", in->space == SP_CONST ? ".const" : ".param"); return -1; }
        break;
    case OP_CVTA:
        if (in->space == SP_NONE || in->space == SP_PARAM) { asm_err(A, t, "cvta needs a state space (.global .shared .local .const)"); return -1; }
        break;
    case OP_CVT:
        if (in->rnd >= RND_RNI && isa_type_kind((DataType)in->stype) != TK_FLOAT) {
            asm_err(A, t, "integer rounding (.rni .rzi .rmi .rpi) needs a floating-point source");
            return -1;
        }
        break;
    default: break;
    }
    if (in->vec > 1 && in->space == SP_PARAM) { asm_err(A, t, "vector access to .param space is not supported"); return -1; }
    return 0;
}

/* ---- operands --------------------------------------------------------------- */
/* The type an operand slot holds (immediates are converted to it). */
static DataType slot_type(const Instr *in, int slot)
{
    if (isa_operand_bits(in, slot) == 1) return T_PRED;
    switch ((Format)isa_ops[in->op].format) {
    case FMT_BAR: case FMT_MASK: case FMT_SHFL: return T_B32;
    case FMT_VOTE: return slot == 0 ? (DataType)in->type : T_B32;
    default: break;
    }
    if (in->op == OP_CVT && slot == 1) return (DataType)in->stype;
    if ((in->op == OP_SHL || in->op == OP_SHR) && slot == 2) return T_U32;
    if ((in->op == OP_POPC || in->op == OP_CLZ) && slot == 0) return T_U32;
    if (in->mul == MUL_WIDE && isa_operand_bits(in, slot) > isa_type_bits((DataType)in->type))
        return (DataType)(in->type + 1);   /* mad.wide's c: u16->u32, s32->s64 (ISA_TYPES order) */
    return (DataType)in->type;
}

static const char *opname(const Instr *in) { return isa_ops[in->op].mnemonic; }

static int check_reg_width(Asm *A, const Token *t, const Instr *in, int slot, int idx, int is_pred)
{
    int need = isa_operand_bits(in, slot);
    char b[64];
    if (need == 1 && !is_pred) {
        asm_err(A, t, "%s needs a predicate here, but %s is a %d-bit register", opname(in), asm_show(t, b, sizeof b), A->e->regs[idx].bits);
        return -1;
    }
    if (need != 1 && is_pred) {
        asm_err(A, t, "%s is a predicate; %s needs a %d-bit register here", asm_show(t, b, sizeof b), opname(in), need ? need : 32);
        return -1;
    }
    if (is_pred || need == 0 || need <= 16) return 0;
    int have = A->e->regs[idx].bits;
    if (have != need) {
        asm_err(A, t, "%s is a %d-bit register; %s%s.%s needs a %d-bit register here", asm_show(t, b, sizeof b), have,
            opname(in), in->mul == MUL_WIDE ? ".wide" : "",
            isa_type_name(in->mul == MUL_WIDE ? (DataType)in->type : slot_type(in, slot)), need);
        return -1;
    }
    return 0;
}

/* A register operand (destination or source). */
static int parse_reg(Asm *A, Instr *in, int slot, Operand *o)
{
    Token t = asm_next(A);
    char b[64];
    if (t.kind != TOK_REG) {
        if (t.kind != TOK_ERROR) asm_err(A, &t, "%s: expected a register, got %s", opname(in), asm_show(&t, b, sizeof b));
        return -1;
    }
    if (asm_sreg_lookup(&t) >= 0) { asm_err(A, &t, "%s: special register %s cannot be written", opname(in), asm_show(&t, b, sizeof b)); return -1; }
    int is_pred;
    int idx = asm_lookup_reg(A, &t, &is_pred);
    if (idx < 0 || check_reg_width(A, &t, in, slot, idx, is_pred)) return -1;
    o->kind = is_pred ? OPD_PRED : OPD_REG;
    o->r[0] = (uint16_t)idx;
    return 0;
}

static int imm_to_slot(Asm *A, const Token *t, const Instr *in, int slot, Operand *o, int is_float, double f, int64_t v, int f32_exact)
{
    DataType ty = slot_type(in, slot);
    o->kind = OPD_IMM;
    if (ty == T_PRED) { asm_err(A, t, "%s: a predicate operand cannot be an immediate", opname(in)); return -1; }
    if (isa_type_kind(ty) == TK_FLOAT) {
        double d = is_float ? f : (double)v;
        if (ty == T_F32) {
            float x = (float)d;
            uint32_t bits;
            if (f32_exact) bits = (uint32_t)v; else memcpy(&bits, &x, 4);
            o->imm = bits;
        } else {
            if (f32_exact) { uint32_t b32 = (uint32_t)v; float x; memcpy(&x, &b32, 4); d = x; }
            uint64_t bits;
            memcpy(&bits, &d, 8);
            o->imm = (int64_t)bits;
        }
        return 0;
    }
    if (is_float) { asm_err(A, t, "%s: floating-point immediate where .%s is expected", opname(in), isa_type_name(ty)); return -1; }
    int bits = isa_type_bits(ty);
    if (bits < 64) {
        int64_t lo = -((int64_t)1 << (bits - 1)), hi = ((int64_t)1 << bits) - 1;
        if (v < lo || v > hi) {
            asm_err(A, t, "%s: immediate %lld does not fit in .%s", opname(in), (long long)v, isa_type_name(ty));
            return -1;
        }
    }
    o->imm = v;
    return 0;
}

/* The "+8", "-4", "+TILE*4-8" after an address's base: + and - terms, each
 * a product, added to *imm. */
static int parse_offset(Asm *A, int64_t *imm)
{
    for (Token op = asm_peek(A); asm_is_punct(&op, '+') || asm_is_punct(&op, '-'); op = asm_peek(A)) {
        asm_next(A);
        int64_t off;
        if (asm_parse_binary(A, asm_prec_of('*'), &off)) return -1;
        if (op.punct == '-') { if (off == INT64_MIN) return asm_overflow(A, &op); off = -off; }
        if (__builtin_add_overflow(*imm, off, imm)) return asm_overflow(A, &op);
    }
    return 0;
}

/* PTX's predefined identifier WARP_SZ (PTX ISA, "Identifiers"): the warp
 * size of the target, a run-time constant that instructions may use as an
 * operand.  The assembler runs before the config is known, so it is encoded
 * like a special register (SR_WARP_SZ) and read from sm.warp_size at run
 * time; it therefore cannot take part in an assemble-time expression. */
static int parse_warp_sz(Asm *A, Instr *in, int slot, Operand *o)
{
    Token t = asm_next(A);
    Token after = asm_peek(A);
    if (after.kind == TOK_PUNCT && !asm_is_punct(&after, ',') && !asm_is_punct(&after, ';')) {
        asm_err(A, &t, "%s: %s", opname(in), asm_warp_sz_hint);
        return -1;
    }
    DataType ty = slot_type(in, slot);
    if (ty == T_PRED || isa_type_kind(ty) == TK_FLOAT) {
        asm_err(A, &t, "%s: WARP_SZ is an integer", opname(in));
        return -1;
    }
    if (isa_ops[in->op].format == FMT_BAR) {
        asm_err(A, &t, "%s: WARP_SZ cannot be a barrier operand; write the number", opname(in));
        return -1;
    }
    o->kind = OPD_SREG;
    o->r[0] = SR_WARP_SZ;
    return 0;
}

/* A source operand: register, special register, immediate, or variable. */
static int parse_src(Asm *A, Instr *in, int slot, Operand *o)
{
    Token t = asm_peek(A);
    char b[64];
    if (t.kind == TOK_IDENT && asm_tok_is(&t, "WARP_SZ")) return parse_warp_sz(A, in, slot, o);
    if (t.kind == TOK_REG) {
        int s = asm_sreg_lookup(&t);
        if (s >= 0) {
            asm_next(A);
            if (slot_type(in, slot) == T_PRED || isa_type_kind(slot_type(in, slot)) == TK_FLOAT) {
                asm_err(A, &t, "%s: special register %s is an integer", opname(in), asm_show(&t, b, sizeof b));
                return -1;
            }
            o->kind = OPD_SREG;
            o->r[0] = (uint16_t)s;
            return 0;
        }
        return parse_reg(A, in, slot, o);
    }
    if (asm_is_punct(&t, '!')) {
        asm_next(A);
        if (parse_reg(A, in, slot, o)) return -1;
        if (o->kind != OPD_PRED) { asm_err(A, &t, "'!' negates predicates only"); return -1; }
        o->neg = 1;
        return 0;
    }
    if (t.kind == TOK_IDENT && asm_lookup_var(A, &t) >= 0) {
        asm_next(A);
        if (in->op != OP_MOV && in->op != OP_CVTA) {
            asm_err(A, &t, "%s: a variable's address can only be taken with mov or cvta", opname(in));
            return -1;
        }
        o->kind = OPD_SYM;
        o->sym = asm_lookup_var(A, &t);
        return parse_offset(A, &o->imm);
    }
    if (t.kind == TOK_IDENT && strmap_get(&A->parammap, t.s, t.len) >= 0) {
        asm_next(A);
        asm_err(A, &t, "parameter %s can only be read with ld.param", asm_show(&t, b, sizeof b));
        return -1;
    }
    /* immediates: a float literal (optionally negated) or an integer expression */
    Token t1 = asm_peek_n(A, 1);
    if (t.kind == TOK_FLOAT || (asm_is_punct(&t, '-') && t1.kind == TOK_FLOAT)) {
        int neg = asm_is_punct(&t, '-');
        if (neg) asm_next(A);
        Token ft = asm_next(A);
        double f = neg ? -ft.fval : ft.fval;
        int64_t bits = (int64_t)ft.ival;
        if (ft.fbits == 32 && neg) bits ^= (int64_t)0x80000000;
        return imm_to_slot(A, &t, in, slot, o, 1, f, bits, ft.fbits == 32);
    }
    if (t.kind == TOK_INT || t.kind == TOK_IDENT || asm_is_punct(&t, '(') || asm_is_punct(&t, '-') || asm_is_punct(&t, '~')) {
        int64_t v;
        if (asm_parse_expr(A, &v)) return -1;
        return imm_to_slot(A, &t, in, slot, o, 0, 0, v, 0);
    }
    if (t.kind != TOK_ERROR) asm_err(A, &t, "%s: expected an operand, got %s", opname(in), asm_show(&t, b, sizeof b));
    return -1;
}

static int parse_pred_src(Asm *A, Instr *in, int slot, Operand *o)
{
    Token t = asm_peek(A);
    char b[64];
    int neg = asm_accept(A, '!');
    Token r = asm_peek(A);
    if (r.kind != TOK_REG) { asm_err(A, &r, "%s: expected a predicate register, got %s", opname(in), asm_show(&r, b, sizeof b)); return -1; }
    if (parse_reg(A, in, slot, o)) return -1;
    (void)t;
    o->neg = (uint8_t)neg;
    return 0;
}

/* [base], [base+off], [base-off], [sym], [sym+off], [imm] */
static int parse_mem(Asm *A, Instr *in, Operand *o)
{
    Token open = asm_peek(A);
    char b[64];
    if (!asm_is_punct(&open, '[')) {
        asm_err(A, &open, "%s: expected an address in brackets like [%%rd1+4], got %s", opname(in), asm_show(&open, b, sizeof b));
        return -1;
    }
    asm_next(A);
    o->kind = OPD_MEM;
    o->r[0] = REG_NONE;
    o->sym = -1;
    Token t = asm_peek(A);
    if (t.kind == TOK_REG) {
        asm_next(A);
        int is_pred;
        if (asm_sreg_lookup(&t) >= 0) { asm_err(A, &t, "%s: a special register cannot be an address", opname(in)); return -1; }
        int idx = asm_lookup_reg(A, &t, &is_pred);
        if (idx < 0) return -1;
        if (is_pred || A->e->regs[idx].bits < 32) {
            asm_err(A, &t, "%s: address register %s must be 32 or 64 bits", opname(in), asm_show(&t, b, sizeof b));
            return -1;
        }
        o->r[0] = (uint16_t)idx;
    } else if (t.kind == TOK_IDENT && strmap_get(&A->parammap, t.s, t.len) >= 0) {
        asm_next(A);
        o->sym = strmap_get(&A->parammap, t.s, t.len);
        o->is_param = 1;
    } else if (t.kind == TOK_IDENT && asm_lookup_var(A, &t) >= 0) {
        asm_next(A);
        o->sym = asm_lookup_var(A, &t);
    } else if (t.kind == TOK_IDENT && strmap_get(&A->defmap, t.s, t.len) < 0) {
        asm_next(A);
        asm_err(A, &t, "%s: unknown name %s in address (not a register, parameter or variable)", opname(in), asm_show(&t, b, sizeof b));
        return -1;
    } else {
        int64_t v;
        if (asm_parse_expr(A, &v)) return -1;
        o->imm = v;
    }
    Token s = asm_peek(A);
    if (parse_offset(A, &o->imm)) return -1;
    if (o->imm < INT32_MIN || o->imm > INT32_MAX) {
        asm_err(A, &s, "%s: address offset %lld is out of range", opname(in), (long long)o->imm);
        return -1;
    }
    if (asm_expect(A, ']', "to close the address")) return -1;
    /* state-space agreement */
    if (o->is_param && in->space != SP_PARAM) {
        asm_err(A, &t, "parameter %s can only be read with ld.param", asm_show(&t, b, sizeof b));
        return -1;
    }
    if (!o->is_param && in->space == SP_PARAM) {
        asm_err(A, &t, "ld.param needs a kernel parameter name in brackets");
        return -1;
    }
    if (o->sym >= 0 && !o->is_param) {
        const Var *v = &A->p->vars[o->sym];
        if (in->space != SP_NONE && v->space != in->space) {
            static const char *const sp[] = { "generic", ".global", ".shared", ".const", ".local", ".param" };
            asm_err(A, &t, "%s is a %s variable, but the instruction accesses %s memory", v->name, sp[v->space], sp[in->space]);
            return -1;
        }
    }
    return 0;
}

/* {%r1, %r2[, %r3, %r4]} for .v2/.v4, or a single register. */
static int parse_vec_or_reg(Asm *A, Instr *in, int slot, Operand *o, int is_dst)
{
    Token t = asm_peek(A);
    char b[64];
    if (in->vec == 1) {
        if (asm_is_punct(&t, '{')) { asm_err(A, &t, "%s: a register vector needs .v2 or .v4", opname(in)); return -1; }
        return is_dst ? parse_reg(A, in, slot, o) : parse_src(A, in, slot, o);
    }
    if (!asm_is_punct(&t, '{')) { asm_err(A, &t, "%s.v%d needs %d registers in braces, like {%%f1, %%f2}", opname(in), in->vec, in->vec); return -1; }
    asm_next(A);
    o->kind = OPD_VEC;
    /* on an error inside the braces, skip past the '}' so the caller's
     * recovery does not take it for the end of the entry */
    for (int i = 0;; i++) {
        Token r = asm_peek(A);
        if (i >= in->vec) { asm_err(A, &r, "%s.v%d takes exactly %d registers", opname(in), in->vec, in->vec); goto fail; }
        if (r.kind == TOK_IDENT && asm_tok_is(&r, "_") && is_dst) {
            asm_next(A);
            o->r[i] = REG_NONE;
        } else {
            Operand one;
            memset(&one, 0, sizeof one);
            if (parse_reg(A, in, slot, &one)) goto fail;
            o->r[i] = one.r[0];
        }
        o->n = (uint8_t)(i + 1);
        Token sep = asm_peek(A);
        if (asm_is_punct(&sep, '}')) { asm_next(A); break; }
        if (!asm_is_punct(&sep, ',')) { asm_err(A, &sep, "expected ',' or '}' in a register vector, got %s", asm_show(&sep, b, sizeof b)); goto fail; }
        asm_next(A);
    }
    if (o->n != in->vec) { asm_err(A, &t, "%s.v%d takes exactly %d registers, got %d", opname(in), in->vec, in->vec, o->n); return -1; }
    return 0;
fail:
    asm_skip_braces(A);
    return -1;
}

static int parse_label_ref(Asm *A, Instr *in, Operand *o)
{
    Token t = asm_next(A);
    char b[64];
    if (t.kind != TOK_IDENT) { asm_err(A, &t, "%s: expected a label, got %s", opname(in), asm_show(&t, b, sizeof b)); return -1; }
    o->kind = OPD_LABEL;
    GROW(A->fix, A->nfix, A->capfix);
    A->fix[A->nfix++] = (Fixup){ A->e->ncode, 0, asm_xstrndup(t.s, (size_t)t.len), t.line, t.col };
    return 0;
}

static const char *const format_operands[] = {
    [FMT_NONE] = "no operands", [FMT_D] = "d", [FMT_D_A] = "d, a", [FMT_D_AB] = "d, a, b",
    [FMT_D_ABC] = "d, a, b, c", [FMT_SETP] = "p[|q], a, b[, c]", [FMT_SELP] = "d, a, b, c",
    [FMT_LD] = "d, [a]", [FMT_ST] = "[a], b", [FMT_ATOM] = "d, [a], b[, c]",
    [FMT_RED] = "[a], b", [FMT_BRA] = "a label", [FMT_BAR] = "a[, b]", [FMT_MASK] = "membermask",
    [FMT_VOTE] = "d, a, membermask", [FMT_SHFL] = "d[|p], a, b, c, membermask",
};

/* Between operands: a ',' is required; ';' early means too few. */
static int comma(Asm *A, const Instr *in)
{
    Token t = asm_peek(A);
    char b[64];
    if (asm_is_punct(&t, ',')) { asm_next(A); return 0; }
    if (asm_is_punct(&t, ';'))
        asm_err(A, &t, "too few operands for %s: it takes %s", opname(in), format_operands[isa_ops[in->op].format]);
    else if (t.kind != TOK_ERROR)
        asm_err(A, &t, "expected ',' between operands of %s, got %s", opname(in), asm_show(&t, b, sizeof b));
    return -1;
}

static int parse_operands(Asm *A, Instr *in)
{
    Operand *o = in->opd;
    int rc = 0, last = -1;
    switch ((Format)isa_ops[in->op].format) {
    case FMT_NONE: break;
    case FMT_D: rc = parse_reg(A, in, 0, &o[0]); last = 0; break;
    case FMT_D_A:
        rc = parse_reg(A, in, 0, &o[0]) || comma(A, in) || parse_src(A, in, 1, &o[1]); last = 1; break;
    case FMT_D_AB:
        rc = parse_reg(A, in, 0, &o[0]) || comma(A, in) || parse_src(A, in, 1, &o[1]) || comma(A, in) ||
             parse_src(A, in, 2, &o[2]);
        last = 2; break;
    case FMT_D_ABC: case FMT_SELP:
        rc = parse_reg(A, in, 0, &o[0]) || comma(A, in) || parse_src(A, in, 1, &o[1]) || comma(A, in) ||
             parse_src(A, in, 2, &o[2]) || comma(A, in) ||
             (in->op == OP_SELP ? parse_pred_src(A, in, 3, &o[3]) : parse_src(A, in, 3, &o[3]));
        last = 3; break;
    case FMT_SETP:
        rc = parse_reg(A, in, 0, &o[0]);
        if (!rc && asm_accept(A, '|')) { rc = parse_reg(A, in, 5, &o[5]); last = 5; }
        rc = rc || comma(A, in) || parse_src(A, in, 1, &o[1]) || comma(A, in) || parse_src(A, in, 2, &o[2]);
        if (last < 2) last = 2;
        if (!rc && in->boolop) { rc = comma(A, in) || parse_pred_src(A, in, 3, &o[3]); if (last < 3) last = 3; }
        break;
    case FMT_LD:
        rc = parse_vec_or_reg(A, in, 0, &o[0], 1) || comma(A, in) || parse_mem(A, in, &o[1]); last = 1; break;
    case FMT_ST:
        rc = parse_mem(A, in, &o[0]) || comma(A, in) || parse_vec_or_reg(A, in, 1, &o[1], 0); last = 1; break;
    case FMT_ATOM:
        rc = parse_reg(A, in, 0, &o[0]) || comma(A, in) || parse_mem(A, in, &o[1]) || comma(A, in) ||
             parse_src(A, in, 2, &o[2]);
        last = 2;
        if (!rc && in->sub == ATOM_CAS) { rc = comma(A, in) || parse_src(A, in, 3, &o[3]); last = 3; }
        break;
    case FMT_RED:
        rc = parse_mem(A, in, &o[0]) || comma(A, in) || parse_src(A, in, 1, &o[1]); last = 1; break;
    case FMT_BRA: rc = parse_label_ref(A, in, &o[0]); last = 0; break;
    case FMT_BAR:
        rc = parse_src(A, in, 0, &o[0]); last = 0;
        if (!rc && asm_accept(A, ',')) { rc = parse_src(A, in, 1, &o[1]); last = 1; }
        break;
    case FMT_MASK: rc = parse_src(A, in, 0, &o[0]); last = 0; break;
    case FMT_VOTE:
        rc = parse_reg(A, in, 0, &o[0]) || comma(A, in) || parse_pred_src(A, in, 1, &o[1]) || comma(A, in) ||
             parse_src(A, in, 2, &o[2]);
        last = 2; break;
    case FMT_SHFL:
        rc = parse_reg(A, in, 0, &o[0]);
        if (!rc && asm_accept(A, '|')) { rc = parse_reg(A, in, 5, &o[5]); last = 5; }
        rc = rc || comma(A, in) || parse_src(A, in, 1, &o[1]) || comma(A, in) || parse_src(A, in, 2, &o[2]) ||
             comma(A, in) || parse_src(A, in, 3, &o[3]) || comma(A, in) || parse_src(A, in, 4, &o[4]);
        if (last < 4) last = 4;
        break;
    }
    if (rc) return -1;
    in->nops = (uint8_t)(last + 1);
    Token t = asm_peek(A);
    char b[64];
    if (asm_is_punct(&t, ',')) {
        asm_err(A, &t, "too many operands for %s: it takes %s", opname(in), format_operands[isa_ops[in->op].format]);
        return -1;
    }
    if (!asm_is_punct(&t, ';')) {
        if (t.kind != TOK_ERROR) asm_err(A, &t, "expected ';' after the instruction, got %s", asm_show(&t, b, sizeof b));
        return -1;
    }
    asm_next(A);
    return 0;
}

void asm_parse_instruction(Asm *A)
{
    Instr in;
    memset(&in, 0, sizeof in);
    in.guard = REG_NONE;
    in.vec = 1;
    Token first = asm_peek(A);
    in.line = (uint32_t)first.line;
    in.col = (uint32_t)first.col;
    char b[64];
    if (asm_accept(A, '@')) {
        int neg = asm_accept(A, '!');
        Token g = asm_next(A);
        int is_pred;
        int idx = g.kind == TOK_REG ? asm_lookup_reg(A, &g, &is_pred) : -1;
        if (g.kind != TOK_REG) asm_err(A, &g, "expected a predicate register after '@', got %s", asm_show(&g, b, sizeof b));
        else if (idx >= 0 && !is_pred) asm_err(A, &g, "guard %s is not a predicate register", asm_show(&g, b, sizeof b));
        if (idx < 0 || !is_pred) { asm_skip_statement(A); return; }
        in.guard = (uint16_t)idx;
        in.guard_neg = (uint8_t)neg;
    }
    Token m = asm_next(A);
    if (m.kind != TOK_IDENT) {
        if (m.kind != TOK_ERROR) asm_err(A, &m, "expected an instruction, got %s", asm_show(&m, b, sizeof b));
        asm_skip_statement(A);
        return;
    }
    if (decode_mnemonic(A, &m, &in) || check_modifiers(A, &m, &in)) { asm_skip_statement(A); return; }
    int nfix_before = A->nfix;
    if (parse_operands(A, &in)) {
        while (A->nfix > nfix_before) free(A->fix[--A->nfix].name);
        asm_skip_statement(A);
        return;
    }
    in.unit = (uint8_t)isa_unit(&in);
    Entry *e = A->e;
    if (e->ncode >= MAX_CODE) { asm_err(A, &m, "too many instructions in one entry"); return; }
    GROW(e->code, e->ncode, A->capcode);
    e->code[e->ncode++] = in;
}

/* ---- entries ------------------------------------------------------------- */
static const char *const perf_directives[] = { ".maxntid", ".reqntid", ".minnctapersm", ".maxnreg", ".nregs", ".noreturn", ".pragma" };

static int is_perf_directive(const Token *t)
{
    for (size_t i = 0; i < sizeof perf_directives / sizeof perf_directives[0]; i++)
        if (asm_tok_is(t, perf_directives[i])) return 1;
    return 0;
}

/* .maxntid/.reqntid x[,y,z], .minnctapersm n, .maxnreg n, .nregs n (gpusim:
 * the register count per thread for occupancy, instead of counting). */
static void parse_perf_directive(Asm *A, const Token *d)
{
    int saved = A->line_mode;
    A->line_mode = 1;
    if (asm_tok_is(d, ".pragma")) { asm_skip_line(A); A->line_mode = saved; asm_accept(A, ';'); return; }
    if (asm_tok_is(d, ".noreturn")) { A->line_mode = saved; asm_accept(A, ';'); return; }
    int64_t v[3] = { 0, 0, 0 };
    int n = 0;
    Token at = asm_peek(A);
    do {
        if (n == 3) { asm_err(A, &at, "%.*s takes at most 3 values", d->len, d->s); break; }
        if (asm_parse_expr(A, &v[n])) { asm_skip_line(A); A->line_mode = saved; return; }
        n++;
    } while (asm_accept(A, ','));
    if (asm_tok_is(d, ".nregs") || asm_tok_is(d, ".maxnreg")) {
        if (n != 1 || v[0] < 1 || v[0] > 255) asm_err(A, &at, "%.*s needs one value in [1,255]", d->len, d->s);
        else if (asm_tok_is(d, ".nregs")) { A->e->regs_per_thread = (int)v[0]; A->e->regs_stated = 1; }
    } else if (asm_tok_is(d, ".reqntid")) {
        for (int i = 0; i < 3; i++) A->e->reqntid[i] = i < n ? (int)v[i] : 1;
    }
    A->line_mode = saved;
    asm_accept(A, ';');
}

static void finish_entry(Asm *A)
{
    Entry *e = A->e;
    for (int i = 0; i < A->nfix; i++) {
        Fixup *f = &A->fix[i];
        int l = strmap_get(&A->labelmap, f->name, (int)strlen(f->name));
        if (l < 0) {
            const char *near = e->nlabels ? suggest_best(f->name, e->labels, (size_t)e->nlabels, sizeof *e->labels) : NULL;
            Token at = { .line = f->line, .col = f->col };
            const char *p = A->src;
            for (int ln = 1; ln < f->line && p < A->src + A->len; p++) if (*p == '\n') ln++;
            at.s = p;
            if (near) asm_err(A, &at, "undefined label '%s' (did you mean '%s'?)", f->name, near);
            else asm_err(A, &at, "undefined label '%s'", f->name);
        } else {
            e->code[f->pc].opd[0].imm = e->labels[l].pc;
        }
        free(f->name);
    }
    A->nfix = 0;
    if (!e->regs_stated) {
        int n = 0;
        for (int i = 0; i < e->nregs; i++)
            if (e->regs[i].used) n += e->regs[i].bits == 64 ? 2 : 1;
        e->regs_per_thread = n;
    }
    if (cfg_build(e)) abort();
    strmap_clear(&A->regmap);
    strmap_clear(&A->predmap);
    strmap_clear(&A->labelmap);
    strmap_clear(&A->entryvars);
    strmap_clear(&A->parammap);
    A->e = NULL;
}

static void parse_body_statement(Asm *A, int *depth)
{
    Token t = asm_peek(A);
    char b[64];
    if (asm_is_punct(&t, '{')) { asm_next(A); (*depth)++; return; }
    if (t.kind == TOK_DIRECTIVE) {
        asm_next(A);
        if (asm_tok_is(&t, ".reg")) asm_parse_reg_decl(A);
        else if (asm_tok_is(&t, ".shared") || asm_tok_is(&t, ".local") || asm_tok_is(&t, ".const")) asm_parse_var_decl(A, &t, 0);
        else if (asm_tok_is(&t, ".extern")) {
            Token d = asm_next(A);
            asm_parse_var_decl(A, &d, 1);
        } else if (is_perf_directive(&t)) parse_perf_directive(A, &t);
        else if (asm_tok_is(&t, ".loc") || asm_tok_is(&t, ".file")) asm_skip_line(A);
        else {
            asm_err(A, &t, "unknown directive %s inside an entry", asm_show(&t, b, sizeof b));
            asm_skip_statement(A);
        }
        return;
    }
    Token t1 = asm_peek_n(A, 1);
    if (t.kind == TOK_IDENT && asm_is_punct(&t1, ':')) {
        asm_next(A); asm_next(A);
        if (strmap_get(&A->labelmap, t.s, t.len) >= 0) {
            int l = strmap_get(&A->labelmap, t.s, t.len);
            asm_err(A, &t, "duplicate label '%.*s' (first defined at pc %u)", t.len, t.s, A->e->labels[l].pc);
            return;
        }
        Entry *e = A->e;
        GROW(e->labels, e->nlabels, A->caplabels);
        e->labels[e->nlabels] = (Label){ asm_xstrndup(t.s, (size_t)t.len), (uint32_t)e->ncode };
        strmap_put(&A->labelmap, t.s, t.len, e->nlabels++);
        return;
    }
    if (t.kind == TOK_IDENT || asm_is_punct(&t, '@')) { asm_parse_instruction(A); return; }
    if (t.kind != TOK_ERROR) asm_err(A, &t, "expected an instruction, label or directive, got %s", asm_show(&t, b, sizeof b));
    asm_next(A);
    asm_skip_statement(A);
}

static void parse_entry(Asm *A)
{
    Token name = asm_peek(A);
    char b[64];
    if (name.kind != TOK_IDENT) {
        asm_err(A, &name, "expected the entry's name after .entry, got %s", asm_show(&name, b, sizeof b));
        /* with its parameters or body still there, check them as a nameless
         * entry rather than report them as stray top-level text */
        if (!asm_is_punct(&name, '(') && !asm_is_punct(&name, '{')) { asm_next(A); return; }
        name.len = 0;
    } else {
        asm_next(A);
    }
    Program *p = A->p;
    if (strmap_get(&A->entrymap, name.s, name.len) >= 0) asm_err(A, &name, "entry %s defined twice", asm_show(&name, b, sizeof b));
    GROW(p->entries, p->nentries, A->capentries);
    Entry *e = &p->entries[p->nentries];
    memset(e, 0, sizeof *e);
    e->name = asm_xstrndup(name.s, (size_t)name.len);
    e->line = name.line;
    e->col = name.col;
    A->entry_index = p->nentries;
    if (strmap_get(&A->entrymap, name.s, name.len) < 0) strmap_put(&A->entrymap, name.s, name.len, p->nentries);
    p->nentries++;
    A->e = e;
    A->capcode = A->capregs = A->cappreds = A->caplabels = 0;
    /* module-scope .shared is in every CTA, below the entry's own variables */
    e->shared_bytes = A->module_shared;
    e->local_bytes = A->module_local;

    if (asm_accept(A, '(')) asm_parse_params(A);
    for (;;) {
        Token t = asm_peek(A);
        if (t.kind == TOK_DIRECTIVE && is_perf_directive(&t)) { asm_next(A); parse_perf_directive(A, &t); continue; }
        break;
    }
    Token open = asm_peek(A);
    if (!asm_is_punct(&open, '{')) {
        asm_err(A, &open, "expected '{' to open the body of %s, got %s", e->name, asm_show(&open, b, sizeof b));
        /* resynchronise on the next '{' */
        while (asm_peek(A).kind != TOK_EOF && !asm_is_punct(&open, '{')) { asm_next(A); open = asm_peek(A); }
        if (open.kind == TOK_EOF) { finish_entry(A); return; }
    }
    asm_next(A);
    int depth = 0;
    for (;;) {
        Token t = asm_peek(A);
        if (t.kind == TOK_EOF) {
            asm_err(A, &open, "missing '}' at the end of entry %s", e->name);
            break;
        }
        if (asm_is_punct(&t, '}')) {
            asm_next(A);
            if (depth == 0) break;
            depth--;
            continue;
        }
        parse_body_statement(A, &depth);
        e = A->e;
    }
    finish_entry(A);
}

/* ---- host directives ------------------------------------------------------- */
static char *string_value(const Token *t)
{
    char *s = asm_xstrndup(t->s + 1, (size_t)(t->len - 2));
    char *w = s;
    for (char *r = s; *r; r++) {
        if (*r == '\\' && r[1]) r++;
        *w++ = *r;
    }
    *w = '\0';
    return s;
}

/* A number: float literal (optionally negated) or integer expression. */
static int parse_number(Asm *A, double *out)
{
    Token t = asm_peek(A), t1 = asm_peek_n(A, 1);
    if (t.kind == TOK_FLOAT || (asm_is_punct(&t, '-') && t1.kind == TOK_FLOAT)) {
        int neg = asm_accept(A, '-');
        Token f = asm_next(A);
        *out = neg ? -f.fval : f.fval;
        return 0;
    }
    int64_t v;
    if (asm_parse_expr(A, &v)) return -1;
    *out = (double)v;
    return 0;
}

static int parse_arg(Asm *A, LaunchArg *a)
{
    Token t = asm_peek(A), t1 = asm_peek_n(A, 1);
    memset(a, 0, sizeof *a);
    a->line = t.line;
    a->col = t.col;
    if (t.kind == TOK_IDENT) {
        int bi = -1;
        for (int i = 0; i < A->p->nbuffers; i++)
            if (asm_tok_is(&t, A->p->buffers[i].name)) { bi = i; break; }
        if (bi >= 0 && !(t1.kind == TOK_PUNCT && asm_prec_of(t1.punct))) {
            asm_next(A);
            a->kind = ARG_BUFFER;
            a->buffer = bi;
            return 0;
        }
    }
    if (t.kind == TOK_FLOAT || (asm_is_punct(&t, '-') && t1.kind == TOK_FLOAT)) {
        a->kind = ARG_FLOAT;
        return parse_number(A, &a->f);
    }
    if (t.kind == TOK_IDENT && strmap_get(&A->defmap, t.s, t.len) < 0 && !asm_tok_is(&t, "min") && !asm_tok_is(&t, "max")) {
        char w[64];
        snprintf(w, sizeof w, "%.*s", t.len < 60 ? t.len : 60, t.s);
        const char *near = A->p->nbuffers ? suggest_best(w, A->p->buffers, (size_t)A->p->nbuffers, sizeof *A->p->buffers) : NULL;
        if (near) asm_err(A, &t, "unknown buffer or .define '%s' (did you mean '%s'?)", w, near);
        else asm_err(A, &t, "unknown buffer or .define '%s' (buffers must be declared before use)", w);
        asm_next(A);
        return -1;
    }
    a->kind = ARG_INT;
    return asm_parse_expr(A, &a->i);
}

static int parse_arg_list(Asm *A, LaunchArg **args, int *nargs)
{
    if (asm_expect(A, '(', "to open the argument list")) return -1;
    if (asm_accept(A, ')')) return 0;
    int cap = 0;
    for (;;) {
        if (*nargs >= 256) { Token t = asm_peek(A); asm_err(A, &t, "too many arguments"); return -1; }
        GROW(*args, *nargs, cap);
        if (parse_arg(A, &(*args)[*nargs])) return -1;
        (*nargs)++;
        if (asm_accept(A, ',')) continue;
        return asm_expect(A, ')', "to close the argument list");
    }
}

static int parse_dims(Asm *A, uint32_t dims[3], const char *what)
{
    dims[0] = dims[1] = dims[2] = 1;
    int paren = asm_accept(A, '(');
    for (int i = 0;; i++) {
        Token t = asm_peek(A);
        int64_t v;
        if (i == 3) { asm_err(A, &t, "%s has at most 3 dimensions", what); return -1; }
        if (asm_parse_expr(A, &v)) return -1;
        if (v < 1 || v > INT32_MAX) { asm_err(A, &t, "%s dimension %lld is out of range [1,2^31-1]", what, (long long)v); return -1; }
        dims[i] = (uint32_t)v;
        if (!paren) return 0;
        if (asm_accept(A, ',')) continue;
        return asm_expect(A, ')', "to close the dimensions");
    }
}

static int parse_key(Asm *A, Token *key)
{
    *key = asm_next(A);
    char b[64];
    if (key->kind != TOK_IDENT) { asm_err(A, key, "expected key=value, got %s", asm_show(key, b, sizeof b)); return -1; }
    return asm_expect(A, '=', "after the key");
}

void asm_parse_buffer(Asm *A)
{
    Program *p = A->p;
    Token name = asm_next(A);
    char b[64];
    if (name.kind != TOK_IDENT) { asm_err(A, &name, "expected a buffer name after .buffer, got %s", asm_show(&name, b, sizeof b)); return; }
    for (int i = 0; i < p->nbuffers; i++)
        if (asm_tok_is(&name, p->buffers[i].name)) { asm_err(A, &name, "buffer %s declared twice (first at line %d)", asm_show(&name, b, sizeof b), p->buffers[i].line); return; }
    Token ty = asm_next(A);
    DataType type = ty.kind == TOK_DIRECTIVE ? isa_type_lookup(ty.s + 1, ty.len - 1) : T_NONE;
    if (type == T_NONE || type == T_PRED) { asm_err(A, &ty, "expected an element type (.f32, .u32 ...), got %s", asm_show(&ty, b, sizeof b)); return; }
    Token open = asm_peek(A);
    int64_t count;
    if (asm_expect(A, '[', "before the element count")) return;
    if (asm_parse_expr(A, &count) || asm_expect(A, ']', "after the element count")) return;
    uint64_t esize = (uint64_t)isa_type_bits(type) / 8;
    if (count < 1 || (uint64_t)count > MAX_BUFFER_BYTES / esize) {
        asm_err(A, &open, "buffer size %lld is out of range [1,%llu elements]", (long long)count,
            (unsigned long long)(MAX_BUFFER_BYTES / esize));
        return;
    }
    BufferSpec s;
    memset(&s, 0, sizeof s);
    s.type = (uint8_t)type;
    s.count = (uint64_t)count;
    s.init = INIT_ZERO;
    s.lo = 0; s.hi = 1;
    s.line = name.line; s.col = name.col;
    Token init = asm_peek(A);
    if (init.kind == TOK_IDENT) {
        asm_next(A);
        if (asm_tok_is(&init, "zero")) s.init = INIT_ZERO;
        else if (asm_tok_is(&init, "iota")) {
            s.init = INIT_IOTA; s.lo = 0; s.hi = 1;
            if (asm_accept(A, '(')) {
                if (parse_number(A, &s.lo)) return;
                if (asm_accept(A, ',') && parse_number(A, &s.hi)) return;
                if (asm_expect(A, ')', "after iota(start, step)")) return;
            }
        } else if (asm_tok_is(&init, "fill")) {
            s.init = INIT_FILL;
            if (asm_expect(A, '(', "after fill") || parse_number(A, &s.value) || asm_expect(A, ')', "after fill(value")) return;
        } else if (asm_tok_is(&init, "random")) {
            s.init = INIT_RANDOM; s.seed = 1; s.lo = 0; s.hi = 1;
            if (asm_accept(A, '(') && !asm_accept(A, ')')) {
                for (;;) {
                    Token key;
                    if (parse_key(A, &key)) return;
                    if (asm_tok_is(&key, "seed")) {
                        int64_t v;
                        if (asm_parse_expr(A, &v)) return;
                        s.seed = (uint64_t)v;
                    } else if (asm_tok_is(&key, "min")) { if (parse_number(A, &s.lo)) return; }
                    else if (asm_tok_is(&key, "max")) { if (parse_number(A, &s.hi)) return; }
                    else { asm_err(A, &key, "random() takes seed=, min= and max=, not %s", asm_show(&key, b, sizeof b)); return; }
                    if (asm_accept(A, ',')) continue;
                    if (asm_expect(A, ')', "to close random(...)")) return;
                    break;
                }
            }
            if (s.lo > s.hi) { asm_err(A, &init, "random(): min is greater than max"); return; }
        } else if (asm_tok_is(&init, "file")) {
            s.init = INIT_FILE;
            if (asm_expect(A, '(', "after file")) return;
            Token path = asm_next(A);
            if (path.kind != TOK_STRING) {
                if (path.kind != TOK_ERROR) asm_err(A, &path, "file() takes a quoted path, got %s", asm_show(&path, b, sizeof b));
                return;
            }
            if (asm_expect(A, ')', "after the path")) return;
            s.path = string_value(&path);
        } else {
            static const char *const inits[] = { "zero", "random", "iota", "fill", "file" };
            char w[64];
            snprintf(w, sizeof w, "%.*s", init.len < 60 ? init.len : 60, init.s);
            const char *near = suggest_best(w, inits, 5, sizeof inits[0]);
            asm_err(A, &init, "unknown initialiser '%s'%s%s%s (zero, random(...), iota, fill(v), file(\"path\"))", w,
                near ? " (did you mean '" : "", near ? near : "", near ? "'?)" : "");
            return;
        }
    }
    s.name = asm_xstrndup(name.s, (size_t)name.len);
    GROW(p->buffers, p->nbuffers, A->capbuf);
    p->buffers[p->nbuffers++] = s;
}

void asm_parse_launch(Asm *A)
{
    Program *p = A->p;
    Token name = asm_next(A);
    char b[64];
    if (name.kind != TOK_IDENT) { asm_err(A, &name, "expected an entry name after .launch, got %s", asm_show(&name, b, sizeof b)); return; }
    LaunchSpec l;
    memset(&l, 0, sizeof l);
    l.line = name.line; l.col = name.col;
    l.grid[0] = l.grid[1] = l.grid[2] = l.block[0] = l.block[1] = l.block[2] = 1;
    int have_grid = 0, have_block = 0;
    while (asm_peek(A).kind != TOK_EOL && asm_peek(A).kind != TOK_EOF) {
        Token key;
        if (parse_key(A, &key)) goto fail;
        if (asm_tok_is(&key, "grid")) { if (parse_dims(A, l.grid, "grid")) goto fail; have_grid = 1; }
        else if (asm_tok_is(&key, "block")) { if (parse_dims(A, l.block, "block")) goto fail; have_block = 1; }
        else if (asm_tok_is(&key, "args")) { if (parse_arg_list(A, &l.args, &l.nargs)) goto fail; }
        else { asm_err(A, &key, ".launch takes grid=, block= and args=, not %s", asm_show(&key, b, sizeof b)); goto fail; }
    }
    if (!have_grid || !have_block) { asm_err(A, &name, ".launch needs grid=(...) and block=(...)"); goto fail; }
    GROW(p->launches, p->nlaunches, A->caplaunch);
    A->pend = asm_xrealloc(A->pend, (size_t)(p->nlaunches + 1) * sizeof *A->pend);
    A->pend[p->nlaunches] = (PendingLaunch){ asm_xstrndup(name.s, (size_t)name.len), name.line, name.col };
    l.entry = -1;
    p->launches[p->nlaunches++] = l;
    return;
fail:
    free(l.args);
}

void asm_parse_check(Asm *A)
{
    Program *p = A->p;
    Token name = asm_next(A);
    char b[64];
    if (name.kind != TOK_IDENT) { asm_err(A, &name, "expected a buffer name after .check, got %s", asm_show(&name, b, sizeof b)); return; }
    CheckSpec c;
    memset(&c, 0, sizeof c);
    c.buffer = -1;
    c.equals = -1;
    c.line = name.line; c.col = name.col;
    for (int i = 0; i < p->nbuffers; i++) if (asm_tok_is(&name, p->buffers[i].name)) c.buffer = i;
    if (c.buffer < 0) { asm_err(A, &name, "unknown buffer %s (declare it with .buffer first)", asm_show(&name, b, sizeof b)); return; }
    while (asm_peek(A).kind != TOK_EOL && asm_peek(A).kind != TOK_EOF) {
        Token key;
        if (parse_key(A, &key)) goto fail;
        if (asm_tok_is(&key, "ref")) {
            Token fn = asm_next(A);
            if (fn.kind != TOK_IDENT) { asm_err(A, &fn, "ref= takes a reference function like vecadd(a, b), got %s", asm_show(&fn, b, sizeof b)); goto fail; }
            free(c.ref);
            c.ref = asm_xstrndup(fn.s, (size_t)fn.len);
            if (parse_arg_list(A, &c.args, &c.nargs)) goto fail;
        } else if (asm_tok_is(&key, "equals")) {
            Token o = asm_next(A);
            c.equals = -1;
            for (int i = 0; i < p->nbuffers; i++) if (asm_tok_is(&o, p->buffers[i].name)) c.equals = i;
            if (c.equals < 0) { asm_err(A, &o, "unknown buffer %s", asm_show(&o, b, sizeof b)); goto fail; }
        } else if (asm_tok_is(&key, "file")) {
            Token path = asm_next(A);
            if (path.kind != TOK_STRING) {
                if (path.kind != TOK_ERROR) asm_err(A, &path, "file= takes a quoted path, got %s", asm_show(&path, b, sizeof b));
                goto fail;
            }
            free(c.path);
            c.path = string_value(&path);
        } else if (asm_tok_is(&key, "tol")) { if (parse_number(A, &c.tol)) goto fail; }
        else if (asm_tok_is(&key, "rtol")) { if (parse_number(A, &c.rtol)) goto fail; }
        else { asm_err(A, &key, ".check takes ref=, equals=, file=, tol= and rtol=, not %s", asm_show(&key, b, sizeof b)); goto fail; }
    }
    GROW(p->checks, p->nchecks, A->capcheck);
    p->checks[p->nchecks++] = c;
    return;
fail:
    free(c.ref); free(c.args); free(c.path);
}

/* A line-mode directive: parse, then require the end of the line. */
void asm_host_directive(Asm *A, const Token *d, void (*fn)(Asm *))
{
    A->line_mode = 1;
    int before = diag_count(A->dl) + A->stale_errors;
    if (fn) fn(A);
    Token t = asm_peek(A);
    char b[64];
    if (diag_count(A->dl) + A->stale_errors == before && t.kind != TOK_EOL && t.kind != TOK_EOF)
        asm_err(A, &t, "unexpected %s at the end of %.*s", asm_show(&t, b, sizeof b), d->len, d->s);
    asm_skip_line(A);
    A->line_mode = 0;
}

/* ---- top level ------------------------------------------------------------- */
static void skip_to_directive(Asm *A)
{
    for (;;) {
        Token *t = peek_raw(A, 0);
        if (t->kind == TOK_EOF || (t->kind == TOK_DIRECTIVE && t->bol)) return;
        next_raw(A);
    }
}

static const char *const top_directives[] = {
    ".version", ".target", ".address_size", ".define", ".buffer", ".launch", ".check",
    ".entry", ".visible", ".weak", ".extern", ".const", ".shared", ".global", ".func", ".file", ".loc", ".pragma",
};

static void parse_top(Asm *A)
{
    char b[64];
    for (;;) {
        Token t = asm_peek(A);
        if (t.kind == TOK_EOF) return;
        if (t.kind != TOK_DIRECTIVE) {
            if (t.kind != TOK_ERROR) asm_err(A, &t, "expected a directive (.entry, .define, .buffer ...), got %s", asm_show(&t, b, sizeof b));
            next_raw(A);
            skip_to_directive(A);
            continue;
        }
        next_raw(A);
        if (asm_tok_is(&t, ".version") || asm_tok_is(&t, ".target") || asm_tok_is(&t, ".address_size") ||
            asm_tok_is(&t, ".file") || asm_tok_is(&t, ".loc") || asm_tok_is(&t, ".pragma")) { asm_skip_line(A); asm_accept(A, ';'); }
        else if (asm_tok_is(&t, ".define")) { A->line_mode = 1; asm_check_define_line(A); asm_skip_line(A); A->line_mode = 0; }
        else if (asm_tok_is(&t, ".buffer")) asm_host_directive(A, &t, asm_parse_buffer);
        else if (asm_tok_is(&t, ".launch")) asm_host_directive(A, &t, asm_parse_launch);
        else if (asm_tok_is(&t, ".check")) asm_host_directive(A, &t, asm_parse_check);
        else if (asm_tok_is(&t, ".visible") || asm_tok_is(&t, ".weak")) continue;
        else if (asm_tok_is(&t, ".entry")) parse_entry(A);
        else if (asm_tok_is(&t, ".extern")) { Token d = asm_next(A); asm_parse_var_decl(A, &d, 1); }
        else if (asm_tok_is(&t, ".const") || asm_tok_is(&t, ".shared") || asm_tok_is(&t, ".global")) asm_parse_var_decl(A, &t, 0);
        else if (asm_tok_is(&t, ".func")) {
            asm_err(A, &t, ".func (device functions) is not supported; inline the function into the entry");
            skip_to_directive(A);
        } else {
            char w[64];
            snprintf(w, sizeof w, "%.*s", t.len < 60 ? t.len : 60, t.s);
            const char *near = suggest_best(w, top_directives, sizeof top_directives / sizeof top_directives[0], sizeof top_directives[0]);
            if (near) asm_err(A, &t, "unknown directive '%s' (did you mean '%s'?)", w, near);
            else asm_err(A, &t, "unknown directive '%s'", w);
            skip_to_directive(A);
        }
    }
}

/* ---- end of file: launches against their entries ------------------------- */
static void resolve_launches(Asm *A)
{
    Program *p = A->p;
    for (int i = 0; i < p->nlaunches; i++) {
        LaunchSpec *l = &p->launches[i];
        PendingLaunch *pl = &A->pend[i];
        Token at = { .line = pl->line, .col = pl->col, .len = 0 };
        int ln = 1;
        at.s = A->src;
        for (const char *c = A->src; c < A->src + A->len && ln < pl->line; c++) if (*c == '\n') { ln++; at.s = c + 1; }
        l->entry = program_find_entry(p, pl->entry);
        if (l->entry < 0) {
            const char *near = p->nentries ? suggest_best(pl->entry, p->entries, (size_t)p->nentries, sizeof *p->entries) : NULL;
            if (near) asm_err(A, &at, ".launch of unknown entry '%s' (did you mean '%s'?)", pl->entry, near);
            else asm_err(A, &at, ".launch of unknown entry '%s'", pl->entry);
            continue;
        }
        const Entry *e = &p->entries[l->entry];
        if (l->nargs != e->nparams) {
            asm_err(A, &at, ".launch %s passes %d argument%s; the entry takes %d", e->name, l->nargs,
                l->nargs == 1 ? "" : "s", e->nparams);
            continue;
        }
        for (int k = 0; k < l->nargs; k++) {
            LaunchArg *a = &l->args[k];
            const Param *pa = &e->params[k];
            TypeKind kind = isa_type_kind((DataType)pa->type);
            int bits = isa_type_bits((DataType)pa->type);
            Token aat = at;
            aat.col = a->col;
            if (a->kind == ARG_BUFFER && (bits != 64 || kind == TK_FLOAT || pa->size != 8)) {
                asm_err(A, &aat, "argument %d of .launch %s is buffer '%s', but parameter '%s' is .%s (pointers are .u64)",
                    k + 1, e->name, p->buffers[a->buffer].name, pa->name, isa_type_name((DataType)pa->type));
            } else if (a->kind == ARG_FLOAT && kind != TK_FLOAT) {
                asm_err(A, &aat, "argument %d of .launch %s is a floating-point number, but parameter '%s' is .%s",
                    k + 1, e->name, pa->name, isa_type_name((DataType)pa->type));
            } else if (a->kind == ARG_INT && kind != TK_FLOAT && bits < 64) {
                int64_t lo = -((int64_t)1 << (bits - 1)), hi = ((int64_t)1 << bits) - 1;
                if (a->i < lo || a->i > hi)
                    asm_err(A, &aat, "argument %d of .launch %s: %lld does not fit parameter '%s' (.%s)",
                        k + 1, e->name, (long long)a->i, pa->name, isa_type_name((DataType)pa->type));
            } else if (a->kind == ARG_INT && kind == TK_FLOAT) {
                a->kind = ARG_FLOAT;
                a->f = (double)a->i;
            }
        }
    }
}

static void free_asm(Asm *A)
{
    for (int i = 0; i < A->ndefs; i++) free(A->defs[i].name);
    free(A->defs);
    free(A->def_stack);
    for (int i = 0; i < A->nfix; i++) free(A->fix[i].name);
    free(A->fix);
    for (int i = 0; A->p && i < A->p->nlaunches; i++) free(A->pend[i].entry);
    free(A->pend);
    strmap_clear(&A->defmap);
    strmap_clear(&A->entrymap);
    strmap_clear(&A->bufmap);
    strmap_clear(&A->modvars);
    strmap_clear(&A->regmap);
    strmap_clear(&A->predmap);
    strmap_clear(&A->labelmap);
    strmap_clear(&A->entryvars);
    strmap_clear(&A->parammap);
}

Program *asm_assemble(const char *filename, const char *text, size_t len, const AsmOptions *opt, DiagList *dl)
{
    Asm A;
    memset(&A, 0, sizeof A);
    Program *p = asm_xrealloc(NULL, sizeof *p);
    memset(p, 0, sizeof *p);
    p->filename = asm_xstrndup(filename, strlen(filename));
    p->source = asm_xstrndup(text, len);
    A.file = p->filename;
    A.src = p->source;
    A.len = len;
    A.dl = dl;
    A.p = p;
    A.opt = opt;
    int errors_before = diag_count(dl);

    /* line table: pc -> source line needs it for faults and listings */
    int cap = 0;
    for (size_t i = 0; i <= len; i++) {
        if (i == 0 || text[i - 1] == '\n') {
            if (i == len && i > 0) break;
            GROW(p->line_starts, p->nlines, cap);
            p->line_starts[p->nlines++] = (uint32_t)(i > UINT32_MAX ? UINT32_MAX : i);
        }
    }

    if (len == 0 || strspn(text, " \t\r\n") == len)
        diag_add(dl, filename, 0, 0, NULL, "the file is empty: a kernel file needs at least one .entry");
    lex_init(&A.lx, A.file, A.src, A.len, dl);
    asm_prescan_defines(&A);
    asm_apply_overrides(&A);
    parse_top(&A);
    if (A.e) finish_entry(&A);
    resolve_launches(&A);
    /* every .define with its final value (after -D), for reports */
    if (A.ndefs) p->defines = asm_xrealloc(NULL, (size_t)A.ndefs * sizeof *p->defines);
    for (int i = 0; i < A.ndefs; i++) {
        const DefSlot *d = &A.defs[i];
        p->defines[p->ndefines++] = (Define){ asm_xstrndup(d->name, strlen(d->name)), d->value, d->override != NULL, d->line };
    }
    if (len > 0 && p->nentries == 0 && diag_count(dl) == errors_before)
        diag_add(dl, filename, 0, 0, NULL, "no .entry in the file");
    free_asm(&A);
    if (diag_count(dl) > errors_before) { program_free(p); return NULL; }
    return p;
}

Program *asm_assemble_file(const char *path, const AsmOptions *opt, DiagList *dl)
{
    FILE *f = fopen(path, "rb");
    if (!f) { diag_add(dl, path, 0, 0, NULL, "cannot open: %s", strerror(errno)); return NULL; }
    size_t cap = 1 << 16, len = 0;
    char *buf = asm_xrealloc(NULL, cap);
    for (;;) {
        if (len == cap) {
            if (cap >= ((size_t)1 << 30)) { fclose(f); free(buf); diag_add(dl, path, 0, 0, NULL, "file is larger than 1 GiB"); return NULL; }
            cap *= 2;
            buf = asm_xrealloc(buf, cap);
        }
        size_t n = fread(buf + len, 1, cap - len, f);
        if (n == 0) break;
        len += n;
    }
    int bad = ferror(f);
    fclose(f);
    if (bad) { free(buf); diag_add(dl, path, 0, 0, NULL, "read error"); return NULL; }
    Program *p = asm_assemble(path, buf, len, opt, dl);
    free(buf);
    return p;
}

