/* Engine internals shared with tests and benchmarks: the circuit descriptor, the engine backend
 * interface (over the prover orchestration of src/groth16/prove.h, CPU or GPU, one context per
 * device), and the memory budget.
 *
 * Curves: the engine is compiled once and proves circuits of every curve the build has
 * (BLS12-381, BN254) side by side in one queue. It does no field arithmetic itself: everything that
 * depends on the curve (the key's counts, the prover, witness conversion and checks, r and s, the
 * proof's bytes, public inputs as bytes) goes through the circuit's groth16_curve table
 * (engine_circuit_curve). Its witness, r/s and public-input buffers hold groth16_fr_any values
 * (src/groth16/prove.h): Fr values of the circuit's curve, which only that curve's table reads. */
#ifndef CUZK_ENGINE_ENGINE_INTERNAL_H
#define CUZK_ENGINE_ENGINE_INTERNAL_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include "cuzk/engine.h"
#include "groth16/groth16.h"
#include "groth16/prove.h"

/* The circuit of a job: all borrowed, read-only, must outlive every job naming the circuit.
 * Either made from a proving key (cuzk_circuit_create: pk set, the key's groth16_key is the
 * circuit's, of either convention and any curve; cs and params NULL), or assembled by internal
 * code and tests from a BLS12-381 bellperson (cs, params) pair (pk NULL).
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

/* What a backend context reports for cuzk_engine_get_stats (zeros where it has nothing). */
typedef struct engine_dev_stats {
    size_t resident_bytes;    /* device bytes of the circuits made resident (borrowed SRS included) */
    size_t pool_bytes;        /* the device's stream-ordered pool (high-water mark) */
    size_t device_used_bytes; /* total - free of the whole device */
    size_t pinned_bytes;      /* pinned witness buffers held */
    uint64_t pinned_fallbacks;/* witnesses that got pageable memory */
    size_t total_bytes, free_bytes; /* the whole device's memory (backends with device_query) */
    char name[96];            /* the device's name ("" when the backend has none) */
    size_t streamed_bytes;    /* bytes the circuits' memory plans copy host -> device per proof (summed) */
    char plan[512];           /* the memory plans (src/groth16/memplan.h), one per circuit, "; "-joined */
} engine_dev_stats;

/* An engine backend: how the engine's stages reach a prover. `pending` is opaque to the engine.
 * start must hand every large buffer it frees to release (which queues it on the reaper and
 * returns its budget), on every path; the pending must own everything finish touches. The engine
 * makes one context per device (one for the CPU) and runs one prove-start worker per context;
 * finish and pending_free get the context whose start made the pending. Functions may be called
 * from several threads at once (different partitions). */
typedef struct engine_backend {
    const char *name;
    /* upper bound of the host bytes start allocates, the pending included */
    size_t (*start_bytes)(void *be_ctx, const cuzk_circuit *c, int nthreads);
    /* job, partition: for logs and tests only. w, r, s: values of c's curve (Montgomery). */
    cuzk_status (*start)(void *be_ctx, void **pending, uint64_t job, uint32_t partition, const cuzk_circuit *c,
                         const groth16_fr_any *w, size_t n_w, const groth16_fr_any *r, const groth16_fr_any *s, int nthreads, groth16_release_fn release,
                         void *release_ctx, groth16_timings *t, cuzk_error *err);
    /* the proof of the pending start made for circuit c, written to proof[0 .. proof_bytes of c's
     * curve) (engine_circuit_curve(c)->proof_bytes: BLS12-381 192, BN254 256) */
    cuzk_status (*finish)(void *be_ctx, const cuzk_circuit *c, uint8_t *proof, void *pending, uint64_t job,
                          uint32_t partition, int nthreads, groth16_timings *t, cuzk_error *err);
    size_t (*pending_bytes)(void *be_ctx, const cuzk_circuit *c, const void *pending);
    void (*pending_free)(void *be_ctx, const cuzk_circuit *c, void *pending); /* releases through start's release hook */
    void (*destroy)(void *be_ctx);                     /* optional: frees be_ctx when the engine owns it */
    /* optional: the GROTH16_CAP_* capabilities of this context (src/groth16/prove.h); NULL: none.
     * The engine decides from these, never from the backend's identity. */
    unsigned (*caps)(void *be_ctx);
    /* optional: name of this context's backend ("cpu", "gpu"); NULL: name */
    const char *(*ctx_name)(void *be_ctx);
    /* optional: make a circuit ready before its first partition (GPU: upload it) */
    cuzk_status (*preload)(void *be_ctx, const cuzk_circuit *c, cuzk_error *err);
    /* optional: fills *out (zeroed by the caller) */
    void (*stats)(void *be_ctx, engine_dev_stats *out);
    /* optional: drop everything held for circuit c (its prover; on a device its resident copy),
     * freed before returning. Called only when no partition of c is in flight. */
    void (*forget)(void *be_ctx, const cuzk_circuit *c);
    /* optional: witness buffers (GPU: pinned, pooled, so the upload runs at full bus speed).
     * witness_alloc returns NULL when it has none (the engine then mallocs); witness_free takes
     * back what witness_alloc gave (called on the reaper thread). */
    void *(*witness_alloc)(void *be_ctx, size_t bytes);
    void (*witness_free)(void *be_ctx, void *ptr);
    /* optional: routing by residency (engines of several devices). NULL: every device takes any
     * partition. route(be_ctx, c, mode):
     *   ENGINE_ROUTE_RESIDENT  c's SRS is resident on this context: take one reference, 1; else 0.
     *   ENGINE_ROUTE_ADMIT     resident, or this context's budget allows making it resident now (the
     *                          upload counted as resident from here on): take one reference, 1; else 0.
     *   ENGINE_ROUTE_CAN       1 if c is resident or would fit the budget of an otherwise idle
     *                          context (no reference taken): the partition can wait for it.
     * unroute drops a reference route took. Called under the prove queue's lock: must not block
     * beyond the context's own mutex. */
    int (*route)(void *be_ctx, const cuzk_circuit *c, int mode);
    void (*unroute)(void *be_ctx, const cuzk_circuit *c);
    /* optional: 1 once this context hit a sticky fault (its device is unusable). The engine then
     * marks the device dead and retries the partitions it held on another live device. NULL: a
     * failure fails the job. */
    int (*lost)(void *be_ctx);
} engine_backend;

enum { ENGINE_ROUTE_RESIDENT = 0, ENGINE_ROUTE_ADMIT = 1, ENGINE_ROUTE_CAN = 2 };

/* The key of a circuit, as its curve's table takes it: its proving key's (either convention, any
 * curve; valid while the circuit lives) when made from one, else the bellperson key of
 * (cs, params) on BLS12-381, written to *raw (the returned handle points there: valid while *raw
 * lives and is unchanged). */
const groth16_key_any *engine_circuit_key(const cuzk_circuit *c, groth16_key *raw);
/* The table of the circuit's curve (src/groth16/prove.h); never NULL for a circuit the engine
 * accepted (cuzk_circuit_create checks it). */
const groth16_curve *engine_circuit_curve(const cuzk_circuit *c);
/* 1 when c describes a circuit the engine can run: made from a key, or with cs and params. */
int engine_circuit_valid(const cuzk_circuit *c);
/* Witness length (ONE included) and public inputs of the circuit's key. */
size_t engine_circuit_n_vars(const cuzk_circuit *c);
uint32_t engine_circuit_n_public(const cuzk_circuit *c);
/* 1 when a and b name the same key data and device SRS (two descriptors of one circuit share one
 * resident copy and one prover per device). */
int engine_circuit_same(const cuzk_circuit *a, const cuzk_circuit *b);

/* The CPU backend, stateless (be_ctx unused, may be NULL): the prover orchestration's CPU backend
 * of the circuit's curve (src/groth16/prove.h) on the circuit's key. Tests wrap it to inject
 * delays and failures. */
extern const engine_backend engine_backend_cpu;

/* The engine backend over the prover orchestration (src/engine/backend_prover.c): a context per
 * device holds one groth16_prover per circuit (made on first use or by preload: on the GPU this
 * uploads the circuit's SRS G1 queries and matrices once; later partitions and jobs reuse it), on
 * the backend `want` names in the table of the circuit's curve (circuits of both curves share a
 * context), and, when that backend declares
 * GROTH16_CAP_PINNED_HOST, a pool of pinned witness buffers (at most max_witnesses, within
 * pinned_budget_bytes; 0: 16 GiB). gpu_budget_bytes: see cuzk_engine_opts (0: no check).
 * It reaches devices only through the curves' tables and their backends' groth16_backend_info. */
extern const engine_backend engine_backend_prover;
cuzk_status engine_dev_create(void **out, cuzk_backend want, const groth16_backend_cfg *cfg, size_t pinned_budget_bytes,
                              size_t gpu_budget_bytes, size_t max_witnesses, cuzk_error *err);

/* cuzk_engine_create with another backend and one context (tests wrap the CPU backend to inject
 * delays and failures). be and be_ctx must outlive the engine. */
cuzk_status engine_create_with_backend(cuzk_engine **out, const cuzk_engine_opts *opts, const engine_backend *be,
                                       void *be_ctx, cuzk_error *err);

/* The same on n contexts of one backend (n <= CUZK_ENGINE_MAX_DEVICES), as cuzk_engine_create
 * makes for n devices: one prove-start worker per context, all taking partitions from the one
 * prove queue (tests run several CPU "devices"). The contexts must outlive the engine. */
cuzk_status engine_create_with_backends(cuzk_engine **out, const cuzk_engine_opts *opts, const engine_backend *be,
                                        void *const *be_ctx, int n, cuzk_error *err);

/* ---- fake devices (tests, benchmarks; not a public promise) ----------------------------------
 * A fake device is the CPU backend behind the device interface: each context has its own device
 * memory budget, its own table of resident circuits ("SRS" bytes counted as a GPU would hold
 * them: the G1 queries, 96 bytes a point) with a reference count per circuit, and a
 * fault-injection hook that simulates a sticky device fault. Proofs are real CPU proofs.
 * Budget rule: resident SRS bytes + one proof's peak (engine_fake_proof_bytes of the largest
 * resident circuit) <= budget_bytes; making a circuit resident evicts circuits without
 * references (and not pinned by preload) first. Thread-safe. */
typedef struct engine_fake_cfg {
    size_t budget_bytes;      /* device memory of this fake device; 0: unlimited */
    int fail_at_start;        /* n >= 1: the n-th start call hits a sticky fault (0: never) */
    int fail_at_finish;       /* n >= 1: the finish of the n-th started partition hits it (0: never) */
    double start_delay_ms;    /* each start sleeps this long first (a busy device) */
} engine_fake_cfg;
typedef struct engine_fake_info {
    uint64_t starts, finishes;  /* successful calls */
    uint64_t loads, evictions;  /* circuits made resident / dropped for room */
    uint64_t faults;            /* calls failed by the injected fault (or after it: sticky) */
    size_t resident_bytes, max_resident_bytes; /* SRS bytes now / high-water (plus the proof peak in max_need) */
    size_t max_need_bytes;      /* high-water of resident + one proof's peak: never above budget_bytes */
    int refs;                   /* references held now (partitions routed here, not yet done) */
    int lost;
    uint64_t starts_of[4];      /* successful starts per circuit, in order of first load (tests) */
} engine_fake_info;
extern const engine_backend engine_backend_fake;
/* Makes one fake device context (dev: its ordinal, for messages). Free with
 * engine_backend_fake.destroy, or let an engine made by engine_create_fake own it. */
cuzk_status engine_fake_create(void **out, int dev, const engine_fake_cfg *cfg, cuzk_error *err);
void engine_fake_get_info(void *ctx, engine_fake_info *out);
/* Index of c in ctx's starts_of[] (order of first load), -1 if never loaded there. */
int engine_fake_circuit_slot(void *ctx, const cuzk_circuit *c);
/* Bytes a fake device counts for c resident (its G1 queries) and for one proof (witness, a/b/c,
 * H: what a GPU holds per proof, roughly). */
size_t engine_fake_srs_bytes(const cuzk_circuit *c);
size_t engine_fake_proof_bytes(const cuzk_circuit *c);
/* An engine on n fake devices (cfg[i] each; cfg NULL: defaults), owning them. The contexts are
 * reachable through engine_device_ctx. */
cuzk_status engine_create_fake(cuzk_engine **out, const cuzk_engine_opts *opts, int n, const engine_fake_cfg *cfg,
                               cuzk_error *err);
/* The backend context of device d (0 <= d < cuzk_engine_n_devices), NULL otherwise. */
void *engine_device_ctx(cuzk_engine *e, int d);
/* 1 when device d of e was marked dead after a sticky fault. */
int engine_device_dead(cuzk_engine *e, int d);

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
/* Reserves bytes at once, beyond the limit if need be (a partition retried after a device fault
 * takes back what its first start returned: it must not wait behind partitions that need the
 * worker it runs on). */
void budget_force(budget *b, size_t bytes);
/* Wakes waiters so they re-check dead() (after a cancellation). */
void budget_wake(budget *b);

#endif
