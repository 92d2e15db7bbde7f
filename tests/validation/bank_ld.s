// bank_ld.s - the H100 reference kernel bank_ld (tests/validation/h100/kernels.cu):
//
//   __global__ void bank_ld(float* out, int stride) {
//     __shared__ float s[1024];
//     int t = threadIdx.x;
//     s[t] = (float)t;
//     __syncthreads();
//     out[blockIdx.x * blockDim.x + t] = s[(t * stride) & 1023];
//   }
//
// counters.csv rows "bank_ld, stride=S": -D STRIDE=S, grid (1, 1, 1), block
// (1024, 1, 1).  Per warp one shared store (by row: conflict-free), one
// shared load at stride S words (gcd(S, 32)-way bank conflict: 1, 2, 4, 8,
// 32 wavefronts for S = 1, 2, 4, 8, 32) and one coalesced global store.
//
// out[t] = (float)((t * STRIDE) & 1023).  No .check line: no host reference
// computes that mask; tests/test_validation.c checks out after the run.

.define STRIDE 1
.define BLOCK 1024
.define GRID 1

.buffer out .f32[GRID*BLOCK] zero
.launch bank_ld grid=(GRID) block=(BLOCK) args=(out, STRIDE)

.entry bank_ld (.param .u64 out, .param .u32 stride)
{
    .shared .align 4 .f32 s[1024];

    ld.param.u64    %rd1, [out];
    ld.param.u32    %r1, [stride];
    mov.u32         %r2, %tid.x;             // t
    cvt.rn.f32.s32  %f1, %r2;                // (float)t
    mov.u32         %r3, s;
    shl.b32         %r4, %r2, 2;
    add.s32         %r5, %r3, %r4;
    st.shared.f32   [%r5], %f1;              // s[t]: one word per lane, banks 0..31
    bar.sync        0;
    mul.lo.s32      %r6, %r2, %r1;
    and.b32         %r7, %r6, 1023;          // (t * stride) & 1023
    shl.b32         %r8, %r7, 2;
    add.s32         %r9, %r3, %r8;
    ld.shared.f32   %f2, [%r9];              // stride words apart: gcd(stride, 32) ways
    mov.u32         %r10, %ctaid.x;
    mov.u32         %r11, %ntid.x;
    mad.lo.s32      %r12, %r10, %r11, %r2;
    mul.wide.s32    %rd2, %r12, 4;
    add.s64         %rd3, %rd1, %rd2;
    st.global.f32   [%rd3], %f2;
    ret;
}
