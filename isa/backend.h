/* backend.h - a ptxas-like back end: the instruction stream an SM issues.
 *
 * A GPU never runs PTX: ptxas schedules it, allocates registers and turns
 * it into SASS.  After the CFG is built (cfg.c), this pass gives an entry
 *   - a machine order: list scheduling inside each basic block over a
 *     dependence graph (schedule.c).  Block boundaries, labels, branch
 *     targets and reconvergence pcs stay where they are; only the order
 *     inside [first, last] changes, the branch (ret, exit) staying last;
 *   - a register count as ptxas reports it (regalloc.c): liveness over the
 *     CFG, interference, greedy colouring of 32-bit registers with 64-bit
 *     values in aligned pairs, predicates apart, plus the reserved ones;
 *   - machine-instruction accounting (backend.c): how many SASS
 *     instructions each PTX instruction becomes (isa.def's MI column and the
 *     rules of backend_minst) and the latency class of that machine form.
 * The result is a second Entry, e->machine, whose code is the machine order;
 * the simulator picks it or the source order (core.schedule).  Pure
 * functions of the entry: no time, no hardware.
 */
#ifndef GPUSIM_BACKEND_H
#define GPUSIM_BACKEND_H

#include "isa.h"

/* Latency/issue class of an instruction's machine form (Instr.mclass). */
#define BACKEND_MCLASSES(X) \
    X(MCLS_FOLDED, "folded")   /* no machine instruction of its own */ \
    X(MCLS_ALU,    "alu")      /* IADD3, LOP3, ISETP, SEL, MOV, ... */ \
    X(MCLS_IMUL,   "imul")     /* IMAD, IMAD.WIDE, integer expansions */ \
    X(MCLS_FMA,    "fma")      /* FADD, FMUL, FFMA */ \
    X(MCLS_DP,     "dp")       /* DADD, DMUL, DFMA */ \
    X(MCLS_SFU,    "sfu")      /* MUFU.* */ \
    X(MCLS_S2R,    "s2r")      /* S2R: a special-register read, not an ALU op */ \
    X(MCLS_CONST,  "const")    /* LDC: constant-bank load */ \
    X(MCLS_SHARED, "shared")   /* LDS/STS, SHFL */ \
    X(MCLS_GLOBAL, "global")   /* LDG/STG/LDL/STL/LD/ST, atomics */ \
    X(MCLS_CTRL,   "ctrl")     /* BRA, EXIT */ \
    X(MCLS_SYNC,   "sync")     /* BAR, MEMBAR, WARPSYNC, VOTE */

#define X(e, n) e,
typedef enum MClass { BACKEND_MCLASSES(X) MCLS_COUNT } MClass;
#undef X
const char *backend_mclass_name(int c);

/* Registers an instruction reads and writes.  Value registers by index,
 * predicates as nregs + index (the scoreboard's numbering). */
enum { BACKEND_MAX_RD = 14, BACKEND_MAX_WR = 6 };
typedef struct RegUse {
    uint16_t rd[BACKEND_MAX_RD], wr[BACKEND_MAX_WR];
    int nrd, nwr;
} RegUse;
void backend_reg_use(const Entry *e, const Instr *in, RegUse *u);

/* Posted reductions: a global red, or a global atom whose result no
 * instruction of e reads (ptxas makes it a RED).  Nobody waits for one:
 * its warp goes on and may retire first (the timing model, docs/
 * architecture.md).  read[r] != 0 if any instruction of e reads register r
 * (backend_regs_read, calloc'd; NULL out of memory). */
uint8_t *backend_regs_read(const Entry *e);
int backend_posted(const Instr *in, const uint8_t *read);

/* A folded branch at pc: a branch to the next pc with no machine
 * instruction, what an if-converted branch (ifconv.c) and a load merged
 * into a vector load (vectorize.c) leave behind. */
static inline int backend_folded_branch(const Instr *in, int64_t pc)
{
    return in->op == OP_BRA && in->minst == 0 && in->guard == REG_NONE && in->opd[0].imm == pc + 1;
}

/* ---- machine-instruction accounting (backend.c) ------------------------ */
/* Machine instructions of one instruction alone (no pairing): isa.def's MI
 * column refined by modifiers, types and operands. */
int backend_minst(const Instr *in);
MClass backend_mclass(const Instr *in);
/* Fills code[].minst/mclass of e, fused pairs included, and
 * e->prologue_minst. */
void backend_account(Entry *e);

/* ---- scheduling (schedule.c) -------------------------------------------- */
/* 1 if instruction b, later in its block than a, must stay after a
 * (register, predicate or memory dependence, or a fence). */
int backend_depends(const Entry *e, uint32_t a, uint32_t b);
/* The machine order of e: order[mpc] = source pc, a permutation inside
 * each basic block.  0 ok, -1 out of memory. */
int backend_schedule(const Entry *e, uint32_t *order);
/* After if-conversion (m: a machine entry): the blocks an if-converted
 * branch joins run straight through, so ptxas schedules them as one (nvcc's
 * tiled_mm: the bounds-checked B-tile load rises above the A tile's shared
 * store).  Schedules each such run of blocks as one block, in place (code
 * and morder), the folded branches kept just before the run's own branch
 * and retargeted to the pc after them.  Returns how many runs, -1 out of
 * memory. */
int backend_schedule_regions(Entry *m);
/* entry[pc] = 1 (entry: m->ncode + 1 bytes) where control can reach pc other
 * than by falling through: pc 0, and the targets and reconvergence pcs of
 * m's branches that are not folded. */
void backend_entry_points(const Entry *m, uint8_t *entry);
/* The last block of the region that starts at block b: the blocks that
 * folded branches and fall-throughs join and that nothing else enters. */
int backend_region_last(const Entry *m, const uint8_t *entry, int b);

/* ---- register allocation (regalloc.c) ----------------------------------- */
/* ptxas reports the registers used plus the reserved ones, rounded up to
 * the granule, and never fewer than BACKEND_MIN_REGS: every small kernel of
 * the H100 reference (tests/validation/h100/counters.csv, 6-10 registers
 * coloured) shows 16. */
enum { BACKEND_RESERVED_REGS = 2, BACKEND_REG_GRANULE = 8, BACKEND_MIN_REGS = 16, BACKEND_MAX_PREDS = 7 };
/* The registers per thread ptxas's schedule aims to stay within: 32, the
 * count that lets a Hopper SM hold its 2048 threads (65536 / 2048).
 * Measured: tests/validation/cuda/inflight.cu, whose kernels may use 64
 * (__launch_bounds__(1024)), compiles to 32 in every variant
 * (tests/validation/h100/measured/inflight.sass, R0-R29 + 2 reserved);
 * inflight_d16 issues its 16 loads before the first add, inflight_d32 17
 * of its 32, the rest waiting for registers. */
enum { BACKEND_TARGET_REGS = 32 };
typedef struct RegAlloc {
    int regs;          /* per thread, as ptxas reports it (reserved, rounded) */
    int colours;       /* 32-bit registers the colouring used */
    int max_live;      /* most 32-bit registers live at once */
    int preds;         /* predicate registers the colouring used */
    int wide;          /* backend_reg_rows: rows of 8-byte lanes (colours: of 4-byte lanes) */
    int *phys;         /* per value register: first colour, -1 if unused */
    int *pphys;        /* per predicate: colour, -1 if unused */
    uint32_t *first, *last;   /* per value register: live range in pcs of
                                 e's order, first > last if never live */
} RegAlloc;
/* Liveness over e's CFG (backward dataflow): per block b, the registers
 * live on entry and on exit, (nregs + npreds + 63) / 64 words each from
 * b times that (a value register r is bit r, predicate p bit nregs + p; a
 * guarded write does not kill).  0 ok, 1 too large (NULLs), -1 out of
 * memory. */
int backend_liveness(const Entry *e, uint64_t **in, uint64_t **out);
/* Allocate e's registers in e's own order.  0 ok, -1 out of memory or too
 * large to allocate (ra->regs then holds the count by use). */
int backend_regalloc(const Entry *e, RegAlloc *ra);
void backend_regalloc_free(RegAlloc *ra);
/* The rows of e's value registers in a warp's register file, as the
 * hardware shares a physical register between values whose lives do not
 * overlap (kernel.c lays them out so): ra->phys[r] is r's row among the
 * ra->colours rows of 4-byte lanes (r of 32 bits or fewer) or the
 * ra->wide rows of 8-byte lanes (64 bits), -1 if no instruction names r.
 * The colouring of backend_regalloc on e's own code and blocks (built
 * afresh: e may be a machine order), with widths apart and no destination
 * sharing a row with a register its instruction reads (regalloc.c says
 * why).  0 ok, -1 out of memory or too large; free with
 * backend_regalloc_free either way. */
int backend_reg_rows(const Entry *e, RegAlloc *ra);

/* ---- if-conversion (ifconv.c) -------------------------------------------- */
/* ptxas guards a short forward branch's few instructions instead of jumping
 * around them; every warp then issues them.  BACKEND_IFCONV_MAX: the most
 * machine instructions it converts.  Measured on the H100's shared-memory
 * instruction counts of scan_blelloch (kernels_val.cu): its up-sweep's
 * `if (t < d)` body of 10 machine instructions is guarded (1760 shared loads
 * and 1088 stores at n=4096 need it), the down-sweep's 12 are not. */
enum { BACKEND_IFCONV_MAX = 10 };
/* Convert m's short branches in place (m: a machine entry).  Returns how
 * many, or -1 out of memory. */
int backend_if_convert(Entry *m);

/* ---- loop unrolling (unroll.c) ------------------------------------------- */
/* ptxas unrolls a small counted loop further than nvcc did: a copy of e
 * with each such loop unrolled (a trip test, the copies, the loop as
 * written for the rest) in *u, and *src[pc] = e's pc each of *u's comes
 * from.  Returns how many loops (0: *u NULL), -1 out of memory. */
enum { BACKEND_UNROLL_FACTOR = 4 };   /* ptxas's factor (unroll.c) */
int backend_unroll(const Entry *e, Entry **u, uint32_t **src);

/* ---- vector shared loads (vectorize.c) ----------------------------------- */
/* ptxas merges a thread's neighbouring 4-byte shared loads whose address it
 * proves 16- (8-) byte aligned into LDS.128 (LDS.64).  Merge them in m (a
 * machine entry; vars: the program's, for the shared layout).  Returns how
 * many groups, or -1 out of memory. */
int backend_vectorize(Entry *m, const Var *vars, int nvars);

/* ---- the pass ------------------------------------------------------------ */
/* Account, schedule, allocate, if-convert and vectorise: builds e->machine
 * and e->morder (vars: the program's variables, for the shared layout).
 * 0 ok, -1 out of memory. */
int backend_run(Entry *e, const Var *vars, int nvars);
/* --disasm: the machine order of entry ei, its registers and live ranges,
 * as comments (backend_view.c). */
void backend_disasm(const Program *p, int ei, FILE *out);
/* What machine entry m does as ptxas does ("2 loops unrolled 4 times, 1
 * short branch guarded instead (if-conversion), ..."), into buf; 0 if
 * nothing. */
int backend_describe(const Entry *m, char *buf, size_t n);

/* The entry the SM issues: e->machine when machine is set and the pass ran. */
static inline const Entry *backend_entry(const Entry *e, int machine)
{
    return machine && e->machine ? e->machine : e;
}

#endif
