/* dprover: the daemon's small internal interface to what proves a generic Groth16 job. The job
 * table (jobs.c) only talks to this, so the prover behind it can change without touching
 * scheduling, and tests can slow it down (debug.prove_delay_ms) or hold a job until it is
 * cancelled (debug.hold_circuit).
 *
 * Behind it is one cuzk_engine (include/cuzk/engine.h): every key, a snarkjs .zkey of BLS12-381
 * or BN254 (circom "bn128") or a bellperson .params + .r1cs, becomes an engine circuit, and every
 * proof is an engine job of one partition, so proofs of both curves go through the engine's
 * single dispatcher (its host memory budget, engine.job_budget), its devices (and
 * engine.gpu_fallback), cancellation and reaper. The synthesis callback turns the job's .wtns
 * bytes into the engine's witness buffer, in the key's field.
 *
 * Thread-safety: every function may be called from any thread; dp_key_free must not race with a
 * dp_prove on the same key (the job table's reference counts guarantee that). */
#ifndef CUZKD_DPROVER_H
#define CUZKD_DPROVER_H

#include <stddef.h>
#include <stdint.h>

#include "config.h"
#include "cuzk/cuzk.h"
#include "cuzk/filecoin.h"

typedef struct dp_engine dp_engine;
typedef struct dp_key dp_key;

/* Creates the engine from the configuration (engine.backend, devices, workers, prove_threads,
 * job_budget, gpu_budget, pinned_budget, gpu_fallback). Backend "gpu" without a usable device is
 * not an error: the engine is made without a GPU (a warning is logged) and each key then falls
 * back to the CPU or fails to load, as dp_key_load says. Errors: those of
 * cuzk_engine_create (CUZK_ERR_ARG, CUZK_ERR_NOMEM). */
cuzk_status dp_engine_create(dp_engine **out, const dcfg *cfg, cuzk_error *err);
/* Cancels what is left, joins the engine's threads, frees it. Every key must be freed first. */
void dp_engine_destroy(dp_engine *e);
/* "cpu" or "gpu": the backend the engine resolved to. */
const char *dp_engine_backend(const dp_engine *e);

typedef struct dp_device {
    int ordinal;
    char name[96];
    uint64_t total_bytes, free_bytes;  /* device memory (0 on the CPU backend) */
    uint64_t resident_bytes;           /* the engine's circuits resident there */
    uint64_t pool_bytes;               /* the device's proof memory: arenas + pool (high-water mark) */
    uint64_t streamed_bytes;           /* SRS bytes streamed host -> device per proof (memory plans) */
    char memory_plan[512];             /* the circuits' memory plans there ("" on the CPU backend) */
    int dead;
} dp_device;
/* Fills up to cap devices of the engine; returns how many it has. */
int dp_engine_devices(dp_engine *e, dp_device *out, int cap);

typedef struct dp_engine_mem {
    uint64_t budget_limit, budget_reserved, budget_max_reserved; /* engine.job_budget (0: unlimited) */
    double budget_wait_ms;             /* total time partitions waited for it */
    uint64_t reaper_pending_bytes;     /* freed off the critical path, not yet returned */
    uint64_t pinned_bytes, pinned_limit; /* pinned witness buffers (GPU backend) and their budget */
} dp_engine_mem;
void dp_engine_mem_stats(dp_engine *e, dp_engine_mem *out);

/* Loads the proving key of a configured circuit and makes it ready (on the GPU backend its G1
 * queries and matrices are uploaded now, and for a .params key their host copy is then released
 * unless srs.keep_host_g1: dp_key_host_released). *bytes: host memory the key holds now.
 * When a key (of either curve) cannot be made resident on the GPU (the device is out of memory, the need
 * exceeds engine.gpu_budget, or backend "gpu" found no usable device): with engine.gpu_fallback
 * "cpu" it is proved on a CPU engine instead (made at the first such key, with the main engine's
 * workers, threads and job_budget as a budget of its own) and a warning naming the circuit, the
 * reason, the bytes needed (the budget check's) and each device's free bytes is logged; with
 * "none" the load fails with CUZK_ERR_NOMEM_DEVICE or CUZK_ERR_DEVICE and that message.
 * Errors: those of the key loaders (CUZK_ERR_IO, _FORMAT, _CURVE, _POINT, _NOMEM), of the upload
 * (CUZK_ERR_NOMEM_DEVICE, CUZK_ERR_DEVICE, CUZK_ERR_MISMATCH), CUZK_ERR_MISMATCH (a PoSt id's
 * .params made for another circuit or sector count). PoSt, PoRep and SnapDeals ids record their
 * R1CS in memory (cuzk_post_pk_load, cuzk_porep_pk_load, cuzk_snap_pk_load). */
cuzk_status dp_key_load(dp_engine *e, const dcfg_circuit *c, dp_key **out, uint64_t *bytes, cuzk_error *err);
/* The cheap check of a configured circuit's key files, from their headers only (no point decoded,
 * nothing recorded: milliseconds, whatever the size): each file exists, is readable, is the kind
 * of file its key names and is as long as its headers say; a .zkey and its .r1cs, or a .params
 * and its .r1cs, are of one circuit; a PoSt, PoRep or SnapDeals .params is for the circuit of its
 * id (the counts of cuzk_post_circuit_shape / cuzk_porep_circuit_shape / cuzk_snap_circuit_shape). What --check-config and the start
 * run for circuits that are not preloaded (a load would find the same, later). Errors: those of
 * cuzk_file_shape_read and cuzk_file_shape_check (CUZK_ERR_IO, _FORMAT, _CURVE, _MISMATCH), the
 * message naming the file. Thread-safe. */
cuzk_status dp_key_files_check(const dcfg_circuit *c, cuzk_error *err);
/* Releases the key and what the engine holds for it (its device copy). NULL is a no-op. */
void dp_key_free(dp_engine *e, dp_key *k);
/* Host bytes the key gave back once its G1 queries were resident on the GPU: a bellperson .params
 * key on the GPU engine releases the host copy of its G1 queries at load (about 90% of the key)
 * unless srs.keep_host_g1; 0 for every other key (the CPU proves from the host copy). */
uint64_t dp_key_host_released(const dp_key *k);
/* Where the key's proofs run: "gpu", "cpu", or "cpu (GPU fallback)"; "" for NULL. Static string. */
const char *dp_key_backend(const dp_key *k);

typedef struct dp_proof {
    uint8_t *proof;       /* bellperson encoding, 192 bytes (BLS12-381 keys; NULL for BN254 keys, which
                             have no such encoding: their answer is proof_json) */
    size_t proof_len;
    char *proof_json;     /* snarkjs proof.json */
    char *public_json;    /* snarkjs public.json: ["<decimal>", ...] */
    double prove_ms;      /* the prover's calls (engine: start + finish of the partition) */
    double synth_ms;      /* turning the .wtns into the witness buffer (debug delay included) */
} dp_proof;

typedef struct dp_input {
    const uint8_t *wtns;  /* the bytes of a snarkjs .wtns file, read until dp_prove returns
                             (PoSt keys: the vanilla proofs, concatenated) */
    size_t wtns_len;
    /* PoSt keys: n_vanilla vanilla proofs (bincode, one per real sector) of vanilla_lens[i] bytes
     * each, laid end to end in wtns; the challenge randomness; the partition index; the
     * ApiVersion (10: V1_0_0, 12: V1_2_0) */
    const size_t *vanilla_lens;
    size_t n_vanilla;
    uint8_t randomness[32];
    uint64_t partition;
    int api_version;
    /* PoRep keys: wtns holds the C1 output (rust-fil-proofs JSON, or Curio's wrapper); the sector
     * number and miner id (replica_id is checked against them); the RegisteredSealProof the
     * request names (the C1's must be the same) */
    int porep;
    uint64_t sector_id, miner_id, registered_proof;
    /* SnapDeals keys: one partition proof per partition (bincode) laid out as PoSt's vanilla proofs
     * (wtns, vanilla_lens, n_vanilla); the RegisteredUpdateProof in registered_proof; the
     * commitments as 32-byte little-endian field elements (the request's raw bytes or its CIDs'
     * digests) */
    int snap;
    uint8_t comm_r_old[32], comm_d_new[32], comm_r_new[32];
    const volatile int *cancel; /* read while proving: nonzero stops the proof (CUZK_ERR_CANCELLED) */
    uint64_t delay_ms;    /* testing: the witness step takes at least this long */
    int hold;             /* testing: the witness step waits until *cancel */
    /* called once the proof is an engine job (before it runs), with its id for dp_cancel */
    void (*started)(void *ctx, uint64_t engine_job);
    void *started_ctx;
} dp_input;

/* Proves one witness, or for a PoSt key one partition from its vanilla proofs: they are read and
 * checked first (paths, comm_r, challenged leaves: include/cuzk/filecoin.h); one that fails is
 * CUZK_ERR_FORMAT / CUZK_ERR_INVALID naming "vanilla proof <i>" and the reason, and nothing is
 * proved. For a PoRep key, every partition of a sector from its C1 output (one engine job, the
 * partitions pipelined), checked the same way first (cuzk_porep_job_create); out->proof gets the
 * partitions' proofs concatenated (192 bytes each, partition order), out->public_json the public
 * inputs per partition. A SnapDeals key likewise from the partition proofs and the commitments
 * (cuzk_snap_job_create: a proof that fails is CUZK_ERR_FORMAT / CUZK_ERR_INVALID naming the
 * partition, challenge and field; nothing is proved). The proof is verified against public inputs derived again from the public data before
 * it is returned. Errors: CUZK_ERR_FORMAT (witness not a .wtns), CUZK_ERR_CURVE (witness of
 * another field), CUZK_ERR_MISMATCH (witness length differs from the circuit's), CUZK_ERR_UNSAT
 * (the witness does not satisfy the circuit: a failing constraint, or a proof that does not
 * verify against the key), CUZK_ERR_NOMEM, CUZK_ERR_IO, CUZK_ERR_CANCELLED, the engine's
 * (CUZK_ERR_MISMATCH: one proof needs more than engine.job_budget; device errors). */
cuzk_status dp_prove(dp_engine *e, dp_key *k, const dp_input *in, dp_proof *out, cuzk_error *err);
/* The library request of a Filecoin job's first step (reading and checking its inputs), made one
 * way for dp_prove and for the fuzz harness (tools/fuzz/fuzz_daemon.c), which feeds the library
 * what a worker would.
 * dp_post_request: a PoSt job of the key's circuit (circuit: a cuzk PoSt name, sectors: its sector
 * count, 0 for Filecoin's) over in's vanilla proofs, laid end to end in in->wtns
 * (in->vanilla_lens[i] bytes each): bufs (in->n_vanilla entries, the caller's) gets where each
 * starts; *rq borrows bufs, in->vanilla_lens and in->wtns. Threads: nthreads (0: all).
 * Errors: CUZK_ERR_ARG (no vanilla proofs, or lengths that do not add up to in->wtns_len). */
cuzk_status dp_post_request(cuzk_post_request *rq, const uint8_t **bufs, const char *circuit, uint32_t sectors,
                            const dp_input *in, int nthreads, cuzk_error *err);
/* dp_porep_request: a PoRep job over in's C1 output (in->wtns, borrowed), its replica_id and a Curio
 * wrapper's SectorNum checked against in->miner_id and in->sector_id (Curio names both). */
void dp_porep_request(cuzk_porep_request *rq, const dp_input *in, int nthreads);
/* dp_snap_request: a SnapDeals job over in's partition proofs (laid out as dp_post_request's;
 * bufs: in->n_vanilla entries, the caller's), in->registered_proof and the commitments; *rq
 * borrows bufs, in->vanilla_lens and in->wtns. Errors: as dp_post_request's. */
cuzk_status dp_snap_request(cuzk_snap_request *rq, const uint8_t **bufs, const dp_input *in, int nthreads,
                            cuzk_error *err);

/* Cancels the engine job `engine_job` (from dp_input.started): partitions not yet started are
 * dropped, a partition in a stage stops at its next stage boundary. Unknown ids are ignored. */
void dp_cancel(dp_engine *e, uint64_t engine_job);
void dp_proof_free(dp_proof *p);

/* Which prover this build uses (for GetStatus/metrics/logs). */
const char *dp_impl_name(void);

#endif
