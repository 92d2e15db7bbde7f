// shared_miss.s - microbenchmark shared_miss of tests/validation/cuda/shared_miss.cu as
// nvcc 13 wrote it (nvcc -O3 -arch=sm_90 -ptx), unchanged: blocks of 8 warps load ROWS
// rows with 8 loads in flight; PATTERN 0 every warp of a block reads the same 64-byte
// piece of a row (naive_mm's B), 1 each warp its own, 2 as 0 after a pass that fills
// L1.  tt[2b] = block b's clock64 span.  The H100's median cycles per row are
// tests/validation/h100/measured/shared_miss.csv.  The first launch reads every piece
// once, so that B is in L2, as the cudaMemset before each H100 launch left it.

.define G 132
.define ROWS 512
.define WIDTH 4096
.define PATTERN 0
.buffer B .f32[ROWS*WIDTH] zero
.buffer out .f32[G*256] zero
.buffer tt .s64[2*G] zero
.launch shared_miss grid=(16) block=(256) args=(B, out, tt, ROWS, WIDTH, 1)
.launch shared_miss grid=(G) block=(256) args=(B, out, tt, ROWS, WIDTH, PATTERN)
.include "../ptx/shared_miss.ptx"
