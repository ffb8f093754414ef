/* Internals shared by the CPU prover (prover.c) and the GPU prover (gpu_prover.c): the pending
 * proof between start and finish, and the steps both backends run the same way. Not installed. */
#ifndef CUZK_GROTH16_PROVER_INTERNAL_H
#define CUZK_GROTH16_PROVER_INTERNAL_H

#include <pthread.h>
#include <stdint.h>

#include "groth16/groth16.h"
#include "curves/curve.h"
#include "util/abort.h"
#include "util/log.h"

/* A stage boundary of a start or finish: CUZK_ERR_CANCELLED (naming the stage not begun) when the
 * calling thread's abort probe fires (util/abort.h), else CUZK_OK. */
static inline cuzk_status groth16_abort_point(const char *next_stage, cuzk_error *err) {
    return abort_requested() ? ERR(err, CUZK_ERR_CANCELLED, "cancelled before %s", next_stage) : CUZK_OK;
}

/* The five MSM results of one proof: sA, sB1, sC (= L), sH (G1) and sB2 (G2). */
typedef struct groth16_msm_results {
    g1_jacobian a, b1, c, h;
    g2_jacobian b2;
} groth16_msm_results;

/* The pending proof between start and finish: everything finish touches, owned here, except the
 * B_G2 bases (the parameters' b_g2 array, borrowed: the parameters must outlive the pending).
 * B_G2 runs either in finish (CPU prover) or on a thread start launched (GPU prover: the CPU
 * computes B_G2 while the GPU runs the G1 side); finish and groth16_pending_free join it. */
struct groth16_pending {
    groth16_msm_results mr;       /* a, b1, c (= L), h from start; b2 by the B_G2 step */
    g1_affine alpha1, beta1, delta1;
    g2_affine beta2, delta2;
    fr r, s;                      /* secrets: wiped by groth16_pending_free */
    const g2_affine *b_g2;        /* borrowed: p->b_g2 */
    scalar256 *b_scalars;         /* owned: n_b canonical scalars (inputs then aux with B density) */
    size_t n_b;
    groth16_release_fn release;   /* how b_scalars is released (NULL: free) */
    void *release_ctx;
    int finished;
    /* B_G2 on a thread (GPU prover) */
    pthread_t b2_thread;
    int b2_started, b2_joined, b2_nthreads;
    double b2_ms;                 /* time of the B_G2 MSM on its thread */
};

/* Hands ptr (bytes long) to release, or free()s it when release is NULL. NULL ptr: no-op. */
void groth16_release_buf(groth16_release_fn release, void *ctx, void *ptr, size_t bytes);

/* Montgomery -> canonical scalars, n entries, on nthreads threads. */
void groth16_frs_to_scalars(scalar256 *out, const fr *in, size_t n, int nthreads);


/* log2 of bellperson's domain: the smallest m = 2^k >= n_constraints + n_public + 1. */
int groth16_bellperson_log_m(const r1cs *cs);

/* The proof from the MSM results and r, s (DESIGN.md section 4 item 8). */
void groth16_assemble(groth16_proof *out, const groth16_msm_results *m, const g1_affine *alpha1,
                      const g1_affine *beta1, const g2_affine *beta2, const g1_affine *delta1,
                      const g2_affine *delta2, const fr *r, const fr *s);

/* Starts B_G2 = MSM(pend->b_g2, pend->b_scalars) on a new thread using nthreads threads.
 * CUZK_ERR_NOMEM when the thread cannot be created (then nothing runs; finish computes it). */
cuzk_status groth16_pending_start_b2(groth16_pending *pend, int nthreads, cuzk_error *err);

#endif
