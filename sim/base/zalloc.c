/* zalloc.c - see zalloc.h.
 *
 * A block is preceded by a 64-byte header: where its memory starts, how
 * much was mapped (0: it came from calloc) and the array's size, so that
 * zfree needs no size.  Under AddressSanitizer a mapped array ends at a
 * page that is not accessible, and the header and the bytes before the
 * array and after it are poisoned (a calloc'd block's header too): an access outside the array is
 * reported as for calloc's, while the pages of the array, never touched
 * by the sanitizer, cost nothing until used. */
#define _DEFAULT_SOURCE                 /* MAP_ANONYMOUS (POSIX.1-2024, a glibc/BSD extension before) */
#include "sim/base/zalloc.h"
#include "sim/base/asan.h"

#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

enum { HEADER = 64, MAP_FROM = 16 * 1024 };   /* smaller arrays: calloc */

#if GPUSIM_ASAN
#include <sanitizer/asan_interface.h>
#define POISON(p, n) __asan_poison_memory_region((p), (n))
#define UNPOISON(p, n) __asan_unpoison_memory_region((p), (n))
#else
#define POISON(p, n) ((void)(p), (void)(n))
#define UNPOISON(p, n) ((void)(p), (void)(n))
#endif

typedef struct Header {
    char *base;                         /* the mapping, or calloc's block */
    size_t mapped;                      /* bytes mapped; 0: calloc */
    size_t bytes;                       /* the array's */
} Header;

static size_t round_up(size_t v, size_t to) { return (v + to - 1) / to * to; }

#ifdef MAP_ANONYMOUS
static char *map_fresh(size_t bytes)
{
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    size_t data = round_up(HEADER + round_up(bytes, 16), page);
    size_t guard = GPUSIM_ASAN ? page : 0;
    char *base = mmap(NULL, data + guard, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (base == MAP_FAILED) return NULL;
    if (guard && mprotect(base + data, guard, PROT_NONE)) {
        munmap(base, data + guard);
        return NULL;
    }
    char *p = base + data - round_up(bytes, 16);   /* the array ends where the guard page starts */
    *(Header *)(p - HEADER) = (Header){ base, data + guard, bytes };
    POISON(base, (size_t)(p - base));
    POISON(p + bytes, (size_t)(base + data - (p + bytes)));
    return p;
}
#endif

void *zalloc(size_t n, size_t size)
{
    if (size && n > (SIZE_MAX - HEADER - 2 * 65536) / size) return NULL;
    size_t bytes = n * size;
#ifdef MAP_ANONYMOUS
    if (bytes + HEADER >= MAP_FROM) {
        char *p = map_fresh(bytes);
        if (p) return p;
    }
#endif
    char *base = calloc(1, bytes + HEADER);
    if (!base) return NULL;
    *(Header *)base = (Header){ base, 0, bytes };
    POISON(base, HEADER);
    return base + HEADER;
}

void zfree(void *p)
{
    if (!p) return;
    char *q = p;
    UNPOISON(q - HEADER, HEADER);
    Header h = *(Header *)(q - HEADER);
    if (!h.mapped) {
        free(h.base);
        return;
    }
    /* what was poisoned is made good again before the pages go: a later
     * mapping at these addresses starts clean */
    UNPOISON(h.base, (size_t)(q - h.base));
    size_t page = (size_t)sysconf(_SC_PAGESIZE), data = h.mapped - (GPUSIM_ASAN ? page : 0);
    UNPOISON(q + h.bytes, (size_t)(h.base + data - (q + h.bytes)));
    munmap(h.base, h.mapped);
}
