#!/usr/bin/env bash
# Warp-state (stall) breakdown of the matrix multiplies and of inflight_d16 on an
# H100, and the mlp_spread microbenchmark.  usage: measure_stalls.sh OUTDIR
# Writes OUTDIR/mlp_spread.csv, OUTDIR/stalls_kernels.csv (ncu --page raw of
# kernels_val quick's naive_mm, tiled_mm, transpose_* launches, WarpStateStats),
# OUTDIR/stalls_inflight.csv (inflight_d16 launches), OUTDIR/stalls.log.
set -u
SRC=$(cd "$(dirname "$0")" && pwd)
OUT=${1:?usage: measure_stalls.sh OUTDIR}
B=$(mktemp -d)
nvcc -O3 -arch=sm_90 -o "$B/mlp_spread" "$SRC/mlp_spread.cu" &&
nvcc -O3 -arch=sm_90 -lineinfo -o "$B/kernels_val" "$SRC/kernels_val.cu" &&
nvcc -O3 -arch=sm_90 -o "$B/inflight" "$SRC/inflight.cu" || exit 1
"$B/mlp_spread" "$OUT/mlp_spread.csv" > "$OUT/stalls.log" 2>&1
S="--section WarpStateStats --section LaunchStats --metrics sm__cycles_active.avg,gpc__cycles_elapsed.max,smsp__inst_executed.sum"
timeout 200 ncu $S --clock-control none -k regex:'naive_mm|tiled_mm|transpose' -f -o "$B/k" "$B/kernels_val" quick "$B/klog.csv" >> "$OUT/stalls.log" 2>&1
ncu --import "$B/k.ncu-rep" --csv --page raw --print-units base > "$OUT/stalls_kernels.csv" 2>> "$OUT/stalls.log"
cp "$B/klog.csv" "$OUT/stalls_kernels_launches.csv"
timeout 200 ncu $S --clock-control none -k regex:'inflight_d16$' -f -o "$B/i" "$B/inflight" "$B/i.csv" >> "$OUT/stalls.log" 2>&1
ncu --import "$B/i.ncu-rep" --csv --page raw --print-units base > "$OUT/stalls_inflight.csv" 2>> "$OUT/stalls.log"
tail -5 "$OUT/stalls.log"
