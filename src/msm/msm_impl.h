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
 * Digit d != 0 adds +-P to bucket |d| - 1 (2^(c-1) buckets). The buckets are affine and the
 * additions are affine too, a batch at a time with one field inversion for the batch
 * (Montgomery's trick; the inversion by binary extended Euclid, F_inv_vartime: the points are
 * public): 2M + 1S + 3M of the shared product chain per addition plus the inversion's share,
 * against 8M + 2S for an XYZZ mixed addition (the saving is largest over Fp2, for G2). A point whose bucket already has an
 * addition in the open batch waits for the next batch; x1 = x2 (doubling, or P + (-P)) is done
 * at once through XYZZ (rare: random bases never meet it). A window's sum is
 * sum_j (j+1) * bucket_j, computed with the running sum (one mixed and one full addition per
 * bucket).
 * Work is split into tasks (window w, point chunk); threads take tasks from an atomic counter,
 * each with its own bucket array (allocated once per call, before the threads start). The caller
 * combines the task results: acc = sum over windows from the top of acc * 2^c + window sum.
 *
 * One implementation, instantiated for G1 and G2 by MSM_DEFINE(G, F, AFFINE_MIN_C, VEC), F the
 * base field of G's coordinates (fp for G1, fp2 for G2; as curves are in src/ec), AFFINE_MIN_C the
 * smallest window for which the batched affine additions are the default (below it the
 * inversions and the waiting points cost more than they save: bench/RESULTS.md section 20), and
 * VEC a `const msm52_field *` when F has 4 limbs below 2^254 (then, where the CPU has AVX-512
 * IFMA, the batch runs 8 additions at a time, the bucket sums 8 segments at a time, and the
 * small MSMs' XYZZ buckets take 8 windows of a point at a time: src/msm/msm52.h; the same group
 * elements), else NULL.
 */
#include "msm/msm.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "msm/msm52.h"
#include "util/parallel.h"

/* Affine additions per batch inversion, at most: the inversion (Fermat: ~570 multiplications)
 * is shared by the batch; a batch holds each bucket once, so a task's batch is a quarter of its
 * 2^(c-1) buckets (more would make most points wait for a busy bucket), within [32, MSM_BATCH]. */
#define MSM_BATCH 1024
static inline size_t msm_batch_cap(size_t buckets) {
    size_t c = buckets / 4;
    return c < 32 ? 32 : c > MSM_BATCH ? MSM_BATCH : c;
}


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

#define MSM_DEFINE(G, F, AFFINE_MIN_C, VEC)                                                      \
    /* a thread's buckets and batch: affine buckets with a state byte each (0 empty, 1 set,      \
     * 2 set and in the open batch), the batch's bucket indices, points, denominators and prefix  \
     * products, and the points waiting for a bucket of the open batch */                         \
    typedef struct {                                                                             \
        G##_affine *bk;                                                                          \
        uint8_t *state;                                                                          \
        G##_xyzz *bx; /* MSM_ACCUM_XYZZ only */                                                  \
        uint32_t *bj, *wj;   /* cap entries each (allocated with the buckets) */                  \
        G##_affine *bq, *wq;                                                                     \
        F *den, *pre;                                                                            \
        size_t nb, nw, cap; /* open batch, waiting points, batch size of the task */              \
        void *vscratch;     /* the 8-lane flush's (src/msm/msm52.h), NULL: the scalar flush */    \
    } G##_msm_scratch;                                                                           \
                                                                                                 \
    /* The open batch's additions: bk[bj[i]] += bq[i] for i < nb, one inversion. Two interleaved \
     * product chains (even and odd i; pre[i] = den[i] * pre[i - 2]) and the additions two at a  \
     * time: every step of one chain depends on the one before, and one addition is four         \
     * dependent products deep, so the CPU overlaps two independent ones where it would wait on  \
     * one (bench/RESULTS.md section 31). Additions i of a batch hit distinct buckets. */         \
    static inline void G##_msm_add_one(G##_msm_scratch *sc, size_t i, const F *d_inv) {          \
        F t, lam, x3;                                                                            \
        G##_affine *b = &sc->bk[sc->bj[i]];                                                      \
        const G##_affine *q = &sc->bq[i];                                                        \
        F##_sub(&t, &q->y, &b->y);                                                               \
        F##_mul(&lam, &t, d_inv);                    /* (y2 - y1) / (x2 - x1) */                 \
        F##_sqr(&x3, &lam);                                                                      \
        F##_sub(&x3, &x3, &b->x);                                                                \
        F##_sub(&x3, &x3, &q->x);                    /* lam^2 - x1 - x2 */                       \
        F##_sub(&t, &b->x, &x3);                                                                 \
        F##_mul(&t, &lam, &t);                                                                   \
        F##_sub(&b->y, &t, &b->y);                   /* lam (x1 - x3) - y1 */                    \
        b->x = x3;                                                                               \
        sc->state[sc->bj[i]] = 1;                                                                \
    }                                                                                            \
    static void G##_msm_flush(G##_msm_scratch *sc) {                                             \
        size_t n = sc->nb;                                                                       \
        if (!n) return;                                                                          \
        if (sc->vscratch) { /* same additions, 8 at a time (allocated only where VEC serves) */   \
            msm52_batch_add((uint64_t(*)[8])sc->bk, sc->bj, (const uint64_t(*)[8])sc->bq,        \
                            (const uint64_t(*)[4])sc->den, n, (VEC), sc->vscratch);              \
            for (size_t i = 0; i < n; i++) sc->state[sc->bj[i]] = 1;                             \
            sc->nb = 0;                                                                          \
            return;                                                                              \
        }                                                                                        \
        F *pre = sc->pre, *den = sc->den;                                                        \
        pre[0] = den[0];                                                                         \
        if (n > 1) pre[1] = den[1];                                                              \
        for (size_t i = 2; i + 1 < n; i += 2) {                                                  \
            F##_mul(&pre[i], &pre[i - 2], &den[i]);                                              \
            F##_mul(&pre[i + 1], &pre[i - 1], &den[i + 1]);                                      \
        }                                                                                        \
        if (n > 2 && (n & 1)) F##_mul(&pre[n - 1], &pre[n - 3], &den[n - 1]);                    \
        /* inv[k] = 1 / (product of chain k), k = parity; one inversion for both */              \
        F inv[2];                                                                                \
        if (n == 1) {                                                                            \
            F##_inv_vartime(&inv[0], &pre[0]); /* public points: variable time is fine */        \
        } else {                                                                                 \
            const size_t l0 = (n - 1) & 1 ? n - 2 : n - 1, l1 = l0 == n - 1 ? n - 2 : n - 1;     \
            F both, ib;                                                                          \
            F##_mul(&both, &pre[l0], &pre[l1]);                                                  \
            F##_inv_vartime(&ib, &both);                                                         \
            F##_mul(&inv[l0 & 1], &ib, &pre[l1]);                                                \
            F##_mul(&inv[l1 & 1], &ib, &pre[l0]);                                                \
        }                                                                                        \
        size_t i = n;                                                                            \
        if (n & 1) { /* the odd one out first: i = n - 1 (even) */                               \
            i = n - 1;                                                                           \
            F d_inv;                                                                             \
            if (i >= 2) {                                                                        \
                F##_mul(&d_inv, &inv[0], &pre[i - 2]);                                           \
                F##_mul(&inv[0], &inv[0], &den[i]);                                              \
            } else {                                                                             \
                d_inv = inv[0];                                                                  \
            }                                                                                    \
            G##_msm_add_one(sc, i, &d_inv);                                                      \
        }                                                                                        \
        /* pairs (i - 2, i - 1): one of each chain */                                            \
        while (i >= 2) {                                                                         \
            i -= 2;                                                                              \
            F d0, d1; /* d_inv of i (even chain) and i + 1 (odd chain) */                       \
            const size_t e = i, o = i + 1;                                                       \
            if (e >= 2) {                                                                        \
                F##_mul(&d0, &inv[e & 1], &pre[e - 2]);                                          \
                F##_mul(&d1, &inv[o & 1], &pre[o - 2]);                                          \
                F##_mul(&inv[e & 1], &inv[e & 1], &den[e]);                                      \
                F##_mul(&inv[o & 1], &inv[o & 1], &den[o]);                                      \
            } else {                                                                             \
                d0 = inv[e & 1];                                                                 \
                d1 = inv[o & 1];                                                                 \
            }                                                                                    \
            F t0, t1, l0, l1, x0, x1;                                                            \
            G##_affine *b0 = &sc->bk[sc->bj[e]], *b1 = &sc->bk[sc->bj[o]];                       \
            const G##_affine *q0 = &sc->bq[e], *q1 = &sc->bq[o];                                 \
            F##_sub(&t0, &q0->y, &b0->y);                                                        \
            F##_sub(&t1, &q1->y, &b1->y);                                                        \
            F##_mul(&l0, &t0, &d0);                                                              \
            F##_mul(&l1, &t1, &d1);                                                              \
            F##_sqr(&x0, &l0);                                                                   \
            F##_sqr(&x1, &l1);                                                                   \
            F##_sub(&x0, &x0, &b0->x);                                                           \
            F##_sub(&x1, &x1, &b1->x);                                                           \
            F##_sub(&x0, &x0, &q0->x);                                                           \
            F##_sub(&x1, &x1, &q1->x);                                                           \
            F##_sub(&t0, &b0->x, &x0);                                                           \
            F##_sub(&t1, &b1->x, &x1);                                                           \
            F##_mul(&t0, &l0, &t0);                                                              \
            F##_mul(&t1, &l1, &t1);                                                              \
            F##_sub(&b0->y, &t0, &b0->y);                                                        \
            F##_sub(&b1->y, &t1, &b1->y);                                                        \
            b0->x = x0;                                                                          \
            b1->x = x1;                                                                          \
            sc->state[sc->bj[e]] = 1;                                                            \
            sc->state[sc->bj[o]] = 1;                                                            \
        }                                                                                        \
        sc->nb = 0;                                                                              \
    }                                                                                            \
                                                                                                 \
    /* bk[j] += q: set an empty bucket; x1 = x2 through XYZZ at once; else into the open batch   \
     * (flushed when full); a bucket already in the batch: the point waits (0 when the waiting   \
     * list is full: flush and retry). Returns 1 when q was taken. */                            \
    static int G##_msm_put(G##_msm_scratch *sc, uint32_t j, const G##_affine *q) {               \
        G##_affine *b = &sc->bk[j];                                                              \
        if (sc->state[j] == 0) {                                                                 \
            *b = *q;                                                                             \
            sc->state[j] = 1;                                                                    \
            return 1;                                                                            \
        }                                                                                        \
        if (sc->state[j] == 2) {                                                                 \
            if (sc->nw == sc->cap) return 0;                                                     \
            sc->wj[sc->nw] = j;                                                                  \
            sc->wq[sc->nw++] = *q;                                                               \
            return 1;                                                                            \
        }                                                                                        \
        F d;                                                                                     \
        F##_sub(&d, &q->x, &b->x);                                                               \
        if (F##_is_zero(&d)) { /* q = b (double) or q = -b (empty) */                            \
            G##_xyzz t;                                                                          \
            G##_xyzz_from_affine(&t, b);                                                         \
            G##_xyzz_add_mixed(&t, &t, q);                                                       \
            if (G##_xyzz_is_infinity(&t)) sc->state[j] = 0;                                      \
            else G##_xyzz_to_affine(b, &t);                                                      \
            return 1;                                                                            \
        }                                                                                        \
        sc->bj[sc->nb] = j;                                                                      \
        sc->bq[sc->nb] = *q;                                                                     \
        sc->den[sc->nb++] = d;                                                                   \
        sc->state[j] = 2;                                                                        \
        if (sc->nb == sc->cap) G##_msm_flush(sc);                                                \
        return 1;                                                                                \
    }                                                                                            \
                                                                                                 \
    /* The waiting list is full: flushes the open batch and feeds the waiting points once into    \
     * the next one (a point whose bucket is already there waits again; the first one never does, \
     * so the list has room afterwards). The next batch fills with new points before its flush:  \
     * flushing it now, part-full, would spend an inversion on few additions. */                  \
    static void G##_msm_relieve(G##_msm_scratch *sc) {                                           \
        G##_msm_flush(sc);                                                                       \
        size_t nw = sc->nw;                                                                      \
        sc->nw = 0;                                                                              \
        for (size_t i = 0; i < nw; i++) {                                                        \
            G##_affine q = sc->wq[i]; /* a put writes the list at index <= i */                  \
            (void)G##_msm_put(sc, sc->wj[i], &q);                                                \
        }                                                                                        \
    }                                                                                            \
                                                                                                 \
    /* Flushes the open batch, then feeds the waiting points again, until none is left. */       \
    static void G##_msm_drain(G##_msm_scratch *sc) {                                             \
        while (sc->nb || sc->nw) {                                                               \
            G##_msm_flush(sc);                                                                   \
            size_t nw = sc->nw;                                                                  \
            sc->nw = 0;                                                                          \
            for (size_t i = 0; i < nw; i++) {                                                    \
                /* the waiting list was emptied above: a point waits again at most once here */ \
                G##_affine q = sc->wq[i];                                                        \
                (void)G##_msm_put(sc, sc->wj[i], &q);                                            \
            }                                                                                    \
        }                                                                                        \
    }                                                                                            \
                                                                                                 \
    typedef struct {                                                                             \
        const G##_affine *bases;                                                                 \
        const scalar256 *scalars;                                                                \
        size_t n, nchunks, ntasks;                                                               \
        int c, nwin;                                                                             \
        uint64_t h[5];                                                                           \
        G##_msm_scratch *scratch; /* one per thread */                                           \
        int xyzz;                 /* MSM_ACCUM_XYZZ: scratch[t].bx instead of the affine buckets */ \
        int xyzz_from;            /* affine mode: windows from this one on use bx (few buckets) */ \
        size_t nbx;               /* bx entries per thread (nb, or the few-bucket windows' count) */ \
        G##_xyzz *partial; /* ntasks: window w, chunk ch at w * nchunks + ch */                  \
        atomic_size_t next;                                                                      \
    } G##_msm_ctx;                                                                               \
                                                                                                 \
    static void G##_msm_task(G##_msm_ctx *x, size_t task, G##_msm_scratch *sc) {                \
        const size_t nb = (size_t)1 << (x->c - 1);                                               \
        const int w = (int)(task / x->nchunks);                                                  \
        const size_t ch = task % x->nchunks;                                                     \
        const size_t i0 = x->n * ch / x->nchunks, i1 = x->n * (ch + 1) / x->nchunks;            \
        const uint32_t half = (uint32_t)1 << (x->c - 1);                                         \
        const int off = w * x->c;                                                                \
        /* XYZZ buckets: every window with MSM_ACCUM_XYZZ; in affine mode the top windows, whose  \
         * digits reach few buckets (scalars < 2^maxbits): a batch there would hold few additions \
         * per inversion and most points would wait (the pathology of bench/RESULTS.md s. 29) */ \
        const int xyzz = x->xyzz || w >= x->xyzz_from;                                           \
        const size_t nbr = xyzz ? x->nbx : nb; /* buckets that can be hit */                    \
        if (xyzz) for (size_t j = 0; j < nbr; j++) G##_xyzz_set_infinity(&sc->bx[j]);             \
        else memset(sc->state, 0, nb);                                                           \
        sc->nb = sc->nw = 0;                                                                     \
        sc->cap = msm_batch_cap(nb);                                                             \
        for (size_t i = i0; i < i1; i++) {                                                       \
            const scalar256 *k = &x->scalars[i];                                                 \
            if (scalar_is_zero(k)) continue;                                                     \
            const G##_affine *p = &x->bases[i];                                                  \
            if (F##_is_zero(&p->x) && F##_is_zero(&p->y)) continue; /* infinity (inline) */      \
            uint64_t s[5];                                                                       \
            scalar_add_offset(s, k, x->h);                                                       \
            uint32_t v = window_bits(s, off, x->c);                                              \
            if (v == half) continue; /* digit 0 */                                               \
            G##_affine q;                                                                        \
            uint32_t j;                                                                          \
            if (v > half) {                                                                      \
                q = *p;                                                                          \
                j = v - half - 1;                                                                \
            } else {                                                                             \
                q.x = p->x; /* -p, inline; infinity was skipped */                              \
                F##_neg(&q.y, &p->y);                                                            \
                j = half - v - 1;                                                                \
            }                                                                                    \
            if (xyzz) G##_xyzz_add_mixed(&sc->bx[j], &sc->bx[j], &q);                            \
            else while (!G##_msm_put(sc, j, &q)) G##_msm_relieve(sc);                            \
        }                                                                                        \
        if (!xyzz) G##_msm_drain(sc);                                                            \
        /* the running sum 8 segments at a time (src/msm/msm52.h), then                          \
         * sum_j (j+1) bk[j] = sum_l vs[l] + S sum_l l vr[l], S = nbr / 8 (a power of 2) */        \
        if (!xyzz && sc->vscratch) {                                                             \
            G##_xyzz vr[8], vs[8];                                                               \
            _Static_assert(sizeof(G##_xyzz) == sizeof(msm52_xyzz) || sizeof(F) != 32, "layout"); \
            if (msm52_bucket_sums((msm52_xyzz *)vr, (msm52_xyzz *)vs, (const uint64_t(*)[8])sc->bk, \
                                  sc->state, nbr, (VEC))) {                                      \
                G##_xyzz acc, w;                                                                 \
                G##_xyzz_set_infinity(&acc);                                                     \
                G##_xyzz_set_infinity(&w);                                                       \
                for (int l = 7; l >= 1; l--) {                                                   \
                    G##_xyzz_add(&acc, &acc, &vr[l]);                                            \
                    G##_xyzz_add(&w, &w, &acc);                                                  \
                }                                                                                \
                for (size_t s_ = nbr / 8; s_ > 1; s_ >>= 1) G##_xyzz_dbl(&w, &w);               \
                for (int l = 0; l < 8; l++) G##_xyzz_add(&w, &w, &vs[l]);                        \
                x->partial[task] = w;                                                            \
                return;                                                                          \
            }                                                                                    \
        }                                                                                        \
        /* running sum: sum_j (j + 1) bk[j] */                                                   \
        G##_xyzz run, sum;                                                                       \
        G##_xyzz_set_infinity(&run);                                                             \
        G##_xyzz_set_infinity(&sum);                                                             \
        for (size_t j = nbr; j-- > 0;) {                                                         \
            if (xyzz) G##_xyzz_add(&run, &run, &sc->bx[j]);                                      \
            else if (sc->state[j]) G##_xyzz_add_mixed(&run, &run, &sc->bk[j]);                   \
            G##_xyzz_add(&sum, &sum, &run);                                                      \
        }                                                                                        \
        x->partial[task] = sum;                                                                  \
    }                                                                                            \
                                                                                                 \
    static void G##_msm_worker(void *vctx, size_t begin, size_t end, int tid) {                  \
        (void)begin;                                                                             \
        (void)end;                                                                               \
        G##_msm_ctx *x = vctx;                                                                   \
        G##_msm_scratch *sc = &x->scratch[tid];                                                  \
        for (;;) {                                                                               \
            size_t t = atomic_fetch_add_explicit(&x->next, 1, memory_order_relaxed);             \
            if (t >= x->ntasks) break;                                                           \
            G##_msm_task(x, t, sc);                                                              \
        }                                                                                        \
    }                                                                                            \
                                                                                                 \
    static void G##_msm_scratch_free(G##_msm_scratch *sc, int nth) {                             \
        if (!sc) return;                                                                         \
        for (int t = 0; t < nth; t++) {                                                          \
            free(sc[t].bk);                                                                      \
            free(sc[t].state);                                                                   \
            free(sc[t].bx);                                                                      \
            free(sc[t].bq);                                                                      \
            free(sc[t].den);                                                                     \
            free(sc[t].bj);                                                                      \
            free(sc[t].vscratch);                                                                \
        }                                                                                        \
        free(sc);                                                                                \
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
    /* out = sum over windows from the top of acc * 2^c + the window's partial sums (one per      \
     * chunk: window w, chunk ch at partial[w * nchunks + ch]) */                                 \
    static void G##_msm_combine(G##_jacobian *out, const G##_xyzz *partial, int nwin, size_t nchunks, int c) { \
        G##_xyzz acc;                                                                            \
        G##_xyzz_set_infinity(&acc);                                                             \
        for (int w = nwin - 1; w >= 0; w--) {                                                    \
            if (w != nwin - 1)                                                                   \
                for (int i = 0; i < c; i++) G##_xyzz_dbl(&acc, &acc);                            \
            for (size_t ch = 0; ch < nchunks; ch++) G##_xyzz_add(&acc, &acc, &partial[(size_t)w * nchunks + ch]); \
        }                                                                                        \
        G##_xyzz_to_jacobian(out, &acc);                                                         \
    }                                                                                            \
                                                                                                 \
    /* The small MSMs (XYZZ buckets) with the 8-lane code: a task takes a group of 8 windows and  \
     * a chunk of points; each point's 8 digits go to the 8 windows' buckets at once             \
     * (msm52_xyzz_add8), then each window's running sum as in G##_msm_task. Same partial sums    \
     * per (window, chunk) as the one-window tasks. */                                             \
    typedef struct {                                                                             \
        const G##_affine *bases;                                                                 \
        const scalar256 *scalars;                                                                \
        size_t n, nchunks, ntasks, nbk;                                                          \
        int c, nwin;                                                                             \
        uint64_t h[5];                                                                           \
        G##_xyzz *bx;      /* per thread 8 nbk buckets */                                        \
        G##_xyzz *partial; /* window w, chunk ch at w * nchunks + ch */                          \
        atomic_size_t next;                                                                      \
    } G##_msm8_ctx;                                                                              \
    static void G##_msm8_worker(void *vctx, size_t begin, size_t end, int tid) {                 \
        (void)begin;                                                                             \
        (void)end;                                                                               \
        G##_msm8_ctx *x = vctx;                                                                  \
        G##_xyzz *bx = x->bx + (size_t)tid * 8 * x->nbk;                                         \
        const uint32_t half = (uint32_t)1 << (x->c - 1);                                         \
        for (;;) {                                                                               \
            size_t t = atomic_fetch_add_explicit(&x->next, 1, memory_order_relaxed);             \
            if (t >= x->ntasks) break;                                                           \
            const int w0 = 8 * (int)(t / x->nchunks);                                            \
            const size_t ch = t % x->nchunks;                                                    \
            const int nw = x->nwin - w0 < 8 ? x->nwin - w0 : 8;                                  \
            const size_t i0 = x->n * ch / x->nchunks, i1 = x->n * (ch + 1) / x->nchunks;         \
            for (size_t j = 0; j < (size_t)nw * x->nbk; j++) G##_xyzz_set_infinity(&bx[j]);       \
            for (size_t i = i0; i < i1; i++) {                                                   \
                const scalar256 *k = &x->scalars[i];                                             \
                if (scalar_is_zero(k)) continue;                                                 \
                const G##_affine *p = &x->bases[i];                                              \
                if (F##_is_zero(&p->x) && F##_is_zero(&p->y)) continue; /* infinity */          \
                uint64_t s[5];                                                                   \
                scalar_add_offset(s, k, x->h);                                                   \
                msm52_xyzz *b8[8];                                                               \
                unsigned active = 0, neg = 0;                                                    \
                for (int l = 0; l < nw; l++) {                                                   \
                    uint32_t v = window_bits(s, (w0 + l) * x->c, x->c);                          \
                    if (v == half) continue; /* digit 0 */                                       \
                    uint32_t j = v > half ? v - half - 1 : half - v - 1;                         \
                    b8[l] = (msm52_xyzz *)&bx[(size_t)l * x->nbk + j];                           \
                    active |= 1u << l;                                                           \
                    if (v < half) neg |= 1u << l;                                                \
                }                                                                                \
                msm52_xyzz_add8(b8, active, neg, (const uint64_t *)p, (VEC));                    \
            }                                                                                    \
            for (int l = 0; l < nw; l++) { /* running sums: sum_j (j + 1) bx[j] */               \
                const G##_xyzz *b = &bx[(size_t)l * x->nbk];                                     \
                G##_xyzz run, sum;                                                               \
                G##_xyzz_set_infinity(&run);                                                     \
                G##_xyzz_set_infinity(&sum);                                                     \
                for (size_t j = x->nbk; j-- > 0;) {                                              \
                    G##_xyzz_add(&run, &run, &b[j]);                                             \
                    G##_xyzz_add(&sum, &sum, &run);                                              \
                }                                                                                \
                x->partial[(size_t)(w0 + l) * x->nchunks + ch] = sum;                            \
            }                                                                                    \
        }                                                                                        \
    }                                                                                            \
    /* false: not done (the caller runs the one-window tasks) */                                 \
    static bool G##_msm8(G##_jacobian *out, const G##_affine *bases, const scalar256 *scalars,   \
                         size_t n, int nthreads, int c) {                                        \
        G##_msm8_ctx x;                                                                          \
        x.bases = bases;                                                                         \
        x.scalars = scalars;                                                                     \
        x.n = n;                                                                                 \
        x.c = c;                                                                                 \
        x.nwin = msm_windows(c);                                                                 \
        x.nbk = (size_t)1 << (c - 1);                                                            \
        const size_t ngroups = ((size_t)x.nwin + 7) / 8;                                         \
        size_t want = 2 * (size_t)nthreads, ch = (want + ngroups - 1) / ngroups;                 \
        x.nchunks = ch < 1 ? 1 : ch > n ? n : ch;                                                \
        x.ntasks = ngroups * x.nchunks;                                                          \
        msm_offset(x.h, c, x.nwin);                                                              \
        atomic_init(&x.next, 0);                                                                 \
        int nth = (size_t)nthreads < x.ntasks ? nthreads : (int)x.ntasks;                        \
        x.bx = malloc((size_t)nth * 8 * x.nbk * sizeof(G##_xyzz));                               \
        x.partial = malloc((size_t)x.nwin * x.nchunks * sizeof(G##_xyzz));                       \
        if (!x.bx || !x.partial) {                                                               \
            free(x.bx);                                                                          \
            free(x.partial);                                                                     \
            return false;                                                                        \
        }                                                                                        \
        parallel_for((size_t)nth, nth, G##_msm8_worker, &x);                                     \
        G##_msm_combine(out, x.partial, x.nwin, x.nchunks, x.c);                                 \
        free(x.bx);                                                                              \
        free(x.partial);                                                                         \
        return true;                                                                             \
    }                                                                                            \
                                                                                                 \
    static void G##_msm_pippenger(G##_jacobian *out, const G##_affine *bases,                    \
                                  const scalar256 *scalars, size_t n, int nthreads, int accum) { \
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
        /* the 8-lane batch makes affine additions cheaper: affine from a smaller window */       \
        const int vec_ = (VEC) != NULL && msm52_usable(VEC);                                     \
        const int amin_ = vec_ ? MSM52_AFFINE_MIN_C : (AFFINE_MIN_C);                            \
        x.xyzz = accum == MSM_ACCUM_XYZZ || (accum == MSM_ACCUM_AUTO && x.c < amin_);             \
        if (vec_ && accum == MSM_ACCUM_AUTO && x.xyzz && sizeof(F) == 32 && sizeof(G##_affine) == 64 && \
            G##_msm8(out, bases, scalars, n, nthreads, x.c))                                    \
            return;                                                                              \
        x.nwin = msm_windows(x.c);                                                               \
        x.nchunks = msm_chunks(n, x.nwin, nthreads);                                             \
        x.ntasks = (size_t)x.nwin * x.nchunks;                                                   \
        msm_offset(x.h, x.c, x.nwin);                                                            \
        atomic_init(&x.next, 0);                                                                 \
        int nth = (size_t)nthreads < x.ntasks ? nthreads : (int)x.ntasks;                        \
        const size_t nbk = (size_t)1 << (x.c - 1);                                               \
        x.xyzz_from = x.nwin;                                                                    \
        x.nbx = nbk;                                                                             \
        if (!x.xyzz) {                                                                           \
            /* scalars < 2^maxbits: window w (off = w c) with maxbits - off <= c - 2 has digits  \
             * (k >> off) + carry in [0, 2^(maxbits - off)], so buckets j < 2^(maxbits - off);   \
             * from the first window where that is under 4 batches' worth, XYZZ buckets */      \
            uint64_t or_[4] = {0, 0, 0, 0};                                                      \
            for (size_t i = 0; i < n; i++)                                                       \
                for (int l = 0; l < 4; l++) or_[l] |= scalars[i].l[l];                           \
            int maxbits = 0;                                                                     \
            for (int l = 3; l >= 0; l--)                                                         \
                if (or_[l]) { maxbits = 64 * l + 64 - __builtin_clzll(or_[l]); break; }          \
            const size_t cap = msm_batch_cap(nbk);                                               \
            for (int w = 0; w < x.nwin; w++) {                                                   \
                int room = maxbits - w * x.c; /* bits of k >> off */                             \
                if (room > x.c - 2) continue;                                                    \
                size_t used = room <= 0 ? 1 : ((size_t)1 << room);                               \
                if (used < 4 * cap) {                                                            \
                    x.xyzz_from = w;                                                             \
                    x.nbx = used;                                                                \
                    break;                                                                       \
                }                                                                                \
            }                                                                                    \
        }                                                                                        \
        x.scratch = calloc((size_t)nth, sizeof *x.scratch);                                      \
        x.partial = malloc(x.ntasks * sizeof(G##_xyzz));                                         \
        int ok = x.scratch && x.partial;                                                         \
        for (int t = 0; ok && t < nth; t++) {                                                    \
            if (x.xyzz) {                                                                        \
                x.scratch[t].bx = malloc(nbk * sizeof(G##_xyzz));                                \
                ok = x.scratch[t].bx != NULL;                                                    \
            } else {                                                                             \
                /* per thread 2^(c-1) * (affine + 1) + cap * (2 affine + 2 F + 8) bytes: below   \
                 * the 2^(c-1) XYZZ points of the per-point method (cap <= 2^(c-1) / 4) */       \
                G##_msm_scratch *s_ = &x.scratch[t];                                             \
                size_t cap = msm_batch_cap(nbk);                                                 \
                s_->bk = malloc(nbk * sizeof(G##_affine));                                       \
                s_->state = malloc(nbk);                                                         \
                s_->bq = malloc(2 * cap * sizeof(G##_affine));                                   \
                s_->den = malloc(2 * cap * sizeof(F));                                           \
                s_->bj = malloc(2 * cap * sizeof(uint32_t));                                     \
                if (x.xyzz_from < x.nwin) s_->bx = malloc(x.nbx * sizeof(G##_xyzz));              \
                ok = s_->bk && s_->state && s_->bq && s_->den && s_->bj &&                       \
                     (x.xyzz_from == x.nwin || s_->bx);                                          \
                /* the 8-lane flush where the field and the CPU allow it (else NULL: scalar) */  \
                const msm52_field *vf_ = (VEC);                                                  \
                if (ok && vec_ && vf_ && sizeof(F) == 32 && sizeof(G##_affine) == 64)              \
                    s_->vscratch = aligned_alloc(64, (msm52_scratch_bytes(cap) + 63) / 64 * 64); \
                if (ok) {                                                                        \
                    s_->wq = s_->bq + cap;                                                       \
                    s_->pre = s_->den + cap;                                                     \
                    s_->wj = s_->bj + cap;                                                       \
                }                                                                                \
            }                                                                                    \
        }                                                                                        \
        if (!ok) {                                                                               \
            G##_msm_scratch_free(x.scratch, nth);                                                \
            free(x.partial);                                                                     \
            G##_msm_naive(out, bases, scalars, n);                                               \
            return;                                                                              \
        }                                                                                        \
        parallel_for((size_t)nth, nth, G##_msm_worker, &x);                                      \
        G##_msm_combine(out, x.partial, x.nwin, x.nchunks, x.c);                                 \
        G##_msm_scratch_free(x.scratch, nth);                                                    \
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
        G##_msm_with(out, bases, scalars, n, nthreads, NULL);                                    \
    }                                                                                            \
    void G##_msm_with(G##_jacobian *out, const G##_affine *bases, const scalar256 *scalars,      \
                      size_t n, int nthreads, const msm_opts *opts) {                            \
        const int xyzz = opts ? (int)opts->accum : MSM_ACCUM_AUTO; /* the accumulation */         \
        size_t n_01 = 0;                                                                         \
        for (size_t i = 0; i < n; i++) n_01 += scalar_is_zero(&scalars[i]) || scalar_is_one(&scalars[i]); \
        if (n_01 < n / 8 + 1) {                                                                  \
            G##_msm_pippenger(out, bases, scalars, n, nthreads, xyzz);                                 \
            return;                                                                              \
        }                                                                                        \
        if (nthreads <= 0) nthreads = cuzk_num_threads();                                        \
        size_t n_rest = n - n_01;                                                                \
        G##_affine *rb = malloc((n_rest ? n_rest : 1) * sizeof *rb);                             \
        scalar256 *rs = malloc((n_rest ? n_rest : 1) * sizeof *rs);                              \
        G##_xyzz *part = malloc((size_t)nthreads * sizeof *part);                                \
        if (!rb || !rs || !part) {                                                               \
            free(rb); free(rs); free(part);                                                      \
            G##_msm_pippenger(out, bases, scalars, n, nthreads, xyzz);                                 \
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
        G##_msm_pippenger(out, rb, rs, n_rest, nthreads, xyzz);                                        \
        G##_xyzz ones;                                                                           \
        G##_xyzz_set_infinity(&ones);                                                            \
        for (int t = 0; t < nthreads; t++) G##_xyzz_add(&ones, &ones, &part[t]);                 \
        G##_jacobian oj;                                                                         \
        G##_xyzz_to_jacobian(&oj, &ones);                                                        \
        G##_jacobian_add(out, out, &oj);                                                         \
        free(rb); free(rs); free(part);                                                          \
    }

