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

/* one declaration pass per curve: groth16_g1_fixed_base, bn254_groth16_g1_fixed_base, ... */
#include "curves/bls12_381/ns.h"
#include "groth16/backend_decl.h"
#include "curves/bn254/ns.h"
#include "groth16/backend_decl.h"
#include "curves/ns_reset.h"

#endif
