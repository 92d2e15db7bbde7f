/* strmap.c - see strmap.h (FNV-1a hash, linear probing, load <= 1/2). */
#include "strmap.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static uint64_t hash(const char *s, int len)
{
    uint64_t h = 1469598103934665603ull;
    for (int i = 0; i < len; i++) { h ^= (unsigned char)s[i]; h *= 1099511628211ull; }
    return h;
}

int strmap_get(const StrMap *m, const char *key, int len)
{
    if (!m->cap) return -1;
    for (size_t i = hash(key, len) & (m->cap - 1);; i = (i + 1) & (m->cap - 1)) {
        const StrMapSlot *s = &m->slots[i];
        if (!s->key) return -1;
        if (s->len == len && memcmp(s->key, key, (size_t)len) == 0) return s->value;
    }
}

static void grow(StrMap *m)
{
    StrMap bigger = { calloc(m->cap ? m->cap * 2 : 64, sizeof(StrMapSlot)), m->cap ? m->cap * 2 : 64, 0 };
    if (!bigger.slots) abort();
    for (size_t i = 0; i < m->cap; i++) {
        StrMapSlot *s = &m->slots[i];
        if (!s->key) continue;
        size_t j = hash(s->key, s->len) & (bigger.cap - 1);
        while (bigger.slots[j].key) j = (j + 1) & (bigger.cap - 1);
        bigger.slots[j] = *s;
        bigger.n++;
    }
    free(m->slots);
    *m = bigger;
}

void strmap_put(StrMap *m, const char *key, int len, int value)
{
    if ((m->n + 1) * 2 > m->cap) grow(m);
    size_t i = hash(key, len) & (m->cap - 1);
    for (;; i = (i + 1) & (m->cap - 1)) {
        StrMapSlot *s = &m->slots[i];
        if (!s->key) break;
        if (s->len == len && memcmp(s->key, key, (size_t)len) == 0) { s->value = value; return; }
    }
    char *k = malloc((size_t)len + 1);
    if (!k) abort();
    memcpy(k, key, (size_t)len);
    k[len] = '\0';
    m->slots[i] = (StrMapSlot){ k, len, value };
    m->n++;
}

void strmap_clear(StrMap *m)
{
    for (size_t i = 0; i < m->cap; i++) free(m->slots[i].key);
    free(m->slots);
    m->slots = NULL;
    m->cap = m->n = 0;
}
