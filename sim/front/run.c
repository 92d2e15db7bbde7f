/* run.c - see run.h. */
#include "sim/front/run.h"

#include <stdlib.h>
#include <string.h>

#include "isa/backend.h"
#include "sim/core/func.h"
#include "sim/front/step.h"
#include "sim/front/stepper.h"
#include "sim/timing/gpu.h"

/* Default watchdog: this many warp instructions per block is an endless
 * loop in any kernel of the course. */
#define DEFAULT_MAX_STEPS 2000000000ull

static int check_launches(Run *r, const Program *p, const Config *cfg, DiagList *dl)
{
    int rc = 0;
    int bad_line = 0;   /* a .for repeats a launch line: its error once */
    for (int i = 0; i < p->nlaunches; i++) {
        const LaunchSpec *l = &p->launches[i];
        if (l->line == bad_line) continue;
        int before = diag_count(dl);
        const Entry *e = backend_entry(&p->entries[l->entry], cfg->core.schedule == CORE_SCHEDULE_MACHINE);
        uint64_t threads = (uint64_t)l->block[0] * l->block[1] * l->block[2];
        uint64_t nblocks = (uint64_t)l->grid[0] * l->grid[1] * l->grid[2];
        occupancy_compute(&r->occ[i], cfg, (int)(threads > 1024 ? 1024 : threads), e->regs_per_thread,
                          program_launch_shared(p, l), nblocks);
        if (threads <= 1024 && r->occ[i].error[0]) {
            diag_add(dl, p->filename, l->line, l->col, program_line(p, l->line, NULL),
                     ".launch %s: %s", e->name, r->occ[i].error);
            rc = -1;
        }
        if (threads > (uint64_t)cfg->sm.max_threads || threads > 1024) {
            diag_add(dl, p->filename, l->line, l->col, program_line(p, l->line, NULL),
                     ".launch %s: a block of %llu threads is more than %s allows (%d)", p->entries[l->entry].name,
                     (unsigned long long)threads, threads > 1024 ? "CUDA" : "the SM", threads > 1024 ? 1024 : cfg->sm.max_threads);
            rc = -1;
        }
        if (diag_count(dl) != before) bad_line = l->line;
    }
    if (p->nlaunches == 0) {
        diag_add(dl, p->filename, 0, 0, NULL, "nothing to run: the file has no .launch line");
        rc = -1;
    }
    return rc;
}

/* An SM or warp that --step or --trace names must exist, or the view would
 * come out empty with nothing said: an SM of the config, and a warp of at
 * least one launch's blocks. */
static int check_views(const Program *p, const Config *cfg, const Occupancy *occ, const char *config_path,
                       const RunOptions *o, DiagList *dl)
{
    if (o->functional) return 0;      /* neither view runs without timing */
    int rc = 0, nsms = cfg->gpu.num_sms;
    const char *cname = config_path ? config_path : "the config";
    int sms[2] = { o->step ? o->step_sm : -1, o->trace ? o->trace_opt.sm : -1 };
    const char *sm_opt[2] = { "--step-sm", "--trace-sm" };
    for (int i = 0; i < 2; i++)
        if (sms[i] >= nsms) {
            if (nsms == 1) diag_add(dl, sm_opt[i], 0, 0, NULL, "SM %d: %s has 1 SM (SM 0)", sms[i], cname);
            else diag_add(dl, sm_opt[i], 0, 0, NULL, "SM %d: %s has %d SMs (0 to %d)", sms[i], cname, nsms, nsms - 1);
            rc = -1;
        }
    uint64_t most = 0;                /* warps in the largest block of any launch (check_launches' occupancy) */
    for (int i = 0; i < p->nlaunches; i++)
        if ((uint64_t)occ[i].warps_per_block > most) most = (uint64_t)occ[i].warps_per_block;
    if (p->nlaunches == 0) return rc;
    int nw = o->trace ? o->trace_opt.nwarps : 0;
    for (int i = -1; i < nw; i++) {
        int w = i < 0 ? (o->step ? o->step_warp : -1) : o->trace_opt.warps[i];
        if (w < 0 || (uint64_t)w < most) continue;
        diag_add(dl, i < 0 ? "--step-warp" : "--trace-warps", 0, 0, NULL,
                 "warp %d: the largest block of %s has %llu warp%s (%s%llu)", w, p->filename,
                 (unsigned long long)most, most == 1 ? "" : "s", most == 1 ? "warp " : "0 to ",
                 (unsigned long long)(most == 1 ? 0 : most - 1));
        rc = -1;
    }
    return rc;
}

int run_program(Run *r, const Program *p, const Config *cfg, const char *config_path,
                const RunOptions *o, DiagList *dl)
{
    memset(r, 0, sizeof *r);
    r->prog = p;
    r->cfg = cfg;
    r->config_path = config_path;
    r->opt = *o;
    r->occ = calloc((size_t)(p->nlaunches ? p->nlaunches : 1), sizeof *r->occ);
    r->per_launch = calloc((size_t)(p->nlaunches ? p->nlaunches : 1), sizeof *r->per_launch);
    if (!r->occ || !r->per_launch) return RUN_BAD_INPUT;
    int from = dl->n;
    if (check_launches(r, p, cfg, dl) || host_validate_checks(p, dl)) { program_fix_diags(p, dl, from); return RUN_BAD_INPUT; }
    if (check_views(p, cfg, r->occ, config_path, o, dl)) return RUN_BAD_INPUT;
    if (mem_init(&r->mem, p) || stats_init(&r->stats, p->nlines, cfg->gpu.num_sms)) {
        diag_add(dl, p->filename, 0, 0, NULL, "out of memory for the buffers");
        return RUN_BAD_INPUT;
    }
    if (host_init_buffers(p, &r->mem, dl)) { program_fix_diags(p, dl, from); return RUN_BAD_INPUT; }
    uint64_t max_steps = o->max_cycles ? o->max_cycles : DEFAULT_MAX_STEPS;
    uint64_t now = 0;
    MemSys *ms = NULL;
    if (!o->functional && cfg->mem.model == MEM_MODEL_HIERARCHY) {
        const char *why = memsys_unsupported(cfg);
        if (why || !(ms = memsys_create(cfg, cfg->gpu.num_sms))) {
            diag_add(dl, r->config_path ? r->config_path : "config", 0, 0, NULL,
                     "the memory hierarchy cannot model this configuration: %s (or set mem.model=fixed)",
                     why ? why : "out of memory");
            return RUN_BAD_INPUT;
        }
    }
    Trace *trace = NULL;
    if (o->trace && !o->functional) {
        char why[300];
        if (!(trace = trace_create(o->trace, &o->trace_opt, p, cfg, why, sizeof why))) {
            diag_add(dl, "--trace", 0, 0, NULL, "%s", why);
            if (ms) memsys_destroy(ms);
            return RUN_BAD_INPUT;
        }
    }
    Observer obs = trace ? trace_observer(trace) : (Observer){ 0 };
    GpuStep step = { o->step ? step_print : NULL, o->step, o->step_sm, o->step_warp, 0 };
    Stepper *stepper = NULL;
    if (o->step && o->step_in && !o->functional) {      /* on a terminal: stop and wait */
        if (!(stepper = stepper_create(o->step_in, o->step, o->step_sm, o->step_warp, trace ? &obs : NULL))) {
            diag_add(dl, "--step", 0, 0, NULL, "out of memory");
            if (ms) memsys_destroy(ms);
            return RUN_BAD_INPUT;
        }
        obs = stepper_observer(stepper);
        step = stepper_hook(stepper);
        fputs("gpusim: stepping. n next cycle, s next instruction, c continue, h help\n", o->step);
    }
    int faulted = 0;
    check_init(&r->check, (unsigned)o->checks, cfg->sm.independent_threads);
    Checker *chk = o->checks & ~CHECK_ERROR ? &r->check : NULL;
    GpuHost host = { o->threads, o->host_times, o->rows_apart, o->slow_paths, o->progress };
    for (int i = 0; i < p->nlaunches && !faulted; i++) {
        const Stats *st = &r->stats;
        LaunchFigures before = { st->cycles, st->inst, st->thread_inst, st->ctas_launched };
        faulted = o->functional
            ? func_run(p, i, &r->mem, &r->stats, cfg, max_steps, chk, o->progress, o->slow_paths, &r->fault)
            : gpu_run_launch(p, i, &r->mem, &r->stats, cfg, ms, trace || stepper ? &obs : NULL, &step, &now,
                             o->max_cycles, chk, &host, &r->fault);
        r->per_launch[i] = (LaunchFigures){ st->cycles - before.cycles, st->inst - before.inst,
                                            st->thread_inst - before.thread_inst, st->ctas_launched - before.ctas };
        if (o->progress) o->progress->clear(o->progress->ctx);   /* before anything else is written */
        if (r->stats.printf_len && o->printf_out) {
            fwrite(r->stats.printf_text, 1, r->stats.printf_len, o->printf_out);
            fflush(o->printf_out);
        }
        r->stats.printf_len = 0;
    }
    stepper_destroy(stepper);
    if (trace && trace_close(trace)) diag_add(dl, "--trace", 0, 0, NULL, "%s: write error", o->trace);
    if (ms) {
        memsys_flush(ms);      /* what the write-back L2 still holds counts as written */
        r->memstats = *memsys_stats(ms);
        r->has_memstats = 1;
        memsys_destroy(ms);
    }
    if (faulted) {
        r->faulted = 1;
        return RUN_FAULT;
    }
    r->checks = calloc((size_t)(p->nchecks ? p->nchecks : 1), sizeof *r->checks);
    if (!r->checks) return RUN_BAD_INPUT;
    for (int i = 0; i < p->nchecks; i++) {
        if (host_run_check(p, &r->mem, i, &r->checks[i], dl)) return RUN_BAD_INPUT;
        r->nchecks++;
        if (!r->checks[i].passed) r->checks_failed++;
    }
    return r->checks_failed ? RUN_CHECK_FAILED : RUN_OK;
}

void run_free(Run *r)
{
    mem_free(&r->mem);
    stats_free(&r->stats);
    free(r->checks);
    free(r->occ);
    free(r->per_launch);
    r->per_launch = NULL;
    check_free(&r->check);
    r->checks = NULL;
    r->occ = NULL;
}
