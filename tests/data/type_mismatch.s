// type_mismatch.s - integer adds on .f32 registers, the slip ptxas rejects
// (tests/test_asm.c): line 14, column 21 is %f3, the first register whose
// declared type (.f32) does not fit add.s32; the same line's other
// operands are not reported again.  Line 15 is fine: .b32 registers take
// any 32-bit type.
.buffer out .f32[1] zero
.launch k grid=1 block=1 args=(out)

.entry k (.param .u64 out)
{
    .reg .f32 %f<4>;
    .reg .b32 %b<3>;
    mov.f32         %f1, 0f3F800000;
    add.s32         %f3, %f1, %f2;
    add.s32         %b2, %b1, 1;
    ret;
}
