/* lanes.h - a warp's lanes as the bits of one word: the vocabulary the
 * functional core (active masks), the memory system (which lanes access)
 * and the timing model share.  Warps have at most WARP_MAX lanes; the
 * config's sm.warp_size picks how many of them a warp uses. */
#ifndef GPUSIM_LANES_H
#define GPUSIM_LANES_H

#include <stdint.h>

enum { WARP_MAX = 32 };      /* lanes in a LaneMask */

typedef uint32_t LaneMask;   /* bit i = lane i; warps have at most 32 lanes */

/* Lanes set in m.  Branch-free bit counting: portable builds have no
 * popcount instruction, and __builtin_popcount becomes a libgcc call (the
 * caches and the memory system count sector masks with it too). */
static inline int lanes_count(LaneMask m)
{
    m = m - ((m >> 1) & 0x55555555u);
    m = (m & 0x33333333u) + ((m >> 2) & 0x33333333u);
    m = (m + (m >> 4)) & 0x0f0f0f0fu;
    return (int)((m * 0x01010101u) >> 24);
}

/* Set bits of a mask that is mostly 4 bits or fewer (a line's sectors:
 * 128-byte lines of 32-byte sectors on every shipped config): a nibble
 * table packed in a constant, lanes_count beyond. */
static inline int sectors_count(uint32_t m)
{
    return m < 16 ? (int)((0x4332322132212110ull >> (4 * m)) & 15) : lanes_count(m);
}

/* Set bits of a 64-bit word (sector slots, port and slot sets), the same way. */
static inline int bits64(uint64_t v)
{
    v = v - ((v >> 1) & 0x5555555555555555ull);
    v = (v & 0x3333333333333333ull) + ((v >> 2) & 0x3333333333333333ull);
    v = (v + (v >> 4)) & 0x0f0f0f0f0f0f0f0full;
    return (int)((v * 0x0101010101010101ull) >> 56);
}

#endif
