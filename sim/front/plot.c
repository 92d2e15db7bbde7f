/* plot.c - see plot.h. */
#include "sim/front/plot.h"

#include <math.h>
#include <string.h>

/* Canvas and plot area, in SVG user units (px).  The legend sits to the
 * right of the plot area so it never hides a line. */
enum { W = 940, H = 460, X0 = 84, X1 = 540, Y0 = 48, Y1 = 392, LEGEND_X = 560, MAX_TICKS = 12 };

/* Line styles for print: dash pattern and marker shape change from one line
 * to the next (8 distinct lines before styles repeat); grey only helps. */
static const char *const dashes[] = { "", "7 4", "2 3", "9 3 2 3" };
static const char *const greys[] = { "#000000", "#555555" };

static void xml_text(FILE *out, const char *s)
{
    for (; *s; s++) {
        switch (*s) {
        case '&': fputs("&amp;", out); break;
        case '<': fputs("&lt;", out); break;
        case '>': fputs("&gt;", out); break;
        case '"': fputs("&quot;", out); break;
        default: fputc(*s, out);
        }
    }
}

/* 1, 2 or 5 times a power of ten, about range/target. */
static double nice_step(double range, int target)
{
    double raw = range / target;
    double mag = pow(10, floor(log10(raw)));
    double f = raw / mag;
    return (f < 1.5 ? 1 : f < 3.5 ? 2 : f < 7.5 ? 5 : 10) * mag;
}

/* Tick labels: short, with k/M/G for big round numbers. */
static void fmt_num(double v, char *buf, size_t n)
{
    double a = fabs(v);
    if (a >= 1e9) snprintf(buf, n, "%gG", v / 1e9);
    else if (a >= 1e6) snprintf(buf, n, "%gM", v / 1e6);
    else if (a >= 1e4) snprintf(buf, n, "%gk", v / 1e3);
    else snprintf(buf, n, "%g", v);
}

/* 16384 -> "16 KiB": sizes in the unit that keeps them whole where it can. */
static void fmt_bytes(double v, char *buf, size_t n)
{
    static const char *const units[] = { "B", "KiB", "MiB", "GiB" };
    int u = 0;
    while (u < 3 && fabs(v) >= 1024 && fmod(v, 1024) == 0) v /= 1024, u++;
    while (u < 3 && fabs(v) >= 1024) v /= 1024, u++;
    snprintf(buf, n, "%g %s", v, units[u]);
}

typedef struct Axis { double lo, hi; PlotScale scale; } Axis;

static double map(const Axis *a, double v, double p0, double p1)
{
    double t = a->scale == PLOT_LOG2 ? (log2(v) - log2(a->lo)) / (log2(a->hi) - log2(a->lo))
                                     : (v - a->lo) / (a->hi - a->lo);
    return p0 + t * (p1 - p0);
}

static void marker(FILE *out, int i, double x, double y, const char *stroke)
{
    int shape = i % 4;
    const char *fill = (i / 4) % 2 ? stroke : "#ffffff";   /* hollow first, then solid */
    const double r = 4;
    fprintf(out, "<g fill=\"%s\" stroke=\"%s\" stroke-width=\"1.3\">", fill, stroke);
    if (shape == 0)
        fprintf(out, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"%.1f\"/>", x, y, r);
    else if (shape == 1)
        fprintf(out, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\"/>", x - r, y - r, 2 * r, 2 * r);
    else if (shape == 2)
        fprintf(out, "<polygon points=\"%.1f,%.1f %.1f,%.1f %.1f,%.1f\"/>", x, y - r - 1, x + r + 0.5, y + r - 0.5, x - r - 0.5, y + r - 0.5);
    else
        fprintf(out, "<polygon points=\"%.1f,%.1f %.1f,%.1f %.1f,%.1f %.1f,%.1f\"/>", x, y - r - 1, x + r + 1, y, x, y + r + 1, x - r - 1, y);
    fputs("</g>\n", out);
}

static const char *line_grey(int i) { return greys[(i / 8) % 2]; }

static void text(FILE *out, double x, double y, const char *anchor, const char *extra, const char *s)
{
    fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\"%s>", x, y, anchor, extra);
    xml_text(out, s);
    fputs("</text>\n", out);
}

/* x range over the data; a single value gets room on both sides. */
static Axis x_axis(const Plot *p)
{
    Axis a = { INFINITY, -INFINITY, p->xscale };
    if (p->xscale == PLOT_CATEGORY) return (Axis){ -0.5, p->nxcats - 0.5, PLOT_CATEGORY };
    for (int l = 0; l < p->nlines; l++)
        for (int i = 0; i < p->lines[l].n; i++) {
            if (p->lines[l].x[i] < a.lo) a.lo = p->lines[l].x[i];
            if (p->lines[l].x[i] > a.hi) a.hi = p->lines[l].x[i];
        }
    if (a.lo > a.hi) a.lo = 0, a.hi = 1;
    if (a.lo == a.hi) {
        if (a.scale == PLOT_LOG2) a.lo /= 2, a.hi *= 2;
        else a.lo -= 1, a.hi += 1;
    }
    /* a margin of 4% keeps end markers off the y axis */
    if (a.scale == PLOT_LOG2) {
        double m = (log2(a.hi) - log2(a.lo)) * 0.04;
        a.lo = exp2(log2(a.lo) - m), a.hi = exp2(log2(a.hi) + m);
    } else {
        double m = (a.hi - a.lo) * 0.04;
        a.lo -= m, a.hi += m;
    }
    return a;
}

/* y from 0 (or the lowest negative value) up to a round number. */
static Axis y_axis(const Plot *p, double *step)
{
    double lo = 0, hi = 0;
    for (int l = 0; l < p->nlines; l++)
        for (int i = 0; i < p->lines[l].n; i++) {
            if (p->lines[l].y[i] < lo) lo = p->lines[l].y[i];
            if (p->lines[l].y[i] > hi) hi = p->lines[l].y[i];
        }
    if (hi <= lo) hi = lo + 1;
    *step = nice_step(hi - lo, 5);
    return (Axis){ floor(lo / *step) * *step, ceil(hi / *step) * *step, PLOT_LINEAR };
}

/* Distinct x values in ascending order, if there are few; else 0. */
static int distinct_x(const Plot *p, double *v, int max)
{
    int n = 0;
    for (int l = 0; l < p->nlines; l++)
        for (int i = 0; i < p->lines[l].n; i++) {
            double x = p->lines[l].x[i];
            int k = 0;
            while (k < n && v[k] < x) k++;
            if (k < n && v[k] == x) continue;
            if (n == max) return 0;
            memmove(&v[k + 1], &v[k], (size_t)(n - k) * sizeof *v);
            v[k] = x;
            n++;
        }
    return n;
}

static void x_tick(FILE *out, const Axis *a, double v, const char *label)
{
    double x = map(a, v, X0, X1);
    fprintf(out, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#000000\"/>\n", x, Y1, x, Y1 + 5);
    text(out, x, Y1 + 19, "middle", "", label);
}

static void draw_x_ticks(FILE *out, const Plot *p, const Axis *a)
{
    char buf[64];
    if (p->xscale == PLOT_CATEGORY) {
        for (int i = 0; i < p->nxcats; i++) x_tick(out, a, i, p->xcats[i]);
        return;
    }
    if (p->xscale == PLOT_LOG2) {
        int e0 = (int)ceil(log2(a->lo) - 1e-9), e1 = (int)floor(log2(a->hi) + 1e-9);
        int every = (e1 - e0) / MAX_TICKS + 1;
        for (int e = e0; e <= e1; e += every) {
            double v = exp2(e);
            if (p->xbytes) fmt_bytes(v, buf, sizeof buf);
            else if (v < 1e5) snprintf(buf, sizeof buf, "%g", v);
            else snprintf(buf, sizeof buf, "2^%d", e);
            x_tick(out, a, v, buf);
        }
        return;
    }
    /* few distinct values: a tick on each; otherwise round numbers */
    double v[MAX_TICKS];
    int n = distinct_x(p, v, MAX_TICKS);
    if (n) {
        for (int i = 0; i < n; i++) {
            if (p->xbytes) fmt_bytes(v[i], buf, sizeof buf);
            else fmt_num(v[i], buf, sizeof buf);
            x_tick(out, a, v[i], buf);
        }
        return;
    }
    double step = nice_step(a->hi - a->lo, 6);
    for (double t = ceil(a->lo / step) * step; t <= a->hi; t += step) {
        if (p->xbytes) fmt_bytes(fabs(t) < step * 1e-9 ? 0 : t, buf, sizeof buf);
        else fmt_num(fabs(t) < step * 1e-9 ? 0 : t, buf, sizeof buf);
        x_tick(out, a, t, buf);
    }
}

static void draw_y_ticks(FILE *out, const Axis *a, double step)
{
    char buf[64];
    int n = (int)llround((a->hi - a->lo) / step);
    for (int i = 0; i <= n; i++) {
        double v = a->lo + i * step;
        double y = map(a, v, Y1, Y0);
        if (i > 0)
            fprintf(out, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#dddddd\"/>\n", X0, y, X1, y);
        fprintf(out, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#000000\"/>\n", X0 - 5, y, X0, y);
        fmt_num(fabs(v) < step * 1e-9 ? 0 : v, buf, sizeof buf);
        text(out, X0 - 8, y + 4, "end", "", buf);
    }
}

static void draw_line(FILE *out, const Plot *p, const Axis *xa, const Axis *ya, int l)
{
    const PlotLine *pl = &p->lines[l];
    const char *stroke = line_grey(l);
    /* one polyline per run of points with a value: a failed point is a gap */
    int open = 0;
    for (int i = 0; i <= pl->n; i++) {
        if (i == pl->n || isnan(pl->y[i])) {
            if (open) fputs("\"/>\n", out);
            open = 0;
            continue;
        }
        if (!open) {
            fprintf(out, "<polyline class=\"series\" fill=\"none\" stroke=\"%s\" stroke-width=\"1.6\"", stroke);
            if (*dashes[l % 4]) fprintf(out, " stroke-dasharray=\"%s\"", dashes[l % 4]);
            fputs(" points=\"", out);
        }
        fprintf(out, "%s%.1f,%.1f", open ? " " : "", map(xa, pl->x[i], X0, X1), map(ya, pl->y[i], Y1, Y0));
        open = 1;
    }
    for (int i = 0; i < pl->n; i++)
        if (!isnan(pl->y[i])) marker(out, l, map(xa, pl->x[i], X0, X1), map(ya, pl->y[i], Y1, Y0), stroke);
}

/* Bars: fill patterns told apart in grey print (solid shades, then hatches). */
static void bar_defs(FILE *out)
{
    fputs("<defs>\n", out);
    static const char *const hatch[] = { "M0,6 L6,0", "M0,0 L6,6", "M3,0 L3,6", "M0,3 L6,3" };
    for (int i = 0; i < 4; i++)
        fprintf(out, "<pattern id=\"h%d\" width=\"6\" height=\"6\" patternUnits=\"userSpaceOnUse\">"
                     "<rect width=\"6\" height=\"6\" fill=\"#ffffff\"/><path d=\"%s\" stroke=\"#000000\" stroke-width=\"1.2\"/>"
                     "</pattern>\n", i, hatch[i]);
    fputs("</defs>\n", out);
}

static void bar_fill(int l, char *buf, size_t n)
{
    static const char *const solid[] = { "#222222", "#888888", "#cccccc", "#ffffff" };
    int k = l % 8;
    if (k < 4) snprintf(buf, n, "%s", solid[k]);
    else snprintf(buf, n, "url(#h%d)", k - 4);
}

/* Grouped bars: category c holds one bar per line, side by side; a missing
 * or failed value leaves its slot empty. */
static void draw_bars(FILE *out, const Plot *p, const Axis *xa, const Axis *ya)
{
    double slot = (X1 - X0) / (xa->hi - xa->lo), group = slot * 0.8, w = group / (p->nlines ? p->nlines : 1);
    double base = map(ya, ya->lo < 0 && ya->hi > 0 ? 0 : ya->lo, Y1, Y0);
    for (int l = 0; l < p->nlines; l++) {
        char fill[32];
        bar_fill(l, fill, sizeof fill);
        const PlotLine *pl = &p->lines[l];
        for (int i = 0; i < pl->n; i++) {
            if (isnan(pl->y[i])) continue;
            double x = map(xa, pl->x[i], X0, X1) - group / 2 + l * w, y = map(ya, pl->y[i], Y1, Y0);
            fprintf(out, "<rect class=\"bar\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\" "
                         "stroke=\"#000000\" stroke-width=\"0.8\"/>\n", x, y < base ? y : base, w, fabs(base - y), fill);
        }
    }
}

static void draw_legend(FILE *out, const Plot *p)
{
    int h = 14 + 20 * p->nlines;
    fprintf(out, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"#ffffff\" stroke=\"#999999\"/>\n",
            LEGEND_X, Y0, W - LEGEND_X - 8, h);
    for (int l = 0; l < p->nlines; l++) {
        double y = Y0 + 17 + 20 * l;
        const char *stroke = line_grey(l);
        if (p->bars) {
            char fill[32];
            bar_fill(l, fill, sizeof fill);
            fprintf(out, "<rect x=\"%d\" y=\"%.1f\" width=\"32\" height=\"12\" fill=\"%s\" stroke=\"#000000\" "
                         "stroke-width=\"0.8\"/>\n", LEGEND_X + 8, y - 6, fill);
        } else {
            fprintf(out, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"%s\" stroke-width=\"1.6\"",
                    LEGEND_X + 8, y, LEGEND_X + 40, y, stroke);
            if (*dashes[l % 4]) fprintf(out, " stroke-dasharray=\"%s\"", dashes[l % 4]);
            fputs("/>\n", out);
            marker(out, l, LEGEND_X + 24, y, stroke);
        }
        char label[56];   /* what fits beside the sample at 12px */
        snprintf(label, sizeof label, "%s", p->lines[l].label);
        if (strlen(p->lines[l].label) >= sizeof label) memcpy(label + sizeof label - 4, "...", 4);
        text(out, LEGEND_X + 48, y + 4, "start", "", label);
    }
}

void plot_svg(const Plot *p, FILE *out)
{
    Axis xa = x_axis(p);
    double ystep;
    Axis ya = y_axis(p, &ystep);
    int h = Y0 + 24 + 20 * p->nlines > H ? Y0 + 24 + 20 * p->nlines : H;   /* room for a long legend */
    fprintf(out, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
                 "font-family=\"sans-serif\" font-size=\"12\">\n", W, h, W, h);
    fputs("<title>", out);
    xml_text(out, p->title);
    fputs("</title>\n", out);
    if (p->bars) bar_defs(out);
    fprintf(out, "<rect width=\"%d\" height=\"%d\" fill=\"#ffffff\"/>\n", W, h);
    text(out, (X0 + X1) / 2.0, 26, "middle", " font-size=\"15\" font-weight=\"bold\"", p->title);
    draw_y_ticks(out, &ya, ystep);
    draw_x_ticks(out, p, &xa);
    fprintf(out, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#000000\"/>\n", X0, Y1, X1, Y1);
    fprintf(out, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#000000\"/>\n", X0, Y0, X0, Y1);
    char xl[256];
    snprintf(xl, sizeof xl, "%s%s", p->xlabel, p->xscale == PLOT_LOG2 ? " (log2 scale)" : "");
    text(out, (X0 + X1) / 2.0, Y1 + 44, "middle", " font-size=\"13\"", xl);
    char rot[64];
    snprintf(rot, sizeof rot, " font-size=\"13\" transform=\"rotate(-90 20 %.1f)\"", (Y0 + Y1) / 2.0);
    text(out, 20, (Y0 + Y1) / 2.0, "middle", rot, p->ylabel);
    if (p->bars) draw_bars(out, p, &xa, &ya);
    else for (int l = 0; l < p->nlines; l++) draw_line(out, p, &xa, &ya, l);
    draw_legend(out, p);
    fputs("</svg>\n", out);
}
