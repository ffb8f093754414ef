/* NTT over BLS12-381 Fr on the GPU (src/cuda/gpu.h: gpu_ntt, gpu_bench_ntt).
 *
 * Radix-2 Cooley-Tukey, decimation in time, natural order in and out:
 *   1. (coset forward) a_i *= shift^i
 *   2. ntt_shared_kernel: each block gathers S = min(m, 1024) elements in bit-reversed order
 *      (each a 32-byte sector, so the gather wastes no bandwidth), runs the first log2(S) stages in
 *      shared memory (limb-major layout: no bank conflicts) and writes them contiguously to a
 *      second buffer;
 *   3. the remaining log_m - 10 stages, one global pass each (ntt_stage_kernel);
 *   4. (inverse) a_i *= (1/m) * shift^(-i).
 * Twiddles: tw[j] = omega^j for j < m/2 (omega^-1 for the inverse), built from two small power
 * tables (omega^i, i < 1024, and omega^(1024 i)) with one multiplication per entry.
 * Roots: omega = root^(2^(32-log_m)), root = 7^t or 5^t (src/ff/bls12_381_constants.h).
 */
#include "cuda/ec.cuh"
#include "cuda/util.cuh"
#include "cuda/ntt_internal.cuh"

using namespace cuzk_dev;

namespace {

const int SH_LOG = 10;         /* elements per shared-memory block: 2^10 */
const int TAB_LOG = 10;        /* low power table: 2^10 entries */

/* consts[0] = omega (or omega^-1), consts[1] = scale base, consts[2] = scale prefactor */
__global__ void ntt_setup_kernel(fr_t *consts, int roots, int log_m, int inverse, const fr_t *shift) {
    if (threadIdx.x != 0 || blockIdx.x != 0) return;
    const uint64_t r7[4] = BLS12_381_FR_ROOT_7_CANON;
    const uint64_t r5[4] = BLS12_381_FR_ROOT_5_CANON;
    fr_t root;
    for (int i = 0; i < 8; i++) root.l[i] = roots == 1 ? CUZK_LIMB32(r5, i) : CUZK_LIMB32(r7, i);
    fr_t w = fr_t::from_canon(root);
    for (int i = log_m; i < 32; i++) w = w.sqr();
    fr_t base = shift ? *shift : fr_t::one();
    fr_t pref = fr_t::one();
    if (inverse) {
        w = fr_t::inv(w);
        base = shift ? fr_t::inv(base) : base;
        pref = fr_t::inv(fr_t::from_u32(1u << log_m));
    }
    consts[0] = w;
    consts[1] = base;
    consts[2] = pref;
}

__device__ __forceinline__ fr_t fr_pow_small(const fr_t &b, uint32_t e) {
    fr_t r = fr_t::one();
    if (e == 0) return r;
    int top = 31 - __clz(e);
    r = b;
    for (int i = top - 1; i >= 0; i--) {
        r = r.sqr();
        if ((e >> i) & 1) r = r * b;
    }
    return r;
}

/* lo[i] = base^i (i < 2^TAB_LOG); hi[i] = pref * base^(2^TAB_LOG * i) (i < n_hi) */
__global__ void ntt_pow_tables_kernel(fr_t *lo, fr_t *hi, uint32_t n_hi, const fr_t *base_p,
                                      const fr_t *pref_p) {
    uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    fr_t base = *base_p;
    if (i < (1u << TAB_LOG)) lo[i] = fr_pow_small(base, i);
    if (i < n_hi) {
        fr_t b2 = base;
        for (int k = 0; k < TAB_LOG; k++) b2 = b2.sqr();
        hi[i] = *pref_p * fr_pow_small(b2, i);
    }
}

__global__ void ntt_twiddles_kernel(fr_t *tw, size_t half, const fr_t *lo, const fr_t *hi) {
    size_t j = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (j >= half) return;
    tw[j] = lo[j & ((1u << TAB_LOG) - 1)] * hi[j >> TAB_LOG];
}

/* a[v*m + i] *= lo[i & 1023] * hi[i >> 10] */
__global__ void ntt_scale_kernel(fr_t *a, int log_m, size_t total, const fr_t *lo, const fr_t *hi) {
    size_t t = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= total) return;
    size_t i = t & (((size_t)1 << log_m) - 1);
    a[t] = a[t] * (lo[i & ((1u << TAB_LOG) - 1)] * hi[i >> TAB_LOG]);
}

/* Bit-reversal gather + the first log_s stages in shared memory. Block: 2^(log_s-1) threads. */
__global__ void __launch_bounds__(512) ntt_shared_kernel(fr_t *__restrict__ y, const fr_t *__restrict__ x,
                                                         int log_m, int log_s, const fr_t *__restrict__ tw) {
    __shared__ uint32_t sh[8][1 << SH_LOG];
    const size_t m = (size_t)1 << log_m;
    const uint32_t S = 1u << log_s;
    const size_t blocks_per_vec = m >> log_s;
    const size_t v = blockIdx.x / blocks_per_vec;
    const size_t base = (blockIdx.x % blocks_per_vec) << log_s;
    const fr_t *xv = x + v * m;
    for (uint32_t t = threadIdx.x; t < S; t += blockDim.x) {
        size_t idx = base + t;
        size_t src = __brevll((unsigned long long)idx) >> (64 - log_m);
        fr_t e = xv[src];
#pragma unroll
        for (int k = 0; k < 8; k++) sh[k][t] = e.l[k];
    }
    __syncthreads();
    for (int s = 0; s < log_s; s++) {
        const uint32_t h = 1u << s;
        for (uint32_t b = threadIdx.x; b < S / 2; b += blockDim.x) {
            uint32_t j = b & (h - 1);
            uint32_t i0 = ((b >> s) << (s + 1)) + j, i1 = i0 + h;
            fr_t u, w, vv;
#pragma unroll
            for (int k = 0; k < 8; k++) { u.l[k] = sh[k][i0]; vv.l[k] = sh[k][i1]; }
            w = tw[(size_t)j << (log_m - 1 - s)];
            vv = vv * w;
            fr_t a0 = u + vv, a1 = u - vv;
#pragma unroll
            for (int k = 0; k < 8; k++) { sh[k][i0] = a0.l[k]; sh[k][i1] = a1.l[k]; }
        }
        __syncthreads();
    }
    fr_t *yv = y + v * m;
    for (uint32_t t = threadIdx.x; t < S; t += blockDim.x) {
        fr_t e;
#pragma unroll
        for (int k = 0; k < 8; k++) e.l[k] = sh[k][t];
        yv[base + t] = e;
    }
}

/* One radix-2 DIT stage with half-size h = 2^s, in place; thread per butterfly. */
__global__ void ntt_stage_kernel(fr_t *a, int log_m, int s, size_t total_bf, const fr_t *__restrict__ tw) {
    size_t t = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= total_bf) return;
    const size_t v = t >> (log_m - 1);
    const size_t b = t & (((size_t)1 << (log_m - 1)) - 1);
    const size_t h = (size_t)1 << s;
    const size_t j = b & (h - 1);
    const size_t i0 = ((b >> s) << (s + 1)) + j;
    fr_t *av = a + (v << log_m);
    fr_t u = av[i0], w = av[i0 + h];
    w = w * tw[j << (log_m - 1 - s)];
    av[i0] = u + w;
    av[i0 + h] = u - w;
}

/* Two radix-2 stages s, s+1 fused (radix-4 pass): thread per 4 elements. */
__global__ void ntt_stage2_kernel(fr_t *a, int log_m, int s, size_t total_q, const fr_t *__restrict__ tw) {
    size_t t = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= total_q) return;
    const size_t v = t >> (log_m - 2);
    const size_t q = t & (((size_t)1 << (log_m - 2)) - 1);
    const size_t h = (size_t)1 << s;
    const size_t j = q & (h - 1);
    const size_t g = q >> s; /* group of 4h elements */
    const size_t i0 = (g << (s + 2)) + j;
    fr_t *av = a + (v << log_m);
    fr_t x0 = av[i0], x1 = av[i0 + h], x2 = av[i0 + 2 * h], x3 = av[i0 + 3 * h];
    /* stage s: pairs (x0,x1), (x2,x3) with twiddle tw[j << (log_m-1-s)] */
    fr_t w1 = tw[j << (log_m - 1 - s)];
    x1 = x1 * w1;
    x3 = x3 * w1;
    fr_t y0 = x0 + x1, y1 = x0 - x1, y2 = x2 + x3, y3 = x2 - x3;
    /* stage s+1: pairs (y0,y2) index j, (y1,y3) index j+h, twiddles tw[(j) << (log_m-2-s)] */
    fr_t wa = tw[j << (log_m - 2 - s)];
    fr_t wb = tw[(j + h) << (log_m - 2 - s)];
    y2 = y2 * wa;
    y3 = y3 * wb;
    av[i0] = y0 + y2;
    av[i0 + 2 * h] = y0 - y2;
    av[i0 + h] = y1 + y3;
    av[i0 + 3 * h] = y1 - y3;
}

inline unsigned nblocks(size_t n, unsigned bs) { return (unsigned)((n + bs - 1) / bs); }

}  // namespace

/* Plan: twiddles and scale tables for one (log_m, dir, roots, shift). */
cuzk_status ntt_plan_init(ntt_plan *p, int log_m, int inverse, int roots, const fr_t *h_shift,
                          cuzk_error *err) {
    cuzk_status st = CUZK_OK;
    const size_t m = (size_t)1 << log_m;
    const size_t half = m / 2;
    const uint32_t n_hi = (uint32_t)((m >> TAB_LOG) + 1);
    const size_t lo_n = (size_t)1 << TAB_LOG;
    fr_t *d_shift = NULL, *d_one = NULL;
    memset(p, 0, sizeof *p);
    p->log_m = log_m;
    p->inverse = inverse;
    p->need_scale = inverse || h_shift != NULL;
    p->n_hi = n_hi;
    CU(cudaMalloc(&p->d_consts, 4 * sizeof(fr_t)));
    CU(cudaMalloc(&p->d_tw, (half ? half : 1) * sizeof(fr_t)));
    CU(cudaMalloc(&p->d_lo, 2 * lo_n * sizeof(fr_t)));
    CU(cudaMalloc(&p->d_hi, 2 * (size_t)n_hi * sizeof(fr_t)));
    if (h_shift) {
        CU(cudaMalloc(&d_shift, sizeof(fr_t)));
        CU(cudaMemcpy(d_shift, h_shift, sizeof(fr_t), cudaMemcpyHostToDevice));
    }
    ntt_setup_kernel<<<1, 1>>>(p->d_consts, roots, log_m, inverse, d_shift);
    CU_LAUNCH("ntt_setup_kernel");
    /* omega tables in the second halves, consts[3] = one (prefactor for the omega tables) */
    d_one = p->d_consts + 3;
    {
        const uint64_t one64[4] = BLS12_381_FR_R;
        CU(cudaMemcpy(d_one, one64, sizeof(fr_t), cudaMemcpyHostToDevice));
    }
    ntt_pow_tables_kernel<<<nblocks(n_hi > lo_n ? n_hi : lo_n, 256), 256>>>(
        p->d_lo + lo_n, p->d_hi + n_hi, n_hi, p->d_consts + 0, d_one);
    CU_LAUNCH("ntt_pow_tables_kernel(omega)");
    if (half) {
        ntt_twiddles_kernel<<<nblocks(half, 256), 256>>>(p->d_tw, half, p->d_lo + lo_n, p->d_hi + n_hi);
        CU_LAUNCH("ntt_twiddles_kernel");
    }
    if (p->need_scale) {
        ntt_pow_tables_kernel<<<nblocks(n_hi > lo_n ? n_hi : lo_n, 256), 256>>>(
            p->d_lo, p->d_hi, n_hi, p->d_consts + 1, p->d_consts + 2);
        CU_LAUNCH("ntt_pow_tables_kernel(scale)");
    }
out:
    cudaFree(d_shift);
    return st;
}

void ntt_plan_free(ntt_plan *p) {
    cudaFree(p->d_consts);
    cudaFree(p->d_tw);
    cudaFree(p->d_lo);
    cudaFree(p->d_hi);
    memset(p, 0, sizeof *p);
}

/* d_x: input (batch vectors), clobbered; result in d_y. Both batch*m elements, on device. */
cuzk_status ntt_plan_run(const ntt_plan *p, fr_t *d_y, fr_t *d_x, size_t batch, cudaStream_t stream,
                         cuzk_error *err) {
    cuzk_status st = CUZK_OK;
    const int log_m = p->log_m;
    const size_t m = (size_t)1 << log_m;
    const size_t total = batch * m;
    const int log_s = log_m < SH_LOG ? log_m : SH_LOG;
    int s;
    if (!p->inverse && p->need_scale) {
        ntt_scale_kernel<<<nblocks(total, 256), 256, 0, stream>>>(d_x, log_m, total, p->d_lo, p->d_hi);
        CU_LAUNCH("ntt_scale_kernel(pre)");
    }
    {
        unsigned threads = 1u << (log_s - 1);
        if (threads > 512) threads = 512;
        ntt_shared_kernel<<<(unsigned)(total >> log_s), threads, 0, stream>>>(d_y, d_x, log_m, log_s, p->d_tw);
        CU_LAUNCH("ntt_shared_kernel");
    }
    for (s = log_s; s + 1 < log_m; s += 2) {
        size_t q = total / 4;
        ntt_stage2_kernel<<<nblocks(q, 256), 256, 0, stream>>>(d_y, log_m, s, q, p->d_tw);
        CU_LAUNCH("ntt_stage2_kernel");
    }
    if (s < log_m) {
        size_t bf = total / 2;
        ntt_stage_kernel<<<nblocks(bf, 256), 256, 0, stream>>>(d_y, log_m, s, bf, p->d_tw);
        CU_LAUNCH("ntt_stage_kernel");
    }
    if (p->inverse) {
        ntt_scale_kernel<<<nblocks(total, 256), 256, 0, stream>>>(d_y, log_m, total, p->d_lo, p->d_hi);
        CU_LAUNCH("ntt_scale_kernel(post)");
    }
out:
    return st;
}

extern "C" cuzk_status gpu_ntt(struct fr *data, size_t batch, int log_m, gpu_ntt_dir dir,
                               gpu_roots roots, const struct fr *shift, cuzk_error *err) {
    GPU_ARG(log_m >= 1 && log_m <= 28, "gpu_ntt: log_m out of [1, 28]");
    GPU_ARG(dir == GPU_NTT_FORWARD || dir == GPU_NTT_INVERSE, "gpu_ntt: bad direction");
    GPU_ARG(roots == GPU_ROOTS_BELLPERSON || roots == GPU_ROOTS_SNARKJS, "gpu_ntt: bad roots");
    if (batch == 0) return CUZK_OK;
    GPU_ARG(data, "gpu_ntt: data is NULL");
    cuzk_status st = CUZK_OK;
    ntt_plan plan;
    fr_t *d_x = NULL, *d_y = NULL;
    const size_t bytes = batch * ((size_t)1 << log_m) * sizeof(fr_t);
    memset(&plan, 0, sizeof plan);
    st = ntt_plan_init(&plan, log_m, dir == GPU_NTT_INVERSE, (int)roots, (const fr_t *)shift, err);
    if (st != CUZK_OK) goto out;
    CU(cudaMalloc(&d_x, bytes));
    CU(cudaMalloc(&d_y, bytes));
    CU(cudaMemcpy(d_x, data, bytes, cudaMemcpyHostToDevice));
    st = ntt_plan_run(&plan, d_y, d_x, batch, 0, err);
    if (st != CUZK_OK) goto out;
    CU(cudaMemcpy(data, d_y, bytes, cudaMemcpyDeviceToHost));
out:
    cudaFree(d_x);
    cudaFree(d_y);
    ntt_plan_free(&plan);
    return st;
}

namespace {
__device__ __forceinline__ uint64_t mix64(uint64_t z) {
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}
/* random elements below 2^254 (< r) */
__global__ void ntt_random_kernel(fr_t *a, size_t n, uint64_t seed) {
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    fr_t e;
    for (int k = 0; k < 4; k++) {
        uint64_t v = mix64(seed + 4 * i + k + 0x9e3779b97f4a7c15ull * (k + 1));
        e.l[2 * k] = (uint32_t)v;
        e.l[2 * k + 1] = (uint32_t)(v >> 32);
    }
    e.l[7] &= 0x3fffffffu;
    a[i] = e;
}
}  // namespace

extern "C" cuzk_status gpu_bench_ntt(int log_m, size_t batch, int warmup, int reps, float *times_ms,
                                     cuzk_error *err) {
    GPU_ARG(log_m >= 1 && log_m <= 28 && batch >= 1 && reps >= 1 && times_ms, "gpu_bench_ntt: bad args");
    cuzk_status st = CUZK_OK;
    ntt_plan plan;
    fr_t *d_x = NULL, *d_y = NULL;
    cudaEvent_t e0 = NULL, e1 = NULL;
    const size_t total = batch << log_m;
    memset(&plan, 0, sizeof plan);
    st = ntt_plan_init(&plan, log_m, 0, 0, NULL, err);
    if (st != CUZK_OK) goto out;
    CU(cudaMalloc(&d_x, total * sizeof(fr_t)));
    CU(cudaMalloc(&d_y, total * sizeof(fr_t)));
    CU(cudaEventCreate(&e0));
    CU(cudaEventCreate(&e1));
    for (int r = -warmup; r < reps; r++) {
        ntt_random_kernel<<<nblocks(total, 256), 256>>>(d_x, total, 12345 + (uint64_t)r);
        CU_LAUNCH("ntt_random_kernel");
        CU(cudaEventRecord(e0));
        st = ntt_plan_run(&plan, d_y, d_x, batch, 0, err);
        if (st != CUZK_OK) goto out;
        CU(cudaEventRecord(e1));
        CU(cudaEventSynchronize(e1));
        if (r >= 0) CU(cudaEventElapsedTime(&times_ms[r], e0, e1));
    }
out:
    if (e0) cudaEventDestroy(e0);
    if (e1) cudaEventDestroy(e1);
    cudaFree(d_x);
    cudaFree(d_y);
    ntt_plan_free(&plan);
    return st;
}
