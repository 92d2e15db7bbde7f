/* fuzz_ini.c - libFuzzer harness for the .ini reader and --set.
 *
 *   make fuzz && build/fuzz/fuzz_ini -max_total_time=600 tests/fuzz/corpus_ini
 *
 * Besides "never crash, never leak", it checks the dump contract on every
 * input that loads cleanly: config_dump must reload, without errors, to an
 * equal Config.  The same bytes are also fed to config_set as one --set.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "isa/diag.h"
#include "sim/base/config.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_dump_reloads(const Config *c)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (!f) abort();
    config_dump(c, f);
    fclose(f);

    Config back;
    DiagList dl = { 0 };
    config_defaults(&back);
    if (config_load_string(&back, "dump.ini", text, len, &dl) != 0 || !config_equal(c, &back)) {
        diag_print(&dl, stderr);
        fputs(text, stderr);
        abort();
    }
    diag_free(&dl);
    free(text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    Config c;
    DiagList dl = { 0 };
    config_defaults(&c);
    if (config_load_string(&c, "fuzz.ini", (const char *)data, size, &dl) == 0) {
        config_validate(&c, &dl);
        check_dump_reloads(&c);
    }
    diag_free(&dl);

    /* The same bytes as one --set (a C string: stop at the first NUL). */
    char *arg = malloc(size + 1);
    if (!arg) abort();
    memcpy(arg, data, size);
    arg[size] = '\0';
    config_defaults(&c);
    if (config_set(&c, arg, &dl) == 0) check_dump_reloads(&c);
    diag_free(&dl);
    free(arg);
    return 0;
}
