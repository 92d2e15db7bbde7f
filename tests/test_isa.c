/* test_isa.c - the opcode table and its round trip.
 *
 * Every row of isa/isa.def must assemble -> disassemble -> assemble to the
 * same decoded instruction and the same text (the disassembler is the
 * assembler's inverse); docs/isa.md must be what isa_doc() prints today;
 * isa_unit, isa_operand_bits and the type table are pinned on spot checks.
 * Run from the repo root (reads tests/data, kernels/ and docs/isa.md). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "isa/asm.h"
#include "isa/disasm.h"
#include "isa/isa.h"

/* ---- helpers ------------------------------------------------------------ */

/* A tiny entry around one instruction.  The sample is always pc 0 (TGT
 * labels it, so `bra TGT` has a target); the prelude declares everything a
 * sample may name: two params, shared/local/const arrays and a register
 * with a custom name; and a .func with call .params for `call`. */
static const char prelude[] =
    ".const .align 8 .b8 cbuf[64];\n"
    ".func (.param .b32 fr) fn (.param .b32 fa)\n{\n    ret;\n}\n"
    ".entry k (.param .u64 pa, .param .u32 pn)\n"
    "{\n"
    "    .param .b32 cr;\n"
    "    .param .b32 ca;\n"
    "    .shared .align 16 .f32 sh[64];\n"
    "    .local .align 8 .u32 loc[4];\n"
    "    .reg .b32 %acc;\n"
    "TGT:\n";
static const char postlude[] = "\n    ret;\n}\n";

static char *wrap(const char *line)
{
    size_t n = strlen(prelude) + strlen(line) + strlen(postlude) + 1;
    char *s = malloc(n);
    assert_non_null(s);
    snprintf(s, n, "%s%s%s", prelude, line, postlude);
    return s;
}

/* Assemble `line` inside the tiny entry; fails the test with every
 * diagnostic if it does not assemble. */
static Program *asm_line(const char *line)
{
    char *src = wrap(line);
    DiagList dl = { 0 };
    Program *p = asm_assemble("t.s", src, strlen(src), NULL, &dl);
    if (!p) {
        print_error("cannot assemble '%s':\n", line);
        for (int i = 0; i < dl.n; i++)
            print_error("  %d:%d: %s\n", dl.v[i].line, dl.v[i].col, dl.v[i].msg);
    }
    free(src);
    diag_free(&dl);
    assert_non_null(p);
    assert_int_equal(p->nentries, 1);
    assert_true(p->entries[0].ncode >= 2);
    return p;
}

static Program *asm_text(const char *text)
{
    DiagList dl = { 0 };
    Program *p = asm_assemble("t.s", text, strlen(text), NULL, &dl);
    if (!p)
        for (int i = 0; i < dl.n; i++)
            print_error("  %d:%d: %s\n", dl.v[i].line, dl.v[i].col, dl.v[i].msg);
    diag_free(&dl);
    assert_non_null(p);
    return p;
}

static void operand_equal(const Operand *a, const Operand *b)
{
    assert_int_equal(a->kind, b->kind);
    assert_int_equal(a->neg, b->neg);
    assert_int_equal(a->n, b->n);
    assert_int_equal(a->is_param, b->is_param);
    for (int i = 0; i < 4; i++) assert_int_equal(a->r[i], b->r[i]);
    assert_int_equal(a->sym, b->sym);
    assert_int_equal(a->imm, b->imm);
}

/* Every decoded field but the source position. */
static void instr_equal(const Instr *a, const Instr *b)
{
    assert_int_equal(a->op, b->op);
    assert_int_equal(a->type, b->type);
    assert_int_equal(a->stype, b->stype);
    assert_int_equal(a->space, b->space);
    assert_int_equal(a->vec, b->vec);
    assert_int_equal(a->cache, b->cache);
    assert_int_equal(a->rnd, b->rnd);
    assert_int_equal(a->mul, b->mul);
    assert_int_equal(a->cmp, b->cmp);
    assert_int_equal(a->boolop, b->boolop);
    assert_int_equal(a->sub, b->sub);
    assert_int_equal(a->level, b->level);
    assert_int_equal(a->sem, b->sem);
    assert_int_equal(a->unit, b->unit);
    assert_int_equal(a->flags, b->flags);
    assert_int_equal(a->guard, b->guard);
    assert_int_equal(a->guard_neg, b->guard_neg);
    assert_int_equal(a->nops, b->nops);
    assert_int_equal(a->reconv, b->reconv);
    for (int i = 0; i < ISA_MAX_OPS; i++) operand_equal(&a->opd[i], &b->opd[i]);
}

static void disasm0(const Program *p, char *buf, size_t n)
{
    const Entry *e = &p->entries[0];
    disasm_instr(p, e, &e->code[0], buf, n);
}

static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *s = malloc((size_t)n + 1);
    assert_non_null(s);
    assert_int_equal(fread(s, 1, (size_t)n, f), (size_t)n);
    s[n] = '\0';
    fclose(f);
    *len = (size_t)n;
    return s;
}

/* ---- the samples: at least one per opcode ---------------------------------
 * More for opcodes with many forms.  `op` is what the line must decode to, so
 * a sample cannot silently cover the wrong row. */
typedef struct Sample { int op; const char *src; } Sample;

static const Sample samples[] = {
    /* mov: registers, immediates, special registers, addresses */
    { OP_MOV, "mov.u32 %r1, %r2;" },
    { OP_MOV, "mov.b32 %r1, 42;" },
    { OP_MOV, "mov.s32 %r1, -7;" },
    { OP_MOV, "mov.u32 %r1, 0xFFFFFFFF;" },
    { OP_MOV, "mov.u64 %rd1, -1;" },
    { OP_MOV, "mov.b16 %rs1, 0x7fff;" },
    { OP_MOV, "mov.u32 %r1, %tid.x;" },
    { OP_MOV, "mov.u32 %r1, %nctaid.z;" },
    { OP_MOV, "mov.u32 %r1, %laneid;" },
    { OP_MOV, "mov.u32 %r1, %lanemask_ge;" },
    { OP_MOV, "mov.u64 %rd1, %clock64;" },
    { OP_MOV, "mov.f32 %f1, 0f3F800000;" },
    { OP_MOV, "mov.f32 %f1, 1.5;" },
    { OP_MOV, "mov.f32 %f1, -0.25;" },
    { OP_MOV, "mov.f32 %f1, -0f3F800000;" },
    { OP_MOV, "mov.f64 %fd1, 0d3FF0000000000000;" },
    { OP_MOV, "mov.f64 %fd1, 2.5e-3;" },
    { OP_MOV, "mov.f64 %fd1, 0f3F800000;" },
    { OP_MOV, "mov.pred %p1, %p2;" },
    { OP_MOV, "mov.u64 %rd1, sh;" },
    { OP_MOV, "mov.u64 %rd1, sh+8;" },
    { OP_MOV, "mov.u32 %r1, cbuf;" },
    { OP_MOV, "mov.b32 %acc, %r1;" },
    { OP_MOV, "mov.u32 %r1, (3*4+1);" },
    /* ld: every space, cache hints, vectors, address forms */
    { OP_LD, "ld.global.f32 %f1, [%rd1];" },
    { OP_LD, "ld.global.f32 %f1, [%rd1+16];" },
    { OP_LD, "ld.global.f32 %f1, [%rd1+-4];" },
    { OP_LD, "ld.global.f32 %f1, [%rd1-4];" },
    { OP_LD, "ld.global.ca.u32 %r1, [%rd1];" },
    { OP_LD, "ld.global.cg.u32 %r1, [%rd1];" },
    { OP_LD, "ld.global.cs.u32 %r1, [%rd1];" },
    { OP_LD, "ld.global.lu.u32 %r1, [%rd1];" },
    { OP_LD, "ld.global.cv.u32 %r1, [%rd1];" },
    { OP_LD, "ld.global.nc.f32 %f1, [%rd1];" },
    { OP_LD, "ld.global.nc.ca.f32 %f1, [%rd1];" },
    { OP_LD, "ld.volatile.global.u32 %r1, [%rd1];" },
    { OP_LD, "ld.global.v2.f32 {%f1, %f2}, [%rd1];" },
    { OP_LD, "ld.global.v4.f32 {%f1, %f2, %f3, %f4}, [%rd1+32];" },
    { OP_LD, "ld.global.v4.u32 {%r1, _, %r3, _}, [%rd1];" },
    { OP_LD, "ld.global.v2.f64 {%fd1, %fd2}, [%rd1];" },
    { OP_LD, "ld.global.u8 %rs1, [%rd1];" },
    { OP_LD, "ld.global.s8 %r1, [%rd1];" },
    { OP_LD, "ld.global.u16 %rs1, [%rd1];" },
    { OP_LD, "ld.global.b64 %rd1, [%rd2];" },
    { OP_LD, "ld.shared.f32 %f1, [%r1];" },
    { OP_LD, "ld.shared.f32 %f1, [sh];" },
    { OP_LD, "ld.shared.f32 %f1, [sh+8];" },
    { OP_LD, "ld.shared.v4.f32 {%f1, %f2, %f3, %f4}, [sh+16];" },
    { OP_LD, "ld.volatile.shared.u32 %r1, [%r2+4];" },
    { OP_LD, "ld.const.u32 %r1, [cbuf+4];" },
    { OP_LD, "ld.const.u32 %r1, [%rd1];" },
    { OP_LD, "ld.local.u32 %r1, [loc+12];" },
    { OP_LD, "ld.param.u64 %rd1, [pa];" },
    { OP_LD, "ld.param.u32 %r1, [pn];" },
    { OP_LD, "ld.u32 %r1, [%rd1];" },
    { OP_LD, "ld.global.u32 %r1, [64];" },
    /* st */
    { OP_ST, "st.global.f32 [%rd1], %f1;" },
    { OP_ST, "st.global.f32 [%rd1+-8], %f1;" },
    { OP_ST, "st.global.wb.u32 [%rd1], %r1;" },
    { OP_ST, "st.global.cg.u32 [%rd1], %r1;" },
    { OP_ST, "st.global.cs.u32 [%rd1], %r1;" },
    { OP_ST, "st.global.wt.u32 [%rd1], %r1;" },
    { OP_ST, "st.global.u32 [%rd1], 7;" },
    { OP_ST, "st.global.f32 [%rd1], 0f40000000;" },
    { OP_ST, "st.global.v2.u32 [%rd1], {%r1, %r2};" },
    { OP_ST, "st.global.v4.f32 [%rd1+16], {%f1, %f2, %f3, %f4};" },
    { OP_ST, "st.shared.u32 [sh+4], %r1;" },
    { OP_ST, "st.shared.v2.f32 [%r1], {%f1, %f2};" },
    { OP_ST, "st.volatile.shared.u32 [%r1], %r2;" },
    { OP_ST, "st.local.u32 [loc], %r1;" },
    { OP_ST, "st.global.u8 [%rd1], %rs1;" },
    { OP_ST, "st.u64 [%rd1], %rd2;" },
    /* cvta */
    { OP_CVTA, "cvta.to.global.u64 %rd1, %rd2;" },
    { OP_CVTA, "cvta.global.u64 %rd1, %rd2;" },
    { OP_CVTA, "cvta.shared.u64 %rd1, sh;" },
    { OP_CVTA, "cvta.to.shared.u32 %r1, %r2;" },
    { OP_CVTA, "cvta.local.u64 %rd1, loc;" },
    { OP_CVTA, "cvta.const.u64 %rd1, cbuf;" },
    /* cvt with rounding and saturation */
    { OP_CVT, "cvt.rn.f32.s32 %f1, %r1;" },
    { OP_CVT, "cvt.rz.f32.f64 %f1, %fd1;" },
    { OP_CVT, "cvt.rm.f32.u64 %f1, %rd1;" },
    { OP_CVT, "cvt.rp.f64.s32 %fd1, %r1;" },
    { OP_CVT, "cvt.rzi.s32.f32 %r1, %f1;" },
    { OP_CVT, "cvt.rni.s32.f32 %r1, %f1;" },
    { OP_CVT, "cvt.rmi.u32.f64 %r1, %fd1;" },
    { OP_CVT, "cvt.rpi.s64.f32 %rd1, %f1;" },
    { OP_CVT, "cvt.rni.f32.f32 %f1, %f2;" },
    { OP_CVT, "cvt.rzi.sat.s32.f32 %r1, %f1;" },
    { OP_CVT, "cvt.rni.ftz.sat.f32.f32 %f1, %f2;" },   /* (.rn between one float type: ptxas rejects it) */
    { OP_CVT, "cvt.rn.ftz.sat.f32.f64 %f1, %fd2;" },
    { OP_CVT, "cvt.f64.f32 %fd1, %f1;" },
    { OP_CVT, "cvt.u64.u32 %rd1, %r1;" },
    { OP_CVT, "cvt.s64.s32 %rd1, %r1;" },
    { OP_CVT, "cvt.u32.u64 %r1, %rd1;" },
    { OP_CVT, "cvt.u16.u32 %rs1, %r1;" },
    { OP_CVT, "cvt.s8.s32 %rs1, %r1;" },
    /* integer and float arithmetic */
    { OP_ADD, "add.s32 %r1, %r2, %r3;" },
    { OP_ADD, "add.s32 %r1, %r2, -4;" },
    { OP_ADD, "add.u32 %r1, %r2, 0x80000000;" },
    { OP_ADD, "add.sat.s32 %r1, %r2, %r3;" },
    { OP_ADD, "add.u16 %rs1, %rs2, 65535;" },
    { OP_ADD, "add.s16 %rs1, %rs2, -32768;" },
    { OP_ADD, "add.u64 %rd1, %rd2, 0xFFFFFFFFFFFFFFFF;" },
    { OP_ADD, "add.s64 %rd1, %rd2, %rd3;" },
    { OP_ADD, "add.f32 %f1, %f2, %f3;" },
    { OP_ADD, "add.rn.ftz.f32 %f1, %f2, 1.0;" },
    { OP_ADD, "add.sat.f32 %f1, %f2, %f3;" },
    { OP_ADD, "add.rz.f64 %fd1, %fd2, 0d4000000000000000;" },
    { OP_ADD, "@%p1 add.s32 %r1, %r1, 1;" },
    { OP_ADD, "@!%p2 add.s32 %r1, %r1, 1;" },
    { OP_SUB, "sub.s32 %r1, %r2, %r3;" },
    { OP_SUB, "sub.u64 %rd1, %rd2, 8;" },
    { OP_SUB, "sub.rm.f32 %f1, %f2, -2.0;" },
    { OP_SUB, "sub.f64 %fd1, %fd2, %fd3;" },
    { OP_MUL, "mul.lo.s32 %r1, %r2, %r3;" },
    { OP_MUL, "mul.hi.u32 %r1, %r2, %r3;" },
    { OP_MUL, "mul.hi.s64 %rd1, %rd2, %rd3;" },
    { OP_MUL, "mul.wide.s32 %rd1, %r1, 4;" },
    { OP_MUL, "mul.wide.u32 %rd1, %r1, %r2;" },
    { OP_MUL, "mul.wide.u16 %r1, %rs1, %rs2;" },
    { OP_MUL, "mul.lo.u64 %rd1, %rd2, 3;" },
    { OP_MUL, "mul.f32 %f1, %f2, %f3;" },
    { OP_MUL, "mul.rn.ftz.sat.f32 %f1, %f2, 0.5;" },
    { OP_MUL, "mul.f64 %fd1, %fd2, %fd3;" },
    { OP_MAD, "mad.lo.s32 %r1, %r2, %r3, %r4;" },
    { OP_MAD, "mad.hi.u32 %r1, %r2, %r3, %r4;" },
    { OP_MAD, "mad.wide.u32 %rd1, %r2, %r3, %rd4;" },
    { OP_MAD, "mad.wide.s32 %rd1, %r2, 16, %rd4;" },
    { OP_MAD, "mad.wide.u32 %rd1, %r2, %r3, 0x100000000;" },
    { OP_MAD, "mad.wide.s16 %r1, %rs2, -3, -70000;" },
    { OP_MAD, "mad.rn.f32 %f1, %f2, %f3, %f4;" },
    { OP_MAD, "mad.rn.f64 %fd1, %fd2, %fd3, %fd4;" },
    { OP_FMA, "fma.rn.f32 %f1, %f2, %f3, %f4;" },
    { OP_FMA, "fma.rz.ftz.sat.f32 %f1, %f2, 2.0, %f4;" },
    { OP_FMA, "fma.rm.f64 %fd1, %fd2, %fd3, 0d3FE0000000000000;" },
    { OP_FMA, "fma.rp.f64 %fd1, %fd2, %fd3, %fd4;" },
    { OP_DIV, "div.s32 %r1, %r2, %r3;" },
    { OP_DIV, "div.u64 %rd1, %rd2, 10;" },
    { OP_DIV, "div.rn.f32 %f1, %f2, %f3;" },
    { OP_DIV, "div.approx.f32 %f1, %f2, %f3;" },
    { OP_DIV, "div.full.ftz.f32 %f1, %f2, %f3;" },
    { OP_DIV, "div.rn.f64 %fd1, %fd2, %fd3;" },
    { OP_REM, "rem.s32 %r1, %r2, %r3;" },
    { OP_REM, "rem.u64 %rd1, %rd2, 7;" },
    { OP_MIN, "min.s32 %r1, %r2, %r3;" },
    { OP_MIN, "min.u16 %rs1, %rs2, %rs3;" },
    { OP_MIN, "min.ftz.f32 %f1, %f2, %f3;" },
    { OP_MAX, "max.u32 %r1, %r2, 0;" },
    { OP_MAX, "max.f64 %fd1, %fd2, %fd3;" },
    { OP_ABS, "abs.s32 %r1, %r2;" },
    { OP_ABS, "abs.ftz.f32 %f1, %f2;" },
    { OP_ABS, "abs.s64 %rd1, %rd2;" },
    { OP_NEG, "neg.s32 %r1, %r2;" },
    { OP_NEG, "neg.f64 %fd1, %fd2;" },
    { OP_COPYSIGN, "copysign.f32 %f1, %f2, %f3;" },
    { OP_COPYSIGN, "copysign.f64 %fd1, %fd2, %fd3;" },
    /* logic and bits */
    { OP_AND, "and.b32 %r1, %r2, 0xFF;" },
    { OP_AND, "and.pred %p1, %p2, !%p3;" },
    { OP_AND, "and.b64 %rd1, %rd2, %rd3;" },
    { OP_OR, "or.b32 %r1, %r2, %r3;" },
    { OP_OR, "or.pred %p1, !%p2, %p3;" },
    { OP_XOR, "xor.b32 %r1, %r2, -1;" },
    { OP_XOR, "xor.pred %p1, %p2, %p3;" },
    { OP_NOT, "not.b32 %r1, %r2;" },
    { OP_NOT, "not.pred %p1, %p2;" },
    { OP_NOT, "not.b16 %rs1, %rs2;" },
    { OP_CNOT, "cnot.b32 %r1, %r2;" },
    { OP_SHL, "shl.b32 %r1, %r2, 2;" },
    { OP_SHL, "shl.b64 %rd1, %rd2, %r3;" },
    { OP_SHR, "shr.u32 %r1, %r2, %r3;" },
    { OP_SHR, "shr.s32 %r1, %r2, 31;" },
    { OP_SHR, "shr.b64 %rd1, %rd2, 3;" },
    { OP_POPC, "popc.b32 %r1, %r2;" },
    { OP_POPC, "popc.b64 %r1, %rd2;" },
    { OP_CLZ, "clz.b32 %r1, %r2;" },
    { OP_CLZ, "clz.b64 %r1, %rd2;" },
    { OP_BREV, "brev.b32 %r1, %r2;" },
    { OP_BREV, "brev.b64 %rd1, %rd2;" },
    { OP_BFE, "bfe.u32 %r1, %r2, 8, 4;" },
    { OP_BFE, "bfe.s64 %rd1, %rd2, %r3, %r4;" },
    { OP_BFIND, "bfind.u32 %r1, %r2;" },
    { OP_BFIND, "bfind.s64 %r1, %rd2;" },
    { OP_BFIND, "bfind.shiftamt.u32 %r1, %r2;" },
    { OP_PRMT, "prmt.b32 %r1, %r2, %r3, 0x3210;" },
    { OP_BFI, "bfi.b32 %r1, %r2, %r3, 8, 4;" },
    { OP_SET, "set.lt.u32.f16x2 %r1, %r2, %r3;" },
    { OP_CVT, "cvt.rn.relu.satfinite.bf16x2.f32 %r1, %f2, %f3;" },
    { OP_MOV, "mov.b32 %r1, {%rs2, %rs3};" },
    { OP_MOV, "mov.b32 {%rs1, _}, %r2;" },
    { OP_SETP, "setp.lt.f16x2 %p1|%p2, %r2, %r3;" },
    { OP_ATOM, "atom.global.add.noftz.f16x2 %r1, [%rd1], %r2;" },
    { OP_RED, "red.global.add.noftz.bf16 [%rd1], %rs2;" },
    { OP_MIN, "min.ftz.NaN.f16x2 %r1, %r2, %r3;" },
    { OP_FMA, "fma.rn.ftz.relu.f16 %rs1, %rs2, %rs3, %rs4;" },
    { OP_FNS, "fns.b32 %r1, %r2, %r3, -1;" },
    { OP_ADD, "add.rn.f16 %rs1, %rs2, %rs3;" },
    { OP_FMA, "fma.rn.f16 %rs1, %rs2, %rs3, %rs4;" },
    { OP_CVT, "cvt.rn.f16.f32 %rs1, %f2;" },
    { OP_CVT, "cvt.f32.f16 %f1, %rs2;" },
    { OP_SETP, "setp.gtu.f16 %p1, %rs2, %rs3;" },
    /* special functions */
    { OP_RCP, "rcp.rn.f32 %f1, %f2;" },
    { OP_RCP, "rcp.approx.ftz.f32 %f1, %f2;" },
    { OP_RCP, "rcp.rn.f64 %fd1, %fd2;" },
    { OP_SQRT, "sqrt.rn.f32 %f1, %f2;" },
    { OP_SQRT, "sqrt.approx.f32 %f1, %f2;" },
    { OP_SQRT, "sqrt.rz.f64 %fd1, %fd2;" },
    { OP_RSQRT, "rsqrt.approx.f32 %f1, %f2;" },
    { OP_RSQRT, "rsqrt.approx.ftz.f64 %fd1, %fd2;" },
    { OP_SIN, "sin.approx.f32 %f1, %f2;" },
    { OP_SIN, "sin.approx.ftz.f32 %f1, 0f40490FDB;" },
    { OP_COS, "cos.approx.f32 %f1, %f2;" },
    { OP_EX2, "ex2.approx.f32 %f1, %f2;" },
    { OP_EX2, "ex2.approx.ftz.f32 %f1, %f2;" },
    { OP_LG2, "lg2.approx.f32 %f1, %f2;" },
    /* comparison and selection */
    { OP_SETP, "setp.ge.s32 %p1, %r1, %r2;" },
    { OP_SETP, "setp.eq.u32 %p1, %r1, 0;" },
    { OP_SETP, "setp.ne.b32 %p1, %r1, %r2;" },
    { OP_SETP, "setp.lt.s64 %p1, %rd1, %rd2;" },
    { OP_SETP, "setp.le.u16 %p1, %rs1, 3;" },
    { OP_SETP, "setp.gt.f32 %p1, %f1, 0f00000000;" },
    { OP_SETP, "setp.lo.u32 %p1, %r1, %r2;" },
    { OP_SETP, "setp.ls.u32 %p1, %r1, %r2;" },
    { OP_SETP, "setp.hi.u64 %p1, %rd1, %rd2;" },
    { OP_SETP, "setp.hs.u32 %p1, %r1, %r2;" },
    { OP_SETP, "setp.equ.f32 %p1, %f1, %f2;" },
    { OP_SETP, "setp.neu.f32 %p1, %f1, %f2;" },
    { OP_SETP, "setp.ltu.f64 %p1, %fd1, %fd2;" },
    { OP_SETP, "setp.leu.f32 %p1, %f1, %f2;" },
    { OP_SETP, "setp.gtu.f32 %p1, %f1, %f2;" },
    { OP_SETP, "setp.geu.f32 %p1, %f1, %f2;" },
    { OP_SETP, "setp.num.f32 %p1, %f1, %f2;" },
    { OP_SETP, "setp.nan.f64 %p1, %fd1, %fd2;" },
    { OP_SETP, "setp.lt.and.s32 %p1, %r1, %r2, %p3;" },
    { OP_SETP, "setp.lt.or.s32 %p1, %r1, %r2, !%p3;" },
    { OP_SETP, "setp.eq.xor.ftz.f32 %p1, %f1, %f2, %p3;" },
    { OP_SETP, "setp.ge.s32 %p1|%p2, %r1, %r2;" },
    { OP_SETP, "setp.ge.and.s32 %p1|%p2, %r1, 5, %p3;" },
    { OP_SELP, "selp.b32 %r1, %r2, %r3, %p1;" },
    { OP_SELP, "selp.f32 %f1, %f2, 1.0, %p1;" },
    { OP_SELP, "selp.u64 %rd1, 1, 0, !%p1;" },
    /* control flow and synchronisation */
    { OP_BRA, "bra TGT;" },
    { OP_BRA, "bra.uni TGT;" },
    { OP_BRA, "@%p1 bra TGT;" },
    { OP_BRA, "@!%p1 bra TGT;" },
    { OP_BAR_SYNC, "bar.sync 0;" },
    { OP_BAR_SYNC, "bar.sync 1, 128;" },
    { OP_BAR_SYNC, "bar.sync %r1;" },
    { OP_BARRIER_SYNC, "barrier.sync 0;" },
    { OP_BARRIER_SYNC, "barrier.sync.aligned 2, %r1;" },
    { OP_BAR_ARRIVE, "bar.arrive 3, 64;" },
    { OP_BARRIER_ARRIVE, "barrier.arrive 1;" },
    { OP_BARRIER_ARRIVE, "barrier.arrive.aligned 1, 32;" },
    { OP_BAR_WARP_SYNC, "bar.warp.sync -1;" },
    { OP_BAR_WARP_SYNC, "bar.warp.sync %r1;" },
    { OP_MEMBAR, "membar.gl;" },
    { OP_MEMBAR, "membar.cta;" },
    { OP_MEMBAR, "membar.sys;" },
    { OP_FENCE, "fence.sc.cta;" },
    { OP_FENCE, "fence.acq_rel.gpu;" },
    { OP_FENCE, "fence.acq_rel.sys;" },
    { OP_RET, "ret;" },
    { OP_RET, "@%p1 ret;" },
    { OP_RET, "ret.uni;" },
    { OP_EXIT, "exit;" },
    { OP_CALL, "call.uni (cr), fn, (ca);" },
    { OP_REDUX, "redux.sync.add.u32 %r1, %r2, 0xffffffff;" },
    { OP_MATCH, "match.sync.any.b32 %r1, %r2, 0xffffffff;" },
    { OP_MATCH, "match.sync.all.b64 %r1, %rd2, %r3;" },
    { OP_NANOSLEEP, "nanosleep.u32 %r1;" },
    { OP_CP_ASYNC, "cp.async.ca.shared.global [sh], [%rd1], 4;" },
    { OP_CP_ASYNC, "cp.async.cg.shared.global [%r1+16], [%rd2], 16, %r3;" },
    { OP_CP_ASYNC_COMMIT, "cp.async.commit_group;" },
    { OP_CP_ASYNC_WAIT, "cp.async.wait_group 1;" },
    { OP_CP_ASYNC_WAIT_ALL, "cp.async.wait_all;" },
    { OP_NANOSLEEP, "nanosleep.u32 1000;" },
    { OP_MOV, "mov.pred %p1, 1;" },
    { OP_ST, "st.global.u32 [%rd1], %rd2;" },
    { OP_LD, "ld.global.s32 %rd1, [%rd2];" },
    { OP_REDUX, "redux.sync.min.s32 %r1, %r2, %r3;" },
    { OP_REDUX, "redux.sync.xor.b32 %r1, %r2, 0xffff;" },
    { OP_CALL, "@%p1 call (cr), fn, (ca);" },
    { OP_EXIT, "@!%p1 exit;" },
    /* warp-level */
    { OP_VOTE, "vote.sync.all.pred %p1, %p2, -1;" },
    { OP_VOTE, "vote.sync.any.pred %p1, !%p2, 0xFFFF;" },
    { OP_VOTE, "vote.sync.uni.pred %p1, %p2, %r1;" },
    { OP_VOTE, "vote.sync.ballot.b32 %r1, %p2, 0xffffffff;" },
    { OP_SHFL, "shfl.sync.idx.b32 %r1, %r2, %r3, 31, -1;" },
    { OP_SHFL, "shfl.sync.up.b32 %r1|%p1, %r2, 1, 0, -1;" },
    { OP_SHFL, "shfl.sync.down.b32 %r1|%p1, %r2, 16, 31, %r9;" },
    { OP_SHFL, "shfl.sync.bfly.b32 %f1, %f2, 8, 0x1f, 0xffffffff;" },
    { OP_ACTIVEMASK, "activemask.b32 %r1;" },
    /* atomics */
    { OP_ATOM, "atom.global.add.u32 %r1, [%rd1], 1;" },
    { OP_ATOM, "atom.global.add.f32 %f1, [%rd1], %f2;" },
    { OP_ATOM, "atom.shared.add.u64 %rd1, [%r1], %rd2;" },
    { OP_ATOM, "atom.global.min.s32 %r1, [%rd1+4], %r2;" },
    { OP_ATOM, "atom.global.max.u32 %r1, [%rd1], %r2;" },
    { OP_ATOM, "atom.global.inc.u32 %r1, [%rd1], 100;" },
    { OP_ATOM, "atom.global.dec.u32 %r1, [%rd1], 100;" },
    { OP_ATOM, "atom.global.exch.b32 %r1, [%rd1], %r2;" },
    { OP_ATOM, "atom.global.cas.b32 %r1, [%rd1], %r2, %r3;" },
    { OP_ATOM, "atom.shared.cas.b64 %rd1, [sh], %rd2, 0;" },
    { OP_ATOM, "atom.global.and.b32 %r1, [%rd1], 0xF0;" },
    { OP_ATOM, "atom.global.or.b32 %r1, [%rd1], %r2;" },
    { OP_ATOM, "atom.global.xor.b64 %rd1, [%rd2], %rd3;" },
    { OP_ATOM, "atom.relaxed.gpu.global.add.u32 %r1, [%rd1], 1;" },
    { OP_ATOM, "atom.add.u32 %r1, [%rd1], 1;" },
    { OP_RED, "red.global.add.u32 [%rd1], 1;" },
    { OP_RED, "red.shared.add.f32 [%r1], %f1;" },
    { OP_RED, "red.global.max.s64 [%rd1], %rd2;" },
    { OP_RED, "red.global.or.b32 [%rd1], %r2;" },
    { OP_RED, "red.release.cta.shared.inc.u32 [sh+4], 5;" },
};
enum { NSAMPLES = sizeof samples / sizeof samples[0] };

/* assemble -> disassemble -> assemble -> disassemble: same Instr, same text */
static void test_roundtrip_sample(void **state)
{
    const Sample *s = *state;
    Program *p1 = asm_line(s->src);
    const Instr *in1 = &p1->entries[0].code[0];
    assert_int_equal(in1->op, s->op);
    char t1[512], t2[512];
    disasm0(p1, t1, sizeof t1);
    Program *p2 = asm_line(t1);
    const Instr *in2 = &p2->entries[0].code[0];
    disasm0(p2, t2, sizeof t2);
    assert_string_equal(t1, t2);
    instr_equal(in1, in2);
    program_free(p1);
    program_free(p2);
}

/* A new row in isa.def without a sample above fails here. */
static void test_every_opcode_has_a_sample(void **state)
{
    (void)state;
    for (int op = 0; op < OP_COUNT; op++) {
        int found = 0;
        for (size_t i = 0; i < NSAMPLES; i++) found |= samples[i].op == op;
        if (!found) print_error("opcode %s (%s) has no round-trip sample\n", isa_ops[op].mnemonic, isa_ops[op].enum_name);
        assert_true(found);
    }
}

/* The canonical spelling the disassembler gives some forms. */
static void expect_disasm(const char *src, const char *want)
{
    Program *p = asm_line(src);
    char t[512];
    disasm0(p, t, sizeof t);
    assert_string_equal(t, want);
    program_free(p);
}

static void test_canonical_spellings(void **state)
{
    (void)state;
    /* floats print as exact IEEE bit patterns */
    expect_disasm("mov.f32 %f1, 1.5;", "mov.f32 %f1, 0f3FC00000;");
    expect_disasm("mov.f32 %f1, -0f3F800000;", "mov.f32 %f1, 0fBF800000;");
    expect_disasm("mov.f64 %fd1, 1.0;", "mov.f64 %fd1, 0d3FF0000000000000;");
    expect_disasm("mov.f64 %fd1, 0f3F800000;", "mov.f64 %fd1, 0d3FF0000000000000;");
    expect_disasm("add.f32 %f1, %f2, 2;", "add.f32 %f1, %f2, 0f40000000;");
    /* integers print in decimal, expressions folded */
    expect_disasm("mov.u32 %r1, 0xFF;", "mov.u32 %r1, 255;");
    expect_disasm("mov.u32 %r1, (3*4+1);", "mov.u32 %r1, 13;");
    expect_disasm("add.u64 %rd1, %rd2, 0xFFFFFFFFFFFFFFFF;", "add.u64 %rd1, %rd2, -1;");
    /* modifiers in the manual's order, whatever order they were written in */
    expect_disasm("ld.global.volatile.u32 %r1, [%rd1];", "ld.volatile.global.u32 %r1, [%rd1];");
    expect_disasm("setp.lt.ftz.and.f32 %p1, %f1, %f2, %p2;", "setp.lt.and.ftz.f32 %p1, %f1, %f2, %p2;");
    expect_disasm("cvt.sat.rzi.s32.f32 %r1, %f1;", "cvt.rzi.sat.s32.f32 %r1, %f1;");
    expect_disasm("atom.global.add.gpu.relaxed.u32 %r1, [%rd1], 1;", "atom.relaxed.gpu.global.add.u32 %r1, [%rd1], 1;");
    expect_disasm("ld.v4.global.f32 {%f1, %f2, %f3, %f4}, [%rd1];", "ld.global.v4.f32 {%f1, %f2, %f3, %f4}, [%rd1];");
    /* address offsets: a negative one is kept as +-N (still PTX-valid) */
    expect_disasm("ld.global.f32 %f1, [%rd1-4];", "ld.global.f32 %f1, [%rd1+-4];");
    expect_disasm("ld.global.f32 %f1, [%rd1+0];", "ld.global.f32 %f1, [%rd1];");
    expect_disasm("ld.shared.f32 %f1, [sh+2*4];", "ld.shared.f32 %f1, [sh+8];");
    expect_disasm("ld.global.u32 %r1, [64];", "ld.global.u32 %r1, [64];");
    /* guards and predicate operands */
    expect_disasm("@!%p1 bra TGT;", "@!%p1 bra TGT;");
    expect_disasm("shfl.sync.up.b32 %r1|%p1, %r2, 1, 0, -1;", "shfl.sync.up.b32 %r1|%p1, %r2, 1, 0, -1;");
    /* .shared::cta is the CTA's shared window */
    expect_disasm("ld.shared::cta.f32 %f1, [%r1];", "ld.shared.f32 %f1, [%r1];");
}

/* Exact decoded values of some forms, beyond "it round-trips". */
static void test_decoded_fields(void **state)
{
    (void)state;
    Program *p = asm_line("ld.global.nc.v4.f32 {%f1, %f2, %f3, %f4}, [%rd1+-16];");
    const Entry *e = &p->entries[0];
    const Instr *in = &e->code[0];
    assert_int_equal(in->op, OP_LD);
    assert_int_equal(in->type, T_F32);
    assert_int_equal(in->space, SP_GLOBAL);
    assert_int_equal(in->vec, 4);
    assert_int_equal(in->flags, IF_NC);
    assert_int_equal(in->cache, CACHE_NONE);
    assert_int_equal(in->nops, 2);
    assert_int_equal(in->opd[0].kind, OPD_VEC);
    assert_int_equal(in->opd[0].n, 4);
    assert_string_equal(e->regs[in->opd[0].r[3]].name, "%f4");
    assert_int_equal(in->opd[1].kind, OPD_MEM);
    assert_string_equal(e->regs[in->opd[1].r[0]].name, "%rd1");
    assert_int_equal(in->opd[1].sym, -1);
    assert_int_equal(in->opd[1].imm, -16);
    assert_int_equal(in->unit, UNIT_LSU);
    program_free(p);

    p = asm_line("@!%p2 setp.ge.and.s32 %p1|%p3, %r1, -5, !%p4;");
    e = &p->entries[0];
    in = &e->code[0];
    assert_int_equal(in->guard_neg, 1);
    assert_string_equal(e->preds[in->guard].name, "%p2");
    assert_int_equal(in->cmp, CMP_GE);
    assert_int_equal(in->boolop, BOOL_AND);
    assert_int_equal(in->nops, 6);                 /* q lives in slot 5 */
    assert_int_equal(in->opd[0].kind, OPD_PRED);
    assert_string_equal(e->preds[in->opd[0].r[0]].name, "%p1");
    assert_string_equal(e->preds[in->opd[5].r[0]].name, "%p3");
    assert_int_equal(in->opd[2].kind, OPD_IMM);
    assert_int_equal(in->opd[2].imm, -5);
    assert_int_equal(in->opd[3].neg, 1);
    assert_string_equal(e->preds[in->opd[3].r[0]].name, "%p4");
    program_free(p);

    p = asm_line("mov.f32 %f1, -1.5;");
    in = &p->entries[0].code[0];
    assert_int_equal(in->opd[1].kind, OPD_IMM);
    assert_int_equal(in->opd[1].imm, 0xBFC00000);   /* -1.5f */
    program_free(p);

    p = asm_line("fma.rn.f64 %fd1, %fd2, 0d4000000000000000, 0.5;");
    in = &p->entries[0].code[0];
    assert_int_equal((uint64_t)in->opd[2].imm, 0x4000000000000000ull);   /* 2.0 */
    assert_int_equal((uint64_t)in->opd[3].imm, 0x3FE0000000000000ull);   /* 0.5 */
    program_free(p);

    p = asm_line("mov.u64 %rd1, sh+8;");
    e = &p->entries[0];
    in = &e->code[0];
    assert_int_equal(in->opd[1].kind, OPD_SYM);
    assert_string_equal(p->vars[in->opd[1].sym].name, "sh");
    assert_int_equal(in->opd[1].imm, 8);
    program_free(p);

    p = asm_line("ld.param.u32 %r1, [pn];");
    in = &p->entries[0].code[0];
    assert_int_equal(in->opd[1].kind, OPD_MEM);
    assert_int_equal(in->opd[1].is_param, 1);
    assert_int_equal(in->opd[1].sym, 1);           /* second parameter */
    assert_int_equal(in->opd[1].r[0], REG_NONE);
    program_free(p);

    p = asm_line("atom.global.cas.b32 %r1, [%rd1], %r2, %r3;");
    in = &p->entries[0].code[0];
    assert_int_equal(in->sub, ATOM_CAS);
    assert_int_equal(in->nops, 4);
    program_free(p);

    p = asm_line("shfl.sync.bfly.b32 %r1|%p1, %r2, 8, 0x1f, 0xffffffff;");
    in = &p->entries[0].code[0];
    assert_int_equal(in->sub, SHFL_BFLY);
    assert_int_equal(in->nops, 6);
    assert_int_equal(in->opd[4].imm, 0xffffffffll);
    assert_int_equal(in->opd[5].kind, OPD_PRED);
    program_free(p);

    p = asm_line("bra TGT;");
    in = &p->entries[0].code[0];
    assert_int_equal(in->opd[0].kind, OPD_LABEL);
    assert_int_equal(in->opd[0].imm, 0);
    program_free(p);
}

/* ---- whole programs -------------------------------------------------------- */

/* A --disasm listing without the source positions in it. */
static char *without_positions(const char *s)
{
    char *o = malloc(strlen(s) + 1), *w = o;
    assert_non_null(o);
    s = strchr(s, '\n');                  /* first line names the file */
    assert_non_null(s);
    while (*s) {
        if (!strncmp(s, "  L", 3) && s[3] >= '0' && s[3] <= '9') { s += 3; while ((*s >= '0' && *s <= '9') || *s == ' ') s++; continue; }
        if (!strncmp(s, ", lines ", 8)) { while (*s && *s != ';') s++; continue; }
        if (!strncmp(s, " (line ", 7)) { while (*s && *s != ')') s++; if (*s) s++; continue; }
        *w++ = *s++;
    }
    *w = '\0';
    return o;
}

/* disasm_program output assembles to the same code, and prints the same
 * instructions again (lines differ: the listing has its own). */
static void program_roundtrip(const char *path)
{
    size_t len;
    char *src = slurp(path, &len);
    DiagList dl = { 0 };
    Program *p1 = asm_assemble(path, src, len, NULL, &dl);
    assert_non_null(p1);
    char *out = NULL;
    size_t outlen = 0;
    FILE *f = open_memstream(&out, &outlen);
    assert_non_null(f);
    disasm_program(p1, f);
    fclose(f);
    Program *p2 = asm_assemble("listing.s", out, outlen, NULL, &dl);
    for (int i = 0; i < dl.n; i++) print_error("%d:%d: %s\n", dl.v[i].line, dl.v[i].col, dl.v[i].msg);
    assert_non_null(p2);
    assert_int_equal(p2->nentries, p1->nentries);
    assert_int_equal(p2->nvars, p1->nvars);
    for (int ei = 0; ei < p1->nentries; ei++) {
        const Entry *a = &p1->entries[ei], *b = &p2->entries[ei];
        assert_string_equal(a->name, b->name);
        assert_int_equal(a->ncode, b->ncode);
        assert_int_equal(a->nparams, b->nparams);
        for (int i = 0; i < a->nparams; i++) {
            assert_string_equal(a->params[i].name, b->params[i].name);
            assert_int_equal(a->params[i].type, b->params[i].type);
            assert_int_equal(a->params[i].offset, b->params[i].offset);
        }
        assert_int_equal(a->nblocks, b->nblocks);
        assert_int_equal(a->shared_bytes, b->shared_bytes);
        assert_int_equal(a->regs_per_thread, b->regs_per_thread);
        for (int pc = 0; pc < a->ncode; pc++) {
            char t1[512], t2[512];
            disasm_instr(p1, a, &a->code[pc], t1, sizeof t1);
            disasm_instr(p2, b, &b->code[pc], t2, sizeof t2);
            assert_string_equal(t1, t2);
            /* register indices may differ (the listing drops unused .reg
             * ranges), so compare the operands by their printed names */
            Instr x = a->code[pc], y = b->code[pc];
            assert_int_equal(x.op, y.op);
            assert_int_equal(x.reconv, y.reconv);
            assert_int_equal(x.flags, y.flags);
        }
    }
    /* and the listing of the listing is the listing, but for the source
     * positions it names (the file name, "L37", "lines 15-24", "(line 37)") */
    char *out2 = NULL;
    size_t outlen2 = 0;
    f = open_memstream(&out2, &outlen2);
    disasm_program(p2, f);
    fclose(f);
    char *n1 = without_positions(out), *n2 = without_positions(out2);
    assert_string_equal(n1, n2);
    free(n1);
    free(n2);
    free(out);
    free(out2);
    program_free(p1);
    program_free(p2);
    diag_free(&dl);
    free(src);
}

static void test_roundtrip_vecadd_nvcc(void **state) { (void)state; program_roundtrip("tests/data/vecadd_nvcc.ptx"); }
static void test_roundtrip_tiled_mm(void **state) { (void)state; program_roundtrip("kernels/tiled_mm.s"); }

/* A listing with every kind of declaration the disassembler prints. */
static void test_roundtrip_declarations(void **state)
{
    (void)state;
    const char *src =
        ".const .align 4 .u32 tab[4] = {1, 2, 3, 4};\n"
        ".const .f32 half[2] = {0.5, -0.5};\n"
        ".entry k (.param .u64 a, .param .align 8 .u32 v[4], .param .u8 c, .param .align 16 .u8 d)\n"
        ".nregs 40\n"
        "{\n"
        "    .reg .b32 %x, %y;\n"
        "    .reg .pred %q;\n"
        "    .shared .align 16 .f32 s[32];\n"
        "    .local .u32 l[2];\n"
        "    mov.u32 %x, tab;\n"
        "    ld.const.u32 %y, [tab+4];\n"
        "    setp.eq.u32 %q, %x, %y;\n"
        "@%q bra END;\n"
        "    st.shared.u32 [s+4], %y;\n"
        "END:\n"
        "    ret;\n"
        "}\n";
    Program *p1 = asm_text(src);
    char *out = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&out, &n);
    disasm_program(p1, f);
    fclose(f);
    Program *p2 = asm_text(out);
    assert_int_equal(p2->const_bytes, p1->const_bytes);
    assert_memory_equal(p2->const_data, p1->const_data, p1->const_bytes);
    assert_int_equal(p2->nvars, p1->nvars);
    for (int i = 0; i < p1->nvars; i++) {
        assert_string_equal(p2->vars[i].name, p1->vars[i].name);
        assert_int_equal(p2->vars[i].space, p1->vars[i].space);
        assert_int_equal(p2->vars[i].size, p1->vars[i].size);
        assert_int_equal(p2->vars[i].offset, p1->vars[i].offset);
        assert_int_equal(p2->vars[i].align, p1->vars[i].align);
    }
    const Entry *a = &p1->entries[0], *b = &p2->entries[0];
    assert_int_equal(b->regs_per_thread, 40);
    assert_int_equal(b->regs_stated, 1);
    assert_int_equal(b->param_bytes, a->param_bytes);
    assert_int_equal(b->params[1].size, 16);
    assert_int_equal(b->params[2].offset, 24);
    assert_int_equal(b->params[3].offset, 32);   /* the stated .align survives the listing */
    assert_int_equal(b->param_bytes, 33);
    assert_int_equal(b->ncode, a->ncode);
    for (int pc = 0; pc < a->ncode; pc++) instr_equal(&a->code[pc], &b->code[pc]);
    free(out);
    program_free(p1);
    program_free(p2);
}

/* ---- docs/isa.md ------------------------------------------------------------ */

/* isa_doc() into *buf (the caller owns the pointer open_memstream fills) */
static void doc_text(char **buf, size_t *len)
{
    *buf = NULL;
    FILE *f = open_memstream(buf, len);
    assert_non_null(f);
    isa_doc(f);
    fclose(f);
}

static void test_doc_in_sync(void **state)
{
    (void)state;
    size_t n1, n2;
    char *gen;
    doc_text(&gen, &n1);
    char *file = slurp("docs/isa.md", &n2);
    if (n1 != n2 || memcmp(gen, file, n1) != 0)
        print_error("docs/isa.md is stale: run `./gpusim --doc isa > docs/isa.md` (or make docs)\n");
    assert_int_equal(n1, n2);
    assert_memory_equal(gen, file, n1);
    free(gen);
    free(file);
}

static void test_doc_names_every_opcode(void **state)
{
    (void)state;
    size_t n;
    char *doc;
    doc_text(&doc, &n);
    for (int op = 0; op < OP_COUNT; op++) {
        char row[64];
        snprintf(row, sizeof row, "| `%s` |", isa_ops[op].mnemonic);
        if (!strstr(doc, row)) print_error("docs/isa.md has no row for %s\n", isa_ops[op].mnemonic);
        assert_non_null(strstr(doc, row));
        /* the meaning, with '|' escaped so it does not split the table cell */
        char meaning[256], *w = meaning;
        for (const char *c = isa_ops[op].meaning; *c && w < meaning + sizeof meaning - 2; c++) {
            if (*c == '|') *w++ = '\\';
            *w++ = *c;
        }
        *w = '\0';
        assert_non_null(strstr(doc, meaning));
    }
    /* every opcode table row has 7 unescaped '|' (six cells) */
    const char *table = strstr(doc, "| opcode |");
    assert_non_null(table);
    size_t rows = 0, bars = 0;
    for (size_t i = (size_t)(table - doc); i < n && !(doc[i] == '\n' && doc[i + 1] != '|'); i++) {
        if (doc[i] == '|' && doc[i - 1] != '\\') bars++;
        if (doc[i] == '\n') rows++;
    }
    assert_int_equal(rows + 1, 2 + OP_COUNT);   /* header, rule, one row per opcode */
    assert_int_equal(bars, 7 * (2 + OP_COUNT));
    for (int t = 1; t < T_COUNT; t++) {
        char row[32];
        snprintf(row, sizeof row, "| .%s | %d |", isa_type_name((DataType)t), isa_type_bits((DataType)t));
        assert_non_null(strstr(doc, row));
    }
    for (int s = 0; s < SR_COUNT; s++) {
        char name[32];
        snprintf(name, sizeof name, "`%s`", isa_sreg_names[s]);
        assert_non_null(strstr(doc, name));
    }
    free(doc);
}

/* ---- tables ------------------------------------------------------------------- */

static void test_type_table(void **state)
{
    (void)state;
    static const struct { DataType t; const char *name; int bits; TypeKind kind; } want[] = {
        { T_B8, "b8", 8, TK_BITS },     { T_B16, "b16", 16, TK_BITS },  { T_B32, "b32", 32, TK_BITS },
        { T_B64, "b64", 64, TK_BITS },  { T_U8, "u8", 8, TK_UINT },     { T_U16, "u16", 16, TK_UINT },
        { T_U32, "u32", 32, TK_UINT },  { T_U64, "u64", 64, TK_UINT },  { T_S8, "s8", 8, TK_SINT },
        { T_S16, "s16", 16, TK_SINT },  { T_S32, "s32", 32, TK_SINT },  { T_S64, "s64", 64, TK_SINT },
        { T_F32, "f32", 32, TK_FLOAT }, { T_F64, "f64", 64, TK_FLOAT }, { T_PRED, "pred", 1, TK_PRED },
        { T_F16, "f16", 16, TK_FLOAT }, { T_F16X2, "f16x2", 32, TK_FLOAT }, { T_BF16, "bf16", 16, TK_FLOAT },
        { T_BF16X2, "bf16x2", 32, TK_FLOAT },
    };
    assert_int_equal(sizeof want / sizeof want[0], T_COUNT - 1);
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        assert_string_equal(isa_type_name(want[i].t), want[i].name);
        assert_int_equal(isa_type_bits(want[i].t), want[i].bits);
        assert_int_equal(isa_type_kind(want[i].t), want[i].kind);
        assert_int_equal(isa_type_lookup(want[i].name, (int)strlen(want[i].name)), want[i].t);
    }
    assert_int_equal(isa_type_lookup("f16", 3), T_F16);
    assert_int_equal(isa_type_lookup("bf16", 4), T_BF16);
    assert_int_equal(isa_type_lookup("f16x2", 5), T_F16X2);
    assert_int_equal(isa_type_lookup("f16x2", 3), T_F16);   /* length-bounded */
    assert_int_equal(isa_type_is_half(T_BF16X2), 1);
    assert_int_equal(isa_type_is_half(T_F32), 0);
    assert_int_equal(isa_type_lanes(T_F16X2), 2);
    assert_int_equal(isa_type_lanes(T_F16), 1);
    assert_int_equal(isa_type_lookup("u32x", 3), T_U32);     /* length-bounded */
    assert_int_equal(isa_type_lookup("u3", 2), T_NONE);
    assert_int_equal(isa_type_bits(T_COUNT), 0);
    assert_int_equal(isa_type_kind(T_NONE), TK_NONE);
}

static void test_opcode_table_rows(void **state)
{
    (void)state;
    for (int op = 0; op < OP_COUNT; op++) {
        const OpInfo *o = &isa_ops[op];
        assert_non_null(o->mnemonic);
        assert_non_null(o->enum_name);
        assert_true(strncmp(o->enum_name, "OP_", 3) == 0);
        assert_true(strlen(o->meaning) > 0);
        for (int j = 0; j < op; j++) assert_string_not_equal(o->mnemonic, isa_ops[j].mnemonic);
    }
    assert_string_equal(isa_ops[OP_BAR_WARP_SYNC].mnemonic, "bar.warp.sync");
    assert_int_equal(isa_ops[OP_SETP].format, FMT_SETP);
    assert_int_equal(isa_ops[OP_SIN].unit, UC_SFU);
    assert_int_equal(isa_ops[OP_SIN].types, TM_F32);
}

/* The unit of the decoded sample line. */
static Unit unit_of(const char *line)
{
    Program *p = asm_line(line);
    Instr in = p->entries[0].code[0];
    program_free(p);
    assert_int_equal(in.unit, isa_unit(&in));
    return (Unit)in.unit;
}

static void test_isa_unit(void **state)
{
    (void)state;
    assert_int_equal(unit_of("add.s32 %r1, %r2, %r3;"), UNIT_ALU);
    assert_int_equal(unit_of("add.u64 %rd1, %rd2, %rd3;"), UNIT_ALU);
    assert_int_equal(unit_of("add.f32 %f1, %f2, %f3;"), UNIT_FP32);
    assert_int_equal(unit_of("fma.rn.f32 %f1, %f2, %f3, %f4;"), UNIT_FP32);
    assert_int_equal(unit_of("add.f64 %fd1, %fd2, %fd3;"), UNIT_FP64);
    assert_int_equal(unit_of("div.rn.f32 %f1, %f2, %f3;"), UNIT_SFU);      /* f32 div is SFU-assisted */
    assert_int_equal(unit_of("div.rn.f64 %fd1, %fd2, %fd3;"), UNIT_FP64);
    assert_int_equal(unit_of("div.s32 %r1, %r2, %r3;"), UNIT_ALU);
    assert_int_equal(unit_of("sin.approx.f32 %f1, %f2;"), UNIT_SFU);
    assert_int_equal(unit_of("rcp.rn.f64 %fd1, %fd2;"), UNIT_SFU);         /* table says SFU */
    assert_int_equal(unit_of("ld.global.f32 %f1, [%rd1];"), UNIT_LSU);
    assert_int_equal(unit_of("st.shared.f64 [%r1], %fd1;"), UNIT_LSU);
    assert_int_equal(unit_of("atom.global.add.u32 %r1, [%rd1], 1;"), UNIT_LSU);
    assert_int_equal(unit_of("shfl.sync.idx.b32 %r1, %r2, 0, 31, -1;"), UNIT_LSU);
    assert_int_equal(unit_of("cvt.rn.f32.f64 %f1, %fd1;"), UNIT_FP64);    /* either side f64 */
    assert_int_equal(unit_of("cvt.f64.f32 %fd1, %f1;"), UNIT_FP64);
    assert_int_equal(unit_of("cvt.rn.f32.s32 %f1, %r1;"), UNIT_FP32);
    assert_int_equal(unit_of("cvt.u64.u32 %rd1, %r1;"), UNIT_ALU);
    assert_int_equal(unit_of("mov.f32 %f1, %f2;"), UNIT_FP32);
    assert_int_equal(unit_of("setp.lt.f64 %p1, %fd1, %fd2;"), UNIT_FP64);
    assert_int_equal(unit_of("bra TGT;"), UNIT_CTRL);
    assert_int_equal(unit_of("ret;"), UNIT_CTRL);
    assert_int_equal(unit_of("exit;"), UNIT_CTRL);
    assert_int_equal(unit_of("bar.sync 0;"), UNIT_SYNC);
    assert_int_equal(unit_of("membar.gl;"), UNIT_SYNC);
    assert_int_equal(unit_of("vote.sync.ballot.b32 %r1, %p1, -1;"), UNIT_ALU);
    assert_int_equal(unit_of("activemask.b32 %r1;"), UNIT_ALU);
}

static int bits_of(const char *line, int slot)
{
    Program *p = asm_line(line);
    int b = isa_operand_bits(&p->entries[0].code[0], slot);
    program_free(p);
    return b;
}

static void test_isa_operand_bits(void **state)
{
    (void)state;
    assert_int_equal(bits_of("add.s32 %r1, %r2, %r3;", 0), 32);
    assert_int_equal(bits_of("add.s64 %rd1, %rd2, %rd3;", 2), 64);
    assert_int_equal(bits_of("add.u16 %rs1, %rs2, %rs3;", 1), 16);
    assert_int_equal(bits_of("mul.wide.s32 %rd1, %r1, %r2;", 0), 64);    /* double width out */
    assert_int_equal(bits_of("mul.wide.s32 %rd1, %r1, %r2;", 1), 32);
    assert_int_equal(bits_of("mad.wide.u32 %rd1, %r2, %r3, %rd4;", 3), 64);
    assert_int_equal(bits_of("mad.wide.u32 %rd1, %r2, %r3, %rd4;", 2), 32);
    assert_int_equal(bits_of("shl.b64 %rd1, %rd2, %r3;", 1), 64);
    assert_int_equal(bits_of("shl.b64 %rd1, %rd2, %r3;", 2), 32);        /* shift amount */
    assert_int_equal(bits_of("popc.b64 %r1, %rd2;", 0), 32);
    assert_int_equal(bits_of("popc.b64 %r1, %rd2;", 1), 64);
    assert_int_equal(bits_of("cvt.u64.u32 %rd1, %r1;", 0), 64);
    assert_int_equal(bits_of("cvt.u64.u32 %rd1, %r1;", 1), 32);
    assert_int_equal(bits_of("setp.lt.and.f64 %p1|%p2, %fd1, %fd2, %p3;", 0), 1);
    assert_int_equal(bits_of("setp.lt.and.f64 %p1|%p2, %fd1, %fd2, %p3;", 1), 64);
    assert_int_equal(bits_of("setp.lt.and.f64 %p1|%p2, %fd1, %fd2, %p3;", 3), 1);
    assert_int_equal(bits_of("setp.lt.and.f64 %p1|%p2, %fd1, %fd2, %p3;", 5), 1);
    assert_int_equal(bits_of("selp.b64 %rd1, %rd2, %rd3, %p1;", 3), 1);
    assert_int_equal(bits_of("selp.b64 %rd1, %rd2, %rd3, %p1;", 0), 64);
    assert_int_equal(bits_of("vote.sync.any.pred %p1, %p2, -1;", 0), 1);
    assert_int_equal(bits_of("vote.sync.ballot.b32 %r1, %p2, -1;", 0), 32);
    assert_int_equal(bits_of("vote.sync.ballot.b32 %r1, %p2, -1;", 1), 1);
    assert_int_equal(bits_of("vote.sync.ballot.b32 %r1, %p2, -1;", 2), 32);
    assert_int_equal(bits_of("shfl.sync.idx.b32 %r1|%p1, %r2, 0, 31, -1;", 5), 1);
    assert_int_equal(bits_of("shfl.sync.idx.b32 %r1|%p1, %r2, 0, 31, -1;", 4), 32);
    assert_int_equal(bits_of("ld.global.v2.f64 {%fd1, %fd2}, [%rd1];", 0), 64);
    assert_int_equal(bits_of("ld.global.u8 %rs1, [%rd1];", 0), 8);
    assert_int_equal(bits_of("bar.sync 0;", 0), 32);
    assert_int_equal(bits_of("bar.warp.sync -1;", 0), 32);
    assert_int_equal(bits_of("activemask.b32 %r1;", 0), 32);
    assert_int_equal(bits_of("bra TGT;", 0), 0);
    assert_int_equal(bits_of("ret;", 0), 0);
}

static void test_sreg_names(void **state)
{
    (void)state;
    assert_string_equal(isa_sreg_names[SR_TID_X], "%tid.x");
    assert_string_equal(isa_sreg_names[SR_NCTAID_Z], "%nctaid.z");
    assert_string_equal(isa_sreg_names[SR_LANEMASK_GE], "%lanemask_ge");
    assert_string_equal(isa_sreg_names[SR_CLOCK64], "%clock64");
    /* every special register reads back as itself */
    for (int s = 0; s < SR_COUNT; s++) {
        char line[64];
        int wide = s == SR_CLOCK64 || s == SR_GLOBALTIMER;
        snprintf(line, sizeof line, "mov.u%d %s1, %s;", wide ? 64 : 32, wide ? "%rd" : "%r", isa_sreg_names[s]);
        Program *p = asm_line(line);
        const Instr *in = &p->entries[0].code[0];
        assert_int_equal(in->opd[1].kind, OPD_SREG);
        assert_int_equal(in->opd[1].r[0], s);
        program_free(p);
    }
}

int main(void)
{
    static const struct CMUnitTest fixed[] = {
        cmocka_unit_test(test_every_opcode_has_a_sample),
        cmocka_unit_test(test_canonical_spellings),
        cmocka_unit_test(test_decoded_fields),
        cmocka_unit_test(test_roundtrip_vecadd_nvcc),
        cmocka_unit_test(test_roundtrip_tiled_mm),
        cmocka_unit_test(test_roundtrip_declarations),
        cmocka_unit_test(test_doc_in_sync),
        cmocka_unit_test(test_doc_names_every_opcode),
        cmocka_unit_test(test_type_table),
        cmocka_unit_test(test_opcode_table_rows),
        cmocka_unit_test(test_isa_unit),
        cmocka_unit_test(test_isa_operand_bits),
        cmocka_unit_test(test_sreg_names),
    };
    enum { NFIXED = sizeof fixed / sizeof fixed[0] };

    /* Plus one named test per round-trip sample, so a failure names the
     * line.  _cmocka_run_group_tests is what cmocka_run_group_tests expands
     * to; called directly it takes a count known only at run time. */
    static struct CMUnitTest all[NFIXED + NSAMPLES];
    static char names[NSAMPLES][96];
    memcpy(all, fixed, sizeof fixed);
    for (size_t i = 0; i < NSAMPLES; i++) {
        snprintf(names[i], sizeof names[i], "roundtrip: %s", samples[i].src);
        all[NFIXED + i] = (struct CMUnitTest){ names[i], test_roundtrip_sample, NULL, NULL, (void *)&samples[i] };
    }
    return _cmocka_run_group_tests("isa", all, NFIXED + NSAMPLES, NULL, NULL);
}
