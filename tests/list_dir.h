/* list_dir.h - the files of a folder whose names end in a suffix, as
 * "dir/name" paths (strdup'd), sorted, at most `max`.  Header-only, for the
 * test programs that walk kernels/ or configs/ (test_configs, test_threads). */
#ifndef GPUSIM_TESTS_LIST_DIR_H
#define GPUSIM_TESTS_LIST_DIR_H

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static inline int list_dir_cmp(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

static inline int list_dir(const char *dir, const char *suffix, char **out, int max)
{
    int n = 0;
    DIR *d = opendir(dir);
    if (!d) return 0;
    size_t ls = strlen(suffix);
    for (struct dirent *de; (de = readdir(d)) && n < max;) {
        size_t len = strlen(de->d_name);
        if (len > ls && !strcmp(de->d_name + len - ls, suffix)) {
            char path[512];
            snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
            out[n++] = strdup(path);
        }
    }
    closedir(d);
    qsort(out, (size_t)n, sizeof out[0], list_dir_cmp);
    return n;
}

#endif
