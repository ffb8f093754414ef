/* Eight field elements at a time: Montgomery arithmetic in radix 2^52 on AVX-512 IFMA, for odd
 * moduli of four 64-bit limbs below 2^255 (BN254's Fp and Fr, BLS12-381's Fr).
 *
 * Representation. A v52 holds 8 elements, one per 64-bit lane, as 5 limb vectors: element k is
 * sum_i l[i][k] * 2^(52 i), every limb < 2^52 ("normalized"). The values are the same integers as
 * the scalar code's (src/ff/field.h: x*R mod m with R = 2^256, canonical, 0 <= v < m), only split
 * differently: v52_from64 / v52_to64 convert between 4 limbs of 64 bits and 5 of 52, both ways
 * exact for any value < 2^256.
 *
 * The product. v52_mul(a, b) = a * b * 2^-260 mod m (Montgomery with R' = 2^260: five rounds of
 * 52-bit reduction, CIOS order; VPMADD52LUQ / VPMADD52HUQ give the low and high 52 bits of a
 * 52 x 52-bit product added to a 64-bit lane). Because the scalar code's R is 2^256, not 2^260,
 * a product of two data values would lose a factor 16; so the callers keep every *constant*
 * (twiddles, scale factors) in R'-form, c' = c * 2^260 mod m (v52_to_rprime, or 16 modular
 * doublings of the R-form value), and multiply data by constants:
 *     v52_mul(x*2^256, c*2^260) = (x c) * 2^256 mod m        (R-form data stays R-form)
 *     v52_mul(c*2^260, d*2^260) = (c d) * 2^260 mod m        (constants stay constants)
 * Bounds: for a, b < m < 2^255 the Montgomery sum is < a b / 2^260 + m < 2m, and one conditional
 * subtraction leaves it canonical: every function here takes and returns canonical values.
 *
 * Availability. Everything here is compiled for AVX-512F + IFMA through target attributes (the
 * rest of the build needs no -m flags) and must only run where ff_vec52_enabled is true: the CPU
 * reports AVX512F and AVX512IFMA (CPUID leaf 7), the OS saves the ZMM state (XCR0), and neither
 * CUZK_NO_ASM (all asm off) nor CUZK_NO_IFMA (only this off) is set to a value other than "0"
 * (src/ff/mont_x86.c). ff_force_generic(true) and ff_force_scalar(true) clear it.
 * Callers test ff_vec52_enabled once per call of a whole transform and fall back to the scalar
 * code, which gives bit-identical results (tests/test_ntt.c compares the two).
 * Thread-safety: pure functions.
 * Source of the technique: S. Gueron and V. Krasnov, "Accelerating Big Integer Arithmetic Using
 * Intel IFMA Extensions" (ARITH 2016); the CIOS order is Koc, Acar and Kaliski (IEEE Micro 1996).
 */
#ifndef CUZK_FF_VEC52_H
#define CUZK_FF_VEC52_H

#include <stdbool.h>
#include <stdint.h>

#include "ff/mont_x86.h"

/* -m^-1 mod 2^64 for an odd m (Newton: each step doubles the correct low bits, 6 reach 64) */
static inline uint64_t v52_inv64(const uint64_t m[4]) {
    uint64_t x = 1;
    for (int i = 0; i < 6; i++) x *= 2 - m[0] * x;
    return (uint64_t)0 - x;
}

#ifdef MONT_X86
#define FF_VEC52 1
#include <immintrin.h>

#ifdef __cplusplus
extern "C" {
#endif

/* true where the 8-lane code may run (see above); written before main and by ff_force_generic */
extern bool ff_vec52_enabled;

#ifdef __cplusplus
}
#endif

#define V52_TARGET __attribute__((target("avx512f,avx512ifma")))
#define V52_INLINE static inline __attribute__((always_inline, target("avx512f,avx512ifma")))
#define V52_MASK52 ((1ull << 52) - 1)

/* 8 elements, limb vectors l[0] (bits 0..51) .. l[4] (bits 208..259) */
typedef struct { __m512i l[5]; } v52;

/* a modulus broadcast to every lane: its 5 limbs and -m^-1 mod 2^52 */
typedef struct {
    __m512i p[5];
    __m512i p2[5]; /* 2m */
    __m512i pinv;
} v52_mod;

/* M for the modulus m (4 limbs, odd, < 2^255); inv64 = -m^-1 mod 2^64 (the field's P_INV). */
V52_INLINE void v52_mod_init(v52_mod *M, const uint64_t m[4], uint64_t inv64) {
    M->p[0] = _mm512_set1_epi64((long long)(m[0] & V52_MASK52));
    M->p[1] = _mm512_set1_epi64((long long)(((m[0] >> 52) | (m[1] << 12)) & V52_MASK52));
    M->p[2] = _mm512_set1_epi64((long long)(((m[1] >> 40) | (m[2] << 24)) & V52_MASK52));
    M->p[3] = _mm512_set1_epi64((long long)(((m[2] >> 28) | (m[3] << 36)) & V52_MASK52));
    M->p[4] = _mm512_set1_epi64((long long)(m[3] >> 16));
    M->pinv = _mm512_set1_epi64((long long)(inv64 & V52_MASK52));
    uint64_t m2[5], c = 0, limb[5];
    limb[0] = m[0] & V52_MASK52;
    limb[1] = ((m[0] >> 52) | (m[1] << 12)) & V52_MASK52;
    limb[2] = ((m[1] >> 40) | (m[2] << 24)) & V52_MASK52;
    limb[3] = ((m[2] >> 28) | (m[3] << 36)) & V52_MASK52;
    limb[4] = m[3] >> 16;
    for (int i = 0; i < 5; i++) {
        uint64_t v = 2 * limb[i] + c;
        m2[i] = i < 4 ? v & V52_MASK52 : v;
        c = v >> 52;
    }
    for (int i = 0; i < 5; i++) M->p2[i] = _mm512_set1_epi64((long long)m2[i]);
}

/* 4 limb vectors of 64 bits (lane k: limbs of element k) -> 5 of 52 bits, and back. */
V52_INLINE void v52_from64(v52 *r, __m512i l0, __m512i l1, __m512i l2, __m512i l3) {
    const __m512i M = _mm512_set1_epi64((long long)V52_MASK52);
    r->l[0] = _mm512_and_si512(l0, M);
    r->l[1] = _mm512_and_si512(_mm512_or_si512(_mm512_srli_epi64(l0, 52), _mm512_slli_epi64(l1, 12)), M);
    r->l[2] = _mm512_and_si512(_mm512_or_si512(_mm512_srli_epi64(l1, 40), _mm512_slli_epi64(l2, 24)), M);
    r->l[3] = _mm512_and_si512(_mm512_or_si512(_mm512_srli_epi64(l2, 28), _mm512_slli_epi64(l3, 36)), M);
    r->l[4] = _mm512_srli_epi64(l3, 16);
}
V52_INLINE void v52_to64(__m512i out[4], const v52 *a) {
    out[0] = _mm512_or_si512(a->l[0], _mm512_slli_epi64(a->l[1], 52));
    out[1] = _mm512_or_si512(_mm512_srli_epi64(a->l[1], 12), _mm512_slli_epi64(a->l[2], 40));
    out[2] = _mm512_or_si512(_mm512_srli_epi64(a->l[2], 24), _mm512_slli_epi64(a->l[3], 28));
    out[3] = _mm512_or_si512(_mm512_srli_epi64(a->l[3], 36), _mm512_slli_epi64(a->l[4], 16));
}

/* 8 consecutive elements of 4 limbs each (256 bytes) <-> 4 limb vectors (lane k: element k's
 * limb j in vector j): a transpose of 8 x 4 limbs by two rounds of two-source permutes. */
V52_INLINE void v52_aos_to_limbs(__m512i L[4], const uint64_t *src) {
    const __m512i z0 = _mm512_loadu_si512(src), z1 = _mm512_loadu_si512(src + 8);
    const __m512i z2 = _mm512_loadu_si512(src + 16), z3 = _mm512_loadu_si512(src + 24);
    const __m512i i01 = _mm512_set_epi64(13, 9, 5, 1, 12, 8, 4, 0);  /* limbs 0, 1 of 4 elements */
    const __m512i i23 = _mm512_set_epi64(15, 11, 7, 3, 14, 10, 6, 2); /* limbs 2, 3 */
    const __m512i u0 = _mm512_permutex2var_epi64(z0, i01, z1), u1 = _mm512_permutex2var_epi64(z0, i23, z1);
    const __m512i u2 = _mm512_permutex2var_epi64(z2, i01, z3), u3 = _mm512_permutex2var_epi64(z2, i23, z3);
    const __m512i lo = _mm512_set_epi64(11, 10, 9, 8, 3, 2, 1, 0), hi = _mm512_set_epi64(15, 14, 13, 12, 7, 6, 5, 4);
    L[0] = _mm512_permutex2var_epi64(u0, lo, u2);
    L[1] = _mm512_permutex2var_epi64(u0, hi, u2);
    L[2] = _mm512_permutex2var_epi64(u1, lo, u3);
    L[3] = _mm512_permutex2var_epi64(u1, hi, u3);
}
V52_INLINE void v52_limbs_to_aos(uint64_t *dst, const __m512i L[4]) {
    /* L[j] lane k = limb j of element k -> element e's 4 limbs at dst + 4e */
    const __m512i i0 = _mm512_set_epi64(11, 3, 10, 2, 9, 1, 8, 0); /* (L0, L1) of elements 0-3 */
    const __m512i i1 = _mm512_set_epi64(15, 7, 14, 6, 13, 5, 12, 4); /* elements 4-7 */
    const __m512i a01 = _mm512_permutex2var_epi64(L[0], i0, L[1]); /* e0l0 e0l1 e1l0 e1l1 e2.. e3.. */
    const __m512i b01 = _mm512_permutex2var_epi64(L[0], i1, L[1]); /* e4..e7 */
    const __m512i a23 = _mm512_permutex2var_epi64(L[2], i0, L[3]);
    const __m512i b23 = _mm512_permutex2var_epi64(L[2], i1, L[3]);
    const __m512i j0 = _mm512_set_epi64(11, 10, 3, 2, 9, 8, 1, 0), j1 = _mm512_set_epi64(15, 14, 7, 6, 13, 12, 5, 4);
    _mm512_storeu_si512(dst, _mm512_permutex2var_epi64(a01, j0, a23));
    _mm512_storeu_si512(dst + 8, _mm512_permutex2var_epi64(a01, j1, a23));
    _mm512_storeu_si512(dst + 16, _mm512_permutex2var_epi64(b01, j0, b23));
    _mm512_storeu_si512(dst + 24, _mm512_permutex2var_epi64(b01, j1, b23));
}
/* 8 consecutive elements (AoS, any alignment) <-> a v52 */
V52_INLINE void v52_load_aos(v52 *r, const uint64_t *src) {
    __m512i L[4];
    v52_aos_to_limbs(L, src);
    v52_from64(r, L[0], L[1], L[2], L[3]);
}
V52_INLINE void v52_store_aos(uint64_t *dst, const v52 *a) {
    __m512i L[4];
    v52_to64(L, a);
    v52_limbs_to_aos(dst, L);
}

/* 8 x 8 qwords: c[j] lane l = r[l] lane j (its own inverse) */
V52_INLINE void v52_transpose8(__m512i c[8], const __m512i r[8]) {
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

/* r = t if t < q else t - q, for normalized limbs t0..t3 and t4 < 2^52 holding a value < 2q;
 * q = m (P = M->p) or q = 2m (P = M->p2) */
V52_INLINE void v52_csub_q_(v52 *r, __m512i t0, __m512i t1, __m512i t2, __m512i t3, __m512i t4, const __m512i *P) {
    const __m512i K = _mm512_set1_epi64((long long)V52_MASK52);
    __m512i d0 = _mm512_sub_epi64(t0, P[0]);
    __m512i d1 = _mm512_add_epi64(_mm512_sub_epi64(t1, P[1]), _mm512_srai_epi64(d0, 52));
    __m512i d2 = _mm512_add_epi64(_mm512_sub_epi64(t2, P[2]), _mm512_srai_epi64(d1, 52));
    __m512i d3 = _mm512_add_epi64(_mm512_sub_epi64(t3, P[3]), _mm512_srai_epi64(d2, 52));
    __m512i d4 = _mm512_add_epi64(_mm512_sub_epi64(t4, P[4]), _mm512_srai_epi64(d3, 52));
    const __mmask8 keep = _mm512_cmplt_epi64_mask(d4, _mm512_setzero_si512()); /* t - q < 0: keep t */
    r->l[0] = _mm512_mask_blend_epi64(keep, _mm512_and_si512(d0, K), t0);
    r->l[1] = _mm512_mask_blend_epi64(keep, _mm512_and_si512(d1, K), t1);
    r->l[2] = _mm512_mask_blend_epi64(keep, _mm512_and_si512(d2, K), t2);
    r->l[3] = _mm512_mask_blend_epi64(keep, _mm512_and_si512(d3, K), t3);
    r->l[4] = _mm512_mask_blend_epi64(keep, d4, t4);
}
V52_INLINE void v52_csub_(v52 *r, __m512i t0, __m512i t1, __m512i t2, __m512i t3, __m512i t4,
                          const v52_mod *M) {
    v52_csub_q_(r, t0, t1, t2, t3, t4, M->p);
}

/* s = a + b, normalized (no reduction; a + b < 2^260) */
V52_INLINE void v52_add_raw_(__m512i s[5], const v52 *a, const v52 *b) {
    const __m512i K = _mm512_set1_epi64((long long)V52_MASK52);
    __m512i c = _mm512_setzero_si512();
    for (int i = 0; i < 5; i++) {
        __m512i v = _mm512_add_epi64(_mm512_add_epi64(a->l[i], b->l[i]), c);
        c = _mm512_srli_epi64(v, 52);
        s[i] = i < 4 ? _mm512_and_si512(v, K) : v;
    }
}

/* r = a + b mod m (canonical in, canonical out; r may alias) */
V52_INLINE void v52_add(v52 *r, const v52 *a, const v52 *b, const v52_mod *M) {
    __m512i s[5];
    v52_add_raw_(s, a, b);
    v52_csub_q_(r, s[0], s[1], s[2], s[3], s[4], M->p);
}

/* r = a - b, plus q where negative (q = m: P = M->p; q = 2m: P = M->p2): d = a - b with signed
 * carries, e = d + q, and e where d < 0. For a, b in [0, q): r in [0, q). r may alias. */
V52_INLINE void v52_sub_q_(v52 *r, const v52 *a, const v52 *b, const __m512i *P) {
    const __m512i K = _mm512_set1_epi64((long long)V52_MASK52);
    __m512i d[5], e[5];
    __m512i c = _mm512_setzero_si512();
    for (int i = 0; i < 5; i++) {
        __m512i v = _mm512_add_epi64(_mm512_sub_epi64(a->l[i], b->l[i]), c);
        c = _mm512_srai_epi64(v, 52);
        d[i] = i < 4 ? _mm512_and_si512(v, K) : v;
    }
    const __mmask8 neg = _mm512_cmplt_epi64_mask(d[4], _mm512_setzero_si512());
    c = _mm512_setzero_si512();
    for (int i = 0; i < 5; i++) {
        __m512i v = _mm512_add_epi64(_mm512_add_epi64(d[i], P[i]), c);
        c = _mm512_srli_epi64(v, 52);
        e[i] = i < 4 ? _mm512_and_si512(v, K) : v;
    }
    for (int i = 0; i < 5; i++) r->l[i] = _mm512_mask_blend_epi64(neg, d[i], e[i]);
}

/* r = a - b mod m (canonical in, canonical out; r may alias) */
V52_INLINE void v52_sub(v52 *r, const v52 *a, const v52 *b, const v52_mod *M) { v52_sub_q_(r, a, b, M->p); }

/* The Montgomery product a * b * 2^-260 mod m, before its final subtraction: < a b 2^-260 + m.
 * canon: subtract m once where needed (the result < m when it was < 2m). */
V52_INLINE void v52_mont_(v52 *r, const v52 *a, const v52 *b, const v52_mod *M, bool canon) {
    const __m512i Z = _mm512_setzero_si512(), K = _mm512_set1_epi64((long long)V52_MASK52);
    __m512i t0 = Z, t1 = Z, t2 = Z, t3 = Z, t4 = Z, t5;
#pragma GCC unroll 5
    for (int i = 0; i < 5; i++) {
        const __m512i bi = b->l[i];
        t5 = Z;
        t0 = _mm512_madd52lo_epu64(t0, a->l[0], bi);
        t1 = _mm512_madd52lo_epu64(t1, a->l[1], bi);
        t2 = _mm512_madd52lo_epu64(t2, a->l[2], bi);
        t3 = _mm512_madd52lo_epu64(t3, a->l[3], bi);
        t4 = _mm512_madd52lo_epu64(t4, a->l[4], bi);
        t1 = _mm512_madd52hi_epu64(t1, a->l[0], bi);
        t2 = _mm512_madd52hi_epu64(t2, a->l[1], bi);
        t3 = _mm512_madd52hi_epu64(t3, a->l[2], bi);
        t4 = _mm512_madd52hi_epu64(t4, a->l[3], bi);
        t5 = _mm512_madd52hi_epu64(t5, a->l[4], bi);
        const __m512i q = _mm512_madd52lo_epu64(Z, t0, M->pinv); /* t0 * (-m^-1) mod 2^52 */
        t0 = _mm512_madd52lo_epu64(t0, q, M->p[0]);
        t1 = _mm512_madd52lo_epu64(t1, q, M->p[1]);
        t2 = _mm512_madd52lo_epu64(t2, q, M->p[2]);
        t3 = _mm512_madd52lo_epu64(t3, q, M->p[3]);
        t4 = _mm512_madd52lo_epu64(t4, q, M->p[4]);
        t1 = _mm512_madd52hi_epu64(t1, q, M->p[0]);
        t2 = _mm512_madd52hi_epu64(t2, q, M->p[1]);
        t3 = _mm512_madd52hi_epu64(t3, q, M->p[2]);
        t4 = _mm512_madd52hi_epu64(t4, q, M->p[3]);
        t5 = _mm512_madd52hi_epu64(t5, q, M->p[4]);
        /* t0 is now a multiple of 2^52: its carry moves up, the accumulator shifts one limb */
        t0 = _mm512_add_epi64(t1, _mm512_srli_epi64(t0, 52));
        t1 = t2;
        t2 = t3;
        t3 = t4;
        t4 = t5;
    }
    /* normalize (every lane < 2^57 here; the value is < 2m < 2^256) */
    t1 = _mm512_add_epi64(t1, _mm512_srli_epi64(t0, 52));
    t2 = _mm512_add_epi64(t2, _mm512_srli_epi64(t1, 52));
    t3 = _mm512_add_epi64(t3, _mm512_srli_epi64(t2, 52));
    t4 = _mm512_add_epi64(t4, _mm512_srli_epi64(t3, 52));
    if (canon) {
        v52_csub_(r, _mm512_and_si512(t0, K), _mm512_and_si512(t1, K), _mm512_and_si512(t2, K),
                  _mm512_and_si512(t3, K), t4, M);
    } else {
        r->l[0] = _mm512_and_si512(t0, K);
        r->l[1] = _mm512_and_si512(t1, K);
        r->l[2] = _mm512_and_si512(t2, K);
        r->l[3] = _mm512_and_si512(t3, K);
        r->l[4] = t4;
    }
}

/* r = a * b * 2^-260 mod m, canonical (a, b canonical; r may alias). */
V52_INLINE void v52_mul(v52 *r, const v52 *a, const v52 *b, const v52_mod *M) { v52_mont_(r, a, b, M, true); }

/* ---- lazy reduction: values in [0, 2m) --------------------------------------------------------
 * For m < 2^254 (BN254's Fp and Fr, 2^253.6): with a < 32m and b < 2m the Montgomery sum is
 * < 64 m^2 / 2^260 + m < 2m (1.76m for BN254), so v52_mul_lazy keeps [0, 2m) when one operand
 * is a value of [0, 2m) shifted left by 4 bits (the callers' 2^-256 product) or below 2m itself.
 * Callers check the bound on m (v52_lazy_ok) and canonicalize with v52_canon before a value
 * leaves. */
static inline bool v52_lazy_ok(const uint64_t m[4]) { return m[3] < (1ull << 62); /* m < 2^254 */ }
V52_INLINE void v52_mul_lazy(v52 *r, const v52 *a, const v52 *b, const v52_mod *M) { v52_mont_(r, a, b, M, false); }

/* r = 16 a as an integer (a < 2^256: the limbs move 4 bits up; a < 2m < 2^255 fits 260 bits):
 * v52_mul(v52_shl4(a), b) = a b 2^-256 mod m, the scalar code's Montgomery product */
V52_INLINE void v52_shl4(v52 *r, const v52 *a) {
    const __m512i K = _mm512_set1_epi64((long long)V52_MASK52);
    __m512i p = _mm512_setzero_si512();
    for (int i = 0; i < 5; i++) {
        __m512i v = _mm512_or_si512(_mm512_slli_epi64(a->l[i], 4), _mm512_srli_epi64(p, 48));
        p = a->l[i];
        r->l[i] = i < 4 ? _mm512_and_si512(v, K) : v;
    }
}

/* r = a b 2^-256 mod m: the scalar code's Montgomery product (a, b canonical, r canonical) */
V52_INLINE void v52_mulr(v52 *r, const v52 *a, const v52 *b, const v52_mod *M) {
    v52 a16;
    v52_shl4(&a16, a);
    v52_mul(r, &a16, b, M);
}

/* lanes whose value is 0 (normalized limbs), lanes where a = b, r = k ? b : a per lane */
V52_INLINE __mmask8 v52_is_zero(const v52 *a) {
    __m512i o = _mm512_or_si512(_mm512_or_si512(a->l[0], a->l[1]), _mm512_or_si512(a->l[2], a->l[3]));
    return _mm512_cmpeq_epi64_mask(_mm512_or_si512(o, a->l[4]), _mm512_setzero_si512());
}
V52_INLINE __mmask8 v52_eq(const v52 *a, const v52 *b) {
    __mmask8 k = 0xff;
    for (int i = 0; i < 5; i++) k &= _mm512_cmpeq_epi64_mask(a->l[i], b->l[i]);
    return k;
}
V52_INLINE void v52_blend(v52 *r, __mmask8 k, const v52 *a, const v52 *b) {
    for (int i = 0; i < 5; i++) r->l[i] = _mm512_mask_blend_epi64(k, a->l[i], b->l[i]);
}
/* every lane = v (4 limbs of 64 bits) */
V52_INLINE void v52_bcast4(v52 *r, const uint64_t v[4]) {
    v52_from64(r, _mm512_set1_epi64((long long)v[0]), _mm512_set1_epi64((long long)v[1]),
               _mm512_set1_epi64((long long)v[2]), _mm512_set1_epi64((long long)v[3]));
}

/* [0, 2m) -> [0, m) */
V52_INLINE void v52_canon(v52 *r, const v52 *a, const v52_mod *M) {
    v52_csub_(r, a->l[0], a->l[1], a->l[2], a->l[3], a->l[4], M);
}

/* r = a + b mod m with a, b in [0, 2m): a + b, less 2m where >= 2m; in [0, 2m) (m < 2^255) */
V52_INLINE void v52_add_lazy(v52 *r, const v52 *a, const v52 *b, const v52_mod *M) {
    __m512i s[5];
    v52_add_raw_(s, a, b);
    v52_csub_q_(r, s[0], s[1], s[2], s[3], s[4], M->p2);
}

/* r = a - b mod m with a, b in [0, 2m): a - b, plus 2m where negative; in [0, 2m) */
V52_INLINE void v52_sub_lazy(v52 *r, const v52 *a, const v52 *b, const v52_mod *M) { v52_sub_q_(r, a, b, M->p2); }

#endif /* MONT_X86 */
#endif
