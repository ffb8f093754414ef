/* Out-of-line parts of the BLS12-381 fields (src/ff/fields.h). */
#include "ff/fields.h"

FF_DEFINE(fp, 6, BLS12_381_FP)
FF_DEFINE(fr, 4, BLS12_381_FR)

/* (p+1)/4, little-endian limbs */
static void fp_exp_p_plus1_div4(uint64_t e[6]) {
    mont_u128 c = 1;
    for (int i = 0; i < 6; i++) { c += fp_MODULUS[i]; e[i] = (uint64_t)c; c >>= 64; }
    for (int k = 0; k < 2; k++)
        for (int i = 0; i < 6; i++) e[i] = (e[i] >> 1) | (i < 5 ? e[i + 1] << 63 : 0);
}

bool fp_sqrt(fp *r, const fp *a) {
    uint64_t e[6];
    fp_exp_p_plus1_div4(e);
    fp x, x2;
    fp_pow_vartime(&x, a, e, 6);
    fp_sqr(&x2, &x);
    if (!fp_eq(&x2, a)) return false;
    *r = x;
    return true;
}

/* (m-1)/2 as limbs, for "larger than half" comparisons */
static bool canon_gt_half(const uint64_t *v, const uint64_t *m, int n) {
    uint64_t h[6];
    for (int i = 0; i < n; i++) h[i] = (m[i] >> 1) | (i + 1 < n ? m[i + 1] << 63 : 0);
    for (int i = n - 1; i >= 0; i--) {
        if (v[i] != h[i]) return v[i] > h[i];
    }
    return false;
}

bool fp_is_lexicographically_largest(const fp *a) {
    uint64_t v[6];
    fp_to_canon(v, a);
    return canon_gt_half(v, fp_MODULUS, 6);
}

/* Tonelli-Shanks over Fr: r - 1 = 2^32 * t. Non-residue: 7 (the multiplicative generator). */
bool fr_sqrt(fr *r, const fr *a) {
    if (fr_is_zero(a)) { fr_zero(r); return true; }
    if (fr_legendre(a) != 1) return false;
    uint64_t t[4];
    memcpy(t, fr_MODULUS, sizeof t);
    t[0] -= 1;
    for (int k = 0; k < BLS12_381_FR_TWO_ADICITY; k++)
        for (int i = 0; i < 4; i++) t[i] = (t[i] >> 1) | (i < 3 ? t[i + 1] << 63 : 0);
    uint64_t t1[4]; /* (t+1)/2 */
    mont_u128 c = 1;
    for (int i = 0; i < 4; i++) { c += t[i]; t1[i] = (uint64_t)c; c >>= 64; }
    for (int i = 0; i < 4; i++) t1[i] = (t1[i] >> 1) | (i < 3 ? t1[i + 1] << 63 : 0);
    fr z, cc, x, b, g;
    fr_from_u64(&g, 7);
    fr_pow_vartime(&cc, &g, t, 4);   /* c = 7^t, order 2^32 */
    fr_pow_vartime(&x, a, t1, 4);    /* x = a^((t+1)/2) */
    fr_pow_vartime(&b, a, t, 4);     /* b = a^t */
    int m = BLS12_381_FR_TWO_ADICITY;
    while (!fr_is_one(&b)) {
        int i = 0;
        fr b2 = b;
        while (!fr_is_one(&b2)) { fr_sqr(&b2, &b2); i++; if (i >= m) return false; }
        z = cc;
        for (int j = 0; j < m - i - 1; j++) fr_sqr(&z, &z);
        fr_mul(&x, &x, &z);
        fr_sqr(&cc, &z);
        fr_mul(&b, &b, &cc);
        m = i;
    }
    *r = x;
    return true;
}

void fp2_inv(fp2 *r, const fp2 *a) {
    fp t0, t1;
    fp_sqr(&t0, &a->c0);
    fp_sqr(&t1, &a->c1);
    fp_add(&t0, &t0, &t1); /* norm = c0^2 + c1^2 */
    fp_inv(&t0, &t0);
    fp_mul(&r->c0, &a->c0, &t0);
    fp_mul(&t1, &a->c1, &t0);
    fp_neg(&r->c1, &t1);
}

void fp2_pow_vartime(fp2 *r, const fp2 *a, const uint64_t *e, int e_limbs) {
    fp2 acc, base = *a;
    fp2_one(&acc);
    int top = e_limbs * 64 - 1;
    while (top >= 0 && !((e[top / 64] >> (top % 64)) & 1)) top--;
    for (int i = top; i >= 0; i--) {
        fp2_sqr(&acc, &acc);
        if ((e[i / 64] >> (i % 64)) & 1) fp2_mul(&acc, &acc, &base);
    }
    *r = acc;
}

/* Adj, Rodriguez-Henriquez, "Square root computation over even extension fields",
 * IEEE Trans. Computers 2014 (eprint 2012/685), Algorithm 9, for p = 3 mod 4. */
bool fp2_sqrt(fp2 *r, const fp2 *a) {
    if (fp2_is_zero(a)) { fp2_zero(r); return true; }
    uint64_t e1[6], e2[6];
    /* e1 = (p-3)/4, e2 = (p-1)/2 */
    memcpy(e1, fp_MODULUS, sizeof e1);
    e1[0] -= 3;
    for (int k = 0; k < 2; k++)
        for (int i = 0; i < 6; i++) e1[i] = (e1[i] >> 1) | (i < 5 ? e1[i + 1] << 63 : 0);
    memcpy(e2, fp_MODULUS, sizeof e2);
    e2[0] -= 1;
    for (int i = 0; i < 6; i++) e2[i] = (e2[i] >> 1) | (i < 5 ? e2[i + 1] << 63 : 0);
    fp2 a1, alpha, a0, x0, x, minus_one;
    fp2_pow_vartime(&a1, a, e1, 6);
    fp2_sqr(&alpha, &a1);
    fp2_mul(&alpha, &alpha, a);
    fp2_conj(&a0, &alpha);
    fp2_mul(&a0, &a0, &alpha);
    fp2_one(&minus_one);
    fp2_neg(&minus_one, &minus_one);
    if (fp2_eq(&a0, &minus_one)) return false;
    fp2_mul(&x0, &a1, a);
    if (fp2_eq(&alpha, &minus_one)) {
        /* x = u * x0 */
        fp t = x0.c0;
        fp_neg(&x.c0, &x0.c1);
        x.c1 = t;
    } else {
        fp2 b, one;
        fp2_one(&one);
        fp2_add(&b, &alpha, &one);
        fp2_pow_vartime(&b, &b, e2, 6);
        fp2_mul(&x, &b, &x0);
    }
    fp2 chk;
    fp2_sqr(&chk, &x);
    if (!fp2_eq(&chk, a)) return false;
    *r = x;
    return true;
}

bool fp2_is_lexicographically_largest(const fp2 *a) {
    if (!fp_is_zero(&a->c1)) return fp_is_lexicographically_largest(&a->c1);
    return fp_is_lexicographically_largest(&a->c0);
}
