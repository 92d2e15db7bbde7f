/* test_validation.c - gpusim against a real GPU (issue 5, "Validation
 * against real hardware"; docs/validation.md has the tables this test
 * checks).  Run from the repo root: the reference data is read at test time
 * from tests/validation/h100/ (a copy kept in the repo, with its origin in
 * its README), so the test is the comparison.  A missing reference file fails the test; it
 * never skips.
 *
 * 1. Counters.  counters.csv holds what Nsight Compute read on an H100 for
 *    the kernels of kernels.cu.  Every row runs here, functionally, from its
 *    ISA version tests/validation/KERNEL.s: the row's `launch` column gives
 *    the -D values (stride=2 offset=0 -> -D STRIDE=2 -D OFFSET=0, m=n=k=256
 *    -> -D M=256 -D N=256 -D K=256) and its grid and block columns must be
 *    the file's launch.  Global requests and sectors, shared-memory load and
 *    store instructions, wavefronts and bank conflicts (ld and st: ten
 *    counters) depend only on the lanes' addresses, so they must equal the
 *    hardware's exactly.  The one exception is the README's: the hardware's
 *    shared-load wavefront counter is "not perfectly clean" on the
 *    transposes (transpose_shared 211 and transpose_padded 600 counts above
 *    the ideal 32 per load and 1 per load, all of them reported as bank
 *    conflicts).  For those two rows the simulator must count the ideal, at
 *    most STRAY_MAX below the hardware, and the gap must be the same in
 *    wavefronts and in conflicts (the strays are extra wavefronts on the
 *    same instructions).
 *
 * 2. Latency.  tests/validation/pointer_chase.s times a dependent-load
 *    chain with %clock64.  With the memory hierarchy it must measure the
 *    L1 hit, the L2 hit (ld.global.cg) and the DRAM access the config
 *    implies, on fermi.ini and on hopper.ini; and on hopper.ini the rows of
 *    latency.txt that the config is calibrated to must land within 25%,
 *    the DRAM rows (dram.ctrl_lat is calibrated to them) within 2%.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "isa/asm.h"
#include "sim/base/config.h"
#include "sim/front/run.h"
#include "sim/mem/dram.h"
#include "sim/mem/mem.h"
#include "tests/sanitized.h"

#define REF_DIR    "tests/validation/h100/"
#define CSV_PATH   REF_DIR "counters.csv"
#define LAT_PATH   REF_DIR "latency.txt"
#define MICRO_PATH REF_DIR "measured/micro.csv"
#define LAUNCH_PATH REF_DIR "measured/launch_overhead_clock_none.csv"
#define KERNELS_PATH REF_DIR "measured/kernels_clock_none.csv"
#define CU_PATH    REF_DIR "kernels.cu"
#define HOPPER_INI "configs/hopper.ini"
#define FERMI_INI  "configs/fermi.ini"
#define CHASE      "tests/validation/pointer_chase.s"

/* README: "a few hundred stray counts remain"; counters.csv has 211 and 600. */
#define STRAY_MAX 1000

/* ---- small helpers ------------------------------------------------------------------- */

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    size_t cap = 4096, n = 0;
    char *s = malloc(cap);
    size_t k;
    while (s && (k = fread(s + n, 1, cap - n - 1, f)) > 0) {
        n += k;
        if (cap - n < 2) {
            char *t = realloc(s, cap *= 2);
            if (!t) { free(s); s = NULL; }
            else s = t;
        }
    }
    fclose(f);
    if (s) s[n] = 0;
    return s;
}

static int file_exists(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (f) fclose(f);
    return f != NULL;
}

static void load_config(Config *c, const char *path)
{
    DiagList dl = { 0 };
    config_defaults(c);
    int rc = config_load_file(c, path, &dl);
    if (rc == 0) rc = config_validate(c, &dl);
    if (rc) diag_print(&dl, stderr);
    diag_free(&dl);
    assert_int_equal(rc, 0);
}

/* The configuration the counters run on: the H100's once it exists.  The
 * counters depend on warp size, banks and sector size only, which fermi.ini
 * shares with it. */
static const char *counter_config(void) { return file_exists(HOPPER_INI) ? HOPPER_INI : FERMI_INI; }

typedef struct Ran {
    Program *p;
    Run r;
    int rc;
} Ran;

static void run_file(Ran *x, const char *path, const AsmDefine *d, int nd, const Config *c, const char *cpath,
                     int functional)
{
    DiagList dl = { 0 };
    AsmOptions o = { d, nd };
    x->p = asm_assemble_file(path, &o, &dl);
    if (!x->p) diag_print(&dl, stderr);
    assert_non_null(x->p);
    RunOptions ro = { .functional = functional };
    x->rc = run_program(&x->r, x->p, c, cpath, &ro, &dl);
    if (x->rc == RUN_BAD_INPUT) diag_print(&dl, stderr);
    diag_free(&dl);
}

static void ran_free(Ran *x)
{
    run_free(&x->r);
    program_free(x->p);
}

/* Bytes of buffer `name` after the run. */
static const uint8_t *buffer_bytes(const Ran *x, const char *name, uint64_t *size)
{
    for (int i = 0; i < x->p->nbuffers; i++)
        if (strcmp(x->p->buffers[i].name, name) == 0) {
            Region *rg = mem_region_of_buffer(&x->r.mem, i);
            assert_non_null(rg);
            if (size) *size = rg->size;
            return rg->data;
        }
    fail_msg("%s has no buffer %s", x->p->filename, name);
    return NULL;
}

static float f32_at(const uint8_t *b, uint64_t i)
{
    float v;
    memcpy(&v, b + 4 * i, 4);
    return v;
}

static uint64_t u64_at(const uint8_t *b, uint64_t i)
{
    uint64_t v;
    memcpy(&v, b + 8 * i, 8);
    return v;
}

/* ---- counters.csv ---------------------------------------------------------------------- */

enum { MAX_COLS = 32, MAX_ROWS = 64, MAX_FIELD = 96 };

typedef struct CsvRow {
    char name[160];                 /* "kernel launch", the test's name */
    char kernel[MAX_FIELD], launch[MAX_FIELD];
    uint32_t grid[3], block[3];
    char field[MAX_COLS][MAX_FIELD];
} CsvRow;

static char csv_head[MAX_COLS][MAX_FIELD];
static int csv_ncols;
static CsvRow csv_rows[MAX_ROWS];
static int csv_nrows;

/* Split one CSV line into fields ("..." may hold commas).  Returns the count. */
static int csv_split(const char *line, char out[MAX_COLS][MAX_FIELD])
{
    int n = 0;
    const char *s = line;
    while (n < MAX_COLS) {
        size_t k = 0;
        int quoted = *s == '"';
        if (quoted) s++;
        while (*s && (quoted ? *s != '"' : *s != ',')) {
            if (k + 1 < MAX_FIELD) out[n][k++] = *s;
            s++;
        }
        if (quoted && *s == '"') s++;
        out[n][k] = 0;
        n++;
        if (*s != ',') break;
        s++;
    }
    return n;
}

/* strlcpy: fields and names never overlap, but GCC cannot see it */
static void copy_str(char *dst, size_t n, const char *src)
{
    size_t k = strlen(src);
    if (k >= n) k = n - 1;
    memcpy(dst, src, k);
    dst[k] = 0;
}

static int csv_col(const char *name)
{
    for (int i = 0; i < csv_ncols; i++)
        if (strcmp(csv_head[i], name) == 0) return i;
    return -1;
}

static void parse_dim3(const char *s, uint32_t d[3])
{
    d[0] = d[1] = d[2] = 0;
    (void)sscanf(s, " ( %u , %u , %u )", &d[0], &d[1], &d[2]);
}

/* Returns 0, or -1 if the file is missing or malformed. */
static int csv_load(void)
{
    char *text = slurp(CSV_PATH);
    if (!text) return -1;
    int rc = 0;
    char *save = NULL;
    char *line = strtok_r(text, "\r\n", &save);
    if (!line) rc = -1;
    else csv_ncols = csv_split(line, csv_head);
    int ck = csv_col("kernel"), cl = csv_col("launch"), cg = csv_col("grid"), cb = csv_col("block");
    if (ck < 0 || cl < 0 || cg < 0 || cb < 0) rc = -1;
    while (rc == 0 && (line = strtok_r(NULL, "\r\n", &save)) != NULL) {
        if (!*line) continue;
        if (csv_nrows == MAX_ROWS) { rc = -1; break; }
        CsvRow *r = &csv_rows[csv_nrows];
        if (csv_split(line, r->field) != csv_ncols) { rc = -1; break; }
        copy_str(r->kernel, sizeof r->kernel, r->field[ck]);
        copy_str(r->launch, sizeof r->launch, r->field[cl]);
        copy_str(r->name, sizeof r->name, r->kernel);
        size_t k = strlen(r->name);
        if (k + 1 < sizeof r->name) {
            r->name[k] = ' ';
            copy_str(r->name + k + 1, sizeof r->name - k - 1, r->launch);
        }
        parse_dim3(r->field[cg], r->grid);
        parse_dim3(r->field[cb], r->block);
        csv_nrows++;
    }
    free(text);
    return csv_nrows ? rc : -1;
}

/* The launch column as -D values: "m=n=k=256" gives M, N and K = 256. */
typedef struct Defines {
    AsmDefine d[8];
    char name[8][16], value[8][24];
    int n;
} Defines;

static void launch_defines(const char *launch, Defines *D)
{
    D->n = 0;
    char buf[MAX_FIELD];
    snprintf(buf, sizeof buf, "%s", launch);
    char *save = NULL;
    for (char *tok = strtok_r(buf, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
        char *val = strrchr(tok, '=');
        assert_non_null(val);
        *val++ = 0;
        char *save2 = NULL;
        for (char *key = strtok_r(tok, "=", &save2); key; key = strtok_r(NULL, "=", &save2)) {
            assert_true(D->n < 8);
            size_t k = 0;
            for (; key[k] && k + 1 < sizeof D->name[0]; k++) D->name[D->n][k] = (char)toupper((unsigned char)key[k]);
            D->name[D->n][k] = 0;
            snprintf(D->value[D->n], sizeof D->value[0], "%s", val);
            D->d[D->n] = (AsmDefine){ D->name[D->n], D->value[D->n] };
            D->n++;
        }
    }
}

/* The ten access-pattern counters: Nsight name and where gpusim keeps it. */
enum { C_REQ_LD, C_SEC_LD, C_REQ_ST, C_SEC_ST, C_SH_LD, C_WF_LD, C_BC_LD, C_SH_ST, C_WF_ST, C_BC_ST, C_COUNT };
static const char *const counter_name[C_COUNT] = {
    "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum",
    "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
    "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum",
    "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum",
    "smsp__inst_executed_op_shared_ld.sum",
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum",
    "smsp__inst_executed_op_shared_st.sum",
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum",
};

static uint64_t sim_counter(const Stats *s, int c)
{
    switch (c) {
    case C_REQ_LD: return s->requests[0][0];
    case C_SEC_LD: return s->sectors[0][0];
    case C_REQ_ST: return s->requests[0][1];
    case C_SEC_ST: return s->sectors[0][1];
    case C_SH_LD: return s->mem_inst[SP_SHARED][0];
    case C_WF_LD: return s->smem_wavefronts[0];
    case C_BC_LD: return s->smem_conflicts[0];
    case C_SH_ST: return s->mem_inst[SP_SHARED][1];
    case C_WF_ST: return s->smem_wavefronts[1];
    case C_BC_ST: return s->smem_conflicts[1];
    default: return 0;
    }
}

/* The README's exception: stray hardware shared-load counts on the transposes. */
static int stray_allowed(const char *kernel, int c)
{
    return (c == C_WF_LD || c == C_BC_LD) &&
           (strcmp(kernel, "transpose_shared") == 0 || strcmp(kernel, "transpose_padded") == 0);
}

/* What the kernels without a complete .check line wrote. */
static void check_output(const CsvRow *row, const Ran *x, const Defines *D)
{
    int64_t stride = 1, offset = 0;
    for (int i = 0; i < D->n; i++) {
        if (strcmp(D->name[i], "STRIDE") == 0) stride = atoll(D->value[i]);
        if (strcmp(D->name[i], "OFFSET") == 0) offset = atoll(D->value[i]);
    }
    uint64_t threads = (uint64_t)row->grid[0] * row->block[0];
    if (strcmp(row->kernel, "bank_ld") == 0) {
        const uint8_t *out = buffer_bytes(x, "out", NULL);
        for (uint64_t t = 0; t < threads; t++)
            assert_true(f32_at(out, t) == (float)(((int64_t)(t % row->block[0]) * stride) & 1023));
    } else if (strcmp(row->kernel, "coalesce_st") == 0) {
        uint64_t size = 0;
        const uint8_t *y = buffer_bytes(x, "y", &size);
        uint64_t n = size / 4;
        for (uint64_t j = 0; j < n; j++) {
            int64_t k = (int64_t)j - offset;
            int hit = k >= 0 && k % stride == 0 && (uint64_t)(k / stride) < threads;
            assert_true(f32_at(y, j) == (hit ? 2.0f * (float)(k / stride) : 0.0f));
        }
    }
}

static void csv_row_matches(void **state)
{
    const CsvRow *row = *state;
    char path[256];
    snprintf(path, sizeof path, "tests/validation/%s.s", row->kernel);
    Defines D;
    launch_defines(row->launch, &D);
    const char *cpath = counter_config();
    Config c;
    load_config(&c, cpath);
    Ran x;
    run_file(&x, path, D.d, D.n, &c, cpath, 1);
    assert_int_equal(x.rc, RUN_OK);     /* ran, and its .check passed */
    assert_int_equal(x.p->nlaunches, 1);
    for (int d = 0; d < 3; d++) {
        assert_int_equal(x.p->launches[0].grid[d], row->grid[d]);
        assert_int_equal(x.p->launches[0].block[d], row->block[d]);
    }
    check_output(row, &x, &D);

    printf("   %-30s %-58s %12s %12s\n", row->name, "counter", "H100", "gpusim");
    int64_t gap[C_COUNT] = { 0 };
    int bad = 0;
    for (int k = 0; k < C_COUNT; k++) {
        int col = csv_col(counter_name[k]);
        if (col < 0) fail_msg("counters.csv has no column %s", counter_name[k]);
        uint64_t hw = strtoull(row->field[col], NULL, 10), sim = sim_counter(&x.r.stats, k);
        gap[k] = (int64_t)hw - (int64_t)sim;
        const char *mark = gap[k] == 0 ? "" : stray_allowed(row->kernel, k) ? "  hardware strays" : "  MISMATCH";
        printf("   %-30s %-58s %12llu %12llu%s\n", "", counter_name[k], (unsigned long long)hw,
               (unsigned long long)sim, mark);
        if (gap[k] == 0) continue;
        if (!stray_allowed(row->kernel, k) || gap[k] < 0 || gap[k] > STRAY_MAX) bad++;
    }
    assert_int_equal(bad, 0);
    /* the strays are extra wavefronts of the same loads: conflicts, nothing else */
    assert_int_equal(gap[C_WF_LD], gap[C_BC_LD]);
    ran_free(&x);
}

/* Every kernel of kernels.cu has an ISA version and at least one CSV row,
 * and every CSV row has its kernel file. */
static void every_kernel_covered(void **state)
{
    (void)state;
    char *cu = slurp(CU_PATH);
    if (!cu) fail_msg("cannot read %s (the reference is expected beside the repo)", CU_PATH);
    int kernels = 0;
    for (const char *s = cu; (s = strstr(s, "__global__ void ")) != NULL;) {
        s += strlen("__global__ void ");
        char name[64];
        size_t k = 0;
        while ((isalnum((unsigned char)s[k]) || s[k] == '_') && k + 1 < sizeof name) { name[k] = s[k]; k++; }
        name[k] = 0;
        char path[128];
        snprintf(path, sizeof path, "tests/validation/%s.s", name);
        if (!file_exists(path)) fail_msg("kernels.cu has %s but %s is missing", name, path);
        int rows = 0;
        for (int i = 0; i < csv_nrows; i++) rows += strcmp(csv_rows[i].kernel, name) == 0;
        if (!rows) fail_msg("kernels.cu has %s but counters.csv has no row for it", name);
        kernels++;
    }
    free(cu);
    assert_true(kernels >= 8);        /* kernels.cu's eight */
    for (int i = 0; i < csv_nrows; i++) {
        char path[128];
        snprintf(path, sizeof path, "tests/validation/%s.s", csv_rows[i].kernel);
        if (!file_exists(path)) fail_msg("counters.csv row %s: %s is missing", csv_rows[i].name, path);
    }
}

/* The reference must be there: it is part of the repo. */
static void reference_present(void **state)
{
    (void)state;
    const char *need[] = { CSV_PATH, LAT_PATH, CU_PATH };
    for (size_t i = 0; i < sizeof need / sizeof need[0]; i++)
        if (!file_exists(need[i]))
            fail_msg("%s is missing: the validation needs the H100 reference data in the repo", need[i]);
    if (csv_nrows == 0) fail_msg("%s: no rows could be read (malformed?)", CSV_PATH);
    assert_true(csv_nrows >= 16);     /* the reference as written: 16 launches */
}

/* ---- latency: the pointer chase -------------------------------------------------------- */

typedef struct Chase {
    double per_load;             /* cycles per load of the timed pass */
    uint64_t loads;
    uint64_t row_hits, row_misses, row_conflicts, dram_reads;
} Chase;

/* Run pointer_chase.s in timing mode.  passes = 1 is a cold walk. */
static Chase chase(const Config *c, const char *cpath, uint64_t bytes, uint64_t stride, int passes, int cg)
{
    char b[24], s[24], p[24], g[24];
    snprintf(b, sizeof b, "%llu", (unsigned long long)bytes);
    snprintf(s, sizeof s, "%llu", (unsigned long long)stride);
    snprintf(p, sizeof p, "%d", passes);
    snprintf(g, sizeof g, "%d", cg);
    AsmDefine d[] = { { "BYTES", b }, { "STRIDE", s }, { "PASSES", p }, { "CG", g } };
    Ran x;
    run_file(&x, CHASE, d, 4, c, cpath, 0);
    assert_int_equal(x.rc, RUN_OK);      /* the chain ended where it should */
    assert_true(x.r.has_memstats);
    const uint8_t *cyc = buffer_bytes(&x, "cycles", NULL);
    Chase r = { 0 };
    r.loads = u64_at(cyc, 1);
    assert_int_equal(r.loads, bytes / stride);
    r.per_load = (double)u64_at(cyc, 0) / (double)r.loads;
    assert_int_equal(u64_at(cyc, 2), u64_at(cyc, 0) / r.loads);
    r.row_hits = x.r.memstats.dram_row_hits;
    r.row_misses = x.r.memstats.dram_row_misses;
    r.row_conflicts = x.r.memstats.dram_row_conflicts;
    r.dram_reads = x.r.memstats.dram_reads;
    ran_free(&x);
    return r;
}

/* Zero-load latencies the config implies for the chase's one-sector loads
 * (sim/mem/memsys.c's formula, each packet waiting one cycle between stages):
 *   L1 hit   l1.hit_lat
 *   L2 hit   1 + icnt.latency + l2.hit_lat + 1 + icnt.latency
 *            + (reply flits - 1) + l1.hit_lat
 *   DRAM     L2 hit + the DRAM command sequence in DRAM clocks, scaled by
 *            core clock / memory clock: a row hit RD..data = tCL + burst
 *            clocks, a row miss adds tRCD (activate), a conflict tRP too;
 *            + dram.ctrl_lat (memory controller and PHY, SM cycles).
 * Each load also waits for the add that forms its address: + lat.alu. */
static double l2_path(const Config *c)
{
    int flits = (c->l2.sector_bytes + c->icnt.flit_bytes - 1) / c->icnt.flit_bytes;
    if (flits < 1) flits = 1;
    return 1 + c->icnt.latency + c->l2.hit_lat + 1 + c->icnt.latency + (flits - 1) + c->l1.hit_lat;
}

static double dram_expected(const Config *c, const Chase *r)
{
    double ratio = c->gpu.core_clock_mhz / c->gpu.mem_clock_mhz;
    int burst = (c->dram.burst_length + DRAM_BEATS_PER_CLOCK_DEFAULT - 1) / DRAM_BEATS_PER_CLOCK_DEFAULT;
    double hit = c->dram.tCL + burst, miss = hit + c->dram.tRCD, conflict = miss + c->dram.tRP;
    double n = (double)(r->row_hits + r->row_misses + r->row_conflicts);
    double avg = (hit * (double)r->row_hits + miss * (double)r->row_misses + conflict * (double)r->row_conflicts) / n;
    return l2_path(c) + c->lat.alu + ratio * avg + c->dram.ctrl_lat;
}

/* Tolerance, per load.  The chase is exact but for three things: the loop
 * takes a branch every 16 loads (the next load issues at most lat.branch
 * + 2 cycles late: (lat.branch + 2) / 16), the clock reads sit a few
 * cycles from the first and last load (4 / loads), and for DRAM the two
 * clock-domain crossings round up to the next DRAM clock and back to the
 * next core cycle (core/mem + 1). */
static double tolerance(const Config *c, uint64_t loads, int dram)
{
    double t = (c->lat.branch + 2) / 16.0 + 4.0 / (double)loads;
    if (dram) t += c->gpu.core_clock_mhz / c->gpu.mem_clock_mhz + 1;
    return t;
}

static void chase_matches(const char *cpath)
{
    Config c;
    load_config(&c, cpath);
    if (c.mem.model != MEM_MODEL_HIERARCHY || !c.l1.enabled)
        fail_msg("%s: the chase needs mem.model = hierarchy and an L1", cpath);
    uint64_t line = (uint64_t)c.l1.line_bytes;

    /* L1 hit: 8 KiB fits every L1 here; the first pass fills it. */
    Chase r = chase(&c, cpath, 8192, line, 2, 0);
    double want = c.l1.hit_lat + c.lat.alu, tol = tolerance(&c, r.loads, 0);
    printf("   %s: L1 hit   %8.2f cycles/load, config %7.2f (l1.hit_lat %d + lat.alu %d), tolerance %.2f\n",
           cpath, r.per_load, want, c.l1.hit_lat, c.lat.alu, tol);
    assert_true(fabs(r.per_load - want) <= tol);

    /* L2 hit: ld.global.cg, the L1 bypassed; the first pass fills the L2. */
    r = chase(&c, cpath, 16384, line, 2, 1);
    want = l2_path(&c) + c.lat.alu;
    tol = tolerance(&c, r.loads, 0);
    printf("   %s: L2 hit   %8.2f cycles/load, config %7.2f, tolerance %.2f\n", cpath, r.per_load, want, tol);
    assert_true(fabs(r.per_load - want) <= tol);

    /* DRAM: cold walks, every load misses both caches and reads DRAM once.
     * Line stride: row hits and misses; 4 KiB stride: conflicts too. */
    const uint64_t walks[2][2] = { { 16384, 128 }, { 1048576, 4096 } };
    for (int w = 0; w < 2; w++) {
        r = chase(&c, cpath, walks[w][0], walks[w][1] < line ? line : walks[w][1], 1, 1);
        assert_int_equal(r.dram_reads, r.loads);
        assert_int_equal(r.row_hits + r.row_misses + r.row_conflicts, r.loads);
        want = dram_expected(&c, &r);
        tol = tolerance(&c, r.loads, 1);
        printf("   %s: DRAM     %8.2f cycles/load, config %7.2f (%llu loads: %llu row hits, %llu misses, "
               "%llu conflicts; dram.ctrl_lat %d), tolerance %.2f\n",
               cpath, r.per_load, want, (unsigned long long)r.loads, (unsigned long long)r.row_hits,
               (unsigned long long)r.row_misses, (unsigned long long)r.row_conflicts, c.dram.ctrl_lat, tol);
        assert_true(fabs(r.per_load - want) <= tol);
    }
}

static void chase_matches_fermi(void **state)
{
    (void)state;
    chase_matches(FERMI_INI);
}

static void chase_matches_hopper(void **state)
{
    (void)state;
    if (!file_exists(HOPPER_INI)) fail_msg("%s is missing", HOPPER_INI);
    chase_matches(HOPPER_INI);
}

/* The chase on hopper.ini against the project's own H100 chases
 * (tests/validation/h100/measured/micro.csv, the [MEAS] source of
 * hopper.ini): pure pointer chases, so gpusim's chase, which adds one
 * add.s64 between its loads, is compared after taking lat.alu off.
 *
 *   l1_hit_ca_16KiB          16 KiB, ld.global.ca, warm: within 3%
 *   l2_hit_cg_16KiB, _4MiB   ld.global.cg, warm: within 3%
 *   dram_cg_1GiB_stride4KiB  a cold walk (256 loads at the stride; DRAM
 *   dram_cg_1GiB_stride131968B  latency does not depend on the footprint
 *                            here): within 2%
 *   dram_cg_1GiB_stride2MiB  printed, not asserted: every load of a 2 MiB
 *                            stride falls in one DRAM bank of the model,
 *                            which maps addresses to channels and banks
 *                            without the hardware's hashing, so each is a
 *                            row conflict (+7.8%)
 * The older latency.txt rows (taken with address arithmetic between the
 * loads, docs/validation.md) are printed beside them, not asserted.  Under
 * the sanitizers (sanitized.h) the row that is not asserted is left out:
 * its 512 MiB buffer is most of this test's time there. */
static double micro_value(const char *text, const char *name)
{
    char key[96];
    snprintf(key, sizeof key, "latency,%s,", name);
    const char *at = strstr(text, key);
    return at ? atof(at + strlen(key)) : -1;
}

static void chase_near_h100(void **state)
{
    (void)state;
    if (!file_exists(HOPPER_INI)) fail_msg("%s is missing", HOPPER_INI);
    Config c;
    load_config(&c, HOPPER_INI);
    assert_int_equal(c.mem.model, MEM_MODEL_HIERARCHY);
    char *text = slurp(MICRO_PATH);
    if (!text) fail_msg("cannot read %s", MICRO_PATH);
    static const struct { const char *row; uint64_t bytes, stride; int passes, cg; double tol_pct; } rows[] = {
        { "l1_hit_ca_16KiB", 16384, 128, 2, 0, 3 },
        { "l2_hit_cg_16KiB", 16384, 128, 2, 1, 3 },
        { "l2_hit_cg_4MiB", 4194304, 128, 2, 1, 3 },
        { "dram_cg_1GiB_stride4KiB", 256 * 4096ull, 4096, 1, 1, 2 },
        { "dram_cg_1GiB_stride131968B", 256 * 131968ull, 131968, 1, 1, 2 },
        { "dram_cg_1GiB_stride2MiB", 256 * 2097152ull, 2097152, 1, 1, 0 },
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        if (rows[i].tol_pct == 0 && sanitized_subset()) continue;
        double hw = micro_value(text, rows[i].row);
        if (hw <= 0) fail_msg("%s has no row latency,%s", MICRO_PATH, rows[i].row);
        Chase r = chase(&c, HOPPER_INI, rows[i].bytes, rows[i].stride, rows[i].passes, rows[i].cg);
        double load = r.per_load - c.lat.alu, off = (load - hw) / hw * 100.0;
        printf("   H100 %-26s hardware %6.1f, gpusim %6.1f cycles/load (%+5.1f%%%s)\n", rows[i].row, hw, load, off,
               rows[i].tol_pct > 0 ? "" : ", not asserted");
        if (rows[i].tol_pct > 0) assert_true(fabs(off) <= rows[i].tol_pct);
    }
    free(text);
}

/* ---- issue rates: the pipes against micro.csv ---------------------------------------
 * tests/validation/micro/tp_*.s are micro.cu's throughput kernels as nvcc
 * wrote them: W warps in one block, 8 independent chains per thread, 32 ops
 * per loop trip between two clock64 reads.  On hopper.ini with one SM the
 * rate (thread-ops per cycle per SM) must land within 12% of the H100's
 * throughput_* rows at 1 and 16 warps.  What is left is operand reads,
 * which the model does not have: a lone warp issues FADD (two source
 * registers) 12% faster than FFMA (three) on the H100, and DFMA's 64-bit
 * operands hold the H100 at 90% of its 64 FP64 lanes (gpusim: 100%, +10.8%).
 * One warp shows a pipe's share of one
 * processing block (FP64 16 lanes, SFU 4, INT32 16), sixteen its whole
 * width and the fetch units' supply (FFMA 3.8 warp instructions a cycle).
 * tp_iadd is left out: ptxas fuses two dependent adds into one IADD3, so the
 * H100 does half the instructions the PTX has. */
static double micro_rate(const char *text, const char *bench, int warps)
{
    char key[96];
    snprintf(key, sizeof key, "throughput_%s,warps_per_sm=%d,", bench, warps);
    const char *at = strstr(text, key);
    return at ? atof(at + strlen(key)) : -1;
}

static void issue_rates_near_h100(void **state)
{
    (void)state;
    Config c;
    load_config(&c, HOPPER_INI);
    DiagList dl = { 0 };
    assert_int_equal(config_set(&c, "gpu.num_sms=1", &dl), 0);
    char *text = slurp(MICRO_PATH);
    if (!text) fail_msg("cannot read %s", MICRO_PATH);
    const char *benches[] = { "ffma", "fadd", "imad", "mufu_ex2", "mufu_rsqrt", "dfma" };
    const int warps[] = { 1, 16 };
    for (size_t b = 0; b < sizeof benches / sizeof benches[0]; b++)
        for (size_t w = 0; w < sizeof warps / sizeof warps[0]; w++) {
            double hw = micro_rate(text, benches[b], warps[w]);
            if (hw <= 0) fail_msg("%s has no throughput_%s at %d warps", MICRO_PATH, benches[b], warps[w]);
            char path[128], wv[16];
            snprintf(path, sizeof path, "tests/validation/micro/tp_%s.s", benches[b]);
            snprintf(wv, sizeof wv, "%d", warps[w]);
            AsmDefine d[] = { { "W", wv }, { "ITERS", "64" } };
            Ran x;
            run_file(&x, path, d, 2, &c, HOPPER_INI, 0);
            assert_int_equal(x.rc, RUN_OK);
            const uint8_t *tt = buffer_bytes(&x, "tt", NULL);
            double cycles = (double)(u64_at(tt, 1) - u64_at(tt, 0));
            double rate = warps[w] * 32.0 * 64 * 32 / cycles, off = (rate - hw) / hw * 100.0;
            printf("   %-10s %2d warps: H100 %6.1f, gpusim %6.1f thread-ops/cycle/SM (%+5.1f%%)\n", benches[b], warps[w], hw,
                   rate, off);
            assert_true(fabs(off) <= 12.0);
            ran_free(&x);
        }
    free(text);
    diag_free(&dl);
}

/* ---- bandwidth: DRAM, L2 and L1 against micro.csv -----------------------------------
 * tests/validation/micro/bw_*.s are micro.cu's bandwidth kernels as nvcc
 * wrote them.  They run on a quarter of hopper.ini (33 SMs, 10 DRAM
 * channels, 20 L2 slices: the same load on each channel and slice as the
 * whole H100), so that the test takes seconds:
 *   DRAM read, write, copy: 8 blocks of 512 threads per SM stream 16 MiB
 *     (8 MiB for the copy: 16 MiB moved), the L2 cut to 800 KiB so that
 *     it keeps 5% of the stream when the kernel ends, as the H100's 50 MB
 *     does of its 1 GiB (a write-back L2 flushes that part untimed).
 *     GB/s = bytes moved / (elapsed - gpu.launch_cycles) at 1980 MHz, x 4
 *     for the whole GPU; within 10% of the dram_bw rows.  The rate is
 *     reached at this size: bw_read of 64 MiB on all of hopper.ini, 3052.
 *   L2: 2 blocks of 1024 threads per SM read a 2 MiB working set (a
 *     quarter of the H100's 8 MiB) with ld.global.cg, one pass to warm the
 *     L2, then 4 timed; bytes/cycle/SM from the blocks' clock64 stamps, the
 *     median over SMs as micro.cu does; within 15% of the l2_bw row.
 *   L1: one block of 1024 threads on one SM re-reads its 16 KiB 64 times
 *     with ld.global.ca; within 15% of the l1_bw row. */
/* The value of micro.csv's row `key` (what, name,) whose unit starts with unit. */
static double csv_value(const char *text, const char *key, const char *unit)
{
    for (const char *at = strstr(text, key); at; at = strstr(at + 1, key)) {
        const char *u = strchr(at + strlen(key), ',');
        if (u && strncmp(u + 1, unit, strlen(unit)) == 0) return atof(at + strlen(key));
    }
    fail_msg("%s has no row %s... %s", MICRO_PATH, key, unit);
    return -1;
}

static void quarter_hopper(Config *c, const char *l2_size)
{
    load_config(c, HOPPER_INI);
    DiagList dl = { 0 };
    char l2[64];
    snprintf(l2, sizeof l2, "l2.size_bytes=%s", l2_size);
    const char *set[] = { "gpu.num_sms=33", "dram.channels=10", "l2.slices=20", l2 };
    for (size_t i = 0; i < sizeof set / sizeof set[0]; i++) assert_int_equal(config_set(c, set[i], &dl), 0);
    diag_free(&dl);
}

static void bandwidth_near_h100(void **state)
{
    (void)state;
    char *text = slurp(MICRO_PATH);
    if (!text) fail_msg("cannot read %s", MICRO_PATH);
    Config c;
    quarter_hopper(&c, "800KiB");
    /* sanitized: in the sanitizer pass's subset (the copy reads and writes) */
    struct { const char *file, *bytes, *row; double moved; int sanitized; } dram[] = {
        { "bw_read", "(16<<20)", "dram_bw,read_1GiB,", 16, 0 },
        { "bw_write", "(16<<20)", "dram_bw,write_1GiB,", 16, 0 },
        { "bw_copy", "(8<<20)", "dram_bw,copy_1GiB_to_1GiB_read_plus_write,", 16, 1 },
    };
    for (size_t i = 0; i < sizeof dram / sizeof dram[0]; i++) {
        if (!dram[i].sanitized && sanitized_subset()) continue;
        double hw = csv_value(text, dram[i].row, "GB/s");
        char path[96];
        snprintf(path, sizeof path, "tests/validation/micro/%s.s", dram[i].file);
        AsmDefine d[] = { { "BYTES", dram[i].bytes }, { "SMS", "33" } };
        Ran x;
        run_file(&x, path, d, 2, &c, HOPPER_INI, 0);
        assert_int_equal(x.rc, RUN_OK);
        double secs = (double)(x.r.stats.cycles - (uint64_t)c.gpu.launch_cycles) / (c.gpu.core_clock_mhz * 1e6);
        double gbs = 4 * dram[i].moved * 1048576.0 / secs / 1e9, off = (gbs - hw) / hw * 100.0;
        printf("   DRAM %-9s H100 %6.0f, gpusim %6.0f GB/s (%+5.1f%%)\n", dram[i].file + 3, hw, gbs, off);
        assert_true(fabs(off) <= 10.0);
        ran_free(&x);
    }

    quarter_hopper(&c, "12800KiB");
    {
        double hw = csv_value(text, "l2_bw,8MiB_ldcg_all_SMs,", "bytes/cycle/SM");
        AsmDefine d[] = { { "WS", "(2<<20)" }, { "PASSES", "4" }, { "SMS", "33" } };
        Ran x;
        run_file(&x, "tests/validation/micro/bw_l2.s", d, 3, &c, HOPPER_INI, 0);
        assert_int_equal(x.rc, RUN_OK);
        const uint8_t *tt = buffer_bytes(&x, "tt", NULL);
        int64_t lo[33], hi[33];
        int n[33] = { 0 };
        for (int b = 0; b < 66; b++) {
            int64_t t0 = (int64_t)u64_at(tt, 3 * (uint64_t)b), t1 = (int64_t)u64_at(tt, 3 * (uint64_t)b + 1);
            int sm = (int)u64_at(tt, 3 * (uint64_t)b + 2);
            assert_true(sm >= 0 && sm < 33);
            if (!n[sm] || t0 < lo[sm]) lo[sm] = t0;
            if (!n[sm] || t1 > hi[sm]) hi[sm] = t1;
            n[sm]++;
        }
        double r[33];
        int k = 0;
        for (int sm = 0; sm < 33; sm++)
            if (n[sm]) r[k++] = n[sm] * (2.0 * 1048576 * 4 / 66) / (double)(hi[sm] - lo[sm]);
        for (int i = 1; i < k; i++)   /* median */
            for (int j = i; j > 0 && r[j - 1] > r[j]; j--) { double t = r[j]; r[j] = r[j - 1]; r[j - 1] = t; }
        double rate = r[k / 2], off = (rate - hw) / hw * 100.0;
        printf("   L2 (ld.cg)     H100 %6.1f, gpusim %6.1f bytes/cycle/SM (%+5.1f%%)\n", hw, rate, off);
        assert_true(fabs(off) <= 15.0);
        ran_free(&x);
    }

    load_config(&c, HOPPER_INI);
    DiagList dl = { 0 };
    assert_int_equal(config_set(&c, "gpu.num_sms=1", &dl), 0);
    diag_free(&dl);
    {
        double hw = csv_value(text, "l1_bw,16KiB_per_block_ldca_1024_threads,", "bytes/cycle/SM");
        AsmDefine d[] = { { "PASSES", "64" }, { "SMS", "1" } };
        Ran x;
        run_file(&x, "tests/validation/micro/bw_l1.s", d, 2, &c, HOPPER_INI, 0);
        assert_int_equal(x.rc, RUN_OK);
        const uint8_t *tt = buffer_bytes(&x, "tt", NULL);
        double rate = 16384.0 * 64 / (double)(u64_at(tt, 1) - u64_at(tt, 0)), off = (rate - hw) / hw * 100.0;
        printf("   L1 (ld.ca)     H100 %6.1f, gpusim %6.1f bytes/cycle/SM (%+5.1f%%)\n", hw, rate, off);
        assert_true(fabs(off) <= 15.0);
        ran_free(&x);
    }
    free(text);
}

/* L2 store throughput: tests/validation/micro/partial_st*.s (partial.cu's
 * pw kernel) on a quarter of hopper.ini (33 SMs, 10 channels, 20 slices),
 * a 4 MiB L2-resident region (the H100's 16 MiB / 4).  The cycles of two
 * passes are the elapsed cycles with PASSES 3 less those with PASSES 1;
 * sectors per SM cycle x 4 for the whole GPU, within 15% of partial.csv's
 * sectors_per_sm_cycle_gpu: coalesced f32 (whole sectors), f32 at a 32-byte
 * stride (4 partial sectors a line request) and at a 128-byte stride (one
 * sector a request).  l2.write_cycles and l2.write_sector_cycles model it;
 * reductions (red.global.add at a 32-byte stride and coalesced) cost an
 * atomic request what a store of its sectors costs (l2.atom_lane_cycles).
 * Under the sanitizers (sanitized.h) the 128-byte stride and the strided
 * reduction run: partial-sector stores and the atomic path. */
#define PARTIAL_PATH REF_DIR "measured/partial.csv"
static void store_rates_near_h100(void **state)
{
    (void)state;
    char *text = slurp(PARTIAL_PATH);
    if (!text) fail_msg("cannot read %s", PARTIAL_PATH);
    Config c;
    quarter_hopper(&c, "50MiB");
    /* sectors: those of one pass over ws; the rate is that of `extra` more
     * passes.  The reductions run on half the region and one pass more:
     * their rates are those of 4 MiB and two passes within 1% (52.3 and 54.2
     * against 52.8 and 53.8), in half the simulation time. */
    struct { const char *pat, *row, *ws, *more; double sectors, extra; int sanitized; } b[] = {
        { "0", "store,a_coalesced_f32,", "(4<<20)", "3", 131072, 2, 0 },
        { "1", "store,b_stride32_f32,", "(4<<20)", "3", 131072, 2, 0 },
        { "2", "store,c_stride128_f32,", "(4<<20)", "3", 32768, 2, 1 },
        { "6", "store,g_red_stride32,", "(2<<20)", "2", 65536, 1, 1 },     /* red.global.add: the atomic path */
        { "7", "store,h_red_coalesced,", "(2<<20)", "2", 65536, 1, 0 },
    };
    for (size_t i = 0; i < sizeof b / sizeof b[0]; i++) {
        if (!b[i].sanitized && sanitized_subset()) continue;
        const char *at = strstr(text, b[i].row);
        if (!at) fail_msg("%s has no row %s", PARTIAL_PATH, b[i].row);
        for (int f = 0; f < 7; f++) at = strchr(at, ',') + 1;   /* 8th field */
        double hw = atof(at);
        char path[96];
        snprintf(path, sizeof path, "tests/validation/micro/partial_st%s.s", b[i].pat);
        uint64_t cyc[2];
        for (int k = 0; k < 2; k++) {
            AsmDefine d[] = { { "WS", b[i].ws }, { "SMS", "33" }, { "PASSES", k ? b[i].more : "1" } };
            Ran x;
            run_file(&x, path, d, 3, &c, HOPPER_INI, 0);
            assert_int_equal(x.rc, RUN_OK);
            cyc[k] = x.r.stats.cycles;
            ran_free(&x);
        }
        double sim = 4 * b[i].extra * b[i].sectors / (double)(cyc[1] - cyc[0]), off = (sim - hw) / hw * 100.0;
        printf("   L2 stores %-22s H100 %5.1f, gpusim %5.1f sectors/cycle (%+5.1f%%)\n", b[i].row + 6, hw, sim, off);
        assert_true(fabs(off) <= 15.0);
    }
    free(text);
}

/* L2 atomics on one address: tests/validation/micro/atom_global.s (micro.cu's
 * atom_global, every thread adding to one word), 8 blocks of 1024 threads on
 * hopper.ini; the elapsed cycles of 3 iterations less those of 1 give 16384
 * atomics' time.  micro.csv: 1.3618 atomics/ns at 1980 MHz = 0.688 a cycle
 * (l2.atom_lane_cycles = 1.45); within 5%.  One atomic a cycle before. */
static void same_address_atomics_near_h100(void **state)
{
    (void)state;
    char *text = slurp(MICRO_PATH);
    if (!text) fail_msg("cannot read %s", MICRO_PATH);
    const char *key = "atomic_global,same_address_all_SMs,", *at = strstr(text, key);
    if (!at) fail_msg("%s has no row %s", MICRO_PATH, key);
    double hw = atof(at + strlen(key)) / 1.980;                /* atomics per SM cycle */
    Config c;
    load_config(&c, HOPPER_INI);
    uint64_t cyc[2];
    for (int k = 0; k < 2; k++) {
        AsmDefine d[] = { { "ITERS", k ? "3" : "1" } };
        Ran x;
        run_file(&x, "tests/validation/micro/atom_global.s", d, 1, &c, HOPPER_INI, 0);
        assert_int_equal(x.rc, RUN_OK);
        cyc[k] = x.r.stats.cycles;
        ran_free(&x);
    }
    double sim = 2.0 * 8 * 1024 / (double)(cyc[1] - cyc[0]), off = (sim - hw) / hw * 100.0;
    printf("   atomics on one address: H100 %.3f, gpusim %.3f a cycle (%+5.1f%%)\n", hw, sim, off);
    assert_true(fabs(off) <= 5.0);
    free(text);
}

/* Barrier cost: tests/validation/micro/barrier.s (micro.cu's bar.sync loop)
 * on hopper.ini with one SM, against micro.csv's barrier rows: within 3% up
 * to 8 warps, where arrivals meet the barrier unit together as on the H100,
 * and within 8% at 16 and 32 (gpusim's warps reach the barrier a few cycles
 * apart, through their schedulers' issue: 46.3 and 81.7 against 44.9 and
 * 76.9). */
static void barrier_cost_near_h100(void **state)
{
    (void)state;
    Config c;
    load_config(&c, HOPPER_INI);
    DiagList dl = { 0 };
    assert_int_equal(config_set(&c, "gpu.num_sms=1", &dl), 0);
    char *text = slurp(MICRO_PATH);
    if (!text) fail_msg("cannot read %s", MICRO_PATH);
    const int warps[] = { 1, 2, 4, 8, 16, 32 };
    for (size_t w = 0; w < sizeof warps / sizeof warps[0]; w++) {
        char key[64], wv[16];
        snprintf(key, sizeof key, "barrier,warps=%d,", warps[w]);
        const char *at = strstr(text, key);
        if (!at) fail_msg("%s has no row %s", MICRO_PATH, key);
        double hw = atof(at + strlen(key));
        snprintf(wv, sizeof wv, "%d", warps[w]);
        AsmDefine d[] = { { "W", wv }, { "ITERS", "64" } };
        Ran x;
        run_file(&x, "tests/validation/micro/barrier.s", d, 2, &c, HOPPER_INI, 0);
        assert_int_equal(x.rc, RUN_OK);
        double per = (double)u64_at(buffer_bytes(&x, "tt", NULL), 0) / 64.0, off = (per - hw) / hw * 100.0;
        printf("   bar.sync, %2d warps: H100 %5.1f, gpusim %5.1f cycles (%+5.1f%%)\n", warps[w], hw, per, off);
        assert_true(fabs(off) <= (warps[w] <= 8 ? 3.0 : 8.0));
        ran_free(&x);
    }
    free(text);
    diag_free(&dl);
}

/* Bank-conflict latency: tests/validation/micro/bank_lat.s (micro.cu's shared
 * pointer chase with a k-way conflict on every load, one warp) on hopper.ini
 * against micro.csv's bank_conflict_latency rows (21.3 + 2 k cycles): within
 * 3% for k = 1..32 (smem.replay_lat = 2). */
static void bank_conflict_latency_near_h100(void **state)
{
    (void)state;
    Config c;
    load_config(&c, HOPPER_INI);
    DiagList dl = { 0 };
    assert_int_equal(config_set(&c, "gpu.num_sms=1", &dl), 0);
    char *text = slurp(MICRO_PATH);
    if (!text) fail_msg("cannot read %s", MICRO_PATH);
    for (int k = 1; k <= 32; k *= 2) {
        char key[64], kv[16];
        snprintf(key, sizeof key, "bank_conflict_latency,ways=%d,", k);
        const char *at = strstr(text, key);
        if (!at) fail_msg("%s has no row %s", MICRO_PATH, key);
        double hw = atof(at + strlen(key));
        snprintf(kv, sizeof kv, "%d", k);
        AsmDefine d[] = { { "K", kv }, { "N", "512" } };
        Ran x;
        run_file(&x, "tests/validation/micro/bank_lat.s", d, 2, &c, HOPPER_INI, 0);
        assert_int_equal(x.rc, RUN_OK);
        double per = (double)u64_at(buffer_bytes(&x, "tt", NULL), 0) / 512.0, off = (per - hw) / hw * 100.0;
        printf("   LDS, %2d-way conflict: H100 %5.1f, gpusim %5.1f cycles (%+5.1f%%)\n", k, hw, per, off);
        assert_true(fabs(off) <= 3.0);
        ran_free(&x);
    }
    free(text);
    diag_free(&dl);
}

/* Many warps on the same lines: tests/validation/micro/shared_miss.s
 * (shared_miss.cu: blocks of 8 warps read 512 rows 16 KiB apart) on
 * hopper.ini against shared_miss.csv, the median block's cycles per row.
 * nvcc's PTX has 8 loads a loop; ptxas unrolls it twice (16 loads before
 * the first add, shared_miss's SASS) and the back end's schedule, which
 * keeps a block's values within 32 registers (BACKEND_TARGET_REGS), now
 * issues the 16 PTX loads of its two-step loop ahead too.  From L2 gpusim is
 * then 20-30% fast: the H100 takes 1.3 times longer to answer a warp's
 * burst of 16 loads than gpusim (inflight.csv, mlp.csv; docs/validation.md),
 * a gap pinned here so that a change in either direction is seen; from L1
 * within 25%, which needs l1.set_hash (without it the 512 lines fill one
 * set and the loads go to L2).  Under the sanitizers (sanitized.h) the L1
 * row only: the 132-block rows are most of this test's time there. */
static double median_row_cycles(const Ran *x, int grid)
{
    const uint8_t *tt = buffer_bytes(x, "tt", NULL);
    double v[264];
    for (int b = 0; b < grid; b++) v[b] = (double)u64_at(tt, 2 * (uint64_t)b);
    for (int i = 1; i < grid; i++)
        for (int j = i; j > 0 && v[j - 1] > v[j]; j--) { double t = v[j]; v[j] = v[j - 1]; v[j - 1] = t; }
    return v[grid / 2] / 512.0;
}

static void shared_miss_near_h100(void **state)
{
    (void)state;
    Config c;
    load_config(&c, HOPPER_INI);
    char *text = slurp(REF_DIR "measured/shared_miss.csv");
    if (!text) fail_msg("cannot read shared_miss.csv");
    static const struct { const char *row, *pattern, *grid; double lo_pct, hi_pct; } rows[] = {
        { "shared,132,", "0", "132", -30, -20 }, { "private,132,", "1", "132", -30, -20 }, { "l1hit,16,", "2", "16", -25, 25 },
    };
    for (size_t i = 0; i < sizeof rows / sizeof *rows; i++) {
        if (strcmp(rows[i].grid, "16") && sanitized_subset()) continue;
        const char *at = strstr(text, rows[i].row);
        if (!at) fail_msg("shared_miss.csv has no row %s", rows[i].row);
        double hw = atof(strchr(at + strlen(rows[i].row), ',') + 1);
        AsmDefine d[] = { { "PATTERN", rows[i].pattern }, { "G", rows[i].grid } };
        Ran x;
        run_file(&x, "tests/validation/micro/shared_miss.s", d, 2, &c, HOPPER_INI, 0);
        assert_int_equal(x.rc, RUN_OK);
        double per = median_row_cycles(&x, atoi(rows[i].grid)), off = (per - hw) / hw * 100.0;
        printf("   %-14s H100 %5.1f, gpusim %5.1f cycles a row (%+5.1f%%)\n", rows[i].row, hw, per, off);
        assert_true(off >= rows[i].lo_pct && off <= rows[i].hi_pct);
        ran_free(&x);
    }
    free(text);
}

/* Loads in flight per warp: tests/validation/micro/mlpK.s (mlp.cu: each warp
 * follows K pointer chains at once through L2-resident lines) on hopper.ini
 * against mlp.csv, one block (grid 1), one sector a load: the cycles of one
 * step (one load of each chain) within 5%.  The H100's step grows from 294
 * (K = 1) to 406 (K = 16, one warp): each load leaves about 7 cycles after
 * the one before.  What gives gpusim that: the back end's schedule issuing
 * the K loads ahead (BACKEND_TARGET_REGS) and each processing block's
 * address stage (unit.lsu_groups = 4, unit.lsu_global_cycles = 6). */
static void mlp_near_h100(void **state)
{
    (void)state;
    Config c;
    load_config(&c, HOPPER_INI);
    char *text = slurp(REF_DIR "measured/mlp.csv");
    if (!text) fail_msg("cannot read mlp.csv");
    static const struct { const char *k, *w; } runs[] = { { "1", "1" }, { "8", "1" }, { "16", "1" }, { "16", "8" } };
    for (size_t i = 0; i < sizeof runs / sizeof *runs; i++) {
        char key[96], path[96];
        snprintf(key, sizeof key, "\nl2,1,1,%s,%s,1,128,", runs[i].w, runs[i].k);
        const char *at = strstr(text, key);
        if (!at) fail_msg("mlp.csv has no row %s", key + 1);
        double hw = atof(at + strlen(key));
        snprintf(path, sizeof path, "tests/validation/micro/mlp%s.s", runs[i].k);
        AsmDefine d[] = { { "G", "1" }, { "W", runs[i].w }, { "S", "1" } };
        Ran x;
        run_file(&x, path, d, 3, &c, HOPPER_INI, 0);
        assert_int_equal(x.rc, RUN_OK);
        double per = (double)u64_at(buffer_bytes(&x, "tt", NULL), 0) / 128.0, off = (per - hw) / hw * 100.0;
        printf("   K = %2s loads in flight a warp, %s warps: H100 %6.1f, gpusim %6.1f cycles a step (%+5.1f%%)\n",
               runs[i].k, runs[i].w, hw, per, off);
        assert_true(fabs(off) <= 5.0);
        ran_free(&x);
    }
    free(text);
}

/* Launch overhead: tests/validation/micro/empty_kernel.s (launch.cu's empty
 * kernel) on hopper.ini against launch_overhead_clock_none.csv's empty_kernel
 * rows with one block per SM (grids 1 to 8): elapsed cycles within 5%
 * (gpu.launch_cycles) and the busy SM's active cycles (avg x 132 / grid)
 * within 25% (sm.cta_launch_cycles; the H100's rows spread 244-358). */
static void launch_overhead_near_h100(void **state)
{
    (void)state;
    Config c;
    load_config(&c, HOPPER_INI);
    char *text = slurp(LAUNCH_PATH);
    if (!text) fail_msg("cannot read %s", LAUNCH_PATH);
    int rows = 0;
    for (int g = 1; g <= 8; g *= 2)
        for (int b = 32; b <= 1024; b *= b == 32 ? 8 : 4) {
            char key[96], gv[16], bv[16];
            snprintf(key, sizeof key, "empty_kernel,grid=%d block=%d,", g, b);
            const char *at = strstr(text, key);
            if (!at) fail_msg("%s has no row %s", LAUNCH_PATH, key);
            /* ...,"(g, 1, 1)","(b, 1, 1)",elapsed,active_avg,... */
            const char *f = at;
            for (int k = 0; k < 2 && f; k++) f = strstr(f + (k > 0), "\",");
            if (!f) fail_msg("%s: malformed row %s", LAUNCH_PATH, key);
            double hw_elapsed = atof(f + 2), hw_active = atof(strchr(f + 2, ',') + 1) * c.gpu.num_sms / g;
            snprintf(gv, sizeof gv, "%d", g);
            snprintf(bv, sizeof bv, "%d", b);
            AsmDefine d[] = { { "G", gv }, { "B", bv } };
            Ran x;
            run_file(&x, "tests/validation/micro/empty_kernel.s", d, 2, &c, HOPPER_INI, 0);
            assert_int_equal(x.rc, RUN_OK);
            double el = (double)x.r.stats.cycles, ac = (double)x.r.stats.sm_active_cycles / g;
            double oe = (el - hw_elapsed) / hw_elapsed * 100, oa = (ac - hw_active) / hw_active * 100;
            printf("   empty kernel, %d x %4d: elapsed H100 %5.0f, gpusim %5.0f (%+5.1f%%); busy SM H100 %4.0f, gpusim %4.0f "
                   "(%+5.1f%%)\n", g, b, hw_elapsed, el, oe, hw_active, ac, oa);
            assert_true(fabs(oe) <= 5.0);
            assert_true(fabs(oa) <= 25.0);
            ran_free(&x);
            rows++;
        }
    assert_int_equal(rows, 12);
    /* more blocks than SMs: the GPU-wide dispatcher starts one every
     * gpu.cta_dispatch_cycles (1.2), which the H100's elapsed cycles show
     * growing 1.19 a block from 128 to 1024 blocks: within 3% */
    for (int g = 128; g <= 1024; g *= 2)
        for (int b = 32; b <= 256; b *= 8) {
            char key[96], gv[16], bv[16];
            snprintf(key, sizeof key, "empty_kernel,grid=%d block=%d,", g, b);
            const char *at = strstr(text, key);
            if (!at) fail_msg("%s has no row %s", LAUNCH_PATH, key);
            const char *f = at;
            for (int k = 0; k < 2 && f; k++) f = strstr(f + (k > 0), "\",");
            if (!f) fail_msg("%s: malformed row %s", LAUNCH_PATH, key);
            double hw_elapsed = atof(f + 2);
            snprintf(gv, sizeof gv, "%d", g);
            snprintf(bv, sizeof bv, "%d", b);
            AsmDefine d[] = { { "G", gv }, { "B", bv } };
            Ran x;
            run_file(&x, "tests/validation/micro/empty_kernel.s", d, 2, &c, HOPPER_INI, 0);
            assert_int_equal(x.rc, RUN_OK);
            double el = (double)x.r.stats.cycles, oe = (el - hw_elapsed) / hw_elapsed * 100;
            printf("   empty kernel, %4d x %3d: elapsed H100 %5.0f, gpusim %5.0f (%+5.1f%%)\n", g, b, hw_elapsed, el, oe);
            assert_true(fabs(oe) <= 3.0);
            ran_free(&x);
        }
    free(text);
}

/* The correlation, kept by CI: ten small launches of the validation set
 * (kernels hopper.ini was never calibrated on; tests/validation/split.csv),
 * run from nvcc's PTX (tests/validation/nvcc/) against the H100's
 * kernels_clock_none.csv.  `make validate` runs all of them; this subset
 * fails CI when a change breaks what it shows: each launch's elapsed cycles
 * within 30% and SM-active cycles within 50% of the H100's, and over the
 * ten, mean absolute errors under 15% (elapsed) and 22% (SM-active).  When
 * this subset was chosen: 7.8% and 11.3%.  Since the per-processing-block
 * address stage (unit.lsu_groups, lsu_global_cycles: micro.csv, mlp.csv):
 * 5.6% and 20.1%, the largest gemv_warp_per_row +35% SM-active (+15% of it
 * from that stage: its loop, which ptxas unrolls and the back end does
 * not, waits on each load); the small launches saxpy, jacobi2d, reduce_seq
 * and spmv are 22-30% short of the H100's SM-active cycles, as before. */
static void correlation_subset(void **state)
{
    (void)state;
    static const char *const runs[][2] = {
        { "saxpy", "n=65536" }, { "stencil1d", "n=65536" }, { "jacobi2d", "n=256" }, { "reduce_seq", "n=65536" },
        { "reduce_shfl", "n=65536" }, { "scan_blelloch", "n=65536" }, { "spmv_csr_scalar", "m=65536 nnz=196606" },
        { "softmax_row", "rows=512 cols=1024" }, { "conv2d_3x3_tiled", "n=256" }, { "gemv_warp_per_row", "m=n=256" },
    };
    enum { NRUNS = sizeof runs / sizeof runs[0] };
    Config c;
    load_config(&c, HOPPER_INI);
    char *text = slurp(KERNELS_PATH);
    if (!text) fail_msg("cannot read %s", KERNELS_PATH);
    double err_el = 0, err_act = 0;
    for (int i = 0; i < NRUNS; i++) {
        char key[128];
        snprintf(key, sizeof key, "\n%s,%s,", runs[i][0], runs[i][1]);
        const char *at = strstr(text, key);
        if (!at) fail_msg("%s has no row %s %s", KERNELS_PATH, runs[i][0], runs[i][1]);
        /* kernel,launch,"(grid)","(block)",elapsed,active,... */
        const char *f = at + strlen(key);
        for (int k = 0; k < 2 && f; k++) f = strstr(f + (k > 0), "\",");
        if (!f) fail_msg("%s: malformed row %s", KERNELS_PATH, key);
        double hw_el = atof(f + 2), hw_act = atof(strchr(f + 2, ',') + 1);
        Defines D;
        launch_defines(runs[i][1], &D);
        char path[128];
        snprintf(path, sizeof path, "tests/validation/nvcc/%s.s", runs[i][0]);
        Ran x;
        run_file(&x, path, D.d, D.n, &c, HOPPER_INI, 0);
        assert_int_equal(x.rc, RUN_OK);
        double el = (double)x.r.stats.cycles, act = (double)x.r.stats.sm_active_cycles / c.gpu.num_sms;
        double oe = (el - hw_el) / hw_el * 100, oa = (act - hw_act) / hw_act * 100;
        printf("   %-18s %-20s elapsed H100 %7.0f gpusim %7.0f (%+4.0f%%)  SM-active H100 %7.0f gpusim %7.0f (%+4.0f%%)\n",
               runs[i][0], runs[i][1], hw_el, el, oe, hw_act, act, oa);
        assert_true(fabs(oe) <= 30.0);
        assert_true(fabs(oa) <= 50.0);
        err_el += fabs(oe);
        err_act += fabs(oa);
        ran_free(&x);
    }
    printf("   mean absolute error: elapsed %.1f%%, SM-active %.1f%%\n", err_el / NRUNS, err_act / NRUNS);
    assert_true(err_el / NRUNS <= 15.0);
    assert_true(err_act / NRUNS <= 22.0);
    free(text);
}

/* ---- main --------------------------------------------------------------------------- */

int main(void)
{
    (void)csv_load();     /* a missing or bad file fails reference_present */
    struct CMUnitTest *t = calloc((size_t)csv_nrows + 32, sizeof *t);
    if (!t) return 1;
    int n = 0;
    t[n++] = (struct CMUnitTest){ "reference_present", reference_present, NULL, NULL, NULL };
    t[n++] = (struct CMUnitTest){ "every_kernel_covered", every_kernel_covered, NULL, NULL, NULL };
    for (int i = 0; i < csv_nrows; i++)
        t[n++] = (struct CMUnitTest){ csv_rows[i].name, csv_row_matches, NULL, NULL, &csv_rows[i] };
    t[n++] = (struct CMUnitTest){ "chase_matches_fermi", chase_matches_fermi, NULL, NULL, NULL };
    t[n++] = (struct CMUnitTest){ "chase_matches_hopper", chase_matches_hopper, NULL, NULL, NULL };
    t[n++] = (struct CMUnitTest){ "issue_rates_near_h100", issue_rates_near_h100, NULL, NULL, NULL };
    t[n++] = (struct CMUnitTest){ "barrier_cost_near_h100", barrier_cost_near_h100, NULL, NULL, NULL };
    t[n++] = (struct CMUnitTest){ "bandwidth_near_h100", bandwidth_near_h100, NULL, NULL, NULL };
    t[n++] = (struct CMUnitTest){ "store_rates_near_h100", store_rates_near_h100, NULL, NULL, NULL };
    t[n++] = (struct CMUnitTest){ "same_address_atomics_near_h100", same_address_atomics_near_h100, NULL, NULL, NULL };
    t[n++] = (struct CMUnitTest){ "launch_overhead_near_h100", launch_overhead_near_h100, NULL, NULL, NULL };
    t[n++] = (struct CMUnitTest){ "correlation_subset", correlation_subset, NULL, NULL, NULL };
    t[n++] = (struct CMUnitTest){ "bank_conflict_latency_near_h100", bank_conflict_latency_near_h100, NULL, NULL, NULL };
    t[n++] = (struct CMUnitTest){ "shared_miss_near_h100", shared_miss_near_h100, NULL, NULL, NULL };
    t[n++] = (struct CMUnitTest){ "mlp_near_h100", mlp_near_h100, NULL, NULL, NULL };
    t[n++] = (struct CMUnitTest){ "chase_near_h100", chase_near_h100, NULL, NULL, NULL };
    int rc = _cmocka_run_group_tests("test_validation", t, (size_t)n, NULL, NULL);
    free(t);
    return rc;
}
