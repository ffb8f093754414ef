/* BN254 (snarkjs/circom "bn128") on the device: the one file of src/cuda that names this curve. The
 * same generic fields, points and host view as src/cuda/curve_bls12_381.cuh, with the constants of
 * src/curves/bn254/constants.h (tools/gen_bn254_constants.py; nothing is retyped). Members: see
 * src/cuda/curve_bls12_381.cuh. Differences: G1 is y^2 = x^3 + 3; Fr has two-adicity 28 and only
 * the snarkjs roots (5^t: fr_root_canon ignores `roots`); there is no bellperson H for BN254
 * (fr_coset_gen_bellperson is never used); the fixed-base generators are not provided (the
 * fixed-base entry points are instantiated for api_curve only). Fp2 = Fp[u]/(u^2 + 1) as for
 * BLS12-381 (p = 3 mod 4). */
#ifndef CUZK_CUDA_CURVE_BN254_CUH
#define CUZK_CUDA_CURVE_BN254_CUH

#include "cuda/ec.cuh"
#include "cuda/host_field.cuh"
#include "curves/bn254/constants.h"

namespace cuzk_dev {

CUZK_DEV_PARAMS(bn254_fp_params, BN254_FP, 4)
CUZK_DEV_PARAMS(bn254_fr_params, BN254_FR, 4)

struct bn254 {
    typedef mont_t<bn254_fp_params> fp;
    typedef mont_t<bn254_fr_params> fr;
    typedef fp2_t<fp> fp2;
    typedef affine_t<fp> g1_affine;
    typedef xyzz_t<fp> g1_xyzz;
    typedef jacobian_t<fp> g1_jacobian;
    typedef affine_t<fp2> g2_affine; /* the D-twist y^2 = x^3 + 3/(9 + u); b is not in the formulas */
    typedef xyzz_t<fp2> g2_xyzz;
    typedef jacobian_t<fp2> g2_jacobian;
    typedef host_mont_t<bn254_fp_params> host_fp;
    typedef xyzz_t<host_fp> host_g1_xyzz;
    typedef fp2_t<host_fp> host_fp2;
    typedef xyzz_t<host_fp2> host_g2_xyzz;

    static constexpr int FR_TWO_ADICITY = BN254_FR_TWO_ADICITY;
    static constexpr uint32_t G1_B = 3;
    static constexpr uint32_t fr_coset_gen_bellperson = 0; /* no bellperson convention on BN254 */
    __host__ __device__ static constexpr uint32_t fr_root_canon(int roots, int i) {
        constexpr uint64_t r5[4] = BN254_FR_ROOT_5_CANON;
        return (void)roots, CUZK_LIMB32(r5, i);
    }
};

static_assert(sizeof(bn254::fp) == 32 && sizeof(bn254::fr) == 32, "BN254 field layout");
static_assert(sizeof(bn254::g1_affine) == 64 && sizeof(bn254::g1_jacobian) == 96, "BN254 G1 layout");
static_assert(sizeof(bn254::g2_affine) == 128 && sizeof(bn254::g2_jacobian) == 192, "BN254 G2 layout");
static_assert(sizeof(bn254::host_g1_xyzz) == sizeof(bn254::g1_xyzz), "host G1 xyzz layout");
static_assert(sizeof(bn254::host_g2_xyzz) == sizeof(bn254::g2_xyzz), "host G2 xyzz layout");
static_assert((uint32_t)(bn254_fp_params::mod(0) * bn254_fp_params::inv) == 0xffffffffu, "fp inv");
static_assert((uint32_t)(bn254_fr_params::mod(0) * bn254_fr_params::inv) == 0xffffffffu, "fr inv");

}  // namespace cuzk_dev

#endif
