/* sm.c - see sm.h. */
#include "sim/timing/sm.h"

#include "sim/mem/lsu.h"
#include "isa/backend.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

/* ---- setup -------------------------------------------------------------------- */
/* Take the next `bytes` of the SM's arena (8-byte aligned); with base NULL,
 * only count. */
static void *carve(char *base, size_t *off, size_t bytes)
{
    void *p = base ? base + *off : NULL;
    *off += (bytes + 7) & ~(size_t)7;
    return p;
}

/* The scheduler's bookkeeping lives in one allocation, the sets it reads
 * every cycle first, so a cycle touches few cache lines. */
static size_t lay_out(Sm *sm, char *base)
{
    size_t off = 0, nw = (size_t)sm->nwords, ns = (size_t)sm->nslots;
    sm->due = carve(base, &off, nw * 8);
    sm->fetchable = carve(base, &off, nw * 8);
    sm->refetch = carve(base, &off, nw * 8);
    for (int p = 0; p < PIPE_COUNT; p++) sm->pipe_wait[p] = carve(base, &off, nw * 8);
    sm->far = carve(base, &off, nw * 8);
    sm->sched_slots = carve(base, &off, (size_t)sm->nsched * nw * 8);
    sm->fetch_slots = carve(base, &off, (size_t)sm->nfetch * nw * 8);
    for (int p = 0; p < PIPE_COUNT; p++) sm->pipe_free[p] = carve(base, &off, (size_t)sm->pipe_groups[p] * 8);
    sm->sched = carve(base, &off, (size_t)sm->nsched * sizeof *sm->sched);
    sm->wake = carve(base, &off, ns * sizeof *sm->wake);
    sm->wheel = carve(base, &off, SM_WHEEL * nw * 8);
    for (int i = 0; base && i < sm->nsched; i++) {
        sm->sched[i].order = carve(base, &off, ns * sizeof(int));
        sm->sched[i].pos = carve(base, &off, ns * sizeof(int));
    }
    if (!base) off += (size_t)sm->nsched * 2 * ((ns * sizeof(int) + 7) & ~(size_t)7);
    sm->rank = carve(base, &off, ns * sizeof *sm->rank);
    sm->visit = carve(base, &off, ns * sizeof *sm->visit);
    sm->visit_key = carve(base, &off, ns * sizeof *sm->visit_key);
    return off;
}

int sm_init(Sm *sm, int id, const Config *cfg)
{
    memset(sm, 0, sizeof *sm);
    sm->id = id;
    sm->cfg = cfg;
    sm->nslots = cfg->sm.max_warps;
    sm->nctas = cfg->sm.max_blocks;
    sm->nsched = cfg->sm.schedulers;
    sm->policy = cfg->sched.policy;
    sm->issue_limit = cfg->sm.issue_per_scheduler;
    sm->nwords = (sm->nslots + 63) / 64;
    sm->nfetch = cfg->sm.fetch_units >= 1 && cfg->sm.fetch_units <= 16 ? cfg->sm.fetch_units : 1;
    int ws = cfg->sm.warp_size;
    /* a warp instruction occupies a pipe for warp_size / width cycles */
    const struct { int width, groups, bound; } u[PIPE_COUNT] = {
        [PIPE_SP] = { cfg->unit.sp_width, cfg->unit.sp_groups, 0 },   /* lanes per group; pooled */
        [PIPE_INT] = { cfg->unit.int_width / cfg->unit.sp_groups, cfg->unit.sp_groups, 1 },
        [PIPE_DP] = { cfg->unit.dp_width / cfg->unit.dp_groups, cfg->unit.dp_groups, 1 },
        [PIPE_SFU] = { cfg->unit.sfu_width / cfg->unit.sfu_groups, cfg->unit.sfu_groups, 1 },
        [PIPE_LSU] = { cfg->unit.lsu_width, 1, 0 },
    };
    for (int p = 0; p < PIPE_COUNT; p++) {
        sm->pipe_groups[p] = u[p].groups > 0 ? u[p].groups : 1;
        sm->pipe_ii[p] = u[p].width > 0 ? (ws + u[p].width - 1) / u[p].width : 1;
        sm->pipe_bound[p] = (uint8_t)(u[p].bound && sm->pipe_groups[p] == sm->nsched);
    }
    sm->by_age = sm->policy != SCHED_TWO_LEVEL && (sm->nslots + sm->nsched - 1) / sm->nsched <= 64;
    /* split load/store lanes: each scheduler generates its warps' addresses
     * (lsu_width / lsu_groups lanes), the L1 behind them is the SM's */
    int lw = cfg->unit.lsu_groups > 1 ? cfg->unit.lsu_width / cfg->unit.lsu_groups : 0;
    sm->agu_ii = lw > 0 && sm->nsched <= 16 ? (ws + lw - 1) / lw : 0;   /* lsu_groups == schedulers (config.c) */
    sm->agu_global_ii = sm->agu_ii && cfg->unit.lsu_global_cycles > 0 ? cfg->unit.lsu_global_cycles : sm->agu_ii;
    sm->slots = aligned_alloc(64, (size_t)sm->nslots * sizeof *sm->slots);   /* 64-byte records */
    if (sm->slots) memset(sm->slots, 0, (size_t)sm->nslots * sizeof *sm->slots);
    sm->ctas = calloc((size_t)sm->nctas, sizeof *sm->ctas);
    sm->arena = calloc(1, lay_out(sm, NULL));
    sm->retry.co = malloc(sizeof *sm->retry.co);
    if (!sm->slots || !sm->ctas || !sm->arena || !sm->retry.co) return -1;
    lay_out(sm, sm->arena);
    size_t nw = (size_t)sm->nwords;
    for (int i = 0; i < sm->nslots; i++) {
        sm->wake[i] = SM_NEVER;
        sm->sched_slots[(i % sm->nsched) * nw + (size_t)i / 64] |= 1ull << (i % 64);   /* slot % schedulers */
        sm->fetch_slots[(i % sm->nsched % sm->nfetch) * nw + (size_t)i / 64] |= 1ull << (i % 64);
    }
    for (int i = 0; i < sm->nsched; i++) {
        sm->sched[i].last = -1;
        sm->sched[i].last_pos = -1;
        sm->sched[i].rfree = 1u << PIPE_NONE;   /* needing no pipe, never held back by one */
    }
    sm->far_min = SM_NEVER;
    sm->refetch_min = SM_NEVER;
    sm->fit = -1;
    return 0;
}

void sm_free(Sm *sm)
{
    for (int i = 0; sm->slots && i < sm->nslots; i++) scoreboard_free(&sm->slots[i].sb);
    for (int i = 0; sm->ctas && i < sm->nctas; i++) if (sm->ctas[i].kept) cta_free(&sm->ctas[i].cta);
    free(sm->slots);
    free(sm->ctas);
    free(sm->arena);
    free(sm->retry.co);
    memset(sm, 0, sizeof *sm);
}

/* A warp in an expansion's issue slots stays selected until busy_until:
 * nothing wakes it before (release, fetch and memory wake-ups go through
 * here). */
static inline uint64_t not_before(const SmWarp *sw, uint64_t when)
{
    return when < sw->busy_until ? sw->busy_until : when;
}

static void set_fetchable(Sm *sm, int slot, int on)
{
    if (on) sm->fetchable[slot / 64] |= 1ull << (slot % 64);
    else sm->fetchable[slot / 64] &= ~(1ull << (slot % 64));
}

/* ---- the wake-up wheel ------------------------------------------------------------
 * Every write of a warp's wake cycle goes through wake_set, which moves the
 * warp between due, its wheel bucket and far.  The SM asks wheel_advance for
 * the warps whose cycle has come and wheel_next for the earliest wake. */
static uint64_t *bucket(const Sm *sm, uint64_t cycle) { return &sm->wheel[(cycle % SM_WHEEL) * (uint64_t)sm->nwords]; }

static int set_empty(const uint64_t *set, int nwords)
{
    for (int i = 0; i < nwords; i++) if (set[i]) return 0;
    return 1;
}

static void far_recompute(Sm *sm)
{
    sm->far_min = SM_NEVER;
    for (int wi = 0; wi < sm->nwords; wi++)
        for (uint64_t bits = sm->far[wi]; bits; bits &= bits - 1) {
            uint64_t w = sm->wake[wi * 64 + __builtin_ctzll(bits)];
            if (w < sm->far_min) sm->far_min = w;
        }
}

/* File a warp under its wake cycle (nothing if SM_NEVER). */
static inline void wheel_put(Sm *sm, int slot, uint64_t when)
{
    int wi = slot / 64;
    uint64_t bit = 1ull << (slot % 64);
    if (when == SM_NEVER) return;
    if (when <= sm->wheel_now) sm->due[wi] |= bit;
    else if (when - sm->wheel_now < SM_WHEEL) {
        bucket(sm, when)[wi] |= bit;
        sm->wheel_occ |= 1ull << (when % SM_WHEEL);
    } else {
        sm->far[wi] |= bit;
        if (when < sm->far_min) sm->far_min = when;
    }
}

/* A warp the scheduler took off `due` this cycle gets its next wake cycle. */
static inline void wake_refile(Sm *sm, int slot, uint64_t when)
{
    sm->wake[slot] = when;
    wheel_put(sm, slot, when);
}

static void wake_set(Sm *sm, int slot, uint64_t when)
{
    int wi = slot / 64;
    uint64_t bit = 1ull << (slot % 64), old = sm->wake[slot];
    if (sm->due[wi] & bit) sm->due[wi] &= ~bit;
    else if (sm->far[wi] & bit) {
        sm->far[wi] &= ~bit;
        sm->wake[slot] = SM_NEVER;
        if (old == sm->far_min) far_recompute(sm);
    } else if (old != SM_NEVER) {
        uint64_t *b = bucket(sm, old);
        b[wi] &= ~bit;
        if (set_empty(b, sm->nwords)) sm->wheel_occ &= ~(1ull << (old % SM_WHEEL));
    }
    sm->wake[slot] = when;
    wheel_put(sm, slot, when);
}

/* Bring the wheel to `now`: the buckets of cycles up to now fall due, and
 * far warps within reach move into buckets. */
static inline void wheel_advance(Sm *sm, uint64_t now, int nw)
{
    if (now <= sm->wheel_now) return;
    uint64_t span = now - sm->wheel_now, range = ~0ull;
    if (span < SM_WHEEL) {
        unsigned rot = (unsigned)((sm->wheel_now + 1) % SM_WHEEL);
        range = (1ull << span) - 1;
        range = rot ? range << rot | range >> (SM_WHEEL - rot) : range;
    }
    for (uint64_t bits = sm->wheel_occ & range; bits; bits &= bits - 1) {
        uint64_t *b = &sm->wheel[(uint64_t)__builtin_ctzll(bits) * (uint64_t)nw];
        for (int wi = 0; wi < nw; wi++) { sm->due[wi] |= b[wi]; b[wi] = 0; }
    }
    sm->wheel_occ &= ~range;
    sm->wheel_now = now;
    if (sm->far_min >= now + SM_WHEEL) return;
    /* some far warps are within reach now: file them all again */
    sm->far_min = SM_NEVER;
    for (int wi = 0; wi < nw; wi++) {
        uint64_t bits = sm->far[wi];
        sm->far[wi] = 0;
        for (; bits; bits &= bits - 1) {
            int slot = wi * 64 + __builtin_ctzll(bits);
            wheel_put(sm, slot, sm->wake[slot]);
        }
    }
}

/* The earliest wake cycle after wheel_now of any warp (due ones: wheel_now). */
static inline uint64_t wheel_next(const Sm *sm, int nw)
{
    if (!set_empty(sm->due, nw)) return sm->wheel_now;
    if (sm->wheel_occ) {
        unsigned rot = (unsigned)((sm->wheel_now + 1) % SM_WHEEL);
        uint64_t r = rot ? sm->wheel_occ >> rot | sm->wheel_occ << (SM_WHEEL - rot) : sm->wheel_occ;
        return sm->wheel_now + 1 + (uint64_t)__builtin_ctzll(r);
    }
    return sm->far_min;
}

/* ---- state accounting --------------------------------------------------------------
 * A warp's state is charged from `since` to the cycle it changes, to the
 * source line it was at: every resident warp-cycle lands in exactly one
 * reason. */
static TraceWarp trace_id(const Timing *t, const SmWarp *sw)
{
    const Cta *c = sw->w->cta;
    TraceWarp id = { t->k->launch_index, c->linear, { c->id[0], c->id[1], c->id[2] }, sw->w->id, c->smid, sw->slot };
    return id;
}

/* dt warp-cycles of reason r to the warp's SM and its line (the GPU's
 * totals are summed from the SMs' at the end: gpu.c). */
static inline void charge(Timing *t, const SmWarp *sw, StallReason r, uint64_t dt)
{
    sw->smst->stall[r] += dt;
    if (sw->line <= (uint32_t)t->st->nlines) t->st->line[sw->line].stall[r] += dt;
}

/* Charge the open interval [since, at) to the warp's state and line
 * (nothing if since is not before at: issue's look_ahead charges a state
 * from the cycle after). */
static inline void close_state_at(Timing *t, SmWarp *sw, uint64_t at)
{
    if (at <= sw->since) return;
    uint64_t dt = at - sw->since;
    charge(t, sw, (StallReason)sw->state, dt);
    if (t->obs) {
        TraceWarp id = trace_id(t, sw);
        t->obs->state(t->obs->ctx, &id, sw->state, sw->since, at, sw->line);
    }
    sw->since = at;
}

static inline void close_state(Timing *t, SmWarp *sw) { close_state_at(t, sw, t->now); }

static void set_state(Timing *t, SmWarp *sw, StallReason r, uint32_t line)
{
    if (r == sw->state && line == sw->line) return;
    close_state(t, sw);
    sw->state = r;
    sw->line = line;
}

/* The source line of a live warp's next instruction, 0 past the end (a
 * live warp's pc is at most ncode; a finished warp keeps the line of its
 * last one: callers do not ask). */
static inline uint32_t line_of(const Timing *t, const SmWarp *sw) { return t->info[sw->pc].line; }

int sm_launch_cta(Sm *sm, Timing *t, uint64_t linear)
{
    int ci = 0;
    while (ci < sm->nctas && sm->ctas[ci].used) ci++;
    if (ci == sm->nctas) return -1;
    SmCta *sc = &sm->ctas[ci];
    /* a slot that held an earlier block keeps its arrays, cleared by
     * cta_next: no allocation, and no fresh pages to fault in, a block */
    if (sc->kept ? cta_next(t->k, &sc->cta, linear, sm->id) : cta_init(t->k, &sc->cta, linear, sm->id)) return -1;
    sc->kept = 1;
    sc->used = 1;
    sc->live_warps = sc->cta.nwarps;
    sc->start = t->now;
    sc->bar_clock = 0;
    const Entry *e = t->k->entry;
    int slot = 0;
    uint64_t start = t->now + (uint64_t)sm->cfg->sm.cta_launch_cycles;   /* block set-up */
    for (int i = 0; i < sc->cta.nwarps; i++) {
        while (sm->slots[slot].resident) slot++;
        SmWarp *sw = &sm->slots[slot];
        Scoreboard sb = sw->sb;                /* the slot keeps its arrays (retire_warp) */
        memset(sw, 0, sizeof *sw);
        sw->sb = sb;
        if (scoreboard_reset(&sw->sb, e->nregs + e->npreds)) return -1;
        sw->w = &sc->cta.warps[i];
        sw->rb = sw->w->rb;
        sw->cta = ci;
        sw->sched = slot % sm->nsched;
        sw->age = sm->next_age++;
        sw->ibuf = 0;                          /* the fetch unit fills the buffer */
        sw->fetch_ready = start;
        sw->smst = &t->st->sm[sm->id];
        sw->state = STALL_NO_INSTRUCTION;
        sw->since = t->now;
        sw->pc = warp_pc(sw->w);
        sw->at_barrier = sw->w->at_barrier;
        sw->released = SM_NEVER;
        sw->line = line_of(t, sw);
        sw->waits_pipe = PIPE_NONE;
        if (start > t->now) {                  /* the fetch unit takes it up at start */
            sm->refetch[slot / 64] |= 1ull << (slot % 64);
            if (start < sm->refetch_min) sm->refetch_min = start;
            wake_set(sm, slot, start + 1);
        } else {
            wake_set(sm, slot, t->now);
            set_fetchable(sm, slot, 1);
        }
        sw->resident = 1;
        sw->slot = slot;
        sw->dispatched = t->now;
        sched_add(&sm->sched[sw->sched], slot);
    }
    if (sm->blocks_used == 0) sm->active_since = t->now;
    sm->next_wake = t->now;
    sm->blocks_used++;
    sm->fit = -1;
    sm->warps_used += t->occ.warps_per_block;
    sm->regs_used += t->occ.regs_per_warp * t->occ.warps_per_block;
    sm->smem_used += t->occ.smem_per_block;
    t->st->ctas_launched++;
    t->st->sm[sm->id].ctas++;
    t->st->warps_launched += (uint64_t)sc->cta.nwarps;
    return 0;
}

/* A warp at age position q leaves scheduler sc (sched_remove): the ready
 * warps after it ("ready warps" below) move down a position. */
static void ready_compact(Sched *sc, int q)
{
    uint64_t low = (1ull << q) - 1;
    for (int p = 0; p <= PIPE_COUNT; p++) sc->rdy[p] = (sc->rdy[p] & low) | (sc->rdy[p] >> 1 & ~low);
}

static void retire_warp(Sm *sm, Timing *t, int slot)
{
    SmWarp *sw = &sm->slots[slot];
    close_state(t, sw);
    t->st->warp_resident += t->now - sw->dispatched;
    sw->resident = 0;
    wake_set(sm, slot, SM_NEVER);
    set_fetchable(sm, slot, 0);
    sm->refetch[slot / 64] &= ~(1ull << (slot % 64));
    if (sm->by_age) ready_compact(&sm->sched[sw->sched], sm->sched[sw->sched].pos[slot]);   /* positions < 64 */
    sched_remove(&sm->sched[sw->sched], slot);
    SmCta *sc = &sm->ctas[sw->cta];
    if (--sc->live_warps > 0) return;
    cta_retire(&sc->cta);
    sc->used = 0;
    sm->blocks_used--;
    sm->fit = -1;
    sm->warps_used -= t->occ.warps_per_block;
    sm->regs_used -= t->occ.regs_per_warp * t->occ.warps_per_block;
    sm->smem_used -= t->occ.smem_per_block;
    if (sm->blocks_used == 0) {
        t->st->sm[sm->id].active_cycles += t->now - sm->active_since;
    }
}

/* ---- what a warp waits for ------------------------------------------------------- */
static Pipe pipe_of(int has_int, const Instr *in)
{
    /* parameter and constant loads read the constant bank, not the LSU */
    if ((in->op == OP_LD) && (in->space == SP_PARAM || in->space == SP_CONST)) return PIPE_NONE;
    switch ((Unit)in->unit) {
    case UNIT_ALU: return has_int ? PIPE_INT : PIPE_SP;
    case UNIT_FP32: case UNIT_CTRL: return PIPE_SP;
    case UNIT_FP64: return PIPE_DP;
    case UNIT_SFU: return PIPE_SFU;
    case UNIT_LSU: return PIPE_LSU;
    default: return PIPE_NONE;
    }
}

/* Result latency and the kind of wait it causes. */
static uint64_t latency(const Config *c, const Instr *in, int space, int machine, PendKind *kind)
{
    *kind = PEND_FIXED;
    /* an S2R waits like a short-scoreboard producer (Nsight shows its
     * consumers in short_scoreboard), with the SFU's latency */
    if (machine && in->mclass == MCLS_S2R) { *kind = PEND_SHORT; return (uint64_t)c->lat.sfu; }
    switch ((Unit)in->unit) {
    case UNIT_ALU:
        return (in->op == OP_MUL || in->op == OP_MAD || in->op == OP_DIV || in->op == OP_REM)
               ? (uint64_t)c->lat.imul : (uint64_t)c->lat.alu;
    case UNIT_FP32: return (uint64_t)c->lat.fma;
    case UNIT_FP64: return (uint64_t)c->lat.dp;
    case UNIT_SFU: *kind = PEND_SHORT; return (uint64_t)c->lat.sfu;
    case UNIT_LSU:
        if (in->op == OP_SHFL || space == SP_SHARED) { *kind = PEND_SHORT; return (uint64_t)c->lat.shared; }
        if (space == SP_CONST || space == SP_PARAM) return (uint64_t)c->lat.constant;
        *kind = PEND_LONG;
        return (uint64_t)c->lat.global_fixed;
    default: return 1;
    }
}

/* A folded instruction (machine count 0: ld.param, cvta.to.global, the add
 * of a fused IMAD.WIDE, ...) takes no issue slot and no pipe: it executes
 * as soon as it is the warp's next instruction and its sources are known,
 * and its result is ready when its latest source is, as if its work were
 * part of the instructions around it.  1 folded, 0 must wait (a source or
 * destination waits on memory, or the destination has a write in flight),
 * -1 fault. */
static int fold(const Timing *t, SmWarp *sw)
{
    uint32_t pc = sw->pc;
    const Deps *d = &t->deps[pc];
    uint64_t now = t->now, ready = now;
    uint8_t kind = PEND_FIXED;
    for (int i = 0; i < d->nread; i++) {
        uint64_t r = sw->sb.ready[d->reg[i]];
        if (r <= now) continue;
        if (r == SB_NEVER) return 0;
        if (r > ready) { ready = r; kind = sw->sb.kind[d->reg[i]]; }
    }
    for (int i = d->nread; i < d->nread + d->nwrite; i++)
        if (sw->sb.ready[d->reg[i]] > now) return 0;
    ExecOut out;
    IssueResult r = warp_issue(t->k, sw->w, &out);
    if (r == ISSUE_FAULT) return -1;
    if (d->nwrite && ready > now) scoreboard_set(&sw->sb, d, ready, (PendKind)kind);
    sw->pc = warp_pc(sw->w);
    sw->operands_ready = 0;
    return 1;
}

/* Group g of pipe p accepts an instruction from cycle `when` on: every
 * write of pipe_free goes through here, which keeps a pooled pipe's
 * earliest (it is free for anyone once that has come). */
static void pipe_set(Sm *sm, int p, int g, uint64_t when)
{
    sm->pipe_free[p][g] = when;
    if (sm->pipe_bound[p]) return;   /* each scheduler reads its own group */
    uint64_t first = when;
    for (int i = 0; i < sm->pipe_groups[p]; i++) if (sm->pipe_free[p][i] < first) first = sm->pipe_free[p][i];
    sm->pipe_first[p] = first;
}

/* Scheduler s's processing block's address stage (unit.lsu_groups) is
 * still busy with an earlier memory instruction: an LSU instruction waits. */
static inline int agu_busy(const Sm *sm, int p, int s, uint64_t now)
{
    return p == PIPE_LSU && sm->agu_ii && sm->agu_free[s] > now;
}

typedef struct Verdict {
    StallReason reason;      /* STALL_SELECTED: ready to issue */
    uint64_t until;          /* when to look again */
    Pipe pipe;
    int group;
    int on_pipe;             /* only a free group of the pipe can change it (until: SM_NEVER) */
} Verdict;

/* What a warp waits for while its instruction's pipe is busy for it. */
static inline StallReason throttle_reason(Pipe p, const Instr *in)
{
    return p != PIPE_LSU ? STALL_MATH_PIPE_THROTTLE : in->space == SP_SHARED ? STALL_MIO_THROTTLE : STALL_LG_THROTTLE;
}

PcInfo *sm_pc_info(const Kernel *k, const Config *cfg)
{
    const Entry *e = k->entry;
    PcInfo *info = calloc((size_t)e->ncode + 1, sizeof *info);
    if (!info) return NULL;
    for (int pc = 0; pc < e->ncode; pc++) {
        const Instr *in = &e->code[pc];
        PcInfo *f = &info[pc];
        PendKind kind;
        f->line = in->line;
        f->lat = (uint32_t)latency(cfg, in, in->space, k->machine, &kind);
        f->kind = (uint8_t)kind;
        f->pipe = (uint8_t)pipe_of(cfg->unit.int_width > 0, in);
        f->held = (uint8_t)throttle_reason((Pipe)f->pipe, in);
        f->slots = (uint8_t)(k->machine && in->minst > 1 ? in->minst : 1);
        f->folded = (uint8_t)(k->machine && in->minst == 0);
        f->fence = (uint8_t)(in->op == OP_MEMBAR || in->op == OP_FENCE || in->op == OP_CP_ASYNC_WAIT ||
                             in->op == OP_CP_ASYNC_WAIT_ALL);
    }
    info[e->ncode].pipe = PIPE_NONE;   /* past the end: an implicit ret */
    info[e->ncode].slots = 1;
    return info;
}

/* A warp with nothing buffered at `at`: why it waits, and (*until) when
 * to look again.  The fetch unit refills the buffer at the end of a cycle
 * (sm_fetch) and wakes the warp for the next: until then every look would
 * say the same (--step still looks each cycle). */
static inline StallReason empty_buffer(const Timing *t, const SmWarp *sw, uint64_t at, uint64_t *until)
{
    *until = sw->fetch_ready > at ? sw->fetch_ready + 1 : t->step ? at + 1 : SM_NEVER;
    return sw->after_branch ? STALL_BRANCH_RESOLVING : STALL_NO_INSTRUCTION;
}

static Verdict evaluate(const Sm *sm, const Timing *t, SmWarp *sw)
{
    Verdict v = { STALL_SELECTED, t->now + 1, PIPE_NONE, 0, 0 };
    uint64_t now = t->now;
    if (sw->finishing) { v.reason = STALL_DRAIN; v.until = sw->inflight ? SM_NEVER : sw->mem_done; return v; }
    /* a barrier releases its warps from the next cycle on, whichever
     * scheduler looks at them first */
    if (sw->at_barrier) {
        if (sw->released >= now) {         /* still waiting, or released at or after this cycle */
            v.reason = STALL_BARRIER;
            v.until = sw->released == SM_NEVER ? SM_NEVER : sw->released + 1;
            return v;
        }
        sw->at_barrier = 0;
        sw->released = SM_NEVER;
    }
    if (sw->ibuf == 0) {
        v.reason = empty_buffer(t, sw, now, &v.until);
        return v;
    }
    while (t->info[sw->pc].folded) {      /* never past the end */
        int f = fold(t, sw);
        if (f < 0) { v.reason = STALL_SELECTED; return v; }   /* fault: issue() reports it */
        if (f == 0) break;
    }
    uint32_t pc = sw->pc;
    if (pc >= (uint32_t)t->k->entry->ncode) return v;
    const PcInfo *f = &t->info[pc];
    /* Once a warp's next instruction has its operands, nothing but its own
     * issue can take them away (pending writes only complete), so a warp
     * that waits only for its scheduler or a pipe skips these checks. */
    if (!sw->operands_ready) {
        int r = scoreboard_blocking(&sw->sb, &t->deps[pc], now);
        if (r >= 0) { v.reason = scoreboard_reason(&sw->sb, r); v.until = sw->sb.ready[r]; return v; }
        if (f->fence && (sw->inflight || sw->mem_done > now)) {
            v.reason = STALL_MEMBAR;
            v.until = sw->inflight ? SM_NEVER : sw->mem_done;
            return v;
        }
        sw->operands_ready = 1;
    }
    v.pipe = (Pipe)f->pipe;
    sw->pipe = (uint8_t)v.pipe;
    if (v.pipe == PIPE_NONE) return v;
    if (!agu_busy(sm, v.pipe, sw->sched, now)) {   /* its block's address stage, then a group */
        if (sm->pipe_bound[v.pipe]) {          /* its own processing block's unit */
            if (sm->pipe_free[v.pipe][sw->sched] <= now) { v.group = sw->sched; return v; }
        } else for (int g = 0; g < sm->pipe_groups[v.pipe]; g++)
            if (sm->pipe_free[v.pipe][g] <= now) { v.group = g; return v; }
    }
    v.reason = (StallReason)f->held;
    /* every look until the pipe is free for its scheduler (its address
     * stage and a group: pipe_free_for) would say the same (a group held
     * by a retried access frees at a cycle not known yet): the warp waits
     * in the pipe's set, and sm_cycle looks at it once the pipe is free */
    v.until = SM_NEVER;
    v.on_pipe = 1;
    return v;
}

/* ---- issue ------------------------------------------------------------------------- */
/* A barrier of block `cta` completed at `now`: its warps go on from the
 * next cycle. */
static void release_cta(Sm *sm, int cta, uint64_t now)
{
    for (int s = 0; s < sm->nslots; s++) {
        SmWarp *sw = &sm->slots[s];
        if (!sw->resident || sw->cta != cta) continue;
        if (sw->at_barrier && !sw->w->at_barrier) sw->released = now;   /* at_barrier clears the cycle after */
        uint64_t when = not_before(sw, now + 1);
        if (sm->wake[s] > when) wake_set(sm, s, when);
    }
}

/* The hierarchy's answer for an access (or the retried one). */
static void hierarchy_answer(Sm *sm, Timing *t, int slot, uint32_t tag, int status, uint64_t done)
{
    SmWarp *sw = &sm->slots[slot];
    const Deps *d = &t->deps[tag];
    if (d->posted) return;           /* nobody waits for a posted reduction */
    if (status == MEM_OK) {
        if (d->nwrite) scoreboard_set(&sw->sb, d, done, PEND_LONG);
        if (done > sw->mem_done) sw->mem_done = done;
        return;
    }
    /* pending: registers wait for memsys_tick's completion */
    if (d->nwrite) scoreboard_set(&sw->sb, d, SB_NEVER, PEND_LONG);
    sw->inflight++;
}

/* Global and local accesses go through L1, the crossbar, L2 and DRAM. */
static void hierarchy_access(Sm *sm, Timing *t, int slot, uint32_t pc, const MemAccess *a, const Coalesced *co,
                             const Instr *in)
{
    unsigned flags = (in->cache == CACHE_CG || in->cache == CACHE_CV) ? MEMSYS_BYPASS_L1 : 0;
    if (t->deps[pc].posted) flags |= MEMSYS_POSTED;
    uint64_t done = 0;
    int st = memsys_access_co(t->ms, sm->id, slot, pc, a, co, flags, t->now, &done);
    if (st != MEM_RETRY) { hierarchy_answer(sm, t, slot, pc, st, done); return; }
    /* the L1 cannot take it this cycle: the LSU holds it and retries (the
     * warp waits for a held access, posted or not: it is not sent yet) */
    SmWarp *sw = &sm->slots[slot];
    if (t->deps[pc].nwrite) scoreboard_set(&sw->sb, &t->deps[pc], SB_NEVER, PEND_LONG);
    sw->inflight++;
    SmRetry *r = &sm->retry;
    r->active = 1;
    r->slot = slot;
    r->tag = pc;
    r->flags = flags;
    r->a = *a;
    r->has_co = co != NULL;
    if (co) coalesced_copy(r->co, co);
    for (int g = 0; g < sm->pipe_groups[PIPE_LSU]; g++) pipe_set(sm, PIPE_LSU, g, SM_NEVER);
}

/* Offer the held access again; 1 if it is still held. */
static int retry_access(Sm *sm, Timing *t)
{
    SmRetry *r = &sm->retry;
    uint64_t done = 0;
    int st = memsys_access_co(t->ms, sm->id, r->slot, r->tag, &r->a, r->has_co ? r->co : NULL, r->flags, t->now, &done);
    if (st == MEM_RETRY) return 1;
    r->active = 0;
    for (int g = 0; g < sm->pipe_groups[PIPE_LSU]; g++) pipe_set(sm, PIPE_LSU, g, t->now + (uint64_t)sm->pipe_ii[PIPE_LSU]);
    SmWarp *sw = &sm->slots[r->slot];
    sw->inflight--;                  /* counted again below if still pending */
    hierarchy_answer(sm, t, r->slot, r->tag, st, done);
    sm_wake(sm, r->slot, t->now + 1);
    return 0;
}

void sm_mem_complete(Sm *sm, Timing *t, int slot, uint32_t tag, uint64_t when)
{
    SmWarp *sw = &sm->slots[slot];
    const Deps *d = &t->deps[tag];
    for (int i = d->nread; i < d->nread + d->nwrite; i++)
        if (sw->sb.ready[d->reg[i]] == SB_NEVER) sw->sb.ready[d->reg[i]] = when;
    sw->inflight--;
    if (when > sw->mem_done) sw->mem_done = when;
    sm_wake(sm, slot, when);
}

/* The first look at a warp that issued and goes on (ISSUE_OK) comes at
 * `at`, the end of its issue slots.  Where what that look finds is known
 * now, it is made here and the warp sleeps until the look after: an empty
 * buffer (no_instruction or branch_resolving until the fetch unit feeds
 * it, which wakes it), or a register of its next instruction still in
 * flight at `at` (the scoreboard's wait until it lands).  Nothing before
 * `at` can change either: the buffer fills only through sm_fetch's wake,
 * a finite ready time moves only by the warp's own issue, a register
 * waiting on memory keeps its kind and wakes the warp when it lands
 * (sm_mem_complete), and no wake-up comes before busy_until (not_before).
 * Not where the look decides by more: a folded or fence instruction next,
 * or an access of its own held by the LSU, whose answer (retry_access, at
 * the top of a cycle) wakes it a cycle later than a look would see it.
 * The state is charged from `at` (close_state_at).  Returns the warp's
 * next wake cycle. */
static uint64_t look_ahead(Sm *sm, Timing *t, SmWarp *sw, uint64_t at)
{
    StallReason why;
    uint64_t until;
    if (sw->ibuf == 0) {
        why = empty_buffer(t, sw, at, &until);
    } else {
        uint32_t pc = sw->pc;
        if (pc >= (uint32_t)t->k->entry->ncode || t->info[pc].folded || t->info[pc].fence) return at;
        if (sm->retry.active && sm->retry.slot == sw->slot) return at;
        int r = scoreboard_blocking(&sw->sb, &t->deps[pc], at);
        if (r < 0) return at;
        why = scoreboard_reason(&sw->sb, r);
        until = sw->sb.ready[r];
    }
    uint32_t line = line_of(t, sw);
    if (why != sw->state || line != sw->line) {
        close_state_at(t, sw, at);
        sw->state = (uint8_t)why;
        sw->line = line;
    }
    return until;
}

static void issue(Sm *sm, Timing *t, int slot, const Verdict *v, int ahead)
{
    SmWarp *sw = &sm->slots[slot];
    Warp *w = sw->w;
    const Entry *e = t->k->entry;
    const Config *c = sm->cfg;
    uint64_t now = t->now;
    uint32_t pc = sw->pc;
    set_state(t, sw, STALL_SELECTED, line_of(t, sw));
    sw->operands_ready = 0;      /* the next instruction is checked afresh */
    t->k->clock = now;
    ExecOut out;
    LaneMask active = t->obs ? warp_active(w) : 0;   /* before the issue moves the stack */
    /* the run-time checks (core/check.h) cost this one branch when off */
    IssueResult r = t->k->check ? warp_issue_checked(t->k, w, &out) : warp_issue(t->k, w, &out);
    if (r == ISSUE_FAULT) { t->faulted = 1; return; }
    if (t->obs) {
        TraceWarp id = trace_id(t, sw);
        t->obs->issue(t->obs->ctx, &id, now, pc, active, out.exec, out.has_mem ? &out.mem : NULL);
    }
    LsuCost cost = { 1, 0, 0, 0 };
    Coalesced co;            /* a global access's, for the hierarchy too */
    if (out.has_mem) cost = lsu_account(c, &out.mem, e->code[pc].line, t->st, &co);
    /* an expansion into n machine instructions takes n issue slots */
    int slots = t->info[pc].slots;
    /* the prologue (MOV R1, ...; counted at launch) takes the first issue's slots too */
    if (t->k->machine && !sw->started) slots += e->prologue_minst;
    sw->started = 1;
    sw->busy_until = now + (uint64_t)slots;
    /* a shared access holds the pipe for one cycle per wavefront at least:
     * each bank conflict is a replay (mio_throttle for the warps behind) */
    uint64_t busy = (uint64_t)sm->pipe_ii[v->pipe == PIPE_NONE ? PIPE_SP : v->pipe] * (uint64_t)slots;
    if (cost.wavefronts > 1 && (uint64_t)cost.wavefronts > busy) busy = (uint64_t)cost.wavefronts;
    if (v->pipe != PIPE_NONE) pipe_set(sm, v->pipe, v->group, now + busy);
    if (pc < (uint32_t)e->ncode) {
        const Instr *in = &e->code[pc];
        int space = out.has_mem ? out.mem.space : in->space;
        if (v->pipe == PIPE_LSU && sm->agu_ii) {   /* its block's address stage (unit.lsu_groups) */
            int ii = space == SP_GLOBAL || space == SP_LOCAL ? sm->agu_global_ii : sm->agu_ii;
            sm->agu_free[sw->sched] = now + (uint64_t)ii * (uint64_t)slots;
        }
        if (out.has_mem && t->ms && (space == SP_GLOBAL || space == SP_LOCAL)) {
            hierarchy_access(sm, t, slot, pc, &out.mem, cost.coalesced ? &co : NULL, in);
        } else if (out.has_mem && t->ms && space == SP_CONST) {
            int missed = 0;
            uint64_t done = memsys_const_access(t->ms, sm->id, &out.mem, now, &missed);
            if (t->deps[pc].nwrite) scoreboard_set(&sw->sb, &t->deps[pc], done, missed ? PEND_IMC : PEND_FIXED);
        } else {
            PendKind kind = (PendKind)t->info[pc].kind;   /* a generic address's space may differ */
            uint64_t lat = space == in->space ? t->info[pc].lat : latency(c, in, space, t->k->machine, &kind);
            lat += (uint64_t)(slots - 1);             /* an expansion's result comes with its last part */
            lat += (uint64_t)(cost.wavefronts - 1) * (uint64_t)c->smem.replay_lat;   /* replays delay the result */
            if (t->deps[pc].nwrite) scoreboard_set(&sw->sb, &t->deps[pc], now + lat, kind);
            if (out.has_mem && now + lat > sw->mem_done) sw->mem_done = now + lat;
        }
    }
    if (r != ISSUE_OK || !ahead) wake_refile(sm, slot, now + (uint64_t)slots);
    if (r == ISSUE_DONE) {
        sw->finishing = 1;
        set_fetchable(sm, slot, 0);
    } else {
        /* a control transfer flushes the buffer; the fetch unit serves the
         * warp again once the target is known, lat.branch cycles later */
        uint32_t npc = warp_pc(w);
        sw->pc = npc;
        sw->at_barrier = (uint8_t)w->at_barrier;
        sw->released = SM_NEVER;
        sw->ibuf--;
        sw->after_branch = npc != pc + 1;
        if (sw->after_branch) {
            /* the fetch unit takes it up again at fetch_ready (sm_fetch) */
            sw->ibuf = 0;
            sw->fetch_ready = now + (uint64_t)c->lat.branch;
            set_fetchable(sm, slot, 0);
            sm->refetch[slot / 64] |= 1ull << (slot % 64);
            if (sw->fetch_ready < sm->refetch_min) sm->refetch_min = sw->fetch_ready;
        } else {
            set_fetchable(sm, slot, 1);
        }
        if (r == ISSUE_OK && ahead) wake_refile(sm, slot, look_ahead(sm, t, sw, now + (uint64_t)slots));
    }
    sw->smst->inst += (uint64_t)slots;   /* 1 unless a machine kernel's expansion or prologue */
    t->st->issues++;
    if (r == ISSUE_BARRIER || r == ISSUE_ARRIVE || r == ISSUE_DONE) {
        /* the barrier unit counts arrivals one after another (sm.bar_warp_cycles
         * each) and releases sm.bar_latency cycles after the last */
        SmCta *sc = &sm->ctas[sw->cta];
        if (r != ISSUE_DONE) sc->bar_clock = (sc->bar_clock > now ? sc->bar_clock : now) + (uint64_t)c->sm.bar_warp_cycles;
        int rc = cta_barrier_check(t->k, &sc->cta);
        if (rc < 0) { t->faulted = 1; return; }
        if (rc > 0) {
            uint64_t when = (sc->bar_clock > now ? sc->bar_clock : now) + (uint64_t)c->sm.bar_latency;
            sc->bar_clock = 0;
            release_cta(sm, sw->cta, when);
        }
    }
}

/* Round robin: the first slot set in both m and mask at or after from,
 * else the first below it (mask has no bits past the last slot).  Word
 * by word from from's, wrapping round to it: with one word (64 slots or
 * fewer) two masks and a count of trailing zeros. */
static inline int next_set_round(const uint64_t *m, const uint64_t *mask, int from, int nw)
{
    int w0 = from / 64;
    uint64_t first = m[w0] & mask[w0], after = first & (~0ull << (from % 64));
    if (after) return w0 * 64 + __builtin_ctzll(after);
    for (int k = 1; k <= nw; k++) {          /* k == nw: w0 again, its bits below from */
        int wi = w0 + k < nw ? w0 + k : w0 + k - nw;
        uint64_t bits = m[wi] & mask[wi];
        if (bits) return wi * 64 + __builtin_ctzll(bits);
    }
    return -1;
}

/* ---- warps waiting for a pipe -------------------------------------------------------
 * A warp whose only wait is a busy pipe (Verdict.on_pipe) is in the pipe's
 * pipe_wait set instead of on the wheel: it would be looked at every time
 * the pipe frees, and each time one warp takes it, the others would find
 * it busy again and wait on.  Here they are looked at when the pipe is free
 * for their scheduler, in the same cycles and order.  For the LSU, free
 * means its processing block's address stage as well as a group: a
 * memory-bound kernel's warps queue for the address stage, every one of
 * them looked at each time it frees while they were on the wheel. */
static inline uint64_t pipe_free_at(const Sm *sm, int p, int s)
{
    uint64_t at = sm->pipe_bound[p] ? sm->pipe_free[p][s] : sm->pipe_first[p];
    if (p == PIPE_LSU && sm->agu_ii && sm->agu_free[s] > at) at = sm->agu_free[s];
    return at;
}

static inline int pipe_free_for(const Sm *sm, int p, int s, uint64_t now) { return pipe_free_at(sm, p, s) <= now; }

/* Scheduler s's waiters of pipes it finds free now fall due. */
static void pipe_waiters_due(Sm *sm, int s, uint64_t now)
{
    const uint64_t *mine = &sm->sched_slots[(size_t)s * (size_t)sm->nwords];
    for (unsigned ps = sm->pipe_wait_of[s]; ps; ps &= ps - 1) {
        int p = __builtin_ctz(ps);
        if (!pipe_free_for(sm, p, s, now)) continue;
        sm->pipe_wait_of[s] &= (uint8_t)~(1u << p);
        uint64_t *w = sm->pipe_wait[p];
        for (int wi = 0; wi < sm->nwords; wi++) {
            uint64_t bits = w[wi] & mine[wi];
            w[wi] &= ~bits;
            sm->due[wi] |= bits;
            for (; bits; bits &= bits - 1) sm->wake[wi * 64 + __builtin_ctzll(bits)] = now;   /* waits_pipe stays: sm_cycle */
        }
    }
}

/* The earliest cycle after now at which a pipe with waiters has a group free
 * for one of them (SM_NEVER: none, or only pipes a retried access holds). */
static uint64_t pipe_waiters_next(const Sm *sm, uint64_t now)
{
    uint64_t next = SM_NEVER;   /* pipe_wait_of may name a pipe with none left: a look too many */
    for (int s = 0; s < sm->nsched; s++)
        for (unsigned ps = sm->pipe_wait_of[s]; ps; ps &= ps - 1) {
            uint64_t at = pipe_free_at(sm, __builtin_ctz(ps), s);
            if (at < next) next = at;
        }
    return next == SM_NEVER ? next : next > now ? next : now + 1;
}

/* The fetch units, after issue (reverse pipeline order): each serves one
 * warp of its schedulers per cycle, round robin, decoding up to
 * sm.fetch_width instructions into its buffer of sm.ibuffer_depth; they can
 * issue from the next cycle.  Returns when a fetch unit next has work. */
static inline uint64_t sm_fetch(Sm *sm, Timing *t, int nw)
{
    uint64_t now = t->now;
    int depth = sm->cfg->sm.ibuffer_depth, width = sm->cfg->sm.fetch_width;
    if (sm->refetch_min <= now) {
        /* branch targets now known: those warps can be fetched again */
        uint64_t later = SM_NEVER;
        for (int wi = 0; wi < nw; wi++)
            for (uint64_t bits = sm->refetch[wi]; bits; bits &= bits - 1) {
                int slot = wi * 64 + __builtin_ctzll(bits);
                uint64_t ready = sm->slots[slot].fetch_ready;
                if (ready > now) { if (ready < later) later = ready; continue; }
                sm->refetch[wi] &= ~(1ull << (slot % 64));
                set_fetchable(sm, slot, 1);
            }
        sm->refetch_min = later;
    }
    int any = 0;
    for (int u = 0; u < sm->nfetch; u++) {
        /* round robin from fetch_rr: the unit's fetchable slots >= fetch_rr, then the rest */
        const uint64_t *mine = &sm->fetch_slots[(size_t)u * (size_t)nw];
        int served = next_set_round(sm->fetchable, mine, sm->fetch_rr[u], nw);
        if (served < 0) continue;
        any = 1;
        SmWarp *sw = &sm->slots[served];
        /* a warp that had nothing buffered is looked at again once this lands;
         * one that had an instruction is already waiting on something else */
        if (sw->ibuf == 0 && sm->wake[served] > not_before(sw, now + 1)) wake_set(sm, served, not_before(sw, now + 1));
        sw->ibuf = sw->ibuf + width > depth ? depth : sw->ibuf + width;
        sm->fetch_rr[u] = served + 1 == sm->nslots ? 0 : served + 1;
        if (sw->ibuf >= depth) set_fetchable(sm, served, 0);
    }
    if (!any) return sm->refetch_min;
    /* more warps may be waiting: look again next cycle */
    for (int wi = 0; wi < nw; wi++) if (sm->fetchable[wi] | sm->refetch[wi]) return now + 1;
    return SM_NEVER;
}

/* ---- ready warps ------------------------------------------------------------------
 * A warp whose next instruction has its operands waits only for its pipe
 * and an issue slot, and nothing but its own issue changes that.  Looked
 * at every cycle its pipe is free for its scheduler, such a warp is
 * not_selected once the turn has issued, and between those cycles it waits
 * on the pipe, charged the pipe's throttle: where a pipe is busy every
 * other cycle (fermi.ini's 16-lane groups) that is a look and a state
 * change per ready warp per cycle.  Where a turn takes its warps by age
 * (Sm.by_age) and nothing shows each look (--step, a trace), ready warps
 * wait instead in their scheduler's rdy[pipe], by age position: a turn
 * offers those whose pipe is free for it, with its due warps, in its
 * policy's order, and once it has used its issue slots leaves the rest as
 * they are.  What the looks would have charged follows from the pipe
 * alone: each cycle the pipe is free for the scheduler at the end of its
 * turn is not_selected, each other one the pipe's throttle.  So the
 * scheduler counts, per pipe, the cycles it was free (rcum, rebased at the
 * turns where that changes: ready_status), and a warp that leaves (it
 * issues) is charged its share then (ready_leave).  Reports are the same
 * as with every look made (test_timing's turn_by_age_same_as_sorted), and
 * so are traces, which a sorted turn writes (turn). */
static inline int ready_on(const Sm *sm, const Timing *t) { return sm->by_age && !t->step && !t->obs; }

/* The cycles pipe p was free for scheduler sc up to `at`, counted from an
 * arbitrary origin (only differences are used). */
static inline uint64_t ready_cum(const Sched *sc, int p, uint64_t at)
{
    return sc->rcum[p] + (sc->rfree >> p & 1 ? at - sc->rsince[p] : 0);
}

/* A look found sw ready (its next instruction's pipe: p) and did not issue
 * it: it waits in rdy[p] from now on, charged as its pipe goes. */
static void ready_enter(Sm *sm, Timing *t, int slot, int p, uint32_t line)
{
    SmWarp *sw = &sm->slots[slot];
    Sched *sc = &sm->sched[sw->sched];
    close_state(t, sw);
    sw->state = STALL_NOT_SELECTED;   /* nominal: ready_leave splits the time */
    sw->line = line;
    sw->ready = 1;
    /* ready_leave charges by sw->pipe: the pipe it waits on is the one it
     * is filed under.  (evaluate sets sw->pipe for an instruction, but a
     * warp past its last one, at a branch's target at the end of the code
     * with other lanes still to run, has none: its verdict's pipe is
     * PIPE_NONE while sw->pipe kept the branch's, and ready_leave
     * subtracted one pipe's count from another's; tests/data/branch_to_end.s.) */
    sw->pipe = (uint8_t)p;
    sw->rsnap = ready_cum(sc, p, t->now);
    sc->rdy[p] |= 1ull << sc->pos[slot];
    sc->rpipes |= 1u << p;
    sm->wake[slot] = SM_NEVER;
}

/* Charge ready warp sw's time since it became ready, up to now: the cycles
 * its pipe was free for its scheduler to not_selected, the rest to the
 * pipe's throttle; it leaves rdy. */
static void ready_leave(Sm *sm, Timing *t, int slot)
{
    SmWarp *sw = &sm->slots[slot];
    Sched *sc = &sm->sched[sw->sched];
    int p = sw->pipe;
    uint64_t freed = ready_cum(sc, p, t->now) - sw->rsnap, held = t->now - sw->since - freed;
    charge(t, sw, STALL_NOT_SELECTED, freed);
    if (held) charge(t, sw, (StallReason)t->info[sw->pc].held, held);
    sw->since = t->now;
    sw->ready = 0;
    sc->rdy[p] &= ~(1ull << sc->pos[slot]);
    if (!sc->rdy[p]) sc->rpipes &= ~(1u << p);
}

/* The end of scheduler s's turn: each pipe with ready warps is free for it
 * or not from now until its next turn. */
static inline void ready_status(Sm *sm, int s, uint64_t now)
{
    Sched *sc = &sm->sched[s];
    for (unsigned ps = sc->rpipes & ~(1u << PIPE_NONE); ps; ps &= ps - 1) {
        int p = __builtin_ctz(ps);
        unsigned was = sc->rfree >> p & 1, is = (unsigned)pipe_free_for(sm, p, s, now);
        if (was == is) continue;
        sc->rcum[p] = ready_cum(sc, p, now);
        sc->rsince[p] = now;
        sc->rfree ^= 1u << p;
    }
}

/* When a ready warp can next issue: the next cycle if one's pipe is free,
 * else the earliest a busy one frees (SM_NEVER: none, or only pipes a
 * retried access holds), as pipe_waiters_next. */
static uint64_t ready_next(const Sm *sm, uint64_t now)
{
    uint64_t next = SM_NEVER;
    for (int s = 0; s < sm->nsched; s++) {
        const Sched *sc = &sm->sched[s];
        if (sc->rpipes & sc->rfree) return now + 1;   /* PIPE_NONE's bit is always set in rfree */
        for (unsigned ps = sc->rpipes; ps; ps &= ps - 1) {
            int p = __builtin_ctz(ps);
            uint64_t at = pipe_free_at(sm, p, s);
            if (at < next) next = at;
        }
    }
    return next == SM_NEVER ? next : next > now ? next : now + 1;
}

/* What one scheduler turn collects: the warps to retire after the turns
 * (retiring edits the lists being walked) and its issue count. */
typedef struct Turn {
    int s;
    int issued;
    int *retiring, nretire;
    int ready;               /* ready warps wait in rdy[] (ready_on) */
} Turn;

/* Warp `slot` of scheduler s waits in pipe p's set until the pipe is free
 * for s (Verdict.on_pipe). */
static inline void wait_on_pipe(Sm *sm, int s, int slot, int p)
{
    sm->pipe_wait[p][slot / 64] |= 1ull << (slot % 64);
    sm->pipe_wait_of[s] |= (uint8_t)(1u << p);
    sm->slots[slot].waits_pipe = (uint8_t)p;
}

/* Scheduler tn->s looks at a due warp: issues it if it is ready, in the
 * policy's pool (candidate) and an issue slot is left, else records why it
 * waits and when to look again (a ready warp, with tn->ready: that it is
 * ready).  Only a sorted turn (turn) has pipe waiters. */
static inline void look(Sm *sm, Timing *t, Turn *tn, int slot, int candidate)
{
    SmWarp *sw = &sm->slots[slot];
    uint64_t now = t->now;
    int s = tn->s;
    if (sw->waits_pipe != PIPE_NONE) {
        int p = sw->waits_pipe;
        uint64_t bit = 1ull << (slot % 64);
        if (!pipe_free_for(sm, p, s, now)) {
            /* a warp before it took the group: the look would say what it said */
            sm->pipe_wait[p][slot / 64] |= bit;
            sm->pipe_wait_of[s] |= (uint8_t)(1u << p);
            sm->wake[slot] = SM_NEVER;
            return;
        }
        sm->pipe_wait[p][slot / 64] &= ~bit;
        sw->waits_pipe = PIPE_NONE;
    }
    int may_issue = candidate && tn->issued < sm->issue_limit;
    if (!may_issue && !t->step && sw->operands_ready) {
        /* its operands were ready at its last look (so it is not finishing
         * and not at a barrier: only an issue exits a warp or brings it to
         * one, and an issue clears operands_ready): nothing but its own
         * issue changes its registers, buffer or pc, so evaluate would find
         * it ready if its pipe is free for s and held back by the pipe if
         * not, at the line its state already has, and it is not picked.
         * (A sorted turn's shortcut, where no look is shown: two_level;
         * --step evaluates every look.) */
        if (sw->pipe == PIPE_NONE || pipe_free_for(sm, sw->pipe, s, now)) {
            set_state(t, sw, STALL_NOT_SELECTED, sw->line);
            wake_refile(sm, slot, now + 1);
        } else {
            set_state(t, sw, (StallReason)t->info[sw->pc].held, sw->line);
            sm->wake[slot] = SM_NEVER;
            wait_on_pipe(sm, s, slot, sw->pipe);
        }
        return;
    }
    Verdict v = evaluate(sm, t, sw);
    if (v.reason == STALL_SELECTED && may_issue) {
        if (t->step && s < 8) { sm->issued[s] = slot; sm->issued_pc[s] = sw->pc; }
        if (sw->ready) ready_leave(sm, t, slot);
        issue(sm, t, slot, &v, tn->ready);
        sm->sched[s].last = slot;
        sm->sched[s].last_pos = sm->policy == SCHED_TWO_LEVEL ? -1 : sm->sched[s].pos[slot];
        tn->issued++;
        return;
    }
    if (v.reason == STALL_SELECTED) v.reason = STALL_NOT_SELECTED;
    if (tn->ready && (v.reason == STALL_NOT_SELECTED || v.on_pipe)) {   /* ready, not issued */
        if (!sw->ready) ready_enter(sm, t, slot, v.pipe, line_of(t, sw));
        return;
    }
    /* a draining warp stays charged to its last line (the ret) */
    set_state(t, sw, v.reason, sw->finishing ? sw->line : line_of(t, sw));
    if (sw->finishing && !sw->inflight && sw->mem_done <= now) {
        sm->wake[slot] = SM_NEVER;
        tn->retiring[tn->nretire++] = slot;
        return;
    }
    wake_refile(sm, slot, v.until);
    if (v.on_pipe) wait_on_pipe(sm, s, slot, v.pipe);
}

/* turn's sorted way: the scheduler's warps that fall due, in sm->visit
 * sorted by sched_keys (their keys in sm->visit_key); returns how many. */
static int sorted_visits(Sm *sm, int s, uint64_t now, int *ncand)
{
    int nw = sm->nwords, nd = 0;
    const uint64_t *mine = &sm->sched_slots[(size_t)s * (size_t)nw];
    int *visit = sm->visit, *visit_key = sm->visit_key;
    pipe_waiters_due(sm, s, now);
    for (int wi = 0; wi < nw; wi++) {
        uint64_t taken = sm->due[wi] & mine[wi];
        sm->due[wi] &= ~taken;        /* each is filed again (wake_refile) */
        for (; taken; taken &= taken - 1) visit[nd++] = wi * 64 + __builtin_ctzll(taken);
    }
    if (nd == 0) return 0;
    sched_keys(sm, s, visit, nd, visit_key, ncand);
    /* insertion sort by key: a handful of warps fall due at once */
    for (int i = 1; i < nd; i++) {
        int slot = visit[i], key = visit_key[i], j = i;
        for (; j > 0 && visit_key[j - 1] > key; j--) {
            visit_key[j] = visit_key[j - 1];
            visit[j] = visit[j - 1];
        }
        visit_key[j] = key;
        visit[j] = slot;
    }
    return nd;
}

/* One scheduler's turn: it looks at its due warps, and at its ready warps
 * or pipe waiters, in its policy's order.
 *
 * lrr, gto and oldest order warps by age (Sched.order) rotated after, or
 * led by, the last-issued warp: where a scheduler holds at most 64 warps
 * (Sm.by_age) and no look is shown (--step, a trace), the turn keeps its
 * due warps and its ready warps of the pipes free for it as a word of age
 * positions and takes them lowest first: no keys, no sort, and once it has
 * used its issue slots the ready warps stay as they are ("ready warps"
 * above).  Otherwise (two_level, whose keys also say who is in its pool,
 * and every turn under --step or a trace) the turn sorts its due warps and
 * the waiters of the pipes free for it by sched_keys and looks at each.
 * Either way the same warps issue in the same order and every warp-cycle
 * is charged the same (test_timing's turn_by_age_same_as_sorted; the
 * reports of every kernel on every config under every policy compared). */
static inline void turn(Sm *sm, Timing *t, Turn *tn, int nw)
{
    int s = tn->s, limit = sm->issue_limit;
    uint64_t now = t->now;
    if (!tn->ready) {
        int ncand = INT_MAX, nd = sorted_visits(sm, s, now, &ncand);
        for (int i = 0; i < nd && !t->faulted; i++) look(sm, t, tn, sm->visit[i], sm->visit_key[i] < ncand);
        return;
    }
    const uint64_t *mine = &sm->sched_slots[(size_t)s * (size_t)nw];
    Sched *sc = &sm->sched[s];
    uint64_t in = 0, rdy_all = 0, offered = 0;   /* by age position */
    for (int wi = 0; wi < nw; wi++) {
        uint64_t taken = sm->due[wi] & mine[wi];
        sm->due[wi] &= ~taken;
        for (; taken; taken &= taken - 1) in |= 1ull << sc->pos[wi * 64 + __builtin_ctzll(taken)];
    }
    /* the ready warps of pipes free for s join the due ones; a ready warp
     * that fell due (a wake-up) needs no wake cycle */
    for (unsigned ps = sc->rpipes; ps; ps &= ps - 1) {
        int p = __builtin_ctz(ps);
        rdy_all |= sc->rdy[p];
        if (p == PIPE_NONE || pipe_free_for(sm, p, s, now)) offered |= sc->rdy[p];
    }
    if (in & rdy_all) {
        for (uint64_t b = in & rdy_all; b; b &= b - 1) sm->wake[sc->order[__builtin_ctzll(b)]] = SM_NEVER;
        in &= ~rdy_all;
    }
    in |= offered;
    uint64_t from = ~0ull;                /* lrr: the positions after the last-issued warp's */
    int first = -1;                       /* gto: the last-issued warp's position */
    if (in && sc->last_pos >= 0) {
        if (sm->policy == SCHED_GTO) first = sc->last_pos;
        else if (sm->policy == SCHED_LRR) from = ~0ull << (sc->last_pos + 1 == sc->n ? 0 : sc->last_pos + 1);
    }
    while (in && !t->faulted) {
        int q = first >= 0 && (in >> first & 1) ? first : __builtin_ctzll(in & from ? in & from : in);
        in &= ~(1ull << q);
        int issued = tn->issued;
        look(sm, t, tn, sc->order[q], 1);
        if (tn->issued != issued && tn->issued >= limit) in &= ~rdy_all;   /* no more issues: they stay ready */
    }
    ready_status(sm, s, now);
}

/* sm_cycle's body for bit sets of nw words.  Called with the constant 1
 * (every shipped config but tiny.ini has 64 warps an SM or fewer) the
 * compiler drops the word loops of the wheel, the turns and the fetch:
 * fermi tiled_mm 128^3 3.9% fewer host instructions, 512^3 1.3% less
 * time (docs/performance-log.md, sixteenth session). */
static inline __attribute__((always_inline)) uint64_t cycle(Sm *sm, Timing *t, int nw)
{
    if (!sm->blocks_used) return SM_NEVER;
    uint64_t now = t->now;
    if (now < sm->next_wake) return sm->next_wake;    /* nothing here can change yet */
    if (sm->retry.active) retry_access(sm, t);
    if (t->step) for (int s = 0; s < sm->nsched && s < 8; s++) sm->issued[s] = -1;   /* for --step */
    int retiring[WARP_MAX * 64], nretire = 0;
    wheel_advance(sm, now, nw);
    int ready = ready_on(sm, t);
    for (int s = 0; s < sm->nsched && !t->faulted; s++) {
        Turn tn = { s, 0, retiring + nretire, 0, ready };
        turn(sm, t, &tn, nw);
        nretire += tn.nretire;
    }
    for (int i = 0; i < nretire; i++) retire_warp(sm, t, retiring[i]);
    uint64_t f = sm_fetch(sm, t, nw);   /* it may wake a warp it fed (before wheel_next) */
    uint64_t next = wheel_next(sm, nw);
    if (f < next) next = f;
    if (next > now + 1) {         /* the waiters' earliest is now + 1 at the soonest */
        f = ready ? ready_next(sm, now) : pipe_waiters_next(sm, now);
        if (f < next) next = f;
    }
    if (sm->retry.active) {
        /* the held access: offered again when what refused it can have
         * changed (memsys_retry_sleep), or every cycle under --step */
        uint64_t when = now + 1;
        if (!t->step && !memsys_retry_sleep(t->ms, sm->id, now, &when)) when = now + 1;
        if (when < next) next = when;
    }
    sm->next_wake = next;
    return next;
}

uint64_t sm_cycle(Sm *sm, Timing *t)
{
    return sm->nwords == 1 ? cycle(sm, t, 1) : cycle(sm, t, sm->nwords);
}

/* ---- host prefetching --------------------------------------------------------------- */
/* Measured (docs/performance-log.md, ninth session; medians of 15 interleaved
 * runs): hopper.ini nvcc tiled_mm and naive_mm 256³ (tens of MB of warp
 * state) 7% and 9% faster; fermi.ini tiled_mm 256³ (1.4 MB) 10% slower
 * with it always on: there everything is in cache already and the
 * look-ahead only costs instructions. */
#define SM_PREFETCH_BYTES (8u << 20)
#define SM_PREFETCH_WARPS 8          /* due warps looked ahead at per SM */

int sm_prefetch_pays(const Timing *t, int nsms)
{
    const Kernel *k = t->k;
    const Entry *e = k->entry;
    const Occupancy *o = &t->occ;
    uint64_t blocks = (uint64_t)o->blocks * (uint64_t)(nsms > 0 ? nsms : 0);
    if (blocks > k->nctas) blocks = k->nctas;
    uint64_t per_warp = (uint64_t)k->row_off[e->nregs] + (uint64_t)(e->nregs + e->npreds) * 9u +
                        (uint64_t)e->npreds * sizeof(LaneMask) + sizeof(SmWarp) + sizeof(Warp);
    return blocks * (uint64_t)o->warps_per_block * per_warp > SM_PREFETCH_BYTES;
}

/* The warps due at now without moving the wheel: due, and the bucket of
 * now if the wheel has not reached it (a hint: buckets further back are
 * left out). */
static uint64_t due_peek(const Sm *sm, int wi, uint64_t now)
{
    uint64_t d = sm->due[wi];
    if (now > sm->wheel_now && now - sm->wheel_now < SM_WHEEL) d |= bucket(sm, now)[wi];
    return d;
}

void sm_prefetch(const Sm *sm, const Timing *t, int deep)
{
    if (!sm->blocks_used || t->now < sm->next_wake) return;
    const Kernel *k = t->k;
    int n = 0;
    for (int wi = 0; wi < sm->nwords && n < SM_PREFETCH_WARPS; wi++)
        for (uint64_t b = due_peek(sm, wi, t->now); b && n < SM_PREFETCH_WARPS; b &= b - 1, n++) {
            const SmWarp *sw = &sm->slots[wi * 64 + __builtin_ctzll(b)];
            if (!deep) {               /* the look's line and the issue's (sm.h) */
                __builtin_prefetch(sw);
                __builtin_prefetch((const char *)sw + 64);
                continue;
            }
            if (!sw->resident || sw->pc >= (uint32_t)k->entry->ncode) continue;
            __builtin_prefetch(sw->w);   /* its first line: what an issue reads (kernel.h) */
            const Deps *d = &t->deps[sw->pc];
            for (int i = 0; i < d->nread + d->nwrite; i++) {
                int r = d->reg[i];
                __builtin_prefetch(&sw->sb.ready[r]);
                if (r >= k->entry->nregs) continue;   /* a predicate */
                const uint8_t *row = sw->rb + k->row_off[r];
                int bytes = (k->row_wide[r] ? 8 : 4) * k->warp_size;
                for (int off = 0; off < bytes; off += 64) __builtin_prefetch(row + off);
            }
        }
}

void sm_wake_now(Sm *sm, uint64_t now)
{
    if (sm->next_wake > now) sm->next_wake = now;
}

void sm_wake(Sm *sm, int slot, uint64_t when)
{
    when = not_before(&sm->slots[slot], when);
    if (sm->wake[slot] > when) wake_set(sm, slot, when);
    if (sm->next_wake > when) sm->next_wake = when;
}

void sm_flush(Sm *sm, Timing *t)
{
    for (int s = 0; s < sm->nslots; s++)
        if (sm->slots[s].resident) {               /* a fault or the watchdog stopped the launch */
            SmWarp *sw = &sm->slots[s];
            if (sw->ready) ready_leave(sm, t, s);
            /* a warp that issued in the cycle the launch stopped has its
             * issue slots charged already (look_ahead: since is past now):
             * it stays resident to there, so that its states still add up
             * to its resident cycles (fuzz_run found the one-cycle gap) */
            uint64_t end = sw->since > t->now ? sw->since : t->now;
            close_state_at(t, sw, end);
            t->st->warp_resident += end - sw->dispatched;
            sw->dispatched = end;
        }
    if (sm->blocks_used) {
        t->st->sm[sm->id].active_cycles += t->now - sm->active_since;
        sm->active_since = t->now;
    }
}
