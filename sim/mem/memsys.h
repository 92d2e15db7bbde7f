/* memsys.h - the memory hierarchy behind the SMs' load/store units: an L1
 * data cache and a constant cache per SM, a crossbar to l2.slices memory
 * partitions, each with an L2 slice and the DRAM channel(s) it owns.
 *
 * Timing only: the executor has already moved the data at issue.  The SM
 * hands each global, local or atomic warp access to memsys_access at issue
 * (constant loads to memsys_const_access), then calls memsys_tick once per
 * cycle it visits; completions come back from memsys_tick.
 *
 * A load's path (tests/test_memsys.c pins the fermi.ini numbers):
 *   coalesce into lines and sectors (sim/mem/coalesce.h)
 *   -> L1 tag stage, one line per cycle; hit: data l1.hit_lat later
 *   -> miss: MSHR (up to l1.mshr_merge misses to a line already on its
 *      way merge into it; one more retries), request packet into the SM's
 *      crossbar port (icnt.queue_depth flits)
 *   -> crossbar (icnt.latency, one flit per port per cycle; a port picks
 *      among its first icnt.lookahead packets) to the slice that owns the
 *      line: slice = (addr / dram.interleave_bytes) % l2.slices, with
 *      dram.partition_hash after a hashed rotation (memsys.c)
 *   -> l2.hit_lat of partition pipeline, then the L2 tag stage, one request
 *      per cycle (a store: l2.write_cycles + l2.write_sector_cycles per
 *      sector it writes); hit: reply packet; miss: MSHR (up to l2.mshr_merge
 *      requests per line; one more holds the tag stage, and every request
 *      behind it, until the fill), DRAM request to the slice's
 *      channel (slice % dram.channels), reply when the data is back: the
 *      DRAM's bank timing (sim/mem/dram.h), then dram.ctrl_lat more cycles in
 *      the memory controller and PHY (a pipelined delay: it holds the L2
 *      MSHR, never the DRAM queue or bus)
 *   -> crossbar back -> L1 fill -> the waiting warps get their data
 *      l1.hit_lat later.
 * A warp's access completes when its last sector arrives.
 *
 * Stores follow the write policies (Fermi: L1 write-through without
 * allocation, L2 write-back with write-allocate, whole sectors); a store
 * completes when the L2 has accepted its last line, plus icnt.latency for
 * the acknowledgement.  Atomics skip the L1 and execute in the L2 slice:
 * its atomic unit does one operation per address per cycle, lanes on
 * distinct addresses of a line in parallel, so a line's atomic holds the
 * L2 tag stage for (the most lanes on any one of its addresses) cycles.
 * Local memory goes through the L1 like global (even with l1.enabled
 * false), write-back with allocation whatever l1.write_policy says of global
 * stores; its per-thread addresses are interleaved word by word across all
 * resident threads, as CUDA lays local memory out, so a warp's access to
 * one local variable coalesces.
 *
 * Deterministic: fixed iteration orders, ties by arrival, no allocation
 * after memsys_create.
 */
#ifndef GPUSIM_MEMSYS_H
#define GPUSIM_MEMSYS_H

#include <stdint.h>

#include "sim/base/config.h"
#include "sim/mem/access.h"
#include "sim/mem/coalesce.h"

typedef struct MemSys MemSys;

typedef struct MemDone {
    int sm, slot;
    uint32_t tag;
} MemDone;

/* Counters of the whole memory system.  Nsight Compute names in comments. */
typedef struct MemStats {
    /* L1TEX t-stage, global + local (requests = warp instructions, sectors = 32 B) */
    uint64_t l1_requests_ld, l1_requests_st;   /* l1tex__t_requests_pipe_lsu_mem_global_op_{ld,st}.sum */
    uint64_t l1_sectors_ld, l1_sectors_st;     /* l1tex__t_sectors_pipe_lsu_mem_global_op_{ld,st}.sum */
    uint64_t local_requests_ld, local_requests_st;   /* l1tex__t_requests_pipe_lsu_mem_local_op_{ld,st}.sum */
    uint64_t local_sectors_ld, local_sectors_st;     /* l1tex__t_sectors_pipe_lsu_mem_local_op_{ld,st}.sum */
    uint64_t atom_requests, atom_sectors;      /* l1tex__t_{requests,sectors}_pipe_lsu_mem_global_op_atom.sum */
    uint64_t l1_sector_hits, l1_sector_misses; /* l1tex__t_sector_hit_rate.pct = hits / (hits + misses); loads looked up in L1 */
    uint64_t l1_mshr_merges;                   /* load lines that joined a miss in flight (MSHR merge) */
    uint64_t l1_evictions;
    /* L2 (all slices) */
    uint64_t l2_sector_hits, l2_sector_misses; /* lts__t_sector_hit_rate.pct; reads, writes and atomics */
    uint64_t l2_sectors_read, l2_sectors_write, l2_sectors_atom;   /* lts__t_sectors_op_{read,write,atom}.sum */
    uint64_t l2_requests;                      /* lts__t_requests.sum (line requests from the crossbar) */
    uint64_t l2_writebacks, l2_writeback_sectors;   /* dirty lines evicted to DRAM */
    uint64_t atom_lane_ops, atom_l2_cycles;    /* lane operations, cycles the atomic units were busy */
    /* DRAM (all channels) */
    uint64_t dram_bytes_read, dram_bytes_write;     /* dram__bytes_read.sum, dram__bytes_write.sum */
    uint64_t dram_reads, dram_writes;          /* requests (each one or more bursts) */
    uint64_t dram_row_hits, dram_row_misses, dram_row_conflicts;   /* per request: open row / bank closed / other row open */
    uint64_t dram_activates, dram_precharges;
    uint64_t dram_busy_cycles, dram_cycles;    /* data-bus busy DRAM clocks / elapsed DRAM clocks, summed over
                                                * channels: achieved bandwidth = busy / cycles of peak */
    uint64_t dram_flush_bytes;                 /* part of dram_bytes_write counted by memsys_flush */
    /* constant cache */
    uint64_t const_requests, const_serialized, const_misses;  /* warp loads, extra cycles for distinct addresses, line misses */
    /* coalescing */
    uint64_t bytes_requested, bytes_moved;     /* active lanes x bytes; sectors x sector bytes (global + local ld/st) */
    /* interconnect and back-pressure */
    uint64_t icnt_req_packets, icnt_req_flits, icnt_reply_packets, icnt_reply_flits;
    uint64_t retry_l1_busy, retry_mshr, retry_icnt, retry_records;   /* MEM_RETRY answers, by cause */
    /* cycles an L2 slice's tag stage held a request it could not take, summed
     * over slices, by what it waited for (index L2_WAIT_* - 1): a free DRAM
     * queue entry, room in the reply port, an unreserved way, an MSHR */
    uint64_t l2_wait_cycles[4];
} MemStats;

enum { L2_WAIT_DRAM = 1, L2_WAIT_REPLY, L2_WAIT_RESERVED, L2_WAIT_MSHR };

enum { MEM_OK, MEM_PENDING, MEM_RETRY };

/* memsys_access_ex flags */
enum { MEMSYS_BYPASS_L1 = 1u << 0,      /* ld.cg (and .cv): global load cached in L2 only */
       MEMSYS_POSTED = 1u << 1 };       /* a reduction nobody waits for: its completion is not reported */

/* NULL if this config can be simulated, else why not (memsys_create then
 * fails): L1 and L2 must share line and sector sizes, a line must hold at
 * most 32 sectors and fit in one DRAM row and interleave chunk. */
const char *memsys_unsupported(const Config *c);

MemSys *memsys_create(const Config *c, int num_sms);
void memsys_destroy(MemSys *m);

/* A warp's global, local or atomic access issued by SM sm at cycle now.
 * MEM_OK: *done = the cycle the data is back (loads), known now (every
 * line hit in L1).  MEM_PENDING: memsys_tick reports it later with (sm,
 * slot, tag); *done untouched.  MEM_RETRY: the L1 tag stage is still busy
 * with the previous access's lines, or the MSHRs, the crossbar port or the
 * SM's in-flight records are full; nothing was counted or changed, retry
 * next cycle (lg_throttle).  slot (< sm.max_warps) also places local memory. */
int memsys_access(MemSys *m, int sm, int slot, uint32_t tag, const MemAccess *a, uint64_t now, uint64_t *done);
int memsys_access_ex(MemSys *m, int sm, int slot, uint32_t tag, const MemAccess *a, unsigned flags,
                     uint64_t now, uint64_t *done);
/* The same, given co: the coalescing of a global access a at the L1's line
 * and sector sizes (lsu_account's), so that it is not done again; NULL:
 * memsys coalesces. */
int memsys_access_co(MemSys *m, int sm, int slot, uint32_t tag, const MemAccess *a, const Coalesced *co,
                     unsigned flags, uint64_t now, uint64_t *done);
/* Earliest cycle the SM's L1 tag stage takes another access (MEM_RETRY for
 * a busy tag stage clears then; the other causes clear on a completion). */
uint64_t memsys_sm_ready(const MemSys *m, int sm);

/* Constant-memory load (.const space): the constant cache broadcasts one
 * address to the warp and serialises distinct addresses, one extra cycle
 * each.  Returns now + cc.hit_lat + (distinct addresses - 1) + a fixed
 * penalty of 2 x icnt.latency + l2.hit_lat per missing line (an L2 hit
 * with no contention: constant misses are not sent through the crossbar);
 * *missed set if any line missed (the SM charges imc_miss). */
uint64_t memsys_const_access(MemSys *m, int sm, const MemAccess *a, uint64_t now, int *missed);

/* After a refused access (MEM_RETRY) of this cycle: 1 if the refusal holds
 * until the L1's tag stage frees (*when) or until the memory system says
 * otherwise (memsys_woken; *when UINT64_MAX), so the SM need not offer the
 * access every cycle; the refusals it skips are counted when it offers it
 * again, as if it had.  0: offer it again next cycle. */
int memsys_retry_sleep(MemSys *m, int sm, uint64_t now, uint64_t *when);
/* The SMs asleep on a refusal that memsys_tick has since lifted (a fill, a
 * freed record, a packet sent): they offer their access again this cycle.
 * out holds up to the SM count; returns how many. */
int memsys_woken(MemSys *m, int *out);
/* Posted accesses (MEMSYS_POSTED) still in flight: a launch ends when its
 * SMs are idle and these have drained. */
int memsys_posted_pending(const MemSys *m);
/* Advance to cycle now (increasing; cycles before memsys_next_event() may
 * be skipped).  Writes the accesses that complete at or before now to out,
 * at most max, in (cycle, completion order) order; returns the count.  If
 * more than max complete, the rest come from the next call. */
int memsys_tick(MemSys *m, uint64_t now, MemDone *out, int max);
/* Earliest cycle at which memsys_tick can do anything; UINT64_MAX if idle. */
uint64_t memsys_next_event(const MemSys *m);
/* Anything in flight (requests, fills, DRAM work, unreported completions). */
int memsys_busy(const MemSys *m);

/* Count every dirty sector as written back to DRAM (end of a kernel:
 * dram__bytes_write then includes what the write-back caches still hold):
 * dirty L1 lines (local memory; global stores under a write-back L1) are
 * written into L2 first, then every dirty L2 line is counted.  Counted in
 * bursts, not timed; lines stay valid and become clean. */
void memsys_flush(MemSys *m);
/* Give every SM's L1 `bytes` of capacity (the carve-out of a launch, between
 * launches): the L1s start empty, with the config's line and sector size,
 * ways = lines / sets for the fewest power-of-two sets that keep ways <= 64.
 * No-op if the size is unchanged.  0 ok, -1 out of memory. */
int memsys_set_l1_bytes(MemSys *m, int64_t bytes);
int64_t memsys_l1_bytes(const MemSys *m);
/* Empty every SM's L1 (l1.invalidate_on_launch, between launches): dirty
 * lines are written to L2 first.  No-op while anything is in flight.  0 ok,
 * -1 out of memory. */
int memsys_invalidate_l1(MemSys *m);

/* The counters as of this call: the DRAM's and the crossbars' (and
 * dram_cycles, up to the last tick) are gathered here, so ask again after
 * more cycles rather than keep the pointer's old values. */
const MemStats *memsys_stats(MemSys *m);

/* Parallel simulation (sim/timing/gpu.c).  memsys_access_co, _ex,
 * memsys_const_access and memsys_retry_sleep touch only the SM's own state
 * (its L1, its crossbar port, its records, its counters) and the calling
 * thread's scratch, so SMs on different host threads may call them at
 * once, memsys_tick and the rest of the memory side not meanwhile.  What an
 * access would tell the shared side (the crossbar port has packets, the
 * memory side has work from the next cycle, the SM sleeps on a refusal)
 * waits, in deferred mode, until memsys_sm_sync(lo, hi) hands it over for
 * SMs lo..hi-1 in SM order (the SMs' counters stay theirs until
 * memsys_stats adds them up): the same state as without deferral, provided
 * the caller syncs every SM before the next memsys_tick or
 * memsys_next_event. */
void memsys_set_deferred(MemSys *m, int on);
void memsys_sm_sync(MemSys *m, int lo, int hi);

/* Partition lanes.  Each step of memsys_tick runs the DRAM channels, their
 * controllers' delay lines and the L2 slices' tag stages of each memory
 * partition (a channel and the slices s with s % dram.channels == it)
 * apart from the others: they share no state there.  With n lanes (at
 * most dram.channels, and MEMSYS_MAX_LANES) the partitions are split into
 * n contiguous ranges of channels and that part of a step is handed to
 * run(ctx, n, fn, arg), which must call fn(arg, i) once for each lane i,
 * on any threads, in any order, and return when all have returned.  What
 * would touch shared state there (the crossbars' busy bits, the records a
 * store acknowledgement completes, the L2 counters) is held per lane and
 * applied after, in the order one lane gives, so the result is the one-
 * lane result, bit for bit.  n = 1 or run NULL: one lane, on the calling
 * thread.  Between steps only (not from inside run). */
enum { MEMSYS_MAX_LANES = 64 };
typedef void (*MemLaneFn)(void *arg, int lane);
typedef void (*MemRunFn)(void *ctx, int nlanes, MemLaneFn fn, void *arg);
void memsys_set_lanes(MemSys *m, int n, MemRunFn run, void *ctx);
int memsys_lanes(const MemSys *m);

/* Per-unit counters, read-only, for observers (the visual trace's memory
 * lanes): they cost nothing unless asked for.  A partition is a DRAM
 * channel and the L2 slices that own its lines (slice % dram.channels);
 * summed over SMs or partitions the counters are MemStats' (the DRAM bytes
 * without memsys_flush's). */
typedef struct MemSmCounters {
    uint64_t l1_sector_hits, l1_sector_misses;   /* this SM's loads looked up in its L1 */
    int in_flight;                               /* warp accesses in flight now (records in use) */
} MemSmCounters;
typedef struct MemPartCounters {
    uint64_t l2_sector_hits, l2_sector_misses;   /* its slices' */
    uint64_t l2_sectors;                         /* its slices' sectors read, written and atomic */
    uint64_t dram_bytes;                         /* its channel's bytes read and written */
    int dram_queue;                              /* requests in its channel's queue now */
} MemPartCounters;
int memsys_partitions(const MemSys *m);          /* dram.channels */
void memsys_sm_counters(const MemSys *m, int sm, MemSmCounters *out);
void memsys_part_counters(const MemSys *m, int part, MemPartCounters *out);

/* Peak DRAM bandwidth, seed 001: mem_clock x DRAM_BEATS_PER_CLOCK_DEFAULT
 * (data rate) x dram.bus_bits x dram.channels / 8.  Fermi: 924 MHz x 4 =
 * 3696 MT/s x 384 bits / 8 = 177.408 GB/s. */
double memsys_peak_gbs(const Config *c);
/* The same in bytes per core cycle (Fermi: 177.408e9 / 1401e6 = 126.63). */
double memsys_peak_bytes_per_cycle(const Config *c);

#endif
