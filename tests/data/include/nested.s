.include "sub/inner.s"
.launch twice grid=(1) block=(4) args=(a, 4)
