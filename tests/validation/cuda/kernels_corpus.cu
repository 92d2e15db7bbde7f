// gpusim real-PTX corpus (issue 14): more kernels of the kinds public courses and
// benchmark suites use, beside kernels_val.cu's twenty.  Each is launched once, on
// buffers of its own, in a fixed order.
// usage: kernels_corpus OUTDIR LAUNCHLOG.csv
// The launch log has one row per launch (kernel,launch,grid,block,args), as
// kernels_val.cu's.  After each launch every output buffer is copied back and
// written to OUTDIR/KERNEL.BUFFER.txt, one number per line (%.9g), so that
// gpusim's wrappers check against what the H100 computed (.check NAME
// file="..."). Inputs are integers as floats (exact everywhere), made by
//   in(i; a, b, c) = (i*a + b) % c - c/2
// which a wrapper writes as .buffer x .f32[N] expr((i*a+b)%c - c/2).
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
#include <string>
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <cuda_pipeline.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  fprintf(stderr, "CUDA error %s at %s:%d\n", cudaGetErrorString(e_), __FILE__, __LINE__); exit(1); } } while (0)
#define BS 256
#define TS 16

// ---- elementwise ----------------------------------------------------------
extern "C" __global__ void relu(const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = fmaxf(x[i], 0.0f);
}
extern "C" __global__ void gelu_tanh(const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) { float v = x[i] * 0.0625f; y[i] = 0.5f * v * (1.0f + tanhf(0.7978845608f * (v + 0.044715f * v * v * v))); }
}
extern "C" __global__ void saxpy_gridstride(float a, const float* x, float* y, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) y[i] = a * x[i] + y[i];
}
extern "C" __global__ void daxpy(double a, const double* x, double* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}
extern "C" __global__ void matadd2d(const float* a, const float* b, float* c, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < w && y < h) c[y * w + x] = a[y * w + x] + b[y * w + x];
}
extern "C" __global__ void rgb2gray(const uchar4* px, float* gray, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) { uchar4 p = px[i]; gray[i] = 0.21f * p.x + 0.71f * p.y + 0.07f * p.z; }
}
extern "C" __global__ void bitops(const unsigned* x, unsigned* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) { unsigned v = x[i] * 2654435761u; y[i] = __popc(v) + (__clz(v) << 6) + (__brev(v) & 0xff00u) + ((unsigned)__ffs(v) << 16); }
}
extern "C" __global__ void blackscholes(const float* s, const float* k, const float* t, float* call, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float S = s[i] + 60.0f, K = k[i] + 60.0f, T = (t[i] + 51.0f) * 0.02f, r = 0.02f, v = 0.3f;
  float sq = sqrtf(T), d1 = (logf(S / K) + (r + 0.5f * v * v) * T) / (v * sq), d2 = d1 - v * sq;
  float n1 = 0.5f * erfcf(-d1 * 0.70710678f), n2 = 0.5f * erfcf(-d2 * 0.70710678f);
  call[i] = S * n1 - K * expf(-r * T) * n2;
}
extern "C" __global__ void mandelbrot(int* iters, int w, int h, int maxit) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= w || y >= h) return;
  float cr = -2.0f + 3.0f * x / w, ci = -1.5f + 3.0f * y / h, zr = 0.0f, zi = 0.0f;
  int it = 0;
  while (it < maxit && zr * zr + zi * zi < 4.0f) { float t = zr * zr - zi * zi + cr; zi = 2.0f * zr * zi + ci; zr = t; ++it; }
  iters[y * w + x] = it;
}

// ---- half precision ---------------------------------------------------------
extern "C" __global__ void haxpy_half2(float a, const float* x, float* y, int n2) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n2) {
    __half2 ha = __float2half2_rn(a * 0.25f);
    __half2 hx = __floats2half2_rn(x[2 * i], x[2 * i + 1]), hy = __floats2half2_rn(y[2 * i], y[2 * i + 1]);
    __half2 r = __hfma2(ha, hx, hy);
    y[2 * i] = __low2float(r); y[2 * i + 1] = __high2float(r);
  }
}
extern "C" __global__ void bf16_scale(const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) { __nv_bfloat16 b = __float2bfloat16(x[i] * 1.3f); y[i] = __bfloat162float(__hmul(b, __float2bfloat16(0.75f))); }
}

// ---- reductions, scans, atomics ----------------------------------------------
extern "C" __global__ void dot_atomic(const float* a, const float* b, float* out, int n) {
  __shared__ float s[BS];
  int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
  s[t] = i < n ? a[i] * b[i] : 0.0f;
  __syncthreads();
  for (int d = BS / 2; d > 0; d >>= 1) { if (t < d) s[t] += s[t + d]; __syncthreads(); }
  if (t == 0) atomicAdd(out, s[0]);
}
__device__ float atomic_max_f32(float* p, float v) {
  int* ip = (int*)p; int old = *ip, assumed;
  do { assumed = old; if (__int_as_float(assumed) >= v) break; old = atomicCAS(ip, assumed, __float_as_int(v)); } while (old != assumed);
  return __int_as_float(old);
}
extern "C" __global__ void max_cas(const float* x, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = i < n ? x[i] : -3.0e38f;
  for (int o = 16; o > 0; o >>= 1) v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, o));
  if ((threadIdx.x & 31) == 0) atomic_max_f32(out, v);
}
extern "C" __global__ void scan_warp_shfl(const float* in, float* out, int n) {
  __shared__ float w[BS / 32];
  int t = threadIdx.x, i = blockIdx.x * blockDim.x + t, lane = t & 31;
  float v = i < n ? in[i] : 0.0f;
  for (int o = 1; o < 32; o <<= 1) { float u = __shfl_up_sync(0xffffffffu, v, o); if (lane >= o) v += u; }
  if (lane == 31) w[t >> 5] = v;
  __syncthreads();
  if (t < 32) { float s = t < BS / 32 ? w[t] : 0.0f;
    for (int o = 1; o < 32; o <<= 1) { float u = __shfl_up_sync(0xffffffffu, s, o); if (lane >= o) s += u; }
    if (t < BS / 32) w[t] = s; }
  __syncthreads();
  if (t >= 32) v += w[(t >> 5) - 1];
  if (i < n) out[i] = v;
}
extern "C" __global__ void count_positive_ballot(const float* x, unsigned* count, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned b = __ballot_sync(0xffffffffu, i < n && x[i] > 0.0f);
  if ((threadIdx.x & 31) == 0) atomicAdd(count, (unsigned)__popc(b));
}
extern "C" __global__ void histogram_global(const unsigned* data, unsigned* hist, int n, int bins) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(&hist[data[i] % bins], 1u);
}
extern "C" __global__ void radix_digit_hist(const unsigned* keys, unsigned* hist, int n, int shift) {
  __shared__ unsigned h[16];
  int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
  if (t < 16) h[t] = 0;
  __syncthreads();
  if (i < n) atomicAdd(&h[(keys[i] * 2654435761u >> shift) & 15u], 1u);
  __syncthreads();
  if (t < 16) atomicAdd(&hist[t], h[t]);
}
extern "C" __global__ void layernorm_row(const float* in, float* out, int cols) {
  __shared__ float red[2][BS / 32];
  const float* r = in + (size_t)blockIdx.x * cols; float* o = out + (size_t)blockIdx.x * cols;
  int t = threadIdx.x; float s = 0.0f, q = 0.0f;
  for (int c = t; c < cols; c += blockDim.x) { float v = r[c]; s += v; q += v * v; }
  for (int d = 16; d > 0; d >>= 1) { s += __shfl_xor_sync(0xffffffffu, s, d); q += __shfl_xor_sync(0xffffffffu, q, d); }
  if ((t & 31) == 0) { red[0][t >> 5] = s; red[1][t >> 5] = q; }
  __syncthreads();
  s = 0.0f; q = 0.0f;
  for (int w = 0; w < BS / 32; w++) { s += red[0][w]; q += red[1][w]; }
  float mean = s / cols, rstd = rsqrtf(q / cols - mean * mean + 1e-5f);
  for (int c = t; c < cols; c += blockDim.x) o[c] = (r[c] - mean) * rstd;
}
extern "C" __global__ void bitonic_sort_shared(float* data) {
  __shared__ float s[2 * BS];
  int t = threadIdx.x; float* d = data + blockIdx.x * 2 * BS;
  s[t] = d[t]; s[t + BS] = d[t + BS];
  for (int k = 2; k <= 2 * BS; k <<= 1)
    for (int j = k >> 1; j > 0; j >>= 1) {
      __syncthreads();
      int i = 2 * t - (t & (j - 1)), p = i + j;
      bool up = (i & k) == 0;
      float a = s[i], b = s[p];
      if ((a > b) == up) { s[i] = b; s[p] = a; }
    }
  __syncthreads();
  d[t] = s[t]; d[t + BS] = s[t + BS];
}

// ---- stencils, sparse, n-body ------------------------------------------------
extern "C" __global__ void game_of_life(const int* in, int* out, int n) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= n || y >= n) return;
  int c = 0;
  for (int dy = -1; dy <= 1; dy++)
    for (int dx = -1; dx <= 1; dx++) if (dx || dy) c += in[((y + dy + n) % n) * n + (x + dx + n) % n];
  int a = in[y * n + x];
  out[y * n + x] = (c == 3 || (a && c == 2)) ? 1 : 0;
}
extern "C" __global__ void stencil3d_7pt(const float* in, float* out, int n) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < 1 || y < 1 || x >= n - 1 || y >= n - 1) return;
  for (int z = 1; z < n - 1; z++) {
    size_t i = ((size_t)z * n + y) * n + x, p = (size_t)n * n;
    out[i] = 0.5f * in[i] + 0.125f * (in[i - 1] + in[i + 1] + in[i - n] + in[i + n]) + 0.0625f * (in[i - p] + in[i + p]);
  }
}
extern "C" __global__ void spmv_ell(const int* col, const float* val, const float* x, float* y, int m, int width) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= m) return;
  float s = 0.0f;
  for (int j = 0; j < width; j++) { int c = col[j * m + r]; if (c >= 0) s += val[j * m + r] * x[c]; }
  y[r] = s;
}
extern "C" __global__ void nbody_forces(const float4* pos, float4* acc, int n) {
  __shared__ float4 tile[BS];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float4 p = pos[i]; float ax = 0.0f, ay = 0.0f, az = 0.0f;
  for (int b = 0; b < n; b += BS) {
    tile[threadIdx.x] = pos[b + threadIdx.x];
    __syncthreads();
    for (int j = 0; j < BS; j++) {
      float4 q = tile[j]; float dx = q.x - p.x, dy = q.y - p.y, dz = q.z - p.z;
      float r2 = dx * dx + dy * dy + dz * dz + 0.01f, inv = rsqrtf(r2), s = q.w * inv * inv * inv;
      ax += dx * s; ay += dy * s; az += dz * s;
    }
    __syncthreads();
  }
  acc[i] = make_float4(ax, ay, az, 0.0f);
}

// ---- matrix multiply variants -------------------------------------------------
extern "C" __global__ void mm_regtile_2x2(const float* A, const float* B, float* C, int n) {
  __shared__ float sa[2 * TS][TS], sb[TS][2 * TS];
  int tx = threadIdx.x, ty = threadIdx.y, r0 = blockIdx.y * 2 * TS + ty, c0 = blockIdx.x * 2 * TS + tx;
  float c00 = 0, c01 = 0, c10 = 0, c11 = 0;
  for (int k0 = 0; k0 < n; k0 += TS) {
    sa[ty][tx] = A[r0 * n + k0 + tx]; sa[ty + TS][tx] = A[(r0 + TS) * n + k0 + tx];
    sb[ty][tx] = B[(k0 + ty) * n + c0]; sb[ty][tx + TS] = B[(k0 + ty) * n + c0 + TS];
    __syncthreads();
#pragma unroll
    for (int k = 0; k < TS; k++) {
      float a0 = sa[ty][k], a1 = sa[ty + TS][k], b0 = sb[k][tx], b1 = sb[k][tx + TS];
      c00 += a0 * b0; c01 += a0 * b1; c10 += a1 * b0; c11 += a1 * b1;
    }
    __syncthreads();
  }
  C[r0 * n + c0] = c00; C[r0 * n + c0 + TS] = c01; C[(r0 + TS) * n + c0] = c10; C[(r0 + TS) * n + c0 + TS] = c11;
}
extern "C" __global__ void mm_cp_async(const float* A, const float* B, float* C, int n) {
  __shared__ float sa[TS][TS], sb[TS][TS];
  int tx = threadIdx.x, ty = threadIdx.y, r = blockIdx.y * TS + ty, c = blockIdx.x * TS + tx;
  float s = 0.0f;
  for (int k0 = 0; k0 < n; k0 += TS) {
    __pipeline_memcpy_async(&sa[ty][tx], &A[r * n + k0 + tx], sizeof(float));
    __pipeline_memcpy_async(&sb[ty][tx], &B[(k0 + ty) * n + c], sizeof(float));
    __pipeline_commit();
    __pipeline_wait_prior(0);
    __syncthreads();
#pragma unroll
    for (int k = 0; k < TS; k++) s += sa[ty][k] * sb[k][tx];
    __syncthreads();
  }
  C[r * n + c] = s;
}
extern "C" __global__ void mm_float4(const float4* A, const float* B, float* C, int n) {
  // one row of A per thread block row; A read as float4 (n % 4 == 0)
  int r = blockIdx.y * blockDim.y + threadIdx.y, c = blockIdx.x * blockDim.x + threadIdx.x;
  float s = 0.0f;
  for (int k = 0; k < n / 4; k++) {
    float4 a = A[r * (n / 4) + k];
    s += a.x * B[(4 * k) * n + c] + a.y * B[(4 * k + 1) * n + c] + a.z * B[(4 * k + 2) * n + c] + a.w * B[(4 * k + 3) * n + c];
  }
  C[r * n + c] = s;
}

// ---- device functions and printf -------------------------------------------------
__device__ __noinline__ float horner(const float* c, int deg, float x) {
  float r = c[deg];
  for (int i = deg - 1; i >= 0; i--) r = r * x + c[i];
  return r;
}
extern "C" __global__ void poly_devfunc(const float* coef, const float* x, float* y, int n, int deg) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = horner(coef, deg, x[i] * 0.03125f);
}
extern "C" __global__ void printf_hello(const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    y[i] = 2.0f * x[i];
    if ((threadIdx.x & 7) == 0) printf("block %d thread %d: x=%f y=%.2f i=%d\n", blockIdx.x, threadIdx.x, x[i], y[i], i);
  }
}

// ---- host ---------------------------------------------------------------------------
static FILE* logf_;
static const char* outdir_;
static void logl(const char* k, const char* launch, dim3 g, dim3 b, const char* args) {
  fprintf(logf_, "%s,%s,\"(%u, %u, %u)\",\"(%u, %u, %u)\",%s\n", k, launch, g.x, g.y, g.z, b.x, b.y, b.z, args);
  fflush(logf_);
}
#define GO(k, g, b, launch, args, ...) do { dim3 g_ = (g), b_ = (b); k<<<g_, b_>>>(__VA_ARGS__); \
  CK(cudaGetLastError()); CK(cudaDeviceSynchronize()); logl(#k, launch, g_, b_, args); } while (0)

static float in_f(long i, long a, long b, long c) { return (float)((i * a + b) % c - c / 2); }
template <typename T> static T* dev_in(size_t n, long a, long b, long c) {
  std::vector<T> h(n); for (size_t i = 0; i < n; i++) h[i] = (T)in_f((long)i, a, b, c);
  T* d; CK(cudaMalloc(&d, n * sizeof(T))); CK(cudaMemcpy(d, h.data(), n * sizeof(T), cudaMemcpyHostToDevice)); return d;
}
template <typename T> static T* dev_zero(size_t n) { T* d; CK(cudaMalloc(&d, n * sizeof(T))); CK(cudaMemset(d, 0, n * sizeof(T))); return d; }
template <typename T> static void dump(const char* k, const char* buf, const T* d, size_t n) {
  std::vector<T> h(n); CK(cudaMemcpy(h.data(), d, n * sizeof(T), cudaMemcpyDeviceToHost));
  std::string p = std::string(outdir_) + "/" + k + "." + buf + ".txt";
  FILE* f = fopen(p.c_str(), "w"); if (!f) { perror(p.c_str()); exit(1); }
  for (size_t i = 0; i < n; i++) fprintf(f, "%.9g\n", (double)h[i]);
  fclose(f);
}

int main(int argc, char** argv) {
  outdir_ = argc > 1 ? argv[1] : ".";
  logf_ = fopen(argc > 2 ? argv[2] : "launches.csv", "w");
  if (!logf_) { perror("launch log"); return 1; }
  fprintf(logf_, "kernel,launch,grid,block,args\n");
  const int N = 4096, G = N / BS;
  char G_[512];
  { float *x = dev_in<float>(N, 37, 0, 101), *y = dev_zero<float>(N);
    GO(relu, G, BS, "n=4096", "x=f32[n]:in(37,0,101) y=f32[n] n=4096", x, y, N); dump("relu", "y", y, N);
    GO(gelu_tanh, G, BS, "n=4096", "x=f32[n]:in(37,0,101) y=f32[n] n=4096", x, y, N); dump("gelu_tanh", "y", y, N);
    float* y2 = dev_in<float>(N, 13, 5, 61);
    GO(saxpy_gridstride, 4, BS, "n=4096 grid=4", "a=2.0 x=f32[n]:in(37,0,101) y=f32[n]:in(13,5,61) n=4096", 2.0f, x, y2, N);
    dump("saxpy_gridstride", "y", y2, N);
    float* y3 = dev_in<float>(N, 13, 5, 61);
    GO(haxpy_half2, N / 2 / BS, BS, "n=4096", "a=3.0 x=f32[n]:in(37,0,101) y=f32[n]:in(13,5,61) n2=2048", 3.0f, x, y3, N / 2);
    dump("haxpy_half2", "y", y3, N);
    GO(bf16_scale, G, BS, "n=4096", "x=f32[n]:in(37,0,101) y=f32[n] n=4096", x, y, N); dump("bf16_scale", "y", y, N);
    float* c = dev_zero<float>(N);
    GO(poly_devfunc, G, BS, "n=4096 deg=5", "coef=f32[6]:in(7,3,11) x=f32[n]:in(37,0,101) y=f32[n] n=4096 deg=5",
       dev_in<float>(6, 7, 3, 11), x, c, N, 5); dump("poly_devfunc", "y", c, N);
    float* z = dev_zero<float>(64);
    GO(printf_hello, 2, 32, "n=64", "x=f32[64]:in(37,0,101) y=f32[64] n=64", x, z, 64); dump("printf_hello", "y", z, 64); }
  { double *x = dev_in<double>(N, 37, 0, 101), *y = dev_in<double>(N, 13, 5, 61);
    GO(daxpy, G, BS, "n=4096", "a=2.5 x=f64[n]:in(37,0,101) y=f64[n]:in(13,5,61) n=4096", 2.5, x, y, N); dump("daxpy", "y", y, N); }
  { int w = 128, h = 64; float *a = dev_in<float>(w * h, 37, 0, 101), *b = dev_in<float>(w * h, 13, 5, 61), *c = dev_zero<float>(w * h);
    GO(matadd2d, dim3(w / 16, h / 16), dim3(16, 16), "w=128 h=64", "a=f32[w*h]:in(37,0,101) b=f32[w*h]:in(13,5,61) c=f32[w*h] w=128 h=64", a, b, c, w, h);
    dump("matadd2d", "c", c, w * h); }
  { std::vector<unsigned> hp(N); for (int i = 0; i < N; i++) hp[i] = (unsigned)((i * 37) % 256) | ((unsigned)((i * 11 + 3) % 256) << 8) | ((unsigned)((i * 5 + 7) % 256) << 16);
    unsigned* p; CK(cudaMalloc(&p, N * 4)); CK(cudaMemcpy(p, hp.data(), N * 4, cudaMemcpyHostToDevice)); float* g = dev_zero<float>(N);
    GO(rgb2gray, G, BS, "n=4096", "px=u32[n]:(i*37)%256|((i*11+3)%256)<<8|((i*5+7)%256)<<16 gray=f32[n] n=4096", (const uchar4*)p, g, N);
    dump("rgb2gray", "gray", g, N);
    unsigned* y = dev_zero<unsigned>(N);
    GO(bitops, G, BS, "n=4096", "x=u32[n]:same y=u32[n] n=4096", p, y, N); dump("bitops", "y", y, N); }
  { float *s = dev_in<float>(N, 37, 0, 101), *k = dev_in<float>(N, 13, 5, 61), *t = dev_in<float>(N, 7, 1, 101), *c = dev_zero<float>(N);
    GO(blackscholes, G, BS, "n=4096", "s=f32[n]:in(37,0,101) k=f32[n]:in(13,5,61) t=f32[n]:in(7,1,101) call=f32[n] n=4096", s, k, t, c, N);
    dump("blackscholes", "call", c, N); }
  { int w = 128, h = 64; int* it = dev_zero<int>(w * h);
    GO(mandelbrot, dim3(w / 16, h / 16), dim3(16, 16), "w=128 h=64 maxit=64", "iters=s32[w*h] w=128 h=64 maxit=64", it, w, h, 64);
    dump("mandelbrot", "iters", it, w * h); }
  { float *a = dev_in<float>(N, 37, 0, 101), *b = dev_in<float>(N, 13, 5, 61), *o = dev_zero<float>(1);
    GO(dot_atomic, G, BS, "n=4096", "a=f32[n]:in(37,0,101) b=f32[n]:in(13,5,61) out=f32[1] n=4096", a, b, o, N); dump("dot_atomic", "out", o, 1);
    float m0 = -3.0e38f; CK(cudaMemcpy(o, &m0, 4, cudaMemcpyHostToDevice));
    GO(max_cas, G, BS, "n=4096", "x=f32[n]:in(13,5,61) out=f32[1]:-3e38 n=4096", b, o, N); dump("max_cas", "out", o, 1);
    float* s = dev_zero<float>(N);
    GO(scan_warp_shfl, G, BS, "n=4096", "in=f32[n]:in(37,0,101) out=f32[n] n=4096", a, s, N); dump("scan_warp_shfl", "out", s, N);
    unsigned* cnt = dev_zero<unsigned>(1);
    GO(count_positive_ballot, G, BS, "n=4096", "x=f32[n]:in(37,0,101) count=u32[1] n=4096", a, cnt, N); dump("count_positive_ballot", "count", cnt, 1); }
  { unsigned* d = dev_zero<unsigned>(N); std::vector<unsigned> hd(N); for (int i = 0; i < N; i++) hd[i] = (unsigned)((i * 37 + 11) % 1000);
    CK(cudaMemcpy(d, hd.data(), N * 4, cudaMemcpyHostToDevice));
    unsigned* h = dev_zero<unsigned>(100);
    GO(histogram_global, G, BS, "n=4096 bins=100", "data=u32[n]:(i*37+11)%1000 hist=u32[100] n=4096 bins=100", d, h, N, 100); dump("histogram_global", "hist", h, 100);
    unsigned* h2 = dev_zero<unsigned>(16);
    GO(radix_digit_hist, G, BS, "n=4096 shift=8", "keys=u32[n]:(i*37+11)%1000 hist=u32[16] n=4096 shift=8", d, h2, N, 8); dump("radix_digit_hist", "hist", h2, 16); }
  { int rows = 16, cols = 1024; float *in = dev_in<float>(rows * cols, 37, 0, 101), *o = dev_zero<float>(rows * cols);
    GO(layernorm_row, rows, BS, "rows=16 cols=1024", "in=f32[rows*cols]:in(37,0,101) out=f32[rows*cols] cols=1024", in, o, cols);
    dump("layernorm_row", "out", o, rows * cols); }
  { float* d = dev_in<float>(N, 37, 0, 101);
    GO(bitonic_sort_shared, N / 512, BS, "n=4096", "data=f32[n]:in(37,0,101)", d); dump("bitonic_sort_shared", "data", d, N); }
  { int n = 64; int* in = dev_zero<int>(n * n); std::vector<int> hg(n * n); for (int i = 0; i < n * n; i++) hg[i] = ((i * 37 + 11) % 7) < 3;
    CK(cudaMemcpy(in, hg.data(), n * n * 4, cudaMemcpyHostToDevice)); int* o = dev_zero<int>(n * n);
    GO(game_of_life, dim3(n / 16, n / 16), dim3(16, 16), "n=64", "in=s32[n*n]:((i*37+11)%7)<3 out=s32[n*n] n=64", in, o, n); dump("game_of_life", "out", o, n * n); }
  { int n = 32; float *in = dev_in<float>(n * n * n, 37, 0, 101), *o = dev_zero<float>(n * n * n);
    GO(stencil3d_7pt, dim3(n / 16, n / 16), dim3(16, 16), "n=32", "in=f32[n*n*n]:in(37,0,101) out=f32[n*n*n] n=32", in, o, n); dump("stencil3d_7pt", "out", o, n * n * n); }
  { int m = 4096, w = 3; std::vector<int> hc(m * w); for (int j = 0; j < w; j++) for (int r = 0; r < m; r++) { int c = r - 1 + j; hc[j * m + r] = (c >= 0 && c < m) ? c : -1; }
    int* col; CK(cudaMalloc(&col, m * w * 4)); CK(cudaMemcpy(col, hc.data(), m * w * 4, cudaMemcpyHostToDevice));
    float *val = dev_in<float>(m * w, 7, 1, 5), *x = dev_in<float>(m, 37, 0, 101), *y = dev_zero<float>(m);
    GO(spmv_ell, m / BS, BS, "m=4096 width=3", "col=s32[3*m]:(j*m+r -> r-1+j or -1) val=f32[3*m]:in(7,1,5) x=f32[m]:in(37,0,101) y=f32[m] m=4096 width=3", col, val, x, y, m, w);
    dump("spmv_ell", "y", y, m); }
  { int n = 1024; float4 *p = (float4*)dev_in<float>(4 * n, 37, 0, 101), *a = (float4*)dev_zero<float>(4 * n);
    GO(nbody_forces, n / BS, BS, "n=1024", "pos=f32[4*n]:in(37,0,101) acc=f32[4*n] n=1024", p, a, n); dump("nbody_forces", "acc", (float*)a, 4 * n); }
  { int n = 128; float *A = dev_in<float>(n * n, 37, 0, 101), *B = dev_in<float>(n * n, 13, 5, 61), *C = dev_zero<float>(n * n);
    snprintf(G_, sizeof G_, "A=f32[n*n]:in(37,0,101) B=f32[n*n]:in(13,5,61) C=f32[n*n] n=%d", n);
    GO(mm_regtile_2x2, dim3(n / 32, n / 32), dim3(TS, TS), "n=128", G_, A, B, C, n); dump("mm_regtile_2x2", "C", C, n * n);
    GO(mm_cp_async, dim3(n / TS, n / TS), dim3(TS, TS), "n=128", G_, A, B, C, n); dump("mm_cp_async", "C", C, n * n);
    GO(mm_float4, dim3(n / TS, n / TS), dim3(TS, TS), "n=128", G_, (const float4*)A, B, C, n); dump("mm_float4", "C", C, n * n); }
  fclose(logf_);
  return 0;
}
