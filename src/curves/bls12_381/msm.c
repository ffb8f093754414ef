/* BLS12-381 CPU MSMs (G1, G2) and fixed-base multiplications: the templates of src/msm. */
#include "curves/bls12_381/curve.h"

#include "msm/fixed_base_impl.h"
#include "msm/msm_impl.h"

MSM_DEFINE(g1, fp, 13, NULL) /* 6-limb Fp: the scalar flush */
MSM_DEFINE(g2, fp2, 11, NULL)
FIXED_BASE_DEFINE(g1, fp, fr)
FIXED_BASE_DEFINE(g2, fp2, fr)
