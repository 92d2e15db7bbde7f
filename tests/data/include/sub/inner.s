.buffer a .u32[4] fill(21)
.include "../module.ptx"
