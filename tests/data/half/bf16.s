// bf16.s - bf16 kernels of half.cu as nvcc wrote them.
// bf16_dot: __hmul2 on __nv_bfloat162 pairs summed with atomicAdd
// (mul.rn.bf16x2, red.global.add.noftz.bf16x2): x = (i%8, 1), y = (2, i%4)
// gives (448, 96), the H100's result.  hcount: atom.add.noftz.f16 of 1 by
// 300 threads, and bf16(1.01 i) back to f32 (cvt.rn.bf16.f32,
// cvt.f32.bf16), compared with the H100's values (hcount_back.txt).
.define N2 64
.buffer x .bf16[2*N2] expr(((i/2)%8) * (1 - i%2) + i%2)
.buffer y .bf16[2*N2] expr(2 * (1 - i%2) + (i%2) * ((i/2)%4))
.buffer dot .bf16[2] zero
.buffer dot_expect .bf16[2] values(448, 96)
.buffer count .f16[1] zero
.buffer count_expect .f16[1] values(300)
.buffer back .f32[300] zero
.launch bf16_dot grid=(1) block=(N2) args=(N2, x, y, dot)
.launch hcount grid=(2) block=(150) args=(count, back, 300)
.check dot equals=dot_expect
.check count equals=count_expect
.check back file="hcount_back.txt"
.include "half.ptx"
