/* test_module.c - what nvcc modules declare besides entries: dynamic shared
 * memory (.extern .shared NAME[] with .launch shared=BYTES) and module
 * variables (.global/.const with initializers, addressed by name).  Values are
 * computed by hand in the comments.  Run from the repo root; the runs use
 * the binary named by $GPUSIM. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "isa/asm.h"
#include "isa/disasm.h"
#include "isa/isa.h"

static void dump(const DiagList *dl)
{
    for (int i = 0; i < dl->n; i++)
        print_error("  %s:%d:%d: %s\n", dl->v[i].file, dl->v[i].line, dl->v[i].col, dl->v[i].msg);
}

static Program *ok(const char *src)
{
    DiagList dl = { 0 };
    Program *p = asm_assemble("t.s", src, strlen(src), NULL, &dl);
    if (!p) dump(&dl);
    assert_non_null(p);
    diag_free(&dl);
    return p;
}

static void bad(const char *src, int line, int col, const char *words)
{
    DiagList dl = { 0 };
    Program *p = asm_assemble("t.s", src, strlen(src), NULL, &dl);
    if (p || !dl.n || dl.v[0].line != line || dl.v[0].col != col || !strstr(dl.v[0].msg, words)) {
        print_error("want %d:%d: ...%s...\n got:\n", line, col, words);
        dump(&dl);
    }
    assert_null(p);
    assert_int_equal(dl.v[0].line, line);
    assert_int_equal(dl.v[0].col, col);
    assert_non_null(strstr(dl.v[0].msg, words));
    diag_free(&dl);
}

static int run(const char *args, char **out)
{
    const char *b = getenv("GPUSIM");
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "%s %s 2>&1 </dev/null", b && *b ? b : "./gpusim", args);
    FILE *f = popen(cmd, "r");
    assert_non_null(f);
    size_t cap = 1 << 16, len = 0, n;
    char *buf = malloc(cap);
    while ((n = fread(buf + len, 1, cap - len - 1, f)) > 0) {
        len += n;
        if (len + 1 == cap) { cap *= 2; buf = realloc(buf, cap); }
    }
    buf[len] = '\0';
    int st = pclose(f);
    *out = buf;
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static void expect(const char *args, int code, const char *needle)
{
    char *out;
    int rc = run(args, &out);
    if (rc != code || (needle && !strstr(out, needle)))
        print_error("gpusim %s: exit %d (want %d), output:\n%s\n", args, rc, code, out);
    assert_int_equal(rc, code);
    if (needle) assert_non_null(strstr(out, needle));
    free(out);
}

/* ---- dynamic shared memory ------------------------------------------------ */

static const char dyn_src[] =
    ".buffer o .u32[4] zero\n"
    ".launch k grid=(1) block=(1) args=(o) shared=100\n"
    ".launch k grid=(1) block=(1) args=(o)\n"
    ".extern .shared .align 16 .b8 dyn[];\n"
    ".entry k(.param .u64 o)\n"
    "{\n"
    "    .shared .align 8 .b8 st[20];\n"
    "    .extern .shared .align 32 .f32 dyn2[];\n"
    "    mov.u32 %r1, dyn;\n"
    "    mov.u32 %r2, dyn2;\n"
    "    ld.shared.f32 %f1, [dyn2+4];\n"
    "    ret;\n"
    "}\n"
    ".entry plain(.param .u64 o) { ret; }\n";

static void test_dynamic_shared_layout(void **s)
{
    (void)s;
    Program *p = ok(dyn_src);
    const Entry *k = &p->entries[0], *plain = &p->entries[1];
    /* k: 20 static bytes; the strictest .extern alignment it sees is 32
     * (its own dyn2), so every dynamic array starts at 32 */
    assert_int_equal(k->shared_bytes, 20);
    assert_int_equal(k->dyn_shared_offset, 32);
    /* plain: no static shared memory, only the module's dyn (align 16): 0 */
    assert_int_equal(plain->shared_bytes, 0);
    assert_int_equal(plain->dyn_shared_offset, 0);
    assert_int_equal(p->launches[0].dyn_shared_bytes, 100);
    assert_int_equal(program_launch_shared(p, &p->launches[0]), 132);   /* 32 + 100 */
    assert_int_equal(program_launch_shared(p, &p->launches[1]), 20);    /* no shared=: static only */
    int dyn = -1;
    for (int i = 0; i < p->nvars; i++) if (!strcmp(p->vars[i].name, "dyn")) dyn = i;
    assert_true(dyn >= 0);
    assert_int_equal(p->vars[dyn].dynamic, 1);
    assert_int_equal(p->vars[dyn].size, 0);
    /* the listing declares it again, and re-assembles */
    char *text = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&text, &len);
    disasm_program(p, m);
    fclose(m);
    assert_non_null(strstr(text, ".extern .shared .align 16 .b8 dyn[];"));
    DiagList dl = { 0 };
    Program *q = asm_assemble("listing.s", text, len, NULL, &dl);
    if (!q) { dump(&dl); fputs(text, stderr); }
    assert_non_null(q);
    assert_int_equal(q->entries[0].dyn_shared_offset, 32);
    program_free(q);
    diag_free(&dl);
    free(text);
    program_free(p);
}

static void test_dynamic_shared_errors(void **s)
{
    (void)s;
    bad(".extern .const .b8 c[];\n.entry k() { ret; }\n", 1, 22, "only .extern .shared arrays may leave out their size");
    bad(".shared .b8 c[];\n.entry k() { ret; }\n", 1, 15, "array c needs a size");
    bad(".extern .shared .b8 c[][4];\n.entry k() { ret; }\n", 1, 25, "has one dimension");
    bad(".launch k grid=(1) block=(1) shared=-4\n.entry k() { ret; }\n", 1, 37, "shared=-4 is out of range");
    bad(".launch k grid=(1) block=(1) smem=4\n.entry k() { ret; }\n", 1, 30, "grid=, block=, args= and shared=, not 'smem'");
}

static void test_dynamic_shared_runs(void **s)
{
    (void)s;
    /* in = 1..100 through s[]: out = 100..1 (dyn_shared.expected); thread 0
     * stores &s = 16 (12 static bytes, .align 16) and &stat = 0 */
    expect("--functional configs/hopper.ini tests/data/dyn_shared.s", 0, "check out        PASS  (100 values");
    expect("configs/hopper.ini tests/data/dyn_shared.s", 0, "416 B shared/block");   /* 16 + 100*4 */
    expect("--functional --dump where configs/hopper.ini tests/data/dyn_shared.s", 0, "16\n0");
    /* 4 bytes short: thread 99's s[99] at 16 + 396 = 412 is outside */
    expect("--functional -D DYN=396 configs/hopper.ini tests/data/dyn_shared.s", 3,
           "out-of-bounds shared access at offset 412: the shared space has 412 bytes");
    /* occupancy counts it: 16 + 60000 = 60016 B, in 128-B units 60032; an
     * H100 SM's 233472 B hold 3 blocks */
    expect("--occupancy -D DYN=60000 configs/hopper.ini tests/data/dyn_shared.s", 0,
           "shared memory   60032 B (unit 128 B)               233472 B          3  <- binds");
}

/* ---- module variables ----------------------------------------------------- */

static void test_global_variables(void **s)
{
    (void)s;
    Program *p = ok(".global .align 4 .u32 gcount = 5;\n"
                    ".global .align 8 .s16 neg[3] = {-1, 2};\n"
                    ".global .f64 zero_d;\n"
                    ".entry k(.param .u64 o)\n"
                    "{\n"
                    "    mov.u64 %rd1, gcount;\n"
                    "    ld.global.u32 %r1, [gcount+0];\n"
                    "    atom.global.add.u32 %r2, [neg], 1;\n"
                    "    ret;\n"
                    "}\n");
    /* each module variable is a buffer of its own name: */
    assert_int_equal(p->nbuffers, 3);
    const BufferSpec *g = &p->buffers[0], *n = &p->buffers[1], *z = &p->buffers[2];
    assert_string_equal(g->name, "gcount");
    assert_int_equal(g->type, T_U32);
    assert_int_equal(g->count, 1);
    assert_int_equal(g->init, INIT_DATA);
    assert_int_equal(g->data_bytes, 4);
    assert_int_equal(g->data[0], 5);
    assert_int_equal(g->global_var, 1);
    /* -1, 2, 0 as little-endian s16: ff ff 02 00 00 00 */
    static const uint8_t want[6] = { 0xff, 0xff, 0x02, 0x00, 0x00, 0x00 };
    assert_int_equal(n->count, 3);
    assert_memory_equal(n->data, want, 6);
    assert_int_equal(z->init, INIT_ZERO);
    assert_int_equal(z->count, 1);
    assert_int_equal(p->vars[0].space, SP_GLOBAL);
    assert_int_equal(p->vars[1].buffer, 1);
    program_free(p);

    /* a .buffer line of the same name, before or after, gives the host's
     * initialiser (cudaMemcpyToSymbol) */
    p = ok(".buffer a .u32[2] fill(7)\n.global .u32 a[2] = {1, 2};\n"
           ".global .b8 b[8] = {1};\n.buffer b .f32[2] iota\n"
           ".entry k() { ret; }\n");
    assert_int_equal(p->nbuffers, 2);
    assert_int_equal(p->buffers[0].init, INIT_FILL);
    assert_int_equal(p->buffers[0].global_var, 1);
    assert_int_equal(p->buffers[1].init, INIT_IOTA);
    assert_int_equal(p->buffers[1].type, T_F32);
    assert_int_equal(p->buffers[1].global_var, 2);
    assert_int_equal(p->vars[1].buffer, 1);
    program_free(p);
}

static void test_global_variable_errors(void **s)
{
    (void)s;
    bad(".entry k()\n{\n .global .u32 g;\n ret;\n}\n", 3, 2, ".global variables belong at module scope");
    bad(".extern .global .u32 g;\n.entry k() { ret; }\n", 1, 9, ".extern .global (a variable of another module) is not supported");
    bad(".global .u32 g;\n.global .u32 g;\n.entry k() { ret; }\n", 2, 14, "'g' is declared twice");
    bad(".buffer g .u32[2]\n.global .u32 g;\n.entry k() { ret; }\n", 2, 14, ".global g has 4 bytes, but .buffer g (line 1) has 8");
    bad(".global .u32 g;\n.buffer g .u8[3]\n.entry k() { ret; }\n", 2, 9, ".buffer g has 3 bytes, but .global g has 4");
    bad(".global .u8 g[2] = {1, 2, 3};\n.entry k() { ret; }\n", 1, 27, "too many initializers for g (2 elements)");
    bad(".global .u8 g = 256;\n.entry k() { ret; }\n", 1, 17, "initializer 256 does not fit in .u8");
    bad(".entry k()\n{\n .local .u32 l = 5;\n ret;\n}\n", 3, 18, "only .const and .global variables can have an initializer");
    bad(".check nosuch file=\"x\"\n.entry k() { ret; }\n", 1, 8, "unknown buffer 'nosuch' (declare it with .buffer, or as a .global variable)");
}

static void test_global_variables_run(void **s)
{
    (void)s;
    /* globals.s: gcount = 5, gtable = {1,2,3,4}, cscale = {0.5,2,4} (in
     * .b8 bytes, as nvcc writes them); out[t] = cscale[t%3]*gtable[t&3] + 5
     * = 5.5 9 17 7 7 13 6.5 13, and thread 0 leaves gcount = 6 */
    expect("--functional configs/hopper.ini tests/data/globals.s", 0, "check gcount     PASS  (1 values");
    expect("configs/hopper.ini tests/data/globals.s", 0, "check out        PASS  (8 values");
    /* .buffer gcount fill(10) first: everything 5 more, gcount 11 */
    expect("configs/hopper.ini tests/data/globals_host.s", 0, "check gcount     PASS  (1 values");
    expect("--functional --dump gcount configs/hopper.ini tests/data/globals_host.s", 0, "\n11\n");
    expect("--disasm tests/data/globals.s", 0, ".global .align 4 .u32 gcount[1] = {5};");
    expect("--disasm tests/data/globals.s", 0, ".const .align 4 .b8 cscale[12] = {0, 0, 0, 63, 0, 0, 0, 64, 0, 0, 128, 64};");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_global_variables),
        cmocka_unit_test(test_global_variable_errors),
        cmocka_unit_test(test_global_variables_run),
        cmocka_unit_test(test_dynamic_shared_layout),
        cmocka_unit_test(test_dynamic_shared_errors),
        cmocka_unit_test(test_dynamic_shared_runs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
