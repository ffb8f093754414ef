/* The CPU kernel timings of src/benchkit/benchkit.h (section 1) for one curve: a template (every
 * curve-dependent name is CN(name), src/ff/ns.h), included once per curve after the curve's name
 * space is set (kernels_bls12_381.c, kernels_bn254.c: CURVE_INSTANCE_<curve>, src/curves/curve.h), with
 *   BK_TABLE       the name of the benchkit_curve table defined here;
 *   BK_NTT_ROOTS   the NTT convention of the curve's domains (src/poly/ntt.h).
 * Everything else is static. */
#include <stdlib.h>
#include <string.h>

#include "benchkit/kernels.h"
#include "util/log.h"
#include "util/rng.h"
#include "util/timer.h"

/* results of the timed loops land here, so that no loop is optimised away */
static volatile uint64_t bk_sink;

static void bk_rand_fr(CN(fr) *x, uint64_t *rng) {
    uint8_t b[64];
    for (int i = 0; i < 8; i++) {
        uint64_t v = splitmix64_next(rng);
        memcpy(b + 8 * i, &v, 8);
    }
    CN(fr_from_bytes_wide_le)(x, b, sizeof b);
}

static void bk_rand_fp(CN(fp) *x, uint64_t *rng) {
    uint8_t b[96];
    for (int i = 0; i < 12; i++) {
        uint64_t v = splitmix64_next(rng);
        memcpy(b + 8 * i, &v, 8);
    }
    CN(fp_from_bytes_wide_le)(x, b, sizeof b);
}

enum { BK_OPERANDS = 1 << 14 };

static cuzk_status bk_op_time(benchkit_op op, uint64_t iters, double *ns_per_op, cuzk_error *err) {
    CN(fr) *a = malloc(BK_OPERANDS * sizeof *a);
    CN(fp) *x = malloc(BK_OPERANDS * sizeof *x);
    if (!a || !x) {
        free(a);
        free(x);
        return ERR(err, CUZK_ERR_NOMEM, "bench op: %d operands", (int)BK_OPERANDS);
    }
    uint64_t rng = 0x853c49e6748fea9bull ^ (uint64_t)op;
    for (int i = 0; i < BK_OPERANDS; i++) {
        bk_rand_fr(&a[i], &rng);
        bk_rand_fp(&x[i], &rng);
    }
    CN(fp) acc = x[0];
    CN(fr) facc = a[0];
    CN(g1_affine) g;
    CN(g1_generator)(&g);
    CN(g1_jacobian) j, gj;
    CN(g1_jacobian_from_affine)(&j, &g);
    CN(g1_jacobian_dbl)(&gj, &j);
    CN(g1_xyzz) xz;
    CN(g1_xyzz_from_affine)(&xz, &g);
    CN(g1_xyzz_dbl)(&xz, &xz);
    CN(g2_affine) h;
    CN(g2_generator)(&h);
    CN(g2_jacobian) k;
    CN(g2_jacobian_from_affine)(&k, &h);
    CN(g2_jacobian_dbl)(&k, &k);
    const uint64_t mask = BK_OPERANDS - 1;
    double t0 = now_ms();
    switch (op) {
    case BENCHKIT_FP_MUL: for (uint64_t it = 0; it < iters; it++) CN(fp_mul)(&acc, &acc, &x[it & mask]); break;
    case BENCHKIT_FP_SQR: for (uint64_t it = 0; it < iters; it++) CN(fp_sqr)(&acc, &acc); break;
    case BENCHKIT_FR_MUL: for (uint64_t it = 0; it < iters; it++) CN(fr_mul)(&facc, &facc, &a[it & mask]); break;
    case BENCHKIT_FP_INV: for (uint64_t it = 0; it < iters; it++) CN(fp_inv)(&acc, &acc); break;
    case BENCHKIT_G1_ADD_MIXED: for (uint64_t it = 0; it < iters; it++) CN(g1_jacobian_add_mixed)(&j, &j, &g); break;
    case BENCHKIT_G1_ADD: for (uint64_t it = 0; it < iters; it++) CN(g1_jacobian_add)(&j, &j, &gj); break;
    case BENCHKIT_G1_XYZZ_ADD_MIXED: for (uint64_t it = 0; it < iters; it++) CN(g1_xyzz_add_mixed)(&xz, &xz, &g); break;
    case BENCHKIT_G1_DBL: for (uint64_t it = 0; it < iters; it++) CN(g1_jacobian_dbl)(&j, &j); break;
    case BENCHKIT_G2_ADD_MIXED: for (uint64_t it = 0; it < iters; it++) CN(g2_jacobian_add_mixed)(&k, &k, &h); break;
    default: break; /* checked by the caller */
    }
    double dt = now_ms() - t0;
    bk_sink = acc.l[0] ^ facc.l[0] ^ (uint64_t)CN(g1_jacobian_is_infinity)(&j) ^ xz.x.l[0] ^ k.x.c0.l[0];
    *ns_per_op = dt * 1e6 / (double)iters;
    free(a);
    free(x);
    return CUZK_OK;
}

/* ---- NTT ---- */
typedef struct bk_ntt {
    CN(ntt_domain) d;
    CN(fr) *a;
} bk_ntt;

static void bk_ntt_free(void *h) {
    bk_ntt *n = h;
    if (!n) return;
    CN(ntt_domain_free)(&n->d);
    free(n->a);
    free(n);
}

static cuzk_status bk_ntt_create(void **out, int log_m, uint64_t seed, cuzk_error *err) {
    *out = NULL;
    bk_ntt *n = calloc(1, sizeof *n);
    if (!n) return ERR(err, CUZK_ERR_NOMEM, "bench ntt");
    cuzk_status st = CN(ntt_domain_init)(&n->d, log_m, BK_NTT_ROOTS);
    if (st != CUZK_OK) {
        free(n);
        return ERR(err, st, "bench ntt: no domain of 2^%d for this curve", log_m);
    }
    size_t m = (size_t)1 << log_m;
    n->a = malloc(m * sizeof *n->a);
    if (!n->a) {
        bk_ntt_free(n);
        return ERR(err, CUZK_ERR_NOMEM, "bench ntt: 2^%d values", log_m);
    }
    uint64_t rng = seed;
    for (size_t i = 0; i < m; i++) bk_rand_fr(&n->a[i], &rng);
    *out = n;
    return CUZK_OK;
}

static cuzk_status bk_ntt_run(void *h, int nthreads, double *forward_ms, double *coset_inverse_ms) {
    bk_ntt *n = h;
    CN(fr) g;
    CN(fr_from_u64)(&g, 7);
    double t0 = now_ms();
    CN(ntt_forward)(&n->d, n->a, nthreads);
    double t1 = now_ms();
    CN(ntt_coset_inverse)(&n->d, n->a, &g, nthreads);
    double t2 = now_ms();
    if (forward_ms) *forward_ms = t1 - t0;
    if (coset_inverse_ms) *coset_inverse_ms = t2 - t1;
    return CUZK_OK;
}

/* ---- MSM ---- */
typedef struct bk_msm {
    int group;
    CN(g1_affine) *bases;
    CN(g2_affine) *bases2;
    scalar256 *sc, *sc01;
} bk_msm;

static void bk_msm_free(void *h) {
    bk_msm *m = h;
    if (!m) return;
    free(m->bases);
    free(m->bases2);
    free(m->sc);
    free(m->sc01);
    free(m);
}

/* n distinct points cheaply: P_i = P_{i-1} + Q_{i mod 64} over 64 random multiples of G */
#define BK_BASES(N, G)                                                                                \
    static CUZK_CAT2(G, _affine) *bk_bases_##N(size_t n, uint64_t *rng) {                                     \
        CUZK_CAT2(G, _affine) *out = malloc(n * sizeof *out);                                                 \
        CUZK_CAT2(G, _jacobian) *tmp = malloc(n * sizeof *tmp);                                               \
        CUZK_CAT2(G, _affine) q[64], g;                                                                       \
        CUZK_CAT2(G, _jacobian) jq[64];                                                                       \
        if (!out || !tmp) {                                                                        \
            free(out);                                                                             \
            free(tmp);                                                                             \
            return NULL;                                                                           \
        }                                                                                          \
        CUZK_CAT2(G, _generator)(&g);                                                                         \
        for (int i = 0; i < 64; i++) {                                                             \
            CN(fr) k;                                                                                  \
            bk_rand_fr(&k, rng);                                                                   \
            CUZK_CAT2(G, _jacobian_from_affine)(&jq[i], &g);                                                  \
            CUZK_CAT2(G, _mul_fr_vartime)(&jq[i], &jq[i], &k);                                                \
        }                                                                                          \
        CUZK_CAT2(G, s_jacobian_to_affine)(q, jq, 64);                                                        \
        CUZK_CAT2(G, _jacobian) acc;                                                                          \
        CUZK_CAT2(G, _jacobian_from_affine)(&acc, &q[0]);                                                     \
        for (size_t i = 0; i < n; i++) {                                                           \
            CUZK_CAT2(G, _jacobian_add_mixed)(&acc, &acc, &q[i & 63]);                                        \
            tmp[i] = acc;                                                                          \
        }                                                                                          \
        CUZK_CAT2(G, s_jacobian_to_affine)(out, tmp, n);                                                      \
        free(tmp);                                                                                 \
        return out;                                                                                \
    }
BK_BASES(g1, CN(g1))
BK_BASES(g2, CN(g2))

static cuzk_status bk_msm_create(void **out, int group, size_t n_max, uint64_t seed, cuzk_error *err) {
    *out = NULL;
    bk_msm *m = calloc(1, sizeof *m);
    uint64_t rng = seed;
    if (m) {
        m->group = group;
        if (group == 2) m->bases2 = bk_bases_g2(n_max, &rng);
        else m->bases = bk_bases_g1(n_max, &rng);
        m->sc = malloc(n_max * sizeof *m->sc);
        m->sc01 = malloc(n_max * sizeof *m->sc01);
    }
    if (!m || !(m->bases || m->bases2) || !m->sc || !m->sc01) {
        bk_msm_free(m);
        return ERR(err, CUZK_ERR_NOMEM, "bench msm: out of memory for %zu points and their scalars", n_max);
    }
    for (size_t i = 0; i < n_max; i++) {
        CN(fr) k;
        bk_rand_fr(&k, &rng);
        CN(fr_to_canon)(m->sc[i].l, &k);
        memset(&m->sc01[i], 0, sizeof m->sc01[i]);
        uint64_t r = splitmix64_next(&rng) % 100; /* SHA-256-like: mostly 0 and 1 */
        if (r >= 50 && r < 95) m->sc01[i].l[0] = 1;
        else if (r >= 95) m->sc01[i] = m->sc[i];
    }
    *out = m;
    return CUZK_OK;
}

static void bk_msm_run(void *h, size_t n, benchkit_scalars kind, int nthreads, int xyzz, double *ms) {
    bk_msm *m = h;
    const scalar256 *sc = kind == BENCHKIT_SCALARS_01 ? m->sc01 : m->sc;
    msm_opts o = {xyzz ? MSM_ACCUM_XYZZ : MSM_ACCUM_AUTO};
    double t0 = now_ms();
    if (m->group == 2) {
        CN(g2_jacobian) out;
        CN(g2_msm_with)(&out, m->bases2, sc, n, nthreads, &o);
        *ms = now_ms() - t0;
        bk_sink = out.x.c0.l[0];
    } else {
        CN(g1_jacobian) out;
        CN(g1_msm_with)(&out, m->bases, sc, n, nthreads, &o);
        *ms = now_ms() - t0;
        bk_sink = out.x.l[0];
    }
}

const benchkit_curve BK_TABLE = {
    bk_op_time, bk_ntt_create, bk_ntt_run, bk_ntt_free, bk_msm_create, bk_msm_run, bk_msm_free,
};
