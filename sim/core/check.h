/* check.h - the run-time checks a student's bug trips over, as
 * compute-sanitizer does on hardware: shared-memory (and, as an option,
 * global-memory) races between two barriers of a block, and reads of
 * registers a thread never wrote.
 *
 * A Checker is owned by the front end and lives across launches; the
 * Kernel points at it (Kernel.check, NULL when every check is off).  The
 * engines then issue through warp_issue_checked (warp.h) instead of
 * warp_issue, which calls check_before and check_after around each
 * instruction; with the checks off nothing of this runs; cta_init/cta_free set
 * up and drop a block's shadow state; a barrier release starts a new
 * interval (Cta.epoch).  Works on what happened, not on pc order, so it
 * stays right when instructions are reordered: every report names the
 * instructions' own source lines.
 *
 * Race rule: within one barrier interval of a block, a word written by one
 * thread and read or written by another is a hazard, except when both are
 * lanes of the same warp (they run in lockstep) unless the config models
 * independent thread scheduling (sm.independent_threads); then only a
 * bar.warp.sync (__syncwarp) between them orders two lanes.  Atomics never
 * race with each other and are left out.  Each distinct hazard (kind and
 * the two instructions) is kept once, with the first occurrence and a
 * count.
 */
#ifndef GPUSIM_CHECK_H
#define GPUSIM_CHECK_H

#include <stdint.h>

#include "sim/core/exec.h"
#include "sim/core/kernel.h"

enum {
    CHECK_RACES = 1,          /* shared memory */
    CHECK_RACES_GLOBAL = 2,   /* global memory too, within a block */
    CHECK_UNINIT = 4,         /* registers read before this thread wrote them */
    CHECK_ERROR = 8           /* a finding makes the run fail (exit 3) */
};

typedef enum HazardKind { HAZ_RAW, HAZ_WAR, HAZ_WAW } HazardKind;
extern const char *const hazard_names[3];     /* "read-after-write", ... */

/* One side of a hazard: who touched the word, where. */
typedef struct CheckSite {
    uint32_t pc, line;
    int warp, lane;
} CheckSite;

typedef struct Hazard {
    uint8_t kind;             /* HazardKind */
    uint8_t space;            /* SP_SHARED or SP_GLOBAL */
    int launch;
    uint32_t cta[3];
    uint64_t addr;            /* the word's byte address in its space */
    CheckSite first, second;  /* earlier and later access */
    uint64_t count;           /* word-and-lane occurrences */
} Hazard;

typedef struct UninitRead {
    int launch;
    uint32_t cta[3];
    uint16_t reg;             /* value register index, or nregs + predicate */
    int is_pred;
    CheckSite site;           /* first thread that read it */
    uint64_t count;           /* warp instructions that read it so */
} UninitRead;

typedef struct Checker {
    unsigned flags;           /* CHECK_* */
    int its;                  /* independent thread scheduling: lanes race too */
    Hazard *haz; int nhaz, haz_cap;
    UninitRead *un; int nun, un_cap;
    uint64_t dropped;         /* distinct findings beyond the cap */
} Checker;

/* flags: CHECK_*; its: sm.independent_threads.  Never fails (the lists grow
 * on demand and stop at a cap). */
void check_init(Checker *c, unsigned flags, int its);
void check_free(Checker *c);

/* Block set-up and end (kernel.c calls them when k->check is set). */
int check_cta_begin(Kernel *k, Cta *c);
void check_cta_end(Cta *c);
/* Before warp w issues the instruction at pc (its active lanes, and those
 * whose guard holds): the register reads and writes.  After it: its memory
 * access (out->has_mem). */
void check_before(Kernel *k, Warp *w, uint32_t pc, LaneMask active, LaneMask exec);
void check_after(Kernel *k, Warp *w, uint32_t pc, const ExecOut *out);
/* Before a fault's message is final: if lane's address register of the
 * faulting instruction derives from a never-written register, say so in
 * k->fault.msg. */
void check_explain_fault(Kernel *k, Warp *w, int lane);

/* The first source line that writes register reg (value registers first,
 * predicates at nregs + i), 0 if none: where a never-written register
 * would have got its value. */
uint32_t check_writer_line(const Entry *e, int reg);
/* "tile[32]" or "out[7]" or "shared byte 12": the word's name. */
void check_word_name(const Program *p, const Entry *e, int space, uint64_t addr, const Memory *m, char *buf,
                     size_t n);
/* Findings, total (hazards and uninitialised reads). */
static inline int check_findings(const Checker *c) { return c ? c->nhaz + c->nun : 0; }

#endif
