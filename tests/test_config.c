/* test_config.c - the config table, .ini reader, --set, validation, dump and
 * docs.  Run from the repo root (reads configs/fermi.ini, docs/config.md). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "isa/diag.h"
#include "sim/base/config.h"

/* ---- helpers ---- */

static int load(Config *c, DiagList *dl, const char *text)
{
    return config_load_string(c, "t.ini", text, strlen(text), dl);
}

static void expect_diag(const DiagList *dl, int i, const char *file, int line, int col,
                        const char *msg)
{
    assert_true(i < dl->n);
    assert_string_equal(dl->v[i].msg, msg);
    assert_string_equal(dl->v[i].file, file);
    assert_int_equal(dl->v[i].line, line);
    assert_int_equal(dl->v[i].col, col);
}

/* Load text into a fresh default config; expect exactly one error. */
static void expect_one_error(const char *text, int line, int col, const char *msg)
{
    Config c;
    DiagList dl = { 0 };
    config_defaults(&c);
    assert_int_equal(load(&c, &dl, text), -1);
    assert_int_equal(diag_count(&dl), 1);
    expect_diag(&dl, 0, "t.ini", line, col, msg);
    diag_free(&dl);
}

/* Whatever f writes, as a malloc'd string. */
static char *capture_dump(const Config *c, size_t *len)
{
    char *buf = NULL;
    FILE *f = open_memstream(&buf, len);
    assert_non_null(f);
    config_dump(c, f);
    fclose(f);
    return buf;
}

static char *capture_doc(size_t *len)
{
    char *buf = NULL;
    FILE *f = open_memstream(&buf, len);
    assert_non_null(f);
    config_doc(f);
    fclose(f);
    return buf;
}

static char *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap);
    for (size_t got; (got = fread(buf + n, 1, cap - n, f)) > 0;) {
        n += got;
        if (n == cap) buf = realloc(buf, cap *= 2);
    }
    fclose(f);
    *len = n;
    return buf;
}

/* dump -> reload gives the same values, the same bytes, and the same dump. */
static void check_round_trip(const Config *c)
{
    size_t len1, len2;
    char *text1 = capture_dump(c, &len1);
    Config back;
    DiagList dl = { 0 };
    config_defaults(&back);
    int rc = config_load_string(&back, "dump.ini", text1, len1, &dl);
    if (rc) diag_print(&dl, stderr);
    assert_int_equal(rc, 0);
    assert_int_equal(config_validate(&back, &dl), 0);
    assert_true(config_equal(c, &back));
    assert_memory_equal(c, &back, offsetof(Config, origin));
    char *text2 = capture_dump(&back, &len2);
    assert_int_equal(len1, len2);
    assert_memory_equal(text1, text2, len1);
    free(text1);
    free(text2);
    diag_free(&dl);
}

/* ---- the table ---- */

static void test_table_is_consistent(void **state)
{
    (void)state;
    Config c;
    config_defaults(&c);
    int n = config_key_count();
    assert_true(n > 60 && n <= CONFIG_MAX_KEYS);
    for (int i = 0; i < n; i++) {
        const ConfigKey *k = config_key_at(i);
        assert_non_null(k);
        assert_int_equal(config_key_find(k->name), i);     /* unique names */
        assert_non_null(strchr(k->name, '.'));
        assert_non_null(k->help);
        assert_true(strlen(k->help) > 5);
        assert_null(strchr(k->help, '\n'));
        assert_non_null(k->unit);
        switch (k->type) {
        case CFG_INT:
            assert_int_equal(k->size, sizeof(int));
            assert_true(k->min >= INT_MIN && k->max <= INT_MAX);
            break;
        case CFG_INT64: assert_int_equal(k->size, sizeof(int64_t)); break;
        case CFG_BOOL: assert_int_equal(k->size, sizeof(bool)); break;
        case CFG_DOUBLE: assert_int_equal(k->size, sizeof(double)); break;
        case CFG_ENUM:
            assert_int_equal(k->size, sizeof(int));
            assert_non_null(k->enum_names);
            break;
        case CFG_STRING: assert_true(k->size > 1); break;
        }
        if (k->flags & CFG_BYTES) assert_true(k->type == CFG_INT || k->type == CFG_INT64);
        assert_true(k->min <= k->max);
    }
    /* The defaults pass every single-key and cross-field check. */
    DiagList dl = { 0 };
    assert_int_equal(config_validate(&c, &dl), 0);
    assert_int_equal(diag_count(&dl), 0);
}

static void test_enum_names_match_c_enums(void **state)
{
    (void)state;
    Config c;
    DiagList dl = { 0 };
    char buf[80];
    config_defaults(&c);
    assert_int_equal(config_set(&c, "sched.policy=two_level", &dl), 0);
    assert_int_equal(c.sched.policy, SCHED_TWO_LEVEL);
    assert_int_equal(config_set(&c, "sched.policy=LRR", &dl), 0);    /* case-insensitive */
    assert_int_equal(c.sched.policy, SCHED_LRR);
    assert_string_equal(config_get_string(&c, "sched.policy", buf, sizeof buf), "lrr");
    assert_int_equal(config_set(&c, "l1.write_policy=write_back", &dl), 0);
    assert_int_equal(c.l1.write_policy, CACHE_WRITE_BACK);
    assert_int_equal(config_set(&c, "dram.sched=fcfs", &dl), 0);
    assert_int_equal(c.dram.sched, DRAM_FCFS);
    assert_int_equal(diag_count(&dl), 0);
}

/* ---- defaults and fermi.ini ---- */

static void test_defaults_are_gtx480(void **state)
{
    (void)state;
    Config c;
    config_defaults(&c);
    assert_string_equal(c.gpu.name, "GTX 480");
    assert_int_equal(c.gpu.num_sms, 15);
    assert_int_equal(c.sm.warp_size, 32);
    assert_int_equal(c.sm.max_threads, 1536);
    assert_int_equal(c.sm.registers, 32768);
    assert_int_equal(c.sched.policy, SCHED_GTO);
    assert_true(c.l1.enabled);
    assert_int_equal(c.dram.tCL, 12);
}

static void test_fermi_ini_loads(void **state)
{
    (void)state;
    Config c;
    DiagList dl = { 0 };
    config_defaults(&c);
    int rc = config_load_file(&c, "configs/fermi.ini", &dl);
    if (rc) diag_print(&dl, stderr);
    assert_int_equal(rc, 0);
    assert_int_equal(config_validate(&c, &dl), 0);
    assert_int_equal(c.gpu.num_sms, 15);
    assert_int_equal(c.smem.banks, 32);
    assert_int_equal(c.l1.size_bytes, 16 * 1024);
    assert_int_equal(c.l2.size_bytes, 768 * 1024);
    assert_int_equal(c.dram.channels, 6);
    assert_int_equal(c.sm.max_threads, 1536);
    assert_int_equal(c.sm.shared_bytes, 48 * 1024);
    assert_true(c.gpu.core_clock_mhz == 1401.0);
    diag_free(&dl);
}

static void test_fermi_ini_sets_every_key_to_the_defaults(void **state)
{
    (void)state;
    Config c, def;
    DiagList dl = { 0 };
    config_defaults(&c);
    config_defaults(&def);
    assert_int_equal(config_load_file(&c, "configs/fermi.ini", &dl), 0);
    for (int i = 0; i < config_key_count(); i++) {
        if (c.origin.key[i].line == 0) fail_msg("fermi.ini does not set %s", config_key_at(i)->name);
    }
    assert_true(config_equal(&c, &def));
    diag_free(&dl);
}

static void test_missing_file(void **state)
{
    (void)state;
    Config c;
    DiagList dl = { 0 };
    config_defaults(&c);
    assert_int_equal(config_load_file(&c, "configs/no_such.ini", &dl), -1);
    assert_int_equal(diag_count(&dl), 1);
    assert_non_null(strstr(diag_first(&dl), "cannot open"));
    diag_free(&dl);
}

/* ---- --set ---- */

static void test_set_overrides(void **state)
{
    (void)state;
    Config c;
    DiagList dl = { 0 };
    config_defaults(&c);
    assert_int_equal(load(&c, &dl, "[l1]\nassoc = 4\n"), 0);
    assert_int_equal(config_set(&c, "l1.assoc=8", &dl), 0);
    assert_int_equal(config_set(&c, " l2.size_bytes = 1MiB ", &dl), 0);
    assert_int_equal(config_set(&c, "gpu.name=\"Tiny GPU\"", &dl), 0);
    assert_int_equal(c.l1.assoc, 8);
    assert_int_equal(c.l2.size_bytes, 1 << 20);
    assert_string_equal(c.gpu.name, "Tiny GPU");
    int ki = config_key_find("l1.assoc");
    assert_string_equal(c.origin.source[c.origin.key[ki].source], "--set");
    assert_int_equal(diag_count(&dl), 0);
}

/* sm.max_warps follows sm.warp_size and sm.max_threads unless the user sets it in the same layer. */
static void test_derived_max_warps(void **state)
{
    (void)state;
    Config c;
    DiagList dl = { 0 };
    config_defaults(&c);
    assert_int_equal(load(&c, &dl, "[sm]\nmax_threads = 1536\nmax_warps = 48\n"), 0);
    assert_int_equal(config_set(&c, "sm.warp_size=8", &dl), 0);
    assert_int_equal(c.sm.max_warps, 192);                  /* 1536 / 8: the file's 48 was for 32 lanes */
    assert_int_equal(config_validate(&c, &dl), 0);
    assert_int_equal(config_set(&c, "sm.max_threads=1000", &dl), 0);
    assert_int_equal(c.sm.max_warps, 125);
    assert_int_equal(config_set(&c, "sm.warp_size=16", &dl), 0);
    assert_int_equal(c.sm.max_warps, 63);                   /* rounded up: 63 x 16 >= 1000 */
    config_defaults(&c);
    assert_int_equal(config_set(&c, "sm.max_warps=40", &dl), 0);
    assert_int_equal(config_set(&c, "sm.warp_size=16", &dl), 0);
    assert_int_equal(c.sm.max_warps, 40);                   /* the user's, in the same layer */
    assert_int_not_equal(config_validate(&c, &dl), 0);      /* 40 x 16 < 1536 */
    config_defaults(&c);
    assert_int_equal(load(&c, &dl, "[sm]\nwarp_size = 8\nmax_threads = 1024\n"), 0);
    assert_int_equal(c.sm.max_warps, 128);                  /* a file that leaves it out derives it too */
    diag_free(&dl);
}

static void test_set_errors_use_the_file_path(void **state)
{
    (void)state;
    Config c;
    DiagList dl = { 0 };
    config_defaults(&c);
    assert_int_equal(config_set(&c, "l1.assoc=abc", &dl), -1);
    assert_int_equal(load(&c, &dl, "[l1]\nassoc = abc\n"), -1);
    assert_int_equal(diag_count(&dl), 2);
    expect_diag(&dl, 0, "--set", 0, 10, "l1.assoc: 'abc' is not an integer");
    expect_diag(&dl, 1, "t.ini", 2, 9, "l1.assoc: 'abc' is not an integer");
    assert_string_equal(dl.v[0].src, "l1.assoc=abc");
    assert_int_equal(c.l1.assoc, 4);           /* unchanged */
    diag_free(&dl);
}

static void test_set_unknown_key_and_missing_equals(void **state)
{
    (void)state;
    Config c;
    DiagList dl = { 0 };
    config_defaults(&c);
    assert_int_equal(config_set(&c, "l1.asoc=4", &dl), -1);
    assert_int_equal(config_set(&c, "l1.assoc", &dl), -1);
    assert_int_equal(config_set(&c, "=4", &dl), -1);
    expect_diag(&dl, 0, "--set", 0, 1, "l1.asoc: unknown key (did you mean 'l1.assoc'?)");
    expect_diag(&dl, 1, "--set", 0, 1, "l1.assoc: missing '=' (write --set KEY=VALUE)");
    expect_diag(&dl, 2, "--set", 0, 1, "missing key before '='");
    diag_free(&dl);
}

/* ---- one test per error kind ---- */

static void test_unknown_key_did_you_mean(void **state)
{
    (void)state;
    expect_one_error("[l1]\nasoc = 4\n", 2, 1, "l1.asoc: unknown key (did you mean 'l1.assoc'?)");
}

static void test_unknown_key_in_wrong_section(void **state)
{
    (void)state;
    expect_one_error("[l1]\nbanks = 32\n", 2, 1, "l1.banks: unknown key (did you mean 'smem.banks'?)");
}

static void test_unknown_section_reported_once(void **state)
{
    (void)state;
    expect_one_error("[l3]\nassoc = 4\nsize_bytes = 1K\n", 1, 2,
                     "[l3]: unknown section (did you mean '[l1]'?)");
    expect_one_error("[frobnicate]\nx = 1\n", 1, 2, "[frobnicate]: unknown section");
}

static void test_not_an_integer(void **state)
{
    (void)state;
    expect_one_error("[l1]\nassoc = abc\n", 2, 9, "l1.assoc: 'abc' is not an integer");
    expect_one_error("[l1]\nassoc = 4.5\n", 2, 9, "l1.assoc: '4.5' is not an integer");
    expect_one_error("[l1]\nassoc = 99999999999999999999\n", 2, 9,
                     "l1.assoc: '99999999999999999999' is too large");
}

static void test_out_of_range(void **state)
{
    (void)state;
    expect_one_error("[gpu]\nnum_sms = 0\n", 2, 11, "gpu.num_sms: 0 is out of range [1,1024]");
    expect_one_error("[l1]\nsize_bytes = 128MiB\n", 2, 14,
                     "l1.size_bytes: 128MiB is out of range [256,64MiB]");
}

static void test_not_a_power_of_two(void **state)
{
    (void)state;
    expect_one_error("[smem]\nbanks = 3\n", 2, 9, "smem.banks: 3 is not a power of two in [1,64]");
    expect_one_error("[sm]\nwarp_size = 64\n", 2, 13, "sm.warp_size: 64 is not a power of two in [4,32]");
}

static void test_bad_enum_lists_the_names(void **state)
{
    (void)state;
    expect_one_error("[sched]\npolicy = gtoo\n", 2, 10,
                     "sched.policy: 'gtoo' is not one of lrr, gto, oldest, two_level (did you mean 'gto'?)");
    expect_one_error("[dram]\nsched = random\n", 2, 9, "dram.sched: 'random' is not one of fr_fcfs, fcfs");
}

static void test_duplicate_key(void **state)
{
    (void)state;
    Config c;
    DiagList dl = { 0 };
    config_defaults(&c);
    assert_int_equal(load(&c, &dl, "[l1]\n\nassoc = 2\nassoc = 8\n"), -1);
    assert_int_equal(diag_count(&dl), 1);
    expect_diag(&dl, 0, "t.ini", 4, 1, "l1.assoc: set twice (first at line 3)");
    assert_int_equal(c.l1.assoc, 2);           /* the first one stays */
    /* A second file may set it again: only the same file is an error. */
    assert_int_equal(config_load_string(&c, "u.ini", "l1.assoc = 8", 12, &dl), 0);
    assert_int_equal(c.l1.assoc, 8);
    diag_free(&dl);
}

static void test_key_outside_any_section(void **state)
{
    (void)state;
    expect_one_error("; no header yet\nassoc = 4\n", 2, 1,
                     "assoc: key outside any section (put it under a [section] header)");
    /* A full name needs no section. */
    Config c;
    DiagList dl = { 0 };
    config_defaults(&c);
    assert_int_equal(load(&c, &dl, "l1.assoc = 8\n[sm]\nl2.assoc = 16\n"), 0);
    assert_int_equal(c.l1.assoc, 8);
    assert_int_equal(c.l2.assoc, 16);
}

static void test_malformed_lines(void **state)
{
    (void)state;
    expect_one_error("[l1]\n= 4\n", 2, 1, "malformed line: expected 'key = value' or '[section]'");
    expect_one_error("[l1]\nassoc 4\n", 2, 7, "l1.assoc: missing '=' after the key");
    expect_one_error("[l1]\nassoc\n", 2, 6, "l1.assoc: missing '=' after the key");
    expect_one_error("[l1]\nassoc =   ; nothing\n", 2, 11, "l1.assoc: missing value");
    expect_one_error("[l1\nassoc = 4\n", 1, 1, "missing ']' in section header");
    expect_one_error("[l 1]\n", 1, 2, "'l 1' is not a section name");
    expect_one_error("[l1] x\n", 1, 6, "unexpected text after section header");
    expect_one_error("[gpu]\nname = \"GTX\n", 2, 8, "gpu.name: missing closing \"");
    expect_one_error("[gpu]\nname = \"GTX\" 480\n", 2, 14, "gpu.name: unexpected text after the quoted value");
    expect_one_error("[l1]\nassoc = 4\x01\n", 2, 10, "unexpected control character 0x01");
}

static void test_every_error_is_reported(void **state)
{
    (void)state;
    Config c;
    DiagList dl = { 0 };
    config_defaults(&c);
    const char *text = "[l1]\n"
                       "assoc = x\n"         /* 2 */
                       "line_bytes = 100\n"  /* 3 */
                       "hit_lat = 7\n"       /* good: still applied */
                       "bogus = 1\n";        /* 5 */
    assert_int_equal(load(&c, &dl, text), -1);
    assert_int_equal(diag_count(&dl), 3);
    assert_int_equal(dl.v[0].line, 2);
    assert_int_equal(dl.v[1].line, 3);
    assert_int_equal(dl.v[2].line, 5);
    assert_string_equal(dl.v[1].msg, "l1.line_bytes: 100 is not a power of two in [16,4KiB]");
    assert_int_equal(c.l1.hit_lat, 7);
    diag_free(&dl);
}

/* ---- value syntax ---- */

static void test_byte_suffixes(void **state)
{
    (void)state;
    static const char *const spellings[] = {
        "16384", "16KiB", "16K", "16KB", "16kib", "16 KiB", "0x4000", "\"16KiB\"",
    };
    for (size_t i = 0; i < sizeof spellings / sizeof spellings[0]; i++) {
        Config c;
        DiagList dl = { 0 };
        char text[64];
        config_defaults(&c);
        snprintf(text, sizeof text, "[l1]\nsize_bytes = %s\n", spellings[i]);
        assert_int_equal(load(&c, &dl, text), 0);
        assert_int_equal(c.l1.size_bytes, 16384);
    }
    Config c;
    DiagList dl = { 0 };
    char buf[80];
    config_defaults(&c);
    assert_int_equal(config_set(&c, "l2.size_bytes=1M", &dl), 0);
    assert_int_equal(c.l2.size_bytes, 1 << 20);
    assert_string_equal(config_get_string(&c, "l2.size_bytes", buf, sizeof buf), "1MiB");
    assert_int_equal(config_set(&c, "sm.shared_bytes=100", &dl), 0);
    assert_string_equal(config_get_string(&c, "sm.shared_bytes", buf, sizeof buf), "100");
    expect_one_error("[l1]\nsize_bytes = 16XB\n", 2, 14,
                     "l1.size_bytes: '16XB' is not a byte size (e.g. 16384, 16K or 16KiB)");
}

static void test_bool_spellings(void **state)
{
    (void)state;
    static const struct { const char *word; bool v; } cases[] = {
        { "true", true }, { "false", false }, { "yes", true }, { "no", false }, { "on", true },
        { "off", false }, { "1", true }, { "0", false }, { "TRUE", true }, { "Off", false },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        Config c;
        DiagList dl = { 0 };
        char text[64];
        config_defaults(&c);
        c.l1.enabled = !cases[i].v;
        snprintf(text, sizeof text, "[l1]\nenabled = %s\n", cases[i].word);
        assert_int_equal(load(&c, &dl, text), 0);
        assert_int_equal(c.l1.enabled, cases[i].v);
    }
    expect_one_error("[l1]\nenabled = maybe\n", 2, 11,
                     "l1.enabled: 'maybe' is not a boolean (use true/false, yes/no, on/off or 1/0)");
}

static void test_numbers_and_strings(void **state)
{
    (void)state;
    Config c;
    DiagList dl = { 0 };
    config_defaults(&c);
    assert_int_equal(load(&c, &dl, "[gpu]\ncore_clock_mhz = 1215.5\nname = 'A;B # C'\n"), 0);
    assert_true(c.gpu.core_clock_mhz == 1215.5);
    assert_string_equal(c.gpu.name, "A;B # C");
    expect_one_error("[gpu]\ncore_clock_mhz = fast\n", 2, 18, "gpu.core_clock_mhz: 'fast' is not a number");
    expect_one_error("[gpu]\ncore_clock_mhz = nan\n", 2, 18,
                     "gpu.core_clock_mhz: nan is out of range [1,100000]");
    expect_one_error("[gpu]\nname = 'say \"hi\"'\n", 2, 8,
                     "gpu.name: character 0x22 is not allowed in a string");
    expect_one_error("[gpu]\nname = 0123456789012345678901234567890123456789012345678901234567890123\n",
                     2, 8, "gpu.name: string longer than 63 characters");
}

static void test_comments_whitespace_crlf_bom(void **state)
{
    (void)state;
    Config c;
    DiagList dl = { 0 };
    config_defaults(&c);
    const char *text = "\xEF\xBB\xBF; leading comment\r\n"
                       "# another\r\n"
                       "\r\n"
                       "  [ l1 ]   ; trailing comment\r\n"
                       "\tassoc\t=\t2\t# tabs\r\n"
                       "hit_lat=9;no spaces\r\n"
                       "[gpu]\n"
                       "name = GTX 480 Ti   \n";
    int rc = load(&c, &dl, text);
    if (rc) diag_print(&dl, stderr);
    assert_int_equal(rc, 0);
    assert_int_equal(c.l1.assoc, 2);
    assert_int_equal(c.l1.hit_lat, 9);
    assert_string_equal(c.gpu.name, "GTX 480 Ti");
}

/* Any bytes at all: errors, never a crash (tests/fuzz/fuzz_ini.c goes further). */
static void test_garbage_does_not_crash(void **state)
{
    (void)state;
    enum { N = 200000 };
    char *junk = malloc(N);
    uint32_t x = 12345;
    for (int i = 0; i < N; i++) {
        x = x * 1103515245u + 12345u;
        junk[i] = (char)(x >> 16);
    }
    memcpy(junk, "[l1]\nassoc = 4\0garbage\n[", 24);
    Config c;
    DiagList dl = { 0 };
    config_defaults(&c);
    assert_int_equal(config_load_string(&c, "junk", junk, N, &dl), -1);
    assert_true(diag_count(&dl) > 0);
    diag_free(&dl);

    memset(junk, 'a', N);                        /* one huge line */
    assert_int_equal(config_load_string(&c, "long", junk, N, &dl), -1);
    assert_int_equal(diag_count(&dl), 1);
    assert_true(strlen(dl.v[0].src) <= 160);
    diag_free(&dl);

    junk[0] = '[';                               /* huge section header, no ']' */
    assert_int_equal(config_load_string(&c, "long", junk, N, &dl), -1);
    assert_string_equal(diag_first(&dl), "missing ']' in section header");
    diag_free(&dl);
    assert_int_equal(config_load_string(&c, "empty", "", 0, &dl), 0);
    free(junk);
}

/* ---- validation ---- */

static void test_cross_field_blames_the_last_set_key(void **state)
{
    (void)state;
    Config c;
    DiagList dl = { 0 };
    config_defaults(&c);
    assert_int_equal(load(&c, &dl, "[l1]\nassoc = 4\nsize_bytes = 24KiB\n"), 0);
    assert_int_equal(config_validate(&c, &dl), -1);
    assert_int_equal(diag_count(&dl), 1);
    expect_diag(&dl, 0, "t.ini", 3, 14,
                "l1.size_bytes: l1.size_bytes (24576) is not l1.assoc (4) x l1.line_bytes (128) "
                "x a power-of-two number of sets");
    diag_free(&dl);
    /* Real Fermi runs its 48 KB L1 as 6 ways x 64 sets, so assoc need not be 2^n. */
    assert_int_equal(config_set(&c, "l1.assoc=6", &dl), 0);
    assert_int_equal(config_set(&c, "l1.size_bytes=48KiB", &dl), 0);
    assert_int_equal(config_validate(&c, &dl), 0);

    assert_int_equal(config_set(&c, "dram.channels=4", &dl), 0);
    assert_int_equal(config_set(&c, "sm.max_threads=1500", &dl), 0);
    assert_int_equal(config_validate(&c, &dl), -1);
    assert_int_equal(diag_count(&dl), 2);
    expect_diag(&dl, 0, "--set", 0, 16,
                "sm.max_threads: sm.max_threads (1500) is not a multiple of sm.warp_size (32)");
    expect_diag(&dl, 1, "--set", 0, 15, "dram.channels: l2.slices (6) is not a multiple of dram.channels (4)");
    diag_free(&dl);
}

static void test_cross_field_rules(void **state)
{
    (void)state;
    static const struct { const char *set, *msg; } cases[] = {
        { "sm.max_warps=40", "sm.max_warps: sm.max_warps (40) x sm.warp_size (32) is less than sm.max_threads (1536)" },
        { "sm.lanes=48", "sm.lanes: sm.lanes (48) is not unit.sp_groups (2) x unit.sp_width (16)" },
        { "sm.registers=32100", "sm.registers: sm.registers (32100) is not a multiple of sm.reg_alloc_unit (64)" },
        { "sm.shared_bytes=1000", "sm.shared_bytes: sm.shared_bytes (1000) is not a multiple of sm.shared_alloc_unit (128)" },
        { "l1.sector_bytes=256", "l1.sector_bytes: l1.line_bytes (128) is not a multiple of l1.sector_bytes (256)" },
        { "l2.slices=5", "l2.slices: l2.size_bytes (786432) is not l2.slices (5) x l2.assoc (8) x l2.line_bytes (128) x a power-of-two number of sets" },
        { "dram.tRC=30", "dram.tRC: dram.tRC (30) is shorter than dram.tRAS + dram.tRP (40)" },
        { "sched.two_level_active=30", "sched.two_level_active: sched.two_level_active (30) exceeds the 24 warps of one scheduler (sm.max_warps / sm.schedulers)" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        Config c;
        DiagList dl = { 0 };
        config_defaults(&c);
        assert_int_equal(config_set(&c, cases[i].set, &dl), 0);
        assert_int_equal(config_validate(&c, &dl), -1);
        assert_string_equal(diag_first(&dl), cases[i].msg);
        diag_free(&dl);
    }
}

static void test_validate_checks_values_written_by_code(void **state)
{
    (void)state;
    Config c;
    DiagList dl = { 0 };
    config_defaults(&c);
    c.sm.warp_size = 3;                 /* a parameter sweep gone wrong */
    assert_int_equal(config_validate(&c, &dl), -1);
    expect_diag(&dl, 0, "(default)", 0, 0, "sm.warp_size: 3 is not a power of two in [4,32]");
    diag_free(&dl);
}

/* ---- dump, echo, docs ---- */

static void test_dump_round_trip_defaults(void **state)
{
    (void)state;
    Config c;
    config_defaults(&c);
    check_round_trip(&c);
}

static void test_dump_round_trip_fermi_and_edits(void **state)
{
    (void)state;
    Config c;
    DiagList dl = { 0 };
    config_defaults(&c);
    assert_int_equal(config_load_file(&c, "configs/fermi.ini", &dl), 0);
    check_round_trip(&c);
    static const char *const edits[] = {
        "gpu.core_clock_mhz=1215.123456789", "gpu.name=x; y # z", "sched.policy=two_level",
        "l1.enabled=no", "dram.addr_xor=on", "gpu.name=", "gpu.mem_clock_mhz=0.1e1",
        "sm.shared_alloc_unit=64", "sm.shared_bytes=1000000",
    };
    for (size_t i = 0; i < sizeof edits / sizeof edits[0]; i++) {
        int rc = config_set(&c, edits[i], &dl);
        if (rc) diag_print(&dl, stderr);
        assert_int_equal(rc, 0);
        check_round_trip(&c);
    }
    /* A rejected value leaves the old one in place. */
    assert_int_equal(config_set(&c, "l1.size_bytes=1GiB", &dl), -1);
    assert_int_equal(c.l1.size_bytes, 16 * 1024);
    diag_free(&dl);
}

static void test_dump_has_help_comments(void **state)
{
    (void)state;
    Config c;
    size_t len;
    config_defaults(&c);
    char *text = capture_dump(&c, &len);
    for (int i = 0; i < config_key_count(); i++) {
        const ConfigKey *k = config_key_at(i);
        char want[512];
        snprintf(want, sizeof want, "; %s (", k->help);
        assert_non_null(strstr(text, want));
    }
    assert_non_null(strstr(text, "\n[l1]\n"));
    assert_non_null(strstr(text, "\nsize_bytes = 16KiB\n"));
    free(text);
}

static void test_echo_every_key(void **state)
{
    (void)state;
    Config c;
    char buf[80];
    config_defaults(&c);
    assert_string_equal(config_get_string(&c, "l1.size_bytes", buf, sizeof buf), "16KiB");
    assert_string_equal(config_get_string(&c, "gpu.core_clock_mhz", buf, sizeof buf), "1401");
    assert_string_equal(config_get_string(&c, "l1.enabled", buf, sizeof buf), "true");
    assert_string_equal(config_get_string(&c, "gpu.name", buf, sizeof buf), "GTX 480");
    assert_null(config_get_string(&c, "l1.nope", buf, sizeof buf));
    for (int i = 0; i < config_key_count(); i++) {
        assert_non_null(config_format_value(&c, i, buf, sizeof buf));
        assert_true(buf[0] != '\0' && strcmp(buf, "?") != 0);
    }
    assert_null(config_key_at(config_key_count()));
    assert_int_equal(config_key_find("l1.nope"), -1);
}

static void test_doc_mentions_every_key_and_rule(void **state)
{
    (void)state;
    size_t len;
    char *doc = capture_doc(&len);
    for (int i = 0; i < config_key_count(); i++) {
        char want[128];
        snprintf(want, sizeof want, "| `%s` |", config_key_at(i)->name);
        if (!strstr(doc, want)) fail_msg("docs lack %s", config_key_at(i)->name);
    }
    assert_non_null(strstr(doc, "## [dram] DRAM (GDDR5)"));
    assert_non_null(strstr(doc, "--set"));
    assert_non_null(strstr(doc, "## Cross-field rules"));
    free(doc);
}

static void test_docs_config_md_is_up_to_date(void **state)
{
    (void)state;
    size_t len = 0, flen = 0;
    char *doc = capture_doc(&len);
    char *file = read_file("docs/config.md", &flen);
    if (!file) fail_msg("docs/config.md missing: run `make docs`");
    if (flen != len || memcmp(doc, file, len) != 0)
        fail_msg("docs/config.md is stale: run `make docs` and commit it");
    free(doc);
    free(file);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_table_is_consistent),
        cmocka_unit_test(test_enum_names_match_c_enums),
        cmocka_unit_test(test_defaults_are_gtx480),
        cmocka_unit_test(test_fermi_ini_loads),
        cmocka_unit_test(test_fermi_ini_sets_every_key_to_the_defaults),
        cmocka_unit_test(test_missing_file),
        cmocka_unit_test(test_set_overrides),
        cmocka_unit_test(test_derived_max_warps),
        cmocka_unit_test(test_set_errors_use_the_file_path),
        cmocka_unit_test(test_set_unknown_key_and_missing_equals),
        cmocka_unit_test(test_unknown_key_did_you_mean),
        cmocka_unit_test(test_unknown_key_in_wrong_section),
        cmocka_unit_test(test_unknown_section_reported_once),
        cmocka_unit_test(test_not_an_integer),
        cmocka_unit_test(test_out_of_range),
        cmocka_unit_test(test_not_a_power_of_two),
        cmocka_unit_test(test_bad_enum_lists_the_names),
        cmocka_unit_test(test_duplicate_key),
        cmocka_unit_test(test_key_outside_any_section),
        cmocka_unit_test(test_malformed_lines),
        cmocka_unit_test(test_every_error_is_reported),
        cmocka_unit_test(test_byte_suffixes),
        cmocka_unit_test(test_bool_spellings),
        cmocka_unit_test(test_numbers_and_strings),
        cmocka_unit_test(test_comments_whitespace_crlf_bom),
        cmocka_unit_test(test_garbage_does_not_crash),
        cmocka_unit_test(test_cross_field_blames_the_last_set_key),
        cmocka_unit_test(test_cross_field_rules),
        cmocka_unit_test(test_validate_checks_values_written_by_code),
        cmocka_unit_test(test_dump_round_trip_defaults),
        cmocka_unit_test(test_dump_round_trip_fermi_and_edits),
        cmocka_unit_test(test_dump_has_help_comments),
        cmocka_unit_test(test_echo_every_key),
        cmocka_unit_test(test_doc_mentions_every_key_and_rule),
        cmocka_unit_test(test_docs_config_md_is_up_to_date),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
