// cp_async.s - Ampere/Hopper's asynchronous copy into shared memory: each of
// 32 threads copies 16 bytes (4 ints) of in[] to shared with cp.async.cg,
// commits, waits, syncs, then writes out[i] = tile[127 - i] (reversed).
// Thread 0 also copies in[0] with src-size 2: the low 2 bytes, zeros after,
// so extra[0] = in[0] & 0xffff = 0x5678 for in[0] = 0x12345678.
.buffer in .u32[128] iota(0x12345678, 1)
.buffer out .u32[128] zero
.buffer extra .u32[1] zero
.buffer expect .u32[128] iota(0x12345678 + 127, -1)
.launch k grid=1 block=32 args=(in, out, extra)
.check out equals=expect

.entry k (.param .u64 pin, .param .u64 pout, .param .u64 pextra)
{
	.shared .align 16 .b8 tile[512];
	.shared .align 4 .b8 part[4];
	ld.param.u64 	%rd1, [pin];
	ld.param.u64 	%rd2, [pout];
	mov.u32 	%r1, %tid.x;
	mul.wide.u32 	%rd3, %r1, 16;
	add.s64 	%rd4, %rd1, %rd3;
	shl.b32 	%r2, %r1, 4;
	mov.u32 	%r3, tile;
	add.s32 	%r4, %r3, %r2;
	cp.async.cg.shared.global.L2::128B 	[%r4], [%rd4], 16;
	setp.ne.u32 	%p1, %r1, 0;
	@%p1 bra 	COMMIT;
	cp.async.ca.shared.global 	[part], [%rd1], 4, 2;
COMMIT:
	cp.async.commit_group;
	cp.async.wait_group 	0;
	bar.sync 	0;
	// out[4t + j] = tile[127 - 4t - j], j = 0..3
	mov.u32 	%r5, 0;
LOOP:
	shl.b32 	%r6, %r1, 2;
	add.u32 	%r6, %r6, %r5;
	sub.u32 	%r7, 127, %r6;
	shl.b32 	%r8, %r7, 2;
	add.s32 	%r9, %r3, %r8;
	ld.shared.u32 	%r10, [%r9];
	mul.wide.u32 	%rd5, %r6, 4;
	add.s64 	%rd6, %rd2, %rd5;
	st.global.u32 	[%rd6], %r10;
	add.u32 	%r5, %r5, 1;
	setp.lt.u32 	%p2, %r5, 4;
	@%p2 bra 	LOOP;
	@%p1 bra 	DONE;
	cp.async.wait_all;
	ld.shared.u32 	%r11, [part];
	ld.param.u64 	%rd7, [pextra];
	st.global.u32 	[%rd7], %r11;
DONE:
	ret;
}
