/* Fp6/Fp12 tower laws and the BLS12-381 pairing: algebraic properties on random inputs, the
 * final exponentiation against a plain square-and-multiply oracle, and the zkcrypto/blst
 * e(G1, G2) value as a known vector. */
#include "test.h"
#include "test_rand.h"

#include <time.h>

#include "curves/bls12_381/curve.h"
#include "curves/bls12_381/fp12_constants.h"

static void rand_fp(fp *r) {
    uint8_t buf[64];
    test_rand_bytes(buf, sizeof buf);
    fp_from_bytes_wide_le(r, buf, sizeof buf);
}
static void rand_fp2(fp2 *r) { rand_fp(&r->c0); rand_fp(&r->c1); }
static void rand_fp6(fp6 *r) { rand_fp2(&r->c0); rand_fp2(&r->c1); rand_fp2(&r->c2); }
static void rand_fp12(fp12 *r) { rand_fp6(&r->c0); rand_fp6(&r->c1); }
static void fp12_add_t(fp12 *r, const fp12 *a, const fp12 *b) {
    fp6_add(&r->c0, &a->c0, &b->c0);
    fp6_add(&r->c1, &a->c1, &b->c1);
}

TEST(pairing, fp6_field_laws) {
    int iters = test_iters(50);
    for (int it = 0; it < iters; it++) {
        fp6 a, b, c, t0, t1, t2, one;
        rand_fp6(&a); rand_fp6(&b); rand_fp6(&c);
        fp6_one(&one);
        /* associativity, commutativity */
        fp6_mul(&t0, &a, &b); fp6_mul(&t0, &t0, &c);
        fp6_mul(&t1, &b, &c); fp6_mul(&t1, &a, &t1);
        CHECK(fp6_eq(&t0, &t1));
        fp6_mul(&t0, &a, &b); fp6_mul(&t1, &b, &a);
        CHECK(fp6_eq(&t0, &t1));
        /* distributivity */
        fp6_add(&t0, &b, &c); fp6_mul(&t0, &a, &t0);
        fp6_mul(&t1, &a, &b); fp6_mul(&t2, &a, &c); fp6_add(&t1, &t1, &t2);
        CHECK(fp6_eq(&t0, &t1));
        /* square, inverse, identity, negation */
        fp6_sqr(&t0, &a); fp6_mul(&t1, &a, &a);
        CHECK(fp6_eq(&t0, &t1));
        fp6_inv(&t0, &a); fp6_mul(&t0, &t0, &a);
        CHECK(fp6_eq(&t0, &one));
        fp6_mul(&t0, &a, &one);
        CHECK(fp6_eq(&t0, &a));
        fp6_neg(&t0, &a); fp6_add(&t0, &t0, &a);
        CHECK(fp6_is_zero(&t0));
        fp6_sub(&t0, &a, &b); fp6_add(&t0, &t0, &b);
        CHECK(fp6_eq(&t0, &a));
        /* v */
        fp6 v;
        fp6_zero(&v); fp2_one(&v.c1);
        fp6_mul_by_v(&t0, &a); fp6_mul(&t1, &a, &v);
        CHECK(fp6_eq(&t0, &t1));
    }
    /* v^3 = xi = 1 + u */
    fp6 v, t;
    fp6_zero(&v); fp2_one(&v.c1);
    fp6_mul(&t, &v, &v); fp6_mul(&t, &t, &v);
    fp2 xi; fp_one(&xi.c0); fp_one(&xi.c1);
    CHECK(fp2_eq(&t.c0, &xi) && fp2_is_zero(&t.c1) && fp2_is_zero(&t.c2));
    fp6 z; fp6_zero(&z); fp6_inv(&t, &z);
    CHECK(fp6_is_zero(&t));
}

TEST(pairing, fp12_field_laws) {
    int iters = test_iters(30);
    for (int it = 0; it < iters; it++) {
        fp12 a, b, c, t0, t1, t2, one;
        rand_fp12(&a); rand_fp12(&b); rand_fp12(&c);
        fp12_one(&one);
        fp12_mul(&t0, &a, &b); fp12_mul(&t0, &t0, &c);
        fp12_mul(&t1, &b, &c); fp12_mul(&t1, &a, &t1);
        CHECK(fp12_eq(&t0, &t1));
        fp12_mul(&t0, &a, &b); fp12_mul(&t1, &b, &a);
        CHECK(fp12_eq(&t0, &t1));
        fp12_add_t(&t0, &b, &c); fp12_mul(&t0, &a, &t0);
        fp12_mul(&t1, &a, &b); fp12_mul(&t2, &a, &c); fp12_add_t(&t1, &t1, &t2);
        CHECK(fp12_eq(&t0, &t1));
        fp12_sqr(&t0, &a); fp12_mul(&t1, &a, &a);
        CHECK(fp12_eq(&t0, &t1));
        fp12_inv(&t0, &a); fp12_mul(&t0, &t0, &a);
        CHECK(fp12_is_one(&t0));
        fp12_mul(&t0, &a, &one);
        CHECK(fp12_eq(&t0, &a));
        CHECK(!fp12_is_one(&a));
    }
    /* w^2 = v, w^6 = xi */
    fp12 w, t;
    fp12_zero(&w); fp2_one(&w.c1.c0);
    fp12_sqr(&t, &w);
    CHECK(fp2_is_zero(&t.c0.c0) && fp2_is_one(&t.c0.c1) && fp2_is_zero(&t.c0.c2) && fp6_is_zero(&t.c1));
    fp12 z; fp12_zero(&z); fp12_inv(&t, &z);
    CHECK(fp6_is_zero(&t.c0) && fp6_is_zero(&t.c1));
}

TEST(pairing, fp12_frobenius) {
    static const uint64_t P[6] = BLS12_381_FP_MODULUS;
    int iters = test_iters(5);
    for (int it = 0; it < iters; it++) {
        fp12 a, b, t0, t1, t2;
        rand_fp12(&a); rand_fp12(&b);
        /* pi(a) = a^p */
        fp12_frobenius(&t0, &a, 1);
        fp12_pow_vartime(&t1, &a, P, 6);
        CHECK(fp12_eq(&t0, &t1));
        /* pi^k = pi applied k times, pi^12 = identity */
        t0 = a;
        for (int k = 1; k <= 12; k++) {
            fp12_frobenius(&t0, &t0, 1);
            if (k < 12) {
                fp12_frobenius(&t1, &a, k);
                CHECK_MSG(fp12_eq(&t0, &t1), "frobenius power %d", k);
                /* homomorphism */
                fp12_mul(&t2, &a, &b);
                fp12_frobenius(&t2, &t2, k);
                fp12 fa, fb;
                fp12_frobenius(&fa, &a, k); fp12_frobenius(&fb, &b, k);
                fp12_mul(&fa, &fa, &fb);
                CHECK_MSG(fp12_eq(&t2, &fa), "frobenius power %d is not multiplicative", k);
            }
        }
        CHECK(fp12_eq(&t0, &a));
        /* conj = pi^6 */
        fp12_conj(&t0, &a);
        fp12_frobenius(&t1, &a, 6);
        CHECK(fp12_eq(&t0, &t1));
        /* Fp elements are fixed */
        fp12 c;
        fp12_zero(&c); rand_fp(&c.c0.c0.c0);
        fp12_frobenius(&t0, &c, 1);
        CHECK(fp12_eq(&t0, &c));
    }
}

/* pairing_final_exponentiation(f) == f^(3 (p^12 - 1)/r) by plain square-and-multiply */
TEST(pairing, final_exponentiation_vs_pow) {
    static const uint64_t E[BLS12_381_FINAL_EXP_X3_LIMBS] = BLS12_381_FINAL_EXP_X3_INIT;
    static const uint64_t R[4] = BLS12_381_FR_MODULUS;
    int iters = test_iters(2);
    for (int it = 0; it < iters; it++) {
        fp12 f, a, b;
        rand_fp12(&f);
        pairing_final_exponentiation(&a, &f);
        fp12_pow_vartime(&b, &f, E, BLS12_381_FINAL_EXP_X3_LIMBS);
        CHECK(fp12_eq(&a, &b));
        fp12_pow_vartime(&b, &a, R, 4);
        CHECK(fp12_is_one(&b));
    }
    fp12 one, t;
    fp12_one(&one);
    pairing_final_exponentiation(&t, &one);
    CHECK(fp12_is_one(&t));
}

static void g1_rand_mul(g1_affine *out, const fr *k) {
    g1_affine g; g1_jacobian j;
    g1_generator(&g);
    g1_jacobian_from_affine(&j, &g);
    g1_mul_fr_vartime(&j, &j, k);
    g1_jacobian_to_affine(out, &j);
}
static void g2_rand_mul(g2_affine *out, const fr *k) {
    g2_affine g; g2_jacobian j;
    g2_generator(&g);
    g2_jacobian_from_affine(&j, &g);
    g2_mul_fr_vartime(&j, &j, k);
    g2_jacobian_to_affine(out, &j);
}

/* zkcrypto/bls12_381 Gt::generator() = pairing(G1 generator, G2 generator), Montgomery limbs
 * (also blst's GT_GENERATOR as used by blstrs). Order: c0.c0.c0, c0.c0.c1, c0.c1.c0, ... */
static const uint64_t GT_GEN[12][6] = {
    {0x1972e433a01f85c5ull, 0x97d32b76fd772538ull, 0xc8ce546fc96bcdf9ull, 0xcef63e7366d40614ull, 0xa611342781843780ull, 0x13f3448a3fc6d825ull},
    {0xd26331b02e9d6995ull, 0x9d68a482f7797e7dull, 0x9c9b29248d39ea92ull, 0xf4801ca2e13107aaull, 0xa16c0732bdbcb066ull, 0x083ca4afba360478ull},
    {0x59e261db0916b641ull, 0x2716b6f4b23e960dull, 0xc8e55b10a0bd9c45ull, 0x0bdb0bd99c4deda8ull, 0x8cf89ebf57fdaac5ull, 0x12d6b7929e777a5eull},
    {0x5fc85188b0e15f35ull, 0x34a06e3a8f096365ull, 0xdb3126a6e02ad62cull, 0xfc6f5aa97d9a990bull, 0xa12f55f5eb89c210ull, 0x1723703a926f8889ull},
    {0x93588f2971828778ull, 0x43f65b8611ab7585ull, 0x3183aaf5ec279fdfull, 0xfa73d7e18ac99df6ull, 0x64e176a6a64c99b0ull, 0x179fa78c58388f1full},
    {0x672a0a11ca2aef12ull, 0x0d11b9b52aa3f16bull, 0xa44412d0699d056eull, 0xc01d0177221a5ba5ull, 0x66e0cede6c735529ull, 0x05f5a71e9fddc339ull},
    {0xd30a88a1b062c679ull, 0x5ac56a5d35fc8304ull, 0xd0c834a6a81f290dull, 0xcd5430c2da3707c7ull, 0xf0c27ff780500af0ull, 0x09245da6e2d72eaeull},
    {0x9f2e0676791b5156ull, 0xe2d1c8234918fe13ull, 0x4c9e459f3c561bf4ull, 0xa3e85e53b9d3e3c1ull, 0x820a121e21a70020ull, 0x15af618341c59accull},
    {0x7c95658c24993ab1ull, 0x73eb38721ca886b9ull, 0x5256d749477434bcull, 0x8ba41902ea504a8bull, 0x04a3d3f80c86ce6dull, 0x18a64a87fb686eaaull},
    {0xbb83e71bb920cf26ull, 0x2a5277ac92a73945ull, 0xfc0ee59f94f046a0ull, 0x7158cdf3786058f7ull, 0x7cc1061b82f945f6ull, 0x03f847aa9fdbe567ull},
    {0x8078dba56134e657ull, 0x1cd7ec9a43998a6eull, 0xb1aa599a1a993766ull, 0xc9a0f62f0842ee44ull, 0x8e159be3b605dffaull, 0x0c86ba0d4af13fc2ull},
    {0xe80ff2a06a52ffb1ull, 0x7694ca48721a906cull, 0x7583183e03b08514ull, 0xf567afdd40cee4e2ull, 0x9a6d96d2e526a5fcull, 0x197e9f49861f2242ull},
};

TEST(pairing, known_vector_generators) {
    g1_affine p; g2_affine q; fp12 e, want;
    g1_generator(&p);
    g2_generator(&q);
    pairing(&e, &p, &q);
    fp *w[12] = {&want.c0.c0.c0, &want.c0.c0.c1, &want.c0.c1.c0, &want.c0.c1.c1, &want.c0.c2.c0, &want.c0.c2.c1,
                 &want.c1.c0.c0, &want.c1.c0.c1, &want.c1.c1.c0, &want.c1.c1.c1, &want.c1.c2.c0, &want.c1.c2.c1};
    for (int i = 0; i < 12; i++) memcpy(w[i]->l, GT_GEN[i], sizeof w[i]->l);
    CHECK(fp12_eq(&e, &want));
    CHECK(!fp12_is_one(&e));
    /* e^r = 1 */
    static const uint64_t R[4] = BLS12_381_FR_MODULUS;
    fp12 t;
    fp12_pow_vartime(&t, &e, R, 4);
    CHECK(fp12_is_one(&t));
}

TEST(pairing, bilinearity) {
    int iters = test_iters(3);
    g1_affine g1; g2_affine g2;
    g1_generator(&g1);
    g2_generator(&g2);
    fp12 base;
    pairing(&base, &g1, &g2);
    for (int it = 0; it < iters; it++) {
        fr a, b, ab;
        test_rand_fr(&a); test_rand_fr(&b);
        fr_mul(&ab, &a, &b);
        g1_affine pa, pab; g2_affine qb;
        g1_rand_mul(&pa, &a);
        g1_rand_mul(&pab, &ab);
        g2_rand_mul(&qb, &b);
        fp12 e1, e2, e3;
        pairing(&e1, &pa, &qb);
        uint64_t k[4];
        fr_to_canon(k, &ab);
        fp12_pow_vartime(&e2, &base, k, 4);
        pairing(&e3, &pab, &g2);
        CHECK(fp12_eq(&e1, &e2));
        CHECK(fp12_eq(&e1, &e3));
        /* e(-P, Q) e(P, Q) = 1 and e(P, -Q) = e(-P, Q) */
        g1_affine npa; g2_affine nqb;
        g1_affine_neg(&npa, &pa);
        g2_affine_neg(&nqb, &qb);
        fp12 en, em;
        pairing(&en, &npa, &qb);
        pairing(&em, &pa, &nqb);
        CHECK(fp12_eq(&en, &em));
        fp12_mul(&en, &en, &e1);
        CHECK(fp12_is_one(&en));
        fp12_conj(&em, &e1);
        pairing(&en, &npa, &qb);
        CHECK(fp12_eq(&em, &en)); /* e^-1 = conj(e) in GT */
    }
}

TEST(pairing, multi_and_infinity) {
    enum { N = 19 }; /* more than one chunk of 16 */
    g1_affine p[N]; g2_affine q[N];
    fp12 prod, e, m;
    fp12_one(&prod);
    for (int i = 0; i < N; i++) {
        fr a, b;
        test_rand_fr(&a); test_rand_fr(&b);
        g1_rand_mul(&p[i], &a);
        g2_rand_mul(&q[i], &b);
        if (i == 3) g1_affine_set_infinity(&p[i]);
        if (i == 7) g2_affine_set_infinity(&q[i]);
        if (i == 11) { g1_affine_set_infinity(&p[i]); g2_affine_set_infinity(&q[i]); }
        pairing(&e, &p[i], &q[i]);
        if (i == 3 || i == 7 || i == 11) CHECK_MSG(fp12_is_one(&e), "pair %d with infinity", i);
        fp12_mul(&prod, &prod, &e);
    }
    pairing_multi(&m, p, q, N);
    CHECK(fp12_eq(&m, &prod));
    /* 4 pairs */
    fp12_one(&prod);
    for (int i = 0; i < 4; i++) { pairing(&e, &p[i], &q[i]); fp12_mul(&prod, &prod, &e); }
    pairing_multi(&m, p, q, 4);
    CHECK(fp12_eq(&m, &prod));
    /* n = 0 and Miller loop of infinity */
    pairing_multi(&m, p, q, 0);
    CHECK(fp12_is_one(&m));
    pairing_miller_loop_multi(&m, &p[3], &q[3], 1);
    CHECK(fp12_is_one(&m));
    /* a Groth16-style check: e(aP, bQ) e(-abP, Q) = 1 */
    fr a, b, ab;
    test_rand_fr(&a); test_rand_fr(&b); fr_mul(&ab, &a, &b); fr_neg(&ab, &ab);
    g1_affine pp[2]; g2_affine qq[2];
    g1_rand_mul(&pp[0], &a); g2_rand_mul(&qq[0], &b);
    g1_rand_mul(&pp[1], &ab); g2_generator(&qq[1]);
    pairing_multi(&m, pp, qq, 2);
    CHECK(fp12_is_one(&m));
}

/* thread CPU time: the numbers stay meaningful on a loaded machine */
static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* CPU timings (printed) of what was timed, and the timed results checked against each other: the
 * 4-pair multi-pairing equals the product of the four single pairings, the final exponentiation of
 * one Miller loop equals that pair's pairing, and no pairing of non-identity points is 1. */
TEST(pairing, timing) {
    g1_affine p[4]; g2_affine q[4];
    for (int i = 0; i < 4; i++) {
        fr a; test_rand_fr(&a);
        g1_rand_mul(&p[i], &a);
        g2_rand_mul(&q[i], &a);
    }
    fp12 e, single[4];
    int reps = 10;
    double t0 = now_s();
    for (int i = 0; i < reps; i++) pairing(&single[0], &p[0], &q[0]);
    double t1 = now_s();
    for (int i = 0; i < reps; i++) pairing_multi(&e, p, q, 4);
    double t2 = now_s();
    fp12 f, fe; pairing_miller_loop_multi(&f, p, q, 1);
    double t3 = now_s();
    for (int i = 0; i < reps; i++) pairing_final_exponentiation(&fe, &f);
    double t4 = now_s();
    CHECK(fp12_eq(&fe, &single[0]));
    CHECK(!fp12_is_one(&single[0]));
    fp12 prod = single[0];
    for (int i = 1; i < 4; i++) {
        pairing(&single[i], &p[i], &q[i]);
        fp12_mul(&prod, &prod, &single[i]);
    }
    CHECK(fp12_eq(&e, &prod));
    printf("  CPU time: pairing %.3f ms, 4-pair multi-pairing %.3f ms, final exponentiation %.3f ms\n",
           1e3 * (t1 - t0) / reps, 1e3 * (t2 - t1) / reps, 1e3 * (t4 - t3) / reps);
}
