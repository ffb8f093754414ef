/* The multi-partition prove of the Filecoin commands (prove-porep, prove-update): from a job
 * whose vanilla proofs are read and checked, through the key, the engine and every partition's
 * proof verified, to the proof file and the summary. Front-end code: the public API only.
 *
 * The sequence: load the key (cuzk_pk_load_params with a .r1cs, else the family's loader, which
 * records the circuit in memory) and its verifying key; create the engine and the circuit; check
 * the key's variable count against the job's; preload; one engine job of all partitions whose
 * synth is the family's (a .r1cs from a file: partition 0's witness checked against it); wait;
 * every partition's public inputs, derived from the public data, compared with the witness's and
 * its proof verified against the key's own verifying key; the proof file (partitions x
 * proof_bytes, partition order); the optional --trace; a summary on stderr or --json on stdout.
 * While it runs, a progress line on stderr (progress.h) shows the key's load and the engine's
 * stages; every message starts "cuzk <cmd>: ". Errors print "cuzk: error: ..." (cli_fail): a key
 * whose proofs do not verify against its own verifying key, or of another variable count, is
 * CUZK_ERR_MISMATCH (exit 3). Main thread only.
 */
#ifndef CUZK_CLI_PARTITIONS_H
#define CUZK_CLI_PARTITIONS_H

#include <stddef.h>
#include <stdint.h>

#include "cuzk/engine.h"
#include "cuzk/groth16.h"

typedef struct cli_prove_partitions {
    const char *cmd;              /* "prove-porep" */
    void *job;                    /* the family's checked job (borrowed) */
    const char *circuit;          /* the job's circuit ("porep-32g") */
    uint32_t partitions;
    size_t n_vars, n_public;      /* the job's (n_public: canonical 32-byte values per partition) */
    uint64_t registered_proof;    /* for --json */
    const char *params, *r1cs;    /* the key's files (r1cs NULL: recorded in memory) */
    const char *vars_of;          /* NULL, or a name for the variable-count message ("c1.json") */
    const char *synthesized_for;  /* "the C1 output is": an unsatisfied .r1cs message */
    /* the family's functions over job */
    cuzk_status (*pk_load)(cuzk_pk **out, const char *circuit, const char *params_path, const cuzk_pk_load_opts *opts,
                           cuzk_error *err);
    cuzk_synth_fn synth;
    cuzk_status (*public_inputs)(const void *job, uint32_t k, uint8_t *out, cuzk_error *err);
    const cuzk_engine_opts *engine;
    int nthreads;                 /* the key's load (0: all CPUs) */
    const char *out_path;         /* the proof file */
    const char *trace_path;       /* NULL or --trace */
    int json, quiet;
    double t0, t1;                /* cli_wall_ms() when the checks started and ended */
} cli_prove_partitions;

/* Runs the sequence above; returns the command's exit code (0: proof file written). */
int cli_prove_partitions_run(const cli_prove_partitions *pp);

/* The verify side (verify-seal, verify-update: Filecoin's verify_seal and
 * verify_empty_sector_update_proof once the public inputs are derived). inputs: P partitions x
 * np canonical 32-byte values, partition-major (borrowed). With print, the inputs as JSON on
 * stdout (an array per partition of decimal strings, ONE not included), and with no proof_path
 * nothing else (exit 0). Else loads the bellperson verifying key vk_path (its input count must be
 * np: "<vk> has N public inputs; <circuit_desc> has np: the verifying key of <another>"), reads
 * proof_path (P x 192 bytes: "<proof>: B bytes; <proof_desc> is P partition(s) x 192 = ... bytes")
 * and checks every partition: prints OK (exit 0) or "INVALID: partition k: reason" (exit 1), on
 * stderr with print (stdout stays one JSON document), else stdout; nothing with quiet. A bad file
 * is exit 3 (cli_fail). */
int cli_verify_partitions_run(const uint8_t *inputs, uint32_t P, size_t np, int print, int quiet,
                              const char *vk_path, const char *proof_path, const char *circuit_desc, const char *another,
                              const char *proof_desc);

#endif
