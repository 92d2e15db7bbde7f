/* kernel_text.h - a kernel written as a C string, assembled and set up for
 * the tests that drive the functional core directly (kernel_init,
 * cta_init, warp_issue) instead of through run_program: test_exec,
 * test_threads, test_scoreboard.  Header-only; include after cmocka.h. */
#ifndef GPUSIM_TESTS_KERNEL_TEXT_H
#define GPUSIM_TESTS_KERNEL_TEXT_H

#include <stdio.h>
#include <string.h>

#include "isa/asm.h"
#include "sim/base/stats.h"
#include "sim/core/kernel.h"
#include "sim/mem/mem.h"

/* src assembled; the diagnostics printed and the test failed if it does not. */
static inline Program *assemble_text(const char *name, const char *src, DiagList *dl)
{
    Program *p = asm_assemble(name, src, strlen(src), NULL, dl);
    if (!p) diag_print(dl, stderr);
    assert_non_null(p);
    return p;
}

/* The index of value register `name` of e (the test fails if there is none). */
static inline int reg_index(const Entry *e, const char *name)
{
    for (int i = 0; i < e->nregs; i++)
        if (!strcmp(e->regs[i].name, name)) return i;
    fail_msg("no register %s", name);
    return -1;
}

/* A program's first launch as a Kernel over its buffers, warp_size lanes a
 * warp, one SM. */
typedef struct KernelRig {
    DiagList dl;
    Program *p;
    Memory mem;
    Stats st;
    Kernel k;
} KernelRig;

static inline void rig_init(KernelRig *r, const char *name, const char *src, int warp_size)
{
    memset(r, 0, sizeof *r);
    r->p = assemble_text(name, src, &r->dl);
    assert_int_equal(mem_init(&r->mem, r->p), 0);
    assert_int_equal(stats_init(&r->st, r->p->nlines, 1), 0);
    assert_int_equal(kernel_init(&r->k, r->p, 0, &r->mem, &r->st, warp_size, 1, 64), 0);
}

static inline void rig_free(KernelRig *r)
{
    kernel_free(&r->k);
    stats_free(&r->st);
    mem_free(&r->mem);
    program_free(r->p);
    diag_free(&r->dl);
}

#endif
