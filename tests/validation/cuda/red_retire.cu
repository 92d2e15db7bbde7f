// red_retire.cu - does an SM stay active until its reductions are done?  Every thread
// of G blocks of 1024 adds 1 to one word N times: with red.global.add (the result
// unused: a posted write) or with atom.global.add whose result the kernel stores
// (the warp must wait for it).  ncu's sm__cycles_active.avg against
// gpc__cycles_elapsed.max says whether the SMs go idle while the memory system
// still works through the posted reductions.  One word takes 0.688 atomics a
// cycle (micro.csv), so G x 1024 x N of them take G x 1024 x N / 0.688 cycles.
// usage: red_retire (run it under ncu; it prints nothing)
#include <cstdio>
#include <cuda_runtime.h>
extern "C" __global__ void red_only(unsigned* p, int n) {
  for (int i = 0; i < n; i++) atomicAdd(p, 1u);
}
extern "C" __global__ void atom_ret(unsigned* p, unsigned* out, int n) {
  unsigned s = 0;
  for (int i = 0; i < n; i++) s += atomicAdd(p, 1u);
  out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}
int main() {
  unsigned *p, *out;
  cudaMalloc(&p, 4096); cudaMalloc(&out, 132 * 1024 * 4);
  int ns[] = {1, 4};
  for (int g : {8, 132})
    for (int n : ns) {
      red_only<<<g, 1024>>>(p, n);
      atom_ret<<<g, 1024>>>(p, out, n);
    }
  cudaDeviceSynchronize();
  printf("done\n");
  return 0;
}
