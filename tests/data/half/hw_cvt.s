// hw_cvt.s - gpusim against an H100: cvts of half.cu, 4096 f32 bit patterns
// (specials, ties, subnormals, random) to f16 and bf16 in the four rounding
// modes, s32/s64 to halves, pairs to f16x2/bf16x2, halves to f32 and s32,
// f64 to f16: bit for bit with the H100's results (out_c.txt).
.define N 4096
.buffer in .u32[N] file("in_f.txt")
.buffer out .u32[18*N] zero
.launch cvts grid=(N/256) block=(256) args=(in, out, N)
.check out file="out_c.txt"
.include "half.ptx"
