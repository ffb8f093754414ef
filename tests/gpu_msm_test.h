/* Shared by the device MSM suites (tests/test_gpu_msm.c: G1, tests/test_gpu_g2.c: G2, and the
 * BN254 and kernel suites, tests/test_gpu_bn254.c, tests/test_gpu.c; built only with CUDA):
 * CHECK_OK, a device context on device 0, canonical Fr scalars of each curve (uniform below r,
 * small values, r - k, kinds and 0/1-heavy mixes), device copies of scalars and indices, the tuning
 * the resident-MSM checks give their jobs, and per group (g1, g2, bn254_g1, bn254_g2) the helpers
 * of tests/gpu_msm_test_impl.h: random bases, point equality, the CPU reference MSM, adversarial
 * bases, the host-array, resident and streamed (host bases, issue 23) MSM checked against the
 * CPU, and the case sequences the G1 and G2 suites share. */
#ifndef CUZK_TESTS_GPU_MSM_TEST_H
#define CUZK_TESTS_GPU_MSM_TEST_H

#include <stdlib.h>
#include <string.h>

#include "cuda/gpu.h"
#include "curves/curve.h"
#include "ff/ns.h" /* CUZK_CAT2, for the template */
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

/* uniform below r, r - k: r of `curve` */
static inline void rand_scalar_on(scalar256 *s, cuzk_curve curve) {
    if (curve == CUZK_CURVE_BN254) bn254_rand_scalar(s);
    else rand_scalar(s);
}
static inline void r_minus_on(scalar256 *s, uint64_t k, cuzk_curve curve) {
    if (curve == CUZK_CURVE_BN254) bn254_r_minus(s, k);
    else r_minus(s, k);
}

/* scalar kinds for mixes */
enum { K_RANDOM, K_ZERO, K_ONE, K_RM1, K_TWO };
static inline void scalar_of_kind_on(scalar256 *s, int kind, cuzk_curve curve) {
    switch (kind) {
    case K_ZERO: small_scalar(s, 0); break;
    case K_ONE: small_scalar(s, 1); break;
    case K_TWO: small_scalar(s, 2); break;
    case K_RM1: r_minus_on(s, 1, curve); break;
    default: rand_scalar_on(s, curve); break;
    }
}
static inline void scalar_of_kind(scalar256 *s, int kind) { scalar_of_kind_on(s, kind, CUZK_CURVE_BLS12_381); }
/* frac01 of the scalars 0 or 1 (half each), the rest random; 1 in 16 of the rest r-1 or 2 (r of
 * `curve`; mix_scalars: BLS12-381) */
static inline void mix_scalars_on(scalar256 *s, size_t n, double frac01, cuzk_curve curve) {
    for (size_t i = 0; i < n; i++) {
        uint64_t h = test_rand64();
        double u = (double)(h >> 11) / 9007199254740992.0;
        if (u < frac01) scalar_of_kind_on(&s[i], (h & 1) ? K_ONE : K_ZERO, curve);
        else if ((h & 30) == 0) scalar_of_kind_on(&s[i], (h & 32) ? K_RM1 : K_TWO, curve);
        else rand_scalar_on(&s[i], curve);
    }
}
static inline void mix_scalars(scalar256 *s, size_t n, double frac01) { mix_scalars_on(s, n, frac01, CUZK_CURVE_BLS12_381); }
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

/* The tuning check_case_G gives its jobs (zeros: automatic); a test that sets it puts zeros back. */
static gpu_msm_tuning g_tuning;

/* ---- per group: tests/gpu_msm_test_impl.h ------------------------------------------------------
 * The names of its templates (and of tests/gpu_msm_test_suite.h's), for the group of the pass
 * (MSMT_G, MSMT_GPU_G: see gpu_msm_test_impl.h). */
#define TG(suffix) CUZK_CAT2(MSMT_G, suffix)                        /* TG(_affine): g1_affine */
#define TD(suffix) CUZK_CAT2(CUZK_CAT2(gpu_, MSMT_G), suffix)       /* TD(_msm_run): gpu_g1_msm_run */
#define TB(suffix) CUZK_CAT2(CUZK_CAT2(gpu_, MSMT_GPU_G), suffix)   /* TB(_bases): gpu_g1_bases */
#define TESTG(name) CUZK_CAT2(name, CUZK_CAT2(_, MSMT_G))           /* TESTG(check_case): check_case_g1 */
#define TG_STR_(x) #x
#define TG_STR(x) TG_STR_(x)
#define TG_NAME TG_STR(MSMT_G) /* "g1", "bn254_g2" */
#define MSMT_G g1
#define MSMT_GPU_G g1
#define MSMT_JOB gpu_msm_job
#define MSMT_CURVE CUZK_CURVE_BLS12_381
#include "gpu_msm_test_impl.h"
#define MSMT_G g2
#define MSMT_GPU_G g2
#define MSMT_JOB gpu_g2_msm_job
#define MSMT_CURVE CUZK_CURVE_BLS12_381
#include "gpu_msm_test_impl.h"
#define MSMT_G bn254_g1
#define MSMT_GPU_G g1
#define MSMT_JOB gpu_msm_job
#define MSMT_CURVE CUZK_CURVE_BN254
#include "gpu_msm_test_impl.h"
#define MSMT_G bn254_g2
#define MSMT_GPU_G g2
#define MSMT_JOB gpu_g2_msm_job
#define MSMT_CURVE CUZK_CURVE_BN254
#include "gpu_msm_test_impl.h"

#endif
