/* backend_view.c - the back end's result for --disasm: the machine order
 * beside the source lines, what each instruction becomes, the registers
 * per thread and every register's place and live range.  Printed as
 * comments, so a --disasm listing still assembles. */
#include "backend.h"
#include "disasm.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

static void reg_name(const Entry *e, const RegAlloc *ra, int r, char *buf, size_t n)
{
    int c = ra->phys[r];
    if (c < 0) { snprintf(buf, n, "-"); return; }
    c += BACKEND_RESERVED_REGS;
    if (e->regs[r].bits == 64) snprintf(buf, n, "R%d:R%d", c, c + 1);
    else snprintf(buf, n, "R%d", c);
}

static int later(const Entry *m, const RegAlloc *ra, int a, int b)
{
    if (ra->first[a] != ra->first[b]) return ra->first[a] > ra->first[b];
    return strcmp(m->regs[a].name, m->regs[b].name) > 0;
}

int backend_describe(const Entry *m, char *buf, size_t n)
{
    size_t len = 0;
    buf[0] = '\0';
    if (m->unrolled)
        len += (size_t)snprintf(buf + len, n - len, "%d loop%s unrolled %d times", m->unrolled, m->unrolled == 1 ? "" : "s",
                                BACKEND_UNROLL_FACTOR);
    if (m->if_converted && len < n)
        len += (size_t)snprintf(buf + len, n - len, "%s%d short branch%s guarded instead (if-conversion)", len ? ", " : "",
                                m->if_converted, m->if_converted == 1 ? "" : "es");
    if (m->vectorized && len < n)
        len += (size_t)snprintf(buf + len, n - len, "%s%d group%s of shared loads merged into vector loads", len ? ", " : "",
                                m->vectorized, m->vectorized == 1 ? "" : "s");
    return len > 0;
}

void backend_disasm(const Program *p, int ei, FILE *out)
{
    const Entry *src = &p->entries[ei];
    const Entry *m = src->machine;
    if (!m) return;
    RegAlloc ra;
    int ok = backend_regalloc(m, &ra) == 0;
    uint64_t ptx = (uint64_t)m->ncode, mach = (uint64_t)m->prologue_minst;
    for (int pc = 0; pc < m->ncode; pc++) mach += m->code[pc].minst;
    fprintf(out, "\n// ---- %s as the SM issues it (core.schedule=machine, the default) ----\n", m->name);
    fprintf(out, "// registers/thread: %d%s", m->regs_per_thread, src->regs_stated ? " (stated by .nregs)" : "");
    if (!src->regs_stated)
        fprintf(out, " (the lesser of two colourings, each + %d reserved, rounded up to %d: this order's %d, the PTX "
                     "order's %d)", BACKEND_RESERVED_REGS, BACKEND_REG_GRANULE, m->regs_order, m->regs_ptx);
    fprintf(out, "; counted by use: %d\n", src->regs_per_thread);
    char what[256];
    if (backend_describe(m, what, sizeof what)) fprintf(out, "// as ptxas does: %s\n", what);
    if (m->regs_spilled)
        fprintf(out, "// .maxnreg %d: %d registers over it would spill to local memory (counted, not simulated)\n",
                src->maxnreg, m->regs_spilled);
    fprintf(out, "// %" PRIu64 " PTX instructions -> %" PRIu64 " machine instructions if each ran once, "
                 "%d of them the prologue (MOV R1, c[0x0][0x28]; ULDC.64 descriptor; MOV of an IMAD.WIDE immediate)\n",
            ptx, mach, m->prologue_minst);
    fputs("//  mpc  src  line  sass class   instruction\n", out);
    char text[512];
    uint8_t *read = backend_regs_read(m);
    for (int b = 0; b < m->nblocks; b++) {
        const BasicBlock *bb = &m->blocks[b];
        fprintf(out, "//  -- BB%d\n", b);
        for (uint32_t pc = bb->first; pc <= bb->last; pc++) {
            const Instr *in = &m->code[pc];
            disasm_instr(p, m, in, text, sizeof text);
            uint32_t s = m->morder[pc];
            const char *note = s != pc ? (s > pc ? "   ^ rose" : "   v sank") : "";
            if (backend_folded_branch(in, pc))   /* a folded no-op: what was it? */
                note = src->code[s].op == OP_BRA ? "   if-converted: the body it jumped over runs guarded"
                                               : "   merged into a vector load";
            else if (read && backend_posted(in, read))
                note = "   posted (a RED): the warp does not wait for it";
            fprintf(out, "// %4u %4u  L%-4u %4d %-7s %s%s\n", pc, s, in->line, in->minst,
                    backend_mclass_name(in->mclass), text, note);
        }
    }
    free(read);
    if (ok) {
        fputs("// register  machine  live (machine pcs, first to last)\n", out);
        char nm[32];
        /* by where each value starts living, as a student reads the code */
        int *by = malloc((size_t)(m->nregs ? m->nregs : 1) * sizeof *by), n = 0;
        for (int r = 0; by && r < m->nregs; r++) if (ra.phys[r] >= 0) by[n++] = r;
        for (int i = 1; i < n; i++)
            for (int j = i; j > 0 && later(m, &ra, by[j - 1], by[j]); j--) { int t = by[j]; by[j] = by[j - 1]; by[j - 1] = t; }
        for (int i = 0; i < n; i++) {
            int r = by[i];
            reg_name(m, &ra, r, nm, sizeof nm);
            if (ra.first[r] > ra.last[r]) fprintf(out, "// %-9s %-8s never live\n", m->regs[r].name, nm);
            else fprintf(out, "// %-9s %-8s %u-%u\n", m->regs[r].name, nm, ra.first[r], ra.last[r]);
        }
        free(by);
    }
    backend_regalloc_free(&ra);
}
