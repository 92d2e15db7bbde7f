// burst.s - the kernels of tests/validation/cuda/burst.cu as nvcc 13 wrote them
// (nvcc -O3 -arch=sm_90 -ptx), unchanged: one warp reads 256 rows, 16 (or 8)
// independent loads a loop iteration (burst.cu says what each variant adds).
// Each kernel runs twice, as burst.cu runs it: the first launch leaves the rows
// in L2, the second is timed into its own buffer: tt_VARIANT[0] / 256 = cycles
// a row (./gpusim --dump tt_chain_ct_d16 configs/hopper.ini THIS).  The
// H100's: tests/validation/h100/measured/burst.csv.
.define ROWS 256
.define WIDE 16384
.buffer B .f32[ROWS*WIDE + 262144] zero
.buffer out .f32[32] zero
.buffer tt_chain_rt_d16 .s64[1] zero
.buffer tt_chain_ct_d16 .s64[1] zero
.buffer tt_indep_ct_d16 .s64[1] zero
.buffer tt_tree_ct_d16 .s64[1] zero
.buffer tt_near_ct_d16 .s64[1] zero
.buffer tt_chain_rt_d8 .s64[1] zero
.buffer tt_chain_ct_d8 .s64[1] zero
.buffer tt_indep_ct_d8 .s64[1] zero
.launch chain_rt_d16 grid=(1) block=(32) args=(B, out, tt_chain_rt_d16, WIDE)
.launch chain_rt_d16 grid=(1) block=(32) args=(B, out, tt_chain_rt_d16, WIDE)
.launch chain_ct_d16 grid=(1) block=(32) args=(B, out, tt_chain_ct_d16, WIDE)
.launch chain_ct_d16 grid=(1) block=(32) args=(B, out, tt_chain_ct_d16, WIDE)
.launch indep_ct_d16 grid=(1) block=(32) args=(B, out, tt_indep_ct_d16, WIDE)
.launch indep_ct_d16 grid=(1) block=(32) args=(B, out, tt_indep_ct_d16, WIDE)
.launch tree_ct_d16 grid=(1) block=(32) args=(B, out, tt_tree_ct_d16, WIDE)
.launch tree_ct_d16 grid=(1) block=(32) args=(B, out, tt_tree_ct_d16, WIDE)
.launch near_ct_d16 grid=(1) block=(32) args=(B, out, tt_near_ct_d16, WIDE)
.launch near_ct_d16 grid=(1) block=(32) args=(B, out, tt_near_ct_d16, WIDE)
.launch chain_rt_d8 grid=(1) block=(32) args=(B, out, tt_chain_rt_d8, WIDE)
.launch chain_rt_d8 grid=(1) block=(32) args=(B, out, tt_chain_rt_d8, WIDE)
.launch chain_ct_d8 grid=(1) block=(32) args=(B, out, tt_chain_ct_d8, WIDE)
.launch chain_ct_d8 grid=(1) block=(32) args=(B, out, tt_chain_ct_d8, WIDE)
.launch indep_ct_d8 grid=(1) block=(32) args=(B, out, tt_indep_ct_d8, WIDE)
.launch indep_ct_d8 grid=(1) block=(32) args=(B, out, tt_indep_ct_d8, WIDE)
.include "../ptx/burst.ptx"
