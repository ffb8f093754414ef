/* BLS12-381 fields: Fp, Fr and the tower Fp2/Fp6/Fp12 (src/curves/bls12_381/curve.h), the generic
 * code of src/ff instantiated with this curve's constants. */
#define CUZK_CURVE_KEEP_PARAMS
#include "curves/bls12_381/curve.h"

#include "curves/bls12_381/fp12_constants.h"

#define BLS12_381_FR_SQRT_NONRESIDUE 7 /* the multiplicative generator */

FF_DEFINE(fp, 6, BLS12_381_FP)
FF_DEFINE(fr, 4, BLS12_381_FR)
FF_DEFINE_SQRT_3MOD4(fp, 6) /* p = 3 mod 4 */
FF_DEFINE_SQRT_TS(fr, 4, BLS12_381_FR)

#define TOWER_FROB_COEFF_INIT BLS12_381_FP12_FROB_COEFF_INIT
#include "ff/tower_impl.h"
