// lat64.cu - dependent-chain latency of the 64-bit address arithmetic ptxas
// emits (one warp, clock64 around 1024 steps, cycles per step):
//   imad_wide: a = lo(a) * 4 + a        (mad.wide.u32 -> IMAD.WIDE.U32)
//   add64:     a = a + b                (add.s64 -> IADD3 + IADD3.X, or IADD.64)
//   mulwide_add: t = lo(a) * 4 (mul.wide.u32); a = t + b (add.s64): nvcc's address pair
//   iadd32:    x = x + y                (IADD3, the reference: 4)
//   imad32:    x = x * y + z            (IMAD, the reference: 4)
//   imad_wide_tp: 8 independent IMAD.WIDE chains, cycles per step of 8 (issue rate)
// usage: lat64 OUT.csv
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { fprintf(stderr, "CUDA %s line %d\n", cudaGetErrorString(e_), __LINE__); exit(1); } } while (0)
#define STEPS 1024

extern "C" __global__ void imad_wide(unsigned long long* out, long long* tt, unsigned long long seed) {
  unsigned long long a = seed + threadIdx.x;
  long long t0 = clock64();
#pragma unroll 16
  for (int i = 0; i < STEPS; i++) asm volatile("{.reg .u32 l; cvt.u32.u64 l, %0; mad.wide.u32 %0, l, 4, %0;}" : "+l"(a));
  long long t1 = clock64();
  out[threadIdx.x] = a; if (threadIdx.x == 0) tt[0] = t1 - t0;
}
extern "C" __global__ void add64(unsigned long long* out, long long* tt, unsigned long long seed) {
  unsigned long long a = seed + threadIdx.x, b = seed * 3 + 1;
  long long t0 = clock64();
#pragma unroll 16
  for (int i = 0; i < STEPS; i++) asm volatile("add.s64 %0, %0, %1;" : "+l"(a) : "l"(b));
  long long t1 = clock64();
  out[threadIdx.x] = a; if (threadIdx.x == 0) tt[0] = t1 - t0;
}
extern "C" __global__ void mulwide_add(unsigned long long* out, long long* tt, unsigned long long seed) {
  unsigned long long a = seed + threadIdx.x, b = seed * 3 + 1;
  long long t0 = clock64();
#pragma unroll 16
  for (int i = 0; i < STEPS; i++)
    asm volatile("{.reg .u32 l; .reg .u64 t; cvt.u32.u64 l, %0; mul.wide.u32 t, l, 4; add.s64 %0, t, %1;}" : "+l"(a) : "l"(b));
  long long t1 = clock64();
  out[threadIdx.x] = a; if (threadIdx.x == 0) tt[0] = t1 - t0;
}
extern "C" __global__ void iadd32(unsigned long long* out, long long* tt, unsigned long long seed) {
  unsigned x = (unsigned)seed + threadIdx.x, y = (unsigned)(seed >> 32) | 1;
  long long t0 = clock64();
#pragma unroll 16
  for (int i = 0; i < STEPS; i++) asm volatile("add.u32 %0, %0, %1;" : "+r"(x) : "r"(y));
  long long t1 = clock64();
  out[threadIdx.x] = x; if (threadIdx.x == 0) tt[0] = t1 - t0;
}
extern "C" __global__ void imad32(unsigned long long* out, long long* tt, unsigned long long seed) {
  unsigned x = (unsigned)seed + threadIdx.x, y = (unsigned)(seed >> 32) | 1;
  long long t0 = clock64();
#pragma unroll 16
  for (int i = 0; i < STEPS; i++) asm volatile("mad.lo.u32 %0, %0, %1, %1;" : "+r"(x) : "r"(y));
  long long t1 = clock64();
  out[threadIdx.x] = x; if (threadIdx.x == 0) tt[0] = t1 - t0;
}
// issue rate, one warp: 8 independent IMAD.WIDE chains interleaved (cycles per instruction)
extern "C" __global__ void imad_wide_tp(unsigned long long* out, long long* tt, unsigned long long seed) {
  unsigned long long a0 = seed + threadIdx.x, a1 = a0 + 1, a2 = a0 + 2, a3 = a0 + 3, a4 = a0 + 4, a5 = a0 + 5, a6 = a0 + 6, a7 = a0 + 7;
  long long t0 = clock64();
#pragma unroll 4
  for (int i = 0; i < STEPS / 8; i++)
    asm volatile("{.reg .u32 l0, l1, l2, l3, l4, l5, l6, l7;\n\t"
                 "cvt.u32.u64 l0, %0; cvt.u32.u64 l1, %1; cvt.u32.u64 l2, %2; cvt.u32.u64 l3, %3;\n\t"
                 "cvt.u32.u64 l4, %4; cvt.u32.u64 l5, %5; cvt.u32.u64 l6, %6; cvt.u32.u64 l7, %7;\n\t"
                 "mad.wide.u32 %0, l0, 4, %0; mad.wide.u32 %1, l1, 4, %1; mad.wide.u32 %2, l2, 4, %2; mad.wide.u32 %3, l3, 4, %3;\n\t"
                 "mad.wide.u32 %4, l4, 4, %4; mad.wide.u32 %5, l5, 4, %5; mad.wide.u32 %6, l6, 4, %6; mad.wide.u32 %7, l7, 4, %7;}"
                 : "+l"(a0), "+l"(a1), "+l"(a2), "+l"(a3), "+l"(a4), "+l"(a5), "+l"(a6), "+l"(a7));
  long long t1 = clock64();
  out[threadIdx.x] = a0 + a1 + a2 + a3 + a4 + a5 + a6 + a7; if (threadIdx.x == 0) tt[0] = t1 - t0;
}
typedef void (*Kern)(unsigned long long*, long long*, unsigned long long);
int main(int argc, char** argv) {
  FILE* f = fopen(argc > 1 ? argv[1] : "lat64.csv", "w");
  fprintf(f, "kernel,steps,cycles_per_step\n");
  unsigned long long* out; long long* tt;
  CK(cudaMalloc(&out, 1 << 20)); CK(cudaMalloc(&tt, 64));
  const char* names[6] = {"imad_wide", "add64", "mulwide_add", "iadd32", "imad32", "imad_wide_tp"};
  Kern k[6] = {imad_wide, add64, mulwide_add, iadd32, imad32, imad_wide_tp};
  for (int rep = 0; rep < 2; rep++)
    for (int i = 0; i < 6; i++) {
      k[i]<<<1, 32>>>(out, tt, 0x123456789ull);
      CK(cudaDeviceSynchronize());
      long long h; CK(cudaMemcpy(&h, tt, 8, cudaMemcpyDeviceToHost));
      if (rep) fprintf(f, "%s,%d,%.2f\n", names[i], STEPS, (double)h / STEPS);
    }
  fclose(f);
  return 0;
}
