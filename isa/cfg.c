/* cfg.c - see cfg.h.
 *
 * Post-dominators are dominators of the reverse graph, rooted at a virtual
 * exit node that every ret/exit (and falling off the end) leads to.  Blocks
 * that cannot reach the exit (an infinite loop) get a virtual edge to it, so
 * every block has an immediate post-dominator.  Traversals use explicit
 * stacks: a fuzzed file may have millions of blocks.
 */
#include "cfg.h"

#include <stdlib.h>
#include <string.h>

int cfg_block_of(const Entry *e, uint32_t pc)
{
    int lo = 0, hi = e->nblocks - 1;
    while (lo <= hi) {
        int mid = (lo + hi) / 2;
        if (pc < e->blocks[mid].first) hi = mid - 1;
        else if (pc > e->blocks[mid].last) lo = mid + 1;
        else return mid;
    }
    return -1;
}

static int ends_thread(const Instr *in) { return in->op == OP_RET || in->op == OP_EXIT; }

/* Forward successors of each block. */
static void link_blocks(Entry *e, const int *block_of)
{
    uint32_t n = (uint32_t)e->ncode;
    for (int b = 0; b < e->nblocks; b++) {
        BasicBlock *bb = &e->blocks[b];
        const Instr *in = &e->code[bb->last];
        int fall = bb->last + 1 < n ? block_of[bb->last + 1] : -1;
        int guarded = in->guard != REG_NONE;
        bb->nsucc = 0;
        if (in->op == OP_BRA) {
            uint32_t t = (uint32_t)in->opd[0].imm;
            bb->succ[bb->nsucc++] = t < n ? block_of[t] : -1;
            if (guarded && fall != bb->succ[0]) bb->succ[bb->nsucc++] = fall;
        } else if (ends_thread(in)) {
            bb->succ[bb->nsucc++] = -1;
            if (guarded && fall != -1) bb->succ[bb->nsucc++] = fall;
        } else {
            bb->succ[bb->nsucc++] = fall;
        }
    }
}

/* Predecessor lists (CSR) of the forward graph, exit = node nblocks,
 * including the virtual edges b -> exit. */
static int build_preds(const Entry *e, const int *virt, int **pcount_out, int **preds_out)
{
    int nb = e->nblocks, nn = nb + 1;
    int *pcount = calloc((size_t)nn + 1, sizeof(int));
    if (!pcount) return -1;
    for (int b = 0; b < nb; b++) {
        for (int s = 0; s < e->blocks[b].nsucc; s++) {
            int t = e->blocks[b].succ[s];
            pcount[(t < 0 ? nb : t) + 1]++;
        }
        if (virt[b]) pcount[nb + 1]++;
    }
    for (int i = 0; i < nn; i++) pcount[i + 1] += pcount[i];
    int *preds = malloc((size_t)(pcount[nn] + 1) * sizeof(int));
    int *fill = malloc((size_t)nn * sizeof(int));
    if (!preds || !fill) { free(pcount); free(preds); free(fill); return -1; }
    memcpy(fill, pcount, (size_t)nn * sizeof(int));
    for (int b = 0; b < nb; b++) {
        for (int s = 0; s < e->blocks[b].nsucc; s++) {
            int t = e->blocks[b].succ[s];
            preds[fill[t < 0 ? nb : t]++] = b;
        }
        if (virt[b]) preds[fill[nb]++] = b;
    }
    free(fill);
    *pcount_out = pcount;
    *preds_out = preds;
    return 0;
}

/* Iterative depth-first search from root over the reverse graph, numbering
 * nodes in postorder. */
static void dfs_post(int root, const int *pcount, const int *preds, char *seen, int *stack,
                     int *post, int *order, int *counter)
{
    int sp = 0;
    stack[sp++] = root;
    stack[sp++] = 0;
    seen[root] = 1;
    while (sp) {
        int x = stack[sp - 2], k = stack[sp - 1];
        if (k < pcount[x + 1] - pcount[x]) {
            stack[sp - 1]++;
            int y = preds[pcount[x] + k];
            if (!seen[y]) { seen[y] = 1; stack[sp++] = y; stack[sp++] = 0; }
        } else {
            post[x] = *counter;
            order[(*counter)++] = x;
            sp -= 2;
        }
    }
}

int cfg_build(Entry *e)
{
    free(e->blocks);
    e->blocks = NULL;
    e->nblocks = 0;
    int n = e->ncode;
    if (n == 0) return 0;

    char *leader = calloc((size_t)n, 1);
    int *block_of = malloc((size_t)n * sizeof *block_of);
    if (!leader || !block_of) { free(leader); free(block_of); return -1; }
    leader[0] = 1;
    for (int pc = 0; pc < n; pc++) {
        const Instr *in = &e->code[pc];
        if (in->op == OP_BRA) {
            int64_t t = in->opd[0].imm;
            if (t >= 0 && t < n) leader[t] = 1;
            if (pc + 1 < n) leader[pc + 1] = 1;
        } else if (ends_thread(in) && pc + 1 < n) {
            leader[pc + 1] = 1;
        }
    }
    int nb = 0, nn_order = 0;
    for (int pc = 0; pc < n; pc++) nb += leader[pc];
    e->blocks = calloc((size_t)nb, sizeof *e->blocks);
    if (!e->blocks) { free(leader); free(block_of); return -1; }
    for (int pc = 0, b = -1; pc < n; pc++) {
        if (leader[pc]) { b++; e->blocks[b].first = (uint32_t)pc; }
        e->blocks[b].last = (uint32_t)pc;
        block_of[pc] = b;
    }
    e->nblocks = nb;
    link_blocks(e, block_of);
    free(leader);

    /* Reverse graph: node nb is the exit; rsucc(x) = forward preds of x. */
    int exitn = nb, nn = nb + 1;
    int *virt = calloc((size_t)nn, sizeof(int));        /* virtual edge to exit */
    int *post = malloc((size_t)nn * sizeof(int));       /* postorder number */
    int *order = malloc((size_t)nn * sizeof(int));      /* nodes by postorder */
    int *idom = malloc((size_t)nn * sizeof(int));
    int *stack = malloc((size_t)nn * 2 * sizeof(int));
    char *seen = calloc((size_t)nn, 1);
    int *pcount = NULL, *preds = NULL;
    if (!virt || !post || !order || !idom || !stack || !seen) goto nomem;

    /* First find the blocks that cannot reach the exit and give the last of
     * each such region a virtual edge to it; then number the reverse graph in
     * postorder from the exit, which must come last for the algorithm. */
    for (int pass = 0; pass < 2; pass++) {
        free(pcount); free(preds);
        if (build_preds(e, virt, &pcount, &preds)) goto nomem;
        memset(seen, 0, (size_t)nn);
        int counter = 0;
        for (int root = exitn; root >= 0; root--) {
            if (seen[root]) continue;
            if (pass == 1) break;            /* everything is reached from the exit */
            if (root != exitn) virt[root] = 1;
            dfs_post(root, pcount, preds, seen, stack, post, order, &counter);
        }
        if (pass == 1) {
            dfs_post(exitn, pcount, preds, seen, stack, post, order, &counter);
            nn_order = counter;
        }
    }

    /* Cooper-Harvey-Kennedy: idom over the reverse graph, whose
     * predecessors are the forward successors (and the virtual exit edge). */
    for (int i = 0; i < nn; i++) idom[i] = -1;
    idom[exitn] = exitn;
    for (int changed = 1; changed;) {
        changed = 0;
        for (int i = nn_order - 1; i >= 0; i--) {
            int b = order[i];
            if (b == exitn) continue;
            int nidom = -1;
            int cand[3], nc = 0;
            for (int s = 0; s < e->blocks[b].nsucc; s++) cand[nc++] = e->blocks[b].succ[s] < 0 ? exitn : e->blocks[b].succ[s];
            if (virt[b]) cand[nc++] = exitn;
            for (int c = 0; c < nc; c++) {
                int p = cand[c];
                if (idom[p] < 0) continue;
                if (nidom < 0) { nidom = p; continue; }
                int f1 = p, f2 = nidom;
                while (f1 != f2) {
                    while (post[f1] < post[f2]) f1 = idom[f1];
                    while (post[f2] < post[f1]) f2 = idom[f2];
                }
                nidom = f1;
            }
            if (nidom >= 0 && idom[b] != nidom) { idom[b] = nidom; changed = 1; }
        }
    }
    for (int b = 0; b < nb; b++) {
        e->blocks[b].ipdom = (idom[b] == exitn || idom[b] < 0) ? -1 : idom[b];
        Instr *in = &e->code[e->blocks[b].last];
        if (in->op == OP_BRA)
            in->reconv = e->blocks[b].ipdom < 0 ? (uint32_t)n : e->blocks[e->blocks[b].ipdom].first;
    }
    free(preds); free(pcount); free(seen);
    free(virt); free(post); free(order); free(idom); free(stack); free(block_of);
    return 0;
nomem:
    free(preds); free(pcount); free(seen);
    free(virt); free(post); free(order); free(idom); free(stack); free(block_of);
    return -1;
}
