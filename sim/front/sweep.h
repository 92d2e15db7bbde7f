/* sweep.h - parameter sweeps: the cartesian product of config values,
 * kernel .define values and kernel files, one run per point, one CSV row
 * per point (docs/sweeps.md).
 *
 * Points are numbered in one fixed order: configs outermost, then kernels,
 * then the swept names in command-line order, the last one varying fastest
 * (nested loops as written); a --zip name moves with the name before it.  Points run on -j threads; each assembles its own Program and
 * owns its Config and Run, so threads share only the read-only Sweep.  Rows
 * are written in point order whatever the thread count.  The same numbering
 * lets a sweep run elsewhere: --emit-jobs prints one command per point
 * (--sweep-point I), and sweep_merge puts their rows back in order.
 */
#ifndef GPUSIM_SWEEP_H
#define GPUSIM_SWEEP_H

#include <stdio.h>

#include "isa/asm.h"
#include "isa/diag.h"
#include "sim/front/run.h"

/* One swept name: "KEY=LIST" from --sweep (a name with a dot is a config
 * key, one without is a .define) or "NAME=LIST" from -D (always a define).
 * LIST: values and ranges separated by commas: 16,32,64  1..8  2^0..2^5. */
typedef struct SweepArg {
    const char *spec;
    int define;
    int zip;            /* --zip: varies together with the swept name before it */
} SweepArg;

typedef struct SweepSpec {
    const char *prog;                      /* argv[0], for --emit-jobs */
    const char *const *configs; int nconfigs;  /* one or more CONFIG.ini; several add a "config" column */
    const char *const *kernels; int nkernels;
    const SweepArg *axes; int naxes;       /* command-line order */
    const char *const *sets; int nsets;   /* fixed --set KEY=VALUE, applied before swept keys */
    const AsmDefine *defines; int ndefines;/* fixed -D NAME=VALUE */
    RunOptions run;                        /* --functional, --max-cycles */
    const char *y;                         /* --y: a metric that is not a column becomes one */
    int jobs;                              /* -j: threads (1 if 0) */
    int no_time;                           /* --no-time: no host_seconds column */
    int meter;                             /* points done on stderr: 1 one line rewritten (a terminal),
                                              2 a line a point (--progress elsewhere), 0 none */
} SweepSpec;

/* A CSV held as cells: swept values, kernel, status, metrics... */
typedef struct SweepTable {
    int ncols, nrows;
    char **head;          /* ncols names */
    char **cell;          /* nrows x ncols, row-major; NULL = empty */
    char *title;          /* --merge: the configs as the jobs' "# config:" line named them; NULL = none */
} SweepTable;

typedef struct Sweep Sweep;

/* Expands the lists and loads CONFIG with the fixed --sets.  NULL with Diags
 * on bad usage: a malformed list or range, an unknown key, a bad CONFIG. */
Sweep *sweep_new(const SweepSpec *spec, DiagList *dl);
void sweep_free(Sweep *s);
int sweep_points(const Sweep *s);

/* Runs every point, writing the CSV to out as rows complete (in point
 * order).  A failing point records its error in its row and the sweep goes
 * on.  Returns the largest exit code of any point: 0 ok, 1 check failed,
 * 2 bad input (e.g. a value that fails validation), 3 fault. */
int sweep_run(Sweep *s, FILE *out);
/* The rows of the finished sweep (for plotting). */
const SweepTable *sweep_table(const Sweep *s);

/* --sweep-point I: runs point I alone and writes the job format: a
 * "# config: TITLE" line (sweep_config_title, for --merge's plot title),
 * the header and the row, each prefixed with a "point" column ("point" /
 * "I/N"), in one write so rows from parallel jobs never interleave.  Returns
 * its exit code. */
int sweep_run_point(Sweep *s, int point, FILE *out);
/* --emit-jobs: one self-contained shell command per point. */
void sweep_emit_jobs(const Sweep *s, FILE *out);

/* --merge: reads job output (files in any order, "-" = stdin) into t in
 * point order (t->title from the first "# config:" line).  -1 with Diags if a header differs, a point is missing or
 * appears twice. */
int sweep_merge(const char *const *paths, int n, SweepTable *t, DiagList *dl);
void sweep_table_write(const SweepTable *t, FILE *out);
/* The exit code the rows stand for, as sweep_run returns it. */
int sweep_table_status(const SweepTable *t);
void sweep_table_free(SweepTable *t);

/* What --plot draws (docs/sweeps.md "A plot"). */
enum { SWEEP_PLOT_ABSOLUTE, SWEEP_PLOT_RELATIVE, SWEEP_PLOT_SPEEDUP };
typedef struct SweepPlotOptions {
    const char *y;          /* the column (NULL: cycles) */
    const char *config;     /* named in the title ("GTX 480, configs/fermi.ini"), or NULL */
    int scale;              /* SWEEP_PLOT_*: y, y / baseline, or baseline / y */
    const char *baseline;   /* x value of each line's baseline point; NULL: its first point with a value */
} SweepPlotOptions;

/* --plot: a line chart of column y against the first swept column (grouped
 * bars when x is not numeric), one line per kernel and value of the other
 * swept columns; a failed point is a gap.  -1 with a Diag if y is not a
 * column or has no numeric value. */
int sweep_plot(const SweepTable *t, const SweepPlotOptions *o, FILE *out, DiagList *dl);
/* For the title: "GTX 480, configs/fermi.ini" for one config, "GTX 480 and
 * V100" for several. */
const char *sweep_config_title(const Sweep *s, char *buf, size_t n);

#endif
