// blocktime.s - naive_mm_t and tiled_mm_t of tests/validation/cuda/blocktime.cu as
// nvcc 13 wrote them (nvcc -O3 -arch=sm_90 -ptx), unchanged: kernels_val.cu's
// naive_mm and tiled_mm with clock64 reads.  Block b's record in rec_naive or
// rec_tiled: [64b + 0] = %smid, +2 clock64 at its start, +3..10 each warp's
// end, +16.. each tile's end (tiled_mm).  The H100's records:
// tests/validation/h100/measured/blocktime.csv, measured with L2 emptied before
// each launch: here each launch reads its own copies of A and B, cold in L2.
.define N 256
.buffer A .f32[N*N] random(seed=1, min=-0.5, max=0.5)
.buffer B .f32[N*N] random(seed=2, min=-0.5, max=0.5)
.buffer C .f32[N*N] zero
.buffer A2 .f32[N*N] random(seed=1, min=-0.5, max=0.5)
.buffer B2 .f32[N*N] random(seed=2, min=-0.5, max=0.5)
.buffer C2 .f32[N*N] zero
.buffer rec_naive .s64[(N/16)*(N/16)*64] zero
.buffer rec_tiled .s64[(N/16)*(N/16)*64] zero
.launch naive_mm_t grid=(N/16, N/16) block=(16, 16) args=(A, B, C, N, N, N, rec_naive)
.launch tiled_mm_t grid=(N/16, N/16) block=(16, 16) args=(A2, B2, C2, N, N, N, rec_tiled)
.check C ref=matmul(A, B, N, N, N) rtol=1e-4 tol=1e-4
.check C2 ref=matmul(A2, B2, N, N, N) rtol=1e-4 tol=1e-4
.include "../ptx/blocktime.ptx"
