/* Keys with INSECURE parameters made in memory (keys.h): the parameters and the circuit live in
 * an owner the key frees at its last release (groth16_pk_wrap_bellperson). */
#include "benchkit/keys.h"

#include <stdlib.h>
#include <string.h>

#include "groth16/backend.h"
#include "groth16/pk.h"
#include "groth16/setup.h"
#include "util/log.h"

typedef struct key_owner {
    bellperson_params params;
    r1cs cs;               /* owned when the circuit was moved in (zeroed otherwise) */
    benchkit_synthetic *syn;   /* a reference, when the circuit is a synthetic one's */
} key_owner;

static void key_owner_free(void *p) {
    key_owner *o = p;
    bellperson_params_free(&o->params);
    r1cs_free(&o->cs);
    benchkit_synthetic_release(o->syn);
    free(o);
}

cuzk_status benchkit_setup_key(cuzk_pk **out, r1cs *take, const r1cs *view, benchkit_synthetic *syn, const uint64_t *seed,
                               cuzk_backend backend, int nthreads, cuzk_progress_fn progress, void *progress_user,
                               cuzk_setup_timings *t, cuzk_error *err) {
    *out = NULL;
    if (t) memset(t, 0, sizeof *t);
    if ((take == NULL) == (view == NULL)) return ERR(err, CUZK_ERR_ARG, "benchkit_setup_key: one circuit, taken or viewed");
    if (nthreads < 0) return ERR(err, CUZK_ERR_ARG, "INSECURE setup: negative thread count");
    groth16_backend be;
    cuzk_status st = groth16_backend_resolve(backend, &be, err);
    if (st != CUZK_OK) return st;
    key_owner *o = calloc(1, sizeof *o);
    if (!o) return ERR(err, CUZK_ERR_NOMEM, "INSECURE setup");
    const r1cs *cs = view;
    if (take) {
        o->cs = *take;   /* moved below, once the key exists */
        cs = &o->cs;
    }
    if (t) t->backend = groth16_backend_name(be);
    st = groth16_setup_bellperson_timed(be, &o->params, cs, seed, nthreads, progress, progress_user, t, err);
    if (st == CUZK_OK)
        st = groth16_pk_wrap_bellperson(out, cs, &o->params, NULL,
                                        bellperson_params_host_bytes(&o->params), key_owner_free, o, err);
    if (st != CUZK_OK) {
        bellperson_params_free(&o->params);
        free(o); /* o->cs is still the caller's (*take untouched) */
        return st;
    }
    if (take) memset(take, 0, sizeof *take);
    if (syn) o->syn = benchkit_synthetic_retain(syn);
    return CUZK_OK;
}

cuzk_status benchkit_drop_host_g1(cuzk_pk *handle, size_t *freed_bytes, cuzk_error *err) {
    if (freed_bytes) *freed_bytes = 0;
    groth16_pk *pk = groth16_pk_of(handle); /* keys made in memory are BLS12-381's */
    if (!pk || pk->owner_free != key_owner_free)
        return ERR(err, CUZK_ERR_ARG, "benchkit_drop_host_g1: not a key made in memory (benchkit_synthetic_setup, "
                   "benchkit_post_setup)");
    bellperson_params *p = &((key_owner *)pk->owner)->params;
    if (p->block) return ERR(err, CUZK_ERR_ARG, "benchkit_drop_host_g1: the parameters are one block");
    if (__atomic_load_n(&p->g1_stream_borrows, __ATOMIC_ACQUIRE)) {
        /* a GPU prover's memory plan streams G1 queries from them (src/groth16/memplan.h): kept */
        cuzk_log(CUZK_LOG_INFO, "benchkit: the host G1 queries stay: a GPU prover streams some of them each proof");
        return CUZK_OK;
    }
    size_t freed = 0;
    if (p->a) freed += (size_t)p->n_a * sizeof(g1_affine);
    if (p->b_g1) freed += (size_t)p->n_b_g1 * sizeof(g1_affine);
    if (p->l) freed += (size_t)p->n_l * sizeof(g1_affine);
    if (p->h) freed += (size_t)p->n_h * sizeof(g1_affine);
    free(p->a);
    free(p->b_g1);
    free(p->l);
    free(p->h);
    p->a = p->b_g1 = p->l = p->h = NULL;
    if (freed_bytes) *freed_bytes = freed;
    return CUZK_OK;
}

uint64_t benchkit_csr_bytes(const csr_matrix *m) {
    return 8 * ((uint64_t)m->n_rows + 1) + 8 * (uint64_t)m->nnz + sizeof(fr) * (uint64_t)m->n_coef;
}

cuzk_status benchkit_query_sizes(const r1cs *r, int nthreads, uint64_t *qa, uint64_t *qb, cuzk_error *err) {
    r1cs_density da = {0}, db = {0};
    cuzk_status st = r1cs_density_of(&da, &r->a, r->n_vars, nthreads, err);
    if (st == CUZK_OK) st = r1cs_density_of(&db, &r->b, r->n_vars, nthreads, err);
    if (st == CUZK_OK) {
        uint64_t n_a = da.count;
        for (size_t i = 0; i <= r->n_public; i++) n_a += !r1cs_density_test(&da, i);
        *qa = n_a;
        *qb = db.count;
    }
    r1cs_density_free(&da);
    r1cs_density_free(&db);
    return st;
}
