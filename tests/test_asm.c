/* test_asm.c - the assembler: nvcc's PTX, the host directives, expressions,
 * declarations, literals, and (most of it) bad input: every malformed file
 * must give NULL and a first error at the exact line and column, with the
 * words a user needs.  Run from the repo root (reads tests/data/). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "isa/asm.h"
#include "isa/disasm.h"
#include "isa/isa.h"
#include "tests/sanitized.h"

/* ---- helpers ------------------------------------------------------------ */

static void dump(const DiagList *dl)
{
    for (int i = 0; i < dl->n; i++)
        print_error("  %s:%d:%d: %s\n", dl->v[i].file, dl->v[i].line, dl->v[i].col, dl->v[i].msg);
}

static Program *ok_opts(const char *src, const AsmDefine *defs, int ndefs)
{
    AsmOptions o = { defs, ndefs };
    DiagList dl = { 0 };
    Program *p = asm_assemble("t.s", src, strlen(src), &o, &dl);
    if (!p) dump(&dl);
    assert_non_null(p);
    assert_int_equal(diag_count(&dl), 0);
    diag_free(&dl);
    return p;
}

static Program *ok(const char *src) { return ok_opts(src, NULL, 0); }

/* The file must not assemble; its first error is at line:col and its
 * message contains `words`.  Returns the number of errors. */
static int bad_opts(const char *src, size_t len, const AsmDefine *defs, int ndefs,
                    int line, int col, const char *words)
{
    AsmOptions o = { defs, ndefs };
    DiagList dl = { 0 };
    Program *p = asm_assemble("t.s", src, len, &o, &dl);
    if (p || dl.n == 0 || dl.v[0].line != line || dl.v[0].col != col || !strstr(dl.v[0].msg, words)) {
        print_error("want %d:%d: ...%s...\n got:\n", line, col, words);
        dump(&dl);
    }
    assert_null(p);
    assert_true(dl.n >= 1);
    assert_int_equal(dl.v[0].line, line);
    assert_int_equal(dl.v[0].col, col);
    assert_non_null(strstr(dl.v[0].msg, words));
    int n = diag_count(&dl);
    diag_free(&dl);
    return n;
}

static int bad(const char *src, int line, int col, const char *words)
{
    return bad_opts(src, strlen(src), NULL, 0, line, col, words);
}

static const Define *find_define(const Program *p, const char *name)
{
    for (int i = 0; i < p->ndefines; i++)
        if (strcmp(p->defines[i].name, name) == 0) return &p->defines[i];
    return NULL;
}

static int64_t define_value(const Program *p, const char *name)
{
    const Define *d = find_define(p, name);
    assert_non_null(d);
    return d->value;
}

static int label_pc(const Entry *e, const char *name)
{
    for (int i = 0; i < e->nlabels; i++)
        if (strcmp(e->labels[i].name, name) == 0) return (int)e->labels[i].pc;
    return -1;
}

static const char *reg_name(const Entry *e, const Operand *o) { return e->regs[o->r[0]].name; }

static const RegInfo *find_reg(const Entry *e, const char *name)
{
    for (int i = 0; i < e->nregs; i++)
        if (strcmp(e->regs[i].name, name) == 0) return &e->regs[i];
    for (int i = 0; i < e->npreds; i++)
        if (strcmp(e->preds[i].name, name) == 0) return &e->preds[i];
    return NULL;
}

static const Var *find_var(const Program *p, const char *name)
{
    for (int i = 0; i < p->nvars; i++)
        if (strcmp(p->vars[i].name, name) == 0) return &p->vars[i];
    return NULL;
}

/* An entry around one statement: the statement is line 3, column 5. */
#define IN_ENTRY(stmt) ".entry k\n{\n    " stmt "\n    ret;\n}\n"

/* ---- nvcc's vecadd -------------------------------------------------------- */

static void test_vecadd_nvcc(void **state)
{
    (void)state;
    DiagList dl = { 0 };
    Program *p = asm_assemble_file("tests/data/vecadd_nvcc.ptx", NULL, &dl);
    dump(&dl);
    assert_non_null(p);
    assert_int_equal(p->nentries, 1);
    const Entry *e = &p->entries[0];
    assert_string_equal(e->name, "_Z6vecaddPKfS0_Pfi");
    assert_int_equal(e->line, 4);
    /* 4 params: three .u64 pointers then the .u32 count, packed naturally */
    assert_int_equal(e->nparams, 4);
    static const struct { const char *name; DataType t; uint32_t off, size; } want[] = {
        { "_Z6vecaddPKfS0_Pfi_param_0", T_U64, 0, 8 },
        { "_Z6vecaddPKfS0_Pfi_param_1", T_U64, 8, 8 },
        { "_Z6vecaddPKfS0_Pfi_param_2", T_U64, 16, 8 },
        { "_Z6vecaddPKfS0_Pfi_param_3", T_U32, 24, 4 },
    };
    for (int i = 0; i < 4; i++) {
        assert_string_equal(e->params[i].name, want[i].name);
        assert_int_equal(e->params[i].type, want[i].t);
        assert_int_equal(e->params[i].offset, want[i].off);
        assert_int_equal(e->params[i].size, want[i].size);
    }
    assert_int_equal(e->param_bytes, 28);
    /* 22 instructions: lines 15..35 and the ret on line 37 */
    assert_int_equal(e->ncode, 22);
    assert_int_equal(e->code[0].line, 15);
    assert_int_equal(e->code[0].col, 2);          /* after a tab */
    assert_int_equal(e->code[20].line, 35);
    assert_int_equal(e->code[21].line, 37);
    assert_int_equal(e->code[21].op, OP_RET);
    /* $L__BB11_2 labels the ret, pc 21 */
    assert_int_equal(e->nlabels, 1);
    assert_int_equal(label_pc(e, "$L__BB11_2"), 21);
    /* pc 9: @%p1 bra $L__BB11_2 - target 21, reconverges at 21 */
    const Instr *br = &e->code[9];
    assert_int_equal(br->op, OP_BRA);
    assert_int_equal(br->line, 24);
    assert_int_equal(br->opd[0].kind, OPD_LABEL);
    assert_int_equal(br->opd[0].imm, 21);
    assert_int_equal(br->reconv, 21);
    assert_int_equal(br->guard_neg, 0);
    assert_string_equal(e->preds[br->guard].name, "%p1");
    /* registers: .reg %r<6> makes %r0..%r5; only used ones count:
     * %r1..%r5 (5) + %f1..%f3 (3) + 2 x %rd1..%rd10 (20) = 28 */
    assert_int_equal(e->nregs, 6 + 4 + 11);
    assert_int_equal(e->npreds, 2);
    assert_int_equal(e->regs_per_thread, 28);
    assert_int_equal(e->regs_stated, 0);
    assert_int_equal(find_reg(e, "%rd10")->bits, 64);
    assert_int_equal(find_reg(e, "%rd10")->type, T_B64);
    assert_int_equal(find_reg(e, "%f3")->type, T_F32);
    assert_int_equal(find_reg(e, "%r0")->used, 0);
    /* a few decoded instructions */
    const Instr *in = &e->code[3];                  /* ld.param.u32 %r2, [param_3] */
    assert_int_equal(in->op, OP_LD);
    assert_int_equal(in->space, SP_PARAM);
    assert_int_equal(in->type, T_U32);
    assert_string_equal(reg_name(e, &in->opd[0]), "%r2");
    assert_int_equal(in->opd[1].is_param, 1);
    assert_int_equal(in->opd[1].sym, 3);
    in = &e->code[4];                               /* mov.u32 %r3, %ctaid.x */
    assert_int_equal(in->opd[1].kind, OPD_SREG);
    assert_int_equal(in->opd[1].r[0], SR_CTAID_X);
    in = &e->code[10];                              /* cvta.to.global.u64 */
    assert_int_equal(in->op, OP_CVTA);
    assert_int_equal(in->space, SP_GLOBAL);
    assert_int_equal(in->flags, IF_TO);
    in = &e->code[11];                              /* mul.wide.s32 %rd5, %r1, 4 */
    assert_int_equal(in->mul, MUL_WIDE);
    assert_int_equal(in->type, T_S32);
    assert_int_equal(in->opd[2].kind, OPD_IMM);
    assert_int_equal(in->opd[2].imm, 4);
    /* no host directives in nvcc output */
    assert_int_equal(p->nbuffers, 0);
    assert_int_equal(p->nlaunches, 0);
    assert_int_equal(p->nchecks, 0);
    /* pc -> source line table */
    int len;
    const char *l = program_line(p, 37, &len);
    assert_int_equal(len, 5);
    assert_memory_equal(l, "\tret;", 5);
    assert_string_equal(program_line(p, 99, &len), "");
    assert_int_equal(len, 0);
    program_free(p);
    diag_free(&dl);
}

/* ---- the DESIGN.md kernel and its host directives ------------------------- */

static Program *design(const AsmDefine *defs, int n)
{
    AsmOptions o = { defs, n };
    DiagList dl = { 0 };
    Program *p = asm_assemble_file("tests/data/vecadd_design.s", &o, &dl);
    dump(&dl);
    assert_non_null(p);
    diag_free(&dl);
    return p;
}

static void test_design_defines(void **state)
{
    (void)state;
    Program *p = design(NULL, 0);
    assert_int_equal(p->ndefines, 3);
    assert_string_equal(p->defines[0].name, "N");
    assert_int_equal(p->defines[0].value, 1003);
    assert_int_equal(p->defines[0].line, 3);
    assert_int_equal(p->defines[0].overridden, 0);
    assert_int_equal(define_value(p, "BLOCK"), 64);
    assert_int_equal(define_value(p, "GRID"), 16);            /* (1003+63)/64 */
    program_free(p);
}

static void test_design_define_override(void **state)
{
    (void)state;
    static const AsmDefine d[] = { { "N", "4096" } };
    Program *p = design(d, 1);
    assert_int_equal(define_value(p, "N"), 4096);
    assert_int_equal(find_define(p, "N")->overridden, 1);
    assert_int_equal(find_define(p, "BLOCK")->overridden, 0);
    assert_int_equal(define_value(p, "GRID"), 64);            /* 4159/64 */
    assert_int_equal(p->buffers[0].count, 4096);
    assert_int_equal(p->launches[0].grid[0], 64);
    assert_int_equal(p->launches[0].args[3].i, 4096);
    program_free(p);

    /* a -D value is an expression too, and may use other defines */
    static const AsmDefine d2[] = { { "N", "(BLOCK << 2) + 1" }, { "BLOCK", "32" } };
    p = design(d2, 2);
    assert_int_equal(define_value(p, "BLOCK"), 32);
    assert_int_equal(define_value(p, "N"), 129);
    assert_int_equal(define_value(p, "GRID"), 5);             /* (129+31)/32 */
    assert_int_equal(p->launches[0].block[0], 32);
    program_free(p);
}

static void test_design_buffers(void **state)
{
    (void)state;
    Program *p = design(NULL, 0);
    assert_int_equal(p->nbuffers, 9);
    const BufferSpec *b = p->buffers;
    assert_string_equal(b[0].name, "a");
    assert_int_equal(b[0].type, T_F32);
    assert_int_equal(b[0].count, 1003);
    assert_int_equal(b[0].init, INIT_RANDOM);
    assert_int_equal(b[0].seed, 1);
    assert_true(b[0].lo == 0.0 && b[0].hi == 1.0);           /* default range [0,1) */
    assert_int_equal(b[0].line, 6);
    assert_int_equal(b[0].col, 9);
    assert_int_equal(b[1].init, INIT_RANDOM);
    assert_int_equal(b[1].seed, 2);
    assert_true(b[1].lo == -1.0 && b[1].hi == 1.0);
    assert_int_equal(b[2].init, INIT_ZERO);
    assert_string_equal(b[3].name, "d");
    assert_int_equal(b[3].type, T_U32);
    assert_int_equal(b[3].count, 16);
    assert_int_equal(b[3].init, INIT_IOTA);
    assert_true(b[3].ilo == 0 && b[3].ihi == 1);             /* start 0, step 1 (integers: exact) */
    assert_int_equal(b[4].type, T_S32);
    assert_int_equal(b[4].init, INIT_IOTA);
    assert_true(b[4].ilo == 5 && b[4].ihi == -2);            /* iota(5, -2) */
    assert_int_equal(b[5].type, T_F64);
    assert_int_equal(b[5].init, INIT_FILL);
    assert_true(b[5].value == 2.5);
    assert_int_equal(b[6].type, T_U8);
    assert_int_equal(b[6].count, 3);
    assert_int_equal(b[6].init, INIT_FILE);
    assert_string_equal(b[6].path, "data/in.bin");
    assert_int_equal(b[7].type, T_S16);
    assert_int_equal(b[7].count, 128);                        /* BLOCK*2 */
    assert_int_equal(b[7].init, INIT_FILL);
    assert_true(b[7].ivalue == -3);
    assert_string_equal(b[8].name, "u");
    assert_int_equal(b[8].init, INIT_ZERO);                   /* no initialiser: zero */
    assert_int_equal(program_find_buffer(p, "g"), 6);
    assert_int_equal(program_find_buffer(p, "zz"), -1);
    program_free(p);
}

static void test_design_launches(void **state)
{
    (void)state;
    Program *p = design(NULL, 0);
    assert_int_equal(p->nlaunches, 3);
    const LaunchSpec *l = &p->launches[0];
    assert_int_equal(l->entry, 0);
    assert_int_equal(l->line, 15);
    assert_int_equal(l->col, 9);
    assert_int_equal(l->grid[0], 16);                         /* ((1003+64-1)/64) */
    assert_int_equal(l->grid[1], 1);
    assert_int_equal(l->grid[2], 1);
    assert_int_equal(l->block[0], 64);
    assert_int_equal(l->block[1], 1);
    assert_int_equal(l->block[2], 1);
    assert_int_equal(l->nargs, 4);
    assert_int_equal(l->args[0].kind, ARG_BUFFER);
    assert_int_equal(l->args[0].buffer, 0);
    assert_int_equal(l->args[2].kind, ARG_BUFFER);
    assert_int_equal(l->args[2].buffer, 2);
    assert_int_equal(l->args[3].kind, ARG_INT);
    assert_int_equal(l->args[3].i, 1003);
    assert_int_equal(l->args[3].line, 15);
    assert_int_equal(l->args[3].col, 70);
    l = &p->launches[1];                                      /* 2D grid, 3D block */
    assert_int_equal(l->grid[0], 2);
    assert_int_equal(l->grid[1], 3);
    assert_int_equal(l->grid[2], 1);
    assert_int_equal(l->block[0], 8);
    assert_int_equal(l->block[1], 4);
    assert_int_equal(l->block[2], 2);
    assert_int_equal(l->args[3].kind, ARG_INT);
    assert_int_equal(l->args[3].i, -1);
    l = &p->launches[2];                                      /* 3D grid, bare block */
    assert_int_equal(l->grid[0], 16);
    assert_int_equal(l->grid[1], 1);
    assert_int_equal(l->grid[2], 2);
    assert_int_equal(l->block[0], 32);
    assert_int_equal(l->args[2].buffer, 8);
    assert_int_equal(l->args[3].i, 16);
    program_free(p);
}

static void test_design_checks(void **state)
{
    (void)state;
    Program *p = design(NULL, 0);
    assert_int_equal(p->nchecks, 3);
    const CheckSpec *c = &p->checks[0];
    assert_int_equal(c->buffer, 2);
    assert_int_equal(c->line, 18);
    assert_string_equal(c->ref, "vecadd");
    assert_int_equal(c->nargs, 3);
    assert_int_equal(c->args[0].kind, ARG_BUFFER);
    assert_int_equal(c->args[1].buffer, 1);
    assert_int_equal(c->args[2].kind, ARG_INT);
    assert_int_equal(c->args[2].i, 1003);
    assert_true(c->tol == 1e-5);
    assert_true(c->rtol == 0.001);
    assert_int_equal(c->equals, -1);
    assert_null(c->path);
    c = &p->checks[1];
    assert_int_equal(c->buffer, 3);
    assert_int_equal(c->equals, 4);
    assert_null(c->ref);
    assert_true(c->tol == 0.0 && c->rtol == 0.0);
    c = &p->checks[2];
    assert_int_equal(c->buffer, 5);
    assert_string_equal(c->path, "expect/f.bin");
    program_free(p);
}

static void test_launch_arg_kinds(void **state)
{
    (void)state;
    Program *p = ok(".define S 3\n"
                    ".buffer x .f32[4]\n"
                    ".launch k grid=1 block=(2,2) args=(x, 1.5, -2.5, 7, S*2, -0x10)\n"
                    ".entry k (.param .u64 a, .param .f32 b, .param .f64 c, .param .f32 d, "
                    ".param .s32 e, .param .s64 f)\n{\n    ret;\n}\n");
    const LaunchSpec *l = &p->launches[0];
    assert_int_equal(l->nargs, 6);
    assert_int_equal(l->args[0].kind, ARG_BUFFER);
    assert_int_equal(l->args[1].kind, ARG_FLOAT);
    assert_true(l->args[1].f == 1.5);
    assert_int_equal(l->args[2].kind, ARG_FLOAT);
    assert_true(l->args[2].f == -2.5);
    assert_int_equal(l->args[3].kind, ARG_FLOAT);             /* int to a float param */
    assert_true(l->args[3].f == 7.0);
    assert_int_equal(l->args[4].kind, ARG_INT);
    assert_int_equal(l->args[4].i, 6);
    assert_int_equal(l->args[5].i, -16);
    assert_int_equal(l->block[0], 2);
    assert_int_equal(l->block[1], 2);
    /* a launch may come before its entry and name a buffer-less entry */
    program_free(p);
}

static void test_check_ref_without_args_and_file(void **state)
{
    (void)state;
    Program *p = ok(".buffer x .u32[4] iota(1)\n"
                    ".check x ref=ones() file=\"a b.bin\" tol=2 rtol=0.5\n"
                    ".entry k\n{\n    ret;\n}\n");
    const CheckSpec *c = &p->checks[0];
    assert_string_equal(c->ref, "ones");
    assert_int_equal(c->nargs, 0);
    assert_string_equal(c->path, "a b.bin");
    assert_true(c->tol == 2.0 && c->rtol == 0.5);
    assert_true(p->buffers[0].ilo == 1 && p->buffers[0].ihi == 1);     /* iota(1): step 1 */
    program_free(p);
}

static void test_buffer_values(void **state)
{
    (void)state;
    Program *p = ok(".buffer m .f32[3] values(0.25, 0.5, 0.25)\n"
                    ".buffer n .s32[2] values(-1, 2*3)\n"
                    ".entry k\n{\n    ret;\n}\n");
    assert_int_equal(p->buffers[0].init, INIT_VALUES);
    assert_true(p->buffers[0].values[0] == 0.25 && p->buffers[0].values[1] == 0.5 && p->buffers[0].values[2] == 0.25);
    assert_true(p->buffers[1].ivalues[0] == -1 && p->buffers[1].ivalues[1] == 6);
    program_free(p);
}

/* Which modifiers and types cvt, the arithmetic, the math functions, the
 * comparisons and the bit operations take, as ptxas decides: every form
 * of tests/data/ptxas_modifiers.csv (13,217: every cvt of two types with
 * each rounding, .ftz and .sat; add sub mul mad fma div min max abs neg,
 * rcp sqrt rsqrt sin cos ex2 lg2, set and setp, and, shl, selp ... likewise;
 * ld and st with every cache operator, atom of every operation and type),
 * assembled in entries of 90, must be accepted exactly when ptxas accepted
 * it.  (The first versions took 4,492 forms ptxas rejects: cvt.f32.s32
 * without a rounding, cvt.rn.s32.f32, add.ftz.u32, mul.sat.f64, sin.f32
 * without .approx, setp.lo.s32, setp.lt.b32, selp.f16, ld.wb, st.ca,
 * atom.exch.u32, ld.f16, 256-bit vectors ...; and rejected
 * fma.rz.bf16, which ptxas takes.) */
#define PTXAS_CSV "tests/data/ptxas_modifiers.csv"
enum { MOD_BATCH = 90, MOD_FIRST_LINE = 10 };   /* a batch's first form is on line 10 */

static void test_modifiers_as_ptxas(void **state)
{
    (void)state;
    FILE *f = fopen(PTXAS_CSV, "r");
    if (!f) fail_msg("%s: missing", PTXAS_CSV);
    static char forms[14336][72];
    static int verdict[14336];
    int n = 0;
    char line[256];
    while (fgets(line, sizeof line, f)) {
        if (line[0] != '"') continue;   /* comments, the header */
        char *end = strrchr(line, '"');
        assert_non_null(end);
        assert_true(n < 14336 && end - line - 1 < 72);
        snprintf(forms[n], sizeof forms[n], "%.*s", (int)(end - line - 1), line + 1);
        verdict[n++] = end[2] == '1';
    }
    fclose(f);
    assert_int_equal(n, 13217);
    int wrong = 0, accepted = 0;
    for (int b = 0; b < n; b += MOD_BATCH) {
        char src[16384];
        size_t len = (size_t)snprintf(src, sizeof src, ".launch k grid=(1) block=(1) args=()\n.entry k\n{\n"
                                      "    .reg .b16 %%h<4>;\n    .reg .b32 %%r<4>;\n    .reg .b64 %%rd<4>;\n"
                                      "    .reg .f32 %%f<4>;\n    .reg .f64 %%fd<4>;\n    .reg .pred %%p<4>;\n");
        for (int i = b; i < n && i < b + MOD_BATCH; i++) len += (size_t)snprintf(src + len, sizeof src - len, "    %s\n", forms[i]);
        snprintf(src + len, sizeof src - len, "    ret;\n}\n");
        DiagList dl = { 0 };
        Program *p = asm_assemble("t.s", src, strlen(src), NULL, &dl);
        uint8_t rejected[MOD_BATCH] = { 0 };
        for (int d = 0; d < dl.n; d++) {
            int k = dl.v[d].line - MOD_FIRST_LINE;
            if (k >= 0 && k < MOD_BATCH) rejected[k] = 1;
        }
        for (int i = b; i < n && i < b + MOD_BATCH; i++) {
            int ok = !rejected[i - b];
            accepted += ok;
            if (ok == verdict[i]) continue;
            if (wrong++ < 20) {
                const char *why = "";
                for (int d = 0; d < dl.n; d++) if (dl.v[d].line - MOD_FIRST_LINE == i - b) why = dl.v[d].msg;
                print_error("%s: ptxas %s it, gpusim %s it %s\n", forms[i], verdict[i] ? "takes" : "rejects",
                            ok ? "takes" : "rejects:", why);
            }
        }
        program_free(p);
        diag_free(&dl);
    }
    assert_int_equal(accepted, 2263);   /* as ptxas */
    assert_int_equal(wrong, 0);
}

/* An integer buffer's numbers are kept exactly, as its elements read them
 * (the first versions kept doubles: 0x7fffffffffffffff became 2^63, and -1
 * or any .u64 above 2^63 became 0). */
static void test_buffer_integers_exact(void **state)
{
    (void)state;
    Program *p = ok(".buffer a .u64[4] values(0xffffffffffffffff, -1, 0x7fffffffffffffff, 9007199254740993)\n"
                    ".buffer b .u32[2] values(-1, 4294967295)\n"
                    ".buffer c .s8[2] values(255, -128)\n"
                    ".buffer d .u64[2] fill(0x8000000000000001)\n"
                    ".buffer e .s64[2] random(seed=3, min=-9223372036854775807, max=9223372036854775807)\n"
                    ".buffer f .u64[2] random(min=0, max=0xffffffffffffffff)\n"
                    ".buffer g .u16[2] iota(65535, -1)\n"
                    ".entry k\n{\n    ret;\n}\n");
    const BufferSpec *b = p->buffers;
    assert_true(b[0].ivalues[0] == -1 && b[0].ivalues[1] == -1);           /* the same 64 bits */
    assert_true(b[0].ivalues[2] == INT64_MAX && b[0].ivalues[3] == 9007199254740993ll);
    assert_true(b[1].ivalues[0] == 4294967295ll && b[1].ivalues[1] == 4294967295ll);   /* as a .u32 reads it */
    assert_true(b[2].ivalues[0] == -1 && b[2].ivalues[1] == -128);          /* as an .s8 reads it */
    assert_true(b[3].ivalue == (int64_t)0x8000000000000001ull);
    assert_true(b[4].ilo == -INT64_MAX && b[4].ihi == INT64_MAX);
    assert_true(b[5].ilo == 0 && b[5].ihi == -1);                          /* unsigned: 0 to 2^64 - 1 */
    assert_true(b[6].ilo == 65535 && b[6].ihi == -1);                      /* a step is any integer */
    program_free(p);
    /* what does not fit, or would be rounded: errors at the number */
    bad(".buffer a .u8[1] values(256)\n.entry k\n{\n    ret;\n}\n", 1, 25,
        "values(): 256 does not fit .u8 (-128 to 255: an element keeps the low 8 bits)");
    bad(".buffer a .s16[1] fill(-32769)\n.entry k\n{\n    ret;\n}\n", 1, 24, "fill(): -32769 does not fit .s16");
    bad(".buffer a .u32[1] values(1.5)\n.entry k\n{\n    ret;\n}\n", 1, 26,
        "values(): a .u32 buffer holds whole numbers; this one has a fraction or an exponent");
    bad(".buffer a .s32[4] iota(0, 0.5)\n.entry k\n{\n    ret;\n}\n", 1, 27, "iota(): a .s32 buffer holds whole numbers");
    bad(".buffer a .u32[4] random(min=-1, max=5)\n.entry k\n{\n    ret;\n}\n", 1, 30,
        "random(): -1 is outside .u32 (0 to 4294967295)");
    bad(".buffer a .s8[4] random(min=-129)\n.entry k\n{\n    ret;\n}\n", 1, 29, "random(): -129 is outside .s8 (-128 to 127)");
    bad(".buffer a .u64[4] random(min=-1)\n.entry k\n{\n    ret;\n}\n", 1, 30, "random(): -1 is outside .u64");
    bad(".buffer a .u16[4] random(min=9, max=3)\n.entry k\n{\n    ret;\n}\n", 1, 19, "random(): min is greater than max");
}

/* ---- expressions ------------------------------------------------------------ */

static int64_t eval(const char *expr)
{
    char src[512];
    snprintf(src, sizeof src, ".define X %s\n.entry k\n{\n    ret;\n}\n", expr);
    Program *p = ok(src);
    int64_t v = define_value(p, "X");
    program_free(p);
    return v;
}

static void test_expr_precedence(void **state)
{
    (void)state;
    assert_int_equal(eval("1+2*3"), 7);
    assert_int_equal(eval("(1+2)*3"), 9);
    assert_int_equal(eval("10-4-3"), 3);                      /* left associative */
    assert_int_equal(eval("64/4/2"), 8);
    assert_int_equal(eval("17%5*2"), 4);
    assert_int_equal(eval("1<<4+1"), 32);                     /* + binds tighter than << */
    assert_int_equal(eval("(1<<4)+1"), 17);
    assert_int_equal(eval("256>>2>>1"), 32);
    assert_int_equal(eval("6&3|8"), 10);                      /* & before | */
    assert_int_equal(eval("6^3&1"), 7);                       /* & before ^ */
    assert_int_equal(eval("1|2^3"), 1);                       /* ^ before | */
    assert_int_equal(eval("-3*-2"), 6);
    assert_int_equal(eval("~0"), -1);
    assert_true(eval("-9223372036854775808") == INT64_MIN);       /* INT64_MIN written out, as in C (it was an overflow) */
    assert_true(eval("-9223372036854775808 + 5") == INT64_MIN + 5);
    assert_int_equal(eval("!0 + !5"), 1);
    assert_int_equal(eval("-7/2"), -3);                       /* C division truncates */
    assert_int_equal(eval("-7%3"), -1);
    assert_int_equal(eval("((((2))))"), 2);
    assert_int_equal(eval("0x10 + 010 + 0b10 + 10U"), 16 + 8 + 2 + 10);
    assert_int_equal(eval("-0x7fffffffffffffff-1"), INT64_MIN);
    assert_int_equal(eval("0x7fffffffffffffff"), INT64_MAX);
}

static void test_expr_min_max_shifts(void **state)
{
    (void)state;
    assert_int_equal(eval("min(3, 9)"), 3);
    assert_int_equal(eval("max(3, 9)"), 9);
    assert_int_equal(eval("max(-1, min(4, 2*3))"), 4);
    assert_int_equal(eval("min(1,2)+max(1,2)*10"), 21);
    assert_int_equal(eval("1<<63>>63"), -1);                  /* >> is arithmetic */
    assert_int_equal(eval("1<<0"), 1);
}

static void test_expr_defines(void **state)
{
    (void)state;
    /* used before their definition, nested, and in directives and operands */
    Program *p = ok(".define TOTAL (ROWS*COLS)\n"
                    ".define ROWS (COLS+2)\n"
                    ".define COLS 4\n"
                    ".define HALF TOTAL/2\n"
                    ".buffer m .f32[TOTAL] zero\n"
                    ".entry k\n{\n"
                    "    .shared .f32 s[HALF];\n"
                    "    mov.u32 %r1, (HALF-1);\n"
                    "    add.u32 %r1, %r1, COLS;\n"
                    "    ret;\n}\n");
    assert_int_equal(define_value(p, "COLS"), 4);
    assert_int_equal(define_value(p, "ROWS"), 6);
    assert_int_equal(define_value(p, "TOTAL"), 24);
    assert_int_equal(define_value(p, "HALF"), 12);
    assert_int_equal(p->buffers[0].count, 24);
    assert_int_equal(find_var(p, "s")->size, 48);
    assert_int_equal(p->entries[0].code[0].opd[1].imm, 11);
    assert_int_equal(p->entries[0].code[1].opd[2].imm, 4);
    program_free(p);
}

/* ---- declarations, variables, literals ------------------------------------------- */

static void test_reg_declarations(void **state)
{
    (void)state;
    Program *p = ok(".entry k\n{\n"
                    "    .reg .b32 %r<44>;\n"
                    "    .reg .pred %p<3>;\n"
                    "    .reg .u64 %addr, %acc;\n"
                    "    .reg .f32 %val;\n"
                    "    .reg .u8 %byte;\n"
                    "    .reg .b16 %h<2>;\n"
                    "    .reg .f64 %r<2>;\n"        /* %r0, %r1 exist already: kept */
                    "    mov.u64 %addr, 1;\n"
                    "    mov.u32 %r43, 2;\n"
                    "    add.u16 %byte, %h1, 3;\n"
                    "    setp.eq.u32 %p2, %r43, 2;\n"
                    "    mov.f32 %val, 1.0;\n"
                    "    ret;\n}\n");
    const Entry *e = &p->entries[0];
    assert_int_equal(e->nregs, 44 + 2 + 1 + 1 + 2);
    assert_int_equal(e->npreds, 3);
    assert_int_equal(find_reg(e, "%r43")->bits, 32);
    assert_int_equal(find_reg(e, "%r0")->bits, 32);           /* first declaration wins */
    assert_int_equal(find_reg(e, "%addr")->bits, 64);
    assert_int_equal(find_reg(e, "%addr")->type, T_U64);
    assert_int_equal(find_reg(e, "%acc")->used, 0);
    assert_int_equal(find_reg(e, "%byte")->bits, 16);         /* 8-bit registers take 16 */
    assert_int_equal(find_reg(e, "%h1")->bits, 16);
    assert_null(find_reg(e, "%r44"));
    assert_null(find_reg(e, "%h2"));
    assert_int_equal(find_reg(e, "%p2")->bits, 1);
    /* used: %addr (2) + %r43 + %byte + %h1 + %val = 6; predicates do not count */
    assert_int_equal(e->regs_per_thread, 6);
    program_free(p);
}

static void test_undeclared_conventional_registers(void **state)
{
    (void)state;
    Program *p = ok(".entry k\n{\n"
                    "    mov.u32 %r7, 1;\n"
                    "    mov.u64 %rd2, 1;\n"
                    "    mov.f32 %f3, 1.0;\n"
                    "    mov.f64 %fd4, 1.0;\n"
                    "    mov.u16 %rs5, 1;\n"
                    "    setp.eq.u32 %p6, %r7, 1;\n"
                    "    ret;\n}\n");
    const Entry *e = &p->entries[0];
    assert_int_equal(find_reg(e, "%r7")->bits, 32);
    assert_int_equal(find_reg(e, "%rd2")->bits, 64);
    assert_int_equal(find_reg(e, "%f3")->bits, 32);
    assert_int_equal(find_reg(e, "%fd4")->bits, 64);
    assert_int_equal(find_reg(e, "%rs5")->bits, 16);
    assert_int_equal(find_reg(e, "%p6")->bits, 1);
    assert_int_equal(e->regs_per_thread, 1 + 2 + 1 + 2 + 1);
    program_free(p);
}

static void test_nregs_stated(void **state)
{
    (void)state;
    Program *p = ok(".entry k\n.nregs 63\n{\n    mov.u64 %rd1, 0;\n    ret;\n}\n");
    assert_int_equal(p->entries[0].regs_per_thread, 63);
    assert_int_equal(p->entries[0].regs_stated, 1);
    program_free(p);
    /* inside the body too; .maxnreg and .reqntid are accepted */
    p = ok(".entry k .maxnreg 32 .reqntid 64, 2\n{\n    .nregs 40\n    ret;\n}\n");
    assert_int_equal(p->entries[0].regs_per_thread, 40);
    assert_int_equal(p->entries[0].reqntid[0], 64);
    assert_int_equal(p->entries[0].reqntid[1], 2);
    assert_int_equal(p->entries[0].reqntid[2], 1);
    program_free(p);
}

static void test_variables(void **state)
{
    (void)state;
    Program *p = ok(".const .align 8 .u32 ctab[3] = {1, -2, 0x10};\n"
                    ".const .f32 cf[2] = {1.5, 0f3F800000};\n"
                    ".const .align 16 .b8 pad[5];\n"
                    ".const .f64 cd[1] = {-0.5};\n"
                    ".shared .align 8 .u64 msh[2];\n"
                    ".entry k\n{\n"
                    "    .shared .align 4 .f32 tile[16][16];\n"
                    "    .shared .u8 flag[3];\n"
                    "    .shared .align 16 .f64 dd[2];\n"
                    "    .local .u32 scratch[5];\n"
                    "    .local .align 8 .b8 buf[3];\n"
                    "    mov.u64 %rd1, tile;\n"
                    "    mov.u32 %r1, tile+8;\n"
                    "    ld.shared.f32 %f1, [tile+8];\n"
                    "    ld.const.u32 %r2, [ctab+4];\n"
                    "    ld.shared.u64 %rd2, [msh];\n"
                    "    st.local.u32 [scratch+16], %r2;\n"
                    "    ret;\n}\n");
    /* .const: one module image, in declaration order */
    const Var *v = find_var(p, "ctab");
    assert_int_equal(v->space, SP_CONST);
    assert_int_equal(v->entry, -1);
    assert_int_equal(v->offset, 0);
    assert_int_equal(v->size, 12);
    assert_int_equal(v->align, 8);
    assert_int_equal(find_var(p, "cf")->offset, 12);          /* natural .f32 alignment */
    assert_int_equal(find_var(p, "cf")->align, 4);
    assert_int_equal(find_var(p, "pad")->offset, 32);         /* 20 rounded up to 16 */
    assert_int_equal(find_var(p, "cd")->offset, 40);          /* 37 rounded up to 8 */
    assert_int_equal(p->const_bytes, 48);
    static const uint8_t image[20] = {
        1, 0, 0, 0, 0xFE, 0xFF, 0xFF, 0xFF, 0x10, 0, 0, 0,   /* 1, -2, 16 as .u32 */
        0, 0, 0xC0, 0x3F, 0, 0, 0x80, 0x3F,                 /* 1.5f, 1.0f */
    };
    assert_memory_equal(p->const_data, image, sizeof image);
    double d;
    memcpy(&d, p->const_data + 40, 8);
    assert_true(d == -0.5);
    /* .shared: module variables first, then the entry's */
    assert_int_equal(find_var(p, "msh")->offset, 0);
    assert_int_equal(find_var(p, "msh")->entry, -1);
    v = find_var(p, "tile");
    assert_int_equal(v->entry, 0);
    assert_int_equal(v->offset, 16);
    assert_int_equal(v->size, 1024);                          /* [16][16] .f32 */
    assert_int_equal(v->line, 8);
    assert_int_equal(v->col, 27);
    assert_int_equal(find_var(p, "flag")->offset, 1040);
    assert_int_equal(find_var(p, "flag")->align, 1);
    assert_int_equal(find_var(p, "dd")->offset, 1056);        /* 1043 rounded up to 16 */
    assert_int_equal(p->entries[0].shared_bytes, 1072);
    /* .local: per thread */
    assert_int_equal(find_var(p, "scratch")->offset, 0);
    assert_int_equal(find_var(p, "buf")->offset, 24);         /* 20 rounded up to 8 */
    assert_int_equal(p->entries[0].local_bytes, 27);
    /* addressing */
    const Entry *e = &p->entries[0];
    const Instr *in = &e->code[0];
    assert_int_equal(in->opd[1].kind, OPD_SYM);
    assert_string_equal(p->vars[in->opd[1].sym].name, "tile");
    assert_int_equal(in->opd[1].imm, 0);
    assert_int_equal(e->code[1].opd[1].imm, 8);
    in = &e->code[2];
    assert_int_equal(in->opd[1].kind, OPD_MEM);
    assert_int_equal(in->opd[1].r[0], REG_NONE);
    assert_string_equal(p->vars[in->opd[1].sym].name, "tile");
    assert_int_equal(in->opd[1].imm, 8);
    assert_int_equal(in->opd[1].is_param, 0);
    assert_string_equal(p->vars[e->code[3].opd[1].sym].name, "ctab");
    assert_int_equal(e->code[3].opd[1].imm, 4);
    assert_int_equal(e->code[5].opd[0].imm, 16);
    program_free(p);
}

static void test_shared_per_entry(void **state)
{
    (void)state;
    /* each entry has its own shared window; names may repeat across entries */
    Program *p = ok(".entry a\n{\n    .shared .f32 s[8];\n    ret;\n}\n"
                    ".entry b\n{\n    .shared .u8 s[3];\n    .shared .u32 t[1];\n    ret;\n}\n");
    assert_int_equal(p->nentries, 2);
    assert_int_equal(p->entries[0].shared_bytes, 32);
    assert_int_equal(p->entries[1].shared_bytes, 8);          /* 3, aligned to 4, + 4 */
    assert_int_equal(program_find_entry(p, "b"), 1);
    assert_int_equal(program_find_entry(p, "c"), -1);
    program_free(p);
}

static void test_literals(void **state)
{
    (void)state;
    Program *p = ok(IN_ENTRY("mov.f32 %f1, 0f3F800000;\n"
                             "    mov.f64 %fd1, 0d3FF0000000000000;\n"
                             "    mov.f32 %f2, 1.25e2;\n"
                             "    mov.f64 %fd2, 0.1;\n"
                             "    mov.f32 %f3, 0.1;\n"
                             "    mov.u32 %r1, 0x1F;\n"
                             "    mov.u32 %r2, 017;\n"
                             "    mov.u32 %r3, 0b101;\n"
                             "    mov.u32 %r4, 42U;\n"
                             "    mov.u32 %r5, 0xffffffffU;\n"
                             "    mov.s32 %r6, -2147483648;\n"
                             "    mov.u64 %rd3, 18446744073709551615;\n"
                             "    mov.f32 %f4, 3;\n"
                             "    mov.f64 %fd5, -0f40000000;"));
    const Instr *c = p->entries[0].code;
    assert_int_equal(c[0].opd[1].imm, 0x3F800000);
    assert_int_equal((uint64_t)c[1].opd[1].imm, 0x3FF0000000000000ull);
    assert_int_equal(c[2].opd[1].imm, 0x42FA0000);            /* 125.0f */
    double d;
    uint64_t b64 = (uint64_t)c[3].opd[1].imm;
    memcpy(&d, &b64, 8);
    assert_true(d == 0.1);
    float f;
    uint32_t b32 = (uint32_t)c[4].opd[1].imm;
    memcpy(&f, &b32, 4);
    assert_true(f == 0.1f);                                   /* rounded to f32 once */
    assert_int_equal(c[5].opd[1].imm, 31);
    assert_int_equal(c[6].opd[1].imm, 15);                    /* octal, as in PTX */
    assert_int_equal(c[7].opd[1].imm, 5);
    assert_int_equal(c[8].opd[1].imm, 42);
    assert_int_equal(c[9].opd[1].imm, 0xffffffff);
    assert_int_equal(c[10].opd[1].imm, INT32_MIN);
    assert_int_equal(c[11].opd[1].imm, -1);                   /* all 64 bits set */
    assert_int_equal(c[12].opd[1].imm, 0x40400000);           /* integer 3 into .f32 */
    assert_int_equal((uint64_t)c[13].opd[1].imm, 0xC000000000000000ull);   /* -2.0 widened */
    program_free(p);
}

static void test_guards_and_labels(void **state)
{
    (void)state;
    Program *p = ok(".entry k\n{\n"
                    "    setp.eq.u32 %p1, %r1, 0;\n"
                    "@%p1 bra $L__BB0_2;\n"
                    "    @!%p1 add.s32 %r1, %r1, 1;\n"
                    "$L__BB0_2: ret;\n"
                    "END:\n"
                    "}\n");
    const Entry *e = &p->entries[0];
    assert_int_equal(e->ncode, 4);
    assert_int_equal(label_pc(e, "$L__BB0_2"), 3);            /* label and instruction on one line */
    assert_int_equal(label_pc(e, "END"), 4);                  /* at the very end: pc == ncode */
    assert_int_equal(e->code[1].guard_neg, 0);
    assert_int_equal(e->code[1].col, 1);
    assert_int_equal(e->code[2].guard_neg, 1);
    assert_int_equal(e->code[2].col, 5);
    assert_int_equal(e->code[3].line, 6);
    assert_int_equal(e->code[3].col, 12);
    assert_int_equal(e->code[0].guard, REG_NONE);
    program_free(p);
}

static void test_address_forms(void **state)
{
    (void)state;
    Program *p = ok(".define OFF 8\n" IN_ENTRY("ld.global.u32 %r1, [%rd1+-4];\n"
                                               "    ld.global.u32 %r1, [%rd1-4];\n"
                                               "    ld.global.u32 %r1, [%rd1+OFF*2-1];\n"
                                               "    ld.global.u32 %r1, [%rd1+(OFF<<1)];\n"
                                               "    ld.global.u32 %r1, [0x100];\n"
                                               "    ld.global.u32 %r1, [OFF];\n"
                                               "    ld.shared.u32 %r1, [%r2+2147483647];"));
    const Instr *c = p->entries[0].code;
    assert_int_equal(c[0].opd[1].imm, -4);
    assert_int_equal(c[1].opd[1].imm, -4);
    assert_int_equal(c[2].opd[1].imm, 15);
    assert_int_equal(c[3].opd[1].imm, 16);
    assert_int_equal(c[4].opd[1].r[0], REG_NONE);
    assert_int_equal(c[4].opd[1].sym, -1);
    assert_int_equal(c[4].opd[1].imm, 256);
    assert_int_equal(c[5].opd[1].imm, 8);
    assert_int_equal(c[6].opd[1].imm, INT32_MAX);
    program_free(p);
}

static void test_narrow_types_accept_wide_registers(void **state)
{
    (void)state;
    /* PTX: 8- and 16-bit operations may use wider registers; immediates are
     * still range-checked against the type */
    Program *p = ok(IN_ENTRY("add.u16 %r1, %r2, 65535;\n"
                             "    ld.global.u8 %r3, [%rd1];\n"
                             "    cvt.u16.u32 %r4, %r3;\n"
                             "    add.s16 %rs1, %rs2, -32768;"));
    assert_int_equal(p->entries[0].code[0].opd[2].imm, 65535);
    program_free(p);
}

static void test_multiple_entries_and_nvcc_noise(void **state)
{
    (void)state;
    Program *p = ok(".version 8.0\n.target sm_80\n.address_size 64\n"
                    "// comment\n.visible .entry first()\n{\n    ret;\n}\n"
                    ".weak .entry second(.param .u32 x)\n{\n"
                    "    .loc 1 2 3\n"
                    "    ld.param.u32 %r1, [x];\n"
                    "    exit;\n}\n");
    assert_int_equal(p->nentries, 2);
    assert_string_equal(p->entries[0].name, "first");
    assert_int_equal(p->entries[0].nparams, 0);
    assert_string_equal(p->entries[1].name, "second");
    assert_int_equal(p->entries[1].ncode, 2);
    program_free(p);
}

static void test_crlf_and_bom(void **state)
{
    (void)state;
    /* Windows line ends and a UTF-8 byte-order mark are not text */
    Program *p = ok("\xEF\xBB\xBF.define N 4\r\n.buffer b .u32[N]\r\n.entry k\r\n{\r\n    ret;\r\n}\r\n");
    assert_int_equal(p->buffers[0].count, 4);
    assert_int_equal(p->entries[0].code[0].line, 5);
    int len;
    program_line(p, 5, &len);
    assert_int_equal(len, 8);                                 /* "    ret;" without the \r */
    program_free(p);
    /* columns count from after the mark */
    bad("\xEF\xBB\xBF.entri k\n", 1, 1, "unknown directive '.entri'");
    bad(".entry k\r\n{\r\n    add.s32 %r1, %r2;\r\n    ret;\r\n}\r\n", 3, 21, "too few operands");
}

/* An entry whose name is missing is still checked. */
static void test_nameless_entry_still_checked(void **state)
{
    (void)state;
    const char *src = ".entry (.param .u32 a)\n{\n    foo.s32 %r1;\n    ret;\n}\n";
    assert_int_equal(bad(src, 1, 8, "expected the entry's name after .entry, got '('"), 2);
    DiagList dl = { 0 };
    assert_null(asm_assemble("t.s", src, strlen(src), NULL, &dl));
    assert_int_equal(dl.v[1].line, 3);
    assert_int_equal(dl.v[1].col, 5);
    assert_non_null(strstr(dl.v[1].msg, "unknown opcode 'foo'"));
    diag_free(&dl);
}

/* ---- malformed input: one named test per case -------------------------------- */

typedef struct BadCase {
    const char *name;
    const char *src;
    int line, col;
    const char *words;
} BadCase;

static const BadCase bad_cases[] = {
    { "unknown opcode, did you mean", IN_ENTRY("ad.s32 %r1, %r2, %r3;"), 3, 5,
      "unknown opcode 'ad' (did you mean 'add'?)" },
    { "unknown opcode, no suggestion", IN_ENTRY("frobnicate.s32 %r1;"), 3, 5, "unknown opcode 'frobnicate'" },
    { "misspelt modifier, did you mean", IN_ENTRY("ld.glbal.f32 %f1, [%rd1];"), 3, 5,
      "unknown modifier '.glbal' in ld (did you mean '.global'?)" },
    { "modifier of another opcode", IN_ENTRY("add.global.s32 %r1, %r2, %r3;"), 3, 5,
      "'.global' is not a modifier of add" },
    { "too few operands", IN_ENTRY("add.s32 %r1, %r2;"), 3, 21, "too few operands for add: it takes d, a, b" },
    { "too many operands", IN_ENTRY("add.s32 %r1, %r2, %r3, %r4;"), 3, 26,
      "too many operands for add: it takes d, a, b" },
    { "missing comma", IN_ENTRY("mov.u32 %r1 1;"), 3, 17, "expected ',' between operands of mov, got '1'" },
    { "missing semicolon", IN_ENTRY("mov.u32 %r1, 1"), 4, 5, "expected ';' after the instruction, got 'ret'" },
    { "bad type suffix: add.pred", IN_ENTRY("add.pred %p1, %p2, %p3;"), 3, 5, "add does not take .pred" },
    { "bad type suffix: shl.f32", IN_ENTRY("shl.f32 %f1, %f2, 1;"), 3, 5, "shl does not take .f32 (it takes .b16 .b32 .b64)" },
    { "missing type", IN_ENTRY("add %r1, %r2, %r3;"), 3, 5, "add needs a type suffix" },
    { "two types", IN_ENTRY("add.s32.s32 %r1, %r2, %r3;"), 3, 5, "add takes one type suffix, got 2" },
    { "cvt with one type", IN_ENTRY("cvt.f32 %f1, %r1;"), 3, 5, "cvt needs two types" },
    { "conflicting rounding", IN_ENTRY("add.rn.rz.f32 %f1, %f2, %f3;"), 3, 5,
      "'.rz' conflicts with an earlier modifier of add" },
    { "conflicting spaces", IN_ENTRY("ld.global.shared.u32 %r1, [%rd1];"), 3, 5,
      "'.shared' conflicts with an earlier modifier of ld" },
    { "conflicting .approx .full", IN_ENTRY("div.approx.full.f32 %f1, %f2, %f3;"), 3, 5,
      "'.full' conflicts with an earlier modifier of div" },
    { "undefined label, did you mean", ".entry k\n{\n    bra DONEE;\nDONE:\n    ret;\n}\n", 3, 9,
      "undefined label 'DONEE' (did you mean 'DONE'?)" },
    { "undefined label", IN_ENTRY("@%p1 bra NOWHERE;"), 3, 14, "undefined label 'NOWHERE'" },
    { "duplicate label", ".entry k\n{\nL1:\n    ret;\nL1:\n    ret;\n}\n", 5, 1,
      "duplicate label 'L1' (first defined at pc 0)" },
    { "undeclared register", IN_ENTRY("mov.u32 %foo, 1;"), 3, 13, "undeclared register '%foo'" },
    { "malformed register", IN_ENTRY("mov.u32 %r1, %;"), 3, 18, "mov: expected an operand, got '%'" },
    { "predicate as a value", IN_ENTRY("add.s32 %r1, %p1, 1;"), 3, 18,
      "'%p1' is a predicate; add needs a 32-bit register here" },
    { "value as a predicate", IN_ENTRY("selp.b32 %r1, %r2, %r3, %r4;"), 3, 29,
      "selp needs a predicate here, but '%r4' is a 32-bit register" },
    { "value register as a guard", IN_ENTRY("@%r1 ret;"), 3, 6, "guard '%r1' is not a predicate register" },
    { "no register after @", IN_ENTRY("@ret;"), 3, 6, "expected a predicate register after '@', got 'ret'" },
    { "'!' on a value register", IN_ENTRY("add.s32 %r1, !%r2, 1;"), 3, 18, "'!' negates predicates only" },
    { "64-bit register in a .u32 op", IN_ENTRY("add.u32 %r1, %rd1, 1;"), 3, 18,
      "'%rd1' is a 64-bit register; add.u32 needs a 32-bit register here" },
    { "32-bit destination of mul.wide", IN_ENTRY("mul.wide.s32 %r1, %r2, %r3;"), 3, 18,
      "'%r1' is a 32-bit register; mul.wide.s32 needs a 64-bit register here" },
    { "immediate out of range .u16", IN_ENTRY("add.u16 %rs1, %rs2, 70000;"), 3, 25,
      "add: immediate 70000 does not fit in .u16" },
    { "immediate out of range .s32", IN_ENTRY("add.s32 %r1, %r2, 4294967296;"), 3, 23,
      "add: immediate 4294967296 does not fit in .s32" },
    { "immediate below range .s32", IN_ENTRY("add.s32 %r1, %r2, -2147483649;"), 3, 23,
      "add: immediate -2147483649 does not fit in .s32" },
    { "integer literal over 64 bits", IN_ENTRY("add.s64 %rd1, %rd2, 0x10000000000000000;"), 3, 25,
      "integer literal does not fit in 64 bits" },
    { "float immediate for an integer", IN_ENTRY("add.s32 %r1, %r2, 1.5;"), 3, 23,
      "add: floating-point immediate where .s32 is expected" },
    { "0f literal with 4 digits", IN_ENTRY("mov.f32 %f1, 0f3F80;"), 3, 18, "0f literal needs exactly 8 hex digits" },
    { "0d literal with 8 digits", IN_ENTRY("mov.f64 %fd1, 0d3F800000;"), 3, 19, "0d literal needs exactly 16 hex digits" },
    { "malformed number", IN_ENTRY("mov.u32 %r1, 12ab;"), 3, 18, "malformed number" },
    { "octal digit 8", IN_ENTRY("mov.u32 %r1, 018;"), 3, 18, "malformed number" },
    { "stray character", IN_ENTRY("mov.u32 %r1, #1;"), 3, 18, "unexpected '#'" },
    { "special register written", IN_ENTRY("mov.u32 %tid.x, 1;"), 3, 13,
      "mov: special register '%tid.x' cannot be written" },
    { "special register as a float", IN_ENTRY("add.f32 %f1, %f2, %tid.x;"), 3, 23,
      "add: special register '%tid.x' is an integer" },
    { "unterminated comment", ".entry k\n{\n    ret;\n}\n/* never closed\n", 5, 1, "unterminated /* comment" },
    { "unterminated comment inside an entry", ".entry k\n{\n    ret; /* oops\n}\n", 3, 10, "unterminated /* comment" },
    { "unterminated string", ".buffer a .f32[4] file(\"abc\n.entry k\n{\n    ret;\n}\n", 1, 24, "unterminated string" },
    { "unknown directive, did you mean", ".entri k\n{\n    ret;\n}\n", 1, 1,
      "unknown directive '.entri' (did you mean '.entry'?)" },
    { "unknown directive in an entry", IN_ENTRY(".regg .b32 %x;"), 3, 5, "unknown directive '.regg' inside an entry" },
    { "text outside an entry", "mov.u32 %r1, 1;\n.entry k\n{\n    ret;\n}\n", 1, 1,
      "expected a directive (.entry, .define, .buffer ...), got 'mov.u32'" },
    { ".define cycle", ".define A B+1\n.define B A*2\n.entry k\n{\n    ret;\n}\n", 2, 11, ".define cycle: A -> B -> A" },
    { ".define self cycle", ".define A A\n.entry k\n{\n    ret;\n}\n", 1, 11, ".define cycle: A -> A" },
    { ".define cycle of three", ".define A B\n.define B C\n.define C A\n.entry k\n{\n    ret;\n}\n", 3, 11,
      ".define cycle: A -> B -> C -> A" },
    { ".define twice", ".define A 1\n.define A 2\n.entry k\n{\n    ret;\n}\n", 2, 9, ".define A is given twice (first at line 1)" },
    { ".define without value", ".define A\n.entry k\n{\n    ret;\n}\n", 1, 1, ".define A has no value" },
    { ".define without name", ".define 5\n.entry k\n{\n    ret;\n}\n", 1, 9, "expected a name after .define, got '5'" },
    { "division by zero", ".define A (4/0)\n.entry k\n{\n    ret;\n}\n", 1, 13, "division by zero in expression" },
    { "remainder by zero", ".define Z 0\n.buffer b .u32[5 % Z]\n.entry k\n{\n    ret;\n}\n", 2, 18, "division by zero in expression" },
    /* as in PTX, %name is a register: a remainder needs a space after the % */
    { "% glued to a name", ".define Z 3\n.buffer b .u32[5%Z]\n.entry k\n{\n    ret;\n}\n", 2, 17,
      "expected ']' after the element count, got '%Z'" },
    { "overflow in +", ".define BIG 0x7fffffffffffffff\n.define B (BIG+1)\n.entry k\n{\n    ret;\n}\n", 2, 15,
      "integer overflow in expression" },
    { "overflow in *", ".define B (1<<62)*4\n.entry k\n{\n    ret;\n}\n", 1, 18, "integer overflow in expression" },
    { "overflow in negation", ".define B -(-0x7fffffffffffffff-1)\n.entry k\n{\n    ret;\n}\n", 1, 11,
      "integer overflow in expression" },
    { "overflow below INT64_MIN", ".define B -9223372036854775808 - 1\n.entry k\n{\n    ret;\n}\n", 1, 32,
      "integer overflow in expression" },
    { "shift out of range", ".define S (1<<64)\n.entry k\n{\n    ret;\n}\n", 1, 13, "shift by 64 is out of range [0,63]" },
    { "unknown name in expression", ".define A (B+1)\n.entry k\n{\n    ret;\n}\n", 1, 12,
      "unknown name 'B' in expression (no .define gives it)" },
    { "float in a directive expression", ".buffer a .f32[2.5]\n.entry k\n{\n    ret;\n}\n", 1, 16,
      "floating-point number '2.5' where an integer is expected" },
    { ".launch of an unknown entry", ".launch kk grid=1 block=1\n.entry k\n{\n    ret;\n}\n", 1, 9,
      ".launch of unknown entry 'kk' (did you mean 'k'?)" },
    { ".launch with too many args", ".buffer x .f32[4]\n.launch k grid=1 block=1 args=(x, 3)\n"
      ".entry k (.param .u64 a)\n{\n    ret;\n}\n", 2, 9, ".launch k passes 2 arguments; the entry takes 1" },
    { ".launch with too few args", ".launch k grid=1 block=1\n.entry k (.param .u64 a)\n{\n    ret;\n}\n", 1, 9,
      ".launch k passes 0 arguments; the entry takes 1" },
    { "buffer passed to a .u32 param", ".buffer x .f32[4]\n.launch k grid=1 block=1 args=(x)\n"
      ".entry k (.param .u32 a)\n{\n    ret;\n}\n", 2, 32,
      "argument 1 of .launch k is buffer 'x', but parameter 'a' is .u32 (pointers are .u64)" },
    { "float passed to a .u32 param", ".launch k grid=1 block=1 args=(1.5)\n"
      ".entry k (.param .u32 a)\n{\n    ret;\n}\n", 1, 32,
      "argument 1 of .launch k is a floating-point number, but parameter 'a' is .u32" },
    { "int too big for a .u32 param", ".launch k grid=1 block=1 args=(4294967296)\n"
      ".entry k (.param .u32 a)\n{\n    ret;\n}\n", 1, 32, "4294967296 does not fit parameter 'a' (.u32)" },
    { "unknown buffer in .launch args", ".buffer x .f32[4]\n.launch k grid=1 block=1 args=(xx)\n"
      ".entry k (.param .u64 a)\n{\n    ret;\n}\n", 2, 32, "unknown buffer or .define 'xx' (did you mean 'x'?)" },
    { "buffer used before its .buffer", ".launch k grid=1 block=1 args=(x)\n.buffer x .f32[4]\n"
      ".entry k (.param .u64 a)\n{\n    ret;\n}\n", 1, 32, "unknown buffer or .define 'x' (buffers must be declared before use)" },
    { "unknown buffer in .check", ".buffer x .f32[4]\n.check y\n.entry k\n{\n    ret;\n}\n", 2, 8,
      "unknown buffer 'y' (declare it with .buffer, or as a .global variable)" },
    { "unknown buffer in .check equals=", ".buffer x .f32[4]\n.check x equals=zz\n.entry k\n{\n    ret;\n}\n", 2, 17,
      "unknown buffer 'zz'" },
    { "unknown .check key", ".buffer x .f32[4]\n.check x bogus=1\n.entry k\n{\n    ret;\n}\n", 2, 10,
      ".check takes ref=, equals=, file=, tol= and rtol=, not 'bogus'" },
    { "grid with 4 dimensions", ".launch k grid=(1,2,3,4) block=1\n.entry k\n{\n    ret;\n}\n", 1, 23,
      "grid has at most 3 dimensions" },
    { "grid of 0", ".launch k grid=0 block=1\n.entry k\n{\n    ret;\n}\n", 1, 16, "grid dimension 0 is out of range" },
    { ".launch without grid", ".launch k block=1\n.entry k\n{\n    ret;\n}\n", 1, 9, ".launch needs grid=(...) and block=(...)" },
    { "unknown .launch key", ".launch k grid=1 block=1 foo=2\n.entry k\n{\n    ret;\n}\n", 1, 26,
      ".launch takes grid=, block=, args= and shared=, not 'foo'" },
    { "buffer declared twice", ".buffer a .f32[4]\n.buffer a .f32[4]\n.entry k\n{\n    ret;\n}\n", 2, 9,
      "buffer 'a' declared twice (first at line 1)" },
    { "buffer of 0 elements", ".buffer b .f32[0]\n.entry k\n{\n    ret;\n}\n", 1, 15, "buffer size 0 is out of range" },
    { "buffer of predicates", ".buffer c .pred[4]\n.entry k\n{\n    ret;\n}\n", 1, 11, "expected an element type" },
    { "unknown initialiser", ".buffer d .f32[4] rand\n.entry k\n{\n    ret;\n}\n", 1, 19,
      "unknown initialiser 'rand' (did you mean 'random'?) (zero, random(...), iota, fill(v), file(\"path\"), values(v, ...), expr(EXPR of i))" },
    { "values() too few", ".buffer v .f32[3] values(1, 2)\n.entry k\n{\n    ret;\n}\n", 1, 19,
      "values() gives 2 numbers, the buffer has 3 elements" },
    { "values() too many", ".buffer v .f32[2] values(1, 2, 3)\n.entry k\n{\n    ret;\n}\n", 1, 19,
      "values() gives 3 numbers, the buffer has 2 elements" },
    { "cp.async to global", IN_ENTRY("cp.async.ca.global [%rd1], [%rd2], 4;"), 3, 5,
      "cp.async copies from .global to .shared: write cp.async.ca.shared.global" },
    { "cp.async of 12 bytes", IN_ENTRY("cp.async.ca.shared.global [%r1], [%rd2], 12;"), 3, 46,
      "cp.async copies 4, 8 or 16 bytes, not 12" },
    { "cp.async.cg of 4 bytes", IN_ENTRY("cp.async.cg.shared.global [%r1], [%rd2], 4;"), 3, 46, "cp.async.cg copies 16 bytes" },
    { "div.f16", IN_ENTRY("div.rn.f16 %rs1, %rs2, %rs3;"), 3, 5, "div does not take .f16" },
    { "add.rz.f16", IN_ENTRY("add.rz.f16 %rs1, %rs2, %rs3;"), 3, 5, "add.f16 rounds with .rn only" },
    { ".f16 immediate", IN_ENTRY("add.f16 %rs1, %rs2, 1.0;"), 3, 25, "no .f16 immediates" },
    { "atom.add.f16 without .noftz", IN_ENTRY("atom.global.add.f16 %rs1, [%rd1], %rs2;"), 3, 5,
      "atom on .f16 is .add.noftz only (atom.add.noftz.f16)" },
    { "cvt from f16x2", IN_ENTRY("cvt.f32.f16x2 %f1, %r2;"), 3, 5, "cvt takes .f16x2/.bf16x2 only as the destination" },
    { "cvt.rm to f16x2", IN_ENTRY("cvt.rm.f16x2.f32 %r1, %f2, %f3;"), 3, 5, "cvt to .f16x2 needs .rn or .rz" },
    { "cvt to f16x2 with one source", IN_ENTRY("cvt.rn.f16x2.f32 %r1, %f2;"), 3, 30, "too few operands for cvt" },
    { "add.sat.bf16", IN_ENTRY("add.sat.bf16 %rs1, %rs2, %rs3;"), 3, 5, "add.bf16 takes no .sat" },
    { "min.NaN.f32", IN_ENTRY("min.NaN.f32 %f1, %f2, %f3;"), 3, 5, "min.NaN is supported on .f16 .f16x2 .bf16 .bf16x2" },
    { "mov.b32 pack of 32-bit registers", IN_ENTRY("mov.b32 %r1, {%r2, %r3};"), 3, 18,
      "mov.b32 {...}: %r2 is a 32-bit register; each of the 2 elements is 16 bits" },
    { "mov.u32 pack", IN_ENTRY("mov.u32 %r1, {%rs2, %rs3};"), 3, 18, "a register vector here needs mov.b32 or mov.b64" },
    { "set without types", IN_ENTRY("set.lt.u32 %r1, %r2, %r3;"), 3, 5, "set needs two types" },
    { "f16x2 buffer", ".buffer h .f16x2[4] zero\n.entry k\n{\n    ret;\n}\n", 1, 11, "declare its halves, .f16[2*N]" },
    { "match.sync.uni", IN_ENTRY("match.sync.uni.b32 %r1, %r2, 0xffffffff;"), 3, 5, "match.sync needs .any or .all" },
    { "redux.sync without an operation", IN_ENTRY("redux.sync.u32 %r1, %r2, 0xffffffff;"), 3, 5,
      "redux.sync needs .add, .min, .max (.u32 .s32) or .and, .or, .xor (.b32)" },
    { "redux.sync.and on .u32", IN_ENTRY("redux.sync.and.u32 %r1, %r2, 0xffffffff;"), 3, 5,
      "redux.sync.and/.or/.xor take .b32" },
    { "redux.sync.inc", IN_ENTRY("redux.sync.inc.u32 %r1, %r2, 0xffffffff;"), 3, 5,
      "redux.sync needs .add, .min, .max" },
    { "expr() with an unknown name", ".buffer x .s32[4] expr(i + j)\n.entry k\n{\n    ret;\n}\n", 1, 28,
      "unknown name 'j' in expression (no .define gives it)" },
    { "expr() unclosed", ".buffer x .s32[4] expr((i + 1)\n.entry k\n{\n    ret;\n}\n", 2, 1,
      "expected ')' to close expr(...), got end of line" },
    { "expr() with a float", ".buffer x .s32[4] expr(i * 0.5)\n.entry k\n{\n    ret;\n}\n", 1, 28,
      "expected an integer expression of i, got '0.5'" },
    { "random() key", ".buffer e .f32[4] random(sed=1)\n.entry k\n{\n    ret;\n}\n", 1, 26,
      "random() takes seed=, min= and max=, not 'sed'" },
    { "random() min > max", ".buffer f .f32[4] random(min=2, max=1)\n.entry k\n{\n    ret;\n}\n", 1, 19,
      "random(): min is greater than max" },
    { "junk after .buffer", ".buffer a .f32[4] zero extra\n.entry k\n{\n    ret;\n}\n", 1, 24,
      "unexpected 'extra' at the end of .buffer" },
    { "empty file", "", 0, 0, "the file is empty" },
    { "blank file", " \n\t\n", 0, 0, "the file is empty" },
    { "only comments", "// nothing here\n/* at all */\n", 0, 0, "no .entry in the file" },
    { "missing '}'", ".entry k\n{\n    ret;\n", 2, 1, "missing '}' at the end of entry k" },
    { "missing '{'", ".entry k\n    ret;\n", 2, 5, "expected '{' to open the body of k, got 'ret'" },
    { "entry without a name", ".entry (.param .u32 a)\n{\n    ret;\n}\n", 1, 8, "expected the entry's name after .entry" },
    { "entry defined twice", ".entry k\n{\n    ret;\n}\n.entry k\n{\n    ret;\n}\n", 5, 8, "entry 'k' defined twice" },
    { "parameter declared twice", ".entry k (.param .u64 a, .param .u32 a)\n{\n    ret;\n}\n", 1, 38,
      "parameter 'a' declared twice" },
    { "st.const", IN_ENTRY("st.const.u32 [%rd1], 1;"), 3, 5, "cannot store to .const memory" },
    { "st.param", IN_ENTRY("st.param.u32 [%rd1], 1;"), 3, 19, "st.param needs a .param name in brackets" },
    { "fma without rounding", IN_ENTRY("fma.f32 %f1, %f2, %f3, %f4;"), 3, 5, "fma needs a rounding modifier" },
    { "mul.s32 without .lo/.hi/.wide", IN_ENTRY("mul.s32 %r1, %r2, %r3;"), 3, 5,
      "integer mul needs .lo, .hi or .wide (mul.lo.s32)" },
    { "mul.lo on floats", IN_ENTRY("mul.lo.f32 %f1, %f2, %f3;"), 3, 5, "mul.f32 takes no .lo/.hi/.wide" },
    { "mul.wide.s64", IN_ENTRY("mul.wide.s64 %rd1, %rd2, %rd3;"), 3, 5, "mul.wide takes 16- or 32-bit types" },
    { "setp without comparison", IN_ENTRY("setp.s32 %p1, %r1, %r2;"), 3, 5, "setp needs a comparison" },
    { "setp.lo on floats", IN_ENTRY("setp.lo.f32 %p1, %f1, %f2;"), 3, 5, "unsigned comparisons (.lo .ls .hi .hs) are for integers" },
    { "setp.nan on integers", IN_ENTRY("setp.nan.s32 %p1, %r1, %r2;"), 3, 5, "unordered comparisons (.equ ... .nan) are for floating point" },
    { "ld.param on a register", IN_ENTRY("ld.param.u32 %r1, [%rd1];"), 3, 24,
      "ld.param needs a .param name in brackets" },
    { "parameter without ld.param", ".entry k (.param .u64 a)\n{\n    ld.global.u64 %rd1, [a];\n    ret;\n}\n", 3, 26,
      "parameter 'a' can only be read with ld.param" },
    { "variable in the wrong space", ".entry k\n{\n    .shared .f32 s[4];\n    ld.global.f32 %f1, [s];\n    ret;\n}\n", 4, 25,
      "s is a .shared variable, but the instruction accesses .global memory" },
    { "unknown name in an address", IN_ENTRY("ld.global.u32 %r1, [nope];"), 3, 25,
      "ld: unknown name 'nope' in address (not a register, parameter or variable)" },
    { "address offset out of range", IN_ENTRY("ld.global.u32 %r1, [%rd1+0x100000000];"), 3, 29,
      "ld: address offset 4294967296 is out of range" },
    { "16-bit address register", IN_ENTRY("ld.global.u32 %r1, [%rs1];"), 3, 25, "address register '%rs1' must be 32 or 64 bits" },
    { "ld.v4 with two registers", IN_ENTRY("ld.global.v4.f32 {%f1, %f2}, [%rd1];"), 3, 22,
      "ld.v4 takes exactly 4 registers, got 2" },
    { "ld.v2 with three registers", IN_ENTRY("ld.global.v2.f32 {%f1, %f2, %f3}, [%rd1];"), 3, 33,
      "ld.v2 takes exactly 2 registers" },
    { "vector without .v2/.v4", IN_ENTRY("ld.global.f32 {%f1, %f2}, [%rd1];"), 3, 19,
      "ld: a register vector needs .v2 or .v4" },
    { "ld.v4 without braces", IN_ENTRY("ld.global.v4.f32 %f1, [%rd1];"), 3, 22,
      "ld.v4 needs 4 registers in braces" },
    { "vector .param access", ".entry k (.param .u32 a)\n{\n    ld.param.v2.u32 {%r1, %r2}, [a];\n    ret;\n}\n", 3, 5,
      "vector access to .param space is not supported" },
    { "red.cas", IN_ENTRY("red.global.cas.b32 [%rd1], %r1;"), 3, 5, "red has no .cas; use atom.cas" },
    { "atom on .local", IN_ENTRY("atom.local.add.u32 %r1, [%rd1], 1;"), 3, 5, "atom works on .global or .shared memory" },
    { "atom without operation", IN_ENTRY("atom.global.u32 %r1, [%rd1], 1;"), 3, 5, "atom needs an operation" },
    { "atom.and on .s32", IN_ENTRY("atom.global.and.s32 %r1, [%rd1], 1;"), 3, 5, "atom.bitwise/exch takes .b types" },
    { "atom.inc on floats", IN_ENTRY("atom.global.inc.f32 %f1, [%rd1], 1.0;"), 3, 5,
      "atom on floating point supports .add .exch .min .max" },
    { "cvta without a space", IN_ENTRY("cvta.u64 %rd1, %rd2;"), 3, 5, "cvta needs a state space" },
    { "cvt.rni from an integer", IN_ENTRY("cvt.rni.s32.s32 %r1, %r2;"), 3, 5, "integer rounding (.rni .rzi .rmi .rpi) needs a floating-point source" },
    { "vote.ballot.pred", IN_ENTRY("vote.sync.ballot.pred %p1, %p2, -1;"), 3, 5, "vote.sync.ballot needs .b32" },
    { "vote without mode", IN_ENTRY("vote.sync.pred %p1, %p2, -1;"), 3, 5, "vote.sync needs .all, .any, .uni or .ballot" },
    { "shfl without mode", IN_ENTRY("shfl.sync.b32 %r1, %r2, 1, 31, -1;"), 3, 5, "shfl.sync needs .up, .down, .bfly or .idx" },
    { "variable address outside mov", ".entry k\n{\n    .shared .f32 sh[4];\n    add.u32 %r1, %r2, sh;\n    ret;\n}\n", 4, 23,
      "add: a variable's address can only be taken with mov or cvta" },
    { ".func without a name", ".func {\n    ret;\n}\n.entry k\n{\n    ret;\n}\n", 1, 7,
      "expected the function's name after .func, got '{'" },
    { ".global variable in an entry", IN_ENTRY(".global .f32 g[4];"), 3, 5,
      ".global variables belong at module scope, outside any entry" },
    { ".reg declared twice", IN_ENTRY(".reg .u32 %a, %a;"), 3, 19, "register '%a' declared twice" },
    { ".reg with a bad type", IN_ENTRY(".reg .q32 %b;"), 3, 10, "expected a type after .reg" },
    { ".reg count out of range", IN_ENTRY(".reg .b32 %x<70000>;"), 3, 18, "register count 70000 is out of range [0,65000]" },
    { ".reg of a special register", IN_ENTRY(".reg .u32 %tid.x;"), 3, 15, "'%tid.x' is a special register" },
    { ".align not a power of two", IN_ENTRY(".shared .align 3 .f32 s[4];"), 3, 20, ".align 3 is not a power of two in [1,4096]" },
    { "array without size", IN_ENTRY(".shared .f32 s[];"), 3, 20, "array s needs a size" },
    { "dynamic shared memory in two dimensions", IN_ENTRY(".extern .shared .f32 s[][2];"), 3, 30, "a dynamic shared array (.extern .shared NAME[]) has one dimension" },
    { "initializer on .shared", IN_ENTRY(".shared .u32 s[2] = {1, 2};"), 3, 25, "only .const and .global variables can have an initializer" },
    { "too many initializers", ".const .u32 c[2] = {1, 2, 3};\n.entry k\n{\n    ret;\n}\n", 1, 27,
      "too many initializers for c (2 elements)" },
    { "initializer out of range", ".const .u8 c[2] = {1, 300};\n.entry k\n{\n    ret;\n}\n", 1, 23,
      "initializer 300 does not fit in .u8" },
    { "negative initializer out of range", ".const .s16 c[1] = {-32769};\n.entry k\n{\n    ret;\n}\n", 1, 22,
      "initializer -32769 does not fit in .s16" },
    { "float initializer for integers", ".const .u32 c[2] = {1, 2.5};\n.entry k\n{\n    ret;\n}\n", 1, 24,
      "floating-point initializer for integer array c" },
    { "variable declared twice", IN_ENTRY(".shared .u32 s[2];\n    .local .u32 s[2];"), 4, 17, "'s' is declared twice" },
    { ".nregs out of range", ".entry k\n.nregs 300\n{\n    ret;\n}\n", 2, 8, ".nregs needs one value in [1,255]" },
    { "expression nested too deeply",
      ".define D ((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((("
      "((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((("
      "1\n.entry k\n{\n    ret;\n}\n", 1, 211, "expression nested too deeply" },   /* the 201st '(' */
};
enum { NBAD = sizeof bad_cases / sizeof bad_cases[0] };

static void test_bad_case(void **state)
{
    const BadCase *c = *state;
    /* one mistake, one error: no cascades, except where the mistake really
     * breaks two things (the comment swallows the entry's '}') */
    int want = strcmp(c->name, "unterminated comment inside an entry") == 0 ? 2 : 1;
    assert_int_equal(bad(c->src, c->line, c->col, c->words), want);
}

static void test_bad_case_count(void **state)
{
    (void)state;
    assert_true(NBAD >= 30);
}

static void test_define_override_errors(void **state)
{
    (void)state;
    const char *src = ".define NN 4\n.define SIZE 2\n.buffer a .f32[NN]\n.entry k\n{\n    ret;\n}\n";
    /* -D of a name with no .define, with a suggestion (not for one letter) */
    static const AsmDefine d1[] = { { "SIZ", "3" } };
    bad_opts(src, strlen(src), d1, 1, 0, 0, "SIZ: t.s has no .define SIZ (did you mean 'SIZE'?)");
    static const AsmDefine d0[] = { { "N", "3" } };
    bad_opts(src, strlen(src), d0, 1, 0, 0, "N: t.s has no .define N");
    /* a bad -D value is reported in the -D text, not the file */
    static const AsmDefine d2[] = { { "NN", "4 5" } };
    bad_opts(src, strlen(src), d2, 1, 1, 3, "unexpected '5' after the value of .define NN");
    static const AsmDefine d3[] = { { "NN", "2*(3" } };
    bad_opts(src, strlen(src), d3, 1, 1, 5, "expected ')' to close the expression");
    DiagList dl = { 0 };
    AsmOptions o = { d2, 1 };
    assert_null(asm_assemble("t.s", src, strlen(src), &o, &dl));
    assert_string_equal(dl.v[0].file, "-D");
    assert_null(dl.v[0].src);
    assert_int_equal(diag_count(&dl), 1);      /* the buffer using NN does not add noise */
    diag_free(&dl);
}

/* One broken .define is reported once, not again at every use. */
static void test_define_error_reported_once(void **state)
{
    (void)state;
    const char *src = ".define A (4/0)\n"
                      ".buffer x .f32[A]\n"
                      ".launch k grid=(A) block=A\n"
                      ".entry k\n{\n    mov.u32 %r1, A;\n    ret;\n}\n";
    assert_int_equal(bad(src, 1, 13, "division by zero"), 1);
    /* the same for a cycle, found at the first use */
    src = ".define A B\n.define B A\n.buffer x .f32[A]\n.entry k\n{\n    ret;\n}\n";
    assert_int_equal(bad(src, 2, 11, ".define cycle: A -> B -> A"), 1);
}

static void test_unterminated_string_reported_once(void **state)
{
    (void)state;
    assert_int_equal(bad(".buffer a .f32[4] file(\"abc\n.entry k\n{\n    ret;\n}\n", 1, 24, "unterminated string"), 1);
}

/* All errors are reported, not just the first, in source order per pass. */
static void test_all_errors_reported(void **state)
{
    (void)state;
    const char *src = ".entry k\n{\n"
                      "    add.s32 %r1, %r2;\n"         /* line 3 */
                      "    mov.u32 %r1, 1;\n"
                      "    sub.q32 %r1, %r2, %r3;\n"    /* line 5 */
                      "    mov.u32 %r2, 2;\n"
                      "    xor.b32 %r1, %r2, %p1;\n"    /* line 7 */
                      "    ret;\n}\n";
    DiagList dl = { 0 };
    assert_null(asm_assemble("t.s", src, strlen(src), NULL, &dl));
    assert_int_equal(dl.n, 3);
    assert_int_equal(dl.v[0].line, 3);
    assert_int_equal(dl.v[0].col, 21);
    assert_int_equal(dl.v[1].line, 5);
    assert_int_equal(dl.v[1].col, 5);
    assert_non_null(strstr(dl.v[1].msg, "unknown modifier '.q32' in sub (did you mean '.u32'?)"));
    assert_int_equal(dl.v[2].line, 7);
    assert_int_equal(dl.v[2].col, 23);
    assert_string_equal(dl.v[2].file, "t.s");
    assert_string_equal(dl.v[2].src, "    xor.b32 %r1, %r2, %p1;");
    diag_free(&dl);

    /* errors in host directives, the entry and end-of-file checks together;
     * labels are resolved at the end of their entry, launches and then
     * .check buffers (a .global below may be one) at the end of the file,
     * so those come after the errors of the lines that follow */
    src = ".buffer a .f32[0]\n"                       /* 1: size */
          ".launch nope grid=1 block=1\n"             /* 2: unknown entry (end of file) */
          ".entry k\n{\n"
          "    bra L;\n"                              /* 5: undefined label (end of entry) */
          "    foo.s32 %r1;\n"                        /* 6: unknown opcode */
          "    ret;\n}\n"
          ".check a\n";                               /* 9: a was never declared (end of file) */
    assert_null(asm_assemble("t.s", src, strlen(src), NULL, &dl));
    assert_int_equal(dl.n, 5);
    int want[][2] = { { 1, 15 }, { 6, 5 }, { 5, 9 }, { 2, 9 }, { 9, 8 } };
    for (int i = 0; i < 5; i++) {
        assert_int_equal(dl.v[i].line, want[i][0]);
        assert_int_equal(dl.v[i].col, want[i][1]);
    }
    diag_free(&dl);
}

/* An error inside braces must not end the entry: the lines after it are
 * still checked, and the entry's own '}' still closes it. */
static void test_recovery_inside_braces(void **state)
{
    (void)state;
    const char *src = ".const .u32 c[2] = {1, 2, 3};\n"                  /* 1: too many */
                      ".entry k\n{\n"
                      "    ld.global.v2.f32 {%f1, %f2, %f3}, [%rd1];\n"   /* 4: too many */
                      "    foo.s32 %r1;\n"                                /* 5 */
                      "    st.global.v2.f32 [%rd1], {%f1, %q};\n"         /* 6: undeclared */
                      "    ld.global.v2.f32 {%f1 %f2}, [%rd1];\n"         /* 7: no comma */
                      "    .shared .u32 s[2] = {1, 2};\n"                 /* 8: not .const */
                      "    bar.s32 %r1;\n"                                /* 9 */
                      "    ret;\n}\n"
                      ".entry j\n{\n    ret;\n}\n";
    DiagList dl = { 0 };
    assert_null(asm_assemble("t.s", src, strlen(src), NULL, &dl));
    static const int want[][2] = { { 1, 27 }, { 4, 33 }, { 5, 5 }, { 6, 36 }, { 7, 27 }, { 8, 25 }, { 9, 5 } };
    assert_int_equal(dl.n, 7);
    for (int i = 0; i < 7; i++) {
        assert_int_equal(dl.v[i].line, want[i][0]);
        assert_int_equal(dl.v[i].col, want[i][1]);
    }
    diag_free(&dl);
}

/* Random bytes, NULs included: no crash, errors reported, at most 100 kept. */
static void test_binary_garbage(void **state)
{
    (void)state;
    size_t n = 1 << 20;
    char *g = malloc(n);
    assert_non_null(g);
    uint32_t x = 12345;
    for (size_t i = 0; i < n; i++) { x = x * 1664525u + 1013904223u; g[i] = (char)(x >> 24); }
    g[0] = '\0';
    DiagList dl = { 0 };
    assert_null(asm_assemble("junk.bin", g, n, NULL, &dl));
    assert_int_equal(dl.n, DIAG_MAX_ERRORS);
    assert_true(dl.dropped > 0);
    assert_int_equal(diag_count(&dl), dl.n + dl.dropped);
    assert_int_equal(dl.v[0].line, 1);
    assert_int_equal(dl.v[0].col, 1);
    assert_string_equal(dl.v[0].msg, "unexpected byte 0x00");
    /* the printout survives it and says how many more there were */
    char *out = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&out, &len);
    diag_print(&dl, f);
    fclose(f);
    char tail[64];
    snprintf(tail, sizeof tail, "... and %d more errors\n", dl.dropped);
    assert_true(len > strlen(tail));
    assert_string_equal(out + len - strlen(tail), tail);
    free(out);
    diag_free(&dl);
    free(g);

    /* NULs inside an otherwise good file */
    const char src[] = ".entry k\n{\n    ret;\0\0\n}\n";
    bad_opts(src, sizeof src - 1, NULL, 0, 3, 9, "unexpected byte 0x00");
}

/* A 100 MB line: one error, no crash, quickly.  Under the sanitizers
 * (sanitized.h) a 10 MB line and a 2 MB list: the same paths, the lexer's
 * and parser's memory checked, in a tenth of the time. */
static void test_100mb_line(void **state)
{
    (void)state;
    size_t n = (size_t)(sanitized_subset() ? 10 : 100) << 20;
    char *s = malloc(n);
    assert_non_null(s);
    memset(s, 'a', n);
    clock_t t0 = clock();
    DiagList dl = { 0 };
    assert_null(asm_assemble("big.s", s, n, NULL, &dl));
    assert_int_equal(dl.n, 1);
    assert_int_equal(dl.v[0].line, 1);
    assert_int_equal(dl.v[0].col, 1);
    assert_string_equal(dl.v[0].msg, "token is too long (more than 1024 characters)");
    assert_int_equal(strlen(dl.v[0].src), 160);              /* the echoed line is truncated */
    diag_free(&dl);

    /* and inside an entry, as a list of operands: "1,1,1,..." */
    static const char head[] = ".entry k\n{\n    mov.u32 %r1, ";
    static const char foot[] = ";\n    ret;\n}\n";
    size_t body = (size_t)(sanitized_subset() ? 2 : 16) << 20;   /* 16 MB of "1," */
    char *t = malloc(sizeof head + body + sizeof foot);
    assert_non_null(t);
    memcpy(t, head, sizeof head - 1);
    for (size_t i = 0; i < body; i += 2) memcpy(t + sizeof head - 1 + i, "1,", 2);
    memcpy(t + sizeof head - 1 + body, foot, sizeof foot);
    assert_null(asm_assemble("big.s", t, strlen(t), NULL, &dl));
    assert_int_equal(dl.n, 1);
    assert_int_equal(dl.v[0].line, 3);
    assert_int_equal(dl.v[0].col, 19);
    assert_non_null(strstr(dl.v[0].msg, "too many operands for mov"));
    diag_free(&dl);
    double secs = (double)(clock() - t0) / CLOCKS_PER_SEC;
    assert_true(secs < 60.0);                                 /* generous for sanitizer builds */
    free(s);
    free(t);
}

static void test_long_identifier(void **state)
{
    (void)state;
    char src[4096];
    int n = snprintf(src, sizeof src, ".entry k\n{\n    mov.u32 %%r1, ");
    memset(src + n, 'x', 2000);
    snprintf(src + n + 2000, sizeof src - (size_t)n - 2000, ";\n    ret;\n}\n");
    bad(src, 3, 18, "token is too long (more than 1024 characters)");
}

/* ---- diag_print ------------------------------------------------------------------ */

static void test_diag_print_format(void **state)
{
    (void)state;
    const char *src = ".entry k\n{\n\tadd.s32 %r1, %r2;\n    ret;\n}\n";
    DiagList dl = { 0 };
    assert_null(asm_assemble("kernels/x.s", src, strlen(src), NULL, &dl));
    char *out = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&out, &len);
    diag_print(&dl, f);
    fclose(f);
    /* col 18 counts the tab as one column; the caret line keeps the tab so
     * it lines up under the echoed source */
    assert_string_equal(out,
        "kernels/x.s:3:18: error: too few operands for add: it takes d, a, b\n"
        "    \tadd.s32 %r1, %r2;\n"
        "    \t                ^\n");
    free(out);
    diag_free(&dl);

    /* no position: just file: error: */
    assert_null(asm_assemble("e.s", "", 0, NULL, &dl));
    f = open_memstream(&out, &len);
    diag_print(&dl, f);
    fclose(f);
    assert_string_equal(out, "e.s: error: the file is empty: a kernel file needs at least one .entry\n");
    free(out);
    assert_string_equal(diag_first(&dl), "the file is empty: a kernel file needs at least one .entry");
    diag_free(&dl);

    /* control characters in the echoed line print as '?' */
    const char bin[] = ".entry k\n{\n    ret; \x01\n}\n";
    assert_null(asm_assemble("b.s", bin, sizeof bin - 1, NULL, &dl));
    f = open_memstream(&out, &len);
    diag_print(&dl, f);
    fclose(f);
    assert_string_equal(out,
        "b.s:3:10: error: unexpected byte 0x01\n"
        "        ret; ?\n"
        "             ^\n");
    free(out);
    diag_free(&dl);
}

static void test_assemble_file_errors(void **state)
{
    (void)state;
    DiagList dl = { 0 };
    assert_null(asm_assemble_file("tests/data/does-not-exist.s", NULL, &dl));
    assert_int_equal(dl.n, 1);
    assert_string_equal(dl.v[0].file, "tests/data/does-not-exist.s");
    assert_int_equal(dl.v[0].line, 0);
    assert_string_equal(dl.v[0].msg, "cannot open: No such file or directory");
    diag_free(&dl);
}

int main(void)
{
    static const struct CMUnitTest fixed[] = {
        cmocka_unit_test(test_vecadd_nvcc),
        cmocka_unit_test(test_design_defines),
        cmocka_unit_test(test_design_define_override),
        cmocka_unit_test(test_design_buffers),
        cmocka_unit_test(test_design_launches),
        cmocka_unit_test(test_design_checks),
        cmocka_unit_test(test_launch_arg_kinds),
        cmocka_unit_test(test_check_ref_without_args_and_file),
        cmocka_unit_test(test_buffer_values),
    cmocka_unit_test(test_buffer_integers_exact),
    cmocka_unit_test(test_modifiers_as_ptxas),
        cmocka_unit_test(test_expr_precedence),
        cmocka_unit_test(test_expr_min_max_shifts),
        cmocka_unit_test(test_expr_defines),
        cmocka_unit_test(test_reg_declarations),
        cmocka_unit_test(test_undeclared_conventional_registers),
        cmocka_unit_test(test_nregs_stated),
        cmocka_unit_test(test_variables),
        cmocka_unit_test(test_shared_per_entry),
        cmocka_unit_test(test_literals),
        cmocka_unit_test(test_guards_and_labels),
        cmocka_unit_test(test_address_forms),
        cmocka_unit_test(test_narrow_types_accept_wide_registers),
        cmocka_unit_test(test_multiple_entries_and_nvcc_noise),
        cmocka_unit_test(test_crlf_and_bom),
        cmocka_unit_test(test_nameless_entry_still_checked),
        cmocka_unit_test(test_bad_case_count),
        cmocka_unit_test(test_define_override_errors),
        cmocka_unit_test(test_define_error_reported_once),
        cmocka_unit_test(test_unterminated_string_reported_once),
        cmocka_unit_test(test_all_errors_reported),
        cmocka_unit_test(test_recovery_inside_braces),
        cmocka_unit_test(test_binary_garbage),
        cmocka_unit_test(test_100mb_line),
        cmocka_unit_test(test_long_identifier),
        cmocka_unit_test(test_diag_print_format),
        cmocka_unit_test(test_assemble_file_errors),
    };
    enum { NFIXED = sizeof fixed / sizeof fixed[0] };

    /* Plus one named test per malformed input.  _cmocka_run_group_tests is
     * what cmocka_run_group_tests expands to; called directly it takes a
     * count known only at run time. */
    static struct CMUnitTest all[NFIXED + NBAD];
    static char names[NBAD][96];
    memcpy(all, fixed, sizeof fixed);
    for (size_t i = 0; i < NBAD; i++) {
        snprintf(names[i], sizeof names[i], "malformed: %s", bad_cases[i].name);
        all[NFIXED + i] = (struct CMUnitTest){ names[i], test_bad_case, NULL, NULL, (void *)&bad_cases[i] };
    }
    return _cmocka_run_group_tests("asm", all, NFIXED + NBAD, NULL, NULL);
}
