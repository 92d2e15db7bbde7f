/* test_timing.c - the cycle-level SM model: occupancy figures from the
 * seeds, stall accounting that explains every warp-cycle, and cycle counts
 * that move the way a textbook predicts when the hardware changes. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "isa/asm.h"
#include "sim/base/config.h"
#include "sim/core/check.h"
#include "sim/front/run.h"
#include "sim/mem/mem.h"
#include "sim/timing/occupancy.h"

static void load(Config *c, const char *path)
{
    DiagList dl = { 0 };
    config_defaults(c);
    assert_int_equal(config_load_file(c, path, &dl), 0);
    diag_free(&dl);
}

static void fermi(Config *c) { load(c, "configs/fermi.ini"); }
static void hopper(Config *c) { load(c, "configs/hopper.ini"); }

static void set(Config *c, const char *kv)
{
    DiagList dl = { 0 };
    if (config_set(c, kv, &dl)) diag_print(&dl, stderr);
    assert_int_equal(diag_count(&dl), 0);
    diag_free(&dl);
}

/* Run a kernel file with timing; returns the stats through *out. */
static void run_file(const Config *c, const char *path, const AsmDefine *defs, int ndefs, Stats *out)
{
    DiagList dl = { 0 };
    AsmOptions ao = { defs, ndefs };
    Program *p = asm_assemble_file(path, &ao, &dl);
    if (!p) diag_print(&dl, stderr);
    assert_non_null(p);
    Run r;
    RunOptions o = { 0 };
    int rc = run_program(&r, p, c, "test", &o, &dl);
    if (rc != RUN_OK) diag_print(&dl, stderr);
    assert_int_equal(rc, RUN_OK);
    *out = r.stats;
    out->line = NULL;
    run_free(&r);
    program_free(p);
    diag_free(&dl);
}

static uint64_t cycles(const Config *c, const char *path)
{
    Stats s;
    run_file(c, path, NULL, 0, &s);
    return s.cycles;
}

/* A block slot of an SM keeps its arrays for the next block (sm.c:
 * cta_retire, then cta_next), and every block still starts on zeroed
 * shared and local memory and predicates: tests/data/blocks_fresh.s on
 * one SM holding one block at a time, so its 3 blocks of 40 threads run
 * in one slot, one after another.  Each thread stores what its shared
 * word, its local word and %p1 held before it wrote them (0 in out[2t])
 * and its block id (out[2t + 1]).  A second run with the race checks on,
 * whose records of a block close when it retires, finds nothing. */
static void test_block_slot_reused_fresh(void **state)
{
    (void)state;
    for (int checks = 0; checks < 2; checks++) {
        Config c;
        fermi(&c);
        set(&c, "gpu.num_sms=1");
        set(&c, "sm.max_blocks=1");
        DiagList dl = { 0 };
        Program *p = asm_assemble_file("tests/data/blocks_fresh.s", NULL, &dl);
        if (!p) diag_print(&dl, stderr);
        assert_non_null(p);
        Run r;
        RunOptions o = { 0 };
        o.checks = checks ? CHECK_RACES : 0;
        assert_int_equal(run_program(&r, p, &c, "test", &o, &dl), RUN_OK);
        const uint32_t *out = (const uint32_t *)(void *)mem_region_of_buffer(&r.mem, 0)->data;
        for (int t = 0; t < 120; t++) {
            assert_int_equal(out[2 * t], 0);            /* nothing of the block before */
            assert_int_equal(out[2 * t + 1], t / 40);   /* its own block id */
        }
        assert_int_equal(r.stats.ctas_launched, 3);
        assert_int_equal(check_findings(&r.check), 0);
        run_free(&r);
        program_free(p);
        diag_free(&dl);
    }
}

/* ---- occupancy: the seeds' worked examples ---------------------------------------- */
static void a100_like(Config *c)
{
    config_defaults(c);
    c->sm.max_threads = 2048;
    c->sm.max_warps = 64;
    c->sm.max_blocks = 32;
    c->sm.registers = 65536;
    c->sm.reg_alloc_unit = 256;
    c->sm.max_regs_per_thread = 255;
    c->sm.shared_bytes = 164 * 1024;
}

static void test_occupancy_seed004_block_sizes(void **state)
{
    (void)state;
    Config c;
    Occupancy o;
    a100_like(&c);
    /* 32-thread blocks: the 32-block limit allows 32 warps of 64: 50% */
    occupancy_compute(&o, &c, 32, 16, 0, 1000);
    assert_int_equal(o.blocks, 32);
    assert_int_equal(o.binding, OCC_BLOCKS);
    assert_true(o.theoretical_pct == 50.0);
    /* 768-thread blocks: 24 warps each, 64/24 = 2 blocks = 48 warps: 75% */
    occupancy_compute(&o, &c, 768, 16, 0, 1000);
    assert_int_equal(o.blocks, 2);
    assert_int_equal(o.binding, OCC_WARPS);
    assert_true(o.theoretical_pct == 75.0);
}

static void test_occupancy_register_cliff(void **state)
{
    (void)state;
    Config c;
    Occupancy o;
    a100_like(&c);
    /* 512 threads at 31 registers: 31*32 = 992 -> 1024 per warp, 64 warps
     * fit, 64/16 = 4 blocks */
    occupancy_compute(&o, &c, 512, 31, 0, 1000);
    assert_int_equal(o.regs_per_warp, 1024);
    assert_int_equal(o.limit[OCC_REGISTERS], 4);
    assert_int_equal(o.blocks, 4);
    /* 33 registers: 1056 -> 1280 per warp, 65536/1280 = 51 warps, 51/16 = 3 */
    occupancy_compute(&o, &c, 512, 33, 0, 1000);
    assert_int_equal(o.regs_per_warp, 1280);
    assert_int_equal(o.limit[OCC_REGISTERS], 3);
    assert_int_equal(o.blocks, 3);
    assert_int_equal(o.binding, OCC_REGISTERS);
}

static void test_occupancy_seed003_shared(void **state)
{
    (void)state;
    Config c;
    Occupancy o;
    config_defaults(&c);
    c.sm.max_blocks = 8;
    c.sm.max_threads = 2048;
    c.sm.max_warps = 64;
    c.sm.registers = 65536;
    c.sm.reg_alloc_unit = 256;
    c.sm.shared_bytes = 64 * 1024;
    c.sm.shared_alloc_unit = 256;
    /* 256-thread blocks, 32 registers, 16 KiB shared: 64/16 = 4 blocks */
    occupancy_compute(&o, &c, 256, 32, 16 * 1024, 100);
    assert_int_equal(o.limit[OCC_SHARED], 4);
    assert_int_equal(o.blocks, 4);
    assert_int_equal(o.binding, OCC_SHARED);
}

static void test_occupancy_cannot_fit(void **state)
{
    (void)state;
    Config c;
    Occupancy o;
    fermi(&c);
    occupancy_compute(&o, &c, 256, 20, 52 * 1024, 1);
    assert_int_equal(o.blocks, 0);
    assert_string_equal(o.error, "block needs 52 KiB shared memory; an SM has 48 KiB");
}

/* ---- stall accounting ---------------------------------------------------------------- */
static void test_stalls_sum_to_resident_cycles(void **state)
{
    (void)state;
    Config c;
    fermi(&c);
    const char *files[] = { "kernels/tiled_mm.s", "kernels/reduce_interleaved.s", "kernels/vecadd.s",
                            "kernels/transpose_shared.s", "tests/data/lockstep.s" };
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        Stats s;
        run_file(&c, files[i], NULL, 0, &s);
        uint64_t sum = 0;
        for (int k = 0; k < STALL_COUNT; k++) sum += s.stall[k];
        assert_true(s.warp_resident > 0);
        assert_int_equal(sum, s.warp_resident);
        /* each issued instruction is exactly one 'selected' warp-cycle */
        assert_int_equal(s.stall[STALL_SELECTED], s.inst);
    }
}

/* tests/data/branch_to_end.s has no ret: a divergent branch jumps to the
 * end of the code while the warp's other lanes have a loop to run, so a
 * warp issues at the end (an implicit ret) and, with several there in one
 * cycle, waits in its scheduler's ready set with no pipe.  ready_leave
 * charged it by the pipe of the branch before (sw->pipe, left as it was),
 * and on ampere.ini not_selected wrapped below zero (18446744073709528176
 * warp-cycles), and the text report's bar for it crashed the run; the SMs
 * also counted the implicit ret as an instruction and the GPU did not
 * (6016 against 5888).  On every config: no state holds more warp-cycles
 * than there were, the states add up, each instruction is one selected
 * warp-cycle, the SMs' instructions add up to the GPU's, the implicit ret
 * counts as the ret it stands for (the same file with "ret;" after DONE),
 * and the result is right: c[i] = a[i] * 2^8 for even i, 0 for odd. */
static void run_stats(const Config *c, const char *path, const char *text, Stats *s, uint64_t *sm_inst, int *right)
{
    DiagList dl = { 0 };
    Program *p = path ? asm_assemble_file(path, NULL, &dl) : asm_assemble("ret.s", text, strlen(text), NULL, &dl);
    if (!p) diag_print(&dl, stderr);
    assert_non_null(p);
    Run r;
    RunOptions o = { 0 };
    assert_int_equal(run_program(&r, p, c, "test", &o, &dl), RUN_OK);
    *s = r.stats;
    *sm_inst = 0;
    for (int i = 0; i < r.stats.nsms; i++) *sm_inst += r.stats.sm[i].inst;
    const float *a = (const float *)(void *)mem_region_of_buffer(&r.mem, 0)->data;
    const float *out = (const float *)(void *)mem_region_of_buffer(&r.mem, 1)->data;
    *right = 1;
    for (int i = 0; i < 4096; i++)
        if (out[i] != (i % 2 ? 0.0f : a[i] * 256.0f)) *right = 0;
    s->line = NULL;
    s->sm = NULL;
    run_free(&r);
    program_free(p);
    diag_free(&dl);
}

static void test_stalls_at_the_end_of_the_code(void **state)
{
    (void)state;
    const char *path = "tests/data/branch_to_end.s";
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    static char text[8192], with_ret[8300];
    size_t n = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[n] = '\0';
    const char *done = strstr(text, "DONE:\n}");
    assert_non_null(done);
    snprintf(with_ret, sizeof with_ret, "%.*sDONE:\n    ret;\n}\n", (int)(done - text), text);
    const char *configs[] = { "configs/ampere.ini", "configs/fermi.ini", "configs/hopper.ini", "configs/volta.ini",
                              "configs/tiny.ini" };
    for (size_t k = 0; k < sizeof configs / sizeof configs[0]; k++) {
        Config c;
        load(&c, configs[k]);
        Stats s, r;
        uint64_t sm_inst, sm_inst_r;
        int right, right_r;
        run_stats(&c, path, NULL, &s, &sm_inst, &right);
        run_stats(&c, NULL, with_ret, &r, &sm_inst_r, &right_r);
        uint64_t sum = 0;
        for (int i = 0; i < STALL_COUNT; i++) {
            if (s.stall[i] > s.warp_resident)
                print_error("%s: %s %llu warp-cycles of %llu\n", configs[k], stall_names[i],
                            (unsigned long long)s.stall[i], (unsigned long long)s.warp_resident);
            assert_true(s.stall[i] <= s.warp_resident);
            sum += s.stall[i];
        }
        assert_int_equal(sum, s.warp_resident);
        assert_int_equal(s.stall[STALL_SELECTED], s.inst);
        assert_int_equal(sm_inst, s.inst);
        assert_int_equal(s.inst, r.inst);   /* the implicit ret is one, as ret is */
        assert_true(right && right_r);
    }
}

/* A launch a fault stops: the warps that issued in the fault's cycle had
 * that cycle charged (their issue slots, look_ahead), so it counts as
 * resident for them too, and every warp's states still add up to its
 * resident cycles.  fuzz_run's case: tests/data/blur_nobar.s with the
 * right halo's load addressed through %rd0, a register nothing writes (it
 * faults out of bounds at 0x4), on ampere.ini with the checks (the PTX as
 * written): 12,545 warp-cycles of states against 12,544 resident before
 * the fix.  Every config, with and without the checks, and fault_oob.s. */
static void test_stalls_add_up_after_a_fault(void **state)
{
    (void)state;
    static char mutant[8192];
    FILE *f = fopen("tests/data/blur_nobar.s", "r");
    assert_non_null(f);
    size_t n = fread(mutant, 1, sizeof mutant - 1, f);
    fclose(f);
    mutant[n] = '\0';
    char *addr = strstr(mutant, "[%rd5+4]");
    assert_non_null(addr);
    addr[4] = '0';                                   /* [%rd0+4] */
    const char *configs[] = { "configs/ampere.ini", "configs/fermi.ini", "configs/hopper.ini", "configs/volta.ini",
                              "configs/tiny.ini" };
    for (size_t k = 0; k < sizeof configs / sizeof configs[0]; k++)
        for (int file = 0; file < 2; file++)
            for (int checks = 0; checks < 2; checks++) {
                Config c;
                load(&c, configs[k]);
                DiagList dl = { 0 };
                Program *p = file ? asm_assemble_file("tests/data/fault_oob.s", NULL, &dl)
                                  : asm_assemble("blur_rd0.s", mutant, strlen(mutant), NULL, &dl);
                assert_non_null(p);
                Run r;
                RunOptions o = { 0 };
                o.checks = checks ? CHECK_RACES | CHECK_UNINIT : 0;
                assert_int_equal(run_program(&r, p, &c, "test", &o, &dl), RUN_FAULT);
                uint64_t sum = 0;
                for (int i = 0; i < STALL_COUNT; i++) sum += r.stats.stall[i];
                if (sum != r.stats.warp_resident)
                    print_error("%s %s checks %d: states %llu, resident %llu\n", configs[k], file ? "fault_oob" : "blur_rd0",
                                checks, (unsigned long long)sum, (unsigned long long)r.stats.warp_resident);
                assert_int_equal(sum, r.stats.warp_resident);
                if (k == 0 && file == 0 && checks) assert_int_equal(sum, 12545);
                run_free(&r);
                program_free(p);
                diag_free(&dl);
            }
}

/* The implicit ret counted by hand: one warp of five PTX instructions and
 * no ret, on fermi.ini as written (core.schedule=source: no expansion, no
 * prologue).  5 instructions and the end of the code: 6 warp instructions
 * (smsp__inst_executed.sum), 5 PTX ones, 32 x 5 thread instructions, with
 * timing 6 selected warp-cycles and the SM's 6; with a ret after the store,
 * 6, 6 and 32 x 6.  The store writes out[t] = t. */
static void test_implicit_ret_counted(void **state)
{
    (void)state;
    static const char body[] =
        ".buffer out .u32[32] zero\n"
        ".launch k grid=1 block=32 args=(out)\n"
        ".entry k (.param .u64 out)\n"
        "{\n"
        "    ld.param.u64  %rd1, [out];\n"
        "    mov.u32       %r1, %tid.x;\n"
        "    mul.wide.u32  %rd2, %r1, 4;\n"
        "    add.s64       %rd3, %rd1, %rd2;\n"
        "    st.global.u32 [%rd3], %r1;\n";
    for (int ret = 0; ret < 2; ret++)
        for (int functional = 0; functional < 2; functional++) {
            char text[1024];
            snprintf(text, sizeof text, "%s%s}\n", body, ret ? "    ret;\n" : "");
            Config c;
            fermi(&c);
            set(&c, "core.schedule=source");
            DiagList dl = { 0 };
            Program *p = asm_assemble("implicit_ret.s", text, strlen(text), NULL, &dl);
            if (!p) diag_print(&dl, stderr);
            assert_non_null(p);
            Run r;
            RunOptions o = { 0 };
            o.functional = functional;
            assert_int_equal(run_program(&r, p, &c, "test", &o, &dl), RUN_OK);
            assert_int_equal(r.stats.inst, 6);
            assert_int_equal(r.stats.ptx_inst, ret ? 6 : 5);
            assert_int_equal(r.stats.thread_inst, 32 * (ret ? 6 : 5));
            if (!functional) {
                uint64_t sm_inst = 0;
                for (int i = 0; i < r.stats.nsms; i++) sm_inst += r.stats.sm[i].inst;
                assert_int_equal(sm_inst, 6);
                assert_int_equal(r.stats.stall[STALL_SELECTED], 6);
            }
            const uint32_t *out = (const uint32_t *)(void *)mem_region_of_buffer(&r.mem, 0)->data;
            for (int t = 0; t < 32; t++) assert_int_equal(out[t], t);
            run_free(&r);
            program_free(p);
            diag_free(&dl);
        }
}

/* ---- direction tests --------------------------------------------------------------------- */
static void test_more_schedulers_fewer_cycles(void **state)
{
    (void)state;
    Config c;
    fermi(&c);
    uint64_t two = cycles(&c, "kernels/tiled_mm.s");
    set(&c, "sm.schedulers=1");
    uint64_t one = cycles(&c, "kernels/tiled_mm.s");
    print_message("tiled_mm: 2 schedulers %llu cycles, 1 scheduler %llu\n", (unsigned long long)two, (unsigned long long)one);
    assert_true(one > two);
}

static void test_longer_latency_more_cycles(void **state)
{
    (void)state;
    Config c;
    fermi(&c);
    uint64_t base = cycles(&c, "kernels/tiled_mm.s");
    set(&c, "lat.alu=44");
    uint64_t slow_alu = cycles(&c, "kernels/tiled_mm.s");
    fermi(&c);
    set(&c, "mem.model=fixed");
    base = cycles(&c, "kernels/tiled_mm.s");
    set(&c, "lat.global_fixed=300");
    uint64_t fast_mem = cycles(&c, "kernels/tiled_mm.s");
    assert_true(slow_alu > base);
    assert_true(fast_mem < base);
}

static void test_fewer_units_more_cycles(void **state)
{
    (void)state;
    Config c;
    fermi(&c);
    uint64_t base = cycles(&c, "tests/data/lockstep.s");
    set(&c, "unit.sp_groups=1");
    uint64_t one_group = cycles(&c, "tests/data/lockstep.s");
    assert_true(one_group > base);
    fermi(&c);
    set(&c, "unit.sp_width=32");   /* one cycle per warp instead of two */
    assert_true(cycles(&c, "tests/data/lockstep.s") < base);
}

/* A pooled pipe's throughput (fermi.ini: two groups of 16 SP lanes, each
 * busy 2 cycles a warp instruction, shared by both schedulers): one SP
 * instruction a cycle once enough warps wait.  tests/data/pipe_pool.s has
 * 69 a warp, so 32 warps take 24 x 69 = 1656 cycles more than 8; the first
 * and last cycles differ a little with the warp count (measured: 1658).
 * A scheduler that saw the pipe free only once both groups were would take
 * 1789. */
static void test_pooled_pipe_throughput(void **state)
{
    (void)state;
    Config c;
    fermi(&c);
    set(&c, "gpu.num_sms=1");
    set(&c, "core.schedule=source");
    Stats s8, s32;
    AsmDefine d8 = { "WARPS", "8" }, d32 = { "WARPS", "32" };
    run_file(&c, "tests/data/pipe_pool.s", &d8, 1, &s8);
    run_file(&c, "tests/data/pipe_pool.s", &d32, 1, &s32);
    assert_int_equal(s32.issues - s8.issues, 24 * 71);   /* 69 SP, ld.param, st */
    int64_t more = (int64_t)(s32.cycles - s8.cycles);
    print_message("pipe_pool: 8 warps %llu cycles, 32 warps %llu (+%lld, the pipe's bound +1656)\n",
                  (unsigned long long)s8.cycles, (unsigned long long)s32.cycles, (long long)more);
    assert_in_range(more, 1656 - 16, 1656 + 16);
}

/* A folded instruction (machine count 0: nvcc's ld.param of a pointer)
 * executes as soon as it is next, so the state a warp takes after folding
 * it is charged to the instruction it then waits at, never to the folded
 * one (sm.c keeps the line with pc through folds): on hopper.ini, every
 * line of nvcc's naive_mm that holds only folded ld.params holds no
 * warp-cycle, while the warps' cycles are all charged somewhere. */
static void test_folded_lines_hold_no_stalls(void **state)
{
    (void)state;
    Config c;
    hopper(&c);
    DiagList dl = { 0 };
    AsmDefine defs[] = { { "M", "64" }, { "N", "64" }, { "K", "64" } };
    AsmOptions ao = { defs, 3 };
    Program *p = asm_assemble_file("tests/validation/nvcc/naive_mm.s", &ao, &dl);
    assert_non_null(p);
    Run r;
    RunOptions o = { 0 };
    assert_int_equal(run_program(&r, p, &c, "test", &o, &dl), RUN_OK);
    const Entry *m = NULL;
    for (int i = 0; i < p->nentries && !m; i++)
        if (!strcmp(p->entries[i].name, "naive_mm")) m = p->entries[i].machine;
    assert_non_null(m);
    int folded_lines = 0;
    uint64_t charged = 0, resident = 0;
    for (int l = 1; l <= r.stats.nlines; l++) {
        int any = 0, only_folded = 1;
        for (int i = 0; i < m->ncode; i++) {
            const Instr *in = &m->code[i];
            if ((int)in->line != l) continue;
            any = 1;
            if (in->minst != 0 || in->op != OP_LD || in->space != SP_PARAM) only_folded = 0;
        }
        uint64_t cycles = 0;
        for (int s = 0; s < STALL_COUNT; s++) cycles += r.stats.line[l].stall[s];
        charged += cycles;
        if (!any || !only_folded) continue;
        folded_lines++;
        assert_int_equal(cycles, 0);
    }
    for (int s = 0; s < STALL_COUNT; s++) resident += r.stats.stall[s];
    assert_true(folded_lines >= 3);
    assert_int_equal(charged, resident);
    run_free(&r);
    program_free(p);
    diag_free(&dl);
}

static void test_gto_staggers_lockstep_warps(void **state)
{
    (void)state;
    Config c;
    fermi(&c);
    set(&c, "gpu.num_sms=1");
    set(&c, "sm.schedulers=1");
    set(&c, "mem.model=fixed");      /* the textbook case: every load has the same latency */
    set(&c, "core.schedule=source"); /* ... and every warp issues the same load-use pairs as written */
    set(&c, "sched.policy=lrr");
    uint64_t lrr = cycles(&c, "tests/data/lockstep.s");
    set(&c, "sched.policy=gto");
    uint64_t gto = cycles(&c, "tests/data/lockstep.s");
    print_message("lockstep: lrr %llu cycles, gto %llu\n", (unsigned long long)lrr, (unsigned long long)gto);
    assert_true(gto < lrr);
}

/* Seed 003: with load latency L and one load-use pair per round, IPC grows
 * with the number of resident warps until about L/2 warps fill the slot. */
static void test_latency_hiding_ipc_rises_with_warps(void **state)
{
    (void)state;
    Config c;
    fermi(&c);
    set(&c, "gpu.num_sms=1");
    set(&c, "sm.schedulers=1");
    set(&c, "unit.lsu_width=32");
    set(&c, "mem.model=fixed");
    set(&c, "lat.global_fixed=64");
    set(&c, "lat.alu=4");
    const char *warps[] = { "1", "2", "4", "8", "16", "32" };
    double prev = 0;
    for (int i = 0; i < 6; i++) {
        AsmDefine d = { "WARPS", warps[i] };
        Stats s;
        run_file(&c, "kernels/latency_hiding.s", &d, 1, &s);
        double ipc = (double)s.inst / (double)s.sm_active_cycles;
        print_message("latency_hiding WARPS=%s: IPC %.3f\n", warps[i], ipc);
        assert_true(ipc > prev);
        prev = ipc;
    }
    assert_true(prev > 0.7);
}

/* Bank conflicts are replays: the 32-way column reads of transpose_shared
 * cost cycles that the padded tile does not. */
static void test_bank_conflicts_cost_cycles(void **state)
{
    (void)state;
    Config c;
    fermi(&c);
    uint64_t conflicted = cycles(&c, "kernels/transpose_shared.s");
    uint64_t padded = cycles(&c, "kernels/transpose_padded.s");
    print_message("transpose: shared %llu cycles, padded %llu\n", (unsigned long long)conflicted, (unsigned long long)padded);
    assert_true(conflicted > padded);
}

/* Every policy finishes kernels with barriers and divergence on one SM
 * (a two-level pool full of warps waiting at a barrier once livelocked). */
static void test_every_policy_finishes(void **state)
{
    (void)state;
    const char *policies[] = { "sched.policy=lrr", "sched.policy=gto", "sched.policy=oldest", "sched.policy=two_level" };
    const char *files[] = { "kernels/transpose_shared.s", "kernels/reduce_interleaved.s", "kernels/tiled_mm.s" };
    for (int p = 0; p < 4; p++) {
        Config c;
        fermi(&c);
        set(&c, "gpu.num_sms=1");
        set(&c, policies[p]);
        for (int f = 0; f < 3; f++) assert_true(cycles(&c, files[f]) > 0);
    }
}

/* The per-SM counters split the totals exactly: instructions, active
 * cycles and every stall reason summed over the SMs give the GPU's. */
static void test_per_sm_counters_add_up(void **state)
{
    (void)state;
    Config c;
    fermi(&c);
    DiagList dl = { 0 };
    Program *p = asm_assemble_file("kernels/tiled_mm.s", NULL, &dl);
    assert_non_null(p);
    Run r;
    assert_int_equal(run_program(&r, p, &c, "test", &(RunOptions){ 0 }, &dl), RUN_OK);
    uint64_t inst = 0, active = 0, ctas = 0, stall[STALL_COUNT] = { 0 };
    for (int i = 0; i < r.stats.nsms; i++) {
        inst += r.stats.sm[i].inst;
        active += r.stats.sm[i].active_cycles;
        ctas += r.stats.sm[i].ctas;
        for (int k = 0; k < STALL_COUNT; k++) stall[k] += r.stats.sm[i].stall[k];
    }
    assert_int_equal(inst, r.stats.inst);
    assert_int_equal(active, r.stats.sm_active_cycles);
    assert_int_equal(ctas, 30);   /* tiled_mm 96x80: 6 x 5 blocks */
    assert_memory_equal(stall, r.stats.stall, sizeof stall);
    run_free(&r);
    program_free(p);
    diag_free(&dl);
}

/* tests/data/barrier_release.s: warp 1 reads %clock at cycle a and its
 * bar.sync, already in the buffer, issues at a + 1 on the SP group the mov
 * left free; that completes the barrier, and both warps go on from the next
 * cycle, a + 2, whichever scheduler they belong to and whatever the policy. */
static void test_barrier_releases_next_cycle(void **state)
{
    (void)state;
    const char *configs[] = { "configs/fermi.ini", "configs/volta.ini" };
    const char *policies[] = { "sched.policy=gto", "sched.policy=lrr", "sched.policy=oldest" };
    for (int ci = 0; ci < 2; ci++)
        for (int pi = 0; pi < 3; pi++) {
            Config c;
            DiagList dl = { 0 };
            config_defaults(&c);
            assert_int_equal(config_load_file(&c, configs[ci], &dl), 0);
            set(&c, policies[pi]);
            Program *p = asm_assemble_file("tests/data/barrier_release.s", NULL, &dl);
            assert_non_null(p);
            Run r;
            assert_int_equal(run_program(&r, p, &c, "test", &(RunOptions){ 0 }, &dl), RUN_OK);
            const uint32_t *t = (const uint32_t *)mem_region_of_buffer(&r.mem, program_find_buffer(p, "t"))->data;
            /* t[w*2] = clock before bar.sync, t[w*2+1] = clock after it */
            assert_true(t[0] < t[2]);                 /* warp 0 waited for warp 1 */
            assert_int_equal(t[3], t[2] + 2);
            assert_int_equal(t[1], t[3]);
            run_free(&r);
            program_free(p);
            diag_free(&dl);
        }
}

/* gpu.launch_cycles: a launch reaches the SMs that many cycles late.  With
 * fixed memory latencies nothing else depends on the absolute cycle, so
 * each launch's elapsed cycles grow by exactly the overhead (vecadd.s has
 * one launch, reduce_sequential.s two: 2 x 1000), the SM-active cycles,
 * the instructions and the stalls not at all. */
static void test_launch_overhead_is_elapsed_only(void **state)
{
    (void)state;
    const char *files[] = { "kernels/vecadd.s", "kernels/reduce_sequential.s" };
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        Config c;
        fermi(&c);
        set(&c, "mem.model=fixed");
        Stats a, b;
        run_file(&c, files[i], NULL, 0, &a);
        set(&c, "gpu.launch_cycles=1000");
        run_file(&c, files[i], NULL, 0, &b);
        Program *p = asm_assemble_file(files[i], &(AsmOptions){ 0 }, &(DiagList){ 0 });
        assert_non_null(p);
        uint64_t launches = (uint64_t)p->nlaunches;
        program_free(p);
        assert_int_equal(b.cycles, a.cycles + 1000 * launches);
        assert_int_equal(b.sm_active_cycles, a.sm_active_cycles);
        assert_int_equal(b.inst, a.inst);
        for (int r = 0; r < STALL_COUNT; r++) assert_int_equal(b.stall[r], a.stall[r]);
    }
}

/* sm.bar_latency and sm.bar_warp_cycles on tests/data/barrier_release.s
 * (two warps; warp 1 reads %clock at a and reaches bar.sync at a + 1; both
 * read %clock again right after it).  With both 0 the barrier releases on
 * the next cycle: a + 2 (test_barrier_releases_next_cycle).  The barrier unit
 * counts warp 1's arrival bar_warp_cycles = 3 after a + 1 (warp 0 arrived
 * earlier, so its count ended before), and releases bar_latency = 10 later:
 * the warps go on at (a + 1 + 3) + 10 + 1 = a + 15. */
static void test_barrier_cost_keys(void **state)
{
    (void)state;
    Config c;
    fermi(&c);
    set(&c, "sm.bar_warp_cycles=3");
    set(&c, "sm.bar_latency=10");
    DiagList dl = { 0 };
    Program *p = asm_assemble_file("tests/data/barrier_release.s", NULL, &dl);
    assert_non_null(p);
    Run r;
    assert_int_equal(run_program(&r, p, &c, "test", &(RunOptions){ 0 }, &dl), RUN_OK);
    const uint32_t *t = (const uint32_t *)mem_region_of_buffer(&r.mem, program_find_buffer(p, "t"))->data;
    assert_true(t[0] < t[2]);                 /* warp 0 waited for warp 1 */
    assert_int_equal(t[3], t[2] + 15);        /* (a + 1 + 3) + 10 + 1 */
    assert_int_equal(t[1], t[3]);             /* released together */
    run_free(&r);
    program_free(p);
    diag_free(&dl);
}

/* sm.cta_launch_cycles: a dispatched block's warps start that much later.
 * vecadd.s on fermi.ini is 16 blocks on 15 SMs, all resident at once (SM 0
 * takes two), so with fixed memory latencies every SM is active exactly 100
 * cycles longer and so is the launch. */
static void test_cta_launch_cycles(void **state)
{
    (void)state;
    Config c;
    fermi(&c);
    set(&c, "mem.model=fixed");
    Stats a, b;
    run_file(&c, "kernels/vecadd.s", NULL, 0, &a);
    set(&c, "sm.cta_launch_cycles=100");
    run_file(&c, "kernels/vecadd.s", NULL, 0, &b);
    assert_int_equal(b.cycles, a.cycles + 100);
    assert_int_equal(b.sm_active_cycles, a.sm_active_cycles + 15 * 100);
    assert_int_equal(b.inst, a.inst);
}

/* l1.unified_bytes and smem.carveouts on hopper.ini (256 KiB, carve-outs
 * 0, 8, 16, 32, 64, 100, 132, 164, 196, 228 KiB; 1 KiB reserved per block).
 * config_l1_bytes_for: no shared memory leaves the L1 all 256 KiB; 9 KiB
 * needs the 16 KiB carve-out (240 KiB of L1); more than 228 KiB, the last
 * (28 KiB).  A launch: tests/validation/tiled_mm.s has 256-thread blocks of
 * 2 KiB shared memory, 8 resident (the thread limit: 2048 / 256), so
 * 8 x (2 + 1) KiB = 24 KiB -> the 32 KiB carve-out -> 224 KiB of L1;
 * naive_mm.s, no shared memory, 8 x 1 KiB -> 8 KiB -> 248 KiB. */
static void test_carveout(void **state)
{
    (void)state;
    Config c;
    DiagList dl = { 0 };
    config_defaults(&c);
    assert_int_equal(config_load_file(&c, "configs/hopper.ini", &dl), 0);
    assert_int_equal(config_l1_bytes_for(&c, 0), 256 * 1024);
    assert_int_equal(config_l1_bytes_for(&c, 9 * 1024), 240 * 1024);
    assert_int_equal(config_l1_bytes_for(&c, 300 * 1024), 28 * 1024);
    int kib[16];
    assert_int_equal(config_carveouts(&c, kib, 16), 10);
    assert_int_equal(kib[9], 228);
    AsmDefine d[] = { { "M", "64" }, { "N", "64" }, { "K", "64" } };
    Stats s;
    run_file(&c, "tests/validation/tiled_mm.s", d, 3, &s);
    assert_int_equal(s.l1_bytes, 224 * 1024);
    run_file(&c, "tests/validation/naive_mm.s", d, 3, &s);
    assert_int_equal(s.l1_bytes, 248 * 1024);
    Config f;
    fermi(&f);                                  /* no unified array: the L1 stays */
    assert_int_equal(config_l1_bytes_for(&f, 0), f.l1.size_bytes);
    assert_int_equal(config_carveouts(&f, kib, 16), 0);
    diag_free(&dl);
}

/* Run `path` on c with one .define NAME=VALUE; copy the first n bytes of
 * its first buffer to out. */
static void run_first_buffer(const Config *c, const char *path, const char *name, const char *value, void *out, size_t n)
{
    DiagList dl = { 0 };
    AsmDefine d[] = { { name, value } };
    AsmOptions ao = { d, 1 };
    Program *p = asm_assemble_file(path, &ao, &dl);
    assert_non_null(p);
    Run r;
    RunOptions o = { 0 };
    assert_int_equal(run_program(&r, p, c, "test", &o, &dl), RUN_OK);
    Region *rg = mem_region_of_buffer(&r.mem, 0);
    assert_non_null(rg);
    memcpy(out, rg->data, n);
    run_free(&r);
    program_free(p);
    diag_free(&dl);
}

/* Run tests/data/lsu_issue.s (SPACE 0 shared, 1 global) on c: the cycles
 * between the %clock reads around its 16 independent loads. */
static uint32_t lsu_issue_cycles(const Config *c, const char *space)
{
    uint32_t t;
    run_first_buffer(c, "tests/data/lsu_issue.s", "SPACE", space, &t, 4);
    return t;
}

/* unit.lsu_groups: one warp's 16 independent loads issue one address-stage
 * occupancy apart.  hopper.ini: 32 lanes in 4 groups = 8 a group, so a
 * shared load holds its scheduler's stage 32 / 8 = 4 cycles and a global
 * one unit.lsu_global_cycles = 6; with one group for the SM (32 lanes) 1.
 * The 15 gaps after the first load cost 15 x (4 - 1) = 45 and 15 x (6 - 1)
 * = 75 cycles more than with one group; everything else is the same. */
static void test_lsu_groups_space_a_warps_loads(void **state)
{
    (void)state;
    Config h, one;
    DiagList dl = { 0 };
    config_defaults(&h);
    assert_int_equal(config_load_file(&h, "configs/hopper.ini", &dl), 0);
    assert_int_equal(h.unit.lsu_groups, 4);
    assert_int_equal(h.unit.lsu_global_cycles, 6);
    one = h;
    set(&one, "unit.lsu_groups=1");
    uint32_t sh4 = lsu_issue_cycles(&h, "0"), sh1 = lsu_issue_cycles(&one, "0");
    uint32_t gl4 = lsu_issue_cycles(&h, "1"), gl1 = lsu_issue_cycles(&one, "1");
    assert_int_equal(sh4 - sh1, 15 * (4 - 1));
    assert_int_equal(gl4 - gl1, 15 * (6 - 1));
    assert_true(sh1 >= 16 && gl1 >= 16);      /* one issue slot a load at least */
    diag_free(&dl);
}

/* Warps queue for their processing block's address stage
 * (tests/data/agu_queue.s): a barrier releases 4 x K warps at once, K on
 * each of hopper.ini's 4 schedulers, and each issues one global load.  A
 * load holds its scheduler's stage unit.lsu_global_cycles = 6, so the j-th
 * warp of a scheduler's queue waits 6j cycles in lg_throttle: 4 x 6 x
 * K(K-1)/2 = 12K(K-1) in all, the same under every policy (whichever warp
 * goes first, the waits are 0, 6, ... 6(K-1)).  The runs charge 6K more
 * (measured, not derived: it grows with K, not with the queue), which the
 * doubling differences cancel:
 * lg(2K) - 2 lg(K) = 12 x 2K(2K-1) - 24K(K-1) = 24K^2: 96 at K = 2, 384
 * at K = 4.  The waiting warps sit in the LSU's waiting set and are
 * looked at when the stage frees (sm.c, pipe_free_at); before that change
 * they woke at the cycle it freed, and every report of this file (K = 2, 4,
 * 8, each policy, machine and source order) was the same, byte for byte,
 * with either: the values pinned here are both mechanisms'. */
static uint64_t agu_queue_lg(const Config *c, const char *k)
{
    AsmDefine d[] = { { "K", k } };
    Stats s;
    run_file(c, "tests/data/agu_queue.s", d, 1, &s);
    return s.stall[STALL_LG_THROTTLE];
}

static void test_address_stage_queue(void **state)
{
    (void)state;
    static const char *const policies[] = { "sched.policy=lrr", "sched.policy=gto", "sched.policy=oldest",
                                            "sched.policy=two_level" };
    for (int i = 0; i < 4; i++) {
        Config h;
        hopper(&h);
        set(&h, "gpu.num_sms=1");
        set(&h, policies[i]);
        assert_int_equal(h.unit.lsu_global_cycles, 6);
        uint64_t lg2 = agu_queue_lg(&h, "2"), lg4 = agu_queue_lg(&h, "4"), lg8 = agu_queue_lg(&h, "8");
        assert_int_equal(lg4 - 2 * lg2, 96);
        assert_int_equal(lg8 - 2 * lg4, 384);
        assert_int_equal(lg8, 12 * 8 * 7 + 6 * 8);
    }
}

/* The block dispatcher's round robin (gpu.c): every SM with room gets a
 * block before any SM gets another, so block b + nsms runs on block b's SM.
 * The H100 does this (tests/validation/h100/measured/blocktime.csv: 256
 * blocks -> 2 on 124 SMs and 1 on 8; block 132 on block 0's SM).  hopper.ini
 * (132 SMs, one block every 1.2 cycles GPU-wide): 256 blocks, sm[b] ==
 * sm[b + 132] for b < 124, all 132 SMs used.  fermi.ini (15 SMs, no GPU-wide
 * limit, 6 blocks of 256 threads fit): block b on SM b % 15. */
static void block_sms(const Config *c, const char *nb, uint32_t *sm, int n)
{
    run_first_buffer(c, "tests/data/block_smid.s", "NB", nb, sm, (size_t)n * 4);
}

static void test_dispatch_round_robin(void **state)
{
    (void)state;
    Config h, f;
    hopper(&h);
    uint32_t sm[256];
    block_sms(&h, "256", sm, 256);
    int per_sm[132] = { 0 };
    for (int b = 0; b < 256; b++) {
        assert_true(sm[b] < 132);
        per_sm[sm[b]]++;
    }
    int two = 0, one = 0;
    for (int s = 0; s < 132; s++) {
        two += per_sm[s] == 2;
        one += per_sm[s] == 1;
    }
    assert_int_equal(two, 124);
    assert_int_equal(one, 8);
    for (int b = 0; b < 124; b++) assert_int_equal(sm[b], sm[b + 132]);
    fermi(&f);
    block_sms(&f, "40", sm, 40);
    for (int b = 0; b < 40; b++) assert_int_equal(sm[b], b % 15);
    /* Waves: one block an SM (sm.max_blocks=1), 45 identical blocks on 15
     * SMs, so each SM runs 3.  A block that leaves makes its SM a candidate
     * again (the dispatcher passes over full SMs: gpu.c, Pool.room); which
     * SMs free first follows their stores' trip through the crossbar, and
     * the order below is the one the dispatcher gave before it skipped
     * full SMs (7616e46) as after. */
    set(&f, "sm.max_blocks=1");
    block_sms(&f, "45", sm, 45);
    int runs[15] = { 0 };
    for (int b = 0; b < 45; b++) runs[sm[b]]++;
    for (int s = 0; s < 15; s++) assert_int_equal(runs[s], 3);
    const uint32_t waves[45] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 10, 11, 12, 13, 14, 0, 1, 2,
                                 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9 };
    assert_memory_equal(sm, waves, sizeof waves);
}

/* An SM whose held access was refused sleeps until what refused it can
 * change (memsys_retry_sleep: the tag stage's free cycle, an L1 fill, a
 * packet sent, a freed record) instead of offering it every cycle; --step
 * keeps the every-cycle offers.  Both must give the same run: cycles,
 * instructions, every warp-cycle's state and the retry counters, which
 * count the skipped offers as if they had been made.  fermi naive_mm is
 * refused for MSHRs (about 261 thousand times), transpose_naive for the
 * tag stage and the crossbar. */
static void retry_run(const Config *c, const char *path, const AsmDefine *defs, int ndefs, int step, Run *r)
{
    DiagList dl = { 0 };
    AsmOptions ao = { defs, ndefs };
    Program *p = asm_assemble_file(path, &ao, &dl);
    assert_non_null(p);
    RunOptions o = { 0 };
    FILE *devnull = step ? fopen("/dev/null", "w") : NULL;
    o.step = devnull;
    assert_int_equal(run_program(r, p, c, "test", &o, &dl), RUN_OK);
    assert_true(r->has_memstats);
    if (devnull) fclose(devnull);
    r->prog = NULL;
    program_free(p);
    diag_free(&dl);
}

static void test_retry_sleep_same_as_polling(void **state)
{
    (void)state;
    Config f, h;
    fermi(&f);
    hopper(&h);
    AsmDefine n256[] = { { "N", "256" } };
    struct { const Config *c; const char *path; const AsmDefine *d; int nd; } cases[] = {
        { &f, "kernels/naive_mm.s", NULL, 0 },
        { &f, "kernels/transpose_naive.s", NULL, 0 },
        { &h, "tests/validation/nvcc/transpose_naive.s", n256, 1 },
        /* a held access answered at the top of the cycle its warp's next
         * instruction, which reads it, would first be looked at (issue's
         * look_ahead must leave that look to the cycle) */
        { &h, "tests/validation/nvcc/conv2d_3x3_tiled.s", NULL, 0 },
    };
    uint64_t mshr = 0, icnt = 0, busy = 0;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        Run a, b;
        retry_run(cases[i].c, cases[i].path, cases[i].d, cases[i].nd, 0, &a);
        retry_run(cases[i].c, cases[i].path, cases[i].d, cases[i].nd, 1, &b);
        assert_int_equal(a.stats.cycles, b.stats.cycles);
        assert_int_equal(a.stats.sm_active_cycles, b.stats.sm_active_cycles);
        assert_int_equal(a.stats.inst, b.stats.inst);
        assert_int_equal(a.stats.warp_resident, b.stats.warp_resident);
        for (int s = 0; s < STALL_COUNT; s++) assert_int_equal(a.stats.stall[s], b.stats.stall[s]);
        assert_int_equal(a.memstats.retry_l1_busy, b.memstats.retry_l1_busy);
        assert_int_equal(a.memstats.retry_mshr, b.memstats.retry_mshr);
        assert_int_equal(a.memstats.retry_icnt, b.memstats.retry_icnt);
        assert_int_equal(a.memstats.retry_records, b.memstats.retry_records);
        mshr += a.memstats.retry_mshr;
        icnt += a.memstats.retry_icnt;
        busy += a.memstats.retry_l1_busy;
        run_free(&a);
        run_free(&b);
    }
    assert_true(mshr > 100000 && icnt > 1000 && busy > 1000);   /* each cause was exercised */
}

/* A scheduler's turn takes its warps from a word of age positions, and a
 * warp whose operands are ready waits in its scheduler's ready set, not
 * looked at again until it can issue, charged not_selected or its pipe's
 * throttle from the pipe's record alone (sm.c: turn, "ready warps");
 * --step sorts every turn's warps by sched_keys and judges each warp it
 * looks at, every cycle.  Both must give the same run, every warp-cycle
 * charged to the same state and line, under each policy that walks by
 * age: lrr, gto, oldest, with one and two issue slots a scheduler.  fermi
 * tiled_mm keeps about 20 warps a scheduler waiting for its two shared SP
 * groups; hopper naive_mm waits on memory and its own processing block's
 * pipes.  (Charging one cycle of a ready warp's wait to not_selected
 * instead of the throttle, or not rebasing a pipe's count when its state
 * changes, fails here.) */
static void test_turn_by_age_same_as_sorted(void **state)
{
    (void)state;
    AsmDefine mm[] = { { "M", "64" }, { "N", "64" }, { "K", "64" } };
    const char *policies[] = { "sched.policy=lrr", "sched.policy=gto", "sched.policy=oldest" };
    uint64_t throttled = 0, unpicked = 0, mio = 0;
    for (int cfg = 0; cfg < 2; cfg++)
        for (size_t pi = 0; pi < sizeof policies / sizeof policies[0]; pi++)
            for (int issue = 1; issue <= 2; issue++) {
                Config c;
                if (cfg == 0) fermi(&c); else hopper(&c);
                set(&c, policies[pi]);
                set(&c, issue == 1 ? "sm.issue_per_scheduler=1" : "sm.issue_per_scheduler=2");
                const char *path = cfg == 0 ? "kernels/tiled_mm.s" : "tests/validation/nvcc/naive_mm.s";
                Run a, b;
                retry_run(&c, path, mm, 3, 0, &a);
                retry_run(&c, path, mm, 3, 1, &b);
                assert_int_equal(a.stats.cycles, b.stats.cycles);
                assert_int_equal(a.stats.inst, b.stats.inst);
                assert_int_equal(a.stats.warp_resident, b.stats.warp_resident);
                for (int s = 0; s < STALL_COUNT; s++) assert_int_equal(a.stats.stall[s], b.stats.stall[s]);
                for (int l = 0; l <= a.stats.nlines; l++)
                    for (int s = 0; s < STALL_COUNT; s++)
                        assert_int_equal(a.stats.line[l].stall[s], b.stats.line[l].stall[s]);
                throttled += a.stats.stall[STALL_MATH_PIPE_THROTTLE];
                unpicked += a.stats.stall[STALL_NOT_SELECTED];
                mio += a.stats.stall[STALL_MIO_THROTTLE];
                run_free(&a);
                run_free(&b);
            }
    assert_true(throttled > 100000);   /* the pipes' waiters were exercised */
    assert_true(unpicked > 50000);     /* and ready warps not picked */
    assert_true(mio > 10000);          /* and fermi's shared LSU (a ready warp's look
                                          names the throttle without evaluate) */
}

/* A ready warp not picked is charged not_selected while its pipe is free
 * and its pipe's throttle while not, whether each of its cycles is looked
 * at (--step) or its wait is charged when it issues from its scheduler's
 * ready set (sm.c "ready warps").  tests/data/ready_split.s on tiny.ini
 * (one scheduler, lrr; the SP pipe takes a warp a cycle, the SFU a warp
 * every 4; lat.alu 4), in source order, fetching 4 instructions into a
 * 4-deep buffer.  Cycle 0: both warps wait for the fetch unit, which
 * serves one a cycle (no_instruction: warp 0 one cycle, warp 1 two).
 * Warp 0's mov issues at 1, warp 1's at 2; each add waits 4 cycles for
 * %f1 (wait: 2-4 and 3-5).  5: warp 0's add.  6: lrr starts after warp 0,
 * so warp 1's add issues, and warp 0's sin, ready with the SFU free, is
 * not picked: not_selected 1.  7: warp 0's sin takes the SFU until 11;
 * warp 1's sin waits for it, math_pipe_throttle at 7, 8, 9, 10: 4.  8:
 * warp 0's ret.  11: warp 1's sin, 12: its ret; 13 cycles, 8 issues.
 * Both waits are charged to the sin's line (13). */
static void test_ready_warps_charged(void **state)
{
    (void)state;
    Config c;
    load(&c, "configs/tiny.ini");
    set(&c, "core.schedule=source");
    set(&c, "sm.fetch_width=4");
    set(&c, "sm.ibuffer_depth=4");
    set(&c, "sm.max_threads=512");   /* 64 warps a scheduler at most: a turn by age, with */
    set(&c, "sm.max_warps=64");      /* ready sets (tiny.ini's 128 take the sorted turn) */
    for (int step = 0; step < 2; step++) {
        Run r;
        retry_run(&c, "tests/data/ready_split.s", NULL, 0, step, &r);
        const uint64_t *st = r.stats.stall;
        assert_int_equal(r.stats.cycles, 13);
        assert_int_equal(st[STALL_SELECTED], 8);
        assert_int_equal(st[STALL_NO_INSTRUCTION], 3);
        assert_int_equal(st[STALL_WAIT], 6);
        assert_int_equal(st[STALL_NOT_SELECTED], 1);
        assert_int_equal(st[STALL_MATH_PIPE_THROTTLE], 4);
        assert_int_equal(r.stats.line[13].stall[STALL_NOT_SELECTED], 1);
        assert_int_equal(r.stats.line[13].stall[STALL_MATH_PIPE_THROTTLE], 4);
        run_free(&r);
    }
}

/* The L2 atomic unit's occupancy (memsys.c, l2.atom_lane_cycles): a request
 * holds its slice for what a store of its sectors costs (l2.write_cycles +
 * l2.write_sector_cycles each) or atom_lane_cycles per lane on its most-used
 * address, rounded up, whichever is longer.  tests/data/atom_cost.s, one
 * warp's red.global.add: hopper.ini (2 + 1 a sector, 1.45): 32 lanes on one
 * word (one sector) max(2 + 1, ceil(1.45 x 32) = 47) = 47; 32 words of one
 * line (4 sectors) max(2 + 4, ceil(1.45)) = 6.  fermi.ini (1 + 0, 1): 32 and
 * max(1, 1) = 1. */
static uint64_t atom_cycles_of(const Config *c, const char *mode)
{
    DiagList dl = { 0 };
    AsmDefine d[] = { { "MODE", mode } };
    AsmOptions ao = { d, 1 };
    Program *p = asm_assemble_file("tests/data/atom_cost.s", &ao, &dl);
    assert_non_null(p);
    Run r;
    RunOptions o = { 0 };
    assert_int_equal(run_program(&r, p, c, "test", &o, &dl), RUN_OK);
    assert_true(r.has_memstats);
    uint64_t n = r.memstats.atom_l2_cycles;
    assert_int_equal(r.memstats.atom_lane_ops, 32);
    run_free(&r);
    program_free(p);
    diag_free(&dl);
    return n;
}

static void test_atomic_unit_occupancy(void **state)
{
    (void)state;
    Config h, f;
    hopper(&h);
    fermi(&f);
    assert_int_equal(atom_cycles_of(&h, "0"), 47);
    assert_int_equal(atom_cycles_of(&h, "1"), 6);
    assert_int_equal(atom_cycles_of(&f, "0"), 32);
    assert_int_equal(atom_cycles_of(&f, "1"), 1);
}

/* Posted reductions (red_retire_ncu.csv: the H100 retires a block whose
 * reductions are still in the memory system).  tests/data/red_posted.s: 4
 * blocks of 256 threads add 1 to one word 4 times, as red (MODE 0), as atom
 * whose results the threads use (1), or whose result nothing reads (2, a
 * RED for ptxas).  The word is 4096 each time; the SMs stay active until the
 * replies only in MODE 1 (hopper.ini: 3109 and 5772 SM-cycles against
 * 25883); the launch still ends after the last reduction: 4096 operations on
 * one word at l2.atom_lane_cycles = 1.45 take 5939 cycles at least. */
static void test_posted_reductions(void **state)
{
    (void)state;
    Config h;
    DiagList dl = { 0 };
    hopper(&h);
    uint64_t active[3], elapsed[3];
    for (int mode = 0; mode < 3; mode++) {
        char v[2] = { (char)('0' + mode), 0 };
        AsmDefine d[] = { { "MODE", v } };
        AsmOptions ao = { d, 1 };
        Program *p = asm_assemble_file("tests/data/red_posted.s", &ao, &dl);
        assert_non_null(p);
        Run r;
        RunOptions o = { 0 };
        assert_int_equal(run_program(&r, p, &h, "test", &o, &dl), RUN_OK);
        Region *rg = mem_region_of_buffer(&r.mem, 0);
        assert_non_null(rg);
        uint32_t w;
        memcpy(&w, rg->data, 4);
        assert_int_equal(w, 4096);
        active[mode] = r.stats.sm_active_cycles;
        elapsed[mode] = r.stats.cycles;
        run_free(&r);
        program_free(p);
        diag_free(&dl);
    }
    assert_true(3 * active[0] < active[1]);
    assert_true(3 * active[2] < active[1]);
    for (int mode = 0; mode < 3; mode++) assert_true(elapsed[mode] >= 5939);
}

/* l1.invalidate_on_launch: tests/data/l1_relaunch.s reads one line (4
 * sectors) in each of two launches.  Kept: the second launch hits the 4
 * sectors; emptied at each launch: 8 misses, no hit.  And
 * tests/data/l1_local_relaunch.s's dirty line survives the emptying.  On
 * fermi.ini (a fixed L1) and on hopper.ini, whose launches first size the
 * L1 to their carve-out (an L1 no launch has used yet is kept then, not
 * made again: memsys.c replace_l1s). */
static void test_l1_invalidate_on_launch(void **state)
{
    (void)state;
    for (int run = 0; run < 4; run++) {
        int inv = run & 1;
        Config c;
        if (run < 2) fermi(&c);
        else hopper(&c);
        set(&c, inv ? "l1.invalidate_on_launch=true" : "l1.invalidate_on_launch=false");
        DiagList dl = { 0 };
        Program *p = asm_assemble_file("tests/data/l1_relaunch.s", NULL, &dl);
        assert_non_null(p);
        Run r;
        RunOptions o = { 0 };
        assert_int_equal(run_program(&r, p, &c, "test", &o, &dl), RUN_OK);
        assert_true(r.has_memstats);
        assert_int_equal(r.memstats.l1_sector_hits, inv ? 0 : 4);
        assert_int_equal(r.memstats.l1_sector_misses, inv ? 8 : 4);
        run_free(&r);
        program_free(p);
        /* a dirty (local-memory) line is written to L2 when the L1 is
         * emptied, not lost: 128 bytes of it and 128 of out at the end */
        p = asm_assemble_file("tests/data/l1_local_relaunch.s", NULL, &dl);
        assert_non_null(p);
        assert_int_equal(run_program(&r, p, &c, "test", &o, &dl), RUN_OK);
        assert_int_equal(r.memstats.dram_bytes_write, 128 + 128);
        run_free(&r);
        program_free(p);
        diag_free(&dl);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_occupancy_seed004_block_sizes),
        cmocka_unit_test(test_occupancy_register_cliff),
        cmocka_unit_test(test_occupancy_seed003_shared),
        cmocka_unit_test(test_occupancy_cannot_fit),
        cmocka_unit_test(test_stalls_sum_to_resident_cycles),
        cmocka_unit_test(test_stalls_at_the_end_of_the_code),
        cmocka_unit_test(test_stalls_add_up_after_a_fault),
        cmocka_unit_test(test_implicit_ret_counted),
        cmocka_unit_test(test_more_schedulers_fewer_cycles),
        cmocka_unit_test(test_longer_latency_more_cycles),
        cmocka_unit_test(test_fewer_units_more_cycles),
        cmocka_unit_test(test_pooled_pipe_throughput),
        cmocka_unit_test(test_folded_lines_hold_no_stalls),
        cmocka_unit_test(test_gto_staggers_lockstep_warps),
        cmocka_unit_test(test_latency_hiding_ipc_rises_with_warps),
        cmocka_unit_test(test_bank_conflicts_cost_cycles),
        cmocka_unit_test(test_every_policy_finishes),
        cmocka_unit_test(test_per_sm_counters_add_up),
        cmocka_unit_test(test_barrier_releases_next_cycle),
        cmocka_unit_test(test_launch_overhead_is_elapsed_only),
        cmocka_unit_test(test_barrier_cost_keys),
        cmocka_unit_test(test_cta_launch_cycles),
        cmocka_unit_test(test_block_slot_reused_fresh),
        cmocka_unit_test(test_carveout),
        cmocka_unit_test(test_lsu_groups_space_a_warps_loads),
        cmocka_unit_test(test_address_stage_queue),
        cmocka_unit_test(test_l1_invalidate_on_launch),
        cmocka_unit_test(test_dispatch_round_robin),
        cmocka_unit_test(test_retry_sleep_same_as_polling),
        cmocka_unit_test(test_turn_by_age_same_as_sorted),
        cmocka_unit_test(test_ready_warps_charged),
        cmocka_unit_test(test_posted_reductions),
        cmocka_unit_test(test_atomic_unit_occupancy),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
