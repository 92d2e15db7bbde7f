/* stepper.h - the interactive stepper: --step on a terminal.
 *
 * Where step.c prints every cycle and goes on, the stepper stops and waits
 * for a command after each cycle in which the SM of the focused warp
 * changed: n (next cycle), s (until the focused warp issues), c (until a
 * breakpoint or a watched word changes), b LINE [if block=B warp=W],
 * w ADDR, p %REG, f BLOCK WARP, q (stop stepping, run to the end), h;
 * Enter repeats the last command, the arrow keys walk the history.
 * Each stop shows the SM's warps (a warp that issued this cycle shows the
 * pc that issued), and for the focused warp its next instruction, active
 * mask, SIMT stack and the registers its scoreboard waits on.
 *
 * It sees the run through the GpuStep hook (all_sms: every SM's cycles) and
 * an Observer (each issue: breakpoints, watched stores, `s`), forwarding
 * the observer calls to the trace's when there is one.  Read-only: it
 * never changes the run.
 */
#ifndef GPUSIM_STEPPER_H
#define GPUSIM_STEPPER_H

#include <stdio.h>

#include "sim/timing/gpu.h"
#include "sim/timing/observe.h"
#include "sim/timing/sm.h"

typedef struct Stepper Stepper;

/* Commands from in, the screen to out; sm and warp: the first focus (warp
 * `warp` of the lowest block on SM `sm`).  inner: the trace's observer, or
 * NULL.  NULL if out of memory. */
Stepper *stepper_create(FILE *in, FILE *out, int sm, int warp, const Observer *inner);
void stepper_destroy(Stepper *s);
/* The hooks to hand the timing model: a GpuStep (all_sms set) and the
 * observer. */
GpuStep stepper_hook(Stepper *s);
Observer stepper_observer(Stepper *s);

/* One command line (without its newline) at the prompt: returns 1 if the
 * run should go on, 0 to keep reading.  For tests and for stepper.c. */
int stepper_command(Stepper *s, const Timing *t, const Sm *sm, const char *line);

#endif
