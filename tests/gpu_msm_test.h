/* Shared by the device MSM suites (tests/test_gpu_msm.c: G1, tests/test_gpu_g2.c: G2, and the
 * BN254 and kernel suites, tests/test_gpu_bn254.c, tests/test_gpu.c; built only with CUDA):
 * CHECK_OK, a device context on device 0, canonical Fr scalars of each curve (uniform below r,
 * small values, r - k, kinds and 0/1-heavy mixes), device copies of scalars and indices, and per
 * group (g1, g2, bn254_g1, bn254_g2) random bases, the CPU reference MSM and point equality. */
#ifndef CUZK_TESTS_GPU_MSM_TEST_H
#define CUZK_TESTS_GPU_MSM_TEST_H

#include <stdlib.h>
#include <string.h>

#include "cuda/gpu.h"
#include "curves/curve.h"
#include "cuzk/prover.h" /* cuzk_curve */
#include "gpu_test.h"

#define CHECK_OK(call)                                                                         \
    do {                                                                                       \
        cuzk_status s_ = (call);                                                               \
        CHECK_MSG(s_ == CUZK_OK, "%s: %s", #call, cuzk_status_str(s_));                        \
    } while (0)

static inline gpu_ctx *new_ctx(void) {
    gpu_ctx *ctx = NULL;
    cuzk_error e = {0};
    cuzk_status st = gpu_ctx_create(&ctx, 0, &e);
    CHECK_MSG(st == CUZK_OK && ctx, "gpu_ctx_create: %s (%s)", cuzk_status_str(st), e.msg);
    return ctx;
}

/* ---- canonical scalars ------------------------------------------------------------------------ */
static const uint64_t R_MOD[4] = BLS12_381_FR_MODULUS;
static const uint64_t R_BN254[4] = BN254_FR_MODULUS;

/* uniform below BLS12-381's r */
static inline void rand_scalar(scalar256 *s) {
    uint64_t t[4];
    test_rand_bytes(t, sizeof t);
    fr_mod(s->l, t);
}
/* uniform below BN254's r (rejection) */
static inline void bn254_rand_scalar(scalar256 *s) {
    for (;;) {
        for (int k = 0; k < 4; k++) s->l[k] = test_rand64();
        s->l[3] &= 0x3fffffffffffffffull;
        int lt = 0;
        for (int k = 3; k >= 0; k--) {
            if (s->l[k] != R_BN254[k]) { lt = s->l[k] < R_BN254[k]; break; }
        }
        if (lt) return;
    }
}
static inline void small_scalar(scalar256 *s, uint64_t v) {
    memset(s, 0, sizeof *s);
    s->l[0] = v;
}
/* r - k (BLS12-381; bn254_: BN254): the low limb of each r is far above any k used here */
static inline void r_minus(scalar256 *s, uint64_t k) {
    memcpy(s->l, R_MOD, sizeof s->l);
    s->l[0] -= k;
}
static inline void bn254_r_minus(scalar256 *s, uint64_t k) {
    memcpy(s->l, R_BN254, sizeof s->l);
    s->l[0] -= k;
}

/* scalar kinds for mixes */
enum { K_RANDOM, K_ZERO, K_ONE, K_RM1, K_TWO };
static inline void scalar_of_kind_on(scalar256 *s, int kind, cuzk_curve curve) {
    switch (kind) {
    case K_ZERO: small_scalar(s, 0); break;
    case K_ONE: small_scalar(s, 1); break;
    case K_TWO: small_scalar(s, 2); break;
    case K_RM1: curve == CUZK_CURVE_BN254 ? bn254_r_minus(s, 1) : r_minus(s, 1); break;
    default: curve == CUZK_CURVE_BN254 ? bn254_rand_scalar(s) : rand_scalar(s); break;
    }
}
static inline void scalar_of_kind(scalar256 *s, int kind) { scalar_of_kind_on(s, kind, CUZK_CURVE_BLS12_381); }
/* frac01 of the scalars 0 or 1 (half each), the rest random; 1 in 16 of the rest r-1 or 2
 * (BLS12-381) */
static inline void mix_scalars(scalar256 *s, size_t n, double frac01) {
    for (size_t i = 0; i < n; i++) {
        uint64_t h = test_rand64();
        double u = (double)(h >> 11) / 9007199254740992.0;
        if (u < frac01) scalar_of_kind(&s[i], (h & 1) ? K_ONE : K_ZERO);
        else if ((h & 30) == 0) scalar_of_kind(&s[i], (h & 32) ? K_RM1 : K_TWO);
        else rand_scalar(&s[i]);
    }
}
/* host counts of zero / one / other scalars of a job */
static inline void count_kinds(const scalar256 *s, const uint32_t *idx, size_t n, size_t c[3]) {
    c[0] = c[1] = c[2] = 0;
    for (size_t k = 0; k < n; k++) {
        const scalar256 *x = &s[idx ? idx[k] : k];
        bool hi0 = (x->l[1] | x->l[2] | x->l[3]) == 0;
        if (hi0 && x->l[0] == 0) c[0]++;
        else if (hi0 && x->l[0] == 1) c[1]++;
        else c[2]++;
    }
}

/* ---- device copies ---------------------------------------------------------------------------- */
/* The scalars s[0..ns) on the device, in Montgomery form of `curve`'s Fr when mont. */
static inline void *upload_scalars(gpu_ctx *ctx, const scalar256 *s, size_t ns, bool mont, cuzk_curve curve) {
    void *d = NULL;
    cuzk_error e = {0};
    scalar256 *tmp = malloc((ns ? ns : 1) * sizeof *tmp);
    if (!tmp) abort();
    for (size_t i = 0; i < ns; i++) {
        if (mont && curve == CUZK_CURVE_BN254) bn254_fr_from_canon((bn254_fr *)&tmp[i], s[i].l);
        else if (mont) fr_from_canon((fr *)&tmp[i], s[i].l);
        else tmp[i] = s[i];
    }
    cuzk_status st = gpu_buf_alloc(ctx, &d, ns * 32, &e);
    if (st == CUZK_OK) st = gpu_copy_h2d_async(ctx, d, tmp, ns * 32, &e);
    if (st == CUZK_OK) st = gpu_sync(ctx, &e);
    CHECK_MSG(st == CUZK_OK, "upload scalars: %s", e.msg);
    free(tmp);
    return d;
}
static inline void *upload_u32(gpu_ctx *ctx, const uint32_t *v, size_t n) {
    void *d = NULL;
    cuzk_error e = {0};
    cuzk_status st = gpu_buf_alloc(ctx, &d, n * 4, &e);
    if (st == CUZK_OK) st = gpu_copy_h2d_async(ctx, d, v, n * 4, &e);
    if (st == CUZK_OK) st = gpu_sync(ctx, &e);
    CHECK_MSG(st == CUZK_OK, "upload index: %s", e.msg);
    return d;
}

/* ---- per group: rand_bases_G, same_point_G, ref_msm_G ------------------------------------------
 * rand_bases_G(out, n): n affine points, P_0 a random multiple of the generator, P_{i+1} = P_i + Q,
 * Q a random multiple (one inversion for all); RAND_K draws the multiples.
 * same_point_G(a, b): a and b (Jacobian) are the same point.
 * ref_msm_G(out, b, s, idx, n): out = sum_{k<n} s[idx ? idx[k] : k] * b[k] on the CPU. */
#define GPU_MSM_TEST_GROUP(G, RAND_K)                                                                \
    static inline void rand_bases_##G(G##_affine *out, size_t n) {                                   \
        G##_affine g, q;                                                                             \
        G##_jacobian gj, p, qj;                                                                      \
        G##_generator(&g);                                                                           \
        G##_jacobian_from_affine(&gj, &g);                                                           \
        scalar256 k;                                                                                 \
        RAND_K(&k);                                                                                  \
        G##_mul_vartime(&p, &gj, k.l, 4);                                                            \
        RAND_K(&k);                                                                                  \
        G##_mul_vartime(&qj, &gj, k.l, 4);                                                           \
        G##_jacobian_to_affine(&q, &qj);                                                             \
        G##_jacobian *tmp = malloc((n ? n : 1) * sizeof *tmp);                                       \
        if (!tmp) abort();                                                                           \
        for (size_t i = 0; i < n; i++) {                                                             \
            tmp[i] = p;                                                                              \
            G##_jacobian_add_mixed(&p, &p, &q);                                                      \
        }                                                                                            \
        G##s_jacobian_to_affine(out, tmp, n);                                                        \
        free(tmp);                                                                                   \
    }                                                                                                \
    static inline bool same_point_##G(const G##_jacobian *a, const G##_jacobian *b) {                \
        G##_affine x, y;                                                                             \
        G##_jacobian_to_affine(&x, a);                                                               \
        G##_jacobian_to_affine(&y, b);                                                               \
        return G##_affine_eq(&x, &y);                                                                \
    }                                                                                                \
    static inline void ref_msm_##G(G##_jacobian *out, const G##_affine *b, const scalar256 *s, const uint32_t *idx, \
                                   size_t n) {                                                       \
        scalar256 *g = calloc(n ? n : 1, sizeof *g);                                                 \
        if (!g) abort();                                                                             \
        for (size_t k = 0; k < n; k++) g[k] = s[idx ? idx[k] : k];                                   \
        G##_msm(out, b, g, n, 0);                                                                    \
        free(g);                                                                                     \
    }
GPU_MSM_TEST_GROUP(g1, rand_scalar)
GPU_MSM_TEST_GROUP(g2, rand_scalar)
GPU_MSM_TEST_GROUP(bn254_g1, bn254_rand_scalar)
GPU_MSM_TEST_GROUP(bn254_g2, bn254_rand_scalar)

#endif
