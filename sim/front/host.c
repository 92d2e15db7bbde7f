/* host.c - see host.h. */
#include "sim/front/host.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "isa/half.h"
#include "isa/suggest.h"

/* ---- element access ---------------------------------------------------------- */
static double get(const uint8_t *base, DataType t, uint64_t i)
{
    int bytes = isa_type_bits(t) / 8;
    const uint8_t *p = base + i * (uint64_t)bytes;
    uint64_t v = 0;
    /* copies of a constant size: single loads (a copy of `bytes` bytes is a
     * library call, and the references read K^2 elements an output) */
    switch (bytes) {
    case 1: v = p[0]; break;
    case 2: { uint16_t u; memcpy(&u, p, 2); v = u; break; }
    case 4: { uint32_t u; memcpy(&u, p, 4); v = u; break; }
    case 8: memcpy(&v, p, 8); break;
    default: break;                      /* no whole byte (.pred): 0 */
    }
    switch (isa_type_kind(t)) {
    case TK_FLOAT:
        if (bytes == 2) return half_decode((unsigned)v, t == T_BF16 ? HALF_BF16 : HALF_F16);
        if (bytes == 4) { float f; uint32_t u = (uint32_t)v; memcpy(&f, &u, 4); return f; }
        { double d; memcpy(&d, &v, 8); return d; }
    case TK_SINT: return (double)((int64_t)(v << (64 - bytes * 8)) >> (64 - bytes * 8));
    default: return (double)v;
    }
}

static void set(uint8_t *base, DataType t, uint64_t i, double x)
{
    int bytes = isa_type_bits(t) / 8;
    uint64_t v;
    if (isa_type_kind(t) == TK_FLOAT) {
        if (bytes == 2) v = half_encode(x, t == T_BF16 ? HALF_BF16 : HALF_F16, HALF_RN);   /* one rounding from the double */
        else if (bytes == 4) { float f = (float)x; uint32_t u; memcpy(&u, &f, 4); v = u; }
        else memcpy(&v, &x, 8);
    } else if (isa_type_kind(t) == TK_SINT) v = (uint64_t)(int64_t)x;
    else v = x <= 0 ? 0 : (uint64_t)x;
    memcpy(base + i * (uint64_t)bytes, &v, (size_t)bytes);
}

/* Integer elements, exactly: v's low bits stored; an element read back
 * as isa_int_canon gives it (sign- or zero-extended by its type). */
static void set_int(uint8_t *base, DataType t, uint64_t i, int64_t v)
{
    int bytes = isa_type_bits(t) / 8;
    memcpy(base + i * (uint64_t)bytes, &v, (size_t)bytes);   /* the low bytes (little-endian host) */
}

static int64_t get_int(const uint8_t *base, DataType t, uint64_t i)
{
    int bytes = isa_type_bits(t) / 8;
    int64_t v = 0;
    memcpy(&v, base + i * (uint64_t)bytes, (size_t)bytes);
    return isa_int_canon(t, v);
}

static int is_int_type(DataType t) { TypeKind k = isa_type_kind(t); return k == TK_SINT || k == TK_UINT || k == TK_BITS; }

/* An integer element's value as a double (a .u64 or .b64 above 2^63 reads
 * as unsigned): exact up to 2^53. */
static double int_num(int64_t v, DataType t) { return isa_type_kind(t) == TK_SINT ? (double)v : (double)(uint64_t)v; }

/* Two integer elements (of types at, bt) hold the same number. */
static int int_same(int64_t a, DataType at, int64_t b, DataType bt)
{
    if (a != b) return 0;
    /* equal bits: one number unless they are negative as int64_t, which a
     * signed type reads as below 0 and a 64-bit unsigned one as above 2^63 */
    return a >= 0 || (isa_type_kind(at) == TK_SINT) == (isa_type_kind(bt) == TK_SINT);
}

/* random(min=, max=) for integer type t from one draw (r, and u in [0,1)
 * made from it): uniform in [min, max].  Within +-2^53 by the doubles of
 * the first versions (the same buffers as before); beyond, where doubles
 * cannot hold every integer, by r modulo the span. */
static int64_t random_int(const BufferSpec *b, DataType t, uint64_t r, double u)
{
    double lo = int_num(b->ilo, t), hi = int_num(b->ihi, t);
    if (fabs(lo) <= 0x1p53 && fabs(hi) <= 0x1p53) return (int64_t)(lo + floor(u * (hi - lo + 1)));
    uint64_t span = (uint64_t)b->ihi - (uint64_t)b->ilo + 1;   /* 0: all 2^64 values */
    return (int64_t)((uint64_t)b->ilo + (span ? r % span : r));
}

/* splitmix64: a small, well-mixed, seedable generator; the same seed gives
 * the same buffer on every machine. */
static uint64_t next_random(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* ---- initialisation ----------------------------------------------------------- */
static int load_file(const Program *p, const BufferSpec *b, uint8_t *data, DiagList *dl)
{
    char path[4096];
    const char *file = program_where(p, b->line, NULL);   /* relative to the file that says it (.include) */
    const char *slash = strrchr(file, '/');
    if (b->path[0] != '/' && slash)
        snprintf(path, sizeof path, "%.*s/%s", (int)(slash - file), file, b->path);
    else
        snprintf(path, sizeof path, "%s", b->path);
    FILE *f = fopen(path, "r");
    if (!f) {
        diag_add(dl, p->filename, b->line, b->col, program_line(p, b->line, NULL),
                 "buffer %s: cannot open %s: %s", b->name, path, strerror(errno));
        return -1;
    }
    uint64_t i = 0;
    DataType t = (DataType)b->type;
    if (is_int_type(t)) {
        /* whole numbers, exactly: decimal (--dump writes them so) or 0x hex */
        char tok[64];
        while (i < b->count && fscanf(f, "%63s", tok) == 1) {
            char *end;
            errno = 0;
            const char *digits = tok + (tok[0] == '-' || tok[0] == '+');
            int base = digits[0] == '0' && (digits[1] == 'x' || digits[1] == 'X') ? 16 : 10;   /* 010 is ten, as before */
            int64_t v = tok[0] == '-' ? (int64_t)strtoll(tok, &end, base) : (int64_t)strtoull(tok, &end, base);
            if (*end || end == tok || errno || !isa_int_fits(t, v)) {
                diag_add(dl, p->filename, b->line, b->col, program_line(p, b->line, NULL),
                         "buffer %s: %s: number %" PRIu64 " is '%s', not a whole number that fits .%s", b->name, path,
                         i + 1, tok, isa_type_name(t));
                fclose(f);
                return -1;
            }
            set_int(data, t, i++, v);
        }
    } else {
        double x;
        while (i < b->count && fscanf(f, "%lf", &x) == 1) set(data, t, i++, x);
    }
    fclose(f);
    if (i < b->count) {
        diag_add(dl, p->filename, b->line, b->col, program_line(p, b->line, NULL),
                 "buffer %s: %s has %" PRIu64 " numbers, the buffer needs %" PRIu64, b->name, path, i, b->count);
        return -1;
    }
    return 0;
}

/* expr(EXPR) at element i: the postfix program on a stack; 64-bit signed,
 * wrapping + - * (as C's unsigned arithmetic), errors for / and % by zero
 * and shifts outside [0,63]. */
static int eval_expr(const BufferSpec *b, int64_t i, int64_t *stack, int64_t *out, const char **why)
{
    int n = 0;
    for (int k = 0; k < b->nexpr; k++) {
        const ExprOp *o = &b->expr[k];
        int64_t y = n ? stack[n - 1] : 0, x = n > 1 ? stack[n - 2] : 0;
        switch (o->op) {
        case EXPR_CONST: stack[n++] = o->v; continue;
        case EXPR_INDEX: stack[n++] = i; continue;
        case EXPR_NEG: stack[n - 1] = (int64_t)(0 - (uint64_t)y); continue;
        case EXPR_NOT: stack[n - 1] = ~y; continue;
        case EXPR_LNOT: stack[n - 1] = !y; continue;
        default: break;
        }
        int64_t r;
        switch (o->op) {
        case EXPR_MIN: r = x < y ? x : y; break;
        case EXPR_MAX: r = x > y ? x : y; break;
        case EXPR_ADD: r = (int64_t)((uint64_t)x + (uint64_t)y); break;
        case EXPR_SUB: r = (int64_t)((uint64_t)x - (uint64_t)y); break;
        case EXPR_MUL: r = (int64_t)((uint64_t)x * (uint64_t)y); break;
        case EXPR_DIV: case EXPR_REM:
            if (y == 0) { *why = "division by zero"; return -1; }
            if (x == INT64_MIN && y == -1) { *why = "integer overflow"; return -1; }
            r = o->op == EXPR_DIV ? x / y : x % y;
            break;
        case EXPR_SHL: case EXPR_SHR:
            if (y < 0 || y > 63) { *why = "a shift outside [0,63]"; return -1; }
            r = o->op == EXPR_SHL ? (int64_t)((uint64_t)x << y) : x >> y;
            break;
        case EXPR_AND: r = x & y; break;
        case EXPR_OR: r = x | y; break;
        case EXPR_XOR: r = x ^ y; break;
        default: *why = "a bad expression"; return -1;
        }
        stack[n - 2] = r;
        n--;
    }
    *out = stack[0];
    return 0;
}

static int init_expr(const Program *p, const BufferSpec *b, uint8_t *data, DiagList *dl)
{
    int64_t *stack = malloc((size_t)(b->nexpr ? b->nexpr : 1) * sizeof *stack);
    if (!stack) return -1;
    DataType t = (DataType)b->type;
    int bytes = isa_type_bits(t) / 8;
    for (uint64_t i = 0; i < b->count; i++) {
        int64_t v;
        const char *why;
        if (eval_expr(b, (int64_t)i, stack, &v, &why)) {
            diag_add(dl, p->filename, b->line, b->col, program_line(p, b->line, NULL),
                     "buffer %s: expr() at i = %llu: %s", b->name, (unsigned long long)i, why);
            free(stack);
            return -1;
        }
        if (isa_type_kind(t) == TK_FLOAT) set(data, t, i, (double)v);
        else memcpy(data + i * (uint64_t)bytes, &v, (size_t)bytes);   /* the low bytes, as a C cast */
    }
    free(stack);
    return 0;
}

int host_init_buffers(const Program *p, Memory *m, DiagList *dl)
{
    int rc = 0;
    for (int bi = 0; bi < p->nbuffers; bi++) {
        const BufferSpec *b = &p->buffers[bi];
        uint8_t *data = mem_region_of_buffer(m, bi)->data;
        DataType t = (DataType)b->type;
        int is_int = is_int_type(t);   /* integers exactly: b->ilo, ihi, ivalue, ivalues */
        uint64_t state = b->seed;
        switch ((InitKind)b->init) {
        case INIT_ZERO: break;   /* mem_init zero-fills */
        case INIT_FILL:
            for (uint64_t i = 0; i < b->count; i++)
                if (is_int) set_int(data, t, i, b->ivalue);
                else set(data, t, i, b->value);
            break;
        case INIT_IOTA:   /* integers wrap, keeping the low bits, as expr() does */
            for (uint64_t i = 0; i < b->count; i++)
                if (is_int) set_int(data, t, i, (int64_t)((uint64_t)b->ilo + (uint64_t)b->ihi * i));
                else set(data, t, i, b->lo + b->hi * (double)i);
            break;
        case INIT_RANDOM:
            for (uint64_t i = 0; i < b->count; i++) {
                uint64_t r = next_random(&state);
                double u = (double)(r >> 11) * 0x1.0p-53;   /* [0,1) */
                /* floats: uniform in [min,max); integers: uniform in [min,max] */
                if (is_int) set_int(data, t, i, random_int(b, t, r, u));
                else set(data, t, i, b->lo + (b->hi - b->lo) * u);
            }
            break;
        case INIT_FILE:
            if (load_file(p, b, data, dl)) rc = -1;
            break;
        case INIT_VALUES:
            for (uint64_t i = 0; i < b->count; i++)
                if (is_int) set_int(data, t, i, b->ivalues[i]);
                else set(data, t, i, b->values[i]);
            break;
        case INIT_EXPR:
            if (init_expr(p, b, data, dl)) rc = -1;
            break;
        case INIT_DATA:   /* a .global's initializer */
            memcpy(data, b->data, b->data_bytes);
            break;
        }
    }
    return rc;
}

/* ---- references -----------------------------------------------------------------
 * A reference computes the expected contents of the checked buffer into
 * out[0..n), from buffers and integers given as its arguments. */
typedef struct RefArg {
    int is_buffer;
    const uint8_t *data;
    DataType type;
    uint64_t count;
    double num;
} RefArg;

typedef void RefFn(const RefArg *a, double *out, uint64_t n, uint8_t *checked);

static double at(const RefArg *a, int64_t i) { return i < 0 || (uint64_t)i >= a->count ? 0.0 : get(a->data, a->type, (uint64_t)i); }
static int64_t num(const RefArg *a) { return (int64_t)a->num; }

static void ref_vecadd(const RefArg *a, double *out, uint64_t n, uint8_t *chk)
{
    (void)chk;
    for (uint64_t i = 0; i < n; i++) out[i] = (double)((float)at(&a[0], (int64_t)i) + (float)at(&a[1], (int64_t)i));
}

static void ref_copy(const RefArg *a, double *out, uint64_t n, uint8_t *chk)
{
    (void)chk;
    for (uint64_t i = 0; i < n; i++) out[i] = at(&a[0], (int64_t)i);
}

static void ref_strided(const RefArg *a, double *out, uint64_t n, uint8_t *chk)
{
    (void)chk;
    int64_t s = num(&a[1]);
    for (uint64_t i = 0; i < n; i++) out[i] = at(&a[0], (int64_t)i * s);
}

static void ref_evenodd(const RefArg *a, double *out, uint64_t n, uint8_t *chk)
{
    (void)chk;
    for (uint64_t i = 0; i < n; i++) {
        float x = (float)at(&a[0], (int64_t)i);
        out[i] = (i % 2 == 0) ? (double)(x * 2.0f) : (double)(x + 1.0f);
    }
}

static void ref_matmul(const RefArg *a, double *out, uint64_t n, uint8_t *chk)
{
    (void)chk;
    int64_t M = num(&a[2]), N = num(&a[3]), K = num(&a[4]);   /* each 0 .. REF_SIZE_MAX: validated */
    /* convert once: the triple loop then runs on plain doubles */
    double *A = malloc((size_t)(M * K > 0 ? M * K : 1) * sizeof *A);
    double *B = malloc((size_t)(K * N > 0 ? K * N : 1) * sizeof *B);
    double *row = calloc((size_t)(N ? N : 1), sizeof *row);
    if (!A || !B || !row) {
        /* no room to convert: the same sums, in the same order, read in place */
        free(A);
        free(B);
        free(row);
        for (int64_t r = 0; r < M; r++)
            for (int64_t c = 0; c < N && (uint64_t)(r * N + c) < n; c++) {
                double s = 0;
                for (int64_t k = 0; k < K; k++) s += at(&a[0], r * K + k) * at(&a[1], k * N + c);
                out[r * N + c] = s;
            }
        return;
    }
    for (int64_t i = 0; i < M * K; i++) A[i] = at(&a[0], i);
    for (int64_t i = 0; i < K * N; i++) B[i] = at(&a[1], i);
    /* a row of C at a time, k outermost: B is read along its rows, and each
     * element still sums its K products in order k = 0, 1, ... */
    for (int64_t r = 0; r < M; r++) {
        for (int64_t c = 0; c < N; c++) row[c] = 0;
        for (int64_t k = 0; k < K; k++) {
            double x = A[r * K + k];
            const double *b = &B[k * N];
            for (int64_t c = 0; c < N; c++) row[c] += x * b[c];
        }
        for (int64_t c = 0; c < N; c++)
            if ((uint64_t)(r * N + c) < n) out[r * N + c] = row[c];
    }
    free(A);
    free(B);
    free(row);
}

static void ref_conv1d(const RefArg *a, double *out, uint64_t n, uint8_t *chk)
{
    (void)chk;
    int64_t len = num(&a[2]), w = num(&a[3]);
    for (int64_t i = 0; i < len && (uint64_t)i < n; i++) {
        double s = 0;
        for (int64_t j = 0; j < w; j++) {
            int64_t x = i - w / 2 + j;
            if (x >= 0 && x < len) s += at(&a[0], x) * at(&a[1], j);
        }
        out[i] = s;
    }
}

static void ref_conv2d(const RefArg *a, double *out, uint64_t n, uint8_t *chk)
{
    (void)chk;
    int64_t h = num(&a[2]), w = num(&a[3]), mw = num(&a[4]);
    if (h <= 0 || w <= 0) return;
    /* the input and the mask as doubles first (each element read once,
     * not once a tap: mw^2 taps an output); the same sums in the same order */
    int64_t taps = mw > 0 ? mw * mw : 1;
    double *in = malloc((size_t)h * (size_t)w * sizeof *in), *mk = malloc((size_t)taps * sizeof *mk);
    if (in && mk) {
        for (int64_t i = 0; i < h * w; i++) in[i] = at(&a[0], i);
        for (int64_t i = 0; i < taps; i++) mk[i] = at(&a[1], i);
    }
    for (int64_t r = 0; r < h; r++)
        for (int64_t c = 0; c < w; c++) {
            double s = 0;
            for (int64_t i = 0; i < mw; i++)
                for (int64_t j = 0; j < mw; j++) {
                    int64_t y = r - mw / 2 + i, x = c - mw / 2 + j;
                    if (y >= 0 && y < h && x >= 0 && x < w)
                        s += in && mk ? in[y * w + x] * mk[i * mw + j] : at(&a[0], y * w + x) * at(&a[1], i * mw + j);
                }
            if ((uint64_t)(r * w + c) < n) out[r * w + c] = s;
        }
    free(in);
    free(mk);
}

static void ref_transpose(const RefArg *a, double *out, uint64_t n, uint8_t *chk)
{
    (void)chk;
    int64_t rows = num(&a[1]), cols = num(&a[2]);
    /* in tiles of 32 x 32: row by row, each write would land on a page of
     * its own (2048^2: 2.4% of a run's host time, perf) */
    for (int64_t r0 = 0; r0 < rows; r0 += 32)
        for (int64_t c0 = 0; c0 < cols; c0 += 32)
            for (int64_t r = r0; r < r0 + 32 && r < rows; r++)
                for (int64_t c = c0; c < c0 + 32 && c < cols; c++)
                    if ((uint64_t)(c * rows + r) < n) out[c * rows + r] = at(&a[0], r * cols + c);
}

/* sum(in, n): out[0] is the sum; the rest of the buffer is not checked. */
static void ref_sum(const RefArg *a, double *out, uint64_t n, uint8_t *chk)
{
    int64_t len = num(&a[1]);
    double s = 0;
    for (int64_t i = 0; i < len; i++) s += at(&a[0], i);
    out[0] = s;
    for (uint64_t i = 1; i < n; i++) chk[i] = 0;
}

static void ref_histogram(const RefArg *a, double *out, uint64_t n, uint8_t *chk)
{
    (void)chk;
    int64_t len = num(&a[1]), bins = num(&a[2]);
    for (uint64_t i = 0; i < n; i++) out[i] = 0;
    for (int64_t i = 0; i < len; i++) {
        int64_t v = (int64_t)at(&a[0], i);
        if (bins > 0) v = ((v % bins) + bins) % bins;
        if (v >= 0 && (uint64_t)v < n) out[v] += 1;
    }
}

static void ref_scan(const RefArg *a, double *out, uint64_t n, uint8_t *chk)
{
    (void)chk;
    int64_t len = num(&a[1]);
    double s = 0;
    for (int64_t i = 0; i < len && (uint64_t)i < n; i++) { s += at(&a[0], i); out[i] = s; }
}

static void ref_gray(const RefArg *a, double *out, uint64_t n, uint8_t *chk)
{
    (void)chk;
    int64_t h = num(&a[1]), w = num(&a[2]);
    for (int64_t i = 0; i < h * w && (uint64_t)i < n; i++) {
        float r = (float)at(&a[0], 3 * i), g = (float)at(&a[0], 3 * i + 1), b = (float)at(&a[0], 3 * i + 2);
        out[i] = (double)(0.21f * r + 0.71f * g + 0.07f * b);
    }
}

/* affine(in, a, b): a and b may be integers or floats. */
static void ref_affine(const RefArg *a, double *out, uint64_t n, uint8_t *chk)
{
    (void)chk;
    for (uint64_t i = 0; i < n; i++) out[i] = a[1].num * at(&a[0], (int64_t)i) + a[2].num;
}

/* The steps a reference takes (its innermost loop's), from its arguments'
 * values v[] (sizes, as validated) and the checked buffer's length n: a
 * size that makes it run for hours is a mistake to name, not to run. */
typedef double RefWork(const double *v, double n);
static double work_matmul(const double *v, double n) { (void)n; return v[2] * v[3] * v[4] + v[2] * v[4] + v[4] * v[3]; }
static double work_conv1d(const double *v, double n) { return (v[2] < n ? v[2] : n) * v[3]; }
static double work_conv2d(const double *v, double n) { (void)n; return v[2] * v[3] * (v[4] * v[4] + 1); }
static double work_2d(const double *v, double n) { (void)n; return v[1] * v[2]; }
static double work_1d(const double *v, double n) { (void)n; return v[1]; }

typedef struct Ref {
    const char *name;
    const char *args;     /* B = buffer, I = a number, N = a size (a whole number, 0 to REF_SIZE_MAX),
                             Z = a whole number of at most REF_SIZE_MAX either way */
    RefFn *fn;
    const char *help;
    RefWork *work;        /* NULL: a step per element of the checked buffer */
} Ref;

static const Ref refs[] = {
    { "vecadd", "BB", ref_vecadd, "vecadd(a, b): out[i] = a[i] + b[i]", NULL },
    { "copy", "B", ref_copy, "copy(in): out[i] = in[i]", NULL },
    { "strided", "BZ", ref_strided, "strided(in, s): out[i] = in[i*s]", NULL },
    { "evenodd", "B", ref_evenodd, "evenodd(in): out[i] = in[i]*2 for even i, in[i]+1 for odd i", NULL },
    { "matmul", "BBNNN", ref_matmul, "matmul(A, B, M, N, K): out = A (MxK) x B (KxN), row-major", work_matmul },
    { "conv1d", "BBNN", ref_conv1d, "conv1d(in, mask, n, w): out[i] = sum_j in[i-w/2+j]*mask[j], zeros outside", work_conv1d },
    { "conv2d", "BBNNN", ref_conv2d, "conv2d(in, mask, h, w, mw): 2D convolution with an mw x mw mask, zeros outside",
      work_conv2d },
    { "transpose", "BNN", ref_transpose, "transpose(in, rows, cols): out[c*rows+r] = in[r*cols+c]", work_2d },
    { "sum", "BN", ref_sum, "sum(in, n): out[0] = in[0] + ... + in[n-1]", work_1d },
    { "histogram", "BNZ", ref_histogram, "histogram(in, n, bins): out[b] = number of i < n with in[i] mod bins = b", work_1d },
    { "scan", "BN", ref_scan, "scan(in, n): out[i] = in[0] + ... + in[i] (inclusive prefix sum)", work_1d },
    { "gray", "BNN", ref_gray, "gray(rgb, h, w): out[i] = 0.21 r + 0.71 g + 0.07 b of pixel i (rgb interleaved)", work_2d },
    { "affine", "BII", ref_affine, "affine(in, a, b): out[i] = a*in[i] + b (a, b numbers)", NULL },
};
/* A size argument: at most 2^30, the most elements a buffer of 4-byte
 * values holds (the assembler's 4 GiB a buffer); a reference's steps:
 * about a minute of host time. */
#define REF_SIZE_MAX (1ll << 30)
#define REF_WORK_MAX 1e11
enum { NREFS = sizeof refs / sizeof refs[0] };

static const Ref *find_ref(const char *name)
{
    for (int i = 0; i < NREFS; i++)
        if (!strcmp(refs[i].name, name)) return &refs[i];
    return NULL;
}

int host_ref_count(void) { return NREFS; }
const char *host_ref_name(int i) { return i >= 0 && i < NREFS ? refs[i].name : NULL; }

void host_doc_refs(FILE *out)
{
    for (int i = 0; i < NREFS; i++) fprintf(out, "| `%s` |\n", refs[i].help);
}

int host_validate_checks(const Program *p, DiagList *dl)
{
    int rc = 0;
    for (int i = 0; i < p->nchecks; i++) {
        const CheckSpec *c = &p->checks[i];
        const char *src = program_line(p, c->line, NULL);
        int sources = (c->ref != NULL) + (c->equals >= 0) + (c->path != NULL);
        if (sources != 1) {
            diag_add(dl, p->filename, c->line, c->col, src,
                     ".check %s needs exactly one of ref=FUNC(...), equals=BUFFER or file=\"PATH\"", p->buffers[c->buffer].name);
            rc = -1;
            continue;
        }
        if (!c->ref) continue;
        const Ref *r = find_ref(c->ref);
        if (!r) {
            const char *near = suggest_best(c->ref, refs, NREFS, sizeof refs[0]);
            char names[1024] = "";
            size_t len = 0;
            for (int k = 0; k < NREFS && len < sizeof names; k++)
                len += (size_t)snprintf(names + len, sizeof names - len, "%s%s", k ? ", " : "", refs[k].name);
            diag_add(dl, p->filename, c->line, c->col, src, "unknown reference '%s'%s%s%s; the references are %s",
                     c->ref, near ? " (did you mean '" : "", near ? near : "", near ? "'?)" : "", names);
            rc = -1;
            continue;
        }
        if ((size_t)c->nargs != strlen(r->args)) {
            diag_add(dl, p->filename, c->line, c->col, src, "reference %s takes %zu arguments: %s", r->name,
                     strlen(r->args), r->help);
            rc = -1;
            continue;
        }
        double v[8] = { 0 };
        int sizes_ok = 1;
        for (int k = 0; k < c->nargs; k++) {
            const LaunchArg *a = &c->args[k];
            int want_buf = r->args[k] == 'B';
            if (want_buf != (a->kind == ARG_BUFFER)) {
                diag_add(dl, p->filename, a->line, a->col, src, "argument %d of %s must be %s: %s",
                         k + 1, r->name, want_buf ? "a buffer" : "a number", r->help);
                rc = -1;
                sizes_ok = 0;
            } else if ((r->args[k] == 'N' || r->args[k] == 'Z') &&
                       (a->kind != ARG_INT || a->i < (r->args[k] == 'N' ? 0 : -REF_SIZE_MAX) || a->i > REF_SIZE_MAX)) {
                char val[48];
                if (a->kind == ARG_INT) snprintf(val, sizeof val, "%lld", (long long)a->i);
                else snprintf(val, sizeof val, "%g", a->f);
                diag_add(dl, p->filename, a->line, a->col, src, "argument %d of %s is %s %lld to %lld, not %s: %s", k + 1,
                         r->name, r->args[k] == 'N' ? "a size: a whole number from" : "a whole number from",
                         r->args[k] == 'N' ? 0ll : -(long long)REF_SIZE_MAX, (long long)REF_SIZE_MAX, val, r->help);
                rc = -1;
                sizes_ok = 0;
            } else v[k] = a->kind == ARG_BUFFER ? (double)p->buffers[a->buffer].count : (double)a->i;
        }
        double steps = sizes_ok && r->work ? r->work(v, (double)p->buffers[c->buffer].count) : 0;
        if (steps > REF_WORK_MAX) {
            diag_add(dl, p->filename, c->line, c->col, src,
                     "%s: the host reference would take %.2g steps with these sizes (at most %.0g): are they right? %s",
                     r->name, steps, REF_WORK_MAX, r->help);
            rc = -1;
        }
    }
    return rc;
}

/* ---- checking ------------------------------------------------------------------- */
static void fmt_val(char *buf, size_t n, double v, DataType t)
{
    if (isa_type_kind(t) == TK_FLOAT) snprintf(buf, n, "%.9g", v);
    else snprintf(buf, n, "%.0f", v);
}

static void fmt_int(char *buf, size_t n, int64_t v, DataType t)
{
    if (isa_type_kind(t) == TK_SINT) snprintf(buf, n, "%" PRId64, v);
    else snprintf(buf, n, "%" PRIu64, (uint64_t)v);
}

/* |a - b| of two integer elements, as a double (exact where it is below 2^53). */
static double int_diff(int64_t a, DataType at, int64_t b, DataType bt)
{
    int an = isa_type_kind(at) == TK_SINT && a < 0, bn = isa_type_kind(bt) == TK_SINT && b < 0;
    uint64_t am = an ? 0 - (uint64_t)a : (uint64_t)a, bm = bn ? 0 - (uint64_t)b : (uint64_t)b;
    if (an != bn) return (double)am + (double)bm;
    return (double)(am > bm ? am - bm : bm - am);
}

/* Doubles hold every integer below 2^53 (from there on, 2^53 + 1 reads as
 * 2^53); a reference computes in doubles. */
#define EXACT_INT 0x1p53

int host_run_check(const Program *p, const Memory *m, int ci, CheckResult *r, DiagList *dl)
{
    const CheckSpec *c = &p->checks[ci];
    const BufferSpec *b = &p->buffers[c->buffer];
    const uint8_t *got = mem_region_of_buffer((Memory *)m, c->buffer)->data;
    DataType t = (DataType)b->type;
    uint64_t n = b->count;
    memset(r, 0, sizeof *r);
    r->buffer = c->buffer;
    double *exp = calloc((size_t)n, sizeof *exp);
    uint8_t *chk = malloc((size_t)n);
    /* an integer buffer against integers (equals= an integer buffer, or a
     * file): compared exactly, in iexp, of type et */
    int is_int = is_int_type(t);
    DataType et = c->equals >= 0 ? (DataType)p->buffers[c->equals].type : t;
    int64_t *iexp = is_int && !c->ref && is_int_type(et) ? calloc((size_t)n, sizeof *iexp) : NULL;
    if (!exp || !chk || (is_int && !c->ref && is_int_type(et) && !iexp)) { free(exp); free(chk); free(iexp); return -1; }
    memset(chk, 1, (size_t)n);
    if (c->ref) {
        const Ref *ref = find_ref(c->ref);
        RefArg args[8];
        memset(args, 0, sizeof args);
        for (int k = 0; k < c->nargs && k < 8; k++) {
            const LaunchArg *a = &c->args[k];
            if (a->kind == ARG_BUFFER) {
                args[k].is_buffer = 1;
                args[k].data = mem_region_of_buffer((Memory *)m, a->buffer)->data;
                args[k].type = (DataType)p->buffers[a->buffer].type;
                args[k].count = p->buffers[a->buffer].count;
            } else args[k].num = a->kind == ARG_INT ? (double)a->i : a->f;
        }
        ref->fn(args, exp, n, chk);
    } else if (c->equals >= 0) {
        const BufferSpec *o = &p->buffers[c->equals];
        const uint8_t *od = mem_region_of_buffer((Memory *)m, c->equals)->data;
        for (uint64_t i = 0; i < n; i++)
            if (iexp) iexp[i] = i < o->count ? get_int(od, et, i) : 0;
            else exp[i] = i < o->count ? get(od, (DataType)o->type, i) : 0;
    } else {
        BufferSpec tmp = *b;
        tmp.path = c->path;
        uint8_t *buf = calloc((size_t)n, (size_t)(isa_type_bits(t) / 8));
        if (!buf || load_file(p, &tmp, buf, dl)) { free(buf); free(exp); free(chk); free(iexp); return -1; }
        for (uint64_t i = 0; i < n; i++)
            if (iexp) iexp[i] = get_int(buf, t, i);
            else exp[i] = get(buf, t, i);
        free(buf);
    }
    int is_float = isa_type_kind(t) == TK_FLOAT;
    /* default tolerances: floats 1e-5 relative + 1e-6 absolute; integers exact */
    double tol = c->tol ? c->tol : is_float ? 1e-6 : 0, rtol = c->rtol ? c->rtol : is_float ? 1e-5 : 0;
    size_t len = 0;
    uint64_t beyond = 0;   /* integers a double reference could not tell from their neighbours */
    for (uint64_t i = 0; i < n; i++) {
        if (!chk[i]) continue;
        r->compared++;
        int64_t gi = is_int ? get_int(got, t, i) : 0;
        double g = is_int ? int_num(gi, t) : get(got, t, i), e, err;
        int ok;
        if (iexp) {
            e = int_num(iexp[i], et);
            int same = int_same(gi, t, iexp[i], et);
            err = same ? 0 : int_diff(gi, t, iexp[i], et);
            ok = same || err <= tol + rtol * fabs(e);
        } else {
            e = exp[i];
            err = fabs(g - e);
            ok = (isnan(g) && isnan(e)) || err <= tol + rtol * fabs(e);
            if (ok && is_int && (fabs(g) >= EXACT_INT || fabs(e) >= EXACT_INT)) { ok = 0; beyond++; }
        }
        if (!isnan(err) && err > r->max_abs_err) r->max_abs_err = err;
        if (ok) continue;
        if (r->mismatches < 5 && len < sizeof r->detail - 120) {
            char gs[40], es[40];
            if (is_int) fmt_int(gs, sizeof gs, gi, t);
            else fmt_val(gs, sizeof gs, g, t);
            if (iexp) fmt_int(es, sizeof es, iexp[i], et);
            else fmt_val(es, sizeof es, e, t);
            len += (size_t)snprintf(r->detail + len, sizeof r->detail - len, "%s    %s[%" PRIu64 "]: expected %s, got %s",
                                    len ? "\n" : "", b->name, i, es, gs);
        }
        r->mismatches++;
    }
    if (beyond && len < sizeof r->detail - 200)
        snprintf(r->detail + len, sizeof r->detail - len,
                 "\n    (%" PRIu64 " of them at 2^53 or beyond, where the reference's doubles cannot tell neighbouring "
                 "integers apart: check %s with equals= or file=, which compare integers exactly)", beyond, b->name);
    r->passed = r->mismatches == 0;
    free(exp);
    free(chk);
    free(iexp);
    return 0;
}

void host_dump(const Program *p, const Memory *m, int bi, FILE *out)
{
    const BufferSpec *b = &p->buffers[bi];
    const uint8_t *d = mem_region_of_buffer((Memory *)m, bi)->data;
    DataType t = (DataType)b->type;
    for (uint64_t i = 0; i < b->count; i++) {
        double v = get(d, t, i);
        if (t == T_F32 || t == T_F16 || t == T_BF16) fprintf(out, "%.9g\n", v);   /* exact enough to read back */
        else if (t == T_F64) fprintf(out, "%.17g\n", v);
        else if (isa_type_kind(t) == TK_SINT) fprintf(out, "%" PRId64 "\n", get_int(d, t, i));
        else {
            uint64_t u = 0;
            memcpy(&u, d + i * (uint64_t)(isa_type_bits(t) / 8), (size_t)(isa_type_bits(t) / 8));
            fprintf(out, "%" PRIu64 "\n", u);
        }
    }
}
