// gray2d.s - colour to grayscale on a 62 x 76 image in 16x16 blocks
// (seed 004, section 4.5, the 2D boundary-divergence example; the kernel is
// chapter 3's colorToGrayscaleConversion).
//
// What it shows: which warps diverge on a 2D bounds test.  The image has
// H = 62 rows and W = 76 columns; 16x16 blocks need a grid of 5 x 4 = 20
// blocks, 8 warps each (a warp = two rows of the block), 160 warps.  The
// test `if (col < W && row < H)` is ONE branch on a combined predicate, so
// a warp diverges exactly when some of its lanes are in the image and some
// are not.  The seed's four regions:
//   1. 12 interior blocks (bx 0-3, by 0-2): 96 warps, none diverge;
//   2. the right column (bx 4, by 0-2): columns 64-79, of which 76-79 are
//      outside, so all 24 warps diverge;
//   3. the bottom row (bx 0-3, by 3): rows 48-63; the last warp holds rows
//      62-63, entirely outside, and takes the branch uniformly: 0 diverge;
//   4. the corner block: the first 7 warps diverge (on the columns), the
//      last is entirely outside: 7.
// Total 24 + 7 = 31 divergent warps of 160.
//
// What to change: -D H=.. -D W=...  An odd H makes the bottom warps diverge
// too, as the seed asks the reader to verify: -D H=61 gives 31 + 4 = 35.
// The seed's 200 x 150 image (-D W=200 -D H=150, 1040 warps) gives 75, not
// the seed's estimate of 80: of the corner block's 8 warps only the 3 that
// hold rows 144-149 diverge, the other 5 are entirely below the image.
// What to look for (default size, --functional):
//   divergent branches      31 (of 160 branch instructions, one per warp;
//                           191 branch targets = 129 uniform + 2 x 31)
//   warp instructions       4885 = 155 warps x 31 + 5 warps x 16 (the bottom
//                           warp of each bottom block, rows 62-63, is entirely
//                           outside and jumps straight to ret)
//   global loads / stores   465 / 155 (r, g, b: three loads per warp)
//   SIMD efficiency         97.62%
// sizes: H=150 W=200 | H=61 W=75 | H=16 W=16 | H=1 W=33 | H=100 W=7
.define H 62
.define W 76
.define BLOCK 16

.buffer rgb  .f32[3*H*W] random(seed=7)          // r,g,b interleaved, in [0,1)
.buffer gray .f32[H*W] zero
.launch gray2d grid=((W+BLOCK-1)/BLOCK, (H+BLOCK-1)/BLOCK) block=(BLOCK, BLOCK) args=(rgb, gray, H, W)
.check gray ref=gray(rgb, H, W) tol=1e-5

.entry gray2d (.param .u64 rgb, .param .u64 gray, .param .u32 h, .param .u32 w)
{
    ld.param.u64    %rd1, [rgb];
    ld.param.u64    %rd2, [gray];
    ld.param.u32    %r1, [h];
    ld.param.u32    %r2, [w];
    mov.u32         %r3, %ctaid.x;
    mov.u32         %r4, %ntid.x;
    mov.u32         %r5, %tid.x;
    mad.lo.s32      %r6, %r3, %r4, %r5;      // col = blockIdx.x*blockDim.x + threadIdx.x
    mov.u32         %r7, %ctaid.y;
    mov.u32         %r8, %ntid.y;
    mov.u32         %r9, %tid.y;
    mad.lo.s32      %r10, %r7, %r8, %r9;     // row = blockIdx.y*blockDim.y + threadIdx.y
    setp.lt.s32     %p1, %r6, %r2;
    setp.lt.and.s32 %p2, %r10, %r1, %p1;     // col < W && row < H: one predicate
    @!%p2 bra       DONE;                    // one branch per warp

    mad.lo.s32      %r11, %r10, %r2, %r6;    // i = row*W + col
    mul.lo.s32      %r12, %r11, 3;           // rgb offset 3*i
    mul.wide.s32    %rd3, %r12, 4;
    add.s64         %rd4, %rd1, %rd3;
    ld.global.f32   %f1, [%rd4];             // r
    ld.global.f32   %f2, [%rd4+4];           // g
    ld.global.f32   %f3, [%rd4+8];           // b
    mul.f32         %f4, %f1, 0.21;
    mul.f32         %f5, %f2, 0.71;
    add.f32         %f6, %f4, %f5;           // 0.21 r + 0.71 g
    mul.f32         %f7, %f3, 0.07;
    add.f32         %f8, %f6, %f7;           // ... + 0.07 b
    mul.wide.s32    %rd5, %r11, 4;
    add.s64         %rd6, %rd2, %rd5;
    st.global.f32   [%rd6], %f8;             // gray[i]
DONE:
    ret;
}
