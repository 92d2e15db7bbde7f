// inflight.cu - how many global loads can an SM have in flight?  Each warp of a
// block reads ROWS rows with D independent loads in flight (unrolled; ptxas
// issues the D loads before the D adds), each load one piece of S sectors
// (S = 1: lanes l % 8 read 8 floats; S = 4: a whole 128-byte line).  Every
// warp reads its own lines; blocks with the same blockIdx.x % 16 read the same
// ones.  Rows are 64 KiB apart, so a line is read once per block: every load
// misses L1.  One launch per (mode, grid, warps W, depth D, sectors S):
//   mode "l2":   B is L2-resident (the same launch ran just before); grid 132
//                (one block per SM, all SMs busy) and 1 (one SM, L2 idle)
//   mode "dram": B's lines are read once GPU-wide (each block its own columns)
//                after a 256 MiB write that evicts L2; grid 16
//   mode "l2cg": as "l2" with ld.global.cg (L1 not allocated)
// The figure: the median block's clock64 span of the row loop, over ROWS, =
// cycles per row; a row is W warp loads, so the SM's rate is W / cycles.
// If each warp's loads simply wait the latency L, cycles per row = L / D; a
// cap of N loads (or sectors) in flight per SM, or a throughput cap, bends the
// curve flat as W x D grows.
// usage: inflight OUT.csv      (kernels are extern "C": inflight_dD, inflight_cg_dD)
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <algorithm>
#include <cuda_runtime.h>
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { fprintf(stderr, "CUDA %s line %d\n", cudaGetErrorString(e_), __LINE__); exit(1); } } while (0)

template <int D, bool CG>
__device__ void rows_loop(const float* B, float* out, long long* tt, int rows, int width, int sectors, int own) {
  int lane = threadIdx.x & 31, w = threadIdx.x >> 5;
  int group = own ? blockIdx.x : blockIdx.x % 16;
  int col = group * (blockDim.x) + 32 * w + (lane & (8 * sectors - 1));
  float s = 0.0f;
  __syncthreads();
  long long t0 = clock64();
  for (int r = 0; r < rows; r += D) {
    float v[D];
#pragma unroll
    for (int k = 0; k < D; k++) v[k] = CG ? __ldcg(&B[(size_t)(r + k) * width + col]) : B[(size_t)(r + k) * width + col];
#pragma unroll
    for (int k = 0; k < D; k++) s += v[k];
  }
  __syncthreads();
  long long t1 = clock64();
  if (threadIdx.x == 0) tt[blockIdx.x] = t1 - t0;
  out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}
#define K(D) \
  extern "C" __global__ void __launch_bounds__(1024) inflight_d##D(const float* B, float* out, long long* tt, int rows, int width, int sectors, int own) { rows_loop<D, false>(B, out, tt, rows, width, sectors, own); } \
  extern "C" __global__ void __launch_bounds__(1024) inflight_cg_d##D(const float* B, float* out, long long* tt, int rows, int width, int sectors, int own) { rows_loop<D, true>(B, out, tt, rows, width, sectors, own); }
K(1) K(2) K(4) K(8) K(16) K(32)
typedef void (*Kern)(const float*, float*, long long*, int, int, int, int);
static Kern ca[6] = {inflight_d1, inflight_d2, inflight_d4, inflight_d8, inflight_d16, inflight_d32};
static Kern cg[6] = {inflight_cg_d1, inflight_cg_d2, inflight_cg_d4, inflight_cg_d8, inflight_cg_d16, inflight_cg_d32};

int main(int argc, char** argv) {
  FILE* f = fopen(argc > 1 ? argv[1] : "inflight.csv", "w");
  fprintf(f, "mode,grid,warps,depth,sectors,rows,width,cycles_per_row_median,cycles_per_row_min,cycles_per_row_max\n");
  const int rows = 256;
  size_t big = (size_t)512 << 20;
  float *B, *out, *flush; long long* tt;
  CK(cudaMalloc(&B, big)); CK(cudaMemset(B, 0, big));
  CK(cudaMalloc(&flush, (size_t)256 << 20));
  CK(cudaMalloc(&out, 1 << 24)); CK(cudaMalloc(&tt, 1 << 20));
  int depth[6] = {1, 2, 4, 8, 16, 32};
  for (int mode = 0; mode < 3; mode++)
    for (int gi = 0; gi < 2; gi++)
      for (int W = 1; W <= 32; W *= 2)
        for (int di = 0; di < 6; di++)
          for (int S = 1; S <= 4; S *= 4) {
            int grid = mode == 1 ? (gi ? 1 : 16) : (gi ? 1 : 132);
            if (mode == 2 && (gi == 1 || S == 1)) continue;     // l2cg: 132 blocks, whole lines only
            int own = mode == 1;
            int width = own ? 132 * 1024 : 16 * 1024;             // rows 528 KiB (dram) or 64 KiB (l2) apart
            Kern k = (mode == 2 ? cg : ca)[di];
            if (mode == 1) CK(cudaMemset(flush, di + W, (size_t)256 << 20));
            else k<<<grid, 32 * W>>>(B, out, tt, rows, width, S, own);
            k<<<grid, 32 * W>>>(B, out, tt, rows, width, S, own);
            CK(cudaDeviceSynchronize());
            std::vector<long long> h(grid);
            CK(cudaMemcpy(h.data(), tt, grid * sizeof(long long), cudaMemcpyDeviceToHost));
            std::sort(h.begin(), h.end());
            const char* mn[3] = {"l2", "dram", "l2cg"};
            fprintf(f, "%s,%d,%d,%d,%d,%d,%d,%.2f,%.2f,%.2f\n", mn[mode], grid, W, depth[di], S, rows, width,
                    (double)h[grid / 2] / rows, (double)h[0] / rows, (double)h[grid - 1] / rows);
          }
  fclose(f);
  return 0;
}
