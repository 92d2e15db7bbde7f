/* mem.h - the functional memory image: global buffers, constant memory, and
 * the generic address map.
 *
 * Global memory holds the kernel file's .buffers, each in its own region of
 * the global address space, 256-byte aligned with an unmapped gap after it,
 * so any access outside every buffer is caught and described by name.
 * Generic addresses (cvta) map the per-CTA shared window and the per-thread
 * local window above the global space.  Owns the bytes; no timing here.
 */
#ifndef GPUSIM_MEM_H
#define GPUSIM_MEM_H

#include <stddef.h>
#include <stdint.h>

#include "isa/isa.h"

#define MEM_GLOBAL_BASE   0x10000000ull          /* first buffer */
#define MEM_SHARED_WINDOW (1ull << 48)           /* generic = window + offset */
#define MEM_LOCAL_WINDOW  (2ull << 48)
#define MEM_CONST_WINDOW  (3ull << 48)
#define MEM_WINDOW_SIZE   (1ull << 40)

typedef struct Region {
    uint64_t base, size;
    uint8_t *data;
    int buffer;               /* index into Program.buffers */
} Region;

typedef struct Memory {
    Region *regions; int nregions;   /* ascending base */
    uint64_t top;                    /* end of the highest region */
    uint8_t *cmem; uint32_t cbytes;  /* constant memory */
} Memory;

/* Lay out and allocate every buffer of p (zero-filled) and the .const
 * image.  Returns 0, or -1 if memory ran out. */
int mem_init(Memory *m, const Program *p);
void mem_free(Memory *m);
/* The region holding [addr, addr+size), or NULL. */
Region *mem_find(const Memory *m, uint64_t addr, uint64_t size);
Region *mem_region_of_buffer(const Memory *m, int buffer);
/* Describe a bad global address for a fault message: "c[1003] is 0 bytes
 * past the end of c (1003 floats)". */
void mem_describe(const Memory *m, const Program *p, uint64_t addr, int size, char *buf, size_t n);

#endif
