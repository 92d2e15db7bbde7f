// calls.s - nvcc's `calls` kernel (more.cu): out[t] = add3(t, 1, 2) + fact(t % 6)
// through two real .func calls (nvcc folded add3's constants: t + 3, and
// turned fact's recursion into a loop): 4 5 7 12 31 128 10 11.
.buffer out .s32[8] zero
.launch calls grid=(1) block=(8) args=(out)
.check out file="calls.expected"
.include "more.ptx"
