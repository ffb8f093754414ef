/* The engine backend over the prover orchestration (engine_internal.h: engine_backend_prover).
 * One context per device (or the one CPU context): one groth16_prover per circuit, made on first
 * use by the prove worker or ahead of time by preload (on the GPU this uploads the circuit's SRS
 * G1 queries and matrices once; later partitions and jobs reuse it), and a pool of pinned
 * witness buffers when the backend declares GROTH16_CAP_PINNED_HOST. Devices are reached only
 * through the backends' groth16_backend_info (src/groth16/prove.h), and each circuit's prover through the table of
 * its curve (a context holds provers of BLS12-381 and BN254 circuits side by side). */
#include "engine/engine_internal.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/log.h"

#define DEV_MAX_CIRCUITS 16
#define DEV_MAX_PINNED 64
#define DEV_DEFAULT_PINNED ((size_t)16 << 30)

typedef struct engine_dev {
    cuzk_backend want;           /* CPU or GPU (resolved by cuzk_engine_create) */
    groth16_backend_cfg cfg;     /* device, MSM options */
    const groth16_backend_info *host_ops; /* BLS12-381's backend: device-wide only (pinned memory, caps,
                                             name, device queries), the same for every curve */
    size_t pinned_budget, gpu_budget;
    pthread_mutex_t mu;
    /* pinned witness pool: free ones are reused by size */
    struct {
        void *ptr;
        size_t bytes;
        int in_use;
    } pin[DEV_MAX_PINNED];
    size_t n_pin, max_pin, pinned_bytes, pinned_in_use;
    uint64_t pinned_fallbacks;
    size_t n;
    struct {
        cuzk_circuit circ;           /* the descriptor it was made for (engine_circuit_same) */
        int busy;                    /* a free slot (pv NULL) whose prover is being destroyed */
        groth16_key raw;             /* a circuit's (cs, params) key: the prover borrows it, so it lives
                                        here, at a stable address */
        const groth16_key_any *key;  /* the circuit's key (the pk's, or raw) */
        const groth16_curve *gc;     /* the key's curve: the prover is that curve's */
        groth16_prover_any *pv;
    } c[DEV_MAX_CIRCUITS];
} engine_dev;

/* The backend of a circuit's curve on this context. */
static cuzk_status dev_ops(const engine_dev *d, const groth16_curve *gc, const groth16_backend_info **out,
                           cuzk_error *err) {
    *out = NULL;
    if (!gc) return ERR(err, CUZK_ERR_UNSUPPORTED, "a curve not supported by this build");
    *out = d->want == CUZK_BACKEND_GPU ? gc->gpu : gc->cpu;
    if (!*out) return ERR(err, CUZK_ERR_UNSUPPORTED, "curve %s has no %s backend", gc->name, d->want == CUZK_BACKEND_GPU ? "GPU" : "CPU");
    return CUZK_OK;
}

static cuzk_status get_prover(engine_dev *d, const cuzk_circuit *c, groth16_prover_any **out, cuzk_error *err) {
    cuzk_status st = CUZK_OK;
    pthread_mutex_lock(&d->mu);
    size_t i = d->n;
    for (size_t k = 0; k < d->n; k++) {
        if (d->c[k].pv && engine_circuit_same(&d->c[k].circ, c)) {
            *out = d->c[k].pv;
            goto out;
        }
        if (!d->c[k].pv && !d->c[k].busy && i == d->n) i = k; /* a slot freed by forget */
    }
    if (i == DEV_MAX_CIRCUITS) {
        st = ERR(err, CUZK_ERR_UNSUPPORTED, "engine: more than %d circuits on one device", DEV_MAX_CIRCUITS);
        goto out;
    }
    d->c[i].key = engine_circuit_key(c, &d->c[i].raw);
    const groth16_curve *gc = engine_circuit_curve(c);
    const groth16_backend_info *ops = NULL;
    if ((st = dev_ops(d, gc, &ops, err)) != CUZK_OK) goto out;
    groth16_backend_cfg cfg = d->cfg;
    cfg.gpu_srs = c->gpu_srs;
    cfg.gpu_budget = d->gpu_budget;
    if ((st = gc->prover_create(out, d->c[i].key, ops, &cfg, err)) != CUZK_OK) goto out;
    if (d->gpu_budget && ops->device_bytes && ops->proof_device_bytes) {
        /* what the prover holds (a shared SRS counts too) + one proof's peak from the pool */
        void *state = gc->prover_state(*out);
        size_t need = ops->device_bytes(state) + ops->proof_device_bytes(state);
        if (need > d->gpu_budget) {
            gc->prover_destroy(*out);
            *out = NULL;
            st = ERR(err, CUZK_ERR_NOMEM_DEVICE,
                     "the circuit needs %.2f GiB of GPU memory (what its memory plan keeps resident + one proof's "
                     "arena: witness, a/b/c, H and MSM scratch) but the GPU budget is %.2f GiB",
                     (double)need / 1073741824.0, (double)d->gpu_budget / 1073741824.0);
            goto out;
        }
    }
    d->c[i].circ = *c;
    d->c[i].gc = gc;
    d->c[i].pv = *out;
    if (i == d->n) d->n++;
out:
    pthread_mutex_unlock(&d->mu);
    return st;
}

static size_t dev_start_bytes(void *ctx, const cuzk_circuit *c, int nthreads) {
    engine_dev *d = ctx;
    const groth16_curve *gc = engine_circuit_curve(c);
    groth16_key raw;
    const groth16_backend_info *ops = NULL;
    if (dev_ops(d, gc, &ops, NULL) != CUZK_OK) return 0;
    return gc->start_bytes(engine_circuit_key(c, &raw), ops, nthreads);
}

static cuzk_status dev_start(void *ctx, void **pending, uint64_t job, uint32_t partition, const cuzk_circuit *c,
                             const groth16_fr_any *w, size_t n_w, const groth16_fr_any *r, const groth16_fr_any *s, int nthreads,
                             groth16_release_fn release, void *release_ctx, groth16_timings *t, cuzk_error *err) {
    (void)job;
    (void)partition;
    groth16_prover_any *pv = NULL;
    groth16_pending_any *p = NULL;
    *pending = NULL;
    cuzk_status st = get_prover(ctx, c, &pv, err);
    if (st == CUZK_OK)
        st = engine_circuit_curve(c)->prove_start(pv, &p, w, n_w, r,
                                                  s, nthreads, release, release_ctx, t, err);
    *pending = p;
    return st;
}

static cuzk_status dev_finish(void *ctx, const cuzk_circuit *c, uint8_t *proof, void *pending, uint64_t job,
                              uint32_t partition, int nthreads, groth16_timings *t, cuzk_error *err) {
    (void)ctx;
    (void)job;
    (void)partition;
    return engine_circuit_curve(c)->prove_finish(proof, pending, nthreads, t, err);
}

static size_t dev_pending_bytes(void *ctx, const cuzk_circuit *c, const void *pending) {
    (void)ctx;
    return engine_circuit_curve(c)->pending_bytes(pending);
}

static void dev_pending_free(void *ctx, const cuzk_circuit *c, void *pending) {
    (void)ctx;
    engine_circuit_curve(c)->pending_free(pending);
}

/* ---- pinned witness pool ---- */
static void *dev_witness_alloc(void *ctx, size_t bytes) {
    engine_dev *d = ctx;
    if (!(d->host_ops->caps & GROTH16_CAP_PINNED_HOST) || !d->host_ops->host_alloc) return NULL;
    void *ptr = NULL;
    pthread_mutex_lock(&d->mu);
    for (size_t i = 0; i < d->n_pin; i++)
        if (!d->pin[i].in_use && d->pin[i].bytes >= bytes) {
            d->pin[i].in_use = 1;
            d->pinned_in_use++;
            ptr = d->pin[i].ptr;
            goto out;
        }
    if (d->n_pin == d->max_pin || d->pinned_bytes + bytes > d->pinned_budget) goto fallback;
    /* pinning runs page by page (about 1 s per 4 GiB): done once per buffer, then reused */
    pthread_mutex_unlock(&d->mu);
    ptr = d->host_ops->host_alloc(bytes);
    pthread_mutex_lock(&d->mu);
    if (!ptr) goto fallback;
    d->pin[d->n_pin].ptr = ptr;
    d->pin[d->n_pin].bytes = bytes;
    d->pin[d->n_pin].in_use = 1;
    d->n_pin++;
    d->pinned_bytes += bytes;
    d->pinned_in_use++;
    goto out;
fallback:
    d->pinned_fallbacks++;
out:
    pthread_mutex_unlock(&d->mu);
    return ptr;
}

static void dev_witness_free(void *ctx, void *ptr) {
    engine_dev *d = ctx;
    pthread_mutex_lock(&d->mu);
    for (size_t i = 0; i < d->n_pin; i++)
        if (d->pin[i].ptr == ptr) {
            d->pin[i].in_use = 0;
            d->pinned_in_use--;
            break;
        }
    pthread_mutex_unlock(&d->mu);
}

static cuzk_status dev_preload(void *ctx, const cuzk_circuit *c, cuzk_error *err) {
    engine_dev *d = ctx;
    groth16_prover_any *pv = NULL;
    cuzk_status st = get_prover(d, c, &pv, err);
    if (st != CUZK_OK || !(d->host_ops->caps & GROTH16_CAP_PINNED_HOST)) return st;
    /* pin the witness buffers now: pinning runs page by page (~1 s per 4 GiB), which would
     * otherwise land on the first partitions' synthesis stage */
    size_t bytes = engine_circuit_n_vars(c) * sizeof(groth16_fr_any);
    void *got[DEV_MAX_PINNED];
    size_t n = 0;
    while (n < d->max_pin) {
        void *p = dev_witness_alloc(d, bytes);
        if (!p) break;
        got[n++] = p;
    }
    for (size_t i = 0; i < n; i++) dev_witness_free(d, got[i]);
    pthread_mutex_lock(&d->mu);
    if (d->pinned_fallbacks >= 1 && n < d->max_pin) d->pinned_fallbacks--; /* the probe that stopped the loop */
    pthread_mutex_unlock(&d->mu);
    return CUZK_OK;
}

static void dev_stats(void *ctx, engine_dev_stats *out) {
    engine_dev *d = ctx;
    if (d->host_ops->device_query) {
        /* the whole device, with or without circuits on it (outside the lock: a device call) */
        cuzk_error e = {0};
        size_t total = 0, free_b = 0;
        if (d->host_ops->device_query(d->cfg.device, &total, &free_b, out->name, sizeof out->name, &e) == CUZK_OK) {
            out->total_bytes = total;
            out->free_bytes = free_b;
            out->device_used_bytes = total - free_b;
        }
    }
    pthread_mutex_lock(&d->mu);
    int mem_done = 0;
    for (size_t i = 0; i < d->n; i++) {
        if (!d->c[i].pv) continue;
        const groth16_backend_info *ops = d->c[i].gc->prover_backend(d->c[i].pv);
        void *state = d->c[i].gc->prover_state(d->c[i].pv);
        if (ops->device_bytes) out->resident_bytes += ops->device_bytes(state);
        if (ops->memory_plan) {
            char line[640];
            size_t streamed = 0;
            line[0] = 0;
            ops->memory_plan(state, line, sizeof line, &streamed);
            out->streamed_bytes += streamed;
            size_t l = strlen(out->plan);
            if (line[0] && l + 3 < sizeof out->plan)
                snprintf(out->plan + l, sizeof out->plan - l, "%s%s", l ? "; " : "", line);
        }
        if (!mem_done && ops->device_mem) {
            size_t used = 0;
            ops->device_mem(state, &out->pool_bytes, &used);
            if (!out->device_used_bytes) out->device_used_bytes = used;
            mem_done = 1;
        }
    }
    out->pinned_bytes = d->pinned_bytes;
    out->pinned_fallbacks = d->pinned_fallbacks;
    pthread_mutex_unlock(&d->mu);
}

/* Frees the prover of c on this context; its slot becomes free (get_prover reuses it: slots
 * never move, since each prover borrows its slot's key). */
static void dev_forget(void *ctx, const cuzk_circuit *c) {
    engine_dev *d = ctx;
    groth16_prover_any *pv = NULL;
    const groth16_curve *gc = NULL;
    pthread_mutex_lock(&d->mu);
    for (size_t i = 0; i < d->n; i++)
        if (d->c[i].pv && engine_circuit_same(&d->c[i].circ, c)) {
            pv = d->c[i].pv;
            gc = d->c[i].gc;
            d->c[i].pv = NULL;
            d->c[i].busy = 1; /* its key is still borrowed until the prover is destroyed */
            break;
        }
    pthread_mutex_unlock(&d->mu);
    if (!pv) return;
    gc->prover_destroy(pv); /* device frees outside the lock: stats and other circuits go on */
    pthread_mutex_lock(&d->mu);
    for (size_t i = 0; i < d->n; i++)
        if (!d->c[i].pv && d->c[i].busy && engine_circuit_same(&d->c[i].circ, c)) {
            memset(&d->c[i], 0, sizeof d->c[i]);
            break;
        }
    pthread_mutex_unlock(&d->mu);
}

static unsigned dev_caps(void *ctx) { return ((engine_dev *)ctx)->host_ops->caps; }
static const char *dev_name(void *ctx) { return ((engine_dev *)ctx)->host_ops->name; }

static void dev_destroy(void *ctx) {
    engine_dev *d = ctx;
    if (!d) return;
    for (size_t i = 0; i < d->n; i++)
        if (d->c[i].pv) d->c[i].gc->prover_destroy(d->c[i].pv);
    for (size_t i = 0; i < d->n_pin; i++) d->host_ops->host_free(d->pin[i].ptr);
    pthread_mutex_destroy(&d->mu);
    free(d);
}

const engine_backend engine_backend_prover = {
    .name = "prover",
    .start_bytes = dev_start_bytes,
    .start = dev_start,
    .finish = dev_finish,
    .pending_bytes = dev_pending_bytes,
    .pending_free = dev_pending_free,
    .destroy = dev_destroy,
    .caps = dev_caps,
    .ctx_name = dev_name,
    .preload = dev_preload,
    .stats = dev_stats,
    .forget = dev_forget,
    .witness_alloc = dev_witness_alloc,
    .witness_free = dev_witness_free,
};

cuzk_status engine_dev_create(void **out, cuzk_backend want, const groth16_backend_cfg *cfg, size_t pinned_budget_bytes,
                              size_t gpu_budget_bytes, size_t max_witnesses, cuzk_error *err) {
    const groth16_curve *gc = groth16_curve_get(CUZK_CURVE_BLS12_381);
    *out = NULL;
    if (want != CUZK_BACKEND_CPU && want != CUZK_BACKEND_GPU)
        return ERR(err, CUZK_ERR_ARG, "engine_dev_create: the backend must be resolved (cpu or gpu)");
    engine_dev *d = calloc(1, sizeof *d);
    if (!d) return ERR(err, CUZK_ERR_NOMEM, "engine device context");
    d->want = want;
    if (cfg) d->cfg = *cfg;
    d->cfg.gpu_srs = NULL; /* per circuit */
    d->host_ops = want == CUZK_BACKEND_GPU ? gc->gpu : gc->cpu;
    /* as many buffers as witnesses can be alive at once, within the budget (default 16 GiB) */
    d->pinned_budget = pinned_budget_bytes ? pinned_budget_bytes : DEV_DEFAULT_PINNED;
    d->max_pin = max_witnesses < 1 ? 1 : max_witnesses > DEV_MAX_PINNED ? DEV_MAX_PINNED : max_witnesses;
    d->gpu_budget = gpu_budget_bytes;
    pthread_mutex_init(&d->mu, NULL);
    *out = d;
    return CUZK_OK;
}
