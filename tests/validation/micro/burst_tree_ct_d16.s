// burst_tree_ct_d16.s - kernel tree_ct_d16 of tests/validation/cuda/burst.cu as nvcc 13 wrote it
// (nvcc -O3 -arch=sm_90 -ptx), unchanged: one warp reads 256 rows, 16 (or 8)
// independent loads a loop iteration (burst.cu says what each variant adds).
// The second launch is timed, the first leaves the rows in L2, as burst.cu
// does.  tt[0] / 256 = cycles a row; the H100's: tests/validation/h100/
// measured/burst.csv.  (One file per kernel: a .launch names its kernel.)
.define ROWS 256
.define WIDE 16384
.buffer B .f32[ROWS*WIDE + 262144] zero
.buffer out .f32[32] zero
.buffer tt .s64[1] zero
.launch tree_ct_d16 grid=(1) block=(32) args=(B, out, tt, WIDE)
.launch tree_ct_d16 grid=(1) block=(32) args=(B, out, tt, WIDE)
.include "../ptx/burst.ptx"
