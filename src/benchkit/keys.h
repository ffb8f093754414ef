/* Internal to src/benchkit: proving keys with INSECURE parameters made in memory for a circuit the
 * benchkit holds (a synthetic circuit, a recorded PoSt circuit), and the release of their host G1
 * copies (src/benchkit/benchkit.h: benchkit_synthetic_setup, benchkit_post_setup,
 * benchkit_drop_host_g1). */
#ifndef CUZK_BENCHKIT_KEYS_H
#define CUZK_BENCHKIT_KEYS_H

#include "benchkit/benchkit.h"
#include "r1cs/r1cs.h"

/* INSECURE parameters for a circuit, made on `backend` and wrapped into a bellperson key.
 * The circuit: either `take` (moved into the key, which frees it; *take is zeroed on success) or
 * `view` (borrowed: `syn` must be the synthetic circuit holding it, of which the key takes a
 * reference). t: stage times (may be NULL). Errors: those of the setup, CUZK_ERR_NOMEM. */
cuzk_status benchkit_setup_key(cuzk_pk **out, r1cs *take, const r1cs *view, benchkit_synthetic *syn, const uint64_t *seed,
                               cuzk_backend backend, int nthreads, cuzk_progress_fn progress, void *progress_user,
                               cuzk_setup_timings *t, cuzk_error *err);

/* Host bytes of a CSR matrix (row pointers, columns, coefficient ids, coefficients). */
uint64_t benchkit_csr_bytes(const csr_matrix *m);
/* Points of the key's A query (aux wires in A, every input) and B queries (wires in B) of r, on
 * nthreads threads. Errors: CUZK_ERR_NOMEM. */
cuzk_status benchkit_query_sizes(const r1cs *r, int nthreads, uint64_t *qa, uint64_t *qb, cuzk_error *err);

#endif
