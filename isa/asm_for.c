/* asm_for.c - host loops: `.for VAR = A, B [, STEP]` ... `.end`, as C's
 * `for (VAR = A; VAR < B; VAR += STEP)` (VAR > B for a negative STEP).
 *
 * A loop is expanded while the file is assembled: its body is parsed once
 * per iteration, by seeking the lexer back to the line after the .for, so
 * each .launch inside becomes a launch of its own, its expressions
 * evaluated with that iteration's loop variables (which the LaunchSpec
 * keeps, for the reports).  Only .launch lines and nested .for blocks may
 * stand in a body.  An iteration with errors ends the loop, so an error
 * is reported once, with the loop values it happened at.  Iterations of all
 * loops together, and launches, are capped at MAX_FOR_COUNT: a typo in a
 * bound is an error, never an endless assembly.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "asm_internal.h"

typedef struct BodyStart { Lexer lx; Token la[3]; int nla; } BodyStart;

int asm_loop_var(const Asm *A, const Token *t)
{
    if (A->ndef_stack) return -1;
    for (int i = A->nloops - 1; i >= 0; i--)
        if (asm_tok_is(t, A->loops[i].name)) return i;
    return -1;
}

void asm_note_loop(Asm *A, int from, const char *values)
{
    if (from < A->loop_noted) from = A->loop_noted;   /* an inner loop named them */
    A->loop_noted = A->dl->n;
    if (!values[0]) return;
    for (int i = from; i < A->dl->n; i++) {
        Diag *d = &A->dl->v[i];
        size_t n = strlen(d->msg) + strlen(values) + 8;
        char *m = asm_xrealloc(NULL, n);
        snprintf(m, n, "%s (at %s)", d->msg, values);
        free(d->msg);
        d->msg = m;
    }
}

/* The open loops' values, "t=3 i=2". */
static const char *loop_values(const Asm *A, char *buf, size_t n)
{
    size_t k = 0;
    buf[0] = '\0';
    for (int i = 0; i < A->nloops && k < n; i++) {
        int w = snprintf(buf + k, n - k, "%s%s=%lld", i ? " " : "", A->loops[i].name, (long long)A->loops[i].value);
        if (w < 0) break;
        k += (size_t)w;
    }
    return buf;
}

/* Whether the parser has left the file the .for is in (an included file
 * ended without its .end) or reached the end of everything. */
static int at_end(Asm *A, int inc_depth)
{
    Token t = asm_peek(A);
    return t.kind == TOK_EOF || A->ninc_stack < inc_depth;
}

/* Past the matching .end without parsing (a loop that runs no times, or
 * after an error in its header).  0 if the file ends first. */
static int skip_body(Asm *A, int inc_depth)
{
    int saved = A->line_mode;
    A->line_mode = 0;
    for (int depth = 0; !at_end(A, inc_depth);) {
        Token t = asm_next(A);
        if (t.kind != TOK_DIRECTIVE || !t.bol) continue;
        if (asm_tok_is(&t, ".for")) depth++;
        else if (asm_tok_is(&t, ".end") && depth-- == 0) { asm_skip_line(A); A->line_mode = saved; return 1; }
    }
    A->line_mode = saved;
    return 0;
}

/* Error recovery in a body: on to the next directive that starts a line. */
static void skip_to_directive(Asm *A, int inc_depth)
{
    for (;;) {
        if (at_end(A, inc_depth)) return;
        Token t = asm_peek(A);
        if (t.kind == TOK_DIRECTIVE && t.bol) return;
        asm_next(A);
    }
}

/* One run of the body, up to and past its .end.  0 if the file ends first. */
static int parse_body(Asm *A, int inc_depth)
{
    char b[64];
    for (;;) {
        if (at_end(A, inc_depth)) return 0;
        Token t = asm_next(A);
        if (t.kind != TOK_DIRECTIVE || !t.bol) {
            if (t.kind != TOK_ERROR) asm_err(A, &t, "expected .launch, .for or .end inside a .for, got %s", asm_show(&t, b, sizeof b));
            skip_to_directive(A, inc_depth);
        } else if (asm_tok_is(&t, ".end")) {
            asm_host_directive(A, &t, NULL);
            return 1;
        } else if (asm_tok_is(&t, ".launch")) {
            asm_host_directive(A, &t, asm_parse_launch);
        } else if (asm_tok_is(&t, ".for")) {
            asm_parse_for(A, &t);
        } else {
            if (asm_tok_is(&t, ".buffer") || asm_tok_is(&t, ".check"))
                asm_err(A, &t, "%.*s inside a .for: buffers are declared and checked once, outside the loops", t.len, t.s);
            else if (asm_tok_is(&t, ".define"))
                asm_err(A, &t, ".define inside a .for: a .define has one value for the whole file (put it before the loop)");
            else
                asm_err(A, &t, "%s inside a .for: only .launch lines and nested .for blocks may stand in a loop", asm_show(&t, b, sizeof b));
            skip_to_directive(A, inc_depth);
        }
    }
}

/* The loop variable: a new name, not a .define's, a buffer's or an open
 * loop's.  Its index in Program.loop_vars, or -1 after an error. */
static int loop_name(Asm *A, const Token *v)
{
    Program *p = A->p;
    char b[64];
    if (v->kind != TOK_IDENT) { asm_err(A, v, "expected a loop variable after .for, got %s", asm_show(v, b, sizeof b)); return -1; }
    int d = strmap_get(&A->defmap, v->s, v->len);
    if (d >= 0) { asm_err(A, v, "loop variable '%.*s' shadows the .define at line %d", v->len, v->s, A->defs[d].line); return -1; }
    for (int i = 0; i < A->nloops; i++)
        if (asm_tok_is(v, A->loops[i].name)) {
            asm_err(A, v, "loop variable '%.*s' shadows the one of the enclosing .for at line %d", v->len, v->s, A->loops[i].line);
            return -1;
        }
    for (int i = 0; i < p->nbuffers; i++)
        if (asm_tok_is(v, p->buffers[i].name)) { asm_err(A, v, "loop variable '%.*s' has the name of a buffer", v->len, v->s); return -1; }
    if (asm_tok_is(v, "min") || asm_tok_is(v, "max") || asm_tok_is(v, "WARP_SZ")) {
        asm_err(A, v, "'%.*s' cannot be a loop variable (a reserved name)", v->len, v->s);
        return -1;
    }
    for (int i = 0; i < p->nloop_vars; i++)
        if (asm_tok_is(v, p->loop_vars[i])) return i;
    p->loop_vars = asm_xrealloc(p->loop_vars, (size_t)(p->nloop_vars + 1) * sizeof *p->loop_vars);
    p->loop_vars[p->nloop_vars] = asm_xstrndup(v->s, (size_t)v->len);
    return p->nloop_vars++;
}

/* VAR = A, B [, STEP] and the end of the line; 0 or -1. */
static int parse_header(Asm *A, const Token *dir, int *var, int64_t *from, int64_t *to, int64_t *step)
{
    Token v = asm_next(A);
    char b[64];
    if (A->nloops >= MAX_FOR_DEPTH) { asm_err(A, dir, ".for loops nested more than %d deep", MAX_FOR_DEPTH); return -1; }
    if ((*var = loop_name(A, &v)) < 0) return -1;
    if (asm_expect(A, '=', "after the loop variable")) return -1;
    if (asm_parse_expr(A, from) || asm_expect(A, ',', "between the start and the bound (.for VAR = A, B [, STEP])")) return -1;
    if (asm_parse_expr(A, to)) return -1;
    *step = 1;
    if (asm_accept(A, ',')) {
        Token at = asm_peek(A);
        if (asm_parse_expr(A, step)) return -1;
        if (*step == 0) { asm_err(A, &at, ".for step is 0: the loop would never end"); return -1; }
    }
    Token t = asm_peek(A);
    if (t.kind != TOK_EOL && t.kind != TOK_EOF) {
        asm_err(A, &t, "unexpected %s at the end of .for (.for VAR = A, B [, STEP])", asm_show(&t, b, sizeof b));
        return -1;
    }
    return 0;
}

/* How many times VAR = from; VAR < to (> for step < 0); VAR += step runs,
 * in unsigned arithmetic (to - from may not fit int64_t). */
static uint64_t trip_count(int64_t from, int64_t to, int64_t step)
{
    if (step > 0) return from < to ? ((uint64_t)to - (uint64_t)from - 1) / (uint64_t)step + 1 : 0;
    uint64_t s = (uint64_t)0 - (uint64_t)step;
    return from > to ? ((uint64_t)from - (uint64_t)to - 1) / s + 1 : 0;
}

/* Run the body `trips` times from the body start; an error, the end of the
 * file or the cap ends it early. */
static void run_loop(Asm *A, const Token *dir, int inc_depth, uint64_t trips, int64_t from, int64_t step)
{
    ForVar *fv = &A->loops[A->nloops - 1];
    BodyStart body = { A->lx, { A->la[0], A->la[1], A->la[2] }, A->nla };
    for (uint64_t k = 0; k < trips; k++) {
        if (A->for_iterations >= MAX_FOR_COUNT) {
            if (!A->for_capped) asm_err(A, dir, ".for loops run more than %d iterations in all (the limit)", MAX_FOR_COUNT);
            A->for_capped = 1;
            A->stale_errors++;   /* the loops around end too */
            if (k == 0 && !skip_body(A, inc_depth))
                asm_err(A, dir, "unterminated .for %s: no .end before the end of the file", fv->name);
            return;
        }
        A->for_iterations++;
        /* from + k * step lies between from and the bound: no overflow */
        fv->value = (int64_t)((uint64_t)from + k * (uint64_t)step);
        if (k) { A->lx = body.lx; memcpy(A->la, body.la, sizeof A->la); A->nla = body.nla; }
        int before = diag_count(A->dl) + A->stale_errors;
        int first = A->dl->n;
        if (!parse_body(A, inc_depth)) {
            asm_err(A, dir, "unterminated .for %s: no .end before the end of the file", fv->name);
            return;
        }
        if (diag_count(A->dl) + A->stale_errors != before) {
            char vals[256];
            asm_note_loop(A, first, loop_values(A, vals, sizeof vals));
            return;
        }
    }
    if (trips == 0 && !skip_body(A, inc_depth))
        asm_err(A, dir, "unterminated .for %s: no .end before the end of the file", fv->name);
}

void asm_parse_for(Asm *A, const Token *dir)
{
    int var;
    int64_t from, to, step;
    A->line_mode = 1;
    int rc = parse_header(A, dir, &var, &from, &to, &step);
    asm_skip_line(A);
    A->line_mode = 0;
    int inc_depth = A->ninc_stack;
    uint64_t trips = rc ? 0 : trip_count(from, to, step);
    if (!rc && trips > MAX_FOR_COUNT) {
        asm_err(A, dir, ".for %s runs %llu times: more than the limit of %d", A->p->loop_vars[var],
                (unsigned long long)trips, MAX_FOR_COUNT);
        rc = -1;
    }
    if (rc) {
        if (!skip_body(A, inc_depth)) asm_err(A, dir, "unterminated .for: no .end before the end of the file");
        return;
    }
    A->loops[A->nloops++] = (ForVar){ A->p->loop_vars[var], var, from, dir->line, dir->col };
    run_loop(A, dir, inc_depth, trips, from, step);
    A->nloops--;
}
