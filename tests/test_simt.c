/* test_simt.c - the SIMT reconvergence stack on hand-built stacks.
 *
 * The stack is driven the way warp_issue() drives it: simt_advance after an
 * ordinary instruction or a uniform branch, simt_diverge after a divergent
 * branch (with the branch's ipdom as rpc), simt_exit_lanes after ret/exit.
 * Each test walks a small control-flow graph by hand and checks which pc
 * runs with which mask, in which order (immediate post-dominator
 * reconvergence as on Fermi to Pascal: the fall-through path runs first).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "sim/base/lanes.h"
#include "sim/core/simt.h"

#define ALL 0xffffffffu

/* The top entry is (pc, mask) at depth `depth`. */
static void expect_top(SimtStack *s, int depth, uint32_t pc, LaneMask mask)
{
    assert_int_equal(s->depth, depth);
    assert_int_equal(simt_top(s)->pc, pc);
    assert_int_equal(simt_top(s)->mask, mask);
}

static void expect_entry(const SimtStack *s, int i, uint32_t pc, uint32_t rpc, LaneMask mask)
{
    assert_true(i < s->depth);
    assert_int_equal(s->e[i].pc, pc);
    assert_int_equal(s->e[i].rpc, rpc);
    assert_int_equal(s->e[i].mask, mask);
}

/* Step the top entry through [from, to) one instruction at a time, as
 * straight-line code does, checking that its mask does not change. */
static void run_straight(SimtStack *s, uint32_t from, uint32_t to, LaneMask mask)
{
    for (uint32_t pc = from; pc < to; pc++) {
        assert_int_equal(simt_top(s)->pc, pc);
        assert_int_equal(simt_top(s)->mask, mask);
        simt_advance(s, pc + 1);
    }
}

static void test_init(void **state)
{
    (void)state;
    SimtStack s = { 0 };
    simt_init(&s, 7, 0x00ff00ffu);
    expect_top(&s, 1, 7, 0x00ff00ffu);
    expect_entry(&s, 0, 7, SIMT_NO_RPC, 0x00ff00ffu);
    assert_false(simt_done(&s));
    assert_int_equal(s.max_depth, 1);
    simt_advance(&s, 8);                     /* the base entry is never popped */
    expect_top(&s, 1, 8, 0x00ff00ffu);
    simt_init(&s, 0, 0);                     /* a warp with no threads */
    assert_true(simt_done(&s));
    simt_exit_lanes(&s, ALL, 1);             /* harmless on an empty stack */
    assert_true(simt_done(&s));
    simt_free(&s);
}

/*   0: ...
 *   1: @p bra ELSE        taken lanes 0x0000ffff, ipdom = 6
 *   2: then ...           (fall-through path, runs first)
 *   3: bra.uni JOIN
 *   4: ELSE: ...          (taken path, runs second)
 *   5: ...
 *   6: JOIN: ...          all lanes again */
static void test_if_else_order(void **state)
{
    (void)state;
    SimtStack s = { 0 };
    simt_init(&s, 0, ALL);
    simt_advance(&s, 1);
    simt_diverge(&s, 0x0000ffffu, 4, 0xffff0000u, 2, 6);
    assert_int_equal(s.depth, 3);
    expect_entry(&s, 0, 6, SIMT_NO_RPC, ALL);          /* the join waits below */
    expect_entry(&s, 1, 4, 6, 0x0000ffffu);            /* taken */
    expect_entry(&s, 2, 2, 6, 0xffff0000u);            /* fall-through on top */
    assert_int_equal(s.max_depth, 3);
    run_straight(&s, 2, 3, 0xffff0000u);
    simt_advance(&s, 6);                               /* bra.uni JOIN: path done */
    expect_top(&s, 2, 4, 0x0000ffffu);
    run_straight(&s, 4, 6, 0x0000ffffu);               /* falls into the join */
    expect_top(&s, 1, 6, ALL);                         /* reconverged, full mask */
    simt_free(&s);
}

/* Three levels of nested if/else.  Lane sets: outer splits 0xff into
 * 0x0f (taken) / 0xf0; the fall-through 0xf0 splits into 0x30 / 0xc0; 0xc0
 * splits into 0x40 / 0x80.  Joins at 30 (outer), 20 (middle), 10 (inner). */
static void test_nested_depth3(void **state)
{
    (void)state;
    SimtStack s = { 0 };
    simt_init(&s, 0, 0xff);
    simt_diverge(&s, 0x0f, 25, 0xf0, 1, 30);
    simt_diverge(&s, 0x30, 15, 0xc0, 2, 20);
    simt_diverge(&s, 0x40, 8, 0x80, 3, 10);
    assert_int_equal(s.depth, 7);
    assert_int_equal(s.max_depth, 7);
    expect_entry(&s, 0, 30, SIMT_NO_RPC, 0xff);
    expect_entry(&s, 1, 25, 30, 0x0f);
    expect_entry(&s, 2, 20, 30, 0xf0);     /* middle join, waiting */
    expect_entry(&s, 3, 15, 20, 0x30);
    expect_entry(&s, 4, 10, 20, 0xc0);     /* inner join, waiting */
    expect_entry(&s, 5, 8, 10, 0x40);
    expect_entry(&s, 6, 3, 10, 0x80);
    /* innermost fall-through, then innermost taken, then the inner join */
    run_straight(&s, 3, 5, 0x80);
    simt_advance(&s, 10);
    expect_top(&s, 6, 8, 0x40);
    run_straight(&s, 8, 10, 0x40);
    expect_top(&s, 5, 10, 0xc0);
    run_straight(&s, 10, 12, 0xc0);
    simt_advance(&s, 20);                  /* the middle fall-through path ends */
    expect_top(&s, 4, 15, 0x30);
    run_straight(&s, 15, 20, 0x30);
    expect_top(&s, 3, 20, 0xf0);
    run_straight(&s, 20, 22, 0xf0);
    simt_advance(&s, 30);
    expect_top(&s, 2, 25, 0x0f);
    run_straight(&s, 25, 30, 0x0f);
    expect_top(&s, 1, 30, 0xff);
    assert_int_equal(s.max_depth, 7);
    simt_free(&s);
}

/* Two nested branches with the same join: reaching it pops every entry
 * that waits there, not only the top one. */
static void test_shared_join(void **state)
{
    (void)state;
    SimtStack s = { 0 };
    simt_init(&s, 0, 0xf);
    simt_diverge(&s, 0x1, 10, 0xe, 1, 20);
    simt_diverge(&s, 0x2, 15, 0xc, 2, 20);      /* inner if, same ipdom */
    assert_int_equal(s.depth, 5);
    simt_advance(&s, 20);                       /* 0xc done */
    expect_top(&s, 4, 15, 0x2);
    simt_advance(&s, 20);                       /* 0x2 done: its join entry too */
    expect_top(&s, 2, 10, 0x1);
    simt_advance(&s, 20);
    expect_top(&s, 1, 20, 0xf);
    simt_free(&s);
}

/* `@!p bra END` over an if-body: the taken lanes start at the join, so only
 * the body runs, then everyone.  A loop's back edge: the lanes that leave
 * start at the join and wait; the others loop. */
static void test_path_starting_at_join(void **state)
{
    (void)state;
    SimtStack s = { 0 };
    simt_init(&s, 0, 0xff);
    simt_diverge(&s, 0x0f, 5, 0xf0, 1, 5);      /* taken path == join */
    expect_top(&s, 2, 1, 0xf0);                 /* its lanes just wait in the join */
    expect_entry(&s, 0, 5, SIMT_NO_RPC, 0xff);
    assert_int_equal(s.max_depth, 2);           /* no entry that never runs counts */
    run_straight(&s, 1, 5, 0xf0);
    expect_top(&s, 1, 5, 0xff);
    simt_free(&s);

    /* 2: body; 3: @p bra 2 (back edge), ipdom 4 */
    simt_init(&s, 2, 0xff);
    simt_advance(&s, 3);
    simt_diverge(&s, 0x7f, 2, 0x80, 4, 4);      /* lane 7 leaves: fall-through == join */
    expect_top(&s, 2, 2, 0x7f);                 /* popped at once; the loop runs */
    simt_advance(&s, 3);
    simt_diverge(&s, 0x3f, 2, 0x40, 4, 4);      /* lane 6 leaves */
    expect_top(&s, 3, 2, 0x3f);
    simt_advance(&s, 3);
    simt_advance(&s, 4);                        /* the rest leave together: uniform */
    expect_top(&s, 1, 4, 0xff);
    assert_int_equal(s.max_depth, 3);
    simt_free(&s);
}

/* Lanes exiting inside a path leave every entry; emptied entries go. */
static void test_exit_inside_path(void **state)
{
    (void)state;
    SimtStack s = { 0 };
    simt_init(&s, 0, 0xff);
    simt_diverge(&s, 0x0f, 10, 0xf0, 1, 20);
    simt_exit_lanes(&s, 0x30, 2);               /* @p ret at pc 1 for lanes 4, 5 */
    assert_int_equal(s.depth, 3);
    expect_entry(&s, 0, 20, SIMT_NO_RPC, 0xcf);
    expect_entry(&s, 1, 10, 20, 0x0f);
    expect_entry(&s, 2, 2, 20, 0xc0);
    simt_exit_lanes(&s, 0xc0, 3);               /* the rest of the path returns */
    expect_top(&s, 2, 10, 0x0f);                /* the taken path, where it was */
    expect_entry(&s, 0, 20, SIMT_NO_RPC, 0x0f);
    simt_exit_lanes(&s, 0x01, 11);
    expect_top(&s, 2, 11, 0x0e);
    run_straight(&s, 11, 20, 0x0e);
    expect_top(&s, 1, 20, 0x0e);
    simt_free(&s);
}

/* All lanes of an inner if/else exit: the inner join entry empties and
 * goes too, and the outer taken path continues. */
static void test_exit_empties_inner_join(void **state)
{
    (void)state;
    SimtStack s = { 0 };
    simt_init(&s, 0, 0xff);
    simt_diverge(&s, 0x0f, 30, 0xf0, 1, 40);
    simt_diverge(&s, 0x30, 10, 0xc0, 2, 20);
    simt_exit_lanes(&s, 0xc0, 3);
    expect_top(&s, 4, 10, 0x30);
    simt_exit_lanes(&s, 0x30, 11);
    expect_top(&s, 2, 30, 0x0f);
    expect_entry(&s, 0, 40, SIMT_NO_RPC, 0x0f);
    run_straight(&s, 30, 40, 0x0f);
    expect_top(&s, 1, 40, 0x0f);
    simt_free(&s);
}

/* Exiting lanes of an entry that is not on top (a path below it) shrinks
 * that entry; an entry emptied below the top is dropped in place. */
static void test_exit_below_top(void **state)
{
    (void)state;
    SimtStack s = { 0 };
    simt_init(&s, 0, 0xff);
    simt_diverge(&s, 0x0f, 10, 0xf0, 1, 20);
    simt_exit_lanes(&s, 0xf0, 2);               /* the top path leaves entirely */
    expect_top(&s, 2, 10, 0x0f);
    simt_exit_lanes(&s, 0x03, 11);
    expect_top(&s, 2, 11, 0x0c);
    expect_entry(&s, 0, 20, SIMT_NO_RPC, 0x0c);
    simt_free(&s);
}

static void test_everything_exits(void **state)
{
    (void)state;
    SimtStack s = { 0 };
    simt_init(&s, 0, 0xff);
    simt_diverge(&s, 0x0f, 10, 0xf0, 1, 20);
    simt_diverge(&s, 0x30, 5, 0xc0, 2, 8);
    simt_exit_lanes(&s, 0xc0, 3);
    simt_exit_lanes(&s, 0x30, 6);
    simt_exit_lanes(&s, 0x0f, 11);
    assert_true(simt_done(&s));
    assert_int_equal(s.depth, 0);
    simt_free(&s);

    simt_init(&s, 0, ALL);
    simt_exit_lanes(&s, ALL, 1);                /* a uniform ret */
    assert_true(simt_done(&s));
    simt_free(&s);
}

/* Deep nesting grows the stack beyond its first allocation. */
static void test_deep_nesting(void **state)
{
    (void)state;
    SimtStack s = { 0 };
    simt_init(&s, 0, ALL);
    LaneMask m = ALL;
    for (int i = 0; i < 31; i++) {              /* peel one lane per level */
        LaneMask keep = m & ~(1u << i);
        simt_diverge(&s, 1u << i, 1000 + (uint32_t)i, keep, (uint32_t)i + 1, 2000 - (uint32_t)i);
        m = keep;
        expect_top(&s, 3 + 2 * i, (uint32_t)i + 1, m);
    }
    assert_int_equal(s.max_depth, 63);
    for (int i = 30; i >= 0; i--) {
        simt_advance(&s, 2000 - (uint32_t)i);   /* fall-through reaches the join */
        expect_top(&s, 2 + 2 * i, 1000 + (uint32_t)i, 1u << i);
        simt_advance(&s, 2000 - (uint32_t)i);   /* the single taken lane too */
        m |= 1u << i;
        expect_top(&s, 1 + 2 * i, 2000 - (uint32_t)i, m);
    }
    expect_top(&s, 1, 2000, ALL);
    simt_free(&s);
}

/* lanes.h's bit counts (active lanes, sector slots, port sets), on
 * hand-counted words. */
static void test_bit_counts(void **state)
{
    (void)state;
    assert_int_equal(lanes_count(0), 0);
    assert_int_equal(lanes_count(0xffffffffu), 32);
    assert_int_equal(lanes_count(0x80000001u), 2);
    assert_int_equal(lanes_count(0x0000ffffu), 16);
    assert_int_equal(bits64(0), 0);
    assert_int_equal(bits64(~0ull), 64);
    assert_int_equal(bits64(0x8000000000000001ull), 2);
    assert_int_equal(bits64(0x00ff00ff00ff00ffull), 32);
    assert_int_equal(bits64(0xf000000000000000ull), 4);
    /* sectors_count: the nibble table for 0-15, lanes_count beyond */
    static const int nibble[16] = { 0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4 };
    for (uint32_t m = 0; m < 16; m++) assert_int_equal(sectors_count(m), nibble[m]);
    assert_int_equal(sectors_count(16), 1);
    assert_int_equal(sectors_count(0x1f), 5);
    assert_int_equal(sectors_count(0xffffffffu), 32);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bit_counts),
        cmocka_unit_test(test_init),
        cmocka_unit_test(test_if_else_order),
        cmocka_unit_test(test_nested_depth3),
        cmocka_unit_test(test_shared_join),
        cmocka_unit_test(test_path_starting_at_join),
        cmocka_unit_test(test_exit_inside_path),
        cmocka_unit_test(test_exit_empties_inner_join),
        cmocka_unit_test(test_exit_below_top),
        cmocka_unit_test(test_everything_exits),
        cmocka_unit_test(test_deep_nesting),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
