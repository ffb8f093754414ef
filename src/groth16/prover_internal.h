/* Internals shared by the CPU prover (prover_impl.h) and the GPU prover (gpu_prover_impl.h) of one
 * curve: the pending proof between start and finish, and the steps both backends run the same way.
 * Included only by a curve's instantiation of src/groth16 (groth16_<curve>.c), in that curve's
 * name space (every curve-dependent name is CN(name)). Not installed. */
#ifndef CUZK_GROTH16_PROVER_INTERNAL_H
#define CUZK_GROTH16_PROVER_INTERNAL_H

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>

#include "groth16/groth16.h"
#include "groth16/prove.h"
#include "curves/curve.h"
#include "util/abort.h"
#include "util/log.h"

#if !defined(CURVE_INSTANCE_BLS12_381) && !defined(CURVE_INSTANCE_BN254)
#error "groth16/prover_internal.h belongs to a curve's instantiation of src/groth16 (groth16_<curve>.c)"
#endif

/* A stage boundary of a start or finish: the calling thread's stage note hears next_stage
 * (util/abort.h: the engine's progress reports); CUZK_ERR_CANCELLED (naming the stage not begun)
 * when its abort probe fires, else CUZK_OK. */
static inline cuzk_status groth16_abort_point(const char *next_stage, cuzk_error *err) {
    abort_stage_note(next_stage);
    return abort_requested() ? ERR(err, CUZK_ERR_CANCELLED, "cancelled before %s", next_stage) : CUZK_OK;
}

/* The five MSM results of one proof: sA, sB1, sC (= L), sH (G1) and sB2 (G2). */
typedef struct CN(groth16_msm_results) {
    CN(g1_jacobian) a, b1, c, h;
    CN(g2_jacobian) b2;
} CN(groth16_msm_results);

/* The pending proof between start and finish: everything finish touches, owned here, except the
 * B_G2 bases (the parameters' b_g2 array or the zkey's b2, borrowed: the key must outlive the
 * pending). B_G2 runs either in finish (CPU prover; GPU prover on a snarkjs key without its B_G2
 * query on the device), or on a thread start launched (GPU prover, bellperson keys: the CPU
 * computes B_G2 while the GPU runs the G1 side; finish and groth16_pending_free join it), or on the
 * device inside start (GPU prover with the device B_G2, either convention: b2_done, no
 * b_scalars). */
struct CN(groth16_pending) {
    CN(groth16_msm_results) mr;       /* a, b1, c (= L), h from start; b2 by the B_G2 step */
    CN(g1_affine) alpha1, beta1, delta1;
    CN(g2_affine) beta2, delta2;
    CN(fr) r, s;                      /* secrets: wiped by groth16_pending_free */
    const CN(g2_affine) *b_g2;        /* borrowed: p->b_g2 (bellperson) or z->b2 (snarkjs) */
    scalar256 *b_scalars;         /* owned: n_b canonical scalars (bellperson: inputs then aux with B
                                     density; snarkjs: the whole witness); NULL, n_b 0 when b2_done */
    size_t n_b;
    groth16_release_fn release;   /* how b_scalars is released (NULL: free) */
    void *release_ctx;
    int finished;
    /* B_G2 on a thread (GPU prover) */
    pthread_t b2_thread;
    int b2_started, b2_joined, b2_nthreads;
    int b2_done;                  /* mr.b2 computed by start (on the device): finish only assembles */
    double b2_ms;                 /* time of the B_G2 MSM (on its thread, or on the device) */
};

/* Hands ptr (bytes long) to release, or free()s it when release is NULL. NULL ptr: no-op. */
static inline void groth16_release_buf(groth16_release_fn release, void *ctx, void *ptr, size_t bytes) {
    if (!ptr) return;
    if (release) release(ctx, ptr, bytes);
    else free(ptr);
}

/* Montgomery -> canonical scalars, n entries, on nthreads threads. */
void CN(groth16_frs_to_scalars)(scalar256 *out, const CN(fr) *in, size_t n, int nthreads);


/* log2 of bellperson's domain: the smallest m = 2^k >= n_constraints + n_public + 1. */
int CN(groth16_bellperson_log_m)(const CN(r1cs) *cs);

/* The proof from the MSM results and r, s (DESIGN.md section 4 item 8). */
void CN(groth16_assemble)(CN(groth16_proof) *out, const CN(groth16_msm_results) *m, const CN(g1_affine) *alpha1,
                          const CN(g1_affine) *beta1, const CN(g2_affine) *beta2, const CN(g1_affine) *delta1,
                          const CN(g2_affine) *delta2, const CN(fr) *r, const CN(fr) *s);

/* Starts B_G2 = MSM(pend->b_g2, pend->b_scalars) on a new thread using nthreads threads.
 * CUZK_ERR_NOMEM when the thread cannot be created (then nothing runs; finish computes it). */
cuzk_status CN(groth16_pending_start_b2)(CN(groth16_pending) *pend, int nthreads, cuzk_error *err);

#endif
