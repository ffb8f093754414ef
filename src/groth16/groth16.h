/* Groth16 prover, verifier and test-parameter generator on the CPU (the reference backend).
 *
 * Two conventions, one proof equation (DESIGN.md section 4, FORMATS.md section 5):
 *   snarkjs    (zkey + wtns): a/b rows from the zkey coefficients, C = A*B on the rows, H on the
 *              odd coset of the 2m domain (roots 5^t), H MSM over the zkey's Lagrange H points.
 *   bellperson (.params + R1CS + witness): a/b/c = A*w, B*w, C*w plus one A row per input, H by
 *              coset division with g = 7 (roots 7^t), densities select the A/B query scalars.
 * With fixed r, s both give fully determined proofs; the GPU backend must produce the same bytes.
 * These are the CPU backend's pieces; every front end reaches them (and the GPU backend) through
 * the one orchestration of src/groth16/prove.h (groth16_prove_start / groth16_prove_finish over a
 * prover value). groth16_prove_zkey / groth16_prove_bellperson stay as the CPU reference calls
 * of the tests.
 *
 * Memory: the prover allocates O(m) host scratch (a, b, c: 3m Fr; scalars: n_vars + m scalars)
 * and frees it before returning (small circuits; the pipeline issue moves big frees off the
 * critical path). Thread-safety: reentrant; inputs are read-only.
 *
 * Declared once per curve (groth16/groth16_decl.h, src/curves/curve.h): groth16_prove_zkey for
 * BLS12-381, bn254_groth16_prove_zkey for BN254; the bellperson convention is BLS12-381's only.
 */
#ifndef CUZK_GROTH16_GROTH16_H
#define CUZK_GROTH16_GROTH16_H

#include <stdbool.h>
#include <stddef.h>

#include "cuzk/cuzk.h"
#include "formats/bellperson.h"
#include "formats/json.h"
#include "formats/snarkjs.h"
#include "r1cs/r1cs.h"

/* Wall-clock time of each prover stage, milliseconds. */
typedef struct groth16_timings {
    double abc_ms;       /* a/b/c row evaluations (synthesis of the evaluation vectors) */
    double h_ms;         /* NTTs of the H step */
    double msm_a_ms, msm_b1_ms, msm_b2_ms, msm_l_ms, msm_h_ms;
    double assemble_ms;  /* r, s terms and conversion to affine */
    double upload_ms;    /* GPU prover: witness host -> device copy (0 on the CPU) */
    double b2_wait_ms;   /* finish: time spent on B_G2 in finish (the MSM itself, or waiting for
                            the thread the GPU prover's start launched); msm_b2_ms is the MSM's own time */
    int b2_device;       /* 1: B_G2 ran on the GPU inside start (GPU prover, device B_G2): start's
                            msm_b2_ms and total_ms include it, finish only reports the same
                            msm_b2_ms and waits for nothing */
    double total_ms;
} groth16_timings;

/* How start hands back a large scratch buffer (see groth16_prove_bellperson_start). */
typedef void (*groth16_release_fn)(void *release_ctx, void *ptr, size_t bytes);

/* one declaration pass per curve: groth16_prove_zkey, bn254_groth16_prove_zkey, ... */
#include "curves/bls12_381/ns.h"
#include "groth16/groth16_decl.h"
#include "curves/bn254/ns.h"
#include "groth16/groth16_decl.h"
#include "curves/ns_reset.h"

#endif
