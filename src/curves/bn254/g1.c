/* BN254 G1: E(Fp): y^2 = x^3 + 3, the generic group law of src/ec/curve_impl.h over Fp, the
 * generator (1, 2) and the subgroup check (cofactor 1: every point of E(Fp) is in G1).
 * Thread-safety: pure functions.
 */
#include "curves/bn254/curve.h"

static const bn254_fp BN254_G1_B = BN254_G1_B_MONT;

static void bn254_g1_curve_b(bn254_fp *b) { *b = BN254_G1_B; }

#define EC_G bn254_g1
#define EC_F bn254_fp
#define EC_FR bn254_fr
#include "ec/curve_impl.h"
#undef EC_FR
#undef EC_F
#undef EC_G

static const bn254_g1_affine BN254_G1_GENERATOR = BN254_G1_GENERATOR_MONT;

void bn254_g1_generator(bn254_g1_affine *r) { *r = BN254_G1_GENERATOR; }

/* #E(Fp) = r (cofactor 1): a point on the curve has order r or is infinity. */
bool bn254_g1_affine_is_in_subgroup(const bn254_g1_affine *p) {
    (void)p;
    return true;
}
