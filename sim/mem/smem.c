/* smem.c - shared-memory bank conflicts, counted in wavefronts.
 *
 * The rule modelled, step by step:
 *
 * 1. Banks.  bank = (addr / bank_bytes) % banks; a bank delivers one bank
 *    word (bank_bytes wide) per pass.  Lanes touching the same word share
 *    it: loads broadcast it, stores write it once (which lane wins is the
 *    functional model's business).  CUDA C Programming Guide, compute
 *    capability 2.x/5.x "Shared Memory": "a shared memory request for a warp
 *    does not generate a bank conflict between two threads that access any
 *    address within the same 32-bit word".  With bank_bytes = 8 (Kepler's
 *    64-bit mode, cc 3.x) the same holds for a 64-bit word, so two 4-byte
 *    values in one 8-byte word share a bank access.
 *
 * 2. Lane groups.  One pass moves at most banks x bank_bytes bytes (128 with
 *    32 x 4-byte banks), so a warp whose lanes ask for more than that is cut
 *    into groups of consecutive lanes of group_lanes = banks x bank_bytes /
 *    bytes-per-lane (at most warp_size): a half-warp for 8-byte accesses and
 *    a quarter-warp for 16-byte ones on 32 x 4-byte banks, the whole warp for
 *    4-byte and narrower ones.  Each group is processed on its own and its
 *    bank conflicts are counted only among its lanes.  This is the Guide's
 *    cc 2.x rule, section "Larger Than 32-Bit Access": "For 64-bit accesses,
 *    a bank conflict only occurs if two threads in either of the half-warps
 *    access different addresses belonging to the same bank", and for 128-bit
 *    accesses conflicts are judged within a quarter-warp.  We do not model
 *    that section's extra "+1" for 128-bit accesses on Fermi ("the majority
 *    of 128-bit accesses will cause 2-way bank conflicts"): on Volta and
 *    later a conflict-free LDS.128 takes exactly 4 wavefronts, one per
 *    quarter-warp (NVIDIA developer forum, "Unexpected shared memory bank
 *    conflict", t/77228: "LDS.128 requires 4 requests per instruction as it
 *    returns 4 registers").  With 16 banks (cc 1.x) a 4-byte access gets
 *    half-warp groups, as on that hardware.
 *
 * 3. Uniform pairs (loads only).  The same forum answer and the LDS.U hint
 *    of the SASS reference: when every active lane n has the address of lane
 *    n^1 (or every one that of lane n^2), the return registers are packed
 *    two lanes per slot and the load needs half the passes: "the
 *    requests/instruction should reduce from 4 to 2" (said of cc 7.x).  We
 *    double group_lanes then (a lane whose partner is inactive does not
 *    break the rule).  The H100 (cc 9.0) reference shows the rule still
 *    holds: tiled_mm's As[ty][i..i+3] LDS.128, where lanes 0-15 read one
 *    address and lanes 16-31 another, costs 2 wavefronts, not 4.
 *
 * 4. Cost.  A group costs the largest number of distinct bank words any one
 *    bank must deliver (its "ways"); the instruction costs the sum over
 *    groups.  Groups without an active lane cost nothing; no active lane at
 *    all costs 0.  ideal_wavefronts is the number of groups with an active
 *    lane; Nsight's bank-conflict counter is wavefronts - ideal_wavefronts,
 *    which is wavefronts - 1 for 4-byte accesses (every bank_ld and
 *    transpose row of the H100 reference) and 0 for tiled_mm's conflict-free
 *    LDS.128 even though it takes 2 wavefronts (786432 wavefronts, 655360
 *    instructions, 0 conflicts in counters.csv).  For the detail record, a
 *    bank's distinct words take its passes in ascending address order (the
 *    hardware's order is not documented and does not change the count).
 *
 * 5. Atomics.  A shared-memory atomic is a read-modify-write per lane: lanes
 *    on the same address cannot share the access, they serialise, one pass
 *    each, on top of the ordinary bank conflicts.  So for atomics a bank's
 *    load is the number of lane accesses it receives, not distinct words.
 *    (Real hardware with native shared atomics may combine some same-address
 *    operations; this is the conservative, documented choice.)
 */
#include "sim/mem/smem.h"

#include <string.h>

/* Bank words one lane may touch: 32 bytes over 4-byte banks, plus one if a
 * (faulting, never executed) misaligned access straddled a word. */
enum { MAX_LANE_WORDS = SMEM_MAX_LANE_BYTES / 4 + 1, MAX_WORDS = WARP_MAX * MAX_LANE_WORDS };

static int log2_exact(uint64_t v)
{
    if (v == 0 || (v & (v - 1))) return -1;
    int s = 0;
    while ((1ull << s) != v) s++;
    return s;
}

/* Every active lane's address equals that of lane l ^ d (or d's lane is
 * inactive).  The forum's Tn == Tn^1 and Tn == Tn^2 patterns. */
static int pairs_uniform(const MemAccess *a, LaneMask active, int warp_size, int d)
{
    for (LaneMask m = active; m; m &= m - 1) {
        int l = __builtin_ctz(m), p = l ^ d;
        if (p >= warp_size || !((active >> p) & 1u)) continue;
        if (a->addr[l] != a->addr[p]) return 0;
    }
    return 1;
}

/* The bank geometry, with shifts for the power-of-two sizes the config
 * allows and division for anything else. */
typedef struct Geom {
    uint64_t bank_bytes, banks;
    int wshift, bshift;
} Geom;

static uint64_t word_of(const Geom *g, uint64_t addr)
{
    return g->wshift >= 0 ? addr >> g->wshift : addr / g->bank_bytes;
}

static int bank_of(const Geom *g, uint64_t word)
{
    return (int)(g->bshift >= 0 ? word & (g->banks - 1) : word % g->banks);
}

/* Index of the first w in the ascending v[0..n-1] (present by construction). */
static int find_word(const uint64_t *v, int n, uint64_t w)
{
    int lo = 0, hi = n - 1;
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        if (v[mid] < w) lo = mid + 1; else hi = mid;
    }
    return lo;
}

/* One lane group (rule 4): the largest number of distinct words (atomics:
 * lane accesses) one bank serves.  Fills the group's part of detail. */
static int group_ways(const MemAccess *a, LaneMask lanes, int bytes, int share, const Geom *g,
                      int pass0, SmemDetail *detail)
{
    uint64_t wv[MAX_WORDS];
    int first[WARP_MAX];          /* lane -> its first word's index in wv, before sorting */
    int n = 0, sorted = 1, prev = -1;
    for (LaneMask m = lanes; m; m &= m - 1) {
        int l = __builtin_ctz(m);
        /* a lane on the address of the lane before it adds no word a load
         * or store does not share (half-warps reading one row: LDS.128) */
        if (share && prev >= 0 && a->addr[l] == a->addr[prev]) { first[l] = first[prev]; continue; }
        prev = l;
        uint64_t w0 = word_of(g, a->addr[l]), w1 = word_of(g, a->addr[l] + (uint64_t)bytes - 1);
        first[l] = n;
        if (n && w0 < wv[n - 1]) sorted = 0;
        for (uint64_t w = w0; w <= w1 && n - first[l] < MAX_LANE_WORDS; w++) wv[n++] = w;
    }
    /* Distinct words become neighbours once sorted; lanes indexed by lane
     * number usually arrive sorted already. */
    if (share && !sorted)
        for (int i = 1; i < n; i++) {
            uint64_t v = wv[i];
            int j = i;
            while (j > 0 && wv[j - 1] > v) { wv[j] = wv[j - 1]; j--; }
            wv[j] = v;
        }
    int count[SMEM_MAX_BANKS];
    memset(count, 0, (size_t)g->banks * sizeof count[0]);
    int16_t rank[MAX_WORDS];          /* pass of each word within the group, for detail */
    int ways = 0;
    for (int i = 0; i < n; i++) {
        if (share && i && wv[i] == wv[i - 1]) { rank[i] = rank[i - 1]; continue; }
        int b = bank_of(g, wv[i]);
        rank[i] = (int16_t)count[b];
        if (++count[b] > ways) ways = count[b];
    }
    if (detail) {                     /* (lsu_account, at every issue, needs only the count) */
        for (int b = 0; b < (int)g->banks; b++)
            detail->bank_words[b] = (uint16_t)(detail->bank_words[b] + count[b]);
        for (LaneMask m = lanes; m; m &= m - 1) {
            int l = __builtin_ctz(m);
            uint64_t w0 = word_of(g, a->addr[l]), w1 = word_of(g, a->addr[l] + (uint64_t)bytes - 1);
            int words = (int)(w1 - w0 + 1 < MAX_LANE_WORDS ? w1 - w0 + 1 : MAX_LANE_WORDS), pass = 0;
            for (int k = 0; k < words; k++) {
                int i = share ? find_word(wv, n, w0 + (uint64_t)k) : first[l] + k;
                if (rank[i] > pass) pass = rank[i];
            }
            detail->lane_bank[l] = (int8_t)bank_of(g, w0);
            detail->lane_words[l] = (uint8_t)words;
            detail->lane_wavefront[l] = (int16_t)(pass0 + pass);
        }
    }
    return ways;
}

/* smem_wavefronts, with the fewest wavefronts the access's width allows
 * (one a lane group with an active lane) in *ideal when ideal is not NULL. */
static int wavefronts(const MemAccess *a, int banks, int bank_bytes, int warp_size, SmemDetail *detail, int *ideal_out)
{
    if (banks < 1 || banks > SMEM_MAX_BANKS || bank_bytes < 1 || warp_size < 1 ||
        warp_size > WARP_MAX)
        return -1;
    LaneMask active = warp_size == 32 ? a->mask : a->mask & ((1u << warp_size) - 1u);
    int bytes = a->bytes < 1 ? 1 : a->bytes > SMEM_MAX_LANE_BYTES ? SMEM_MAX_LANE_BYTES : a->bytes;
    int share = !a->is_atomic;

    /* Rule 2: lanes per group. */
    int group_lanes = banks * bank_bytes / bytes;
    if (group_lanes < 1) group_lanes = 1;
    if (group_lanes > warp_size) group_lanes = warp_size;
    /* Rule 3: uniform pairs halve the passes of a load. */
    int pair_merged = 0;
    if (group_lanes < warp_size && !a->is_store && !a->is_atomic && active &&
        (pairs_uniform(a, active, warp_size, 1) || pairs_uniform(a, active, warp_size, 2))) {
        group_lanes = group_lanes * 2 > warp_size ? warp_size : group_lanes * 2;
        pair_merged = 1;
    }

    if (detail) {
        memset(detail, 0, sizeof *detail);
        memset(detail->lane_bank, -1, sizeof detail->lane_bank);
        for (int l = 0; l < WARP_MAX; l++) detail->lane_wavefront[l] = -1;
        detail->group_lanes = group_lanes;
        detail->groups = (warp_size + group_lanes - 1) / group_lanes;
        detail->pair_merged = pair_merged;
    }

    Geom g = { (uint64_t)bank_bytes, (uint64_t)banks, log2_exact((uint64_t)bank_bytes),
               log2_exact((uint64_t)banks) };
    int total = 0, ideal = 0, max_ways = 0;
    for (int g0 = 0; g0 < warp_size && (active >> g0); g0 += group_lanes) {
        int width = warp_size - g0 < group_lanes ? warp_size - g0 : group_lanes;
        LaneMask lanes = active & (LaneMask)((width == 32 ? 0xffffffffu : (1u << width) - 1u) << g0);
        if (!lanes) continue;
        int ways = group_ways(a, lanes, bytes, share, &g, total, detail);
        total += ways;
        ideal++;
        if (ways > max_ways) max_ways = ways;
    }
    if (detail) {
        detail->wavefronts = total;
        detail->ideal_wavefronts = ideal;
        detail->conflicts = total - ideal;
        detail->max_ways = max_ways;
    }
    if (ideal_out) *ideal_out = ideal;
    return total;
}

int smem_wavefronts(const MemAccess *a, int banks, int bank_bytes, int warp_size, SmemDetail *detail)
{
    return wavefronts(a, banks, bank_bytes, warp_size, detail, NULL);
}

int smem_wavefronts_ideal(const MemAccess *a, int banks, int bank_bytes, int warp_size, int *ideal)
{
    *ideal = 0;
    return wavefronts(a, banks, bank_bytes, warp_size, NULL, ideal);
}
