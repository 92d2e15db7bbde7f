/* zalloc.c - see zalloc.h.
 *
 * Every block starts with a 64-byte header holding the size of the
 * mapping, 0 when the block came from calloc: zfree needs no size. */
#define _DEFAULT_SOURCE                 /* MAP_ANONYMOUS (POSIX.1-2024, a glibc/BSD extension before) */
#include "sim/base/zalloc.h"

#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>

enum { HEADER = 64, MAP_FROM = 16 * 1024 };   /* smaller arrays: calloc */

#if defined(__SANITIZE_ADDRESS__)
#define ZALLOC_MAPS 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define ZALLOC_MAPS 0
#endif
#endif
#if !defined(ZALLOC_MAPS) && defined(MAP_ANONYMOUS)
#define ZALLOC_MAPS 1
#endif
#ifndef ZALLOC_MAPS
#define ZALLOC_MAPS 0
#endif

void *zalloc(size_t n, size_t size)
{
    if (size && n > (SIZE_MAX - HEADER) / size) return NULL;
    size_t bytes = n * size + HEADER;
    char *base = NULL;
    size_t mapped = 0;
#if ZALLOC_MAPS
    if (bytes >= MAP_FROM) {
        void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (p != MAP_FAILED) {
            base = p;
            mapped = bytes;
        }
    }
#endif
    if (!base) {
        base = calloc(1, bytes);
        if (!base) return NULL;
    }
    *(size_t *)base = mapped;
    return base + HEADER;
}

void zfree(void *p)
{
    if (!p) return;
    char *base = (char *)p - HEADER;
    size_t mapped = *(size_t *)base;
#if ZALLOC_MAPS
    if (mapped) {
        munmap(base, mapped);
        return;
    }
#endif
    (void)mapped;
    free(base);
}
