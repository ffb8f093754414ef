/* BLS12-381 on the device: the one file of src/cuda that names the curve. It instantiates the
 * generic fields (src/cuda/fields.cuh, src/cuda/mont.cuh), points (src/cuda/ec.cuh) and host view
 * (src/cuda/host_field.cuh) with the curve's host constants (src/curves/bls12_381/constants.h, generated
 * by tools/gen_bls12_381_constants.py; nothing is retyped) and gives the kernels of src/cuda/gpu_*.cu
 * their curve parameter: every kernel is a template over a curve type with the members of
 * `bls12_381` below, so another curve (BN254) is one more struct like it (src/cuda/curves.cuh).
 *
 * Members of a curve type:
 *   fp, fr, fp2                   device fields (mont_t, fp2_t), same bytes as the host's
 *   g1_affine, g1_xyzz, g1_jacobian, g2_affine, g2_xyzz, g2_jacobian   device points
 *   host_fp, host_g1_xyzz         host view of fp and of G1 XYZZ points (same bytes)
 *   host_fp2, host_g2_xyzz        the same for fp2 and G2 XYZZ points
 *   FR_TWO_ADICITY                largest s with 2^s | r - 1
 *   G1_B                          b of G1: y^2 = x^3 + b (a small integer)
 *   fr_root_canon(roots, i)       32-bit word i of a canonical primitive 2^s-th root of unity in
 *                                 Fr: roots 0 = the bellperson convention (7^t), 1 = snarkjs (5^t)
 *   fr_coset_gen_bellperson       the bellperson H coset generator (a small integer)
 *   G1_GEN_MONT, G2_GEN_MONT      the generators, Montgomery form, 64-bit limbs (benchmarks)
 */
#ifndef CUZK_CUDA_CURVE_BLS12_381_CUH
#define CUZK_CUDA_CURVE_BLS12_381_CUH

#include "cuda/ec.cuh"
#include "cuda/host_field.cuh"
#include "curves/bls12_381/constants.h"

namespace cuzk_dev {

CUZK_DEV_PARAMS(bls12_381_fp_params, BLS12_381_FP, 6)
CUZK_DEV_PARAMS(bls12_381_fr_params, BLS12_381_FR, 4)

struct bls12_381 {
    typedef mont_t<bls12_381_fp_params> fp;
    typedef mont_t<bls12_381_fr_params> fr;
    typedef fp2_t<fp> fp2;
    typedef affine_t<fp> g1_affine;
    typedef xyzz_t<fp> g1_xyzz;
    typedef jacobian_t<fp> g1_jacobian;
    typedef affine_t<fp2> g2_affine;   /* G2 over Fp2: y^2 = x^3 + 4(1 + u); b is not in the formulas */
    typedef xyzz_t<fp2> g2_xyzz;
    typedef jacobian_t<fp2> g2_jacobian;
    typedef host_mont_t<bls12_381_fp_params> host_fp;
    typedef xyzz_t<host_fp> host_g1_xyzz;
    typedef fp2_t<host_fp> host_fp2;
    typedef xyzz_t<host_fp2> host_g2_xyzz;

    static constexpr int FR_TWO_ADICITY = BLS12_381_FR_TWO_ADICITY;
    static constexpr uint32_t G1_B = 4;
    static constexpr uint32_t fr_coset_gen_bellperson = 7;
    __host__ __device__ static constexpr uint32_t fr_root_canon(int roots, int i) {
        constexpr uint64_t r7[4] = BLS12_381_FR_ROOT_7_CANON;
        constexpr uint64_t r5[4] = BLS12_381_FR_ROOT_5_CANON;
        return roots == 1 ? CUZK_LIMB32(r5, i) : CUZK_LIMB32(r7, i);
    }
    /* the zcash/IETF generators, Montgomery form (src/curves/bls12_381/constants.h), for setup and the
     * benchmarks */
    static constexpr uint64_t G1_GEN_MONT[12] = BLS12_381_G1_GENERATOR_MONT;
    static constexpr uint64_t G2_GEN_MONT[24] = BLS12_381_G2_GENERATOR_MONT;
};

static_assert(sizeof(bls12_381::fp) == 48 && sizeof(bls12_381::fr) == 32, "BLS12-381 field layout");
static_assert(sizeof(bls12_381::fp2) == 96, "BLS12-381 fp2 layout");
static_assert(sizeof(bls12_381::g1_affine) == 96 && sizeof(bls12_381::g1_jacobian) == 144, "G1 layout");
static_assert(sizeof(bls12_381::g2_affine) == 192 && sizeof(bls12_381::g2_jacobian) == 288, "G2 layout");
static_assert(sizeof(bls12_381::host_g1_xyzz) == sizeof(bls12_381::g1_xyzz), "host G1 xyzz layout");
static_assert(sizeof(bls12_381::host_g2_xyzz) == sizeof(bls12_381::g2_xyzz), "host G2 xyzz layout");
/* -m^-1 mod 2^32 is the low word of -m^-1 mod 2^64 */
static_assert((uint32_t)(bls12_381_fp_params::mod(0) * bls12_381_fp_params::inv) == 0xffffffffu, "fp inv");
static_assert((uint32_t)(bls12_381_fr_params::mod(0) * bls12_381_fr_params::inv) == 0xffffffffu, "fr inv");

}  // namespace cuzk_dev

#endif
