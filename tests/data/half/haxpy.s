// haxpy.s - y = a*x + y on __half2 pairs: nvcc's haxpy (half.cu: __hfma2,
// __float2half2_rn), fma.rn.f16x2 on packed registers.  x = 0, 0.25, 0.5,
// ... (element 2i is the lower half of pair i), y = 1, a = 3: every
// result 3x + 1 is exact in f16.
.define N2 64
.buffer x .f16[2*N2] iota(0, 0.25)
.buffer y .f16[2*N2] fill(1)
.buffer expect .f16[2*N2] iota(1, 0.75)
.launch haxpy grid=(1) block=(N2) args=(N2, 3.0, x, y)
.check y equals=expect
.include "half.ptx"
