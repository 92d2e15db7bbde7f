#!/usr/bin/env bash
# Build, disassemble and measure the gpusim calibration programs on an H100.
# usage: tests/validation/cuda/measure.sh OUTDIR [quick|full]
# Needs nvcc (sm_90), cuobjdump, ncu and python3 (standard library). Writes into OUTDIR:
#   info/        nvidia-smi, nvcc, ncu versions, date, the commands run
#   bin/         the executables;  ptx/ (nvcc -ptx) and ptx_lineinfo/ (nvcc -ptx -lineinfo)
#   sass/        cuobjdump -sass (full_NAME.sass; NAME.sass without the 64-bit encoding comments)
#                and cuobjdump -res-usage of each executable; sass_summary.csv: registers, shared
#                memory and SASS instruction counts per kernel
#   micro.csv    bench,param,value,unit (micro); l2_nearfar.csv (per SM and line)
#   kernels.csv  one row per validation launch (ncu counters + kernel arguments)
#   launch_overhead.csv  ncu cycles of empty/tiny kernels at grids 1..1024
#   *_clock_none.csv     the same ncu rows with --clock-control none (boost clocks) instead of base
set -u
SRC=$(cd "$(dirname "$0")" && pwd)
OUT=${1:?usage: measure.sh OUTDIR [quick|full]}
MODE=${2:-full}
mkdir -p "$OUT"/{info,bin,ptx,ptx_lineinfo,sass,ncu}
OUT=$(cd "$OUT" && pwd)
log() { echo "[$(date -u +%H:%M:%S)] $*" | tee -a "$OUT/info/commands.log"; }
NVFLAGS="-O3 -arch=sm_90"
{
  date -u; nvidia-smi; nvidia-smi -q -d CLOCK,PERFORMANCE,POWER
  nvidia-smi --query-gpu=name,driver_version,pci.bus_id,clocks.sm,clocks.max.sm,clocks.mem,clocks.max.mem,clocks.applications.graphics,clocks.applications.memory,power.limit --format=csv
  nvcc --version; ncu --version; cuobjdump --version
} > "$OUT/info/environment.txt" 2>&1
log "build: nvcc $NVFLAGS -lineinfo; -ptx; -ptx -lineinfo; cuobjdump -sass / -res-usage"
for f in micro kernels_val launch; do
  ( nvcc $NVFLAGS -lineinfo -o "$OUT/bin/$f" "$SRC/$f.cu" > "$OUT/info/build_$f.log" 2>&1 &&
    cuobjdump -sass "$OUT/bin/$f" > "$OUT/sass/full_$f.sass" && cuobjdump -res-usage "$OUT/bin/$f" > "$OUT/sass/$f.res-usage.txt" &&
    sed -E 's@ +/\* 0x[0-9a-f]{16} \*/@@' "$OUT/sass/full_$f.sass" | grep -v '^\s*$' > "$OUT/sass/$f.sass" ) &
  nvcc $NVFLAGS -ptx -o "$OUT/ptx/$f.ptx" "$SRC/$f.cu" > /dev/null 2>&1 &
  nvcc $NVFLAGS -lineinfo -ptx -o "$OUT/ptx_lineinfo/$f.ptx" "$SRC/$f.cu" > /dev/null 2>&1 &
done
wait
for f in micro kernels_val launch; do [ -x "$OUT/bin/$f" ] || { log "BUILD FAILED: $f"; cat "$OUT/info/build_$f.log"; }; done
python3 "$SRC/sass_summary.py" "$OUT/sass_summary.csv" "$OUT/sass/kernels_val.res-usage.txt" "$OUT/sass/kernels_val.sass" \
  "$OUT/sass/launch.res-usage.txt" "$OUT/sass/launch.sass" "$OUT/sass/micro.res-usage.txt" "$OUT/sass/micro.sass"

log "micro $MODE"
timeout 150 "$OUT/bin/micro" "$MODE" "$OUT" > "$OUT/micro.csv" 2> "$OUT/info/micro.err"; log "micro rc=$?"

METRICS=gpc__cycles_elapsed.max,sm__cycles_active.avg,smsp__inst_executed.sum,\
l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,\
l1tex__t_requests_pipe_lsu_mem_global_op_st.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum,\
smsp__inst_executed_op_shared_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,\
l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,smsp__inst_executed_op_shared_st.sum,\
l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum,\
dram__bytes_read.sum,dram__bytes_write.sum,launch__registers_per_thread,\
sm__warps_active.avg.pct_of_peak_sustained_active,gpu__time_duration.sum,sm__cycles_elapsed.avg.per_second,\
l1tex__t_sector_hit_rate.pct,lts__t_sector_hit_rate.pct,launch__shared_mem_per_block_static
LIMIT=""; [ "$MODE" = quick ] && LIMIT="--launch-count 6"
# Each ncu run is capped (timeout) so that the whole script ends within ~9 minutes.
for CC in base none; do
  SUF=""; [ "$CC" = none ] && SUF="_clock_none"
  NCU="ncu --metrics $METRICS --cache-control all --clock-control $CC $LIMIT"
  echo "$NCU" >> "$OUT/info/ncu_command.txt"
  log "ncu launch overhead (clock-control $CC)"
  timeout 100 $NCU -f -o "$OUT/ncu/launch$SUF" "$OUT/bin/launch" "$OUT/ncu/launch_log$SUF.csv" > "$OUT/info/ncu_launch$SUF.log" 2>&1; log "rc=$?"
  ncu --import "$OUT/ncu/launch$SUF.ncu-rep" --csv --page raw --print-units base > "$OUT/ncu/launch_raw$SUF.csv" 2>> "$OUT/info/ncu_launch$SUF.log"
  python3 "$SRC/ncu2csv.py" "$OUT/ncu/launch_raw$SUF.csv" "$OUT/ncu/launch_log$SUF.csv" "$OUT/launch_overhead$SUF.csv" 2>&1 | tee -a "$OUT/info/commands.log"
  if [ "$CC" = base ]; then
    log "kernels_val (no profiler, sanity run)"
    timeout 60 "$OUT/bin/kernels_val" "$MODE" "$OUT/ncu/kernels_log_plain.csv" > "$OUT/info/kernels_plain.log" 2>&1; log "rc=$?"
  fi
  log "ncu kernels_val (clock-control $CC)"
  timeout 170 $NCU -f -o "$OUT/ncu/kernels$SUF" "$OUT/bin/kernels_val" "$MODE" "$OUT/ncu/kernels_log$SUF.csv" > "$OUT/info/ncu_kernels$SUF.log" 2>&1; log "rc=$?"
  ncu --import "$OUT/ncu/kernels$SUF.ncu-rep" --csv --page raw --print-units base > "$OUT/ncu/kernels_raw$SUF.csv" 2>> "$OUT/info/ncu_kernels$SUF.log"
  python3 "$SRC/ncu2csv.py" "$OUT/ncu/kernels_raw$SUF.csv" "$OUT/ncu/kernels_log$SUF.csv" "$OUT/kernels$SUF.csv" 2>&1 | tee -a "$OUT/info/commands.log"
done
nvidia-smi --query-gpu=clocks.sm,clocks.mem,temperature.gpu,power.draw --format=csv >> "$OUT/info/environment.txt" 2>&1
log "done"
