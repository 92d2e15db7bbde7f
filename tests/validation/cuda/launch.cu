// gpusim launch-overhead kernels (issue 13): an empty kernel and a tiny one
// (one store per thread) at grids of 1..1024 blocks; profiled one launch each by ncu.
// usage: launch LAUNCHLOG.csv
#include <cstdio>
#include <cuda_runtime.h>
extern "C" __global__ void empty_kernel() {}
extern "C" __global__ void tiny_store(float* p) { p[blockIdx.x * blockDim.x + threadIdx.x] = 1.0f; }
int main(int argc, char** argv) {
  FILE* f = fopen(argc > 1 ? argv[1] : "launch_log.csv", "w");
  if (!f) return 1;
  fprintf(f, "kernel,launch,grid,block,args\n");
  float* p; if (cudaMalloc(&p, 1024 * 1024 * 4) != cudaSuccess) return 1;
  for (int b : {32, 256, 1024})
    for (int g = 1; g <= 1024; g *= 2) {
      empty_kernel<<<g, b>>>(); cudaDeviceSynchronize();
      fprintf(f, "empty_kernel,grid=%d block=%d,\"(%d, 1, 1)\",\"(%d, 1, 1)\",\n", g, b, g, b);
      tiny_store<<<g, b>>>(p); cudaDeviceSynchronize();
      fprintf(f, "tiny_store,grid=%d block=%d,\"(%d, 1, 1)\",\"(%d, 1, 1)\",p=f32[grid*block]\n", g, b, g, b);
    }
  cudaError_t e = cudaGetLastError();
  fclose(f);
  if (e != cudaSuccess) { fprintf(stderr, "%s\n", cudaGetErrorString(e)); return 1; }
  return 0;
}
