/* strmap.h - a small open-addressing map from names to int, for the
 * assembler's symbol tables (registers, labels, defines, variables).  Keys
 * are copied; lookups are O(1) so a fuzzed file with 100k labels cannot
 * make assembly quadratic. */
#ifndef GPUSIM_STRMAP_H
#define GPUSIM_STRMAP_H

#include <stddef.h>

typedef struct StrMapSlot { char *key; int len; int value; } StrMapSlot;
typedef struct StrMap { StrMapSlot *slots; size_t cap, n; } StrMap;

/* Value for key[0..len), or -1. */
int strmap_get(const StrMap *m, const char *key, int len);
/* Insert or overwrite. */
void strmap_put(StrMap *m, const char *key, int len, int value);
void strmap_clear(StrMap *m);

#endif
