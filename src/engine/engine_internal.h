/* Engine internals shared with tests and benchmarks: the circuit descriptor, the prover backend
 * vtable (the CPU prover now; the GPU prover plugs in behind the same start/finish interface),
 * and the memory budget. */
#ifndef CUZK_ENGINE_ENGINE_INTERNAL_H
#define CUZK_ENGINE_ENGINE_INTERNAL_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include "cuzk/engine.h"
#include "groth16/groth16.h"

/* The circuit of a job: all borrowed, read-only, must outlive every job naming the circuit.
 * gpu_srs: optional device copy of params' G1 queries already resident (e.g. an SRS store
 * handle acquired at SRS_TIER_GPU, src/srs/store.h: handle.device); the GPU backend then uploads
 * only the circuit. NULL: the GPU backend uploads its own copy of the G1 queries. Ignored by the
 * CPU backend. */
struct groth16_gpu_srs;
struct cuzk_circuit {
    const r1cs *cs;
    const bellperson_params *params;
    struct groth16_gpu_srs *gpu_srs;
    cuzk_pk *pk;   /* made by cuzk_circuit_create: the key cs and params point into (one reference) */
};

/* A prover backend. `pending` is opaque to the engine. start must hand every large buffer it
 * frees to release (which queues it on the reaper and returns its budget), on every path; the
 * pending must own everything finish touches. Functions may be called from several threads at
 * once (different partitions). */
typedef struct engine_backend {
    const char *name;
    /* upper bound of the host bytes start allocates, the pending included */
    size_t (*start_bytes)(void *be_ctx, const cuzk_circuit *c, int nthreads);
    /* job, partition: for logs and tests only */
    cuzk_status (*start)(void *be_ctx, void **pending, uint64_t job, uint32_t partition, const cuzk_circuit *c,
                         const fr *w, size_t n_w, const fr *r, const fr *s, int nthreads, groth16_release_fn release,
                         void *release_ctx, groth16_timings *t, cuzk_error *err);
    cuzk_status (*finish)(void *be_ctx, groth16_proof *out, void *pending, uint64_t job, uint32_t partition,
                          int nthreads, groth16_timings *t, cuzk_error *err);
    size_t (*pending_bytes)(void *be_ctx, const void *pending);
    void (*pending_free)(void *be_ctx, void *pending); /* releases through start's release hook */
    void (*destroy)(void *be_ctx);                     /* optional: frees be_ctx when the engine owns it */
    size_t (*device_bytes)(void *be_ctx);              /* optional: bytes resident on the GPU */
    /* optional: witness buffers (GPU: pinned, pooled, so the upload runs at full bus speed).
     * witness_alloc returns NULL when it has none (the engine then mallocs); witness_free takes
     * back what witness_alloc gave (called on the reaper thread). */
    void *(*witness_alloc)(void *be_ctx, size_t bytes);
    void (*witness_free)(void *be_ctx, void *ptr);
} engine_backend;

/* The CPU backend: groth16_prove_bellperson_start / _finish. be_ctx unused. */
extern const engine_backend engine_backend_cpu;

/* The GPU backend (src/engine/backend_gpu.c): be_ctx from engine_gpu_ctx_create (owned by the
 * engine that cuzk_engine_create makes with it). One GPU prover per circuit, made on first use
 * or by engine_gpu_preload (uploads the circuit's SRS G1 queries and matrices). In builds
 * without CUDA, create succeeds and every start fails with CUZK_ERR_UNSUPPORTED. */
extern const engine_backend engine_backend_gpu;
cuzk_status engine_gpu_ctx_create(void **out, int device, size_t pinned_budget_bytes, size_t gpu_budget_bytes,
                                  size_t max_witnesses, cuzk_error *err);
/* The MSM tuning of the GPU provers made from now on (cuzk_engine_opts.msm; zeros: automatic). */
void engine_gpu_set_msm(void *be_ctx, const cuzk_msm_opts *msm);
/* Pinned witness buffers: held (pooled) bytes, buffers handed out now, allocations that fell back
 * to pageable memory because the pinned budget was used up. */
/* The device pool's bytes and the device's used bytes (groth16_gpu_prover_mem). */
void engine_gpu_mem_stats(void *be_ctx, size_t *pool_bytes, size_t *device_used);
void engine_gpu_pinned_stats(void *be_ctx, size_t *pinned_bytes, size_t *in_use, uint64_t *fallbacks);
cuzk_status engine_gpu_preload(void *be_ctx, const cuzk_circuit *c, cuzk_error *err);

/* cuzk_engine_create with another backend (tests wrap the CPU backend to inject delays and
 * failures). be and be_ctx must outlive the engine. */
cuzk_status engine_create_with_backend(cuzk_engine **out, const cuzk_engine_opts *opts, const engine_backend *be,
                                       void *be_ctx, cuzk_error *err);

/* Test knob: every buffer the engine hands to its reaper is freed by a function that first
 * sleeps ms milliseconds (0: plain free). Set before submitting jobs. */
void engine_test_set_free_delay(cuzk_engine *e, double ms);

/* ---- memory budget: one ordered dispatcher -------------------------------------------------
 * Requests are granted strictly in key order (job sequence, then partition) among those waiting;
 * a request waits while it is not the smallest waiting key or does not fit. limit 0: unlimited
 * (accounted only). Thread-safe. */
typedef struct budget_waiter budget_waiter;
typedef struct budget {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    size_t limit, reserved, max_reserved;
    double wait_ms;
    budget_waiter *waiters; /* sorted by key */
} budget;

void budget_init(budget *b, size_t limit);
void budget_destroy(budget *b);
/* Returns 1 when granted (reserved += bytes), 0 when dead(dead_ctx) became true while waiting
 * (nothing reserved). bytes > limit never fits: the caller must check first. *waited_ms: time
 * spent waiting. */
int budget_reserve(budget *b, uint64_t key_hi, uint64_t key_lo, size_t bytes, int (*dead)(void *), void *dead_ctx,
                   double *waited_ms);
void budget_release(budget *b, size_t bytes);
/* Wakes waiters so they re-check dead() (after a cancellation). */
void budget_wake(budget *b);

#endif
