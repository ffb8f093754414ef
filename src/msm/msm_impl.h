/* CPU Pippenger MSM for G1 and G2 (interface: src/msm/msm.h), template: MSM_DEFINE(G) defines
 * G##_msm for one group G (g1, g2, bn254_g1, ...), used once per group in the curve's msm.c.
 *
 * Signed digits without a carry chain: with c-bit windows and nwin windows, let
 * H = sum_w 2^(c-1) * 2^(c*w). Then k = sum_w d_w 2^(c*w) with d_w = bits_w(k + H) - 2^(c-1) in
 * [-2^(c-1), 2^(c-1)), because k + H = sum_w (d_w + 2^(c-1)) 2^(c*w) with every window in
 * [0, 2^c) as long as k + H < 2^(c*nwin). For k <= r - 1 < 0.91 * 2^255 that holds when
 * c*nwin >= 257, and also when c*nwin = 256 and c >= 4 (H < 2^255 * 2^c/(2^c - 1)); msm_windows()
 * adds a window otherwise. So each (window, point) digit is computed on the fly from the scalar with
 * one 5-limb addition: no digit array, no recoding pass, and scalar 0 yields only zero digits
 * (it is skipped before that anyway). Scalars must be canonical (< r), as msm.h requires: a value
 * >= r may overflow the top window and give a wrong sum.
 *
 * Digit d != 0 adds +-P to bucket |d| - 1 (2^(c-1) buckets, XYZZ, mixed additions). A window's
 * sum is sum_j (j+1) * bucket_j, computed with the running sum (two full additions per bucket).
 * Work is split into tasks (window w, point chunk); threads take tasks from an atomic counter,
 * each with its own bucket array (allocated once per call, before the threads start). The caller
 * combines the task results: acc = sum over windows from the top of acc * 2^c + window sum.
 *
 * One implementation, instantiated for G1 and G2 by MSM_DEFINE (as curves are in src/ec).
 */
#include "msm/msm.h"

#include <stdatomic.h>
#include <stdlib.h>

#include "util/parallel.h"


/* The c-bit window starting at bit `off` of s = k + H (5 limbs). */
static inline uint32_t window_bits(const uint64_t s[5], int off, int c) {
    int limb = off >> 6, sh = off & 63;
    uint64_t v = s[limb] >> sh;
    if (sh + c > 64 && limb + 1 < 5) v |= s[limb + 1] << (64 - sh);
    return (uint32_t)(v & (((uint64_t)1 << c) - 1));
}

/* H = sum_w 2^(c-1) 2^(c*w), as 5 limbs (c*nwin <= 256 + c <= 276 bits). */
static inline void msm_offset(uint64_t h[5], int c, int nwin) {
    for (int i = 0; i < 5; i++) h[i] = 0;
    for (int w = 0; w < nwin; w++) {
        int bit = c * w + c - 1;
        h[bit >> 6] |= (uint64_t)1 << (bit & 63);
    }
}

static inline bool scalar_is_zero(const scalar256 *k) { return (k->l[0] | k->l[1] | k->l[2] | k->l[3]) == 0; }
static inline bool scalar_is_one(const scalar256 *k) { return k->l[0] == 1 && (k->l[1] | k->l[2] | k->l[3]) == 0; }

static inline void scalar_add_offset(uint64_t s[5], const scalar256 *k, const uint64_t h[5]) {
    __extension__ unsigned __int128 c = 0;
    for (int i = 0; i < 4; i++) {
        c += (unsigned __int128)k->l[i] + h[i];
        s[i] = (uint64_t)c;
        c >>= 64;
    }
    s[4] = h[4] + (uint64_t)c;
}

/* Task split: enough point chunks that every thread has about two tasks. */
static inline size_t msm_chunks(size_t n, int nwin, int nthreads) {
    size_t want = 2 * (size_t)nthreads;
    size_t chunks = (want + (size_t)nwin - 1) / (size_t)nwin;
    if (chunks < 1) chunks = 1;
    if (chunks > n) chunks = n;
    return chunks;
}

#define MSM_DEFINE(G)                                                                            \
    typedef struct {                                                                             \
        const G##_affine *bases;                                                                 \
        const scalar256 *scalars;                                                                \
        size_t n, nchunks, ntasks;                                                               \
        int c, nwin;                                                                             \
        uint64_t h[5];                                                                           \
        G##_xyzz *buckets; /* nthreads x 2^(c-1) */                                              \
        G##_xyzz *partial; /* ntasks: window w, chunk ch at w * nchunks + ch */                  \
        atomic_size_t next;                                                                      \
    } G##_msm_ctx;                                                                               \
                                                                                                 \
    static void G##_msm_task(G##_msm_ctx *x, size_t task, G##_xyzz *bk) {                        \
        const size_t nb = (size_t)1 << (x->c - 1);                                               \
        const int w = (int)(task / x->nchunks);                                                  \
        const size_t ch = task % x->nchunks;                                                     \
        const size_t i0 = x->n * ch / x->nchunks, i1 = x->n * (ch + 1) / x->nchunks;            \
        const uint32_t half = (uint32_t)1 << (x->c - 1);                                         \
        const int off = w * x->c;                                                                \
        for (size_t j = 0; j < nb; j++) G##_xyzz_set_infinity(&bk[j]);                           \
        for (size_t i = i0; i < i1; i++) {                                                       \
            const scalar256 *k = &x->scalars[i];                                                 \
            if (scalar_is_zero(k)) continue;                                                     \
            const G##_affine *p = &x->bases[i];                                                  \
            if (G##_affine_is_infinity(p)) continue;                                             \
            uint64_t s[5];                                                                       \
            scalar_add_offset(s, k, x->h);                                                       \
            uint32_t v = window_bits(s, off, x->c);                                              \
            if (v == half) continue; /* digit 0 */                                               \
            if (v > half) {                                                                      \
                G##_xyzz_add_mixed(&bk[v - half - 1], &bk[v - half - 1], p);                     \
            } else {                                                                             \
                G##_affine np;                                                                   \
                G##_affine_neg(&np, p);                                                          \
                G##_xyzz_add_mixed(&bk[half - v - 1], &bk[half - v - 1], &np);                   \
            }                                                                                    \
        }                                                                                        \
        /* running sum: sum_j (j + 1) bk[j] */                                                   \
        G##_xyzz run, sum;                                                                       \
        G##_xyzz_set_infinity(&run);                                                             \
        G##_xyzz_set_infinity(&sum);                                                             \
        for (size_t j = nb; j-- > 0;) {                                                          \
            G##_xyzz_add(&run, &run, &bk[j]);                                                    \
            G##_xyzz_add(&sum, &sum, &run);                                                      \
        }                                                                                        \
        x->partial[task] = sum;                                                                  \
    }                                                                                            \
                                                                                                 \
    static void G##_msm_worker(void *vctx, size_t begin, size_t end, int tid) {                  \
        (void)begin;                                                                             \
        (void)end;                                                                               \
        G##_msm_ctx *x = vctx;                                                                   \
        G##_xyzz *bk = x->buckets + (size_t)tid * ((size_t)1 << (x->c - 1));                     \
        for (;;) {                                                                               \
            size_t t = atomic_fetch_add_explicit(&x->next, 1, memory_order_relaxed);             \
            if (t >= x->ntasks) break;                                                           \
            G##_msm_task(x, t, bk);                                                              \
        }                                                                                        \
    }                                                                                            \
                                                                                                 \
    /* Allocation failed: plain sum of double-and-add products, no memory needed. */             \
    static void G##_msm_naive(G##_jacobian *out, const G##_affine *bases,                        \
                              const scalar256 *scalars, size_t n) {                              \
        G##_jacobian_set_infinity(out);                                                          \
        for (size_t i = 0; i < n; i++) {                                                         \
            G##_jacobian p;                                                                      \
            G##_jacobian_from_affine(&p, &bases[i]);                                             \
            G##_mul_vartime(&p, &p, scalars[i].l, 4);                                            \
            G##_jacobian_add(out, out, &p);                                                      \
        }                                                                                        \
    }                                                                                            \
                                                                                                 \
    static void G##_msm_pippenger(G##_jacobian *out, const G##_affine *bases,                    \
                                  const scalar256 *scalars, size_t n, int nthreads) {            \
        if (n == 0) {                                                                            \
            G##_jacobian_set_infinity(out);                                                      \
            return;                                                                              \
        }                                                                                        \
        if (nthreads <= 0) nthreads = cuzk_num_threads();                                        \
        G##_msm_ctx x;                                                                           \
        x.bases = bases;                                                                         \
        x.scalars = scalars;                                                                     \
        x.n = n;                                                                                 \
        x.c = msm_window_bits(n);                                                                \
        x.nwin = msm_windows(x.c);                                                               \
        x.nchunks = msm_chunks(n, x.nwin, nthreads);                                             \
        x.ntasks = (size_t)x.nwin * x.nchunks;                                                   \
        msm_offset(x.h, x.c, x.nwin);                                                            \
        atomic_init(&x.next, 0);                                                                 \
        int nth = (size_t)nthreads < x.ntasks ? nthreads : (int)x.ntasks;                        \
        x.buckets = malloc((size_t)nth * ((size_t)1 << (x.c - 1)) * sizeof(G##_xyzz));           \
        x.partial = malloc(x.ntasks * sizeof(G##_xyzz));                                         \
        if (!x.buckets || !x.partial) {                                                          \
            free(x.buckets);                                                                     \
            free(x.partial);                                                                     \
            G##_msm_naive(out, bases, scalars, n);                                               \
            return;                                                                              \
        }                                                                                        \
        parallel_for((size_t)nth, nth, G##_msm_worker, &x);                                      \
        G##_xyzz acc;                                                                            \
        G##_xyzz_set_infinity(&acc);                                                             \
        for (int w = x.nwin - 1; w >= 0; w--) {                                                  \
            if (w != x.nwin - 1)                                                                 \
                for (int i = 0; i < x.c; i++) G##_xyzz_dbl(&acc, &acc);                          \
            for (size_t ch = 0; ch < x.nchunks; ch++)                                            \
                G##_xyzz_add(&acc, &acc, &x.partial[(size_t)w * x.nchunks + ch]);                \
        }                                                                                        \
        G##_xyzz_to_jacobian(out, &acc);                                                         \
        free(x.buckets);                                                                         \
        free(x.partial);                                                                         \
    }                                                                                            \
                                                                                                 \
    /* The 0/1 split (DESIGN.md section 6): scalars 1 are plain additions of their bases, summed  \
     * in parallel; Pippenger runs only over the compacted other scalars (its window is chosen   \
     * for that smaller n). */                                                                    \
    typedef struct {                                                                             \
        const G##_affine *bases;                                                                 \
        const scalar256 *scalars;                                                                \
        G##_xyzz *partial; /* one per thread */                                                  \
    } G##_ones_ctx;                                                                              \
    static void G##_ones_range(void *vctx, size_t b, size_t e, int tid) {                        \
        G##_ones_ctx *x = vctx;                                                                  \
        G##_xyzz acc;                                                                            \
        G##_xyzz_set_infinity(&acc);                                                             \
        for (size_t i = b; i < e; i++)                                                           \
            if (scalar_is_one(&x->scalars[i])) G##_xyzz_add_mixed(&acc, &acc, &x->bases[i]);     \
        x->partial[tid] = acc;                                                                   \
    }                                                                                            \
                                                                                                 \
    void G##_msm(G##_jacobian *out, const G##_affine *bases, const scalar256 *scalars, size_t n, \
                 int nthreads) {                                                                 \
        size_t n_01 = 0;                                                                         \
        for (size_t i = 0; i < n; i++) n_01 += scalar_is_zero(&scalars[i]) || scalar_is_one(&scalars[i]); \
        if (n_01 < n / 8 + 1) {                                                                  \
            G##_msm_pippenger(out, bases, scalars, n, nthreads);                                 \
            return;                                                                              \
        }                                                                                        \
        if (nthreads <= 0) nthreads = cuzk_num_threads();                                        \
        size_t n_rest = n - n_01;                                                                \
        G##_affine *rb = malloc((n_rest ? n_rest : 1) * sizeof *rb);                             \
        scalar256 *rs = malloc((n_rest ? n_rest : 1) * sizeof *rs);                              \
        G##_xyzz *part = malloc((size_t)nthreads * sizeof *part);                                \
        if (!rb || !rs || !part) {                                                               \
            free(rb); free(rs); free(part);                                                      \
            G##_msm_pippenger(out, bases, scalars, n, nthreads);                                 \
            return;                                                                              \
        }                                                                                        \
        size_t k = 0;                                                                            \
        for (size_t i = 0; i < n; i++) {                                                         \
            if (scalar_is_zero(&scalars[i]) || scalar_is_one(&scalars[i])) continue;             \
            rb[k] = bases[i];                                                                    \
            rs[k++] = scalars[i];                                                                \
        }                                                                                        \
        for (int t = 0; t < nthreads; t++) G##_xyzz_set_infinity(&part[t]);                      \
        G##_ones_ctx oc = {bases, scalars, part};                                                \
        parallel_for(n, nthreads, G##_ones_range, &oc);                                          \
        G##_msm_pippenger(out, rb, rs, n_rest, nthreads);                                        \
        G##_xyzz ones;                                                                           \
        G##_xyzz_set_infinity(&ones);                                                            \
        for (int t = 0; t < nthreads; t++) G##_xyzz_add(&ones, &ones, &part[t]);                 \
        G##_jacobian oj;                                                                         \
        G##_xyzz_to_jacobian(&oj, &ones);                                                        \
        G##_jacobian_add(out, out, &oj);                                                         \
        free(rb); free(rs); free(part);                                                          \
    }

