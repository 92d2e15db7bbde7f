/* test_exec_diff.c - the functional engine's row loops against its
 * per-lane paths, on random programs.
 *
 * exec_fast (add, mul, fma, logic, shifts, selp, min, max, mov, setp, cvt
 * between integers, cvta) and fast_ldst (loads and stores of 4 and 8
 * bytes) work a whole register row at a time; exec_instr's switch works
 * lane by lane and is what the rest of the tests pin to the PTX manual.
 * Here each case is a random program over 32- and 64-bit integer, f32,
 * f64 and predicate registers (with scalar and vector loads and stores of
 * shared memory and loads of its input, shfl and vote on the active lanes,
 * if/else regions and loops whose lanes diverge, two deep), its values
 * drawn to reach the
 * edges (0, -1, the extremes, NaNs, infinities, subnormals, signed zeros,
 * random bits), a third of its instructions guarded by a random predicate,
 * in a block of 48 threads (the second warp has 16 lanes).  It runs
 * functionally with the row loops (the default) and without
 * (RunOptions.slow_paths), and in the PTX's own order (core.schedule =
 * source: no back end); every register of every thread, stored to `out`,
 * must hold the same bits each way; every fourth program also runs on the
 * timing model, and every fourth with the run-time checks on (their own
 * issue path), which must leave the same.  1,000 programs (250 under the
 * sanitizers); 19,000 more passed when the test was written.  The seeds
 * are fixed: a failure prints the program and the first register that
 * differs, and `build/tests/test_exec_diff SEED` prints program SEED.
 * The first run found a NaN's payload differing between the two paths;
 * an H100's NaN bits (nan_bits.csv, below) now decide it, on both.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "isa/asm.h"
#include "sim/base/config.h"
#include "sim/front/report.h"
#include "sim/core/check.h"
#include "sim/front/run.h"
#include "tests/sanitized.h"

enum { THREADS = 48, NREG = 6, NPRED = 4, SLOTS = 4 * NREG + NPRED, PROGRAMS = 1000 };

/* instructions or regions a program: 24 (export may ask for fewer) */
static int body = 24;

/* ---- random programs ---------------------------------------------------------- */
static uint64_t next(uint64_t *s)   /* splitmix64 */
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static int pick(uint64_t *s, int n) { return (int)(next(s) % (uint64_t)n); }

/* A register's first value: the bits an edge case has as a 32- or 64-bit
 * integer, float or double, or random bits. */
static uint64_t edge_value(uint64_t *s)
{
    static const uint64_t edges[] = {
        0, 1, 2, 3, 31, 32, 33, 63, 64, 0xffffffffffffffffull, 0xfffffffffffffffeull,
        0x7fffffff, 0x80000000, 0xffffffff, 0x7fffffffffffffffull, 0x8000000000000000ull,
        0x3f800000, 0xbf800000, 0x7f800000, 0xff800000, 0x7fc00000, 0x7fa00001, 0xffc00001, 0x00000001, 0x80000000,
        0x007fffff, 0x7f7fffff, 0x4b800000, 0xcf000000, 0x4f000000,
        0x3ff0000000000000ull, 0xbff0000000000000ull, 0x7ff0000000000000ull, 0xfff0000000000000ull,
        0x7ff8000000000000ull, 0x7ff4000000000001ull, 0x0000000000000001ull, 0x000fffffffffffffull,
        0x43e0000000000000ull, 0xc3e0000000000000ull, 0x41f0000000000000ull,
    };
    int k = pick(s, 4);
    if (k == 0) return edges[pick(s, (int)(sizeof edges / sizeof edges[0]))];
    if (k == 1) return (uint64_t)(int64_t)(pick(s, 41) - 20);           /* small, either sign */
    if (k == 2) {                                                         /* a float or double of modest size */
        double d = (double)(pick(s, 20001) - 10000) / (double)(1 + pick(s, 64));
        float f = (float)d;
        uint32_t u;
        uint64_t v;
        memcpy(&u, &f, 4);
        memcpy(&v, &d, 8);
        return pick(s, 2) ? (uint64_t)u : v;
    }
    return next(s);
}

typedef struct Text { char *s; size_t n, cap; } Text;

static void put(Text *t, const char *fmt, ...)
{
    va_list ap;
    for (;;) {
        va_start(ap, fmt);
        int k = vsnprintf(t->s + t->n, t->cap - t->n, fmt, ap);
        va_end(ap);
        assert_true(k >= 0);
        if (t->n + (size_t)k < t->cap) { t->n += (size_t)k; return; }
        t->cap = t->cap * 2 + (size_t)k + 256;
        t->s = realloc(t->s, t->cap);
        assert_non_null(t->s);
    }
}

/* The register classes: %r (.b32), %rd (.b64), %f (.f32), %fd (.f64). */
enum { R32, R64, F32, F64 };
static const char *const prefix[] = { "%r", "%rd", "%f", "%fd" };

static void reg(Text *t, uint64_t *s, int cls) { put(t, "%s%d", prefix[cls], pick(s, NREG)); }

/* An operand b: a register of cls, or now and then an immediate. */
static void src_b(Text *t, uint64_t *s, int cls)
{
    if (pick(s, 4)) { reg(t, s, cls); return; }
    uint64_t v = edge_value(s);
    if (cls == R32) put(t, "%lld", (long long)(int32_t)(uint32_t)v);
    else if (cls == R64) put(t, "%lld", (long long)(int64_t)v);
    else if (cls == F32) put(t, "0f%08X", (unsigned)(uint32_t)v);
    else put(t, "0d%016llX", (unsigned long long)v);
}

static void shift_amount(Text *t, uint64_t *s)
{
    if (pick(s, 2)) reg(t, s, R32);
    else put(t, "%d", pick(s, 70));
}

/* A warp-wide instruction (shfl, vote), on the lanes active there: never
 * guarded, its member mask the active lanes' (activemask), so that it is
 * defined in divergent code and in the second, partial warp. */
static void warp_wide(Text *t, uint64_t *s)
{
    static const char *const mode[] = { "idx", "up", "down", "bfly" };
    put(t, "    activemask.b32 %%t;\n    ");
    if (pick(s, 2)) {
        int m = pick(s, 4);
        put(t, "shfl.sync.%s.b32 ", mode[m]);
        reg(t, s, pick(s, 2) ? R32 : F32);
        if (pick(s, 3) == 0) put(t, "|%%p%d", pick(s, NPRED));
        put(t, ", ");
        reg(t, s, pick(s, 2) ? R32 : F32);
        put(t, ", ");
        if (pick(s, 2)) reg(t, s, R32);
        else put(t, "%d", pick(s, 33));
        put(t, ", %d, %%t;\n", (int[]){ 31, 0, 0x1f, 0x1c1f, 7 }[pick(s, 5)] & (m == 1 ? 0x1f00 : 0x1f1f));
        return;
    }
    static const char *const vote[] = { "all.pred", "any.pred", "uni.pred", "ballot.b32" };
    int v = pick(s, 4);
    put(t, "vote.sync.%s ", vote[v]);
    if (v == 3) reg(t, s, R32);
    else put(t, "%%p%d", pick(s, NPRED));
    put(t, ", %s%%p%d, %%t;\n", pick(s, 2) ? "" : "!", pick(s, NPRED));
}

/* One instruction of the body. */
static void instruction(Text *t, uint64_t *s)
{
    if (pick(s, 16) == 0) { warp_wide(t, s); return; }
    static const char *const int_cmp[] = { "eq", "ne", "lt", "le", "gt", "ge", "lo", "ls", "hi", "hs" };
    static const char *const flt_cmp[] = { "eq", "ne", "lt", "le", "gt", "ge", "equ", "neu", "ltu", "leu", "gtu",
                                           "geu", "num", "nan" };
    static const char *const bool_op[] = { "and", "or", "xor" };
    put(t, "    ");
    if (!pick(s, 3)) put(t, "@%s%%p%d ", pick(s, 2) ? "" : "!", pick(s, NPRED));
    int wide = pick(s, 2), cls = wide ? R64 : R32;
    const char *u = wide ? "u64" : "u32", *si = wide ? "s64" : "s32", *b = wide ? "b64" : "b32";
    const char *sgn = pick(s, 2) ? u : si;
    switch (pick(s, 33)) {
    case 0: case 1: {
        static const char *const ops[] = { "add", "sub", "min", "max" };
        put(t, "%s.%s ", ops[pick(s, 4)], sgn);
        reg(t, s, cls); put(t, ", "); reg(t, s, cls); put(t, ", "); src_b(t, s, cls);
        break;
    }
    case 2:
        put(t, "mul.%s.%s ", pick(s, 2) ? "lo" : "hi", sgn);
        reg(t, s, cls); put(t, ", "); reg(t, s, cls); put(t, ", "); src_b(t, s, cls);
        break;
    case 3:
        put(t, "mad.%s.%s ", pick(s, 2) ? "lo" : "hi", sgn);
        reg(t, s, cls); put(t, ", "); reg(t, s, cls); put(t, ", "); src_b(t, s, cls); put(t, ", "); reg(t, s, cls);
        break;
    case 4: {   /* 32 x 32 -> 64 */
        int mad = pick(s, 2);
        put(t, "%s.wide.%s ", mad ? "mad" : "mul", pick(s, 2) ? "u32" : "s32");
        reg(t, s, R64); put(t, ", "); reg(t, s, R32); put(t, ", "); src_b(t, s, R32);
        if (mad) { put(t, ", "); reg(t, s, R64); }
        break;
    }
    case 5: case 6: {
        static const char *const ops[] = { "and", "or", "xor" };
        put(t, "%s.%s ", ops[pick(s, 3)], b);
        reg(t, s, cls); put(t, ", "); reg(t, s, cls); put(t, ", "); src_b(t, s, cls);
        break;
    }
    case 7:
        put(t, "%s.%s ", pick(s, 2) ? "not" : "mov", b);
        reg(t, s, cls); put(t, ", "); pick(s, 3) ? reg(t, s, cls) : src_b(t, s, cls);
        break;
    case 8:
        put(t, "shl.%s ", b);
        reg(t, s, cls); put(t, ", "); reg(t, s, cls); put(t, ", "); shift_amount(t, s);
        break;
    case 9: {
        const char *ty[] = { b, u, si };
        put(t, "shr.%s ", ty[pick(s, 3)]);
        reg(t, s, cls); put(t, ", "); reg(t, s, cls); put(t, ", "); shift_amount(t, s);
        break;
    }
    case 10: {   /* selp of any class */
        static const char *const ty[] = { "b32", "b64", "f32", "f64" };
        int c = pick(s, 4);
        put(t, "selp.%s ", ty[c]);
        reg(t, s, c); put(t, ", "); reg(t, s, c); put(t, ", "); src_b(t, s, c); put(t, ", %%p%d", pick(s, NPRED));
        break;
    }
    case 11:
        put(t, "%s.%s ", pick(s, 2) ? "neg" : "abs", si);
        reg(t, s, cls); put(t, ", "); reg(t, s, cls);
        break;
    case 12: case 13: {   /* setp, with a second predicate or a combining one now and then */
        int c = pick(s, 4), fl = c >= F32;
        static const char *const ity[] = { "u32", "s32", "b32", "u64", "s64", "b64" };
        const char *ty = c == F32 ? "f32" : c == F64 ? "f64" : ity[(c == R64) * 3 + pick(s, 3)];
        const char *cmp = fl ? flt_cmp[pick(s, 14)] : ty[0] == 'b' ? int_cmp[pick(s, 2)] : int_cmp[pick(s, 6) + (ty[0] == 'u') * 4 * pick(s, 2)];
        int comb = pick(s, 3) == 0;
        put(t, "setp.%s%s%s.%s %%p%d", cmp, comb ? "." : "", comb ? bool_op[pick(s, 3)] : "", ty, pick(s, NPRED));
        if (pick(s, 3) == 0) put(t, "|%%p%d", pick(s, NPRED));
        put(t, ", "); reg(t, s, c); put(t, ", "); src_b(t, s, c);
        if (comb) put(t, ", %s%%p%d", pick(s, 2) ? "" : "!", pick(s, NPRED));
        break;
    }
    case 14: {   /* integer conversions: narrow to wide, wide to narrow, within a width */
        static const char *const small[] = { "u8", "s8", "u16", "s16", "u32", "s32" };
        int to64 = pick(s, 2), from64 = pick(s, 2);
        const char *dt = to64 ? (pick(s, 2) ? "u64" : "s64") : small[4 + pick(s, 2)];
        const char *st = from64 ? (pick(s, 2) ? "u64" : "s64") : small[pick(s, 6)];
        put(t, "cvt.%s.%s ", dt, st);
        reg(t, s, to64 ? R64 : R32); put(t, ", "); reg(t, s, from64 ? R64 : R32);
        break;
    }
    case 15:
        put(t, "cvta%s.global.u64 ", pick(s, 2) ? ".to" : "");
        reg(t, s, R64); put(t, ", "); reg(t, s, R64);
        break;
    case 16: case 17: case 18: {   /* float arithmetic */
        static const char *const ops[] = { "add", "sub", "mul", "min", "max" };
        static const char *const rnd[] = { "", ".rn", ".rz", ".rm", ".rp" };
        int c = pick(s, 2) ? F32 : F64, o = pick(s, 5);
        put(t, "%s%s.%s ", ops[o], o < 3 ? rnd[pick(s, 5)] : "", c == F32 ? "f32" : "f64");
        reg(t, s, c); put(t, ", "); reg(t, s, c); put(t, ", "); src_b(t, s, c);
        break;
    }
    case 19: case 20: {
        static const char *const rnd[] = { ".rn", ".rz", ".rm", ".rp" };
        int c = pick(s, 2) ? F32 : F64;
        put(t, "fma%s.%s ", rnd[pick(s, 4) ? 0 : pick(s, 4)], c == F32 ? "f32" : "f64");
        reg(t, s, c); put(t, ", "); reg(t, s, c); put(t, ", "); src_b(t, s, c); put(t, ", "); reg(t, s, c);
        break;
    }
    case 21: {
        int c = pick(s, 2) ? F32 : F64;
        static const char *const ops[] = { "neg", "abs", "mov" };
        put(t, "%s.%s ", ops[pick(s, 3)], c == F32 ? "f32" : "f64");
        reg(t, s, c); put(t, ", "); reg(t, s, c);
        break;
    }
    case 26: case 27: case 28: {   /* loads and stores, scalar and vector: this thread's 32 bytes of
                                      shared memory (%tc) or its slots of `in` (%ta, loads) */
        static const char *const ty[] = { "u32", "u64", "f32", "f64" };
        int c = pick(s, 4), vec = (int[]){ 1, 2, 4 }[pick(s, 3)], esz = c == R64 || c == F64 ? 8 : 4;
        if (vec * esz > 16) vec = 2;
        int store = pick(s, 2), global = !store && pick(s, 3) == 0;
        int span = global ? SLOTS * 8 : 32, off = pick(s, span / (vec * esz)) * vec * esz;
        put(t, "%s.%s%s.%s ", store ? "st" : "ld", global ? "global" : "shared", vec == 1 ? "" : vec == 2 ? ".v2" : ".v4", ty[c]);
        if (store) put(t, "[%s+%d], ", global ? "%ta" : "%tc", off);
        if (vec > 1) {   /* distinct registers: a load may not write one twice */
            int first = pick(s, NREG - vec + 1);
            put(t, "{");
            for (int k = 0; k < vec; k++) put(t, "%s%s%d", k ? ", " : "", prefix[c], first + k);
            put(t, "}");
        } else reg(t, s, c);
        if (!store) put(t, ", [%s+%d]", global ? "%ta" : "%tc", off);
        break;
    }
    case 29: {   /* integer division (by zero too: docs/isa.md) and bit counts */
        static const char *const bitop[] = { "popc", "clz", "brev", "bfind", "cnot" };
        if (pick(s, 2)) {
            put(t, "%s.%s ", pick(s, 2) ? "div" : "rem", sgn);
            reg(t, s, cls); put(t, ", "); reg(t, s, cls); put(t, ", "); src_b(t, s, cls);
        } else {
            int o = pick(s, 5);
            put(t, "%s.%s ", bitop[o], o == 3 ? sgn : b);
            reg(t, s, o < 2 || o == 3 ? R32 : cls); put(t, ", "); reg(t, s, cls);
        }
        break;
    }
    case 30: {   /* bit fields and byte permutes (32-bit) */
        int o = pick(s, 3);
        if (o == 0) { put(t, "bfe.%s ", pick(s, 2) ? "u32" : "s32"); reg(t, s, R32); put(t, ", "); reg(t, s, R32); put(t, ", "); shift_amount(t, s); put(t, ", "); shift_amount(t, s); }
        else if (o == 1) { put(t, "bfi.b32 "); reg(t, s, R32); put(t, ", "); reg(t, s, R32); put(t, ", "); reg(t, s, R32); put(t, ", "); shift_amount(t, s); put(t, ", "); shift_amount(t, s); }
        else { put(t, "prmt.b32 "); reg(t, s, R32); put(t, ", "); reg(t, s, R32); put(t, ", "); reg(t, s, R32); put(t, ", "); src_b(t, s, R32); }
        break;
    }
    case 31: {   /* saturating and narrow conversions; set into a register */
        static const char *const nt[] = { "u8", "s8", "u16", "s16" };
        if (pick(s, 2)) {
            const char *st = pick(s, 2) ? "s32" : "u32";   /* .sat needs two types (ptxas) */
            put(t, "cvt.sat.%s.%s ", pick(s, 2) ? nt[pick(s, 4)] : st[0] == 's' ? "u32" : "s32", st);
            reg(t, s, R32); put(t, ", "); reg(t, s, R32);
        } else {
            int c = pick(s, 4);
            static const char *const ty[] = { "s32", "u64", "f32", "f64" };
            put(t, "set.%s.%s.%s ", c >= F32 ? "ltu" : "ge", pick(s, 2) ? "u32" : "f32", ty[c]);
            reg(t, s, R32);   /* a .u32 or .f32 result in a 32-bit register */
            put(t, ", "); reg(t, s, c); put(t, ", "); src_b(t, s, c);
        }
        break;
    }
    case 32: {   /* copysign, rcp, sqrt and the approximate functions */
        int c = pick(s, 2) ? F32 : F64, o = pick(s, 4);
        const char *ty = c == F32 ? "f32" : "f64";
        if (o == 0) { put(t, "copysign.%s ", ty); reg(t, s, c); put(t, ", "); reg(t, s, c); put(t, ", "); reg(t, s, c); }
        else if (o == 1) { put(t, "%s.rn.%s ", pick(s, 2) ? "rcp" : "sqrt", ty); reg(t, s, c); put(t, ", "); reg(t, s, c); }
        else if (o == 2) { put(t, "div.rn.%s ", ty); reg(t, s, c); put(t, ", "); reg(t, s, c); put(t, ", "); src_b(t, s, c); }
        else { static const char *const fn[] = { "sin", "cos", "ex2", "lg2", "rsqrt" }; put(t, "%s.approx.f32 ", fn[pick(s, 5)]); reg(t, s, F32); put(t, ", "); reg(t, s, F32); }
        break;
    }
    case 22: {   /* float <-> integer and float <-> double */
        static const char *const ity[] = { "u32", "s32", "u64", "s64" };
        int k = pick(s, 4), i = pick(s, 4), i64 = i >= 2;
        if (k == 0) { put(t, "cvt.rn.f32.%s ", ity[i]); reg(t, s, F32); put(t, ", "); reg(t, s, i64 ? R64 : R32); }
        else if (k == 1) { put(t, "cvt.rzi.%s.f64 ", ity[i]); reg(t, s, i64 ? R64 : R32); put(t, ", "); reg(t, s, F64); }
        else if (k == 2) { put(t, "cvt.f64.f32 "); reg(t, s, F64); put(t, ", "); reg(t, s, F32); }
        else { put(t, "cvt.rn.f32.f64 "); reg(t, s, F32); put(t, ", "); reg(t, s, F64); }
        break;
    }
    default: {   /* a move between classes of the same width */
        int w = pick(s, 2);
        put(t, "mov.%s ", w ? "b64" : "b32");
        int d = w ? (pick(s, 2) ? R64 : F64) : (pick(s, 2) ? R32 : F32), a = w ? (pick(s, 2) ? R64 : F64) : (pick(s, 2) ? R32 : F32);
        reg(t, s, d); put(t, ", "); reg(t, s, a);
        break;
    }
    }
    put(t, ";\n");
}

/* An instruction, or (depth allowing) a region of control flow around a
 * few: an if/else on a per-lane predicate (divergent), or a loop whose
 * trip count, 0 to 3, comes from a register's low bits (divergent too) or
 * is the same for every lane.  The loop counter is %lc<depth>, which the
 * body never writes; labels are numbered by *label. */
static void region(Text *t, uint64_t *s, int depth, int *label)
{
    int k = depth < 2 ? pick(s, 10) : 9;
    if (k == 0 || k == 1) {
        int l = (*label)++, n1 = 1 + pick(s, 3), n2 = pick(s, 3);
        put(t, "    @%s%%p%d bra $L%d_else;\n", pick(s, 2) ? "" : "!", pick(s, NPRED), l);
        for (int i = 0; i < n1; i++) region(t, s, depth + 1, label);
        put(t, "    bra $L%d_end;\n$L%d_else:\n", l, l);
        for (int i = 0; i < n2; i++) region(t, s, depth + 1, label);
        put(t, "$L%d_end:\n", l);
        return;
    }
    if (k == 2) {
        int l = (*label)++, n = 1 + pick(s, 3);
        if (pick(s, 2)) put(t, "    and.b32 %%lc%d, %%r%d, 3;\n", depth, pick(s, NREG));
        else put(t, "    mov.u32 %%lc%d, %d;\n", depth, pick(s, 4));
        put(t, "    setp.eq.u32 %%lp%d, %%lc%d, 0;\n    @%%lp%d bra $L%d_end;\n$L%d_top:\n", depth, depth, depth, l, l);
        for (int i = 0; i < n; i++) region(t, s, depth + 1, label);
        put(t, "    sub.u32 %%lc%d, %%lc%d, 1;\n    setp.ne.u32 %%lp%d, %%lc%d, 0;\n    @%%lp%d bra $L%d_top;\n$L%d_end:\n",
            depth, depth, depth, depth, depth, l, l);
        return;
    }
    instruction(t, s);
}

/* Program `seed`: its text (the caller frees). */
static char *program(uint64_t seed)
{
    uint64_t s = seed * 0x2545f4914f6cdd1dull + 1;
    Text t = { 0 };
    put(&t, "// test_exec_diff program %llu\n.buffer in .u64[%d] values(", (unsigned long long)seed, THREADS * SLOTS);
    for (int i = 0; i < THREADS * SLOTS; i++) put(&t, "%s0x%llx", i ? ", " : "", (unsigned long long)edge_value(&s));
    put(&t, ")\n.buffer out .u64[%d] zero\n", THREADS * SLOTS);
    put(&t, ".launch k grid=(1) block=(%d) args=(in, out)\n\n", THREADS);
    put(&t, ".entry k (.param .u64 pin, .param .u64 pout)\n{\n");
    put(&t, "    .reg .b32 %%r<%d>;\n    .reg .b64 %%rd<%d>;\n    .reg .f32 %%f<%d>;\n    .reg .f64 %%fd<%d>;\n",
        NREG, NREG, NREG, NREG);
    put(&t, "    .reg .pred %%p<%d>, %%lp<2>;\n    .reg .b32 %%t, %%lc<2>;\n    .reg .b64 %%ta, %%tb, %%tc;\n", NPRED);
    put(&t, "    .shared .align 16 .b8 sh[%d];\n", THREADS * 32);
    put(&t, "    ld.param.u64 %%ta, [pin];\n    mov.u32 %%t, %%tid.x;\n    mul.wide.u32 %%tb, %%t, %d;\n"
            "    add.s64 %%ta, %%ta, %%tb;\n", SLOTS * 8);
    /* this thread's 32 bytes of shared memory, zeroed (a GPU's shared
     * memory starts with whatever it held) */
    put(&t, "    mov.u64 %%tc, sh;\n    mul.wide.u32 %%tb, %%t, 32;\n    add.s64 %%tc, %%tc, %%tb;\n"
            "    mov.b64 %%tb, 0;\n    st.shared.v2.u64 [%%tc+0], {%%tb, %%tb};\n    st.shared.v2.u64 [%%tc+16], {%%tb, %%tb};\n"
            "    mul.wide.u32 %%tb, %%t, %d;\n", SLOTS * 8);
    for (int i = 0; i < NPRED; i++)
        put(&t, "    ld.global.u32 %%t, [%%ta+%d];\n    setp.lt.u32 %%p%d, %%t, %u;\n", (4 * NREG + i) * 8, i,
            (unsigned)(next(&s) >> 32));
    for (int c = 0; c < 4; c++)
        for (int i = 0; i < NREG; i++)
            put(&t, "    ld.global.%s %s%d, [%%ta+%d];\n", (const char *[]){ "u32", "u64", "f32", "f64" }[c], prefix[c], i,
                (c * NREG + i) * 8);
    int label = 0;
    for (int i = 0; i < body; i++) region(&t, &s, 0, &label);
    put(&t, "    ld.param.u64 %%ta, [pout];\n    add.s64 %%ta, %%ta, %%tb;\n");
    for (int c = 0; c < 4; c++)
        for (int i = 0; i < NREG; i++)
            put(&t, "    st.global.%s [%%ta+%d], %s%d;\n", (const char *[]){ "u32", "u64", "f32", "f64" }[c], (c * NREG + i) * 8,
                prefix[c], i);
    for (int i = 0; i < NPRED; i++)
        put(&t, "    selp.u32 %%t, 1, 0, %%p%d;\n    st.global.u32 [%%ta+%d], %%t;\n", i, (4 * NREG + i) * 8);
    put(&t, "    ret;\n}\n");
    return t.s;
}

/* ---- running ---------------------------------------------------------------- */
/* Run p (functional, or timed on the default config) and copy n 8-byte
 * elements of buffer `out`. */
enum { MACHINE, SOURCE, CHECKED };   /* core.schedule: the back end's order, or the PTX as written; or checked */

static void run_buf_as(const Program *p, int functional, int slow, int order, uint64_t *out, size_t n)
{
    Config cfg;
    config_defaults(&cfg);
    cfg.core.schedule = order == SOURCE ? CORE_SCHEDULE_SOURCE : CORE_SCHEDULE_MACHINE;
    /* CHECKED: the run-time checks' issue path (warp_issue_checked), which
     * runs the PTX as written and records every access */
    RunOptions o = { .functional = functional, .slow_paths = slow, .threads = 1,
                     .checks = order == CHECKED ? CHECK_RACES | CHECK_RACES_GLOBAL | CHECK_UNINIT : 0 };
    Run r;
    DiagList dl = { 0 };
    int rc = run_program(&r, p, &cfg, "(defaults)", &o, &dl);
    if (rc != RUN_OK) { diag_print(&dl, stderr); if (rc == RUN_FAULT) report_fault(&r, stderr); }
    assert_int_equal(rc, RUN_OK);
    int b = program_find_buffer(p, "out");
    assert_true(b >= 0);
    memcpy(out, mem_region_of_buffer(&r.mem, b)->data, sizeof(uint64_t) * n);
    run_free(&r);
    diag_free(&dl);
}

static void run_buf(const Program *p, int functional, int slow, uint64_t *out, size_t n)
{
    run_buf_as(p, functional, slow, MACHINE, out, n);
}

static void run_out(const Program *p, int functional, int slow, uint64_t *out)
{
    run_buf(p, functional, slow, out, THREADS * SLOTS);
}

static const char *slot_name(int i, char *buf)
{
    if (i < 4 * NREG) sprintf(buf, "%s%d", prefix[i / NREG], i % NREG);
    else sprintf(buf, "%%p%d", i - 4 * NREG);
    return buf;
}

/* The first register that differs between a and b, printed with the
 * program's instructions (its values: `test_exec_diff SEED`). */
static int same(const char *what, uint64_t seed, const char *text, const uint64_t *a, const uint64_t *b)
{
    for (int i = 0; i < THREADS * SLOTS; i++) {
        if (a[i] == b[i]) continue;
        char nm[16];
        const char *body = strstr(text, ".entry");
        fprintf(stderr, "%s", body ? body : text);
        fprintf(stderr, "program %llu (build/tests/test_exec_diff %llu prints it), %s: thread %d, %s: 0x%016llx, "
                        "then 0x%016llx\n", (unsigned long long)seed, (unsigned long long)seed, what, i / SLOTS,
                slot_name(i % SLOTS, nm), (unsigned long long)a[i], (unsigned long long)b[i]);
        return 0;
    }
    return 1;
}

static void test_row_loops_equal_lanes(void **state)
{
    (void)state;
    static uint64_t fast[THREADS * SLOTS], slow[THREADS * SLOTS], timed[THREADS * SLOTS];
    int bad = 0;
    /* under the sanitizers a quarter of them: every path is still reached */
    uint64_t programs = sanitized_subset() ? PROGRAMS / 4 : PROGRAMS;
    for (uint64_t seed = 0; seed < programs && !bad; seed++) {
        char *text = program(seed);
        DiagList dl = { 0 };
        Program *p = asm_assemble("diff.s", text, strlen(text), NULL, &dl);
        if (!p) { diag_print(&dl, stderr); fprintf(stderr, "program %llu\n", (unsigned long long)seed); }
        assert_non_null(p);
        run_out(p, 1, 0, fast);
        run_out(p, 1, 1, slow);
        bad = !same("the row loops, then the per-lane paths", seed, text, fast, slow);
        if (!bad) {   /* the back end's order and registers against the PTX as written */
            run_buf_as(p, 1, 0, SOURCE, timed, THREADS * SLOTS);
            bad = !same("machine order, then source order", seed, text, fast, timed);
        }
        if (!bad && seed % 4 == 0) {
            run_out(p, 0, 0, timed);
            bad = !same("timed, then functional", seed, text, timed, fast);
        }
        if (!bad && seed % 4 == 1) {
            run_buf_as(p, 1, 0, CHECKED, timed, THREADS * SLOTS);
            bad = !same("with the run-time checks, then without", seed, text, timed, fast);
        }
        program_free(p);
        diag_free(&dl);
        free(text);
    }
    assert_false(bad);
}

/* ---- what the H100 gives ------------------------------------------------------
 * tests/validation/h100/measured/nan_bits.csv (tests/validation/cuda/nan_bits.cu):
 * the result bits of each op for NaNs of every kind and the numbers that
 * make or meet them, f32 and f64.  Each op's rows run as one launch, a
 * thread a row, with the row loops and without: both must give the H100's
 * bits. */
#define NAN_CSV "tests/validation/h100/measured/nan_bits.csv"

typedef struct NanRow { char op[24]; uint64_t a, b, c, r; int nops; } NanRow;

static int parse_hex(const char *s, uint64_t *v, int *present)
{
    char *end;
    *present = *s && *s != ',' && *s != '\n';
    *v = *present ? strtoull(s, &end, 16) : 0;
    return 0;
}

static NanRow *read_nan_rows(int *n)
{
    FILE *f = fopen(NAN_CSV, "r");
    if (!f) fail_msg("%s: missing (the H100's measurement; the test never skips)", NAN_CSV);
    NanRow *rows = NULL;
    int cap = 0, k = 0;
    char line[256];
    assert_non_null(fgets(line, sizeof line, f));   /* header */
    while (fgets(line, sizeof line, f)) {
        if (k == cap) { cap = cap ? cap * 2 : 1024; rows = realloc(rows, (size_t)cap * sizeof *rows); assert_non_null(rows); }
        NanRow *r = &rows[k++];
        char *fld[5], *q = line;
        for (int i = 0; i < 5; i++) { fld[i] = q; q = strchr(q, ','); if (q) *q++ = '\0'; else q = line + strlen(line); }
        snprintf(r->op, sizeof r->op, "%s", fld[0]);
        int pa, pb, pc, pr;
        parse_hex(fld[1], &r->a, &pa);
        parse_hex(fld[2], &r->b, &pb);
        parse_hex(fld[3], &r->c, &pc);
        parse_hex(fld[4], &r->r, &pr);
        assert_true(pa && pr);
        r->nops = 1 + pb + pc;
    }
    fclose(f);
    *n = k;
    return rows;
}

/* The PTX types of op's result and operands ("cvt.f64.f32": f64 from f32). */
static void nan_types(const char *op, const char **rt, const char **st)
{
    int f64 = strstr(op, ".f64") != NULL;
    *rt = *st = f64 ? "f64" : "f32";
    if (!strcmp(op, "cvt.f64.f32")) { *rt = "f64"; *st = "f32"; }
    if (!strcmp(op, "cvt.rn.f32.f64")) { *rt = "f32"; *st = "f64"; }
}

static void test_nan_bits_as_measured(void **state)
{
    (void)state;
    int n;
    NanRow *rows = read_nan_rows(&n);
    assert_true(n > 1000);
    int bad = 0;
    for (int i = 0; i < n;) {
        int j = i;
        while (j < n && !strcmp(rows[j].op, rows[i].op)) j++;
        const char *rt, *st;
        nan_types(rows[i].op, &rt, &st);
        int cnt = j - i, nops = rows[i].nops;
        Text t = { 0 };
        put(&t, ".buffer a .u64[%d] values(", cnt);
        for (int k = i; k < j; k++) put(&t, "%s0x%llx", k > i ? ", " : "", (unsigned long long)rows[k].a);
        put(&t, ")\n.buffer b .u64[%d] values(", cnt);
        for (int k = i; k < j; k++) put(&t, "%s0x%llx", k > i ? ", " : "", (unsigned long long)rows[k].b);
        put(&t, ")\n.buffer c .u64[%d] values(", cnt);
        for (int k = i; k < j; k++) put(&t, "%s0x%llx", k > i ? ", " : "", (unsigned long long)rows[k].c);
        put(&t, ")\n.buffer out .u64[%d] zero\n", cnt);
        put(&t, ".launch k grid=(%d) block=(32) args=(a, b, c, out, %d)\n\n", (cnt + 31) / 32, cnt);
        put(&t, ".entry k (.param .u64 pa, .param .u64 pb, .param .u64 pc, .param .u64 po, .param .u32 n)\n{\n");
        put(&t, "    .reg .b32 %%r<4>;\n    .reg .b64 %%rd<12>;\n    .reg .%s %%x<3>;\n    .reg .%s %%y;\n"
                "    .reg .pred %%p;\n", st, rt);
        put(&t, "    mov.u32 %%r1, %%ctaid.x;\n    mov.u32 %%r2, %%tid.x;\n    mad.lo.u32 %%r1, %%r1, 32, %%r2;\n"
                "    ld.param.u32 %%r3, [n];\n    setp.ge.u32 %%p, %%r1, %%r3;\n    @%%p ret;\n"
                "    mul.wide.u32 %%rd1, %%r1, 8;\n");
        const char *pn[] = { "pa", "pb", "pc" };
        for (int k = 0; k < nops; k++)
            put(&t, "    ld.param.u64 %%rd2, [%s];\n    add.s64 %%rd2, %%rd2, %%rd1;\n    ld.global.%s %%x%d, [%%rd2];\n", pn[k],
                st, k);
        put(&t, "    %s %%y", rows[i].op);
        for (int k = 0; k < nops; k++) put(&t, ", %%x%d", k);
        put(&t, ";\n    ld.param.u64 %%rd2, [po];\n    add.s64 %%rd2, %%rd2, %%rd1;\n    st.global.%s [%%rd2], %%y;\n"
                "    ret;\n}\n", rt);
        DiagList dl = { 0 };
        Program *p = asm_assemble("nan.s", t.s, strlen(t.s), NULL, &dl);
        if (!p) diag_print(&dl, stderr);
        assert_non_null(p);
        uint64_t *got = calloc((size_t)cnt, sizeof *got);
        assert_non_null(got);
        for (int slow = 0; slow < 2; slow++) {
            run_buf(p, 1, slow, got, (size_t)cnt);
            for (int k = 0; k < cnt; k++) {
                const NanRow *r = &rows[i + k];
                uint64_t want = r->r, have = got[k] & (strcmp(rt, "f32") ? ~0ull : 0xffffffffull);
                if (have == want) continue;
                if (bad++ < 20)
                    print_error("%s %s (a %llx, b %llx, c %llx): the H100 gives %llx, gpusim %llx\n", r->op,
                                slow ? "per lane" : "by rows", (unsigned long long)r->a, (unsigned long long)r->b,
                                (unsigned long long)r->c, (unsigned long long)want, (unsigned long long)have);
            }
        }
        free(got);
        program_free(p);
        diag_free(&dl);
        free(t.s);
        i = j;
    }
    free(rows);
    if (bad) print_error("%d results differ from the H100's\n", bad);
    assert_int_equal(bad, 0);
}

/* ---- the same programs on a GPU ---------------------------------------------------
 * `test_exec_diff export DIR FROM N [BODY]`: programs FROM .. FROM+N-1 (of
 * BODY instructions or regions: one says which instruction differs) as PTX
 * modules a CUDA driver can load (DIR/pSEED.ptx: the kernel file without
 * its host directives, and a .version/.target header), their input
 * (DIR/pSEED.in: `in`, one hex value a line) and gpusim's output
 * (DIR/pSEED.gpusim: `out`, likewise). tests/validation/cuda/run_ptx.cu
 * runs them on a GPU and writes DIR/pSEED.gpu; compare_ptx_runs.py says
 * where the two differ. */
static void write_hex(const char *path, const uint64_t *v, size_t n)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    for (size_t i = 0; i < n; i++) fprintf(f, "%016llx\n", (unsigned long long)v[i]);
    fclose(f);
}

static int export_programs(const char *dir, uint64_t from, uint64_t n)
{
    static uint64_t out[THREADS * SLOTS];
    for (uint64_t seed = from; seed < from + n; seed++) {
        char *text = program(seed), path[4096];
        DiagList dl = { 0 };
        Program *p = asm_assemble("diff.s", text, strlen(text), NULL, &dl);
        if (!p) { diag_print(&dl, stderr); return 1; }
        run_out(p, 1, 0, out);
        snprintf(path, sizeof path, "%s/p%llu.gpusim", dir, (unsigned long long)seed);
        write_hex(path, out, THREADS * SLOTS);
        /* the input: the values(...) list of `in` */
        const char *v = strstr(text, "values(") + 7;
        snprintf(path, sizeof path, "%s/p%llu.in", dir, (unsigned long long)seed);
        FILE *f = fopen(path, "w");
        assert_non_null(f);
        for (int i = 0; i < THREADS * SLOTS; i++) {
            char *end;
            unsigned long long x = strtoull(v, &end, 16);
            fprintf(f, "%016llx\n", x);
            v = end + (*end == ',' ? 2 : 0);
        }
        fclose(f);
        snprintf(path, sizeof path, "%s/p%llu.ptx", dir, (unsigned long long)seed);
        f = fopen(path, "w");
        assert_non_null(f);
        fprintf(f, ".version 8.0\n.target sm_90\n.address_size 64\n\n.visible ");
        fputs(strstr(text, ".entry k"), f);
        fclose(f);
        program_free(p);
        diag_free(&dl);
        free(text);
    }
    return 0;
}

int main(int argc, char **argv)
{
    if ((argc == 5 || argc == 6) && !strcmp(argv[1], "export")) {
        if (argc == 6) body = atoi(argv[5]);
        return export_programs(argv[2], strtoull(argv[3], NULL, 10), strtoull(argv[4], NULL, 10));
    }
    if (argc == 2) {   /* print one program */
        char *text = program(strtoull(argv[1], NULL, 10));
        fputs(text, stdout);
        free(text);
        return 0;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_row_loops_equal_lanes),
        cmocka_unit_test(test_nan_bits_as_measured),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
