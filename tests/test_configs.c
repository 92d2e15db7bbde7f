/* test_configs.c - the shipped architecture descriptions (every configs/X.ini)
 * and warp size as a parameter (issue 6).
 *
 * Configs: each file loads and validates with no error, sets every key of
 * the table with a comment on every value line, names its GPU (gpu.name)
 * on its first line, and its --dump-config text reloads to an equal config
 * that dumps to the same text.
 *
 * Kernels: every kernel in kernels/ passes its .check on every config
 * (functional engine, default size); on configs/tiny.ini (warp size 8) at
 * every "// sizes:" variant too; at warp sizes 4, 16 and 32 as well; and
 * with the timing model on tiny.ini and volta.ini at its smallest size,
 * leaving the same memory as the functional run.
 *
 * Warp size: PTX's WARP_SZ assembles, disassembles and reads sm.warp_size;
 * seed 002's width-8 shuffle table (tests/data/shfl_w8.s) on 8-lane warps
 * and on 8-lane segments of 32-lane warps; %laneid, activemask, ballot and
 * %lanemask_lt at warp sizes 8 and 16 (tests/data/lanes.s); sectors and
 * bank conflicts of one 8-lane warp (tests/data/mem_w8.s).
 *
 * Run from the repo root. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "isa/asm.h"
#include "isa/disasm.h"
#include "sim/base/config.h"
#include "sim/front/run.h"
#include "tests/list_dir.h"

enum { MAX_FILES = 64, MAX_VARIANTS = 9, MAX_DEFS = 8 };

static char *configs[MAX_FILES];
static int nconfigs;
static char *kernels[MAX_FILES];
static int nkernels;

/* ---- helpers ------------------------------------------------------------------ */
static const char *config_path(const char *name)
{
    for (int i = 0; i < nconfigs; i++) {
        const char *base = strrchr(configs[i], '/');
        if (base && !strcmp(base + 1, name)) return configs[i];
    }
    fail_msg("configs/%s is missing", name);
    return NULL;
}

/* Load path, then each "key=value" override; fails the test on any error. */
static void load(Config *c, const char *path, const char *const *sets, int nsets)
{
    DiagList dl = { 0 };
    config_defaults(c);
    int bad = config_load_file(c, path, &dl);
    for (int i = 0; i < nsets; i++) bad |= config_set(c, sets[i], &dl);
    bad |= config_validate(c, &dl);
    if (bad) diag_print(&dl, stderr);
    diag_free(&dl);
    assert_int_equal(bad, 0);
}

static Program *assemble(const char *path, const AsmDefine *d, int nd)
{
    DiagList dl = { 0 };
    AsmOptions o = { d, nd };
    Program *p = asm_assemble_file(path, &o, &dl);
    if (!p) diag_print(&dl, stderr);
    diag_free(&dl);
    assert_non_null(p);
    return p;
}

/* Run and return RUN_*, printing the diagnostics of a bad input. */
static int run(Run *r, const Program *p, const Config *c, const char *cpath, int functional)
{
    DiagList dl = { 0 };
    int rc = run_program(r, p, c, cpath, &(RunOptions){ .functional = functional }, &dl);
    if (rc == RUN_BAD_INPUT) diag_print(&dl, stderr);
    diag_free(&dl);
    return rc;
}

static int same_memory(const Run *a, const Run *b)
{
    if (a->mem.nregions != b->mem.nregions) return 0;
    for (int i = 0; i < a->mem.nregions; i++)
        if (a->mem.regions[i].size != b->mem.regions[i].size ||
            memcmp(a->mem.regions[i].data, b->mem.regions[i].data, (size_t)a->mem.regions[i].size))
            return 0;
    return 1;
}

/* The words of buffer `name` after a run. */
static const uint32_t *buffer_words(const Run *r, const Program *p, const char *name, uint64_t *count)
{
    for (int b = 0; b < p->nbuffers; b++) {
        if (strcmp(p->buffers[b].name, name)) continue;
        Region *g = mem_region_of_buffer(&r->mem, b);
        assert_non_null(g);
        *count = g->size / 4;
        return (const uint32_t *)g->data;
    }
    fail_msg("no buffer %s", name);
    return NULL;
}

typedef struct Variant { AsmDefine defs[MAX_DEFS]; int ndefs; char text[128]; } Variant;

/* The default size (no defines) and each "// sizes:" variant; strings live
 * in buf.  Returns the number of variants, the default included. */
static int variants(const char *path, char *buf, size_t n, Variant *v)
{
    v[0] = (Variant){ .ndefs = 0, .text = "default" };
    int nv = 1;
    FILE *f = fopen(path, "r");
    if (!f) return nv;
    char line[1024];
    while (fgets(line, sizeof line, f)) {
        char *s = strstr(line, "// sizes:");
        if (!s) continue;
        snprintf(buf, n, "%s", s + 9);
        for (char *save = NULL, *var = strtok_r(buf, "|\n", &save); var && nv < MAX_VARIANTS;
             var = strtok_r(NULL, "|\n", &save)) {
            Variant *x = &v[nv++];
            x->ndefs = 0;
            snprintf(x->text, sizeof x->text, "%s", var);
            for (char *s2 = NULL, *kv = strtok_r(var, " \t", &s2); kv && x->ndefs < MAX_DEFS;
                 kv = strtok_r(NULL, " \t", &s2)) {
                char *eq = strchr(kv, '=');
                if (!eq) continue;
                *eq = '\0';
                x->defs[x->ndefs++] = (AsmDefine){ kv, eq + 1 };
            }
        }
        break;
    }
    fclose(f);
    return nv;
}

/* One functional run that must pass its checks; returns its warp instructions. */
static uint64_t passes(const char *kpath, const Variant *v, const Config *c, const char *what)
{
    Program *p = assemble(kpath, v->defs, v->ndefs);
    Run r;
    int rc = run(&r, p, c, what, 1);
    if (rc != RUN_OK) print_error("%s (%s) on %s: exit %d\n", kpath, v->text, what, rc);
    assert_int_equal(rc, RUN_OK);
    uint64_t inst = r.stats.inst;
    run_free(&r);
    program_free(p);
    return inst;
}

/* ---- configs --------------------------------------------------------------------- */
static char *read_text(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f) return NULL;
    char *s = NULL;
    size_t cap = 0, n = 0;
    for (int ch; (ch = fgetc(f)) != EOF;) {
        if (n + 2 > cap) { cap = cap ? 2 * cap : 4096; s = realloc(s, cap); assert_non_null(s); }
        s[n++] = (char)ch;
    }
    fclose(f);
    if (!s) s = calloc(1, 1);
    else s[n] = '\0';
    return s;
}

static char *dump_text(const Config *c)
{
    char *s = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&s, &n);
    assert_non_null(f);
    config_dump(c, f);
    fclose(f);
    return s;
}

/* Every "key = value" line carries a comment with its source. */
static void every_value_commented(const char *path, const char *text)
{
    int line = 0;
    for (const char *s = text; *s;) {
        const char *e = strchr(s, '\n');
        size_t len = e ? (size_t)(e - s) : strlen(s);
        char buf[512];
        snprintf(buf, sizeof buf, "%.*s", (int)(len < sizeof buf ? len : sizeof buf - 1), s);
        line++;
        char *p = buf;
        while (*p == ' ' || *p == '\t') p++;
        if (*p && *p != ';' && *p != '#' && *p != '[') {
            char *semi = strchr(p, ';');
            int ok = semi != NULL;
            if (ok) {
                for (semi++; *semi == ' ' || *semi == '\t'; semi++) {}
                ok = *semi != '\0';
            }
            if (!ok) print_error("%s:%d: a value without a comment naming its source: %s\n", path, line, buf);
            assert_true(ok);
        }
        s += len + (e != NULL);
    }
}

static void test_config_file(void **state)
{
    const char *path = *state;
    Config c;
    load(&c, path, NULL, 0);
    char *text = read_text(path);
    assert_non_null(text);

    /* every key of the table is set by the file itself */
    for (int i = 0; i < config_key_count(); i++) {
        if (c.origin.key[i].line == 0) print_error("%s does not set %s\n", path, config_key_at(i)->name);
        assert_true(c.origin.key[i].line > 0);
    }
    every_value_commented(path, text);
    /* the first line names the GPU the file models */
    assert_true(c.gpu.name[0] != '\0');
    const char *nl = strchr(text, '\n');
    char first[256];
    snprintf(first, sizeof first, "%.*s", nl ? (int)(nl - text) : 255, text);
    if (!strstr(first, c.gpu.name)) print_error("%s: first line does not name \"%s\"\n", path, c.gpu.name);
    assert_non_null(strstr(first, c.gpu.name));

    /* --dump-config reloads to the same config, and dumps to the same text */
    char *d1 = dump_text(&c);
    Config r;
    config_defaults(&r);
    DiagList dl = { 0 };
    int bad = config_load_string(&r, "(dump)", d1, strlen(d1), &dl) | config_validate(&r, &dl);
    if (bad) diag_print(&dl, stderr);
    diag_free(&dl);
    assert_int_equal(bad, 0);
    assert_true(config_equal(&c, &r));
    char *d2 = dump_text(&r);
    assert_string_equal(d1, d2);
    free(d1);
    free(d2);
    free(text);
}

/* The files are the ones issue 6 asks for, and say what they model. */
static void test_config_set(void **state)
{
    (void)state;
    static const struct { const char *file; int sms, warp, lanes, sched, threads, blocks, warps, regs; } want[] = {
        { "fermi.ini", 15, 32, 32, 2, 1536, 8, 48, 32768 },
        { "volta.ini", 80, 32, 64, 4, 2048, 32, 64, 65536 },
        { "ampere.ini", 108, 32, 64, 4, 2048, 32, 64, 65536 },   /* seed 004 */
        { "hopper.ini", 132, 32, 128, 4, 2048, 32, 64, 65536 },  /* reference/h100/latency.txt */
        { "tiny.ini", 1, 8, 8, 1, 1024, 2, 128, 65536 },
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        const char *path = config_path(want[i].file);
        Config c;
        load(&c, path, NULL, 0);
        assert_int_equal(c.gpu.num_sms, want[i].sms);
        assert_int_equal(c.sm.warp_size, want[i].warp);
        assert_int_equal(c.sm.lanes, want[i].lanes);
        assert_int_equal(c.sm.schedulers, want[i].sched);
        assert_int_equal(c.sm.max_threads, want[i].threads);
        assert_int_equal(c.sm.max_blocks, want[i].blocks);
        assert_int_equal(c.sm.max_warps, want[i].warps);
        assert_int_equal(c.sm.registers, want[i].regs);
    }
    /* seed 004: A100's 64 lanes are four 16-lane processing blocks */
    Config a;
    load(&a, config_path("ampere.ini"), NULL, 0);
    assert_int_equal(a.unit.sp_groups, 4);
    assert_int_equal(a.unit.sp_width, 16);
    /* the H100 of the reference directory */
    Config h;
    load(&h, config_path("hopper.ini"), NULL, 0);
    assert_true(h.gpu.core_clock_mhz == 1980.0);
    assert_true(h.gpu.mem_clock_mhz == 2619.0);
    assert_int_equal(h.sm.shared_bytes, 233472);
    assert_int_equal(h.l2.size_bytes, 52428800);
    assert_int_equal(h.l1.hit_lat, 32);          /* micro.csv l1_hit_ca_16KiB 32.1 */
    assert_int_equal(h.l2.hit_lat, 212);         /* micro.csv L2 hit 286 = 32 + 2 x 20 + 212 + 2 */
    assert_int_equal(h.lat.shared, 23);          /* micro.csv lds_chase 23.1 */
    assert_int_equal(h.lat.fma, 4);              /* micro.csv ffma 4.06 */
    assert_int_equal(h.lat.dp, 8);               /* micro.csv dfma 8.04 */
    assert_int_equal(h.lat.sfu, 17);             /* micro.csv mufu_ex2 17.0 */
    assert_int_equal(h.dram.ctrl_lat, 348);      /* calibrated to micro.csv's DRAM chase (test_validation.c) */
    assert_true(h.dram.partition_hash && h.dram.split_cmd_bus);   /* micro.csv dram_bw (hopper.ini header) */
    assert_int_equal(h.icnt.lookahead, 8);       /* micro.csv l2_bw (hopper.ini header) */
    assert_int_equal(h.l1.mshr_merge, 64);       /* Accel-Sim SM90_H100 dl1 "A:512:64" */
    assert_int_equal(h.l2.mshr_merge, 16);       /* calibrated on naive_mm and tiled_mm (hopper.ini header) */
    /* Accel-Sim's merge limits elsewhere: SM80_A100 "A:512:64" / "A:192:4", SM7_QV100 "A:256:8" / "A:192:4" */
    assert_int_equal(a.l1.mshr_merge, 64);
    assert_int_equal(a.l2.mshr_merge, 4);
    Config v;
    load(&v, config_path("volta.ini"), NULL, 0);
    assert_int_equal(v.l1.mshr_merge, 8);
    assert_int_equal(v.l2.mshr_merge, 4);
}

/* ---- kernels on every config ---------------------------------------------------- */
static void test_kernels_on_config(void **state)
{
    const char *cpath = *state;
    Config c;
    load(&c, cpath, NULL, 0);
    Variant def = { .ndefs = 0, .text = "default" };
    for (int k = 0; k < nkernels; k++) passes(kernels[k], &def, &c, cpath);
}

/* Warp size 8: every size variant of every kernel. */
static void test_kernel_sizes_tiny(void **state)
{
    (void)state;
    const char *cpath = config_path("tiny.ini");
    Config c;
    load(&c, cpath, NULL, 0);
    for (int k = 0; k < nkernels; k++) {
        char buf[1024];
        Variant v[MAX_VARIANTS];
        int nv = variants(kernels[k], buf, sizeof buf, v);
        for (int i = 1; i < nv; i++) passes(kernels[k], &v[i], &c, cpath);
    }
}

/* Warp sizes 4, 16 and 32 on the classroom SM (8 is tiny.ini itself). */
static void test_kernels_every_warp_size(void **state)
{
    (void)state;
    static const char *const sets[][2] = {
        { "sm.warp_size=4", "sm.max_warps=256" },
        { "sm.warp_size=16", "sm.max_warps=64" },
        { "sm.warp_size=32", "sm.max_warps=32" },
    };
    const char *cpath = config_path("tiny.ini");
    Variant def = { .ndefs = 0, .text = "default" };
    for (size_t s = 0; s < sizeof sets / sizeof sets[0]; s++) {
        Config c;
        load(&c, cpath, sets[s], 2);
        for (int k = 0; k < nkernels; k++) passes(kernels[k], &def, &c, sets[s][0]);
    }
}

/* The timing model on tiny.ini and volta.ini, each kernel at its smallest
 * size (the variant with the fewest warp instructions on tiny.ini): the
 * checks pass and the memory is the functional run's. */
static void test_kernels_timed(void **state)
{
    (void)state;
    static const char *const names[] = { "tiny.ini", "volta.ini" };
    Config c[2];
    for (int n = 0; n < 2; n++) load(&c[n], config_path(names[n]), NULL, 0);
    for (int k = 0; k < nkernels; k++) {
        char buf[1024];
        Variant v[MAX_VARIANTS];
        int nv = variants(kernels[k], buf, sizeof buf, v), best = 0;
        uint64_t least = UINT64_MAX;
        for (int i = 0; i < nv; i++) {
            uint64_t inst = passes(kernels[k], &v[i], &c[0], names[0]);
            if (inst < least) { least = inst; best = i; }
        }
        Program *p = assemble(kernels[k], v[best].defs, v[best].ndefs);
        for (int n = 0; n < 2; n++) {
            Run f, t;
            assert_int_equal(run(&f, p, &c[n], names[n], 1), RUN_OK);
            int rc = run(&t, p, &c[n], names[n], 0);
            if (rc != RUN_OK) print_error("%s (%s) timed on %s: exit %d\n", kernels[k], v[best].text, names[n], rc);
            assert_int_equal(rc, RUN_OK);
            if (!same_memory(&f, &t)) print_error("%s (%s) on %s: timing memory differs\n", kernels[k], v[best].text, names[n]);
            assert_true(same_memory(&f, &t));
            assert_int_equal(f.stats.inst, t.stats.inst);
            assert_true(t.stats.cycles > 0);
            run_free(&f);
            run_free(&t);
        }
        program_free(p);
    }
}

/* ---- WARP_SZ ----------------------------------------------------------------------- */
static Program *asm_text(const char *body, DiagList *dl)
{
    char text[1024];
    snprintf(text, sizeof text, ".entry k (.param .u64 out)\n{\n%s\n    ret;\n}\n", body);
    return asm_assemble("t.s", text, strlen(text), NULL, dl);
}

static void expect_error(const char *body, const char *msg)
{
    DiagList dl = { 0 };
    Program *p = asm_text(body, &dl);
    assert_null(p);
    int found = 0;
    for (int i = 0; i < dl.n; i++) found |= strstr(dl.v[i].msg, msg) != NULL;
    if (!found) { print_error("expected \"%s\" for: %s\n", msg, body); diag_print(&dl, stderr); }
    assert_true(found);
    diag_free(&dl);
}

static void test_warp_sz_assembles(void **state)
{
    (void)state;
    DiagList dl = { 0 };
    Program *p = asm_text("    mov.u32 %r1, WARP_SZ;\n    rem.u32 %r2, %r1, WARP_SZ;\n"
                          "    shfl.sync.down.b32 %r3, %r1, 1, WARP_SZ, 0xffffffff;", &dl);
    if (!p) diag_print(&dl, stderr);
    assert_non_null(p);
    const Entry *e = &p->entries[0];
    assert_int_equal(e->code[0].opd[1].kind, OPD_SREG);
    assert_int_equal(e->code[0].opd[1].r[0], SR_WARP_SZ);
    assert_int_equal(e->code[1].opd[2].kind, OPD_SREG);
    assert_int_equal(e->code[2].opd[3].r[0], SR_WARP_SZ);
    char buf[256];
    disasm_instr(p, e, &e->code[0], buf, sizeof buf);
    assert_non_null(strstr(buf, "mov.u32 %r1, WARP_SZ"));
    disasm_instr(p, e, &e->code[1], buf, sizeof buf);
    assert_non_null(strstr(buf, "rem.u32 %r2, %r1, WARP_SZ"));
    program_free(p);
    diag_free(&dl);
    /* a run-time value: no assemble-time arithmetic, no float or predicate
     * slot, no barrier operand, no .define of it */
    expect_error("    mov.u32 %r1, WARP_SZ-1;", "not an assemble-time constant");
    expect_error("    mov.u32 %r1, (WARP_SZ);", "not an assemble-time constant");
    expect_error("    mov.u32 %r1, 2*WARP_SZ;", "not an assemble-time constant");
    expect_error("    add.f32 %f1, %f2, WARP_SZ;", "WARP_SZ is an integer");
    expect_error("    bar.sync 0, WARP_SZ;", "cannot be a barrier operand");
    DiagList d2 = { 0 };
    const char *def = ".define WARP_SZ 32\n.entry k ()\n{\n    ret;\n}\n";
    assert_null(asm_assemble("t.s", def, strlen(def), NULL, &d2));
    assert_true(d2.n > 0 && strstr(d2.v[0].msg, "predefined warp size") != NULL);
    diag_free(&d2);
}

/* ---- seed 002: width-8 shuffles --------------------------------------------------- */
static void check_shfl_table(const char *cpath, const char *const *sets, int nsets, int functional)
{
    Config c;
    load(&c, cpath, sets, nsets);
    Program *p = assemble("tests/data/shfl_w8.s", NULL, 0);
    Run r;
    int rc = run(&r, p, &c, cpath, functional);
    assert_int_equal(rc, RUN_OK);   /* its .check compares all 80 values */
    uint64_t n;
    const uint32_t *o = buffer_words(&r, p, "out", &n);
    assert_int_equal(n, 80);
    /* seed 002, w = 8, lanes 0..7 of each group of 8 threads */
    static const uint32_t lane[8] = { 0, 1, 2, 3, 4, 5, 6, 7 };
    static const uint32_t up2[8] = { 0, 1, 0, 1, 2, 3, 4, 5 };     /* t gets t-2; 0 and 1 keep their own */
    static const uint32_t down2[8] = { 2, 3, 4, 5, 6, 7, 6, 7 };   /* t gets t+2; 6 and 7 keep their own */
    static const uint32_t xor2[8] = { 2, 3, 0, 1, 6, 7, 4, 5 };    /* "异或后的结果分别是 2 3 0 1 6 7 4 5" */
    for (int g = 0; g < 2; g++)
        for (int l = 0; l < 8; l++) {
            uint32_t base = (uint32_t)(8 * g);
            assert_int_equal(o[0 * 16 + 8 * g + l], lane[l]);
            assert_int_equal(o[1 * 16 + 8 * g + l], base + up2[l]);
            assert_int_equal(o[2 * 16 + 8 * g + l], base + down2[l]);
            assert_int_equal(o[3 * 16 + 8 * g + l], base + xor2[l]);
            assert_int_equal(o[4 * 16 + 8 * g + l], base + 3);
        }
    run_free(&r);
    program_free(p);
}

static void test_seed002_shuffle_width8(void **state)
{
    (void)state;
    const char *tiny = config_path("tiny.ini");
    check_shfl_table(tiny, NULL, 0, 1);                  /* 8-lane warps */
    check_shfl_table(tiny, NULL, 0, 0);                  /* the same through the timing model */
    check_shfl_table(config_path("fermi.ini"), NULL, 0, 1);   /* 8-lane segments of 32-lane warps */
}

/* ---- %laneid, activemask, ballot at warp sizes 8 and 16 ---------------------------- */
static void check_lanes(int ws)
{
    char wsset[32], mwset[32];
    snprintf(wsset, sizeof wsset, "sm.warp_size=%d", ws);
    snprintf(mwset, sizeof mwset, "sm.max_warps=%d", 1024 / ws);
    const char *sets[] = { wsset, mwset };
    Config c;
    load(&c, config_path("tiny.ini"), sets, 2);
    Program *p = assemble("tests/data/lanes.s", NULL, 0);
    Run r;
    assert_int_equal(run(&r, p, &c, wsset, 1), RUN_OK);
    enum { T = 40 };
    uint64_t n;
    const uint32_t *o = buffer_words(&r, p, "out", &n);
    assert_int_equal(n, 7 * T);
    for (uint32_t t = 0; t < T; t++) {
        uint32_t lane = t % (uint32_t)ws, warp = t / (uint32_t)ws;
        uint32_t live = T - warp * (uint32_t)ws;
        if (live > (uint32_t)ws) live = (uint32_t)ws;
        uint32_t valid = live == 32 ? 0xffffffffu : (1u << live) - 1;
        assert_int_equal(o[0 * T + t], (uint32_t)ws);                 /* WARP_SZ */
        assert_int_equal(o[1 * T + t], lane);                         /* %laneid */
        assert_int_equal(o[2 * T + t], warp);
        assert_int_equal(o[3 * T + t], valid);                        /* activemask */
        assert_int_equal(o[4 * T + t], (lane & 1) ? (valid & 0xaaaaaaaau) : 0u);
        assert_int_equal(o[5 * T + t], valid & 7u);                   /* ballot(lane < 3) */
        assert_int_equal(o[6 * T + t], (1u << lane) - 1);             /* %lanemask_lt */
    }
    run_free(&r);
    program_free(p);
}

static void test_lanes_warp_size_8_and_16(void **state)
{
    (void)state;
    check_lanes(8);   /* 5 full warps */
    check_lanes(16);  /* warps of 16, 16 and 8 live lanes */
}

/* ---- coalescing and banks of one 8-lane warp ---------------------------------------- */
static void test_memory_warp_size_8(void **state)
{
    (void)state;
    static const struct { const char *stride; uint64_t sectors, wavefronts; } cases[] = {
        { "1", 1, 1 },   /* 8 lanes x 4 bytes = one 32-byte sector; banks 0..7 */
        { "2", 2, 2 },   /* 64 bytes; banks 0,2,4,6 twice: 2-way conflict */
        { "4", 4, 4 },   /* 128 bytes, one line; banks 0 and 4: 4-way */
        { "8", 8, 8 },   /* one sector per lane; all lanes in bank 0: 8-way */
    };
    const char *cpath = config_path("tiny.ini");
    Config c;
    load(&c, cpath, NULL, 0);
    assert_int_equal(c.sm.warp_size, 8);
    assert_int_equal(c.smem.banks, 8);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        for (int functional = 1; functional >= 0; functional--) {
            AsmDefine d = { "STRIDE", cases[i].stride };
            Program *p = assemble("tests/data/mem_w8.s", &d, 1);
            Run r;
            assert_int_equal(run(&r, p, &c, cpath, functional), RUN_OK);
            const Stats *s = &r.stats;
            assert_int_equal(s->requests[0][0], 1);               /* one warp load, one request */
            assert_int_equal(s->sectors[0][0], cases[i].sectors);
            assert_int_equal(s->requests[0][1], 1);
            assert_int_equal(s->sectors[0][1], 1);                /* out[l]: stride 1 */
            assert_int_equal(s->smem_wavefronts[0], cases[i].wavefronts);
            assert_int_equal(s->smem_conflicts[0], cases[i].wavefronts - 1);
            assert_int_equal(s->smem_wavefronts[1], cases[i].wavefronts);
            assert_int_equal(s->smem_conflicts[1], cases[i].wavefronts - 1);
            run_free(&r);
            program_free(p);
        }
}

int main(void)
{
    nconfigs = list_dir("configs", ".ini", configs, MAX_FILES);
    nkernels = list_dir("kernels", ".s", kernels, MAX_FILES);
    struct CMUnitTest tests[2 * MAX_FILES + 16];
    int n = 0;
    for (int i = 0; i < nconfigs; i++)
        tests[n++] = (struct CMUnitTest){ configs[i], test_config_file, NULL, NULL, configs[i] };
    tests[n++] = (struct CMUnitTest){ "config_set", test_config_set, NULL, NULL, NULL };
    for (int i = 0; i < nconfigs; i++) {
        static char names[MAX_FILES][600];
        snprintf(names[i], sizeof names[i], "kernels on %s", configs[i]);
        tests[n++] = (struct CMUnitTest){ names[i], test_kernels_on_config, NULL, NULL, configs[i] };
    }
    tests[n++] = (struct CMUnitTest){ "kernel_sizes_tiny", test_kernel_sizes_tiny, NULL, NULL, NULL };
    tests[n++] = (struct CMUnitTest){ "kernels_every_warp_size", test_kernels_every_warp_size, NULL, NULL, NULL };
    tests[n++] = (struct CMUnitTest){ "kernels_timed", test_kernels_timed, NULL, NULL, NULL };
    tests[n++] = (struct CMUnitTest){ "warp_sz_assembles", test_warp_sz_assembles, NULL, NULL, NULL };
    tests[n++] = (struct CMUnitTest){ "seed002_shuffle_width8", test_seed002_shuffle_width8, NULL, NULL, NULL };
    tests[n++] = (struct CMUnitTest){ "lanes_warp_size_8_and_16", test_lanes_warp_size_8_and_16, NULL, NULL, NULL };
    tests[n++] = (struct CMUnitTest){ "memory_warp_size_8", test_memory_warp_size_8, NULL, NULL, NULL };
    int rc = _cmocka_run_group_tests("configs", tests, (size_t)n, NULL, NULL);
    for (int i = 0; i < nconfigs; i++) free(configs[i]);
    for (int i = 0; i < nkernels; i++) free(kernels[i]);
    return rc;
}
