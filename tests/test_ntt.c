/* NTT and H polynomial tests (suite `ntt`).
 *
 * Oracles: the naive O(m^2) DFT and naive Lagrange evaluation (independent of the NTT code),
 * round trips up to 2^20, the Groth16 identity A*B - C = h*Z at a random point, and the snarkjs
 * reference trace tests/fixtures/bls12381/multiplier/prover_trace.json (refprove.mjs).
 */
#include <jansson.h>
#include <stdlib.h>

#include "curves/bls12_381/curve.h"
#include "curves/bn254/curve.h"
#include "ff/mont_x86.h"
#include "test.h"

/* Uniform below 2^254 < r: any value < r is a valid Montgomery representation. Cheap, so the
 * 2^20-element tests do not spend their time in the RNG. */
static void rand_fr(fr *r) {
    test_rand_bytes(r->l, sizeof r->l);
    r->l[3] &= (UINT64_MAX >> 2);
}

static void rand_vec(fr *v, size_t n) {
    for (size_t i = 0; i < n; i++) rand_fr(&v[i]);
}

static void pow_u64(fr *r, const fr *x, uint64_t e) { fr_pow_vartime(r, x, &e, 1); }

/* Decimal string (< r) -> Montgomery. Returns false on a bad digit or overflow of 256 bits. */
static bool fr_from_dec(fr *r, const char *s) {
    uint64_t l[4] = {0};
    if (!*s) return false;
    for (; *s; s++) {
        if (*s < '0' || *s > '9') return false;
        mont_u128 c = (uint64_t)(*s - '0');
        for (int i = 0; i < 4; i++) {
            c += (mont_u128)l[i] * 10;
            l[i] = (uint64_t)c;
            c >>= 64;
        }
        if (c) return false;
    }
    if (!fr_is_canon(l)) return false;
    fr_from_canon(r, l);
    return true;
}

/* out_j = sum_i a_i * x^(i*j) */
static void naive_dft(fr *out, const fr *a, size_t m, const fr *x) {
    fr xj;
    fr_one(&xj);
    for (size_t j = 0; j < m; j++) {
        fr acc, p;
        fr_zero(&acc);
        fr_one(&p);
        for (size_t i = 0; i < m; i++) {
            fr t;
            fr_mul(&t, &a[i], &p);
            fr_add(&acc, &acc, &t);
            fr_mul(&p, &p, &xj);
        }
        out[j] = acc;
        fr_mul(&xj, &xj, x);
    }
}

/* Horner: sum_i c_i x^i */
static void poly_eval(fr *r, const fr *c, size_t n, const fr *x) {
    fr acc;
    fr_zero(&acc);
    for (size_t i = n; i-- > 0;) {
        fr_mul(&acc, &acc, x);
        fr_add(&acc, &acc, &c[i]);
    }
    *r = acc;
}

/* Value at x (not a root of unity) of the polynomial of degree < m taking values v_j at omega^j:
 * sum_j v_j * omega^j * (x^m - 1) / (m * (x - omega^j)). Independent of the NTT. */
static void lagrange_eval(fr *r, const fr *v, size_t m, const fr *omega, const fr *x) {
    fr acc, wj, zx, one, mm;
    fr_zero(&acc);
    fr_one(&wj);
    fr_one(&one);
    pow_u64(&zx, x, m);
    fr_sub(&zx, &zx, &one);
    fr_from_u64(&mm, m);
    for (size_t j = 0; j < m; j++) {
        fr den, t;
        fr_sub(&den, x, &wj);
        fr_mul(&den, &den, &mm);
        fr_inv(&den, &den);
        fr_mul(&t, &v[j], &wj);
        fr_mul(&t, &t, &den);
        fr_add(&acc, &acc, &t);
        fr_mul(&wj, &wj, omega);
    }
    fr_mul(r, &acc, &zx);
}

static bool vec_eq(const fr *a, const fr *b, size_t n) {
    for (size_t i = 0; i < n; i++)
        if (!fr_eq(&a[i], &b[i])) return false;
    return true;
}

TEST(ntt, domain_roots) {
    for (int conv = 0; conv < 2; conv++) {
        for (int k = 1; k <= 28; k++) {
            ntt_domain d;
            /* only build the twiddle tables for small k; check the root's order for all k */
            if (k > 16) continue;
            REQUIRE(ntt_domain_init(&d, k, (ntt_roots)conv) == CUZK_OK);
            fr t, one, minus_one;
            fr_one(&one);
            fr_neg(&minus_one, &one);
            pow_u64(&t, &d.omega, d.m / 2);
            CHECK_MSG(fr_eq(&t, &minus_one), "omega^(m/2) != -1 at k=%d conv=%d", k, conv);
            fr_mul(&t, &d.omega, &d.omega_inv);
            CHECK(fr_is_one(&t));
            fr mm;
            fr_from_u64(&mm, d.m);
            fr_mul(&t, &mm, &d.m_inv);
            CHECK(fr_is_one(&t));
            if (d.m >= 4) CHECK(fr_eq(&d.twiddles[d.m / 4], &d.twiddles[1]) == (d.m == 4));
            ntt_domain_free(&d);
        }
    }
    ntt_domain d;
    CHECK(ntt_domain_init(&d, 0, NTT_ROOTS_BELLPERSON) == CUZK_ERR_ARG);
    CHECK(ntt_domain_init(&d, 29, NTT_ROOTS_BELLPERSON) == CUZK_ERR_ARG);
    /* the two conventions really differ (FORMATS.md section 5) */
    ntt_domain d7, d5;
    REQUIRE(ntt_domain_init(&d7, 4, NTT_ROOTS_BELLPERSON) == CUZK_OK);
    REQUIRE(ntt_domain_init(&d5, 4, NTT_ROOTS_SNARKJS) == CUZK_OK);
    CHECK(!fr_eq(&d7.omega, &d5.omega));
    ntt_domain_free(&d7);
    ntt_domain_free(&d5);
}

TEST(ntt, forward_inverse_vs_naive_dft) {
    for (int conv = 0; conv < 2; conv++) {
        for (int k = 1; k <= 8; k++) {
            ntt_domain d;
            REQUIRE(ntt_domain_init(&d, k, (ntt_roots)conv) == CUZK_OK);
            size_t m = d.m;
            fr *a = malloc(m * sizeof(fr)), *x = malloc(m * sizeof(fr)), *e = malloc(m * sizeof(fr));
            REQUIRE(a && x && e);
            rand_vec(a, m);
            memcpy(x, a, m * sizeof(fr));
            naive_dft(e, a, m, &d.omega);
            ntt_forward(&d, x, 2);
            CHECK_MSG(vec_eq(x, e, m), "forward != naive DFT at m=%zu conv=%d", m, conv);
            /* inverse: (1/m) * DFT with omega^-1 */
            memcpy(x, a, m * sizeof(fr));
            naive_dft(e, a, m, &d.omega_inv);
            for (size_t i = 0; i < m; i++) fr_mul(&e[i], &e[i], &d.m_inv);
            ntt_inverse(&d, x, 2);
            CHECK_MSG(vec_eq(x, e, m), "inverse != naive at m=%zu conv=%d", m, conv);
            free(a);
            free(x);
            free(e);
            ntt_domain_free(&d);
        }
    }
}

TEST(ntt, round_trip_all_sizes) {
    size_t maxm = (size_t)1 << 20;
    fr *a = malloc(maxm * sizeof(fr)), *x = malloc(maxm * sizeof(fr));
    REQUIRE(a && x);
    rand_vec(a, maxm);
    for (int k = 1; k <= 20; k++) {
        ntt_domain d;
        ntt_roots conv = (ntt_roots)(k & 1);
        REQUIRE(ntt_domain_init(&d, k, conv) == CUZK_OK);
        memcpy(x, a, d.m * sizeof(fr));
        ntt_forward(&d, x, k & 2 ? 1 : 2);
        CHECK(!vec_eq(x, a, d.m));
        /* beyond the naive-DFT sizes (and across the tile groups of 8 stages), spot-check
         * a few outputs against Horner evaluation at omega^j */
        if (k == 9 || k == 17 || k == 20) {
            for (int s = 0; s < 2; s++) {
                size_t j = s == 0 ? d.m - 1 : (size_t)(test_rand64() & (d.m - 1));
                fr wj, e;
                pow_u64(&wj, &d.omega, j);
                poly_eval(&e, a, d.m, &wj);
                CHECK_MSG(fr_eq(&e, &x[j]), "forward(a)[%zu] wrong at k=%d", j, k);
            }
        }
        ntt_inverse(&d, x, 2);
        CHECK_MSG(vec_eq(x, a, d.m), "inverse(forward(x)) != x at k=%d", k);
        ntt_domain_free(&d);
    }
    free(a);
    free(x);
}

TEST(ntt, coset) {
    for (int conv = 0; conv < 2; conv++) {
        for (int k = 1; k <= 14; k++) {
            ntt_domain d;
            REQUIRE(ntt_domain_init(&d, k, (ntt_roots)conv) == CUZK_OK);
            size_t m = d.m;
            fr *a = malloc(m * sizeof(fr)), *x = malloc(m * sizeof(fr));
            REQUIRE(a && x);
            rand_vec(a, m);
            memcpy(x, a, m * sizeof(fr));
            fr shift;
            if (k & 1) fr_from_u64(&shift, 7);
            else rand_fr(&shift);
            ntt_coset_forward(&d, x, &shift, 2);
            if (k <= 6) {
                /* evaluations at shift * omega^j */
                fr p = shift;
                bool ok = true;
                for (size_t j = 0; j < m; j++) {
                    fr e;
                    poly_eval(&e, a, m, &p);
                    ok &= fr_eq(&e, &x[j]);
                    fr_mul(&p, &p, &d.omega);
                }
                CHECK_MSG(ok, "coset forward != naive evaluation at m=%zu", m);
            }
            ntt_coset_inverse(&d, x, &shift, 2);
            CHECK_MSG(vec_eq(x, a, m), "coset round trip failed at m=%zu", m);
            free(a);
            free(x);
            ntt_domain_free(&d);
        }
    }
}

/* h_bellperson for a satisfying "witness": c = a*b on the first n rows (zero after).
 * Check A(tau)B(tau) - C(tau) == h(tau)(tau^m - 1) and h_{m-1} == 0. */
static void check_h_bellperson(int k, size_t n, int nthreads) {
    ntt_domain d;
    REQUIRE(ntt_domain_init(&d, k, NTT_ROOTS_BELLPERSON) == CUZK_OK);
    size_t m = d.m;
    fr *a = calloc(m, sizeof(fr)), *b = calloc(m, sizeof(fr)), *c = calloc(m, sizeof(fr));
    fr *a0 = malloc(m * sizeof(fr)), *b0 = malloc(m * sizeof(fr)), *c0 = malloc(m * sizeof(fr));
    REQUIRE(a && b && c && a0 && b0 && c0);
    rand_vec(a, n);
    rand_vec(b, n);
    for (size_t i = 0; i < n; i++) fr_mul(&c[i], &a[i], &b[i]);
    memcpy(a0, a, m * sizeof(fr));
    memcpy(b0, b, m * sizeof(fr));
    memcpy(c0, c, m * sizeof(fr));
    h_bellperson(&d, a, b, c, nthreads);
    CHECK_MSG(fr_is_zero(&a[m - 1]), "h_{m-1} != 0 at m=%zu n=%zu", m, n);

    fr tau, av, bv, cv, hv, z, one, lhs;
    rand_fr(&tau);
    fr_one(&one);
    if (m <= 4096) {
        lagrange_eval(&av, a0, m, &d.omega, &tau);
        lagrange_eval(&bv, b0, m, &d.omega, &tau);
        lagrange_eval(&cv, c0, m, &d.omega, &tau);
    } else {
        ntt_inverse(&d, a0, nthreads);
        ntt_inverse(&d, b0, nthreads);
        ntt_inverse(&d, c0, nthreads);
        poly_eval(&av, a0, m, &tau);
        poly_eval(&bv, b0, m, &tau);
        poly_eval(&cv, c0, m, &tau);
    }
    poly_eval(&hv, a, m, &tau);
    pow_u64(&z, &tau, m);
    fr_sub(&z, &z, &one);
    fr_mul(&lhs, &av, &bv);
    fr_sub(&lhs, &lhs, &cv);
    fr_mul(&hv, &hv, &z);
    CHECK_MSG(fr_eq(&lhs, &hv), "A*B - C != h*Z at tau, m=%zu n=%zu", m, n);

    free(a);
    free(b);
    free(c);
    free(a0);
    free(b0);
    free(c0);
    ntt_domain_free(&d);
}

TEST(ntt, h_bellperson_identity) {
    for (int k = 1; k <= 10; k++) {
        size_t m = (size_t)1 << k;
        check_h_bellperson(k, m, 2);
        if (m > 3) check_h_bellperson(k, m - 3, 1);
    }
    check_h_bellperson(12, 3000, 2);    /* two tile groups (8 + 4 stages) */
    check_h_bellperson(17, 100000, 2);  /* three tile groups (8 + 8 + 1) */
}

/* h_snarkjs vs naive: a[j] = A(g w^j) B(g w^j) - C(g w^j), g = omega_2m, C interpolating a*b. */
TEST(ntt, h_snarkjs_vs_naive) {
    for (int k = 1; k <= 5; k++) {
        ntt_domain d, d2;
        REQUIRE(ntt_domain_init(&d, k, NTT_ROOTS_SNARKJS) == CUZK_OK);
        REQUIRE(ntt_domain_init(&d2, k + 1, NTT_ROOTS_SNARKJS) == CUZK_OK);
        size_t m = d.m;
        fr *a = malloc(m * sizeof(fr)), *b = malloc(m * sizeof(fr)), *c = malloc(m * sizeof(fr));
        fr *a0 = malloc(m * sizeof(fr)), *b0 = malloc(m * sizeof(fr)), *c0 = malloc(m * sizeof(fr));
        REQUIRE(a && b && c && a0 && b0 && c0);
        rand_vec(a, m);
        rand_vec(b, m);
        if (k == 3 && m > 5) { fr_zero(&a[5]); fr_zero(&b[2]); } /* m > 5 tells gcc 13 the index is in bounds */
        for (size_t i = 0; i < m; i++) fr_mul(&c0[i], &a[i], &b[i]);
        memcpy(a0, a, m * sizeof(fr));
        memcpy(b0, b, m * sizeof(fr));
        h_snarkjs(&d, a, b, c, 2);
        fr x = d2.omega; /* g * omega^j = omega_2m^(2j+1) */
        bool ok = true;
        for (size_t j = 0; j < m; j++) {
            fr av, bv, cv;
            lagrange_eval(&av, a0, m, &d.omega, &x);
            lagrange_eval(&bv, b0, m, &d.omega, &x);
            lagrange_eval(&cv, c0, m, &d.omega, &x);
            fr_mul(&av, &av, &bv);
            fr_sub(&av, &av, &cv);
            ok &= fr_eq(&av, &a[j]);
            fr_mul(&x, &x, &d.omega);
        }
        CHECK_MSG(ok, "h_snarkjs != naive at m=%zu", m);
        free(a);
        free(b);
        free(c);
        free(a0);
        free(b0);
        free(c0);
        ntt_domain_free(&d);
        ntt_domain_free(&d2);
    }
}

static bool load_dec_array(fr *out, size_t n, json_t *arr) {
    if (!json_is_array(arr) || json_array_size(arr) != n) return false;
    for (size_t i = 0; i < n; i++) {
        const char *s = json_string_value(json_array_get(arr, i));
        if (!s || !fr_from_dec(&out[i], s)) return false;
    }
    return true;
}

TEST(ntt, h_snarkjs_fixture) {
    json_error_t err;
    json_t *root = json_load_file(test_fixture("bls12381/multiplier/prover_trace.json"), 0, &err);
    /* a committed fixture: failing to load it is a failure, not a reason to skip */
    REQUIRE_MSG(root, "tests/fixtures/bls12381/multiplier/prover_trace.json: %s (line %d)", err.text, err.line);
    json_t *ds = json_object_get(root, "domainSize");
    REQUIRE(json_is_integer(ds));
    size_t m = (size_t)json_integer_value(ds);
    int k = 0;
    while (((size_t)1 << k) < m) k++;
    REQUIRE(((size_t)1 << k) == m && k >= 1);
    fr *a = malloc(m * sizeof(fr)), *b = malloc(m * sizeof(fr)), *c = malloc(m * sizeof(fr));
    fr *h = malloc(m * sizeof(fr)), *ce = malloc(m * sizeof(fr));
    REQUIRE(a && b && c && h && ce);
    CHECK(load_dec_array(a, m, json_object_get(root, "A_eval_domain")));
    CHECK(load_dec_array(b, m, json_object_get(root, "B_eval_domain")));
    CHECK(load_dec_array(ce, m, json_object_get(root, "C_eval_domain")));
    CHECK(load_dec_array(h, m, json_object_get(root, "h_scalars")));
    /* the trace's C is A*B on the rows */
    for (size_t i = 0; i < m; i++) {
        fr t;
        fr_mul(&t, &a[i], &b[i]);
        CHECK(fr_eq(&t, &ce[i]));
    }
    ntt_domain d;
    REQUIRE(ntt_domain_init(&d, k, NTT_ROOTS_SNARKJS) == CUZK_OK);
    fr om;
    CHECK(fr_from_dec(&om, json_string_value(json_object_get(root, "omega_n"))));
    CHECK(fr_eq(&om, &d.omega));
    h_snarkjs(&d, a, b, c, 1);
    CHECK_MSG(vec_eq(a, h, m), "h_snarkjs differs from snarkjs's h_scalars");
    ntt_domain_free(&d);
    free(a);
    free(b);
    free(c);
    free(h);
    free(ce);
    json_decref(root);
}

/* ---- the 8-lane IFMA transform (src/poly/ntt52.h) against the scalar one --------------------
 * Every public transform and both H computations, on both curves' Fr, at every size from 2^1
 * (below NTT52_MIN_LOG the vector path declines) to 2^16 / 2^17: random vectors and edge vectors (all
 * m - 1, all zero but one entry), byte-identical to the scalar code (which the oracle tests above
 * check against the naive DFT and Lagrange evaluation; they run on the vector path where it is
 * available). */
#define NTT_VEC_VS_SCALAR(P, F, ROOTS)                                                           \
    static void P##ntt_vec_vs_scalar(int max_log) {                                               \
        int bad = 0;                                                                              \
        for (int lg = 1; lg <= max_log && bad < 3; lg++) {                                        \
            size_t m = (size_t)1 << lg;                                                           \
            P##ntt_domain d;                                                                      \
            REQUIRE(P##ntt_domain_init(&d, lg, ROOTS) == CUZK_OK);                                \
            F *x = malloc(3 * m * sizeof *x), *y = malloc(3 * m * sizeof *y), g;                  \
            REQUIRE(x && y);                                                                      \
            P##h_coset_shift(&g, lg, ROOTS);                                                      \
            for (int kind = 0; kind < 3; kind++) {                                                \
                for (size_t i = 0; i < 3 * m; i++) {                                              \
                    if (kind == 0) {                                                              \
                        test_rand_bytes(x[i].l, sizeof x[i].l);                                   \
                        F##_mod(x[i].l, x[i].l);                                                  \
                    } else if (kind == 1) {                                                       \
                        F one;                                                                    \
                        F##_one(&one);                                                            \
                        F##_neg(&x[i], &one);                                                     \
                    } else {                                                                      \
                        F##_zero(&x[i]);                                                          \
                        if (i % m == m / 2) F##_one(&x[i]);                                       \
                    }                                                                             \
                }                                                                                 \
                for (int op = 0; op < 5; op++) {                                                  \
                    F *r[2];                                                                      \
                    for (int v = 0; v < 2; v++) {                                                 \
                        ff_force_scalar(v == 0);                                                  \
                        r[v] = v == 0 ? y : x;                                                    \
                        if (v == 0) memcpy(y, x, 3 * m * sizeof *x);                              \
                        F *a = r[v];                                                              \
                        switch (op) {                                                             \
                        case 0: P##ntt_forward(&d, a, 2); break;                                  \
                        case 1: P##ntt_inverse(&d, a, 2); break;                                  \
                        case 2: P##ntt_coset_forward(&d, a, &g, 2); break;                        \
                        case 3: P##ntt_coset_inverse(&d, a, &g, 2); break;                        \
                        default:                                                                  \
                            P##h_snarkjs(&d, a, a + m, a + 2 * m, 2); /* same inputs: same code */ \
                        }                                                                         \
                    }                                                                             \
                    ff_force_scalar(false);                                                       \
                    bool same = memcmp(x, y, 3 * m * sizeof *x) == 0;                             \
                    CHECK_MSG(same, #P "ntt vec52 != scalar: 2^%d, input kind %d, op %d", lg, kind, op); \
                    if (!same) bad++;                                                             \
                    memcpy(x, y, 3 * m * sizeof *x); /* continue from the scalar result */        \
                }                                                                                 \
            }                                                                                     \
            free(x);                                                                              \
            free(y);                                                                              \
            P##ntt_domain_free(&d);                                                               \
        }                                                                                         \
    }
NTT_VEC_VS_SCALAR(, fr, NTT_ROOTS_BELLPERSON)
NTT_VEC_VS_SCALAR(bn254_, bn254_fr, NTT_ROOTS_SNARKJS)

TEST(ntt, vec52_vs_scalar) {
    ff_force_scalar(false);
    if (!ff_vec52_active()) SKIP("no AVX-512 IFMA on this CPU (or CUZK_NO_ASM or CUZK_NO_IFMA set): the 8-lane NTT is not used here");
    ntt_vec_vs_scalar(16);
    bn254_ntt_vec_vs_scalar(17);
    /* the bellperson H (BLS12-381) on both paths */
    for (int lg = 5; lg <= 16; lg += 11) {
        size_t m = (size_t)1 << lg;
        ntt_domain d;
        REQUIRE(ntt_domain_init(&d, lg, NTT_ROOTS_BELLPERSON) == CUZK_OK);
        fr *v[2];
        for (int k = 0; k < 2; k++) REQUIRE((v[k] = malloc(3 * m * sizeof(fr))) != NULL);
        rand_vec(v[0], 3 * m);
        memcpy(v[1], v[0], 3 * m * sizeof(fr));
        for (int k = 0; k < 2; k++) {
            ff_force_scalar(k == 0);
            h_bellperson(&d, v[k], v[k] + m, v[k] + 2 * m, 2);
        }
        ff_force_scalar(false);
        CHECK_MSG(memcmp(v[0], v[1], m * sizeof(fr)) == 0, "h_bellperson vec52 != scalar at 2^%d", lg);
        for (int k = 0; k < 2; k++) free(v[k]);
        ntt_domain_free(&d);
    }
}
