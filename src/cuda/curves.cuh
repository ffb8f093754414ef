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

/* A group of a curve, the parameter of the MSM (src/cuda/gpu_msm.cu: one set of kernels for G1
 * and G2): g1_of<C> has its points over C::fp, g2_of<C> over C::fp2; both with C's scalar field.
 * Members: curve, fr, affine, xyzz, jacobian (device points), host_xyzz (the host view of xyzz:
 * the same formulas over src/ff/mont.h, src/cuda/host_field.cuh), and FP_PER_COORD (Fp elements per
 * coordinate: 1 or 2, for operation counts). */
template <class C>
struct g1_of {
    typedef C curve;
    typedef typename C::fr fr;
    typedef typename C::g1_affine affine;
    typedef typename C::g1_xyzz xyzz;
    typedef typename C::g1_jacobian jacobian;
    typedef typename C::host_g1_xyzz host_xyzz;
    static constexpr int FP_PER_COORD = 1;
};
template <class C>
struct g2_of {
    typedef C curve;
    typedef typename C::fr fr;
    typedef typename C::g2_affine affine;
    typedef typename C::g2_xyzz xyzz;
    typedef typename C::g2_jacobian jacobian;
    typedef typename C::host_g2_xyzz host_xyzz;
    static constexpr int FP_PER_COORD = 2;
};

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
