/* G1 multi-scalar multiplication on the GPU (src/cuda/gpu.h): SRS-resident bases
 * (gpu_g1_bases_*), the MSM with the 0/1 split over them (gpu_g1_msm_run), the host-array
 * gpu_g1_msm on top of it, and the benchmarks.
 *
 * One job of gpu_g1_msm_run:
 *  1. classification: cub::DevicePartition::If (three-way) over k < n: scalars equal to 1 (R mod r
 *     in Montgomery form) give the list `ones` of k, other nonzero scalars the list `tail`; zeros
 *     are dropped. Both lists keep the order of k. The counts go to the host (the only host wait
 *     inside a job, overlapped with step 2).
 *  2. ones: msm_ones_kernel, one full wave of threads; thread t sums bases[ones[t + i*T]] with XYZZ
 *     mixed additions (adjacent threads read adjacent entries); the T partial sums are added by a
 *     tree of msm_group_sum_kernel launches (4 per thread per level), the sum copied to the host.
 *  3. tail, in chunks of at most `chunk` entries (2^25; gpu_msm_tuning lowers it), each chunk a
 *     Pippenger pass with signed c-bit window digits:
 *     a. msm_digits_kernel: entry j -> W = floor(255/c) + 1 signed digits d in [-2^(c-1), 2^(c-1)]
 *        (carry recoding; Montgomery scalars converted first); pair (key = w * 2^(c-1) + |d| - 1,
 *        value = k | sign << 31); digit 0 gets the key NB (= W * 2^(c-1)), which sorts last and is
 *        ignored.
 *     b. cub::DeviceRadixSort::SortPairs (double buffer) over the keys (ceil(log2(NB + 1)) bits).
 *     c. bucket bounds from the sorted keys; a bucket of at most 4K pairs (K: twice the average)
 *        is split into tasks of at most K pairs, a larger one into tasks of at most min(K, 256)
 *        pairs (cub::DeviceScan gives task offsets), so one hot bucket (all scalars equal) still
 *        spreads over many threads.
 *     d. msm_accumulate_kernel: thread per task, XYZZ accumulator, mixed additions of affine bases
 *        (y negated for negative digits); msm_bucket_sum_kernel adds each light bucket's task
 *        partials on one thread, msm_heavy_bucket_kernel those of buckets with more than 32
 *        partials by a block tree (list from cub::DeviceSelect).
 *     e. bucket reduction per window: buckets cut into segments of L; each segment's running sum
 *        gives sum_k (k - lo + 1) B_k and sum_k B_k; the segment adds (lo - 1) * sum B_k (double
 *        and add). Segments of a window are then summed in groups (tree of launches), and the W
 *        window sums copied to pinned host memory.
 *  4. on the host: the ones sum plus, per chunk, Horner over its windows (c doublings, one
 *     addition each: ~255 dependent doublings, slow on one GPU thread, ~0.2 ms on a CPU core),
 *     to Jacobian.
 * Scratch: stream-ordered allocations on the ctx stream (the ctx's pool keeps and reuses them).
 * Sources: Pippenger 1976; Bernstein, Doumen, Lange, Oosterwijk 2012 (signed digits); the
 * sort-by-bucket structure follows sppark / cuZK-style GPU MSMs; the 0/1 split follows
 * supraseal-c2 (DESIGN.md section 6).
 */
#include <cub/device/device_partition.cuh>
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_scan.cuh>
#include <cub/device/device_select.cuh>
#include <new>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/discard_iterator.h>

#include "cuda/ctx_internal.cuh"
#include "cuda/ec.cuh"
#include "cuda/util.cuh"

using namespace cuzk_dev;

struct gpu_g1_bases {
    gpu_ctx *ctx;
    g1_affine_t *d_pts;
    size_t n;
};

namespace {

const uint32_t SIGN_BIT = 0x80000000u;
const int SEG_LOG = 4;        /* buckets per reduction segment: 2^4 */
const uint32_t GROUP = 8;     /* points summed per thread in the tail's window trees */
const uint32_t GROUP_ONES = 4; /* the same in the ones tree (more levels, shorter serial chains) */
const size_t DEFAULT_CHUNK = (size_t)1 << 25;
const uint32_t TASK_HEAVY = 256;      /* pairs per task in a bucket larger than K (see msm_bucket_tasks) */
const uint32_t HEAVY_PARTIALS = 32;   /* buckets with more task partials are summed by a block tree */
const unsigned HEAVY_BLOCKS = 2048;   /* grid of msm_heavy_bucket_kernel (blocks loop over the list) */
const size_t MIN_CHUNK = 64;

inline unsigned nblocks(size_t n, unsigned bs) { return (unsigned)((n + bs - 1) / bs); }

/* ---- scalar loads and classification ---------------------------------------------------------- */

__device__ __forceinline__ void load_scalar(uint64_t s[4], const uint64_t *__restrict__ scalars,
                                            const uint32_t *__restrict__ idx, uint32_t k) {
    const size_t j = idx ? (size_t)idx[k] : (size_t)k;
#pragma unroll
    for (int i = 0; i < 4; i++) s[i] = scalars[4 * j + i];
}

__device__ __forceinline__ uint64_t fr_one_limb(int i) {
    return ((uint64_t)fr_params::one(2 * i + 1) << 32) | fr_params::one(2 * i);
}

/* 0: zero, 1: one (Montgomery: R mod r), 2: anything else */
struct scalar_class {
    const uint64_t *scalars;
    const uint32_t *idx;
    int mont;
    __device__ __forceinline__ int operator()(uint32_t k) const {
        uint64_t s[4];
        load_scalar(s, scalars, idx, k);
        if ((s[0] | s[1] | s[2] | s[3]) == 0) return 0;
        if (mont) {
            if (s[0] == fr_one_limb(0) && s[1] == fr_one_limb(1) && s[2] == fr_one_limb(2) && s[3] == fr_one_limb(3))
                return 1;
        } else if (s[0] == 1 && (s[1] | s[2] | s[3]) == 0) {
            return 1;
        }
        return 2;
    }
};
struct is_one_op {
    scalar_class c;
    __device__ __forceinline__ bool operator()(const uint32_t &k) const { return c(k) == 1; }
};
struct is_other_op {
    scalar_class c;
    __device__ __forceinline__ bool operator()(const uint32_t &k) const { return c(k) == 2; }
};

/* ---- ones ------------------------------------------------------------------------------------- */

__global__ void __launch_bounds__(128) msm_ones_kernel(const g1_affine_t *__restrict__ bases,
                                                       const uint32_t *__restrict__ ones,
                                                       const int *__restrict__ counts,
                                                       g1_xyzz_t *__restrict__ partials) {
    const size_t T = (size_t)gridDim.x * blockDim.x;
    const size_t t = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    const size_t m = (size_t)counts[0];
    g1_xyzz_t acc = g1_xyzz_t::inf();
    for (size_t j = t; j < m; j += T) {
        const g1_affine_t q = bases[ones[j]];
        if (!q.is_inf()) acc.add_affine_noinf(q.x, q.y);
    }
    partials[t] = acc;
}

/* out[w * m_out + j] = sum_{g < group} in[w * m_in + j * group + g] (indices < m_in) */
__global__ void msm_group_sum_kernel(const g1_xyzz_t *__restrict__ in, uint32_t m_in, uint32_t m_out, int W,
                                     uint32_t group, g1_xyzz_t *__restrict__ out) {
    uint32_t t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= (uint32_t)W * m_out) return;
    uint32_t w = t / m_out, j = t % m_out;
    g1_xyzz_t acc = g1_xyzz_t::inf();
    for (uint32_t g = 0; g < group; g++) {
        uint32_t idx = j * group + g;
        if (idx < m_in) acc.add(in[(size_t)w * m_in + idx]);
    }
    out[t] = acc;
}

/* ---- tail (Pippenger) ------------------------------------------------------------------------- */

__global__ void msm_digits_kernel(const uint64_t *__restrict__ scalars, const uint32_t *__restrict__ idx, int mont,
                                  const uint32_t *__restrict__ tail, size_t cn, int c, int W, uint32_t nbw,
                                  uint32_t *__restrict__ keys, uint32_t *__restrict__ vals) {
    size_t j = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (j >= cn) return;
    const uint32_t k = tail[j];
    uint64_t s[4];
    load_scalar(s, scalars, idx, k);
    if (mont) {
        fr_t v;
#pragma unroll
        for (int i = 0; i < 4; i++) { v.l[2 * i] = (uint32_t)s[i]; v.l[2 * i + 1] = (uint32_t)(s[i] >> 32); }
        v = v.to_canon();
#pragma unroll
        for (int i = 0; i < 4; i++) s[i] = (uint64_t)v.l[2 * i] | ((uint64_t)v.l[2 * i + 1] << 32);
    }
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
        if (d == 0) { key = nb; val = k; }
        else if (d > 0) { key = (uint32_t)w * nbw + (uint32_t)d - 1; val = k; }
        else { key = (uint32_t)w * nbw + (uint32_t)(-d) - 1; val = k | SIGN_BIT; }
        keys[(size_t)w * cn + j] = key;
        vals[(size_t)w * cn + j] = val;
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

/* Tasks of bucket b: ceil(size / K) while size <= 4K (K is twice the average: the buckets of
 * uniform scalars), else ceil(size / min(K, TASK_HEAVY)). A heavy bucket (many scalars sharing a
 * window digit: field elements that differ only in their low bits, e.g. p - small or chained
 * sums) thus becomes many short serial runs (<= 256 additions) at full occupancy; its partials
 * are then summed by a block tree (msm_heavy_bucket_kernel: ~(partials / 128) + 7 dependent
 * additions) instead of one thread. Light buckets (<= HEAVY_PARTIALS partials) are summed
 * serially by msm_bucket_sum_kernel. Measured (bench/GPU_RESULTS.md, session 3): splitting every
 * bucket above K into 256-pair tasks made uniform MSMs 7-20 % slower (warps mixing 256- and
 * 2K-pair tasks), hence the 4K threshold. */
__device__ __forceinline__ uint32_t msm_bucket_tasks(uint32_t size, uint32_t K) {
    if (size <= 4 * K) return (size + K - 1) / K;
    const uint32_t k = K < TASK_HEAVY ? K : TASK_HEAVY;
    return (size + k - 1) / k;
}

__global__ void msm_ntasks_kernel(const uint32_t *bstart, const uint32_t *bend, uint32_t nb, uint32_t K,
                                  uint32_t *ntasks) {
    uint32_t b = blockIdx.x * blockDim.x + threadIdx.x;
    if (b > nb) return;
    ntasks[b] = b == nb ? 0 : msm_bucket_tasks(bend[b] - bstart[b], K);
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
    /* the bucket's pairs split evenly over its tasks (msm_bucket_tasks): Kb = ceil(size / tasks) */
    const uint32_t size = bend[b] - bstart[b], tasks = toff[b + 1] - toff[b];
    const uint32_t Kb = (size + tasks - 1) / tasks;
    (void)K;
    const uint32_t start = bstart[b] + ((uint32_t)t - toff[b]) * Kb;
    uint32_t end = start + Kb;
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
    if (t1 - t0 > HEAVY_PARTIALS) return; /* msm_heavy_bucket_kernel */
    g1_xyzz_t acc = g1_xyzz_t::inf();
    if (t1 > t0) acc = partials[t0];
    for (uint32_t t = t0 + 1; t < t1; t++) acc.add(partials[t]);
    buckets[b] = acc;
}

/* Buckets with more than HEAVY_PARTIALS partials (their list from cub::DeviceSelect): one block
 * per bucket (blocks loop over the list), each thread sums a strided share of the partials, then
 * a shared-memory tree of 7 levels. */
struct is_heavy_op {
    const uint32_t *toff;
    __device__ __forceinline__ bool operator()(const uint32_t &b) const { return toff[b + 1] - toff[b] > HEAVY_PARTIALS; }
};
__global__ void __launch_bounds__(128) msm_heavy_bucket_kernel(const g1_xyzz_t *__restrict__ partials,
                                                               const uint32_t *__restrict__ toff,
                                                               const uint32_t *__restrict__ heavy,
                                                               const int *__restrict__ n_heavy,
                                                               g1_xyzz_t *__restrict__ buckets) {
    __shared__ __align__(16) unsigned char raw[128 * sizeof(g1_xyzz_t)];
    g1_xyzz_t *sm = reinterpret_cast<g1_xyzz_t *>(raw);
    const int nh = *n_heavy;
    for (int i = blockIdx.x; i < nh; i += gridDim.x) {
        const uint32_t b = heavy[i], t0 = toff[b], t1 = toff[b + 1];
        g1_xyzz_t acc = g1_xyzz_t::inf();
        for (uint32_t t = t0 + threadIdx.x; t < t1; t += blockDim.x) acc.add(partials[t]);
        sm[threadIdx.x] = acc;
        __syncthreads();
        for (unsigned h = blockDim.x / 2; h > 0; h >>= 1) {
            if (threadIdx.x < h) {
                g1_xyzz_t x = sm[threadIdx.x];
                x.add(sm[threadIdx.x + h]);
                sm[threadIdx.x] = x;
            }
            __syncthreads();
        }
        if (threadIdx.x == 0) buckets[b] = sm[0];
        __syncthreads();
    }
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

/* ---- host side -------------------------------------------------------------------------------- */

/* Host Fp arithmetic for the last, inherently serial step (Horner over the windows: ~255
 * doublings), which one GPU thread does slowly (a dependent chain of ~150k multiply-adds) and a
 * CPU core in ~0.2 ms. Montgomery form, R = 2^384, same limbs as the device and src/ff; CIOS with
 * 128-bit products. Formulas as in ec.cuh (XYZZ, a = 0). */
namespace hfp {
typedef unsigned __int128 u128;
struct fp { uint64_t l[6]; };
const uint64_t P[6] = BLS12_381_FP_MODULUS;
const uint64_t ONE[6] = BLS12_381_FP_R;
const uint64_t INV = BLS12_381_FP_INV;

inline bool geq_p(const uint64_t *t) {
    for (int i = 5; i >= 0; i--) {
        if (t[i] != P[i]) return t[i] > P[i];
    }
    return true;
}
inline void sub_p(uint64_t *t) {
    uint64_t borrow = 0;
    for (int i = 0; i < 6; i++) {
        u128 d = (u128)t[i] - P[i] - borrow;
        t[i] = (uint64_t)d;
        borrow = (uint64_t)(d >> 64) & 1;
    }
}
inline fp mul(const fp &a, const fp &b) {
    uint64_t t[8] = {0, 0, 0, 0, 0, 0, 0, 0};
    for (int i = 0; i < 6; i++) {
        u128 c = 0;
        for (int j = 0; j < 6; j++) {
            c += (u128)a.l[j] * b.l[i] + t[j];
            t[j] = (uint64_t)c;
            c >>= 64;
        }
        c += t[6];
        t[6] = (uint64_t)c;
        t[7] = (uint64_t)(c >> 64);
        const uint64_t m = t[0] * INV;
        c = (u128)m * P[0] + t[0];
        c >>= 64;
        for (int j = 1; j < 6; j++) {
            c += (u128)m * P[j] + t[j];
            t[j - 1] = (uint64_t)c;
            c >>= 64;
        }
        c += t[6];
        t[5] = (uint64_t)c;
        t[6] = t[7] + (uint64_t)(c >> 64);
    }
    fp r;
    if (t[6] || geq_p(t)) sub_p(t);
    memcpy(r.l, t, sizeof r.l);
    return r;
}
inline fp add(const fp &a, const fp &b) {
    uint64_t t[6], carry = 0;
    for (int i = 0; i < 6; i++) {
        u128 s = (u128)a.l[i] + b.l[i] + carry;
        t[i] = (uint64_t)s;
        carry = (uint64_t)(s >> 64);
    }
    if (carry || geq_p(t)) sub_p(t); /* a + b < 2p < 2^384: carry is 0 */
    fp r;
    memcpy(r.l, t, sizeof r.l);
    return r;
}
inline fp sub(const fp &a, const fp &b) {
    uint64_t t[6], borrow = 0;
    for (int i = 0; i < 6; i++) {
        u128 d = (u128)a.l[i] - b.l[i] - borrow;
        t[i] = (uint64_t)d;
        borrow = (uint64_t)(d >> 64) & 1;
    }
    if (borrow) {
        uint64_t carry = 0;
        for (int i = 0; i < 6; i++) {
            u128 s = (u128)t[i] + P[i] + carry;
            t[i] = (uint64_t)s;
            carry = (uint64_t)(s >> 64);
        }
    }
    fp r;
    memcpy(r.l, t, sizeof r.l);
    return r;
}
inline bool is_zero(const fp &a) { return (a.l[0] | a.l[1] | a.l[2] | a.l[3] | a.l[4] | a.l[5]) == 0; }
inline fp dbl(const fp &a) { return add(a, a); }
inline fp sqr(const fp &a) { return mul(a, a); }

struct xyzz { fp x, y, zz, zzz; };  /* same bytes as g1_xyzz_t; zz = 0: infinity */
inline bool is_inf(const xyzz &p) { return is_zero(p.zz); }
xyzz pdbl(const xyzz &p) {
    if (is_inf(p)) return p;
    fp u = dbl(p.y), v = sqr(u), w = mul(u, v), s = mul(p.x, v), m = sqr(p.x);
    m = add(m, dbl(m));
    xyzz r;
    r.x = sub(sqr(m), dbl(s));
    r.y = sub(mul(m, sub(s, r.x)), mul(w, p.y));
    r.zz = mul(v, p.zz);
    r.zzz = mul(w, p.zzz);
    return r;
}
xyzz padd(const xyzz &p, const xyzz &q) {
    if (is_inf(q)) return p;
    if (is_inf(p)) return q;
    fp u1 = mul(p.x, q.zz), u2 = mul(q.x, p.zz), s1 = mul(p.y, q.zzz), s2 = mul(q.y, p.zzz);
    fp pp_ = sub(u2, u1), r_ = sub(s2, s1);
    if (is_zero(pp_)) {
        if (is_zero(r_)) return pdbl(p);
        xyzz z;
        memset(&z, 0, sizeof z);
        return z;
    }
    fp pp = sqr(pp_), ppp = mul(pp_, pp), qq = mul(u1, pp);
    xyzz r;
    r.x = sub(sub(sub(sqr(r_), ppp), qq), qq);
    r.y = sub(mul(r_, sub(qq, r.x)), mul(s1, ppp));
    r.zz = mul(mul(p.zz, q.zz), pp);
    r.zzz = mul(mul(p.zzz, q.zzz), ppp);
    return r;
}
/* Jacobian (X*ZZ^2, Y*ZZZ^2, ZZZ); infinity -> (1, 1, 0) in Montgomery form */
void to_jacobian(g1_jacobian_t *out, const xyzz &p) {
    fp j[3];
    if (is_inf(p)) {
        memcpy(j[0].l, ONE, 48);
        memcpy(j[1].l, ONE, 48);
        memset(j[2].l, 0, 48);
    } else {
        j[0] = mul(p.x, sqr(p.zz));
        j[1] = mul(p.y, sqr(p.zzz));
        j[2] = p.zzz;
    }
    memcpy(out, j, sizeof j);
}
}  // namespace hfp
static_assert(sizeof(hfp::xyzz) == sizeof(g1_xyzz_t), "host xyzz layout");

/* Stream-ordered allocations of one run, freed together (in reverse) at its end. */
struct scratch {
    gpu_ctx *ctx;
    void *p[24];
    int n;
};
template <class T>
cudaError_t scratch_alloc(scratch *s, T **out, size_t count) {
    *out = NULL;
    if (s->n == (int)(sizeof s->p / sizeof s->p[0])) return cudaErrorInvalidValue;
    void *q = NULL;
    cudaError_t e = cudaMallocAsync(&q, count ? count * sizeof(T) : 1, s->ctx->stream);
    if (e != cudaSuccess) return e;
    s->p[s->n++] = q;
    *out = (T *)q;
    return cudaSuccess;
}
void scratch_release(scratch *s) {
    if (!s->ctx->dead.load())
        for (int i = s->n - 1; i >= 0; i--) (void)cudaFreeAsync(s->p[i], s->ctx->stream);
    s->n = 0;
    (void)cudaGetLastError();
}

/* Tail plan: window and buffer sizes for chunks of at most cn points. */
struct tail_plan {
    size_t cn;
    int c, W, sort_bits;
    uint32_t nbw, nb, K, L, seg_per_win;
    size_t npairs, max_tasks, temp_bytes;
    uint32_t *keys, *keys2, *vals, *vals2, *bstart, *bend, *ntasks, *toff, *heavy;
    int *n_heavy;
    char *temp;
    g1_xyzz_t *partials, *buckets, *seg, *seg2;
};

void plan_sizes(tail_plan *p, size_t cn, int c) {
    memset(p, 0, sizeof *p);
    p->cn = cn;
    p->c = c;
    p->W = 255 / c + 1;
    p->nbw = 1u << (c - 1);
    p->nb = (uint32_t)p->W * p->nbw;
    p->npairs = cn * (size_t)p->W;
    size_t avg = cn / p->nbw;
    p->K = (uint32_t)(2 * avg > 32 ? 2 * avg : 32);
    /* sum over buckets of msm_bucket_tasks <= npairs / min(K, TASK_HEAVY) + one per bucket */
    p->max_tasks = p->npairs / (p->K < TASK_HEAVY ? p->K : TASK_HEAVY) + p->nb + 1;
    p->sort_bits = 1;
    while ((1ull << p->sort_bits) <= p->nb) p->sort_bits++;
    p->L = 1u << SEG_LOG;
    if (p->L > p->nbw) p->L = p->nbw;
    p->seg_per_win = p->nbw / p->L;
}

cuzk_status plan_alloc(gpu_ctx *ctx, scratch *sc, tail_plan *p, cuzk_error *err) {
    cuzk_status st = CUZK_OK;
    size_t sort_tmp = 0, scan_tmp = 0, sel_tmp = 0;
    {
        cub::DoubleBuffer<uint32_t> dk(NULL, NULL), dv(NULL, NULL);
        CTX_CU(cub::DeviceRadixSort::SortPairs(NULL, sort_tmp, dk, dv, (int64_t)p->npairs, 0, p->sort_bits,
                                               ctx->stream));
        CTX_CU(cub::DeviceScan::ExclusiveSum(NULL, scan_tmp, (uint32_t *)NULL, (uint32_t *)NULL, (int)(p->nb + 1),
                                             ctx->stream));
        CTX_CU(cub::DeviceSelect::If(NULL, sel_tmp, thrust::counting_iterator<uint32_t>(0), (uint32_t *)NULL,
                                     (int *)NULL, (int)p->nb, is_heavy_op{NULL}, ctx->stream));
    }
    p->temp_bytes = sort_tmp > scan_tmp ? sort_tmp : scan_tmp;
    if (sel_tmp > p->temp_bytes) p->temp_bytes = sel_tmp;
    CTX_CU(scratch_alloc(sc, &p->keys, p->npairs));
    CTX_CU(scratch_alloc(sc, &p->keys2, p->npairs));
    CTX_CU(scratch_alloc(sc, &p->vals, p->npairs));
    CTX_CU(scratch_alloc(sc, &p->vals2, p->npairs));
    CTX_CU(scratch_alloc(sc, &p->bstart, (size_t)p->nb + 1));
    CTX_CU(scratch_alloc(sc, &p->bend, (size_t)p->nb + 1));
    CTX_CU(scratch_alloc(sc, &p->ntasks, (size_t)p->nb + 1));
    CTX_CU(scratch_alloc(sc, &p->toff, (size_t)p->nb + 1));
    CTX_CU(scratch_alloc(sc, &p->heavy, (size_t)p->nb + 1));
    CTX_CU(scratch_alloc(sc, &p->n_heavy, 1));
    CTX_CU(scratch_alloc(sc, &p->temp, p->temp_bytes));
    CTX_CU(scratch_alloc(sc, &p->partials, p->max_tasks));
    CTX_CU(scratch_alloc(sc, &p->buckets, (size_t)p->nb));
    CTX_CU(scratch_alloc(sc, &p->seg, (size_t)p->W * p->seg_per_win));
    CTX_CU(scratch_alloc(sc, &p->seg2, (size_t)p->W * p->seg_per_win));
out:
    return st;
}

/* One Pippenger pass over tail[0 .. cn) (cn <= p->cn); its W window sums are copied to h_wins
 * (pinned host, W points; valid after the stream has passed this point).
 * ev: NULL or TAIL_EVENTS events, recorded after the digits, the sort, the bucket bounds, the
 * accumulation and the reduction. */
enum { TAIL_EVENTS = 5 };
cuzk_status tail_chunk(gpu_ctx *ctx, tail_plan *p, size_t cn, const uint32_t *tail, const g1_affine_t *bases,
                       const uint64_t *scalars, const uint32_t *idx, int mont, g1_xyzz_t *h_wins,
                       cudaEvent_t *ev, cuzk_error *err) {
    cuzk_status st = CUZK_OK;
    cudaStream_t s = ctx->stream;
    const size_t np = cn * (size_t)p->W;
    size_t tb;
    uint32_t m;
    g1_xyzz_t *a, *b;
    cub::DoubleBuffer<uint32_t> dk(p->keys, p->keys2), dv(p->vals, p->vals2);
    msm_digits_kernel<<<nblocks(cn, 256), 256, 0, s>>>(scalars, idx, mont, tail, cn, p->c, p->W, p->nbw, p->keys,
                                                       p->vals);
    CTX_LAUNCH("msm_digits_kernel");
    if (ev) CTX_CU(cudaEventRecord(ev[0], s));
    tb = p->temp_bytes;
    CTX_CU(cub::DeviceRadixSort::SortPairs(p->temp, tb, dk, dv, (int64_t)np, 0, p->sort_bits, s));
    CTX_LAUNCH("cub SortPairs");
    if (ev) CTX_CU(cudaEventRecord(ev[1], s));
    CTX_CU(cudaMemsetAsync(p->bstart, 0, (size_t)(p->nb + 1) * 4, s));
    CTX_CU(cudaMemsetAsync(p->bend, 0, (size_t)(p->nb + 1) * 4, s));
    msm_bounds_kernel<<<nblocks(np, 256), 256, 0, s>>>(dk.Current(), np, p->nb, p->bstart, p->bend);
    CTX_LAUNCH("msm_bounds_kernel");
    msm_ntasks_kernel<<<nblocks(p->nb + 1, 256), 256, 0, s>>>(p->bstart, p->bend, p->nb, p->K, p->ntasks);
    CTX_LAUNCH("msm_ntasks_kernel");
    tb = p->temp_bytes;
    CTX_CU(cub::DeviceScan::ExclusiveSum(p->temp, tb, p->ntasks, p->toff, (int)(p->nb + 1), s));
    CTX_LAUNCH("cub ExclusiveSum");
    if (ev) CTX_CU(cudaEventRecord(ev[2], s));
    msm_accumulate_kernel<<<nblocks(p->max_tasks, 128), 128, 0, s>>>(bases, dv.Current(), p->bstart, p->bend,
                                                                      p->toff, p->nb, p->K, p->max_tasks,
                                                                      p->partials);
    CTX_LAUNCH("msm_accumulate_kernel");
    msm_bucket_sum_kernel<<<nblocks(p->nb, 128), 128, 0, s>>>(p->partials, p->toff, p->nb, p->buckets);
    CTX_LAUNCH("msm_bucket_sum_kernel");
    tb = p->temp_bytes;
    CTX_CU(cub::DeviceSelect::If(p->temp, tb, thrust::counting_iterator<uint32_t>(0), p->heavy, p->n_heavy,
                                 (int)p->nb, is_heavy_op{p->toff}, s));
    CTX_LAUNCH("cub DeviceSelect::If (heavy buckets)");
    msm_heavy_bucket_kernel<<<HEAVY_BLOCKS, 128, 0, s>>>(p->partials, p->toff, p->heavy, p->n_heavy, p->buckets);
    CTX_LAUNCH("msm_heavy_bucket_kernel");
    if (ev) CTX_CU(cudaEventRecord(ev[3], s));
    msm_segment_kernel<<<nblocks((size_t)p->W * p->seg_per_win, 128), 128, 0, s>>>(p->buckets, p->nbw, p->L,
                                                                                   p->seg_per_win, p->W, p->seg);
    CTX_LAUNCH("msm_segment_kernel");
    m = p->seg_per_win;
    a = p->seg;
    b = p->seg2;
    while (m > 1) {
        uint32_t mo = (m + GROUP - 1) / GROUP;
        msm_group_sum_kernel<<<nblocks((size_t)p->W * mo, 128), 128, 0, s>>>(a, m, mo, p->W, GROUP, b);
        CTX_LAUNCH("msm_group_sum_kernel");
        g1_xyzz_t *t = a; a = b; b = t;
        m = mo;
    }
    /* a[w], w < W: the window sums; Horner over them runs on the host (msm_job) */
    CTX_CU(cudaMemcpyAsync(h_wins, a, (size_t)p->W * sizeof(g1_xyzz_t), cudaMemcpyDeviceToHost, s));
    if (ev) CTX_CU(cudaEventRecord(ev[4], s));
out:
    return st;
}

/* Points per tail pass: t->chunk_points (at least MIN_CHUNK), 0 or t NULL: DEFAULT_CHUNK. */
size_t chunk_limit(const gpu_msm_tuning *t) {
    const size_t v = t ? t->chunk_points : 0;
    if (v > 0) return v < MIN_CHUNK ? MIN_CHUNK : v;
    return DEFAULT_CHUNK;
}

/* Window bits of a tail pass of cn points: t->window_bits clamped to 2..22, 0 or t NULL: the
 * default for cn. */
int tuned_window(const gpu_msm_tuning *t, size_t cn) {
    const int c = t ? t->window_bits : 0;
    if (c <= 0) return gpu_msm_window_bits(cn);
    return c < 2 ? 2 : c > 22 ? 22 : c;
}

/* Number of threads of one full wave of msm_ones_kernel, at most ~n. */
cuzk_status ones_threads(gpu_ctx *ctx, size_t n, size_t *T, cuzk_error *err) {
    cuzk_status st = CUZK_OK;
    int per_sm = 0;
    CTX_CU(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, msm_ones_kernel, 128, 0));
    if (per_sm < 1) per_sm = 1;
    {
        size_t full = (size_t)per_sm * (size_t)ctx->sm_count * 128;
        size_t want = (n + 127) / 128 * 128;
        *T = want < full ? want : full;
        if (*T < 128) *T = 128;
    }
out:
    return st;
}

float ev_ms(cudaEvent_t a, cudaEvent_t b) {
    float ms = 0;
    if (cudaEventElapsedTime(&ms, a, b) != cudaSuccess) {
        (void)cudaGetLastError();
        return 0;
    }
    return ms;
}

void jacobian_infinity(struct g1_jacobian *out) {
    const uint64_t one64[6] = BLS12_381_FP_R;
    memset(out, 0, sizeof(g1_jacobian_t)); /* Z = 0 */
    memcpy((char *)out, one64, 48);
    memcpy((char *)out + 48, one64, 48);
}

enum { EV_BEGIN, EV_CLASS, EV_ONES, EV_TAIL, EV_END, EV_COUNT_ };

/* Host sum of one chunk's window sums: sum_w 2^(c*w) * win[w] (Horner), added to *acc. */
void host_horner_add(hfp::xyzz *acc, const g1_xyzz_t *win, int W, int c) {
    const hfp::xyzz *w = (const hfp::xyzz *)win;
    hfp::xyzz r = w[W - 1];
    for (int i = W - 2; i >= 0; i--) {
        for (int k = 0; k < c; k++) r = hfp::pdbl(r);
        r = hfp::padd(r, w[i]);
    }
    *acc = hfp::padd(*acc, r);
}

/* One job (validated, n >= 1). window: 0 = the job's tuning, else the default for the chunk size. */
cuzk_status msm_job(gpu_ctx *ctx, const gpu_msm_job *job, int window, gpu_msm_stats *stats, cuzk_error *err) {
    cuzk_status st = CUZK_OK;
    cudaStream_t s = ctx->stream;
    const size_t n = job->n;
    const g1_affine_t *bases = job->bases->d_pts + job->base_offset;
    const uint64_t *scalars = (const uint64_t *)job->d_scalars;
    const int mont = job->form == GPU_SCALARS_MONTGOMERY;
    const scalar_class cls = {scalars, job->d_index, mont};
    const size_t cmax = chunk_limit(&job->tuning);
    if (window <= 0 && job->tuning.window_bits > 0) window = tuned_window(&job->tuning, 0);
    const size_t max_chunks = (n + cmax - 1) / cmax;
    scratch sc;
    sc.ctx = ctx;
    sc.n = 0;
    uint32_t *d_ones = NULL, *d_tail = NULL;
    int *d_counts = NULL;
    g1_xyzz_t *d_part = NULL, *d_part2 = NULL;
    char *d_temp = NULL;
    size_t temp_bytes = 0, T = 0, n_one = 0, n_other = 0, nchunks = 0;
    cudaEvent_t ev[EV_COUNT_] = {}, ev_counts = NULL, *ev_chunk = NULL;
    int *h_counts = NULL;
    g1_xyzz_t *h_ones = NULL, *h_wins = NULL;
    tail_plan p;
    memset(&p, 0, sizeof p);

    /* pinned host scratch: counts, the ones sum, up to 64 window sums per chunk (sized before any
     * work of this job is queued: growing it waits for the stream) */
    st = ctx_host_scratch(ctx, 256 + (1 + max_chunks * (size_t)(window > 0 ? 255 / window + 1 : 64)) * sizeof(g1_xyzz_t),
                          err);
    if (st != CUZK_OK) goto out;
    h_counts = (int *)ctx->h_small;
    h_ones = (g1_xyzz_t *)((char *)ctx->h_small + 256);
    h_wins = h_ones + 1;
    if (stats)
        for (int i = 0; i < EV_COUNT_; i++) CTX_CU(cudaEventCreate(&ev[i]));
    CTX_CU(cudaEventCreateWithFlags(&ev_counts, cudaEventDisableTiming));
    st = ones_threads(ctx, n, &T, err);
    if (st != CUZK_OK) goto out;
    CTX_CU(cub::DevicePartition::If(NULL, temp_bytes, thrust::counting_iterator<uint32_t>(0), (uint32_t *)NULL,
                                    (uint32_t *)NULL, thrust::make_discard_iterator(), (int *)NULL, (int)n,
                                    is_one_op{cls}, is_other_op{cls}, s));
    CTX_CU(scratch_alloc(&sc, &d_ones, n));
    CTX_CU(scratch_alloc(&sc, &d_tail, n));
    CTX_CU(scratch_alloc(&sc, &d_counts, 2));
    CTX_CU(scratch_alloc(&sc, &d_part, T));
    CTX_CU(scratch_alloc(&sc, &d_part2, (T + GROUP_ONES - 1) / GROUP_ONES));
    CTX_CU(scratch_alloc(&sc, &d_temp, temp_bytes));

    /* 1. classify */
    if (stats) CTX_CU(cudaEventRecord(ev[EV_BEGIN], s));
    CTX_CU(cub::DevicePartition::If(d_temp, temp_bytes, thrust::counting_iterator<uint32_t>(0), d_ones, d_tail,
                                    thrust::make_discard_iterator(), d_counts, (int)n, is_one_op{cls},
                                    is_other_op{cls}, s));
    CTX_LAUNCH("cub DevicePartition::If");
    if (stats) CTX_CU(cudaEventRecord(ev[EV_CLASS], s));
    CTX_CU(cudaMemcpyAsync(h_counts, d_counts, 2 * sizeof(int), cudaMemcpyDeviceToHost, s));
    CTX_CU(cudaEventRecord(ev_counts, s));

    /* 2. ones (the count is read on the device; the host waits for it meanwhile); the sum ends in
     * d_part[0] or d_part2[0] */
    msm_ones_kernel<<<(unsigned)(T / 128), 128, 0, s>>>(bases, d_ones, d_counts, d_part);
    CTX_LAUNCH("msm_ones_kernel");
    {
        uint32_t m = (uint32_t)T;
        g1_xyzz_t *a = d_part, *b = d_part2;
        while (m > 1) {
            uint32_t mo = (m + GROUP_ONES - 1) / GROUP_ONES;
            msm_group_sum_kernel<<<nblocks(mo, 128), 128, 0, s>>>(a, m, mo, 1, GROUP_ONES, b);
            CTX_LAUNCH("msm_group_sum_kernel (ones)");
            g1_xyzz_t *t = a; a = b; b = t;
            m = mo;
        }
        CTX_CU(cudaMemcpyAsync(h_ones, a, sizeof(g1_xyzz_t), cudaMemcpyDeviceToHost, s));
    }
    if (stats) CTX_CU(cudaEventRecord(ev[EV_ONES], s));
    CTX_CU(cudaEventSynchronize(ev_counts));
    n_one = (size_t)h_counts[0];
    n_other = (size_t)h_counts[1];
    if (n_one + n_other > n) {
        st = dev_error(err, CUZK_ERR_DEVICE, __FILE__, __LINE__, "gpu_g1_msm_run: bad classification counts");
        goto out;
    }

    /* 3. tail: window sums of each chunk to h_wins */
    if (n_other) {
        const size_t cn = n_other < cmax ? n_other : cmax;
        nchunks = (n_other + cn - 1) / cn;
        plan_sizes(&p, cn, window > 0 ? window : gpu_msm_window_bits(cn));
        st = plan_alloc(ctx, &sc, &p, err);
        if (st != CUZK_OK) goto out;
        if (stats) {
            ev_chunk = new (std::nothrow) cudaEvent_t[TAIL_EVENTS * nchunks];
            if (!ev_chunk) {
                st = dev_error(err, CUZK_ERR_NOMEM, __FILE__, __LINE__, "gpu_g1_msm_run: out of memory");
                goto out;
            }
            for (size_t i = 0; i < TAIL_EVENTS * nchunks; i++) ev_chunk[i] = NULL;
            for (size_t i = 0; i < TAIL_EVENTS * nchunks; i++) CTX_CU(cudaEventCreate(&ev_chunk[i]));
        }
        for (size_t ci = 0; ci < nchunks; ci++) {
            const size_t j0 = ci * cn, len = n_other - j0 < cn ? n_other - j0 : cn;
            st = tail_chunk(ctx, &p, len, d_tail + j0, bases, scalars, job->d_index, mont, h_wins + ci * p.W,
                            ev_chunk ? ev_chunk + TAIL_EVENTS * ci : NULL, err);
            if (st != CUZK_OK) goto out;
        }
    }
    if (stats) {
        CTX_CU(cudaEventRecord(ev[EV_TAIL], s));
        CTX_CU(cudaEventRecord(ev[EV_END], s));
    }
    CTX_CU(cudaStreamSynchronize(s));

    /* 4. on the host: Horner over each chunk's windows, plus the ones, to Jacobian */
    {
        hfp::xyzz acc;
        g1_jacobian_t r;
        memcpy(&acc, h_ones, sizeof acc);
        for (size_t ci = 0; ci < nchunks; ci++) host_horner_add(&acc, h_wins + ci * p.W, p.W, p.c);
        hfp::to_jacobian(&r, acc);
        memcpy(job->out, &r, sizeof r);
    }
    if (stats) {
        stats->classify_ms += ev_ms(ev[EV_BEGIN], ev[EV_CLASS]);
        stats->ones_ms += ev_ms(ev[EV_CLASS], ev[EV_ONES]);
        stats->tail_ms += ev_ms(ev[EV_ONES], ev[EV_TAIL]);
        stats->total_ms += ev_ms(ev[EV_BEGIN], ev[EV_END]);
        stats->n_one += n_one;
        stats->n_other += n_other;
        stats->n_zero += n - n_one - n_other;
        stats->tail_chunks += nchunks;
        if (nchunks) stats->tail_window_bits = p.c;
        for (size_t ci = 0; ci < nchunks && ev_chunk; ci++) {
            cudaEvent_t *e = ev_chunk + TAIL_EVENTS * ci;
            cudaEvent_t start = ci == 0 ? ev[EV_ONES] : e[-1];
            stats->tail_digits_ms += ev_ms(start, e[0]);
            stats->tail_sort_ms += ev_ms(e[0], e[1]);
            stats->tail_buckets_ms += ev_ms(e[1], e[2]);
            stats->tail_accum_ms += ev_ms(e[2], e[3]);
            stats->tail_reduce_ms += ev_ms(e[3], e[4]);
        }
    }
out:
    scratch_release(&sc);
    for (int i = 0; i < EV_COUNT_; i++)
        if (ev[i]) (void)cudaEventDestroy(ev[i]);
    if (ev_counts) (void)cudaEventDestroy(ev_counts);
    if (ev_chunk) {
        for (size_t i = 0; i < TAIL_EVENTS * nchunks; i++)
            if (ev_chunk[i]) (void)cudaEventDestroy(ev_chunk[i]);
        delete[] ev_chunk;
    }
    return st;
}

cuzk_status msm_run(gpu_ctx *ctx, const gpu_msm_job *jobs, size_t n_jobs, int window, gpu_msm_stats *stats,
                    cuzk_error *err) {
    GPU_ARG(n_jobs == 0 || jobs, "gpu_g1_msm_run: jobs is NULL");
    for (size_t i = 0; i < n_jobs; i++) {
        const gpu_msm_job *j = &jobs[i];
        GPU_ARG(j->out, "gpu_g1_msm_run: job out is NULL");
        GPU_ARG(j->n < ((size_t)1 << 31), "gpu_g1_msm_run: job n >= 2^31");
        if (j->n == 0) continue;
        GPU_ARG(j->bases && j->d_scalars, "gpu_g1_msm_run: job bases or d_scalars is NULL");
        GPU_ARG(j->bases->ctx == ctx, "gpu_g1_msm_run: bases were uploaded on another ctx");
        GPU_ARG(j->base_offset <= j->bases->n && j->n <= j->bases->n - j->base_offset,
                "gpu_g1_msm_run: base_offset + n > number of bases");
        GPU_ARG(j->form == GPU_SCALARS_CANONICAL || j->form == GPU_SCALARS_MONTGOMERY,
                "gpu_g1_msm_run: bad scalar form");
    }
    CTX_ENTER();
    if (stats) memset(stats, 0, sizeof *stats);
    for (size_t i = 0; i < n_jobs; i++) {
        if (jobs[i].n == 0) {
            jacobian_infinity(jobs[i].out);
            continue;
        }
        cuzk_status st = msm_job(ctx, &jobs[i], window, stats, err);
        if (st != CUZK_OK) return st;
    }
    return CUZK_OK;
}

}  // namespace

/* ---- resident bases --------------------------------------------------------------------------- */

namespace {
/* *out = n device points, copied from the host array `bases` when not NULL (else uninitialized). */
cuzk_status bases_alloc(gpu_ctx *ctx, gpu_g1_bases **out, size_t n, const struct g1_affine *bases, cuzk_error *err) {
    cuzk_status st = CUZK_OK;
    gpu_g1_bases *b = new (std::nothrow) gpu_g1_bases;
    if (!b) return dev_error(err, CUZK_ERR_NOMEM, __FILE__, __LINE__, "gpu_g1_bases_upload: out of memory");
    b->ctx = ctx;
    b->d_pts = NULL;
    b->n = n;
    if (n) {
        CTX_CU(cudaMalloc(&b->d_pts, n * sizeof(g1_affine_t)));
        if (bases) {
            CTX_CU(cudaMemcpyAsync(b->d_pts, bases, n * sizeof(g1_affine_t), cudaMemcpyHostToDevice, ctx->stream));
            CTX_CU(cudaStreamSynchronize(ctx->stream));
        }
    }
    ctx->resident_bytes += n * sizeof(g1_affine_t);
    *out = b;
    return CUZK_OK;
out:
    if (b->d_pts) (void)cudaFree(b->d_pts);
    delete b;
    return st;
}
}  // namespace

extern "C" cuzk_status gpu_g1_bases_upload(gpu_ctx *ctx, gpu_g1_bases **out, const struct g1_affine *bases,
                                           size_t n, cuzk_error *err) {
    GPU_ARG(out, "gpu_g1_bases_upload: out is NULL");
    *out = NULL;
    GPU_ARG(n == 0 || bases, "gpu_g1_bases_upload: bases is NULL");
    GPU_ARG(n < ((size_t)1 << 31), "gpu_g1_bases_upload: n >= 2^31");
    CTX_ENTER();
    return bases_alloc(ctx, out, n, bases, err);
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

/* ---- the MSM ------------------------------------------------------------------------------------ */

extern "C" cuzk_status gpu_g1_msm_run(gpu_ctx *ctx, const gpu_msm_job *jobs, size_t n_jobs, gpu_msm_stats *stats,
                                      cuzk_error *err) {
    return msm_run(ctx, jobs, n_jobs, 0, stats, err);
}

extern "C" int gpu_msm_window_bits(size_t n) {
    int lg = 0;
    while (lg < 63 && ((size_t)2 << lg) <= n) lg++;
    /* lg - 4, at most 16. Larger windows were measured (bench/GPU_RESULTS.md, session 3): on
     * uniform scalars below 2^254, c = 17 at 2^24 is 4 % faster (240 against 250 ms) and c = 18
     * at 2^25 3 % (475 against 488), but on the prover's H scalars (uniform below r) c = 18 made
     * the 2^27 H MSM 5 % slower (1 894 against 1 807 ms): its top window holds only 3 bits of r,
     * one heavy bucket per digit. Per-bucket tasks lose to short, uneven buckets beyond that
     * (c = 20: 399 ms at 2^24). */
    int c = lg - 4;
    if (c < 4) c = 4;
    if (c > 16) c = 16;
    return c;
}

extern "C" size_t gpu_g1_msm_scratch_bytes(size_t n, const gpu_msm_tuning *tuning) {
    if (n == 0) return 0;
    const size_t cn = n < chunk_limit(tuning) ? n : chunk_limit(tuning);
    size_t part_tmp = 0, sort_tmp = 0, scan_tmp = 0;
    tail_plan p;
    plan_sizes(&p, cn, tuned_window(tuning, cn));
    {
        /* size queries only: no device memory is touched */
        cub::DoubleBuffer<uint32_t> dk(NULL, NULL), dv(NULL, NULL);
        scalar_class cls = {NULL, NULL, 0};
        (void)cub::DevicePartition::If(NULL, part_tmp, thrust::counting_iterator<uint32_t>(0), (uint32_t *)NULL,
                                       (uint32_t *)NULL, thrust::make_discard_iterator(), (int *)NULL, (int)n,
                                       is_one_op{cls}, is_other_op{cls}, (cudaStream_t)0);
        (void)cub::DeviceRadixSort::SortPairs(NULL, sort_tmp, dk, dv, (int64_t)p.npairs, 0, p.sort_bits, (cudaStream_t)0);
        (void)cub::DeviceScan::ExclusiveSum(NULL, scan_tmp, (uint32_t *)NULL, (uint32_t *)NULL, (int)(p.nb + 1),
                                            (cudaStream_t)0);
        size_t sel_tmp = 0;
        (void)cub::DeviceSelect::If(NULL, sel_tmp, thrust::counting_iterator<uint32_t>(0), (uint32_t *)NULL, (int *)NULL,
                                    (int)p.nb, is_heavy_op{NULL}, (cudaStream_t)0);
        if (sel_tmp > scan_tmp) scan_tmp = sel_tmp;
        (void)cudaGetLastError();
    }
    /* the ones' partial sums: at most one full wave (ones_threads); a generous bound without a
     * device query: 2048 threads per SM on 256 SMs */
    const size_t T = (size_t)2048 * 256;
    const size_t align = 512; /* the pool rounds allocations up; a margin per buffer */
    size_t b = 2 * n * sizeof(uint32_t) + 2 * sizeof(int) + (T + T / GROUP_ONES + 2) * sizeof(g1_xyzz_t) + part_tmp;
    b += 4 * p.npairs * sizeof(uint32_t) + 5 * ((size_t)p.nb + 1) * sizeof(uint32_t) + sizeof(int);
    b += (sort_tmp > scan_tmp ? sort_tmp : scan_tmp);
    b += (p.max_tasks + (size_t)p.nb + 2 * (size_t)p.W * p.seg_per_win) * sizeof(g1_xyzz_t);
    return b + 24 * align;
}

/* Host arrays: a ctx of its own on the current device (the call is synchronous and
 * self-contained, so several threads may call it at once). */
extern "C" cuzk_status gpu_g1_msm(struct g1_jacobian *out, const struct g1_affine *bases,
                                  const struct scalar256 *scalars, size_t n, cuzk_error *err) {
    GPU_ARG(out, "gpu_g1_msm: out is NULL");
    GPU_ARG(n == 0 || (bases && scalars), "gpu_g1_msm: NULL input");
    GPU_ARG(n < ((size_t)1 << 31), "gpu_g1_msm: n >= 2^31");
    if (n == 0) {
        jacobian_infinity(out);
        return CUZK_OK;
    }
    cuzk_status st = CUZK_OK;
    int dev = 0;
    gpu_ctx *ctx = NULL;
    gpu_g1_bases *b = NULL;
    void *d_s = NULL;
    gpu_msm_job job;
    cudaError_t e = cudaGetDevice(&dev);
    if (e != cudaSuccess) return gpu_fail(err, e, __FILE__, __LINE__, "cudaGetDevice");
    if ((st = gpu_ctx_create(&ctx, dev, err)) != CUZK_OK) goto out;
    if ((st = gpu_g1_bases_upload(ctx, &b, bases, n, err)) != CUZK_OK) goto out;
    if ((st = gpu_buf_alloc(ctx, &d_s, n * 32, err)) != CUZK_OK) goto out;
    if ((st = gpu_copy_h2d_async(ctx, d_s, scalars, n * 32, err)) != CUZK_OK) goto out;
    memset(&job, 0, sizeof job);
    job.bases = b;
    job.n = n;
    job.d_scalars = d_s;
    job.form = GPU_SCALARS_CANONICAL;
    job.out = out;
    st = gpu_g1_msm_run(ctx, &job, 1, NULL, err);
out:
    gpu_buf_free(ctx, d_s);
    gpu_g1_bases_free(b);
    gpu_ctx_destroy(ctx);
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
/* canonical scalars: with probability frac01 (per element, by hash) 0 or 1, else uniform < 2^254;
 * mont: converted to Montgomery form */
__global__ void msm_random_scalars_kernel(uint64_t *s, size_t n, uint64_t seed, uint32_t thresh01, int mont) {
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    uint64_t v[4];
    const uint64_t h = mix64(seed * 0x9e3779b97f4a7c15ull + i);
    if ((uint32_t)h < thresh01) {
        v[0] = (h >> 40) & 1; v[1] = v[2] = v[3] = 0;
    } else {
        for (int k = 0; k < 4; k++) v[k] = mix64(seed + 4 * i + k);
        v[3] &= 0x3fffffffffffffffull;
    }
    if (mont) {
        fr_t f;
        for (int k = 0; k < 4; k++) { f.l[2 * k] = (uint32_t)v[k]; f.l[2 * k + 1] = (uint32_t)(v[k] >> 32); }
        f = fr_t::from_canon(f);
        for (int k = 0; k < 4; k++) v[k] = (uint64_t)f.l[2 * k] | ((uint64_t)f.l[2 * k + 1] << 32);
    }
    for (int k = 0; k < 4; k++) s[4 * i + k] = v[k];
}

cuzk_status bench_run(size_t n, int window, double frac01, bool montgomery, int warmup, int reps,
                      float *times_ms, gpu_msm_stats *stats_out, cuzk_error *err) {
    cuzk_status st = CUZK_OK;
    gpu_ctx *ctx = NULL;
    gpu_g1_bases *b = NULL;
    uint64_t *d_s = NULL;
    cudaEvent_t e0 = NULL, e1 = NULL;
    g1_jacobian_t h_out;
    gpu_msm_job job;
    gpu_msm_stats stats;
    int dev = 0;
    const double f = frac01 < 0 ? 0 : frac01 > 1 ? 1 : frac01;
    const uint32_t thresh = f >= 1.0 ? 0xffffffffu : (uint32_t)(f * 4294967296.0);
    cudaError_t ce = cudaGetDevice(&dev);
    if (ce != cudaSuccess) return gpu_fail(err, ce, __FILE__, __LINE__, "cudaGetDevice");
    if ((st = gpu_ctx_create(&ctx, dev, err)) != CUZK_OK) goto out;
    if ((st = bases_alloc(ctx, &b, n, NULL, err)) != CUZK_OK) goto out;
    if ((st = gpu_buf_alloc(ctx, (void **)&d_s, n * 32, err)) != CUZK_OK) goto out;
    CTX_CU(cudaEventCreate(&e0));
    CTX_CU(cudaEventCreate(&e1));
    msm_random_points_kernel<<<nblocks(n, 128), 128, 0, ctx->stream>>>(b->d_pts, n, 0x1234);
    CTX_LAUNCH("msm_random_points_kernel");
    memset(&job, 0, sizeof job);
    job.bases = b;
    job.n = n;
    job.d_scalars = d_s;
    job.form = montgomery ? GPU_SCALARS_MONTGOMERY : GPU_SCALARS_CANONICAL;
    job.out = (struct g1_jacobian *)&h_out;
    for (int r = -warmup; r < reps; r++) {
        msm_random_scalars_kernel<<<nblocks(n, 256), 256, 0, ctx->stream>>>(d_s, n, 777 + (uint64_t)(r + warmup),
                                                                            f > 0 ? thresh : 0, montgomery);
        CTX_LAUNCH("msm_random_scalars_kernel");
        CTX_CU(cudaEventRecord(e0, ctx->stream));
        st = msm_run(ctx, &job, 1, window, stats_out ? &stats : NULL, err);
        if (st != CUZK_OK) goto out;
        CTX_CU(cudaEventRecord(e1, ctx->stream));
        CTX_CU(cudaEventSynchronize(e1));
        if (r >= 0) CTX_CU(cudaEventElapsedTime(&times_ms[r], e0, e1));
    }
    if (stats_out) *stats_out = stats;
out:
    if (e0) cudaEventDestroy(e0);
    if (e1) cudaEventDestroy(e1);
    gpu_buf_free(ctx, d_s);
    gpu_g1_bases_free(b);
    gpu_ctx_destroy(ctx);
    return st;
}
}  // namespace

extern "C" cuzk_status gpu_bench_g1_msm(size_t n, int window_bits, int warmup, int reps, float *times_ms,
                                        cuzk_error *err) {
    GPU_ARG(n >= 1 && n < ((size_t)1 << 31) && reps >= 1 && times_ms, "gpu_bench_g1_msm: bad args");
    GPU_ARG(window_bits <= 0 || (window_bits >= 2 && window_bits <= 20), "gpu_bench_g1_msm: bad window");
    return bench_run(n, window_bits, 0.0, false, warmup, reps, times_ms, NULL, err);
}

extern "C" cuzk_status gpu_bench_g1_msm01(size_t n, double frac01, bool montgomery, int warmup, int reps,
                                          float *times_ms, gpu_msm_stats *stats, cuzk_error *err) {
    GPU_ARG(n >= 1 && n < ((size_t)1 << 31) && reps >= 1 && times_ms, "gpu_bench_g1_msm01: bad args");
    return bench_run(n, 0, frac01, montgomery, warmup, reps, times_ms, stats, err);
}
