// burst.cu - why does one H100 warp take 503 cycles for inflight_d16's 16
// independent L2 loads and their adds (inflight.csv: 31.4 cycles a row), but
// only 406 for mlp's 16 pointer chains (mlp.csv), where gpusim takes about
// 390 for both?  One warp (grid 1) reads ROWS = 256 rows, D loads a loop
// iteration, every lane one word of the row's 32-byte piece (one sector a
// load), rows L2-resident (the same launch ran just before; L1 emptied at
// launch).  Variants of what the loop does besides the loads:
//   chain_rt  inflight_d16 itself: the row stride a kernel argument (ptxas
//             computes each address with a dependent IMAD.WIDE), one FADD
//             chain over the D values
//   chain_ct  the stride a constant (64 KiB): addresses base + k x 64 KiB as
//             immediates of the loads, no address arithmetic; one FADD chain
//   indep_ct  the stride a constant; D accumulators (D independent FADDs)
//   tree_ct   the stride a constant; a pairwise tree of adds (depth log2 D)
//   near_ct   as chain_ct with rows 128 bytes apart (neighbouring lines)
// The figure: the block's clock64 span of the loop / ROWS = cycles a row.
// usage: burst OUT.csv
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <algorithm>
#include <cuda_runtime.h>
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { fprintf(stderr, "CUDA %s line %d\n", cudaGetErrorString(e_), __LINE__); exit(1); } } while (0)
#define ROWS 256
#define WIDE 16384          /* floats: 64 KiB */

template <int MODE, int D>
__device__ void body(const float* B, float* out, long long* tt, int width) {
  int lane = threadIdx.x & 31;
  int col = lane & 7;
  float acc[D];
#pragma unroll
  for (int k = 0; k < D; k++) acc[k] = 0.0f;
  float s = 0.0f;
  const int stride = MODE == 0 ? width : MODE == 4 ? 32 : WIDE;
  __syncthreads();
  long long t0 = clock64();
  for (int r = 0; r < ROWS; r += D) {
    const float* p = B + (size_t)r * stride + col;
    float v[D];
#pragma unroll
    for (int k = 0; k < D; k++) v[k] = p[(size_t)k * stride];
    if (MODE == 2) {
#pragma unroll
      for (int k = 0; k < D; k++) acc[k] += v[k];
    } else if (MODE == 3) {
#pragma unroll
      for (int h = D / 2; h >= 1; h /= 2)
#pragma unroll
        for (int k = 0; k < h; k++) v[k] += v[k + h];
      s += v[0];
    } else {
#pragma unroll
      for (int k = 0; k < D; k++) s += v[k];
    }
  }
  __syncthreads();
  long long t1 = clock64();
#pragma unroll
  for (int k = 0; k < D; k++) s += acc[k];
  if (threadIdx.x == 0) tt[blockIdx.x] = t1 - t0;
  out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}
#define KD(name, MODE, D) extern "C" __global__ void name##_d##D(const float* B, float* out, long long* tt, int width) { body<MODE, D>(B, out, tt, width); }
KD(chain_rt, 0, 16) KD(chain_ct, 1, 16) KD(indep_ct, 2, 16) KD(tree_ct, 3, 16) KD(near_ct, 4, 16)
KD(chain_rt, 0, 8) KD(chain_ct, 1, 8) KD(indep_ct, 2, 8)
typedef void (*Kern)(const float*, float*, long long*, int);

int main(int argc, char** argv) {
  FILE* f = fopen(argc > 1 ? argv[1] : "burst.csv", "w");
  fprintf(f, "variant,depth,rows,cycles_per_row_median,cycles_per_row_min,cycles_per_row_max\n");
  float *B, *out; long long* tt;
  size_t big = (size_t)ROWS * WIDE * 4 + (1 << 20);
  CK(cudaMalloc(&B, big)); CK(cudaMemset(B, 0, big));
  CK(cudaMalloc(&out, 1 << 20)); CK(cudaMalloc(&tt, 1 << 12));
  struct { const char* n; int d; Kern k; } ks[] = {
    {"chain_rt", 16, chain_rt_d16}, {"chain_ct", 16, chain_ct_d16}, {"indep_ct", 16, indep_ct_d16},
    {"tree_ct", 16, tree_ct_d16}, {"near_ct", 16, near_ct_d16},
    {"chain_rt", 8, chain_rt_d8}, {"chain_ct", 8, chain_ct_d8}, {"indep_ct", 8, indep_ct_d8}};
  for (auto& k : ks) {
    std::vector<double> v;
    for (int rep = 0; rep < 5; rep++) {
      k.k<<<1, 32>>>(B, out, tt, WIDE);          // warms L2 with the rows
      k.k<<<1, 32>>>(B, out, tt, WIDE);
      CK(cudaDeviceSynchronize());
      long long h;
      CK(cudaMemcpy(&h, tt, sizeof h, cudaMemcpyDeviceToHost));
      v.push_back((double)h / ROWS);
    }
    std::sort(v.begin(), v.end());
    fprintf(f, "%s,%d,%d,%.2f,%.2f,%.2f\n", k.n, k.d, ROWS, v[2], v[0], v[4]);
  }
  fclose(f);
  return 0;
}
