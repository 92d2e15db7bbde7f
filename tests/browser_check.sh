#!/bin/sh
# The trace viewer in a real browser (headless Chromium), where a unit test
# cannot reach: the page's script runs on real traces, and what it puts into
# the page (finders, badges, the source-lines panel, the bank map) is read
# back from the DOM.  Run from the repo root with the gpusim binary as $1.
# Skipped, with a note, when no Chromium is installed (apt-get install -y chromium).
bin=${1:-./gpusim}
browser=
for b in chromium chromium-browser google-chrome; do
    if command -v "$b" >/dev/null 2>&1; then browser=$b; break; fi
done
if [ -z "$browser" ]; then
    echo "chromium not found: skipped the viewer's browser check (tests/browser_check.sh)"
    exit 0
fi
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail=0
trace() { n=$1; shift; "$bin" --trace "$dir/$n.html" "$@" >/dev/null 2>&1 || { echo "browser_check: gpusim failed for $n"; fail=1; }; }
trace ts configs/fermi.ini kernels/transpose_shared.s
trace eo configs/fermi.ini kernels/evenodd.s
trace sc -D STRIDE=16 configs/fermi.ini kernels/strided_copy.s
trace tm configs/fermi.ini kernels/tiled_mm.s
# dom NAME HASH: the page after its script ran, in $dir/NAME.dom; console errors in $dir/NAME.err
dom() {
    timeout 120 "$browser" --headless --no-sandbox --disable-gpu --user-data-dir="$dir/profile" \
        --window-size=1400,900 --enable-logging=stderr --v=0 \
        --dump-dom "file://$dir/$1.html#$2" > "$dir/$1.dom" 2> "$dir/$1.err"
    if grep -q 'Uncaught' "$dir/$1.err"; then
        echo "browser_check: $1.html#$2: a script error:"; grep 'Uncaught' "$dir/$1.err" | head -3; fail=1
    fi
}
# has NAME TEXT WHAT: the DOM of NAME contains TEXT
has() {
    if ! grep -qF -- "$2" "$dir/$1.dom"; then echo "browser_check: $1: $3 (no '$2')"; fail=1; fi
}
dom ts 'pick=conflict'
has ts 'id="detailbody"' "the page was not drawn"
has ts '32 wavefronts</b>' "#pick=conflict should open the 32-way ld.shared"
has ts '<b class="bad">32-way</b>' "the bank map's summary names the 32-way conflict"
has ts 'class="bankmap"' "the bank map is drawn"
has ts 'id="fdiv" title="the first issue with fewer lanes active than the warp has threads (#pick=divergent): none in this window" disabled=""' \
    "transpose_shared never diverges: the divergent finder is off"
has ts 'no warp diverges in this window' "uniform warps collapse and the lane panel says so"
dom ts 'line=89'
has ts '<tr class="l cur" data-line="89">' "#line=89 opens the source-lines panel with line 89 marked"
has ts 'Source lines' "the source-lines panel"
has ts '<td class="bad">32-way</td>' "line 89's bank ways"
dom sc 'pick=uncoalesced'
has sc '<b class="bad">32 sectors</b>' "#pick=uncoalesced opens a 32-sector load at stride 16"
has sc 'id="mshint">whole GPU, per sample' "the memory-system panel has samples with cache and DRAM counters"
dom eo 'pick=divergent'
has eo 'Active mask: 8 of 32 lanes' "#pick=divergent opens evenodd's bounds-test warp"
dom tm 'pick=global'
ms=$(grep -o 'data-drawn-ms="[0-9]*"' "$dir/tm.dom" | grep -o '[0-9][0-9]*')
size=$(wc -c < "$dir/tm.html")
if [ -z "$ms" ] || [ "${ms:-0}" -ge 3000 ]; then echo "browser_check: tiled_mm's trace took ${ms:-?} ms to draw (limit 3000)"; fail=1; fi
if [ "$size" -ge 10000000 ]; then echo "browser_check: tiled_mm's trace is $size bytes (limit 10 MB)"; fail=1; fi
[ "$fail" -eq 0 ] && echo "browser check ($browser): the viewer on 4 traces: ok (tiled_mm: $size bytes, drawn in $ms ms)"
exit "$fail"
