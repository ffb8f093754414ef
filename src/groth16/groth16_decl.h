/* The Groth16 CPU prover, verifier and test setup of one curve (groth16/groth16.h): a declaration
 * template, included once per curve by groth16/groth16.h with the curve's name space set
 * (src/curves/<curve>/ns.h); every curve-dependent name is CN(name). No include guard. */
/* r, s: uniform in Fr from the OS RNG (getrandom, rejection sampling). CUZK_ERR_RANDOM on
 * failure. */
cuzk_status CN(groth16_random_fr)(CN(fr) *out, cuzk_error *err);

/* snarkjs convention. w: n_w = z->n_vars witness values (Montgomery), w[0] = 1.
 * Errors: CUZK_ERR_MISMATCH (witness length), CUZK_ERR_NOMEM. t may be NULL. */
cuzk_status CN(groth16_prove_zkey)(CN(groth16_proof) *out, const CN(zkey) *z, const CN(fr) *w, size_t n_w,
                                   const CN(fr) *r, const CN(fr) *s, int nthreads, groth16_timings *t,
                                   cuzk_error *err);

#if CURVE_BELLPERSON /* bellperson keys are BLS12-381's */
/* bellperson convention. cs: the circuit (n_public public variables after ONE), w: cs->n_vars
 * values. p: parameters made for this circuit (counts must match: CUZK_ERR_MISMATCH otherwise). */
cuzk_status groth16_prove_bellperson(CN(groth16_proof) *out, const bellperson_params *p, const CN(r1cs) *cs,
                                     const CN(fr) *w, size_t n_w, const CN(fr) *r, const CN(fr) *s, int nthreads,
                                     groth16_timings *t, cuzk_error *err);
#endif

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

/* Everything finish needs, owned by the pending: the four G1 MSM results, copies of the vk
 * points, r and s (wiped on free), the n_b B-selected witness scalars. One thing is borrowed: the
 * B_G2 bases (p->b_g2), so the parameters must outlive the pending. Not thread-safe: one thread
 * at a time may use a pending (any thread, not necessarily the one that started it). */
typedef struct CN(groth16_pending) CN(groth16_pending);

#if CURVE_BELLPERSON
/* Upper bound of the host bytes start allocates for (p, cs) with nthreads threads: the buffers
 * handed to release, the pending (groth16_pending_bytes), and the MSMs' transient buckets (freed
 * inside start). For budgets: reserve this before calling start. */
size_t groth16_bellperson_start_bytes(const bellperson_params *p, const CN(r1cs) *cs, int nthreads);

/* Start: w (n_w = cs->n_vars values, Montgomery, w[0] = 1) and cs are read only during the call;
 * after it returns the caller may free them. r, s: copied into the pending.
 * On CUZK_OK *out is a new pending (free with groth16_pending_free). On failure *out = NULL and
 * every buffer has been released. Errors: CUZK_ERR_ARG (NULL), CUZK_ERR_MISMATCH (witness length,
 * parameters of another circuit, density mismatch), CUZK_ERR_NOMEM. t (may be NULL): abc_ms,
 * h_ms, msm_a/b1/l/h_ms, total_ms = their sum (the prover's own stage time, without the call's
 * entry and exit). Thread-safety: reentrant. */
cuzk_status groth16_prove_bellperson_start(CN(groth16_pending) **out, const bellperson_params *p, const CN(r1cs) *cs,
                                           const CN(fr) *w, size_t n_w, const CN(fr) *r, const CN(fr) *s, int nthreads,
                                           groth16_release_fn release, void *release_ctx, groth16_timings *t,
                                           cuzk_error *err);
#endif

/* Finish: B_G2 = MSM(b_g2, B scalars), then the proof with the pending's r, s (DESIGN.md section 4
 * item 8). Does not free the pending. Errors: CUZK_ERR_ARG (NULL, or finish called twice on the
 * same pending). t (may be NULL): msm_b2_ms, assemble_ms, total_ms = their sum. */
cuzk_status CN(groth16_prove_bellperson_finish)(CN(groth16_proof) *out, CN(groth16_pending) *pend, int nthreads,
                                                groth16_timings *t, cuzk_error *err);

/* Host bytes the pending holds (struct + B scalars). 0 for NULL. */
size_t CN(groth16_pending_bytes)(const CN(groth16_pending) *pend);

/* Releases the B scalars through the start's release hook, wipes r, s, frees the struct.
 * NULL is a no-op. */
void CN(groth16_pending_free)(CN(groth16_pending) *pend);

/* e(A, B) == e(alpha, beta) e(sum pub_i ic_i, gamma) e(C, delta), pub[0..n_pub) without the
 * leading ONE. Also checks the proof points are on their curves and in their subgroups.
 * Returns CUZK_OK (valid), CUZK_ERR_INVALID (not valid; reason in err), CUZK_ERR_MISMATCH
 * (n_pub != vk->n_public), CUZK_ERR_POINT (a degenerate key: alpha1, beta2, gamma2, delta2 or an
 * IC point at infinity, which would accept forged proofs); a proof point at infinity is
 * CUZK_ERR_INVALID, the point named. */
cuzk_status CN(groth16_verify)(const CN(groth16_vk) *vk, const CN(fr) *pub, size_t n_pub, const CN(groth16_proof) *p,
                               cuzk_error *err);

#if CURVE_BELLPERSON
/* Test parameters (bellperson layout) for cs, from the toxic waste tau, alpha, beta, gamma, delta
 * drawn from a seeded generator (seed != NULL: reproducible; NULL: OS RNG). SINGLE-PARTY AND
 * INSECURE: whoever ran it can forge proofs. For tests and benchmarks only.
 * Errors: CUZK_ERR_NOMEM, CUZK_ERR_ARG (domain larger than 2^28). */
cuzk_status groth16_setup_bellperson(bellperson_params *out, const CN(r1cs) *cs, const uint64_t *seed,
                                     int nthreads, cuzk_error *err);
#endif
