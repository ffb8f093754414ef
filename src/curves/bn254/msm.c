/* BN254 CPU MSMs (G1, G2) and fixed-base multiplications: the templates of src/msm. */
#include "curves/bn254/curve.h"

#include "msm/fixed_base_impl.h"
#include "msm/msm_impl.h"

static const msm52_field bn254_fp_52 = {bn254_fp_MODULUS, bn254_fp_R2_, bn254_fp_R_};
MSM_DEFINE(bn254_g1, bn254_fp, 13, &bn254_fp_52)
MSM_DEFINE(bn254_g2, bn254_fp2, 11, NULL)
FIXED_BASE_DEFINE(bn254_g1, bn254_fp, bn254_fr)
FIXED_BASE_DEFINE(bn254_g2, bn254_fp2, bn254_fr)
