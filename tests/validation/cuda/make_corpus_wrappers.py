#!/usr/bin/env python3
"""make_corpus_wrappers.py - gpusim kernel files for the nvcc PTX of kernels_corpus.cu.

Each kernel of tests/validation/ptx/lineinfo/kernels_corpus.ptx gets one file
tests/validation/corpus/KERNEL.s: the sizes as .define, the inputs as the
integer expressions kernels_corpus.cu fills them with (in(i; a, b, c) =
(i*a + b) % c - c/2), the launch kernels_corpus.cu makes, a .check of every
output against what the H100 computed (tests/validation/h100/corpus/out/),
then `.include` of nvcc's whole module, unchanged.

Run from the repo root after measure_corpus.sh (a development tool: nothing in
make or make test runs it; its output is committed).  Standard library only.
"""
import re
import sys

PTX = "tests/validation/ptx/lineinfo/kernels_corpus.ptx"
OUT = "tests/validation/corpus/"
INCLUDE = "../ptx/lineinfo/kernels_corpus.ptx"
H100 = "../h100/corpus/out/"


def IN(a, b, c):
    return "expr((i*%d+%d)%%%d - %d)" % (a, b, c, c // 2)


X, Y, T = IN(37, 0, 101), IN(13, 5, 61), IN(7, 1, 101)
RGB = "expr((i*37)%256 + ((i*11+3)%256)*256 + ((i*5+7)%256)*65536)"
KEYS = "expr((i*37+11)%1000)"
LIFE = "expr(1 - min(1, ((i*37+11)%7)/3))"
# ELL columns: col[j*M + r] = r - 1 + j, or -1 outside [0, M) (only i = 0 and i = 3M-1)
ELL = "expr(i % M - 1 + i/M - (i % M + i/M)*(1 - min(1, i)) - (i % M + i/M)*(1 - min(1, 3*M-1-i)))"
EXACT = "tol=0 rtol=0"
F = "tol=1e-5 rtol=1e-5"
APPROX = "tol=1e-4 rtol=1e-4"

# kernel: (defines, buffers (name, type, count, init), grid, block, args, [(output, tolerance)])
SPECS = {
    "relu": ({"N": 4096}, [("x", "f32", "N", X), ("y", "f32", "N", "zero")], "N/256", "256", "x, y, N", [("y", EXACT)]),
    "gelu_tanh": ({"N": 4096}, [("x", "f32", "N", X), ("y", "f32", "N", "zero")], "N/256", "256", "x, y, N", [("y", APPROX)]),
    "saxpy_gridstride": ({"N": 4096, "GRID": 4}, [("x", "f32", "N", X), ("y", "f32", "N", Y)], "GRID", "256", "2.0, x, y, N", [("y", EXACT)]),
    "haxpy_half2": ({"N": 4096}, [("x", "f32", "N", X), ("y", "f32", "N", Y)], "N/2/256", "256", "3.0, x, y, N/2", [("y", EXACT)]),
    "bf16_scale": ({"N": 4096}, [("x", "f32", "N", X), ("y", "f32", "N", "zero")], "N/256", "256", "x, y, N", [("y", EXACT)]),
    "poly_devfunc": ({"N": 4096, "DEG": 5}, [("coef", "f32", "DEG+1", IN(7, 3, 11)), ("x", "f32", "N", X), ("y", "f32", "N", "zero")],
                     "N/256", "256", "coef, x, y, N, DEG", [("y", F)]),
    "printf_hello": ({"N": 64}, [("x", "f32", "N", X), ("y", "f32", "N", "zero")], "2", "32", "x, y, N", [("y", EXACT)]),
    "daxpy": ({"N": 4096}, [("x", "f64", "N", X), ("y", "f64", "N", Y)], "N/256", "256", "2.5, x, y, N", [("y", EXACT)]),
    "matadd2d": ({"W": 128, "H": 64}, [("a", "f32", "W*H", X), ("b", "f32", "W*H", Y), ("c", "f32", "W*H", "zero")],
                 "W/16, H/16", "16, 16", "a, b, c, W, H", [("c", EXACT)]),
    "rgb2gray": ({"N": 4096}, [("px", "u32", "N", RGB), ("gray", "f32", "N", "zero")], "N/256", "256", "px, gray, N", [("gray", F)]),
    "bitops": ({"N": 4096}, [("x", "u32", "N", RGB), ("y", "u32", "N", "zero")], "N/256", "256", "x, y, N", [("y", EXACT)]),
    "blackscholes": ({"N": 4096}, [("s", "f32", "N", X), ("k", "f32", "N", Y), ("t", "f32", "N", T), ("call", "f32", "N", "zero")],
                     "N/256", "256", "s, k, t, call, N", [("call", APPROX)]),
    "mandelbrot": ({"W": 128, "H": 64, "MAXIT": 64}, [("iters", "s32", "W*H", "zero")], "W/16, H/16", "16, 16", "iters, W, H, MAXIT",
                   [("iters", EXACT)]),
    "dot_atomic": ({"N": 4096}, [("a", "f32", "N", X), ("b", "f32", "N", Y), ("out", "f32", "1", "zero")], "N/256", "256", "a, b, out, N",
                   [("out", EXACT)]),
    "max_cas": ({"N": 4096}, [("x", "f32", "N", Y), ("out", "f32", "1", "fill(-3e38)")], "N/256", "256", "x, out, N", [("out", EXACT)]),
    "scan_warp_shfl": ({"N": 4096}, [("in", "f32", "N", X), ("out", "f32", "N", "zero")], "N/256", "256", "in, out, N", [("out", EXACT)]),
    "count_positive_ballot": ({"N": 4096}, [("x", "f32", "N", X), ("count", "u32", "1", "zero")], "N/256", "256", "x, count, N",
                              [("count", EXACT)]),
    "histogram_global": ({"N": 4096, "BINS": 100}, [("data", "u32", "N", KEYS), ("hist", "u32", "BINS", "zero")], "N/256", "256",
                         "data, hist, N, BINS", [("hist", EXACT)]),
    "radix_digit_hist": ({"N": 4096, "SHIFT": 8}, [("keys", "u32", "N", KEYS), ("hist", "u32", "16", "zero")], "N/256", "256",
                         "keys, hist, N, SHIFT", [("hist", EXACT)]),
    "layernorm_row": ({"ROWS": 16, "COLS": 1024}, [("in", "f32", "ROWS*COLS", X), ("out", "f32", "ROWS*COLS", "zero")], "ROWS", "256",
                      "in, out, COLS", [("out", APPROX)]),
    "bitonic_sort_shared": ({"N": 4096}, [("data", "f32", "N", X)], "N/512", "256", "data", [("data", EXACT)]),
    "game_of_life": ({"N": 64}, [("in", "s32", "N*N", LIFE), ("out", "s32", "N*N", "zero")], "N/16, N/16", "16, 16", "in, out, N",
                     [("out", EXACT)]),
    "stencil3d_7pt": ({"N": 32}, [("in", "f32", "N*N*N", X), ("out", "f32", "N*N*N", "zero")], "N/16, N/16", "16, 16", "in, out, N",
                      [("out", F)]),
    "spmv_ell": ({"M": 4096, "WIDTH": 3}, [("col", "s32", "WIDTH*M", ELL), ("val", "f32", "WIDTH*M", IN(7, 1, 5)),
                                           ("x", "f32", "M", X), ("y", "f32", "M", "zero")], "M/256", "256",
                 "col, val, x, y, M, WIDTH", [("y", EXACT)]),
    "nbody_forces": ({"N": 1024}, [("pos", "f32", "4*N", X), ("acc", "f32", "4*N", "zero")], "N/256", "256", "pos, acc, N",
                     [("acc", APPROX)]),
    "mm_regtile_2x2": ({"N": 128}, [("A", "f32", "N*N", X), ("B", "f32", "N*N", Y), ("C", "f32", "N*N", "zero")], "N/32, N/32", "16, 16",
                       "A, B, C, N", [("C", EXACT)]),
    "mm_cp_async": ({"N": 128}, [("A", "f32", "N*N", X), ("B", "f32", "N*N", Y), ("C", "f32", "N*N", "zero")], "N/16, N/16", "16, 16",
                    "A, B, C, N", [("C", EXACT)]),
    "mm_float4": ({"N": 128}, [("A", "f32", "N*N", X), ("B", "f32", "N*N", Y), ("C", "f32", "N*N", "zero")], "N/16, N/16", "16, 16",
                  "A, B, C, N", [("C", EXACT)]),
}


def main():
    ptx = open(PTX).read()
    names = set(re.findall(r"^\.visible \.entry (\w+)\(", ptx, re.M))
    for k, (defs, bufs, grid, block, args, checks) in SPECS.items():
        if k not in names:
            sys.exit("make_corpus_wrappers: %s is not in %s" % (k, PTX))
        s = ["// %s.s - kernel %s of tests/validation/cuda/kernels_corpus.cu as nvcc 13 wrote it" % (k, k),
             "// (nvcc -O3 -arch=sm_90 -lineinfo -ptx), included unchanged, with the launch",
             "// kernels_corpus.cu makes; the checks compare with what the H100 computed",
             "// (tests/validation/h100/corpus/out/).  Generated by tests/validation/cuda/make_corpus_wrappers.py.", ""]
        s += [".define %s %s" % kv for kv in defs.items()]
        s += [".buffer %s .%s[%s] %s" % b for b in bufs]
        s.append(".launch %s grid=(%s) block=(%s) args=(%s)" % (k, grid, block, args))
        s += ['.check %s file="%s%s.%s.txt" %s' % (b, H100, k, b, tol) for b, tol in checks]
        s += ['.include "%s"' % INCLUDE, ""]
        open(OUT + k + ".s", "w").write("\n".join(s))
    print("wrote %d kernels to %s" % (len(SPECS), OUT))


if __name__ == "__main__":
    main()
