/* Optimal ate pairing on BLS12-381, e: G1 x G2 -> GT (subgroup of Fp12*).
 * Loop parameter x = -0xd201000000010000 (BLS parameter), M-twist; final exponentiation
 * (p^12 - 1)/r split into the easy part and the hard part.
 * Sources: zkcrypto/bls12_381 (pairings.rs) and IETF draft-irtf-cfrg-pairing-friendly-curves.
 * Thread-safety: pure functions.
 */
#ifndef CUZK_EC_PAIRING_H
#define CUZK_EC_PAIRING_H

#include "ec/ec.h"
#include "ff/fp12.h"

/* out = prod_i f_{x,Q_i}(P_i), the Miller loop only (no final exponentiation). Pairs where P or
 * Q is the point at infinity contribute 1. Points must be on their curves and in G1/G2. */
void pairing_miller_loop_multi(fp12 *out, const g1_affine *p, const g2_affine *q, size_t n);
/* out = f^((p^12 - 1)/r) */
void pairing_final_exponentiation(fp12 *out, const fp12 *f);
/* out = prod_i e(P_i, Q_i): one multi-Miller loop and one final exponentiation. */
void pairing_multi(fp12 *out, const g1_affine *p, const g2_affine *q, size_t n);
/* out = e(P, Q) */
void pairing(fp12 *out, const g1_affine *p, const g2_affine *q);

#endif
