// globals_host.s - the host initialises a module variable (as
// cudaMemcpyToSymbol would): gcount = 10 instead of 5, so every out[t] is
// 5 more than in globals.s, and gcount ends at 11.
.buffer gcount .u32[1] fill(10)
.buffer out .f32[8] zero
.launch use_globals grid=(1) block=(8) args=(out)
.check out file="globals_host.expected"
.check gcount file="globals_host_gcount.expected"
.include "globals.ptx"
