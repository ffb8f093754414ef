/* The BN254 name space for curve-generic code (src/curves/README.md): every curve-dependent name X
 * of a template written CN(X) (src/ff/ns.h) means bn254_X. The facts it sets are those of
 * src/curves/bls12_381/ns.h; BN254 has no bellperson keys (CURVE_BELLPERSON 0: snarkjs's
 * conventions only). No include guard: each inclusion (re)starts this name space. */
#include "curves/ns_undef.h"
#include "cuzk/prover.h"
#include "curves/curve.h" /* every curve's, before CURVE_NS is set: their curve.h set it too */
#include "ff/ns.h"

#define CURVE_NS bn254_
#define CURVE_ID CUZK_CURVE_BN254
#define CURVE_NAME "bn254"
#define CURVE_SNARKJS_NAME "bn128"
#define CURVE_PRIME_Q PRIME_BN254_Q
#define CURVE_PRIME_R PRIME_BN254_R
#define CURVE_FR_TWO_ADICITY BN254_FR_TWO_ADICITY
#define CURVE_BELLPERSON 0
#define CURVE_GPU_FIXED_BASE 0
#define CURVE_GPU_NS gpu_bn254_
#define CURVE_EC52 1
#define CURVE_G1_B_MONT BN254_G1_B_MONT
#define CURVE_G2_B_MONT BN254_G2_B_MONT
