/* meter.c - see meter.h. */
#include "sim/front/meter.h"

#include <inttypes.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <time.h>

struct Meter {
    Progress progress;
    const Program *prog;
    FILE *out;
    int tty;                 /* rewrite one line in place */
    int shown;               /* a line is on the terminal now */
    double start, every, next;    /* next: the first time a tick may show a line */
};

enum { TTY_FIRST_S = 2 };    /* a run shorter than this never shows the meter */

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Characters a line may have on the terminal: one that wrapped would not
 * be rewritten in place by a carriage return. */
static int columns(FILE *out)
{
    struct winsize ws;
    if (ioctl(fileno(out), TIOCGWINSZ, &ws) == 0 && ws.ws_col > 1) return ws.ws_col - 1;
    return 79;
}

/* 1234567 -> "1,234,567" */
static const char *commas(uint64_t v, char *buf, size_t n)
{
    char digits[24];
    int len = snprintf(digits, sizeof digits, "%" PRIu64, v), o = 0;
    for (int i = 0; i < len && o + 2 < (int)n; i++) {
        if (i && (len - i) % 3 == 0) buf[o++] = ',';
        buf[o++] = digits[i];
    }
    buf[o] = '\0';
    return buf;
}

static void tick(void *ctx, const ProgressPoint *at)
{
    Meter *m = ctx;
    double t = now_s();
    if (t < m->next) return;
    m->next = t + m->every;
    const Program *p = m->prog;
    const char *name = at->launch < p->nlaunches ? p->entries[p->launches[at->launch].entry].name : "?";
    double secs = t - m->start, rate = secs > 0 ? (double)at->warp_inst / secs : 0;
    char cyc[32], sb[32], nb[32], line[320];
    int n = snprintf(line, sizeof line, "gpusim: launch %d/%d %s", at->launch + 1, p->nlaunches, name);
    if (at->functional) n += snprintf(line + n, sizeof line - (size_t)n, " (functional):");
    else n += snprintf(line + n, sizeof line - (size_t)n, ": cycle %s,", commas(at->cycles, cyc, sizeof cyc));
    /* what tells most first: a narrow terminal cuts the end */
    snprintf(line + n, sizeof line - (size_t)n, " blocks %s/%s started, %.2f M warp instructions (%.2f M a second), %.0f s",
             commas(at->blocks_started, sb, sizeof sb), commas(at->blocks, nb, sizeof nb),
             (double)at->warp_inst / 1e6, rate / 1e6, secs);
    if (m->tty) {
        int cols = columns(m->out);
        if (cols < (int)sizeof line) line[cols] = '\0';
        fprintf(m->out, "\r%s\033[K", line);
    }
    else fprintf(m->out, "%s\n", line);
    fflush(m->out);
    m->shown = m->tty;
}

static void clear(void *ctx)
{
    Meter *m = ctx;
    if (!m->shown) return;
    fputs("\r\033[K", m->out);
    fflush(m->out);
    m->shown = 0;
}

Meter *meter_create(int on, double every, const Program *p, FILE *out, int out_is_tty, int report_piped)
{
    if (on < 0 || (on == 0 && (!out_is_tty || report_piped))) return NULL;
    Meter *m = calloc(1, sizeof *m);
    if (!m) return NULL;        /* the run goes on without it */
    m->prog = p;
    m->out = out;
    m->tty = out_is_tty;
    m->start = now_s();
    m->every = m->tty ? 1 : every >= 0 ? every : 10;
    m->next = m->start + (every >= 0 ? every : m->tty ? TTY_FIRST_S : 10);
    m->progress = (Progress){ tick, clear, m };
    return m;
}

const Progress *meter_progress(Meter *m) { return m ? &m->progress : NULL; }

void meter_destroy(Meter *m)
{
    if (!m) return;
    clear(m);
    free(m);
}
