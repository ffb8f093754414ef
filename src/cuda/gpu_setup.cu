/* Fixed-base batch scalar multiplication on the GPU for `cuzk setup` (src/cuda/gpu.h:
 * gpu_g1_fixed_base, gpu_g2_fixed_base, gpu_bench_fixed_base).
 *
 * out[i] = scalars[i] * gen, affine, for one fixed gen and many scalars (the Groth16 setup's
 * tau^i, (beta u_i + alpha v_i + w_i)/gamma... times a generator):
 *   1. fb_table_kernel: T[k][j] = j * 2^(8k) * gen for k < 32 windows, j < 256 (j = 0 unused),
 *      affine, one thread per entry (8k doublings, an 8-bit double-and-add, one inversion);
 *      32 x 256 points: 768 KiB (G1), 1.5 MiB (G2), read from L2 by every thread after.
 *   2. fb_mul_kernel, one thread per point: the canonical scalar's 32 bytes b_k pick T[k][b_k];
 *      their sum (at most 32 mixed XYZZ additions, madd-2008-s) is the product; written as XYZZ.
 *   3. fb_affine_kernel, Montgomery's trick: each thread owns FB_K points (strided, so the loads
 *      coalesce), one field inversion per thread (Fermat; Fp2 through the norm); writes affine
 *      x = X (ZZ/ZZZ)^2, y = Y/ZZZ, (0, 0) for infinity.
 * The points go through in chunks (default 2^20) on two streams alternately: the host copies the
 * scalars of chunk c into a pinned staging buffer while the GPU works on chunk c-1, and copies the
 * affine results of chunk c-2 out of the other pinned buffer, so copies and kernels overlap.
 * The affine coordinates are unique field elements below p, so the bytes equal the CPU's
 * g1_mul_fr_vartime + g1_jacobian_to_affine (tests/test_gpu_setup.c checks it).
 */
#include <string.h>
#include <time.h>

#include "cuda/curves.cuh"
#include "cuda/util.cuh"

using namespace cuzk_dev;

namespace {

const int FB_W = 8;                     /* window bits */
const int FB_WINDOWS = 32;              /* 256 / FB_W: every Fr scalar (< 2^255) */
const int FB_ENTRIES = 1 << FB_W;       /* table entries per window (entry 0 unused) */
const int FB_K = 16;                    /* points per thread in the batch inversion */
const size_t FB_CHUNK_DEFAULT = (size_t)1 << 20;

size_t g_fb_chunk = 0;                  /* gpu_fixed_base_set_chunk; 0 = default */

template <class F>
__device__ __forceinline__ affine_t<F> fb_xyzz_to_affine(const xyzz_t<F> &p, const F &zzz_inv) {
    affine_t<F> r;
    F t = p.zz * zzz_inv; /* ZZ/ZZZ = 1/Z: (ZZ/ZZZ)^2 = 1/ZZ since ZZ^3 = ZZZ^2 */
    r.x = p.x * t.sqr();
    r.y = p.y * zzz_inv;
    return r;
}

/* tab[k*256 + j] = j * 2^(8k) * gen (affine); grid FB_WINDOWS blocks of FB_ENTRIES threads */
template <class F>
__global__ void fb_table_kernel(affine_t<F> *tab, const affine_t<F> *gen) {
    const int k = blockIdx.x, j = threadIdx.x;
    xyzz_t<F> b = xyzz_t<F>::from_affine(*gen);
    for (int i = 0; i < FB_W * k; i++) b = b.dbl();
    xyzz_t<F> acc = xyzz_t<F>::inf();
    for (int i = FB_W - 1; i >= 0; i--) {
        acc = acc.dbl();
        if ((j >> i) & 1) acc.add(b);
    }
    affine_t<F> r;
    if (acc.is_inf()) {
        r.x = F::zero();
        r.y = F::zero();
    } else {
        r = fb_xyzz_to_affine(acc, F::inv(acc.zzz));
    }
    tab[k * FB_ENTRIES + j] = r;
}

/* acc[i] = scalar_i * gen (XYZZ) from the window table; sc: Montgomery Fr */
template <class C, class F>
__global__ void __launch_bounds__(256) fb_mul_kernel(xyzz_t<F> *__restrict__ acc_out,
                                                     const typename C::fr *__restrict__ sc, size_t n,
                                                     const affine_t<F> *__restrict__ tab) {
    const size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    const typename C::fr s = sc[i].to_canon();
    xyzz_t<F> acc = xyzz_t<F>::inf();
    uint32_t w = 0;
#pragma unroll 1
    for (int k = 0; k < FB_WINDOWS; k++) {
        if ((k & 3) == 0) w = s.l[k >> 2];
        const uint32_t b = w & 0xff;
        w >>= 8;
        if (b) acc.add_affine(tab[k * FB_ENTRIES + b]);
    }
    acc_out[i] = acc;
}

/* out[i] = affine(acc[i]) for i < n; thread t owns i = t + k*nthreads, k < FB_K; pre: n scratch */
template <class F>
__global__ void __launch_bounds__(128) fb_affine_kernel(affine_t<F> *__restrict__ out,
                                                        const xyzz_t<F> *__restrict__ acc,
                                                        F *__restrict__ pre, size_t n,
                                                        size_t nthreads) {
    const size_t t = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= nthreads) return;
    F prod = F::one();
#pragma unroll 1
    for (int k = 0; k < FB_K; k++) {
        const size_t i = t + (size_t)k * nthreads;
        if (i >= n) break;
        pre[i] = prod; /* product of the earlier ZZZ of this thread */
        if (!acc[i].zz.is_zero()) prod = prod * acc[i].zzz;
    }
    F inv = F::inv(prod);
#pragma unroll 1
    for (int k = FB_K - 1; k >= 0; k--) {
        const size_t i = t + (size_t)k * nthreads;
        if (i >= n) continue;
        const xyzz_t<F> p = acc[i];
        affine_t<F> r;
        if (p.zz.is_zero()) {
            r.x = F::zero();
            r.y = F::zero();
        } else {
            const F zi = inv * pre[i]; /* 1/ZZZ_i */
            inv = inv * p.zzz;         /* 1/(product of the earlier ones) */
            r = fb_xyzz_to_affine(p, zi);
        }
        out[i] = r;
    }
}

inline unsigned nblocks(size_t n, unsigned bs) { return (unsigned)((n + bs - 1) / bs); }

double now_ms() {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

cuzk_status host_nomem(cuzk_error *err, const char *what) {
    if (err) {
        err->code = CUZK_ERR_NOMEM;
        err->sys_errno = 0;
        err->cuda_error = (int)cudaErrorMemoryAllocation;
        err->file = __FILE__;
        err->line = __LINE__;
        snprintf(err->msg, sizeof err->msg, "%s: pinned host allocation failed", what);
    }
    (void)cudaGetLastError();
    return CUZK_ERR_NOMEM;
}

/* The pipeline of the header comment. kernel_ms (may be NULL): CUDA-event time of the table
 * build plus, per chunk, its two kernels (chunks on the two streams may overlap: a sum, not a
 * span). Host arrays may be pageable. */
template <class C, class F>
cuzk_status fixed_base(affine_t<F> *out, const affine_t<F> *gen, const typename C::fr *scalars, size_t n,
                       float *kernel_ms, cuzk_error *err) {
    typedef affine_t<F> aff;
    typedef xyzz_t<F> xyzz;
    cuzk_status st = CUZK_OK;
    const size_t chunk_cfg = g_fb_chunk ? g_fb_chunk : FB_CHUNK_DEFAULT;
    const size_t CH = n < chunk_cfg ? n : chunk_cfg;
    const size_t nchunks = (n + CH - 1) / CH;
    cudaStream_t s[2] = {NULL, NULL};
    cudaEvent_t ev_tab = NULL, ev_k[2][2] = {{NULL, NULL}, {NULL, NULL}};
    aff *d_gen = NULL, *d_tab = NULL;
    typename C::fr *d_sc[2] = {NULL, NULL}, *h_sc[2] = {NULL, NULL};
    xyzz *d_acc[2] = {NULL, NULL};
    F *d_pre[2] = {NULL, NULL};
    aff *d_out[2] = {NULL, NULL}, *h_out[2] = {NULL, NULL};
    size_t pend_off[2] = {0, 0}, pend_len[2] = {0, 0};
    float ms = 0;
    if (kernel_ms) *kernel_ms = 0;

    CU(cudaStreamCreateWithFlags(&s[0], cudaStreamNonBlocking));
    CU(cudaStreamCreateWithFlags(&s[1], cudaStreamNonBlocking));
    CU(cudaEventCreateWithFlags(&ev_tab, cudaEventDisableTiming));
    if (kernel_ms) {
        for (int k = 0; k < 2; k++) {
            CU(cudaEventCreate(&ev_k[k][0]));
            CU(cudaEventCreate(&ev_k[k][1]));
        }
    }
    CU(cudaMallocAsync((void **)&d_gen, sizeof(aff), s[0]));
    CU(cudaMallocAsync((void **)&d_tab, (size_t)FB_WINDOWS * FB_ENTRIES * sizeof(aff), s[0]));
    CU(cudaMemcpyAsync(d_gen, gen, sizeof(aff), cudaMemcpyHostToDevice, s[0]));
    if (kernel_ms) CU(cudaEventRecord(ev_k[0][0], s[0]));
    fb_table_kernel<F><<<FB_WINDOWS, FB_ENTRIES, 0, s[0]>>>(d_tab, d_gen);
    CU_LAUNCH("fb_table_kernel");
    if (kernel_ms) {
        CU(cudaEventRecord(ev_k[0][1], s[0]));
        CU(cudaEventSynchronize(ev_k[0][1]));
        CU(cudaEventElapsedTime(&ms, ev_k[0][0], ev_k[0][1]));
        *kernel_ms += ms;
    }
    CU(cudaEventRecord(ev_tab, s[0]));
    CU(cudaStreamWaitEvent(s[1], ev_tab, 0));
    for (int k = 0; k < 2 && (size_t)k < nchunks; k++) {
        CU(cudaMallocAsync((void **)&d_sc[k], CH * sizeof(typename C::fr), s[k]));
        CU(cudaMallocAsync((void **)&d_acc[k], CH * sizeof(xyzz), s[k]));
        CU(cudaMallocAsync((void **)&d_pre[k], CH * sizeof(F), s[k]));
        CU(cudaMallocAsync((void **)&d_out[k], CH * sizeof(aff), s[k]));
        if (cudaHostAlloc((void **)&h_sc[k], CH * sizeof(typename C::fr), cudaHostAllocDefault) != cudaSuccess ||
            cudaHostAlloc((void **)&h_out[k], CH * sizeof(aff), cudaHostAllocDefault) != cudaSuccess) {
            st = host_nomem(err, "fixed_base staging");
            goto out;
        }
    }
    for (size_t c = 0; c < nchunks + 2; c++) {
        const int k = (int)(c & 1);
        if (pend_len[k]) { /* retire chunk c-2 */
            CU(cudaStreamSynchronize(s[k]));
            memcpy(out + pend_off[k], h_out[k], pend_len[k] * sizeof(aff));
            if (kernel_ms) {
                CU(cudaEventElapsedTime(&ms, ev_k[k][0], ev_k[k][1]));
                *kernel_ms += ms;
            }
            pend_len[k] = 0;
        }
        if (c >= nchunks) continue;
        const size_t off = c * CH, len = n - off < CH ? n - off : CH;
        const size_t nt = (len + FB_K - 1) / FB_K;
        memcpy(h_sc[k], scalars + off, len * sizeof(typename C::fr));
        CU(cudaMemcpyAsync(d_sc[k], h_sc[k], len * sizeof(typename C::fr), cudaMemcpyHostToDevice, s[k]));
        if (kernel_ms) CU(cudaEventRecord(ev_k[k][0], s[k]));
        fb_mul_kernel<C, F><<<nblocks(len, 256), 256, 0, s[k]>>>(d_acc[k], d_sc[k], len, d_tab);
        CU_LAUNCH("fb_mul_kernel");
        fb_affine_kernel<F><<<nblocks(nt, 128), 128, 0, s[k]>>>(d_out[k], d_acc[k], d_pre[k], len, nt);
        CU_LAUNCH("fb_affine_kernel");
        if (kernel_ms) CU(cudaEventRecord(ev_k[k][1], s[k]));
        CU(cudaMemcpyAsync(h_out[k], d_out[k], len * sizeof(aff), cudaMemcpyDeviceToHost, s[k]));
        pend_off[k] = off;
        pend_len[k] = len;
    }
out:
    /* both streams idle first: stream 1 reads d_tab, allocated on stream 0 */
    for (int k = 0; k < 2; k++)
        if (s[k]) cudaStreamSynchronize(s[k]);
    if (s[0]) {
        for (int k = 0; k < 2; k++) {
            if (d_sc[k]) cudaFreeAsync(d_sc[k], s[0]);
            if (d_acc[k]) cudaFreeAsync(d_acc[k], s[0]);
            if (d_pre[k]) cudaFreeAsync(d_pre[k], s[0]);
            if (d_out[k]) cudaFreeAsync(d_out[k], s[0]);
        }
        if (d_gen) cudaFreeAsync(d_gen, s[0]);
        if (d_tab) cudaFreeAsync(d_tab, s[0]);
        cudaStreamSynchronize(s[0]);
    }
    for (int k = 0; k < 2; k++) {
        if (s[k]) cudaStreamDestroy(s[k]);
        if (h_sc[k]) cudaFreeHost(h_sc[k]);
        if (h_out[k]) cudaFreeHost(h_out[k]);
        if (ev_k[k][0]) cudaEventDestroy(ev_k[k][0]);
        if (ev_k[k][1]) cudaEventDestroy(ev_k[k][1]);
    }
    if (ev_tab) cudaEventDestroy(ev_tab);
    return st;
}

}  // namespace

extern "C" cuzk_status gpu_g1_fixed_base(struct g1_affine *out, const struct g1_affine *gen,
                                         const struct fr *scalars, size_t n, cuzk_error *err) {
    if (n == 0) return CUZK_OK;
    GPU_ARG(out && gen && scalars, "gpu_g1_fixed_base: NULL pointer");
    return fixed_base<api_curve, api_curve::fp>((api_curve::g1_affine *)out, (const api_curve::g1_affine *)gen, (const api_curve::fr *)scalars, n,
                            NULL, err);
}

extern "C" cuzk_status gpu_g2_fixed_base(struct g2_affine *out, const struct g2_affine *gen,
                                         const struct fr *scalars, size_t n, cuzk_error *err) {
    if (n == 0) return CUZK_OK;
    GPU_ARG(out && gen && scalars, "gpu_g2_fixed_base: NULL pointer");
    return fixed_base<api_curve, api_curve::fp2>((api_curve::g2_affine *)out, (const api_curve::g2_affine *)gen, (const api_curve::fr *)scalars, n,
                             NULL, err);
}

extern "C" void gpu_fixed_base_set_chunk(size_t points) { g_fb_chunk = points; }

extern "C" cuzk_status gpu_bench_fixed_base(int g2, size_t n, int warmup, int reps, float *wall_ms,
                                            float *kernel_ms, uint64_t *scalars_out, void *points_out,
                                            cuzk_error *err) {
    GPU_ARG(n >= 1 && reps >= 1 && wall_ms && kernel_ms, "gpu_bench_fixed_base: bad args");
    cuzk_status st = CUZK_OK;
    const size_t pt_bytes = g2 ? sizeof(api_curve::g2_affine) : sizeof(api_curve::g1_affine);
    api_curve::fr *sc = (api_curve::fr *)malloc(n * sizeof(api_curve::fr));
    void *outp = malloc(n * pt_bytes);
    if (!sc || !outp) {
        free(sc);
        free(outp);
        if (err) {
            memset(err, 0, sizeof *err);
            err->code = CUZK_ERR_NOMEM;
            snprintf(err->msg, sizeof err->msg, "gpu_bench_fixed_base: host allocation");
        }
        return CUZK_ERR_NOMEM;
    }
    /* scalars: uniform below 2^254 (< r), as raw Montgomery values; SplitMix64 */
    uint64_t z = 0x243f6a8885a308d3ull;
    for (size_t i = 0; i < n; i++) {
        uint64_t *w = (uint64_t *)&sc[i];
        for (int k = 0; k < 4; k++) {
            uint64_t v = (z += 0x9e3779b97f4a7c15ull);
            v = (v ^ (v >> 30)) * 0xbf58476d1ce4e5b9ull;
            v = (v ^ (v >> 27)) * 0x94d049bb133111ebull;
            w[k] = v ^ (v >> 31);
        }
        w[3] &= 0x3fffffffffffffffull;
    }
    for (int r = -warmup; r < reps; r++) {
        float kms = 0;
        double t0 = now_ms();
        if (g2)
            st = fixed_base<api_curve, api_curve::fp2>((api_curve::g2_affine *)outp, (const api_curve::g2_affine *)api_curve::G2_GEN_MONT, sc, n, &kms, err);
        else
            st = fixed_base<api_curve, api_curve::fp>((api_curve::g1_affine *)outp, (const api_curve::g1_affine *)api_curve::G1_GEN_MONT, sc, n, &kms, err);
        double t1 = now_ms();
        if (st != CUZK_OK) break;
        if (r >= 0) {
            wall_ms[r] = (float)(t1 - t0);
            kernel_ms[r] = kms;
        }
    }
    if (st == CUZK_OK && scalars_out) memcpy(scalars_out, sc, n * sizeof(api_curve::fr));
    if (st == CUZK_OK && points_out) memcpy(points_out, outp, n * pt_bytes);
    free(sc);
    free(outp);
    return st;
}
