/* test_counters.c - the functional counters pinned to hand-computed values
 * on the library kernels, among them the seeds' own numbers. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>

#include "isa/asm.h"
#include "sim/base/config.h"
#include "sim/front/run.h"

static Stats run_functional_in(const char *path, const AsmDefine *d, int nd, int source_order)
{
    DiagList dl = { 0 };
    AsmOptions o = { d, nd };
    Program *p = asm_assemble_file(path, &o, &dl);
    assert_non_null(p);
    Config c;
    config_defaults(&c);
    if (source_order) c.core.schedule = CORE_SCHEDULE_SOURCE;
    Run r;
    assert_int_equal(run_program(&r, p, &c, "(defaults)", &(RunOptions){ .functional = 1 }, &dl), RUN_OK);
    Stats s = r.stats;
    s.line = NULL;
    s.sm = NULL;
    run_free(&r);
    program_free(p);
    diag_free(&dl);
    return s;
}

static Stats run_functional(const char *path, const AsmDefine *d, int nd) { return run_functional_in(path, d, nd, 0); }

/* Seed 004: 1003 elements in blocks of 64 = 16 blocks, 32 warps; only warp
 * 31 (threads 992-1023, 11 of them < 1003) diverges. */
static void test_vecadd_seed004(void **state)
{
    (void)state;
    Stats s = run_functional("kernels/vecadd.s", NULL, 0);
    assert_int_equal(s.ctas_launched, 16);
    assert_int_equal(s.warps_launched, 32);
    /* 10 PTX instructions to the branch, 8 in the body, ret: 19 per warp
     * (the machine count, smsp__inst_executed.sum: 17, see isa/backend.c) */
    assert_int_equal(s.ptx_inst, 32 * 19);
    assert_int_equal(s.inst, 32 * 17);
    /* 31 full warps x 19 x 32 lanes, warp 31: 10x32 + 8x11 + 1x32 */
    assert_int_equal(s.thread_inst, 31 * 19 * 32 + 10 * 32 + 8 * 11 + 32);
    assert_int_equal(s.branches, 32);
    assert_int_equal(s.branch_divergent, 1);
    assert_int_equal(s.branch_uniform, 31);
    assert_int_equal(s.branch_targets, 31 + 2);
    assert_int_equal(s.mem_inst[SP_GLOBAL][0], 64);
    assert_int_equal(s.mem_inst[SP_GLOBAL][1], 32);
    assert_int_equal(s.mem_inst[SP_PARAM][0], 32 * 4);
    /* SIMD efficiency 19288 / (608 x 32) = 99.14% */
    double eff = stats_simd_efficiency(&s, 32);
    assert_true(eff > 99.13 && eff < 99.15);
    /* exactly multiple of the block: no divergence */
    AsmDefine d = { "N", "1024" };
    s = run_functional("kernels/vecadd.s", &d, 1);
    assert_int_equal(s.branch_divergent, 0);
}

/* Seed 004: a 62 x 76 image in 16x16 blocks: 20 blocks, 160 warps, 31 of
 * them diverge on the combined bounds test. */
static void test_gray2d_seed004(void **state)
{
    (void)state;
    Stats s = run_functional("kernels/gray2d.s", NULL, 0);
    assert_int_equal(s.ctas_launched, 20);
    assert_int_equal(s.warps_launched, 160);
    assert_int_equal(s.branch_divergent, 31);
}

/* evenodd: N=1000 in blocks of 128 = 8 blocks, 32 warps; every warp splits
 * on its if/else (32), plus the bounds test of warp 31 (threads 992-1023,
 * 8 of them < 1000). */
static void test_evenodd(void **state)
{
    (void)state;
    Stats s = run_functional("kernels/evenodd.s", NULL, 0);
    assert_int_equal(s.warps_launched, 32);
    assert_int_equal(s.branch_divergent, 33);
    assert_true(s.simt_max_depth >= 2);
}

/* reduce_interleaved: 8192 elements, blocks of 256: 32 blocks + 1 block in
 * the second launch = 33 blocks of 8 warps.  Per block the tree's test
 * tid % (2s) == 0 splits every warp for s = 1..16 (5 steps x 8 warps = 40),
 * then for s = 32, 64, 128 it splits the 4, 2, 1 warps that still have a
 * working thread: 47 per block, in the PTX as written.  As ptxas makes it
 * (core.schedule=machine) the tree's 5-instruction body is guarded instead
 * (isa/ifconv.c): no branch diverges, and the lanes switch off. */
static void test_reduce_interleaved(void **state)
{
    (void)state;
    Stats s = run_functional_in("kernels/reduce_interleaved.s", NULL, 0, 1);
    assert_int_equal(s.ctas_launched, 33);
    assert_int_equal(s.branch_divergent, 33 * 47);
    Stats m = run_functional("kernels/reduce_interleaved.s", NULL, 0);
    assert_int_equal(m.branch_divergent, 0);
    assert_true(m.thread_inst_pred_on < m.thread_inst);
    assert_int_equal(m.mem_inst[SP_SHARED][0], 33 * 8 * 8);   /* every warp loads in all 8 steps (the sum stays in a register) */
}

/* transpose_shared: 96 x 128 floats in 32x32 tiles with 32x8 blocks: 12
 * blocks x 8 warps x 4 rows = 384 shared loads, each a column of the tile
 * (32 lanes, words 32 apart: one bank): 32 wavefronts each = 12288, of
 * which 31 per instruction are conflicts = 11904.  The +1 padding spreads
 * a column over all banks: 384 wavefronts, no conflicts. */
static void test_transpose_bank_conflicts(void **state)
{
    (void)state;
    Stats s = run_functional("kernels/transpose_shared.s", NULL, 0);
    assert_int_equal(s.mem_inst[SP_SHARED][0], 384);
    assert_int_equal(s.smem_wavefronts[0], 384 * 32);
    assert_int_equal(s.smem_conflicts[0], 384 * 31);
    assert_int_equal(s.smem_wavefronts[1], 384);
    assert_int_equal(s.smem_conflicts[1], 0);
    s = run_functional("kernels/transpose_padded.s", NULL, 0);
    assert_int_equal(s.smem_wavefronts[0], 384);
    assert_int_equal(s.smem_conflicts[0], 0);
    /* transpose_naive: rows read coalesced (4 sectors per request), columns
     * written one sector per lane (32) */
    s = run_functional("kernels/transpose_naive.s", NULL, 0);
    assert_int_equal(s.sectors[0][0], 384 * 4);
    assert_int_equal(s.sectors[0][1], 384 * 32);
}

/* strided_copy: N=1000 threads in blocks of 128, 4-byte loads at stride S:
 * a full warp touches 4 sectors at S=1, 8 at S=2, 32 at S=16 (seed 003's
 * stride-16 case: 16 128-byte lines, two lanes per line, a sector each);
 * the last warp has 8 lanes (threads 992-999). */
static void test_strided_copy_sectors(void **state)
{
    (void)state;
    AsmDefine d = { "STRIDE", "1" };
    Stats s = run_functional("kernels/strided_copy.s", &d, 1);
    assert_int_equal(s.requests[0][0], 32);
    assert_int_equal(s.sectors[0][0], 31 * 4 + 1);
    d.value = "2";
    s = run_functional("kernels/strided_copy.s", &d, 1);
    assert_int_equal(s.sectors[0][0], 31 * 8 + 2);
    d.value = "16";
    s = run_functional("kernels/strided_copy.s", &d, 1);
    assert_int_equal(s.sectors[0][0], 31 * 32 + 8);
    /* stores are always coalesced: out[i] */
    assert_int_equal(s.sectors[0][1], 31 * 4 + 1);
}

/* spill: 16 .local loads and stores per thread; interleaved local memory
 * makes each a coalesced 4-sector request; the last warp has 8 lanes. */
static void test_spill_local_sectors(void **state)
{
    (void)state;
    Stats s = run_functional("kernels/spill.s", NULL, 0);
    assert_int_equal(s.requests[1][0], 32 * 16);
    assert_int_equal(s.sectors[1][0], (31 * 4 + 1) * 16);
    assert_int_equal(s.sectors[1][1], (31 * 4 + 1) * 16);
}

/* histogram: N=4096 in blocks of 256 = 16 blocks x 8 warps, one input load
 * per warp (128 requests, 4 sectors each); its 32 red.global.add
 * instructions are atomics, not loads or stores, as in Nsight. */
static void test_histogram_atomics_not_loads(void **state)
{
    (void)state;
    Stats s = run_functional("kernels/histogram.s", NULL, 0);
    assert_int_equal(s.mem_inst[SP_GLOBAL][0], 128);
    assert_int_equal(s.requests[0][0], 128);
    assert_int_equal(s.sectors[0][0], 128 * 4);
    assert_int_equal(s.requests[0][1], 0);
    assert_int_equal(s.atomics[SP_GLOBAL], 32);
    /* every byte moved was asked for by some lane: 100% efficient */
    assert_int_equal(s.bytes_unique, s.bytes_moved);
}

/* A store right after an atomic, by the same warp: 32 lanes on 32
 * consecutive words are one wavefront each; the store must count as a store
 * (a stale atomic flag once counted it as a load). */
static void test_store_after_atomic(void **state)
{
    (void)state;
    Stats s = run_functional("tests/data/atom_then_store.s", NULL, 0);
    assert_int_equal(s.atomics[SP_SHARED], 1);
    assert_int_equal(s.smem_wavefronts[2], 1);   /* the atom, as Nsight's op_atom */
    assert_int_equal(s.smem_wavefronts[0], 0);
    assert_int_equal(s.smem_wavefronts[1], 1);
    assert_int_equal(s.smem_conflicts[0] + s.smem_conflicts[1] + s.smem_conflicts[2], 0);
}

/* tests/data/atom_conflict.s: one warp's atom.shared.add on sh[lane % 4]:
 * 4 banks with 8 lanes each, no merging for atomics: 8 wavefronts, 7
 * conflicts, counted under op_atom; the plain load of the same addresses
 * (8 lanes per word: broadcast) is 1 wavefront under op_ld, the guarded
 * store of the 4 words 1 under op_st. */
static void test_shared_atomic_conflicts(void **state)
{
    (void)state;
    Stats s = run_functional("tests/data/atom_conflict.s", NULL, 0);
    assert_int_equal(s.atomics[SP_SHARED], 1);
    assert_int_equal(s.smem_wavefronts[2], 8);
    assert_int_equal(s.smem_conflicts[2], 7);
    assert_int_equal(s.smem_wavefronts[0], 1);
    assert_int_equal(s.smem_conflicts[0], 0);
    assert_int_equal(s.smem_wavefronts[1], 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_vecadd_seed004),
        cmocka_unit_test(test_gray2d_seed004),
        cmocka_unit_test(test_evenodd),
        cmocka_unit_test(test_reduce_interleaved),
        cmocka_unit_test(test_transpose_bank_conflicts),
        cmocka_unit_test(test_strided_copy_sectors),
        cmocka_unit_test(test_spill_local_sectors),
        cmocka_unit_test(test_histogram_atomics_not_loads),
        cmocka_unit_test(test_store_after_atomic),
        cmocka_unit_test(test_shared_atomic_conflicts),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
