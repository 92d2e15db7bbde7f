// blocktime_naive.s - naive_mm_t of tests/validation/cuda/blocktime.cu as nvcc 13 wrote it
// (nvcc -O3 -arch=sm_90 -ptx), unchanged: kernels_val.cu's naive_mm with clock64
// reads (block b's record: rec[64b + 0] = %smid, +2 clock64 at its start, +3..10
// each warp's end, +16.. each tile's end in tiled_mm).  The H100's records:
// tests/validation/h100/measured/blocktime.csv.  (One file per kernel: a .launch
// names its kernel; the two files differ only in that name.)

.define N 256
.buffer A .f32[N*N] random(seed=1, min=-0.5, max=0.5)
.buffer B .f32[N*N] random(seed=2, min=-0.5, max=0.5)
.buffer C .f32[N*N] zero
.buffer rec .s64[(N/16)*(N/16)*64] zero
.launch naive_mm_t grid=(N/16, N/16) block=(16, 16) args=(A, B, C, N, N, N, rec)
.check C ref=matmul(A, B, N, N, N) rtol=1e-4 tol=1e-4
.include "../ptx/blocktime.ptx"
