// .check references with sizes that are not sizes, or that would keep the
// host busy for hours (test_cli.c): each is an error at its argument or
// its .check, before anything runs.
.buffer a .f32[4] zero
.buffer m .f32[3] fill(1)
.launch k grid=(1) block=(1) args=(a)
.check a ref=conv1d(a, m, 4, 4294967295)
.check a ref=matmul(a, a, 2, 2, -1)
.check a ref=matmul(a, a, 2, 2, 1.5)
.check a ref=strided(a, 1e30)
.check a ref=conv2d(a, m, 1048576, 1048576, 3)

.entry k (.param .u64 a)
{
    ret;
}
