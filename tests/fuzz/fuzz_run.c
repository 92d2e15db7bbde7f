/* fuzz_run.c - libFuzzer harness for the simulator (`make fuzz`, then
 * build/fuzz/fuzz_run -max_total_time=600 build/fuzz/corpus_asm from the
 * repository root: it reads configs/).
 *
 * The input is a kernel file; its length picks the config (tiny, fermi or
 * ampere.ini), timing or --functional, and the run-time checks, so that the
 * seeds (every kernel of the project) spread over them.  When it
 * assembles and its launches are small enough to run in a moment (at most
 * 2^16 threads in all, 16 launches, 16 MiB of buffers), it runs with a
 * watchdog of 20,000 cycles (steps with --functional): the run must end
 * with an exit code of 0-3, never a crash, and with timing its counters
 * must hold what the report promises: every resident warp-cycle in exactly
 * one state (no state over the total: a count below zero wraps), and the
 * SMs' warp instructions adding up to the GPU's.  A mutation of
 * conv2d_tiled.s without its ret broke both (the twenty-first session:
 * tests/data/branch_to_end.s). */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "isa/asm.h"
#include "sim/base/config.h"
#include "sim/core/check.h"
#include "sim/front/run.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static Config configs[3];

static void load_configs(void)
{
    static int loaded;
    if (loaded) return;
    const char *paths[3] = { "configs/tiny.ini", "configs/fermi.ini", "configs/ampere.ini" };
    for (int i = 0; i < 3; i++) {
        DiagList dl = { 0 };
        config_defaults(&configs[i]);
        if (config_load_file(&configs[i], paths[i], &dl) || config_validate(&configs[i], &dl)) {
            fprintf(stderr, "fuzz_run: %s does not load (run from the repository root)\n", paths[i]);
            abort();
        }
        diag_free(&dl);
    }
    loaded = 1;
}

/* Small enough to run in a moment. */
static int small(const Program *p)
{
    if (p->nlaunches > 16) return 0;
    uint64_t threads = 0, bytes = 0;
    for (int i = 0; i < p->nlaunches; i++) {
        const LaunchSpec *l = &p->launches[i];
        threads += (uint64_t)l->grid[0] * l->grid[1] * l->grid[2] * l->block[0] * l->block[1] * l->block[2];
    }
    for (int i = 0; i < p->nbuffers; i++) bytes += p->buffers[i].count * 8;
    return threads <= (1u << 16) && bytes <= (16u << 20);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    load_configs();
    int pick = (int)(size % 16);
    const Config *cfg = &configs[(pick & 3) % 3];
    DiagList dl = { 0 };
    Program *p = asm_assemble("fuzz.s", (const char *)data, size, NULL, &dl);
    if (p && small(p)) {
        Run r;
        RunOptions o = { 0 };
        o.functional = pick >> 2 & 1;
        o.checks = pick >> 3 & 1 ? CHECK_RACES | CHECK_UNINIT : 0;
        o.max_cycles = 20000;
        int rc = run_program(&r, p, cfg, "fuzz.ini", &o, &dl);
        if (rc < RUN_OK || rc > RUN_FAULT) abort();
        if (rc != RUN_BAD_INPUT && !o.functional) {
            const Stats *s = &r.stats;
            uint64_t sum = 0, sm_inst = 0;
            for (int k = 0; k < STALL_COUNT; k++) {
                if (s->stall[k] > s->warp_resident) abort();
                sum += s->stall[k];
            }
            if (sum != s->warp_resident) abort();
            for (int i = 0; i < s->nsms; i++) sm_inst += s->sm[i].inst;
            if (rc != RUN_FAULT && sm_inst != s->inst) abort();
        }
        run_free(&r);
    }
    program_free(p);
    diag_free(&dl);
    return 0;
}
