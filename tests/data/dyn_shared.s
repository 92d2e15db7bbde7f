// dyn_shared.s - dynamic shared memory: nvcc's dyn_reverse (tests/data/nvcc/
// more.cu: `extern __shared__ int s[];`, out[t] = s[n-1-t]), plus a static
// shared word of 12 bytes so the dynamic array starts after it, at 16 (its
// .align).  The size comes with the launch: shared=N*4 bytes.
.define N 100
.define DYN N*4                      // dynamic shared bytes: -D DYN=... for occupancy
.buffer in .s32[N] iota(1, 1)
.buffer out .s32[N] zero
.buffer where .u32[2] zero
.launch dyn_reverse grid=(1) block=(128) args=(in, out, where, N) shared=DYN
.check out file="dyn_shared.expected"

.extern .shared .align 16 .b8 s[];

.visible .entry dyn_reverse(
	.param .u64 dyn_reverse_param_0,
	.param .u64 dyn_reverse_param_1,
	.param .u64 where,
	.param .u32 dyn_reverse_param_2
)
{
	.shared .align 4 .b8 stat[12];
	ld.param.u64 	%rd1, [dyn_reverse_param_0];
	ld.param.u64 	%rd2, [dyn_reverse_param_1];
	ld.param.u32 	%r2, [dyn_reverse_param_2];
	mov.u32 	%r1, %tid.x;
	setp.ge.s32 	%p1, %r1, %r2;
	@%p1 bra 	$L__BB2_2;
	cvta.to.global.u64 	%rd3, %rd1;
	mul.wide.s32 	%rd4, %r1, 4;
	add.s64 	%rd5, %rd3, %rd4;
	ld.global.u32 	%r3, [%rd5];
	shl.b32 	%r4, %r1, 2;
	mov.u32 	%r5, s;
	add.s32 	%r6, %r5, %r4;
	st.shared.u32 	[%r6], %r3;
$L__BB2_2:
	bar.sync 	0;
	@%p1 bra 	$L__BB2_4;
	not.b32 	%r7, %r1;
	add.s32 	%r8, %r7, %r2;
	shl.b32 	%r9, %r8, 2;
	mov.u32 	%r10, s;
	add.s32 	%r11, %r10, %r9;
	ld.shared.u32 	%r12, [%r11];
	cvta.to.global.u64 	%rd6, %rd2;
	mul.wide.s32 	%rd7, %r1, 4;
	add.s64 	%rd8, %rd6, %rd7;
	st.global.u32 	[%rd8], %r12;
$L__BB2_4:
	setp.ne.s32 	%p2, %r1, 0;
	@%p2 bra 	$L__DONE;
	// thread 0: where[0] = the address of s, where[1] = of stat
	ld.param.u64 	%rd9, [where];
	mov.u32 	%r13, s;
	mov.u32 	%r14, stat;
	st.global.u32 	[%rd9], %r13;
	st.global.u32 	[%rd9+4], %r14;
$L__DONE:
	ret;
}
