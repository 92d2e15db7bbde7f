// globals.s - module variables with their initializers: gcount = 5,
// gtable = {1,2,3,4}, cscale = {0.5, 2, 4}.  out[t] = cscale[t%3] *
// gtable[t&3] + 5: 0.5+5, 4+5, 12+5, 2+5, 2+5, 8+5, 1.5+5, 8+5; gcount 5+1.
.buffer out .f32[8] zero
.launch use_globals grid=(1) block=(8) args=(out)
.check out file="globals.expected"
.check gcount file="globals_gcount.expected"
.include "globals.ptx"
