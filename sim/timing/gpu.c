/* gpu.c - see gpu.h. */
#include "sim/timing/gpu.h"

#include <stdlib.h>
#include <string.h>

#include "sim/timing/sm.h"

enum { MAX_DONE = 256 };
#define NO_PROGRESS_CYCLES 10000000ull

/* The observer's running totals, once per sample period (observe.h). */
static void sample(const Timing *t, MemSys *ms, uint64_t *next_sample, int last)
{
    const Observer *o = t->obs;
    if (!o || !o->sample || (!last && t->now < *next_sample)) return;
    o->sample(o->ctx, t->now, t->st->inst, ms ? memsys_stats(ms) : NULL, t->st, ms, last);
    uint64_t every = o->sample_every ? o->sample_every : 1;
    *next_sample = (t->now / every + 1) * every;
}

/* Hand the hierarchy's completions at `now` to their SMs. */
static void deliver(MemSys *ms, Sm *sms, int *woken, Timing *t)
{
    MemDone done[MAX_DONE];
    int n;
    do {
        n = memsys_tick(ms, t->now, done, MAX_DONE);
        for (int i = 0; i < n; i++) sm_mem_complete(&sms[done[i].sm], t, done[i].slot, done[i].tag, t->now);
    } while (n == MAX_DONE);
    /* SMs asleep on a refused access whose refusal has lifted */
    n = memsys_woken(ms, woken);
    for (int i = 0; i < n; i++) sm_wake_now(&sms[woken[i]], t->now);
}

int gpu_run_launch(const Program *p, int li, Memory *m, Stats *st, const Config *cfg, MemSys *ms,
                   const Observer *obs, const GpuStep *step, uint64_t *nowp, uint64_t max_cycles,
                   struct Checker *chk, Fault *fault)
{
    Kernel k;
    Timing t;
    memset(&t, 0, sizeof t);
    if (kernel_init(&k, p, li, m, st, cfg->sm.warp_size, cfg->gpu.num_sms, cfg->sm.max_warps)) return -1;
    /* the checks run the PTX as written: a finding names the order the
     * student wrote (docs/checks.md); the memory is the same either way */
    kernel_use_schedule(&k, cfg->core.schedule == CORE_SCHEDULE_MACHINE && !chk);
    kernel_configure(&k, cfg->sm.max_call_depth, cfg->gpu.core_clock_mhz);
    k.check = chk;
    const LaunchSpec *l = k.spec;
    occupancy_compute(&t.occ, cfg, (int)(l->block[0] * l->block[1] * l->block[2]), k.entry->regs_per_thread,
                      program_launch_shared(p, l), k.nctas);
    if (ms && cfg->l1.unified_bytes > 0) {
        /* the driver's carve-out: the smallest that holds the shared memory
         * of the blocks that can be resident; the L1 gets the rest */
        int64_t need = (int64_t)t.occ.blocks * (int64_t)t.occ.smem_per_block;   /* reserve included */
        if (memsys_set_l1_bytes(ms, config_l1_bytes_for(cfg, need))) { kernel_free(&k); return -1; }
    }
    if (ms && cfg->l1.invalidate_on_launch && memsys_invalidate_l1(ms)) { kernel_free(&k); return -1; }
    if (ms) st->l1_bytes = (uint64_t)memsys_l1_bytes(ms);
    t.k = &k;
    t.st = st;
    t.ms = ms;
    t.obs = obs;
    if (step && step->print) t.step = step;
    /* the front end takes the launch: elapsed cycles, no SM active yet */
    t.now = *nowp + (uint64_t)cfg->gpu.launch_cycles;
    Deps *deps = deps_build(k.entry);
    int nsms = cfg->gpu.num_sms;
    Sm *sms = calloc((size_t)nsms, sizeof *sms);
    int *woken = calloc((size_t)nsms, sizeof *woken);
    int rc = deps && sms && woken ? 0 : -1;
    t.deps = deps;
    for (int i = 0; i < nsms && rc == 0; i++) rc = sm_init(&sms[i], i, cfg);

    uint64_t start = *nowp, first = t.now, next_block = 0;
    int rr = 0;   /* the SM the dispatcher tries first */
    uint64_t last_inst = st->ptx_inst, last_progress = t.now;
    uint64_t step_last = t.now ? t.now - 1 : 0, next_sample = 0;
    while (rc == 0) {
        if (obs) sample(&t, ms, &next_sample, 0);
        /* dispatch: at most one block per SM per cycle, round robin: the
         * search starts at the SM after the last one that got a block, so
         * every SM with room gets a block before any gets another (the H100
         * puts blocks b and b + 132 on one SM: blocktime.csv) */
        if (next_block < k.nctas) {
            /* gpu.cta_dispatch_cycles: blocks the GPU-wide dispatcher may have started by now */
            uint64_t allowed = cfg->gpu.cta_dispatch_cycles > 0
                ? (uint64_t)((double)(t.now - first) / cfg->gpu.cta_dispatch_cycles) + 1 : UINT64_MAX;
            int s = rr;
            for (int i = 0; i < nsms && next_block < k.nctas && next_block < allowed; i++, s = s + 1 == nsms ? 0 : s + 1)
                if (sm_can_fit(&sms[s], &t.occ) && sm_launch_cta(&sms[s], &t, next_block) == 0) {
                    next_block++;
                    rr = s + 1 == nsms ? 0 : s + 1;
                }
        }
        if (ms) deliver(ms, sms, woken, &t);
        uint64_t next = SM_NEVER;
        int busy = 0;
        for (int i = 0; i < nsms; i++) {
            uint64_t before = sms[i].next_wake;
            uint64_t w = sm_busy(&sms[i]) && t.now < before ? before : sm_cycle(&sms[i], &t);   /* nothing due yet */
            if (t.faulted) { rc = -1; break; }
            if (w < next) next = w;
            busy |= sm_busy(&sms[i]);
            if (t.step && (i == t.step->sm || t.step->all_sms) && sm_busy(&sms[i]) && t.now >= before) {
                t.step->print(t.step->ctx, &t, &sms[i], t.now > step_last + 1 ? t.now - step_last - 1 : 0);
                step_last = t.now;
            }
        }
        if (rc) break;
        /* the launch is over when its SMs are idle and its posted reductions
         * have drained (they keep the memory system, not an SM, busy) */
        if (!busy && next_block >= k.nctas && !(ms && memsys_posted_pending(ms))) break;
        if (ms) { uint64_t e = memsys_next_event(ms); if (e < next) next = e; }
        if (next_block < k.nctas)
            for (int i = 0; i < nsms; i++)
                if (sm_can_fit(&sms[i], &t.occ)) { next = t.now + 1; break; }
        if (next == SM_NEVER) {
            kernel_fault(&k, NULL, -1, FAULT_DEADLOCK, "deadlock: no warp on any SM can ever issue again");
            rc = -1;
            break;
        }
        t.now = next > t.now + 1 ? next : t.now + 1;
        /* the progress watchdog: a live lock issues nothing, forever */
        if (st->ptx_inst != last_inst) { last_inst = st->ptx_inst; last_progress = t.now; }
        else if (t.now - last_progress > NO_PROGRESS_CYCLES) {
            kernel_fault(&k, NULL, -1, FAULT_DEADLOCK, "deadlock: no warp issued an instruction for %llu cycles",
                         (unsigned long long)NO_PROGRESS_CYCLES);
            rc = -1;
            break;
        }
        if (max_cycles && t.now - start > max_cycles) {
            kernel_fault(&k, NULL, -1, FAULT_WATCHDOG, "watchdog: the launch ran past %llu cycles (raise --max-cycles)",
                         (unsigned long long)max_cycles);
            rc = -1;
            break;
        }
    }
    for (int i = 0; i < nsms && sms; i++) {
        sm_flush(&sms[i], &t);
        sm_free(&sms[i]);
    }
    if (obs) sample(&t, ms, &next_sample, 1);
    /* the GPU's total is the per-SM counters' sum, over all launches so far */
    st->sm_active_cycles = 0;
    memset(st->stall, 0, sizeof st->stall);
    for (int i = 0; i < st->nsms; i++) {
        st->sm_active_cycles += st->sm[i].active_cycles;
        for (int r = 0; r < STALL_COUNT; r++) st->stall[r] += st->sm[i].stall[r];
    }
    st->cycles += t.now - start;
    *nowp = t.now;
    *fault = k.fault;
    free(sms);
    free(woken);
    free(deps);
    kernel_free(&k);
    return rc;
}
