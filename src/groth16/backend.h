/* Where parameter generation (src/groth16/setup.c) computes its point sets: the CPU comb
 * (src/msm/fixed_base.h) or the GPU (src/cuda/gpu.h). A value carried by each setup
 * (groth16_setup_run.backend), never process-wide; proofs carry theirs in the prover
 * (src/groth16/prove.h). Both backends give byte-identical parameters for the same seed.
 * Thread-safety: reentrant.
 */
#ifndef CUZK_GROTH16_BACKEND_H
#define CUZK_GROTH16_BACKEND_H

#include "cuzk/groth16.h"
#include "curves/curve.h"

typedef enum { GROTH16_BACKEND_CPU = 0, GROTH16_BACKEND_GPU = 1 } groth16_backend;

/* Resolves a user request: AUTO -> GPU when this build has CUDA and a device is present, else
 * CPU (logging a one-line notice at INFO); GPU -> CUZK_ERR_DEVICE when there is none;
 * CPU -> CPU. Does not change the current backend. */
cuzk_status groth16_backend_resolve(cuzk_backend requested, groth16_backend *out, cuzk_error *err);
const char *groth16_backend_name(groth16_backend b);

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
cuzk_status groth16_g1_fixed_base(groth16_backend be, g1_affine *out, const g1_affine *gen, const fr *scalars, size_t n,
                                  int nthreads, cuzk_error *err);
cuzk_status groth16_g2_fixed_base(groth16_backend be, g2_affine *out, const g2_affine *gen, const fr *scalars, size_t n,
                                  int nthreads, cuzk_error *err);

#endif
