// use_globals.s - nvcc's use_globals (more.cu) on its own module variables:
// __device__ int gcount = 5 (6 after thread 0's atomicAdd).
.buffer out .f32[8] zero
.launch use_globals grid=(1) block=(8) args=(out)
.check out file="../globals.expected"
.check gcount file="../globals_gcount.expected"
.include "more.ptx"
