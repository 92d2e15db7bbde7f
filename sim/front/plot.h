/* plot.h - a line chart as a self-contained SVG file: axes with ticks and
 * labels, a title, a legend, and lines told apart by dash pattern and
 * marker shape (not by colour alone), so a chart survives a grey printer.
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
    const double *x, *y;     /* n points, drawn in this order */
} PlotLine;

typedef struct Plot {
    const char *title, *xlabel, *ylabel;
    PlotScale xscale;
    const char *const *xcats; int nxcats;
    const PlotLine *lines; int nlines;
} Plot;

void plot_svg(const Plot *p, FILE *out);

#endif
