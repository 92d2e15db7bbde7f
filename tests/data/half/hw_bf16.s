// hw_bf16.s - gpusim against an H100: bf16ops of half.cu (add sub mul fma
// min max max.NaN neg abs fma.relu setp, bf16x2 fma and add) on 4096 input
// triples, bit for bit with the H100's results (out_b.txt).
.define N 4096
.buffer in .u16[3*N] file("in_h.txt")
.buffer out .u16[14*N] zero
.launch bf16ops grid=(N/256) block=(256) args=(in, out, N)
.check out file="out_b.txt"
.include "half.ptx"
