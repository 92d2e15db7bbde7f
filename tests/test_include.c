/* test_include.c - whole PTX modules: `.include` (paths relative to the
 * including file, errors named in the included file, cycles, missing
 * files, the depth limit), what nvcc's modules carry besides code
 * (.section, .file, .loc, .pragma, .weak, .common), the CUDA line that .loc
 * gives each instruction, and the real nvcc 13 modules of
 * tests/validation/ptx/.  Run from the repo root (reads tests/data/include/);
 * the end-to-end runs use the binary named by $GPUSIM. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "gpusim_run.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "isa/asm.h"
#include "isa/disasm.h"
#include "isa/isa.h"

#define DIR "tests/data/include/"

static void dump(const DiagList *dl)
{
    for (int i = 0; i < dl->n; i++)
        print_error("  %s:%d:%d: %s\n", dl->v[i].file, dl->v[i].line, dl->v[i].col, dl->v[i].msg);
}

static Program *ok_file(const char *path)
{
    DiagList dl = { 0 };
    Program *p = asm_assemble_file(path, NULL, &dl);
    if (!p) dump(&dl);
    assert_non_null(p);
    diag_free(&dl);
    return p;
}

/* The file must not assemble; its first error is file:line:col with `words`. */
static void bad_file(const char *path, const char *file, int line, int col, const char *words)
{
    DiagList dl = { 0 };
    Program *p = asm_assemble_file(path, NULL, &dl);
    if (p || !dl.n || strcmp(dl.v[0].file, file) || dl.v[0].line != line || dl.v[0].col != col ||
        !strstr(dl.v[0].msg, words)) {
        print_error("want %s:%d:%d: ...%s...\n got:\n", file, line, col, words);
        dump(&dl);
    }
    assert_null(p);
    assert_true(dl.n >= 1);
    assert_string_equal(dl.v[0].file, file);
    assert_int_equal(dl.v[0].line, line);
    assert_int_equal(dl.v[0].col, col);
    assert_non_null(strstr(dl.v[0].msg, words));
    diag_free(&dl);
}


static void expect(const char *args, int code, const char *needle) { gpusim_expect(args, code, needle); }

/* The first instruction of entry e at CUDA line `cl`, or -1. */
static int pc_of_cuda_line(const Program *p, const Entry *e, int cl)
{
    for (int pc = 0; pc < e->ncode; pc++) {
        int l;
        if (program_cuda_line(p, (int)e->code[pc].line, &l) && l == cl) return pc;
    }
    return -1;
}

static void test_wrapper_lines_and_files(void **s)
{
    (void)s;
    Program *p = ok_file(DIR "wrapper.s");
    /* wrapper.s has 6 lines; module.ptx's 40 lines follow as 7..46 */
    assert_int_equal(p->nfiles, 2);
    assert_string_equal(p->files[0].name, DIR "wrapper.s");
    assert_int_equal(p->files[0].first_line, 1);
    assert_int_equal(p->files[0].nlines, 6);
    assert_string_equal(p->files[1].name, DIR "module.ptx");
    assert_int_equal(p->files[1].first_line, 7);
    assert_int_equal(p->files[1].nlines, 40);
    assert_int_equal(p->files[1].parent, 0);
    assert_int_equal(p->files[1].include_line, 6);
    assert_int_equal(p->nentries, 1);
    const Entry *e = &p->entries[0];
    assert_string_equal(e->name, "twice");
    assert_int_equal(e->ncode, 12);
    /* the first instruction is module.ptx line 16, program line 22 */
    int local;
    assert_int_equal(e->code[0].line, 22);
    assert_string_equal(program_where(p, 22, &local), DIR "module.ptx");
    assert_int_equal(local, 16);
    assert_string_equal(program_where(p, 3, &local), DIR "wrapper.s");
    assert_int_equal(local, 3);
    char lab[96];
    assert_string_equal(program_line_label(p, 22, 1, lab, sizeof lab), "module.ptx:16 (twice.cu:7)");
    assert_string_equal(program_line_label(p, 3, 1, lab, sizeof lab), "3");
    assert_int_equal(p->nlaunches, 1);
    assert_int_equal(p->launches[0].args[1].i, 6);
    program_free(p);
}

static void test_loc_maps_cuda_lines(void **s)
{
    (void)s;
    Program *p = ok_file(DIR "module.ptx");
    const Entry *e = &p->entries[0];
    int cl;
    /* ld.param (pc 0, 1): .loc 1 7; mov/setp/bra (2-4): line 8; the
     * inlined intrinsic (5-7): inlined_at 1 9 wins over sm_30_intrinsics.hpp:440;
     * ld/shl/st (8-10): line 10; ret: line 12 */
    static const int want[12] = { 7, 7, 8, 8, 8, 9, 9, 9, 10, 10, 10, 12 };
    for (int pc = 0; pc < 12; pc++) {
        const char *f = program_cuda_line(p, (int)e->code[pc].line, &cl);
        assert_non_null(f);
        assert_string_equal(f, "twice.cu");
        assert_int_equal(cl, want[pc]);
    }
    assert_int_equal(pc_of_cuda_line(p, e, 10), 8);
    assert_int_equal(p->ncuda_files, 2);
    assert_int_equal(p->cuda_files[1].num, 2);
    /* a line with no instruction has no CUDA line */
    assert_null(program_cuda_line(p, 1, &cl));
    program_free(p);
}

static void test_nested_relative_paths(void **s)
{
    (void)s;
    Program *p = ok_file(DIR "nested.s");
    assert_int_equal(p->nfiles, 3);
    assert_string_equal(p->files[1].name, DIR "sub/inner.s");
    assert_string_equal(p->files[2].name, DIR "module.ptx");   /* "sub/../module.ptx", normalised */
    assert_int_equal(p->files[2].parent, 1);
    assert_int_equal(p->nbuffers, 1);
    assert_int_equal(p->nentries, 1);
    program_free(p);
}

static void test_include_errors(void **s)
{
    (void)s;
    bad_file(DIR "bad.s", DIR "bad_inner.ptx", 4, 2, "unknown opcode 'ad'");
    bad_file(DIR "missing.s", DIR "missing.s", 2, 3, "cannot open included file '" DIR "no_such_file.ptx'");
    bad_file(DIR "cycle_a.s", DIR "cycle_b.s", 1, 1,
             ".include cycle: " DIR "cycle_a.s includes itself (" DIR "cycle_a.s -> " DIR "cycle_b.s -> " DIR "cycle_a.s)");
    bad_file(DIR "deep.s", DIR "deep.s", 1, 1, ".include cycle");
    /* in memory: the path is relative to the name given */
    static const struct { const char *src; int line, col; const char *words; } cases[] = {
        { ".include\n.entry k() { ret; }\n", 1, 1, ".include needs a file name in quotes" },
        { ".include 5\n.entry k() { ret; }\n", 1, 10, "expected a file name in quotes after .include, got '5'" },
        { ".include \"\"\n.entry k() { ret; }\n", 1, 10, ".include needs a file name" },
        { ".include \"module.ptx\" x\n", 1, 23, "unexpected 'x' after .include" },
        { ".entry k() {\n .include \"module.ptx\"\n ret; }\n", 2, 2, ".include belongs at module scope" },
        { ".version 9.0; .include \"module.ptx\"\n.entry k() { ret; }\n", 1, 1, "" },
        { ".entry k() { ret; }\n.section .debug_str {\n.b8 1,2\n", 2, 21, "missing '}' at the end of a .section" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        DiagList dl = { 0 };
        Program *p = asm_assemble(DIR "mem.s", cases[i].src, strlen(cases[i].src), NULL, &dl);
        if (i == 5) {   /* .version's rest of line is skipped, include and all: assembles */
            assert_non_null(p);
            program_free(p);
            diag_free(&dl);
            continue;
        }
        if (p || !dl.n || dl.v[0].line != cases[i].line || dl.v[0].col != cases[i].col || !strstr(dl.v[0].msg, cases[i].words)) {
            print_error("case %zu: want %d:%d ...%s...\n", i, cases[i].line, cases[i].col, cases[i].words);
            dump(&dl);
        }
        assert_null(p);
        assert_int_equal(dl.v[0].line, cases[i].line);
        assert_int_equal(dl.v[0].col, cases[i].col);
        assert_non_null(strstr(dl.v[0].msg, cases[i].words));
        diag_free(&dl);
    }
}

/* 17 files, each including the next: one too many. */
static void test_depth_limit(void **s)
{
    (void)s;
    char dir[] = "/tmp/gpusim_incXXXXXX";
    assert_non_null(mkdtemp(dir));
    char path[256];
    for (int i = 0; i <= 17; i++) {
        snprintf(path, sizeof path, "%s/f%d.s", dir, i);
        FILE *f = fopen(path, "w");
        assert_non_null(f);
        if (i < 17) fprintf(f, "// file %d\n.include \"f%d.s\"\n", i, i + 1);
        else fprintf(f, ".entry k() { ret; }\n");
        fclose(f);
    }
    snprintf(path, sizeof path, "%s/f0.s", dir);
    DiagList dl = { 0 };
    Program *p = asm_assemble_file(path, NULL, &dl);
    assert_null(p);
    if (dl.n) {
        snprintf(path, sizeof path, "%s/f16.s", dir);
        assert_string_equal(dl.v[0].file, path);
    }
    assert_int_equal(dl.v[0].line, 2);
    assert_non_null(strstr(dl.v[0].msg, "nest more than 16 deep"));
    diag_free(&dl);
    for (int i = 0; i <= 17; i++) { snprintf(path, sizeof path, "%s/f%d.s", dir, i); remove(path); }
    rmdir(dir);
}

/* The real nvcc 13 modules assemble unchanged, with and without -lineinfo,
 * to the same code; the lineinfo one knows its CUDA lines. */
static void test_nvcc_modules(void **s)
{
    (void)s;
    Program *a = ok_file("tests/validation/ptx/kernels_val.ptx");
    Program *b = ok_file("tests/validation/ptx/lineinfo/kernels_val.ptx");
    assert_int_equal(a->nentries, 20);
    assert_int_equal(b->nentries, 20);
    for (int i = 0; i < a->nentries; i++) {
        assert_string_equal(a->entries[i].name, b->entries[i].name);
        assert_int_equal(a->entries[i].ncode, b->entries[i].ncode);
        for (int pc = 0; pc < a->entries[i].ncode; pc++) assert_int_equal(a->entries[i].code[pc].op, b->entries[i].code[pc].op);
    }
    assert_null(a->locs);
    assert_non_null(b->locs);
    /* vecadd: `int i = blockIdx.x * blockDim.x + threadIdx.x;` is
     * kernels_val.cu line 21, its mad.lo.s32 is pc 7 */
    const Entry *e = &b->entries[0];
    int cl;
    assert_string_equal(e->name, "vecadd");
    assert_int_equal(e->code[7].op, OP_MAD);
    assert_string_equal(program_cuda_line(b, (int)e->code[7].line, &cl), "kernels_val.cu");
    assert_int_equal(cl, 21);
    program_free(a);
    program_free(b);
    /* and the rest of what nvcc 13 wrote for the H100 measurements */
    static const char *const more[] = {
        "tests/validation/ptx/micro.ptx", "tests/validation/ptx/lineinfo/micro.ptx",
        "tests/validation/ptx/launch.ptx", "tests/validation/ptx/lineinfo/launch.ptx",
    };
    for (size_t i = 0; i < sizeof more / sizeof more[0]; i++) program_free(ok_file(more[i]));
}

static void test_end_to_end(void **s)
{
    (void)s;
    /* a = 1..8; threads 0..5 (n = N-2) double theirs: 2 4 6 8 10 12 7 8 */
    expect("--functional configs/hopper.ini " DIR "wrapper.s", 0, "check a          PASS");
    expect("configs/hopper.ini " DIR "wrapper.s", 0, "module.ptx:28 ");
    expect("configs/hopper.ini " DIR "wrapper.s", 0, "// twice.cu:10");
    expect("--format json configs/hopper.ini " DIR "wrapper.s", 0, "\"file_line\": 27, \"cuda_file\": \"twice.cu\", \"cuda_line\": 10");
    expect("--disasm " DIR "module.ptx", 0, "ld.global.u32 %r3, [%rd4];   // twice.cu:10");
    expect("--disasm " DIR "wrapper.s", 0, "Lmodule.ptx:27 */ ld.global.u32");
    expect("--disasm " DIR "bad.s", 2, DIR "bad_inner.ptx:4:2: error: unknown opcode 'ad'");
    /* host directives of an included file: paths relative to it, errors in it */
    expect("--functional configs/hopper.ini " DIR "bad_host.s", 2,
           DIR "bad_host.ptx:1:9: error: buffer a: cannot open " DIR "missing.txt");
    expect("--functional configs/hopper.ini " DIR "nested.s", 0, NULL);
    /* docs/kernel-format.md's walk-through: scale.cu, nvcc's scale.ptx, scale.s */
    expect("configs/hopper.ini " DIR "scale.s", 0, "check y          PASS  (1000 values");
    expect("configs/hopper.ini " DIR "scale.s", 0, "line scale.ptx:48 (scale.cu:6)");
    /* the trace page's source lines say where they came from */
    char tmp[] = "/tmp/gpusim_traceXXXXXX";
    int fd = mkstemp(tmp);
    assert_true(fd >= 0);
    close(fd);
    char args[256];
    snprintf(args, sizeof args, "--trace %s.html configs/hopper.ini " DIR "wrapper.s", tmp);
    expect(args, 0, NULL);
    snprintf(args, sizeof args, "%s.html", tmp);
    FILE *f = fopen(args, "rb");
    assert_non_null(f);
    static char page[1 << 20];
    size_t n = fread(page, 1, sizeof page - 1, f);
    page[n] = '\0';
    fclose(f);
    assert_non_null(strstr(page, "ld.global.u32 \\t%r3, [%rd4];   \\/\\/ module.ptx:27 (twice.cu:10)"));
    remove(args);
    remove(tmp);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_wrapper_lines_and_files),
        cmocka_unit_test(test_loc_maps_cuda_lines),
        cmocka_unit_test(test_nested_relative_paths),
        cmocka_unit_test(test_include_errors),
        cmocka_unit_test(test_depth_limit),
        cmocka_unit_test(test_nvcc_modules),
        cmocka_unit_test(test_end_to_end),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
