/* config.h - the architecture description: every size, width, latency and
 * policy the simulator reads, in one struct the caller owns.
 *
 * One const table in config.c (one row per key "section.key": type, field
 * offset, default, range, power-of-two and byte-size flags, unit, help)
 * drives everything: defaults, .ini parsing, --set overrides, validation,
 * the config echo in reports, config_dump and docs/config.md.  Defaults are
 * the NVIDIA GeForce GTX 480 (Fermi GF100); configs/fermi.ini cites sources.
 *
 * Runs once, before simulation: load defaults, then a file, then each
 * --set, then config_validate for the cross-field rules.  Nothing here
 * prints errors; they are appended to a DiagList.  No globals.
 */
#ifndef GPUSIM_CONFIG_H
#define GPUSIM_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "isa/diag.h"

/* Each enum is listed once, as an X-macro, so the C enum and the names the
 * .ini accepts can never drift apart. */
#define CONFIG_SCHED_POLICIES(X) \
    X(SCHED_LRR, "lrr")          \
    X(SCHED_GTO, "gto")          \
    X(SCHED_OLDEST, "oldest")    \
    X(SCHED_TWO_LEVEL, "two_level")
#define CONFIG_WRITE_POLICIES(X)          \
    X(CACHE_WRITE_THROUGH, "write_through") \
    X(CACHE_WRITE_BACK, "write_back")
#define CONFIG_MEM_MODELS(X)             \
    X(MEM_MODEL_HIERARCHY, "hierarchy")  \
    X(MEM_MODEL_FIXED, "fixed")
#define CONFIG_CORE_SCHEDULES(X)            \
    X(CORE_SCHEDULE_SOURCE, "source")       \
    X(CORE_SCHEDULE_MACHINE, "machine")
#define CONFIG_DRAM_SCHEDS(X)   \
    X(DRAM_FR_FCFS, "fr_fcfs")  \
    X(DRAM_FCFS, "fcfs")

#define CONFIG_ENUM_CONST(e, s) e,
enum SchedPolicy { CONFIG_SCHED_POLICIES(CONFIG_ENUM_CONST) };
enum CacheWritePolicy { CONFIG_WRITE_POLICIES(CONFIG_ENUM_CONST) };
enum DramSched { CONFIG_DRAM_SCHEDS(CONFIG_ENUM_CONST) };
enum MemModel { CONFIG_MEM_MODELS(CONFIG_ENUM_CONST) };
enum CoreSchedule { CONFIG_CORE_SCHEDULES(CONFIG_ENUM_CONST) };
#undef CONFIG_ENUM_CONST

enum {
    CONFIG_STRING_MAX = 64,     /* string values, including the NUL */
    CONFIG_MAX_KEYS = 128,      /* origin slots; a test checks the table fits */
    CONFIG_MAX_SOURCES = 8,     /* distinct file names remembered for errors */
    CONFIG_SOURCE_CHARS = 128
};

/* Where a key got its value: source 0 is the built-in default. */
typedef struct ConfigOrigin {
    int source;        /* index into ConfigOrigins.source */
    int load;          /* which config_load_* call; detects keys set twice */
    int line, col;     /* 1-based in a file; line 0 for --set */
    unsigned seq;      /* global set order: validate blames the latest key */
} ConfigOrigin;

typedef struct ConfigOrigins {
    int n_sources, n_loads;
    unsigned seq;
    char source[CONFIG_MAX_SOURCES][CONFIG_SOURCE_CHARS];
    ConfigOrigin key[CONFIG_MAX_KEYS];   /* indexed like the key table */
} ConfigOrigins;

/* Cycles are SM (shader) clock cycles unless the key says DRAM cycles. */
typedef struct Config {
    struct {
        char name[CONFIG_STRING_MAX];
        int num_sms;
        double core_clock_mhz;    /* SM clock; one simulated cycle */
        int launch_cycles;        /* front end: a launch reaches the SMs this late */
        double cta_dispatch_cycles;   /* the dispatcher starts one block per this many cycles, GPU-wide (0: one per SM per cycle) */
        double mem_clock_mhz;     /* DRAM command clock */
    } gpu;
    struct {
        int warp_size, lanes, schedulers, issue_per_scheduler;
        int max_threads, max_blocks, max_warps;
        int registers, reg_alloc_unit, max_regs_per_thread;
        int max_call_depth;       /* .func calls nested per thread */
        int64_t shared_bytes;
        int shared_alloc_unit;
        int ibuffer_depth, fetch_width, fetch_units;
        int bar_latency, bar_warp_cycles;
        bool independent_threads; /* race check: lanes of a warp are separate threads */
        int cta_launch_cycles;    /* a dispatched block's warps start this late */   /* barrier: release after the last arrival; per arriving warp */
    } sm;
    struct {
        int schedule;             /* enum CoreSchedule */
    } core;
    struct {
        int policy;               /* enum SchedPolicy */
        int two_level_active;
    } sched;
    struct {
        int sp_groups, sp_width, sfu_width, lsu_width, dp_width;
        int int_width, dp_groups, sfu_groups;   /* 0 / 1 / 1: integer ops on the SP pipe, one DP and one SFU pipe */
        int lsu_groups;                         /* 1: one address stage for the SM */
        int lsu_global_cycles;                  /* 0: a global access holds it as a shared one does */
    } unit;
    struct {
        int alu, imul, fma, dp, sfu, shared, global_fixed, constant, branch;
    } lat;
    struct {
        int model;                /* enum MemModel */
    } mem;
    struct {
        int banks, bank_bytes;
        int replay_lat;          /* cycles each extra wavefront adds to a shared load's result */
        int reserved_bytes;      /* shared memory the system keeps per block */
        char carveouts[CONFIG_STRING_MAX];   /* "0,8,16,...": shared-memory carve-outs in KiB, "" = fixed */
    } smem;
    struct {
        bool enabled;
        int64_t size_bytes;
        int64_t unified_bytes;    /* L1 + shared memory in one array (0: two fixed arrays) */
        int line_bytes, sector_bytes, assoc, hit_lat, mshrs;
        int mshr_merge;           /* requests one MSHR holds */
        int write_policy;         /* enum CacheWritePolicy */
        bool alloc_on_write;
        bool set_hash;            /* XOR the line address's higher bits into the set index */
        bool invalidate_on_launch; /* every SM's L1 starts each launch empty */
    } l1;
    struct {
        int64_t size_bytes;       /* all slices together */
        int line_bytes, sector_bytes, assoc, slices, hit_lat, mshrs;
        int mshr_merge;           /* requests one MSHR holds */
        int write_cycles;         /* tag-stage cycles of a store request */
        int write_sector_cycles;  /* and per sector it writes */
        double atom_lane_cycles;  /* the atomic unit's cycles per operation on one address */
        int write_policy;         /* enum CacheWritePolicy */
        bool alloc_on_write;
    } l2;
    struct {
        int64_t size_bytes;
        int line_bytes, assoc, hit_lat;
    } cc;
    struct {
        int latency, flit_bytes, queue_depth;
        int lookahead;            /* packets a port may choose from (1: FIFO) */
    } icnt;
    struct {
        int channels, bus_bits, burst_length, banks, bank_groups;
        int row_bytes, interleave_bytes;
        int tCL, tRCD, tRP, tRAS, tRC, tWL, tWR, tCCD, tCCDL, tRRD, tWTR;
        int queue_depth;
        int ctrl_lat;             /* SM cycles, not DRAM clocks */
        int sched;                /* enum DramSched */
        bool addr_xor;
        bool split_cmd_bus;       /* one row and one column command per clock (HBM) */
        bool partition_hash;      /* slice and channel of a chunk: rotated by a hash of its group of l2.slices chunks */
    } dram;
    ConfigOrigins origin;         /* last member: compare values up to here */
} Config;

/* One row of the key table, for reports that walk every key. */
typedef enum ConfigType {
    CFG_INT,      /* int field */
    CFG_INT64,    /* int64_t field */
    CFG_BOOL,     /* bool field */
    CFG_DOUBLE,   /* double field */
    CFG_ENUM,     /* int field holding one of enum_names */
    CFG_STRING    /* char[size] field */
} ConfigType;

enum {
    CFG_POW2 = 1u << 0,   /* value must be a power of two */
    CFG_BYTES = 1u << 1   /* accepts K/KiB/M/MiB/G/GiB suffixes */
};

typedef struct ConfigKey {
    const char *name;                 /* first member: suggest_best walks it */
    ConfigType type;
    size_t offset, size;              /* field in Config */
    int64_t def_int;                  /* INT, INT64, BOOL, ENUM */
    double def_dbl;                   /* DOUBLE */
    const char *def_str;              /* STRING */
    double min, max;                  /* numeric range, inclusive */
    const char *const *enum_names;    /* ENUM: NULL-terminated */
    unsigned flags;                   /* CFG_POW2 | CFG_BYTES */
    const char *unit;
    const char *help;
} ConfigKey;

void config_defaults(Config *c);

/* Both return 0 if every line was good, -1 if any Diag was added.  All bad
 * lines are reported; good lines are still applied. */
int config_load_file(Config *c, const char *path, DiagList *dl);
int config_load_string(Config *c, const char *filename, const char *text,
                       size_t len, DiagList *dl);

/* One --set override, "l1.assoc=4".  Errors name file "--set". */
int config_set(Config *c, const char *assignment, DiagList *dl);
/* smem.carveouts as KiB values into kib (at most max); their count, -1 if malformed. */
int config_carveouts(const Config *c, int *kib, int max);
/* The L1 capacity a launch gets when its resident blocks need shared_needed
 * bytes of shared memory: l1.unified_bytes less the smallest carve-out that
 * holds them (l1.size_bytes without l1.unified_bytes). */
int64_t config_l1_bytes_for(const Config *c, int64_t shared_needed);

/* Ranges again plus the cross-field rules; call after all loads and sets.
 * Each error is placed where the most recently set key of the rule was set. */
int config_validate(const Config *c, DiagList *dl);

/* The effective config as an .ini that reloads to an equal Config. */
void config_dump(const Config *c, FILE *out);
/* docs/config.md. */
void config_doc(FILE *out);

/* Same values in every key (origins ignored). */
bool config_equal(const Config *a, const Config *b);

/* Key table access, for the config echo in reports. */
int config_key_count(void);
const ConfigKey *config_key_at(int i);
int config_key_find(const char *name);          /* index, or -1 */
/* The key a misspelt or cut-short name probably meant ("l1.size" ->
 * "l1.size_bytes"), or NULL. */
const char *config_key_suggest(const char *name);

/* A key's value as text ("16KiB", "gto", "true", "GTX 480"); NULL if the
 * key is unknown.  buf should hold at least CONFIG_STRING_MAX + 2 bytes. */
const char *config_get_string(const Config *c, const char *key, char *buf, size_t n);
const char *config_format_value(const Config *c, int key_index, char *buf, size_t n);

#endif
