/* disasm.c - see disasm.h. */
#include "disasm.h"
#include "backend.h"

#include <inttypes.h>
#include <stdarg.h>
#include <string.h>

#include "cfg.h"
#include "isa_mods.h"

typedef struct Buf { char *s; size_t n, len; } Buf;

#include <stdarg.h>
static void put(Buf *b, const char *fmt, ...)
{
    if (b->len >= b->n) return;
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(b->s + b->len, b->n - b->len, fmt, ap);
    va_end(ap);
    if (k > 0) b->len += (size_t)k;
    if (b->len >= b->n) b->len = b->n - 1;
}

static const char *label_at(const Entry *e, int64_t pc)
{
    for (int i = 0; i < e->nlabels; i++)
        if (e->labels[i].pc == pc) return e->labels[i].name;
    return NULL;
}

/* The type an operand slot holds, for printing immediates. */
static DataType imm_type(const Instr *in, int slot)
{
    switch ((Format)isa_ops[in->op].format) {
    case FMT_BAR: case FMT_MASK: case FMT_SHFL: return T_B32;
    case FMT_VOTE: return T_B32;
    default: break;
    }
    if (in->op == OP_CVT && (slot == 1 || slot == 2)) return (DataType)in->stype;
    if ((in->op == OP_SHL || in->op == OP_SHR) && slot == 2) return T_U32;
    return (DataType)in->type;
}

static void put_operand(Buf *b, const Program *p, const Entry *e, const Instr *in, int slot)
{
    const Operand *o = &in->opd[slot];
    switch ((OperandKind)o->kind) {
    case OPD_NONE: break;
    case OPD_REG: put(b, "%s", e->regs[o->r[0]].name); break;
    case OPD_PRED: put(b, "%s%s", o->neg ? "!" : "", e->preds[o->r[0]].name); break;
    case OPD_SREG: put(b, "%s", isa_sreg_names[o->r[0]]); break;
    case OPD_IMM: {
        DataType t = imm_type(in, slot);
        if (t == T_F32) put(b, "0f%08" PRIX32, (uint32_t)o->imm);
        else if (t == T_F64) put(b, "0d%016" PRIX64, (uint64_t)o->imm);
        else put(b, "%" PRId64, o->imm);
        break;
    }
    case OPD_SYM:
        put(b, "%s", p->vars[o->sym].name);
        if (o->imm) put(b, "+%" PRId64, o->imm);
        break;
    case OPD_MEM:
        put(b, "[");
        if (o->r[0] != REG_NONE) put(b, "%s", e->regs[o->r[0]].name);
        else if (o->sym >= 0) put(b, "%s", o->is_param ? e->params[o->sym].name : p->vars[o->sym].name);
        if (o->r[0] == REG_NONE && o->sym < 0) put(b, "%" PRId64, o->imm);
        else if (o->imm) put(b, "+%" PRId64, o->imm);
        put(b, "]");
        break;
    case OPD_LABEL: {
        const char *l = label_at(e, o->imm);
        if (l) put(b, "%s", l); else put(b, "$pc_%" PRId64, o->imm);
        break;
    }
    case OPD_VEC:
        put(b, "{");
        for (int i = 0; i < o->n; i++)
            put(b, "%s%s", i ? ", " : "", o->r[i] == REG_NONE ? "_" : e->regs[o->r[i]].name);
        put(b, "}");
        break;
    }
}

void disasm_instr(const Program *p, const Entry *e, const Instr *in, char *buf, size_t n)
{
    Buf b = { buf, n, 0 };
    buf[0] = '\0';
    const OpInfo *o = &isa_ops[in->op];
    if (in->guard != REG_NONE) put(&b, "@%s%s ", in->guard_neg ? "!" : "", e->preds[in->guard].name);
    put(&b, "%s", o->mnemonic);
    if (in->op == OP_CP_ASYNC)   /* PTX's order, and the source space the table cannot say */
        put(&b, "%s.shared.global", in->cache == CACHE_CG ? ".cg" : in->cache == CACHE_CA ? ".ca" : "");
    for (int i = 0; i < isa_nmod_order && in->op != OP_CP_ASYNC; i++) {
        unsigned v = isa_mod_get(in, isa_mod_order[i]);
        if (!v) continue;
        const char *name = isa_mod_name(o->mods, isa_mod_order[i], v);
        if (name) put(&b, ".%s", name);
    }
    if (in->type) put(&b, ".%s", isa_type_name((DataType)in->type));
    if (in->stype) put(&b, ".%s", isa_type_name((DataType)in->stype));
    if (o->format == FMT_CALL && in->opd[1].imm >= 0 && in->opd[1].imm < e->ncalls) {
        /* call (rets), func, (args); */
        const CallSite *cs = &e->calls[in->opd[1].imm];
        put(&b, " ");
        if (cs->nrets) {
            put(&b, "(");
            for (int i = 0; i < cs->nrets; i++) put(&b, "%s%s", i ? ", " : "", e->params[cs->params[i]].name);
            put(&b, "), ");
        }
        put(&b, "%s", cs->name);
        if (cs->nargs) {
            put(&b, ", (");
            for (int i = 0; i < cs->nargs; i++) put(&b, "%s%s", i ? ", " : "", e->params[cs->params[cs->nrets + i]].name);
            put(&b, ")");
        }
        put(&b, ";");
        return;
    }
    /* operand order per format; slot 5 is the second destination (p|q) */
    static const int8_t order[][6] = {
        [FMT_NONE] = { -1 }, [FMT_D] = { 0, -1 }, [FMT_D_A] = { 0, 1, 2, -1 }, [FMT_D_AB] = { 0, 1, 2, -1 },
        [FMT_D_ABC] = { 0, 1, 2, 3, -1 }, [FMT_SETP] = { 0, 1, 2, 3, -1 }, [FMT_SELP] = { 0, 1, 2, 3, -1 },
        [FMT_LD] = { 0, 1, -1 }, [FMT_ST] = { 0, 1, -1 }, [FMT_ATOM] = { 0, 1, 2, 3, -1 },
        [FMT_RED] = { 0, 1, -1 }, [FMT_BRA] = { 0, -1 }, [FMT_BAR] = { 0, 1, -1 }, [FMT_MASK] = { 0, -1 },
        [FMT_VOTE] = { 0, 1, 2, -1 }, [FMT_SHFL] = { 0, 1, 2, 3, 4, -1 }, [FMT_CP] = { 0, 1, 2, 3, -1 },
        [FMT_SET] = { 0, 1, 2, 3, -1 }, [FMT_D_ABCD] = { 0, 1, 2, 3, 4, -1 },
    };
    const int8_t *ord = order[o->format];
    for (int i = 0; i < 6 && ord[i] >= 0; i++) {
        int s = ord[i];
        if (s >= in->nops || in->opd[s].kind == OPD_NONE) break;
        put(&b, i ? ", " : " ");
        put_operand(&b, p, e, in, s);
        if (s == 0 && in->opd[5].kind != OPD_NONE) { put(&b, "|"); put_operand(&b, p, e, in, 5); }
    }
    put(&b, ";");
}

/* ---- listings -------------------------------------------------------------- */
static int conventional(const RegInfo *r)
{
    /* registers the assembler would create without a .reg line */
    const char *s = r->name;
    size_t n = strlen(s), k = n;
    while (k > 1 && s[k - 1] >= '0' && s[k - 1] <= '9') k--;
    if (k == n) return 0;
    char pre[8];
    if (k - 1 >= sizeof pre) return 0;
    memcpy(pre, s + 1, k - 1);
    pre[k - 1] = '\0';
    int bits = !strcmp(pre, "p") ? 1 : (!strcmp(pre, "r") || !strcmp(pre, "f")) ? 32
             : (!strcmp(pre, "rd") || !strcmp(pre, "fd")) ? 64
             : (!strcmp(pre, "rs") || !strcmp(pre, "h") || !strcmp(pre, "rc")) ? 16 : 0;
    return bits == r->bits;
}

static void print_var(const Program *p, const Var *v, FILE *out, const char *indent)
{
    static const char *const sp[] = { "", ".global", ".shared", ".const", ".local", ".param" };
    int esize = isa_type_bits((DataType)v->type) / 8;
    if (v->dynamic) {   /* its size comes with each .launch (shared=) */
        fprintf(out, "%s.extern .shared .align %u .%s %s[];   // dynamic: after the static shared memory\n", indent, v->align,
                isa_type_name((DataType)v->type), v->name);
        return;
    }
    fprintf(out, "%s%s .align %u .%s %s[%u]", indent, sp[v->space], v->align, isa_type_name((DataType)v->type),
            v->name, esize ? v->size / (uint32_t)esize : 0);
    const uint8_t *init = NULL;   /* the initial bytes: .const image, or a .global's initializer */
    if (v->space == SP_CONST && p->const_data) init = p->const_data + v->offset;
    else if (v->space == SP_GLOBAL && p->buffers[v->buffer].init == INIT_DATA) init = p->buffers[v->buffer].data;
    if (init) {
        int any = 0;
        for (uint32_t i = 0; i < v->size; i++) any |= init[i];
        if (any) {
            fputs(" = {", out);
            for (uint32_t i = 0; i < v->size / (uint32_t)esize; i++) {
                uint64_t x = 0;
                memcpy(&x, init + i * (uint32_t)esize, (size_t)esize);
                if (v->type == T_F32) fprintf(out, "%s0f%08" PRIX32, i ? ", " : "", (uint32_t)x);
                else if (v->type == T_F64) fprintf(out, "%s0d%016" PRIX64, i ? ", " : "", x);
                else fprintf(out, "%s%" PRIu64, i ? ", " : "", x);
            }
            fputs("}", out);
        }
    }
    fprintf(out, ";   // %u bytes at offset %u\n", v->size, v->offset);
}

static void branch_note(const Program *p, const Entry *e, const Instr *in, char *buf, size_t n)
{
    buf[0] = '\0';
    int ln;
    (void)p;
    if (in->op == OP_BRA) {
        uint32_t t = (uint32_t)in->opd[0].imm;
        if (in->guard == REG_NONE) { snprintf(buf, n, "jump to pc %u", t); return; }
        if (in->flags & IF_UNI) { snprintf(buf, n, "uniform branch (.uni): taken -> pc %u, else pc %u", t, (unsigned)(in - e->code) + 1); return; }
        if (in->reconv >= (uint32_t)e->ncode) {
            snprintf(buf, n, "may diverge: taken -> pc %u, not taken -> pc %u; paths reconverge at %s",
                     t, (unsigned)(in - e->code) + 1, e->is_func ? "the function's return" : "thread exit");
        } else {
            ln = (int)e->code[in->reconv].line;
            char lab[96];
            snprintf(buf, n, "may diverge: taken -> pc %u, not taken -> pc %u; reconverge at pc %u (line %s)",
                     t, (unsigned)(in - e->code) + 1, in->reconv, program_line_label(p, ln, 0, lab, sizeof lab));
        }
    } else if ((in->op == OP_RET || in->op == OP_EXIT) && in->guard != REG_NONE) {
        snprintf(buf, n, "lanes with %s%s set finish here; the rest go on", in->guard_neg ? "!" : "", e->preds[in->guard].name);
    }
}

/* ( .param ..., ... ) for params [from, to) */
static void param_list(const Entry *e, int from, int to, FILE *out)
{
    fputc('(', out);
    uint32_t end = from ? e->params[from].offset : 0;
    for (int i = from; i < to; i++) {
        const Param *pa = &e->params[i];
        int esize = isa_type_bits((DataType)pa->type) / 8;
        fprintf(out, "%s\n    .param ", i > from ? "," : "");
        /* a stated .align moved this parameter: the largest power of two
         * dividing its offset puts it back in the same place */
        if (esize && (end + (uint32_t)esize - 1) / (uint32_t)esize * (uint32_t)esize != pa->offset) {
            uint32_t a = pa->offset & -pa->offset;
            fprintf(out, ".align %u ", a > 256 ? 256 : a);
        }
        end = pa->offset + pa->size;
        fprintf(out, ".%s %s", isa_type_name((DataType)pa->type), pa->name);
        if (esize && pa->size != (uint32_t)esize) fprintf(out, "[%u]", pa->size / (uint32_t)esize);
    }
    fprintf(out, "%s)", to > from ? "\n" : "");
}

/* The listing of an entry (ei >= 0) or a .func (ei < 0): its own code; a
 * .func an entry calls is listed once, as a .func, not in every entry. */
static void listing(const Program *p, const Entry *e, int ei, FILE *out)
{
    int own = e->ncode_own ? e->ncode_own : e->ncode;
    fprintf(out, "// %s %s: %d instructions, %d basic blocks, %d registers/thread%s, "
                 "%u bytes shared/CTA, %u bytes local/thread\n",
            e->is_func ? "function" : "entry", e->name, own, e->nblocks, e->regs_per_thread, e->regs_stated ? " (stated)" : "",
            e->shared_bytes, e->local_bytes);
    for (int i = 0; i < e->nlinked; i++)
        fprintf(out, "// calls .func %s, linked in at pc %u\n", p->funcs[e->linked[i].func].name, e->linked[i].pc);
    if (e->is_func) {
        fputs(".func ", out);
        if (e->nrets) { param_list(e, 0, e->nrets, out); fputc(' ', out); }
        fprintf(out, "%s ", e->name);
        param_list(e, e->nrets, e->nparams, out);
    } else {
        fprintf(out, ".entry %s ", e->name);
        param_list(e, 0, e->nparams, out);
    }
    fputc('\n', out);
    if (e->regs_stated) fprintf(out, ".nregs %d\n", e->regs_per_thread);
    fputs("{\n", out);
    for (int i = 0; i < e->nregs; i++)
        if (!conventional(&e->regs[i]))
            fprintf(out, "    .reg .%s %s;\n", e->regs[i].type ? isa_type_name((DataType)e->regs[i].type)
                                                             : e->regs[i].bits == 64 ? "b64" : e->regs[i].bits == 16 ? "b16" : "b32",
                    e->regs[i].name);
    for (int i = 0; i < e->npreds; i++)
        if (!conventional(&e->preds[i])) fprintf(out, "    .reg .pred %s;\n", e->preds[i].name);
    for (int i = 0; i < p->nvars; i++)
        if (ei >= 0 && p->vars[i].entry == ei && p->vars[i].space != SP_CONST) print_var(p, &p->vars[i], out, "    ");
    /* call scratch .params of its own body (not of the .funcs linked in) */
    int scratch_end = e->nlinked ? e->linked[0].param_base : e->nall_params;
    for (int i = e->nparams; i < scratch_end; i++) {
        const Param *pa = &e->params[i];
        int esize = isa_type_bits((DataType)pa->type) / 8;
        fprintf(out, "    .param .%s %s", isa_type_name((DataType)pa->type), pa->name);
        if (esize && pa->size != (uint32_t)esize) fprintf(out, "[%u]", pa->size / (uint32_t)esize);
        fputs(";\n", out);
    }

    char text[512], note[256], l1[96], l2[96];
    for (int b = 0; b < e->nblocks; b++) {
        const BasicBlock *bb = &e->blocks[b];
        if (bb->first >= (uint32_t)own) break;   /* the linked .funcs' blocks */
        for (int l = 0; l < e->nlabels; l++)
            if (e->labels[l].pc == bb->first) fprintf(out, "%s:\n", e->labels[l].name);
        fprintf(out, "    // BB%d: pc %u-%u, lines %s-%s; successors", b, bb->first, bb->last,
                program_line_label(p, (int)e->code[bb->first].line, 0, l1, sizeof l1),
                program_line_label(p, (int)e->code[bb->last].line, 0, l2, sizeof l2));
        for (int s = 0; s < bb->nsucc; s++) {
            if (bb->succ[s] < 0) fputs(" exit", out);
            else fprintf(out, " BB%d", bb->succ[s]);
        }
        if (bb->ipdom >= 0) fprintf(out, "; ipdom BB%d\n", bb->ipdom);
        else fputs("; ipdom exit\n", out);
        for (uint32_t pc = bb->first; pc <= bb->last; pc++) {
            const Instr *in = &e->code[pc];
            if (pc != bb->first)
                for (int l = 0; l < e->nlabels; l++)
                    if (e->labels[l].pc == pc) fprintf(out, "%s:\n", e->labels[l].name);
            disasm_instr(p, e, in, text, sizeof text);
            branch_note(p, e, in, note, sizeof note);
            int cl;
            const char *cu = program_cuda_line(p, (int)in->line, &cl);   /* nvcc -lineinfo's .loc */
            fprintf(out, "    /* %4u  L%-4s */ %s%s%s", pc, program_line_label(p, (int)in->line, 0, l1, sizeof l1), text,
                    note[0] ? "   // " : "", note);
            if (cu) fprintf(out, "%s%s:%d", note[0] ? "; " : "   // ", cu, cl);
            fputc('\n', out);
        }
    }
    for (int l = 0; l < e->nlabels; l++)
        if (e->labels[l].pc == (uint32_t)own) fprintf(out, "%s:   // end of the entry: threads finish\n", e->labels[l].name);
    fputs("}\n", out);
    if (ei >= 0) backend_disasm(p, ei, out);   /* a .func (ei -1) is scheduled inside each entry that calls it */
}

void disasm_entry(const Program *p, int ei, FILE *out) { listing(p, &p->entries[ei], ei, out); }


void disasm_program(const Program *p, FILE *out)
{
    fprintf(out, "// %s: %d entr%s\n", p->filename, p->nentries, p->nentries == 1 ? "y" : "ies");
    /* CUDA's printf, built in: its prototype, as nvcc declares it */
    int printf_used = 0;
    for (int k = 0; k < p->nentries + p->nfuncs && !printf_used; k++) {
        const Entry *e = k < p->nentries ? &p->entries[k] : &p->funcs[k - p->nentries];
        for (int c = 0; c < e->ncalls; c++) printf_used |= e->calls[c].func == CALL_VPRINTF;
    }
    if (printf_used)
        fputs(".extern .func (.param .b32 func_retval0) vprintf (.param .b64 vprintf_param_0, .param .b64 vprintf_param_1);\n", out);
    for (int i = 0; i < p->nvars; i++)
        if (p->vars[i].entry < 0 || p->vars[i].space == SP_CONST) print_var(p, &p->vars[i], out, "");
    for (int i = 0; i < p->nfuncs; i++) {
        fputc('\n', out);
        listing(p, &p->funcs[i], -1, out);
    }
    for (int i = 0; i < p->nentries; i++) {
        fputc('\n', out);
        disasm_entry(p, i, out);
    }
}
