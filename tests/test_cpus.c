/* test_cpus.c - how many CPUs the process may use (sim/base/cpus.h): the
 * quota arithmetic, cgroup v2's cpu.max, the mountinfo and cgroup lines of
 * the layouts seen in practice (cgroup v2 only; v1 and v2 side by side, as
 * on the project's VM; docker's v1 with cpu,cpuacct), the walk up a
 * hand-made cgroup tree, and host_cpus under an affinity mask of one CPU. */
#ifdef __linux__
#define _GNU_SOURCE                     /* sched_setaffinity */
#include <sched.h>
#endif
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sim/base/cpus.h"

static void test_quota(void **state)
{
    (void)state;
    assert_int_equal(cpus_of_quota(100000, 100000), 1);
    assert_int_equal(cpus_of_quota(150000, 100000), 2);    /* 1.5 CPUs' time: 2 threads can use it */
    assert_int_equal(cpus_of_quota(50000, 100000), 1);
    assert_int_equal(cpus_of_quota(400000, 100000), 4);
    assert_int_equal(cpus_of_quota(-1, 100000), 0);        /* cgroup v1's "no limit" */
    assert_int_equal(cpus_of_quota(-300000, 100000), 0);
    assert_int_equal(cpus_of_quota(0, 100000), 0);
    assert_int_equal(cpus_of_quota(100000, 0), 0);
}

static void test_cpu_max(void **state)
{
    (void)state;
    assert_int_equal(cpus_of_cpu_max("max 100000\n"), 0);
    assert_int_equal(cpus_of_cpu_max("200000 100000\n"), 2);
    assert_int_equal(cpus_of_cpu_max("250000 100000\n"), 3);
    assert_int_equal(cpus_of_cpu_max("100000 50000\n"), 2);
    assert_int_equal(cpus_of_cpu_max("50000\n"), 1);        /* period left at its default, 100000 */
    assert_int_equal(cpus_of_cpu_max("junk\n"), 0);
    assert_int_equal(cpus_of_cpu_max(""), 0);
}

/* The project's VM: v1 controllers, each its own mount, and v2 beside them. */
static const char *hybrid_mounts =
    "30 22 0:27 / /sys/fs/cgroup rw,relatime - tmpfs tmpfs rw,mode=755\n"
    "32 30 0:29 / /sys/fs/cgroup/cpuacct rw,relatime - cgroup cgroup rw,cpuacct\n"
    "33 30 0:30 / /sys/fs/cgroup/cpuset rw,relatime - cgroup cgroup rw,cpuset\n"
    "31 30 0:28 / /sys/fs/cgroup/cpu rw,relatime - cgroup cgroup rw,cpu\n"
    "40 30 0:37 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw\n";

/* Docker on cgroup v1: cpu and cpuacct in one hierarchy, optional fields
 * before the separator, the mount showing the container's own cgroup. */
static const char *docker_mounts =
    "1320 1311 0:23 / / rw,relatime master:1 - overlay overlay rw,lowerdir=/l\n"
    "1325 1324 0:26 /docker/abc /sys/fs/cgroup/cpu,cpuacct ro,nosuid shared:12 master:9 - cgroup cgroup rw,cpu,cpuacct\n"
    "1326 1324 0:27 /docker/abc /sys/fs/cgroup/cpuset ro,nosuid - cgroup cgroup rw,cpuset\n";

static void test_mounts(void **state)
{
    (void)state;
    char point[256], root[256];
    assert_true(cpus_cgroup_mount(hybrid_mounts, 0, point, root, sizeof point));
    assert_string_equal(point, "/sys/fs/cgroup/unified");
    assert_string_equal(root, "/");
    assert_true(cpus_cgroup_mount(hybrid_mounts, 1, point, root, sizeof point));   /* not cpuacct, listed first */
    assert_string_equal(point, "/sys/fs/cgroup/cpu");
    assert_true(cpus_cgroup_mount(docker_mounts, 1, point, root, sizeof point));
    assert_string_equal(point, "/sys/fs/cgroup/cpu,cpuacct");
    assert_string_equal(root, "/docker/abc");
    assert_false(cpus_cgroup_mount(docker_mounts, 0, point, root, sizeof point));  /* no v2 there */
    assert_false(cpus_cgroup_mount(hybrid_mounts, 0, point, root, 8));            /* no room: not found */
    assert_false(cpus_cgroup_mount("", 1, point, root, sizeof point));
    assert_false(cpus_cgroup_mount("garbage without fields\n", 1, point, root, sizeof point));
}

static void test_cgroup_paths(void **state)
{
    (void)state;
    char path[256];
    const char *hybrid = "4:memory:/process_api/cebd\n3:cpuset:/\n2:cpuacct:/\n1:cpu:/\n0::/\n";
    assert_true(cpus_cgroup_path(hybrid, 0, path, sizeof path));
    assert_string_equal(path, "/");
    assert_true(cpus_cgroup_path(hybrid, 1, path, sizeof path));
    assert_string_equal(path, "/");
    const char *docker = "12:cpuset:/docker/abc\n4:cpu,cpuacct:/docker/abc\n1:name=systemd:/docker/abc\n";
    assert_true(cpus_cgroup_path(docker, 1, path, sizeof path));
    assert_string_equal(path, "/docker/abc");
    assert_false(cpus_cgroup_path(docker, 0, path, sizeof path));
    assert_true(cpus_cgroup_path("0::/user.slice/user-1000.slice/session-2.scope\n", 0, path, sizeof path));
    assert_string_equal(path, "/user.slice/user-1000.slice/session-2.scope");
    assert_false(cpus_cgroup_path("2:cpuacct:/x\n", 1, path, sizeof path));   /* cpuacct is not cpu */
    assert_false(cpus_cgroup_path("", 0, path, sizeof path));
    assert_true(cpus_cgroup_path("1::/not-v2\n0::/v2\n", 0, path, sizeof path));   /* v2 is hierarchy 0 */
    assert_string_equal(path, "/v2");
}

static void put(const char *dir, const char *name, const char *text)
{
    char path[256];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

/* A hand-made hierarchy: the mount point limits 4 CPUs, /a 2.5 (so 3),
 * /a/b none ("max"): the process in /a/b gets the least, 3; in /a/b/c (no
 * files there) 3 too; at the top 4.  Under cgroup v1, quota and period
 * files.  A path outside the mount's root reads the mount point only. */
static void test_quota_walk(void **state)
{
    (void)state;
    char top[] = "/tmp/gpusim-cpus-XXXXXX", a[64], b[64], c[64];
    assert_non_null(mkdtemp(top));
    snprintf(a, sizeof a, "%s/a", top);
    snprintf(b, sizeof b, "%s/a/b", top);
    snprintf(c, sizeof c, "%s/a/b/c", top);
    assert_int_equal(mkdir(a, 0700), 0);
    assert_int_equal(mkdir(b, 0700), 0);
    assert_int_equal(mkdir(c, 0700), 0);
    put(top, "cpu.max", "400000 100000\n");
    put(a, "cpu.max", "250000 100000\n");
    put(b, "cpu.max", "max 100000\n");
    assert_int_equal(cpus_cgroup_quota(top, "/", "/a/b", 0), 3);
    assert_int_equal(cpus_cgroup_quota(top, "/", "/a/b/c", 0), 3);
    assert_int_equal(cpus_cgroup_quota(top, "/", "/", 0), 4);
    assert_int_equal(cpus_cgroup_quota(top, "/docker/x", "/docker/x/a", 0), 3);   /* below a mount's own root */
    assert_int_equal(cpus_cgroup_quota(top, "/docker/x", "/elsewhere/a", 0), 4);  /* outside it */
    assert_int_equal(cpus_cgroup_quota(top, "/docker/x", "/docker/xa", 0), 4);    /* a sibling, not below it */
    put(a, "cpu.max", "100000 100000\n");
    assert_int_equal(cpus_cgroup_quota(top, "/", "/a/b", 0), 1);
    put(top, "cpu.max", "100000 100000\n");                                       /* above a mount at a: not read */
    put(a, "cpu.max", "300000 100000\n");
    assert_int_equal(cpus_cgroup_quota(a, "/", "/b", 0), 3);
    put(b, "cpu.cfs_quota_us", "200000\n");                                       /* cgroup v1 */
    put(b, "cpu.cfs_period_us", "100000\n");
    put(top, "cpu.cfs_quota_us", "-1\n");
    put(top, "cpu.cfs_period_us", "100000\n");
    assert_int_equal(cpus_cgroup_quota(top, "/", "/a/b", 1), 2);
    assert_int_equal(cpus_cgroup_quota(top, "/", "/", 1), 0);                       /* -1: no limit */
    const char *files[][2] = { { b, "cpu.max" }, { b, "cpu.cfs_quota_us" }, { b, "cpu.cfs_period_us" },
                               { a, "cpu.max" }, { top, "cpu.max" }, { top, "cpu.cfs_quota_us" },
                               { top, "cpu.cfs_period_us" } };
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        char path[256];
        snprintf(path, sizeof path, "%s/%s", files[i][0], files[i][1]);
        assert_int_equal(unlink(path), 0);
    }
    assert_int_equal(rmdir(c), 0);
    assert_int_equal(rmdir(b), 0);
    assert_int_equal(rmdir(a), 0);
    assert_int_equal(rmdir(top), 0);
}

/* An affinity mask of one CPU (taskset -c N) leaves one, whatever the
 * machine has; the mask restored, host_cpus is back where it was. */
static void test_affinity(void **state)
{
    (void)state;
    int before = host_cpus();
    long online = sysconf(_SC_NPROCESSORS_ONLN);
    assert_true(before >= 1 && before <= (online > 0 ? online : 1));
#ifdef __linux__
    cpu_set_t all, one;
    assert_int_equal(sched_getaffinity(0, sizeof all, &all), 0);
    int cpu = 0;
    while (cpu < CPU_SETSIZE && !CPU_ISSET(cpu, &all)) cpu++;
    CPU_ZERO(&one);
    CPU_SET(cpu, &one);
    assert_int_equal(sched_setaffinity(0, sizeof one, &one), 0);
    int pinned = host_cpus();
    assert_int_equal(sched_setaffinity(0, sizeof all, &all), 0);
    assert_int_equal(pinned, 1);
    assert_int_equal(host_cpus(), before);
#endif
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_quota),
        cmocka_unit_test(test_cpu_max),
        cmocka_unit_test(test_mounts),
        cmocka_unit_test(test_cgroup_paths),
        cmocka_unit_test(test_quota_walk),
        cmocka_unit_test(test_affinity),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
