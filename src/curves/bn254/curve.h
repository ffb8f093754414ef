/* BN254 (alt_bn128; snarkjs and circom call it "bn128"): every type and function cuzk has for this
 * curve, named with the prefix bn254_ (bn254_fp, bn254_fr, bn254_fp2, bn254_g1_affine,
 * bn254_pairing, bn254_ntt_forward, bn254_g1_msm, ...; the same suffixes and contracts as the
 * BLS12-381 names documented in src/ff/field.h, src/ff/tower.h, src/ec/ec.h, src/poly/ntt.h,
 * src/msm/msm.h).
 *
 *   Fp, Fr 254 bits, 4 limbs each, R = 2^256 (Montgomery form, limbs little-endian: the same
 *        bytes as snarkjs's "LEM" encoding, FORMATS.md section 0).
 *   Fp2 = Fp[u]/(u^2 + 1), Fp6 = Fp2[v]/(v^3 - (9 + u)), Fp12 = Fp6[w]/(w^2 - v) (ffjavascript's
 *        tower, so GT values compare with snarkjs's vk_alphabeta_12 coefficient by coefficient).
 *   G1: y^2 = x^3 + 3 over Fp, generator (1, 2), cofactor 1 (every curve point is in G1).
 *   G2: the D-type twist y^2 = x^3 + 3/(9 + u) over Fp2, EIP-197 generator; cofactor 2p - r, so the
 *        subgroup check is real: psi(Q) == [6u^2] Q (src/curves/bn254/g2.c).
 *   Pairing: optimal ate, Miller loop on 6u + 2 (NAF) plus the two Frobenius line steps, final
 *        exponentiation f^(m (p^12 - 1)/r), m = 2u(6u^2 + 3u + 1), the same GT values as snarkjs
 *        (src/curves/bn254/pairing.c).
 *   NTT: the snarkjs convention only (5^t, two-adicity 28); no bellperson flavour for BN254.
 *
 * Constants: src/curves/bn254/constants.h (tools/gen_bn254_constants.py). Thread-safety: pure
 * functions unless stated.
 */
#ifndef CUZK_CURVES_BN254_CURVE_H
#define CUZK_CURVES_BN254_CURVE_H

#include "curves/bn254/constants.h"
#include "ff/field.h"

FF_DECLARE(bn254_fp, 4, BN254_FP)
FF_DECLARE(bn254_fr, 4, BN254_FR)

#define CURVE_NS bn254_
#define TOWER_XI_C0 9
#include "ff/tower.h"
#include "ec/ec_decl.h"
#include "ec/pairing_decl.h"
#define NTT_TWO_ADICITY BN254_FR_TWO_ADICITY
#define NTT_ROOT_SNARKJS_CANON BN254_FR_ROOT_5_CANON
#include "poly/ntt_decl.h"
#include "msm/fixed_base.h"
#include "msm/msm.h"
MSM_DECLARE(bn254_g1)
MSM_DECLARE(bn254_g2)
FIXED_BASE_DECLARE(bn254_g1, bn254_fr)
FIXED_BASE_DECLARE(bn254_g2, bn254_fr)
#ifndef CUZK_CURVE_KEEP_PARAMS /* the instantiation files keep them for the templates */
#undef NTT_ROOT_SNARKJS_CANON
#undef NTT_TWO_ADICITY
#undef TOWER_XI_C0
#undef CURVE_NS
#endif

/* ---- snarkjs point encodings (FORMATS.md sections 0 and 6) ---------------------------------
 * LEM, as in .zkey files: G1 = x | y, G2 = x.c0 | x.c1 | y.c0 | y.c1, each coordinate 32 bytes
 * little-endian Montgomery (R = 2^256); the point at infinity is all zero bytes. These are the
 * bytes of bn254_g1_affine / bn254_g2_affine on a little-endian host.
 * Decoders check that every coordinate is canonical (< p) and that the point is on the curve, and
 * for G2 also the subgroup (G1 has cofactor 1); they write *r only on EC_DECODE_OK and return
 * EC_DECODE_NOT_CANONICAL, EC_DECODE_NOT_ON_CURVE or EC_DECODE_NOT_IN_SUBGROUP otherwise. */
#define BN254_G1_LEM_BYTES 64
#define BN254_G2_LEM_BYTES 128
ec_decode_result bn254_g1_affine_from_lem(bn254_g1_affine *r, const uint8_t in[64]);
ec_decode_result bn254_g2_affine_from_lem(bn254_g2_affine *r, const uint8_t in[128]);
void bn254_g1_affine_to_lem(uint8_t out[64], const bn254_g1_affine *p);
void bn254_g2_affine_to_lem(uint8_t out[128], const bn254_g2_affine *p);

#endif
