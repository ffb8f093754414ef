/* The daemon's job table and scheduler.
 *
 * Jobs wait in four FIFO queues, CRITICAL > HIGH > NORMAL > LOW; a worker always takes the head
 * of the highest non-empty queue, so a CRITICAL job goes ahead of every queued job of lower
 * priority (jobs already proving finish first). Generic Groth16 jobs have one partition, so the
 * order "first come first served, by partition" is the order of the queue. `workers` jobs prove
 * at once (configuration engine.workers).
 *
 * request_id is an idempotency key: a submit whose request_id names a job that is queued,
 * running or COMPLETED with the same inputs (a hash of every field but request_id and priority)
 * returns that job; a job that FAILED or was CANCELLED, or other inputs, start a new job.
 *
 * Finished jobs keep their result for result_retention_ms, and at most max_retained of them
 * (oldest first), then their id is forgotten.
 *
 * Keys ("SRS") are loaded on first use or by preload, reference-counted by the proofs running on
 * them, never evicted while in use, and released after srs_idle_evict_ms unused.
 *
 * Thread-safety: every function may be called from any thread. */
#ifndef CUZKD_JOBS_H
#define CUZKD_JOBS_H

#include <stddef.h>
#include <stdint.h>

#include "config.h"
#include "dprover.h"

typedef struct jobs jobs;

/* Proof kinds as numbered on the wire (cuzk-v1), GENERIC_GROTH16 = 100 is cuzk's extension. */
enum { JK_POREP = 1, JK_SNAP = 2, JK_WPOST = 3, JK_WINNING = 4, JK_GENERIC = 100 };
/* AwaitProofResponse.Status */
enum { JR_UNKNOWN = 0, JR_COMPLETED = 1, JR_FAILED = 2, JR_CANCELLED = 3, JR_TIMEOUT = 4 };
#define JOBS_N_KINDS 5
const char *jobs_kind_name(int kind); /* "POREP_SEAL_COMMIT", ...; NULL if not a kind */

/* Creates the table, its workers and the proving engine (dprover.h). NULL with msg set when the
 * engine cannot be made (backend "gpu" without a GPU, ...). */
jobs *jobs_create(const dcfg *cfg, char *msg, size_t cap);
/* Refuses new submits from now on (UNAVAILABLE). */
void jobs_begin_shutdown(jobs *J);
/* Waits until nothing is queued or running, or until deadline_ms (monotonic ms) passes. 1: idle. */
int jobs_wait_idle(jobs *J, double deadline_ms);
/* Cancels every queued and running job. */
void jobs_cancel_all(jobs *J);
/* Joins the workers and frees everything (no call may be in flight). */
void jobs_destroy(jobs *J);

typedef struct job_submit {
    const char *request_id;  /* "" or NULL: no idempotency */
    uint64_t input_hash[2];
    int kind;
    int priority;            /* 1..4 (LOW..CRITICAL) */
    const char *circuit_id;  /* GENERIC: a configured circuit */
    uint8_t *witness;        /* GENERIC: .wtns bytes; taken over on success (set to NULL) */
    size_t witness_len;
    void *witness_owner;     /* non-NULL: witness lies inside this block (the received request,
                                decoded in place), let go by witness_release(witness_owner), not
                                free(witness); taken over with the witness (set to NULL) */
    void (*witness_release)(void *owner);
    const char *fail_message;/* non-NULL: the job completes FAILED at once with this message */
    /* PoSt (WPOST, WINNING; circuit_id a configured PoSt circuit): the vanilla proofs, one per
     * real sector, concatenated in `witness` (taken over as above), their lengths in
     * vanilla_lens (n_vanilla entries, taken over too: set to NULL), the randomness, the
     * partition index and the ApiVersion (10, 12) of registered_proof */
    size_t *vanilla_lens;
    size_t n_vanilla;
    uint8_t randomness[32];
    uint64_t partition;
    int api_version;
    /* PoRep (POREP_SEAL_COMMIT; circuit_id a configured PoRep circuit): the C1 output as Curio
     * sends it in `witness` (taken over as above), the sector, the miner (prover_id) and the
     * RegisteredSealProof the C1 must be of */
    int porep;
    uint64_t sector_id, miner_id, registered_proof;
    /* SnapDeals (SNAP_DEALS_UPDATE; circuit_id a configured SnapDeals circuit): the partition
     * proofs laid out as PoSt's vanilla proofs (witness, vanilla_lens, n_vanilla: taken over),
     * the RegisteredUpdateProof in registered_proof, the commitments as 32-byte little-endian
     * field elements */
    int snap;
    uint8_t comm_r_old[32], comm_d_new[32], comm_r_new[32];
} job_submit;

/* Returns a gRPC status code (CGRPC_*); msg gets the reason when not OK. */
int jobs_submit(jobs *J, job_submit *s, char job_id[32], uint32_t *queue_pos, int *deduplicated, char *msg,
                size_t cap);

typedef struct job_outcome {
    int status;              /* JR_* */
    uint8_t *proof;          /* malloc'd copies */
    size_t proof_len;
    char *proof_json, *public_json, *error;
    uint64_t queue_wait_ms, srs_load_ms, synthesis_ms, gpu_compute_ms, total_ms, completion_seq, prover_us;
} job_outcome;
void job_outcome_free(job_outcome *o);

/* Waits for a job. timeout_ms 0: forever. cancelled(cctx) is polled; when it returns nonzero the
 * wait ends with CGRPC_CANCELLED. Returns CGRPC_OK (out filled: TIMEOUT when the time ran out),
 * CGRPC_NOT_FOUND, CGRPC_CANCELLED. */
int jobs_await(jobs *J, const char *job_id, uint64_t timeout_ms, int (*cancelled)(const void *), const void *cctx,
               job_outcome *out, char *msg, size_t cap);

/* 0 and *was_running when the job was found (a finished job: nothing happens, was_running 0);
 * -1 when the id is unknown. */
int jobs_cancel(jobs *J, const char *job_id, int *found, int *was_running);

/* Loads a circuit's key now (PreloadSRS). Returns a gRPC status: NOT_FOUND (no such circuit),
 * RESOURCE_EXHAUSTED (host budget, or GPU memory with engine.gpu_fallback "none"), UNAVAILABLE
 * (no usable GPU, engine.gpu_fallback "none"), FAILED_PRECONDITION (a bad key file); msg names the
 * circuit and the reason. */
int jobs_preload(jobs *J, const char *circuit_id, int *already_loaded, uint64_t *load_ms, char *msg, size_t cap);
/* jobs_preload for the configuration's preload = true: 0 loaded; 1 the circuit cannot be made
 * resident on the GPU and engine.gpu_fallback is "none" (msg says why: the daemon serves the
 * rest, and the circuit's jobs fail with that reason); -1 any other failure (the start stops). */
int jobs_preload_at_start(jobs *J, const char *circuit_id, char *msg, size_t cap);
int jobs_evict(jobs *J, const char *circuit_id, int *was_loaded, uint64_t *freed_bytes, char *msg, size_t cap);
/* The start's check of the circuits that are not preloaded (dp_key_files_check: headers only): a
 * failure is logged as an error naming the circuit and the file, and kept as the key's load_error
 * (GetStatus, /status) until a load of it succeeds; the daemon serves the rest. Returns how many
 * failed. */
int jobs_check_key_files(jobs *J);

typedef struct jobs_srs_info {
    const char *circuit_id;  /* the configuration's string */
    int tier;                /* SRSStatus.Tier: 0 HOT (loaded), 2 COLD (on disk) */
    uint64_t size_bytes;
    uint32_t ref_count;
    const char *backend;     /* loaded: where it proves ("gpu", "cpu", "cpu (GPU fallback)"); "" when not */
    uint64_t host_released_bytes; /* loaded: host bytes its G1 queries gave back once on the GPU */
    char load_error[600];    /* not loaded: why its last load failed (the file named; "" if none) */
    uint64_t load_failures;  /* loads of it that failed since the start */
} jobs_srs_info;

typedef struct jobs_worker_info {
    char current_job_id[32];
    int current_kind;        /* 0 when idle */
} jobs_worker_info;

typedef struct jobs_status {
    uint64_t completed, failed, cancelled, retained, uptime_s;
    uint32_t pending[JOBS_N_KINDS], running[JOBS_N_KINDS];
    int kinds[JOBS_N_KINDS];
    int n_srs;
    jobs_srs_info *srs;      /* malloc'd, n_srs entries */
    int n_workers;
    jobs_worker_info *workers; /* malloc'd */
    const char *backend;     /* the configuration's engine.backend */
    const char *engine_backend; /* what it resolved to: "cpu" or "gpu" */
    int n_devices;           /* the engine's devices (the CPU backend: one) */
    dp_device *devices;      /* malloc'd, n_devices entries */
    dp_engine_mem mem;       /* the engine's host budget and pinned memory */
} jobs_status;
void jobs_get_status(jobs *J, jobs_status *st);
void jobs_status_free(jobs_status *st);

/* Prometheus text exposition of every counter and gauge; malloc'd. */
char *jobs_metrics_text(jobs *J);
/* JSON of GetStatus (for HTTP GET /status); malloc'd. */
char *jobs_status_json(jobs *J);

double jobs_now_ms(void);

#endif
