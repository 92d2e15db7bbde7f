// mlp8.s - microbenchmark mlp_k8 of tests/validation/cuda/mlp.cu as nvcc 13 wrote it
// (nvcc -O3 -arch=sm_90 -ptx), unchanged: each of the W warps of a block follows 8
// pointer chains at once (8 loads in flight a warp), STEPS steps, every lane on its
// chain's line (S = 1: one sector a load, 4: the whole line).  MODE 0 ("l2"): every
// block on the same chains, read with ld.cg first so that they are in L2; MODE 1
// ("dram"): each block its own chains, cold.  tt[2b] = block b's clock64 span.  The
// H100's median cycles per step: tests/validation/h100/measured/mlp.csv.
// (One file per kernel: a .launch names its kernel, which no .define can stand for;
// the files differ only in that name.)

.define G 1
.define W 1
.define S 1
.define MODE 0
.define STEPS 128
.define CH ((1 + MODE * (G - 1)) * W * 8)
.define WORDS (CH * STEPS * 32)
.buffer A .u32[WORDS] zero
.buffer out .u32[G*32*W] zero
.buffer tt .s64[2*G] zero
.launch mlp_init grid=((WORDS + 255) / 256) block=(256) args=(A, CH, STEPS)
.for i = 0, 1 - MODE
.launch mlp_warm grid=(264) block=(1024) args=(A, out, WORDS)
.end
.launch mlp_k8 grid=(G) block=(32*W) args=(A, out, tt, STEPS, S, MODE)
.include "../ptx/mlp.ptx"
