// blocktime.cu - where does a matrix multiply's time go, block by block?
// naive_mm and tiled_mm of kernels_val.cu, each with a few clock64 reads added:
// every block records its SM, its start (%globaltimer and clock64, thread 0 on
// entry), and for tiled_mm the clock64 after each tile's second __syncthreads;
// lane 0 of every warp records the clock64 at which its warp ended.  Before each
// measured launch a 256 MiB write evicts L2 (as ncu --cache-control all does).
// The figures: blocks per SM, and a block's cycles per tile against how many
// blocks share its SM - the per-block view sm__cycles_active.avg averages away.
// usage: blocktime OUT.csv
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { fprintf(stderr, "CUDA %s line %d\n", cudaGetErrorString(e_), __LINE__); exit(1); } } while (0)
#define TS 16
#define REC 64   /* longs per block: 0 smid, 1 globaltimer, 2 clock64 start, 3..10 warp ends, 16.. tile ends */

static __device__ __forceinline__ unsigned long long gtime() { unsigned long long t; asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t)); return t; }
static __device__ __forceinline__ unsigned smid() { unsigned s; asm volatile("mov.u32 %0, %%smid;" : "=r"(s)); return s; }

extern "C" __global__ void naive_mm_t(const float* A, const float* B, float* C, int m, int n, int k, long long* rec) {
  long long* r = rec + (long long)(blockIdx.y * gridDim.x + blockIdx.x) * REC;
  int tid = threadIdx.y * blockDim.x + threadIdx.x;
  if (tid == 0) { r[0] = smid(); r[1] = (long long)gtime(); r[2] = clock64(); }
  int row = blockIdx.y * blockDim.y + threadIdx.y, col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < m && col < k) {
    float s = 0.0f;
    for (int i = 0; i < n; i++) s += A[row * n + i] * B[i * k + col];
    C[row * k + col] = s;
  }
  if ((tid & 31) == 0) r[3 + (tid >> 5)] = clock64();
}
extern "C" __global__ void tiled_mm_t(const float* A, const float* B, float* C, int m, int n, int k, long long* rec) {
  __shared__ float As[TS][TS], Bs[TS][TS];
  long long* r = rec + (long long)(blockIdx.y * gridDim.x + blockIdx.x) * REC;
  int tx = threadIdx.x, ty = threadIdx.y, row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
  int tid = ty * TS + tx;
  if (tid == 0) { r[0] = smid(); r[1] = (long long)gtime(); r[2] = clock64(); }
  float s = 0.0f;
  for (int t = 0; t < (n + TS - 1) / TS; t++) {
    int ac = t * TS + tx, br = t * TS + ty;
    As[ty][tx] = (row < m && ac < n) ? A[row * n + ac] : 0.0f;
    Bs[ty][tx] = (br < n && col < k) ? B[br * k + col] : 0.0f;
    __syncthreads();
    for (int i = 0; i < TS; i++) s += As[ty][i] * Bs[i][tx];
    __syncthreads();
    if (tid == 0 && t < REC - 16) r[16 + t] = clock64();
  }
  if (row < m && col < k) C[row * k + col] = s;
  if ((tid & 31) == 0) r[3 + (tid >> 5)] = clock64();
}
__global__ void evict(int* p, size_t n) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) p[i] = (int)i;
}

int main(int argc, char** argv) {
  if (argc < 2) { fprintf(stderr, "usage: blocktime OUT.csv\n"); return 2; }
  FILE* f = fopen(argv[1], "w");
  fprintf(f, "kernel,n,rep,block,smid,gtime_ns,clock_start,warp_end_max,tile_ends\n");
  const int NMAX = 512;
  float *A, *B, *C; long long* rec; int* ev; size_t evn = 64u << 20;
  CK(cudaMalloc(&A, NMAX * NMAX * 4)); CK(cudaMalloc(&B, NMAX * NMAX * 4)); CK(cudaMalloc(&C, NMAX * NMAX * 4));
  CK(cudaMalloc(&rec, (size_t)(NMAX / TS) * (NMAX / TS) * REC * 8)); CK(cudaMalloc(&ev, evn * 4));
  std::vector<float> h(NMAX * NMAX);
  for (int i = 0; i < NMAX * NMAX; i++) h[i] = (float)((i * 37) % 101) / 101.0f - 0.5f;
  CK(cudaMemcpy(A, h.data(), h.size() * 4, cudaMemcpyHostToDevice)); CK(cudaMemcpy(B, h.data(), h.size() * 4, cudaMemcpyHostToDevice));
  int sizes[] = {128, 256, 512};
  for (int which = 0; which < 2; which++)
    for (int n : sizes)
      for (int rep = 0; rep < 3; rep++) {
        int g = n / TS, nb = g * g;
        CK(cudaMemset(rec, 0, (size_t)nb * REC * 8));
        evict<<<264, 1024>>>(ev, evn);
        if (which == 0) naive_mm_t<<<dim3(g, g), dim3(TS, TS)>>>(A, B, C, n, n, n, rec);
        else tiled_mm_t<<<dim3(g, g), dim3(TS, TS)>>>(A, B, C, n, n, n, rec);
        CK(cudaDeviceSynchronize());
        std::vector<long long> r((size_t)nb * REC);
        CK(cudaMemcpy(r.data(), rec, r.size() * 8, cudaMemcpyDeviceToHost));
        for (int b = 0; b < nb; b++) {
          long long* q = &r[(size_t)b * REC];
          long long we = 0;
          for (int w = 0; w < 8; w++) if (q[3 + w] > we) we = q[3 + w];
          fprintf(f, "%s,%d,%d,%d,%lld,%lld,%lld,%lld,", which ? "tiled_mm" : "naive_mm", n, rep, b, q[0], q[1], q[2], we);
          if (which) for (int t = 0; t < n / TS && t < REC - 16; t++) fprintf(f, "%s%lld", t ? ";" : "", q[16 + t]);
          fprintf(f, "\n");
        }
      }
  fclose(f);
  return 0;
}
