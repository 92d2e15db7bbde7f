// A reference computes in doubles, which hold every integer only up to
// 2^53: a 64-bit buffer with larger values is not checked by one, and the
// check says so (test_cli.c); equals= and file= compare integers exactly.
.buffer a .u64[2] values(9007199254740993, 5)
.launch k grid=(1) block=(1) args=()
.check a ref=copy(a)

.entry k
{
    ret;
}
