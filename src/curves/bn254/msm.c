/* BN254 CPU MSMs (G1, G2) and fixed-base multiplications: the templates of src/msm. */
#include "curves/bn254/curve.h"

#include "msm/fixed_base_impl.h"
#include "msm/msm_impl.h"

/* the 8-lane MSM code's view of G1 (src/msm/msm52.h): Fp's constants and the scalar XYZZ
 * additions for its exceptional lanes */
_Static_assert(sizeof(bn254_g1_xyzz) == sizeof(msm52_xyzz) && sizeof(bn254_g1_affine) == 64, "layout");
static void g1_add_52(msm52_xyzz *r, const msm52_xyzz *p, const msm52_xyzz *q) {
    bn254_g1_xyzz_add((bn254_g1_xyzz *)r, (const bn254_g1_xyzz *)p, (const bn254_g1_xyzz *)q);
}
static void g1_add_mixed_52(msm52_xyzz *r, const msm52_xyzz *p, const uint64_t q[8]) {
    bn254_g1_xyzz_add_mixed((bn254_g1_xyzz *)r, (const bn254_g1_xyzz *)p, (const bn254_g1_affine *)q);
}
static const msm52_field bn254_fp_52 = {bn254_fp_MODULUS, bn254_fp_R2_, bn254_fp_R_, g1_add_52, g1_add_mixed_52};
MSM_DEFINE(bn254_g1, bn254_fp, 13, &bn254_fp_52)
MSM_DEFINE(bn254_g2, bn254_fp2, 11, NULL)
FIXED_BASE_DEFINE(bn254_g1, bn254_fp, bn254_fr)
FIXED_BASE_DEFINE(bn254_g2, bn254_fp2, bn254_fr)
