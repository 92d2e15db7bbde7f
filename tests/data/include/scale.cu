// scale.cu - the CUDA kernel of docs/kernel-format.md's nvcc walk-through;
// scale.ptx is what `nvcc -O3 -arch=sm_90 -lineinfo -ptx scale.cu` wrote.
extern "C" __global__ void scale(const float *x, float *y, float a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i];
}
