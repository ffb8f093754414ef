/* Optimal ate pairing on BN254 (declarations: src/ec/pairing_decl.h; shared pieces:
 * src/ec/pairing_impl.h).
 *
 * Miller loop: over the NAF of 6u + 2 (BN254_ATE_LOOP_NAF, u = 4965661367192848881 > 0), G2
 * accumulator R in homogeneous projective coordinates on the D-twist E': y^2 = x^3 + b',
 * b' = 3/(9 + u), then the two Frobenius line steps R + Q1, Q1 = psi(Q), and R + Q2,
 * Q2 = -psi^2(Q). Line formulas: Costello, Lange, Naehrig (ePrint 2009/615) as refined in
 * Aranha et al. / ePrint 2013/722 section 4 (formulas 3 and 4), D-type coefficients as in arkworks
 * (ark-ec models/bn): a line evaluated at P = (xP, yP) is (l0 yP) + ((l1 xP) + l2 v) w, multiplied
 * into f by the sparse mul_by_034.
 *
 * Final exponentiation: f^(m (p^12 - 1)/r) with m = 2u(6u^2 + 3u + 1) (gcd(m, r) = 1, so still a
 * non-degenerate bilinear pairing): the easy part f^((p^6 - 1)(p^2 + 1)), then the hard part
 * l0 + l1 p + l2 p^2 + l3 p^3 = m (p^4 - p^2 + 1)/r with l0 = 12u^3 + 12u^2 + 6u + 1,
 * l1 = 12u^3 + 6u^2 + 4u, l2 = 12u^3 + 6u^2 + 6u, l3 = 12u^3 + 6u^2 + 4u - 1 (Fuentes-Castaneda,
 * Knapp, Rodriguez-Henriquez, "Faster hashing to G2", SAC 2011, section 6). This is the chain of
 * libff and of ffjavascript/wasmcurves (snarkjs), so our GT values equal snarkjs's (its
 * vk_alphabeta_12), which the exact (p^12 - 1)/r power would not. tests/test_bn254.c checks it
 * against square-and-multiply with m (p^12 - 1)/r and against snarkjs's e(alpha, beta) values.
 * Thread-safety: pure functions.
 */
#define CUZK_CURVE_KEEP_PARAMS
#include "curves/bn254/curve.h"

#include "ec/pairing_impl.h"

typedef struct g2_proj { bn254_fp2 x, y, z; } g2_proj;
typedef struct line { bn254_fp2 l0, l1, l2; } line;

static const bn254_fp TWO_INV = BN254_FP_TWO_INV_MONT;
static const bn254_fp2 TWIST_B = BN254_G2_B_MONT;
static const bn254_fp2 PSI_CX = BN254_PSI_CX_MONT;
static const bn254_fp2 PSI_CY = BN254_PSI_CY_MONT;
static const int8_t ATE_LOOP[BN254_ATE_LOOP_LEN] = BN254_ATE_LOOP_NAF;

/* R <- 2R; tangent line at R: (-H, 3 X^2, E - B) (formula 3 of ePrint 2013/722, D-twist). */
static void doubling_step(line *l, g2_proj *r) {
    bn254_fp2 a, b, c, e, f, g, h, i, j, e2, t;
    bn254_fp2_mul(&a, &r->x, &r->y);
    bn254_fp2_mul_fp(&a, &a, &TWO_INV);      /* A = XY/2 */
    bn254_fp2_sqr(&b, &r->y);                /* B = Y^2 */
    bn254_fp2_sqr(&c, &r->z);                /* C = Z^2 */
    bn254_fp2_dbl(&t, &c);
    bn254_fp2_add(&t, &t, &c);
    bn254_fp2_mul(&e, &t, &TWIST_B);         /* E = 3 b' C */
    bn254_fp2_dbl(&f, &e);
    bn254_fp2_add(&f, &f, &e);               /* F = 3E */
    bn254_fp2_add(&g, &b, &f);
    bn254_fp2_mul_fp(&g, &g, &TWO_INV);      /* G = (B + F)/2 */
    bn254_fp2_add(&h, &r->y, &r->z);
    bn254_fp2_sqr(&h, &h);
    bn254_fp2_add(&t, &b, &c);
    bn254_fp2_sub(&h, &h, &t);               /* H = (Y + Z)^2 - (B + C) */
    bn254_fp2_sub(&i, &e, &b);               /* I = E - B */
    bn254_fp2_sqr(&j, &r->x);                /* J = X^2 */
    bn254_fp2_sqr(&e2, &e);

    bn254_fp2_sub(&t, &b, &f);
    bn254_fp2_mul(&r->x, &a, &t);            /* X3 = A (B - F) */
    bn254_fp2_sqr(&r->y, &g);
    bn254_fp2_dbl(&t, &e2);
    bn254_fp2_add(&t, &t, &e2);
    bn254_fp2_sub(&r->y, &r->y, &t);         /* Y3 = G^2 - 3 E^2 */
    bn254_fp2_mul(&r->z, &b, &h);            /* Z3 = B H */

    bn254_fp2_neg(&l->l0, &h);
    bn254_fp2_dbl(&l->l1, &j);
    bn254_fp2_add(&l->l1, &l->l1, &j);
    l->l2 = i;
}

/* R <- R + Q; line through R and Q: (lambda, -theta, theta xQ - lambda yQ) (formula 4). */
static void addition_step(line *l, g2_proj *r, const bn254_g2_affine *q) {
    bn254_fp2 theta, lambda, c, d, e, f, g, h, t;
    bn254_fp2_mul(&t, &q->y, &r->z);
    bn254_fp2_sub(&theta, &r->y, &t);
    bn254_fp2_mul(&t, &q->x, &r->z);
    bn254_fp2_sub(&lambda, &r->x, &t);
    bn254_fp2_sqr(&c, &theta);
    bn254_fp2_sqr(&d, &lambda);
    bn254_fp2_mul(&e, &lambda, &d);
    bn254_fp2_mul(&f, &r->z, &c);
    bn254_fp2_mul(&g, &r->x, &d);
    bn254_fp2_add(&h, &e, &f);
    bn254_fp2_dbl(&t, &g);
    bn254_fp2_sub(&h, &h, &t);
    bn254_fp2_mul(&r->x, &lambda, &h);
    bn254_fp2_sub(&t, &g, &h);
    bn254_fp2_mul(&t, &theta, &t);
    bn254_fp2_mul(&r->y, &e, &r->y);
    bn254_fp2_sub(&r->y, &t, &r->y);
    bn254_fp2_mul(&r->z, &r->z, &e);

    bn254_fp2_mul(&t, &theta, &q->x);
    bn254_fp2_mul(&l->l2, &lambda, &q->y);
    bn254_fp2_sub(&l->l2, &t, &l->l2);
    l->l0 = lambda;
    bn254_fp2_neg(&l->l1, &theta);
}

static void ell(bn254_fp12 *f, const line *l, const bn254_g1_affine *p) {
    bn254_fp2 c0, c1;
    bn254_fp2_mul_fp(&c0, &l->l0, &p->y);
    bn254_fp2_mul_fp(&c1, &l->l1, &p->x);
    fp12_mul_by_034(f, &c0, &c1, &l->l2);
}

/* psi(Q) = (conj(x) cx, conj(y) cy) */
static void psi(bn254_g2_affine *r, const bn254_g2_affine *q) {
    bn254_fp2_conj(&r->x, &q->x);
    bn254_fp2_mul(&r->x, &r->x, &PSI_CX);
    bn254_fp2_conj(&r->y, &q->y);
    bn254_fp2_mul(&r->y, &r->y, &PSI_CY);
}

/* f = prod over n <= PAIRING_CHUNK finite pairs of f_{6u+2,Q}(P) l_{R,Q1}(P) l_{R,Q2}(P). */
static void pairing_chunk_(bn254_fp12 *f, const bn254_g1_affine *const *p, const bn254_g2_affine *const *q,
                           size_t n) {
    g2_proj r[PAIRING_CHUNK];
    bn254_g2_affine nq[PAIRING_CHUNK];
    line l;
    for (size_t k = 0; k < n; k++) {
        r[k].x = q[k]->x;
        r[k].y = q[k]->y;
        bn254_fp2_one(&r[k].z);
        bn254_g2_affine_neg(&nq[k], q[k]);
    }
    bn254_fp12_one(f);
    for (int i = BN254_ATE_LOOP_LEN - 1; i >= 1; i--) {
        if (i != BN254_ATE_LOOP_LEN - 1) bn254_fp12_sqr(f, f);
        for (size_t k = 0; k < n; k++) {
            doubling_step(&l, &r[k]);
            ell(f, &l, p[k]);
        }
        int d = ATE_LOOP[i - 1];
        if (d == 0) continue;
        for (size_t k = 0; k < n; k++) {
            addition_step(&l, &r[k], d > 0 ? q[k] : &nq[k]);
            ell(f, &l, p[k]);
        }
    }
    for (size_t k = 0; k < n; k++) {
        bn254_g2_affine q1, q2;
        psi(&q1, q[k]);
        psi(&q2, &q1);
        bn254_g2_affine_neg(&q2, &q2);
        addition_step(&l, &r[k], &q1);
        ell(f, &l, p[k]);
        addition_step(&l, &r[k], &q2);
        ell(f, &l, p[k]);
    }
}

/* r = f^u for f in the cyclotomic subgroup (u > 0, 63 bits): f^-1 = conj(f) there */
static void cyclotomic_exp_u(bn254_fp12 *r, const bn254_fp12 *f) {
    bn254_fp12 acc;
    bn254_fp12_one(&acc);
    bool started = false;
    for (int b = 63; b >= 0; b--) {
        if (started) cyclotomic_sqr(&acc, &acc);
        if ((BN254_U >> b) & 1) {
            bn254_fp12_mul(&acc, &acc, f);
            started = true;
        }
    }
    *r = acc;
}

void bn254_pairing_final_exponentiation(bn254_fp12 *out, const bn254_fp12 *in) {
    bn254_fp12 f, inv, t, a, b, c, d, e, g, h, k, l, m, n;
    /* easy part: f = in^((p^6 - 1)(p^2 + 1)) */
    bn254_fp12_conj(&f, in);
    bn254_fp12_inv(&inv, in);
    bn254_fp12_mul(&f, &f, &inv);
    bn254_fp12_frobenius(&t, &f, 2);
    bn254_fp12_mul(&f, &f, &t);
    /* hard part f^(l0 + l1 p + l2 p^2 + l3 p^3), f^-1 = conj(f) from here on */
    cyclotomic_exp_u(&a, &f);
    bn254_fp12_conj(&a, &a);             /* a = f^-u */
    cyclotomic_sqr(&b, &a);              /* b = f^-2u */
    cyclotomic_sqr(&c, &b);
    bn254_fp12_mul(&d, &c, &b);          /* d = f^-6u */
    cyclotomic_exp_u(&e, &d);
    bn254_fp12_conj(&e, &e);             /* e = f^(6u^2) */
    cyclotomic_sqr(&t, &e);              /* f^(12u^2) */
    cyclotomic_exp_u(&g, &t);            /* g = f^(12u^3) */
    bn254_fp12_conj(&h, &d);             /* h = f^(6u) */
    bn254_fp12_mul(&k, &g, &e);
    bn254_fp12_mul(&k, &k, &h);          /* k = f^(12u^3 + 6u^2 + 6u) */
    bn254_fp12_mul(&l, &k, &b);          /* l = f^(12u^3 + 6u^2 + 4u) */
    bn254_fp12_mul(&m, &k, &e);
    bn254_fp12_mul(&n, &m, &f);          /* n = f^(12u^3 + 12u^2 + 6u + 1) */
    bn254_fp12_frobenius(&t, &l, 1);
    bn254_fp12_mul(&n, &n, &t);          /* n *= l^p */
    bn254_fp12_frobenius(&t, &k, 2);
    bn254_fp12_mul(&n, &n, &t);          /* n *= k^(p^2) */
    bn254_fp12_conj(&t, &f);
    bn254_fp12_mul(&t, &t, &l);          /* f^(12u^3 + 6u^2 + 4u - 1) */
    bn254_fp12_frobenius(&t, &t, 3);
    bn254_fp12_mul(out, &n, &t);
}
