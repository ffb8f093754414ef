/* CPU MSM tests (suite `msm`): Pippenger against the naive sum of double-and-add products
 * (g1_mul_vartime / g2_mul_vartime, an independent code path), on random and adversarial inputs:
 * n = 0, 1, small, odd, window-boundary sizes; scalars 0, 1, r-1, digit-boundary values; bases at
 * infinity, repeated, P next to -P; thread counts 1..7 must agree.
 */
#include <stdlib.h>

#include "curves/bls12_381/curve.h"
#include "test.h"

static const uint64_t R_MOD[4] = BLS12_381_FR_MODULUS;

/* uniform in [0, r) by rejection */
static void rand_scalar(scalar256 *k) {
    for (;;) {
        test_rand_bytes(k->l, sizeof k->l);
        k->l[3] &= UINT64_MAX >> 1;
        if (fr_is_canon(k->l)) return;
    }
}

static void scalar_r_minus(scalar256 *k, uint64_t d) {
    memcpy(k->l, R_MOD, sizeof k->l);
    k->l[0] -= d; /* low limb of r is 0xffffffff00000001: no borrow for d <= 1 */
}

/* Edge scalars: 0, 1, 2, r-1, 2^254 - 1, (r-1)/2, 2^k, window-digit boundaries, random. */
static void edge_scalar(scalar256 *k, int which) {
    memset(k, 0, sizeof *k);
    switch (which) {
    case 0: break;
    case 1: k->l[0] = 1; break;
    case 2: k->l[0] = 2; break;
    case 3: scalar_r_minus(k, 1); break;
    case 4: k->l[0] = k->l[1] = k->l[2] = UINT64_MAX; k->l[3] = UINT64_MAX >> 2; break;
    case 5:
        scalar_r_minus(k, 1);
        for (int i = 0; i < 4; i++) k->l[i] = (k->l[i] >> 1) | (i < 3 ? k->l[i + 1] << 63 : 0);
        break;
    case 6: { int b = (int)(test_rand64() % 255); k->l[b / 64] = (uint64_t)1 << (b % 64); break; }
    case 7: k->l[0] = k->l[1] = k->l[2] = 0x8080808080808080ull; k->l[3] = 0x0080808080808080ull; break;
    case 8: k->l[0] = k->l[1] = k->l[2] = 0x7f7f7f7f7f7f7f7full; k->l[3] = 0x3f7f7f7f7f7f7f7full; break;
    default: rand_scalar(k);
    }
}

/* n pseudo-random points of G1/G2: a chain P_i = P_(i-1) + Q_(i mod 16) from random multiples of
 * the generator, converted with one batch inversion (cheap for thousands of bases). */
#define GEN_BASES(G)                                                                           \
    static void G##_rand_bases(G##_affine *out, size_t n) {                                    \
        if (n == 0) return;                                                                    \
        G##_affine gen;                                                                        \
        G##_generator(&gen);                                                                   \
        G##_jacobian g, q[16], *j = malloc(n * sizeof *j);                                     \
        if (!j) return;                                                                        \
        G##_jacobian_from_affine(&g, &gen);                                                    \
        for (int i = 0; i < 16; i++) {                                                         \
            scalar256 k;                                                                       \
            rand_scalar(&k);                                                                   \
            G##_mul_vartime(&q[i], &g, k.l, 4);                                                \
        }                                                                                      \
        j[0] = q[0];                                                                           \
        for (size_t i = 1; i < n; i++) G##_jacobian_add(&j[i], &j[i - 1], &q[i % 16]);         \
        G##s_jacobian_to_affine(out, j, n);                                                    \
        free(j);                                                                               \
    }                                                                                          \
    static void G##_naive_msm(G##_jacobian *out, const G##_affine *b, const scalar256 *k,      \
                              size_t n) {                                                      \
        G##_jacobian_set_infinity(out);                                                        \
        for (size_t i = 0; i < n; i++) {                                                       \
            G##_jacobian p;                                                                    \
            G##_jacobian_from_affine(&p, &b[i]);                                               \
            G##_mul_vartime(&p, &p, k[i].l, 4);                                                \
            G##_jacobian_add(out, out, &p);                                                    \
        }                                                                                      \
    }                                                                                          \
    static bool G##_msm_matches(const G##_affine *b, const scalar256 *k, size_t n, int thr) {  \
        G##_jacobian e, got;                                                                   \
        G##_naive_msm(&e, b, k, n);                                                            \
        G##_msm(&got, b, k, n, thr);                                                           \
        return G##_jacobian_eq(&e, &got);                                                      \
    }
GEN_BASES(g1)
GEN_BASES(g2)

TEST(msm, window_bits) {
    size_t ns[] = {1, 2, 7, 100, 1000, 1 << 16, 1 << 20, (size_t)1 << 27};
    int prev = 0;
    for (int i = 0; i < 8; i++) {
        int c = msm_window_bits(ns[i]);
        CHECK(c >= 2 && c <= 20);
        CHECK(c >= prev);
        prev = c;
    }
}

TEST(msm, g1_random_vs_naive) {
    size_t ns[] = {0, 1, 2, 3, 7, 100, 1000, 4097};
    size_t maxn = 4097;
    g1_affine *b = malloc(maxn * sizeof *b);
    scalar256 *k = malloc(maxn * sizeof *k);
    REQUIRE(b && k);
    g1_rand_bases(b, maxn);
    for (size_t i = 0; i < maxn; i++) rand_scalar(&k[i]);
    for (int t = 0; t < 8; t++) {
        size_t n = ns[t];
        /* use a different slice each time so small n do not always see the same points */
        size_t o = n < maxn ? (size_t)(test_rand64() % (maxn - n + 1)) : 0;
        CHECK_MSG(g1_msm_matches(b + o, k + o, n, 2), "g1_msm != naive at n=%zu", n);
    }
    free(b);
    free(k);
}

TEST(msm, g1_adversarial) {
    const size_t n = 150;
    g1_affine *b = malloc(n * sizeof *b);
    scalar256 *k = malloc(n * sizeof *k);
    REQUIRE(b && k);
    g1_rand_bases(b, n);
    g1_jacobian got, e;

    /* all zero scalars: infinity */
    memset(k, 0, n * sizeof *k);
    g1_msm(&got, b, k, n, 2);
    CHECK(g1_jacobian_is_infinity(&got));
    /* all ones: the plain sum */
    for (size_t i = 0; i < n; i++) { memset(&k[i], 0, sizeof k[i]); k[i].l[0] = 1; }
    CHECK(g1_msm_matches(b, k, n, 2));
    /* all r-1: minus the sum */
    for (size_t i = 0; i < n; i++) scalar_r_minus(&k[i], 1);
    CHECK(g1_msm_matches(b, k, n, 2));
    g1_jacobian sum1;
    for (size_t i = 0; i < n; i++) { memset(&k[i], 0, sizeof k[i]); k[i].l[0] = 1; }
    g1_msm(&sum1, b, k, n, 2);
    for (size_t i = 0; i < n; i++) scalar_r_minus(&k[i], 1);
    g1_msm(&got, b, k, n, 2);
    g1_jacobian_neg(&e, &sum1);
    CHECK(g1_jacobian_eq(&got, &e));
    /* mixed 0 / 1 / r-1 */
    for (size_t i = 0; i < n; i++) {
        int w = (int)(test_rand64() % 3);
        if (w == 2) scalar_r_minus(&k[i], 1);
        else { memset(&k[i], 0, sizeof k[i]); k[i].l[0] = (uint64_t)w; }
    }
    CHECK(g1_msm_matches(b, k, n, 2));
    /* edge scalars */
    for (size_t i = 0; i < n; i++) edge_scalar(&k[i], (int)(i % 10));
    CHECK(g1_msm_matches(b, k, n, 2));
    /* bases at infinity among random ones, with random and edge scalars */
    g1_affine *bi = malloc(n * sizeof *bi);
    REQUIRE(bi);
    memcpy(bi, b, n * sizeof *b);
    for (size_t i = 0; i < n; i += 3) g1_affine_set_infinity(&bi[i]);
    for (size_t i = 0; i < n; i++) rand_scalar(&k[i]);
    CHECK(g1_msm_matches(bi, k, n, 2));
    for (size_t i = 0; i < n; i++) g1_affine_set_infinity(&bi[i]);
    g1_msm(&got, bi, k, n, 2);
    CHECK(g1_jacobian_is_infinity(&got));
    /* repeated bases: one point everywhere, equal scalars (bucket doubling) and random scalars */
    for (size_t i = 0; i < n; i++) bi[i] = b[0];
    for (size_t i = 0; i < n; i++) k[i] = k[0];
    CHECK(g1_msm_matches(bi, k, n, 2));
    for (size_t i = 0; i < n; i++) rand_scalar(&k[i]);
    CHECK(g1_msm_matches(bi, k, n, 2));
    /* P next to -P: equal scalars cancel exactly; random scalars checked against naive */
    for (size_t i = 0; i < n; i += 2) {
        bi[i] = b[i / 2];
        if (i + 1 < n) g1_affine_neg(&bi[i + 1], &b[i / 2]);
    }
    for (size_t i = 0; i < n; i += 2) {
        rand_scalar(&k[i]);
        if (i + 1 < n) k[i + 1] = k[i];
    }
    g1_msm(&got, bi, k, n, 2);
    CHECK(g1_jacobian_is_infinity(&got));
    for (size_t i = 0; i < n; i++) rand_scalar(&k[i]);
    CHECK(g1_msm_matches(bi, k, n, 2));
    /* P twice, with scalars s and r - s: also cancels */
    for (size_t i = 0; i + 1 < n; i += 2) {
        rand_scalar(&k[i]);
        fr a, na;
        fr_from_canon(&a, k[i].l);
        fr_neg(&na, &a);
        fr_to_canon(k[i + 1].l, &na);
        bi[i + 1] = bi[i];
    }
    if (n & 1) memset(&k[n - 1], 0, sizeof k[n - 1]);
    g1_msm(&got, bi, k, n, 2);
    CHECK(g1_jacobian_is_infinity(&got));
    free(bi);
    free(b);
    free(k);
}

TEST(msm, g1_thread_counts_agree) {
    const size_t n = 1000;
    g1_affine *b = malloc(n * sizeof *b);
    scalar256 *k = malloc(n * sizeof *k);
    REQUIRE(b && k);
    g1_rand_bases(b, n);
    for (size_t i = 0; i < n; i++) edge_scalar(&k[i], (int)(test_rand64() % 16));
    g1_jacobian ref, got;
    g1_msm(&ref, b, k, n, 1);
    int ths[] = {2, 3, 4, 7, 64, 0};
    for (int t = 0; t < 6; t++) {
        g1_msm(&got, b, k, n, ths[t]);
        CHECK_MSG(g1_jacobian_eq(&ref, &got), "g1_msm with %d threads differs", ths[t]);
    }
    /* small n with many threads: more tasks than points per chunk */
    for (size_t m = 1; m <= 5; m++) {
        g1_msm(&ref, b, k, m, 1);
        g1_msm(&got, b, k, m, 16);
        CHECK(g1_jacobian_eq(&ref, &got));
    }
    free(b);
    free(k);
}

TEST(msm, g2_vs_naive) {
    size_t ns[] = {0, 1, 2, 5, 33, 130};
    size_t maxn = 130;
    g2_affine *b = malloc(maxn * sizeof *b);
    scalar256 *k = malloc(maxn * sizeof *k);
    REQUIRE(b && k);
    g2_rand_bases(b, maxn);
    for (size_t i = 0; i < maxn; i++) rand_scalar(&k[i]);
    for (int t = 0; t < 6; t++)
        CHECK_MSG(g2_msm_matches(b, k, ns[t], 2), "g2_msm != naive at n=%zu", ns[t]);
    /* edge scalars, infinity bases, P next to -P, and thread counts */
    for (size_t i = 0; i < maxn; i++) edge_scalar(&k[i], (int)(i % 10));
    for (size_t i = 0; i < maxn; i += 7) g2_affine_set_infinity(&b[i]);
    for (size_t i = 1; i < maxn; i += 5) g2_affine_neg(&b[i], &b[i - 1]);
    CHECK(g2_msm_matches(b, k, maxn, 2));
    g2_jacobian r1, r3;
    g2_msm(&r1, b, k, maxn, 1);
    g2_msm(&r3, b, k, maxn, 3);
    CHECK(g2_jacobian_eq(&r1, &r3));
    free(b);
    free(k);
}

/* The batched affine additions at sizes where batches fill (MSM_BATCH), points wait for a bucket
 * of the open batch and the waiting list itself fills: scalars drawn from 8 random values, so a
 * window uses few buckets and almost every point meets a busy one. Oracle: group the bases by
 * scalar, sum each group, 8 double-and-add products (no Pippenger). Also random scalars on G1 at
 * n = 3000 against the naive sum. */
#define GROUPED_ORACLE(G)                                                                      \
    static bool G##_grouped_matches(size_t n, int thr) {                                       \
        G##_affine *b = malloc(n * sizeof *b);                                                 \
        scalar256 *k = malloc(n * sizeof *k), v[8];                                            \
        G##_jacobian sums[8], e, got, t;                                                       \
        if (!b || !k) { free(b); free(k); return false; }                                      \
        G##_rand_bases(b, n);                                                                  \
        for (int i = 0; i < 8; i++) { rand_scalar(&v[i]); G##_jacobian_set_infinity(&sums[i]); } \
        for (size_t i = 0; i < n; i++) {                                                       \
            int w = (int)(test_rand64() % 8);                                                  \
            k[i] = v[w];                                                                       \
            G##_jacobian_add_mixed(&sums[w], &sums[w], &b[i]);                                 \
        }                                                                                      \
        G##_jacobian_set_infinity(&e);                                                         \
        for (int i = 0; i < 8; i++) {                                                          \
            G##_mul_vartime(&t, &sums[i], v[i].l, 4);                                          \
            G##_jacobian_add(&e, &e, &t);                                                      \
        }                                                                                      \
        msm_opts aff = {MSM_ACCUM_AFFINE}, xz = {MSM_ACCUM_XYZZ};                               \
        bool ok = true;                                                                        \
        G##_msm(&got, b, k, n, thr);                                                           \
        ok = ok && G##_jacobian_eq(&e, &got);                                                  \
        G##_msm_with(&got, b, k, n, thr, &aff);                                                \
        ok = ok && G##_jacobian_eq(&e, &got);                                                  \
        G##_msm_with(&got, b, k, n, thr, &xz);                                                 \
        ok = ok && G##_jacobian_eq(&e, &got);                                                  \
        free(b);                                                                               \
        free(k);                                                                               \
        return ok;                                                                             \
    }
GROUPED_ORACLE(g1)
GROUPED_ORACLE(g2)

TEST(msm, batch_affine_busy_buckets) {
    static const size_t ns[] = {700, 6000, 20000};
    for (int i = 0; i < 3; i++) {
        CHECK_MSG(g1_grouped_matches(ns[i], 2), "g1_msm != grouped sum at n=%zu", ns[i]);
        CHECK_MSG(g2_grouped_matches(ns[i], 3), "g2_msm != grouped sum at n=%zu", ns[i]);
    }
    const size_t n = 3000;
    g1_affine *b = malloc(n * sizeof *b);
    scalar256 *k = malloc(n * sizeof *k);
    REQUIRE(b && k);
    g1_rand_bases(b, n);
    for (size_t i = 0; i < n; i++) rand_scalar(&k[i]);
    CHECK(g1_msm_matches(b, k, n, 2));
    free(b);
    free(k);
    /* random scalars with many buckets (full batches): equal to the per-point XYZZ accumulation
     * (the same digits, another addition law; the digits are checked against naive above) */
    const size_t m = 30000;
    g1_affine *b1 = malloc(m * sizeof *b1);
    g2_affine *b2 = malloc(m * sizeof *b2);
    scalar256 *k2 = malloc(m * sizeof *k2);
    REQUIRE(b1 && b2 && k2);
    g1_rand_bases(b1, m);
    g2_rand_bases(b2, m);
    for (size_t i = 0; i < m; i++) rand_scalar(&k2[i]);
    msm_opts xo = {MSM_ACCUM_XYZZ}, ao = {MSM_ACCUM_AFFINE};
    g1_jacobian p1, q1;
    g2_jacobian p2, q2;
    g1_msm_with(&p1, b1, k2, m, 2, &ao);
    g1_msm_with(&q1, b1, k2, m, 2, &xo);
    CHECK(g1_jacobian_eq(&p1, &q1));
    g2_msm_with(&p2, b2, k2, m, 3, &ao);
    g2_msm_with(&q2, b2, k2, m, 3, &xo);
    CHECK(g2_jacobian_eq(&p2, &q2));
    free(b1);
    free(b2);
    free(k2);
}
