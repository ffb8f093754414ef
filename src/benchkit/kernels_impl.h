/* The CPU kernel timings of src/benchkit/benchkit.h (section 1) for one curve: a template (every
 * curve-dependent name is CN(name), src/ff/ns.h), included once per curve after the curve's name
 * space is set (kernels_bls12_381.c, kernels_bn254.c: CURVE_INSTANCE_<curve>, src/curves/curve.h), with
 *   BK_TABLE       the name of the benchkit_curve table defined here;
 *   BK_NTT_ROOTS   the NTT convention of the curve's domains (src/poly/ntt.h).
 * Everything else is static. */
#include <stdlib.h>
#include <string.h>

#include "benchkit/kernels.h"
#include "cuda/gpu.h" /* the GPU benchmarks' bases (gpu_bench_dlog): plain C, no CUDA needed */
#include "groth16/setup.h" /* setup_lagrange_range: the H check's Lagrange basis */
#include "util/log.h"
#include "util/parallel.h"
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

/* ---- checks of the GPU benchmarks' results (src/benchkit/gpu.c), with this curve's CPU code ---- */

static void bk_generator(int group, void *out) {
    if (group == 2) CN(g2_generator)((CN(g2_affine) *)out);
    else CN(g1_generator)((CN(g1_affine) *)out);
}

/* Column sums of the scalars (as integers, 5 limbs: at most 2^31 terms below 2^256): row sums
 * q[i / NT] over each block of NT consecutive scalars, and per-thread column sums a[t][i mod NT]. */
typedef struct bk_sums {
    const uint64_t *sc;
    size_t n;
    uint64_t (*q)[5];
    uint64_t (*a)[GPU_BENCH_NT][5];
} bk_sums;

static void bk_add5(uint64_t acc[5], const uint64_t v[4]) {
    unsigned __int128 c = 0;
    for (int k = 0; k < 4; k++) {
        c += (unsigned __int128)acc[k] + v[k];
        acc[k] = (uint64_t)c;
        c >>= 64;
    }
    acc[4] += (uint64_t)c;
}

static void bk_sums_fn(void *ctx, size_t q0, size_t q1, int tid) {
    bk_sums *s = ctx;
    for (size_t q = q0; q < q1; q++) {
        const size_t i0 = q * GPU_BENCH_NT, i1 = i0 + GPU_BENCH_NT < s->n ? i0 + GPU_BENCH_NT : s->n;
        for (size_t i = i0; i < i1; i++) {
            bk_add5(s->q[q], s->sc + 4 * i);
            bk_add5(s->a[tid][i - i0], s->sc + 4 * i);
        }
    }
}

/* *k += (sum as an integer mod r) * gpu_bench_dlog(j) */
static void bk_fold(CN(fr) *k, const uint64_t sum[5], uint64_t j) {
    CN(fr) v, d;
    uint8_t b[40];
    for (int w = 0; w < 5; w++)
        for (int i = 0; i < 8; i++) b[8 * w + i] = (uint8_t)(sum[w] >> (8 * i));
    CN(fr_from_bytes_wide_le)(&v, b, sizeof b);
    CN(fr_from_u64)(&d, gpu_bench_dlog(j));
    CN(fr_mul)(&v, &v, &d);
    CN(fr_add)(k, k, &v);
}

/* The MSM of the bench bases (src/cuda/gpu.h: base i = [dlog(i mod NT) + dlog(NT + i / NT)] G)
 * with these scalars is [K] G, K = sum_i s_i (dlog(i mod NT) + dlog(NT + i / NT)) mod r, computed
 * here from column and row sums of the scalars; result (a Jacobian of the group) must equal it. */
/* bk_g1_is_kg, bk_g2_is_kg (one per group, from BK_KG_DEFINE): [k] G equals the Jacobian point
 * jac when jac is not NULL, else the affine point aff; bk_is_kg picks the group (1 or 2). */
#define BK_KG_DEFINE(G)                                                                              \
    static bool bk_##G##_is_kg(const CN(fr) *k, const void *jac, const void *aff) {                 \
        CN(G##_affine) g, a;                                                                         \
        CN(G##_jacobian) e;                                                                          \
        CN(G##_generator)(&g);                                                                       \
        CN(G##_jacobian_from_affine)(&e, &g);                                                        \
        CN(G##_mul_fr_vartime)(&e, &e, k);                                                           \
        if (jac) return CN(G##_jacobian_eq)(&e, (const CN(G##_jacobian) *)jac);                      \
        CN(G##_jacobian_to_affine)(&a, &e);                                                          \
        return CN(G##_affine_eq)(&a, (const CN(G##_affine) *)aff);                                   \
    }
BK_KG_DEFINE(g1)
BK_KG_DEFINE(g2)
#undef BK_KG_DEFINE
static bool bk_is_kg(int group, const CN(fr) *k, const void *jac, const void *aff) {
    return group == 2 ? bk_g2_is_kg(k, jac, aff) : bk_g1_is_kg(k, jac, aff);
}

static cuzk_status bk_gpu_msm_check(int group, const void *result, const uint64_t *scalars, size_t n, int montgomery,
                                    int nthreads, cuzk_error *err) {
    if (nthreads <= 0) nthreads = cuzk_num_threads();
    const size_t nq = (n + GPU_BENCH_NT - 1) / GPU_BENCH_NT;
    bk_sums s = {scalars, n, calloc(nq, sizeof *s.q), calloc((size_t)nthreads, sizeof *s.a)};
    if (!s.q || !s.a) {
        free(s.q);
        free(s.a);
        return ERR(err, CUZK_ERR_NOMEM, "GPU MSM check: sums of %zu scalars", n);
    }
    parallel_for(nq, nthreads, bk_sums_fn, &s);
    CN(fr) k;
    CN(fr_zero)(&k);
    for (size_t q = 0; q < nq; q++) bk_fold(&k, s.q[q], GPU_BENCH_NT + q);
    for (size_t j = 0; j < GPU_BENCH_NT && j < n; j++) {
        uint64_t col[5] = {0};
        for (int t = 0; t < nthreads; t++) {
            uint64_t v4[4] = {s.a[t][j][0], s.a[t][j][1], s.a[t][j][2], s.a[t][j][3]};
            bk_add5(col, v4);
            col[4] += s.a[t][j][4];
        }
        bk_fold(&k, col, j);
    }
    free(s.q);
    free(s.a);
    if (montgomery) { /* the limbs were v R mod r: K so far is R times the sum */
        CN(fr) rinv;
        memset(&rinv, 0, sizeof rinv);
        rinv.l[0] = 1; /* the Montgomery form of R^-1 */
        CN(fr_mul)(&k, &k, &rinv);
    }
    if (!bk_is_kg(group, &k, result, NULL))
        return ERR(err, CUZK_ERR_DEVICE,
                   "GPU G%d MSM of %zu points: the device's result is not [K] G for the known discrete logarithms "
                   "of its bases (a wrong MSM)", group, n);
    return CUZK_OK;
}

/* sum over j in [j0, j1) of x[j] w^j, into parts[tid] */
typedef struct bk_eval {
    const CN(fr) *x;
    CN(fr) w;
    CN(fr) *parts;
} bk_eval;

static void bk_eval_fn(void *ctx, size_t j0, size_t j1, int tid) {
    bk_eval *e = ctx;
    CN(fr) p, acc, t;
    uint64_t ex[1] = {j0};
    CN(fr_pow_vartime)(&p, &e->w, ex, 1);
    CN(fr_zero)(&acc);
    for (size_t j = j0; j < j1; j++) {
        CN(fr_mul)(&t, &e->x[j], &p);
        CN(fr_add)(&acc, &acc, &t);
        CN(fr_mul)(&p, &p, &e->w);
    }
    CN(fr_add)(&e->parts[tid], &e->parts[tid], &acc);
}

/* y = NTT(x) (forward, natural order, the curve's bench roots) for each of `batch` vectors of 2^log_m:
 * checked at indices 0, 1, m - 1 and `extra` (a fresh random index, given by the caller) of the
 * first and the last vector, each against the naive sum_j x_j omega^(jk). */
static cuzk_status bk_gpu_ntt_check(int log_m, size_t batch, const void *xv, const void *yv, uint64_t extra,
                                    int nthreads, cuzk_error *err) {
    if (nthreads <= 0) nthreads = cuzk_num_threads();
    const size_t m = (size_t)1 << log_m;
    CN(fr) omega;
    CN(ntt_root_of_unity)(&omega, log_m, BK_NTT_ROOTS);
    CN(fr) *parts = malloc((size_t)nthreads * sizeof *parts);
    if (!parts) return ERR(err, CUZK_ERR_NOMEM, "GPU NTT check");
    const size_t ks[4] = {0, 1, m - 1, extra % m};
    const size_t vs[2] = {0, batch - 1};
    for (int vi = 0; vi < (batch > 1 ? 2 : 1); vi++) {
        const CN(fr) *x = (const CN(fr) *)xv + vs[vi] * m, *y = (const CN(fr) *)yv + vs[vi] * m;
        for (int ki = 0; ki < 4; ki++) {
            bk_eval e = {x, omega, parts};
            uint64_t ex[1] = {ks[ki]};
            CN(fr_pow_vartime)(&e.w, &omega, ex, 1);
            for (int t = 0; t < nthreads; t++) CN(fr_zero)(&parts[t]);
            parallel_for(m, nthreads, bk_eval_fn, &e);
            CN(fr) sum;
            CN(fr_zero)(&sum);
            for (int t = 0; t < nthreads; t++) CN(fr_add)(&sum, &sum, &parts[t]);
            if (!CN(fr_eq)(&sum, &y[ks[ki]])) {
                free(parts);
                return ERR(err, CUZK_ERR_DEVICE,
                           "GPU NTT of 2^%d (vector %zu of %zu): output %zu is not sum_j x_j omega^(j %zu) (a wrong transform)",
                           log_m, vs[vi], batch, ks[ki], ks[ki]);
            }
        }
    }
    free(parts);
    return CUZK_OK;
}

/* Lagrange evaluations at x (not a 2^log_m-th root of unity) of the row values a, b and a * b:
 * e_v = sum_j val_v[j] L_j(x), the basis L_j(x) of the rows omega^j from the setup's
 * CN(setup_lagrange_range) (groth16/setup.h) in blocks of BK_LAG_BLOCK, each block's three dot
 * products on all threads. */
enum { BK_LAG_BLOCK = 1 << 16 };
typedef struct bk_dot3 {
    const CN(fr) *a, *b, *lag; /* lag[j - base] = L_j(x) */
    size_t base;
    CN(fr) (*parts)[3];
} bk_dot3;

static void bk_dot3_fn(void *ctx, size_t i0, size_t i1, int tid) {
    bk_dot3 *d = ctx;
    CN(fr) acc[3], t;
    for (int v = 0; v < 3; v++) CN(fr_zero)(&acc[v]);
    for (size_t i = i0; i < i1; i++) {
        const size_t j = d->base + i;
        CN(fr_mul)(&t, &d->a[j], &d->lag[i]);
        CN(fr_add)(&acc[0], &acc[0], &t);
        CN(fr_mul)(&t, &d->b[j], &d->lag[i]);
        CN(fr_add)(&acc[1], &acc[1], &t);
        CN(fr_mul)(&t, &d->a[j], &d->b[j]);
        CN(fr_mul)(&t, &t, &d->lag[i]);
        CN(fr_add)(&acc[2], &acc[2], &t);
    }
    for (int v = 0; v < 3; v++) CN(fr_add)(&d->parts[tid][v], &d->parts[tid][v], &acc[v]);
}

/* *out = A(x) B(x) - C(x) for the polynomials through a, b, a * b on the rows omega^j of the
 * convention. lag: scratch of min(m, BK_LAG_BLOCK) Fr. */
static void bk_abc_at(CN(fr) *out, const CN(fr) *a, const CN(fr) *b, int log_m, ntt_roots roots, const CN(fr) *x,
                      CN(fr) (*parts)[3], CN(fr) *lag, int nthreads) {
    const size_t m = (size_t)1 << log_m;
    CN(fr) omega_inv, scale, one, minv;
    CN(ntt_root_of_unity)(&omega_inv, log_m, roots); /* the rows are at the convention's omega^j */
    CN(fr_inv)(&omega_inv, &omega_inv);
    uint64_t ex[1] = {m};
    CN(fr_pow_vartime)(&scale, x, ex, 1); /* (x^m - 1) / m */
    CN(fr_from_u64)(&one, 1);
    CN(fr_sub)(&scale, &scale, &one);
    CN(fr_from_u64)(&minv, m);
    CN(fr_inv)(&minv, &minv);
    CN(fr_mul)(&scale, &scale, &minv);
    for (int t = 0; t < nthreads; t++)
        for (int v = 0; v < 3; v++) CN(fr_zero)(&parts[t][v]);
    for (size_t b0 = 0; b0 < m; b0 += BK_LAG_BLOCK) {
        const size_t b1 = m - b0 < BK_LAG_BLOCK ? m : b0 + BK_LAG_BLOCK;
        CN(setup_lagrange_range)(lag, b0, b1, x, &omega_inv, &scale, nthreads);
        bk_dot3 d = {a, b, lag, b0, parts};
        parallel_for(b1 - b0, nthreads, bk_dot3_fn, &d);
    }
    CN(fr) e[3];
    for (int v = 0; v < 3; v++) {
        CN(fr_zero)(&e[v]);
        for (int t = 0; t < nthreads; t++) CN(fr_add)(&e[v], &e[v], &parts[t][v]);
    }
    CN(fr_mul)(out, &e[0], &e[1]);
    CN(fr_sub)(out, out, &e[2]);
}

/* The H step's result h (m Fr) for rows a, b (2 m Fr: a then b) and c = a * b:
 *   bellperson (snarkjs 0): the coefficients of H = (A B - C) / Z, checked by the identity
 *     H(tau) (tau^m - 1) = A(tau) B(tau) - C(tau) at a fresh random tau, and h_(m-1) = 0;
 *   snarkjs: h_j = A(g w^j) B(g w^j) - C(g w^j), g = omega_2m, at j = 0, m - 1 and a random j.
 * A, B, C are evaluated from the rows by Lagrange's formula (no NTT). */
static cuzk_status bk_gpu_h_check(int snarkjs, int log_m, const void *abv, const void *hv, uint64_t seed, int nthreads,
                                  cuzk_error *err) {
    if (nthreads <= 0) nthreads = cuzk_num_threads();
    const size_t m = (size_t)1 << log_m;
    const CN(fr) *a = abv, *b = (const CN(fr) *)abv + m, *h = hv;
    CN(fr)(*parts)[3] = malloc((size_t)nthreads * sizeof *parts);
    CN(fr) *hp = malloc((size_t)nthreads * sizeof *hp);
    CN(fr) *lag = malloc((m < BK_LAG_BLOCK ? m : BK_LAG_BLOCK) * sizeof *lag);
    if (!parts || !hp || !lag) {
        free(parts);
        free(hp);
        free(lag);
        return ERR(err, CUZK_ERR_NOMEM, "GPU H check");
    }
    cuzk_status st = CUZK_OK;
    if (!snarkjs) {
        CN(fr) tau, lhs, rhs, z, one;
        bk_rand_fr(&tau, &seed);
        bk_abc_at(&rhs, a, b, log_m, NTT_ROOTS_BELLPERSON, &tau, parts, lag, nthreads);
        bk_eval e = {h, tau, hp};
        for (int t = 0; t < nthreads; t++) CN(fr_zero)(&hp[t]);
        parallel_for(m, nthreads, bk_eval_fn, &e);
        CN(fr_zero)(&lhs);
        for (int t = 0; t < nthreads; t++) CN(fr_add)(&lhs, &lhs, &hp[t]);
        uint64_t ex[1] = {m};
        CN(fr_pow_vartime)(&z, &tau, ex, 1);
        CN(fr_from_u64)(&one, 1);
        CN(fr_sub)(&z, &z, &one);
        CN(fr_mul)(&lhs, &lhs, &z);
        if (!CN(fr_eq)(&lhs, &rhs) || !CN(fr_is_zero)(&h[m - 1]))
            st = ERR(err, CUZK_ERR_DEVICE,
                     "GPU H (bellperson) of 2^%d: H(tau) Z(tau) != A(tau) B(tau) - C(tau) at a random tau, or h_(m-1) != 0 "
                     "(a wrong H)", log_m);
    } else {
        CN(fr) g, omega, x, want;
        CN(h_coset_shift)(&g, log_m, NTT_ROOTS_SNARKJS);
        CN(ntt_root_of_unity)(&omega, log_m, NTT_ROOTS_SNARKJS);
        const size_t js[3] = {0, m - 1, (size_t)(splitmix64_next(&seed) % m)};
        for (int k = 0; k < 3 && st == CUZK_OK; k++) {
            uint64_t ex[1] = {js[k]};
            CN(fr_pow_vartime)(&x, &omega, ex, 1);
            CN(fr_mul)(&x, &x, &g);
            bk_abc_at(&want, a, b, log_m, NTT_ROOTS_SNARKJS, &x, parts, lag, nthreads);
            if (!CN(fr_eq)(&want, &h[js[k]]))
                st = ERR(err, CUZK_ERR_DEVICE,
                         "GPU H (snarkjs) of 2^%d: output %zu is not A B - C at g omega^%zu (a wrong H)", log_m, js[k],
                         js[k]);
        }
    }
    free(parts);
    free(hp);
    free(lag);
    return st;
}

/* points[i] = scalars[i] G (affine; scalars as Montgomery Fr) at `samples` indices: 0, n - 1 and
 * the others drawn from rng */
static cuzk_status bk_gpu_fixed_base_check(int group, const uint64_t *scalars, const void *points, size_t n,
                                           uint64_t rng, cuzk_error *err) {
    for (int t = 0; t < 64; t++) {
        const size_t i = t == 0 ? 0 : t == 1 ? n - 1 : (size_t)(splitmix64_next(&rng) % n);
        CN(fr) k;
        memcpy(&k, scalars + 4 * i, sizeof k);
        const void *p = group == 2 ? (const void *)((const CN(g2_affine) *)points + i)
                                   : (const void *)((const CN(g1_affine) *)points + i);
        if (!bk_is_kg(group, &k, NULL, p))
            return ERR(err, CUZK_ERR_DEVICE, "GPU fixed-base G%d of %zu points: point %zu is not its scalar times G",
                       group, n, i);
    }
    return CUZK_OK;
}

const benchkit_curve BK_TABLE = {
    bk_op_time, bk_ntt_create, bk_ntt_run, bk_ntt_free, bk_msm_create, bk_msm_run, bk_msm_free,
    bk_generator, bk_gpu_msm_check, bk_gpu_ntt_check, bk_gpu_h_check, bk_gpu_fixed_base_check,
};
