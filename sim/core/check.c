/* check.c - see check.h. */
#include "sim/core/check.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const hazard_names[3] = { "read-after-write", "write-after-read", "write-after-write" };

enum { CHECK_CAP = 64 };       /* distinct findings kept; more are counted */

/* One access to a word in the current barrier interval: epoch is the
 * block's Cta.epoch + 1 (0: never), seq the warp's instruction count (two
 * lanes of one instruction are one access under independent scheduling). */
typedef struct Acc {
    uint32_t epoch, pc, seq;
    uint32_t wsync;           /* bar.warp.sync instructions its warp had issued */
    uint16_t warp;
    uint8_t lane;
} Acc;

/* A word's shadow: its last writer and up to two readers from different
 * threads in this interval (enough to name a write-after-read). */
typedef struct Word { Acc w, r1, r2; } Word;

/* Global words touched by a block: open addressing on word index + 1. */
typedef struct WordMap {
    uint64_t *key;
    Word *val;
    size_t cap, n;
} WordMap;

/* Where a register's value came from, per lane: the never-written register
 * it derives from and the pc that read it (pc1 = pc + 1; 0: clean). */
typedef struct Origin { uint32_t pc1; uint16_t reg; } Origin;

/* The registers one instruction reads and writes (regs_of), once per pc. */
typedef struct RegUse {
    uint8_t nrd, nwr;
    uint16_t rd[4 * ISA_MAX_OPS], wr[4 * ISA_MAX_OPS];
} RegUse;

struct CheckCta {
    Word *smem; uint32_t nwords;
    uint32_t *wsync;          /* per warp: bar.warp.sync issued (orders its lanes) */
    WordMap g;
    int nr;                   /* nregs + npreds */
    const RegUse *use;        /* per pc (the block's own copy: blocks of one launch share an entry) */
    LaneMask *written;        /* [warp * nr + reg] lanes that wrote it */
    LaneMask *tainted;        /* [warp * nr + reg] lanes whose origin is set */
    Origin *origin;           /* [(warp * nr + reg) * ws + lane] */
};

/* ---- the checker ------------------------------------------------------------ */
void check_init(Checker *c, unsigned flags, int its)
{
    memset(c, 0, sizeof *c);
    c->flags = flags;
    c->its = its;
}

void check_free(Checker *c)
{
    free(c->haz);
    free(c->un);
    c->haz = NULL;
    c->un = NULL;
    c->nhaz = c->nun = 0;
}

static CheckSite site(const Kernel *k, const Acc *a)
{
    CheckSite s = { a->pc, a->pc < (uint32_t)k->entry->ncode ? k->entry->code[a->pc].line : 0, a->warp, a->lane };
    return s;
}

static void add_hazard(Kernel *k, const Cta *cta, HazardKind kind, int space, uint64_t addr, const Acc *a,
                       const Acc *b)
{
    Checker *c = k->check;
    for (int i = 0; i < c->nhaz; i++) {
        Hazard *h = &c->haz[i];
        if (h->kind == kind && h->space == space && h->launch == k->launch_index && h->first.pc == a->pc &&
            h->second.pc == b->pc) { h->count++; return; }
    }
    if (c->nhaz == CHECK_CAP) { c->dropped++; return; }
    if (c->nhaz == c->haz_cap) {
        int cap = c->haz_cap ? 2 * c->haz_cap : 8;
        Hazard *n = realloc(c->haz, (size_t)cap * sizeof *n);
        if (!n) { c->dropped++; return; }
        c->haz = n;
        c->haz_cap = cap;
    }
    Hazard *h = &c->haz[c->nhaz++];
    memset(h, 0, sizeof *h);
    h->kind = (uint8_t)kind;
    h->space = (uint8_t)space;
    h->launch = k->launch_index;
    memcpy(h->cta, cta->id, sizeof h->cta);
    h->addr = addr;
    h->first = site(k, a);
    h->second = site(k, b);
    h->count = 1;
}

static void add_uninit(Kernel *k, const Warp *w, uint32_t pc, int reg, int lane)
{
    Checker *c = k->check;
    for (int i = 0; i < c->nun; i++) {
        UninitRead *u = &c->un[i];
        if (u->launch == k->launch_index && u->site.pc == pc && u->reg == reg) { u->count++; return; }
    }
    if (c->nun == CHECK_CAP) { c->dropped++; return; }
    if (c->nun == c->un_cap) {
        int cap = c->un_cap ? 2 * c->un_cap : 8;
        UninitRead *n = realloc(c->un, (size_t)cap * sizeof *n);
        if (!n) { c->dropped++; return; }
        c->un = n;
        c->un_cap = cap;
    }
    UninitRead *u = &c->un[c->nun++];
    memset(u, 0, sizeof *u);
    u->launch = k->launch_index;
    memcpy(u->cta, w->cta->id, sizeof u->cta);
    u->reg = (uint16_t)reg;
    u->is_pred = reg >= k->entry->nregs;
    Acc a = { 0, pc, 0, 0, (uint16_t)w->id, (uint8_t)lane };
    u->site = site(k, &a);
    u->count = 1;
}

static void regs_of(const Entry *e, const Instr *in, int *rd, int *nrd, int *wr, int *nwr);

/* ---- a block's shadow state ---------------------------------------------------- */
/* The registers each instruction of e reads and writes, or NULL. */
static RegUse *reg_uses(const Entry *e)
{
    RegUse *use = calloc((size_t)(e->ncode ? e->ncode : 1), sizeof *use);
    if (!use) return NULL;
    for (int pc = 0; pc < e->ncode; pc++) {
        int rd[4 * ISA_MAX_OPS], wr[4 * ISA_MAX_OPS], nrd, nwr;
        regs_of(e, &e->code[pc], rd, &nrd, wr, &nwr);
        use[pc].nrd = (uint8_t)nrd;
        use[pc].nwr = (uint8_t)nwr;
        for (int i = 0; i < nrd; i++) use[pc].rd[i] = (uint16_t)rd[i];
        for (int i = 0; i < nwr; i++) use[pc].wr[i] = (uint16_t)wr[i];
    }
    return use;
}

int check_cta_begin(Kernel *k, Cta *cta)
{
    const Entry *e = k->entry;
    struct CheckCta *s = calloc(1, sizeof *s);
    if (!s) return -1;
    cta->chk = s;
    s->nwords = (cta->smem_bytes + 3) / 4;
    s->nr = e->nregs + e->npreds;
    s->smem = calloc(s->nwords ? s->nwords : 1, sizeof *s->smem);
    s->wsync = calloc((size_t)(cta->nwarps ? cta->nwarps : 1), sizeof *s->wsync);
    if (!s->smem || !s->wsync) return -1;
    if (!(k->check->flags & CHECK_UNINIT)) return 0;     /* the register state only for uninit */
    size_t nreg = (size_t)cta->nwarps * (size_t)(s->nr ? s->nr : 1);
    s->written = calloc(nreg, sizeof *s->written);
    s->tainted = calloc(nreg, sizeof *s->tainted);
    s->origin = calloc(nreg * (size_t)k->warp_size, sizeof *s->origin);
    s->use = reg_uses(e);
    return s->written && s->tainted && s->origin && s->use ? 0 : -1;
}

void check_cta_end(Cta *cta)
{
    struct CheckCta *s = cta->chk;
    if (!s) return;
    free(s->smem);
    free(s->wsync);
    free(s->g.key);
    free(s->g.val);
    free((void *)s->use);
    free(s->written);
    free(s->tainted);
    free(s->origin);
    free(s);
    cta->chk = NULL;
}

/* The shadow of global word index wi (grows the map at half load). */
static Word *global_word(WordMap *m, uint64_t wi)
{
    if (2 * (m->n + 1) > m->cap) {
        size_t cap = m->cap ? 2 * m->cap : 1024;
        uint64_t *key = calloc(cap, sizeof *key);
        Word *val = calloc(cap, sizeof *val);
        if (!key || !val) { free(key); free(val); return NULL; }
        for (size_t i = 0; i < m->cap; i++) {
            if (!m->key[i]) continue;
            size_t j = (size_t)(m->key[i] * 0x9e3779b97f4a7c15ull) & (cap - 1);
            while (key[j]) j = (j + 1) & (cap - 1);
            key[j] = m->key[i];
            val[j] = m->val[i];
        }
        free(m->key);
        free(m->val);
        m->key = key;
        m->val = val;
        m->cap = cap;
    }
    uint64_t kk = wi + 1;
    size_t j = (size_t)(kk * 0x9e3779b97f4a7c15ull) & (m->cap - 1);
    while (m->key[j] && m->key[j] != kk) j = (j + 1) & (m->cap - 1);
    if (!m->key[j]) { m->key[j] = kk; m->n++; }
    return &m->val[j];
}

/* ---- races ---------------------------------------------------------------------- */
/* Ordered for the race rule: the same warp, and under independent thread
 * scheduling also the same lane, the same instruction, or a bar.warp.sync
 * (__syncwarp) of the warp between them. */
static int same(const Checker *c, const Acc *a, const Acc *b)
{
    return a->warp == b->warp && (!c->its || a->lane == b->lane || a->seq == b->seq || a->wsync != b->wsync);
}

static void touch(Kernel *k, Cta *cta, Word *s, int space, uint64_t addr, int is_store, const Acc *cur)
{
    const Checker *c = k->check;
    uint32_t e = cur->epoch;
    if (!is_store) {
        if (s->w.epoch == e && !same(c, &s->w, cur)) add_hazard(k, cta, HAZ_RAW, space, addr, &s->w, cur);
        if (s->r1.epoch != e) s->r1 = *cur;
        else if (!same(c, &s->r1, cur) && s->r2.epoch != e) s->r2 = *cur;
        return;
    }
    if (s->w.epoch == e && !same(c, &s->w, cur)) add_hazard(k, cta, HAZ_WAW, space, addr, &s->w, cur);
    if (s->r1.epoch == e && !same(c, &s->r1, cur)) add_hazard(k, cta, HAZ_WAR, space, addr, &s->r1, cur);
    else if (s->r2.epoch == e && !same(c, &s->r2, cur)) add_hazard(k, cta, HAZ_WAR, space, addr, &s->r2, cur);
    s->w = *cur;
}

void check_after(Kernel *k, Warp *w, uint32_t pc, const ExecOut *out)
{
    const Checker *c = k->check;
    const MemAccess *m = &out->mem;
    if (pc < (uint32_t)k->entry->ncode && k->entry->code[pc].op == OP_BAR_WARP_SYNC) w->cta->chk->wsync[w->id]++;
    if (!out->has_mem || m->is_atomic || !(c->flags & (CHECK_RACES | CHECK_RACES_GLOBAL))) return;
    int space = m->space;
    if (!((space == SP_SHARED && (c->flags & CHECK_RACES)) || (space == SP_GLOBAL && (c->flags & CHECK_RACES_GLOBAL))))
        return;
    Cta *cta = w->cta;
    struct CheckCta *s = cta->chk;
    Acc cur = { cta->epoch + 1, pc, (uint32_t)w->issued, s->wsync[w->id], (uint16_t)w->id, 0 };
    for (LaneMask mm = m->mask; mm; mm &= mm - 1) {
        int l = __builtin_ctz(mm);
        cur.lane = (uint8_t)l;
        for (uint64_t a = m->addr[l] & ~3ull; a < m->addr[l] + m->bytes; a += 4) {
            Word *sw = space == SP_SHARED ? (a / 4 < s->nwords ? &s->smem[a / 4] : NULL) : global_word(&s->g, a / 4);
            if (sw) touch(k, cta, sw, space, a, m->is_store, &cur);
        }
    }
}

/* ---- registers read before written ---------------------------------------------- */
/* Slots an instruction writes (as the scoreboard's deps): its destination,
 * slot 0, except for the formats without one; and the second predicate
 * destination of setp/shfl (slot 5). */
static int writes_slot(const Instr *in, int slot)
{
    Format f = isa_ops[in->op].format;
    if (slot == 5) return 1;
    if (slot != 0) return 0;
    return !(f == FMT_ST || f == FMT_RED || f == FMT_BRA || f == FMT_BAR || f == FMT_MASK || f == FMT_NONE);
}

/* The registers (value first, predicates at nregs + i) an instruction reads
 * and writes; returns the counts. */
static void regs_of(const Entry *e, const Instr *in, int *rd, int *nrd, int *wr, int *nwr)
{
    *nrd = *nwr = 0;
    for (int s = 0; s < ISA_MAX_OPS; s++) {
        const Operand *o = &in->opd[s];
        int w = writes_slot(in, s);
        switch ((OperandKind)o->kind) {
        case OPD_REG: if (w) wr[(*nwr)++] = o->r[0]; else rd[(*nrd)++] = o->r[0]; break;
        case OPD_PRED: if (w) wr[(*nwr)++] = e->nregs + o->r[0]; else rd[(*nrd)++] = e->nregs + o->r[0]; break;
        case OPD_MEM: if (o->r[0] != REG_NONE && !o->is_param) rd[(*nrd)++] = o->r[0]; break;
        case OPD_VEC:
            for (int i = 0; i < o->n; i++)
                if (o->r[i] != REG_NONE) { if (w) wr[(*nwr)++] = o->r[i]; else rd[(*nrd)++] = o->r[i]; }
            break;
        default: break;
        }
    }
}

void check_before(Kernel *k, Warp *w, uint32_t pc, LaneMask active, LaneMask exec)
{
    const Entry *e = k->entry;
    if (!(k->check->flags & CHECK_UNINIT) || pc >= (uint32_t)e->ncode) return;
    const Instr *in = &e->code[pc];
    struct CheckCta *s = w->cta->chk;
    int ws = k->warp_size, nr = s->nr;
    LaneMask *wrt = &s->written[(size_t)w->id * (size_t)nr], *tnt = &s->tainted[(size_t)w->id * (size_t)nr];
    Origin *org = &s->origin[(size_t)w->id * (size_t)nr * (size_t)ws];
    if (in->guard != REG_NONE) {
        int g = e->nregs + in->guard;
        LaneMask bad = active & ~wrt[g];
        if (bad) add_uninit(k, w, pc, g, __builtin_ctz(bad));
    }
    const RegUse *u = &s->use[pc];
    const uint16_t *rd = u->rd, *wr = u->wr;
    int nrd = u->nrd, nwr = u->nwr;
    LaneMask slow = 0;           /* lanes that read a never-written or tainted register */
    for (int i = 0; i < nrd; i++) {
        LaneMask bad = exec & ~wrt[rd[i]];
        if (bad) add_uninit(k, w, pc, rd[i], __builtin_ctz(bad));
        slow |= bad | (exec & tnt[rd[i]]);
    }
    /* the usual case, in lane masks: every source clean, so every
     * destination becomes written and clean */
    for (int i = 0; i < nwr; i++) {
        wrt[wr[i]] |= exec & ~slow;
        tnt[wr[i]] &= ~(exec & ~slow);
    }
    for (int l = 0; l < ws; l++) {
        if (!((slow >> l) & 1u)) continue;
        Origin o = { 0, 0 };
        for (int i = 0; i < nrd && !o.pc1; i++) {
            if (!((wrt[rd[i]] >> l) & 1u)) o = (Origin){ pc + 1, (uint16_t)rd[i] };
            else o = org[(size_t)rd[i] * (size_t)ws + (size_t)l];
        }
        for (int i = 0; i < nwr; i++) {
            org[(size_t)wr[i] * (size_t)ws + (size_t)l] = o;
            wrt[wr[i]] |= 1u << l;
            if (o.pc1) tnt[wr[i]] |= 1u << l; else tnt[wr[i]] &= ~(1u << l);
        }
    }
}

static const char *reg_name(const Entry *e, int r)
{
    return r < e->nregs ? e->regs[r].name : e->preds[r - e->nregs].name;
}

uint32_t check_writer_line(const Entry *e, int reg)
{
    uint32_t best = 0;
    for (int pc = 0; pc < e->ncode; pc++) {
        int rd[4 * ISA_MAX_OPS], wr[4 * ISA_MAX_OPS], nrd, nwr;
        regs_of(e, &e->code[pc], rd, &nrd, wr, &nwr);
        for (int i = 0; i < nwr; i++)
            if (wr[i] == reg && (!best || e->code[pc].line < best)) best = e->code[pc].line;
    }
    return best;
}

/* " (it is written at line 60, on a path this thread did not take)" */
static void where_written(const Entry *e, int reg, char *buf, size_t n)
{
    uint32_t line = check_writer_line(e, reg);
    if (line) snprintf(buf, n, " (it is written at line %u, on a path this thread did not take)", line);
    else snprintf(buf, n, " (no instruction writes it)");
}

void check_explain_fault(Kernel *k, Warp *w, int lane)
{
    Fault *f = &k->fault;
    const Entry *e = k->entry;
    struct CheckCta *s = w->cta->chk;
    if (!s || !(k->check->flags & CHECK_UNINIT) || lane < 0 || f->pc >= (uint32_t)e->ncode ||
        (f->kind != FAULT_OUT_OF_BOUNDS && f->kind != FAULT_MISALIGNED))
        return;
    const Instr *in = &e->code[f->pc];
    int ws = k->warp_size;
    for (int i = 0; i < ISA_MAX_OPS; i++) {
        const Operand *o = &in->opd[i];
        if (o->kind != OPD_MEM || o->r[0] == REG_NONE || o->is_param) continue;
        int base = o->r[0];
        size_t n = strlen(f->msg);
        char where[120];
        if (!((s->written[(size_t)w->id * (size_t)s->nr + (size_t)base] >> lane) & 1u)) {
            where_written(e, base, where, sizeof where);
            snprintf(f->msg + n, sizeof f->msg - n, ". The cause: this thread never wrote the address register %s%s",
                     reg_name(e, base), where);
            return;
        }
        Origin g = s->origin[((size_t)w->id * (size_t)s->nr + (size_t)base) * (size_t)ws + (size_t)lane];
        if (!g.pc1) return;
        where_written(e, g.reg, where, sizeof where);
        snprintf(f->msg + n, sizeof f->msg - n, ". The cause: the address in %s comes from %s, which this thread "
                 "never wrote%s; line %u read it", reg_name(e, base), reg_name(e, g.reg), where,
                 e->code[g.pc1 - 1].line);
        return;
    }
}

/* ---- names ------------------------------------------------------------------------ */
void check_word_name(const Program *p, const Entry *e, int space, uint64_t addr, const Memory *m, char *buf,
                     size_t n)
{
    if (space == SP_SHARED) {
        for (int i = 0; i < p->nvars; i++) {
            const Var *v = &p->vars[i];
            if (v->space != SP_SHARED || (v->entry >= 0 && &p->entries[v->entry] != e)) continue;
            if (addr < v->offset || addr >= (uint64_t)v->offset + v->size) continue;
            int es = isa_type_bits((DataType)v->type) / 8;
            if (es > 1) snprintf(buf, n, "%s[%llu]", v->name, (unsigned long long)((addr - v->offset) / (uint64_t)es));
            else snprintf(buf, n, "byte %llu of %s", (unsigned long long)(addr - v->offset), v->name);
            return;
        }
        snprintf(buf, n, "shared byte %llu", (unsigned long long)addr);
        return;
    }
    const Region *r = m ? mem_find(m, addr, 1) : NULL;
    if (r) {
        const BufferSpec *b = &p->buffers[r->buffer];
        int es = isa_type_bits((DataType)b->type) / 8;
        snprintf(buf, n, "%s[%llu]", b->name, (unsigned long long)((addr - r->base) / (uint64_t)(es > 0 ? es : 1)));
        return;
    }
    snprintf(buf, n, "global address 0x%llx", (unsigned long long)addr);
}
