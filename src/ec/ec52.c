/* Point checks eight at a time (interface: src/ec/ec52.h). */
#include "ec/ec52.h"

#include "ff/mont_x86.h"
#include "ff/vec52.h"

#ifdef FF_VEC52

bool ec52_usable(const uint64_t p[4]) { return ff_vec52_enabled && p && (p[0] & 1) && !(p[3] >> 63) && p[3]; }


/* lanes whose value (any 256-bit integer in normalized 52-bit limbs) is < p */
V52_INLINE __mmask8 lt_p(const v52 *a, const v52_mod *M) {
    __m512i d = _mm512_setzero_si512();
    for (int i = 0; i < 5; i++) d = _mm512_add_epi64(_mm512_sub_epi64(a->l[i], M->p[i]), _mm512_srai_epi64(d, 52));
    return _mm512_cmplt_epi64_mask(d, _mm512_setzero_si512());
}
/* lanes whose coordinates are not canonical are replaced by 0 for the arithmetic */
V52_INLINE __mmask8 canon_or_zero(v52 *a, const v52_mod *M) {
    __mmask8 ok = lt_p(a, M);
    for (int i = 0; i < 5; i++) a->l[i] = _mm512_maskz_mov_epi64(ok, a->l[i]);
    return ok;
}

V52_TARGET size_t ec52_g1_prefix_ok(const uint64_t (*pts)[8], size_t n, const uint64_t p[4], const uint64_t b[4]) {
    v52_mod M;
    v52_mod_init(&M, p, v52_inv64(p));
    v52 B;
    v52_bcast4(&B, b);
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        __m512i rows[8], c[8];
        for (int l = 0; l < 8; l++) rows[l] = _mm512_loadu_si512(pts[i + l]);
        v52_transpose8(c, rows);
        v52 x, y, l, r;
        v52_from64(&x, c[0], c[1], c[2], c[3]);
        v52_from64(&y, c[4], c[5], c[6], c[7]);
        __mmask8 ok = canon_or_zero(&x, &M) & canon_or_zero(&y, &M);
        const __mmask8 inf = v52_is_zero(&x) & v52_is_zero(&y);
        v52_mulr(&l, &y, &y, &M);
        v52_mulr(&r, &x, &x, &M);
        v52_mulr(&r, &r, &x, &M);
        v52_add(&r, &r, &B, &M);
        ok &= inf | v52_eq(&l, &r);
        if (ok != 0xff) return i + (size_t)__builtin_ctz((unsigned)(uint8_t)~ok);
    }
    return i;
}

/* Fp2 = Fp[u]/(u^2 + 1) */
V52_INLINE void f2_mul(v52 r[2], const v52 a[2], const v52 b[2], const v52_mod *M) {
    v52 t0, t1, t2, t3;
    v52_mulr(&t0, &a[0], &b[0], M);
    v52_mulr(&t1, &a[1], &b[1], M);
    v52_mulr(&t2, &a[0], &b[1], M);
    v52_mulr(&t3, &a[1], &b[0], M);
    v52_sub(&r[0], &t0, &t1, M);
    v52_add(&r[1], &t2, &t3, M);
}
V52_INLINE void f2_sqr(v52 r[2], const v52 a[2], const v52_mod *M) {
    v52 s, d, m;
    v52_add(&s, &a[0], &a[1], M);
    v52_sub(&d, &a[0], &a[1], M);
    v52_mulr(&m, &a[0], &a[1], M);
    v52_mulr(&r[0], &s, &d, M);
    v52_add(&r[1], &m, &m, M);
}

V52_TARGET size_t ec52_g2_prefix_ok(const uint64_t (*pts)[16], size_t n, const uint64_t p[4], const uint64_t b[8]) {
    v52_mod M;
    v52_mod_init(&M, p, v52_inv64(p));
    v52 B[2];
    v52_bcast4(&B[0], b);
    v52_bcast4(&B[1], b + 4);
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        __m512i rx[8], ry[8], cx[8], cy[8];
        for (int l = 0; l < 8; l++) {
            rx[l] = _mm512_loadu_si512(pts[i + l]);
            ry[l] = _mm512_loadu_si512(pts[i + l] + 8);
        }
        v52_transpose8(cx, rx);
        v52_transpose8(cy, ry);
        v52 x[2], y[2], l[2], r[2];
        v52_from64(&x[0], cx[0], cx[1], cx[2], cx[3]);
        v52_from64(&x[1], cx[4], cx[5], cx[6], cx[7]);
        v52_from64(&y[0], cy[0], cy[1], cy[2], cy[3]);
        v52_from64(&y[1], cy[4], cy[5], cy[6], cy[7]);
        __mmask8 ok = canon_or_zero(&x[0], &M) & canon_or_zero(&x[1], &M) & canon_or_zero(&y[0], &M) &
                      canon_or_zero(&y[1], &M);
        const __mmask8 inf = v52_is_zero(&x[0]) & v52_is_zero(&x[1]) & v52_is_zero(&y[0]) & v52_is_zero(&y[1]);
        f2_sqr(l, y, &M);
        f2_sqr(r, x, &M);
        f2_mul(r, r, x, &M);
        v52_add(&r[0], &r[0], &B[0], &M);
        v52_add(&r[1], &r[1], &B[1], &M);
        ok &= inf | (v52_eq(&l[0], &r[0]) & v52_eq(&l[1], &r[1]));
        if (ok != 0xff) return i + (size_t)__builtin_ctz((unsigned)(uint8_t)~ok);
    }
    return i;
}

#else

bool ec52_usable(const uint64_t p[4]) { (void)p; return false; }
size_t ec52_g1_prefix_ok(const uint64_t (*pts)[8], size_t n, const uint64_t p[4], const uint64_t b[4]) {
    (void)pts; (void)n; (void)p; (void)b;
    return 0;
}
size_t ec52_g2_prefix_ok(const uint64_t (*pts)[16], size_t n, const uint64_t p[4], const uint64_t b[8]) {
    (void)pts; (void)n; (void)p; (void)b;
    return 0;
}

#endif
