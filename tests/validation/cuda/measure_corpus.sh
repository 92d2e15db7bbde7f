#!/usr/bin/env bash
# Build, run and measure the real-PTX corpus (kernels_corpus.cu) on an H100.
# usage: tests/validation/cuda/measure_corpus.sh OUTDIR
# Writes into OUTDIR:
#   info/            environment, build log, the commands run
#   kernels_corpus.ptx  nvcc -O3 -arch=sm_90 -lineinfo -ptx (what the wrappers include)
#   sass/            cuobjdump -sass and -res-usage; sass_summary.csv (registers, SASS counts)
#   out/             KERNEL.BUFFER.txt: every output buffer as the H100 computed it;
#                    printf_hello.stdout: what the printf kernel printed
#   corpus.csv       ncu counters per launch (--clock-control none --cache-control all)
set -u
SRC=$(cd "$(dirname "$0")" && pwd)
OUT=${1:?usage: measure_corpus.sh OUTDIR}
mkdir -p "$OUT"/{info,bin,sass,out,ncu}
OUT=$(cd "$OUT" && pwd)
log() { echo "[$(date -u +%H:%M:%S)] $*" | tee -a "$OUT/info/commands.log"; }
{ date -u; nvidia-smi; nvcc --version; ncu --version; } > "$OUT/info/environment.txt" 2>&1
NVFLAGS="-O3 -arch=sm_90"
log "build: nvcc $NVFLAGS -lineinfo (binary), -lineinfo -ptx"
nvcc $NVFLAGS -lineinfo -o "$OUT/bin/kernels_corpus" "$SRC/kernels_corpus.cu" > "$OUT/info/build.log" 2>&1 || { log "BUILD FAILED"; cat "$OUT/info/build.log"; exit 1; }
nvcc $NVFLAGS -lineinfo -ptx -o "$OUT/kernels_corpus.ptx" "$SRC/kernels_corpus.cu" >> "$OUT/info/build.log" 2>&1
cuobjdump -sass "$OUT/bin/kernels_corpus" | sed -E 's@ +/\* 0x[0-9a-f]{16} \*/@@' | grep -v '^\s*$' > "$OUT/sass/kernels_corpus.sass"
cuobjdump -res-usage "$OUT/bin/kernels_corpus" > "$OUT/sass/kernels_corpus.res-usage.txt"
python3 "$SRC/sass_summary.py" "$OUT/sass_summary.csv" "$OUT/sass/kernels_corpus.res-usage.txt" "$OUT/sass/kernels_corpus.sass"
log "run (outputs)"
"$OUT/bin/kernels_corpus" "$OUT/out" "$OUT/info/launches_plain.csv" > "$OUT/out/printf_hello.stdout" 2> "$OUT/info/run.err"; log "rc=$?"
METRICS=gpc__cycles_elapsed.max,sm__cycles_active.avg,smsp__inst_executed.sum,\
l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,\
l1tex__t_requests_pipe_lsu_mem_global_op_st.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum,\
smsp__inst_executed_op_shared_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,\
l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,smsp__inst_executed_op_shared_st.sum,\
l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum,\
dram__bytes_read.sum,dram__bytes_write.sum,launch__registers_per_thread,\
sm__warps_active.avg.pct_of_peak_sustained_active,gpu__time_duration.sum,sm__cycles_elapsed.avg.per_second,\
l1tex__t_sector_hit_rate.pct,lts__t_sector_hit_rate.pct,launch__shared_mem_per_block_static
log "ncu (clock-control none, cache-control all)"
echo "ncu --metrics $METRICS --cache-control all --clock-control none" > "$OUT/info/ncu_command.txt"
mkdir -p "$OUT/ncu/out"
timeout 300 ncu --metrics $METRICS --cache-control all --clock-control none -f -o "$OUT/ncu/corpus" \
  "$OUT/bin/kernels_corpus" "$OUT/ncu/out" "$OUT/ncu/launch_log.csv" > "$OUT/info/ncu.log" 2>&1; log "ncu rc=$?"
ncu --import "$OUT/ncu/corpus.ncu-rep" --csv --page raw --print-units base > "$OUT/ncu/corpus_raw.csv" 2>> "$OUT/info/ncu.log"
python3 "$SRC/ncu2csv.py" "$OUT/ncu/corpus_raw.csv" "$OUT/ncu/launch_log.csv" "$OUT/corpus.csv"
rm -f "$OUT/ncu/corpus.ncu-rep"
log "done"
