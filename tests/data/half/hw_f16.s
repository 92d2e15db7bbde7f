// hw_f16.s - gpusim against an H100: f16ops of half.cu (add sub mul fma min
// max min.NaN neg abs fma.sat fma.relu setp, and f16x2 fma/setp/max) on 4096
// input triples, every result bit for bit with the H100's (out_h.txt).
.define N 4096
.buffer in .u16[3*N] file("in_h.txt")
.buffer out .u16[16*N] zero
.launch f16ops grid=(N/256) block=(256) args=(in, out, N)
.check out file="out_h.txt"
.include "half.ptx"
