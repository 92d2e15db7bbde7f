/* test_dram.c - DRAM channels, banks, row buffers, timing and scheduling
 * (sim/mem/dram.h), with fermi.ini's GDDR5 timing: tCL = tRCD = tRP = 12,
 * tRAS 28, tRC 40, tWL 4, tWR 12, tCCD 2, tCCDL 3, tRRD 6, tWTR 5 DRAM
 * clocks; 64-bit channels, burst length 8 at 4 beats per clock, so one
 * burst = 64 bytes and holds the bus 2 clocks.  Clocks: core 1401 MHz,
 * DRAM 924 MHz, ratio 1401/924 = 467/308: DRAM clock d starts at core
 * cycle floor(d x 467 / 308).  Expected values are worked out in the
 * comments. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "sim/base/config.h"
#include "sim/mem/dram.h"

typedef struct Log {
    int n;
    uint64_t id[4096];
    uint64_t at[4096];        /* core cycle the read completed */
} Log;

static void on_done(void *ctx, uint64_t addr, uint32_t bursts, uint64_t id, uint64_t now)
{
    (void)addr;
    (void)bursts;
    Log *l = ctx;
    if (l->n < 4096) {
        l->id[l->n] = id;
        l->at[l->n] = now;
    }
    l->n++;
}

static DramParams fermi(int channels)
{
    Config c;
    config_defaults(&c);             /* the defaults are fermi.ini's GTX 480 */
    c.dram.channels = channels;
    DramParams p;
    dram_params_from_config(&p, &c);
    return p;
}

/* Run until idle; returns the last core cycle visited. */
static uint64_t run_all(Dram *d, uint64_t t)
{
    uint64_t n;
    while ((n = dram_next_event(d)) != UINT64_MAX) {
        assert_true(n >= t);
        t = n;
        dram_run(d, t);
    }
    return t;
}

static void clocks_and_peak(void **state)
{
    (void)state;
    DramParams p = fermi(6);
    assert_int_equal(p.core_khz, 467);
    assert_int_equal(p.mem_khz, 308);
    assert_int_equal(dram_burst_bytes(&p), 64);
    assert_int_equal(dram_burst_clocks(&p), 2);
    assert_int_equal(dram_to_core(&p, 26), 39);          /* 26 x 467 / 308 = 39.4 */
    assert_int_equal(dram_from_core(&p, 40), 27);        /* 40 x 308 / 467 = 26.4, rounded up */
    assert_int_equal(dram_to_core(&p, 27), 40);          /* and back: clock 27 starts in cycle 40 */
    /* seed 001: 924 MHz x 4 beats = 3696 MT/s; x 384 bits / 8 = 177.408 GB/s */
    double gbs = dram_peak_gbs(&p);
    printf("fermi.ini peak DRAM bandwidth: %.0f MHz x %d beats x %d bits x %d channels / 8 = %.3f GB/s\n",
           p.mem_clock_mhz, p.beats_per_clock, p.bus_bits, p.channels, gbs);
    assert_true(fabs(gbs - 177.408) < 1e-9);
    assert_true(fabs(dram_peak_bytes_per_clock(&p) - 192.0) < 1e-9);   /* 32 B per clock per channel */
}

/* channel = (addr / 256) % channels; inside a channel: row | col-high |
 * bank | col-low(256 B).  6 channels: the channel's next 256 bytes are
 * 1536 bytes further on, in the next bank; bank 0 comes back after 16
 * chunks (24 KiB) with the next 256 bytes of its row; its next row after
 * 4096 x 16 x 6 = 384 KiB. */
static void address_map(void **state)
{
    (void)state;
    DramParams p = fermi(6);
    DramLoc l = dram_map(&p, 0);
    assert_int_equal(l.channel, 0);
    assert_int_equal(l.bank, 0);
    assert_int_equal(l.row, 0);
    l = dram_map(&p, 256 + 8);
    assert_int_equal(l.channel, 1);
    assert_int_equal(l.col, 8);
    l = dram_map(&p, 1536);
    assert_int_equal(l.channel, 0);
    assert_int_equal(l.bank, 1);
    assert_int_equal(l.group, 1);                        /* bank % 4 groups */
    l = dram_map(&p, 16 * 1536);
    assert_int_equal(l.bank, 0);
    assert_int_equal(l.col, 256);
    assert_int_equal(l.row, 0);
    l = dram_map(&p, 384 * 1024);
    assert_int_equal(l.bank, 0);
    assert_int_equal(l.row, 1);
    p.addr_xor = true;                                   /* bank ^= row % banks */
    l = dram_map(&p, 3 * 384 * 1024);
    assert_int_equal(l.row, 3);
    assert_int_equal(l.bank, 3);
}

/* One channel.  A read to a closed bank (row miss), then a row hit, then a
 * conflict, each alone:
 *  miss: pushed at core 0 -> DRAM clock 0: ACT 0, RD 12 (tRCD), data
 *        24..26 (tCL + 2) -> clock 26 starts in core cycle 39.
 *  hit:  pushed at core 40 -> clock 27 (first clock at or after 40): RD at 27,
 *        data 39..41 -> core floor(41 x 467 / 308) = 62.
 *  conflict (row 1 of bank 0, 64 KiB on): pushed at 63 -> clock 42: PRE 42
 *        (tRAS since ACT 0 = 28 passed), ACT at max(42 + tRP, 0 + tRC) = 54,
 *        RD 66, data 78..80 -> core floor(80 x 467 / 308) = 121. */
static void row_hit_miss_conflict_latency(void **state)
{
    (void)state;
    DramParams p = fermi(1);
    Log log = { 0 };
    Dram *d = dram_create(&p, on_done, &log);
    assert_non_null(d);
    assert_int_equal(dram_push(d, 0, 0x1, 0, 1, 0), 0);
    run_all(d, 0);
    assert_int_equal(log.n, 1);
    assert_int_equal(log.at[0], 39);
    assert_int_equal(dram_push(d, 64, 0x1, 0, 2, 40), 0);
    run_all(d, 40);
    assert_int_equal(log.at[1], 62);
    assert_int_equal(dram_push(d, 4096 * 16, 0x1, 0, 3, 63), 0);
    assert_int_equal(dram_map(&p, 4096 * 16).bank, 0);
    run_all(d, 63);
    assert_int_equal(log.at[2], 121);
    const DramStats *s = dram_channel_stats(d, 0);
    assert_int_equal(s->row_misses, 1);
    assert_int_equal(s->row_hits, 1);
    assert_int_equal(s->row_conflicts, 1);
    assert_int_equal(s->activates, 2);
    assert_int_equal(s->precharges, 1);
    assert_int_equal(s->bytes_read, 3 * 64);
    assert_int_equal(s->busy_clocks, 3 * 2);
    dram_destroy(d);
}

/* tWTR: a write then a read of the same open row, both queued at core 0.
 * ACT 0, WR 12 (data 16..18), the read's column command waits for
 * 18 + tWTR 5 = 23, data 35..37 -> core floor(37 x 467 / 308) = 56.
 * Without the write the read's data would end at 26 (core 39). */
static void write_to_read_turnaround(void **state)
{
    (void)state;
    DramParams p = fermi(1);
    Log log = { 0 };
    Dram *d = dram_create(&p, on_done, &log);
    dram_push(d, 0, 0x1, 1, 1, 0);
    dram_push(d, 64, 0x1, 0, 2, 0);
    run_all(d, 0);
    assert_int_equal(log.n, 1);                          /* writes complete silently */
    assert_int_equal(log.at[0], 56);
    DramStats s;
    dram_stats(d, &s);
    assert_int_equal(s.bytes_write, 64);
    assert_int_equal(s.bytes_read, 64);
    assert_int_equal(s.row_misses, 1);
    assert_int_equal(s.row_hits, 1);
    dram_destroy(d);
}

/* Three reads to bank 0 queued together: A row 0, B row 1, C row 0.
 * FR-FCFS serves A, then C (a younger row hit), then B (conflict);
 * FCFS serves them in arrival order: A, B (conflict), C (conflict again). */
static void fr_fcfs_vs_fcfs(void **state)
{
    (void)state;
    for (int fr = 0; fr <= 1; fr++) {
        DramParams p = fermi(1);
        p.sched = fr ? DRAM_FR_FCFS : DRAM_FCFS;
        Log log = { 0 };
        Dram *d = dram_create(&p, on_done, &log);
        uint64_t row1 = 4096 * 16;
        dram_push(d, 0, 0x1, 0, 'A', 0);
        dram_push(d, row1, 0x1, 0, 'B', 0);
        dram_push(d, 128, 0x1, 0, 'C', 0);
        run_all(d, 0);
        assert_int_equal(log.n, 3);
        const DramStats *s = dram_channel_stats(d, 0);
        assert_int_equal(log.id[0], 'A');
        assert_int_equal(s->row_misses, 1);
        if (fr) {
            assert_int_equal(log.id[1], 'C');
            assert_int_equal(log.id[2], 'B');
            assert_int_equal(s->row_hits, 1);
            assert_int_equal(s->row_conflicts, 1);
        } else {
            assert_int_equal(log.id[1], 'B');
            assert_int_equal(log.id[2], 'C');
            assert_int_equal(s->row_hits, 0);
            assert_int_equal(s->row_conflicts, 2);
        }
        dram_destroy(d);
    }
}

/* Stream n requests of `bursts` bursts at addr_i = start + i x stride,
 * keeping the queues full (in order: a full channel holds back the rest).
 * Returns the achieved fraction of peak: bytes moved / (elapsed DRAM clocks
 * x peak bytes per clock). */
static double stream(DramParams p, int n, uint64_t stride, uint32_t bursts, DramStats *out)
{
    Log log = { 0 };
    Dram *d = dram_create(&p, on_done, &log);
    assert_non_null(d);
    int pushed = 0;
    uint64_t t = 0;
    for (;;) {
        while (pushed < n) {
            uint64_t a = (uint64_t)pushed * stride;
            if (dram_free_slots(d, dram_map(&p, a).channel) == 0) break;
            assert_int_equal(dram_push(d, a, bursts, 0, (uint64_t)pushed, t), 0);
            pushed++;
        }
        uint64_t nx = dram_next_event(d);
        if (nx == UINT64_MAX) break;
        assert_true(nx >= t);
        t = nx;
        dram_run(d, t);
    }
    assert_int_equal(log.n, n);
    dram_stats(d, out);
    double elapsed = (double)dram_from_core(&p, t);
    dram_destroy(d);
    return (double)(out->bytes_read) / (elapsed * dram_peak_bytes_per_clock(&p));
}

/* A sequential stream of 128-byte lines (2 bursts each): after the first
 * activation of each bank every request is a row hit, and FR-FCFS keeps
 * the data bus busy by alternating bank groups (tCCD 2 = a burst) instead
 * of waiting tCCDL 3 in one group. */
static void sequential_stream_near_peak(void **state)
{
    (void)state;
    DramStats s;
    double eff = stream(fermi(1), 2048, 128, 0x3, &s);
    printf("sequential stream, 1 channel: %.1f%% of peak, %llu row hits, %llu misses, %llu conflicts\n",
           100 * eff, (unsigned long long)s.row_hits, (unsigned long long)s.row_misses,
           (unsigned long long)s.row_conflicts);
    assert_true(eff > 0.80);
    assert_int_equal(s.bytes_read, 2048 * 128);
    /* 256 KiB through 16 banks with 4 KiB rows: each bank opens 4 rows.  The
     * first is a row miss (bank closed), the next 3 are conflicts (the
     * previous row is still open: open-page policy); the other 32 - 1
     * lines of each 4 KiB row hit.  16 + 48 + 1984 = 2048. */
    assert_int_equal(s.row_misses, 16);
    assert_int_equal(s.row_conflicts, 48);
    assert_int_equal(s.row_hits, 2048 - 64);
}

/* Stride of one row of one bank (row_bytes x banks with one channel): every
 * request opens a new row in bank 0: one miss, then conflicts, and each
 * takes a whole row cycle (tRC = 40 clocks for 2 clocks of data). */
static void row_stride_conflicts(void **state)
{
    (void)state;
    DramStats s;
    DramParams p = fermi(1);
    double eff = stream(p, 64, 4096 * 16, 0x1, &s);
    printf("row-size stride, 1 channel: %.1f%% of peak\n", 100 * eff);
    assert_int_equal(s.row_hits, 0);
    assert_int_equal(s.row_misses, 1);
    assert_int_equal(s.row_conflicts, 63);
    assert_true(eff < 0.06);                             /* 2 / 40 = 5% */
    /* the XOR hash spreads the same stride over the 16 banks */
    p.addr_xor = true;
    double eff_xor = stream(p, 64, 4096 * 16, 0x1, &s);
    printf("row-size stride with dram.addr_xor: %.1f%% of peak\n", 100 * eff_xor);
    assert_int_equal(s.row_misses, 16);                  /* first touch of each bank */
    assert_int_equal(s.row_conflicts, 48);
    assert_true(eff_xor > 3 * eff);
}

/* The same sequential stream over 1, 2 and 4 channels: bandwidth in bytes
 * per clock scales about 1x, 2x, 4x. */
static void bandwidth_scales_with_channels(void **state)
{
    (void)state;
    DramStats s;
    double bw[3];
    int ch[3] = { 1, 2, 4 };
    for (int i = 0; i < 3; i++) {
        DramParams p = fermi(ch[i]);
        bw[i] = stream(p, 4096, 128, 0x3, &s) * dram_peak_bytes_per_clock(&p);
        printf("sequential stream, %d channel(s): %.1f bytes per DRAM clock\n", ch[i], bw[i]);
    }
    assert_true(bw[1] / bw[0] > 1.8 && bw[1] / bw[0] < 2.2);
    assert_true(bw[2] / bw[0] > 3.6 && bw[2] / bw[0] < 4.4);
}

/* A full queue refuses; entries free when their last column command issues. */
static void queue_depth(void **state)
{
    (void)state;
    DramParams p = fermi(1);
    Dram *d = dram_create(&p, NULL, NULL);
    for (int i = 0; i < p.queue_depth; i++) assert_int_equal(dram_push(d, (uint64_t)i * 64, 1, 0, 0, 0), 0);
    assert_int_equal(dram_free_slots(d, 0), 0);
    assert_int_equal(dram_push(d, 4096, 1, 0, 0, 0), -1);
    run_all(d, 0);
    assert_int_equal(dram_free_slots(d, 0), p.queue_depth);
    assert_false(dram_busy(d));
    dram_destroy(d);
}

/* The next event in core cycles (a channel keeps its next DRAM clock's
 * core cycle, worked out when that clock moves): one single-burst read
 * pushed at core cycle 5 on fermi.ini's clocks (467 and 308 MHz, tRCD =
 * tCL = 12, a burst 2 clocks).  It arrives at DRAM clock ceil(5 x 308 /
 * 467) = 4: ACT then, core floor(4 x 467 / 308) = 6; the column command at
 * 4 + 12 = 16, core floor(16 x 467 / 308) = 24; the data from 16 + 12 =
 * 28 to 30, core floor(30 x 467 / 308) = 45, when it completes.  Asked
 * between events, the next is still the same cycle. */
static void next_event_in_core_cycles(void **state)
{
    (void)state;
    DramParams p = fermi(1);
    assert_int_equal(p.tRCD, 12);
    assert_int_equal(p.tCL, 12);
    Log log = { 0 };
    Dram *d = dram_create(&p, on_done, &log);
    assert_non_null(d);
    assert_int_equal(dram_next_event(d), UINT64_MAX);
    assert_int_equal(dram_push(d, 0, 0x1, 0, 9, 5), 0);
    const uint64_t want[] = { 6, 24, 45 };
    for (int i = 0; i < 3; i++) {
        assert_int_equal(dram_next_event(d), want[i]);
        dram_run(d, want[i] - 1);                          /* too early: nothing moves */
        assert_int_equal(dram_next_event(d), want[i]);
        dram_run(d, want[i]);
    }
    assert_int_equal(dram_next_event(d), UINT64_MAX);
    assert_int_equal(log.n, 1);
    assert_int_equal(log.id[0], 9);
    assert_int_equal(log.at[0], 45);
    dram_destroy(d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(clocks_and_peak),
        cmocka_unit_test(next_event_in_core_cycles),
        cmocka_unit_test(address_map),
        cmocka_unit_test(row_hit_miss_conflict_latency),
        cmocka_unit_test(write_to_read_turnaround),
        cmocka_unit_test(fr_fcfs_vs_fcfs),
        cmocka_unit_test(sequential_stream_near_peak),
        cmocka_unit_test(row_stride_conflicts),
        cmocka_unit_test(bandwidth_scales_with_channels),
        cmocka_unit_test(queue_depth),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
