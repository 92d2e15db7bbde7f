// gpusim validation kernels (issue 13): typical course / benchmark-suite kernels,
// f32, plain CUDA, each launched once per size, in a fixed order.
// usage: kernels_val [quick|full] LAUNCHLOG.csv
// The launch log has one row per launch, in launch order (the order ncu profiles them):
// kernel,launch,grid,block,args   (args: every kernel argument in order, buffers with their extent)
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
#include <cuda_runtime.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  fprintf(stderr, "CUDA error %s at %s:%d\n", cudaGetErrorString(e_), __FILE__, __LINE__); exit(1); } } while (0)

#define BS 256
#define RAD 3
#define TD 32
#define TS 16

extern "C" __global__ void vecadd(const float* a, const float* b, float* c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}
extern "C" __global__ void saxpy(float a, const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}
extern "C" __global__ void stencil1d(const float* in, float* out, int n) {
  __shared__ float t[BS + 2 * RAD];
  int g = blockIdx.x * blockDim.x + threadIdx.x, l = threadIdx.x + RAD;
  t[l] = g < n ? in[g] : 0.0f;
  if (threadIdx.x < RAD) {
    int gl = g - RAD, gr = g + BS;
    t[l - RAD] = gl >= 0 ? in[gl] : 0.0f;
    t[l + BS] = gr < n ? in[gr] : 0.0f;
  }
  __syncthreads();
  if (g < n) {
    float s = 0.0f;
    for (int o = -RAD; o <= RAD; o++) s += t[l + o];
    out[g] = s;
  }
}
extern "C" __global__ void jacobi2d(const float* in, float* out, int n) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x > 0 && y > 0 && x < n - 1 && y < n - 1)
    out[y * n + x] = 0.2f * (in[y * n + x] + in[y * n + x - 1] + in[y * n + x + 1] + in[(y - 1) * n + x] + in[(y + 1) * n + x]);
}
extern "C" __global__ void reduce_interleaved(const float* in, float* out, int n) {
  __shared__ float s[BS];
  int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
  s[t] = i < n ? in[i] : 0.0f;
  __syncthreads();
  for (int d = 1; d < blockDim.x; d *= 2) {
    if (t % (2 * d) == 0) s[t] += s[t + d];
    __syncthreads();
  }
  if (t == 0) out[blockIdx.x] = s[0];
}
extern "C" __global__ void reduce_seq(const float* in, float* out, int n) {
  __shared__ float s[BS];
  int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
  s[t] = i < n ? in[i] : 0.0f;
  __syncthreads();
  for (int d = blockDim.x / 2; d > 0; d >>= 1) {
    if (t < d) s[t] += s[t + d];
    __syncthreads();
  }
  if (t == 0) out[blockIdx.x] = s[0];
}
extern "C" __global__ void reduce_shfl(const float* in, float* out, int n) {
  __shared__ float w[BS / 32];
  int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
  float v = i < n ? in[i] : 0.0f;
  for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffffu, v, o);
  if ((t & 31) == 0) w[t >> 5] = v;
  __syncthreads();
  if (t < 32) {
    v = t < blockDim.x / 32 ? w[t] : 0.0f;
    for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffffu, v, o);
    if (t == 0) out[blockIdx.x] = v;
  }
}
extern "C" __global__ void scan_hillis_steele(const float* in, float* out, int n) {
  __shared__ float b[2][BS];
  int t = threadIdx.x, g = blockIdx.x * blockDim.x + t, p = 0;
  b[0][t] = g < n ? in[g] : 0.0f;
  __syncthreads();
  for (int o = 1; o < blockDim.x; o <<= 1) {
    int q = 1 - p;
    b[q][t] = b[p][t] + (t >= o ? b[p][t - o] : 0.0f);
    p = q;
    __syncthreads();
  }
  if (g < n) out[g] = b[p][t];
}
extern "C" __global__ void scan_blelloch(const float* in, float* out, int n) {
  __shared__ float s[2 * BS];
  int t = threadIdx.x, g = 2 * blockIdx.x * blockDim.x;
  s[2 * t] = g + 2 * t < n ? in[g + 2 * t] : 0.0f;
  s[2 * t + 1] = g + 2 * t + 1 < n ? in[g + 2 * t + 1] : 0.0f;
  int off = 1;
  for (int d = blockDim.x; d > 0; d >>= 1) {
    __syncthreads();
    if (t < d) { int ai = off * (2 * t + 1) - 1, bi = off * (2 * t + 2) - 1; s[bi] += s[ai]; }
    off *= 2;
  }
  if (t == 0) s[2 * blockDim.x - 1] = 0.0f;
  for (int d = 1; d <= blockDim.x; d *= 2) {
    off >>= 1;
    __syncthreads();
    if (t < d) { int ai = off * (2 * t + 1) - 1, bi = off * (2 * t + 2) - 1; float x = s[ai]; s[ai] = s[bi]; s[bi] += x; }
  }
  __syncthreads();
  if (g + 2 * t < n) out[g + 2 * t] = s[2 * t];
  if (g + 2 * t + 1 < n) out[g + 2 * t + 1] = s[2 * t + 1];
}
extern "C" __global__ void histogram256(const unsigned* data, unsigned* hist, int n) {
  __shared__ unsigned h[256];
  int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
  h[t] = 0;
  __syncthreads();
  if (i < n) atomicAdd(&h[data[i] & 255u], 1u);
  __syncthreads();
  atomicAdd(&hist[t], h[t]);
}
extern "C" __global__ void gemv_row_per_thread(const float* A, const float* x, float* y, int m, int n) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < m) {
    float s = 0.0f;
    for (int c = 0; c < n; c++) s += A[(size_t)r * n + c] * x[c];
    y[r] = s;
  }
}
extern "C" __global__ void gemv_warp_per_row(const float* A, const float* x, float* y, int m, int n) {
  int r = (blockIdx.x * blockDim.x + threadIdx.x) >> 5, lane = threadIdx.x & 31;
  if (r < m) {
    float s = 0.0f;
    for (int c = lane; c < n; c += 32) s += A[(size_t)r * n + c] * x[c];
    for (int o = 16; o > 0; o >>= 1) s += __shfl_down_sync(0xffffffffu, s, o);
    if (lane == 0) y[r] = s;
  }
}
extern "C" __global__ void spmv_csr_scalar(const int* rowptr, const int* col, const float* val, const float* x, float* y, int m) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < m) {
    float s = 0.0f;
    for (int j = rowptr[r]; j < rowptr[r + 1]; j++) s += val[j] * x[col[j]];
    y[r] = s;
  }
}
extern "C" __global__ void softmax_row(const float* in, float* out, int cols) {
  __shared__ float s[BS];
  const float* rin = in + (size_t)blockIdx.x * cols;
  float* rout = out + (size_t)blockIdx.x * cols;
  int t = threadIdx.x;
  float m = -3.0e38f;
  for (int c = t; c < cols; c += blockDim.x) m = fmaxf(m, rin[c]);
  s[t] = m;
  __syncthreads();
  for (int d = blockDim.x / 2; d > 0; d >>= 1) { if (t < d) s[t] = fmaxf(s[t], s[t + d]); __syncthreads(); }
  m = s[0];
  __syncthreads();
  float sum = 0.0f;
  for (int c = t; c < cols; c += blockDim.x) sum += __expf(rin[c] - m);
  s[t] = sum;
  __syncthreads();
  for (int d = blockDim.x / 2; d > 0; d >>= 1) { if (t < d) s[t] += s[t + d]; __syncthreads(); }
  float inv = 1.0f / s[0];
  for (int c = t; c < cols; c += blockDim.x) rout[c] = __expf(rin[c] - m) * inv;
}
extern "C" __global__ void transpose_naive(const float* in, float* out, int n) {
  int x = blockIdx.x * TD + threadIdx.x, y = blockIdx.y * TD + threadIdx.y;
  out[x * n + y] = in[y * n + x];
}
extern "C" __global__ void transpose_shared(const float* in, float* out, int n) {
  __shared__ float tile[TD][TD];
  int x = blockIdx.x * TD + threadIdx.x, y = blockIdx.y * TD + threadIdx.y;
  tile[threadIdx.y][threadIdx.x] = in[y * n + x];
  __syncthreads();
  x = blockIdx.y * TD + threadIdx.x; y = blockIdx.x * TD + threadIdx.y;
  out[y * n + x] = tile[threadIdx.x][threadIdx.y];
}
extern "C" __global__ void transpose_padded(const float* in, float* out, int n) {
  __shared__ float tile[TD][TD + 1];
  int x = blockIdx.x * TD + threadIdx.x, y = blockIdx.y * TD + threadIdx.y;
  tile[threadIdx.y][threadIdx.x] = in[y * n + x];
  __syncthreads();
  x = blockIdx.y * TD + threadIdx.x; y = blockIdx.x * TD + threadIdx.y;
  out[y * n + x] = tile[threadIdx.x][threadIdx.y];
}
extern "C" __global__ void naive_mm(const float* A, const float* B, float* C, int m, int n, int k) {
  int row = blockIdx.y * blockDim.y + threadIdx.y, col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < m && col < k) {
    float s = 0.0f;
    for (int i = 0; i < n; i++) s += A[row * n + i] * B[i * k + col];
    C[row * k + col] = s;
  }
}
extern "C" __global__ void tiled_mm(const float* A, const float* B, float* C, int m, int n, int k) {
  __shared__ float As[TS][TS], Bs[TS][TS];
  int tx = threadIdx.x, ty = threadIdx.y, row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
  float s = 0.0f;
  for (int t = 0; t < (n + TS - 1) / TS; t++) {
    int ac = t * TS + tx, br = t * TS + ty;
    As[ty][tx] = (row < m && ac < n) ? A[row * n + ac] : 0.0f;
    Bs[ty][tx] = (br < n && col < k) ? B[br * k + col] : 0.0f;
    __syncthreads();
    for (int i = 0; i < TS; i++) s += As[ty][i] * Bs[i][tx];
    __syncthreads();
  }
  if (row < m && col < k) C[row * k + col] = s;
}
extern "C" __global__ void conv2d_3x3_tiled(const float* in, const float* w, float* out, int n) {
  __shared__ float t[TS + 2][TS + 2];
  int tx = threadIdx.x, ty = threadIdx.y, x0 = blockIdx.x * TS - 1, y0 = blockIdx.y * TS - 1;
  for (int i = ty * TS + tx; i < (TS + 2) * (TS + 2); i += TS * TS) {
    int yy = y0 + i / (TS + 2), xx = x0 + i % (TS + 2);
    t[i / (TS + 2)][i % (TS + 2)] = (xx >= 0 && yy >= 0 && xx < n && yy < n) ? in[yy * n + xx] : 0.0f;
  }
  __syncthreads();
  int x = blockIdx.x * TS + tx, y = blockIdx.y * TS + ty;
  if (x < n && y < n) {
    float s = 0.0f;
    for (int dy = 0; dy < 3; dy++)
      for (int dx = 0; dx < 3; dx++) s += w[dy * 3 + dx] * t[ty + dy][tx + dx];
    out[y * n + x] = s;
  }
}

static FILE* logf_;
static void logl(const char* k, const char* launch, dim3 g, dim3 b, const char* args) {
  fprintf(logf_, "%s,%s,\"(%u, %u, %u)\",\"(%u, %u, %u)\",%s\n", k, launch, g.x, g.y, g.z, b.x, b.y, b.z, args);
  fflush(logf_);
}
#define GO(k, g, b, launch, args, ...) do { dim3 g_ = (g), b_ = (b); k<<<g_, b_>>>(__VA_ARGS__); \
  CK(cudaGetLastError()); CK(cudaDeviceSynchronize()); logl(#k, launch, g_, b_, args); } while (0)

int main(int argc, char** argv) {
  bool quick = argc > 1 && !strcmp(argv[1], "quick");
  logf_ = fopen(argc > 2 ? argv[2] : "launches.csv", "w");
  if (!logf_) { perror("launch log"); return 1; }
  fprintf(logf_, "kernel,launch,grid,block,args\n");
  const size_t NMAX = (size_t)1 << 24;   // 16 Mi floats = 64 MiB per buffer
  std::vector<float> h(NMAX);
  for (size_t i = 0; i < NMAX; ++i) h[i] = (float)((i * 37) % 101) * 0.01f - 0.5f;   // x[i] = ((i*37)%101)/100 - 0.5
  float *A, *B, *C, *D;
  CK(cudaMalloc(&A, NMAX * 4)); CK(cudaMalloc(&B, NMAX * 4)); CK(cudaMalloc(&C, NMAX * 4)); CK(cudaMalloc(&D, NMAX * 4));
  CK(cudaMemcpy(A, h.data(), NMAX * 4, cudaMemcpyHostToDevice));
  CK(cudaMemcpy(B, h.data(), NMAX * 4, cudaMemcpyHostToDevice));
  CK(cudaMemset(C, 0, NMAX * 4)); CK(cudaMemset(D, 0, NMAX * 4));
  char L[128], G[512];
  std::vector<int> n1 = quick ? std::vector<int>{1 << 12, 1 << 16} : std::vector<int>{1 << 12, 1 << 16, 1 << 20, 1 << 24};
  for (int n : n1) { int gb = (n + 255) / 256; snprintf(L, sizeof L, "n=%d", n);
    snprintf(G, sizeof G, "a=f32[n] b=f32[n] c=f32[n] n=%d", n); GO(vecadd, gb, 256, L, G, A, B, C, n); }
  for (int n : n1) { int gb = (n + 255) / 256; snprintf(L, sizeof L, "n=%d", n);
    snprintf(G, sizeof G, "a=2.0 x=f32[n] y=f32[n] n=%d", n); GO(saxpy, gb, 256, L, G, 2.0f, A, C, n); }
  for (int n : n1) { int gb = (n + BS - 1) / BS; snprintf(L, sizeof L, "n=%d", n);
    snprintf(G, sizeof G, "in=f32[n] out=f32[n] n=%d", n); GO(stencil1d, gb, BS, L, G, A, C, n); }
  std::vector<int> n2 = quick ? std::vector<int>{64, 256} : std::vector<int>{64, 256, 1024, 4096};
  for (int n : n2) { snprintf(L, sizeof L, "n=%d", n);
    snprintf(G, sizeof G, "in=f32[n*n] out=f32[n*n] n=%d", n); GO(jacobi2d, dim3(n / 16, n / 16), dim3(16, 16), L, G, A, C, n); }
  for (int n : n1) { int gb = (n + BS - 1) / BS; snprintf(L, sizeof L, "n=%d", n);
    snprintf(G, sizeof G, "in=f32[n] out=f32[n/256] n=%d", n);
    GO(reduce_interleaved, gb, BS, L, G, A, C, n); GO(reduce_seq, gb, BS, L, G, A, C, n); GO(reduce_shfl, gb, BS, L, G, A, C, n); }
  for (int n : n1) { int gb = (n + BS - 1) / BS; snprintf(L, sizeof L, "n=%d", n);
    snprintf(G, sizeof G, "in=f32[n] out=f32[n] n=%d", n); GO(scan_hillis_steele, gb, BS, L, G, A, C, n);
    GO(scan_blelloch, (n + 2 * BS - 1) / (2 * BS), BS, L, G, A, C, n); }
  { std::vector<unsigned> hd(NMAX); for (size_t i = 0; i < NMAX; ++i) hd[i] = (unsigned)((i * 7) % 256);
    CK(cudaMemcpy(D, hd.data(), NMAX * 4, cudaMemcpyHostToDevice)); }
  for (int n : n1) { int gb = (n + 255) / 256; snprintf(L, sizeof L, "n=%d", n);
    CK(cudaMemset(C, 0, 1024));
    snprintf(G, sizeof G, "data=u32[n]:(i*7)%%256 hist=u32[256]:zeroed n=%d", n); GO(histogram256, gb, 256, L, G, (const unsigned*)D, (unsigned*)C, n); }
  CK(cudaMemcpy(D, h.data(), NMAX * 4, cudaMemcpyHostToDevice));
  std::vector<int> ng = quick ? std::vector<int>{256} : std::vector<int>{256, 1024, 4096};
  for (int n : ng) { snprintf(L, sizeof L, "m=n=%d", n); snprintf(G, sizeof G, "A=f32[m*n] x=f32[n] y=f32[m] m=%d n=%d", n, n);
    GO(gemv_row_per_thread, (n + 255) / 256, 256, L, G, A, B, C, n, n);
    GO(gemv_warp_per_row, (n * 32 + 255) / 256, 256, L, G, A, B, C, n, n); }
  { std::vector<int> ns = quick ? std::vector<int>{1 << 12} : std::vector<int>{1 << 12, 1 << 16, 1 << 20, 1 << 22};
    int mmax = 1 << 22; std::vector<int> rp(mmax + 1), col(3 * mmax); std::vector<float> val(3 * mmax);
    int *drp, *dcol; float* dval; CK(cudaMalloc(&drp, (mmax + 1) * 4)); CK(cudaMalloc(&dcol, 3 * mmax * 4)); CK(cudaMalloc(&dval, 3 * mmax * 4));
    for (int m : ns) {
      int k = 0;
      for (int r = 0; r < m; ++r) { rp[r] = k; for (int c = r - 1; c <= r + 1; ++c) if (c >= 0 && c < m) { col[k] = c; val[k] = c == r ? 2.0f : -1.0f; ++k; } }
      rp[m] = k;
      CK(cudaMemcpy(drp, rp.data(), (m + 1) * 4, cudaMemcpyHostToDevice)); CK(cudaMemcpy(dcol, col.data(), k * 4, cudaMemcpyHostToDevice));
      CK(cudaMemcpy(dval, val.data(), k * 4, cudaMemcpyHostToDevice));
      snprintf(L, sizeof L, "m=%d nnz=%d", m, k);
      snprintf(G, sizeof G, "rowptr=i32[m+1] col=i32[nnz] val=f32[nnz] x=f32[m] y=f32[m] m=%d (tridiagonal: cols r-1 r r+1 values -1 2 -1)", m);
      GO(spmv_csr_scalar, (m + 255) / 256, 256, L, G, (const int*)drp, (const int*)dcol, (const float*)dval, (const float*)A, C, m); }
    CK(cudaFree(drp)); CK(cudaFree(dcol)); CK(cudaFree(dval)); }
  { int rc[][2] = {{128, 256}, {512, 1024}, {2048, 1024}, {4096, 4096}}; int nrc = quick ? 1 : 4;
    for (int i = 0; i < nrc; ++i) { int r = rc[i][0], c = rc[i][1]; snprintf(L, sizeof L, "rows=%d cols=%d", r, c);
      snprintf(G, sizeof G, "in=f32[rows*cols] out=f32[rows*cols] cols=%d", c); GO(softmax_row, r, BS, L, G, A, C, c); } }
  std::vector<int> nt = quick ? std::vector<int>{256} : std::vector<int>{256, 1024, 2048, 4096};
  for (int n : nt) { snprintf(L, sizeof L, "n=%d", n); snprintf(G, sizeof G, "in=f32[n*n] out=f32[n*n] n=%d", n);
    GO(transpose_naive, dim3(n / TD, n / TD), dim3(TD, TD), L, G, A, C, n);
    GO(transpose_shared, dim3(n / TD, n / TD), dim3(TD, TD), L, G, A, C, n);
    GO(transpose_padded, dim3(n / TD, n / TD), dim3(TD, TD), L, G, A, C, n); }
  std::vector<int> nm = quick ? std::vector<int>{128} : std::vector<int>{128, 256, 512, 1024};
  for (int n : nm) { snprintf(L, sizeof L, "m=n=k=%d", n); snprintf(G, sizeof G, "A=f32[m*n] B=f32[n*k] C=f32[m*k] m=%d n=%d k=%d", n, n, n);
    GO(naive_mm, dim3(n / TS, n / TS), dim3(TS, TS), L, G, A, B, C, n, n, n);
    GO(tiled_mm, dim3(n / TS, n / TS), dim3(TS, TS), L, G, A, B, C, n, n, n); }
  { float hw[9] = {0.0625f, 0.125f, 0.0625f, 0.125f, 0.25f, 0.125f, 0.0625f, 0.125f, 0.0625f};
    CK(cudaMemcpy(D, hw, sizeof hw, cudaMemcpyHostToDevice)); }
  for (int n : nt) { snprintf(L, sizeof L, "n=%d", n); snprintf(G, sizeof G, "in=f32[n*n] w=f32[9]:binomial/16 out=f32[n*n] n=%d", n);
    GO(conv2d_3x3_tiled, dim3(n / TS, n / TS), dim3(TS, TS), L, G, A, (const float*)D, C, n); }
  fclose(logf_);
  return 0;
}
