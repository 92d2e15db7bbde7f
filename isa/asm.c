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
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "asm_internal.h"
#include "cfg.h"
#include "backend.h"
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
    while (A->nla <= k) {
        Token t = lex_next(&A->lx);
        /* the end of an included file: the including one goes on */
        while (t.kind == TOK_EOF && asm_include_pop(A)) t = lex_next(&A->lx);
        A->la[A->nla++] = t;
    }
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
    if (asm_tok_is(d, ".pragma")) {
        /* inside a body, "nounroll" marks the loop whose head comes next
         * (nvcc puts it on the remainder loops it leaves); ptxas keeps such a
         * loop rolled, and so does the back end (unroll.c) */
        Token s = asm_peek(A);
        if (A->e && s.kind == TOK_STRING && s.len == 10 && !memcmp(s.s, "\"nounroll\"", 10)) A->nounroll = 1;
        asm_skip_line(A);
        A->line_mode = saved;
        asm_accept(A, ';');
        return;
    }
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
        else A->e->maxnreg = (int)v[0];
    } else if (asm_tok_is(d, ".reqntid")) {
        for (int i = 0; i < 3; i++) A->e->reqntid[i] = i < n ? (int)v[i] : 1;
    }
    A->line_mode = saved;
    asm_accept(A, ';');
}

/* .params of a frame (a .func's signature, any body's call scratch) are
 * is_param 2; only kernel parameters stay 1, and those are read-only. */
static void frame_params(Asm *A, Entry *e)
{
    for (int pc = 0; pc < e->ncode; pc++) {
        Instr *in = &e->code[pc];
        for (int s = 0; s < ISA_MAX_OPS; s++) {
            Operand *o = &in->opd[s];
            if (o->kind != OPD_MEM || o->is_param != 1) continue;
            if (e->is_func || o->sym >= e->nparams) { o->is_param = 2; continue; }
            if (in->op == OP_ST) {
                Token at = { .line = (int)in->line, .col = (int)in->col };
                at.s = A->p->source + A->p->line_starts[in->line - 1] + in->col - 1;
                asm_err(A, &at, "st.param: kernel parameter '%s' is read-only (a .func's .params can be written)",
                        e->params[o->sym].name);
            }
        }
    }
}

static void finish_entry(Asm *A)
{
    Entry *e = A->e;
    A->nounroll = 0;
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
    frame_params(A, e);
    /* registers and the control-flow graph: at the end of the file, once
     * the .funcs an entry calls are linked in (finish_program) */
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
        else if ((asm_tok_is(&t, ".shared") || asm_tok_is(&t, ".local") || asm_tok_is(&t, ".const") || asm_tok_is(&t, ".global") ||
                  asm_tok_is(&t, ".extern")) && A->e->is_func) {
            asm_err(A, &t, "%.*s variables inside a .func are not supported: declare them at module scope", t.len, t.s);
            asm_skip_statement(A);
        } else if (asm_tok_is(&t, ".shared") || asm_tok_is(&t, ".local") || asm_tok_is(&t, ".const") || asm_tok_is(&t, ".global"))
            asm_parse_var_decl(A, &t, 0);
        else if (asm_tok_is(&t, ".extern")) {
            Token d = asm_next(A);
            asm_parse_var_decl(A, &d, 1);
        } else if (is_perf_directive(&t)) parse_perf_directive(A, &t);
        else if (asm_tok_is(&t, ".param")) asm_parse_frame_param(A);
        else if (asm_tok_is(&t, ".loc")) asm_parse_loc(A);
        else if (asm_tok_is(&t, ".file")) asm_parse_file(A);
        else if (asm_tok_is(&t, ".include")) {
            asm_err(A, &t, ".include belongs at module scope, outside any entry");
            asm_skip_line(A);
        } else {
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
    if (t.kind == TOK_IDENT || asm_is_punct(&t, '@')) {
        int before = A->e->ncode;
        asm_parse_instruction(A);
        if (A->e->ncode > before) asm_note_loc(A, (int)A->e->code[before].line);
        return;
    }
    if (t.kind != TOK_ERROR) asm_err(A, &t, "expected an instruction, label or directive, got %s", asm_show(&t, b, sizeof b));
    asm_next(A);
    asm_skip_statement(A);
}

/* A .func's prototype (no body): nothing to keep; the definition follows. */
static void drop_prototype(Asm *A, int *n)
{
    Entry *e = A->e;
    free(e->name);
    for (int i = 0; i < e->nall_params; i++) free(e->params[i].name);
    free(e->params);
    memset(e, 0, sizeof *e);
    (*n)--;
    strmap_clear(&A->parammap);
    A->e = NULL;
}

/* .entry NAME (params) {body}, or .func [(rets)] NAME (params) {body} / ; */
static void parse_entry(Asm *A, int is_func)
{
    Program *p = A->p;
    char b[64];
    Entry **arr = is_func ? &p->funcs : &p->entries;
    int *n = is_func ? &p->nfuncs : &p->nentries;
    int *cap = is_func ? &A->capfuncs : &A->capentries;
    StrMap *map = is_func ? &A->funcmap : &A->entrymap;
    const char *what = is_func ? "function" : "entry";
    GROW(*arr, *n, *cap);
    Entry *e = &(*arr)[*n];
    memset(e, 0, sizeof *e);
    e->is_func = is_func;
    A->entry_index = is_func ? -1 : *n;
    (*n)++;
    A->e = e;
    A->cur_loc = (SrcLoc){ 0, 0 };
    A->capcode = A->capregs = A->cappreds = A->caplabels = A->capparams = A->capcalls = 0;
    /* module-scope .shared is in every CTA, below the entry's own variables */
    e->shared_bytes = A->module_shared;
    e->local_bytes = A->module_local;
    if (is_func && asm_accept(A, '(')) { asm_parse_params(A); e->nrets = e->nparams; }   /* return values */

    Token name = asm_peek(A);
    if (name.kind != TOK_IDENT) {
        asm_err(A, &name, "expected the %s's name after .%s, got %s", what, is_func ? "func" : "entry", asm_show(&name, b, sizeof b));
        /* with its parameters or body still there, check them as a nameless
         * entry rather than report them as stray top-level text */
        if (!asm_is_punct(&name, '(') && !asm_is_punct(&name, '{')) asm_next(A);
        name.len = 0;
    } else {
        asm_next(A);
    }
    e->name = asm_xstrndup(name.s, (size_t)name.len);
    e->line = name.line;
    e->col = name.col;
    if (asm_accept(A, '(')) asm_parse_params(A);
    e->frame_bytes = is_func ? e->param_bytes : 0;   /* a .func's frame starts with its signature */
    for (;;) {
        Token t = asm_peek(A);
        if (t.kind == TOK_DIRECTIVE && is_perf_directive(&t)) { asm_next(A); parse_perf_directive(A, &t); continue; }
        break;
    }
    if (is_func && asm_accept(A, ';')) {
        if (name.len) strmap_put(&A->protomap, name.s, name.len, 1);
        drop_prototype(A, n);
        return;
    }
    if (name.len && strmap_get(map, name.s, name.len) >= 0) asm_err(A, &name, "%s %s defined twice", what, asm_show(&name, b, sizeof b));
    else if (name.len) strmap_put(map, name.s, name.len, *n - 1);
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
            asm_err(A, &open, "missing '}' at the end of %s %s", what, e->name);
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
    ".include", ".section", ".common", ".for", ".end",
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
            asm_tok_is(&t, ".loc") || asm_tok_is(&t, ".pragma")) { asm_skip_line(A); asm_accept(A, ';'); }
        else if (asm_tok_is(&t, ".file")) asm_parse_file(A);
        else if (asm_tok_is(&t, ".include")) asm_include_push(A, &t);
        else if (asm_tok_is(&t, ".section")) asm_skip_section(A);
        else if (asm_tok_is(&t, ".define")) { A->line_mode = 1; asm_check_define_line(A); asm_skip_line(A); A->line_mode = 0; }
        else if (asm_tok_is(&t, ".buffer")) asm_host_directive(A, &t, asm_parse_buffer);
        else if (asm_tok_is(&t, ".launch")) asm_host_directive(A, &t, asm_parse_launch);
        else if (asm_tok_is(&t, ".check")) asm_host_directive(A, &t, asm_parse_check);
        else if (asm_tok_is(&t, ".for")) asm_parse_for(A, &t);
        else if (asm_tok_is(&t, ".end")) { asm_err(A, &t, ".end without .for"); A->line_mode = 1; asm_skip_line(A); A->line_mode = 0; }
        else if (asm_tok_is(&t, ".visible") || asm_tok_is(&t, ".weak") || asm_tok_is(&t, ".common")) continue;
        else if (asm_tok_is(&t, ".entry")) parse_entry(A, 0);
        else if (asm_tok_is(&t, ".extern") && asm_tok_is((Token[]){ asm_peek(A) }, ".func")) { asm_next(A); parse_entry(A, 1); }
        else if (asm_tok_is(&t, ".extern")) { Token d = asm_next(A); asm_parse_var_decl(A, &d, 1); }
        else if (asm_tok_is(&t, ".const") || asm_tok_is(&t, ".shared") || asm_tok_is(&t, ".global")) asm_parse_var_decl(A, &t, 0);
        else if (asm_tok_is(&t, ".func")) parse_entry(A, 1);
        else {
            char w[64];
            snprintf(w, sizeof w, "%.*s", t.len < 60 ? t.len : 60, t.s);
            const char *near = suggest_best(w, top_directives, sizeof top_directives / sizeof top_directives[0], sizeof top_directives[0]);
            if (near) asm_err(A, &t, "unknown directive '%s' (did you mean '%s'?)", w, near);
            else asm_err(A, &t, "unknown directive '%s'", w);
            skip_to_directive(A);
        }
    }
}

/* ---- end of file: .funcs linked in, dynamic shared memory, launches ------- */
/* Registers per thread and the control-flow graph of every entry, with the
 * .funcs it calls linked in, and of every .func on its own (--disasm). */
static void finish_program(Asm *A)
{
    Program *p = A->p;
    asm_link_funcs(A);
    for (int k = 0; k < p->nentries + p->nfuncs; k++) {
        Entry *e = k < p->nentries ? &p->entries[k] : &p->funcs[k - p->nentries];
        if (!e->ncode_own) e->ncode_own = e->ncode;
        if (!e->regs_stated) {
            int n = 0;
            for (int i = 0; i < e->nregs; i++)
                if (e->regs[i].used) n += e->regs[i].bits == 64 ? 2 : 1;
            e->regs_per_thread = n;
        }
        if (cfg_build(e)) abort();
    }
}

/* Dynamic shared memory starts after an entry's static shared memory,
 * aligned for the strictest .extern .shared array it can see (CUDA: every
 * extern __shared__ array is the same address). */
static void place_dynamic_shared(Program *p)
{
    for (int i = 0; i < p->nentries; i++) {
        Entry *e = &p->entries[i];
        uint32_t align = 1;
        for (int v = 0; v < p->nvars; v++)
            if (p->vars[v].dynamic && (p->vars[v].entry < 0 || p->vars[v].entry == i) && p->vars[v].align > align)
                align = p->vars[v].align;
        e->dyn_shared_offset = (e->shared_bytes + align - 1) / align * align;
    }
}

/* A launch against its entry: the entry exists, the arguments fit its
 * parameters. */
static void resolve_launch(Asm *A, LaunchSpec *l, const PendingLaunch *pl)
{
    Program *p = A->p;
    Token at = { .line = pl->line, .col = pl->col, .len = 0 };
    at.s = A->src + p->line_starts[pl->line - 1];
    l->entry = program_find_entry(p, pl->entry);
    if (l->entry < 0) {
        const char *near = p->nentries ? suggest_best(pl->entry, p->entries, (size_t)p->nentries, sizeof *p->entries) : NULL;
        if (near) asm_err(A, &at, ".launch of unknown entry '%s' (did you mean '%s'?)", pl->entry, near);
        else asm_err(A, &at, ".launch of unknown entry '%s'", pl->entry);
        return;
    }
    const Entry *e = &p->entries[l->entry];
    if (l->nargs != e->nparams) {
        asm_err(A, &at, ".launch %s passes %d argument%s; the entry takes %d", e->name, l->nargs,
            l->nargs == 1 ? "" : "s", e->nparams);
        return;
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

/* Every launch against its entry.  The launches a .for made from one line
 * are checked alike, but an error is reported once per line (with the
 * loop values of the first launch that has it). */
static void resolve_launches(Asm *A)
{
    Program *p = A->p;
    int *bad = NULL, nbad = 0, capbad = 0;   /* lines that have had an error */
    for (int i = 0; i < p->nlaunches; i++) {
        LaunchSpec *l = &p->launches[i];
        int seen = 0;
        for (int k = 0; k < nbad && !seen; k++) seen = bad[k] == l->line;
        if (seen) {   /* already reported: check it quietly (its entry is still set) */
            DiagList quiet = { 0 }, *dl = A->dl;
            A->dl = &quiet;
            resolve_launch(A, l, &A->pend[i]);
            A->dl = dl;
            diag_free(&quiet);
            continue;
        }
        int from = A->dl->n, before = diag_count(A->dl);
        resolve_launch(A, l, &A->pend[i]);
        if (diag_count(A->dl) == before) continue;
        char vals[256];
        asm_note_loop(A, from, program_loop_text(p, l, vals, sizeof vals));
        GROW(bad, nbad, capbad);
        bad[nbad++] = l->line;
    }
    free(bad);
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
    strmap_clear(&A->funcmap);
    strmap_clear(&A->protomap);
    strmap_clear(&A->regmap);
    strmap_clear(&A->predmap);
    strmap_clear(&A->labelmap);
    strmap_clear(&A->entryvars);
    strmap_clear(&A->parammap);
    for (int i = 0; A->p && i < A->p->nchecks; i++) free(A->check_names[i]);
    free(A->check_names);
    free(A->inc_start);
    free(A->inc_end);
    free(A->incs);
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
    A.dl = dl;
    A.p = p;
    A.opt = opt;
    int errors_before = diag_count(dl);
    asm_load_includes(&A, len);     /* appends included files to p->source */
    A.src = p->source;
    A.len = A.srclen;
    int errors_loading = dl->n;

    /* line table: pc -> source line needs it for faults and listings */
    int cap = 0;
    for (size_t i = 0; i <= A.len; i++) {
        if (i == 0 || A.src[i - 1] == '\n') {
            if (i == A.len && i > 0) break;
            GROW(p->line_starts, p->nlines, cap);
            p->line_starts[p->nlines++] = (uint32_t)(i > UINT32_MAX ? UINT32_MAX : i);
        }
    }

    if (len == 0 || strspn(text, " \t\r\n") == len)
        diag_add(dl, filename, 0, 0, NULL, "the file is empty: a kernel file needs at least one .entry");
    lex_init(&A.lx, A.file, A.src, len, dl);   /* the kernel file; .include lexes the others */
    asm_prescan_defines(&A);
    asm_apply_overrides(&A);
    parse_top(&A);
    if (A.e) finish_entry(&A);
    finish_program(&A);
    place_dynamic_shared(p);
    /* the back end, for kernels, once an entry is complete: device functions
     * are linked into the entries that call them, dynamic shared memory is
     * placed, and the machine copy the pass makes takes all of it */
    for (int k = 0; k < p->nentries && diag_count(dl) == errors_before; k++)
        if (backend_run(&p->entries[k], p->vars, p->nvars)) abort();
    resolve_launches(&A);
    asm_resolve_checks(&A);
    /* every .define with its final value (after -D), for reports */
    if (A.ndefs) p->defines = asm_xrealloc(NULL, (size_t)A.ndefs * sizeof *p->defines);
    for (int i = 0; i < A.ndefs; i++) {
        const DefSlot *d = &A.defs[i];
        p->defines[p->ndefines++] = (Define){ asm_xstrndup(d->name, strlen(d->name)), d->value, d->override != NULL, d->line };
    }
    if (len > 0 && p->nentries == 0 && diag_count(dl) == errors_before)
        diag_add(dl, filename, 0, 0, NULL, "no .entry in the file");
    asm_include_fix_diags(&A, errors_loading);
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
    int bad = ferror(f), err = errno;   /* a directory: EISDIR */
    fclose(f);
    if (bad) { free(buf); diag_add(dl, path, 0, 0, NULL, "cannot read: %s", strerror(err)); return NULL; }
    Program *p = asm_assemble(path, buf, len, opt, dl);
    free(buf);
    return p;
}

