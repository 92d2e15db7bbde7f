/* suggest.c - see suggest.h. */
#include "suggest.h"

#include <ctype.h>
#include <string.h>

int suggest_distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    if (la > 64 || lb > 64) return 99;
    int prev[65], cur[65];
    for (size_t j = 0; j <= lb; j++) prev[j] = (int)j;
    for (size_t i = 1; i <= la; i++) {
        cur[0] = (int)i;
        for (size_t j = 1; j <= lb; j++) {
            int cost = tolower((unsigned char)a[i - 1]) != tolower((unsigned char)b[j - 1]);
            int best = prev[j - 1] + cost;
            if (prev[j] + 1 < best) best = prev[j] + 1;
            if (cur[j - 1] + 1 < best) best = cur[j - 1] + 1;
            cur[j] = best;
        }
        memcpy(prev, cur, (lb + 1) * sizeof prev[0]);
    }
    return prev[lb] > 99 ? 99 : prev[lb];
}

static int common_prefix(const char *a, const char *b)
{
    int n = 0;
    while (a[n] && tolower((unsigned char)a[n]) == tolower((unsigned char)b[n])) n++;
    return n;
}

const char *suggest_best(const char *word, const void *cands, size_t n, size_t stride)
{
    const char *best = NULL;
    int best_d = 3, best_prefix = -1;
    int limit = (int)strlen(word);
    for (size_t i = 0; i < n; i++) {
        const char *c = *(const char *const *)((const char *)cands + i * stride);
        if (!c) continue;
        int d = suggest_distance(word, c);
        if (d >= limit || d > best_d) continue;
        /* ties go to the longer common prefix: "ad" is "add" missing a
         * letter more likely than "ld" with the first one wrong */
        int pre = common_prefix(word, c);
        if (d < best_d || (best && pre > best_prefix)) { best_d = d; best = c; best_prefix = pre; }
    }
    return best;
}
