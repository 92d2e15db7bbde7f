/* trace.h - the visual trace (--trace FILE.html or FILE.json).
 *
 * The timing model reports, as they happen, each warp state interval (the
 * same intervals the stall counters are charged with) and each issued
 * instruction with its lanes and, for memory instructions, the lanes'
 * addresses.  trace.c keeps what falls in the window and writes either one
 * self-contained HTML file (inline SVG, CSS and script: warp timeline, lane
 * activity, coalescing and bank maps) or the Trace Event Format (Perfetto,
 * chrome://tracing).  Output is deterministic: no timestamps, fixed order.
 */
#ifndef GPUSIM_TRACE_H
#define GPUSIM_TRACE_H

#include <stddef.h>
#include <stdint.h>

#include "isa/isa.h"
#include "sim/base/config.h"
#include "sim/base/stats.h"
#include "sim/timing/observe.h"

typedef struct Trace Trace;

typedef struct TraceOptions {
    uint64_t from, to;        /* cycle window [from, to); to = 0: no end */
    int sm;                   /* only this SM; -1: all */
    const int *warps;         /* only these warp ids (index in the block); NULL: all */
    int nwarps;
} TraceOptions;


/* NULL with a message in err if the file cannot be written or the name
 * ends in neither .html nor .json. */
Trace *trace_create(const char *path, const TraceOptions *o, const Program *p, const Config *c,
                    char *err, size_t errn);
/* A warp spent cycles [from, to) in state r at source line `line`. */
void trace_state(Trace *t, const TraceWarp *w, StallReason r, uint64_t from, uint64_t to, uint32_t line);
/* A warp issued the instruction at pc in `cycle`: active lanes, lanes
 * whose guard was true, and for memory instructions the access. */
void trace_issue(Trace *t, const TraceWarp *w, uint64_t cycle, uint32_t pc, LaneMask active,
                 LaneMask exec, const MemAccess *mem);
/* The observer that feeds t from the timing model (observe.h). */
Observer trace_observer(Trace *t);
/* Write the file and free.  0 ok, -1 on a write error. */
int trace_close(Trace *t);

#endif
