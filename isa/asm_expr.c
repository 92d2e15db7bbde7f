/* asm_expr.c - the assembler's integer expressions and .define: 64-bit
 * signed arithmetic with C's operators, min() and max(), names resolved
 * through .define (used before their definition, cycles reported, values
 * replaced by -D), and the main pass's check of each .define line.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "asm_internal.h"
#include "suggest.h"

/* ---- integer expressions --------------------------------------------------
 * 64-bit signed; overflow, division by zero and bad shifts are errors. */
static int define_value(Asm *A, int idx, const Token *use, int64_t *out);

int asm_overflow(Asm *A, const Token *t)
{
    asm_err(A, t, "integer overflow in expression");
    return -1;
}

/* PTX's WARP_SZ is a run-time value (see parse_warp_sz in asm_instr.c), never part of an
 * expression. */
const char asm_warp_sz_hint[] =
    "WARP_SZ is the warp size at run time, not an assemble-time constant: compute with it in an "
    "instruction (sub.u32 %r1, WARP_SZ, 1; shr.u32 %r2, WARP_SZ, 1)";

static int parse_primary(Asm *A, int64_t *out)
{
    Token t = asm_peek(A);
    char b[64];
    if (t.kind == TOK_INT) { asm_next(A); *out = (int64_t)t.ival; return 0; }
    if (asm_is_punct(&t, '(')) {
        asm_next(A);
        if (asm_parse_expr(A, out)) return -1;
        return asm_expect(A, ')', "to close the expression");
    }
    if (t.kind == TOK_IDENT) {
        asm_next(A);
        if (asm_tok_is(&t, "min") || asm_tok_is(&t, "max")) {
            int64_t x, y;
            if (asm_expect(A, '(', "after min/max") || asm_parse_expr(A, &x) || asm_expect(A, ',', "between min/max arguments") ||
                asm_parse_expr(A, &y) || asm_expect(A, ')', "after min/max arguments"))
                return -1;
            *out = asm_tok_is(&t, "min") ? (x < y ? x : y) : (x > y ? x : y);
            return 0;
        }
        if (strmap_get(&A->defmap, t.s, t.len) < 0 && asm_tok_is(&t, "WARP_SZ")) { asm_err(A, &t, "%s", asm_warp_sz_hint); return -1; }
        return asm_name_value(A, &t, out);
    }
    if (t.kind == TOK_FLOAT) {
        asm_next(A);
        asm_err(A, &t, "floating-point number %s where an integer is expected", asm_show(&t, b, sizeof b));
        return -1;
    }
    if (t.kind != TOK_ERROR) asm_err(A, &t, "expected an integer expression, got %s", asm_show(&t, b, sizeof b));
    return -1;
}

static int parse_unary(Asm *A, int64_t *out)
{
    Token t = asm_peek(A);
    if (asm_is_punct(&t, '-') || asm_is_punct(&t, '~') || asm_is_punct(&t, '+') || asm_is_punct(&t, '!')) {
        Token n = asm_peek_n(A, 1);
        if (t.punct == '-' && n.kind == TOK_INT && n.ival == 1ull << 63) {
            /* -9223372036854775808: the one literal past INT64_MAX that
             * negated is a signed 64-bit value (INT64_MIN), as in C */
            asm_next(A);
            asm_next(A);
            *out = INT64_MIN;
            return 0;
        }
        if (++A->depth > MAX_EXPR_DEPTH) { asm_err(A, &t, "expression nested too deeply"); return -1; }
        asm_next(A);
        int64_t v;
        int rc = parse_unary(A, &v);
        A->depth--;
        if (rc) return -1;
        if (t.punct == '-') { if (v == INT64_MIN) return asm_overflow(A, &t); *out = -v; }
        else if (t.punct == '~') *out = ~v;
        else if (t.punct == '!') *out = !v;
        else *out = v;
        return 0;
    }
    if (asm_is_punct(&t, '(')) {
        if (++A->depth > MAX_EXPR_DEPTH) { asm_err(A, &t, "expression nested too deeply"); return -1; }
        int rc = parse_primary(A, out);
        A->depth--;
        return rc;
    }
    return parse_primary(A, out);
}

/* Binary operators by precedence level, lowest first. */
int asm_prec_of(int punct)
{
    switch (punct) {
    case '|': return 1;
    case '^': return 2;
    case '&': return 3;
    case P_SHL: case P_SHR: return 4;
    case '+': case '-': return 5;
    case '*': case '/': case '%': return 6;
    default: return 0;
    }
}

static int apply(Asm *A, const Token *op, int64_t a, int64_t b, int64_t *out)
{
    switch (op->punct) {
    case '|': *out = a | b; return 0;
    case '^': *out = a ^ b; return 0;
    case '&': *out = a & b; return 0;
    case P_SHL:
        if (b < 0 || b > 63) { asm_err(A, op, "shift by %lld is out of range [0,63]", (long long)b); return -1; }
        *out = (int64_t)((uint64_t)a << b);
        return 0;
    case P_SHR:
        if (b < 0 || b > 63) { asm_err(A, op, "shift by %lld is out of range [0,63]", (long long)b); return -1; }
        *out = a >> b;
        return 0;
    case '+': if (__builtin_add_overflow(a, b, out)) return asm_overflow(A, op); return 0;
    case '-': if (__builtin_sub_overflow(a, b, out)) return asm_overflow(A, op); return 0;
    case '*': if (__builtin_mul_overflow(a, b, out)) return asm_overflow(A, op); return 0;
    case '/': case '%':
        if (b == 0) { asm_err(A, op, "division by zero in expression"); return -1; }
        if (a == INT64_MIN && b == -1) return asm_overflow(A, op);
        *out = op->punct == '/' ? a / b : a % b;
        return 0;
    }
    return -1;
}

int asm_parse_binary(Asm *A, int min_prec, int64_t *out)
{
    if (parse_unary(A, out)) return -1;
    for (;;) {
        Token op = asm_peek(A);
        int prec = op.kind == TOK_PUNCT ? asm_prec_of(op.punct) : 0;
        if (prec == 0 || prec < min_prec) return 0;
        asm_next(A);
        int64_t rhs;
        if (++A->depth > MAX_EXPR_DEPTH) { asm_err(A, &op, "expression nested too deeply"); return -1; }
        int rc = asm_parse_binary(A, prec + 1, &rhs);
        A->depth--;
        if (rc || apply(A, &op, *out, rhs, out)) return -1;
    }
}

int asm_parse_expr(Asm *A, int64_t *out) { return asm_parse_binary(A, 1, out); }

/* A name in an expression: an open .for loop's variable, or a .define. */
int asm_name_value(Asm *A, const Token *t, int64_t *out)
{
    int lv = asm_loop_var(A, t);
    if (lv >= 0) { *out = A->loops[lv].value; return 0; }
    int d = strmap_get(&A->defmap, t->s, t->len);
    if (d >= 0) return define_value(A, d, t, out);
    char b[64];
    for (int i = 0; i < A->nloops; i++)
        if (asm_tok_is(t, A->loops[i].name)) {
            asm_err(A, t, "loop variable %s in the value of a .define: a .define has one value for the whole file "
                          "(write the expression in the .launch line)", asm_show(t, b, sizeof b));
            return -1;
        }
    asm_err(A, t, "unknown name %s in expression (no .define gives it)", asm_show(t, b, sizeof b));
    return -1;
}

/* ---- .define ------------------------------------------------------------- */
typedef struct LexState { Lexer lx; Token la[3]; int nla, line_mode; const char *file; } LexState;

static void save_lex(Asm *A, LexState *s)
{
    s->lx = A->lx; memcpy(s->la, A->la, sizeof s->la); s->nla = A->nla; s->line_mode = A->line_mode;
}

static void restore_lex(Asm *A, const LexState *s)
{
    A->lx = s->lx; memcpy(A->la, s->la, sizeof s->la); A->nla = s->nla; A->line_mode = s->line_mode;
}

static int define_value(Asm *A, int idx, const Token *use, int64_t *out)
{
    DefSlot *d = &A->defs[idx];
    if (d->state == 2) {
        *out = d->value;
        if (!d->ok) A->stale_errors++;
        return d->ok ? 0 : -1;
    }
    if (d->state == 1) {
        char chain[256] = "";
        size_t n = 0;
        int from = 0;
        for (int i = 0; i < A->ndef_stack; i++) if (A->def_stack[i] == idx) { from = i; break; }
        for (int i = from; i < A->ndef_stack && n < sizeof chain - 40; i++)
            n += (size_t)snprintf(chain + n, sizeof chain - n, "%s -> ", A->defs[A->def_stack[i]].name);
        snprintf(chain + n, sizeof chain - n, "%s", d->name);
        asm_err(A, use, ".define cycle: %s", chain);
        return -1;
    }
    d->state = 1;
    A->def_stack = asm_xrealloc(A->def_stack, (size_t)(A->ndef_stack + 1) * sizeof *A->def_stack);
    A->def_stack[A->ndef_stack++] = idx;

    LexState saved;
    save_lex(A, &saved);
    int saved_depth = A->depth;
    A->depth = 0;
    if (d->override) lex_init(&A->lx, "-D", d->override, strlen(d->override), A->dl);
    else {
        lex_init(&A->lx, A->file, A->src, A->len, A->dl);
        lex_seek(&A->lx, d->pos, d->vline, d->vcol);
    }
    A->lx.at_bol = 0;      /* the value's first token is not a new line */
    A->nla = 0;
    A->line_mode = 1;
    int64_t v = 0;
    Token first = asm_peek(A);
    int rc;
    if (first.kind == TOK_EOL || first.kind == TOK_EOF) {
        Token at = { .line = d->line, .col = d->col, .s = A->src + d->pos };
        asm_err(A, &at, ".define %s has no value", d->name);
        rc = -1;
    } else {
        rc = asm_parse_expr(A, &v);
        Token t = asm_peek(A);
        if (!rc && t.kind != TOK_EOL && t.kind != TOK_EOF) {
            char b[64];
            asm_err(A, &t, "unexpected %s after the value of .define %s", asm_show(&t, b, sizeof b), d->name);
            rc = -1;
        }
    }
    restore_lex(A, &saved);
    A->depth = saved_depth;
    A->ndef_stack--;
    d->state = 2;
    d->ok = rc == 0;
    d->value = v;
    *out = v;
    return rc;
}

/* The quiet prescan: find every `.define NAME` at the start of a line. */
void asm_prescan_defines(Asm *A)
{
    Lexer lx;
    lex_init(&lx, A->file, A->src, A->len, NULL);
    for (;;) {
        Token t = lex_next(&lx);
        if (t.kind == TOK_EOF) break;
        if (!(t.kind == TOK_DIRECTIVE && t.bol && asm_tok_is(&t, ".define"))) continue;
        size_t save_pos = lx.pos;
        int sl = lx.line, sc = lx.col;
        Token name = lex_next(&lx);
        if (name.kind != TOK_IDENT || name.bol) { lex_seek(&lx, save_pos, sl, sc); lx.at_bol = 0; continue; }
        if (strmap_get(&A->defmap, name.s, name.len) >= 0) continue;  /* duplicate: main pass reports */
        A->defs = asm_xrealloc(A->defs, (size_t)(A->ndefs + 1) * sizeof *A->defs);
        DefSlot *d = &A->defs[A->ndefs];
        memset(d, 0, sizeof *d);
        d->name = asm_xstrndup(name.s, (size_t)name.len);
        d->pos = lx.pos;
        d->line = t.line; d->col = t.col;
        d->vline = lx.line; d->vcol = lx.col;
        strmap_put(&A->defmap, name.s, name.len, A->ndefs);
        A->ndefs++;
    }
}

void asm_apply_overrides(Asm *A)
{
    if (!A->opt) return;
    for (int i = 0; i < A->opt->ndefines; i++) {
        const AsmDefine *o = &A->opt->defines[i];
        int d = strmap_get(&A->defmap, o->name, (int)strlen(o->name));
        if (d < 0) {
            const char *near = NULL;
            if (A->ndefs) near = suggest_best(o->name, A->defs, (size_t)A->ndefs, sizeof *A->defs);
            diag_add(A->dl, "-D", 0, 0, NULL, "%s: %s has no .define %s%s%s%s", o->name, A->file, o->name,
                     near ? " (did you mean '" : "", near ? near : "", near ? "'?)" : "");
            continue;
        }
        A->defs[d].override = o->value;
    }
}

void asm_check_define_line(Asm *A)
{
    Token name = asm_next(A);
    char b[64];
    if (name.kind != TOK_IDENT) { asm_err(A, &name, "expected a name after .define, got %s", asm_show(&name, b, sizeof b)); return; }
    if (asm_tok_is(&name, "WARP_SZ")) {
        asm_err(A, &name, ".define WARP_SZ: WARP_SZ is PTX's predefined warp size (sm.warp_size at run time)");
        return;
    }
    int d = strmap_get(&A->defmap, name.s, name.len);
    if (d < 0) return;
    if (A->defs[d].line != name.line) {
        asm_err(A, &name, ".define %s is given twice (first at line %d)", A->defs[d].name, A->defs[d].line);
        return;
    }
    int64_t v;
    define_value(A, d, &name, &v);
    asm_skip_line(A);
}

