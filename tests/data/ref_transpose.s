// ref_transpose.s - the host's transpose reference across its 32 x 32
// tiles: a 33 x 35 input holding 0, 1, 2, ... (row-major), so element
// (r, c) is r*35 + c and lands at out[c*33 + r]; the expected buffer says
// so by its index i: r = i % 33, c = i / 33 (test_kernels.c).  `swapped`
// is checked against the transpose of the same input read as 35 x 33.
.buffer in .f32[1155] iota
.buffer out .f32[1155] expr((i % 33) * 35 + i / 33)
.buffer swapped .f32[1155] expr((i % 33) * 35 + i / 33)
.launch k grid=(1) block=(1) args=()
.check out ref=transpose(in, 33, 35) tol=0
.check swapped ref=transpose(in, 35, 33) tol=0

.entry k ()
{
    ret;
}
