/* Curve name spaces for the X-include templates of src/ff, src/ec, src/poly and src/msm.
 *
 * Every curve's symbols follow one pattern: <ns>fp, <ns>fr, <ns>fp2, <ns>fp6, <ns>fp12,
 * <ns>g1_affine, <ns>g2_jacobian, <ns>pairing, <ns>ntt_forward, <ns>g1_msm, ... where <ns> is the
 * curve's prefix: empty for BLS12-381 (the names cuzk had before it had a second curve) and
 * `bn254_` for BN254. A template is included with CURVE_NS defined to that prefix and writes
 * every curve symbol as CN(name): CN(fp2_mul) is fp2_mul or bn254_fp2_mul. The layers above the
 * curves (formats, r1cs, groth16) write their own curve-dependent types and functions the same way
 * (CN(zkey), CN(groth16_prove_start)), instantiated per curve (src/curves/README.md).
 * (An empty macro argument to ## is valid C99: CN(fp2_mul) with CURVE_NS empty is fp2_mul.)
 */
#ifndef CUZK_FF_NS_H
#define CUZK_FF_NS_H

#define CUZK_CAT2_(a, b) a##b
#define CUZK_CAT2(a, b) CUZK_CAT2_(a, b)
#define CN(name) CUZK_CAT2(CURVE_NS, name)
/* A curve's device entry point (src/cuda/gpu.h: gpu_g1_msm_run, gpu_bn254_g1_msm_run) in host code
 * above the curve layers: CURVE_GPU_NS is set with CURVE_NS (src/curves/<curve>/ns.h). */
#define GN(name) CUZK_CAT2(CURVE_GPU_NS, name)

#endif
