// race_global.s - two warps of one block trade values through GLOBAL memory
// with no barrier (tests/test_check.c).  Thread t stores out[t] = t, then
// loads out[t ^ 32], the word of the same lane in the other warp.  The
// functional engine runs warp 0 to its end first: warp 0 reads out[32..63]
// before warp 1 writes them (32 write-after-reads, first on out[32]: warp 0
// lane 0 read, warp 1 lane 0 wrote), then warp 1 reads out[0..31], which
// warp 0 wrote (32 read-after-writes, first on out[0]).  Only --check global
// looks at global memory.
.buffer out .u32[64] zero
.buffer got .u32[64] zero
.launch trade grid=(1) block=(64) args=(out, got)

.entry trade (.param .u64 out, .param .u64 got)
{
    ld.param.u64    %rd1, [out];
    ld.param.u64    %rd2, [got];
    mov.u32         %r1, %tid.x;
    mul.wide.u32    %rd3, %r1, 4;
    add.s64         %rd4, %rd1, %rd3;
    st.global.u32   [%rd4], %r1;             // out[t] = t
    xor.b32         %r2, %r1, 32;
    mul.wide.u32    %rd5, %r2, 4;
    add.s64         %rd6, %rd1, %rd5;
    ld.global.u32   %r3, [%rd6];             // out[t ^ 32]
    add.s64         %rd7, %rd2, %rd3;
    st.global.u32   [%rd7], %r3;
    ret;
}
