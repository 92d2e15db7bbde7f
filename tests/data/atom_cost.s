// atom_cost.s - one warp, one reduction: MODE 0 every lane adds 1 to word 0
// (32 operations on one address); MODE 1 lane l adds 1 to word l (one 128-byte
// line, 4 sectors, one operation per address).  test_timing.c pins the cycles
// the L2 slice's atomic unit is held (MemStats.atom_l2_cycles).
.define MODE 0
.buffer w .u32[32] zero
.launch k grid=(1) block=(32) args=(w)

.entry k (.param .u64 pw)
{
    ld.param.u64    %rd1, [pw];
    mov.u32         %r1, %tid.x;
    mul.lo.u32      %r2, %r1, MODE;
    mul.wide.u32    %rd2, %r2, 4;
    add.s64         %rd3, %rd1, %rd2;
    red.global.add.u32 [%rd3], 1;
    ret;
}
