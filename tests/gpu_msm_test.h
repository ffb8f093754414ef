/* Shared by the device MSM suites over BLS12-381 (tests/test_gpu_msm.c: G1, tests/test_gpu_g2.c:
 * G2; built only with CUDA): CHECK_OK, a device context on device 0, and canonical Fr scalars
 * (uniform below r, small values, r - k) for the inputs the suites compare against src/msm. */
#ifndef CUZK_TESTS_GPU_MSM_TEST_H
#define CUZK_TESTS_GPU_MSM_TEST_H

#include <string.h>

#include "cuda/gpu.h"
#include "curves/bls12_381/curve.h"
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

static const uint64_t R_MOD[4] = BLS12_381_FR_MODULUS;

static inline void rand_scalar(scalar256 *s) {
    uint64_t t[4];
    test_rand_bytes(t, sizeof t);
    fr_mod(s->l, t);
}
static inline void small_scalar(scalar256 *s, uint64_t v) {
    memset(s, 0, sizeof *s);
    s->l[0] = v;
}
static inline void r_minus(scalar256 *s, uint64_t k) {
    memcpy(s->l, R_MOD, sizeof s->l);
    s->l[0] -= k; /* the low limb of r is 1 ... 0xffffffff00000001: no borrow for small k */
}

#endif
