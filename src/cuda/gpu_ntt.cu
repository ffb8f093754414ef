/* NTT over a curve's Fr on the GPU and the Groth16 H step (src/cuda/gpu.h: gpu_ntt,
 * gpu_h_bellperson_async, gpu_h_bellperson_roots_async, gpu_h_snarkjs_async, gpu_h,
 * gpu_h_bellperson_roots, gpu_h_cache_bytes, gpu_bench_ntt,
 * gpu_bench_h). The pass structure and the tables are described in src/cuda/ntt_internal.cuh.
 *
 * gpu_ntt (natural order in and out): one DIT transform with the bit-reversed gather in its first
 * pass; the coset shift^i is fused into the first pass (forward), (1/m) shift^-i into the last
 * (inverse).
 *
 * H, bellperson (src/poly/ntt.h h_bellperson; g = 7, roots 7^t), three transforms, no
 * bit-reversal pass:
 *   1. DIF with omega^-1 on a, b, c (natural evaluations -> bit-reversed coefficients), the last
 *      pass multiplying coefficient i (at position bitrev(i)) by g^i / m;
 *   2. DIT with omega on a, b, c (-> natural-order evaluations on the coset g*omega^j); the last
 *      pass of c computes a = (a*b - c) * (g^m - 1)^-1 instead of writing c;
 *   3. DIT with omega^-1 on a, gathered into b (first pass), in place on b, the last pass writing
 *      a with the scale g^-i / m.
 * H, snarkjs (h_snarkjs; g = omega_2m, roots 5^t):
 *   1. DIF with omega^-1 on c whose first pass loads a*b (C = A*B on the rows), then on a and b;
 *      last passes scale by g^i / m (bit-reversed positions);
 *   2. DIT with omega on a, b, c; the last pass of c computes a = a*b - c.
 * Roots: omega = root^(2^(s-log_m)), root a primitive 2^s-th root of unity (the curve's
 * fr_root_canon: 7^t or 5^t for BLS12-381, src/cuda/curve_*.cuh). Every kernel and host routine
 * is a template over the curve (src/cuda/curves.cuh); the C entry points use api_curve.
 */
#include <pthread.h>
#include <stdlib.h>

#include "cuda/curves.cuh"
#include "cuda/gpu_h_parked.h"
#include "cuda/util.cuh"
#include "cuda/ntt_internal.cuh"

using namespace cuzk_dev;

namespace {

const int TAB_LOG = 10;         /* scale tables: lo has 2^10 entries, hi the rest */
const int FIRST_PASS_MAX = 11;  /* stages in the first (contiguous) pass */
const int PASS_MAX = 9;         /* stages in a later pass */
const int PASS_T = 2;           /* later passes: 2^2 neighbouring groups per tile */
const int PASS_THREADS = 256;
const int MAX_PASSES = 4;       /* log_m <= 28: 11 + 9 + 8 */

/* Table kinds: the roots (0 = 7^t, 1 = 5^t: gpu_roots) and the H coset shift of each. Kind 2
 * (TABLES_SNARKJS_ROOTS_G7) is the bellperson H (g = 7) on snarkjs's roots, for the MPC
 * parameters `snarkjs zkey export bellman` writes (gpu_h_bellperson_roots_async). */
const int TABLES_SNARKJS_ROOTS_G7 = 2;

/* consts (NTT_C_*) for (table kind, log_m) */
template <class C>
__global__ void ntt_consts_kernel(typename C::fr *c, int roots, int log_m) {
    CUZK_CURVE_TYPES(C);
    if (threadIdx.x != 0 || blockIdx.x != 0) return;
    fr_t root;
    const int root_kind = roots == TABLES_SNARKJS_ROOTS_G7 ? 1 : roots;
    for (int i = 0; i < fr_t::N; i++) root.l[i] = C::fr_root_canon(root_kind, i);
    root = fr_t::from_canon(root);
    fr_t w = root;
    for (int i = log_m; i < C::FR_TWO_ADICITY; i++) w = w.sqr();
    fr_t g;
    if (roots == 1) { /* omega_2m */
        g = root;
        for (int i = log_m + 1; i < C::FR_TWO_ADICITY; i++) g = g.sqr();
    } else {
        g = fr_t::from_u32(C::fr_coset_gen_bellperson);
    }
    fr_t gm = g;
    for (int i = 0; i < log_m; i++) gm = gm.sqr();
    c[NTT_C_OMEGA] = w;
    c[NTT_C_OMEGA_INV] = fr_t::inv(w);
    c[NTT_C_M_INV] = fr_t::inv(fr_t::from_u32(1u << log_m));
    c[NTT_C_G] = g;
    c[NTT_C_G_INV] = fr_t::inv(g);
    c[NTT_C_ZINV] = fr_t::inv(gm - fr_t::one());
    c[NTT_C_ONE] = fr_t::one();
}

template <class F>
__device__ __forceinline__ F fr_pow_small(const F &b, uint32_t e) {
    F r = F::one();
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
template <class C>
__global__ void ntt_pow_tables_kernel(typename C::fr *lo, typename C::fr *hi, uint32_t n_hi, const typename C::fr *base_p,
                                      const typename C::fr *pref_p) {
    CUZK_CURVE_TYPES(C);
    uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    fr_t base = *base_p;
    if (i < (1u << TAB_LOG)) lo[i] = fr_pow_small(base, i);
    if (i < n_hi) {
        fr_t b2 = base;
        for (int k = 0; k < TAB_LOG; k++) b2 = b2.sqr();
        hi[i] = *pref_p * fr_pow_small(b2, i);
    }
}

template <class C>
__global__ void ntt_twiddles_kernel(typename C::fr *tw, size_t half, const typename C::fr *lo, const typename C::fr *hi) {
    CUZK_CURVE_TYPES(C);
    size_t j = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (j >= half) return;
    tw[j] = lo[j & ((1u << TAB_LOG) - 1)] * hi[j >> TAB_LOG];
}

/* per-call scale tables of gpu_ntt: consts[0] = base (shift or shift^-1), consts[1] = prefactor
 * (1 or 1/m) */
template <class C>
__global__ void ntt_shift_consts_kernel(typename C::fr *c, const typename C::fr *shift, int log_m, int inverse) {
    CUZK_CURVE_TYPES(C);
    if (threadIdx.x != 0 || blockIdx.x != 0) return;
    fr_t base = shift ? *shift : fr_t::one();
    fr_t pref = fr_t::one();
    if (inverse) {
        if (shift) base = fr_t::inv(base);
        pref = fr_t::inv(fr_t::from_u32(1u << log_m));
    }
    c[0] = base;
    c[1] = pref;
}

template <class C>
struct ntt_pass_args {
    CUZK_CURVE_TYPES(C);
    const fr_t *src[3];
    fr_t *dst[3];
    const fr_t *tw;
    const fr_t *mul_a, *mul_b;
    const fr_t *pre_lo, *pre_hi;
    const fr_t *post_lo, *post_hi;
    fr_t *pw_a;
    const fr_t *pw_b, *pw_scale;
    int log_m, s0, k, t;
    int inverse, gather, post_brev;
};

/* read-only (non-coherent cache) load of one table element */
template <class F>
__device__ __forceinline__ F ld_tab(const F *p) {
    const uint4 *q = (const uint4 *)p;
    const uint4 x = __ldg(q), y = __ldg(q + 1);
    F r;
    r.l[0] = x.x; r.l[1] = x.y; r.l[2] = x.z; r.l[3] = x.w;
    r.l[4] = y.x; r.l[5] = y.y; r.l[6] = y.z; r.l[7] = y.w;
    return r;
}

/* Shared memory: two planes of 16-byte words (plane 0: limbs 0..3 of every element, plane 1:
 * limbs 4..7), so consecutive elements are consecutive 16-byte words: 128-bit accesses, no bank
 * conflicts for consecutive q. */
template <class F>
__device__ __forceinline__ void sh_put(uint4 *sh, uint32_t T, uint32_t q, const F &x) {
    sh[q] = make_uint4(x.l[0], x.l[1], x.l[2], x.l[3]);
    sh[T + q] = make_uint4(x.l[4], x.l[5], x.l[6], x.l[7]);
}
template <class F>
__device__ __forceinline__ F sh_get(const uint4 *sh, uint32_t T, uint32_t q) {
    const uint4 a = sh[q], b = sh[T + q];
    F x;
    x.l[0] = a.x; x.l[1] = a.y; x.l[2] = a.z; x.l[3] = a.w;
    x.l[4] = b.x; x.l[5] = b.y; x.l[6] = b.z; x.l[7] = b.w;
    return x;
}

/* radix-2 butterflies with twiddle omega^J (inverse: omega^-J = -omega^(m/2 - J)); J = 0 skips
 * the product */
template <class F>
__device__ __forceinline__ void bf_dit(F &u, F &v, size_t J, int inverse, const F *tw, size_t half) {
    if (J) {
        v = v * ld_tab(tw + (inverse ? half - J : J));
        if (inverse) {
            const F a = u - v;
            v = u + v;
            u = a;
            return;
        }
    }
    const F a = u + v;
    v = u - v;
    u = a;
}
template <class F>
__device__ __forceinline__ void bf_dif(F &u, F &v, size_t J, int inverse, const F *tw, size_t half) {
    const F a = u + v;
    F d = (inverse && J) ? v - u : u - v;
    if (J) d = d * ld_tab(tw + (inverse ? half - J : J));
    u = a;
    v = d;
}

/* One pass: stages s0 .. s0+k-1 (ascending for DIT, descending for DIF) on tiles of 2^(k+t)
 * elements. Tile element q = (e << t) | g sits at global index
 *   (hi << (s0 + k)) | (e << s0) | (lo_tile << t) | g,
 * with blockIdx.x = (hi << (s0 - t)) | lo_tile; blockIdx.y = vector. Stages go two at a time
 * (radix-4: each thread loads 4 elements, runs both stages in registers, stores them; DIT pairs
 * (0,1), (2,3), ..., a single last stage when k is odd; DIF pairs from the top, single stage 0).
 * Dynamic shared memory: 32 T bytes. */
template <class C, bool DIF>
__global__ void __launch_bounds__(PASS_THREADS) ntt_pass_kernel(const ntt_pass_args<C> p) {
    CUZK_CURVE_TYPES(C);
    static_assert(fr_t::N == 8, "the shared-memory layout holds 8-word elements");
    extern __shared__ uint4 sh[];
    const uint32_t T = 1u << (p.k + p.t);
    const int v = blockIdx.y;
    const int L = p.log_m;
    const int lo_bits = p.s0 - p.t;
    const size_t b = blockIdx.x;
    const size_t lo_tile = b & (((size_t)1 << lo_bits) - 1);
    const size_t base = ((b >> lo_bits) << (p.s0 + p.k)) | (lo_tile << p.t);
    const uint32_t gmask = (1u << p.t) - 1;
    const size_t half = (size_t)1 << (L - 1);
    const fr_t *tw = p.tw;

    const fr_t *__restrict__ src = p.src[v];
    for (uint32_t q = threadIdx.x; q < T; q += blockDim.x) {
        const size_t idx = base | ((size_t)(q >> p.t) << p.s0) | (q & gmask);
        const size_t si = p.gather ? (size_t)(__brevll((unsigned long long)idx) >> (64 - L)) : idx;
        fr_t x = p.mul_a ? p.mul_a[si] * p.mul_b[si] : src[si];
        if (p.pre_lo) x = x * (ld_tab(p.pre_lo + (si & ((1u << TAB_LOG) - 1))) * ld_tab(p.pre_hi + (si >> TAB_LOG)));
        sh_put(sh, T, q, x);
    }
    __syncthreads();

    const size_t lo_part = lo_tile << p.t;
    for (int rr = 0; rr < p.k;) {
        if (rr + 1 < p.k) { /* stages r, r+1 */
            const int r = DIF ? p.k - 2 - rr : rr;
            const int s = p.s0 + r;
            const uint32_t rmask = (1u << r) - 1;
            const uint32_t hq = 1u << (r + p.t);
            for (uint32_t gam = threadIdx.x; gam < (T >> 2); gam += blockDim.x) {
                const uint32_t g = gam & gmask;
                const uint32_t cc = gam >> p.t;
                const uint32_t ea = ((cc >> r) << (r + 2)) | (cc & rmask);
                const uint32_t qa = (ea << p.t) | g;
                const size_t jlo = ((size_t)(ea & rmask) << p.s0) | lo_part | g;
                const size_t J1 = jlo << (L - 1 - s);
                const size_t J2a = jlo << (L - 2 - s);
                const size_t J2b = (jlo + ((size_t)1 << (r + p.s0))) << (L - 2 - s);
                fr_t x0 = sh_get<fr_t>(sh, T, qa), x1 = sh_get<fr_t>(sh, T, qa + hq);
                fr_t x2 = sh_get<fr_t>(sh, T, qa + 2 * hq), x3 = sh_get<fr_t>(sh, T, qa + 3 * hq);
                if (!DIF) {
                    bf_dit(x0, x1, J1, p.inverse, tw, half);
                    bf_dit(x2, x3, J1, p.inverse, tw, half);
                    bf_dit(x0, x2, J2a, p.inverse, tw, half);
                    bf_dit(x1, x3, J2b, p.inverse, tw, half);
                } else {
                    bf_dif(x0, x2, J2a, p.inverse, tw, half);
                    bf_dif(x1, x3, J2b, p.inverse, tw, half);
                    bf_dif(x0, x1, J1, p.inverse, tw, half);
                    bf_dif(x2, x3, J1, p.inverse, tw, half);
                }
                sh_put(sh, T, qa, x0);
                sh_put(sh, T, qa + hq, x1);
                sh_put(sh, T, qa + 2 * hq, x2);
                sh_put(sh, T, qa + 3 * hq, x3);
            }
            rr += 2;
        } else { /* one stage r */
            const int r = DIF ? p.k - 1 - rr : rr;
            const int s = p.s0 + r;
            const uint32_t rmask = (1u << r) - 1;
            for (uint32_t beta = threadIdx.x; beta < (T >> 1); beta += blockDim.x) {
                const uint32_t g = beta & gmask;
                const uint32_t bb = beta >> p.t;
                const uint32_t e0 = ((bb >> r) << (r + 1)) | (bb & rmask);
                const uint32_t q0 = (e0 << p.t) | g, q1 = q0 + (1u << (r + p.t));
                const size_t J = (((size_t)(e0 & rmask) << p.s0) | lo_part | g) << (L - 1 - s);
                fr_t u = sh_get<fr_t>(sh, T, q0), w = sh_get<fr_t>(sh, T, q1);
                if (!DIF) bf_dit(u, w, J, p.inverse, tw, half);
                else bf_dif(u, w, J, p.inverse, tw, half);
                sh_put(sh, T, q0, u);
                sh_put(sh, T, q1, w);
            }
            rr += 1;
        }
        __syncthreads();
    }

    fr_t *__restrict__ dst = p.dst[v];
    for (uint32_t q = threadIdx.x; q < T; q += blockDim.x) {
        const size_t idx = base | ((size_t)(q >> p.t) << p.s0) | (q & gmask);
        fr_t x = sh_get<fr_t>(sh, T, q);
        if (p.post_lo) {
            const size_t i = p.post_brev ? (size_t)(__brevll((unsigned long long)idx) >> (64 - L)) : idx;
            x = x * (ld_tab(p.post_lo + (i & ((1u << TAB_LOG) - 1))) * ld_tab(p.post_hi + (i >> TAB_LOG)));
        }
        if (p.pw_a) {
            fr_t y = (p.pw_b ? p.pw_a[idx] * p.pw_b[idx] : p.pw_a[idx]) - x; /* pw_b NULL: 1 */
            if (p.pw_scale) y = y * *p.pw_scale;
            p.pw_a[idx] = y;
        } else {
            dst[idx] = x;
        }
    }
}

struct pass_desc {
    int s0, k, t;
};

/* stage groups, in DIT order */
int plan_passes(int log_m, pass_desc *ps) {
    int n = 0;
    const int k0 = log_m < FIRST_PASS_MAX ? log_m : FIRST_PASS_MAX;
    ps[n++] = {0, k0, 0};
    const int rest = log_m - k0;
    if (rest > 0) {
        const int np = (rest + PASS_MAX - 1) / PASS_MAX;
        int s = k0;
        for (int i = 0; i < np; i++) {
            const int k = rest / np + (i < rest % np ? 1 : 0);
            ps[n++] = {s, k, PASS_T};
            s += k;
        }
    }
    return n;
}

inline unsigned nblocks(size_t n, unsigned bs) { return (unsigned)((n + bs - 1) / bs); }

template <class C>
cuzk_status launch_pass(bool dif, const ntt_pass_args<C> &a, unsigned nvec, cudaStream_t stream,
                        cuzk_error *err) {
    cuzk_status st = CUZK_OK;
    const uint32_t T = 1u << (a.k + a.t);
    const size_t smem = (size_t)T * sizeof(typename C::fr);
    /* radix-4 rounds have T/4 quads (every loop of the kernel strides by blockDim.x) */
    const unsigned threads = T / 4 == 0 ? 1 : T / 4 < (uint32_t)PASS_THREADS ? T / 4 : PASS_THREADS;
    const dim3 grid((unsigned)(((size_t)1 << a.log_m) >> (a.k + a.t)), nvec);
    /* always the largest tile's size: idempotent, so concurrent callers cannot lower it under
     * each other's launches */
    const int smem_max = (int)(sizeof(typename C::fr) << (PASS_MAX + PASS_T > FIRST_PASS_MAX ? PASS_MAX + PASS_T : FIRST_PASS_MAX));
    if (dif) {
        CU(cudaFuncSetAttribute(ntt_pass_kernel<C, true>, cudaFuncAttributeMaxDynamicSharedMemorySize, smem_max));
        ntt_pass_kernel<C, true><<<grid, threads, smem, stream>>>(a);
    } else {
        CU(cudaFuncSetAttribute(ntt_pass_kernel<C, false>, cudaFuncAttributeMaxDynamicSharedMemorySize, smem_max));
        ntt_pass_kernel<C, false><<<grid, threads, smem, stream>>>(a);
    }
    CU_LAUNCH("ntt_pass_kernel");
out:
    return st;
}

/* ---- table cache -------------------------------------------------------------------------- */
pthread_mutex_t g_cache_lock = PTHREAD_MUTEX_INITIALIZER;
/* one list per curve */
template <class C>
ntt_tables<C> *&cache_head() {
    static ntt_tables<C> *head = NULL;
    return head;
}

template <class C>
cuzk_status tables_build(ntt_tables<C> *t, cuzk_error *err) {
    CUZK_CURVE_TYPES(C);
    cuzk_status st = CUZK_OK;
    const size_t m = (size_t)1 << t->log_m;
    const size_t half = m / 2 ? m / 2 : 1;
    const size_t lo_n = (size_t)1 << TAB_LOG;
    const uint32_t n_hi_tw = (uint32_t)((half + lo_n - 1) >> TAB_LOG);
    const unsigned pow_threads = (unsigned)(lo_n > t->n_hi ? lo_n : t->n_hi);
    cudaStream_t s = NULL;
    fr_t *d_tmp = NULL; /* omega lo / hi power tables */
    CU(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    CU(cudaMalloc(&t->d_tw, half * sizeof(fr_t)));
    CU(cudaMalloc(&t->d_consts, NTT_C_COUNT * sizeof(fr_t)));
    CU(cudaMalloc(&t->d_hscale, 2 * (lo_n + t->n_hi) * sizeof(fr_t)));
    CU(cudaMalloc(&d_tmp, (lo_n + n_hi_tw) * sizeof(fr_t)));
    t->bytes = (half + NTT_C_COUNT + 2 * (lo_n + t->n_hi)) * sizeof(fr_t);
    ntt_consts_kernel<C><<<1, 1, 0, s>>>(t->d_consts, t->roots, t->log_m);
    CU_LAUNCH("ntt_consts_kernel");
    ntt_pow_tables_kernel<C><<<nblocks(lo_n > n_hi_tw ? lo_n : n_hi_tw, 256), 256, 0, s>>>(
        d_tmp, d_tmp + lo_n, n_hi_tw, t->d_consts + NTT_C_OMEGA, t->d_consts + NTT_C_ONE);
    CU_LAUNCH("ntt_pow_tables_kernel(omega)");
    ntt_twiddles_kernel<C><<<nblocks(half, 256), 256, 0, s>>>(t->d_tw, half, d_tmp, d_tmp + lo_n);
    CU_LAUNCH("ntt_twiddles_kernel");
    ntt_pow_tables_kernel<C><<<nblocks(pow_threads, 256), 256, 0, s>>>(
        t->d_hscale, t->d_hscale + lo_n, t->n_hi, t->d_consts + NTT_C_G, t->d_consts + NTT_C_M_INV);
    CU_LAUNCH("ntt_pow_tables_kernel(g)");
    ntt_pow_tables_kernel<C><<<nblocks(pow_threads, 256), 256, 0, s>>>(
        t->d_hscale + lo_n + t->n_hi, t->d_hscale + 2 * lo_n + t->n_hi, t->n_hi,
        t->d_consts + NTT_C_G_INV, t->d_consts + NTT_C_M_INV);
    CU_LAUNCH("ntt_pow_tables_kernel(g^-1)");
    CU(cudaStreamSynchronize(s));
out:
    if (s) cudaStreamDestroy(s);
    cudaFree(d_tmp);
    return st;
}

}  // namespace

template <class C>
cuzk_status ntt_tables_get(const ntt_tables<C> **out, int roots, int log_m, cuzk_error *err) {
    cuzk_status st = CUZK_OK;
    int dev = 0;
    ntt_tables<C> *t;
    *out = NULL;
    CU(cudaGetDevice(&dev));
    pthread_mutex_lock(&g_cache_lock);
    for (t = cache_head<C>(); t; t = t->next)
        if (t->dev == dev && t->roots == roots && t->log_m == log_m) break;
    if (!t) {
        t = (ntt_tables<C> *)calloc(1, sizeof *t);
        if (!t) {
            pthread_mutex_unlock(&g_cache_lock);
            if (err) {
                memset(err, 0, sizeof *err);
                err->code = CUZK_ERR_NOMEM;
                snprintf(err->msg, sizeof err->msg, "ntt_tables_get: host allocation");
            }
            return CUZK_ERR_NOMEM;
        }
        t->dev = dev;
        t->roots = roots;
        t->log_m = log_m;
        t->n_hi = (uint32_t)((((size_t)1 << log_m) >> TAB_LOG) ? (((size_t)1 << log_m) >> TAB_LOG) : 1);
        st = tables_build<C>(t, err);
        if (st != CUZK_OK) {
            cudaFree(t->d_tw);
            cudaFree(t->d_consts);
            cudaFree(t->d_hscale);
            free(t);
            pthread_mutex_unlock(&g_cache_lock);
            return st;
        }
        t->next = cache_head<C>();
        cache_head<C>() = t;
    }
    pthread_mutex_unlock(&g_cache_lock);
    *out = t;
out:
    return st;
}

template <class C>
cuzk_status ntt_execute(const ntt_tables<C> *tb, const ntt_job<C> *job, int dif, int inverse,
                        cudaStream_t stream, cuzk_error *err) {
    cuzk_status st = CUZK_OK;
    pass_desc ps[MAX_PASSES];
    const int np = plan_passes(tb->log_m, ps);
    for (int x = 0; x < np; x++) {
        const pass_desc &pd = ps[dif ? np - 1 - x : x];
        const bool first = x == 0, last = x == np - 1;
        ntt_pass_args<C> a;
        memset(&a, 0, sizeof a);
        a.tw = tb->d_tw;
        a.log_m = tb->log_m;
        a.s0 = pd.s0;
        a.k = pd.k;
        a.t = pd.t;
        a.inverse = inverse;
        for (int v = 0; v < job->nvec; v++) {
            a.src[v] = first ? job->in[v] : job->work[v];
            a.dst[v] = last ? job->out[v] : job->work[v];
        }
        if (first) {
            a.gather = job->gather;
            a.mul_a = job->mul_a;
            a.mul_b = job->mul_b;
            a.pre_lo = job->pre_lo;
            a.pre_hi = job->pre_hi;
        }
        if (last) {
            a.post_lo = job->post_lo;
            a.post_hi = job->post_hi;
            a.post_brev = job->post_brev;
        }
        if (last && job->pw_a) {
            if (job->nvec > 1) {
                st = launch_pass<C>(dif, a, (unsigned)job->nvec - 1, stream, err);
                if (st != CUZK_OK) return st;
            }
            const int lv = job->nvec - 1;
            a.src[0] = a.src[lv];
            a.dst[0] = a.dst[lv];
            a.pw_a = job->pw_a;
            a.pw_b = job->pw_b;
            a.pw_scale = job->pw_scale;
            st = launch_pass<C>(dif, a, 1, stream, err);
        } else {
            st = launch_pass<C>(dif, a, (unsigned)job->nvec, stream, err);
        }
        if (st != CUZK_OK) return st;
    }
    return st;
}

namespace {

/* gpu_ntt on device arrays: d_x (batch vectors, read, clobbered only when d_x == d_y) -> d_y.
 * d_sc: scratch of 2 + 1024 + n_hi elements (the shift tables), or NULL when no scaling is
 * needed (forward without shift). */
template <class C>
cuzk_status ntt_device(typename C::fr *d_y, const typename C::fr *d_x, size_t batch, int log_m, int inverse,
                       int roots, const typename C::fr *d_shift, typename C::fr *d_sc, cudaStream_t s,
                       cuzk_error *err) {
    cuzk_status st = CUZK_OK;
    const ntt_tables<C> *tb = NULL;
    const size_t m = (size_t)1 << log_m;
    const size_t lo_n = (size_t)1 << TAB_LOG;
    const uint32_t n_hi = (uint32_t)((m >> TAB_LOG) ? (m >> TAB_LOG) : 1);
    st = ntt_tables_get<C>(&tb, roots, log_m, err);
    if (st != CUZK_OK) return st;
    if (d_sc) {
        ntt_shift_consts_kernel<C><<<1, 1, 0, s>>>(d_sc, d_shift, log_m, inverse);
        CU_LAUNCH("ntt_shift_consts_kernel");
        ntt_pow_tables_kernel<C><<<nblocks(lo_n > n_hi ? lo_n : n_hi, 256), 256, 0, s>>>(
            d_sc + 2, d_sc + 2 + lo_n, n_hi, d_sc, d_sc + 1);
        CU_LAUNCH("ntt_pow_tables_kernel(shift)");
    }
    for (size_t v0 = 0; v0 < batch; v0 += 3) {
        ntt_job<C> j;
        memset(&j, 0, sizeof j);
        j.nvec = (int)(batch - v0 < 3 ? batch - v0 : 3);
        for (int v = 0; v < j.nvec; v++) {
            j.in[v] = d_x + (v0 + v) * m;
            j.work[v] = j.out[v] = d_y + (v0 + v) * m;
        }
        j.gather = 1;
        if (d_sc && !inverse) {
            j.pre_lo = d_sc + 2;
            j.pre_hi = d_sc + 2 + lo_n;
        }
        if (d_sc && inverse) {
            j.post_lo = d_sc + 2;
            j.post_hi = d_sc + 2 + lo_n;
        }
        st = ntt_execute<C>(tb, &j, 0, inverse, s, err);
        if (st != CUZK_OK) return st;
    }
out:
    return st;
}

bool fr_ptrs_ok(const void *a, const void *b, const void *c, size_t bytes) {
    const char *p[3] = {(const char *)a, (const char *)b, (const char *)c};
    for (int i = 0; i < 3; i++) {
        if (!p[i]) return false;
        for (int k = 0; k < i; k++)
            if (p[i] < p[k] + bytes && p[k] < p[i] + bytes) return false;
    }
    return true;
}

/* H of the convention `snarkjs` (1: h_snarkjs; 0: h_bellperson) over the table kind `tables`
 * (0 with snarkjs = 0, 1 with snarkjs = 1, or TABLES_SNARKJS_ROOTS_G7 with snarkjs = 0) */
/* The H step's tables (h_async, h_parked_async): the NTT tables of one domain and its coset scale
 * rows (g^i/m forward, g^-i/m inverse, each as a low and a high table). */
template <class C>
struct h_tabs {
    const ntt_tables<C> *tb;
    const typename C::fr *fwd_lo, *fwd_hi, *inv_lo, *inv_hi;
};
template <class C>
cuzk_status h_tabs_get(h_tabs<C> *t, int tables, int log_m, cuzk_error *err) {
    const size_t lo_n = (size_t)1 << TAB_LOG;
    cuzk_status st = ntt_tables_get<C>(&t->tb, tables, log_m, err);
    if (st != CUZK_OK) return st;
    t->fwd_lo = t->tb->d_hscale;
    t->fwd_hi = t->tb->d_hscale + lo_n;
    t->inv_lo = t->tb->d_hscale + lo_n + t->tb->n_hi;
    t->inv_hi = t->tb->d_hscale + 2 * lo_n + t->tb->n_hi;
    return CUZK_OK;
}
/* a job over nvec vectors transformed in place */
template <class C>
void h_job_in_place(ntt_job<C> *j, int nvec, typename C::fr *v0, typename C::fr *v1, typename C::fr *v2) {
    typename C::fr *v[3] = {v0, v1, v2};
    memset(j, 0, sizeof *j);
    j->nvec = nvec;
    for (int i = 0; i < nvec; i++) j->in[i] = j->work[i] = j->out[i] = v[i];
}
/* iNTT of the job's vectors, then times g^i/m: the bit-reversed coefficients of the coset step */
template <class C>
cuzk_status h_to_coset_coeffs(const h_tabs<C> *t, ntt_job<C> *j, cudaStream_t s, cuzk_error *err) {
    j->post_lo = t->fwd_lo;
    j->post_hi = t->fwd_hi;
    j->post_brev = 1;
    cuzk_status st = ntt_execute<C>(t->tb, j, 1, 1, s, err);
    j->post_lo = j->post_hi = NULL;
    j->post_brev = 0;
    return st;
}
/* the last step of the bellperson H: coset iNTT of a (gather a -> b, passes on b, the last pass
 * -> a with g^-i/m): a becomes the coefficients of H; b is clobbered */
template <class C>
cuzk_status h_coset_inverse(const h_tabs<C> *t, typename C::fr *a, typename C::fr *b, cudaStream_t s, cuzk_error *err) {
    ntt_job<C> j;
    memset(&j, 0, sizeof j);
    j.nvec = 1;
    j.in[0] = a;
    j.work[0] = b;
    j.out[0] = a;
    j.gather = 1;
    j.post_lo = t->inv_lo;
    j.post_hi = t->inv_hi;
    return ntt_execute<C>(t->tb, &j, 0, 1, s, err);
}

template <class C>
cuzk_status h_async(cudaStream_t s, typename C::fr *a, typename C::fr *b, typename C::fr *c, int log_m, int snarkjs,
                    int tables, cuzk_error *err) {
    h_tabs<C> t;
    cuzk_status st = h_tabs_get<C>(&t, tables, log_m, err);
    if (st != CUZK_OK) return st;
    ntt_job<C> j;
    if (snarkjs) {
        /* 1. c = iNTT(a*b) then a, b: bit-reversed coefficients times g^i/m */
        h_job_in_place<C>(&j, 1, c, NULL, NULL);
        j.mul_a = a;
        j.mul_b = b;
        if ((st = h_to_coset_coeffs<C>(&t, &j, s, err)) != CUZK_OK) return st;
        h_job_in_place<C>(&j, 2, a, b, NULL);
        if ((st = h_to_coset_coeffs<C>(&t, &j, s, err)) != CUZK_OK) return st;
        /* 2. coset evaluations, natural order; a = a*b - c */
        h_job_in_place<C>(&j, 3, a, b, c);
        j.pw_a = a;
        j.pw_b = b;
        return ntt_execute<C>(t.tb, &j, 0, 0, s, err);
    }
    /* 1. iNTT(a, b, c): bit-reversed coefficients times g^i/m */
    h_job_in_place<C>(&j, 3, a, b, c);
    if ((st = h_to_coset_coeffs<C>(&t, &j, s, err)) != CUZK_OK) return st;
    /* 2. coset evaluations, natural order; a = (a*b - c) / Z(g) */
    j.pw_a = a;
    j.pw_b = b;
    j.pw_scale = t.tb->d_consts + NTT_C_ZINV;
    if ((st = ntt_execute<C>(t.tb, &j, 0, 0, s, err)) != CUZK_OK) return st;
    /* 3. coset iNTT of a */
    return h_coset_inverse<C>(&t, a, b, s, err);
}

/* a[i] *= b[i] */
template <class C>
__global__ void fr_mul_inplace_kernel(typename C::fr *a, const typename C::fr *b, size_t n) {
    CUZK_CURVE_TYPES(C);
    const size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) a[i] = a[i] * b[i];
}

/* The lean H (gpu_h_parked.h): h_async's bellperson steps on two device vectors, c from host. */
template <class C>
cuzk_status h_parked_async(cudaStream_t s, typename C::fr *a, typename C::fr *b, const typename C::fr *h_c, int log_m,
                           int tables, cuzk_error *err) {
    CUZK_CURVE_TYPES(C);
    cuzk_status st = CUZK_OK;
    const size_t m = (size_t)1 << log_m;
    h_tabs<C> t;
    if ((st = h_tabs_get<C>(&t, tables, log_m, err)) != CUZK_OK) return st;
    ntt_job<C> j;
    /* 1. iNTT(a, b): bit-reversed coefficients times g^i/m; 2. coset evaluations, natural order */
    h_job_in_place<C>(&j, 2, a, b, NULL);
    if ((st = h_to_coset_coeffs<C>(&t, &j, s, err)) != CUZK_OK) return st;
    if ((st = ntt_execute<C>(t.tb, &j, 0, 0, s, err)) != CUZK_OK) return st;
    /* a = a * b; c into b's place */
    fr_mul_inplace_kernel<C><<<(unsigned)((m + 255) / 256), 256, 0, s>>>(a, b, m);
    CU_LAUNCH("fr_mul_inplace_kernel");
    CU(cudaMemcpyAsync(b, h_c, m * sizeof(fr_t), cudaMemcpyHostToDevice, s));
    /* 3. iNTT(c), then its coset evaluations: the last pass computes a = (a - c) / Z(g) */
    h_job_in_place<C>(&j, 1, b, NULL, NULL);
    if ((st = h_to_coset_coeffs<C>(&t, &j, s, err)) != CUZK_OK) return st;
    j.pw_a = a;
    j.pw_b = NULL;
    j.pw_scale = t.tb->d_consts + NTT_C_ZINV;
    if ((st = ntt_execute<C>(t.tb, &j, 0, 0, s, err)) != CUZK_OK) return st;
    /* 4. coset iNTT of a */
    return h_coset_inverse<C>(&t, a, b, s, err);
out:
    return st;
}

}  // namespace

namespace {
/* gpu_ntt for the curve C on host arrays (the data and shift bytes are C's Fr) */
template <class C>
cuzk_status ntt_host(void *data, size_t batch, int log_m, gpu_ntt_dir dir, gpu_roots roots, const void *shift,
                     cuzk_error *err) {
    GPU_ARG(log_m >= 1 && log_m <= (C::FR_TWO_ADICITY < 28 ? C::FR_TWO_ADICITY : 28), "gpu_ntt: log_m out of range");
    GPU_ARG(dir == GPU_NTT_FORWARD || dir == GPU_NTT_INVERSE, "gpu_ntt: bad direction");
    GPU_ARG(roots == GPU_ROOTS_BELLPERSON || roots == GPU_ROOTS_SNARKJS, "gpu_ntt: bad roots");
    if (batch == 0) return CUZK_OK;
    GPU_ARG(data, "gpu_ntt: data is NULL");
    cuzk_status st = CUZK_OK;
    const int inverse = dir == GPU_NTT_INVERSE;
    const size_t m = (size_t)1 << log_m;
    const size_t bytes = batch * m * sizeof(typename C::fr);
    const size_t sc_n = 2 + ((size_t)1 << TAB_LOG) + ((m >> TAB_LOG) ? (m >> TAB_LOG) : 1);
    const bool scaled = inverse || shift;
    cudaStream_t s = NULL;
    typename C::fr *d_x = NULL, *d_y = NULL, *d_sc = NULL, *d_shift = NULL;
    CU(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    CU(cudaMallocAsync((void **)&d_x, bytes, s));
    CU(cudaMallocAsync((void **)&d_y, bytes, s));
    if (scaled) CU(cudaMallocAsync((void **)&d_sc, sc_n * sizeof(typename C::fr), s));
    if (shift) {
        CU(cudaMallocAsync((void **)&d_shift, sizeof(typename C::fr), s));
        CU(cudaMemcpyAsync(d_shift, shift, sizeof(typename C::fr), cudaMemcpyHostToDevice, s));
    }
    CU(cudaMemcpyAsync(d_x, data, bytes, cudaMemcpyHostToDevice, s));
    st = ntt_device<C>(d_y, d_x, batch, log_m, inverse, (int)roots, d_shift, d_sc, s, err);
    if (st != CUZK_OK) goto out;
    CU(cudaMemcpyAsync(data, d_y, bytes, cudaMemcpyDeviceToHost, s));
    CU(cudaStreamSynchronize(s));
out:
    if (s) {
        if (d_x) cudaFreeAsync(d_x, s);
        if (d_y) cudaFreeAsync(d_y, s);
        if (d_sc) cudaFreeAsync(d_sc, s);
        if (d_shift) cudaFreeAsync(d_shift, s);
        cudaStreamSynchronize(s);
        cudaStreamDestroy(s);
    }
    return st;
}
}  // namespace

extern "C" cuzk_status gpu_ntt(struct fr *data, size_t batch, int log_m, gpu_ntt_dir dir,
                               gpu_roots roots, const struct fr *shift, cuzk_error *err) {
    return ntt_host<api_curve>(data, batch, log_m, dir, roots, shift, err);
}

extern "C" cuzk_status gpu_bn254_ntt(struct bn254_fr *data, size_t batch, int log_m, gpu_ntt_dir dir,
                                     gpu_roots roots, const struct bn254_fr *shift, cuzk_error *err) {
    GPU_ARG(roots == GPU_ROOTS_SNARKJS, "gpu_bn254_ntt: BN254 has only the snarkjs roots (5^t)");
    return ntt_host<bn254>(data, batch, log_m, dir, GPU_ROOTS_SNARKJS, shift, err);
}

extern "C" cuzk_status gpu_h_bellperson_async(void *stream, struct fr *d_a, struct fr *d_b,
                                              struct fr *d_c, int log_m, cuzk_error *err) {
    GPU_ARG(log_m >= 1 && log_m <= 28, "gpu_h_bellperson_async: log_m out of [1, 28]");
    GPU_ARG(fr_ptrs_ok(d_a, d_b, d_c, ((size_t)32) << log_m),
            "gpu_h_bellperson_async: NULL or overlapping vectors");
    return h_async<api_curve>((cudaStream_t)stream, (api_curve::fr *)d_a, (api_curve::fr *)d_b, (api_curve::fr *)d_c, log_m, 0, 0,
                              err);
}

extern "C" cuzk_status gpu_h_bellperson_roots_async(void *stream, struct fr *d_a, struct fr *d_b, struct fr *d_c,
                                                    int log_m, gpu_roots roots, cuzk_error *err) {
    GPU_ARG(log_m >= 1 && log_m <= 28, "gpu_h_bellperson_roots_async: log_m out of [1, 28]");
    GPU_ARG(roots == GPU_ROOTS_BELLPERSON || roots == GPU_ROOTS_SNARKJS, "gpu_h_bellperson_roots_async: bad roots");
    GPU_ARG(fr_ptrs_ok(d_a, d_b, d_c, ((size_t)32) << log_m),
            "gpu_h_bellperson_roots_async: NULL or overlapping vectors");
    return h_async<api_curve>((cudaStream_t)stream, (api_curve::fr *)d_a, (api_curve::fr *)d_b, (api_curve::fr *)d_c, log_m, 0,
                              roots == GPU_ROOTS_SNARKJS ? TABLES_SNARKJS_ROOTS_G7 : 0, err);
}

extern "C" cuzk_status gpu_h_bellperson_parked_async(void *stream, struct fr *d_a, struct fr *d_b, const struct fr *h_c,
                                                     int log_m, gpu_roots roots, cuzk_error *err) {
    GPU_ARG(log_m >= 1 && log_m <= 28, "gpu_h_bellperson_parked_async: log_m out of [1, 28]");
    GPU_ARG(roots == GPU_ROOTS_BELLPERSON || roots == GPU_ROOTS_SNARKJS, "gpu_h_bellperson_parked_async: bad roots");
    GPU_ARG(h_c && d_a && d_b && d_a != d_b, "gpu_h_bellperson_parked_async: NULL or equal vectors");
    {
        const char *pa = (const char *)d_a, *pb = (const char *)d_b;
        const size_t bytes = ((size_t)32) << log_m;
        GPU_ARG(pa + bytes <= pb || pb + bytes <= pa, "gpu_h_bellperson_parked_async: overlapping vectors");
    }
    return h_parked_async<api_curve>((cudaStream_t)stream, (api_curve::fr *)d_a, (api_curve::fr *)d_b,
                                     (const api_curve::fr *)h_c, log_m,
                                     roots == GPU_ROOTS_SNARKJS ? TABLES_SNARKJS_ROOTS_G7 : 0, err);
}

extern "C" cuzk_status gpu_h_snarkjs_async(void *stream, struct fr *d_a, struct fr *d_b,
                                           struct fr *d_c, int log_m, cuzk_error *err) {
    GPU_ARG(log_m >= 1 && log_m <= 28, "gpu_h_snarkjs_async: log_m out of [1, 28]");
    GPU_ARG(fr_ptrs_ok(d_a, d_b, d_c, ((size_t)32) << log_m),
            "gpu_h_snarkjs_async: NULL or overlapping vectors");
    return h_async<api_curve>((cudaStream_t)stream, (api_curve::fr *)d_a, (api_curve::fr *)d_b, (api_curve::fr *)d_c, log_m, 1, 1,
                              err);
}

/* BN254: the snarkjs H only (BN254 has no bellperson convention; two-adicity 28, and the coset
 * shift omega_2m needs log_m + 1 <= 28) */
extern "C" cuzk_status gpu_bn254_h_snarkjs_async(void *stream, struct bn254_fr *d_a, struct bn254_fr *d_b,
                                                 struct bn254_fr *d_c, int log_m, cuzk_error *err) {
    GPU_ARG(log_m >= 1 && log_m <= 27, "gpu_bn254_h_snarkjs_async: log_m out of [1, 27]");
    GPU_ARG(fr_ptrs_ok(d_a, d_b, d_c, ((size_t)32) << log_m),
            "gpu_bn254_h_snarkjs_async: NULL or overlapping vectors");
    return h_async<bn254>((cudaStream_t)stream, (bn254::fr *)d_a, (bn254::fr *)d_b, (bn254::fr *)d_c, log_m, 1, 1, err);
}

namespace {
/* gpu_h / gpu_h_bellperson_roots / gpu_bn254_h: host vectors through one device allocation.
 * tables: the table kind (0 bellperson, 1 snarkjs, TABLES_SNARKJS_ROOTS_G7 bellperson H on
 * snarkjs's roots); the snarkjs H is kind 1 only. */
template <class C>
cuzk_status h_host(int tables, void *a, const void *b, const void *c, int log_m, cuzk_error *err) {
    const int snarkjs = tables == 1;
    cuzk_status st = CUZK_OK;
    const size_t bytes = ((size_t)1 << log_m) * sizeof(typename C::fr);
    cudaStream_t s = NULL;
    typename C::fr *d = NULL;
    CU(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    CU(cudaMallocAsync((void **)&d, 3 * bytes, s));
    CU(cudaMemcpyAsync(d, a, bytes, cudaMemcpyHostToDevice, s));
    CU(cudaMemcpyAsync((char *)d + bytes, b, bytes, cudaMemcpyHostToDevice, s));
    if (!snarkjs) CU(cudaMemcpyAsync((char *)d + 2 * bytes, c, bytes, cudaMemcpyHostToDevice, s));
    st = h_async<C>(s, d, (typename C::fr *)((char *)d + bytes), (typename C::fr *)((char *)d + 2 * bytes), log_m,
                    snarkjs, tables, err);
    if (st != CUZK_OK) goto out;
    CU(cudaMemcpyAsync(a, d, bytes, cudaMemcpyDeviceToHost, s));
    CU(cudaStreamSynchronize(s));
out:
    if (s) {
        if (d) cudaFreeAsync(d, s);
        cudaStreamSynchronize(s);
        cudaStreamDestroy(s);
    }
    return st;
}
}  // namespace

extern "C" cuzk_status gpu_h(gpu_roots convention, struct fr *a, struct fr *b, struct fr *c,
                             int log_m, cuzk_error *err) {
    GPU_ARG(log_m >= 1 && log_m <= 28, "gpu_h: log_m out of [1, 28]");
    GPU_ARG(convention == GPU_ROOTS_BELLPERSON || convention == GPU_ROOTS_SNARKJS, "gpu_h: bad convention");
    GPU_ARG(a && b && c, "gpu_h: NULL vector");
    return h_host<api_curve>(convention == GPU_ROOTS_SNARKJS, a, b, c, log_m, err);
}

extern "C" cuzk_status gpu_h_bellperson_roots(gpu_roots roots, struct fr *a, struct fr *b, struct fr *c, int log_m,
                                              cuzk_error *err) {
    GPU_ARG(log_m >= 1 && log_m <= 28, "gpu_h_bellperson_roots: log_m out of [1, 28]");
    GPU_ARG(roots == GPU_ROOTS_BELLPERSON || roots == GPU_ROOTS_SNARKJS, "gpu_h_bellperson_roots: bad roots");
    GPU_ARG(a && b && c, "gpu_h_bellperson_roots: NULL vector");
    return h_host<api_curve>(roots == GPU_ROOTS_SNARKJS ? TABLES_SNARKJS_ROOTS_G7 : 0, a, b, c, log_m, err);
}

extern "C" cuzk_status gpu_bn254_h(struct bn254_fr *a, const struct bn254_fr *b, int log_m, cuzk_error *err) {
    GPU_ARG(log_m >= 1 && log_m <= 27, "gpu_bn254_h: log_m out of [1, 27]");
    GPU_ARG(a && b, "gpu_bn254_h: NULL vector");
    return h_host<bn254>(1, a, b, NULL, log_m, err);
}

extern "C" size_t gpu_h_cache_bytes(void) {
    int dev = 0;
    size_t total = 0;
    if (cudaGetDevice(&dev) != cudaSuccess) {
        (void)cudaGetLastError();
        return 0;
    }
    pthread_mutex_lock(&g_cache_lock);
    for (const ntt_tables<api_curve> *t = cache_head<api_curve>(); t; t = t->next)
        if (t->dev == dev) total += t->bytes;
    pthread_mutex_unlock(&g_cache_lock);
    return total;
}

namespace {
__device__ __forceinline__ uint64_t mix64(uint64_t z) {
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}
/* random elements below 2^254 (< r) */
template <class C>
__global__ void ntt_random_kernel(typename C::fr *a, size_t n, uint64_t seed) {
    CUZK_CURVE_TYPES(C);
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    fr_t e;
    for (int k = 0; k < fr_t::N / 2; k++) {
        uint64_t v = mix64(seed + 4 * i + k + 0x9e3779b97f4a7c15ull * (k + 1));
        e.l[2 * k] = (uint32_t)v;
        e.l[2 * k + 1] = (uint32_t)(v >> 32);
    }
    /* below the largest power of two under r: canonical */
    e.l[fr_t::N - 1] &= (1u << (31 - __clz(fr_t::modulus_minus(0).l[fr_t::N - 1]))) - 1;
    a[i] = e;
}
}  // namespace

namespace {
template <class C>
cuzk_status bench_ntt(int log_m, size_t batch, int warmup, int reps, float *times_ms, int roots, void *x_out,
                      void *y_out, cuzk_error *err) {
    GPU_ARG(log_m >= 1 && log_m <= 28 && batch >= 1 && reps >= 1 && times_ms, "gpu_bench_ntt: bad args");
    cuzk_status st = CUZK_OK;
    const ntt_tables<C> *tb = NULL;
    typename C::fr *d_x = NULL, *d_y = NULL;
    cudaEvent_t e0 = NULL, e1 = NULL;
    const size_t total = batch << log_m;
    st = ntt_tables_get<C>(&tb, roots, log_m, err);
    if (st != CUZK_OK) return st;
    CU(cudaMalloc(&d_x, total * sizeof(typename C::fr)));
    CU(cudaMalloc(&d_y, total * sizeof(typename C::fr)));
    CU(cudaEventCreate(&e0));
    CU(cudaEventCreate(&e1));
    for (int r = -warmup; r < reps; r++) {
        ntt_random_kernel<C><<<nblocks(total, 256), 256>>>(d_x, total, 12345 + (uint64_t)r);
        CU_LAUNCH("ntt_random_kernel");
        CU(cudaEventRecord(e0));
        st = ntt_device<C>(d_y, d_x, batch, log_m, 0, roots, NULL, NULL, 0, err);
        if (st != CUZK_OK) goto out;
        CU(cudaEventRecord(e1));
        CU(cudaEventSynchronize(e1));
        if (r >= 0) CU(cudaEventElapsedTime(&times_ms[r], e0, e1));
    }
    /* the last run's input and output, for the caller's check (d_x is only read) */
    if (x_out) CU(cudaMemcpy(x_out, d_x, total * sizeof(typename C::fr), cudaMemcpyDeviceToHost));
    if (y_out) CU(cudaMemcpy(y_out, d_y, total * sizeof(typename C::fr), cudaMemcpyDeviceToHost));
out:
    if (e0) cudaEventDestroy(e0);
    if (e1) cudaEventDestroy(e1);
    cudaFree(d_x);
    cudaFree(d_y);
    return st;
}
}  // namespace

extern "C" cuzk_status gpu_bench_ntt(int log_m, size_t batch, int warmup, int reps, float *times_ms, void *x_out,
                                     void *y_out, cuzk_error *err) {
    return bench_ntt<api_curve>(log_m, batch, warmup, reps, times_ms, 0, x_out, y_out, err);
}

extern "C" cuzk_status gpu_bench_bn254_ntt(int log_m, int warmup, int reps, float *times_ms, void *x_out, void *y_out,
                                           cuzk_error *err) {
    GPU_ARG(log_m <= bn254::FR_TWO_ADICITY, "gpu_bench_bn254_ntt: log_m > 28");
    return bench_ntt<bn254>(log_m, 1, warmup, reps, times_ms, 1, x_out, y_out, err);
}

extern "C" cuzk_status gpu_bench_h(gpu_roots convention, int log_m, int warmup, int reps, float *times_ms,
                                   void *ab_out, void *h_out, cuzk_error *err) {
    GPU_ARG(log_m >= 1 && log_m <= 28 && reps >= 1 && times_ms, "gpu_bench_h: bad args");
    GPU_ARG(convention == GPU_ROOTS_BELLPERSON || convention == GPU_ROOTS_SNARKJS, "gpu_bench_h: bad convention");
    cuzk_status st = CUZK_OK;
    const ntt_tables<api_curve> *tb = NULL;
    const size_t m = (size_t)1 << log_m;
    const int snarkjs = convention == GPU_ROOTS_SNARKJS;
    api_curve::fr *d = NULL;
    cudaEvent_t e0 = NULL, e1 = NULL;
    st = ntt_tables_get<api_curve>(&tb, snarkjs, log_m, err);
    if (st != CUZK_OK) return st;
    CU(cudaMalloc(&d, 3 * m * sizeof(api_curve::fr)));
    CU(cudaEventCreate(&e0));
    CU(cudaEventCreate(&e1));
    for (int r = -warmup; r < reps; r++) {
        ntt_random_kernel<api_curve><<<nblocks(2 * m, 256), 256>>>(d, 2 * m, 777 + (uint64_t)r);
        CU_LAUNCH("ntt_random_kernel");
        /* c = a * b on the rows (a satisfied system: A B - C is divisible by Z, so the caller can
         * check the result against the identity H Z = A B - C); snarkjs reads only a and b */
        CU(cudaMemcpyAsync(d + 2 * m, d, m * sizeof(api_curve::fr), cudaMemcpyDeviceToDevice, 0));
        fr_mul_inplace_kernel<api_curve><<<(unsigned)((m + 255) / 256), 256>>>(d + 2 * m, d + m, m);
        CU_LAUNCH("fr_mul_inplace_kernel");
        if (r == reps - 1 && ab_out) /* the last run's a and b (the run clobbers them) */
            CU(cudaMemcpy(ab_out, d, 2 * m * sizeof(api_curve::fr), cudaMemcpyDeviceToHost));
        CU(cudaEventRecord(e0));
        st = h_async<api_curve>(0, d, d + m, d + 2 * m, log_m, snarkjs, snarkjs, err);
        if (st != CUZK_OK) goto out;
        CU(cudaEventRecord(e1));
        CU(cudaEventSynchronize(e1));
        if (r >= 0) CU(cudaEventElapsedTime(&times_ms[r], e0, e1));
    }
    if (h_out) CU(cudaMemcpy(h_out, d, m * sizeof(api_curve::fr), cudaMemcpyDeviceToHost));
out:
    if (e0) cudaEventDestroy(e0);
    if (e1) cudaEventDestroy(e1);
    cudaFree(d);
    return st;
}
