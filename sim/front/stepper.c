/* stepper.c - see stepper.h. */
#include "sim/front/stepper.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

#include "isa/disasm.h"

enum { MAX_BREAKS = 16, HISTORY = 32, LINE_MAX_CHARS = 200 };

typedef enum Mode { MODE_CYCLE, MODE_STEP, MODE_CONTINUE, MODE_DETACHED } Mode;

typedef struct Break { uint32_t line; int64_t block; int warp; } Break;

struct Stepper {
    FILE *in, *out;
    Observer inner;              /* the trace's, or all NULL */
    int has_inner;
    int first_sm, first_warp;
    /* the focused warp: block fblock (-1: the lowest on first_sm), warp fwarp */
    int64_t fblock;
    int fwarp;
    int focus_sm;                /* where the focused block was last seen, -1 */
    Mode mode;
    int focus_issued;            /* MODE_STEP: the focused warp issued */
    int stop;                    /* a breakpoint or watch fired: stop at the focus SM */
    char why[400];
    Break bp[MAX_BREAKS]; int nbp;
    /* the watched word: global address, or shared offset of block wblock */
    int watching, wshared;
    uint64_t waddr;
    int64_t wblock;
    char wname[80];
    uint32_t wval;
    int wknown;
    char writer[200];
    char last[120];              /* the last command: Enter repeats it */
    char hist[HISTORY][LINE_MAX_CHARS];   /* earlier commands, oldest first (up/down arrows) */
    int nhist;
};

static const char help_line[] =
    "n next cycle | s next instruction of the focused warp | c continue | b LINE [if block=B warp=W] | "
    "w ADDR (out[5], tile[3], 0x10000010) | p %REG | f BLOCK WARP | q run to the end | h help\n";

Stepper *stepper_create(FILE *in, FILE *out, int sm, int warp, const Observer *inner)
{
    Stepper *s = calloc(1, sizeof *s);
    if (!s) return NULL;
    s->in = in;
    s->out = out;
    if (inner) { s->inner = *inner; s->has_inner = 1; }
    s->first_sm = sm;
    s->first_warp = warp;
    s->fblock = -1;
    s->fwarp = warp;
    s->focus_sm = -1;
    s->mode = MODE_CYCLE;
    snprintf(s->last, sizeof s->last, "n");
    return s;
}

void stepper_destroy(Stepper *s) { free(s); }

/* ---- what the observer sees ------------------------------------------------------------ */
static void on_state(void *ctx, const TraceWarp *w, StallReason r, uint64_t from, uint64_t to, uint32_t line)
{
    Stepper *s = ctx;
    if (s->has_inner) s->inner.state(s->inner.ctx, w, r, from, to, line);
}

static void on_sample(void *ctx, uint64_t cycle, uint64_t inst, const MemStats *ms, const Stats *st, const MemSys *sys,
                      int last)
{
    Stepper *s = ctx;
    if (s->has_inner && s->inner.sample) s->inner.sample(s->inner.ctx, cycle, inst, ms, st, sys, last);
}

static int watched_store(const Stepper *s, const TraceWarp *w, const MemAccess *m, int *lane)
{
    if (!s->watching || !m || !m->is_store || (int)m->space != (s->wshared ? SP_SHARED : SP_GLOBAL)) return 0;
    if (s->wshared && (int64_t)w->cta != s->wblock) return 0;
    for (int l = 0; l < WARP_MAX; l++)
        if (((m->mask >> l) & 1u) && m->addr[l] < s->waddr + 4 && m->addr[l] + m->bytes > s->waddr) {
            *lane = l;
            return 1;
        }
    return 0;
}

/* Breakpoints, `s` and the watched word's last writer, at each issue.  The
 * line is looked up by the stop (it needs the program), so the observer
 * keeps the pc of a breakpoint candidate in why. */
static void on_issue(void *ctx, const TraceWarp *w, uint64_t cycle, uint32_t pc, LaneMask active, LaneMask exec,
                     const MemAccess *mem)
{
    Stepper *s = ctx;
    if (s->has_inner) s->inner.issue(s->inner.ctx, w, cycle, pc, active, exec, mem);
    if (s->mode == MODE_DETACHED) return;
    if ((int64_t)w->cta == s->fblock && w->warp == s->fwarp) s->focus_issued = 1;
    int lane;
    if (watched_store(s, w, mem, &lane))
        snprintf(s->writer, sizeof s->writer, "block %" PRIu64 " warp %d lane %d, pc %u, cycle %" PRIu64, w->cta,
                 w->warp, lane, pc, cycle);
    (void)active;
}

Observer stepper_observer(Stepper *s)
{
    Observer o = { s, on_state, on_issue, on_sample, s->has_inner ? s->inner.sample_every : 0 };
    return o;
}

/* ---- the screen ------------------------------------------------------------------------- */
static void mask_bits(char *buf, LaneMask m, int ws)
{
    for (int l = 0; l < ws; l++) buf[l] = ((m >> l) & 1u) ? '1' : '.';
    buf[ws] = '\0';
}

static const SmWarp *focus_warp(const Stepper *s, const Sm *sm)
{
    for (int i = 0; i < sm->nslots; i++) {
        const SmWarp *sw = &sm->slots[i];
        if (sw->resident && (int64_t)sw->w->cta->linear == s->fblock && sw->w->id == s->fwarp) return sw;
    }
    return NULL;
}

static int issued_slot(const Sm *sm, int slot)
{
    for (int k = 0; k < sm->nsched && k < 8; k++)
        if (sm->issued[k] == slot) return k;
    return -1;
}

static void show_warps(const Stepper *s, const Timing *t, const Sm *sm)
{
    const Entry *e = t->k->entry;
    int ws = t->k->warp_size;
    char bits[WARP_MAX + 1], text[160];
    fprintf(s->out, "  %-5s %-6s %-5s %4s %5s  %-*s  %s\n", "slot", "block", "warp", "pc", "line", ws, "active lanes", "state");
    for (int i = 0; i < sm->nslots; i++) {
        const SmWarp *sw = &sm->slots[i];
        if (!sw->resident) continue;
        const Warp *w = sw->w;
        int done = warp_done(w), k = issued_slot(sm, i);
        /* a warp that issued this cycle shows the pc that issued, not the next one */
        uint32_t pc = k >= 0 ? sm->issued_pc[k] : done ? 0 : w->simt.e[w->simt.depth - 1].pc;
        mask_bits(bits, done ? 0 : w->simt.e[w->simt.depth - 1].mask, ws);
        int focus = (int64_t)w->cta->linear == s->fblock && w->id == s->fwarp;
        if (k >= 0 && pc < (uint32_t)e->ncode) disasm_instr(t->k->prog, e, &e->code[pc], text, sizeof text);
        fprintf(s->out, "%c %-5d %-6" PRIu64 " %-5d %4u %5u  %s  %s%s%s\n", focus ? '*' : ' ', i, w->cta->linear, w->id,
                pc, (!done && pc < (uint32_t)e->ncode) ? e->code[pc].line : 0, bits,
                k >= 0 ? "issued: " : stall_names[sw->state], k >= 0 && pc < (uint32_t)e->ncode ? text : "", "");
    }
}

static const char *reg_name(const Entry *e, int r)
{
    return r < e->nregs ? e->regs[r].name : r - e->nregs < e->npreds ? e->preds[r - e->nregs].name : "?";
}

/* The registers the warp's scoreboard still waits on, and for what. */
static void show_scoreboard(const Stepper *s, const Timing *t, const SmWarp *sw)
{
    const Entry *e = t->k->entry;
    int n = 0;
    for (int r = 0; r < e->nregs + e->npreds; r++) {
        if (sw->sb.ready[r] <= t->now) continue;
        const char *why = sw->sb.kind[r] == PEND_LONG ? "long_scoreboard (global/local load)"
                        : sw->sb.kind[r] == PEND_SHORT ? "short_scoreboard (shared, shuffle or SFU)"
                        : sw->sb.kind[r] == PEND_IMC ? "imc_miss (constant cache)" : "wait (fixed latency)";
        if (!n++) fprintf(s->out, "  scoreboard:");
        if (sw->sb.ready[r] == SB_NEVER) fprintf(s->out, " %s: %s, until the memory system answers;", reg_name(e, r), why);
        else fprintf(s->out, " %s: %s, ready at cycle %" PRIu64 ";", reg_name(e, r), why, sw->sb.ready[r]);
    }
    fputs(n ? "\n" : "  scoreboard: nothing pending\n", s->out);
}

static void show_focus(const Stepper *s, const Timing *t, const Sm *sm)
{
    const SmWarp *sw = focus_warp(s, sm);
    if (!sw) {
        fprintf(s->out, "focus: block %" PRId64 " warp %d is not on SM %d now\n", s->fblock, s->fwarp, sm->id);
        return;
    }
    const Warp *w = sw->w;
    const Entry *e = t->k->entry;
    int ws = t->k->warp_size;
    char bits[WARP_MAX + 1], text[160];
    if (warp_done(w)) {
        fprintf(s->out, "focus: block %" PRId64 " warp %d has finished\n", s->fblock, s->fwarp);
        return;
    }
    const SimtStack *st = &w->simt;
    uint32_t pc = st->e[st->depth - 1].pc;
    if (pc < (uint32_t)e->ncode) disasm_instr(t->k->prog, e, &e->code[pc], text, sizeof text);
    else snprintf(text, sizeof text, "(end of code)");
    fprintf(s->out, "focus: block %" PRId64 " warp %d, next pc %u (line %u): %s\n", s->fblock, s->fwarp, pc,
            pc < (uint32_t)e->ncode ? e->code[pc].line : 0, text);
    mask_bits(bits, st->e[st->depth - 1].mask, ws);
    fprintf(s->out, "  active mask %s   state %s\n", bits, stall_names[sw->state]);
    fprintf(s->out, "  SIMT stack (top first):\n");
    for (int d = st->depth - 1; d >= 0; d--) {
        mask_bits(bits, st->e[d].mask, ws);
        if (st->e[d].rpc == SIMT_NO_RPC) fprintf(s->out, "    pc %4u  reconverge -     %s\n", st->e[d].pc, bits);
        else fprintf(s->out, "    pc %4u  reconverge %-4u  %s\n", st->e[d].pc, st->e[d].rpc, bits);
    }
    show_scoreboard(s, t, sw);
}

static void show(Stepper *s, const Timing *t, const Sm *sm)
{
    const Entry *e = t->k->entry;
    char text[160];
    fprintf(s->out, "\ncycle %" PRIu64 "  SM %d%s%s\n", t->now, sm->id, s->why[0] ? "   stopped: " : "", s->why);
    s->why[0] = '\0';
    for (int k = 0; k < sm->nsched && k < 8; k++) {
        if (sm->issued[k] < 0) continue;
        uint32_t pc = sm->issued_pc[k];
        const Warp *w = sm->slots[sm->issued[k]].w;
        if (pc < (uint32_t)e->ncode) disasm_instr(t->k->prog, e, &e->code[pc], text, sizeof text);
        else snprintf(text, sizeof text, "(end of code)");
        fprintf(s->out, "  scheduler %d issued block %" PRIu64 " warp %d  pc %u (line %u): %s\n", k, w->cta->linear,
                w->id, pc, pc < (uint32_t)e->ncode ? e->code[pc].line : 0, text);
    }
    show_warps(s, t, sm);
    show_focus(s, t, sm);
}

/* ---- watched words ----------------------------------------------------------------------- */
static const Cta *cta_on(const Sm *sm, int64_t block)
{
    for (int i = 0; i < sm->nctas; i++)
        if (sm->ctas[i].used && (int64_t)sm->ctas[i].cta.linear == block) return &sm->ctas[i].cta;
    return NULL;
}

/* The watched word's value now; 0 if it cannot be read from here. */
static int watched_value(const Stepper *s, const Timing *t, const Sm *sm, uint32_t *v)
{
    if (s->wshared) {
        const Cta *c = cta_on(sm, s->wblock);
        if (!c || s->waddr + 4 > c->smem_bytes) return 0;
        memcpy(v, c->smem + s->waddr, 4);
        return 1;
    }
    const Region *r = mem_find(t->k->mem, s->waddr, 4);
    if (!r) return 0;
    memcpy(v, r->data + (s->waddr - r->base), 4);
    return 1;
}

static void check_watch(Stepper *s, const Timing *t, const Sm *sm)
{
    uint32_t v;
    if (!s->watching || !watched_value(s, t, sm, &v)) return;
    if (s->wknown && v != s->wval) {
        float fo, fn;
        memcpy(&fo, &s->wval, 4);
        memcpy(&fn, &v, 4);
        snprintf(s->why, sizeof s->why, "watch: %s changed from %u (%g as .f32) to %u (%g), written by %s", s->wname,
                 s->wval, (double)fo, v, (double)fn, s->writer[0] ? s->writer : "(unknown)");
        s->stop = 1;
        /* focus on the writer: its block and warp */
        int64_t b;
        int w;
        if (sscanf(s->writer, "block %" SCNd64 " warp %d", &b, &w) == 2) { s->fblock = b; s->fwarp = w; }
    }
    s->wval = v;
    s->wknown = 1;
}

/* "out[5]" (a buffer), "tile[3]" (a shared array of the focused block),
 * or an address (global). */
static int parse_addr(Stepper *s, const Timing *t, const char *arg)
{
    const Program *p = t->k->prog;
    char name[64];
    long long idx;
    if (sscanf(arg, "%63[A-Za-z0-9_][%lld]", name, &idx) == 2 && idx >= 0) {
        for (int i = 0; i < p->nbuffers; i++) {
            if (strcmp(p->buffers[i].name, name)) continue;
            const Region *r = mem_region_of_buffer(t->k->mem, i);
            int es = isa_type_bits((DataType)p->buffers[i].type) / 8;
            s->wshared = 0;
            s->waddr = r->base + (uint64_t)idx * (uint64_t)(es > 0 ? es : 1);
            snprintf(s->wname, sizeof s->wname, "%s[%lld]", name, idx);
            return 0;
        }
        for (int i = 0; i < p->nvars; i++) {
            const Var *v = &p->vars[i];
            if (strcmp(v->name, name) || v->space != SP_SHARED) continue;
            int es = isa_type_bits((DataType)v->type) / 8;
            s->wshared = 1;
            s->wblock = s->fblock;
            s->waddr = v->offset + (uint64_t)idx * (uint64_t)(es > 0 ? es : 1);
            if (snprintf(s->wname, sizeof s->wname, "%s[%lld] of block %" PRId64, name, idx, s->fblock) >=
                (int)sizeof s->wname)
                memcpy(s->wname + sizeof s->wname - 4, "...", 4);   /* a long name, cut */
            return 0;
        }
        return -1;
    }
    char *end;
    unsigned long long a = strtoull(arg, &end, 0);
    if (end == arg || *end) return -1;
    s->wshared = 0;
    s->waddr = a & ~3ull;
    snprintf(s->wname, sizeof s->wname, "global 0x%llx", (unsigned long long)s->waddr);
    return 0;
}

/* ---- commands ------------------------------------------------------------------------------ */
static void print_reg(Stepper *s, const Timing *t, const Sm *sm, const char *name)
{
    const Entry *e = t->k->entry;
    const SmWarp *sw = focus_warp(s, sm);
    if (!sw) { fprintf(s->out, "no focused warp on this SM (f BLOCK WARP)\n"); return; }
    int ws = t->k->warp_size;
    LaneMask valid = sw->w->valid;
    for (int i = 0; i < e->npreds; i++) {
        if (strcmp(e->preds[i].name, name)) continue;
        char bits[WARP_MAX + 1];
        for (int l = 0; l < ws; l++) bits[l] = !((valid >> l) & 1u) ? ' ' : ((sw->w->p[i] >> l) & 1u) ? '1' : '0';
        bits[ws] = '\0';
        fprintf(s->out, "%s, lanes 0-%d: %s\n", name, ws - 1, bits);
        return;
    }
    for (int r = 0; r < e->nregs; r++) {
        if (strcmp(e->regs[r].name, name)) continue;
        /* the declared type, else nvcc's naming: %f 32-bit floats, %fd 64-bit */
        DataType ty = (DataType)e->regs[r].type;
        if (ty == T_NONE && !strncmp(name, "%fd", 3)) ty = T_F64;
        else if (ty == T_NONE && !strncmp(name, "%f", 2)) ty = T_F32;
        fprintf(s->out, "%s of block %" PRId64 " warp %d, by lane:", name, s->fblock, s->fwarp);
        for (int l = 0; l < ws; l++) {
            if (!((valid >> l) & 1u)) continue;
            uint64_t v = reg_get(t->k, sw->w, r, l);
            if (l % 8 == 0) fprintf(s->out, "\n  %2d:", l);
            if (ty == T_F32) { float f; uint32_t u = (uint32_t)v; memcpy(&f, &u, 4); fprintf(s->out, " %10g", (double)f); }
            else if (ty == T_F64) { double d; memcpy(&d, &v, 8); fprintf(s->out, " %10g", d); }
            else if (e->regs[r].bits == 64) fprintf(s->out, " 0x%" PRIx64, v);
            else fprintf(s->out, " %10" PRId32, (int32_t)(uint32_t)v);
        }
        fputc('\n', s->out);
        return;
    }
    fprintf(s->out, "no register %s in %s\n", name, e->name);
}

static void add_break(Stepper *s, const Timing *t, const char *args)
{
    Break b = { 0, -1, -1 };
    unsigned line;
    int n = 0;
    if (sscanf(args, "%u%n", &line, &n) != 1) { fputs("b LINE [if block=B warp=W]\n", s->out); return; }
    b.line = line;
    const char *rest = args + n;
    const char *x;
    if ((x = strstr(rest, "block="))) b.block = strtoll(x + 6, NULL, 10);
    if ((x = strstr(rest, "warp="))) b.warp = (int)strtol(x + 5, NULL, 10);
    const Entry *e = t->k->entry;
    int has_code = 0;
    for (int pc = 0; pc < e->ncode && !has_code; pc++) has_code = e->code[pc].line == line;
    if (!has_code) { fprintf(s->out, "line %u has no instruction\n", line); return; }
    if (s->nbp == MAX_BREAKS) { fputs("too many breakpoints\n", s->out); return; }
    s->bp[s->nbp++] = b;
    fprintf(s->out, "breakpoint %d at line %u", s->nbp, line);
    if (b.block >= 0) fprintf(s->out, " if block=%" PRId64, b.block);
    if (b.warp >= 0) fprintf(s->out, "%s warp=%d", b.block >= 0 ? "" : " if", b.warp);
    fputc('\n', s->out);
}

int stepper_command(Stepper *s, const Timing *t, const Sm *sm, const char *line)
{
    while (*line == ' ') line++;
    if (!*line) line = s->last;
    else snprintf(s->last, sizeof s->last, "%s", line);
    const char *arg = line + 1;
    while (*arg == ' ') arg++;
    switch (line[0]) {
    case 'n': s->mode = MODE_CYCLE; return 1;
    case 's': s->mode = MODE_STEP; s->focus_issued = 0; return 1;
    case 'c': s->mode = MODE_CONTINUE; return 1;
    case 'q': s->mode = MODE_DETACHED; return 1;
    case 'b': add_break(s, t, arg); return 0;
    case 'p': print_reg(s, t, sm, arg); return 0;
    case 'w':
        if (parse_addr(s, t, arg)) { fprintf(s->out, "w: no buffer, shared array or address '%s'\n", arg); return 0; }
        s->watching = 1;
        s->wknown = 0;
        s->writer[0] = '\0';
        check_watch(s, t, sm);
        fprintf(s->out, "watching %s (now %u)\n", s->wname, s->wval);
        return 0;
    case 'f': {
        long long b;
        int w;
        if (sscanf(arg, "%lld %d", &b, &w) != 2) { fputs("f BLOCK WARP\n", s->out); return 0; }
        s->fblock = b;
        s->fwarp = w;
        show_focus(s, t, sm);
        return 0;
    }
    case 'h': case '?': fputs(help_line, s->out); return 0;
    default: fprintf(s->out, "unknown command '%s': h for help\n", line); return 0;
    }
}

/* ---- reading a command: a small line editor ------------------------------------------- */
static void remember(Stepper *s, const char *line)
{
    if (!*line || (s->nhist && !strcmp(s->hist[s->nhist - 1], line))) return;
    if (s->nhist == HISTORY) { memmove(s->hist[0], s->hist[1], sizeof s->hist - sizeof s->hist[0]); s->nhist--; }
    snprintf(s->hist[s->nhist++], LINE_MAX_CHARS, "%s", line);
}

/* Show buf as the whole input line. */
static void redraw(Stepper *s, const char *buf)
{
    fprintf(s->out, "\r(gpusim) %s\033[K", buf);
}

/* One key of the line editor: printable characters, backspace, the up and
 * down arrows (history).  Returns 1 at Enter, -1 at end of input. */
static int edit_key(Stepper *s, int fd, char *buf, size_t *len, int *h)
{
    unsigned char ch, seq[2];
    if (read(fd, &ch, 1) != 1 || (ch == 4 && *len == 0)) return -1;      /* end of input, Ctrl-D */
    if (ch == '\r' || ch == '\n') { fputc('\n', s->out); return 1; }
    if ((ch == 127 || ch == 8) && *len) { buf[--*len] = '\0'; fputs("\b \b", s->out); return 0; }
    if (ch == 27 && read(fd, seq, 2) == 2 && seq[0] == '[' && (seq[1] == 'A' || seq[1] == 'B')) {
        if (seq[1] == 'A' && *h > 0) (*h)--;
        else if (seq[1] == 'B' && *h < s->nhist) (*h)++;
        snprintf(buf, LINE_MAX_CHARS, "%s", *h < s->nhist ? s->hist[*h] : "");
        *len = strlen(buf);
        redraw(s, buf);
        return 0;
    }
    if (ch >= 32 && ch < 127 && *len + 1 < LINE_MAX_CHARS) { buf[(*len)++] = (char)ch; buf[*len] = '\0'; fputc(ch, s->out); }
    return 0;
}

/* A command line into buf (LINE_MAX_CHARS): on a terminal with the editor
 * (the terminal's own echo and line mode off meanwhile), else a plain
 * line.  0, or -1 at end of input. */
static int read_command(Stepper *s, char *buf)
{
    int fd = fileno(s->in);
    struct termios old, raw;
    buf[0] = '\0';
    if (!isatty(fd) || tcgetattr(fd, &old)) {
        if (!fgets(buf, LINE_MAX_CHARS, s->in)) return -1;
        buf[strcspn(buf, "\r\n")] = '\0';
        return 0;
    }
    raw = old;
    raw.c_lflag &= (tcflag_t)~(ICANON | ECHO);   /* keys one by one; Ctrl-C still interrupts */
    raw.c_cc[VMIN] = 1;
    raw.c_cc[VTIME] = 0;
    tcsetattr(fd, TCSANOW, &raw);
    size_t len = 0;
    int h = s->nhist, rc;
    do {
        fflush(s->out);
        rc = edit_key(s, fd, buf, &len, &h);
    } while (rc == 0);
    tcsetattr(fd, TCSANOW, &old);
    if (rc < 0) return -1;
    remember(s, buf);
    return 0;
}

/* ---- the hook ------------------------------------------------------------------------------ */
static void breakpoints(Stepper *s, const Timing *t, const Sm *sm)
{
    const Entry *e = t->k->entry;
    for (int k = 0; k < sm->nsched && k < 8 && s->nbp; k++) {
        if (sm->issued[k] < 0 || sm->issued_pc[k] >= (uint32_t)e->ncode) continue;
        const Warp *w = sm->slots[sm->issued[k]].w;
        uint32_t line = e->code[sm->issued_pc[k]].line;
        for (int i = 0; i < s->nbp; i++) {
            const Break *b = &s->bp[i];
            if (b->line != line || (b->block >= 0 && b->block != (int64_t)w->cta->linear) ||
                (b->warp >= 0 && b->warp != w->id))
                continue;
            snprintf(s->why, sizeof s->why, "breakpoint %d, line %u, block %" PRIu64 " warp %d", i + 1, line,
                     w->cta->linear, w->id);
            s->fblock = (int64_t)w->cta->linear;
            s->fwarp = w->id;
            s->stop = 1;
            return;
        }
    }
}

static void on_cycle(void *ctx, const Timing *t, const Sm *sm, uint64_t skipped)
{
    Stepper *s = ctx;
    (void)skipped;
    if (s->mode == MODE_DETACHED) return;
    /* no focus yet, or the focused block left its SM: the lowest block there */
    if ((s->fblock < 0 && sm->id == s->first_sm) || (sm->id == s->focus_sm && !cta_on(sm, s->fblock))) {
        s->fblock = -1;
        for (int i = 0; i < sm->nctas; i++)
            if (sm->ctas[i].used && (s->fblock < 0 || (int64_t)sm->ctas[i].cta.linear < s->fblock))
                s->fblock = (int64_t)sm->ctas[i].cta.linear;
    }
    breakpoints(s, t, sm);
    check_watch(s, t, sm);
    if (!cta_on(sm, s->fblock)) return;          /* stops are shown on the focused warp's SM */
    s->focus_sm = sm->id;
    int go = s->stop || s->mode == MODE_CYCLE || (s->mode == MODE_STEP && s->focus_issued);
    if (!go) return;
    s->stop = 0;
    s->focus_issued = 0;
    show(s, t, sm);
    char line[LINE_MAX_CHARS];
    for (;;) {
        fprintf(s->out, "(gpusim) ");
        fflush(s->out);
        if (read_command(s, line)) { s->mode = MODE_DETACHED; fputc('\n', s->out); return; }
        if (stepper_command(s, t, sm, line)) return;
    }
}

GpuStep stepper_hook(Stepper *s)
{
    GpuStep g = { on_cycle, s, s->first_sm, s->first_warp, 1 };
    return g;
}
