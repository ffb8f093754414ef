/* G1 multi-scalar multiplication on the GPU (src/cuda/gpu.h: gpu_g1_msm, gpu_bench_g1_msm).
 *
 * Pippenger's bucket method with signed c-bit window digits:
 *  1. msm_digits_kernel: scalar i -> W = floor(255/c) + 1 signed digits d in [-2^(c-1), 2^(c-1)]
 *     (carry recoding); pair (key = w * 2^(c-1) + |d| - 1, value = i | sign << 31); digit 0 gets
 *     the key NB (= W * 2^(c-1)), which sorts last and is ignored.
 *  2. cub::DeviceRadixSort::SortPairs over the keys (ceil(log2(NB + 1)) bits).
 *  3. bucket bounds from the sorted keys; each bucket split into tasks of at most K pairs
 *     (cub::DeviceScan gives task offsets), so one hot bucket (all scalars equal) still spreads
 *     over many threads.
 *  4. msm_accumulate_kernel: thread per task, XYZZ accumulator, mixed additions of affine bases
 *     (y negated for negative digits); msm_bucket_sum_kernel adds each bucket's task partials.
 *  5. bucket reduction per window: buckets cut into segments of L; each segment's running sum
 *     gives sum_k (k - lo + 1) B_k and sum_k B_k; the segment adds (lo - 1) * sum B_k (double
 *     and add). Segments of a window are then summed in groups (tree of launches).
 *  6. msm_final_kernel: Horner over windows (c doublings, one addition each), Jacobian out.
 * Sources: Pippenger 1976; Bernstein, Doumen, Lange, Oosterwijk 2012 (signed digits); the
 * sort-by-bucket structure follows sppark / cuZK-style GPU MSMs.
 */
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_scan.cuh>
#include <new>

#include "cuda/ctx_internal.cuh"
#include "cuda/ec.cuh"
#include "cuda/util.cuh"

using namespace cuzk_dev;

namespace {

const uint32_t SIGN_BIT = 0x80000000u;
const int SEG_LOG = 5;   /* buckets per reduction segment: 2^5 */
const int GROUP = 8;     /* points summed per thread in the window tree */

inline unsigned nblocks(size_t n, unsigned bs) { return (unsigned)((n + bs - 1) / bs); }

struct msm_ws {
    size_t n;
    int c, W;
    uint32_t nbw, nb, K, seg_per_win;
    size_t npairs, max_tasks;
    int sort_bits;
    uint32_t *d_keys, *d_keys2, *d_vals, *d_vals2;
    uint32_t *d_bstart, *d_bend, *d_ntasks, *d_toff;
    void *d_temp;
    size_t temp_bytes;
    g1_xyzz_t *d_partials, *d_buckets, *d_seg, *d_seg2;
};

__global__ void msm_digits_kernel(const uint64_t *__restrict__ scalars, size_t n, int c, int W,
                                  uint32_t nbw, uint32_t *__restrict__ keys, uint32_t *__restrict__ vals) {
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    uint64_t s[4];
#pragma unroll
    for (int k = 0; k < 4; k++) s[k] = scalars[4 * i + k];
    const uint32_t nb = (uint32_t)W * nbw;
    const uint32_t half = 1u << (c - 1);
    const uint32_t mask = (1u << c) - 1;
    uint32_t carry = 0;
    for (int w = 0; w < W; w++) {
        int bit = w * c;
        uint32_t raw = 0;
        if (bit < 256) {
            int li = bit >> 6, sh = bit & 63;
            uint64_t v = s[li] >> sh;
            if (sh + c > 64 && li + 1 < 4) v |= s[li + 1] << (64 - sh);
            raw = (uint32_t)v & mask;
        }
        raw += carry;
        int32_t d;
        if (raw > half) { d = (int32_t)raw - (int32_t)(1u << c); carry = 1; }
        else { d = (int32_t)raw; carry = 0; }
        uint32_t key, val;
        if (d == 0) { key = nb; val = (uint32_t)i; }
        else if (d > 0) { key = (uint32_t)w * nbw + (uint32_t)d - 1; val = (uint32_t)i; }
        else { key = (uint32_t)w * nbw + (uint32_t)(-d) - 1; val = (uint32_t)i | SIGN_BIT; }
        keys[(size_t)w * n + i] = key;
        vals[(size_t)w * n + i] = val;
    }
}

__global__ void msm_bounds_kernel(const uint32_t *__restrict__ keys, size_t np, uint32_t nb,
                                  uint32_t *bstart, uint32_t *bend) {
    size_t j = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (j >= np) return;
    uint32_t k = keys[j];
    if (k >= nb) return;
    if (j == 0 || keys[j - 1] != k) bstart[k] = (uint32_t)j;
    if (j + 1 == np || keys[j + 1] != k) bend[k] = (uint32_t)(j + 1);
}

__global__ void msm_ntasks_kernel(const uint32_t *bstart, const uint32_t *bend, uint32_t nb, uint32_t K,
                                  uint32_t *ntasks) {
    uint32_t b = blockIdx.x * blockDim.x + threadIdx.x;
    if (b > nb) return;
    ntasks[b] = b == nb ? 0 : (bend[b] - bstart[b] + K - 1) / K;
}

/* Tasks are numbered bucket-major; a thread finds its bucket by binary search in toff. */
__global__ void __launch_bounds__(128) msm_accumulate_kernel(
    const g1_affine_t *__restrict__ bases, const uint32_t *__restrict__ vals,
    const uint32_t *__restrict__ bstart, const uint32_t *__restrict__ bend,
    const uint32_t *__restrict__ toff, uint32_t nb, uint32_t K, size_t max_tasks,
    g1_xyzz_t *__restrict__ partials) {
    size_t t = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= max_tasks) return;
    const uint32_t total = toff[nb];
    if (t >= total) return;
    /* largest b with toff[b] <= t */
    uint32_t lo = 0, hi = nb;
    while (hi - lo > 1) {
        uint32_t mid = (lo + hi) >> 1;
        if (toff[mid] <= t) lo = mid; else hi = mid;
    }
    const uint32_t b = lo;
    const uint32_t start = bstart[b] + ((uint32_t)t - toff[b]) * K;
    uint32_t end = start + K;
    if (end > bend[b]) end = bend[b];
    g1_xyzz_t acc = g1_xyzz_t::inf();
    for (uint32_t p = start; p < end; p++) {
        uint32_t v = vals[p];
        g1_affine_t q = bases[v & ~SIGN_BIT];
        if (q.is_inf()) continue;
        if (v & SIGN_BIT) q.y = -q.y;
        acc.add_affine_noinf(q.x, q.y);
    }
    partials[t] = acc;
}

__global__ void msm_bucket_sum_kernel(const g1_xyzz_t *__restrict__ partials, const uint32_t *__restrict__ toff,
                                      uint32_t nb, g1_xyzz_t *__restrict__ buckets) {
    uint32_t b = blockIdx.x * blockDim.x + threadIdx.x;
    if (b >= nb) return;
    uint32_t t0 = toff[b], t1 = toff[b + 1];
    g1_xyzz_t acc = g1_xyzz_t::inf();
    if (t1 > t0) acc = partials[t0];
    for (uint32_t t = t0 + 1; t < t1; t++) acc.add(partials[t]);
    buckets[b] = acc;
}

__device__ g1_xyzz_t xyzz_mul_small(const g1_xyzz_t &p, uint32_t k) {
    g1_xyzz_t r = g1_xyzz_t::inf();
    if (k == 0 || p.is_inf()) return r;
    int top = 31 - __clz(k);
    r = p;
    for (int i = top - 1; i >= 0; i--) {
        r = r.dbl();
        if ((k >> i) & 1) r.add(p);
    }
    return r;
}

/* thread per (window, segment): segment covers bucket indices [s*L, (s+1)*L) of window w, i.e.
 * digit magnitudes k = s*L + 1 .. (s+1)*L. out = sum_k k * B_k over the segment. */
__global__ void __launch_bounds__(128) msm_segment_kernel(const g1_xyzz_t *__restrict__ buckets, uint32_t nbw,
                                                          uint32_t L, uint32_t seg_per_win, int W,
                                                          g1_xyzz_t *__restrict__ out) {
    uint32_t t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= (uint32_t)W * seg_per_win) return;
    uint32_t w = t / seg_per_win, s = t % seg_per_win;
    const g1_xyzz_t *bw = buckets + (size_t)w * nbw + (size_t)s * L;
    g1_xyzz_t run = g1_xyzz_t::inf(), acc = g1_xyzz_t::inf();
    for (int k = (int)L - 1; k >= 0; k--) {
        run.add(bw[k]);
        acc.add(run);
    }
    acc.add(xyzz_mul_small(run, s * L));
    out[t] = acc;
}

/* out[w * m_out + j] = sum_{g < GROUP} in[w * m_in + j * GROUP + g] (indices < m_in) */
__global__ void msm_group_sum_kernel(const g1_xyzz_t *__restrict__ in, uint32_t m_in, uint32_t m_out, int W,
                                     g1_xyzz_t *__restrict__ out) {
    uint32_t t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= (uint32_t)W * m_out) return;
    uint32_t w = t / m_out, j = t % m_out;
    g1_xyzz_t acc = g1_xyzz_t::inf();
    for (uint32_t g = 0; g < GROUP; g++) {
        uint32_t idx = j * GROUP + g;
        if (idx < m_in) acc.add(in[(size_t)w * m_in + idx]);
    }
    out[t] = acc;
}

__global__ void msm_final_kernel(const g1_xyzz_t *win, int W, int c, g1_jacobian_t *out) {
    if (threadIdx.x != 0 || blockIdx.x != 0) return;
    g1_xyzz_t r = win[W - 1];
    for (int w = W - 2; w >= 0; w--) {
        for (int k = 0; k < c; k++) r = r.dbl();
        r.add(win[w]);
    }
    *out = r.to_jacobian();
}

void ws_free(msm_ws *ws) {
    cudaFree(ws->d_keys); cudaFree(ws->d_keys2); cudaFree(ws->d_vals); cudaFree(ws->d_vals2);
    cudaFree(ws->d_bstart); cudaFree(ws->d_bend); cudaFree(ws->d_ntasks); cudaFree(ws->d_toff);
    cudaFree(ws->d_temp);
    cudaFree(ws->d_partials); cudaFree(ws->d_buckets); cudaFree(ws->d_seg); cudaFree(ws->d_seg2);
    memset(ws, 0, sizeof *ws);
}

cuzk_status ws_init(msm_ws *ws, size_t n, int c, cuzk_error *err) {
    cuzk_status st = CUZK_OK;
    size_t sort_tmp = 0, scan_tmp = 0;
    memset(ws, 0, sizeof *ws);
    ws->n = n;
    ws->c = c;
    ws->W = 255 / c + 1;
    ws->nbw = 1u << (c - 1);
    ws->nb = (uint32_t)ws->W * ws->nbw;
    ws->npairs = n * (size_t)ws->W;
    {
        size_t avg = n / ws->nbw;
        ws->K = (uint32_t)(2 * avg > 32 ? 2 * avg : 32);
    }
    ws->max_tasks = ws->npairs / ws->K + ws->nb + 1;
    ws->sort_bits = 1;
    while ((1ull << ws->sort_bits) <= ws->nb) ws->sort_bits++;
    {
        uint32_t L = 1u << SEG_LOG;
        if (L > ws->nbw) L = ws->nbw;
        ws->seg_per_win = ws->nbw / L;
    }
    CU(cudaMalloc(&ws->d_keys, ws->npairs * 4));
    CU(cudaMalloc(&ws->d_keys2, ws->npairs * 4));
    CU(cudaMalloc(&ws->d_vals, ws->npairs * 4));
    CU(cudaMalloc(&ws->d_vals2, ws->npairs * 4));
    CU(cudaMalloc(&ws->d_bstart, (size_t)(ws->nb + 1) * 4));
    CU(cudaMalloc(&ws->d_bend, (size_t)(ws->nb + 1) * 4));
    CU(cudaMalloc(&ws->d_ntasks, (size_t)(ws->nb + 1) * 4));
    CU(cudaMalloc(&ws->d_toff, (size_t)(ws->nb + 1) * 4));
    CU(cub::DeviceRadixSort::SortPairs(NULL, sort_tmp, ws->d_keys, ws->d_keys2, ws->d_vals, ws->d_vals2,
                                       (int64_t)ws->npairs, 0, ws->sort_bits));
    CU(cub::DeviceScan::ExclusiveSum(NULL, scan_tmp, ws->d_ntasks, ws->d_toff, (int)(ws->nb + 1)));
    ws->temp_bytes = sort_tmp > scan_tmp ? sort_tmp : scan_tmp;
    CU(cudaMalloc(&ws->d_temp, ws->temp_bytes));
    CU(cudaMalloc(&ws->d_partials, ws->max_tasks * sizeof(g1_xyzz_t)));
    CU(cudaMalloc(&ws->d_buckets, (size_t)ws->nb * sizeof(g1_xyzz_t)));
    CU(cudaMalloc(&ws->d_seg, (size_t)ws->W * ws->seg_per_win * sizeof(g1_xyzz_t)));
    CU(cudaMalloc(&ws->d_seg2, (size_t)ws->W * ws->seg_per_win * sizeof(g1_xyzz_t)));
    return CUZK_OK;
out:
    ws_free(ws);
    return st;
}

/* d_out: one Jacobian point on the device. n >= 1. */
cuzk_status msm_run(msm_ws *ws, g1_jacobian_t *d_out, const g1_affine_t *d_bases, const uint64_t *d_scalars,
                    cuzk_error *err) {
    cuzk_status st = CUZK_OK;
    const size_t n = ws->n;
    size_t tb;
    uint32_t m;
    g1_xyzz_t *a, *b;
    msm_digits_kernel<<<nblocks(n, 256), 256>>>(d_scalars, n, ws->c, ws->W, ws->nbw, ws->d_keys, ws->d_vals);
    CU_LAUNCH("msm_digits_kernel");
    tb = ws->temp_bytes;
    CU(cub::DeviceRadixSort::SortPairs(ws->d_temp, tb, ws->d_keys, ws->d_keys2, ws->d_vals, ws->d_vals2,
                                       (int64_t)ws->npairs, 0, ws->sort_bits));
    CU_LAUNCH("cub SortPairs");
    CU(cudaMemsetAsync(ws->d_bstart, 0, (size_t)(ws->nb + 1) * 4));
    CU(cudaMemsetAsync(ws->d_bend, 0, (size_t)(ws->nb + 1) * 4));
    msm_bounds_kernel<<<nblocks(ws->npairs, 256), 256>>>(ws->d_keys2, ws->npairs, ws->nb, ws->d_bstart, ws->d_bend);
    CU_LAUNCH("msm_bounds_kernel");
    msm_ntasks_kernel<<<nblocks(ws->nb + 1, 256), 256>>>(ws->d_bstart, ws->d_bend, ws->nb, ws->K, ws->d_ntasks);
    CU_LAUNCH("msm_ntasks_kernel");
    tb = ws->temp_bytes;
    CU(cub::DeviceScan::ExclusiveSum(ws->d_temp, tb, ws->d_ntasks, ws->d_toff, (int)(ws->nb + 1)));
    CU_LAUNCH("cub ExclusiveSum");
    msm_accumulate_kernel<<<nblocks(ws->max_tasks, 128), 128>>>(d_bases, ws->d_vals2, ws->d_bstart, ws->d_bend,
                                                                ws->d_toff, ws->nb, ws->K, ws->max_tasks,
                                                                ws->d_partials);
    CU_LAUNCH("msm_accumulate_kernel");
    msm_bucket_sum_kernel<<<nblocks(ws->nb, 128), 128>>>(ws->d_partials, ws->d_toff, ws->nb, ws->d_buckets);
    CU_LAUNCH("msm_bucket_sum_kernel");
    msm_segment_kernel<<<nblocks((size_t)ws->W * ws->seg_per_win, 128), 128>>>(
        ws->d_buckets, ws->nbw, ws->nbw / ws->seg_per_win, ws->seg_per_win, ws->W, ws->d_seg);
    CU_LAUNCH("msm_segment_kernel");
    m = ws->seg_per_win;
    a = ws->d_seg;
    b = ws->d_seg2;
    while (m > 1) {
        uint32_t mo = (m + GROUP - 1) / GROUP;
        msm_group_sum_kernel<<<nblocks((size_t)ws->W * mo, 128), 128>>>(a, m, mo, ws->W, b);
        CU_LAUNCH("msm_group_sum_kernel");
        g1_xyzz_t *t = a; a = b; b = t;
        m = mo;
    }
    msm_final_kernel<<<1, 1>>>(a, ws->W, ws->c, d_out);
    CU_LAUNCH("msm_final_kernel");
out:
    return st;
}

}  // namespace

extern "C" int gpu_msm_window_bits(size_t n) {
    int lg = 0;
    while (lg < 63 && ((size_t)2 << lg) <= n) lg++;
    int c = lg - 4;
    if (c < 4) c = 4;
    if (c > 16) c = 16;
    return c;
}

extern "C" cuzk_status gpu_g1_msm(struct g1_jacobian *out, const struct g1_affine *bases,
                                  const struct scalar256 *scalars, size_t n, cuzk_error *err) {
    GPU_ARG(out, "gpu_g1_msm: out is NULL");
    GPU_ARG(n == 0 || (bases && scalars), "gpu_g1_msm: NULL input");
    GPU_ARG(n < ((size_t)1 << 31), "gpu_g1_msm: n >= 2^31");
    if (n == 0) {
        memset(out, 0, sizeof(g1_jacobian_t)); /* Z = 0 */
        const uint64_t one64[6] = BLS12_381_FP_R;
        memcpy((char *)out, one64, 48);
        memcpy((char *)out + 48, one64, 48);
        return CUZK_OK;
    }
    cuzk_status st = CUZK_OK;
    msm_ws ws;
    g1_affine_t *d_bases = NULL;
    uint64_t *d_scalars = NULL;
    g1_jacobian_t *d_out = NULL;
    memset(&ws, 0, sizeof ws);
    st = ws_init(&ws, n, gpu_msm_window_bits(n), err);
    if (st != CUZK_OK) goto out;
    CU(cudaMalloc(&d_bases, n * sizeof(g1_affine_t)));
    CU(cudaMalloc(&d_scalars, n * 32));
    CU(cudaMalloc(&d_out, sizeof(g1_jacobian_t)));
    CU(cudaMemcpy(d_bases, bases, n * sizeof(g1_affine_t), cudaMemcpyHostToDevice));
    CU(cudaMemcpy(d_scalars, scalars, n * 32, cudaMemcpyHostToDevice));
    st = msm_run(&ws, d_out, d_bases, d_scalars, err);
    if (st != CUZK_OK) goto out;
    CU(cudaMemcpy(out, d_out, sizeof(g1_jacobian_t), cudaMemcpyDeviceToHost));
out:
    cudaFree(d_bases);
    cudaFree(d_scalars);
    cudaFree(d_out);
    ws_free(&ws);
    return st;
}

/* ---- benchmark data ---------------------------------------------------------------------- */
namespace {
__device__ __forceinline__ uint64_t mix64(uint64_t z) {
    z += 0x9e3779b97f4a7c15ull;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}
/* random x (< 2^380 < p), first x, x+1, ... with x^3 + 4 a square; y = (x^3+4)^((p+1)/4) */
__global__ void msm_random_points_kernel(g1_affine_t *pts, size_t n, uint64_t seed) {
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    fp_t x;
    for (int k = 0; k < 6; k++) {
        uint64_t v = mix64(seed ^ (i * 6 + k) * 0xd1342543de82ef95ull);
        x.l[2 * k] = (uint32_t)v;
        x.l[2 * k + 1] = (uint32_t)(v >> 32);
    }
    x.l[11] &= 0x0fffffffu;
    uint32_t e[12];
    /* (p + 1) / 4 */
    uint32_t c = 1;
    for (int k = 0; k < 12; k++) { uint64_t s = (uint64_t)fp_params::mod(k) + c; e[k] = (uint32_t)s; c = (uint32_t)(s >> 32); }
    for (int k = 0; k < 12; k++) e[k] = (e[k] >> 2) | (k + 1 < 12 ? e[k + 1] << 30 : 0);
    const fp_t four = fp_t::from_u32(4);
    for (;;) {
        fp_t y2 = x.sqr() * x + four;
        fp_t y = fp_t::pow(y2, e, 12);
        if (y.sqr() == y2) { pts[i].x = x; pts[i].y = y; return; }
        x = x + fp_t::one();
    }
}
__global__ void msm_random_scalars_kernel(uint64_t *s, size_t n, uint64_t seed) {
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    for (int k = 0; k < 4; k++) s[4 * i + k] = mix64(seed + 4 * i + k);
    s[4 * i + 3] &= 0x3fffffffffffffffull;
}
}  // namespace

extern "C" cuzk_status gpu_bench_g1_msm(size_t n, int window_bits, int warmup, int reps, float *times_ms,
                                        cuzk_error *err) {
    GPU_ARG(n >= 1 && n < ((size_t)1 << 31) && reps >= 1 && times_ms, "gpu_bench_g1_msm: bad args");
    GPU_ARG(window_bits <= 0 || (window_bits >= 2 && window_bits <= 20), "gpu_bench_g1_msm: bad window");
    cuzk_status st = CUZK_OK;
    msm_ws ws;
    g1_affine_t *d_bases = NULL;
    uint64_t *d_scalars = NULL;
    g1_jacobian_t *d_out = NULL;
    cudaEvent_t e0 = NULL, e1 = NULL;
    memset(&ws, 0, sizeof ws);
    st = ws_init(&ws, n, window_bits > 0 ? window_bits : gpu_msm_window_bits(n), err);
    if (st != CUZK_OK) goto out;
    CU(cudaMalloc(&d_bases, n * sizeof(g1_affine_t)));
    CU(cudaMalloc(&d_scalars, n * 32));
    CU(cudaMalloc(&d_out, sizeof(g1_jacobian_t)));
    CU(cudaEventCreate(&e0));
    CU(cudaEventCreate(&e1));
    msm_random_points_kernel<<<nblocks(n, 128), 128>>>(d_bases, n, 0x1234);
    CU_LAUNCH("msm_random_points_kernel");
    for (int r = -warmup; r < reps; r++) {
        msm_random_scalars_kernel<<<nblocks(n, 256), 256>>>(d_scalars, n, 777 + (uint64_t)r * 0x10001);
        CU_LAUNCH("msm_random_scalars_kernel");
        CU(cudaEventRecord(e0));
        st = msm_run(&ws, d_out, d_bases, d_scalars, err);
        if (st != CUZK_OK) goto out;
        CU(cudaEventRecord(e1));
        CU(cudaEventSynchronize(e1));
        if (r >= 0) CU(cudaEventElapsedTime(&times_ms[r], e0, e1));
    }
out:
    if (e0) cudaEventDestroy(e0);
    if (e1) cudaEventDestroy(e1);
    cudaFree(d_bases);
    cudaFree(d_scalars);
    cudaFree(d_out);
    ws_free(&ws);
    return st;
}

/* ---- resident bases and the MSM with the 0/1 split (stubs: implementation in progress) -------- */

struct gpu_g1_bases {
    gpu_ctx *ctx;
    g1_affine_t *d_pts;
    size_t n;
};

extern "C" cuzk_status gpu_g1_bases_upload(gpu_ctx *ctx, gpu_g1_bases **out, const struct g1_affine *bases,
                                           size_t n, cuzk_error *err) {
    GPU_ARG(out, "gpu_g1_bases_upload: out is NULL");
    *out = NULL;
    GPU_ARG(n == 0 || bases, "gpu_g1_bases_upload: bases is NULL");
    GPU_ARG(n < ((size_t)1 << 31), "gpu_g1_bases_upload: n >= 2^31");
    CTX_ENTER();
    cuzk_status st = CUZK_OK;
    gpu_g1_bases *b = new (std::nothrow) gpu_g1_bases;
    if (!b) return dev_error(err, CUZK_ERR_NOMEM, __FILE__, __LINE__, "gpu_g1_bases_upload: out of memory");
    b->ctx = ctx;
    b->d_pts = NULL;
    b->n = n;
    if (n) {
        CTX_CU(cudaMalloc(&b->d_pts, n * sizeof(g1_affine_t)));
        CTX_CU(cudaMemcpyAsync(b->d_pts, bases, n * sizeof(g1_affine_t), cudaMemcpyHostToDevice, ctx->stream));
        CTX_CU(cudaStreamSynchronize(ctx->stream));
    }
    ctx->resident_bytes += n * sizeof(g1_affine_t);
    *out = b;
    return CUZK_OK;
out:
    if (b->d_pts) cudaFree(b->d_pts);
    delete b;
    return st;
}

extern "C" size_t gpu_g1_bases_count(const gpu_g1_bases *b) { return b ? b->n : 0; }
extern "C" size_t gpu_g1_bases_bytes(const gpu_g1_bases *b) { return b ? b->n * sizeof(g1_affine_t) : 0; }

extern "C" void gpu_g1_bases_free(gpu_g1_bases *b) {
    if (!b) return;
    gpu_ctx *ctx = b->ctx;
    if (b->d_pts && !ctx->dead.load() && ctx_enter(ctx, NULL, __FILE__, __LINE__) == CUZK_OK) {
        cudaError_t e = cudaStreamSynchronize(ctx->stream);
        if (e == cudaSuccess) e = cudaFree(b->d_pts);
        if (e != cudaSuccess) (void)ctx_fail(ctx, NULL, e, __FILE__, __LINE__, "gpu_g1_bases_free");
    }
    ctx->resident_bytes -= b->n * sizeof(g1_affine_t);
    delete b;
}

extern "C" cuzk_status gpu_g1_msm_run(gpu_ctx *ctx, const gpu_msm_job *jobs, size_t n_jobs, gpu_msm_stats *stats,
                                      cuzk_error *err) {
    (void)jobs; (void)n_jobs; (void)stats;
    CTX_ENTER();
    return dev_error(err, CUZK_ERR_UNSUPPORTED, __FILE__, __LINE__, "gpu_g1_msm_run: not implemented yet");
}

extern "C" cuzk_status gpu_bench_g1_msm01(size_t n, double frac01, bool montgomery, int warmup, int reps,
                                          float *times_ms, gpu_msm_stats *stats, cuzk_error *err) {
    (void)n; (void)frac01; (void)montgomery; (void)warmup; (void)reps; (void)times_ms; (void)stats;
    return dev_error(err, CUZK_ERR_UNSUPPORTED, __FILE__, __LINE__, "gpu_bench_g1_msm01: not implemented yet");
}
