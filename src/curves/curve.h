/* Every curve cuzk has, for code above the curve layers: the BLS12-381 names (unprefixed: fr,
 * g1_affine, pairing, ...) and the BN254 ones (bn254_fr, bn254_g1_affine, ...), and CN() / GN()
 * (src/ff/ns.h) for curve-generic code.
 *
 * Curve-generic code above the curves (the snarkjs formats, r1cs, the prover orchestration, the
 * verifier, setup, the public API's per-curve half) is written once, every curve-dependent name
 * spelled CN(name), and instantiated per curve (src/curves/README.md, "Above the curve layers"):
 *   - a header declares its curve-independent part once, then runs one declaration pass per
 *     curve over its *_decl.h template: #include "curves/<curve>/ns.h", the template, and at the
 *     end #include "curves/ns_reset.h";
 *   - a layer's instantiation file per curve (e.g. src/groth16/groth16_bn254.c) defines
 *     CURVE_INSTANCE_<CURVE> (BLS12_381, BN254), includes "curves/ns_reset.h" (which sets the
 *     unit's name space) and then the layer's *_impl.h templates.
 * In a pass or an instantiation, src/curves/<curve>/ns.h has set CURVE_NS, CURVE_ID, CURVE_NAME,
 * CURVE_SNARKJS_NAME, CURVE_PRIME_Q/R, CURVE_BELLPERSON and CURVE_GPU_NS.
 */
#ifndef CUZK_CURVES_CURVE_H
#define CUZK_CURVES_CURVE_H

#include "curves/bls12_381/curve.h"
#include "curves/bn254/curve.h"
#include "ff/ns.h"

#endif
