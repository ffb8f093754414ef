/* Constant-time scalar multiplication for secret scalars (the prover's r and s).
 *
 * G##_mul_fr_consttime(r, p, k): r = [k]P for k in Fr (Montgomery form), P any point of G
 * (infinity included), r in Jacobian coordinates as elsewhere in src/ec (infinity is (1, 1, 0)).
 * The sequence of operations and of memory addresses does not depend on k or on P:
 *   - a fixed window of 4 bits over all 256 bits of the canonical k (64 windows, leading zero
 *     windows included): 4 doublings and one addition per window, whatever the window value;
 *   - the window's multiple [w]P is read from a 16-entry table by scanning every entry and
 *     keeping the wanted one with a mask (no secret-dependent index);
 *   - additions and doublings use the complete formulas for a = 0 short-Weierstrass curves in
 *     homogeneous projective coordinates (Renes, Costello, Batina, "Complete addition formulas for
 *     prime order elliptic curves", EUROCRYPT 2016, algorithms 7 and 9), which need no case
 *     analysis for infinity, P + P or P + (-P);
 *   - conversions in and out select with masks.
 * The timing of the field operations themselves is that of src/ff (Montgomery multiplication
 * with a final subtraction written as a select). Compared with G##_mul_fr_vartime the result is
 * the same point (tests/test_reports.c checks it on random and edge scalars).
 * Cost: 256 doublings + 64 + 14 additions (~2x the variable-time double-and-add on average).
 * Thread-safety: pure functions; r may alias p.
 */
#ifndef CUZK_EC_EC_CT_H
#define CUZK_EC_EC_CT_H

#include "ec/ec.h"

void g1_mul_fr_consttime(g1_jacobian *r, const g1_jacobian *p, const fr *k);
void g2_mul_fr_consttime(g2_jacobian *r, const g2_jacobian *p, const fr *k);

#endif
