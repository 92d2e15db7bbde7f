#!/usr/bin/env python3
"""Join an ncu raw-page CSV (ncu --import R --csv --page raw --print-units base)
with the launch log a host program wrote (kernel,launch,grid,block,args; one row
per launch, in launch order) into rows with the column names of
tests/validation/h100/counters.csv, plus extra columns at the end.
usage: ncu2csv.py NCU_RAW.csv LAUNCH_LOG.csv OUT.csv   (standard library only)"""
import csv, sys

BASE = ["gpc__cycles_elapsed.max", "sm__cycles_active.avg", "smsp__inst_executed.sum",
        "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
        "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum", "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum",
        "smsp__inst_executed_op_shared_ld.sum", "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
        "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum", "smsp__inst_executed_op_shared_st.sum",
        "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum", "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum",
        "dram__bytes_read.sum", "dram__bytes_write.sum", "launch__registers_per_thread",
        "sm__warps_active.avg.pct_of_peak_sustained_active"]
EXTRA = ["gpu__time_duration.sum", "sm__cycles_elapsed.avg.per_second", "l1tex__t_sector_hit_rate.pct",
         "lts__t_sector_hit_rate.pct", "launch__shared_mem_per_block_static"]

def num(s):
    s = s.replace(",", "").strip()
    return s if s else ""

def main(raw, log, out):
    with open(raw, newline="") as f:
        rows = [r for r in csv.reader(f) if r]
    hi = next(i for i, r in enumerate(rows) if "ID" in r and "Kernel Name" in r)
    head = rows[hi]
    data = [dict(zip(head, r)) for r in rows[hi + 1:] if r[head.index("ID")].strip().isdigit()]
    with open(log, newline="") as f:
        launches = list(csv.DictReader(f))
    if len(data) > len(launches):
        sys.exit("ncu has %d rows but the launch log %d" % (len(data), len(launches)))
    w = csv.writer(open(out, "w", newline=""), lineterminator="\n")
    cols = [c for c in EXTRA if c in head]
    w.writerow(["kernel", "launch", "grid", "block"] + BASE + cols + ["args"])
    for d, l in zip(data, launches):
        name = d["Kernel Name"].split("(")[0].strip()
        if name != l["kernel"]:
            sys.exit("order mismatch: ncu %s vs log %s" % (name, l["kernel"]))
        g = d.get("Grid Size", l["grid"]); b = d.get("Block Size", l["block"])
        w.writerow([l["kernel"], l["launch"], g, b] + [num(d.get(c, "")) for c in BASE + cols] + [l.get("args", "")])
    print("%s: %d rows" % (out, len(data)))

if __name__ == "__main__":
    main(*sys.argv[1:4])
