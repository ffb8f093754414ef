/* The curves the device code is instantiated for, and the curve of the C entry points.
 *
 * Every kernel and host routine of src/cuda/gpu_*.cu is a template over a curve type C (see
 * src/cuda/curve_bls12_381.cuh for its members); CUZK_CURVE_TYPES(C) at the top of such a
 * template gives the body the short names fp_t, fr_t, fp2_t, g1_affine_t, g1_xyzz_t, g1_jacobian_t,
 * g2_affine_t, g2_xyzz_t, g2_jacobian_t of C's types, so a body reads the same for every curve.
 *
 * api_curve is the curve of the C boundary (src/cuda/gpu.h): its functions take src/ff and src/ec's
 * host types (struct fr, struct g1_affine, ...), which are BLS12-381's. BN254 (src/cuda/curve_bn254.cuh)
 * is the same templates instantiated a second time, behind the gpu_bn254_* entry points of gpu.h.
 */
#ifndef CUZK_CUDA_CURVES_CUH
#define CUZK_CUDA_CURVES_CUH

#include "cuda/curve_bls12_381.cuh"
#include "cuda/curve_bn254.cuh"

namespace cuzk_dev {
typedef bls12_381 api_curve;
}  // namespace cuzk_dev

#define CUZK_CURVE_TYPES(C)                               \
    typedef typename C::fp fp_t;                          \
    typedef typename C::fr fr_t;                          \
    typedef typename C::fp2 fp2_t;                        \
    typedef typename C::g1_affine g1_affine_t;            \
    typedef typename C::g1_xyzz g1_xyzz_t;                \
    typedef typename C::g1_jacobian g1_jacobian_t;        \
    typedef typename C::g2_affine g2_affine_t;            \
    typedef typename C::g2_xyzz g2_xyzz_t;                \
    typedef typename C::g2_jacobian g2_jacobian_t

#endif
