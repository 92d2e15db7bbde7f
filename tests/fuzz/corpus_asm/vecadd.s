// vecadd.s - c = a + b, one thread per element (seed 004, section 4.5).
//
// What it shows: boundary divergence.  N = 1003 elements in blocks of
// BLOCK = 64 threads need 16 blocks = 1024 threads = 32 warps.  The bounds
// test `if (i < n)` is one guarded branch (@%p1 bra DONE).  Only the last
// warp (threads 992..1023 of the grid, of which 992..1002 are in range)
// has lanes on both sides of it, so exactly one warp diverges; the other 31
// take the branch uniformly (30 full warps fall through, none jump).
//
// What to change: -D N=.. (try 100: one divergent warp of 4, the seed's
// "significant impact" case; 10000: one of 313) and -D BLOCK=.. (a multiple
// of 32 keeps the count at one; BLOCK=48 gives every block a half-empty last
// warp: lower SIMD efficiency, but those idle lanes are not divergence).
//
// What to look for (default size, --functional, warp size 32):
//   divergent branches      1 of 32 branch instructions (one per warp);
//                           33 branch targets: the last warp goes both ways
//   warp instructions       608 = 32 warps x 19 (the divergent warp runs both
//                           paths one after the other, the taken path is empty)
//   thread instructions     19288: the last warp runs its 8-instruction body
//                           with 11 of 32 lanes, so SIMD efficiency = 99.14%
//   global loads / stores   64 / 32 (two loads and one store per warp)
// sizes: N=4096 | N=77 BLOCK=32 | N=100 | N=10000 BLOCK=128
.define N 1003
.define BLOCK 64

.buffer a .f32[N] random(seed=1)
.buffer b .f32[N] random(seed=2)
.buffer c .f32[N] zero
.launch vecadd grid=((N+BLOCK-1)/BLOCK) block=(BLOCK) args=(a, b, c, N)
.check c ref=vecadd(a, b)

.entry vecadd (.param .u64 a, .param .u64 b, .param .u64 c, .param .u32 n)
{
    ld.param.u64  %rd1, [a];
    ld.param.u64  %rd2, [b];
    ld.param.u64  %rd3, [c];
    ld.param.u32  %r5, [n];
    mov.u32       %r2, %ctaid.x;
    mov.u32       %r3, %ntid.x;
    mov.u32       %r4, %tid.x;
    mad.lo.s32    %r1, %r2, %r3, %r4;        // i = blockIdx.x*blockDim.x + threadIdx.x
    setp.ge.s32   %p1, %r1, %r5;             // i >= n: this thread has no element
@%p1 bra          DONE;                      // the only branch: diverges in the last warp
    mul.wide.s32  %rd4, %r1, 4;              // byte offset i*4
    add.s64       %rd5, %rd1, %rd4;
    add.s64       %rd6, %rd2, %rd4;
    add.s64       %rd7, %rd3, %rd4;
    ld.global.f32 %f1, [%rd5];               // a[i]: 32 consecutive floats per warp
    ld.global.f32 %f2, [%rd6];               // b[i]
    add.f32       %f3, %f1, %f2;
    st.global.f32 [%rd7], %f3;               // c[i]
DONE:
    ret;
}
