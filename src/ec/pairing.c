/* Optimal ate pairing on BLS12-381 (see pairing.h).
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
#include "ec/pairing.h"

#include "ff/fp12_constants.h"

#define PAIRING_CHUNK 16

/* ---- sparse multiplication by a line ---------------------------------------------------- */

/* r = a * (c0 + c1 v) in Fp6 */
static void fp6_mul_by_01(fp6 *r, const fp6 *a, const fp2 *c0, const fp2 *c1) {
    fp2 aa, bb, t1, t2, t3, s, u;
    fp2_mul(&aa, &a->c0, c0);
    fp2_mul(&bb, &a->c1, c1);

    fp2_mul(&t1, &a->c2, c1);
    fp2_mul_by_xi(&t1, &t1);
    fp2_add(&t1, &t1, &aa);

    fp2_add(&s, &a->c0, &a->c1);
    fp2_add(&u, c0, c1);
    fp2_mul(&t2, &s, &u);
    fp2_sub(&t2, &t2, &aa);
    fp2_sub(&t2, &t2, &bb);

    fp2_add(&s, &a->c0, &a->c2);
    fp2_mul(&t3, &s, c0);
    fp2_sub(&t3, &t3, &aa);
    fp2_add(&t3, &t3, &bb);

    r->c0 = t1;
    r->c1 = t2;
    r->c2 = t3;
}

/* r = a * (c1 v) in Fp6 */
static void fp6_mul_by_1(fp6 *r, const fp6 *a, const fp2 *c1) {
    fp2 t0, t1, t2;
    fp2_mul(&t0, &a->c2, c1);
    fp2_mul_by_xi(&t0, &t0);
    fp2_mul(&t1, &a->c0, c1);
    fp2_mul(&t2, &a->c1, c1);
    r->c0 = t0;
    r->c1 = t1;
    r->c2 = t2;
}

/* f *= (c0 + c1 v) + (c4 v) w */
static void fp12_mul_by_014(fp12 *f, const fp2 *c0, const fp2 *c1, const fp2 *c4) {
    fp6 aa, bb, s;
    fp2 o;
    fp6_mul_by_01(&aa, &f->c0, c0, c1);
    fp6_mul_by_1(&bb, &f->c1, c4);
    fp2_add(&o, c1, c4);
    fp6_add(&s, &f->c1, &f->c0);
    fp6_mul_by_01(&s, &s, c0, &o);
    fp6_sub(&s, &s, &aa);
    fp6_sub(&f->c1, &s, &bb);
    fp6_mul_by_v(&bb, &bb);
    fp6_add(&f->c0, &bb, &aa);
}

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

/* f = prod over n <= PAIRING_CHUNK finite pairs, without the final conjugation. */
static void miller_loop_chunk(fp12 *f, const g1_affine *const *p, const g2_affine *const *q, size_t n) {
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
}

void pairing_miller_loop_multi(fp12 *out, const g1_affine *p, const g2_affine *q, size_t n) {
    const g1_affine *pp[PAIRING_CHUNK];
    const g2_affine *qq[PAIRING_CHUNK];
    fp12 acc, f;
    fp12_one(&acc);
    size_t m = 0;
    for (size_t i = 0; i <= n; i++) {
        if (i < n && !g1_affine_is_infinity(&p[i]) && !g2_affine_is_infinity(&q[i])) {
            pp[m] = &p[i];
            qq[m] = &q[i];
            m++;
        }
        if (m == PAIRING_CHUNK || (i == n && m > 0)) {
            miller_loop_chunk(&f, pp, qq, m);
            fp12_mul(&acc, &acc, &f);
            m = 0;
        }
    }
#if BLS12_381_X_IS_NEGATIVE
    fp12_conj(out, &acc);
#else
    *out = acc;
#endif
}

/* ---- final exponentiation --------------------------------------------------------------- */

/* (a + b s)^2 in Fp4 = Fp2[s]/(s^2 - xi): (a^2 + xi b^2) + ((a + b)^2 - a^2 - b^2) s */
static void fp4_sqr(fp2 *c0, fp2 *c1, const fp2 *a, const fp2 *b) {
    fp2 t0, t1, t2;
    fp2_sqr(&t0, a);
    fp2_sqr(&t1, b);
    fp2_mul_by_xi(&t2, &t1);
    fp2_add(c0, &t2, &t0);
    fp2_add(&t2, a, b);
    fp2_sqr(&t2, &t2);
    fp2_sub(&t2, &t2, &t0);
    fp2_sub(c1, &t2, &t1);
}

/* Squaring in the cyclotomic subgroup (a^(p^6 + 1) = 1): Granger, Scott, ePrint 2009/565. */
static void cyclotomic_sqr(fp12 *r, const fp12 *f) {
    fp2 z0 = f->c0.c0, z4 = f->c0.c1, z3 = f->c0.c2;
    fp2 z2 = f->c1.c0, z1 = f->c1.c1, z5 = f->c1.c2;
    fp2 t0, t1, t2, t3;

    fp4_sqr(&t0, &t1, &z0, &z1);
    /* A */
    fp2_sub(&z0, &t0, &z0);
    fp2_dbl(&z0, &z0);
    fp2_add(&z0, &z0, &t0);
    fp2_add(&z1, &t1, &z1);
    fp2_dbl(&z1, &z1);
    fp2_add(&z1, &z1, &t1);

    fp4_sqr(&t0, &t1, &z2, &z3);
    fp4_sqr(&t2, &t3, &z4, &z5);
    /* C */
    fp2_sub(&z4, &t0, &z4);
    fp2_dbl(&z4, &z4);
    fp2_add(&z4, &z4, &t0);
    fp2_add(&z5, &t1, &z5);
    fp2_dbl(&z5, &z5);
    fp2_add(&z5, &z5, &t1);
    /* B */
    fp2_mul_by_xi(&t0, &t3);
    fp2_add(&z2, &t0, &z2);
    fp2_dbl(&z2, &z2);
    fp2_add(&z2, &z2, &t0);
    fp2_sub(&z3, &t2, &z3);
    fp2_dbl(&z3, &z3);
    fp2_add(&z3, &z3, &t2);

    r->c0.c0 = z0;
    r->c0.c1 = z4;
    r->c0.c2 = z3;
    r->c1.c0 = z2;
    r->c1.c1 = z1;
    r->c1.c2 = z5;
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

void pairing_multi(fp12 *out, const g1_affine *p, const g2_affine *q, size_t n) {
    fp12 f;
    pairing_miller_loop_multi(&f, p, q, n);
    pairing_final_exponentiation(out, &f);
}

void pairing(fp12 *out, const g1_affine *p, const g2_affine *q) { pairing_multi(out, p, q, 1); }
