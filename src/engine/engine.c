/* The engine's public API (include/cuzk/engine.h): creation on one context per device,
 * circuits made from proving keys, jobs (submit, cancel, wait), statistics, shutdown. The stages
 * themselves are in workers.c, the queues in queue.c, the trace in trace.c (src/engine/pipeline.h). */
#include "engine/pipeline.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "groth16/pk.h"
#include "util/log.h"
#include "util/parallel.h"
#include "util/timer.h"

/* ---- public API --------------------------------------------------------------------------------- */
static void engine_stop_and_free(cuzk_engine *e) {
    pthread_mutex_lock(&e->mu);
    e->stop = 1;
    for (job *j = e->jobs; j; j = j->next)
        if (!j->complete) {
            if (!j->failed) j->cancelled = 1;
            engine_job_kill_locked(e, j);
        }
    pthread_cond_broadcast(&e->cv_work);
    pthread_mutex_unlock(&e->mu);
    budget_wake(&e->bud);
    for (int i = 0; i < e->n_synth; i++) pthread_join(e->synth_th[i], NULL);
    pq_close(&e->prove_q);
    for (int i = 0; i < e->n_prove; i++) pthread_join(e->prove_th[i], NULL);
    pq_close(&e->finish_q);
    for (int i = 0; i < e->n_finish; i++) pthread_join(e->finish_th[i], NULL);
    reaper_destroy(e->rp); /* drains: every buffer freed, every budget byte returned */
    e->rp = NULL;
    while (e->jobs) {
        job *j = e->jobs;
        e->jobs = j->next;
        engine_job_free(j);
    }
    free(e->synth_th);
    free(e->finish_th);
    free(e->wa);
    free(e->spans);
    pq_destroy(&e->prove_q);
    pq_destroy(&e->finish_q);
    budget_destroy(&e->bud);
    pthread_mutex_destroy(&e->mu);
    pthread_cond_destroy(&e->cv_work);
    pthread_cond_destroy(&e->cv_done);
    pthread_mutex_destroy(&e->tmu);
    if (e->owns_be_ctx && e->be->destroy)
        for (int i = 0; i < e->n_dev; i++) e->be->destroy(e->be_ctx[i]);
    free(e);
}

/* An engine on n contexts of one backend: one prove-start worker per context. owns: destroy frees
 * the contexts (also when this fails). */
static cuzk_status engine_create_devices(cuzk_engine **out, const cuzk_engine_opts *opts, const engine_backend *be,
                                         void *const *ctx, const int *dev_id, int n, int owns, cuzk_error *err) {
    *out = NULL;
    cuzk_engine *e = calloc(1, sizeof *e);
    if (!e) {
        if (owns && be->destroy)
            for (int i = 0; i < n; i++) be->destroy(ctx[i]);
        return ERR(err, CUZK_ERR_NOMEM, "cuzk_engine_create");
    }
    if (opts) e->o = *opts;
    if (e->o.synthesis_workers <= 0) e->o.synthesis_workers = 1;
    if (e->o.finish_workers <= 0) e->o.finish_workers = n; /* one per device: the finish work scales with them */
    if (e->o.finish_threads <= 0) e->o.finish_threads = 1;
    if (e->o.prove_threads <= 0) e->o.prove_threads = cuzk_num_threads();
    if (e->o.queue_depth <= 0) e->o.queue_depth = 2;
    e->be = be;
    e->n_dev = n;
    e->wpd = e->o.gpu_workers_per_device <= 0 ? 1 : e->o.gpu_workers_per_device;
    if (e->wpd > ENGINE_MAX_WORKERS_PER_DEVICE) {
        int wpd = e->o.gpu_workers_per_device;
        if (owns && be->destroy)
            for (int i = 0; i < n; i++) be->destroy(ctx[i]);
        free(e);
        return ERR(err, CUZK_ERR_ARG, "cuzk_engine_create: %d prove-start workers per device (at most %d)", wpd,
                   ENGINE_MAX_WORKERS_PER_DEVICE);
    }
    atomic_init(&e->n_live, n);
    for (int i = 0; i < CUZK_ENGINE_MAX_DEVICES; i++) atomic_init(&e->dev_dead[i], 0);
    for (int i = 0; i < n; i++) {
        e->be_ctx[i] = ctx[i];
        e->dev_id[i] = dev_id ? dev_id[i] : i;
    }
    e->owns_be_ctx = owns;
    e->caps = be->caps ? be->caps(ctx[0]) : 0;
    e->backend_name = be->ctx_name ? be->ctx_name(ctx[0]) : be->name;
    e->next_id = 1;
    e->t0 = now_ms();
    atomic_init(&e->underestimates, 0);
    pthread_mutex_init(&e->mu, NULL);
    pthread_cond_init(&e->cv_work, NULL);
    pthread_cond_init(&e->cv_done, NULL);
    pthread_mutex_init(&e->tmu, NULL);
    pq_init(&e->prove_q, e->o.queue_depth);
    pq_init(&e->finish_q, e->o.queue_depth);
    budget_init(&e->bud, e->o.host_budget_bytes);
    cuzk_status st = reaper_create(&e->rp, engine_on_free, e, err);
    if (st != CUZK_OK) {
        e->rp = NULL;
        engine_stop_and_free(e);
        return st;
    }
    int S = e->o.synthesis_workers, F = e->o.finish_workers;
    e->synth_th = calloc((size_t)S, sizeof *e->synth_th);
    e->finish_th = calloc((size_t)F, sizeof *e->finish_th);
    const int W = n * e->wpd; /* prove-start workers: worker i drives device i / wpd */
    worker_arg *wa = e->wa = calloc((size_t)(S + W + F), sizeof *wa);
    if (!e->synth_th || !e->finish_th || !wa) {
        engine_stop_and_free(e);
        return ERR(err, CUZK_ERR_NOMEM, "cuzk_engine_create: worker tables");
    }
    int ok = 1;
    for (int i = 0; i < S && ok; i++) {
        wa[i] = (worker_arg){e, i};
        if (pthread_create(&e->synth_th[i], NULL, engine_synth_main, &wa[i]) == 0) e->n_synth++;
        else ok = 0;
    }
    for (int i = 0; i < W && ok; i++) {
        wa[S + i] = (worker_arg){e, i};
        if (pthread_create(&e->prove_th[i], NULL, engine_prove_main, &wa[S + i]) == 0) e->n_prove++;
        else ok = 0;
    }
    for (int i = 0; i < F && ok; i++) {
        wa[S + W + i] = (worker_arg){e, i};
        if (pthread_create(&e->finish_th[i], NULL, engine_finish_main, &wa[S + W + i]) == 0) e->n_finish++;
        else ok = 0;
    }
    if (!ok) {
        engine_stop_and_free(e);
        return ERR(err, CUZK_ERR_NOMEM, "cuzk_engine_create: cannot start worker threads");
    }
    *out = e;
    return CUZK_OK;
}

cuzk_status engine_create_with_backend(cuzk_engine **out, const cuzk_engine_opts *opts, const engine_backend *be,
                                       void *be_ctx, cuzk_error *err) {
    if (!out || !be) return ERR(err, CUZK_ERR_ARG, "cuzk_engine_create: NULL argument");
    void *ctx[1] = {be_ctx};
    return engine_create_devices(out, opts, be, ctx, NULL, 1, 0, err);
}

cuzk_status engine_create_with_backends(cuzk_engine **out, const cuzk_engine_opts *opts, const engine_backend *be,
                                        void *const *be_ctx, int n, cuzk_error *err) {
    if (!out || !be || !be_ctx) return ERR(err, CUZK_ERR_ARG, "cuzk_engine_create: NULL argument");
    if (n < 1 || n > CUZK_ENGINE_MAX_DEVICES) return ERR(err, CUZK_ERR_ARG, "cuzk_engine_create: %d contexts", n);
    return engine_create_devices(out, opts, be, be_ctx, NULL, n, 0, err);
}

cuzk_status engine_create_fake(cuzk_engine **out, const cuzk_engine_opts *opts, int n, const engine_fake_cfg *cfg,
                               cuzk_error *err) {
    if (!out) return ERR(err, CUZK_ERR_ARG, "engine_create_fake: NULL argument");
    *out = NULL;
    if (n < 1 || n > CUZK_ENGINE_MAX_DEVICES) return ERR(err, CUZK_ERR_ARG, "engine_create_fake: %d devices", n);
    void *ctx[CUZK_ENGINE_MAX_DEVICES] = {0};
    for (int i = 0; i < n; i++) {
        cuzk_status st = engine_fake_create(&ctx[i], i, cfg ? &cfg[i] : NULL, err);
        if (st != CUZK_OK) {
            for (int k = 0; k < i; k++) engine_backend_fake.destroy(ctx[k]);
            return st;
        }
    }
    return engine_create_devices(out, opts, &engine_backend_fake, ctx, NULL, n, 1, err);
}

void *engine_device_ctx(cuzk_engine *e, int d) { return e && d >= 0 && d < e->n_dev ? e->be_ctx[d] : NULL; }
int engine_device_dead(cuzk_engine *e, int d) {
    return e && d >= 0 && d < e->n_dev ? atomic_load(&e->dev_dead[d]) : 0;
}

cuzk_status cuzk_engine_create(cuzk_engine **out, const cuzk_engine_opts *opts, cuzk_error *err) {
    if (!out) return ERR(err, CUZK_ERR_ARG, "cuzk_engine_create: NULL argument");
    *out = NULL;
    cuzk_engine_opts dflt = {0};
    const cuzk_engine_opts *o = opts ? opts : &dflt;
    cuzk_status st = groth16_msm_opts_check(&o->msm, "cuzk_engine_create", err);
    if (st != CUZK_OK) return st;
    const groth16_backend_ops *ops = NULL; /* the device choice is the same for every curve */
    st = groth16_backend_pick(o->backend, &ops, err);
    if (st != CUZK_OK) return st;
    int gpu = (ops->info.caps & GROTH16_CAP_DEVICE) != 0;
    /* the devices: the list, or the one gpu_device; the CPU is one "device" */
    int n = 1, dev_id[CUZK_ENGINE_MAX_DEVICES] = {o->gpu_device};
    if (gpu && o->n_gpu_devices) {
        if (o->n_gpu_devices < 0 || o->n_gpu_devices > CUZK_ENGINE_MAX_DEVICES)
            return ERR(err, CUZK_ERR_ARG, "cuzk_engine_create: %d devices (at most %d)", o->n_gpu_devices,
                       CUZK_ENGINE_MAX_DEVICES);
        n = o->n_gpu_devices;
        for (int i = 0; i < n; i++) {
            dev_id[i] = o->gpu_devices[i];
            for (int k = 0; k < i; k++)
                if (dev_id[k] == dev_id[i])
                    return ERR(err, CUZK_ERR_ARG, "cuzk_engine_create: device %d is listed twice", dev_id[i]);
        }
    }
    for (int i = 0; i < n; i++)
        if (dev_id[i] < 0) return ERR(err, CUZK_ERR_ARG, "cuzk_engine_create: device ordinal %d", dev_id[i]);
    /* witnesses alive at once: one per synthesis worker, a full prove queue, one in each start */
    size_t S = o->synthesis_workers > 0 ? (size_t)o->synthesis_workers : 1;
    size_t Q = o->queue_depth > 0 ? (size_t)o->queue_depth : 2;
    void *ctx[CUZK_ENGINE_MAX_DEVICES] = {0};
    for (int i = 0; i < n; i++) {
        groth16_backend_cfg cfg = {0};
        cfg.device = dev_id[i];
        cfg.msm = o->msm;
        /* witness buffers come from device 0's pool only */
        if ((st = engine_dev_create(&ctx[i], gpu ? CUZK_BACKEND_GPU : CUZK_BACKEND_CPU, &cfg, o->pinned_budget_bytes,
                                    o->gpu_budget_bytes, i == 0 ? S + Q + (size_t)n : 1, err)) != CUZK_OK) {
            for (int k = 0; k < i; k++) engine_backend_prover.destroy(ctx[k]);
            return st;
        }
    }
    return engine_create_devices(out, opts, &engine_backend_prover, ctx, dev_id, n, 1, err);
}

const char *cuzk_engine_backend_name(const cuzk_engine *e) { return e ? e->backend_name : "none"; }
int cuzk_engine_n_devices(const cuzk_engine *e) { return e ? e->n_dev : 0; }

/* ---- circuits from proving keys ---------------------------------------------------------------- */
cuzk_status cuzk_circuit_create(cuzk_circuit **out, cuzk_pk *pk, cuzk_error *err) {
    if (!out || !pk) return ERR(err, CUZK_ERR_ARG, "cuzk_circuit_create: NULL argument");
    *out = NULL;
    /* everything about the key goes through the table of its curve (engine_circuit_curve) */
    if (!groth16_curve_get(pk->curve))
        return ERR(err, CUZK_ERR_UNSUPPORTED, "cuzk_circuit_create: curve %s is not in this build",
                   cuzk_curve_name(pk->curve));
    cuzk_circuit *c = calloc(1, sizeof *c);
    if (!c) return ERR(err, CUZK_ERR_NOMEM, "cuzk_circuit_create");
    /* G1 queries the key's owner already made resident (one device), or NULL. Only BLS12-381
     * bellperson keys have them (groth16_pk_wrap_bellperson). */
    const groth16_pk *bls = groth16_pk_of_const(pk);
    c->gpu_srs = bls ? bls->gpu_srs : NULL;
    c->pk = cuzk_pk_retain(pk);
    *out = c;
    return CUZK_OK;
}

void cuzk_circuit_destroy(cuzk_circuit *c) {
    if (!c) return;
    cuzk_pk_release(c->pk);
    free(c);
}

size_t cuzk_circuit_n_vars(const cuzk_circuit *c) { return engine_circuit_valid(c) ? engine_circuit_n_vars(c) : 0; }
uint32_t cuzk_circuit_n_public(const cuzk_circuit *c) { return engine_circuit_valid(c) ? engine_circuit_n_public(c) : 0; }

cuzk_status cuzk_engine_preload(cuzk_engine *e, const cuzk_circuit *c, cuzk_error *err) {
    if (!e || !engine_circuit_valid(c)) return ERR(err, CUZK_ERR_ARG, "cuzk_engine_preload: NULL argument");
    if (c->gpu_srs && e->n_dev > 1)
        return ERR(err, CUZK_ERR_UNSUPPORTED, "cuzk_engine_preload: a borrowed device SRS serves one device, the engine drives %d",
                   e->n_dev);
    if (!e->be->preload) return CUZK_OK;
    for (int i = 0; i < e->n_dev; i++) {
        cuzk_status st = e->be->preload(e->be_ctx[i], c, err);
        if (st != CUZK_OK) return st;
    }
    return CUZK_OK;
}

cuzk_status cuzk_engine_release_host_g1(cuzk_engine *e, const cuzk_circuit *c, size_t *freed_bytes, cuzk_error *err) {
    if (freed_bytes) *freed_bytes = 0;
    if (!e || !engine_circuit_valid(c)) return ERR(err, CUZK_ERR_ARG, "cuzk_engine_release_host_g1: NULL argument");
    if (!e->be->caps || !(e->be->caps(e->be_ctx[0]) & GROTH16_CAP_DEVICE))
        return ERR(err, CUZK_ERR_UNSUPPORTED,
                   "cuzk_engine_release_host_g1: the %s backend proves from the host copies of the G1 queries",
                   e->backend_name);
    /* a key loaded from a .params file (cuzk_pk_load_params*): it owns its parameters, the G1
     * queries in an allocation of their own (g2_apart). Bellperson keys are BLS12-381's. */
    groth16_pk *pk = groth16_pk_of(c->pk);
    if (!pk || pk->key.convention != CUZK_CONVENTION_BELLPERSON || pk->owner_free || pk->key.p != &pk->p)
        return ERR(err, CUZK_ERR_UNSUPPORTED,
                   "cuzk_engine_release_host_g1: only keys loaded from a bellperson .params file "
                   "(cuzk_pk_load_params) can give back their host G1 queries");
    if (!pk->p.block && !pk->p.a && !pk->p.b_g1 && !pk->p.l && !pk->p.h) return CUZK_OK; /* given back before */
    cuzk_status st = cuzk_engine_preload(e, c, err); /* resident on every device, or nothing is freed */
    if (st != CUZK_OK) return st;
    if (__atomic_load_n(&pk->p.g1_stream_borrows, __ATOMIC_ACQUIRE)) {
        /* a device's memory plan streams some G1 queries from this host copy (src/groth16/memplan.h) */
        cuzk_log(CUZK_LOG_INFO, "engine: the host G1 queries stay: a GPU prover's memory plan streams some of them "
                 "from host memory each proof");
        return CUZK_OK;
    }
    bellperson_params g1;
    size_t freed = bellperson_params_take_g1(&pk->p, &g1);
    if (!freed)
        return ERR(err, CUZK_ERR_UNSUPPORTED,
                   "cuzk_engine_release_host_g1: the key's G1 queries share one allocation with its B_G2 query");
    bellperson_params_free(&g1);
    pk->host_bytes = pk->host_bytes > freed ? pk->host_bytes - freed : 0;
    if (freed_bytes) *freed_bytes = freed;
    return CUZK_OK;
}

cuzk_status cuzk_engine_release_circuit(cuzk_engine *e, const cuzk_circuit *c, cuzk_error *err) {
    if (!e || !c) return ERR(err, CUZK_ERR_ARG, "cuzk_engine_release_circuit: NULL argument");
    pthread_mutex_lock(&e->mu);
    for (job *j = e->jobs; j; j = j->next)
        if (!j->complete && engine_circuit_same(&j->circ, c)) {
            uint64_t id = j->id;
            pthread_mutex_unlock(&e->mu);
            return ERR(err, CUZK_ERR_BUSY, "cuzk_engine_release_circuit: job %llu of this circuit is not complete",
                       (unsigned long long)id);
        }
    pthread_mutex_unlock(&e->mu);
    if (e->be->forget)
        for (int i = 0; i < e->n_dev; i++) e->be->forget(e->be_ctx[i], c);
    return CUZK_OK;
}

void cuzk_engine_destroy(cuzk_engine *e) {
    if (e) engine_stop_and_free(e);
}

cuzk_status cuzk_engine_submit(cuzk_engine *e, const cuzk_job_desc *d, cuzk_job_id *id, cuzk_error *err) {
    if (!e || !d || !id || !engine_circuit_valid(d->circuit) || !d->synth)
        return ERR(err, CUZK_ERR_ARG, "cuzk_engine_submit: NULL argument");
    if (d->n_partitions == 0) return ERR(err, CUZK_ERR_ARG, "cuzk_engine_submit: a job needs at least one partition");
    if (d->witness_form != 0 && d->witness_form != CUZK_WITNESS_FR_MONT && d->witness_form != CUZK_WITNESS_FR_CANON)
        return ERR(err, CUZK_ERR_ARG, "cuzk_engine_submit: the synthesis callback writes Fr limbs (Montgomery or canonical), not %d",
                   (int)d->witness_form);
    groth16_key raw;
    if (d->check_witness &&
        !engine_circuit_curve(d->circuit)->key_has_cs(engine_circuit_key(d->circuit, &raw)))
        return ERR(err, CUZK_ERR_ARG,
                   "cuzk_engine_submit: check_witness needs the circuit's R1CS: load the zkey with its .r1cs "
                   "(cuzk_pk_load_opts.r1cs_path)");
    if (d->circuit->gpu_srs && e->n_dev > 1)
        return ERR(err, CUZK_ERR_UNSUPPORTED,
                   "cuzk_engine_submit: a circuit on a borrowed device SRS serves one device, the engine drives %d",
                   e->n_dev);
    const groth16_curve *gc = engine_circuit_curve(d->circuit); /* not NULL: engine_circuit_valid */
    const size_t n_vars = engine_circuit_n_vars(d->circuit);
    size_t part_bytes = n_vars * sizeof(groth16_fr_any) + e->be->start_bytes(e->be_ctx[0], d->circuit, e->o.prove_threads);
    if (e->o.host_budget_bytes && part_bytes > e->o.host_budget_bytes)
        return ERR(err, CUZK_ERR_MISMATCH,
                   "cuzk_engine_submit: one partition needs %zu bytes of host memory but the budget is %zu", part_bytes,
                   e->o.host_budget_bytes);
    job *j = calloc(1, sizeof *j);
    if (!j) return ERR(err, CUZK_ERR_NOMEM, "cuzk_engine_submit");
    uint32_t P = d->n_partitions;
    j->circ = *d->circuit;
    j->gc = gc;
    j->proof_bytes = gc->proof_bytes;
    j->P = P;
    j->n_public = engine_circuit_n_public(d->circuit);
    j->n_vars = n_vars;
    j->part_bytes = part_bytes;
    j->synth = d->synth;
    j->synth_ctx = d->synth_ctx;
    j->check_witness = d->check_witness;
    j->witness_form = d->witness_form;
    j->progress = d->progress;
    j->progress_user = d->progress_user;
    pthread_mutex_init(&j->progress_mu, NULL);
    atomic_init(&j->dead, 0);
    j->proofs = calloc(P, j->proof_bytes);
    j->pub = calloc((size_t)P * (j->n_public ? j->n_public : 1), sizeof *j->pub);
    j->tm = calloc(P, sizeof *j->tm);
    if (d->fixed_rs) {
        j->rs = malloc(2 * (size_t)P * sizeof *j->rs);
        if (j->rs) memcpy(j->rs, d->fixed_rs, 2 * (size_t)P * sizeof *j->rs);
    }
    if (!j->proofs || !j->pub || !j->tm || (d->fixed_rs && !j->rs)) {
        engine_job_free(j);
        return ERR(err, CUZK_ERR_NOMEM, "cuzk_engine_submit: job of %u partitions", P);
    }
    pthread_mutex_lock(&e->mu);
    if (e->stop) {
        pthread_mutex_unlock(&e->mu);
        engine_job_free(j);
        return ERR(err, CUZK_ERR_ARG, "cuzk_engine_submit: the engine is shutting down");
    }
    j->id = e->next_id++;
    j->submit_ms = now_ms();
    job **pp = &e->jobs;
    while (*pp) pp = &(*pp)->next;
    *pp = j;
    *id = j->id;
    pthread_cond_broadcast(&e->cv_work);
    pthread_mutex_unlock(&e->mu);
    return CUZK_OK;
}

cuzk_status cuzk_engine_cancel(cuzk_engine *e, cuzk_job_id id) {
    if (!e) return CUZK_ERR_ARG;
    cuzk_status st = CUZK_ERR_ARG;
    pthread_mutex_lock(&e->mu);
    for (job *j = e->jobs; j; j = j->next)
        if (j->id == id) {
            if (!j->complete) {
                if (!j->failed) j->cancelled = 1;
                engine_job_kill_locked(e, j);
                st = CUZK_OK;
            }
            break;
        }
    pthread_mutex_unlock(&e->mu);
    if (st == CUZK_OK) budget_wake(&e->bud);
    return st;
}

void cuzk_job_result_free(cuzk_job_result *r) {
    if (!r) return;
    free(r->proofs);
    free(r->public_inputs);
    free(r->timings);
    r->proofs = NULL;
    r->public_inputs = NULL;
    r->timings = NULL;
}

cuzk_status cuzk_engine_wait(cuzk_engine *e, cuzk_job_id id, cuzk_job_result *out, cuzk_error *err) {
    if (!e || !out) return ERR(err, CUZK_ERR_ARG, "cuzk_engine_wait: NULL argument");
    pthread_mutex_lock(&e->mu);
    job **pp = &e->jobs;
    while (*pp && (*pp)->id != id) pp = &(*pp)->next;
    job *j = *pp;
    if (!j || j->waiting) {
        pthread_mutex_unlock(&e->mu);
        return ERR(err, CUZK_ERR_ARG, "cuzk_engine_wait: no job %llu to wait for", (unsigned long long)id);
    }
    j->waiting = 1;
    while (!j->complete) pthread_cond_wait(&e->cv_done, &e->mu);
    for (pp = &e->jobs; *pp != j; pp = &(*pp)->next) {}
    *pp = j->next; /* forgotten: the reaper observer no longer finds it */
    pthread_mutex_unlock(&e->mu);
    memset(out, 0, sizeof *out);

    cuzk_status st = CUZK_OK;
    out->state = j->failed ? CUZK_JOB_FAILED : j->cancelled ? CUZK_JOB_CANCELLED : CUZK_JOB_DONE;
    out->status = j->failed ? j->status : CUZK_OK;
    out->failed_partition = j->failed_part;
    out->n_partitions = j->P;
    out->n_public = j->n_public;
    out->curve = j->gc->id;
    out->proof_bytes = j->proof_bytes;
    out->submit_ms = j->submit_ms;
    out->done_ms = j->done_ms;
    if (j->failed && err) *err = j->err;
    out->timings = malloc(j->P * sizeof *out->timings);
    if (out->timings) memcpy(out->timings, j->tm, j->P * sizeof *out->timings);
    else st = ERR(err, CUZK_ERR_NOMEM, "cuzk_engine_wait: result");
    if (out->state == CUZK_JOB_DONE && st == CUZK_OK) {
        out->proofs = malloc((size_t)j->P * j->proof_bytes);
        out->public_inputs = malloc((size_t)j->P * (j->n_public ? j->n_public : 1) * 32);
        if (!out->proofs || !out->public_inputs) st = ERR(err, CUZK_ERR_NOMEM, "cuzk_engine_wait: result");
        else {
            /* the proofs are already in the encoding of the circuit's curve (its finish wrote them) */
            memcpy(out->proofs, j->proofs, (size_t)j->P * j->proof_bytes);
            for (size_t i = 0; i < (size_t)j->P * j->n_public; i++) j->gc->fr_to_bytes(out->public_inputs + 32 * i, &j->pub[i]);
        }
    }
    if (st != CUZK_OK) cuzk_job_result_free(out);
    engine_job_free(j);
    out->wait_return_ms = now_ms();
    return st;
}

void cuzk_engine_get_stats(cuzk_engine *e, cuzk_engine_stats *out) {
    memset(out, 0, sizeof *out);
    if (!e) return;
    pthread_mutex_lock(&e->bud.mu);
    out->budget_limit = e->bud.limit;
    out->budget_reserved = e->bud.reserved;
    out->budget_max_reserved = e->bud.max_reserved;
    out->budget_wait_ms = e->bud.wait_ms;
    pthread_mutex_unlock(&e->bud.mu);
    out->budget_underestimates = atomic_load(&e->underestimates);
    reaper_stats rs;
    reaper_get_stats(e->rp, &rs);
    out->reaper_pending_bytes = reaper_pending_bytes(e->rp);
    out->reaper_max_pending_bytes = rs.max_pending_bytes;
    out->reaper_items_freed = rs.items_freed;
    out->reaper_bytes_freed = rs.bytes_freed;
    if (e->be->stats)
        for (int i = 0; i < e->n_dev; i++) {
            engine_dev_stats ds = {0};
            e->be->stats(e->be_ctx[i], &ds);
            out->gpu_resident_bytes += ds.resident_bytes;
            out->gpu_pool_bytes += ds.pool_bytes;
            out->gpu_device_used_bytes += ds.device_used_bytes;
            out->pinned_bytes += ds.pinned_bytes;
            out->pinned_fallbacks += ds.pinned_fallbacks;
            out->gpu_streamed_bytes += ds.streamed_bytes;
        }
    out->reaper_busy_ms = rs.busy_ms;
}

cuzk_status cuzk_engine_device_stats(cuzk_engine *e, int d, cuzk_device_stats *out) {
    if (out) memset(out, 0, sizeof *out);
    if (!e || !out || d < 0 || d >= e->n_dev) return CUZK_ERR_ARG;
    engine_dev_stats ds = {0};
    if (e->be->stats) e->be->stats(e->be_ctx[d], &ds);
    out->ordinal = e->dev_id[d];
    snprintf(out->name, sizeof out->name, "%s", ds.name[0] ? ds.name : e->backend_name);
    out->total_bytes = ds.total_bytes;
    out->free_bytes = ds.free_bytes;
    out->resident_bytes = ds.resident_bytes;
    out->pool_bytes = ds.pool_bytes;
    out->streamed_bytes = ds.streamed_bytes;
    snprintf(out->memory_plan, sizeof out->memory_plan, "%s", ds.plan);
    out->dead = atomic_load(&e->dev_dead[d]);
    return CUZK_OK;
}

void cuzk_engine_drain_frees(cuzk_engine *e) {
    if (e) reaper_drain(e->rp);
}
