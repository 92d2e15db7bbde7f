// spill.s - per-thread local memory: what a register spill costs (seed 003,
// "the cost of high register use: register spilling").
//
// What it shows: a per-thread array in .local memory.  Each thread writes
// NV = 16 values x+0, x+1, ..., x+15 derived from its input x = in[i] into
// `.local .f32 buf[16]`, then reads them back in reverse order and sums
// them: out[i] = 16*x + 120.  The array is indexed by a loop counter, so it
// cannot live in registers; this is exactly where a compiler puts variables
// it spills when a thread needs more registers than it may have.  Local
// memory is private to the thread but physically it is device memory (DRAM,
// cached in L1/L2): every buf access is a warp-wide memory instruction
// with global-memory latency, where a register read is free.  Local memory
// is interleaved across a warp's threads (word k of the 32 lanes is
// contiguous), so each access is one coalesced 128-byte line, the best case
// for a spill and still far slower than a register.
//
// What to change: -D N=.., -D BLOCK=..; -D NV=.. (1..64 with BUF=NV, e.g.
// -D NV=64 -D BUF=64: 64 local stores + 64 local loads per warp; the check
// follows, since it is affine(in, NV, NV*(NV-1)/2)).
// What to look for (default N=1000, BLOCK=128, 32 warps, --functional):
//   local stores / loads    512 / 512 = 32 warps x 16 each (seed 003's
//                           example: 120 + 60 spill accesses at 300 cycles
//                           each turn 2000 cycles of work into 56000)
//   global loads / stores   32 / 32: the useful traffic is 1/16 of the
//                           local traffic
//   warp instructions       8288 = 32 x 259, of which 240 per warp are the
//                           two loops over buf
//   divergent branches      1 (the bounds test in the last warp; both loops
//                           have the same trip count in every lane)
// sizes: N=4096 | N=77 BLOCK=32 | N=300 BLOCK=64 NV=64 BUF=64 | N=5 NV=1
.define N 1000
.define BLOCK 128
.define NV 16                           // values stored per thread
.define BUF 16                          // size of buf (at least NV)

.buffer in  .f32[N] random(seed=8, min=-1, max=1)
.buffer out .f32[N] zero
.launch spill grid=((N+BLOCK-1)/BLOCK) block=(BLOCK) args=(in, out, N)
.check out ref=affine(in, NV, (NV*(NV-1)/2))

.entry spill (.param .u64 in, .param .u64 out, .param .u32 n)
{
    .local .align 4 .f32 buf[BUF];          // per-thread, in device memory

    ld.param.u64    %rd1, [in];
    ld.param.u64    %rd2, [out];
    ld.param.u32    %r1, [n];
    mov.u32         %r2, %ctaid.x;
    mov.u32         %r3, %ntid.x;
    mov.u32         %r4, %tid.x;
    mad.lo.s32      %r5, %r2, %r3, %r4;      // i = blockIdx.x*blockDim.x + threadIdx.x
    setp.ge.s32     %p1, %r5, %r1;
    @%p1 bra        DONE;

    mul.wide.s32    %rd3, %r5, 4;
    add.s64         %rd4, %rd1, %rd3;
    ld.global.f32   %f1, [%rd4];             // x = in[i]
    mov.u32         %r6, buf;                // &buf[0] in this thread's local space

    // buf[k] = x + k for k = 0 .. NV-1: NV local stores
    mov.u32         %r7, 0;                  // k
FILL:
    cvt.rn.f32.s32  %f2, %r7;
    add.f32         %f3, %f1, %f2;           // x + k
    shl.b32         %r8, %r7, 2;
    add.s32         %r9, %r6, %r8;           // &buf[k]
    st.local.f32    [%r9], %f3;              // spill store
    add.s32         %r7, %r7, 1;
    setp.lt.s32     %p2, %r7, NV;
    @%p2 bra        FILL;

    // sum = buf[NV-1] + ... + buf[0]: NV local loads, in reverse order
    mov.f32         %f4, 0f00000000;
    mov.u32         %r7, (NV-1);
SUM:
    shl.b32         %r8, %r7, 2;
    add.s32         %r9, %r6, %r8;
    ld.local.f32    %f5, [%r9];              // spill reload
    add.f32         %f4, %f4, %f5;
    sub.s32         %r7, %r7, 1;
    setp.ge.s32     %p3, %r7, 0;
    @%p3 bra        SUM;

    add.s64         %rd5, %rd2, %rd3;
    st.global.f32   [%rd5], %f4;             // out[i] = NV*x + NV*(NV-1)/2
DONE:
    ret;
}
