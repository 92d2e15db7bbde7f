/* gpu.c - see gpu.h. */
#include "sim/gpu.h"

#include <stdlib.h>
#include <string.h>

#include "sim/sm.h"

int gpu_run_launch(const Program *p, int li, Memory *m, Stats *st, const Config *cfg,
                   uint64_t *nowp, uint64_t max_cycles, Fault *fault)
{
    Kernel k;
    Timing t;
    memset(&t, 0, sizeof t);
    if (kernel_init(&k, p, li, m, st, cfg->sm.warp_size, cfg->gpu.num_sms, cfg->sm.max_warps)) return -1;
    const LaunchSpec *l = k.spec;
    occupancy_compute(&t.occ, cfg, (int)(l->block[0] * l->block[1] * l->block[2]), k.entry->regs_per_thread,
                      k.entry->shared_bytes, k.nctas);
    t.k = &k;
    t.st = st;
    t.now = *nowp;
    Deps *deps = deps_build(k.entry);
    int nsms = cfg->gpu.num_sms;
    Sm *sms = calloc((size_t)nsms, sizeof *sms);
    int rc = deps && sms ? 0 : -1;
    t.deps = deps;
    for (int i = 0; i < nsms && rc == 0; i++) rc = sm_init(&sms[i], i, cfg);

    uint64_t start = t.now, next_block = 0;
    int rr = 0;
    while (rc == 0) {
        /* dispatch: one block per SM per cycle, round robin from rr */
        for (int i = 0; i < nsms && next_block < k.nctas; i++) {
            Sm *sm = &sms[(rr + i) % nsms];
            if (sm_can_fit(sm, &t.occ) && sm_launch_cta(sm, &t, next_block) == 0) next_block++;
        }
        rr = (rr + 1) % nsms;
        uint64_t next = SM_NEVER;
        int busy = 0;
        for (int i = 0; i < nsms; i++) {
            uint64_t w = sm_cycle(&sms[i], &t);
            if (t.faulted) { rc = -1; break; }
            if (w < next) next = w;
            busy |= sm_busy(&sms[i]);
        }
        if (rc) break;
        if (!busy && next_block >= k.nctas) break;
        if (next_block < k.nctas)
            for (int i = 0; i < nsms; i++)
                if (sm_can_fit(&sms[i], &t.occ)) { next = t.now + 1; break; }
        if (next == SM_NEVER) {
            kernel_fault(&k, NULL, -1, FAULT_DEADLOCK, "deadlock: no warp on any SM can ever issue again");
            rc = -1;
            break;
        }
        t.now = next > t.now + 1 ? next : t.now + 1;
        if (max_cycles && t.now - start > max_cycles) {
            kernel_fault(&k, NULL, -1, FAULT_WATCHDOG, "watchdog: the launch ran past %llu cycles (raise --max-cycles)",
                         (unsigned long long)max_cycles);
            rc = -1;
            break;
        }
    }
    for (int i = 0; i < nsms && sms; i++) {
        sm_flush(&sms[i], &t);
        st->sm_active_cycles += sms[i].active_cycles;
        sm_free(&sms[i]);
    }
    st->cycles += t.now - start;
    *nowp = t.now;
    *fault = k.fault;
    free(sms);
    free(deps);
    kernel_free(&k);
    return rc;
}
