/* BN254 fields: Fp, Fr and the tower Fp2/Fp6/Fp12 (src/curves/bn254/curve.h), the generic code of
 * src/ff instantiated with this curve's constants. */
#define CUZK_CURVE_KEEP_PARAMS
#include "curves/bn254/curve.h"

FF_DEFINE(bn254_fp, 4, BN254_FP)
FF_DEFINE(bn254_fr, 4, BN254_FR)
FF_DEFINE_SQRT_3MOD4(bn254_fp, 4) /* p = 3 mod 4 */
FF_DEFINE_SQRT_TS(bn254_fr, 4, BN254_FR)

#define TOWER_FROB_COEFF_INIT BN254_FP12_FROB_COEFF_INIT
#include "ff/tower_impl.h"
