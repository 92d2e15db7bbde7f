/* diag.c - see diag.h. */
#include "diag.h"

#include <stdlib.h>
#include <string.h>

enum { SRC_COPY_MAX = 160 };

static char *xstrdup_n(const char *s, size_t n)
{
    char *p = malloc(n + 1);
    if (!p) abort();
    memcpy(p, s, n);
    p[n] = '\0';
    return p;
}

void diag_vadd(DiagList *dl, const char *file, int line, int col,
               const char *src, const char *fmt, va_list ap)
{
    if (dl->n >= DIAG_MAX_ERRORS) { dl->dropped++; return; }
    if (dl->n == dl->cap) {
        dl->cap = dl->cap ? dl->cap * 2 : 8;
        dl->v = realloc(dl->v, (size_t)dl->cap * sizeof *dl->v);
        if (!dl->v) abort();
    }
    Diag *d = &dl->v[dl->n++];
    d->file = xstrdup_n(file ? file : "", strlen(file ? file : ""));
    d->line = line;
    d->col = col;
    char buf[512];
    vsnprintf(buf, sizeof buf, fmt, ap);
    d->msg = xstrdup_n(buf, strlen(buf));
    d->src = NULL;
    if (src) {
        size_t n = 0;
        while (n < SRC_COPY_MAX && src[n] && src[n] != '\n' && src[n] != '\r') n++;
        d->src = xstrdup_n(src, n);
    }
}

void diag_add(DiagList *dl, const char *file, int line, int col,
              const char *src, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    diag_vadd(dl, file, line, col, src, fmt, ap);
    va_end(ap);
}

int diag_count(const DiagList *dl) { return dl->n + dl->dropped; }

static void print_one(const Diag *d, FILE *out)
{
    if (d->line > 0 && d->col > 0)
        fprintf(out, "%s:%d:%d: error: %s\n", d->file, d->line, d->col, d->msg);
    else if (d->line > 0)
        fprintf(out, "%s:%d: error: %s\n", d->file, d->line, d->msg);
    else
        fprintf(out, "%s: error: %s\n", d->file, d->msg);
    if (!d->src) return;
    /* Tabs are kept so the caret lines up with the echoed line. */
    fputs("    ", out);
    for (const unsigned char *p = (const unsigned char *)d->src; *p; p++)
        fputc(*p >= 0x20 || *p == '\t' ? *p : '?', out);
    fputc('\n', out);
    if (d->col > 0) {
        fputs("    ", out);
        for (int i = 1; i < d->col && d->src[i - 1]; i++)
            fputc(d->src[i - 1] == '\t' ? '\t' : ' ', out);
        fputs("^\n", out);
    }
}

void diag_print(const DiagList *dl, FILE *out)
{
    for (int i = 0; i < dl->n; i++) print_one(&dl->v[i], out);
    if (dl->dropped)
        fprintf(out, "... and %d more error%s\n", dl->dropped, dl->dropped == 1 ? "" : "s");
}

const char *diag_first(const DiagList *dl) { return dl->n ? dl->v[0].msg : ""; }

void diag_free(DiagList *dl)
{
    for (int i = 0; i < dl->n; i++) {
        free(dl->v[i].file);
        free(dl->v[i].msg);
        free(dl->v[i].src);
    }
    free(dl->v);
    dl->v = NULL;
    dl->n = dl->cap = dl->dropped = 0;
}
