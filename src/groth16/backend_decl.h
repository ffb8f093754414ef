/* The fixed-base hook of parameter generation on one curve (groth16/backend.h): a declaration
 * template, included once per curve by groth16/backend.h with the curve's name space set
 * (src/curves/<curve>/ns.h); every curve-dependent name is CN(name). No include guard. */
/* Fixed-base batch scalar multiplication on backend be (parameter generation):
 * out[i] = scalars[i] * gen, affine (Montgomery coordinates, (0, 0) for scalar 0), for i < n.
 * Byte-identical on both backends (affine coordinates are unique).
 *   CPU: the byte-wise comb of src/msm/fixed_base.h over nthreads threads (<= 0: all CPUs).
 *   GPU: gpu_g1_fixed_base / gpu_g2_fixed_base of src/cuda/gpu.h (nthreads unused); when they
 *        answer CUZK_ERR_UNSUPPORTED (a CUDA build without the kernels) the CPU path runs.
 * out: n points, host; gen: one affine point on the curve; scalars: n Fr, Montgomery, host; out
 * and scalars must not overlap. n = 0 does nothing.
 * Errors: CUZK_ERR_ARG (NULL with n > 0), CUZK_ERR_NOMEM (CPU table or scratch; GPU pinned
 * staging), CUZK_ERR_NOMEM_DEVICE, CUZK_ERR_DEVICE (GPU). out is unspecified on failure.
 * Thread-safety: reentrant. */
cuzk_status CN(groth16_g1_fixed_base)(groth16_backend be, CN(g1_affine) *out, const CN(g1_affine) *gen, const CN(fr) *scalars, size_t n,
                                      int nthreads, cuzk_error *err);
cuzk_status CN(groth16_g2_fixed_base)(groth16_backend be, CN(g2_affine) *out, const CN(g2_affine) *gen, const CN(fr) *scalars, size_t n,
                                      int nthreads, cuzk_error *err);

