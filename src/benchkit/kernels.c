/* The CPU kernel timings of src/benchkit/benchkit.h (section 1): argument checks and the dispatch to
 * the table of the curve (kernels_impl.h). */
#include "benchkit/kernels.h"

#include <stdlib.h>

#include "msm/msm.h"
#include "util/log.h"

static const benchkit_curve *curve_table(cuzk_curve c) {
    return c == CUZK_CURVE_BLS12_381 ? &benchkit_bls12_381 : c == CUZK_CURVE_BN254 ? &benchkit_bn254 : NULL;
}

const char *benchkit_op_name(benchkit_op op) {
    static const char *const names[BENCHKIT_N_OPS] = {"fp_mul", "fp_sqr", "fr_mul", "fp_inv", "g1_jacobian_add_mixed",
                                                        "g1_jacobian_add", "g1_xyzz_add_mixed", "g1_jacobian_dbl",
                                                        "g2_jacobian_add_mixed"};
    return (unsigned)op < BENCHKIT_N_OPS ? names[op] : "?";
}

cuzk_status benchkit_op_time(cuzk_curve curve, benchkit_op op, uint64_t iters, double *ns_per_op, cuzk_error *err) {
    const benchkit_curve *t = curve_table(curve);
    if (ns_per_op) *ns_per_op = 0;
    if (!t) return ERR(err, CUZK_ERR_ARG, "benchkit_op_time: unknown curve %d", (int)curve);
    if ((unsigned)op >= BENCHKIT_N_OPS) return ERR(err, CUZK_ERR_ARG, "benchkit_op_time: unknown operation %d", (int)op);
    if (!iters || !ns_per_op) return ERR(err, CUZK_ERR_ARG, "benchkit_op_time: no iterations or NULL result");
    return t->op_time(op, iters, ns_per_op, err);
}

/* ---- NTT ---- */
struct benchkit_ntt {
    const benchkit_curve *t;
    void *h;
};

cuzk_status benchkit_ntt_create(benchkit_ntt **out, cuzk_curve curve, int log_m, uint64_t seed, cuzk_error *err) {
    if (!out) return ERR(err, CUZK_ERR_ARG, "benchkit_ntt_create: NULL argument");
    *out = NULL;
    const benchkit_curve *t = curve_table(curve);
    if (!t) return ERR(err, CUZK_ERR_ARG, "benchkit_ntt_create: unknown curve %d", (int)curve);
    if (log_m < 1 || log_m > 28) return ERR(err, CUZK_ERR_ARG, "benchkit_ntt_create: log_m %d (1..28)", log_m);
    benchkit_ntt *n = calloc(1, sizeof *n);
    if (!n) return ERR(err, CUZK_ERR_NOMEM, "benchkit_ntt_create");
    n->t = t;
    cuzk_status st = t->ntt_create(&n->h, log_m, seed, err);
    if (st != CUZK_OK) {
        free(n);
        return st;
    }
    *out = n;
    return CUZK_OK;
}

cuzk_status benchkit_ntt_run(benchkit_ntt *h, int nthreads, double *forward_ms, double *coset_inverse_ms,
                             cuzk_error *err) {
    if (!h || nthreads < 0) return ERR(err, CUZK_ERR_ARG, "benchkit_ntt_run: NULL handle or negative thread count");
    return h->t->ntt_run(h->h, nthreads, forward_ms, coset_inverse_ms);
}

void benchkit_ntt_destroy(benchkit_ntt *h) {
    if (!h) return;
    h->t->ntt_free(h->h);
    free(h);
}

/* ---- MSM ---- */
struct benchkit_msm {
    const benchkit_curve *t;
    void *h;
    size_t n_max;
    int xyzz;
};

cuzk_status benchkit_msm_create(benchkit_msm **out, cuzk_curve curve, size_t n_max, uint64_t seed, cuzk_error *err) {
    return benchkit_msm_create_group(out, curve, 1, n_max, seed, err);
}

cuzk_status benchkit_msm_create_group(benchkit_msm **out, cuzk_curve curve, int group, size_t n_max, uint64_t seed,
                                      cuzk_error *err) {
    if (!out) return ERR(err, CUZK_ERR_ARG, "benchkit_msm_create: NULL argument");
    if (group != 1 && group != 2) return ERR(err, CUZK_ERR_ARG, "benchkit_msm_create: group %d (1 or 2)", group);
    *out = NULL;
    const benchkit_curve *t = curve_table(curve);
    if (!t) return ERR(err, CUZK_ERR_ARG, "benchkit_msm_create: unknown curve %d", (int)curve);
    if (n_max == 0 || n_max > ((size_t)1 << 28))
        return ERR(err, CUZK_ERR_ARG, "benchkit_msm_create: %zu points (1 .. 2^28)", n_max);
    benchkit_msm *m = calloc(1, sizeof *m);
    if (!m) return ERR(err, CUZK_ERR_NOMEM, "benchkit_msm_create");
    m->t = t;
    m->n_max = n_max;
    cuzk_status st = t->msm_create(&m->h, group, n_max, seed, err);
    if (st != CUZK_OK) {
        free(m);
        return st;
    }
    *out = m;
    return CUZK_OK;
}

cuzk_status benchkit_msm_run(benchkit_msm *h, size_t n, benchkit_scalars kind, int nthreads, double *ms,
                             cuzk_error *err) {
    if (ms) *ms = 0;
    if (!h || !ms || nthreads < 0) return ERR(err, CUZK_ERR_ARG, "benchkit_msm_run: NULL argument or negative thread count");
    if (n == 0 || n > h->n_max) return ERR(err, CUZK_ERR_ARG, "benchkit_msm_run: %zu points (1 .. %zu)", n, h->n_max);
    if (kind != BENCHKIT_SCALARS_RANDOM && kind != BENCHKIT_SCALARS_01)
        return ERR(err, CUZK_ERR_ARG, "benchkit_msm_run: unknown scalar set %d", (int)kind);
    h->t->msm_run(h->h, n, kind, nthreads, h->xyzz, ms);
    return CUZK_OK;
}

void benchkit_msm_set_xyzz(benchkit_msm *h, int xyzz) {
    if (h) h->xyzz = xyzz != 0;
}

void benchkit_msm_destroy(benchkit_msm *h) {
    if (!h) return;
    h->t->msm_free(h->h);
    free(h);
}

int benchkit_msm_window_bits(size_t n) { return msm_window_bits(n); }
