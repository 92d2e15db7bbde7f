// half.cu - half-precision kernels as nvcc compiles them (cuda_fp16.h,
// cuda_bf16.h), for gpusim's .f16 .f16x2 .bf16 .bf16x2 support.
//
//   nvcc -O3 -arch=sm_90 -ptx half.cu -o half.ptx      (the PTX gpusim runs)
//   nvcc -O3 -arch=sm_90 half.cu -o half && ./half DIR   (on an H100: writes
//       DIR/in_h.txt in_f.txt out_h.txt out_b.txt out_c.txt, the inputs and
//       the hardware's results of the checking kernels, and prints the test
//       kernels' results)
//
// haxpy, bf16_dot and hcount are the test kernels (haxpy.s, bf16.s);
// f16ops, bf16ops and cvts put every operation on many inputs, and
// hw_f16.s, hw_bf16.s, hw_cvt.s compare gpusim's results with the H100's.
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <cstdio>
#include <cstdlib>

// y = a*x + y on pairs of halves (HFMA2)
extern "C" __global__ void haxpy(int n2, float a, const __half2 *x, __half2 *y)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    __half2 a2 = __float2half2_rn(a);
    if (i < n2) y[i] = __hfma2(a2, x[i], y[i]);
}

// out += x[i] * y[i] on bf16 pairs, reduced with atomicAdd on __nv_bfloat162
extern "C" __global__ void bf16_dot(int n2, const __nv_bfloat162 *x, const __nv_bfloat162 *y, __nv_bfloat162 *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n2) atomicAdd(out, __hmul2(x[i], y[i]));
}

// every thread adds 1 to *count (atom.add.noftz.f16) and writes its float
// index as bf16 and back (cvt.rn.bf16.f32, cvt.f32.bf16)
extern "C" __global__ void hcount(__half *count, float *back, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    atomicAdd(count, __float2half(1.0f));
    __nv_bfloat16 b = __float2bfloat16((float)i * 1.01f);
    back[i] = __bfloat162float(b);
}

extern "C" __global__ void f16ops(const unsigned short *in, unsigned short *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    __half a = __ushort_as_half(in[i]), b = __ushort_as_half(in[n + i]), c = __ushort_as_half(in[2 * n + i]);
    out[0 * n + i] = __half_as_ushort(__hadd(a, b));
    out[1 * n + i] = __half_as_ushort(__hsub(a, b));
    out[2 * n + i] = __half_as_ushort(__hmul(a, b));
    out[3 * n + i] = __half_as_ushort(__hfma(a, b, c));
    out[4 * n + i] = __half_as_ushort(__hmin(a, b));
    out[5 * n + i] = __half_as_ushort(__hmax(a, b));
    out[6 * n + i] = __half_as_ushort(__hmin_nan(a, b));
    out[7 * n + i] = __half_as_ushort(__hneg(a));
    out[8 * n + i] = __half_as_ushort(__habs(a));
    out[9 * n + i] = __half_as_ushort(__hfma_sat(a, b, c));
    out[10 * n + i] = __half_as_ushort(__hfma_relu(a, b, c));
    out[11 * n + i] = (unsigned short)(__hlt(a, b) | __hgtu(a, b) << 1 | __heq(a, b) << 2 | __hleu(a, b) << 3);
    __half2 x = __halves2half2(a, b), y = __halves2half2(c, a);
    __half2 s = __hfma2(x, y, x);
    out[12 * n + i] = __half_as_ushort(__low2half(s));
    out[13 * n + i] = __half_as_ushort(__high2half(s));
    out[14 * n + i] = (unsigned short)(__hblt2(x, y) | __hbgeu2(x, y) << 1);
    __half2 m = __hmax2(x, y);
    out[15 * n + i] = __half_as_ushort(__low2half(m)) ^ __half_as_ushort(__high2half(m));
}

extern "C" __global__ void bf16ops(const unsigned short *in, unsigned short *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    __nv_bfloat16 a = __ushort_as_bfloat16(in[i]), b = __ushort_as_bfloat16(in[n + i]), c = __ushort_as_bfloat16(in[2 * n + i]);
    out[0 * n + i] = __bfloat16_as_ushort(__hadd(a, b));
    out[1 * n + i] = __bfloat16_as_ushort(__hsub(a, b));
    out[2 * n + i] = __bfloat16_as_ushort(__hmul(a, b));
    out[3 * n + i] = __bfloat16_as_ushort(__hfma(a, b, c));
    out[4 * n + i] = __bfloat16_as_ushort(__hmin(a, b));
    out[5 * n + i] = __bfloat16_as_ushort(__hmax(a, b));
    out[6 * n + i] = __bfloat16_as_ushort(__hmax_nan(a, b));
    out[7 * n + i] = __bfloat16_as_ushort(__hneg(a));
    out[8 * n + i] = __bfloat16_as_ushort(__habs(a));
    out[9 * n + i] = __bfloat16_as_ushort(__hfma_relu(a, b, c));
    out[10 * n + i] = (unsigned short)(__hlt(a, b) | __hgtu(a, b) << 1 | __heq(a, b) << 2 | __hleu(a, b) << 3);
    __nv_bfloat162 x = __halves2bfloat162(a, b), y = __halves2bfloat162(c, a);
    __nv_bfloat162 s = __hfma2(x, y, x);
    out[11 * n + i] = __bfloat16_as_ushort(__low2bfloat16(s));
    out[12 * n + i] = __bfloat16_as_ushort(__high2bfloat16(s));
    __nv_bfloat162 t = __hadd2(x, y);
    out[13 * n + i] = __bfloat16_as_ushort(__low2bfloat16(t)) ^ __bfloat16_as_ushort(__high2bfloat16(t));
}

extern "C" __global__ void cvts(const unsigned *in, unsigned *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float x = __uint_as_float(in[i]), y = __uint_as_float(in[(i + 1) % n]);
    __half h = __ushort_as_half((unsigned short)in[i]);
    __nv_bfloat16 bh = __ushort_as_bfloat16((unsigned short)(in[i] >> 16));
    out[0 * n + i] = __half_as_ushort(__float2half_rn(x));
    out[1 * n + i] = __half_as_ushort(__float2half_rz(x));
    out[2 * n + i] = __half_as_ushort(__float2half_rd(x));
    out[3 * n + i] = __half_as_ushort(__float2half_ru(x));
    out[4 * n + i] = __bfloat16_as_ushort(__float2bfloat16_rn(x));
    out[5 * n + i] = __bfloat16_as_ushort(__float2bfloat16_rz(x));
    out[6 * n + i] = __bfloat16_as_ushort(__float2bfloat16_rd(x));
    out[7 * n + i] = __bfloat16_as_ushort(__float2bfloat16_ru(x));
    out[8 * n + i] = __half_as_ushort(__int2half_rn((int)in[i]));
    out[9 * n + i] = __half_as_ushort(__ll2half_rn((long long)(int)in[i] * 3LL));
    out[10 * n + i] = __bfloat16_as_ushort(__int2bfloat16_rn((int)in[i]));
    __half2 p = __floats2half2_rn(x, y);
    out[11 * n + i] = *(unsigned *)&p;
    __nv_bfloat162 q = __floats2bfloat162_rn(x, y);
    out[12 * n + i] = *(unsigned *)&q;
    out[13 * n + i] = __float_as_uint(__half2float(h));
    out[14 * n + i] = __float_as_uint(__bfloat162float(bh));
    out[15 * n + i] = (unsigned)__half2int_rz(h);
    out[16 * n + i] = (unsigned)__half2int_rn(h);
    out[17 * n + i] = __half_as_ushort(__double2half((double)x * (1.0 + 0x1p-40)));
}

static unsigned long long rng = 88172645463325252ull;
static unsigned next_u32(void) { rng ^= rng << 13; rng ^= rng >> 7; rng ^= rng << 17; return (unsigned)(rng >> 16); }

static void write_u(const char *dir, const char *name, const unsigned *v, size_t n)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    for (size_t i = 0; i < n; i++) fprintf(f, "%u\n", v[i]);
    fclose(f);
}

int main(int argc, char **argv)
{
    const char *dir = argc > 1 ? argv[1] : ".";
    const int N = 4096;
    static const unsigned short sp16[] = { 0x0000, 0x8000, 0x0001, 0x8001, 0x03ff, 0x0400, 0x3c00, 0x3c01, 0x7bff, 0xfbff,
                                           0x7c00, 0xfc00, 0x7e00, 0x7fff, 0xffff, 0x3555, 0x4000, 0xbc00, 0x3800, 0x0200,
                                           0x7f80, 0xff80, 0x7f7f, 0x0080, 0x007f, 0x3f80, 0x3f81, 0xbf80 };
    static const unsigned sp32[] = { 0x00000000, 0x80000000, 0x3f800000, 0x477fe000, 0x477ff000, 0x477fefff, 0x33800000,
                                     0x33000000, 0x33400000, 0x3dcccccd, 0x2edbe6ff, 0x7f800000, 0xff800000, 0x7fc00000,
                                     0x7f7fffff, 0x00000001, 0x3f808000, 0x3f818000, 0x3f800001, 0x3f802000, 0x3f801000,
                                     0x3f803000, 0x387fc000, 0x38800000, 0x33c00000, 0xc77ff000, 0x7f7f8000, 0x7f7fffff,
                                     0x00800000, 0x007fffff, 0x0000ffff, 0x80018000 };
    unsigned *h = (unsigned *)malloc(3 * N * sizeof *h), *f = (unsigned *)malloc(N * sizeof *f);
    unsigned short *h16 = (unsigned short *)malloc(3 * N * 2);
    size_t nsp16 = sizeof sp16 / sizeof sp16[0], nsp32 = sizeof sp32 / sizeof sp32[0];
    for (int i = 0; i < 3 * N; i++) {
        int k = i % N;
        unsigned v = next_u32() & 0xffff;
        if (k < (int)(nsp16 * nsp16)) v = i < N ? sp16[k / nsp16] : i < 2 * N ? sp16[k % nsp16] : sp16[(k * 7) % nsp16];
        else if (k % 3 == 0) v = (v & 0x83ff) | ((unsigned)(k % 30) << 10);   /* f16 exponents near 1 */
        h[i] = v;
        h16[i] = (unsigned short)v;
    }
    for (int i = 0; i < N; i++) {
        unsigned v = next_u32();
        if (i < (int)nsp32) v = sp32[i];
        else if (i % 4 == 1) v = (v & 0x807fffff) | ((unsigned)(100 + (i % 60)) << 23);        /* around the f16 range */
        else if (i % 4 == 2) v = (v & 0x807fe000) | 0x1000 | ((unsigned)(103 + (i % 40)) << 23); /* f16 ties */
        else if (i % 4 == 3) v = (v & 0xffff0000) | 0x8000;                                      /* bf16 ties */
        f[i] = v;
    }
    unsigned short *din, *dout16; unsigned *dinf, *dout32;
    cudaMalloc(&din, 3 * N * 2); cudaMalloc(&dout16, 16 * N * 2);
    cudaMalloc(&dinf, N * 4); cudaMalloc(&dout32, 18 * N * 4);
    cudaMemcpy(din, h16, 3 * N * 2, cudaMemcpyHostToDevice);
    cudaMemcpy(dinf, f, N * 4, cudaMemcpyHostToDevice);
    unsigned short *o16 = (unsigned short *)malloc(16 * N * 2);
    unsigned *o = (unsigned *)malloc(18 * N * 4);
    write_u(dir, "in_h.txt", h, 3 * N);
    write_u(dir, "in_f.txt", f, N);
    f16ops<<<N / 256, 256>>>(din, dout16, N);
    cudaMemcpy(o16, dout16, 16 * N * 2, cudaMemcpyDeviceToHost);
    for (int i = 0; i < 16 * N; i++) o[i] = o16[i];
    write_u(dir, "out_h.txt", o, 16 * N);
    bf16ops<<<N / 256, 256>>>(din, dout16, N);
    cudaMemcpy(o16, dout16, 14 * N * 2, cudaMemcpyDeviceToHost);
    for (int i = 0; i < 14 * N; i++) o[i] = o16[i];
    write_u(dir, "out_b.txt", o, 14 * N);
    cvts<<<N / 256, 256>>>(dinf, dout32, N);
    cudaMemcpy(o, dout32, 18 * N * 4, cudaMemcpyDeviceToHost);
    write_u(dir, "out_c.txt", o, 18 * N);

    /* the test kernels' results */
    const int n2 = 64;
    __half2 hx[n2], hy[n2];
    for (int i = 0; i < n2; i++) { hx[i] = __floats2half2_rn(i * 0.5f, -i * 0.25f); hy[i] = __floats2half2_rn(1.0f, i * 0.125f); }
    __half2 *dx, *dy;
    cudaMalloc(&dx, sizeof hx); cudaMalloc(&dy, sizeof hy);
    cudaMemcpy(dx, hx, sizeof hx, cudaMemcpyHostToDevice); cudaMemcpy(dy, hy, sizeof hy, cudaMemcpyHostToDevice);
    haxpy<<<1, 64>>>(n2, 3.0f, dx, dy);
    cudaMemcpy(hy, dy, sizeof hy, cudaMemcpyDeviceToHost);
    printf("haxpy y:");
    for (int i = 0; i < n2; i++) printf(" %g %g", __low2float(hy[i]), __high2float(hy[i]));
    printf("\n");
    __nv_bfloat162 bx[n2], by[n2], bo = __floats2bfloat162_rn(0, 0);
    for (int i = 0; i < n2; i++) { bx[i] = __floats2bfloat162_rn(i % 8, 1); by[i] = __floats2bfloat162_rn(2, i % 4); }
    __nv_bfloat162 *dbx, *dby, *dbo;
    cudaMalloc(&dbx, sizeof bx); cudaMalloc(&dby, sizeof by); cudaMalloc(&dbo, sizeof bo);
    cudaMemcpy(dbx, bx, sizeof bx, cudaMemcpyHostToDevice); cudaMemcpy(dby, by, sizeof by, cudaMemcpyHostToDevice);
    cudaMemcpy(dbo, &bo, sizeof bo, cudaMemcpyHostToDevice);
    bf16_dot<<<1, 64>>>(n2, dbx, dby, dbo);
    cudaMemcpy(&bo, dbo, sizeof bo, cudaMemcpyDeviceToHost);
    printf("bf16_dot: %g %g\n", __low2float(bo), __high2float(bo));
    __half *dc; float *dback, back[300];
    cudaMalloc(&dc, 2); cudaMemset(dc, 0, 2); cudaMalloc(&dback, sizeof back);
    hcount<<<2, 150>>>(dc, dback, 300);
    __half cnt;
    cudaMemcpy(&cnt, dc, 2, cudaMemcpyDeviceToHost); cudaMemcpy(back, dback, sizeof back, cudaMemcpyDeviceToHost);
    printf("hcount: %g back:", __half2float(cnt));
    for (int i = 0; i < 300; i++) printf(" %.9g", back[i]);
    printf("\nstatus: %s\n", cudaGetErrorString(cudaDeviceSynchronize()));
    return 0;
}
