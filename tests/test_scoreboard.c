/* test_scoreboard.c - the per-warp scoreboard: which register holds an
 * instruction back, and the pending bits that let a check skip registers
 * whose value has landed. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "sim/timing/scoreboard.h"

/* An instruction reading r[0..nread) and writing r[nread..nread+nwrite). */
static Deps deps(const int *r, int nread, int nwrite)
{
    Deps d = { .nread = (uint8_t)nread, .nwrite = (uint8_t)nwrite };
    for (int i = 0; i < nread + nwrite; i++) {
        d.reg[i] = (uint16_t)r[i];
        d.bits |= scoreboard_bit(r[i]);
    }
    return d;
}

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

/* The first pending register in operand order names the stall, whatever
 * the register numbers. */
static void first_operand_names_the_stall(void **state)
{
    (void)state;
    Scoreboard s;
    assert_int_equal(scoreboard_init(&s, 8), 0);
    scoreboard_set(&s, &(Deps){ .reg = { 6 }, .nwrite = 1 }, 30, PEND_SHORT);
    scoreboard_set(&s, &(Deps){ .reg = { 2 }, .nwrite = 1 }, 50, PEND_LONG);
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
    scoreboard_set(&s, &(Deps){ .reg = { 64 }, .nwrite = 1 }, 5, PEND_FIXED);
    scoreboard_set(&s, &(Deps){ .reg = { 90 }, .nwrite = 1 }, 40, PEND_FIXED);
    Deps a = deps((int[]){ 64 }, 1, 0), b = deps((int[]){ 90 }, 1, 0);
    assert_int_equal(scoreboard_blocking(&s, &a, 10), -1);
    assert_int_equal(scoreboard_blocking(&s, &b, 10), 90);
    assert_int_equal(scoreboard_blocking(&s, &b, 40), -1);
    scoreboard_free(&s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(waits_for_the_write),
        cmocka_unit_test(first_operand_names_the_stall),
        cmocka_unit_test(high_registers_share_a_bit),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
