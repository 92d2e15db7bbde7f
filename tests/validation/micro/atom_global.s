// atom_global.s - microbenchmark atom_global of tests/validation/cuda/micro.cu as nvcc 13
// wrote it (nvcc -O3 -arch=sm_90 -ptx), unchanged: G blocks of 1024 threads each add 1
// ITERS times, all to one word (D = 0) or each to its own (D = 1).  The H100's rates are
// micro.csv's atomic_global rows (132 blocks, 64 iterations, cudaEvents); here the
// elapsed cycles of ITERS = 3 less those of ITERS = 1 give the rate of two iterations.
.define G 8
.define D 0
.define ITERS 1
.buffer p .u32[G*1024] zero
.buffer tt .s64[3*G] zero
.launch atom_global grid=(G) block=(1024) args=(p, D, ITERS, tt)
.include "../ptx/micro.ptx"
