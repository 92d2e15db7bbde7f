/* gpusim_run.h - run the gpusim binary from a test program, as a user runs
 * it: the binary named by $GPUSIM (the Makefile sets it; ./gpusim by
 * default), its output captured whole.  Header-only, for the test programs
 * (test_cli, test_include, test_module, test_printf, test_corpus); include it
 * after cmocka.h. */
#ifndef GPUSIM_TESTS_RUN_H
#define GPUSIM_TESTS_RUN_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

static inline const char *gpusim_bin(void)
{
    const char *b = getenv("GPUSIM");
    return b && *b ? b : "./gpusim";
}

/* All of f, NUL-terminated (malloc'd). */
static inline char *gpusim_slurp(FILE *f)
{
    size_t cap = 1 << 16, len = 0, n;
    char *buf = malloc(cap);
    if (!buf) abort();
    while ((n = fread(buf + len, 1, cap - len - 1, f)) > 0) {
        len += n;
        if (len + 1 == cap) {
            cap *= 2;
            buf = realloc(buf, cap);
            if (!buf) abort();
        }
    }
    buf[len] = '\0';
    return buf;
}

/* Run "gpusim ARGS" with stdin empty; its stdout (and stderr, with_stderr
 * set) into *out (malloc'd).  Returns the exit code, -1 if it did not exit. */
static inline int gpusim_run(const char *args, char **out, int with_stderr)
{
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "%s %s %s </dev/null", gpusim_bin(), args, with_stderr ? "2>&1" : "2>/dev/null");
    FILE *f = popen(cmd, "r");
    if (!f) abort();
    *out = gpusim_slurp(f);
    int st = pclose(f);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* "gpusim ARGS" must exit with code and, unless needle is NULL, print it
 * (stdout or stderr); the output is shown when it does not. */
static inline void gpusim_expect(const char *args, int code, const char *needle)
{
    char *out;
    int rc = gpusim_run(args, &out, 1);
    if (rc != code || (needle && !strstr(out, needle)))
        print_error("gpusim %s: exit %d (want %d), output:\n%s\n", args, rc, code, out);
    assert_int_equal(rc, code);
    if (needle) assert_non_null(strstr(out, needle));
    free(out);
}

#endif
