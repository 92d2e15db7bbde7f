/* gpu.c - see gpu.h. */
#include "sim/timing/gpu.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "sim/base/cpus.h"
#include "sim/base/grow.h"
#include "sim/core/exec.h"
#include "sim/core/printf.h"
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

/* ---- host threads ------------------------------------------------------------------
 * A launch's SMs are split into contiguous ranges, one per lane; lane 0
 * belongs to the calling thread, each other lane to a thread of its own
 * (which runs it unless another thread got to it first: Pool).  A cycle
 * is three phases: the calling thread dispatches blocks and runs the memory
 * side (deliver); every lane runs sm_cycle for its SMs; the calling thread
 * replays the lanes' held global accesses and hands the SMs' crossbar
 * packets and sleeps to the memory side, lane by lane, so in SM order.  In
 * the SM phase an SM touches only its own state, its lane's counters,
 * kernel copy and log, and its own part of the memory system (memsys.h), so
 * the result is the one-lane result, bit for bit. */
typedef struct Pool Pool;

/* The claim word: a phase's number in its high bits (a thread that missed
 * a phase would have to sleep through 2^40 phases, days of simulation, to
 * see its number again), a bit per task in the low ones, set when the
 * task is taken - and, from the phase's start, for the task numbers it
 * does not have (claim_open), so nobody can take one of those whatever
 * count of tasks it believes the phase has. */
enum { CLAIM_TASKS = 24 };
#define CLAIM_GEN_BITS (64 - CLAIM_TASKS)

/* The phase word (Pool.go): the phase's number above GO_N_BITS, its
 * number of tasks below, so a thread learns both in one load: the count
 * it acts on is always its phase's (with a separate count a thread woken
 * for one phase could read the next one's, and run a task twice). */
enum { GO_N_BITS = 20 };
_Static_assert(GPU_MAX_THREADS < (1 << GO_N_BITS), "a phase's task count fits its word");
_Static_assert(CLAIM_TASKS < 64, "the claim word has bits for the phase's number");
static inline uint64_t go_word(uint64_t gen, int n) { return gen << GO_N_BITS | (uint64_t)n; }
static inline uint64_t go_gen(uint64_t go) { return go >> GO_N_BITS; }
static inline int go_tasks(uint64_t go) { return (int)(go & ((1ull << GO_N_BITS) - 1)); }

/* The part of a phase's number the claim word keeps. */
static inline uint64_t claim_gen(uint64_t gen) { return gen & ((1ull << CLAIM_GEN_BITS) - 1); }

uint64_t claim_open(uint64_t gen, int n)
{
    uint64_t tasks = (1ull << CLAIM_TASKS) - 1, none = n >= CLAIM_TASKS ? 0 : tasks & ~0ull << n;
    return claim_gen(gen) << CLAIM_TASKS | none;
}

int claim_take(_Atomic uint64_t *claim, uint64_t gen, int i)
{
    uint64_t g = claim_gen(gen), c = atomic_load(claim);
    for (;;) {
        if (c >> CLAIM_TASKS != g) return -1;
        if (c >> i & 1) return 0;
        if (atomic_compare_exchange_weak(claim, &c, c | 1ull << i)) return 1;
    }
}

typedef struct Lane {
    Timing t;                /* lane 0: the launch's; others a copy with k and st their own */
    Kernel k;                /* lanes > 0: a shallow copy of the launch's (their own fault, printf lines) */
    Stats st;                /* lanes > 0: their own counters (the per-SM array is the launch's) */
    DeferLog log;            /* global accesses held back this cycle (kernel.h) */
    Sm *sms;
    int lo, hi;              /* its SMs */
    uint64_t next;           /* what the SM phase found: earliest wake, */
    int busy, faulted;       /* any SM busy, an SM faulted (the lane stopped there) */
    uint64_t step_last;      /* --step (lane 0 of a one-lane run) */
    double spin_s;           /* how long this lane's thread spins before it sleeps */
    Pool *pool;
    pthread_t th;
    int started;
    /* What the memory side answered its SMs this cycle, for the lane to
     * hand them at the start of its SM phase (its SMs' state stays with
     * the thread that runs the lane): completions in the memory side's
     * order, and SMs whose refused access may now go through. */
    MemDone *inbox;
    int ninbox, capinbox;
    int *wake, nwake;
    /* Its SMs that retired a block this cycle (sm_can_fit asks afresh)
     * and are not in Pool.room: added there at the merge. */
    int *roomy, nroomy;
} Lane;

/* The calling thread starts a phase by moving `go` on and waits until
 * `done` counts the phase's tasks (a lane's SM phase, or a partition
 * lane's part of a memory step).  Each thread first takes its own lane's
 * task, then any task nobody has taken yet (`claim`: the phase's number
 * and a bit per task taken, set by compare-and-swap), so a thread that
 * has no core when a phase starts does not hold it up: on a busy machine
 * the calling thread runs the other lanes' tasks itself.  A task is its
 * lane's work whichever thread runs it (one thread at a time, ordered by
 * the phase's start and `done`), so the result does not change.  (A
 * launch of more than CLAIM_TASKS lanes runs each lane's task on the
 * lane's own thread.)  A waiter spins while the other side
 * works (a phase takes microseconds), then sleeps on the condition
 * variable.  How long it spins adapts, per lane, between 1 and 200 us
 * (gpu_spin_next): a wait under a millisecond (the other thread was
 * running, only slower) doubles it; a longer one (the other thread had no
 * core: more threads than free cores) halves it. */
struct Pool {
    Lane *lane;
    int n;
    int *lane_of;            /* per SM: its lane */
    /* Per SM: the cycle its sm_cycle next has work (its next_wake while it
     * has blocks, UINT64_MAX while it has none), kept where next_wake
     * moves: its lane's SM phase, the inbox, a block's dispatch.  The SM
     * phase passes over the rest without touching their records. */
    uint64_t *due;
    uint8_t *busy;           /* per SM: it has blocks (sm_busy), kept with due */
    /* Bit s: SM s may have room for a block (clear: sm_can_fit said no and
     * no block has left it since), so the dispatcher passes over full SMs
     * without a look; written between SM phases only. */
    uint64_t *room;
    int prefetch;            /* sm_prefetch_pays: look ahead at the next SMs' warps */
    /* What a phase is: the SMs' (0), or the memory side's partition lanes
     * (1: mem_fn(mem_arg, i) for lanes i < mem_n; memsys_set_lanes) */
    int phase;
    MemLaneFn mem_fn;
    void *mem_arg;
    int mem_n;
    _Atomic uint64_t go;     /* the current phase's number and tasks (go_word) */
    _Atomic int done;        /* tasks of the current phase done */
    _Atomic uint64_t claim;  /* the phase's number (low CLAIM_GEN_BITS) << CLAIM_TASKS | a bit per task taken */
    _Atomic int quit;
    _Atomic int sleeping;    /* threads asleep (or about to be) on cv */
    pthread_mutex_t lock;
    pthread_cond_t cv;
    int sync_ok;             /* lock and cv initialised */
};

static double seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
}

static int go_ready(Pool *pl, uint64_t old);
static int done_ready(Pool *pl, uint64_t n);

/* How long a waiter spins: at most SPIN_MAX_S.  A wait that ended within
 * SPIN_NO_CORE_S of its start found the other thread running, only slower
 * than the spin (the memory side's serial part, a busy SM phase): spinning
 * longer would have saved the sleep and the wake-up, so the spin doubles.
 * A longer one means the other thread had no core (more threads than free
 * cores): the spin halves while over SPIN_MIN_S and leaves the core to it.
 * Measured (docs/parallel.md, "Waiting"): with a wait over 4x the spin
 * halving it instead, hopper transpose_naive 2048² on 2 threads slept 294 K
 * times at a 0.8 us spin, 8.2-9.2 s; with this rule 700-800, 3.9-5.8 s. */
#define SPIN_MAX_S 200e-6
#define SPIN_MIN_S 1e-6
#define SPIN_NO_CORE_S 1e-3

double gpu_spin_next(double spin_s, double waited_s)
{
    if (waited_s < SPIN_NO_CORE_S) return spin_s * 2 < SPIN_MAX_S ? spin_s * 2 : SPIN_MAX_S;
    return spin_s > SPIN_MIN_S ? spin_s * 0.5 : spin_s;
}

/* Spin until ready, then sleep until it is. */
static void sleep_until(Lane *ln, int (*ready)(Pool *, uint64_t), uint64_t arg)
{
    Pool *pl = ln->pool;
    double start = 0, until = 0;
    for (int i = 0;; i++) {
        if (ready(pl, arg)) return;
        cpu_relax();
        if ((i & 63) != 63) continue;
        double now = seconds();
        if (!until) { start = now; until = now + ln->spin_s; }
        else if (now > until) break;
    }
    pthread_mutex_lock(&pl->lock);
    atomic_fetch_add(&pl->sleeping, 1);
    while (!ready(pl, arg)) pthread_cond_wait(&pl->cv, &pl->lock);
    atomic_fetch_sub(&pl->sleeping, 1);
    pthread_mutex_unlock(&pl->lock);
    ln->spin_s = gpu_spin_next(ln->spin_s, seconds() - start);
}

/* After changing go or done: wake whoever sleeps (their check and our
 * change are ordered by the seq_cst operations on sleeping and go/done). */
static void wake_sleepers(Pool *pl)
{
    if (!atomic_load(&pl->sleeping)) return;
    pthread_mutex_lock(&pl->lock);
    pthread_cond_broadcast(&pl->cv);
    pthread_mutex_unlock(&pl->lock);
}

/* What a lane waits for: the next phase (go moved on from old), or the
 * calling thread: every other lane done (done reached n). */
static int go_ready(Pool *pl, uint64_t old) { return atomic_load(&pl->go) != old; }
static int done_ready(Pool *pl, uint64_t n) { return atomic_load(&pl->done) == (int)n; }

/* Before SM i's cycle (Pool.prefetch): the next due SM's warps'
 * scoreboards and registers, and the one after's warp records, on their
 * way into the host caches (sm_prefetch). */
static void prefetch_ahead(const Lane *ln, int i, const uint64_t *due, const Timing *t)
{
    int j = i + 1;
    while (j < ln->hi && due[j] > t->now) j++;
    if (j >= ln->hi) return;
    sm_prefetch(&ln->sms[j], t, 1);
    for (j++; j < ln->hi && due[j] > t->now; j++) {}
    if (j < ln->hi) sm_prefetch(&ln->sms[j], t, 0);
}

/* A lane's SM phase: the memory side's answers to its SMs, then sm_cycle
 * for each of its SMs due this cycle. */
static void run_lane(Lane *ln)
{
    Timing *t = &ln->t;
    uint64_t next = SM_NEVER;
    int busy = 0;
    ln->faulted = 0;
    uint64_t *due = ln->pool->due;
    const int prefetch = ln->pool->prefetch;
    for (int i = 0; i < ln->ninbox; i++) {
        const MemDone *d = &ln->inbox[i];
        sm_mem_complete(&ln->sms[d->sm], t, d->slot, d->tag, t->now);
        if (sm_busy(&ln->sms[d->sm])) due[d->sm] = ln->sms[d->sm].next_wake;
    }
    for (int i = 0; i < ln->nwake; i++) {
        sm_wake_now(&ln->sms[ln->wake[i]], t->now);
        if (sm_busy(&ln->sms[ln->wake[i]])) due[ln->wake[i]] = ln->sms[ln->wake[i]].next_wake;
    }
    ln->ninbox = ln->nwake = 0;
    for (int i = ln->lo; i < ln->hi; i++) {
        if (due[i] > t->now) {   /* nothing due yet (or no blocks) */
            if (due[i] < next) next = due[i];
            busy |= ln->pool->busy[i];
            continue;
        }
        Sm *sm = &ln->sms[i];
        if (prefetch) prefetch_ahead(ln, i, due, t);
        uint64_t before = sm->next_wake;
        uint64_t w = sm_cycle(sm, t);
        if (t->faulted) { ln->faulted = 1; break; }
        if (sm->fit < 0 && !(ln->pool->room[i / 64] >> (i % 64) & 1)) ln->roomy[ln->nroomy++] = i;   /* a block left */
        ln->pool->busy[i] = (uint8_t)sm_busy(sm);
        due[i] = sm_busy(sm) ? w : UINT64_MAX;
        if (w < next) next = w;
        busy |= sm_busy(sm);
        if (t->step && (i == t->step->sm || t->step->all_sms) && sm_busy(sm) && t->now >= before) {
            t->step->print(t->step->ctx, t, sm, t->now > ln->step_last + 1 ? t->now - ln->step_last - 1 : 0);
            ln->step_last = t->now;
        }
    }
    ln->next = next;
    ln->busy = busy;
}

/* Task i of the current phase: lane i's SM phase, or partition lane i. */
static void run_task(Pool *pl, int i)
{
    if (pl->phase == 0) run_lane(&pl->lane[i]);
    else pl->mem_fn(pl->mem_arg, i);
}

/* Lane `home`'s thread's part of the phase `go` (a go_word): its own
 * task, then any not taken yet. */
static void take_tasks(Pool *pl, uint64_t go, int home)
{
    uint64_t gen = go_gen(go);
    int n = go_tasks(go);
    if (pl->n > CLAIM_TASKS) {           /* no claim word: each lane's task on its own thread */
        if (home < n) run_task(pl, home);
        if (home && home < n) { atomic_fetch_add(&pl->done, 1); wake_sleepers(pl); }
        return;
    }
    for (int k = -1; k < n; k++) {          /* its own first (k = -1), then the others in order */
        int i = k < 0 ? home : k;
        if (i >= n || (k >= 0 && i == home)) continue;
        int r = claim_take(&pl->claim, gen, i);
        if (r < 0) return;
        if (!r) continue;
        run_task(pl, i);
        atomic_fetch_add(&pl->done, 1);
        if (home) wake_sleepers(pl);
    }
}

static _Atomic int idle_workers;   /* gpu_test_idle_workers */

void gpu_test_idle_workers(int on) { atomic_store(&idle_workers, on); }

static _Atomic int prefetch_mode = -1;   /* gpu_test_prefetch */

void gpu_test_prefetch(int mode) { atomic_store(&prefetch_mode, mode); }

static void *lane_main(void *arg)
{
    Lane *ln = arg;
    Pool *pl = ln->pool;
    uint64_t seen = 0;
    for (;;) {
        sleep_until(ln, go_ready, seen);
        seen = atomic_load(&pl->go);
        if (atomic_load(&pl->quit)) break;
        if (!atomic_load(&idle_workers)) take_tasks(pl, seen, (int)(ln - pl->lane));
    }
    return NULL;
}

/* Start phase `phase` (what a task reads is set before the claim word and
 * `go` move on), take tasks here, wait until every one is done. */
static void pool_run(Pool *pl, int phase)
{
    int n = phase == 0 ? pl->n : pl->mem_n;
    pl->phase = phase;
    if (pl->n == 1) { run_task(pl, 0); return; }
    atomic_store(&pl->done, 0);
    uint64_t go = go_word(go_gen(atomic_load(&pl->go)) + 1, n);
    atomic_store(&pl->claim, claim_open(go_gen(go), n));
    atomic_store(&pl->go, go);
    wake_sleepers(pl);
    take_tasks(pl, go, 0);
    /* with no claim word, the other threads with a task count themselves */
    sleep_until(&pl->lane[0], done_ready, (uint64_t)(pl->n > CLAIM_TASKS ? n - 1 : n));
}

static void sm_phase(Pool *pl, uint64_t now)
{
    for (int i = 0; i < pl->n; i++) {
        pl->lane[i].t.now = now;
        pl->lane[i].t.st->now = now;   /* lane 0's counters are the launch's */
    }
    pool_run(pl, 0);
}

/* The memory side's partition phase (MemRunFn): lane i on lane i's thread. */
static void mem_phase(void *ctx, int n, MemLaneFn fn, void *arg)
{
    Pool *pl = ctx;
    pl->mem_fn = fn;
    pl->mem_arg = arg;
    pl->mem_n = n;
    pool_run(pl, 1);
}

/* The hierarchy's answers at `now` go to the inboxes of their SMs' lanes
 * (run_lane hands them on, before any of its SMs' cycles). */
static void deliver(MemSys *ms, int *woken, uint64_t now, Pool *pl)
{
    MemDone done[MAX_DONE];
    int n;
    do {
        n = memsys_tick(ms, now, done, MAX_DONE);
        for (int i = 0; i < n; i++) {
            Lane *ln = &pl->lane[pl->lane_of[done[i].sm]];
            ln->inbox = grow_for_one(ln->inbox, &ln->capinbox, ln->ninbox, sizeof *ln->inbox, 256);
            ln->inbox[ln->ninbox++] = done[i];
        }
    } while (n == MAX_DONE);
    /* SMs asleep on a refused access whose refusal has lifted */
    n = memsys_woken(ms, woken);
    for (int i = 0; i < n; i++) {
        Lane *ln = &pl->lane[pl->lane_of[woken[i]]];
        ln->wake[ln->nwake++] = woken[i];
    }
}

/* After the SM phase: the held global accesses in SM order, up to the
 * first fault (as a one-lane run stops there), then the memory side's
 * share.  Returns the faulting lane, or -1. */
static int merge_phase(Pool *pl, Kernel *k, MemSys *ms)
{
    int faulted = -1;
    for (int i = 0; i < pl->n && faulted < 0; i++) {
        Lane *ln = &pl->lane[i];
        for (int j = 0; j < ln->log.n; j++) exec_replay(k, &ln->log.e[j]);
        if (ln->faulted) faulted = i;
    }
    for (int i = 0; i < pl->n; i++) {
        Lane *ln = &pl->lane[i];
        ln->log.n = 0;                    /* after a fault, the later lanes' too */
        for (int j = 0; j < ln->nroomy; j++) pl->room[ln->roomy[j] / 64] |= 1ull << (ln->roomy[j] % 64);
        ln->nroomy = 0;
    }
    if (ms && pl->n > 1) memsys_sm_sync(ms, 0, pl->lane[pl->n - 1].hi);
    return faulted;
}

static void pool_stop(Pool *pl)
{
    atomic_store(&pl->quit, 1);
    atomic_store(&pl->go, go_word(go_gen(atomic_load(&pl->go)) + 1, 0));
    if (pl->sync_ok) wake_sleepers(pl);
    for (int i = 1; i < pl->n; i++)
        if (pl->lane[i].started) pthread_join(pl->lane[i].th, NULL);
    if (pl->sync_ok) {
        pthread_mutex_destroy(&pl->lock);
        pthread_cond_destroy(&pl->cv);
    }
}

/* Lanes for a launch: n of them over nsms SMs, lane 0 the launch's own
 * Timing t.  Deferred global memory whenever the run can be split (no
 * observer, stepper or checks: those see each access as it issues), so
 * every lane count gives the same order.  0 ok, -1 out of memory. */
static int pool_start(Pool *pl, int n, Sm *sms, int nsms, Timing *t, MemSys *ms, int defer)
{
    memset(pl, 0, sizeof *pl);
    pl->lane = calloc((size_t)n, sizeof *pl->lane);
    pl->lane_of = calloc((size_t)nsms, sizeof *pl->lane_of);
    pl->due = malloc((size_t)(nsms > 0 ? nsms : 1) * sizeof *pl->due);
    pl->busy = malloc((size_t)(nsms > 0 ? nsms : 1));
    pl->room = calloc((size_t)(nsms + 63) / 64 + 1, sizeof *pl->room);
    if (!pl->lane || !pl->lane_of || !pl->due || !pl->busy || !pl->room) return -1;
    for (int s = 0; s < nsms; s++) pl->room[s / 64] |= 1ull << (s % 64);   /* every SM asks sm_can_fit once */
    for (int s = 0; s < nsms; s++) {
        pl->busy[s] = (uint8_t)sm_busy(&sms[s]);
        pl->due[s] = pl->busy[s] ? sms[s].next_wake : UINT64_MAX;
    }
    pl->n = n;
    int mode = atomic_load(&prefetch_mode);
    pl->prefetch = mode < 0 ? sm_prefetch_pays(t, nsms) : mode > 0;
    for (int i = 0; i < n; i++) {
        Lane *ln = &pl->lane[i];
        ln->pool = pl;
        ln->sms = sms;
        ln->lo = (int)((int64_t)nsms * i / n);
        ln->hi = (int)((int64_t)nsms * (i + 1) / n);
        ln->step_last = t->now ? t->now - 1 : 0;
        ln->spin_s = n <= gpu_threads_default() ? SPIN_MAX_S : 2e-6;
        for (int s = ln->lo; s < ln->hi; s++) pl->lane_of[s] = i;
        ln->wake = calloc((size_t)(ln->hi - ln->lo > 0 ? ln->hi - ln->lo : 1), sizeof *ln->wake);
        ln->roomy = calloc((size_t)(ln->hi - ln->lo > 0 ? ln->hi - ln->lo : 1), sizeof *ln->roomy);
        if (!ln->wake || !ln->roomy) return -1;
        ln->t = *t;
        if (i == 0) continue;
        ln->k = *t->k;
        ln->k.prints = NULL;
        ln->k.nprints = ln->k.capprints = 0;
        memset(&ln->k.fault, 0, sizeof ln->k.fault);
        if (stats_init(&ln->st, t->st->nlines, 0)) { stats_free(&ln->st); return -1; }
        free(ln->st.sm);
        ln->st.sm = t->st->sm;          /* each SM's counters are written by its lane only */
        ln->st.nsms = t->st->nsms;
        ln->k.stats = &ln->st;
        ln->t.k = &ln->k;
        ln->t.st = &ln->st;
    }
    if (defer) {
        t->k->defer = &pl->lane[0].log;
        for (int i = 1; i < n; i++) pl->lane[i].k.defer = &pl->lane[i].log;
    }
    if (ms && n > 1) memsys_set_deferred(ms, 1);
    if (ms && n > 1) memsys_set_lanes(ms, n, mem_phase, pl);
    if (n > 1) {
        if (pthread_mutex_init(&pl->lock, NULL)) return -1;
        if (pthread_cond_init(&pl->cv, NULL)) { pthread_mutex_destroy(&pl->lock); return -1; }
        pl->sync_ok = 1;
    }
    for (int i = 1; i < n; i++) {
        if (pthread_create(&pl->lane[i].th, NULL, lane_main, &pl->lane[i])) return -1;
        pl->lane[i].started = 1;
    }
    return 0;
}

/* End of the launch: the threads stop, the lanes' counters and printf
 * lines join the launch's (in lane order). */
static void pool_end(Pool *pl, Timing *t, MemSys *ms)
{
    if (!pl->lane) return;
    pool_stop(pl);
    if (ms && pl->n > 1) {
        memsys_set_deferred(ms, 0);
        memsys_set_lanes(ms, 1, NULL, NULL);
    }
    t->k->defer = NULL;
    for (int i = 0; i < pl->n; i++) {
        Lane *ln = &pl->lane[i];
        free(ln->log.e);
        free(ln->inbox);
        free(ln->wake);
        free(ln->roomy);
        if (i == 0) continue;
        if (ln->st.line) stats_merge(t->st, &ln->st);
        printf_adopt(t->k, &ln->k);
        ln->st.sm = NULL;
        stats_free(&ln->st);
    }
    free(pl->lane);
    free(pl->lane_of);
    free(pl->due);
    free(pl->busy);
    free(pl->room);
    pl->lane = NULL;
    pl->lane_of = NULL;
}

/* The first SM at or after i and before end with its room bit set, or -1. */
static int room_next(const uint64_t *b, int i, int end)
{
    while (i < end) {
        uint64_t w = b[i / 64] >> (i % 64);
        if (w) {
            int k = i + __builtin_ctzll(w);
            return k < end ? k : -1;
        }
        i = (i | 63) + 1;
    }
    return -1;
}

/* Add the seconds since *mark to *to; *mark = now. */
static void lap(double *mark, double *to)
{
    double now = seconds();
    *to += now - *mark;
    *mark = now;
}

/* The CPUs this process may use (cpus.h: affinity and cgroup quota
 * included), asked once: a sweep asks at every point, each launch's pool
 * too.  (Two threads asking at once both compute the same.) */
int gpu_threads_default(void)
{
    static atomic_int known;
    int n = atomic_load(&known);
    if (n == 0) {
        n = host_cpus();
        if (n > GPU_MAX_THREADS) n = GPU_MAX_THREADS;
        atomic_store(&known, n);
    }
    return n;
}

int gpu_threads_share(int requested, int jobs, int cores)
{
    int fair = cores / (jobs < 1 ? 1 : jobs);
    if (fair < 1) fair = 1;
    if (requested <= 0) return -fair;   /* not asked: automatic, up to the share */
    return requested < fair ? requested : fair;
}

/* Host threads for a launch: one lane per thread, none without SMs; one
 * unless `plain`: an observer, the stepper or the checks see every access
 * as it issues (and so keep global memory at issue too). */
static int lanes_for(int plain, const GpuHost *host, int nsms)
{
    int threads = host ? host->threads : 1;
    if (threads < 0) {
        /* up to -threads, but at least GPU_AUTO_SMS_PER_LANE SMs a lane: a
         * cycle of few SMs is too short to pay for the handoffs */
        int most = nsms / GPU_AUTO_SMS_PER_LANE;
        threads = -threads < most ? -threads : most;
    }
    return plain ? (threads < 1 ? 1 : threads > nsms ? nsms : threads) : 1;
}

/* The launch ran past max_cycles: a fault naming, of the warps still
 * running, the one that has issued the most instructions (an endless
 * loop's, most likely), the first such in SM and slot order, so that any
 * thread count names the same. */
static void watchdog_fault(Kernel *k, const Sm *sms, int nsms, uint64_t max_cycles)
{
    const Warp *best = NULL;
    for (int i = 0; i < nsms; i++)
        for (int j = 0; j < sms[i].nslots; j++) {
            const SmWarp *sw = &sms[i].slots[j];
            if (sw->resident && !sw->finishing && (!best || sw->w->issued > best->issued)) best = sw->w;
        }
    kernel_fault(k, best, -1, FAULT_WATCHDOG,
                 "watchdog: the launch ran past %llu cycles (an endless loop? raise --max-cycles); "
                 "of the warps still running, this one has issued the most (%llu warp instructions)",
                 (unsigned long long)max_cycles, (unsigned long long)(best ? best->issued : 0));
}

/* The block dispatcher's cycle: at most one block per SM, round robin:
 * the search starts at the SM after the last one that got a block (*rr),
 * so every SM with room gets a block before any gets another (the H100
 * puts blocks b and b + 132 on one SM: blocktime.csv). */
static void dispatch(Pool *pool, Sm *sms, int nsms, Timing *t, const Config *cfg, uint64_t first,
                     uint64_t *next_block, int *rr)
{
    uint64_t nctas = t->k->nctas;
    /* gpu.cta_dispatch_cycles: blocks the GPU-wide dispatcher may have started by now */
    uint64_t allowed = cfg->gpu.cta_dispatch_cycles > 0
        ? (uint64_t)((double)(t->now - first) / cfg->gpu.cta_dispatch_cycles) + 1 : UINT64_MAX;
    int from = *rr;   /* SMs from..nsms-1, then 0..from-1: those with room bits */
    for (int pass = 0; pass < 2; pass++)
        for (int s = room_next(pool->room, pass ? 0 : from, pass ? from : nsms);
             s >= 0 && *next_block < nctas && *next_block < allowed;
             s = room_next(pool->room, s + 1, pass ? from : nsms)) {
            if (!sm_can_fit(&sms[s], &t->occ)) { pool->room[s / 64] &= ~(1ull << (s % 64)); continue; }
            if (sm_launch_cta(&sms[s], t, *next_block) == 0) {
                pool->due[s] = sms[s].next_wake;   /* now */
                pool->busy[s] = 1;
                (*next_block)++;
                *rr = s + 1 == nsms ? 0 : s + 1;
            }
        }
}

/* Instructions issued so far, the lanes' counts with the run's (lane 0
 * counts into st itself): PTX ones (ptx set) or warp instructions.  Read
 * between the loop's phases, while the lanes wait. */
static uint64_t issued_so_far(const Pool *pool, const Stats *st, int ptx)
{
    uint64_t n = ptx ? st->ptx_inst : st->inst;
    for (int i = 1; i < pool->n; i++) n += ptx ? pool->lane[i].st.ptx_inst : pool->lane[i].st.inst;
    return n;
}

int gpu_run_launch(const Program *p, int li, Memory *m, Stats *st, const Config *cfg, MemSys *ms,
                   const Observer *obs, const GpuStep *step, uint64_t *nowp, uint64_t max_cycles,
                   struct Checker *chk, const GpuHost *host, Fault *fault)
{
    Kernel k;
    Timing t;
    memset(&t, 0, sizeof t);
    if (kernel_init(&k, p, li, m, st, cfg->sm.warp_size, cfg->gpu.num_sms, cfg->sm.max_warps)) return -1;
    /* the checks run the PTX as written: a finding names the order the
     * student wrote (docs/checks.md); the memory is the same either way */
    if (kernel_use_schedule(&k, cfg->core.schedule == CORE_SCHEDULE_MACHINE && !chk)) { kernel_free(&k); return -1; }
    /* registers share rows as physical registers do, except where --step
     * prints them by name and the checks watch them */
    if (!chk && !(step && step->print) && !(host && host->rows_apart) && kernel_pack_rows(&k)) {
        kernel_free(&k);
        return -1;
    }
    kernel_configure(&k, cfg->sm.max_call_depth, cfg->gpu.core_clock_mhz);
    k.check = chk;
    k.slow = host && host->slow_paths;
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
    PcInfo *info = sm_pc_info(&k, cfg);
    int nsms = cfg->gpu.num_sms;
    Sm *sms = calloc((size_t)nsms, sizeof *sms);
    int *woken = calloc((size_t)nsms, sizeof *woken);
    int rc = deps && info && sms && woken ? 0 : -1;
    t.deps = deps;
    t.info = info;
    for (int i = 0; i < nsms && rc == 0; i++) rc = sm_init(&sms[i], i, cfg);

    int plain = !obs && !t.step && !chk;   /* lanes_for */
    GpuHostTimes *times = host ? host->times : NULL;
    int nlanes = lanes_for(plain, host, nsms);
    double mark = times ? seconds() : 0;
    if (times && nlanes > times->lanes) times->lanes = nlanes;
    Pool pool = { 0 };
    if (rc == 0 && pool_start(&pool, nlanes, sms, nsms, &t, ms, plain)) rc = -1;
    if (times && pool.prefetch) times->prefetch = 1;

    uint64_t start = *nowp, first = t.now, next_block = 0;
    int rr = 0;   /* the SM the dispatcher tries first */
    uint64_t last_inst = st->ptx_inst, last_progress = t.now;
    uint64_t next_sample = 0;
    const Progress *prog = host ? host->progress : NULL;
    for (unsigned turns = 1; rc == 0; turns++) {
        if (obs) sample(&t, ms, &next_sample, 0);
        if (next_block < k.nctas) dispatch(&pool, sms, nsms, &t, cfg, first, &next_block, &rr);
        if (ms) deliver(ms, woken, t.now, &pool);
        if (times) lap(&mark, &times->memory);
        sm_phase(&pool, t.now);
        if (times) lap(&mark, &times->sms);
        int bad = merge_phase(&pool, &k, ms);
        if (times) { lap(&mark, &times->merge); times->visits++; }
        if (bad > 0) k.fault = pool.lane[bad].k.fault;
        if (bad >= 0) { rc = -1; break; }
        uint64_t next = SM_NEVER;
        int busy = 0;
        for (int i = 0; i < pool.n; i++) {
            if (pool.lane[i].next < next) next = pool.lane[i].next;
            busy |= pool.lane[i].busy;
        }
        /* the launch is over when its SMs are idle and its posted reductions
         * have drained (they keep the memory system, not an SM, busy) */
        if (!busy && next_block >= k.nctas && !(ms && memsys_posted_pending(ms))) break;
        if (ms) { uint64_t e = memsys_next_event(ms); if (e < next) next = e; }
        if (next_block < k.nctas)
            for (int i = room_next(pool.room, 0, nsms); i >= 0; i = room_next(pool.room, i + 1, nsms)) {
                if (sm_can_fit(&sms[i], &t.occ)) { next = t.now + 1; break; }
                pool.room[i / 64] &= ~(1ull << (i % 64));
            }
        if (next == SM_NEVER) {
            kernel_fault(&k, NULL, -1, FAULT_DEADLOCK, "deadlock: no warp on any SM can ever issue again");
            rc = -1;
            break;
        }
        t.now = next > t.now + 1 ? next : t.now + 1;
        /* the progress watchdog: a live lock issues nothing, forever */
        uint64_t issued = issued_so_far(&pool, st, 1);
        if (issued != last_inst) { last_inst = issued; last_progress = t.now; }
        if (prog && (turns & 4095) == 0) {
            ProgressPoint at = { li, 0, t.now - start, issued_so_far(&pool, st, 0), next_block, k.nctas };
            prog->tick(prog->ctx, &at);
        }
        else if (t.now - last_progress > NO_PROGRESS_CYCLES) {
            kernel_fault(&k, NULL, -1, FAULT_DEADLOCK, "deadlock: no warp issued an instruction for %llu cycles",
                         (unsigned long long)NO_PROGRESS_CYCLES);
            rc = -1;
            break;
        }
        if (times) lap(&mark, &times->other);
        if (max_cycles && t.now - start > max_cycles) {
            watchdog_fault(&k, sms, nsms, max_cycles);
            rc = -1;
            break;
        }
    }
    pool_end(&pool, &t, ms);
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
    free(info);
    kernel_free(&k);
    return rc;
}
