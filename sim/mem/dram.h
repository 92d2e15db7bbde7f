/* dram.h - the DRAM channels behind the L2: banks with open-row buffers,
 * command timing, and a request scheduler per channel (seed 001).
 *
 * Each channel has `banks` banks (in bank_groups groups), one open row per
 * bank, a bus of bus_bits moving beats_per_clock beats per DRAM command
 * clock, and a request queue of queue_depth entries.  A column access
 * moves one burst of burst_length beats = burst_length x bus_bits / 8 bytes
 * and holds the data bus burst_length / beats_per_clock clocks.  A request
 * reaching a bank whose open row is its row is a row hit (column command
 * only: data tCL later), a closed bank is a row miss (ACT, tRCD, column,
 * tCL) and a bank with another row open a conflict (PRE, tRP, ACT, ...).
 * The constraints enforced: tRCD, tRP, tRAS, tRC, tRRD (activates to
 * different banks), tCCD / tCCDL (column to column, other / same bank
 * group), tCL, tWL, tWR (write data to precharge), tWTR (write data to read
 * command), the data bus (no two bursts overlap) and one command per clock,
 * or with split_cmd (dram.split_cmd_bus: HBM's separate row and column
 * command buses) one row command (ACT, PRE) and one column command.
 *
 * Scheduling (dram.sched): each bank takes one request at a time from the
 * queue.  fr_fcfs: the oldest request for the bank's open row, else the
 * oldest for the bank; among banks, ready column commands go first, oldest
 * request first (Rixner et al., ISCA 2000; GPGPU-Sim's FR-FCFS).  fcfs: each
 * bank takes its requests in arrival order and the oldest ready command wins.
 * The row stays open after an access (open-page policy).
 *
 * Address map (dram_map): channel = (addr / interleave_bytes) % channels;
 * the bytes left in the channel are laid out as
 *   row | column-high | bank | column-low
 * with column-low = min(interleave_bytes, row_bytes) bytes, so consecutive
 * chunks of a channel go to consecutive banks (bank group = bank %
 * bank_groups) and a sequential stream sweeps every bank's open row before
 * the next row: one row of one bank recurs every row_bytes x banks x channels
 * bytes.  addr_xor: bank ^= row % banks (permutation-based interleaving,
 * Zhang et al., MICRO 2000) so that such strides spread over the banks.
 *
 * Clocks: requests arrive and complete in core (SM) cycles; inside, time is
 * DRAM command clocks, DRAM clock d starting at core cycle
 * floor(d x core_khz / mem_khz).  Event driven: dram_run only visits the
 * clocks at which some command, arrival or return can happen.
 */
#ifndef GPUSIM_DRAM_H
#define GPUSIM_DRAM_H

#include <stdbool.h>
#include <stdint.h>

#include "sim/base/config.h"

/* GDDR5 moves 4 data beats per command clock (its 3696 MT/s on a 924 MHz
 * command clock, [SPEC] in configs/fermi.ini).  There is no config key for
 * it yet (dram.beats_per_clock would be one; HBM and DDR move 2). */
#define DRAM_BEATS_PER_CLOCK_DEFAULT 4

typedef struct DramParams {
    int channels, bus_bits, burst_length, beats_per_clock;
    int banks, bank_groups, row_bytes, interleave_bytes;
    int tCL, tRCD, tRP, tRAS, tRC, tWL, tWR, tCCD, tCCDL, tRRD, tWTR;
    int queue_depth;
    int sched;                   /* enum DramSched */
    bool addr_xor;
    bool split_cmd;              /* one row and one column command per clock */
    double core_clock_mhz, mem_clock_mhz;
    uint64_t core_khz, mem_khz;  /* the two clocks as a reduced integer ratio */
} DramParams;

typedef struct DramLoc {
    int channel, bank, group;
    uint64_t row;
    uint32_t col;                /* byte offset in the row */
} DramLoc;

typedef struct DramStats {
    uint64_t bytes_read, bytes_write;
    uint64_t reads, writes;                 /* requests served */
    uint64_t bursts_read, bursts_write;     /* column commands */
    uint64_t row_hits, row_misses, row_conflicts;
    uint64_t activates, precharges;
    uint64_t busy_clocks;                   /* DRAM clocks the data bus moved data */
} DramStats;

typedef struct Dram Dram;

/* A finished read: fn(ctx, addr, bursts, id, now) from inside dram_run. */
typedef void (*DramDoneFn)(void *ctx, uint64_t addr, uint32_t bursts, uint64_t id, uint64_t now);

void dram_params_from_config(DramParams *p, const Config *c);
Dram *dram_create(const DramParams *p, DramDoneFn done, void *ctx);
void dram_destroy(Dram *d);
const DramParams *dram_params(const Dram *d);

DramLoc dram_map(const DramParams *p, uint64_t addr);
int dram_burst_bytes(const DramParams *p);
/* DRAM clocks one burst holds the data bus. */
int dram_burst_clocks(const DramParams *p);

/* Conversions between the clocks: the core cycle DRAM clock d starts in,
 * and the first DRAM clock starting at or after core cycle t. */
uint64_t dram_to_core(const DramParams *p, uint64_t d);
uint64_t dram_from_core(const DramParams *p, uint64_t t);

/* Free queue entries of the channel. */
int dram_free_slots(const Dram *d, int channel);
/* Queue a request at core cycle now: bursts (bit i: the burst at addr +
 * i x burst bytes; all in one row) to read or write.  id comes back with a
 * finished read.  -1 if the channel's queue is full. */
int dram_push(Dram *d, uint64_t addr, uint32_t bursts, int is_write, uint64_t id, uint64_t now);
/* Run every channel up to and including core cycle now. */
void dram_run(Dram *d, uint64_t now);
/* The same in parts: dram_run_begin(now), then dram_run_channels for
 * ranges [lo, hi) that cover the channels, in any order or at once on
 * different threads (a channel's run touches that channel only; its
 * finished reads call the done function from the thread running it).
 * dram_push to a channel may follow its run, before the others' have. */
void dram_run_begin(Dram *d, uint64_t now);
void dram_run_channels(Dram *d, int lo, int hi);
/* Earliest core cycle at which dram_run has something to do; UINT64_MAX idle. */
uint64_t dram_next_event(const Dram *d);
int dram_busy(const Dram *d);

/* Totals over channels, or one channel. */
void dram_stats(const Dram *d, DramStats *out);
const DramStats *dram_channel_stats(const Dram *d, int channel);

/* Peak bandwidth, seed 001: data rate x bus width x channels / 8, where the
 * data rate is mem_clock x beats_per_clock. */
double dram_peak_gbs(const DramParams *p);
double dram_peak_bytes_per_clock(const DramParams *p);   /* all channels, per DRAM clock */

#endif
