/* suggest.h - "did you mean" for misspelt names (opcodes, config keys,
 * directives, enum values).  Pure string utility; no state. */
#ifndef GPUSIM_SUGGEST_H
#define GPUSIM_SUGGEST_H

#include <stddef.h>

/* Levenshtein distance, case-insensitive, capped at 99. */
int suggest_distance(const char *a, const char *b);

/* The candidate closest to word, or NULL if none is close enough (distance
 * at most 2, and less than the word's length); ties go to the longer common
 * prefix.  cands is an array of n strings; stride lets it walk an array of
 * structs whose first member is a const char * (pass sizeof(the struct)). */
const char *suggest_best(const char *word, const void *cands, size_t n, size_t stride);

#endif
