#!/bin/sh
# Runs each CMocka test binary given as an argument from the repo root and
# prints one closing line: "tests: N passed, N failed".  The binaries run
# side by side, as many at a time as the process may use CPUs (nproc: its
# affinity mask counted; TEST_JOBS overrides it); each one's output is
# printed, in the order given, when all are done.  (No two binaries write
# the same file.)  A binary still running after TEST_TIMEOUT seconds
# (default 600; the slowest takes under a minute) is stopped and fails as
# hung, so a deadlock fails the run with its name instead of holding CI
# until its own limit.
jobs=${TEST_JOBS:-$(nproc 2>/dev/null || getconf _NPROCESSORS_ONLN 2>/dev/null || echo 2)}
limit=${TEST_TIMEOUT:-600}
dir=$(mktemp -d "${TMPDIR:-/tmp}/gpusim-tests-XXXXXX") || exit 1
trap 'rm -rf "$dir"' EXIT
if command -v timeout >/dev/null 2>&1; then stop="timeout $limit"; else stop=""; fi
printf '%s\n' "$@" | xargs -P "$jobs" -I{} sh -c \
    'n=$(basename "$1"); $3 "$1" >"$2/$n.out" 2>&1; rc=$?
     [ -n "$3" ] && [ $rc -eq 124 ] && echo "$n: HUNG: no result after $4 s (stopped)" >>"$2/$n.out"
     echo $rc >"$2/$n.rc"' _ {} "$dir" "$stop" "$limit"
pass=0; fail=0; bad=""
for t in "$@"; do
    n=$(basename "$t")
    out=$(cat "$dir/$n.out"); rc=$(cat "$dir/$n.rc" 2>/dev/null || echo 1)
    printf '%s\n' "$out" | grep -E '^\[  (PASSED|FAILED) |^\[  ERROR|^\[  FAILED|^\[ +FAILED|^\[ +ERROR|ERROR:|runtime error|Sanitizer|: HUNG:' || true
    p=$(printf '%s\n' "$out" | sed -n 's/^\[  PASSED  \] \([0-9]*\) test.*/\1/p' | tail -n 1)
    f=$(printf '%s\n' "$out" | sed -n 's/^\[  FAILED  \] \([0-9]*\) test.*/\1/p' | tail -n 1)
    pass=$((pass + ${p:-0}))
    if [ "$rc" -ne 0 ]; then
        fail=$((fail + ${f:-1})); bad="$bad $t"
        printf '%s\n' "$out" | tail -n 40
    fi
done
[ -n "$bad" ] && echo "failing:$bad"
echo "tests: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
