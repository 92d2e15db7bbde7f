/* asm_decl.c - the assembler's declarations: registers (.reg, and nvcc's
 * %r/%rd/%f/%p names declared on first use), variables (.shared, .const with
 * its initializer image, .local, at module or entry scope) and an entry's
 * .param list, with their sizes, alignments and offsets.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "asm_internal.h"

/* ---- registers -------------------------------------------------------------- */
/* Width of an undeclared register from nvcc's naming convention. */
static int conventional_bits(const char *name, int len)
{
    int n = len;
    while (n > 1 && name[n - 1] >= '0' && name[n - 1] <= '9') n--;
    if (n == len && len > 1) {
        /* no number: only a bare convention prefix like %r in .reg %r<9> */
    }
    char pre[8];
    if (n - 1 <= 0 || n - 1 >= (int)sizeof pre) return 0;
    memcpy(pre, name + 1, (size_t)(n - 1));
    pre[n - 1] = '\0';
    if (n == len) return 0;               /* %foo: must be declared */
    if (!strcmp(pre, "p")) return 1;
    if (!strcmp(pre, "r") || !strcmp(pre, "f")) return 32;
    if (!strcmp(pre, "rd") || !strcmp(pre, "fd")) return 64;
    if (!strcmp(pre, "rs") || !strcmp(pre, "h") || !strcmp(pre, "rc")) return 16;
    return 0;
}

static int add_reg(Asm *A, const char *name, int len, int bits, DataType type)
{
    Entry *e = A->e;
    if (bits == 1) {
        GROW(e->preds, e->npreds, A->cappreds);
        e->preds[e->npreds] = (RegInfo){ asm_xstrndup(name, (size_t)len), 1, (uint8_t)type, 0 };
        strmap_put(&A->predmap, name, len, e->npreds);
        return e->npreds++;
    }
    GROW(e->regs, e->nregs, A->capregs);
    e->regs[e->nregs] = (RegInfo){ asm_xstrndup(name, (size_t)len), (uint8_t)bits, (uint8_t)type, 0 };
    strmap_put(&A->regmap, name, len, e->nregs);
    return e->nregs++;
}

/* Resolve a register token. Returns the index; *is_pred says which file.
 * -1 after an error. */
int asm_lookup_reg(Asm *A, const Token *t, int *is_pred)
{
    int i = strmap_get(&A->predmap, t->s, t->len);
    if (i >= 0) { *is_pred = 1; A->e->preds[i].used = 1; return i; }
    i = strmap_get(&A->regmap, t->s, t->len);
    if (i >= 0) { *is_pred = 0; A->e->regs[i].used = 1; return i; }
    int bits = conventional_bits(t->s, t->len);
    char b[64];
    if (!bits) {
        asm_err(A, t, "undeclared register %s (declare it with .reg, or use nvcc's names "
                  "%%r %%rd %%f %%fd %%p %%rs followed by a number)", asm_show(t, b, sizeof b));
        return -1;
    }
    if (A->e->nregs + A->e->npreds >= MAX_REGS) { asm_err(A, t, "too many registers in one entry (limit %d)", MAX_REGS); return -1; }
    *is_pred = bits == 1;
    i = add_reg(A, t->s, t->len, bits, T_NONE);
    if (bits == 1) A->e->preds[i].used = 1; else A->e->regs[i].used = 1;
    return i;
}

int asm_sreg_lookup(const Token *t)
{
    for (int s = 0; s < SR_COUNT; s++)
        if (asm_tok_is(t, isa_sreg_names[s])) return s;
    return -1;
}

/* .reg .TYPE %a, %b<4>, ...; */
void asm_parse_reg_decl(Asm *A)
{
    Token ty = asm_next(A);
    char b[64];
    DataType type = ty.kind == TOK_DIRECTIVE ? isa_type_lookup(ty.s + 1, ty.len - 1) : T_NONE;
    if (type == T_NONE) {
        asm_err(A, &ty, "expected a type after .reg (.b32, .u64, .f32, .pred ...), got %s", asm_show(&ty, b, sizeof b));
        asm_skip_statement(A);
        return;
    }
    int bits = isa_type_bits(type);
    if (bits == 8) bits = 16;   /* PTX keeps 8-bit registers in 16 bits */
    for (;;) {
        Token name = asm_next(A);
        if (name.kind != TOK_REG && name.kind != TOK_IDENT) {
            asm_err(A, &name, "expected a register name after .reg, got %s", asm_show(&name, b, sizeof b));
            asm_skip_statement(A);
            return;
        }
        /* a plain name (nvcc's `{ .reg .b32 temp_param_reg; ... }`, one per
         * call sequence): each { } scope may declare it again */
        int again = name.kind == TOK_IDENT && !asm_is_punct((Token[]){ asm_peek(A) }, '<') &&
                    (strmap_get(&A->regmap, name.s, name.len) >= 0 || strmap_get(&A->predmap, name.s, name.len) >= 0);
        if (again) {
            int r = strmap_get(&A->regmap, name.s, name.len);
            int same = r >= 0 ? A->e->regs[r].bits == bits : bits == 1;
            if (!same) asm_err(A, &name, "register %s declared again with another width", asm_show(&name, b, sizeof b));
            if (asm_accept(A, ',')) continue;
            if (asm_expect(A, ';', "after the .reg declaration")) asm_skip_statement(A);
            return;
        }
        int64_t count = -1;
        if (asm_accept(A, '<')) {
            Token ct = asm_peek(A);
            if (asm_parse_expr(A, &count) || asm_expect(A, '>', "after the register count")) { asm_skip_statement(A); return; }
            if (count < 0 || count > MAX_REGS - A->e->nregs - A->e->npreds) {
                asm_err(A, &ct, "register count %lld is out of range [0,%d]", (long long)count, MAX_REGS);
                asm_skip_statement(A);
                return;
            }
        }
        if (count < 0) {
            if (asm_sreg_lookup(&name) >= 0) asm_err(A, &name, "%s is a special register", asm_show(&name, b, sizeof b));
            else if (strmap_get(&A->regmap, name.s, name.len) >= 0 || strmap_get(&A->predmap, name.s, name.len) >= 0)
                asm_err(A, &name, "register %s declared twice", asm_show(&name, b, sizeof b));
            else add_reg(A, name.s, name.len, bits, type);
        } else {
            char nm[1100];
            for (int64_t i = 0; i < count; i++) {
                int n = snprintf(nm, sizeof nm, "%.*s%lld", name.len, name.s, (long long)i);
                if (strmap_get(&A->regmap, nm, n) < 0 && strmap_get(&A->predmap, nm, n) < 0)
                    add_reg(A, nm, n, bits, type);
            }
        }
        if (asm_accept(A, ',')) continue;
        if (asm_expect(A, ';', "after the .reg declaration")) asm_skip_statement(A);
        return;
    }
}

/* ---- variables (.shared, .const, .local) --------------------------------- */
static uint32_t align_up(uint32_t v, uint32_t a) { return a ? (v + a - 1) / a * a : v; }

static int parse_const_init(Asm *A, Var *v, uint8_t *image)
{
    int esize = isa_type_bits((DataType)v->type) / 8;
    uint32_t nelem = esize ? v->size / (uint32_t)esize : 0;
    int braces = asm_accept(A, '{');
    for (uint32_t i = 0;; i++) {
        Token t = asm_peek(A);
        char b[64];
        int neg = 0;
        if (asm_is_punct(&t, '-')) { neg = 1; asm_next(A); t = asm_peek(A); }
        if (t.kind != TOK_INT && t.kind != TOK_FLOAT) {
            asm_err(A, &t, "expected a number in the initializer of %s, got %s", v->name, asm_show(&t, b, sizeof b));
            return -1;
        }
        asm_next(A);
        if (i >= nelem) { asm_err(A, &t, "too many initializers for %s (%u elements)", v->name, nelem); return -1; }
        uint8_t *dst = image + v->offset + i * (uint32_t)esize;
        if (v->type == T_F32) {
            float f = t.kind == TOK_FLOAT ? (float)t.fval : (float)t.ival;
            if (neg) f = -f;
            memcpy(dst, &f, 4);
        } else if (v->type == T_F64) {
            double d = t.kind == TOK_FLOAT ? t.fval : (double)t.ival;
            if (neg) d = -d;
            memcpy(dst, &d, 8);
        } else {
            if (t.kind == TOK_FLOAT) { asm_err(A, &t, "floating-point initializer for integer array %s", v->name); return -1; }
            uint64_t x = neg ? (uint64_t)0 - t.ival : t.ival;
            /* as immediates: any value of the width, signed or unsigned */
            if (esize < 8 && (neg ? t.ival > (1ull << (8 * esize - 1)) : t.ival >= (1ull << (8 * esize)))) {
                asm_err(A, &t, "initializer %s%llu does not fit in .%s", neg ? "-" : "", (unsigned long long)t.ival,
                    isa_type_name((DataType)v->type));
                return -1;
            }
            memcpy(dst, &x, (size_t)esize);   /* little-endian host, as the simulated GPU */
        }
        if (!braces) return 0;
        if (asm_accept(A, ',')) continue;
        return asm_expect(A, '}', "to close the initializer");
    }
}

/* The buffer of module variable v (index vi): a new one, or the one a
 * .buffer line of the same name declared first (its host initialiser wins,
 * as cudaMemcpyToSymbol after loading the module).  0, or -1 after an error. */
static int global_buffer(Asm *A, Var *v, int vi, const Token *name)
{
    Program *p = A->p;
    char b[64];
    int esize = isa_type_bits((DataType)v->type) / 8;
    for (int i = 0; i < p->nbuffers; i++) {
        BufferSpec *s = &p->buffers[i];
        if (strcmp(s->name, v->name) != 0) continue;
        uint64_t bytes = s->count * (uint64_t)(isa_type_bits((DataType)s->type) / 8);
        if (s->global_var) {
            asm_err(A, name, "%s is declared twice", asm_show(name, b, sizeof b));
            return -1;
        }
        if (bytes != v->size) {
            asm_err(A, name, ".global %s has %u bytes, but .buffer %s (line %d) has %llu", v->name, v->size, v->name,
                    s->line, (unsigned long long)bytes);
            return -1;
        }
        s->global_var = vi + 1;
        v->buffer = i;
        return 0;
    }
    BufferSpec s;
    memset(&s, 0, sizeof s);
    s.name = asm_xstrndup(v->name, strlen(v->name));
    s.type = (uint8_t)v->type;
    s.count = v->size / (uint32_t)esize;
    s.init = INIT_ZERO;
    s.hi = 1;
    s.global_var = vi + 1;
    s.line = v->line;
    s.col = v->col;
    GROW(p->buffers, p->nbuffers, A->capbuf);
    v->buffer = p->nbuffers;
    p->buffers[p->nbuffers++] = s;
    return 0;
}

/* .shared/.const/.local [.align N] .TYPE name[N][M]... [= {...}] ; */
void asm_parse_var_decl(Asm *A, const Token *dir, int is_extern)
{
    Space space = asm_tok_is(dir, ".shared") ? SP_SHARED : asm_tok_is(dir, ".const") ? SP_CONST
                : asm_tok_is(dir, ".local") ? SP_LOCAL : SP_GLOBAL;
    char b[64];
    if (space == SP_GLOBAL && (A->e || is_extern)) {
        asm_err(A, dir, A->e ? ".global variables belong at module scope, outside any entry"
                             : ".extern .global (a variable of another module) is not supported: define it here");
        asm_skip_statement(A);
        return;
    }
    uint32_t align = 0;
    Token t = asm_next(A);
    if (t.kind == TOK_DIRECTIVE && asm_tok_is(&t, ".align")) {
        int64_t a;
        Token at = asm_peek(A);
        if (asm_parse_expr(A, &a)) { asm_skip_statement(A); return; }
        if (a <= 0 || a > 4096 || (a & (a - 1))) {
            asm_err(A, &at, ".align %lld is not a power of two in [1,4096]", (long long)a);
            asm_skip_statement(A);
            return;
        }
        align = (uint32_t)a;
        t = asm_next(A);
    }
    DataType type = t.kind == TOK_DIRECTIVE ? isa_type_lookup(t.s + 1, t.len - 1) : T_NONE;
    if (type == T_NONE || type == T_PRED) {
        asm_err(A, &t, "expected an element type (.b8, .u32, .f32 ...), got %s", asm_show(&t, b, sizeof b));
        asm_skip_statement(A);
        return;
    }
    Token name = asm_next(A);
    if (name.kind != TOK_IDENT) {
        asm_err(A, &name, "expected a variable name, got %s", asm_show(&name, b, sizeof b));
        asm_skip_statement(A);
        return;
    }
    uint64_t count = 1;
    int dynamic = 0;
    while (asm_accept(A, '[')) {
        Token ct = asm_peek(A);
        if (asm_is_punct(&ct, ']') && is_extern && space == SP_SHARED && count == 1 && !dynamic) {
            /* dynamic shared memory: its size comes with each .launch (shared=) */
            asm_next(A);
            dynamic = 1;
            count = 0;
            continue;
        }
        if (asm_is_punct(&ct, ']') || dynamic) {
            if (dynamic) asm_err(A, &ct, "a dynamic shared array (.extern .shared NAME[]) has one dimension");
            else if (is_extern) asm_err(A, &ct, "only .extern .shared arrays may leave out their size (dynamic shared memory)");
            else asm_err(A, &ct, "array %.*s needs a size", name.len, name.s);
            asm_skip_statement(A);
            return;
        }
        int64_t n;
        if (asm_parse_expr(A, &n) || asm_expect(A, ']', "after the array size")) { asm_skip_statement(A); return; }
        if (n <= 0 || (uint64_t)n > (1ull << 31) / count) {
            asm_err(A, &ct, "array size %lld is out of range [1,2^31]", (long long)n);
            asm_skip_statement(A);
            return;
        }
        count *= (uint64_t)n;
    }
    int esize = isa_type_bits(type) / 8;
    if (!align) align = (uint32_t)esize;
    uint64_t size = count * (uint64_t)esize;
    if (size > (1ull << 30)) { asm_err(A, &name, "variable %.*s is larger than 1 GiB", name.len, name.s); asm_skip_statement(A); return; }

    Program *p = A->p;
    StrMap *scope = A->e ? &A->entryvars : &A->modvars;
    if (strmap_get(scope, name.s, name.len) >= 0 || (A->e && strmap_get(&A->parammap, name.s, name.len) >= 0)) {
        asm_err(A, &name, "%s is declared twice", asm_show(&name, b, sizeof b));
        asm_skip_statement(A);
        return;
    }
    GROW(p->vars, p->nvars, A->capvars);
    Var *v = &p->vars[p->nvars];
    memset(v, 0, sizeof *v);
    v->name = asm_xstrndup(name.s, (size_t)name.len);
    v->space = (uint8_t)space;
    v->type = (uint8_t)type;
    v->entry = A->e ? A->entry_index : -1;
    v->align = align;
    v->size = (uint32_t)size;
    v->line = name.line;
    v->col = name.col;
    v->dynamic = (uint8_t)dynamic;
    if (dynamic) {
        /* placed per entry after its static shared memory (asm.c) */
    } else if (space == SP_GLOBAL) {
        /* a module variable lives in a buffer of its own (so .check, --dump
         * and .launch args name it), at offset 0 of that buffer */
        if (global_buffer(A, v, p->nvars, &name)) { free(v->name); asm_skip_statement(A); return; }
    } else if (space == SP_CONST) {
        v->offset = align_up(p->const_bytes, align);
        uint32_t end = v->offset + v->size;
        if (end > (64u << 20)) { asm_err(A, &name, "constant memory exceeds 64 MiB"); asm_skip_statement(A); v->offset = 0; return; }
        p->const_data = asm_xrealloc(p->const_data, end);
        memset(p->const_data + p->const_bytes, 0, end - p->const_bytes);
        p->const_bytes = end;
    } else if (space == SP_SHARED) {
        uint32_t *top = A->e ? &A->e->shared_bytes : &A->module_shared;
        v->offset = align_up(*top, align);
        *top = v->offset + v->size;
    } else {
        uint32_t *top = A->e ? &A->e->local_bytes : &A->module_local;
        v->offset = align_up(*top, align);
        *top = v->offset + v->size;
    }
    strmap_put(scope, name.s, name.len, p->nvars);
    p->nvars++;
    if (asm_accept(A, '=')) {
        if (space != SP_CONST && space != SP_GLOBAL) { Token at = asm_peek(A); asm_err(A, &at, "only .const and .global variables can have an initializer"); asm_skip_statement(A); return; }
        Token open = asm_peek(A);
        BufferSpec *gb = space == SP_GLOBAL ? &p->buffers[v->buffer] : NULL;
        uint8_t *image = p->const_data;
        if (gb) {   /* the initial bytes, unless a .buffer line initialises it */
            image = asm_xrealloc(NULL, v->size ? v->size : 1);
            memset(image, 0, v->size);
        }
        int bad = parse_const_init(A, v, image);
        if (gb && !bad && !gb->host_init) {
            free(gb->data);
            gb->data = image;
            gb->data_bytes = v->size;
            gb->init = INIT_DATA;
        } else if (gb) free(image);
        if (bad) {
            if (asm_is_punct(&open, '{')) asm_skip_braces(A);
            asm_skip_statement(A);
            return;
        }
    }
    if (asm_expect(A, ';', "after the variable declaration")) asm_skip_statement(A);
}

int asm_lookup_var(Asm *A, const Token *t)
{
    int i = A->e ? strmap_get(&A->entryvars, t->s, t->len) : -1;
    if (i < 0) i = strmap_get(&A->modvars, t->s, t->len);
    return i;
}

/* One `.param [.align N] .TYPE name[N]?` (the .param consumed) into *out,
 * laid out after *top bytes; 0, or -1 after an error. */
static int parse_one_param(Asm *A, Param *out, Token *name_out, uint32_t *top)
{
    char b[64];
    uint32_t align = 0;
    Token t = asm_next(A);
    if (t.kind == TOK_DIRECTIVE && asm_tok_is(&t, ".align")) {
        int64_t a;
        if (asm_parse_expr(A, &a)) return -1;
        if (a <= 0 || a > 256 || (a & (a - 1))) { asm_err(A, &t, ".align must be a power of two up to 256"); return -1; }
        align = (uint32_t)a;
        t = asm_next(A);
    }
    DataType ty = t.kind == TOK_DIRECTIVE ? isa_type_lookup(t.s + 1, t.len - 1) : T_NONE;
    if (ty == T_NONE || ty == T_PRED) { asm_err(A, &t, "expected a parameter type (.u64, .u32, .f32 ...), got %s", asm_show(&t, b, sizeof b)); return -1; }
    Token name = asm_next(A);
    if (name.kind != TOK_IDENT) { asm_err(A, &name, "expected a parameter name, got %s", asm_show(&name, b, sizeof b)); return -1; }
    uint32_t size = (uint32_t)isa_type_bits(ty) / 8;
    if (asm_accept(A, '[')) {
        int64_t n;
        Token nt = asm_peek(A);
        if (asm_parse_expr(A, &n) || asm_expect(A, ']', "after the parameter array size")) return -1;
        if (n <= 0 || n > 4096) { asm_err(A, &nt, "parameter array size must be in [1,4096]"); return -1; }
        size *= (uint32_t)n;
    }
    if (!align) align = (uint32_t)isa_type_bits(ty) / 8;
    out->name = NULL;
    out->type = (uint8_t)ty;
    out->offset = align_up(*top, align);
    out->size = size;
    *top = out->offset + size;
    *name_out = name;
    return 0;
}

void asm_parse_params(Asm *A)
{
    Entry *e = A->e;
    char b[64];
    if (asm_accept(A, ')')) return;
    for (;;) {
        Token d = asm_next(A);
        if (!(d.kind == TOK_DIRECTIVE && asm_tok_is(&d, ".param"))) {
            asm_err(A, &d, "expected .param in the parameter list, got %s", asm_show(&d, b, sizeof b));
            goto recover;
        }
        Param pa;
        Token name;
        uint32_t top = e->param_bytes;
        if (parse_one_param(A, &pa, &name, &top)) goto recover;
        if (strmap_get(&A->parammap, name.s, name.len) >= 0) { asm_err(A, &name, "parameter %s declared twice", asm_show(&name, b, sizeof b)); goto recover; }
        if (e->nparams >= 256) { asm_err(A, &name, "too many parameters"); goto recover; }
        GROW(e->params, e->nparams, A->capparams);
        pa.name = asm_xstrndup(name.s, (size_t)name.len);
        e->params[e->nparams] = pa;
        e->param_bytes = top;
        strmap_put(&A->parammap, name.s, name.len, e->nparams);
        e->nparams++;
        e->nall_params = e->nparams;
        Token sep = asm_next(A);
        if (asm_is_punct(&sep, ')')) return;
        if (!asm_is_punct(&sep, ',')) { asm_err(A, &sep, "expected ',' or ')' in the parameter list, got %s", asm_show(&sep, b, sizeof b)); goto recover; }
    }
recover:
    for (;;) {
        Token t = asm_peek(A);
        if (t.kind == TOK_EOF || asm_is_punct(&t, '{')) return;
        asm_next(A);
        if (asm_is_punct(&t, ')')) return;
    }
}

/* `.param .TYPE name;` in a body (the .param consumed): call scratch in the
 * frame (nvcc's param0, retval0 of each call sequence).  Each { } call
 * sequence declares its own: a later one of the same name takes over. */
void asm_parse_frame_param(Asm *A)
{
    Entry *e = A->e;
    Param pa;
    Token name;
    uint32_t top = e->frame_bytes;
    if (parse_one_param(A, &pa, &name, &top)) { asm_skip_statement(A); return; }
    if (e->nall_params >= 65000) { asm_err(A, &name, "too many .param declarations"); asm_skip_statement(A); return; }
    GROW(e->params, e->nall_params, A->capparams);
    pa.name = asm_xstrndup(name.s, (size_t)name.len);
    e->params[e->nall_params] = pa;
    e->frame_bytes = top;
    strmap_put(&A->parammap, name.s, name.len, e->nall_params);
    e->nall_params++;
    if (asm_expect(A, ';', "after the .param declaration")) asm_skip_statement(A);
}
