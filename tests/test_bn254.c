/* BN254 (snarkjs "bn128"): tower, groups, subgroup checks, encodings, pairing, NTT and MSMs.
 * The fields themselves are checked against GMP in test_ff.c (bn254_fp / bn254_fr).
 *
 * Independent oracles used here:
 *   - the pairing against snarkjs: every bn128 fixture's verification_key.json carries
 *     vk_alphabeta_12 = e(vk_alpha_1, vk_beta_2) computed by snarkjs 0.7.6 / ffjavascript 0.3.1
 *     (tests/fixtures/regen.sh), in the same Fp12 tower; we recompute it from the two points;
 *   - the final exponentiation against square-and-multiply with m (p^12 - 1)/r (python-generated
 *     integer, tools/gen_bn254_constants.py);
 *   - group order and subgroup membership against [r]P == O, and scalar arithmetic mod r;
 *   - the NTT and H against O(m^2) evaluation/interpolation; the MSMs against per-point
 *     double-and-add.
 */
#include <jansson.h>
#include <stdlib.h>

#include "curves/bn254/curve.h"
#include "ec/ec52.h"
#include "ff/mont_x86.h"
#include "test.h"

static const uint64_t R_LIMBS[4] = BN254_FR_MODULUS;
static const uint64_t P_LIMBS[4] = BN254_FP_MODULUS;

static void rand_fr(bn254_fr *out) {
    uint8_t b[64];
    test_rand_bytes(b, sizeof b);
    bn254_fr_from_bytes_wide_le(out, b, sizeof b);
}
static void rand_fp(bn254_fp *out) {
    uint8_t b[64];
    test_rand_bytes(b, sizeof b);
    bn254_fp_from_bytes_wide_le(out, b, sizeof b);
}
static void rand_fp2(bn254_fp2 *out) { rand_fp(&out->c0); rand_fp(&out->c1); }
static void rand_fp12(bn254_fp12 *f) {
    bn254_fp2 *c[6] = {&f->c0.c0, &f->c0.c1, &f->c0.c2, &f->c1.c0, &f->c1.c1, &f->c1.c2};
    for (int i = 0; i < 6; i++) rand_fp2(c[i]);
}

static void g1_rand(bn254_g1_affine *out, bn254_fr *k_out) {
    bn254_g1_affine g;
    bn254_g1_jacobian j;
    bn254_fr k;
    rand_fr(&k);
    bn254_g1_generator(&g);
    bn254_g1_jacobian_from_affine(&j, &g);
    bn254_g1_mul_fr_vartime(&j, &j, &k);
    bn254_g1_jacobian_to_affine(out, &j);
    if (k_out) *k_out = k;
}
static void g2_rand(bn254_g2_affine *out, bn254_fr *k_out) {
    bn254_g2_affine g;
    bn254_g2_jacobian j;
    bn254_fr k;
    rand_fr(&k);
    bn254_g2_generator(&g);
    bn254_g2_jacobian_from_affine(&j, &g);
    bn254_g2_mul_fr_vartime(&j, &j, &k);
    bn254_g2_jacobian_to_affine(out, &j);
    if (k_out) *k_out = k;
}

/* A point of the twist E'(Fp2) with a random x (usually NOT in G2: the cofactor is 2p - r). */
static void twist_rand(bn254_g2_affine *out) {
    static const bn254_fp2 B = BN254_G2_B_MONT;
    for (;;) {
        bn254_fp2 x, rhs, y;
        rand_fp2(&x);
        bn254_fp2_sqr(&rhs, &x);
        bn254_fp2_mul(&rhs, &rhs, &x);
        bn254_fp2_add(&rhs, &rhs, &B);
        if (!bn254_fp2_sqrt(&y, &rhs)) continue;
        out->x = x;
        out->y = y;
        return;
    }
}

/* ---- tower -------------------------------------------------------------------------------- */

TEST(bn254, tower_laws_and_frobenius) {
    for (int it = 0; it < test_iters(10); it++) {
        bn254_fp12 a, b, c, t0, t1, t2;
        rand_fp12(&a);
        rand_fp12(&b);
        rand_fp12(&c);
        bn254_fp12_mul(&t0, &a, &b);
        bn254_fp12_mul(&t0, &t0, &c);
        bn254_fp12_mul(&t1, &b, &c);
        bn254_fp12_mul(&t1, &a, &t1);
        CHECK(bn254_fp12_eq(&t0, &t1));
        bn254_fp12_sqr(&t0, &a);
        bn254_fp12_mul(&t1, &a, &a);
        CHECK(bn254_fp12_eq(&t0, &t1));
        bn254_fp12_inv(&t0, &a);
        bn254_fp12_mul(&t0, &t0, &a);
        CHECK(bn254_fp12_is_one(&t0));
        /* Frobenius: pi(a) = a^p, pi^k = pi o pi^(k-1), pi^12 = id, and pi^6 = conj */
        bn254_fp12_pow_vartime(&t0, &a, P_LIMBS, 4);
        bn254_fp12_frobenius(&t1, &a, 1);
        CHECK(bn254_fp12_eq(&t0, &t1));
        for (int k = 2; k <= 11; k++) {
            bn254_fp12_frobenius(&t0, &a, k);
            bn254_fp12_frobenius(&t2, &a, k - 1);
            bn254_fp12_frobenius(&t2, &t2, 1);
            CHECK_MSG(bn254_fp12_eq(&t0, &t2), "frobenius power %d", k);
        }
        bn254_fp12_frobenius(&t0, &a, 6);
        bn254_fp12_conj(&t1, &a);
        CHECK(bn254_fp12_eq(&t0, &t1));
        bn254_fp12_frobenius(&t0, &a, 11);
        bn254_fp12_frobenius(&t0, &t0, 1);
        CHECK(bn254_fp12_eq(&t0, &a));
    }
    /* xi = 9 + u: v^3 = xi */
    bn254_fp6 v, v3, xi;
    bn254_fp6_zero(&v);
    bn254_fp2_one(&v.c1);
    bn254_fp6_mul(&v3, &v, &v);
    bn254_fp6_mul(&v3, &v3, &v);
    bn254_fp6_zero(&xi);
    bn254_fp_from_u64(&xi.c0.c0, 9);
    bn254_fp_one(&xi.c0.c1);
    CHECK(bn254_fp6_eq(&v3, &xi));
}

/* ---- groups ------------------------------------------------------------------------------- */

#define GROUP_LAW_TEST(G, NAME)                                                                   \
    TEST(bn254, NAME##_group_laws) {                                                             \
        G##_affine g, pa, pb;                                                                     \
        G##_jacobian gj, a, b, s, t, u;                                                           \
        G##_generator(&g);                                                                        \
        CHECK(G##_affine_is_on_curve(&g));                                                        \
        CHECK(G##_affine_is_in_subgroup(&g));                                                     \
        G##_jacobian_from_affine(&gj, &g);                                                        \
        G##_mul_vartime(&t, &gj, R_LIMBS, 4);                                                     \
        CHECK(G##_jacobian_is_infinity(&t)); /* generator of order r */                           \
        for (int it = 0; it < test_iters(20); it++) {                                             \
            bn254_fr ka, kb, ks;                                                                  \
            rand_fr(&ka);                                                                         \
            rand_fr(&kb);                                                                         \
            G##_mul_fr_vartime(&a, &gj, &ka);                                                             \
            G##_mul_fr_vartime(&b, &gj, &kb);                                                             \
            bn254_fr_add(&ks, &ka, &kb);                                                          \
            G##_mul_fr_vartime(&s, &gj, &ks);                                                             \
            G##_jacobian_add(&t, &a, &b);                                                         \
            CHECK(G##_jacobian_eq(&t, &s)); /* [a]G + [b]G = [a+b]G */                            \
            G##_jacobian_to_affine(&pa, &a);                                                      \
            G##_jacobian_to_affine(&pb, &b);                                                      \
            CHECK(G##_affine_is_on_curve(&pa));                                                   \
            G##_jacobian_add_mixed(&u, &a, &pb);                                                  \
            CHECK(G##_jacobian_eq(&u, &s));                                                       \
            G##_xyzz xa, xs;                                                                      \
            G##_xyzz_from_affine(&xa, &pa);                                                       \
            G##_xyzz_add_mixed(&xs, &xa, &pb);                                                    \
            G##_xyzz_to_jacobian(&u, &xs);                                                        \
            CHECK(G##_jacobian_eq(&u, &s));                                                       \
            G##_xyzz_dbl(&xs, &xa);                                                               \
            G##_jacobian_dbl(&t, &a);                                                             \
            G##_xyzz_to_jacobian(&u, &xs);                                                        \
            CHECK(G##_jacobian_eq(&u, &t));                                                       \
            /* P + P via add = dbl; P + (-P) = O */                                               \
            G##_jacobian_add(&u, &a, &a);                                                         \
            CHECK(G##_jacobian_eq(&u, &t));                                                       \
            G##_jacobian_neg(&t, &a);                                                             \
            G##_jacobian_add(&u, &a, &t);                                                         \
            CHECK(G##_jacobian_is_infinity(&u));                                                  \
            /* [a]([b]G) = [ab]G */                                                               \
            bn254_fr_mul(&ks, &ka, &kb);                                                          \
            G##_mul_fr_vartime(&s, &gj, &ks);                                                             \
            G##_mul_fr_vartime(&t, &b, &ka);                                                              \
            CHECK(G##_jacobian_eq(&t, &s));                                                       \
        }                                                                                         \
    }
GROUP_LAW_TEST(bn254_g1, g1)
GROUP_LAW_TEST(bn254_g2, g2)

TEST(bn254, g1_cofactor_one) {
    /* every point of E(Fp) has order r: the subgroup check is trivially true, and correct */
    static const bn254_fp B = BN254_G1_B_MONT;
    for (int it = 0; it < test_iters(5); it++) {
        bn254_g1_affine p;
        bn254_fp x, rhs, y;
        do {
            rand_fp(&x);
            bn254_fp_sqr(&rhs, &x);
            bn254_fp_mul(&rhs, &rhs, &x);
            bn254_fp_add(&rhs, &rhs, &B);
        } while (!bn254_fp_sqrt(&y, &rhs));
        p.x = x;
        p.y = y;
        CHECK(bn254_g1_affine_is_on_curve(&p));
        bn254_g1_jacobian j, t;
        bn254_g1_jacobian_from_affine(&j, &p);
        bn254_g1_mul_vartime(&t, &j, R_LIMBS, 4);
        CHECK(bn254_g1_jacobian_is_infinity(&t));
        CHECK(bn254_g1_affine_is_in_subgroup(&p));
    }
}

TEST(bn254, g2_subgroup_check) {
    static const uint64_t H2[BN254_G2_COFACTOR_LIMBS] = BN254_G2_COFACTOR_INIT;
    int outside = 0;
    for (int it = 0; it < test_iters(8); it++) {
        bn254_g2_affine p, c;
        twist_rand(&p);
        CHECK(bn254_g2_affine_is_on_curve(&p));
        bn254_g2_jacobian j, t;
        bn254_g2_jacobian_from_affine(&j, &p);
        bn254_g2_mul_vartime(&t, &j, R_LIMBS, 4);
        bool in = bn254_g2_jacobian_is_infinity(&t);
        CHECK_EQ_INT(bn254_g2_affine_is_in_subgroup(&p), in); /* fast check == [r]P = O */
        outside += !in;
        /* [h2]P is in G2 */
        bn254_g2_mul_vartime(&t, &j, H2, BN254_G2_COFACTOR_LIMBS);
        bn254_g2_jacobian_to_affine(&c, &t);
        CHECK(bn254_g2_affine_is_in_subgroup(&c));
        bn254_g2_jacobian_from_affine(&j, &c);
        bn254_g2_mul_vartime(&t, &j, R_LIMBS, 4);
        CHECK(bn254_g2_jacobian_is_infinity(&t));
        /* the decoder refuses the point outside G2 and accepts the cleared one */
        uint8_t enc[128];
        bn254_g2_affine d;
        bn254_g2_affine_to_lem(enc, &p);
        CHECK_EQ_INT(bn254_g2_affine_from_lem(&d, enc), in ? EC_DECODE_OK : EC_DECODE_NOT_IN_SUBGROUP);
        bn254_g2_affine_to_lem(enc, &c);
        CHECK_EQ_INT(bn254_g2_affine_from_lem(&d, enc), EC_DECODE_OK);
        CHECK(bn254_g2_affine_eq(&d, &c));
    }
    CHECK(outside > 0); /* random twist points are outside G2 with probability 1 - 1/h2 */
}

TEST(bn254, lem_encodings) {
    bn254_g1_affine p, q;
    bn254_g2_affine p2, q2;
    uint8_t e1[64], e2[128];
    g1_rand(&p, NULL);
    g2_rand(&p2, NULL);
    bn254_g1_affine_to_lem(e1, &p);
    bn254_g2_affine_to_lem(e2, &p2);
    /* LEM = the in-memory Montgomery limbs (snarkjs zkey layout) */
    CHECK_MEM(e1, &p, 64);
    CHECK_MEM(e2, &p2, 128);
    CHECK_EQ_INT(bn254_g1_affine_from_lem(&q, e1), EC_DECODE_OK);
    CHECK(bn254_g1_affine_eq(&p, &q));
    CHECK_EQ_INT(bn254_g2_affine_from_lem(&q2, e2), EC_DECODE_OK);
    CHECK(bn254_g2_affine_eq(&p2, &q2));
    /* infinity = zeros */
    memset(e1, 0, sizeof e1);
    memset(e2, 0, sizeof e2);
    CHECK_EQ_INT(bn254_g1_affine_from_lem(&q, e1), EC_DECODE_OK);
    CHECK(bn254_g1_affine_is_infinity(&q));
    CHECK_EQ_INT(bn254_g2_affine_from_lem(&q2, e2), EC_DECODE_OK);
    CHECK(bn254_g2_affine_is_infinity(&q2));
    /* off curve: y + 1 */
    bn254_g1_affine bad = p;
    bn254_fp one;
    bn254_fp_one(&one);
    bn254_fp_add(&bad.y, &bad.y, &one);
    bn254_g1_affine_to_lem(e1, &bad);
    CHECK_EQ_INT(bn254_g1_affine_from_lem(&q, e1), EC_DECODE_NOT_ON_CURVE);
    bn254_g2_affine bad2 = p2;
    bn254_fp_add(&bad2.y.c1, &bad2.y.c1, &one);
    bn254_g2_affine_to_lem(e2, &bad2);
    CHECK_EQ_INT(bn254_g2_affine_from_lem(&q2, e2), EC_DECODE_NOT_ON_CURVE);
    /* not canonical: a coordinate >= p */
    for (int i = 0; i < 4; i++)
        for (int k = 0; k < 8; k++) e1[8 * i + k] = (uint8_t)(P_LIMBS[i] >> (8 * k));
    CHECK_EQ_INT(bn254_g1_affine_from_lem(&q, e1), EC_DECODE_NOT_CANONICAL);
    memset(e2, 0xff, 32);
    CHECK_EQ_INT(bn254_g2_affine_from_lem(&q2, e2), EC_DECODE_NOT_CANONICAL);
}

/* ---- pairing ------------------------------------------------------------------------------ */

TEST(bn254, final_exponentiation_is_exact) {
    static const uint64_t E[BN254_FINAL_EXP_LIMBS] = BN254_FINAL_EXP_INIT;
    for (int it = 0; it < test_iters(2); it++) {
        bn254_fp12 f, a, b;
        rand_fp12(&f);
        bn254_pairing_final_exponentiation(&a, &f);
        bn254_fp12_pow_vartime(&b, &f, E, BN254_FINAL_EXP_LIMBS);
        CHECK(bn254_fp12_eq(&a, &b));
    }
}

TEST(bn254, pairing_bilinear_nondegenerate) {
    bn254_g1_affine g1, p, ap;
    bn254_g2_affine g2, q, bq;
    bn254_g1_generator(&g1);
    bn254_g2_generator(&g2);
    bn254_fp12 e, t, u;
    bn254_pairing(&e, &g1, &g2);
    CHECK(!bn254_fp12_is_one(&e)); /* non-degenerate */
    bn254_fp12_pow_vartime(&t, &e, R_LIMBS, 4);
    CHECK(bn254_fp12_is_one(&t)); /* in GT: order r */
    for (int it = 0; it < test_iters(3); it++) {
        bn254_fr a, b, ab;
        rand_fr(&a);
        rand_fr(&b);
        bn254_g1_jacobian j1;
        bn254_g2_jacobian j2;
        bn254_g1_jacobian_from_affine(&j1, &g1);
        bn254_g1_mul_fr_vartime(&j1, &j1, &a);
        bn254_g1_jacobian_to_affine(&ap, &j1);
        bn254_g2_jacobian_from_affine(&j2, &g2);
        bn254_g2_mul_fr_vartime(&j2, &j2, &b);
        bn254_g2_jacobian_to_affine(&bq, &j2);
        bn254_pairing(&t, &ap, &bq); /* e([a]G1, [b]G2) */
        bn254_fr_mul(&ab, &a, &b);
        uint64_t k[4];
        bn254_fr_to_canon(k, &ab);
        bn254_fp12_pow_vartime(&u, &e, k, 4); /* e(G1, G2)^(ab) */
        CHECK(bn254_fp12_eq(&t, &u));
        /* e(P, Q) e(-P, Q) = 1, as a multi-pairing; infinity pairs contribute 1 */
        g1_rand(&p, NULL);
        g2_rand(&q, NULL);
        bn254_g1_affine ps[3], np;
        bn254_g2_affine qs[3];
        bn254_g1_affine_neg(&np, &p);
        ps[0] = p; qs[0] = q;
        ps[1] = np; qs[1] = q;
        bn254_g1_affine_set_infinity(&ps[2]); qs[2] = q;
        bn254_pairing_multi(&t, ps, qs, 3);
        CHECK(bn254_fp12_is_one(&t));
        /* multi = product */
        ps[1] = ap; qs[1] = bq;
        bn254_pairing_multi(&t, ps, qs, 2);
        bn254_pairing(&u, &p, &q);
        bn254_fp12 v;
        bn254_pairing(&v, &ap, &bq);
        bn254_fp12_mul(&u, &u, &v);
        CHECK(bn254_fp12_eq(&t, &u));
    }
}

/* Decimal string -> Fp (Montgomery); false on a bad digit or a value >= p. */
static bool fp_from_dec(bn254_fp *r, const char *s) {
    bn254_fp acc, ten, d;
    bn254_fp_zero(&acc);
    bn254_fp_from_u64(&ten, 10);
    if (!*s || strlen(s) > 78) return false;
    for (; *s; s++) {
        if (*s < '0' || *s > '9') return false;
        bn254_fp_mul(&acc, &acc, &ten);
        bn254_fp_from_u64(&d, (uint64_t)(*s - '0'));
        bn254_fp_add(&acc, &acc, &d);
    }
    *r = acc;
    return true;
}
static bool json_fp(bn254_fp *r, json_t *v) { return json_is_string(v) && fp_from_dec(r, json_string_value(v)); }
static bool json_fp2(bn254_fp2 *r, json_t *v) {
    return json_is_array(v) && json_fp(&r->c0, json_array_get(v, 0)) && json_fp(&r->c1, json_array_get(v, 1));
}

/* The known-answer test: e(vk_alpha_1, vk_beta_2) as snarkjs/ffjavascript computed it. */
TEST(bn254, pairing_matches_snarkjs_alphabeta) {
    const char *names[] = {"multiplier", "merkle_mimc5", "merkle_poseidon"};
    for (int c = 0; c < 3; c++) {
        char rel[128];
        snprintf(rel, sizeof rel, "bn128/%s/verification_key.json", names[c]);
        json_error_t jerr;
        json_t *vk = json_load_file(test_fixture(rel), 0, &jerr);
        REQUIRE(vk);
        bn254_g1_affine alpha;
        bn254_g2_affine beta;
        bn254_fp12 want, got;
        json_t *a = json_object_get(vk, "vk_alpha_1"), *b = json_object_get(vk, "vk_beta_2");
        json_t *ab = json_object_get(vk, "vk_alphabeta_12");
        CHECK(json_fp(&alpha.x, json_array_get(a, 0)) && json_fp(&alpha.y, json_array_get(a, 1)));
        CHECK(json_fp2(&beta.x, json_array_get(b, 0)) && json_fp2(&beta.y, json_array_get(b, 1)));
        bn254_fp6 *w6[2] = {&want.c0, &want.c1};
        for (int i = 0; i < 2; i++) {
            json_t *f6 = json_array_get(ab, (size_t)i);
            CHECK(json_fp2(&w6[i]->c0, json_array_get(f6, 0)) && json_fp2(&w6[i]->c1, json_array_get(f6, 1)) &&
                  json_fp2(&w6[i]->c2, json_array_get(f6, 2)));
        }
        CHECK(bn254_g1_affine_is_on_curve(&alpha) && bn254_g2_affine_is_on_curve(&beta));
        CHECK(bn254_g2_affine_is_in_subgroup(&beta));
        bn254_pairing(&got, &alpha, &beta);
        CHECK_MSG(bn254_fp12_eq(&got, &want), "e(alpha, beta) != snarkjs vk_alphabeta_12 (%s)", names[c]);
        json_decref(vk);
    }
}

/* ---- NTT ---------------------------------------------------------------------------------- */

TEST(bn254, ntt_roots_and_naive_dft) {
    bn254_fr w, t;
    bn254_ntt_root_of_unity(&w, 28, NTT_ROOTS_SNARKJS);
    t = w;
    for (int i = 0; i < 27; i++) bn254_fr_sqr(&t, &t);
    CHECK(!bn254_fr_is_one(&t));
    bn254_fr_sqr(&t, &t);
    CHECK(bn254_fr_is_one(&t));
    bn254_ntt_domain d;
    CHECK_EQ_INT(bn254_ntt_domain_init(&d, 4, NTT_ROOTS_BELLPERSON), CUZK_ERR_ARG); /* snarkjs only */
    CHECK_EQ_INT(bn254_ntt_domain_init(&d, 29, NTT_ROOTS_SNARKJS), CUZK_ERR_ARG);
    for (int lg = 1; lg <= 12; lg++) {
        REQUIRE(bn254_ntt_domain_init(&d, lg, NTT_ROOTS_SNARKJS) == CUZK_OK);
        size_t m = d.m;
        bn254_fr *a = malloc(m * sizeof *a), *b = malloc(m * sizeof *b);
        REQUIRE(a && b);
        for (size_t i = 0; i < m; i++) rand_fr(&a[i]);
        memcpy(b, a, m * sizeof *a);
        bn254_ntt_forward(&d, b, 2);
        if (lg <= 6) {
            for (size_t j = 0; j < m; j++) { /* b_j = sum_i a_i omega^(ij) */
                bn254_fr acc, x, wj, p;
                bn254_fr_zero(&acc);
                bn254_fr_pow_vartime(&wj, &d.omega, (uint64_t[]){(uint64_t)j}, 1);
                bn254_fr_one(&p);
                for (size_t i = 0; i < m; i++) {
                    bn254_fr_mul(&x, &a[i], &p);
                    bn254_fr_add(&acc, &acc, &x);
                    bn254_fr_mul(&p, &p, &wj);
                }
                CHECK(bn254_fr_eq(&acc, &b[j]));
            }
        }
        bn254_ntt_inverse(&d, b, 2);
        CHECK_MEM(a, b, m * sizeof *a);
        free(a);
        free(b);
        bn254_ntt_domain_free(&d);
    }
}

/* h_snarkjs against O(m^2) interpolation: A, B from their row values, C = A*B on the rows; result
 * j is A(g w^j) B(g w^j) - C(g w^j), g = omega_2m. */
TEST(bn254, h_snarkjs_naive) {
    for (int lg = 1; lg <= 5; lg++) {
        bn254_ntt_domain d;
        REQUIRE(bn254_ntt_domain_init(&d, lg, NTT_ROOTS_SNARKJS) == CUZK_OK);
        size_t m = d.m;
        bn254_fr a[32], b[32], c[32], ca[32], cb[32], cc[32], g, winv;
        for (size_t i = 0; i < m; i++) { rand_fr(&a[i]); rand_fr(&b[i]); bn254_fr_mul(&c[i], &a[i], &b[i]); }
        bn254_ntt_root_of_unity(&g, lg + 1, NTT_ROOTS_SNARKJS);
        bn254_fr_inv(&winv, &d.omega);
        /* coefficients: x_k = (1/m) sum_j v_j omega^(-jk) */
        const bn254_fr *vals[3] = {a, b, c};
        bn254_fr *coefs[3] = {ca, cb, cc};
        for (int v = 0; v < 3; v++)
            for (size_t k = 0; k < m; k++) {
                bn254_fr acc, x, wk, p;
                bn254_fr_zero(&acc);
                bn254_fr_pow_vartime(&wk, &winv, (uint64_t[]){(uint64_t)k}, 1);
                bn254_fr_one(&p);
                for (size_t j = 0; j < m; j++) {
                    bn254_fr_mul(&x, &vals[v][j], &p);
                    bn254_fr_add(&acc, &acc, &x);
                    bn254_fr_mul(&p, &p, &wk);
                }
                bn254_fr_mul(&coefs[v][k], &acc, &d.m_inv);
            }
        bn254_fr ha[32], hb[32], hc[32];
        memcpy(ha, a, m * sizeof *a);
        memcpy(hb, b, m * sizeof *b);
        bn254_h_snarkjs(&d, ha, hb, hc, 1);
        for (size_t j = 0; j < m; j++) {
            bn254_fr x, wj, ev[3];
            bn254_fr_pow_vartime(&wj, &d.omega, (uint64_t[]){(uint64_t)j}, 1);
            bn254_fr_mul(&x, &g, &wj);
            for (int v = 0; v < 3; v++) { /* Horner */
                bn254_fr_zero(&ev[v]);
                for (size_t k = m; k-- > 0;) {
                    bn254_fr_mul(&ev[v], &ev[v], &x);
                    bn254_fr_add(&ev[v], &ev[v], &coefs[v][k]);
                }
            }
            bn254_fr want;
            bn254_fr_mul(&want, &ev[0], &ev[1]);
            bn254_fr_sub(&want, &want, &ev[2]);
            CHECK_MSG(bn254_fr_eq(&want, &ha[j]), "h_snarkjs 2^%d at %zu", lg, j);
        }
        bn254_ntt_domain_free(&d);
    }
}

/* ---- MSM ---------------------------------------------------------------------------------- */

#define MSM_TEST(G, NAME)                                                                        \
    TEST(bn254, NAME##_msm_vs_naive) {                                                           \
        const size_t sizes[] = {0, 1, 2, 3, 17, 300, 2100};                                      \
        for (size_t si = 0; si < sizeof sizes / sizeof *sizes; si++) {                           \
            size_t n = sizes[si];                                                                \
            G##_affine *bases = malloc((n + 1) * sizeof *bases);                                 \
            scalar256 *sc = malloc((n + 1) * sizeof *sc);                                        \
            REQUIRE(bases && sc);                                                                \
            G##_jacobian want, got, t;                                                           \
            G##_jacobian_set_infinity(&want);                                                    \
            for (size_t i = 0; i < n; i++) {                                                     \
                int kind = (int)(test_rand64() % 8);                                             \
                if (i > 0 && kind == 0) bases[i] = bases[i - 1];        /* repeated base */      \
                else if (i > 0 && kind == 1) G##_affine_neg(&bases[i], &bases[i - 1]); /* -P */ \
                else if (kind == 2) G##_affine_set_infinity(&bases[i]);                          \
                else NAME##_rand(&bases[i], NULL);                                               \
                bn254_fr k;                                                                      \
                int sk = (int)(test_rand64() % 6);                                               \
                if (sk == 0) bn254_fr_zero(&k);                                                  \
                else if (sk == 1) bn254_fr_one(&k);                                              \
                else if (sk == 2) { bn254_fr_one(&k); bn254_fr_neg(&k, &k); } /* r - 1 */        \
                else rand_fr(&k);                                                                \
                bn254_fr_to_canon(sc[i].l, &k);                                                  \
                G##_jacobian_from_affine(&t, &bases[i]);                                         \
                G##_mul_vartime(&t, &t, sc[i].l, 4);                                             \
                G##_jacobian_add(&want, &want, &t);                                              \
            }                                                                                    \
            G##_msm(&got, bases, sc, n, 2);                                                      \
            CHECK_MSG(G##_jacobian_eq(&got, &want), #G "_msm n = %zu", n);                       \
            free(bases);                                                                         \
            free(sc);                                                                            \
        }                                                                                        \
    }
MSM_TEST(bn254_g1, g1)
MSM_TEST(bn254_g2, g2)

/* The batched affine accumulation on BN254 (issue 27: two interleaved product chains per batch,
 * odd and even batch sizes, the waiting list relieved without part-full flushes, XYZZ buckets
 * for the top windows whose digits reach few buckets) against the naive sum of double-and-add
 * products, with MSM_ACCUM_AFFINE so that small n take that path too: sizes 1, 2, 3, 5 (one
 * batch of each parity), 700 and 3001; scalars random, 0, 1, r - 1, small (< 2^bits: every window
 * above them is a few-bucket window, down to the one bucket of windows above every bit), or a few
 * distinct values (busy buckets: most points wait); bases random, repeated, -P, infinity. Then
 * n = 40000 random (22 windows of 12 bits: the top one of 4 buckets) against the per-point XYZZ
 * accumulation, which the test above checks against naive. */
static size_t affine_case_scalars(scalar256 *sc, size_t n, int mode) {
    static const int small_bits[] = {1, 8, 30, 100, 200};
    bn254_fr few[3];
    for (int i = 0; i < 3; i++) rand_fr(&few[i]);
    for (size_t i = 0; i < n; i++) {
        bn254_fr k;
        memset(sc[i].l, 0, sizeof sc[i].l);
        if (mode < 5) { /* < 2^bits */
            int bits = small_bits[mode];
            test_rand_bytes(sc[i].l, sizeof sc[i].l);
            for (int l = 0; l < 4; l++) {
                int lo = 64 * l;
                if (bits <= lo) sc[i].l[l] = 0;
                else if (bits < lo + 64) sc[i].l[l] &= ((uint64_t)1 << (bits - lo)) - 1;
            }
            continue;
        }
        if (mode == 5) k = few[test_rand64() % 3]; /* few distinct scalars */
        else {
            int sk = (int)(test_rand64() % 8);
            if (sk == 0) bn254_fr_zero(&k);
            else if (sk == 1) bn254_fr_one(&k);
            else if (sk == 2) { bn254_fr_one(&k); bn254_fr_neg(&k, &k); }
            else rand_fr(&k);
        }
        bn254_fr_to_canon(sc[i].l, &k);
    }
    return n;
}
#define MSM_AFFINE_TEST(G, NAME)                                                                 \
    TEST(bn254, NAME##_msm_affine_paths_vs_naive) {                                              \
        const size_t sizes[] = {1, 2, 3, 5, 700, 3001};                                          \
        const msm_opts ao = {MSM_ACCUM_AFFINE};                                                  \
        for (size_t si = 0; si < sizeof sizes / sizeof *sizes; si++)                             \
            for (int mode = 0; mode < 7; mode++) {                                               \
                size_t n = sizes[si];                                                            \
                /* the naive sum is slow: n = 3001 for G1's random and few-distinct scalars only */ \
                if (n == 3001 && ((mode < 5 && mode != 2) || sizeof(G##_affine) > 64)) continue;  \
                G##_affine *bases = malloc(n * sizeof *bases);                                   \
                scalar256 *sc = malloc(n * sizeof *sc);                                          \
                REQUIRE(bases && sc);                                                            \
                for (size_t i = 0; i < n; i++) {                                                 \
                    int kind = (int)(test_rand64() % 16);                                        \
                    if (i > 0 && kind == 0) bases[i] = bases[i - 1];                             \
                    else if (i > 0 && kind == 1) G##_affine_neg(&bases[i], &bases[i - 1]);       \
                    else if (kind == 2) G##_affine_set_infinity(&bases[i]);                      \
                    else if (i >= 16 && kind == 3) bases[i] = bases[i - 16];                      \
                    else NAME##_rand(&bases[i], NULL);                                           \
                }                                                                                \
                affine_case_scalars(sc, n, mode);                                                \
                G##_jacobian want, got, t;                                                       \
                G##_jacobian_set_infinity(&want);                                                \
                for (size_t i = 0; i < n; i++) {                                                 \
                    G##_jacobian_from_affine(&t, &bases[i]);                                     \
                    G##_mul_vartime(&t, &t, sc[i].l, 4);                                         \
                    G##_jacobian_add(&want, &want, &t);                                          \
                }                                                                                \
                for (int thr = 1; thr <= 3; thr += 2) {                                          \
                    G##_msm_with(&got, bases, sc, n, thr, &ao);                                  \
                    CHECK_MSG(G##_jacobian_eq(&got, &want), #G " affine n = %zu, mode %d, %d threads", \
                              n, mode, thr);                                                     \
                }                                                                                \
                free(bases);                                                                     \
                free(sc);                                                                        \
            }                                                                                    \
    }
MSM_AFFINE_TEST(bn254_g1, g1)
MSM_AFFINE_TEST(bn254_g2, g2)

/* n random G1 bases cheaply: a chain P_i = P_(i-1) + Q_(i mod 8); with `adversarial`, one in 16
 * repeats the previous base, one in 16 negates it, one in 16 is infinity */
static void g1_chain_bases(bn254_g1_affine *b, size_t n, bool adversarial) {
    bn254_g1_affine q[8];
    for (int i = 0; i < 8; i++) g1_rand(&q[i], NULL);
    bn254_g1_jacobian acc;
    bn254_g1_jacobian_from_affine(&acc, &q[0]);
    for (size_t i = 0; i < n; i++) {
        int kind = adversarial ? (int)(test_rand64() % 16) : 15;
        bn254_g1_jacobian_add_mixed(&acc, &acc, &q[i % 8]);
        if (i > 0 && kind == 0) b[i] = b[i - 1];
        else if (i > 0 && kind == 1) bn254_g1_affine_neg(&b[i], &b[i - 1]);
        else if (kind == 2) bn254_g1_affine_set_infinity(&b[i]);
        else bn254_g1_jacobian_to_affine(&b[i], &acc);
    }
}

TEST(bn254, g1_msm_affine_equals_xyzz_40000) {
    const size_t n = 40000;
    bn254_g1_affine *b = malloc(n * sizeof *b);
    scalar256 *sc = malloc(n * sizeof *sc);
    REQUIRE(b && sc);
    g1_chain_bases(b, n, false);
    affine_case_scalars(sc, n, 6);
    const msm_opts ao = {MSM_ACCUM_AFFINE}, xo = {MSM_ACCUM_XYZZ};
    bn254_g1_jacobian p, r;
    bn254_g1_msm_with(&p, b, sc, n, 2, &ao);
    bn254_g1_msm_with(&r, b, sc, n, 2, &xo);
    CHECK(bn254_g1_jacobian_eq(&p, &r));
    free(b);
    free(sc);
}

TEST(bn254, fixed_base_vs_mul) {
    bn254_g1_affine g, out[40];
    bn254_g2_affine h, out2[40];
    bn254_fr k[40];
    g1_rand(&g, NULL);
    g2_rand(&h, NULL);
    for (int i = 0; i < 40; i++) rand_fr(&k[i]);
    bn254_fr_zero(&k[3]);
    REQUIRE(bn254_g1s_fixed_base_mul(out, &g, k, 40, 2));
    REQUIRE(bn254_g2s_fixed_base_mul(out2, &h, k, 40, 2));
    for (int i = 0; i < 40; i++) {
        bn254_g1_jacobian j;
        bn254_g1_affine a;
        bn254_g1_jacobian_from_affine(&j, &g);
        bn254_g1_mul_fr_vartime(&j, &j, &k[i]);
        bn254_g1_jacobian_to_affine(&a, &j);
        CHECK(bn254_g1_affine_eq(&a, &out[i]));
        bn254_g2_jacobian j2;
        bn254_g2_affine a2;
        bn254_g2_jacobian_from_affine(&j2, &h);
        bn254_g2_mul_fr_vartime(&j2, &j2, &k[i]);
        bn254_g2_jacobian_to_affine(&a2, &j2);
        CHECK(bn254_g2_affine_eq(&a2, &out2[i]));
    }
}

/* The 8-lane MSM code (src/msm/msm52.h: the batch of affine additions, the bucket sums in 8
 * segments, and below 10-bit windows 8 windows' XYZZ buckets at once) against the scalar code: the same group element at sizes that leave partial groups
 * of 8 and batches of one group, with repeated, negated and infinite bases among random ones;
 * and one base repeated n times with small scalars, so that buckets, running sums and partial
 * sums meet equal and opposite points (the lanes that fall back to the scalar additions),
 * against sum(k) * P. (The affine tests above also run on the vector path where the CPU has
 * IFMA, against the naive sum.) */
TEST(bn254, g1_msm_vec52_vs_scalar) {
    ff_force_scalar(false);
    if (!ff_vec52_active()) SKIP("no AVX-512 IFMA on this CPU (or CUZK_NO_ASM or CUZK_NO_IFMA set): the 8-lane MSM is not used here");
    static const size_t sizes[] = {1, 7, 9, 33, 100, 1000, 4099, 40000};
    const msm_opts ao = {MSM_ACCUM_AFFINE};
    for (size_t si = 0; si < sizeof sizes / sizeof *sizes; si++) {
        const size_t n = sizes[si];
        bn254_g1_affine *b = malloc(n * sizeof *b);
        scalar256 *sc = malloc(n * sizeof *sc);
        REQUIRE(b && sc);
        g1_chain_bases(b, n, true);
        for (int mode = 5; mode <= 6; mode++) {
            affine_case_scalars(sc, n, mode);
            for (int auto_ = 0; auto_ < 2; auto_++) {
                bn254_g1_jacobian got[2];
                for (int v = 0; v < 2; v++) {
                    ff_force_scalar(v == 0);
                    bn254_g1_msm_with(&got[v], b, sc, n, 2, auto_ ? NULL : &ao);
                }
                ff_force_scalar(false);
                CHECK_MSG(bn254_g1_jacobian_eq(&got[0], &got[1]), "bn254 G1 MSM vec52 != scalar at n = %zu, mode %d%s",
                          n, mode, auto_ ? ", auto" : ", affine");
            }
        }
        free(b);
        free(sc);
    }
    /* one base, small scalars: sum k_i P. Case 3: 6000 scalars 3 and 3000 scalars 6 fill two
     * buckets with the same point 18000 P, so the running sum adds a point to itself and the
     * partial sum meets the running sum (the exceptional lanes, done by the scalar additions) */
    for (int rep = 0; rep < 4; rep++) {
        const size_t n = rep == 0 ? 3000 : rep == 1 ? 20000 : rep == 2 ? 70000 : 9000;
        bn254_g1_affine *b = malloc(n * sizeof *b), p;
        scalar256 *sc = malloc(n * sizeof *sc);
        REQUIRE(b && sc);
        g1_rand(&p, NULL);
        bn254_fr total, k;
        bn254_fr_zero(&total);
        for (size_t i = 0; i < n; i++) {
            b[i] = p;
            memset(sc[i].l, 0, sizeof sc[i].l);
            sc[i].l[0] = rep == 3 ? (i % 3 == 2 ? 6 : 3) : rep == 2 ? 2 + i % 5 : 2 + test_rand64() % (rep == 0 ? 9000 : 50);
            /* case 3: full-width scalars (affine buckets in the low windows), the low window's
             * digit still 3 or 6 */
            if (rep == 3) sc[i].l[3] = test_rand64() >> 4;
            bn254_fr_from_canon(&k, sc[i].l);
            bn254_fr_add(&total, &total, &k);
        }
        uint64_t tc[4];
        bn254_fr_to_canon(tc, &total);
        bn254_g1_jacobian got, want;
        bn254_g1_msm_with(&got, b, sc, n, 2, NULL);
        bn254_g1_jacobian_from_affine(&want, &p);
        bn254_g1_mul_vartime(&want, &want, tc, 4);
        CHECK_MSG(bn254_g1_jacobian_eq(&got, &want), "bn254 G1 MSM of one repeated base, n = %zu", n);
        free(b);
        free(sc);
    }
}

/* The 8-lane point checks (src/ec/ec52.h) against the scalar ones: random valid G1 and G2 points
 * (and infinity) with faults planted at random places (a coordinate >= p, p itself, 2^256 - 1,
 * off the curve by one bit, (0, y), (x, 0)): the prefix they accept passes the scalar checks,
 * and stops at the first faulty point of each full group of 8 (the scalar code names it). */
TEST(bn254, ec52_point_checks_vs_scalar) {
    if (!ec52_usable(bn254_fp_MODULUS)) SKIP("no AVX-512 IFMA on this CPU (or CUZK_NO_ASM or CUZK_NO_IFMA set): the 8-lane checks are not used here");
    static const bn254_fp g1b = BN254_G1_B_MONT;
    static const bn254_fp2 g2b = BN254_G2_B_MONT;
    uint64_t g2bl[8];
    memcpy(g2bl, g2b.c0.l, 32);
    memcpy(g2bl + 4, g2b.c1.l, 32);
    const size_t n = 203;
    bn254_g1_affine *p1 = malloc(n * sizeof *p1);
    bn254_g2_affine *p2 = malloc(n * sizeof *p2);
    REQUIRE(p1 && p2);
    for (int rep = 0; rep < 40; rep++) {
        for (size_t i = 0; i < n; i++) {
            if (i % 37 == 5) {
                bn254_g1_affine_set_infinity(&p1[i]);
                bn254_g2_affine_set_infinity(&p2[i]);
            } else {
                g1_rand(&p1[i], NULL);
                g2_rand(&p2[i], NULL);
            }
        }
        int faults = rep == 0 ? 0 : 1 + (int)(test_rand64() % 3);
        for (int k = 0; k < faults; k++) {
            size_t i = test_rand64() % n;
            int kind = (int)(test_rand64() % 6);
            uint64_t *c1 = test_rand64() & 1 ? p1[i].x.l : p1[i].y.l;
            uint64_t *c2 = (uint64_t *)&p2[i] + 4 * (test_rand64() % 4);
            for (int g = 0; g < 2; g++) {
                uint64_t *c = g ? c2 : c1;
                switch (kind) {
                case 0: memcpy(c, bn254_fp_MODULUS, 32); break;                 /* = p */
                case 1: memcpy(c, bn254_fp_MODULUS, 32); c[0] += 5; break;       /* > p */
                case 2: memset(c, 0xff, 32); break;                              /* 2^256 - 1 */
                case 3: c[0] ^= 1; if (!bn254_fp_is_canon(c)) c[0] ^= 3; break;   /* off the curve */
                case 4: memset(g ? (uint64_t *)&p2[i] : p1[i].x.l, 0, g ? 64 : 32); break; /* x = 0 */
                default: memset(g ? (uint64_t *)&p2[i] + 8 : p1[i].y.l, 0, g ? 64 : 32); break; /* y = 0 */
                }
            }
        }
        /* the scalar verdict per point */
        size_t first1 = n, first2 = n;
        for (size_t i = n; i-- > 0;) {
            bool ok1 = bn254_fp_is_canon(p1[i].x.l) && bn254_fp_is_canon(p1[i].y.l) &&
                       (bn254_g1_affine_is_infinity(&p1[i]) || bn254_g1_affine_is_on_curve(&p1[i]));
            bool ok2 = bn254_fp_is_canon(p2[i].x.c0.l) && bn254_fp_is_canon(p2[i].x.c1.l) &&
                       bn254_fp_is_canon(p2[i].y.c0.l) && bn254_fp_is_canon(p2[i].y.c1.l) &&
                       (bn254_g2_affine_is_infinity(&p2[i]) || bn254_g2_affine_is_on_curve(&p2[i]));
            if (!ok1) first1 = i;
            if (!ok2) first2 = i;
        }
        size_t k1 = ec52_g1_prefix_ok((const uint64_t(*)[8])p1, n, bn254_fp_MODULUS, g1b.l);
        size_t k2 = ec52_g2_prefix_ok((const uint64_t(*)[16])p2, n, bn254_fp_MODULUS, g2bl);
        const size_t full = n / 8 * 8;
        CHECK_MSG(k1 == (first1 < full ? first1 : full), "G1: 8-lane prefix %zu, scalar first fault %zu (rep %d)", k1,
                  first1, rep);
        CHECK_MSG(k2 == (first2 < full ? first2 : full), "G2: 8-lane prefix %zu, scalar first fault %zu (rep %d)", k2,
                  first2, rep);
    }
    free(p1);
    free(p2);
}
