/* The BLS12-381 name space for curve-generic code (src/curves/README.md): every curve-dependent
 * name X of a template written CN(X) (src/ff/ns.h) means X itself (the empty prefix: the names cuzk
 * had before it had a second curve). Sets, for one declaration pass or one instantiation:
 *   CURVE_NS            the name prefix (empty)
 *   CURVE_ID            cuzk_curve value (include/cuzk/prover.h)
 *   CURVE_NAME          cuzk_curve_name() of it
 *   CURVE_SNARKJS_NAME  the "curve" string of snarkjs JSON files
 *   CURVE_PRIME_Q/R     the iden3 prime ids of Fp and Fr (src/formats/iden3.h)
 *   CURVE_FR_TWO_ADICITY  s with r - 1 = 2^s t, t odd (the largest NTT domain is 2^s)
 *   CURVE_BELLPERSON    1: bellperson .params keys, the zcash encodings and the 192-byte proof
 *   CURVE_GPU_FIXED_BASE  1: the device has the fixed-base kernels of setup (src/cuda/gpu.h)
 *   CURVE_GPU_NS        the prefix of the curve's device entry points (src/cuda/gpu.h; GN(X))
 *   CURVE_EC52          1: G1 and G2 points are checked 8 at a time where the CPU has AVX-512
 *                       IFMA (src/ec/ec52.h: 4-limb Fp, Fp2 = Fp[u]/(u^2 + 1)); then
 *                       CURVE_G1_B_MONT / CURVE_G2_B_MONT are the curves' b (initializers)
 * No include guard: each inclusion (re)starts this name space. */
#include "curves/ns_undef.h"
#include "cuzk/prover.h"
#include "curves/curve.h" /* every curve's, before CURVE_NS is set: their curve.h set it too */
#include "ff/ns.h"

#define CURVE_NS
#define CURVE_ID CUZK_CURVE_BLS12_381
#define CURVE_NAME "bls12-381"
#define CURVE_SNARKJS_NAME "bls12381"
#define CURVE_PRIME_Q PRIME_BLS12_381_Q
#define CURVE_PRIME_R PRIME_BLS12_381_R
#define CURVE_FR_TWO_ADICITY BLS12_381_FR_TWO_ADICITY
#define CURVE_BELLPERSON 1
#define CURVE_GPU_FIXED_BASE 1
#define CURVE_GPU_NS gpu_
#define CURVE_EC52 0 /* 6-limb Fp */
