/* dram.c - see dram.h.
 *
 * Every timing rule is kept as an absolute DRAM clock ("not before"), not
 * a countdown, so a channel can jump over clocks in which nothing can
 * happen: next_d is the earliest clock at which a command becomes legal, a
 * queued request can be taken by an idle bank, or read data finishes.
 */
#include "sim/mem/dram.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { REQ_FREE, REQ_QUEUED, REQ_AT_BANK };

typedef struct Req {
    uint64_t addr, id, seq;
    uint64_t row, arrive;        /* arrive: DRAM clock it may be scheduled */
    uint32_t all, left;          /* bursts asked for / still to issue */
    int bank, next_free;
    int qpos;                    /* REQ_QUEUED: its place in Chan.queued */
    uint8_t is_write, state, classified;
} Req;

typedef struct Bank {
    int cur;                     /* request being served, -1 none */
    int open;
    int group;                   /* its bank group: bank % bank_groups */
    uint64_t row;
    uint64_t act_ok, col_ok, pre_ok;
    uint64_t when;               /* cached legal() of its next command */
    int cmd;
} Bank;

typedef struct Ret {
    uint64_t end, addr, id;      /* end: DRAM clock the last data beat is done */
    uint32_t bursts;
} Ret;

typedef struct Chan {
    Req *q;
    int free_head, used;
    int *queued, nqueued;        /* the REQ_QUEUED requests, in no order (scans look at these only) */
    Bank *bank;
    uint64_t serving;            /* bit b: bank b has a request (banks <= 64) */
    uint64_t waiting;            /* bit b: requests for bank b wait in the queue */
    uint16_t *nwait;             /* how many, per bank */
    uint64_t *grp_col;           /* next column command in this bank group (tCCDL) */
    uint64_t act_any, col_any;   /* tRRD, tCCD */
    uint64_t rd_ok;              /* tWTR */
    uint64_t bus_free;           /* data bus */
    Ret *ret;
    int ret_head, ret_n, ret_cap;
    uint64_t cur_d;              /* first DRAM clock not yet run */
    uint64_t next_d;             /* cached next event, UINT64_MAX if idle */
    uint64_t next_core;          /* the core cycle of next_d (dram_to_core, two divisions: worked
                                  * out when next_d moves, not at each step's look at every channel) */
    uint64_t seq;
    DramStats st;
} Chan;

struct Dram {
    DramParams p;
    Chan *ch;
    int burst_bytes, burst_clocks, col_lo, cols_hi;
    uint64_t ran_core;           /* core cycles below this have been run */
    uint64_t run_now;            /* core cycle of the dram_run in progress */
    DramDoneFn done;
    void *ctx;
};

static uint64_t gcd(uint64_t a, uint64_t b)
{
    while (b) { uint64_t t = a % b; a = b; b = t; }
    return a;
}

void dram_params_from_config(DramParams *p, const Config *c)
{
    memset(p, 0, sizeof *p);
    p->channels = c->dram.channels;
    p->bus_bits = c->dram.bus_bits;
    p->burst_length = c->dram.burst_length;
    p->beats_per_clock = DRAM_BEATS_PER_CLOCK_DEFAULT;
    p->banks = c->dram.banks;
    p->bank_groups = c->dram.bank_groups;
    p->row_bytes = c->dram.row_bytes;
    p->interleave_bytes = c->dram.interleave_bytes;
    p->tCL = c->dram.tCL; p->tRCD = c->dram.tRCD; p->tRP = c->dram.tRP; p->tRAS = c->dram.tRAS;
    p->tRC = c->dram.tRC; p->tWL = c->dram.tWL; p->tWR = c->dram.tWR; p->tCCD = c->dram.tCCD;
    p->tCCDL = c->dram.tCCDL; p->tRRD = c->dram.tRRD; p->tWTR = c->dram.tWTR;
    p->queue_depth = c->dram.queue_depth;
    p->sched = c->dram.sched;
    p->addr_xor = c->dram.addr_xor;
    p->split_cmd = c->dram.split_cmd_bus;
    p->core_clock_mhz = c->gpu.core_clock_mhz;
    p->mem_clock_mhz = c->gpu.mem_clock_mhz;
    uint64_t ck = (uint64_t)llround(c->gpu.core_clock_mhz * 1000.0), mk = (uint64_t)llround(c->gpu.mem_clock_mhz * 1000.0);
    if (!ck) ck = 1;
    if (!mk) mk = 1;
    uint64_t g = gcd(ck, mk);
    p->core_khz = ck / g;
    p->mem_khz = mk / g;
}

const DramParams *dram_params(const Dram *d) { return &d->p; }

int dram_burst_bytes(const DramParams *p) { return p->bus_bits / 8 * p->burst_length; }

int dram_burst_clocks(const DramParams *p)
{
    int bpc = p->beats_per_clock > 0 ? p->beats_per_clock : 1;
    int n = (p->burst_length + bpc - 1) / bpc;
    return n > 0 ? n : 1;
}

/* floor(d x C / M) and ceil(t x M / C) without overflow for C, M < 2^32. */
uint64_t dram_to_core(const DramParams *p, uint64_t d)
{
    uint64_t C = p->core_khz, M = p->mem_khz;
    return d / M * C + d % M * C / M;
}

uint64_t dram_from_core(const DramParams *p, uint64_t t)
{
    uint64_t C = p->core_khz, M = p->mem_khz;
    uint64_t q = t / C * M, r = t % C * M;
    return q + (r + C - 1) / C;
}

static int min_int(int a, int b) { return a < b ? a : b; }

DramLoc dram_map(const DramParams *p, uint64_t addr)
{
    DramLoc l;
    uint64_t ib = (uint64_t)p->interleave_bytes, chunk = addr / ib;
    l.channel = (int)(chunk % (uint64_t)p->channels);
    uint64_t local = chunk / (uint64_t)p->channels * ib + addr % ib;
    uint64_t lo = (uint64_t)min_int(p->interleave_bytes, p->row_bytes);
    uint64_t cols_hi = (uint64_t)p->row_bytes / lo;
    uint64_t rest = local / lo;
    l.bank = (int)(rest % (uint64_t)p->banks);
    rest /= (uint64_t)p->banks;
    l.col = (uint32_t)(rest % cols_hi * lo + local % lo);
    l.row = rest / cols_hi;
    if (p->addr_xor) l.bank ^= (int)(l.row % (uint64_t)p->banks);
    l.group = l.bank % p->bank_groups;
    return l;
}

/* ---- create ---------------------------------------------------------------------- */

Dram *dram_create(const DramParams *p, DramDoneFn done, void *ctx)
{
    if (p->channels < 1 || p->banks < 1 || p->banks > 64 || p->bank_groups < 1 || p->queue_depth < 1 ||
        p->interleave_bytes < 1 || p->row_bytes < 1 || dram_burst_bytes(p) < 1 || !p->core_khz || !p->mem_khz)
        return NULL;
    Dram *d = calloc(1, sizeof *d);
    if (!d) return NULL;
    d->p = *p;
    d->done = done;
    d->ctx = ctx;
    d->burst_bytes = dram_burst_bytes(p);
    d->burst_clocks = dram_burst_clocks(p);
    d->ch = calloc((size_t)p->channels, sizeof *d->ch);
    if (!d->ch) { free(d); return NULL; }
    for (int c = 0; c < p->channels; c++) {
        Chan *ch = &d->ch[c];
        /* Reads whose last column command has issued wait here for their
         * data: at most one per clock over tCL + a burst. */
        ch->ret_cap = p->tCL + d->burst_clocks + 2;
        ch->q = calloc((size_t)p->queue_depth, sizeof *ch->q);
        ch->bank = calloc((size_t)p->banks, sizeof *ch->bank);
        ch->nwait = calloc((size_t)p->banks, sizeof *ch->nwait);
        ch->grp_col = calloc((size_t)p->bank_groups, sizeof *ch->grp_col);
        ch->ret = calloc((size_t)ch->ret_cap, sizeof *ch->ret);
        ch->queued = calloc((size_t)p->queue_depth, sizeof *ch->queued);
        if (!ch->q || !ch->bank || !ch->nwait || !ch->grp_col || !ch->ret || !ch->queued) { dram_destroy(d); return NULL; }
        for (int i = 0; i < p->queue_depth; i++) ch->q[i].next_free = i + 1 < p->queue_depth ? i + 1 : -1;
        for (int b = 0; b < p->banks; b++) {
            ch->bank[b].cur = -1;
            ch->bank[b].group = b % p->bank_groups;
        }
        ch->next_d = ch->next_core = UINT64_MAX;
    }
    return d;
}

void dram_destroy(Dram *d)
{
    if (!d) return;
    if (d->ch)
        for (int c = 0; c < d->p.channels; c++) {
            free(d->ch[c].q);
            free(d->ch[c].bank);
            free(d->ch[c].nwait);
            free(d->ch[c].grp_col);
            free(d->ch[c].ret);
            free(d->ch[c].queued);
        }
    free(d->ch);
    free(d);
}

/* ---- timing ---------------------------------------------------------------------- */

static uint64_t max64(uint64_t a, uint64_t b) { return a > b ? a : b; }
static uint64_t sub_floor(uint64_t a, int b) { return a > (uint64_t)b ? a - (uint64_t)b : 0; }

typedef enum Cmd { CMD_COL, CMD_ACT, CMD_PRE } Cmd;

/* The channel's part of a column command's rules, the same for every
 * bank: tCCD, tWTR (reads) and the data bus (its burst must not overlap
 * the one before). */
typedef struct ColRules {
    uint64_t rd, wr;
} ColRules;

static ColRules col_rules(const Dram *d, const Chan *ch)
{
    ColRules c;
    c.wr = max64(ch->col_any, sub_floor(ch->bus_free, d->p.tWL));
    c.rd = max64(max64(ch->col_any, ch->rd_ok), sub_floor(ch->bus_free, d->p.tCL));
    return c;
}

/* The next command bank b needs for its request, and the first clock it
 * is legal (cr: col_rules of the channel as it is now). */
static uint64_t legal(const Chan *ch, const ColRules *cr, int b, Cmd *cmd)
{
    const Bank *bk = &ch->bank[b];
    const Req *r = &ch->q[bk->cur];
    if (bk->open && bk->row == r->row) {
        *cmd = CMD_COL;
        return max64(max64(bk->col_ok, ch->grp_col[bk->group]), r->is_write ? cr->wr : cr->rd);
    }
    if (!bk->open) { *cmd = CMD_ACT; return max64(bk->act_ok, ch->act_any); }
    *cmd = CMD_PRE;
    return bk->pre_ok;
}

static void recompute_next(Dram *d, Chan *ch)
{
    uint64_t n = UINT64_MAX;
    if (ch->ret_n) n = ch->ret[ch->ret_head].end;
    ColRules cr = col_rules(d, ch);
    for (uint64_t x = ch->serving; x; x &= x - 1) {
        Bank *bk = &ch->bank[__builtin_ctzll(x)];
        Cmd c;
        bk->when = legal(ch, &cr, __builtin_ctzll(x), &c);
        bk->cmd = (int)c;
        if (bk->when < n) n = bk->when;
    }
    if (ch->waiting & ~ch->serving)     /* an idle bank has work queued */
        for (int k = 0; k < ch->nqueued; k++) {
            const Req *r = &ch->q[ch->queued[k]];
            if (ch->bank[r->bank].cur < 0 && r->arrive < n) n = r->arrive;
        }
    ch->next_d = n == UINT64_MAX ? n : max64(n, ch->cur_d);
    ch->next_core = n == UINT64_MAX ? n : dram_to_core(&d->p, ch->next_d);
}

/* Give each idle bank a request (see dram.h for the two policies). */
static void assign(Dram *d, Chan *ch, uint64_t now_d)
{
    if (!(ch->waiting & ~ch->serving)) return;   /* no idle bank has work queued */
    int best[64];
    for (int b = 0; b < d->p.banks; b++) best[b] = -1;
    ColRules cr = col_rules(d, ch);
    int fr = d->p.sched == DRAM_FR_FCFS;
    /* the best is the same whatever the order looked in: seq numbers differ */
    for (int k = 0; k < ch->nqueued; k++) {
        int i = ch->queued[k];
        const Req *r = &ch->q[i];
        if (r->arrive > now_d || ch->bank[r->bank].cur >= 0) continue;
        int j = best[r->bank];
        if (j < 0) { best[r->bank] = i; continue; }
        const Bank *bk = &ch->bank[r->bank];
        int hit_i = fr && bk->open && bk->row == r->row, hit_j = fr && bk->open && bk->row == ch->q[j].row;
        if (hit_i > hit_j || (hit_i == hit_j && r->seq < ch->q[j].seq)) best[r->bank] = i;
    }
    for (int b = 0; b < d->p.banks; b++)
        if (best[b] >= 0) {
            Bank *bk = &ch->bank[b];
            bk->cur = best[b];
            Req *r = &ch->q[best[b]];
            r->state = REQ_AT_BANK;
            int last = ch->queued[--ch->nqueued];   /* out of the queued list */
            ch->queued[r->qpos] = last;
            ch->q[last].qpos = r->qpos;
            ch->serving |= 1ull << b;
            if (--ch->nwait[b] == 0) ch->waiting &= ~(1ull << b);
            Cmd c;
            bk->when = legal(ch, &cr, b, &c);
            bk->cmd = (int)c;
        }
}

static void classify(Chan *ch, Req *r, Cmd c)
{
    if (r->classified) return;
    r->classified = 1;
    if (c == CMD_COL) ch->st.row_hits++;
    else if (c == CMD_ACT) ch->st.row_misses++;
    else ch->st.row_conflicts++;
}

static void free_req(Chan *ch, int i)
{
    ch->q[i].state = REQ_FREE;
    ch->q[i].next_free = ch->free_head;
    ch->free_head = i;
    ch->used--;
}

static void issue(Dram *d, Chan *ch, int b, Cmd c, uint64_t t)
{
    const DramParams *p = &d->p;
    Bank *bk = &ch->bank[b];
    int ri = bk->cur;
    Req *r = &ch->q[ri];
    classify(ch, r, c);
    if (c == CMD_ACT) {
        bk->open = 1;
        bk->row = r->row;
        bk->col_ok = t + (uint64_t)p->tRCD;
        bk->pre_ok = max64(bk->pre_ok, t + (uint64_t)p->tRAS);
        bk->act_ok = t + (uint64_t)p->tRC;
        ch->act_any = t + (uint64_t)p->tRRD;
        ch->st.activates++;
        return;
    }
    if (c == CMD_PRE) {
        bk->open = 0;
        bk->act_ok = max64(bk->act_ok, t + (uint64_t)p->tRP);
        ch->st.precharges++;
        return;
    }
    uint64_t bc = (uint64_t)d->burst_clocks;
    uint64_t start = t + (uint64_t)(r->is_write ? p->tWL : p->tCL), end = start + bc;
    ch->bus_free = end;
    ch->col_any = t + (uint64_t)p->tCCD;
    ch->grp_col[bk->group] = t + (uint64_t)p->tCCDL;
    ch->st.busy_clocks += bc;
    if (r->is_write) {
        ch->rd_ok = end + (uint64_t)p->tWTR;
        bk->pre_ok = max64(bk->pre_ok, end + (uint64_t)p->tWR);
        ch->st.bursts_write++;
        ch->st.bytes_write += (uint64_t)d->burst_bytes;
    } else {
        bk->pre_ok = max64(bk->pre_ok, t + bc);   /* read to precharge: the burst leaves the row buffer */
        ch->st.bursts_read++;
        ch->st.bytes_read += (uint64_t)d->burst_bytes;
    }
    r->left &= r->left - 1;
    if (r->left) return;
    if (r->is_write) ch->st.writes++;
    else {
        ch->st.reads++;
        int k = (ch->ret_head + ch->ret_n) % ch->ret_cap;
        ch->ret[k] = (Ret){ .end = end, .addr = r->addr, .id = r->id, .bursts = r->all };
        ch->ret_n++;
    }
    bk->cur = -1;
    ch->serving &= ~(1ull << b);
    free_req(ch, ri);
}

/* One DRAM clock t of channel ch: returns, bank assignment, one command. */
static void run_clock(Dram *d, Chan *ch, uint64_t t)
{
    while (ch->ret_n && ch->ret[ch->ret_head].end <= t) {
        Ret r = ch->ret[ch->ret_head];
        ch->ret_head = (ch->ret_head + 1) % ch->ret_cap;
        ch->ret_n--;
        if (d->done) d->done(d->ctx, r.addr, r.bursts, r.id, d->run_now);
    }
    assign(d, ch, t);
    int fr = d->p.sched == DRAM_FR_FCFS;
    /* best[0]: the command of the clock; with split command buses,
     * best[0] the column command and best[1] the row command (ACT, PRE) */
    int best[2] = { -1, -1 };
    Cmd best_cmd[2] = { CMD_COL, CMD_COL };
    /* bank.when is current: recompute_next ran after the last command and
     * nothing since changed a timing rule (returns and assignment do not) */
    for (uint64_t x = ch->serving; x; x &= x - 1) {
        int b = __builtin_ctzll(x);
        Cmd c = (Cmd)ch->bank[b].cmd;
        if (ch->bank[b].when > t) continue;
        int k = d->p.split_cmd && c != CMD_COL;
        if (best[k] >= 0) {
            int col = c == CMD_COL, bcol = best_cmd[k] == CMD_COL;
            uint64_t s = ch->q[ch->bank[b].cur].seq, bs = ch->q[ch->bank[best[k]].cur].seq;
            if (fr ? (col < bcol || (col == bcol && s > bs)) : s > bs) continue;
        }
        best[k] = b;
        best_cmd[k] = c;
    }
    /* A column command changes no row command's timing and the reverse
     * (they are for different banks), so both can go in one clock. */
    for (int k = 0; k < 2; k++)
        if (best[k] >= 0) issue(d, ch, best[k], best_cmd[k], t);
    ch->cur_d = t + 1;
}

void dram_run_begin(Dram *d, uint64_t now)
{
    d->run_now = now;
    if (now + 1 > d->ran_core) d->ran_core = now + 1;   /* read by dram_push only: after the run */
}

void dram_run_channels(Dram *d, int lo, int hi)
{
    for (int c = lo; c < hi; c++) {
        Chan *ch = &d->ch[c];
        while (ch->next_core <= d->run_now) {   /* UINT64_MAX: idle */
            run_clock(d, ch, ch->next_d);
            recompute_next(d, ch);
        }
    }
}

void dram_run(Dram *d, uint64_t now)
{
    dram_run_begin(d, now);
    dram_run_channels(d, 0, d->p.channels);
}

uint64_t dram_next_event(const Dram *d)
{
    uint64_t n = UINT64_MAX;
    for (int c = 0; c < d->p.channels; c++)
        if (d->ch[c].next_core < n) n = d->ch[c].next_core;
    return n;
}

int dram_busy(const Dram *d)
{
    for (int c = 0; c < d->p.channels; c++)
        if (d->ch[c].used || d->ch[c].ret_n) return 1;
    return 0;
}

int dram_free_slots(const Dram *d, int channel) { return d->p.queue_depth - d->ch[channel].used; }

int dram_push(Dram *d, uint64_t addr, uint32_t bursts, int is_write, uint64_t id, uint64_t now)
{
    DramLoc l = dram_map(&d->p, addr);
    Chan *ch = &d->ch[l.channel];
    if (!bursts || ch->free_head < 0) return -1;
    int i = ch->free_head;
    Req *r = &ch->q[i];
    ch->free_head = r->next_free;
    ch->used++;
    uint64_t t = now > d->ran_core ? now : d->ran_core;
    *r = (Req){ .addr = addr, .id = id, .seq = ch->seq++, .row = l.row,
                .arrive = max64(dram_from_core(&d->p, t), ch->cur_d), .all = bursts, .left = bursts,
                .bank = l.bank, .next_free = -1, .is_write = (uint8_t)(is_write != 0), .state = REQ_QUEUED };
    r->qpos = ch->nqueued;
    ch->queued[ch->nqueued++] = i;
    ch->nwait[l.bank]++;
    ch->waiting |= 1ull << l.bank;
    recompute_next(d, ch);
    return 0;
}

/* ---- stats ----------------------------------------------------------------------- */

void dram_stats(const Dram *d, DramStats *out)
{
    memset(out, 0, sizeof *out);
    for (int c = 0; c < d->p.channels; c++) {
        const DramStats *s = &d->ch[c].st;
        out->bytes_read += s->bytes_read;
        out->bytes_write += s->bytes_write;
        out->reads += s->reads;
        out->writes += s->writes;
        out->bursts_read += s->bursts_read;
        out->bursts_write += s->bursts_write;
        out->row_hits += s->row_hits;
        out->row_misses += s->row_misses;
        out->row_conflicts += s->row_conflicts;
        out->activates += s->activates;
        out->precharges += s->precharges;
        out->busy_clocks += s->busy_clocks;
    }
}

const DramStats *dram_channel_stats(const Dram *d, int channel) { return &d->ch[channel].st; }

double dram_peak_bytes_per_clock(const DramParams *p)
{
    return (double)p->beats_per_clock * p->bus_bits / 8.0 * p->channels;
}

double dram_peak_gbs(const DramParams *p)
{
    /* MHz x 1e6 beats/s x bytes / 1e9 */
    return p->mem_clock_mhz * dram_peak_bytes_per_clock(p) / 1000.0;
}
