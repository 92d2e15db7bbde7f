/* icnt.h - one direction of the crossbar between the SMs and the memory
 * partitions (memsys.c builds two: requests SM -> L2 slice, replies
 * L2 slice -> SM).
 *
 * Each source port has an injection queue of queue_flits flits; each port
 * moves one flit (flit_bytes) per cycle; a packet of n flits that starts
 * crossing at cycle t holds its source and its destination port for n
 * cycles and has fully arrived at t + latency + n - 1 (at least t + 1).
 * Each cycle every source whose head packet is ready may start it if both
 * ports are free and the destination has a free buffer slot (credit flow
 * control: dst_slots packets per destination, counted from the start of the
 * crossing until the consumer pops the packet).  With lookahead > 1 a
 * source whose head cannot go sends the oldest of its first lookahead
 * packets that can (virtual output queues, as in input-queued switches:
 * a busy destination no longer blocks the packets behind it for others).  Sources are served in a
 * rotating order (first source = cycle % sources), so no port starves.
 * A full injection queue is the back-pressure the producer sees (the SM's
 * lg_throttle).  Deterministic, no allocation after icnt_create.
 */
#ifndef GPUSIM_ICNT_H
#define GPUSIM_ICNT_H

#include <stdint.h>

/* A memory packet.  The network reads src, dst, flits and ready, and sets
 * arrive; the rest is the memory system's.  32 bytes, two to a host line
 * (the rings start on one): a packet is read and copied where it leaves its
 * source and read again at its destination, most of them cold in the
 * host's caches (transpose_naive 2048^2 moves 4.3 M), and 48 bytes, one
 * in two across two lines, cost 2-5% of that launch's time (docs/
 * performance-log.md, twentieth session).  ready and arrive share their bytes:
 * ready is read only in the source queue, and arrive is set as the packet
 * leaves it. */
typedef struct IcntPacket {
    uint64_t addr;             /* line address */
    union {
        uint64_t ready;        /* in the source queue: the first cycle it may leave */
        uint64_t arrive;       /* from its crossing on: the cycle it has fully arrived (set by the network) */
    };
    uint32_t mask;             /* sectors */
    int32_t rec;               /* requester record, -1 none */
    int16_t src, dst;
    uint16_t flits;
    uint8_t kind;
    uint8_t aux;               /* kind-specific */
} IcntPacket;
_Static_assert(sizeof(IcntPacket) == 32, "a packet is half a host line (the rings' layout)");

typedef struct IcntParams {
    int nsrc, ndst;
    int latency, flit_bytes;
    int queue_flits;           /* injection queue per source, in flits */
    int src_slots;             /* packets an injection queue can hold (>= queue_flits) */
    int dst_slots;             /* packets a destination buffer holds */
    int lookahead;             /* packets of a source queue its port may pick from (1: the head only) */
} IcntParams;

typedef struct IcntStats {
    uint64_t packets, flits;
    uint64_t blocked;          /* visited cycles at which a ready head found its destination busy or full */
} IcntStats;

typedef struct Icnt Icnt;

Icnt *icnt_create(const IcntParams *p);
void icnt_destroy(Icnt *n);

/* Flits of a packet carrying `bytes` of data (the header rides in the first). */
int icnt_flits(const Icnt *n, int bytes);
/* Would `flits` more flits in `packets` packets fit in src's injection
 * queue?  An empty queue takes any one request (a scattered warp access
 * may need more flits than the queue holds; it then fills it alone). */
int icnt_src_fits(const Icnt *n, int src, int flits, int packets);
/* How many packets must leave src's queue, at least, before `flits` more
 * flits in `packets` packets fit (0: they fit now): whichever packets
 * leave, none frees more than the largest queued one's flits. */
int icnt_src_need(const Icnt *n, int src, int flits, int packets);
/* Queued flits of src; packets src has sent so far. */
int icnt_src_flits(const Icnt *n, int src);
uint64_t icnt_src_sent(const Icnt *n, int src);
/* Append to p->src's queue; -1 if out of slots (see icnt_src_fits). */
int icnt_push(Icnt *n, const IcntPacket *p);
/* Deferred mode (parallel simulation: sources push from several host
 * threads): icnt_push touches only its source's queue, and
 * icnt_sync_src(src) then records that the source has packets, before the
 * next icnt_step or icnt_next_event. */
void icnt_set_deferred(Icnt *n, int on);
void icnt_sync_src(Icnt *n, int src);
/* The same for the consumers: icnt_pop touches only its destination's
 * queue, and icnt_sync_dst(dst) then records whether it still holds
 * packets, before the next icnt_step, icnt_next_dst or icnt_next_event. */
void icnt_set_deferred_pop(Icnt *n, int on);
void icnt_sync_dst(Icnt *n, int dst);
/* Start the crossings of cycle now. */
void icnt_step(Icnt *n, uint64_t now);
/* Destination dst's oldest packet (arrived or still crossing), or NULL. */
const IcntPacket *icnt_head(const Icnt *n, int dst);
void icnt_pop(Icnt *n, int dst);
/* The first destination at or after `from` with a packet crossing or
 * arrived (icnt_head not NULL), or -1: for visiting only those. */
int icnt_next_dst(const Icnt *n, int from);
/* Earliest cycle a crossing can start; UINT64_MAX if none (sources blocked
 * by a full destination wait for the consumer's pop).  It stops looking at
 * the first cycle at or before floor it finds (the caller cannot act
 * sooner than floor anyway): pass 0 for the exact earliest. */
uint64_t icnt_next_event(const Icnt *n, uint64_t floor);
int icnt_busy(const Icnt *n);
const IcntStats *icnt_stats(const Icnt *n);

#endif
