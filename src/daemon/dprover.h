/* dprover: the daemon's small internal interface to whatever proves a generic Groth16 job.
 * The job table (jobs.c) only talks to this, so the prover behind it can change (the file API
 * of include/cuzk/groth16.h today; the in-memory API of include/cuzk/prover.h when it lands)
 * without touching scheduling, and tests can slow it down (debug.prove_delay_ms).
 *
 * Thread-safety: dp_prove may run concurrently on one key; load/free must not race with a
 * prove on the same key (the SRS table's reference counts guarantee that). */
#ifndef CUZKD_DPROVER_H
#define CUZKD_DPROVER_H

#include <stddef.h>
#include <stdint.h>

#include "config.h"
#include "cuzk/cuzk.h"

typedef struct dp_key dp_key;

/* Loads (or checks and opens) the proving key of a configured circuit. *bytes: host memory the
 * loaded key holds (an estimate). Errors: those of the key loaders (CUZK_ERR_IO, _FORMAT,
 * _CURVE, _POINT, _NOMEM), CUZK_ERR_UNSUPPORTED for Filecoin ids (no circuit in this build). */
cuzk_status dp_key_load(const dcfg_circuit *c, const char *backend, int nthreads, dp_key **out, uint64_t *bytes,
                        cuzk_error *err);
void dp_key_free(dp_key *k);

typedef struct dp_proof {
    uint8_t *proof;       /* bellperson encoding, 192 bytes (NULL when the key kind cannot give it) */
    size_t proof_len;
    char *proof_json;     /* snarkjs proof.json (NULL when the key kind cannot give it) */
    char *public_json;    /* snarkjs public.json: ["<decimal>", ...] */
    double prove_ms;      /* time inside the prover call (debug delay excluded) */
} dp_proof;

/* Proves one witness (the bytes of a snarkjs .wtns file). *cancel is read while proving: when it
 * becomes nonzero the prover stops as soon as it can and returns CUZK_ERR_CANCELLED.
 * Errors: CUZK_ERR_FORMAT (witness not a .wtns), CUZK_ERR_CURVE (witness of another field),
 * CUZK_ERR_MISMATCH (witness length differs from the circuit's), CUZK_ERR_UNSAT (the witness does
 * not satisfy the circuit), CUZK_ERR_NOMEM, CUZK_ERR_IO, CUZK_ERR_CANCELLED. */
cuzk_status dp_prove(dp_key *k, const uint8_t *wtns, size_t wtns_len, const volatile int *cancel,
                     uint64_t delay_ms, dp_proof *out, cuzk_error *err);
void dp_proof_free(dp_proof *p);

/* Which prover this build uses (for GetStatus/metrics/logs). */
const char *dp_impl_name(void);

#endif
