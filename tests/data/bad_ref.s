// .check with a misspelt reference (test_cli.c)
.buffer a .f32[4] zero
.launch k grid=(1) block=(1) args=(a)
.check a ref=vecad(a, a)

.entry k (.param .u64 a)
{
    ret;
}
