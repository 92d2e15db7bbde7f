/* asm_func.c - device functions: the operands of `call`, and linking each
 * .func into the entries that call it.
 *
 * PTX passes arguments and return values through the .param space: a call
 * sequence declares .params (nvcc: param0, retval0), stores the arguments
 * into them, `call (retval0), f, (param0);`, then loads the result.  gpusim
 * keeps each function's .params (its return values, arguments and its own
 * call scratch) in a frame per activation, per thread (sim/core/warp.c
 * pushes one at each call), so recursion works.
 *
 * Linking: at the end of the file every entry gets a copy of each .func it
 * can reach, appended after its own code with registers, predicates,
 * .params, labels and calls rebased (Entry.linked says where), so the
 * simulator runs one code array per launch, the control-flow analysis sees
 * every branch of every function (a branch in a .func reconverges inside
 * it; its ret ends the function's paths as exit ends a kernel's), and the
 * timing model needs nothing new.
 */
#include <stdlib.h>
#include <string.h>

#include "asm_internal.h"
#include "suggest.h"

enum { MAX_CALL_PARAMS = 256 };

/* ( name, name, ... ) of .params; appended to *list. */
static int param_list(Asm *A, const Instr *in, int *list, int *n)
{
    char b[64];
    if (asm_accept(A, ')')) return 0;
    for (;;) {
        Token t = asm_next(A);
        int i = t.kind == TOK_IDENT ? strmap_get(&A->parammap, t.s, t.len) : -1;
        if (i < 0) {
            if (t.kind != TOK_ERROR)
                asm_err(A, &t, "%s: expected a .param name (declare it with .param in the call sequence), got %s",
                        isa_ops[in->op].mnemonic, asm_show(&t, b, sizeof b));
            return -1;
        }
        if (*n >= MAX_CALL_PARAMS) { asm_err(A, &t, "call: more than %d parameters", MAX_CALL_PARAMS); return -1; }
        list[(*n)++] = i;
        if (asm_accept(A, ',')) continue;
        return asm_expect(A, ')', "to close the parameter list");
    }
}

int asm_parse_call(Asm *A, Instr *in)
{
    int list[2 * MAX_CALL_PARAMS], nrets = 0, nargs = 0;
    char b[64];
    if (asm_accept(A, '(')) {
        if (param_list(A, in, list, &nrets)) return -1;
        if (asm_expect(A, ',', "after the return values of call")) return -1;
    }
    Token f = asm_next(A);
    if (f.kind == TOK_REG) {
        asm_err(A, &f, "indirect calls (through a register) are not supported: call the .func by name");
        return -1;
    }
    if (f.kind != TOK_IDENT) {
        if (f.kind != TOK_ERROR) asm_err(A, &f, "call: expected a function name, got %s", asm_show(&f, b, sizeof b));
        return -1;
    }
    if (asm_accept(A, ',')) {
        Token open = asm_peek(A);
        if (!asm_is_punct(&open, '(')) {
            asm_err(A, &open, "call: expected '(' and the arguments, got %s (call prototypes are for indirect calls, "
                    "which are not supported)", asm_show(&open, b, sizeof b));
            return -1;
        }
        asm_next(A);
        int *args = list + nrets;
        if (param_list(A, in, args, &nargs)) return -1;
    }
    Entry *e = A->e;
    GROW(e->calls, e->ncalls, A->capcalls);
    CallSite *cs = &e->calls[e->ncalls];
    memset(cs, 0, sizeof *cs);
    cs->name = asm_xstrndup(f.s, (size_t)f.len);
    cs->func = -1;
    cs->linked = -1;
    cs->nrets = nrets;
    cs->nargs = nargs;
    cs->params = asm_xrealloc(NULL, (size_t)(nrets + nargs) * sizeof *cs->params);
    memcpy(cs->params, list, (size_t)(nrets + nargs) * sizeof *cs->params);
    in->opd[0].kind = OPD_LABEL;       /* the callee's first pc, once linked */
    in->opd[1].kind = OPD_IMM;
    in->opd[1].imm = e->ncalls++;
    cs->line = f.line;
    cs->col = f.col;
    return 0;
}

/* ---- linking ---------------------------------------------------------------- */

static Token at_line(Asm *A, int line, int col)
{
    Token t = { .line = line, .col = col };
    t.s = A->p->source + A->p->line_starts[line - 1] + col - 1;
    return t;
}

/* CUDA's printf: nvcc calls vprintf(format, arguments) with two 64-bit
 * pointers and an optional 32-bit result (sim/core/printf.h). */
static int resolve_vprintf(Asm *A, const Entry *e, CallSite *cs, const Token *at)
{
    int ok = cs->nrets <= 1 && cs->nargs == 2;
    for (int i = 0; ok && i < cs->nrets + cs->nargs; i++)
        if (e->params[cs->params[i]].size < (i < cs->nrets ? 4u : 8u)) ok = 0;
    if (!ok) {
        asm_err(A, at, "call of vprintf: CUDA's printf passes two 64-bit .params (the format and the arguments' "
                "address) and takes at most one 32-bit result, as nvcc writes it");
        return -1;
    }
    cs->func = CALL_VPRINTF;
    return 0;
}

/* Check a call against its callee: the function exists and the .params
 * passed match its signature. */
static int resolve_call(Asm *A, const Entry *e, CallSite *cs, const Instr *in)
{
    Program *p = A->p;
    (void)in;
    Token at = at_line(A, cs->line, cs->col);
    cs->func = strmap_get(&A->funcmap, cs->name, (int)strlen(cs->name));
    if (cs->func < 0) {
        const char *near = p->nfuncs ? suggest_best(cs->name, p->funcs, (size_t)p->nfuncs, sizeof *p->funcs) : NULL;
        if (program_find_entry(p, cs->name) >= 0) asm_err(A, &at, "call of '%s': an .entry cannot be called, only a .func", cs->name);
        else if (strmap_get(&A->protomap, cs->name, (int)strlen(cs->name)) >= 0 && !strcmp(cs->name, "vprintf"))
            return resolve_vprintf(A, e, cs, &at);
        else if (strmap_get(&A->protomap, cs->name, (int)strlen(cs->name)) >= 0)
            asm_err(A, &at, "call of '%s': it is only declared (a prototype, such as nvcc's .extern .func for a CUDA "
                    "library function), and no .func in the program defines it (of CUDA's library functions gpusim "
                    "has vprintf, for printf)", cs->name);
        else if (near) asm_err(A, &at, "call of unknown function '%s' (did you mean '%s'?)", cs->name, near);
        else asm_err(A, &at, "call of unknown function '%s' (no .func defines it)", cs->name);
        return -1;
    }
    const Entry *f = &p->funcs[cs->func];
    if (cs->nrets != f->nrets || cs->nargs != f->nparams - f->nrets) {
        asm_err(A, &at, "call of %s passes %d return value%s and %d argument%s; it has %d and %d", cs->name, cs->nrets,
                cs->nrets == 1 ? "" : "s", cs->nargs, cs->nargs == 1 ? "" : "s", f->nrets, f->nparams - f->nrets);
        return -1;
    }
    for (int i = 0; i < cs->nrets + cs->nargs; i++) {
        const Param *mine = &e->params[cs->params[i]], *theirs = &f->params[i];
        if (mine->size < theirs->size) {
            asm_err(A, &at, "call of %s: .param %s has %u bytes, its %s %s needs %u", cs->name, mine->name, mine->size,
                    i < cs->nrets ? "return value" : "parameter", theirs->name, theirs->size);
            return -1;
        }
    }
    return 0;
}

static void rebase_operand(Operand *o, const LinkedFunc *lf)
{
    switch ((OperandKind)o->kind) {
    case OPD_REG: o->r[0] = (uint16_t)(o->r[0] + lf->reg_base); break;
    case OPD_PRED: o->r[0] = (uint16_t)(o->r[0] + lf->pred_base); break;
    case OPD_VEC:
        for (int i = 0; i < o->n; i++) if (o->r[i] != REG_NONE) o->r[i] = (uint16_t)(o->r[i] + lf->reg_base);
        break;
    case OPD_MEM:
        if (o->r[0] != REG_NONE) o->r[0] = (uint16_t)(o->r[0] + lf->reg_base);
        if (o->is_param) o->sym += lf->param_base;
        break;
    case OPD_LABEL: o->imm += lf->pc; break;
    default: break;
    }
}

static void append_regs(RegInfo **dst, int *n, const RegInfo *src, int m)
{
    *dst = asm_xrealloc(*dst, (size_t)(*n + m) * sizeof **dst);
    for (int i = 0; i < m; i++) {
        (*dst)[*n + i] = src[i];
        (*dst)[*n + i].name = asm_xstrndup(src[i].name, strlen(src[i].name));
    }
    *n += m;
}

/* Append .func f (its own code) to entry e; returns its LinkedFunc. */
static int link_one(Entry *e, const Entry *f, int fi)
{
    LinkedFunc lf = { fi, (uint32_t)e->ncode, e->nregs, f->nregs, e->npreds, f->npreds, e->nall_params, f->frame_bytes };
    append_regs(&e->regs, &e->nregs, f->regs, f->nregs);
    append_regs(&e->preds, &e->npreds, f->preds, f->npreds);
    e->params = asm_xrealloc(e->params, (size_t)(e->nall_params + f->nall_params) * sizeof *e->params);
    for (int i = 0; i < f->nall_params; i++) {
        e->params[e->nall_params + i] = f->params[i];
        e->params[e->nall_params + i].name = asm_xstrndup(f->params[i].name, strlen(f->params[i].name));
    }
    e->nall_params += f->nall_params;
    int call_base = e->ncalls;
    e->calls = asm_xrealloc(e->calls, (size_t)(e->ncalls + f->ncalls) * sizeof *e->calls);
    for (int i = 0; i < f->ncalls; i++) {
        CallSite cs = f->calls[i];
        cs.name = asm_xstrndup(cs.name, strlen(cs.name));
        cs.params = asm_xrealloc(NULL, (size_t)(cs.nrets + cs.nargs) * sizeof *cs.params);
        for (int k = 0; k < cs.nrets + cs.nargs; k++) cs.params[k] = f->calls[i].params[k] + lf.param_base;
        cs.linked = -1;
        e->calls[e->ncalls++] = cs;
    }
    e->code = asm_xrealloc(e->code, (size_t)(e->ncode + f->ncode) * sizeof *e->code);
    for (int pc = 0; pc < f->ncode; pc++) {
        Instr in = f->code[pc];
        if (in.guard != REG_NONE) in.guard = (uint16_t)(in.guard + lf.pred_base);
        for (int s = 0; s < ISA_MAX_OPS; s++) rebase_operand(&in.opd[s], &lf);
        if (in.op == OP_CALL) in.opd[1].imm += call_base;
        e->code[e->ncode++] = in;
    }
    e->labels = asm_xrealloc(e->labels, (size_t)(e->nlabels + f->nlabels) * sizeof *e->labels);
    for (int i = 0; i < f->nlabels; i++) {
        e->labels[e->nlabels++] = (Label){ asm_xstrndup(f->labels[i].name, strlen(f->labels[i].name)),
                                           f->labels[i].pc + lf.pc };
    }
    e->linked = asm_xrealloc(e->linked, (size_t)(e->nlinked + 1) * sizeof *e->linked);
    e->linked[e->nlinked] = lf;
    return e->nlinked++;
}

/* The entry's LinkedFunc of .func fi, linking it first if need be. */
static int linked_index(Entry *e, const Program *p, int fi)
{
    for (int i = 0; i < e->nlinked; i++) if (e->linked[i].func == fi) return i;
    return link_one(e, &p->funcs[fi], fi);
}

void asm_link_funcs(Asm *A)
{
    Program *p = A->p;
    /* every call must name a .func with its signature (checked once, in the
     * function that makes it) */
    int bad = 0;
    for (int k = 0; k < p->nentries + p->nfuncs; k++) {
        Entry *e = k < p->nentries ? &p->entries[k] : &p->funcs[k - p->nentries];
        for (int pc = 0; pc < e->ncode; pc++)
            if (e->code[pc].op == OP_CALL && resolve_call(A, e, &e->calls[e->code[pc].opd[1].imm], &e->code[pc])) bad = 1;
    }
    if (bad) return;
    for (int ei = 0; ei < p->nentries; ei++) {
        Entry *e = &p->entries[ei];
        e->ncode_own = e->ncode;
        /* a worklist over the code as it grows: linked functions' calls too */
        for (int pc = 0; pc < e->ncode; pc++) {
            if (e->code[pc].op != OP_CALL) continue;
            int ci = (int)e->code[pc].opd[1].imm;
            if (e->calls[ci].func == CALL_VPRINTF) continue;   /* built in */
            int li = linked_index(e, p, e->calls[ci].func);
            e->calls[ci].linked = li;
            e->code[pc].opd[0].imm = e->linked[li].pc;
        }
    }
    for (int fi = 0; fi < p->nfuncs; fi++) p->funcs[fi].ncode_own = p->funcs[fi].ncode;
}
