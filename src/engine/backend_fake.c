/* Fake devices (engine_internal.h): the CPU backend behind the device interface, with a device
 * memory budget, resident circuits with reference counts, and an injected sticky fault, so the
 * engine's routing and isolation over several devices are tested without a GPU. */
#include "engine/engine_internal.h"
#include "groth16/pk.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "util/log.h"

#define FAKE_MAX_CIRCUITS 4

typedef struct fake_dev {
    int dev;
    engine_fake_cfg cfg;
    pthread_mutex_t mu;
    struct {
        cuzk_circuit circ;
        int resident, pinned, refs;
        size_t srs_bytes, proof_bytes;
    } c[FAKE_MAX_CIRCUITS];
    int n;
    int start_calls, lost;
    engine_fake_info info;
} fake_dev;

typedef struct fake_pending {
    void *inner;
    fake_dev *owner;
    int fault_at_finish;
} fake_pending;

size_t engine_fake_srs_bytes(const cuzk_circuit *c) {
    groth16_key raw;
    const groth16_key_any *k = engine_circuit_key(c, &raw);
    /* a bellperson key (BLS12-381's): its four G1 queries */
    const groth16_pk *bls = c->pk ? groth16_pk_of_const(c->pk) : NULL;
    const groth16_key *bk = c->pk ? (bls ? &bls->key : NULL) : &raw;
    if (bk && bk->convention == CUZK_CONVENTION_BELLPERSON) {
        const bellperson_params *p = bk->p;
        return ((size_t)p->n_a + p->n_b_g1 + p->n_l + p->n_h) * 96;
    }
    /* a zkey's G1 queries A, B1, C (aux wires), H (the counts through the key's curve) */
    const groth16_curve *gc = engine_circuit_curve(c);
    size_t n = gc->key_n_vars(k), np = gc->key_n_public(k), m = gc->key_domain(k);
    return (2 * n + (n - np - 1) + m) * 96;
}
size_t engine_fake_proof_bytes(const cuzk_circuit *c) {
    /* witness + a, b, c + H (each n_vars or domain-sized Fr vectors) */
    groth16_key raw;
    const groth16_key_any *k = engine_circuit_key(c, &raw);
    const groth16_curve *gc = engine_circuit_curve(c);
    return (gc->key_n_vars(k) + 4 * gc->key_domain(k)) * 32;
}

static void sleep_ms(double ms) {
    struct timespec ts = {(time_t)(ms / 1000), (long)((ms - 1000.0 * (double)(time_t)(ms / 1000)) * 1e6)};
    while (nanosleep(&ts, &ts) != 0) {}
}

/* Under mu: the slot of c, -1 if never seen. */
static int slot_of(const fake_dev *d, const cuzk_circuit *c) {
    for (int i = 0; i < d->n; i++)
        if (engine_circuit_same(&d->c[i].circ, c)) return i;
    return -1;
}

/* Under mu: resident bytes + the largest proof peak among resident circuits and `extra` (-1: none). */
static size_t need_locked(const fake_dev *d, int extra) {
    size_t srs = 0, peak = 0;
    for (int i = 0; i < d->n; i++)
        if (d->c[i].resident || i == extra) {
            srs += d->c[i].srs_bytes;
            if (d->c[i].proof_bytes > peak) peak = d->c[i].proof_bytes;
        }
    return srs + peak;
}

/* Under mu: what c needs next to the circuits preload pinned (they are never evicted). */
static size_t need_pinned_locked(const fake_dev *d, const cuzk_circuit *c, int i) {
    size_t srs = engine_fake_srs_bytes(c), peak = engine_fake_proof_bytes(c);
    for (int k = 0; k < d->n; k++)
        if (k != i && d->c[k].pinned && d->c[k].resident) {
            srs += d->c[k].srs_bytes;
            if (d->c[k].proof_bytes > peak) peak = d->c[k].proof_bytes;
        }
    return srs + peak;
}

/* Under mu: makes c resident within the budget (evicting circuits nobody references), or -1. */
static int admit_locked(fake_dev *d, const cuzk_circuit *c, int evict) {
    int i = slot_of(d, c);
    if (i >= 0 && d->c[i].resident) return i;
    if (i < 0) {
        if (d->n == FAKE_MAX_CIRCUITS) return -1;
        i = d->n++;
        d->c[i].circ = *c;
        d->c[i].srs_bytes = engine_fake_srs_bytes(c);
        d->c[i].proof_bytes = engine_fake_proof_bytes(c);
    }
    size_t budget = d->cfg.budget_bytes;
    if (budget && need_locked(d, i) > budget) {
        if (!evict) return -1;
        for (int k = 0; k < d->n && need_locked(d, i) > budget; k++)
            if (k != i && d->c[k].resident && !d->c[k].refs && !d->c[k].pinned) {
                d->c[k].resident = 0;
                d->info.resident_bytes -= d->c[k].srs_bytes;
                d->info.evictions++;
            }
        if (need_locked(d, i) > budget) return -1;
    }
    d->c[i].resident = 1;
    d->info.loads++;
    d->info.resident_bytes += d->c[i].srs_bytes;
    if (d->info.resident_bytes > d->info.max_resident_bytes) d->info.max_resident_bytes = d->info.resident_bytes;
    size_t need = need_locked(d, -1);
    if (need > d->info.max_need_bytes) d->info.max_need_bytes = need;
    return i;
}

static int fake_route(void *ctx, const cuzk_circuit *c, int mode) {
    fake_dev *d = ctx;
    int ok = 0;
    pthread_mutex_lock(&d->mu);
    int i = slot_of(d, c);
    if (d->lost) ok = 0;
    else if (mode == ENGINE_ROUTE_CAN) {
        ok = (i >= 0 && d->c[i].resident) || !d->cfg.budget_bytes || need_pinned_locked(d, c, i) <= d->cfg.budget_bytes;
    } else {
        if (!(i >= 0 && d->c[i].resident) && mode == ENGINE_ROUTE_ADMIT) i = admit_locked(d, c, 1);
        if (i >= 0 && d->c[i].resident) {
            d->c[i].refs++;
            d->info.refs++;
            ok = 1;
        }
    }
    pthread_mutex_unlock(&d->mu);
    return ok;
}

static void fake_unroute(void *ctx, const cuzk_circuit *c) {
    fake_dev *d = ctx;
    pthread_mutex_lock(&d->mu);
    int i = slot_of(d, c);
    if (i >= 0 && d->c[i].refs > 0) {
        d->c[i].refs--;
        d->info.refs--;
    }
    pthread_mutex_unlock(&d->mu);
}

static int fake_lost(void *ctx) {
    fake_dev *d = ctx;
    pthread_mutex_lock(&d->mu);
    int l = d->lost;
    pthread_mutex_unlock(&d->mu);
    return l;
}

static size_t fake_start_bytes(void *ctx, const cuzk_circuit *c, int nthreads) {
    (void)ctx;
    return engine_backend_cpu.start_bytes(NULL, c, nthreads) + sizeof(fake_pending);
}

static cuzk_status fake_fault(fake_dev *d, const char *where, uint32_t partition, cuzk_error *err) {
    d->lost = 1;
    d->info.lost = 1;
    d->info.faults++;
    return ERR(err, CUZK_ERR_DEVICE, "fake device %d: sticky fault (injected) in %s of partition %u", d->dev, where,
               partition);
}

static cuzk_status fake_start(void *ctx, void **pending, uint64_t job, uint32_t partition, const cuzk_circuit *c,
                              const groth16_fr_any *w, size_t n_w, const groth16_fr_any *r, const groth16_fr_any *s, int nthreads,
                              groth16_release_fn release, void *release_ctx, groth16_timings *t, cuzk_error *err) {
    fake_dev *d = ctx;
    *pending = NULL;
    if (d->cfg.start_delay_ms > 0) sleep_ms(d->cfg.start_delay_ms);
    pthread_mutex_lock(&d->mu);
    int n = ++d->start_calls, fault_finish = 0;
    cuzk_status st = CUZK_OK;
    if (d->lost || n == d->cfg.fail_at_start) st = fake_fault(d, "start", partition, err);
    else if (n == d->cfg.fail_at_finish) fault_finish = 1;
    /* without routing (an engine that does not call route) the circuit is made resident here */
    int i = st == CUZK_OK ? admit_locked(d, c, 1) : -1;
    if (st == CUZK_OK && i < 0)
        st = ERR(err, CUZK_ERR_NOMEM_DEVICE, "fake device %d: the circuit needs %zu bytes (SRS + one proof), the budget is %zu",
                 d->dev, engine_fake_srs_bytes(c) + engine_fake_proof_bytes(c), d->cfg.budget_bytes);
    pthread_mutex_unlock(&d->mu);
    if (st != CUZK_OK) return st;
    fake_pending *fp = malloc(sizeof *fp);
    if (!fp) return ERR(err, CUZK_ERR_NOMEM, "fake device pending");
    fp->owner = d;
    fp->fault_at_finish = fault_finish;
    st = engine_backend_cpu.start(NULL, &fp->inner, job, partition, c, w, n_w, r, s, nthreads, release, release_ctx, t,
                                  err);
    if (st != CUZK_OK) {
        free(fp);
        return st;
    }
    pthread_mutex_lock(&d->mu);
    d->info.starts++;
    if (i < FAKE_MAX_CIRCUITS) d->info.starts_of[i]++;
    pthread_mutex_unlock(&d->mu);
    *pending = fp;
    return CUZK_OK;
}

static cuzk_status fake_finish(void *ctx, const cuzk_circuit *c, uint8_t *proof, void *pending, uint64_t job,
                               uint32_t partition, int nthreads, groth16_timings *t, cuzk_error *err) {
    fake_dev *d = ctx;
    fake_pending *fp = pending;
    pthread_mutex_lock(&d->mu);
    cuzk_status st = CUZK_OK;
    if (fp->owner != d) st = ERR(err, CUZK_ERR_ARG, "fake device %d: finishing device %d's partition", d->dev, fp->owner->dev);
    else if (d->lost || fp->fault_at_finish) st = fake_fault(d, "finish", partition, err);
    pthread_mutex_unlock(&d->mu);
    if (st != CUZK_OK) return st;
    st = engine_backend_cpu.finish(NULL, c, proof, fp->inner, job, partition, nthreads, t, err);
    if (st == CUZK_OK) {
        pthread_mutex_lock(&d->mu);
        d->info.finishes++;
        pthread_mutex_unlock(&d->mu);
    }
    return st;
}

static size_t fake_pending_bytes(void *ctx, const cuzk_circuit *c, const void *pending) {
    (void)ctx;
    const fake_pending *fp = pending;
    return engine_backend_cpu.pending_bytes(NULL, c, fp->inner) + sizeof *fp;
}

static void fake_pending_free(void *ctx, const cuzk_circuit *c, void *pending) {
    (void)ctx;
    fake_pending *fp = pending;
    if (!fp) return;
    engine_backend_cpu.pending_free(NULL, c, fp->inner);
    free(fp);
}

static cuzk_status fake_preload(void *ctx, const cuzk_circuit *c, cuzk_error *err) {
    fake_dev *d = ctx;
    pthread_mutex_lock(&d->mu);
    int i = d->lost ? -1 : admit_locked(d, c, 1);
    if (i >= 0) d->c[i].pinned = 1;
    pthread_mutex_unlock(&d->mu);
    if (i < 0)
        return ERR(err, d->lost ? CUZK_ERR_DEVICE : CUZK_ERR_NOMEM_DEVICE,
                   "fake device %d: cannot make the circuit resident (%zu bytes SRS + one proof, budget %zu)", d->dev,
                   engine_fake_srs_bytes(c) + engine_fake_proof_bytes(c), d->cfg.budget_bytes);
    return CUZK_OK;
}

static void fake_stats(void *ctx, engine_dev_stats *out) {
    fake_dev *d = ctx;
    pthread_mutex_lock(&d->mu);
    out->resident_bytes = d->info.resident_bytes;
    pthread_mutex_unlock(&d->mu);
}

static const char *fake_name(void *ctx) {
    (void)ctx;
    return "fake";
}

static void fake_forget(void *ctx, const cuzk_circuit *c) {
    fake_dev *d = ctx;
    pthread_mutex_lock(&d->mu);
    int i = slot_of(d, c);
    if (i >= 0) {
        if (d->c[i].resident) d->info.resident_bytes -= d->c[i].srs_bytes;
        d->c[i].resident = d->c[i].pinned = 0;
        /* the slot keeps its place (starts_of[] is indexed by it) but never matches again */
        memset(&d->c[i].circ, 0, sizeof d->c[i].circ);
    }
    pthread_mutex_unlock(&d->mu);
}

static void fake_destroy(void *ctx) {
    fake_dev *d = ctx;
    if (!d) return;
    pthread_mutex_destroy(&d->mu);
    free(d);
}

const engine_backend engine_backend_fake = {
    .name = "fake",
    .start_bytes = fake_start_bytes,
    .start = fake_start,
    .finish = fake_finish,
    .pending_bytes = fake_pending_bytes,
    .pending_free = fake_pending_free,
    .destroy = fake_destroy,
    .ctx_name = fake_name,
    .preload = fake_preload,
    .stats = fake_stats,
    .forget = fake_forget,
    .route = fake_route,
    .unroute = fake_unroute,
    .lost = fake_lost,
};

cuzk_status engine_fake_create(void **out, int dev, const engine_fake_cfg *cfg, cuzk_error *err) {
    if (!out) return ERR(err, CUZK_ERR_ARG, "engine_fake_create: NULL argument");
    fake_dev *d = calloc(1, sizeof *d);
    if (!d) return ERR(err, CUZK_ERR_NOMEM, "engine_fake_create");
    d->dev = dev;
    if (cfg) d->cfg = *cfg;
    pthread_mutex_init(&d->mu, NULL);
    *out = d;
    return CUZK_OK;
}

void engine_fake_get_info(void *ctx, engine_fake_info *out) {
    fake_dev *d = ctx;
    pthread_mutex_lock(&d->mu);
    *out = d->info;
    pthread_mutex_unlock(&d->mu);
}

int engine_fake_circuit_slot(void *ctx, const cuzk_circuit *c) {
    fake_dev *d = ctx;
    pthread_mutex_lock(&d->mu);
    int i = slot_of(d, c);
    pthread_mutex_unlock(&d->mu);
    return i;
}
