/* step.c - see step.h. */
#include "sim/front/step.h"

#include <inttypes.h>
#include <stdio.h>

#include "isa/disasm.h"

static void mask_bits(char *buf, LaneMask m, int ws)
{
    /* lane 0 on the left, as students draw warps */
    for (int l = 0; l < ws; l++) buf[l] = ((m >> l) & 1u) ? '1' : '.';
    buf[ws] = '\0';
}

void step_print(void *ctx, const Timing *t, const Sm *sm, uint64_t skipped)
{
    FILE *f = ctx;
    const Program *p = t->k->prog;
    const Entry *e = t->k->entry;
    int ws = t->k->warp_size;
    char text[160], bits[WARP_MAX + 1];
    if (skipped) fprintf(f, "   ... %" PRIu64 " cycle%s in which nothing changes\n", skipped, skipped == 1 ? "" : "s");
    fprintf(f, "cycle %" PRIu64 "  SM %d\n", t->now, sm->id);
    for (int s = 0; s < sm->nsched && s < 8; s++) {
        if (sm->issued[s] < 0) { fprintf(f, "  scheduler %d: no warp ready\n", s); continue; }
        const SmWarp *sw = &sm->slots[sm->issued[s]];
        uint32_t pc = sm->issued_pc[s];
        if (pc < (uint32_t)e->ncode) disasm_instr(p, e, &e->code[pc], text, sizeof text);
        else snprintf(text, sizeof text, "(end of code)");
        fprintf(f, "  scheduler %d: issued block %" PRIu64 " warp %d  pc %u (line %u): %s\n", s, sw->w->cta->linear,
                sw->w->id, pc, pc < (uint32_t)e->ncode ? e->code[pc].line : 0, text);
    }
    fprintf(f, "  %-5s %-6s %-5s %4s %5s  %-*s  %s\n", "slot", "block", "warp", "pc", "line", ws, "active lanes", "state");
    const SmWarp *chosen = NULL;
    for (int i = 0; i < sm->nslots; i++) {
        const SmWarp *sw = &sm->slots[i];
        if (!sw->resident) continue;
        const Warp *w = sw->w;
        int done = warp_done(w);
        uint32_t pc = done ? 0 : w->simt.e[w->simt.depth - 1].pc;
        mask_bits(bits, done ? 0 : w->simt.e[w->simt.depth - 1].mask, ws);
        fprintf(f, "  %-5d %-6" PRIu64 " %-5d %4u %5u  %s  %s\n", i, w->cta->linear, w->id, pc,
                (!done && pc < (uint32_t)e->ncode) ? e->code[pc].line : 0, bits, stall_names[sw->state]);
        if (w->id == t->step->warp && (!chosen || chosen->w->cta->linear > w->cta->linear)) chosen = sw;
    }
    if (!chosen || warp_done(chosen->w)) return;
    const SimtStack *st = &chosen->w->simt;
    fprintf(f, "  SIMT stack of block %" PRIu64 " warp %d (top first):\n", chosen->w->cta->linear, chosen->w->id);
    for (int d = st->depth - 1; d >= 0; d--) {
        mask_bits(bits, st->e[d].mask, ws);
        if (st->e[d].rpc == SIMT_NO_RPC)
            fprintf(f, "    pc %4u  reconverge -     %s\n", st->e[d].pc, bits);
        else
            fprintf(f, "    pc %4u  reconverge %-4u  %s\n", st->e[d].pc, st->e[d].rpc, bits);
    }
}
