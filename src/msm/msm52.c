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
    return ff_vec52_enabled && f && f->p && (f->p[0] & 1) && v52_lazy_ok(f->p) && f->p[3] != 0;
}


V52_INLINE void ld(v52 *v, const uint64_t *b) {
    for (int i = 0; i < 5; i++) v->l[i] = _mm512_load_si512(b + 8 * i);
}
V52_INLINE void st(uint64_t *b, const v52 *v) {
    for (int i = 0; i < 5; i++) _mm512_store_si512(b + 8 * i, v->l[i]);
}

/* 8 affine points (rows of 8 qwords: x, y) -> x and y as v52 */
V52_INLINE void points_in(v52 *x, v52 *y, const __m512i rows[8]) {
    __m512i c[8];
    v52_transpose8(c, rows);
    v52_from64(x, c[0], c[1], c[2], c[3]);
    v52_from64(y, c[4], c[5], c[6], c[7]);
}
V52_INLINE void points_out(__m512i rows[8], const v52 *x, const v52 *y) {
    __m512i c[8];
    v52_to64(c, x);
    v52_to64(c + 4, y);
    v52_transpose8(rows, c);
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
    const uint64_t inv = v52_inv64(f->p);
    v52_mod M;
    v52_mod_init(&M, f->p, inv);
    uint64_t *pre = (uint64_t *)(((uintptr_t)scratch + 63) & ~(uintptr_t)63);
    const size_t K = (n + 7) / 8;

    /* Values in [0, 2p) between products (v52_mul_lazy, v52_sub_lazy: src/ff/vec52.h), each
     * product's first operand shifted once for all its uses; canonical where a value leaves. */
    /* 1. two chains of prefix products per lane: pre_k = pre_(k-2) den_k */
    for (size_t k = 0; k < K; k++) {
        v52 D;
        load_den(&D, den, k, n, f->one);
        if (k >= 2) {
            v52 P;
            ld(&P, pre + (k - 2) * BLK);
            v52_shl4(&P, &P);
            v52_mul_lazy(&D, &P, &D, &M);
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
        v52_canon(&E, &E, &M);
        v52_store_aos(tmp[0], &E);
        memcpy(e[(K - 1) & 1 ? 8 : 0], tmp, sizeof tmp);
        if (K >= 2) {
            ld(&E, pre + (K - 2) * BLK);
            v52_canon(&E, &E, &M);
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
            v52 P, D, Is;
            ld(&P, pre + (k - 2) * BLK);
            load_den(&D, den, k, n, f->one);
            v52_shl4(&Is, Ic);
            v52_mul_lazy(&d, &Is, &P, &M);
            v52_mul_lazy(Ic, &Is, &D, &M);
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
        v52_sub_lazy(&t, &y2, &y1, &M);
        v52_shl4(&t, &t);
        v52_mul_lazy(&lam, &t, &d, &M); /* (y2 - y1) / (x2 - x1) */
        v52 ls;
        v52_shl4(&ls, &lam);
        v52_mul_lazy(&x3, &ls, &lam, &M);
        v52_sub_lazy(&x3, &x3, &x1, &M);
        v52_sub_lazy(&x3, &x3, &x2, &M); /* lam^2 - x1 - x2 */
        v52_sub_lazy(&t, &x1, &x3, &M);
        v52_mul_lazy(&y3, &ls, &t, &M);
        v52_sub_lazy(&y3, &y3, &y1, &M); /* lam (x1 - x3) - y1 */
        v52_canon(&x3, &x3, &M);
        v52_canon(&y3, &y3, &M);
        points_out(rb, &x3, &y3);
        for (size_t l = 0; l < nl; l++) _mm512_storeu_si512(bk[bj[8 * k + l]], rb[l]);
    }
}

/* ---- the bucket sums ------------------------------------------------------------------------ */


/* 8 XYZZ points, one per lane, and which lanes are the point at infinity */
typedef struct {
    v52 x, y, zz, zzz;
    __mmask8 inf;
} xyzz8;

/* the lanes of k of P take (x, y, zz, zzz) */
V52_INLINE void xyzz8_take(xyzz8 *P, __mmask8 k, const v52 *x, const v52 *y, const v52 *zz, const v52 *zzz) {
    v52_blend(&P->x, k, &P->x, x);
    v52_blend(&P->y, k, &P->y, y);
    v52_blend(&P->zz, k, &P->zz, zz);
    v52_blend(&P->zzz, k, &P->zzz, zzz);
}

/* lane l of P <-> a scalar XYZZ (4 fields of 4 limbs) */
V52_INLINE void lane_get(msm52_xyzz *o, const xyzz8 *P, int l) {
    uint64_t t[8][4];
    const v52 *f[4] = {&P->x, &P->y, &P->zz, &P->zzz};
    uint64_t *d[4] = {o->x, o->y, o->zz, o->zzz};
    for (int k = 0; k < 4; k++) {
        v52_store_aos(t[0], f[k]);
        memcpy(d[k], t[l], 32);
    }
}
V52_INLINE void lane_set(xyzz8 *P, int l, const msm52_xyzz *o) {
    uint64_t t[8][4];
    v52 *f[4] = {&P->x, &P->y, &P->zz, &P->zzz};
    const uint64_t *d[4] = {o->x, o->y, o->zz, o->zzz};
    for (int k = 0; k < 4; k++) {
        v52_store_aos(t[0], f[k]);
        memcpy(t[l], d[k], 32);
        v52_load_aos(f[k], t[0]);
    }
    const bool inf = (o->zz[0] | o->zz[1] | o->zz[2] | o->zz[3]) == 0;
    P->inf = inf ? (__mmask8)(P->inf | (1u << l)) : (__mmask8)(P->inf & ~(1u << l));
}

/* The x and y of an XYZZ addition (add-2008-s, as src/ec/curve_impl.h) from P = U2 - U1 and
 * R = S2 - S1: PP = P^2, PPP = P PP, Q = U1 PP, X3 = R^2 - PPP - 2Q, Y3 = R (Q - X3) - S1 PPP;
 * PP and PPP are returned for ZZ3 and ZZZ3. */
V52_INLINE void xyzz_xy_(v52 *X3, v52 *Y3, v52 *PP, v52 *PPP, const v52 *P, const v52 *R, const v52 *U1,
                         const v52 *S1, const v52_mod *M) {
    v52 Q, t;
    v52_mulr(PP, P, P, M);
    v52_mulr(PPP, P, PP, M);
    v52_mulr(&Q, U1, PP, M);
    v52_mulr(X3, R, R, M);
    v52_sub(X3, X3, PPP, M);
    v52_sub(X3, X3, &Q, M);
    v52_sub(X3, X3, &Q, M);
    v52_sub(&t, &Q, X3, M);
    v52_mulr(Y3, R, &t, M);
    v52_mulr(&t, S1, PPP, M);
    v52_sub(Y3, Y3, &t, M);
}

/* R += Q (affine x, y) in the lanes of `has`; lanes where R is infinity take (x, y, 1, 1); lanes
 * where R = +-Q go through the scalar add_mixed */
V52_INLINE void add_mixed8(xyzz8 *R, const v52 *x, const v52 *y, __mmask8 has, const v52 *one, const v52_mod *M,
                           const msm52_field *f, const uint64_t *const src[8]) {
    v52 u2, s2, P, Rr, PP, PPP, X3, Y3, ZZ3, ZZZ3;
    v52_mulr(&u2, x, &R->zz, M);
    v52_mulr(&s2, y, &R->zzz, M);
    v52_sub(&P, &u2, &R->x, M);
    v52_sub(&Rr, &s2, &R->y, M);
    xyzz_xy_(&X3, &Y3, &PP, &PPP, &P, &Rr, &R->x, &R->y, M);
    v52_mulr(&ZZ3, &R->zz, &PP, M);
    v52_mulr(&ZZZ3, &R->zzz, &PPP, M);
    const __mmask8 set = has & R->inf, odd = has & (__mmask8)~R->inf & v52_is_zero(&P);
    const __mmask8 add = has & (__mmask8)~R->inf & (__mmask8)~odd; /* odd lanes: scalar, below */
    xyzz8_take(R, add, &X3, &Y3, &ZZ3, &ZZZ3);
    xyzz8_take(R, set, x, y, one, one);
    R->inf &= (__mmask8)~set;
    for (int l = 0; odd && l < 8; l++) {
        if (!(odd & (1u << l))) continue;
        msm52_xyzz r;
        lane_get(&r, R, l);
        f->add_mixed(&r, &r, src[l]);
        lane_set(R, l, &r);
    }
}

/* S += R in every lane where R is not infinity (S infinity: S = R; S = +-R: the scalar add) */
V52_INLINE void add8(xyzz8 *S, const xyzz8 *R, const v52_mod *M, const msm52_field *f) {
    v52 u1, u2, s1, s2, P, Rr, PP, PPP, X3, Y3, ZZ3, ZZZ3;
    v52_mulr(&u1, &S->x, &R->zz, M);
    v52_mulr(&u2, &R->x, &S->zz, M);
    v52_mulr(&s1, &S->y, &R->zzz, M);
    v52_mulr(&s2, &R->y, &S->zzz, M);
    v52_sub(&P, &u2, &u1, M);
    v52_sub(&Rr, &s2, &s1, M);
    xyzz_xy_(&X3, &Y3, &PP, &PPP, &P, &Rr, &u1, &s1, M);
    v52_mulr(&ZZ3, &S->zz, &R->zz, M);
    v52_mulr(&ZZ3, &ZZ3, &PP, M);
    v52_mulr(&ZZZ3, &S->zzz, &R->zzz, M);
    v52_mulr(&ZZZ3, &ZZZ3, &PPP, M);
    const __mmask8 live = (__mmask8)~R->inf;
    const __mmask8 set = live & S->inf, odd = live & (__mmask8)~S->inf & v52_is_zero(&P);
    const __mmask8 add = live & (__mmask8)~S->inf & (__mmask8)~odd; /* odd lanes: scalar, below */
    xyzz8_take(S, add, &X3, &Y3, &ZZ3, &ZZZ3);
    xyzz8_take(S, set, &R->x, &R->y, &R->zz, &R->zzz);
    S->inf &= (__mmask8)~set;
    for (int l = 0; odd && l < 8; l++) {
        if (!(odd & (1u << l))) continue;
        msm52_xyzz a, b;
        lane_get(&a, S, l);
        lane_get(&b, R, l);
        f->add(&a, &a, &b);
        lane_set(S, l, &a);
    }
}

V52_INLINE void lanes_out(msm52_xyzz out[8], const xyzz8 *P, const msm52_field *f) {
    uint64_t t[4][8][4];
    const v52 *src[4] = {&P->x, &P->y, &P->zz, &P->zzz};
    for (int k = 0; k < 4; k++) v52_store_aos(t[k][0], src[k]);
    for (int l = 0; l < 8; l++) {
        if (P->inf & (1u << l)) { /* the scalar code's infinity: (1, 1, 0, 0) */
            memcpy(out[l].x, f->one, 32);
            memcpy(out[l].y, f->one, 32);
            memset(out[l].zz, 0, 32);
            memset(out[l].zzz, 0, 32);
            continue;
        }
        memcpy(out[l].x, t[0][l], 32);
        memcpy(out[l].y, t[1][l], 32);
        memcpy(out[l].zz, t[2][l], 32);
        memcpy(out[l].zzz, t[3][l], 32);
    }
}

V52_TARGET bool msm52_bucket_sums(msm52_xyzz run[8], msm52_xyzz sum[8], const uint64_t (*bk)[8],
                                  const uint8_t *state, size_t nb, const msm52_field *f) {
    if (nb < 64 || nb % 8 || !f->add || !f->add_mixed) return false;
    const size_t S = nb / 8;
    v52_mod M;
    v52_mod_init(&M, f->p, v52_inv64(f->p));
    v52 one;
    v52_bcast4(&one, f->one);
    xyzz8 R, Sm;
    R.x = R.y = R.zz = R.zzz = one;
    Sm = R;
    R.inf = Sm.inf = 0xff;
    static const uint64_t zero_row[8] = {0};
    for (size_t t = S; t-- > 0;) {
        __m512i rows[8];
        const uint64_t *src[8];
        __mmask8 has = 0;
        for (int l = 0; l < 8; l++) {
            size_t j = (size_t)l * S + t;
            if (state[j]) {
                has |= (__mmask8)(1u << l);
                src[l] = bk[j];
            } else {
                src[l] = zero_row;
            }
            rows[l] = _mm512_loadu_si512(src[l]);
        }
        if (has) {
            v52 x, y;
            points_in(&x, &y, rows);
            add_mixed8(&R, &x, &y, has, &one, &M, f, src);
        }
        add8(&Sm, &R, &M, f);
    }
    lanes_out(run, &R, f);
    lanes_out(sum, &Sm, f);
    return true;
}

/* ---- 8 windows of one point into XYZZ buckets ------------------------------------------------ */

V52_TARGET void msm52_xyzz_add8(msm52_xyzz *const b[8], unsigned active, unsigned neg, const uint64_t p[8],
                                const msm52_field *f) {
    if (!(active & 0xff)) return;
    v52_mod M;
    v52_mod_init(&M, f->p, v52_inv64(f->p));
    v52 one, x, y, ny;
    v52_bcast4(&one, f->one);
    v52_bcast4(&x, p);
    v52_bcast4(&y, p + 4);
    const v52 zero = {{_mm512_setzero_si512(), _mm512_setzero_si512(), _mm512_setzero_si512(), _mm512_setzero_si512(),
                       _mm512_setzero_si512()}};
    v52_sub(&ny, &zero, &y, &M);
    v52_blend(&y, (__mmask8)neg, &y, &ny); /* lane l: (-1)^neg_l y */
    static const uint64_t zero_row[16] = {0};
    __m512i lo[8], hi[8], c[8];
    for (int l = 0; l < 8; l++) {
        const uint64_t *src = (active >> l) & 1 ? b[l]->x : zero_row; /* x y zz zzz: 16 limbs */
        lo[l] = _mm512_loadu_si512(src);
        hi[l] = _mm512_loadu_si512(src + 8);
    }
    xyzz8 R;
    v52_transpose8(c, lo);
    v52_from64(&R.x, c[0], c[1], c[2], c[3]);
    v52_from64(&R.y, c[4], c[5], c[6], c[7]);
    v52_transpose8(c, hi);
    v52_from64(&R.zz, c[0], c[1], c[2], c[3]);
    v52_from64(&R.zzz, c[4], c[5], c[6], c[7]);
    R.inf = v52_is_zero(&R.zz); /* the scalar code's infinity: ZZ = 0 */
    /* the mixed addition of add_mixed8 without its fallback: the exceptional lanes are done in
     * memory by the scalar code after the store */
    v52 u2, s2, P, Rr, PP, PPP, X3, Y3, ZZ3, ZZZ3;
    v52_mulr(&u2, &x, &R.zz, &M);
    v52_mulr(&s2, &y, &R.zzz, &M);
    v52_sub(&P, &u2, &R.x, &M);
    v52_sub(&Rr, &s2, &R.y, &M);
    xyzz_xy_(&X3, &Y3, &PP, &PPP, &P, &Rr, &R.x, &R.y, &M);
    v52_mulr(&ZZ3, &R.zz, &PP, &M);
    v52_mulr(&ZZZ3, &R.zzz, &PPP, &M);
    const __mmask8 act = (__mmask8)active, set = act & R.inf, odd = act & (__mmask8)~R.inf & v52_is_zero(&P);
    const __mmask8 add = act & (__mmask8)~R.inf & (__mmask8)~odd;
    xyzz8_take(&R, add, &X3, &Y3, &ZZ3, &ZZZ3);
    xyzz8_take(&R, set, &x, &y, &one, &one);
    const __mmask8 out = set | add;
    v52_to64(c, &R.x);
    v52_to64(c + 4, &R.y);
    v52_transpose8(lo, c);
    v52_to64(c, &R.zz);
    v52_to64(c + 4, &R.zzz);
    v52_transpose8(hi, c);
    for (int l = 0; l < 8; l++) {
        if ((out >> l) & 1) {
            _mm512_storeu_si512(b[l]->x, lo[l]);
            _mm512_storeu_si512(b[l]->zz, hi[l]);
        } else if ((odd >> l) & 1) { /* the bucket is +-P: doubling or infinity */
            uint64_t q[8];
            memcpy(q, p, 64);
            if ((neg >> l) & 1) {
                uint64_t t[8][4];
                v52_store_aos(t[0], &y);
                memcpy(q + 4, t[l], 32);
            }
            f->add_mixed(b[l], b[l], q);
        }
    }
}

#else

bool msm52_usable(const msm52_field *f) { (void)f; return false; }
void msm52_batch_add(uint64_t (*bk)[8], const uint32_t *bj, const uint64_t (*bq)[8], const uint64_t (*den)[4],
                     size_t n, const msm52_field *f, void *scratch) {
    (void)bk; (void)bj; (void)bq; (void)den; (void)n; (void)f; (void)scratch;
}
bool msm52_bucket_sums(msm52_xyzz run[8], msm52_xyzz sum[8], const uint64_t (*bk)[8], const uint8_t *state,
                       size_t nb, const msm52_field *f) {
    (void)run; (void)sum; (void)bk; (void)state; (void)nb; (void)f;
    return false;
}
void msm52_xyzz_add8(msm52_xyzz *const b[8], unsigned active, unsigned neg, const uint64_t p[8],
                     const msm52_field *f) {
    (void)b; (void)active; (void)neg; (void)p; (void)f;
}

#endif
