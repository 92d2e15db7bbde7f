/* diag.h - error records for user input (kernel files, .ini files, options).
 *
 * Library code never prints: it appends Diag records to a DiagList and
 * returns a status; main.c prints them and picks the exit code.  A record
 * names file:line:col, the message, and a copy of the offending source line
 * so the printer can draw a caret under the column.
 */
#ifndef GPUSIM_DIAG_H
#define GPUSIM_DIAG_H

#include <stdarg.h>
#include <stdio.h>

enum { DIAG_MAX_ERRORS = 100 };   /* later errors are counted, not stored */

typedef struct Diag {
    char *file;       /* "kernels/x.s", "--set", "-D" ... */
    int line, col;    /* 1-based; 0 = not applicable */
    char *msg;
    char *src;        /* the source line (truncated), or NULL */
} Diag;

typedef struct DiagList {
    Diag *v;
    int n, cap;
    int dropped;      /* errors beyond DIAG_MAX_ERRORS */
} DiagList;

#if defined(__GNUC__)
#define DIAG_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define DIAG_PRINTF(a, b)
#endif

/* Append one error.  src may be NULL or point into a longer buffer: only the
 * line up to '\n' (at most 160 bytes) is copied. */
void diag_add(DiagList *dl, const char *file, int line, int col,
              const char *src, const char *fmt, ...) DIAG_PRINTF(6, 7);
void diag_vadd(DiagList *dl, const char *file, int line, int col,
               const char *src, const char *fmt, va_list ap);
int diag_count(const DiagList *dl);
/* "file:line:col: error: msg", then the source line and a caret. */
void diag_print(const DiagList *dl, FILE *out);
/* The first error as one line, for tests. */
const char *diag_first(const DiagList *dl);
void diag_free(DiagList *dl);

#endif
