// for_lu.s - LU decomposition in place, one host-loop step per pivot: the
// grid shrinks with the loop variable k, as in every right-looking LU
// (docs/kernel-format.md "Host loops").
//
// Step k: scale column k below the pivot, A[i][k] /= A[k][k] (i > k: a 1D
// grid of N-k-1 threads), then update the trailing matrix,
// A[i][j] -= A[i][k] * A[k][j] (i, j > k: a 2D grid over (N-k-1)^2).  The
// matrix A[i][j] = min(i, j) + 1 is L * U with L unit lower triangular and U
// upper triangular, both all ones in their triangles, so the factors stored
// in place are all ones: checked against a buffer of ones.  Small integers,
// exact in .f32.  The last k (N-1) has nothing left to do, so the loop stops
// at N-1 (a grid of 0 blocks would be an error).
.define N 24
.define B 8

.buffer m .f32[N*N] expr(min(i / N, i % N) + 1)
.buffer ones .f32[N*N] fill(1)

.for k = 0, N - 1
    .launch scale  grid=((N-k-1+B*B-1)/(B*B)) block=(B*B) args=(m, N, k)
    .launch update grid=((N-k-1+B-1)/B, (N-k-1+B-1)/B) block=(B, B) args=(m, N, k)
.end

.check m equals=ones

// A[i][k] /= A[k][k] for i = k+1 + thread
.entry scale (.param .u64 m, .param .u32 n, .param .u32 k)
{
    ld.param.u64  %rd1, [m];
    ld.param.u32  %r1, [n];
    ld.param.u32  %r2, [k];
    mov.u32       %r3, %ctaid.x;
    mov.u32       %r4, %ntid.x;
    mov.u32       %r5, %tid.x;
    mad.lo.s32    %r6, %r3, %r4, %r5;
    add.s32       %r6, %r6, %r2;
    add.s32       %r6, %r6, 1;               // i = k + 1 + global thread id
    setp.ge.s32   %p1, %r6, %r1;
@%p1 bra          DONE;
    mad.lo.s32    %r7, %r2, %r1, %r2;        // k*n + k
    mul.wide.s32  %rd2, %r7, 4;
    add.s64       %rd2, %rd1, %rd2;
    ld.global.f32 %f1, [%rd2];               // A[k][k]
    mad.lo.s32    %r8, %r6, %r1, %r2;        // i*n + k
    mul.wide.s32  %rd3, %r8, 4;
    add.s64       %rd3, %rd1, %rd3;
    ld.global.f32 %f2, [%rd3];
    div.rn.f32    %f3, %f2, %f1;
    st.global.f32 [%rd3], %f3;
DONE:
    ret;
}

// A[i][j] -= A[i][k] * A[k][j] for i, j > k
.entry update (.param .u64 m, .param .u32 n, .param .u32 k)
{
    ld.param.u64  %rd1, [m];
    ld.param.u32  %r1, [n];
    ld.param.u32  %r2, [k];
    mov.u32       %r3, %ctaid.x;
    mov.u32       %r4, %ntid.x;
    mov.u32       %r5, %tid.x;
    mad.lo.s32    %r6, %r3, %r4, %r5;
    add.s32       %r6, %r6, %r2;
    add.s32       %r6, %r6, 1;               // j
    mov.u32       %r3, %ctaid.y;
    mov.u32       %r4, %ntid.y;
    mov.u32       %r5, %tid.y;
    mad.lo.s32    %r7, %r3, %r4, %r5;
    add.s32       %r7, %r7, %r2;
    add.s32       %r7, %r7, 1;               // i
    setp.ge.s32   %p1, %r6, %r1;
    setp.ge.s32   %p2, %r7, %r1;
    or.pred       %p3, %p1, %p2;
@%p3 bra          DONE;
    mad.lo.s32    %r8, %r7, %r1, %r2;        // i*n + k
    mul.wide.s32  %rd2, %r8, 4;
    add.s64       %rd2, %rd1, %rd2;
    ld.global.f32 %f1, [%rd2];               // A[i][k]
    mad.lo.s32    %r9, %r2, %r1, %r6;        // k*n + j
    mul.wide.s32  %rd3, %r9, 4;
    add.s64       %rd3, %rd1, %rd3;
    ld.global.f32 %f2, [%rd3];               // A[k][j]
    mad.lo.s32    %r10, %r7, %r1, %r6;       // i*n + j
    mul.wide.s32  %rd4, %r10, 4;
    add.s64       %rd4, %rd1, %rd4;
    ld.global.f32 %f3, [%rd4];
    mul.f32       %f4, %f1, %f2;
    sub.f32       %f3, %f3, %f4;
    st.global.f32 [%rd4], %f3;
DONE:
    ret;
}
