// gpusim H100 microbenchmark (issue 13): L2 throughput of partial-sector
// writes against full-sector writes, and of loads of the same patterns.
// A 16 MiB region (L2-resident on the 50 MB L2, warmed by a coalesced write
// first) is written / read `passes` times by 8 blocks per SM x 512 threads;
// cudaEvents time each launch, best of 5.  Block 0's thread 0 records clock64
// and %globaltimer around its work: the SM clock under load.
// usage: partial [OUTCSV]   (CSV also on stdout)
// Patterns (a sector is 32 bytes; "items" per pass):
//   a  coalesced st.global.f32, 4M items: 8 lanes fill a sector (full)
//   b  st.global.f32 at a 32-byte stride, 512K items: one 4-byte partial sector each
//   c  st.global.f32 at a 128-byte stride, 128K items: one partial sector per line
//   d  st.global.v4.f32 at a 32-byte stride, 512K items: half sectors
//   e  8 x st.global.f32 per lane, the lane's own sector, 512K items: each
//      instruction writes 32 sectors 4 bytes each; the 8 together cover it
//   f  st.global.v4.f32 coalesced, 1M items (full sectors, 16 B per lane)
//   g  red.global.add.u32 at a 32-byte stride, 512K items (one word per sector)
//   h  red.global.add.u32 coalesced, 4M items
// Loads: the same address patterns with ld.global.cg (L2, no L1 allocation).
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda_runtime.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  fprintf(stderr, "CUDA error %s at %s:%d\n", cudaGetErrorString(e_), __FILE__, __LINE__); exit(1); } } while (0)

#define REGION (16u << 20)

__device__ __forceinline__ void stamp0(long long* tt, int k) {
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    unsigned long long g; asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(g));
    tt[2 * k] = clock64(); tt[2 * k + 1] = (long long)g; }
}

// pattern id, load (0/1); items per pass and stores per item are set on the host
extern "C" __global__ void pw(char* base, int pat, int load, int passes, long long nitems, float* out, long long* tt) {
  stamp0(tt, 0);
  float s = 0.f; unsigned u = 0;
  long long nth = (long long)gridDim.x * blockDim.x;
  long long t = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  float v = (float)threadIdx.x;
  for (int p = 0; p < passes; ++p) {
    for (long long i = t; i < nitems; i += nth) {
      char* a;
      switch (pat) {
      case 0: a = base + 4 * i; if (load) { float x; asm volatile("ld.global.cg.f32 %0, [%1];" : "=f"(x) : "l"(a)); s += x; }
              else asm volatile("st.global.f32 [%0], %1;" :: "l"(a), "f"(v) : "memory"); break;
      case 1: a = base + 32 * i; if (load) { float x; asm volatile("ld.global.cg.f32 %0, [%1];" : "=f"(x) : "l"(a)); s += x; }
              else asm volatile("st.global.f32 [%0], %1;" :: "l"(a), "f"(v) : "memory"); break;
      case 2: a = base + 128 * i; if (load) { float x; asm volatile("ld.global.cg.f32 %0, [%1];" : "=f"(x) : "l"(a)); s += x; }
              else asm volatile("st.global.f32 [%0], %1;" :: "l"(a), "f"(v) : "memory"); break;
      case 3: a = base + 32 * i; if (load) { float x, y, z, w; asm volatile("ld.global.cg.v4.f32 {%0,%1,%2,%3}, [%4];" : "=f"(x), "=f"(y), "=f"(z), "=f"(w) : "l"(a)); s += x + y + z + w; }
              else asm volatile("st.global.v4.f32 [%0], {%1,%1,%1,%1};" :: "l"(a), "f"(v) : "memory"); break;
      case 4: a = base + 32 * i;
              if (load) { float x0, x1, x2, x3, x4, x5, x6, x7;
                asm volatile("ld.global.cg.f32 %0, [%8]; ld.global.cg.f32 %1, [%8+4]; ld.global.cg.f32 %2, [%8+8]; ld.global.cg.f32 %3, [%8+12];"
                             "ld.global.cg.f32 %4, [%8+16]; ld.global.cg.f32 %5, [%8+20]; ld.global.cg.f32 %6, [%8+24]; ld.global.cg.f32 %7, [%8+28];"
                             : "=f"(x0), "=f"(x1), "=f"(x2), "=f"(x3), "=f"(x4), "=f"(x5), "=f"(x6), "=f"(x7) : "l"(a));
                s += x0 + x1 + x2 + x3 + x4 + x5 + x6 + x7; }
              else asm volatile("st.global.f32 [%0], %1; st.global.f32 [%0+4], %1; st.global.f32 [%0+8], %1; st.global.f32 [%0+12], %1;"
                                "st.global.f32 [%0+16], %1; st.global.f32 [%0+20], %1; st.global.f32 [%0+24], %1; st.global.f32 [%0+28], %1;"
                                :: "l"(a), "f"(v) : "memory");
              break;
      case 5: a = base + 16 * i; if (load) { float x, y, z, w; asm volatile("ld.global.cg.v4.f32 {%0,%1,%2,%3}, [%4];" : "=f"(x), "=f"(y), "=f"(z), "=f"(w) : "l"(a)); s += x + y + z + w; }
              else asm volatile("st.global.v4.f32 [%0], {%1,%1,%1,%1};" :: "l"(a), "f"(v) : "memory"); break;
      case 6: a = base + 32 * i; if (load) { unsigned x; asm volatile("ld.global.cg.u32 %0, [%1];" : "=r"(x) : "l"(a)); u += x; }
              else asm volatile("red.global.add.u32 [%0], 1;" :: "l"(a) : "memory"); break;
      default: a = base + 4 * i; if (load) { unsigned x; asm volatile("ld.global.cg.u32 %0, [%1];" : "=r"(x) : "l"(a)); u += x; }
              else asm volatile("red.global.add.u32 [%0], 1;" :: "l"(a) : "memory"); break;
      }
    }
    v += 1.f;
  }
  if (s == 1234.5f || u == 0xdeadbeefu) out[0] = s + u;
  stamp0(tt, 1);
}

extern "C" __global__ void warm(float* a, long long n) {
  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x) a[i] = 1.f;
}

int main(int argc, char** argv) {
  FILE* f = argc > 1 ? fopen(argv[1], "w") : NULL;
  cudaDeviceProp pr; CK(cudaGetDeviceProperties(&pr, 0));
  int nsm = pr.multiProcessorCount, blocks = 8 * nsm, threads = 512;
  char* d; float* dout; long long* dt;
  CK(cudaMalloc(&d, REGION)); CK(cudaMalloc(&dout, 64)); CK(cudaMalloc(&dt, 64));
  cudaEvent_t e0, e1; CK(cudaEventCreate(&e0)); CK(cudaEventCreate(&e1));
  const char* names[8] = {"a_coalesced_f32", "b_stride32_f32", "c_stride128_f32", "d_stride32_v4",
                          "e_8x_f32_own_sector", "f_coalesced_v4", "g_red_stride32", "h_red_coalesced"};
  const long long items[8] = {REGION / 4, REGION / 32, REGION / 128, REGION / 32, REGION / 32, REGION / 16, REGION / 32, REGION / 4};
  const int sect_per_item_x8[8] = {1, 8, 8, 8, 8, 4, 8, 1};  // sectors touched per item, times 8
  const int instr_per_item[8] = {1, 1, 1, 1, 8, 1, 1, 1};
  const int passes = 40;
  char hdr[] = "op,pattern,passes,sectors_per_pass,best_ms,sectors_per_ns,sm_clock_mhz,sectors_per_sm_cycle_gpu,sectors_per_sm_cycle_per_sm,bytes_written_per_ns,warp_instr_per_pass\n";
  printf("# device %s, %d SMs, L2 %d bytes; %d blocks x %d threads, region %u bytes\n", pr.name, nsm, pr.l2CacheSize, blocks, threads, REGION);
  printf("%s", hdr); if (f) fputs(hdr, f);
  for (int load = 0; load < 2; ++load)
    for (int pat = 0; pat < 8; ++pat) {
      warm<<<blocks, threads>>>((float*)d, REGION / 4); CK(cudaDeviceSynchronize());
      pw<<<blocks, threads>>>(d, pat, load, 1, items[pat], dout, dt); CK(cudaDeviceSynchronize());
      float best = 1e30f; double mhz = 0;
      for (int r = 0; r < 5; ++r) {
        CK(cudaEventRecord(e0));
        pw<<<blocks, threads>>>(d, pat, load, passes, items[pat], dout, dt);
        CK(cudaEventRecord(e1)); CK(cudaEventSynchronize(e1)); CK(cudaGetLastError());
        float ms; CK(cudaEventElapsedTime(&ms, e0, e1));
        long long h[4]; CK(cudaMemcpy(h, dt, 32, cudaMemcpyDeviceToHost));
        if (ms < best) { best = ms; mhz = (double)(h[2] - h[0]) / (double)(h[3] - h[1]) * 1000.0; }
      }
      double sectors = (double)items[pat] * sect_per_item_x8[pat] / 8.0;
      double spns = sectors * passes / (best * 1e6);
      double bytes_per_item = (pat == 0 || pat == 1 || pat == 2 || pat == 6 || pat == 7) ? 4 : (pat == 4 ? 32 : 16);
      char line[512];
      snprintf(line, sizeof line, "%s,%s,%d,%.0f,%.4f,%.4f,%.0f,%.3f,%.4f,%.2f,%.0f\n", load ? "load" : "store", names[pat], passes,
               sectors, best, spns, mhz, spns / (mhz / 1000.0), spns / (mhz / 1000.0) / nsm,
               (double)items[pat] * bytes_per_item * passes / (best * 1e6), (double)items[pat] * instr_per_item[pat] / 32.0);
      printf("%s", line); fflush(stdout); if (f) { fputs(line, f); fflush(f); }
    }
  if (f) fclose(f);
  return 0;
}
