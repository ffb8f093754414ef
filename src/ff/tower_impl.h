/* Out-of-line Fp2, Fp6 and Fp12 arithmetic of one curve's tower (declared in src/ff/tower.h);
 * X-include template: include once per curve, in that curve's fields.c, with CURVE_NS defined and
 * TOWER_FROB_COEFF_INIT the initializer of the Frobenius table (fp2 [11][5]: entry [k-1][j-1] =
 * xi^(j (p^k - 1)/6), the factor x -> x^(p^k) puts on the coefficient of w^j), generated with the
 * curve's constants.
 *
 * Formulas: Fp2 square root: Adj, Rodriguez-Henriquez, "Square root computation over even
 * extension fields", IEEE Trans. Computers 2014 (eprint 2012/685), Algorithm 9 (p = 3 mod 4).
 * Fp6 multiplication/squaring/inversion from Devegili, O hEigeartaigh, Scott, Dahab,
 * "Multiplication and Squaring on Pairing-Friendly Fields" (ePrint 2006/471; Karatsuba and
 * CH-SQR2), Fp12 as a quadratic extension with complex squaring; the same formulas as
 * zkcrypto/bls12_381 (fp6.rs, fp12.rs). Thread-safety: pure functions; the only static data is the
 * const Frobenius table.
 */
#if !defined(TOWER_FROB_COEFF_INIT)
#error "define CURVE_NS and TOWER_FROB_COEFF_INIT before including ff/tower_impl.h"
#endif

void CN(fp2_inv)(CN(fp2) *r, const CN(fp2) *a) {
    CN(fp) t0, t1;
    CN(fp_sqr)(&t0, &a->c0);
    CN(fp_sqr)(&t1, &a->c1);
    CN(fp_add)(&t0, &t0, &t1); /* norm = c0^2 + c1^2 */
    CN(fp_inv)(&t0, &t0);
    CN(fp_mul)(&r->c0, &a->c0, &t0);
    CN(fp_mul)(&t1, &a->c1, &t0);
    CN(fp_neg)(&r->c1, &t1);
}

void CN(fp2_inv_vartime)(CN(fp2) *r, const CN(fp2) *a) {
    CN(fp) t0, t1;
    CN(fp_sqr)(&t0, &a->c0);
    CN(fp_sqr)(&t1, &a->c1);
    CN(fp_add)(&t0, &t0, &t1);
    CN(fp_inv_vartime)(&t0, &t0);
    CN(fp_mul)(&r->c0, &a->c0, &t0);
    CN(fp_mul)(&t1, &a->c1, &t0);
    CN(fp_neg)(&r->c1, &t1);
}

void CN(fp2_pow_vartime)(CN(fp2) *r, const CN(fp2) *a, const uint64_t *e, int e_limbs) {
    CN(fp2) acc, base = *a;
    CN(fp2_one)(&acc);
    int top = e_limbs * 64 - 1;
    while (top >= 0 && !((e[top / 64] >> (top % 64)) & 1)) top--;
    for (int i = top; i >= 0; i--) {
        CN(fp2_sqr)(&acc, &acc);
        if ((e[i / 64] >> (i % 64)) & 1) CN(fp2_mul)(&acc, &acc, &base);
    }
    *r = acc;
}

/* Adj, Rodriguez-Henriquez, "Square root computation over even extension fields",
 * IEEE Trans. Computers 2014 (eprint 2012/685), Algorithm 9, for p = 3 mod 4. */
bool CN(fp2_sqrt)(CN(fp2) *r, const CN(fp2) *a) {
    if (CN(fp2_is_zero)(a)) { CN(fp2_zero)(r); return true; }
    uint64_t e1[CN(fp_LIMBS)], e2[CN(fp_LIMBS)];
    /* e1 = (p-3)/4, e2 = (p-1)/2 */
    memcpy(e1, CN(fp_MODULUS), sizeof e1);
    e1[0] -= 3;
    for (int k = 0; k < 2; k++)
        for (int i = 0; i < CN(fp_LIMBS); i++) e1[i] = (e1[i] >> 1) | (i + 1 < CN(fp_LIMBS) ? e1[i + 1] << 63 : 0);
    memcpy(e2, CN(fp_MODULUS), sizeof e2);
    e2[0] -= 1;
    for (int i = 0; i < CN(fp_LIMBS); i++) e2[i] = (e2[i] >> 1) | (i + 1 < CN(fp_LIMBS) ? e2[i + 1] << 63 : 0);
    CN(fp2) a1, alpha, a0, x0, x, minus_one;
    CN(fp2_pow_vartime)(&a1, a, e1, CN(fp_LIMBS));
    CN(fp2_sqr)(&alpha, &a1);
    CN(fp2_mul)(&alpha, &alpha, a);
    CN(fp2_conj)(&a0, &alpha);
    CN(fp2_mul)(&a0, &a0, &alpha);
    CN(fp2_one)(&minus_one);
    CN(fp2_neg)(&minus_one, &minus_one);
    if (CN(fp2_eq)(&a0, &minus_one)) return false;
    CN(fp2_mul)(&x0, &a1, a);
    if (CN(fp2_eq)(&alpha, &minus_one)) {
        /* x = u * x0 */
        CN(fp) t = x0.c0;
        CN(fp_neg)(&x.c0, &x0.c1);
        x.c1 = t;
    } else {
        CN(fp2) b, one;
        CN(fp2_one)(&one);
        CN(fp2_add)(&b, &alpha, &one);
        CN(fp2_pow_vartime)(&b, &b, e2, CN(fp_LIMBS));
        CN(fp2_mul)(&x, &b, &x0);
    }
    CN(fp2) chk;
    CN(fp2_sqr)(&chk, &x);
    if (!CN(fp2_eq)(&chk, a)) return false;
    *r = x;
    return true;
}

bool CN(fp2_is_lexicographically_largest)(const CN(fp2) *a) {
    if (!CN(fp_is_zero)(&a->c1)) return CN(fp_is_lexicographically_largest)(&a->c1);
    return CN(fp_is_lexicographically_largest)(&a->c0);
}

/* ---- Fp6 = Fp2[v]/(v^3 - xi) ----------------------------------------------------------- */

void CN(fp6_zero)(CN(fp6) *r) { CN(fp2_zero)(&r->c0); CN(fp2_zero)(&r->c1); CN(fp2_zero)(&r->c2); }
void CN(fp6_one)(CN(fp6) *r) { CN(fp2_one)(&r->c0); CN(fp2_zero)(&r->c1); CN(fp2_zero)(&r->c2); }
bool CN(fp6_is_zero)(const CN(fp6) *a) { return CN(fp2_is_zero)(&a->c0) && CN(fp2_is_zero)(&a->c1) && CN(fp2_is_zero)(&a->c2); }
bool CN(fp6_eq)(const CN(fp6) *a, const CN(fp6) *b) {
    return CN(fp2_eq)(&a->c0, &b->c0) && CN(fp2_eq)(&a->c1, &b->c1) && CN(fp2_eq)(&a->c2, &b->c2);
}

void CN(fp6_add)(CN(fp6) *r, const CN(fp6) *a, const CN(fp6) *b) {
    CN(fp2_add)(&r->c0, &a->c0, &b->c0);
    CN(fp2_add)(&r->c1, &a->c1, &b->c1);
    CN(fp2_add)(&r->c2, &a->c2, &b->c2);
}

void CN(fp6_sub)(CN(fp6) *r, const CN(fp6) *a, const CN(fp6) *b) {
    CN(fp2_sub)(&r->c0, &a->c0, &b->c0);
    CN(fp2_sub)(&r->c1, &a->c1, &b->c1);
    CN(fp2_sub)(&r->c2, &a->c2, &b->c2);
}

void CN(fp6_neg)(CN(fp6) *r, const CN(fp6) *a) {
    CN(fp2_neg)(&r->c0, &a->c0);
    CN(fp2_neg)(&r->c1, &a->c1);
    CN(fp2_neg)(&r->c2, &a->c2);
}

/* Karatsuba: t_i = a_i b_i;
 *   c0 = t0 + xi((a1 + a2)(b1 + b2) - t1 - t2)
 *   c1 = (a0 + a1)(b0 + b1) - t0 - t1 + xi t2
 *   c2 = (a0 + a2)(b0 + b2) - t0 - t2 + t1 */
void CN(fp6_mul)(CN(fp6) *r, const CN(fp6) *a, const CN(fp6) *b) {
    CN(fp2) t0, t1, t2, s, u, c0, c1, c2;
    CN(fp2_mul)(&t0, &a->c0, &b->c0);
    CN(fp2_mul)(&t1, &a->c1, &b->c1);
    CN(fp2_mul)(&t2, &a->c2, &b->c2);

    CN(fp2_add)(&s, &a->c1, &a->c2);
    CN(fp2_add)(&u, &b->c1, &b->c2);
    CN(fp2_mul)(&c0, &s, &u);
    CN(fp2_sub)(&c0, &c0, &t1);
    CN(fp2_sub)(&c0, &c0, &t2);
    CN(fp2_mul_by_xi)(&c0, &c0);
    CN(fp2_add)(&c0, &c0, &t0);

    CN(fp2_add)(&s, &a->c0, &a->c1);
    CN(fp2_add)(&u, &b->c0, &b->c1);
    CN(fp2_mul)(&c1, &s, &u);
    CN(fp2_sub)(&c1, &c1, &t0);
    CN(fp2_sub)(&c1, &c1, &t1);
    CN(fp2_mul_by_xi)(&s, &t2);
    CN(fp2_add)(&c1, &c1, &s);

    CN(fp2_add)(&s, &a->c0, &a->c2);
    CN(fp2_add)(&u, &b->c0, &b->c2);
    CN(fp2_mul)(&c2, &s, &u);
    CN(fp2_sub)(&c2, &c2, &t0);
    CN(fp2_sub)(&c2, &c2, &t2);
    CN(fp2_add)(&c2, &c2, &t1);

    r->c0 = c0;
    r->c1 = c1;
    r->c2 = c2;
}

/* CH-SQR2: s0 = a0^2, s1 = 2 a0 a1, s2 = (a0 - a1 + a2)^2, s3 = 2 a1 a2, s4 = a2^2;
 *   c0 = s0 + xi s3, c1 = s1 + xi s4, c2 = s1 + s2 + s3 - s0 - s4 */
void CN(fp6_sqr)(CN(fp6) *r, const CN(fp6) *a) {
    CN(fp2) s0, s1, s2, s3, s4, t;
    CN(fp2_sqr)(&s0, &a->c0);
    CN(fp2_mul)(&s1, &a->c0, &a->c1);
    CN(fp2_dbl)(&s1, &s1);
    CN(fp2_sub)(&t, &a->c0, &a->c1);
    CN(fp2_add)(&t, &t, &a->c2);
    CN(fp2_sqr)(&s2, &t);
    CN(fp2_mul)(&s3, &a->c1, &a->c2);
    CN(fp2_dbl)(&s3, &s3);
    CN(fp2_sqr)(&s4, &a->c2);

    CN(fp2_mul_by_xi)(&t, &s3);
    CN(fp2_add)(&r->c0, &s0, &t);
    CN(fp2_add)(&r->c2, &s1, &s2);
    CN(fp2_add)(&r->c2, &r->c2, &s3);
    CN(fp2_sub)(&r->c2, &r->c2, &s0);
    CN(fp2_sub)(&r->c2, &r->c2, &s4);
    CN(fp2_mul_by_xi)(&t, &s4);
    CN(fp2_add)(&r->c1, &s1, &t);
}

/* 1/a = (A, B, C)/N with A = a0^2 - xi a1 a2, B = xi a2^2 - a0 a1, C = a1^2 - a0 a2,
 * N = a0 A + xi (a2 B + a1 C) in Fp2. 0 -> 0. */
void CN(fp6_inv)(CN(fp6) *r, const CN(fp6) *a) {
    CN(fp2) A, B, C, t, n;
    CN(fp2_sqr)(&A, &a->c0);
    CN(fp2_mul)(&t, &a->c1, &a->c2);
    CN(fp2_mul_by_xi)(&t, &t);
    CN(fp2_sub)(&A, &A, &t);

    CN(fp2_sqr)(&B, &a->c2);
    CN(fp2_mul_by_xi)(&B, &B);
    CN(fp2_mul)(&t, &a->c0, &a->c1);
    CN(fp2_sub)(&B, &B, &t);

    CN(fp2_sqr)(&C, &a->c1);
    CN(fp2_mul)(&t, &a->c0, &a->c2);
    CN(fp2_sub)(&C, &C, &t);

    CN(fp2_mul)(&n, &a->c2, &B);
    CN(fp2_mul)(&t, &a->c1, &C);
    CN(fp2_add)(&n, &n, &t);
    CN(fp2_mul_by_xi)(&n, &n);
    CN(fp2_mul)(&t, &a->c0, &A);
    CN(fp2_add)(&n, &n, &t);
    CN(fp2_inv)(&n, &n);

    CN(fp2_mul)(&r->c0, &A, &n);
    CN(fp2_mul)(&r->c1, &B, &n);
    CN(fp2_mul)(&r->c2, &C, &n);
}

/* (a0 + a1 v + a2 v^2) v = xi a2 + a0 v + a1 v^2 */
void CN(fp6_mul_by_v)(CN(fp6) *r, const CN(fp6) *a) {
    CN(fp2) t;
    CN(fp2_mul_by_xi)(&t, &a->c2);
    r->c2 = a->c1;
    r->c1 = a->c0;
    r->c0 = t;
}

/* ---- Fp12 = Fp6[w]/(w^2 - v) ----------------------------------------------------------- */

void CN(fp12_zero)(CN(fp12) *r) { CN(fp6_zero)(&r->c0); CN(fp6_zero)(&r->c1); }
void CN(fp12_one)(CN(fp12) *r) { CN(fp6_one)(&r->c0); CN(fp6_zero)(&r->c1); }

bool CN(fp12_is_one)(const CN(fp12) *a) {
    CN(fp12) one;
    CN(fp12_one)(&one);
    return CN(fp12_eq)(a, &one);
}

bool CN(fp12_eq)(const CN(fp12) *a, const CN(fp12) *b) { return CN(fp6_eq)(&a->c0, &b->c0) && CN(fp6_eq)(&a->c1, &b->c1); }

/* (a0 + a1 w)(b0 + b1 w) = a0 b0 + v a1 b1 + ((a0 + a1)(b0 + b1) - a0 b0 - a1 b1) w */
void CN(fp12_mul)(CN(fp12) *r, const CN(fp12) *a, const CN(fp12) *b) {
    CN(fp6) t0, t1, s, u;
    CN(fp6_mul)(&t0, &a->c0, &b->c0);
    CN(fp6_mul)(&t1, &a->c1, &b->c1);
    CN(fp6_add)(&s, &a->c0, &a->c1);
    CN(fp6_add)(&u, &b->c0, &b->c1);
    CN(fp6_mul)(&s, &s, &u);
    CN(fp6_sub)(&s, &s, &t0);
    CN(fp6_sub)(&r->c1, &s, &t1);
    CN(fp6_mul_by_v)(&t1, &t1);
    CN(fp6_add)(&r->c0, &t0, &t1);
}

/* complex squaring: t = a0 a1; c0 = (a0 + a1)(a0 + v a1) - t - v t; c1 = 2t */
void CN(fp12_sqr)(CN(fp12) *r, const CN(fp12) *a) {
    CN(fp6) t, s, u, vt;
    CN(fp6_mul)(&t, &a->c0, &a->c1);
    CN(fp6_add)(&s, &a->c0, &a->c1);
    CN(fp6_mul_by_v)(&u, &a->c1);
    CN(fp6_add)(&u, &u, &a->c0);
    CN(fp6_mul)(&s, &s, &u);
    CN(fp6_sub)(&s, &s, &t);
    CN(fp6_mul_by_v)(&vt, &t);
    CN(fp6_sub)(&r->c0, &s, &vt);
    CN(fp6_add)(&r->c1, &t, &t);
}

/* 1/(a0 + a1 w) = (a0 - a1 w)/(a0^2 - v a1^2). 0 -> 0. */
void CN(fp12_inv)(CN(fp12) *r, const CN(fp12) *a) {
    CN(fp6) t0, t1;
    CN(fp6_sqr)(&t0, &a->c0);
    CN(fp6_sqr)(&t1, &a->c1);
    CN(fp6_mul_by_v)(&t1, &t1);
    CN(fp6_sub)(&t0, &t0, &t1);
    CN(fp6_inv)(&t0, &t0);
    CN(fp6_mul)(&r->c0, &a->c0, &t0);
    CN(fp6_mul)(&r->c1, &a->c1, &t0);
    CN(fp6_neg)(&r->c1, &r->c1);
}

void CN(fp12_conj)(CN(fp12) *r, const CN(fp12) *a) {
    r->c0 = a->c0;
    CN(fp6_neg)(&r->c1, &a->c1);
}

/* [k-1][j-1]: factor on the coefficient of w^j under x -> x^(p^k). */
static const CN(fp2) CN(fp12_frob_)[11][5] = TOWER_FROB_COEFF_INIT;

void CN(fp12_frobenius)(CN(fp12) *r, const CN(fp12) *a, int power) {
    power %= 12;
    if (power < 0) power += 12;
    if (power == 0) {
        *r = *a;
        return;
    }
    /* coefficients in w-power order: w^0 = c0.c0, w^1 = c1.c0, w^2 = c0.c1, w^3 = c1.c1,
     * w^4 = c0.c2, w^5 = c1.c2 */
    const CN(fp2) *in[6] = {&a->c0.c0, &a->c1.c0, &a->c0.c1, &a->c1.c1, &a->c0.c2, &a->c1.c2};
    CN(fp2) out[6];
    for (int j = 0; j < 6; j++) {
        if (power & 1) CN(fp2_conj)(&out[j], in[j]);
        else out[j] = *in[j];
        if (j > 0) CN(fp2_mul)(&out[j], &out[j], &CN(fp12_frob_)[power - 1][j - 1]);
    }
    r->c0.c0 = out[0];
    r->c1.c0 = out[1];
    r->c0.c1 = out[2];
    r->c1.c1 = out[3];
    r->c0.c2 = out[4];
    r->c1.c2 = out[5];
}

void CN(fp12_pow_vartime)(CN(fp12) *r, const CN(fp12) *a, const uint64_t *e, int e_limbs) {
    CN(fp12) acc, base = *a;
    CN(fp12_one)(&acc);
    bool started = false;
    for (int i = e_limbs - 1; i >= 0; i--) {
        for (int b = 63; b >= 0; b--) {
            if (started) CN(fp12_sqr)(&acc, &acc);
            if ((e[i] >> b) & 1) {
                CN(fp12_mul)(&acc, &acc, &base);
                started = true;
            }
        }
    }
    *r = acc;
}
