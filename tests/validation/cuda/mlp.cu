// mlp.cu - memory-level parallelism: how long does a load take when a warp has
// K of them in flight, and W warps of the SM do the same?  Each warp follows K
// independent pointer chains at once (K loads in flight, each step of a chain
// waits for the last), every lane of the warp on the same chain: a lane reads
// word l % (8 S) of the chain's current 128-byte line (S = 1: one sector a load,
// S = 4: the whole line), and every word of a line holds the next line's index.
// The figure: the median block's clock64 span over STEPS = the latency of one
// load with K x W in flight on the SM (a chain's loop adds no arithmetic).
//   mode "l2":    the lines were read with ld.cg just before (L2-resident);
//                 every block follows the same chains (grid 132: all SMs at once)
//   mode "dram":  a 256 MiB write evicted L2 first; each block its own chains
//   mode "inval": K = W = 1, 132 blocks on one 16 KiB chain, launched twice:
//                 the second launch finds the lines in L1 (about 32 cycles a
//                 step) unless L1 is emptied between launches (about 286)
// Chain c's step s is line s * CH + c (CH chains in the launch), so a warp's
// K loads go to neighbouring lines and a chain's steps CH lines apart.
// usage: mlp OUT.csv
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <algorithm>
#include <cuda_runtime.h>
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { fprintf(stderr, "CUDA %s line %d\n", cudaGetErrorString(e_), __LINE__); exit(1); } } while (0)

extern "C" __global__ void mlp_init(unsigned* A, unsigned ch, unsigned steps) {
  unsigned long long t = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x;
  unsigned long long line = t >> 5;
  if (line >= (unsigned long long)ch * steps) return;
  unsigned s = (unsigned)(line / ch), c = (unsigned)(line % ch);
  A[t] = (((s + 1) % steps) * ch + c) * 32u;
}
extern "C" __global__ void mlp_warm(const unsigned* A, unsigned* out, unsigned long long words) {
  unsigned v = 0;
  for (unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x; i < words; i += (unsigned long long)gridDim.x * blockDim.x)
    v += __ldcg(&A[i]);
  if (v == 12345u) out[0] = v;
}
static __device__ __forceinline__ unsigned long long gtime() { unsigned long long t; asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t)); return t; }
template <int K>
__device__ void chase(const unsigned* A, unsigned* out, long long* tt, int steps, int sectors, int own) {
  int lane = threadIdx.x & 31, w = threadIdx.x >> 5;
  unsigned off = lane & (8 * sectors - 1);
  unsigned cbase = ((own ? blockIdx.x : 0) * (blockDim.x >> 5) + w) * K;
  unsigned cur[K];
#pragma unroll
  for (int k = 0; k < K; k++) cur[k] = (cbase + k) * 32u;
  __syncthreads();
  long long t0 = clock64();
  unsigned long long g0 = gtime();
  for (int s = 0; s < steps; s++) {
#pragma unroll
    for (int k = 0; k < K; k++) cur[k] = A[cur[k] + off];
  }
  __syncthreads();
  long long t1 = clock64();
  unsigned long long g1 = gtime();
  unsigned v = 0;
#pragma unroll
  for (int k = 0; k < K; k++) v += cur[k];
  if (threadIdx.x == 0) { tt[2 * blockIdx.x] = t1 - t0; tt[2 * blockIdx.x + 1] = (long long)(g1 - g0); }
  out[blockIdx.x * blockDim.x + threadIdx.x] = v;
}
#define K(N) extern "C" __global__ void __launch_bounds__(1024) mlp_k##N(const unsigned* A, unsigned* out, long long* tt, int steps, int sectors, int own) { chase<N>(A, out, tt, steps, sectors, own); }
K(1) K(2) K(4) K(8) K(16)
typedef void (*Kern)(const unsigned*, unsigned*, long long*, int, int, int);

int main(int argc, char** argv) {
  FILE* f = fopen(argc > 1 ? argv[1] : "mlp.csv", "w");
  fprintf(f, "mode,launch,grid,warps,k,sectors,steps,cycles_per_step_median,cycles_per_step_min,cycles_per_step_max,mhz\n");
  const int steps = 128;
  size_t abytes = (size_t)1 << 30, fbytes = (size_t)256 << 20;
  unsigned *A, *out, *flush; long long* tt;
  CK(cudaMalloc(&A, abytes)); CK(cudaMalloc(&flush, fbytes));
  CK(cudaMalloc(&out, 1 << 24)); CK(cudaMalloc(&tt, 1 << 20));
  Kern kern[5] = {mlp_k1, mlp_k2, mlp_k4, mlp_k8, mlp_k16};
  int ks[5] = {1, 2, 4, 8, 16};
  // warm the clocks: 2 s of work
  for (int i = 0; i < 40; i++) CK(cudaMemset(flush, i, fbytes));
  CK(cudaDeviceSynchronize());
  auto run = [&](const char* mode, int launch, int grid, int W, int ki, int S, int own, int ch) {
    kern[ki]<<<grid, 32 * W>>>(A, out, tt, steps, S, own);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    std::vector<long long> h(2 * grid);
    CK(cudaMemcpy(h.data(), tt, 2 * grid * sizeof(long long), cudaMemcpyDeviceToHost));
    std::vector<long long> c(grid); double mhz = 0;
    for (int i = 0; i < grid; i++) { c[i] = h[2 * i]; mhz += (double)h[2 * i] / (double)h[2 * i + 1] * 1000.0 / grid; }
    std::sort(c.begin(), c.end());
    fprintf(f, "%s,%d,%d,%d,%d,%d,%d,%.2f,%.2f,%.2f,%.0f\n", mode, launch, grid, W, ks[ki], S, steps,
            (double)c[grid / 2] / steps, (double)c[0] / steps, (double)c[grid - 1] / steps, mhz);
    (void)ch;
  };
  auto setup = [&](unsigned ch) {
    unsigned long long words = (unsigned long long)ch * steps * 32;
    if (words * 4 > abytes) { fprintf(stderr, "too big\n"); exit(1); }
    mlp_init<<<(unsigned)((words + 255) / 256), 256>>>(A, ch, steps);
    CK(cudaGetLastError());
    return words;
  };
  // l2
  for (int gi = 0; gi < 2; gi++)
    for (int W = 1; W <= 32; W *= 2)
      for (int ki = 0; ki < 5; ki++)
        for (int S = 1; S <= 4; S *= 4) {
          int grid = gi ? 132 : 1;
          unsigned ch = W * ks[ki];
          unsigned long long words = setup(ch);
          mlp_warm<<<264, 1024>>>(A, out, words);
          run("l2", 1, grid, W, ki, S, 0, ch);
        }
  // dram
  for (int gi = 0; gi < 2; gi++)
    for (int W = 1; W <= 16; W *= 4)
      for (int ki = 0; ki < 5; ki++) {
        int grid = gi ? 16 : 1;
        unsigned ch = grid * W * ks[ki];
        setup(ch);
        CK(cudaMemset(flush, ki + W, fbytes));
        run("dram", 1, grid, W, ki, 4, 1, ch);
      }
  // inval
  setup(1);
  CK(cudaMemset(flush, 7, fbytes));
  run("inval", 1, 132, 1, 0, 4, 0, 1);
  run("inval", 2, 132, 1, 0, 4, 0, 1);
  run("inval", 3, 132, 1, 0, 4, 0, 1);
  fclose(f);
  return 0;
}
