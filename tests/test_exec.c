/* test_exec.c - instruction semantics through the real pipeline.
 *
 * Every case is a kernel text that goes through the assembler, run_program
 * in functional mode (warp_issue -> exec_instr) and memory, and is judged by
 * what it stored in a global buffer.  Scalar cases are tables: one thread
 * runs every row in turn and stores the row's result register in slot i of
 * `out`.  Warp-level behaviour (special registers, shuffles, votes, atomics,
 * divergence) gets hand-written kernels.  Expected values follow the PTX ISA
 * manual; where PTX leaves a result undefined they pin gpusim's documented
 * choice (docs/isa.md).  The last test fails if an opcode of isa/isa.def has
 * no semantics case.  Run from the repo root.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "isa/asm.h"
#include "sim/base/config.h"
#include "sim/core/warp.h"
#include "sim/front/report.h"
#include "sim/front/run.h"
#include "tests/kernel_text.h"

/* ---- running a kernel text ----------------------------------------------------- */

typedef struct Sim {
    Program *p;
    Config cfg;
    Run run;
    int rc;
} Sim;

/* Opcodes that appeared in a program some test ran (see test_every_opcode). */
static int seen_op[OP_COUNT];

static void print_diags(const DiagList *dl)
{
    for (int i = 0; i < dl->n; i++) {
        const Diag *d = &dl->v[i];
        print_error("t.s:%d:%d: %s\n", d->line, d->col, d->msg);
        if (d->src) print_error("    %s\n", d->src);
    }
}

/* Assemble src and run it functionally with the default config; returns
 * the RUN_* code.  The text must assemble. */
static int sim_run_max(Sim *s, const char *src, uint64_t max_cycles)
{
    DiagList dl = { 0 };
    memset(s, 0, sizeof *s);
    config_defaults(&s->cfg);
    s->p = asm_assemble("t.s", src, strlen(src), NULL, &dl);
    if (!s->p) print_diags(&dl);
    assert_non_null(s->p);
    for (int e = 0; e < s->p->nentries; e++)
        for (int i = 0; i < s->p->entries[e].ncode; i++) seen_op[s->p->entries[e].code[i].op] = 1;
    RunOptions o = { .functional = 1, .max_cycles = max_cycles };
    s->rc = run_program(&s->run, s->p, &s->cfg, "(defaults)", &o, &dl);
    if (s->rc == RUN_BAD_INPUT) print_diags(&dl);
    diag_free(&dl);
    return s->rc;
}

static int sim_run(Sim *s, const char *src) { return sim_run_max(s, src, 0); }

/* A kernel file's text (up to 8 KB), for sim_ok: valid until the next call. */
static const char *load_src(const char *path)
{
    static char src[8192];
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    size_t n = fread(src, 1, sizeof src - 1, f);
    fclose(f);
    src[n] = '\0';
    return src;
}

/* Run and insist that it ran to the end (no fault, checks passed). */
static void sim_ok(Sim *s, const char *src)
{
    int rc = sim_run(s, src);
    if (rc == RUN_FAULT) report_fault(&s->run, stderr);
    if (rc == RUN_CHECK_FAILED) report_checks(&s->run, stderr);
    assert_int_equal(rc, RUN_OK);
}

static void *sim_buf(Sim *s, const char *name)
{
    int b = program_find_buffer(s->p, name);
    assert_true(b >= 0);
    Region *r = mem_region_of_buffer(&s->run.mem, b);
    assert_non_null(r);
    return r->data;
}

static void sim_free(Sim *s)
{
    run_free(&s->run);
    program_free(s->p);
    s->p = NULL;
}

static uint32_t f2u(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static float u2f(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }

/* Replace every `from` in text (a template) by `to`; the caller frees. */
static char *subst(const char *text, const char *from, const char *to)
{
    size_t nf = strlen(from), nt = strlen(to), n = 0;
    for (const char *q = strstr(text, from); q; q = strstr(q + nf, from)) n++;
    char *out = malloc(strlen(text) + n * nt + 1), *w = out;
    assert_non_null(out);
    for (const char *q = text, *hit; ; q = hit + nf) {
        hit = strstr(q, from);
        size_t len = hit ? (size_t)(hit - q) : strlen(q);
        memcpy(w, q, len);
        w += len;
        if (!hit) break;
        memcpy(w, to, nt);
        w += nt;
    }
    *w = '\0';
    return out;
}

/* ---- scalar cases: one thread, one row per result ---------------------------------- */

/* Where a row leaves its result: %rs1, %r1, %rd1, %f1, %fd1 or %p1. */
typedef enum Dest { D_R16, D_R32, D_R64, D_F32, D_F64, D_PRED } Dest;

typedef struct Case {
    const char *code;    /* PTX statements; inputs in %r2.., %rd2.., %f2.., %p2.. */
    Dest dest;
    uint64_t want;       /* exact bits of the result (tol == 0, !nan) */
    double approx, tol;  /* tol > 0: the float result within tol of approx */
    int nan;             /* the result must be a NaN (any payload) */
} Case;

static const char *const dest_store[] = {
    [D_R16] = "st.global.b16 [%%rd99+%d], %%rs1;\n",
    [D_R32] = "st.global.b32 [%%rd99+%d], %%r1;\n",
    [D_R64] = "st.global.b64 [%%rd99+%d], %%rd1;\n",
    [D_F32] = "st.global.f32 [%%rd99+%d], %%f1;\n",
    [D_F64] = "st.global.f64 [%%rd99+%d], %%fd1;\n",
    [D_PRED] = "selp.u32 %%r99, 1, 0, %%p1;\nst.global.u32 [%%rd99+%d], %%r99;\n",
};

/* Before each row the result register gets a sentinel, so a row that
 * writes nothing cannot pass on the previous row's value. */
static const char *const dest_poison[] = {
    [D_R16] = "mov.b16 %rs1, 0x5a5a;\n",
    [D_R32] = "mov.b32 %r1, 0x5a5a5a5a;\n",
    [D_R64] = "mov.b64 %rd1, 0x5a5a5a5a5a5a5a5a;\n",
    [D_F32] = "mov.b32 %f1, 0x5a5a5a5a;\n",
    [D_F64] = "mov.b64 %fd1, 0x5a5a5a5a5a5a5a5a;\n",
    [D_PRED] = NULL,   /* the opposite of the expected value, below */
};

static uint64_t dest_mask(Dest d)
{
    return d == D_R16 ? 0xffffu : (d == D_R64 || d == D_F64) ? ~0ull : 0xffffffffu;
}

/* Runs every row in one kernel; returns the run's division-by-zero count. */
static uint64_t run_cases_n(const Case *c, int n)
{
    size_t cap = 4096 + (size_t)n * 400, len = 0;
    char *src = malloc(cap);
    assert_non_null(src);
    len += (size_t)snprintf(src + len, cap - len,
                            ".buffer out .u64[%d] zero\n"
                            ".launch k grid=1 block=1 args=(out)\n"
                            ".entry k (.param .u64 o)\n{\n"
                            "ld.param.u64 %%rd99, [o];\n", n);
    for (int i = 0; i < n; i++) {
        if (c[i].dest == D_PRED)
            len += (size_t)snprintf(src + len, cap - len, "setp.eq.u32 %%p1, %d, 0;\n", c[i].want ? 1 : 0);
        else
            len += (size_t)snprintf(src + len, cap - len, "%s", dest_poison[c[i].dest]);
        len += (size_t)snprintf(src + len, cap - len, "%s;\n", c[i].code);
        len += (size_t)snprintf(src + len, cap - len, dest_store[c[i].dest], 8 * i);
        assert_true(len < cap - 512);
    }
    len += (size_t)snprintf(src + len, cap - len, "ret;\n}\n");
    Sim s;
    sim_ok(&s, src);
    const uint64_t *out = sim_buf(&s, "out");
    int bad = 0;
    for (int i = 0; i < n; i++) {
        uint64_t got = out[i] & dest_mask(c[i].dest);
        double gf = 0;
        if (c[i].dest == D_F32) gf = u2f((uint32_t)got);
        else if (c[i].dest == D_F64) memcpy(&gf, &got, 8);
        int ok;
        if (c[i].nan) ok = isnan(gf);
        else if (c[i].tol > 0) ok = fabs(gf - c[i].approx) <= c[i].tol;
        else ok = got == (c[i].want & dest_mask(c[i].dest));
        if (!ok) {
            bad++;
            if (c[i].nan) print_error("row %d `%s`: got 0x%llx (%g), want a NaN\n", i, c[i].code, (unsigned long long)got, gf);
            else if (c[i].tol > 0) print_error("row %d `%s`: got %.9g, want %.9g +- %g\n", i, c[i].code, gf, c[i].approx, c[i].tol);
            else print_error("row %d `%s`: got 0x%llx, want 0x%llx\n", i, c[i].code, (unsigned long long)got,
                             (unsigned long long)(c[i].want & dest_mask(c[i].dest)));
        }
    }
    uint64_t dz = s.run.stats.div_by_zero;
    sim_free(&s);
    free(src);
    if (bad) fail_msg("%d of %d rows wrong", bad, n);
    return dz;
}

/* Rows: an exact result, a float result within a tolerance, a NaN. */
#define EQ(code, dest, bits) { code, dest, bits, 0, 0, 0 }
#define NEAR(code, dest, value, tol) { code, dest, 0, value, tol, 0 }
#define ISNAN(code, dest) { code, dest, 0, 0, 0, 1 }

#define run_cases(t) run_cases_n(t, (int)(sizeof(t) / sizeof(t)[0]))

/* ---- integer arithmetic ------------------------------------------------------------ */

static const Case int_add_cases[] = {
    EQ("add.u32 %r1, 0xffffffff, 1", D_R32, 0),
    EQ("add.s32 %r1, 0x7fffffff, 1", D_R32, 0x80000000u),                /* wraps, no trap */
    EQ("sub.u32 %r1, 0, 1", D_R32, 0xffffffffu),
    EQ("sub.s32 %r1, -2147483648, 1", D_R32, 0x7fffffffu),
    EQ("add.u64 %rd1, 0xffffffffffffffff, 2", D_R64, 1),
    EQ("add.s64 %rd1, 0x7fffffffffffffff, 1", D_R64, 0x8000000000000000ull),
    EQ("mov.b64 %rd2, 0x8000000000000000; sub.s64 %rd1, %rd2, 1", D_R64, 0x7fffffffffffffffull),
    EQ("add.u16 %rs1, 0xffff, 1", D_R16, 0),
    EQ("add.s16 %rs1, 0x7fff, 1", D_R16, 0x8000),
    EQ("sub.s16 %rs1, 0, 1", D_R16, 0xffff),
    /* .sat clamps s32 to [INT_MIN, INT_MAX] */
    EQ("add.sat.s32 %r1, 0x7fffffff, 1", D_R32, 0x7fffffffu),
    EQ("add.sat.s32 %r1, -2147483648, -1", D_R32, 0x80000000u),
    EQ("add.sat.s32 %r1, 0x7fffffff, 0x7fffffff", D_R32, 0x7fffffffu),
    EQ("add.sat.s32 %r1, 5, -7", D_R32, 0xfffffffeu),
    EQ("sub.sat.s32 %r1, -2147483648, 1", D_R32, 0x80000000u),
    EQ("sub.sat.s32 %r1, 0x7fffffff, -1", D_R32, 0x7fffffffu),
    EQ("sub.sat.s32 %r1, 0, -2147483648", D_R32, 0x7fffffffu),
    /* registers as operands, including the same register twice */
    EQ("mov.u32 %r2, 40; add.u32 %r1, %r2, %r2", D_R32, 80),
    EQ("mov.s32 %r2, -5; sub.s32 %r1, %r2, 10", D_R32, (uint32_t)-15),
};

static void test_int_add_sub(void **state)
{
    (void)state;
    run_cases(int_add_cases);
}

/* gpusim accepts registers wider than a 16-bit type (docs/isa.md, syntax):
 * the result is computed at the type's width and extended by its
 * signedness into the register, as PTX does for ld and cvt. */
static const Case narrow_in_wide_cases[] = {
    EQ("add.u16 %r1, 0xffff, 2", D_R32, 1),
    EQ("add.s16 %r1, 0x7fff, 1", D_R32, 0xffff8000u),
    EQ("mul.lo.u16 %r1, 0x100, 0x100", D_R32, 0),
    EQ("sub.u16 %r1, 0, 1", D_R32, 0xffff),
    EQ("neg.s16 %r1, 1", D_R32, 0xffffffffu),
    EQ("shl.b16 %r1, 0x8001, 1", D_R32, 2),
    EQ("not.b16 %r1, 0", D_R32, 0xffff),
};

/* Register rows (kernel.h): a register of 32 bits or fewer gets 4-byte
 * lanes, a 64-bit one 8-byte lanes, rows in declaration order, each rounded
 * up to 8 bytes (so 8-byte rows stay aligned at any warp size).  Then one
 * warp's writes: each stays in its row, a 32-bit value reads back
 * zero-extended, and 64-bit values split into and load into 32-bit rows. */
static void test_register_rows(void **state)
{
    (void)state;
    static const char src[] =
        ".buffer out .u64[1] zero\n"
        ".launch k grid=(1) block=(32) args=(out)\n"
        ".entry k(.param .u64 po)\n"
        "{\n"
        "    .reg .b16 %h<2>;\n"
        "    .reg .b32 %r<3>;\n"
        "    .reg .b64 %rd<3>;\n"
        "    .reg .f32 %f<2>;\n"
        "    .reg .f64 %fd<2>;\n"
        "    ld.param.u64 %rd1, [po];\n"
        "    mov.b32 %r1, -1;\n"
        "    mov.b16 %h1, -1;\n"
        "    cvt.u64.u32 %rd2, %r1;\n"
        "    add.s64 %rd0, %rd2, 1;\n"
        "    mov.b64 {%r0, %r2}, %rd0;\n"
        "    st.global.u64 [%rd1], %rd0;\n"
        "    ld.global.v2.f32 {%f0, %f1}, [%rd1];\n"
        "    ret;\n"
        "}\n";
    /* 7 registers of 4-byte lanes, 5 of 8-byte lanes; a 7-lane warp's
     * 28-byte rows round up to 32 */
    KernelRig rig;
    rig_init(&rig, "rows.s", src, 7);
    assert_int_equal(rig.k.entry->nregs, 12);
    assert_int_equal(rig.k.row_off[rig.k.entry->nregs], 7 * 32 + 5 * 56);
    for (int r = 0; r < rig.k.entry->nregs; r++) assert_int_equal(rig.k.row_off[r] % 8, 0);
    rig_free(&rig);
    rig_init(&rig, "rows.s", src, 32);
    Kernel *k = &rig.k;
    const Entry *e = k->entry;
    int h0 = reg_index(e, "%h0"), h1 = reg_index(e, "%h1"), r0 = reg_index(e, "%r0"), r1 = reg_index(e, "%r1");
    int r2 = reg_index(e, "%r2"), rd0 = reg_index(e, "%rd0"), rd2 = reg_index(e, "%rd2");
    int f0 = reg_index(e, "%f0"), f1 = reg_index(e, "%f1"), fd0 = reg_index(e, "%fd0");
    assert_int_equal(k->row_off[e->nregs], 7 * 128 + 5 * 256);
    assert_int_equal(k->row_off[h1] - k->row_off[h0], 128);
    assert_int_equal(k->row_off[r0] - k->row_off[h1], 128);
    assert_int_equal(k->row_off[rd0] - k->row_off[r2], 128);
    assert_int_equal(k->row_off[f0] - k->row_off[rd2], 256);
    assert_int_equal(k->row_off[fd0] - k->row_off[f1], 128);
    assert_int_equal(k->row_wide[r1], 0);
    assert_int_equal(k->row_wide[h0], 0);
    assert_int_equal(k->row_wide[f0], 0);
    assert_int_equal(k->row_wide[rd0], 1);
    assert_int_equal(k->row_wide[fd0], 1);
    Cta c;
    assert_int_equal(cta_init(k, &c, 0, 0), 0);
    /* the rows start on a host cache line (lines_alloc): a row of 4-byte
     * lanes is two 64-byte lines, one of 8-byte lanes four; so after
     * cta_next, which clears them in place.  So do the warp records, each
     * a whole number of lines, so that every warp's issue fields share
     * its first (kernel.h) */
    assert_int_equal((uintptr_t)c.regs % 64, 0);
    assert_int_equal((uintptr_t)c.warps % 64, 0);
    assert_int_equal(sizeof(Warp) % 64, 0);
    assert_int_equal(cta_next(k, &c, 0, 0), 0);
    assert_int_equal((uintptr_t)c.regs % 64, 0);
    assert_int_equal((uintptr_t)c.warps % 64, 0);
    Warp *w = &c.warps[0];
    assert_int_equal((uintptr_t)w->rb % 64, 0);
    assert_int_equal((uintptr_t)&c.warps[1] % 64, 0);
    assert_int_equal((uintptr_t)&w->simt.in_place[1] / 64, (uintptr_t)w / 64);
    ExecOut out;
    for (int i = 0; i < 8; i++) assert_int_equal(warp_issue(k, w, &out), ISSUE_OK);
    for (int l = 0; l < 32; l += 31) {
        assert_int_equal(reg_get(k, w, r1, l), 0xffffffffu);
        assert_int_equal(reg_get(k, w, h1, l), 0xffffu);
        assert_int_equal(reg_get(k, w, h0, l), 0);                  /* the rows beside them untouched */
        assert_int_equal(reg_get(k, w, reg_index(e, "%rd2"), l), 0xffffffffull);
        assert_int_equal(reg_get(k, w, rd0, l), 0x100000000ull);
        assert_int_equal(reg_get(k, w, r0, l), 0);                  /* the low half */
        assert_int_equal(reg_get(k, w, r2, l), 1);                  /* the high half */
        assert_int_equal(reg_get(k, w, f0, l), 0);
        assert_int_equal(reg_get(k, w, f1, l), 1);
    }
    assert_int_equal(*(uint64_t *)mem_region_of_buffer(&rig.mem, 0)->data, 0x100000000ull);
    cta_free(&c);
    rig_free(&rig);

    /* The rows shared as the registers' lives allow (kernel_pack_rows),
     * worked out by hand.  4-byte rows, colours in order of first use:
     * %r1 0; %h1 1 (written while %r1 is live); %r0 0, %r2 1 (written
     * together); %f0 0, %f1 1; %h0, which nothing names, a third row of
     * its own.  8-byte rows: %rd1 0 (live to the end); %rd2 1; %rd0 2
     * (written while %rd1 is live, and from %rd2, whose row it may not
     * take); %fd0 and %fd1 share a fourth.  3 x 128 + 4 x 256 bytes, not
     * 7 x 128 + 5 x 256.  The warp leaves the same memory. */
    rig_init(&rig, "rows.s", src, 32);
    k = &rig.k;
    assert_int_equal(kernel_pack_rows(k), 0);
    static const struct { const char *name; uint32_t off; } packed[] = {
        { "%r1", 0 }, { "%h1", 128 }, { "%r0", 0 }, { "%r2", 128 }, { "%f0", 0 }, { "%f1", 128 }, { "%h0", 256 },
        { "%rd1", 384 }, { "%rd2", 640 }, { "%rd0", 896 }, { "%fd0", 1152 }, { "%fd1", 1152 },
    };
    for (size_t i = 0; i < sizeof packed / sizeof packed[0]; i++)
        assert_int_equal(k->row_off[reg_index(k->entry, packed[i].name)], packed[i].off);
    assert_int_equal(k->row_off[k->entry->nregs], 3 * 128 + 4 * 256);
    assert_int_equal(cta_init(k, &c, 0, 0), 0);
    for (int i = 0; i < 8; i++) assert_int_equal(warp_issue(k, &c.warps[0], &out), ISSUE_OK);
    for (int l = 0; l < 32; l += 31) {
        assert_int_equal(reg_get(k, &c.warps[0], reg_index(k->entry, "%f0"), l), 0);
        assert_int_equal(reg_get(k, &c.warps[0], reg_index(k->entry, "%f1"), l), 1);
    }
    assert_int_equal(*(uint64_t *)mem_region_of_buffer(&rig.mem, 0)->data, 0x100000000ull);
    cta_free(&c);
    rig_free(&rig);
}

static void test_narrow_types_in_wide_registers(void **state)
{
    (void)state;
    run_cases(narrow_in_wide_cases);
}

static const Case mul_mad_cases[] = {
    EQ("mul.lo.u32 %r1, 0x10000, 0x10000", D_R32, 0),
    EQ("mul.hi.u32 %r1, 0x10000, 0x10000", D_R32, 1),
    EQ("mul.hi.u32 %r1, 0xffffffff, 0xffffffff", D_R32, 0xfffffffeu),
    EQ("mul.lo.s32 %r1, -3, 7", D_R32, (uint32_t)-21),
    EQ("mul.lo.s32 %r1, 0x7fffffff, 2", D_R32, 0xfffffffeu),
    EQ("mul.hi.s32 %r1, -1, -1", D_R32, 0),
    EQ("mul.hi.s32 %r1, -2147483648, 2", D_R32, 0xffffffffu),
    EQ("mul.hi.s32 %r1, 0x7fffffff, 0x7fffffff", D_R32, 0x3fffffffu),
    EQ("mul.lo.u64 %rd1, 0xffffffffffffffff, 0xffffffffffffffff", D_R64, 1),
    EQ("mul.hi.u64 %rd1, 0xffffffffffffffff, 0xffffffffffffffff", D_R64, 0xfffffffffffffffeull),
    EQ("mul.hi.u64 %rd1, 0x100000000, 0x100000000", D_R64, 1),
    EQ("mul.hi.s64 %rd1, -1, -1", D_R64, 0),
    EQ("mul.hi.s64 %rd1, -3, 0x7fffffffffffffff", D_R64, 0xfffffffffffffffeull),
    EQ("mov.b64 %rd2, 0x8000000000000000; mul.hi.s64 %rd1, %rd2, 2", D_R64, ~0ull),
    EQ("mov.b64 %rd2, 0x8000000000000000; mul.hi.s64 %rd1, %rd2, %rd2", D_R64, 0x4000000000000000ull),
    EQ("mul.lo.s64 %rd1, -3, 7", D_R64, (uint64_t)-21),
    /* .wide: double-width result, operands extended by signedness */
    EQ("mul.wide.s32 %rd1, -2, 0x7fffffff", D_R64, 0xffffffff00000002ull),
    EQ("mul.wide.u32 %rd1, 0xffffffff, 0xffffffff", D_R64, 0xfffffffe00000001ull),
    EQ("mul.wide.s32 %rd1, -2147483648, -2147483648", D_R64, 0x4000000000000000ull),
    EQ("mul.wide.u32 %rd1, 0xfffffffe, 1", D_R64, 0xfffffffeull),
    EQ("mul.wide.s32 %rd1, 0xfffffffe, 1", D_R64, 0xfffffffffffffffeull),
    EQ("mul.wide.u16 %r1, 0xffff, 0xffff", D_R32, 0xfffe0001u),
    EQ("mul.wide.s16 %r1, -1, 0x7fff", D_R32, 0xffff8001u),
    /* mad: .lo and .hi add c at the type's width, .wide adds a wide c */
    EQ("mad.lo.s32 %r1, 3, 4, 5", D_R32, 17),
    EQ("mad.lo.u32 %r1, 0xffffffff, 2, 3", D_R32, 1),
    EQ("mad.lo.s32 %r1, -3, 4, -5", D_R32, (uint32_t)-17),
    EQ("mad.hi.u32 %r1, 0xffffffff, 0xffffffff, 2", D_R32, 0),
    EQ("mad.hi.s32 %r1, -1, 1, 5", D_R32, 4),
    EQ("mad.wide.s32 %rd1, -2, 3, 0x100000000", D_R64, 0xfffffffaull),
    EQ("mad.wide.u32 %rd1, 0xffffffff, 0xffffffff, 0xffffffff", D_R64, 0xffffffff00000000ull),
    EQ("mov.s64 %rd2, -10; mad.wide.s32 %rd1, -2, -3, %rd2", D_R64, (uint64_t)-4),
    EQ("mad.lo.u64 %rd1, 0xffffffffffffffff, 2, 5", D_R64, 3),
    EQ("mad.hi.u64 %rd1, 0xffffffffffffffff, 0xffffffffffffffff, 3", D_R64, 1),
    /* PTX: mad.hi.sat.s32 clamps the sum to the s32 range */
    EQ("mad.hi.sat.s32 %r1, 0x7fffffff, 0x7fffffff, 0x7fffffff", D_R32, 0x7fffffffu),
    EQ("mad.hi.sat.s32 %r1, -2147483648, 0x7fffffff, -2147483648", D_R32, 0x80000000u),
    EQ("mad.hi.sat.s32 %r1, 0x10000, 0x10000, 5", D_R32, 6),
};

static void test_mul_mad(void **state)
{
    (void)state;
    run_cases(mul_mad_cases);
}

/* Division by zero is undefined in PTX; gpusim gives all ones (div) and the
 * dividend (rem) and counts every lane that did it. */
static const Case div_rem_cases[] = {
    EQ("div.s32 %r1, -7, 2", D_R32, (uint32_t)-3),              /* truncates */
    EQ("rem.s32 %r1, -7, 2", D_R32, (uint32_t)-1),              /* sign of a */
    EQ("rem.s32 %r1, 7, -2", D_R32, 1),
    EQ("div.s32 %r1, 7, -2", D_R32, (uint32_t)-3),
    EQ("div.u32 %r1, 0xffffffff, 2", D_R32, 0x7fffffffu),
    EQ("rem.u32 %r1, 0xffffffff, 10", D_R32, 5),
    EQ("div.s32 %r1, -2147483648, -1", D_R32, 0x80000000u),     /* INT_MIN / -1 wraps */
    EQ("rem.s32 %r1, -2147483648, -1", D_R32, 0),
    EQ("mov.b64 %rd2, 0x8000000000000000; div.s64 %rd1, %rd2, -1", D_R64, 0x8000000000000000ull),
    EQ("mov.b64 %rd2, 0x8000000000000000; rem.s64 %rd1, %rd2, -1", D_R64, 0),
    EQ("div.u64 %rd1, 0xffffffffffffffff, 3", D_R64, 0x5555555555555555ull),
    EQ("rem.s64 %rd1, -9, 4", D_R64, (uint64_t)-1),
    EQ("div.s16 %rs1, -32768, -1", D_R16, 0x8000),
    /* by zero: 6 rows, counted */
    EQ("div.u32 %r1, 5, 0", D_R32, 0xffffffffu),
    EQ("div.s32 %r1, -5, 0", D_R32, 0xffffffffu),
    EQ("rem.u32 %r1, 5, 0", D_R32, 5),
    EQ("rem.s32 %r1, -5, 0", D_R32, (uint32_t)-5),
    EQ("mov.u64 %rd2, 0; div.u64 %rd1, 77, %rd2", D_R64, ~0ull),
    EQ("mov.s64 %rd2, 0; rem.s64 %rd1, -77, %rd2", D_R64, (uint64_t)-77),
};

static void test_div_rem(void **state)
{
    (void)state;
    assert_int_equal(run_cases(div_rem_cases), 6);
}

/* The counter counts lanes, not instructions: half a warp divides by zero. */
static void test_div_by_zero_counts_lanes(void **state)
{
    (void)state;
    Sim s;
    sim_ok(&s,
           ".buffer out .u32[64] zero\n"
           ".launch k grid=1 block=32 args=(out)\n"
           ".entry k (.param .u64 o)\n{\n"
           "    ld.param.u64 %rd1, [o];\n"
           "    mov.u32 %r1, %tid.x;\n"
           "    and.b32 %r2, %r1, 1;\n"              /* divisor: 0 for even lanes */
           "    div.u32 %r3, 100, %r2;\n"
           "    rem.u32 %r4, %r1, %r2;\n"
           "    mul.wide.u32 %rd2, %r1, 8;\n"
           "    add.s64 %rd3, %rd1, %rd2;\n"
           "    st.global.v2.u32 [%rd3], {%r3, %r4};\n"
           "    ret;\n}\n");
    const uint32_t *o = sim_buf(&s, "out");
    for (uint32_t t = 0; t < 32; t++) {
        assert_int_equal(o[2 * t], t & 1 ? 100 : 0xffffffffu);
        assert_int_equal(o[2 * t + 1], t & 1 ? 0 : t);
    }
    assert_int_equal(s.run.stats.div_by_zero, 32);
    sim_free(&s);
}

static const Case minmax_cases[] = {
    EQ("min.s32 %r1, -1, 1", D_R32, 0xffffffffu),
    EQ("min.u32 %r1, 0xffffffff, 1", D_R32, 1),
    EQ("max.s32 %r1, -1, 1", D_R32, 1),
    EQ("max.u32 %r1, 0xffffffff, 1", D_R32, 0xffffffffu),
    EQ("min.s64 %rd1, -5, 3", D_R64, (uint64_t)-5),
    EQ("max.u64 %rd1, 0xffffffffffffffff, 3", D_R64, ~0ull),
    EQ("min.s16 %rs1, -2, 1", D_R16, 0xfffe),
    EQ("max.u16 %rs1, 0xfffe, 1", D_R16, 0xfffe),
    EQ("min.f32 %f1, 1.0, -2.0", D_F32, 0xc0000000u),
    /* copysign d, a, b: b with a's sign, bits only (a NaN's payload survives) */
    EQ("copysign.f32 %f1, -1.0, 2.5", D_F32, 0xc0200000u),
    EQ("copysign.f32 %f1, 0f00000000, 0fC0200000", D_F32, 0x40200000u),
    EQ("copysign.f32 %f1, 0f80000000, 0f7FC00001", D_F32, 0xffc00001u),
    EQ("copysign.f64 %fd1, -0.0, 3.0", D_F64, 0xc008000000000000ull),
    EQ("max.f32 %f1, 1.0, -2.0", D_F32, 0x3f800000u),
    /* PTX: a NaN operand yields the other; both NaN gives NaN */
    EQ("min.f32 %f1, 0f7FC00000, 1.0", D_F32, 0x3f800000u),
    EQ("min.f32 %f1, 1.0, 0f7FC00000", D_F32, 0x3f800000u),
    EQ("max.f32 %f1, 0f7FC00000, -3.0", D_F32, 0xc0400000u),
    EQ("max.f32 %f1, -3.0, 0fFFC00000", D_F32, 0xc0400000u),
    ISNAN("min.f32 %f1, 0f7FC00000, 0f7FC00000", D_F32),
    EQ("min.f64 %fd1, 0d7FF8000000000000, 2.0", D_F64, 0x4000000000000000ull),
    EQ("max.f64 %fd1, 2.0, 0d7FF8000000000000", D_F64, 0x4000000000000000ull),
    /* -0 is below +0 */
    EQ("min.f32 %f1, 0f00000000, 0f80000000", D_F32, 0x80000000u),
    EQ("max.f32 %f1, 0f80000000, 0f00000000", D_F32, 0),
    EQ("max.f32 %f1, 0fFF800000, 0f7F800000", D_F32, 0x7f800000u),
};

static void test_min_max(void **state)
{
    (void)state;
    run_cases(minmax_cases);
}

static const Case absneg_cases[] = {
    EQ("abs.s32 %r1, -5", D_R32, 5),
    EQ("abs.s32 %r1, -2147483648", D_R32, 0x80000000u),        /* |INT_MIN| wraps to INT_MIN */
    EQ("neg.s32 %r1, -2147483648", D_R32, 0x80000000u),
    EQ("neg.s32 %r1, 7", D_R32, (uint32_t)-7),
    EQ("mov.b64 %rd2, 0x8000000000000000; abs.s64 %rd1, %rd2", D_R64, 0x8000000000000000ull),
    EQ("mov.b64 %rd2, 0x8000000000000000; neg.s64 %rd1, %rd2", D_R64, 0x8000000000000000ull),
    EQ("abs.s64 %rd1, -1", D_R64, 1),
    EQ("abs.s16 %rs1, -32768", D_R16, 0x8000),
    EQ("neg.s16 %rs1, 1", D_R16, 0xffff),
    EQ("abs.f32 %f1, -2.0", D_F32, 0x40000000u),
    EQ("abs.f32 %f1, 0fFFC00000", D_F32, 0x7fffffffu),         /* a NaN: the canonical one (H100: nan_bits.csv) */
    EQ("abs.f64 %fd1, 0dFFF0000000000001", D_F64, 0xfff8000000000001ull),   /* .f64 keeps the NaN, sign too, quieted */
    EQ("neg.f32 %f1, 0f00000000", D_F32, 0x80000000u),
    EQ("neg.f64 %fd1, 1.0", D_F64, 0xbff0000000000000ull),
    EQ("abs.f64 %fd1, -0.5", D_F64, 0x3fe0000000000000ull),
    EQ("abs.ftz.f32 %f1, 0f80400000", D_F32, 0),               /* subnormal flushed */
};

static void test_abs_neg(void **state)
{
    (void)state;
    run_cases(absneg_cases);
}

/* ---- logic and bits ------------------------------------------------------------------ */

static const Case logic_cases[] = {
    EQ("and.b32 %r1, 0xf0f0f0f0, 0xff00ff00", D_R32, 0xf000f000u),
    EQ("or.b32 %r1, 0xf0f0f0f0, 0xff00ff00", D_R32, 0xfff0fff0u),
    EQ("xor.b32 %r1, 0xf0f0f0f0, 0xff00ff00", D_R32, 0x0ff00ff0u),
    EQ("not.b32 %r1, 0", D_R32, 0xffffffffu),
    EQ("not.b64 %rd1, 0", D_R64, ~0ull),
    EQ("and.b64 %rd1, 0xffffffff00000000, 0x0123456789abcdef", D_R64, 0x0123456700000000ull),
    EQ("xor.b16 %rs1, 0xffff, 0x00ff", D_R16, 0xff00),
    EQ("or.b16 %rs1, 0x0f00, 0x00f0", D_R16, 0x0ff0),
    EQ("cnot.b32 %r1, 0", D_R32, 1),
    EQ("cnot.b32 %r1, 5", D_R32, 0),
    EQ("cnot.b32 %r1, 0x80000000", D_R32, 0),
    EQ("cnot.b64 %rd1, 0x100000000", D_R64, 0),
    EQ("cnot.b16 %rs1, 0", D_R16, 1),
    /* predicates: %p2 true, %p3 false */
    EQ("setp.eq.s32 %p2, 1, 1; setp.eq.s32 %p3, 1, 0; and.pred %p1, %p2, %p3", D_PRED, 0),
    EQ("and.pred %p1, %p2, %p2", D_PRED, 1),
    EQ("or.pred %p1, %p2, %p3", D_PRED, 1),
    EQ("or.pred %p1, %p3, %p3", D_PRED, 0),
    EQ("xor.pred %p1, %p2, %p3", D_PRED, 1),
    EQ("xor.pred %p1, %p2, %p2", D_PRED, 0),
    EQ("not.pred %p1, %p3", D_PRED, 1),
    EQ("not.pred %p1, %p2", D_PRED, 0),
    EQ("and.pred %p1, %p2, !%p3", D_PRED, 1),
    EQ("mov.pred %p1, %p3", D_PRED, 0),
    EQ("mov.pred %p1, %p2", D_PRED, 1),
};

static void test_logic(void **state)
{
    (void)state;
    run_cases(logic_cases);
}

/* PTX: shift amounts are unsigned and clamped: >= width gives 0 (.s types:
 * the sign fill), so a negative amount is a large one. */
static const Case shift_cases[] = {
    EQ("shl.b32 %r1, 1, 31", D_R32, 0x80000000u),
    EQ("shl.b32 %r1, 1, 32", D_R32, 0),
    EQ("shl.b32 %r1, 1, 33", D_R32, 0),
    EQ("shl.b32 %r1, 1, -1", D_R32, 0),
    EQ("mov.s32 %r2, -1; shl.b32 %r1, 0xffffffff, %r2", D_R32, 0),
    EQ("shl.b64 %rd1, 1, 63", D_R64, 0x8000000000000000ull),
    EQ("shl.b64 %rd1, 1, 64", D_R64, 0),
    EQ("shl.b64 %rd1, 3, 32", D_R64, 0x300000000ull),
    EQ("shl.b16 %rs1, 1, 16", D_R16, 0),
    EQ("shl.b16 %rs1, 3, 15", D_R16, 0x8000),
    EQ("shr.u32 %r1, 0x80000000, 31", D_R32, 1),
    EQ("shr.u32 %r1, 0x80000000, 32", D_R32, 0),
    EQ("shr.b32 %r1, 0x80000000, 4", D_R32, 0x08000000u),       /* .b is logical */
    EQ("shr.s32 %r1, 0x80000000, 4", D_R32, 0xf8000000u),
    EQ("shr.s32 %r1, 0x80000000, 31", D_R32, 0xffffffffu),
    EQ("shr.s32 %r1, 0x80000000, 32", D_R32, 0xffffffffu),
    EQ("shr.s32 %r1, 0x80000000, 1000", D_R32, 0xffffffffu),
    EQ("mov.s32 %r2, -1; shr.s32 %r1, 0x80000000, %r2", D_R32, 0xffffffffu),
    EQ("mov.s32 %r2, -1; shr.u32 %r1, 0xffffffff, %r2", D_R32, 0),
    EQ("shr.s32 %r1, 0x40000000, 100", D_R32, 0),
    EQ("mov.b64 %rd2, 0x8000000000000000; shr.s64 %rd1, %rd2, 64", D_R64, ~0ull),
    EQ("mov.b64 %rd2, 0x8000000000000000; shr.u64 %rd1, %rd2, 63", D_R64, 1),
    EQ("mov.b64 %rd2, 0x8000000000000000; shr.u64 %rd1, %rd2, 64", D_R64, 0),
    EQ("shr.s16 %rs1, 0x8000, 15", D_R16, 0xffff),
    EQ("shr.s16 %rs1, 0x8000, 16", D_R16, 0xffff),
    EQ("shr.u16 %rs1, 0x8000, 16", D_R16, 0),
};

static void test_shifts(void **state)
{
    (void)state;
    run_cases(shift_cases);
}

static const Case bit_cases[] = {
    EQ("popc.b32 %r1, 0", D_R32, 0),
    EQ("popc.b32 %r1, 0xffffffff", D_R32, 32),
    EQ("popc.b32 %r1, 0x80000001", D_R32, 2),
    EQ("popc.b64 %r1, 0", D_R32, 0),
    EQ("popc.b64 %r1, 0xffffffffffffffff", D_R32, 64),
    EQ("popc.b64 %r1, 0x8000000100000001", D_R32, 3),
    EQ("clz.b32 %r1, 0", D_R32, 32),
    EQ("clz.b32 %r1, 0xffffffff", D_R32, 0),
    EQ("clz.b32 %r1, 1", D_R32, 31),
    EQ("clz.b32 %r1, 0x00010000", D_R32, 15),
    EQ("clz.b64 %r1, 0", D_R32, 64),
    EQ("clz.b64 %r1, 0xffffffffffffffff", D_R32, 0),
    EQ("clz.b64 %r1, 1", D_R32, 63),
    EQ("clz.b64 %r1, 0x100000000", D_R32, 31),
    EQ("brev.b32 %r1, 0", D_R32, 0),
    EQ("brev.b32 %r1, 0xffffffff", D_R32, 0xffffffffu),
    EQ("brev.b32 %r1, 1", D_R32, 0x80000000u),
    EQ("brev.b32 %r1, 0x12345678", D_R32, 0x1e6a2c48u),
    EQ("brev.b64 %rd1, 0", D_R64, 0),
    EQ("brev.b64 %rd1, 0xffffffffffffffff", D_R64, ~0ull),
    EQ("brev.b64 %rd1, 1", D_R64, 0x8000000000000000ull),
    EQ("brev.b64 %rd1, 0x12345678", D_R64, 0x1e6a2c4800000000ull),
    /* bfe: bits 8-15 of 0x12345678 = 0x56; past bit 31 the rest is zero (.u)
     * or the last bit taken (.s); length 0 gives 0 */
    EQ("bfe.u32 %r1, 0x12345678, 8, 8", D_R32, 0x56),
    EQ("bfe.u32 %r1, 0x12345678, 28, 8", D_R32, 0x1),
    EQ("bfe.s32 %r1, 0x00008000, 8, 8", D_R32, 0xffffff80u),
    EQ("bfe.s32 %r1, 0x00007000, 8, 8", D_R32, 0x70),
    EQ("bfe.s32 %r1, 0x12345678, 4, 0", D_R32, 0),
    EQ("bfe.s32 %r1, 0x80000000, 40, 4", D_R32, 0xffffffffu),
    EQ("bfe.u64 %rd1, 0x123456789abcdef0, 32, 16", D_R64, 0x5678),
    EQ("bfe.s64 %rd1, 0x0000800000000000, 40, 8", D_R64, 0xffffffffffffff80ull),
    /* bfind: the highest set bit (.u) or the highest bit unlike the sign (.s) */
    EQ("bfind.u32 %r1, 0", D_R32, 0xffffffffu),
    EQ("bfind.u32 %r1, 1", D_R32, 0),
    EQ("bfind.u32 %r1, 0x80000000", D_R32, 31),
    EQ("bfind.s32 %r1, -1", D_R32, 0xffffffffu),
    EQ("bfind.s32 %r1, -2", D_R32, 0),
    EQ("bfind.s32 %r1, 0x40000000", D_R32, 30),
    EQ("bfind.u64 %r1, 0x100000000", D_R32, 32),
    EQ("bfind.s64 %r1, -4294967296", D_R32, 31),
    /* .shiftamt: the left shift that brings that bit to the top (nvcc's __clz-like uses) */
    EQ("bfind.shiftamt.u32 %r1, 1", D_R32, 31),
    EQ("bfind.shiftamt.u32 %r1, 0x00010000", D_R32, 15),
    EQ("bfind.shiftamt.u32 %r1, 0", D_R32, 0xffffffffu),
    EQ("bfind.shiftamt.s32 %r1, -2", D_R32, 31),
    EQ("bfind.shiftamt.u64 %r1, 0x100000000", D_R32, 31),
    /* fns on mask 0b10110100 (bits 2, 4, 5, 7): from bit 0 up, the 1st set
     * bit is 2 and the 3rd is 5; from 6 down the 1st is 5, the 4th none;
     * offset 0 asks whether bit b itself is set */
    EQ("fns.b32 %r1, 0xb4, 0, 1", D_R32, 2),
    EQ("fns.b32 %r1, 0xb4, 0, 3", D_R32, 5),
    EQ("fns.b32 %r1, 0xb4, 0, 5", D_R32, 0xffffffffu),
    EQ("fns.b32 %r1, 0xb4, 6, -1", D_R32, 5),
    EQ("fns.b32 %r1, 0xb4, 6, -3", D_R32, 2),
    EQ("fns.b32 %r1, 0xb4, 6, -4", D_R32, 0xffffffffu),
    EQ("fns.b32 %r1, 0xb4, 4, 0", D_R32, 4),
    EQ("fns.b32 %r1, 0xb4, 3, 0", D_R32, 0xffffffffu),
    EQ("fns.b32 %r1, 0x80000000, 40, -1", D_R32, 0xffffffffu),
    /* prmt: a = 0x33221100 (bytes 00 11 22 33), b = 0x77665544 (bytes 4-7) */
    EQ("prmt.b32 %r1, 0x33221100, 0x77665544, 0x3210", D_R32, 0x33221100u),
    EQ("prmt.b32 %r1, 0x33221100, 0x77665544, 0x4567", D_R32, 0x44556677u),
    EQ("prmt.b32 %r1, 0x33221100, 0x77665544, 0x0001", D_R32, 0x00000011u),
    EQ("prmt.b32 %r1, 0x00000080, 0, 0x8880", D_R32, 0xffffff80u),
};

/* .f16 (IEEE half) by hand: 1 = 0x3C00, 2 = 0x4000, 3 = 0x4200, 5 = 0x4500,
 * one ulp at 1 is 2^-10 (0x3C01), 2^-11 = 0x1000 is half an ulp there. */
#define H(a, b) "mov.b16 %rs2, " #a "; mov.b16 %rs3, " #b "; "
static const Case half_cases[] = {
    EQ(H(0x3C00, 0x4000) "add.f16 %rs1, %rs2, %rs3", D_R16, 0x4200),
    EQ(H(0x3C00, 0x4000) "sub.f16 %rs1, %rs2, %rs3", D_R16, 0xBC00),
    EQ(H(0x3C00, 0x1000) "add.rn.f16 %rs1, %rs2, %rs3", D_R16, 0x3C00),          /* a tie: to even (1) */
    EQ(H(0x3C01, 0x1000) "add.f16 %rs1, %rs2, %rs3", D_R16, 0x3C02),             /* a tie: to even (1 + 2 ulp) */
    EQ(H(0x3C01, 0x3C01) "mul.f16 %rs1, %rs2, %rs3", D_R16, 0x3C02),             /* 1 + 2^-9 + 2^-20 */
    EQ(H(0x7BFF, 0x7BFF) "add.f16 %rs1, %rs2, %rs3", D_R16, 0x7C00),             /* 65504 * 2: infinity */
    EQ(H(0x0001, 0x3800) "mul.f16 %rs1, %rs2, %rs3", D_R16, 0x0000),             /* 2^-25: a tie, to 0 */
    EQ(H(0x0003, 0x3800) "mul.f16 %rs1, %rs2, %rs3", D_R16, 0x0002),             /* 1.5 x 2^-24: to 2 */
    EQ(H(0x03FF, 0x0001) "add.f16 %rs1, %rs2, %rs3", D_R16, 0x0400),             /* subnormal to normal */
    EQ(H(0x3C00, 0x4000) "fma.rn.f16 %rs1, %rs2, %rs3, %rs2", D_R16, 0x4200),    /* 1 x 2 + 1 */
    EQ(H(0x3C00, 0x4000) "neg.f16 %rs1, %rs2", D_R16, 0xBC00),
    EQ(H(0xBC00, 0x4000) "abs.f16 %rs1, %rs2", D_R16, 0x3C00),
    EQ(H(0x3C00, 0x4000) "min.f16 %rs1, %rs2, %rs3", D_R16, 0x3C00),
    EQ(H(0x3C00, 0x4000) "max.f16 %rs1, %rs2, %rs3", D_R16, 0x4000),
    EQ(H(0x3C00, 0x4000) "setp.lt.f16 %p1, %rs2, %rs3", D_PRED, 1),
    EQ(H(0x7E00, 0x4000) "setp.lt.f16 %p1, %rs2, %rs3", D_PRED, 0),              /* NaN: unordered */
    EQ("mov.f32 %f2, 0f3F800000; cvt.rn.f16.f32 %rs1, %f2", D_R16, 0x3C00),
    EQ("mov.f32 %f2, 0f3EAAAAAB; cvt.rn.f16.f32 %rs1, %f2", D_R16, 0x3555),      /* 1/3 */
    EQ(H(0x3555, 0) "cvt.f32.f16 %f1, %rs2", D_F32, 0x3EAAA000),                 /* exact: 0.33325195 */
    EQ("cvt.rn.f16.s32 %rs1, 3", D_R16, 0x4200),
    EQ(H(0x4500, 0) "cvt.rzi.s32.f16 %r1, %rs2", D_R32, 5),
    /* f32 to f16: the largest half, the first value that rounds to
     * infinity (65520 is the tie between 65504 and 65536: to even, inf),
     * the smallest subnormal 2^-24, 0.1 (0x3DCCCCCD) */
    EQ("mov.f32 %f2, 0f477FE000; cvt.rn.f16.f32 %rs1, %f2", D_R16, 0x7BFF),
    EQ("mov.f32 %f2, 0f477FF000; cvt.rn.f16.f32 %rs1, %f2", D_R16, 0x7C00),
    EQ("mov.f32 %f2, 0f477FF000; cvt.rz.f16.f32 %rs1, %f2", D_R16, 0x7BFF),     /* toward zero: the largest */
    EQ("mov.f32 %f2, 0fC77FF000; cvt.rm.f16.f32 %rs1, %f2", D_R16, 0xFC00),     /* down from -65520: -inf */
    EQ("mov.f32 %f2, 0f3F800001; cvt.rp.f16.f32 %rs1, %f2", D_R16, 0x3C01),     /* 1 + 2^-23 up: 1 + 2^-10 */
    EQ("mov.f32 %f2, 0f33800000; cvt.rn.f16.f32 %rs1, %f2", D_R16, 0x0001),
    EQ("mov.f32 %f2, 0f33000000; cvt.rn.f16.f32 %rs1, %f2", D_R16, 0x0000),     /* 2^-25: tie, to even 0 */
    EQ("mov.f32 %f2, 0f3DCCCCCD; cvt.rn.f16.f32 %rs1, %f2", D_R16, 0x2E66),
    /* f32 to bf16 (the top 16 bits, rounded): 0x3F808000 is the tie
     * between 0x3F80 and 0x3F81 (to even: 0x3F80), 0x3F818000 between
     * 0x3F81 and 0x3F82 (0x3F82) */
    EQ("mov.f32 %f2, 0f3F800000; cvt.rn.bf16.f32 %rs1, %f2", D_R16, 0x3F80),
    EQ("mov.f32 %f2, 0f3F808000; cvt.rn.bf16.f32 %rs1, %f2", D_R16, 0x3F80),
    EQ("mov.f32 %f2, 0f3F818000; cvt.rn.bf16.f32 %rs1, %f2", D_R16, 0x3F82),
    EQ("mov.f32 %f2, 0f3F818000; cvt.rz.bf16.f32 %rs1, %f2", D_R16, 0x3F81),
    EQ(H(0x3F82, 0) "cvt.f32.bf16 %f1, %rs2", D_F32, 0x3F820000),
    /* two f32 into f16x2: a to the upper half, b to the lower */
    EQ("mov.f32 %f2, 0f3F800000; mov.f32 %f3, 0f40000000; cvt.rn.f16x2.f32 %r1, %f2, %f3", D_R32, 0x3C004000),
    EQ("mov.f32 %f2, 0fC0000000; mov.f32 %f3, 0f3F800000; cvt.rn.relu.bf16x2.f32 %r1, %f2, %f3", D_R32, 0x00003F80),
    EQ("mov.f32 %f2, 0f7F800000; mov.f32 %f3, 0f3F800000; cvt.rn.satfinite.f16x2.f32 %r1, %f2, %f3", D_R32, 0x7BFF3C00),
    /* f16x2 lane-wise: (1, 2) + (2, 3) = (3, 5), upper half first here */
    EQ("mov.b32 %r2, 0x3C004000; mov.b32 %r3, 0x40004200; add.rn.f16x2 %r1, %r2, %r3", D_R32, 0x42004500),
    EQ("mov.b32 %r2, 0x3C004000; mov.b32 %r3, 0x40004200; mul.f16x2 %r1, %r2, %r3", D_R32, 0x40004600),   /* 2, 6 */
    /* bf16x2: (1, 2) * (1, 2) + (1, 2) = (2, 6) */
    EQ("mov.b32 %r2, 0x3F804000; fma.rn.bf16x2 %r1, %r2, %r2, %r2", D_R32, 0x400040C0),
    EQ("mov.b32 %r2, 0x3F804000; mov.b32 %r3, 0x40003F80; sub.bf16x2 %r1, %r2, %r3", D_R32, 0xBF803F80),  /* -1, 1 */
    /* setp on pairs: p from the lower halves (2 < 1: no), q from the upper (1 < 2) */
    EQ("mov.b32 %r2, 0x3C004000; mov.b32 %r3, 0x40003C00; setp.lt.f16x2 %p1|%p2, %r2, %r3", D_PRED, 0),
    EQ("mov.b32 %r2, 0x3C004000; mov.b32 %r3, 0x40003C00; setp.lt.f16x2 %p2|%p1, %r2, %r3", D_PRED, 1),
    EQ("mov.b32 %r2, 0x3F804000; mov.b32 %r3, 0x40003F80; setp.gt.bf16x2 %p1|%p2, %r2, %r3", D_PRED, 1),
    /* set: all ones per half, or 1.0 */
    EQ("mov.b32 %r2, 0x3C004000; mov.b32 %r3, 0x40003C00; set.lt.u32.f16x2 %r1, %r2, %r3", D_R32, 0xFFFF0000),
    EQ("mov.b32 %r2, 0x3C004000; mov.b32 %r3, 0x40003C00; set.gt.f16x2.f16x2 %r1, %r2, %r3", D_R32, 0x00003C00),
    EQ("set.lt.f32.s32 %r1, 1, 2", D_R32, 0x3F800000),
    /* packing and unpacking: the first register is the low half */
    EQ(H(0x3C00, 0x4000) "mov.b32 %r1, {%rs2, %rs3}", D_R32, 0x40003C00),
    EQ("mov.b32 %r2, 0x12345678; mov.b32 {%rs2, %rs1}, %r2", D_R16, 0x1234),
    EQ("mov.b32 %r2, 0x12345678; mov.b32 {%rs1, _}, %r2", D_R16, 0x5678),
    EQ("mov.b32 %r2, 1; mov.b32 %r3, 2; mov.b64 %rd1, {%r2, %r3}; mov.b64 {_, %r1}, %rd1", D_R32, 2),
    EQ("bfi.b32 %r1, 0xff, 0x12345678, 8, 4", D_R32, 0x12345F78),
    /* NaN: min with one NaN gives the other, .NaN gives the canonical NaN;
     * neg and abs of a NaN give the canonical NaN (as the H100) */
    EQ(H(0x7E00, 0x4000) "min.f16 %rs1, %rs2, %rs3", D_R16, 0x4000),
    EQ(H(0x7E00, 0x4000) "min.NaN.f16 %rs1, %rs2, %rs3", D_R16, 0x7FFF),
    EQ(H(0x8000, 0x0000) "max.bf16 %rs1, %rs2, %rs3", D_R16, 0x0000),            /* +0 above -0 */
    EQ(H(0x7E00, 0x4000) "neg.f16 %rs1, %rs2", D_R16, 0x7FFF),
    EQ(H(0x0001, 0x3C00) "add.ftz.f16 %rs1, %rs2, %rs3", D_R16, 0x3C00),         /* 2^-24 flushed */
    EQ(H(0x8001, 0x03FF) "mul.sat.f16 %rs1, %rs2, %rs3", D_R16, 0x0000),         /* -0 saturates to +0 */
    EQ(H(0x4000, 0x4000) "fma.rn.sat.f16 %rs1, %rs2, %rs3, %rs3", D_R16, 0x3C00),
    EQ(H(0xBC00, 0x4000) "fma.rn.relu.bf16 %rs1, %rs2, %rs3, %rs2", D_R16, 0x0000),
    /* bf16 add needs more than a double holds exactly: 2^127 + 2^-133
     * must still round once (to 2^127) */
    EQ(H(0x7F00, 0x0001) "add.bf16 %rs1, %rs2, %rs3", D_R16, 0x7F00),
    /* bf16 fma just off a tie: 7 * 37 = 259 lies between 258 and 260 (even:
     * 260); plus 2^-133 it rounds up, minus 2^-133 down to 258.  fl(a*b+c)
     * in double would see the tie (the 2^-133 is lost) and give 260 both times */
    EQ(H(0x40E0, 0x4214) "mov.b16 %rs4, 0x0001; fma.rn.bf16 %rs1, %rs2, %rs3, %rs4", D_R16, 0x4382),
    EQ(H(0x40E0, 0x4214) "mov.b16 %rs4, 0x8001; fma.rn.bf16 %rs1, %rs2, %rs3, %rs4", D_R16, 0x4381),
    /* fma.bf16 in the other roundings (ptxas takes them): 1 x (1 + 2^-7) + 2^-9
     * lies between 1 + 2^-7 (0x3F81) and 1 + 2^-6 (0x3F82), below the tie */
    EQ(H(0x3F80, 0x3F81) "mov.b16 %rs4, 0x3B00; fma.rn.bf16 %rs1, %rs2, %rs3, %rs4", D_R16, 0x3F81),
    EQ(H(0x3F80, 0x3F81) "mov.b16 %rs4, 0x3B00; fma.rz.bf16 %rs1, %rs2, %rs3, %rs4", D_R16, 0x3F81),
    EQ(H(0x3F80, 0x3F81) "mov.b16 %rs4, 0x3B00; fma.rm.bf16 %rs1, %rs2, %rs3, %rs4", D_R16, 0x3F81),
    EQ(H(0x3F80, 0x3F81) "mov.b16 %rs4, 0x3B00; fma.rp.bf16 %rs1, %rs2, %rs3, %rs4", D_R16, 0x3F82),
    EQ(H(0xBF80, 0x3F81) "mov.b16 %rs4, 0xBB00; fma.rm.bf16 %rs1, %rs2, %rs3, %rs4", D_R16, 0xBF82),   /* negative: down is away */
    EQ(H(0xBF80, 0x3F81) "mov.b16 %rs4, 0xBB00; fma.rz.bf16 %rs1, %rs2, %rs3, %rs4", D_R16, 0xBF81),
    EQ("mov.b32 %r2, 0x3F803F80; mov.b32 %r3, 0x3F813F81; mov.b32 %r4, 0x3B00BB00; fma.rp.bf16x2 %r1, %r2, %r3, %r4",
       D_R32, 0x3F823F81),   /* upper: + 2^-9 up to 0x3F82; lower: - 2^-9 up to 0x3F81 */
    EQ("cvt.rn.f16.s64 %rs1, 65519", D_R16, 0x7BFF),
    EQ("cvt.rn.bf16.u64 %rs1, 0x1000010000000001", D_R16, 0x5D80),   /* 2^60 + 2^52 + 1: above the tie, up */
};
#undef H

static void test_half(void **state)
{
    (void)state;
    run_cases(half_cases);
}

static void test_popc_clz_brev(void **state)
{
    (void)state;
    run_cases(bit_cases);
}

/* ---- floating point ------------------------------------------------------------------ */

/* 1 + 2^-24 is exactly half an ulp above 1: .rn ties to even (1), .rp
 * rounds up.  1 + 1.25 ulp separates .rn/.rz/.rm from .rp, and its negative
 * separates .rm.  (0f34200000 = 1.25 * 2^-23.) */
/* fma.rn.f32 and mad.rn.f32 on full warps (the row path, which uses the host
 * CPU's FMA instruction when it has one) give fmaf's bits on 4096 random bit
 * patterns: normals, subnormals, infinities and NaNs alike. */
static void test_fma_full_warps_match_fmaf(void **state)
{
    (void)state;
    const char *src =
        ".define N 4096\n"
        ".buffer a .u32[N] random(seed=11, min=0, max=4294967295)\n"
        ".buffer b .u32[N] random(seed=12, min=0, max=4294967295)\n"
        ".buffer c .u32[N] random(seed=13, min=0, max=4294967295)\n"
        ".buffer o .u32[N] zero\n"
        ".buffer o2 .u32[N] zero\n"
        ".launch k grid=(N/32) block=(32) args=(a, b, c, o, o2)\n"
        ".entry k (.param .u64 pa, .param .u64 pb, .param .u64 pc, .param .u64 po, .param .u64 po2)\n{\n"
        "ld.param.u64 %rd1, [pa]; ld.param.u64 %rd2, [pb]; ld.param.u64 %rd3, [pc];\n"
        "ld.param.u64 %rd4, [po]; ld.param.u64 %rd5, [po2];\n"
        "mov.u32 %r1, %ctaid.x; mov.u32 %r2, %tid.x; mad.lo.u32 %r3, %r1, 32, %r2;\n"
        "mul.wide.u32 %rd6, %r3, 4;\n"
        "add.s64 %rd7, %rd1, %rd6; ld.global.f32 %f1, [%rd7];\n"
        "add.s64 %rd7, %rd2, %rd6; ld.global.f32 %f2, [%rd7];\n"
        "add.s64 %rd7, %rd3, %rd6; ld.global.f32 %f3, [%rd7];\n"
        "fma.rn.f32 %f4, %f1, %f2, %f3;\n"
        "add.s64 %rd7, %rd4, %rd6; st.global.f32 [%rd7], %f4;\n"
        "mad.rn.f32 %f5, %f1, 0f3FC00001, %f3;\n"
        "add.s64 %rd7, %rd5, %rd6; st.global.f32 [%rd7], %f5;\n"
        "ret;\n}\n";
    Sim s;
    sim_ok(&s, src);
    const uint32_t *a = sim_buf(&s, "a"), *b = sim_buf(&s, "b"), *c = sim_buf(&s, "c");
    const uint32_t *o = sim_buf(&s, "o"), *o2 = sim_buf(&s, "o2");
    int bad = 0, nans = 0;
    for (int i = 0; i < 4096; i++) {
        float want = fmaf(u2f(a[i]), u2f(b[i]), u2f(c[i]));
        float want2 = fmaf(u2f(a[i]), u2f(0x3FC00001u), u2f(c[i]));
        nans += isnan(want);
        if (isnan(want) ? !isnan(u2f(o[i])) : o[i] != f2u(want)) bad++;
        if (isnan(want2) ? !isnan(u2f(o2[i])) : o2[i] != f2u(want2)) bad++;
    }
    sim_free(&s);
    assert_int_equal(bad, 0);
    assert_true(nans > 0);      /* the patterns did include NaNs */
}

static const Case fround_cases[] = {
    EQ("add.rn.f32 %f1, 1.0, 0f33800000", D_F32, 0x3f800000u),
    EQ("add.rz.f32 %f1, 1.0, 0f33800000", D_F32, 0x3f800000u),
    EQ("add.rm.f32 %f1, 1.0, 0f33800000", D_F32, 0x3f800000u),
    EQ("add.rp.f32 %f1, 1.0, 0f33800000", D_F32, 0x3f800001u),
    EQ("add.f32 %f1, 1.0, 0f33800000", D_F32, 0x3f800000u),     /* default is .rn */
    EQ("add.rn.f32 %f1, 1.0, 0f34400000", D_F32, 0x3f800002u),  /* 1.5 ulp: tie to even */
    EQ("add.rn.f32 %f1, 1.0, 0f34200000", D_F32, 0x3f800001u),
    EQ("add.rz.f32 %f1, 1.0, 0f34200000", D_F32, 0x3f800001u),
    EQ("add.rm.f32 %f1, 1.0, 0f34200000", D_F32, 0x3f800001u),
    EQ("add.rp.f32 %f1, 1.0, 0f34200000", D_F32, 0x3f800002u),
    EQ("add.rn.f32 %f1, -1.0, 0fB4200000", D_F32, 0xbf800001u),
    EQ("add.rz.f32 %f1, -1.0, 0fB4200000", D_F32, 0xbf800001u),
    EQ("add.rm.f32 %f1, -1.0, 0fB4200000", D_F32, 0xbf800002u),
    EQ("add.rp.f32 %f1, -1.0, 0fB4200000", D_F32, 0xbf800001u),
    EQ("sub.rp.f32 %f1, 1.0, 0fB4200000", D_F32, 0x3f800002u),
    EQ("sub.rz.f32 %f1, 1.0, 0fB4200000", D_F32, 0x3f800001u),
    /* (1 + 2^-23)^2 = 1 + 2^-22 + 2^-46 */
    EQ("mul.rn.f32 %f1, 0f3F800001, 0f3F800001", D_F32, 0x3f800002u),
    EQ("mul.rz.f32 %f1, 0f3F800001, 0f3F800001", D_F32, 0x3f800002u),
    EQ("mul.rm.f32 %f1, 0f3F800001, 0f3F800001", D_F32, 0x3f800002u),
    EQ("mul.rp.f32 %f1, 0f3F800001, 0f3F800001", D_F32, 0x3f800003u),
    /* fma rounds once: the 2^-46 survives; mul then add loses it */
    EQ("fma.rn.f32 %f1, 0f3F800001, 0f3F800001, 0fBF800002", D_F32, 0x28800000u),
    EQ("mul.rn.f32 %f2, 0f3F800001, 0f3F800001; add.rn.f32 %f1, %f2, 0fBF800002", D_F32, 0),
    EQ("mad.rn.f32 %f1, 0f3F800001, 0f3F800001, 0fBF800002", D_F32, 0x28800000u),
    EQ("fma.rn.f32 %f1, 1.0, 1.0, 0f30800000", D_F32, 0x3f800000u),   /* 1 + 2^-30 */
    EQ("fma.rz.f32 %f1, 1.0, 1.0, 0f30800000", D_F32, 0x3f800000u),
    EQ("fma.rm.f32 %f1, 1.0, 1.0, 0f30800000", D_F32, 0x3f800000u),
    EQ("fma.rp.f32 %f1, 1.0, 1.0, 0f30800000", D_F32, 0x3f800001u),
    EQ("fma.rm.f32 %f1, -1.0, 1.0, 0fB0800000", D_F32, 0xbf800001u),
    /* division and the correctly rounded SFU forms */
    EQ("div.rn.f32 %f1, 1.0, 3.0", D_F32, 0x3eaaaaabu),
    EQ("div.rz.f32 %f1, 1.0, 3.0", D_F32, 0x3eaaaaaau),
    EQ("div.rm.f32 %f1, 1.0, 3.0", D_F32, 0x3eaaaaaau),
    EQ("div.rp.f32 %f1, 1.0, 3.0", D_F32, 0x3eaaaaabu),
    NEAR("div.approx.f32 %f1, 1.0, 3.0", D_F32, 1.0 / 3, 1e-6),
    NEAR("div.full.f32 %f1, 1.0, 3.0", D_F32, 1.0 / 3, 1e-6),
    EQ("div.rn.f32 %f1, 1.0, 0.0", D_F32, 0x7f800000u),
    ISNAN("div.rn.f32 %f1, 0.0, 0.0", D_F32),
    EQ("div.rn.f64 %fd1, 1.0, 3.0", D_F64, 0x3fd5555555555555ull),
    EQ("rcp.rn.f32 %f1, 3.0", D_F32, 0x3eaaaaabu),
    EQ("rcp.rz.f32 %f1, 3.0", D_F32, 0x3eaaaaaau),
    NEAR("rcp.approx.f32 %f1, 3.0", D_F32, 1.0 / 3, 1e-6),
    EQ("rcp.rn.f64 %fd1, 4.0", D_F64, 0x3fd0000000000000ull),
    EQ("rcp.rn.f32 %f1, 0f80000000", D_F32, 0xff800000u),         /* 1/-0 = -inf */
    EQ("sqrt.rn.f32 %f1, 2.0", D_F32, 0x3fb504f3u),
    EQ("sqrt.rz.f32 %f1, 2.0", D_F32, 0x3fb504f3u),
    EQ("sqrt.rp.f32 %f1, 2.0", D_F32, 0x3fb504f4u),
    NEAR("sqrt.approx.f32 %f1, 9.0", D_F32, 3, 1e-6),
    ISNAN("sqrt.rn.f32 %f1, -1.0", D_F32),
    EQ("sqrt.rn.f64 %fd1, 2.0", D_F64, 0x3ff6a09e667f3bcdull),
    /* f64 */
    EQ("add.f64 %fd1, 0.1, 0.2", D_F64, 0x3fd3333333333334ull),
    EQ("add.rp.f64 %fd1, 1.0, 0d3C30000000000000", D_F64, 0x3ff0000000000001ull),   /* 1 + 2^-60 */
    EQ("add.rn.f64 %fd1, 1.0, 0d3C30000000000000", D_F64, 0x3ff0000000000000ull),
    EQ("sub.f64 %fd1, 1.0, 3.0", D_F64, 0xc000000000000000ull),
    EQ("mul.rn.f64 %fd1, 3.0, 0.5", D_F64, 0x3ff8000000000000ull),
    EQ("fma.rn.f64 %fd1, 2.0, 3.0, 1.0", D_F64, 0x401c000000000000ull),
    EQ("mad.rn.f64 %fd1, 2.0, 3.0, -1.0", D_F64, 0x4014000000000000ull),
    ISNAN("sub.f32 %f1, 0f7F800000, 0f7F800000", D_F32),   /* inf - inf */
};

static void test_float_rounding(void **state)
{
    (void)state;
    run_cases(fround_cases);
}

/* The approximate SFU functions (PTX allows an error of a few ulps; gpusim
 * computes them in full precision). */
static const Case sfu_cases[] = {
    NEAR("rsqrt.approx.f32 %f1, 4.0", D_F32, 0.5, 1e-6),
    NEAR("rsqrt.approx.f32 %f1, 2.0", D_F32, 0.70710678, 1e-6),
    NEAR("rsqrt.approx.f64 %fd1, 16.0", D_F64, 0.25, 1e-12),
    EQ("rsqrt.approx.f32 %f1, 0.0", D_F32, 0x7f800000u),
    NEAR("sin.approx.f32 %f1, 0.5235988", D_F32, 0.5, 1e-6),
    EQ("sin.approx.f32 %f1, 0.0", D_F32, 0),
    NEAR("sin.approx.f32 %f1, -1.5707964", D_F32, -1, 1e-6),
    NEAR("cos.approx.f32 %f1, 0.0", D_F32, 1, 1e-7),
    NEAR("cos.approx.f32 %f1, 1.0471976", D_F32, 0.5, 1e-6),
    NEAR("cos.approx.f32 %f1, 3.1415927", D_F32, -1, 1e-6),
    NEAR("ex2.approx.f32 %f1, 3.0", D_F32, 8, 1e-5),
    NEAR("ex2.approx.f32 %f1, -1.0", D_F32, 0.5, 1e-7),
    NEAR("ex2.approx.f32 %f1, 0.5", D_F32, 1.41421356, 1e-6),
    EQ("ex2.approx.f32 %f1, 0fFF800000", D_F32, 0),                 /* 2^-inf */
    NEAR("lg2.approx.f32 %f1, 8.0", D_F32, 3, 1e-6),
    NEAR("lg2.approx.f32 %f1, 0.25", D_F32, -2, 1e-6),
    NEAR("lg2.approx.f32 %f1, 10.0", D_F32, 3.32192809, 1e-6),
    EQ("lg2.approx.f32 %f1, 0.0", D_F32, 0xff800000u),              /* -inf */
    ISNAN("lg2.approx.f32 %f1, -1.0", D_F32),
};

static void test_sfu(void **state)
{
    (void)state;
    run_cases(sfu_cases);
}

/* .ftz flushes subnormal inputs and results to sign-preserving zero; .sat
 * clamps to [0, 1] and turns NaN into 0.  0f00400000 is a subnormal. */
static const Case ftz_sat_cases[] = {
    EQ("add.f32 %f1, 0f00400000, 0.0", D_F32, 0x00400000u),
    EQ("add.ftz.f32 %f1, 0f00400000, 0.0", D_F32, 0),
    EQ("mul.ftz.f32 %f1, 0f80400000, 1.0", D_F32, 0x80000000u),
    EQ("mul.f32 %f1, 0f1C800000, 0f1C800000", D_F32, 0x200u),        /* 2^-140 */
    EQ("mul.ftz.f32 %f1, 0f1C800000, 0f1C800000", D_F32, 0),
    EQ("mul.ftz.f32 %f1, 0f9C800000, 0f1C800000", D_F32, 0x80000000u),
    EQ("fma.rn.ftz.f32 %f1, 0f00400000, 0f4B000000, 0.0", D_F32, 0), /* flushed input */
    EQ("fma.rn.f32 %f1, 0f00400000, 0f4B000000, 0.0", D_F32, 0x0b800000u),
    EQ("min.ftz.f32 %f1, 0f80400000, 1.0", D_F32, 0x80000000u),
    EQ("sqrt.rn.ftz.f32 %f1, 0f00400000", D_F32, 0),
    EQ("add.sat.f32 %f1, 0.75, 0.5", D_F32, 0x3f800000u),
    EQ("add.sat.f32 %f1, -2.0, 1.0", D_F32, 0),
    EQ("add.sat.f32 %f1, 0.25, 0.25", D_F32, 0x3f000000u),
    EQ("mul.sat.f32 %f1, 0f7FC00000, 1.0", D_F32, 0),
    EQ("sub.sat.f32 %f1, 0f7F800000, 0f7F800000", D_F32, 0),         /* inf - inf = NaN -> 0 */
    EQ("fma.rn.sat.f32 %f1, 2.0, 2.0, -1.0", D_F32, 0x3f800000u),
    EQ("mad.rn.sat.f32 %f1, 0.5, 0.5, 0.0", D_F32, 0x3e800000u),
    EQ("mul.sat.f32 %f1, 3.0, 1.0", D_F32, 0x3f800000u),   /* (.sat is for .f32: ptxas rejects mul.sat.f64) */
    EQ("setp.eq.f32 %p1, 0f00400000, 0.0", D_PRED, 0),
    EQ("setp.eq.ftz.f32 %p1, 0f00400000, 0.0", D_PRED, 1),
};

static void test_ftz_sat(void **state)
{
    (void)state;
    run_cases(ftz_sat_cases);
}

/* ---- cvt ------------------------------------------------------------------------------ */

static const Case cvt_cases[] = {
    /* float -> int: .rni ties to even, .rzi truncates, .rmi floor, .rpi ceiling */
    EQ("cvt.rni.s32.f32 %r1, 2.5", D_R32, 2),
    EQ("cvt.rni.s32.f32 %r1, -2.5", D_R32, (uint32_t)-2),
    EQ("cvt.rni.s32.f32 %r1, 3.5", D_R32, 4),
    EQ("cvt.rzi.s32.f32 %r1, 2.5", D_R32, 2),
    EQ("cvt.rzi.s32.f32 %r1, -2.5", D_R32, (uint32_t)-2),
    EQ("cvt.rmi.s32.f32 %r1, 2.5", D_R32, 2),
    EQ("cvt.rmi.s32.f32 %r1, -2.5", D_R32, (uint32_t)-3),
    EQ("cvt.rpi.s32.f32 %r1, 2.5", D_R32, 3),
    EQ("cvt.rpi.s32.f32 %r1, -2.5", D_R32, (uint32_t)-2),
    EQ("cvt.rni.s64.f64 %rd1, -2.5", D_R64, (uint64_t)-2),
    EQ("cvt.rmi.s64.f64 %rd1, -0.5", D_R64, ~0ull),
    /* float -> int saturates; NaN gives 0 */
    EQ("cvt.rzi.s32.f32 %r1, 1e10", D_R32, 0x7fffffffu),
    EQ("cvt.rzi.s32.f32 %r1, -1e10", D_R32, 0x80000000u),
    EQ("cvt.rzi.s32.f32 %r1, 0f7FC00000", D_R32, 0),
    EQ("cvt.rzi.s32.f32 %r1, 0f7F800000", D_R32, 0x7fffffffu),
    EQ("cvt.rzi.u32.f32 %r1, -1.0", D_R32, 0),
    EQ("cvt.rzi.u32.f32 %r1, 1e10", D_R32, 0xffffffffu),
    EQ("cvt.rzi.u32.f32 %r1, 0f7FC00000", D_R32, 0),
    EQ("cvt.rzi.s64.f64 %rd1, 1e300", D_R64, 0x7fffffffffffffffull),
    EQ("cvt.rzi.s64.f64 %rd1, -1e300", D_R64, 0x8000000000000000ull),
    EQ("cvt.rzi.u64.f32 %rd1, -5.0", D_R64, 0),
    EQ("cvt.rzi.u64.f64 %rd1, 1e30", D_R64, ~0ull),
    EQ("cvt.rzi.s32.f64 %r1, -2147483648.9", D_R32, 0x80000000u),
    /* gpusim accepts PTX's float roundings here as their integer forms, and
     * no rounding as .rzi (C's conversion) */
    EQ("cvt.rni.s32.f32 %r1, 1.5", D_R32, 2),   /* (float to integer: integer roundings only, as ptxas) */
    EQ("cvt.rni.s32.f32 %r1, 2.5", D_R32, 2),
    EQ("cvt.rmi.s32.f32 %r1, -0.5", D_R32, 0xffffffffu),
    EQ("cvt.rpi.u32.f32 %r1, 0.25", D_R32, 1),
    EQ("cvt.rzi.s32.f32 %r1, -2.75", D_R32, (uint32_t)-2),
    EQ("cvt.rzi.s16.f32 %rs1, 40000.0", D_R16, 0x7fff),
    EQ("cvt.rzi.u8.f32 %r1, 300.0", D_R32, 0xff),
    EQ("cvt.rni.s8.f32 %r1, -300.0", D_R32, 0xffffff80u),     /* -128, sign-extended */
    /* int -> float */
    EQ("cvt.rn.f32.s32 %f1, 16777217", D_F32, 0x4b800000u),
    EQ("cvt.rn.f32.s32 %f1, -1", D_F32, 0xbf800000u),
    EQ("cvt.rn.f32.u32 %f1, 0xffffffff", D_F32, 0x4f800000u),
    EQ("cvt.rz.f32.u32 %f1, 0xffffffff", D_F32, 0x4f7fffffu),
    EQ("cvt.rp.f32.s32 %f1, 16777217", D_F32, 0x4b800001u),
    EQ("cvt.rm.f32.s32 %f1, -16777217", D_F32, 0xcb800001u),
    EQ("cvt.rn.f32.u64 %f1, 0xffffffffffffffff", D_F32, 0x5f800000u),
    EQ("cvt.rz.f32.u64 %f1, 0xffffffffffffffff", D_F32, 0x5f7fffffu),
    /* 2^63 + 2^39 + 1 is just above a tie: a trip through f64 would round
     * the +1 away first and then tie to even (0x5f000000) */
    EQ("cvt.rn.f32.u64 %f1, 0x8000008000000001", D_F32, 0x5f000001u),
    EQ("cvt.rn.f32.s64 %f1, 0x8000000000000000", D_F32, 0xdf000000u),
    EQ("cvt.rn.f64.s32 %fd1, -2147483648", D_F64, 0xc1e0000000000000ull),
    EQ("cvt.rn.f64.u64 %fd1, 0xffffffffffffffff", D_F64, 0x43f0000000000000ull),
    EQ("cvt.rz.f64.u64 %fd1, 0xffffffffffffffff", D_F64, 0x43efffffffffffffull),
    /* f32 <-> f64 */
    EQ("cvt.f64.f32 %fd1, 0f3DCCCCCD", D_F64, 0x3fb99999a0000000ull),
    EQ("cvt.rn.f32.f64 %f1, 0.1", D_F32, 0x3dcccccdu),
    EQ("cvt.rz.f32.f64 %f1, 0.1", D_F32, 0x3dccccccu),
    EQ("cvt.rm.f32.f64 %f1, 0.1", D_F32, 0x3dccccccu),
    EQ("cvt.rp.f32.f64 %f1, 0.1", D_F32, 0x3dcccccdu),
    EQ("cvt.rm.f32.f64 %f1, -0.1", D_F32, 0xbdcccccdu),
    EQ("cvt.rn.f32.f64 %f1, 1e300", D_F32, 0x7f800000u),
    EQ("cvt.rz.f32.f64 %f1, 1e300", D_F32, 0x7f7fffffu),
    ISNAN("cvt.rn.f32.f64 %f1, 0d7FF8000000000000", D_F32),
    EQ("cvt.f64.f32 %fd1, 0f00400000", D_F64, 0x3800000000000000ull),       /* 2^-127, exact */
    EQ("cvt.ftz.f64.f32 %fd1, 0f00400000", D_F64, 0),
    /* float -> float with integer rounding or saturation */
    EQ("cvt.rni.f32.f32 %f1, 2.5", D_F32, 0x40000000u),
    EQ("cvt.rmi.f32.f32 %f1, -0.5", D_F32, 0xbf800000u),
    EQ("cvt.rpi.f64.f64 %fd1, 1.25", D_F64, 0x4000000000000000ull),
    EQ("cvt.sat.f32.f32 %f1, 1.5", D_F32, 0x3f800000u),
    EQ("cvt.sat.f32.f32 %f1, 0f7FC00000", D_F32, 0),
    EQ("cvt.ftz.f32.f32 %f1, 0f80400000", D_F32, 0x80000000u),
    /* int -> int: .sat clamps to the destination range */
    EQ("cvt.sat.u8.s32 %r1, 300", D_R32, 255),
    EQ("cvt.sat.u8.s32 %r1, -5", D_R32, 0),
    EQ("cvt.sat.s8.s32 %r1, 300", D_R32, 127),
    EQ("cvt.sat.s8.s32 %r1, -300", D_R32, 0xffffff80u),
    EQ("cvt.sat.u16.u32 %r1, 0x12345", D_R32, 0xffff),
    EQ("cvt.sat.s32.s64 %r1, 0x100000000", D_R32, 0x7fffffffu),
    EQ("cvt.sat.s32.s64 %r1, -4294967296", D_R32, 0x80000000u),
    EQ("cvt.sat.u32.s64 %r1, -1", D_R32, 0),
    EQ("cvt.sat.s32.u32 %r1, 0xffffffff", D_R32, 0x7fffffffu),
    EQ("cvt.sat.u64.s64 %rd1, -1", D_R64, 0),
    EQ("cvt.sat.s64.u64 %rd1, 0xffffffffffffffff", D_R64, 0x7fffffffffffffffull),
    /* without .sat: truncate to the destination, then extend by its
     * signedness into the register (PTX, relaxed cvt operand sizes) */
    EQ("cvt.u8.s32 %r1, 300", D_R32, 44),
    EQ("cvt.s8.s32 %r1, 200", D_R32, 0xffffffc8u),
    EQ("cvt.u16.s32 %r1, -1", D_R32, 0xffff),
    EQ("cvt.s16.u32 %r1, 0x18000", D_R32, 0xffff8000u),
    EQ("cvt.u32.u64 %r1, 0x100000005", D_R32, 5),
    EQ("cvt.s32.s64 %r1, 0xfffffffe00000001", D_R32, 1),
    /* sign and zero extension */
    EQ("mov.b32 %r2, 0x80; cvt.s32.s8 %r1, %r2", D_R32, 0xffffff80u),
    EQ("mov.b32 %r2, 0x17f; cvt.s32.s8 %r1, %r2", D_R32, 0x7f),
    EQ("mov.b32 %r2, 0x1ff; cvt.u32.u8 %r1, %r2", D_R32, 0xff),
    EQ("mov.b32 %r2, 0x8000; cvt.s32.s16 %r1, %r2", D_R32, 0xffff8000u),
    EQ("cvt.s64.s32 %rd1, -1", D_R64, ~0ull),
    EQ("cvt.u64.u32 %rd1, 0xffffffff", D_R64, 0xffffffffull),
    EQ("cvt.u64.s32 %rd1, -1", D_R64, ~0ull),            /* extends by the source's sign */
    EQ("cvt.s64.u32 %rd1, 0xffffffff", D_R64, 0xffffffffull),
    EQ("mov.b16 %rs2, 0xff80; cvt.s64.s16 %rd1, %rs2", D_R64, 0xffffffffffffff80ull),
};

/* Integer cvt over a whole warp and over half of one (the row-wise path,
 * exec_fast): thread t converts t - 16 to .s64; (t << 32 | t + 7) to .u32
 * (truncation); t * 4096 as .s16 into .s32 (negative for t in 8-15 and 24-31); and,
 * threads below 16 only, -t to .s64. */
static void test_cvt_warp(void **state)
{
    (void)state;
    static const char src[] =
        ".buffer out .u64[128] zero\n"
        ".launch k grid=1 block=32 args=(out)\n"
        ".entry k (.param .u64 o)\n{\n"
        "    ld.param.u64 %rd1, [o];\n"
        "    mov.u32 %r1, %tid.x;\n"
        "    mul.wide.u32 %rd2, %r1, 8;\n"
        "    add.s64 %rd3, %rd1, %rd2;\n"
        "    sub.s32 %r2, %r1, 16;\n"
        "    cvt.s64.s32 %rd4, %r2;\n"
        "    st.global.u64 [%rd3], %rd4;\n"
        "    cvt.u64.u32 %rd5, %r1;\n"
        "    shl.b64 %rd5, %rd5, 32;\n"
        "    add.s64 %rd5, %rd5, 7;\n"
        "    cvt.u64.u32 %rd6, %r1;\n"
        "    add.s64 %rd5, %rd5, %rd6;\n"
        "    cvt.u32.u64 %r3, %rd5;\n"
        "    cvt.u64.u32 %rd7, %r3;\n"
        "    st.global.u64 [%rd3+256], %rd7;\n"
        "    mul.lo.u32 %r4, %r1, 4096;\n"
        "    cvt.s32.s16 %r5, %r4;\n"
        "    cvt.s64.s32 %rd8, %r5;\n"
        "    st.global.u64 [%rd3+512], %rd8;\n"
        "    setp.lt.u32 %p1, %r1, 16;\n"
        "    neg.s32 %r6, %r1;\n"
        "    @%p1 cvt.s64.s32 %rd9, %r6;\n"
        "    @%p1 st.global.u64 [%rd3+768], %rd9;\n"
        "    ret;\n}\n";
    Sim s;
    sim_ok(&s, src);
    const uint64_t *o = sim_buf(&s, "out");
    for (int t = 0; t < 32; t++) {
        assert_int_equal(o[t], (uint64_t)(int64_t)(t - 16));
        assert_int_equal(o[32 + t], (uint64_t)(t + 7));
        /* t * 4096 read as 16 bits, signed: ((t * 4096 + 32768) mod 65536) - 32768 */
        assert_int_equal(o[64 + t], (uint64_t)(int64_t)((t * 4096 + 32768) % 65536 - 32768));
        assert_int_equal(o[96 + t], t < 16 ? (uint64_t)(int64_t)-t : 0);
    }
    sim_free(&s);
}

/* Kernel parameter loads and cvta a register row at a time (exec_fast,
 * fast_ld_param): every lane gets the parameter, sign-extended from .s32
 * into a 64-bit register; a guarded half warp loads a .u16 parameter and
 * the other lanes keep their 7; cvta.shared moves each lane's shared offset
 * 8t into the generic window (the same distance for every lane, and a
 * generic store through it lands at the offset) and cvta.to.shared brings
 * it back over a half warp, the other lanes keeping 99. */
static void test_param_cvta_warp(void **state)
{
    (void)state;
    static const char src[] =
        ".buffer out .u64[192] zero\n"
        ".launch k grid=1 block=32 args=(out, -5, 51966)\n"
        ".entry k (.param .u64 o, .param .s32 n, .param .u16 h)\n{\n"
        "    .shared .align 8 .b8 buf[256];\n"
        "    ld.param.u64 %rd1, [o];\n"
        "    cvta.to.global.u64 %rd1, %rd1;\n"
        "    mov.u32 %r1, %tid.x;\n"
        "    mul.wide.u32 %rd2, %r1, 8;\n"
        "    add.s64 %rd3, %rd1, %rd2;\n"
        "    ld.param.s32 %r2, [n];\n"
        "    cvt.s64.s32 %rd4, %r2;\n"
        "    st.global.u64 [%rd3], %rd4;\n"
        "    setp.lt.u32 %p1, %r1, 16;\n"
        "    mov.u16 %rs1, 7;\n"
        "    @%p1 ld.param.u16 %rs1, [h];\n"
        "    cvt.u64.u16 %rd5, %rs1;\n"
        "    st.global.u64 [%rd3+256], %rd5;\n"
        "    mov.u64 %rd6, buf;\n"
        "    add.s64 %rd6, %rd6, %rd2;\n"
        "    cvta.shared.u64 %rd7, %rd6;\n"
        "    sub.s64 %rd8, %rd7, %rd6;\n"
        "    st.global.u64 [%rd3+512], %rd8;\n"
        "    st.u64 [%rd7], %rd2;\n"
        "    ld.shared.u64 %rd9, [%rd6];\n"
        "    st.global.u64 [%rd3+768], %rd9;\n"
        "    mov.u64 %rd10, 99;\n"
        "    @%p1 cvta.to.shared.u64 %rd10, %rd7;\n"
        "    st.global.u64 [%rd3+1024], %rd10;\n"
        "    st.global.u64 [%rd3+1280], %rd6;\n"
        "    ret;\n}\n";
    Sim s;
    sim_ok(&s, src);
    const uint64_t *o = sim_buf(&s, "out");
    for (int t = 0; t < 32; t++) {
        assert_int_equal(o[t], (uint64_t)(int64_t)-5);
        assert_int_equal(o[32 + t], t < 16 ? 51966 : 7);
        assert_true(o[64 + t] != 0);
        assert_int_equal(o[64 + t], o[64]);            /* one window for every lane */
        assert_int_equal(o[96 + t], (uint64_t)t * 8);   /* the generic store landed at the offset */
        assert_int_equal(o[160 + t], o[160] + (uint64_t)t * 8);   /* buf + 8t */
        assert_int_equal(o[128 + t], t < 16 ? o[160 + t] : 99);    /* back to the offset */
    }
    sim_free(&s);
}

static void test_cvt(void **state)
{
    (void)state;
    run_cases(cvt_cases);
}

/* ---- setp, selp, mov --------------------------------------------------------------------- */

static const Case setp_cases[] = {
    EQ("setp.eq.s32 %p1, -1, -1", D_PRED, 1),
    EQ("setp.ne.s32 %p1, -1, -1", D_PRED, 0),
    EQ("setp.lt.s32 %p1, -1, 1", D_PRED, 1),
    EQ("setp.le.s32 %p1, 1, 1", D_PRED, 1),
    EQ("setp.gt.s32 %p1, -1, 1", D_PRED, 0),
    EQ("setp.ge.s32 %p1, -1, -1", D_PRED, 1),
    EQ("setp.lt.u32 %p1, -1, 1", D_PRED, 0),            /* 0xffffffff > 1 unsigned */
    EQ("setp.gt.u32 %p1, 0xffffffff, 1", D_PRED, 1),
    EQ("setp.lo.u32 %p1, 1, 0xffffffff", D_PRED, 1),
    EQ("setp.lo.u32 %p1, 0xffffffff, 1", D_PRED, 0),
    EQ("setp.ls.u32 %p1, 5, 5", D_PRED, 1),
    EQ("setp.ls.u32 %p1, 6, 5", D_PRED, 0),
    EQ("setp.hi.u32 %p1, 0x80000000, 1", D_PRED, 1),
    EQ("setp.hi.u32 %p1, 5, 5", D_PRED, 0),
    EQ("setp.hs.u32 %p1, 5, 5", D_PRED, 1),
    EQ("setp.hs.u32 %p1, 4, 5", D_PRED, 0),
    EQ("setp.lo.u32 %p1, 1, 0x80000000", D_PRED, 1),   /* (.b types compare .eq/.ne only, as ptxas) */
    EQ("setp.hi.u64 %p1, 0x8000000000000000, 1", D_PRED, 1),
    EQ("setp.lt.s64 %p1, 0x8000000000000000, 1", D_PRED, 1),
    EQ("setp.ge.u64 %p1, 0xffffffffffffffff, 0", D_PRED, 1),
    EQ("setp.lt.s16 %p1, 0x8000, 1", D_PRED, 1),
    EQ("setp.lt.u16 %p1, 0x8000, 1", D_PRED, 0),
    EQ("setp.eq.b32 %p1, 0xffffffff, -1", D_PRED, 1),
    EQ("setp.ne.b64 %p1, 1, 0x100000001", D_PRED, 1),
    /* floats, ordered and unordered, without and with a NaN */
    EQ("setp.eq.f32 %p1, 1.0, 2.0", D_PRED, 0),
    EQ("setp.ne.f32 %p1, 1.0, 2.0", D_PRED, 1),
    EQ("setp.lt.f32 %p1, 1.0, 2.0", D_PRED, 1),
    EQ("setp.le.f32 %p1, 1.0, 2.0", D_PRED, 1),
    EQ("setp.gt.f32 %p1, 1.0, 2.0", D_PRED, 0),
    EQ("setp.ge.f32 %p1, 1.0, 2.0", D_PRED, 0),
    EQ("setp.equ.f32 %p1, 1.0, 2.0", D_PRED, 0),
    EQ("setp.neu.f32 %p1, 1.0, 2.0", D_PRED, 1),
    EQ("setp.ltu.f32 %p1, 1.0, 2.0", D_PRED, 1),
    EQ("setp.leu.f32 %p1, 1.0, 2.0", D_PRED, 1),
    EQ("setp.gtu.f32 %p1, 1.0, 2.0", D_PRED, 0),
    EQ("setp.geu.f32 %p1, 1.0, 2.0", D_PRED, 0),
    EQ("setp.num.f32 %p1, 1.0, 2.0", D_PRED, 1),
    EQ("setp.nan.f32 %p1, 1.0, 2.0", D_PRED, 0),
    EQ("setp.eq.f32 %p1, 0f7FC00000, 1.0", D_PRED, 0),
    EQ("setp.ne.f32 %p1, 0f7FC00000, 1.0", D_PRED, 0),
    EQ("setp.lt.f32 %p1, 0f7FC00000, 1.0", D_PRED, 0),
    EQ("setp.le.f32 %p1, 1.0, 0f7FC00000", D_PRED, 0),
    EQ("setp.gt.f32 %p1, 0f7FC00000, 1.0", D_PRED, 0),
    EQ("setp.ge.f32 %p1, 0f7FC00000, 0f7FC00000", D_PRED, 0),
    EQ("setp.equ.f32 %p1, 0f7FC00000, 1.0", D_PRED, 1),
    EQ("setp.neu.f32 %p1, 0f7FC00000, 1.0", D_PRED, 1),
    EQ("setp.ltu.f32 %p1, 0f7FC00000, 1.0", D_PRED, 1),
    EQ("setp.leu.f32 %p1, 1.0, 0f7FC00000", D_PRED, 1),
    EQ("setp.gtu.f32 %p1, 0f7FC00000, 1.0", D_PRED, 1),
    EQ("setp.geu.f32 %p1, 0f7FC00000, 0f7FC00000", D_PRED, 1),
    EQ("setp.num.f32 %p1, 0f7FC00000, 1.0", D_PRED, 0),
    EQ("setp.nan.f32 %p1, 1.0, 0f7FC00000", D_PRED, 1),
    EQ("setp.eq.f32 %p1, 0f80000000, 0f00000000", D_PRED, 1),      /* -0 == +0 */
    EQ("setp.lt.f64 %p1, 0dFFF0000000000000, -1e300", D_PRED, 1),
    EQ("setp.nan.f64 %p1, 0d7FF8000000000000, 1.0", D_PRED, 1),
    EQ("setp.neu.f64 %p1, 0d7FF8000000000000, 0d7FF8000000000000", D_PRED, 1),
    /* .and/.or/.xor combine with c; %p2 true, %p3 false */
    EQ("setp.eq.s32 %p2, 0, 0; setp.ne.s32 %p3, 0, 0; setp.lt.and.s32 %p1, 1, 2, %p2", D_PRED, 1),
    EQ("setp.lt.and.s32 %p1, 1, 2, %p3", D_PRED, 0),
    EQ("setp.lt.and.s32 %p1, 1, 2, !%p3", D_PRED, 1),
    EQ("setp.gt.or.s32 %p1, 1, 2, %p2", D_PRED, 1),
    EQ("setp.gt.or.s32 %p1, 1, 2, %p3", D_PRED, 0),
    EQ("setp.lt.xor.s32 %p1, 1, 2, %p2", D_PRED, 0),
    EQ("setp.lt.xor.s32 %p1, 1, 2, %p3", D_PRED, 1),
    EQ("setp.nan.or.f32 %p1, 1.0, 1.0, %p3", D_PRED, 0),
    /* p|q: q = !t combined with c the same way */
    EQ("setp.lt.s32 %p1|%p4, 1, 2", D_PRED, 1),
    EQ("setp.lt.s32 %p4|%p1, 1, 2", D_PRED, 0),
    EQ("setp.gt.s32 %p4|%p1, 1, 2", D_PRED, 1),
    EQ("setp.gt.and.s32 %p4|%p1, 1, 2, %p2", D_PRED, 1),   /* q = !0 & 1 */
    EQ("setp.gt.and.s32 %p4|%p1, 1, 2, %p3", D_PRED, 0),   /* q = !0 & 0 */
    EQ("setp.lt.or.s32 %p4|%p1, 1, 2, %p2", D_PRED, 1),    /* q = !1 | 1 */
    EQ("setp.lt.or.s32 %p4|%p1, 1, 2, %p3", D_PRED, 0),    /* q = !1 | 0 */
    EQ("setp.lt.xor.s32 %p4|%p1, 1, 2, %p2", D_PRED, 1),   /* q = !1 ^ 1 */
    EQ("setp.nan.f32 %p4|%p1, 0f7FC00000, 1.0", D_PRED, 0),
};

static void test_setp(void **state)
{
    (void)state;
    run_cases(setp_cases);
}

static const Case selp_mov_cases[] = {
    EQ("setp.eq.s32 %p2, 0, 0; selp.s32 %r1, 10, 20, %p2", D_R32, 10),
    EQ("selp.s32 %r1, 10, 20, !%p2", D_R32, 20),
    EQ("setp.ne.s32 %p3, 0, 0; selp.u32 %r1, 10, 20, %p3", D_R32, 20),
    EQ("selp.f32 %f1, 1.5, 2.5, %p2", D_F32, 0x3fc00000u),
    EQ("selp.b64 %rd1, 0x123456789, 7, %p3", D_R64, 7),
    EQ("selp.f64 %fd1, 1.0, -1.0, %p2", D_F64, 0x3ff0000000000000ull),
    EQ("selp.b16 %rs1, 0x1234, 0x5678, %p3", D_R16, 0x5678),
    EQ("mov.u32 %r1, 0xcafef00d", D_R32, 0xcafef00du),
    EQ("mov.s32 %r1, -1", D_R32, 0xffffffffu),
    EQ("mov.u64 %rd1, 0x123456789abcdef0", D_R64, 0x123456789abcdef0ull),
    EQ("mov.u32 %r2, 77; mov.u32 %r1, %r2", D_R32, 77),
    EQ("mov.f32 %f1, 1.5", D_F32, 0x3fc00000u),
    EQ("mov.f32 %f1, -0.0", D_F32, 0x80000000u),
    EQ("mov.f32 %f1, 0f7F800000", D_F32, 0x7f800000u),
    EQ("mov.f64 %fd1, -2.0", D_F64, 0xc000000000000000ull),
    EQ("mov.b16 %rs1, 0xbeef", D_R16, 0xbeef),
    EQ("mov.b32 %f2, 0x40490fdb; mov.f32 %f1, %f2", D_F32, 0x40490fdbu),
};

static void test_selp_mov(void **state)
{
    (void)state;
    run_cases(selp_mov_cases);
}

/* ---- special registers ----------------------------------------------------------------- */

enum { SR_SLOTS = 20 };

/* Every thread of a 3D grid of 3D blocks stores its special registers in
 * its own 20-word record; blocks of 5x3x3 = 45 threads make a partial
 * second warp.  Threads are numbered x fastest, then y, then z. */
static void test_special_registers(void **state)
{
    (void)state;
    static const char src[] =
        ".buffer out .u32[2*1*3*45*20] zero\n"
        ".launch k grid=(2,1,3) block=(5,3,3) args=(out)\n"
        ".entry k (.param .u64 o)\n{\n"
        "    ld.param.u64 %rd1, [o];\n"
        "    mov.u32 %r1, %tid.x;  mov.u32 %r2, %tid.y;  mov.u32 %r3, %tid.z;\n"
        "    mov.u32 %r4, %ntid.x; mov.u32 %r5, %ntid.y; mov.u32 %r6, %ntid.z;\n"
        "    mov.u32 %r7, %ctaid.x; mov.u32 %r8, %ctaid.y; mov.u32 %r9, %ctaid.z;\n"
        "    mov.u32 %r10, %nctaid.x; mov.u32 %r11, %nctaid.y; mov.u32 %r12, %nctaid.z;\n"
        "    mov.u32 %r13, %laneid; mov.u32 %r14, %warpid;\n"
        "    mov.u32 %r15, %lanemask_eq; mov.u32 %r16, %lanemask_lt; mov.u32 %r17, %lanemask_le;\n"
        "    mov.u32 %r18, %lanemask_gt; mov.u32 %r19, %lanemask_ge;\n"
        /* t = tid.x + ntid.x * (tid.y + ntid.y * tid.z) */
        "    mad.lo.u32 %r20, %r5, %r3, %r2;\n"
        "    mad.lo.u32 %r20, %r4, %r20, %r1;\n"
        /* b = ctaid.x + nctaid.x * (ctaid.y + nctaid.y * ctaid.z) */
        "    mad.lo.u32 %r21, %r11, %r9, %r8;\n"
        "    mad.lo.u32 %r21, %r10, %r21, %r7;\n"
        "    mul.lo.u32 %r22, %r4, %r5;\n"
        "    mul.lo.u32 %r22, %r22, %r6;\n"
        "    mad.lo.u32 %r23, %r21, %r22, %r20;\n"      /* global linear thread */
        "    mul.lo.u32 %r23, %r23, 80;\n"
        "    cvt.u64.u32 %rd2, %r23;\n"
        "    add.s64 %rd3, %rd1, %rd2;\n"
        "    st.global.v4.u32 [%rd3], {%r1, %r2, %r3, %r4};\n"
        "    st.global.v4.u32 [%rd3+16], {%r5, %r6, %r7, %r8};\n"
        "    st.global.v4.u32 [%rd3+32], {%r9, %r10, %r11, %r12};\n"
        "    st.global.v4.u32 [%rd3+48], {%r13, %r14, %r15, %r16};\n"
        "    st.global.v4.u32 [%rd3+64], {%r17, %r18, %r19, %r20};\n"
        "    ret;\n}\n";
    Sim s;
    sim_ok(&s, src);
    const uint32_t *o = sim_buf(&s, "out");
    for (uint32_t bz = 0; bz < 3; bz++)
        for (uint32_t bx = 0; bx < 2; bx++)
            for (uint32_t t = 0; t < 45; t++) {
                uint32_t b = bx + 2 * bz;
                const uint32_t *r = o + (size_t)(b * 45 + t) * SR_SLOTS;
                uint32_t lane = t % 32, warp = t / 32;
                uint32_t want[SR_SLOTS] = {
                    t % 5, (t / 5) % 3, t / 15, 5, 3, 3, bx, 0, bz, 2, 1, 3, lane, warp,
                    1u << lane, (1u << lane) - 1, (uint32_t)((2ull << lane) - 1),
                    ~(uint32_t)((2ull << lane) - 1), ~((1u << lane) - 1), t,
                };
                for (int i = 0; i < SR_SLOTS; i++)
                    if (r[i] != want[i]) fail_msg("block (%u,0,%u) thread %u slot %d: got 0x%x, want 0x%x", bx, bz, t, i, r[i], want[i]);
            }
    /* the lanemasks the issue names, spelled out */
    const uint32_t *l0 = o, *l5 = o + 5 * SR_SLOTS, *l31 = o + 31 * SR_SLOTS;
    assert_int_equal(l0[14], 0x1);  assert_int_equal(l0[15], 0x0);  assert_int_equal(l0[16], 0x1);
    assert_int_equal(l0[17], 0xfffffffeu); assert_int_equal(l0[18], 0xffffffffu);
    assert_int_equal(l5[14], 0x20); assert_int_equal(l5[15], 0x1f); assert_int_equal(l5[16], 0x3f);
    assert_int_equal(l5[17], 0xffffffc0u); assert_int_equal(l5[18], 0xffffffe0u);
    assert_int_equal(l31[14], 0x80000000u); assert_int_equal(l31[15], 0x7fffffffu);
    assert_int_equal(l31[16], 0xffffffffu); assert_int_equal(l31[17], 0); assert_int_equal(l31[18], 0x80000000u);
    sim_free(&s);
}

/* %smid < %nsmid (the config's SM count), %nwarpid is the SM's warp
 * capacity, and %clock / %clock64 only move forward. */
static void test_sm_registers_and_clock(void **state)
{
    (void)state;
    static const char src[] =
        ".buffer out .u64[8*6] zero\n"
        ".launch k grid=8 block=32 args=(out)\n"
        ".entry k (.param .u64 o)\n{\n"
        "    ld.param.u64 %rd1, [o];\n"
        "    mov.u32 %r1, %ctaid.x;\n"
        "    mul.wide.u32 %rd2, %r1, 48;\n"
        "    add.s64 %rd3, %rd1, %rd2;\n"
        "    mov.u64 %rd4, %clock64;\n"
        "    mov.u32 %r2, %clock;\n"
        "    mov.u32 %r3, %smid;\n"
        "    mov.u32 %r4, %nsmid;\n"
        "    mov.u32 %r5, %nwarpid;\n"
        "    mov.u64 %rd5, %clock64;\n"
        "    mov.u32 %r6, %tid.x;\n"
        "    setp.ne.u32 %p1, %r6, 0;\n"
        "    @%p1 bra DONE;\n"
        "    st.global.u64 [%rd3], %rd4;\n"
        "    st.global.u64 [%rd3+8], %rd5;\n"
        "    st.global.v4.u32 [%rd3+16], {%r2, %r3, %r4, %r5};\n"
        "DONE:\n"
        "    ret;\n}\n";
    Sim s;
    sim_ok(&s, src);
    const uint64_t *o = sim_buf(&s, "out");
    for (int b = 0; b < 8; b++) {
        const uint64_t *r = o + 6 * b;
        uint32_t clk = (uint32_t)r[2], smid = (uint32_t)(r[2] >> 32), nsmid = (uint32_t)r[3], nwarpid = (uint32_t)(r[3] >> 32);
        assert_true(r[1] > r[0]);
        assert_true(clk >= (uint32_t)r[0] && clk <= (uint32_t)r[1]);
        if (b) assert_true(r[0] > o[6 * (b - 1) + 1]);      /* blocks run one after another */
        assert_int_equal(nsmid, s.cfg.gpu.num_sms);
        assert_true(smid < nsmid);
        assert_int_equal(nwarpid, s.cfg.sm.max_warps);
    }
    sim_free(&s);
}

/* ---- memory ---------------------------------------------------------------------------------- */

/* Loads of every size, sign and zero extension into wider registers,
 * vectors, the '_' sink, [reg+offset] and [reg-offset], ld.param. */
#define ST_SLOT(off) "    st.global.u32 [%rd2+" #off "], %r1;\n"

static void test_ld_st_sizes(void **state)
{
    (void)state;
    static const char src[] =
        ".buffer src .u8[256] iota\n"
        ".buffer out .u64[32] zero\n"
        ".buffer st8 .u8[64] zero\n"
        ".launch k grid=1 block=1 args=(src, out, st8, 0xfedcba98, -7)\n"
        ".entry k (.param .u64 s, .param .u64 o, .param .u64 b, .param .u32 x, .param .s64 y)\n{\n"
        "    ld.param.u64 %rd1, [s];\n"
        "    ld.param.u64 %rd2, [o];\n"
        "    ld.param.u64 %rd3, [b];\n"
        "    ld.global.u8 %r1, [%rd1+200];\n"        ST_SLOT(0)
        "    ld.global.s8 %r1, [%rd1+200];\n"        ST_SLOT(8)
        "    ld.global.u16 %r1, [%rd1+128];\n"       ST_SLOT(16)
        "    ld.global.s16 %r1, [%rd1+128];\n"       ST_SLOT(24)
        "    ld.global.u32 %r1, [%rd1+4];\n"         ST_SLOT(32)
        "    ld.global.s32 %r1, [%rd1+252];\n"       ST_SLOT(40)
        "    ld.global.b8 %r1, [%rd1+255];\n"        ST_SLOT(48)
        "    ld.global.s8 %rd4, [%rd1+255];\n"       "    st.global.u64 [%rd2+56], %rd4;\n"
        "    ld.global.s8 %rs1, [%rd1+128];\n"       "    st.global.u16 [%rd2+64], %rs1;\n"
        "    ld.global.u64 %rd4, [%rd1+8];\n"        "    st.global.u64 [%rd2+72], %rd4;\n"
        "    ld.global.f32 %f1, [%rd1+16];\n"        "    st.global.f32 [%rd2+80], %f1;\n"
        "    ld.global.f64 %fd1, [%rd1+24];\n"       "    st.global.f64 [%rd2+88], %fd1;\n"
        "    ld.global.v2.u32 {%r2, %r3}, [%rd1+32];\n"
        "    st.global.v2.u32 [%rd2+96], {%r3, %r2};\n"
        "    ld.global.v4.u32 {%r4, _, %r6, %r7}, [%rd1+48];\n"
        "    st.global.v4.u32 [%rd2+112], {%r7, %r6, %r4, %r4};\n"
        "    ld.global.v2.u64 {%rd5, %rd6}, [%rd1+64];\n"
        "    st.global.v2.u64 [%rd2+128], {%rd6, %rd5};\n"
        "    ld.global.v4.u16 {%rs2, %rs3, %rs4, %rs5}, [%rd1+80];\n"
        "    st.global.v4.u16 [%rd2+144], {%rs5, %rs4, %rs3, %rs2};\n"
        "    add.s64 %rd7, %rd1, 100;\n"
        "    ld.global.u8 %r8, [%rd7-3];\n"          "    st.global.u32 [%rd2+152], %r8;\n"
        "    ld.param.u32 %r9, [x];\n"               "    st.global.u32 [%rd2+160], %r9;\n"
        /* cache operators and .volatile change nothing functionally */
        "    ld.global.nc.u32 %r11, [%rd1+4];\n"     "    st.global.cg.u32 [%rd2+176], %r11;\n"
        "    ld.volatile.global.u32 %r11, [%rd1+8];\n" "    st.global.wb.u32 [%rd2+180], %r11;\n"
        "    ld.global.ca.v2.u32 {%r12, %r13}, [%rd1+8];\n" "    st.global.cs.v2.u32 [%rd2+184], {%r13, %r12};\n"
        "    ld.param.s64 %rd8, [y];\n"              "    st.global.u64 [%rd2+168], %rd8;\n"
        /* stores write only their size */
        "    mov.b32 %r10, 0x11223344;\n"
        "    st.global.u8 [%rd3+1], %r10;\n"
        "    st.global.b16 [%rd3+4], %r10;\n"
        "    st.global.u32 [%rd3+8], %r10;\n"
        "    mov.b64 %rd9, 0x0102030405060708;\n"
        "    st.global.u64 [%rd3+16], %rd9;\n"
        "    st.global.s8 [%rd3+24], -1;\n"
        "    ret;\n}\n";
    Sim s;
    sim_ok(&s, src);
    const uint64_t *o = sim_buf(&s, "out");
    const uint8_t *b = sim_buf(&s, "st8");
    assert_int_equal(o[0], 200);
    assert_int_equal(o[1], 0xffffffc8u);                  /* -56 sign-extended to 32 bits */
    assert_int_equal(o[2], 0x8180);
    assert_int_equal(o[3], 0xffff8180u);
    assert_int_equal(o[4], 0x07060504);
    assert_int_equal(o[5], 0xfffefdfcu);
    assert_int_equal(o[6], 0xff);
    assert_int_equal(o[7], 0xffffffffffffffffull);        /* .s8 into a 64-bit register */
    assert_int_equal(o[8], 0xff80);                       /* .s8 into a 16-bit register */
    assert_int_equal(o[9], 0x0f0e0d0c0b0a0908ull);
    assert_int_equal(o[10], 0x13121110u);
    assert_int_equal(o[11], 0x1f1e1d1c1b1a1918ull);
    assert_int_equal(o[12], 0x2322212027262524ull);       /* v2 swapped */
    assert_int_equal(o[14], 0x3b3a39383f3e3d3cull);       /* {w3, w2} */
    assert_int_equal(o[15], 0x3332313033323130ull);       /* {w0, w0} */
    assert_int_equal(o[16], 0x4f4e4d4c4b4a4948ull);
    assert_int_equal(o[17], 0x4746454443424140ull);
    assert_int_equal(o[18], 0x5150535255545756ull);       /* four u16, reversed */
    assert_int_equal(o[19], 97);
    assert_int_equal(o[20], 0xfedcba98u);
    assert_int_equal(o[21], (uint64_t)-7);
    assert_int_equal(o[22], 0x0b0a090807060504ull);
    assert_int_equal(o[23], 0x0b0a09080f0e0d0cull);
    static const uint8_t want[32] = {
        0, 0x44, 0, 0, 0x44, 0x33, 0, 0, 0x44, 0x33, 0x22, 0x11, 0, 0, 0, 0,
        8, 7, 6, 5, 4, 3, 2, 1, 0xff, 0, 0, 0, 0, 0, 0, 0,
    };
    assert_memory_equal(b, want, 32);
    sim_free(&s);
}

/* Lanes whose guard is false neither access memory (no fault for their
 * out-of-bounds addresses) nor write their destination. */
static void test_guarded_memory(void **state)
{
    (void)state;
    static const char src[] =
        ".buffer a .u32[10] iota(1, 1)\n"
        ".buffer out .u32[32] zero\n"
        ".buffer cnt .u32[1] zero\n"
        ".launch k grid=1 block=32 args=(a, out, cnt)\n"
        ".entry k (.param .u64 pa, .param .u64 po, .param .u64 pc)\n{\n"
        "    ld.param.u64 %rd1, [pa];\n"
        "    ld.param.u64 %rd2, [po];\n"
        "    ld.param.u64 %rd5, [pc];\n"
        "    mov.u32 %r1, %tid.x;\n"
        "    mul.wide.u32 %rd3, %r1, 4;\n"
        "    add.s64 %rd4, %rd1, %rd3;\n"           /* &a[t]: past the end for t >= 10 */
        "    setp.lt.u32 %p1, %r1, 10;\n"
        "    mov.u32 %r2, 77;\n"
        "    @%p1 ld.global.u32 %r2, [%rd4];\n"
        "    @%p1 st.global.u32 [%rd4], 0;\n"
        "    @%p1 atom.global.add.u32 %r3, [%rd5], 1;\n"
        "    add.s64 %rd6, %rd2, %rd3;\n"
        "    st.global.u32 [%rd6], %r2;\n"
        "    ret;\n}\n";
    Sim s;
    sim_ok(&s, src);
    const uint32_t *o = sim_buf(&s, "out"), *a = sim_buf(&s, "a"), *c = sim_buf(&s, "cnt");
    for (uint32_t t = 0; t < 32; t++) assert_int_equal(o[t], t < 10 ? t + 1 : 77);
    for (uint32_t t = 0; t < 10; t++) assert_int_equal(a[t], 0);
    assert_int_equal(c[0], 10);
    assert_int_equal(s.run.stats.thread_inst_pred_on + 3 * 22, s.run.stats.thread_inst);
    sim_free(&s);
}

/* A memory instruction whose guard turns every lane off still tells the
 * timing model its state space (ExecOut.mem.space), as a load or store
 * does: an atomic and a reduction with no lane active said nothing, so
 * issue() read whatever the stack held, and the run's timing followed it
 * (found when a lane's SM phase moved to another host thread:
 * docs/performance-log.md, eighth session).  The output record is filled with
 * garbage before each issue. */
static void test_guarded_off_memory_space(void **state)
{
    (void)state;
    static const char src[] =
        ".buffer w .u32[1] zero\n"
        ".launch k grid=(1) block=(32) args=(w)\n"
        ".entry k(.param .u64 pw)\n"
        "{\n"
        "    .shared .u32 s;\n"
        "    ld.param.u64 %rd1, [pw];\n"
        "    setp.eq.u32 %p1, 1, 0;\n"
        "    @%p1 atom.global.add.u32 %r1, [%rd1], 1;\n"
        "    @%p1 red.global.add.u32 [%rd1], 1;\n"
        "    @%p1 atom.shared.add.u32 %r2, [s], 1;\n"
        "    @%p1 ld.global.u32 %r3, [%rd1];\n"
        "    ret;\n"
        "}\n";
    KernelRig rig;
    rig_init(&rig, "guard.s", src, 32);
    Cta c;
    assert_int_equal(cta_init(&rig.k, &c, 0, 0), 0);
    Warp *w = &c.warps[0];
    ExecOut out;
    const int space[4] = { SP_GLOBAL, SP_GLOBAL, SP_SHARED, SP_GLOBAL };
    for (int i = 0; i < 2; i++) assert_int_equal(warp_issue(&rig.k, w, &out), ISSUE_OK);
    for (int i = 0; i < 4; i++) {
        memset(&out, 0xa5, sizeof out);
        assert_int_equal(warp_issue(&rig.k, w, &out), ISSUE_OK);
        assert_int_equal(out.has_mem, 1);
        assert_int_equal(out.mem.mask, 0);
        assert_int_equal(out.mem.space, space[i]);
    }
    assert_int_equal(*(uint32_t *)mem_region_of_buffer(&rig.mem, 0)->data, 0);
    cta_free(&c);
    rig_free(&rig);
}

/* Every block starts on zeroed shared and local memory, predicates and
 * barrier counts, though the functional engine runs the blocks one after
 * another on the same arrays (cta_next): tests/data/blocks_fresh.s, each
 * thread of 3 blocks of 40
 * (a partial second warp) stores what its shared word, its local word and
 * a predicate held before it wrote them, then writes them, with a bar.sync
 * between; every stored value is 0 and the blocks' ids come out right.
 * (The shared and predicate arrays are cleared in place, the 320 KB of
 * local memory allocated afresh: both ways of kernel.c's renew.) */
static void test_each_block_starts_fresh(void **state)
{
    (void)state;
    const char *src = load_src("tests/data/blocks_fresh.s");
    Sim s;
    sim_ok(&s, src);
    const uint32_t *o = sim_buf(&s, "out");
    for (int t = 0; t < 120; t++) {
        assert_int_equal(o[2 * t], 0);            /* nothing of the block before */
        assert_int_equal(o[2 * t + 1], t / 40);   /* its own block id */
    }
    assert_int_equal(s.run.stats.ctas_launched, 3);
    assert_int_equal(s.run.stats.warps_launched, 6);
    sim_free(&s);
}

/* Shared memory through variables: `mov.u32 %r, var` gives the variable's
 * offset, and all warps of the block see each other's stores after bar.sync. */
/* Vector loads and stores over a whole warp (the back end pairs and quads
 * shared accesses, so .v2/.v4 run a register row per element): each of 32
 * threads stores {t+1000, t+2000, t+3000, t+4000} to its quad of shared
 * memory, reads its neighbour's ((t+1) % 32) quad and stores it reversed to
 * out[4t..4t+3]; threads 0-15 (half a warp) also store the pair {t, its
 * first word read} to out[128+2t].  A quad 8 bytes off its 16-byte
 * alignment faults as misaligned, naming the whole 16 bytes. */
static void test_vector_memory_warp(void **state)
{
    (void)state;
    static const char src[] =
        ".buffer out .u32[192] zero\n"
        ".launch k grid=1 block=32 args=(out)\n"
        ".entry k (.param .u64 o)\n{\n"
        "    .shared .align 16 .u32 q[128];\n"
        "    ld.param.u64 %rd1, [o];\n"
        "    mov.u32 %r1, %tid.x;\n"
        "    mov.u32 %r2, q;\n"
        "    shl.b32 %r3, %r1, 4;\n"
        "    add.u32 %r4, %r2, %r3;\n"
        "    add.u32 %r5, %r1, 1000;\n"
        "    add.u32 %r6, %r1, 2000;\n"
        "    add.u32 %r7, %r1, 3000;\n"
        "    add.u32 %r8, %r1, 4000;\n"
        "    st.shared.v4.u32 [%r4], {%r5, %r6, %r7, %r8};\n"
        "    bar.sync 0;\n"
        "    add.u32 %r9, %r1, 1;\n"
        "    and.b32 %r9, %r9, 31;\n"
        "    shl.b32 %r9, %r9, 4;\n"
        "    add.u32 %r10, %r2, %r9;\n"
        "    ld.shared.v4.u32 {%r11, %r12, %r13, %r14}, [%r10];\n"
        "    cvt.u64.u32 %rd2, %r3;\n"
        "    add.s64 %rd3, %rd1, %rd2;\n"
        "    st.global.v4.u32 [%rd3], {%r14, %r13, %r12, %r11};\n"
        "    setp.lt.u32 %p1, %r1, 16;\n"
        "    mul.wide.u32 %rd4, %r1, 8;\n"
        "    add.s64 %rd5, %rd1, %rd4;\n"
        "    @%p1 st.global.v2.u32 [%rd5+512], {%r1, %r11};\n"
        "    ret;\n}\n";
    Sim s;
    sim_ok(&s, src);
    const uint32_t *o = sim_buf(&s, "out");
    for (uint32_t t = 0; t < 32; t++) {
        uint32_t n = (t + 1) % 32;
        assert_int_equal(o[4 * t], n + 4000);
        assert_int_equal(o[4 * t + 1], n + 3000);
        assert_int_equal(o[4 * t + 2], n + 2000);
        assert_int_equal(o[4 * t + 3], n + 1000);
        assert_int_equal(o[128 + 2 * t], t < 16 ? t : 0);
        assert_int_equal(o[129 + 2 * t], t < 16 ? n + 1000 : 0);
    }
    sim_free(&s);
    static const char bad[] =
        ".buffer out .u32[64] zero\n"
        ".launch k grid=1 block=32 args=(out)\n"
        ".entry k (.param .u64 o)\n{\n"
        "    ld.param.u64 %rd1, [o];\n"
        "    mov.u32 %r1, 7;\n"
        "    st.global.v4.u32 [%rd1+8], {%r1, %r1, %r1, %r1};\n"
        "    ret;\n}\n";
    assert_int_equal(sim_run(&s, bad), RUN_FAULT);
    assert_int_equal(s.run.fault.kind, FAULT_MISALIGNED);
    assert_non_null(strstr(s.run.fault.msg, "16-byte"));
    sim_free(&s);
}

static void test_shared_memory(void **state)
{
    (void)state;
    static const char src[] =
        ".buffer out .u32[64*3] zero\n"
        ".launch k grid=2 block=64 args=(out)\n"
        ".entry k (.param .u64 o)\n{\n"
        "    .shared .align 4 .u32 a[64];\n"
        "    .shared .align 8 .u16 h[3];\n"
        "    .shared .align 4 .u32 b[64];\n"
        "    ld.param.u64 %rd1, [o];\n"
        "    mov.u32 %r1, %tid.x;\n"
        "    mov.u32 %r2, a;\n"
        "    mov.u32 %r3, b;\n"
        "    shl.b32 %r4, %r1, 2;\n"
        "    add.u32 %r5, %r2, %r4;\n"
        "    mov.u32 %r6, %ctaid.x;\n"
        "    mad.lo.u32 %r7, %r1, 3, %r6;\n"
        "    st.shared.u32 [%r5], %r7;\n"             /* a[t] = 3t + block */
        "    bar.sync 0;\n"
        "    add.u32 %r8, %r1, 1;\n"
        "    and.b32 %r8, %r8, 63;\n"
        "    shl.b32 %r8, %r8, 2;\n"
        "    add.u32 %r9, %r2, %r8;\n"
        "    ld.shared.u32 %r10, [%r9];\n"            /* a[(t+1)%64], maybe another warp's */
        "    add.u32 %r11, %r3, %r4;\n"
        "    st.shared.u32 [%r11], %r10;\n"
        "    ld.shared.u32 %r12, [b+8];\n"            /* b[2]: our own warp wrote it */
        "    bar.sync 0;\n"
        "    ld.shared.u32 %r13, [b+252];\n"           /* b[63], written by warp 1 */
        "    setp.ne.u32 %p1, %r6, 1;\n"
        "    @%p1 bra DONE;\n"
        "    mul.wide.u32 %rd2, %r1, 12;\n"
        "    add.s64 %rd3, %rd1, %rd2;\n"
        "    st.global.u32 [%rd3], %r10;\n"
        "    st.global.u32 [%rd3+4], %r12;\n"
        "    st.global.u32 [%rd3+8], %r13;\n"
        "    setp.ne.u32 %p2, %r1, 0;\n"
        "    @%p2 bra DONE;\n"
        "    st.global.u32 [%rd1+0], %r3;\n"           /* b's offset, after a (256) and h (6 -> 8) */
        "DONE:\n"
        "    ret;\n}\n";
    Sim s;
    sim_ok(&s, src);
    const uint32_t *o = sim_buf(&s, "out");
    assert_int_equal(o[0], 264);
    for (uint32_t t = 1; t < 64; t++) {
        assert_int_equal(o[3 * t], 3 * ((t + 1) % 64) + 1);
        assert_int_equal(o[3 * t + 1], 3 * 3 + 1);
        assert_int_equal(o[3 * t + 2], 3 * 0 + 1);
    }
    assert_int_equal(s.run.stats.mem_inst[SP_SHARED][0], 2 * 2 * 3);
    assert_int_equal(s.run.stats.mem_inst[SP_SHARED][1], 2 * 2 * 2);
    sim_free(&s);
}

/* Constant memory with initialisers; local arrays private to each thread. */
static void test_const_and_local(void **state)
{
    (void)state;
    static const char src[] =
        ".const .align 4 .u32 ctab[5] = { 10, 20, 30, -1, 50 };\n"
        ".const .align 4 .f32 cf[2] = { 1.5, -0.25 };\n"
        ".buffer out .u32[40*4] zero\n"
        ".launch k grid=1 block=40 args=(out)\n"
        ".entry k (.param .u64 o)\n{\n"
        "    .local .align 4 .u32 loc[8];\n"
        "    ld.param.u64 %rd1, [o];\n"
        "    mov.u32 %r1, %tid.x;\n"
        "    rem.u32 %r2, %r1, 5;\n"
        "    shl.b32 %r2, %r2, 2;\n"
        "    mov.u32 %r3, ctab;\n"
        "    add.u32 %r3, %r3, %r2;\n"
        "    ld.const.u32 %r4, [%r3];\n"              /* ctab[t % 5] */
        "    ld.const.f32 %f1, [cf+4];\n"
        /* loc[i] = t + i for i < 8, then sum them back */
        "    mov.u32 %r5, loc;\n"
        "    mov.u32 %r6, 0;\n"
        "L1: shl.b32 %r7, %r6, 2;\n"
        "    add.u32 %r8, %r5, %r7;\n"
        "    add.u32 %r9, %r1, %r6;\n"
        "    st.local.u32 [%r8], %r9;\n"
        "    add.u32 %r6, %r6, 1;\n"
        "    setp.lt.u32 %p1, %r6, 8;\n"
        "    @%p1 bra L1;\n"
        "    mov.u32 %r10, 0;\n"
        "    mov.u32 %r6, 0;\n"
        "L2: shl.b32 %r7, %r6, 2;\n"
        "    add.u32 %r8, %r5, %r7;\n"
        "    ld.local.u32 %r9, [%r8];\n"
        "    add.u32 %r10, %r10, %r9;\n"
        "    add.u32 %r6, %r6, 1;\n"
        "    setp.lt.u32 %p1, %r6, 8;\n"
        "    @%p1 bra L2;\n"
        "    ld.local.u32 %r11, [loc+28];\n"
        "    mul.wide.u32 %rd2, %r1, 16;\n"
        "    add.s64 %rd3, %rd1, %rd2;\n"
        "    st.global.u32 [%rd3], %r4;\n"
        "    st.global.f32 [%rd3+4], %f1;\n"
        "    st.global.u32 [%rd3+8], %r10;\n"
        "    st.global.u32 [%rd3+12], %r11;\n"
        "    ret;\n}\n";
    Sim s;
    sim_ok(&s, src);
    const uint32_t *o = sim_buf(&s, "out");
    static const uint32_t ctab[5] = { 10, 20, 30, 0xffffffffu, 50 };
    for (uint32_t t = 0; t < 40; t++) {
        assert_int_equal(o[4 * t], ctab[t % 5]);
        assert_int_equal(o[4 * t + 1], f2u(-0.25f));
        assert_int_equal(o[4 * t + 2], 8 * t + 28);
        assert_int_equal(o[4 * t + 3], t + 7);
    }
    assert_int_equal(s.run.stats.mem_inst[SP_CONST][0], 2 * 2);
    assert_int_equal(s.run.stats.mem_inst[SP_LOCAL][1], 2 * 8);
    sim_free(&s);
}

/* Generic addressing: cvta.shared / cvta.local give generic addresses that
 * plain ld/st resolve; cvta.to.* turns them back; global addresses are
 * generic as they are. */
static void test_generic_addressing(void **state)
{
    (void)state;
    static const char src[] =
        ".const .align 4 .u32 c0[1] = { 99 };\n"
        ".buffer g .u32[4] iota(100, 1)\n"
        ".buffer out .u64[16] zero\n"
        ".launch k grid=1 block=1 args=(g, out)\n"
        ".entry k (.param .u64 gp, .param .u64 o)\n{\n"
        "    .shared .align 4 .u32 pad[4];\n"
        "    .shared .align 4 .u32 sv[4];\n"
        "    .local .align 4 .u32 lv[2];\n"
        "    ld.param.u64 %rd1, [gp];\n"
        "    ld.param.u64 %rd2, [o];\n"
        "    mov.u64 %rd3, sv;\n"
        "    cvta.shared.u64 %rd4, %rd3;\n"           /* generic address of sv */
        "    st.u32 [%rd4+4], 7;\n"                   /* generic store into shared */
        "    ld.shared.u32 %r1, [sv+4];\n"
        "    st.global.u32 [%rd2], %r1;\n"
        "    cvta.to.shared.u64 %rd5, %rd4;\n"        /* round trip */
        "    st.global.u64 [%rd2+8], %rd5;\n"
        "    st.global.u64 [%rd2+16], %rd3;\n"
        "    mov.u64 %rd6, lv;\n"
        "    cvta.local.u64 %rd7, %rd6;\n"
        "    st.u32 [%rd7+4], 1234;\n"
        "    ld.local.u32 %r2, [lv+4];\n"
        "    st.global.u32 [%rd2+24], %r2;\n"
        "    cvta.global.u64 %rd8, %rd1;\n"
        "    ld.u32 %r3, [%rd8+8];\n"                 /* generic load from global */
        "    st.global.u32 [%rd2+32], %r3;\n"
        "    cvta.to.global.u64 %rd9, %rd8;\n"
        "    sub.s64 %rd10, %rd9, %rd1;\n"
        "    st.global.u64 [%rd2+40], %rd10;\n"
        "    mov.u64 %rd11, c0;\n"
        "    cvta.const.u64 %rd12, %rd11;\n"
        "    ld.u32 %r4, [%rd12];\n"
        "    st.global.u32 [%rd2+48], %r4;\n"
        "    ld.u32 %r5, [%rd4+4];\n"                 /* generic load from shared */
        "    st.global.u32 [%rd2+56], %r5;\n"
        "    ret;\n}\n";
    Sim s;
    sim_ok(&s, src);
    const uint64_t *o = sim_buf(&s, "out");
    assert_int_equal(o[0], 7);
    assert_int_equal(o[1], o[2]);
    assert_int_equal(o[2], 16);
    assert_int_equal(o[3], 1234);
    assert_int_equal(o[4], 102);
    assert_int_equal(o[5], 0);
    assert_int_equal(o[6], 99);
    assert_int_equal(o[7], 7);
    assert_int_equal(s.run.stats.mem_inst[SP_NONE][0], 3);
    assert_int_equal(s.run.stats.mem_inst[SP_NONE][1], 2);
    sim_free(&s);
}

/* ---- atomics ------------------------------------------------------------------------------------ */

/* One counter per op; 64 threads (two warps) hit each.  Lanes apply in
 * ascending order, warp 0 before warp 1 in the functional engine, so every
 * returned old value is pinned, not only the totals.  The same kernel runs
 * on global counters and on shared ones (copied out at the end). */
static const char atomics_src[] =
    ".buffer ctr .u32[16] zero\n"
    ".buffer old .u32[64*16] zero\n"
    ".launch k grid=1 block=64 args=(ctr, old)\n"
    ".entry k (.param .u64 c, .param .u64 o)\n{\n"
    "    .shared .align 16 .u32 sh[16];\n"
    "    ld.param.u64 %rd20, [c];\n"
    "    BASE;\n"                                  /* %rd1 = the counters */
    "    ld.param.u64 %rd2, [o];\n"
    "    mov.u32 %r1, %tid.x;\n"
    "    mul.wide.u32 %rd3, %r1, 64;\n"
    "    add.s64 %rd4, %rd2, %rd3;\n"
    "    setp.ne.u32 %p1, %r1, 0;\n"              /* thread 0 seeds the counters */
    "    @%p1 bra GO;\n"
    "    st.SPACE.u32 [%rd1+4], 1000;\n"          /* min */
    "    st.SPACE.u32 [%rd1+24], 0xffffffff;\n"   /* and */
    "    st.SPACE.u32 [%rd1+36], 0x7fffffff;\n"   /* min.s32 */
    "GO: bar.sync 0;\n"
    "    atom.SPACE.add.u32 %r2, [%rd1], 1;\n"
    "    sub.u32 %r20, 500, %r1;\n"
    "    atom.SPACE.min.u32 %r3, [%rd1+4], %r20;\n"
    "    atom.SPACE.max.u32 %r4, [%rd1+8], %r1;\n"
    "    atom.SPACE.inc.u32 %r5, [%rd1+12], 9;\n"
    "    atom.SPACE.dec.u32 %r6, [%rd1+16], 9;\n"
    "    atom.SPACE.exch.b32 %r7, [%rd1+20], %r1;\n"
    "    shl.b32 %r21, 1, %r1;\n"
    "    not.b32 %r22, %r21;\n"
    "    atom.SPACE.and.b32 %r8, [%rd1+24], %r22;\n"
    "    atom.SPACE.or.b32 %r9, [%rd1+28], %r21;\n"
    "    atom.SPACE.xor.b32 %r10, [%rd1+32], 3;\n"
    "    sub.s32 %r23, 0, %r1;\n"
    "    atom.SPACE.min.s32 %r11, [%rd1+36], %r23;\n"
    "    atom.SPACE.add.s32 %r12, [%rd1+40], -2;\n"
    "    add.u32 %r24, %r1, 1;\n"
    "    atom.SPACE.cas.b32 %r13, [%rd1+44], %r1, %r24;\n"   /* succeeds in turn */
    "    atom.SPACE.cas.b32 %r14, [%rd1+48], 5, %r24;\n"     /* only while it is 5 */
    "    atom.SPACE.add.f32 %f1, [%rd1+52], 0.5;\n"
    "    atom.SPACE.max.s32 %r15, [%rd1+56], %r23;\n"
    "    red.SPACE.add.u32 [%rd1+60], 2;\n"
    "    st.global.v4.u32 [%rd4], {%r2, %r3, %r4, %r5};\n"
    "    st.global.v4.u32 [%rd4+16], {%r6, %r7, %r8, %r9};\n"
    "    st.global.v4.u32 [%rd4+32], {%r10, %r11, %r12, %r13};\n"
    "    st.global.u32 [%rd4+48], %r14;\n"
    "    st.global.f32 [%rd4+52], %f1;\n"
    "    st.global.u32 [%rd4+56], %r15;\n"
    "    bar.sync 0;\n"
    "    @%p1 bra END;\n"
    "    COPY;\n"
    "END:\n"
    "    ret;\n}\n";

static void atomics_in(Space space)
{
    int sh = space == SP_SHARED;
    char *t1 = subst(atomics_src, "SPACE", sh ? "shared" : "global");
    char *t2 = subst(t1, "BASE", sh ? "mov.u64 %rd1, sh" : "mov.u64 %rd1, %rd20");
    char *src = subst(t2, "COPY", sh ? "ld.shared.v4.u32 {%r30, %r31, %r32, %r33}, [sh];\n"
                                       "st.global.v4.u32 [%rd20], {%r30, %r31, %r32, %r33};\n"
                                       "ld.shared.v4.u32 {%r30, %r31, %r32, %r33}, [sh+16];\n"
                                       "st.global.v4.u32 [%rd20+16], {%r30, %r31, %r32, %r33};\n"
                                       "ld.shared.v4.u32 {%r30, %r31, %r32, %r33}, [sh+32];\n"
                                       "st.global.v4.u32 [%rd20+32], {%r30, %r31, %r32, %r33};\n"
                                       "ld.shared.v4.u32 {%r30, %r31, %r32, %r33}, [sh+48];\n"
                                       "st.global.v4.u32 [%rd20+48], {%r30, %r31, %r32, %r33}"
                                     : "membar.gl");
    Sim s;
    sim_ok(&s, src);
    free(t1);
    free(t2);
    free(src);
    const uint32_t *c = sim_buf(&s, "ctr");
    const uint32_t *o = sim_buf(&s, "old");
    assert_int_equal(c[0], 64);                       /* every increment lands */
    assert_int_equal(c[1], 500 - 63);
    assert_int_equal(c[2], 63);
    assert_int_equal(c[3], 64 % 10);                  /* inc wraps to 0 past 9 */
    assert_int_equal(c[5], 63);
    assert_int_equal(c[6], 0);
    assert_int_equal(c[7], 0xffffffffu);
    assert_int_equal(c[8], 0);                        /* 64 xors of 3 */
    assert_int_equal(c[9], (uint32_t)-63);
    assert_int_equal(c[10], (uint32_t)-128);
    assert_int_equal(c[11], 64);
    assert_int_equal(c[12], 0);                       /* never 5 */
    assert_int_equal(c[13], f2u(32.0f));
    assert_int_equal(c[14], 0);                       /* max(0, -t) */
    assert_int_equal(c[15], 128);
    uint32_t inc = 0, dec = 0, mins = 0x7fffffff, ands = 0xffffffffu, ors = 0;
    for (uint32_t t = 0; t < 64; t++) {
        const uint32_t *r = o + 16 * t;
        assert_int_equal(r[0], t);
        assert_int_equal(r[1], t == 0 ? 1000 : 500 - (t - 1));
        assert_int_equal(r[2], t == 0 ? 0 : t - 1);
        assert_int_equal(r[3], inc);
        inc = inc >= 9 ? 0 : inc + 1;                 /* PTX atom.inc */
        assert_int_equal(r[4], dec);
        dec = (dec == 0 || dec > 9) ? 9 : dec - 1;    /* PTX atom.dec */
        assert_int_equal(r[5], t == 0 ? 0 : t - 1);
        assert_int_equal(r[6], ands);
        ands &= ~(1u << (t % 32));
        assert_int_equal(r[7], ors);
        ors |= 1u << (t % 32);
        assert_int_equal(r[8], t % 2 ? 3 : 0);
        assert_int_equal(r[9], mins);
        mins = (int32_t)mins < -(int32_t)t ? mins : (uint32_t)-(int32_t)t;
        assert_int_equal(r[10], (uint32_t)(-2 * (int32_t)t));
        assert_int_equal(r[11], t);
        assert_int_equal(r[12], 0);
        assert_int_equal(r[13], f2u(0.5f * (float)t));
        assert_int_equal(r[14], 0);
    }
    assert_int_equal(s.run.stats.atomics[space], 2 * 16);
    sim_free(&s);
}

static void test_atomics_global(void **state)
{
    (void)state;
    atomics_in(SP_GLOBAL);
}

static void test_atomics_shared_ops(void **state)
{
    (void)state;
    atomics_in(SP_SHARED);
}

/* Shared-memory atomics: a histogram of tid % 4 and a shared CAS lock-free
 * increment, copied out by thread 0 after a barrier. */
static void test_atomics_shared(void **state)
{
    (void)state;
    static const char src[] =
        ".buffer out .u32[8] zero\n"
        ".buffer ol .u32[96] zero\n"
        ".launch k grid=1 block=96 args=(out, ol)\n"
        ".entry k (.param .u64 o, .param .u64 p)\n{\n"
        "    .shared .align 4 .u32 bins[4];\n"
        "    .shared .align 4 .u32 more[4];\n"
        "    ld.param.u64 %rd1, [o];\n"
        "    ld.param.u64 %rd5, [p];\n"
        "    mov.u32 %r1, %tid.x;\n"
        "    and.b32 %r2, %r1, 3;\n"
        "    shl.b32 %r2, %r2, 2;\n"
        "    mov.u32 %r3, bins;\n"
        "    add.u32 %r4, %r3, %r2;\n"
        "    atom.shared.add.u32 %r5, [%r4], 1;\n"
        "    red.shared.add.u32 [more], 3;\n"
        "    atom.shared.max.s32 %r6, [more+4], %r1;\n"
        "    atom.shared.exch.b32 %r7, [more+8], %r1;\n"
        "    atom.shared.add.f32 %f1, [more+12], 0.25;\n"
        "    mul.wide.u32 %rd6, %r1, 4;\n"
        "    add.s64 %rd7, %rd5, %rd6;\n"
        "    st.global.u32 [%rd7], %r5;\n"
        "    bar.sync 0;\n"
        "    setp.ne.u32 %p1, %r1, 0;\n"
        "    @%p1 bra DONE;\n"
        "    ld.shared.v4.u32 {%r8, %r9, %r10, %r11}, [bins];\n"
        "    st.global.v4.u32 [%rd1], {%r8, %r9, %r10, %r11};\n"
        "    ld.shared.v4.u32 {%r8, %r9, %r10, %r11}, [more];\n"
        "    st.global.v4.u32 [%rd1+16], {%r8, %r9, %r10, %r11};\n"
        "DONE:\n"
        "    ret;\n}\n";
    Sim s;
    sim_ok(&s, src);
    const uint32_t *o = sim_buf(&s, "out");
    const uint32_t *ol = sim_buf(&s, "ol");
    for (int i = 0; i < 4; i++) assert_int_equal(o[i], 24);
    assert_int_equal(o[4], 96 * 3);
    assert_int_equal(o[5], 95);
    assert_int_equal(o[6], 95);
    assert_int_equal(o[7], f2u(24.0f));
    for (uint32_t t = 0; t < 96; t++) assert_int_equal(ol[t], t / 4);   /* old bin count */
    assert_int_equal(s.run.stats.atomics[SP_SHARED], 3 * 5);
    sim_free(&s);
}

/* 64-bit atomics */
static void test_atomics_64(void **state)
{
    (void)state;
    static const char src[] =
        ".buffer c .u64[4] zero\n"
        ".launch k grid=1 block=32 args=(c)\n"
        ".entry k (.param .u64 p)\n{\n"
        "    ld.param.u64 %rd1, [p];\n"
        "    atom.global.add.u64 %rd2, [%rd1], 0x100000000;\n"
        "    mov.u32 %r1, %tid.x;\n"
        "    cvt.u64.u32 %rd3, %r1;\n"
        "    atom.global.max.u64 %rd4, [%rd1+8], %rd3;\n"
        "    atom.global.add.f64 %fd1, [%rd1+16], 0.125;\n"
        "    ret;\n}\n";
    Sim s;
    sim_ok(&s, src);
    const uint64_t *c = sim_buf(&s, "c");
    assert_int_equal(c[0], 32ull << 32);
    assert_int_equal(c[1], 31);
    assert_int_equal(c[2], 0x4010000000000000ull);   /* 4.0 */
    sim_free(&s);
}

/* ---- warp-level operations ------------------------------------------------------------------- */

/* vote.sync with partial member masks (every voting lane is a member, as
 * PTX requires) and inside a divergent branch with activemask as the mask. */
static void test_vote(void **state)
{
    (void)state;
    static const char src[] =
        ".buffer out .u32[32*8] zero\n"
        ".launch k grid=1 block=32 args=(out)\n"
        ".entry k (.param .u64 o)\n{\n"
        "    ld.param.u64 %rd1, [o];\n"
        "    mov.u32 %r1, %laneid;\n"
        "    mul.wide.u32 %rd2, %r1, 32;\n"
        "    add.s64 %rd3, %rd1, %rd2;\n"
        "    setp.lt.u32 %p1, %r1, 8;\n"              /* true in lanes 0-7 */
        "    setp.lt.u32 %p2, %r1, 16;\n"
        "    mov.u32 %r2, 7; mov.u32 %r3, 7; mov.u32 %r4, 7; mov.u32 %r5, 7;\n"
        "    @%p1 vote.sync.all.pred %p3, %p1, 0x000000ff;\n"
        "    @%p1 selp.u32 %r2, 1, 0, %p3;\n"
        "    @%p2 vote.sync.all.pred %p3, %p1, 0x0000ffff;\n"
        "    @%p2 selp.u32 %r3, 1, 0, %p3;\n"
        "    @!%p2 vote.sync.any.pred %p3, %p1, 0xffff0000;\n"
        "    @!%p2 selp.u32 %r3, 1, 0, %p3;\n"
        "    vote.sync.any.pred %p3, %p1, 0xffffffff;\n"
        "    selp.u32 %r4, 1, 0, %p3;\n"
        "    @!%p2 vote.sync.uni.pred %p3, %p1, 0xffff0000;\n"
        "    @!%p2 selp.u32 %r5, 1, 0, %p3;\n"
        "    @%p2 vote.sync.uni.pred %p3, %p1, 0x0000ffff;\n"
        "    @%p2 selp.u32 %r5, 1, 0, %p3;\n"
        "    vote.sync.ballot.b32 %r6, %p1, 0xffffffff;\n"
        "    vote.sync.ballot.b32 %r7, !%p1, 0xffffffff;\n"
        "    st.global.v4.u32 [%rd3], {%r2, %r3, %r4, %r5};\n"
        "    st.global.v2.u32 [%rd3+16], {%r6, %r7};\n"
        /* divergent: odd lanes vote among themselves */
        "    and.b32 %r8, %r1, 1;\n"
        "    setp.eq.u32 %p4, %r8, 0;\n"
        "    @%p4 bra EVEN;\n"
        "    activemask.b32 %r9;\n"
        "    setp.lt.u32 %p5, %r1, 20;\n"
        "    vote.sync.ballot.b32 %r10, %p5, %r9;\n"
        "    bra.uni JOIN;\n"
        "EVEN:\n"
        "    activemask.b32 %r9;\n"
        "    vote.sync.all.pred %p6, %p2, %r9;\n"
        "    selp.u32 %r10, 1, 0, %p6;\n"
        "JOIN:\n"
        "    st.global.v2.u32 [%rd3+24], {%r9, %r10};\n"
        "    ret;\n}\n";
    Sim s;
    sim_ok(&s, src);
    const uint32_t *o = sim_buf(&s, "out");
    for (uint32_t l = 0; l < 32; l++) {
        const uint32_t *r = o + 8 * l;
        assert_int_equal(r[0], l < 8 ? 1 : 7);         /* all over 0xff: lanes 0-7 true */
        assert_int_equal(r[1], 0);                     /* all over 0xffff: no; any over the top half: no */
        assert_int_equal(r[2], 1);
        assert_int_equal(r[3], l < 16 ? 0 : 1);        /* top half uniformly false; bottom mixed */
        assert_int_equal(r[4], 0xffu);
        assert_int_equal(r[5], 0xffffff00u);
        if (l & 1) {
            assert_int_equal(r[6], 0xaaaaaaaau);
            assert_int_equal(r[7], 0x000aaaaau);       /* odd lanes below 20 */
        } else {
            assert_int_equal(r[6], 0x55555555u);
            assert_int_equal(r[7], 0);                 /* even lanes 16-30 are false */
        }
    }
    sim_free(&s);
}

/* shfl.sync with PTX's c operand: c = ((32 - width) << 8) | 31 for down,
 * bfly and idx, (32 - width) << 8 for up.  Each lane holds 100 + lane.
 * Seed 002's examples with width 8: up by 2 gives lane 2 lane 0's value and
 * lanes 0 and 1 their own; xor 2 maps lanes 0-7 to 2 3 0 1 6 7 4 5. */
static void test_shfl(void **state)
{
    (void)state;
    static const char src[] =
        ".buffer out .u32[32*16] zero\n"
        ".launch k grid=1 block=32 args=(out)\n"
        ".entry k (.param .u64 o)\n{\n"
        "    ld.param.u64 %rd1, [o];\n"
        "    mov.u32 %r1, %laneid;\n"
        "    mul.wide.u32 %rd2, %r1, 64;\n"
        "    add.s64 %rd3, %rd1, %rd2;\n"
        "    add.u32 %r2, %r1, 100;\n"
        "    shfl.sync.up.b32 %r3|%p1, %r2, 2, 0x1800, 0xffffffff;\n"      /* width 8 */
        "    shfl.sync.down.b32 %r4|%p2, %r2, 2, 0x181f, 0xffffffff;\n"
        "    shfl.sync.bfly.b32 %r5|%p3, %r2, 2, 0x181f, 0xffffffff;\n"
        "    shfl.sync.idx.b32 %r6|%p4, %r2, 3, 0x181f, 0xffffffff;\n"
        "    selp.u32 %r7, 1, 0, %p1;\n"
        "    selp.u32 %r8, 2, 0, %p2;\n"
        "    selp.u32 %r9, 4, 0, %p3;\n"
        "    selp.u32 %r10, 8, 0, %p4;\n"
        "    or.b32 %r7, %r7, %r8;\n"
        "    or.b32 %r7, %r7, %r9;\n"
        "    or.b32 %r7, %r7, %r10;\n"
        "    st.global.v4.u32 [%rd3], {%r3, %r4, %r5, %r6};\n"
        "    st.global.u32 [%rd3+32], %r7;\n"
        /* whole warp (width 32) */
        "    shfl.sync.up.b32 %r11|%p1, %r2, 1, 0, 0xffffffff;\n"
        "    shfl.sync.down.b32 %r12|%p2, %r2, 1, 31, 0xffffffff;\n"
        "    shfl.sync.bfly.b32 %r13, %r2, 16, 31, 0xffffffff;\n"
        "    shfl.sync.idx.b32 %r14, %r2, 31, 31, 0xffffffff;\n"
        "    selp.u32 %r7, 1, 0, %p1;\n"
        "    selp.u32 %r8, 2, 0, %p2;\n"
        "    or.b32 %r7, %r7, %r8;\n"
        "    st.global.v4.u32 [%rd3+16], {%r11, %r12, %r13, %r14};\n"
        "    st.global.u32 [%rd3+36], %r7;\n"
        /* idx with a per-lane source (rotate by one), idx 11 at width 8
         * (only the low 3 bits count), up by 5 at width 16, and a clamp
         * value below the lane for down (c = 3: lanes above 3 keep theirs) */
        "    add.u32 %r15, %r1, 1;\n"
        "    and.b32 %r15, %r15, 31;\n"
        "    shfl.sync.idx.b32 %r16, %r2, %r15, 31, 0xffffffff;\n"
        "    shfl.sync.idx.b32 %r17, %r2, 11, 0x181f, 0xffffffff;\n"
        "    shfl.sync.up.b32 %r18, %r2, 5, 0x1000, 0xffffffff;\n"
        "    shfl.sync.down.b32 %r19|%p5, %r2, 1, 3, 0xffffffff;\n"
        "    selp.u32 %r20, 1, 0, %p5;\n"
        "    st.global.u32 [%rd3+40], %r20;\n"
        "    st.global.v4.u32 [%rd3+48], {%r16, %r17, %r18, %r19};\n"
        "    ret;\n}\n";
    Sim s;
    sim_ok(&s, src);
    const uint32_t *o = sim_buf(&s, "out");
    static const uint32_t bfly8[8] = { 2, 3, 0, 1, 6, 7, 4, 5 };   /* seed 002 */
    for (uint32_t l = 0; l < 32; l++) {
        const uint32_t *r = o + 16 * l;
        uint32_t seg = l & ~7u, in = l & 7u;
        uint32_t up_ok = in >= 2, down_ok = in + 2 <= 7;
        assert_int_equal(r[0], 100 + (up_ok ? l - 2 : l));
        assert_int_equal(r[1], 100 + (down_ok ? l + 2 : l));
        assert_int_equal(r[2], 100 + seg + bfly8[in]);
        assert_int_equal(r[3], 100 + seg + 3);
        assert_int_equal(r[4], 100 + (l ? l - 1 : 0));
        assert_int_equal(r[5], 100 + (l < 31 ? l + 1 : 31));
        assert_int_equal(r[6], 100 + (l ^ 16));
        assert_int_equal(r[7], 131);
        assert_int_equal(r[8], up_ok | down_ok << 1 | 4 | 8);
        assert_int_equal(r[9], (l > 0) | (l < 31) << 1);
        assert_int_equal(r[10], l + 1 <= 3);
        assert_int_equal(r[12], 100 + (l + 1) % 32);
        assert_int_equal(r[13], 100 + seg + 3);
        assert_int_equal(r[14], 100 + ((l & 15) >= 5 ? l - 5 : l));
        assert_int_equal(r[15], 100 + (l + 1 <= 3 ? l + 1 : l));
    }
    /* the seed's worked numbers, literally: width 8, lanes 0-7 */
    assert_int_equal(o[16 * 2 + 0], 100);     /* up 2: lane 2 gets lane 0 */
    assert_int_equal(o[16 * 3 + 0], 101);     /* lane 3 gets lane 1 */
    assert_int_equal(o[16 * 0 + 0], 100);     /* lanes 0 and 1 keep their own */
    assert_int_equal(o[16 * 1 + 0], 101);
    sim_free(&s);
}

/* shfl among the active lanes of a divergent branch (odd lanes exchange
 * with odd lanes), with membermask = activemask. */
static void test_shfl_divergent(void **state)
{
    (void)state;
    static const char src[] =
        ".buffer out .u32[32] zero\n"
        ".launch k grid=1 block=32 args=(out)\n"
        ".entry k (.param .u64 o)\n{\n"
        "    ld.param.u64 %rd1, [o];\n"
        "    mov.u32 %r1, %laneid;\n"
        "    mul.wide.u32 %rd2, %r1, 4;\n"
        "    add.s64 %rd3, %rd1, %rd2;\n"
        "    mul.lo.u32 %r2, %r1, 10;\n"
        "    and.b32 %r3, %r1, 1;\n"
        "    setp.eq.u32 %p1, %r3, 0;\n"
        "    mov.u32 %r4, 0;\n"
        "    @%p1 bra SKIP;\n"
        "    activemask.b32 %r5;\n"
        "    shfl.sync.bfly.b32 %r4, %r2, 2, 31, %r5;\n"
        "SKIP:\n"
        "    st.global.u32 [%rd3], %r4;\n"
        "    ret;\n}\n";
    Sim s;
    sim_ok(&s, src);
    const uint32_t *o = sim_buf(&s, "out");
    for (uint32_t l = 0; l < 32; l++) assert_int_equal(o[l], l & 1 ? 10 * (l ^ 2) : 0);
    sim_free(&s);
}

/* activemask in divergent code and in a partial warp; bar.warp.sync,
 * membar and fence change nothing. */
static void test_activemask_and_syncs(void **state)
{
    (void)state;
    static const char src[] =
        ".buffer out .u32[40*2] zero\n"
        ".launch k grid=1 block=40 args=(out)\n"
        ".entry k (.param .u64 o)\n{\n"
        "    ld.param.u64 %rd1, [o];\n"
        "    mov.u32 %r1, %tid.x;\n"
        "    mul.wide.u32 %rd2, %r1, 8;\n"
        "    add.s64 %rd3, %rd1, %rd2;\n"
        "    activemask.b32 %r2;\n"
        "    bar.warp.sync 0xffffffff;\n"
        "    membar.cta;\n"
        "    membar.gl;\n"
        "    membar.sys;\n"
        "    fence.sc.cta;\n"
        "    fence.acq_rel.gpu;\n"
        "    rem.u32 %r3, %r1, 3;\n"
        "    setp.eq.u32 %p1, %r3, 0;\n"
        "    @%p1 bra THREE;\n"
        "    activemask.b32 %r4;\n"
        "    bar.warp.sync %r4;\n"
        "    bra.uni JOIN;\n"
        "THREE:\n"
        "    activemask.b32 %r4;\n"
        "JOIN:\n"
        "    st.global.v2.u32 [%rd3], {%r2, %r4};\n"
        "    ret;\n}\n";
    Sim s;
    sim_ok(&s, src);
    const uint32_t *o = sim_buf(&s, "out");
    uint32_t three[2] = { 0, 0 };
    for (uint32_t t = 0; t < 40; t++)
        if (t % 3 == 0) three[t / 32] |= 1u << (t % 32);
    for (uint32_t t = 0; t < 40; t++) {
        uint32_t w = t / 32, full = w ? 0xffu : 0xffffffffu;
        assert_int_equal(o[2 * t], full);
        assert_int_equal(o[2 * t + 1], t % 3 == 0 ? three[w] : full & ~three[w]);
    }
    sim_free(&s);
}

/* ---- control flow and divergence ------------------------------------------------------------- */

/* if/else, nested divergence three deep, a loop with a per-lane trip count,
 * and early ret in some lanes followed by a barrier the survivors reach. */
static void test_divergence(void **state)
{
    (void)state;
    static const char src[] =
        ".buffer out .u32[64*4] zero\n"
        ".launch k grid=1 block=64 args=(out)\n"
        ".entry k (.param .u64 o)\n{\n"
        "    ld.param.u64 %rd1, [o];\n"
        "    mov.u32 %r1, %tid.x;\n"
        "    mul.wide.u32 %rd2, %r1, 16;\n"
        "    add.s64 %rd3, %rd1, %rd2;\n"
        /* if (t odd) a = 3t else a = t + 100 */
        "    and.b32 %r2, %r1, 1;\n"
        "    setp.eq.u32 %p1, %r2, 1;\n"
        "    @%p1 bra ODD;\n"
        "    add.u32 %r3, %r1, 100;\n"
        "    bra.uni E1;\n"
        "ODD:\n"
        "    mul.lo.u32 %r3, %r1, 3;\n"
        "E1:\n"
        "    st.global.u32 [%rd3], %r3;\n"
        /* nested: if (t < 48) { if (t % 4 < 2) { if (t % 8 == 0) b = 1 else b = 2 } else b = 3 } else b = 4 */
        "    setp.ge.u32 %p2, %r1, 48;\n"
        "    @%p2 bra OUTER_ELSE;\n"
        "    and.b32 %r4, %r1, 3;\n"
        "    setp.ge.u32 %p3, %r4, 2;\n"
        "    @%p3 bra MID_ELSE;\n"
        "    and.b32 %r5, %r1, 7;\n"
        "    setp.ne.u32 %p4, %r5, 0;\n"
        "    @%p4 bra IN_ELSE;\n"
        "    mov.u32 %r6, 1;\n"
        "    bra.uni IN_END;\n"
        "IN_ELSE:\n"
        "    mov.u32 %r6, 2;\n"
        "IN_END:\n"
        "    bra.uni MID_END;\n"
        "MID_ELSE:\n"
        "    mov.u32 %r6, 3;\n"
        "MID_END:\n"
        "    bra.uni OUTER_END;\n"
        "OUTER_ELSE:\n"
        "    mov.u32 %r6, 4;\n"
        "OUTER_END:\n"
        "    activemask.b32 %r7;\n"                 /* reconverged: everyone */
        "    add.u32 %r6, %r6, %r7;\n"
        "    st.global.u32 [%rd3+4], %r6;\n"
        /* sum = 0 + 1 + ... + (t % 37): a loop with a per-lane trip count */
        "    rem.u32 %r8, %r1, 37;\n"
        "    mov.u32 %r9, 0;\n"
        "    mov.u32 %r10, 0;\n"
        "LOOP:\n"
        "    setp.gt.u32 %p5, %r10, %r8;\n"
        "    @%p5 bra LOOP_END;\n"
        "    add.u32 %r9, %r9, %r10;\n"
        "    add.u32 %r10, %r10, 1;\n"
        "    bra LOOP;\n"
        "LOOP_END:\n"
        "    st.global.u32 [%rd3+8], %r9;\n"
        /* early exit: t % 5 == 0 leave; the rest meet at a barrier */
        "    rem.u32 %r11, %r1, 5;\n"
        "    setp.eq.u32 %p6, %r11, 0;\n"
        "    @%p6 ret;\n"
        "    bar.sync 0;\n"
        "    activemask.b32 %r12;\n"
        "    st.global.u32 [%rd3+12], %r12;\n"
        "    ret;\n}\n";
    Sim s;
    sim_ok(&s, src);
    const uint32_t *o = sim_buf(&s, "out");
    uint32_t alive[2] = { 0, 0 };
    for (uint32_t t = 0; t < 64; t++)
        if (t % 5) alive[t / 32] |= 1u << (t % 32);
    for (uint32_t t = 0; t < 64; t++) {
        const uint32_t *r = o + 4 * t;
        assert_int_equal(r[0], t & 1 ? 3 * t : t + 100);
        uint32_t b = t >= 48 ? 4 : t % 4 >= 2 ? 3 : t % 8 == 0 ? 1 : 2;
        assert_int_equal(r[1], b + 0xffffffffu);
        uint32_t n = t % 37;
        assert_int_equal(r[2], n * (n + 1) / 2);
        assert_int_equal(r[3], t % 5 ? alive[t / 32] : 0);
    }
    assert_true(s.run.stats.simt_max_depth >= 4);       /* base + three nested levels */
    assert_true(s.run.stats.branch_divergent > 0);
    sim_free(&s);
}

/* A loop whose body diverges, with lanes that leave from inside the loop
 * body; and code after a branch whose paths end in ret (reconvergence at
 * the exit). */
/* cp.async (tests/data/cp_async.s): 16-byte copies global -> shared by 32
 * threads, commit, wait, bar.sync, the tile read back reversed (its .check);
 * and a 4-byte copy with src-size 2 keeps the low 2 bytes of 0x12345678. */
static void test_cp_async(void **state)
{
    (void)state;
    const char *src = load_src("tests/data/cp_async.s");
    Sim s;
    const char *dot = strstr(src, ".check out equals=expect");   /* checked here, relative paths aside */
    assert_non_null(dot);
    sim_ok(&s, src);
    const uint32_t *o = sim_buf(&s, "out");
    for (uint32_t i = 0; i < 128; i++) assert_int_equal(o[i], 0x12345678u + 127 - i);
    assert_int_equal(*(const uint32_t *)sim_buf(&s, "extra"), 0x5678);
    sim_free(&s);
}

/* match.sync on t % 4 (lanes 0x11111111 << t % 4 agree), .all on a
 * constant (every lane: 0xffffffff) and on t (0), then t / 8 among lanes
 * 0-15 only (membermask 0xffff: 0xff or 0xff00); nanosleep sleeps 0 ns. */
static void test_match(void **state)
{
    (void)state;
    static const char src[] =
        ".buffer out .u32[128] zero\n"
        ".launch k grid=1 block=32 args=(out)\n"
        ".entry k (.param .u64 o)\n{\n"
        "    ld.param.u64 %rd1, [o];\n"
        "    mov.u32 %r1, %tid.x;\n"
        "    and.b32 %r2, %r1, 3;\n"
        "    nanosleep.u32 100;\n"
        "    match.sync.any.b32 %r3, %r2, 0xffffffff;\n"
        "    match.sync.all.b32 %r4, 7, 0xffffffff;\n"
        "    cvt.u64.u32 %rd4, %r1;\n"
        "    match.sync.all.b64 %r5, %rd4, 0xffffffff;\n"
        "    mov.u32 %r6, 0;\n"
        "    setp.ge.u32 %p1, %r1, 16;\n"
        "    @%p1 bra J;\n"
        "    shr.u32 %r7, %r1, 3;\n"
        "    match.sync.any.b32 %r6, %r7, 0xffff;\n"
        "J:\n"
        "    mul.wide.u32 %rd2, %r1, 16;\n"
        "    add.s64 %rd3, %rd1, %rd2;\n"
        "    st.global.v4.u32 [%rd3], {%r3, %r4, %r5, %r6};\n"
        "    ret;\n}\n";
    Sim s;
    sim_ok(&s, src);
    const uint32_t *o = sim_buf(&s, "out");
    for (uint32_t t = 0; t < 32; t++) {
        assert_int_equal(o[4 * t], 0x11111111u << (t % 4));
        assert_int_equal(o[4 * t + 1], 0xffffffffu);
        assert_int_equal(o[4 * t + 2], 0);
        assert_int_equal(o[4 * t + 3], t >= 16 ? 0 : t < 8 ? 0xffu : 0xff00u);
    }
    sim_free(&s);
}

/* nvcc writes match.any.sync and match.all.sync d|p (the PTX manual's
 * order; the assembler took only match.sync.any): t % 3's lanes agree
 * (0x49249249 << t % 3, wrapped), and .all on t % 3 is 0 with p false, on
 * a constant every lane with p true. */
static void test_match_nvcc_order(void **state)
{
    (void)state;
    static const char src[] =
        ".buffer out .u32[128] zero\n"
        ".launch k grid=1 block=32 args=(out)\n"
        ".entry k (.param .u64 o)\n{\n"
        "    ld.param.u64 %rd1, [o];\n"
        "    mov.u32 %r1, %tid.x;\n"
        "    rem.u32 %r2, %r1, 3;\n"
        "    match.any.sync.b32 %r3, %r2, -1;\n"
        "    match.all.sync.b32 %r4|%p1, %r2, -1;\n"
        "    match.all.sync.b32 %r5|%p2, 5, -1;\n"
        "    selp.u32 %r6, 1, 0, %p1;\n"
        "    selp.u32 %r7, 1, 0, %p2;\n"
        "    add.u32 %r6, %r6, %r7;\n"
        "    add.u32 %r6, %r6, %r7;\n"
        "    mul.wide.u32 %rd2, %r1, 16;\n"
        "    add.s64 %rd3, %rd1, %rd2;\n"
        "    st.global.v4.u32 [%rd3], {%r3, %r4, %r5, %r6};\n"
        "    ret;\n}\n";
    static const uint32_t any_mask[3] = { 0x49249249u, 0x92492492u, 0x24924924u };
    Sim s;
    sim_ok(&s, src);
    const uint32_t *o = sim_buf(&s, "out");
    for (uint32_t t = 0; t < 32; t++) {
        assert_int_equal(o[4 * t], any_mask[t % 3]);
        assert_int_equal(o[4 * t + 1], 0);
        assert_int_equal(o[4 * t + 2], 0xffffffffu);
        assert_int_equal(o[4 * t + 3], 2);        /* p1 false (0), p2 true (1, counted twice) */
    }
    sim_free(&s);
}

/* What nvcc writes and PTX allows: st.u32 from a 64-bit register (its low
 * bytes), ld.s32/.u32 into one (sign- or zero-extended), mov.pred of 0 or
 * 1; and %globaltimer, nanoseconds: %clock64 x 1000 / gpu.core_clock_mhz. */
static void test_nvcc_forms(void **state)
{
    (void)state;
    static const char src[] =
        ".buffer out .u64[6] zero\n"
        ".launch k grid=1 block=1 args=(out)\n"
        ".entry k (.param .u64 o)\n{\n"
        "    ld.param.u64 %rd1, [o];\n"
        "    mov.b64 %rd2, 0xfffffffe80000001;\n"
        "    st.global.u32 [%rd1], %rd2;\n"
        "    ld.global.s32 %rd3, [%rd1];\n"
        "    ld.global.u32 %rd4, [%rd1];\n"
        "    st.global.u64 [%rd1+8], %rd3;\n"
        "    st.global.u64 [%rd1+16], %rd4;\n"
        "    mov.pred %p1, 1;\n"
        "    mov.pred %p2, 0;\n"
        "    selp.u64 %rd5, 7, 9, %p1;\n"
        "    @%p2 mov.u64 %rd5, 11;\n"
        "    st.global.u64 [%rd1+24], %rd5;\n"
        "    mov.u64 %rd6, %clock64;\n"
        "    mov.u64 %rd7, %globaltimer;\n"
        "    st.global.v2.u64 [%rd1+32], {%rd6, %rd7};\n"
        "    ret;\n}\n";
    Sim s;
    sim_ok(&s, src);
    const uint64_t *o = sim_buf(&s, "out");
    assert_int_equal(o[0], 0x80000001u);
    assert_int_equal(o[1], 0xffffffff80000001ull);
    assert_int_equal(o[2], 0x80000001u);
    assert_int_equal(o[3], 7);
    double ns = 1000.0 / s.cfg.gpu.core_clock_mhz;
    assert_true(o[5] >= (uint64_t)((double)o[4] * ns) && o[5] <= (uint64_t)((double)(o[4] + 2) * ns) + 1);
    sim_free(&s);
}

/* redux.sync over a full warp, t = 0..31: sum 496, min.s32 of 10 - t =
 * -21, max.u32 31, and 0 / or 31 / xor 0 of t; then lanes 0-15 alone
 * (membermask 0xffff) under a branch: sum 0..15 = 120.  A membermask that
 * names a lane not there is a fault. */
static void test_redux(void **state)
{
    (void)state;
    static const char src[] =
        ".buffer out .u32[256] zero\n"
        ".launch k grid=1 block=32 args=(out)\n"
        ".entry k (.param .u64 o)\n{\n"
        "    ld.param.u64 %rd1, [o];\n"
        "    mov.u32 %r1, %tid.x;\n"
        "    sub.s32 %r2, 10, %r1;\n"
        "    redux.sync.add.u32 %r3, %r1, 0xffffffff;\n"
        "    redux.sync.min.s32 %r4, %r2, 0xffffffff;\n"
        "    redux.sync.max.u32 %r5, %r1, 0xffffffff;\n"
        "    redux.sync.and.b32 %r6, %r1, 0xffffffff;\n"
        "    redux.sync.or.b32 %r7, %r1, 0xffffffff;\n"
        "    redux.sync.xor.b32 %r8, %r1, 0xffffffff;\n"
        "    mov.u32 %r9, 0;\n"
        "    setp.ge.u32 %p1, %r1, 16;\n"
        "    @%p1 bra J;\n"
        "    redux.sync.add.u32 %r9, %r1, 0xffff;\n"
        "J:\n"
        "    mul.wide.u32 %rd2, %r1, 32;\n"
        "    add.s64 %rd3, %rd1, %rd2;\n"
        "    st.global.v4.u32 [%rd3], {%r3, %r4, %r5, %r6};\n"
        "    st.global.v4.u32 [%rd3+16], {%r7, %r8, %r9, %r1};\n"
        "    ret;\n}\n";
    Sim s;
    sim_ok(&s, src);
    const uint32_t *o = sim_buf(&s, "out");
    for (uint32_t t = 0; t < 32; t++) {
        const uint32_t *r = o + 8 * t;
        assert_int_equal(r[0], 496);
        assert_int_equal(r[1], (uint32_t)-21);
        assert_int_equal(r[2], 31);
        assert_int_equal(r[3], 0);
        assert_int_equal(r[4], 31);
        assert_int_equal(r[5], 0);   /* 0 ^ 1 ^ ... ^ 31 */
        assert_int_equal(r[6], t < 16 ? 120 : 0);
    }
    sim_free(&s);
    static const char bad[] =
        ".buffer out .u32[1] zero\n"
        ".launch k grid=1 block=32 args=(out)\n"
        ".entry k (.param .u64 o)\n{\n"
        "    mov.u32 %r1, %tid.x;\n"
        "    setp.ge.u32 %p1, %r1, 16;\n"
        "    @%p1 bra J;\n"
        "    redux.sync.add.u32 %r9, %r1, 0xffffffff;\n"
        "J:\n"
        "    ret;\n}\n";
    assert_int_equal(sim_run(&s, bad), RUN_FAULT);
    assert_int_equal(s.run.fault.kind, FAULT_MEMBERMASK);
    sim_free(&s);
}

/* Device functions: a nested call (sq calls inc) made only by lanes
 * t < 20 (the others wait after the call), registers of the caller kept,
 * return values through .params: out[t] = t*t + (t+1) + 100 for t < 20,
 * 7 for the rest. */
static void test_calls(void **state)
{
    (void)state;
    static const char src[] =
        ".buffer out .u32[32] zero\n"
        ".launch k grid=1 block=32 args=(out)\n"
        ".func (.param .u32 ir) inc (.param .u32 ix)\n{\n"
        "    ld.param.u32 %r1, [ix];\n"
        "    add.u32 %r1, %r1, 1;\n"
        "    st.param.u32 [ir], %r1;\n"
        "    ret;\n}\n"
        ".func (.param .u32 sr) sq (.param .u32 sx)\n{\n"
        "    .param .u32 a;\n"
        "    .param .u32 b;\n"
        "    ld.param.u32 %r1, [sx];\n"
        "    mul.lo.u32 %r2, %r1, %r1;\n"
        "    st.param.u32 [a], %r1;\n"
        "    call (b), inc, (a);\n"
        "    ld.param.u32 %r3, [b];\n"
        "    add.u32 %r2, %r2, %r3;\n"
        "    st.param.u32 [sr], %r2;\n"
        "    ret;\n}\n"
        ".entry k (.param .u64 o)\n{\n"
        "    .param .u32 a;\n"
        "    .param .u32 b;\n"
        "    ld.param.u64 %rd1, [o];\n"
        "    mov.u32 %r1, %tid.x;\n"
        "    mov.u32 %r2, 7;\n"
        "    mov.u32 %r3, 100;\n"                 /* kept across the call */
        "    setp.lt.u32 %p1, %r1, 20;\n"
        "    @!%p1 bra SKIP;\n"
        "    st.param.u32 [a], %r1;\n"
        "    call.uni (b), sq, (a);\n"
        "    ld.param.u32 %r2, [b];\n"
        "    add.u32 %r2, %r2, %r3;\n"
        "SKIP:\n"
        "    mul.wide.u32 %rd2, %r1, 4;\n"
        "    add.s64 %rd3, %rd1, %rd2;\n"
        "    st.global.u32 [%rd3], %r2;\n"
        "    ret;\n}\n";
    Sim s;
    sim_ok(&s, src);
    const uint32_t *o = sim_buf(&s, "out");
    for (uint32_t t = 0; t < 32; t++) assert_int_equal(o[t], t < 20 ? t * t + t + 1 + 100 : 7);
    /* the join and the fall-through path (the taken path starts at the
     * join, so it is not pushed), then sq's entry and inc's */
    assert_int_equal(s.run.stats.simt_max_depth, 4);
    sim_free(&s);
}

/* .buffer ... expr(EXPR of i): the tridiagonal CSR matrix of the SpMV
 * validation kernel for M = 5 (rows 0..4: columns r-1, r, r+1 clipped,
 * values -1 2 -1), by hand: */
static void test_expr_initialiser(void **state)
{
    (void)state;
    static const char src[] =
        ".define M 5\n"
        ".define NNZ 3*M-2\n"
        ".buffer rowptr .s32[M+1] expr(max(0, min(3*i-1, 3*M-2)))\n"
        ".buffer col .s32[NNZ] expr((i+1)/3 - 1 + (i+1)%3)\n"
        ".buffer val .f32[NNZ] expr(2 - 3*((i+1)%3-1)*((i+1)%3-1))\n"
        ".buffer ops .s64[4] expr(-i << 2 ^ 1 | ~0 & 8)\n"
        ".buffer narrow .u8[3] expr(i * 200)\n"
        ".launch k grid=1 block=1 args=()\n"
        ".entry k () { ret; }\n";
    Sim s;
    sim_ok(&s, src);
    static const int32_t rowptr[6] = { 0, 2, 5, 8, 11, 13 };
    static const int32_t col[13] = { 0, 1, 0, 1, 2, 1, 2, 3, 2, 3, 4, 3, 4 };
    static const float val[13] = { 2, -1, -1, 2, -1, -1, 2, -1, -1, 2, -1, -1, 2 };
    assert_memory_equal(sim_buf(&s, "rowptr"), rowptr, sizeof rowptr);
    assert_memory_equal(sim_buf(&s, "col"), col, sizeof col);
    assert_memory_equal(sim_buf(&s, "val"), val, sizeof val);
    /* C precedence: ((-i << 2) ^ 1) | (~0 & 8): 1|8, -3|8, -7|8, -11|8 */
    static const int64_t ops[4] = { 9, -3, -7, -3 };
    assert_memory_equal(sim_buf(&s, "ops"), ops, sizeof ops);
    /* integers keep their low bytes, as a C cast: 0, 200, 400 & 255 = 144 */
    static const uint8_t narrow[3] = { 0, 200, 144 };
    assert_memory_equal(sim_buf(&s, "narrow"), narrow, sizeof narrow);
    sim_free(&s);

    /* an element that divides by zero stops the run before it starts */
    DiagList dl = { 0 };
    static const char bad[] = ".buffer b .s32[4] expr(12 / (i - 2))\n.launch k grid=1 block=1 args=()\n.entry k () { ret; }\n";
    Program *p = asm_assemble("t.s", bad, strlen(bad), NULL, &dl);
    assert_non_null(p);
    Config cfg;
    config_defaults(&cfg);
    Run run;
    RunOptions o = { .functional = 1 };
    assert_int_equal(run_program(&run, p, &cfg, "(defaults)", &o, &dl), RUN_BAD_INPUT);
    assert_int_equal(dl.v[0].line, 1);
    assert_string_equal(dl.v[0].msg, "buffer b: expr() at i = 2: division by zero");
    run_free(&run);
    program_free(p);
    diag_free(&dl);
}

static void test_exit_inside_divergence(void **state)
{
    (void)state;
    static const char src[] =
        ".buffer out .u32[32] zero\n"
        ".launch k grid=1 block=32 args=(out)\n"
        ".entry k (.param .u64 o)\n{\n"
        "    ld.param.u64 %rd1, [o];\n"
        "    mov.u32 %r1, %tid.x;\n"
        "    mul.wide.u32 %rd2, %r1, 4;\n"
        "    add.s64 %rd3, %rd1, %rd2;\n"
        "    mov.u32 %r2, 0;\n"                      /* i */
        "    mov.u32 %r3, 0;\n"                      /* acc */
        "L:\n"
        "    and.b32 %r4, %r2, 1;\n"
        "    setp.eq.u32 %p1, %r4, 0;\n"
        "    @%p1 bra EVEN_I;\n"
        "    add.u32 %r3, %r3, 10;\n"
        "    setp.eq.u32 %p2, %r2, %r1;\n"           /* odd i == t: leave here */
        "    @%p2 bra OUT;\n"
        "    bra.uni NEXT;\n"
        "EVEN_I:\n"
        "    add.u32 %r3, %r3, 1;\n"
        "NEXT:\n"
        "    add.u32 %r2, %r2, 1;\n"
        "    setp.le.u32 %p3, %r2, %r1;\n"
        "    @%p3 bra L;\n"
        "    add.u32 %r3, %r3, 1000;\n"              /* even t finish the loop */
        "    st.global.u32 [%rd3], %r3;\n"
        "    ret;\n"
        "OUT:\n"
        "    st.global.u32 [%rd3], %r3;\n"
        "    exit;\n}\n";
    Sim s;
    sim_ok(&s, src);
    const uint32_t *o = sim_buf(&s, "out");
    for (uint32_t t = 0; t < 32; t++) {
        uint32_t acc = 0;
        for (uint32_t i = 0; i <= t; i++) acc += i & 1 ? 10 : 1;
        assert_int_equal(o[t], t & 1 ? acc : acc + 1000);
    }
    sim_free(&s);
}

/* A kernel may end without ret: running off the end ends the threads,
 * also when a branch's taken path is the end itself. */
static void test_implicit_ret(void **state)
{
    (void)state;
    static const char src[] =
        ".buffer out .u32[48] zero\n"
        ".launch k grid=1 block=48 args=(out)\n"
        ".entry k (.param .u64 o)\n{\n"
        "    ld.param.u64 %rd1, [o];\n"
        "    mov.u32 %r1, %tid.x;\n"
        "    mul.wide.u32 %rd2, %r1, 4;\n"
        "    add.s64 %rd3, %rd1, %rd2;\n"
        "    st.global.u32 [%rd3], 1;\n"
        "    setp.lt.u32 %p1, %r1, 20;\n"
        "    @%p1 bra END;\n"
        "    st.global.u32 [%rd3], 2;\n"
        "END:\n"
        "}\n";
    Sim s;
    sim_ok(&s, src);
    const uint32_t *o = sim_buf(&s, "out");
    for (uint32_t t = 0; t < 48; t++) assert_int_equal(o[t], t < 20 ? 1 : 2);
    sim_free(&s);
}

/* ---- every opcode has a case ------------------------------------------------------------------- */

/* Where each opcode's semantics are tested.  A new row in isa/isa.def
 * fails test_every_opcode until it gets a case here. */
static const struct { Opcode op; const char *test; } covered[] = {
    { OP_MOV, "test_selp_mov, test_special_registers, test_shared_memory" },
    { OP_LD, "test_ld_st_sizes, test_shared_memory, test_const_and_local, test_generic_addressing" },
    { OP_ST, "test_ld_st_sizes" },
    { OP_CVTA, "test_generic_addressing" },
    { OP_CVT, "test_cvt" },
    { OP_ADD, "test_int_add_sub, test_float_rounding" },
    { OP_SUB, "test_int_add_sub, test_float_rounding" },
    { OP_MUL, "test_mul_mad, test_float_rounding" },
    { OP_MAD, "test_mul_mad, test_float_rounding" },
    { OP_FMA, "test_float_rounding, test_ftz_sat" },
    { OP_DIV, "test_div_rem, test_float_rounding" },
    { OP_REM, "test_div_rem" },
    { OP_MIN, "test_min_max" },
    { OP_MAX, "test_min_max" },
    { OP_ABS, "test_abs_neg" },
    { OP_NEG, "test_abs_neg" },
    { OP_COPYSIGN, "test_min_max" },
    { OP_AND, "test_logic" },
    { OP_OR, "test_logic" },
    { OP_XOR, "test_logic" },
    { OP_NOT, "test_logic" },
    { OP_CNOT, "test_logic" },
    { OP_SHL, "test_shifts" },
    { OP_SHR, "test_shifts" },
    { OP_POPC, "test_popc_clz_brev" },
    { OP_CLZ, "test_popc_clz_brev" },
    { OP_BREV, "test_popc_clz_brev" },
    { OP_BFE, "test_popc_clz_brev" },
    { OP_BFIND, "test_popc_clz_brev" },
    { OP_PRMT, "test_popc_clz_brev" },
    { OP_BFI, "test_half" },
    { OP_SET, "test_half" },
    { OP_FNS, "test_popc_clz_brev" },
    { OP_RCP, "test_float_rounding" },
    { OP_SQRT, "test_float_rounding" },
    { OP_RSQRT, "test_sfu" },
    { OP_SIN, "test_sfu" },
    { OP_COS, "test_sfu" },
    { OP_EX2, "test_sfu" },
    { OP_LG2, "test_sfu" },
    { OP_SETP, "test_setp" },
    { OP_SELP, "test_selp_mov" },
    { OP_BRA, "test_divergence, test_exit_inside_divergence" },
    { OP_BAR_SYNC, "test_shared_memory, test_divergence" },
    { OP_BARRIER_SYNC, "test_barrier_forms" },
    { OP_BAR_ARRIVE, "test_barrier_forms" },
    { OP_BARRIER_ARRIVE, "test_barrier_forms" },
    { OP_BAR_WARP_SYNC, "test_activemask_and_syncs" },
    { OP_MEMBAR, "test_activemask_and_syncs" },
    { OP_FENCE, "test_activemask_and_syncs" },
    { OP_RET, "test_divergence" },
    { OP_EXIT, "test_exit_inside_divergence" },
    { OP_CALL, "test_calls" },
    { OP_REDUX, "test_redux" },
    { OP_MATCH, "test_match" },
    { OP_CP_ASYNC, "test_cp_async" },
    { OP_CP_ASYNC_COMMIT, "test_cp_async" },
    { OP_CP_ASYNC_WAIT, "test_cp_async" },
    { OP_CP_ASYNC_WAIT_ALL, "test_cp_async" },
    { OP_NANOSLEEP, "test_match" },
    { OP_VOTE, "test_vote" },
    { OP_SHFL, "test_shfl, test_shfl_divergent" },
    { OP_ACTIVEMASK, "test_activemask_and_syncs, test_vote" },
    { OP_ATOM, "test_atomics_global, test_atomics_shared_ops, test_atomics_shared, test_atomics_64" },
    { OP_RED, "test_atomics_global, test_atomics_shared_ops, test_atomics_shared" },
};

/* barrier.sync is bar.sync; a thread count equal to the block works like
 * none; bar.arrive / barrier.arrive never wait.  (A producer warp's arrival
 * counting toward a consumer's bar.sync is not modelled: see the report.) */
static void test_barrier_forms(void **state)
{
    (void)state;
    static const char src[] =
        ".buffer out .u32[64*2] zero\n"
        ".launch k grid=1 block=64 args=(out)\n"
        ".entry k (.param .u64 o)\n{\n"
        "    .shared .align 4 .u32 v[64];\n"
        "    ld.param.u64 %rd1, [o];\n"
        "    mov.u32 %r1, %tid.x;\n"
        "    shl.b32 %r2, %r1, 2;\n"
        "    mov.u32 %r3, v;\n"
        "    add.u32 %r4, %r3, %r2;\n"
        "    add.u32 %r5, %r1, 1000;\n"
        "    st.shared.u32 [%r4], %r5;\n"
        "    barrier.sync 0;\n"
        "    xor.b32 %r6, %r1, 32;\n"                 /* the other warp's slot */
        "    shl.b32 %r6, %r6, 2;\n"
        "    add.u32 %r7, %r3, %r6;\n"
        "    ld.shared.u32 %r8, [%r7];\n"
        "    bar.arrive 3, 64;\n"
        "    barrier.arrive 4, 64;\n"
        "    bar.sync 1, 64;\n"
        "    st.shared.u32 [%r7], %r1;\n"             /* overwrite the other warp's slot */
        "    barrier.sync 2, 64;\n"
        "    ld.shared.u32 %r9, [%r4];\n"
        "    mul.wide.u32 %rd2, %r1, 8;\n"
        "    add.s64 %rd3, %rd1, %rd2;\n"
        "    st.global.v2.u32 [%rd3], {%r8, %r9};\n"
        "    ret;\n}\n";
    Sim s;
    sim_ok(&s, src);
    const uint32_t *o = sim_buf(&s, "out");
    for (uint32_t t = 0; t < 64; t++) {
        assert_int_equal(o[2 * t], (t ^ 32) + 1000);
        assert_int_equal(o[2 * t + 1], t ^ 32);
    }
    assert_int_equal(s.run.stats.barriers, 2 * 3);
    sim_free(&s);
}

static void test_every_opcode(void **state)
{
    (void)state;
    int missing = 0;
    for (int op = 0; op < OP_COUNT; op++) {
        int listed = 0;
        for (size_t i = 0; i < sizeof covered / sizeof covered[0]; i++)
            if ((int)covered[i].op == op) listed = 1;
        if (!listed) { print_error("opcode %s has no semantics case in tests/test_exec.c\n", isa_ops[op].mnemonic); missing++; }
        else if (!seen_op[op]) { print_error("opcode %s is listed but no test ran it\n", isa_ops[op].mnemonic); missing++; }
    }
    assert_int_equal(missing, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_int_add_sub),
        cmocka_unit_test(test_calls),
        cmocka_unit_test(test_redux),
        cmocka_unit_test(test_nvcc_forms),
        cmocka_unit_test(test_match),
        cmocka_unit_test(test_match_nvcc_order),
        cmocka_unit_test(test_cp_async),
        cmocka_unit_test(test_half),
        cmocka_unit_test(test_expr_initialiser),
        cmocka_unit_test(test_fma_full_warps_match_fmaf),
        cmocka_unit_test(test_narrow_types_in_wide_registers),
        cmocka_unit_test(test_register_rows),
        cmocka_unit_test(test_mul_mad),
        cmocka_unit_test(test_div_rem),
        cmocka_unit_test(test_div_by_zero_counts_lanes),
        cmocka_unit_test(test_min_max),
        cmocka_unit_test(test_abs_neg),
        cmocka_unit_test(test_logic),
        cmocka_unit_test(test_shifts),
        cmocka_unit_test(test_popc_clz_brev),
        cmocka_unit_test(test_float_rounding),
        cmocka_unit_test(test_sfu),
        cmocka_unit_test(test_ftz_sat),
        cmocka_unit_test(test_cvt),
        cmocka_unit_test(test_cvt_warp),
        cmocka_unit_test(test_param_cvta_warp),
        cmocka_unit_test(test_setp),
        cmocka_unit_test(test_selp_mov),
        cmocka_unit_test(test_special_registers),
        cmocka_unit_test(test_sm_registers_and_clock),
        cmocka_unit_test(test_ld_st_sizes),
        cmocka_unit_test(test_guarded_memory),
        cmocka_unit_test(test_guarded_off_memory_space),
        cmocka_unit_test(test_each_block_starts_fresh),
        cmocka_unit_test(test_shared_memory),
        cmocka_unit_test(test_vector_memory_warp),
        cmocka_unit_test(test_const_and_local),
        cmocka_unit_test(test_generic_addressing),
        cmocka_unit_test(test_atomics_global),
        cmocka_unit_test(test_atomics_shared_ops),
        cmocka_unit_test(test_atomics_shared),
        cmocka_unit_test(test_atomics_64),
        cmocka_unit_test(test_vote),
        cmocka_unit_test(test_shfl),
        cmocka_unit_test(test_shfl_divergent),
        cmocka_unit_test(test_activemask_and_syncs),
        cmocka_unit_test(test_divergence),
        cmocka_unit_test(test_exit_inside_divergence),
        cmocka_unit_test(test_barrier_forms),
        cmocka_unit_test(test_implicit_ret),
        cmocka_unit_test(test_every_opcode),   /* last: needs the others' programs */
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
