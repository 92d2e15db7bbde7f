// for_stencil.s - a time-stepped 1D stencil, ping-ponging two buffers in a
// host loop (.for, docs/kernel-format.md "Host loops").
//
// Each step: out[i] = in[i-1] + in[i] + in[i+1] inside, out[N-1] = in[N-1],
// and out[0] = s, the step's number (a source driven by time), passed as an
// argument computed from the loop variable.  One iteration of the loop runs
// two steps, a -> b then b -> a, so after STEPS iterations the result is in a
// again.  Integers, so the answer is exact: for_stencil.expected holds it
// for the defaults (N=64, STEPS=5, a = iota), computed once by
//
//   a = list(range(64))
//   for s in range(10):
//       a = [s] + [a[i-1] + a[i] + a[i+1] for i in range(1, 63)] + [a[63]]
//   print("\n".join(map(str, a)))
//
// The report then has a per-launch table: 10 launches, t = 0..4, two each.
.define N 64
.define BLOCK 32
.define STEPS 5

.buffer a .u32[N] iota
.buffer b .u32[N] zero

.for t = 0, STEPS
    .launch step grid=((N+BLOCK-1)/BLOCK) block=(BLOCK) args=(a, b, N, 2*t)      // step 2t:   a -> b
    .launch step grid=((N+BLOCK-1)/BLOCK) block=(BLOCK) args=(b, a, N, 2*t + 1)  // step 2t+1: b -> a
.end

.check a file="for_stencil.expected"

.entry step (.param .u64 in, .param .u64 out, .param .u32 n, .param .u32 s)
{
    ld.param.u64  %rd1, [in];
    ld.param.u64  %rd2, [out];
    ld.param.u32  %r1, [n];
    ld.param.u32  %r2, [s];
    mov.u32       %r3, %ctaid.x;
    mov.u32       %r4, %ntid.x;
    mov.u32       %r5, %tid.x;
    mad.lo.s32    %r6, %r3, %r4, %r5;        // i
    setp.ge.s32   %p1, %r6, %r1;
@%p1 bra          DONE;
    mul.wide.s32  %rd3, %r6, 4;
    add.s64       %rd4, %rd1, %rd3;          // &in[i]
    add.s64       %rd5, %rd2, %rd3;          // &out[i]
    setp.eq.s32   %p2, %r6, 0;
@%p2 bra          FIRST;
    ld.global.u32 %r7, [%rd4];               // in[i]
    sub.s32       %r8, %r1, 1;
    setp.eq.s32   %p3, %r6, %r8;
@%p3 bra          STORE;                     // out[N-1] = in[N-1]
    ld.global.u32 %r9, [%rd4+-4];            // in[i-1]
    ld.global.u32 %r10, [%rd4+4];            // in[i+1]
    add.s32       %r7, %r7, %r9;
    add.s32       %r7, %r7, %r10;
    bra           STORE;
FIRST:
    mov.u32       %r7, %r2;                  // out[0] = s
STORE:
    st.global.u32 [%rd5], %r7;
DONE:
    ret;
}
