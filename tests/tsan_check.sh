#!/bin/sh
# tsan_check.sh TSAN_BINARY PLAIN_BINARY: the parallel simulation under
# ThreadSanitizer.  A few launches chosen to reach every part of it run on 2
# host threads with TSAN_BINARY (built with -fsanitize=thread: `make tsan`)
# and on 1 thread with PLAIN_BINARY, through tests/same_reports.sh: the SM
# lanes and the memory partitions side by side (hopper.ini, fermi.ini),
# global stores and L1 loads (transpose_naive, nvcc's naive_mm), shared
# memory and barriers (tiled_mm), atomics and posted reductions
# (histogram), shuffles (reduce_shfl), printf's order (printf_order) and a
# fault in the middle of a launch (fault_oob); and fermi.ini's tiled_mm with
# the progress meter ticking.  A data race makes the run
# exit 66 with ThreadSanitizer's report, printed here; any other
# difference from the one-thread report fails too.  Prints
# "tsan_check: N runs and one with the progress meter, no data race" when
# all is well.  Run from the
# repository root.  (docs/parallel.md: the determinism tests.)
[ $# -eq 2 ] || { echo "usage: tests/tsan_check.sh TSAN_BINARY PLAIN_BINARY" >&2; exit 2; }
tsan=$1; plain=$2
for b in "$tsan" "$plain"; do
    [ -x "$b" ] || { echo "tsan_check: $b is not an executable" >&2; exit 2; }
done
# On some machines the operating system lays out a process's memory in a way
# ThreadSanitizer's runtime cannot work with (it says so and stops at once,
# e.g. "unexpected memory mapping" under a high vm.mmap_rnd_bits): then
# there is nothing to check.
if ! probe=$("$tsan" --version 2>&1); then
    echo "tsan_check: skipped, the ThreadSanitizer runtime does not start on this machine:"
    printf '%s\n' "$probe" | head -3
    exit 0
fi
[ "$(nproc 2>/dev/null || echo 1)" -ge 2 ] ||
    echo "tsan_check: this process may use one CPU, so --threads 2 runs one thread: the check reaches no parallel code here"
logs=$(mktemp -d) || exit 2
trap 'rm -rf "$logs"' EXIT
kernels="kernels/transpose_naive.s kernels/histogram.s kernels/tiled_mm.s kernels/reduce_shfl.s
         tests/data/printf_order.s tests/data/fault_oob.s tests/validation/nvcc/naive_mm.s"
configs="configs/hopper.ini configs/fermi.ini"
# The progress meter reads the lanes' counters between the loop's phases:
# one more run with it ticking (--progress=0: at every tick; its lines hold
# host times, so only the exit code is compared).
meter_ok() {
    TSAN_OPTIONS="log_path=$logs/report exitcode=66" \
        "$tsan" --threads 2 --progress=0 configs/fermi.ini kernels/tiled_mm.s >/dev/null 2>"$logs/meter.err" ||
        { echo "tsan_check: the run with --progress=0 failed:"; cat "$logs/meter.err"; return 1; }
}
if out=$(TSAN_OPTIONS="log_path=$logs/report exitcode=66" SAME_KERNELS="$kernels" SAME_CONFIGS="$configs" \
         sh tests/same_reports.sh "$plain" "$tsan" 2) && out2=$(meter_ok); then
    n=$(printf '%s\n' "$out" | sed -n 's/^same_reports: \([0-9]*\) runs.*/\1/p')
    echo "tsan_check: $n runs and one with the progress meter, no data race"
    exit 0
fi
printf '%s\n' "${out2:-}"
printf '%s\n' "$out"
for f in "$logs"/report*; do
    [ -f "$f" ] && cat "$f"
done
exit 1
