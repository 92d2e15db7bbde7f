#!/bin/sh
# Runs each CMocka test binary given as an argument from the repo root and
# prints one closing line: "tests: N passed, N failed".  The binaries run
# side by side, as many at a time as the machine has cores (TEST_JOBS
# overrides it); each one's output is printed, in the order given, when all
# are done.  (No two binaries write the same file.)
jobs=${TEST_JOBS:-$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 2)}
dir=$(mktemp -d "${TMPDIR:-/tmp}/gpusim-tests-XXXXXX") || exit 1
trap 'rm -rf "$dir"' EXIT
printf '%s\n' "$@" | xargs -P "$jobs" -I{} sh -c \
    'n=$(basename "$1"); "$1" >"$2/$n.out" 2>&1; echo $? >"$2/$n.rc"' _ {} "$dir"
pass=0; fail=0; bad=""
for t in "$@"; do
    n=$(basename "$t")
    out=$(cat "$dir/$n.out"); rc=$(cat "$dir/$n.rc" 2>/dev/null || echo 1)
    printf '%s\n' "$out" | grep -E '^\[  (PASSED|FAILED) |^\[  ERROR|^\[  FAILED|^\[ +FAILED|^\[ +ERROR|ERROR:|runtime error|Sanitizer' || true
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
