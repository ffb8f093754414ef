/* cuzk engine: the proving pipeline (DESIGN.md sections 1, 6, 7; issue 4).
 *
 * A job is P partitions of one circuit; each partition has its own witness and yields one
 * Groth16 proof. Partitions flow through three stages joined by bounded queues:
 *
 *   synthesis workers (S threads)  ->  prove-start worker (1 thread)  ->  finish workers (F threads)
 *   budget reservation, witness         a/b/c, H, G1 MSMs                 B_G2 MSM, assembly
 *   buffer, the caller's synth fn       (GPU backend: on the GPU, with    (GPU backend: waits for the
 *                                       B_G2 started on CPU threads)      B_G2 threads, assembly)
 *
 * so the start worker takes the next partition while another thread finishes the previous one,
 * and partitions of job N+1 synthesize while job N proves. Proofs are delivered in partition
 * order whatever order the partitions complete in. Every large buffer is released by the reaper
 * (one background thread), never on a stage's critical path.
 *
 * Curves: circuits of BLS12-381 and BN254 (circom "bn128") keys share one engine: one queue, one
 * memory budget (one dispatcher, jobs in submission order), the same devices and cancellation.
 * The circuit's key names its curve; witness values, r and s are that curve's Fr, and proofs come
 * back in that curve's byte encoding (cuzk_job_result.proof_bytes each: include/cuzk/prover.h,
 * cuzk_proof_bytes).
 *
 * Backends (opts.backend): the CPU prover, or the GPU prover with the circuit's SRS G1 queries
 * (and, for bellperson keys, its matrices) resident on each device (cuzk_engine_preload, or the first partition) and witness
 * buffers from a pinned pool. The engine holds a list of devices (opts.gpu_devices) and runs
 * opts.gpu_workers_per_device prove-start workers per device (default 1), all taking partitions
 * from the one prove queue. Where the backend reports residency, a device takes first the
 * partitions whose circuit it already holds, and others only when its budget allows making that
 * circuit resident. Where the backend reports a sticky device fault, the device is marked dead,
 * the partitions it held are restarted on another live device (the job fails with
 * CUZK_ERR_DEVICE when none is left), and the other devices keep proving.
 *
 * Memory budget: a partition reserves its whole host footprint (witness + the prover's scratch)
 * before its witness is allocated; reservations are granted in job order, then partition order
 * (one dispatcher: a later job never overtakes an earlier one), and a request that does not fit
 * waits (backpressure) until the reaper has freed enough. Reserved bytes are returned as the
 * reaper frees each buffer, so the budget bounds what is allocated or waiting to be freed.
 *
 * Timing: every partition records its queue waits, each stage's time as the engine sees it, each
 * prover call around the call and the prover's own stage total inside it; the differences are
 * the "cleanup gap" of each layer (DESIGN.md section 7). cuzk_engine_trace_write writes all spans
 * as a Chrome trace (opens in Perfetto / chrome://tracing), one track per worker thread.
 *
 * Thread-safety: all functions may be called from any thread concurrently, except
 * cuzk_engine_destroy, which must not race with any other call on the same engine.
 * The library never prints.
 */
#ifndef CUZK_ENGINE_H
#define CUZK_ENGINE_H

#include <stddef.h>
#include <stdint.h>

#include "cuzk/cuzk.h"
#include "cuzk/prover.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct cuzk_engine cuzk_engine;
/* A circuit and its proving key, shared read-only by every job that names it. */
typedef struct cuzk_circuit cuzk_circuit;
typedef uint64_t cuzk_job_id;

/* Makes an engine circuit from a proving key (include/cuzk/prover.h), taking a reference to pk
 * (the caller may release its own right after). Either convention: bellperson (.params + .r1cs:
 * a/b/c from the circuit's matrices; BLS12-381) or snarkjs (a .zkey of BLS12-381 or BN254: a/b
 * from its coefficient rows; job check_witness needs the key loaded with its .r1cs). The key's
 * curve is the circuit's: its jobs' witnesses, r, s and proofs are of that curve. With the same
 * r, s a job's proof is the one cuzk_prove gives, byte for byte (BLS12-381: its 192 bellperson
 * bytes; BN254: cuzk_proof_from_bytes of the job's 256 bytes gives cuzk_prove's proof_json).
 * Errors: CUZK_ERR_ARG (NULL, a key of unknown convention), CUZK_ERR_UNSUPPORTED (a curve this
 * build does not have), CUZK_ERR_NOMEM. Thread-safe. */
CUZK_API cuzk_status cuzk_circuit_create(cuzk_circuit **out, cuzk_pk *pk, cuzk_error *err);
/* Frees a circuit made by cuzk_circuit_create and drops its key reference. Every job naming it
 * must have been waited for, and no engine may still hold it: destroy the engines that ran or
 * preloaded it first, or call cuzk_engine_release_circuit on each. NULL is a no-op. */
CUZK_API void cuzk_circuit_destroy(cuzk_circuit *c);
/* Witness length (n_vars, ONE included) and public inputs (ONE not counted) of a circuit; 0 for NULL. */
CUZK_API size_t cuzk_circuit_n_vars(const cuzk_circuit *c);
CUZK_API uint32_t cuzk_circuit_n_public(const cuzk_circuit *c);

#define CUZK_ENGINE_MAX_DEVICES 16

typedef struct cuzk_engine_opts {
    int synthesis_workers;    /* S >= 1 (0: 1) */
    int finish_workers;       /* F >= 1 (0: one per device) */
    int prove_threads;        /* threads inside each start call (0: all online CPUs) */
    int finish_threads;       /* threads inside each finish call (0: 1) */
    int queue_depth;          /* capacity of each inter-stage queue (0: 2) */
    size_t host_budget_bytes; /* host memory budget; 0: unlimited (still accounted) */
    int no_trace;             /* do not record spans (timings in results are still filled) */
    cuzk_backend backend;     /* AUTO (0): the GPU when this build has CUDA and a device is present,
                                 else the CPU (one-line notice); CPU; GPU (CUZK_ERR_DEVICE if none) */
    int gpu_device;           /* CUDA device ordinal for the GPU backend when n_gpu_devices is 0
                                 (default 0) */
    int n_gpu_devices;        /* GPU backend: devices in gpu_devices (0: the one gpu_device) */
    int gpu_devices[CUZK_ENGINE_MAX_DEVICES]; /* CUDA ordinals, distinct; one resident copy of
                                 each circuit per device */
    int gpu_workers_per_device; /* prove-start workers per device, 1..4 (0: 1; more: CUZK_ERR_ARG).
                                 The GPU prover runs one start's device stages at a time per
                                 circuit and device: a second worker overlaps only the host work
                                 around them (witness hand-off, r/s, bookkeeping). Not yet measured
                                 on a GPU */
    cuzk_msm_opts msm;        /* GPU MSM tuning (include/cuzk/prover.h); zero: automatic */
    size_t pinned_budget_bytes; /* GPU backend: pinned host memory for witness buffers (pooled,
                                   reused across partitions, pinned by cuzk_engine_preload); at
                                   most one per witness that can be alive (S + queue + one per
                                   device); from the first device's pool; 0:
                                   16 GiB. Beyond it witnesses are pageable (slower upload),
                                   never a failure */
    size_t gpu_budget_bytes;  /* GPU backend: device memory a circuit may use: its resident SRS
                                 G1 queries (its own copy or a borrowed SRS store copy; with
                                 B_G2 on the device the B_G2 query too) + matrices
                                 + one proof's peak from the pool (witness, a/b/c, the largest
                                 MSM's scratch as if no scalar were 0/1: an upper bound), per
                                 device. One prove worker drives each GPU, so proofs never hold
                                 its pool memory at the same time and this sum is the whole need
                                 of that device. 0: no check (the
                                 device's free memory is the limit). The automatic B_G2 choice
                                 (msm.b_g2_on_gpu 0) keeps B_G2 on CPU threads when the device
                                 B_G2 would not fit it. Exceeding it otherwise fails the
                                 preload / first partition with CUZK_ERR_NOMEM_DEVICE, nothing
                                 left allocated, and the message says how much is needed */
} cuzk_engine_opts;

/* Synthesis callback: fill witness[0 .. n_vars*4) with the n_vars witness values of partition
 * `partition` (each 4 x uint64 limbs, least significant first, of an element of the circuit's Fr
 * (BLS12-381 or BN254: cuzk_witness_convert with the key's curve turns a .wtns into them), in the
 * form the job names: Montgomery by default, or canonical; witness value 0 = ONE). The buffer is the
 * engine's (host memory, 8-byte aligned, possibly pinned; do not keep it). Called on a synthesis
 * worker thread, possibly concurrently for several partitions of one job. Return CUZK_OK, or
 * any status to fail the job (fill err). */
typedef cuzk_status (*cuzk_synth_fn)(void *synth_ctx, uint32_t partition, uint64_t *witness, size_t n_vars,
                                     cuzk_error *err);

#define CUZK_CHECK_WITNESS_FIRST 2 /* cuzk_job_desc.check_witness: partition 0 only */

typedef struct cuzk_job_desc {
    const cuzk_circuit *circuit; /* borrowed; must outlive the job */
    uint32_t n_partitions;       /* P >= 1 */
    cuzk_synth_fn synth;
    void *synth_ctx;             /* borrowed; valid until cuzk_engine_wait returns for the job */
    /* NULL: r, s drawn from the OS RNG per partition (the production setting). Else 8*P limbs:
     * partition i uses r = limbs [8i, 8i+4), s = [8i+4, 8i+8) (the circuit's Fr, Montgomery, < r:
     * not checked). Copied at submit; for tests (fixed r, s make proofs reproducible). */
    const uint64_t *fixed_rs;
    int check_witness;           /* 1: check every constraint of every partition after synthesis:
                                    CUZK_ERR_UNSAT fails the job, its message naming the partition
                                    and the first failing constraint; CUZK_CHECK_WITNESS_FIRST: of
                                    partition 0 only, before it goes to the prover (once per job:
                                    that the R1CS, e.g. from a .r1cs file, is the circuit the synthesis
                                    fills). Needs the circuit's R1CS (a zkey key loaded with its .r1cs) */
    cuzk_witness_form witness_form; /* what synth writes: 0 or CUZK_WITNESS_FR_MONT (Montgomery),
                                    or CUZK_WITNESS_FR_CANON (canonical; a value >= the curve's r
                                    fails the job with CUZK_ERR_FORMAT). Either way a value 0 that
                                    is not ONE fails it with CUZK_ERR_MISMATCH. CUZK_WITNESS_WTNS:
                                    CUZK_ERR_ARG */
    /* Optional progress reports (the library never prints): progress(progress_user, what, done,
     * total) as partitions move through the stages, with what = "partition <k>: <stage>" (valid
     * during the call), done = partitions proved so far, total = n_partitions. Stages: "synthesis",
     * "witness check", "prove start", then the prover's own steps as each begins ("a/b/c", "H",
     * "MSM A", "MSM B1", "MSM L", "MSM H", ...: the names of its stage boundaries), "finish" (and
     * "MSM B (G2)" where the CPU finish computes it), "proved" (done counts it). Called from the
     * engine's worker threads, one call at a time per job, never after cuzk_engine_wait returned;
     * it must be quick and must not call into the engine. NULL: none. */
    cuzk_progress_fn progress;
    void *progress_user;
} cuzk_job_desc;

typedef enum { CUZK_JOB_DONE = 0, CUZK_JOB_FAILED = 1, CUZK_JOB_CANCELLED = 2 } cuzk_job_state;

/* Milliseconds (monotonic clock) per partition. "call" = measured by the engine around the call,
 * "inner" = the callee's own stage total, "stage" = the engine stage from taking the partition to
 * handing it on (excluding queue and budget waits). Gaps: stage - call, call - inner. */
typedef struct cuzk_partition_timings {
    double queue_synth_ms;   /* submit -> a synthesis worker takes it */
    double reserve_ms;       /* waiting for the memory budget */
    double synth_call_ms;    /* the synth callback */
    double synth_stage_ms;   /* synthesis stage: allocation, callback, checks, bookkeeping */
    double push_wait_ms;     /* blocked on the full prove queue (backpressure) */
    double queue_start_ms;   /* in the prove queue */
    double start_inner_ms, start_call_ms, start_stage_ms;
    double queue_finish_ms;  /* in the finish queue (incl. blocked on a full queue) */
    double finish_inner_ms, finish_call_ms, finish_stage_ms;
    double free_ms;          /* reaper time spent on this partition's buffers (those freed before the job completed) */
    /* the prover's own stages inside start (GPU backend: CUDA-event or synchronized times on the
     * GPU stream) and the B_G2 MSM (GPU backend: on CPU threads, overlapping start's GPU stages) */
    double upload_ms, abc_ms, h_ms, msm_a_ms, msm_b1_ms, msm_l_ms, msm_h_ms, msm_b2_ms;
    double total_ms;         /* taken by synthesis -> proof stored */
    double t_begin_ms, t_end_ms; /* monotonic times of that span */
    uint32_t device;         /* ordinal of the device whose prove-start worker last started it
                                (the CPU backend: 0); meaningful once total_ms > 0 */
    uint32_t retries;        /* times it was restarted on another device after a device was lost */
    int b2_on_device;        /* 1: its B_G2 MSM ran on the GPU (cuzk_msm_opts.b_g2_on_gpu), after the
                                G1 MSMs, and msm_b2_ms is a GPU stage; 0: on CPU threads */
} cuzk_partition_timings;

typedef struct cuzk_job_result {
    cuzk_job_state state;
    cuzk_status status;          /* CUZK_OK when DONE; the first failure's status when FAILED */
    uint32_t failed_partition;   /* FAILED: which partition failed first */
    uint32_t n_partitions;
    uint32_t n_public;
    cuzk_curve curve;            /* the circuit's curve */
    size_t proof_bytes;          /* bytes of one proof in `proofs`: cuzk_proof_bytes(curve), 192 on
                                    BLS12-381, 256 on BN254 */
    uint8_t *proofs;             /* DONE: n_partitions * proof_bytes, partition order, in the curve's
                                    encoding (include/cuzk/prover.h): BLS12-381 the compressed (A, B, C)
                                    of cuzk_proof.bellperson (either key convention); BN254 A | B | C
                                    in snarkjs's LEM encoding. cuzk_proof_from_bytes gives the snarkjs
                                    proof.json; cuzk_verify takes them as CUZK_PROOF_CURVE_BYTES */
    uint8_t *public_inputs;      /* DONE: n_partitions * n_public * 32 bytes, canonical Fr of the curve
                                    (see include/cuzk/prover.h), partition order, without ONE */
    cuzk_partition_timings *timings; /* n_partitions entries (zero for partitions that never ran) */
    double submit_ms, done_ms;   /* monotonic times: submitted, last partition terminal */
    double wait_return_ms;       /* monotonic time just before cuzk_engine_wait returned */
} cuzk_job_result;

/* Frees the arrays of a result (not the struct). NULL and zeroed results are fine. */
CUZK_API void cuzk_job_result_free(cuzk_job_result *r);

/* Creates an engine on the backend opts->backend resolves to and starts its threads. opts may be
 * NULL (defaults). Errors: CUZK_ERR_ARG, CUZK_ERR_NOMEM (allocation or thread creation),
 * CUZK_ERR_DEVICE (backend GPU requested and no GPU). */
CUZK_API cuzk_status cuzk_engine_create(cuzk_engine **out, const cuzk_engine_opts *opts, cuzk_error *err);

/* Name of the backend the engine runs ("cpu" or "gpu"). */
CUZK_API const char *cuzk_engine_backend_name(const cuzk_engine *e);
/* Number of prove devices the engine drives, one prove-start worker each (1 on the CPU backend). */
CUZK_API int cuzk_engine_n_devices(const cuzk_engine *e);

/* Makes a circuit ready before its first job: on the GPU backend, uploads its SRS G1 queries and
 * matrices to every device (otherwise the first partition pays for it). No-op on the CPU backend.
 * Must not race with cuzk_engine_destroy. Errors: those of the GPU prover's creation
 * (CUZK_ERR_NOMEM_DEVICE, CUZK_ERR_MISMATCH, CUZK_ERR_DEVICE). */
CUZK_API cuzk_status cuzk_engine_preload(cuzk_engine *e, const cuzk_circuit *c, cuzk_error *err);

/* Frees the host copies of circuit c's SRS G1 queries (A, B_G1, L, H: ~41 of the 45 GB of a 32 GiB
 * PoRep key) once they live on the GPU: first makes c resident on every device of this engine
 * where it is not yet (as cuzk_engine_preload; on failure nothing is freed). The key keeps its
 * verification key, B_G2 query, circuit and counts, and this engine's provers of c keep proving
 * from their device copies. Afterwards every other prover of the key fails with CUZK_ERR_ARG
 * naming the reason: cuzk_prover_create on it, another engine's preload or job of it, and this
 * engine's after cuzk_engine_release_circuit(c) (load the key again for those). The key's
 * cuzk_pk_info.host_bytes drops by the bytes freed. *freed_bytes (may be NULL) gets them (0 with
 * CUZK_OK when they were given back before). Keys loaded from a bellperson .params file only
 * (cuzk_pk_load_params, cuzk_pk_load_params_mem).
 * Errors: CUZK_ERR_ARG (NULL), CUZK_ERR_UNSUPPORTED (an engine that proves on the CPU: it reads
 * the host copies; a snarkjs key, or a key made in memory), those of cuzk_engine_preload.
 * Thread-safety: call it before any job of c (e.g. right after cuzk_engine_preload); it must not
 * race with anything else that uses c's key (another engine, a cuzk_prover, cuzk_pk_describe). */
CUZK_API cuzk_status cuzk_engine_release_host_g1(cuzk_engine *e, const cuzk_circuit *c, size_t *freed_bytes,
                                                 cuzk_error *err);

/* Drops what the engine holds for circuit c on every device (its prover; on the GPU backend its
 * resident SRS G1 queries and matrices, freed before returning), so that c may be destroyed
 * while the engine lives on, or its device memory given back; a later job or preload of c makes
 * it resident again. CUZK_OK also when nothing was held. Errors: CUZK_ERR_ARG (NULL),
 * CUZK_ERR_BUSY (a job naming c is not complete: nothing is dropped). The caller must not submit
 * jobs of c concurrently with this call. */
CUZK_API cuzk_status cuzk_engine_release_circuit(cuzk_engine *e, const cuzk_circuit *c, cuzk_error *err);

/* Queues a job and returns at once (it never blocks on the budget or the queues).
 * Errors: CUZK_ERR_ARG (NULL, P = 0, no synth fn, a witness form other than Fr limbs,
 * check_witness on a zkey circuit without its R1CS),
 * CUZK_ERR_MISMATCH (budget smaller than one partition's footprint), CUZK_ERR_UNSUPPORTED (a
 * circuit on a borrowed device SRS in an engine of several devices), CUZK_ERR_NOMEM. */
CUZK_API cuzk_status cuzk_engine_submit(cuzk_engine *e, const cuzk_job_desc *desc, cuzk_job_id *id, cuzk_error *err);

/* Cancels a job: partitions not yet synthesized are dropped at once; those in a stage finish the
 * call they are in and are then dropped; their buffers are freed and their budget returned.
 * Returns CUZK_OK if the job was found and not yet complete (it will end CANCELLED unless it had
 * already failed), CUZK_ERR_ARG if the id is unknown, already waited for, or already complete. */
CUZK_API cuzk_status cuzk_engine_cancel(cuzk_engine *e, cuzk_job_id id);

/* Blocks until the job is complete, fills *out (caller frees with cuzk_job_result_free) and
 * forgets the job. Returns CUZK_OK whenever *out was filled, whatever the job's state (see
 * out->state, out->status; for FAILED, err gets the failure detail). CUZK_ERR_ARG: NULL, unknown
 * id, or another thread is already waiting for it (*out untouched then). CUZK_ERR_NOMEM: the result arrays could not
 * be allocated (the job is forgotten anyway). */
CUZK_API cuzk_status cuzk_engine_wait(cuzk_engine *e, cuzk_job_id id, cuzk_job_result *out, cuzk_error *err);

typedef struct cuzk_engine_stats {
    size_t budget_limit;        /* 0: unlimited */
    size_t budget_reserved;     /* now */
    size_t budget_max_reserved; /* high-water mark */
    double budget_wait_ms;      /* total time requests waited */
    uint64_t budget_underestimates; /* buffers larger than what was reserved for them (should be 0) */
    size_t reaper_pending_bytes;
    size_t reaper_max_pending_bytes;
    uint64_t reaper_items_freed, reaper_bytes_freed;
    double reaper_busy_ms;
    size_t gpu_resident_bytes;  /* GPU backend: SRS G1 queries + matrices resident on the device */
    size_t gpu_pool_bytes;      /* GPU backend: the device's stream-ordered pool (per-proof vectors and
                                   MSM scratch; its high-water mark, freed memory stays pooled) */
    size_t gpu_device_used_bytes; /* GPU backend: total - free of the whole device */
    size_t pinned_bytes;        /* GPU backend: pinned witness buffers held by the pool */
    uint64_t pinned_fallbacks;  /* witnesses that got pageable memory (pinned budget used up) */
    size_t gpu_streamed_bytes;  /* GPU backend: SRS bytes the memory plans stream host -> device per
                                   proof (queries not resident; summed over devices and circuits) */
} cuzk_engine_stats;
CUZK_API void cuzk_engine_get_stats(cuzk_engine *e, cuzk_engine_stats *out);

/* One device of the engine (0 <= d < cuzk_engine_n_devices), for status pages. */
typedef struct cuzk_device_stats {
    int ordinal;                /* CUDA ordinal (the CPU backend: 0) */
    char name[96];              /* the device's name ("NVIDIA H200"); "cpu" on the CPU backend */
    size_t total_bytes;         /* GPU backend: the device's memory (cudaMemGetInfo); 0 on the CPU */
    size_t free_bytes;          /* GPU backend: free now, whoever holds the rest; 0 on the CPU */
    size_t resident_bytes;      /* GPU backend: this engine's circuits resident there (SRS G1 queries,
                                   matrices; a borrowed SRS included) */
    size_t pool_bytes;          /* GPU backend: one proof's memory: the circuits' arenas (their memory
                                   plans' per-proof peak) + the device's stream-ordered pool (high-water mark) */
    int dead;                   /* 1 after a sticky fault: it takes no partition */
    size_t streamed_bytes;      /* GPU backend: SRS bytes the memory plans copy host -> device per proof */
    char memory_plan[512];      /* GPU backend: each circuit's memory plan on this device, one line
                                   each, "; "-joined (what is resident, what streams, the MSM chunks,
                                   the arena, where B_G2 runs); "" on the CPU */
} cuzk_device_stats;
/* Fills *out for device d. Errors: CUZK_ERR_ARG (NULL, d out of range). Thread-safe (the GPU
 * backend queries the device: a call of about a millisecond). */
CUZK_API cuzk_status cuzk_engine_device_stats(cuzk_engine *e, int d, cuzk_device_stats *out);

/* Blocks until the reaper has freed everything queued so far. */
CUZK_API void cuzk_engine_drain_frees(cuzk_engine *e);

/* Writes the recorded spans as Chrome trace JSON ({"traceEvents": [...]}, "X" events, ts/dur in
 * microseconds since the engine was created, pid 1, one tid per worker with thread_name metadata).
 * A regular file is written to "<path>.tmp.<pid>" and renamed over path (a failed write leaves no
 * partial trace); a FIFO or device is written in place. Errors: CUZK_ERR_ARG (NULL or empty
 * path), CUZK_ERR_IO (the message gives the reason; nothing is left at path). */
CUZK_API cuzk_status cuzk_engine_trace_write(cuzk_engine *e, const char *path, cuzk_error *err);

/* Cancels every job not yet waited for, stops and joins the workers, drains the reaper and frees
 * everything. Results of jobs not waited for are discarded. NULL is a no-op. */
CUZK_API void cuzk_engine_destroy(cuzk_engine *e);

#ifdef __cplusplus
}
#endif
#endif
