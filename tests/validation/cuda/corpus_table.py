#!/usr/bin/env python3
"""corpus_table.py - the real-PTX corpus table of docs/validation.md (issue 14).

Runs every kernel of tests/validation/corpus/ (kernels_corpus.cu) and
tests/validation/nvcc/ (kernels_val.cu) on configs/hopper.ini with ./gpusim
and prints a Markdown table: what the kernel exercises, its checks against
the H100's outputs, the ten memory counters against Nsight's, registers and
warp instructions.  Run from the repo root after `make`; standard library
only.  A development tool: test_corpus asserts the same counters.
"""
import csv, json, subprocess

WHAT = {
    "relu": "elementwise", "gelu_tanh": "tanhf (ex2, rcp)", "saxpy_gridstride": "grid-stride loop",
    "daxpy": "f64", "matadd2d": "2D indexing", "rgb2gray": "uchar4 loads", "bitops": "popc, clz, brev, ffs",
    "blackscholes": "logf, expf, erfcf, sqrtf", "mandelbrot": "divergent loop", "haxpy_half2": "__half2 (f16x2)",
    "bf16_scale": "__nv_bfloat16", "dot_atomic": "shared tree + float atomicAdd", "max_cas": "atomicCAS loop",
    "scan_warp_shfl": "shfl.up scan", "count_positive_ballot": "ballot + popc", "histogram_global": "global atomics",
    "radix_digit_hist": "shared atomics", "layernorm_row": "shfl.bfly + rsqrtf", "bitonic_sort_shared": "shared sort",
    "game_of_life": "int stencil", "stencil3d_7pt": "3D stencil", "spmv_ell": "ELL sparse", "nbody_forces": "float4, rsqrtf",
    "mm_regtile_2x2": "register tiling", "mm_cp_async": "cp.async", "mm_float4": "float4 loads",
    "poly_devfunc": ".func call", "printf_hello": "printf (vprintf)",
}
M = ["l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
     "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum", "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum",
     "smsp__inst_executed_op_shared_ld.sum", "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
     "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum", "smsp__inst_executed_op_shared_st.sum",
     "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum", "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum"]
SHORT = ["ld req", "ld sec", "st req", "st sec", "sh ld", "sh ld wf", "sh ld cf", "sh st", "sh st wf", "sh st cf"]


def rows(path):
    seen = {}
    for r in csv.DictReader(open(path)):
        seen.setdefault(r["kernel"], r)
    return seen


def line(k, r, d, src):
    out = subprocess.run(["./gpusim", "--format", "json", "configs/hopper.ini", "%s/%s.s" % (d, k)],
                         capture_output=True, text=True)
    j = json.loads(out.stdout)
    m = j["metrics"]
    checks = j["checks"]
    chk = "%d/%d" % (sum(c["passed"] for c in checks), len(checks)) if checks else "-"
    diffs = ["%s %s/%s" % (s, r[n], int(m.get(n, 0))) for n, s in zip(M, SHORT) if int(float(r[n] or 0)) != int(m.get(n, 0))]
    counters = "all 10 equal" if not diffs else "; ".join(diffs)
    regs = "%s / %s" % (r["launch__registers_per_thread"], j["launches"][0]["registers_per_thread"])
    hi, gi = float(r["smsp__inst_executed.sum"]), m["smsp__inst_executed.sum"]
    return "| %s | %s | %s | %s | %s | %s | %d / %d (%+.0f%%) |" % (k, WHAT.get(k, src), r["launch"], chk, counters, regs,
                                                                 hi, gi, 100 * (gi - hi) / hi)


def main():
    print("| kernel | exercises | launch | checks vs H100 | memory counters (H100/gpusim where they differ) "
          "| registers H100 / gpusim | warp instructions H100 / gpusim |")
    print("|---|---|---|---|---|---|---|")
    for k, r in rows("tests/validation/h100/corpus/corpus.csv").items():
        print(line(k, r, "tests/validation/corpus", "kernels_corpus.cu"))
    for k, r in sorted(rows("tests/validation/h100/measured/kernels_clock_none.csv").items()):
        print(line(k, r, "tests/validation/nvcc", "kernels_val.cu"))


if __name__ == "__main__":
    main()
