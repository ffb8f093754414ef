/* The extension tower of a pairing-friendly curve, declarations (X-include template):
 *   Fp2  = Fp[u]/(u^2 + 1)
 *   Fp6  = Fp2[v]/(v^3 - xi), xi = TOWER_XI_C0 + u   (BLS12-381: 1 + u; BN254: 9 + u)
 *   Fp12 = Fp6[w]/(w^2 - v)
 * Elements in Montgomery form (the base field's), an Fp2 is c0 + c1 u.
 *
 * Include with CURVE_NS (src/ff/ns.h) and TOWER_XI_C0 defined, after FF_DECLARE(CN(fp), ...):
 * it declares the types CN(fp2), CN(fp6), CN(fp12), the inline Fp2 arithmetic and the out-of-line
 * functions that src/ff/tower_impl.h defines. No include guard: one inclusion per curve.
 * Source of the tower and formulas: zkcrypto/bls12_381 (fp2.rs, fp6.rs, fp12.rs), IETF
 * draft-irtf-cfrg-pairing-friendly-curves; the same tower as ffjavascript for BN254.
 * Thread-safety: pure functions.
 */
#if !defined(TOWER_XI_C0)
#error "define CURVE_NS and TOWER_XI_C0 before including ff/tower.h"
#endif

#include "ff/field.h"
#include "ff/ns.h"

/* Fp2 = c0 + c1*u, u^2 = -1. */
typedef struct CN(fp2) { CN(fp) c0, c1; } CN(fp2);

MONT_INLINE void CN(fp2_zero)(CN(fp2) *r) { CN(fp_zero)(&r->c0); CN(fp_zero)(&r->c1); }
MONT_INLINE void CN(fp2_one)(CN(fp2) *r) { CN(fp_one)(&r->c0); CN(fp_zero)(&r->c1); }
MONT_INLINE bool CN(fp2_is_zero)(const CN(fp2) *a) { return CN(fp_is_zero)(&a->c0) && CN(fp_is_zero)(&a->c1); }
MONT_INLINE bool CN(fp2_is_one)(const CN(fp2) *a) { return CN(fp_is_one)(&a->c0) && CN(fp_is_zero)(&a->c1); }
MONT_INLINE bool CN(fp2_eq)(const CN(fp2) *a, const CN(fp2) *b) { return CN(fp_eq)(&a->c0, &b->c0) && CN(fp_eq)(&a->c1, &b->c1); }
MONT_INLINE void CN(fp2_add)(CN(fp2) *r, const CN(fp2) *a, const CN(fp2) *b) { CN(fp_add)(&r->c0, &a->c0, &b->c0); CN(fp_add)(&r->c1, &a->c1, &b->c1); }
MONT_INLINE void CN(fp2_sub)(CN(fp2) *r, const CN(fp2) *a, const CN(fp2) *b) { CN(fp_sub)(&r->c0, &a->c0, &b->c0); CN(fp_sub)(&r->c1, &a->c1, &b->c1); }
MONT_INLINE void CN(fp2_dbl)(CN(fp2) *r, const CN(fp2) *a) { CN(fp_dbl)(&r->c0, &a->c0); CN(fp_dbl)(&r->c1, &a->c1); }
MONT_INLINE void CN(fp2_neg)(CN(fp2) *r, const CN(fp2) *a) { CN(fp_neg)(&r->c0, &a->c0); CN(fp_neg)(&r->c1, &a->c1); }
/* conjugate = Frobenius x -> x^p */
MONT_INLINE void CN(fp2_conj)(CN(fp2) *r, const CN(fp2) *a) { r->c0 = a->c0; CN(fp_neg)(&r->c1, &a->c1); }
/* Karatsuba: (a0 + a1 u)(b0 + b1 u) = a0b0 - a1b1 + ((a0+a1)(b0+b1) - a0b0 - a1b1) u */
MONT_INLINE void CN(fp2_mul)(CN(fp2) *r, const CN(fp2) *a, const CN(fp2) *b) {
    CN(fp) t0, t1, t2, t3;
    CN(fp_mul)(&t0, &a->c0, &b->c0);
    CN(fp_mul)(&t1, &a->c1, &b->c1);
    CN(fp_add)(&t2, &a->c0, &a->c1);
    CN(fp_add)(&t3, &b->c0, &b->c1);
    CN(fp_mul)(&t2, &t2, &t3);
    CN(fp_sub)(&r->c0, &t0, &t1);
    CN(fp_sub)(&t2, &t2, &t0);
    CN(fp_sub)(&r->c1, &t2, &t1);
}
/* (a0 + a1 u)^2 = (a0 + a1)(a0 - a1) + 2 a0 a1 u */
MONT_INLINE void CN(fp2_sqr)(CN(fp2) *r, const CN(fp2) *a) {
    CN(fp) t0, t1, t2;
    CN(fp_add)(&t0, &a->c0, &a->c1);
    CN(fp_sub)(&t1, &a->c0, &a->c1);
    CN(fp_mul)(&t2, &a->c0, &a->c1);
    CN(fp_mul)(&r->c0, &t0, &t1);
    CN(fp_dbl)(&r->c1, &t2);
}
MONT_INLINE void CN(fp2_mul_fp)(CN(fp2) *r, const CN(fp2) *a, const CN(fp) *b) { CN(fp_mul)(&r->c0, &a->c0, b); CN(fp_mul)(&r->c1, &a->c1, b); }
/* r = k a for the small constant k = TOWER_XI_C0 (double-and-add; unrolled at compile time) */
MONT_INLINE void CN(fp_mul_by_xi_c0_)(CN(fp) *r, const CN(fp) *a) {
    CN(fp) acc = *a;
    int top = 0;
    while ((TOWER_XI_C0 >> (top + 1)) != 0) top++;
    for (int b = top - 1; b >= 0; b--) {
        CN(fp_dbl)(&acc, &acc);
        if ((TOWER_XI_C0 >> b) & 1) CN(fp_add)(&acc, &acc, a);
    }
    *r = acc;
}
/* multiply by the non-residue xi = k + u that builds Fp6: (k a0 - a1) + (k a1 + a0) u */
MONT_INLINE void CN(fp2_mul_by_xi)(CN(fp2) *r, const CN(fp2) *a) {
    CN(fp) t0, t1;
    CN(fp_mul_by_xi_c0_)(&t0, &a->c0);
    CN(fp_mul_by_xi_c0_)(&t1, &a->c1);
    CN(fp_sub)(&t0, &t0, &a->c1);
    CN(fp_add)(&t1, &t1, &a->c0);
    r->c0 = t0;
    r->c1 = t1;
}
void CN(fp2_inv)(CN(fp2) *r, const CN(fp2) *a);                 /* 0 -> 0 */
void CN(fp2_inv_vartime)(CN(fp2) *r, const CN(fp2) *a);         /* the same, variable time: public values only */
void CN(fp2_pow_vartime)(CN(fp2) *r, const CN(fp2) *a, const uint64_t *e, int e_limbs);
bool CN(fp2_sqrt)(CN(fp2) *r, const CN(fp2) *a);               /* false if not a square (p = 3 mod 4) */
/* zcash ordering for Fp2 (flag 0x20): compare c1 first, then c0 when c1 == 0. */
bool CN(fp2_is_lexicographically_largest)(const CN(fp2) *a);

typedef struct CN(fp6) { CN(fp2) c0, c1, c2; } CN(fp6);
typedef struct CN(fp12) { CN(fp6) c0, c1; } CN(fp12);

void CN(fp6_zero)(CN(fp6) *r);
void CN(fp6_one)(CN(fp6) *r);
bool CN(fp6_is_zero)(const CN(fp6) *a);
bool CN(fp6_eq)(const CN(fp6) *a, const CN(fp6) *b);
void CN(fp6_add)(CN(fp6) *r, const CN(fp6) *a, const CN(fp6) *b);
void CN(fp6_sub)(CN(fp6) *r, const CN(fp6) *a, const CN(fp6) *b);
void CN(fp6_neg)(CN(fp6) *r, const CN(fp6) *a);
void CN(fp6_mul)(CN(fp6) *r, const CN(fp6) *a, const CN(fp6) *b);
void CN(fp6_sqr)(CN(fp6) *r, const CN(fp6) *a);
void CN(fp6_inv)(CN(fp6) *r, const CN(fp6) *a);
void CN(fp6_mul_by_v)(CN(fp6) *r, const CN(fp6) *a);         /* r = a * v */

void CN(fp12_zero)(CN(fp12) *r);
void CN(fp12_one)(CN(fp12) *r);
bool CN(fp12_is_one)(const CN(fp12) *a);
bool CN(fp12_eq)(const CN(fp12) *a, const CN(fp12) *b);
void CN(fp12_mul)(CN(fp12) *r, const CN(fp12) *a, const CN(fp12) *b);
void CN(fp12_sqr)(CN(fp12) *r, const CN(fp12) *a);
void CN(fp12_inv)(CN(fp12) *r, const CN(fp12) *a);
void CN(fp12_conj)(CN(fp12) *r, const CN(fp12) *a);          /* x -> x^(p^6) */
void CN(fp12_frobenius)(CN(fp12) *r, const CN(fp12) *a, int power); /* x -> x^(p^power), power 1..11 */
void CN(fp12_pow_vartime)(CN(fp12) *r, const CN(fp12) *a, const uint64_t *e, int e_limbs);
