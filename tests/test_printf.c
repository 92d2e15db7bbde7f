/* test_printf.c - CUDA's device printf (sim/core/printf.h): the formatting
 * of vprintf's packed arguments, pinned to hand-made argument buffers, and
 * whole kernels as nvcc compiles printf (tests/data/printf_order.s, and the
 * corpus kernel whose output the H100 printed): the lines, their order
 * (block, warp, the lane's call, lane), the same in functional and timed
 * runs and on stderr beside a JSON report on stdout.  Runs the binary named
 * by $GPUSIM for the whole-kernel cases. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "gpusim_run.h"
#include "sim/core/printf.h"

/* ---- printf_format on a byte buffer ----------------------------------------------- */
typedef struct Buf {
    uint8_t bytes[64];
    const char *strings[4];   /* a string argument's "address" is 1 + its index here */
} Buf;

static int buf_read(void *ctx, uint64_t off, int bytes, uint64_t *v)
{
    Buf *b = ctx;
    if (off + (uint64_t)bytes > sizeof b->bytes) return -1;
    *v = 0;
    memcpy(v, b->bytes + off, (size_t)bytes);
    return 0;
}

static int buf_str(void *ctx, uint64_t addr, char *out, size_t cap)
{
    Buf *b = ctx;
    if (addr < 1 || addr > 4 || !b->strings[addr - 1]) return -1;
    snprintf(out, cap, "%s", b->strings[addr - 1]);
    return 0;
}

static void put4(Buf *b, int off, uint32_t v) { memcpy(b->bytes + off, &v, 4); }
static void put8(Buf *b, int off, uint64_t v) { memcpy(b->bytes + off, &v, 8); }

static void test_format_packing(void **state)
{
    (void)state;
    Buf b = { .strings = { "world" } };
    PrintfArgs a = { buf_read, buf_str, &b };
    char out[256];
    /* int at 0, double at 8 (aligned up from 4), unsigned at 16, long long at
     * 24, char at 32, string pointer at 40 (aligned up from 36) */
    put4(&b, 0, (uint32_t)-7);
    double d = 2.5;
    uint64_t du;
    memcpy(&du, &d, 8);
    put8(&b, 8, du);
    put4(&b, 16, 0xbeefu);
    put8(&b, 24, 0x123456789ull);
    put4(&b, 32, 'Z');
    put8(&b, 40, 1);
    int used = printf_format("i=%d f=%.3f x=%#x ll=%lld c=%c s=%-6s| 100%%\n", &a, out, sizeof out);
    assert_int_equal(used, 6);
    assert_string_equal(out, "i=-7 f=2.500 x=0xbeef ll=4886718345 c=Z s=world | 100%\n");
}

static void test_format_edges(void **state)
{
    (void)state;
    Buf b = { .strings = { NULL } };
    PrintfArgs a = { buf_read, buf_str, &b };
    char out[16];
    /* no arguments; a cut line stays NUL-terminated */
    assert_int_equal(printf_format("plain text that is long", &a, out, sizeof out), 0);
    assert_string_equal(out, "plain text that");
    /* %u of 0xffffffff, %5d, %e, a trailing lone % */
    char big[128];
    put4(&b, 0, 0xffffffffu);
    put4(&b, 4, 42);
    double d = 1024.0;
    uint64_t du;
    memcpy(&du, &d, 8);
    put8(&b, 8, du);
    assert_int_equal(printf_format("%u|%5d|%.2e|%", &a, big, sizeof big), 3);
    assert_string_equal(big, "4294967295|   42|1.02e+03|%");
    /* an argument past the buffer is the reader's failure: -1 */
    assert_int_equal(printf_format("%d%d%d%d%d%d%d%d%d%d%d%d%d%d%d%d%d", &a, big, sizeof big), -1);
}

/* ---- whole kernels ----------------------------------------------------------------- */
static int run(const char *args, char **out, int with_stderr) { return gpusim_run(args, out, with_stderr); }

/* The 16 lines of printf_order.s on a 32-lane GPU: block, warp, then each
 * lane's first call before any lane's second. */
static const char ORDER[] =
    "blk 0 warp 0 lane 0 call 0 ok 0.500\nblk 0 warp 0 lane 16 call 0 ok 0.500\n"
    "blk 0 warp 0 lane 0 call 1 ok 0.500\nblk 0 warp 0 lane 16 call 1 ok 0.500\n"
    "blk 0 warp 1 lane 0 call 0 ok 0.500\nblk 0 warp 1 lane 16 call 0 ok 0.500\n"
    "blk 0 warp 1 lane 0 call 1 ok 0.500\nblk 0 warp 1 lane 16 call 1 ok 0.500\n"
    "blk 1 warp 0 lane 0 call 0 ok 0.500\nblk 1 warp 0 lane 16 call 0 ok 0.500\n"
    "blk 1 warp 0 lane 0 call 1 ok 0.500\nblk 1 warp 0 lane 16 call 1 ok 0.500\n"
    "blk 1 warp 1 lane 0 call 0 ok 0.500\nblk 1 warp 1 lane 16 call 0 ok 0.500\n"
    "blk 1 warp 1 lane 0 call 1 ok 0.500\nblk 1 warp 1 lane 16 call 1 ok 0.500\n";

static void test_kernel_order(void **state)
{
    (void)state;
    const char *modes[] = { "--functional", "", "--set core.schedule=source", "--functional --set sm.independent_threads=true" };
    for (size_t i = 0; i < sizeof modes / sizeof *modes; i++) {
        char args[256], *out;
        snprintf(args, sizeof args, "%s --dump out configs/fermi.ini tests/data/printf_order.s", modes[i]);
        assert_int_equal(run(args, &out, 0), 0);
        if (strncmp(out, ORDER, strlen(ORDER))) print_error("gpusim %s printed:\n%s\n", args, out);
        assert_memory_equal(out, ORDER, strlen(ORDER));
        /* printf returned the number of arguments (6) into out[0] */
        size_t len = strlen(out);
        assert_true(len > 2 && !strcmp(out + len - 2, "6\n"));
        free(out);
    }
}

static void test_json_report_keeps_stdout_clean(void **state)
{
    (void)state;
    char *out;
    assert_int_equal(run("--format json configs/fermi.ini tests/data/printf_order.s", &out, 0), 0);
    assert_int_equal(out[0], '{');
    assert_null(strstr(out, "blk 0"));
    free(out);
    assert_int_equal(run("--format json configs/fermi.ini tests/data/printf_order.s", &out, 1), 0);
    assert_non_null(strstr(out, ORDER));   /* on stderr, in order */
    free(out);
}

static void test_bad_vprintf_call(void **state)
{
    (void)state;
    FILE *f = fopen("build/tests/bad_vprintf.s", "w");
    assert_non_null(f);
    fputs(".launch k grid=(1) block=(1) args=()\n"
          ".extern .func (.param .b32 r) vprintf (.param .b64 a);\n"
          ".entry k ()\n{\n    .param .b64 p0;\n    .param .b32 r0;\n"
          "    call.uni (r0), vprintf, (p0);\n    ret;\n}\n", f);
    fclose(f);
    char *out;
    assert_int_equal(run("--functional configs/fermi.ini build/tests/bad_vprintf.s", &out, 1), 2);
    if (!strstr(out, "bad_vprintf.s:7:20: error: call of vprintf")) print_error("%s\n", out);
    assert_non_null(strstr(out, "bad_vprintf.s:7:20: error: call of vprintf"));
    free(out);
}

/* --disasm lists the built-in's prototype, so its listing assembles again
 * (the fuzzer's round trip found it missing). */
static void test_disasm_round_trip(void **state)
{
    (void)state;
    char *out;
    assert_int_equal(run("--disasm tests/data/printf_order.s > build/tests/printf_rt.s", &out, 1), 0);
    free(out);
    assert_int_equal(run("--disasm build/tests/printf_rt.s", &out, 1), 0);
    assert_non_null(strstr(out, ".extern .func (.param .b32 func_retval0) vprintf"));
    free(out);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_format_packing),
        cmocka_unit_test(test_format_edges),
        cmocka_unit_test(test_kernel_order),
        cmocka_unit_test(test_json_report_keeps_stdout_clean),
        cmocka_unit_test(test_bad_vprintf_call),
        cmocka_unit_test(test_disasm_round_trip),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
