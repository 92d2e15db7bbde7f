/* exec.c - what each instruction does, lane by lane (PTX semantics).
 *
 * Knows semantics, not time.  Called by warp_issue() for the lanes whose
 * guard is true.  Registers hold up to 64 bits; a value is read at the
 * instruction's type (sign- or zero-extended, or as IEEE bits) and written
 * back masked to the register's width.  Where PTX leaves a result undefined
 * we pick one and document it in docs/isa.md: integer division by zero gives
 * all ones, remainder by zero gives the dividend (both counted).
 */
#include <fenv.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "isa/half.h"
#include "sim/core/exec.h"
#include "sim/base/grow.h"
#include "sim/core/printf.h"

#define FOR_LANES(m, l) for (int l = 0; l < ws; l++) if (((m) >> l) & 1u)

/* Register rows are either the same row or disjoint, and operand
 * temporaries are separate arrays, so lane l of a row loop never depends on
 * another lane.  Tell the vectoriser, which otherwise checks for overlap at
 * run time and falls back to scalar code for in-place `add r1, r1, 1`. */
#if defined(__clang__)
#define LANES_INDEPENDENT _Pragma("clang loop vectorize(assume_safety)")
#elif defined(__GNUC__)
#define LANES_INDEPENDENT _Pragma("GCC ivdep") _Pragma("GCC unroll 4")
#else
#define LANES_INDEPENDENT
#endif

/* Run the statement for each lane l in m: a plain loop the compiler can
 * vectorise when all of the warp's lanes are active (x->full), else a walk
 * over the set bits.  Expects x and ws in scope. */
#define EACH_LANE(m, l, ...) do { \
        if ((m) == x->full) { LANES_INDEPENDENT for (int l = 0; l < ws; l++) { __VA_ARGS__; } } \
        else for (LaneMask m_ = (m); m_; m_ &= m_ - 1) { int l = __builtin_ctz(m_); __VA_ARGS__; } \
    } while (0)

/* ---- values ---------------------------------------------------------------- */
static inline uint64_t zx(uint64_t v, int bits) { return bits >= 64 ? v : v & ((1ull << bits) - 1); }
static inline int64_t sx(uint64_t v, int bits)
{
    return bits >= 64 ? (int64_t)v : (int64_t)(v << (64 - bits)) >> (64 - bits);
}
static inline float f32(uint64_t v) { uint32_t u = (uint32_t)v; float f; memcpy(&f, &u, 4); return f; }
static inline double f64(uint64_t v) { double d; memcpy(&d, &v, 8); return d; }
static inline uint64_t bf32(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static inline uint64_t bf64(double d) { uint64_t u; memcpy(&u, &d, 8); return u; }
/* An arithmetic result's bits, a NaN's included, as an H100 gives them,
 * whichever path computed it (the row loops or the per-lane switch) and
 * whatever the host's FPU would choose: IEEE 754 and PTX leave a NaN's
 * payload to the implementation, and x86 picks among NaN operands by
 * their position in the host instruction, which the two paths did not
 * share.  Measured (tests/validation/h100/measured/nan_bits.csv, from
 * tests/validation/cuda/nan_bits.cu: every op on 13 values, NaNs of each
 * kind among them):
 * - .f32: every NaN result is 0x7FFFFFFF, abs and neg of a NaN too;
 * - .f64: the payload of a NaN operand, quieted, chosen by position:
 *   add sub mul min max b before a; div a before b; fma b, then c, then
 *   a; abs, neg and sqrt keep their operand's (sign included); a NaN made
 *   from numbers (inf - inf, 0 * inf, sqrt(-1)) is 0xFFF8000000000000.
 * min and max of one NaN give the other operand (fminmax). */
#define NAN32 0x7fffffffu
#define NAN64 0xfff8000000000000ull
#define QUIET64 (1ull << 51)
static inline int isnan64(uint64_t v) { return (v & ~(1ull << 63)) > 0x7ff0000000000000ull; }
static inline uint64_t rf32(float f) { return f != f ? NAN32 : bf32(f); }
/* d computed from n operands, p0 p1 p2 (their bits) in the order the H100
 * takes a NaN's payload from */
static inline uint64_t rf64n(double d, uint64_t p0, uint64_t p1, uint64_t p2, int n)
{
    if (d == d) return bf64(d);
    return isnan64(p0) ? p0 | QUIET64 : n > 1 && isnan64(p1) ? p1 | QUIET64 : n > 2 && isnan64(p2) ? p2 | QUIET64 : NAN64;
}

typedef struct X {
    Kernel *k;
    Warp *w;
    const Instr *in;
    int ws;
    LaneMask full;               /* all ws lanes */
    int bits;                    /* of the instruction's type */
    TypeKind kind;
    DeferLog *defer;             /* k->defer for a store or atomic at issue, else NULL: global lanes wait for exec_replay */
} X;

static uint64_t sreg(const X *x, int s, int lane)
{
    const Kernel *k = x->k;
    const Cta *c = x->w->cta;
    const uint32_t *b = k->spec->block;
    uint32_t t = (uint32_t)(x->w->id * x->ws + lane);
    uint32_t all = x->ws == 32 ? 0xffffffffu : (1u << x->ws) - 1;
    switch ((SpecialReg)s) {
    case SR_TID_X: return t % b[0];
    case SR_TID_Y: return (t / b[0]) % b[1];
    case SR_TID_Z: return t / (b[0] * b[1]);
    case SR_NTID_X: return b[0];
    case SR_NTID_Y: return b[1];
    case SR_NTID_Z: return b[2];
    case SR_CTAID_X: return c->id[0];
    case SR_CTAID_Y: return c->id[1];
    case SR_CTAID_Z: return c->id[2];
    case SR_NCTAID_X: return k->spec->grid[0];
    case SR_NCTAID_Y: return k->spec->grid[1];
    case SR_NCTAID_Z: return k->spec->grid[2];
    case SR_LANEID: return (uint64_t)lane;
    case SR_WARPID: return (uint64_t)x->w->id;
    case SR_NWARPID: return (uint64_t)k->max_warps_per_sm;
    case SR_SMID: return (uint64_t)c->smid;
    case SR_NSMID: return (uint64_t)k->nsms;
    case SR_CLOCK: return (uint32_t)k->clock;
    case SR_CLOCK64: return k->clock;
    case SR_GLOBALTIMER: return (uint64_t)((double)k->clock * k->ns_per_clock);
    case SR_LANEMASK_EQ: return 1u << lane;
    case SR_LANEMASK_LT: return (1u << lane) - 1;
    case SR_LANEMASK_LE: return (((1u << lane) << 1) - 1) & all;
    case SR_LANEMASK_GT: return all & ~(((1u << lane) << 1) - 1);
    case SR_LANEMASK_GE: return all & ~((1u << lane) - 1);
    case SR_WARP_SZ: return (uint64_t)x->ws;      /* PTX's WARP_SZ = sm.warp_size */
    case SR_COUNT: break;
    }
    return 0;
}

/* A variable's offset in its space; dynamic shared arrays (.extern .shared
 * NAME[]) start where the entry's static shared memory ends, and module
 * variables (.global) are their buffers' global addresses. */
static inline uint64_t var_offset(const X *x, int sym)
{
    const Var *v = &x->k->prog->vars[sym];
    if (v->space == SP_GLOBAL) return x->k->var_base[sym];
    return v->dynamic ? x->k->entry->dyn_shared_offset : v->offset;
}

/* Raw 64-bit value of a source operand for a lane. */
static inline uint64_t val(const X *x, const Operand *o, int lane)
{
    switch ((OperandKind)o->kind) {
    case OPD_REG: return reg_get(x->k, x->w, o->r[0], lane);
    case OPD_IMM: return (uint64_t)o->imm;
    case OPD_SREG: return sreg(x, o->r[0], lane);
    case OPD_SYM: return var_offset(x, o->sym) + (uint64_t)o->imm;
    case OPD_PRED: return ((x->w->p[o->r[0]] >> lane) & 1u) ^ o->neg;
    default: return 0;
    }
}

static inline void wreg(const X *x, const Operand *o, int lane, uint64_t v)
{
    if (o->kind == OPD_PRED) {
        LaneMask *p = &x->w->p[o->r[0]];
        *p = (*p & ~(1u << lane)) | ((LaneMask)(v & 1) << lane);
        return;
    }
    reg_put(x->k, x->w, o->r[0], lane, zx(v, x->k->entry->regs[o->r[0]].bits));
}

/* ---- floating point ------------------------------------------------------------ */
static int fe_mode(int rnd)
{
    switch (rnd) {
    case RND_RZ: case RND_RZI: return FE_TOWARDZERO;
    case RND_RM: case RND_RMI: return FE_DOWNWARD;
    case RND_RP: case RND_RPI: return FE_UPWARD;
    default: return FE_TONEAREST;
    }
}

static inline float ftz32(float f) { return (fpclassify(f) == FP_SUBNORMAL) ? copysignf(0.0f, f) : f; }

static double fsat(double v) { return isnan(v) ? 0.0 : v < 0.0 ? 0.0 : v > 1.0 ? 1.0 : v; }

/* PTX min/max: a NaN operand yields the other one. */
static double fminmax(double a, double b, int is_max)
{
    if (isnan(a)) return b;
    if (isnan(b)) return a;
    if (a == b) return is_max ? (signbit(a) ? b : a) : (signbit(a) ? a : b);
    return is_max ? (a > b ? a : b) : (a < b ? a : b);
}

/* ---- half precision (.f16 .f16x2 .bf16 .bf16x2) ------------------------------
 * isa/half.c owns the formats.  A .f16x2/.bf16x2 register holds two
 * elements, the first in bits 0-15 (PTX: a[0:15]), each computed alone.
 * add/sub/fma go through TwoSum and mul is exact in double, so every result
 * is rounded once from the exact value (half.c says why that is exact). */
static inline HalfFmt half_fmt(DataType t) { return t == T_BF16 || t == T_BF16X2 ? HALF_BF16 : HALF_F16; }

static HalfRound half_rnd(int rnd)
{
    switch (rnd) {
    case RND_RZ: return HALF_RZ;
    case RND_RM: return HALF_RM;
    case RND_RP: return HALF_RP;
    default: return HALF_RN;
    }
}

/* .ftz: a subnormal half becomes a zero of its sign */
static inline unsigned half_ftz(unsigned h, HalfFmt f) { return half_is_subnormal(h, f) ? h & 0x8000u : h; }

/* TwoSum (Knuth): s + *e == a + b exactly, in round-to-nearest. */
static double two_sum(double a, double b, double *e)
{
    double s = a + b, bb = s - a;
    *e = (a - (s - bb)) + (b - bb);
    return s;
}

/* PTX min/max on halves: a NaN operand yields the other (both NaN, or .NaN
 * and either: the canonical NaN); -0 is below +0.  The result is the chosen
 * operand's bits. */
static unsigned half_minmax(unsigned a, unsigned b, HalfFmt f, int is_max, int nan_wins)
{
    int na = half_is_nan(a, f), nb = half_is_nan(b, f);
    if (na || nb) return nan_wins || (na && nb) ? HALF_NAN : na ? b : a;
    double x = half_decode(a, f), y = half_decode(b, f);
    if (x == y) return ((a & 0x8000u) != 0) == is_max ? b : a;
    return (is_max ? x > y : x < y) ? a : b;
}

/* One element of add sub mul fma neg abs min max ex2 on halves. */
static unsigned half_elem(const Instr *in, HalfFmt f, unsigned a, unsigned b, unsigned c)
{
    int ftz = (in->flags & IF_FTZ) != 0;
    if (ftz) { a = half_ftz(a, f); b = half_ftz(b, f); c = half_ftz(c, f); }
    double x = half_decode(a, f), y = half_decode(b, f), e = 0, s;
    switch ((Opcode)in->op) {
    case OP_NEG: return half_is_nan(a, f) ? HALF_NAN : a ^ 0x8000u;   /* the H100 gives its NaN, not -NaN */
    case OP_ABS: return half_is_nan(a, f) ? HALF_NAN : a & 0x7fffu;
    case OP_MIN: case OP_MAX: return half_minmax(a, b, f, in->op == OP_MAX, (in->flags & IF_NAN) != 0);
    case OP_ADD: s = two_sum(x, y, &e); break;
    case OP_SUB: s = two_sum(x, -y, &e); break;
    case OP_MUL: s = x * y; break;                              /* exact: at most 22 significant bits */
    case OP_FMA: s = two_sum(x * y, half_decode(c, f), &e); break;
    case OP_EX2: s = exp2(x); break;                            /* .approx: gpusim rounds exp2 */
    default: s = 0; break;
    }
    unsigned r = half_round_pair(s, e, f, in->op == OP_FMA ? half_rnd(in->rnd) : HALF_RN);   /* fma.rz.bf16 and kin */
    if (in->flags & IF_SAT)   /* [0, 1]; NaN and -0 to +0 (as the H100) */
        r = half_is_nan(r, f) || (r & 0x8000u) ? 0 : half_decode(r, f) > 1 ? half_encode(1.0, f, HALF_RN) : r;
    if (in->flags & IF_RELU) r = half_is_nan(r, f) ? HALF_NAN : (r & 0x8000u) ? 0 : r;
    return ftz ? half_ftz(r, f) : r;
}

static uint64_t half_op(const X *x, int lane)
{
    const Instr *in = x->in;
    HalfFmt f = half_fmt((DataType)in->type);
    uint64_t ra = val(x, &in->opd[1], lane);
    uint64_t rb = in->nops > 2 ? val(x, &in->opd[2], lane) : 0;
    uint64_t rc = in->nops > 3 ? val(x, &in->opd[3], lane) : 0;
    uint64_t r = 0;
    for (int h = 0, sh = 0; h < isa_type_lanes((DataType)in->type); h++, sh += 16)
        r |= (uint64_t)half_elem(in, f, (unsigned)(ra >> sh) & 0xffffu, (unsigned)(rb >> sh) & 0xffffu,
                                 (unsigned)(rc >> sh) & 0xffffu) << sh;
    return r;
}

/* cvt into a half: .sat clamps to [0, 1], .relu negatives to +0 (NaN stays
 * a NaN: the canonical one), .satfinite what would round to infinity to
 * the largest finite value of its sign. */
static unsigned cvt_to_half(const Instr *in, double v, HalfFmt f)
{
    if (in->flags & IF_SAT) v = isnan(v) || v <= 0 ? 0.0 : v > 1 ? 1.0 : v;
    if ((in->flags & IF_RELU) && v < 0) v = 0;
    unsigned r = half_encode(v, f, half_rnd(in->rnd));
    if ((in->flags & IF_SATFIN) && (r & 0x7fffu) == half_inf(f)) r = (r & 0x8000u) | half_max_finite(f);
    return r;
}

static uint64_t float_op(const X *x, int lane, int is64)
{
    const Instr *in = x->in;
    volatile double a = 0, b = 0, c = 0;
    volatile float fa = 0, fb = 0, fc = 0;
    uint64_t ra = val(x, &in->opd[1], lane);
    uint64_t rb = in->nops > 2 ? val(x, &in->opd[2], lane) : 0;
    uint64_t rc = in->nops > 3 ? val(x, &in->opd[3], lane) : 0;
    int ftz = (in->flags & IF_FTZ) != 0;
    if (is64) { a = f64(ra); b = f64(rb); c = f64(rc); }
    else {
        fa = f32(ra); fb = f32(rb); fc = f32(rc);
        if (ftz) { fa = ftz32(fa); fb = ftz32(fb); fc = ftz32(fc); }
    }
    double r64 = 0;
    float r32 = 0;
    switch ((Opcode)in->op) {
    case OP_ADD: if (is64) r64 = a + b; else r32 = fa + fb; break;
    case OP_SUB: if (is64) r64 = a - b; else r32 = fa - fb; break;
    case OP_MUL: if (is64) r64 = a * b; else r32 = fa * fb; break;
    case OP_DIV: if (is64) r64 = a / b; else r32 = fa / fb; break;
    case OP_FMA: case OP_MAD: if (is64) r64 = fma(a, b, c); else r32 = fmaf(fa, fb, fc); break;
    case OP_MIN: if (is64) r64 = fminmax(a, b, 0); else r32 = (float)fminmax(fa, fb, 0); break;
    case OP_MAX: if (is64) r64 = fminmax(a, b, 1); else r32 = (float)fminmax(fa, fb, 1); break;
    case OP_ABS: if (is64) r64 = fabs(a); else r32 = fabsf(fa); break;
    case OP_NEG: if (is64) r64 = -a; else r32 = -fa; break;
    case OP_COPYSIGN:   /* bit operations: no rounding, flushing or NaN change */
        return is64 ? (rb & ~(1ull << 63)) | (ra & (1ull << 63)) : (rb & 0x7fffffffu) | (ra & 0x80000000u);
    case OP_RCP: if (is64) r64 = 1.0 / a; else r32 = 1.0f / fa; break;
    case OP_SQRT: if (is64) r64 = sqrt(a); else r32 = sqrtf(fa); break;
    case OP_RSQRT: if (is64) r64 = 1.0 / sqrt(a); else r32 = (float)(1.0 / sqrt((double)fa)); break;
    case OP_SIN: r32 = sinf(fa); break;
    case OP_COS: r32 = cosf(fa); break;
    case OP_EX2: r32 = exp2f(fa); break;
    case OP_LG2: r32 = log2f(fa); break;
    default: break;
    }
    if (in->flags & IF_SAT) { if (is64) r64 = fsat(r64); else r32 = (float)fsat(r32); }
    if (is64) {   /* the payload of which NaN operand (see rf64n) */
        switch ((Opcode)in->op) {
        case OP_ADD: case OP_SUB: case OP_MUL: case OP_MIN: case OP_MAX: return rf64n(r64, rb, ra, 0, 2);
        case OP_DIV: return rf64n(r64, ra, rb, 0, 2);
        case OP_FMA: case OP_MAD: return rf64n(r64, rb, rc, ra, 3);
        default: return rf64n(r64, ra, 0, 0, 1);
        }
    }
    if (ftz) r32 = ftz32(r32);
    return rf32(r32);
}

/* ---- integers --------------------------------------------------------------- */
static uint64_t mulhi_u64(uint64_t a, uint64_t b)
{
    uint64_t al = a & 0xffffffffu, ah = a >> 32, bl = b & 0xffffffffu, bh = b >> 32;
    uint64_t ll = al * bl, lh = al * bh, hl = ah * bl, hh = ah * bh;
    uint64_t mid = (ll >> 32) + (lh & 0xffffffffu) + (hl & 0xffffffffu);
    return hh + (lh >> 32) + (hl >> 32) + (mid >> 32);
}

static int64_t mulhi_s64(int64_t a, int64_t b)
{
    uint64_t h = mulhi_u64((uint64_t)a, (uint64_t)b);
    if (a < 0) h -= (uint64_t)b;
    if (b < 0) h -= (uint64_t)a;
    return (int64_t)h;
}

/* High half of a*b at width bits. */
static uint64_t mulhi(uint64_t a, uint64_t b, int bits, int sgn)
{
    if (bits == 64) return sgn ? (uint64_t)mulhi_s64((int64_t)a, (int64_t)b) : mulhi_u64(a, b);
    if (sgn) return (uint64_t)((sx(a, bits) * sx(b, bits)) >> bits);
    return (zx(a, bits) * zx(b, bits)) >> bits;
}

static uint64_t int_op_raw(const X *x, int lane)
{
    const Instr *in = x->in;
    DataType t = (DataType)in->type;
    int bits = isa_type_bits(t);
    int sgn = isa_type_kind(t) == TK_SINT;
    uint64_t ra = val(x, &in->opd[1], lane);
    uint64_t rb = in->nops > 2 ? val(x, &in->opd[2], lane) : 0;
    uint64_t rc = in->nops > 3 ? val(x, &in->opd[3], lane) : 0;
    int64_t a = sgn ? sx(ra, bits) : (int64_t)zx(ra, bits);
    int64_t b = sgn ? sx(rb, bits) : (int64_t)zx(rb, bits);
    uint64_t ua = zx(ra, bits), ub = zx(rb, bits);
    switch ((Opcode)in->op) {
    case OP_ADD: case OP_SUB: {
        uint64_t r = in->op == OP_ADD ? ua + ub : ua - ub;
        if ((in->flags & IF_SAT) && bits == 32 && sgn) {
            int64_t s = in->op == OP_ADD ? a + b : a - b;   /* exact in 64 bits */
            return (uint64_t)(s > INT32_MAX ? INT32_MAX : s < INT32_MIN ? INT32_MIN : s);
        }
        return r;
    }
    case OP_MUL: case OP_MAD: {
        uint64_t r;
        int wide = in->mul == MUL_WIDE;
        if (wide) r = sgn ? (uint64_t)(a * b) : ua * ub;   /* 16/32-bit inputs: exact */
        else if (in->mul == MUL_HI) r = mulhi(ua, ub, bits, sgn);
        else r = ua * ub;
        if (in->op == OP_MAD && (in->flags & IF_SAT) && bits == 32 && sgn && !wide) {
            int64_t v = sx(r, 32) + sx(rc, 32);   /* PTX mad.hi.sat.s32: clamp the sum */
            return (uint64_t)(v > INT32_MAX ? INT32_MAX : v < INT32_MIN ? INT32_MIN : v);
        }
        if (in->op == OP_MAD) r += wide ? rc : zx(rc, bits);
        return r;
    }
    case OP_DIV:
        if (ub == 0) { x->k->stats->div_by_zero++; return ~0ull; }
        if (sgn) {
            if (bits == 64 && a == INT64_MIN && b == -1) return (uint64_t)a;
            return (uint64_t)(a / b);
        }
        return ua / ub;
    case OP_REM:
        if (ub == 0) { x->k->stats->div_by_zero++; return ua; }
        if (sgn) {
            if (b == -1) return 0;
            return (uint64_t)(a % b);
        }
        return ua % ub;
    case OP_MIN: return sgn ? (uint64_t)(a < b ? a : b) : (ua < ub ? ua : ub);
    case OP_MAX: return sgn ? (uint64_t)(a > b ? a : b) : (ua > ub ? ua : ub);
    case OP_ABS: return (uint64_t)(a < 0 ? -(uint64_t)a : (uint64_t)a);
    case OP_NEG: return (uint64_t)0 - ua;
    case OP_AND: return ua & ub;
    case OP_OR: return ua | ub;
    case OP_XOR: return ua ^ ub;
    case OP_NOT: return ~ua;
    case OP_CNOT: return ua == 0;
    case OP_SHL: { uint32_t s = (uint32_t)rb; return s >= (uint32_t)bits ? 0 : ua << s; }
    case OP_SHR: {
        uint32_t s = (uint32_t)rb;
        if (sgn) return (uint64_t)(a >> (s >= (uint32_t)bits ? bits - 1 : (int)s));
        return s >= (uint32_t)bits ? 0 : ua >> s;
    }
    case OP_POPC: { uint64_t n = 0; for (uint64_t v = ua; v; v &= v - 1) n++; return n; }
    case OP_CLZ: { int n = 0; for (int i = bits - 1; i >= 0 && !((ua >> i) & 1); i--) n++; return (uint64_t)n; }
    case OP_BREV: { uint64_t r = 0; for (int i = 0; i < bits; i++) if ((ua >> i) & 1) r |= 1ull << (bits - 1 - i); return r; }
    case OP_BFE: {
        /* PTX: d[i] = a[pos + i] for i < len and pos + i <= msb, else the
         * sign bit: a[min(pos + len - 1, msb)] (.s, len > 0) or 0 */
        int pos = (int)(rb & 0xff), len = (int)(rc & 0xff), msb = bits - 1;
        int sbit = sgn && len > 0 ? (int)((ua >> (pos + len - 1 < msb ? pos + len - 1 : msb)) & 1) : 0;
        uint64_t r = 0;
        for (int i = 0; i < bits; i++) {
            int bit = i < len && pos + i <= msb ? (int)((ua >> (pos + i)) & 1) : sbit;
            r |= (uint64_t)bit << i;
        }
        return r;
    }
    case OP_BFI: {
        /* PTX: d = b, then d[pos + i] = a[i] for i < len and pos + i <= msb */
        int pos = (int)(rc & 0xff), len = (int)(val(x, &in->opd[4], lane) & 0xff);
        uint64_t r = ub;
        for (int i = 0; i < len && pos + i < bits; i++) r = (r & ~(1ull << (pos + i))) | (((ua >> i) & 1) << (pos + i));
        return r;
    }
    case OP_BFIND: {
        /* .s: the most significant bit unlike the sign bit (the bits of ~a
         * for negative a) */
        uint64_t v = sgn && a < 0 ? zx(~ua, bits) : ua;
        for (int i = bits - 1; i >= 0; i--)
            if ((v >> i) & 1) return (uint64_t)((x->in->flags & IF_SHIFTAMT) ? bits - 1 - i : i);
        return 0xffffffffull;
    }
    case OP_FNS: {
        /* PTX's pseudocode: from bit base, step up (offset > 0) or down,
         * and take the |offset|-th set bit of the mask */
        int pos = (int)(uint32_t)rb, off = (int)sx(rc, 32);
        if (off == 0) return pos < 32 && ((ua >> pos) & 1) ? (uint64_t)pos : 0xffffffffull;
        int count = (off > 0 ? off : -off) - 1, inc = off > 0 ? 1 : -1;
        for (; pos >= 0 && pos < 32; pos += inc)
            if ((ua >> pos) & 1) { if (count == 0) return (uint64_t)pos; count--; }
        return 0xffffffffull;
    }
    case OP_PRMT: {
        uint64_t bytes = (zx(rb, 32) << 32) | zx(ra, 32);   /* {b, a}: a is bytes 0-3 */
        uint64_t r = 0;
        for (int i = 0; i < 4; i++) {
            unsigned sel = (unsigned)(rc >> (4 * i)) & 0xf;
            uint64_t byte = (bytes >> (8 * (sel & 7))) & 0xff;
            if (sel & 8) byte = (byte & 0x80) ? 0xff : 0;   /* replicate the sign */
            r |= byte << (8 * i);
        }
        return r;
    }
    default: return 0;
    }
}

/* v at the width of type t, extended by t's signedness to 64 bits: what a
 * register wider than the type receives (PTX does so for ld and cvt; gpusim
 * also lets 8/16-bit arithmetic use wider registers). */
static inline uint64_t ext(uint64_t v, int bits, DataType t)
{
    return isa_type_kind(t) == TK_SINT ? (uint64_t)sx(v, bits) : zx(v, bits);
}

static uint64_t int_op(const X *x, int lane)
{
    const Instr *in = x->in;
    int bits = isa_type_bits((DataType)in->type);
    if ((in->op == OP_MUL || in->op == OP_MAD) && in->mul == MUL_WIDE) bits *= 2;
    return ext(int_op_raw(x, lane), bits, (DataType)in->type);
}

/* ---- cvt ------------------------------------------------------------------------- */
static uint64_t clamp_int(double v, DataType t)
{
    int bits = isa_type_bits(t);
    if (isnan(v)) return 0;
    if (isa_type_kind(t) == TK_SINT) {
        double lo = -ldexp(1.0, bits - 1), hi = ldexp(1.0, bits - 1) - 1;
        if (v <= lo) return (uint64_t)(int64_t)lo;
        if (v >= hi) return bits == 64 ? (uint64_t)INT64_MAX : (uint64_t)(int64_t)hi;
        return (uint64_t)(int64_t)v;
    }
    double hi = ldexp(1.0, bits) - 1;
    if (v <= 0) return 0;
    if (v >= hi) return bits == 64 ? UINT64_MAX : (uint64_t)hi;
    return (uint64_t)v;
}

static double round_int(double v, int rnd)
{
    switch (rnd) {
    case RND_RMI: return floor(v);
    case RND_RPI: return ceil(v);
    case RND_RNI: return nearbyint(v);   /* default mode: ties to even */
    default: return trunc(v);
    }
}

/* NaN through cvt between floats, as the H100 does it: .bf16 to .f32 keeps
 * the payload (the bits move up), .f16 to .f32 gives 0x7FFFFFFF, .f64 to a
 * half keeps the payload's top bits, quieted; other NaNs go the general way
 * (half_encode's canonical 0x7FFF).  1 if *r is the result. */
static int cvt_nan(const Instr *in, uint64_t raw, uint64_t *r)
{
    DataType dt = (DataType)in->type, st = (DataType)in->stype;
    if (isa_type_is_half(st) && half_is_nan((unsigned)raw & 0xffffu, half_fmt(st)) && !isa_type_is_half(dt)) {
        uint64_t h = raw & 0xffffu;
        if (dt == T_F32) *r = st == T_BF16 ? h << 16 : 0x7fffffffu;
        else *r = st == T_BF16 ? (h & 0x8000u) << 48 | (h & 0x7fffu) << 48 : 0x7fffffffffffffffull;   /* not seen on hardware */
        return 1;
    }
    if (st == T_F64 && isa_type_is_half(dt) && isnan(f64(raw))) {
        int man = dt == T_BF16 ? 7 : 10;
        uint64_t quiet = 1ull << (man - 1), top = (raw >> (52 - man)) & ((1ull << man) - 1);
        *r = (raw >> 48 & 0x8000u) | half_inf(half_fmt(dt)) | quiet | top;
        return 1;
    }
    return 0;
}

static uint64_t cvt_op(const X *x, int lane)
{
    const Instr *in = x->in;
    DataType dt = (DataType)in->type, st = (DataType)in->stype;
    TypeKind dk = isa_type_kind(dt), sk = isa_type_kind(st);
    int db = isa_type_bits(dt), sb = isa_type_bits(st);
    uint64_t raw = val(x, &in->opd[1], lane);
    if (isa_type_lanes(dt) == 2) {   /* cvt.rn.f16x2.f32 d, a, b: a to the upper half, b to the lower */
        float fa = f32(raw), fb = f32(val(x, &in->opd[2], lane));
        if (in->flags & IF_FTZ) { fa = ftz32(fa); fb = ftz32(fb); }
        return (uint64_t)cvt_to_half(in, fa, half_fmt(dt)) << 16 | cvt_to_half(in, fb, half_fmt(dt));
    }
    if (sk == TK_FLOAT && (dk == TK_FLOAT) && cvt_nan(in, raw, &raw)) return raw;
    if (sk == TK_FLOAT) {
        double v = sb == 64 ? f64(raw) : isa_type_is_half(st) ? half_decode((unsigned)raw & 0xffffu, half_fmt(st))
                 : (double)((in->flags & IF_FTZ) ? ftz32(f32(raw)) : f32(raw));
        if (dk == TK_FLOAT) {
            if (in->rnd >= RND_RNI) v = round_int(v, in->rnd);
            if (isa_type_is_half(dt)) return cvt_to_half(in, v, half_fmt(dt));   /* f32, f64, halves: exact in double */
            if (in->flags & IF_SAT) v = fsat(v);
            if (db == 64) return bf64(v);
            volatile float r;
            volatile double vv = v;
            if (in->rnd == RND_RZ || in->rnd == RND_RM || in->rnd == RND_RP) {
                int old = fegetround();
                fesetround(fe_mode(in->rnd));
                r = (float)vv;
                fesetround(old);
            } else r = (float)vv;
            return bf32((in->flags & IF_FTZ) ? ftz32(r) : r);
        }
        /* float -> int always saturates; NaN gives 0.  The assembler lets
         * only .rni/.rzi/.rmi/.rpi through here, as ptxas does; the mapping
         * of the others stays for Instrs made by hand (tests). */
        int rnd = in->rnd == RND_NONE ? RND_RZI : in->rnd < RND_RNI ? in->rnd + (RND_RNI - RND_RN) : in->rnd;
        return ext(clamp_int(round_int(v, rnd), dt), db, dt);
    }
    /* integer source */
    int64_t sv = sk == TK_SINT ? sx(raw, sb) : (int64_t)zx(raw, sb);
    uint64_t uv = zx(raw, sb);
    if (isa_type_is_half(dt))   /* rounded to odd at 53 bits first: one rounding in effect */
        return cvt_to_half(in, sk == TK_SINT ? half_from_s64(sv) : half_from_u64(uv), half_fmt(dt));
    if (dk == TK_FLOAT) {
        int old = fegetround();
        if (in->rnd) fesetround(fe_mode(in->rnd));
        volatile double d = 0;
        volatile float f = 0;
        if (db == 64) d = sk == TK_SINT ? (double)sv : (double)uv;
        else f = sk == TK_SINT ? (float)sv : (float)uv;
        if (in->rnd) fesetround(old);
        if (db == 64) return bf64((in->flags & IF_SAT) ? fsat(d) : d);
        return bf32((in->flags & IF_SAT) ? (float)fsat(f) : f);
    }
    if (in->flags & IF_SAT) {
        /* clamp to the destination's range */
        int dsg = dk == TK_SINT;
        if (sk == TK_SINT) {
            int64_t lo = dsg ? (db == 64 ? INT64_MIN : -((int64_t)1 << (db - 1))) : 0;
            int64_t hi = dsg ? (db == 64 ? INT64_MAX : ((int64_t)1 << (db - 1)) - 1) : (db >= 63 ? INT64_MAX : ((int64_t)1 << db) - 1);
            if (sv < lo) sv = lo;
            if (sv > hi && !(db == 64 && !dsg)) sv = hi;
            return ext((uint64_t)sv, db, dt);
        }
        uint64_t hi = dsg ? (db == 64 ? (uint64_t)INT64_MAX : ((uint64_t)1 << (db - 1)) - 1) : (db == 64 ? UINT64_MAX : ((uint64_t)1 << db) - 1);
        return ext(uv > hi ? hi : uv, db, dt);
    }
    /* plain: extend by the source's signedness, truncate to the destination,
     * extend by the destination's signedness into the register */
    return ext(sk == TK_SINT ? (uint64_t)sv : uv, db, dt);
}

/* ---- setp ------------------------------------------------------------------------- */
/* a CMP b on floats: ordered comparisons are false on NaN, unordered true. */
static int fcompare(Cmp cmp, double a, double b)
{
    int un = isnan(a) || isnan(b);
    switch (cmp) {
    case CMP_EQ: return !un && a == b;
    case CMP_NE: return !un && a != b;
    case CMP_LT: return !un && a < b;
    case CMP_LE: return !un && a <= b;
    case CMP_GT: return !un && a > b;
    case CMP_GE: return !un && a >= b;
    case CMP_EQU: return un || a == b;
    case CMP_NEU: return un || a != b;
    case CMP_LTU: return un || a < b;
    case CMP_LEU: return un || a <= b;
    case CMP_GTU: return un || a > b;
    case CMP_GEU: return un || a >= b;
    case CMP_NUM: return !un;
    case CMP_NAN: return un;
    default: return 0;
    }
}

/* One element pair of setp/set on halves of type t (.ftz: subnormals
 * compare as zero). */
static int half_compare(const Instr *in, DataType t, unsigned a, unsigned b)
{
    HalfFmt f = half_fmt(t);
    if (in->flags & IF_FTZ) { a = half_ftz(a, f); b = half_ftz(b, f); }
    return fcompare((Cmp)in->cmp, half_decode(a, f), half_decode(b, f));
}

/* a CMP b at type t (setp: its type; set: its source type). */
static int compare_at(const Instr *in, DataType t, uint64_t ra, uint64_t rb)
{
    int bits = isa_type_bits(t);
    if (isa_type_is_half(t)) return half_compare(in, t, (unsigned)ra & 0xffffu, (unsigned)rb & 0xffffu);
    if (isa_type_kind(t) == TK_FLOAT) {
        double a = bits == 64 ? f64(ra) : f32(ra);
        double b = bits == 64 ? f64(rb) : f32(rb);
        if (in->flags & IF_FTZ && bits == 32) { a = ftz32((float)a); b = ftz32((float)b); }
        return fcompare((Cmp)in->cmp, a, b);
    }
    int sgn = isa_type_kind(t) == TK_SINT;
    int64_t a = sx(ra, bits), b = sx(rb, bits);
    uint64_t ua = zx(ra, bits), ub = zx(rb, bits);
    switch ((Cmp)in->cmp) {
    case CMP_EQ: return ua == ub;
    case CMP_NE: return ua != ub;
    case CMP_LT: return sgn ? a < b : ua < ub;
    case CMP_LE: return sgn ? a <= b : ua <= ub;
    case CMP_GT: return sgn ? a > b : ua > ub;
    case CMP_GE: return sgn ? a >= b : ua >= ub;
    case CMP_LO: return ua < ub;
    case CMP_LS: return ua <= ub;
    case CMP_HI: return ua > ub;
    case CMP_HS: return ua >= ub;
    default: return 0;
    }
}

static int compare(const X *x, int lane)
{
    return compare_at(x->in, (DataType)x->in->type, val(x, &x->in->opd[1], lane), val(x, &x->in->opd[2], lane));
}

static int combine(int t, int c, int op)
{
    switch (op) {
    case BOOL_AND: return t && c;
    case BOOL_OR: return t || c;
    case BOOL_XOR: return t != c;
    default: return t;
    }
}

/* ---- memory ---------------------------------------------------------------------- */
static const char *const space_names[] = { "generic", "global", "shared", "const", "local", "param" };

/* Effective address of a memory operand for a lane. */
static uint64_t address(const X *x, const Operand *o, int lane)
{
    uint64_t a = (uint64_t)o->imm;
    if (o->r[0] != REG_NONE) a += reg_get(x->k, x->w, o->r[0], lane);
    if (o->sym >= 0 && o->is_param == 2)   /* a .param of the running frame */
        a += FRAME_WINDOW + x->w->frame_base + x->k->entry->params[o->sym].offset;
    else if (o->sym >= 0) a += o->is_param ? x->k->entry->params[o->sym].offset : var_offset(x, o->sym);
    return a;
}

/* Resolve (space, addr) to host bytes for an access of `bytes`, or NULL
 * after filling the fault. Generic addresses are decoded by window. */
static uint8_t *locate(const X *x, int lane, Space *space, uint64_t *addr, int bytes)
{
    Kernel *k = x->k;
    Cta *c = x->w->cta;
    if (*space == SP_NONE) {
        uint64_t a = *addr;
        if (a >= MEM_SHARED_WINDOW && a < MEM_SHARED_WINDOW + MEM_WINDOW_SIZE) { *space = SP_SHARED; *addr = a - MEM_SHARED_WINDOW; }
        else if (a >= MEM_LOCAL_WINDOW && a < MEM_LOCAL_WINDOW + MEM_WINDOW_SIZE) { *space = SP_LOCAL; *addr = a - MEM_LOCAL_WINDOW; }
        else if (a >= MEM_CONST_WINDOW && a < MEM_CONST_WINDOW + MEM_WINDOW_SIZE) { *space = SP_CONST; *addr = a - MEM_CONST_WINDOW; }
        else *space = SP_GLOBAL;
    }
    uint64_t a = *addr;
    if (bytes > 1 && (a % (uint64_t)bytes) != 0) {
        /* name the buffer and the byte offset in it, as for out-of-bounds */
        char where[200] = "";
        const Region *r = *space == SP_GLOBAL ? mem_find(k->mem, a, 1) : NULL;
        if (r)
            snprintf(where, sizeof where, ", byte %llu of %s", (unsigned long long)(a - r->base),
                     k->prog->buffers[r->buffer].name);
        kernel_fault(k, x->w, lane, FAULT_MISALIGNED, "misaligned %d-byte %s access at address 0x%llx%s (not a multiple of %d)",
                     bytes, space_names[*space], (unsigned long long)a, where, bytes);
        return NULL;
    }
    uint64_t limit = 0;
    uint8_t *base = NULL;
    switch (*space) {
    case SP_GLOBAL: {
        Region *r = mem_find(k->mem, a, (uint64_t)bytes);
        if (r) return r->data + (a - r->base);
        char where[300];
        mem_describe(k->mem, k->prog, a, bytes, where, sizeof where);
        kernel_fault(k, x->w, lane, FAULT_OUT_OF_BOUNDS, "out-of-bounds global access at 0x%llx: %s",
                     (unsigned long long)a, where);
        return NULL;
    }
    case SP_SHARED: base = c->smem; limit = c->smem_bytes; break;
    case SP_CONST: base = k->mem->cmem; limit = k->mem->cbytes; break;
    case SP_PARAM:
        if (a >= FRAME_WINDOW) {   /* a frame's .params: this lane's frame memory */
            a -= FRAME_WINDOW;
            base = x->w->fmem + (size_t)lane * k->frame_stride;
            limit = k->frame_stride;
        } else {
            base = k->params;
            limit = k->param_bytes;
        }
        break;
    case SP_LOCAL: {
        int t = x->w->id * x->ws + lane;
        base = c->lmem + (size_t)t * c->lmem_bytes;
        limit = c->lmem_bytes;
        break;
    }
    default: break;
    }
    if (a + (uint64_t)bytes > limit || a > limit) {
        kernel_fault(k, x->w, lane, FAULT_OUT_OF_BOUNDS, "out-of-bounds %s access at offset %llu: the %s space has %llu bytes",
                     space_names[*space], (unsigned long long)a, space_names[*space], (unsigned long long)limit);
        return NULL;
    }
    return base + a;
}

static uint64_t load_elem(const uint8_t *p, DataType t)
{
    int bytes = isa_type_bits(t) / 8;
    uint64_t v = 0;
    memcpy(&v, p, (size_t)bytes);          /* little-endian, as the GPU */
    return isa_type_kind(t) == TK_SINT ? (uint64_t)sx(v, bytes * 8) : v;
}

/* Copy between a register row and memory for the lanes in m, lane l's
 * bytes at mem + (addr[l] - off); every address already checked.  The row
 * has 8-byte lanes (wide) or 4-byte lanes (then bytes is 4).  Copies of a
 * constant size, so they compile to single moves. */
static void move_lanes(const X *x, LaneMask m, int bytes, int is_st, void *row, int wide, const uint64_t *addr,
                       uint8_t *mem, uint64_t off)
{
    int ws = x->ws;
    uint64_t *r = row;
    if (!wide) {
        uint32_t *n = row;
        if (is_st) EACH_LANE(m, l, memcpy(mem + (addr[l] - off), &n[l], 4));
        else EACH_LANE(m, l, memcpy(&n[l], mem + (addr[l] - off), 4));
    } else if (bytes == 4) {
        if (is_st) EACH_LANE(m, l, uint32_t v = (uint32_t)r[l]; memcpy(mem + (addr[l] - off), &v, 4));
        else EACH_LANE(m, l, uint32_t v; memcpy(&v, mem + (addr[l] - off), 4); r[l] = v);
    } else {
        if (is_st) EACH_LANE(m, l, memcpy(mem + (addr[l] - off), &r[l], 8));
        else EACH_LANE(m, l, memcpy(&r[l], mem + (addr[l] - off), 8));
    }
}

/* 1 if the address of every lane in m lies in [lo, hi] (hi - lo < 2^62)
 * and is a multiple of align (a power of two).  Branch-free, so the loop
 * vectorises: (a - lo) | (hi - a) stays below 2^62 exactly when a is in
 * range, as either difference wraps to a huge value otherwise. */
static int lanes_within(const X *x, const uint64_t *addr, LaneMask m, uint64_t lo, uint64_t hi, int align)
{
    int ws = x->ws;
    uint64_t out = 0, any = 0;
    EACH_LANE(m, l, out |= (addr[l] - lo) | (hi - addr[l]), any |= addr[l]);
    return out < (1ull << 62) && !(any & (uint64_t)(align - 1));
}

/* The lanes of fast_ldst (m not empty): addresses from the register row in
 * one loop, one alignment and bounds check (lane by lane only when a global
 * access leaves the first lane's buffer), then the copies, element j of a
 * vector access (vec 2 or 4, esize bytes each) from or to register row
 * rows[j] (8-byte lanes if wide[j]).  Returns 0 if any lane would fault,
 * before any memory or register is written. */
static int ldst_lanes(const X *x, LaneMask m, int esize, int vec, int is_st, const Operand *mo, void *const *rows,
                      const uint8_t *wide, ExecOut *out)
{
    /* a deferred global access checks its lanes now and moves at replay */
    int move = !x->defer || x->in->space != SP_GLOBAL;
    int ws = x->ws, bytes = esize * vec;
    /* address() for every lane at once */
    uint64_t *addr = out->mem.addr, base = (uint64_t)mo->imm;
    if (mo->sym >= 0) base += mo->is_param ? x->k->entry->params[mo->sym].offset : var_offset(x, mo->sym);
    if (mo->r[0] != REG_NONE && x->k->row_wide[mo->r[0]]) {
        const uint64_t *ar = reg_row(x->k, x->w, mo->r[0]);
        EACH_LANE(m, l, addr[l] = base + ar[l]);
    } else if (mo->r[0] != REG_NONE) {   /* a 32-bit register (shared memory offsets) */
        const uint32_t *ar = reg_row(x->k, x->w, mo->r[0]);
        EACH_LANE(m, l, addr[l] = base + ar[l]);
    } else EACH_LANE(m, l, addr[l] = base);
    Cta *c = x->w->cta;
    if (x->in->space == SP_SHARED || x->in->space == SP_CONST) {   /* one array from offset 0 */
        int sh = x->in->space == SP_SHARED;
        uint8_t *mem = sh ? c->smem : x->k->mem->cmem;
        uint64_t size = sh ? c->smem_bytes : x->k->mem->cbytes;
        if (size < (uint64_t)bytes || !lanes_within(x, addr, m, 0, size - (uint64_t)bytes, bytes)) return 0;
        for (int j = 0; j < vec; j++) move_lanes(x, m, esize, is_st, rows[j], wide[j], addr, mem + j * esize, 0);
        return 1;
    }
    const Region *reg = mem_find(x->k->mem, addr[__builtin_ctz(m)], (uint64_t)bytes);
    if (reg && lanes_within(x, addr, m, reg->base, reg->base + reg->size - (uint64_t)bytes, bytes)) {
        if (move)   /* the usual case: one buffer */
            for (int j = 0; j < vec; j++)
                move_lanes(x, m, esize, is_st, rows[j], wide[j], addr, reg->data + j * esize, reg->base);
        return 1;
    }
    /* lanes in several buffers (or a bad one): every lane's before moving any */
    const Region *lane_reg[WARP_MAX];
    FOR_LANES(m, l) {
        uint64_t a = addr[l];
        if (a % (uint64_t)bytes) return 0;
        if (!reg || a < reg->base || a - reg->base > reg->size - (uint64_t)bytes) {
            reg = mem_find(x->k->mem, a, (uint64_t)bytes);
            if (!reg) return 0;
        }
        lane_reg[l] = reg;
    }
    if (move)
        FOR_LANES(m, l) for (int j = 0; j < vec; j++)
            move_lanes(x, 1u << l, esize, is_st, rows[j], wide[j], addr, lane_reg[l]->data + j * esize,
                       lane_reg[l]->base);
    return 1;
}

/* Hold lanes m of this global access for exec_replay at the end of the cycle. */
static void defer_lanes(const X *x, LaneMask m)
{
    DeferLog *d = x->defer;
    if (!m) return;
    d->e = grow_for_one(d->e, &d->cap, d->n, sizeof *d->e, 256);
    d->e[d->n++] = (Deferred){ x->w, x->in, m };
}

/* The warp's access for the timing model (ExecOut.mem), not an atomic;
 * the caller fills the lanes' addresses. */
static void mem_access(ExecOut *out, int store, int bytes, LaneMask m, int space)
{
    out->has_mem = 1;
    out->mem.is_store = (uint8_t)store;
    out->mem.is_atomic = 0;
    out->mem.bytes = (uint8_t)bytes;
    out->mem.mask = m;
    out->mem.space = (uint8_t)space;
}

/* A kernel parameter load with no register in its address (every kernel's
 * first instructions): all lanes read the same bytes, so they are read
 * once and copied into the destination row.  Returns 0 (the general path
 * then runs, and reports a fault) for anything else. */
static int fast_ld_param(const X *x, LaneMask m, ExecOut *out)
{
    const Instr *in = x->in;
    const Operand *mo = &in->opd[1], *ro = &in->opd[0];
    int bytes = x->bits / 8, ws = x->ws;
    if (in->op != OP_LD || in->vec != 1 || ro->kind != OPD_REG || mo->r[0] != REG_NONE || mo->is_param == 2 ||
        bytes < 1)
        return 0;
    uint64_t a = address(x, mo, 0);
    if (a >= FRAME_WINDOW || a % (uint64_t)bytes || a + (uint64_t)bytes > x->k->param_bytes) return 0;
    uint64_t v = zx(load_elem(x->k->params + a, (DataType)in->type), x->k->entry->regs[ro->r[0]].bits);
    if (x->k->row_wide[ro->r[0]]) { uint64_t *d = reg_row(x->k, x->w, ro->r[0]); EACH_LANE(m, l, d[l] = v); }
    else { uint32_t *d = reg_row(x->k, x->w, ro->r[0]); EACH_LANE(m, l, d[l] = (uint32_t)v); }
    EACH_LANE(m, l, out->mem.addr[l] = a);
    mem_access(out, 0, bytes, m, SP_PARAM);
    return 1;
}

/* Scalar and vector (.v2, .v4) loads and stores of 4- and 8-byte elements
 * to global or shared memory (and loads from constant memory), the bulk of every kernel (the back end pairs
 * and quads shared loads as ptxas does), without per-lane dispatch.  Returns 0 if not
 * applicable or a lane would fault (the general path below then runs and
 * reports the fault). */
static int fast_ldst(const X *x, LaneMask m, ExecOut *out)
{
    const Instr *in = x->in;
    if (in->space == SP_PARAM) return fast_ld_param(x, m, out);
    int is_st = in->op == OP_ST;
    const Operand *mo = &in->opd[is_st ? 0 : 1], *ro = &in->opd[is_st ? 1 : 0];
    int esize = x->bits / 8, vec = in->vec;
    if ((esize != 4 && esize != 8) || x->kind == TK_SINT ||
        (in->space != SP_GLOBAL && in->space != SP_SHARED && !(in->space == SP_CONST && !is_st)))
        return 0;
    /* the register row of each element: one register, or a vector of 2 or
     * 4 as wide as the elements at least (no '_' sink); 8-byte elements
     * need rows of 8-byte lanes */
    void *row[4];
    uint8_t wide[4];
    if (vec == 1 && ro->kind == OPD_REG) {
        row[0] = reg_row(x->k, x->w, ro->r[0]);
        wide[0] = x->k->row_wide[ro->r[0]];
        if (esize == 8 && !wide[0]) return 0;
    } else if ((vec == 2 || vec == 4) && ro->kind == OPD_VEC && ro->n == vec) {
        for (int j = 0; j < vec; j++) {
            int r = ro->r[j];
            if (r == REG_NONE || x->k->entry->regs[r].bits < esize * 8) return 0;
            row[j] = reg_row(x->k, x->w, r);
            wide[j] = x->k->row_wide[r];
        }
    } else return 0;
    if (m && !ldst_lanes(x, m, esize, vec, is_st, mo, row, wide, out)) return 0;
    if (x->defer && in->space == SP_GLOBAL) defer_lanes(x, m);
    mem_access(out, is_st, esize * vec, m, in->space);
    return 1;
}

static int exec_ldst(const X *x, LaneMask m, ExecOut *out)
{
    if (!x->k->slow && fast_ldst(x, m, out)) return 0;
    const Instr *in = x->in;
    int ws = x->ws;
    int is_st = in->op == OP_ST;
    const Operand *mo = &in->opd[is_st ? 0 : 1];
    const Operand *ro = &in->opd[is_st ? 1 : 0];
    int esize = isa_type_bits((DataType)in->type) / 8;
    int bytes = esize * in->vec;
    mem_access(out, is_st, bytes, m, in->space);
    LaneMask held = 0;           /* global lanes left for exec_replay */
    FOR_LANES(m, l) {
        Space sp = (Space)in->space;
        uint64_t a = address(x, mo, l);
        uint8_t *p = locate(x, l, &sp, &a, bytes);
        if (!p) { if (x->defer) defer_lanes(x, held); return -1; }   /* the lanes before move, as they would have */
        out->mem.space = (uint8_t)sp;
        out->mem.addr[l] = a;   /* local: the thread's offset; lsu.c and memsys.c interleave */
        if (x->defer && sp == SP_GLOBAL) { held |= 1u << l; continue; }
        for (int j = 0; j < in->vec; j++) {
            uint16_t reg = ro->kind == OPD_VEC ? ro->r[j] : ro->r[0];
            if (is_st) {
                uint64_t v = ro->kind == OPD_IMM ? (uint64_t)ro->imm : reg == REG_NONE ? 0
                           : reg_get(x->k, x->w, reg, l);
                memcpy(p + j * esize, &v, (size_t)esize);
            } else if (reg != REG_NONE) {
                Operand one = { .kind = OPD_REG, .r = { reg } };
                wreg(x, &one, l, load_elem(p + j * esize, (DataType)in->type));
            }
        }
    }
    if (x->defer) defer_lanes(x, held);
    return 0;
}

static uint64_t atom_apply(const Instr *in, uint64_t old, uint64_t b, uint64_t c)
{
    DataType t = (DataType)in->type;
    int bits = isa_type_bits(t);
    TypeKind k = isa_type_kind(t);
    if (isa_type_is_half(t)) {   /* .add.noftz: each element rounded once, .rn, subnormals kept */
        uint64_t r = 0;
        for (int h = 0, sh = 0; h < isa_type_lanes(t); h++, sh += 16) {
            double e, sum = two_sum(half_decode((unsigned)(old >> sh) & 0xffffu, half_fmt(t)),
                                    half_decode((unsigned)(b >> sh) & 0xffffu, half_fmt(t)), &e);
            r |= (uint64_t)half_round_pair(sum, e, half_fmt(t), HALF_RN) << sh;
        }
        return r;
    }
    if (k == TK_FLOAT) {
        double o = bits == 64 ? f64(old) : f32(old), v = bits == 64 ? f64(b) : f32(b), r;
        switch (in->sub) {
        case ATOM_ADD: r = bits == 64 ? o + v : (double)((float)o + (float)v); break;
        case ATOM_MIN: r = fminmax(o, v, 0); break;
        case ATOM_MAX: r = fminmax(o, v, 1); break;
        default: return b;       /* exch: the bits, a NaN's included */
        }
        return bits == 64 ? rf64n(r, b, old, 0, 2) : rf32((float)r);   /* as add, min and max of (old, b) */
    }
    uint64_t uo = zx(old, bits), ub = zx(b, bits);
    int64_t so = sx(old, bits), sb = sx(b, bits);
    switch ((AtomOp)in->sub) {
    case ATOM_ADD: return zx(uo + ub, bits);
    case ATOM_MIN: return k == TK_SINT ? zx((uint64_t)(so < sb ? so : sb), bits) : (uo < ub ? uo : ub);
    case ATOM_MAX: return k == TK_SINT ? zx((uint64_t)(so > sb ? so : sb), bits) : (uo > ub ? uo : ub);
    case ATOM_INC: return uo >= ub ? 0 : uo + 1;
    case ATOM_DEC: return (uo == 0 || uo > ub) ? ub : uo - 1;
    case ATOM_EXCH: return ub;
    case ATOM_CAS: return uo == ub ? zx(c, bits) : uo;
    case ATOM_AND: return uo & ub;
    case ATOM_OR: return uo | ub;
    case ATOM_XOR: return uo ^ ub;
    default: return uo;
    }
}

/* Atomics apply lane by lane in ascending lane order: a fixed order, so
 * results are the same on every run. */
static int exec_atom(const X *x, LaneMask m, ExecOut *out)
{
    const Instr *in = x->in;
    int ws = x->ws;
    int is_red = in->op == OP_RED;
    const Operand *mo = &in->opd[is_red ? 0 : 1];
    int bytes = isa_type_bits((DataType)in->type) / 8;
    out->has_mem = 1;
    out->mem.is_atomic = 1;
    out->mem.is_store = 1;
    out->mem.bytes = (uint8_t)bytes;
    out->mem.mask = m;
    out->mem.space = in->space;   /* resolved below lane by lane; with no lane active, as written */
    LaneMask held = 0;           /* global lanes left for exec_replay */
    FOR_LANES(m, l) {
        Space sp = (Space)in->space;
        uint64_t a = address(x, mo, l);
        uint8_t *p = locate(x, l, &sp, &a, bytes);
        if (p && sp != SP_GLOBAL && sp != SP_SHARED) {
            kernel_fault(x->k, x->w, l, FAULT_OUT_OF_BOUNDS, "atomic on %s memory (only global and shared)", space_names[sp]);
            p = NULL;
        }
        if (!p) { if (x->defer) defer_lanes(x, held); return -1; }
        out->mem.space = (uint8_t)sp;
        out->mem.addr[l] = a;
        if (x->defer && sp == SP_GLOBAL) { held |= 1u << l; continue; }
        uint64_t old = 0;
        memcpy(&old, p, (size_t)bytes);
        uint64_t b = val(x, &in->opd[is_red ? 1 : 2], l);
        uint64_t c = in->sub == ATOM_CAS ? val(x, &in->opd[3], l) : 0;
        uint64_t nv = atom_apply(in, old, b, c);
        memcpy(p, &nv, (size_t)bytes);
        if (!is_red) {
            Operand d = in->opd[0];
            wreg(x, &d, l, isa_type_kind((DataType)in->type) == TK_SINT ? (uint64_t)sx(old, bytes * 8) : old);
        }
    }
    if (x->defer) defer_lanes(x, held);
    return 0;
}

/* ---- warp-level ------------------------------------------------------------------ */
static inline const uint64_t *row(const X *x, const Operand *o, uint64_t *tmp);

static void exec_shfl(const X *x, LaneMask m)
{
    const Instr *in = x->in;
    int ws = x->ws;
    uint64_t src[WARP_MAX];       /* a copy: the destination may be the source */
    const uint64_t *sr = row(x, &in->opd[1], src);
    if (sr != src) memcpy(src, sr, (size_t)ws * sizeof *src);
    uint32_t lane_mask = (uint32_t)ws - 1;
    /* the lane offset and the clamp/segment word, each a register row or
     * an immediate (filled) */
    uint64_t tb[WARP_MAX], tc[WARP_MAX];
    const uint64_t *rb = row(x, &in->opd[2], tb), *rc = row(x, &in->opd[3], tc);
    FOR_LANES(m, l) {
        uint32_t b = (uint32_t)rb[l], c = (uint32_t)rc[l];
        /* PTX: c packs the clamp value (bits 0-4) and the segment mask (8-12) */
        uint32_t cval = c & lane_mask, segmask = (c >> 8) & lane_mask;
        uint32_t maxlane = ((uint32_t)l & segmask) | (cval & ~segmask);
        uint32_t minlane = (uint32_t)l & segmask;
        int64_t j;
        int ok;
        switch (in->sub) {
        case SHFL_UP: j = (int64_t)l - (int64_t)(b & lane_mask); ok = j >= (int64_t)maxlane; break;
        case SHFL_DOWN: j = (int64_t)l + (int64_t)(b & lane_mask); ok = j <= (int64_t)maxlane; break;
        case SHFL_BFLY: j = (int64_t)((uint32_t)l ^ (b & lane_mask)); ok = j <= (int64_t)maxlane; break;
        default: j = (int64_t)(minlane | (b & lane_mask & ~segmask)); ok = j <= (int64_t)maxlane; break;
        }
        if (!ok || j < 0 || j >= ws) j = l;
        wreg(x, &in->opd[0], l, src[j]);
        if (in->opd[5].kind == OPD_PRED) wreg(x, &in->opd[5], l, (uint64_t)ok);
    }
}

/* PTX's .sync warp operations: every executing lane must be in membermask,
 * and every live lane named in it must execute the same instruction
 * (converged).  Anything else is undefined in PTX, so it is a fault here,
 * never a silently made-up value. */
static int check_members(const X *x, LaneMask m, int slot)
{
    int ws = x->ws, first = 0;
    while (first < ws && !((m >> first) & 1u)) first++;
    if (first == ws) return 0;
    LaneMask mask = (LaneMask)val(x, &x->in->opd[slot], first);
    const char *name = isa_ops[x->in->op].mnemonic;
    LaneMask outside = m & ~mask, missing = mask & x->w->live & ~m;
    if (outside) {
        int l = __builtin_ctz(outside);
        kernel_fault(x->k, x->w, l, FAULT_MEMBERMASK,
                     "%s: lane %d executes it but is not in membermask 0x%08x (active lanes 0x%08x)", name, l, mask, m);
        return -1;
    }
    if (missing) {
        kernel_fault(x->k, x->w, -1, FAULT_MEMBERMASK,
                     "%s: membermask 0x%08x names lanes 0x%08x that do not execute it here (they diverged or their "
                     "guard is false; active lanes 0x%08x): PTX requires them to arrive together", name, mask, missing, m);
        return -1;
    }
    return 0;
}

/* cp.async: global -> shared for each lane, no register between.  The
 * copy lands at issue (its group's wait comes before any use); the timing
 * model sees the global read as the access. */
static int exec_cp_async(const X *x, LaneMask m, ExecOut *out)
{
    const Instr *in = x->in;
    int ws = x->ws, n = (int)in->opd[2].imm;
    mem_access(out, 0, n, m, SP_GLOBAL);
    FOR_LANES(m, l) {
        uint64_t src = address(x, &in->opd[1], l), dst = address(x, &in->opd[0], l);
        int keep = n;
        if (in->nops > 3) {   /* src-size: copy that many bytes, zero the rest */
            uint64_t c = zx(val(x, &in->opd[3], l), 32);
            keep = c < (uint64_t)n ? (int)c : n;
        }
        Space ss = SP_GLOBAL, ds = SP_SHARED;
        uint8_t *ps = locate(x, l, &ss, &src, n);
        if (!ps) return -1;
        uint8_t *pd = locate(x, l, &ds, &dst, n);
        if (!pd) return -1;
        memmove(pd, ps, (size_t)keep);
        memset(pd + keep, 0, (size_t)(n - keep));
        out->mem.addr[l] = src;
    }
    return 0;
}

/* match.sync: lanes of the membermask (all active: checked) by value */
static void exec_match(const X *x, LaneMask m)
{
    const Instr *in = x->in;
    int ws = x->ws, bits = isa_type_bits((DataType)in->type);
    int all = 1, first = -1;
    FOR_LANES(m, l) {
        if (first < 0) first = l;
        else if (zx(val(x, &in->opd[1], l), bits) != zx(val(x, &in->opd[1], first), bits)) all = 0;
    }
    FOR_LANES(m, l) {
        LaneMask same = 0;
        uint64_t v = zx(val(x, &in->opd[1], l), bits);
        if (in->sub == VOTE_ALL) same = all ? m : 0;
        else FOR_LANES(m, k) if (zx(val(x, &in->opd[1], k), bits) == v) same |= 1u << k;
        wreg(x, &in->opd[0], l, same);
        if (in->opd[5].kind == OPD_PRED) wreg(x, &in->opd[5], l, (uint64_t)all);   /* match.all.sync d|p */
    }
}

/* redux.sync: one value from every member lane (all active: checked) */
static void exec_redux(const X *x, LaneMask m)
{
    const Instr *in = x->in;
    int ws = x->ws, sgn = in->type == T_S32, first = 1;
    uint64_t r = 0;
    FOR_LANES(m, l) {
        uint64_t v = zx(val(x, &in->opd[1], l), 32);
        if (first) { r = v; first = 0; continue; }
        switch (in->sub) {
        case ATOM_ADD: r = zx(r + v, 32); break;
        case ATOM_MIN: r = sgn ? ((int32_t)v < (int32_t)r ? v : r) : (v < r ? v : r); break;
        case ATOM_MAX: r = sgn ? ((int32_t)v > (int32_t)r ? v : r) : (v > r ? v : r); break;
        case ATOM_AND: r &= v; break;
        case ATOM_OR: r |= v; break;
        default: r ^= v; break;
        }
    }
    FOR_LANES(m, l) wreg(x, &in->opd[0], l, r);
}

static void exec_vote(const X *x, LaneMask m)
{
    const Instr *in = x->in;
    int ws = x->ws;
    /* membermask from an executing lane: a register's value in lane 0 is
     * stale when lane 0 is not active */
    int first = 0;
    while (first < ws && !((m >> first) & 1u)) first++;
    if (first == ws) return;
    LaneMask members = m & (LaneMask)val(x, &in->opd[2], first);
    LaneMask yes = 0;
    FOR_LANES(members, l) if (val(x, &in->opd[1], l)) yes |= 1u << l;
    uint64_t r;
    switch (in->sub) {
    case VOTE_ALL: r = yes == members; break;
    case VOTE_ANY: r = yes != 0; break;
    case VOTE_UNI: r = yes == 0 || yes == members; break;
    default: r = yes; break;
    }
    FOR_LANES(m, l) wreg(x, &in->opd[0], l, r);
}

/* ---- fast paths ---------------------------------------------------------------------
 * The common instructions of real kernels, on whole register rows: the
 * operation is chosen once per warp instruction, and the lane loop is a
 * plain loop over arrays the compiler can vectorise.  Anything unusual
 * (rounding modes, .ftz/.sat, 8/16-bit types) falls back to the per-lane
 * code above, which defines the semantics; tests compare both. */
static const uint64_t *row_filled(const X *x, const Operand *o, uint64_t *tmp);

/* Operand o as a row of ws lane values: a register row itself, anything else
 * filled into tmp. */
static inline const uint64_t *row(const X *x, const Operand *o, uint64_t *tmp)
{
    if (o->kind == OPD_REG) {
        int r = o->r[0], ws = x->ws;
        if (x->k->row_wide[r]) return reg_row(x->k, x->w, r);
        const uint32_t *n = reg_row(x->k, x->w, r);   /* 4-byte lanes, widened */
        for (int l = 0; l < ws; l++) tmp[l] = n[l];
        return tmp;
    }
    return row_filled(x, o, tmp);
}

/* Where a row loop writes register r: its row (8-byte lanes), else tmp,
 * which row_put then narrows into the row's 4-byte lanes (those in m). */
static inline uint64_t *row_dst(const X *x, int r, uint64_t *tmp)
{
    return x->k->row_wide[r] ? reg_row(x->k, x->w, r) : tmp;
}

static inline void row_put(const X *x, int r, const uint64_t *d, LaneMask m)
{
    if (x->k->row_wide[r]) return;
    uint32_t *n = reg_row(x->k, x->w, r);
    int ws = x->ws;
    EACH_LANE(m, l, n[l] = (uint32_t)d[l]);
}

static const uint64_t *row_filled(const X *x, const Operand *o, uint64_t *tmp)
{
    int ws = x->ws;
    if (o->kind == OPD_IMM) {
        uint64_t v = (uint64_t)o->imm;    /* a local: tmp cannot alias it, the loop vectorises */
        for (int l = 0; l < ws; l++) tmp[l] = v;
        return tmp;
    }
    for (int l = 0; l < ws; l++) tmp[l] = val(x, o, l);
    return tmp;
}

/* d = expr for the lanes in m: ROWOP1 for one source operand, ROWOP for
 * two, where expr reads the second as bl: an immediate stays a scalar (no
 * row to fill, and a shift by it vectorises), anything else is the lane's
 * value in row b. */
#define ROWOP1(expr) EACH_LANE(m, l, d[l] = (expr) & wm)
#define ROWOP(expr) do { \
        if (bimm) EACH_LANE(m, l, const ROW_T bl = bv; d[l] = (expr) & wm); \
        else EACH_LANE(m, l, const ROW_T bl = b[l]; d[l] = (expr) & wm); \
    } while (0)

/* Operand o of a 32-bit row loop as 4-byte lanes: a 32-bit register's row
 * itself, an immediate or special register filled into tmp (its low 32
 * bits: all a 32-bit operation uses); NULL for a 64-bit register. */
static inline const uint32_t *row32(const X *x, const Operand *o, uint32_t *tmp)
{
    int ws = x->ws;
    if (o->kind == OPD_REG) return x->k->row_wide[o->r[0]] ? NULL : reg_row(x->k, x->w, o->r[0]);
    if (o->kind == OPD_IMM) {
        uint32_t v = (uint32_t)o->imm;
        for (int l = 0; l < ws; l++) tmp[l] = v;
        return tmp;
    }
    for (int l = 0; l < ws; l++) tmp[l] = (uint32_t)val(x, o, l);
    return tmp;
}

/* sx and zx at 32 bits in 32-bit types, for CMP_LANES: narrower lanes
 * vectorise better. */
static inline int32_t sx32(uint64_t v, int bits) { (void)bits; return (int32_t)(uint32_t)v; }
static inline uint32_t zx32(uint64_t v, int bits) { (void)bits; return (uint32_t)v; }

/* Lane l's 0/1 flag in f[l] to bit l: eight flags at a time, each multiplied
 * into the top byte of a 64-bit product (f is zero beyond ws). */
static LaneMask pack_flags(const uint8_t *f, int ws)
{
    LaneMask r = 0;
    for (int i = 0; i < ws; i += 8) {
        uint64_t v;
        memcpy(&v, f + i, 8);
        r |= (LaneMask)((v * 0x0102040810204080ull) >> 56) << i;
    }
    return r;
}

/* lt and eq of fast_setp over all lanes, operands read through conv (sx or
 * zx) as type T; an immediate b is converted once.  Flags go to byte arrays
 * first, a loop the compiler can vectorise. */
#define CMP_LANES(T, conv) do { \
        uint8_t ltf[WARP_MAX] = { 0 }, eqf[WARP_MAX] = { 0 }; \
        if (bimm) { \
            const T vb = conv(bv, bits); \
            for (int l = 0; l < ws; l++) { T va = conv(a[l], bits); ltf[l] = va < vb; eqf[l] = va == vb; } \
        } else for (int l = 0; l < ws; l++) { \
            T va = conv(a[l], bits), vb = conv(b[l], bits); \
            ltf[l] = va < vb; eqf[l] = va == vb; \
        } \
        lt = pack_flags(ltf, ws); \
        eq = pack_flags(eqf, ws); \
    } while (0)

static int fast_setp(const X *x, LaneMask m)
{
    const Instr *in = x->in;
    int ws = x->ws, bits = x->bits;
    TypeKind k = x->kind;
    if (in->flags || in->cmp == CMP_NONE || in->cmp > CMP_HS || (bits != 32 && bits != 64) ||
        isa_type_is_half((DataType)in->type))
        return 0;
    int bimm = in->opd[2].kind == OPD_IMM && k != TK_FLOAT;
    uint64_t bv = (uint64_t)in->opd[2].imm;
    /* lanes where a < b, where a == b, and where neither is NaN (ordered
     * comparisons are false on NaN) */
    LaneMask lt = 0, eq = 0, ord = x->full;
    uint32_t ta32[WARP_MAX], tb32[WARP_MAX];
    const uint32_t *a32 = k != TK_FLOAT && bits == 32 ? row32(x, &in->opd[1], ta32) : NULL;
    const uint32_t *b32 = a32 && !bimm ? row32(x, &in->opd[2], tb32) : NULL;
    if (a32 && (bimm || b32)) {          /* 32-bit integers in 32-bit registers, read as they are */
        const uint32_t *a = a32, *b = b32;
        if (k == TK_SINT && in->cmp < CMP_LO) CMP_LANES(int32_t, sx32); else CMP_LANES(uint32_t, zx32);
    } else {
        uint64_t ta[WARP_MAX], tb[WARP_MAX];
        const uint64_t *a = row(x, &in->opd[1], ta), *b = bimm ? NULL : row(x, &in->opd[2], tb);
        if (k == TK_FLOAT) {
            for (int l = 0; l < ws; l++) {
                double fa = bits == 32 ? f32(a[l]) : f64(a[l]), fb = bits == 32 ? f32(b[l]) : f64(b[l]);
                if (isnan(fa) || isnan(fb)) ord &= ~(1u << l);
                lt |= (LaneMask)(fa < fb) << l;
                eq |= (LaneMask)(fa == fb) << l;
            }
        } else if (k == TK_SINT && in->cmp < CMP_LO) {
            if (bits == 32) CMP_LANES(int32_t, sx32); else CMP_LANES(int64_t, sx);
        } else {
            if (bits == 32) CMP_LANES(uint32_t, zx32); else CMP_LANES(uint64_t, zx);
        }
    }
    LaneMask gt = ord & ~lt & ~eq, r;
    switch (in->cmp) {
    case CMP_EQ: r = eq; break;
    case CMP_NE: r = ord & ~eq; break;
    case CMP_LT: case CMP_LO: r = lt; break;
    case CMP_LE: case CMP_LS: r = lt | eq; break;
    case CMP_GT: case CMP_HI: r = gt; break;
    default: r = gt | eq; break;          /* CMP_GE, CMP_HS */
    }
    LaneMask c = 0;
    if (in->boolop) {
        const Operand *co = &in->opd[3];
        c = x->w->p[co->r[0]] ^ (co->neg ? ~0u : 0u);
    }
    LaneMask p = in->boolop == BOOL_AND ? (r & c) : in->boolop == BOOL_OR ? (r | c) : in->boolop == BOOL_XOR ? (r ^ c) : r;
    LaneMask *dp = &x->w->p[in->opd[0].r[0]];
    *dp = (*dp & ~m) | (p & m);
    if (in->opd[5].kind == OPD_PRED) {
        LaneMask nr = ~r;
        LaneMask q = in->boolop == BOOL_AND ? (nr & c) : in->boolop == BOOL_OR ? (nr | c) : in->boolop == BOOL_XOR ? (nr ^ c) : nr;
        LaneMask *dq = &x->w->p[in->opd[5].r[0]];
        *dq = (*dq & ~m) | (q & m);
    }
    return 1;
}

/* Whether exec_fast has a row loop for in, decided before any operand row
 * is gathered. */
static int has_row_op(const Instr *in, TypeKind k, int bits)
{
    if (in->opd[0].kind != OPD_REG || (bits != 32 && bits != 64) || (in->flags & ~(unsigned)IF_APPROX) ||
        (in->rnd && in->rnd != RND_RN) || isa_type_is_half((DataType)in->type))
        return 0;
    switch ((Opcode)in->op) {
    case OP_MOV: return k != TK_PRED && in->opd[1].kind != OPD_VEC;
    case OP_ADD: case OP_SUB: case OP_FMA: case OP_AND: case OP_OR: case OP_XOR: case OP_NOT:
    case OP_SHL: case OP_SHR: case OP_SELP:
        return 1;
    case OP_MUL: case OP_MAD: return k == TK_FLOAT || in->mul == MUL_LO || (in->mul == MUL_WIDE && bits == 32);
    case OP_MIN: case OP_MAX: return k != TK_FLOAT;
    default: return 0;
    }
}

/* Where cvta moves an address of a state space: the generic window of its
 * space (global's is 0). */
static uint64_t cvta_window(Space sp)
{
    return sp == SP_SHARED ? MEM_SHARED_WINDOW : sp == SP_LOCAL ? MEM_LOCAL_WINDOW : sp == SP_CONST ? MEM_CONST_WINDOW : 0;
}

/* cvta of a register, a row at a time (cvta.to.global of each pointer
 * parameter opens every nvcc kernel).  1 if handled. */
static int fast_cvta(const X *x, LaneMask m)
{
    const Instr *in = x->in;
    int ws = x->ws;
    if (in->opd[0].kind != OPD_REG || in->opd[1].kind != OPD_REG) return 0;
    int dr = in->opd[0].r[0];
    uint64_t win = cvta_window((Space)in->space), ta[WARP_MAX], td[WARP_MAX], *d = row_dst(x, dr, td);
    const uint64_t *a = row(x, &in->opd[1], ta);
    int dbits = x->k->entry->regs[dr].bits;
    uint64_t wm = dbits >= 64 ? ~0ull : (1ull << dbits) - 1;
    if (in->flags & IF_TO) EACH_LANE(m, l, d[l] = (a[l] - win) & wm);
    else EACH_LANE(m, l, d[l] = (a[l] + win) & wm);
    row_put(x, dr, d, m);
    return 1;
}

/* cvt from one integer type to another without .sat, a row at a time:
 * cvt_op's plain case (extend by the source's signedness, truncate to the
 * destination and extend by its signedness).  1 if handled. */
static int fast_cvt_int(const X *x, LaneMask m)
{
    const Instr *in = x->in;
    int ws = x->ws;
    DataType dt = (DataType)in->type, st = (DataType)in->stype;
    TypeKind dk = isa_type_kind(dt), sk = isa_type_kind(st);
    if (in->opd[0].kind != OPD_REG || (in->opd[1].kind != OPD_REG && in->opd[1].kind != OPD_IMM) ||
        (in->flags & IF_SAT) || dk == TK_FLOAT || sk == TK_FLOAT || dk == TK_PRED || sk == TK_PRED ||
        isa_type_is_half(dt) || isa_type_is_half(st) || isa_type_lanes(dt) != 1)
        return 0;
    int dr = in->opd[0].r[0], db = isa_type_bits(dt), sb = isa_type_bits(st), dbits = x->k->entry->regs[dr].bits;
    uint64_t wm = dbits >= 64 ? ~0ull : (1ull << dbits) - 1, ta[WARP_MAX], td[WARP_MAX];
    uint64_t *d = row_dst(x, dr, td);
    const uint64_t *a = row(x, &in->opd[1], ta);
    if (sk == TK_SINT && dk == TK_SINT) EACH_LANE(m, l, d[l] = (uint64_t)sx((uint64_t)sx(a[l], sb), db) & wm);
    else if (sk == TK_SINT) EACH_LANE(m, l, d[l] = zx((uint64_t)sx(a[l], sb), db) & wm);
    else if (dk == TK_SINT) EACH_LANE(m, l, d[l] = (uint64_t)sx(zx(a[l], sb), db) & wm);
    else EACH_LANE(m, l, d[l] = zx(zx(a[l], sb), db) & wm);
    row_put(x, dr, d, m);
    return 1;
}

/* 1 if handled. */
#if defined(__x86_64__) && defined(__GNUC__)
#define HOST_FMA_CHECK() __builtin_cpu_supports("fma")
#else
#define HOST_FMA_CHECK() 0
#endif

/* The row loops of exec_fast, made twice from exec_rowops.inc: on rows of
 * 8-byte lanes, and on rows of 4-byte lanes for 32-bit instructions whose
 * destination and register operands are all 32-bit registers (no widening
 * copies; both give the same bits). */
#define ROW_T uint64_t
#define ROW_OPS row_ops64
#define ROW_FMA fma_row64
#include "sim/core/exec_rowops.inc"
#define ROW_T uint32_t
#define ROW_OPS row_ops32
#define ROW_FMA fma_row32
#include "sim/core/exec_rowops.inc"

/* exec_fast's decisions for an instruction with a row loop, which depend
 * on the instruction alone (exec_prepare, once a launch). */
typedef struct RowInfo {
    uint8_t ok;              /* has_row_op */
    uint8_t d32;             /* a 32-bit instruction into a 32-bit register: 4-byte rows */
    uint8_t a, c;            /* it reads opd[1], opd[3] */
    uint8_t bimm;            /* opd[2] is an immediate (bv) or absent */
    uint64_t wm, bv;         /* the destination's width mask; the immediate b */
} RowInfo;

/* 1 if handled. */
static int exec_fast(const X *x, LaneMask m)
{
    const Instr *in = x->in;
    if (in->op == OP_SETP) return fast_setp(x, m);
    if (in->op == OP_CVT) return fast_cvt_int(x, m);
    if (in->op == OP_CVTA) return fast_cvta(x, m);
    const RowInfo *ri = &x->k->rows[in - x->k->entry->code];
    if (!ri->ok) return 0;
    int dr = in->opd[0].r[0], has_a = ri->a, has_c = ri->c, bimm = ri->bimm;
    uint64_t wm = ri->wm, bv = ri->bv;
    if (ri->d32) {
        uint32_t ta[WARP_MAX], tb[WARP_MAX], tc[WARP_MAX];
        const uint32_t *a = has_a ? row32(x, &in->opd[1], ta) : NULL;
        const uint32_t *b = bimm ? NULL : row32(x, &in->opd[2], tb);
        const uint32_t *c = has_c ? row32(x, &in->opd[3], tc) : NULL;
        if ((a || !has_a) && (b || bimm) && (c || !has_c))
            return row_ops32(x, m, reg_row(x->k, x->w, dr), a, b, (uint32_t)bv, bimm, c, wm);
    }
    uint64_t ta[WARP_MAX], tb[WARP_MAX], tc[WARP_MAX], td[WARP_MAX];
    uint64_t *d = row_dst(x, dr, td);
    const uint64_t *a = has_a ? row(x, &in->opd[1], ta) : NULL;
    const uint64_t *b = bimm ? NULL : row(x, &in->opd[2], tb);
    const uint64_t *c = has_c ? row(x, &in->opd[3], tc) : NULL;
    if (!row_ops64(x, m, d, a, b, bv, bimm, c, wm)) return 0;
    row_put(x, dr, d, m);
    return 1;
}

/* mov, with PTX's packing forms: mov.b32 d, {a, b} puts a in the low bits;
 * mov.b32 {a, b}, d splits d the same way ('_' drops an element). */
static void exec_mov(const X *x, LaneMask m)
{
    const Instr *in = x->in;
    const Operand *d = &in->opd[0], *a = &in->opd[1];
    int ws = x->ws;
    if (d->kind != OPD_VEC && a->kind != OPD_VEC) { FOR_LANES(m, l) wreg(x, d, l, val(x, a, l)); return; }
    const Operand *v = d->kind == OPD_VEC ? d : a;
    int eb = x->bits / v->n;
    FOR_LANES(m, l) {
        if (a->kind == OPD_VEC) {
            uint64_t r = 0;
            for (int i = 0; i < v->n; i++)
                if (v->r[i] != REG_NONE) r |= zx(reg_get(x->k, x->w, v->r[i], l), eb) << (eb * i);
            wreg(x, d, l, r);
            continue;
        }
        uint64_t src = val(x, a, l);
        for (int i = 0; i < v->n; i++) {
            Operand one = { .kind = OPD_REG, .r = { v->r[i] } };
            if (v->r[i] != REG_NONE) wreg(x, &one, l, zx(src >> (eb * i), eb));
        }
    }
}

/* setp on .f16x2/.bf16x2: p from the lower halves, q from the upper, each
 * combined with c by the .and/.or/.xor (PTX ISA, half-precision setp). */
static void exec_setp_x2(const X *x, LaneMask m)
{
    const Instr *in = x->in;
    int ws = x->ws;
    FOR_LANES(m, l) {
        uint64_t a = val(x, &in->opd[1], l), b = val(x, &in->opd[2], l);
        int c = in->boolop ? (int)val(x, &in->opd[3], l) : 0;
        int lo = half_compare(in, (DataType)in->type, (unsigned)a & 0xffffu, (unsigned)b & 0xffffu);
        int hi = half_compare(in, (DataType)in->type, (unsigned)(a >> 16) & 0xffffu, (unsigned)(b >> 16) & 0xffffu);
        wreg(x, &in->opd[0], l, (uint64_t)combine(lo, c, in->boolop));
        if (in->opd[5].kind == OPD_PRED) wreg(x, &in->opd[5], l, (uint64_t)combine(hi, c, in->boolop));
    }
}

/* set (PTX ISA): the comparison at the source type, combined with c, as a
 * value of the destination type: all ones or 0 for .u32/.s32, 1.0 or 0.0
 * for floats; a .f16x2/.bf16x2 source compares each half into its half of
 * d (0xffff or 0 for .u32/.s32). */
static uint64_t set_true(DataType dt, int half_lane)
{
    switch (dt) {
    case T_F32: return 0x3f800000u;
    case T_F64: return 0x3ff0000000000000ull;
    case T_F16: case T_F16X2: return 0x3c00u;
    case T_BF16: case T_BF16X2: return 0x3f80u;
    default: return half_lane ? 0xffffu : ~0ull;
    }
}

static void exec_set(const X *x, LaneMask m)
{
    const Instr *in = x->in;
    DataType dt = (DataType)in->type, st = (DataType)in->stype;
    int ws = x->ws;
    FOR_LANES(m, l) {
        uint64_t a = val(x, &in->opd[1], l), b = val(x, &in->opd[2], l), r = 0;
        int c = in->boolop ? (int)val(x, &in->opd[3], l) : 0;
        if (isa_type_lanes(st) == 2) {
            for (int h = 0, sh = 0; h < 2; h++, sh += 16)
                if (combine(half_compare(in, st, (unsigned)(a >> sh) & 0xffffu, (unsigned)(b >> sh) & 0xffffu), c, in->boolop))
                    r |= set_true(dt, 1) << sh;
        } else if (combine(compare_at(in, st, a, b), c, in->boolop)) r = set_true(dt, 0);
        wreg(x, &in->opd[0], l, r);
    }
}

int exec_prepare(Kernel *k)
{
    const Entry *e = k->entry;
    free(k->rows);
    k->rows = calloc((size_t)(e->ncode ? e->ncode : 1), sizeof *k->rows);
    if (!k->rows) return -1;
    for (int pc = 0; pc < e->ncode; pc++) {
        const Instr *in = &e->code[pc];
        RowInfo *ri = &k->rows[pc];
        int bits = in->type < T_COUNT ? isa_type_bits((DataType)in->type) : 0;
        ri->ok = (uint8_t)has_row_op(in, isa_type_kind((DataType)in->type), bits);
        if (!ri->ok) continue;
        int dbits = e->regs[in->opd[0].r[0]].bits;
        ri->wm = dbits >= 64 ? ~0ull : (1ull << dbits) - 1;
        ri->d32 = bits == 32 && dbits == 32;
        ri->a = in->nops > 1;
        ri->c = in->nops > 3 && in->opd[3].kind != OPD_NONE;
        ri->bimm = in->nops <= 2 || in->opd[2].kind == OPD_NONE || in->opd[2].kind == OPD_IMM;
        ri->bv = in->nops > 2 && in->opd[2].kind == OPD_IMM ? (uint64_t)in->opd[2].imm : 0;
    }
    return 0;
}

/* ---- dispatch ---------------------------------------------------------------------- */
/* The context an instruction runs in: its type's width and kind, the
 * warp's full mask, where its held global lanes go. */
static X context(Kernel *k, Warp *w, const Instr *in, DeferLog *defer)
{
    int known = in->type < T_COUNT;
    X x = { k, w, in, k->warp_size, 0, known ? isa_type_bits((DataType)in->type) : 0, isa_type_kind((DataType)in->type),
            defer };
    x.full = x.ws == 32 ? 0xffffffffu : (1u << x.ws) - 1;
    return x;
}

/* A float instruction's directed rounding (.rz, .rm, .rp: cvt rounds by
 * itself) set for its lanes; returns the mode to restore, -1 none. */
static int rounding_begin(const X *x)
{
    const Instr *in = x->in;
    if (x->kind != TK_FLOAT || in->op == OP_CVT || (in->rnd != RND_RZ && in->rnd != RND_RM && in->rnd != RND_RP))
        return -1;
    int old = fegetround();
    fesetround(fe_mode(in->rnd));
    return old;
}

static void rounding_end(int old)
{
    if (old >= 0) fesetround(old);
}

int exec_instr(Kernel *k, Warp *w, const Instr *in, LaneMask m, ExecOut *out)
{
    /* global stores and atomics wait for the end of the cycle (k->defer);
     * loads read at issue */
    X x = context(k, w, in, in->op == OP_ST || in->op == OP_ATOM || in->op == OP_RED ? k->defer : NULL);
    int ws = x.ws;
    out->has_mem = 0;
    if (!k->slow && exec_fast(&x, m)) return 0;
    TypeKind tk = x.kind;
    int is64 = x.bits == 64;
    int fenv_old = rounding_begin(&x);
    int rc = 0;
    switch ((Opcode)in->op) {
    case OP_MOV: exec_mov(&x, m); break;
    case OP_LD: case OP_ST: rc = exec_ldst(&x, m, out); break;
    case OP_ATOM: case OP_RED: rc = exec_atom(&x, m, out); break;
    case OP_CVTA: {
        uint64_t win = cvta_window((Space)in->space);
        FOR_LANES(m, l) {
            uint64_t a = val(&x, &in->opd[1], l);
            wreg(&x, &in->opd[0], l, (in->flags & IF_TO) ? a - win : a + win);
        }
        break;
    }
    case OP_CVT: FOR_LANES(m, l) wreg(&x, &in->opd[0], l, cvt_op(&x, l)); break;
    case OP_SETP:
        if (isa_type_lanes((DataType)in->type) == 2) { exec_setp_x2(&x, m); break; }
        FOR_LANES(m, l) {
            int t = compare(&x, l);
            int c = in->boolop ? (int)val(&x, &in->opd[3], l) : 0;
            wreg(&x, &in->opd[0], l, (uint64_t)combine(t, c, in->boolop));
            if (in->opd[5].kind == OPD_PRED) wreg(&x, &in->opd[5], l, (uint64_t)combine(!t, c, in->boolop));
        }
        break;
    case OP_SET: exec_set(&x, m); break;
    case OP_SELP:
        FOR_LANES(m, l) wreg(&x, &in->opd[0], l, val(&x, &in->opd[3], l) ? val(&x, &in->opd[1], l) : val(&x, &in->opd[2], l));
        break;
    case OP_AND: case OP_OR: case OP_XOR: case OP_NOT:
        if (in->type == T_PRED) {
            FOR_LANES(m, l) {
                uint64_t a = val(&x, &in->opd[1], l), b = in->op == OP_NOT ? 0 : val(&x, &in->opd[2], l);
                uint64_t r = in->op == OP_AND ? (a & b) : in->op == OP_OR ? (a | b) : in->op == OP_XOR ? (a ^ b) : !a;
                wreg(&x, &in->opd[0], l, r);
            }
            break;
        }
        FOR_LANES(m, l) wreg(&x, &in->opd[0], l, int_op(&x, l));
        break;
    case OP_ADD: case OP_SUB: case OP_MUL: case OP_MAD: case OP_DIV: case OP_MIN: case OP_MAX:
    case OP_ABS: case OP_NEG: case OP_COPYSIGN:
        if (isa_type_is_half((DataType)in->type)) { FOR_LANES(m, l) wreg(&x, &in->opd[0], l, half_op(&x, l)); }
        else if (tk == TK_FLOAT) { FOR_LANES(m, l) wreg(&x, &in->opd[0], l, float_op(&x, l, is64)); }
        else FOR_LANES(m, l) wreg(&x, &in->opd[0], l, int_op(&x, l));
        break;
    case OP_FMA:
        if (isa_type_is_half((DataType)in->type)) { FOR_LANES(m, l) wreg(&x, &in->opd[0], l, half_op(&x, l)); break; }
        FOR_LANES(m, l) wreg(&x, &in->opd[0], l, float_op(&x, l, is64));
        break;
    case OP_EX2:
        if (isa_type_is_half((DataType)in->type)) { FOR_LANES(m, l) wreg(&x, &in->opd[0], l, half_op(&x, l)); break; }
        FOR_LANES(m, l) wreg(&x, &in->opd[0], l, float_op(&x, l, is64));
        break;
    case OP_RCP: case OP_SQRT: case OP_RSQRT: case OP_SIN: case OP_COS: case OP_LG2:
        FOR_LANES(m, l) wreg(&x, &in->opd[0], l, float_op(&x, l, is64));
        break;
    case OP_REM: case OP_CNOT: case OP_SHL: case OP_SHR: case OP_POPC: case OP_CLZ: case OP_BREV:
    case OP_BFE: case OP_BFI: case OP_BFIND: case OP_PRMT: case OP_FNS:
        FOR_LANES(m, l) wreg(&x, &in->opd[0], l, int_op(&x, l));
        break;
    case OP_VOTE: if ((rc = check_members(&x, m, 2)) == 0) exec_vote(&x, m); break;
    case OP_SHFL: if ((rc = check_members(&x, m, 4)) == 0) exec_shfl(&x, m); break;
    case OP_REDUX: if ((rc = check_members(&x, m, 2)) == 0) exec_redux(&x, m); break;
    case OP_MATCH: if ((rc = check_members(&x, m, 2)) == 0) exec_match(&x, m); break;
    case OP_NANOSLEEP: break;   /* 0 ns: within PTX's [0, 2t] */
    case OP_CP_ASYNC: rc = exec_cp_async(&x, m, out); break;
    case OP_CP_ASYNC_COMMIT: case OP_CP_ASYNC_WAIT: case OP_CP_ASYNC_WAIT_ALL: break;   /* the copies have landed */
    case OP_ACTIVEMASK: FOR_LANES(m, l) wreg(&x, &in->opd[0], l, m); break;
    /* control and synchronisation are handled by warp_issue */
    case OP_BAR_WARP_SYNC: rc = check_members(&x, m, 0); break;
    case OP_BRA: case OP_BAR_SYNC: case OP_BARRIER_SYNC: case OP_BAR_ARRIVE: case OP_BARRIER_ARRIVE:
    case OP_MEMBAR: case OP_FENCE: case OP_RET: case OP_EXIT: case OP_CALL: case OP_COUNT:
        break;
    }
    rounding_end(fenv_old);
    return rc;
}

void exec_replay(Kernel *k, const Deferred *d)
{
    const Instr *in = d->in;
    X x = context(k, d->w, in, NULL);
    ExecOut out;
    int fenv_old = rounding_begin(&x);
    /* the lanes were checked at issue and address the same bytes now: the
     * warp has issued nothing since, so its registers are as they were
     * (an atomic's destination is written here) */
    if (in->op == OP_ATOM || in->op == OP_RED) exec_atom(&x, d->lanes, &out);
    else exec_ldst(&x, d->lanes, &out);
    rounding_end(fenv_old);
}

/* ---- vprintf: CUDA's printf (printf.h) -------------------------------------------- */
typedef struct PrintfLane {
    const X *x;
    int lane;
    uint64_t args;       /* generic address of the packed arguments */
} PrintfLane;

static int printf_read(void *ctx, uint64_t offset, int bytes, uint64_t *v)
{
    const PrintfLane *pl = ctx;
    Space sp = SP_NONE;
    uint64_t a = pl->args + offset;
    const uint8_t *p = locate(pl->x, pl->lane, &sp, &a, bytes);
    if (!p) return -1;
    *v = load_elem(p, bytes == 8 ? T_B64 : T_B32);
    return 0;
}

static int printf_str(void *ctx, uint64_t addr, char *buf, size_t cap)
{
    const PrintfLane *pl = ctx;
    size_t i = 0;
    for (; i + 1 < cap; i++) {
        Space sp = SP_NONE;
        uint64_t a = addr + i;
        const uint8_t *p = locate(pl->x, pl->lane, &sp, &a, 1);
        if (!p) return -1;
        if (!*p) break;
        buf[i] = (char)*p;
    }
    buf[i] = '\0';
    return 0;
}

int exec_vprintf(Kernel *k, Warp *w, const Instr *in, const CallSite *cs, LaneMask m)
{
    X x = { k, w, in, k->warp_size, 0, 64, TK_BITS, NULL };
    int ws = x.ws;
    const Entry *e = k->entry;
    const Param *fmt_p = &e->params[cs->params[cs->nrets]], *args_p = &e->params[cs->params[cs->nrets + 1]];
    FOR_LANES(m, l) {
        uint8_t *frame = w->fmem + (size_t)l * k->frame_stride + w->frame_base;
        uint64_t fmt_addr = load_elem(frame + fmt_p->offset, T_B64);
        PrintfLane pl = { &x, l, load_elem(frame + args_p->offset, T_B64) };
        char fmt[PRINTF_MAX_LINE], line[PRINTF_MAX_LINE];
        if (printf_str(&pl, fmt_addr, fmt, sizeof fmt)) return -1;
        PrintfArgs a = { printf_read, printf_str, &pl };
        int used = printf_format(fmt, &a, line, sizeof line);
        if (used < 0) return -1;
        printf_keep(k, w, l, line);
        w->nprintf[l]++;
        if (cs->nrets) {   /* CUDA's printf returns the number of arguments it parsed */
            uint32_t r = (uint32_t)used;
            memcpy(frame + e->params[cs->params[0]].offset, &r, sizeof r);
        }
    }
    return 0;
}
