/* Generic Montgomery arithmetic over n 64-bit limbs (n <= 6), little-endian limbs.
 *
 * This is the one implementation behind every prime field in cuzk (BLS12-381 Fp and Fr now,
 * BN254 later): a field is a parameter set {n, modulus, -m^-1 mod 2^64, R mod m, R^2 mod m} and a
 * thin typed wrapper (src/ff/field.h). Every function is `static inline` and meant to be called
 * with a compile-time constant n so the compiler unrolls the limb loops.
 *
 * Requirements: the modulus m is odd and m < 2^(64n - 1) (one spare bit), which holds for every
 * curve cuzk supports; inputs are reduced (< m) unless a function says otherwise.
 * Algorithm: CIOS Montgomery multiplication, Koc, Acar, Kaliski, "Analyzing and Comparing
 * Montgomery Multiplication Algorithms", IEEE Micro 1996.
 * Thread-safety: pure functions.
 */
#ifndef CUZK_FF_MONT_H
#define CUZK_FF_MONT_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#define MONT_MAX_LIMBS 6
#define MONT_INLINE static inline __attribute__((always_inline))

__extension__ typedef unsigned __int128 mont_u128;

/* r = a + b mod m */
MONT_INLINE void mont_add(uint64_t *r, const uint64_t *a, const uint64_t *b, const uint64_t *m, int n) {
    uint64_t t[MONT_MAX_LIMBS], s[MONT_MAX_LIMBS];
    mont_u128 c = 0;
    for (int i = 0; i < n; i++) { c += (mont_u128)a[i] + b[i]; t[i] = (uint64_t)c; c >>= 64; }
    mont_u128 bw = 0;
    for (int i = 0; i < n; i++) {
        mont_u128 d = (mont_u128)t[i] - m[i] - (uint64_t)bw;
        s[i] = (uint64_t)d;
        bw = (d >> 64) & 1;
    }
    /* one spare bit: no carry out of a + b, so t >= m iff no borrow */
    bool ge = ((uint64_t)c != 0) || !bw;
    for (int i = 0; i < n; i++) r[i] = ge ? s[i] : t[i];
}

/* r = a - b mod m */
MONT_INLINE void mont_sub(uint64_t *r, const uint64_t *a, const uint64_t *b, const uint64_t *m, int n) {
    uint64_t t[MONT_MAX_LIMBS];
    mont_u128 bw = 0;
    for (int i = 0; i < n; i++) {
        mont_u128 d = (mont_u128)a[i] - b[i] - (uint64_t)bw;
        t[i] = (uint64_t)d;
        bw = (d >> 64) & 1;
    }
    uint64_t mask = 0 - (uint64_t)bw;
    mont_u128 c = 0;
    for (int i = 0; i < n; i++) { c += (mont_u128)t[i] + (m[i] & mask); r[i] = (uint64_t)c; c >>= 64; }
}

MONT_INLINE bool mont_is_zero(const uint64_t *a, int n) {
    uint64_t acc = 0;
    for (int i = 0; i < n; i++) acc |= a[i];
    return acc == 0;
}

MONT_INLINE bool mont_eq(const uint64_t *a, const uint64_t *b, int n) {
    uint64_t acc = 0;
    for (int i = 0; i < n; i++) acc |= a[i] ^ b[i];
    return acc == 0;
}

/* r = -a mod m */
MONT_INLINE void mont_neg(uint64_t *r, const uint64_t *a, const uint64_t *m, int n) {
    bool z = mont_is_zero(a, n);
    mont_u128 bw = 0;
    uint64_t t[MONT_MAX_LIMBS];
    for (int i = 0; i < n; i++) {
        mont_u128 d = (mont_u128)m[i] - a[i] - (uint64_t)bw;
        t[i] = (uint64_t)d;
        bw = (d >> 64) & 1;
    }
    for (int i = 0; i < n; i++) r[i] = z ? 0 : t[i];
}

/* r = a * b * R^-1 mod m (CIOS). r may alias a or b. */
MONT_INLINE void mont_mul(uint64_t *r, const uint64_t *a, const uint64_t *b, const uint64_t *m,
                          uint64_t inv, int n) {
    uint64_t t[MONT_MAX_LIMBS + 2] = {0};
    for (int i = 0; i < n; i++) {
        mont_u128 c = 0;
        for (int j = 0; j < n; j++) {
            c += (mont_u128)a[j] * b[i] + t[j];
            t[j] = (uint64_t)c;
            c >>= 64;
        }
        c += t[n];
        t[n] = (uint64_t)c;
        t[n + 1] = (uint64_t)(c >> 64);
        uint64_t q = t[0] * inv;
        c = (mont_u128)q * m[0] + t[0];
        c >>= 64;
        for (int j = 1; j < n; j++) {
            c += (mont_u128)q * m[j] + t[j];
            t[j - 1] = (uint64_t)c;
            c >>= 64;
        }
        c += t[n];
        t[n - 1] = (uint64_t)c;
        t[n] = t[n + 1] + (uint64_t)(c >> 64);
    }
    uint64_t s[MONT_MAX_LIMBS];
    mont_u128 bw = 0;
    for (int i = 0; i < n; i++) {
        mont_u128 d = (mont_u128)t[i] - m[i] - (uint64_t)bw;
        s[i] = (uint64_t)d;
        bw = (d >> 64) & 1;
    }
    bool ge = t[n] != 0 || !bw;
    for (int i = 0; i < n; i++) r[i] = ge ? s[i] : t[i];
}

/* r = a^2 * R^-1 mod m: the off-diagonal products once, doubled, plus the squares, then a
 * separate Montgomery reduction of the 2n-limb product. */
MONT_INLINE void mont_sqr(uint64_t *r, const uint64_t *a, const uint64_t *m, uint64_t inv, int n) {
    uint64_t t[2 * MONT_MAX_LIMBS + 1] = {0};
    for (int i = 0; i < n; i++) {
        mont_u128 c = 0;
        for (int j = i + 1; j < n; j++) {
            c += (mont_u128)a[i] * a[j] + t[i + j];
            t[i + j] = (uint64_t)c;
            c >>= 64;
        }
        t[i + n] = (uint64_t)c;
    }
    /* double */
    uint64_t top = 0;
    for (int i = 0; i < 2 * n; i++) {
        uint64_t v = t[i];
        t[i] = (v << 1) | top;
        top = v >> 63;
    }
    /* add squares */
    mont_u128 c = 0;
    for (int i = 0; i < n; i++) {
        mont_u128 sq = (mont_u128)a[i] * a[i];
        c += (mont_u128)t[2 * i] + (uint64_t)sq;
        t[2 * i] = (uint64_t)c;
        c >>= 64;
        c += (mont_u128)t[2 * i + 1] + (uint64_t)(sq >> 64);
        t[2 * i + 1] = (uint64_t)c;
        c >>= 64;
    }
    /* reduce: n rounds of adding q*m at position i */
    uint64_t hi = 0; /* carry beyond t[2n-1] */
    for (int i = 0; i < n; i++) {
        uint64_t q = t[i] * inv;
        mont_u128 cc = 0;
        for (int j = 0; j < n; j++) {
            cc += (mont_u128)q * m[j] + t[i + j];
            t[i + j] = (uint64_t)cc;
            cc >>= 64;
        }
        for (int k = i + n; k < 2 * n && cc; k++) {
            cc += t[k];
            t[k] = (uint64_t)cc;
            cc >>= 64;
        }
        hi += (uint64_t)cc;
    }
    uint64_t s[MONT_MAX_LIMBS];
    mont_u128 bw = 0;
    for (int i = 0; i < n; i++) {
        mont_u128 d = (mont_u128)t[n + i] - m[i] - (uint64_t)bw;
        s[i] = (uint64_t)d;
        bw = (d >> 64) & 1;
    }
    bool ge = hi != 0 || !bw;
    for (int i = 0; i < n; i++) r[i] = ge ? s[i] : t[n + i];
}

/* a < m as integers */
MONT_INLINE bool mont_lt(const uint64_t *a, const uint64_t *m, int n) {
    for (int i = n - 1; i >= 0; i--) {
        if (a[i] != m[i]) return a[i] < m[i];
    }
    return false;
}

/* x = x / 2 mod m for x < m, m odd and m < 2^(64n - 1) (so x + m fits in n limbs) */
MONT_INLINE void mont_half_(uint64_t *x, const uint64_t *m, int n) {
    uint64_t mask = 0 - (x[0] & 1);
    mont_u128 c = 0;
    for (int i = 0; i < n; i++) { c += (mont_u128)x[i] + (m[i] & mask); x[i] = (uint64_t)c; c >>= 64; }
    for (int i = 0; i < n - 1; i++) x[i] = (x[i] >> 1) | (x[i + 1] << 63);
    x[n - 1] >>= 1;
}
/* u = u - v as integers (u >= v) */
MONT_INLINE void mont_isub_(uint64_t *u, const uint64_t *v, int n) {
    mont_u128 bw = 0;
    for (int i = 0; i < n; i++) {
        mont_u128 d = (mont_u128)u[i] - v[i] - (uint64_t)bw;
        u[i] = (uint64_t)d;
        bw = (d >> 64) & 1;
    }
}
MONT_INLINE bool mont_is_one_int_(const uint64_t *a, int n) {
    uint64_t acc = a[0] ^ 1;
    for (int i = 1; i < n; i++) acc |= a[i];
    return acc == 0;
}
/* r = a^-1 (Montgomery in, Montgomery out; 0 -> 0) by the binary extended Euclidean algorithm
 * (Knuth TAOCP vol. 2, 4.5.2; Menezes et al., Handbook of Applied Cryptography, Alg. 14.61):
 * y = a^-1 as integers, then y * R^2 twice through mont_mul (a = a' R: a^-1 = a'^-1 R^-1, so
 * the result is a'^-1 R). Variable time in a: public values only (MSM buckets of public
 * points), never secrets. About 2 * bits halving steps: several times cheaper than Fermat's
 * a^(m-2) (bits squarings and multiplications). Needs m odd, prime, m < 2^(64n - 1). */
static inline void mont_inv_vartime(uint64_t *r, const uint64_t *a, const uint64_t *m, const uint64_t *r2, uint64_t inv,
                                    int n) {
    if (mont_is_zero(a, n)) {
        memset(r, 0, 8 * (size_t)n);
        return;
    }
    uint64_t u[MONT_MAX_LIMBS], v[MONT_MAX_LIMBS], x1[MONT_MAX_LIMBS] = {1}, x2[MONT_MAX_LIMBS] = {0};
    memcpy(u, a, 8 * (size_t)n);
    memcpy(v, m, 8 * (size_t)n);
    while (!mont_is_one_int_(u, n) && !mont_is_one_int_(v, n)) {
        while (!(u[0] & 1)) {
            int k = u[0] ? __builtin_ctzll(u[0]) : 63;
            for (int i = 0; i < n - 1; i++) u[i] = (u[i] >> k) | (u[i + 1] << (64 - k));
            u[n - 1] >>= k;
            for (int j = 0; j < k; j++) mont_half_(x1, m, n);
        }
        while (!(v[0] & 1)) {
            int k = v[0] ? __builtin_ctzll(v[0]) : 63;
            for (int i = 0; i < n - 1; i++) v[i] = (v[i] >> k) | (v[i + 1] << (64 - k));
            v[n - 1] >>= k;
            for (int j = 0; j < k; j++) mont_half_(x2, m, n);
        }
        if (!mont_lt(u, v, n)) {
            mont_isub_(u, v, n);
            mont_sub(x1, x1, x2, m, n);
        } else {
            mont_isub_(v, u, n);
            mont_sub(x2, x2, x1, m, n);
        }
    }
    uint64_t *y = mont_is_one_int_(u, n) ? x1 : x2;
    mont_mul(r, y, r2, m, inv, n);
    mont_mul(r, r, r2, m, inv, n);
}

/* r = a^e (Montgomery in, Montgomery out); e is an integer of e_limbs 64-bit limbs. Variable
 * time in e (exponents are public constants in cuzk). `one` is R mod m. */
MONT_INLINE void mont_pow_vartime(uint64_t *r, const uint64_t *a, const uint64_t *e, int e_limbs,
                                  const uint64_t *one, const uint64_t *m, uint64_t inv, int n) {
    uint64_t acc[MONT_MAX_LIMBS], base[MONT_MAX_LIMBS];
    memcpy(acc, one, 8 * (size_t)n);
    memcpy(base, a, 8 * (size_t)n);
    int top = e_limbs * 64 - 1;
    while (top >= 0 && !((e[top / 64] >> (top % 64)) & 1)) top--;
    for (int i = top; i >= 0; i--) {
        mont_sqr(acc, acc, m, inv, n);
        if ((e[i / 64] >> (i % 64)) & 1) mont_mul(acc, acc, base, m, inv, n);
    }
    memcpy(r, acc, 8 * (size_t)n);
}

#endif
