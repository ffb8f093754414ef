/* dprover over the public API: one cuzk_engine for every key, BLS12-381 and BN254
 * (include/cuzk/engine.h). See dprover.h. */
#include "dprover.h"

#include "dlog.h"

#include "cuzk/engine.h"
#include "cuzk/filecoin.h"
#include "cuzk/groth16.h"
#include "cuzk/prover.h"

#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

struct dp_engine {
    cuzk_engine *eng;        /* the configured backend's engine; NULL: backend "gpu" found no usable device */
    char no_gpu[512];        /* why eng is NULL */
    int fallback_cpu;        /* engine.gpu_fallback = "cpu" */
    int keep_host_g1;        /* srs.keep_host_g1 */
    int srs_from_file;       /* srs.from_file */
    cuzk_engine_opts cpu_opts; /* the fallback engine's options */
    pthread_mutex_t mu;      /* guards cpu */
    cuzk_engine *cpu;        /* the fallback CPU engine, made for the first circuit that needs it */
    size_t pinned_limit;
    int synth_threads;    /* PoSt synthesis threads (engine.prove_threads; 0: all) */
};

/* Engine job ids of the fallback engine are handed out with this bit set (dp_input.started), so
 * dp_cancel knows which engine a job is on. */
#define DP_FALLBACK_JOB ((uint64_t)1 << 63)

struct dp_key {
    cuzk_circuit *circ;   /* the engine circuit (holds the key's reference) */
    cuzk_curve curve;     /* the key's: its witnesses are converted into this field */
    cuzk_engine *eng;     /* the engine circuit's: the main one, or the fallback CPU engine */
    int fallback;         /* 1: on the fallback CPU engine (engine.gpu_fallback = "cpu") */
    char id[132];         /* the configuration's circuit id (1 to 128 characters), for messages */
    uint64_t host_released; /* host bytes of the G1 queries given back once on the GPU */
    cuzk_vk *vk;          /* its verification key: every proof is checked before it is returned */
    int has_circuit;      /* the R1CS is held: witnesses are checked constraint by constraint */
    const char *post_circuit; /* PoSt keys: the cuzk circuit name (config's static string), else NULL */
    uint32_t post_sectors;    /* its sector count override (0: Filecoin's) */
    const char *porep_circuit; /* PoRep keys: the cuzk circuit name ("porep-32g"), else NULL */
    const char *snap_circuit;  /* SnapDeals keys: the cuzk circuit name ("snap-32g"), else NULL */
    size_t n_vars;
    uint32_t n_public;
};

const char *dp_impl_name(void) { return "engine (cuzk_engine)"; }

static cuzk_backend backend_of(const char *s) {
    if (s && strcmp(s, "cpu") == 0) return CUZK_BACKEND_CPU;
    if (s && strcmp(s, "gpu") == 0) return CUZK_BACKEND_GPU;
    return CUZK_BACKEND_AUTO;
}

static int online_cpus(void) {
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (int)n : 1;
}

cuzk_status dp_engine_create(dp_engine **out, const dcfg *cfg, cuzk_error *err) {
    *out = NULL;
    dp_engine *e = calloc(1, sizeof *e);
    if (!e) return cuzk_error_set(err, CUZK_ERR_NOMEM, __FILE__, __LINE__, "out of memory");
    cuzk_engine_opts o;
    memset(&o, 0, sizeof o);
    o.backend = backend_of(cfg->backend);
    /* engine.workers jobs at once: one synthesis (witness) worker each, and on the CPU as many
     * prove workers (at most 4 per device); a GPU takes one proof at a time */
    o.synthesis_workers = cfg->workers;
    o.finish_workers = cfg->workers;
    o.prove_threads = cfg->prove_threads;
    o.finish_threads = cfg->prove_threads ? cfg->prove_threads : online_cpus();
    o.host_budget_bytes = (size_t)cfg->job_budget_bytes;
    o.gpu_budget_bytes = (size_t)cfg->gpu_budget_bytes;
    o.pinned_budget_bytes = (size_t)cfg->pinned_budget_bytes;
    o.no_trace = 1;
    o.msm.accumulation = (cuzk_gpu_msm_accum)cfg->msm_accumulation;
    o.msm.zkey_rows_on_gpu = cfg->zkey_rows_on_gpu;
    o.n_gpu_devices = cfg->n_devices;
    for (int i = 0; i < cfg->n_devices && i < CUZK_ENGINE_MAX_DEVICES; i++) o.gpu_devices[i] = cfg->devices[i];
    if (o.backend == CUZK_BACKEND_CPU) o.gpu_workers_per_device = cfg->workers < 4 ? cfg->workers : 4;
    e->fallback_cpu = cfg->gpu_fallback_cpu;
    e->keep_host_g1 = cfg->keep_host_g1;
    e->srs_from_file = cfg->srs_from_file;
    e->cpu_opts = o;
    e->cpu_opts.backend = CUZK_BACKEND_CPU;
    e->cpu_opts.n_gpu_devices = 0;
    e->cpu_opts.gpu_workers_per_device = cfg->workers < 4 ? cfg->workers : 4;
    pthread_mutex_init(&e->mu, NULL);
    cuzk_status st = cuzk_engine_create(&e->eng, &o, err);
    if (st == CUZK_ERR_DEVICE && o.backend == CUZK_BACKEND_GPU) {
        /* No usable GPU: the daemon still starts and serves what it can; each circuit is proved
         * on the CPU or fails with this reason (engine.gpu_fallback, dp_key_load). */
        snprintf(e->no_gpu, sizeof e->no_gpu, "%s", err && err->msg[0] ? err->msg : cuzk_status_str(st));
        dlog(DLOG_WARN, "engine.backend = \"gpu\": no usable GPU (%s); engine.gpu_fallback = \"%s\": %s", e->no_gpu,
             e->fallback_cpu ? "cpu" : "none",
             e->fallback_cpu ? "circuits are proved on the CPU" : "circuits cannot be proved");
        e->eng = NULL;
        st = CUZK_OK;
    }
    if (st == CUZK_OK && e->eng && o.backend == CUZK_BACKEND_AUTO && strcmp(cuzk_engine_backend_name(e->eng), "cpu") == 0 &&
        cfg->workers > 1) {
        /* AUTO resolved to the CPU: make it again with CPU workers for every job at once */
        cuzk_engine_destroy(e->eng);
        e->eng = NULL;
        o.backend = CUZK_BACKEND_CPU;
        o.gpu_workers_per_device = cfg->workers < 4 ? cfg->workers : 4;
        st = cuzk_engine_create(&e->eng, &o, err);
    }
    if (st != CUZK_OK) {
        pthread_mutex_destroy(&e->mu);
        free(e);
        return st;
    }
    e->pinned_limit = o.pinned_budget_bytes ? o.pinned_budget_bytes : (size_t)16 << 30;
    e->synth_threads = cfg->prove_threads;
    *out = e;
    return CUZK_OK;
}

void dp_engine_destroy(dp_engine *e) {
    if (!e) return;
    cuzk_engine_destroy(e->eng);
    cuzk_engine_destroy(e->cpu);
    pthread_mutex_destroy(&e->mu);
    free(e);
}

const char *dp_engine_backend(const dp_engine *e) { return e && e->eng ? cuzk_engine_backend_name(e->eng) : "none"; }

int dp_engine_devices(dp_engine *e, dp_device *out, int cap) {
    if (!e->eng) return 0;
    int n = cuzk_engine_n_devices(e->eng);
    for (int d = 0; d < n && d < cap; d++) {
        cuzk_device_stats ds;
        memset(&out[d], 0, sizeof out[d]);
        if (cuzk_engine_device_stats(e->eng, d, &ds) != CUZK_OK) continue;
        out[d].ordinal = ds.ordinal;
        memcpy(out[d].name, ds.name, sizeof out[d].name);
        out[d].name[sizeof out[d].name - 1] = 0;
        out[d].total_bytes = ds.total_bytes;
        out[d].free_bytes = ds.free_bytes;
        out[d].resident_bytes = ds.resident_bytes;
        out[d].pool_bytes = ds.pool_bytes;
        out[d].streamed_bytes = ds.streamed_bytes;
        memcpy(out[d].memory_plan, ds.memory_plan, sizeof out[d].memory_plan);
        out[d].memory_plan[sizeof out[d].memory_plan - 1] = 0;
        out[d].dead = ds.dead;
    }
    return n;
}

void dp_engine_mem_stats(dp_engine *e, dp_engine_mem *out) {
    cuzk_engine_stats s;
    memset(out, 0, sizeof *out);
    if (!e->eng) return;
    cuzk_engine_get_stats(e->eng, &s);
    out->budget_limit = s.budget_limit;
    out->budget_reserved = s.budget_reserved;
    out->budget_max_reserved = s.budget_max_reserved;
    out->budget_wait_ms = s.budget_wait_ms;
    out->reaper_pending_bytes = s.reaper_pending_bytes;
    out->pinned_bytes = s.pinned_bytes;
    out->pinned_limit = strcmp(cuzk_engine_backend_name(e->eng), "gpu") == 0 ? e->pinned_limit : 0;
}

/* A failure of making a circuit resident on the GPU that engine.gpu_fallback covers: the device
 * (or the gpu_budget) has too little memory, or the device is not usable. Anything else (a key the
 * prover rejects, ...) fails the load whatever the setting. */
static int gpu_residency_failure(cuzk_status st) { return st == CUZK_ERR_NOMEM_DEVICE || st == CUZK_ERR_DEVICE; }

/* The fallback CPU engine, made on first use. */
static cuzk_status fallback_engine(dp_engine *e, cuzk_engine **out, cuzk_error *err) {
    pthread_mutex_lock(&e->mu);
    cuzk_status st = CUZK_OK;
    if (!e->cpu) st = cuzk_engine_create(&e->cpu, &e->cpu_opts, err);
    *out = e->cpu;
    pthread_mutex_unlock(&e->mu);
    return st;
}

/* " (GPU 0: 1.20 GiB free of 79.19 GiB)" for each device of the main engine, into buf. */
static void device_memory_note(dp_engine *e, char *buf, size_t cap) {
    size_t n = 0;
    buf[0] = 0;
    for (int d = 0; e->eng && d < cuzk_engine_n_devices(e->eng) && n + 1 < cap; d++) {
        cuzk_device_stats ds;
        if (cuzk_engine_device_stats(e->eng, d, &ds) != CUZK_OK) continue;
        int w = snprintf(buf + n, cap - n, "%sGPU %d: %zu bytes free of %zu", n ? ", " : " (", ds.ordinal,
                         ds.free_bytes, ds.total_bytes);
        if (w < 0) break;
        n += (size_t)w < cap - n ? (size_t)w : cap - n - 1;
    }
    if (n && n + 2 <= cap) snprintf(buf + n, cap - n, ")");
}

/* Makes k->circ ready on the main engine, or on the fallback CPU engine when it cannot be made
 * resident on the GPU and engine.gpu_fallback is "cpu"; sets k->eng. The errors name the circuit. */
static cuzk_status place_circuit(dp_engine *e, const dcfg_circuit *c, dp_key *k, cuzk_error *err) {
    char why[1024];
    cuzk_status st;
    if (e->eng) {
        cuzk_error gerr;
        memset(&gerr, 0, sizeof gerr);
        st = cuzk_engine_preload(e->eng, k->circ, &gerr);
        if (st == CUZK_OK) {
            k->eng = e->eng;
            return CUZK_OK;
        }
        (void)cuzk_engine_release_circuit(e->eng, k->circ, NULL); /* what the devices before took */
        if (!gpu_residency_failure(st) || strcmp(cuzk_engine_backend_name(e->eng), "gpu") != 0) {
            if (err) *err = gerr;
            return st;
        }
        char note[256];
        device_memory_note(e, note, sizeof note);
        snprintf(why, sizeof why, "%s%s", gerr.msg[0] ? gerr.msg : cuzk_status_str(st), note);
    } else {
        st = CUZK_ERR_DEVICE;
        snprintf(why, sizeof why, "engine.backend = \"gpu\" found no usable device: %s", e->no_gpu);
    }
    if (!e->fallback_cpu)
        return cuzk_error_set(err, st, __FILE__, __LINE__,
                              "circuit %s cannot be made resident on the GPU: %s (engine.gpu_fallback = \"none\"; "
                              "\"cpu\" proves such a circuit on the CPU)", c->id, why);
    cuzk_engine *cpu = NULL;
    cuzk_error cerr;
    memset(&cerr, 0, sizeof cerr);
    if ((st = fallback_engine(e, &cpu, &cerr)) == CUZK_OK && (st = cuzk_engine_preload(cpu, k->circ, &cerr)) != CUZK_OK)
        (void)cuzk_engine_release_circuit(cpu, k->circ, NULL);
    if (st != CUZK_OK)
        return cuzk_error_set(err, st, __FILE__, __LINE__,
                              "circuit %s cannot be made resident on the GPU (%s), and the CPU fallback failed: %s",
                              c->id, why, cerr.msg);
    dlog(DLOG_WARN, "circuit %s cannot be made resident on the GPU: %s; engine.gpu_fallback = \"cpu\": it is proved "
                    "on the CPU", c->id, why);
    k->eng = cpu;
    k->fallback = 1;
    return CUZK_OK;
}

cuzk_status dp_key_files_check(const dcfg_circuit *c, cuzk_error *err) {
    cuzk_file_shape key, want;
    cuzk_status st;
    char what[1200];
    if (c->post_circuit || c->porep_circuit || c->snap_circuit) {
        st = c->post_circuit    ? cuzk_post_circuit_shape(&want, c->post_circuit, c->sectors, err)
             : c->porep_circuit ? cuzk_porep_circuit_shape(&want, c->porep_circuit, err)
                                : cuzk_snap_circuit_shape(&want, c->snap_circuit, err);
        if (st) return st;
        const char *name = c->post_circuit ? c->post_circuit : c->porep_circuit ? c->porep_circuit : c->snap_circuit;
        if (strcmp(name, c->id) == 0 && !c->sectors) snprintf(what, sizeof what, "circuit %s", c->id);
        else snprintf(what, sizeof what, "circuit %s (%s%s)", c->id, name, c->sectors ? ", a reduced sector count" : "");
        return cuzk_file_shape_check(c->params, &want, what, err);
    }
    /* a generic key: its own file, then its .r1cs against it */
    const char *main = c->zkey ? c->zkey : c->params;
    if (c->zkey) { /* a .zkey starts with its magic: without it, say so (not what the bytes would be as parameters) */
        char magic[4] = {0};
        FILE *f = fopen(main, "rb");
        size_t got = f ? fread(magic, 1, 4, f) : 0;
        if (f) fclose(f);
        if (f && (got != 4 || memcmp(magic, "zkey", 4) != 0))
            return cuzk_error_set(err, CUZK_ERR_FORMAT, __FILE__, __LINE__, "zkey: %s: bad magic (expected 'zkey')", main);
    }
    if ((st = cuzk_file_shape_read(&key, main, err))) return st;
    if (c->zkey && strcmp(key.kind, "zkey") != 0)
        return cuzk_error_set(err, CUZK_ERR_FORMAT, __FILE__, __LINE__, "%s: a %s, not a .zkey (zkey = \"...\")", main, key.kind);
    if (c->params && strcmp(key.kind, "bellperson params") != 0 && strcmp(key.kind, "phase-2 MPC params") != 0)
        return cuzk_error_set(err, CUZK_ERR_FORMAT, __FILE__, __LINE__, "%s: a %s, not bellperson parameters (params = \"...\")",
                              main, key.kind);
    if (!c->r1cs) return CUZK_OK;
    snprintf(what, sizeof what, "the key %s", main);
    return cuzk_file_shape_check(c->r1cs, &key, what, err);
}

/* A failed load's message names the file at fault: the loaders name it in most messages; where
 * one does not, the circuit's key file is put in front. */
static cuzk_status name_key_file(const dcfg_circuit *c, cuzk_status st, cuzk_error *err) {
    if (!err) return st;
    const char *files[3] = {c->zkey, c->params, c->r1cs};
    for (int i = 0; i < 3; i++)
        if (files[i] && strstr(err->msg, files[i])) return st;
    char m[sizeof err->msg];
    memcpy(m, err->msg, sizeof m);
    return cuzk_error_set(err, st, __FILE__, __LINE__, "%s: %.700s", c->zkey ? c->zkey : c->params,
                          m[0] ? m : cuzk_status_str(st));
}

cuzk_status dp_key_load(dp_engine *e, const dcfg_circuit *c, dp_key **out, uint64_t *bytes, cuzk_error *err) {
    *out = NULL;
    *bytes = 0;
    cuzk_pk_load_opts lo;
    memset(&lo, 0, sizeof lo);
    lo.r1cs_path = c->zkey ? c->r1cs : NULL;
    /* srs.from_file on the GPU: the queries of a .params go from the file to the device at preload,
     * never whole into host memory (srs.keep_host_g1 keeps a host copy: decoded at load) */
    lo.defer_queries = c->params && e->srs_from_file && !e->keep_host_g1 && strcmp(dp_engine_backend(e), "gpu") == 0;
    cuzk_pk *pk = NULL;
    cuzk_status st = c->zkey           ? cuzk_pk_load_zkey(&pk, c->zkey, &lo, err)
                     : c->post_circuit ? cuzk_post_pk_load(&pk, c->post_circuit, c->sectors, c->params, &lo, err)
                     : c->porep_circuit ? cuzk_porep_pk_load(&pk, c->porep_circuit, c->params, &lo, err)
                     : c->snap_circuit ? cuzk_snap_pk_load(&pk, c->snap_circuit, c->params, &lo, err)
                                       : cuzk_pk_load_params(&pk, c->params, c->r1cs, &lo, err);
    if (st) return name_key_file(c, st, err);
    cuzk_pk_info info;
    memset(&info, 0, sizeof info);
    cuzk_pk_describe(pk, &info, NULL);
    dp_key *k = calloc(1, sizeof *k);
    if (!k) {
        cuzk_pk_release(pk);
        return cuzk_error_set(err, CUZK_ERR_NOMEM, __FILE__, __LINE__, "out of memory");
    }
    snprintf(k->id, sizeof k->id, "%s", c->id);
    k->has_circuit = info.has_circuit;
    k->post_circuit = c->post_circuit;
    k->post_sectors = c->sectors;
    k->porep_circuit = c->porep_circuit;
    k->snap_circuit = c->snap_circuit;
    k->n_vars = info.n_vars;
    k->n_public = info.n_public;
    k->curve = info.curve;
    /* every key, BLS12-381 or BN254, is an engine circuit: one dispatcher, budget and device set */
    if ((st = cuzk_vk_from_pk(&k->vk, pk, err)) == CUZK_OK && (st = cuzk_circuit_create(&k->circ, pk, err)) == CUZK_OK)
        st = place_circuit(e, c, k, err);
    if (st == CUZK_OK && c->params && !k->fallback && !e->keep_host_g1 && strcmp(cuzk_engine_backend_name(k->eng), "gpu") == 0) {
        /* the device holds the G1 queries now: give back their host copy (srs.keep_host_g1) */
        size_t freed = 0;
        cuzk_error rerr;
        memset(&rerr, 0, sizeof rerr);
        if (cuzk_engine_release_host_g1(k->eng, k->circ, &freed, &rerr) == CUZK_OK) {
            k->host_released = freed;
            if (freed || !lo.defer_queries)
                dlog(DLOG_INFO, "circuit %s: released the host copies of its G1 queries (%zu bytes; "
                                "srs.keep_host_g1 = true keeps them)", c->id, freed);
            else
                dlog(DLOG_INFO, "circuit %s: its G1 queries went from the file to the device, never whole into host "
                                "memory (srs.keep_host_g1 = true decodes them at load and keeps them)", c->id);
        } else {
            dlog(DLOG_WARN, "circuit %s: the host copies of its G1 queries are kept: %s", c->id, rerr.msg);
        }
    }
    cuzk_pk_release(pk); /* the circuit holds its own reference */
    if (st) {
        dp_key_free(e, k);
        return st;
    }
    *bytes = info.host_bytes > k->host_released ? info.host_bytes - k->host_released : 0;
    *out = k;
    return CUZK_OK;
}

void dp_key_free(dp_engine *e, dp_key *k) {
    if (!k) return;
    (void)e;
    if (k->circ) {
        if (k->eng) (void)cuzk_engine_release_circuit(k->eng, k->circ, NULL); /* no job of it runs: never BUSY */
        cuzk_circuit_destroy(k->circ);
    }
    cuzk_vk_free(k->vk);
    free(k);
}

static void sleep_ms(unsigned ms) {
    struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

/* The debug delay and hold: waits, polling the cancel flag every 5 ms. */
static cuzk_status wait_debug(const dp_input *in, cuzk_error *err) {
    for (uint64_t waited = 0; in->hold || waited < in->delay_ms; waited += 5) {
        if (*in->cancel) return cuzk_error_set(err, CUZK_ERR_CANCELLED, __FILE__, __LINE__, "cancelled");
        sleep_ms(5);
    }
    if (*in->cancel) return cuzk_error_set(err, CUZK_ERR_CANCELLED, __FILE__, __LINE__, "cancelled");
    return CUZK_OK;
}

typedef struct synth_ctx {
    const dp_input *in;
    cuzk_curve curve;     /* the key's: the .wtns is converted into this field */
    double ms;
} synth_ctx;

static double now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* The engine's synthesis callback: the .wtns bytes into the engine's buffer, Montgomery in the
 * key's field (a .wtns of another field: CUZK_ERR_CURVE; of another length: CUZK_ERR_MISMATCH). */
static cuzk_status synth(void *vctx, uint32_t partition, uint64_t *witness, size_t n_vars, cuzk_error *err) {
    (void)partition;
    synth_ctx *sc = vctx;
    double t0 = now_ms();
    cuzk_status st = wait_debug(sc->in, err);
    if (st == CUZK_OK) {
        cuzk_witness w = {CUZK_WITNESS_WTNS, sc->in->wtns, sc->in->wtns_len};
        st = cuzk_witness_convert(&w, sc->curve, CUZK_WITNESS_FR_MONT, witness, n_vars, err);
    }
    sc->ms = now_ms() - t0;
    return st;
}

/* A verified engine proof (proof_len bytes in its curve's encoding) and its public inputs (n_public
 * canonical 32-byte values) as the job's answer, owned by out: snarkjs proof.json and public.json,
 * and on BLS12-381 the 192 bellperson bytes (a BN254 answer has no proof bytes: the wire's `proof`
 * field is the bellperson encoding, which BN254 has not). */
static cuzk_status proof_out(dp_proof *out, cuzk_curve curve, const uint8_t *proof, size_t proof_len, const uint8_t *pub,
                             uint32_t n_public, cuzk_error *err) {
    cuzk_proof p;
    cuzk_status st = cuzk_proof_from_bytes(&p, curve, proof, proof_len, pub, n_public, err);
    if (st != CUZK_OK) return st;
    if (p.has_bellperson) out->proof = malloc(CUZK_PROOF_BELLPERSON_BYTES);
    out->proof_json = p.proof_json ? strdup(p.proof_json) : NULL;
    out->public_json = p.public_json ? strdup(p.public_json) : NULL;
    if (out->proof) {
        memcpy(out->proof, p.bellperson, CUZK_PROOF_BELLPERSON_BYTES);
        out->proof_len = CUZK_PROOF_BELLPERSON_BYTES;
    }
    int has_bellperson = p.has_bellperson;
    cuzk_proof_free(&p);
    if ((has_bellperson && !out->proof) || !out->proof_json || !out->public_json) {
        dp_proof_free(out);
        return cuzk_error_set(err, CUZK_ERR_NOMEM, __FILE__, __LINE__, "out of memory for the proof");
    }
    return CUZK_OK;
}

/* The answer to a finished engine job of one partition: cancelled, failed (the engine's error
 * jerr), or its proof checked against the key with the public inputs pub (n_public canonical
 * 32-byte values: the engine's for a generic job, those derived from the public data for PoSt)
 * and packed by proof_out. */
static cuzk_status job_answer(const dp_key *k, const cuzk_job_result *res, const cuzk_error *jerr, const dp_input *in,
                              const uint8_t *pub, uint32_t n_public, int post, dp_proof *out, cuzk_error *err) {
    if (res->state == CUZK_JOB_CANCELLED || *in->cancel)
        return cuzk_error_set(err, CUZK_ERR_CANCELLED, __FILE__, __LINE__, "cancelled");
    if (res->state == CUZK_JOB_FAILED) {
        if (err) *err = *jerr;
        return res->status ? res->status : CUZK_ERR_ARG;
    }
    cuzk_error verr;
    memset(&verr, 0, sizeof verr);
    if (cuzk_verify(k->vk, CUZK_PUBLIC_CANON, pub, (size_t)n_public * 32, CUZK_PROOF_CURVE_BYTES, res->proofs,
                    res->proof_bytes, &verr) != CUZK_OK)
        return post ? cuzk_error_set(err, CUZK_ERR_UNSAT, __FILE__, __LINE__,
                                     "the PoSt proof does not verify against the public inputs derived from the public "
                                     "data (a parameter file of another circuit?): %s", verr.msg)
                    : cuzk_error_set(err, CUZK_ERR_UNSAT, __FILE__, __LINE__,
                                     "circuit %s: the proof does not verify against the key: the witness does not "
                                     "satisfy the circuit, or the key is corrupt (%s)", k->id, verr.msg);
    return proof_out(out, res->curve, res->proofs, res->proof_bytes, pub, n_public, err);
}

/* One job of one partition on the key's engine (the main one, or the CPU engine of
 * engine.gpu_fallback): submit (a budget smaller than one proof is engine.job_budget's error,
 * naming the circuit), publish the id through in->started, honour a cancel that came before it,
 * wait. On CUZK_OK *res holds the result (the caller frees it) and *jerr what the wait reported
 * (a FAILED job's error, for job_answer); a failed wait's error goes to *err as well. */
static cuzk_status engine_run(dp_key *k, const cuzk_job_desc *d, const dp_input *in, cuzk_job_result *res,
                              cuzk_error *jerr, cuzk_error *err) {
    cuzk_job_id id = 0;
    cuzk_engine *eng = k->eng;
    cuzk_status st = cuzk_engine_submit(eng, d, &id, err);
    if (st == CUZK_ERR_MISMATCH) { /* the engine's budget is smaller than one proof of this circuit */
        char why[sizeof err->msg];
        snprintf(why, sizeof why, "%s", err && err->msg[0] ? err->msg : "one proof does not fit");
        return cuzk_error_set(err, CUZK_ERR_NOMEM, __FILE__, __LINE__, "circuit %s: engine.job_budget: %s", k->id, why);
    }
    if (st) return st;
    if (in->started) in->started(in->started_ctx, k->fallback ? id | DP_FALLBACK_JOB : id);
    if (*in->cancel) cuzk_engine_cancel(eng, id); /* a cancel that came before `started` published the id */
    memset(res, 0, sizeof *res);
    memset(jerr, 0, sizeof *jerr);
    st = cuzk_engine_wait(eng, id, res, jerr);
    if (st && err) *err = *jerr;
    return st;
}

static cuzk_status prove_engine(dp_engine *e, dp_key *k, const dp_input *in, dp_proof *out, cuzk_error *err) {
    synth_ctx sc = {in, k->curve, 0};
    cuzk_job_desc d;
    memset(&d, 0, sizeof d);
    d.circuit = k->circ;
    d.n_partitions = 1;
    d.synth = synth;
    d.synth_ctx = &sc;
    d.check_witness = k->has_circuit; /* names the first failing constraint; the verify below catches the rest */
    d.witness_form = CUZK_WITNESS_FR_MONT;
    (void)e;
    cuzk_job_result res;
    cuzk_error jerr;
    cuzk_status st = engine_run(k, &d, in, &res, &jerr, err);
    if (st) return st;
    out->synth_ms = sc.ms;
    if (res.timings) out->prove_ms = res.timings[0].start_call_ms + res.timings[0].finish_call_ms;
    st = job_answer(k, &res, &jerr, in, res.public_inputs, res.n_public, 0, out, err);
    cuzk_job_result_free(&res);
    return st;
}

/* ---- PoSt: vanilla proofs -> cuzk_post_job -> one engine job of one partition ---- */
typedef struct post_synth_ctx {
    const dp_input *in;
    cuzk_post_job *job;
    double ms;
} post_synth_ctx;

static cuzk_status post_synth(void *vctx, uint32_t partition, uint64_t *witness, size_t n_vars, cuzk_error *err) {
    post_synth_ctx *sc = vctx;
    double t0 = now_ms();
    cuzk_status st = wait_debug(sc->in, err);
    if (st == CUZK_OK) st = cuzk_post_job_synth(sc->job, partition, witness, n_vars, err);
    sc->ms = now_ms() - t0;
    return st;
}

/* Where each of in's vanilla proofs starts in in->wtns (the job table lays them end to end). */
static cuzk_status split_vanilla(const uint8_t **bufs, const dp_input *in, const char *what, cuzk_error *err) {
    if (!in->n_vanilla || !in->vanilla_lens)
        return cuzk_error_set(err, CUZK_ERR_ARG, __FILE__, __LINE__, "a %s job without vanilla proofs", what);
    size_t off = 0;
    for (size_t i = 0; i < in->n_vanilla; i++) {
        if (in->vanilla_lens[i] > in->wtns_len - off) /* the job table's own packing: never */
            return cuzk_error_set(err, CUZK_ERR_ARG, __FILE__, __LINE__, "vanilla proof %zu overruns the request", i);
        bufs[i] = in->wtns + off;
        off += in->vanilla_lens[i];
    }
    if (off != in->wtns_len)
        return cuzk_error_set(err, CUZK_ERR_ARG, __FILE__, __LINE__,
                              "the vanilla proofs (%zu bytes) do not fill the request's %zu bytes", off, in->wtns_len);
    return CUZK_OK;
}

cuzk_status dp_post_request(cuzk_post_request *rq, const uint8_t **bufs, const char *circuit, uint32_t sectors,
                            const dp_input *in, int nthreads, cuzk_error *err) {
    memset(rq, 0, sizeof *rq);
    cuzk_status st = split_vanilla(bufs, in, "PoSt", err);
    if (st) return st;
    rq->circuit = circuit;
    rq->sectors = sectors;
    rq->vanilla_bufs = bufs;
    rq->vanilla_lens = in->vanilla_lens;
    rq->n_vanilla = in->n_vanilla;
    memcpy(rq->randomness, in->randomness, 32);
    rq->partition = in->partition;
    rq->api_version = in->api_version;
    rq->nthreads = nthreads;
    return CUZK_OK;
}

void dp_porep_request(cuzk_porep_request *rq, const dp_input *in, int nthreads) {
    memset(rq, 0, sizeof *rq);
    rq->c1 = in->wtns;
    rq->c1_len = in->wtns_len;
    rq->check_replica_id = 1; /* Curio names the sector and the miner: replica_id must follow from them */
    cuzk_porep_prover_id(rq->prover_id, in->miner_id);
    rq->sector_id = in->sector_id;
    rq->nthreads = nthreads;
}

cuzk_status dp_snap_request(cuzk_snap_request *rq, const uint8_t **bufs, const dp_input *in, int nthreads,
                            cuzk_error *err) {
    memset(rq, 0, sizeof *rq);
    cuzk_status st = split_vanilla(bufs, in, "SnapDeals", err);
    if (st) return st;
    rq->registered_proof = in->registered_proof;
    rq->parts = bufs;
    rq->part_lens = in->vanilla_lens;
    rq->n_parts = in->n_vanilla;
    memcpy(rq->comm_r_old, in->comm_r_old, 32);
    memcpy(rq->comm_d_new, in->comm_d_new, 32);
    memcpy(rq->comm_r_new, in->comm_r_new, 32);
    rq->nthreads = nthreads;
    return CUZK_OK;
}

static cuzk_status prove_post(dp_engine *e, dp_key *k, const dp_input *in, dp_proof *out, cuzk_error *err) {
    const uint8_t **bufs = calloc(in->n_vanilla ? in->n_vanilla : 1, sizeof *bufs);
    if (!bufs) return cuzk_error_set(err, CUZK_ERR_NOMEM, __FILE__, __LINE__, "out of memory");
    cuzk_post_request rq;
    cuzk_status st = dp_post_request(&rq, bufs, k->post_circuit, k->post_sectors, in, e->synth_threads, err);
    if (st) {
        free(bufs);
        return st;
    }
    post_synth_ctx sc = {in, NULL, 0};
    double t0 = now_ms();
    st = cuzk_post_job_create(&sc.job, &rq, err); /* reads and checks every vanilla proof */
    free(bufs);
    if (st) return st;
    double t_check = now_ms() - t0;
    uint8_t *pub = NULL;
    size_t np = cuzk_post_job_n_public(sc.job);
    cuzk_job_result res;
    memset(&res, 0, sizeof res);
    int have_res = 0;
    if (cuzk_post_job_partitions(sc.job) != 1) {
        st = cuzk_error_set(err, CUZK_ERR_ARG, __FILE__, __LINE__, "%zu vanilla proofs make %u partitions: a job proves one",
                            in->n_vanilla, cuzk_post_job_partitions(sc.job));
        goto out;
    }
    if (cuzk_post_job_n_vars(sc.job) != k->n_vars || np != k->n_public) {
        st = cuzk_error_set(err, CUZK_ERR_MISMATCH, __FILE__, __LINE__,
                            "the PoSt job has %zu values and %zu public inputs, the key %zu and %u", cuzk_post_job_n_vars(sc.job),
                            np, k->n_vars, k->n_public);
        goto out;
    }
    /* the public inputs from the public data alone (comm_r, sector ids, randomness) */
    pub = malloc(np * 32 + 1);
    if (!pub) { st = cuzk_error_set(err, CUZK_ERR_NOMEM, __FILE__, __LINE__, "out of memory"); goto out; }
    if ((st = cuzk_post_job_public_inputs(sc.job, 0, pub, err)) != CUZK_OK) goto out;
    cuzk_job_desc d;
    memset(&d, 0, sizeof d);
    d.circuit = k->circ;
    d.n_partitions = 1;
    d.synth = post_synth;
    d.synth_ctx = &sc;
    d.witness_form = CUZK_WITNESS_FR_MONT;
    (void)e;
    cuzk_error jerr;
    if ((st = engine_run(k, &d, in, &res, &jerr, err)) != CUZK_OK) goto out;
    have_res = 1;
    out->synth_ms = sc.ms + t_check;
    if (res.timings) out->prove_ms = res.timings[0].start_call_ms + res.timings[0].finish_call_ms;
    st = job_answer(k, &res, &jerr, in, pub, (uint32_t)np, 1, out, err);
out:
    if (have_res) cuzk_job_result_free(&res);
    free(pub);
    cuzk_post_job_free(sc.job);
    return st;
}

/* ---- PoRep and SnapDeals: every partition of a sector as one engine job ---- */
typedef struct parts_synth_ctx {
    const dp_input *in;
    cuzk_synth_fn fn;  /* cuzk_porep_job_synth, cuzk_snap_job_synth */
    void *job;
    double ms; /* summed over partitions (they may overlap with proving) */
    pthread_mutex_t mu;
} parts_synth_ctx;

static cuzk_status parts_synth(void *vctx, uint32_t partition, uint64_t *witness, size_t n_vars, cuzk_error *err) {
    parts_synth_ctx *sc = vctx;
    double t0 = now_ms();
    cuzk_status st = wait_debug(sc->in, err);
    if (st == CUZK_OK) st = sc->fn(sc->job, partition, witness, n_vars, err);
    pthread_mutex_lock(&sc->mu);
    sc->ms += now_ms() - t0;
    pthread_mutex_unlock(&sc->mu);
    return st;
}

/* public.json of a multi-partition answer: one snarkjs public.json array per partition, in an array */
static char *parts_public_json(const uint8_t *proofs, size_t proof_bytes, const uint8_t *pub, uint32_t parts, size_t np) {
    size_t cap = 16, n = 0;
    char *s = malloc(cap);
    if (!s) return NULL;
    s[n++] = '[';
    for (uint32_t k = 0; k < parts; k++) {
        cuzk_proof pf;
        if (cuzk_proof_from_bytes(&pf, CUZK_CURVE_BLS12_381, proofs + (size_t)k * proof_bytes, proof_bytes,
                                  pub + (size_t)k * np * 32, (uint32_t)np, NULL) != CUZK_OK) {
            free(s);
            return NULL;
        }
        size_t m = strlen(pf.public_json);
        char *t = realloc(s, cap = n + m + 4);
        if (!t) {
            cuzk_proof_free(&pf);
            free(s);
            return NULL;
        }
        s = t;
        if (k) s[n++] = ',';
        memcpy(s + n, pf.public_json, m);
        n += m;
        cuzk_proof_free(&pf);
    }
    s[n++] = ']';
    s[n] = 0;
    return s;
}

/* Proves the parts partitions of sc's job (checked already) as one engine job of the key, verifies
 * each proof against pub (parts x np canonical 32-byte values, from the public data alone) and
 * packs the answer: the proofs concatenated in partition order, public_json one array per
 * partition. what names the proof in a failed verification ("PoRep", "SnapDeals"). */
static cuzk_status prove_parts(dp_key *k, const dp_input *in, parts_synth_ctx *sc, uint32_t parts, const uint8_t *pub,
                               size_t np, const char *what, dp_proof *out, cuzk_error *err) {
    cuzk_job_desc d;
    memset(&d, 0, sizeof d);
    d.circuit = k->circ;
    d.n_partitions = parts;
    d.synth = parts_synth;
    d.synth_ctx = sc;
    d.witness_form = CUZK_WITNESS_FR_MONT;
    cuzk_job_result res;
    cuzk_error jerr;
    cuzk_status st = engine_run(k, &d, in, &res, &jerr, err);
    if (st) return st;
    if (res.state == CUZK_JOB_CANCELLED || *in->cancel) {
        st = cuzk_error_set(err, CUZK_ERR_CANCELLED, __FILE__, __LINE__, "cancelled");
        goto out;
    }
    if (res.state == CUZK_JOB_FAILED) {
        if (err) *err = jerr;
        st = res.status ? res.status : CUZK_ERR_ARG;
        goto out;
    }
    for (uint32_t p = 0; p < parts && res.timings; p++)
        out->prove_ms += res.timings[p].start_call_ms + res.timings[p].finish_call_ms;
    for (uint32_t p = 0; p < parts; p++) {
        cuzk_error verr;
        memset(&verr, 0, sizeof verr);
        if (cuzk_verify(k->vk, CUZK_PUBLIC_CANON, pub + (size_t)p * np * 32, np * 32, CUZK_PROOF_CURVE_BYTES,
                        res.proofs + (size_t)p * res.proof_bytes, res.proof_bytes, &verr) != CUZK_OK) {
            /* the request passed every check of its vanilla proofs and the witness was made from them:
             * a proof that fails the key's own verifying key means the daemon's key is not one
             * consistent key of the circuit (a changed or corrupt .params), not a bad request */
            st = cuzk_error_set(err, CUZK_ERR_UNSAT, __FILE__, __LINE__,
                                "server error: partition %u: the %s proof does not verify against the key's own verifying key "
                                "(%s): the key of circuit %s is not one consistent key of the circuit (the daemon's own "
                                ".params is changed or corrupt, or made for another circuit), not the request's fault",
                                p, what, verr.msg, k->id);
            goto out;
        }
    }
    out->proof = malloc((size_t)parts * res.proof_bytes);
    out->public_json = parts_public_json(res.proofs, res.proof_bytes, pub, parts, np);
    out->proof_json = strdup("null");
    if (!out->proof || !out->public_json || !out->proof_json) {
        dp_proof_free(out);
        st = cuzk_error_set(err, CUZK_ERR_NOMEM, __FILE__, __LINE__, "out of memory for the proof");
        goto out;
    }
    memcpy(out->proof, res.proofs, (size_t)parts * res.proof_bytes);
    out->proof_len = (size_t)parts * res.proof_bytes;
out:
    cuzk_job_result_free(&res);
    return st;
}

/* PoRep: a C1 output -> cuzk_porep_job -> one engine job of every partition */
static cuzk_status prove_porep(dp_engine *e, dp_key *k, const dp_input *in, dp_proof *out, cuzk_error *err) {
    cuzk_porep_request rq;
    dp_porep_request(&rq, in, e->synth_threads);
    cuzk_porep_job *job = NULL;
    parts_synth_ctx sc;
    memset(&sc, 0, sizeof sc);
    sc.in = in;
    sc.fn = cuzk_porep_job_synth;
    pthread_mutex_init(&sc.mu, NULL);
    double t0 = now_ms();
    cuzk_status st = cuzk_porep_job_create(&job, &rq, err); /* reads and checks the whole C1 output */
    double t_check = now_ms() - t0;
    uint8_t *pub = NULL;
    if (st) goto out;
    sc.job = job;
    uint32_t parts = cuzk_porep_job_partitions(job);
    size_t np = cuzk_porep_job_n_public(job);
    if (cuzk_porep_job_registered_proof(job) != in->registered_proof) {
        st = cuzk_error_set(err, CUZK_ERR_INVALID, __FILE__, __LINE__,
                            "the C1 output is of registered proof %" PRIu64 ", the request names %" PRIu64,
                            cuzk_porep_job_registered_proof(job), in->registered_proof);
        goto out;
    }
    if (strcmp(cuzk_porep_job_circuit(job), k->porep_circuit) != 0 || cuzk_porep_job_n_vars(job) != k->n_vars ||
        np != k->n_public) {
        st = cuzk_error_set(err, CUZK_ERR_MISMATCH, __FILE__, __LINE__,
                            "the C1 output is for circuit %s (%zu values, %zu public inputs), the key %s has %zu and %u",
                            cuzk_porep_job_circuit(job), cuzk_porep_job_n_vars(job), np, k->id, k->n_vars,
                            k->n_public);
        goto out;
    }
    /* the public inputs from the public data alone (replica_id, comm_d, comm_r, seed, the graph) */
    pub = malloc((size_t)parts * np * 32 + 1);
    if (!pub) { st = cuzk_error_set(err, CUZK_ERR_NOMEM, __FILE__, __LINE__, "out of memory"); goto out; }
    for (uint32_t p = 0; p < parts && st == CUZK_OK; p++)
        st = cuzk_porep_job_public_inputs(job, p, pub + (size_t)p * np * 32, err);
    if (st) goto out;
    st = prove_parts(k, in, &sc, parts, pub, np, "PoRep", out, err);
    out->synth_ms = sc.ms + t_check;
out:
    free(pub);
    cuzk_porep_job_free(job);
    pthread_mutex_destroy(&sc.mu);
    return st;
}

/* SnapDeals: the partition proofs and the commitments -> cuzk_snap_job -> one engine job of every
 * partition */
static cuzk_status prove_snap(dp_engine *e, dp_key *k, const dp_input *in, dp_proof *out, cuzk_error *err) {
    const uint8_t **bufs = calloc(in->n_vanilla ? in->n_vanilla : 1, sizeof *bufs);
    if (!bufs) return cuzk_error_set(err, CUZK_ERR_NOMEM, __FILE__, __LINE__, "out of memory");
    cuzk_snap_request rq;
    cuzk_status st = dp_snap_request(&rq, bufs, in, e->synth_threads, err);
    if (st) {
        free(bufs);
        return st;
    }
    cuzk_snap_job *job = NULL;
    parts_synth_ctx sc;
    memset(&sc, 0, sizeof sc);
    sc.in = in;
    sc.fn = cuzk_snap_job_synth;
    pthread_mutex_init(&sc.mu, NULL);
    double t0 = now_ms();
    st = cuzk_snap_job_create(&job, &rq, err); /* reads and checks every partition proof */
    double t_check = now_ms() - t0;
    free(bufs);
    uint8_t *pub = NULL;
    if (st) goto out;
    sc.job = job;
    uint32_t parts = cuzk_snap_job_partitions(job);
    size_t np = cuzk_snap_job_n_public(job);
    if (strcmp(cuzk_snap_job_circuit(job), k->snap_circuit) != 0 || cuzk_snap_job_n_vars(job) != k->n_vars ||
        np != k->n_public) {
        st = cuzk_error_set(err, CUZK_ERR_MISMATCH, __FILE__, __LINE__,
                            "the update is for circuit %s (%zu values, %zu public inputs), the key %s has %zu and %u",
                            cuzk_snap_job_circuit(job), cuzk_snap_job_n_vars(job), np, k->id, k->n_vars, k->n_public);
        goto out;
    }
    /* the public inputs from the public data alone (the three commitments, the partition, h) */
    pub = malloc((size_t)parts * np * 32 + 1);
    if (!pub) { st = cuzk_error_set(err, CUZK_ERR_NOMEM, __FILE__, __LINE__, "out of memory"); goto out; }
    for (uint32_t p = 0; p < parts && st == CUZK_OK; p++)
        st = cuzk_snap_job_public_inputs(job, p, pub + (size_t)p * np * 32, err);
    if (st) goto out;
    st = prove_parts(k, in, &sc, parts, pub, np, "SnapDeals", out, err);
    out->synth_ms = sc.ms + t_check;
out:
    free(pub);
    cuzk_snap_job_free(job);
    pthread_mutex_destroy(&sc.mu);
    return st;
}

cuzk_status dp_prove(dp_engine *e, dp_key *k, const dp_input *in, dp_proof *out, cuzk_error *err) {
    memset(out, 0, sizeof *out);
    if (k->porep_circuit) {
        if (!in->porep)
            return cuzk_error_set(err, CUZK_ERR_ARG, __FILE__, __LINE__, "circuit %s proves POREP_SEAL_COMMIT jobs only", k->id);
        return prove_porep(e, k, in, out, err);
    }
    if (k->snap_circuit) {
        if (!in->snap)
            return cuzk_error_set(err, CUZK_ERR_ARG, __FILE__, __LINE__, "circuit %s proves SNAP_DEALS_UPDATE jobs only", k->id);
        return prove_snap(e, k, in, out, err);
    }
    if (k->post_circuit) return prove_post(e, k, in, out, err);
    return prove_engine(e, k, in, out, err);
}

void dp_cancel(dp_engine *e, uint64_t engine_job) {
    if (!e || !engine_job) return;
    if (engine_job & DP_FALLBACK_JOB) {
        pthread_mutex_lock(&e->mu);
        cuzk_engine *cpu = e->cpu;
        pthread_mutex_unlock(&e->mu);
        if (cpu) (void)cuzk_engine_cancel(cpu, engine_job & ~DP_FALLBACK_JOB);
    } else if (e->eng) {
        (void)cuzk_engine_cancel(e->eng, engine_job);
    }
}

uint64_t dp_key_host_released(const dp_key *k) { return k ? k->host_released : 0; }

const char *dp_key_backend(const dp_key *k) {
    if (!k) return "";
    return k->fallback ? "cpu (GPU fallback)" : cuzk_engine_backend_name(k->eng);
}

void dp_proof_free(dp_proof *p) {
    free(p->proof);
    free(p->proof_json);
    free(p->public_json);
    memset(p, 0, sizeof *p);
}
