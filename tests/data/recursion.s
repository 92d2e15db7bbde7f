// recursion.s - a recursive device function: thread t computes fib(t) by
// fib(n) = fib(n-1) + fib(n-2), so lanes recurse to different depths
// (divergence inside the function) and each activation needs its own n and
// first result back after the second call (registers saved per call).
// fib(0..11) = 0 1 1 2 3 5 8 13 21 34 55 89; thread 11 nests 11 calls, so
// -D N=12 --set sm.max_call_depth=10 is a call stack overflow.
.define N 12
.buffer out .s32[N] zero
.launch fibs grid=(1) block=(N) args=(out)
.check out file="recursion.expected"

.func (.param .b32 fib_ret) fib (.param .b32 fib_n)
{
	.reg .pred 	%p<2>;
	.reg .b32 	%r<7>;
	ld.param.b32 	%r1, [fib_n];
	setp.lt.s32 	%p1, %r1, 2;
	@%p1 bra 	BASE;
	{
	.param .b32 param0;
	.param .b32 retval0;
	add.s32 	%r2, %r1, -1;
	st.param.b32 	[param0+0], %r2;
	call (retval0), fib, (param0);
	ld.param.b32 	%r3, [retval0+0];
	}
	{
	.param .b32 param0;
	.param .b32 retval0;
	add.s32 	%r4, %r1, -2;
	st.param.b32 	[param0+0], %r4;
	call (retval0), fib, (param0);
	ld.param.b32 	%r5, [retval0+0];
	}
	add.s32 	%r6, %r3, %r5;
	st.param.b32 	[fib_ret+0], %r6;
	ret;
BASE:
	st.param.b32 	[fib_ret+0], %r1;
	ret;
}

.visible .entry fibs(
	.param .u64 fibs_out
)
{
	.reg .b32 	%r<3>;
	.reg .b64 	%rd<4>;
	ld.param.u64 	%rd1, [fibs_out];
	mov.u32 	%r1, %tid.x;
	{
	.param .b32 param0;
	.param .b32 retval0;
	st.param.b32 	[param0+0], %r1;
	call.uni (retval0), fib, (param0);
	ld.param.b32 	%r2, [retval0+0];
	}
	cvta.to.global.u64 	%rd2, %rd1;
	mul.wide.u32 	%rd3, %r1, 4;
	add.s64 	%rd2, %rd2, %rd3;
	st.global.u32 	[%rd2], %r2;
	ret;
}
