// empty_kernel.s - kernel empty_kernel of tests/validation/cuda/launch.cu as nvcc 13
// wrote it (tests/validation/ptx/launch.ptx), unchanged: G blocks of B threads that
// only return.  The H100's elapsed and SM-active cycles are the empty_kernel rows of
// tests/validation/h100/measured/launch_overhead_clock_none.csv.
.define G 1
.define B 32
.launch empty_kernel grid=(G) block=(B) args=()

.version 9.0
.target sm_90
.address_size 64

	// .globl	empty_kernel

.visible .entry empty_kernel()
{


	ret;

}
