/* host.h - the host side of a kernel file: initialising .buffers before the
 * launches, and after them checking buffers against host references
 * (.check) and dumping them (--dump).
 *
 * The reference implementations live here, one table row per function
 * (name, arguments, what it computes); docs/kernel-format.md lists them.
 */
#ifndef GPUSIM_HOST_H
#define GPUSIM_HOST_H

#include <stdio.h>

#include "isa/diag.h"
#include "isa/isa.h"
#include "sim/mem/mem.h"

/* Fill every buffer from its initialiser.  file() paths are relative to the
 * kernel file's directory.  0 ok, -1 with a Diag (file:line:col). */
int host_init_buffers(const Program *p, Memory *m, DiagList *dl);

/* Check that every .check names a known reference with the right arguments
 * (before running).  0 ok, -1 with Diags. */
int host_validate_checks(const Program *p, DiagList *dl);

typedef struct CheckResult {
    int buffer;
    int passed;
    uint64_t compared, mismatches;
    double max_abs_err;
    char detail[1024];     /* PASS line, or the first mismatches */
} CheckResult;

/* Run check i; fills r.  -1 if the reference could not be computed (a Diag). */
int host_run_check(const Program *p, const Memory *m, int i, CheckResult *r, DiagList *dl);

/* Write buffer b, one value per line. */
void host_dump(const Program *p, const Memory *m, int b, FILE *out);

/* The reference functions by index, for docs and tests. */
int host_ref_count(void);
const char *host_ref_name(int i);
/* The reference functions, for docs: "name(args): meaning" per line. */
void host_doc_refs(FILE *out);

#endif
