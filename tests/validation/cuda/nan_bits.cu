// nan_bits.cu - what bits an H100 gives for floating-point results that
// IEEE 754 leaves to the implementation: NaN payloads and signs (which NaN
// comes out of add, sub, mul, fma, min, max, div, sqrt, abs, neg and the
// conversions when one or more inputs are NaNs), for f32 and f64, by PTX
// instruction (inline asm, so the instruction is the one named; the
// operands come from global memory, so nothing is folded at compile time).
//
//   nvcc -arch=sm_90 -O3 -o nan_bits nan_bits.cu && ./nan_bits > nan_bits.csv
//
// CSV: op,a,b,c,result (hex bits; b and c empty where the op takes fewer).
// tests/validation/h100/measured/nan_bits.csv holds the H100's answers;
// test_exec checks gpusim against every row.
#include <cstdint>
#include <cstdio>
#include <vector>

enum Op {
    ADD32, SUB32, MUL32, FMA32, MIN32, MAX32, DIV32, SQRT32, ABS32, NEG32, CVT32TO64, ADDFTZ32,
    ADD64, SUB64, MUL64, FMA64, MIN64, MAX64, DIV64, SQRT64, ABS64, NEG64, CVT64TO32, NOPS
};
static const char *const names[NOPS] = {
    "add.rn.f32", "sub.rn.f32", "mul.rn.f32", "fma.rn.f32", "min.f32", "max.f32", "div.rn.f32", "sqrt.rn.f32",
    "abs.f32", "neg.f32", "cvt.f64.f32", "add.rn.ftz.f32",
    "add.rn.f64", "sub.rn.f64", "mul.rn.f64", "fma.rn.f64", "min.f64", "max.f64", "div.rn.f64", "sqrt.rn.f64",
    "abs.f64", "neg.f64", "cvt.rn.f32.f64",
};
static const int arity[NOPS] = { 2, 2, 2, 3, 2, 2, 2, 1, 1, 1, 1, 2, 2, 2, 2, 3, 2, 2, 2, 1, 1, 1, 1 };
static bool is64(int op) { return op >= ADD64; }

struct Case { int op; uint64_t a, b, c, r; };

__global__ void run(Case *cs, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    Case k = cs[i];
    uint32_t a = (uint32_t)k.a, b = (uint32_t)k.b, c = (uint32_t)k.c, r = 0;
    uint64_t r64 = 0;
    switch (k.op) {
    case ADD32: asm volatile("add.rn.f32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b)); break;
    case SUB32: asm volatile("sub.rn.f32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b)); break;
    case MUL32: asm volatile("mul.rn.f32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b)); break;
    case FMA32: asm volatile("fma.rn.f32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c)); break;
    case MIN32: asm volatile("min.f32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b)); break;
    case MAX32: asm volatile("max.f32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b)); break;
    case DIV32: asm volatile("div.rn.f32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b)); break;
    case SQRT32: asm volatile("sqrt.rn.f32 %0, %1;" : "=r"(r) : "r"(a)); break;
    case ABS32: asm volatile("abs.f32 %0, %1;" : "=r"(r) : "r"(a)); break;
    case NEG32: asm volatile("neg.f32 %0, %1;" : "=r"(r) : "r"(a)); break;
    case CVT32TO64: asm volatile("cvt.f64.f32 %0, %1;" : "=l"(r64) : "r"(a)); break;
    case ADDFTZ32: asm volatile("add.rn.ftz.f32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b)); break;
    case ADD64: asm volatile("add.rn.f64 %0, %1, %2;" : "=l"(r64) : "l"(k.a), "l"(k.b)); break;
    case SUB64: asm volatile("sub.rn.f64 %0, %1, %2;" : "=l"(r64) : "l"(k.a), "l"(k.b)); break;
    case MUL64: asm volatile("mul.rn.f64 %0, %1, %2;" : "=l"(r64) : "l"(k.a), "l"(k.b)); break;
    case FMA64: asm volatile("fma.rn.f64 %0, %1, %2, %3;" : "=l"(r64) : "l"(k.a), "l"(k.b), "l"(k.c)); break;
    case MIN64: asm volatile("min.f64 %0, %1, %2;" : "=l"(r64) : "l"(k.a), "l"(k.b)); break;
    case MAX64: asm volatile("max.f64 %0, %1, %2;" : "=l"(r64) : "l"(k.a), "l"(k.b)); break;
    case DIV64: asm volatile("div.rn.f64 %0, %1, %2;" : "=l"(r64) : "l"(k.a), "l"(k.b)); break;
    case SQRT64: asm volatile("sqrt.rn.f64 %0, %1;" : "=l"(r64) : "l"(k.a)); break;
    case ABS64: asm volatile("abs.f64 %0, %1;" : "=l"(r64) : "l"(k.a)); break;
    case NEG64: asm volatile("neg.f64 %0, %1;" : "=l"(r64) : "l"(k.a)); break;
    case CVT64TO32: asm volatile("cvt.rn.f32.f64 %0, %1;" : "=r"(r) : "l"(k.a)); break;
    }
    cs[i].r = (k.op >= ADD64 && k.op != CVT64TO32) || k.op == CVT32TO64 ? r64 : r;
}

int main()
{
    // NaNs of each kind (quiet, signalling, either sign, payloads), and
    // numbers that make NaNs (inf - inf, 0 * inf) or meet them
    const uint64_t v32[] = { 0x7fc00000, 0x7fffffff, 0xffc00001, 0x7fa00001, 0xff800001, 0x7fc12345,
                             0x3f800000, 0xc0200000, 0x7f800000, 0xff800000, 0x00000000, 0x80000000, 0x00000001 };
    const uint64_t v64[] = { 0x7ff8000000000000ull, 0x7fffffffffffffffull, 0xfff8000000000001ull, 0x7ff4000000000001ull,
                             0xfff0000000000001ull, 0x7ff8123456789abcull, 0x3ff0000000000000ull, 0xc004000000000000ull,
                             0x7ff0000000000000ull, 0xfff0000000000000ull, 0x0000000000000000ull, 0x8000000000000000ull,
                             0x0000000000000001ull };
    const int nv = sizeof v32 / sizeof v32[0];
    std::vector<Case> cs;
    for (int op = 0; op < NOPS; op++) {
        const uint64_t *v = is64(op) || op == CVT64TO32 ? v64 : v32;
        if (op == CVT32TO64) v = v32;
        if (arity[op] == 1)
            for (int i = 0; i < nv; i++) cs.push_back({ op, v[i], 0, 0, 0 });
        else if (arity[op] == 2)
            for (int i = 0; i < nv; i++)
                for (int j = 0; j < nv; j++) cs.push_back({ op, v[i], v[j], 0, 0 });
        else
            for (int i = 0; i < nv; i++)
                for (int j = 0; j < nv; j++)
                    for (int k = 0; k < nv; k++) cs.push_back({ op, v[i], v[j], v[k], 0 });
    }
    Case *d;
    cudaMalloc(&d, cs.size() * sizeof(Case));
    cudaMemcpy(d, cs.data(), cs.size() * sizeof(Case), cudaMemcpyHostToDevice);
    run<<<(unsigned)(cs.size() + 255) / 256, 256>>>(d, (int)cs.size());
    cudaMemcpy(cs.data(), d, cs.size() * sizeof(Case), cudaMemcpyDeviceToHost);
    if (cudaGetLastError() != cudaSuccess) { fprintf(stderr, "CUDA error\n"); return 1; }
    printf("op,a,b,c,result\n");
    for (const Case &k : cs) {
        int w64 = is64(k.op), rw64 = (w64 && k.op != CVT64TO32) || k.op == CVT32TO64;
        const char *fa = w64 ? "%016llx" : "%08llx", *fr = rw64 ? "%016llx" : "%08llx";
        printf("%s,", names[k.op]);
        printf(fa, (unsigned long long)k.a);
        printf(",");
        if (arity[k.op] > 1) printf(fa, (unsigned long long)k.b);
        printf(",");
        if (arity[k.op] > 2) printf(fa, (unsigned long long)k.c);
        printf(",");
        printf(fr, (unsigned long long)k.r);
        printf("\n");
    }
    return 0;
}
