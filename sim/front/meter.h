/* meter.h - the progress meter: how far a long run has got, on stderr
 * (--progress; docs/architecture.md, "Long runs").
 *
 * On a terminal it is one line rewritten in place, from 2 seconds into
 * the run, and erased before anything else is written, so a short run
 * never shows it (nor while the report feeds another program: a pager may
 * own the terminal).  Elsewhere (a log file, a pipe) it is off unless asked
 * for: --progress writes a line every 10 seconds (--progress=S: every S;
 * 0: at every tick of the simulator, for tests).  What it shows (cycle,
 * warp instructions, blocks started, host rate) never goes into a report. */
#ifndef GPUSIM_METER_H
#define GPUSIM_METER_H

#include <stdio.h>

#include "isa/isa.h"
#include "sim/base/progress.h"

typedef struct Meter Meter;

/* on: 1 asked for (--progress), 0 the default (out a terminal, and the
 * report not piped to another program, which may be a pager that owns the
 * terminal), -1 off (--no-progress); every: seconds between lines (< 0:
 * the default).  NULL when nothing is to be shown. */
Meter *meter_create(int on, double every, const Program *p, FILE *out, int out_is_tty, int report_piped);
const Progress *meter_progress(Meter *m);
void meter_destroy(Meter *m);

#endif
