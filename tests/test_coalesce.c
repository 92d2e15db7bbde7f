/* test_coalesce.c - the coalescer: requests, sectors, lines, efficiency.
 *
 * Hand-computed cases (strides, seed 003's stride-16 case, bytes, misaligned
 * bases, vectors, partial masks, 64-byte lines) and every global request and
 * sector count of the H100 reference (tests/validation/h100/counters.csv),
 * each kernel of kernels.cu rebuilt warp by warp.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "sim/mem/coalesce.h"

/* ---- helpers ---------------------------------------------------------------- */

enum { W = 32, LINE = 128, SECTOR = 32 };

static MemAccess strided(int bytes, uint64_t base, uint64_t stride_bytes, LaneMask mask)
{
    MemAccess a;
    memset(&a, 0, sizeof a);
    a.space = SP_GLOBAL;
    a.bytes = (uint8_t)bytes;
    a.mask = mask;
    for (int l = 0; l < WARP_MAX; l++) a.addr[l] = base + (uint64_t)l * stride_bytes;
    return a;
}

/* The output is large; keep one per test off the stack. */
static Coalesced *run(const MemAccess *a, int line_bytes, int sector_bytes)
{
    static Coalesced c;
    memset(&c, 0xa5, sizeof c);            /* stale garbage must not leak through */
    coalesce(a, line_bytes, sector_bytes, W, &c);
    return &c;
}

/* Invariants every result keeps: ascending, aligned, distinct sectors; lines
 * own consecutive runs of them; masks and byte counts agree. */
static void check_shape(const Coalesced *c, const MemAccess *a, int line_bytes, int sector_bytes)
{
    assert_in_range(c->nsectors, 0, COALESCE_MAX_SECTORS);
    assert_in_range(c->nlines, 0, COALESCE_MAX_LINES);
    LaneMask lanes = 0;
    for (int i = 0; i < c->nsectors; i++) {
        assert_int_equal(c->sector[i].addr % (uint64_t)sector_bytes, 0);
        if (i) assert_true(c->sector[i].addr > c->sector[i - 1].addr);
        assert_true(c->sector[i].lanes != 0);
        lanes |= c->sector[i].lanes;
        const CoalesceLine *ln = &c->line[c->sector[i].line];
        assert_true(c->sector[i].addr - ln->addr < (uint64_t)line_bytes);
    }
    assert_int_equal(lanes, a->mask);
    int covered = 0;
    for (int j = 0; j < c->nlines; j++) {
        const CoalesceLine *ln = &c->line[j];
        assert_int_equal(ln->addr % (uint64_t)line_bytes, 0);
        if (j) assert_true(ln->addr > c->line[j - 1].addr);
        assert_int_equal(ln->first, covered);
        assert_true(ln->count >= 1);
        covered += ln->count;
        assert_int_equal(__builtin_popcountll(ln->sector_mask), ln->count);
    }
    assert_int_equal(covered, c->nsectors);
    assert_int_equal(c->bytes_moved, (uint32_t)(c->nsectors * sector_bytes));
    assert_int_equal(c->bytes_requested, (uint32_t)(__builtin_popcount(a->mask) * a->bytes));
    assert_true(c->bytes_unique <= c->bytes_requested && c->bytes_unique <= c->bytes_moved);
    assert_int_equal(c->requests, a->mask ? 1 : 0);
}

static const Coalesced *go(const MemAccess *a)
{
    const Coalesced *c = run(a, LINE, SECTOR);
    check_shape(c, a, LINE, SECTOR);
    return c;
}

/* ---- strides ----------------------------------------------------------------- */

/* 4-byte loads at stride s words: a 32-byte sector holds 8 / s lanes (s <
 * 8), a 128-byte line 32 / s lanes (README of the H100 reference). */
static void test_stride_table(void **state)
{
    (void)state;
    static const struct { int stride, sectors, lines; } row[] = {
        { 1, 4, 1 }, { 2, 8, 2 }, { 4, 16, 4 }, { 8, 32, 8 }, { 16, 32, 16 },
        { 32, 32, 32 }, { 64, 32, 32 }, { 3, 12, 3 },
    };
    for (size_t r = 0; r < sizeof row / sizeof row[0]; r++) {
        MemAccess a = strided(4, 0x10000, (uint64_t)row[r].stride * 4, 0xffffffffu);
        const Coalesced *c = go(&a);
        assert_int_equal(c->requests, 1);
        assert_int_equal(c->nsectors, row[r].sectors);
        assert_int_equal(c->nlines, row[r].lines);
        assert_int_equal(c->bytes_requested, 128);
        assert_int_equal(c->bytes_unique, 128);
        assert_int_equal(c->bytes_moved, (uint32_t)row[r].sectors * 32);
        a.is_store = 1;                                   /* stores coalesce alike */
        assert_int_equal(go(&a)->nsectors, row[r].sectors);
    }
    /* stride 1: one full line, sectors in order, lanes 8 per sector */
    MemAccess a = strided(4, 0x10000, 4, 0xffffffffu);
    const Coalesced *c = go(&a);
    assert_int_equal(c->line[0].addr, 0x10000);
    assert_int_equal(c->line[0].sector_mask, 0xf);
    for (int i = 0; i < 4; i++) {
        assert_int_equal(c->sector[i].addr, 0x10000 + 32 * (uint64_t)i);
        assert_int_equal(c->sector[i].lanes, 0xffu << (8 * i));
    }
}

/* Seed 003: A[16 * t], 4-byte floats, 128-byte segments: lanes 2k and 2k+1
 * share a segment, 16 transactions (and 32 sectors: each lane alone in one). */
static void test_seed003_stride16(void **state)
{
    (void)state;
    MemAccess a = strided(4, 0x40000, 16 * 4, 0xffffffffu);
    const Coalesced *c = go(&a);
    assert_int_equal(c->nlines, 16);
    assert_int_equal(c->nsectors, 32);
    for (int j = 0; j < 16; j++) {
        assert_int_equal(c->line[j].lanes, 3u << (2 * j));
        assert_int_equal(c->line[j].sector_mask, 0x5);   /* sectors 0 and 2 of the line */
    }
    /* seed 003's ideal case: A[t] in one segment, one transaction */
    MemAccess b = strided(4, 0x40000, 4, 0xffffffffu);
    assert_int_equal(go(&b)->nlines, 1);
}

/* One byte per lane, consecutive: 32 bytes, one sector. */
static void test_bytes(void **state)
{
    (void)state;
    MemAccess a = strided(1, 0x2000, 1, 0xffffffffu);
    const Coalesced *c = go(&a);
    assert_int_equal(c->nsectors, 1);
    assert_int_equal(c->nlines, 1);
    assert_int_equal(c->bytes_requested, 32);
    assert_int_equal(c->bytes_moved, 32);
    assert_int_equal(c->sector[0].lanes, 0xffffffffu);
    MemAccess h = strided(2, 0x2000, 2, 0xffffffffu);     /* shorts: 64 bytes, 2 sectors */
    assert_int_equal(go(&h)->nsectors, 2);
    MemAccess o = strided(1, 0x2010, 1, 0xffffffffu);     /* bytes at +16: 2 sectors */
    assert_int_equal(go(&o)->nsectors, 2);
}

/* A base 4 bytes past a line boundary: bytes base+4 .. base+131 touch
 * sectors 0-3 of one line and sector 0 of the next. */
static void test_misaligned_base(void **state)
{
    (void)state;
    MemAccess a = strided(4, 0x8000 + 4, 4, 0xffffffffu);
    const Coalesced *c = go(&a);
    assert_int_equal(c->nsectors, 5);
    assert_int_equal(c->nlines, 2);
    assert_int_equal(c->line[0].sector_mask, 0xf);
    assert_int_equal(c->line[0].count, 4);
    assert_int_equal(c->line[1].sector_mask, 0x1);
    assert_int_equal(c->line[1].addr, 0x8080);
    assert_int_equal(c->sector[4].lanes, 0x80000000u);   /* lane 31 alone */
    assert_int_equal(c->sector[0].lanes, 0x7fu);         /* lanes 0-6 */
    assert_int_equal(c->bytes_moved, 160);
    /* +32 bytes: sector-aligned, still 2 lines, 4 sectors */
    MemAccess b = strided(4, 0x8000 + 32, 4, 0xffffffffu);
    c = go(&b);
    assert_int_equal(c->nsectors, 4);
    assert_int_equal(c->nlines, 2);
    assert_int_equal(c->line[0].sector_mask, 0xe);
    assert_int_equal(c->line[1].sector_mask, 0x1);
}

/* Vectors cover bytes x lanes. */
static void test_vectors(void **state)
{
    (void)state;
    MemAccess a = strided(8, 0x1000, 8, 0xffffffffu);     /* .v2.f32 / .f64: 256 bytes */
    const Coalesced *c = go(&a);
    assert_int_equal(c->nsectors, 8);
    assert_int_equal(c->nlines, 2);
    assert_int_equal(c->bytes_requested, 256);
    assert_int_equal(c->sector[0].lanes, 0xfu);
    MemAccess b = strided(16, 0x1000, 16, 0xffffffffu);   /* .v4.f32: 512 bytes */
    c = go(&b);
    assert_int_equal(c->nsectors, 16);
    assert_int_equal(c->nlines, 4);
    assert_int_equal(c->bytes_moved, 512);
    assert_int_equal(c->sector[15].lanes, 0xc0000000u);
    MemAccess e = strided(16, 0x1000, 64, 0xffffffffu);   /* float4 at stride 4 floats */
    c = go(&e);
    assert_int_equal(c->nsectors, 32);
    assert_int_equal(c->nlines, 16);
    assert_int_equal(c->bytes_unique, 512);
    MemAccess f = strided(32, 0x1000, 32, 0xffffffffu);   /* 32-byte lanes: one sector each */
    c = go(&f);
    assert_int_equal(c->nsectors, 32);
    assert_int_equal(c->nlines, 8);
}

static void test_partial_masks(void **state)
{
    (void)state;
    MemAccess a = strided(4, 0x3000, 4, 0x00000001u);
    const Coalesced *c = go(&a);
    assert_int_equal(c->nsectors, 1);
    assert_int_equal(c->bytes_requested, 4);
    a.mask = 0;                                           /* nothing active: no request */
    c = go(&a);
    assert_int_equal(c->requests, 0);
    assert_int_equal(c->nsectors, 0);
    assert_int_equal(c->nlines, 0);
    assert_int_equal(c->bytes_moved, 0);
    assert_int_equal(c->bytes_unique, 0);
    a.mask = 0x55555555u;                                 /* every other lane: same sectors */
    c = go(&a);
    assert_int_equal(c->nsectors, 4);
    assert_int_equal(c->sector[1].lanes, 0x5500u);
    assert_int_equal(c->bytes_requested, 64);
    a.mask = 0x0000ff00u;                                 /* one sector's lanes */
    c = go(&a);
    assert_int_equal(c->nsectors, 1);
    assert_int_equal(c->sector[0].addr, 0x3020);
    /* inactive lanes' addresses are ignored */
    MemAccess b = strided(4, 0x3000, 4, 0x0000ffffu);
    for (int l = 16; l < W; l++) b.addr[l] = 0xdead0000u + (uint64_t)l * 4096;
    assert_int_equal(go(&b)->nsectors, 2);
    /* lanes at or beyond warp_size are not lanes */
    MemAccess e = strided(4, 0x3000, 128, 0xffffffffu);
    static Coalesced c4;
    coalesce(&e, LINE, SECTOR, 4, &c4);
    assert_int_equal(c4.nsectors, 4);
    assert_int_equal(c4.bytes_requested, 16);
}

/* 64-byte lines: the same sectors, twice the lines. */
static void test_64_byte_lines(void **state)
{
    (void)state;
    MemAccess a = strided(4, 0x5000, 4, 0xffffffffu);
    const Coalesced *c = run(&a, 64, 32);
    check_shape(c, &a, 64, 32);
    assert_int_equal(c->nsectors, 4);
    assert_int_equal(c->nlines, 2);
    assert_int_equal(c->line[0].sector_mask, 0x3);
    assert_int_equal(c->line[1].sector_mask, 0x3);
    assert_int_equal(c->line[1].first, 2);
    MemAccess b = strided(4, 0x5000, 16 * 4, 0xffffffffu);  /* stride 16: a line per lane */
    c = run(&b, 64, 32);
    check_shape(c, &b, 64, 32);
    assert_int_equal(c->nlines, 32);
    /* 32-byte "lines" = sectors (Fermi's uncached 32-byte segments) */
    c = run(&b, 32, 32);
    check_shape(c, &b, 32, 32);
    assert_int_equal(c->nlines, 32);
    MemAccess s2 = strided(4, 0x5000, 8, 0xffffffffu);
    c = run(&s2, 32, 32);
    check_shape(c, &s2, 32, 32);
    assert_int_equal(c->nlines, 8);
    assert_int_equal(c->nsectors, 8);
}

/* Order and duplicates: any lane order gives ascending sectors; lanes
 * sharing a word share the sector (broadcast). */
static void test_order_and_broadcast(void **state)
{
    (void)state;
    MemAccess a = strided(4, 0, 0, 0xffffffffu);
    for (int l = 0; l < W; l++) a.addr[l] = 0x9000 + (uint64_t)(W - 1 - l) * 4;   /* reversed */
    const Coalesced *c = go(&a);
    assert_int_equal(c->nsectors, 4);
    assert_int_equal(c->sector[0].lanes, 0xff000000u);
    uint64_t perm[W];                                     /* a scrambled line pair */
    for (int l = 0; l < W; l++) perm[l] = (uint64_t)((l * 13 + 5) % W);
    for (int l = 0; l < W; l++) a.addr[l] = 0x9000 + perm[l] * 8;
    c = go(&a);
    assert_int_equal(c->nsectors, 8);
    assert_int_equal(c->nlines, 2);
    MemAccess b = strided(4, 0x9004, 0, 0xffffffffu);     /* all lanes one word */
    c = go(&b);
    assert_int_equal(c->nsectors, 1);
    assert_int_equal(c->bytes_requested, 128);
    assert_int_equal(c->bytes_unique, 4);
    assert_int_equal(c->bytes_moved, 32);
    MemAccess e = strided(4, 0x9000, 0, 0xffffffffu);     /* two words in two lines, interleaved */
    for (int l = 0; l < W; l++) e.addr[l] = l & 1 ? 0x9000 + 4096 : 0x9000;
    c = go(&e);
    assert_int_equal(c->nsectors, 2);
    assert_int_equal(c->nlines, 2);
    assert_int_equal(c->sector[0].lanes, 0x55555555u);
    assert_int_equal(c->bytes_unique, 8);
}

/* Whole warps, which the coalescer takes four lanes at a time while they
 * stay in one sector: a run starting 20 bytes into a sector changes
 * sector inside a group of four (lanes 3, 11, 19, 27); naive_mm's B row
 * (lane % 16) and A column (one word per half-warp) repeat a half-warp. */
static void test_whole_warp_groups(void **state)
{
    (void)state;
    MemAccess a = strided(4, 0x1014, 4, 0xffffffffu);
    const Coalesced *c = go(&a);
    assert_int_equal(c->nsectors, 5);
    const LaneMask lanes[5] = { 0x7u, 0x7f8u, 0x7f800u, 0x7f80000u, 0xf8000000u };
    for (int i = 0; i < 5; i++) {
        assert_int_equal(c->sector[i].addr, 0x1000 + 32 * i);
        assert_int_equal(c->sector[i].lanes, lanes[i]);
    }
    assert_int_equal(c->nlines, 2);
    assert_int_equal(c->line[0].sector_mask, 0xf);
    assert_int_equal(c->line[1].sector_mask, 0x1);
    assert_int_equal(c->bytes_unique, 128);

    for (int l = 0; l < W; l++) a.addr[l] = 0x2000 + (uint64_t)(l % 16) * 4;   /* B[k][col] */
    c = go(&a);
    assert_int_equal(c->nsectors, 2);
    assert_int_equal(c->sector[0].lanes, 0x00ff00ffu);
    assert_int_equal(c->sector[1].lanes, 0xff00ff00u);
    assert_int_equal(c->bytes_unique, 64);

    for (int l = 0; l < W; l++) a.addr[l] = l < 16 ? 0x3000 : 0x3400;           /* A[row][k] */
    c = go(&a);
    assert_int_equal(c->nsectors, 2);
    assert_int_equal(c->nlines, 2);
    assert_int_equal(c->sector[0].lanes, 0x0000ffffu);
    assert_int_equal(c->sector[1].lanes, 0xffff0000u);
    assert_int_equal(c->bytes_unique, 8);

    for (int l = 0; l < W; l++) a.addr[l] = l % 4 == 1 ? 0x5100 : 0x5000;       /* each group leaves and comes back */
    c = go(&a);
    assert_int_equal(c->nsectors, 2);
    assert_int_equal(c->sector[0].lanes, 0xddddddddu);
    assert_int_equal(c->sector[1].lanes, 0x22222222u);
    assert_int_equal(c->bytes_unique, 8);

    MemAccess d = strided(8, 0x4018, 8, 0xffffffffu);   /* 8-byte lanes: 4 a sector, lane 0 alone in the first */
    c = go(&d);
    assert_int_equal(c->nsectors, 9);
    assert_int_equal(c->sector[0].lanes, 0x1u);
    assert_int_equal(c->sector[1].lanes, 0x1eu);
    assert_int_equal(c->sector[8].lanes, 0xe0000000u);   /* lanes 29-31 */
    assert_int_equal(c->bytes_unique, 256);
}

/* Whole warps whose addresses never go down from a lane to the next take
 * one pass in lane order (ascending_sectors); the second half-warp reading
 * what the first did takes the first half's sectors.  Anything else falls
 * back to the general pass, which must answer the same. */
static void test_ascending_warps(void **state)
{
    (void)state;
    MemAccess a = strided(4, 0, 0, 0xffffffffu);
    for (int l = 0; l < W; l++) a.addr[l] = l < 16 ? 0x1000 + 4 * (uint64_t)l : 0x1400 + 4 * (uint64_t)(l - 16);
    const Coalesced *c = go(&a);                  /* a 16-wide block's two rows */
    assert_int_equal(c->nsectors, 4);
    const uint64_t addr4[4] = { 0x1000, 0x1020, 0x1400, 0x1420 };
    const LaneMask lanes4[4] = { 0xffu, 0xff00u, 0xff0000u, 0xff000000u };
    for (int i = 0; i < 4; i++) {
        assert_int_equal(c->sector[i].addr, addr4[i]);
        assert_int_equal(c->sector[i].lanes, lanes4[i]);
    }
    assert_int_equal(c->nlines, 2);
    assert_int_equal(c->bytes_unique, 128);

    for (int l = 0; l < W; l++) a.addr[l] = 0x5000 + 4 * (uint64_t)(l / 2);   /* lane pairs share a word */
    c = go(&a);
    assert_int_equal(c->nsectors, 2);
    assert_int_equal(c->sector[0].lanes, 0x0000ffffu);
    assert_int_equal(c->sector[1].lanes, 0xffff0000u);
    assert_int_equal(c->bytes_unique, 64);        /* 16 distinct words */

    MemAccess col = strided(4, 0x8000, 4096, 0xffffffffu);   /* a column at a 4 KiB pitch */
    c = go(&col);
    assert_int_equal(c->nsectors, 32);
    assert_int_equal(c->nlines, 32);
    assert_int_equal(c->sector[31].addr, 0x8000 + 31 * 4096);
    assert_int_equal(c->sector[31].lanes, 0x80000000u);
    assert_int_equal(c->bytes_unique, 128);

    for (int l = 0; l < W; l++) a.addr[l] = 0x6000 + 8 * (uint64_t)(l % 16);   /* halves repeat: 8-byte stride */
    c = go(&a);
    assert_int_equal(c->nsectors, 4);
    assert_int_equal(c->sector[0].lanes, 0x000f000fu);
    assert_int_equal(c->sector[3].lanes, 0xf000f000u);
    assert_int_equal(c->bytes_unique, 64);

    a.addr[20] += 4;                              /* the second half differs in one lane: the general pass */
    c = go(&a);
    assert_int_equal(c->nsectors, 4);
    assert_int_equal(c->sector[1].lanes, 0x00f000f0u);
    assert_int_equal(c->bytes_unique, 68);

    for (int l = 0; l < W; l++) a.addr[l] = l < 16 ? 0x7400 + 4 * (uint64_t)l : 0x7000 + 4 * (uint64_t)(l - 16);
    c = go(&a);                                   /* the second row before the first */
    assert_int_equal(c->nsectors, 4);
    assert_int_equal(c->sector[0].addr, 0x7000);
    assert_int_equal(c->sector[0].lanes, 0x00ff0000u);
    assert_int_equal(c->sector[2].lanes, 0xffu);
    assert_int_equal(c->bytes_unique, 128);

    MemAccess mis = strided(4, 0x9002, 4, 0xffffffffu);     /* ascending but misaligned */
    c = go(&mis);
    assert_int_equal(c->nsectors, 5);
    assert_int_equal(c->bytes_unique, 128);
}

/* The array bounds: 32-byte lanes over 4-byte sectors and 16-byte lines,
 * the most the config allows. */
static void test_bounds(void **state)
{
    (void)state;
    MemAccess a = strided(32, 0x100000, 64, 0xffffffffu);
    const Coalesced *c = run(&a, 16, 4);
    check_shape(c, &a, 16, 4);
    assert_int_equal(c->nsectors, 256);
    assert_int_equal(c->nlines, 64);
    assert_int_equal(c->bytes_moved, 1024);
    /* a misaligned request (the functional model faults it first) stays in bounds */
    MemAccess b = strided(32, 0x100000 + 2, 64, 0xffffffffu);
    c = run(&b, 16, 4);
    check_shape(c, &b, 16, 4);
    assert_int_equal(c->nsectors, 288);
    assert_int_equal(c->nlines, 96);
    assert_true(c->nsectors <= COALESCE_MAX_SECTORS && c->nlines <= COALESCE_MAX_LINES);
}

/* ---- the H100 reference ---------------------------------------------------- */

typedef struct Counts {
    long ld_req, ld_sec, st_req, st_sec;
} Counts;

static void count(Counts *n, const MemAccess *a)
{
    static Coalesced out;                  /* a million calls: no poisoning here */
    const Coalesced *c = &out;
    coalesce(a, LINE, SECTOR, W, &out);
    if (a->is_store) { n->st_req += c->requests; n->st_sec += c->nsectors; }
    else { n->ld_req += c->requests; n->ld_sec += c->nsectors; }
}

/* Buffers as cudaMalloc returns them: aligned far beyond a line. */
static const uint64_t BUF_X = 1ull << 32, BUF_Y = 2ull << 32, BUF_Z = 3ull << 32;

/* One 4-byte warp access: lane l of warp w in a block of bdx threads per
 * row at float index f(tx, ty). */
typedef uint64_t (*IndexFn)(int tx, int ty, const int *arg);

static void warp_access(Counts *n, int is_store, uint64_t base, int w, int bdx, IndexFn f, const int *arg)
{
    MemAccess a = strided(4, 0, 0, 0xffffffffu);
    a.is_store = (uint8_t)is_store;
    for (int l = 0; l < W; l++) {
        int tid = w * W + l;
        a.addr[l] = base + f(tid % bdx, tid / bdx, arg) * 4;
    }
    count(n, &a);
}

/* arg: { stride, offset, blockIdx.x, blockDim.x } for the 1-D kernels. */
static uint64_t idx_strided(int tx, int ty, const int *arg)
{
    (void)ty;
    uint64_t i = (uint64_t)arg[2] * (uint64_t)arg[3] + (uint64_t)tx;
    return i * (uint64_t)arg[0] + (uint64_t)arg[1];
}

static uint64_t idx_linear(int tx, int ty, const int *arg)
{
    (void)ty;
    return (uint64_t)arg[2] * (uint64_t)arg[3] + (uint64_t)tx;
}

/* y[i] = x[i*stride + offset] * 2 (coalesce_ld) and y[i*stride + offset] =
 * x[i] * 2 (coalesce_st): one block of 1024 threads, 32 warps. */
static void test_h100_coalesce(void **state)
{
    (void)state;
    static const struct { int st_kernel, stride, offset; long ld_req, ld_sec, st_req, st_sec; } csv[] = {
        { 0, 1, 0, 32, 128, 32, 128 },
        { 0, 2, 0, 32, 256, 32, 128 },
        { 0, 4, 0, 32, 512, 32, 128 },
        { 0, 32, 0, 32, 1024, 32, 128 },
        { 1, 1, 0, 32, 128, 32, 128 },
        { 1, 2, 0, 32, 128, 32, 256 },
    };
    for (size_t r = 0; r < sizeof csv / sizeof csv[0]; r++) {
        Counts n = { 0 };
        int arg[4] = { csv[r].stride, csv[r].offset, 0, 1024 };
        for (int w = 0; w < 32; w++) {
            if (!csv[r].st_kernel) {
                warp_access(&n, 0, BUF_X, w, 1024, idx_strided, arg);
                warp_access(&n, 1, BUF_Y, w, 1024, idx_linear, arg);
            } else {
                warp_access(&n, 0, BUF_X, w, 1024, idx_linear, arg);
                warp_access(&n, 1, BUF_Y, w, 1024, idx_strided, arg);
            }
        }
        assert_int_equal(n.ld_req, csv[r].ld_req);
        assert_int_equal(n.ld_sec, csv[r].ld_sec);
        assert_int_equal(n.st_req, csv[r].st_req);
        assert_int_equal(n.st_sec, csv[r].st_sec);
    }
}

/* bank_ld: out[blockIdx.x * blockDim.x + t] = s[...]: the only global access
 * is the store.  Every stride row: ld 0/0, st 32 requests, 128 sectors. */
static void test_h100_bank_ld(void **state)
{
    (void)state;
    Counts n = { 0 };
    int arg[4] = { 1, 0, 0, 1024 };
    for (int w = 0; w < 32; w++) warp_access(&n, 1, BUF_Y, w, 1024, idx_linear, arg);
    assert_int_equal(n.ld_req, 0);
    assert_int_equal(n.ld_sec, 0);
    assert_int_equal(n.st_req, 32);
    assert_int_equal(n.st_sec, 128);
}

/* Transposes, n = 1024, 32x32 blocks of 32x32 threads.  arg: { bx, by, n }. */
static uint64_t idx_in(int tx, int ty, const int *arg)          /* in[y*n + x] */
{
    uint64_t x = (uint64_t)arg[0] * 32 + (uint64_t)tx, y = (uint64_t)arg[1] * 32 + (uint64_t)ty;
    return y * (uint64_t)arg[2] + x;
}

static uint64_t idx_naive_out(int tx, int ty, const int *arg)   /* out[x*n + y] */
{
    uint64_t x = (uint64_t)arg[0] * 32 + (uint64_t)tx, y = (uint64_t)arg[1] * 32 + (uint64_t)ty;
    return x * (uint64_t)arg[2] + y;
}

static uint64_t idx_tiled_out(int tx, int ty, const int *arg)   /* x, y swapped blocks */
{
    uint64_t x = (uint64_t)arg[1] * 32 + (uint64_t)tx, y = (uint64_t)arg[0] * 32 + (uint64_t)ty;
    return y * (uint64_t)arg[2] + x;
}

static void test_h100_transpose(void **state)
{
    (void)state;
    Counts naive = { 0 }, tiled = { 0 };
    for (int by = 0; by < 32; by++)
        for (int bx = 0; bx < 32; bx++) {
            int arg[3] = { bx, by, 1024 };
            for (int w = 0; w < 32; w++) {
                warp_access(&naive, 0, BUF_X, w, 32, idx_in, arg);
                warp_access(&naive, 1, BUF_Y, w, 32, idx_naive_out, arg);
                warp_access(&tiled, 0, BUF_X, w, 32, idx_in, arg);
                warp_access(&tiled, 1, BUF_Y, w, 32, idx_tiled_out, arg);
            }
        }
    /* transpose_naive: 32768, 131072, 32768, 1048576 */
    assert_int_equal(naive.ld_req, 32768);
    assert_int_equal(naive.ld_sec, 131072);
    assert_int_equal(naive.st_req, 32768);
    assert_int_equal(naive.st_sec, 1048576);
    /* transpose_shared and transpose_padded (same global accesses):
     * 32768, 131072, 32768, 131072 */
    assert_int_equal(tiled.ld_req, 32768);
    assert_int_equal(tiled.ld_sec, 131072);
    assert_int_equal(tiled.st_req, 32768);
    assert_int_equal(tiled.st_sec, 131072);
}

/* Matrix multiplies, m = n = k = 256, 16x16 blocks of 16x16 threads (8
 * warps; a warp holds two rows of 16).  arg: { bx, by, i_or_tile }. */
static uint64_t idx_mm_a(int tx, int ty, const int *arg)        /* A[row*n + i] */
{
    (void)tx;
    return (uint64_t)(arg[1] * 16 + ty) * 256 + (uint64_t)arg[2];
}

static uint64_t idx_mm_b(int tx, int ty, const int *arg)        /* B[i*k + col] */
{
    (void)ty;
    return (uint64_t)arg[2] * 256 + (uint64_t)(arg[0] * 16 + tx);
}

static uint64_t idx_mm_c(int tx, int ty, const int *arg)        /* C[row*k + col] */
{
    return (uint64_t)(arg[1] * 16 + ty) * 256 + (uint64_t)(arg[0] * 16 + tx);
}

static uint64_t idx_tile_a(int tx, int ty, const int *arg)      /* A[row*n + t*16 + tx] */
{
    return (uint64_t)(arg[1] * 16 + ty) * 256 + (uint64_t)(arg[2] * 16 + tx);
}

static uint64_t idx_tile_b(int tx, int ty, const int *arg)      /* B[(t*16 + ty)*k + col] */
{
    return (uint64_t)(arg[2] * 16 + ty) * 256 + (uint64_t)(arg[0] * 16 + tx);
}

static void test_h100_matmul(void **state)
{
    (void)state;
    Counts naive = { 0 }, tiled = { 0 };
    for (int by = 0; by < 16; by++)
        for (int bx = 0; bx < 16; bx++)
            for (int w = 0; w < 8; w++) {
                for (int i = 0; i < 256; i++) {
                    int arg[3] = { bx, by, i };
                    warp_access(&naive, 0, BUF_X, w, 16, idx_mm_a, arg);
                    warp_access(&naive, 0, BUF_Y, w, 16, idx_mm_b, arg);
                }
                for (int t = 0; t < 16; t++) {
                    int arg[3] = { bx, by, t };
                    warp_access(&tiled, 0, BUF_X, w, 16, idx_tile_a, arg);
                    warp_access(&tiled, 0, BUF_Y, w, 16, idx_tile_b, arg);
                }
                int arg[3] = { bx, by, 0 };
                warp_access(&naive, 1, BUF_Z, w, 16, idx_mm_c, arg);
                warp_access(&tiled, 1, BUF_Z, w, 16, idx_mm_c, arg);
            }
    /* naive_mm: 1048576, 2097152, 2048, 8192 */
    assert_int_equal(naive.ld_req, 1048576);
    assert_int_equal(naive.ld_sec, 2097152);
    assert_int_equal(naive.st_req, 2048);
    assert_int_equal(naive.st_sec, 8192);
    /* tiled_mm: 65536, 262144, 2048, 8192 */
    assert_int_equal(tiled.ld_req, 65536);
    assert_int_equal(tiled.ld_sec, 262144);
    assert_int_equal(tiled.st_req, 2048);
    assert_int_equal(tiled.st_sec, 8192);
}

static int cmp_u64(const void *x, const void *y)
{
    uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
    return a < b ? -1 : a > b;
}

/* coalesced_copy (what a held access keeps): the counts and the used
 * sectors and lines, whatever was in the destination.  Stride 132 bytes
 * from 0x1000: lane l's 4 bytes at 0x1000 + 132 l lie in line 32 + l
 * (132 l / 128 = l while 4 l < 128) and in a sector of their own, so 32
 * sectors in 32 lines, 128 bytes used of 1,024 moved. */
static void test_coalesced_copy(void **state)
{
    (void)state;
    static Coalesced src, dst;
    MemAccess a = strided(4, 0x1000, 132, 0xffffffffu);
    coalesce(&a, 128, 32, WARP_MAX, &src);
    memset(&dst, 0xab, sizeof dst);
    coalesced_copy(&dst, &src);
    assert_int_equal(dst.requests, 1);
    assert_int_equal(dst.nsectors, 32);
    assert_int_equal(dst.nlines, 32);
    assert_int_equal(dst.bytes_requested, 128);
    assert_int_equal(dst.bytes_unique, 128);
    assert_int_equal(dst.bytes_moved, 1024);
    assert_int_equal(dst.line[31].addr, (32 + 31) * 128);
    for (int i = 0; i < src.nsectors; i++) {
        assert_int_equal(dst.sector[i].addr, src.sector[i].addr);
        assert_int_equal(dst.sector[i].lanes, src.sector[i].lanes);
        assert_int_equal(dst.sector[i].line, src.sector[i].line);
    }
    for (int i = 0; i < src.nlines; i++) {
        assert_int_equal(dst.line[i].addr, src.line[i].addr);
        assert_int_equal(dst.line[i].sector_mask, src.line[i].sector_mask);
        assert_int_equal(dst.line[i].lanes, src.line[i].lanes);
        assert_int_equal(dst.line[i].first, src.line[i].first);
        assert_int_equal(dst.line[i].count, src.line[i].count);
    }
}

/* Random requests against a brute-force recount: same sectors, lines, masks. */
static void test_random_against_brute_force(void **state)
{
    (void)state;
    uint64_t seed = 12345;
    static const int sizes[] = { 1, 2, 4, 8, 16, 32 };
    static const int geo[][2] = { { 128, 32 }, { 64, 32 }, { 32, 32 }, { 128, 8 }, { 16, 4 } };
    for (int it = 0; it < 2000; it++) {
        MemAccess a = strided(4, 0, 0, 0);
        seed = seed * 6364136223846793005ull + 1442695040888963407ull;
        a.bytes = (uint8_t)sizes[(seed >> 33) % 6];
        a.mask = it % 3 == 1 ? ~0u : (LaneMask)(seed >> 11);   /* a whole warp: full_warp_sectors */
        a.is_store = (uint8_t)(seed >> 63);
        uint64_t span = 1u << ((seed >> 40) % 12 + 6);
        for (int l = 0; l < W; l++) {
            seed = seed * 6364136223846793005ull + 1442695040888963407ull;
            a.addr[l] = 0x70000000 + ((seed >> 20) % span) / a.bytes * a.bytes;
            if (it % 4 == 3) a.addr[l] += (seed >> 50) % a.bytes;   /* misaligned lanes: the sorting path */
            if (it % 6 == 1 && l % 8) a.addr[l] = a.addr[l - 1] + (uint64_t)a.bytes * ((seed >> 60) % 3);   /* runs */
        }
        /* whole halves, each one address or a unit-stride run (coalesce.c:
         * halves_sectors); it % 12 == 11 with misaligned bases */
        if (it % 12 == 5 || it % 12 == 11) {
            a.mask = ~0u;
            uint64_t step = a.bytes, base = a.addr[0];
            for (int h = 0; h < 2; h++) {
                seed = seed * 6364136223846793005ull + 1442695040888963407ull;
                int unit = (seed >> 41) & 1;
                if (h == 1) {                      /* at, just after, past or below the first half's last, or its first */
                    uint64_t last = a.addr[W / 2 - 1], k = (seed >> 42) % 6;
                    base = k == 0 ? last : k == 1 ? last + step : k == 2 ? last + step * ((seed >> 50) % 40) :
                           k == 3 ? last + 4096 : k == 4 ? last - step * (1 + (seed >> 50) % 8) : a.addr[0];
                }
                for (int l = 0; l < W / 2; l++) a.addr[h * W / 2 + l] = base + (unit ? step * (uint64_t)l : 0);
            }
        }
        if (it % 6 == 4) {                        /* a whole warp ascending, and its halves alike */
            qsort(a.addr, W, sizeof a.addr[0], cmp_u64);
            if (it % 12 == 4)
                for (int l = 0; l < W / 2; l++) a.addr[l + W / 2] = a.addr[l];
        }
        int lb = geo[it % 5][0], sb = geo[it % 5][1];
        const Coalesced *c = run(&a, lb, sb);
        check_shape(c, &a, lb, sb);
        /* brute force: every sector and line an active lane's bytes fall in */
        int ns = 0, nl = 0, pairs = 0;
        uint64_t seen_s[COALESCE_MAX_SECTORS], seen_l[COALESCE_MAX_LINES];
        for (int l = 0; l < W; l++) {
            if (!((a.mask >> l) & 1u)) continue;
            for (uint64_t b = a.addr[l]; b < a.addr[l] + a.bytes; b = (b / (uint64_t)sb + 1) * (uint64_t)sb) {
                uint64_t s = b / (uint64_t)sb * (uint64_t)sb, ln = b / (uint64_t)lb * (uint64_t)lb;
                pairs++;
                int k;
                for (k = 0; k < ns && seen_s[k] != s; k++) {}
                if (k == ns) seen_s[ns++] = s;
                for (k = 0; k < nl && seen_l[k] != ln; k++) {}
                if (k == nl) seen_l[nl++] = ln;
                for (k = 0; k < c->nsectors && c->sector[k].addr != s; k++) {}
                assert_true(k < c->nsectors);
                assert_true((c->sector[k].lanes >> l) & 1u);
            }
        }
        assert_int_equal(c->nsectors, ns);
        assert_int_equal(c->nlines, nl);
        int bits = 0;
        for (int k = 0; k < c->nsectors; k++) bits += __builtin_popcount(c->sector[k].lanes);
        assert_int_equal(bits, pairs);
        /* distinct bytes, a broadcast once */
        uint64_t byte[W * 32];
        int nb = 0;
        for (int l = 0; l < W; l++)
            for (int b = 0; (a.mask >> l) & 1u && b < a.bytes; b++) byte[nb++] = a.addr[l] + (uint64_t)b;
        qsort(byte, (size_t)nb, sizeof byte[0], cmp_u64);
        int distinct = 0;
        for (int i = 0; i < nb; i++) distinct += i == 0 || byte[i] != byte[i - 1];
        assert_int_equal(c->bytes_unique, distinct);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_stride_table),
        cmocka_unit_test(test_seed003_stride16),
        cmocka_unit_test(test_bytes),
        cmocka_unit_test(test_misaligned_base),
        cmocka_unit_test(test_vectors),
        cmocka_unit_test(test_partial_masks),
        cmocka_unit_test(test_64_byte_lines),
        cmocka_unit_test(test_order_and_broadcast),
        cmocka_unit_test(test_whole_warp_groups),
        cmocka_unit_test(test_ascending_warps),
        cmocka_unit_test(test_bounds),
        cmocka_unit_test(test_h100_coalesce),
        cmocka_unit_test(test_h100_bank_ld),
        cmocka_unit_test(test_h100_transpose),
        cmocka_unit_test(test_h100_matmul),
        cmocka_unit_test(test_coalesced_copy),
        cmocka_unit_test(test_random_against_brute_force),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
