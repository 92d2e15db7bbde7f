/* printf.h - CUDA's device printf: nvcc compiles printf(fmt, ...) into a call
 * of vprintf(fmt, args), where args points to the arguments packed in the
 * thread's local memory, each at its natural alignment (int, unsigned, char
 * as 4 bytes; long, long long, pointers, size_t and doubles as 8; a float
 * argument is promoted to double).  The assembler turns such a call into the
 * built-in CALL_VPRINTF; exec_vprintf (exec.c) reads the memory and hands it
 * to printf_format; each line is kept with its block, warp, lane and the lane's
 * call count, and printf_flush writes a launch's lines ordered by block, warp,
 * call count, lane: a warp's first printf for all its lanes, then its second
 * (as a GPU prints a warp-wide call), deterministic whatever the schedule or
 * sm.independent_threads; the launch's lines come when it ends.
 */
#ifndef GPUSIM_PRINTF_H
#define GPUSIM_PRINTF_H

#include <stddef.h>
#include <stdint.h>

#include "sim/core/kernel.h"

/* Where the argument bytes and strings come from (exec.c: one lane's
 * memory).  read: `bytes` (4 or 8) at args + offset into *v; str: the NUL-
 * terminated string at generic address addr into buf (cut at cap - 1).
 * Both return 0, or -1 after filling the kernel's fault. */
typedef struct PrintfArgs {
    int (*read)(void *ctx, uint64_t offset, int bytes, uint64_t *v);
    int (*str)(void *ctx, uint64_t addr, char *buf, size_t cap);
    void *ctx;
} PrintfArgs;

typedef struct PrintfRec PrintfRec;

enum { PRINTF_MAX_LINE = 4096 };    /* one call's output, as CUDA's own limit per call is finite */

/* Format fmt with the arguments of a (C's printf rules; %s reads a string,
 * %p prints a pointer, %n is refused).  Writes at most cap - 1 characters
 * and a NUL into out.  Returns the number of arguments it used, or -1 on a
 * memory fault (a, read or str failed). */
int printf_format(const char *fmt, const PrintfArgs *a, char *out, size_t cap);

/* Keep one lane's line (a copy of text) for the end of the launch. */
void printf_keep(Kernel *k, const Warp *w, int lane, const char *text);

/* Move from's lines into k (the host threads of a parallel launch each
 * keep their own: sim/timing/gpu.c); printf_flush orders them. */
void printf_adopt(Kernel *k, Kernel *from);
/* Append the launch's lines to k->stats->printf_text in (block, warp,
 * lane's call, lane) order, then forget them. */
void printf_flush(Kernel *k);

#endif
