/* Per-curve pairing declarations (X-include template, no include guard; CURVE_NS defined, after
 * the curve's tower and groups). e: G1 x G2 -> GT, GT the order-r subgroup of Fp12*.
 * Defined in src/curves/<curve>/pairing.c (the curve's Miller loop and final exponentiation) on
 * top of the shared pieces of src/ec/pairing_impl.h. Thread-safety: pure functions.
 */
#include <stddef.h>

#include "ff/ns.h"

/* out = prod_i f_i(P_i), the Miller loop only (no final exponentiation). Pairs where P or Q is the
 * point at infinity contribute 1. Points must be on their curves and in G1/G2. */
void CN(pairing_miller_loop_multi)(CN(fp12) *out, const CN(g1_affine) *p, const CN(g2_affine) *q, size_t n);
/* out = f^e with e the curve's final exponent (see its pairing.c: (p^12 - 1)/r or a fixed
 * multiple of it coprime to r) */
void CN(pairing_final_exponentiation)(CN(fp12) *out, const CN(fp12) *f);
/* out = prod_i e(P_i, Q_i): one multi-Miller loop and one final exponentiation. */
void CN(pairing_multi)(CN(fp12) *out, const CN(g1_affine) *p, const CN(g2_affine) *q, size_t n);
/* out = e(P, Q) */
void CN(pairing)(CN(fp12) *out, const CN(g1_affine) *p, const CN(g2_affine) *q);
