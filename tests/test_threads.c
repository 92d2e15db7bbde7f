/* test_threads.c - issue 17: a launch spread over host threads (--threads N)
 * gives the one-thread result, bit for bit.  Every kernel of kernels/ on
 * every config of configs/ at 1, 2 and 3 threads: the JSON report, the
 * printf output and every buffer must be identical.  Then the cases where
 * the order of global memory effects shows (atomics returning old values,
 * races, posted reductions, a fault in the middle of a cycle), the pieces
 * the engine is made of (stats_merge, memsys' deferred mode, the share of
 * cores a sweep point gets), and gpu_run_launch's lanes themselves. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "isa/asm.h"
#include "sim/base/config.h"
#include "sim/front/report.h"
#include "sim/core/exec.h"
#include "sim/core/warp.h"
#include "sim/front/run.h"
#include "sim/mem/memsys.h"
#include "sim/timing/gpu.h"
#include "sim/timing/sm.h"
#include "tests/kernel_text.h"
#include "tests/list_dir.h"
#include "tests/sanitized.h"

enum { MAX_FILES = 64 };

typedef struct Outcome {
    int rc;
    char *json;              /* report_json (or report_fault when it faulted) */
    char *printf_text;
    Memory mem;              /* the buffers, taken from the run */
} Outcome;

static char *kernels[MAX_FILES], *configs[MAX_FILES];
static int nkernels, nconfigs;
static int max_threads = 3;      /* each file runs at 1 .. max_threads */

static int load_config(Config *c, const char *path)
{
    DiagList dl = { 0 };
    config_defaults(c);
    int rc = config_load_file(c, path, &dl) || config_validate(c, &dl);
    if (rc) diag_print(&dl, stderr);
    diag_free(&dl);
    return rc;
}

static Program *assemble(const char *path)
{
    DiagList dl = { 0 };
    AsmOptions o = { NULL, 0 };
    Program *p = asm_assemble_file(path, &o, &dl);
    if (!p) diag_print(&dl, stderr);
    diag_free(&dl);
    return p;
}

/* One timing run at `threads`: what a user sees of it (and where the
 * host time went, if times); apart: each register a row of its own
 * (RunOptions.rows_apart). */
static Outcome run_timed(const Program *p, const Config *c, const char *cfg_path, int threads, GpuHostTimes *times,
                         int apart)
{
    Outcome o = { 0 };
    DiagList dl = { 0 };
    RunOptions ro = { .threads = threads, .host_times = times, .rows_apart = apart };
    Run r;
    o.rc = run_program(&r, p, c, cfg_path, &ro, &dl);
    if (o.rc == RUN_BAD_INPUT) diag_print(&dl, stderr);
    diag_free(&dl);
    size_t len = 0;
    FILE *f = open_memstream(&o.json, &len);
    if (o.rc == RUN_FAULT) report_fault(&r, f);
    else if (o.rc != RUN_BAD_INPUT) report_json(&r, f);
    fclose(f);
    o.printf_text = r.stats.printf_text ? strndup(r.stats.printf_text, r.stats.printf_len) : strdup("");
    o.mem = r.mem;                   /* keep the buffers: run_free must not free them */
    memset(&r.mem, 0, sizeof r.mem);
    run_free(&r);
    return o;
}

static Outcome run_at(const Program *p, const Config *c, const char *cfg_path, int threads)
{
    return run_timed(p, c, cfg_path, threads, NULL, 0);
}

static void outcome_free(Outcome *o)
{
    free(o->json);
    free(o->printf_text);
    mem_free(&o->mem);
}

static int same_memory(const Memory *a, const Memory *b)
{
    if (a->nregions != b->nregions) return 0;
    for (int i = 0; i < a->nregions; i++)
        if (a->regions[i].size != b->regions[i].size ||
            memcmp(a->regions[i].data, b->regions[i].data, (size_t)a->regions[i].size))
            return 0;
    return 1;
}

/* b is a: exit status, report, printf output and memory; frees both. */
static void assert_same_outcome(Outcome *a, Outcome *b)
{
    assert_int_equal(b->rc, a->rc);
    assert_string_equal(b->json, a->json);
    assert_string_equal(b->printf_text, a->printf_text);
    assert_true(same_memory(&b->mem, &a->mem));
    outcome_free(a);
    outcome_free(b);
}

/* The file at 1, 2 and 3 threads: identical reports, printf and memory.
 * The most threads also run with the host prefetching on (gpu_test_prefetch),
 * the others with it off; one thread as the launch decides.  And one
 * thread with each register in a row of its own (RunOptions.rows_apart)
 * instead of rows shared as the registers' lives allow (kernel_pack_rows):
 * the same too.  Returns the one-thread outcome's rc. */
static int check_file(const char *kernel, const Config *c, const char *cfg_path)
{
    Program *p = assemble(kernel);
    assert_non_null(p);
    Outcome one = run_at(p, c, cfg_path, 1);
    Outcome apart = run_timed(p, c, cfg_path, 1, NULL, 1);
    int same = apart.rc == one.rc && !strcmp(apart.json, one.json) && !strcmp(apart.printf_text, one.printf_text) &&
               same_memory(&apart.mem, &one.mem);
    if (!same) print_error("%s on %s: registers in rows apart differ from shared rows (exit %d vs %d)\n", kernel, cfg_path,
                           apart.rc, one.rc);
    assert_true(same);
    outcome_free(&apart);
    /* more threads than SMs run as many lanes as SMs (test_lane_count): the
     * same launch again (tiny.ini's one SM: every count is the one-thread run) */
    int most = max_threads < c->gpu.num_sms ? max_threads : c->gpu.num_sms;
    for (int n = 2; n <= most; n++) {
        gpu_test_prefetch(n == most);
        Outcome o = run_at(p, c, cfg_path, n);
        gpu_test_prefetch(-1);
        int same = o.rc == one.rc && !strcmp(o.json, one.json) && !strcmp(o.printf_text, one.printf_text) &&
                   same_memory(&o.mem, &one.mem);
        if (!same)
            print_error("%s on %s: %d threads (prefetch %s) differ from 1 (exit %d vs %d)\n", kernel, cfg_path, n,
                        n == most ? "on" : "off", o.rc, one.rc);
        assert_true(same);
        outcome_free(&o);
    }
    int rc = one.rc;
    outcome_free(&one);
    program_free(p);
    return rc;
}

/* Every kernel of kernels/ on one config. */
static void test_config(void **state)
{
    const char *cfg_path = *state;
    Config c;
    assert_int_equal(load_config(&c, cfg_path), 0);
    for (int i = 0; i < nkernels; i++) {
        int rc = check_file(kernels[i], &c, cfg_path);
        if (rc != RUN_OK) print_error("%s on %s: exit %d\n", kernels[i], cfg_path, rc);
        assert_int_equal(rc, RUN_OK);
    }
}

/* Files where the order of global memory effects within a cycle shows:
 * atomics whose old values are kept, global races, posted reductions,
 * printf, cp.async, relaunches with warm caches. */
static void test_order_sensitive(void **state)
{
    (void)state;
    static const char *const files[] = {
        "tests/data/atom_conflict.s", "tests/data/atom_cost.s", "tests/data/race_global.s", "tests/data/race_lanes.s",
        "tests/data/red_posted.s", "tests/data/printf_order.s", "tests/data/cp_async.s", "tests/data/globals.s",
        "tests/data/l1_relaunch.s", "tests/data/l1_local_relaunch.s",
    };
    const char *cfgs[] = { "configs/hopper.ini", "configs/fermi.ini" };
    for (size_t k = 0; k < sizeof cfgs / sizeof cfgs[0]; k++) {
        Config c;
        assert_int_equal(load_config(&c, cfgs[k]), 0);
        for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) check_file(files[i], &c, cfgs[k]);
    }
}

/* Registers sharing rows (kernel_pack_rows) compute what registers in
 * rows of their own do.  rows_diverge.s on every config, where sharing a
 * row across widths would give 16 of its 128 values wrong (a 64-bit row's
 * lane over two other threads' lanes of a 32-bit one: seen with the
 * colouring that counts ptxas's registers, which pairs them), and nvcc's
 * code (machine order: unrolled, if-converted, vectorised) on hopper.ini. */
static void test_rows_shared(void **state)
{
    (void)state;
    for (int i = 0; i < nconfigs; i++) {
        Config c;
        assert_int_equal(load_config(&c, configs[i]), 0);
        assert_int_equal(check_file("tests/data/rows_diverge.s", &c, configs[i]), RUN_OK);
    }
    char *nvcc[MAX_FILES];
    int n = list_dir("tests/validation/nvcc", ".s", nvcc, MAX_FILES);
    assert_true(n >= 20);
    Config c;
    assert_int_equal(load_config(&c, "configs/hopper.ini"), 0);
    for (int i = 0; i < n; i++) {
        if (!sanitized_subset() || i % 5 == 0) {
            Program *p = assemble(nvcc[i]);
            assert_non_null(p);
            Outcome a = run_timed(p, &c, "configs/hopper.ini", 1, NULL, 0);
            Outcome b = run_timed(p, &c, "configs/hopper.ini", 1, NULL, 1);
            if (a.rc != RUN_OK || strcmp(a.json, b.json)) print_error("%s: exit %d, apart %d\n", nvcc[i], a.rc, b.rc);
            assert_int_equal(a.rc, RUN_OK);
            assert_same_outcome(&a, &b);
            program_free(p);
        }
        free(nvcc[i]);
    }
}

/* A fault in the middle of a cycle: every count names the same block,
 * thread and pc, and memory holds what the SMs before it stored. */
static void test_fault(void **state)
{
    (void)state;
    Config c;
    assert_int_equal(load_config(&c, "configs/hopper.ini"), 0);
    assert_int_equal(check_file("tests/data/fault_oob.s", &c, "configs/hopper.ini"), RUN_FAULT);
    Program *p = assemble("tests/data/fault_oob.s");
    assert_non_null(p);
    Outcome o = run_at(p, &c, "configs/hopper.ini", 3);
    assert_non_null(strstr(o.json, "block (15,0,0), thread (43,0,0) (warp 1, lane 11)"));
    outcome_free(&o);
    program_free(p);
}

/* The semantics every thread count shares, on one warp by hand: a global
 * store or atomic waits in the log until exec_replay (the end of the
 * cycle), a global load reads at issue. */
static void test_held_stores(void **state)
{
    (void)state;
    static const char src[] =
        ".buffer x .u32[1] zero\n"
        ".launch k grid=(1) block=(32) args=(x)\n"
        ".entry k(.param .u64 px)\n"
        "{\n"
        "    .reg .u32 %r<4>;\n"
        "    .reg .u64 %rd<2>;\n"
        "    ld.param.u64 %rd1, [px];\n"
        "    st.global.u32 [%rd1], 42;\n"
        "    ld.global.u32 %r1, [%rd1];\n"
        "    atom.global.add.u32 %r2, [%rd1], 1;\n"
        "    ld.global.u32 %r3, [%rd1];\n"
        "    ret;\n"
        "}\n";
    KernelRig rig;
    rig_init(&rig, "held.s", src, 32);
    Kernel *k = &rig.k;
    DeferLog log = { 0 };
    k->defer = &log;
    Cta c;
    assert_int_equal(cta_init(k, &c, 0, 0), 0);
    Warp *w = &c.warps[0];
    uint32_t *x = (uint32_t *)mem_region_of_buffer(&rig.mem, 0)->data;
    int r1 = reg_index(k->entry, "%r1"), r2 = reg_index(k->entry, "%r2"), r3 = reg_index(k->entry, "%r3");
    ExecOut out;
    assert_int_equal(warp_issue(k, w, &out), ISSUE_OK);            /* ld.param */
    assert_int_equal(warp_issue(k, w, &out), ISSUE_OK);            /* st: held */
    assert_int_equal(*x, 0);
    assert_int_equal(log.n, 1);
    assert_int_equal(log.e[0].lanes, 0xffffffffu);
    assert_int_equal(warp_issue(k, w, &out), ISSUE_OK);            /* ld, same cycle: the old value */
    assert_int_equal(reg_get(k, w, r1, 5), 0);
    for (int i = 0; i < log.n; i++) exec_replay(k, &log.e[i]);    /* end of the cycle */
    log.n = 0;
    assert_int_equal(*x, 42);
    assert_int_equal(warp_issue(k, w, &out), ISSUE_OK);            /* atom: held, %r2 not written */
    assert_int_equal(*x, 42);
    assert_int_equal(out.mem.is_atomic, 1);
    for (int i = 0; i < log.n; i++) exec_replay(k, &log.e[i]);
    log.n = 0;
    assert_int_equal(*x, 42 + 32);                                  /* lanes in order: lane l saw 42 + l */
    assert_int_equal(reg_get(k, w, r2, 0), 42);
    assert_int_equal(reg_get(k, w, r2, 31), 42 + 31);
    assert_int_equal(warp_issue(k, w, &out), ISSUE_OK);            /* the next cycle's load sees it */
    assert_int_equal(reg_get(k, w, r3, 7), 74);
    free(log.e);
    cta_free(&c);
    rig_free(&rig);
}

/* stats_merge on a hand-made pair: sums, the deeper SIMT stack, and the
 * stride note of the earlier access. */
static void test_stats_merge(void **state)
{
    (void)state;
    Stats a, b;
    assert_int_equal(stats_init(&a, 2, 1), 0);
    assert_int_equal(stats_init(&b, 2, 1), 0);
    a.inst = 5; b.inst = 7;
    a.stall[STALL_WAIT] = 10; b.stall[STALL_WAIT] = 4;
    a.requests[0][1] = 3; b.requests[0][1] = 1;
    a.simt_max_depth = 4; b.simt_max_depth = 2;
    a.line[1].inst = 2; b.line[1].inst = 9;
    b.line[1].stride_seen = 1; b.line[1].lane_stride = 128; b.line[1].mem_bytes = 4; b.line[1].stride_at = 50;
    a.line[2].stride_seen = 1; a.line[2].lane_stride = 4; a.line[2].stride_at = 80;
    b.line[2].stride_seen = 1; b.line[2].lane_stride = 8; b.line[2].stride_at = 70;   /* earlier: wins */
    stats_merge(&a, &b);
    assert_int_equal(a.inst, 12);
    assert_int_equal(a.stall[STALL_WAIT], 14);
    assert_int_equal(a.requests[0][1], 4);
    assert_int_equal(a.simt_max_depth, 4);
    assert_int_equal(a.line[1].inst, 11);
    assert_int_equal(a.line[1].stride_seen, 1);
    assert_int_equal(a.line[1].lane_stride, 128);
    assert_int_equal(a.line[1].mem_bytes, 4);
    assert_int_equal(a.line[2].lane_stride, 8);
    assert_int_equal(a.line[2].stride_at, 70);
    /* a tie keeps into's: the caller merges lanes in SM order */
    b.line[2].lane_stride = 16;
    stats_merge(&a, &b);
    assert_int_equal(a.line[2].lane_stride, 8);
    assert_int_equal(a.inst, 19);
    stats_free(&a);
    stats_free(&b);
}

/* memsys in deferred mode: an access's packets reach the memory side only
 * through memsys_sm_sync, and then exactly as without deferral. */
static void test_memsys_deferred(void **state)
{
    (void)state;
    Config c;
    assert_int_equal(load_config(&c, "configs/fermi.ini"), 0);
    MemSys *plain = memsys_create(&c, c.gpu.num_sms), *held = memsys_create(&c, c.gpu.num_sms);
    assert_non_null(plain);
    assert_non_null(held);
    memsys_set_deferred(held, 1);
    MemAccess a = { 0 };
    a.space = SP_GLOBAL;
    a.bytes = 4;
    a.mask = 0xffffffffu;
    for (int l = 0; l < 32; l++) a.addr[l] = 0x10000000ull + 4ull * (uint64_t)l;   /* one 128-byte line: a miss */
    uint64_t d1 = 0, d2 = 0;
    assert_int_equal(memsys_access(plain, 3, 0, 7, &a, 100, &d1), MEM_PENDING);
    assert_int_equal(memsys_access(held, 3, 0, 7, &a, 100, &d2), MEM_PENDING);
    assert_int_equal(memsys_next_event(plain), 101);
    assert_int_equal(memsys_next_event(held), UINT64_MAX);   /* not told yet */
    memsys_sm_sync(held, 0, c.gpu.num_sms);
    assert_int_equal(memsys_next_event(held), 101);
    /* from here both run alike: the same completion at the same cycle */
    MemDone o1[4], o2[4];
    uint64_t t1 = 0, t2 = 0;
    for (uint64_t t = 101; t < 5000 && (!t1 || !t2); t++) {
        if (!t1 && memsys_tick(plain, t, o1, 4)) t1 = t;
        if (!t2 && memsys_tick(held, t, o2, 4)) t2 = t;
    }
    assert_true(t1 > 101);
    assert_int_equal(t1, t2);
    assert_int_equal(o1[0].sm, 3);
    assert_int_equal(o2[0].tag, 7);
    const MemStats *s1 = memsys_stats(plain);
    uint64_t sectors = s1->l1_sectors_ld;
    assert_int_equal(sectors, 4);
    assert_int_equal(memsys_stats(held)->l1_sectors_ld, 4);
    memsys_destroy(plain);
    memsys_destroy(held);
}

/* A sweep's points times the threads of each never pass the cores. */
static void test_threads_share(void **state)
{
    (void)state;
    assert_int_equal(gpu_threads_share(0, 1, 2), -2);   /* one run, not asked: automatic, up to every core */
    assert_int_equal(gpu_threads_share(4, 2, 2), 1);    /* -j 2 --threads 4 on 2 cores: 1 each */
    assert_int_equal(gpu_threads_share(0, 3, 2), -1);   /* more points than cores: 1, never 0 */
    assert_int_equal(gpu_threads_share(3, 2, 16), 3);   /* asked for fewer than the share */
    assert_int_equal(gpu_threads_share(0, 2, 16), -8);
    assert_int_equal(gpu_threads_share(1, 1, 8), 1);
    assert_true(gpu_threads_default() >= 1 && gpu_threads_default() <= GPU_MAX_THREADS);
}

/* How many host threads a launch gets: what was asked, at most one per SM;
 * automatic (-N): up to N, at most one per 32 SMs; one with the checks. */
static int lanes_for(const char *cfg_path, int threads, int checks, uint64_t *visits)
{
    Config c;
    assert_int_equal(load_config(&c, cfg_path), 0);
    Program *p = assemble("kernels/vecadd.s");
    assert_non_null(p);
    GpuHostTimes times = { 0 };
    RunOptions ro = { .threads = threads, .host_times = &times, .checks = checks };
    DiagList dl = { 0 };
    Run r;
    assert_int_equal(run_program(&r, p, &c, cfg_path, &ro, &dl), RUN_OK);
    assert_true(times.visits > 0 && times.visits <= r.stats.cycles);   /* the loop skips quiet cycles */
    if (visits) *visits = times.visits;
    run_free(&r);
    program_free(p);
    diag_free(&dl);
    return times.lanes;
}

static void test_lane_count(void **state)
{
    (void)state;
    assert_int_equal(lanes_for("configs/fermi.ini", 3, 0, NULL), 3);     /* asked: 3 of 15 SMs */
    assert_int_equal(lanes_for("configs/fermi.ini", -4, 0, NULL), 1);    /* automatic: 15 / 32 SMs -> 1 */
    assert_int_equal(lanes_for("configs/hopper.ini", -8, 0, NULL), 4);   /* 132 / 32 = 4 */
    assert_int_equal(lanes_for("configs/hopper.ini", -2, 0, NULL), 2);
    assert_int_equal(lanes_for("configs/fermi.ini", 200, 0, NULL), 15);   /* at most one per SM */
    assert_int_equal(lanes_for("configs/hopper.ini", 4, CHECK_RACES, NULL), 1);   /* the checks watch each issue */
    assert_int_equal(lanes_for("configs/hopper.ini", 0, 0, NULL), 1);    /* the library's default */
    /* the cycles the loop visits do not depend on the lanes either */
    uint64_t one = 0, three = 0;
    lanes_for("configs/hopper.ini", 1, 0, &one);
    lanes_for("configs/hopper.ini", 3, 0, &three);
    assert_int_equal(one, three);
}

/* vecadd.s on `cfg` at `threads` threads: the one-thread result. */
static void vecadd_same_at(const char *cfg, int threads)
{
    Config c;
    assert_int_equal(load_config(&c, cfg), 0);
    Program *p = assemble("kernels/vecadd.s");
    assert_non_null(p);
    Outcome one = run_at(p, &c, cfg, 1), many = run_at(p, &c, cfg, threads);
    assert_int_equal(many.rc, RUN_OK);
    assert_same_outcome(&one, &many);
    program_free(p);
}

/* The host prefetching (sm.h: sm_prefetch) pays where the resident warps'
 * state outgrows the host's caches, SM_PREFETCH_BYTES (8 MiB): the
 * resident blocks (blocks per SM x SMs, at most the grid) x warps x (the
 * register rows, 9 bytes of scoreboard per register, the predicates and
 * the two warp records, together under 1.5 KiB here).  Worked by hand
 * with 8-warp blocks, 2 per SM, 132 SMs: 2112 warps. */
static void test_prefetch_pays(void **state)
{
    (void)state;
    Entry e;
    memset(&e, 0, sizeof e);
    e.nregs = 4;
    e.npreds = 1;
    uint32_t row_off[5] = { 0, 1024, 2048, 3072, 4096 };   /* 4 KiB of rows a warp */
    Kernel k;
    memset(&k, 0, sizeof k);
    k.entry = &e;
    k.row_off = row_off;
    k.nctas = 1000;
    Timing t;
    memset(&t, 0, sizeof t);
    t.k = &k;
    t.occ.blocks = 2;
    t.occ.warps_per_block = 8;
    assert_true(sizeof(SmWarp) + sizeof(Warp) + 4 * 9 + 9 + sizeof(LaneMask) < 1536);
    assert_int_equal(sm_prefetch_pays(&t, 132), 1);   /* 2112 x (4 KiB + < 1.5 KiB) >= 8.25 MiB: over */
    row_off[4] = 2048;                                 /* 2112 x < 3.5 KiB < 7.3 MiB */
    assert_int_equal(sm_prefetch_pays(&t, 132), 0);
    row_off[4] = 4096;
    assert_int_equal(sm_prefetch_pays(&t, 15), 0);    /* fermi's 15 SMs: 240 warps, under 1.3 MiB */
    k.nctas = 100;                                     /* a grid of 100 blocks: 800 warps, < 4.3 MiB */
    assert_int_equal(sm_prefetch_pays(&t, 132), 0);
}

/* Prefetching on or off, the same run: nvcc's naive_mm at 128³ on
 * hopper.ini with a row per register (64 blocks of 8 warps, 62 registers
 * of 32 bits and 34 of 64: 16.3 KiB of rows a warp, about 9 MiB in all;
 * its shared rows take 6.4 KiB) turns it on by itself, fermi.ini's
 * tiled_mm does not. */
static void test_prefetch_changes_nothing(void **state)
{
    (void)state;
    struct { const char *cfg, *kernel; int pays; } cases[] = {
        { "configs/hopper.ini", "tests/validation/nvcc/naive_mm.s", 1 },
        { "configs/fermi.ini", "kernels/tiled_mm.s", 0 },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        Config c;
        assert_int_equal(load_config(&c, cases[i].cfg), 0);
        Program *p = assemble(cases[i].kernel);
        assert_non_null(p);
        GpuHostTimes ta = { 0 }, tb = { 0 };
        Outcome a = run_timed(p, &c, cases[i].cfg, 1, &ta, cases[i].pays);
        gpu_test_prefetch(!cases[i].pays);
        Outcome b = run_timed(p, &c, cases[i].cfg, 1, &tb, cases[i].pays);
        gpu_test_prefetch(-1);
        assert_int_equal(ta.prefetch, cases[i].pays);
        assert_int_equal(tb.prefetch, !cases[i].pays);
        assert_int_equal(a.rc, RUN_OK);
        assert_same_outcome(&a, &b);
        program_free(p);
    }
}

/* More lanes than the claim word holds (gpu.c: CLAIM_TASKS): each lane's
 * task runs on its own thread, as before the claiming; 40 lanes of
 * hopper.ini's 132 SMs give the one-thread result. */
static void test_lanes_past_the_claim_word(void **state)
{
    (void)state;
    vecadd_same_at("configs/hopper.ini", 40);
}

/* More threads than SMs: each lane gets at least one SM (tiny.ini). */
static void test_more_threads_than_sms(void **state)
{
    (void)state;
    vecadd_same_at("configs/tiny.ini", GPU_MAX_THREADS);
}

/* A lane's task is its lane's whichever thread runs it (gpu.c: a thread
 * takes its own lane's task, then any other not taken yet).  With the
 * worker threads taking none, the calling thread runs all three lanes'
 * SM phases and partition steps every cycle: the same report and memory
 * as one thread.  (Were a task left to its own thread alone, the launch
 * would wait forever: the alarm ends the test instead.) */
static void test_caller_takes_every_task(void **state)
{
    (void)state;
    const char *cfg = "configs/hopper.ini";
    const char *files[] = { "kernels/tiled_mm.s", "tests/data/atom_conflict.s", "tests/data/red_posted.s" };
    Config c;
    assert_int_equal(load_config(&c, cfg), 0);
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        Program *p = assemble(files[i]);
        assert_non_null(p);
        Outcome one = run_at(p, &c, cfg, 1);
        alarm(120);
        gpu_test_idle_workers(1);
        Outcome three = run_at(p, &c, cfg, 3);
        gpu_test_idle_workers(0);
        alarm(0);
        assert_same_outcome(&one, &three);
        program_free(p);
    }
}

/* Under AddressSanitizer (sanitized.h) the full matrix of the first pass
 * is not repeated: hopper.ini, the config with the most SMs, at 1 and 2
 * threads checks the memory safety of the lanes; the rest runs as in the
 * first pass (GPUSIM_FULL=1: the whole matrix, about 2 minutes on 2
 * cores). */
/* The claim word a phase's threads share out its tasks by (gpu.c).  A
 * thread woken for one phase could once read the next phase's task count
 * beside the old phase's claim word, which had bits only for the tasks it
 * counted, and take a task number the old phase did not have: the task
 * then ran twice (the next phase's word was written over its claim) and
 * `done` counted one too many, so the calling thread waited for ever (seen
 * once in test_threads' fermi.ini launch of 15 lanes; gdb: done 16 of 15).
 * Now the count comes with the phase's number in one word (Pool.go), and
 * the claim word has the task numbers a phase does not have taken from
 * its start: whatever count a thread believes, it can take only its
 * phase's tasks, each once.  Stepped by hand here, the interleaving that
 * hung. */
static void test_claim_word(void **state)
{
    (void)state;
    _Atomic uint64_t c = claim_open(147, 6);      /* a memory phase: 6 partition lanes */
    for (int i = 0; i < 6; i++) assert_int_equal(claim_take(&c, 147, i), 1);
    for (int i = 0; i < 6; i++) assert_int_equal(claim_take(&c, 147, i), 0);   /* each once */
    /* the late thread: phase 147's word, the next phase's 15 tasks */
    for (int i = 6; i < 15; i++) assert_int_equal(claim_take(&c, 147, i), 0);
    assert_int_equal(claim_take(&c, 147, 23), 0);             /* the word's last task bit */
    assert_int_equal(claim_take(&c, 146, 0), -1);            /* an older phase's thread */
    /* the next phase: its 15 tasks, each once, none past them */
    c = claim_open(148, 15);
    assert_int_equal(claim_take(&c, 147, 7), -1);
    for (int i = 0; i < 15; i++) assert_int_equal(claim_take(&c, 148, i), 1);
    for (int i = 0; i < 24; i++) assert_int_equal(claim_take(&c, 148, i), 0);
    /* 24 tasks fill the word; a phase's number wraps at 2^40 */
    c = claim_open(9, 24);
    assert_int_equal(claim_take(&c, 9, 23), 1);
    assert_int_equal(claim_take(&c, 9 + (1ull << 40), 0), 1);
    assert_int_equal(claim_open(1, 0) & ((1ull << 24) - 1), (1ull << 24) - 1);   /* no tasks: all taken */
}

/* How long a waiting thread spins (gpu_spin_next).  The rule was once
 * relative: a wait over four times the spin halved it.  A memory-bound
 * launch's worker waits 20-100 us at every phase while the calling thread
 * runs the memory side, so once a few long waits (a fresh process's page
 * faults) had brought the spin under 5 us it could only shrink: hopper
 * transpose_naive 2048² on 2 threads then slept 294 K times, its caller
 * paying a wake-up at each phase, and took 8.2-9.2 s against 4.7-5.3 s on
 * one thread.  Now only a wait of a millisecond or more (the other thread
 * had no core) shortens the spin. */
static void test_spin_next(void **state)
{
    (void)state;
    assert_true(gpu_spin_next(1e-6, 21e-6) == 2e-6);          /* the worker's usual wait: longer */
    assert_true(gpu_spin_next(6.25e-6, 100e-6) == 12.5e-6);
    assert_true(gpu_spin_next(150e-6, 900e-6) == 200e-6);     /* at most 200 us */
    assert_true(gpu_spin_next(200e-6, 200e-6) == 200e-6);
    assert_true(gpu_spin_next(200e-6, 4e-3) == 100e-6);       /* no core for it: shorter */
    assert_true(gpu_spin_next(1.5625e-6, 4e-3) == 0.78125e-6);   /* halved while over 1 us, */
    assert_true(gpu_spin_next(0.78125e-6, 4e-3) == 0.78125e-6);  /* no further */
    /* from the bottom, 9 waits of 21 us bring it back to the top */
    double s = 0.78125e-6;
    for (int i = 0; i < 9; i++) s = gpu_spin_next(s, 21e-6);
    assert_true(s == 200e-6);
}

int main(void)
{
    nkernels = list_dir("kernels", ".s", kernels, MAX_FILES);
    nconfigs = list_dir("configs", ".ini", configs, MAX_FILES);
    if (sanitized_subset()) {
        for (int i = 0; i < nconfigs; i++) free(configs[i]);
        configs[0] = strdup("configs/hopper.ini");
        nconfigs = 1;
        max_threads = 2;
    }
    struct CMUnitTest tests[MAX_FILES + 16];
    int n = 0;
    for (int i = 0; i < nconfigs; i++) tests[n++] = (struct CMUnitTest){ configs[i], test_config, NULL, NULL, configs[i] };
    tests[n++] = (struct CMUnitTest){ "order_sensitive", test_order_sensitive, NULL, NULL, NULL };
    tests[n++] = (struct CMUnitTest){ "rows_shared", test_rows_shared, NULL, NULL, NULL };
    tests[n++] = (struct CMUnitTest){ "fault", test_fault, NULL, NULL, NULL };
    tests[n++] = (struct CMUnitTest){ "held_stores", test_held_stores, NULL, NULL, NULL };
    tests[n++] = (struct CMUnitTest){ "stats_merge", test_stats_merge, NULL, NULL, NULL };
    tests[n++] = (struct CMUnitTest){ "memsys_deferred", test_memsys_deferred, NULL, NULL, NULL };
    tests[n++] = (struct CMUnitTest){ "threads_share", test_threads_share, NULL, NULL, NULL };
    tests[n++] = (struct CMUnitTest){ "more_threads_than_sms", test_more_threads_than_sms, NULL, NULL, NULL };
    tests[n++] = (struct CMUnitTest){ "lane_count", test_lane_count, NULL, NULL, NULL };
    tests[n++] = (struct CMUnitTest){ "caller_takes_every_task", test_caller_takes_every_task, NULL, NULL, NULL };
    tests[n++] = (struct CMUnitTest){ "lanes_past_the_claim_word", test_lanes_past_the_claim_word, NULL, NULL, NULL };
    tests[n++] = (struct CMUnitTest){ "claim_word", test_claim_word, NULL, NULL, NULL };
    tests[n++] = (struct CMUnitTest){ "spin_next", test_spin_next, NULL, NULL, NULL };
    tests[n++] = (struct CMUnitTest){ "prefetch_pays", test_prefetch_pays, NULL, NULL, NULL };
    tests[n++] = (struct CMUnitTest){ "prefetch_changes_nothing", test_prefetch_changes_nothing, NULL, NULL, NULL };
    int rc = _cmocka_run_group_tests("threads", tests, (size_t)n, NULL, NULL);
    for (int i = 0; i < nkernels; i++) free(kernels[i]);
    for (int i = 0; i < nconfigs; i++) free(configs[i]);
    return rc;
}
