/* cpus.c - see cpus.h. */
#ifdef __linux__
#define _GNU_SOURCE                     /* sched_getaffinity, CPU_COUNT */
#include <sched.h>
#endif
#include "sim/base/cpus.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { TEXT_MAX = 64 * 1024, PATH_MAX_ = 4096 };

int cpus_of_quota(long long quota, long long period)
{
    if (quota <= 0 || period <= 0) return 0;
    long long n = (quota + period - 1) / period;
    return n > INT_MAX ? INT_MAX : (int)n;
}

int cpus_of_cpu_max(const char *text)
{
    long long quota, period = 100000;   /* cpu.max's period when only the quota is written */
    if (!text || strncmp(text, "max", 3) == 0) return 0;
    int n = sscanf(text, "%lld %lld", &quota, &period);
    return n >= 1 ? cpus_of_quota(quota, period) : 0;
}

/* The next space-separated field of *s (spaces skipped), NUL-ended in
 * place; NULL at the end of the line. */
static char *field(char **s)
{
    char *p = *s;
    while (*p == ' ') p++;
    if (!*p || *p == '\n') return NULL;
    char *start = p;
    while (*p && *p != ' ' && *p != '\n') p++;
    if (*p == ' ') *p++ = '\0';
    else if (*p == '\n') *p = '\0';        /* the line ends here: leave it ended */
    *s = p;
    return start;
}

/* 1 if the comma-separated list holds the word. */
static int has_word(const char *list, const char *word)
{
    size_t n = strlen(word);
    for (const char *p = list; p && *p;) {
        const char *end = strchr(p, ',');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        if (len == n && strncmp(p, word, n) == 0) return 1;
        p = end ? end + 1 : NULL;
    }
    return 0;
}

static int copy_to(char *dst, const char *src, int size)
{
    if ((int)strlen(src) >= size) return 0;
    strcpy(dst, src);
    return 1;
}

/* One line of mountinfo (written over): 1 if it mounts the hierarchy asked. */
static int mount_line(char *line, int v1, char *point, char *root, int size)
{
    /* id parent major:minor root mount-point options [optional...] - type source super-options */
    char *s = line, *f[5], *t;
    for (int i = 0; i < 5; i++)
        if ((f[i] = field(&s)) == NULL) return 0;
    while ((t = field(&s)) != NULL && strcmp(t, "-") != 0) {}
    char *type = t ? field(&s) : NULL, *source = type ? field(&s) : NULL, *opts = source ? field(&s) : NULL;
    if (!type) return 0;
    int ok = v1 ? strcmp(type, "cgroup") == 0 && opts && has_word(opts, "cpu") : strcmp(type, "cgroup2") == 0;
    return ok && copy_to(point, f[4], size) && copy_to(root, f[3], size);
}

int cpus_cgroup_mount(const char *mountinfo, int v1, char *point, char *root, int size)
{
    char line[PATH_MAX_ * 2];
    for (const char *p = mountinfo; *p;) {
        const char *end = strchr(p, '\n');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        if (len < sizeof line) {
            memcpy(line, p, len);
            line[len] = '\0';
            if (mount_line(line, v1, point, root, size)) return 1;
        }
        if (!end) break;
        p = end + 1;
    }
    return 0;
}

int cpus_cgroup_path(const char *cgroup, int v1, char *path, int size)
{
    for (const char *p = cgroup; p && *p;) {
        const char *end = strchr(p, '\n');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        const char *c1 = memchr(p, ':', len), *c2 = c1 ? memchr(c1 + 1, ':', len - (size_t)(c1 + 1 - p)) : NULL;
        if (c2) {
            size_t nlist = (size_t)(c2 - c1 - 1);
            char list[256];
            int ok = 0;
            if (nlist < sizeof list) {
                memcpy(list, c1 + 1, nlist);
                list[nlist] = '\0';
                ok = v1 ? has_word(list, "cpu") : (c1 - p == 1 && p[0] == '0' && nlist == 0);
            }
            size_t npath = len - (size_t)(c2 + 1 - p);
            if (ok && (int)npath < size) {
                memcpy(path, c2 + 1, npath);
                path[npath] = '\0';
                return 1;
            }
        }
        p = end ? end + 1 : NULL;
    }
    return 0;
}

/* The file's text (at most size - 1 bytes); 0 if it cannot be read. */
static int read_text(const char *path, char *buf, int size)
{
    FILE *f = fopen(path, "r");
    if (!f) return 0;
    size_t n = fread(buf, 1, (size_t)size - 1, f);
    fclose(f);
    buf[n] = '\0';
    return n > 0;
}

int cpus_cgroup_quota(const char *point, const char *root, const char *path, int v1)
{
    char dir[PATH_MAX_ * 2], file[PATH_MAX_ * 2 + 32];
    int best = 0;
    /* the path below the mount's root; a path outside it (another cgroup
     * namespace): the mount point is the process's own cgroup */
    size_t nr = strcmp(root, "/") == 0 ? 0 : strlen(root);
    const char *rel = strncmp(path, root, nr) == 0 && (path[nr] == '/' || path[nr] == '\0') ? path + nr : "";
    if (snprintf(dir, sizeof dir, "%s%s", point, strcmp(rel, "/") == 0 ? "" : rel) >= (int)sizeof dir) return 0;
    size_t floor = strlen(point);
    for (;;) {
        int n = 0;
        char q[128], per[128];
        if (v1) {
            snprintf(file, sizeof file, "%s/cpu.cfs_quota_us", dir);
            if (read_text(file, q, sizeof q)) {
                snprintf(file, sizeof file, "%s/cpu.cfs_period_us", dir);
                if (read_text(file, per, sizeof per)) n = cpus_of_quota(atoll(q), atoll(per));
            }
        } else {
            snprintf(file, sizeof file, "%s/cpu.max", dir);
            if (read_text(file, q, sizeof q)) n = cpus_of_cpu_max(q);
        }
        if (n > 0 && (best == 0 || n < best)) best = n;
        char *slash = strrchr(dir, '/');
        if (!slash || (size_t)(slash - dir) < floor) break;
        *slash = '\0';
    }
    return best;
}

/* The process's cgroup CPU quota in the v2 (v1 0) or v1 hierarchy; 0 if
 * none or it cannot be read. */
static int cgroup_cpus(int v1)
{
    char *text = malloc(TEXT_MAX);
    char point[PATH_MAX_], root[PATH_MAX_], path[PATH_MAX_];
    if (!text) return 0;
    int found = read_text("/proc/self/mountinfo", text, TEXT_MAX) && cpus_cgroup_mount(text, v1, point, root, PATH_MAX_) &&
                read_text("/proc/self/cgroup", text, TEXT_MAX) && cpus_cgroup_path(text, v1, path, PATH_MAX_);
    free(text);
    return found ? cpus_cgroup_quota(point, root, path, v1) : 0;
}

int host_cpus(void)
{
    long online = sysconf(_SC_NPROCESSORS_ONLN);
    int n = online < 1 ? 1 : online > INT_MAX ? INT_MAX : (int)online;
#ifdef __linux__
    cpu_set_t set;
    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof set, &set) == 0) {
        int a = CPU_COUNT(&set);
        if (a >= 1 && a < n) n = a;
    }
    for (int v1 = 0; v1 < 2; v1++) {
        int q = cgroup_cpus(v1);
        if (q >= 1 && q < n) n = q;
    }
#endif
    return n;
}
