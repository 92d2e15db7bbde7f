/* csv.h - a small reader for the measured-data CSV files of
 * tests/validation/ (RFC 4180 quoting: "(16, 16, 1)"), header-driven so a
 * column is found by its name.  Header-only, for the test programs. */
#ifndef GPUSIM_TESTS_CSV_H
#define GPUSIM_TESTS_CSV_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { CSV_MAX_COLS = 64, CSV_MAX_FIELD = 128 };

typedef struct CsvRow {
    int n;
    char f[CSV_MAX_COLS][CSV_MAX_FIELD];
} CsvRow;

typedef struct Csv {
    CsvRow head;
    CsvRow *rows;
    int nrows;
} Csv;

/* Split one line into r (quotes removed).  Returns the field count. */
static inline int csv_split(const char *line, CsvRow *r)
{
    r->n = 0;
    const char *s = line;
    while (r->n < CSV_MAX_COLS) {
        char *out = r->f[r->n];
        size_t k = 0;
        if (*s == '"') {
            s++;
            while (*s && !(*s == '"' && s[1] != '"')) {
                if (*s == '"') s++;   /* "" inside quotes */
                if (k + 1 < CSV_MAX_FIELD) out[k++] = *s;
                s++;
            }
            if (*s == '"') s++;
        } else {
            while (*s && *s != ',' && *s != '\n' && *s != '\r') {
                if (k + 1 < CSV_MAX_FIELD) out[k++] = *s;
                s++;
            }
        }
        out[k] = 0;
        r->n++;
        if (*s != ',') break;
        s++;
    }
    return r->n;
}

/* Read path; 0 ok, -1 if it cannot be read or has no header. */
static inline int csv_read(const char *path, Csv *c)
{
    memset(c, 0, sizeof *c);
    FILE *f = fopen(path, "r");
    if (!f) return -1;
    char line[8192];
    int cap = 0;
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '\n' || line[0] == '\r' || line[0] == '#') continue;
        if (!c->head.n) { csv_split(line, &c->head); continue; }
        if (c->nrows == cap) {
            cap = cap ? 2 * cap : 64;
            CsvRow *t = realloc(c->rows, (size_t)cap * sizeof *t);
            if (!t) break;
            c->rows = t;
        }
        csv_split(line, &c->rows[c->nrows++]);
    }
    fclose(f);
    return c->head.n ? 0 : -1;
}

static inline void csv_free(Csv *c)
{
    free(c->rows);
    memset(c, 0, sizeof *c);
}

/* Index of the column named name, -1 if absent. */
static inline int csv_col(const Csv *c, const char *name)
{
    for (int i = 0; i < c->head.n; i++)
        if (!strcmp(c->head.f[i], name)) return i;
    return -1;
}

/* Field of row r in column col ("" if absent). */
static inline const char *csv_get(const Csv *c, int r, int col)
{
    return col >= 0 && col < c->rows[r].n ? c->rows[r].f[col] : "";
}

#endif
