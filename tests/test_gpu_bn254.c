/* GPU suite for BN254 (snarkjs / circom "bn128"): the device kernels instantiated for BN254
 * (src/cuda/curve_bn254.cuh) against the CPU reference of src/curves/bn254: the G1 MSM on random
 * and adversarial inputs, the NTT both ways. Skips cleanly without CUDA at build time or without a
 * device at run time. */
#include "test.h"

#ifndef CUZK_HAVE_CUDA

TEST(gpu_bn254, available) { SKIP("built without CUDA"); }

#else

#include <stdlib.h>
#include <string.h>

#include "cuda/gpu.h"
#include "curves/bn254/curve.h"
#include "gpu_test.h"

static const uint64_t R_BN254[4] = BN254_FR_MODULUS;

/* canonical scalar uniform below r (rejection) */
static void rand_scalar(scalar256 *s) {
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
static void small_scalar(scalar256 *s, uint64_t v) {
    memset(s, 0, sizeof *s);
    s->l[0] = v;
}
static void r_minus(scalar256 *s, uint64_t k) {
    memcpy(s->l, R_BN254, sizeof s->l);
    s->l[0] -= k; /* r's low limb is far above any k used here */
}

/* n random multiples of the generator (affine), one inversion for all */
static void rand_bases(bn254_g1_affine *b, size_t n) {
    bn254_g1_affine g;
    bn254_g1_jacobian gj;
    bn254_g1_generator(&g);
    bn254_g1_jacobian_from_affine(&gj, &g);
    bn254_g1_jacobian *j = malloc(n * sizeof *j);
    if (!j) abort();
    for (size_t i = 0; i < n; i++) {
        scalar256 s;
        bn254_fr k;
        rand_scalar(&s);
        bn254_fr_from_canon(&k, s.l);
        bn254_g1_mul_fr(&j[i], &gj, &k);
    }
    bn254_g1s_jacobian_to_affine(b, j, n);
    free(j);
}

static void check_msm(const char *what, const bn254_g1_affine *b, const scalar256 *s, size_t n) {
    bn254_g1_jacobian ref, got;
    bn254_g1_msm(&ref, b, s, n, 2);
    memset(&got, 0x5a, sizeof got);
    cuzk_error e = {0};
    cuzk_status st = gpu_bn254_g1_msm((struct bn254_g1_jacobian *)&got, (const struct bn254_g1_affine *)b,
                                      (const struct scalar256 *)s, n, &e);
    CHECK_MSG(st == CUZK_OK, "%s (n=%zu): %s (%s)", what, n, cuzk_status_str(st), e.msg);
    if (st == CUZK_OK) CHECK_MSG(bn254_g1_jacobian_eq(&got, &ref), "%s (n=%zu): GPU != bn254_g1_msm", what, n);
}

TEST(gpu_bn254, msm_vs_cpu) {
    NEED_GPU();
    static const size_t sizes[] = {0, 1, 2, 3, 17, 257, 1000, 4099, 20011};
    const size_t nmax = 20011;
    bn254_g1_affine *b = malloc(nmax * sizeof *b);
    scalar256 *s = malloc(nmax * sizeof *s);
    REQUIRE(b && s);
    for (size_t t = 0; t < sizeof sizes / sizeof *sizes; t++) {
        const size_t n = sizes[t];
        rand_bases(b, n ? n : 1);
        for (size_t i = 0; i < n; i++) rand_scalar(&s[i]);
        check_msm("random", b, s, n);
        /* 0, 1, 2, r-1, random; infinity, repeated and opposite bases */
        for (size_t i = 0; i < n; i++) {
            switch (i % 5) {
            case 0: small_scalar(&s[i], 0); break;
            case 1: small_scalar(&s[i], 1); break;
            case 2: small_scalar(&s[i], 2); break;
            case 3: r_minus(&s[i], 1); break;
            default: rand_scalar(&s[i]); break;
            }
        }
        for (size_t i = 0; i < n; i += 13) bn254_g1_affine_set_infinity(&b[i]);
        for (size_t i = 5; i + 1 < n; i += 11) b[i + 1] = b[i];
        for (size_t i = 8; i + 1 < n; i += 17) bn254_g1_affine_neg(&b[i + 1], &b[i]);
        check_msm("kinds, inf/repeated/opposite bases", b, s, n);
        for (size_t i = 0; i < n; i++) r_minus(&s[i], 1);
        check_msm("all r-1 (one bucket per window)", b, s, n);
    }
    /* P next to -P with equal scalars: the hot bucket sums to infinity */
    const size_t n = 4099;
    rand_bases(b, n);
    for (size_t i = 1; i < n; i += 2) bn254_g1_affine_neg(&b[i], &b[i - 1]);
    bn254_g1_affine_set_infinity(&b[n - 1]);
    scalar256 common;
    rand_scalar(&common);
    for (size_t i = 0; i < n; i++) s[i] = common;
    check_msm("equal scalars, P/-P pairs", b, s, n);
    free(b);
    free(s);
}

TEST(gpu_bn254, ntt_vs_cpu) {
    NEED_GPU();
    for (int lg = 1; lg <= 20; lg++) {
        const size_t m = (size_t)1 << lg;
        bn254_fr *x = malloc(m * sizeof *x), *y = malloc(m * sizeof *y);
        REQUIRE(x && y);
        for (size_t i = 0; i < m; i++) {
            scalar256 s;
            rand_scalar(&s);
            bn254_fr_from_canon(&x[i], s.l);
        }
        bn254_ntt_domain d;
        REQUIRE(bn254_ntt_domain_init(&d, lg, NTT_ROOTS_SNARKJS) == CUZK_OK);
        for (int dir = 0; dir < 2; dir++) {
            memcpy(y, x, m * sizeof *x);
            cuzk_error e = {0};
            cuzk_status st = gpu_bn254_ntt((struct bn254_fr *)y, 1, lg, dir ? GPU_NTT_INVERSE : GPU_NTT_FORWARD, &e);
            CHECK_MSG(st == CUZK_OK, "log_m %d dir %d: %s (%s)", lg, dir, cuzk_status_str(st), e.msg);
            if (dir) bn254_ntt_inverse(&d, x, 2);
            else bn254_ntt_forward(&d, x, 2);
            CHECK_MSG(st != CUZK_OK || memcmp(x, y, m * sizeof *x) == 0, "log_m %d dir %d: GPU != CPU", lg, dir);
            if (dir == 0) memcpy(x, y, m * sizeof *x); /* then the inverse of the forward */
        }
        bn254_ntt_domain_free(&d);
        free(x);
        free(y);
    }
    cuzk_error e = {0};
    CHECK(gpu_bn254_ntt(NULL, 1, 29, GPU_NTT_FORWARD, &e) == CUZK_ERR_ARG);
    CHECK(gpu_bn254_ntt(NULL, 1, 0, GPU_NTT_FORWARD, &e) == CUZK_ERR_ARG);
}

#endif
