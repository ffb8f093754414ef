/* Optimal ate pairing on BLS12-381 (declarations: src/ec/pairing_decl.h; shared pieces:
 * src/ec/pairing_impl.h).
 *
 * Miller loop: over |x| = 0xd201000000010000 from bit 62 down, G2 accumulator in homogeneous
 * projective coordinates (X : Y : Z), x = X/Z, y = Y/Z on the M-twist E': y^2 = x^3 + 4(1 + u).
 *   doubling step: Costello, Lange, Naehrig, "Faster pairing computations on curves with
 *     high-degree twists", ePrint 2009/615, section 5;
 *   addition step: Costello, Hisil, Boyd, Gonzalez Nieto, Wong / Aranha et al. as adapted in
 *     ePrint 2013/722 section 4.3;
 * both exactly as in zkcrypto/bls12_381 pairings.rs. A line is l00 + (l01 xP) v + (l11 yP) v w,
 * multiplied into f by the sparse "mul_by_014". x < 0, so f is conjugated at the end.
 * The multi-Miller loop shares the squarings of f between pairs.
 *
 * Final exponentiation: easy part f^((p^6 - 1)(p^2 + 1)), then the hard part
 * 3 (p^4 - p^2 + 1)/r = l0 + l1 p + l2 p^2 + l3 p^3, l3 = (x - 1)^2, l2 = l3 x, l1 = l2 x - l3,
 * l0 = l1 x + 3 (Hayashida, Hayasaka, Teruya, ePrint 2020/875), with Granger-Scott cyclotomic
 * squarings (ePrint 2009/565). The result is e^3 for e = f^((p^12-1)/r) — the same value as
 * zkcrypto/bls12_381 and blst (their Gt generator is the test vector in tests/test_pairing.c).
 * gcd(3, r) = 1, so this is still a non-degenerate bilinear pairing.
 *
 * No allocation: pairs are processed in chunks of PAIRING_CHUNK on the stack, one Miller-loop
 * value per chunk, multiplied together. Variable time in which inputs are infinity only.
 * Thread-safety: pure functions.
 */
#define CUZK_CURVE_KEEP_PARAMS
#include "curves/bls12_381/curve.h"

#include "curves/bls12_381/fp12_constants.h"

#include "ec/pairing_impl.h"

/* ---- Miller loop steps ----------------------------------------------------------------- */

typedef struct g2_proj { fp2 x, y, z; } g2_proj;
typedef struct line { fp2 l00, l01, l11; } line;

/* r = 3 b' a, b' = 4 (1 + u): 12 xi a */
static void fp2_mul_by_3b(fp2 *r, const fp2 *a) {
    fp2 t, t4;
    fp2_mul_by_xi(&t, a);
    fp2_dbl(&t4, &t);
    fp2_dbl(&t4, &t4);   /* 4 xi a */
    fp2_dbl(&t, &t4);    /* 8 xi a */
    fp2_add(r, &t, &t4); /* 12 xi a */
}

/* R <- 2R, returns the tangent line at R (evaluated later at P). */
static void doubling_step(line *l, g2_proj *r) {
    fp2 a, b, c, d, e, f, g, t0, t1;
    fp2_sqr(&a, &r->x);
    fp2_sqr(&b, &r->y);
    fp2_sqr(&c, &r->z);
    fp2_mul_by_3b(&d, &c);
    fp2_mul(&e, &r->x, &r->y);
    fp2_dbl(&e, &e);
    fp2_mul(&f, &r->y, &r->z);
    fp2_dbl(&f, &f);
    fp2_dbl(&g, &d);
    fp2_add(&g, &g, &d);

    /* X3 = E (B - G) */
    fp2_sub(&t0, &b, &g);
    fp2_mul(&r->x, &e, &t0);
    /* Y3 = (B + G)^2 - 12 D^2 */
    fp2_dbl(&t0, &d);
    fp2_sqr(&t0, &t0);
    fp2_add(&t1, &b, &g);
    fp2_sqr(&t1, &t1);
    fp2_sub(&t1, &t1, &t0);
    fp2_dbl(&t0, &t0);
    fp2_sub(&r->y, &t1, &t0);
    /* Z3 = 4 B F */
    fp2_dbl(&t0, &f);
    fp2_dbl(&t0, &t0);
    fp2_mul(&r->z, &b, &t0);

    fp2_sub(&l->l00, &d, &b);
    fp2_neg(&l->l11, &f);
    fp2_dbl(&l->l01, &a);
    fp2_add(&l->l01, &l->l01, &a);
}

/* R <- R + Q, returns the line through R and Q. */
static void addition_step(line *l, g2_proj *r, const g2_affine *q) {
    fp2 a, b, c, d, e, f, g, h, t0, t1;
    fp2_mul(&t0, &r->z, &q->y);
    fp2_sub(&a, &r->y, &t0);
    fp2_mul(&t0, &r->z, &q->x);
    fp2_sub(&b, &r->x, &t0);
    fp2_sqr(&c, &a);
    fp2_sqr(&d, &b);
    fp2_mul(&e, &b, &d);
    fp2_mul(&t0, &r->z, &c);
    fp2_add(&f, &e, &t0);
    fp2_mul(&g, &r->x, &d);
    fp2_dbl(&t0, &g);
    fp2_sub(&h, &f, &t0);

    fp2_mul(&r->x, &b, &h);
    fp2_sub(&t0, &g, &h);
    fp2_mul(&t0, &a, &t0);
    fp2_mul(&t1, &r->y, &e);
    fp2_sub(&r->y, &t0, &t1);
    fp2_mul(&r->z, &r->z, &e);

    fp2_mul(&t0, &a, &q->x);
    fp2_mul(&t1, &b, &q->y);
    fp2_sub(&l->l00, &t0, &t1);
    fp2_neg(&l->l01, &a);
    l->l11 = b;
}

static void ell(fp12 *f, const line *l, const g1_affine *p) {
    fp2 c1, c4;
    fp2_mul_fp(&c1, &l->l01, &p->x);
    fp2_mul_fp(&c4, &l->l11, &p->y);
    fp12_mul_by_014(f, &l->l00, &c1, &c4);
}

/* f = prod over n <= PAIRING_CHUNK finite pairs of f_{x,Q}(P) (conjugated for x < 0). */
static void pairing_chunk_(fp12 *f, const g1_affine *const *p, const g2_affine *const *q, size_t n) {
    g2_proj r[PAIRING_CHUNK];
    line l;
    for (size_t k = 0; k < n; k++) {
        r[k].x = q[k]->x;
        r[k].y = q[k]->y;
        fp2_one(&r[k].z);
    }
    fp12_one(f);
    for (uint64_t bit = (uint64_t)1 << 62;; ) {
        for (size_t k = 0; k < n; k++) {
            doubling_step(&l, &r[k]);
            ell(f, &l, p[k]);
        }
        if (BLS12_381_X_ABS & bit) {
            for (size_t k = 0; k < n; k++) {
                addition_step(&l, &r[k], q[k]);
                ell(f, &l, p[k]);
            }
        }
        bit >>= 1;
        if (bit == 0) break;
        fp12_sqr(f, f);
    }
#if BLS12_381_X_IS_NEGATIVE
    fp12_conj(f, f); /* f_{x} = 1/f_{|x|} up to factors the final exponentiation removes */
#endif
}

/* r = f^x (x = -|x|) for f in the cyclotomic subgroup, where f^-1 = conj(f). */
static void cyclotomic_exp_x(fp12 *r, const fp12 *f) {
    fp12 acc;
    fp12_one(&acc);
    bool started = false;
    for (int b = 63; b >= 0; b--) {
        bool set = (BLS12_381_X_ABS >> b) & 1;
        if (started) cyclotomic_sqr(&acc, &acc);
        if (set) {
            fp12_mul(&acc, &acc, f);
            started = true;
        }
    }
#if BLS12_381_X_IS_NEGATIVE
    fp12_conj(r, &acc);
#else
    *r = acc;
#endif
}

void pairing_final_exponentiation(fp12 *out, const fp12 *f) {
    fp12 t0, t1, t2, t3, t4, t5, t6;
    /* easy part: t2 = f^((p^6 - 1)(p^2 + 1)) */
    fp12_conj(&t0, f);
    fp12_inv(&t1, f);
    fp12_mul(&t2, &t0, &t1);
    t1 = t2;
    fp12_frobenius(&t2, &t2, 2);
    fp12_mul(&t2, &t2, &t1);

    /* hard part: t2^(l0 + l1 p + l2 p^2 + l3 p^3) */
    cyclotomic_sqr(&t1, &t2);
    fp12_conj(&t1, &t1);                 /* t1 = t2^-2 */
    cyclotomic_exp_x(&t3, &t2);          /* t3 = t2^x */
    cyclotomic_sqr(&t4, &t3);            /* t4 = t2^2x */
    fp12_mul(&t5, &t1, &t3);             /* t5 = t2^(x-2) */
    cyclotomic_exp_x(&t1, &t5);          /* t1 = t2^(x^2-2x) */
    cyclotomic_exp_x(&t0, &t1);          /* t0 = t2^(x^3-2x^2) */
    cyclotomic_exp_x(&t6, &t0);
    fp12_mul(&t6, &t6, &t4);             /* t6 = t2^(x^4-2x^3+2x) */
    cyclotomic_exp_x(&t4, &t6);          /* t4 = t2^(x^5-2x^4+2x^2) */
    fp12_conj(&t5, &t5);                 /* t5 = t2^(2-x) */
    fp12_mul(&t5, &t5, &t2);
    fp12_mul(&t4, &t4, &t5);             /* t4 = t2^l0, l0 = x^5-2x^4+2x^2-x+3 */
    fp12_conj(&t5, &t2);                 /* t5 = t2^-1 */
    fp12_mul(&t1, &t1, &t2);             /* t1 = t2^((x-1)^2) = t2^l3 */
    fp12_frobenius(&t1, &t1, 3);
    fp12_mul(&t6, &t6, &t5);             /* t6 = t2^l1, l1 = x^4-2x^3+2x-1 */
    fp12_frobenius(&t6, &t6, 1);
    fp12_mul(&t3, &t3, &t0);             /* t3 = t2^l2, l2 = x^3-2x^2+x */
    fp12_frobenius(&t3, &t3, 2);
    fp12_mul(&t3, &t3, &t1);
    fp12_mul(&t3, &t3, &t6);
    fp12_mul(out, &t3, &t4);
}
