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

/* r, s: uniform in Fr from the OS RNG (getrandom, rejection sampling). CUZK_ERR_RANDOM on
 * failure. */
cuzk_status groth16_random_fr(fr *out, cuzk_error *err);

/* snarkjs convention. w: n_w = z->n_vars witness values (Montgomery), w[0] = 1.
 * Errors: CUZK_ERR_MISMATCH (witness length), CUZK_ERR_NOMEM. t may be NULL. */
cuzk_status groth16_prove_zkey(groth16_proof *out, const zkey *z, const fr *w, size_t n_w,
                               const fr *r, const fr *s, int nthreads, groth16_timings *t,
                               cuzk_error *err);

/* bellperson convention. cs: the circuit (n_public public variables after ONE), w: cs->n_vars
 * values. p: parameters made for this circuit (counts must match: CUZK_ERR_MISMATCH otherwise). */
cuzk_status groth16_prove_bellperson(groth16_proof *out, const bellperson_params *p, const r1cs *cs,
                                     const fr *w, size_t n_w, const fr *r, const fr *s, int nthreads,
                                     groth16_timings *t, cuzk_error *err);

/* ---- split bellperson prover: start (a/b/c, H, G1 MSMs) and finish (B_G2 MSM, assembly) ----
 * groth16_prove_bellperson is exactly start + finish + groth16_pending_free (same proof bytes for
 * the same r, s). The split lets a pipeline give the prove worker the next partition while
 * another thread finishes this one (DESIGN.md sections 1 and 6).
 *
 * Release hook: every large scratch buffer start allocates (a, b, c: m Fr each; NTT twiddles;
 * h and witness scalars; selections; density bytes) is handed to release(release_ctx, ptr,
 * bytes) as soon as start no longer needs it (a, b, c right after H), on every path, success or
 * failure; release must free it eventually (e.g. on a reaper thread). release == NULL: free()
 * at once. The pending's B scalars are handed over by groth16_pending_free. */
typedef void (*groth16_release_fn)(void *release_ctx, void *ptr, size_t bytes);

/* Everything finish needs, owned by the pending: the four G1 MSM results, copies of the vk
 * points, r and s (wiped on free), the n_b B-selected witness scalars. One thing is borrowed: the
 * B_G2 bases (p->b_g2), so the parameters must outlive the pending. Not thread-safe: one thread
 * at a time may use a pending (any thread, not necessarily the one that started it). */
typedef struct groth16_pending groth16_pending;

/* Upper bound of the host bytes start allocates for (p, cs) with nthreads threads: the buffers
 * handed to release, the pending (groth16_pending_bytes), and the MSMs' transient buckets (freed
 * inside start). For budgets: reserve this before calling start. */
size_t groth16_bellperson_start_bytes(const bellperson_params *p, const r1cs *cs, int nthreads);

/* Start: w (n_w = cs->n_vars values, Montgomery, w[0] = 1) and cs are read only during the call;
 * after it returns the caller may free them. r, s: copied into the pending.
 * On CUZK_OK *out is a new pending (free with groth16_pending_free). On failure *out = NULL and
 * every buffer has been released. Errors: CUZK_ERR_ARG (NULL), CUZK_ERR_MISMATCH (witness length,
 * parameters of another circuit, density mismatch), CUZK_ERR_NOMEM. t (may be NULL): abc_ms,
 * h_ms, msm_a/b1/l/h_ms, total_ms = their sum (the prover's own stage time, without the call's
 * entry and exit). Thread-safety: reentrant. */
cuzk_status groth16_prove_bellperson_start(groth16_pending **out, const bellperson_params *p, const r1cs *cs,
                                           const fr *w, size_t n_w, const fr *r, const fr *s, int nthreads,
                                           groth16_release_fn release, void *release_ctx, groth16_timings *t,
                                           cuzk_error *err);

/* Finish: B_G2 = MSM(b_g2, B scalars), then the proof with the pending's r, s (DESIGN.md section 4
 * item 8). Does not free the pending. Errors: CUZK_ERR_ARG (NULL, or finish called twice on the
 * same pending). t (may be NULL): msm_b2_ms, assemble_ms, total_ms = their sum. */
cuzk_status groth16_prove_bellperson_finish(groth16_proof *out, groth16_pending *pend, int nthreads,
                                            groth16_timings *t, cuzk_error *err);

/* Host bytes the pending holds (struct + B scalars). 0 for NULL. */
size_t groth16_pending_bytes(const groth16_pending *pend);

/* Releases the B scalars through the start's release hook, wipes r, s, frees the struct.
 * NULL is a no-op. */
void groth16_pending_free(groth16_pending *pend);

/* e(A, B) == e(alpha, beta) e(sum pub_i ic_i, gamma) e(C, delta), pub[0..n_pub) without the
 * leading ONE. Also checks the proof points are on their curves and in their subgroups.
 * Returns CUZK_OK (valid), CUZK_ERR_INVALID (not valid; reason in err), CUZK_ERR_MISMATCH
 * (n_pub != vk->n_public), CUZK_ERR_POINT (a degenerate key: alpha1, beta2, gamma2, delta2 or an
 * IC point at infinity, which would accept forged proofs); a proof point at infinity is
 * CUZK_ERR_INVALID, the point named. */
cuzk_status groth16_verify(const groth16_vk *vk, const fr *pub, size_t n_pub, const groth16_proof *p,
                           cuzk_error *err);

/* Test parameters (bellperson layout) for cs, from the toxic waste tau, alpha, beta, gamma, delta
 * drawn from a seeded generator (seed != NULL: reproducible; NULL: OS RNG). SINGLE-PARTY AND
 * INSECURE: whoever ran it can forge proofs. For tests and benchmarks only.
 * Errors: CUZK_ERR_NOMEM, CUZK_ERR_ARG (domain larger than 2^28). */
cuzk_status groth16_setup_bellperson(bellperson_params *out, const r1cs *cs, const uint64_t *seed,
                                     int nthreads, cuzk_error *err);

#endif
