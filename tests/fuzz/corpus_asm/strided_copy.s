// strided_copy.s - out[i] = in[i*STRIDE]: memory coalescing (seed 003,
// "memory coalescing", the A[16*t] example).
//
// What it shows: how the distance between the addresses of a warp's lanes
// decides how many memory transactions one load instruction costs.  The
// store to out[i] is always unit-stride (one 128-byte line per warp); the
// load from in[i*STRIDE] spreads the warp's 32 four-byte reads over
// 32*STRIDE*4 bytes (buffers are 256-byte aligned):
//   STRIDE=1:  128 bytes, 1 line of 128 B = 4 sectors of 32 B, all used
//   STRIDE=2:  256 bytes, 2 lines, 8 sectors, half of every byte fetched used
//   STRIDE=16: lane t reads byte 64t: every 2 lanes share a 128-byte line,
//              16 lines (the seed's "16 transactions"), 32 sectors, and only
//              4 of every 32 bytes fetched are used
//   STRIDE>=32: 32 lines, 32 sectors: one transaction per lane
// The instruction counts are the same for every STRIDE; the difference is
// in the memory system: l1tex__t_sectors_pipe_lsu_mem_global_op_ld and
// dram__bytes_read grow with STRIDE while the useful bytes stay N*4.
//
// The input is iota (in[k] = k), so `--dump out` prints 0, S, 2S, ...
//
// What to change: -D STRIDE=1|2|4|8|16|32 (in is sized N*STRIDE), -D N=..,
// -D BLOCK=...
// What to look for (default N=1000, BLOCK=128, 32 warps, --functional):
//   warp instructions       576 = 32 x 18, and global loads / stores 32 / 32
//                           (one each per warp), for every STRIDE
//   divergent branches      1: the last warp (i = 992..999 in range)
//   sectors per load request (timing model): 4 (STRIDE=1), 8 (2), 32 (16)
// sizes: STRIDE=2 | STRIDE=16 | N=77 BLOCK=32 STRIDE=16 | N=4096 STRIDE=32 | N=1 STRIDE=3
.define N 1000
.define BLOCK 128
.define STRIDE 1

.buffer in  .f32[N*STRIDE] iota
.buffer out .f32[N] zero
.launch strided_copy grid=((N+BLOCK-1)/BLOCK) block=(BLOCK) args=(in, out, N, STRIDE)
.check out ref=strided(in, STRIDE)

.entry strided_copy (.param .u64 in, .param .u64 out, .param .u32 n, .param .u32 stride)
{
    ld.param.u64    %rd1, [in];
    ld.param.u64    %rd2, [out];
    ld.param.u32    %r1, [n];
    ld.param.u32    %r2, [stride];
    mov.u32         %r3, %ctaid.x;
    mov.u32         %r4, %ntid.x;
    mov.u32         %r5, %tid.x;
    mad.lo.s32      %r6, %r3, %r4, %r5;      // i = blockIdx.x*blockDim.x + threadIdx.x
    setp.ge.s32     %p1, %r6, %r1;
    @%p1 bra        DONE;

    mul.wide.s32    %rd3, %r6, %r2;          // i*STRIDE (64-bit element index)
    shl.b64         %rd4, %rd3, 2;           // bytes
    add.s64         %rd5, %rd1, %rd4;
    ld.global.f32   %f1, [%rd5];             // in[i*STRIDE]: lanes STRIDE*4 bytes apart
    mul.wide.s32    %rd6, %r6, 4;
    add.s64         %rd7, %rd2, %rd6;
    st.global.f32   [%rd7], %f1;             // out[i]: consecutive, always coalesced
DONE:
    ret;
}
