/* test_module.c - what nvcc modules declare besides entries: dynamic shared
 * memory (.extern .shared NAME[] with .launch shared=BYTES), module
 * variables (.global/.const with initializers, addressed by name) and device
 * functions (.func, call, ret, recursion).  Values are
 * computed by hand in the comments.  Run from the repo root; the runs use
 * the binary named by $GPUSIM. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "gpusim_run.h"
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


static void expect(const char *args, int code, const char *needle) { gpusim_expect(args, code, needle); }

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
           /* 60016 B + the 1 KiB hopper.ini reserves per block (smem.reserved_bytes), rounded */
           "shared memory   61056 B (unit 128 B)               233472 B          3  <- binds");
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

/* ---- device functions ------------------------------------------------------ */

static void test_func_linking(void **s)
{
    (void)s;
    DiagList dl = { 0 };
    Program *p = asm_assemble_file("tests/data/recursion.s", NULL, &dl);
    if (!p) dump(&dl);
    assert_non_null(p);
    assert_int_equal(p->nfuncs, 1);
    const Entry *f = &p->funcs[0], *e = &p->entries[0];
    assert_string_equal(f->name, "fib");
    assert_int_equal(f->is_func, 1);
    assert_int_equal(f->nrets, 1);
    assert_int_equal(f->nparams, 2);            /* fib_ret, fib_n */
    assert_int_equal(f->nall_params, 6);        /* + two call sequences' param0, retval0 */
    assert_int_equal(f->frame_bytes, 24);       /* 6 x 4 bytes */
    assert_int_equal(f->ncode, 16);
    /* fibs: 10 instructions of its own, fib's 16 linked in after them */
    assert_int_equal(e->ncode_own, 10);
    assert_int_equal(e->ncode, 26);
    assert_int_equal(e->nlinked, 1);
    assert_int_equal(e->linked[0].pc, 10);
    assert_int_equal(e->linked[0].param_base, 3);   /* fibs_out, param0, retval0 */
    assert_int_equal(e->code[3].op, OP_CALL);
    assert_int_equal(e->code[3].opd[0].imm, 10);
    /* fib's own calls, linked: back to pc 10 */
    assert_int_equal(e->code[10 + 5].op, OP_CALL);
    assert_int_equal(e->code[10 + 5].opd[0].imm, 10);
    assert_int_equal(e->calls[e->code[15].opd[1].imm].params[1], 3 + 2);   /* fib's first param0 */
    /* the branch in fib reconverges at its return (the thread-exit pc) */
    assert_int_equal(e->code[12].op, OP_BRA);
    assert_int_equal(e->code[12].reconv, 26);
    /* registers: fibs' %r<3> and %rd<4>, then fib's %r<7> */
    assert_int_equal(e->nregs, 3 + 4 + 7);
    assert_int_equal(e->linked[0].reg_base, 7);
    program_free(p);
    diag_free(&dl);
}

static void test_func_errors(void **s)
{
    (void)s;
    static const char fn[] = ".func (.param .b32 r) f (.param .b32 x)\n{\n    ret;\n}\n";
    bad(".entry k()\n{\n    call g;\n    ret;\n}\n", 3, 10, "call of unknown function 'g' (no .func defines it)");
    bad(".func add4 () { ret; }\n.entry k()\n{\n    call add3;\n    ret;\n}\n", 4, 10, "call of unknown function 'add3' (did you mean 'add4'?)");
    bad(".entry j() { ret; }\n.entry k()\n{\n    call j;\n    ret;\n}\n", 4, 10, "an .entry cannot be called, only a .func");
    bad(".func (.param .b32 r) f (.param .b32 x)\n{\n    ret;\n}\n.entry k()\n{\n    .param .b32 a;\n    call f, (a);\n    ret;\n}\n",
        8, 10, "call of f passes 0 return values and 1 argument; it has 1 and 1");
    char src[512];
    snprintf(src, sizeof src, "%s.entry k()\n{\n    .param .b16 a;\n    .param .b32 b;\n    call (b), f, (a);\n    ret;\n}\n", fn);
    bad(src, 9, 15, "call of f: .param a has 2 bytes, its parameter x needs 4");
    bad(".entry k()\n{\n    call %rd1, (a);\n    ret;\n}\n", 3, 10, "indirect calls (through a register) are not supported");
    bad(".extern .func (.param .b32 r) malloc (.param .b64 n);\n.entry k()\n{\n    .param .b64 p0;\n"
        "    .param .b32 r0;\n    call.uni (r0), malloc, (p0);\n    ret;\n}\n", 6, 20,
        "call of 'malloc': it is only declared (a prototype, such as nvcc's .extern .func for a CUDA library function), "
        "and no .func in the program defines it (of CUDA's library functions gpusim has vprintf, for printf)");
    bad(".extern .func (.param .b32 r) vprintf (.param .b64 f, .param .b64 a);\n.entry k()\n{\n    .param .b64 p0;\n"
        "    .param .b32 p1;\n    .param .b32 r0;\n    call.uni (r0), vprintf, (p0, p1);\n    ret;\n}\n", 7, 20,
        "call of vprintf: CUDA's printf passes two 64-bit .params (the format and the arguments' address)");
    bad(".entry k()\n{\n    call f, (nope);\n    ret;\n}\n", 3, 14, "expected a .param name (declare it with .param in the call sequence), got 'nope'");
    bad(".func f()\n{\n    .shared .b32 s[4];\n    ret;\n}\n.entry k() { ret; }\n", 3, 5, ".shared variables inside a .func are not supported");
    bad(".entry k(.param .u32 n)\n{\n    st.param.u32 [n], 1;\n    ret;\n}\n", 3, 5, "st.param: kernel parameter 'n' is read-only");
    bad(".func f() { ret; }\n.func f() { ret; }\n.entry k() { ret; }\n", 2, 7, "function 'f' defined twice");
    /* a prototype, then the definition, is fine */
    Program *p = ok(".func (.param .b32 r) f (.param .b32 x);\n.entry k()\n{\n    .param .b32 a;\n    .param .b32 b;\n"
                    "    call (b), f, (a);\n    ret;\n}\n.func (.param .b32 r) f (.param .b32 x)\n{\n    ret;\n}\n");
    assert_int_equal(p->nfuncs, 1);
    assert_int_equal(p->entries[0].nlinked, 1);
    program_free(p);
}

static void test_func_runs(void **s)
{
    (void)s;
    /* fib(0..11) = 0 1 1 2 3 5 8 13 21 34 55 89, lanes recursing to
     * different depths (thread 11 nests 11 calls) */
    expect("--functional configs/hopper.ini tests/data/recursion.s", 0, "check out        PASS  (12 values");
    expect("configs/hopper.ini tests/data/recursion.s", 0, "check out        PASS  (12 values");
    expect("--functional --set sm.max_call_depth=11 configs/hopper.ini tests/data/recursion.s", 0, "PASS");
    expect("--functional --set sm.max_call_depth=10 configs/hopper.ini tests/data/recursion.s", 3,
           "recursion.s:24:2: fault (call stack overflow): calling fib would nest 11 calls deep; sm.max_call_depth allows 10");
    /* a guarded call and a divergent ret inside: 0 11 0 31 0 56 0 76 */
    expect("--functional configs/hopper.ini tests/data/call_diverge.s", 0, "check out        PASS  (8 values");
    expect("configs/hopper.ini tests/data/call_diverge.s", 0, "check out        PASS  (8 values");
    expect("--disasm tests/data/recursion.s", 0, "call (retval0), fib, (param0);");
    expect("--disasm tests/data/recursion.s", 0, "paths reconverge at the function's return");
    /* cp.async, timed: the waits wait for the copies (membar stalls) */
    expect("configs/hopper.ini tests/data/cp_async.s", 0, "check out        PASS  (128 values");
    expect("configs/hopper.ini tests/data/cp_async.s", 0, "membar 100%, selected 0%           cp.async.wait_group 0;");
    /* real nvcc: the three kernels of more.cu, unchanged */
    expect("configs/hopper.ini tests/data/nvcc/calls.s", 0, "check out        PASS  (8 values");
    expect("configs/hopper.ini tests/data/nvcc/dyn_reverse.s", 0, "check out        PASS  (64 values");
    expect("configs/hopper.ini tests/data/nvcc/use_globals.s", 0, "check gcount     PASS  (1 values");
}

/* Half precision as nvcc 13 writes it (tests/data/half/half.cu): haxpy
 * (fma.rn.f16x2), bf16_dot (mul.rn.bf16x2, red.add.noftz.bf16x2), hcount
 * (atom.add.noftz.f16 by 300 threads: exactly 300), and every half
 * operation, conversion and comparison of f16ops/bf16ops/cvts bit for bit
 * with what an H100 computed on the same inputs (out_*.txt). */
static void test_half_kernels(void **s)
{
    (void)s;
    expect("configs/hopper.ini tests/data/half/haxpy.s", 0, "check y          PASS  (128 values");
    expect("configs/hopper.ini tests/data/half/bf16.s", 0, "check count      PASS  (1 values");
    expect("configs/hopper.ini tests/data/half/bf16.s", 0, "check dot        PASS  (2 values");
    expect("--functional configs/hopper.ini tests/data/half/hw_f16.s", 0, "check out        PASS  (65536 values, max abs error 0)");
    expect("--functional configs/hopper.ini tests/data/half/hw_bf16.s", 0, "check out        PASS  (57344 values, max abs error 0)");
    expect("--functional configs/hopper.ini tests/data/half/hw_cvt.s", 0, "check out        PASS  (73728 values, max abs error 0)");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_func_linking),
        cmocka_unit_test(test_func_errors),
        cmocka_unit_test(test_func_runs),
        cmocka_unit_test(test_half_kernels),
        cmocka_unit_test(test_global_variables),
        cmocka_unit_test(test_global_variable_errors),
        cmocka_unit_test(test_global_variables_run),
        cmocka_unit_test(test_dynamic_shared_layout),
        cmocka_unit_test(test_dynamic_shared_errors),
        cmocka_unit_test(test_dynamic_shared_runs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
