/* Multi-scalar multiplication on the GPU, G1 and G2 (src/cuda/gpu.h): SRS-resident bases
 * (gpu_g1_bases_*, gpu_g2_bases_*), the MSM with the 0/1 split over them (gpu_g1_msm_run,
 * gpu_g2_msm_run), the host-array gpu_g1_msm / gpu_g2_msm on top of it, and the benchmarks.
 *
 * One design for both groups: every kernel and host step below is a template over the group G
 * (g1_of<C> or g2_of<C> of src/cuda/curves.cuh: points over C's fp or fp2, the formulas of
 * src/cuda/ec.cuh), instantiated for G1 and G2 of BLS12-381 and BN254; the steps that see only
 * scalars (classification, digits, bucket bounds and tasks) are templates over Fr alone or plain
 * kernels, shared by both groups. group_api<G> maps a group to its C types (bases, job).
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
 *     c. bucket bounds from the sorted keys; the buckets ordered by descending size
 *        (cub::DeviceRadixSort over the W * 2^(c-1) sizes), so that the threads of a warp get
 *        tasks of nearly equal length; a bucket of at most 4K pairs (K: twice the average) is split
 *        into tasks of at most K pairs, a larger one into tasks of at most min(K, 256) pairs
 *        (cub::DeviceScan gives task offsets in that order), so one hot bucket (all scalars equal)
 *        still spreads over many threads.
 *     d. msm_accumulate_kernel: thread per task, XYZZ accumulator, mixed additions of affine bases
 *        (y negated for negative digits); msm_bucket_sum_kernel adds each light bucket's task
 *        partials on one thread, msm_heavy_bucket_kernel those of buckets with more than 32
 *        partials by a block tree (list from cub::DeviceSelect). GPU_MSM_ACCUM_RUNS replaces the
 *        tasks by equal runs.
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
#include "cuda/curves.cuh"
#include "cuda/util.cuh"
#include "util/timer.h"

using namespace cuzk_dev;

/* Resident bases (src/cuda/gpu.h): G1 points (gpu_g1_bases) or G2 points (gpu_g2_bases) of
 * api_curve or of another instantiated curve (gpu_bn254_*); pt_bytes tells which (every curve and
 * group has its own point size: BLS12-381 G1 96 bytes, G2 192; BN254 G1 64, G2 128), and
 * msm_run<G> refuses bases of another size. The two C types share the layout and the code. */
struct gpu_msm_bases {
    gpu_ctx *ctx;
    void *d_pts;
    size_t n, pt_bytes;
};
struct gpu_g1_bases : gpu_msm_bases {};
struct gpu_g2_bases : gpu_msm_bases {};

/* The C boundary of group G: its bases and job types, and the name its errors carry. */
template <class G>
struct group_api;
template <class C>
struct group_api<g1_of<C> > {
    typedef gpu_g1_bases bases;
    typedef gpu_msm_job job;
    static const char *run_name() { return "gpu_g1_msm_run"; }
};
template <class C>
struct group_api<g2_of<C> > {
    typedef gpu_g2_bases bases;
    typedef gpu_g2_msm_job job;
    static const char *run_name() { return "gpu_g2_msm_run"; }
};

/* In a kernel or host routine over group G: the short names of its scalar field and points. */
#define MSM_GROUP_TYPES(G)                      \
    typedef typename G::fr fr_t;                \
    typedef typename G::affine affine_pt;       \
    typedef typename G::xyzz xyzz_pt;           \
    typedef typename G::jacobian jacobian_pt

namespace {

/* the sign of a sorted pair's value (point index | SIGN_BIT: y negated), as msm_digits_kernel
 * writes it */
const uint32_t SIGN_BIT = 0x80000000u;
const int SEG_LOG = 4;        /* buckets per reduction segment: 2^4 */
const uint32_t GROUP = 8;     /* points summed per thread in the tail's window trees */
const uint32_t GROUP_ONES = 4; /* the same in the ones tree (more levels, shorter serial chains) */
const size_t DEFAULT_CHUNK = (size_t)1 << 25;
const uint32_t TASK_HEAVY = 256;      /* pairs per task in a bucket larger than K (see msm_bucket_tasks) */
const uint32_t HEAVY_PARTIALS = 32;   /* buckets with more task partials are summed by a block tree */
const unsigned HEAVY_BLOCKS = 2048;   /* grid of msm_heavy_bucket_kernel (blocks loop over the list) */
const size_t MIN_CHUNK = 64;

/* The accumulation a job's tuning asks for (NULL, DEFAULT or an unknown value: TASKS). Per job,
 * read by the plan of each MSM: no process-wide mode. */
gpu_msm_accum tuned_accum(const gpu_msm_tuning *t) {
    const gpu_msm_accum a = t ? t->accum : GPU_MSM_ACCUM_DEFAULT;
    return a == GPU_MSM_ACCUM_RUNS ? a : GPU_MSM_ACCUM_TASKS;
}

inline unsigned nblocks(size_t n, unsigned bs) { return (unsigned)((n + bs - 1) / bs); }

/* ---- scalar loads and classification ---------------------------------------------------------- */

__device__ __forceinline__ void load_scalar(uint64_t s[4], const uint64_t *__restrict__ scalars,
                                            const uint32_t *__restrict__ idx, uint32_t k) {
    const size_t j = idx ? (size_t)idx[k] : (size_t)k;
#pragma unroll
    for (int i = 0; i < 4; i++) s[i] = scalars[4 * j + i];
}

/* 64-bit limb i of 1 in Montgomery form (R mod r) of the scalar field Fr */
template <class Fr>
__device__ __forceinline__ uint64_t fr_one_limb(int i) {
    const Fr o = Fr::one();
    return ((uint64_t)o.l[2 * i + 1] << 32) | o.l[2 * i];
}

/* 0: zero, 1: one (Montgomery: R mod r), 2: anything else. Over the scalar field Fr only, so G1
 * and G2 of one curve share the classification (and its CUB instantiations). */
template <class Fr>
struct scalar_class {
    const uint64_t *scalars;
    const uint32_t *idx;
    int mont;
    __device__ __forceinline__ int operator()(uint32_t k) const {
        uint64_t s[4];
        load_scalar(s, scalars, idx, k);
        if ((s[0] | s[1] | s[2] | s[3]) == 0) return 0;
        if (mont) {
            if (s[0] == fr_one_limb<Fr>(0) && s[1] == fr_one_limb<Fr>(1) && s[2] == fr_one_limb<Fr>(2) &&
                s[3] == fr_one_limb<Fr>(3))
                return 1;
        } else if (s[0] == 1 && (s[1] | s[2] | s[3]) == 0) {
            return 1;
        }
        return 2;
    }
};
template <class Fr>
struct is_one_op {
    scalar_class<Fr> c;
    __device__ __forceinline__ bool operator()(const uint32_t &k) const { return c(k) == 1; }
};
template <class Fr>
struct is_other_op {
    scalar_class<Fr> c;
    __device__ __forceinline__ bool operator()(const uint32_t &k) const { return c(k) == 2; }
};

/* ---- ones ------------------------------------------------------------------------------------- */

template <class G>
__global__ void __launch_bounds__(128) msm_ones_kernel(const typename G::affine *__restrict__ bases,
                                                       const uint32_t *__restrict__ ones,
                                                       const int *__restrict__ counts,
                                                       typename G::xyzz *__restrict__ partials) {
    MSM_GROUP_TYPES(G);
    const size_t T = (size_t)gridDim.x * blockDim.x;
    const size_t t = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    const size_t m = (size_t)counts[0];
    xyzz_pt acc = xyzz_pt::inf();
    for (size_t j = t; j < m; j += T) {
        const affine_pt q = bases[ones[j]];
        if (!q.is_inf()) acc.add_affine_noinf(q.x, q.y);
    }
    partials[t] = acc;
}

/* out[w * m_out + j] = sum_{g < group} in[w * m_in + j * group + g] (indices < m_in) */
template <class G>
__global__ void msm_group_sum_kernel(const typename G::xyzz *__restrict__ in, uint32_t m_in, uint32_t m_out, int W,
                                     uint32_t group, typename G::xyzz *__restrict__ out) {
    MSM_GROUP_TYPES(G);
    uint32_t t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= (uint32_t)W * m_out) return;
    uint32_t w = t / m_out, j = t % m_out;
    xyzz_pt acc = xyzz_pt::inf();
    for (uint32_t g = 0; g < group; g++) {
        uint32_t idx = j * group + g;
        if (idx < m_in) acc.add(in[(size_t)w * m_in + idx]);
    }
    out[t] = acc;
}

/* ---- tail (Pippenger) ------------------------------------------------------------------------- */

/* Over the scalar field Fr only (G1 and G2 of a curve share it). */
template <class Fr>
__global__ void msm_digits_kernel(const uint64_t *__restrict__ scalars, const uint32_t *__restrict__ idx, int mont,
                                  const uint32_t *__restrict__ tail, size_t cn, int c, int W, uint32_t nbw,
                                  uint32_t *__restrict__ keys, uint32_t *__restrict__ vals) {
    typedef Fr fr_t;
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

/* sizes[b] = pairs of bucket b, ids[b] = b (the keys and values of the size ordering) */
__global__ void msm_sizes_kernel(const uint32_t *bstart, const uint32_t *bend, uint32_t nb, uint32_t *sizes,
                                 uint32_t *ids) {
    uint32_t b = blockIdx.x * blockDim.x + threadIdx.x;
    if (b >= nb) return;
    sizes[b] = bend[b] - bstart[b];
    ids[b] = b;
}

/* ntasks[j]: tasks of the j-th largest bucket (sizes sorted descending); ntasks[nb] = 0 */
__global__ void msm_ntasks_kernel(const uint32_t *sorted_sizes, uint32_t nb, uint32_t K, uint32_t *ntasks) {
    uint32_t j = blockIdx.x * blockDim.x + threadIdx.x;
    if (j > nb) return;
    ntasks[j] = j == nb ? 0 : msm_bucket_tasks(sorted_sizes[j], K);
}

/* tmap[t] = j for the tasks t of the j-th bucket in size order (toff[j] <= t < toff[j + 1]); one
 * thread per position (the largest buckets come first, so the long loops share the first warps) */
__global__ void msm_task_map_kernel(const uint32_t *__restrict__ toff, uint32_t nb, uint32_t *__restrict__ tmap) {
    uint32_t j = blockIdx.x * blockDim.x + threadIdx.x;
    if (j >= nb) return;
    for (uint32_t t = toff[j], e = toff[j + 1]; t < e; t++) tmap[t] = j;
}

/* Tasks are numbered bucket-major in the order of perm (buckets by descending size, so the threads
 * of a warp get tasks of nearly equal length: with uniform scalars a bucket's size is Poisson, and a
 * warp in bucket order waits for the largest of 32 draws, ~9 % above the mean at 512 pairs); task t
 * belongs to position j = tmap[t] (msm_task_map_kernel; a binary search over toff cost ~20
 * dependent loads per task), its bucket is perm[j]. */
template <class G>
__global__ void __launch_bounds__(128) msm_accumulate_kernel(
    const typename G::affine *__restrict__ bases, const uint32_t *__restrict__ vals,
    const uint32_t *__restrict__ bstart, const uint32_t *__restrict__ bend, const uint32_t *__restrict__ perm,
    const uint32_t *__restrict__ toff, const uint32_t *__restrict__ tmap, uint32_t nb, uint32_t K,
    size_t max_tasks, typename G::xyzz *__restrict__ partials) {
    MSM_GROUP_TYPES(G);
    size_t t = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= max_tasks) return;
    const uint32_t total = toff[nb];
    if (t >= total) return;
    const uint32_t j = tmap[t], b = perm[j];
    /* the bucket's pairs split evenly over its tasks (msm_bucket_tasks): Kb = ceil(size / tasks) */
    const uint32_t size = bend[b] - bstart[b], tasks = toff[j + 1] - toff[j];
    const uint32_t Kb = (size + tasks - 1) / tasks;
    (void)K;
    const uint32_t start = bstart[b] + ((uint32_t)t - toff[j]) * Kb;
    uint32_t end = start + Kb;
    if (end > bend[b]) end = bend[b];
    xyzz_pt acc = xyzz_pt::inf();
    for (uint32_t p = start; p < end; p++) {
        uint32_t v = vals[p];
        affine_pt q = bases[v & ~SIGN_BIT];
        if (q.is_inf()) continue;
        if (v & SIGN_BIT) q.y = -q.y;
        acc.add_affine_noinf(q.x, q.y);
    }
    partials[t] = acc;
}

/* thread j: the bucket perm[j] (toff is over the size-ordered positions j) */
template <class G>
__global__ void msm_bucket_sum_kernel(const typename G::xyzz *__restrict__ partials, const uint32_t *__restrict__ toff,
                                      const uint32_t *__restrict__ perm, uint32_t nb,
                                      typename G::xyzz *__restrict__ buckets) {
    MSM_GROUP_TYPES(G);
    uint32_t j = blockIdx.x * blockDim.x + threadIdx.x;
    if (j >= nb) return;
    const uint32_t b = perm[j], t0 = toff[j], t1 = toff[j + 1];
    if (t1 - t0 > HEAVY_PARTIALS) return; /* msm_heavy_bucket_kernel */
    xyzz_pt acc = xyzz_pt::inf();
    if (t1 > t0) acc = partials[t0];
    for (uint32_t t = t0 + 1; t < t1; t++) acc.add(partials[t]);
    buckets[b] = acc;
}

/* Buckets with more than HEAVY_PARTIALS partials (their positions j from cub::DeviceSelect, the
 * bucket perm[j]): one block per bucket (blocks loop over the list), each thread sums a strided
 * share of the partials, then a shared-memory tree of 7 levels. */
struct is_heavy_op {
    const uint32_t *toff;
    __device__ __forceinline__ bool operator()(const uint32_t &j) const { return toff[j + 1] - toff[j] > HEAVY_PARTIALS; }
};
template <class G>
__global__ void __launch_bounds__(128) msm_heavy_bucket_kernel(const typename G::xyzz *__restrict__ partials,
                                                               const uint32_t *__restrict__ toff,
                                                               const uint32_t *__restrict__ perm,
                                                               const uint32_t *__restrict__ heavy,
                                                               const int *__restrict__ n_heavy,
                                                               typename G::xyzz *__restrict__ buckets) {
    MSM_GROUP_TYPES(G);
    __shared__ __align__(16) unsigned char raw[128 * sizeof(xyzz_pt)];
    xyzz_pt *sm = reinterpret_cast<xyzz_pt *>(raw);
    const int nh = *n_heavy;
    for (int i = blockIdx.x; i < nh; i += gridDim.x) {
        const uint32_t j = heavy[i], b = perm[j], t0 = toff[j], t1 = toff[j + 1];
        xyzz_pt acc = xyzz_pt::inf();
        for (uint32_t t = t0 + threadIdx.x; t < t1; t += blockDim.x) acc.add(partials[t]);
        sm[threadIdx.x] = acc;
        __syncthreads();
        for (unsigned h = blockDim.x / 2; h > 0; h >>= 1) {
            if (threadIdx.x < h) {
                xyzz_pt x = sm[threadIdx.x];
                x.add(sm[threadIdx.x + h]);
                sm[threadIdx.x] = x;
            }
            __syncthreads();
        }
        if (threadIdx.x == 0) buckets[b] = sm[0];
        __syncthreads();
    }
}

/* ---- the tail's accumulation in equal runs (GPU_MSM_ACCUM_RUNS) -----------------------------------
 * Thread t takes the sorted pairs [t*R, min((t+1)*R, np)) whatever their buckets, so every thread
 * does the same number of mixed additions (no warp waits for a long bucket, no per-task search),
 * and cuts its run at bucket boundaries (one bucket = one run of equal keys, sorted):
 *   a bucket lying wholly inside the run is written to buckets[b] by the thread itself;
 *   the segment that touches the run's start but not the whole bucket goes to pfirst[t],
 *   the one that touches the run's end (and started inside the run) to plast[t].
 * A bucket b over threads t0 < t1 (t0 = bstart/R, t1 = (bend-1)/R) is then
 *   (bstart == t0*R ? pfirst[t0] : plast[t0]) + sum_{t0 < t <= t1} pfirst[t],
 * summed by msm_runs_combine_kernel (one thread per bucket, at most HEAVY_PARTIALS terms) or
 * msm_runs_heavy_kernel (a block per bucket, list from cub::DeviceSelect). Buckets, pfirst and
 * plast are zeroed first (all-zero bytes = XYZZ infinity): empty buckets and unused pieces stay at
 * infinity, and the pieces are stored as they are found rather than held in registers (a first
 * version kept them in two more accumulators: 246 registers, half the occupancy, accumulation
 * 346 ms against 217 ms for the tasks at 2^24). Zero digits (key nb) sort last and end a run. */
template <class G>
__global__ void __launch_bounds__(128, 4) msm_accumulate_runs_kernel(
    const typename G::affine *__restrict__ bases, const uint32_t *__restrict__ keys,
    const uint32_t *__restrict__ vals, size_t np, uint32_t nb, uint32_t R, const uint32_t *__restrict__ bstart,
    const uint32_t *__restrict__ bend, typename G::xyzz *__restrict__ pfirst,
    typename G::xyzz *__restrict__ plast, typename G::xyzz *__restrict__ buckets, size_t nthreads) {
    MSM_GROUP_TYPES(G);
    const size_t t = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= nthreads) return;
    const size_t s0 = t * R, e0 = s0 + R < np ? s0 + R : np;
    xyzz_pt acc = xyzz_pt::inf();
    uint32_t cur = keys[s0];
    size_t seg = s0;
    for (size_t p = s0; p < e0 && cur < nb; p++) {
        const uint32_t k = keys[p];
        if (k != cur) {
            /* flush bucket cur = pairs [seg, p) of this run */
            if (bstart[cur] >= s0 && bend[cur] <= e0) buckets[cur] = acc;
            else if (seg == s0) pfirst[t] = acc;
            else plast[t] = acc;
            cur = k;
            seg = p;
            acc = xyzz_pt::inf();
            if (k >= nb) break;
        }
        const uint32_t v = vals[p];
        affine_pt q = bases[v & ~SIGN_BIT];
        if (q.is_inf()) continue;
        if (v & SIGN_BIT) q.y = -q.y;
        acc.add_affine_noinf(q.x, q.y);
    }
    if (cur < nb) {
        if (bstart[cur] >= s0 && bend[cur] <= e0) buckets[cur] = acc;
        else if (seg == s0) pfirst[t] = acc;
        else plast[t] = acc;
    }
}

/* threads t0 .. t1 of bucket b's pairs (R per thread); false when b is empty */
__device__ __forceinline__ bool runs_span(const uint32_t *bstart, const uint32_t *bend, uint32_t b, uint32_t R,
                                          uint32_t *t0, uint32_t *t1) {
    const uint32_t a = bstart[b], e = bend[b];
    if (e <= a) return false;
    *t0 = a / R;
    *t1 = (e - 1) / R;
    return true;
}

struct runs_heavy_op {
    const uint32_t *bstart, *bend;
    uint32_t R;
    __device__ __forceinline__ bool operator()(const uint32_t &b) const {
        uint32_t t0, t1;
        return runs_span(bstart, bend, b, R, &t0, &t1) && t1 - t0 > HEAVY_PARTIALS;
    }
};

template <class G>
__global__ void msm_runs_combine_kernel(const uint32_t *__restrict__ bstart, const uint32_t *__restrict__ bend,
                                        uint32_t nb, uint32_t R, const typename G::xyzz *__restrict__ pfirst,
                                        const typename G::xyzz *__restrict__ plast,
                                        typename G::xyzz *__restrict__ buckets) {
    MSM_GROUP_TYPES(G);
    const uint32_t b = blockIdx.x * blockDim.x + threadIdx.x;
    if (b >= nb) return;
    uint32_t t0, t1;
    if (!runs_span(bstart, bend, b, R, &t0, &t1) || t0 == t1 || t1 - t0 > HEAVY_PARTIALS) return;
    xyzz_pt acc = bstart[b] == t0 * R ? pfirst[t0] : plast[t0];
    for (uint32_t t = t0 + 1; t <= t1; t++) acc.add(pfirst[t]);
    buckets[b] = acc;
}

template <class G>
__global__ void __launch_bounds__(128) msm_runs_heavy_kernel(const uint32_t *__restrict__ bstart,
                                                             const uint32_t *__restrict__ bend, uint32_t R,
                                                             const typename G::xyzz *__restrict__ pfirst,
                                                             const typename G::xyzz *__restrict__ plast,
                                                             const uint32_t *__restrict__ heavy,
                                                             const int *__restrict__ n_heavy,
                                                             typename G::xyzz *__restrict__ buckets) {
    MSM_GROUP_TYPES(G);
    __shared__ __align__(16) unsigned char raw[128 * sizeof(xyzz_pt)];
    xyzz_pt *sm = reinterpret_cast<xyzz_pt *>(raw);
    const int nh = *n_heavy;
    for (int i = blockIdx.x; i < nh; i += gridDim.x) {
        const uint32_t b = heavy[i];
        uint32_t t0 = 0, t1 = 0;
        (void)runs_span(bstart, bend, b, R, &t0, &t1);
        xyzz_pt acc = xyzz_pt::inf();
        if (threadIdx.x == 0) acc = bstart[b] == t0 * R ? pfirst[t0] : plast[t0];
        for (uint32_t t = t0 + 1 + threadIdx.x; t <= t1; t += blockDim.x) acc.add(pfirst[t]);
        sm[threadIdx.x] = acc;
        __syncthreads();
        for (unsigned h = blockDim.x / 2; h > 0; h >>= 1) {
            if (threadIdx.x < h) {
                xyzz_pt x = sm[threadIdx.x];
                x.add(sm[threadIdx.x + h]);
                sm[threadIdx.x] = x;
            }
            __syncthreads();
        }
        if (threadIdx.x == 0) buckets[b] = sm[0];
        __syncthreads();
    }
}

/* thread per (window, segment): segment covers bucket indices [s*L, (s+1)*L) of window w, i.e.
 * digit magnitudes k = s*L + 1 .. (s+1)*L. out = sum_k k * B_k over the segment:
 *   running sums: for k = L-1 .. 0: run += B_k, acc += run (acc = sum_k (k - s*L + 1) B_k);
 *   then acc += (s*L) * run, by double-and-add over the bits of s*L (a doubling is run as r + r).
 * Every step is one addition through ONE call site (pt[dst] += q), so a kernel that inlines its
 * additions (G2, ec_inline in src/cuda/ec.cuh) holds one copy of the formulas, not five. */
template <class G>
__global__ void __launch_bounds__(128) msm_segment_kernel(const typename G::xyzz *__restrict__ buckets, uint32_t nbw,
                                                          uint32_t L, uint32_t seg_per_win, int W,
                                                          typename G::xyzz *__restrict__ out) {
    MSM_GROUP_TYPES(G);
    uint32_t t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= (uint32_t)W * seg_per_win) return;
    uint32_t w = t / seg_per_win, s = t % seg_per_win;
    const xyzz_pt *bw = buckets + (size_t)w * nbw + (size_t)s * L;
    xyzz_pt pt[3]; /* run, acc, the multiple of run */
    pt[0] = xyzz_pt::inf();
    pt[1] = xyzz_pt::inf();
    pt[2] = xyzz_pt::inf();
    const uint32_t km = s * L;
    int phase = 0;                  /* 0: running sums, 1: double-and-add, 2: acc += pt[2], 3: done */
    int k = (int)L - 1, bit = 0;
    bool second = false, dbl_next = true;
    for (;;) {
        int dst;
        xyzz_pt q;
        if (phase == 0) {
            if (!second) {
                dst = 0;
                q = bw[k];
                second = true;
            } else {
                dst = 1;
                q = pt[0];
                second = false;
                if (k-- == 0) phase = 1;
            }
        } else if (phase == 1) {
            if (bit == 0) { /* entering: pt[2] = run, bit = top - 1 */
                if (km == 0 || pt[0].is_inf()) break;
                pt[2] = pt[0];
                bit = 31 - __clz(km); /* the top bit, consumed by the copy */
                dbl_next = true;
                if (bit == 0) { phase = 2; continue; }
            }
            if (dbl_next) {
                dst = 2;
                q = pt[2];
                dbl_next = false;
            } else {
                dbl_next = true;
                const int b = --bit;
                if (b == 0) phase = 2;
                if (!((km >> b) & 1)) continue;
                dst = 2;
                q = pt[0];
            }
        } else if (phase == 2) {
            dst = 1;
            q = pt[2];
            phase = 3;
        } else {
            break;
        }
        xyzz_pt a = pt[dst];
        a.add(q);
        pt[dst] = a;
    }
    out[t] = pt[1];
}

/* ---- host side -------------------------------------------------------------------------------- */


/* Stream-ordered allocations of one run, freed together (in reverse) at its end. */
struct scratch {
    gpu_ctx *ctx;
    void *p[32]; /* msm_job's 6 buffers + plan_alloc's 20 */
    int n;
};
template <class T>
cudaError_t scratch_alloc(scratch *s, T **out, size_t count) {
    *out = NULL;
    if (s->n == (int)(sizeof s->p / sizeof s->p[0])) return cudaErrorInvalidValue;
    void *q = NULL;
    cudaError_t e = ctx_alloc(s->ctx, &q, count ? count * sizeof(T) : 1); /* the ctx's arena, or its pool */
    if (e != cudaSuccess) return e;
    s->p[s->n++] = q;
    *out = (T *)q;
    return cudaSuccess;
}
/* in reverse: the arena is a stack */
void scratch_release(scratch *s) {
    for (int i = s->n - 1; i >= 0; i--) ctx_free(s->ctx, s->p[i]);
    s->n = 0;
    (void)cudaGetLastError();
}

/* Tail plan: window and buffer sizes for chunks of at most cn points. */
template <class G>
struct tail_plan {
    MSM_GROUP_TYPES(G);
    size_t cn;
    int c, W, sort_bits;
    uint32_t nbw, nb, K, L, seg_per_win;
    size_t npairs, max_tasks, temp_bytes;
    int runs;            /* accumulation in equal runs (msm_accumulate_runs_kernel) */
    uint32_t R;          /* runs: pairs per thread */
    size_t nthreads;     /* runs: ceil(npairs / R) */
    uint32_t *keys, *keys2, *vals, *vals2, *bstart, *bend, *ntasks, *toff, *heavy;
    uint32_t *sizes, *sizes2, *ids, *perm; /* tasks: buckets ordered by descending size */
    uint32_t *tmap;                         /* tasks: task -> size-order position */
    int size_bits;                          /* bits of the largest possible bucket size */
    int *n_heavy;
    char *temp;
    xyzz_pt *partials, *buckets, *seg, *seg2; /* runs: partials = pfirst, pfirst + nthreads = plast */
};

/* The plan of tail chunks of at most cn points at window c, with the accumulation of the job's
 * tuning t (NULL: the defaults). */
template <class G>
void plan_sizes(tail_plan<G> *p, size_t cn, int c, const gpu_msm_tuning *t) {
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
    p->size_bits = 1;
    while ((1ull << p->size_bits) <= p->npairs) p->size_bits++;
    p->L = 1u << SEG_LOG;
    if (p->L > p->nbw) p->L = p->nbw;
    p->seg_per_win = p->nbw / p->L;
    p->runs = tuned_accum(t) == GPU_MSM_ACCUM_RUNS && G::FP_PER_COORD == 1; /* G2: tasks only (tail_chunk) */
    /* runs of R pairs: R = npairs / 2^18 (~2 waves of 128-thread blocks on 132 SMs at 4 blocks
     * each is 2^16 threads; more threads than that only add partials), between 16 and 256: at
     * most 256, so a bucket holding every pair has no more partials than the per-bucket tasks of
     * msm_bucket_tasks gave it (npairs / 256) */
    size_t R = p->npairs >> 18;
    p->R = (uint32_t)(R < 16 ? 16 : R > 256 ? 256 : R);
    p->nthreads = (p->npairs + p->R - 1) / p->R;
}

template <class G>
cuzk_status plan_alloc(gpu_ctx *ctx, scratch *sc, tail_plan<G> *p, cuzk_error *err) {
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
        size_t sel2 = 0;
        CTX_CU(cub::DeviceSelect::If(NULL, sel2, thrust::counting_iterator<uint32_t>(0), (uint32_t *)NULL,
                                     (int *)NULL, (int)p->nb, runs_heavy_op{NULL, NULL, 1}, ctx->stream));
        if (sel2 > sel_tmp) sel_tmp = sel2;
        size_t ord = 0;
        CTX_CU(cub::DeviceRadixSort::SortPairsDescending(NULL, ord, (uint32_t *)NULL, (uint32_t *)NULL,
                                                         (uint32_t *)NULL, (uint32_t *)NULL, (int64_t)p->nb, 0,
                                                         p->size_bits, ctx->stream));
        if (ord > sel_tmp) sel_tmp = ord;
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
    CTX_CU(scratch_alloc(sc, &p->sizes, (size_t)p->nb + 1));
    CTX_CU(scratch_alloc(sc, &p->sizes2, (size_t)p->nb + 1));
    CTX_CU(scratch_alloc(sc, &p->ids, (size_t)p->nb + 1));
    CTX_CU(scratch_alloc(sc, &p->perm, (size_t)p->nb + 1));
    CTX_CU(scratch_alloc(sc, &p->tmap, p->runs ? 1 : p->max_tasks));
    CTX_CU(scratch_alloc(sc, &p->n_heavy, 1));
    CTX_CU(scratch_alloc(sc, &p->temp, p->temp_bytes));
    CTX_CU(scratch_alloc(sc, &p->partials, p->runs ? 2 * p->nthreads : p->max_tasks));
    CTX_CU(scratch_alloc(sc, &p->buckets, (size_t)p->nb));
    CTX_CU(scratch_alloc(sc, &p->seg, (size_t)p->W * p->seg_per_win));
    CTX_CU(scratch_alloc(sc, &p->seg2, (size_t)p->W * p->seg_per_win));
out:
    return st;
}

/* The tasks accumulation (msm_bucket_tasks) of the plan's nb buckets: bucket b is the sorted
 * pairs p->bstart[b] .. p->bend[b] of vals (point bases[v & ~SIGN_BIT], y negated when SIGN_BIT
 * is set); its sum goes to p->buckets[b]. ev_accum (or NULL) is recorded before the accumulation
 * kernel. */
template <class G>
cuzk_status tasks_pass(gpu_ctx *ctx, tail_plan<G> *p, const typename G::affine *bases, const uint32_t *vals,
                       cudaEvent_t ev_accum, cuzk_error *err) {
    cuzk_status st = CUZK_OK;
    cudaStream_t s = ctx->stream;
    size_t tb;
    msm_sizes_kernel<<<nblocks(p->nb, 256), 256, 0, s>>>(p->bstart, p->bend, p->nb, p->sizes, p->ids);
    CTX_LAUNCH("msm_sizes_kernel");
    tb = p->temp_bytes;
    CTX_CU(cub::DeviceRadixSort::SortPairsDescending(p->temp, tb, p->sizes, p->sizes2, p->ids, p->perm,
                                                     (int64_t)p->nb, 0, p->size_bits, s));
    CTX_LAUNCH("cub SortPairsDescending (bucket sizes)");
    msm_ntasks_kernel<<<nblocks(p->nb + 1, 256), 256, 0, s>>>(p->sizes2, p->nb, p->K, p->ntasks);
    CTX_LAUNCH("msm_ntasks_kernel");
    tb = p->temp_bytes;
    CTX_CU(cub::DeviceScan::ExclusiveSum(p->temp, tb, p->ntasks, p->toff, (int)(p->nb + 1), s));
    CTX_LAUNCH("cub ExclusiveSum");
    msm_task_map_kernel<<<nblocks(p->nb, 256), 256, 0, s>>>(p->toff, p->nb, p->tmap);
    CTX_LAUNCH("msm_task_map_kernel");
    if (ev_accum) CTX_CU(cudaEventRecord(ev_accum, s));
    msm_accumulate_kernel<G><<<nblocks(p->max_tasks, 128), 128, 0, s>>>(bases, vals, p->bstart, p->bend, p->perm,
                                                                         p->toff, p->tmap, p->nb, p->K,
                                                                         p->max_tasks, p->partials);
    CTX_LAUNCH("msm_accumulate_kernel");
    msm_bucket_sum_kernel<G><<<nblocks(p->nb, 128), 128, 0, s>>>(p->partials, p->toff, p->perm, p->nb, p->buckets);
    CTX_LAUNCH("msm_bucket_sum_kernel");
    tb = p->temp_bytes;
    CTX_CU(cub::DeviceSelect::If(p->temp, tb, thrust::counting_iterator<uint32_t>(0), p->heavy, p->n_heavy,
                                 (int)p->nb, is_heavy_op{p->toff}, s));
    CTX_LAUNCH("cub DeviceSelect::If (heavy buckets)");
    msm_heavy_bucket_kernel<G><<<HEAVY_BLOCKS, 128, 0, s>>>(p->partials, p->toff, p->perm, p->heavy, p->n_heavy,
                                                          p->buckets);
    CTX_LAUNCH("msm_heavy_bucket_kernel");
out:
    return st;
}

/* One Pippenger pass over tail[0 .. cn) (cn <= p->cn); its W window sums are copied to h_wins
 * (pinned host, W points; valid after the stream has passed this point).
 * ev: NULL or TAIL_EVENTS events, recorded after the digits, the sort, the bucket bounds, the
 * accumulation and the reduction. */
enum { TAIL_EVENTS = 5 };
template <class G>
cuzk_status tail_chunk(gpu_ctx *ctx, tail_plan<G> *p, size_t cn, const uint32_t *tail,
                       const typename G::affine *bases, const uint64_t *scalars, const uint32_t *idx, int mont,
                       typename G::xyzz *h_wins, cudaEvent_t *ev, cuzk_error *err) {
    MSM_GROUP_TYPES(G);
    cuzk_status st = CUZK_OK;
    cudaStream_t s = ctx->stream;
    const size_t np = cn * (size_t)p->W;
    size_t tb;
    uint32_t m;
    xyzz_pt *a, *b;
    cub::DoubleBuffer<uint32_t> dk(p->keys, p->keys2), dv(p->vals, p->vals2);
    msm_digits_kernel<fr_t><<<nblocks(cn, 256), 256, 0, s>>>(scalars, idx, mont, tail, cn, p->c, p->W, p->nbw,
                                                             p->keys, p->vals);
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
    /* the runs accumulation is compiled for G1 only (an experiment that lost to the tasks,
     * bench/GPU_RESULTS.md session 4; its three G2 kernels would cost minutes of compile time) */
    if constexpr (G::FP_PER_COORD == 1) if (p->runs) {
        if (ev) CTX_CU(cudaEventRecord(ev[2], s));
        CTX_CU(cudaMemsetAsync(p->buckets, 0, (size_t)p->nb * sizeof(xyzz_pt), s));
        CTX_CU(cudaMemsetAsync(p->partials, 0, 2 * ((np + p->R - 1) / p->R) * sizeof(xyzz_pt), s));
        msm_accumulate_runs_kernel<G><<<nblocks(p->nthreads, 128), 128, 0, s>>>(
            bases, dk.Current(), dv.Current(), np, p->nb, p->R, p->bstart, p->bend, p->partials,
            p->partials + p->nthreads, p->buckets, (np + p->R - 1) / p->R);
        CTX_LAUNCH("msm_accumulate_runs_kernel");
        msm_runs_combine_kernel<G><<<nblocks(p->nb, 128), 128, 0, s>>>(p->bstart, p->bend, p->nb, p->R, p->partials,
                                                                    p->partials + p->nthreads, p->buckets);
        CTX_LAUNCH("msm_runs_combine_kernel");
        tb = p->temp_bytes;
        CTX_CU(cub::DeviceSelect::If(p->temp, tb, thrust::counting_iterator<uint32_t>(0), p->heavy, p->n_heavy,
                                     (int)p->nb, runs_heavy_op{p->bstart, p->bend, p->R}, s));
        CTX_LAUNCH("cub DeviceSelect::If (heavy buckets, runs)");
        msm_runs_heavy_kernel<G><<<HEAVY_BLOCKS, 128, 0, s>>>(p->bstart, p->bend, p->R, p->partials,
                                                           p->partials + p->nthreads, p->heavy, p->n_heavy,
                                                           p->buckets);
        CTX_LAUNCH("msm_runs_heavy_kernel");
    }
    if (!p->runs) {
        st = tasks_pass<G>(ctx, p, bases, dv.Current(), ev ? ev[2] : NULL, err);
        if (st != CUZK_OK) goto out;
    }
    if (ev) CTX_CU(cudaEventRecord(ev[3], s));
    msm_segment_kernel<G><<<nblocks((size_t)p->W * p->seg_per_win, 128), 128, 0, s>>>(p->buckets, p->nbw, p->L,
                                                                                   p->seg_per_win, p->W, p->seg);
    CTX_LAUNCH("msm_segment_kernel");
    m = p->seg_per_win;
    a = p->seg;
    b = p->seg2;
    while (m > 1) {
        uint32_t mo = (m + GROUP - 1) / GROUP;
        msm_group_sum_kernel<G><<<nblocks((size_t)p->W * mo, 128), 128, 0, s>>>(a, m, mo, p->W, GROUP, b);
        CTX_LAUNCH("msm_group_sum_kernel");
        xyzz_pt *t = a; a = b; b = t;
        m = mo;
    }
    /* a[w], w < W: the window sums; Horner over them runs on the host (msm_job) */
    CTX_CU(cudaMemcpyAsync(h_wins, a, (size_t)p->W * sizeof(xyzz_pt), cudaMemcpyDeviceToHost, s));
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
template <class G>
cuzk_status ones_threads(gpu_ctx *ctx, size_t n, size_t *T, cuzk_error *err) {
    cuzk_status st = CUZK_OK;
    int per_sm = 0;
    CTX_CU(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, msm_ones_kernel<G>, 128, 0));
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

/* (1, 1, 0): the host's Jacobian infinity, Montgomery form */
template <class G>
void jacobian_infinity(typename G::jacobian *out) {
    const typename G::host_xyzz inf = G::host_xyzz::inf();
    const auto j = inf.to_jacobian();
    static_assert(sizeof j == sizeof *out, "jacobian layout");
    memcpy(out, &j, sizeof j);
}

enum { EV_BEGIN, EV_CLASS, EV_ONES, EV_TAIL, EV_END, EV_COUNT_ };

/* Host sum of one chunk's window sums: sum_w 2^(c*w) * win[w] (Horner), added to *acc. The
 * last, inherently serial step (~255 doublings) is a dependent chain of ~150k multiply-adds that
 * one GPU thread runs slowly and a CPU core in ~0.2 ms (G2: ~3x that): the host view of the
 * group's points (G::host_xyzz: src/cuda/ec.cuh's formulas over src/ff/mont.h, through fp2_t for
 * G2), same bytes as the device's. */
template <class G>
void host_horner_add(typename G::host_xyzz *acc, const typename G::xyzz *win, int W, int c) {
    typedef typename G::host_xyzz hx;
    static_assert(sizeof(hx) == sizeof(typename G::xyzz), "host xyzz layout");
    const hx *w = (const hx *)win;
    hx r = w[W - 1];
    for (int i = W - 2; i >= 0; i--) {
        for (int k = 0; k < c; k++) r = r.dbl();
        r.add(w[i]);
    }
    acc->add(r);
}

/* One job over resident bases (validated, n >= 1). window: 0 = the job's tuning, else the
 * default for the chunk size. acc NULL: the result goes to job->out; else it is added to *acc. */
template <class G>
cuzk_status msm_job(gpu_ctx *ctx, const typename group_api<G>::job *job, int window, gpu_msm_stats *stats,
                    typename G::host_xyzz *acc_out, cuzk_error *err) {
    MSM_GROUP_TYPES(G);
    cuzk_status st = CUZK_OK;
    cudaStream_t s = ctx->stream;
    const size_t n = job->n;
    const affine_pt *bases = (const affine_pt *)job->bases->d_pts + job->base_offset;
    const uint64_t *scalars = (const uint64_t *)job->d_scalars;
    const int mont = job->form == GPU_SCALARS_MONTGOMERY;
    const scalar_class<fr_t> cls = {scalars, job->d_index, mont};
    const size_t cmax = chunk_limit(&job->tuning);
    if (window <= 0 && job->tuning.window_bits > 0) window = tuned_window(&job->tuning, 0);
    const size_t max_chunks = (n + cmax - 1) / cmax;
    scratch sc;
    sc.ctx = ctx;
    sc.n = 0;
    uint32_t *d_ones = NULL, *d_tail = NULL;
    int *d_counts = NULL;
    xyzz_pt *d_part = NULL, *d_part2 = NULL;
    char *d_temp = NULL;
    size_t temp_bytes = 0, T = 0, n_one = 0, n_other = 0, nchunks = 0;
    cudaEvent_t ev[EV_COUNT_] = {}, ev_counts = NULL, *ev_chunk = NULL;
    int *h_counts = NULL;
    xyzz_pt *h_ones = NULL, *h_wins = NULL;
    tail_plan<G> p;
    memset(&p, 0, sizeof p);

    /* pinned host scratch: counts, the ones sum, up to 64 window sums per chunk (sized before any
     * work of this job is queued: growing it waits for the stream) */
    st = ctx_host_scratch(ctx, 256 + (1 + max_chunks * (size_t)(window > 0 ? 255 / window + 1 : 64)) * sizeof(xyzz_pt),
                          err);
    if (st != CUZK_OK) goto out;
    h_counts = (int *)ctx->h_small;
    h_ones = (xyzz_pt *)((char *)ctx->h_small + 256);
    h_wins = h_ones + 1;
    if (stats)
        for (int i = 0; i < EV_COUNT_; i++) CTX_CU(cudaEventCreate(&ev[i]));
    CTX_CU(cudaEventCreateWithFlags(&ev_counts, cudaEventDisableTiming));
    st = ones_threads<G>(ctx, n, &T, err);
    if (st != CUZK_OK) goto out;
    CTX_CU(cub::DevicePartition::If(NULL, temp_bytes, thrust::counting_iterator<uint32_t>(0), (uint32_t *)NULL,
                                    (uint32_t *)NULL, thrust::make_discard_iterator(), (int *)NULL, (int)n,
                                    is_one_op<fr_t>{cls}, is_other_op<fr_t>{cls}, s));
    CTX_CU(scratch_alloc(&sc, &d_ones, n));
    CTX_CU(scratch_alloc(&sc, &d_tail, n));
    CTX_CU(scratch_alloc(&sc, &d_counts, 2));
    CTX_CU(scratch_alloc(&sc, &d_part, T));
    CTX_CU(scratch_alloc(&sc, &d_part2, (T + GROUP_ONES - 1) / GROUP_ONES));
    CTX_CU(scratch_alloc(&sc, &d_temp, temp_bytes));

    /* 1. classify */
    if (stats) CTX_CU(cudaEventRecord(ev[EV_BEGIN], s));
    CTX_CU(cub::DevicePartition::If(d_temp, temp_bytes, thrust::counting_iterator<uint32_t>(0), d_ones, d_tail,
                                    thrust::make_discard_iterator(), d_counts, (int)n, is_one_op<fr_t>{cls},
                                    is_other_op<fr_t>{cls}, s));
    CTX_LAUNCH("cub DevicePartition::If");
    if (stats) CTX_CU(cudaEventRecord(ev[EV_CLASS], s));
    CTX_CU(cudaMemcpyAsync(h_counts, d_counts, 2 * sizeof(int), cudaMemcpyDeviceToHost, s));
    CTX_CU(cudaEventRecord(ev_counts, s));

    /* 2. ones (the count is read on the device; the host waits for it meanwhile); the sum ends in
     * d_part[0] or d_part2[0] */
    msm_ones_kernel<G><<<(unsigned)(T / 128), 128, 0, s>>>(bases, d_ones, d_counts, d_part);
    CTX_LAUNCH("msm_ones_kernel");
    {
        uint32_t m = (uint32_t)T;
        xyzz_pt *a = d_part, *b = d_part2;
        while (m > 1) {
            uint32_t mo = (m + GROUP_ONES - 1) / GROUP_ONES;
            msm_group_sum_kernel<G><<<nblocks(mo, 128), 128, 0, s>>>(a, m, mo, 1, GROUP_ONES, b);
            CTX_LAUNCH("msm_group_sum_kernel (ones)");
            xyzz_pt *t = a; a = b; b = t;
            m = mo;
        }
        CTX_CU(cudaMemcpyAsync(h_ones, a, sizeof(xyzz_pt), cudaMemcpyDeviceToHost, s));
    }
    if (stats) CTX_CU(cudaEventRecord(ev[EV_ONES], s));
    CTX_CU(cudaEventSynchronize(ev_counts));
    n_one = (size_t)h_counts[0];
    n_other = (size_t)h_counts[1];
    if (n_one + n_other > n) {
        st = dev_error(err, CUZK_ERR_DEVICE, __FILE__, __LINE__, "%s: bad classification counts",
                       group_api<G>::run_name());
        goto out;
    }

    /* 3. tail: window sums of each chunk to h_wins */
    if (n_other) {
        const size_t cn = n_other < cmax ? n_other : cmax;
        nchunks = (n_other + cn - 1) / cn;
        plan_sizes(&p, cn, window > 0 ? window : gpu_msm_window_bits(cn), &job->tuning);
        st = plan_alloc(ctx, &sc, &p, err);
        if (st != CUZK_OK) goto out;
        if (stats) {
            ev_chunk = new (std::nothrow) cudaEvent_t[TAIL_EVENTS * nchunks];
            if (!ev_chunk) {
                st = dev_error(err, CUZK_ERR_NOMEM, __FILE__, __LINE__, "%s: out of memory", group_api<G>::run_name());
                goto out;
            }
            for (size_t i = 0; i < TAIL_EVENTS * nchunks; i++) ev_chunk[i] = NULL;
            for (size_t i = 0; i < TAIL_EVENTS * nchunks; i++) CTX_CU(cudaEventCreate(&ev_chunk[i]));
        }
        for (size_t ci = 0; ci < nchunks; ci++) {
            const size_t j0 = ci * cn, len = n_other - j0 < cn ? n_other - j0 : cn;
            st = tail_chunk<G>(ctx, &p, len, d_tail + j0, bases, scalars, job->d_index, mont, h_wins + ci * p.W,
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
        typename G::host_xyzz acc;
        memcpy(&acc, h_ones, sizeof acc);
        for (size_t ci = 0; ci < nchunks; ci++) host_horner_add<G>(&acc, h_wins + ci * p.W, p.W, p.c);
        if (acc_out) {
            acc_out->add(acc);
        } else {
            const auto r = acc.to_jacobian();
            static_assert(sizeof r == sizeof(jacobian_pt), "jacobian layout");
            memcpy(job->out, &r, sizeof r);
        }
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

/* Points per streamed chunk: t->stream_points (at least MIN_CHUNK), 0: the chunk limit. */
size_t stream_limit(const gpu_msm_tuning *t) {
    const size_t v = t ? t->stream_points : 0;
    if (v > 0) return v < MIN_CHUNK ? MIN_CHUNK : v;
    return chunk_limit(t);
}

/* One job over host bases (job->h_bases, validated, n >= 1): chunks of S points copied into two
 * device staging buffers on the ctx's copy stream, chunk i + 1 while chunk i's MSM (msm_job over
 * the staged points) runs on the ctx stream; the chunks' sums added on the host. msm_job waits for
 * its own work before returning, so when chunk i's job returns, its staging buffer is free for
 * chunk i + 2. */
enum { STREAM_EVENTS_MAX = 2 };
template <class G>
cuzk_status msm_job_streamed(gpu_ctx *ctx, const typename group_api<G>::job *job, int window, gpu_msm_stats *stats,
                             cuzk_error *err) {
    MSM_GROUP_TYPES(G);
    cuzk_status st = CUZK_OK;
    const size_t n = job->n, pt = sizeof(affine_pt);
    size_t S = stream_limit(&job->tuning);
    if (S > n) S = n;
    const size_t nsub = (n + S - 1) / S;
    const char *h = (const char *)job->h_bases + job->base_offset * pt;
    const uint64_t *scalars = (const uint64_t *)job->d_scalars;
    const int nbuf = nsub > 1 ? 2 : 1;
    affine_pt *stage[2] = {NULL, NULL};
    cudaEvent_t ready = NULL, copied[2] = {NULL, NULL}, cb[2] = {NULL, NULL}, ce[2] = {NULL, NULL};
    cudaStream_t cs = NULL;
    typename G::host_xyzz acc = G::host_xyzz::inf();
    bool copying = false;
    float copy_ms = 0;
    CTX_CU(ctx_copy_stream(ctx, &cs));
    for (int b = 0; b < nbuf; b++) {
        CTX_CU(ctx_alloc(ctx, (void **)&stage[b], S * pt));
        CTX_CU(cudaEventCreateWithFlags(&copied[b], cudaEventDisableTiming));
        if (stats) {
            CTX_CU(cudaEventCreate(&cb[b]));
            CTX_CU(cudaEventCreate(&ce[b]));
        }
    }
    /* the staging buffers are the ctx stream's memory (arena or pool): the copy stream writes
     * them only after the ctx stream has passed their allocation */
    CTX_CU(cudaEventCreateWithFlags(&ready, cudaEventDisableTiming));
    CTX_CU(cudaEventRecord(ready, ctx->stream));
    CTX_CU(cudaStreamWaitEvent(cs, ready, 0));
    copying = true;
    for (size_t i = 0; i <= nsub; i++) {
        /* enqueue the copy of chunk i (its buffer's previous job, chunk i - 2, has returned) */
        if (i < nsub) {
            const int b = (int)(i & 1);
            const size_t k0 = i * S, len = n - k0 < S ? n - k0 : S;
            if (stats) CTX_CU(cudaEventRecord(cb[b], cs));
            CTX_CU(cudaMemcpyAsync(stage[b], h + k0 * pt, len * pt, cudaMemcpyHostToDevice, cs));
            if (stats) CTX_CU(cudaEventRecord(ce[b], cs));
            CTX_CU(cudaEventRecord(copied[b], cs));
        }
        /* then run chunk i - 1, whose copy was enqueued before */
        if (i == 0) continue;
        {
            const size_t j = i - 1;
            const int b = (int)(j & 1);
            const size_t k0 = j * S, len = n - k0 < S ? n - k0 : S;
            CTX_CU(cudaStreamWaitEvent(ctx->stream, copied[b], 0));
            typename group_api<G>::bases tmp;
            tmp.ctx = ctx;
            tmp.d_pts = stage[b];
            tmp.n = len;
            tmp.pt_bytes = pt;
            typename group_api<G>::job sub = *job;
            sub.bases = &tmp;
            sub.h_bases = NULL;
            sub.base_offset = 0;
            sub.n = len;
            if (job->d_index) sub.d_index = job->d_index + k0;
            else sub.d_scalars = scalars + 4 * k0;
            if ((st = msm_job<G>(ctx, &sub, window, stats, &acc, err)) != CUZK_OK) goto out;
            if (stats) {
                float ms = 0;
                if (cudaEventElapsedTime(&ms, cb[b], ce[b]) == cudaSuccess) copy_ms += ms;
                else (void)cudaGetLastError();
                stats->stream_bytes += len * pt;
                stats->stream_chunks++;
            }
        }
    }
    {
        const auto r = acc.to_jacobian();
        static_assert(sizeof r == sizeof(jacobian_pt), "jacobian layout");
        memcpy(job->out, &r, sizeof r);
    }
    if (stats) stats->stream_copy_ms += copy_ms;
out:
    /* no copy may still write a staging buffer when it goes back to the arena / pool */
    if (copying && cs) (void)cudaStreamSynchronize(cs);
    for (int b = nbuf - 1; b >= 0; b--) ctx_free(ctx, stage[b]);
    for (int b = 0; b < 2; b++) {
        if (copied[b]) (void)cudaEventDestroy(copied[b]);
        if (cb[b]) (void)cudaEventDestroy(cb[b]);
        if (ce[b]) (void)cudaEventDestroy(ce[b]);
    }
    if (ready) (void)cudaEventDestroy(ready);
    (void)cudaGetLastError();
    return st;
}

/* A misuse of the entry point of group G: CUZK_ERR_ARG naming it. */
#define RUN_ARG(cond, what)                                                                                \
    do {                                                                                                   \
        if (!(cond)) return dev_error(err, CUZK_ERR_ARG, __FILE__, __LINE__, "%s: %s", group_api<G>::run_name(), what); \
    } while (0)

template <class G>
cuzk_status msm_run(gpu_ctx *ctx, const typename group_api<G>::job *jobs, size_t n_jobs, int window,
                    gpu_msm_stats *stats, cuzk_error *err) {
    RUN_ARG(ctx, "ctx is NULL");
    RUN_ARG(n_jobs == 0 || jobs, "jobs is NULL");
    for (size_t i = 0; i < n_jobs; i++) {
        const typename group_api<G>::job *j = &jobs[i];
        RUN_ARG(j->out, "job out is NULL");
        RUN_ARG(j->n < ((size_t)1 << 31), "job n >= 2^31");
        if (j->n == 0) continue;
        RUN_ARG((j->bases || j->h_bases) && j->d_scalars, "job bases (and h_bases) or d_scalars is NULL");
        if (j->bases) {
            RUN_ARG(j->bases->ctx == ctx, "bases were uploaded on another ctx");
            RUN_ARG(j->bases->pt_bytes == sizeof(typename G::affine), "bases of another curve or group");
            RUN_ARG(j->base_offset <= j->bases->n && j->n <= j->bases->n - j->base_offset,
                    "base_offset + n > number of bases");
        }
        RUN_ARG(j->form == GPU_SCALARS_CANONICAL || j->form == GPU_SCALARS_MONTGOMERY, "bad scalar form");
    }
    CTX_ENTER();
    if (stats) memset(stats, 0, sizeof *stats);
    for (size_t i = 0; i < n_jobs; i++) {
        if (jobs[i].n == 0) {
            jacobian_infinity<G>(static_cast<typename G::jacobian *>(jobs[i].out)); /* the run's curve and group */
            continue;
        }
        cuzk_status st = jobs[i].bases ? msm_job<G>(ctx, &jobs[i], window, stats, NULL, err)
                                       : msm_job_streamed<G>(ctx, &jobs[i], window, stats, err);
        if (st != CUZK_OK) return st;
    }
    return CUZK_OK;
}

}  // namespace

/* ---- resident bases --------------------------------------------------------------------------- */

namespace {
/* *out = n device points, copied from the host array `bases` when not NULL (else uninitialized). */
template <class G>
cuzk_status bases_alloc(gpu_ctx *ctx, typename group_api<G>::bases **out, size_t n, const void *bases,
                        cuzk_error *err) {
    cuzk_status st = CUZK_OK;
    typename group_api<G>::bases *b = new (std::nothrow) typename group_api<G>::bases;
    if (!b) return dev_error(err, CUZK_ERR_NOMEM, __FILE__, __LINE__, "bases upload: out of memory");
    b->ctx = ctx;
    b->d_pts = NULL;
    b->n = n;
    b->pt_bytes = sizeof(typename G::affine);
    if (n) {
        CTX_CU(cudaMalloc(&b->d_pts, n * sizeof(typename G::affine)));
        if (bases) {
            CTX_CU(cudaMemcpyAsync(b->d_pts, bases, n * sizeof(typename G::affine), cudaMemcpyHostToDevice, ctx->stream));
            CTX_CU(cudaStreamSynchronize(ctx->stream));
        }
    }
    ctx->resident_bytes += n * sizeof(typename G::affine);
    *out = b;
    return CUZK_OK;
out:
    if (b->d_pts) (void)cudaFree(b->d_pts);
    delete b;
    return st;
}
}  // namespace

namespace {
/* The groups behind the C entry points. */
typedef g1_of<api_curve> api_g1;
typedef g2_of<api_curve> api_g2;
typedef g1_of<bn254> bn254_g1;
typedef g2_of<bn254> bn254_g2;

template <class G>
cuzk_status bases_upload(gpu_ctx *ctx, typename group_api<G>::bases **out, const void *bases, size_t n,
                         const char *name, cuzk_error *err) {
    if (!out) return dev_error(err, CUZK_ERR_ARG, __FILE__, __LINE__, "%s: out is NULL", name);
    *out = NULL;
    if (n && !bases) return dev_error(err, CUZK_ERR_ARG, __FILE__, __LINE__, "%s: bases is NULL", name);
    if (n >= ((size_t)1 << 31)) return dev_error(err, CUZK_ERR_ARG, __FILE__, __LINE__, "%s: n >= 2^31", name);
    CTX_ENTER();
    return bases_alloc<G>(ctx, out, n, bases, err);
}

void bases_free(gpu_msm_bases *b, const char *name) {
    if (!b) return;
    gpu_ctx *ctx = b->ctx;
    if (b->d_pts && !ctx->dead.load() && ctx_enter(ctx, NULL, __FILE__, __LINE__) == CUZK_OK) {
        cudaError_t e = cudaStreamSynchronize(ctx->stream);
        if (e == cudaSuccess) e = cudaFree(b->d_pts);
        if (e != cudaSuccess) (void)ctx_fail(ctx, NULL, e, __FILE__, __LINE__, name);
    }
    ctx->resident_bytes -= b->n * b->pt_bytes;
}
}  // namespace

extern "C" cuzk_status gpu_g1_bases_upload(gpu_ctx *ctx, gpu_g1_bases **out, const struct g1_affine *bases,
                                           size_t n, cuzk_error *err) {
    return bases_upload<api_g1>(ctx, out, bases, n, "gpu_g1_bases_upload", err);
}
extern "C" cuzk_status gpu_bn254_g1_bases_upload(gpu_ctx *ctx, gpu_g1_bases **out, const struct bn254_g1_affine *bases,
                                                 size_t n, cuzk_error *err) {
    return bases_upload<bn254_g1>(ctx, out, bases, n, "gpu_bn254_g1_bases_upload", err);
}
extern "C" cuzk_status gpu_g2_bases_upload(gpu_ctx *ctx, gpu_g2_bases **out, const struct g2_affine *bases,
                                           size_t n, cuzk_error *err) {
    return bases_upload<api_g2>(ctx, out, bases, n, "gpu_g2_bases_upload", err);
}
extern "C" cuzk_status gpu_bn254_g2_bases_upload(gpu_ctx *ctx, gpu_g2_bases **out, const struct bn254_g2_affine *bases,
                                                 size_t n, cuzk_error *err) {
    return bases_upload<bn254_g2>(ctx, out, bases, n, "gpu_bn254_g2_bases_upload", err);
}

namespace {
template <class G>
cuzk_status bases_upload_fill(gpu_ctx *ctx, typename group_api<G>::bases **out, size_t n, size_t chunk_points,
                              gpu_bases_fill_fn fill, void *fill_ctx, gpu_upload_stats *stats, const char *name,
                              cuzk_error *err) {
    if (stats) memset(stats, 0, sizeof *stats);
    if (!out) return dev_error(err, CUZK_ERR_ARG, __FILE__, __LINE__, "%s: out is NULL", name);
    *out = NULL;
    if (n && !fill) return dev_error(err, CUZK_ERR_ARG, __FILE__, __LINE__, "%s: fill is NULL", name);
    if (n >= ((size_t)1 << 31)) return dev_error(err, CUZK_ERR_ARG, __FILE__, __LINE__, "%s: n >= 2^31", name);
    CTX_ENTER();
    const double t0 = now_ms();
    typename group_api<G>::bases *b = NULL;
    cuzk_status st = bases_alloc<G>(ctx, &b, n, NULL, err);
    if (st != CUZK_OK) return st;
    if (!n) {
        *out = b;
        return CUZK_OK;
    }
    typedef typename G::affine pt;
    const size_t chunk = chunk_points ? (chunk_points < n ? chunk_points : n) : (n < ((size_t)1 << 20) ? n : ((size_t)1 << 20));
    void *stage[2] = {NULL, NULL};
    cudaEvent_t ev[2] = {NULL, NULL};
    bool pending[2] = {false, false};
    double fill_ms = 0;
    for (int k = 0; k < 2 && k * chunk < n; k++) {
        CTX_CU(cudaHostAlloc(&stage[k], chunk * sizeof(pt), cudaHostAllocPortable));
        CTX_CU(cudaEventCreateWithFlags(&ev[k], cudaEventDisableTiming));
    }
    /* chunk i is decoded into stage[i & 1] while chunk i - 1 is copied from the other */
    for (size_t first = 0, i = 0; first < n; first += chunk, i++) {
        const int k = (int)(i & 1);
        const size_t cnt = n - first < chunk ? n - first : chunk;
        if (pending[k]) {
            CTX_CU(cudaEventSynchronize(ev[k]));
            pending[k] = false;
        }
        const double tf = now_ms();
        if ((st = fill(fill_ctx, first, cnt, stage[k], err)) != CUZK_OK) goto out;
        fill_ms += now_ms() - tf;
        CTX_CU(cudaMemcpyAsync((pt *)b->d_pts + first, stage[k], cnt * sizeof(pt), cudaMemcpyHostToDevice, ctx->stream));
        CTX_CU(cudaEventRecord(ev[k], ctx->stream));
        pending[k] = true;
    }
    CTX_CU(cudaStreamSynchronize(ctx->stream));
    pending[0] = pending[1] = false;
    if (stats) {
        stats->bytes = n * sizeof(pt);
        stats->fill_ms = fill_ms;
        stats->wall_ms = now_ms() - t0;
    }
    *out = b;
    b = NULL;
out:
    /* the copies read the staging buffers: wait for them before freeing (also after a failure) */
    for (int k = 0; k < 2; k++) {
        if (pending[k] && ev[k]) (void)cudaEventSynchronize(ev[k]);
        if (ev[k]) (void)cudaEventDestroy(ev[k]);
        if (stage[k]) (void)cudaFreeHost(stage[k]);
    }
    if (b) {
        bases_free(b, name);
        delete b;
    }
    return st;
}
}  // namespace

extern "C" cuzk_status gpu_g1_bases_upload_fill(gpu_ctx *ctx, gpu_g1_bases **out, size_t n, size_t chunk_points,
                                                gpu_bases_fill_fn fill, void *fill_ctx, gpu_upload_stats *stats,
                                                cuzk_error *err) {
    return bases_upload_fill<api_g1>(ctx, out, n, chunk_points, fill, fill_ctx, stats, "gpu_g1_bases_upload_fill", err);
}
extern "C" cuzk_status gpu_g2_bases_upload_fill(gpu_ctx *ctx, gpu_g2_bases **out, size_t n, size_t chunk_points,
                                                gpu_bases_fill_fn fill, void *fill_ctx, gpu_upload_stats *stats,
                                                cuzk_error *err) {
    return bases_upload_fill<api_g2>(ctx, out, n, chunk_points, fill, fill_ctx, stats, "gpu_g2_bases_upload_fill", err);
}

extern "C" size_t gpu_g1_bases_count(const gpu_g1_bases *b) { return b ? b->n : 0; }
extern "C" size_t gpu_g1_bases_bytes(const gpu_g1_bases *b) { return b ? b->n * b->pt_bytes : 0; }
extern "C" size_t gpu_g2_bases_count(const gpu_g2_bases *b) { return b ? b->n : 0; }
extern "C" size_t gpu_g2_bases_bytes(const gpu_g2_bases *b) { return b ? b->n * b->pt_bytes : 0; }

extern "C" void gpu_g1_bases_free(gpu_g1_bases *b) {
    bases_free(b, "gpu_g1_bases_free");
    delete b;
}
extern "C" void gpu_g2_bases_free(gpu_g2_bases *b) {
    bases_free(b, "gpu_g2_bases_free");
    delete b;
}

/* ---- the MSM ------------------------------------------------------------------------------------ */

extern "C" cuzk_status gpu_g1_msm_run(gpu_ctx *ctx, const gpu_msm_job *jobs, size_t n_jobs, gpu_msm_stats *stats,
                                      cuzk_error *err) {
    return msm_run<api_g1>(ctx, jobs, n_jobs, 0, stats, err);
}
extern "C" cuzk_status gpu_bn254_g1_msm_run(gpu_ctx *ctx, const gpu_msm_job *jobs, size_t n_jobs,
                                            gpu_msm_stats *stats, cuzk_error *err) {
    return msm_run<bn254_g1>(ctx, jobs, n_jobs, 0, stats, err);
}
extern "C" cuzk_status gpu_g2_msm_run(gpu_ctx *ctx, const gpu_g2_msm_job *jobs, size_t n_jobs, gpu_msm_stats *stats,
                                      cuzk_error *err) {
    return msm_run<api_g2>(ctx, jobs, n_jobs, 0, stats, err);
}
extern "C" cuzk_status gpu_bn254_g2_msm_run(gpu_ctx *ctx, const gpu_g2_msm_job *jobs, size_t n_jobs,
                                            gpu_msm_stats *stats, cuzk_error *err) {
    return msm_run<bn254_g2>(ctx, jobs, n_jobs, 0, stats, err);
}

extern "C" cuzk_status gpu_g1_msm_reserve(gpu_ctx *ctx, size_t n_max, size_t pool_bytes, cuzk_error *err) {
    GPU_ARG(ctx, "gpu_g1_msm_reserve: ctx is NULL");
    CTX_ENTER();
    cuzk_status st = CUZK_OK;
    void *d = NULL;
    /* the host scratch of msm_job for n_max scalars at the default window (the same formula), for
     * the largest point of every instantiated group (G2 of BLS12-381) */
    const size_t cmax = chunk_limit(NULL), max_chunks = n_max ? (n_max + cmax - 1) / cmax : 1;
    static_assert(sizeof(api_g2::xyzz) >= sizeof(api_g1::xyzz) && sizeof(api_g2::xyzz) >= sizeof(bn254_g2::xyzz),
                  "largest xyzz");
    st = ctx_host_scratch(ctx, 256 + (1 + max_chunks * (size_t)64) * sizeof(api_g2::xyzz), err);
    if (st != CUZK_OK) goto out;
    if (pool_bytes) {
        CTX_CU(cudaMallocAsync(&d, pool_bytes, ctx->stream)); /* out of memory: NOMEM_DEVICE, ctx usable */
        CTX_CU(cudaFreeAsync(d, ctx->stream));
    }
    CTX_CU(cudaStreamSynchronize(ctx->stream));
out:
    return st;
}

/* gpu_msm_window_bits: the inline rule of gpu.h (the memory plan uses the same one). */

namespace {
template <class G>
size_t scratch_bytes(size_t n, const gpu_msm_tuning *tuning) {
    typedef typename G::fr fr_t;
    if (n == 0) return 0;
    const size_t cn = n < chunk_limit(tuning) ? n : chunk_limit(tuning);
    size_t part_tmp = 0, sort_tmp = 0, scan_tmp = 0;
    tail_plan<G> p;
    plan_sizes(&p, cn, tuned_window(tuning, cn), tuning);
    {
        /* size queries only: no device memory is touched */
        cub::DoubleBuffer<uint32_t> dk(NULL, NULL), dv(NULL, NULL);
        scalar_class<fr_t> cls = {NULL, NULL, 0};
        (void)cub::DevicePartition::If(NULL, part_tmp, thrust::counting_iterator<uint32_t>(0), (uint32_t *)NULL,
                                       (uint32_t *)NULL, thrust::make_discard_iterator(), (int *)NULL, (int)n,
                                       is_one_op<fr_t>{cls}, is_other_op<fr_t>{cls}, (cudaStream_t)0);
        (void)cub::DeviceRadixSort::SortPairs(NULL, sort_tmp, dk, dv, (int64_t)p.npairs, 0, p.sort_bits, (cudaStream_t)0);
        (void)cub::DeviceScan::ExclusiveSum(NULL, scan_tmp, (uint32_t *)NULL, (uint32_t *)NULL, (int)(p.nb + 1),
                                            (cudaStream_t)0);
        size_t sel_tmp = 0;
        (void)cub::DeviceSelect::If(NULL, sel_tmp, thrust::counting_iterator<uint32_t>(0), (uint32_t *)NULL, (int *)NULL,
                                    (int)p.nb, is_heavy_op{NULL}, (cudaStream_t)0);
        if (sel_tmp > scan_tmp) scan_tmp = sel_tmp;
        size_t ord_tmp = 0;
        (void)cub::DeviceRadixSort::SortPairsDescending(NULL, ord_tmp, (uint32_t *)NULL, (uint32_t *)NULL,
                                                        (uint32_t *)NULL, (uint32_t *)NULL, (int64_t)p.nb, 0,
                                                        p.size_bits, (cudaStream_t)0);
        if (ord_tmp > scan_tmp) scan_tmp = ord_tmp;
        (void)cudaGetLastError();
    }
    /* the ones' partial sums: at most one full wave (ones_threads); a generous bound without a
     * device query: 2048 threads per SM on 256 SMs */
    const size_t T = (size_t)2048 * 256;
    const size_t align = 512; /* the pool rounds allocations up; a margin per buffer */
    const size_t pt = sizeof(typename G::xyzz);
    size_t b = 2 * n * sizeof(uint32_t) + 2 * sizeof(int) + (T + T / GROUP_ONES + 2) * pt + part_tmp;
    /* keys, vals (double-buffered); bstart, bend, ntasks, toff, heavy, sizes, sizes2, ids, perm
     * (nb + 1 each); the task map (max_tasks) */
    b += 4 * p.npairs * sizeof(uint32_t) + 9 * ((size_t)p.nb + 1) * sizeof(uint32_t) + sizeof(int);
    b += p.max_tasks * sizeof(uint32_t);
    b += (sort_tmp > scan_tmp ? sort_tmp : scan_tmp);
    const size_t parts = p.max_tasks > 2 * p.nthreads ? p.max_tasks : 2 * p.nthreads;
    b += (parts + (size_t)p.nb + 2 * (size_t)p.W * p.seg_per_win) * pt;
    return b + 32 * align;
}
}  // namespace

extern "C" size_t gpu_g1_msm_scratch_bytes(size_t n, const gpu_msm_tuning *tuning) {
    return scratch_bytes<api_g1>(n, tuning);
}
extern "C" size_t gpu_g2_msm_scratch_bytes(size_t n, const gpu_msm_tuning *tuning) {
    return scratch_bytes<api_g2>(n, tuning);
}
namespace {
/* a streamed job: two staging buffers of S points (one when S = n) + one MSM of S points, with
 * the arena's alignment per staging buffer */
template <class G>
size_t stream_scratch_bytes(size_t n, const gpu_msm_tuning *tuning) {
    if (n == 0) return 0;
    size_t S = stream_limit(tuning);
    if (S > n) S = n;
    const size_t nbuf = S < n ? 2 : 1;
    return nbuf * (S * sizeof(typename G::affine) + 512) + scratch_bytes<G>(S, tuning);
}
}  // namespace
extern "C" size_t gpu_g1_msm_stream_scratch_bytes(size_t n, const gpu_msm_tuning *tuning) {
    return stream_scratch_bytes<api_g1>(n, tuning);
}
extern "C" size_t gpu_g2_msm_stream_scratch_bytes(size_t n, const gpu_msm_tuning *tuning) {
    return stream_scratch_bytes<api_g2>(n, tuning);
}

/* Host arrays: a ctx of its own on the current device (the call is synchronous and
 * self-contained, so several threads may call it at once). */
namespace {
template <class G>
cuzk_status host_array_msm(typename G::jacobian *out, const typename G::affine *bases, const void *scalars,
                           size_t n, const char *name, cuzk_error *err) {
    if (!out) return dev_error(err, CUZK_ERR_ARG, __FILE__, __LINE__, "%s: out is NULL", name);
    if (n && (!bases || !scalars)) return dev_error(err, CUZK_ERR_ARG, __FILE__, __LINE__, "%s: NULL input", name);
    if (n >= ((size_t)1 << 31)) return dev_error(err, CUZK_ERR_ARG, __FILE__, __LINE__, "%s: n >= 2^31", name);
    if (n == 0) {
        jacobian_infinity<G>(out);
        return CUZK_OK;
    }
    cuzk_status st = CUZK_OK;
    int dev = 0;
    gpu_ctx *ctx = NULL;
    typename group_api<G>::bases *b = NULL;
    void *d_s = NULL;
    typename group_api<G>::job job;
    cudaError_t e = cudaGetDevice(&dev);
    if (e != cudaSuccess) return gpu_fail(err, e, __FILE__, __LINE__, "cudaGetDevice");
    if ((st = gpu_ctx_create(&ctx, dev, err)) != CUZK_OK) goto out;
    if ((st = ctx_enter(ctx, err, __FILE__, __LINE__)) != CUZK_OK) goto out;
    if ((st = bases_alloc<G>(ctx, &b, n, bases, err)) != CUZK_OK) goto out;
    if ((st = gpu_buf_alloc(ctx, &d_s, n * 32, err)) != CUZK_OK) goto out;
    if ((st = gpu_copy_h2d_async(ctx, d_s, scalars, n * 32, err)) != CUZK_OK) goto out;
    memset(&job, 0, sizeof job);
    job.bases = b;
    job.n = n;
    job.d_scalars = d_s;
    job.form = GPU_SCALARS_CANONICAL;
    job.out = out;
    st = msm_run<G>(ctx, &job, 1, 0, NULL, err);
out:
    gpu_buf_free(ctx, d_s);
    if (b) {
        bases_free(b, name);
        delete b;
    }
    gpu_ctx_destroy(ctx);
    return st;
}
}  // namespace

extern "C" cuzk_status gpu_g1_msm(struct g1_jacobian *out, const struct g1_affine *bases,
                                  const struct scalar256 *scalars, size_t n, cuzk_error *err) {
    return host_array_msm<api_g1>((api_g1::jacobian *)out, (const api_g1::affine *)bases, scalars, n, "gpu_g1_msm",
                                  err);
}
extern "C" cuzk_status gpu_bn254_g1_msm(struct bn254_g1_jacobian *out, const struct bn254_g1_affine *bases,
                                        const struct scalar256 *scalars, size_t n, cuzk_error *err) {
    return host_array_msm<bn254_g1>((bn254_g1::jacobian *)out, (const bn254_g1::affine *)bases, scalars, n,
                                    "gpu_bn254_g1_msm", err);
}
extern "C" cuzk_status gpu_g2_msm(struct g2_jacobian *out, const struct g2_affine *bases,
                                  const struct scalar256 *scalars, size_t n, cuzk_error *err) {
    return host_array_msm<api_g2>((api_g2::jacobian *)out, (const api_g2::affine *)bases, scalars, n, "gpu_g2_msm",
                                  err);
}
extern "C" cuzk_status gpu_bn254_g2_msm(struct bn254_g2_jacobian *out, const struct bn254_g2_affine *bases,
                                        const struct scalar256 *scalars, size_t n, cuzk_error *err) {
    return host_array_msm<bn254_g2>((bn254_g2::jacobian *)out, (const bn254_g2::affine *)bases, scalars, n,
                                    "gpu_bn254_g2_msm", err);
}

/* ---- benchmark data ---------------------------------------------------------------------- */
namespace {
__device__ __forceinline__ uint64_t mix64(uint64_t z) {
    z += 0x9e3779b97f4a7c15ull;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}
/* canonical scalars: with probability frac01 (per element, by hash) 0 or 1, else uniform below r
 * (rejection sampling on the bit length of r, as the peer benchmark draws them and like the
 * prover's H scalars); mont: converted to Montgomery form */
template <class C>
__global__ void msm_random_scalars_kernel(uint64_t *s, size_t n, uint64_t seed, uint32_t thresh01, int mont) {
    CUZK_CURVE_TYPES(C);
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    fr_t f = fr_t::zero();
    const uint64_t h = mix64(seed * 0x9e3779b97f4a7c15ull + i);
    if ((uint32_t)h < thresh01) {
        f.l[0] = (uint32_t)(h >> 40) & 1;
    } else {
        const fr_t r = fr_t::modulus_minus(0);
        const uint32_t top_mask = (2u << (31 - __clz(r.l[fr_t::N - 1]))) - 1;
        for (uint64_t t = 0;; t++) {
            for (int k = 0; k < fr_t::N / 2; k++) {
                const uint64_t v = mix64(seed + (4 * i + k) * 0x632be59bd9b4e019ull + t * 0x8cb92ba72f3d8dd7ull);
                f.l[2 * k] = (uint32_t)v;
                f.l[2 * k + 1] = (uint32_t)(v >> 32);
            }
            f.l[fr_t::N - 1] &= top_mask;
            bool lt = false; /* f < r */
            for (int k = fr_t::N - 1; k >= 0; k--) {
                if (f.l[k] != r.l[k]) { lt = f.l[k] < r.l[k]; break; }
            }
            if (lt) break;
        }
    }
    if (mont) f = fr_t::from_canon(f);
    for (int k = 0; k < 4; k++) s[4 * i + k] = (uint64_t)f.l[2 * k] | ((uint64_t)f.l[2 * k + 1] << 32);
}

/* The bench bases' table (src/cuda/gpu.h gpu_bench_dlog): tab[j] = gpu_bench_dlog(j) * gen, affine,
 * for j < nt (a 64-bit double-and-add in XYZZ, one inversion).
 * Every step is one XYZZ addition through one call site (a doubling is acc + acc), as in
 * msm_segment_kernel: the form with separate inlined doubling and mixed-addition sites produced
 * infinity for every entry of G2 on the H200 (session 8, G2 formulas inlined; not understood; the
 * MSM kernels' results were right); bench_run counts infinite bases and fails on any, and the
 * caller checks every timed result against the known discrete logarithms. */
template <class F>
__global__ void msm_bench_table_kernel(affine_t<F> *tab, size_t nt, affine_t<F> gen) {
    const size_t j = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (j >= nt) return;
    const uint64_t k = gpu_bench_dlog(j);
    const xyzz_t<F> g = xyzz_t<F>::from_affine(gen);
    xyzz_t<F> acc = xyzz_t<F>::inf();
    for (int st = 0; st < 128; st++) {
        const int b = 63 - st / 2;
        if ((st & 1) && !((k >> b) & 1)) continue;
        const xyzz_t<F> q = (st & 1) ? g : acc;
        acc.add(q);
    }
    const F zzz_inv = F::inv(acc.zzz), t = acc.zz * zzz_inv; /* t = 1/Z, t^2 = 1/ZZ */
    tab[j].x = acc.x * t.sqr();
    tab[j].y = acc.y * zzz_inv;
}

/* pts[i] = P[i mod nt] + Q[i / nt] (affine chord additions), for i < n: BENCH_SUM_K consecutive
 * points per thread sharing one inversion (Montgomery's trick; the prefix products are kept in
 * pts[i].x meanwhile). P and Q are distinct multiples k G with odd 64-bit k of top bit 1, so P = +-Q
 * (a zero denominator) does not occur (a collision of gpu_bench_dlog would give wrong bases, which
 * the caller's check of the result reports). */
const int BENCH_SUM_K = 16;
template <class F>
__global__ void msm_bench_sum_kernel(affine_t<F> *pts, size_t n, const affine_t<F> *P, size_t nt,
                                     const affine_t<F> *Q) {
    const size_t i0 = ((size_t)blockIdx.x * blockDim.x + threadIdx.x) * BENCH_SUM_K;
    if (i0 >= n) return;
    const size_t i1 = i0 + BENCH_SUM_K < n ? i0 + BENCH_SUM_K : n;
    F prod = F::one();
    for (size_t i = i0; i < i1; i++) {
        pts[i].x = prod;
        prod = prod * (Q[i / nt].x - P[i % nt].x);
    }
    F inv = F::inv(prod);
    for (size_t i = i1; i-- > i0;) {
        const affine_t<F> p = P[i % nt], q = Q[i / nt];
        const F d = q.x - p.x;
        const F dinv = inv * pts[i].x;
        inv = inv * d;
        const F l = (q.y - p.y) * dinv;
        affine_t<F> r;
        r.x = l.sqr() - p.x - q.x;
        r.y = l * (p.x - r.x) - p.y;
        pts[i] = r;
    }
}

/* *count += the points at infinity ((0, 0)) among pts[0 .. n) */
template <class A>
__global__ void msm_bench_count_inf_kernel(const A *pts, size_t n, unsigned long long *count) {
    const size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n && pts[i].is_inf()) atomicAdd(count, 1ull);
}

/* The bench's n bases (src/cuda/gpu.h: known discrete logarithms) of the group of `gen` (affine,
 * Montgomery, host layout = the device's), on the device (d_pts: n points). */
template <class F>
cuzk_status bench_bases(gpu_ctx *ctx, const affine_t<F> *gen, affine_t<F> *d_pts, size_t n, cuzk_error *err) {
    typedef affine_t<F> A;
    cuzk_status st = CUZK_OK;
    const size_t nt = GPU_BENCH_NT, nq = (n + nt - 1) / nt;
    A *tab = NULL;
    CTX_CU(cudaMallocAsync((void **)&tab, (nt + nq) * sizeof(A), ctx->stream));
    msm_bench_table_kernel<F><<<nblocks(nt + nq, 128), 128, 0, ctx->stream>>>(tab, nt + nq, *gen);
    CTX_LAUNCH("msm_bench_table_kernel");
    msm_bench_sum_kernel<F><<<nblocks((n + BENCH_SUM_K - 1) / BENCH_SUM_K, 128), 128, 0, ctx->stream>>>(
        d_pts, n, tab, nt, tab + nt);
    CTX_LAUNCH("msm_bench_sum_kernel");
out:
    if (tab) (void)cudaFreeAsync(tab, ctx->stream);
    return st;
}

template <class G>
cuzk_status bench_run(size_t n, int window, const gpu_msm_tuning *tuning, double frac01, bool montgomery, int warmup,
                      int reps, float *times_ms, gpu_msm_stats *stats_out, const gpu_bench_msm_io *io,
                      cuzk_error *err) {
    typedef typename G::curve C;
    cuzk_status st = CUZK_OK;
    gpu_ctx *ctx = NULL;
    typename group_api<G>::bases *b = NULL;
    uint64_t *d_s = NULL;
    cudaEvent_t e0 = NULL, e1 = NULL;
    typename G::jacobian h_out;
    typename group_api<G>::job job;
    gpu_msm_stats stats;
    int dev = 0;
    const double f = frac01 < 0 ? 0 : frac01 > 1 ? 1 : frac01;
    const uint32_t thresh = f >= 1.0 ? 0xffffffffu : (uint32_t)(f * 4294967296.0);
    cudaError_t ce = cudaGetDevice(&dev);
    if (ce != cudaSuccess) return gpu_fail(err, ce, __FILE__, __LINE__, "cudaGetDevice");
    if ((st = gpu_ctx_create(&ctx, dev, err)) != CUZK_OK) goto out;
    if ((st = bases_alloc<G>(ctx, &b, n, NULL, err)) != CUZK_OK) goto out;
    if ((st = gpu_buf_alloc(ctx, (void **)&d_s, n * 32, err)) != CUZK_OK) goto out;
    CTX_CU(cudaEventCreate(&e0));
    CTX_CU(cudaEventCreate(&e1));
    if ((st = bench_bases(ctx, (const typename G::affine *)io->generator, (typename G::affine *)b->d_pts, n, err)) !=
        CUZK_OK)
        goto out;
    {
        /* a benchmark over points at infinity times nothing (the accumulation skips them) */
        unsigned long long h_inf = 0;
        CTX_CU(cudaMemsetAsync(d_s, 0, sizeof h_inf, ctx->stream));
        msm_bench_count_inf_kernel<typename G::affine><<<nblocks(n, 256), 256, 0, ctx->stream>>>(
            (const typename G::affine *)b->d_pts, n, (unsigned long long *)d_s);
        CTX_LAUNCH("msm_bench_count_inf_kernel");
        CTX_CU(cudaMemcpyAsync(&h_inf, d_s, sizeof h_inf, cudaMemcpyDeviceToHost, ctx->stream));
        CTX_CU(cudaStreamSynchronize(ctx->stream));
        if (h_inf) {
            st = dev_error(err, CUZK_ERR_DEVICE, __FILE__, __LINE__,
                           "MSM benchmark: %llu of %zu generated bases are the point at infinity", h_inf, n);
            goto out;
        }
    }
    memset(&job, 0, sizeof job);
    job.bases = b;
    job.n = n;
    job.d_scalars = d_s;
    job.form = montgomery ? GPU_SCALARS_MONTGOMERY : GPU_SCALARS_CANONICAL;
    job.out = &h_out;
    if (tuning) job.tuning = *tuning;
    for (int r = -warmup; r < reps; r++) {
        msm_random_scalars_kernel<C><<<nblocks(n, 256), 256, 0, ctx->stream>>>(d_s, n, 777 + (uint64_t)(r + warmup),
                                                                            f > 0 ? thresh : 0, montgomery);
        CTX_LAUNCH("msm_random_scalars_kernel");
        CTX_CU(cudaEventRecord(e0, ctx->stream));
        st = msm_run<G>(ctx, &job, 1, window, stats_out ? &stats : NULL, err);
        if (st != CUZK_OK) goto out;
        CTX_CU(cudaEventRecord(e1, ctx->stream));
        CTX_CU(cudaEventSynchronize(e1));
        if (r >= 0) CTX_CU(cudaEventElapsedTime(&times_ms[r], e0, e1));
    }
    if (stats_out) *stats_out = stats;
    /* the last timed run, for the caller's check */
    if (io->result) memcpy(io->result, &h_out, sizeof h_out);
    if (io->scalars) CTX_CU(cudaMemcpy(io->scalars, d_s, n * 32, cudaMemcpyDeviceToHost));
out:
    if (e0) cudaEventDestroy(e0);
    if (e1) cudaEventDestroy(e1);
    gpu_buf_free(ctx, d_s);
    if (b) {
        bases_free(b, "bench bases");
        delete b;
    }
    gpu_ctx_destroy(ctx);
    return st;
}
}  // namespace

extern "C" cuzk_status gpu_bench_g1_msm(size_t n, int window_bits, const gpu_msm_tuning *tuning, int warmup, int reps,
                                        float *times_ms, const gpu_bench_msm_io *io, cuzk_error *err) {
    GPU_ARG(n >= 1 && n < ((size_t)1 << 31) && reps >= 1 && times_ms, "gpu_bench_g1_msm: bad args");
    GPU_ARG(window_bits <= 0 || (window_bits >= 2 && window_bits <= 20), "gpu_bench_g1_msm: bad window");
    GPU_ARG(io && io->generator, "gpu_bench_g1_msm: no generator");
    return bench_run<api_g1>(n, window_bits, tuning, 0.0, false, warmup, reps, times_ms, NULL, io, err);
}

extern "C" cuzk_status gpu_bench_bn254_g1_msm(size_t n, int window_bits, const gpu_msm_tuning *tuning, int warmup,
                                              int reps, float *times_ms, const gpu_bench_msm_io *io, cuzk_error *err) {
    GPU_ARG(n >= 1 && n < ((size_t)1 << 31) && reps >= 1 && times_ms, "gpu_bench_bn254_g1_msm: bad args");
    GPU_ARG(window_bits <= 0 || (window_bits >= 2 && window_bits <= 20), "gpu_bench_bn254_g1_msm: bad window");
    GPU_ARG(io && io->generator, "gpu_bench_bn254_g1_msm: no generator");
    return bench_run<bn254_g1>(n, window_bits, tuning, 0.0, false, warmup, reps, times_ms, NULL, io, err);
}

extern "C" cuzk_status gpu_bench_g1_msm01(size_t n, double frac01, bool montgomery, const gpu_msm_tuning *tuning,
                                          int warmup, int reps, float *times_ms, gpu_msm_stats *stats,
                                          const gpu_bench_msm_io *io, cuzk_error *err) {
    GPU_ARG(n >= 1 && n < ((size_t)1 << 31) && reps >= 1 && times_ms, "gpu_bench_g1_msm01: bad args");
    GPU_ARG(io && io->generator, "gpu_bench_g1_msm01: no generator");
    return bench_run<api_g1>(n, 0, tuning, frac01, montgomery, warmup, reps, times_ms, stats, io, err);
}

extern "C" cuzk_status gpu_bench_g2_msm(size_t n, int window_bits, double frac01, bool montgomery, int warmup,
                                        int reps, float *times_ms, gpu_msm_stats *stats, const gpu_bench_msm_io *io,
                                        cuzk_error *err) {
    GPU_ARG(n >= 1 && n < ((size_t)1 << 31) && reps >= 1 && times_ms, "gpu_bench_g2_msm: bad args");
    GPU_ARG(window_bits <= 0 || (window_bits >= 2 && window_bits <= 20), "gpu_bench_g2_msm: bad window");
    GPU_ARG(io && io->generator, "gpu_bench_g2_msm: no generator");
    return bench_run<api_g2>(n, window_bits, NULL, frac01, montgomery, warmup, reps, times_ms, stats, io, err);
}
