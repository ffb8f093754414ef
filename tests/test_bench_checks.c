/* The checks that the GPU benchmarks run on their timed results (suite `bench_checks`;
 * src/benchkit/kernels_impl.h: gpu_msm_check, gpu_ntt_check, gpu_fixed_base_check). They run on
 * the CPU, so they are tested here without a GPU: each is given what a correct device computes
 * (made here by independent CPU code: the CPU MSM over the bench bases built from their discrete
 * logarithms, the CPU NTT, scalar multiplications) and must accept it, then given results with
 * one thing wrong (another point, one scalar changed, the other NTT convention, one output point)
 * and must refuse each with CUZK_ERR_DEVICE.
 */
#include <stdlib.h>
#include <string.h>

#include "benchkit/kernels.h"
#include "cuda/gpu.h"
#include "curves/bls12_381/curve.h"
#include "curves/bn254/curve.h"
#include "test.h"

/* Uniform below 2^253 (< r of both curves): a canonical value and a Montgomery representation. */
static void rand_scalar(uint64_t l[4]) {
    test_rand_bytes(l, 32);
    l[3] &= UINT64_MAX >> 3;
}

/* For group G of a curve (prefix P: g1, g2, bn254_g1, bn254_g2; FR its scalar field):
 * bases_P(n) = the bench bases of src/cuda/gpu.h, [dlog(i mod NT) + dlog(NT + i / NT)] G, made
 * from a table of the dlog multiples as the device does, but with the CPU's formulas. */
#define BENCH_BASES(P, FR)                                                                         \
    static P##_affine *bases_##P(size_t n) {                                                       \
        const size_t nt = GPU_BENCH_NT, nq = (n + nt - 1) / nt;                                    \
        P##_affine g, *tab = malloc((nt + nq) * sizeof *tab), *out = malloc(n * sizeof *out);      \
        P##_jacobian *j = malloc((nt + nq > n ? nt + nq : n) * sizeof *j);                         \
        if (!tab || !out || !j) abort();                                                           \
        P##_generator(&g);                                                                         \
        for (size_t t = 0; t < nt + nq; t++) {                                                     \
            FR k;                                                                                  \
            FR##_from_u64(&k, gpu_bench_dlog(t));                                                  \
            P##_jacobian_from_affine(&j[t], &g);                                                   \
            P##_mul_fr_vartime(&j[t], &j[t], &k);                                                  \
        }                                                                                          \
        P##s_jacobian_to_affine(tab, j, nt + nq);                                                  \
        for (size_t i = 0; i < n; i++) {                                                           \
            P##_jacobian_from_affine(&j[i], &tab[i % nt]);                                         \
            P##_jacobian_add_mixed(&j[i], &j[i], &tab[nt + i / nt]);                               \
        }                                                                                          \
        P##s_jacobian_to_affine(out, j, n);                                                        \
        free(tab);                                                                                 \
        free(j);                                                                                   \
        return out;                                                                                \
    }
BENCH_BASES(g1, fr)
BENCH_BASES(g2, fr)
BENCH_BASES(bn254_g1, bn254_fr)

/* The check accepts the CPU MSM of canonical and of Montgomery scalars, and refuses a result plus
 * G, and the right result with one scalar changed. n spans three blocks of the bases' rows and
 * has a partial last one. */
#define MSM_CHECK_TEST(NAME, P, FR, TABLE, GROUP)                                                  \
    TEST(bench_checks, NAME##_msm) {                                                               \
        const size_t n = 2 * GPU_BENCH_NT + 77;                                                    \
        P##_affine *b = bases_##P(n), g;                                                           \
        scalar256 *s = malloc(n * sizeof *s);                                                      \
        uint64_t *mont = malloc(n * 32);                                                           \
        REQUIRE(s && mont);                                                                        \
        for (size_t i = 0; i < n; i++) {                                                           \
            rand_scalar(s[i].l);                                                                   \
            if (i % 5 == 0) memset(s[i].l, 0, 32), s[i].l[0] = i % 10 == 0; /* some 0 and 1 */     \
            FR f;                                                                                  \
            FR##_from_canon(&f, s[i].l);                                                           \
            memcpy(mont + 4 * i, f.l, 32);                                                         \
        }                                                                                          \
        P##_jacobian r, bad;                                                                       \
        P##_msm(&r, b, s, n, 2);                                                                   \
        cuzk_error e;                                                                              \
        memset(&e, 0, sizeof e);                                                                   \
        CHECK_EQ_INT(TABLE.gpu_msm_check(GROUP, &r, (const uint64_t *)s, n, 0, 2, &e), CUZK_OK);   \
        CHECK_EQ_INT(TABLE.gpu_msm_check(GROUP, &r, mont, n, 1, 3, &e), CUZK_OK);                  \
        /* wrong: the result plus G; the scalars read as the other form; one scalar changed */     \
        P##_generator(&g);                                                                         \
        P##_jacobian_add_mixed(&bad, &r, &g);                                                      \
        CHECK_EQ_INT(TABLE.gpu_msm_check(GROUP, &bad, (const uint64_t *)s, n, 0, 2, &e), CUZK_ERR_DEVICE); \
        CHECK(strstr(e.msg, "MSM") != NULL);                                                       \
        CHECK_EQ_INT(TABLE.gpu_msm_check(GROUP, &r, (const uint64_t *)s, n, 1, 2, &e), CUZK_ERR_DEVICE); \
        s[n - 1].l[0] ^= 4;                                                                        \
        CHECK_EQ_INT(TABLE.gpu_msm_check(GROUP, &r, (const uint64_t *)s, n, 0, 1, &e), CUZK_ERR_DEVICE); \
        /* the infinity answer of a device that summed nothing */                                  \
        P##_jacobian_set_infinity(&bad);                                                           \
        CHECK_EQ_INT(TABLE.gpu_msm_check(GROUP, &bad, mont, n, 1, 2, &e), CUZK_ERR_DEVICE);        \
        free(b);                                                                                   \
        free(s);                                                                                   \
        free(mont);                                                                                \
    }
MSM_CHECK_TEST(bls12_381_g1, g1, fr, benchkit_bls12_381, 1)
MSM_CHECK_TEST(bls12_381_g2, g2, fr, benchkit_bls12_381, 2)
MSM_CHECK_TEST(bn254_g1, bn254_g1, bn254_fr, benchkit_bn254, 1)

/* The NTT check accepts the CPU forward NTT of two vectors (BLS12-381: bellperson roots; BN254:
 * snarkjs roots, what the GPU benchmarks run), and refuses the transform of the other convention,
 * a wrong output at a fixed sampled index (1, m - 1) or at the random one, and a wrong last vector. */
#define NTT_CHECK_TEST(NAME, P, TABLE, ROOTS, OTHER)                                               \
    TEST(bench_checks, NAME##_ntt) {                                                               \
        const int log_m = 10;                                                                      \
        const size_t m = (size_t)1 << log_m;                                                       \
        P##fr *x = malloc(2 * m * sizeof *x), *y = malloc(2 * m * sizeof *y);                      \
        REQUIRE(x && y);                                                                           \
        for (size_t i = 0; i < 2 * m; i++) rand_scalar(x[i].l);                                    \
        P##ntt_domain d;                                                                           \
        REQUIRE(P##ntt_domain_init(&d, log_m, ROOTS) == CUZK_OK);                                  \
        memcpy(y, x, 2 * m * sizeof *x);                                                           \
        P##ntt_forward(&d, y, 2);                                                                  \
        P##ntt_forward(&d, y + m, 2);                                                              \
        cuzk_error e;                                                                              \
        memset(&e, 0, sizeof e);                                                                   \
        uint64_t extra;                                                                            \
        test_rand_bytes(&extra, sizeof extra);                                                     \
        CHECK_EQ_INT(TABLE.gpu_ntt_check(log_m, 2, x, y, extra, 3, &e), CUZK_OK);                  \
        CHECK_EQ_INT(TABLE.gpu_ntt_check(log_m, 1, x, y, extra, 1, &e), CUZK_OK);                  \
        y[1].l[0] ^= 1;                                                                            \
        CHECK_EQ_INT(TABLE.gpu_ntt_check(log_m, 2, x, y, extra, 2, &e), CUZK_ERR_DEVICE);          \
        CHECK(strstr(e.msg, "NTT") != NULL);                                                       \
        y[1].l[0] ^= 1;                                                                            \
        y[2 * m - 1].l[1] ^= 1; /* the last vector's m - 1 */                                      \
        CHECK_EQ_INT(TABLE.gpu_ntt_check(log_m, 2, x, y, extra, 2, &e), CUZK_ERR_DEVICE);          \
        CHECK_EQ_INT(TABLE.gpu_ntt_check(log_m, 1, x, y, extra, 2, &e), CUZK_OK);                  \
        y[2 * m - 1].l[1] ^= 1;                                                                    \
        y[extra % m].l[2] ^= 1; /* the random index */                                             \
        CHECK_EQ_INT(TABLE.gpu_ntt_check(log_m, 1, x, y, extra, 2, &e), CUZK_ERR_DEVICE);          \
        y[extra % m].l[2] ^= 1;                                                                    \
        /* the other roots' transform: right at index 0 only */                                    \
        P##ntt_domain o;                                                                           \
        if (OTHER >= 0 && P##ntt_domain_init(&o, log_m, (ntt_roots)OTHER) == CUZK_OK) {            \
            memcpy(y, x, m * sizeof *x);                                                           \
            P##ntt_forward(&o, y, 2);                                                              \
            CHECK_EQ_INT(TABLE.gpu_ntt_check(log_m, 1, x, y, extra, 2, &e), CUZK_ERR_DEVICE);      \
            P##ntt_domain_free(&o);                                                                \
        }                                                                                          \
        /* the inverse transform instead of the forward one */                                     \
        memcpy(y, x, m * sizeof *x);                                                               \
        P##ntt_inverse(&d, y, 2);                                                                  \
        CHECK_EQ_INT(TABLE.gpu_ntt_check(log_m, 1, x, y, extra, 2, &e), CUZK_ERR_DEVICE);          \
        P##ntt_domain_free(&d);                                                                    \
        free(x);                                                                                   \
        free(y);                                                                                   \
    }
NTT_CHECK_TEST(bls12_381, , benchkit_bls12_381, NTT_ROOTS_BELLPERSON, NTT_ROOTS_SNARKJS)
NTT_CHECK_TEST(bn254, bn254_, benchkit_bn254, NTT_ROOTS_SNARKJS, -1)

/* The fixed-base check accepts scalar multiples made by the CPU and refuses one wrong point at a
 * fixed sampled index (0, n - 1). BLS12-381 (the setup's curve), both groups. */
#define FB_CHECK_TEST(P, GROUP)                                                                    \
    TEST(bench_checks, fixed_base_##P) {                                                           \
        const size_t n = 200;                                                                      \
        uint64_t *sc = malloc(n * 32);                                                             \
        P##_affine *pts = malloc(n * sizeof *pts), g;                                              \
        REQUIRE(sc && pts);                                                                        \
        P##_generator(&g);                                                                         \
        for (size_t i = 0; i < n; i++) {                                                           \
            fr k;                                                                                  \
            rand_scalar(k.l);                                                                      \
            memcpy(sc + 4 * i, k.l, 32);                                                           \
            P##_jacobian j;                                                                        \
            P##_jacobian_from_affine(&j, &g);                                                      \
            P##_mul_fr_vartime(&j, &j, &k);                                                        \
            P##_jacobian_to_affine(&pts[i], &j);                                                   \
        }                                                                                          \
        cuzk_error e;                                                                              \
        memset(&e, 0, sizeof e);                                                                   \
        CHECK_EQ_INT(benchkit_bls12_381.gpu_fixed_base_check(GROUP, sc, pts, n, 42, &e), CUZK_OK); \
        pts[n - 1] = pts[0];                                                                       \
        CHECK_EQ_INT(benchkit_bls12_381.gpu_fixed_base_check(GROUP, sc, pts, n, 42, &e), CUZK_ERR_DEVICE); \
        CHECK(strstr(e.msg, "fixed-base") != NULL);                                                \
        free(sc);                                                                                  \
        free(pts);                                                                                 \
    }
FB_CHECK_TEST(g1, 1)
FB_CHECK_TEST(g2, 2)

/* The H check accepts the CPU's H of rows a, b and c = a * b in both conventions (BLS12-381: the
 * GPU H benchmark's curve), and refuses: a changed coefficient, a nonzero h_(m-1), the H of
 * another c (not divisible: the identity fails), and a snarkjs output changed at a sampled index. */
TEST(bench_checks, h_both_conventions) {
    const int log_m = 9;
    const size_t m = (size_t)1 << log_m;
    fr *ab = malloc(2 * m * sizeof *ab), *h = malloc(m * sizeof *h), *b = malloc(m * sizeof *b),
       *c = malloc(m * sizeof *c);
    REQUIRE(ab && h && b && c);
    cuzk_error e;
    memset(&e, 0, sizeof e);
    for (int snarkjs = 0; snarkjs < 2; snarkjs++) {
        for (size_t i = 0; i < 2 * m; i++) rand_scalar(ab[i].l);
        ntt_domain d;
        REQUIRE(ntt_domain_init(&d, log_m, snarkjs ? NTT_ROOTS_SNARKJS : NTT_ROOTS_BELLPERSON) == CUZK_OK);
        memcpy(h, ab, m * sizeof *h);
        memcpy(b, ab + m, m * sizeof *b);
        for (size_t i = 0; i < m; i++) fr_mul(&c[i], &ab[i], &ab[m + i]);
        if (snarkjs) h_snarkjs(&d, h, b, c, 2);
        else h_bellperson(&d, h, b, c, 2);
        uint64_t seed;
        test_rand_bytes(&seed, sizeof seed);
        CHECK_EQ_INT(benchkit_bls12_381.gpu_h_check(snarkjs, log_m, ab, h, seed, 3, &e), CUZK_OK);
        CHECK_EQ_INT(benchkit_bls12_381.gpu_h_check(snarkjs, log_m, ab, h, seed + 1, 1, &e), CUZK_OK);
        if (!snarkjs) {
            h[m / 2].l[0] ^= 1;
            CHECK_EQ_INT(benchkit_bls12_381.gpu_h_check(0, log_m, ab, h, seed, 2, &e), CUZK_ERR_DEVICE);
            CHECK(strstr(e.msg, "H (bellperson)") != NULL);
            h[m / 2].l[0] ^= 1;
            h[m - 1].l[0] ^= 1;
            CHECK_EQ_INT(benchkit_bls12_381.gpu_h_check(0, log_m, ab, h, seed, 2, &e), CUZK_ERR_DEVICE);
            /* the H of another c (rows not satisfied): not (A B - C) / Z */
            memcpy(h, ab, m * sizeof *h);
            memcpy(b, ab + m, m * sizeof *b);
            for (size_t i = 0; i < m; i++) rand_scalar(c[i].l);
            h_bellperson(&d, h, b, c, 2);
            CHECK_EQ_INT(benchkit_bls12_381.gpu_h_check(0, log_m, ab, h, seed, 2, &e), CUZK_ERR_DEVICE);
        } else {
            h[0].l[1] ^= 1; /* index 0 is always sampled */
            CHECK_EQ_INT(benchkit_bls12_381.gpu_h_check(1, log_m, ab, h, seed, 2, &e), CUZK_ERR_DEVICE);
            CHECK(strstr(e.msg, "H (snarkjs)") != NULL);
            h[0].l[1] ^= 1;
            h[m - 1].l[1] ^= 1; /* and m - 1 */
            CHECK_EQ_INT(benchkit_bls12_381.gpu_h_check(1, log_m, ab, h, seed, 2, &e), CUZK_ERR_DEVICE);
        }
        ntt_domain_free(&d);
    }
    free(ab);
    free(h);
    free(b);
    free(c);
}
