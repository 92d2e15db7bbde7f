// shared_miss.cu - many warps loading the same lines at once (naive_mm's B reads):
// how fast does the memory system answer loads that several warps of a block,
// and blocks on other SMs, miss on together?  One launch per pattern, timed
// with clock64 per block (the median over blocks of cycles per load step) and
// by Nsight Compute (sm__cycles_active.avg).
// usage: shared_miss OUT.csv
// Each thread of a 256-thread block loads ROWS rows, 8 independent loads in
// flight (unrolled), and adds them up:
//   pattern 0 "shared":  lane l of every warp of the block reads B[r][col0 + l % 16]
//                        (one 64-byte piece per row, the same for the 8 warps and for
//                        the blocks with the same blockIdx.x % 16) - naive_mm's B
//   pattern 1 "private": warp w reads its own piece, B[r][col0 + 16 w + l % 16]
//   pattern 2 "l1hit":   as shared, after a first pass that brings the lines into L1
// with 8 loads in flight (shared_miss: rows "shared", ...), 16 and 32 (shared_miss16/32:
// rows "shared16", "shared32", ...).
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <algorithm>
#include <cuda_runtime.h>
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { fprintf(stderr, "CUDA %s line %d\n", cudaGetErrorString(e_), __LINE__); exit(1); } } while (0)

template <int D>
__device__ void rows_loop(const float* B, float* out, long long* tt, int rows, int width, int pattern) {
  int lane = threadIdx.x & 31, w = threadIdx.x >> 5;
  int col = (blockIdx.x % 16) * 256 + (pattern == 1 ? 16 * w : 0) + (lane & 15);
  float s = 0.0f;
  if (pattern == 2)
    for (int r = 0; r < rows; r++) s += B[(size_t)r * width + col];
  __syncthreads();
  long long t0 = clock64();
  for (int r = 0; r < rows; r += D) {
    float v[D];
#pragma unroll
    for (int k = 0; k < D; k++) v[k] = B[(size_t)(r + k) * width + col];
#pragma unroll
    for (int k = 0; k < D; k++) s += v[k];
  }
  __syncthreads();
  long long t1 = clock64();
  if (threadIdx.x == 0) { tt[2 * blockIdx.x] = t1 - t0; tt[2 * blockIdx.x + 1] = 0; }
  out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}
// D loads in flight per warp: 8 (shared_miss), 16, 32
extern "C" __global__ void shared_miss(const float* B, float* out, long long* tt, int rows, int width, int pattern) {
  rows_loop<8>(B, out, tt, rows, width, pattern);
}
extern "C" __global__ void shared_miss16(const float* B, float* out, long long* tt, int rows, int width, int pattern) {
  rows_loop<16>(B, out, tt, rows, width, pattern);
}
extern "C" __global__ void shared_miss32(const float* B, float* out, long long* tt, int rows, int width, int pattern) {
  rows_loop<32>(B, out, tt, rows, width, pattern);
}

int main(int argc, char** argv) {
  FILE* f = fopen(argc > 1 ? argv[1] : "shared_miss.csv", "w");
  fprintf(f, "pattern,blocks,rows,cycles_per_row_median,cycles_total_median\n");
  const int width = 4096, rows = 512;
  float *B, *out; long long* tt;
  CK(cudaMalloc(&B, (size_t)rows * width * 4)); CK(cudaMemset(B, 0, (size_t)rows * width * 4));
  CK(cudaMalloc(&out, 1 << 24)); CK(cudaMalloc(&tt, 1 << 20));
  const char* names[3] = {"shared", "private", "l1hit"};
  int grids[3] = {132, 264, 16};
  typedef void (*K)(const float*, float*, long long*, int, int, int);
  K kern[3] = {shared_miss, shared_miss16, shared_miss32};
  int depth[3] = {8, 16, 32};
  for (int d = 0; d < 3; d++)
    for (int p = 0; p < 3; p++)
      for (int gi = 0; gi < 3; gi++) {
        int g = grids[gi];
        CK(cudaMemset(B, 0, (size_t)rows * width * 4));   // B in L2
        kern[d]<<<g, 256>>>(B, out, tt, rows, width, p);
        CK(cudaDeviceSynchronize());
        std::vector<long long> h(2 * g);
        CK(cudaMemcpy(h.data(), tt, 2 * g * sizeof(long long), cudaMemcpyDeviceToHost));
        std::vector<long long> c(g); for (int i = 0; i < g; i++) c[i] = h[2 * i];
        std::sort(c.begin(), c.end());
        if (d == 0) fprintf(f, "%s,%d,%d,%.2f,%lld\n", names[p], g, rows, (double)c[g / 2] / rows, c[g / 2]);
        else fprintf(f, "%s%d,%d,%d,%.2f,%lld\n", names[p], depth[d], g, rows, (double)c[g / 2] / rows, c[g / 2]);
      }
  fclose(f);
  return 0;
}
