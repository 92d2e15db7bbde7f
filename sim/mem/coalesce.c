/* coalesce.c - gather a warp's lane addresses into sectors and lines.
 *
 * The rule modelled (CUDA C Programming Guide, "Global Memory" for compute
 * capability 2.x and later; Nsight Compute's memory tables): the lanes of a
 * warp instruction are served together as one request; the L1TEX unit
 * fetches whole aligned sectors (32 bytes), each sector once however many
 * lanes read it, and looks up each cache line (128 bytes on Fermi and since)
 * once.  4-byte loads at stride 1, 2, 4 and >= 8 words therefore touch 4, 8,
 * 16 and 32 sectors (the H100 reference's coalesce_ld rows: 128, 256, 512 and
 * 1024 sectors over 32 requests), and seed 003's A[16 * t] touches 16 lines.
 *
 * Cost: one pass over the lanes, an insertion sort that is linear on the
 * usual ascending addresses, one pass to form lines.  Fixed arrays, no
 * allocation.
 */
#include "sim/mem/coalesce.h"

#include <stddef.h>
#include <string.h>

static int log2_exact(uint64_t v)
{
    return v == 0 || (v & (v - 1)) ? -1 : __builtin_ctzll(v);
}

static uint64_t align_down(uint64_t x, uint64_t unit, int shift)
{
    return shift >= 0 ? (x >> shift) << shift : x - x % unit;
}

typedef struct LaneAddr {
    uint64_t addr;
    int lane;
} LaneAddr;

/* Sector address sa's entry in the ascending list sec[0..ns) (with each
 * one's slot bits in used), inserted if new.  Looks from the end, where an
 * ascending warp adds. */
static inline int sector_entry(CoalesceSector *sec, uint64_t *used, int *ns, uint64_t sa)
{
    int k = *ns;
    while (k > 0 && sec[k - 1].addr > sa) k--;
    if (k > 0 && sec[k - 1].addr == sa) return k - 1;
    for (int i = *ns; i > k; i--) { sec[i] = sec[i - 1]; used[i] = used[i - 1]; }
    sec[k].addr = sa;
    sec[k].lanes = 0;
    used[k] = 0;
    (*ns)++;
    return k;
}

#if defined(__GNUC__)
#define ALWAYS_INLINE inline __attribute__((always_inline))
#else
#define ALWAYS_INLINE inline
#endif

/* All 32 lanes, each access 1 << bshift bytes (a constant where inlined):
 * no mask to walk, the lanes of a run in one sector taken as a range when
 * the run ends, the slot bit by constant shifts, and four lanes in one
 * test where they fall in the sector the lane before them did. */
static ALWAYS_INLINE int64_t full_warp_sectors(const uint64_t *x, int bshift, int sshift, Coalesced *out)
{
    CoalesceSector *sec = out->sector;
    uint64_t used[WARP_MAX];
    uint64_t base_of = ~((1ull << sshift) - 1), slot_of = ((1ull << sshift) >> bshift) - 1;
    uint64_t cur = x[0] & base_of, cur_used = 0, any = 0;
    int ns = 0, k = sector_entry(sec, used, &ns, cur), start = 0;
    for (int g = 0; g < WARP_MAX; g += 4) {
        /* four lanes at once while they stay in the current sector (a
         * unit-stride or broadcast warp: every group but a sector's first) */
        uint64_t x0 = x[g], x1 = x[g + 1], x2 = x[g + 2], x3 = x[g + 3];
        if ((((x0 ^ cur) | (x1 ^ cur) | (x2 ^ cur) | (x3 ^ cur)) & base_of) == 0) {
            any |= x0 | x1 | x2 | x3;
            cur_used |= 1ull << ((x0 >> bshift) & slot_of) | 1ull << ((x1 >> bshift) & slot_of) |
                        1ull << ((x2 >> bshift) & slot_of) | 1ull << ((x3 >> bshift) & slot_of);
            continue;
        }
        for (int l = g; l < g + 4; l++) {
            uint64_t sa = x[l] & base_of;
            any |= x[l];
            if (sa != cur) {          /* lanes [start, l) were in sector k */
                sec[k].lanes |= ((1u << l) - 1u) & (~0u << start);
                used[k] = cur_used;
                k = sector_entry(sec, used, &ns, sa);
                cur = sa;
                cur_used = used[k];
                start = l;
            }
            cur_used |= 1ull << ((x[l] >> bshift) & slot_of);
        }
    }
    if (any & ((1ull << bshift) - 1)) return -1;
    sec[k].lanes |= ~0u << start;
    used[k] = cur_used;
    out->nsectors = ns;
    int64_t slots = 0;
    for (int i = 0; i < ns; i++) slots += bits64(used[i]);
    return slots << bshift;
}

/* A whole warp whose addresses never go down from a lane to the next: a
 * row at unit stride, a broadcast, a column walked at the row pitch, the
 * two rows of a 16-wide block one after the other (nearly every global
 * access of the reference kernels).  The sectors then come in lane order,
 * ascending, each a run of lanes: one pass, no search, and the distinct
 * bytes are the distinct addresses times the size (aligned accesses of
 * one size are equal or disjoint).  -2 at the first lane below the one
 * before it (full_warp_sectors then starts afresh), -1 if a lane is not
 * aligned. */
static ALWAYS_INLINE int64_t ascending_sectors(const uint64_t *x, int bshift, int sshift, Coalesced *out)
{
    CoalesceSector *sec = out->sector;
    uint64_t base_of = ~((1ull << sshift) - 1), prev = x[0], cur = prev & base_of, any = prev;
    int ns = 1, start = 0, distinct = 1;
    sec[0].addr = cur;
    for (int l = 1; l < WARP_MAX; l++) {
        uint64_t xl = x[l];
        if (xl < prev) {
            /* the second half-warp reading what the first did (a 16-wide
             * block's two rows reading one row vector): the first half's
             * sectors, each with its lanes twice */
            if (l != WARP_MAX / 2) return -2;
            for (int k = 0; k < WARP_MAX / 2; k++) if (x[k + WARP_MAX / 2] != x[k]) return -2;
            if (any & ((1ull << bshift) - 1)) return -1;
            sec[ns - 1].lanes = ((1u << l) - 1u) & (~0u << start);
            for (int i = 0; i < ns; i++) sec[i].lanes |= sec[i].lanes << WARP_MAX / 2;
            out->nsectors = ns;
            return (int64_t)distinct << bshift;
        }
        any |= xl;
        distinct += xl != prev;
        prev = xl;
        if ((xl & base_of) != cur) {          /* lanes [start, l) were in sector ns - 1 */
            sec[ns - 1].lanes = ((1u << l) - 1u) & (~0u << start);
            cur = xl & base_of;
            sec[ns++].addr = cur;
            start = l;
        }
    }
    if (any & ((1ull << bshift) - 1)) return -1;
    sec[ns - 1].lanes = ~0u << start;
    out->nsectors = ns;
    return (int64_t)distinct << bshift;
}

/* The sectors of lanes [l0, l0 + 16) of a half warp whose lanes all read
 * x0 (broadcast) or x0 + (l - l0) * size (unit stride), appended to sec
 * (ns of them so far): a first sector that is the last one already there
 * takes the lanes too, as ascending_sectors' run would. */
static ALWAYS_INLINE int half_sectors(CoalesceSector *sec, int ns, uint64_t x0, int unit, int l0, int bshift, int sshift)
{
    uint64_t base_of = ~((1ull << sshift) - 1), end = unit ? x0 + ((uint64_t)(WARP_MAX / 2) << bshift) : x0 + 1;
    for (uint64_t sa = x0 & base_of; sa < end; sa += 1ull << sshift) {
        int from = sa <= x0 ? l0 : l0 + (int)((sa - x0) >> bshift);
        int to = !unit || sa + (1ull << sshift) >= end ? l0 + WARP_MAX / 2 : l0 + (int)((sa + (1ull << sshift) - x0) >> bshift);
        LaneMask lanes = (to >= WARP_MAX ? ~0u : (1u << to) - 1u) & (~0u << from);
        if (ns && sec[ns - 1].addr == sa) sec[ns - 1].lanes |= lanes;
        else { sec[ns].addr = sa; sec[ns].lanes = lanes; ns++; }
    }
    return ns;
}

/* A whole warp whose halves each read one address (a row's element for
 * two rows of a 16-wide block: naive_mm's A) or a unit-stride run (a row
 * of a tile), the second half not below the first or the same run again
 * (a row vector both rows read: naive_mm's B): the sectors by
 * arithmetic, what ascending_sectors finds lane by lane.  -3 for any
 * other warp, or a lane not aligned (ascending_sectors then says so). */
static ALWAYS_INLINE int64_t halves_sectors(const uint64_t *x, int bshift, int sshift, Coalesced *out)
{
    enum { H = WARP_MAX / 2 };
    uint64_t a = x[0], b = x[H], s0 = x[1] - a, s1 = x[H + 1] - b, size = 1ull << bshift;
    if ((s0 && s0 != size) || (s1 && s1 != size) || ((a | b) & (size - 1))) return -3;
    uint64_t d = 0, e0 = a, e1 = b;
    for (int l = 0; l < H; l++, e0 += s0, e1 += s1) d |= (x[l] ^ e0) | (x[H + l] ^ e1);
    if (d) return -3;
    int unit0 = s0 != 0, unit1 = s1 != 0;
    uint64_t last0 = a + (unit0 ? (uint64_t)(H - 1) << bshift : 0);
    CoalesceSector *sec = out->sector;
    if (b < last0) {                          /* below the first half's last lane: only the same run again */
        if (b != a || !unit1) return -3;
        int ns = half_sectors(sec, 0, a, 1, 0, bshift, sshift);
        for (int i = 0; i < ns; i++) sec[i].lanes |= sec[i].lanes << H;
        out->nsectors = ns;
        return (int64_t)H << bshift;
    }
    int ns = half_sectors(sec, 0, a, unit0, 0, bshift, sshift);
    out->nsectors = half_sectors(sec, ns, b, unit1, H, bshift, sshift);
    int64_t distinct = (unit0 ? H : 1) + (unit1 ? H : 1) - (b == last0);
    return distinct << bshift;
}

/* The usual case, without sorting the lanes: every lane's access is
 * naturally aligned (bytes a power of two that divides its address, at
 * most the sector), so it lies in one sector, and two lanes' byte ranges
 * are equal or disjoint.  Fills out's sectors, ascending, and returns the
 * distinct bytes; -1 (nothing usable written) if a lane is not aligned. */
static int64_t aligned_sectors(const MemAccess *a, LaneMask active, uint64_t bytes, int sshift, Coalesced *out)
{
    if (active == UINT32_MAX) {       /* the whole warp: the common sizes by constant shifts */
        int64_t up = bytes == 4 ? halves_sectors(a->addr, 2, sshift, out) : halves_sectors(a->addr, __builtin_ctzll(bytes), sshift, out);
        if (up != -3) return up;
        up = ascending_sectors(a->addr, __builtin_ctzll(bytes), sshift, out);
        if (up != -2) return up;
        if (bytes == 4) return full_warp_sectors(a->addr, 2, sshift, out);
        if (bytes == 8) return full_warp_sectors(a->addr, 3, sshift, out);
        return full_warp_sectors(a->addr, __builtin_ctzll(bytes), sshift, out);
    }
    CoalesceSector *sec = out->sector;
    uint64_t used[WARP_MAX];          /* per sector: which bytes-sized slots lanes touch */
    int bshift = __builtin_ctzll(bytes), ns = 0, k = 0;
    uint64_t slot_of = ((1ull << sshift) >> bshift) - 1;   /* a byte address's slot in its sector: (x >> bshift) & slot_of */
    /* the sector (address >> sshift) the last lane hit, its lanes and slots
     * kept in registers (written back when a lane goes to another sector):
     * neighbouring lanes mostly share one.  Sectors are 4 bytes or more, so
     * no sector number is all ones. */
    uint64_t cur = ~0ull, cur_used = 0, any = 0;
    LaneMask cur_lanes = 0;
    for (LaneMask m = active; m; m &= m - 1) {
        int l = __builtin_ctz(m);
        uint64_t x = a->addr[l], s = x >> sshift;
        any |= x;                     /* alignment, checked once at the end */
        if (s != cur) {
            if (cur != ~0ull) { sec[k].lanes = cur_lanes; used[k] = cur_used; }
            k = sector_entry(sec, used, &ns, s << sshift);
            cur = s;
            cur_lanes = sec[k].lanes;
            cur_used = used[k];
        }
        cur_used |= 1ull << ((x >> bshift) & slot_of);
        cur_lanes |= 1u << l;
    }
    if (any & (bytes - 1)) return -1;
    if (ns) { sec[k].lanes = cur_lanes; used[k] = cur_used; }
    out->nsectors = ns;
    /* distinct bytes: each slot a lane touched, once */
    int64_t slots = 0;
    for (int i = 0; i < ns; i++) slots += bits64(used[i]);
    return slots * (int64_t)bytes;
}

/* Any access: the lanes sorted by address, then their sectors.  Fills
 * out's sectors, ascending, and returns the distinct bytes. */
static uint64_t sorted_sectors(const MemAccess *a, LaneMask active, uint64_t bytes, uint64_t sb, int sshift,
                               Coalesced *out)
{
    CoalesceSector *sec = out->sector;
    int ns = 0;
    uint64_t unique = 0, covered = 0;
    /* Active lanes by ascending address (lane order breaks ties).  Kernels
     * mostly index by lane, so this is usually one pass and no sorting. */
    LaneAddr la[WARP_MAX];
    int n = 0, sorted = 1;
    for (LaneMask m = active; m; m &= m - 1) {
        int l = __builtin_ctz(m);
        uint64_t x = a->addr[l];
        if (n && x < la[n - 1].addr) sorted = 0;
        la[n].addr = x;
        la[n].lane = l;
        n++;
    }
    if (!sorted)
        for (int i = 1; i < n; i++) {
            LaneAddr v = la[i];
            int j = i;
            while (j > 0 && la[j - 1].addr > v.addr) { la[j] = la[j - 1]; j--; }
            la[j] = v;
        }

    /* Sectors, ascending and distinct: a lane's sectors start at or after
     * the previous lane's first one, so only the tail of the list can hold
     * them (and for aligned accesses only its last entry). */
    for (int i = 0; i < n; i++) {
        uint64_t x = la[i].addr, end = x + bytes;
        LaneMask bit = 1u << la[i].lane;
        /* distinct bytes: equal-sized ranges sorted by start end in order too */
        uint64_t from = x > covered ? x : covered;
        if (end > from) unique += end - from;
        covered = end;

        uint64_t s = align_down(x, sb, sshift);
        if (ns && sec[ns - 1].addr == s && end - s <= sb) { sec[ns - 1].lanes |= bit; continue; }
        for (; s < end && ns < COALESCE_MAX_SECTORS; s += sb) {
            int j = ns;
            while (j > 0 && sec[j - 1].addr > s) j--;
            if (j > 0 && sec[j - 1].addr == s) { sec[j - 1].lanes |= bit; continue; }
            if (j < ns) memmove(&sec[j + 1], &sec[j], (size_t)(ns - j) * sizeof sec[0]);
            sec[j].addr = s;
            sec[j].lanes = bit;
            ns++;
        }
    }
    out->nsectors = ns;
    return unique;
}

void coalesce(const MemAccess *a, int line_bytes, int sector_bytes, int warp_size, Coalesced *out)
{
    if (warp_size > WARP_MAX) warp_size = WARP_MAX;
    if (warp_size < 0) warp_size = 0;
    LaneMask active = warp_size >= 32 ? a->mask : a->mask & ((1u << warp_size) - 1u);
    uint64_t bytes = a->bytes < 1 ? 1 : a->bytes > COALESCE_MAX_LANE_BYTES ? COALESCE_MAX_LANE_BYTES : a->bytes;
    uint64_t sb = sector_bytes > 0 ? (uint64_t)sector_bytes : 1;
    uint64_t lb = line_bytes > 0 ? (uint64_t)line_bytes : 1;
    int sshift = log2_exact(sb), lshift = log2_exact(lb);

    out->requests = active ? 1 : 0;
    out->nsectors = out->nlines = 0;
    out->bytes_requested = (uint32_t)lanes_count(active) * (uint32_t)bytes;
    out->bytes_unique = out->bytes_moved = 0;
    if (!active) return;

    int64_t fast = sshift >= 0 && (bytes & (bytes - 1)) == 0 && bytes <= sb && sb / bytes <= 64
                   ? aligned_sectors(a, active, bytes, sshift, out) : -1;
    uint64_t unique = fast >= 0 ? (uint64_t)fast : sorted_sectors(a, active, bytes, sb, sshift, out);
    CoalesceSector *sec = out->sector;
    int ns = out->nsectors;
    out->bytes_unique = (uint32_t)unique;
    out->bytes_moved = (uint32_t)((uint64_t)ns * sb);

    /* Lines: runs of sectors with the same line address. */
    int m = 0;
    for (int i = 0; i < ns; i++) {
        uint64_t base = align_down(sec[i].addr, lb, lshift);
        if (m == 0 || out->line[m - 1].addr != base) {
            if (m == COALESCE_MAX_LINES) break;   /* unreachable for a valid geometry */
            CoalesceLine *ln = &out->line[m++];
            ln->addr = base;
            ln->sector_mask = 0;
            ln->lanes = 0;
            ln->first = i;
            ln->count = 0;
        }
        CoalesceLine *ln = &out->line[m - 1];
        uint64_t off = sec[i].addr - base, idx = sshift >= 0 ? off >> sshift : off / sb;
        if (idx < 64) ln->sector_mask |= 1ull << idx;
        ln->lanes |= sec[i].lanes;
        ln->count++;
        sec[i].line = m - 1;
    }
    out->nlines = m;
}

void coalesced_copy(Coalesced *dst, const Coalesced *src)
{
    memcpy(dst, src, offsetof(Coalesced, sector));
    memcpy(dst->sector, src->sector, (size_t)src->nsectors * sizeof src->sector[0]);
    memcpy(dst->line, src->line, (size_t)src->nlines * sizeof src->line[0]);
}
