/* config.c - the key table and everything it drives (see config.h).
 *
 * Read top to bottom: the table; value parsing and checking shared by the
 * .ini reader and --set; the .ini reader; --set; cross-field rules;
 * formatting, dump and docs.
 */
#include "sim/base/config.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "isa/suggest.h"

/* ------------------------------------------------------------------ */
/* The table                                                           */
/* ------------------------------------------------------------------ */

#define ENUM_NAME(e, s) s,
static const char *const sched_names[] = { CONFIG_SCHED_POLICIES(ENUM_NAME) NULL };
static const char *const write_names[] = { CONFIG_WRITE_POLICIES(ENUM_NAME) NULL };
static const char *const dram_sched_names[] = { CONFIG_DRAM_SCHEDS(ENUM_NAME) NULL };
static const char *const mem_model_names[] = { CONFIG_MEM_MODELS(ENUM_NAME) NULL };
static const char *const core_schedule_names[] = { CONFIG_CORE_SCHEDULES(ENUM_NAME) NULL };
#undef ENUM_NAME

#define KIB 1024.0
#define MIB (1024.0 * 1024.0)
#define GIB (1024.0 * 1024.0 * 1024.0)
#define NOLIMIT 1000000.0     /* upper bound for latencies: a million cycles */

#define FIELD(f) .offset = offsetof(Config, f), .size = sizeof(((Config *)0)->f)
#define K_INT(nm, f, def, lo, hi, fl, un, hp)                                \
    { .name = nm, .type = CFG_INT, FIELD(f), .def_int = def, .min = lo,      \
      .max = hi, .flags = fl, .unit = un, .help = hp }
#define K_I64(nm, f, def, lo, hi, fl, un, hp)                                \
    { .name = nm, .type = CFG_INT64, FIELD(f), .def_int = def, .min = lo,    \
      .max = hi, .flags = fl, .unit = un, .help = hp }
#define K_BOOL(nm, f, def, hp)                                               \
    { .name = nm, .type = CFG_BOOL, FIELD(f), .def_int = def, .min = 0,      \
      .max = 1, .unit = "", .help = hp }
#define K_DBL(nm, f, def, lo, hi, un, hp)                                    \
    { .name = nm, .type = CFG_DOUBLE, FIELD(f), .def_dbl = def, .min = lo,   \
      .max = hi, .unit = un, .help = hp }
#define K_ENUM(nm, f, def, names, hp)                                        \
    { .name = nm, .type = CFG_ENUM, FIELD(f), .def_int = def,                \
      .enum_names = names, .unit = "", .help = hp }
#define K_STR(nm, f, def, hp)                                                \
    { .name = nm, .type = CFG_STRING, FIELD(f), .def_str = def, .unit = "",  \
      .help = hp }

#define P2 CFG_POW2
#define BY CFG_BYTES

/* Defaults are the GeForce GTX 480; configs/fermi.ini cites each value. */
static const ConfigKey keys[] = {
    K_STR("gpu.name", gpu.name, "GTX 480", "Product name, echoed in reports."),
    K_INT("gpu.num_sms", gpu.num_sms, 15, 1, 1024, 0, "SMs", "Streaming multiprocessors on the chip."),
    K_DBL("gpu.core_clock_mhz", gpu.core_clock_mhz, 1401, 1, 100000, "MHz", "SM (shader) clock; one simulated cycle is one period of it."),
    K_DBL("gpu.mem_clock_mhz", gpu.mem_clock_mhz, 924, 1, 100000, "MHz", "DRAM command clock; dram.t* timings count its cycles."),
    K_INT("gpu.launch_cycles", gpu.launch_cycles, 0, 0, 1000000, 0, "cycles",
          "Launch overhead: cycles from a launch to its first block dispatch (host interface, grid set-up); counted in elapsed cycles, not in SM-active cycles."),
    K_DBL("gpu.cta_dispatch_cycles", gpu.cta_dispatch_cycles, 0, 0, 1000, "cycles",
          "The block dispatcher starts at most one block per this many cycles for the whole GPU (0: one per SM per cycle, no GPU-wide limit)."),

    K_INT("sm.warp_size", sm.warp_size, 32, 4, 32, P2, "threads", "Threads per warp (4, 8, 16 or 32)."),
    K_INT("sm.lanes", sm.lanes, 32, 1, 1024, 0, "lanes", "Single-precision ALU lanes (CUDA cores) per SM."),
    K_INT("sm.schedulers", sm.schedulers, 2, 1, 16, 0, "", "Warp schedulers per SM; warp w belongs to scheduler w % schedulers."),
    K_INT("sm.issue_per_scheduler", sm.issue_per_scheduler, 1, 1, 4, 0, "instructions", "Instructions one scheduler may issue per cycle."),
    K_INT("sm.max_threads", sm.max_threads, 1536, 1, 65536, 0, "threads", "Resident threads per SM (occupancy limit)."),
    K_INT("sm.max_blocks", sm.max_blocks, 8, 1, 1024, 0, "blocks", "Resident thread blocks per SM (occupancy limit)."),
    K_INT("sm.max_warps", sm.max_warps, 48, 1, 2048, 0, "warps", "Resident warps per SM (occupancy limit). Unless set in the same file (or --set) as `sm.warp_size`/`sm.max_threads`, it follows them: max_threads / warp_size, rounded up, so `--set sm.warp_size=8` alone works."),
    K_INT("sm.registers", sm.registers, 32768, 256, 16777216, 0, "registers", "32-bit registers in the SM register file."),
    K_INT("sm.reg_alloc_unit", sm.reg_alloc_unit, 64, 1, 4096, P2, "registers", "Registers are granted per warp in multiples of this."),
    K_INT("sm.max_regs_per_thread", sm.max_regs_per_thread, 63, 1, 255, 0, "registers", "Most registers one thread may use."),
    K_INT("sm.max_call_depth", sm.max_call_depth, 64, 1, 4096, 0, "calls",
          "Device-function calls (.func) one thread may nest; one more is a fault (call stack overflow), as CUDA's stack limit is."),
    K_I64("sm.shared_bytes", sm.shared_bytes, 48 * 1024, 0, 16 * MIB, BY, "bytes", "Shared memory per SM."),
    K_INT("sm.shared_alloc_unit", sm.shared_alloc_unit, 128, 1, 64 * KIB, P2 | BY, "bytes", "Shared memory is granted per block in multiples of this."),
    K_INT("sm.ibuffer_depth", sm.ibuffer_depth, 2, 1, 64, 0, "instructions", "Decoded-instruction buffer entries per warp."),
    K_INT("sm.fetch_width", sm.fetch_width, 2, 1, 16, 0, "instructions", "Instructions decoded into a warp's buffer per fetch; a fetch unit serves one warp per cycle."),
    K_INT("sm.cta_launch_cycles", sm.cta_launch_cycles, 0, 0, 100000, 0, "cycles",
          "A dispatched block holds its slot and resources, its warps fetching nothing, for this many cycles before they start (block set-up); counted in SM-active cycles."),
    K_INT("sm.bar_latency", sm.bar_latency, 0, 0, 10000, 0, "cycles",
          "A completed barrier releases its warps this many cycles after the barrier unit has counted the last arrival."),
    K_INT("sm.bar_warp_cycles", sm.bar_warp_cycles, 0, 0, 1000, 0, "cycles",
          "The barrier unit counts one arriving warp per this many cycles (0: all at once)."),
    K_BOOL("sm.independent_threads", sm.independent_threads, 0,
           "For the race check (--check races) only: lanes of one warp count as separate threads, so a shared word written by one lane and read by another of the same warp without a barrier is a hazard, as compute-sanitizer reports from Volta on (independent thread scheduling). Execution still keeps a warp's lanes in lockstep."),
    K_INT("sm.fetch_units", sm.fetch_units, 1, 1, 16, 0, "",
          "Instruction fetch units per SM, each serving the warps of sm.schedulers / sm.fetch_units schedulers (1: one for the whole SM, as Fermi; sm.schedulers: one per processing block, as Volta to Hopper)."),

    K_ENUM("core.schedule", core.schedule, CORE_SCHEDULE_MACHINE, core_schedule_names,
           "What a warp issues: the machine order, registers and instruction counts of the ptxas-like back end (isa/backend.h), or the PTX exactly as written, one instruction each."),

    K_ENUM("sched.policy", sched.policy, SCHED_GTO, sched_names, "Warp scheduling policy: loose round robin, greedy-then-oldest, oldest first, two-level."),
    K_INT("sched.two_level_active", sched.two_level_active, 6, 1, 2048, 0, "warps", "Active-pool size per scheduler for the two_level policy."),

    K_INT("unit.sp_groups", unit.sp_groups, 2, 1, 16, 0, "", "Single-precision ALU groups per SM; each takes one warp instruction."),
    K_INT("unit.sp_width", unit.sp_width, 16, 1, 64, P2, "lanes", "Lanes per SP group; a warp takes warp_size / sp_width cycles."),
    K_INT("unit.sfu_width", unit.sfu_width, 4, 1, 64, P2, "lanes", "Special-function unit lanes per SM (sin, rsqrt, ex2 ...)."),
    K_INT("unit.lsu_width", unit.lsu_width, 16, 1, 64, P2, "lanes", "Load/store unit lanes per SM (address generation)."),
    K_INT("unit.dp_width", unit.dp_width, 4, 1, 64, P2, "lanes", "Double-precision results per SM per cycle."),
    K_INT("unit.int_width", unit.int_width, 0, 0, 256, 0, "lanes",
          "INT32 lanes per SM in a pipe of their own, split like the SP lanes into unit.sp_groups groups (Volta to Hopper); 0: integer instructions share the SP pipe (Fermi)."),
    K_INT("unit.dp_groups", unit.dp_groups, 1, 1, 16, 0, "",
          "Groups the unit.dp_width FP64 lanes are split into; with one group per scheduler each scheduler's warps use their own."),
    K_INT("unit.lsu_groups", unit.lsu_groups, 1, 1, 16, 0, "",
          "Groups the unit.lsu_width load/store lanes are split into, one per scheduler when it equals sm.schedulers: a warp's memory instruction takes warp_size / (lsu_width / lsu_groups) cycles of its scheduler's group to generate addresses, then the SM's L1 pipe one cycle per wavefront."),
    K_INT("unit.lsu_global_cycles", unit.lsu_global_cycles, 0, 0, 64, 0, "cycles",
          "With unit.lsu_groups > 1: cycles a global or local memory instruction holds its scheduler's address stage (64-bit addresses); 0: as long as a shared one."),
    K_INT("unit.sfu_groups", unit.sfu_groups, 1, 1, 16, 0, "",
          "Groups the unit.sfu_width SFU lanes are split into; with one group per scheduler each scheduler's warps use their own."),

    K_INT("lat.alu", lat.alu, 22, 1, NOLIMIT, 0, "cycles", "Integer and FP32 add/logic: issue to dependent issue."),
    K_INT("lat.imul", lat.imul, 22, 1, NOLIMIT, 0, "cycles", "32-bit integer multiply and mad."),
    K_INT("lat.fma", lat.fma, 22, 1, NOLIMIT, 0, "cycles", "FP32 mul and fma."),
    K_INT("lat.dp", lat.dp, 44, 1, NOLIMIT, 0, "cycles", "FP64 add, mul and fma."),
    K_INT("lat.sfu", lat.sfu, 40, 1, NOLIMIT, 0, "cycles", "Special-function unit ops (rcp, rsqrt, sin, cos, ex2, lg2)."),
    K_INT("lat.shared", lat.shared, 50, 1, NOLIMIT, 0, "cycles", "Shared-memory load without bank conflicts."),
    K_INT("lat.global_fixed", lat.global_fixed, 600, 1, NOLIMIT, 0, "cycles", "Global/local access latency while no cache or DRAM model is enabled."),
    K_INT("lat.constant", lat.constant, 22, 1, NOLIMIT, 0, "cycles", "Constant and parameter loads while no constant-cache model is enabled."),
    K_INT("lat.branch", lat.branch, 22, 1, NOLIMIT, 0, "cycles", "Branch: issue until the warp may fetch from the target."),

    K_ENUM("mem.model", mem.model, MEM_MODEL_HIERARCHY, mem_model_names,
           "Global/local memory timing: the cache, interconnect and DRAM hierarchy, or a fixed latency (lat.global_fixed) for latency lessons."),

    K_INT("smem.banks", smem.banks, 32, 1, 64, P2, "banks", "Shared-memory banks; bank = (addr / bank_bytes) % banks."),
    K_INT("smem.bank_bytes", smem.bank_bytes, 4, 4, 8, P2 | BY, "bytes", "Bank width (4 or 8)."),
    K_INT("smem.reserved_bytes", smem.reserved_bytes, 0, 0, 64 * 1024, BY, "bytes",
          "Shared memory the system keeps for each resident block (CC 8.0 and later: 1 KiB); counted when the carve-out is chosen."),
    K_STR("smem.carveouts", smem.carveouts, "none",
          "With l1.unified_bytes: the shared-memory carve-outs the driver may choose, in KiB, ascending (e.g. \"0,8,16,32,64,100,132,164,196,228\"); each launch takes the smallest that holds its resident blocks' shared memory, and the L1 gets the rest (\"none\": a fixed split)."),
    K_INT("smem.replay_lat", smem.replay_lat, 1, 0, 64, 0, "cycles",
          "Cycles each extra wavefront of a bank-conflicted access adds to its result latency (the pipe is held one cycle per wavefront either way)."),

    K_BOOL("l1.enabled", l1.enabled, 1, "Cache global loads in L1 (false: they go straight to L2)."),
    K_I64("l1.size_bytes", l1.size_bytes, 16 * 1024, 256, 64 * MIB, BY, "bytes", "L1 data cache capacity per SM (with l1.unified_bytes: at the largest shared-memory carve-out)."),
    K_I64("l1.unified_bytes", l1.unified_bytes, 0, 0, 64 * MIB, BY, "bytes",
          "L1 and shared memory as one array of this size, split per launch by smem.carveouts (0: the L1 keeps l1.size_bytes, shared memory sm.shared_bytes)."),
    K_INT("l1.line_bytes", l1.line_bytes, 128, 16, 4096, P2 | BY, "bytes", "L1 line (tag) size."),
    K_INT("l1.sector_bytes", l1.sector_bytes, 32, 4, 4096, P2 | BY, "bytes", "Sector size: the unit counted by l1tex__t_sectors."),
    K_INT("l1.assoc", l1.assoc, 4, 1, 64, 0, "ways", "L1 associativity."),
    K_INT("l1.hit_lat", l1.hit_lat, 50, 1, NOLIMIT, 0, "cycles", "L1 hit latency."),
    K_INT("l1.mshrs", l1.mshrs, 32, 1, 4096, 0, "entries", "Outstanding L1 misses (MSHR entries) per SM."),
    K_INT("l1.mshr_merge", l1.mshr_merge, 8, 1, 1024, 0, "requests", "Misses to a line in flight that one L1 MSHR holds, the first included; one more is refused (lg_throttle) until the fill."),
    K_ENUM("l1.write_policy", l1.write_policy, CACHE_WRITE_THROUGH, write_names, "What a global store does to L1."),
    K_BOOL("l1.alloc_on_write", l1.alloc_on_write, 0, "Allocate a line in L1 on a store miss."),
    K_BOOL("l1.invalidate_on_launch", l1.invalidate_on_launch, 0, "Empty every SM's L1 at the start of each launch (its dirty lines written to L2 first), as GPUs whose L1 is not coherent must: a line another SM wrote in the last launch is not read stale."),
    K_BOOL("l1.set_hash", l1.set_hash, 0, "Hash the set index (the line address's higher bits XORed in): power-of-two strides spread over the sets instead of filling one."),

    K_I64("l2.size_bytes", l2.size_bytes, 768 * 1024, 1024, 1 * GIB, BY, "bytes", "L2 capacity, all slices together."),
    K_INT("l2.line_bytes", l2.line_bytes, 128, 16, 4096, P2 | BY, "bytes", "L2 line (tag) size."),
    K_INT("l2.sector_bytes", l2.sector_bytes, 32, 4, 4096, P2 | BY, "bytes", "L2 sector size: the unit of L2 fills and of lts__t_sectors."),
    K_INT("l2.assoc", l2.assoc, 8, 1, 64, 0, "ways", "L2 associativity."),
    K_INT("l2.slices", l2.slices, 6, 1, 256, 0, "slices", "L2 slices (one per memory partition); lines interleave across them."),
    K_INT("l2.hit_lat", l2.hit_lat, 240, 1, NOLIMIT, 0, "cycles", "L2 hit latency, excluding the interconnect."),
    K_INT("l2.mshrs", l2.mshrs, 32, 1, 4096, 0, "entries", "Outstanding misses per L2 slice."),
    K_INT("l2.mshr_merge", l2.mshr_merge, 4, 1, 1024, 0, "requests", "Requests to a line in flight that one L2 MSHR holds, the first included; one more stalls the slice's tag stage until the fill."),
    K_INT("l2.write_cycles", l2.write_cycles, 1, 1, 1024, 0, "cycles", "Cycles a store request (one line, any sectors) holds its slice's tag stage, before l2.write_sector_cycles."),
    K_INT("l2.write_sector_cycles", l2.write_sector_cycles, 0, 0, 1024, 0, "cycles", "Further cycles a store request holds the slice's tag stage for each sector it writes, whole or in part (0: a store costs l2.write_cycles alone)."),
    K_DBL("l2.atom_lane_cycles", l2.atom_lane_cycles, 1, 1, 64, "cycles",
          "Cycles the slice's atomic unit takes per operation on one address: an atomic or reduction request holds the tag stage for its most lanes on one address times this (rounded up), or for a store's cycles (l2.write_cycles + l2.write_sector_cycles per sector), whichever is longer."),
    K_ENUM("l2.write_policy", l2.write_policy, CACHE_WRITE_BACK, write_names, "What a store does to L2."),
    K_BOOL("l2.alloc_on_write", l2.alloc_on_write, 1, "Allocate a line in L2 on a store miss."),

    K_I64("cc.size_bytes", cc.size_bytes, 8 * 1024, 64, 1 * MIB, BY, "bytes", "Constant cache capacity per SM."),
    K_INT("cc.line_bytes", cc.line_bytes, 64, 4, 4096, P2 | BY, "bytes", "Constant cache line size."),
    K_INT("cc.assoc", cc.assoc, 2, 1, 64, 0, "ways", "Constant cache associativity."),
    K_INT("cc.hit_lat", cc.hit_lat, 22, 1, NOLIMIT, 0, "cycles", "Constant cache hit latency."),

    K_INT("icnt.latency", icnt.latency, 8, 0, NOLIMIT, 0, "cycles", "One-way SM <-> L2 slice latency with no contention."),
    K_INT("icnt.flit_bytes", icnt.flit_bytes, 32, 4, 1024, P2 | BY, "bytes", "Bytes a port moves per cycle."),
    K_INT("icnt.lookahead", icnt.lookahead, 1, 1, 64, 0, "packets", "Packets at the front of a port's queue it may choose from when the head's destination is busy (1: strict FIFO, head-of-line blocking)."),
    K_INT("icnt.queue_depth", icnt.queue_depth, 8, 1, 4096, 0, "flits", "Buffer depth per port."),

    K_INT("dram.channels", dram.channels, 6, 1, 64, 0, "channels", "Independent DRAM channels (memory partitions)."),
    K_INT("dram.bus_bits", dram.bus_bits, 64, 8, 1024, P2, "bits", "Data bus width per channel."),
    K_INT("dram.burst_length", dram.burst_length, 8, 1, 64, P2, "beats", "Data beats per column access."),
    K_INT("dram.banks", dram.banks, 16, 1, 64, P2, "banks", "Banks per channel."),
    K_INT("dram.bank_groups", dram.bank_groups, 4, 1, 16, P2, "groups", "Bank groups per channel (tCCDL applies within a group)."),
    K_INT("dram.row_bytes", dram.row_bytes, 4096, 64, 64 * KIB, P2 | BY, "bytes", "Row (page) size per bank across the channel."),
    K_INT("dram.interleave_bytes", dram.interleave_bytes, 256, 32, 1 * MIB, P2 | BY, "bytes", "Consecutive bytes mapped to one channel before moving to the next."),
    K_INT("dram.tCL", dram.tCL, 12, 1, 1000, 0, "DRAM cycles", "Read command to first data (CAS latency)."),
    K_INT("dram.tRCD", dram.tRCD, 12, 1, 1000, 0, "DRAM cycles", "Activate to read/write command."),
    K_INT("dram.tRP", dram.tRP, 12, 1, 1000, 0, "DRAM cycles", "Precharge to activate."),
    K_INT("dram.tRAS", dram.tRAS, 28, 1, 1000, 0, "DRAM cycles", "Activate to precharge."),
    K_INT("dram.tRC", dram.tRC, 40, 1, 1000, 0, "DRAM cycles", "Activate to activate, same bank."),
    K_INT("dram.tWL", dram.tWL, 4, 1, 1000, 0, "DRAM cycles", "Write command to first data (write latency)."),
    K_INT("dram.tWR", dram.tWR, 12, 1, 1000, 0, "DRAM cycles", "End of write data to precharge (write recovery)."),
    K_INT("dram.tCCD", dram.tCCD, 2, 1, 1000, 0, "DRAM cycles", "Column command to column command, different bank groups."),
    K_INT("dram.tCCDL", dram.tCCDL, 3, 1, 1000, 0, "DRAM cycles", "Column command to column command, same bank group."),
    K_INT("dram.tRRD", dram.tRRD, 6, 1, 1000, 0, "DRAM cycles", "Activate to activate, different banks."),
    K_INT("dram.tWTR", dram.tWTR, 5, 1, 1000, 0, "DRAM cycles", "End of write data to read command."),
    K_INT("dram.ctrl_lat", dram.ctrl_lat, 0, 0, NOLIMIT, 0, "cycles", "Memory controller and PHY: fixed delay each DRAM read's data pays on its way back to the L2, on top of the bank timing (pipelined: latency only)."),
    K_INT("dram.queue_depth", dram.queue_depth, 16, 1, 4096, 0, "requests", "Scheduler queue entries per channel."),
    K_ENUM("dram.sched", dram.sched, DRAM_FR_FCFS, dram_sched_names, "Request scheduling: row hits first (fr_fcfs) or strict arrival order (fcfs)."),
    K_BOOL("dram.addr_xor", dram.addr_xor, 0, "XOR low row bits into the bank index to spread strided accesses."),
    K_BOOL("dram.split_cmd_bus", dram.split_cmd_bus, 0, "Separate row (ACT, PRE) and column (RD, WR) command buses, as HBM has: one of each per DRAM clock instead of one command."),
    K_BOOL("dram.partition_hash", dram.partition_hash, 0, "Hash higher address bits into the L2 slice and DRAM channel of each interleave chunk (rotate each aligned group of l2.slices chunks by a hash of the group), so that power-of-two strides spread over the partitions."),
};

enum { NKEYS = (int)(sizeof keys / sizeof keys[0]) };
_Static_assert((int)NKEYS <= (int)CONFIG_MAX_KEYS, "raise CONFIG_MAX_KEYS");

/* Sections in file order; every key's prefix is one of these (a test
 * checks).  name is the first member so suggest_best can walk the array. */
static const struct Section {
    const char *name, *title;
} sections[] = {
    { "gpu", "Whole GPU" },
    { "sm", "Streaming multiprocessor (per SM)" },
    { "core", "What a warp issues (the back end, isa/backend.h)" },
    { "sched", "Warp scheduler" },
    { "unit", "Execution units (per SM)" },
    { "lat", "Fixed latencies (SM cycles)" },
    { "mem", "Memory timing model" },
    { "smem", "Shared memory" },
    { "l1", "L1 data cache (per SM)" },
    { "l2", "L2 cache (shared by all SMs)" },
    { "cc", "Constant cache (per SM)" },
    { "icnt", "Interconnect (SMs to L2 slices)" },
    { "dram", "DRAM (GDDR5)" },
};
enum { NSECTIONS = (int)(sizeof sections / sizeof sections[0]) };

/* ------------------------------------------------------------------ */
/* Small helpers                                                       */
/* ------------------------------------------------------------------ */

enum { VALUE_MAX = 255, NAME_MAX_CHARS = 95, SHOW_MAX = 40, SRC_COPY_CHARS = 160 };

/* Where a value came from, for error messages and the origin record. */
typedef struct Loc {
    const char *file;
    int line, col;
    const char *src;
    int source, load;
} Loc;

static void *field(Config *c, const ConfigKey *k) { return (char *)c + k->offset; }
static const void *cfield(const Config *c, const ConfigKey *k) { return (const char *)c + k->offset; }

static bool is_pow2(int64_t v) { return v > 0 && (v & (v - 1)) == 0; }
static bool is_ws(char ch) { return ch == ' ' || ch == '\t'; }
static bool is_comment(char ch) { return ch == ';' || ch == '#'; }
static bool is_ident(char ch)
{
    return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
           (ch >= '0' && ch <= '9') || ch == '_';
}

static size_t skip_ws(const char *s, size_t n, size_t i)
{
    while (i < n && is_ws(s[i])) i++;
    return i;
}

static char lower(char ch) { return ch >= 'A' && ch <= 'Z' ? (char)(ch - 'A' + 'a') : ch; }

static bool same_nocase(const char *a, const char *b)
{
    while (*a && lower(*a) == lower(*b)) a++, b++;
    return *a == '\0' && *b == '\0';
}

/* Copy at most n bytes of s into buf as a printable, bounded string, so
 * error messages never carry control bytes or kilobytes of garbage. */
static const char *show(const char *s, size_t n, char *buf, size_t bufn)
{
    size_t o = 0;
    for (size_t i = 0; i < n && o + 4 < bufn; i++) {
        if (o >= SHOW_MAX) { memcpy(buf + o, "...", 3); o += 3; break; }
        unsigned char ch = (unsigned char)s[i];
        buf[o++] = ch >= 0x20 && ch < 0x7f ? (char)ch : '?';
    }
    buf[o] = '\0';
    return buf;
}

static int count_names(const char *const *names)
{
    int n = 0;
    while (names[n]) n++;
    return n;
}

static int64_t get_num(const Config *c, const ConfigKey *k)
{
    const void *p = cfield(c, k);
    switch (k->type) {
    case CFG_INT:
    case CFG_ENUM: return *(const int *)p;
    case CFG_INT64: return *(const int64_t *)p;
    case CFG_BOOL: return *(const bool *)p;
    default: return 0;
    }
}

static void put_num(Config *c, const ConfigKey *k, int64_t v)
{
    void *p = field(c, k);
    switch (k->type) {
    case CFG_INT:
    case CFG_ENUM: *(int *)p = (int)v; break;
    case CFG_INT64: *(int64_t *)p = v; break;
    case CFG_BOOL: *(bool *)p = v != 0; break;
    default: break;
    }
}

static void put_string(Config *c, const ConfigKey *k, const char *s)
{
    /* Clear the whole buffer so equal configs compare equal byte for byte. */
    char *p = field(c, k);
    memset(p, 0, k->size);
    memcpy(p, s, strlen(s));
}

static void put_double(Config *c, const ConfigKey *k, double v)
{
    *(double *)field(c, k) = v;
}

/* 16384 -> "16KiB", 786432 -> "768KiB", 100 -> "100". */
static const char *fmt_bytes(int64_t v, char *buf, size_t n)
{
    static const struct { int64_t mult; const char *suffix; } units[] = {
        { 1024LL * 1024 * 1024, "GiB" }, { 1024LL * 1024, "MiB" }, { 1024, "KiB" },
    };
    for (size_t i = 0; i < sizeof units / sizeof units[0]; i++)
        if (v != 0 && v % units[i].mult == 0) {
            snprintf(buf, n, "%lld%s", (long long)(v / units[i].mult), units[i].suffix);
            return buf;
        }
    snprintf(buf, n, "%lld", (long long)v);
    return buf;
}

/* The shortest text that reads back as exactly v, so dumps round-trip. */
static const char *fmt_double(double v, char *buf, size_t n)
{
    if (v == (double)(int64_t)v && v > -1e15 && v < 1e15) {   /* 100000, not 1e+05 */
        snprintf(buf, n, "%.0f", v);
        return buf;
    }
    for (int prec = 1; prec <= 17; prec++) {
        snprintf(buf, n, "%.*g", prec, v);
        if (strtod(buf, NULL) == v) break;
    }
    return buf;
}

static const char *fmt_limit(const ConfigKey *k, double v, char *buf, size_t n)
{
    if (k->type == CFG_DOUBLE) return fmt_double(v, buf, n);
    if (k->flags & CFG_BYTES) return fmt_bytes((int64_t)v, buf, n);
    snprintf(buf, n, "%lld", (long long)v);
    return buf;
}

/* ------------------------------------------------------------------ */
/* Parsing and checking one value: the single path for files and --set */
/* ------------------------------------------------------------------ */

enum { PARSE_OK, PARSE_BAD, PARSE_RANGE };

static unsigned digit_value(char ch)
{
    if (ch >= '0' && ch <= '9') return (unsigned)(ch - '0');
    if (ch >= 'a' && ch <= 'f') return (unsigned)(ch - 'a' + 10);
    if (ch >= 'A' && ch <= 'F') return (unsigned)(ch - 'A' + 10);
    return 99;
}

/* Byte suffixes are all binary: GPU sizes are powers of 1024, and a
 * student writing "16KB" means 16384. */
static int byte_multiplier(const char *s, uint64_t *mult)
{
    static const struct { const char *suffix; uint64_t mult; } sfx[] = {
        { "", 1 }, { "B", 1 },
        { "K", 1ULL << 10 }, { "KB", 1ULL << 10 }, { "KiB", 1ULL << 10 },
        { "M", 1ULL << 20 }, { "MB", 1ULL << 20 }, { "MiB", 1ULL << 20 },
        { "G", 1ULL << 30 }, { "GB", 1ULL << 30 }, { "GiB", 1ULL << 30 },
    };
    for (size_t i = 0; i < sizeof sfx / sizeof sfx[0]; i++)
        if (same_nocase(s, sfx[i].suffix)) { *mult = sfx[i].mult; return PARSE_OK; }
    return PARSE_BAD;
}

/* Decimal or 0x hex, optional sign, optional byte suffix.  Not strtoll:
 * it would read "010" as octal and accept leading spaces. */
static int parse_int(const char *s, bool bytes, int64_t *out)
{
    const uint64_t limit = (uint64_t)INT64_MAX;
    bool neg = false;
    if (*s == '+' || *s == '-') neg = *s++ == '-';
    unsigned base = 10;
    if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) { base = 16; s += 2; }
    uint64_t v = 0;
    int ndigits = 0;
    for (unsigned d; (d = digit_value(*s)) < base; s++, ndigits++) {
        if (v > (limit - d) / base) return PARSE_RANGE;
        v = v * base + d;
    }
    if (ndigits == 0) return PARSE_BAD;
    if (bytes) {
        while (is_ws(*s)) s++;
        uint64_t mult;
        if (byte_multiplier(s, &mult) != PARSE_OK) return PARSE_BAD;
        if (v > limit / mult) return PARSE_RANGE;
        v *= mult;
    } else if (*s) {
        return PARSE_BAD;
    }
    *out = neg ? -(int64_t)v : (int64_t)v;
    return PARSE_OK;
}

static int parse_bool(const char *s, bool *out)
{
    static const struct { const char *word; bool v; } words[] = {
        { "true", true }, { "false", false }, { "yes", true }, { "no", false },
        { "on", true }, { "off", false }, { "1", true }, { "0", false },
    };
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
        if (same_nocase(s, words[i].word)) { *out = words[i].v; return PARSE_OK; }
    return PARSE_BAD;
}

static bool num_in_range(const ConfigKey *k, double v)
{
    /* Written so NaN fails too. */
    if (!(v >= k->min && v <= k->max)) return false;
    return !(k->flags & CFG_POW2) || is_pow2((int64_t)v);
}

static void err_at(DiagList *dl, const Loc *at, const char *fmt, ...) DIAG_PRINTF(3, 4);
static void err_at(DiagList *dl, const Loc *at, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    diag_vadd(dl, at->file, at->line, at->col, at->src, fmt, ap);
    va_end(ap);
}

static void range_error(DiagList *dl, const Loc *at, const ConfigKey *k, const char *value)
{
    char lo[32], hi[32];
    fmt_limit(k, k->min, lo, sizeof lo);
    fmt_limit(k, k->max, hi, sizeof hi);
    if (k->flags & CFG_POW2)
        err_at(dl, at, "%s: %s is not a power of two in [%s,%s]", k->name, value, lo, hi);
    else
        err_at(dl, at, "%s: %s is out of range [%s,%s]", k->name, value, lo, hi);
}

static int set_int(Config *c, const ConfigKey *k, const char *val, const Loc *at, DiagList *dl)
{
    char shown[64], vbuf[48];
    bool bytes = k->flags & CFG_BYTES;
    int64_t v = 0;
    int r = parse_int(val, bytes, &v);
    show(val, strlen(val), shown, sizeof shown);
    if (r == PARSE_BAD) {
        err_at(dl, at, "%s: '%s' is not %s", k->name, shown,
               bytes ? "a byte size (e.g. 16384, 16K or 16KiB)" : "an integer");
        return -1;
    }
    if (r == PARSE_RANGE) {
        err_at(dl, at, "%s: '%s' is too large", k->name, shown);
        return -1;
    }
    if (!num_in_range(k, (double)v)) {
        range_error(dl, at, k, bytes ? fmt_bytes(v, vbuf, sizeof vbuf) : shown);
        return -1;
    }
    put_num(c, k, v);
    return 0;
}

static int set_bool(Config *c, const ConfigKey *k, const char *val, const Loc *at, DiagList *dl)
{
    bool v;
    if (parse_bool(val, &v) != PARSE_OK) {
        char shown[64];
        err_at(dl, at, "%s: '%s' is not a boolean (use true/false, yes/no, on/off or 1/0)",
               k->name, show(val, strlen(val), shown, sizeof shown));
        return -1;
    }
    put_num(c, k, v);
    return 0;
}

static int set_double(Config *c, const ConfigKey *k, const char *val, const Loc *at, DiagList *dl)
{
    char shown[64], vbuf[32];
    char *end;
    double v = strtod(val, &end);
    show(val, strlen(val), shown, sizeof shown);
    if (end == val || *end || is_ws(val[0])) {
        err_at(dl, at, "%s: '%s' is not a number", k->name, shown);
        return -1;
    }
    if (!num_in_range(k, v)) {
        range_error(dl, at, k, v == v ? fmt_double(v, vbuf, sizeof vbuf) : shown);
        return -1;
    }
    put_double(c, k, v);
    return 0;
}

static int set_enum(Config *c, const ConfigKey *k, const char *val, const Loc *at, DiagList *dl)
{
    int n = count_names(k->enum_names);
    for (int i = 0; i < n; i++)
        if (same_nocase(val, k->enum_names[i])) { put_num(c, k, i); return 0; }

    char list[256] = "", shown[64];
    for (int i = 0; i < n; i++) {
        strncat(list, i ? ", " : "", sizeof list - strlen(list) - 1);
        strncat(list, k->enum_names[i], sizeof list - strlen(list) - 1);
    }
    const char *best = suggest_best(val, k->enum_names, (size_t)n, sizeof k->enum_names[0]);
    show(val, strlen(val), shown, sizeof shown);
    if (best)
        err_at(dl, at, "%s: '%s' is not one of %s (did you mean '%s'?)", k->name, shown, list, best);
    else
        err_at(dl, at, "%s: '%s' is not one of %s", k->name, shown, list);
    return -1;
}

/* Strings are printable ASCII without '"' so a dump can always quote them. */
static int set_string(Config *c, const ConfigKey *k, const char *val, const Loc *at, DiagList *dl)
{
    size_t n = strlen(val);
    if (n >= k->size) {
        err_at(dl, at, "%s: string longer than %zu characters", k->name, k->size - 1);
        return -1;
    }
    for (size_t i = 0; i < n; i++) {
        unsigned char ch = (unsigned char)val[i];
        if (ch < 0x20 || ch >= 0x7f || ch == '"') {
            err_at(dl, at, "%s: character 0x%02x is not allowed in a string", k->name, ch);
            return -1;
        }
    }
    put_string(c, k, val);
    return 0;
}

static void record_origin(Config *c, int ki, const Loc *at)
{
    ConfigOrigin *o = &c->origin.key[ki];
    o->source = at->source;
    o->load = at->load;
    o->line = at->line;
    o->col = at->col;
    o->seq = ++c->origin.seq;
}

/* Limits that follow from others unless the user sets them: a new
 * sm.warp_size or sm.max_threads re-derives sm.max_warps = max_threads /
 * warp_size (rounded up) when sm.max_warps came from an earlier layer (the
 * defaults, or a file before this one), so `--set sm.warp_size=8` alone
 * keeps the SM's thread limit.  sm.max_warps set in the same layer (the same
 * file, or --set) is the user's and stays; the derived value keeps the old
 * origin, so a later layer derives again. */
static void derive_limits(Config *c, int ki, const Loc *at)
{
    if (strcmp(keys[ki].name, "sm.warp_size") && strcmp(keys[ki].name, "sm.max_threads")) return;
    const ConfigOrigin *o = &c->origin.key[config_key_find("sm.max_warps")];
    if (o->source == at->source && o->load == at->load) return;
    if (c->sm.warp_size > 0) c->sm.max_warps = (c->sm.max_threads + c->sm.warp_size - 1) / c->sm.warp_size;
}

/* Parse text[0..n) as the value of key ki, check it, store it. */
static int set_value(Config *c, int ki, const char *text, size_t n, const Loc *at, DiagList *dl)
{
    const ConfigKey *k = &keys[ki];
    char val[VALUE_MAX + 1];
    if (n > VALUE_MAX) {
        err_at(dl, at, "%s: value longer than %d characters", k->name, VALUE_MAX);
        return -1;
    }
    if (memchr(text, '\0', n)) {
        err_at(dl, at, "%s: value contains a NUL byte", k->name);
        return -1;
    }
    memcpy(val, text, n);
    val[n] = '\0';

    int rc = -1;
    switch (k->type) {
    case CFG_INT:
    case CFG_INT64: rc = set_int(c, k, val, at, dl); break;
    case CFG_BOOL: rc = set_bool(c, k, val, at, dl); break;
    case CFG_DOUBLE: rc = set_double(c, k, val, at, dl); break;
    case CFG_ENUM: rc = set_enum(c, k, val, at, dl); break;
    case CFG_STRING: rc = set_string(c, k, val, at, dl); break;
    }
    if (rc == 0) record_origin(c, ki, at);
    if (rc == 0) derive_limits(c, ki, at);
    return rc;
}

/* "l1.asoc: unknown key (did you mean 'l1.assoc'?)".  If spelling does
 * not help, a key with the same leaf in another section probably will
 * ("[l1] banks" -> smem.banks). */
const char *config_key_suggest(const char *name)
{
    const char *best = suggest_best(name, keys, NKEYS, sizeof keys[0]);
    const char *leaf = strchr(name, '.');
    for (int i = 0; !best && leaf && i < NKEYS; i++)
        if (strcmp(strchr(keys[i].name, '.'), leaf) == 0) best = keys[i].name;
    /* a key cut short before its unit: l1.size -> l1.size_bytes */
    size_t n = strlen(name);
    for (int i = 0; !best && n && i < NKEYS; i++)
        if (!strncmp(keys[i].name, name, n) && keys[i].name[n] == '_') best = keys[i].name;
    return best;
}

static void unknown_key(DiagList *dl, const Loc *at, const char *name)
{
    /* Past DIAG_MAX_ERRORS the message is only counted: skip the search. */
    if (dl->n >= DIAG_MAX_ERRORS) { err_at(dl, at, "unknown key"); return; }
    const char *best = config_key_suggest(name);
    char shown[64];
    show(name, strlen(name), shown, sizeof shown);
    if (best)
        err_at(dl, at, "%s: unknown key (did you mean '%s'?)", shown, best);
    else
        err_at(dl, at, "%s: unknown key", shown);
}

/* ------------------------------------------------------------------ */
/* Defaults, origins, lookup                                           */
/* ------------------------------------------------------------------ */

/* Remember a file name for error positions.  The same name reuses its
 * slot; when all slots are taken the last one is renamed (only error
 * messages about older files would then name the newer file). */
static int add_source(ConfigOrigins *o, const char *name)
{
    char buf[CONFIG_SOURCE_CHARS];
    size_t n = strlen(name);
    if (n >= sizeof buf) n = sizeof buf - 1;
    memcpy(buf, name, n);
    buf[n] = '\0';
    for (int i = 0; i < o->n_sources; i++)
        if (strcmp(o->source[i], buf) == 0) return i;
    int i = o->n_sources < CONFIG_MAX_SOURCES ? o->n_sources++ : CONFIG_MAX_SOURCES - 1;
    memcpy(o->source[i], buf, n + 1);
    return i;
}

void config_defaults(Config *c)
{
    /* Zero everything first: padding included, so configs built the same
     * way compare equal with memcmp too. */
    memset(c, 0, sizeof *c);
    for (int i = 0; i < NKEYS; i++) {
        const ConfigKey *k = &keys[i];
        switch (k->type) {
        case CFG_DOUBLE: put_double(c, k, k->def_dbl); break;
        case CFG_STRING: put_string(c, k, k->def_str); break;
        default: put_num(c, k, k->def_int); break;
        }
    }
    add_source(&c->origin, "(default)");
}

int config_key_count(void) { return NKEYS; }

const ConfigKey *config_key_at(int i) { return i >= 0 && i < NKEYS ? &keys[i] : NULL; }

int config_key_find(const char *name)
{
    for (int i = 0; i < NKEYS; i++)
        if (strcmp(keys[i].name, name) == 0) return i;
    return -1;
}

static int section_find(const char *name)
{
    for (int i = 0; i < NSECTIONS; i++)
        if (strcmp(sections[i].name, name) == 0) return i;
    return -1;
}

static bool key_in_section(const ConfigKey *k, const char *sec)
{
    size_t n = strlen(sec);
    return strncmp(k->name, sec, n) == 0 && k->name[n] == '.';
}

/* ------------------------------------------------------------------ */
/* The .ini reader                                                     */
/* ------------------------------------------------------------------ */

typedef struct Parser {
    Config *c;
    DiagList *dl;
    Loc at;                /* file, source, load fixed; line/col/src per use */
    int section;           /* index into sections, or -1 */
    bool section_bad;      /* header was reported: skip its keys quietly */
    /* diag_add copies the source line up to '\n' or NUL, but the text need
     * not end in either: hand it a bounded, terminated copy instead. */
    char src[SRC_COPY_CHARS + 1];
} Parser;

static void perr(Parser *ps, size_t col0, const char *fmt, ...) DIAG_PRINTF(3, 4);
static void perr(Parser *ps, size_t col0, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    diag_vadd(ps->dl, ps->at.file, ps->at.line, (int)col0 + 1, ps->at.src, fmt, ap);
    va_end(ap);
}

/* "[name]" possibly with blanks and a trailing comment. */
static void parse_section(Parser *ps, const char *s, size_t n, size_t i)
{
    char name[NAME_MAX_CHARS + 1], shown[64];
    ps->section = -1;
    ps->section_bad = true;
    const char *close = memchr(s + i, ']', n - i);
    if (!close) { perr(ps, i, "missing ']' in section header"); return; }
    size_t end = (size_t)(close - s);
    size_t a = skip_ws(s, end, i + 1), b = end;
    while (b > a && is_ws(s[b - 1])) b--;
    size_t j = a;
    while (j < b && is_ident(s[j])) j++;
    if (a == b || j != b || b - a > NAME_MAX_CHARS) {
        perr(ps, a, "'%s' is not a section name", show(s + a, b - a, shown, sizeof shown));
        return;
    }
    size_t rest = skip_ws(s, n, end + 1);
    if (rest < n && !is_comment(s[rest])) {
        perr(ps, rest, "unexpected text after section header");
        return;
    }
    memcpy(name, s + a, b - a);
    name[b - a] = '\0';
    ps->section = section_find(name);
    if (ps->section >= 0) { ps->section_bad = false; return; }
    const char *best = suggest_best(name, sections, NSECTIONS, sizeof sections[0]);
    if (best)
        perr(ps, a, "[%s]: unknown section (did you mean '[%s]'?)", name, best);
    else
        perr(ps, a, "[%s]: unknown section", name);
}

/* Find the value that starts at i (after '='): text [*v0, *v1), without
 * quotes.  Returns false (and reports) if there is none. */
static bool find_value(Parser *ps, const char *s, size_t n, size_t i, const char *key,
                       size_t *v0, size_t *v1)
{
    if (i < n && (s[i] == '"' || s[i] == '\'')) {
        const char *close = memchr(s + i + 1, s[i], n - i - 1);
        if (!close) { perr(ps, i, "%s: missing closing %c", key, s[i]); return false; }
        *v0 = i + 1;
        *v1 = (size_t)(close - s);
        size_t rest = skip_ws(s, n, *v1 + 1);
        if (rest < n && !is_comment(s[rest])) {
            perr(ps, rest, "%s: unexpected text after the quoted value", key);
            return false;
        }
        return true;
    }
    size_t j = i;
    while (j < n && !is_comment(s[j])) j++;
    while (j > i && is_ws(s[j - 1])) j--;
    if (j == i) { perr(ps, i, "%s: missing value", key); return false; }
    *v0 = i;
    *v1 = j;
    return true;
}

/* "key = value".  A key may also be written with its full name
 * ("l1.assoc = 4"), which needs no section header. */
static void parse_assignment(Parser *ps, const char *s, size_t n, size_t i)
{
    char name[2 * NAME_MAX_CHARS + 2], shown[64];
    size_t k0 = i;
    while (i < n && (is_ident(s[i]) || s[i] == '.')) i++;
    size_t klen = i - k0;
    if (klen == 0) {
        perr(ps, k0, "malformed line: expected 'key = value' or '[section]'");
        return;
    }
    if (klen > NAME_MAX_CHARS) {
        perr(ps, k0, "key name '%s' is too long", show(s + k0, klen, shown, sizeof shown));
        return;
    }
    bool dotted = memchr(s + k0, '.', klen) != NULL;
    if (dotted || ps->section < 0)
        snprintf(name, sizeof name, "%.*s", (int)klen, s + k0);
    else
        snprintf(name, sizeof name, "%s.%.*s", sections[ps->section].name, (int)klen, s + k0);

    size_t eq = skip_ws(s, n, i);
    if (eq >= n || s[eq] != '=') { perr(ps, eq, "%s: missing '=' after the key", name); return; }
    size_t v0, v1;
    if (!find_value(ps, s, n, skip_ws(s, n, eq + 1), name, &v0, &v1)) return;

    if (!dotted && ps->section_bad) return;
    if (!dotted && ps->section < 0) {
        perr(ps, k0, "%s: key outside any section (put it under a [section] header)", name);
        return;
    }
    int ki = config_key_find(name);
    ps->at.col = (int)k0 + 1;
    if (ki < 0) { unknown_key(ps->dl, &ps->at, name); return; }
    const ConfigOrigin *o = &ps->c->origin.key[ki];
    if (o->load == ps->at.load) {
        perr(ps, k0, "%s: set twice (first at line %d)", name, o->line);
        return;
    }
    ps->at.col = (int)skip_ws(s, n, eq + 1) + 1;
    set_value(ps->c, ki, s + v0, v1 - v0, &ps->at, ps->dl);
}

static void parse_line(Parser *ps, const char *s, size_t n)
{
    if (n && s[n - 1] == '\r') n--;
    for (size_t i = 0; i < n; i++) {
        unsigned char ch = (unsigned char)s[i];
        if ((ch < 0x20 && ch != '\t') || ch == 0x7f) {
            perr(ps, i, "unexpected control character 0x%02x", ch);
            return;
        }
    }
    size_t i = skip_ws(s, n, 0);
    if (i == n || is_comment(s[i])) return;
    if (s[i] == '[')
        parse_section(ps, s, n, i);
    else
        parse_assignment(ps, s, n, i);
}

int config_load_string(Config *c, const char *filename, const char *text, size_t len,
                       DiagList *dl)
{
    int before = diag_count(dl);
    Parser ps = { .c = c, .dl = dl, .section = -1 };
    ps.at.file = filename ? filename : "(string)";
    ps.at.source = add_source(&c->origin, ps.at.file);
    ps.at.load = ++c->origin.n_loads;

    const char *p = text, *end = text + len;
    if (len >= 3 && memcmp(p, "\xEF\xBB\xBF", 3) == 0) p += 3;   /* UTF-8 BOM */
    while (p < end && ps.at.line < INT_MAX) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
        size_t keep = n < SRC_COPY_CHARS ? n : SRC_COPY_CHARS;
        memcpy(ps.src, p, keep);
        ps.src[keep] = '\0';
        ps.at.line++;
        ps.at.src = ps.src;
        parse_line(&ps, p, n);
        p = nl ? nl + 1 : end;
    }
    return diag_count(dl) > before ? -1 : 0;
}

int config_load_file(Config *c, const char *path, DiagList *dl)
{
    enum { FILE_MAX = 16 << 20 };   /* a config is a few KiB; refuse a disk image */
    FILE *f = fopen(path, "rb");
    if (!f) {
        diag_add(dl, path, 0, 0, NULL, "cannot open: %s", strerror(errno));
        return -1;
    }
    size_t cap = 4096, len = 0;
    char *buf = malloc(cap);
    if (!buf) abort();
    for (size_t got; (got = fread(buf + len, 1, cap - len, f)) > 0;) {
        len += got;
        if (len == cap) {
            if (cap >= FILE_MAX) break;
            cap *= 2;
            buf = realloc(buf, cap);
            if (!buf) abort();
        }
    }
    bool failed = ferror(f) != 0;
    int err = errno;                   /* a directory: EISDIR */
    fclose(f);
    int rc;
    if (failed) {
        diag_add(dl, path, 0, 0, NULL, "cannot read: %s", strerror(err));
        rc = -1;
    } else if (len >= FILE_MAX) {
        diag_add(dl, path, 0, 0, NULL, "file is larger than %d MiB; not a config", FILE_MAX >> 20);
        rc = -1;
    } else {
        rc = config_load_string(c, path, buf, len, dl);
    }
    free(buf);
    return rc;
}

/* ------------------------------------------------------------------ */
/* --set KEY=VALUE                                                     */
/* ------------------------------------------------------------------ */

int config_set(Config *c, const char *assignment, DiagList *dl)
{
    char name[NAME_MAX_CHARS + 1], shown[64];
    Loc at = { .file = "--set", .src = assignment, .load = 0 };
    at.source = add_source(&c->origin, "--set");
    size_t n = strlen(assignment);
    size_t k0 = skip_ws(assignment, n, 0);
    const char *eq = strchr(assignment, '=');
    size_t k1 = eq ? (size_t)(eq - assignment) : n;
    while (k1 > k0 && is_ws(assignment[k1 - 1])) k1--;
    at.col = (int)k0 + 1;
    show(assignment + k0, k1 - k0, shown, sizeof shown);
    if (!eq) {
        err_at(dl, &at, "%s: missing '=' (write --set KEY=VALUE)", k1 > k0 ? shown : "--set");
        return -1;
    }
    if (k1 == k0) { err_at(dl, &at, "missing key before '='"); return -1; }
    int ki = -1;
    if (k1 - k0 <= NAME_MAX_CHARS) {
        memcpy(name, assignment + k0, k1 - k0);
        name[k1 - k0] = '\0';
        ki = config_key_find(name);
    }
    if (ki < 0) {
        unknown_key(dl, &at, k1 - k0 <= NAME_MAX_CHARS ? name : shown);
        return -1;
    }
    /* The shell usually strips quotes; strip them here too if it did not. */
    size_t v0 = skip_ws(assignment, n, (size_t)(eq - assignment) + 1), v1 = n;
    while (v1 > v0 && is_ws(assignment[v1 - 1])) v1--;
    at.col = (int)v0 + 1;
    if (v1 - v0 >= 2 && (assignment[v0] == '"' || assignment[v0] == '\'') &&
        assignment[v1 - 1] == assignment[v0]) {
        v0++;
        v1--;
    }
    return set_value(c, ki, assignment + v0, v1 - v0, &at, dl);
}

/* ------------------------------------------------------------------ */
/* Cross-field rules                                                   */
/* ------------------------------------------------------------------ */

/* Each rule lists the keys it reads; a violation is reported at the one
 * set last, because that is the line the user most likely just changed. */
typedef struct Rule {
    const char *text;                  /* for docs/config.md */
    const char *keys[6];
    bool (*ok)(const Config *c, char *why, size_t n);
} Rule;

static bool threads_whole_warps(const Config *c, char *why, size_t n)
{
    if (c->sm.max_threads % c->sm.warp_size == 0) return true;
    snprintf(why, n, "sm.max_threads (%d) is not a multiple of sm.warp_size (%d)",
             c->sm.max_threads, c->sm.warp_size);
    return false;
}

static bool warps_hold_threads(const Config *c, char *why, size_t n)
{
    if ((int64_t)c->sm.max_warps * c->sm.warp_size >= c->sm.max_threads) return true;
    snprintf(why, n, "sm.max_warps (%d) x sm.warp_size (%d) is less than sm.max_threads (%d)",
             c->sm.max_warps, c->sm.warp_size, c->sm.max_threads);
    return false;
}

static bool lanes_match_units(const Config *c, char *why, size_t n)
{
    if (c->sm.lanes == c->unit.sp_groups * c->unit.sp_width) return true;
    snprintf(why, n, "sm.lanes (%d) is not unit.sp_groups (%d) x unit.sp_width (%d)",
             c->sm.lanes, c->unit.sp_groups, c->unit.sp_width);
    return false;
}

static bool regs_in_units(const Config *c, char *why, size_t n)
{
    if (c->sm.registers % c->sm.reg_alloc_unit == 0) return true;
    snprintf(why, n, "sm.registers (%d) is not a multiple of sm.reg_alloc_unit (%d)",
             c->sm.registers, c->sm.reg_alloc_unit);
    return false;
}

static bool one_warp_fits(const Config *c, char *why, size_t n)
{
    int64_t need = (int64_t)c->sm.warp_size * c->sm.max_regs_per_thread;
    if (need <= c->sm.registers) return true;
    snprintf(why, n, "sm.registers (%d) cannot hold one warp at sm.max_regs_per_thread (%d x %d)",
             c->sm.registers, c->sm.warp_size, c->sm.max_regs_per_thread);
    return false;
}

static bool shared_in_units(const Config *c, char *why, size_t n)
{
    if (c->sm.shared_bytes % c->sm.shared_alloc_unit == 0) return true;
    snprintf(why, n, "sm.shared_bytes (%lld) is not a multiple of sm.shared_alloc_unit (%d)",
             (long long)c->sm.shared_bytes, c->sm.shared_alloc_unit);
    return false;
}

static bool fetch_fits_ibuffer(const Config *c, char *why, size_t n)
{
    if (c->sm.fetch_width <= c->sm.ibuffer_depth) return true;
    snprintf(why, n, "sm.fetch_width (%d) is larger than sm.ibuffer_depth (%d)",
             c->sm.fetch_width, c->sm.ibuffer_depth);
    return false;
}

static bool unit_groups_fit(const Config *c, char *why, size_t n)
{
    if (c->unit.dp_width % c->unit.dp_groups == 0 && c->unit.sfu_width % c->unit.sfu_groups == 0 &&
        c->unit.int_width % c->unit.sp_groups == 0)
        return true;
    snprintf(why, n, "unit.dp_width (%d), unit.sfu_width (%d) and unit.int_width (%d) must divide into unit.dp_groups (%d), "
             "unit.sfu_groups (%d) and unit.sp_groups (%d) groups", c->unit.dp_width, c->unit.sfu_width, c->unit.int_width,
             c->unit.dp_groups, c->unit.sfu_groups, c->unit.sp_groups);
    return false;
}

static bool lsu_groups_fit(const Config *c, char *why, size_t n)
{
    if (c->unit.lsu_groups == 1 ||
        (c->unit.lsu_groups == c->sm.schedulers && c->unit.lsu_width % c->unit.lsu_groups == 0))
        return true;
    snprintf(why, n, "unit.lsu_groups (%d) must be 1 or sm.schedulers (%d), and divide unit.lsu_width (%d)",
             c->unit.lsu_groups, c->sm.schedulers, c->unit.lsu_width);
    return false;
}

static bool fetch_units_fit(const Config *c, char *why, size_t n)
{
    if (c->sm.fetch_units <= c->sm.schedulers && c->sm.schedulers % c->sm.fetch_units == 0) return true;
    snprintf(why, n, "sm.fetch_units (%d) does not divide sm.schedulers (%d)", c->sm.fetch_units, c->sm.schedulers);
    return false;
}

static bool active_pool_fits(const Config *c, char *why, size_t n)
{
    int per_sched = c->sm.max_warps / c->sm.schedulers;
    if (c->sched.two_level_active <= per_sched) return true;
    snprintf(why, n, "sched.two_level_active (%d) exceeds the %d warps of one scheduler "
             "(sm.max_warps / sm.schedulers)", c->sched.two_level_active, per_sched);
    return false;
}

/* size = slices x sets x assoc x line with a power-of-two set count, so the
 * set index is a plain bit field of the address. */
static bool cache_geometry(const char *cache, int64_t size, int assoc, int line, int sector,
                           int slices, char *why, size_t n)
{
    if (sector > line) {
        snprintf(why, n, "%s.line_bytes (%d) is not a multiple of %s.sector_bytes (%d)",
                 cache, line, cache, sector);
        return false;
    }
    int64_t stripe = (int64_t)(slices ? slices : 1) * assoc * line;
    if (size % stripe == 0 && is_pow2(size / stripe)) return true;
    char sliced[48] = "";
    if (slices) snprintf(sliced, sizeof sliced, "%s.slices (%d) x ", cache, slices);
    snprintf(why, n, "%s.size_bytes (%lld) is not %s%s.assoc (%d) x %s.line_bytes (%d) "
             "x a power-of-two number of sets", cache, (long long)size, sliced,
             cache, assoc, cache, line);
    return false;
}

int config_carveouts(const Config *c, int *kib, int max)
{
    int n = 0;
    if (!strcmp(c->smem.carveouts, "none")) return 0;
    for (const char *p = c->smem.carveouts; *p && n < max;) {
        char *end;
        long v = strtol(p, &end, 10);
        if (end == p || v < 0 || v > 1 << 20) return -1;
        kib[n++] = (int)v;
        while (*end == ' ') end++;
        if (*end == ',') end++;
        else if (*end) return -1;
        p = end;
        while (*p == ' ') p++;
    }
    return n;
}

int64_t config_l1_bytes_for(const Config *c, int64_t shared_needed)
{
    int kib[32];
    int n = c->l1.unified_bytes > 0 ? config_carveouts(c, kib, 32) : 0;
    if (n <= 0) return c->l1.size_bytes;
    int64_t carve = (int64_t)kib[n - 1] * 1024;
    for (int i = 0; i < n; i++)
        if ((int64_t)kib[i] * 1024 >= shared_needed) { carve = (int64_t)kib[i] * 1024; break; }
    return c->l1.unified_bytes - carve;
}

/* The carve-outs: ascending KiB within the unified array, the largest
 * being sm.shared_bytes with l1.size_bytes left over. */
static bool carveouts_fit(const Config *c, char *why, size_t n)
{
    if (c->l1.unified_bytes == 0) return true;
    int kib[32];
    int k = config_carveouts(c, kib, 32);
    if (k <= 0) {
        snprintf(why, n, "smem.carveouts (\"%s\") must list ascending KiB values, e.g. \"0,8,16,32\"", c->smem.carveouts);
        return false;
    }
    for (int i = 1; i < k; i++)
        if (kib[i] <= kib[i - 1]) {
            snprintf(why, n, "smem.carveouts (\"%s\") is not ascending", c->smem.carveouts);
            return false;
        }
    if ((int64_t)kib[k - 1] * 1024 != c->sm.shared_bytes || c->l1.unified_bytes - c->sm.shared_bytes != c->l1.size_bytes) {
        snprintf(why, n, "the largest smem.carveouts (%d KiB) must be sm.shared_bytes (%lld), leaving l1.size_bytes (%lld) of "
                 "l1.unified_bytes (%lld)", kib[k - 1], (long long)c->sm.shared_bytes, (long long)c->l1.size_bytes,
                 (long long)c->l1.unified_bytes);
        return false;
    }
    return true;
}

static bool l1_geometry(const Config *c, char *why, size_t n)
{
    return cache_geometry("l1", c->l1.size_bytes, c->l1.assoc, c->l1.line_bytes,
                          c->l1.sector_bytes, 0, why, n);
}

static bool l2_geometry(const Config *c, char *why, size_t n)
{
    return cache_geometry("l2", c->l2.size_bytes, c->l2.assoc, c->l2.line_bytes,
                          c->l2.sector_bytes, c->l2.slices, why, n);
}

/* The constant cache has no sectors: pass the line as the sector. */
static bool cc_geometry(const Config *c, char *why, size_t n)
{
    return cache_geometry("cc", c->cc.size_bytes, c->cc.assoc, c->cc.line_bytes,
                          c->cc.line_bytes, 0, why, n);
}

static bool slices_per_channel(const Config *c, char *why, size_t n)
{
    if (c->l2.slices % c->dram.channels == 0) return true;
    snprintf(why, n, "l2.slices (%d) is not a multiple of dram.channels (%d)",
             c->l2.slices, c->dram.channels);
    return false;
}

static bool line_in_one_channel(const Config *c, char *why, size_t n)
{
    if (c->dram.interleave_bytes >= c->l2.line_bytes) return true;
    snprintf(why, n, "dram.interleave_bytes (%d) is smaller than l2.line_bytes (%d)",
             c->dram.interleave_bytes, c->l2.line_bytes);
    return false;
}

static bool row_holds_bursts(const Config *c, char *why, size_t n)
{
    int burst = c->dram.bus_bits / 8 * c->dram.burst_length;
    if (burst > 0 && c->dram.row_bytes % burst == 0) return true;
    snprintf(why, n, "dram.row_bytes (%d) is not a multiple of one burst "
             "(dram.bus_bits / 8 x dram.burst_length = %d bytes)", c->dram.row_bytes, burst);
    return false;
}

static bool banks_in_groups(const Config *c, char *why, size_t n)
{
    if (c->dram.banks % c->dram.bank_groups == 0) return true;
    snprintf(why, n, "dram.banks (%d) is not a multiple of dram.bank_groups (%d)",
             c->dram.banks, c->dram.bank_groups);
    return false;
}

static bool dram_row_cycle(const Config *c, char *why, size_t n)
{
    if (c->dram.tRAS < c->dram.tRCD) {
        snprintf(why, n, "dram.tRAS (%d) is shorter than dram.tRCD (%d)", c->dram.tRAS, c->dram.tRCD);
        return false;
    }
    if (c->dram.tRC >= c->dram.tRAS + c->dram.tRP) return true;
    snprintf(why, n, "dram.tRC (%d) is shorter than dram.tRAS + dram.tRP (%d)",
             c->dram.tRC, c->dram.tRAS + c->dram.tRP);
    return false;
}

static const Rule rules[] = {
    { "`sm.max_threads` is a multiple of `sm.warp_size`.",
      { "sm.max_threads", "sm.warp_size" }, threads_whole_warps },
    { "`sm.max_warps` x `sm.warp_size` >= `sm.max_threads`.",
      { "sm.max_warps", "sm.warp_size", "sm.max_threads" }, warps_hold_threads },
    { "`sm.lanes` = `unit.sp_groups` x `unit.sp_width`.",
      { "sm.lanes", "unit.sp_groups", "unit.sp_width" }, lanes_match_units },
    { "`sm.registers` is a multiple of `sm.reg_alloc_unit`.",
      { "sm.registers", "sm.reg_alloc_unit" }, regs_in_units },
    { "`sm.registers` >= `sm.warp_size` x `sm.max_regs_per_thread` (one warp fits).",
      { "sm.registers", "sm.warp_size", "sm.max_regs_per_thread" }, one_warp_fits },
    { "`sm.shared_bytes` is a multiple of `sm.shared_alloc_unit`.",
      { "sm.shared_bytes", "sm.shared_alloc_unit" }, shared_in_units },
    { "`sm.fetch_width` <= `sm.ibuffer_depth`.",
      { "sm.fetch_width", "sm.ibuffer_depth" }, fetch_fits_ibuffer },
    { "`unit.dp_width`, `unit.sfu_width` and `unit.int_width` divide into `unit.dp_groups`, `unit.sfu_groups` and `unit.sp_groups` groups.",
      { "unit.dp_width", "unit.sfu_width", "unit.int_width", "unit.dp_groups", "unit.sfu_groups", "unit.sp_groups" }, unit_groups_fit },
    { "`unit.lsu_groups` is 1 or `sm.schedulers`, and divides `unit.lsu_width`.",
      { "unit.lsu_groups", "sm.schedulers", "unit.lsu_width" }, lsu_groups_fit },
    { "`sm.fetch_units` divides `sm.schedulers`.",
      { "sm.fetch_units", "sm.schedulers" }, fetch_units_fit },
    { "`sched.two_level_active` <= `sm.max_warps` / `sm.schedulers`.",
      { "sched.two_level_active", "sm.max_warps", "sm.schedulers" }, active_pool_fits },
    { "L1: `line_bytes` is a multiple of `sector_bytes`; `size_bytes` = sets x `assoc` x `line_bytes` with a power-of-two number of sets.",
      { "l1.size_bytes", "l1.assoc", "l1.line_bytes", "l1.sector_bytes" }, l1_geometry },
    { "With `l1.unified_bytes`: `smem.carveouts` ascends to `sm.shared_bytes`, leaving `l1.size_bytes`.",
      { "l1.unified_bytes", "smem.carveouts", "sm.shared_bytes", "l1.size_bytes" }, carveouts_fit },
    { "L2: as L1, with `size_bytes` = `slices` x sets x `assoc` x `line_bytes`.",
      { "l2.size_bytes", "l2.assoc", "l2.line_bytes", "l2.sector_bytes", "l2.slices" }, l2_geometry },
    { "Constant cache: `size_bytes` = sets x `assoc` x `line_bytes`, sets a power of two.",
      { "cc.size_bytes", "cc.assoc", "cc.line_bytes" }, cc_geometry },
    { "`l2.slices` is a multiple of `dram.channels` (each channel serves whole slices).",
      { "l2.slices", "dram.channels" }, slices_per_channel },
    { "`dram.interleave_bytes` >= `l2.line_bytes` (a line lives in one channel).",
      { "dram.interleave_bytes", "l2.line_bytes" }, line_in_one_channel },
    { "`dram.row_bytes` is a multiple of one burst (`bus_bits` / 8 x `burst_length`).",
      { "dram.row_bytes", "dram.bus_bits", "dram.burst_length" }, row_holds_bursts },
    { "`dram.banks` is a multiple of `dram.bank_groups`.",
      { "dram.banks", "dram.bank_groups" }, banks_in_groups },
    { "`dram.tRAS` >= `dram.tRCD` and `dram.tRC` >= `dram.tRAS` + `dram.tRP`.",
      { "dram.tRAS", "dram.tRCD", "dram.tRC", "dram.tRP" }, dram_row_cycle },
};
enum { NRULES = (int)(sizeof rules / sizeof rules[0]) };

/* Error position of key ki: where it was last set. */
static Loc origin_loc(const Config *c, int ki)
{
    const ConfigOrigin *o = &c->origin.key[ki];
    int src = o->source >= 0 && o->source < c->origin.n_sources ? o->source : 0;
    Loc at = { .file = c->origin.n_sources ? c->origin.source[src] : "(default)",
               .line = o->line, .col = o->col };
    return at;
}

/* Re-check every single-key constraint: the struct may have been filled
 * in by code (parameter sweeps), not only through config_set. */
static void check_key(const Config *c, int ki, DiagList *dl)
{
    const ConfigKey *k = &keys[ki];
    Loc at = origin_loc(c, ki);
    char vbuf[48];
    if (k->type == CFG_STRING) {
        const char *s = cfield(c, k);
        if (!memchr(s, '\0', k->size)) err_at(dl, &at, "%s: string is not terminated", k->name);
        return;
    }
    if (k->type == CFG_ENUM) {
        int64_t v = get_num(c, k);
        if (v < 0 || v >= count_names(k->enum_names))
            err_at(dl, &at, "%s: %lld is not a valid choice", k->name, (long long)v);
        return;
    }
    double v = k->type == CFG_DOUBLE ? *(const double *)cfield(c, k) : (double)get_num(c, k);
    if (!num_in_range(k, v)) range_error(dl, &at, k, fmt_limit(k, v, vbuf, sizeof vbuf));
}

int config_validate(const Config *c, DiagList *dl)
{
    int before = diag_count(dl);
    for (int i = 0; i < NKEYS; i++) check_key(c, i, dl);
    /* The rules divide by keys whose range excludes 0: skip them if a range failed. */
    if (diag_count(dl) > before) return -1;

    for (int r = 0; r < NRULES; r++) {
        char why[256];
        if (rules[r].ok(c, why, sizeof why)) continue;
        int blame = -1;
        for (int j = 0; j < 6 && rules[r].keys[j]; j++) {
            int ki = config_key_find(rules[r].keys[j]);
            if (ki >= 0 && (blame < 0 || c->origin.key[ki].seq > c->origin.key[blame].seq))
                blame = ki;
        }
        Loc at = origin_loc(c, blame);
        err_at(dl, &at, "%s: %s", keys[blame].name, why);
    }
    return diag_count(dl) > before ? -1 : 0;
}

/* ------------------------------------------------------------------ */
/* Formatting, dump, docs                                              */
/* ------------------------------------------------------------------ */

const char *config_format_value(const Config *c, int ki, char *buf, size_t n)
{
    if (ki < 0 || ki >= NKEYS || n == 0) return NULL;
    const ConfigKey *k = &keys[ki];
    int64_t v = get_num(c, k);
    switch (k->type) {
    case CFG_INT:
    case CFG_INT64:
        if (k->flags & CFG_BYTES) return fmt_bytes(v, buf, n);
        snprintf(buf, n, "%lld", (long long)v);
        break;
    case CFG_BOOL: snprintf(buf, n, "%s", v ? "true" : "false"); break;
    case CFG_DOUBLE: return fmt_double(*(const double *)cfield(c, k), buf, n);
    case CFG_ENUM:
        snprintf(buf, n, "%s", v >= 0 && v < count_names(k->enum_names) ? k->enum_names[v] : "?");
        break;
    case CFG_STRING: snprintf(buf, n, "%.*s", (int)k->size, (const char *)cfield(c, k)); break;
    }
    return buf;
}

const char *config_get_string(const Config *c, const char *key, char *buf, size_t n)
{
    return config_format_value(c, config_key_find(key), buf, n);
}

bool config_equal(const Config *a, const Config *b)
{
    for (int i = 0; i < NKEYS; i++) {
        const ConfigKey *k = &keys[i];
        if (k->type == CFG_DOUBLE) {
            if (*(const double *)cfield(a, k) != *(const double *)cfield(b, k)) return false;
        } else if (k->type == CFG_STRING) {
            if (strncmp(cfield(a, k), cfield(b, k), k->size) != 0) return false;
        } else if (get_num(a, k) != get_num(b, k)) {
            return false;
        }
    }
    return true;
}

/* "[1,64], power of two", "lrr, gto, ...", for dump comments and docs. */
static const char *fmt_range(const ConfigKey *k, const char *sep, char *buf, size_t n)
{
    char lo[32], hi[32];
    switch (k->type) {
    case CFG_BOOL: snprintf(buf, n, "true%sfalse", sep); break;
    case CFG_STRING: snprintf(buf, n, "up to %zu characters", k->size - 1); break;
    case CFG_ENUM:
        buf[0] = '\0';
        for (int i = 0; k->enum_names[i]; i++) {
            strncat(buf, i ? sep : "", n - strlen(buf) - 1);
            strncat(buf, k->enum_names[i], n - strlen(buf) - 1);
        }
        break;
    default:
        snprintf(buf, n, "[%s,%s]%s", fmt_limit(k, k->min, lo, sizeof lo),
                 fmt_limit(k, k->max, hi, sizeof hi),
                 k->flags & CFG_POW2 ? ", power of two" : "");
        break;
    }
    return buf;
}

void config_dump(const Config *c, FILE *out)
{
    fputs("; gpusim effective configuration, written by config_dump().\n"
          "; Every key is listed; reload with: ./gpusim THIS.ini KERNEL.s\n", out);
    for (int s = 0; s < NSECTIONS; s++) {
        fprintf(out, "\n; %s\n[%s]\n", sections[s].title, sections[s].name);
        for (int i = 0; i < NKEYS; i++) {
            const ConfigKey *k = &keys[i];
            if (!key_in_section(k, sections[s].name)) continue;
            char val[CONFIG_STRING_MAX + 8], range[128];
            config_format_value(c, i, val, sizeof val);
            fprintf(out, "; %s (%s%s%s)\n", k->help, k->unit, k->unit[0] ? "; " : "",
                    fmt_range(k, " | ", range, sizeof range));
            const char *leaf = strchr(k->name, '.') + 1;
            if (k->type == CFG_STRING)
                fprintf(out, "%s = \"%s\"\n", leaf, val);
            else
                fprintf(out, "%s = %s\n", leaf, val);
        }
    }
}

static const char *type_name(const ConfigKey *k)
{
    switch (k->type) {
    case CFG_INT:
    case CFG_INT64: return k->flags & CFG_BYTES ? "bytes" : "int";
    case CFG_BOOL: return "bool";
    case CFG_DOUBLE: return "number";
    case CFG_ENUM: return "enum";
    case CFG_STRING: return "string";
    }
    return "?";
}

static const char doc_intro[] =
    "# Configuration reference\n"
    "\n"
    "<!-- Generated from the key table in sim/base/config.c by `make docs`\n"
    "     (config_doc()). Edit the table, not this file; a test checks they agree. -->\n"
    "\n"
    "gpusim reads the whole architecture from one `.ini` file: every size, width,\n"
    "latency and policy below. A key that the file does not set keeps its default;\n"
    "the defaults are the NVIDIA GeForce GTX 480 (Fermi, GF100), and\n"
    "`configs/fermi.ini` sets every key with the source of each value.\n"
    "\n"
    "One simulated cycle is one SM (shader) clock period, `gpu.core_clock_mhz`.\n"
    "Latencies are in SM cycles; `dram.t*` timings are in DRAM command-clock\n"
    "cycles (`gpu.mem_clock_mhz`).\n"
    "\n"
    "## File syntax\n"
    "\n"
    "```ini\n"
    "; a comment; so is a line starting with #\n"
    "[l1]                   ; section header\n"
    "assoc = 4              ; this is the key l1.assoc\n"
    "size_bytes = 16KiB     ; byte sizes take K, KiB, M, MiB, G, GiB suffixes\n"
    "write_policy = write_through\n"
    "\n"
    "[gpu]\n"
    "name = \"GTX 480\"       ; strings may be quoted\n"
    "```\n"
    "\n"
    "- A `[section]` header starts a section; a key `k` under `[s]` is the key\n"
    "  `s.k` in the tables below. A key may also be written with its full name\n"
    "  (`l1.assoc = 4`) anywhere in the file.\n"
    "- Comments start with `;` or `#`, on their own line or after a value.\n"
    "- Integers are decimal or `0x` hex. Byte sizes also take a suffix: `K`, `KB`\n"
    "  and `KiB` all mean 1024 (and likewise `M`, `G`). Booleans are\n"
    "  `true`/`false`, `yes`/`no`, `on`/`off` or `1`/`0`. Enum names and\n"
    "  booleans are not case-sensitive; key names are.\n"
    "- Strings are printable ASCII without `\"`; quote them (`\"...\"` or `'...'`)\n"
    "  to keep `;` or `#` or surrounding blanks.\n"
    "- Setting the same key twice in one file is an error.\n"
    "\n"
    "## Overrides: `--set`\n"
    "\n"
    "`./gpusim --set l1.assoc=8 --set sched.policy=lrr configs/fermi.ini k.s`\n"
    "applies each `KEY=VALUE` after the file, in order (a later `--set` wins),\n"
    "through exactly the same checks as a line of the file. Keys are full names.\n"
    "\n"
    "## Errors\n"
    "\n"
    "Every bad line is reported, not only the first, as `file:line:col: error:`\n"
    "followed by the key and the problem, and the run stops with exit code 2:\n"
    "\n"
    "```\n"
    "configs/x.ini:12:9: error: l1.sector_bytes: 48 is not a power of two in [4,4KiB]\n"
    "configs/x.ini:14:1: error: l1.asoc: unknown key (did you mean 'l1.assoc'?)\n"
    "configs/x.ini:15:10: error: sched.policy: 'gtoo' is not one of lrr, gto, oldest, two_level (did you mean 'gto'?)\n"
    "configs/x.ini:16:1: error: l1.assoc: set twice (first at line 7)\n"
    "--set: error: l2.assoc: 'x' is not an integer\n"
    "```\n"
    "\n"
    "After the file and all `--set`s, the cross-field rules below are checked; a\n"
    "violation is reported where the last-set key of the rule was set.\n"
    "\n"
    "## Cross-field rules\n"
    "\n";

static void md_cell(const char *s, FILE *out)
{
    for (; *s; s++) {
        if (*s == '|') fputc('\\', out);
        fputc(*s, out);
    }
}

void config_doc(FILE *out)
{
    fputs(doc_intro, out);
    for (int r = 0; r < NRULES; r++) fprintf(out, "- %s\n", rules[r].text);

    Config def;
    config_defaults(&def);
    for (int s = 0; s < NSECTIONS; s++) {
        fprintf(out, "\n## [%s] %s\n\n", sections[s].name, sections[s].title);
        fputs("| key | type | default | range / values | unit | meaning |\n"
              "|---|---|---|---|---|---|\n", out);
        for (int i = 0; i < NKEYS; i++) {
            const ConfigKey *k = &keys[i];
            if (!key_in_section(k, sections[s].name)) continue;
            char val[CONFIG_STRING_MAX + 8], range[128];
            fprintf(out, "| `%s` | %s | `%s` | ", k->name, type_name(k),
                    config_format_value(&def, i, val, sizeof val));
            md_cell(fmt_range(k, ", ", range, sizeof range), out);
            fprintf(out, " | %s | ", k->unit);
            md_cell(k->help, out);
            fputs(" |\n", out);
        }
    }
}
