/* The batch-affine pre-reduction of the GPU MSM's buckets (GPU_MSM_ACCUM_AFFINE, G1 only): the device
 * code, templates over the group G (src/cuda/curves.cuh), driven by affine_pass in src/cuda/gpu_msm.cu
 * and run on the CPU by tests/emul/test_msm_affine_emul.cpp (an emulation of CUDA's threads, blocks
 * and barriers) against direct bucket sums.
 *
 * The sorted pairs of a group of windows are summed pairwise in affine coordinates, level by
 * level, before the tasks accumulation sees them. Level l adds element 2j and 2j + 1 of every
 * bucket (the odd last one waits for the next level), so after L levels a bucket of m pairs has
 * ceil(m / 2^L) points left; the tasks path (msm_accumulate_kernel and the heavy-bucket kernels,
 * unchanged) then sums those from the level buffer instead of the bases.
 * An affine addition is lambda = num / den, x3 = lambda^2 - x1 - x2, y3 = lambda (x1 - x3) - y1,
 * with den = x2 - x1 (or 2 y1 when P1 = P2, num = 3 x1^2). The divisions of a level share one
 * inversion per block (Montgomery's trick): each thread takes K consecutive pairs, keeps the
 * running product of its denominators (pre, global memory), the block multiplies the threads'
 * products up a tree in shared memory, thread 0 inverts the root (Fermat), the tree hands each
 * thread the inverse of its product, and the thread walks its pairs backwards. Per addition: 4
 * products and a squaring (against 8 and 2 for the mixed XYZZ addition), plus the tree and
 * 1 / (K * AFF_BLOCK) of an inversion. Exceptional pairs (infinity on either side, P + P,
 * P + (-P)) get den = 1 in the product and their own result, so a batch never meets a zero.
 * Layout of a group (buckets i < nbg, group-local; m = the bucket's pairs):
 *   level 0 writes the sum of pairs 2j, 2j + 1 to abuf[aoff[i] + j] (aoff: scan of ceil(m / 2)),
 *   and msm_aff_odd_kernel copies an odd last pair to abuf[aoff[i] + ceil(m / 2) - 1];
 *   level l >= 1 works in place: element t of bucket i sits at abuf[aoff[i] + 2^(l-1) t], pair j
 *   adds elements 2j and 2j + 1 into the slot of 2j.
 * Pairs of a level are numbered by qoff (scan of floor(ceil(m / 2^l) / 2)). Sources: Montgomery
 * 1987 (simultaneous inversion); the affine bucket sums of gnark-crypto's batch-affine MSM, here
 * level-synchronous so that every batch is a full block. */
#ifndef CUZK_CUDA_MSM_AFFINE_CUH
#define CUZK_CUDA_MSM_AFFINE_CUH

#include <stddef.h>
#include <stdint.h>

namespace cuzk_dev {
namespace msm_aff {

/* the sign of a sorted pair's value (point index | SIGN_BIT: y negated), as src/cuda/gpu_msm.cu's
 * digits write it */
const uint32_t SIGN_BIT = 0x80000000u;
const unsigned AFF_BLOCK = 128; /* threads of a level block; the tree below is sized by it */

/* Pairs of level l in a group of gp sorted pairs over nbg buckets, at most: gp / 2, and at most
 * (gp / 2^l + nbg) / 2 (each bucket of m pairs has ceil(m / 2^l) <= m / 2^l + 1 elements left).
 * The level kernel's grid covers this many pairs (ceil(bound / (K * AFF_BLOCK)) blocks) and the
 * running products' buffer holds that many blocks' worth. */
__host__ __device__ inline size_t aff_level_pairs_bound(size_t gp, int l, size_t nbg) {
    size_t q = (gp >> l) / 2 + nbg / 2 + 1;
    return q < gp / 2 + 1 ? q : gp / 2 + 1;
}
/* Elements of the running-products buffer for a group of gp sorted pairs at K pairs a thread:
 * every level's grid (level 0's bound, gp / 2 + 1 pairs) in whole blocks of K * AFF_BLOCK. */
__host__ __device__ inline size_t aff_pre_elems(size_t gp, uint32_t K) {
    const size_t blk = (size_t)K * AFF_BLOCK;
    return (gp / 2 + 1 + blk - 1) / blk * blk;
}

/* slot in pre of a thread's k-th running product: k-major inside the block, so that the threads
 * of a warp write and read adjacent elements */
__device__ __forceinline__ size_t aff_pre_index(uint32_t K, uint32_t k) {
    return ((size_t)blockIdx.x * K + k) * AFF_BLOCK + threadIdx.x;
}

/* elements of a bucket of m pairs left after l levels: ceil(m / 2^l) */
__device__ __forceinline__ uint32_t aff_left(uint32_t m, int l) {
    return (uint32_t)(((uint64_t)m + ((uint64_t)1 << l) - 1) >> l);
}

/* cnt[i] = what of bucket i: 0 ceil(m / 2) (level-0 slots), 1 pairs of level l, 2 elements left
 * after l levels; cnt[nbg] = 0 (the scans run over nbg + 1) */
static __global__ void msm_aff_count_kernel(const uint32_t *__restrict__ bstart, const uint32_t *__restrict__ bend,
                                     uint32_t nbg, int what, int l, uint32_t *__restrict__ cnt) {
    uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i > nbg) return;
    if (i == nbg) { cnt[i] = 0; return; }
    const uint32_t m = bend[i] - bstart[i];
    cnt[i] = what == 0 ? (m + 1) / 2 : what == 1 ? aff_left(m, l) / 2 : aff_left(m, l);
}

/* the base of sorted pair v (sign applied) */
template <class G>
__device__ __forceinline__ typename G::affine aff_base(const typename G::affine *__restrict__ bases, uint32_t v) {
    typename G::affine q = bases[v & ~SIGN_BIT];
    if (v & SIGN_BIT) q.y = -q.y;
    return q;
}

template <class G>
__global__ void msm_aff_odd_kernel(const typename G::affine *__restrict__ bases, const uint32_t *__restrict__ vals,
                                   const uint32_t *__restrict__ bstart, const uint32_t *__restrict__ bend,
                                   const uint32_t *__restrict__ aoff, uint32_t nbg,
                                   typename G::affine *__restrict__ abuf) {
    uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= nbg) return;
    const uint32_t m = bend[i] - bstart[i];
    if (m & 1) abuf[aoff[i] + (m + 1) / 2 - 1] = aff_base<G>(bases, vals[bend[i] - 1]);
}

/* Pair p of level l (p in bucket i, j = p - qoff[i]): where its two points are and where the sum
 * goes. Level 0: sorted pairs bstart[i] + 2j, + 1 (bases[vals[.]]), sum to abuf[aoff[i] + j];
 * level l >= 1: abuf slots a = aoff[i] + 2^l j and a + 2^(l-1), sum to a. */
template <class G>
struct aff_pair {
    typedef typename G::affine affine_pt;
    typedef typename G::curve::fp fp_t;
    affine_pt p1, p2;
    uint32_t dst;
    /* 0: lambda = (y2 - y1) / (x2 - x1); 1: doubling, lambda = 3 x1^2 / (2 y1); 2: result infinity;
     * 3: result p1; 4: result p2 */
    int kind;
    __device__ __forceinline__ void load(const affine_pt *__restrict__ bases, const uint32_t *__restrict__ vals,
                                         const uint32_t *__restrict__ bstart, const uint32_t *__restrict__ aoff,
                                         const affine_pt *abuf, int l, uint32_t i, uint32_t j) {
        if (l == 0) {
            const uint32_t a = bstart[i] + 2 * j;
            p1 = aff_base<G>(bases, vals[a]);
            p2 = aff_base<G>(bases, vals[a + 1]);
            dst = aoff[i] + j;
        } else {
            const uint32_t s = 1u << (l - 1), a = aoff[i] + 2 * s * j;
            p1 = abuf[a];
            p2 = abuf[a + s];
            dst = a;
        }
        const bool i1 = p1.is_inf(), i2 = p2.is_inf();
        if (i1 || i2) kind = i1 ? 4 : 3;
        else if (p1.x != p2.x) kind = 0;
        else if (p1.y == p2.y && !p1.y.is_zero()) kind = 1;
        else kind = 2;
    }
    __device__ __forceinline__ fp_t den() const {
        return kind == 0 ? p2.x - p1.x : kind == 1 ? p1.y.dbl() : fp_t::one();
    }
    /* the sum, given inv = 1 / den() */
    __device__ __forceinline__ affine_pt sum(const fp_t &inv) const {
        affine_pt r;
        if (kind >= 2) {
            if (kind == 2) { r.x = fp_t::zero(); r.y = fp_t::zero(); }
            else r = kind == 3 ? p1 : p2;
            return r;
        }
        fp_t num;
        if (kind == 0) num = p2.y - p1.y;
        else { num = p1.x.sqr(); num = num + num.dbl(); }
        const fp_t lam = num * inv;
        r.x = lam.sqr() - p1.x - p2.x;
        r.y = lam * (p1.x - r.x) - p1.y;
        return r;
    }
};

template <class G>
__global__ void __launch_bounds__(AFF_BLOCK) msm_aff_level_kernel(
    const typename G::affine *__restrict__ bases, const uint32_t *__restrict__ vals,
    const uint32_t *__restrict__ bstart, const uint32_t *__restrict__ aoff, const uint32_t *__restrict__ qoff,
    uint32_t nbg, int l, uint32_t K, typename G::affine *abuf, typename G::curve::fp *__restrict__ pre) {
    typedef typename G::curve::fp fp_t;
    __shared__ __align__(16) unsigned char raw[2 * AFF_BLOCK * sizeof(fp_t)];
    fp_t *tree = reinterpret_cast<fp_t *>(raw); /* heap order: root 1, children of n at 2n, 2n + 1 */
    const uint32_t Q = qoff[nbg];
    const uint32_t first = blockIdx.x * AFF_BLOCK * K;
    if (first >= Q) return; /* the whole block: no barrier is skipped by part of it */
    const uint32_t p0 = first + threadIdx.x * K;
    uint32_t p1 = p0 + K;
    if (p1 > Q) p1 = Q;
    if (p1 < p0) p1 = p0;
    /* bucket of p0: the last i with qoff[i] <= p0 */
    uint32_t i = 0;
    if (p0 < Q) {
        uint32_t lo = 0, hi = nbg; /* qoff[lo] <= p0 < qoff[hi] */
        while (hi - lo > 1) {
            const uint32_t mid = lo + (hi - lo) / 2;
            if (qoff[mid] <= p0) lo = mid;
            else hi = mid;
        }
        i = lo;
    }
    /* forward: running products of the denominators */
    fp_t acc = fp_t::one();
    for (uint32_t p = p0, b = i; p < p1; p++) {
        while (qoff[b + 1] <= p) b++;
        aff_pair<G> pr;
        pr.load(bases, vals, bstart, aoff, abuf, l, b, p - qoff[b]);
        acc = acc * pr.den();
        pre[aff_pre_index(K, p - p0)] = acc;
    }
    tree[AFF_BLOCK + threadIdx.x] = acc;
    __syncthreads();
    for (unsigned h = AFF_BLOCK / 2; h >= 1; h >>= 1) {
        if (threadIdx.x < h) tree[h + threadIdx.x] = tree[2 * (h + threadIdx.x)] * tree[2 * (h + threadIdx.x) + 1];
        __syncthreads();
    }
    if (threadIdx.x == 0) tree[1] = fp_t::inv(tree[1]);
    __syncthreads();
    for (unsigned h = 1; h < AFF_BLOCK; h <<= 1) {
        if (threadIdx.x < h) {
            const unsigned n = h + threadIdx.x;
            const fp_t inv = tree[n], lft = tree[2 * n], rgt = tree[2 * n + 1];
            tree[2 * n] = inv * rgt;
            tree[2 * n + 1] = inv * lft;
        }
        __syncthreads();
    }
    fp_t inv = tree[AFF_BLOCK + threadIdx.x]; /* 1 / (product of this thread's denominators) */
    /* backward: 1 / den_p = inv * pre[p - 1], then inv *= den_p */
    if (p1 > p0) {
        uint32_t b = i;
        while (qoff[b + 1] <= p1 - 1) b++;
        for (uint32_t p = p1; p-- > p0;) {
            while (qoff[b] > p) b--;
            aff_pair<G> pr;
            pr.load(bases, vals, bstart, aoff, abuf, l, b, p - qoff[b]);
            const fp_t d = pr.den();
            const fp_t inv_d = p > p0 ? inv * pre[aff_pre_index(K, p - 1 - p0)] : inv;
            if (p > p0) inv = inv * d;
            abuf[pr.dst] = pr.sum(inv_d);
        }
    }
}

/* after L >= 1 levels: the elements left of bucket i become the pairs off2[i] .. bend2[i] of the
 * tasks path, vals2[off2[i] + t] = their abuf slots aoff[i] + 2^(L-1) t (signs already applied) */
static __global__ void msm_aff_compact_kernel(const uint32_t *__restrict__ bstart, const uint32_t *__restrict__ bend,
                                       const uint32_t *__restrict__ aoff, const uint32_t *__restrict__ off2,
                                       uint32_t nbg, int L, uint32_t *__restrict__ vals2,
                                       uint32_t *__restrict__ bend2) {
    uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= nbg) return;
    const uint32_t n = aff_left(bend[i] - bstart[i], L), o = off2[i], a = aoff[i], s = 1u << (L - 1);
    for (uint32_t t = 0; t < n; t++) vals2[o + t] = a + s * t;
    bend2[i] = o + n;
}

}  // namespace msm_aff
}  // namespace cuzk_dev

#endif
