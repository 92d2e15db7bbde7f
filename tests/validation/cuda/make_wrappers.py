#!/usr/bin/env python3
"""make_wrappers.py - gpusim kernel files for the nvcc PTX of kernels_val.cu.

Each kernel of tests/validation/ptx/lineinfo/kernels_val.ptx gets one file
tests/validation/nvcc/KERNEL.s: host directives (sizes as .define, so the
`launch` column of kernels.csv becomes -D values; buffers; the .launch that
kernels_val.cu makes; a .check where a host reference exists), then
`.include` of the whole module exactly as nvcc wrote it (with -lineinfo, so
reports name the kernels_val.cu line of each PTX line).

Run from the repo root after measure.sh (a development tool: nothing in make
or make test runs it; its output is committed).  Standard library only.
"""
import re
import sys

PTX = "tests/validation/ptx/lineinfo/kernels_val.ptx"
OUT = "tests/validation/nvcc/"
INCLUDE = "../ptx/lineinfo/kernels_val.ptx"   # relative to OUT

F32 = "random(seed=%d, min=-0.5, max=0.5)"

# kernel: (defines with the smallest measured size, buffers, grid, block, args, check)
# Buffers: (name, type, count, init).  Grids and blocks are kernels_val.cu's.
SPECS = {
    "vecadd": ({"N": 4096}, [("a", "f32", "N", F32 % 1), ("b", "f32", "N", F32 % 2), ("c", "f32", "N", "zero")],
               "(N+255)/256", "256", "a, b, c, N", "c ref=vecadd(a, b)"),
    "saxpy": ({"N": 4096}, [("x", "f32", "N", F32 % 1), ("y", "f32", "N", "zero")],
              "(N+255)/256", "256", "2.0, x, y, N", None),
    "stencil1d": ({"N": 4096}, [("in", "f32", "N", F32 % 1), ("out", "f32", "N", "zero")],
                  "(N+255)/256", "256", "in, out, N", None),
    "jacobi2d": ({"N": 64}, [("in", "f32", "N*N", F32 % 1), ("out", "f32", "N*N", "zero")],
                 "N/16, N/16", "16, 16", "in, out, N", None),
    "reduce_interleaved": ({"N": 4096}, [("in", "f32", "N", F32 % 1), ("out", "f32", "(N+255)/256", "zero")],
                           "(N+255)/256", "256", "in, out, N", None),
    "reduce_seq": ({"N": 4096}, [("in", "f32", "N", F32 % 1), ("out", "f32", "(N+255)/256", "zero")],
                   "(N+255)/256", "256", "in, out, N", None),
    "reduce_shfl": ({"N": 4096}, [("in", "f32", "N", F32 % 1), ("out", "f32", "(N+255)/256", "zero")],
                    "(N+255)/256", "256", "in, out, N", None),
    "scan_hillis_steele": ({"N": 4096}, [("in", "f32", "N", F32 % 1), ("out", "f32", "N", "zero")],
                           "(N+255)/256", "256", "in, out, N", None),
    "scan_blelloch": ({"N": 4096}, [("in", "f32", "N", F32 % 1), ("out", "f32", "N", "zero")],
                      "(N+511)/512", "256", "in, out, N", None),
    # data[i] = (i*7) % 256 on the GPU; the kernel bins by data & 255, so 7*i is the same
    "histogram256": ({"N": 4096}, [("data", "u32", "N", "iota(0, 7)"), ("hist", "u32", "256", "zero")],
                     "(N+255)/256", "256", "data, hist, N", None),
    "gemv_row_per_thread": ({"M": 256, "N": 256}, [("A", "f32", "M*N", F32 % 1), ("x", "f32", "N", F32 % 2),
                                                  ("y", "f32", "M", "zero")],
                            "(M+255)/256", "256", "A, x, y, M, N", None),
    "gemv_warp_per_row": ({"M": 256, "N": 256}, [("A", "f32", "M*N", F32 % 1), ("x", "f32", "N", F32 % 2),
                                                ("y", "f32", "M", "zero")],
                          "(M*32+255)/256", "256", "A, x, y, M, N", None),
    "softmax_row": ({"ROWS": 128, "COLS": 256}, [("in", "f32", "ROWS*COLS", F32 % 1), ("out", "f32", "ROWS*COLS", "zero")],
                    "ROWS", "256", "in, out, COLS", None),
    "transpose_naive": ({"N": 256}, [("in", "f32", "N*N", F32 % 1), ("out", "f32", "N*N", "zero")],
                        "N/32, N/32", "32, 32", "in, out, N", "out ref=transpose(in, N, N)"),
    "transpose_shared": ({"N": 256}, [("in", "f32", "N*N", F32 % 1), ("out", "f32", "N*N", "zero")],
                         "N/32, N/32", "32, 32", "in, out, N", "out ref=transpose(in, N, N)"),
    "transpose_padded": ({"N": 256}, [("in", "f32", "N*N", F32 % 1), ("out", "f32", "N*N", "zero")],
                         "N/32, N/32", "32, 32", "in, out, N", "out ref=transpose(in, N, N)"),
    "naive_mm": ({"M": 128, "N": 128, "K": 128}, [("A", "f32", "M*N", F32 % 1), ("B", "f32", "N*K", F32 % 2),
                                                 ("C", "f32", "M*K", "zero")],
                 "N/16, N/16", "16, 16", "A, B, C, M, N, K", "C ref=matmul(A, B, M, K, N) rtol=1e-4 tol=1e-4"),
    "tiled_mm": ({"M": 128, "N": 128, "K": 128}, [("A", "f32", "M*N", F32 % 1), ("B", "f32", "N*K", F32 % 2),
                                                 ("C", "f32", "M*K", "zero")],
                 "N/16, N/16", "16, 16", "A, B, C, M, N, K", "C ref=matmul(A, B, M, K, N) rtol=1e-4 tol=1e-4"),
    "conv2d_3x3_tiled": ({"N": 256}, [("in", "f32", "N*N", F32 % 1), ("w", "f32", "9", "fill(0.0625)"),
                                      ("out", "f32", "N*N", "zero")],
                         "N/16, N/16", "16, 16", "in, w, out, N", None),
    # the tridiagonal CSR matrix kernels_val.cu builds (row r: columns r-1, r,
    # r+1 clipped at the edges, values -1 2 -1), as expressions of the index:
    # rowptr[r] = max(0, min(3r-1, 3M-2)), col[j] = (j+1)/3 - 1 + (j+1)%3,
    # val[j] = 2 where (j+1)%3 == 1, else -1 (2 - 3 d*d with d = (j+1)%3 - 1)
    "spmv_csr_scalar": ({"M": 4096, "NNZ": "3*M-2"},
                        [("rowptr", "s32", "M+1", "expr(max(0, min(3*i-1, 3*M-2)))"),
                         ("col", "s32", "NNZ", "expr((i+1)/3 - 1 + (i+1)%3)"),
                         ("val", "f32", "NNZ", "expr(2 - 3*((i+1)%3-1)*((i+1)%3-1))"),
                         ("x", "f32", "M", F32 % 1), ("y", "f32", "M", "zero")],
                        "(M+255)/256", "256", "rowptr, col, val, x, y, M", None),
}


def entries(ptx):
    """name -> text of each .entry, from its line to the closing brace."""
    out = {}
    lines = ptx.split("\n")
    i = 0
    while i < len(lines):
        m = re.match(r"\.visible \.entry (\w+)\(", lines[i])
        if not m:
            i += 1
            continue
        j = i
        while lines[j] != "}":
            j += 1
        out[m.group(1)] = "\n".join(lines[i:j + 1])
        i = j + 1
    return out


def header(ptx):
    keep = [l for l in ptx.split("\n") if l.startswith((".version", ".target", ".address_size"))]
    return "\n".join(keep)


MICRO_PTX = "tests/validation/ptx/micro.ptx"
MICRO_OUT = "tests/validation/micro/"
# micro.cu's issue-throughput kernels: W warps in one block, ITERS trips of
# 32 independent-chain ops; tt = {clock64 before, after, smid}.
MICRO = {"tp_ffma": "f32", "tp_fadd": "f32", "tp_imad": "s32", "tp_iadd": "s32", "tp_mufu_ex2": "f32",
         "tp_mufu_rsqrt": "f32", "tp_dfma": "f64"}


def micro():
    ents = entries(open(MICRO_PTX).read())   # only to check the kernels are there
    for k in ["barrier", "bank_lat", "bw_read", "bw_write", "bw_copy", "bw_l2", "bw_l1"] + list(MICRO):
        if k not in ents:
            sys.exit("make_wrappers: %s is not in %s" % (k, MICRO_PTX))
    for k, t in MICRO.items():
        s = ["// %s.s - microbenchmark %s of tests/validation/cuda/micro.cu as nvcc 13 wrote it" % (k, k),
             "// (nvcc -O3 -arch=sm_90 -ptx), unchanged: W warps in one block run ITERS trips of 32",
             "// independent ops each between two clock64 reads; tt = {t0, t1, smid}.  The H100's",
             "// rate (thread-ops per cycle per SM) is micro.csv's throughput_%s." % k[3:],
             "// Generated by tests/validation/cuda/make_wrappers.py.", "",
             ".define W 4", ".define ITERS 64",
             ".buffer in .%s[16] fill(1)" % t, ".buffer out .%s[W*32] zero" % t, ".buffer tt .s64[3] zero",
             ".launch %s grid=(1) block=(W*32) args=(in, out, tt, ITERS)" % k, "", '.include "../ptx/micro.ptx"', ""]
        open(MICRO_OUT + k + ".s", "w").write("\n".join(s))
    s = ["// barrier.s - microbenchmark barrier of tests/validation/cuda/micro.cu as nvcc 13 wrote it",
         "// (nvcc -O3 -arch=sm_90 -ptx), unchanged: one block of W warps runs ITERS bar.sync between",
         "// two clock64 reads; tt[0] = t1 - t0.  The H100's cycles per bar.sync are micro.csv's",
         "// barrier,warps=W rows.  Generated by tests/validation/cuda/make_wrappers.py.", "",
         ".define W 1", ".define ITERS 64", ".buffer tt .s64[1] zero",
         ".launch barrier grid=(1) block=(W*32) args=(ITERS, tt)", "", '.include "../ptx/micro.ptx"', ""]
    open(MICRO_OUT + "barrier.s", "w").write("\n".join(s))
    # bank_tp is left out: its inline PTX declares a scoped register ({ .reg .u32 q; ... }) and
    # nvcc adds mov.pred %p, 0, neither of which gpusim assembles yet (issue 14).
    s = ["// bank_lat.s - microbenchmark bank_lat of tests/validation/cuda/micro.cu as nvcc 13 wrote it",
         "// (nvcc -O3 -arch=sm_90 -ptx), unchanged: one warp chases shared pointers with a K-way bank",
         "// conflict on every load, N loads timed; tt[0] = their clock64 span.  The H100's cycles",
         "// per load are micro.csv's bank_conflict_latency rows.",
         "// Generated by tests/validation/cuda/make_wrappers.py.", "",
         ".define K 1", ".define N 512", ".buffer tt .s64[2] zero",
         ".launch bank_lat grid=(1) block=(32) args=(K, N, tt)", "", '.include "../ptx/micro.ptx"', ""]
    open(MICRO_OUT + "bank_lat.s", "w").write("\n".join(s))
    # bandwidth: micro.cu's launch (8 blocks of 512 threads per SM) over BYTES; DRAM bytes
    # per second = BYTES (x2 for the copy) / (elapsed - gpu.launch_cycles) cycles at 1980 MHz
    bw = {"bw_read": ("a .f32[BYTES/4] zero", ".buffer out .f32[1] zero", "a, BYTES/16, out"),
          "bw_write": ("a .f32[BYTES/4] zero", "", "a, BYTES/16"),
          "bw_copy": ("a .f32[BYTES/4] zero", ".buffer b .f32[BYTES/4] zero", "a, b, BYTES/16")}
    for k, (buf, extra, args) in bw.items():
        s = ["// %s.s - microbenchmark %s of tests/validation/cuda/micro.cu as nvcc 13 wrote it" % (k, k),
             "// (nvcc -O3 -arch=sm_90 -ptx), unchanged: 8 blocks of 512 threads per SM stream BYTES",
             "// with 16-byte accesses.  The H100's rate is micro.csv's dram_bw rows (1 GiB there).",
             "// Generated by tests/validation/cuda/make_wrappers.py.", "",
             ".define BYTES (64 << 20)", ".define SMS 132", ".buffer " + buf]
        if extra:
            s.append(extra)
        s += [".launch %s grid=(SMS*8) block=(512) args=(%s)" % (k, args), "", '.include "../ptx/micro.ptx"', ""]
        open(MICRO_OUT + k + ".s", "w").write("\n".join(s))
    # cache bandwidth: micro.cu's launches; a warm-up pass, then PASSES timed; tt = {t0, t1,
    # smid} per block (clock64 around the passes), as micro.cu's per_sm_rate reads them
    s = ["// bw_l2.s - microbenchmark bw_l2 of tests/validation/cuda/micro.cu as nvcc 13 wrote it",
         "// (nvcc -O3 -arch=sm_90 -ptx), unchanged: 2 blocks of 1024 threads per SM read a WS-byte",
         "// working set with ld.global.cg.v4 (L2 only), one pass to warm the L2, then PASSES timed;",
         "// tt = {t0, t1, smid} per block.  The H100's rate is micro.csv's l2_bw rows (8 MiB, 64",
         "// passes there: bytes/cycle/SM = the median over SMs of their blocks' bytes / their span).",
         "// Generated by tests/validation/cuda/make_wrappers.py.", "",
         ".define WS (8 << 20)", ".define PASSES 4", ".define SMS 132",
         ".buffer a .f32[WS/4] zero", ".buffer out .f32[1] zero", ".buffer tt .s64[SMS*2*3] zero",
         ".launch bw_l2 grid=(SMS*2) block=(1024) args=(a, WS/16, 1, out, tt)",
         ".launch bw_l2 grid=(SMS*2) block=(1024) args=(a, WS/16, PASSES, out, tt)", "",
         '.include "../ptx/micro.ptx"', ""]
    open(MICRO_OUT + "bw_l2.s", "w").write("\n".join(s))
    s = ["// bw_l1.s - microbenchmark bw_l1 of tests/validation/cuda/micro.cu as nvcc 13 wrote it",
         "// (nvcc -O3 -arch=sm_90 -ptx), unchanged: one block of 1024 threads per SM reads its own",
         "// 16 KiB once, then re-reads it PASSES times with ld.global.ca.v4 (L1 hits); tt = {t0, t1,",
         "// smid} per block around the passes.  The H100's rate is micro.csv's l1_bw row (256",
         "// passes there): bytes/cycle/SM = 16384 x PASSES / (t1 - t0).",
         "// Generated by tests/validation/cuda/make_wrappers.py.", "",
         ".define PASSES 16", ".define SMS 132",
         ".buffer a .f32[SMS*4096] zero", ".buffer out .f32[1] zero", ".buffer tt .s64[SMS*3] zero",
         ".launch bw_l1 grid=(SMS) block=(1024) args=(a, PASSES, out, tt)", "",
         '.include "../ptx/micro.ptx"', ""]
    open(MICRO_OUT + "bw_l1.s", "w").write("\n".join(s))
    print("wrote %d microbenchmarks to %s" % (len(MICRO) + 4 + len(bw), MICRO_OUT))


PARTIAL_PTX = "tests/validation/ptx/partial.ptx"
# partial.cu's patterns: items per pass (WS bytes) for PAT 0..7 (see partial.cu's header)
PARTIAL_ITEMS = ["WS/4", "WS/32", "WS/128", "WS/32", "WS/32", "WS/16", "WS/32", "WS/4"]


def partial():
    ents = entries(open(PARTIAL_PTX).read())   # only to check the kernels are there
    for k in ("warm", "pw"):
        if k not in ents:
            sys.exit("make_wrappers: %s is not in %s" % (k, PARTIAL_PTX))
    for pat, items in enumerate(PARTIAL_ITEMS):
        for load in (0, 1):
            name = "partial_%s%d" % ("ld" if load else "st", pat)
            s = ["// %s.s - microbenchmark pw of tests/validation/cuda/partial.cu as nvcc 13 wrote it" % name,
                 "// (nvcc -O3 -arch=sm_90 -ptx), unchanged: pattern %d (partial.cu's header), %s;" % (pat, "ld.global.cg loads" if load else "stores"),
                 "// 8 blocks of 512 threads per SM over a WS-byte region: a coalesced warm-up write,",
                 "// one warm-up pass, then PASSES.  The H100's rate is partial.csv's row (16 MiB, 40",
                 "// passes, cudaEvents): sectors per SM cycle = items x sectors per item x passes / cycles.",
                 "// Generated by tests/validation/cuda/make_wrappers.py.", "",
                 ".define WS (16 << 20)", ".define PASSES 2", ".define SMS 132",
                 ".define PAT %d" % pat, ".define LOAD %d" % load, ".define ITEMS (%s)" % items,
                 ".buffer a .f32[WS/4] zero", ".buffer out .f32[1] zero", ".buffer tt .s64[4] zero",
                 ".launch warm grid=(SMS*8) block=(512) args=(a, WS/4)",
                 ".launch pw grid=(SMS*8) block=(512) args=(a, PAT, LOAD, 1, ITEMS, out, tt)",
                 ".launch pw grid=(SMS*8) block=(512) args=(a, PAT, LOAD, PASSES, ITEMS, out, tt)", "",
                 '.include "../ptx/partial.ptx"', ""]
            open(MICRO_OUT + name + ".s", "w").write("\n".join(s))
    print("wrote %d partial-sector microbenchmarks to %s" % (2 * len(PARTIAL_ITEMS), MICRO_OUT))


def main():
    micro()
    partial()
    ptx = open(PTX).read()
    ents = entries(ptx)
    for k, (defs, bufs, grid, block, args, check) in SPECS.items():
        if k not in ents:
            sys.exit("make_wrappers: %s is not in %s" % (k, PTX))
        s = []
        s.append("// %s.s - kernel %s of tests/validation/cuda/kernels_val.cu as nvcc 13" % (k, k))
        s.append("// wrote it (nvcc -O3 -arch=sm_90 -lineinfo -ptx), included unchanged, with the")
        s.append("// launch kernels_val.cu makes.  Sizes: -D (the `launch` column of")
        s.append("// tests/validation/h100/measured/kernels.csv).  Generated by")
        s.append("// tests/validation/cuda/make_wrappers.py.")
        s.append("")
        for name, v in defs.items():
            s.append(".define %s %s" % (name, v))
        for name, t, count, init in bufs:
            s.append(".buffer %s .%s[%s] %s" % (name, t, count, init))
        s.append(".launch %s grid=(%s) block=(%s) args=(%s)" % (k, grid, block, args))
        if check:
            s.append(".check %s" % check)
        s.append('.include "%s"' % INCLUDE)
        s.append("")
        open(OUT + k + ".s", "w").write("\n".join(s))
    print("wrote %d kernels to %s" % (len(SPECS), OUT))


if __name__ == "__main__":
    main()
