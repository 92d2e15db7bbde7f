// run_ptx.cu - gpusim's random test programs on a real GPU.
//
// `build/tests/test_exec_diff export DIR FROM N [BODY]` writes DIR/pSEED.ptx
// (a PTX module, entry `k(.param .u64 in, .param .u64 out)`, one block of
// 48 threads), DIR/pSEED.in (the input, one hex 64-bit value a line) and
// DIR/pSEED.gpusim (what gpusim leaves in `out`).  This loads each module
// with the CUDA driver (its JIT compiles the PTX for the GPU at hand), runs
// it on the same input and writes DIR/pSEED.gpu; compare_ptx_runs.py then
// says where the GPU and gpusim differ.
//
//   nvcc -O2 -o run_ptx run_ptx.cu -lcuda && ./run_ptx DIR FROM N
#include <cuda.h>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

static void check(CUresult r, const char *what, unsigned long long seed)
{
    if (r == CUDA_SUCCESS) return;
    const char *s = nullptr;
    cuGetErrorString(r, &s);
    fprintf(stderr, "program %llu: %s: %s\n", seed, what, s ? s : "?");
    exit(1);
}

int main(int argc, char **argv)
{
    if (argc != 4) { fprintf(stderr, "usage: run_ptx DIR FROM N\n"); return 2; }
    std::string dir = argv[1];
    unsigned long long from = strtoull(argv[2], nullptr, 10), n = strtoull(argv[3], nullptr, 10);
    CUdevice dev;
    CUcontext ctx;
    check(cuInit(0), "cuInit", 0);
    check(cuDeviceGet(&dev, 0), "cuDeviceGet", 0);
    check(cuDevicePrimaryCtxRetain(&ctx, dev), "context", 0);
    check(cuCtxSetCurrent(ctx), "context", 0);
    for (unsigned long long seed = from; seed < from + n; seed++) {
        std::string base = dir + "/p" + std::to_string(seed);
        FILE *f = fopen((base + ".ptx").c_str(), "rb");
        if (!f) { fprintf(stderr, "%s.ptx: missing\n", base.c_str()); return 1; }
        std::string ptx;
        char buf[65536];
        size_t k;
        while ((k = fread(buf, 1, sizeof buf, f)) > 0) ptx.append(buf, k);
        fclose(f);
        std::vector<unsigned long long> in;
        f = fopen((base + ".in").c_str(), "r");
        unsigned long long v;
        while (f && fscanf(f, "%llx", &v) == 1) in.push_back(v);
        if (f) fclose(f);
        CUmodule mod;
        CUfunction fn;
        char log[8192] = "";
        CUjit_option opt[] = { CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES };
        void *val[] = { log, (void *)(uintptr_t)sizeof log };
        CUresult r = cuModuleLoadDataEx(&mod, ptx.c_str(), 2, opt, val);
        if (r != CUDA_SUCCESS) { fprintf(stderr, "program %llu: JIT: %s\n", seed, log); return 1; }
        check(cuModuleGetFunction(&fn, mod, "k"), "function", seed);
        size_t bytes = in.size() * 8;
        CUdeviceptr din, dout;
        check(cuMemAlloc(&din, bytes), "alloc", seed);
        check(cuMemAlloc(&dout, bytes), "alloc", seed);
        check(cuMemcpyHtoD(din, in.data(), bytes), "copy", seed);
        check(cuMemsetD8(dout, 0, bytes), "memset", seed);
        void *args[] = { &din, &dout };
        check(cuLaunchKernel(fn, 1, 1, 1, 48, 1, 1, 0, 0, args, nullptr), "launch", seed);
        check(cuCtxSynchronize(), "run", seed);
        std::vector<unsigned long long> out(in.size());
        check(cuMemcpyDtoH(out.data(), dout, bytes), "copy back", seed);
        f = fopen((base + ".gpu").c_str(), "w");
        for (unsigned long long x : out) fprintf(f, "%016llx\n", x);
        fclose(f);
        cuMemFree(din);
        cuMemFree(dout);
        cuModuleUnload(mod);
    }
    printf("ran %llu programs\n", n);
    return 0;
}
