/* Synthetic PoRep-shaped circuits and their keys (src/benchkit/benchkit.h, section 3): the circuit of
 * src/r1cs/synthetic.h behind a reference-counted handle, INSECURE parameters made in memory
 * (src/groth16/setup.h) or loaded through the SRS store (src/srs/store.h), each wrapped into a
 * proving key (groth16_pk_wrap_bellperson) whose owner keeps the parameters and a reference to
 * the circuit; and engines on fake devices (src/engine/engine_internal.h). */
#include "benchkit/benchkit.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "benchkit/keys.h"
#include "engine/engine_internal.h"
#include "groth16/pk.h"
#include "r1cs/synthetic.h"
#include "srs/store.h"
#include "util/log.h"
#include "util/timer.h"

struct benchkit_synthetic {
    atomic_int refs;
    synthetic_params sp;
    r1cs cs;
    synthetic_stats stats;
};

void benchkit_synthetic_opts_init(benchkit_synthetic_opts *o, uint32_t constraints) {
    if (!o) return;
    synthetic_params sp;
    synthetic_params_default(&sp, constraints);
    o->constraints = sp.n_constraints;
    o->n_public = sp.n_public;
    o->frac01 = sp.frac01;
    o->seed = sp.seed;
}

#define SYNTH_MAX_ROWS ((uint64_t)1 << 28)

cuzk_status benchkit_synthetic_create(benchkit_synthetic **out, const benchkit_synthetic_opts *o, cuzk_error *err) {
    if (!out || !o) return ERR(err, CUZK_ERR_ARG, "benchkit_synthetic_create: NULL argument");
    *out = NULL;
    uint64_t rows = (uint64_t)o->constraints + o->n_public + 1;
    if (o->constraints < 8 || rows > SYNTH_MAX_ROWS)
        return ERR(err, CUZK_ERR_ARG,
                   "synthetic circuit: %u constraints and %u public inputs (at least 8 constraints; constraints + "
                   "public inputs + 1 at most 2^28)", o->constraints, o->n_public);
    if (!(o->frac01 >= 0 && o->frac01 <= 1))
        return ERR(err, CUZK_ERR_ARG, "synthetic circuit: frac01 %g outside [0, 1]", o->frac01);
    benchkit_synthetic *s = calloc(1, sizeof *s);
    if (!s) return ERR(err, CUZK_ERR_NOMEM, "synthetic circuit");
    atomic_init(&s->refs, 1);
    synthetic_params_default(&s->sp, o->constraints);
    s->sp.n_public = o->n_public;
    s->sp.frac01 = o->frac01;
    s->sp.seed = o->seed;
    cuzk_status st = synthetic_r1cs(&s->cs, &s->sp, err);
    if (st == CUZK_OK) st = synthetic_stats_compute(&s->stats, &s->cs, NULL, err);
    if (st != CUZK_OK) {
        r1cs_free(&s->cs);
        free(s);
        return st;
    }
    *out = s;
    return CUZK_OK;
}

static uint64_t csr_host_bytes(const csr_matrix *m) {
    return 8 * ((uint64_t)m->n_rows + 1) + 8 * (uint64_t)m->nnz + sizeof(fr) * (uint64_t)m->n_coef;
}

void benchkit_synthetic_describe(const benchkit_synthetic *s, benchkit_synthetic_info *out) {
    if (!out) return;
    memset(out, 0, sizeof *out);
    if (!s) return;
    out->n_constraints = s->cs.n_constraints;
    out->n_public = s->cs.n_public;
    out->n_vars = s->cs.n_vars;
    uint64_t n = (uint64_t)s->cs.n_constraints + s->cs.n_public + 1, m = 1;
    while (m < n) m <<= 1;
    out->domain_size = (uint32_t)m;
    out->a_per_row = s->stats.a_per_row;
    out->b_per_row = s->stats.b_per_row;
    out->c_per_row = s->stats.c_per_row;
    out->aux_in_a = s->stats.aux_in_a;
    out->aux_in_b = s->stats.aux_in_b;
    out->host_bytes = sizeof *s + csr_host_bytes(&s->cs.a) + csr_host_bytes(&s->cs.b) + csr_host_bytes(&s->cs.c);
}

cuzk_status benchkit_synthetic_witness(const benchkit_synthetic *s, uint64_t witness_seed, uint64_t *w, size_t n_vars,
                                       int nthreads, cuzk_error *err) {
    if (!s || !w) return ERR(err, CUZK_ERR_ARG, "benchkit_synthetic_witness: NULL argument");
    if ((uintptr_t)w % 8) return ERR(err, CUZK_ERR_ARG, "benchkit_synthetic_witness: the buffer must be 8-byte aligned");
    if (n_vars != s->cs.n_vars)
        return ERR(err, CUZK_ERR_MISMATCH, "benchkit_synthetic_witness: %zu values asked, the circuit has %u", n_vars,
                   s->cs.n_vars);
    return synthetic_witness_mt((fr *)w, n_vars, &s->cs, &s->sp, witness_seed, nthreads, err);
}

benchkit_synthetic *benchkit_synthetic_retain(benchkit_synthetic *s) {
    if (s) atomic_fetch_add(&s->refs, 1);
    return s;
}

void benchkit_synthetic_release(benchkit_synthetic *s) {
    if (!s || atomic_fetch_sub(&s->refs, 1) != 1) return;
    r1cs_free(&s->cs);
    free(s);
}

/* ---- keys: INSECURE parameters made in memory (keys.c) ------------------------------------------ */
cuzk_status benchkit_synthetic_setup(cuzk_pk **out, benchkit_synthetic *s, const uint64_t *seed, cuzk_backend backend,
                                     int nthreads, cuzk_progress_fn progress, void *progress_user, cuzk_error *err) {
    if (!out || !s) return ERR(err, CUZK_ERR_ARG, "benchkit_synthetic_setup: NULL argument");
    return benchkit_setup_key(out, NULL, &s->cs, s, seed, backend, nthreads, progress, progress_user, NULL, err);
}

/* ---- keys: parameters from a file through the SRS store --------------------------------------- */
typedef struct store_owner {
    srs_store *store;
    srs_handle h;
    benchkit_synthetic *s;
} store_owner;

static void store_owner_free(void *p) {
    store_owner *o = p;
    srs_store_release(o->store, &o->h);
    srs_store_destroy(o->store);
    benchkit_synthetic_release(o->s);
    free(o);
}

/* direct_srs: the parameters owned by the key (freed at its last release), the queries in the file */
typedef struct direct_owner {
    bellperson_params p;
    benchkit_synthetic *s;
} direct_owner;

static void direct_owner_free(void *v) {
    direct_owner *o = v;
    bellperson_params_free(&o->p);
    benchkit_synthetic_release(o->s);
    free(o);
}

static cuzk_status load_params_direct(cuzk_pk **out, benchkit_synthetic *s, const char *params_path,
                                      const benchkit_params_load_opts *lo, benchkit_params_load_report *report,
                                      cuzk_error *err) {
    direct_owner *o = calloc(1, sizeof *o);
    if (!o) return ERR(err, CUZK_ERR_NOMEM, "benchkit_synthetic_load_params");
    bellperson_load_opts bo;
    memset(&bo, 0, sizeof bo);
    bo.check = lo->check;
    bo.nthreads = lo->nthreads;
    bo.g2_apart = 1;
    bo.defer_queries = 1;
    double t0 = now_ms();
    cuzk_status st = bellperson_params_load_ex(&o->p, params_path, &bo, err);
    double t1 = now_ms();
    if (st == CUZK_OK)
        st = groth16_pk_wrap_bellperson(out, &s->cs, &o->p, NULL, bellperson_params_host_bytes(&o->p), direct_owner_free,
                                        o, err);
    if (st != CUZK_OK) {
        if (st == CUZK_ERR_MISMATCH && err) {
            char m[sizeof err->msg];
            memcpy(m, err->msg, sizeof m);
            ERR(err, st, "%s: %.400s", params_path, m);
        }
        bellperson_params_free(&o->p);
        free(o);
        return st;
    }
    o->s = benchkit_synthetic_retain(s);
    if (report) {
        struct stat sb;
        report->file_bytes = stat(params_path, &sb) == 0 ? (uint64_t)sb.st_size : 0;
        report->host_bytes = report->host_bytes_now = bellperson_params_host_bytes(&o->p);
        report->host_ms = t1 - t0;
        report->direct = o->p.q_src != NULL;
    }
    return CUZK_OK;
}

cuzk_status benchkit_synthetic_load_params(cuzk_pk **out, benchkit_synthetic *s, const char *params_path,
                                           const benchkit_params_load_opts *opts, benchkit_params_load_report *report,
                                           cuzk_error *err) {
    benchkit_params_load_opts dflt = {CUZK_CHECK_DEFAULT, 0, -1, 0, 0, 0, 0};
    const benchkit_params_load_opts *lo = opts ? opts : &dflt;
    if (report) memset(report, 0, sizeof *report);
    if (!out || !s || !params_path) return ERR(err, CUZK_ERR_ARG, "benchkit_synthetic_load_params: NULL argument");
    *out = NULL;
    if (lo->nthreads < 0 || lo->gpu_device < -1 || (lo->gpu_resident && lo->gpu_device < 0) ||
        (lo->release_host_g1 && !lo->gpu_resident) || (lo->gpu_b_g2 && !lo->gpu_resident))
        return ERR(err, CUZK_ERR_ARG, "benchkit_synthetic_load_params: thread count %d, device %d, resident %d, release %d, "
                   "B_G2 %d (releasing the host G1 copy and a device B_G2 need the GPU copy)", lo->nthreads,
                   lo->gpu_device, lo->gpu_resident, lo->release_host_g1, lo->gpu_b_g2);
    srs_store_opts so;
    memset(&so, 0, sizeof so);
    so.check = lo->check;
    so.nthreads = lo->nthreads;
    /* on the GPU the host needs only vk, ic and b_g2 once the upload is done */
    so.release_host_g1 = lo->release_host_g1 != 0;
    if (lo->gpu_device >= 0) {
        so.ops = lo->gpu_b_g2 ? srs_gpu_ops_b_g2(lo->gpu_device) : srs_gpu_ops(lo->gpu_device);
        if (!so.ops)
            return ERR(err, CUZK_ERR_UNSUPPORTED, "benchkit_synthetic_load_params: no GPU hooks for device %d (a build "
                       "without CUDA, or a device ordinal above 15)", lo->gpu_device);
    }
    if (lo->direct_srs) {
        if (lo->gpu_resident || lo->release_host_g1 || lo->gpu_b_g2)
            return ERR(err, CUZK_ERR_ARG, "benchkit_synthetic_load_params: direct_srs loads without the SRS store (no "
                       "resident copy, nothing to release)");
        return load_params_direct(out, s, params_path, lo, report, err);
    }
    store_owner *o = calloc(1, sizeof *o);
    if (!o) return ERR(err, CUZK_ERR_NOMEM, "benchkit_synthetic_load_params");
    cuzk_status st = srs_store_create(&o->store, &so, err);
    /* the warm tier first (map + one checking pass over the file: the disk-read rate), then the
     * decoded host copy and the device copy from the mapping, each timed by the store */
    if (st == CUZK_OK) st = srs_store_preload(o->store, params_path, SRS_TIER_MAPPED, err);
    if (st == CUZK_OK)
        st = srs_store_acquire(o->store, &o->h, params_path, lo->gpu_resident ? SRS_TIER_GPU : SRS_TIER_PINNED, err);
    if (st == CUZK_OK)
        st = groth16_pk_wrap_bellperson(out, &s->cs, o->h.params, o->h.device, bellperson_params_host_bytes(o->h.params),
                                        store_owner_free, o, err);
    if (st != CUZK_OK) {
        if (st == CUZK_ERR_MISMATCH && err) {
            char m[sizeof err->msg];
            memcpy(m, err->msg, sizeof m);
            ERR(err, st, "%s: %.400s", params_path, m);
        }
        srs_store_release(o->store, &o->h);
        srs_store_destroy(o->store);
        free(o);
        return st;
    }
    o->s = benchkit_synthetic_retain(s);
    if (report) {
        srs_entry_info inf;
        memset(&inf, 0, sizeof inf);
        (void)srs_store_entry_info(o->store, params_path, &inf, NULL);
        report->file_bytes = inf.file_bytes;
        report->host_bytes = inf.host_bytes;
        report->device_bytes = o->h.device_bytes;
        report->mapped_ms = inf.last_load_ms[SRS_TIER_MAPPED];
        report->host_ms = inf.last_load_ms[SRS_TIER_PINNED];
        report->gpu_ms = o->h.device ? inf.last_load_ms[SRS_TIER_GPU] : 0;
        report->pinned = so.ops != NULL;
        report->host_g1_released = inf.host_g1_released;
        report->host_bytes_now = inf.pinned_bytes;
    }
    return CUZK_OK;
}

/* ---- engines on fake devices -------------------------------------------------------------------- */
cuzk_status benchkit_engine_create_fake(cuzk_engine **out, const cuzk_engine_opts *opts, int n, cuzk_error *err) {
    if (!out) return ERR(err, CUZK_ERR_ARG, "benchkit_engine_create_fake: NULL argument");
    *out = NULL;
    if (opts && opts->backend != CUZK_BACKEND_CPU && opts->backend != CUZK_BACKEND_AUTO)
        return ERR(err, CUZK_ERR_ARG, "benchkit_engine_create_fake: fake devices run the CPU prover (backend cpu)");
    return engine_create_fake(out, opts, n, NULL, err);
}
