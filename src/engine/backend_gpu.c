/* The engine's GPU backend: the vtable of src/engine/engine_internal.h over the GPU prover
 * (src/groth16/gpu_prover.h). One groth16_gpu_prover per circuit, made on first use by the prove
 * worker (uploading the circuit's SRS G1 queries and matrices once; later partitions and jobs
 * reuse it) or ahead of time by engine_gpu_preload. */
#include "engine/engine_internal.h"

#include <pthread.h>
#include <stdlib.h>

#include "groth16/gpu_prover.h"
#include "groth16/prover_internal.h"
#include "util/log.h"

#define GPU_BACKEND_MAX_CIRCUITS 16

typedef struct engine_gpu_ctx {
    int device;
    pthread_mutex_t mu;
    size_t n;
    struct {
        const r1cs *cs;
        const bellperson_params *params;
        groth16_gpu_prover *gp;
    } c[GPU_BACKEND_MAX_CIRCUITS];
} engine_gpu_ctx;

static cuzk_status get_prover(engine_gpu_ctx *g, const cuzk_circuit *c, groth16_gpu_prover **out, cuzk_error *err) {
    cuzk_status st = CUZK_OK;
    pthread_mutex_lock(&g->mu);
    for (size_t i = 0; i < g->n; i++)
        if (g->c[i].cs == c->cs && g->c[i].params == c->params) {
            *out = g->c[i].gp;
            goto out;
        }
    if (g->n == GPU_BACKEND_MAX_CIRCUITS) {
        st = ERR(err, CUZK_ERR_UNSUPPORTED, "GPU backend: more than %d circuits in one engine", GPU_BACKEND_MAX_CIRCUITS);
        goto out;
    }
    if ((st = groth16_gpu_prover_create(out, c->params, c->cs, g->device, err)) != CUZK_OK) goto out;
    g->c[g->n].cs = c->cs;
    g->c[g->n].params = c->params;
    g->c[g->n].gp = *out;
    g->n++;
out:
    pthread_mutex_unlock(&g->mu);
    return st;
}

static size_t gpu_start_bytes(void *ctx, const cuzk_circuit *c, int nthreads) {
    (void)ctx;
    (void)nthreads;
    /* the pending and its B scalars; a/b/c, H and the MSM scratch live on the device */
    return sizeof(groth16_pending) + (size_t)c->params->n_b_g2 * sizeof(scalar256) + 4096;
}

static cuzk_status gpu_start(void *ctx, void **pending, uint64_t job, uint32_t partition, const cuzk_circuit *c,
                             const fr *w, size_t n_w, const fr *r, const fr *s, int nthreads,
                             groth16_release_fn release, void *release_ctx, groth16_timings *t, cuzk_error *err) {
    (void)job;
    (void)partition;
    groth16_gpu_prover *gp = NULL;
    groth16_pending *p = NULL;
    *pending = NULL;
    cuzk_status st = get_prover(ctx, c, &gp, err);
    if (st == CUZK_OK) st = groth16_gpu_prove_start(&p, gp, w, n_w, r, s, nthreads, release, release_ctx, t, err);
    *pending = p;
    return st;
}

static cuzk_status gpu_finish(void *ctx, groth16_proof *out, void *pending, uint64_t job, uint32_t partition,
                              int nthreads, groth16_timings *t, cuzk_error *err) {
    (void)ctx;
    (void)job;
    (void)partition;
    return groth16_prove_bellperson_finish(out, pending, nthreads, t, err);
}

static size_t gpu_pending_bytes(void *ctx, const void *pending) {
    (void)ctx;
    return groth16_pending_bytes(pending);
}

static void gpu_pending_free(void *ctx, void *pending) {
    (void)ctx;
    groth16_pending_free(pending);
}

static void gpu_destroy(void *ctx) {
    engine_gpu_ctx *g = ctx;
    if (!g) return;
    for (size_t i = 0; i < g->n; i++) groth16_gpu_prover_destroy(g->c[i].gp);
    pthread_mutex_destroy(&g->mu);
    free(g);
}

static size_t gpu_device_bytes(void *ctx) {
    engine_gpu_ctx *g = ctx;
    size_t b = 0;
    pthread_mutex_lock(&g->mu);
    for (size_t i = 0; i < g->n; i++) b += groth16_gpu_prover_device_bytes(g->c[i].gp);
    pthread_mutex_unlock(&g->mu);
    return b;
}

const engine_backend engine_backend_gpu = {"gpu", gpu_start_bytes, gpu_start, gpu_finish, gpu_pending_bytes,
                                           gpu_pending_free, gpu_destroy, gpu_device_bytes};

cuzk_status engine_gpu_ctx_create(void **out, int device, cuzk_error *err) {
    engine_gpu_ctx *g = calloc(1, sizeof *g);
    if (!g) return ERR(err, CUZK_ERR_NOMEM, "GPU backend context");
    g->device = device;
    pthread_mutex_init(&g->mu, NULL);
    *out = g;
    return CUZK_OK;
}

cuzk_status engine_gpu_preload(void *ctx, const cuzk_circuit *c, cuzk_error *err) {
    groth16_gpu_prover *gp = NULL;
    return get_prover(ctx, c, &gp, err);
}
