// 64-bit integers through the host side exactly (test_cli.c): the
// initialisers, --dump, a file, and checks that tell 2^53 from 2^53 + 1.
// -D OFF=-1 makes the first check expect 2^53 where the kernel leaves
// 2^53 + 1: it fails (the first versions compared doubles and passed it).
.define OFF 0
.buffer a .u64[4] values(9007199254740993, 0xffffffffffffffff, 0x8000000000000000, -2)
.buffer want .u64[4] values(9007199254740993 + OFF, 18446744073709551615, 9223372036854775808, 18446744073709551614)
.buffer b .u64[4] zero
.buffer s .s64[2] values(-9007199254740993, 0x7fffffffffffffff)
.buffer t .s64[2] zero
.buffer f .u64[4] file("int64_exact.expected")
.buffer g .u64[4] zero
.buffer w .u16[3] iota(65535, -1)
.buffer v .s8[3] iota(-128, 127)
.buffer m .u32[2] fill(-1)
.buffer h .s32[5] file("int_hex.txt")
.buffer r .u64[2] random(seed=1, min=0, max=0xffffffffffffffff)
.buffer q .s64[4] random(seed=2, min=1152921504606846976, max=1152921504606846978)
.launch copy64 grid=(1) block=(4) args=(a, b)
.launch copy64 grid=(1) block=(2) args=(s, t)
.launch copy64 grid=(1) block=(4) args=(f, g)
.check b equals=want
.check t equals=s
.check g file="int64_exact.expected"

.entry copy64 (.param .u64 from, .param .u64 to)
{
    .reg .b32 %r<2>;
    .reg .b64 %rd<6>;
    ld.param.u64      %rd1, [from];
    ld.param.u64      %rd2, [to];
    mov.u32           %r1, %tid.x;
    mul.wide.u32      %rd3, %r1, 8;
    add.s64           %rd4, %rd1, %rd3;
    add.s64           %rd5, %rd2, %rd3;
    ld.global.u64     %rd3, [%rd4];
    st.global.u64     [%rd5], %rd3;
    ret;
}
