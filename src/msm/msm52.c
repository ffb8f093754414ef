/* The MSM's batch of affine additions eight at a time (interface: src/msm/msm52.h). */
#include "msm/msm52.h"

#include <string.h>

#include "ff/mont.h"
#include "ff/mont_x86.h"
#include "ff/vec52.h"

#define BLK 40 /* uint64_t per block of 8 values: 5 limb vectors */

size_t msm52_scratch_bytes(size_t n) { return (n + 7) / 8 * BLK * sizeof(uint64_t) + 64; }

#ifdef FF_VEC52

bool msm52_usable(const msm52_field *f) {
    return ff_vec52_enabled && f && f->p && (f->p[0] & 1) && !(f->p[3] >> 63) && f->p[3] != 0;
}

static uint64_t inv64_of(const uint64_t p[4]) {
    uint64_t x = 1;
    for (int i = 0; i < 6; i++) x *= 2 - p[0] * x;
    return (uint64_t)0 - x;
}

/* a * 16 as an integer (a < 2^255: fits 5 limbs of 52 bits) */
V52_INLINE void shl4(v52 *r, const v52 *a) {
    const __m512i K = _mm512_set1_epi64((long long)V52_MASK52);
    __m512i p = _mm512_setzero_si512();
    for (int i = 0; i < 5; i++) {
        __m512i v = _mm512_or_si512(_mm512_slli_epi64(a->l[i], 4), _mm512_srli_epi64(p, 48));
        p = a->l[i];
        r->l[i] = i < 4 ? _mm512_and_si512(v, K) : v;
    }
}

/* r = a b 2^-256 mod p: the scalar Montgomery product */
V52_INLINE void mulr(v52 *r, const v52 *a, const v52 *b, const v52_mod *M) {
    v52 a16;
    shl4(&a16, a);
    v52_mul(r, &a16, b, M);
}

V52_INLINE void ld(v52 *v, const uint64_t *b) {
    for (int i = 0; i < 5; i++) v->l[i] = _mm512_load_si512(b + 8 * i);
}
V52_INLINE void st(uint64_t *b, const v52 *v) {
    for (int i = 0; i < 5; i++) _mm512_store_si512(b + 8 * i, v->l[i]);
}

/* 8 x 8 qwords: c[j] lane l = r[l] lane j (its own inverse) */
V52_INLINE void transpose8(__m512i c[8], const __m512i r[8]) {
    __m512i t[8], u[8];
    for (int i = 0; i < 4; i++) {
        t[2 * i] = _mm512_unpacklo_epi64(r[2 * i], r[2 * i + 1]);     /* r0[0] r1[0] r0[2] r1[2] .. */
        t[2 * i + 1] = _mm512_unpackhi_epi64(r[2 * i], r[2 * i + 1]); /* r0[1] r1[1] r0[3] r1[3] .. */
    }
    const __m512i a = _mm512_set_epi64(13, 12, 5, 4, 9, 8, 1, 0), b = _mm512_set_epi64(15, 14, 7, 6, 11, 10, 3, 2);
    for (int h = 0; h < 2; h++) {
        /* rows 4h..4h+3: u[4h+0] = column 0/4, u[4h+1] = 2/6, u[4h+2] = 1/5, u[4h+3] = 3/7 */
        u[4 * h + 0] = _mm512_permutex2var_epi64(t[4 * h], a, t[4 * h + 2]);
        u[4 * h + 1] = _mm512_permutex2var_epi64(t[4 * h], b, t[4 * h + 2]);
        u[4 * h + 2] = _mm512_permutex2var_epi64(t[4 * h + 1], a, t[4 * h + 3]);
        u[4 * h + 3] = _mm512_permutex2var_epi64(t[4 * h + 1], b, t[4 * h + 3]);
    }
    const __m512i lo = _mm512_set_epi64(11, 10, 9, 8, 3, 2, 1, 0), hi = _mm512_set_epi64(15, 14, 13, 12, 7, 6, 5, 4);
    c[0] = _mm512_permutex2var_epi64(u[0], lo, u[4]);
    c[4] = _mm512_permutex2var_epi64(u[0], hi, u[4]);
    c[2] = _mm512_permutex2var_epi64(u[1], lo, u[5]);
    c[6] = _mm512_permutex2var_epi64(u[1], hi, u[5]);
    c[1] = _mm512_permutex2var_epi64(u[2], lo, u[6]);
    c[5] = _mm512_permutex2var_epi64(u[2], hi, u[6]);
    c[3] = _mm512_permutex2var_epi64(u[3], lo, u[7]);
    c[7] = _mm512_permutex2var_epi64(u[3], hi, u[7]);
}

/* 8 affine points (rows of 8 qwords: x, y) -> x and y as v52 */
V52_INLINE void points_in(v52 *x, v52 *y, const __m512i rows[8]) {
    __m512i c[8];
    transpose8(c, rows);
    v52_from64(x, c[0], c[1], c[2], c[3]);
    v52_from64(y, c[4], c[5], c[6], c[7]);
}
V52_INLINE void points_out(__m512i rows[8], const v52 *x, const v52 *y) {
    __m512i c[8];
    v52_to64(c, x);
    v52_to64(c + 4, y);
    transpose8(rows, c);
}

/* group k's 8 denominators (lanes past n: 1) */
V52_INLINE void load_den(v52 *D, const uint64_t (*den)[4], size_t k, size_t n, const uint64_t one[4]) {
    if (8 * k + 8 <= n) {
        v52_load_aos(D, den[8 * k]);
        return;
    }
    uint64_t tmp[8][4];
    for (size_t l = 0; l < 8; l++) memcpy(tmp[l], 8 * k + l < n ? den[8 * k + l] : one, 32);
    v52_load_aos(D, tmp[0]);
}

V52_TARGET void msm52_batch_add(uint64_t (*bk)[8], const uint32_t *bj, const uint64_t (*bq)[8],
                                const uint64_t (*den)[4], size_t n, const msm52_field *f, void *scratch) {
    if (!n) return;
    const uint64_t inv = inv64_of(f->p);
    v52_mod M;
    v52_mod_init(&M, f->p, inv);
    uint64_t *pre = (uint64_t *)(((uintptr_t)scratch + 63) & ~(uintptr_t)63);
    const size_t K = (n + 7) / 8;

    /* 1. two chains of prefix products per lane: pre_k = pre_(k-2) den_k */
    for (size_t k = 0; k < K; k++) {
        v52 D;
        load_den(&D, den, k, n, f->one);
        if (k >= 2) {
            v52 P;
            ld(&P, pre + (k - 2) * BLK);
            mulr(&D, &P, &D, &M);
        }
        st(pre + k * BLK, &D);
    }

    /* 2. the (up to) 16 chain products, inverted with one scalar inversion */
    uint64_t e[16][4], pp[16][4];
    const int nc = K >= 2 ? 16 : 8;
    {
        uint64_t tmp[8][4];
        v52 E;
        ld(&E, pre + (K - 1) * BLK);
        v52_store_aos(tmp[0], &E);
        memcpy(e[(K - 1) & 1 ? 8 : 0], tmp, sizeof tmp);
        if (K >= 2) {
            ld(&E, pre + (K - 2) * BLK);
            v52_store_aos(tmp[0], &E);
            memcpy(e[(K - 2) & 1 ? 8 : 0], tmp, sizeof tmp);
        }
    }
    memcpy(pp[0], e[0], 32);
    for (int i = 1; i < nc; i++) mont_mul_auto(pp[i], pp[i - 1], e[i], f->p, inv, 4);
    uint64_t acc[4], einv[16][4];
    mont_inv_vartime(acc, pp[nc - 1], f->p, f->r2, inv, 4);
    for (int i = nc - 1; i > 0; i--) {
        mont_mul_auto(einv[i], acc, pp[i - 1], f->p, inv, 4);
        mont_mul_auto(acc, acc, e[i], f->p, inv, 4);
    }
    memcpy(einv[0], acc, 32);
    v52 I[2];
    v52_load_aos(&I[0], einv[0]);
    if (nc == 16) v52_load_aos(&I[1], einv[8]);

    /* 3. back from the last group: d_k = I pre_(k-2), I *= den_k; then the 8 additions */
    for (size_t k = K; k-- > 0;) {
        v52 *Ic = &I[k & 1], d;
        if (k >= 2) {
            v52 P, D;
            ld(&P, pre + (k - 2) * BLK);
            mulr(&d, Ic, &P, &M);
            load_den(&D, den, k, n, f->one);
            mulr(Ic, Ic, &D, &M);
        } else {
            d = *Ic;
        }
        const size_t nl = n - 8 * k < 8 ? n - 8 * k : 8;
        __m512i rb[8], rq[8];
        for (size_t l = 0; l < 8; l++) {
            size_t i = 8 * k + (l < nl ? l : 0);
            rb[l] = _mm512_loadu_si512(bk[bj[i]]);
            rq[l] = _mm512_loadu_si512(bq[i]);
        }
        v52 x1, y1, x2, y2, t, lam, x3, y3;
        points_in(&x1, &y1, rb);
        points_in(&x2, &y2, rq);
        v52_sub(&t, &y2, &y1, &M);
        mulr(&lam, &t, &d, &M);   /* (y2 - y1) / (x2 - x1) */
        mulr(&x3, &lam, &lam, &M);
        v52_sub(&x3, &x3, &x1, &M);
        v52_sub(&x3, &x3, &x2, &M); /* lam^2 - x1 - x2 */
        v52_sub(&t, &x1, &x3, &M);
        mulr(&y3, &lam, &t, &M);
        v52_sub(&y3, &y3, &y1, &M); /* lam (x1 - x3) - y1 */
        points_out(rb, &x3, &y3);
        for (size_t l = 0; l < nl; l++) _mm512_storeu_si512(bk[bj[8 * k + l]], rb[l]);
    }
}

#else

bool msm52_usable(const msm52_field *f) { (void)f; return false; }
void msm52_batch_add(uint64_t (*bk)[8], const uint32_t *bj, const uint64_t (*bq)[8], const uint64_t (*den)[4],
                     size_t n, const msm52_field *f, void *scratch) {
    (void)bk; (void)bj; (void)bq; (void)den; (void)n; (void)f; (void)scratch;
}

#endif
