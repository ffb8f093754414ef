/* cuzk public API: Filecoin PoSt circuits (WinningPoSt, WindowPoSt: rust-fil-proofs FallbackPoSt).
 *
 * Circuits by name: "window-post-SIZE" or "winning-post-SIZE", SIZE one of 2k, 8m, 512m, 32g, 64g
 * (WindowPoSt: 10 challenges per sector, 2349 sectors per partition at 32 GiB, 2300 at 64 GiB, 2
 * below; WinningPoSt: 66 slots of 1 challenge, all of the one challenged sector). The R1CS is the one Filecoin's parameters were
 * made for (same variables and constraints in the same order; CIRCUITS.md). `sectors` > 0 makes
 * a circuit with that many sectors instead: a different circuit, for INSECURE tests only.
 *
 * The flow: cuzk_post_r1cs_write once per circuit, cuzk_setup on it (INSECURE test parameters;
 * real ones come from Filecoin's ceremony), cuzk_pk_load_params(params, r1cs), then per proof
 * cuzk_post_witness (reads and checks the vanilla proofs, synthesizes the witness) and cuzk_prove;
 * cuzk_verify against the public inputs cuzk_post_witness derives from the public data alone.
 *
 * Vanilla proofs: one file per sector, the bincode form of one sector's proof (CIRCUITS.md
 * section 4; the layout of the golden tests/fixtures/filecoin/post.vproof). Every length, index
 * and field element is checked; before any proving the same checks the verifier's side makes:
 * paths hash to comm_r_last, comm_r = Poseidon(comm_c, comm_r_last), the opened leaves are the
 * challenges derived from randomness, sector id and index. A failure is CUZK_ERR_FORMAT (the
 * file) or CUZK_ERR_INVALID (the proof), naming the file and the reason; nothing is proved.
 * Thread-safety: reentrant.
 */
#ifndef CUZK_FILECOIN_H
#define CUZK_FILECOIN_H

#include <stddef.h>
#include <stdint.h>

#include "cuzk/cuzk.h"
#include "cuzk/groth16.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Records the circuit and writes it as a circom .r1cs file (its n_public public inputs: per
 * sector comm_r, then one leaf index per challenge), recorded on all cores. progress may be
 * NULL. Memory: the whole R1CS (~12 GB at a full 32 GiB WindowPoSt partition, ~20 GB while its
 * parts are joined); the file is ~41 GB there (Fr coefficients per term): for full-size circuits
 * record in memory instead (cuzk bench post --prove). Errors: CUZK_ERR_ARG (unknown name),
 * CUZK_ERR_IO, CUZK_ERR_NOMEM. */
CUZK_API cuzk_status cuzk_post_r1cs_write(const char *circuit, uint32_t sectors, const char *r1cs_path, cuzk_progress_fn progress,
                                 void *progress_user, cuzk_error *err);

/* Loads the bellperson .params file made for a PoSt circuit (circuit, sectors as for
 * cuzk_post_r1cs_write; `cuzk setup --circuit NAME [--sectors N]` makes INSECURE test ones, real
 * ones come from Filecoin's ceremony) with the circuit recorded in memory on all cores: no .r1cs
 * file. *out gets a key with one reference (cuzk_pk_release) that proves cuzk_post_job_synth jobs
 * of the same circuit (cuzk_circuit_create). opts may be NULL; its r1cs fields must be unset.
 * Memory: the recorded R1CS plus the parameters (~1.2x the file). Errors: CUZK_ERR_ARG (unknown
 * name, NULL), those of cuzk_pk_load_params (CUZK_ERR_IO, _FORMAT, _POINT for the file, named;
 * CUZK_ERR_MISMATCH: parameters of another circuit or sector count, the counts named),
 * CUZK_ERR_NOMEM. Thread-safety: reentrant. */
CUZK_API cuzk_status cuzk_post_pk_load(cuzk_pk **out, const char *circuit, uint32_t sectors, const char *params_path,
                                       const cuzk_pk_load_opts *opts, cuzk_error *err);

typedef struct cuzk_post_request {
    const char *circuit;                 /* a name as above */
    uint32_t sectors;                    /* 0: the real sector count */
    const char *const *vanilla_paths;    /* WindowPoSt: one vanilla-proof file per real sector, in
                                            partition order; WinningPoSt: exactly one, the challenged
                                            sector's proof with one challenge per circuit slot (66;
                                            a reduced test circuit: its slot count), challenge n at
                                            challenge index n, unrolled into the slots as
                                            filecoin-proofs does (or NULL and vanilla_bufs below) */
    size_t n_vanilla;                    /* WindowPoSt: 1 .. the circuit's sector count per partition
                                            (the rest is padded with the last sector, as
                                            rust-fil-proofs pads); WinningPoSt: 1 */
    uint8_t randomness[32];              /* the challenge randomness: a canonical Fr, little-endian */
    uint64_t partition;                  /* partition index k (sector index = k * sectors + i) */
    int api_version;                     /* 0: Filecoin's (WindowPoSt 1.2, WinningPoSt 1.0); 12: ApiVersion
                                            1.2 (challenge index n); 10, 11: 1.0/1.1 (sector index *
                                            challenges + n); 12 for WinningPoSt is CUZK_ERR_ARG */
    int nthreads;                        /* threads of the vanilla-proof checks and of synthesis; 0: all
                                            online CPUs (or what cuzk_set_threads set) */
    /* The vanilla proofs in memory instead of files (a daemon's request bytes): give exactly one
     * of vanilla_paths and vanilla_bufs. vanilla_bufs[i] is vanilla_lens[i] bytes, the same bincode
     * form as one file, in the order of vanilla_paths (n_vanilla of them). The caller owns the buffers; they
     * are read during cuzk_post_job_create / cuzk_post_witness only (the job keeps decoded copies).
     * Errors name a buffer as "vanilla proof <i>" where a path would name the file. */
    const uint8_t *const *vanilla_bufs;
    const size_t *vanilla_lens;
} cuzk_post_request;

/* Reads and checks the vanilla proofs, then synthesizes the witness. On CUZK_OK:
 * *witness: n_vars values of 32 bytes, Montgomery form (cuzk_witness FR_MONT), w[0] = ONE;
 * *public_inputs: *n_public canonical 32-byte values derived from the public data (comm_r,
 * sector ids, randomness), the same as w[1 .. n_public]. Both malloc'd: free with cuzk_post_free.
 * Errors: CUZK_ERR_ARG, CUZK_ERR_IO, CUZK_ERR_FORMAT, CUZK_ERR_INVALID, CUZK_ERR_NOMEM. */
CUZK_API cuzk_status cuzk_post_witness(const cuzk_post_request *req, uint8_t **witness, size_t *witness_len, uint8_t **public_inputs,
                              size_t *n_public, cuzk_error *err);
CUZK_API void cuzk_post_free(void *p);

/* ---- PoSt jobs for the engine (include/cuzk/engine.h) ----
 * A job holds the checked vanilla proofs of one or more partitions: vanilla_paths split in
 * partitions of the circuit's sector count (partition req->partition + k takes files
 * [k S, (k + 1) S), the last one padded with its last sector). cuzk_post_job_synth is a
 * cuzk_synth_fn: give it as the job's synth with the job as synth_ctx; it fills the engine's
 * buffer (Montgomery form, CUZK_WITNESS_FR_MONT) on req->nthreads threads; the engine may call it
 * for several partitions at once. Thread-safety: a job is read-only after creation. */
typedef struct cuzk_post_job cuzk_post_job;
/* Errors: those of cuzk_post_witness (every file read and checked here, before any proving; the
 * checks run on req->nthreads threads and the error reported is the first in file order, then
 * challenge order, the one a single thread gives). */
CUZK_API cuzk_status cuzk_post_job_create(cuzk_post_job **out, const cuzk_post_request *req, cuzk_error *err);
CUZK_API uint32_t cuzk_post_job_partitions(const cuzk_post_job *job);
/* Witness length (ONE included) and public inputs per partition (ONE not counted). */
CUZK_API size_t cuzk_post_job_n_vars(const cuzk_post_job *job);
CUZK_API size_t cuzk_post_job_n_public(const cuzk_post_job *job);
/* The public inputs of partition k (k < partitions), derived from the public data: n_public
 * canonical 32-byte values into out (n_public * 32 bytes). Errors: CUZK_ERR_ARG. */
CUZK_API cuzk_status cuzk_post_job_public_inputs(const cuzk_post_job *job, uint32_t k, uint8_t *out, cuzk_error *err);
/* cuzk_synth_fn: synth_ctx = the job, partition = k (relative to the job's first), witness: n_vars
 * values (4 limbs each). Errors: CUZK_ERR_ARG (partition, n_vars), CUZK_ERR_NOMEM. */
CUZK_API cuzk_status cuzk_post_job_synth(void *job, uint32_t partition, uint64_t *witness, size_t n_vars, cuzk_error *err);
CUZK_API void cuzk_post_job_free(cuzk_post_job *job);

#ifdef __cplusplus
}
#endif
#endif
