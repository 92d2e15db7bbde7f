// more.cu - nvcc features of issue 14: dynamic shared memory, module
// variables, device functions (with recursion).
extern "C" __global__ void dyn_reverse(const int *in, int *out, int n)
{
    extern __shared__ int s[];
    int t = threadIdx.x;
    if (t < n) s[t] = in[t];
    __syncthreads();
    if (t < n) out[t] = s[n - 1 - t];
}

__device__ int gcount = 5;
__device__ int gtable[4] = {1, 2, 3, 4};
__constant__ float cscale[3] = {0.5f, 2.0f, 4.0f};

extern "C" __global__ void use_globals(float *out)
{
    int t = threadIdx.x;
    out[t] = cscale[t % 3] * gtable[t & 3] + gcount;
    if (t == 0) atomicAdd(&gcount, 1);
}

__device__ __noinline__ int add3(int a, int b, int c) { return a + b + c; }
__device__ __noinline__ int fact(int n) { return n <= 1 ? 1 : n * fact(n - 1); }

extern "C" __global__ void calls(int *out)
{
    int t = threadIdx.x;
    out[t] = add3(t, 1, 2) + fact(t % 6);
}
