/* test_asm_types.c - the assembler's type check (isa/asm_instr.c,
 * check_reg_type): an instruction's type must fit the declared type of its
 * registers, as ptxas requires.  .b registers and .b instructions go with
 * any type of their width; signed and unsigned integers mix; floats and
 * integers do not; registers used without a .reg line take anything.  Kept
 * apart from test_asm.c, which the assembler's other work edits.
 * Run from the repo root.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "isa/asm.h"

static const char head[] =
    ".buffer out .f32[1] zero\n"                        /* 1 */
    ".launch k grid=1 block=1 args=(out)\n"             /* 2 */
    ".entry k (.param .u64 out)\n"                      /* 3 */
    "{\n"                                               /* 4 */
    "    .reg .f32 %f<4>;\n"                            /* 5 */
    "    .reg .b32 %b<4>;\n"                            /* 6 */
    "    .reg .u32 %r<4>;\n"                            /* 7 */
    "    .reg .s64 %rd<4>;\n";                          /* 8 */

/* Assemble head + body (line 9 on) + "ret; }": the diagnostics. */
static Program *assemble(const char *body, DiagList *dl)
{
    char src[2048];
    snprintf(src, sizeof src, "%s%s    ret;\n}\n", head, body);
    return asm_assemble("t.s", src, strlen(src), NULL, dl);
}

static void fits(const char *body)
{
    DiagList dl = { 0 };
    Program *p = assemble(body, &dl);
    for (int i = 0; i < dl.n; i++) print_error("%s: %d:%d: %s\n", body, dl.v[i].line, dl.v[i].col, dl.v[i].msg);
    assert_non_null(p);
    program_free(p);
    diag_free(&dl);
}

static void clashes(const char *body, int col, const char *msg)
{
    DiagList dl = { 0 };
    Program *p = assemble(body, &dl);
    if (p || dl.n != 1 || dl.v[0].line != 9 || dl.v[0].col != col || !strstr(dl.v[0].msg, msg))
        for (int i = 0; i < dl.n; i++) print_error("%s: %d:%d: %s\n", body, dl.v[i].line, dl.v[i].col, dl.v[i].msg);
    assert_null(p);
    assert_int_equal(dl.n, 1);             /* once per instruction, not per operand */
    assert_int_equal(dl.v[0].line, 9);
    assert_int_equal(dl.v[0].col, col);
    assert_non_null(strstr(dl.v[0].msg, msg));
    diag_free(&dl);
}

static void integer_add_on_floats(void **state)
{
    (void)state;
    /* the slip: add.s32 on .f32 registers; %f3 starts at column 13 */
    clashes("    add.s32 %f3, %f1, %f2;\n", 13,
            "add.s32 on '%f3', a .f32 register: the instruction type must fit the register's declared type (add.f32?)");
    /* a source operand alone */
    clashes("    add.u32 %r3, %r1, %f2;\n", 23, "add.u32 on '%f2', a .f32 register");
    clashes("    mov.f32 %f1, %r1;\n", 18, "mov.f32 on '%r1', a .u32 register");
    clashes("    cvt.rn.f32.s32 %f1, %f2;\n", 25, "cvt.s32 on '%f2', a .f32 register");
}

static void what_fits(void **state)
{
    (void)state;
    fits("    add.f32 %f3, %f1, %f2;\n");
    fits("    add.s32 %r3, %r1, %r2;\n");            /* signed on .u32: integers mix */
    fits("    add.s32 %b3, %b1, %b2;\n");            /* .b32 registers take any 32-bit type */
    fits("    add.f32 %b3, %b1, %b2;\n");
    fits("    mov.b32 %f1, %r1;\n");                 /* .b32 instructions take any 32-bit register */
    fits("    cvt.rn.f32.s32 %f1, %r1;\n");
    fits("    mul.wide.u32 %rd1, %r1, %r2;\n");
    fits("    add.s32 %r9, %r8, 1;\n");              /* no .reg for %r8/%r9's type: %r<4> declares 0-3 */
}

/* Every kernel the project ships still assembles: test_kernels.c and
 * test_check.c assemble kernels/, tests/ and tests/validation/nvcc/. */

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(integer_add_on_floats),
        cmocka_unit_test(what_fits),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
