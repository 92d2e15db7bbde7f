/* printf.c - see printf.h. */
#include "sim/core/printf.h"

#include "sim/base/grow.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct PrintfRec {
    uint64_t block;      /* the CTA's linear index */
    int warp, lane;
    uint32_t call;       /* the lane's vprintf calls before this one */
    char *text;
};

/* Append to out[*n..cap), keeping room for the NUL. */
static void put(char *out, size_t cap, size_t *n, const char *s, size_t len)
{
    if (*n + 1 >= cap) return;
    if (len > cap - 1 - *n) len = cap - 1 - *n;
    memcpy(out + *n, s, len);
    *n += len;
    out[*n] = '\0';
}

/* One conversion's argument: 8 bytes for doubles, pointers, strings and the
 * l, ll, j, z, t lengths, 4 otherwise; at its natural alignment. */
static int next_arg(const PrintfArgs *a, uint64_t *off, int bytes, uint64_t *v)
{
    *off = (*off + (uint64_t)bytes - 1) & ~(uint64_t)(bytes - 1);
    if (a->read(a->ctx, *off, bytes, v)) return -1;
    *off += (uint64_t)bytes;
    return 0;
}

int printf_format(const char *fmt, const PrintfArgs *a, char *out, size_t cap)
{
    size_t n = 0;
    uint64_t off = 0;
    int used = 0;
    out[0] = '\0';
    for (const char *p = fmt; *p;) {
        if (*p != '%') {
            const char *q = strchr(p, '%');
            size_t len = q ? (size_t)(q - p) : strlen(p);
            put(out, cap, &n, p, len);
            p += len;
            continue;
        }
        if (p[1] == '%') { put(out, cap, &n, "%", 1); p += 2; continue; }
        /* %[flags][width][.precision][length]conversion */
        char spec[64];
        size_t sl = 0;
        const char *s = p + 1;
        spec[sl++] = '%';
        while (*s && strchr("-+ #0", *s) && sl < 40) spec[sl++] = *s++;
        while (*s >= '0' && *s <= '9' && sl < 40) spec[sl++] = *s++;
        if (*s == '.') { spec[sl++] = *s++; while (*s >= '0' && *s <= '9' && sl < 40) spec[sl++] = *s++; }
        int wide = 0;
        while (*s && strchr("hlLqjzt", *s)) { if (strchr("lLqjzt", *s)) wide = 1; s++; }
        char conv = *s;
        if (!conv) { put(out, cap, &n, p, strlen(p)); break; }
        s++;
        char buf[PRINTF_MAX_LINE];
        uint64_t v = 0;
        buf[0] = '\0';
        switch (conv) {
        case 'd': case 'i': case 'u': case 'x': case 'X': case 'o': case 'c':
            if (next_arg(a, &off, wide ? 8 : 4, &v)) return -1;
            if (conv == 'c') {
                memcpy(spec + sl, "c", 2);
                snprintf(buf, sizeof buf, spec, (int)(uint8_t)v);
            } else {
                spec[sl] = 'l'; spec[sl + 1] = 'l'; spec[sl + 2] = conv; spec[sl + 3] = '\0';
                if (conv == 'd' || conv == 'i') snprintf(buf, sizeof buf, spec, wide ? (long long)v : (long long)(int32_t)v);
                else snprintf(buf, sizeof buf, spec, wide ? (unsigned long long)v : (unsigned long long)(uint32_t)v);
            }
            break;
        case 'f': case 'F': case 'e': case 'E': case 'g': case 'G': case 'a': case 'A': {
            if (next_arg(a, &off, 8, &v)) return -1;
            double d;
            memcpy(&d, &v, sizeof d);
            spec[sl] = conv;
            spec[sl + 1] = '\0';
            snprintf(buf, sizeof buf, spec, d);
            break;
        }
        case 'p':
            if (next_arg(a, &off, 8, &v)) return -1;
            snprintf(buf, sizeof buf, "0x%llx", (unsigned long long)v);
            break;
        case 's': {
            if (next_arg(a, &off, 8, &v)) return -1;
            char str[PRINTF_MAX_LINE];
            if (!v) snprintf(str, sizeof str, "(null)");
            else if (a->str(a->ctx, v, str, sizeof str)) return -1;
            spec[sl] = 's';
            spec[sl + 1] = '\0';
            snprintf(buf, sizeof buf, spec, str);
            break;
        }
        default:   /* %n and unknown conversions print as written, as CUDA's printf ignores them */
            put(out, cap, &n, p, (size_t)(s - p));
            p = s;
            continue;
        }
        used++;
        put(out, cap, &n, buf, strlen(buf));
        p = s;
    }
    return used;
}

static void keep(Kernel *k, PrintfRec r)
{
    k->prints = grow_for_one(k->prints, &k->capprints, k->nprints, sizeof *k->prints, 64);
    k->prints[k->nprints++] = r;
}

void printf_keep(Kernel *k, const Warp *w, int lane, const char *text)
{
    size_t len = strlen(text);
    char *copy = malloc(len + 1);
    if (!copy) abort();
    memcpy(copy, text, len + 1);
    keep(k, (PrintfRec){ w->cta->linear, w->id, lane, w->nprintf[lane], copy });
}

void printf_adopt(Kernel *k, Kernel *from)
{
    for (int i = 0; i < from->nprints; i++) keep(k, from->prints[i]);
    free(from->prints);
    from->prints = NULL;
    from->nprints = from->capprints = 0;
}

static int rec_cmp(const void *pa, const void *pb)
{
    const PrintfRec *a = pa, *b = pb;
    if (a->block != b->block) return a->block < b->block ? -1 : 1;
    if (a->warp != b->warp) return a->warp < b->warp ? -1 : 1;
    if (a->call != b->call) return a->call < b->call ? -1 : 1;
    return (a->lane > b->lane) - (a->lane < b->lane);
}

void printf_flush(Kernel *k)
{
    if (!k->nprints) return;
    qsort(k->prints, (size_t)k->nprints, sizeof *k->prints, rec_cmp);
    Stats *st = k->stats;
    for (int i = 0; i < k->nprints; i++) {
        size_t len = strlen(k->prints[i].text);
        if (st->printf_len + len + 1 > st->printf_cap) {
            st->printf_cap = (st->printf_len + len + 1) * 2;
            st->printf_text = realloc(st->printf_text, st->printf_cap);
            if (!st->printf_text) abort();
        }
        memcpy(st->printf_text + st->printf_len, k->prints[i].text, len + 1);
        st->printf_len += len;
        free(k->prints[i].text);
    }
    free(k->prints);
    k->prints = NULL;
    k->nprints = k->capprints = 0;
}
