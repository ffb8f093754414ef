/* The Groth16 GPU prover (bellperson convention; issue 3 item 5, DESIGN.md sections 1 and 6).
 *
 * A groth16_gpu_prover binds one parameter set and one circuit to one GPU and keeps on the device,
 * for its whole life:
 *   - the four G1 queries of the parameters (a, b_g1, l, h: the SRS, ~41 GB for a 32 GiB PoRep
 *     partition), so no proof copies bases host -> device;
 *   - the circuit's A, B, C matrices (CSR), so a/b/c = A*w, B*w, C*w are computed on the GPU from
 *     the witness alone;
 *   - the density selections of the A and B queries as index lists.
 * A proof then moves only the witness to the device (n_vars Fr) and runs there: SpMV (a/b/c),
 * the fused H step, and the four G1 MSMs with the 0/1 split; the B_G2 MSM (G2) runs on CPU
 * threads at the same time (started by start, joined by finish), or, when
 * groth16_gpu_prover_set_b_g2 turned it on, on the device after the G1 MSMs (gpu_g2_msm_run over
 * a resident B_G2 query: the SRS's when it has one, else the prover's own copy). The proof bytes
 * equal the CPU prover's for the same r, s either way (tests/test_gpu_prove.c).
 *
 * Memory: a plan per device (src/groth16/memplan.h, issue 23), made when the prover is created,
 * before anything is uploaded: from the device's free memory (or a smaller budget) it keeps the
 * SRS queries resident that fit (the others stream from page-locked host memory in chunks each
 * proof, which needs their host copy for the prover's life: g1_stream_borrows), chooses the MSM
 * chunks and where B_G2 runs (the device first, its query resident or streamed), and sizes the
 * context's arena (src/cuda/gpu.h gpu_ctx_arena_set) to one proof's peak: the witness, a/b/c
 * (b and c given back after H, a after the H MSM) and the largest MSM's scratch. Every device
 * temporary of a proof comes from that arena, so a proof cannot run out of device memory once
 * the prover exists. device = the resident parts (groth16_gpu_prover_device_bytes) + the arena
 * (groth16_gpu_proof_device_bytes) + the NTT tables; host = the B selection index (n_b u32) and,
 * per pending, n_b scalars (none with the device B_G2).
 * Thread-safety: one prover serves one proof at a time (start calls are serialized by a mutex
 * inside); finish and pending_free may run on other threads concurrently with the next start.
 * Errors common to all calls: CUZK_ERR_UNSUPPORTED (a build without CUDA), CUZK_ERR_NOMEM_DEVICE,
 * CUZK_ERR_DEVICE (after a sticky fault the prover is dead: destroy it and make a new one).
 */
#ifndef CUZK_GROTH16_GPU_PROVER_H
#define CUZK_GROTH16_GPU_PROVER_H

#include <stdbool.h>
#include <stddef.h>

#include "groth16/groth16.h"
#include "groth16/memplan.h"

typedef struct groth16_gpu_prover groth16_gpu_prover;

/* ---- the SRS resident on one GPU: the G1 queries a, b_g1, l, h of a bellperson parameter set
 * (96 bytes per point; ~41 GB for a 32 GiB PoRep partition), optionally its B_G2 query (192 bytes
 * per point), and the device context (stream, stream-ordered pool) every prover made on it
 * shares. Independent of any circuit, so one copy serves every prover of the same parameters and
 * can be kept hot by the SRS store (src/srs/store.h) through srs_gpu_ops / srs_gpu_ops_b_g2. */
typedef struct groth16_gpu_srs groth16_gpu_srs;

/* Parts of the SRS beyond the four G1 queries (groth16_gpu_srs_create's `parts`). */
enum {
    GROTH16_GPU_SRS_B_G2 = 1u << 0 /* the B_G2 query, for provers with the device B_G2 MSM */
};

/* Uploads p's four G1 queries, and the B_G2 query when parts has GROTH16_GPU_SRS_B_G2, to device
 * `device` (p is read during the call only). On failure *out = NULL and nothing is held.
 * Errors: CUZK_ERR_ARG (NULL, unknown parts, a query not in host memory), CUZK_ERR_NOMEM(_DEVICE),
 * CUZK_ERR_DEVICE, CUZK_ERR_UNSUPPORTED (no CUDA). */
cuzk_status groth16_gpu_srs_create(groth16_gpu_srs **out, const bellperson_params *p, int device, unsigned parts,
                                   cuzk_error *err);
/* Device bytes the bases hold (G1 queries, plus B_G2 when present). */
size_t groth16_gpu_srs_bytes(const groth16_gpu_srs *srs);
/* The device bytes groth16_gpu_srs_create(p, parts) will hold (the points only; 0 without CUDA). */
size_t groth16_gpu_srs_bytes_for(const bellperson_params *p, unsigned parts);
/* True when srs holds the B_G2 query. */
bool groth16_gpu_srs_has_b_g2(const groth16_gpu_srs *srs);
/* Frees it. Every prover made on it must have been destroyed. NULL is a no-op. */
void groth16_gpu_srs_free(groth16_gpu_srs *srs);


/* How a prover plans its device memory (groth16_gpu_prover_create_planned). */
typedef struct groth16_gpu_plan_opts {
    size_t budget_bytes;   /* device bytes the circuit may use (resident queries, borrowed SRS, matrices,
                              tables, arena); 0: no limit but the device's free memory (which always
                              bounds it: free + the borrowed SRS + the pool's idle reserve) */
    cuzk_msm_opts msm;     /* the MSMs' tuning: window_bits, chunk_points (0: the plan chooses),
                              accumulation; b_g2_on_gpu: 1 the device (resident or streamed, never
                              CPU threads), -1 CPU threads, 0 automatic: the device unless no plan
                              with it fits */
    size_t stream_points;  /* points per streamed chunk (0: the plan chooses); also the staging chunk of
                              queries decoded from a deferred .params into the device (0: 2^20) */
    int lean_h;            /* 0: the plan chooses the lean H (memplan.h) only when nothing else fits;
                              1: always (tests, experiments); -1: never */
} groth16_gpu_plan_opts;

/* The planned prover: srs NULL makes the prover's own device context on `device` and uploads the
 * queries the plan keeps resident; a borrowed srs (made from p, outliving the prover) keeps its
 * queries resident (device is then srs's). Makes the plan (src/groth16/memplan.h: logged, one
 * line at INFO), refuses a budget too small for any plan with CUZK_ERR_NOMEM_DEVICE and a
 * message naming the bytes the leanest plan needs, then uploads the resident queries and the
 * circuit (or, when the plan streams the matrices, only their coefficient tables: cs's CSR arrays
 * are then read each proof and must stay unchanged while the prover lives), page-locks the host
 * arrays of streamed queries and matrices (unless already pinned; a failure leaves them pageable:
 * slower copies), allocates the lean H's 2 m Fr of page-locked host memory when the plan parks a,
 * b, c (plan.park_bytes), sizes the arena and the MSMs' host scratch, and builds the NTT tables of
 * the domain (an H over zeros), so the first proof does only proving work. p and cs borrowed as
 * for groth16_gpu_prover_create. Errors: as groth16_gpu_prover_create; CUZK_ERR_ARG also when a
 * query the plan streams is not in host memory (released after an upload); CUZK_ERR_NOMEM when
 * the lean H's host memory cannot be page-locked. On failure nothing is held. */
cuzk_status groth16_gpu_prover_create_planned(groth16_gpu_prover **out, groth16_gpu_srs *srs, const bellperson_params *p,
                                              const r1cs *cs, int device, const groth16_gpu_plan_opts *opts,
                                              cuzk_error *err);
/* The prover's plan (kept in step by set_msm and set_b_g2). NULL for NULL. */
const memplan *groth16_gpu_prover_plan(const groth16_gpu_prover *gp);

/* A prover on an SRS already resident (borrowed: it must outlive the prover, e.g. held by an SRS
 * store handle). p must be the parameters srs was made from (vk, b_g2, counts are read from it).
 * Uploads only the circuit (matrices, selections): groth16_gpu_prover_create_planned with the
 * default options and B_G2 on CPU threads (groth16_gpu_prover_set_b_g2 moves it). Errors as
 * groth16_gpu_prover_create. */
cuzk_status groth16_gpu_prover_create_on(groth16_gpu_prover **out, groth16_gpu_srs *srs, const bellperson_params *p,
                                         const r1cs *cs, cuzk_error *err);

/* Uploads p's G1 queries (those the plan keeps resident: on a device that holds them, all) and
 * cs's matrices to device `device` (see above): groth16_gpu_prover_create_planned with the
 * default options and B_G2 on CPU threads. p and cs are borrowed: both must outlive the prover
 * (p->b_g2 is read by every finish). On failure *out = NULL and nothing is held. Errors also:
 * CUZK_ERR_ARG (NULL), CUZK_ERR_MISMATCH (parameters of another circuit: counts or densities
 * differ), CUZK_ERR_NOMEM, CUZK_ERR_NOMEM_DEVICE (no plan fits the device). Logs the plan and the
 * bytes it made resident. */
cuzk_status groth16_gpu_prover_create(groth16_gpu_prover **out, const bellperson_params *p, const r1cs *cs,
                                      int device, cuzk_error *err);

/* Frees everything it holds. Must not race with a start on the same prover; pendings it made stay
 * valid (they own what finish needs). NULL is a no-op. */
void groth16_gpu_prover_destroy(groth16_gpu_prover *gp);

/* Bytes resident on the device for this prover: the SRS queries it uploaded (those of its plan
 * kept resident, on its own context), matrices, index lists, the NTT tables of its domain and its
 * own B_G2 copy (a borrowed SRS is not counted here). */
size_t groth16_gpu_prover_device_bytes(const groth16_gpu_prover *gp);

/* The device bytes of one proof at its peak: the plan's arena (memplan.arena_bytes: the witness
 * and a/b/c ((n_vars + 3m) Fr) through H, then the witness, the H scalars and the largest MSM's
 * scratch (gpu_g1_msm_scratch_bytes, as if no scalar were 0 or 1; a streamed MSM's staging
 * buffers and one chunk's scratch), then the witness and the B_G2 MSM's when it runs on the
 * device). */
size_t groth16_gpu_proof_device_bytes(const groth16_gpu_prover *gp);

/* Device memory now: *pool_reserved = the prover's arena plus what the device's stream-ordered
 * pool holds (its high-water mark, since freed memory stays pooled), *device_used = total - free
 * of the whole device. Zeros when gp is NULL or the query fails. */
void groth16_gpu_prover_mem(const groth16_gpu_prover *gp, size_t *pool_reserved, size_t *device_used);

/* The arena's use since the prover was made (or the last call with reset), for tests and logs:
 * its size, high-water mark, the allocations it could not hold (each one a plan that was too
 * small: tests require 0), and the device pool's use above what it holds now (its UsedMemHigh -
 * UsedMemCurrent: the transient allocations that bypassed the arena, e.g. the H step's constants).
 * reset (after filling *out) restarts the marks. Zeros for NULL. */
typedef struct groth16_gpu_arena_stats {
    size_t arena_bytes, high_bytes;
    uint64_t overflows;
    size_t pool_transient_bytes;
} groth16_gpu_arena_stats;
void groth16_gpu_prover_arena(groth16_gpu_prover *gp, groth16_gpu_arena_stats *out, bool reset);

/* True after a sticky CUDA fault: every later start fails with CUZK_ERR_DEVICE. */
bool groth16_gpu_prover_dead(const groth16_gpu_prover *gp);

/* Start of one proof, same contract as groth16_prove_bellperson_start (src/groth16/groth16.h):
 * w: n_w = cs->n_vars values (Montgomery, host, w[0] = 1), read during the call only; r, s copied.
 * Returns once the GPU work is done: *out holds the G1 MSM results and a running B_G2 thread
 * (nthreads CPU threads), or the B_G2 result too with the device B_G2
 * (groth16_gpu_prover_set_b_g2); finish with groth16_prove_bellperson_finish, free with
 * groth16_pending_free. release: as for the CPU start (host buffers only; device scratch goes back
 * to the stream-ordered pool). t: upload_ms, abc_ms (SpMV on the GPU), h_ms, msm_*_ms (the four
 * G1 MSMs, wall time of each call; with the device B_G2 also msm_b2_ms, b2_device = 1),
 * total_ms. */
cuzk_status groth16_gpu_prove_start(groth16_pending **out, groth16_gpu_prover *gp, const fr *w, size_t n_w,
                                    const fr *r, const fr *s, int nthreads, groth16_release_fn release,
                                    void *release_ctx, groth16_timings *t, cuzk_error *err);

/* Tuning of the prover's MSMs (its four G1 MSMs and the device B_G2 MSM; src/cuda/gpu.h
 * gpu_msm_tuning_of): window_bits 0 = automatic (src/cuda/gpu.h gpu_msm_window_bits), else clamped
 * to 2..22; chunk_points 0 = automatic (2^25), else at least 64; the G1 MSMs' accumulation (0:
 * TASKS; the G2 MSM always uses TASKS); b_g2_on_gpu is not read here
 * (groth16_gpu_prover_set_b_g2). Kept per prover: provers of one process may differ. Proofs do not
 * depend on it (only time and scratch do); groth16_gpu_proof_device_bytes follows it. Must not
 * race with a start on the same prover. NULL gp: no-op; NULL msm: automatic. */
void groth16_gpu_prover_set_msm(groth16_gpu_prover *gp, const cuzk_msm_opts *msm);

/* Where the B_G2 MSM runs: on_device false on CPU threads during the device stages; true on the
 * device after the four G1 MSMs (start then returns with B_G2 done, its time in msm_b2_ms and
 * b2_device = 1 in the start timings; finish only assembles). Turning it on uses the SRS's copy
 * of the query when it has one (GROTH16_GPU_SRS_B_G2), else uploads one (n_b x 192 bytes,
 * counted in groth16_gpu_prover_device_bytes and freed when turned off or with the prover), or,
 * when that does not fit the device, streams the query from host memory in chunks; and grows the
 * arena to the new per-proof peak (groth16_gpu_proof_device_bytes). The plan follows. Proof
 * bytes do not depend on it. Must not race with a start. Errors (the setting is unchanged then):
 * CUZK_ERR_ARG (NULL, B_G2 not in host memory), CUZK_ERR_MISMATCH (query counts),
 * CUZK_ERR_NOMEM_DEVICE (not even the streamed form fits), CUZK_ERR_DEVICE, CUZK_ERR_UNSUPPORTED
 * (no CUDA). */
cuzk_status groth16_gpu_prover_set_b_g2(groth16_gpu_prover *gp, bool on_device, cuzk_error *err);
bool groth16_gpu_prover_b_g2_on_device(const groth16_gpu_prover *gp);

/* Upper bound of the host bytes a start allocates (pending + B scalars). */
size_t groth16_gpu_start_bytes(const groth16_gpu_prover *gp);

/* Page-locked (pinned) host memory for buffers the GPU backend copies from, e.g. the engine's
 * witness pool (cudaHostAlloc; slow to make, about 1 s per 4 GiB, so callers keep and reuse it).
 * *out = NULL on failure. Errors: CUZK_ERR_ARG (out NULL), CUZK_ERR_NOMEM, CUZK_ERR_DEVICE (no
 * device), CUZK_ERR_UNSUPPORTED (a build without CUDA). groth16_gpu_pinned_free: NULL ok.
 * Thread-safe. */
cuzk_status groth16_gpu_pinned_alloc(void **out, size_t bytes, cuzk_error *err);
void groth16_gpu_pinned_free(void *p);

#endif
