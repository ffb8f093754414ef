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
#define GPU_BACKEND_MAX_PINNED 64
#define ENGINE_GPU_DEFAULT_PINNED ((size_t)16 << 30)

typedef struct engine_gpu_ctx {
    int device;
    size_t pinned_budget, gpu_budget;
    cuzk_msm_opts msm;           /* given to every prover made (engine_gpu_set_msm) */
    pthread_mutex_t mu;
    /* pinned witness pool: buffers of one size (the largest witness asked for); free ones on top */
    struct {
        void *ptr;
        size_t bytes;
        int in_use;
    } pin[GPU_BACKEND_MAX_PINNED];
    size_t n_pin, max_pin, pinned_bytes, pinned_in_use;
    uint64_t pinned_fallbacks;
    size_t n;
    struct {
        const r1cs *cs;
        const bellperson_params *params;
        struct groth16_gpu_srs *srs; /* borrowed (cuzk_circuit.gpu_srs) or NULL */
        groth16_gpu_prover *gp;
    } c[GPU_BACKEND_MAX_CIRCUITS];
} engine_gpu_ctx;

static cuzk_status get_prover(engine_gpu_ctx *g, const cuzk_circuit *c, groth16_gpu_prover **out, cuzk_error *err) {
    cuzk_status st = CUZK_OK;
    pthread_mutex_lock(&g->mu);
    for (size_t i = 0; i < g->n; i++)
        if (g->c[i].cs == c->cs && g->c[i].params == c->params && g->c[i].srs == c->gpu_srs) {
            *out = g->c[i].gp;
            goto out;
        }
    if (g->n == GPU_BACKEND_MAX_CIRCUITS) {
        st = ERR(err, CUZK_ERR_UNSUPPORTED, "GPU backend: more than %d circuits in one engine", GPU_BACKEND_MAX_CIRCUITS);
        goto out;
    }
    st = c->gpu_srs ? groth16_gpu_prover_create_on(out, c->gpu_srs, c->params, c->cs, err)
                    : groth16_gpu_prover_create(out, c->params, c->cs, g->device, err);
    if (st != CUZK_OK) goto out;
    groth16_gpu_prover_set_msm(*out, g->msm.window_bits, g->msm.chunk_points);
    if (g->gpu_budget) {
        /* what the prover holds (a shared SRS counts too) + one proof's peak from the pool */
        size_t need = groth16_gpu_prover_device_bytes(*out) + groth16_gpu_proof_device_bytes(*out) +
                      (c->gpu_srs ? groth16_gpu_srs_bytes(c->gpu_srs) : 0);
        if (need > g->gpu_budget) {
            groth16_gpu_prover_destroy(*out);
            *out = NULL;
            st = ERR(err, CUZK_ERR_NOMEM_DEVICE,
                     "the circuit needs %.2f GiB of GPU memory (resident SRS G1 queries and matrices + one proof's "
                     "peak: witness, a/b/c, H and MSM scratch) but the GPU budget is %.2f GiB",
                     (double)need / 1073741824.0, (double)g->gpu_budget / 1073741824.0);
            goto out;
        }
    }
    g->c[g->n].cs = c->cs;
    g->c[g->n].params = c->params;
    g->c[g->n].srs = c->gpu_srs;
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

/* ---- pinned witness pool ---- */
static void *gpu_witness_alloc(void *ctx, size_t bytes) {
#ifdef CUZK_HAVE_CUDA
    engine_gpu_ctx *g = ctx;
    void *ptr = NULL;
    pthread_mutex_lock(&g->mu);
    for (size_t i = 0; i < g->n_pin; i++)
        if (!g->pin[i].in_use && g->pin[i].bytes >= bytes) {
            g->pin[i].in_use = 1;
            g->pinned_in_use++;
            ptr = g->pin[i].ptr;
            goto out;
        }
    if (g->n_pin == g->max_pin || g->pinned_bytes + bytes > g->pinned_budget) goto fallback;
    /* cudaHostAlloc pins page by page (about 1 s per 4 GiB): done once per buffer, then reused */
    pthread_mutex_unlock(&g->mu);
    cuzk_error e = {0};
    if (groth16_gpu_pinned_alloc(&ptr, bytes, &e) != CUZK_OK) {
        cuzk_log(CUZK_LOG_WARN, "pinned witness buffer of %zu bytes: %s (using pageable memory)", bytes, e.msg);
        pthread_mutex_lock(&g->mu);
        ptr = NULL;
        goto fallback;
    }
    pthread_mutex_lock(&g->mu);
    g->pin[g->n_pin].ptr = ptr;
    g->pin[g->n_pin].bytes = bytes;
    g->pin[g->n_pin].in_use = 1;
    g->n_pin++;
    g->pinned_bytes += bytes;
    g->pinned_in_use++;
    goto out;
fallback:
    g->pinned_fallbacks++;
out:
    pthread_mutex_unlock(&g->mu);
    return ptr;
#else
    (void)ctx;
    (void)bytes;
    return NULL;
#endif
}

static void gpu_witness_free(void *ctx, void *ptr) {
    engine_gpu_ctx *g = ctx;
    pthread_mutex_lock(&g->mu);
    for (size_t i = 0; i < g->n_pin; i++)
        if (g->pin[i].ptr == ptr) {
            g->pin[i].in_use = 0;
            g->pinned_in_use--;
            break;
        }
    pthread_mutex_unlock(&g->mu);
}

void engine_gpu_mem_stats(void *be_ctx, size_t *pool_bytes, size_t *device_used) {
    engine_gpu_ctx *g = be_ctx;
    *pool_bytes = *device_used = 0;
    pthread_mutex_lock(&g->mu);
    if (g->n) groth16_gpu_prover_mem(g->c[0].gp, pool_bytes, device_used);
    pthread_mutex_unlock(&g->mu);
}

void engine_gpu_pinned_stats(void *be_ctx, size_t *pinned_bytes, size_t *in_use, uint64_t *fallbacks) {
    engine_gpu_ctx *g = be_ctx;
    pthread_mutex_lock(&g->mu);
    *pinned_bytes = g->pinned_bytes;
    *in_use = g->pinned_in_use;
    *fallbacks = g->pinned_fallbacks;
    pthread_mutex_unlock(&g->mu);
}

static void gpu_destroy(void *ctx) {
    engine_gpu_ctx *g = ctx;
    if (!g) return;
    for (size_t i = 0; i < g->n; i++) groth16_gpu_prover_destroy(g->c[i].gp);
#ifdef CUZK_HAVE_CUDA
    for (size_t i = 0; i < g->n_pin; i++) groth16_gpu_pinned_free(g->pin[i].ptr);
#endif
    pthread_mutex_destroy(&g->mu);
    free(g);
}

static size_t gpu_device_bytes(void *ctx) {
    engine_gpu_ctx *g = ctx;
    size_t b = 0;
    pthread_mutex_lock(&g->mu);
    for (size_t i = 0; i < g->n; i++) {
        b += groth16_gpu_prover_device_bytes(g->c[i].gp);
        /* a borrowed SRS (held by an SRS store) is resident for this engine too: counted once per circuit */
        if (g->c[i].srs) b += groth16_gpu_srs_bytes(g->c[i].srs);
    }
    pthread_mutex_unlock(&g->mu);
    return b;
}

const engine_backend engine_backend_gpu = {"gpu", gpu_start_bytes, gpu_start, gpu_finish, gpu_pending_bytes,
                                           gpu_pending_free, gpu_destroy, gpu_device_bytes, gpu_witness_alloc,
                                           gpu_witness_free};

cuzk_status engine_gpu_ctx_create(void **out, int device, size_t pinned_budget_bytes, size_t gpu_budget_bytes,
                                  size_t max_witnesses, cuzk_error *err) {
    engine_gpu_ctx *g = calloc(1, sizeof *g);
    if (!g) return ERR(err, CUZK_ERR_NOMEM, "GPU backend context");
    g->device = device;
    /* as many buffers as witnesses can be alive at once, within the budget (default 16 GiB) */
    g->pinned_budget = pinned_budget_bytes ? pinned_budget_bytes : ENGINE_GPU_DEFAULT_PINNED;
    g->max_pin = max_witnesses < 1 ? 1 : max_witnesses > GPU_BACKEND_MAX_PINNED ? GPU_BACKEND_MAX_PINNED : max_witnesses;
    g->gpu_budget = gpu_budget_bytes;
    pthread_mutex_init(&g->mu, NULL);
    *out = g;
    return CUZK_OK;
}

void engine_gpu_set_msm(void *be_ctx, const cuzk_msm_opts *msm) {
    engine_gpu_ctx *g = be_ctx;
    if (!g || !msm) return;
    pthread_mutex_lock(&g->mu);
    g->msm = *msm;
    pthread_mutex_unlock(&g->mu);
}

cuzk_status engine_gpu_preload(void *ctx, const cuzk_circuit *c, cuzk_error *err) {
    groth16_gpu_prover *gp = NULL;
    cuzk_status st = get_prover(ctx, c, &gp, err);
    if (st != CUZK_OK) return st;
    /* pin the witness buffers now: cudaHostAlloc pins page by page (~1 s per 4 GiB), which would
     * otherwise land on the first partitions' synthesis stage */
    engine_gpu_ctx *g = ctx;
    size_t bytes = (size_t)c->cs->n_vars * sizeof(fr);
    void *got[GPU_BACKEND_MAX_PINNED];
    size_t n = 0;
    while (n < g->max_pin) {
        void *p = gpu_witness_alloc(ctx, bytes);
        if (!p) break;
        got[n++] = p;
    }
    for (size_t i = 0; i < n; i++) gpu_witness_free(ctx, got[i]);
    pthread_mutex_lock(&g->mu);
    if (g->pinned_fallbacks >= 1 && n < g->max_pin) g->pinned_fallbacks--; /* the probe that stopped the loop */
    pthread_mutex_unlock(&g->mu);
    return CUZK_OK;
}
