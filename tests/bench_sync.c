/* bench_sync.c - what a barrier between host threads costs on this machine:
 * N threads pass a sense-reversing spin barrier R times; prints ns per
 * barrier (the parallel-engine model of docs/parallel.md).  `make bench-sync`. */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static atomic_int count;
static atomic_int sense;
static int nthreads, rounds;

static void barrier_wait(int *local)
{
    *local = !*local;
    if (atomic_fetch_add(&count, 1) == nthreads - 1) {
        atomic_store(&count, 0);
        atomic_store(&sense, *local);
    } else
        while (atomic_load(&sense) != *local) { }
}

static void *run(void *arg)
{
    (void)arg;
    int local = 0;
    for (int i = 0; i < rounds; i++) barrier_wait(&local);
    return NULL;
}

int main(int argc, char **argv)
{
    nthreads = argc > 1 ? atoi(argv[1]) : 2;
    rounds = argc > 2 ? atoi(argv[2]) : 1000000;
    pthread_t th[64];
    struct timespec a, b;
    clock_gettime(CLOCK_MONOTONIC, &a);
    for (int i = 1; i < nthreads; i++) pthread_create(&th[i], NULL, run, NULL);
    run(NULL);
    for (int i = 1; i < nthreads; i++) pthread_join(th[i], NULL);
    clock_gettime(CLOCK_MONOTONIC, &b);
    double ns = ((double)(b.tv_sec - a.tv_sec) * 1e9 + (double)(b.tv_nsec - a.tv_nsec)) / rounds;
    printf("threads %d rounds %d: %.1f ns per barrier\n", nthreads, rounds, ns);
    return 0;
}
