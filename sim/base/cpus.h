/* cpus.h - how many CPUs this process may use.
 *
 * sysconf's online count is the machine's.  A container or a batch system
 * often gives a process fewer: an affinity mask (taskset, Slurm, docker
 * --cpuset-cpus) or a CPU-time quota (docker --cpus, a Kubernetes limit:
 * the cgroup's cpu.max, or cpu.cfs_quota_us under cgroup v1).  More
 * threads than that share the CPUs they have: each phase's barrier then
 * waits for a thread that is not running (taskset -c 0, hopper.ini
 * transpose_naive 1024^2: 1.55 s on 1 thread, 3.29 s on 2).  --threads'
 * default and a sweep's share of the cores use host_cpus().
 *
 * The parsers are apart so that tests can give them text: each reads what
 * the kernel writes (proc(5), cgroups(7)) and says 0 where it finds no
 * limit or cannot read one. */
#ifndef GPUSIM_CPUS_H
#define GPUSIM_CPUS_H

/* The CPUs this process may run on: the least of the online CPUs, its
 * affinity mask and its cgroup's CPU quota (rounded up); at least 1. */
int host_cpus(void);

/* What a quota of `quota` microseconds each `period` buys, rounded up
 * (150000 per 100000: 2); 0 if quota is not positive (no limit). */
int cpus_of_quota(long long quota, long long period);

/* cgroup v2's cpu.max text ("max 100000", "150000 100000"): its CPUs as
 * cpus_of_quota; 0 for "max" or text it does not read. */
int cpus_of_cpu_max(const char *text);

/* From /proc/self/mountinfo's text, the mount point of the cgroup v2
 * hierarchy (v1 0) or of the v1 hierarchy holding the cpu controller
 * (v1 1), and the cgroup path its root shows, into point and root
 * (each of `size` bytes).  1 if found. */
int cpus_cgroup_mount(const char *mountinfo, int v1, char *point, char *root, int size);

/* From /proc/self/cgroup's text, the process's cgroup path in the v2
 * hierarchy (v1 0: the line "0::path") or in the v1 hierarchy of the
 * cpu controller (v1 1), into path (`size` bytes).  1 if found. */
int cpus_cgroup_path(const char *cgroup, int v1, char *path, int size);

/* The least quota (cpus_of_quota) from the cgroup `path` up to the root
 * of the hierarchy mounted at `point` (whose mountinfo root is `root`): a
 * parent's limit holds for its children.  Reads cpu.max (v1 0) or
 * cpu.cfs_quota_us and cpu.cfs_period_us (v1 1) at each level; a path
 * outside root reads the mount point's only.  0 if no level limits. */
int cpus_cgroup_quota(const char *point, const char *root, const char *path, int v1);

#endif
