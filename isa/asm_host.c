/* asm_host.c - the assembler's host directives: .buffer (element type,
 * count and initialiser), .launch (grid, block and arguments; checked
 * against the entry at the end of the file by asm.c) and .check (reference,
 * equals, file, tolerances).  Each is one line, parsed in line mode.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "asm_internal.h"
#include "suggest.h"

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

/* How parse_elem bounds an integer: any 64-bit value (iota's step), what
 * fits the element as signed or unsigned (isa_int_fits), or the range of
 * the element's own signedness (random's bounds: -1 is not 2^32 - 1 there). */
enum { FIT_ANY, FIT_BITS, FIT_RANGE };

/* A number for an element of buffer type t, from initialiser `what`: a
 * float buffer takes any number (into *f); an integer buffer an integer
 * expression (into *i, exactly), never a float literal, which it would
 * have to round; bounded by fit and kept as t's element reads it
 * (isa_int_canon), except FIT_ANY's. */
static int parse_elem(Asm *A, DataType t, double *f, int64_t *i, const char *what, int fit)
{
    if (isa_type_kind(t) == TK_FLOAT) return parse_number(A, f);
    Token at = asm_peek(A), t1 = asm_peek_n(A, 1);
    if (at.kind == TOK_FLOAT || (asm_is_punct(&at, '-') && t1.kind == TOK_FLOAT)) {
        asm_err(A, &at, "%s: a .%s buffer holds whole numbers; this one has a fraction or an exponent", what,
                isa_type_name(t));
        return -1;
    }
    if (asm_parse_expr(A, i)) return -1;
    int n = isa_type_bits(t), sgn = isa_type_kind(t) == TK_SINT;
    if (fit == FIT_BITS && !isa_int_fits(t, *i)) {
        asm_err(A, &at, "%s: %lld does not fit .%s (%lld to %llu: an element keeps the low %d bits)", what,
                (long long)*i, isa_type_name(t), -(long long)(1ull << (n - 1)), (unsigned long long)((1ull << n) - 1), n);
        return -1;
    }
    if (fit == FIT_RANGE && n < 64 && (sgn ? *i != isa_int_canon(t, *i) : *i < 0 || *i >= (int64_t)(1ull << n))) {
        asm_err(A, &at, "%s: %lld is outside .%s (%lld to %llu)", what, (long long)*i, isa_type_name(t),
                sgn ? -(long long)(1ull << (n - 1)) : 0ll, (unsigned long long)(sgn ? (1ull << (n - 1)) - 1 : (1ull << n) - 1));
        return -1;
    }
    if (fit == FIT_RANGE && n == 64 && !sgn && *i < 0 && asm_is_punct(&at, '-')) {
        asm_err(A, &at, "%s: %lld is outside .%s (0 to 18446744073709551615)", what, (long long)*i, isa_type_name(t));
        return -1;
    }
    if (fit != FIT_ANY) *i = isa_int_canon(t, *i);
    return 0;
}

/* values(v0, v1, ...): small inline data, exactly one number per element. */
static int parse_values(Asm *A, BufferSpec *s, const Token *init)
{
    if (asm_expect(A, '(', "after values")) return -1;
    DataType t = (DataType)s->type;
    int is_int = isa_type_kind(t) != TK_FLOAT;
    uint64_t n = 0, cap = 0;
    for (;;) {
        double v = 0;
        int64_t iv = 0;
        if (parse_elem(A, t, &v, &iv, "values()", FIT_BITS)) return -1;
        if (n < s->count) {   /* grows with the text, never past the buffer */
            if (n == cap) {
                cap = cap ? cap * 2 : 16;
                if (is_int) {
                    int64_t *ni = realloc(s->ivalues, (size_t)cap * sizeof *ni);
                    if (!ni) { asm_err(A, init, "out of memory"); return -1; }
                    s->ivalues = ni;
                } else {
                    double *nv = realloc(s->values, (size_t)cap * sizeof *nv);
                    if (!nv) { asm_err(A, init, "out of memory"); return -1; }
                    s->values = nv;
                }
            }
            if (is_int) s->ivalues[n] = iv;
            else s->values[n] = v;
        }
        n++;
        if (asm_accept(A, ',')) continue;
        if (asm_expect(A, ')', "to close values(...)")) return -1;
        break;
    }
    if (n != s->count) {
        asm_err(A, init, "values() gives %llu numbers, the buffer has %llu elements", (unsigned long long)n,
                (unsigned long long)s->count);
        return -1;
    }
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
    if (t.kind == TOK_IDENT && strmap_get(&A->defmap, t.s, t.len) < 0 && asm_loop_var(A, &t) < 0 && !asm_tok_is(&t, "min") &&
        !asm_tok_is(&t, "max")) {
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

/* ---- expr(EXPR): an integer expression of the element index i ------------- */
typedef struct ExprBuf { ExprOp *v; int n, cap; } ExprBuf;

static void emit(ExprBuf *c, int op, int64_t v)
{
    GROW(c->v, c->n, c->cap);
    c->v[c->n++] = (ExprOp){ op, v };
}

static int expr_binary(Asm *A, ExprBuf *c, int min_prec);

static int expr_unary(Asm *A, ExprBuf *c)
{
    Token t = asm_peek(A);
    char b[64];
    if (++A->depth > MAX_EXPR_DEPTH) { asm_err(A, &t, "expression nested too deeply"); return -1; }
    int rc = 0;
    if (asm_is_punct(&t, '-') || asm_is_punct(&t, '~') || asm_is_punct(&t, '!') || asm_is_punct(&t, '+')) {
        asm_next(A);
        rc = expr_unary(A, c);
        if (!rc && t.punct != '+') emit(c, t.punct == '-' ? EXPR_NEG : t.punct == '~' ? EXPR_NOT : EXPR_LNOT, 0);
    } else if (t.kind == TOK_INT) {
        asm_next(A);
        emit(c, EXPR_CONST, (int64_t)t.ival);
    } else if (asm_is_punct(&t, '(')) {
        asm_next(A);
        rc = expr_binary(A, c, 1) || asm_expect(A, ')', "to close the expression");
    } else if (t.kind == TOK_IDENT && asm_tok_is(&t, "i")) {
        asm_next(A);
        emit(c, EXPR_INDEX, 0);
    } else if (t.kind == TOK_IDENT && (asm_tok_is(&t, "min") || asm_tok_is(&t, "max"))) {
        asm_next(A);
        rc = asm_expect(A, '(', "after min/max") || expr_binary(A, c, 1) || asm_expect(A, ',', "between min/max arguments") ||
             expr_binary(A, c, 1) || asm_expect(A, ')', "after min/max arguments");
        if (!rc) emit(c, asm_tok_is(&t, "min") ? EXPR_MIN : EXPR_MAX, 0);
    } else if (t.kind == TOK_IDENT) {
        int64_t v;
        asm_next(A);
        rc = asm_name_value(A, &t, &v);
        if (!rc) emit(c, EXPR_CONST, v);
    } else {
        if (t.kind != TOK_ERROR) asm_err(A, &t, "expected an integer expression of i, got %s", asm_show(&t, b, sizeof b));
        rc = -1;
    }
    A->depth--;
    return rc;
}

static int expr_binary(Asm *A, ExprBuf *c, int min_prec)
{
    if (expr_unary(A, c)) return -1;
    for (;;) {
        Token op = asm_peek(A);
        int prec = op.kind == TOK_PUNCT ? asm_prec_of(op.punct) : 0;
        if (prec == 0 || prec < min_prec) return 0;
        asm_next(A);
        if (++A->depth > MAX_EXPR_DEPTH) { asm_err(A, &op, "expression nested too deeply"); return -1; }
        int rc = expr_binary(A, c, prec + 1);
        A->depth--;
        if (rc) return -1;
        int code = op.punct == '+' ? EXPR_ADD : op.punct == '-' ? EXPR_SUB : op.punct == '*' ? EXPR_MUL
                 : op.punct == '/' ? EXPR_DIV : op.punct == '%' ? EXPR_REM : op.punct == P_SHL ? EXPR_SHL
                 : op.punct == P_SHR ? EXPR_SHR : op.punct == '&' ? EXPR_AND : op.punct == '|' ? EXPR_OR : EXPR_XOR;
        emit(c, code, 0);
    }
}

/* expr( EXPR ), after the word expr */
static int parse_expr_init(Asm *A, BufferSpec *s)
{
    ExprBuf c = { NULL, 0, 0 };
    if (asm_expect(A, '(', "after expr") || expr_binary(A, &c, 1) || asm_expect(A, ')', "to close expr(...)")) {
        free(c.v);
        return -1;
    }
    s->init = INIT_EXPR;
    s->expr = c.v;
    s->nexpr = c.n;
    return 0;
}

void asm_parse_buffer(Asm *A)
{
    Program *p = A->p;
    Token name = asm_next(A);
    char b[64];
    if (name.kind != TOK_IDENT) { asm_err(A, &name, "expected a buffer name after .buffer, got %s", asm_show(&name, b, sizeof b)); return; }
    int global = -1;   /* a module variable (.global) of that name: this line initialises it */
    for (int i = 0; i < p->nbuffers; i++) {
        if (!asm_tok_is(&name, p->buffers[i].name)) continue;
        if (p->buffers[i].global_var && !p->buffers[i].host_init) { global = i; continue; }
        asm_err(A, &name, "buffer %s declared twice (first at line %d)", asm_show(&name, b, sizeof b), p->buffers[i].line);
        return;
    }
    Token ty = asm_next(A);
    DataType type = ty.kind == TOK_DIRECTIVE ? isa_type_lookup(ty.s + 1, ty.len - 1) : T_NONE;
    if (type == T_NONE || type == T_PRED) { asm_err(A, &ty, "expected an element type (.f32, .u32 ...), got %s", asm_show(&ty, b, sizeof b)); return; }
    if (isa_type_lanes(type) == 2) {
        asm_err(A, &ty, "a buffer of .%s: declare its halves, .%s[2*N] (element 2i is the lower half of pair i)",
                isa_type_name(type), type == T_F16X2 ? "f16" : "bf16");
        return;
    }
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
            s.init = INIT_IOTA; s.lo = 0; s.hi = 1; s.ilo = 0; s.ihi = 1;
            if (asm_accept(A, '(')) {
                if (parse_elem(A, type, &s.lo, &s.ilo, "iota()", FIT_BITS)) return;
                if (asm_accept(A, ',') && parse_elem(A, type, &s.hi, &s.ihi, "iota()", FIT_ANY)) return;
                if (asm_expect(A, ')', "after iota(start, step)")) return;
            }
        } else if (asm_tok_is(&init, "expr")) {
            if (parse_expr_init(A, &s)) return;
        } else if (asm_tok_is(&init, "fill")) {
            s.init = INIT_FILL;
            if (asm_expect(A, '(', "after fill") || parse_elem(A, type, &s.value, &s.ivalue, "fill()", FIT_BITS) ||
                asm_expect(A, ')', "after fill(value"))
                return;
        } else if (asm_tok_is(&init, "random")) {
            s.init = INIT_RANDOM; s.seed = 1; s.lo = 0; s.hi = 1; s.ilo = 0; s.ihi = 1;
            if (asm_accept(A, '(') && !asm_accept(A, ')')) {
                for (;;) {
                    Token key;
                    if (parse_key(A, &key)) return;
                    if (asm_tok_is(&key, "seed")) {
                        int64_t v;
                        if (asm_parse_expr(A, &v)) return;
                        s.seed = (uint64_t)v;
                    } else if (asm_tok_is(&key, "min")) { if (parse_elem(A, type, &s.lo, &s.ilo, "random()", FIT_RANGE)) return; }
                    else if (asm_tok_is(&key, "max")) { if (parse_elem(A, type, &s.hi, &s.ihi, "random()", FIT_RANGE)) return; }
                    else { asm_err(A, &key, "random() takes seed=, min= and max=, not %s", asm_show(&key, b, sizeof b)); return; }
                    if (asm_accept(A, ',')) continue;
                    if (asm_expect(A, ')', "to close random(...)")) return;
                    break;
                }
            }
            int greater = isa_type_kind(type) == TK_FLOAT ? s.lo > s.hi
                        : isa_type_kind(type) == TK_SINT  ? s.ilo > s.ihi
                                                          : (uint64_t)s.ilo > (uint64_t)s.ihi;
            if (greater) { asm_err(A, &init, "random(): min is greater than max"); return; }
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
        } else if (asm_tok_is(&init, "values")) {
            s.init = INIT_VALUES;
            if (parse_values(A, &s, &init)) { free(s.values); free(s.ivalues); return; }
        } else {
            static const char *const inits[] = { "zero", "random", "iota", "fill", "file", "values", "expr" };
            char w[64];
            snprintf(w, sizeof w, "%.*s", init.len < 60 ? init.len : 60, init.s);
            const char *near = suggest_best(w, inits, 7, sizeof inits[0]);
            asm_err(A, &init, "unknown initialiser '%s'%s%s%s (zero, random(...), iota, fill(v), file(\"path\"), values(v, ...), expr(EXPR of i))", w,
                near ? " (did you mean '" : "", near ? near : "", near ? "'?)" : "");
            return;
        }
    }
    s.host_init = 1;
    if (global >= 0) {
        BufferSpec *g = &p->buffers[global];
        uint64_t have = g->count * (uint64_t)(isa_type_bits((DataType)g->type) / 8);
        if (have != s.count * esize) {
            asm_err(A, &name, ".buffer %.*s has %llu bytes, but .global %.*s has %llu", name.len, name.s,
                    (unsigned long long)(s.count * esize), name.len, name.s, (unsigned long long)have);
            free(s.path);
            free(s.expr);
            free(s.values);
            free(s.ivalues);
            return;
        }
        /* the host initialiser replaces the .global's, in the .buffer's type */
        free(g->data);
        s.name = g->name;
        s.global_var = g->global_var;
        *g = s;
        return;
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
        else if (asm_tok_is(&key, "shared")) {
            /* dynamic shared memory per block, as the third <<< >>> argument */
            Token at = asm_peek(A);
            int64_t v;
            if (asm_parse_expr(A, &v)) goto fail;
            if (v < 0 || v > (1 << 30)) { asm_err(A, &at, "shared=%lld is out of range [0,2^30] bytes", (long long)v); goto fail; }
            l.dyn_shared_bytes = (uint32_t)v;
        }
        else { asm_err(A, &key, ".launch takes grid=, block=, args= and shared=, not %s", asm_show(&key, b, sizeof b)); goto fail; }
    }
    if (!have_grid || !have_block) { asm_err(A, &name, ".launch needs grid=(...) and block=(...)"); goto fail; }
    if (p->nlaunches >= MAX_FOR_COUNT) { asm_err(A, &name, "more than %d launches (the limit)", MAX_FOR_COUNT); goto fail; }
    l.nloop = A->nloops;
    for (int k = 0; k < A->nloops; k++) { l.loop_var[k] = A->loops[k].var; l.loop_val[k] = A->loops[k].value; }
    GROW(p->launches, p->nlaunches, A->caplaunch);
    A->pend = asm_xrealloc(A->pend, (size_t)(p->nlaunches + 1) * sizeof *A->pend);
    A->pend[p->nlaunches] = (PendingLaunch){ asm_xstrndup(name.s, (size_t)name.len), name.line, name.col };
    l.entry = -1;
    p->launches[p->nlaunches++] = l;
    return;
fail:
    free(l.args);
}

void asm_resolve_checks(Asm *A)
{
    Program *p = A->p;
    for (int i = 0; i < p->nchecks; i++) {
        CheckSpec *c = &p->checks[i];
        if (c->buffer >= 0) continue;
        c->buffer = program_find_buffer(p, A->check_names[i]);
        if (c->buffer >= 0) continue;
        Token at = { .line = c->line, .col = c->col, .len = (int)strlen(A->check_names[i]) };
        at.s = p->source + p->line_starts[c->line - 1] + c->col - 1;
        asm_err(A, &at, "unknown buffer '%s' (declare it with .buffer, or as a .global variable)", A->check_names[i]);
    }
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
    /* not yet known: a module variable (.global) of an .include below may
     * be it; asm_resolve_checks looks again at the end */
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
    A->check_names = asm_xrealloc(A->check_names, (size_t)A->capcheck * sizeof *A->check_names);
    A->check_names[p->nchecks] = c.buffer < 0 ? asm_xstrndup(name.s, (size_t)name.len) : NULL;
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

