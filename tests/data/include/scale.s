.define N 1000
.buffer x .f32[N] random(seed=1)
.buffer y .f32[N] zero
.launch scale grid=((N+255)/256) block=(256) args=(x, y, 3.0, N)
.check y ref=affine(x, 3.0, 0)
.include "scale.ptx"
