#!/bin/sh
# same_reports.sh OLD NEW [THREADS...]: does a change leave every report as
# it was?  Runs every kernel of kernels/ and tests/validation/nvcc/ on every
# config of configs/ with the binary OLD on one thread and with NEW on each
# thread count given (default: 1 and 3), and compares what each run wrote:
# the JSON report (stdout), stderr and the exit code, byte for byte.  Prints
# each run that differs and a closing line "same_reports: N runs, M differ";
# exits 1 if any differ.  Run from the repository root, e.g.
#
#     git stash; make gpusim && cp gpusim /tmp/gpusim.old; git stash pop
#     make gpusim && tests/same_reports.sh /tmp/gpusim.old ./gpusim
#
# (about 10 s a thread count on 2 cores).  A speed change must pass it: the
# timing model's output may not move (docs/performance.md).  The runs go
# side by side, as many at a time as `nproc` says.  SAME_KERNELS and
# SAME_CONFIGS (file names, globs allowed) replace the kernels and configs
# (`make test` runs one of each through it).
[ $# -ge 2 ] || { echo "usage: tests/same_reports.sh OLD NEW [THREADS...]" >&2; exit 2; }
old=$1; new=$2; shift 2
[ $# -gt 0 ] || set -- 1 3
for b in "$old" "$new"; do
    [ -x "$b" ] || { echo "same_reports: $b is not an executable" >&2; exit 2; }
done
case $old in /*) ;; *) old=$(pwd)/$old ;; esac
case $new in /*) ;; *) new=$(pwd)/$new ;; esac
dir=$(mktemp -d "${TMPDIR:-/tmp}/gpusim-same-XXXXXX") || exit 2
trap 'rm -rf "$dir"' EXIT
jobs=$(nproc 2>/dev/null || echo 2)
kernels=${SAME_KERNELS:-"kernels/*.s tests/validation/nvcc/*.s"}
configs=${SAME_CONFIGS:-"configs/*.ini"}
# one line a run: binary, threads, config, kernel, output name, directory
# (xargs hands a line's words to sh -c as $1..$6: no spaces in the paths)
for k in $kernels; do
    for c in $configs; do
        n=$(printf '%s_%s' "$k" "$(basename "$c" .ini)" | tr '/' '_')
        echo "$old 1 $c $k old_$n $dir"
        for t in "$@"; do echo "$new $t $c $k new${t}_$n $dir"; done
    done
done >"$dir/runs"
# shellcheck disable=SC2016  # the inner shell expands them
xargs -P "$jobs" -L 1 sh -c \
    '"$1" --threads "$2" --format json "$3" "$4" >"$6/$5.out" 2>"$6/$5.err"; echo $? >"$6/$5.rc"' _ <"$dir/runs"
runs=0; diff=0
for k in $kernels; do
    for c in $configs; do
        n=$(printf '%s_%s' "$k" "$(basename "$c" .ini)" | tr '/' '_')
        for t in "$@"; do
            runs=$((runs + 1))
            for part in out err rc; do
                if ! cmp -s "$dir/old_$n.$part" "$dir/new${t}_$n.$part"; then
                    echo "differs: $k on $c at $t threads ($part)"
                    diff=$((diff + 1))
                    break
                fi
            done
        done
    done
done
echo "same_reports: $runs runs, $diff differ"
[ "$diff" -eq 0 ]
