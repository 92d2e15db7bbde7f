// A number in a file that does not fit the buffer's elements is an error
// naming it (test_cli.c); the first versions stored its low byte.
.buffer x .u8[4] file("int64_exact.expected")
.launch k grid=(1) block=(1) args=()

.entry k
{
    ret;
}
