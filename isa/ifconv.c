/* ifconv.c - if-conversion, as ptxas does it (see backend.h).
 *
 * A short forward branch around a block, `@%p bra L; I1 ... In; L:`, is
 * what CUDA's `if (c) { a few statements }` compiles to.  ptxas removes the
 * branch and guards the statements instead (`@!P0 LDS ...`, H100 SASS of
 * tests/validation/cuda/kernels_corpus.cu's dot_atomic), so every warp
 * issues them, with the lanes that branched switched off: Nsight counts
 * those warp instructions (and their shared-memory instructions) although no
 * lane runs them, and no branch is executed.  The machine entry does the
 * same: the branch becomes a folded no-op (a branch to the next pc, no
 * machine instruction) and I1..In take the guard, negated.  The memory a
 * kernel leaves is the same: exactly the lanes that did not branch run them.
 *
 * Converted only when it is plainly safe: I1..In are one basic block that
 * nothing else jumps into, unguarded, with no control flow, barrier, call,
 * atomic, warp-synchronous or asynchronous-copy instruction among them, none writes
 * the predicate, and they make at most BACKEND_IFCONV_MAX machine instructions.  A branch
 * to a `ret` stays: ptxas makes it an early `@P EXIT` (reduce_seq's last
 * `if (t == 0) out[b] = s[0];` runs in one warp on the H100).
 */
#include "backend.h"

#include <stdlib.h>

static int convertible(const Instr *in)
{
    switch ((Opcode)in->op) {
    case OP_BRA: case OP_RET: case OP_EXIT: case OP_CALL:
    case OP_BAR_SYNC: case OP_BARRIER_SYNC: case OP_BAR_ARRIVE: case OP_BARRIER_ARRIVE: case OP_BAR_WARP_SYNC:
    case OP_MEMBAR: case OP_FENCE: case OP_SHFL: case OP_VOTE: case OP_ACTIVEMASK: case OP_REDUX: case OP_MATCH:
    case OP_ATOM: case OP_RED:   /* ptxas keeps the branch (H100: dot_atomic, radix_digit_hist) */
    case OP_NANOSLEEP: case OP_CP_ASYNC: case OP_CP_ASYNC_COMMIT: case OP_CP_ASYNC_WAIT: case OP_CP_ASYNC_WAIT_ALL:
        return 0;
    default:
        return in->guard == REG_NONE;
    }
}

static int writes(const Entry *e, const Instr *in, int reg)
{
    RegUse u;
    backend_reg_use(e, in, &u);
    for (int i = 0; i < u.nwr; i++) if (u.wr[i] == reg) return 1;
    return 0;
}

int backend_if_convert(Entry *m)
{
    uint8_t *target = calloc((size_t)m->ncode + 1, 1);
    if (!target) return -1;
    for (int pc = 0; pc < m->ncode; pc++)
        if (m->code[pc].op == OP_BRA && m->code[pc].opd[0].imm >= 0 && m->code[pc].opd[0].imm <= m->ncode)
            target[m->code[pc].opd[0].imm] = 1;
    int converted = 0;
    for (int pc = 0; pc < m->ncode; pc++) {
        Instr *br = &m->code[pc];
        if (br->op != OP_BRA || br->guard == REG_NONE) continue;
        int64_t end = br->opd[0].imm;   /* L */
        if (end <= pc + 1 || end >= m->ncode) continue;
        /* a branch to the kernel's end becomes an early EXIT, not guards */
        const Instr *join = &m->code[end];
        if ((join->op == OP_RET || join->op == OP_EXIT) && join->guard == REG_NONE) continue;
        int ok = 1, size = 0;
        for (int64_t q = pc + 1; q < end && ok; q++) {
            size += m->code[q].minst;
            ok = size <= BACKEND_IFCONV_MAX && !target[q] && convertible(&m->code[q]) &&
                 !writes(m, &m->code[q], m->nregs + br->guard);
        }
        if (!ok) continue;
        for (int64_t q = pc + 1; q < end; q++) {
            m->code[q].guard = br->guard;
            m->code[q].guard_neg = (uint8_t)!br->guard_neg;
        }
        br->guard = REG_NONE;
        br->guard_neg = 0;
        br->opd[0].imm = pc + 1;
        br->reconv = (uint32_t)(pc + 1);
        br->minst = 0;
        br->mclass = MCLS_FOLDED;
        converted++;
    }
    free(target);
    return converted;
}
