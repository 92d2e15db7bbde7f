/* stats.h - counters of one run, each named after its Nsight Compute metric
 * where one exists (docs/metrics.md lists them with their definitions).
 * Owned by the Kernel/Gpu; incremented at issue by warp.c and by the timing
 * units; read by report.c.  Counters are uint64_t and only ever added to. */
#ifndef GPUSIM_STATS_H
#define GPUSIM_STATS_H

#include <stdint.h>

#include "isa/isa.h"

/* Warp states, one per resident warp per cycle, named as Nsight Compute's
 * smsp__pcsamp_warps_issue_stalled_* reasons. */
#define STALL_REASONS(X) \
    X(STALL_SELECTED, "selected") X(STALL_NOT_SELECTED, "not_selected") X(STALL_WAIT, "wait") \
    X(STALL_LONG_SCOREBOARD, "long_scoreboard") X(STALL_SHORT_SCOREBOARD, "short_scoreboard") \
    X(STALL_BARRIER, "barrier") X(STALL_MEMBAR, "membar") X(STALL_MATH_PIPE_THROTTLE, "math_pipe_throttle") \
    X(STALL_MIO_THROTTLE, "mio_throttle") X(STALL_LG_THROTTLE, "lg_throttle") \
    X(STALL_NO_INSTRUCTION, "no_instruction") X(STALL_BRANCH_RESOLVING, "branch_resolving") \
    X(STALL_DISPATCH_STALL, "dispatch_stall") X(STALL_IMC_MISS, "imc_miss") X(STALL_DRAIN, "drain")

#define X(e, n) e,
typedef enum StallReason { STALL_REASONS(X) STALL_COUNT } StallReason;
#undef X
extern const char *const stall_names[STALL_COUNT];

typedef struct LineStats {
    uint64_t inst;            /* warp instructions issued from this line */
    uint64_t thread_inst;     /* their active lanes */
    uint64_t divergent;       /* divergent branch executions */
    uint64_t stall[STALL_COUNT];  /* warp-cycles spent at this line, by state */
    uint64_t wavefronts, bank_conflicts;  /* shared memory */
    uint64_t requests, sectors;           /* global and local memory */
    uint64_t ideal_sectors;               /* what perfectly coalesced lanes would touch */
    int64_t lane_stride;                  /* bytes between the first two active lanes'
                                             addresses of the first access seen (for observations) */
    int stride_seen;
    int mem_bytes;                        /* bytes per lane of that access */
    uint64_t stride_at;                   /* the cycle of that access (stats_merge keeps the earliest) */
} LineStats;

typedef struct SmStats {
    uint64_t inst;                 /* warp instructions issued on this SM */
    uint64_t active_cycles;        /* cycles with a block resident */
    uint64_t ctas;                 /* blocks it ran */
    uint64_t stall[STALL_COUNT];   /* warp-cycles by state */
} SmStats;

typedef struct Stats {
    uint64_t inst;                 /* smsp__inst_executed.sum: machine instructions
                                      (core.schedule=machine) or PTX (source) */
    uint64_t issues;               /* scheduler issue events (timing; an expansion is one) */
    uint64_t ptx_inst;             /* gpusim__ptx_inst_executed.sum: PTX warp instructions */
    uint64_t thread_inst;          /* smsp__thread_inst_executed.sum (active lanes) */
    uint64_t thread_inst_pred_on;  /* smsp__thread_inst_executed_pred_on.sum */
    uint64_t branches;             /* smsp__sass_inst_executed_op_branch.sum */
    uint64_t branch_targets;       /* smsp__sass_branch_targets.sum */
    uint64_t branch_uniform;       /* smsp__sass_branch_targets_threads_uniform.sum */
    uint64_t branch_divergent;     /* smsp__sass_branch_targets_threads_divergent.sum */
    uint64_t mem_inst[SP_COUNT][2];/* warp ld (0) / st (1) instructions per space */
    uint64_t atomics[SP_COUNT];    /* atom/red warp instructions per space */
    uint64_t barriers;             /* bar.sync warp instructions */
    /* memory access patterns (lsu.c): [0] load, [1] store */
    uint64_t smem_wavefronts[3];   /* l1tex__data_pipe_lsu_wavefronts_mem_shared_op_{ld,st,atom}.sum */
    uint64_t smem_conflicts[3];    /* l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_{ld,st,atom}.sum */
    uint64_t requests[2][2];       /* [global, local][ld, st]: l1tex__t_requests_pipe_lsu_mem_{global,local}_op_* */
    uint64_t sectors[2][2];        /* l1tex__t_sectors_pipe_lsu_mem_{global,local}_op_* */
    uint64_t bytes_requested, bytes_moved;   /* coalescing efficiency */
    uint64_t bytes_unique;                   /* distinct bytes (a broadcast counts once) */
    uint64_t div_by_zero;          /* lanes that divided by zero (defined result) */
    uint64_t warps_launched, ctas_launched;
    uint64_t simt_max_depth;       /* deepest reconvergence stack */
    /* timing model */
    uint64_t cycles;               /* gpc__cycles_elapsed.max */
    uint64_t l1_bytes;             /* L1 capacity of the last launch (the carve-out left it) */
    uint64_t sm_active_cycles;     /* sum over SMs of cycles with a resident block */
    uint64_t warp_resident;        /* sum over warps of cycles resident: what the stall reasons must add up to */
    uint64_t stall[STALL_COUNT];   /* warp-cycles by state; they sum to warp_cycles */
    LineStats *line;               /* indexed by source line, nlines + 1 */
    int nlines;
    SmStats *sm;                   /* per SM (timing runs) */
    char *printf_text;             /* device printf output of the launches not yet written (sim/core/printf.h) */
    size_t printf_len, printf_cap;
    int nsms;
    uint64_t now;                  /* the timing engine's cycle, for LineStats.stride_at */
} Stats;

int stats_init(Stats *s, int nlines, int nsms);
void stats_free(Stats *s);
/* Add the counters of `from`, a copy another host thread kept for its SMs
 * during one launch (sim/timing/gpu.c), into `into`: sums, the deepest
 * SIMT stack, and per line the stride note of the earlier access (on a tie,
 * into's: the caller merges in SM order).  Not the per-SM counters (from
 * shares into's) nor the printf text. */
void stats_merge(Stats *into, const Stats *from);
/* SIMD efficiency in percent: active lanes / (instructions x warp size). */
double stats_simd_efficiency(const Stats *s, int warp_size);

#endif
