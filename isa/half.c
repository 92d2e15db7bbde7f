/* half.c - see half.h.
 *
 * Why a double in the middle is exact enough: a half has 11 (f16) or 8
 * (bf16) significant bits.  Products of two halves have at most 22 and
 * fit a double exactly (and its exponent range: bf16 2^-133 squared is far
 * above 2^-1074).  A sum does not always fit (bf16 spans 2^-133..2^127),
 * so add/sub/fma use TwoSum: s = fl(a + b) and the exact error e, and
 * half_round_pair() rounds s to odd (a 53-bit result whose last bit records
 * "inexact"), which a later rounding to p <= 51 bits turns into the
 * correctly rounded result: Boldo & Melquiond, "When double rounding is odd"
 * (2005).  Plain fl(a*b + c) then a second rounding would be wrong in rare
 * ties, so fma is not left to that.
 */
#include "half.h"

#include <math.h>
#include <string.h>

typedef struct Layout { int man, emin, emax, bias; } Layout;

static Layout layout(HalfFmt f)
{
    return f == HALF_BF16 ? (Layout){ 7, -126, 127, 127 } : (Layout){ 10, -14, 15, 15 };
}

unsigned half_inf(HalfFmt f) { return f == HALF_BF16 ? 0x7f80u : 0x7c00u; }
unsigned half_max_finite(HalfFmt f) { return half_inf(f) - 1; }

int half_is_nan(unsigned bits, HalfFmt f)
{
    unsigned inf = half_inf(f);
    return (bits & 0x7fffu & inf) == inf && (bits & 0x7fffu & ~inf) != 0;
}

int half_is_subnormal(unsigned bits, HalfFmt f)
{
    return (bits & half_inf(f)) == 0 && (bits & 0x7fffu) != 0;
}

double half_decode(unsigned bits, HalfFmt f)
{
    Layout L = layout(f);
    unsigned h = bits & 0xffffu, e = (h & 0x7fffu) >> L.man, m = h & ((1u << L.man) - 1);
    double v;
    if (e == 0) v = ldexp((double)m, L.emin - L.man);                           /* subnormal or zero */
    else if (e == (0x7fffu >> L.man)) v = m ? NAN : INFINITY;
    else v = ldexp((double)(m | (1u << L.man)), (int)e - L.bias - L.man);
    return h & 0x8000u ? -v : v;
}

unsigned half_encode(double v, HalfFmt f, HalfRound r)
{
    Layout L = layout(f);
    unsigned s = signbit(v) ? 0x8000u : 0;
    if (isnan(v)) return HALF_NAN;
    double a = fabs(v);
    if (isinf(a)) return s | half_inf(f);
    if (a == 0) return s;
    int e;
    frexp(a, &e);                              /* a = x 2^e, x in [0.5, 1): leading bit 2^(e-1) */
    int lead = e - 1 < L.emin ? L.emin : e - 1; /* subnormals keep the exponent of the smallest normal */
    double sc = ldexp(a, L.man - lead);        /* the significand as an integer plus a fraction: exact */
    double q = floor(sc), frac = sc - q;
    int up;
    switch (r) {
    case HALF_RZ: up = 0; break;
    case HALF_RM: up = s && frac > 0; break;
    case HALF_RP: up = !s && frac > 0; break;
    default: up = frac > 0.5 || (frac == 0.5 && fmod(q, 2.0) == 1.0); break;   /* ties to even */
    }
    if (up) q += 1;
    if (q >= ldexp(1.0, L.man + 1)) { q /= 2; lead++; }   /* rounded up into the next binade */
    if (lead > L.emax) {                                   /* overflow: the mode picks inf or the largest */
        int to_inf = r == HALF_RN || (r == HALF_RP && !s) || (r == HALF_RM && s);
        return s | (to_inf ? half_inf(f) : half_max_finite(f));
    }
    unsigned m = (unsigned)q;
    if (m < (1u << L.man)) return s | m;                   /* subnormal */
    return s | (unsigned)(lead + L.bias) << L.man | (m - (1u << L.man));
}

unsigned half_round_pair(double hi, double lo, HalfFmt f, HalfRound r)
{
    if (lo != 0 && isfinite(hi)) {
        uint64_t u;
        memcpy(&u, &hi, 8);
        if (!(u & 1)) hi = nextafter(hi, lo > 0 ? INFINITY : -INFINITY);   /* to odd */
    }
    return half_encode(hi, f, r);
}

double half_from_u64(uint64_t v)
{
    if (v < (1ull << 53)) return (double)v;
    int drop = 0;
    while ((v >> drop) >= (1ull << 53)) drop++;
    uint64_t kept = v >> drop;
    if (v & ((1ull << drop) - 1)) kept |= 1;   /* sticky: round to odd */
    return ldexp((double)kept, drop);
}

double half_from_s64(int64_t v)
{
    return v < 0 ? -half_from_u64(0 - (uint64_t)v) : half_from_u64((uint64_t)v);
}
