/* half.h - the 16-bit floating-point formats of PTX: IEEE binary16 (.f16,
 * two of them in .f16x2) and bfloat16 (.bf16, .bf16x2), as bit patterns.
 *
 * Decoding is exact (every half is a double).  Encoding rounds a double
 * once, by one of IEEE's four modes, with subnormals, overflow to infinity
 * (or to the largest finite value where the mode says so) and one NaN.
 * half_round_pair() rounds a value given as an unevaluated sum hi + lo
 * (an exact product or TwoSum), so add, sub, mul and fma of halves round
 * once from the exact result.  Pure functions: no state, no fenv.
 */
#ifndef GPUSIM_HALF_H
#define GPUSIM_HALF_H

#include <stdint.h>

typedef enum HalfFmt { HALF_F16, HALF_BF16 } HalfFmt;
typedef enum HalfRound { HALF_RN, HALF_RZ, HALF_RM, HALF_RP } HalfRound;

/* The canonical NaN NVIDIA's half units produce, in both formats. */
enum { HALF_NAN = 0x7fff };

double half_decode(unsigned bits, HalfFmt f);                 /* exact */
unsigned half_encode(double v, HalfFmt f, HalfRound r);        /* one rounding */
/* hi + lo, exact, rounded once: |lo| at most half an ulp of hi (a TwoSum
 * pair, or lo = 0).  Rounds hi to odd at 53 bits first, which keeps the
 * information a second rounding to 8 or 11 bits needs. */
unsigned half_round_pair(double hi, double lo, HalfFmt f, HalfRound r);
/* An integer as a double rounded to odd (exact below 2^53), so that
 * half_encode() of it rounds the integer only once in effect. */
double half_from_u64(uint64_t v);
double half_from_s64(int64_t v);

int half_is_nan(unsigned bits, HalfFmt f);
int half_is_subnormal(unsigned bits, HalfFmt f);
unsigned half_max_finite(HalfFmt f);                           /* 0x7BFF, 0x7F7F */
unsigned half_inf(HalfFmt f);                                  /* 0x7C00, 0x7F80 */

#endif
