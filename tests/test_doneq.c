/* test_doneq.c - the completion calendar (sim/mem/doneq.h): ids leave in
 * (cycle, push) order, whether a cycle's ids waited in its list, in the
 * heap beyond the lists' 1024 cycles, or both; hand-worked sequences, then
 * random ones against a plain sort. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "sim/mem/doneq.h"

static int pop(DoneQ *q, uint64_t now, int *ids)
{
    int n = 0, k;
    while ((k = doneq_pop(q, now, ids + n, 4)) > 0) n += k;
    return n;
}

static void expect(DoneQ *q, uint64_t now, const int *want, int n)
{
    int got[64];
    assert_int_equal(pop(q, now, got), n);
    for (int i = 0; i < n; i++) assert_int_equal(got[i], want[i]);
}

/* By cycle, then by push: (5,0) (3,1) (5,2) (3,3) leave 1 3 0 2. */
static void test_cycle_then_push(void **state)
{
    (void)state;
    DoneQ q;
    assert_int_equal(doneq_init(&q, 16), 0);
    doneq_push(&q, 5, 0);
    doneq_push(&q, 3, 1);
    doneq_push(&q, 5, 2);
    doneq_push(&q, 3, 3);
    assert_int_equal(doneq_next(&q), 3);
    assert_int_equal(doneq_count(&q), 4);
    expect(&q, 2, NULL, 0);
    expect(&q, 10, (const int[]){ 1, 3, 0, 2 }, 4);
    assert_int_equal(doneq_next(&q), UINT64_MAX);
    assert_int_equal(doneq_count(&q), 0);
    /* now is a bound: 10 and 12 leave one at a time */
    doneq_push(&q, 12, 5);
    doneq_push(&q, 11, 6);
    expect(&q, 10, NULL, 0);
    assert_int_equal(doneq_next(&q), 11);
    expect(&q, 11, (const int[]){ 6 }, 1);
    assert_int_equal(doneq_next(&q), 12);
    expect(&q, 12, (const int[]){ 5 }, 1);
    doneq_free(&q);
}

/* Beyond the window: id 7 pushed at cycle 0 for 2000 waits in the heap;
 * once cycle 1000 has passed it is in 2000's list, and id 3, pushed for
 * 2000 afterwards, leaves after it.  Heap entries keep push order within a
 * cycle too (9 before 8), and a cycle's turn comes after earlier ones. */
static void test_heap_keeps_push_order(void **state)
{
    (void)state;
    DoneQ q;
    assert_int_equal(doneq_init(&q, 16), 0);
    doneq_push(&q, 2000, 7);
    doneq_push(&q, 5, 1);
    expect(&q, 1000, (const int[]){ 1 }, 1);
    doneq_push(&q, 2000, 3);
    assert_int_equal(doneq_next(&q), 2000);
    expect(&q, 2000, (const int[]){ 7, 3 }, 2);
    doneq_push(&q, 6000, 9);
    doneq_push(&q, 6000, 8);
    doneq_push(&q, 5500, 4);
    assert_int_equal(doneq_next(&q), 5500);
    expect(&q, 5999, (const int[]){ 4 }, 1);
    expect(&q, 100000, (const int[]){ 9, 8 }, 2);
    doneq_free(&q);
}

/* The lists' edges: from cycle 0, 1023 is the last list and 1024 is in the
 * heap; popping 1023 brings 1024 and 2047 into lists, 2048 stays in the
 * heap, and all leave in cycle order. */
static void test_window_edges(void **state)
{
    (void)state;
    DoneQ q;
    assert_int_equal(doneq_init(&q, 16), 0);
    doneq_push(&q, 2048, 4);
    doneq_push(&q, 2047, 3);
    doneq_push(&q, 1024, 2);
    doneq_push(&q, 1023, 1);
    assert_int_equal(q.n, 1);
    assert_int_equal(q.nheap, 3);
    expect(&q, 1023, (const int[]){ 1 }, 1);
    assert_int_equal(q.n, 2);
    assert_int_equal(q.nheap, 1);
    assert_int_equal(doneq_next(&q), 1024);
    expect(&q, 3000, (const int[]){ 2, 3, 4 }, 3);
    doneq_free(&q);
}

/* A far jump, a pop cut short by max, and a push for a cycle already
 * passed (it leaves first: its cycle is the earliest). */
static void test_jump_max_late(void **state)
{
    (void)state;
    DoneQ q;
    int got[8];
    assert_int_equal(doneq_init(&q, 16), 0);
    doneq_push(&q, 100000, 1);
    assert_int_equal(doneq_next(&q), 100000);
    expect(&q, 99999, NULL, 0);
    expect(&q, 100000, (const int[]){ 1 }, 1);
    for (int i = 0; i < 5; i++) doneq_push(&q, 100007, 10 + i);
    assert_int_equal(doneq_pop(&q, 100007, got, 2), 2);
    assert_int_equal(got[0], 10);
    assert_int_equal(got[1], 11);
    assert_int_equal(doneq_next(&q), 100007);          /* three still due */
    assert_int_equal(doneq_pop(&q, 100007, got, 2), 2);
    assert_int_equal(got[0], 12);
    assert_int_equal(doneq_pop(&q, 100007, got, 2), 1);
    assert_int_equal(got[0], 14);
    /* every cycle up to 100007 has passed */
    doneq_push(&q, 100008, 2);
    doneq_push(&q, 100000, 3);
    assert_int_equal(doneq_next(&q), 100000);
    expect(&q, 100008, (const int[]){ 3, 2 }, 2);
    doneq_free(&q);
}

/* Random pushes (latencies 0 to 3000, so both lists and heap) and pops at
 * random times, against a plain list kept in (cycle, push) order. */
static void test_random_against_sort(void **state)
{
    (void)state;
    enum { IDS = 256 };
    DoneQ q;
    assert_int_equal(doneq_init(&q, IDS), 0);
    uint64_t seed = 99, now = 0, ref_at[IDS];
    int ref_id[IDS], nref = 0, free_id[IDS], nfree = IDS;
    for (int i = 0; i < IDS; i++) free_id[i] = IDS - 1 - i;
    for (int step = 0; step < 20000; step++) {
        seed = seed * 6364136223846793005ull + 1442695040888963407ull;
        if ((seed >> 60) < 9 && nfree) {               /* push */
            uint64_t lat = (seed >> 20) % 8 == 0 ? (seed >> 30) % 3000 : (seed >> 30) % 300;
            int id = free_id[--nfree];
            doneq_push(&q, now + lat, id);
            int j = nref;
            while (j > 0 && (ref_at[j - 1] > now + lat)) j--;   /* after equal cycles: push order */
            memmove(&ref_at[j + 1], &ref_at[j], (size_t)(nref - j) * sizeof ref_at[0]);
            memmove(&ref_id[j + 1], &ref_id[j], (size_t)(nref - j) * sizeof ref_id[0]);
            ref_at[j] = now + lat;
            ref_id[j] = id;
            nref++;
        } else {                                       /* time passes, then a pop */
            now += (seed >> 8) % 64 == 0 ? (seed >> 16) % 5000 : (seed >> 16) % 40;
            assert_int_equal(doneq_next(&q), nref ? ref_at[0] : UINT64_MAX);
            int got[IDS], n = pop(&q, now, got), want = 0;
            while (want < nref && ref_at[want] <= now) want++;
            assert_int_equal(n, want);
            for (int i = 0; i < n; i++) {
                assert_int_equal(got[i], ref_id[i]);
                free_id[nfree++] = got[i];
            }
            memmove(ref_at, &ref_at[n], (size_t)(nref - n) * sizeof ref_at[0]);
            memmove(ref_id, &ref_id[n], (size_t)(nref - n) * sizeof ref_id[0]);
            nref -= n;
        }
        assert_int_equal(doneq_count(&q), nref);
    }
    doneq_free(&q);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cycle_then_push),
        cmocka_unit_test(test_heap_keeps_push_order),
        cmocka_unit_test(test_window_edges),
        cmocka_unit_test(test_jump_max_late),
        cmocka_unit_test(test_random_against_sort),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
