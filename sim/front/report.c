/* report.c - see report.h. */
#include "sim/front/report.h"

#include <inttypes.h>
#include <stdlib.h>
#include <unistd.h>
#include <string.h>

#include "isa/backend.h"
#include "isa/disasm.h"
#include "isa/suggest.h"

#ifndef GPUSIM_VERSION
#define GPUSIM_VERSION "dev"
#endif

typedef struct Metric {
    const char *name;       /* Nsight Compute name, or gpusim__... */
    double value;
    int is_int;
    const char *label;      /* for the text report */
} Metric;

enum { MAX_METRICS = 96 };

static int add(Metric *m, int n, const char *name, double v, int is_int, const char *label)
{
    if (n < MAX_METRICS) m[n] = (Metric){ name, v, is_int, label };
    return n + 1;
}

static uint64_t warp_cycles(const Stats *s)
{
    uint64_t n = 0;
    for (int i = 0; i < STALL_COUNT; i++) n += s->stall[i];
    return n;
}

/* The one table both reports print. */
static int collect(const Run *r, Metric *m)
{
    const Stats *s = &r->stats;
    const Config *c = r->cfg;
    int n = 0;
    if (!r->opt.functional) {
        double active_avg = (double)s->sm_active_cycles / c->gpu.num_sms;
        n = add(m, n, "gpc__cycles_elapsed.max", (double)s->cycles, 1, "cycles");
        n = add(m, n, "sm__cycles_active.avg", active_avg, 0, "active cycles per SM");
        n = add(m, n, "gpusim__ipc", s->cycles ? (double)s->inst / (double)s->cycles : 0, 0, "IPC, GPU (warp inst/cycle)");
        n = add(m, n, "sm__inst_executed.avg.per_cycle_active", s->sm_active_cycles ? (double)s->inst / (double)s->sm_active_cycles : 0, 0,
                "IPC per active SM");
        n = add(m, n, "sm__warps_active.avg.pct_of_peak_sustained_active",
                s->sm_active_cycles ? 100.0 * (double)warp_cycles(s) / ((double)s->sm_active_cycles * c->sm.max_warps) : 0, 0,
                "achieved occupancy (%)");
        if (r->has_memstats) {
            const MemStats *ms = &r->memstats;
            double l1 = (double)(ms->l1_sector_hits + ms->l1_sector_misses);
            double l2 = (double)(ms->l2_sector_hits + ms->l2_sector_misses);
            double secs = (double)s->cycles / (c->gpu.core_clock_mhz * 1e6);
            n = add(m, n, "l1tex__t_sector_hit_rate.pct", l1 ? 100.0 * (double)ms->l1_sector_hits / l1 : 0, 0, "L1 sector hit rate (%)");
            n = add(m, n, "gpusim__l1_bytes", (double)s->l1_bytes, 1, "L1 capacity (last launch's carve-out)");
            n = add(m, n, "lts__t_sector_hit_rate.pct", l2 ? 100.0 * (double)ms->l2_sector_hits / l2 : 0, 0, "L2 sector hit rate (%)");
            n = add(m, n, "dram__bytes_read.sum", (double)ms->dram_bytes_read, 1, "DRAM bytes read");
            n = add(m, n, "dram__bytes_write.sum", (double)ms->dram_bytes_write, 1, "DRAM bytes written");
            n = add(m, n, "gpusim__dram_row_hits.sum", (double)ms->dram_row_hits, 1, "DRAM row-buffer hits");
            n = add(m, n, "gpusim__dram_row_misses.sum", (double)ms->dram_row_misses, 1, "DRAM row misses (bank closed)");
            n = add(m, n, "gpusim__dram_row_conflicts.sum", (double)ms->dram_row_conflicts, 1, "DRAM row conflicts");
            n = add(m, n, "gpusim__dram_bandwidth_peak_gbs", memsys_peak_gbs(c), 0, "DRAM peak bandwidth (GB/s)");
            n = add(m, n, "gpusim__dram_bandwidth_achieved_gbs",
                    /* the end-of-run flush of dirty L2 lines took no simulated time */
                    secs > 0 ? (double)(ms->dram_bytes_read + ms->dram_bytes_write - ms->dram_flush_bytes) / secs / 1e9 : 0, 0,
                    "DRAM achieved bandwidth (GB/s)");
            n = add(m, n, "dram__throughput.avg.pct_of_peak_sustained_elapsed",
                    ms->dram_cycles ? 100.0 * (double)ms->dram_busy_cycles / (double)ms->dram_cycles : 0, 0, "DRAM data bus busy (% of peak)");
            n = add(m, n, "gpusim__lsu_retry_l1_busy.sum", (double)ms->retry_l1_busy, 1, "LSU retries: L1 tag stage busy");
            n = add(m, n, "gpusim__lsu_retry_mshr.sum", (double)ms->retry_mshr, 1, "LSU retries: no L1 MSHR or free way");
            n = add(m, n, "gpusim__lsu_retry_icnt.sum", (double)ms->retry_icnt, 1, "LSU retries: crossbar port full");
            n = add(m, n, "gpusim__lsu_retry_records.sum", (double)ms->retry_records, 1, "LSU retries: in-flight records full");
            n = add(m, n, "gpusim__l2_wait_dram_queue.sum", (double)ms->l2_wait_cycles[L2_WAIT_DRAM - 1], 1,
                    "L2 slice-cycles waiting for a DRAM queue entry");
            n = add(m, n, "gpusim__l2_wait_reply_port.sum", (double)ms->l2_wait_cycles[L2_WAIT_REPLY - 1], 1,
                    "L2 slice-cycles waiting for reply-port room");
            n = add(m, n, "gpusim__l2_wait_reserved.sum", (double)ms->l2_wait_cycles[L2_WAIT_RESERVED - 1], 1,
                    "L2 slice-cycles waiting for an unreserved way");
            n = add(m, n, "gpusim__l2_wait_mshr.sum", (double)ms->l2_wait_cycles[L2_WAIT_MSHR - 1], 1,
                    "L2 slice-cycles waiting for an MSHR or merge slot");
            n = add(m, n, "gpusim__const_serialized.sum", (double)ms->const_serialized, 1, "const cache serialised cycles");
            n = add(m, n, "gpusim__const_misses.sum", (double)ms->const_misses, 1, "const cache line misses");
        }
        const Occupancy *o = &r->occ[0];
        n = add(m, n, "sm__maximum_warps_per_active_cycle_pct", o->theoretical_pct, 0, "theoretical occupancy (%)");
        n = add(m, n, "launch__occupancy_limit_blocks", o->limit[OCC_BLOCKS], 1, "blocks/SM by the block limit");
        n = add(m, n, "launch__occupancy_limit_warps", o->limit[OCC_WARPS], 1, "blocks/SM by warps");
        n = add(m, n, "launch__occupancy_limit_registers", o->limit[OCC_REGISTERS], 1, "blocks/SM by registers");
        n = add(m, n, "launch__occupancy_limit_shared_mem", o->limit[OCC_SHARED], 1, "blocks/SM by shared memory");
        n = add(m, n, "launch__registers_per_thread", o->regs_per_thread, 1, "registers per thread");
        n = add(m, n, "launch__waves_per_multiprocessor", o->waves, 0, "waves per SM");
    }
    n = add(m, n, "smsp__inst_executed.sum", (double)s->inst, 1, "warp instructions");
    n = add(m, n, "gpusim__ptx_inst_executed.sum", (double)s->ptx_inst, 1, "PTX warp instructions");
    n = add(m, n, "smsp__thread_inst_executed.sum", (double)s->thread_inst, 1, "thread instructions");
    n = add(m, n, "smsp__thread_inst_executed_pred_on.sum", (double)s->thread_inst_pred_on, 1, "thread instructions, guard on");
    n = add(m, n, "gpusim__simd_efficiency.pct", stats_simd_efficiency(s, r->cfg->sm.warp_size), 0, "SIMD efficiency (%)");
    n = add(m, n, "smsp__sass_inst_executed_op_branch.sum", (double)s->branches, 1, "branch instructions");
    n = add(m, n, "smsp__sass_branch_targets.sum", (double)s->branch_targets, 1, "branch targets");
    n = add(m, n, "smsp__sass_branch_targets_threads_uniform.sum", (double)s->branch_uniform, 1, "uniform branches");
    n = add(m, n, "smsp__sass_branch_targets_threads_divergent.sum", (double)s->branch_divergent, 1, "divergent branches");
    n = add(m, n, "smsp__inst_executed_op_global_ld.sum", (double)s->mem_inst[SP_GLOBAL][0], 1, "global loads");
    n = add(m, n, "smsp__inst_executed_op_global_st.sum", (double)s->mem_inst[SP_GLOBAL][1], 1, "global stores");
    n = add(m, n, "smsp__inst_executed_op_shared_ld.sum", (double)s->mem_inst[SP_SHARED][0], 1, "shared loads");
    n = add(m, n, "smsp__inst_executed_op_shared_st.sum", (double)s->mem_inst[SP_SHARED][1], 1, "shared stores");
    n = add(m, n, "smsp__inst_executed_op_local_ld.sum", (double)s->mem_inst[SP_LOCAL][0], 1, "local loads");
    n = add(m, n, "smsp__inst_executed_op_local_st.sum", (double)s->mem_inst[SP_LOCAL][1], 1, "local stores");
    n = add(m, n, "smsp__inst_executed_op_ldc.sum", (double)s->mem_inst[SP_CONST][0], 1, "constant loads");
    n = add(m, n, "gpusim__inst_executed_op_generic_ld.sum", (double)s->mem_inst[SP_NONE][0], 1, "generic loads");
    n = add(m, n, "gpusim__inst_executed_op_generic_st.sum", (double)s->mem_inst[SP_NONE][1], 1, "generic stores");
    n = add(m, n, "gpusim__inst_executed_op_param_ld.sum", (double)s->mem_inst[SP_PARAM][0], 1, "parameter loads");
    n = add(m, n, "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", (double)s->requests[0][0], 1, "global load requests");
    n = add(m, n, "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", (double)s->sectors[0][0], 1, "global load sectors (32 B)");
    n = add(m, n, "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum", (double)s->requests[0][1], 1, "global store requests");
    n = add(m, n, "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum", (double)s->sectors[0][1], 1, "global store sectors (32 B)");
    n = add(m, n, "gpusim__sectors_per_request_global_ld", s->requests[0][0] ? (double)s->sectors[0][0] / (double)s->requests[0][0] : 0, 0,
            "sectors per global ld request");
    n = add(m, n, "l1tex__t_requests_pipe_lsu_mem_local_op_ld.sum", (double)s->requests[1][0], 1, "local load requests");
    n = add(m, n, "l1tex__t_sectors_pipe_lsu_mem_local_op_ld.sum", (double)s->sectors[1][0], 1, "local load sectors");
    n = add(m, n, "l1tex__t_requests_pipe_lsu_mem_local_op_st.sum", (double)s->requests[1][1], 1, "local store requests");
    n = add(m, n, "l1tex__t_sectors_pipe_lsu_mem_local_op_st.sum", (double)s->sectors[1][1], 1, "local store sectors");
    n = add(m, n, "gpusim__global_bytes_requested.sum", (double)s->bytes_requested, 1, "bytes requested (global+local)");
    n = add(m, n, "gpusim__global_bytes_moved.sum", (double)s->bytes_moved, 1, "bytes in the sectors moved");
    /* distinct bytes / moved bytes: lanes reading one word (a broadcast)
     * need it once, so this never exceeds 100% */
    n = add(m, n, "gpusim__coalescing_efficiency.pct", s->bytes_moved ? 100.0 * (double)s->bytes_unique / (double)s->bytes_moved : 0, 0,
            "coalescing efficiency (%)");
    n = add(m, n, "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum", (double)s->smem_wavefronts[0], 1, "shared load wavefronts");
    n = add(m, n, "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum", (double)s->smem_conflicts[0], 1, "shared load bank conflicts");
    n = add(m, n, "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum", (double)s->smem_wavefronts[1], 1, "shared store wavefronts");
    n = add(m, n, "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum", (double)s->smem_conflicts[1], 1, "shared store bank conflicts");
    n = add(m, n, "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_atom.sum", (double)s->smem_wavefronts[2], 1, "shared atomic wavefronts");
    n = add(m, n, "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_atom.sum", (double)s->smem_conflicts[2], 1, "shared atomic conflicts");
    n = add(m, n, "smsp__inst_executed_op_global_atom.sum", (double)s->atomics[SP_GLOBAL], 1, "global atomics");
    n = add(m, n, "smsp__inst_executed_op_shared_atom.sum", (double)s->atomics[SP_SHARED], 1, "shared atomics");
    n = add(m, n, "smsp__inst_executed_op_barrier.sum", (double)s->barriers, 1, "bar.sync instructions");
    n = add(m, n, "launch__grid_size", (double)s->ctas_launched, 1, "blocks launched");
    n = add(m, n, "gpusim__warps_launched.sum", (double)s->warps_launched, 1, "warps launched");
    n = add(m, n, "gpusim__simt_stack_depth.max", (double)s->simt_max_depth, 1, "deepest SIMT stack");
    n = add(m, n, "gpusim__div_by_zero.sum", (double)s->div_by_zero, 1, "integer divisions by zero");
    return n < MAX_METRICS ? n : MAX_METRICS;
}

int report_metrics(const Run *r, const char *const *names, double *values, int n)
{
    Metric m[MAX_METRICS];
    int nm = collect(r, m), found = 0;
    for (int i = 0; i < n; i++)
        for (int k = 0; k < nm; k++)
            if (!strcmp(names[i], m[k].name)) { values[i] = m[k].value; found++; break; }
    return found;
}

int report_metric_known(const Config *c, const char *name, const char **near)
{
    /* every name a timed run with the memory hierarchy reports: the values
     * of an empty run are not used */
    Occupancy occ;
    memset(&occ, 0, sizeof occ);
    Run r;
    memset(&r, 0, sizeof r);
    r.cfg = c;
    r.occ = &occ;
    r.has_memstats = 1;
    Metric m[MAX_METRICS];              /* names are string literals: *near outlives m */
    int nm = collect(&r, m);
    *near = NULL;
    for (int k = 0; k < nm; k++)
        if (!strcmp(name, m[k].name)) return 1;
    *near = suggest_best(name, m, (size_t)nm, sizeof m[0]);
    return 0;
}

/* A source line for display: no indentation, no // comment, no trailing
 * blanks, collapsed runs of blanks, at most n-1 characters. */
static const char *code_text(const Program *p, int line, char *buf, size_t n)
{
    int len;
    const char *src = program_line(p, line, &len);
    size_t k = 0;
    int blank = 0;
    for (int i = 0; i < len && k + 1 < n; i++) {
        if (src[i] == '/' && i + 1 < len && src[i + 1] == '/') break;
        if (src[i] == ' ' || src[i] == '\t') { blank = k > 0; continue; }
        if (blank && k + 2 < n) buf[k++] = ' ';
        blank = 0;
        buf[k++] = src[i];
    }
    buf[k] = '\0';
    return buf;
}

/* The text report's sections, by metric name.  A title has at most 32
 * columns, so that its "value" heading lines up with the values. */
enum { NSECTIONS = 8 };
static const char *const section_titles[NSECTIONS] = {
    "time", "occupancy", "instructions and divergence", "instructions by memory space",
    "global/local memory (coalescing)", "shared memory (banks)", "caches and DRAM", "other",
};

/* Colour (bold headings) only for a terminal, and never with NO_COLOR set
 * (no-color.org): piped and redirected reports stay plain text. */
static int use_colour(FILE *out)
{
    const char *nc = getenv("NO_COLOR");
    return isatty(fileno(out)) && !(nc && *nc);
}
static const char *bold(FILE *out) { return use_colour(out) ? "\033[1m" : ""; }
static const char *plain(FILE *out) { return use_colour(out) ? "\033[0m" : ""; }

static long long gcd_ll(long long a, long long b) { while (b) { long long t = a % b; a = b; b = t; } return a ? a : 1; }

static int starts(const char *s, const char *prefix) { return strncmp(s, prefix, strlen(prefix)) == 0; }

static int section_of(const char *name)
{
    if (starts(name, "gpc__") || starts(name, "sm__cycles") || starts(name, "gpusim__ipc") || starts(name, "sm__inst_executed"))
        return 0;
    if (starts(name, "sm__warps_active") || starts(name, "sm__maximum") || starts(name, "launch__") ||
        starts(name, "gpusim__warps_launched"))
        return 1;
    if (starts(name, "smsp__inst_executed_op") || starts(name, "gpusim__inst_executed_op")) return 3;
    if (starts(name, "smsp__") || starts(name, "gpusim__simd") || starts(name, "gpusim__simt") || starts(name, "gpusim__div"))
        return 2;
    if (starts(name, "l1tex__t_requests") || starts(name, "l1tex__t_sectors_pipe") || starts(name, "gpusim__sectors") ||
        starts(name, "gpusim__global_bytes") || starts(name, "gpusim__coalescing"))
        return 4;
    if (starts(name, "l1tex__data")) return 5;
    if (starts(name, "l1tex__t_sector_hit") || starts(name, "lts__") || starts(name, "dram__") || starts(name, "gpusim__dram") ||
        starts(name, "gpusim__const"))
        return 6;
    return 7;
}

static void json_string(FILE *out, const char *s)
{
    fputc('"', out);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\') fprintf(out, "\\%c", *p);
        else if (*p == '\n') fputs("\\n", out);
        else if (*p < 0x20) fprintf(out, "\\u%04x", *p);
        else fputc(*p, out);
    }
    fputc('"', out);
}

static void print_value(FILE *out, const Metric *m)
{
    if (m->is_int) fprintf(out, "%.0f", m->value);
    else fprintf(out, "%.2f", m->value);
}

void report_checks(const Run *r, FILE *out)
{
    const Program *p = r->prog;
    for (int i = 0; i < r->nchecks; i++) {
        const CheckResult *c = &r->checks[i];
        const char *name = p->buffers[c->buffer].name;
        if (c->passed)
            fprintf(out, "  check %-10s PASS  (%" PRIu64 " values, max abs error %.3g)\n", name, c->compared, c->max_abs_err);
        else
            fprintf(out, "  check %-10s FAIL  (%" PRIu64 " of %" PRIu64 " values differ)\n%s\n", name, c->mismatches,
                    c->compared, c->detail);
    }
}

static void thread_of(const Run *r, int launch, int warp, int lane, uint32_t *t)
{
    const uint32_t *b = r->prog->launches[launch].block;
    uint32_t lin = (uint32_t)(warp * r->cfg->sm.warp_size + lane);
    t[0] = lin % b[0];
    t[1] = (lin / b[0]) % b[1];
    t[2] = lin / (b[0] * b[1]);
}

static void finding_site(const Run *r, const Entry *e, const CheckSite *s, const char *verb, FILE *out)
{
    char text[160];
    disasm_instr(r->prog, e, &e->code[s->pc], text, sizeof text);
    fprintf(out, "    line %-4u warp %d lane %-2d %-6s %s\n", s->line, s->warp, s->lane, verb, text);
}

static void report_hazards(const Run *r, FILE *out)
{
    const Checker *c = &r->check;
    const Program *p = r->prog;
    fprintf(out, "\n%srace check%s: %d hazard%s: two threads of a block touch one word with no bar.sync between\n",
            bold(out), plain(out), c->nhaz, c->nhaz == 1 ? "" : "s");
    for (int i = 0; i < c->nhaz; i++) {
        const Hazard *h = &c->haz[i];
        const Entry *e = &p->entries[p->launches[h->launch].entry];
        char word[160];
        check_word_name(p, e, h->space, h->addr, &r->mem, word, sizeof word);
        fprintf(out, "  %s on %s %s, launch %d block (%u,%u,%u): %" PRIu64 " time%s\n", hazard_names[h->kind],
                h->space == SP_SHARED ? "shared" : "global", word, h->launch + 1, h->cta[0], h->cta[1], h->cta[2],
                h->count, h->count == 1 ? "" : "s");
        finding_site(r, e, &h->first, h->kind == HAZ_WAR ? "read" : "wrote", out);
        finding_site(r, e, &h->second, h->kind == HAZ_RAW ? "read" : "wrote", out);
    }
}

static void report_uninit(const Run *r, FILE *out)
{
    const Checker *c = &r->check;
    const Program *p = r->prog;
    fprintf(out, "\n%suninitialised registers%s: %d read%s of a register the thread never wrote\n", bold(out),
            plain(out), c->nun, c->nun == 1 ? "" : "s");
    for (int i = 0; i < c->nun; i++) {
        const UninitRead *u = &c->un[i];
        const Entry *e = &p->entries[p->launches[u->launch].entry];
        const char *name = u->is_pred ? e->preds[u->reg - e->nregs].name : e->regs[u->reg].name;
        uint32_t t[3], wl = check_writer_line(e, u->reg);
        thread_of(r, u->launch, u->site.warp, u->site.lane, t);
        fprintf(out, "  %s at line %u, read by thread (%u,%u,%u) of block (%u,%u,%u), launch %d, which never wrote it",
                name, u->site.line, t[0], t[1], t[2], u->cta[0], u->cta[1], u->cta[2], u->launch + 1);
        if (wl) fprintf(out, " (line %u writes it, on a path this thread did not take)", wl);
        fprintf(out, ": %" PRIu64 " time%s\n", u->count, u->count == 1 ? "" : "s");
        finding_site(r, e, &u->site, "read", out);
    }
}

void report_findings(const Run *r, FILE *out)
{
    if (r->check.nhaz) report_hazards(r, out);
    if (r->check.nun) report_uninit(r, out);
    if (r->check.dropped)
        fprintf(out, "  (%" PRIu64 " more distinct findings not kept)\n", r->check.dropped);
}

/* Stalls as a sorted table with bars, then the source lines that cost the
 * most warp-cycles with their dominant reason. */
static void report_stalls(const Run *r, FILE *out)
{
    const Stats *s = &r->stats;
    uint64_t total = warp_cycles(s);
    if (!total) return;
    int idx[STALL_COUNT];
    for (int i = 0; i < STALL_COUNT; i++) idx[i] = i;
    for (int i = 1; i < STALL_COUNT; i++)   /* insertion sort, descending, stable */
        for (int j = i; j > 0 && s->stall[idx[j]] > s->stall[idx[j - 1]]; j--) { int t = idx[j]; idx[j] = idx[j - 1]; idx[j - 1] = t; }
    fprintf(out, "\n%swarp states (%" PRIu64 " warp-cycles)%s\n", bold(out), total, plain(out));
    for (int i = 0; i < STALL_COUNT; i++) {
        uint64_t v = s->stall[idx[i]];
        if (!v) continue;
        double pct = 100.0 * (double)v / (double)total;
        char bar[41];
        /* a state over 100% is a bug of the accounting (test_timing's
         * stall tests look for one); its bar stops at the column's end */
        int nb = pct >= 100.0 ? 40 : (int)(pct * 40 / 100 + 0.5);
        memset(bar, '#', (size_t)nb);
        bar[nb] = '\0';
        fprintf(out, "  %-20s %14" PRIu64 " %5.1f%%  %s\n", stall_names[idx[i]], v, pct, bar);
    }
    /* hotspots: lines by warp-cycles */
    const Program *p = r->prog;
    int top[5] = { -1, -1, -1, -1, -1 };
    uint64_t topv[5] = { 0 };
    for (int l = 1; l <= s->nlines; l++) {
        uint64_t v = 0;
        for (int k = 0; k < STALL_COUNT; k++) v += s->line[l].stall[k];
        for (int t = 0; t < 5; t++) {
            if (v > topv[t]) {
                memmove(&top[t + 1], &top[t], (size_t)(4 - t) * sizeof top[0]);
                memmove(&topv[t + 1], &topv[t], (size_t)(4 - t) * sizeof topv[0]);
                top[t] = l; topv[t] = v;
                break;
            }
        }
    }
    fputs("\nhotspots (source lines by warp-cycles)\n", out);
    int waits_past = 0;
    for (int t = 0; t < 5 && top[t] > 0; t++) {
        const LineStats *ls = &s->line[top[t]];
        int best = 0;
        for (int k = 1; k < STALL_COUNT; k++) if (ls->stall[k] > ls->stall[best]) best = k;
        char code[52], lab[96];
        fprintf(out, "  line %-4s %5.1f%%  %-16s %s\n", program_line_label(p, top[t], 1, lab, sizeof lab),
                100.0 * (double)topv[t] / (double)total, stall_names[best], code_text(p, top[t], code, sizeof code));
        waits_past |= best == STALL_BARRIER || best == STALL_BRANCH_RESOLVING;
    }
    /* docs/architecture.md "Stall reasons": a warp-cycle goes to the line of
     * the instruction the warp waits to issue, not to the one it waits on. */
    if (waits_past)
        fputs("  (a warp is charged to the line it waits to issue: barrier to the line after the bar.sync,\n"
              "   branch_resolving to the branch target)\n", out);
}

/* The source view: per kernel line, warp instructions issued and the
 * warp-cycles spent there, with the two biggest reasons. */
static void report_source(const Run *r, FILE *out)
{
    const Stats *s = &r->stats;
    const Program *p = r->prog;
    fputs("\nsource view\n  line    insts warp-cycles  main states                        code\n", out);
    for (int l = 1; l <= s->nlines; l++) {
        const LineStats *ls = &s->line[l];
        uint64_t tot = 0;
        for (int k = 0; k < STALL_COUNT; k++) tot += ls->stall[k];
        if (!ls->inst && !tot) continue;
        int a = -1, b = -1;
        for (int k = 0; k < STALL_COUNT; k++) {
            if (!ls->stall[k]) continue;
            if (a < 0 || ls->stall[k] > ls->stall[a]) { b = a; a = k; }
            else if (b < 0 || ls->stall[k] > ls->stall[b]) b = k;
        }
        char code[37];
        code_text(p, l, code, sizeof code);
        char why[64] = "";
        if (a >= 0 && tot) {
            int n = snprintf(why, sizeof why, "%s %.0f%%", stall_names[a], 100.0 * (double)ls->stall[a] / (double)tot);
            char second[40];
            if (b >= 0) snprintf(second, sizeof second, ", %s %.0f%%", stall_names[b], 100.0 * (double)ls->stall[b] / (double)tot);
            if (b >= 0 && n > 0 && (size_t)n + strlen(second) <= 34) strcat(why, second);   /* only if it fits */
        }
        /* 2 + 4 + 1 + 8 + 1 + 10 + 2 + 34 + 1 + 36 = 99 columns */
        char lab[96];
        int cl;
        const char *cu = program_cuda_line(p, l, &cl);   /* nvcc -lineinfo: the CUDA line after the code */
        fprintf(out, "  %4s %8" PRIu64 " %10" PRIu64 "  %-34.34s %s", program_line_label(p, l, 0, lab, sizeof lab),
                ls->inst, tot, why, code);
        if (cu) fprintf(out, "  // %s:%d", cu, cl);
        fputc('\n', out);
    }
}

/* Observations: what the counters say about a line, in words, from what
 * was measured (never from the kernel's name). */
static void report_observations(const Run *r, FILE *out)
{
    const Stats *s = &r->stats;
    const Program *p = r->prog;
    int banks = r->cfg->smem.banks, bank_bytes = r->cfg->smem.bank_bytes;
    int shown = 0;
    char code[60], lab[96];
    for (int l = 1; l <= s->nlines; l++) {
        const LineStats *ls = &s->line[l];
        if (!ls->inst) continue;
        if (ls->bank_conflicts && ls->inst) {
            double ways = (double)ls->wavefronts / (double)ls->inst;
            if (!shown++) fprintf(out, "\n%sobservations%s\n", bold(out), plain(out));
            fprintf(out, "  line %s: %s\n    %.1f wavefronts per instruction: a %.0f-way shared-memory bank conflict.\n",
                    program_line_label(p, l, 1, lab, sizeof lab),
                    code_text(p, l, code, sizeof code), ways, ways);
            if (ls->stride_seen && ls->lane_stride % bank_bytes == 0) {
                long long words = (long long)(ls->lane_stride / bank_bytes);
                int k = words ? (int)(banks / gcd_ll(words < 0 ? -words : words, banks)) : 0;
                if (k == 1)
                    fprintf(out, "    Neighbouring lanes touch words %lld apart: with %d banks (bank = word %% %d) every lane\n"
                                 "    lands in the same bank.\n", words, banks, banks);
                else if (k > 1)
                    fprintf(out, "    Neighbouring lanes touch words %lld apart: with %d banks, lanes %d apart land in the\n"
                                 "    same bank.\n", words, banks, k);
                if (words && (words % banks) == 0)
                    fprintf(out, "    Padding each row by one word (a stride of %lld) spreads them over all banks.\n", words + 1);
            }
        }
        if (ls->requests && ls->sectors > ls->ideal_sectors && ls->stride_seen) {
            double spr = (double)ls->sectors / (double)ls->requests, ideal = (double)ls->ideal_sectors / (double)ls->requests;
            if (spr > 1.5 * ideal) {
                if (!shown++) fprintf(out, "\n%sobservations%s\n", bold(out), plain(out));
                fprintf(out, "  line %s: %s\n    %.1f sectors per request where %.1f would do: uncoalesced.",
                        program_line_label(p, l, 1, lab, sizeof lab), code_text(p, l, code, sizeof code), spr, ideal);
                int word = ls->mem_bytes > 0 ? ls->mem_bytes : 4;
                int per_sector = r->cfg->l1.sector_bytes / word > 0 ? r->cfg->l1.sector_bytes / word : 1;
                fprintf(out, "\n    Neighbouring lanes are %lld bytes apart; for one sector per %d lanes they should\n"
                             "    read consecutive %d-byte words.\n", (long long)ls->lane_stride, per_sector, word);
            }
        }
        if (ls->divergent) {
            if (!shown++) fprintf(out, "\n%sobservations%s\n", bold(out), plain(out));
            fprintf(out, "  line %s: %s\n    diverged %llu time%s: the warp ran both paths one after the other.\n",
                    program_line_label(p, l, 1, lab, sizeof lab),
                    code_text(p, l, code, sizeof code), (unsigned long long)ls->divergent, ls->divergent == 1 ? "" : "s");
        }
        if (shown >= 12) { fputs("  (more in the source view and the JSON report)\n", out); break; }
    }
}

/* The schedule and occupancy lines under a launch's heading. */
static void launch_details(const Run *r, int i, FILE *out)
{
    const Program *p = r->prog;
    const LaunchSpec *l = &p->launches[i];
    const Entry *e = backend_entry(&p->entries[l->entry], r->cfg->core.schedule == CORE_SCHEDULE_MACHINE);
    fprintf(out, "  core.schedule=%s: %s, registers %s\n", e == &p->entries[l->entry] ? "source" : "machine",
            e == &p->entries[l->entry] ? "the PTX as written" : "the back end's machine order",
            e->regs_stated ? "stated by .nregs" : e == &p->entries[l->entry] ? "counted by use" : "allocated");
    char what[256];
    if (e != &p->entries[l->entry] && backend_describe(e, what, sizeof what))
        fprintf(out, "  as ptxas does: %s;\n  --disasm shows them, core.schedule=source runs the PTX as written\n", what);
    const Occupancy *o = &r->occ[i];
    if (o->blocks > 0)
        fprintf(out, "  theoretical occupancy %.1f%%: %d block%s/SM of %d warp%s, bound by %s\n", o->theoretical_pct,
                o->blocks, o->blocks == 1 ? "" : "s", o->warps_per_block, o->warps_per_block == 1 ? "" : "s",
                occupancy_limiter_name(o->binding));
}

/* With .for loops: one heading per .launch line (the launches it made and
 * its first one), instead of one per launch; the per-launch table follows
 * the metrics. */
static void report_launch_lines(const Run *r, FILE *out)
{
    const Program *p = r->prog;
    int machine = r->cfg->core.schedule == CORE_SCHEDULE_MACHINE;
    int *lines = NULL, *first = NULL, *count = NULL, n = 0, looped = 0;
    for (int i = 0; i < p->nlaunches; i++) {
        int k = 0;
        while (k < n && lines[k] != p->launches[i].line) k++;
        if (k == n) {
            n++;
            lines = realloc(lines, (size_t)n * sizeof *lines);
            first = realloc(first, (size_t)n * sizeof *first);
            count = realloc(count, (size_t)n * sizeof *count);
            if (!lines || !first || !count) abort();
            lines[k] = p->launches[i].line; first[k] = i; count[k] = 0;
        }
        count[k]++;
        looped += p->launches[i].nloop > 0;
    }
    fprintf(out, "%d launches, %d of them made by .for loops, from %d .launch line%s\n", p->nlaunches, looped, n,
            n == 1 ? "" : "s");
    for (int k = 0; k < n; k++) {
        const LaunchSpec *l = &p->launches[first[k]];
        const Entry *e = backend_entry(&p->entries[l->entry], machine);
        char lab[96], vals[256];
        program_loop_text(p, l, vals, sizeof vals);
        fprintf(out, "line %s: %s, %d launch%s; launch %d%s%s%s: grid=(%u,%u,%u) block=(%u,%u,%u), %d registers/thread, "
                     "%u B shared/block\n", program_line_label(p, l->line, 0, lab, sizeof lab), e->name, count[k],
                count[k] == 1 ? "" : "es", first[k] + 1, vals[0] ? " (" : "", vals, vals[0] ? ")" : "",
                l->grid[0], l->grid[1], l->grid[2], l->block[0], l->block[1], l->block[2], e->regs_per_thread,
                program_launch_shared(p, l));
        launch_details(r, first[k], out);
    }
    free(lines); free(first); free(count);
}

static void report_launches(const Run *r, FILE *out)
{
    const Program *p = r->prog;
    if (program_has_loops(p)) { report_launch_lines(r, out); return; }
    int machine = r->cfg->core.schedule == CORE_SCHEDULE_MACHINE;
    for (int i = 0; i < p->nlaunches; i++) {
        const LaunchSpec *l = &p->launches[i];
        const Entry *e = backend_entry(&p->entries[l->entry], machine);
        fprintf(out, "launch %d: %s grid=(%u,%u,%u) block=(%u,%u,%u), %d registers/thread, %u B shared/block\n",
                i + 1, e->name, l->grid[0], l->grid[1], l->grid[2], l->block[0], l->block[1], l->block[2],
                e->regs_per_thread, program_launch_shared(p, l));
        launch_details(r, i, out);
    }
}

/* The per-launch table of a file with .for loops: one row per launch (the
 * first and last LAUNCH_ROWS/2 of a longer run), then the totals. */
enum { LAUNCH_ROWS = 100 };

static void launch_row(const Run *r, int i, int wv, int wg, FILE *out)
{
    const Program *p = r->prog;
    const LaunchSpec *l = &p->launches[i];
    const LaunchFigures *f = &r->per_launch[i];
    char vals[256], grid[48], lab[96];
    program_loop_text(p, l, vals, sizeof vals);
    snprintf(grid, sizeof grid, "(%u,%u,%u)", l->grid[0], l->grid[1], l->grid[2]);
    fprintf(out, "  %7d %5s  %-*.*s  %-*s", i + 1, program_line_label(p, l->line, 0, lab, sizeof lab), wv, wv,
            vals[0] ? vals : "-", wg, grid);
    if (!r->opt.functional) fprintf(out, " %12" PRIu64, f->cycles);
    fprintf(out, " %12" PRIu64 " %14" PRIu64 "\n", f->inst, f->thread_inst);
}

static void report_launch_table(const Run *r, FILE *out)
{
    const Program *p = r->prog;
    int wv = 9, wg = 4;    /* "loop vars", "grid" */
    LaunchFigures tot = { 0, 0, 0, 0 };
    for (int i = 0; i < p->nlaunches; i++) {
        char vals[256], grid[48];
        const LaunchSpec *l = &p->launches[i];
        int nv = (int)strlen(program_loop_text(p, l, vals, sizeof vals));
        int ng = snprintf(grid, sizeof grid, "(%u,%u,%u)", l->grid[0], l->grid[1], l->grid[2]);
        if (nv > wv) wv = nv < 40 ? nv : 40;
        if (ng > wg) wg = ng;
        tot.cycles += r->per_launch[i].cycles;
        tot.inst += r->per_launch[i].inst;
        tot.thread_inst += r->per_launch[i].thread_inst;
    }
    fprintf(out, "\n%sper launch (%d launches)%s\n  %7s %5s  %-*s  %-*s", bold(out), p->nlaunches, plain(out), "launch", "line",
            wv, "loop vars", wg, "grid");
    if (!r->opt.functional) fprintf(out, " %12s", "cycles");
    fprintf(out, " %12s %14s\n", "warp inst", "thread inst");
    for (int i = 0; i < p->nlaunches; i++) {
        if (p->nlaunches > LAUNCH_ROWS && i == LAUNCH_ROWS / 2) {
            int skip = p->nlaunches - LAUNCH_ROWS;
            fprintf(out, "  ... %d more launch%s (the JSON report lists every one)\n", skip, skip == 1 ? "" : "es");
            i = p->nlaunches - LAUNCH_ROWS / 2;
        }
        launch_row(r, i, wv, wg, out);
    }
    fprintf(out, "  %7s %5s  %-*s  %-*s", "total", "", wv, "", wg, "");
    if (!r->opt.functional) fprintf(out, " %12" PRIu64, tot.cycles);
    fprintf(out, " %12" PRIu64 " %14" PRIu64 "\n", tot.inst, tot.thread_inst);
}

void report_text(const Run *r, FILE *out)
{
    const Program *p = r->prog;
    fprintf(out, "gpusim %s: %s on %s (%s)\n", GPUSIM_VERSION, p->filename, r->config_path, r->cfg->gpu.name);
    fprintf(out, "mode: %s\n\n", r->opt.functional ? "functional (instruction counts only, no timing)" : "cycle-level timing");
    report_launches(r, out);
    fputs("\nchecks\n", out);
    if (!r->nchecks) fputs("  (none: the kernel file has no .check)\n", out);
    report_checks(r, out);
    if (!(r->check.flags & CHECK_RACES) && r->stats.mem_inst[SP_SHARED][1])
        fputs("  (shared-memory races not checked: --check races, or run with --functional, looks for them)\n", out);
    report_findings(r, out);
    Metric m[MAX_METRICS];
    int n = collect(r, m);
    /* Sections in reading order; counters that are zero are left out here
     * (the JSON report has them all). */
    for (int sec = 0; sec < NSECTIONS; sec++) {
        int shown = 0;
        for (int i = 0; i < n; i++) {
            size_t nl = strlen(m[i].name);
            int zero_count = m[i].value == 0 && nl > 4 && !strcmp(m[i].name + nl - 4, ".sum");
            if (section_of(m[i].name) != sec || zero_count) continue;
            /* 2 + 30 + 1 + 9 + 2 + an Nsight name of 56 = 100 columns (the
             * one longer name, shared atomics' bank conflicts, runs to 102) */
            if (!shown++) fprintf(out, "\n%s%-32s %9s  %s%s\n", bold(out), section_titles[sec], "value", "metric", plain(out));
            fprintf(out, "  %-30.30s ", m[i].label);
            if (m[i].is_int) fprintf(out, "%9.0f", m[i].value); else fprintf(out, "%9.2f", m[i].value);
            fprintf(out, "  %s\n", m[i].name);
        }
    }
    if (program_has_loops(p)) report_launch_table(r, out);
    report_observations(r, out);
    if (!r->opt.functional) {
        report_stalls(r, out);
        report_source(r, out);
    }
}

static void json_site(const char *key, const CheckSite *s, FILE *out)
{
    fprintf(out, "\"%s\": {\"line\": %u, \"pc\": %u, \"warp\": %d, \"lane\": %d}", key, s->line, s->pc, s->warp,
            s->lane);
}

/* "findings": the run-time checks' results, when they ran (docs/checks.md). */
static void json_findings(const Run *r, FILE *out)
{
    const Checker *c = &r->check;
    const Program *p = r->prog;
    if (!(c->flags & (CHECK_RACES | CHECK_RACES_GLOBAL | CHECK_UNINIT))) return;
    fputs(",\n  \"findings\": {\"races\": [", out);
    for (int i = 0; i < c->nhaz; i++) {
        const Hazard *h = &c->haz[i];
        const Entry *e = &p->entries[p->launches[h->launch].entry];
        char word[160];
        check_word_name(p, e, h->space, h->addr, &r->mem, word, sizeof word);
        fprintf(out, "%s\n    {\"kind\": \"%s\", \"space\": \"%s\", \"word\": ", i ? "," : "", hazard_names[h->kind],
                h->space == SP_SHARED ? "shared" : "global");
        json_string(out, word);
        fprintf(out, ", \"launch\": %d, \"block\": [%u, %u, %u], \"count\": %" PRIu64 ", ", h->launch + 1, h->cta[0],
                h->cta[1], h->cta[2], h->count);
        json_site("first", &h->first, out);
        fputs(", ", out);
        json_site("second", &h->second, out);
        fputc('}', out);
    }
    fputs(c->nhaz ? "\n  ], \"uninitialised\": [" : "], \"uninitialised\": [", out);
    for (int i = 0; i < c->nun; i++) {
        const UninitRead *u = &c->un[i];
        const Entry *e = &p->entries[p->launches[u->launch].entry];
        uint32_t t[3];
        thread_of(r, u->launch, u->site.warp, u->site.lane, t);
        fprintf(out, "%s\n    {\"register\": ", i ? "," : "");
        json_string(out, u->is_pred ? e->preds[u->reg - e->nregs].name : e->regs[u->reg].name);
        fprintf(out, ", \"launch\": %d, \"block\": [%u, %u, %u], \"thread\": [%u, %u, %u], \"count\": %" PRIu64 ", ",
                u->launch + 1, u->cta[0], u->cta[1], u->cta[2], t[0], t[1], t[2], u->count);
        json_site("read", &u->site, out);
        fputc('}', out);
    }
    fprintf(out, "%s], \"dropped\": %" PRIu64 "}", c->nun ? "\n  " : "", c->dropped);
}

/* Files with .for loops: a launch's .launch line, loop values and what it
 * added to the counters (Nsight Compute names, as "metrics"). */
static void json_figures(const Run *r, const LaunchFigures *f, FILE *out)
{
    fputs("\"metrics\": {", out);
    if (!r->opt.functional) fprintf(out, "\"gpc__cycles_elapsed.max\": %" PRIu64 ", ", f->cycles);
    fprintf(out, "\"smsp__inst_executed.sum\": %" PRIu64 ", \"smsp__thread_inst_executed.sum\": %" PRIu64
                 ", \"launch__grid_size\": %" PRIu64 "}", f->inst, f->thread_inst, f->ctas);
}

static void json_launch_figures(const Run *r, int i, FILE *out)
{
    const Program *p = r->prog;
    const LaunchSpec *l = &p->launches[i];
    fprintf(out, ", \"line\": %d, \"loop\": {", l->line);
    for (int k = 0; k < l->nloop; k++) {
        fputs(k ? ", " : "", out);
        json_string(out, p->loop_vars[l->loop_var[k]]);
        fprintf(out, ": %lld", (long long)l->loop_val[k]);
    }
    fputs("}, ", out);
    json_figures(r, &r->per_launch[i], out);
}

/* The sums of the per-launch figures (equal to the run's "metrics"). */
static void json_launch_totals(const Run *r, FILE *out)
{
    const Program *p = r->prog;
    LaunchFigures t = { 0, 0, 0, 0 };
    int looped = 0;
    for (int i = 0; i < p->nlaunches; i++) {
        t.cycles += r->per_launch[i].cycles;
        t.inst += r->per_launch[i].inst;
        t.thread_inst += r->per_launch[i].thread_inst;
        t.ctas += r->per_launch[i].ctas;
        looped += p->launches[i].nloop > 0;
    }
    fprintf(out, ",\n  \"launch_totals\": {\"launches\": %d, \"in_loops\": %d, ", p->nlaunches, looped);
    json_figures(r, &t, out);
    fputc('}', out);
}

void report_json(const Run *r, FILE *out)
{
    const Program *p = r->prog;
    int loops = program_has_loops(p);
    fputs("{\n  \"gpusim\": ", out);
    json_string(out, GPUSIM_VERSION);
    fputs(",\n  \"kernel\": ", out);
    json_string(out, p->filename);
    fputs(",\n  \"config\": ", out);
    json_string(out, r->config_path);
    fputs(",\n  \"gpu\": ", out);
    json_string(out, r->cfg->gpu.name);
    fprintf(out, ",\n  \"mode\": \"%s\",\n  \"launches\": [", r->opt.functional ? "functional" : "timing");
    for (int i = 0; i < p->nlaunches; i++) {
        const LaunchSpec *l = &p->launches[i];
        const Entry *e = backend_entry(&p->entries[l->entry], r->cfg->core.schedule == CORE_SCHEDULE_MACHINE);
        fprintf(out, "%s\n    {\"entry\": ", i ? "," : "");
        json_string(out, e->name);
        fprintf(out, ", \"grid\": [%u, %u, %u], \"block\": [%u, %u, %u], \"registers_per_thread\": %d, "
                     "\"shared_bytes\": %u, \"schedule\": \"%s\"", l->grid[0], l->grid[1], l->grid[2], l->block[0], l->block[1], l->block[2],
                e->regs_per_thread, program_launch_shared(p, l), e == &p->entries[l->entry] ? "source" : "machine");
        if (e != &p->entries[l->entry])   /* what the back end did as ptxas does (docs/architecture.md) */
            fprintf(out, ", \"back_end\": {\"unrolled_loops\": %d, \"if_converted_branches\": %d, \"vector_shared_loads\": %d}",
                    e->unrolled, e->if_converted, e->vectorized);
        if (loops) json_launch_figures(r, i, out);
        fputc('}', out);
    }
    fputs("\n  ]", out);
    if (loops) json_launch_totals(r, out);
    fputs(",\n  \"checks\": [", out);
    for (int i = 0; i < r->nchecks; i++) {
        const CheckResult *c = &r->checks[i];
        fprintf(out, "%s\n    {\"buffer\": ", i ? "," : "");
        json_string(out, p->buffers[c->buffer].name);
        fprintf(out, ", \"passed\": %s, \"compared\": %" PRIu64 ", \"mismatches\": %" PRIu64 ", \"max_abs_error\": %.9g}",
                c->passed ? "true" : "false", c->compared, c->mismatches, c->max_abs_err);
    }
    fputs("\n  ],\n  \"metrics\": {", out);
    Metric m[MAX_METRICS];
    int n = collect(r, m);
    for (int i = 0; i < n; i++) {
        fprintf(out, "%s\n    ", i ? "," : "");
        json_string(out, m[i].name);
        fputs(": ", out);
        print_value(out, &m[i]);
    }
    fputs("\n  }", out);
    if (!r->opt.functional) {
        fputs(",\n  \"stalls\": {", out);
        for (int i = 0; i < STALL_COUNT; i++) {
            fprintf(out, "%s\n    ", i ? "," : "");
            json_string(out, stall_names[i]);
            fprintf(out, ": %" PRIu64, r->stats.stall[i]);
        }
        fputs("\n  },\n  \"per_sm\": [", out);
        for (int i = 0; i < r->stats.nsms; i++) {
            const SmStats *sm = &r->stats.sm[i];
            fprintf(out, "%s\n    {\"sm\": %d, \"ctas\": %" PRIu64 ", \"cycles_active\": %" PRIu64 ", \"inst\": %" PRIu64 ", \"stalls\": {",
                    i ? "," : "", i, sm->ctas, sm->active_cycles, sm->inst);
            for (int k = 0; k < STALL_COUNT; k++) fprintf(out, "%s\"%s\": %" PRIu64, k ? ", " : "", stall_names[k], sm->stall[k]);
            fputs("}}", out);
        }
        fputs("\n  ]", out);
    }
    fputs(",\n  \"source\": [", out);
    int first = 1;
    for (int l = 1; l <= r->stats.nlines; l++) {
        const LineStats *ls = &r->stats.line[l];
        uint64_t tot = 0;
        for (int k = 0; k < STALL_COUNT; k++) tot += ls->stall[k];
        if (!ls->inst && !tot) continue;
        int len;
        const char *src = program_line(r->prog, l, &len);
        char text[256];
        snprintf(text, sizeof text, "%.*s", len > 200 ? 200 : len, src);
        fprintf(out, "%s\n    {\"line\": %d, \"text\": ", first ? "" : ",", l);
        json_string(out, text);
        int local, cl;
        const char *file = program_where(r->prog, l, &local), *cu = program_cuda_line(r->prog, l, &cl);
        if (r->prog->nfiles > 1) {   /* .include: the file and its line */
            fputs(", \"file\": ", out);
            json_string(out, file);
            fprintf(out, ", \"file_line\": %d", local);
        }
        if (cu) {                    /* nvcc -lineinfo: the CUDA line */
            fputs(", \"cuda_file\": ", out);
            json_string(out, cu);
            fprintf(out, ", \"cuda_line\": %d", cl);
        }
        fprintf(out, ", \"inst\": %" PRIu64 ", \"thread_inst\": %" PRIu64 ", \"divergent\": %" PRIu64, ls->inst, ls->thread_inst,
                ls->divergent);
        if (!r->opt.functional) {
            fputs(", \"stalls\": {", out);
            int f2 = 1;
            for (int k = 0; k < STALL_COUNT; k++) {
                if (!ls->stall[k]) continue;
                fprintf(out, "%s\"%s\": %" PRIu64, f2 ? "" : ", ", stall_names[k], ls->stall[k]);
                f2 = 0;
            }
            fputc('}', out);
        }
        fputc('}', out);
        first = 0;
    }
    fputs("\n  ]", out);
    json_findings(r, out);
    fputs("\n}\n", out);
}

static const char *const fault_kinds[] = {
    [FAULT_NONE] = "fault", [FAULT_OUT_OF_BOUNDS] = "out-of-bounds access", [FAULT_MISALIGNED] = "misaligned access",
    [FAULT_BARRIER] = "barrier divergence", [FAULT_DEADLOCK] = "deadlock", [FAULT_WATCHDOG] = "watchdog",
    [FAULT_MEMBERMASK] = "membermask", [FAULT_CALL_DEPTH] = "call stack overflow",
};

void report_fault(const Run *r, FILE *out)
{
    const Program *p = r->prog;
    const Fault *f = &r->fault;
    const LaunchSpec *l = &p->launches[f->launch];
    const Entry *e = &p->entries[l->entry];   /* fault pcs are source pcs */
    int col = f->pc < (uint32_t)e->ncode ? (int)e->code[f->pc].col : 0;
    int local, cl;
    const char *file = program_where(p, (int)f->line, &local), *cu = program_cuda_line(p, (int)f->line, &cl);
    fprintf(out, "%s:%d:%d: fault (%s): %s\n", file, local, col, fault_kinds[f->kind], f->msg);
    if (cu) fprintf(out, "    (CUDA source %s:%d)\n", cu, cl);
    int len;
    const char *src = program_line(p, (int)f->line, &len);
    if (len) fprintf(out, "    %.*s\n", len > 200 ? 200 : len, src);
    fprintf(out, "  in launch %d (%s), block (%u,%u,%u)", f->launch + 1, e->name, f->cta[0], f->cta[1], f->cta[2]);
    if (f->lane >= 0)
        fprintf(out, ", thread (%u,%u,%u) (warp %d, lane %d)", f->tid[0], f->tid[1], f->tid[2], f->warp, f->lane);
    else if (f->warp >= 0)
        fprintf(out, ", warp %d", f->warp);
    if (f->pc < (uint32_t)e->ncode) {
        char text[256];
        disasm_instr(p, e, &e->code[f->pc], text, sizeof text);
        fprintf(out, ", pc %u: %s\n", f->pc, text);
    } else {
        fputc('\n', out);
    }
    if ((f->kind == FAULT_OUT_OF_BOUNDS || f->kind == FAULT_MISALIGNED) && !(r->check.flags & CHECK_UNINIT))
        fputs("  (--check uninit, or --functional, says whether the address came from a register this thread never "
              "wrote)\n", out);
}

void report_occupancy(const Program *p, const Config *c, const char *config_path, FILE *out)
{
    fprintf(out, "occupancy of %s on %s (%s)\n", p->filename, config_path, c->gpu.name);
    for (int i = 0; i < p->nlaunches; i++) {
        const LaunchSpec *l = &p->launches[i];
        const Entry *e = backend_entry(&p->entries[l->entry], c->core.schedule == CORE_SCHEDULE_MACHINE);
        int threads = (int)(l->block[0] * l->block[1] * l->block[2]);
        uint64_t grid = (uint64_t)l->grid[0] * l->grid[1] * l->grid[2];
        Occupancy o;
        occupancy_compute(&o, c, threads, e->regs_per_thread, program_launch_shared(p, l), grid);
        fprintf(out, "\nlaunch %d: %s, block (%u,%u,%u) = %d threads = %d warps, %d registers/thread%s, %u B shared/block\n",
                i + 1, e->name, l->block[0], l->block[1], l->block[2], threads, o.warps_per_block, e->regs_per_thread,
                e->regs_stated ? " (stated)" : "", program_launch_shared(p, l));
        if (o.error[0]) { fprintf(out, "  cannot run: %s\n", o.error); continue; }
        fprintf(out, "  %-15s %-34s %-14s %s\n", "limiter", "a block needs", "an SM has", "blocks/SM");
        char need[64], have[64];
        snprintf(need, sizeof need, "1 block slot");
        snprintf(have, sizeof have, "%d", c->sm.max_blocks);
        fprintf(out, "  %-15s %-34s %-14s %4d%s\n", "blocks", need, have, o.limit[OCC_BLOCKS], o.binding == OCC_BLOCKS ? "  <- binds" : "");
        snprintf(need, sizeof need, "%d warp%s", o.warps_per_block, o.warps_per_block == 1 ? "" : "s");
        snprintf(have, sizeof have, "%d warps", c->sm.max_warps);
        fprintf(out, "  %-15s %-34s %-14s %4d%s\n", "warps", need, have, o.limit[OCC_WARPS], o.binding == OCC_WARPS ? "  <- binds" : "");
        snprintf(need, sizeof need, "%d (%d warps x %d, unit %d)", o.regs_per_warp * o.warps_per_block, o.warps_per_block,
                 o.regs_per_warp, c->sm.reg_alloc_unit);
        snprintf(have, sizeof have, "%d", c->sm.registers);
        fprintf(out, "  %-15s %-34s %-14s %4d%s\n", "registers", need, have, o.limit[OCC_REGISTERS], o.binding == OCC_REGISTERS ? "  <- binds" : "");
        snprintf(need, sizeof need, "%u B (unit %d B)", o.smem_per_block, c->sm.shared_alloc_unit);
        snprintf(have, sizeof have, "%lld B", (long long)c->sm.shared_bytes);
        fprintf(out, "  %-15s %-34s %-14s %4d%s\n", "shared memory", need, have, o.limit[OCC_SHARED], o.binding == OCC_SHARED ? "  <- binds" : "");
        fprintf(out, "  => %d blocks/SM, %d of %d warps: theoretical occupancy %.1f%%\n", o.blocks, o.active_warps,
                c->sm.max_warps, o.theoretical_pct);
        fprintf(out, "     %llu blocks over %d SMs: %.2f waves\n", (unsigned long long)grid, c->gpu.num_sms, o.waves);
    }
}
