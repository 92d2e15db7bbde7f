/* isa.c - the tables behind isa.h: opcodes (from isa.def), types, special
 * registers and modifiers, plus docs/isa.md generation. */
#include "isa.h"
#include "isa_mods.h"

#include <stdlib.h>
#include <string.h>

#define ISA_OP(e, m, f, u, t, mo, mi, d) [e] = { m, #e, f, u, t, mo, mi, d },
const OpInfo isa_ops[OP_COUNT] = {
#include "isa.def"
};
#undef ISA_OP

#define X(e, n) [e] = n,
const char *const isa_sreg_names[SR_COUNT] = { ISA_SREGS(X) };
#undef X

typedef struct TypeInfo { const char *name; int bits; TypeKind kind; } TypeInfo;
#define X(e, n, b, k) [e] = { n, b, k },
static const TypeInfo types[T_COUNT] = { ISA_TYPES(X) };
#undef X

#define X(e, n, b, k) [e] = b,
const uint8_t isa_type_bits_of[T_COUNT] = { ISA_TYPES(X) };
#undef X
#define X(e, n, b, k) [e] = k,
const uint8_t isa_type_kind_of[T_COUNT] = { ISA_TYPES(X) };
#undef X
const char *isa_type_name(DataType t) { return t < T_COUNT ? types[t].name : "?"; }

int isa_int_fits(DataType t, int64_t v)
{
    int n = isa_type_bits(t);
    if (n >= 64) return 1;
    return v >= -(int64_t)(1ull << (n - 1)) && v <= (int64_t)((1ull << n) - 1);
}

int64_t isa_int_canon(DataType t, int64_t v)
{
    int n = isa_type_bits(t);
    if (n >= 64) return v;
    uint64_t low = (uint64_t)v & ((1ull << n) - 1);
    if (isa_type_kind(t) == TK_SINT && (low >> (n - 1))) low |= ~0ull << n;
    return (int64_t)low;
}

DataType isa_type_lookup(const char *name, int len)
{
    for (int t = 1; t < T_COUNT; t++)
        if ((int)strlen(types[t].name) == len && memcmp(types[t].name, name, (size_t)len) == 0)
            return (DataType)t;
    return T_NONE;
}

/* ---- modifiers ----------------------------------------------------------
 * One row per dot-suffix.  Some spellings belong to two classes (.lo is an
 * unsigned comparison and a multiply mode; .and a setp combiner and an atomic
 * op): the opcode's MC_* mask picks the row. */
const ModInfo isa_mods[] = {
    { "global", MC_SPACE, MF_SPACE, SP_GLOBAL }, { "shared", MC_SPACE, MF_SPACE, SP_SHARED },
    { "const", MC_SPACE, MF_SPACE, SP_CONST },   { "local", MC_SPACE, MF_SPACE, SP_LOCAL },
    { "param", MC_SPACE, MF_SPACE, SP_PARAM },
    { "ca", MC_CACHE, MF_CACHE, CACHE_CA }, { "cg", MC_CACHE, MF_CACHE, CACHE_CG },
    { "cs", MC_CACHE, MF_CACHE, CACHE_CS }, { "lu", MC_CACHE, MF_CACHE, CACHE_LU },
    { "cv", MC_CACHE, MF_CACHE, CACHE_CV }, { "wb", MC_CACHE, MF_CACHE, CACHE_WB },
    { "wt", MC_CACHE, MF_CACHE, CACHE_WT }, { "nc", MC_CACHE, MF_FLAG, IF_NC },
    { "v2", MC_VEC, MF_VEC, 2 }, { "v4", MC_VEC, MF_VEC, 4 },
    { "volatile", MC_VOLATILE, MF_FLAG, IF_VOLATILE },
    { "to", MC_TO, MF_FLAG, IF_TO },
    { "rn", MC_RND, MF_RND, RND_RN }, { "rz", MC_RND, MF_RND, RND_RZ },
    { "rm", MC_RND, MF_RND, RND_RM }, { "rp", MC_RND, MF_RND, RND_RP },
    { "rni", MC_RNDI, MF_RND, RND_RNI }, { "rzi", MC_RNDI, MF_RND, RND_RZI },
    { "rmi", MC_RNDI, MF_RND, RND_RMI }, { "rpi", MC_RNDI, MF_RND, RND_RPI },
    { "ftz", MC_FTZ, MF_FLAG, IF_FTZ }, { "sat", MC_SAT, MF_FLAG, IF_SAT },
    { "approx", MC_APPROX, MF_FLAG, IF_APPROX }, { "full", MC_APPROX, MF_FLAG, IF_FULL },
    { "lo", MC_MULMODE, MF_MUL, MUL_LO }, { "hi", MC_MULMODE, MF_MUL, MUL_HI },
    { "wide", MC_MULMODE, MF_MUL, MUL_WIDE },
    { "eq", MC_CMP, MF_CMP, CMP_EQ }, { "ne", MC_CMP, MF_CMP, CMP_NE },
    { "lt", MC_CMP, MF_CMP, CMP_LT }, { "le", MC_CMP, MF_CMP, CMP_LE },
    { "gt", MC_CMP, MF_CMP, CMP_GT }, { "ge", MC_CMP, MF_CMP, CMP_GE },
    { "lo", MC_CMP, MF_CMP, CMP_LO }, { "ls", MC_CMP, MF_CMP, CMP_LS },
    { "hi", MC_CMP, MF_CMP, CMP_HI }, { "hs", MC_CMP, MF_CMP, CMP_HS },
    { "equ", MC_CMP, MF_CMP, CMP_EQU }, { "neu", MC_CMP, MF_CMP, CMP_NEU },
    { "ltu", MC_CMP, MF_CMP, CMP_LTU }, { "leu", MC_CMP, MF_CMP, CMP_LEU },
    { "gtu", MC_CMP, MF_CMP, CMP_GTU }, { "geu", MC_CMP, MF_CMP, CMP_GEU },
    { "num", MC_CMP, MF_CMP, CMP_NUM }, { "nan", MC_CMP, MF_CMP, CMP_NAN },
    { "and", MC_BOOL, MF_BOOL, BOOL_AND }, { "or", MC_BOOL, MF_BOOL, BOOL_OR },
    { "xor", MC_BOOL, MF_BOOL, BOOL_XOR },
    { "add", MC_ATOMOP, MF_SUB, ATOM_ADD }, { "min", MC_ATOMOP, MF_SUB, ATOM_MIN },
    { "max", MC_ATOMOP, MF_SUB, ATOM_MAX }, { "inc", MC_ATOMOP, MF_SUB, ATOM_INC },
    { "dec", MC_ATOMOP, MF_SUB, ATOM_DEC }, { "exch", MC_ATOMOP, MF_SUB, ATOM_EXCH },
    { "cas", MC_ATOMOP, MF_SUB, ATOM_CAS }, { "and", MC_ATOMOP, MF_SUB, ATOM_AND },
    { "or", MC_ATOMOP, MF_SUB, ATOM_OR }, { "xor", MC_ATOMOP, MF_SUB, ATOM_XOR },
    { "all", MC_VOTE, MF_SUB, VOTE_ALL }, { "any", MC_VOTE, MF_SUB, VOTE_ANY },
    { "uni", MC_VOTE, MF_SUB, VOTE_UNI }, { "ballot", MC_VOTE, MF_SUB, VOTE_BALLOT },
    { "up", MC_SHFL, MF_SUB, SHFL_UP }, { "down", MC_SHFL, MF_SUB, SHFL_DOWN },
    { "bfly", MC_SHFL, MF_SUB, SHFL_BFLY }, { "idx", MC_SHFL, MF_SUB, SHFL_IDX },
    { "uni", MC_UNI, MF_FLAG, IF_UNI },
    { "aligned", MC_ALIGNED, MF_FLAG, IF_ALIGNED },
    { "shiftamt", MC_SHIFTAMT, MF_FLAG, IF_SHIFTAMT },
    { "cta", MC_LEVEL, MF_LEVEL, LEVEL_CTA }, { "gl", MC_LEVEL, MF_LEVEL, LEVEL_GL },
    { "sys", MC_LEVEL, MF_LEVEL, LEVEL_SYS }, { "gpu", MC_LEVEL, MF_LEVEL, LEVEL_GPU },
    { "sc", MC_SEM, MF_SEM, SEM_SC }, { "acq_rel", MC_SEM, MF_SEM, SEM_ACQ_REL },
    { "relaxed", MC_SEM, MF_SEM, SEM_RELAXED }, { "acquire", MC_SEM, MF_SEM, SEM_ACQUIRE },
    { "release", MC_SEM, MF_SEM, SEM_RELEASE },
    { "relu", MC_RELU, MF_FLAG, IF_RELU }, { "satfinite", MC_SATFIN, MF_FLAG, IF_SATFIN },
    { "noftz", MC_NOFTZ, MF_FLAG, IF_NOFTZ }, { "NaN", MC_NAN, MF_FLAG, IF_NAN },
};
const int isa_nmods = (int)(sizeof isa_mods / sizeof isa_mods[0]);

/* The order the disassembler prints modifiers in; it follows the PTX
 * manual's syntax lines (ld.volatile.global.ca.v4.f32, setp.lt.and.ftz.f32,
 * cvt.rni.sat.s32.f32, atom.relaxed.gpu.global.add.u32 ...). */
const ModSlot isa_mod_order[] = {
    { MF_SEM, 0 }, { MF_LEVEL, 0 }, { MF_FLAG, IF_TO }, { MF_FLAG, IF_VOLATILE },
    { MF_SPACE, 0 }, { MF_CACHE, 0 }, { MF_FLAG, IF_NC }, { MF_MUL, 0 }, { MF_CMP, 0 },
    { MF_BOOL, 0 }, { MF_SUB, 0 }, { MF_FLAG, IF_APPROX }, { MF_FLAG, IF_FULL },
    { MF_RND, 0 }, { MF_FLAG, IF_FTZ }, { MF_FLAG, IF_SAT }, { MF_FLAG, IF_NOFTZ }, { MF_FLAG, IF_NAN },
    { MF_FLAG, IF_RELU }, { MF_FLAG, IF_SATFIN }, { MF_FLAG, IF_ALIGNED },
    { MF_FLAG, IF_SHIFTAMT }, { MF_FLAG, IF_UNI }, { MF_VEC, 0 },
};
const int isa_nmod_order = (int)(sizeof isa_mod_order / sizeof isa_mod_order[0]);

unsigned isa_mod_get(const Instr *in, ModSlot s)
{
    switch ((ModField)s.field) {
    case MF_SPACE: return in->space;
    case MF_CACHE: return in->cache;
    case MF_VEC:   return in->vec > 1 ? in->vec : 0;
    case MF_RND:   return in->rnd;
    case MF_MUL:   return in->mul;
    case MF_CMP:   return in->cmp;
    case MF_BOOL:  return in->boolop;
    case MF_SUB:   return in->sub;
    case MF_LEVEL: return in->level;
    case MF_SEM:   return in->sem;
    case MF_FLAG:  return (in->flags & s.flag) ? s.flag : 0;
    }
    return 0;
}

const char *isa_mod_name(uint32_t op_mods, ModSlot s, unsigned value)
{
    for (int i = 0; i < isa_nmods; i++) {
        const ModInfo *m = &isa_mods[i];
        if (m->field == s.field && m->value == value && (m->cls & op_mods)) return m->name;
    }
    return NULL;
}

/* ---- derived metadata ----------------------------------------------------- */
Unit isa_unit(const Instr *in)
{
    switch (isa_ops[in->op].unit) {
    case UC_SFU:  return UNIT_SFU;
    case UC_MEM:  return UNIT_LSU;
    case UC_CTRL: return UNIT_CTRL;
    case UC_SYNC: return UNIT_SYNC;
    case UC_ARITH: break;
    }
    DataType t = (DataType)(in->op == OP_SET ? in->stype : in->type);   /* set: where it compares */
    if (in->op == OP_CVT && (in->type == T_F64 || in->stype == T_F64)) return UNIT_FP64;
    if (t == T_F64) return UNIT_FP64;
    if (isa_type_is_half(t)) return UNIT_FP32;   /* HADD2/HMUL2/HFMA2 (.f16x2: both halves in one) */
    if (t == T_F32) return in->op == OP_DIV ? UNIT_SFU : UNIT_FP32;
    return UNIT_ALU;
}

int isa_operand_bits(const Instr *in, int slot)
{
    int tb = isa_type_bits((DataType)in->type);
    switch ((Format)isa_ops[in->op].format) {
    case FMT_NONE: case FMT_BRA: case FMT_CALL: return 0;
    case FMT_CP: return slot == 3 ? 32 : 0;
    case FMT_SET: return slot == 0 ? tb : slot == 3 ? 1 : isa_type_bits((DataType)in->stype);
    case FMT_D_ABCD: return slot >= 3 ? 32 : tb;   /* bfi: position and length */
    case FMT_D: case FMT_MASK: case FMT_BAR: return 32;
    case FMT_VOTE:
        if (slot == 0) return in->sub == VOTE_BALLOT ? 32 : 1;
        return slot == 1 ? 1 : 32;
    case FMT_SHFL: return slot == 5 ? 1 : 32;
    case FMT_SETP: return (slot == 0 || slot == 3 || slot == 5) ? 1 : tb;
    case FMT_SELP: return slot == 3 ? 1 : tb;
    case FMT_LD: case FMT_ST: case FMT_ATOM: case FMT_RED: return tb;
    case FMT_D_A:
        if (in->op == OP_CVT && (slot == 1 || slot == 2)) return isa_type_bits((DataType)in->stype);
        if ((in->op == OP_POPC || in->op == OP_CLZ || in->op == OP_BFIND) && slot == 0) return 32;
        return tb;
    case FMT_D_AB:
        if ((in->op == OP_SHL || in->op == OP_SHR) && slot == 2) return 32;
        if (in->op == OP_MATCH && slot == 5) return 1;    /* match.all's d|p */
        if (in->op == OP_MATCH && slot != 1) return 32;   /* the lane mask and membermask */
        if (in->mul == MUL_WIDE && slot == 0) return 2 * tb;
        return tb;
    case FMT_D_ABC:
        if (in->mul == MUL_WIDE && (slot == 0 || slot == 3)) return 2 * tb;
        if (in->op == OP_BFE && slot >= 2) return 32;   /* position and length */
        return tb;
    }
    return 0;
}

/* ---- program helpers ------------------------------------------------------ */
const char *program_line(const Program *p, int line, int *len)
{
    if (!p || !p->source || line < 1 || line > p->nlines) { if (len) *len = 0; return ""; }
    const char *s = p->source + p->line_starts[line - 1];
    int n = 0;
    while (s[n] && s[n] != '\n') n++;
    if (n > 0 && s[n - 1] == '\r') n--;
    if (len) *len = n;
    return s;
}

const char *program_where(const Program *p, int line, int *local)
{
    if (local) *local = line;
    if (!p) return "";
    const SrcFile *best = NULL;
    for (int i = 0; i < p->nfiles; i++)
        if (line >= p->files[i].first_line && line < p->files[i].first_line + p->files[i].nlines) best = &p->files[i];
    if (!best) return p->filename;
    if (local) *local = line - best->first_line + 1;
    return best->name;
}

void program_fix_diags(const Program *p, DiagList *dl, int from)
{
    if (!p || p->nfiles < 2) return;
    for (int i = from; i < dl->n; i++) {
        Diag *d = &dl->v[i];
        if (d->line <= 0 || strcmp(d->file, p->filename) != 0) continue;
        int local;
        const char *f = program_where(p, d->line, &local);
        d->line = local;
        if (strcmp(f, d->file) == 0) continue;
        size_t n = strlen(f);
        char *copy = malloc(n + 1);
        if (!copy) abort();
        memcpy(copy, f, n + 1);
        free(d->file);
        d->file = copy;
    }
}

const char *program_cuda_line(const Program *p, int line, int *cuda_line)
{
    if (!p || !p->locs || line < 1 || line > p->nlines || !p->locs[line].file) return NULL;
    int src = 0;
    for (int i = 0; i < p->nfiles; i++)
        if (line >= p->files[i].first_line && line < p->files[i].first_line + p->files[i].nlines) src = i;
    for (int i = 0; i < p->ncuda_files; i++) {
        if (p->cuda_files[i].num != p->locs[line].file || p->cuda_files[i].src != src) continue;
        const char *slash = strrchr(p->cuda_files[i].path, '/');
        if (cuda_line) *cuda_line = (int)p->locs[line].line;
        return slash ? slash + 1 : p->cuda_files[i].path;
    }
    return NULL;
}

const char *program_line_label(const Program *p, int line, int with_cuda, char *buf, size_t n)
{
    int local, cl;
    const char *f = program_where(p, line, &local);
    const char *slash = strrchr(f, '/');
    int k;
    int in_main = !p || p->nfiles < 2 || line < p->files[0].first_line + p->files[0].nlines;
    if (!in_main) k = snprintf(buf, n, "%s:%d", slash ? slash + 1 : f, local);
    else k = snprintf(buf, n, "%d", local);
    const char *cu = with_cuda ? program_cuda_line(p, line, &cl) : NULL;
    if (cu && k > 0 && (size_t)k < n) snprintf(buf + k, n - (size_t)k, " (%s:%d)", cu, cl);
    return buf;
}

uint32_t program_launch_shared(const Program *p, const LaunchSpec *l)
{
    const Entry *e = &p->entries[l->entry];
    return l->dyn_shared_bytes ? e->dyn_shared_offset + l->dyn_shared_bytes : e->shared_bytes;
}

int program_find_entry(const Program *p, const char *name)
{
    for (int i = 0; i < p->nentries; i++)
        if (strcmp(p->entries[i].name, name) == 0) return i;
    return -1;
}

int program_find_buffer(const Program *p, const char *name)
{
    for (int i = 0; i < p->nbuffers; i++)
        if (strcmp(p->buffers[i].name, name) == 0) return i;
    return -1;
}

static void free_regs(RegInfo *r, int n)
{
    for (int i = 0; i < n; i++) free(r[i].name);
    free(r);
}

static void free_entry(Entry *en)
{
    free(en->name);
    int np = en->nall_params > en->nparams ? en->nall_params : en->nparams;
    for (int i = 0; i < np; i++) free(en->params[i].name);
    free(en->params);
    free(en->code);
    free_regs(en->regs, en->nregs);
    free_regs(en->preds, en->npreds);
    for (int i = 0; i < en->nlabels; i++) free(en->labels[i].name);
    free(en->labels);
    free(en->blocks);
    for (int i = 0; i < en->ncalls; i++) { free(en->calls[i].name); free(en->calls[i].params); }
    free(en->calls);
    free(en->linked);
    if (en->machine) {
        free(en->machine->code);
        free(en->machine->uorder);
        if (en->machine->unrolled) {
            free_regs(en->machine->regs, en->machine->nregs);
            free_regs(en->machine->preds, en->machine->npreds);
            free(en->machine->blocks);
        }
    }
    free(en->machine);
    free(en->morder);
}

int program_has_loops(const Program *p)
{
    for (int i = 0; i < p->nlaunches; i++)
        if (p->launches[i].nloop) return 1;
    return 0;
}

const char *program_loop_text(const Program *p, const LaunchSpec *l, char *buf, size_t n)
{
    size_t k = 0;
    if (n) buf[0] = '\0';
    for (int i = 0; i < l->nloop && k < n; i++) {
        int w = snprintf(buf + k, n - k, "%s%s=%lld", i ? " " : "", p->loop_vars[l->loop_var[i]], (long long)l->loop_val[i]);
        if (w < 0) break;
        k += (size_t)w;
    }
    return buf;
}

void program_free(Program *p)
{
    if (!p) return;
    for (int e = 0; e < p->nentries; e++) free_entry(&p->entries[e]);
    free(p->entries);
    for (int e = 0; e < p->nfuncs; e++) free_entry(&p->funcs[e]);
    free(p->funcs);
    for (int i = 0; i < p->nvars; i++) free(p->vars[i].name);
    free(p->vars);
    free(p->const_data);
    for (int i = 0; i < p->ndefines; i++) free(p->defines[i].name);
    free(p->defines);
    for (int i = 0; i < p->nbuffers; i++) { free(p->buffers[i].name); free(p->buffers[i].path); free(p->buffers[i].values); free(p->buffers[i].ivalues); free(p->buffers[i].data); free(p->buffers[i].expr); }
    free(p->buffers);
    for (int i = 0; i < p->nlaunches; i++) free(p->launches[i].args);
    free(p->launches);
    for (int i = 0; i < p->nloop_vars; i++) free(p->loop_vars[i]);
    free(p->loop_vars);
    for (int i = 0; i < p->nchecks; i++) {
        free(p->checks[i].ref); free(p->checks[i].args); free(p->checks[i].path);
    }
    free(p->checks);
    for (int i = 0; i < p->nfiles; i++) free(p->files[i].name);
    free(p->files);
    free(p->locs);
    for (int i = 0; i < p->ncuda_files; i++) free(p->cuda_files[i].path);
    free(p->cuda_files);
    free(p->filename);
    free(p->source);
    free(p->line_starts);
    free(p);
}

/* ---- docs/isa.md ------------------------------------------------------- */
static const char *const format_syntax[] = {
    [FMT_NONE] = "", [FMT_D] = "d", [FMT_D_A] = "d, a", [FMT_D_AB] = "d, a, b",
    [FMT_D_ABC] = "d, a, b, c", [FMT_SETP] = "p[|q], a, b[, c]", [FMT_SELP] = "d, a, b, c",
    [FMT_LD] = "d, [a]", [FMT_ST] = "[a], b", [FMT_ATOM] = "d, [a], b[, c]",
    [FMT_RED] = "[a], b", [FMT_BRA] = "LABEL", [FMT_BAR] = "a[, b]", [FMT_MASK] = "membermask",
    [FMT_VOTE] = "d, a, membermask", [FMT_SHFL] = "d[|p], a, b, c, membermask",
    [FMT_CALL] = "[(rets),] func[, (args)]", [FMT_CP] = "[d], [a], size[, c]",
    [FMT_SET] = "d, a, b[, c]", [FMT_D_ABCD] = "d, a, b, c, e",
};

static const char *const unit_class_names[] = {
    [UC_ARITH] = "by type: ALU (int), FP32, FP64", [UC_SFU] = "SFU", [UC_MEM] = "LSU",
    [UC_CTRL] = "branch", [UC_SYNC] = "sync",
};

/* A table cell: '|' would end the cell, even inside a code span. */
static void doc_cell(FILE *out, const char *s)
{
    for (; *s; s++) {
        if (*s == '|') fputc('\\', out);
        fputc(*s, out);
    }
}

static void doc_types(FILE *out, uint32_t mask)
{
    int first = 1;
    for (int t = 1; t < T_COUNT; t++)
        if (mask & TMASK(t)) { fprintf(out, "%s.%s", first ? "" : " ", types[t].name); first = 0; }
    if (first) fputs("-", out);
}

static void doc_mods(FILE *out, uint32_t mask)
{
    int first = 1;
    for (int i = 0; i < isa_nmods; i++) {
        if (!(mask & isa_mods[i].cls)) continue;
        /* list each spelling once even where two classes share it */
        int dup = 0;
        for (int j = 0; j < i; j++)
            if ((mask & isa_mods[j].cls) && strcmp(isa_mods[j].name, isa_mods[i].name) == 0) dup = 1;
        if (dup) continue;
        fprintf(out, "%s.%s", first ? "" : " ", isa_mods[i].name);
        first = 0;
    }
    if (first) fputs("-", out);
}

void isa_doc(FILE *out)
{
    fputs("# gpusim ISA reference\n\n"
          "<!-- Generated by `./gpusim --doc isa` from isa/isa.def; `make docs` rewrites it\n"
          "     and tests/test_isa.c fails if it is stale. -->\n\n"
          "gpusim runs a subset of NVIDIA PTX. Names, operand order and behaviour follow\n"
          "the PTX ISA manual, so what you learn here transfers, and simple `nvcc -ptx`\n"
          "output assembles unchanged. Every row below comes from one line of\n"
          "`isa/isa.def`, the single table that also drives the assembler, the\n"
          "disassembler and the executor.\n\n"
          "## Syntax of an instruction\n\n"
          "```\n[LABEL:] [@%p | @!%p] opcode[.modifier...][.type] operands ;\n```\n\n"
          "Operands are registers (`%r1`, `%rd2`, `%f3`, `%fd4`, `%p1`, `%rs5`), special\n"
          "registers (`%tid.x`), immediates (`42`, `-1`, `0x1F`, `1.5`, `0f3F800000`,\n"
          "`0d3FF0000000000000`, a `.define` name or a parenthesised expression of\n"
          "them), addresses (`[%rd1]`, `[%rd1+64]`, `[name]`, `[name+8]`), vectors\n"
          "(`{%f1, %f2, %f3, %f4}`), labels and variable names (`mov.u64 %rd1, tile;`\n"
          "gives the variable's address). Registers need no `.reg` declaration when\n"
          "their name follows nvcc's convention: `%p` predicate, `%rs` 16-bit, `%r` and\n"
          "`%f` 32-bit, `%rd` and `%fd` 64-bit; any other name must be declared.\n\n"
          "A register is checked by width against the instruction: a `.u32` operation\n"
          "needs 32-bit registers, `mul.wide.s32` writes a 64-bit one, a shift amount\n"
          "is 32-bit, and 8- and 16-bit types accept any register of 16 bits or more.\n\n"
          "Which roundings, `.ftz` and `.sat` an instruction takes is checked as ptxas checks\n"
          "it (two conveniences stay that ptxas refuses: the undeclared registers above, and\n"
          "an integer literal where a float is expected, `add.f32 %f1, %f2, 2`). `cvt` from\n"
          "an integer to a float needs `.rn .rz .rm .rp`, from a float to an integer\n"
          "`.rni .rzi .rmi .rpi`, to a narrower float a rounding, to a wider one none; `.ftz`\n"
          "needs an `.f32`, `.sat` a conversion that can overflow; `mad` and `div` of floats\n"
          "need a rounding (`div.f32`: or `.approx`/`.full`); `.ftz` and float `.sat` are for\n"
          "`.f32` only, integer `.sat` for `add`, `sub` and `mad.hi` of `.s32`. Every form of\n"
          "`cvt` and of the arithmetic is checked against ptxas 13.0's verdict, with the math\n"
          "functions (`sin` needs `.approx`), `set`/`setp` (`.lo` compares unsigned types, `.b`\n"
          "types only `.eq .ne`), the bit operations, `ld`/`st` (cache operators: `.wb .wt` for\n"
          "`st`, `.ca .lu .cv .nc` for `ld`; halves as `.b16`; no 256-bit vectors before\n"
          "sm_100) and `atom` (`.and .or .xor .exch .cas` take `.b32 .b64`, `.inc .dec` `.u32`):\n"
          "tests/data/ptxas_modifiers.csv, 13,217 forms, test_asm.\n\n"
          "## Types\n\n| suffix | bits | kind |\n|---|---|---|\n", out);
    static const char *const kind_names[] = { "-", "untyped bits", "unsigned", "signed", "IEEE float", "predicate" };
    for (int t = 1; t < T_COUNT; t++)
        fprintf(out, "| .%s | %d | %s |\n", types[t].name, types[t].bits, kind_names[types[t].kind]);
    fputs("\n## Special registers\n\n", out);
    for (int s = 0; s < SR_COUNT; s++) fprintf(out, "%s`%s`", s ? ", " : "", isa_sreg_names[s]);
    fputs(".\n\n`%clock` and `%clock64` read the SM's cycle counter (`%globaltimer`: the same\n"
          "in nanoseconds, at `gpu.core_clock_mhz`); `%lanemask_*` are the\n"
          "masks of lanes equal to, below, up to, above and from this lane.\n\n"
          "`WARP_SZ` is PTX's predefined warp-size constant. It is known only at run time\n"
          "(`sm.warp_size` in the config: 4, 8, 16 or 32), so it is an operand wherever an\n"
          "integer immediate is allowed (`mov.u32 %r1, WARP_SZ;`, `rem.u32 %r2, %r3, WARP_SZ;`)\n"
          "but not part of an expression: compute `WARP_SZ-1` with `sub.u32 %r4, WARP_SZ, 1;`.\n"
          "Kernels that use it, `%laneid` and `activemask` instead of 31 and `0xffffffff`\n"
          "run at every warp size.\n\n"
          "## Opcodes\n\n"
          "| opcode | operands | types | modifiers | unit | meaning |\n|---|---|---|---|---|---|\n", out);
    for (int op = 0; op < OP_COUNT; op++) {
        const OpInfo *o = &isa_ops[op];
        fprintf(out, "| `%s` | ", o->mnemonic);
        if (*format_syntax[o->format]) { fputc('`', out); doc_cell(out, format_syntax[o->format]); fputc('`', out); }
        else fputc('-', out);
        fputs(" | ", out);
        doc_types(out, o->types);
        fputs(" | ", out);
        doc_mods(out, o->mods);
        fprintf(out, " | %s | ", unit_class_names[o->unit]);
        doc_cell(out, o->meaning);
        fputs(" |\n", out);
    }
    fputs("\n## Defined results where PTX leaves them undefined\n\n"
          "- Integer `div` by zero gives all ones (`0xFFFFFFFF` for 32 bits), `rem` by zero\n"
          "  gives the dividend; both are counted in the report so they are never silent.\n"
          "- `shl`/`shr` amounts of the type's width or more give 0 (`shr.s*`: the sign fill).\n"
          "- Floating-point `.approx` operations are computed in full precision.\n"
          "- A NaN result of floating-point arithmetic has the bits an H100 gives\n"
          "  (tests/validation/h100/measured/nan_bits.csv, every case checked by\n"
          "  tests/test_exec_diff.c): in `.f32` always `0x7FFFFFFF`, `abs` and `neg` of a NaN\n"
          "  included; in `.f64` the payload of a NaN operand, quieted, taken from `b` before\n"
          "  `a` (`add sub mul min max`), `a` before `b` (`div`), or `b`, `c`, `a` (`fma`,\n"
          "  `mad`), its sign kept (`abs`, `neg`, `sqrt` keep their operand's), and\n"
          "  `0xFFF8000000000000` for a NaN made from numbers (`inf - inf`, `sqrt(-1)`).\n"
          "  `min` and `max` of one NaN give the other operand; `cvt` between `.f32` and\n"
          "  `.f64` keeps the payload, quieted; moves, `selp`, loads and stores keep a NaN's\n"
          "  bits. (Before, a NaN's payload was the host CPU's choice, and it depended on\n"
          "  whether the simulator ran a warp's lanes as one row or one by one:\n"
          "  tests/test_exec_diff.c found it.)\n\n"
          "## Modifiers accepted but not modelled\n\n"
          "Cache operators (`.ca .cg .cs .lu .cv .wb .wt .nc`) are recorded for the memory\n"
          "model; memory-ordering qualifiers (`.sem`, scopes, `.volatile`) are accepted and\n"
          "behave as the strongest ordering, since gpusim applies each memory access in a\n"
          "fixed, deterministic order.\n", out);
}
