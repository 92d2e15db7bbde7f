/* kernel.h - the running kernel, its thread blocks (CTAs) and warps.
 *
 * A Kernel is one .launch in progress: the program and entry, the parameter
 * bytes, the memory image, the counters and the fault record.  A Cta holds a
 * block's shared memory, local memory and warps; a Warp holds its registers
 * (structure of arrays: register-major, lane-minor), predicate lane masks and
 * SIMT stack.  Setting them up and recording a fault live here; what an
 * instruction does is exec.h, issuing one is warp.h.
 */
#ifndef GPUSIM_KERNEL_H
#define GPUSIM_KERNEL_H

#include <stddef.h>
#include <stdint.h>

#include "isa/isa.h"
#include "sim/base/lanes.h"
#include "sim/base/stats.h"
#include "sim/core/simt.h"
#include "sim/mem/access.h"
#include "sim/mem/mem.h"

typedef enum FaultKind {
    FAULT_NONE, FAULT_OUT_OF_BOUNDS, FAULT_MISALIGNED, FAULT_BARRIER, FAULT_DEADLOCK,
    FAULT_WATCHDOG, FAULT_MEMBERMASK, FAULT_CALL_DEPTH
} FaultKind;

typedef struct Fault {
    FaultKind kind;
    int launch;                  /* index of the .launch */
    uint32_t cta[3];             /* block */
    int warp;                    /* warp in the block, -1 if several */
    int lane;                    /* first faulting lane, -1 if none */
    uint32_t tid[3];             /* that lane's thread index */
    uint32_t pc;
    uint32_t line;
    char msg[600];
} Fault;

typedef struct Kernel Kernel;
typedef struct Cta Cta;
typedef struct Warp Warp;

/* Global memory writes held back to the end of the cycle (the timing
 * engine, sim/timing/gpu.c): the global stores and atomics that one host
 * thread's SMs issued in a cycle, in issue order, each with the lanes whose
 * addresses resolved to global memory (already checked: a replay cannot
 * fault).  gpu.c replays the threads' logs in SM order (exec_replay), so
 * global memory sees the order of a one-thread run whatever the thread
 * count, and a global load (at issue) sees memory as it was when the cycle
 * began, whichever thread runs it.  Shared, local, constant and parameter
 * accesses happen at issue. */
typedef struct Deferred {
    Warp *w;
    const Instr *in;
    LaneMask lanes;
} Deferred;
typedef struct DeferLog {
    Deferred *e;
    int n, cap;
} DeferLog;
struct Checker;                  /* check.h */
struct CheckCta;

/* One active `call` of a warp (device functions): where to return, the
 * caller's frame, and the callee's registers as they were (so a recursive
 * activation gets its own back). */
typedef struct CallFrame {
    uint32_t ret_pc;             /* the call's pc + 1 */
    int simt_base;               /* SIMT stack index of the callee's first entry */
    uint32_t caller_base, caller_bytes;   /* the caller's frame */
    int call;                    /* Entry.calls index */
    LaneMask mask;               /* the lanes that called */
    uint8_t *saved_r;            /* the callee's register rows, as in Warp.rb */
    LaneMask *saved_p;
} CallFrame;

/* .params of frames (a .func's arguments, return values, call scratch)
 * sit in the warp's frame memory: lane l's byte a is fmem[l * stride + a];
 * addresses of ld/st.param on them are FRAME_WINDOW + a. */
#define FRAME_WINDOW (1ull << 40)

struct Warp {
    /* First host line (a block's warps are an array that starts on one,
     * and a Warp is a multiple of 64 bytes): what every issue reads and
     * writes, the top of a stack up to two entries deep included. */
    _Alignas(64) uint8_t *rb;    /* value registers: a row of warp_size lanes each,
                                    at Kernel.row_off (reg_get, reg_row) */
    LaneMask *p;                 /* predicate registers, one bit per lane */
    uint64_t issued;             /* warp instructions issued */
    SimtStack simt;
    LaneMask valid;              /* lanes that are threads of the block */
    LaneMask live;               /* valid lanes that have not exited */
    Cta *cta;
    int id;                      /* warp index within its CTA */
    int at_barrier;              /* waiting at bar.sync */
    uint32_t barrier_pc;
    int barrier_id;              /* 0-15 */
    CallFrame *calls; int ncalls, capcalls;   /* device-function calls in progress */
    uint32_t frame_base, frame_bytes;         /* the running frame in fmem */
    uint8_t *fmem;                            /* frame memory, Kernel.frame_stride per lane */
    uint32_t nprintf[32];                     /* each lane's vprintf calls so far (printf.h) */
};
_Static_assert(offsetof(Warp, simt.in_place) + 2 * sizeof(SimtEntry) <= 64 && offsetof(Warp, simt) + sizeof(SimtEntry *) <= 64,
               "an issue's fields and a stack top up to two deep share a Warp's first host line");

struct Cta {
    uint32_t id[3];
    uint64_t linear;             /* x fastest, then y, then z */
    int nthreads, nwarps;
    Warp *warps;
    uint8_t *smem; uint32_t smem_bytes;
    uint8_t *lmem; uint32_t lmem_bytes;   /* per thread */
    int live_warps;              /* warps with live lanes */
    /* its warps' registers, predicates and frames, one allocation each
     * (Warp.rb, .p and .fmem point into them) */
    uint8_t *regs;
    LaneMask *preds;
    uint8_t *frames;
    int smid;
    uint32_t bar_arrived[16];    /* threads counted at each barrier (warps x warp size) */
    uint32_t epoch;              /* barrier releases so far (the race check's intervals) */
    struct CheckCta *chk;        /* the checks' shadow state, NULL when off */
};

struct Kernel {
    const Program *prog;
    const Entry *entry;
    const LaunchSpec *spec;
    int launch_index;
    Memory *mem;
    Stats *stats;
    int warp_size;
    int nsms, max_warps_per_sm;
    uint8_t *params;
    uint32_t param_bytes;
    uint64_t *var_base;          /* per Program var: a .global's address, else 0 */
    /* The rows of a warp's value registers in its block (Warp.rb): register
     * r's row starts row_off[r] bytes in and holds 8-byte lanes when r is
     * 64 bits wide (row_wide[r]), 4-byte lanes when it is 32 bits or fewer
     * (values zero-extended on reading).  row_off[nregs] is the block's
     * size.  Most registers of real kernels are 32-bit: half the bytes per
     * row is half the host cache each warp's registers take. */
    uint32_t *row_off;
    uint8_t *row_wide;
    struct RowInfo *rows;    /* per pc of entry: exec_fast's decisions, worked out once (exec_prepare) */
    int max_call_depth;          /* sm.max_call_depth */
    double ns_per_clock;         /* %globaltimer = %clock64 x this (1000 / gpu.core_clock_mhz) */
    uint32_t frame_stride;       /* frame memory per lane (0: the entry makes no calls) */
    uint64_t nctas;
    uint64_t clock;              /* %clock: cycles (timing) or steps (functional) */
    int machine;                 /* core.schedule=machine: entry is the back end's
                                    machine order; counts are machine instructions */
    struct Checker *check;       /* run-time checks (check.h), NULL when off */
    DeferLog *defer;             /* non-NULL: global memory effects wait for exec_replay (gpu.c) */
    int slow;                    /* 1: every instruction by the per-lane paths, none by the row
                                    loops of exec_fast and fast_ldst: the same result, bit for
                                    bit (RunOptions.slow_paths; test_exec_diff compares them) */
    struct PrintfRec *prints;    /* device printf lines of this launch (printf.h) */
    int nprints, capprints;
    Fault fault;
};

/* Register r of warp w: its row (8-byte lanes if k->row_wide[r], else
 * 4-byte), lane l's value zero-extended, and lane l set to v (v already
 * within the register's width). */
static inline void *reg_row(const Kernel *k, const Warp *w, int r) { return w->rb + k->row_off[r]; }
static inline uint64_t reg_get(const Kernel *k, const Warp *w, int r, int l)
{
    const void *p = w->rb + k->row_off[r];
    return k->row_wide[r] ? ((const uint64_t *)p)[l] : ((const uint32_t *)p)[l];
}
static inline void reg_put(const Kernel *k, Warp *w, int r, int l, uint64_t v)
{
    void *p = w->rb + k->row_off[r];
    if (k->row_wide[r]) ((uint64_t *)p)[l] = v;
    else ((uint32_t *)p)[l] = (uint32_t)v;
}

/* Set up a kernel for spec (parameters from the .launch args). */
int kernel_init(Kernel *k, const Program *p, int launch_index, Memory *mem, Stats *st,
                int warp_size, int nsms, int max_warps_per_sm);
void kernel_free(Kernel *k);
/* Issue the back end's machine order (machine = 1) or the source order
 * (-1: out of memory). */
int kernel_use_schedule(Kernel *k, int machine);
/* Lay out a warp's register rows as the machine code's registers share
 * them (isa/backend.h: backend_reg_rows), so its working set is what the
 * hardware's would be: nvcc's naive_mm keeps 40 rows a warp instead of
 * 143, 6.4 KiB instead of 23.9 (docs/performance-log.md, seventeenth session).  Every value
 * the kernel computes is the same; a register whose life is over may read
 * another's, so --step, which prints registers by name, and the checks,
 * which watch them, keep a row each.  Not where the entry makes calls (a
 * callee's registers are saved as one byte range) or the colouring fails:
 * then each register keeps a row of its own.  -1: out of memory. */
int kernel_pack_rows(Kernel *k);
/* The source pc of pc in the code k issues (faults name source pcs, as
 * --disasm numbers them). */
uint32_t kernel_source_pc(const Kernel *k, uint32_t pc);
/* What the config says beyond kernel_init: the frame memory for calls
 * nested max_call_depth deep (sm.max_call_depth), the clock for %globaltimer. */
void kernel_configure(Kernel *k, int max_call_depth, double core_clock_mhz);
/* Block linear index -> CTA with fresh warps, registers, shared and local
 * memory. */
int cta_init(Kernel *k, Cta *c, uint64_t linear, int smid);
/* c, which ran an earlier block of k, as cta_init would make it for block
 * `linear`: its arrays kept and cleared, not allocated again. */
int cta_next(Kernel *k, Cta *c, uint64_t linear, int smid);
/* A block that ran to its end: its warps' calls and SIMT stacks and its
 * check records go (check_cta_end), its arrays stay for cta_next or
 * cta_free. */
void cta_retire(Cta *c);
void cta_free(Cta *c);

/* Fill k->fault for warp w at its pc (lane -1: the whole warp). */
void kernel_fault(Kernel *k, const Warp *w, int lane, FaultKind kind, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

#endif
