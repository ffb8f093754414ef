/* "The curve this translation unit is compiled for": BLS12-381 by default; BN254 when the unit is
 * compiled with src/curves/bn254/upper.h forced in front (CMakeLists.txt compiles the curve-generic
 * upper-layer sources, CUZK_CURVE_GENERIC_SRC, a second time that way). Code above the curve
 * layers that is written once for every curve includes this header instead of a curve's own
 * curve.h, and names the curve's metadata through:
 *   CURVE_ID            cuzk_curve value (include/cuzk/prover.h)
 *   CURVE_SNARKJS_NAME  the "curve" string of snarkjs JSON files ("bls12381", "bn128")
 *   CURVE_PRIME_Q/R     the iden3 prime ids of Fp and Fr (src/formats/iden3.h)
 * Everything else (types, fields, groups, pairing, NTT, MSM) keeps its unprefixed name, which means
 * the bn254_ one in a BN254 unit (src/curves/bn254/bind.h).
 */
#ifndef CUZK_CURVES_CURVE_H
#define CUZK_CURVES_CURVE_H

#include "cuzk/prover.h" /* cuzk_curve */

#if defined(CUZK_CURVE_BOUND_BN254)
#include "curves/bn254/bind.h"
#define CURVE_ID CUZK_CURVE_BN254
#define CURVE_SNARKJS_NAME "bn128"
#define CURVE_PRIME_Q PRIME_BN254_Q
#define CURVE_PRIME_R PRIME_BN254_R
#else
#include "curves/bls12_381/curve.h"
#define CURVE_ID CUZK_CURVE_BLS12_381
#define CURVE_SNARKJS_NAME "bls12381"
#define CURVE_PRIME_Q PRIME_BLS12_381_Q
#define CURVE_PRIME_R PRIME_BLS12_381_R
#endif

#endif
