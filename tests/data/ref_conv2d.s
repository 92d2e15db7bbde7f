// ref_conv2d.s - the host's conv2d reference on hand-computed cases: a 4 x 4
// input 1..16 and two 3 x 3 masks.  The kernel does nothing; the .buffer
// values are the expected outputs, worked out by hand (test_kernels.c):
// plus: centre + 4 neighbours, zeros outside (out[0][0] = 1 + 2 + 5 = 8,
// out[1][1] = 6 + 2 + 10 + 5 + 7 = 30); up: mask row 0, column 1 alone,
// so out[r][c] = in[r - 1][c] (row 0: 0).  `bad` is `plus` with out[1][1]
// changed to 31: one mismatch.
.buffer in .f32[16] values(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16)
.buffer plus .f32[9] values(0, 1, 0, 1, 1, 1, 0, 1, 0)
.buffer up .f32[9] values(0, 1, 0, 0, 0, 0, 0, 0, 0)
.buffer out_plus .f32[16] values(8, 12, 16, 15, 21, 30, 35, 31, 37, 50, 55, 47, 36, 52, 56, 43)
.buffer out_up .f32[16] values(0, 0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12)
.buffer bad .f32[16] values(8, 12, 16, 15, 21, 31, 35, 31, 37, 50, 55, 47, 36, 52, 56, 43)
.launch k grid=(1) block=(1) args=()
.check out_plus ref=conv2d(in, plus, 4, 4, 3) tol=0
.check out_up ref=conv2d(in, up, 4, 4, 3) tol=0
.check bad ref=conv2d(in, plus, 4, 4, 3) tol=0

.entry k ()
{
    ret;
}
