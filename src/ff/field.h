/* Typed prime fields on top of src/ff/mont.h.
 *
 * FF_DECLARE(F, N, PREFIX) declares, for the parameter set PREFIX_{MODULUS,INV,R,R2,BITS}
 * (for example src/curves/bls12_381/constants.h), the type `F` = struct { uint64_t l[N]; } holding an element in
 * Montgomery form (x*R mod m, R = 2^(64N)), little-endian limbs, and these operations:
 *
 *   inline:  F_zero F_one F_is_zero F_is_one F_eq F_add F_sub F_neg F_dbl F_mul F_sqr
 *            F_from_canon (limbs of an integer < m -> Montgomery)  F_to_canon (Montgomery -> limbs)
 *            F_from_u64
 *   out of line (FF_DEFINE in a .c file):
 *            F_inv (0 -> 0), F_inv_vartime (the same, variable time: public values only),
 *            F_pow_vartime, F_legendre (1 residue, -1 non-residue, 0 zero),
 *            F_from_bytes_le / _be (canonical check: false if the integer is >= m),
 *            F_to_bytes_le / _be (nbytes = 8N bytes, or fewer if the value fits),
 *            F_from_bytes_wide_le (any bytes reduced mod m), F_mod (integer limbs of any value
 *            < 2^(64N) reduced mod m, stays canonical),
 *            F_is_lexicographically_largest (canonical value > (m-1)/2: zcash flag 0x20)
 *   square roots (false when a is not a square; *r unspecified then), one of:
 *            FF_DEFINE_SQRT_3MOD4(F, N): m = 3 mod 4, r = a^((m+1)/4);
 *            FF_DEFINE_SQRT_TS(F, N, P): Tonelli-Shanks with P_TWO_ADICITY and the quadratic
 *            non-residue P_SQRT_NONRESIDUE (a small integer).
 *
 * Every field (Fp, Fr of every curve) is one instantiation of this code: curves differ in
 * parameters only. Thread-safety: pure functions.
 */
#ifndef CUZK_FF_FIELD_H
#define CUZK_FF_FIELD_H

#include "ff/mont.h"
#include "ff/mont_x86.h"
#include <stddef.h>

#define FF_DECLARE(F, N, P)                                                                     \
    typedef struct F { uint64_t l[N]; } F;                                                      \
    static const uint64_t F##_MODULUS[N] = P##_MODULUS;                                         \
    static const uint64_t F##_R_[N] = P##_R;                                                    \
    static const uint64_t F##_R2_[N] = P##_R2;                                                  \
    enum { F##_LIMBS = N, F##_BYTES = 8 * N, F##_BITS = P##_BITS };                             \
    MONT_INLINE void F##_zero(F *r) { memset(r, 0, sizeof *r); }                                \
    MONT_INLINE void F##_one(F *r) { memcpy(r->l, F##_R_, sizeof r->l); }                       \
    MONT_INLINE bool F##_is_zero(const F *a) { return mont_is_zero(a->l, N); }                  \
    MONT_INLINE bool F##_is_one(const F *a) { return mont_eq(a->l, F##_R_, N); }                \
    MONT_INLINE bool F##_eq(const F *a, const F *b) { return mont_eq(a->l, b->l, N); }          \
    MONT_INLINE void F##_add(F *r, const F *a, const F *b) { mont_add_auto(r->l, a->l, b->l, F##_MODULUS, N); } \
    MONT_INLINE void F##_sub(F *r, const F *a, const F *b) { mont_sub_auto(r->l, a->l, b->l, F##_MODULUS, N); } \
    MONT_INLINE void F##_dbl(F *r, const F *a) { mont_add_auto(r->l, a->l, a->l, F##_MODULUS, N); }  \
    MONT_INLINE void F##_neg(F *r, const F *a) { /* 0 - a mod m: 0 stays 0 */                  \
        static const uint64_t z_[N] = {0};                                                      \
        mont_sub_auto(r->l, z_, a->l, F##_MODULUS, N);                                          \
    }                                                                                           \
    /* mul/sqr: x86-64 asm when the CPU has BMI2+ADX (src/ff/mont_x86.h), else generic C */    \
    MONT_INLINE void F##_mul(F *r, const F *a, const F *b) {                                    \
        mont_mul_auto(r->l, a->l, b->l, F##_MODULUS, P##_INV, N);                               \
    }                                                                                           \
    MONT_INLINE void F##_sqr(F *r, const F *a) { mont_sqr_auto(r->l, a->l, F##_MODULUS, P##_INV, N); } \
    /* canonical integer limbs (< m) -> Montgomery */                                            \
    MONT_INLINE void F##_from_canon(F *r, const uint64_t a[N]) {                                \
        mont_mul_auto(r->l, a, F##_R2_, F##_MODULUS, P##_INV, N);                               \
    }                                                                                           \
    /* Montgomery -> canonical integer limbs */                                                  \
    MONT_INLINE void F##_to_canon(uint64_t r[N], const F *a) {                                  \
        uint64_t one_[N] = {1};                                                                 \
        mont_mul_auto(r, a->l, one_, F##_MODULUS, P##_INV, N);                                  \
    }                                                                                           \
    MONT_INLINE void F##_from_u64(F *r, uint64_t v) {                                           \
        uint64_t t_[N] = {v};                                                                   \
        F##_from_canon(r, t_);                                                                  \
    }                                                                                           \
    MONT_INLINE bool F##_is_canon(const uint64_t a[N]) { return mont_lt(a, F##_MODULUS, N); }  \
    void F##_inv(F *r, const F *a);                                                             \
    /* a^-1 (0 -> 0) in variable time (binary extended Euclid, src/ff/mont.h): public values only */ \
    void F##_inv_vartime(F *r, const F *a);                                                     \
    void F##_pow_vartime(F *r, const F *a, const uint64_t *e, int e_limbs);                     \
    int F##_legendre(const F *a);                                                               \
    bool F##_from_bytes_le(F *r, const uint8_t *in, size_t nbytes);                             \
    bool F##_from_bytes_be(F *r, const uint8_t *in, size_t nbytes);                             \
    void F##_to_bytes_le(uint8_t *out, size_t nbytes, const F *a);                              \
    void F##_to_bytes_be(uint8_t *out, size_t nbytes, const F *a);                              \
    void F##_from_bytes_wide_le(F *r, const uint8_t *in, size_t nbytes);                        \
    void F##_mod(uint64_t r[N], const uint64_t a[N]);                                           \
    bool F##_is_lexicographically_largest(const F *a);                                          \
    bool F##_sqrt(F *r, const F *a);

/* Out-of-line part; use once per field in a .c file. */
#define FF_DEFINE(F, N, P)                                                                      \
    /* square-and-multiply from the top bit (as mont_pow_vartime), through F_mul / F_sqr */     \
    void F##_pow_vartime(F *r, const F *a, const uint64_t *e, int e_limbs) {                    \
        F acc_, base_ = *a;                                                                     \
        F##_one(&acc_);                                                                         \
        int top_ = e_limbs * 64 - 1;                                                            \
        while (top_ >= 0 && !((e[top_ / 64] >> (top_ % 64)) & 1)) top_--;                      \
        for (int i = top_; i >= 0; i--) {                                                       \
            F##_sqr(&acc_, &acc_);                                                              \
            if ((e[i / 64] >> (i % 64)) & 1) F##_mul(&acc_, &acc_, &base_);                     \
        }                                                                                       \
        *r = acc_;                                                                              \
    }                                                                                           \
    /* Fermat: a^(m-2). Variable time only in the public exponent. */                           \
    void F##_inv(F *r, const F *a) {                                                            \
        uint64_t e_[N];                                                                         \
        memcpy(e_, F##_MODULUS, sizeof e_);                                                     \
        e_[0] -= 2; /* m is odd and > 2: no borrow */                                           \
        F##_pow_vartime(r, a, e_, N);                                                           \
    }                                                                                           \
    void F##_inv_vartime(F *r, const F *a) {                                                    \
        mont_inv_vartime(r->l, a->l, F##_MODULUS, F##_R2_, P##_INV, N);                         \
    }                                                                                           \
    /* Euler's criterion: a^((m-1)/2) */                                                        \
    int F##_legendre(const F *a) {                                                              \
        if (F##_is_zero(a)) return 0;                                                           \
        uint64_t e_[N];                                                                         \
        memcpy(e_, F##_MODULUS, sizeof e_);                                                     \
        e_[0] -= 1;                                                                             \
        for (int i = 0; i < N; i++) e_[i] = (e_[i] >> 1) | (i + 1 < N ? e_[i + 1] << 63 : 0);   \
        F t_;                                                                                   \
        F##_pow_vartime(&t_, a, e_, N);                                                         \
        return F##_is_one(&t_) ? 1 : -1;                                                        \
    }                                                                                           \
    static bool F##_load_canon_(F *r, const uint64_t *t_) {                                     \
        if (!F##_is_canon(t_)) return false;                                                    \
        F##_from_canon(r, t_);                                                                  \
        return true;                                                                            \
    }                                                                                           \
    bool F##_from_bytes_le(F *r, const uint8_t *in, size_t nbytes) {                            \
        uint64_t t_[N] = {0};                                                                   \
        for (size_t i = 0; i < nbytes; i++) {                                                   \
            if (i >= 8 * N) { if (in[i]) return false; continue; }                              \
            t_[i / 8] |= (uint64_t)in[i] << (8 * (i % 8));                                      \
        }                                                                                       \
        return F##_load_canon_(r, t_);                                                          \
    }                                                                                           \
    bool F##_from_bytes_be(F *r, const uint8_t *in, size_t nbytes) {                            \
        uint64_t t_[N] = {0};                                                                   \
        for (size_t i = 0; i < nbytes; i++) {                                                   \
            size_t k = nbytes - 1 - i; /* little-endian byte index */                           \
            if (k >= 8 * N) { if (in[i]) return false; continue; }                              \
            t_[k / 8] |= (uint64_t)in[i] << (8 * (k % 8));                                      \
        }                                                                                       \
        return F##_load_canon_(r, t_);                                                          \
    }                                                                                           \
    void F##_to_bytes_le(uint8_t *out, size_t nbytes, const F *a) {                             \
        uint64_t t_[N];                                                                         \
        F##_to_canon(t_, a);                                                                    \
        for (size_t i = 0; i < nbytes; i++) out[i] = i < 8 * N ? (uint8_t)(t_[i / 8] >> (8 * (i % 8))) : 0; \
    }                                                                                           \
    void F##_to_bytes_be(uint8_t *out, size_t nbytes, const F *a) {                             \
        uint64_t t_[N];                                                                         \
        F##_to_canon(t_, a);                                                                    \
        for (size_t i = 0; i < nbytes; i++) {                                                   \
            size_t k = nbytes - 1 - i;                                                          \
            out[i] = k < 8 * N ? (uint8_t)(t_[k / 8] >> (8 * (k % 8))) : 0;                    \
        }                                                                                       \
    }                                                                                           \
    /* Horner over 64-bit words from the top: acc = acc*2^64 + w. */                            \
    void F##_from_bytes_wide_le(F *r, const uint8_t *in, size_t nbytes) {                       \
        F acc_, w_, base_;                                                                      \
        F##_zero(&acc_);                                                                        \
        uint64_t b_[N] = {0};                                                                   \
        b_[0] = 0; if (N > 1) b_[1] = 1; /* 2^64 */                                             \
        F##_from_canon(&base_, b_);                                                             \
        size_t words = (nbytes + 7) / 8;                                                        \
        for (size_t wi = words; wi-- > 0;) {                                                    \
            uint64_t v = 0;                                                                     \
            for (size_t k = 0; k < 8 && wi * 8 + k < nbytes; k++) v |= (uint64_t)in[wi * 8 + k] << (8 * k); \
            F##_mul(&acc_, &acc_, &base_);                                                      \
            uint64_t t_[N] = {0};                                                               \
            t_[0] = v;                                                                          \
            if (!F##_is_canon(t_)) { F##_mod(t_, t_); }                                         \
            F##_from_canon(&w_, t_);                                                            \
            F##_add(&acc_, &acc_, &w_);                                                         \
        }                                                                                       \
        *r = acc_;                                                                              \
    }                                                                                           \
    /* a mod m for any a < 2^(64N): m has one spare bit, so at most a few subtractions of    */ \
    /* shifted m are needed; simple restoring reduction by repeated subtraction of m<<k.     */ \
    void F##_mod(uint64_t r[N], const uint64_t a[N]) {                                          \
        uint64_t t_[N];                                                                         \
        memcpy(t_, a, sizeof t_);                                                               \
        for (int sh = 64 * N - P##_BITS; sh >= 0; sh--) {                                       \
            uint64_t ms_[N];                                                                    \
            for (int i = 0; i < N; i++) {                                                       \
                uint64_t lo = F##_MODULUS[i] << sh;                                             \
                uint64_t carry = (sh && i > 0) ? F##_MODULUS[i - 1] >> (64 - sh) : 0;           \
                ms_[i] = lo | carry;                                                            \
            }                                                                                   \
            /* if t >= ms: t -= ms */                                                           \
            uint64_t d_[N];                                                                     \
            mont_u128 bw = 0;                                                                   \
            for (int i = 0; i < N; i++) {                                                       \
                mont_u128 d = (mont_u128)t_[i] - ms_[i] - (uint64_t)bw;                         \
                d_[i] = (uint64_t)d;                                                            \
                bw = (d >> 64) & 1;                                                             \
            }                                                                                   \
            if (!bw) memcpy(t_, d_, sizeof t_);                                                 \
        }                                                                                       \
        memcpy(r, t_, sizeof t_);                                                               \
    }                                                                                           \
    /* canonical value > (m-1)/2 */                                                             \
    bool F##_is_lexicographically_largest(const F *a) {                                         \
        uint64_t v_[N], h_[N];                                                                  \
        F##_to_canon(v_, a);                                                                    \
        for (int i = 0; i < N; i++) h_[i] = (F##_MODULUS[i] >> 1) | (i + 1 < N ? F##_MODULUS[i + 1] << 63 : 0); \
        for (int i = N - 1; i >= 0; i--)                                                        \
            if (v_[i] != h_[i]) return v_[i] > h_[i];                                           \
        return false;                                                                           \
    }

/* sqrt for m = 3 mod 4: r = a^((m+1)/4), checked by squaring. */
#define FF_DEFINE_SQRT_3MOD4(F, N)                                                              \
    bool F##_sqrt(F *r, const F *a) {                                                           \
        uint64_t e_[N];                                                                         \
        mont_u128 c_ = 1;                                                                       \
        for (int i = 0; i < N; i++) { c_ += F##_MODULUS[i]; e_[i] = (uint64_t)c_; c_ >>= 64; }  \
        for (int k = 0; k < 2; k++)                                                             \
            for (int i = 0; i < N; i++) e_[i] = (e_[i] >> 1) | (i + 1 < N ? e_[i + 1] << 63 : 0); \
        F x_, x2_;                                                                              \
        F##_pow_vartime(&x_, a, e_, N);                                                         \
        F##_sqr(&x2_, &x_);                                                                     \
        if (!F##_eq(&x2_, a)) return false;                                                     \
        *r = x_;                                                                                \
        return true;                                                                            \
    }

/* Tonelli-Shanks: m - 1 = 2^s t, s = P_TWO_ADICITY, c = z^t for the non-residue
 * z = P_SQRT_NONRESIDUE (order 2^s). */
#define FF_DEFINE_SQRT_TS(F, N, P)                                                              \
    bool F##_sqrt(F *r, const F *a) {                                                           \
        if (F##_is_zero(a)) { F##_zero(r); return true; }                                       \
        if (F##_legendre(a) != 1) return false;                                                 \
        uint64_t t_[N], t1_[N];                                                                 \
        memcpy(t_, F##_MODULUS, sizeof t_);                                                     \
        t_[0] -= 1;                                                                             \
        for (int k = 0; k < P##_TWO_ADICITY; k++)                                               \
            for (int i = 0; i < N; i++) t_[i] = (t_[i] >> 1) | (i + 1 < N ? t_[i + 1] << 63 : 0); \
        mont_u128 c_ = 1; /* t1 = (t + 1)/2 */                                                  \
        for (int i = 0; i < N; i++) { c_ += t_[i]; t1_[i] = (uint64_t)c_; c_ >>= 64; }          \
        for (int i = 0; i < N; i++) t1_[i] = (t1_[i] >> 1) | (i + 1 < N ? t1_[i + 1] << 63 : 0); \
        F z_, cc_, x_, b_, g_;                                                                  \
        F##_from_u64(&g_, P##_SQRT_NONRESIDUE);                                                 \
        F##_pow_vartime(&cc_, &g_, t_, N);  /* order 2^s */                                     \
        F##_pow_vartime(&x_, a, t1_, N);    /* a^((t+1)/2) */                                   \
        F##_pow_vartime(&b_, a, t_, N);     /* a^t */                                           \
        int m_ = P##_TWO_ADICITY;                                                               \
        while (!F##_is_one(&b_)) {                                                              \
            int i = 0;                                                                          \
            F b2_ = b_;                                                                         \
            while (!F##_is_one(&b2_)) { F##_sqr(&b2_, &b2_); i++; if (i >= m_) return false; }  \
            z_ = cc_;                                                                           \
            for (int j = 0; j < m_ - i - 1; j++) F##_sqr(&z_, &z_);                             \
            F##_mul(&x_, &x_, &z_);                                                             \
            F##_sqr(&cc_, &z_);                                                                 \
            F##_mul(&b_, &b_, &cc_);                                                            \
            m_ = i;                                                                             \
        }                                                                                       \
        *r = x_;                                                                                \
        return true;                                                                            \
    }

#endif
