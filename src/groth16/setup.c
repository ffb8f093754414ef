/* Test parameters for the bellperson convention (src/groth16/groth16.h): a single-party, INSECURE
 * Groth16 setup on the CPU, for tests and benchmarks. The toxic waste is known to the caller.
 *
 * QAP at tau: u_i(tau) = sum_j A[j][i] L_j(tau) (+ L_{n_constraints + i}(tau) for input i),
 * v_i, w_i likewise with B and C, where L_j(X) = (omega^j / m) (X^m - 1) / (X - omega^j) is the
 * Lagrange basis of the size-m domain with bellperson's roots (7^t). Queries as bellperson's
 * generator makes them (bellperson/src/groth16/generator.rs): ic, l, a, b_g1, b_g2, h.
 * Fixed-base scalar multiplication by an 8-bit comb table: 32 mixed additions per point.
 */
#include "groth16/groth16.h"

#include <stdlib.h>
#include <string.h>

#include "poly/ntt.h"
#include "util/log.h"
#include "util/parallel.h"
#include "util/rng.h"

/* ---- fixed-base comb tables: table[i*256 + j] = j * 2^(8i) * G ----------------------------- */
#define COMB_DEFINE(G)                                                                          \
    static G##_affine *G##_comb_table(const G##_affine *base) {                                 \
        G##_jacobian *jt = malloc(32 * 256 * sizeof *jt);                                       \
        G##_affine *at = malloc(32 * 256 * sizeof *at);                                         \
        if (!jt || !at) { free(jt); free(at); return NULL; }                                    \
        G##_jacobian row;                                                                       \
        G##_jacobian_from_affine(&row, base);                                                   \
        for (int i = 0; i < 32; i++) {                                                          \
            G##_jacobian_set_infinity(&jt[i * 256]);                                            \
            for (int j = 1; j < 256; j++) G##_jacobian_add(&jt[i * 256 + j], &jt[i * 256 + j - 1], &row); \
            for (int k = 0; k < 8; k++) G##_jacobian_dbl(&row, &row);                           \
        }                                                                                       \
        G##s_jacobian_to_affine(at, jt, 32 * 256);                                              \
        free(jt);                                                                               \
        return at;                                                                              \
    }                                                                                           \
    typedef struct { const G##_affine *table; const fr *k; G##_jacobian *tmp; G##_affine *out; } G##_comb_ctx; \
    static void G##_comb_range(void *vc, size_t b, size_t e, int tid) {                         \
        (void)tid;                                                                              \
        G##_comb_ctx *c = vc;                                                                   \
        for (size_t i = b; i < e; i++) {                                                        \
            uint64_t l[4];                                                                      \
            fr_to_canon(l, &c->k[i]);                                                           \
            G##_jacobian acc;                                                                   \
            G##_jacobian_set_infinity(&acc);                                                    \
            for (int w = 0; w < 32; w++) {                                                      \
                unsigned byte = (unsigned)(l[w / 8] >> (8 * (w % 8))) & 0xff;                   \
                if (byte) G##_jacobian_add_mixed(&acc, &acc, &c->table[w * 256 + byte]);       \
            }                                                                                   \
            c->tmp[i] = acc;                                                                    \
        }                                                                                       \
        G##s_jacobian_to_affine(c->out + b, c->tmp + b, e - b);                                 \
    }                                                                                           \
    /* out[i] = k[i] * base for i < n; false on allocation failure */                           \
    static bool G##_fixed_base_mul(G##_affine *out, const G##_affine *table, const fr *k, size_t n, int nthreads) { \
        if (n == 0) return true;                                                                \
        G##_jacobian *tmp = malloc(n * sizeof *tmp);                                            \
        if (!tmp) return false;                                                                 \
        G##_comb_ctx c = {table, k, tmp, out};                                                  \
        parallel_for(n, nthreads, G##_comb_range, &c);                                          \
        free(tmp);                                                                              \
        return true;                                                                            \
    }

COMB_DEFINE(g1)
COMB_DEFINE(g2)

/* Deterministic field elements from a 64-bit seed (splitmix64 stream, 512 bits reduced mod r);
 * or uniform from the OS RNG when seed is NULL. */
static cuzk_status toxic(fr *out, uint64_t *state, bool seeded, cuzk_error *err) {
    if (!seeded) return groth16_random_fr(out, err);
    uint8_t b[64];
    for (int i = 0; i < 8; i++) {
        uint64_t v = splitmix64_next(state);
        memcpy(b + 8 * i, &v, 8);
    }
    fr_from_bytes_wide_le(out, b, sizeof b);
    if (fr_is_zero(out)) fr_one(out);
    return CUZK_OK;
}

cuzk_status groth16_setup_bellperson(bellperson_params *out, const r1cs *cs, const uint64_t *seed,
                                     int nthreads, cuzk_error *err) {
    cuzk_status st = CUZK_OK;
    memset(out, 0, sizeof *out);
    size_t n_inputs = (size_t)cs->n_public + 1, n_vars = cs->n_vars, n_aux = n_vars - n_inputs;
    size_t n = (size_t)cs->n_constraints + n_inputs;
    int log_m = 1;
    while (((size_t)1 << log_m) < n) log_m++;
    if (log_m > 28) return ERR(err, CUZK_ERR_ARG, "setup: domain 2^%d is larger than 2^28", log_m);
    size_t m = (size_t)1 << log_m;

    fr tau, alpha, beta, gamma, delta;
    uint64_t state = seed ? *seed : 0;
    bool seeded = seed != NULL;
    fr *const tw[5] = {&tau, &alpha, &beta, &gamma, &delta};
    for (int i = 0; i < 5; i++)
        if ((st = toxic(tw[i], &state, seeded, err)) != CUZK_OK) return st;

    fr *lag = NULL, *u = NULL, *v = NULL, *wv = NULL, *k = NULL;
    uint8_t *dens_a = NULL, *dens_b = NULL;
    g1_affine *t1 = NULL;
    g2_affine *t2 = NULL;
    ntt_domain d = {0};
    lag = malloc(m * sizeof *lag);
    u = calloc(n_vars, sizeof *u);
    v = calloc(n_vars, sizeof *v);
    wv = calloc(n_vars, sizeof *wv);
    k = malloc((n_vars > m ? n_vars : m) * sizeof *k);
    dens_a = calloc(n_vars, 1);
    dens_b = calloc(n_vars, 1);
    if (!lag || !u || !v || !wv || !k || !dens_a || !dens_b) { st = ERR(err, CUZK_ERR_NOMEM, "setup scratch"); goto out; }
    if ((st = ntt_domain_init(&d, log_m, NTT_ROOTS_BELLPERSON)) != CUZK_OK) { ERR(err, st, "setup domain"); goto out; }

    /* Lagrange basis at tau: L_j = omega^j (tau^m - 1) / (m (tau - omega^j)) */
    fr zt, tm, om, one;
    fr_one(&one);
    uint64_t me[1] = {m};
    fr_pow_vartime(&tm, &tau, me, 1);
    fr_sub(&zt, &tm, &one);                 /* Z(tau) = tau^m - 1 */
    fr_one(&om);
    for (size_t j = 0; j < m; j++) {        /* lag[j] <- tau - omega^j, then batch-inverted */
        fr_sub(&lag[j], &tau, &om);
        fr_mul(&om, &om, &d.omega);
    }
    /* batch inversion */
    {
        fr acc;
        fr_one(&acc);
        for (size_t j = 0; j < m; j++) { k[j] = acc; fr_mul(&acc, &acc, &lag[j]); }
        fr_inv(&acc, &acc);
        for (size_t j = m; j-- > 0;) {
            fr t;
            fr_mul(&t, &acc, &k[j]);
            fr_mul(&acc, &acc, &lag[j]);
            lag[j] = t;
        }
    }
    fr scale;
    fr_mul(&scale, &zt, &d.m_inv);
    fr_one(&om);
    for (size_t j = 0; j < m; j++) {
        fr_mul(&lag[j], &lag[j], &om);
        fr_mul(&lag[j], &lag[j], &scale);
        fr_mul(&om, &om, &d.omega);
    }
    /* u, v, w at tau */
    const csr_matrix *mats[3] = {&cs->a, &cs->b, &cs->c};
    fr *dst[3] = {u, v, wv};
    for (int q = 0; q < 3; q++) {
        const csr_matrix *mm = mats[q];
        for (uint32_t j = 0; j < mm->n_rows; j++)
            for (uint64_t e = mm->row_ptr[j]; e < mm->row_ptr[j + 1]; e++) {
                fr t;
                fr_mul(&t, &mm->val[e], &lag[j]);
                fr_add(&dst[q][mm->col[e]], &dst[q][mm->col[e]], &t);
                if (!fr_is_zero(&mm->val[e])) {
                    if (q == 0) dens_a[mm->col[e]] = 1;
                    if (q == 1) dens_b[mm->col[e]] = 1;
                }
            }
    }
    for (size_t i = 0; i < n_inputs; i++) fr_add(&u[i], &u[i], &lag[cs->n_constraints + i]);

    g1_affine g1;
    g2_affine g2;
    g1_generator(&g1);
    g2_generator(&g2);
    if (!(t1 = g1_comb_table(&g1)) || !(t2 = g2_comb_table(&g2))) { st = ERR(err, CUZK_ERR_NOMEM, "comb tables"); goto out; }

    /* vk */
    fr sc[6];
    sc[0] = alpha; sc[1] = beta; sc[2] = delta;
    g1_affine vk1[3];
    g1_fixed_base_mul(vk1, t1, sc, 3, 1);
    out->vk.alpha1 = vk1[0]; out->vk.beta1 = vk1[1]; out->vk.delta1 = vk1[2];
    sc[0] = beta; sc[1] = gamma; sc[2] = delta;
    g2_affine vk2[3];
    g2_fixed_base_mul(vk2, t2, sc, 3, 1);
    out->vk.beta2 = vk2[0]; out->vk.gamma2 = vk2[1]; out->vk.delta2 = vk2[2];

    /* ic_i = (beta u_i + alpha v_i + w_i) / gamma ; l_k = ( ... ) / delta */
    fr gi, di;
    fr_inv(&gi, &gamma);
    fr_inv(&di, &delta);
    for (size_t i = 0; i < n_vars; i++) {
        fr t, t2s;
        fr_mul(&t, &beta, &u[i]);
        fr_mul(&t2s, &alpha, &v[i]);
        fr_add(&t, &t, &t2s);
        fr_add(&t, &t, &wv[i]);
        fr_mul(&k[i], &t, i < n_inputs ? &gi : &di);
    }
    out->vk.n_public = cs->n_public;
    out->n_l = (uint32_t)n_aux;
    out->vk.ic = malloc(n_inputs * sizeof *out->vk.ic);
    out->l = malloc((n_aux ? n_aux : 1) * sizeof *out->l);
    if (!out->vk.ic || !out->l) { st = ERR(err, CUZK_ERR_NOMEM, "setup ic/l"); goto out; }
    if (!g1_fixed_base_mul(out->vk.ic, t1, k, n_inputs, nthreads) ||
        !g1_fixed_base_mul(out->l, t1, k + n_inputs, n_aux, nthreads)) { st = ERR(err, CUZK_ERR_NOMEM, "setup ic/l"); goto out; }

    /* a: inputs, then aux with A density */
    size_t na = 0, nb = 0;
    for (size_t i = 0; i < n_vars; i++) if (i < n_inputs || dens_a[i]) k[na++] = u[i];
    out->n_a = (uint32_t)na;
    out->a = malloc((na ? na : 1) * sizeof *out->a);
    if (!out->a || !g1_fixed_base_mul(out->a, t1, k, na, nthreads)) { st = ERR(err, CUZK_ERR_NOMEM, "setup a"); goto out; }
    for (size_t i = 0; i < n_vars; i++) if (dens_b[i]) k[nb++] = v[i];
    out->n_b_g1 = out->n_b_g2 = (uint32_t)nb;
    out->b_g1 = malloc((nb ? nb : 1) * sizeof *out->b_g1);
    out->b_g2 = malloc((nb ? nb : 1) * sizeof *out->b_g2);
    if (!out->b_g1 || !out->b_g2 || !g1_fixed_base_mul(out->b_g1, t1, k, nb, nthreads) ||
        !g2_fixed_base_mul(out->b_g2, t2, k, nb, nthreads)) { st = ERR(err, CUZK_ERR_NOMEM, "setup b"); goto out; }

    /* h_i = tau^i Z(tau) / delta, i < m - 1 */
    fr hz;
    fr_mul(&hz, &zt, &di);
    for (size_t i = 0; i + 1 < m; i++) { k[i] = hz; fr_mul(&hz, &hz, &tau); }
    out->n_h = (uint32_t)(m - 1);
    out->h = malloc((m - 1) * sizeof *out->h);
    if (!out->h || !g1_fixed_base_mul(out->h, t1, k, m - 1, nthreads)) { st = ERR(err, CUZK_ERR_NOMEM, "setup h"); goto out; }

out:
    explicit_bzero(&tau, sizeof tau); explicit_bzero(&alpha, sizeof alpha); explicit_bzero(&beta, sizeof beta);
    explicit_bzero(&gamma, sizeof gamma); explicit_bzero(&delta, sizeof delta);
    ntt_domain_free(&d);
    free(lag); free(u); free(v); free(wv); free(k); free(dens_a); free(dens_b); free(t1); free(t2);
    if (st != CUZK_OK) bellperson_params_free(out);
    return st;
}
