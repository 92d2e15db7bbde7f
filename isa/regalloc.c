/* regalloc.c - register allocation as ptxas counts it (see backend.h).
 *
 * Liveness is solved over the CFG on the entry's own order (the machine
 * order when called on e->machine): a register is live from a write to its
 * last read on any path.  A guarded write does not end the old value (the
 * lanes whose guard is false keep it).  Two registers interfere when one is
 * written while the other is live (or both are live on entry).  The
 * colouring is greedy, registers taken in the order of their first
 * appearance: a 16- or 32-bit value takes one 32-bit register, a 64-bit
 * value an aligned pair, predicates are coloured apart (7 per thread).
 * ptxas reports the highest register used plus its reserved ones (R1, the
 * stack pointer, and the pair the ABI keeps), rounded up to the allocation
 * granule of 8 registers per thread, and never fewer than 16 (backend.h).
 *
 * The same colouring lays out a warp's register rows in the simulator
 * (backend_reg_rows, kernel.c), with two more rules so that sharing a row
 * changes no value: 32-bit and 64-bit registers are coloured apart (a row
 * of 8-byte lanes puts lane l over lanes 2l and 2l + 1 of a 4-byte row,
 * another thread's, which no thread's liveness sees), and an instruction's
 * destination never shares a row with a register it reads (exec.c reads a
 * row and writes another lane by lane: only the same register in place).
 */
#include "backend.h"
#include "cfg.h"

#include <stdlib.h>
#include <string.h>

enum { MAX_REGS = 8192, MAX_BITS = 1 << 26, MAX_COLOURS = 1024 };

typedef uint64_t Word;
#define WBITS 64
static int test(const Word *s, int i) { return (int)(s[i / WBITS] >> (i % WBITS) & 1); }
static void set(Word *s, int i) { s[i / WBITS] |= (Word)1 << (i % WBITS); }
static void clr(Word *s, int i) { s[i / WBITS] &= ~((Word)1 << (i % WBITS)); }

void backend_regalloc_free(RegAlloc *ra)
{
    free(ra->phys); free(ra->pphys); free(ra->first); free(ra->last);
    memset(ra, 0, sizeof *ra);
}

static int count_by_use(const Entry *e)
{
    int n = 0;
    for (int i = 0; i < e->nregs; i++)
        if (e->regs[i].used) n += e->regs[i].bits == 64 ? 2 : 1;
    return n;
}

static void touch(RegAlloc *ra, int r, uint32_t pc)
{
    if (pc < ra->first[r]) ra->first[r] = pc;
    if (pc > ra->last[r]) ra->last[r] = pc;
}

static int width(const Entry *e, int r) { return r < e->nregs ? (e->regs[r].bits == 64 ? 2 : 1) : 0; }

/* Greedy colouring of registers [lo, hi) in order `ord`, into col[]. */
static int colour(const Entry *e, int N, int nw, const Word *adj, const int *ord, int nord, int *col, int is_pred)
{
    int used = 0;
    uint8_t busy[MAX_COLOURS];
    for (int k = 0; k < nord; k++) {
        int r = ord[k];
        int w = is_pred ? 1 : width(e, r);
        memset(busy, 0, sizeof busy);
        const Word *row = &adj[(size_t)r * (size_t)nw];
        for (int j = 0; j < N; j++) {
            if (!test(row, j) || col[j] < 0) continue;
            int wj = is_pred ? 1 : width(e, j);
            for (int x = 0; x < wj && col[j] + x < MAX_COLOURS; x++) busy[col[j] + x] = 1;
        }
        int c = 0;
        while (c + w <= MAX_COLOURS) {
            int ok = 1;
            for (int x = 0; x < w; x++) if (busy[c + x]) ok = 0;
            if (ok) break;
            c += w;
        }
        col[r] = c;
        if (c + w > used) used = c + w;
    }
    return used;
}

int backend_liveness(const Entry *e, uint64_t **in_out, uint64_t **out_out)
{
    int N = e->nregs + e->npreds, nb = e->nblocks, nw = (N + WBITS - 1) / WBITS;
    *in_out = *out_out = NULL;
    if (N > MAX_REGS || (int64_t)nb * nw * 4 * WBITS > MAX_BITS) return 1;
    if (nw == 0) nw = 1;
    Word *use = calloc((size_t)nb * (size_t)nw, sizeof(Word)), *def = calloc((size_t)nb * (size_t)nw, sizeof(Word));
    Word *in = calloc((size_t)nb * (size_t)nw, sizeof(Word)), *out = calloc((size_t)nb * (size_t)nw, sizeof(Word));
    if (!use || !def || !in || !out) { free(use); free(def); free(in); free(out); return -1; }
    RegUse u;
    for (int b = 0; b < nb; b++) {
        Word *ub = &use[(size_t)b * nw], *db = &def[(size_t)b * nw];
        for (uint32_t pc = e->blocks[b].first; pc <= e->blocks[b].last; pc++) {
            const Instr *x = &e->code[pc];
            backend_reg_use(e, x, &u);
            for (int i = 0; i < u.nrd; i++) if (!test(db, u.rd[i])) set(ub, u.rd[i]);
            for (int i = 0; i < u.nwr; i++) {
                /* a guarded write keeps the old value in the lanes it skips */
                if (x->guard != REG_NONE && !test(db, u.wr[i])) set(ub, u.wr[i]);
                set(db, u.wr[i]);
            }
        }
    }
    /* backward dataflow to a fixed point */
    for (int changed = 1; changed;) {
        changed = 0;
        for (int b = nb - 1; b >= 0; b--) {
            Word *ob = &out[(size_t)b * nw], *ib = &in[(size_t)b * nw];
            for (int s = 0; s < e->blocks[b].nsucc; s++) {
                int t = e->blocks[b].succ[s];
                if (t < 0) continue;
                for (int i = 0; i < nw; i++) ob[i] |= in[(size_t)t * nw + i];
            }
            for (int i = 0; i < nw; i++) {
                Word v = use[(size_t)b * nw + i] | (ob[i] & ~def[(size_t)b * nw + i]);
                if (v != ib[i]) { ib[i] = v; changed = 1; }
            }
        }
    }
    free(use);
    free(def);
    *in_out = in;
    *out_out = out;
    return 0;
}

/* A register's class: registers interfere, and share colours, only within
 * one.  ptxas's count: values (pairs for 64 bits) and predicates; rows:
 * 32-bit-or-narrower values, 64-bit values and predicates. */
static int reg_class(const Entry *e, int r, int rows)
{
    if (r >= e->nregs) return 2;
    return rows && e->regs[r].bits > 32;
}

/* The registers of class cls (reg_class) into ord in order of first
 * appearance; how many (-1: out of memory). */
static int in_order(const Entry *e, int rows, int cls, int *ord)
{
    int n = 0;
    char *seen = calloc((size_t)(e->nregs + e->npreds + 1), 1);
    if (!seen) return -1;
    RegUse u;
    for (int pc = 0; pc < e->ncode; pc++) {
        backend_reg_use(e, &e->code[pc], &u);
        for (int k = 0; k < u.nrd + u.nwr; k++) {
            int r = k < u.nrd ? u.rd[k] : u.wr[k - u.nrd];
            if (reg_class(e, r, rows) == cls && !seen[r]) { seen[r] = 1; ord[n++] = r; }
        }
    }
    free(seen);
    return n;
}

/* backend_regalloc's colouring (rows = 0) or backend_reg_rows' (rows = 1). */
static int allocate(const Entry *e, RegAlloc *ra, int rows)
{
    memset(ra, 0, sizeof *ra);
    int nr = e->nregs, np = e->npreds, N = nr + np, nb = e->nblocks;
    ra->regs = count_by_use(e);
    ra->phys = malloc((size_t)(nr ? nr : 1) * sizeof *ra->phys);
    ra->pphys = malloc((size_t)(np ? np : 1) * sizeof *ra->pphys);
    ra->first = malloc((size_t)(nr ? nr : 1) * sizeof *ra->first);
    ra->last = malloc((size_t)(nr ? nr : 1) * sizeof *ra->last);
    if (!ra->phys || !ra->pphys || !ra->first || !ra->last) return -1;
    for (int r = 0; r < nr; r++) { ra->phys[r] = -1; ra->first[r] = UINT32_MAX; ra->last[r] = 0; }
    for (int r = 0; r < np; r++) ra->pphys[r] = -1;
    if (N == 0 || e->ncode == 0) { ra->regs = 0; return 0; }
    int nw = (N + WBITS - 1) / WBITS;
    if (N > MAX_REGS || (int64_t)nb * nw * 4 * WBITS > MAX_BITS || (int64_t)e->ncode * N > MAX_BITS) return -1;
    Word *in = NULL, *out = NULL;
    Word *adj = calloc((size_t)N * (size_t)nw, sizeof(Word)), *live = calloc((size_t)nw, sizeof(Word));
    int *ord = malloc((size_t)N * sizeof *ord), *col = malloc((size_t)N * sizeof *col);
    int rc = -1;
    if (!adj || !live || !ord || !col || backend_liveness(e, &in, &out) != 0) goto done;
    RegUse u;
    /* interference, live ranges and the most registers live at once */
    int max_live = 0;
    for (int b = 0; b < nb; b++) {
        memcpy(live, &out[(size_t)b * nw], (size_t)nw * sizeof(Word));
        for (int64_t pc = e->blocks[b].last; pc >= (int64_t)e->blocks[b].first; pc--) {
            const Instr *x = &e->code[pc];
            backend_reg_use(e, x, &u);
            for (int i = 0; i < u.nwr; i++) {
                int d = u.wr[i], cd = reg_class(e, d, rows);
                for (int j = 0; j < N; j++)
                    if (j != d && test(live, j) && cd == reg_class(e, j, rows)) { set(&adj[(size_t)d * nw], j); set(&adj[(size_t)j * nw], d); }
                /* a dead write still needs its register for a moment */
                for (int k = i + 1; k < u.nwr; k++)
                    if (u.wr[k] != d && cd == reg_class(e, u.wr[k], rows)) { set(&adj[(size_t)d * nw], u.wr[k]); set(&adj[(size_t)u.wr[k] * nw], d); }
                /* rows: nor with what the instruction reads */
                for (int k = 0; rows && k < u.nrd; k++)
                    if (u.rd[k] != d && cd == reg_class(e, u.rd[k], rows)) { set(&adj[(size_t)d * nw], u.rd[k]); set(&adj[(size_t)u.rd[k] * nw], d); }
            }
            int here = 0;
            for (int j = 0; j < nr; j++) if (test(live, j)) here += width(e, j);
            for (int i = 0; i < u.nwr; i++) if (u.wr[i] < nr && !test(live, u.wr[i])) here += width(e, u.wr[i]);
            if (here > max_live) max_live = here;
            /* the live range covers pcs where the value is live after, written or read */
            for (int j = 0; j < nr; j++) if (test(live, j)) touch(ra, j, (uint32_t)pc);
            for (int i = 0; i < u.nwr; i++) if (u.wr[i] < nr) touch(ra, u.wr[i], (uint32_t)pc);
            for (int i = 0; i < u.nrd; i++) if (u.rd[i] < nr) touch(ra, u.rd[i], (uint32_t)pc);
            for (int i = 0; i < u.nwr; i++) if (x->guard == REG_NONE) clr(live, u.wr[i]);
            for (int i = 0; i < u.nrd; i++) set(live, u.rd[i]);
        }
    }
    /* registers live on entry (read before any write) are live together */
    for (int i = 0; i < N; i++) {
        if (!test(&in[0], i)) continue;
        for (int j = 0; j < N; j++)
            if (j != i && test(&in[0], j) && reg_class(e, i, rows) == reg_class(e, j, rows)) set(&adj[(size_t)i * nw], j);
    }
    /* colour value registers, then predicates, in order of first
     * appearance; rows: the 32-bit ones, then the 64-bit ones, a row each */
    for (int i = 0; i < N; i++) col[i] = -1;
    int n0 = in_order(e, rows, 0, ord);
    if (n0 < 0) goto done;
    int used = colour(e, N, nw, adj, ord, n0, col, rows);   /* rows: one row each */
    if (rows) {
        int n1 = in_order(e, rows, 1, ord);
        if (n1 < 0) goto done;
        ra->wide = colour(e, N, nw, adj, ord, n1, col, 1);
        if (used > MAX_COLOURS || ra->wide > MAX_COLOURS) goto done;   /* no row was free: some share one */
    }
    int n2 = in_order(e, rows, 2, ord);
    if (n2 < 0) goto done;
    ra->preds = colour(e, N, nw, adj, ord, n2, col, 1);
    for (int r = 0; r < nr; r++) ra->phys[r] = col[r];
    for (int r = 0; r < np; r++) ra->pphys[r] = col[nr + r];
    ra->colours = used;
    ra->max_live = max_live;
    int regs = used + BACKEND_RESERVED_REGS;
    regs = (regs + BACKEND_REG_GRANULE - 1) / BACKEND_REG_GRANULE * BACKEND_REG_GRANULE;
    ra->regs = regs < BACKEND_MIN_REGS ? BACKEND_MIN_REGS : regs;
    rc = 0;
done:
    free(in); free(out); free(adj); free(live); free(ord); free(col);
    return rc;
}

int backend_regalloc(const Entry *e, RegAlloc *ra) { return allocate(e, ra, 0); }

int backend_reg_rows(const Entry *e, RegAlloc *ra)
{
    /* the liveness needs e's own blocks: the machine order's are the
     * scheduled order's, which region scheduling and if-conversion moved
     * code across; cfg_build sets the branches' reconvergence pcs, so it
     * works on a copy of the code */
    memset(ra, 0, sizeof *ra);
    Entry c = *e;
    c.blocks = NULL;
    c.nblocks = 0;
    c.code = malloc((size_t)(e->ncode ? e->ncode : 1) * sizeof *c.code);
    int rc = -1;
    if (c.code) {
        memcpy(c.code, e->code, (size_t)e->ncode * sizeof *c.code);
        rc = cfg_build(&c) ? -1 : allocate(&c, ra, 1);
    }
    free(c.code);
    free(c.blocks);
    return rc;
}
