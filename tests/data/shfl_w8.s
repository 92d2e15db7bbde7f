// shfl_w8.s - seed 002's shuffle tables for width 8, on one block of 16
// threads (seed 002: "线程块大小16, w为8": lanes 0..7, 0..7).  Every thread
// shuffles v = tid four ways and stores, for mode m, out[m*16 + tid]:
//   m 0  %laneid % 8 (seed 002's lane_id = threadIdx.x % w): 0 1 ... 7 | 0 1 ... 7
//   m 1  shfl.up   by 2             lane t gets t-2; lanes 0, 1 keep their own
//   m 2  shfl.down by 2             lane t gets t+2; lanes 6, 7 keep their own
//   m 3  shfl.bfly with laneMask 2  lane t gets t ^ 2: 2 3 0 1 6 7 4 5
//   m 4  shfl.idx  from lane 3      every lane gets lane 3's v
// On an 8-lane warp (sm.warp_size = 8, configs/tiny.ini) width 8 is the
// whole warp; on wider warps the c operand makes 8-lane segments, as CUDA's
// __shfl_*_sync(mask, v, d, 8) does: c = ((WARP_SZ - 8) << 8) | clamp, with
// clamp 0 for up and 7 for the others.  The table is the same either way.
// tests/test_configs.c runs it on warp sizes 8 and 32 and pins the values.
.buffer out .u32[80] zero
.launch shfl_w8 grid=(1) block=(16) args=(out)
.check out file="shfl_w8.expected"

.entry shfl_w8 (.param .u64 out)
{
    ld.param.u64    %rd1, [out];
    mov.u32         %r1, %tid.x;             // v = tid
    sub.u32         %r2, WARP_SZ, 8;
    shl.b32         %r2, %r2, 8;             // segment mask: (WARP_SZ - 8) << 8
    or.b32          %r3, %r2, 7;             // c for down, bfly, idx: clamp at the segment's lane 7
    shl.b32         %r4, 1, WARP_SZ;
    sub.u32         %r4, %r4, 1;             // membermask: all WARP_SZ lanes
    mul.wide.u32    %rd2, %r1, 4;
    add.s64         %rd2, %rd1, %rd2;        // &out[tid]

    mov.u32         %r5, %laneid;
    and.b32         %r5, %r5, 7;             // lane within the 8-lane segment (= %laneid at warp size 8)
    st.global.u32   [%rd2], %r5;
    shfl.sync.up.b32   %r6, %r1, 2, %r2, %r4;
    st.global.u32   [%rd2+64], %r6;
    shfl.sync.down.b32 %r6, %r1, 2, %r3, %r4;
    st.global.u32   [%rd2+128], %r6;
    shfl.sync.bfly.b32 %r6, %r1, 2, %r3, %r4;
    st.global.u32   [%rd2+192], %r6;
    shfl.sync.idx.b32  %r6, %r1, 3, %r3, %r4;
    st.global.u32   [%rd2+256], %r6;
    ret;
}
