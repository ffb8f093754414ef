/* cuzk public API: Filecoin circuits: PoSt (WinningPoSt, WindowPoSt: rust-fil-proofs FallbackPoSt),
 * PoRep C2 (SDR StackedDrg) and SnapDeals (EmptySectorUpdate): their sections below.
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

/* INSECURE test parameters for a PoSt circuit (circuit, sectors as for cuzk_post_r1cs_write)
 * recorded in memory: cuzk_setup (include/cuzk/groth16.h) without the .r1cs file in between.
 * params_path, vk_path as there (opts->zkey_path too); opts->circuit must be CUZK_SETUP_R1CS (the
 * default); opts->progress also gets the stage "record"; t (may be NULL) gets the recording time as
 * its first stage. Memory: the recorded R1CS plus cuzk_setup's. Errors: CUZK_ERR_ARG (unknown
 * name), those of cuzk_setup; no output is left on failure. Thread-safety: reentrant. */
CUZK_API cuzk_status cuzk_post_setup(const char *circuit, uint32_t sectors, const char *params_path, const char *vk_path,
                                     const cuzk_setup_opts *opts, cuzk_setup_timings *t, cuzk_error *err);

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

/* The shape of a PoSt circuit (circuit, sectors as for cuzk_post_r1cs_write; include/cuzk/groth16.h
 * cuzk_file_shape, kind "circuit") from one blank sector's counts: nothing recorded.
 * Errors: CUZK_ERR_ARG (unknown name), CUZK_ERR_NOMEM. Reentrant. */
CUZK_API cuzk_status cuzk_post_circuit_shape(cuzk_file_shape *out, const char *circuit, uint32_t sectors, cuzk_error *err);

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


/* ==== PoRep C2 (SDR "StackedDrg": rust-fil-proofs storage-proofs-porep) ====================
 * Circuits by name "porep-SIZE", SIZE one of 2k, 8m, 512m, 32g, 64g: the StackedCircuit of ONE
 * partition (32 GiB: 130,278,541 constraints, 328 inputs with ONE; 2 KiB: 2,687,921 and 40), the
 * R1CS Filecoin's PoRep parameters were made for. The shape depends on the sector size only: the
 * registered proof's porep_id and api version change the witness and the public inputs, not the
 * R1CS. A sector's proof is one Groth16 proof per partition (10 at 32/64 GiB, 1 below), 192 bytes
 * each, concatenated in partition order.
 *
 * The flow: cuzk_porep_pk_load (records the circuit in memory; or cuzk_pk_load_params with a
 * .r1cs from cuzk_porep_r1cs_write), cuzk_circuit_create, then per sector cuzk_porep_job_create
 * (reads and checks the C1 output: nothing is synthesized from a C1 that fails a check) and one
 * engine job of cuzk_porep_job_partitions partitions with cuzk_porep_job_synth as its synth;
 * verify each proof with cuzk_verify against cuzk_porep_job_public_inputs (or, from public data
 * alone, cuzk_porep_public_inputs). */

/* Records the circuit of a name as above and writes it as a circom .r1cs file (~44 GB at 32 GiB:
 * use cuzk_porep_pk_load there). progress may be NULL. Errors: CUZK_ERR_ARG (unknown name),
 * CUZK_ERR_IO, CUZK_ERR_NOMEM. Thread-safety: reentrant. */
CUZK_API cuzk_status cuzk_porep_r1cs_write(const char *circuit, const char *r1cs_path, cuzk_progress_fn progress,
                                           void *progress_user, cuzk_error *err);

/* INSECURE test parameters for a PoRep circuit by name, recorded in memory: cuzk_setup
 * (include/cuzk/groth16.h) without the .r1cs file in between (41 GB at 32 GiB; the .params there
 * is ~47 GB). params_path, vk_path as there (opts->zkey_path too); opts->circuit must be
 * CUZK_SETUP_R1CS (the default); opts->progress also gets the stage "record"; t (may be NULL) gets
 * the recording time as its first stage. Memory: the recorded R1CS (~14 GB at 32 GiB) plus
 * cuzk_setup's (peak ~64 GiB at 32 GiB with the GPU). Errors: CUZK_ERR_ARG (unknown name), those
 * of cuzk_setup; no output is left on failure. Thread-safety: reentrant. */
CUZK_API cuzk_status cuzk_porep_setup(const char *circuit, const char *params_path, const char *vk_path,
                                      const cuzk_setup_opts *opts, cuzk_setup_timings *t, cuzk_error *err);

/* Loads a bellperson .params file made for a PoRep circuit (Filecoin's, or INSECURE test ones from
 * `cuzk setup --circuit porep-SIZE`) with the circuit recorded in memory on all cores (opts->nthreads
 * when set). *out gets a key with one reference (cuzk_pk_release). Memory: the recorded R1CS
 * (~14 GB at 32 GiB) plus the parameters. Errors: CUZK_ERR_ARG (unknown name, NULL), those of
 * cuzk_pk_load_params (CUZK_ERR_MISMATCH: parameters of another circuit, the counts named).
 * Thread-safety: reentrant. */
CUZK_API cuzk_status cuzk_porep_pk_load(cuzk_pk **out, const char *circuit, const char *params_path,
                                        const cuzk_pk_load_opts *opts, cuzk_error *err);

/* The shape of circuit "porep-SIZE" (include/cuzk/groth16.h cuzk_file_shape, kind "circuit"):
 * public inputs, private variables, constraints and bellperson's domain, from the circuit's
 * sizes (nothing recorded: milliseconds). cuzk_file_shape_check(params, &shape, ...) then tells
 * from a file's headers whether it was made for the circuit. Errors: CUZK_ERR_ARG (unknown name).
 * Reentrant. */
CUZK_API cuzk_status cuzk_porep_circuit_shape(cuzk_file_shape *out, const char *circuit, cuzk_error *err);
/* Which PoRep circuit ("porep-2k" .. "porep-64g", a static string) a .params, .zkey or .r1cs
 * file is made for, from its headers (cuzk_file_shape_read). Errors: those of
 * cuzk_file_shape_read; CUZK_ERR_MISMATCH when it fits none ("<path>: a bellperson params of N
 * public inputs and M private variables: not made for any PoRep circuit"). Reentrant. */
CUZK_API cuzk_status cuzk_porep_circuit_of_file(const char *path, const char **circuit, cuzk_error *err);

typedef struct cuzk_porep_request {
    /* The C1 output: rust-fil-proofs' SealCommitPhase1Output as serde JSON, or Curio's wrapper
     * {"SectorNum": n, "Phase1Out": base64 of that JSON, "SectorSize": n}; in memory (c1, c1_len:
     * borrowed, read during cuzk_porep_job_create only) or a file (c1_path): give exactly one. */
    const uint8_t *c1;
    size_t c1_len;
    const char *c1_path;
    /* 1: check replica_id against SHA-256(prover_id, sector_id, ticket, comm_d, porep_id) (Curio's
     * request carries miner_id and sector_number), and a Curio wrapper's SectorNum against
     * sector_id (CUZK_ERR_INVALID when either differs); 0: take the C1's replica_id as it is. */
    int check_replica_id;
    uint8_t prover_id[32];               /* cuzk_porep_prover_id(miner_id) */
    uint64_t sector_id;
    int nthreads;                        /* checks and synthesis; 0: all online CPUs */
    /* Optional: the circuit ("porep-2k" ...) the caller's key is for (e.g. cuzk_porep_circuit_of_file
     * of its .params). A C1 output of another sector size is then CUZK_ERR_MISMATCH, found as soon
     * as its registered proof is read, before any check. NULL: any. */
    const char *circuit;
} cuzk_porep_request;

typedef struct cuzk_porep_job cuzk_porep_job;

/* Reads the C1 output and checks everything a verifier can before synthesis: counts and sizes
 * against the registered proof, the challenges that seed and replica_id give, every Merkle path
 * against its root, the roots against comm_d / comm_c / comm_r_last and comm_r = Poseidon(comm_c,
 * comm_r_last), the parents' indices, the labels of every challenged node from its parents, the
 * encoding. Errors: CUZK_ERR_ARG (request), CUZK_ERR_IO (file), CUZK_ERR_FORMAT (not a C1 output:
 * the message names the partition, challenge and field; also an input longer than any C1 output
 * can be: 8 x the widest compact JSON of its registered proof, whitespace included (~350 MB at
 * 32 GiB; a file longer than the largest proof's is refused before it is read), CUZK_ERR_INVALID
 * (a check failed, named likewise), CUZK_ERR_MISMATCH (a C1 output of another circuit than
 * req->circuit), CUZK_ERR_NOMEM.
 * A hostile input cannot make it allocate more than the registered proof's C1 holds.
 * Thread-safety: a job is read-only after creation. */
CUZK_API cuzk_status cuzk_porep_job_create(cuzk_porep_job **out, const cuzk_porep_request *req, cuzk_error *err);
CUZK_API uint32_t cuzk_porep_job_partitions(const cuzk_porep_job *job);
/* The circuit name ("porep-32g") and the RegisteredSealProof id of the C1 output. */
CUZK_API const char *cuzk_porep_job_circuit(const cuzk_porep_job *job);
CUZK_API uint64_t cuzk_porep_job_registered_proof(const cuzk_porep_job *job);
/* The C1 output's comm_r and comm_d (32 bytes each, as in the JSON). */
CUZK_API void cuzk_porep_job_commitments(const cuzk_porep_job *job, uint8_t comm_r[32], uint8_t comm_d[32]);
/* Witness length (ONE included) and public inputs per partition (ONE not counted). */
CUZK_API size_t cuzk_porep_job_n_vars(const cuzk_porep_job *job);
CUZK_API size_t cuzk_porep_job_n_public(const cuzk_porep_job *job);
/* The public inputs of partition k from the public data (as cuzk_porep_public_inputs), n_public
 * canonical 32-byte values into out. Errors: CUZK_ERR_ARG. */
CUZK_API cuzk_status cuzk_porep_job_public_inputs(const cuzk_porep_job *job, uint32_t k, uint8_t *out, cuzk_error *err);
/* cuzk_synth_fn: synth_ctx = the job; witness of partition k in Montgomery form
 * (CUZK_WITNESS_FR_MONT) on req->nthreads threads. Errors: CUZK_ERR_ARG, CUZK_ERR_NOMEM. */
CUZK_API cuzk_status cuzk_porep_job_synth(void *job, uint32_t partition, uint64_t *witness, size_t n_vars, cuzk_error *err);
CUZK_API void cuzk_porep_job_free(cuzk_porep_job *job);

/* prover_id of a miner actor id: the payload of its ID address f0<id> (the id as an unsigned LEB128
 * varint: 1000 -> e8 07), zero-padded to 32 bytes, as filecoin-ffi's toProverID makes it. */
CUZK_API void cuzk_porep_prover_id(uint8_t out[32], uint64_t miner_id);

/* The public data of a sealed sector, what Filecoin's verify_seal takes. */
typedef struct cuzk_porep_public {
    /* A RegisteredSealProof id (0..4 V1, 5..9 V1_1, 10..14 V1_1 + Synthetic), or CUZK_POREP_BY_ID:
     * then porep_id, api_version (10, 11, 12 for 1.0, 1.1, 1.2), synthetic and sector_size. */
    uint64_t registered_proof;
    uint8_t porep_id[32];
    int api_version;
    int synthetic;
    uint64_t sector_size;
    uint8_t comm_r[32], comm_d[32];      /* as in the C1 output (little-endian field elements) */
    uint8_t prover_id[32];
    uint64_t sector_id;
    uint8_t ticket[32], seed[32];
} cuzk_porep_public;
#define CUZK_POREP_BY_ID UINT64_MAX

/* The public inputs of every partition: *out = partitions * n_public canonical 32-byte values
 * (malloc'd, cuzk_post_free), partition-major. Errors: CUZK_ERR_ARG (unknown id, bad size or
 * version, a comm_r or comm_d that is not a field element), CUZK_ERR_NOMEM. Reentrant. */
CUZK_API cuzk_status cuzk_porep_public_inputs(const cuzk_porep_public *pub, uint32_t *n_partitions, size_t *n_public,
                                              uint8_t **out, cuzk_error *err);

/* ---- test data: sealing small sectors, and sparse C1 outputs of any size ----
 * Not a sealer for production (no disk layers, no cache files): it makes C1 outputs that
 * rust-fil-proofs' verifier and cuzk accept, for tests and benchmarks. */
typedef struct cuzk_porep_seal_request {
    uint64_t registered_proof;           /* 0..14 */
    const uint8_t *data;                 /* data_len bytes, the sector's size (every 32-byte node a field
                                            element: top two bits of its last byte zero), or NULL:
                                            pseudo-random data from data_seed */
    size_t data_len;
    uint64_t data_seed;
    int sparse;                          /* 1: do not seal; make a consistent sparse C1 (any size,
                                            32 GiB included: only the challenged nodes, their parents'
                                            columns and the paths are real). 0: seal in memory (2 KiB,
                                            8 MiB; 512 MiB needs ~40 GB) */
    uint8_t prover_id[32];
    uint64_t sector_id;
    uint8_t ticket[32], seed[32];
    int curio_wrapper;                   /* 1: wrap the JSON as Curio sends it */
    int nthreads;                        /* 0: all online CPUs */
} cuzk_porep_seal_request;

/* Makes the C1 output of a request: *c1 (malloc'd, cuzk_post_free) of *c1_len bytes, and the
 * sector's comm_r and comm_d (may be NULL). Errors: CUZK_ERR_ARG (id, data size, a node that is
 * not a field element), CUZK_ERR_NOMEM. Reentrant. */
CUZK_API cuzk_status cuzk_porep_seal_c1(const cuzk_porep_seal_request *req, uint8_t **c1, size_t *c1_len, uint8_t comm_r[32],
                                        uint8_t comm_d[32], cuzk_error *err);

/* ==== SnapDeals (EmptySectorUpdate: rust-fil-proofs storage-proofs-update) =================
 * Circuits by name "snap-SIZE", SIZE one of 2k, 8m, 512m, 32g, 64g: the EmptySectorUpdateCircuit
 * of ONE partition (32 GiB: 81,049,499 constraints, 5 inputs with ONE, 16 partitions; 2 KiB:
 * 1,705,039 constraints, 1 partition), the R1CS Filecoin's update parameters were made for. A
 * sector's update proof is one Groth16 proof per partition, 192 bytes each, in partition order.
 * Public inputs of partition k: k | h_select << log2(partitions) (h = 10 of [7..12] at 8 MiB and
 * up, h_select = 8; [1; 6] below), comm_r_old, comm_d_new, comm_r_new.
 *
 * The vanilla proofs: one PartitionProof per partition in the bincode form filecoin-ffi returns
 * (rust-filecoin-proofs-api PartitionProofBytes) and Curio sends as vanilla_proofs; Curio keeps
 * them in the update cache as a JSON array of base64 strings of those bytes (its snap-vproof.json):
 * either form is taken. Every count comes from the registered update proof, never from the input.
 *
 * The flow mirrors PoRep's: cuzk_snap_pk_load, cuzk_circuit_create, per sector
 * cuzk_snap_job_create (reads and checks every partition proof: nothing is synthesized from one
 * that fails), one engine job of cuzk_snap_job_partitions partitions with cuzk_snap_job_synth;
 * verify with cuzk_verify against cuzk_snap_public_inputs (from public data alone). */

/* Records the circuit of a name and writes it as a circom .r1cs file (~28 GB at 32 GiB: use
 * cuzk_snap_pk_load there). Errors: CUZK_ERR_ARG (unknown name), CUZK_ERR_IO, CUZK_ERR_NOMEM. */
CUZK_API cuzk_status cuzk_snap_r1cs_write(const char *circuit, const char *r1cs_path, cuzk_progress_fn progress,
                                          void *progress_user, cuzk_error *err);

/* INSECURE test parameters for a SnapDeals circuit by name, recorded in memory: cuzk_setup without
 * the .r1cs file in between (as cuzk_porep_setup; `cuzk setup --circuit snap-SIZE out.params
 * out.vk`). Errors: CUZK_ERR_ARG (unknown name), those of cuzk_setup. Thread-safety: reentrant. */
CUZK_API cuzk_status cuzk_snap_setup(const char *circuit, const char *params_path, const char *vk_path,
                                     const cuzk_setup_opts *opts, cuzk_setup_timings *t, cuzk_error *err);
/* Loads a .params file made for a SnapDeals circuit (Filecoin's, or INSECURE test ones from `cuzk
 * setup --circuit snap-SIZE`) with the circuit recorded in memory on all cores. As
 * cuzk_porep_pk_load. */
CUZK_API cuzk_status cuzk_snap_pk_load(cuzk_pk **out, const char *circuit, const char *params_path,
                                       const cuzk_pk_load_opts *opts, cuzk_error *err);

/* The shape of circuit "snap-SIZE" (include/cuzk/groth16.h cuzk_file_shape, kind "circuit"): public
 * inputs, private variables, constraints and bellperson's domain, from the circuit's sizes
 * (nothing recorded: milliseconds). cuzk_file_shape_check(params, &shape, ...) then tells from a
 * file's headers whether it was made for the circuit (cuzkd --check-config). Errors: CUZK_ERR_ARG
 * (unknown name), CUZK_ERR_NOMEM. Reentrant. */
CUZK_API cuzk_status cuzk_snap_circuit_shape(cuzk_file_shape *out, const char *circuit, cuzk_error *err);

typedef struct cuzk_snap_request {
    uint64_t registered_proof;           /* RegisteredUpdateProof: 0..4 = 2 KiB, 8 MiB, 512 MiB, 32 GiB, 64 GiB */
    /* The partition proofs, give exactly one of: Curio's JSON array of base64 strings in memory
     * (json, json_len) or in a file (json_path); or the bincode of each partition in partition
     * order (parts[i]: part_lens[i] bytes, n_parts of them: Curio's vanilla_proofs). Borrowed,
     * read during cuzk_snap_job_create only. */
    const uint8_t *json;
    size_t json_len;
    const char *json_path;
    const uint8_t *const *parts;
    const size_t *part_lens;
    size_t n_parts;
    /* The public data: the commitments as 32-byte little-endian field elements (the raw 32 bytes
     * of the CIDs' digests). */
    uint8_t comm_r_old[32], comm_d_new[32], comm_r_new[32];
    int nthreads;                        /* checks and synthesis; 0: all online CPUs */
} cuzk_snap_request;

typedef struct cuzk_snap_job cuzk_snap_job;

/* Reads every partition proof and checks it as Filecoin's verifier would (counts, challenges from
 * comm_r_new, every Merkle path against its root, comm_r_old / comm_r_new = Poseidon(comm_c, root),
 * the apex leaves and the partition path against comm_d_new, the encoding leaf_r_new = leaf_r_old +
 * leaf_d_new * rho). Errors: CUZK_ERR_ARG (request, a commitment that is not a field element),
 * CUZK_ERR_IO (file), CUZK_ERR_FORMAT (not a partition proof: the message names the partition,
 * challenge, field and byte), CUZK_ERR_INVALID (a check failed, named likewise), CUZK_ERR_NOMEM.
 * Thread-safety: a job is read-only after creation. */
CUZK_API cuzk_status cuzk_snap_job_create(cuzk_snap_job **out, const cuzk_snap_request *req, cuzk_error *err);
CUZK_API uint32_t cuzk_snap_job_partitions(const cuzk_snap_job *job);
/* "snap-32g" and the like. */
CUZK_API const char *cuzk_snap_job_circuit(const cuzk_snap_job *job);
CUZK_API size_t cuzk_snap_job_n_vars(const cuzk_snap_job *job);
CUZK_API size_t cuzk_snap_job_n_public(const cuzk_snap_job *job);
/* Partition k's public inputs (n_public canonical 32-byte values) into out. Errors: CUZK_ERR_ARG. */
CUZK_API cuzk_status cuzk_snap_job_public_inputs(const cuzk_snap_job *job, uint32_t k, uint8_t *out, cuzk_error *err);
/* cuzk_synth_fn: synth_ctx = the job; the witness of partition k in Montgomery form
 * (CUZK_WITNESS_FR_MONT) on req->nthreads threads. Errors: CUZK_ERR_ARG, CUZK_ERR_NOMEM. */
CUZK_API cuzk_status cuzk_snap_job_synth(void *job, uint32_t partition, uint64_t *witness, size_t n_vars, cuzk_error *err);
CUZK_API void cuzk_snap_job_free(cuzk_snap_job *job);

/* The public data of an update, what Filecoin's verify_empty_sector_update_proof takes. */
typedef struct cuzk_snap_public {
    uint64_t registered_proof;           /* RegisteredUpdateProof 0..4 */
    uint8_t comm_r_old[32], comm_d_new[32], comm_r_new[32];
} cuzk_snap_public;

/* Every partition's public inputs: *out = partitions * n_public canonical 32-byte values
 * (malloc'd, cuzk_post_free), partition-major. Errors: CUZK_ERR_ARG (unknown id, a commitment that
 * is not a field element), CUZK_ERR_NOMEM. Reentrant. */
CUZK_API cuzk_status cuzk_snap_public_inputs(const cuzk_snap_public *pub, uint32_t *n_partitions, size_t *n_public,
                                             uint8_t **out, cuzk_error *err);

/* A commitment as Curio's request carries it: Curio (lib/ffi/cuzk_funcs.go ProveUpdateCuzk) sends
 * comm_r_old, comm_r_new and comm_d_new as cid.Bytes(), the binary CIDv1 of the commitment, not
 * the raw 32 bytes. out = the 32-byte digest, from either in_len = 32 raw bytes or a CIDv1 of the
 * kind's codec and multihash (go-fil-commcid): sealed (comm_r) 0x01, codec 0xf102
 * (fil-commitment-sealed), multihash 0xb401 (poseidon-bls12_381-a2-fc1, in Go and Rust
 * POSEIDON_BLS12_381_A1_FC1), length 32, digest (40 bytes); unsealed (comm_d) codec 0xf101
 * (fil-commitment-unsealed), multihash 0x1012 (sha2-256-trunc254-padded), length 32, digest (39
 * bytes). Errors: CUZK_ERR_ARG (NULL),
 * CUZK_ERR_FORMAT (another length, version, codec or multihash: named). Reentrant. */
typedef enum cuzk_commitment_kind { CUZK_COMMITMENT_SEALED = 0, CUZK_COMMITMENT_UNSEALED = 1 } cuzk_commitment_kind;
CUZK_API cuzk_status cuzk_commitment_from_bytes(uint8_t out[32], const uint8_t *in, size_t in_len, cuzk_commitment_kind kind,
                                                cuzk_error *err);

/* ---- test data: an update of a small sector sealed in memory, or a sparse update of any size ----
 * Not an updater for production: vanilla proofs that Filecoin's verifier and cuzk accept, for
 * tests and benchmarks. */
typedef struct cuzk_snap_update_request {
    uint64_t registered_proof;           /* RegisteredUpdateProof 0..4 */
    uint64_t data_seed;                  /* pseudo-random old and new data, salt of a sparse update */
    int sparse;                          /* 1: no sector: consistent sparse trees (any size, 32 GiB
                                            included); 0: seal a sector in memory (2 KiB, 8 MiB) and
                                            update it */
    int nthreads;                        /* 0: all online CPUs */
} cuzk_snap_update_request;

/* Makes an update's partition proofs as Curio's JSON file (*json, malloc'd, cuzk_post_free, *len
 * bytes) and its commitments. Errors: CUZK_ERR_ARG (id; a non-sparse update above 8 MiB),
 * CUZK_ERR_NOMEM. Reentrant. */
CUZK_API cuzk_status cuzk_snap_make_update(const cuzk_snap_update_request *req, uint8_t **json, size_t *len,
                                           uint8_t comm_r_old[32], uint8_t comm_d_new[32], uint8_t comm_r_new[32],
                                           cuzk_error *err);

#ifdef __cplusplus
}
#endif
#endif
