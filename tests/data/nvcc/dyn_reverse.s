// dyn_reverse.s - nvcc's dyn_reverse (more.cu): extern __shared__ int s[],
// sized by the launch (shared=N*4): out = in reversed.
.define N 64
.buffer in .s32[N] iota(1, 1)
.buffer out .s32[N] zero
.buffer expect .s32[N] iota(N, -1)
.launch dyn_reverse grid=(1) block=(N) args=(in, out, N) shared=N*4
.check out equals=expect
.include "more.ptx"
