/* Where the prover's heavy stages run: the CPU (src/poly, src/msm) or the GPU (src/cuda/gpu.h).
 *
 * The backend is process-wide, chosen once before proving (like cuzk_set_log): the CLI sets it
 * from --backend. Every stage computes the same mathematical value on either backend, so proofs
 * with fixed r, s are byte-identical (tests/test_gpu_prove.c checks this on a GPU).
 * What runs on the GPU today: the G1 MSMs (A, B_G1, L/C, H) and the NTTs of H; B_G2 and the
 * pointwise steps of H stay on CPU threads. Parameter generation (src/groth16/setup.c) computes
 * every point set through groth16_g1_fixed_base / groth16_g2_fixed_base.
 * Thread-safety: groth16_backend_set is not thread-safe against concurrent provers; the stage
 * functions are reentrant.
 */
#ifndef CUZK_GROTH16_BACKEND_H
#define CUZK_GROTH16_BACKEND_H

#include "cuzk/groth16.h"
#include "curves/bls12_381/curve.h"

typedef enum { GROTH16_BACKEND_CPU = 0, GROTH16_BACKEND_GPU = 1 } groth16_backend;

/* Resolves a user request: AUTO -> GPU when this build has CUDA and a device is present, else
 * CPU (logging a one-line notice at INFO); GPU -> CUZK_ERR_DEVICE when there is none;
 * CPU -> CPU. Does not change the current backend. */
cuzk_status groth16_backend_resolve(cuzk_backend requested, groth16_backend *out, cuzk_error *err);
void groth16_backend_set(groth16_backend b);
groth16_backend groth16_backend_get(void);
const char *groth16_backend_name(groth16_backend b);

/* out = sum scalars[i] * bases[i] on the current backend (see src/msm/msm.h for the layout).
 * Errors (GPU only): CUZK_ERR_NOMEM_DEVICE, CUZK_ERR_DEVICE. */
cuzk_status groth16_g1_msm(g1_jacobian *out, const g1_affine *bases, const scalar256 *scalars, size_t n,
                           int nthreads, cuzk_error *err);

/* h_bellperson / h_snarkjs of src/poly/ntt.h on the current backend: same inputs, same outputs. */
cuzk_status groth16_h_bellperson(const ntt_domain *d, fr *a, fr *b, fr *c, int nthreads, cuzk_error *err);
cuzk_status groth16_h_snarkjs(const ntt_domain *d, fr *a, fr *b, fr *c, int nthreads, cuzk_error *err);

/* Fixed-base batch scalar multiplication on the current backend (parameter generation):
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
cuzk_status groth16_g1_fixed_base(g1_affine *out, const g1_affine *gen, const fr *scalars, size_t n, int nthreads,
                                  cuzk_error *err);
cuzk_status groth16_g2_fixed_base(g2_affine *out, const g2_affine *gen, const fr *scalars, size_t n, int nthreads,
                                  cuzk_error *err);

#endif
