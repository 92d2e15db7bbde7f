// call_diverge.s - a guarded call: only odd threads call times10 (out[t] =
// 10 t), even ones skip it (out[t] = -1); all reconverge after the call and
// add 1.  Inside, lanes t >= 5 return early with 10 t + 5 (a divergent ret).
// Expected: 0 11 0 31 0 56 0 76 (-1 + 1 = 0 for even t).
.buffer out .s32[8] zero
.launch k grid=(1) block=(8) args=(out)
.check out file="call_diverge.expected"

.func (.param .s32 r) times10 (.param .s32 x)
{
	ld.param.s32 	%r1, [x];
	mul.lo.s32 	%r2, %r1, 10;
	setp.ge.s32 	%p1, %r1, 5;
	@%p1 bra 	EARLY;
	st.param.s32 	[r], %r2;
	ret;
EARLY:
	add.s32 	%r2, %r2, 5;
	st.param.s32 	[r], %r2;
	ret;
}

.entry k (.param .u64 out)
{
	.param .s32 a;
	.param .s32 b;
	ld.param.u64 	%rd1, [out];
	mov.u32 	%r1, %tid.x;
	mov.s32 	%r2, -1;
	and.b32 	%r3, %r1, 1;
	setp.eq.u32 	%p1, %r3, 1;
	st.param.s32 	[a], %r1;
	@%p1 call 	(b), times10, (a);
	@%p1 ld.param.s32 	%r2, [b];
	add.s32 	%r2, %r2, 1;
	mul.wide.u32 	%rd2, %r1, 4;
	add.s64 	%rd3, %rd1, %rd2;
	st.global.s32 	[%rd3], %r2;
	ret;
}
