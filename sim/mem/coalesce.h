/* coalesce.h - the coalescer: what one warp's global or local memory
 * instruction asks of the memory system.
 *
 * Models the L1TEX "t-stage" address coalescing of NVIDIA GPUs since Fermi:
 * a warp instruction with any active lane is one request (Nsight's
 * l1tex__t_requests); its lanes' bytes are gathered into the distinct
 * aligned 32-byte sectors they touch (l1tex__t_sectors) and the distinct
 * cache lines that hold them (Fermi's 128-byte L1 transactions; the tag
 * lookups of a sectored cache).  Vector accesses cover bytes-per-lane x
 * lanes.  Owns no state: a pure function of the request.  The timing model
 * calls it at issue for every global and local access, before the L1.
 */
#ifndef GPUSIM_COALESCE_H
#define GPUSIM_COALESCE_H

#include <stdint.h>

#include "sim/mem/access.h"

/* Array bounds.  The ISA's widest per-lane access is 32 bytes (ld.v4 of a
 * 64-bit type) and the config's smallest sector is 4 bytes and smallest line
 * 16 bytes, so an aligned warp access touches at most 32 x 32/4 = 256
 * sectors and 32 x 32/16 = 64 lines (with the default 32-byte sectors and
 * <= 16-byte accesses: 32 of each).  One more per lane keeps the function
 * memory-safe even for a misaligned request, which the functional model
 * faults before it gets here. */
enum {
    COALESCE_MAX_LANE_BYTES = 32,
    COALESCE_MIN_SECTOR_BYTES = 4,
    COALESCE_MIN_LINE_BYTES = 16,
    COALESCE_MAX_SECTORS = WARP_MAX * (COALESCE_MAX_LANE_BYTES / COALESCE_MIN_SECTOR_BYTES + 1),
    COALESCE_MAX_LINES = WARP_MAX * (COALESCE_MAX_LANE_BYTES / COALESCE_MIN_LINE_BYTES + 1)
};

typedef struct CoalesceSector {
    uint64_t addr;              /* first byte, sector-aligned */
    LaneMask lanes;             /* lanes with a byte in it */
    int line;                   /* index into Coalesced.line */
} CoalesceSector;

typedef struct CoalesceLine {
    uint64_t addr;              /* first byte, line-aligned */
    uint64_t sector_mask;       /* bit i: sector i of the line is touched (i < 64;
                                 * lines of more sectors: use first/count) */
    LaneMask lanes;             /* lanes with a byte in it */
    int first, count;           /* its sectors: sector[first .. first+count-1] */
} CoalesceLine;

typedef struct Coalesced {
    int requests;               /* 1 if any lane is active, else 0 */
    int nsectors, nlines;
    uint32_t bytes_requested;   /* active lanes x bytes per lane */
    uint32_t bytes_unique;      /* distinct bytes those lanes touch (broadcasts once) */
    uint32_t bytes_moved;       /* nsectors x sector_bytes */
    CoalesceSector sector[COALESCE_MAX_SECTORS];   /* ascending address */
    CoalesceLine line[COALESCE_MAX_LINES];         /* ascending address */
} Coalesced;

/* Coalesce the warp access `a` (lanes below warp_size in a->mask) into
 * sectors of sector_bytes and lines of line_bytes.  Expects the config's
 * geometry: powers of two, sector_bytes >= 4, line_bytes >= 16, sector_bytes
 * <= line_bytes.  a->bytes above COALESCE_MAX_LANE_BYTES is taken as that.
 * Efficiency = bytes_unique (or bytes_requested, Nsight's way, which counts
 * a broadcast once per lane) / bytes_moved. */
void coalesce(const MemAccess *a, int line_bytes, int sector_bytes, int warp_size, Coalesced *out);
/* A copy of src's counts, sectors and lines (only the used entries). */
void coalesced_copy(Coalesced *dst, const Coalesced *src);

#endif
