/* test_cfg.c - basic blocks, successors, immediate post-dominators and the
 * reconvergence pc of every branch, on small hand-written kernels whose
 * answers are worked out by hand in the comments.
 *
 * Reminders for reading the expectations:
 *  - a block starts at pc 0, at every branch target and after every branch,
 *    ret or exit;
 *  - a guarded branch's successors are {target, fall-through} in that order
 *    (one successor if both are the same block); -1 is the thread exit;
 *  - ipdom -1 is the exit, and a branch whose ipdom is the exit reconverges
 *    at pc == ncode (the paths only meet when the threads finish). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "isa/asm.h"
#include "isa/cfg.h"
#include "isa/isa.h"

static Program *assemble(const char *body)
{
    char src[4096];
    snprintf(src, sizeof src, ".entry k\n{\n%s}\n", body);
    DiagList dl = { 0 };
    Program *p = asm_assemble("cfg.s", src, strlen(src), NULL, &dl);
    for (int i = 0; i < dl.n; i++) print_error("%d:%d: %s\n", dl.v[i].line, dl.v[i].col, dl.v[i].msg);
    diag_free(&dl);
    assert_non_null(p);
    return p;
}

/* Block b spans [first, last], has successors s0 (and s1 if nsucc == 2), and
 * immediate post-dominator ipdom. */
static void expect_block(const Entry *e, int b, uint32_t first, uint32_t last, int nsucc, int s0, int s1, int ipdom)
{
    assert_true(b < e->nblocks);
    const BasicBlock *bb = &e->blocks[b];
    assert_int_equal(bb->first, first);
    assert_int_equal(bb->last, last);
    assert_int_equal(bb->nsucc, nsucc);
    assert_int_equal(bb->succ[0], s0);
    if (nsucc == 2) assert_int_equal(bb->succ[1], s1);
    assert_int_equal(bb->ipdom, ipdom);
    for (uint32_t pc = first; pc <= last; pc++) assert_int_equal(cfg_block_of(e, pc), b);
}

static void expect_reconv(const Entry *e, uint32_t pc, uint32_t reconv)
{
    assert_int_equal(e->code[pc].op, OP_BRA);
    assert_int_equal(e->code[pc].reconv, reconv);
}

/* ---- structured flow ---------------------------------------------------- */

static void test_straight_line(void **state)
{
    (void)state;
    Program *p = assemble("    mov.u32 %r1, 1;\n"          /* 0 */
                          "    add.u32 %r1, %r1, 1;\n"     /* 1 */
                          "    ret;\n");                   /* 2 */
    const Entry *e = &p->entries[0];
    assert_int_equal(e->nblocks, 1);
    expect_block(e, 0, 0, 2, 1, -1, 0, -1);                /* one block, then exit */
    assert_int_equal(cfg_block_of(e, 3), -1);
    program_free(p);

    /* no ret: falling off the end is the exit too */
    p = assemble("    mov.u32 %r1, 1;\n");
    e = &p->entries[0];
    assert_int_equal(e->nblocks, 1);
    expect_block(e, 0, 0, 0, 1, -1, 0, -1);
    program_free(p);
}

static void test_if_then(void **state)
{
    (void)state;
    Program *p = assemble("    setp.lt.s32 %p1, %r1, 10;\n"  /* 0 */
                          "@%p1 bra SKIP;\n"                 /* 1 */
                          "    add.s32 %r2, %r2, 1;\n"       /* 2: then */
                          "SKIP:\n"
                          "    ret;\n");                     /* 3 */
    const Entry *e = &p->entries[0];
    /* leaders 0, 2 (after the branch), 3 (target) */
    assert_int_equal(e->nblocks, 3);
    expect_block(e, 0, 0, 1, 2, 2, 1, 2);      /* B0 -> {B2 taken, B1}; both reach B2 */
    expect_block(e, 1, 2, 2, 1, 2, 0, 2);      /* B1 -> B2 */
    expect_block(e, 2, 3, 3, 1, -1, 0, -1);    /* B2 -> exit */
    expect_reconv(e, 1, 3);                    /* reconverge right after the then-part */
    program_free(p);
}

static void test_if_else(void **state)
{
    (void)state;
    Program *p = assemble("    setp.lt.s32 %p1, %r1, 10;\n"  /* 0 */
                          "@%p1 bra ELSE;\n"                 /* 1 */
                          "    add.s32 %r2, %r2, 1;\n"       /* 2: then */
                          "    bra JOIN;\n"                  /* 3 */
                          "ELSE:\n"
                          "    sub.s32 %r2, %r2, 1;\n"       /* 4: else */
                          "JOIN:\n"
                          "    ret;\n");                     /* 5 */
    const Entry *e = &p->entries[0];
    /* leaders 0, 2, 4 (target of 1, after 3), 5 (target of 3) */
    assert_int_equal(e->nblocks, 4);
    expect_block(e, 0, 0, 1, 2, 2, 1, 3);      /* B0 -> {B2 else, B1 then}; join B3 */
    expect_block(e, 1, 2, 3, 1, 3, 0, 3);      /* B1 -> B3 */
    expect_block(e, 2, 4, 4, 1, 3, 0, 3);      /* B2 -> B3 */
    expect_block(e, 3, 5, 5, 1, -1, 0, -1);
    expect_reconv(e, 1, 5);                    /* the join */
    expect_reconv(e, 3, 5);                    /* an unconditional bra gets its block's ipdom too */
    program_free(p);
}

static void test_nested_if_in_if_else(void **state)
{
    (void)state;
    Program *p = assemble("    setp.lt.s32 %p1, %r1, 10;\n"  /* 0 */
                          "@%p1 bra ELSE;\n"                 /* 1 */
                          "    setp.eq.s32 %p2, %r1, 3;\n"   /* 2: then */
                          "@%p2 bra INNER_END;\n"            /* 3 */
                          "    add.s32 %r2, %r2, 1;\n"       /* 4: inner then */
                          "INNER_END:\n"
                          "    add.s32 %r2, %r2, 2;\n"       /* 5 */
                          "    bra JOIN;\n"                  /* 6 */
                          "ELSE:\n"
                          "    sub.s32 %r2, %r2, 1;\n"       /* 7 */
                          "JOIN:\n"
                          "    ret;\n");                     /* 8 */
    const Entry *e = &p->entries[0];
    /* leaders 0, 2, 4, 5, 7, 8 */
    assert_int_equal(e->nblocks, 6);
    expect_block(e, 0, 0, 1, 2, 4, 1, 5);      /* outer if: B0 -> {B4, B1}, join B5 */
    expect_block(e, 1, 2, 3, 2, 3, 2, 3);      /* inner if: B1 -> {B3, B2}, join B3 */
    expect_block(e, 2, 4, 4, 1, 3, 0, 3);
    expect_block(e, 3, 5, 6, 1, 5, 0, 5);
    expect_block(e, 4, 7, 7, 1, 5, 0, 5);
    expect_block(e, 5, 8, 8, 1, -1, 0, -1);
    expect_reconv(e, 1, 8);                    /* outer join */
    expect_reconv(e, 3, 5);                    /* inner join, inside the then-part */
    expect_reconv(e, 6, 8);
    program_free(p);
}

/* ---- loops ---------------------------------------------------------------- */

static void test_while_loop_divergent_trip_count(void **state)
{
    (void)state;
    /* each lane loops %r1 = tid times: lanes leave the loop one by one */
    Program *p = assemble("    mov.u32 %r1, %tid.x;\n"        /* 0 */
                          "    mov.u32 %r2, 0;\n"             /* 1 */
                          "LOOP:\n"
                          "    setp.ge.u32 %p1, %r2, %r1;\n"  /* 2 */
                          "@%p1 bra EXIT;\n"                  /* 3: loop exit test */
                          "    add.u32 %r2, %r2, 1;\n"        /* 4 */
                          "    bra LOOP;\n"                   /* 5: back edge */
                          "EXIT:\n"
                          "    ret;\n");                      /* 6 */
    const Entry *e = &p->entries[0];
    /* leaders 0, 2 (target of 5), 4 (after 3), 6 (target of 3, after 5) */
    assert_int_equal(e->nblocks, 4);
    expect_block(e, 0, 0, 1, 1, 1, 0, 1);
    expect_block(e, 1, 2, 3, 2, 3, 2, 3);      /* header: -> {B3 exit path, B2 body}; ipdom B3 */
    expect_block(e, 2, 4, 5, 1, 1, 0, 1);      /* body -> header */
    expect_block(e, 3, 6, 6, 1, -1, 0, -1);
    expect_reconv(e, 3, 6);                    /* the exit branch: the instruction after the loop */
    expect_reconv(e, 5, 2);                    /* the back edge: its only successor, the header */
    program_free(p);
}

static void test_do_while_back_branch(void **state)
{
    (void)state;
    Program *p = assemble("    mov.u32 %r2, 0;\n"             /* 0 */
                          "LOOP:\n"
                          "    add.u32 %r2, %r2, 1;\n"        /* 1 */
                          "    setp.lt.u32 %p1, %r2, %tid.x;\n" /* 2 */
                          "@%p1 bra LOOP;\n"                  /* 3: conditional back branch */
                          "    ret;\n");                      /* 4 */
    const Entry *e = &p->entries[0];
    assert_int_equal(e->nblocks, 3);
    expect_block(e, 0, 0, 0, 1, 1, 0, 1);
    expect_block(e, 1, 1, 3, 2, 1, 2, 2);      /* B1 -> {B1 itself, B2}; ipdom B2 */
    expect_block(e, 2, 4, 4, 1, -1, 0, -1);
    expect_reconv(e, 3, 4);                    /* lanes that leave early wait after the loop */
    program_free(p);
}

static void test_break_two_exits_same_target(void **state)
{
    (void)state;
    Program *p = assemble("    mov.u32 %r2, 0;\n"             /* 0 */
                          "LOOP:\n"
                          "    setp.ge.u32 %p1, %r2, %r1;\n"  /* 1 */
                          "@%p1 bra DONE;\n"                  /* 2: loop condition */
                          "    ld.global.u32 %r3, [%rd1];\n"  /* 3 */
                          "    setp.eq.u32 %p2, %r3, 0;\n"    /* 4 */
                          "@%p2 bra DONE;\n"                  /* 5: break */
                          "    add.u32 %r2, %r2, 1;\n"        /* 6 */
                          "    bra LOOP;\n"                   /* 7 */
                          "DONE:\n"
                          "    st.global.u32 [%rd1], %r2;\n"  /* 8 */
                          "    ret;\n");                      /* 9 */
    const Entry *e = &p->entries[0];
    /* leaders 0, 1, 3, 6, 8 */
    assert_int_equal(e->nblocks, 5);
    expect_block(e, 0, 0, 0, 1, 1, 0, 1);
    expect_block(e, 1, 1, 2, 2, 4, 2, 4);      /* header -> {B4, B2} */
    expect_block(e, 2, 3, 5, 2, 4, 3, 4);      /* break test -> {B4, B3}: B3 loops back, so B4 */
    expect_block(e, 3, 6, 7, 1, 1, 0, 1);
    expect_block(e, 4, 8, 9, 1, -1, 0, -1);
    expect_reconv(e, 2, 8);
    expect_reconv(e, 5, 8);                    /* break and normal exit meet after the loop */
    expect_reconv(e, 7, 1);
    program_free(p);
}

static void test_break_two_exits_different_targets(void **state)
{
    (void)state;
    Program *p = assemble("    mov.u32 %r2, 0;\n"             /* 0 */
                          "LOOP:\n"
                          "    setp.ge.u32 %p1, %r2, %r1;\n"  /* 1 */
                          "@%p1 bra EXIT;\n"                  /* 2: normal exit */
                          "    setp.eq.u32 %p2, %r2, 7;\n"    /* 3 */
                          "@%p2 bra BREAK;\n"                 /* 4: break past the epilogue */
                          "    add.u32 %r2, %r2, 1;\n"        /* 5 */
                          "    bra LOOP;\n"                   /* 6 */
                          "EXIT:\n"
                          "    mov.u32 %r2, 0;\n"             /* 7: only the normal exit runs this */
                          "BREAK:\n"
                          "    ret;\n");                      /* 8 */
    const Entry *e = &p->entries[0];
    /* leaders 0, 1, 3, 5, 7, 8
     * pdom(B4)={B4,B5}, pdom(B2)={B2,B5}, pdom(B3)={B3,B1,B5}, pdom(B1)={B1,B5} */
    assert_int_equal(e->nblocks, 6);
    expect_block(e, 0, 0, 0, 1, 1, 0, 1);
    expect_block(e, 1, 1, 2, 2, 4, 2, 5);      /* -> {B4 epilogue, B2}; meet at B5 */
    expect_block(e, 2, 3, 4, 2, 5, 3, 5);      /* -> {B5, B3} */
    expect_block(e, 3, 5, 6, 1, 1, 0, 1);
    expect_block(e, 4, 7, 7, 1, 5, 0, 5);
    expect_block(e, 5, 8, 8, 1, -1, 0, -1);
    expect_reconv(e, 2, 8);                    /* not 7: break lanes never run the epilogue */
    expect_reconv(e, 4, 8);
    expect_reconv(e, 6, 1);
    program_free(p);
}

/* ---- early exits ---------------------------------------------------------- */

static void test_early_ret_inside_branch(void **state)
{
    (void)state;
    Program *p = assemble("    setp.eq.u32 %p1, %r1, 0;\n"    /* 0 */
                          "@%p1 bra ELSE;\n"                  /* 1 */
                          "    setp.eq.u32 %p2, %r2, 0;\n"    /* 2: then */
                          "@%p2 ret;\n"                       /* 3: some lanes finish here */
                          "    add.u32 %r3, %r3, 1;\n"        /* 4 */
                          "    bra JOIN;\n"                   /* 5 */
                          "ELSE:\n"
                          "    sub.u32 %r3, %r3, 1;\n"        /* 6 */
                          "JOIN:\n"
                          "    st.global.u32 [%rd1], %r3;\n"  /* 7 */
                          "    ret;\n");                      /* 8 */
    const Entry *e = &p->entries[0];
    /* leaders 0, 2, 4 (after the guarded ret), 6, 7.
     * B1 ends in @%p2 ret: successors {exit, B2}.  JOIN (B4) does not
     * post-dominate B1 - a lane can leave at pc 3 without reaching it - so
     * pdom(B1) = {B1, exit} and pdom(B0) = {B0} + (pdom(B3) & pdom(B1)) =
     * {B0, exit}: the two sides of the branch at pc 1 only meet at thread
     * exit, so it reconverges at ncode = 9. */
    assert_int_equal(e->ncode, 9);
    assert_int_equal(e->nblocks, 5);
    expect_block(e, 0, 0, 1, 2, 3, 1, -1);
    expect_block(e, 1, 2, 3, 2, -1, 2, -1);    /* guarded ret: exit or fall through */
    expect_block(e, 2, 4, 5, 1, 4, 0, 4);
    expect_block(e, 3, 6, 6, 1, 4, 0, 4);
    expect_block(e, 4, 7, 8, 1, -1, 0, -1);
    expect_reconv(e, 1, 9);
    expect_reconv(e, 5, 7);
    assert_int_equal(e->code[3].reconv, 0);    /* ret is not a branch: no reconvergence pc */
    program_free(p);
}

static void test_early_exit_before_join_keeps_join(void **state)
{
    (void)state;
    /* the same with the guarded exit before the branch: it does not disturb
     * the if/else below it, which still joins at JOIN */
    Program *p = assemble("    setp.eq.u32 %p2, %r2, 0;\n"    /* 0 */
                          "@%p2 exit;\n"                      /* 1 */
                          "    setp.eq.u32 %p1, %r1, 0;\n"    /* 2 */
                          "@%p1 bra ELSE;\n"                  /* 3 */
                          "    add.u32 %r3, %r3, 1;\n"        /* 4 */
                          "    bra JOIN;\n"                   /* 5 */
                          "ELSE:\n"
                          "    sub.u32 %r3, %r3, 1;\n"        /* 6 */
                          "JOIN:\n"
                          "    ret;\n");                      /* 7 */
    const Entry *e = &p->entries[0];
    assert_int_equal(e->nblocks, 5);
    expect_block(e, 0, 0, 1, 2, -1, 1, -1);    /* exit or go on */
    expect_block(e, 1, 2, 3, 2, 3, 2, 4);
    expect_reconv(e, 3, 7);
    program_free(p);
}

static void test_both_branches_return(void **state)
{
    (void)state;
    Program *p = assemble("    setp.eq.u32 %p1, %r1, 0;\n"    /* 0 */
                          "@%p1 bra ELSE;\n"                  /* 1 */
                          "    mov.u32 %r2, 1;\n"             /* 2 */
                          "    ret;\n"                        /* 3 */
                          "ELSE:\n"
                          "    mov.u32 %r2, 2;\n"             /* 4 */
                          "    ret;\n");                      /* 5 */
    const Entry *e = &p->entries[0];
    assert_int_equal(e->nblocks, 3);
    expect_block(e, 0, 0, 1, 2, 2, 1, -1);
    expect_block(e, 1, 2, 3, 1, -1, 0, -1);
    expect_block(e, 2, 4, 5, 1, -1, 0, -1);
    expect_reconv(e, 1, 6);                    /* they only meet at exit: ncode */
    program_free(p);
}

/* ---- unstructured and odd shapes ------------------------------------------- */

static void test_goto_into_middle_of_if(void **state)
{
    (void)state;
    Program *p = assemble("    setp.eq.u32 %p1, %r1, 0;\n"    /* 0 */
                          "@%p1 bra MID;\n"                   /* 1: jumps into the if-body */
                          "    setp.eq.u32 %p2, %r2, 0;\n"    /* 2 */
                          "@%p2 bra END;\n"                   /* 3: if (!p2) { 4; 5 } */
                          "    add.u32 %r3, %r3, 1;\n"        /* 4 */
                          "MID:\n"
                          "    add.u32 %r3, %r3, 2;\n"        /* 5 */
                          "END:\n"
                          "    ret;\n");                      /* 6 */
    const Entry *e = &p->entries[0];
    /* leaders 0, 2, 4, 5, 6.
     * pdom(B3)={B3,B4}, pdom(B2)={B2,B3,B4}, pdom(B1)={B1,B4},
     * pdom(B0)={B0} + ({B3,B4} & {B1,B4}) = {B0,B4} */
    assert_int_equal(e->nblocks, 5);
    expect_block(e, 0, 0, 1, 2, 3, 1, 4);      /* not B3: the p2 path can skip MID */
    expect_block(e, 1, 2, 3, 2, 4, 2, 4);
    expect_block(e, 2, 4, 4, 1, 3, 0, 3);
    expect_block(e, 3, 5, 5, 1, 4, 0, 4);
    expect_block(e, 4, 6, 6, 1, -1, 0, -1);
    expect_reconv(e, 1, 6);
    expect_reconv(e, 3, 6);
    program_free(p);
}

static void test_irreducible_loop(void **state)
{
    (void)state;
    /* a cycle B1 <-> B2 entered at both blocks */
    Program *p = assemble("@%p1 bra B;\n"                     /* 0: enter at B */
                          "A:\n"
                          "    add.u32 %r1, %r1, 1;\n"        /* 1 */
                          "@%p2 bra DONE;\n"                  /* 2 */
                          "B:\n"
                          "    add.u32 %r1, %r1, 2;\n"        /* 3 */
                          "@%p3 bra A;\n"                     /* 4 */
                          "DONE:\n"
                          "    ret;\n");                      /* 5 */
    const Entry *e = &p->entries[0];
    /* leaders 0, 1, 3, 5; every path from B0, B1 or B2 ends in B3 */
    assert_int_equal(e->nblocks, 4);
    expect_block(e, 0, 0, 0, 2, 2, 1, 3);
    expect_block(e, 1, 1, 2, 2, 3, 2, 3);
    expect_block(e, 2, 3, 4, 2, 1, 3, 3);
    expect_block(e, 3, 5, 5, 1, -1, 0, -1);
    expect_reconv(e, 0, 5);
    expect_reconv(e, 2, 5);
    expect_reconv(e, 4, 5);
    program_free(p);
}

static void test_infinite_loop(void **state)
{
    (void)state;
    /* no path to the exit at all: the analysis must still end and give
     * every block an ipdom.  The blocks that cannot reach the exit get a
     * virtual edge to it from the highest-numbered one (B3 here), so the
     * loop behaves as if it left from its last block. */
    Program *p = assemble("    mov.u32 %r1, 0;\n"             /* 0 */
                          "LOOP:\n"
                          "    setp.eq.u32 %p1, %r1, 5;\n"    /* 1 */
                          "@%p1 bra SKIP;\n"                  /* 2 */
                          "    add.u32 %r1, %r1, 1;\n"        /* 3 */
                          "SKIP:\n"
                          "    bra LOOP;\n");                 /* 4 */
    const Entry *e = &p->entries[0];
    /* leaders 0, 1, 3, 4 */
    assert_int_equal(e->nblocks, 4);
    expect_block(e, 0, 0, 0, 1, 1, 0, 1);
    expect_block(e, 1, 1, 2, 2, 3, 2, 3);      /* the if inside still joins at B3 */
    expect_block(e, 2, 3, 3, 1, 3, 0, 3);
    expect_block(e, 3, 4, 4, 1, 1, 0, -1);     /* the virtual exit edge */
    expect_reconv(e, 2, 4);
    expect_reconv(e, 4, 5);                    /* ncode */
    program_free(p);

    /* the smallest one: a block that branches to itself */
    p = assemble("SELF:\n    bra SELF;\n");
    e = &p->entries[0];
    assert_int_equal(e->nblocks, 1);
    expect_block(e, 0, 0, 0, 1, 0, 0, -1);
    expect_reconv(e, 0, 1);
    program_free(p);
}

static void test_label_at_the_very_end(void **state)
{
    (void)state;
    Program *p = assemble("    setp.eq.u32 %p1, %r1, 0;\n"    /* 0 */
                          "@%p1 bra END;\n"                   /* 1: target pc 3 = ncode */
                          "    add.u32 %r2, %r2, 1;\n"        /* 2 */
                          "END:\n");
    const Entry *e = &p->entries[0];
    assert_int_equal(e->ncode, 3);
    assert_int_equal(e->code[1].opd[0].imm, 3);
    assert_int_equal(e->nblocks, 2);
    expect_block(e, 0, 0, 1, 2, -1, 1, -1);    /* taken: straight to exit */
    expect_block(e, 1, 2, 2, 1, -1, 0, -1);    /* falls off the end */
    expect_reconv(e, 1, 3);
    program_free(p);

    /* an unconditional jump to the end */
    p = assemble("    bra END;\n    add.u32 %r2, %r2, 1;\nEND:\n");
    e = &p->entries[0];
    assert_int_equal(e->nblocks, 2);
    expect_block(e, 0, 0, 0, 1, -1, 0, -1);
    expect_block(e, 1, 1, 1, 1, -1, 0, -1);    /* unreachable, still a block */
    expect_reconv(e, 0, 2);
    program_free(p);
}

static void test_branch_to_next_instruction(void **state)
{
    (void)state;
    /* both outcomes go to the same block: one successor, reconverge there */
    Program *p = assemble("@%p1 bra NEXT;\n"                  /* 0 */
                          "NEXT:\n"
                          "    ret;\n");                      /* 1 */
    const Entry *e = &p->entries[0];
    assert_int_equal(e->nblocks, 2);
    expect_block(e, 0, 0, 0, 1, 1, 0, 1);
    expect_reconv(e, 0, 1);
    program_free(p);
}

static void test_unreachable_code_after_ret(void **state)
{
    (void)state;
    Program *p = assemble("    ret;\n"                        /* 0 */
                          "    add.u32 %r1, %r1, 1;\n"        /* 1: dead */
                          "    ret;\n");                      /* 2 */
    const Entry *e = &p->entries[0];
    assert_int_equal(e->nblocks, 2);
    expect_block(e, 0, 0, 0, 1, -1, 0, -1);
    expect_block(e, 1, 1, 2, 1, -1, 0, -1);
    program_free(p);
}

static void test_uniform_branch_same_cfg(void **state)
{
    (void)state;
    /* bra.uni promises no divergence; the graph and ipdom are unchanged */
    Program *p = assemble("@%p1 bra.uni SKIP;\n"              /* 0 */
                          "    add.u32 %r1, %r1, 1;\n"        /* 1 */
                          "SKIP:\n"
                          "    ret;\n");                      /* 2 */
    const Entry *e = &p->entries[0];
    assert_int_equal(e->nblocks, 3);
    expect_block(e, 0, 0, 0, 2, 2, 1, 2);
    expect_reconv(e, 0, 2);
    assert_int_equal(e->code[0].flags, IF_UNI);
    program_free(p);
}

/* ---- the module on its own ---------------------------------------------------- */

static void test_empty_entry(void **state)
{
    (void)state;
    Entry e;
    memset(&e, 0, sizeof e);
    assert_int_equal(cfg_build(&e), 0);
    assert_int_equal(e.nblocks, 0);
    assert_null(e.blocks);
    assert_int_equal(cfg_block_of(&e, 0), -1);
}

/* An entry of n guarded branches to `target(pc)` and a final ret. */
static void chain(Entry *e, int n, int64_t (*target)(int pc, int n))
{
    memset(e, 0, sizeof *e);
    e->ncode = n;
    e->code = calloc((size_t)n, sizeof *e->code);
    assert_non_null(e->code);
    for (int pc = 0; pc < n - 1; pc++) {
        Instr *in = &e->code[pc];
        in->op = OP_BRA;
        in->guard = 0;
        in->vec = 1;
        in->nops = 1;
        in->opd[0].kind = OPD_LABEL;
        in->opd[0].imm = target(pc, n);
    }
    e->code[n - 1].op = OP_RET;
    e->code[n - 1].guard = REG_NONE;
}

static int64_t to_next(int pc, int n) { (void)n; return pc + 1; }
static int64_t to_start(int pc, int n) { (void)pc; (void)n; return 0; }

/* A million blocks in a line: the reverse depth-first search from the exit
 * is a million deep, so it must not recurse.  Each block's only successor
 * is the next one, so ipdom(Bi) = Bi+1. */
static void test_deep_chain(void **state)
{
    (void)state;
    enum { N = 1000000 };
    Entry e;
    chain(&e, N, to_next);
    assert_int_equal(cfg_build(&e), 0);
    assert_int_equal(e.nblocks, N);
    for (int b = 0; b < N - 1; b++) {
        assert_int_equal(e.blocks[b].nsucc, 1);
        assert_int_equal(e.blocks[b].ipdom, b + 1);
        assert_int_equal(e.code[b].reconv, (uint32_t)b + 1);
    }
    assert_int_equal(e.blocks[N - 1].ipdom, -1);
    /* building twice gives the same answer (the old blocks are freed) */
    assert_int_equal(cfg_build(&e), 0);
    assert_int_equal(e.blocks[0].ipdom, 1);
    free(e.blocks);
    free(e.code);
}

/* Every block may jump back to pc 0, so the exit is reached only by going
 * forward through all of them: pdom(Bk) = {Bk..Bn-1, exit}, ipdom(Bk) = Bk+1.
 * Kept small: Cooper-Harvey-Kennedy's finger walks make this shape
 * quadratic (40k blocks take seconds). */
static void test_back_edges_to_start(void **state)
{
    (void)state;
    enum { N = 5000 };
    Entry e;
    chain(&e, N, to_start);
    assert_int_equal(cfg_build(&e), 0);
    assert_int_equal(e.nblocks, N);
    expect_block(&e, 0, 0, 0, 2, 0, 1, 1);     /* B0 -> {B0 itself, B1} */
    for (int b = 0; b < N - 1; b++) {
        assert_int_equal(e.blocks[b].ipdom, b + 1);
        assert_int_equal(e.code[b].reconv, (uint32_t)b + 1);
    }
    free(e.blocks);
    free(e.code);
}

static void test_tiled_mm_reconvergence(void **state)
{
    (void)state;
    DiagList dl = { 0 };
    Program *p = asm_assemble_file("kernels/tiled_mm.s", NULL, &dl);
    assert_non_null(p);
    const Entry *e = &p->entries[0];
    /* from the kernel's listing: pc 25 leaves the tile loop (to DONE, pc 61),
     * 30 and 40 skip the edge loads, 57 is the inner loop's back branch, 63
     * skips the final store */
    assert_int_equal(e->nblocks, 12);
    expect_reconv(e, 25, 61);
    expect_reconv(e, 30, 35);
    expect_reconv(e, 40, 45);
    expect_reconv(e, 57, 58);
    expect_reconv(e, 60, 24);
    expect_reconv(e, 63, 68);
    program_free(p);
    diag_free(&dl);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_straight_line),
        cmocka_unit_test(test_if_then),
        cmocka_unit_test(test_if_else),
        cmocka_unit_test(test_nested_if_in_if_else),
        cmocka_unit_test(test_while_loop_divergent_trip_count),
        cmocka_unit_test(test_do_while_back_branch),
        cmocka_unit_test(test_break_two_exits_same_target),
        cmocka_unit_test(test_break_two_exits_different_targets),
        cmocka_unit_test(test_early_ret_inside_branch),
        cmocka_unit_test(test_early_exit_before_join_keeps_join),
        cmocka_unit_test(test_both_branches_return),
        cmocka_unit_test(test_goto_into_middle_of_if),
        cmocka_unit_test(test_irreducible_loop),
        cmocka_unit_test(test_infinite_loop),
        cmocka_unit_test(test_label_at_the_very_end),
        cmocka_unit_test(test_branch_to_next_instruction),
        cmocka_unit_test(test_unreachable_code_after_ret),
        cmocka_unit_test(test_uniform_branch_same_cfg),
        cmocka_unit_test(test_empty_entry),
        cmocka_unit_test(test_deep_chain),
        cmocka_unit_test(test_back_edges_to_start),
        cmocka_unit_test(test_tiled_mm_reconvergence),
    };
    return cmocka_run_group_tests_name("cfg", tests, NULL, NULL);
}
