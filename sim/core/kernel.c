/* kernel.c - see kernel.h. */
#include "sim/core/kernel.h"

#include "isa/backend.h"
#include "sim/core/check.h"
#include "sim/core/exec.h"
#include "sim/core/printf.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- kernel and CTA setup ----------------------------------------------------- */
static uint32_t align8(uint32_t v) { return (v + 7u) & ~7u; }

void kernel_configure(Kernel *k, int max_call_depth, double core_clock_mhz)
{
    k->ns_per_clock = core_clock_mhz > 0 ? 1000.0 / core_clock_mhz : 1.0;
    const Entry *e = k->entry;
    uint32_t big = 0;
    for (int i = 0; i < e->nlinked; i++) if (align8(e->linked[i].frame_bytes) > big) big = align8(e->linked[i].frame_bytes);
    k->max_call_depth = max_call_depth;
    uint64_t s = align8(e->frame_bytes) + (e->nlinked ? (uint64_t)max_call_depth * big : 0);
    k->frame_stride = s > (1u << 24) ? (1u << 24) : (uint32_t)s;
}

/* Kernel.row_off and row_wide for k->entry's registers: a row per register
 * in register order (a linked .func's registers stay one byte range,
 * swap_regs), or with pack a row per colour of backend_reg_rows, shared by
 * registers whose lives do not overlap (kernel_pack_rows); each row is
 * rounded to 8 bytes so every 8-byte row is aligned whatever the warp size.
 * Rows a register each where packing is not possible.  -1: out of memory. */
static int layout_regs(Kernel *k, int pack)
{
    const Entry *e = k->entry;
    free(k->row_off);
    free(k->row_wide);
    k->row_off = malloc(((size_t)e->nregs + 1) * sizeof *k->row_off);
    k->row_wide = malloc((size_t)(e->nregs ? e->nregs : 1));
    if (!k->row_off || !k->row_wide) return -1;
    uint64_t narrow_b = (4ull * (uint64_t)k->warp_size + 7) / 8 * 8, wide_b = 8ull * (uint64_t)k->warp_size;
    RegAlloc ra = { 0 };
    int packed = pack && e->nlinked == 0;
    for (int pc = 0; packed && pc < e->ncode; pc++) packed = e->code[pc].op != OP_CALL;
    packed = packed && backend_reg_rows(e, &ra) == 0;
    /* packed: the narrow rows, then the wide ones, each width ending with
     * a row that the registers no instruction names share if it has any
     * (nothing reads or writes them: nvcc declares more than it uses, and
     * an unrolled loop leaves its original registers behind) */
    uint64_t off = 0, nrow = packed ? (uint64_t)ra.colours : 0, wrow = packed ? (uint64_t)ra.wide : 0;
    for (int r = 0, sink[2] = { 0, 0 }; packed && r < e->nregs; r++) {
        int w = e->regs[r].bits > 32;
        if (ra.phys[r] >= 0 || sink[w]) continue;
        sink[w] = 1;
        if (w) wrow++;
        else nrow++;
    }
    uint64_t end = nrow * narrow_b + wrow * wide_b;
    for (int r = 0; r < e->nregs; r++) {
        k->row_wide[r] = e->regs[r].bits > 32;
        uint64_t b = k->row_wide[r] ? wide_b : narrow_b;
        if (packed) {
            uint64_t row = ra.phys[r] >= 0 ? (uint64_t)ra.phys[r] : k->row_wide[r] ? wrow - 1 : nrow - 1;
            off = k->row_wide[r] ? nrow * narrow_b + row * wide_b : row * narrow_b;
        } else {
            off = end;
            end += b;
        }
        if (off + b > UINT32_MAX) { backend_regalloc_free(&ra); return -1; }
        k->row_off[r] = (uint32_t)off;
    }
    k->row_off[e->nregs] = (uint32_t)end;
    backend_regalloc_free(&ra);
    return 0;
}

int kernel_init(Kernel *k, const Program *p, int li, Memory *mem, Stats *st,
                int warp_size, int nsms, int max_warps_per_sm)
{
    memset(k, 0, sizeof *k);
    k->prog = p;
    k->spec = &p->launches[li];
    k->entry = &p->entries[k->spec->entry];
    k->launch_index = li;
    k->mem = mem;
    k->stats = st;
    k->warp_size = warp_size;
    k->nsms = nsms;
    k->max_warps_per_sm = max_warps_per_sm;
    k->nctas = (uint64_t)k->spec->grid[0] * k->spec->grid[1] * k->spec->grid[2];
    k->param_bytes = k->entry->param_bytes;
    k->params = calloc(1, k->param_bytes ? k->param_bytes : 1);
    if (!k->params) return -1;
    for (int i = 0; i < k->spec->nargs && i < k->entry->nparams; i++) {
        const LaunchArg *a = &k->spec->args[i];
        const Param *pa = &k->entry->params[i];
        uint64_t v = 0;
        if (a->kind == ARG_BUFFER) v = mem_region_of_buffer(mem, a->buffer)->base;
        else if (a->kind == ARG_INT) v = (uint64_t)a->i;
        else if (pa->type == T_F32) { float f = (float)a->f; uint32_t u; memcpy(&u, &f, 4); v = u; }
        else memcpy(&v, &a->f, 8);
        memcpy(k->params + pa->offset, &v, pa->size < 8 ? pa->size : 8);
    }
    /* frame memory: the entry's call scratch, then max_call_depth frames of
     * the largest linked .func */
    kernel_configure(k, 64, 1000.0);
    /* module variables (.global) sit in their buffers */
    k->var_base = calloc((size_t)(p->nvars ? p->nvars : 1), sizeof *k->var_base);
    if (!k->var_base) return -1;
    for (int i = 0; i < p->nvars; i++)
        if (p->vars[i].space == SP_GLOBAL) k->var_base[i] = mem_region_of_buffer(mem, p->vars[i].buffer)->base;
    return layout_regs(k, 0) || exec_prepare(k) ? -1 : 0;
}

int kernel_use_schedule(Kernel *k, int machine)
{
    const Entry *src = &k->prog->entries[k->spec->entry];
    k->entry = backend_entry(src, machine);
    k->machine = k->entry != src;
    return layout_regs(k, 0) || exec_prepare(k) ? -1 : 0;
}

/* exec_prepare's decisions depend on the instructions and the registers'
 * widths, not on where the rows lie: they stand. */
int kernel_pack_rows(Kernel *k) { return layout_regs(k, 1); }

uint32_t kernel_source_pc(const Kernel *k, uint32_t pc)
{
    return k->machine && k->entry->morder && pc < (uint32_t)k->entry->ncode ? k->entry->morder[pc] : pc;
}

void kernel_free(Kernel *k)
{
    printf_flush(k);     /* a launch's printf lines are written when it ends, as CUDA does */
    free(k->params);
    k->params = NULL;
    free(k->var_base);
    k->var_base = NULL;
    free(k->row_off);
    k->row_off = NULL;
    free(k->row_wide);
    k->row_wide = NULL;
    free(k->rows);
    k->rows = NULL;
}

enum { RENEW_IN_PLACE = 256 << 10 };   /* bytes: see renew */

/* A block's register rows or warp records, zeroed, starting on a host
 * cache line.  Each warp's rows are a multiple of 64 bytes at 32 lanes, so
 * a row of 4-byte lanes is two host lines and one of 8-byte lanes four,
 * where calloc's 16-byte alignment made most of them three and five
 * (hopper.ini nvcc tiled_mm 256^3 1.04 -> 0.97 s: docs/performance-log.md,
 * seventeenth session); a Warp's first line holds what an issue reads
 * (kernel.h).  NULL when out of memory. */
static void *lines_alloc(size_t bytes)
{
    size_t n = (bytes + 63) / 64 * 64;
    void *p = aligned_alloc(64, n ? n : 64);
    return p ? memset(p, 0, bytes) : NULL;
}

/* A block's arrays, in bytes, all from the launch (cta_init, cta_next,
 * cta_setup): its warps, shared memory, local memory (per thread, times
 * its threads), registers and predicates (per warp, times its warps) and
 * call frames (none without calls). */
typedef struct CtaBytes {
    size_t warps, smem, lmem, regs, preds, frames;
    size_t regs_warp, preds_warp;   /* a warp's register bytes, its predicates (LaneMasks) */
} CtaBytes;
static CtaBytes cta_bytes(const Kernel *k, const Cta *c)
{
    const Entry *e = k->entry;
    size_t nw = (size_t)c->nwarps;
    CtaBytes b;
    b.warps = nw * sizeof *c->warps;
    b.smem = c->smem_bytes ? c->smem_bytes : 1;
    b.lmem = (size_t)c->nthreads * (c->lmem_bytes ? c->lmem_bytes : 1);
    b.regs_warp = k->row_off[e->nregs] ? k->row_off[e->nregs] : 8;
    b.preds_warp = (size_t)(e->npreds ? e->npreds : 1);
    b.regs = nw * b.regs_warp;
    b.preds = nw * b.preds_warp * sizeof *c->preds;
    b.frames = nw * (size_t)k->warp_size * k->frame_stride;
    return b;
}

static int cta_arrays_ok(const Kernel *k, const Cta *c)
{
    return c->warps && c->smem && c->lmem && c->regs && c->preds && (!k->frame_stride || c->frames);
}

/* The block's number, ids and warps, on arrays that are allocated and
 * zeroed (cta_init, cta_next). */
static int cta_setup(Kernel *k, Cta *c, uint64_t linear, int smid)
{
    const uint32_t *g = k->spec->grid;
    c->linear = linear;
    c->id[0] = (uint32_t)(linear % g[0]);
    c->id[1] = (uint32_t)((linear / g[0]) % g[1]);
    c->id[2] = (uint32_t)(linear / ((uint64_t)g[0] * g[1]));
    c->smid = smid;
    int ws = k->warp_size;
    const Entry *e = k->entry;
    CtaBytes b = cta_bytes(k, c);
    for (int i = 0; i < c->nwarps; i++) {
        Warp *w = &c->warps[i];
        w->id = i;
        w->cta = c;
        int n = c->nthreads - i * ws;
        if (n > ws) n = ws;
        w->valid = n == 32 ? 0xffffffffu : (1u << n) - 1;
        w->live = w->valid;
        w->frame_bytes = e->frame_bytes;
        if (k->frame_stride) w->fmem = c->frames + (size_t)i * (size_t)ws * k->frame_stride;
        w->rb = c->regs + (size_t)i * b.regs_warp;
        w->p = c->preds + (size_t)i * b.preds_warp;
        simt_init(&w->simt, 0, w->valid);
    }
    c->live_warps = c->nwarps;
    /* the machine code's prologue (backend.c): each warp runs it once */
    if (k->machine) k->stats->inst += (uint64_t)c->nwarps * (uint64_t)e->prologue_minst;
    if (k->check && check_cta_begin(k, c)) return -1;
    if (c->nwarps && k->stats->simt_max_depth < 1) k->stats->simt_max_depth = 1;   /* the base entry */
    return 0;
}

int cta_init(Kernel *k, Cta *c, uint64_t linear, int smid)
{
    const uint32_t *bl = k->spec->block;
    memset(c, 0, sizeof *c);
    c->nthreads = (int)(bl[0] * bl[1] * bl[2]);
    c->nwarps = (c->nthreads + k->warp_size - 1) / k->warp_size;
    c->smem_bytes = program_launch_shared(k->prog, k->spec);   /* static + dynamic (shared=) */
    c->lmem_bytes = k->entry->local_bytes;
    /* Shared and local memory start zeroed so every run is deterministic
     * (real hardware leaves them undefined). */
    CtaBytes b = cta_bytes(k, c);
    c->warps = lines_alloc(b.warps);
    c->smem = calloc(1, b.smem);
    c->lmem = calloc(1, b.lmem);
    c->regs = lines_alloc(b.regs);
    c->preds = calloc(1, b.preds);
    if (k->frame_stride) c->frames = calloc(1, b.frames);
    return cta_arrays_ok(k, c) ? cta_setup(k, c, linear, smid) : -1;
}

/* Each warp's calls and SIMT stack, and the checks' record of the block
 * (a second call finds nothing left to free). */
static void cta_release(Cta *c)
{
    for (int i = 0; c->warps && i < c->nwarps; i++) {
        Warp *w = &c->warps[i];
        for (int f = 0; f < w->ncalls; f++) { free(w->calls[f].saved_r); free(w->calls[f].saved_p); }
        free(w->calls);
        w->calls = NULL;
        w->ncalls = w->capcalls = 0;
        simt_free(&w->simt);
    }
    check_cta_end(c);
    c->chk = NULL;
}

/* An array of a block that ran, zeroed for the next: cleared in place when
 * small; a large one (call frames, spilled locals) allocated afresh, which
 * maps zeroed pages on first use instead of writing every byte (register
 * rows and warp records, `lines`: from lines_alloc, on a host line).  NULL
 * when out of memory (p freed). */
static void *renew(void *p, size_t bytes, int lines)
{
    if (bytes <= RENEW_IN_PLACE) return memset(p, 0, bytes);
    free(p);
    return lines ? lines_alloc(bytes) : calloc(1, bytes);
}

int cta_next(Kernel *k, Cta *c, uint64_t linear, int smid)
{
    cta_release(c);
    /* the arrays and their sizes carry over; the rest starts as cta_init's */
    Cta keep = *c;
    memset(c, 0, sizeof *c);
    c->nthreads = keep.nthreads;
    c->nwarps = keep.nwarps;
    c->smem_bytes = keep.smem_bytes;
    c->lmem_bytes = keep.lmem_bytes;
    CtaBytes b = cta_bytes(k, c);
    c->warps = renew(keep.warps, b.warps, 1);
    c->smem = renew(keep.smem, b.smem, 0);
    c->lmem = renew(keep.lmem, b.lmem, 0);
    c->regs = renew(keep.regs, b.regs, 1);
    c->preds = renew(keep.preds, b.preds, 0);
    if (k->frame_stride) c->frames = renew(keep.frames, b.frames, 0);
    return cta_arrays_ok(k, c) ? cta_setup(k, c, linear, smid) : -1;
}

void cta_retire(Cta *c) { cta_release(c); }

void cta_free(Cta *c)
{
    cta_release(c);
    free(c->warps);
    free(c->regs);
    free(c->preds);
    free(c->frames);
    free(c->smem);
    free(c->lmem);
    memset(c, 0, sizeof *c);
}

/* ---- faults ----------------------------------------------------------------------- */
void kernel_fault(Kernel *k, const Warp *w, int lane, FaultKind kind, const char *fmt, ...)
{
    Fault *f = &k->fault;
    if (f->kind != FAULT_NONE) return;      /* keep the first */
    f->kind = kind;
    f->launch = k->launch_index;
    f->warp = w ? w->id : -1;
    f->lane = lane;
    f->pc = UINT32_MAX;
    if (w) {
        memcpy(f->cta, w->cta->id, sizeof f->cta);
        const SimtStack *s = &w->simt;
        f->pc = s->depth ? s->e[s->depth - 1].pc : 0;
        f->line = f->pc < (uint32_t)k->entry->ncode ? k->entry->code[f->pc].line : 0;
        f->pc = kernel_source_pc(k, f->pc);
        if (lane >= 0) {
            const uint32_t *b = k->spec->block;
            uint32_t t = (uint32_t)(w->id * k->warp_size + lane);
            f->tid[0] = t % b[0];
            f->tid[1] = (t / b[0]) % b[1];
            f->tid[2] = t / (b[0] * b[1]);
        }
    }
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(f->msg, sizeof f->msg, fmt, ap);
    va_end(ap);
}
