/* The BLS12-381 tower for the pairing target group:
 *   Fp6  = Fp2[v]/(v^3 - xi), xi = 1 + u
 *   Fp12 = Fp6[w]/(w^2 - v)
 * Elements in Montgomery form. Thread-safety: pure functions.
 * Source: the tower of the zkcrypto/bls12_381 crate and of IETF draft-irtf-cfrg-pairing-friendly-curves.
 */
#ifndef CUZK_FF_FP12_H
#define CUZK_FF_FP12_H

#include "ff/fields.h"

typedef struct fp6 { fp2 c0, c1, c2; } fp6;
typedef struct fp12 { fp6 c0, c1; } fp12;

void fp6_zero(fp6 *r);
void fp6_one(fp6 *r);
bool fp6_is_zero(const fp6 *a);
bool fp6_eq(const fp6 *a, const fp6 *b);
void fp6_add(fp6 *r, const fp6 *a, const fp6 *b);
void fp6_sub(fp6 *r, const fp6 *a, const fp6 *b);
void fp6_neg(fp6 *r, const fp6 *a);
void fp6_mul(fp6 *r, const fp6 *a, const fp6 *b);
void fp6_sqr(fp6 *r, const fp6 *a);
void fp6_inv(fp6 *r, const fp6 *a);
void fp6_mul_by_v(fp6 *r, const fp6 *a);         /* r = a * v */

void fp12_zero(fp12 *r);
void fp12_one(fp12 *r);
bool fp12_is_one(const fp12 *a);
bool fp12_eq(const fp12 *a, const fp12 *b);
void fp12_mul(fp12 *r, const fp12 *a, const fp12 *b);
void fp12_sqr(fp12 *r, const fp12 *a);
void fp12_inv(fp12 *r, const fp12 *a);
void fp12_conj(fp12 *r, const fp12 *a);          /* x -> x^(p^6) */
void fp12_frobenius(fp12 *r, const fp12 *a, int power); /* x -> x^(p^power), power 1..11 */
void fp12_pow_vartime(fp12 *r, const fp12 *a, const uint64_t *e, int e_limbs);

#endif
