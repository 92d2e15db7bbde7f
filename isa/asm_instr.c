/* asm_instr.c - the assembler's instructions: the guard, the opcode word
 * split into mnemonic and modifiers (checked against isa.def), the operands
 * of each format (registers, immediates, addresses, vectors, labels) with
 * their kinds and widths, and the pre-decoded Instr appended to the entry.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "asm_internal.h"
#include "isa_mods.h"
#include "suggest.h"

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
    /* match.any.sync and match.all.sync: the PTX manual's order, which nvcc
     * writes (__match_any_sync); match.sync.any, the table's, as ptxas also takes */
    int match_sync = 0;
    if (op < 0 && np >= 3 && plen[0] == 5 && !memcmp(part[0], "match", 5) && plen[2] == 4 && !memcmp(part[2], "sync", 4)) {
        op = OP_MATCH;
        used = 1;
        match_sync = 1;
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
        /* cp.async.ca.shared.global: the source space is always .global;
         * .L2::128B and the like are prefetch hints */
        if (op == OP_CP_ASYNC && (!strcmp(word, "global") || !strncmp(word, "L2::", 4))) continue;
        if (match_sync && i == 2) continue;   /* match.any.sync: the .sync */
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
    int want = o->types == 0 ? 0 : op == OP_CVT || op == OP_SET ? 2 : 1;
    char allowed[200];
    types_list(o->types, allowed, sizeof allowed);
    if (nty != want) {
        if (want == 0) asm_err(A, t, "%s takes no type suffix", o->mnemonic);
        else if (want == 2) asm_err(A, t, "%s needs two types, destination then source (%s)", o->mnemonic,
                                    op == OP_CVT ? "cvt.f32.s32" : "set.lt.u32.f32");
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

/* cvt to or from the 16-bit floats (PTX ISA, cvt): the paired types only as
 * a destination, from two .f32; .relu and .satfinite only into halves from
 * .f32; the paired forms round .rn or .rz. */
static int check_cvt_half(Asm *A, const Token *t, const Instr *in)
{
    DataType d = (DataType)in->type, s = (DataType)in->stype;
    if (isa_type_lanes(s) == 2 || (isa_type_lanes(d) == 2 && s != T_F32)) {
        asm_err(A, t, "cvt takes .f16x2/.bf16x2 only as the destination, from .f32 (cvt.rn.%s.f32 d, a, b)",
                isa_type_name(isa_type_lanes(d) == 2 ? d : T_F16X2));
        return -1;
    }
    if ((in->flags & (IF_RELU | IF_SATFIN)) && !(isa_type_is_half(d) && s == T_F32)) {
        asm_err(A, t, "cvt: .relu and .satfinite convert .f32 into .f16 .f16x2 .bf16 .bf16x2");
        return -1;
    }
    if (isa_type_lanes(d) == 2 && in->rnd != RND_RN && in->rnd != RND_RZ) {
        asm_err(A, t, "cvt to .%s needs .rn or .rz", isa_type_name(d));
        return -1;
    }
    return 0;   /* cvt.rni.f16.f16 (nvcc's hrint) rounds to an integer, then to the half: exact */
}

/* Arithmetic on halves (PTX ISA, "Half Precision Floating-Point
 * Instructions"): rounding .rn only, no .ftz/.sat on bf16, .relu on fma
 * (and cvt), .NaN on min/max, ex2 only .approx. */
static int check_half(Asm *A, const Token *t, const Instr *in)
{
    const char *mn = isa_ops[in->op].mnemonic;
    DataType ty = (DataType)in->type;
    int half = isa_type_is_half(ty);
    if ((in->flags & IF_NAN) && !half) { asm_err(A, t, "%s.NaN is supported on .f16 .f16x2 .bf16 .bf16x2", mn); return -1; }
    if ((in->flags & IF_RELU) && in->op != OP_CVT && !half) { asm_err(A, t, "%s.relu is for .f16 .f16x2 .bf16 .bf16x2", mn); return -1; }
    if (!half || in->op == OP_CVT || in->op == OP_MOV || in->op == OP_LD || in->op == OP_ST || in->op == OP_ATOM ||
        in->op == OP_RED)
        return 0;
    int bf = ty == T_BF16 || ty == T_BF16X2;
    /* fma of .bf16 and .bf16x2 takes every rounding (ptxas 13.0, sm_90) */
    if (in->rnd != RND_NONE && in->rnd != RND_RN && !(bf && in->op == OP_FMA)) {
        asm_err(A, t, "%s.%s rounds with .rn only%s", mn, isa_type_name(ty), in->op == OP_FMA ? " (fma.bf16 and .bf16x2: .rn .rz .rm .rp)" : "");
        return -1;
    }
    if (bf && (in->flags & IF_SAT)) { asm_err(A, t, "%s.%s takes no .sat (.f16 and .f16x2 do)", mn, isa_type_name(ty)); return -1; }
    if (bf && (in->flags & IF_FTZ) && in->op != OP_EX2) {
        asm_err(A, t, "%s.%s takes no .ftz (.f16 and .f16x2 do)", mn, isa_type_name(ty));
        return -1;
    }
    if ((in->flags & IF_RELU) && (in->flags & IF_SAT)) { asm_err(A, t, "%s: .relu and .sat exclude each other", mn); return -1; }
    if (in->op == OP_EX2 && !(in->flags & IF_APPROX)) { asm_err(A, t, "ex2.%s needs .approx", isa_type_name(ty)); return -1; }
    if (in->op == OP_EX2 && bf != ((in->flags & IF_FTZ) != 0)) {   /* as ptxas 13.0 */
        asm_err(A, t, bf ? "ex2.approx.%s needs .ftz" : "ex2.approx.%s takes no .ftz", isa_type_name(ty));
        return -1;
    }
    return 0;
}

/* ---- which modifiers a conversion takes ---------------------------------------------
 * As ptxas (CUDA 13.0, sm_90) takes them: every cvt form of two types of
 * u8..s64 f16 bf16 f32 f64 with each rounding, .ftz and .sat, 9,984 in
 * all, against ptxas's verdict (tests/data/ptxas_modifiers.csv;
 * test_asm's test_modifiers_as_ptxas).  NULL if cvt.d.s takes them, else
 * what is wrong. */
static const char *cvt_modifiers(DataType d, DataType s, Rounding rnd, int ftz, int sat)
{
    int fd = isa_type_kind(d) == TK_FLOAT, fs = isa_type_kind(s) == TK_FLOAT;
    int wd = isa_type_bits(d), ws = isa_type_bits(s), bf = d == T_BF16 || s == T_BF16;
    int frnd = rnd >= RND_RN && rnd <= RND_RP, irnd = rnd >= RND_RNI;
    if (bf && ((!fd && wd == 8) || (!fs && ws == 8))) return "cvt between .bf16 and 8-bit integers is not supported (go through .s16/.u16)";
    if (ftz && d != T_F32 && s != T_F32) return "cvt.ftz needs an .f32 source or destination";
    if (!fd && !fs) {   /* integer to integer */
        if (rnd) return "cvt between integers takes no rounding modifier";
        if (ftz) return "cvt between integers takes no .ftz";
        int fits = isa_type_kind(d) == isa_type_kind(s) ? wd >= ws : isa_type_kind(d) == TK_SINT && wd > ws;
        if (sat && fits) return "cvt.sat: every value of the source fits the destination (nothing to saturate)";
        return NULL;
    }
    if (bf && sat) return "cvt.sat does not take .bf16";
    if (!fd) return irnd ? NULL : "cvt from floating point to an integer needs .rni, .rzi, .rmi or .rpi";
    if (!fs) return frnd ? NULL : "cvt from an integer to floating point needs .rn, .rz, .rm or .rp";
    if (d == s) return frnd ? "cvt between the same floating-point type rounds to an integer (.rni .rzi .rmi .rpi) or not at all" : NULL;
    if (wd == ws) return irnd ? "cvt between .f16 and .bf16 takes .rn .rz .rm .rp or no rounding" : NULL;   /* f16 <-> bf16 */
    if (wd > ws && s == T_BF16) return irnd ? "cvt from .bf16 to a wider type takes .rn .rz .rm .rp or no rounding" : NULL;
    if (wd > ws) return rnd ? "cvt to a wider floating-point type is exact: no rounding modifier" : NULL;
    return frnd ? NULL : "cvt to a narrower floating-point type needs .rn, .rz, .rm or .rp";
}

/* Rounding, .ftz and .sat on add sub mul mad fma div min max abs neg of
 * the non-half types, as ptxas takes them (the same table): rounding and
 * .ftz are for floats, .ftz and .sat for .f32 only, except integer .sat:
 * add, sub and mad.hi of .s32; mad and div of .f32 and .f64 need a
 * rounding (div.f32 or .approx/.full). */
static const char *arith_modifiers(const Instr *in)
{
    DataType ty = (DataType)in->type;
    int fl = isa_type_kind(ty) == TK_FLOAT, sat = (in->flags & IF_SAT) != 0, ftz = (in->flags & IF_FTZ) != 0;
    if (isa_type_is_half(ty)) return NULL;   /* check_half */
    if (!fl) {
        if (in->rnd) return "rounding modifiers are for floating-point types";
        if (ftz) return ".ftz is for .f32";
        if (sat && !(ty == T_S32 && (in->op == OP_ADD || in->op == OP_SUB || (in->op == OP_MAD && in->mul == MUL_HI))))
            return ".sat on integers: add.sat.s32, sub.sat.s32 and mad.hi.sat.s32 only";
        return NULL;
    }
    if (ty == T_F64 && ftz) return ".ftz is for .f32";
    if (ty == T_F64 && sat) return ".sat is for .f32";
    if ((in->op == OP_MIN || in->op == OP_MAX || in->op == OP_ABS || in->op == OP_NEG) && in->rnd) return "no rounding modifier here";
    if (in->op == OP_MAD && !in->rnd) return "mad of floating point needs a rounding modifier (.rn .rz .rm .rp)";
    if (in->op == OP_DIV && !in->rnd && !(ty == T_F32 && (in->flags & (IF_APPROX | IF_FULL))))
        return ty == T_F32 ? "div.f32 needs .rn .rz .rm .rp, .approx or .full" : "div.f64 needs .rn .rz .rm or .rp";
    return NULL;
}

/* set and setp, as ptxas takes them (the same table): .ftz compares .f32
 * only; the unsigned comparisons (.lo .ls .hi .hs) unsigned and bit types,
 * not signed ones.  ty: the compared type. */
static int compare_modifiers(Asm *A, const Token *t, const Instr *in, DataType ty)
{
    const char *mn = isa_ops[in->op].mnemonic;
    if ((in->flags & IF_FTZ) && ty != T_F32 && ty != T_F16 && ty != T_F16X2) { asm_err(A, t, "%s.ftz compares .f32 (and .f16)", mn); return -1; }
    if (isa_type_kind(ty) == TK_BITS && in->cmp != CMP_EQ && in->cmp != CMP_NE) {
        asm_err(A, t, "%s: .%s compares with .eq and .ne only (ordered comparisons need a .u, .s or .f type)", mn, isa_type_name(ty));
        return -1;
    }
    if (in->cmp >= CMP_LO && in->cmp <= CMP_HS && isa_type_kind(ty) == TK_SINT) {
        asm_err(A, t, "%s: unsigned comparisons (.lo .ls .hi .hs) are for unsigned and .b types; .%s compares with .lt .le .gt .ge", mn,
                isa_type_name(ty));
        return -1;
    }
    return 0;
}

/* rcp sqrt rsqrt sin cos ex2 lg2 of .f32 and .f64, and div of integers,
 * as ptxas takes them (the same table): rcp and sqrt need a rounding or
 * .approx (.f64: a rounding; rcp.approx.f64 only with .ftz, sqrt.f64
 * never .approx or .ftz), rsqrt sin cos ex2 lg2 need .approx; .full is
 * div.f32's alone. */
static const char *math_modifiers(const Instr *in)
{
    DataType ty = (DataType)in->type;
    int approx = (in->flags & IF_APPROX) != 0, full = (in->flags & IF_FULL) != 0, ftz = (in->flags & IF_FTZ) != 0;
    if (in->op == OP_DIV) {
        if (isa_type_kind(ty) != TK_FLOAT && (approx || full)) return ".approx and .full are for div.f32";
        if (ty == T_F64 && full) return ".full is for div.f32";
        return NULL;
    }
    if (isa_type_is_half(ty)) return NULL;   /* check_half */
    if (full) return ".full is div.f32's (write .rn or .approx)";
    switch ((Opcode)in->op) {
    case OP_RCP: case OP_SQRT:
        if (ty == T_F64) {
            if (in->op == OP_SQRT && (approx || ftz)) return "sqrt.f64 takes a rounding, not .approx or .ftz";
            if (approx && !ftz) return "rcp.approx.f64 needs .ftz";
            if (!approx && !in->rnd) return "needs a rounding (.rn .rz .rm .rp)";
            return NULL;
        }
        return in->rnd || approx ? NULL : "needs a rounding (.rn .rz .rm .rp) or .approx";
    case OP_RSQRT: case OP_SIN: case OP_COS: case OP_EX2: case OP_LG2:
        return approx ? NULL : "needs .approx";
    default: return NULL;
    }
}

/* ld, st, atom and red: spaces, cache operators, .volatile and the types
 * each operation takes, as ptxas takes them (tests/data/ptxas_modifiers.csv). */
static int check_memory(Asm *A, const Token *t, const Instr *in)
{
    const char *mn = isa_ops[in->op].mnemonic;
    TypeKind k = isa_type_kind((DataType)in->type);
    switch ((Opcode)in->op) {
    case OP_ATOM: case OP_RED:
        if (!in->sub) { asm_err(A, t, "%s needs an operation (.add .min .max .inc .dec .exch .cas .and .or .xor)", mn); return -1; }
        if (in->op == OP_RED && in->sub == ATOM_CAS) { asm_err(A, t, "red has no .cas; use atom.cas"); return -1; }
        if (in->space != SP_NONE && in->space != SP_GLOBAL && in->space != SP_SHARED) {
            asm_err(A, t, "%s works on .global or .shared memory", mn);
            return -1;
        }
        if (isa_type_is_half((DataType)in->type) && (in->sub != ATOM_ADD || !(in->flags & IF_NOFTZ))) {
            asm_err(A, t, "%s on .%s is .add.noftz only (%s.add.noftz.%s)", mn, isa_type_name((DataType)in->type), mn,
                    isa_type_name((DataType)in->type));
            return -1;
        }
        if ((in->flags & IF_NOFTZ) && !isa_type_is_half((DataType)in->type)) {
            asm_err(A, t, "%s: .noftz is for .f16 .f16x2 .bf16 .bf16x2", mn);
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
        if (!isa_type_is_half((DataType)in->type)) {   /* the types ptxas 13.0 takes (tests/data/ptxas_modifiers.csv) */
            DataType ty = (DataType)in->type;
            const char *need = NULL;
            switch ((AtomOp)in->sub) {
            case ATOM_ADD: if (k == TK_BITS || ty == T_S64) need = ".u32 .s32 .u64 .f32 .f64"; break;
            case ATOM_MIN: case ATOM_MAX: if (k == TK_BITS || k == TK_FLOAT) need = ".u32 .s32 .u64 .s64"; break;
            case ATOM_INC: case ATOM_DEC: if (ty != T_U32) need = ".u32"; break;
            default: if (k != TK_BITS) need = ".b32 .b64"; break;   /* and or xor exch cas */
            }
            if (need) { asm_err(A, t, "%s: this operation takes %s, not .%s", mn, need, isa_type_name(ty)); return -1; }
        }
        break;
    case OP_LD: {
        /* cache operators and .volatile as ptxas takes them (the same table) */
        if (in->cache == CACHE_WB || in->cache == CACHE_WT) { asm_err(A, t, "ld takes .ca .cg .cs .lu .cv (.wb and .wt are for st)"); return -1; }
        if ((in->flags & IF_NC) && in->space != SP_GLOBAL) { asm_err(A, t, "ld.nc reads .global memory (ld.global.nc)"); return -1; }
        if ((in->flags & IF_VOLATILE) && (in->space == SP_LOCAL || in->space == SP_CONST || in->space == SP_PARAM)) {
            asm_err(A, t, "ld.volatile is for .global, .shared and generic addresses");
            return -1;
        }
        if (isa_type_is_half((DataType)in->type)) { asm_err(A, t, "ld moves halves as .b16 (.b32 for a pair)"); return -1; }
        break;
    }
    case OP_ST:   /* st.param: a .func's return values and call arguments (kernel parameters: asm.c) */
        if (in->space == SP_CONST) { asm_err(A, t, "cannot store to .const memory"); return -1; }
        if (in->cache == CACHE_CA || in->cache == CACHE_LU || in->cache == CACHE_CV || (in->flags & IF_NC)) {
            asm_err(A, t, "st takes .cg .cs .wb .wt (.ca .lu .cv and .nc are for ld)");
            return -1;
        }
        if ((in->flags & IF_VOLATILE) && in->space == SP_LOCAL) { asm_err(A, t, "st.volatile is for .global, .shared and generic addresses"); return -1; }
        if (isa_type_is_half((DataType)in->type)) { asm_err(A, t, "st moves halves as .b16 (.b32 for a pair)"); return -1; }
        break;
    default: break;
    }
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
        {
            const char *why = arith_modifiers(in);
            if (why) { asm_err(A, t, "%s: %s", mn, why); return -1; }
        }
        break;
    case OP_FMA:
        if (in->rnd < RND_RN || in->rnd > RND_RP) { asm_err(A, t, "fma needs a rounding modifier (.rn, .rz, .rm or .rp)"); return -1; }
        {
            const char *why = arith_modifiers(in);   /* .ftz and .sat: .f32's */
            if (why) { asm_err(A, t, "%s: %s", mn, why); return -1; }
        }
        break;
    case OP_SET:
        if (!in->cmp) { asm_err(A, t, "set needs a comparison (set.lt.u32.f32)"); return -1; }
        if (isa_type_lanes((DataType)in->stype) != isa_type_lanes((DataType)in->type) && in->type != T_U32 && in->type != T_S32) {
            asm_err(A, t, "set: .%s results come from .%s comparisons only as .u32 or .s32", isa_type_name((DataType)in->type),
                    isa_type_name((DataType)in->stype));
            return -1;
        }
        k = isa_type_kind((DataType)in->stype);
        if (in->cmp >= CMP_LO && in->cmp <= CMP_HS && k == TK_FLOAT) { asm_err(A, t, "unsigned comparisons (.lo .ls .hi .hs) are for integers"); return -1; }
        if (in->cmp >= CMP_EQU && k != TK_FLOAT) { asm_err(A, t, "unordered comparisons (.equ ... .nan) are for floating point"); return -1; }
        if (compare_modifiers(A, t, in, (DataType)in->stype)) return -1;
        break;
    case OP_SETP:
        if (!in->cmp) { asm_err(A, t, "setp needs a comparison (.eq .ne .lt .le .gt .ge, .lo .ls .hi .hs, .equ ... .nan)"); return -1; }
        if (in->cmp >= CMP_LO && in->cmp <= CMP_HS && k == TK_FLOAT) { asm_err(A, t, "unsigned comparisons (.lo .ls .hi .hs) are for integers"); return -1; }
        if (in->cmp >= CMP_EQU && k != TK_FLOAT) { asm_err(A, t, "unordered comparisons (.equ ... .nan) are for floating point"); return -1; }
        if (compare_modifiers(A, t, in, (DataType)in->type)) return -1;
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
    case OP_CP_ASYNC:
        if (in->space != SP_SHARED) { asm_err(A, t, "cp.async copies from .global to .shared: write cp.async.ca.shared.global"); return -1; }
        if (in->cache != CACHE_NONE && in->cache != CACHE_CA && in->cache != CACHE_CG) { asm_err(A, t, "cp.async takes .ca or .cg"); return -1; }
        break;
    case OP_MATCH:
        if (in->sub != VOTE_ANY && in->sub != VOTE_ALL) { asm_err(A, t, "match.sync needs .any or .all"); return -1; }
        break;
    case OP_REDUX: {
        int arith = in->sub == ATOM_ADD || in->sub == ATOM_MIN || in->sub == ATOM_MAX;
        int logic = in->sub == ATOM_AND || in->sub == ATOM_OR || in->sub == ATOM_XOR;
        if (!arith && !logic) { asm_err(A, t, "redux.sync needs .add, .min, .max (.u32 .s32) or .and, .or, .xor (.b32)"); return -1; }
        if (arith == (in->type == T_B32)) {
            asm_err(A, t, arith ? "redux.sync.add/.min/.max take .u32 or .s32" : "redux.sync.and/.or/.xor take .b32");
            return -1;
        }
        break;
    }
    case OP_ATOM: case OP_RED: case OP_LD: case OP_ST:
        if (check_memory(A, t, in)) return -1;
        break;
    case OP_CVTA:
        if (in->space == SP_NONE || in->space == SP_PARAM) { asm_err(A, t, "cvta needs a state space (.global .shared .local .const)"); return -1; }
        break;
    case OP_CVT: {
        if (in->rnd >= RND_RNI && isa_type_kind((DataType)in->stype) != TK_FLOAT) {
            asm_err(A, t, "integer rounding (.rni .rzi .rmi .rpi) needs a floating-point source");
            return -1;
        }
        if (check_cvt_half(A, t, in)) return -1;
        const char *why = isa_type_lanes((DataType)in->type) == 2 ? NULL
                        : cvt_modifiers((DataType)in->type, (DataType)in->stype, (Rounding)in->rnd,
                                        (in->flags & IF_FTZ) != 0, (in->flags & IF_SAT) != 0);
        if (why) { asm_err(A, t, "%s (cvt.%s.%s)", why, isa_type_name((DataType)in->type), isa_type_name((DataType)in->stype)); return -1; }
        break;
    }
    case OP_ADD: case OP_SUB: case OP_DIV: case OP_MIN: case OP_MAX: case OP_ABS: case OP_NEG: {
        const char *why = arith_modifiers(in);
        if (!why && in->op == OP_DIV) why = math_modifiers(in);
        if (why) { asm_err(A, t, "%s: %s", mn, why); return -1; }
        break;
    }
    case OP_RCP: case OP_SQRT: case OP_RSQRT: case OP_SIN: case OP_COS: case OP_EX2: case OP_LG2: {
        const char *why = math_modifiers(in);
        if (why) { asm_err(A, t, "%s.%s: %s", mn, isa_type_name((DataType)in->type), why); return -1; }
        break;
    }
    default: break;
    }
    if (check_half(A, t, in)) return -1;
    if (in->vec > 1 && in->space == SP_PARAM) { asm_err(A, t, "vector access to .param space is not supported"); return -1; }
    if ((in->op == OP_LD || in->op == OP_ST) && in->vec * isa_type_bits((DataType)in->type) > 128) {
        asm_err(A, t, "%s.v%d.%s moves 256 bits, which needs sm_100 (ptxas); gpusim's configs are Fermi to Hopper", mn,
                in->vec, isa_type_name((DataType)in->type));
        return -1;
    }
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
    if ((in->op == OP_CVT || in->op == OP_SET) && (slot == 1 || slot == 2)) return (DataType)in->stype;
    if (in->op == OP_BFI && slot >= 3) return T_U32;
    if ((in->op == OP_SHL || in->op == OP_SHR) && slot == 2) return T_U32;
    if ((in->op == OP_POPC || in->op == OP_CLZ || in->op == OP_BFIND) && slot == 0) return T_U32;
    if (in->op == OP_BFE && slot >= 2) return T_U32;
    if (in->op == OP_MATCH && slot != 1) return T_B32;
    if (in->op == OP_CP_ASYNC) return T_U32;
    if (in->mul == MUL_WIDE && isa_operand_bits(in, slot) > isa_type_bits((DataType)in->type))
        return (DataType)(in->type + 1);   /* mad.wide's c: u16->u32, s32->s64 (ISA_TYPES order) */
    return (DataType)in->type;
}

static const char *opname(const Instr *in) { return isa_ops[in->op].mnemonic; }

/* ptxas's rule: an instruction's type must fit the declared type of its
 * registers.  .bN registers (and .bN instructions) go with any N-bit type,
 * signed and unsigned integers mix, floats and integers do not.  Registers
 * without a declared type (no .reg line) take anything. */
static int type_clash(const Asm *A, const Instr *in, int slot, int idx)
{
    TypeKind have = isa_type_kind((DataType)A->e->regs[idx].type), want = isa_type_kind(slot_type(in, slot));
    if (have == TK_NONE || have == TK_BITS || want == TK_BITS || want == TK_NONE) return 0;
    return (have == TK_FLOAT) != (want == TK_FLOAT);
}

static int check_reg_type(Asm *A, const Token *t, const Instr *in, int slot, int idx)
{
    if (!type_clash(A, in, slot, idx)) return 0;
    for (int s = 0; s < slot; s++)   /* one error per instruction: an earlier operand said it */
        if (in->opd[s].kind == OPD_REG && type_clash(A, in, s, in->opd[s].r[0])) return -1;
    char b[64];
    DataType have = (DataType)A->e->regs[idx].type;
    asm_err(A, t, "%s.%s on %s, a .%s register: the instruction type must fit the register's declared type "
            "(%s.%s?)", opname(in), isa_type_name(slot_type(in, slot)), asm_show(t, b, sizeof b), isa_type_name(have),
            opname(in), isa_type_name(have));
    return -1;
}

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
    /* PTX: ld and st may name a register wider than their type (st stores
     * its low bytes, ld extends by the type's signedness); nvcc does */
    int wider_ok = (in->op == OP_ST && slot == 1) || (in->op == OP_LD && slot == 0);
    if (have != need && !(wider_ok && have > need)) {
        asm_err(A, t, "%s is a %d-bit register; %s%s.%s needs a %d-bit register here", asm_show(t, b, sizeof b), have,
            opname(in), in->mul == MUL_WIDE ? ".wide" : "",
            isa_type_name(in->mul == MUL_WIDE ? (DataType)in->type : slot_type(in, slot)), need);
        return -1;
    }
    return check_reg_type(A, t, in, slot, idx);
}

/* A register operand (destination or source). */
/* A register declared with a plain name (.reg .s32 q;). */
static int named_reg(Asm *A, const Token *t)
{
    return t->kind == TOK_IDENT && (strmap_get(&A->regmap, t->s, t->len) >= 0 || strmap_get(&A->predmap, t->s, t->len) >= 0);
}

static int parse_reg(Asm *A, Instr *in, int slot, Operand *o)
{
    Token t = asm_next(A);
    char b[64];
    if (t.kind != TOK_REG && !named_reg(A, &t)) {
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
    if (ty == T_PRED && in->op == OP_MOV && slot == 1 && !is_float && (v == 0 || v == 1)) {
        o->imm = v;   /* mov.pred %p, 0 / 1: false or true, as nvcc writes */
        return 0;
    }
    if (ty == T_PRED) { asm_err(A, t, "%s: a predicate operand cannot be an immediate (only mov.pred takes 0 or 1)", opname(in)); return -1; }
    if (ty == T_F16) {   /* PTX writes half constants as bit patterns: mov.b16 %h1, 0x3C00 */
        asm_err(A, t, "%s: no .f16 immediates; load the half's bits with mov.b16 (1.0 is 0x3C00)", opname(in));
        return -1;
    }
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
    if (named_reg(A, &t)) return parse_reg(A, in, slot, o);
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
    if (r.kind != TOK_REG && !named_reg(A, &r)) {   /* nvcc's inline asm: { .reg .pred __$temp3; ... } */
        asm_err(A, &r, "%s: expected a predicate register, got %s", opname(in), asm_show(&r, b, sizeof b));
        return -1;
    }
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
        asm_err(A, &t, "%s.param needs a .param name in brackets (a kernel parameter, or a .param of the function or call)",
                opname(in));
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

/* mov.b32 d, {a, b} and mov.b32 {a, b}, d (also .b64 with two 32-bit or
 * four 16-bit registers): the first register is the lowest bits.  A
 * destination element may be '_', which discards it. */
static int parse_mov_vec(Asm *A, Instr *in, Operand *o, int is_dst)
{
    Token open = asm_next(A);
    char b[64];
    int tb = isa_type_bits((DataType)in->type);
    if (in->op != OP_MOV || (in->type != T_B32 && in->type != T_B64)) {
        asm_err(A, &open, "%s: a register vector here needs mov.b32 or mov.b64 (packing halves: mov.b32 %%r1, {%%rs1, %%rs2})",
                opname(in));
        goto fail;
    }
    o->kind = OPD_VEC;
    for (int i = 0;; i++) {
        Token r = asm_peek(A);
        if (i >= 4) { asm_err(A, &r, "mov: a register vector has 2 or 4 elements"); goto fail; }
        if (r.kind == TOK_IDENT && asm_tok_is(&r, "_") && is_dst) {
            asm_next(A);
            o->r[i] = REG_NONE;
        } else {
            if (r.kind != TOK_REG && !named_reg(A, &r)) {
                if (r.kind != TOK_ERROR) asm_err(A, &r, "mov: expected a register in the vector, got %s", asm_show(&r, b, sizeof b));
                goto fail;
            }
            asm_next(A);
            if (asm_sreg_lookup(&r) >= 0) { asm_err(A, &r, "mov: special register %s cannot be in a vector", asm_show(&r, b, sizeof b)); goto fail; }
            int is_pred, idx = asm_lookup_reg(A, &r, &is_pred);
            if (idx < 0) goto fail;
            if (is_pred) { asm_err(A, &r, "mov: %s is a predicate; a vector holds value registers", asm_show(&r, b, sizeof b)); goto fail; }
            o->r[i] = (uint16_t)idx;
        }
        o->n = (uint8_t)(i + 1);
        Token sep = asm_peek(A);
        if (asm_is_punct(&sep, '}')) { asm_next(A); break; }
        if (!asm_is_punct(&sep, ',')) { asm_err(A, &sep, "expected ',' or '}' in a register vector, got %s", asm_show(&sep, b, sizeof b)); goto fail; }
        asm_next(A);
    }
    if ((o->n != 2 && o->n != 4) || tb / o->n < 16) {
        asm_err(A, &open, "mov.%s packs 2%s registers, not %d", isa_type_name((DataType)in->type), tb == 64 ? " or 4" : "", o->n);
        return -1;
    }
    for (int i = 0; i < o->n; i++) {
        if (o->r[i] == REG_NONE || A->e->regs[o->r[i]].bits == tb / o->n) continue;
        asm_err(A, &open, "mov.%s {...}: %s is a %d-bit register; each of the %d elements is %d bits",
                isa_type_name((DataType)in->type), A->e->regs[o->r[i]].name, A->e->regs[o->r[i]].bits, o->n, tb / o->n);
        return -1;
    }
    return 0;
fail:
    asm_skip_braces(A);
    return -1;
}

static int parse_dst_or_vec(Asm *A, Instr *in, Operand *o)
{
    Token t = asm_peek(A);
    return asm_is_punct(&t, '{') ? parse_mov_vec(A, in, o, 1) : parse_reg(A, in, 0, o);
}

static int parse_src_or_vec(Asm *A, Instr *in, Operand *o)
{
    Token t = asm_peek(A);
    if (asm_is_punct(&t, '{') && in->opd[0].kind == OPD_VEC) {
        asm_err(A, &t, "mov packs {a, b} into a register or unpacks one into {a, b}, not both");
        asm_next(A);
        asm_skip_braces(A);
        return -1;
    }
    return asm_is_punct(&t, '{') ? parse_mov_vec(A, in, o, 0) : parse_src(A, in, 1, o);
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
    [FMT_CALL] = "[(rets),] func[, (args)]", [FMT_CP] = "[d], [a], size[, c]",
    [FMT_SET] = "d, a, b[, c]", [FMT_D_ABCD] = "d, a, b, c, e",
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

/* cp.async [shared], [global], size[, src-size] */
static int parse_cp_async(Asm *A, Instr *in, Operand *o, int *last)
{
    if (parse_mem(A, in, &o[0]) || comma(A, in)) return -1;
    in->space = SP_GLOBAL;   /* the source's space, for its checks */
    int rc = parse_mem(A, in, &o[1]);
    in->space = SP_SHARED;
    if (rc || comma(A, in)) return -1;
    Token at = asm_peek(A);
    int64_t n;
    if (asm_parse_expr(A, &n)) return -1;
    if (n != 4 && n != 8 && n != 16) { asm_err(A, &at, "cp.async copies 4, 8 or 16 bytes, not %lld", (long long)n); return -1; }
    if (in->cache == CACHE_CG && n != 16) { asm_err(A, &at, "cp.async.cg copies 16 bytes"); return -1; }
    o[2].kind = OPD_IMM;
    o[2].imm = n;
    *last = 2;
    if (asm_accept(A, ',')) {
        if (parse_src(A, in, 3, &o[3])) return -1;
        *last = 3;
    }
    return 0;
}

static int parse_operands(Asm *A, Instr *in)
{
    Operand *o = in->opd;
    int rc = 0, last = -1;
    switch ((Format)isa_ops[in->op].format) {
    case FMT_NONE: break;
    case FMT_D: rc = parse_reg(A, in, 0, &o[0]); last = 0; break;
    case FMT_D_A:
        rc = parse_dst_or_vec(A, in, &o[0]) || comma(A, in) || parse_src_or_vec(A, in, &o[1]);
        last = 1;
        if (!rc && in->op == OP_CVT && isa_type_lanes((DataType)in->type) == 2) {   /* cvt.rn.f16x2.f32 d, a, b */
            rc = comma(A, in) || parse_src(A, in, 2, &o[2]);
            last = 2;
        }
        break;
    case FMT_D_AB:
        rc = parse_reg(A, in, 0, &o[0]);
        /* match.all.sync d|p: p, whether every member lane had the value */
        if (!rc && in->op == OP_MATCH && in->sub == VOTE_ALL && asm_accept(A, '|')) { rc = parse_reg(A, in, 5, &o[5]); last = 5; }
        rc = rc || comma(A, in) || parse_src(A, in, 1, &o[1]) || comma(A, in) || parse_src(A, in, 2, &o[2]);
        if (last < 2) last = 2;
        break;
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
    case FMT_CALL: rc = asm_parse_call(A, in); last = 1; break;
    case FMT_CP: rc = parse_cp_async(A, in, o, &last); break;
    case FMT_SET:
        rc = parse_reg(A, in, 0, &o[0]) || comma(A, in) || parse_src(A, in, 1, &o[1]) || comma(A, in) ||
             parse_src(A, in, 2, &o[2]);
        last = 2;
        if (!rc && in->boolop) { rc = comma(A, in) || parse_pred_src(A, in, 3, &o[3]); last = 3; }
        break;
    case FMT_D_ABCD:
        rc = parse_reg(A, in, 0, &o[0]) || comma(A, in) || parse_src(A, in, 1, &o[1]) || comma(A, in) ||
             parse_src(A, in, 2, &o[2]) || comma(A, in) || parse_src(A, in, 3, &o[3]) || comma(A, in) ||
             parse_src(A, in, 4, &o[4]);
        last = 4;
        break;
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
    if (A->nounroll) in.flags |= IF_NOUNROLL;
    A->nounroll = 0;
    e->code[e->ncode++] = in;
}

