// inflight32.s - microbenchmark inflight_d32 of tests/validation/cuda/inflight.cu as nvcc 13
// wrote it (nvcc -O3 -arch=sm_90 -ptx), unchanged: blocks of W warps read ROWS rows,
// each warp its own S-sector piece of a row (S = 1 or 4), with D loads in flight
// (kernel inflight_dD; the H100's SASS issues 16 loads then 16 adds for D = 16, 32
// loads partly interleaved with their adds for D = 32).  OWN 0: rows 64 KiB apart,
// blocks with the same blockIdx.x % 16 on the same lines, launched NL = 2 times so
// that the second finds them in L2 (as on the H100); OWN 1: rows 528 KiB apart, each
// block its own lines, NL = 1 (from DRAM).  tt[b] = block b's clock64 span of the row
// loop.  The H100's median cycles per row: tests/validation/h100/measured/inflight.csv.
// (One file per kernel: a .launch names its kernel, which no .define can stand for;
// the files differ only in that name.)

.define G 132
.define W 8
.define S 4
.define OWN 0
.define NL 2
.define ROWS 256
.define WIDTH (16*1024 + OWN*116*1024)
.buffer B .f32[ROWS*WIDTH] zero
.buffer out .f32[G*32*W] zero
.buffer tt .s64[G] zero
.for i = 0, NL
.launch inflight_d32 grid=(G) block=(32*W) args=(B, out, tt, ROWS, WIDTH, S, OWN)
.end
.include "../ptx/inflight.ptx"
