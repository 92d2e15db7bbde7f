// gpusim H100 microbenchmarks (issue 13). Times with clock64() inside kernels
// and cudaEvents on the host; prints CSV rows bench,param,value,unit on stdout.
// usage: micro [quick|full] OUTDIR   (OUTDIR receives l2_nearfar.csv)
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cstdint>
#include <vector>
#include <algorithm>
#include <cuda_runtime.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  fprintf(stderr, "CUDA error %s at %s:%d\n", cudaGetErrorString(e_), __FILE__, __LINE__); exit(1); } } while (0)

static void row(const char* b, const char* p, double v, const char* u) {
  printf("%s,%s,%.4f,%s\n", b, p, v, u); fflush(stdout);
}

#define R8(M) M() M() M() M() M() M() M() M()
#define R64(M) R8(M) R8(M) R8(M) R8(M) R8(M) R8(M) R8(M) R8(M)
#define R128(M) R64(M) R64(M)

__device__ __forceinline__ unsigned smid() { unsigned s; asm volatile("mov.u32 %0, %%smid;" : "=r"(s)); return s; }

// ---------------------------------------------------------------- latency chains
// One thread; 128 dependent ops per iteration; second pass timed (first warms the icache).
#define LATK(name, T, C, M, OPS) \
extern "C" __global__ void lat_##name(const T* in, T* out, long long* t, int iters) { \
  T x = in[0], y = in[1], z = in[2]; (void)y; (void)z; long long t0 = 0, t1 = 0; \
  for (int r = 0; r < 2; ++r) { t0 = clock64(); \
    for (int i = 0; i < iters; ++i) { R128(M) } \
    t1 = clock64(); } \
  out[0] = x + y + z; t[0] = t1 - t0; t[1] = (long long)(iters * 128 * OPS); }

#define O_FADD() asm volatile("add.f32 %0, %0, %1;" : "+f"(x) : "f"(y));
#define O_FMUL() asm volatile("mul.f32 %0, %0, %1;" : "+f"(x) : "f"(y));
#define O_FFMA() asm volatile("fma.rn.f32 %0, %0, %1, %2;" : "+f"(x) : "f"(y), "f"(z));
#define O_SIN() asm volatile("sin.approx.ftz.f32 %0, %0;" : "+f"(x));
#define O_EX2() asm volatile("ex2.approx.ftz.f32 %0, %0;" : "+f"(x));
#define O_LG2() asm volatile("lg2.approx.ftz.f32 %0, %0;" : "+f"(x));
#define O_RSQ() asm volatile("rsqrt.approx.ftz.f32 %0, %0;" : "+f"(x));
#define O_RCP() asm volatile("rcp.approx.ftz.f32 %0, %0;" : "+f"(x));
#define O_CVT() asm volatile("{ .reg .s32 q; cvt.rzi.s32.f32 q, %0; cvt.rn.f32.s32 %0, q; }" : "+f"(x));
#define O_CVTD() asm volatile("{ .reg .f64 q; cvt.f64.f32 q, %0; cvt.rn.f32.f64 %0, q; }" : "+f"(x));
#define O_IADD() asm volatile("add.s32 %0, %0, %1;" : "+r"(x) : "r"(y));
#define O_IMAD() asm volatile("mad.lo.s32 %0, %0, %0, %1;" : "+r"(x) : "r"(y));
#define O_SHL() asm volatile("shl.b32 %0, %0, %1;" : "+r"(x) : "r"(y));
#define O_SHLXOR() asm volatile("shl.b32 %0, %0, %1; xor.b32 %0, %0, %2;" : "+r"(x) : "r"(y), "r"(z));
#define O_RCPRSQ() asm volatile("rcp.approx.ftz.f32 %0, %0; rsqrt.approx.ftz.f32 %0, %0;" : "+f"(x));
#define O_RCPADD() asm volatile("rcp.approx.ftz.f32 %0, %0; add.f32 %0, %0, %1;" : "+f"(x) : "f"(y));
#define O_ADDXOR() asm volatile("add.s32 %0, %0, %1; xor.b32 %0, %0, %2;" : "+r"(x) : "r"(y), "r"(z));
#define O_POPC() asm volatile("popc.b32 %0, %0;" : "+r"(x));
#define O_DFMA() asm volatile("fma.rn.f64 %0, %0, %1, %2;" : "+d"(x) : "d"(y), "d"(z));
#define O_DADD() asm volatile("add.f64 %0, %0, %1;" : "+d"(x) : "d"(y));

LATK(fadd, float, f, O_FADD, 1)
LATK(fmul, float, f, O_FMUL, 1)
LATK(ffma, float, f, O_FFMA, 1)
LATK(mufu_sin, float, f, O_SIN, 1)
LATK(mufu_ex2, float, f, O_EX2, 1)
LATK(mufu_lg2, float, f, O_LG2, 1)
LATK(mufu_rsqrt, float, f, O_RSQ, 1)
LATK(mufu_rcp, float, f, O_RCP, 1)
LATK(cvt_f2i_i2f_pair, float, f, O_CVT, 1)
LATK(cvt_f2d_d2f_pair, float, f, O_CVTD, 1)
LATK(iadd3_merged, int, r, O_IADD, 0.5)  // ptxas merges 2 dependent PTX adds into one IADD3
LATK(imad, int, r, O_IMAD, 1)
LATK(shl, int, r, O_SHL, 1)
LATK(shl_xor_pair, int, r, O_SHLXOR, 1)
LATK(rcp_fadd_pair, float, f, O_RCPADD, 1)
LATK(rcp_rsqrt_pair, float, f, O_RCPRSQ, 1)
LATK(iadd_xor_pair, int, r, O_ADDXOR, 1)
LATK(popc, int, r, O_POPC, 1)
LATK(dfma, double, d, O_DFMA, 1)
LATK(dadd, double, d, O_DADD, 1)

// special registers: clock, S2R, then a volatile shared store of the value (the store must wait
// for the S2R result), then clock; min over 64 samples. 'const' stores an immediate: the baseline.
#define SREGK(name, SR) \
extern "C" __global__ void sreg_##name(unsigned* out, long long* t) { \
  __shared__ unsigned sink[32]; unsigned sa = (unsigned)__cvta_generic_to_shared(sink); \
  long long best = 1LL << 40; \
  for (int i = 0; i < 64; ++i) { \
    long long t0 = clock64(); \
    asm volatile("{ .reg .u32 q; mov.u32 q, " SR "; st.volatile.shared.u32 [%0], q; }" :: "r"(sa) : "memory"); \
    long long t1 = clock64(); \
    if (t1 - t0 < best) best = t1 - t0; } \
  out[0] = sink[0]; t[0] = best; }
SREGK(const, "7")
SREGK(tid, "%%tid.x")
SREGK(laneid, "%%laneid")
SREGK(smid, "%%smid")
SREGK(warpid, "%%warpid")
SREGK(clock32, "%%clock")

extern "C" __global__ void clk_to_clk(long long* t) {
  long long best = 1LL << 40, best32 = 1LL << 40;
  for (int i = 0; i < 64; ++i) {
    long long t0 = clock64(); long long t1 = clock64();
    if (t1 - t0 < best) best = t1 - t0;
    unsigned c0 = (unsigned)clock(); unsigned c1 = (unsigned)clock();
    if ((long long)(c1 - c0) < best32) best32 = c1 - c0;
  }
  t[0] = best; t[1] = best32;
}

// clock frequency: clock64 vs globaltimer (ns) over a spin
extern "C" __global__ void clk_freq(long long* t, long long ns) {
  unsigned long long g0, g1; long long c0, c1;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(g0)); c0 = clock64();
  do { asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(g1)); } while ((long long)(g1 - g0) < ns);
  c1 = clock64();
  t[0] = c1 - c0; t[1] = (long long)(g1 - g0);
}

// ---------------------------------------------------------------- pointer chases
// buf holds absolute addresses: element at k*stride points to ((k+1)*stride) % bytes.
extern "C" __global__ void chase_init(char* base, long long bytes, long long stride) {
  long long n = bytes / stride;
  for (long long k = blockIdx.x * (long long)blockDim.x + threadIdx.x; k < n; k += (long long)gridDim.x * blockDim.x)
    *(unsigned long long*)(base + k * stride) = (unsigned long long)(base + ((k + 1) % n) * stride);
}
// mode 0: ld.global.ca (L1), 1: ld.global.cg (L2). warm: loads before timing (0 for DRAM).
extern "C" __global__ void chase(unsigned long long* start, int warm, int n, int mode, long long* t) {
  unsigned long long j = (unsigned long long)start;
  if (mode == 0) { for (int i = 0; i < warm; ++i) asm volatile("ld.global.ca.u64 %0, [%0];" : "+l"(j)); }
  else { for (int i = 0; i < warm; ++i) asm volatile("ld.global.cg.u64 %0, [%0];" : "+l"(j)); }
  long long t0 = clock64();
  if (mode == 0) { for (int i = 0; i < n; ++i) asm volatile("ld.global.ca.u64 %0, [%0];" : "+l"(j)); }
  else { for (int i = 0; i < n; ++i) asm volatile("ld.global.cg.u64 %0, [%0];" : "+l"(j)); }
  long long t1 = clock64();
  t[0] = t1 - t0; t[1] = (long long)j;
}
// shared-memory chase over 1024 words, 32-word (128 B) stride
extern "C" __global__ void chase_shared(int n, long long* t) {
  __shared__ unsigned s[1024];
  unsigned base = (unsigned)__cvta_generic_to_shared(s);
  for (int i = threadIdx.x; i < 1024; i += blockDim.x) s[i] = base + 4u * ((i + 32) % 1024);
  __syncthreads();
  if (threadIdx.x) return;
  unsigned j = base;
  for (int i = 0; i < 64; ++i) asm volatile("ld.shared.u32 %0, [%0];" : "+r"(j));
  long long t0 = clock64();
  for (int i = 0; i < n; ++i) asm volatile("ld.shared.u32 %0, [%0];" : "+r"(j));
  long long t1 = clock64();
  t[0] = t1 - t0; t[1] = j;
}
// L2 near/far: each block (1 thread) times `reps` dependent ld.cg of each of nlines self-pointing lines
extern "C" __global__ void l2_nearfar(unsigned long long* buf, int nlines, int reps, int* out) {
  unsigned s = smid(); unsigned long long sink = 0;
  for (int l = 0; l < nlines; ++l) {
    unsigned long long j = (unsigned long long)(buf + (size_t)l * 16);
    asm volatile("ld.global.cg.u64 %0, [%0];" : "+l"(j));
    long long t0 = clock64();
    for (int r = 0; r < reps; ++r) asm volatile("ld.global.cg.u64 %0, [%0];" : "+l"(j));
    long long t1 = clock64();
    out[(blockIdx.x * (nlines + 1)) + 1 + l] = (int)((t1 - t0) / reps);
    sink ^= j;
  }
  out[blockIdx.x * (nlines + 1)] = (int)s;
  if (sink == 1) out[0] = -1;
}
extern "C" __global__ void selfptr_init(unsigned long long* buf, int nlines) {
  int l = blockIdx.x * blockDim.x + threadIdx.x;
  if (l < nlines) buf[(size_t)l * 16] = (unsigned long long)(buf + (size_t)l * 16);
}

// ---------------------------------------------------------------- throughput
// 8 independent chains per thread, 16*8 ops per iteration; block times + smid in tt[3*block]
#define TPK(name, T, M) \
extern "C" __global__ void tp_##name(const T* in, T* out, long long* tt, int iters) { \
  T y = in[8], z = in[9]; (void)y; (void)z; \
  T a0 = in[0], a1 = in[1], a2 = in[2], a3 = in[3], a4 = in[4], a5 = in[5], a6 = in[6], a7 = in[7]; \
  __syncthreads(); long long t0 = clock64(); \
  for (int i = 0; i < iters; ++i) { M(a0) M(a1) M(a2) M(a3) M(a4) M(a5) M(a6) M(a7) \
    M(a0) M(a1) M(a2) M(a3) M(a4) M(a5) M(a6) M(a7) M(a0) M(a1) M(a2) M(a3) M(a4) M(a5) M(a6) M(a7) \
    M(a0) M(a1) M(a2) M(a3) M(a4) M(a5) M(a6) M(a7) } \
  __syncthreads(); long long t1 = clock64(); \
  T s = a0 + a1 + a2 + a3 + a4 + a5 + a6 + a7; \
  if (s == (T)12345) out[blockIdx.x * blockDim.x + threadIdx.x] = s; \
  if (threadIdx.x == 0) { tt[3 * blockIdx.x] = t0; tt[3 * blockIdx.x + 1] = t1; tt[3 * blockIdx.x + 2] = smid(); } }
#define T_FFMA(a) asm volatile("fma.rn.f32 %0, %0, %1, %2;" : "+f"(a) : "f"(y), "f"(z));
#define T_FADD(a) asm volatile("add.f32 %0, %0, %1;" : "+f"(a) : "f"(y));
#define T_IMAD(a) asm volatile("mad.lo.s32 %0, %0, %0, %1;" : "+r"(a) : "r"(y));
#define T_IADD(a) asm volatile("add.s32 %0, %0, %1;" : "+r"(a) : "r"(y));
#define T_EX2(a) asm volatile("ex2.approx.ftz.f32 %0, %0;" : "+f"(a));
#define T_RSQ(a) asm volatile("rsqrt.approx.ftz.f32 %0, %0;" : "+f"(a));
#define T_DFMA(a) asm volatile("fma.rn.f64 %0, %0, %1, %2;" : "+d"(a) : "d"(y), "d"(z));
TPK(ffma, float, T_FFMA)
TPK(fadd, float, T_FADD)
TPK(imad, int, T_IMAD)
TPK(iadd, int, T_IADD)
TPK(mufu_ex2, float, T_EX2)
TPK(mufu_rsqrt, float, T_RSQ)
TPK(dfma, double, T_DFMA)

// shared loads: LDS.32 / LDS.128, lane-consecutive (conflict-free), xor-accumulated
extern "C" __global__ void tp_lds32(const int* in, int* out, long long* tt, int iters) {
  __shared__ unsigned s[8192];
  for (int i = threadIdx.x; i < 8192; i += blockDim.x) s[i] = i;
  unsigned a = in[0];
  unsigned addr = (unsigned)__cvta_generic_to_shared(s) + 4u * ((threadIdx.x & 31) + 32 * ((threadIdx.x >> 5) & 7));
  __syncthreads(); long long t0 = clock64();
  for (int i = 0; i < iters; ++i) {
#define L32(o) asm volatile("{ .reg .u32 q; ld.volatile.shared.u32 q, [%1+" #o "]; xor.b32 %0, %0, q; }" : "+r"(a) : "r"(addr));
    L32(0) L32(1024) L32(2048) L32(3072) L32(4096) L32(5120) L32(6144) L32(7168)
    L32(8192) L32(9216) L32(10240) L32(11264) L32(12288) L32(13312) L32(14336) L32(15360)
  }
  __syncthreads(); long long t1 = clock64();
  if (a == 12345u) out[threadIdx.x] = a;
  if (threadIdx.x == 0) { tt[3 * blockIdx.x] = t0; tt[3 * blockIdx.x + 1] = t1; tt[3 * blockIdx.x + 2] = smid(); }
}
extern "C" __global__ void tp_lds128(const int* in, int* out, long long* tt, int iters) {
  __shared__ unsigned s[8192];
  for (int i = threadIdx.x; i < 8192; i += blockDim.x) s[i] = i;
  unsigned a = in[0];
  unsigned addr = (unsigned)__cvta_generic_to_shared(s) + 16u * (threadIdx.x & 31) + 512u * ((threadIdx.x >> 5) & 7);
  __syncthreads(); long long t0 = clock64();
  for (int i = 0; i < iters; ++i) {
#define L128(o) asm volatile("{ .reg .u32 q0, q1, q2, q3; ld.volatile.shared.v4.u32 {q0, q1, q2, q3}, [%1+" #o "]; " \
      "xor.b32 %0, %0, q0; xor.b32 %0, %0, q1; xor.b32 %0, %0, q2; xor.b32 %0, %0, q3; }" : "+r"(a) : "r"(addr));
    L128(0) L128(4096) L128(8192) L128(12288) L128(16384) L128(20480) L128(24576) L128(28672)
  }
  __syncthreads(); long long t1 = clock64();
  if (a == 12345u) out[threadIdx.x] = a;
  if (threadIdx.x == 0) { tt[3 * blockIdx.x] = t0; tt[3 * blockIdx.x + 1] = t1; tt[3 * blockIdx.x + 2] = smid(); }
}

// bank conflicts: lane reads word lane*k (k-way conflict for k = 1..32)
extern "C" __global__ void bank_tp(int k, int iters, int* out, long long* tt) {
  __shared__ unsigned s[1024 + 64];
  for (int i = threadIdx.x; i < 1088; i += blockDim.x) s[i] = i;
  unsigned a = 0;
  unsigned addr = (unsigned)__cvta_generic_to_shared(s) + 4u * (((threadIdx.x & 31) * k) & 1023);
  __syncthreads(); long long t0 = clock64();
  for (int i = 0; i < iters; ++i) {
#define LB(o) asm volatile("{ .reg .u32 q; ld.volatile.shared.u32 q, [%1+" #o "]; xor.b32 %0, %0, q; }" : "+r"(a) : "r"(addr));
    LB(0) LB(4) LB(8) LB(12) LB(16) LB(20) LB(24) LB(28)
  }
  __syncthreads(); long long t1 = clock64();
  if (a == 12345u) out[threadIdx.x] = a;
  if (threadIdx.x == 0) { tt[0] = t1 - t0; }
}
extern "C" __global__ void bank_lat(int k, int n, long long* tt) {
  __shared__ unsigned s[1024];
  unsigned base = (unsigned)__cvta_generic_to_shared(s);
  for (int i = threadIdx.x; i < 1024; i += blockDim.x) s[i] = base + 4u * i;
  __syncthreads();
  unsigned j = base + 4u * ((threadIdx.x * k) & 1023);
  for (int i = 0; i < 16; ++i) asm volatile("ld.shared.u32 %0, [%0];" : "+r"(j));
  long long t0 = clock64();
  for (int i = 0; i < n; ++i) asm volatile("ld.shared.u32 %0, [%0];" : "+r"(j));
  long long t1 = clock64();
  if (threadIdx.x == 0) { tt[0] = t1 - t0; tt[1] = j; }
}

// ---------------------------------------------------------------- global bandwidth
extern "C" __global__ void bw_read(const float4* __restrict__ a, long long n4, float* out) {
  float s = 0.f;
  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n4; i += (long long)gridDim.x * blockDim.x) {
    float4 v = a[i]; s += v.x + v.y + v.z + v.w; }
  if (s == 1234.5f) out[0] = s;
}
extern "C" __global__ void bw_read_passes(const float4* __restrict__ a, long long n4, int passes, float* out) {
  float s = 0.f;
  for (int p = 0; p < passes; ++p)
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n4; i += (long long)gridDim.x * blockDim.x) {
      float4 v = a[i]; s += v.x + v.y + v.z + v.w; }
  if (s == 1234.5f) out[0] = s;
}
extern "C" __global__ void bw_add(const float4* __restrict__ a, const float4* __restrict__ b, float4* __restrict__ c, long long n4) {
  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n4; i += (long long)gridDim.x * blockDim.x) {
    float4 x = a[i], y = b[i]; c[i] = make_float4(x.x + y.x, x.y + y.y, x.z + y.z, x.w + y.w); }
}
extern "C" __global__ void bw_write(float4* __restrict__ a, long long n4) {
  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n4; i += (long long)gridDim.x * blockDim.x)
    a[i] = make_float4(1.f, 2.f, 3.f, (float)i);
}
extern "C" __global__ void bw_copy(const float4* __restrict__ a, float4* __restrict__ b, long long n4) {
  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n4; i += (long long)gridDim.x * blockDim.x)
    b[i] = a[i];
}
// L2: all blocks stream a working set with ld.global.cg, `passes` times
extern "C" __global__ void bw_l2(const float4* a, long long n4, int passes, float* out, long long* tt) {
  float s = 0.f;
  long long t0 = clock64();
  for (int p = 0; p < passes; ++p)
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n4; i += (long long)gridDim.x * blockDim.x) {
      float4 v; asm volatile("ld.global.cg.v4.f32 {%0,%1,%2,%3}, [%4];" : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w) : "l"(a + i));
      s += v.x + v.y + v.z + v.w; }
  __syncthreads(); long long t1 = clock64();
  if (s == 1234.5f) out[0] = s;
  if (threadIdx.x == 0) { tt[3 * blockIdx.x] = t0; tt[3 * blockIdx.x + 1] = t1; tt[3 * blockIdx.x + 2] = smid(); }
}
// L1: each block re-reads its own 16 KiB with ld.global.ca
extern "C" __global__ void bw_l1(const float4* a, int passes, float* out, long long* tt) {
  const float4* p = a + blockIdx.x * 1024;  // 16 KiB per block
  float s = 0.f;
  for (int i = threadIdx.x; i < 1024; i += blockDim.x) s += p[i].x;
  __syncthreads(); long long t0 = clock64();
  for (int r = 0; r < passes; ++r)
    for (int i = threadIdx.x; i < 1024; i += blockDim.x) {
      float4 v; asm volatile("ld.global.ca.v4.f32 {%0,%1,%2,%3}, [%4];" : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w) : "l"(p + ((i + 64 * r) & 1023)));
      s += v.x + v.y + v.z + v.w; }
  __syncthreads(); long long t1 = clock64();
  if (s == 1234.5f) out[0] = s;
  if (threadIdx.x == 0) { tt[3 * blockIdx.x] = t0; tt[3 * blockIdx.x + 1] = t1; tt[3 * blockIdx.x + 2] = smid(); }
}

// ---------------------------------------------------------------- barrier, atomics, launch
extern "C" __global__ void barrier(int iters, long long* tt) {
  __syncthreads(); long long t0 = clock64();
  for (int i = 0; i < iters; ++i) asm volatile("bar.sync 0;" ::: "memory");
  long long t1 = clock64();
  if (threadIdx.x == 0) tt[0] = t1 - t0;
}
extern "C" __global__ void atom_global(unsigned* p, int distinct, int iters, long long* tt) {
  unsigned* q = distinct ? p + blockIdx.x * blockDim.x + threadIdx.x : p;
  __syncthreads(); long long t0 = clock64();
  for (int i = 0; i < iters; ++i) atomicAdd(q, 1u);
  __syncthreads(); long long t1 = clock64();
  if (threadIdx.x == 0) { tt[3 * blockIdx.x] = t0; tt[3 * blockIdx.x + 1] = t1; tt[3 * blockIdx.x + 2] = smid(); }
}
extern "C" __global__ void atom_shared(int distinct, int iters, unsigned* out, long long* tt) {
  __shared__ unsigned s[1024];
  s[threadIdx.x] = 0;
  __syncthreads();
  unsigned* q = distinct ? s + threadIdx.x : s;
  unsigned acc = 0;
  long long t0 = clock64();
  for (int i = 0; i < iters; ++i) acc += atomicAdd(q, 1u);
  if (acc == 0xffffffffu) out[0] = acc;   // waits for every returned value
  __syncthreads(); long long t1 = clock64();
  out[blockIdx.x * blockDim.x + threadIdx.x] = s[threadIdx.x];
  if (threadIdx.x == 0) { tt[3 * blockIdx.x] = t0; tt[3 * blockIdx.x + 1] = t1; tt[3 * blockIdx.x + 2] = smid(); }
}
// one thread: dependent atomics (returned value feeds the next address through a zero mask)
extern "C" __global__ void atom_lat(unsigned* p, unsigned mask, int n, long long* tt) {
  unsigned v = 0;
  long long t0 = clock64();
  for (int i = 0; i < n; ++i) v = atomicAdd(p + (v & mask), 1u);
  long long t1 = clock64();
  tt[0] = t1 - t0; tt[1] = v;
}
extern "C" __global__ void empty_kernel() {}

// ---------------------------------------------------------------- host
static long long* d_t; static float* d_f; static int* d_i; static double* d_d; static float* d_out;
static std::vector<long long> get_t(int n) { std::vector<long long> h(n); CK(cudaMemcpy(h.data(), d_t, n * 8, cudaMemcpyDeviceToHost)); return h; }

// per-SM rate from block records (t0,t1,smid): returns median over SMs of work/cycles, and warps/SM
static double per_sm_rate(int nblocks, double work_per_block, double* avg_blocks_per_sm) {
  std::vector<long long> h = get_t(3 * nblocks);
  std::vector<long long> lo(1024, -1), hi(1024, -1); std::vector<int> cnt(1024, 0);
  for (int b = 0; b < nblocks; ++b) {
    int s = (int)h[3 * b + 2];
    if (lo[s] < 0 || h[3 * b] < lo[s]) lo[s] = h[3 * b];
    if (h[3 * b + 1] > hi[s]) hi[s] = h[3 * b + 1];
    cnt[s]++; }
  std::vector<double> r; int nsm = 0, nb = 0;
  for (int s = 0; s < 1024; ++s) if (cnt[s]) { r.push_back(cnt[s] * work_per_block / (double)(hi[s] - lo[s])); nsm++; nb += cnt[s]; }
  std::sort(r.begin(), r.end());
  if (avg_blocks_per_sm) *avg_blocks_per_sm = (double)nb / nsm;
  return r[r.size() / 2];
}

int main(int argc, char** argv) {
  bool quick = argc > 1 && !strcmp(argv[1], "quick");
  const char* outdir = argc > 2 ? argv[2] : ".";
  cudaDeviceProp pr; CK(cudaGetDeviceProperties(&pr, 0));
  int nsm = pr.multiProcessorCount;
  char p[256];
  printf("bench,param,value,unit\n");
  snprintf(p, sizeof p, "name=%s cc=%d.%d", pr.name, pr.major, pr.minor);
  row("device", p, nsm, "sms");
  row("device", "l2_bytes", pr.l2CacheSize, "bytes");
  row("device", "smem_per_sm", pr.sharedMemPerMultiprocessor, "bytes");
  row("device", "regs_per_sm", pr.regsPerMultiprocessor, "regs");
  row("device", "global_mem", (double)pr.totalGlobalMem, "bytes");
  CK(cudaMalloc(&d_t, 1 << 20)); CK(cudaMalloc(&d_out, 64 << 20));
  { std::vector<float> hf(16); std::vector<int> hi(16); std::vector<double> hd(16);
    for (int i = 0; i < 16; ++i) { hf[i] = 0.999f + 1e-4f * i; hi[i] = 3 + i; hd[i] = 0.999 + 1e-4 * i; }
    hf[1] = 1.0001f; hf[2] = 1e-7f; hi[1] = 1;  // fadd adds 1.0001, shl shifts by 1
    CK(cudaMalloc(&d_f, 64)); CK(cudaMalloc(&d_i, 64)); CK(cudaMalloc(&d_d, 128));
    CK(cudaMemcpy(d_f, hf.data(), 64, cudaMemcpyHostToDevice)); CK(cudaMemcpy(d_i, hi.data(), 64, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(d_d, hd.data(), 128, cudaMemcpyHostToDevice)); }

  // clock frequency
  clk_freq<<<1, 1>>>(d_t, 20000000LL); CK(cudaDeviceSynchronize());
  { auto h = get_t(2); row("clock", "sm_clock_during_run", (double)h[0] / h[1] * 1000.0, "MHz"); }

  // latency chains
  const int it = 8;
#define RUNLAT(name, T, buf) { lat_##name<<<1, 1>>>((const T*)buf, (T*)d_out, d_t, it); CK(cudaDeviceSynchronize()); \
    auto h = get_t(2); row("latency", #name, (double)h[0] / h[1], "cycles/op"); }
  RUNLAT(fadd, float, d_f) RUNLAT(fmul, float, d_f) RUNLAT(ffma, float, d_f)
  RUNLAT(mufu_sin, float, d_f) RUNLAT(mufu_ex2, float, d_f) RUNLAT(mufu_lg2, float, d_f)
  RUNLAT(mufu_rsqrt, float, d_f) RUNLAT(mufu_rcp, float, d_f)
  RUNLAT(cvt_f2i_i2f_pair, float, d_f) RUNLAT(cvt_f2d_d2f_pair, float, d_f)
  RUNLAT(iadd3_merged, int, d_i) RUNLAT(imad, int, d_i) RUNLAT(shl, int, d_i) RUNLAT(shl_xor_pair, int, d_i) RUNLAT(rcp_fadd_pair, float, d_f) RUNLAT(rcp_rsqrt_pair, float, d_f)
  RUNLAT(iadd_xor_pair, int, d_i) RUNLAT(popc, int, d_i)
  RUNLAT(dfma, double, d_d) RUNLAT(dadd, double, d_d)
#define RUNSR(name) { sreg_##name<<<1, 32>>>((unsigned*)d_out, d_t); CK(cudaDeviceSynchronize()); \
    auto h = get_t(1); row("sreg_read_store_clock_to_clock", #name, (double)h[0], "cycles"); }
  RUNSR(const) RUNSR(tid) RUNSR(laneid) RUNSR(smid) RUNSR(warpid) RUNSR(clock32)
  clk_to_clk<<<1, 1>>>(d_t); CK(cudaDeviceSynchronize());
  { auto h = get_t(2); row("clock_to_clock", "clock64", (double)h[0], "cycles"); row("clock_to_clock", "clock32", (double)h[1], "cycles"); }

  // memory latency
  chase_shared<<<1, 256>>>(2048, d_t); CK(cudaDeviceSynchronize());
  { auto h = get_t(1); row("latency", "lds_chase", h[0] / 2048.0, "cycles/load"); }
  char* big; size_t bigbytes = (size_t)1 << 30; CK(cudaMalloc(&big, bigbytes));
  char* big2; CK(cudaMalloc(&big2, bigbytes));
  char* flush; CK(cudaMalloc(&flush, 256 << 20));
  CK(cudaMemset(big, 0, bigbytes)); CK(cudaMemset(big2, 0, bigbytes));
  struct { long long bytes, stride; int mode, warm, n; const char* name; } ch[] = {
    {16 << 10, 128, 0, 256, 2048, "l1_hit_ca_16KiB"},
    {16 << 10, 128, 1, 256, 2048, "l2_hit_cg_16KiB"},
    {4 << 20, 128, 1, 32768, 8192, "l2_hit_cg_4MiB"},
    {8 << 20, 128, 1, 65536, 8192, "l2_cg_8MiB"},
    {16 << 20, 128, 1, 131072, 8192, "l2_cg_16MiB"},
    {24 << 20, 128, 1, 196608, 8192, "l2_cg_24MiB"},
    {32 << 20, 128, 1, 262144, 8192, "l2_cg_32MiB"},
    {1LL << 30, 4096, 1, 0, 4096, "dram_cg_1GiB_stride4KiB"},
    {1LL << 30, 128 * 1031, 1, 0, 4096, "dram_cg_1GiB_stride131968B"},
    {1LL << 30, 2 << 20, 1, 0, 512, "dram_cg_1GiB_stride2MiB"},
  };
  for (auto& c : ch) {
    chase_init<<<1024, 256>>>(big, c.bytes, c.stride); CK(cudaDeviceSynchronize());
    bw_write<<<nsm * 8, 512>>>((float4*)flush, (256LL << 20) / 16); CK(cudaDeviceSynchronize());   // evict L2
    chase<<<1, 1>>>((unsigned long long*)big, c.warm, c.n, c.mode, d_t); CK(cudaDeviceSynchronize());
    auto h = get_t(1); snprintf(p, sizeof p, "%s", c.name); row("latency", p, (double)h[0] / c.n, "cycles/load");
  }
  // L2 near/far per SM
  { int nl = quick ? 16 : 128, reps = 16;
    selfptr_init<<<(nl + 255) / 256, 256>>>((unsigned long long*)big, nl); CK(cudaDeviceSynchronize());
    int* d_nf; CK(cudaMalloc(&d_nf, (size_t)nsm * (nl + 1) * 4));
    l2_nearfar<<<nsm, 1>>>((unsigned long long*)big, nl, reps, d_nf); CK(cudaDeviceSynchronize());
    std::vector<int> h((size_t)nsm * (nl + 1)); CK(cudaMemcpy(h.data(), d_nf, h.size() * 4, cudaMemcpyDeviceToHost));
    snprintf(p, sizeof p, "%s/l2_nearfar.csv", outdir);
    FILE* f = fopen(p, "w");
    std::vector<int> all;
    if (f) fprintf(f, "block,smid,line_offset_bytes,cycles_per_load\n");
    for (int b = 0; b < nsm; ++b) for (int l = 0; l < nl; ++l) {
      int v = h[(size_t)b * (nl + 1) + 1 + l]; all.push_back(v);
      if (f) fprintf(f, "%d,%d,%d,%d\n", b, h[(size_t)b * (nl + 1)], l * 128, v); }
    if (f) fclose(f);
    std::sort(all.begin(), all.end());
    row("l2_nearfar", "min", all.front(), "cycles/load"); row("l2_nearfar", "p10", all[all.size() / 10], "cycles/load");
    row("l2_nearfar", "median", all[all.size() / 2], "cycles/load"); row("l2_nearfar", "p90", all[all.size() * 9 / 10], "cycles/load");
    row("l2_nearfar", "max", all.back(), "cycles/load");
    CK(cudaFree(d_nf)); }
  // atomic latency
  CK(cudaMemset(d_out, 0, 4096));
  atom_lat<<<1, 1>>>((unsigned*)d_out, 0u, 1024, d_t); CK(cudaDeviceSynchronize());
  { auto h = get_t(1); row("latency", "atom_global_add_dependent", h[0] / 1024.0, "cycles/op (incl. LOP+LEA)"); }

  // issue throughput per SM
  int wl[] = {1, 2, 4, 8, 16, 32, 64};
  int tpit = quick ? 8 : 64;
#define RUNTP(name, buf) for (int w : wl) { int thr = w <= 32 ? 32 * w : 1024, nb = w <= 32 ? nsm : 2 * nsm; \
    tp_##name<<<nb, thr>>>((decltype(buf))buf, (decltype(buf))d_out, d_t, tpit); CK(cudaDeviceSynchronize()); \
    double bps; double r = per_sm_rate(nb, (double)thr * tpit * 32, &bps); \
    snprintf(p, sizeof p, "warps_per_sm=%d", (int)(bps * thr / 32 + 0.5)); \
    row("throughput_" #name, p, r, "thread-ops/cycle/SM"); }
  RUNTP(ffma, d_f) RUNTP(fadd, d_f) RUNTP(imad, d_i) RUNTP(iadd, d_i) RUNTP(mufu_ex2, d_f) RUNTP(mufu_rsqrt, d_f) RUNTP(dfma, d_d)
  for (int w : wl) { int thr = w <= 32 ? 32 * w : 1024, nb = w <= 32 ? nsm : 2 * nsm;
    tp_lds32<<<nb, thr>>>(d_i, (int*)d_out, d_t, tpit); CK(cudaDeviceSynchronize());
    double bps; double r = per_sm_rate(nb, (double)thr * tpit * 16 * 4, &bps);
    snprintf(p, sizeof p, "warps_per_sm=%d", (int)(bps * thr / 32 + 0.5)); row("throughput_lds32", p, r, "bytes/cycle/SM");
    tp_lds128<<<nb, thr>>>(d_i, (int*)d_out, d_t, tpit); CK(cudaDeviceSynchronize());
    r = per_sm_rate(nb, (double)thr * tpit * 8 * 16, &bps); row("throughput_lds128", p, r, "bytes/cycle/SM"); }

  // bank conflicts
  for (int k = 1; k <= 32; k *= 2) {
    for (int w : {1, 32}) {
      bank_tp<<<1, 32 * w>>>(k, tpit * 8, (int*)d_out, d_t); CK(cudaDeviceSynchronize());
      auto h = get_t(1); snprintf(p, sizeof p, "ways=%d warps=%d", k, w);
      row("bank_conflict_issue", p, (double)h[0] / (w * tpit * 8 * 8.0), "cycles/warp-LDS"); }
    bank_lat<<<1, 32>>>(k, 512, d_t); CK(cudaDeviceSynchronize());
    auto h = get_t(1); snprintf(p, sizeof p, "ways=%d", k); row("bank_conflict_latency", p, h[0] / 512.0, "cycles/load");
  }

  // bandwidths
  cudaEvent_t e0, e1; CK(cudaEventCreate(&e0)); CK(cudaEventCreate(&e1));
  float ms;
  { long long n4full = (long long)bigbytes / 16;
    int nb = nsm * 8, th = 512; int reps = quick ? 1 : 5;
    float best;
    bw_write<<<nb, th>>>((float4*)big, n4full); CK(cudaDeviceSynchronize());
    best = 1e30f; for (int r = 0; r < reps; ++r) { CK(cudaEventRecord(e0)); bw_read<<<nb, th>>>((const float4*)big, n4full, d_out); CK(cudaEventRecord(e1)); CK(cudaEventSynchronize(e1)); CK(cudaEventElapsedTime(&ms, e0, e1)); best = std::min(best, ms); }
    row("dram_bw", "read_1GiB", bigbytes / (best * 1e6), "GB/s");
    best = 1e30f; for (int r = 0; r < reps; ++r) { CK(cudaEventRecord(e0)); bw_write<<<nb, th>>>((float4*)big, n4full); CK(cudaEventRecord(e1)); CK(cudaEventSynchronize(e1)); CK(cudaEventElapsedTime(&ms, e0, e1)); best = std::min(best, ms); }
    row("dram_bw", "write_1GiB", bigbytes / (best * 1e6), "GB/s");
    best = 1e30f; for (int r = 0; r < reps; ++r) { CK(cudaEventRecord(e0)); bw_copy<<<nb, th>>>((const float4*)big, (float4*)big2, n4full); CK(cudaEventRecord(e1)); CK(cudaEventSynchronize(e1)); CK(cudaEventElapsedTime(&ms, e0, e1)); best = std::min(best, ms); }
    row("dram_bw", "copy_1GiB_to_1GiB_read_plus_write", 2.0 * bigbytes / (best * 1e6), "GB/s");
    { char* big3; CK(cudaMalloc(&big3, bigbytes));
      best = 1e30f; for (int r = 0; r < reps; ++r) { CK(cudaEventRecord(e0)); bw_add<<<nb, th>>>((const float4*)big, (const float4*)big2, (float4*)big3, n4full); CK(cudaEventRecord(e1)); CK(cudaEventSynchronize(e1)); CK(cudaEventElapsedTime(&ms, e0, e1)); best = std::min(best, ms); }
      row("dram_bw", "add_2x1GiB_read_1GiB_write_all_bytes", 3.0 * bigbytes / (best * 1e6), "GB/s");
      CK(cudaFree(big3)); }
    // latency under load: one-thread chase (stream s2) while 264 blocks x 512 threads stream-read 1 GiB (stream s1)
    { cudaStream_t s1, s2; CK(cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking)); CK(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking));
      struct { long long bytes, stride; int warm, n; const char* name; } lc[] = {
        {1LL << 30, 4096, 0, 2048, "dram_cg_1GiB_stride4KiB_under_read_load"},
        {4 << 20, 128, 32768, 4096, "l2_hit_cg_4MiB_under_read_load"} };
      for (auto& c : lc) {
        chase_init<<<1024, 256>>>(big2, c.bytes, c.stride); CK(cudaDeviceSynchronize());
        bw_write<<<nsm * 8, 512>>>((float4*)flush, (256LL << 20) / 16); CK(cudaDeviceSynchronize());
        int passes = quick ? 4 : 40;
        CK(cudaEventRecord(e0, s1)); bw_read_passes<<<nsm * 2, 512, 0, s1>>>((const float4*)big, n4full, passes, d_out); CK(cudaEventRecord(e1, s1));
        chase<<<1, 1, 0, s2>>>((unsigned long long*)big2, c.warm, c.n, 1, d_t);
        CK(cudaDeviceSynchronize()); CK(cudaEventElapsedTime(&ms, e0, e1));
        auto h = get_t(1); row("latency", c.name, (double)h[0] / c.n, "cycles/load");
        snprintf(p, sizeof p, "load_during_%s", c.name); row("dram_bw", p, (double)passes * bigbytes / (ms * 1e6), "GB/s (whole load kernel)");
      }
      CK(cudaStreamDestroy(s1)); CK(cudaStreamDestroy(s2)); }
    // L2: 8 MiB working set, ld.cg, all SMs
    long long w4 = (8 << 20) / 16; int passes = quick ? 4 : 64; int nbl = nsm * 2, thl = 1024;
    bw_l2<<<nbl, thl>>>((const float4*)big, w4, 1, d_out, d_t); CK(cudaDeviceSynchronize());
    CK(cudaEventRecord(e0)); bw_l2<<<nbl, thl>>>((const float4*)big, w4, passes, d_out, d_t); CK(cudaEventRecord(e1)); CK(cudaEventSynchronize(e1)); CK(cudaEventElapsedTime(&ms, e0, e1));
    row("l2_bw", "8MiB_ldcg_all_SMs", (double)(8 << 20) * passes / (ms * 1e6), "GB/s");
    double bps; double r = per_sm_rate(nbl, (double)(8 << 20) * passes / nbl, &bps);
    row("l2_bw", "8MiB_ldcg_all_SMs", r, "bytes/cycle/SM");
    // L1: 16 KiB per block re-read
    int pl = quick ? 8 : 256;
    bw_l1<<<nsm, 1024>>>((const float4*)big, pl, d_out, d_t); CK(cudaDeviceSynchronize());
    r = per_sm_rate(nsm, 16384.0 * pl, &bps);
    row("l1_bw", "16KiB_per_block_ldca_1024_threads", r, "bytes/cycle/SM");
  }

  // barrier
  for (int w : {1, 2, 4, 8, 16, 32}) {
    barrier<<<1, 32 * w>>>(1024, d_t); CK(cudaDeviceSynchronize());
    auto h = get_t(1); snprintf(p, sizeof p, "warps=%d", w); row("barrier", p, h[0] / 1024.0, "cycles/bar.sync");
  }
  // atomics
  { int ai = quick ? 4 : 64;
    for (int distinct : {0, 1}) {
      CK(cudaMemset(big, 0, (size_t)nsm * 1024 * 4));
      atom_global<<<nsm, 1024>>>((unsigned*)big, distinct, ai, d_t); CK(cudaDeviceSynchronize());
      CK(cudaEventRecord(e0)); atom_global<<<nsm, 1024>>>((unsigned*)big, distinct, ai, d_t); CK(cudaEventRecord(e1)); CK(cudaEventSynchronize(e1)); CK(cudaEventElapsedTime(&ms, e0, e1));
      double tot = (double)nsm * 1024 * ai;
      row("atomic_global", distinct ? "distinct_addresses_all_SMs" : "same_address_all_SMs", tot / (ms * 1e6), "atomics/ns");
      double bps, r;
      atom_shared<<<nsm, 1024>>>(distinct, ai, (unsigned*)d_out, d_t); CK(cudaDeviceSynchronize());
      r = per_sm_rate(nsm, 1024.0 * ai, &bps);
      row("atomic_shared", distinct ? "distinct_addresses_1024_threads" : "same_address_1024_threads", r, "thread-atomics/cycle/SM");
    } }
  // launch overhead with events
  { int n = quick ? 100 : 2000;
    empty_kernel<<<1, 32>>>(); CK(cudaDeviceSynchronize());
    CK(cudaEventRecord(e0)); for (int i = 0; i < n; ++i) empty_kernel<<<1, 32>>>(); CK(cudaEventRecord(e1)); CK(cudaEventSynchronize(e1)); CK(cudaEventElapsedTime(&ms, e0, e1));
    row("launch_events", "empty_back_to_back_grid1", ms * 1000.0 / n, "us/launch");
    CK(cudaEventRecord(e0)); for (int i = 0; i < n; ++i) empty_kernel<<<1024, 256>>>(); CK(cudaEventRecord(e1)); CK(cudaEventSynchronize(e1)); CK(cudaEventElapsedTime(&ms, e0, e1));
    row("launch_events", "empty_back_to_back_grid1024x256", ms * 1000.0 / n, "us/launch"); }
  clk_freq<<<1, 1>>>(d_t, 20000000LL); CK(cudaDeviceSynchronize());
  { auto h = get_t(2); row("clock", "sm_clock_end_of_run", (double)h[0] / h[1] * 1000.0, "MHz"); }
  return 0;
}
