#!/bin/sh
# Runs each CMocka test binary given as an argument from the repo root and
# prints one closing line: "tests: N passed, N failed".
pass=0; fail=0; bad=""
for t in "$@"; do
    out=$("$t" 2>&1); rc=$?
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
