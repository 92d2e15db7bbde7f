/* test_scoreboard.c - the per-warp scoreboard: which register holds an
 * instruction back, and the pending bits that let a check skip registers
 * whose value has landed. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/timing/scoreboard.h"
#include "tests/kernel_text.h"

/* An instruction reading r[0..nread) and writing r[nread..nread+nwrite),
 * register r on pending bit r (the shared bit from 63 on). */
static Deps deps(const int *r, int nread, int nwrite)
{
    Deps d = { .nread = (uint8_t)nread, .nwrite = (uint8_t)nwrite };
    for (int i = 0; i < nread + nwrite; i++) {
        d.reg[i] = (uint16_t)r[i];
        d.bit[i] = (uint8_t)(r[i] < SB_SHARED_BIT ? r[i] : SB_SHARED_BIT);
        d.bits |= 1ull << d.bit[i];
    }
    return d;
}

/* An instruction writing register r alone. */
static Deps writes(int r) { return deps((int[]){ r }, 0, 1); }

/* add r3 <- r1, r2 at cycle 0 with latency 10; its consumer waits until 10. */
static void waits_for_the_write(void **state)
{
    (void)state;
    Scoreboard s;
    assert_int_equal(scoreboard_init(&s, 8), 0);
    Deps add = deps((int[]){ 1, 2, 3 }, 2, 1), use = deps((int[]){ 0, 3, 4 }, 2, 1);
    assert_int_equal(scoreboard_blocking(&s, &use, 0), -1);    /* nothing in flight */
    scoreboard_set(&s, &add, 10, PEND_FIXED);
    assert_int_equal(s.pending, 1ull << 3);
    assert_int_equal(scoreboard_blocking(&s, &use, 9), 3);
    assert_int_equal(scoreboard_reason(&s, 3), STALL_WAIT);
    assert_int_equal(scoreboard_blocking(&s, &use, 10), -1);   /* landed at 10 */
    assert_int_equal(s.pending, 0);                            /* and forgotten */
    /* a write-after-write waits too: the destination is a dependency */
    scoreboard_set(&s, &add, 20, PEND_LONG);
    Deps waw = deps((int[]){ 5, 3 }, 1, 1);
    assert_int_equal(scoreboard_blocking(&s, &waw, 15), 3);
    assert_int_equal(scoreboard_reason(&s, 3), STALL_LONG_SCOREBOARD);
    scoreboard_free(&s);
}

/* A warp slot's next warp of a launch gets its scoreboard on the arrays
 * the last one left (sm_launch_cta: no allocation a warp), as fresh as
 * scoreboard_init's.  Hand case: 8 registers; r3 written at cycle 0 with
 * a long latency landing at 40, r7 a fixed one at 5; after the reset the
 * arrays are the same, nothing is pending, a reader of r3 and r7 is not
 * held at cycle 0 and r3's kind is PEND_FIXED again.  A zeroed scoreboard
 * (a slot's first warp) is allocated by the reset. */
static void reset_reuses_the_arrays(void **state)
{
    (void)state;
    Scoreboard s;
    assert_int_equal(scoreboard_init(&s, 8), 0);
    Deps w3 = writes(3), w7 = writes(7), use = deps((int[]){ 3, 7 }, 2, 0);
    scoreboard_set(&s, &w3, 40, PEND_LONG);
    scoreboard_set(&s, &w7, 5, PEND_FIXED);
    assert_int_equal(scoreboard_blocking(&s, &use, 0), 3);
    uint64_t *ready = s.ready;
    uint8_t *kind = s.kind;
    assert_int_equal(scoreboard_reset(&s, 8), 0);
    assert_ptr_equal(s.ready, ready);
    assert_ptr_equal(s.kind, kind);
    assert_int_equal(s.pending, 0);
    for (int r = 0; r < 8; r++) {
        assert_int_equal(s.ready[r], 0);
        assert_int_equal(s.kind[r], PEND_FIXED);
    }
    assert_int_equal(scoreboard_blocking(&s, &use, 0), -1);
    scoreboard_free(&s);
    Scoreboard z = { 0 };
    assert_int_equal(scoreboard_reset(&z, 8), 0);
    assert_non_null(z.ready);
    assert_non_null(z.kind);
    assert_int_equal(z.ready[7], 0);
    assert_int_equal(scoreboard_blocking(&z, &use, 0), -1);
    scoreboard_free(&z);
}

/* The first pending register in operand order names the stall, whatever
 * the register numbers. */
static void first_operand_names_the_stall(void **state)
{
    (void)state;
    Scoreboard s;
    assert_int_equal(scoreboard_init(&s, 8), 0);
    Deps w6 = writes(6), w2 = writes(2);
    scoreboard_set(&s, &w6, 30, PEND_SHORT);
    scoreboard_set(&s, &w2, 50, PEND_LONG);
    Deps use = deps((int[]){ 6, 2 }, 2, 0);
    assert_int_equal(scoreboard_blocking(&s, &use, 0), 6);
    assert_int_equal(scoreboard_blocking(&s, &use, 30), 2);
    scoreboard_free(&s);
}

/* Registers 63 and up share one pending bit, so they are always looked up:
 * one landed register must not hide another that has not. */
static void high_registers_share_a_bit(void **state)
{
    (void)state;
    Scoreboard s;
    assert_int_equal(scoreboard_init(&s, 100), 0);
    Deps w64 = writes(64), w90 = writes(90);
    scoreboard_set(&s, &w64, 5, PEND_FIXED);
    scoreboard_set(&s, &w90, 40, PEND_FIXED);
    Deps a = deps((int[]){ 64 }, 1, 0), b = deps((int[]){ 90 }, 1, 0);
    assert_int_equal(scoreboard_blocking(&s, &a, 10), -1);
    assert_int_equal(scoreboard_blocking(&s, &b, 10), 90);
    assert_int_equal(scoreboard_blocking(&s, &b, 40), -1);
    scoreboard_free(&s);
}

/* deps_build gives their own pending bits to the registers named most
 * often, by count (ties: the lower number), and the shared bit to the rest
 * once 63 are given.  Counted by hand from the kernel below (70 value
 * registers, then %p0 = 70 and %p1 = 71): %r69 5 operands -> bit 0; %r0,
 * %r68 and %p1 2 each -> bits 1, 2 and 3.  Then 65 registers named once
 * each, in number order: %r0 ... %r62 get bits 0 ... 62, %r63 and %r64
 * share bit 63. */
static void deps_build_ranks_registers(void **state)
{
    (void)state;
    static const char src[] =
        ".entry k()\n"
        "{\n"
        "    .reg .b32 %r<70>;\n"
        "    .reg .pred %p<2>;\n"
        "    mov.b32 %r69, 1;\n"
        "    add.s32 %r69, %r69, 1;\n"
        "    add.s32 %r68, %r69, %r69;\n"
        "    setp.eq.s32 %p1, %r68, 0;\n"
        "    @%p1 add.s32 %r0, %r0, 1;\n"
        "    ret;\n"
        "}\n";
    DiagList dl = { 0 };
    Program *p = assemble_text("ranks.s", src, &dl);
    const Entry *e = &p->entries[0];
    assert_int_equal(e->nregs, 70);
    Deps *d = deps_build(e);
    assert_non_null(d);
    /* add.s32 %r68, %r69, %r69: reads 69, 69, writes 68 */
    assert_int_equal(d[2].nread, 2);
    assert_int_equal(d[2].bit[0], 0);
    assert_int_equal(d[2].bit[1], 0);
    assert_int_equal(d[2].bit[2], 2);
    assert_int_equal(d[2].bits, (1ull << 0) | (1ull << 2));
    /* @%p1 add.s32 %r0, %r0, 1: reads %p1 (71) and %r0, writes %r0 */
    assert_int_equal(d[4].reg[0], 71);
    assert_int_equal(d[4].bit[0], 3);
    assert_int_equal(d[4].bit[1], 1);
    assert_int_equal(d[4].bit[2], 1);
    free(d);
    program_free(p);
    char text[4096];
    int n = snprintf(text, sizeof text, ".entry k()\n{\n    .reg .b32 %%r<65>;\n");
    for (int r = 0; r < 65; r++) n += snprintf(text + n, sizeof text - (size_t)n, "    mov.b32 %%r%d, 0;\n", r);
    snprintf(text + n, sizeof text - (size_t)n, "    ret;\n}\n");
    p = assemble_text("shared.s", text, &dl);
    d = deps_build(&p->entries[0]);
    assert_non_null(d);
    assert_int_equal(d[0].bit[0], 0);
    assert_int_equal(d[62].bit[0], 62);
    assert_int_equal(d[63].bit[0], SB_SHARED_BIT);
    assert_int_equal(d[64].bit[0], SB_SHARED_BIT);
    free(d);
    program_free(p);
    diag_free(&dl);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(waits_for_the_write),
        cmocka_unit_test(reset_reuses_the_arrays),
        cmocka_unit_test(first_operand_names_the_stall),
        cmocka_unit_test(high_registers_share_a_bit),
        cmocka_unit_test(deps_build_ranks_registers),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
