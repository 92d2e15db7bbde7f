/* sm.h - a streaming multiprocessor: resident blocks and warp slots, warp
 * schedulers, functional-unit pipes and per-warp scoreboards.
 *
 * Each cycle (sm_cycle) every scheduler looks at its warps in policy order,
 * explains each warp's state (issued, or a stall reason), and issues up to
 * issue_per_scheduler ready warps through warp_issue(); switching warps
 * costs nothing.  A warp's state is recorded only when it changes, and a
 * warp is looked at only when something it waits for can have changed (its
 * wake cycle, kept on a wheel), so the cycles a warp spends in one state cost
 * nothing, and the GPU can skip cycles in which nothing can happen.
 */
#ifndef GPUSIM_SM_H
#define GPUSIM_SM_H

#include <stddef.h>
#include <stdint.h>

#include "sim/base/config.h"
#include "sim/base/stats.h"
#include "sim/core/warp.h"
#include "sim/mem/memsys.h"
#include "sim/timing/observe.h"
#include "sim/timing/occupancy.h"
#include "sim/timing/scoreboard.h"

#define SM_NEVER UINT64_MAX
#define SM_WHEEL 64                     /* wheel buckets: one bit each in wheel_occ */

/* Functional-unit pipes an instruction occupies. */
typedef enum Pipe { PIPE_SP, PIPE_INT, PIPE_DP, PIPE_SFU, PIPE_LSU, PIPE_NONE, PIPE_COUNT = PIPE_NONE } Pipe;

typedef struct SmWarp {
    /* First cache line: what a look reads and writes (look, evaluate, the
     * state's record in close_state), so most looks touch one line of the
     * record (sm.c; perf on fermi tiled_mm put a fifth of sm_cycle's
     * samples on the first loads of a second line and of the scoreboard). */
    _Alignas(64) Scoreboard sb;
    uint64_t since;          /* its current state began */
    SmStats *smst;           /* its SM's counters */
    uint32_t pc;             /* copy of the warp's pc, kept at issue */
    uint32_t line;           /* source line the state is charged to */
    uint8_t state;           /* StallReason: current state */
    uint8_t ibuf;            /* decoded instructions buffered (at pc onwards) */
    uint8_t finishing;       /* exited, draining outstanding memory */
    uint8_t at_barrier;      /* waiting at a barrier (copy kept at issue and release) */
    uint8_t after_branch;    /* waiting for a branch target: branch_resolving */
    uint8_t operands_ready;  /* scoreboard and membar checks passed for its pc */
    uint8_t waits_pipe;      /* the Sm.pipe_wait set it is in (a sorted turn's), PIPE_NONE if none */
    uint8_t pipe;            /* its next instruction's pipe, once operands_ready (evaluate) */
    uint16_t inflight;       /* memory accesses the hierarchy has not answered yet */
    uint8_t started;         /* has issued: the machine prologue is behind it */
    uint8_t ready;           /* in its scheduler's rdy[pipe] (sm.c: "ready warps") */
    uint8_t resident;        /* holds a warp of a block on the SM */
    /* The rest: read when it waits for a fetch, a barrier or memory, and at
     * issue, release, dispatch and retirement. */
    uint64_t fetch_ready;    /* earliest cycle the fetch unit may serve it */
    uint64_t mem_done;       /* completion of its last memory access (membar, drain) */
    uint64_t busy_until;     /* an expansion's issue slots run until this cycle */
    uint64_t released;       /* cycle a barrier released it (it goes on the next); SM_NEVER */
    uint64_t rsnap;          /* while ready: its scheduler's rcum for its pipe when it became so */
    Warp *w;                 /* functional state, inside its Cta */
    const uint8_t *rb;       /* its value registers (Warp.rb), for sm_prefetch */
    int cta;                 /* index into Sm.ctas */
    int sched;               /* scheduler: slot % schedulers */
    /* Third line: read at dispatch, retirement and by sorted turns. */
    uint64_t age;            /* dispatch order, for GTO and oldest-first */
    uint64_t dispatched;     /* cycle it became resident */
    int slot;                /* its index in Sm.slots */
} SmWarp;
_Static_assert(offsetof(SmWarp, resident) < 64, "a look's fields share the record's first cache line");
_Static_assert(offsetof(SmWarp, sched) < 128, "an issue's and sm_prefetch's fields are in the first two lines");

typedef struct SmCta {
    Cta cta;
    int used;
    int kept;                /* cta holds arrays: this block's, or a retired one's for cta_next */
    int live_warps;
    uint64_t start;
    uint64_t bar_clock;      /* the barrier unit has counted arrivals up to this cycle */
} SmCta;

/* A global/local access the L1 could not take yet: the LSU holds it and
 * offers it again every cycle (the warps behind see lg_throttle).  The
 * coalescer's answer is kept with it (co, when has_co): a retry does not
 * coalesce the warp again. */
typedef struct SmRetry {
    int active, slot;
    uint32_t tag;
    unsigned flags;
    int has_co;
    MemAccess a;
    Coalesced *co;           /* sm_init's, one per SM */
} SmRetry;

typedef struct Sched {
    int *order;              /* this scheduler's slots by age */
    int *pos;                /* per slot: its index in order[] */
    int n;
    int last;                /* slot issued last (LRR, GTO) */
    int last_pos;            /* its index in order[], -1 if gone */
    /* Its ready warps (sm.c: "ready warps"), by age position: rdy[p] holds
     * those whose next instruction has its operands and waits only for
     * pipe p (PIPE_NONE: for no pipe) and an issue slot.  Bit p of rfree:
     * pipe p was free for this scheduler at the end of its last turn; rcum[p]
     * counts the cycles it was so, up to rsince[p]. */
    uint64_t rdy[PIPE_COUNT + 1];
    uint64_t rcum[PIPE_COUNT + 1], rsince[PIPE_COUNT + 1];
    unsigned rfree;
    unsigned rpipes;         /* bit p: rdy[p] is not empty (kept, not derived each turn: without it
                                fermi tiled_mm 128^3 took 0.3% more host instructions, hopper tiled_mm 0.9%) */
} Sched;

typedef struct Sm {
    /* What every cycle reads, first. */
    uint64_t next_wake;                /* no warp needs a look before this */
    /* The wake-up wheel (sm.c): each resident warp with a wake cycle sits in
     * exactly one of `due` (the cycle has come), bucket wake % SM_WHEEL of
     * `wheel` (due within SM_WHEEL cycles of wheel_now) or `far` (later), so
     * a cycle visits only the warps that can change.  Bit sets of slots,
     * nwords words each. */
    uint64_t wheel_occ;                /* bit b: bucket b is not empty */
    uint64_t wheel_now;                /* the cycle the wheel has reached */
    uint64_t far_min;                  /* earliest wake in far (SM_NEVER if empty) */
    uint64_t refetch_min;              /* earliest fetch_ready among refetch */
    uint64_t *due, *far, *wheel;       /* wheel: SM_WHEEL sets */
    uint64_t *sched_slots;             /* per scheduler: its slots (nwords words each) */
    uint64_t *fetchable;               /* bit per slot: the fetch unit may serve it now */
    uint64_t *refetch;                 /* bit per slot: it may once its branch target is known */
    uint64_t *pipe_wait[PIPE_COUNT];   /* per pipe: slots waiting for a free group of it (sm_cycle) */
    uint8_t pipe_wait_of[16];          /* per scheduler: bit p, it may have warps in pipe_wait[p] */
    uint64_t *wake;                    /* per slot: nothing to evaluate before this cycle */
    SmWarp *slots;
    Sched *sched;
    const Config *cfg;
    int nslots, nwords, nsched, policy;   /* policy: cfg->sched.policy */
    int issue_limit;                   /* cfg->sm.issue_per_scheduler */
    int nfetch;                        /* fetch units (sm.fetch_units) */
    int fetch_rr[16];                  /* per fetch unit: next slot to consider */
    uint64_t *fetch_slots;             /* per fetch unit: the slots it serves (nwords words each) */
    int blocks_used;
    uint64_t *pipe_free[PIPE_COUNT];   /* per group: cycle it accepts an instruction */
    uint64_t pipe_first[PIPE_COUNT];   /* a pooled pipe's earliest pipe_free (pipe_set keeps it) */
    int pipe_groups[PIPE_COUNT];
    int pipe_ii[PIPE_COUNT];           /* initiation interval: warp_size / width */
    uint8_t pipe_bound[PIPE_COUNT];    /* a warp uses its scheduler's group (one group per scheduler) */
    int agu_ii, agu_global_ii;         /* unit.lsu_groups > 1: cycles a shared (global or local) memory
                                          instruction holds its scheduler's address stage (0: no such stage) */
    uint64_t agu_free[16];             /* per scheduler: cycle its address stage is free */
    uint8_t by_age;                    /* a turn may take its warps from a word of age positions and keep
                                          ready warps in Sched.rdy (sm.c: turn, ready_on) */
    int *rank;                         /* per slot: visiting order this cycle (scratch) */
    SmRetry retry;                     /* active: read every cycle */
    /* The rest. */
    /* turn's warps to look at and their keys, in the sorted way (--step,
     * two_level): scratch, here rather than on the stack (a sanitizer
     * build pays for a large frame at every call) */
    int *visit, *visit_key;
    int id;
    void *arena;                       /* one allocation for the arrays above (sm.c) */
    SmCta *ctas; int nctas;
    int warps_used, regs_used;
    int fit;                           /* sm_can_fit's answer, -1 until asked again */
    uint32_t smem_used;
    uint64_t next_age;
    int issued[8];                     /* per scheduler: slot issued this cycle, -1 none (--step) */
    uint32_t issued_pc[8];
    uint64_t active_since;             /* for sm__cycles_active (SmStats.active_cycles) */
} Sm;

/* What the scheduler asks of an instruction, worked out once a launch
 * (sm_pc_info): entry pc of the kernel, and one past its end. */
typedef struct PcInfo {
    uint32_t line;           /* its source line (0 past the end) */
    uint32_t lat;            /* result latency in its own space (sm.c: latency), kind: its PendKind */
    uint8_t kind;
    uint8_t pipe;            /* Pipe it occupies (PIPE_NONE: none) */
    uint8_t held;            /* StallReason while that pipe is busy for it */
    uint8_t slots;           /* issue slots: a machine expansion's count, else 1 */
    uint8_t folded;          /* a machine count of 0: evaluate folds it */
    uint8_t fence;           /* membar, fence, cp.async.wait: waits for its warp's memory */
} PcInfo;

/* Everything a running launch shares across SMs. */
typedef struct Timing {
    Kernel *k;
    const Deps *deps;
    const PcInfo *info;      /* sm_pc_info */
    Occupancy occ;
    Stats *st;
    MemSys *ms;              /* the memory hierarchy, or NULL: fixed latencies */
    const Observer *obs;     /* --trace, or NULL (observe.h) */
    const struct GpuStep *step;   /* --step, or NULL (gpu.h) */
    uint64_t now;
    int faulted;
} Timing;

/* k's PcInfo under cfg (ncode + 1 records; free() it), NULL if out of memory. */
PcInfo *sm_pc_info(const Kernel *k, const Config *cfg);

int sm_init(Sm *sm, int id, const Config *cfg);
void sm_free(Sm *sm);

int sm_launch_cta(Sm *sm, Timing *t, uint64_t linear);
/* One cycle; returns the earliest cycle anything on this SM can change
 * (SM_NEVER if it is empty).  Sets t->faulted on a fault. */
uint64_t sm_cycle(Sm *sm, Timing *t);
static inline int sm_busy(const Sm *sm) { return sm->blocks_used > 0; }
/* Room for one more block of the launch?  Asked every cycle; the answer
 * changes only when a block comes or goes (fit = -1). */
static inline int sm_can_fit(Sm *sm, const Occupancy *o)
{
    if (sm->fit < 0)
        sm->fit = sm->blocks_used < o->blocks &&
                  sm->warps_used + o->warps_per_block <= sm->nslots &&
                  sm->regs_used + o->regs_per_warp * o->warps_per_block <= sm->cfg->sm.registers &&
                  sm->smem_used + o->smem_per_block <= (uint64_t)sm->cfg->sm.shared_bytes;
    return sm->fit;
}
/* Close every open state interval at `now` (end of a launch). */
void sm_flush(Sm *sm, Timing *t);

/* Lower a warp's next look to `when`. */
void sm_wake(Sm *sm, int slot, uint64_t when);
/* Look at the SM again from cycle now (a refused access may go through). */
void sm_wake_now(Sm *sm, uint64_t now);
/* Host prefetching (no effect on the simulation).  On a launch whose
 * resident warps' state is larger than the host's caches (sm_prefetch_pays:
 * hopper.ini's 132 SMs of nvcc kernels), most loads of a warp's record,
 * scoreboard and registers miss all of them: the engine asks for the next
 * SMs' first (gpu.c).  sm_prefetch(sm, t, 0) fetches the records of the
 * warps due on sm now; deep = 1 their scoreboard entries and register rows
 * for the instruction at their pc, and the functional warp. */
int sm_prefetch_pays(const Timing *t, int nsms);
void sm_prefetch(const Sm *sm, const Timing *t, int deep);
/* The hierarchy answered access `tag` (the pc of the load) of warp `slot`
 * at cycle `when`: its destination registers are ready. */
void sm_mem_complete(Sm *sm, Timing *t, int slot, uint32_t tag, uint64_t when);

/* Scheduler policy (sched.c): for the n warps of scheduler s that are due
 * this cycle, slots[0..n), the order to look at them in: keys[i] for
 * slots[i], smallest first.  Only warps with a key below *ncand may issue
 * (two-level's pool; every warp for the other policies). */
void sched_keys(Sm *sm, int s, const int *slots, int n, int *keys, int *ncand);
void sched_add(Sched *s, int slot);   /* keeps order[] and pos[] */
void sched_remove(Sched *s, int slot);

#endif
