// mlp_spread.cu - does it matter where a warp's loads in flight go?  As mlp.cu
// (each of W warps follows K pointer chains at once, every lane on its
// chain's line, S = 1 sector a load, lines L2-resident), but the chains' lines
// lie SP lines apart: chain c's step s is line (s * CH + c) * SP.  SP = 1 puts a
// warp's K loads on neighbouring lines (mlp.csv); SP = 512 puts them 64 KiB
// apart, as inflight.cu's rows.  CG = 1 loads with ld.global.cg (no L1).
// The figure: the median block's clock64 span / STEPS = cycles a step.
// usage: mlp_spread OUT.csv
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <algorithm>
#include <cuda_runtime.h>
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { fprintf(stderr, "CUDA %s line %d\n", cudaGetErrorString(e_), __LINE__); exit(1); } } while (0)

// every touched line's 32 words hold the next line's word index
extern "C" __global__ void spread_init(unsigned* A, unsigned ch, unsigned steps, unsigned sp) {
  unsigned long long t = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x;
  unsigned long long l = t >> 5;
  if (l >= (unsigned long long)ch * steps) return;
  unsigned s = (unsigned)(l / ch), c = (unsigned)(l % ch);
  unsigned long long line = (l) * sp, next = ((unsigned long long)((s + 1) % steps) * ch + c) * sp;
  A[line * 32 + (t & 31)] = (unsigned)(next * 32);
}
extern "C" __global__ void spread_warm(const unsigned* A, unsigned* out, unsigned ch, unsigned steps, unsigned sp) {
  unsigned v = 0;
  unsigned long long n = (unsigned long long)ch * steps * 32;
  for (unsigned long long t = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x; t < n; t += (unsigned long long)gridDim.x * blockDim.x)
    v += __ldcg(&A[(t >> 5) * sp * 32 + (t & 31)]);
  if (v == 12345u) out[0] = v;
}
template <int K, bool CG>
__device__ void chase(const unsigned* A, unsigned* out, long long* tt, int steps, unsigned sp) {
  int lane = threadIdx.x & 31, w = threadIdx.x >> 5;
  unsigned off = lane & 7;
  unsigned cbase = w * K;
  unsigned cur[K];
#pragma unroll
  for (int k = 0; k < K; k++) cur[k] = (cbase + k) * sp * 32u;
  __syncthreads();
  long long t0 = clock64();
  for (int s = 0; s < steps; s++) {
#pragma unroll
    for (int k = 0; k < K; k++) cur[k] = CG ? __ldcg(&A[cur[k] + off]) : A[cur[k] + off];
  }
  __syncthreads();
  long long t1 = clock64();
  unsigned v = 0;
#pragma unroll
  for (int k = 0; k < K; k++) v += cur[k];
  if (threadIdx.x == 0) tt[blockIdx.x] = t1 - t0;
  out[blockIdx.x * blockDim.x + threadIdx.x] = v;
}
#define K(N) \
  extern "C" __global__ void __launch_bounds__(1024) spread_k##N(const unsigned* A, unsigned* out, long long* tt, int steps, unsigned sp) { chase<N, false>(A, out, tt, steps, sp); } \
  extern "C" __global__ void __launch_bounds__(1024) spread_cg_k##N(const unsigned* A, unsigned* out, long long* tt, int steps, unsigned sp) { chase<N, true>(A, out, tt, steps, sp); }
K(1) K(4) K(16)
typedef void (*Kern)(const unsigned*, unsigned*, long long*, int, unsigned);

int main(int argc, char** argv) {
  FILE* f = fopen(argc > 1 ? argv[1] : "mlp_spread.csv", "w");
  fprintf(f, "cg,grid,warps,k,sp,steps,cycles_per_step_median\n");
  const int steps = 64;
  size_t abytes = (size_t)2 << 30;
  unsigned *A, *out; long long* tt;
  CK(cudaMalloc(&A, abytes)); CK(cudaMalloc(&out, 1 << 24)); CK(cudaMalloc(&tt, 1 << 20));
  Kern ca[3] = {spread_k1, spread_k4, spread_k16}, cgk[3] = {spread_cg_k1, spread_cg_k4, spread_cg_k16};
  int ks[3] = {1, 4, 16};
  int sps[9] = {1, 2, 4, 8, 16, 32, 64, 128, 512};
  for (int cg = 0; cg < 2; cg++)
    for (int W = 1; W <= 4; W *= 4)
      for (int ki = 0; ki < 3; ki++)
        for (int si = 0; si < 9; si++) {
          unsigned ch = W * ks[ki], sp = sps[si];
          if ((size_t)ch * steps * sp * 128 > abytes) continue;
          unsigned long long words = (unsigned long long)ch * steps * 32;
          spread_init<<<(unsigned)((words + 255) / 256), 256>>>(A, ch, steps, sp);
          spread_warm<<<264, 1024>>>(A, out, ch, steps, sp);
          Kern k = (cg ? cgk : ca)[ki];
          k<<<1, 32 * W>>>(A, out, tt, steps, sp);
          CK(cudaGetLastError());
          CK(cudaDeviceSynchronize());
          long long h; CK(cudaMemcpy(&h, tt, sizeof h, cudaMemcpyDeviceToHost));
          fprintf(f, "%d,1,%d,%d,%u,%d,%.2f\n", cg, W, ks[ki], sp, steps, (double)h / steps);
        }
  fclose(f);
  return 0;
}
