/* Groth16 parameter generation (single-party, INSECURE test parameters), in two conventions from
 * one toxic waste (tau, alpha, beta, gamma, delta):
 *
 *   bellperson .params (DESIGN.md sections 4-5), roots 7^t:
 *     ic_i  = [(beta u_i + alpha v_i + w_i) / gamma]_1       i < n_inputs (ONE and public)
 *     l_k   = [(beta u_k + alpha v_k + w_k) / delta]_1       every aux k
 *     a     = [u_i]_1 for inputs and A-dense aux;  b_g1, b_g2 = [v_i]_1, [v_i]_2 for B-dense vars
 *     h_i   = [tau^i Z(tau) / delta]_1, i < m - 1,  Z(X) = X^m - 1
 *   snarkjs .zkey (FORMATS.md section 3), roots 5^t:
 *     IC_i = [(beta u'_i + alpha v'_i + w'_i) / gamma]_1, C = same / delta for private wires,
 *     A = [u'_i]_1, B1 = [v'_i]_1, B2 = [v'_i]_2 for every wire (infinity where zero),
 *     H_j = [L^(2m)_(2j+1)(tau) / delta]_1, j < m (Lagrange basis of the odd coset).
 * with the QAP at tau: u_i(tau) = sum_j A[j][i] L_j(tau) + [i < n_inputs] L_(n_constraints + i)(tau),
 * v_i, w_i likewise with B and C (no extra rows), L_j the Lagrange basis of the size-m domain
 * (m = smallest power of two >= n_constraints + n_inputs, the same m in both conventions).
 * Bellperson's generator (bellperson/src/groth16/generator.rs) and snarkjs's zkey_new.js define
 * the same queries through an SRS; here the scalars are computed directly and multiplied by the
 * generators through the backend's fixed-base hook (src/groth16/backend.h).
 *
 * Work and memory (n_vars ~ m at PoRep scale; Fr 32 B, G1 affine 96 B, G2 192 B):
 *   Lagrange basis: closed form, O(m), all threads, m Fr;
 *   QAP: transposed SpMV through a column index built by a parallel counting sort (the first
 *     64 columns, ONE and the first inputs, are summed per task in the row pass; the others get
 *     atomic counters, then an atomic scatter of (row, coefficient id) into column order, then
 *     per-column sums of coefficient * L_row over ranges balanced by nonzeros; exact field sums,
 *     so the order the scatter produces does not matter): 8 nnz bytes + (n_vars + 1) u64 scratch
 *     per matrix, one matrix at a time; u, v, k: 3 n_vars Fr;
 *   points: computed in chunks (CPU: 16384 per thread; GPU: 2^25) that go to the sink (which
 *     writes them or copies them into place) on a helper thread while the next chunk is
 *     computed (two chunk buffers), so a point set is never held whole by setup and writing
 *     overlaps computing. Sink callbacks run on that helper thread, one at a time, in order.
 * Thread-safety: reentrant; the fixed-base hook is the setup's backend (groth16_setup_run.backend).
 *
 * Declared once per curve (groth16/setup_decl.h, src/curves/curve.h); bellperson .params are
 * BLS12-381's only.
 */
#ifndef CUZK_GROTH16_SETUP_H
#define CUZK_GROTH16_SETUP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cuzk/groth16.h"
#include "formats/bellperson.h"
#include "groth16/backend.h"
#include "formats/snarkjs.h"
#include "curves/curve.h"
#include "r1cs/r1cs.h"

/* Where one setup call reports: threads, progress callback, stage timings (each may be unset). */
typedef struct groth16_setup_run {
    int nthreads;
    cuzk_progress_fn progress;
    void *progress_user;
    cuzk_setup_timings *t;
    size_t chunk_points; /* points per fixed-base call; 0: the default of the backend (tests
                          * set small values to exercise the chunking and the overlapped writes) */
    groth16_backend backend; /* where the point sets are computed (default CPU) */
} groth16_setup_run;

/* Adds ms to the stage `name` of t (appends it the first time). t may be NULL. */
void groth16_setup_stage_add(cuzk_setup_timings *t, const char *name, double ms);

/* cuzk_setup (include/cuzk/groth16.h) for a BLS12-381 circuit the caller recorded in memory (the
 * Filecoin circuits: cuzk_porep_setup, cuzk_post_setup), so no .r1cs file is written or read (41 GB
 * for a 32 GiB PoRep partition). *cs is taken whatever the outcome (freed; zeroed). record_ms is
 * reported as the timings' first stage, "record". opts->circuit must be CUZK_SETUP_R1CS (default).
 * Errors: those of cuzk_setup. */
cuzk_status groth16_setup_recorded(r1cs *cs, double record_ms, const char *params_path, const char *vk_path,
                                   const cuzk_setup_opts *opts, cuzk_setup_timings *t, cuzk_error *err);

/* groth16_setup_recorded for a circuit recorded by record(out, ctx, nthreads, err) (a Filecoin
 * family's parallel recorder over its parameters ctx), reporting the stage "record" to
 * opts->progress and timing it. Errors: record's, those of cuzk_setup. */
typedef cuzk_status (*groth16_record_fn)(r1cs *out, const void *ctx, int nthreads, cuzk_error *err);
cuzk_status groth16_setup_record(groth16_record_fn record, const void *ctx, const char *params_path, const char *vk_path,
                                 const cuzk_setup_opts *opts, cuzk_setup_timings *t, cuzk_error *err);

/* The bellperson point lists, in file order. */
typedef enum { SETUP_SET_H = 0, SETUP_SET_L, SETUP_SET_A, SETUP_SET_B_G1, SETUP_SET_B_G2 } groth16_setup_set;

/* one declaration pass per curve: groth16_setup_zkey, bn254_groth16_setup_zkey, ... */
#include "curves/bls12_381/ns.h"
#include "groth16/setup_decl.h"
#include "curves/bn254/ns.h"
#include "groth16/setup_decl.h"
#include "curves/ns_reset.h"

#endif
