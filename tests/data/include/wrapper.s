// wrapper.s - host directives plus the nvcc module next to it
.define N 8
.buffer a .u32[N] iota(1, 1)
.launch twice grid=(1) block=(N) args=(a, N - 2)
.check a file="twice.expected"
.include "module.ptx"
