/* plot.h - a line chart (or, for categories, grouped bars) as a
 * self-contained SVG file: axes with ticks and labels, a title, a legend
 * outside the plot area, and lines told apart by dash pattern and marker
 * shape, bars by fill pattern (not by colour alone), so a chart survives a
 * grey printer.
 * No external files; fonts are the generic "sans-serif".  Deterministic:
 * the same Plot gives the same bytes. */
#ifndef GPUSIM_PLOT_H
#define GPUSIM_PLOT_H

#include <stdio.h>

typedef enum PlotScale {
    PLOT_LINEAR,
    PLOT_LOG2,       /* x values are powers of two: one tick per power */
    PLOT_CATEGORY    /* x[i] is an index into Plot.xcats, evenly spaced */
} PlotScale;

typedef struct PlotLine {
    const char *label;
    int n;
    const double *x, *y;     /* n points, drawn in this order; a NaN y is a gap (a failed point) */
} PlotLine;

typedef struct Plot {
    const char *title, *xlabel, *ylabel;
    PlotScale xscale;
    const char *const *xcats; int nxcats;
    const PlotLine *lines; int nlines;
    int bars;                /* PLOT_CATEGORY: grouped bars, one per line in each category */
    int xbytes;              /* x values are byte sizes: ticks read 16 KiB, 1 MiB */
} Plot;

void plot_svg(const Plot *p, FILE *out);

#endif
