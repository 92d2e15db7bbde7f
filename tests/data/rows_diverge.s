// rows_diverge.s - registers that share a row (kernel_pack_rows) keep each
// thread's values across a divergent branch.  Each half has one path keep
// a 32-bit y live to the join while the other path's lanes compute through
// 64-bit registers that die before their own y is written: no thread's
// liveness sees the two overlap, but a 64-bit row's lane t lies over lanes
// 2t and 2t + 1 of a 32-bit row, so the widths must not share rows.  The
// halves swap the roles, so one of them runs the 32-bit path first
// whichever path the SIMT stack takes first.
//   out[t]     = t odd ? 3t + 7  : 1000 + t
//   out[T + t] = t odd ? 2000 + t : 5t + 11
.define T 64
.buffer out .u32[2*T] zero
.buffer expected .u32[2*T] expr((1 - i / T) * ((i % 2) * (3 * (i % T) + 7) + (1 - i % 2) * (1000 + i % T)) + (i / T) * ((1 - i % 2) * (5 * (i % T) + 11) + (i % 2) * (2000 + i % T)))
.launch rows_diverge grid=(1) block=(T) args=(out)
.check out equals=expected

.entry rows_diverge (.param .u64 out)
{
    mov.u32         %r1, %tid.x;
    and.b32         %r2, %r1, 1;
    setp.ne.u32     %p1, %r2, 0;
    @%p1 bra        ODD;
    add.u32         %r4, %r1, 1000;          // even lanes: y, live to the join
    bra             JOIN;
ODD:
    cvt.u64.u32     %rd1, %r1;               // odd lanes: 64-bit values that die
    mul.lo.u64      %rd2, %rd1, 3;
    add.u64         %rd3, %rd2, 7;
    cvt.u32.u64     %r4, %rd3;
JOIN:
    ld.param.u64    %rd4, [out];
    mul.wide.u32    %rd5, %r1, 4;
    add.s64         %rd6, %rd4, %rd5;
    st.global.u32   [%rd6], %r4;
    @%p1 bra        ODD2;
    cvt.u64.u32     %rd7, %r1;               // even lanes: 64-bit values that die
    mul.lo.u64      %rd8, %rd7, 5;
    add.u64         %rd9, %rd8, 11;
    cvt.u32.u64     %r5, %rd9;
    bra             JOIN2;
ODD2:
    add.u32         %r5, %r1, 2000;          // odd lanes: y, live to the join
JOIN2:
    st.global.u32   [%rd6+4*T], %r5;
    ret;
}
