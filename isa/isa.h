/* isa.h - the gpusim ISA: a subset of PTX, pre-decoded for fast execution.
 *
 * Owns the opcode enum (from isa.def), data types, modifiers, the decoded
 * instruction (Instr) and the assembled program (Program): entries, their
 * code, registers, variables, and the host-side directives of the kernel
 * file (.define, .buffer, .launch, .check).  Nothing here knows about time
 * or hardware; sim/ consumes a Program.
 */
#ifndef GPUSIM_ISA_H
#define GPUSIM_ISA_H

#include <stdint.h>
#include <stdio.h>

#include "diag.h"

/* ---- data types ------------------------------------------------------ */
#define ISA_TYPES(X) \
    X(T_NONE, "",     0, TK_NONE) \
    X(T_B8,   "b8",   8, TK_BITS) X(T_B16, "b16", 16, TK_BITS) \
    X(T_B32,  "b32", 32, TK_BITS) X(T_B64, "b64", 64, TK_BITS) \
    X(T_U8,   "u8",   8, TK_UINT) X(T_U16, "u16", 16, TK_UINT) \
    X(T_U32,  "u32", 32, TK_UINT) X(T_U64, "u64", 64, TK_UINT) \
    X(T_S8,   "s8",   8, TK_SINT) X(T_S16, "s16", 16, TK_SINT) \
    X(T_S32,  "s32", 32, TK_SINT) X(T_S64, "s64", 64, TK_SINT) \
    X(T_F32,  "f32", 32, TK_FLOAT) X(T_F64, "f64", 64, TK_FLOAT) \
    X(T_PRED, "pred", 1, TK_PRED) \
    X(T_F16,  "f16", 16, TK_FLOAT)   /* IEEE binary16 (isa/half.h) */ \
    X(T_F16X2, "f16x2", 32, TK_FLOAT) /* two .f16: bits 0-15 the first, 16-31 the second */ \
    X(T_BF16, "bf16", 16, TK_FLOAT)  /* bfloat16: the top half of an f32 */ \
    X(T_BF16X2, "bf16x2", 32, TK_FLOAT)

typedef enum TypeKind { TK_NONE, TK_BITS, TK_UINT, TK_SINT, TK_FLOAT, TK_PRED } TypeKind;

#define X(e, n, b, k) e,
typedef enum DataType { ISA_TYPES(X) T_COUNT } DataType;
#undef X

#define TMASK(t) (1u << (t))
#define TM_B8    TMASK(T_B8)
#define TM_B16   TMASK(T_B16)
#define TM_B32   TMASK(T_B32)
#define TM_B64   TMASK(T_B64)
#define TM_U32   TMASK(T_U32)
#define TM_U64   TMASK(T_U64)
#define TM_S32   TMASK(T_S32)
#define TM_S64   TMASK(T_S64)
#define TM_F32   TMASK(T_F32)
#define TM_F64   TMASK(T_F64)
#define TM_PRED  TMASK(T_PRED)
#define TM_BITS  (TM_B16 | TM_B32 | TM_B64)
#define TM_INT8  (TMASK(T_U8) | TMASK(T_S8))
#define TM_SINT  (TMASK(T_S16) | TM_S32 | TM_S64)
#define TM_INT   (TMASK(T_U16) | TM_U32 | TM_U64 | TM_SINT)
#define TM_F16   TMASK(T_F16)
#define TM_F16X2 TMASK(T_F16X2)
#define TM_BF16  TMASK(T_BF16)
#define TM_BF16X2 TMASK(T_BF16X2)
#define TM_HALF  (TM_F16 | TM_F16X2 | TM_BF16 | TM_BF16X2)   /* the 16-bit floats, scalar and paired */
#define TM_FLT   (TM_F32 | TM_F64)
#define TM_MEMTYPES (TM_B8 | TM_BITS | TM_INT8 | TM_INT | TM_FLT)

/* Width and kind by table, inline: the simulator asks per instruction and
 * per lane (isa.c fills the tables from ISA_TYPES). */
extern const uint8_t isa_type_bits_of[T_COUNT], isa_type_kind_of[T_COUNT];
static inline int isa_type_bits(DataType t) { return t < T_COUNT ? isa_type_bits_of[t] : 0; }   /* 8..64; 1 for .pred */
static inline TypeKind isa_type_kind(DataType t) { return t < T_COUNT ? (TypeKind)isa_type_kind_of[t] : TK_NONE; }
const char *isa_type_name(DataType t);  /* "u32" */
/* A host value for an element of integer type t (n bits): it fits when a C
 * cast to t keeps it, read as signed or as unsigned: -2^(n-1) to 2^n - 1
 * (any int64_t when n is 64: its bits).  isa_int_canon: its low n bits,
 * extended by t's signedness (what the element then reads as). */
int isa_int_fits(DataType t, int64_t v);
int64_t isa_int_canon(DataType t, int64_t v);
/* .f16 .f16x2 .bf16 .bf16x2: TK_FLOAT, but not f32 even at 32 bits */
static inline int isa_type_is_half(DataType t) { return t < 32 && (TMASK(t) & TM_HALF) != 0; }
/* 2 for the paired types (.f16x2, .bf16x2), else 1 */
static inline int isa_type_lanes(DataType t) { return t == T_F16X2 || t == T_BF16X2 ? 2 : 1; }
DataType isa_type_lookup(const char *name, int len);  /* T_NONE if unknown */

/* ---- operand formats and unit classes -------------------------------- */
/* Operand slot layout per format (Instr.opd[]):
 *   FMT_D_A   d=opd[0] a=opd[1]          FMT_D_AB  d a b      FMT_D_ABC d a b c
 *   FMT_SETP  p=opd[0] a=opd[1] b=opd[2] [c=opd[3] with .and/.or/.xor] [q=opd[5]]
 *   FMT_SELP  d a b c(pred)            FMT_LD    d=opd[0] [a]=opd[1]
 *   FMT_ST    [a]=opd[0] b=opd[1]         FMT_ATOM  d [a]=opd[1] b [c]
 *   FMT_RED   [a]=opd[0] b=opd[1]         FMT_BRA   label=opd[0]
 *   FMT_BAR   a [b]                     FMT_MASK  membermask=opd[0]
 *   FMT_VOTE  d a(pred) membermask      FMT_SHFL  d[|p=opd[5]] a b c membermask
 *   FMT_D     d                         FMT_NONE  -
 *   FMT_CALL  [(rets),] func[, (args)]: opd[0] = callee pc (OPD_LABEL),
 *             opd[1].imm = the entry's CallSite
 *   FMT_CP    [d]=opd[0] (shared) [a]=opd[1] (global) size=opd[2] [c=opd[3]]
 *   FMT_SET   d a b [c(pred) with .and/.or/.xor]   FMT_D_ABCD d a b c e */
typedef enum Format {
    FMT_NONE, FMT_D, FMT_D_A, FMT_D_AB, FMT_D_ABC, FMT_SETP, FMT_SELP,
    FMT_LD, FMT_ST, FMT_ATOM, FMT_RED, FMT_BRA, FMT_BAR, FMT_MASK,
    FMT_VOTE, FMT_SHFL, FMT_CALL, FMT_CP, FMT_SET, FMT_D_ABCD
} Format;

/* Unit classes in the table; isa_unit() resolves UC_ARITH by type. */
typedef enum UnitClass { UC_ARITH, UC_SFU, UC_MEM, UC_CTRL, UC_SYNC } UnitClass;

/* Functional units the timing model schedules onto. */
typedef enum Unit { UNIT_ALU, UNIT_FP32, UNIT_FP64, UNIT_SFU, UNIT_LSU, UNIT_CTRL, UNIT_SYNC } Unit;

/* ---- modifiers --------------------------------------------------------- */
#define MC_SPACE    (1u << 0)
#define MC_CACHE    (1u << 1)
#define MC_VEC      (1u << 2)
#define MC_VOLATILE (1u << 3)
#define MC_TO       (1u << 4)
#define MC_RND      (1u << 5)
#define MC_RNDI     (1u << 6)
#define MC_FTZ      (1u << 7)
#define MC_SAT      (1u << 8)
#define MC_APPROX   (1u << 9)
#define MC_MULMODE  (1u << 10)
#define MC_CMP      (1u << 11)
#define MC_BOOL     (1u << 12)
#define MC_ATOMOP   (1u << 13)
#define MC_VOTE     (1u << 14)
#define MC_SHFL     (1u << 15)
#define MC_UNI      (1u << 16)
#define MC_ALIGNED  (1u << 17)
#define MC_LEVEL    (1u << 18)
#define MC_SEM      (1u << 19)
#define MC_RELU     (1u << 20)
#define MC_SATFIN   (1u << 21)
#define MC_NOFTZ    (1u << 22)
#define MC_NAN      (1u << 23)
#define MC_SHIFTAMT (1u << 24)

typedef enum Space { SP_NONE, SP_GLOBAL, SP_SHARED, SP_CONST, SP_LOCAL, SP_PARAM, SP_COUNT } Space;
typedef enum Cache { CACHE_NONE, CACHE_CA, CACHE_CG, CACHE_CS, CACHE_LU, CACHE_CV, CACHE_WB, CACHE_WT } Cache;
/* Floating rounding (.rn...) and integer rounding of cvt (.rni...). */
typedef enum Rounding { RND_NONE, RND_RN, RND_RZ, RND_RM, RND_RP, RND_RNI, RND_RZI, RND_RMI, RND_RPI } Rounding;
typedef enum MulMode { MUL_NONE, MUL_LO, MUL_HI, MUL_WIDE } MulMode;
typedef enum Cmp {
    CMP_NONE, CMP_EQ, CMP_NE, CMP_LT, CMP_LE, CMP_GT, CMP_GE,
    CMP_LO, CMP_LS, CMP_HI, CMP_HS,                       /* unsigned */
    CMP_EQU, CMP_NEU, CMP_LTU, CMP_LEU, CMP_GTU, CMP_GEU, /* unordered floats */
    CMP_NUM, CMP_NAN
} Cmp;
typedef enum BoolOp { BOOL_NONE, BOOL_AND, BOOL_OR, BOOL_XOR } BoolOp;
typedef enum AtomOp {
    ATOM_NONE, ATOM_ADD, ATOM_MIN, ATOM_MAX, ATOM_INC, ATOM_DEC,
    ATOM_EXCH, ATOM_CAS, ATOM_AND, ATOM_OR, ATOM_XOR
} AtomOp;
typedef enum VoteMode { VOTE_NONE, VOTE_ALL, VOTE_ANY, VOTE_UNI, VOTE_BALLOT } VoteMode;
typedef enum ShflMode { SHFL_NONE, SHFL_UP, SHFL_DOWN, SHFL_BFLY, SHFL_IDX } ShflMode;
typedef enum Level { LEVEL_NONE, LEVEL_CTA, LEVEL_GL, LEVEL_SYS, LEVEL_GPU } Level;
typedef enum Sem { SEM_NONE, SEM_SC, SEM_ACQ_REL, SEM_RELAXED, SEM_ACQUIRE, SEM_RELEASE } Sem;

/* Instr.flags */
#define IF_FTZ      (1u << 0)
#define IF_SAT      (1u << 1)
#define IF_APPROX   (1u << 2)
#define IF_FULL     (1u << 3)
#define IF_UNI      (1u << 4)
#define IF_TO       (1u << 5)
#define IF_NC       (1u << 6)
#define IF_VOLATILE (1u << 7)
#define IF_ALIGNED  (1u << 8)
#define IF_RELU     (1u << 9)    /* halves: negative results clamp to +0, NaN to the canonical NaN */
#define IF_SATFIN   (1u << 10)   /* cvt .satfinite: past the largest finite value clamps to it */
#define IF_NOFTZ    (1u << 11)   /* atom/red .add.noftz on halves: subnormals kept */
#define IF_NAN      (1u << 12)   /* min/max .NaN: a NaN operand gives the canonical NaN */
#define IF_SHIFTAMT (1u << 13)   /* bfind.shiftamt */
#define IF_NOUNROLL (1u << 14)   /* the first instruction after .pragma "nounroll": its loop stays rolled (unroll.c) */

/* ---- opcodes ----------------------------------------------------------- */
#define ISA_OP(e, m, f, u, t, mo, mi, d) e,
typedef enum Opcode {
#include "isa.def"
    OP_COUNT
} Opcode;
#undef ISA_OP

typedef struct OpInfo {
    const char *mnemonic;
    const char *enum_name;
    Format format;
    UnitClass unit;
    uint32_t types;    /* TM_* */
    uint32_t mods;     /* MC_* */
    int minst;         /* machine instructions in the common case (isa.def MI) */
    const char *meaning;
} OpInfo;

extern const OpInfo isa_ops[OP_COUNT];

/* ---- special registers ------------------------------------------------- */
#define ISA_SREGS(X) \
    X(SR_TID_X, "%tid.x") X(SR_TID_Y, "%tid.y") X(SR_TID_Z, "%tid.z") \
    X(SR_NTID_X, "%ntid.x") X(SR_NTID_Y, "%ntid.y") X(SR_NTID_Z, "%ntid.z") \
    X(SR_CTAID_X, "%ctaid.x") X(SR_CTAID_Y, "%ctaid.y") X(SR_CTAID_Z, "%ctaid.z") \
    X(SR_NCTAID_X, "%nctaid.x") X(SR_NCTAID_Y, "%nctaid.y") X(SR_NCTAID_Z, "%nctaid.z") \
    X(SR_LANEID, "%laneid") X(SR_WARPID, "%warpid") X(SR_NWARPID, "%nwarpid") \
    X(SR_SMID, "%smid") X(SR_NSMID, "%nsmid") X(SR_CLOCK, "%clock") X(SR_CLOCK64, "%clock64") \
    X(SR_GLOBALTIMER, "%globaltimer")   /* nanoseconds: %clock64 at gpu.core_clock_mhz */ \
    X(SR_LANEMASK_EQ, "%lanemask_eq") X(SR_LANEMASK_LT, "%lanemask_lt") \
    X(SR_LANEMASK_LE, "%lanemask_le") X(SR_LANEMASK_GT, "%lanemask_gt") \
    X(SR_LANEMASK_GE, "%lanemask_ge") \
    X(SR_WARP_SZ, "WARP_SZ")   /* PTX's predefined identifier: the run-time warp size */

#define X(e, n) e,
typedef enum SpecialReg { ISA_SREGS(X) SR_COUNT } SpecialReg;
#undef X
extern const char *const isa_sreg_names[SR_COUNT];

/* ---- decoded instructions ---------------------------------------------- */
typedef enum OperandKind {
    OPD_NONE,
    OPD_REG,    /* value register r[0] */
    OPD_PRED,   /* predicate register r[0]; neg = written as !%p */
    OPD_IMM,    /* imm: integer value or IEEE bits of the instruction's float type */
    OPD_SREG,   /* special register r[0] (SpecialReg) */
    OPD_SYM,    /* address of variable sym (+ imm bytes) */
    OPD_MEM,    /* [r[0] + sym + imm]: r[0] = REG_NONE without a base register,
                   sym = -1 without a variable; param loads use sym = param */
    OPD_LABEL,  /* imm = target pc */
    OPD_VEC     /* {r[0], ..., r[n-1]}; REG_NONE for the '_' sink */
} OperandKind;

#define REG_NONE 0xffffu

typedef struct Operand {
    uint8_t kind;     /* OperandKind */
    uint8_t neg;      /* OPD_PRED: !%p */
    uint8_t n;        /* OPD_VEC: element count */
    uint8_t is_param; /* OPD_MEM: sym names a .param, not a variable: 1 a
                         kernel parameter, 2 a .param of the running .func's
                         frame (its arguments, return values, call scratch) */
    uint16_t r[4];
    int32_t sym;
    int64_t imm;
} Operand;

enum { ISA_MAX_OPS = 6 };

typedef struct Instr {
    uint8_t op;         /* Opcode */
    uint8_t type;       /* instruction type (cvt: destination type) */
    uint8_t stype;      /* cvt: source type */
    uint8_t space;      /* Space: ld/st/atom/red/cvta */
    uint8_t vec;        /* 1, 2 or 4 */
    uint8_t cache;      /* Cache */
    uint8_t rnd;        /* Rounding */
    uint8_t mul;        /* MulMode */
    uint8_t cmp;        /* Cmp */
    uint8_t boolop;     /* BoolOp */
    uint8_t sub;        /* AtomOp / VoteMode / ShflMode by format */
    uint8_t level;      /* Level */
    uint8_t sem;        /* Sem */
    uint8_t unit;       /* Unit (derived by isa_unit) */
    uint8_t nops;       /* highest used slot + 1 */
    uint8_t guard_neg;  /* @!%p */
    uint16_t guard;     /* predicate index, REG_NONE if unguarded */
    uint16_t flags;     /* IF_* */
    uint8_t minst;      /* machine (SASS) instructions it becomes (backend.c) */
    uint8_t mclass;     /* MClass of the machine form (backend.h) */
    uint32_t reconv;    /* conditional branches: reconvergence pc (ipdom) */
    uint32_t line, col; /* source position */
    Operand opd[ISA_MAX_OPS];
} Instr;

Unit isa_unit(const Instr *in);
/* Width in bits of the register an operand slot of this instruction needs
 * (0: any/none, 1: predicate).  The assembler checks registers against it;
 * the executor may rely on it. */
int isa_operand_bits(const Instr *in, int slot);

/* ---- registers, variables, entries, host directives -------------------- */
typedef struct RegInfo {
    char *name;       /* "%r1" */
    uint8_t bits;     /* 16, 32 or 64 (1 for predicates) */
    uint8_t type;     /* declared DataType or T_NONE */
    uint8_t used;
} RegInfo;

typedef struct Param {
    char *name;
    uint8_t type;     /* DataType */
    uint32_t offset, size;
} Param;

typedef struct Var {
    char *name;
    uint8_t space;    /* SP_SHARED, SP_CONST, SP_LOCAL */
    uint8_t type;     /* element type */
    int entry;        /* owning entry, -1 for module scope */
    uint32_t align, size, offset;  /* offset within its space (per entry for
                                      shared/local, module for const) */
    uint8_t dynamic;  /* .extern .shared NAME[]: at Entry.dyn_shared_offset,
                         its size given by .launch shared= */
    int buffer;       /* .global (module scope): the BufferSpec that holds it */
    int line, col;
} Var;

typedef struct Label { char *name; uint32_t pc; } Label;

typedef struct BasicBlock {
    uint32_t first, last;     /* pc range, inclusive */
    int succ[2], nsucc;       /* successor block ids; -1 is the exit */
    int ipdom;                /* immediate post-dominator block, -1 = exit */
} BasicBlock;

/* One `call`: the callee and the .params passed (indices into
 * Entry.params: the nrets return values, then the nargs arguments). */
typedef struct CallSite {
    char *name;               /* the callee as written */
    int func;                 /* Program.funcs index, or CALL_VPRINTF */
    int linked;               /* its LinkedFunc in the calling entry */
    int nrets, nargs;
    int *params;
    int line, col;            /* of the callee's name, for errors when linking */
} CallSite;
/* CallSite.func of a call of nvcc's .extern .func vprintf (CUDA's printf):
 * built in (sim/core/printf.h), nothing linked. */
#define CALL_VPRINTF (-2)

/* A .func linked into an entry: its code, registers and .params were
 * appended to the entry's, from these bases. */
typedef struct LinkedFunc {
    int func;
    uint32_t pc;              /* first instruction */
    int reg_base, nregs, pred_base, npreds;
    int param_base;           /* its .params: rets, args, call scratch */
    uint32_t frame_bytes;     /* its frame: every .param of it */
} LinkedFunc;

typedef struct Entry {
    char *name;
    int line, col;
    Param *params; int nparams;   /* the signature: kernel parameters (an
                                     entry) or return values then arguments
                                     (a .func, nrets of them first) */
    int nall_params;              /* params[nparams..] are .param declared in
                                     bodies (call scratch) and, linked in, the
                                     .funcs' own: frame .params (is_param 2) */
    int is_func, nrets;
    uint32_t frame_bytes;         /* the .params of a frame: an entry's call
                                     scratch; a .func's signature and scratch */
    CallSite *calls; int ncalls;
    LinkedFunc *linked; int nlinked;
    int ncode_own;                /* code before the linked .funcs' */
    uint32_t param_bytes;
    Instr *code; int ncode;
    RegInfo *regs; int nregs;     /* value registers */
    RegInfo *preds; int npreds;   /* predicate registers */
    Label *labels; int nlabels;
    BasicBlock *blocks; int nblocks;
    uint32_t shared_bytes;        /* static shared memory per CTA */
    uint32_t dyn_shared_offset;   /* where dynamic shared memory starts: after
                                     the static, aligned for the .extern arrays */
    uint32_t local_bytes;         /* local memory per thread */
    int regs_per_thread;          /* for occupancy */
    int regs_stated;              /* 1 if .nregs gave it */
    int reqntid[3];               /* .reqntid, 0 if absent */
    int maxnreg;                  /* .maxnreg, 0 if absent */
    /* The back end (backend.h): the same entry as the SM issues it.  In
     * `machine`, code is in machine order (morder[mpc] = source pc) and
     * regs_per_thread is the allocated count; NULL if the pass was not run. */
    struct Entry *machine;
    uint32_t *morder;
    int regs_spilled;             /* registers beyond .maxnreg (counted, not spilled) */
    int if_converted, vectorized; /* machine entry: branches guarded away, shared-load groups merged (backend.h) */
    int regs_order, regs_ptx;     /* machine entry: registers the colouring of its order and of the PTX order needs */
    int unrolled;                 /* machine entry: loops unrolled 4 times, as ptxas does (unroll.c); if
                                     any, its regs, preds and blocks are its own */
    uint32_t *uorder;             /* machine entry of an unrolled one: each pc's pc in the unrolled code (morder: in the source) */
    int prologue_minst;           /* machine instructions each warp runs before pc 0 */
} Entry;

typedef enum InitKind { INIT_ZERO, INIT_RANDOM, INIT_IOTA, INIT_FILL, INIT_FILE, INIT_VALUES, INIT_DATA, INIT_EXPR } InitKind;

/* expr(EXPR): the expression in postfix order, run per element (the host
 * front end evaluates it, sim/front/host.c). */
enum {
    EXPR_CONST, EXPR_INDEX, EXPR_NEG, EXPR_NOT, EXPR_LNOT, EXPR_MIN, EXPR_MAX,
    EXPR_ADD, EXPR_SUB, EXPR_MUL, EXPR_DIV, EXPR_REM, EXPR_SHL, EXPR_SHR, EXPR_AND, EXPR_OR, EXPR_XOR
};
typedef struct ExprOp { int op; int64_t v; } ExprOp;

typedef struct BufferSpec {
    char *name;
    uint8_t type;      /* element DataType */
    uint64_t count;
    uint8_t init;      /* InitKind */
    uint64_t seed;
    /* A float buffer's numbers are doubles; an integer buffer's are exact
     * (ilo, ihi, ivalue, ivalues: the element's bits, sign-extended from
     * its width; a .u64 above 2^63 is negative here). */
    double lo, hi;     /* random range; iota: start (lo) and step (hi) */
    int64_t ilo, ihi;
    double value;      /* fill */
    int64_t ivalue;
    char *path;        /* file */
    double *values;    /* values(v0, v1, ...): count of them */
    int64_t *ivalues;
    ExprOp *expr; int nexpr;   /* INIT_EXPR */
    uint8_t *data;     /* INIT_DATA: the bytes of a .global's initializer */
    uint32_t data_bytes;
    int global_var;    /* 1 + the .global Var it holds (module variable), 0 for a plain .buffer */
    uint8_t host_init; /* a .buffer line gave its initialiser (over the .global's) */
    int line, col;
} BufferSpec;

typedef enum ArgKind { ARG_BUFFER, ARG_INT, ARG_FLOAT } ArgKind;

typedef struct LaunchArg {
    uint8_t kind;      /* ArgKind */
    int buffer;        /* ARG_BUFFER */
    int64_t i;         /* ARG_INT */
    double f;          /* ARG_FLOAT */
    int line, col;
} LaunchArg;

/* Host loops (`.for VAR = A, B [, STEP]` ... `.end`) are expanded by the
 * assembler: each iteration's .launch lines become launches of their own,
 * evaluated with the loop variables' values of that iteration. */
enum { MAX_FOR_DEPTH = 8, MAX_FOR_COUNT = 1000000 };  /* loops nested; launches and iterations in all */

typedef struct LaunchSpec {
    int entry;
    uint32_t grid[3], block[3];
    uint32_t dyn_shared_bytes;   /* shared=BYTES: dynamic shared memory per block */
    LaunchArg *args; int nargs;
    int line, col;
    int nloop;                       /* enclosing .for loops, outermost first; 0 outside any */
    int loop_var[MAX_FOR_DEPTH];     /* their variables (indices into Program.loop_vars) */
    int64_t loop_val[MAX_FOR_DEPTH]; /* and the values this launch was made with */
} LaunchSpec;

/* .check NAME [ref=FUNC(args)] [equals=BUF] [file=PATH] [tol=X] [rtol=X]:
 * which host reference to compare with is resolved by sim/ (it owns the
 * reference implementations); the assembler only checks the syntax and that
 * buffers exist. */
typedef struct CheckSpec {
    int buffer;
    char *ref;           /* host reference function, or NULL */
    LaunchArg *args; int nargs;
    int equals;          /* other buffer, -1 if none */
    char *path;          /* file to compare with, or NULL */
    double tol, rtol;    /* absolute and relative tolerance (floats) */
    int line, col;
} CheckSpec;

typedef struct Define {
    char *name;
    int64_t value;
    int overridden;      /* set with -D */
    int line;
} Define;

/* A source file of the program: the kernel file (files[0]) or one that
 * `.include` brought in.  Their texts follow each other in Program.source,
 * so a "line" everywhere (Instr.line, stats, faults) is a line of that
 * concatenation: the kernel file's own lines keep their numbers, and
 * program_where() turns any line back into a file and its line there. */
typedef struct SrcFile {
    char *name;          /* the path as opened (relative to the working directory) */
    int first_line;      /* the program line of its line 1 */
    int nlines;
    int parent;          /* the including file; -1 for the kernel file */
    int include_line;    /* program line of the .include in the parent */
} SrcFile;

/* The CUDA source line of a PTX line, from nvcc's `.loc FILE LINE COL`
 * (`-lineinfo`); file is the `.file` number, 0 where no .loc applies. */
typedef struct SrcLoc { uint32_t file, line; } SrcLoc;
typedef struct CudaFile {     /* .file NUM "PATH" of one PTX file */
    uint32_t num;
    int src;                  /* the Program.files entry that declared it */
    char *path;
} CudaFile;

typedef struct Program {
    char *filename;
    char *source;                  /* every file's text, NUL-terminated */
    uint32_t *line_starts; int nlines;
    SrcFile *files; int nfiles;    /* files[0] is the kernel file */
    SrcLoc *locs;                  /* [nlines + 1] by program line, or NULL without .loc */
    CudaFile *cuda_files; int ncuda_files;
    Entry *entries; int nentries;
    Entry *funcs; int nfuncs;      /* .func device functions, as written (entries link them in) */
    Var *vars; int nvars;
    uint8_t *const_data; uint32_t const_bytes;   /* initial .const image */
    Define *defines; int ndefines;
    BufferSpec *buffers; int nbuffers;
    LaunchSpec *launches; int nlaunches;
    char **loop_vars; int nloop_vars;  /* names of the .for variables, in order of first use */
    CheckSpec *checks; int nchecks;
} Program;

/* Source text of a line (1-based), without its newline; "" if out of range.
 * *len receives the length. */
const char *program_line(const Program *p, int line, int *len);
/* Errors from index `from` on that name p->filename with a program line:
 * the file (of an .include) and line they really are at. */
void program_fix_diags(const Program *p, DiagList *dl, int from);
/* The file a program line is in, and (*local) its line there. */
const char *program_where(const Program *p, int line, int *local);
/* The CUDA file (its base name) and (*cuda_line) line that .loc gives a
 * program line, or NULL. */
const char *program_cuda_line(const Program *p, int line, int *cuda_line);
/* A line for people: "12" for a line of the kernel file, "kernels.ptx:55"
 * for an included one, then with_cuda " (kernels.cu:21)" where .loc names
 * one. */
const char *program_line_label(const Program *p, int line, int with_cuda, char *buf, size_t n);
int program_find_entry(const Program *p, const char *name);
/* Shared memory a block of launch l needs: the entry's static shared
 * memory, then (with shared=BYTES) the dynamic part after it. */
uint32_t program_launch_shared(const Program *p, const LaunchSpec *l);
int program_find_buffer(const Program *p, const char *name);
/* Whether any launch was made by a .for loop (the reports then add the
 * per-launch table). */
int program_has_loops(const Program *p);
/* Launch l's loop variables as "t=3 i=2" ("" outside loops), into buf. */
const char *program_loop_text(const Program *p, const LaunchSpec *l, char *buf, size_t n);
void program_free(Program *p);

/* ---- documentation ----------------------------------------------------- */
/* docs/isa.md, generated from isa.def and the tables in isa.c. */
void isa_doc(FILE *out);

#endif
