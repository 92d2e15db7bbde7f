/* zalloc.h - zeroed arrays whose memory the host maps only where they are
 * first used.  A memory system for a big GPU (hopper.ini: 132 L1s, 80 L2
 * slices of 5,120 lines, records for 64 warps an SM) holds tens of MB of
 * tables that a small kernel barely reaches.  calloc clears what it hands
 * out unless the block is freshly mapped, and glibc maps fresh only above
 * a threshold that it raises as blocks are freed, so in a process that
 * runs many launches (a sweep, the tests) every table was cleared, page by
 * page, whether used or not.  zalloc maps large arrays fresh itself (the
 * kernel's zero pages, mapped on first touch).  Under AddressSanitizer
 * too: the bytes around such an array are poisoned and the page after it
 * is inaccessible, so that an access outside it is still caught, while the
 * sanitizer neither clears nor poisons the pages of the array itself. */
#ifndef GPUSIM_ZALLOC_H
#define GPUSIM_ZALLOC_H

#include <stddef.h>

/* n zeroed elements of `size` bytes, aligned as malloc's; NULL if out of
 * memory (or n * size overflows). */
void *zalloc(size_t n, size_t size);
/* Frees what zalloc returned (NULL: nothing). */
void zfree(void *p);

#endif
