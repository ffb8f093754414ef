/* The curve-independent pieces of the optimal ate pairing (X-include template, included once by
 * each curve's pairing.c with CURVE_NS defined): sparse multiplications by line functions, the
 * cyclotomic squaring, and the multi-pair driver.
 *
 * The including file defines, after this header:
 *   static void pairing_chunk_(CN(fp12) *f, const CN(g1_affine) *const *p,
 *                              const CN(g2_affine) *const *q, size_t n);
 *     the Miller loop over n <= PAIRING_CHUNK pairs of finite points (with any final conjugation or
 *     Frobenius steps the curve needs), and
 *   void CN(pairing_final_exponentiation)(CN(fp12) *out, const CN(fp12) *f).
 *
 * Line representation: with Fp12 = Fp6[w]/(w^2 - v), Fp6 = Fp2[v]/(v^3 - xi), a line evaluated at
 * P is sparse: an M-twist gives c0 + c1 v + c4 v w (mul_by_014), a D-twist c0 + (c3 + c4 v) w
 * (mul_by_034). Formulas as in zkcrypto/bls12_381 and arkworks (ark-ff fp12_2over3over2.rs).
 * No allocation: pairs are processed in chunks of PAIRING_CHUNK on the stack, one Miller-loop value
 * per chunk, multiplied together. Thread-safety: pure functions.
 */
#include "ff/ns.h"

#define PAIRING_CHUNK 16

/* ---- sparse multiplication by a line ---------------------------------------------------- */

/* r = a * (c0 + c1 v) in Fp6 */
__attribute__((unused)) static void fp6_mul_by_01(CN(fp6) *r, const CN(fp6) *a, const CN(fp2) *c0, const CN(fp2) *c1) {
    CN(fp2) aa, bb, t1, t2, t3, s, u;
    CN(fp2_mul)(&aa, &a->c0, c0);
    CN(fp2_mul)(&bb, &a->c1, c1);

    CN(fp2_mul)(&t1, &a->c2, c1);
    CN(fp2_mul_by_xi)(&t1, &t1);
    CN(fp2_add)(&t1, &t1, &aa);

    CN(fp2_add)(&s, &a->c0, &a->c1);
    CN(fp2_add)(&u, c0, c1);
    CN(fp2_mul)(&t2, &s, &u);
    CN(fp2_sub)(&t2, &t2, &aa);
    CN(fp2_sub)(&t2, &t2, &bb);

    CN(fp2_add)(&s, &a->c0, &a->c2);
    CN(fp2_mul)(&t3, &s, c0);
    CN(fp2_sub)(&t3, &t3, &aa);
    CN(fp2_add)(&t3, &t3, &bb);

    r->c0 = t1;
    r->c1 = t2;
    r->c2 = t3;
}

/* r = a * (c1 v) in Fp6 */
__attribute__((unused)) static void fp6_mul_by_1(CN(fp6) *r, const CN(fp6) *a, const CN(fp2) *c1) {
    CN(fp2) t0, t1, t2;
    CN(fp2_mul)(&t0, &a->c2, c1);
    CN(fp2_mul_by_xi)(&t0, &t0);
    CN(fp2_mul)(&t1, &a->c0, c1);
    CN(fp2_mul)(&t2, &a->c1, c1);
    r->c0 = t0;
    r->c1 = t1;
    r->c2 = t2;
}

/* f *= (c0 + c1 v) + (c4 v) w */
__attribute__((unused)) static void fp12_mul_by_014(CN(fp12) *f, const CN(fp2) *c0, const CN(fp2) *c1, const CN(fp2) *c4) {
    CN(fp6) aa, bb, s;
    CN(fp2) o;
    fp6_mul_by_01(&aa, &f->c0, c0, c1);
    fp6_mul_by_1(&bb, &f->c1, c4);
    CN(fp2_add)(&o, c1, c4);
    CN(fp6_add)(&s, &f->c1, &f->c0);
    fp6_mul_by_01(&s, &s, c0, &o);
    CN(fp6_sub)(&s, &s, &aa);
    CN(fp6_sub)(&f->c1, &s, &bb);
    CN(fp6_mul_by_v)(&bb, &bb);
    CN(fp6_add)(&f->c0, &bb, &aa);
}


/* f *= c0 + (c3 + c4 v) w (D-twist lines): a = f.c0 c0, b = f.c1 (c3 + c4 v),
 * f.c1 = (f.c0 + f.c1)((c0 + c3) + c4 v) - a - b, f.c0 = a + v b */
__attribute__((unused)) static void fp12_mul_by_034(CN(fp12) *f, const CN(fp2) *c0, const CN(fp2) *c3, const CN(fp2) *c4) {
    CN(fp6) a, b, e;
    CN(fp2) o;
    CN(fp2_mul)(&a.c0, &f->c0.c0, c0);
    CN(fp2_mul)(&a.c1, &f->c0.c1, c0);
    CN(fp2_mul)(&a.c2, &f->c0.c2, c0);
    fp6_mul_by_01(&b, &f->c1, c3, c4);
    CN(fp2_add)(&o, c0, c3);
    CN(fp6_add)(&e, &f->c0, &f->c1);
    fp6_mul_by_01(&e, &e, &o, c4);
    CN(fp6_sub)(&e, &e, &a);
    CN(fp6_sub)(&f->c1, &e, &b);
    CN(fp6_mul_by_v)(&b, &b);
    CN(fp6_add)(&f->c0, &b, &a);
}

/* ---- cyclotomic squaring ---------------------------------------------------------------- */

/* (a + b s)^2 in Fp4 = Fp2[s]/(s^2 - xi): (a^2 + xi b^2) + ((a + b)^2 - a^2 - b^2) s */
__attribute__((unused)) static void fp4_sqr(CN(fp2) *c0, CN(fp2) *c1, const CN(fp2) *a, const CN(fp2) *b) {
    CN(fp2) t0, t1, t2;
    CN(fp2_sqr)(&t0, a);
    CN(fp2_sqr)(&t1, b);
    CN(fp2_mul_by_xi)(&t2, &t1);
    CN(fp2_add)(c0, &t2, &t0);
    CN(fp2_add)(&t2, a, b);
    CN(fp2_sqr)(&t2, &t2);
    CN(fp2_sub)(&t2, &t2, &t0);
    CN(fp2_sub)(c1, &t2, &t1);
}

/* Squaring in the cyclotomic subgroup (a^(p^6 + 1) = 1): Granger, Scott, ePrint 2009/565. */
__attribute__((unused)) static void cyclotomic_sqr(CN(fp12) *r, const CN(fp12) *f) {
    CN(fp2) z0 = f->c0.c0, z4 = f->c0.c1, z3 = f->c0.c2;
    CN(fp2) z2 = f->c1.c0, z1 = f->c1.c1, z5 = f->c1.c2;
    CN(fp2) t0, t1, t2, t3;

    fp4_sqr(&t0, &t1, &z0, &z1);
    /* A */
    CN(fp2_sub)(&z0, &t0, &z0);
    CN(fp2_dbl)(&z0, &z0);
    CN(fp2_add)(&z0, &z0, &t0);
    CN(fp2_add)(&z1, &t1, &z1);
    CN(fp2_dbl)(&z1, &z1);
    CN(fp2_add)(&z1, &z1, &t1);

    fp4_sqr(&t0, &t1, &z2, &z3);
    fp4_sqr(&t2, &t3, &z4, &z5);
    /* C */
    CN(fp2_sub)(&z4, &t0, &z4);
    CN(fp2_dbl)(&z4, &z4);
    CN(fp2_add)(&z4, &z4, &t0);
    CN(fp2_add)(&z5, &t1, &z5);
    CN(fp2_dbl)(&z5, &z5);
    CN(fp2_add)(&z5, &z5, &t1);
    /* B */
    CN(fp2_mul_by_xi)(&t0, &t3);
    CN(fp2_add)(&z2, &t0, &z2);
    CN(fp2_dbl)(&z2, &z2);
    CN(fp2_add)(&z2, &z2, &t0);
    CN(fp2_sub)(&z3, &t2, &z3);
    CN(fp2_dbl)(&z3, &z3);
    CN(fp2_add)(&z3, &z3, &t2);

    r->c0.c0 = z0;
    r->c0.c1 = z4;
    r->c0.c2 = z3;
    r->c1.c0 = z2;
    r->c1.c1 = z1;
    r->c1.c2 = z5;
}

static void pairing_chunk_(CN(fp12) *f, const CN(g1_affine) *const *p, const CN(g2_affine) *const *q,
                           size_t n);

/* ---- the multi-pair driver -------------------------------------------------------------- */

void CN(pairing_miller_loop_multi)(CN(fp12) *out, const CN(g1_affine) *p, const CN(g2_affine) *q, size_t n) {
    const CN(g1_affine) *pp[PAIRING_CHUNK];
    const CN(g2_affine) *qq[PAIRING_CHUNK];
    CN(fp12) acc, f;
    CN(fp12_one)(&acc);
    size_t m = 0;
    for (size_t i = 0; i <= n; i++) {
        if (i < n && !CN(g1_affine_is_infinity)(&p[i]) && !CN(g2_affine_is_infinity)(&q[i])) {
            pp[m] = &p[i];
            qq[m] = &q[i];
            m++;
        }
        if (m == PAIRING_CHUNK || (i == n && m > 0)) {
            pairing_chunk_(&f, pp, qq, m);
            CN(fp12_mul)(&acc, &acc, &f);
            m = 0;
        }
    }
    *out = acc;
}

void CN(pairing_multi)(CN(fp12) *out, const CN(g1_affine) *p, const CN(g2_affine) *q, size_t n) {
    CN(fp12) f;
    CN(pairing_miller_loop_multi)(&f, p, q, n);
    CN(pairing_final_exponentiation)(out, &f);
}

void CN(pairing)(CN(fp12) *out, const CN(g1_affine) *p, const CN(g2_affine) *q) { CN(pairing_multi)(out, p, q, 1); }
