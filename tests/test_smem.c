/* test_smem.c - shared-memory banks: wavefronts and bank conflicts.
 *
 * Hand-computed cases (strides, tiles, broadcast, seed 003's (a*i+b) mod 32
 * bank functions, 8- and 16-byte accesses, partial masks, 8-byte banks, 16
 * banks, atomics) and the shared-memory columns of the H100 reference
 * (tests/validation/h100/counters.csv): bank_ld, transpose_shared,
 * transpose_padded and tiled_mm, rebuilt warp by warp from kernels.cu.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "sim/mem/smem.h"

/* ---- helpers ---------------------------------------------------------------- */

enum { W = 32, BANKS = 32, BANK_BYTES = 4 };

/* A load of `bytes` per lane at addr(lane) = base + lane * stride_bytes. */
static MemAccess strided(int bytes, uint64_t base, uint64_t stride_bytes, LaneMask mask)
{
    MemAccess a;
    memset(&a, 0, sizeof a);
    a.space = SP_SHARED;
    a.bytes = (uint8_t)bytes;
    a.mask = mask;
    for (int l = 0; l < WARP_MAX; l++) a.addr[l] = base + (uint64_t)l * stride_bytes;
    return a;
}

static int wf(const MemAccess *a)
{
    return smem_wavefronts(a, BANKS, BANK_BYTES, W, NULL);
}

static int gcd(int a, int b)
{
    while (b) { int t = a % b; a = b; b = t; }
    return a;
}

/* Running totals of one kind of shared instruction, as Nsight counts them. */
typedef struct Tally {
    long inst, wavefronts, conflicts;
} Tally;

static void tally(Tally *t, const MemAccess *a)
{
    SmemDetail d;
    int n = smem_wavefronts(a, BANKS, BANK_BYTES, W, &d), ideal = -1;
    assert_int_equal(n, d.wavefronts);
    /* the timing model's call, without the bank map: the same count */
    assert_int_equal(smem_wavefronts_ideal(a, BANKS, BANK_BYTES, W, &ideal), n);
    assert_int_equal(ideal, d.ideal_wavefronts);
    t->inst += a->mask ? 1 : 0;
    t->wavefronts += n;
    t->conflicts += d.conflicts;
}

/* ---- strides ----------------------------------------------------------------- */

/* Stride s in 4-byte words over 32 lanes: lanes t and t + 32/gcd(s,32) share
 * a bank, each bank holds gcd(s,32) distinct words (Guide, "32-Bit Strided
 * Access").  Written out by hand, s = 1..64. */
static void test_stride_table(void **state)
{
    (void)state;
    static const int expect[65] = {
        0,
        /*  1.. 8 */ 1, 2, 1, 4, 1, 2, 1, 8,
        /*  9..16 */ 1, 2, 1, 4, 1, 2, 1, 16,
        /* 17..24 */ 1, 2, 1, 4, 1, 2, 1, 8,
        /* 25..32 */ 1, 2, 1, 4, 1, 2, 1, 32,
        /* 33..40 */ 1, 2, 1, 4, 1, 2, 1, 8,
        /* 41..48 */ 1, 2, 1, 4, 1, 2, 1, 16,
        /* 49..56 */ 1, 2, 1, 4, 1, 2, 1, 8,
        /* 57..64 */ 1, 2, 1, 4, 1, 2, 1, 32,
    };
    for (int s = 1; s <= 64; s++) {
        MemAccess a = strided(4, 0, (uint64_t)s * 4, 0xffffffffu);
        assert_int_equal(expect[s], gcd(s, 32));   /* the table is the formula */
        assert_int_equal(wf(&a), expect[s]);
        a.is_store = 1;                            /* stores: same rule */
        assert_int_equal(wf(&a), expect[s]);
        SmemDetail d;
        smem_wavefronts(&a, BANKS, BANK_BYTES, W, &d);
        assert_int_equal(d.conflicts, expect[s] - 1);
        assert_int_equal(d.max_ways, expect[s]);
        assert_int_equal(d.ideal_wavefronts, 1);
    }
}

/* A 32x32 float tile read by column c: addr = (lane * 32 + c) * 4, every
 * lane in bank c: 32-way.  Rows padded to 33 words: bank (lane + c) % 32,
 * conflict-free. */
static void test_tile_column(void **state)
{
    (void)state;
    for (int c = 0; c < 32; c++) {
        MemAccess a = strided(4, (uint64_t)c * 4, 32 * 4, 0xffffffffu);
        assert_int_equal(wf(&a), 32);
        MemAccess p = strided(4, (uint64_t)c * 4, 33 * 4, 0xffffffffu);
        assert_int_equal(wf(&p), 1);
    }
}

/* All lanes on one word: one wavefront, broadcast; likewise bytes and halves
 * of one word (the Guide's char array example) and any multicast pattern
 * whose distinct words sit in distinct banks. */
static void test_broadcast(void **state)
{
    (void)state;
    MemAccess a = strided(4, 4 * 77, 0, 0xffffffffu);
    assert_int_equal(wf(&a), 1);
    a.is_store = 1;
    assert_int_equal(wf(&a), 1);

    MemAccess b = strided(1, 0, 1, 0xffffffffu);          /* char c = s[lane] */
    assert_int_equal(wf(&b), 1);
    MemAccess h = strided(2, 0, 2, 0xffffffffu);          /* short: 16 words */
    assert_int_equal(wf(&h), 1);
    MemAccess q = strided(1, 0, 4, 0xffffffffu);          /* char at stride 4 bytes */
    assert_int_equal(wf(&q), 1);
    MemAccess q2 = strided(1, 0, 8, 0xffffffffu);         /* char at 8 bytes: 2 words/bank */
    assert_int_equal(wf(&q2), 2);

    /* lane -> word (lane % 4) * 32: 4 distinct words, all in bank 0 */
    MemAccess m = strided(4, 0, 0, 0xffffffffu);
    for (int l = 0; l < W; l++) m.addr[l] = (uint64_t)(l % 4) * 32 * 4;
    assert_int_equal(wf(&m), 4);
    /* lane -> word lane / 2: 16 words in 16 banks, pairs multicast */
    for (int l = 0; l < W; l++) m.addr[l] = (uint64_t)(l / 2) * 4;
    assert_int_equal(wf(&m), 1);
}

/* Seed 003: with a bank function f(i) = (a*i + b) mod 32 and lanes t at
 * logical index i0 + s*t, the lanes touch 32 / gcd(a*s, 32) banks and, every
 * word being distinct, each bank gcd(a*s, 32) times.  Physical word = a*i+b.
 * The seed's s = 8 case: odd a -> 4 banks (8-way), a = 2 -> 2 banks
 * (16-way), a = 4 -> 1 bank (32-way). */
static void test_seed003_affine_banks(void **state)
{
    (void)state;
    static const struct { int a, s, b, i0, banks_touched, wavefronts; } row[] = {
        { 1, 8, 0, 0, 4, 8 },      /* seed: a odd */
        { 3, 8, 5, 1, 4, 8 },
        { 5, 8, 11, 7, 4, 8 },
        { 2, 8, 0, 0, 2, 16 },     /* seed: a = 2 halves the banks */
        { 2, 8, 3, 9, 2, 16 },
        { 4, 8, 0, 0, 1, 32 },     /* seed: a = 4, all in one bank */
        { 1, 1, 0, 0, 32, 1 },
        { 3, 1, 2, 0, 32, 1 },     /* odd a keeps unit stride conflict-free */
        { 2, 1, 0, 0, 16, 2 },
        { 5, 3, 7, 4, 32, 1 },
        { 3, 2, 1, 0, 16, 2 },
        { 1, 12, 0, 0, 8, 4 },
        { 6, 2, 0, 0, 8, 4 },
        { 7, 16, 1, 0, 2, 16 },
        { 1, 33, 0, 0, 32, 1 },
    };
    for (size_t r = 0; r < sizeof row / sizeof row[0]; r++) {
        MemAccess m = strided(4, 0, 0, 0xffffffffu);
        for (int t = 0; t < W; t++) {
            uint64_t i = (uint64_t)(row[r].i0 + row[r].s * t);
            m.addr[t] = ((uint64_t)row[r].a * i + (uint64_t)row[r].b) * 4;
        }
        SmemDetail d;
        int n = smem_wavefronts(&m, BANKS, BANK_BYTES, W, &d);
        int touched = 0;
        for (int b = 0; b < BANKS; b++) touched += d.bank_words[b] > 0;
        assert_int_equal(touched, row[r].banks_touched);
        assert_int_equal(touched, 32 / gcd(row[r].a * row[r].s, 32));
        assert_int_equal(n, row[r].wavefronts);
        assert_int_equal(n, gcd(row[r].a * row[r].s, 32));
        for (int t = 0; t < W; t++)
            assert_int_equal(d.lane_bank[t], (int)((m.addr[t] / 4) % 32));
    }
}

/* ---- the H100 reference ---------------------------------------------------- */

/* bank_ld: s[t] = t; __syncthreads(); out[t] = s[(t * stride) & 1023] by one
 * block of 1024 threads (32 warps).  counters.csv, shared columns:
 * ld instructions, ld wavefronts, ld conflicts, st instructions, st
 * wavefronts, st conflicts. */
static void test_h100_bank_ld(void **state)
{
    (void)state;
    static const struct { int stride; long ld_inst, ld_wf, ld_conf, st_inst, st_wf, st_conf; } csv[] = {
        { 1, 32, 32, 0, 32, 32, 0 },
        { 2, 32, 64, 32, 32, 32, 0 },
        { 4, 32, 128, 96, 32, 32, 0 },
        { 8, 32, 256, 224, 32, 32, 0 },
        { 32, 32, 1024, 992, 32, 32, 0 },
    };
    for (size_t r = 0; r < sizeof csv / sizeof csv[0]; r++) {
        Tally ld = { 0 }, st = { 0 };
        for (int w = 0; w < 32; w++) {
            MemAccess s = strided(4, 0, 0, 0xffffffffu), l = s;
            s.is_store = 1;
            for (int lane = 0; lane < W; lane++) {
                int t = w * 32 + lane;
                s.addr[lane] = (uint64_t)t * 4;
                l.addr[lane] = (uint64_t)((t * csv[r].stride) & 1023) * 4;
            }
            tally(&st, &s);
            tally(&ld, &l);
        }
        assert_int_equal(ld.inst, csv[r].ld_inst);
        assert_int_equal(ld.wavefronts, csv[r].ld_wf);
        assert_int_equal(ld.conflicts, csv[r].ld_conf);
        assert_int_equal(ld.wavefronts - ld.inst, csv[r].ld_conf);
        assert_int_equal(st.inst, csv[r].st_inst);
        assert_int_equal(st.wavefronts, csv[r].st_wf);
        assert_int_equal(st.conflicts, csv[r].st_conf);
    }
}

/* transpose_shared / transpose_padded, n = 1024: 32x32 blocks of 32x32
 * threads; warp w of a block is threadIdx.y = w, lane = threadIdx.x.
 * tile[ty][tx] = ...; ... = tile[tx][ty] with rows of 32 or 33 floats.  The
 * hardware adds a few hundred wavefronts the pattern does not explain
 * (README: "the hardware counter is not perfectly clean"): 211 on
 * transpose_shared's loads, 600 on transpose_padded's.  Stores are exact. */
static void transpose_tally(int row_words, Tally *ld, Tally *st)
{
    for (int block = 0; block < 32 * 32; block++)
        for (int w = 0; w < 32; w++) {
            MemAccess s = strided(4, 0, 0, 0xffffffffu), l = s;
            s.is_store = 1;
            for (int lane = 0; lane < W; lane++) {
                s.addr[lane] = (uint64_t)(w * row_words + lane) * 4;   /* tile[ty][tx] */
                l.addr[lane] = (uint64_t)(lane * row_words + w) * 4;   /* tile[tx][ty] */
            }
            tally(st, &s);
            tally(ld, &l);
        }
}

static void test_h100_transpose(void **state)
{
    (void)state;
    /* counters.csv */
    const long sh_ld_inst = 32768, sh_ld_wf = 1048787, sh_ld_conf = 1016019;
    const long pd_ld_inst = 32768, pd_ld_wf = 33368, pd_ld_conf = 600;
    const long st_inst = 32768, st_wf = 32768, st_conf = 0;      /* both kernels */
    const long sh_stray = 211, pd_stray = 600;                   /* hardware noise */

    Tally ld = { 0 }, st = { 0 };
    transpose_tally(32, &ld, &st);
    assert_int_equal(ld.inst, sh_ld_inst);
    assert_int_equal(ld.wavefronts, 32768L * 32);                /* 32-way, every load */
    assert_int_equal(ld.wavefronts, sh_ld_wf - sh_stray);
    assert_int_equal(ld.conflicts, sh_ld_conf - sh_stray);
    assert_int_equal(st.inst, st_inst);
    assert_int_equal(st.wavefronts, st_wf);
    assert_int_equal(st.conflicts, st_conf);

    Tally pl = { 0 }, ps = { 0 };
    transpose_tally(33, &pl, &ps);
    assert_int_equal(pl.inst, pd_ld_inst);
    assert_int_equal(pl.wavefronts, 32768);                      /* conflict-free */
    assert_int_equal(pl.wavefronts, pd_ld_wf - pd_stray);
    assert_int_equal(pl.conflicts, pd_ld_conf - pd_stray);
    assert_int_equal(ps.inst, st_inst);
    assert_int_equal(ps.wavefronts, st_wf);
    assert_int_equal(ps.conflicts, st_conf);
    /* the noise is small next to the effect */
    assert_true(sh_stray * 1000 < sh_ld_wf && pd_stray * 50 < pd_ld_wf);
}

/* tiled_mm, m = n = k = 256: 16x16 blocks of 16x16 threads (8 warps, warp w
 * holds ty = 2w, 2w+1 and tx = lane % 16), 16 tiles.  nvcc -O3 emits per
 * tile two 4-byte stores (As[ty][tx], Bs[ty][tx]), sixteen 4-byte loads of
 * Bs[i][tx] and four LDS.128 of As[ty][i..i+3]: 20 loads, 655360 in all, as
 * counters.csv has.  The LDS.128 has two addresses per warp (lanes 0-15,
 * 16-31): uniform pairs, 2 wavefronts, no conflict.  CSV: ld 655360
 * instructions, 786432 wavefronts, 0 conflicts; st 65536, 65536, 0. */
static void test_h100_tiled_mm(void **state)
{
    (void)state;
    const uint64_t as = 0, bs = 16 * 16 * 4;
    Tally ld = { 0 }, st = { 0 };
    for (int block = 0; block < 16 * 16; block++)
        for (int tile = 0; tile < 16; tile++)
            for (int w = 0; w < 8; w++) {
                MemAccess a = strided(4, 0, 0, 0xffffffffu);
                int ty[W], tx[W];
                for (int l = 0; l < W; l++) { ty[l] = 2 * w + l / 16; tx[l] = l % 16; }
                a.is_store = 1;
                for (int l = 0; l < W; l++) a.addr[l] = as + (uint64_t)(ty[l] * 16 + tx[l]) * 4;
                tally(&st, &a);
                for (int l = 0; l < W; l++) a.addr[l] = bs + (uint64_t)(ty[l] * 16 + tx[l]) * 4;
                tally(&st, &a);
                a.is_store = 0;
                for (int i = 0; i < 16; i++) {
                    for (int l = 0; l < W; l++) a.addr[l] = bs + (uint64_t)(i * 16 + tx[l]) * 4;
                    tally(&ld, &a);
                }
                a.bytes = 16;
                for (int i = 0; i < 16; i += 4) {
                    for (int l = 0; l < W; l++) a.addr[l] = as + (uint64_t)(ty[l] * 16 + i) * 4;
                    tally(&ld, &a);
                }
            }
    assert_int_equal(ld.inst, 655360);
    assert_int_equal(ld.wavefronts, 786432);
    assert_int_equal(ld.conflicts, 0);
    assert_int_equal(st.inst, 65536);
    assert_int_equal(st.wavefronts, 65536);
    assert_int_equal(st.conflicts, 0);
}

/* ---- wide accesses ----------------------------------------------------------- */

/* 8 bytes per lane: half-warps; 16 bytes: quarter-warps (smem.c rule 2). */
static void test_wide_accesses(void **state)
{
    (void)state;
    SmemDetail d;
    /* 32 lanes x 8 bytes = 256 bytes: 2 half-warps, each all 32 banks once */
    MemAccess a = strided(8, 0, 8, 0xffffffffu);
    assert_int_equal(smem_wavefronts(&a, BANKS, BANK_BYTES, W, &d), 2);
    assert_int_equal(d.group_lanes, 16);
    assert_int_equal(d.groups, 2);
    assert_int_equal(d.ideal_wavefronts, 2);
    assert_int_equal(d.conflicts, 0);
    assert_int_equal(d.lane_words[3], 2);
    assert_int_equal(d.lane_bank[3], 6);
    assert_int_equal(d.lane_wavefront[15], 0);
    assert_int_equal(d.lane_wavefront[16], 1);
    assert_int_equal(d.bank_words[0], 2);
    /* 32 x 16 bytes = 512 bytes: 4 quarter-warps */
    MemAccess b = strided(16, 0, 16, 0xffffffffu);
    assert_int_equal(smem_wavefronts(&b, BANKS, BANK_BYTES, W, &d), 4);
    assert_int_equal(d.group_lanes, 8);
    assert_int_equal(d.conflicts, 0);
    assert_int_equal(d.lane_wavefront[31], 3);
    /* double at stride 2 doubles: half-warp words 4l, 4l+1 -> 2 per bank */
    MemAccess c = strided(8, 0, 16, 0xffffffffu);
    assert_int_equal(smem_wavefronts(&c, BANKS, BANK_BYTES, W, &d), 4);
    assert_int_equal(d.conflicts, 2);
    int ideal = 0;                    /* the same without the map: 4 of an ideal 2 */
    assert_int_equal(smem_wavefronts_ideal(&c, BANKS, BANK_BYTES, W, &ideal), 4);
    assert_int_equal(ideal, 2);
    /* float4 at stride 2: quarter-warp banks 0-3, 8-11, 16-19, 24-27 twice */
    MemAccess e = strided(16, 0, 32, 0xffffffffu);
    assert_int_equal(smem_wavefronts(&e, BANKS, BANK_BYTES, W, &d), 8);
    assert_int_equal(d.conflicts, 4);
    /* double, all lanes bank 0 in 2 words each... lanes at stride 128 bytes:
     * a half-warp puts 16 distinct words into banks 0 and 1 -> 16 each */
    MemAccess f = strided(8, 0, 128, 0xffffffffu);
    assert_int_equal(wf(&f), 32);
    /* Conflicts across half-warps do not count: lane l and l + 16 on the
     * same words would conflict in one group but the groups are apart. */
    MemAccess g = strided(8, 0, 8, 0xffffffffu);
    for (int l = 16; l < W; l++) g.addr[l] = 1024 + (uint64_t)(l - 16) * 8;
    assert_int_equal(wf(&g), 2);
    /* Quarter-warps repeating the same 8 addresses: no uniform pairs, one
     * pass per quarter-warp (a half-warp rule would say 2). */
    MemAccess h = strided(16, 0, 0, 0xffffffffu);
    for (int l = 0; l < W; l++) h.addr[l] = (uint64_t)(l % 8) * 16;
    assert_int_equal(wf(&h), 4);
}

/* Uniform pairs (smem.c rule 3): loads only. */
static void test_uniform_pairs(void **state)
{
    (void)state;
    SmemDetail d;
    MemAccess a = strided(16, 48, 0, 0xffffffffu);        /* float4 broadcast */
    assert_int_equal(smem_wavefronts(&a, BANKS, BANK_BYTES, W, &d), 2);
    assert_int_equal(d.pair_merged, 1);
    assert_int_equal(d.group_lanes, 16);
    assert_int_equal(d.conflicts, 0);
    a.is_store = 1;                                       /* stores: no packing */
    assert_int_equal(smem_wavefronts(&a, BANKS, BANK_BYTES, W, &d), 4);
    assert_int_equal(d.pair_merged, 0);
    MemAccess b = strided(8, 0, 0, 0xffffffffu);          /* double broadcast */
    assert_int_equal(wf(&b), 1);
    /* Tn == Tn^1: lane pairs share 16 bytes; 16 distinct float4 in a warp */
    MemAccess c = strided(16, 0, 0, 0xffffffffu);
    for (int l = 0; l < W; l++) c.addr[l] = (uint64_t)(l / 2) * 16;
    assert_int_equal(wf(&c), 2);
    /* Tn == Tn^2 */
    for (int l = 0; l < W; l++) c.addr[l] = (uint64_t)((l / 4) * 2 + (l & 1)) * 16;
    assert_int_equal(wf(&c), 2);
    /* a lane whose partner is inactive does not break the pairs */
    MemAccess e = strided(16, 64, 0, 0x00000001u);
    assert_int_equal(wf(&e), 1);
    /* one odd lane out (to a free bank, 16-19): back to quarter-warps */
    for (int l = 0; l < W; l++) c.addr[l] = (uint64_t)(l / 2) * 16;
    c.addr[5] = 4096 + 64;
    assert_int_equal(wf(&c), 4);
}

/* ---- masks, geometry, atomics --------------------------------------------------- */

static void test_partial_masks(void **state)
{
    (void)state;
    MemAccess a = strided(4, 0, 128, 0x0000000fu);        /* stride 32, 4 lanes */
    assert_int_equal(wf(&a), 4);
    a.mask = 0x80000001u;
    assert_int_equal(wf(&a), 2);
    a.mask = 0;
    SmemDetail d;
    assert_int_equal(smem_wavefronts(&a, BANKS, BANK_BYTES, W, &d), 0);
    assert_int_equal(d.conflicts, 0);
    assert_int_equal(d.ideal_wavefronts, 0);
    assert_int_equal(d.lane_bank[0], -1);
    assert_int_equal(d.lane_wavefront[0], -1);
    /* inactive lanes' addresses are ignored */
    MemAccess b = strided(4, 0, 4, 0x0000ffffu);
    for (int l = 16; l < W; l++) b.addr[l] = 128;        /* would conflict with lane 0 */
    assert_int_equal(wf(&b), 1);
    /* 8-byte access with one half-warp active: one group, one pass */
    MemAccess c = strided(8, 0, 8, 0x0000ffffu);
    assert_int_equal(smem_wavefronts(&c, BANKS, BANK_BYTES, W, &d), 1);
    assert_int_equal(d.ideal_wavefronts, 1);
    c.mask = 0xffff0000u;
    assert_int_equal(wf(&c), 1);
    /* 16-byte, lanes 0 and 8 (different quarter-warps), different words */
    MemAccess e = strided(16, 0, 1024, 0x00000101u);
    assert_int_equal(wf(&e), 2);
    /* lanes beyond warp_size are not lanes */
    MemAccess f = strided(4, 0, 128, 0xffffffffu);
    assert_int_equal(smem_wavefronts(&f, BANKS, BANK_BYTES, 4, NULL), 4);
    assert_int_equal(smem_wavefronts(&f, BANKS, BANK_BYTES, 8, NULL), 8);
}

/* bank_bytes = 8 (Kepler's 64-bit mode): bank = (addr / 8) % banks, two
 * 4-byte values in one 8-byte word share the access. */
static void test_eight_byte_banks(void **state)
{
    (void)state;
    MemAccess a = strided(4, 0, 4, 0xffffffffu);          /* 16 words, 16 banks */
    assert_int_equal(smem_wavefronts(&a, 32, 8, W, NULL), 1);
    MemAccess b = strided(4, 0, 8, 0xffffffffu);          /* stride 2: 1 (4-byte banks: 2) */
    assert_int_equal(smem_wavefronts(&b, 32, 8, W, NULL), 1);
    assert_int_equal(wf(&b), 2);
    MemAccess c = strided(4, 0, 16, 0xffffffffu);         /* stride 4: banks 2l % 32 */
    assert_int_equal(smem_wavefronts(&c, 32, 8, W, NULL), 2);
    MemAccess e = strided(4, 0, 64, 0xffffffffu);         /* stride 16: 4 banks, 8 each */
    assert_int_equal(smem_wavefronts(&e, 32, 8, W, NULL), 8);
    assert_int_equal(wf(&e), 16);
    MemAccess f = strided(4, 0, 256, 0xffffffffu);        /* stride 64: one bank */
    assert_int_equal(smem_wavefronts(&f, 32, 8, W, NULL), 32);
    MemAccess g = strided(8, 0, 8, 0xffffffffu);          /* doubles: 256 bytes, one pass */
    SmemDetail d;
    assert_int_equal(smem_wavefronts(&g, 32, 8, W, &d), 1);
    assert_int_equal(d.group_lanes, 32);
    MemAccess h = strided(16, 0, 16, 0xffffffffu);        /* float4: half-warps */
    assert_int_equal(smem_wavefronts(&h, 32, 8, W, &d), 2);
    assert_int_equal(d.group_lanes, 16);
    assert_int_equal(d.conflicts, 0);
    /* 4-byte lanes l and l + 1 in the same 8-byte word, different words in
     * bank 0 otherwise: (l / 2) words of stride 32 x 8 bytes */
    MemAccess k = strided(4, 0, 0, 0xffffffffu);
    for (int l = 0; l < W; l++) k.addr[l] = (uint64_t)(l / 2) * 256 + (uint64_t)(l & 1) * 4;
    assert_int_equal(smem_wavefronts(&k, 32, 8, W, &d), 16);
    assert_int_equal(d.bank_words[0], 16);
}

/* 16 banks (compute capability 1.x): 64 bytes per pass, so a 4-byte warp
 * access goes by half-warps. */
static void test_sixteen_banks(void **state)
{
    (void)state;
    SmemDetail d;
    MemAccess a = strided(4, 0, 4, 0xffffffffu);
    assert_int_equal(smem_wavefronts(&a, 16, 4, W, &d), 2);
    assert_int_equal(d.group_lanes, 16);
    assert_int_equal(d.conflicts, 0);
    MemAccess b = strided(4, 0, 8, 0xffffffffu);          /* stride 2: 2 per half */
    assert_int_equal(smem_wavefronts(&b, 16, 4, W, NULL), 4);
    MemAccess c = strided(4, 0, 64, 0xffffffffu);         /* stride 16: bank 0 */
    assert_int_equal(smem_wavefronts(&c, 16, 4, W, &d), 32);
    assert_int_equal(d.conflicts, 30);
    MemAccess e = strided(4, 0, 12, 0xffffffffu);         /* odd stride: free */
    assert_int_equal(smem_wavefronts(&e, 16, 4, W, NULL), 2);
    MemAccess f = strided(4, 0, 4, 0x0000ffffu);          /* one half-warp */
    assert_int_equal(smem_wavefronts(&f, 16, 4, W, NULL), 1);
    MemAccess g = strided(4, 8, 0, 0xffffffffu);          /* store broadcast: per half */
    g.is_store = 1;
    assert_int_equal(smem_wavefronts(&g, 16, 4, W, NULL), 2);
    g.is_store = 0;                                       /* load: uniform pairs, one */
    assert_int_equal(smem_wavefronts(&g, 16, 4, W, NULL), 1);
}

/* Atomics serialise on one address (smem.c rule 5). */
static void test_atomics(void **state)
{
    (void)state;
    SmemDetail d;
    MemAccess a = strided(4, 0, 0, 0xffffffffu);          /* histogram of one bin */
    a.is_atomic = 1;
    a.is_store = 1;
    assert_int_equal(smem_wavefronts(&a, BANKS, BANK_BYTES, W, &d), 32);
    assert_int_equal(d.bank_words[0], 32);
    assert_int_equal(d.lane_wavefront[31], 31);
    MemAccess b = strided(4, 0, 4, 0xffffffffu);          /* distinct words: free */
    b.is_atomic = b.is_store = 1;
    assert_int_equal(wf(&b), 1);
    for (int l = 0; l < W; l++) b.addr[l] = (uint64_t)(l / 2) * 4;   /* pairs */
    assert_int_equal(wf(&b), 2);
    b.mask = 0x00000005u;                                 /* lanes 0, 2: words 0, 1 */
    assert_int_equal(wf(&b), 1);
    MemAccess c = strided(4, 0, 8, 0xffffffffu);          /* stride 2: as loads */
    c.is_atomic = c.is_store = 1;
    assert_int_equal(wf(&c), 2);
    MemAccess e = strided(8, 0, 8, 0xffffffffu);          /* 64-bit atomics: half-warps */
    e.is_atomic = e.is_store = 1;
    assert_int_equal(wf(&e), 2);
}

/* The detail record a teaching view draws: banks per lane, words per bank,
 * and which pass serves each lane (a bank's words in address order). */
static void test_detail(void **state)
{
    (void)state;
    SmemDetail d;
    MemAccess a = strided(4, 0, 0, 0xffffffffu);          /* reversed lanes, all bank 0 */
    for (int l = 0; l < W; l++) a.addr[l] = (uint64_t)(W - 1 - l) * 128;
    assert_int_equal(smem_wavefronts(&a, BANKS, BANK_BYTES, W, &d), 32);
    assert_int_equal(d.lane_wavefront[31], 0);
    assert_int_equal(d.lane_wavefront[0], 31);
    assert_int_equal(d.bank_words[0], 32);
    assert_int_equal(d.bank_words[1], 0);
    for (int l = 0; l < W; l++) a.addr[l] = (uint64_t)(3 - l % 4) * 128 + 8;   /* 4 words, bank 2 */
    assert_int_equal(smem_wavefronts(&a, BANKS, BANK_BYTES, W, &d), 4);
    assert_int_equal(d.max_ways, 4);
    assert_int_equal(d.bank_words[2], 4);
    for (int l = 0; l < W; l++) {
        assert_int_equal(d.lane_bank[l], 2);
        assert_int_equal(d.lane_words[l], 1);
        assert_int_equal(d.lane_wavefront[l], 3 - l % 4);
    }
    /* stride 2: even banks twice, lanes 16-31 on the second pass */
    MemAccess b = strided(4, 0, 8, 0xffffffffu);
    smem_wavefronts(&b, BANKS, BANK_BYTES, W, &d);
    for (int k = 0; k < BANKS; k++) assert_int_equal(d.bank_words[k], k % 2 ? 0 : 2);
    for (int l = 0; l < W; l++) assert_int_equal(d.lane_wavefront[l], l / 16);
    /* float4 across 4 quarter-warps: passes numbered across groups */
    MemAccess c = strided(16, 0, 16, 0x01010101u);
    assert_int_equal(smem_wavefronts(&c, BANKS, BANK_BYTES, W, &d), 4);
    assert_int_equal(d.lane_wavefront[0], 0);
    assert_int_equal(d.lane_wavefront[24], 3);
    assert_int_equal(d.lane_words[8], 4);
    assert_int_equal(d.lane_bank[8], 0);
    assert_int_equal(d.lane_bank[1], -1);
}

static void test_bad_geometry(void **state)
{
    (void)state;
    MemAccess a = strided(4, 0, 4, 0xffffffffu);
    assert_int_equal(smem_wavefronts(&a, 0, 4, W, NULL), -1);
    assert_int_equal(smem_wavefronts(&a, SMEM_MAX_BANKS * 2, 4, W, NULL), -1);
    assert_int_equal(smem_wavefronts(&a, 32, 0, W, NULL), -1);
    assert_int_equal(smem_wavefronts(&a, 32, 4, 0, NULL), -1);
    assert_int_equal(smem_wavefronts(&a, 32, 4, WARP_MAX + 1, NULL), -1);
    int ideal = 7;
    assert_int_equal(smem_wavefronts_ideal(&a, 0, 4, W, &ideal), -1);
    assert_int_equal(ideal, 0);
    assert_int_equal(smem_wavefronts(&a, SMEM_MAX_BANKS, 4, W, NULL), 1);
    /* non-power-of-two geometry still follows the formula */
    MemAccess b = strided(4, 0, 4 * 3, 0xffffffffu);      /* stride 3 over 3 banks */
    assert_int_equal(smem_wavefronts(&b, 3, 4, W, NULL), 32);
    MemAccess c = strided(4, 0, 4, 0xffffffffu);          /* unit stride over 24 banks */
    assert_int_equal(smem_wavefronts(&c, 24, 4, W, NULL), 2);
}

/* The widest access, 32 bytes per lane (ld.v4 of 64-bit), and atomics
 * piling every lane onto one bank: the detail arrays hold. */
static void test_extremes(void **state)
{
    (void)state;
    SmemDetail d;
    MemAccess a = strided(32, 0, 32, 0xffffffffu);        /* 1024 bytes: 8 passes */
    assert_int_equal(smem_wavefronts(&a, BANKS, BANK_BYTES, W, &d), 8);
    assert_int_equal(d.group_lanes, 4);
    assert_int_equal(d.lane_words[0], 8);
    MemAccess b = strided(32, 0, 128, 0xffffffffu);       /* every lane on banks 0-7 */
    assert_int_equal(smem_wavefronts(&b, BANKS, BANK_BYTES, W, &d), 32);
    assert_int_equal(d.bank_words[7], 32);
    MemAccess c = strided(32, 0, 0, 0xffffffffu);         /* one address, loads */
    assert_int_equal(smem_wavefronts(&c, BANKS, BANK_BYTES, W, &d), 4);
    assert_int_equal(d.pair_merged, 1);
    MemAccess e = strided(4, 0, 128, 0xffffffffu);        /* 32 lanes, 1 bank, 1 bank-wide */
    assert_int_equal(smem_wavefronts(&e, 1, 4, W, &d), 32);
    assert_int_equal(d.bank_words[0], 32);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_stride_table),
        cmocka_unit_test(test_tile_column),
        cmocka_unit_test(test_broadcast),
        cmocka_unit_test(test_seed003_affine_banks),
        cmocka_unit_test(test_h100_bank_ld),
        cmocka_unit_test(test_h100_transpose),
        cmocka_unit_test(test_h100_tiled_mm),
        cmocka_unit_test(test_wide_accesses),
        cmocka_unit_test(test_uniform_pairs),
        cmocka_unit_test(test_partial_masks),
        cmocka_unit_test(test_eight_byte_banks),
        cmocka_unit_test(test_sixteen_banks),
        cmocka_unit_test(test_atomics),
        cmocka_unit_test(test_detail),
        cmocka_unit_test(test_bad_geometry),
        cmocka_unit_test(test_extremes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
