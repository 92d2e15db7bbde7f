#!/bin/sh
# ab.sh N OLD NEW ARGS...: is NEW faster than OLD?  Runs `OLD ARGS` and
# `NEW ARGS` N times each, one after the other (old, new, old, new, ...),
# and prints each binary's fastest and median wall-clock seconds, e.g.
#
#     tests/ab.sh 5 /tmp/gpusim.old ./gpusim --threads 1 -D N=2048 \
#         configs/hopper.ini tests/validation/nvcc/transpose_naive.s
#
# Interleaved because a shared machine's speed drifts within minutes
# (this project's VM: 5-20% from hour to hour): all of one binary's runs
# before the other's let the drift pass for a gain or a loss.  Output is
# thrown away; a run that fails stops the comparison.  Report medians of 5
# or more, and only a difference larger than the spread of either side
# (docs/performance.md).
[ $# -ge 4 ] || { echo "usage: tests/ab.sh N OLD NEW ARGS..." >&2; exit 2; }
n=$1; old=$2; new=$3; shift 3
dir=$(mktemp -d "${TMPDIR:-/tmp}/gpusim-ab-XXXXXX") || exit 2
trap 'rm -rf "$dir"' EXIT
now() { date +%s.%N; }
i=0
while [ "$i" -lt "$n" ]; do
    for b in old new; do
        if [ "$b" = old ]; then bin=$old; else bin=$new; fi
        t0=$(now)
        "$bin" "$@" >/dev/null 2>&1 || { echo "ab: $bin $* failed" >&2; exit 1; }
        t1=$(now)
        echo "$t0 $t1" | awk '{ printf "%.3f\n", $2 - $1 }' >>"$dir/$b"
    done
    i=$((i + 1))
done
for b in old new; do
    if [ "$b" = old ]; then bin=$old; else bin=$new; fi
    sort -n "$dir/$b" | awk -v b="$b" -v bin="$bin" '
        { v[NR] = $1 }
        END { m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
              printf "%s (%s): fastest %.2f s, median %.2f s, %d runs\n", b, bin, v[1], m, NR }'
done
