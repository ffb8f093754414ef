/* Suite "formats": snarkjs .zkey/.wtns/.r1cs loaders against the JSON oracles exported by snarkjs
 * (tests/fixtures/bls12381/multiplier/{zkey,r1cs,witness}.json), witness checks, CSR SpMV, JSON and
 * bellperson round trips, file_describe. */
#include "test.h"
#include "test_csr.h"
#include "test_rand.h"

#include "cuzk/filecoin.h"
#include "curves/bls12_381/curve.h"
#include "curves/bn254/curve.h"
#include "formats/bellperson.h"
#include "formats/json.h"
#include "formats/snarkjs.h"
#include "r1cs/r1cs.h"

#include <jansson.h>
#include <stdlib.h>

#ifdef CUZK_HAVE_GMP
#include <gmp.h>
#endif

static const uint64_t Q[6] = BLS12_381_FP_MODULUS;
static const uint64_t R[4] = BLS12_381_FR_MODULUS;

static json_t *load_json(const char *rel) {
    json_error_t je;
    json_t *j = json_load_file(test_fixture(rel), 0, &je);
    if (!j) test_fail(__FILE__, __LINE__, "cannot load %s: %s", rel, je.text);
    return j;
}

static bool fp_dec_eq(const fp *a, const json_t *s) {
    uint64_t l[6];
    if (!json_is_string(s) || !decimal_to_limbs(l, 6, json_string_value(s), Q)) return false;
    fp b;
    fp_from_canon(&b, l);
    return fp_eq(a, &b);
}
static bool fr_dec_eq(const fr *a, const json_t *s) {
    uint64_t l[4];
    if (!json_is_string(s) || !decimal_to_limbs(l, 4, json_string_value(s), R)) return false;
    fr b;
    fr_from_canon(&b, l);
    return fr_eq(a, &b);
}
/* snarkjs writes G1 as [x, y, "1"], infinity as ["0", "1", "0"] */
static bool g1_json_eq(const g1_affine *p, const json_t *j) {
    if (!json_is_array(j) || json_array_size(j) != 3) return false;
    if (strcmp(json_string_value(json_array_get(j, 2)), "0") == 0) return g1_affine_is_infinity(p);
    return fp_dec_eq(&p->x, json_array_get(j, 0)) && fp_dec_eq(&p->y, json_array_get(j, 1));
}
static bool g2_json_eq(const g2_affine *p, const json_t *j) {
    if (!json_is_array(j) || json_array_size(j) != 3) return false;
    const json_t *z = json_array_get(j, 2);
    if (strcmp(json_string_value(json_array_get(z, 0)), "0") == 0) return g2_affine_is_infinity(p);
    const json_t *x = json_array_get(j, 0), *y = json_array_get(j, 1);
    return fp_dec_eq(&p->x.c0, json_array_get(x, 0)) && fp_dec_eq(&p->x.c1, json_array_get(x, 1)) &&
           fp_dec_eq(&p->y.c0, json_array_get(y, 0)) && fp_dec_eq(&p->y.c1, json_array_get(y, 1));
}

/* ---- decimal helpers -------------------------------------------------------------------- */

TEST(formats, decimal_edge_values) {
    char buf[200];
    uint64_t l[6] = {0};
    limbs_to_decimal(buf, sizeof buf, l, 6);
    CHECK(strcmp(buf, "0") == 0);
    l[0] = 10000000000000000000ull;
    limbs_to_decimal(buf, sizeof buf, l, 6);
    CHECK(strcmp(buf, "10000000000000000000") == 0);
    l[0] = 0; l[1] = 1;
    limbs_to_decimal(buf, sizeof buf, l, 2);
    CHECK(strcmp(buf, "18446744073709551616") == 0);
    /* r - 1 as in r1cs.json */
    uint64_t rm1[4];
    CHECK(decimal_to_limbs(rm1, 4, "52435875175126190479447740508185965837690552500527637822603658699938581184512", R));
    uint64_t e[4] = {R[0] - 1, R[1], R[2], R[3]};
    CHECK_MEM(rm1, e, sizeof e);
    CHECK(!decimal_to_limbs(rm1, 4, "52435875175126190479447740508185965837690552500527637822603658699938581184513", R));
    CHECK(!decimal_to_limbs(rm1, 4, "", R));
    CHECK(!decimal_to_limbs(rm1, 4, "-1", R));
    CHECK(!decimal_to_limbs(rm1, 4, "12a", R));
    CHECK(!decimal_to_limbs(rm1, 4, " 1", R));
    CHECK(!decimal_to_limbs(rm1, 1, "18446744073709551616", NULL)); /* 2^64 overflows one limb */
    CHECK(decimal_to_limbs(rm1, 1, "18446744073709551615", NULL));
    CHECK(rm1[0] == UINT64_MAX);
    /* truncation to cap stays NUL-terminated */
    limbs_to_decimal(buf, 5, e, 4);
    CHECK(strlen(buf) == 4);
}

#ifdef CUZK_HAVE_GMP
TEST(formats, decimal_vs_gmp) {
    mpz_t z;
    mpz_init(z);
    for (int it = 0; it < test_iters(500); it++) {
        uint64_t l[6], back[6];
        test_rand_bytes(l, sizeof l);
        int n = 1 + (int)(test_rand64() % 6);
        if (it % 7 == 0) for (int i = 1; i < n; i++) l[i] = 0; /* short numbers */
        char mine[200], *gm;
        limbs_to_decimal(mine, sizeof mine, l, n);
        mpz_import(z, (size_t)n, -1, 8, 0, 0, l);
        gm = mpz_get_str(NULL, 10, z);
        CHECK_MSG(strcmp(mine, gm) == 0, "limbs_to_decimal %s != gmp %s", mine, gm);
        CHECK(decimal_to_limbs(back, n, gm, NULL));
        CHECK_MEM(back, l, 8 * (size_t)n);
        free(gm);
    }
    mpz_clear(z);
}
#else
TEST_WITHOUT_GMP(formats, decimal_vs_gmp)
#endif

/* ---- wtns --------------------------------------------------------------------------------- */
/* wtns_convert_mem (the daemon's witness path: values straight into the caller's buffer, on all
 * threads) on both curves: n values above the one-thread threshold, random below 2^252 plus 0, 1
 * and r - 1; canonical limbs must be the file's bytes, Montgomery ones must give them back
 * through to_canon (an independent round trip); a count that is not n_out writes nothing; of two
 * values >= r in different chunks the lower index is named. */
typedef cuzk_status (*wtns_conv_fn)(const uint8_t *, size_t, const char *, uint64_t *, size_t, bool, int, uint32_t *,
                                    cuzk_error *);
typedef void (*to_canon_fn)(uint64_t r[4], const void *a);
static void bls_to_canon(uint64_t r[4], const void *a) { fr_to_canon(r, (const fr *)a); }
static void bn_to_canon(uint64_t r[4], const void *a) { bn254_fr_to_canon(r, (const bn254_fr *)a); }

static void wtns_convert_check(const uint64_t mod[4], wtns_conv_fn conv, to_canon_fn to_canon, const char *curve) {
    const uint32_t n = 50000;
    const size_t bytes = 12 + 12 + 40 + 12 + (size_t)n * 32;
    uint8_t *img = malloc(bytes);
    uint64_t *out = malloc((size_t)n * 32), *want = malloc((size_t)n * 32);
    REQUIRE(img && out && want);
    uint8_t *p = img;
    memcpy(p, "wtns", 4);
    uint32_t u32[3] = {2, 2, 1};
    memcpy(p + 4, u32, 12);
    uint64_t l40 = 40;
    memcpy(p + 16, &l40, 8);
    uint32_t n8 = 32;
    memcpy(p + 24, &n8, 4);
    memcpy(p + 28, mod, 32);
    memcpy(p + 60, &n, 4);
    uint32_t two = 2;
    memcpy(p + 64, &two, 4);
    uint64_t l2 = (uint64_t)n * 32;
    memcpy(p + 68, &l2, 8);
    uint8_t *vals = p + 76;
    test_rand_bytes(vals, (size_t)n * 32);
    for (uint32_t i = 0; i < n; i++) vals[32 * i + 31] &= 0x0f; /* < 2^252 < r on both curves */
    memset(vals, 0, 32);
    vals[0] = 1;                                  /* w[0] = 1 */
    memset(vals + 32 * 7, 0, 32);                 /* 0 */
    memcpy(vals + 32 * 9, mod, 32);
    vals[32 * 9] -= 1;                            /* r - 1 (r is odd: no borrow) */
    memcpy(want, vals, (size_t)n * 32);           /* little-endian limbs on this host */
    cuzk_error err = {0};
    uint32_t got_n = 0;
    CHECK_MSG(conv(img, bytes, "t", out, n, false, 0, &got_n, &err) == CUZK_OK, "%s canonical: %s", curve, err.msg);
    CHECK_EQ_INT(got_n, n);
    CHECK_MEM(out, want, (size_t)n * 32);
    memset(out, 0, (size_t)n * 32);
    CHECK_MSG(conv(img, bytes, "t", out, n, true, 0, NULL, &err) == CUZK_OK, "%s Montgomery: %s", curve, err.msg);
    size_t bad = 0;
    for (uint32_t i = 0; i < n; i++) {
        uint64_t c[4];
        to_canon(c, out + 4 * i);
        if (memcmp(c, want + 4 * i, 32) != 0) bad++;
    }
    CHECK_MSG(bad == 0, "%s: %zu Montgomery values do not round-trip", curve, bad);
    /* a count other than n_out: nothing written */
    memset(out, 0xab, (size_t)n * 32);
    CHECK_EQ_INT(conv(img, bytes, "t", out, n + 1, true, 0, &got_n, &err), CUZK_ERR_MISMATCH);
    CHECK_EQ_INT(got_n, n);
    CHECK(out[0] == 0xababababababababull && out[4 * (size_t)n - 1] == 0xababababababababull);
    /* two values >= r: r itself at 41000 and 2^256 - 1 at 30001; the lower is named, with both
     * output forms and on one thread */
    memcpy(vals + 32 * 41000, mod, 32);
    memset(vals + 32 * 30001, 0xff, 32);
    for (int mont = 0; mont < 2; mont++)
        for (int th = 0; th <= 1; th++) {
            memset(&err, 0, sizeof err);
            CHECK_EQ_INT(conv(img, bytes, "t", out, n, mont, th, NULL, &err), CUZK_ERR_FORMAT);
            CHECK_MSG(strstr(err.msg, "value 30001 ") != NULL, "%s: %s", curve, err.msg);
        }
    /* a truncated image is the loader's error, not a read past the end */
    CHECK_EQ_INT(conv(img, bytes - 1, "t", out, n, true, 0, NULL, &err), CUZK_ERR_FORMAT);
    free(img);
    free(out);
    free(want);
}

TEST(formats, wtns_convert_mem_both_curves) {
    static const uint64_t RB[4] = BN254_FR_MODULUS;
    wtns_convert_check(R, wtns_convert_mem, bls_to_canon, "bls12-381");
    wtns_convert_check(RB, bn254_wtns_convert_mem, bn_to_canon, "bn254");
}


TEST(formats, wtns_multiplier_vs_json) {
    wtns w;
    cuzk_error err = {0};
    REQUIRE(wtns_load(&w, test_fixture("bls12381/multiplier/witness.wtns"), &err) == CUZK_OK);
    json_t *j = load_json("bls12381/multiplier/witness.json");
    REQUIRE(j);
    CHECK_EQ_INT(w.n, json_array_size(j));
    for (uint32_t i = 0; i < w.n && i < json_array_size(j); i++) CHECK_MSG(fr_dec_eq(&w.w[i], json_array_get(j, i)), "w[%u]", i);
    CHECK(fr_is_one(&w.w[0]));
    json_decref(j);
    wtns_free(&w);
}

static bool file_bytes(const char *path, uint8_t **out, size_t *n) {
    FILE *f = fopen(path, "rb");
    if (!f) return false;
    fseek(f, 0, SEEK_END);
    long sz = ftell(f);
    fseek(f, 0, SEEK_SET);
    *out = malloc((size_t)sz + 1);
    *n = fread(*out, 1, (size_t)sz, f);
    fclose(f);
    return *n == (size_t)sz;
}

TEST(formats, wtns_write_is_byte_identical) {
    const char *names[] = {"bls12381/multiplier/witness.wtns", "bls12381/merkle_mimc5/witness.wtns"};
    for (int k = 0; k < 2; k++) {
        wtns w;
        char orig[1024], out[1024];
        snprintf(orig, sizeof orig, "%s", test_fixture(names[k]));
        snprintf(out, sizeof out, "%s/w%d.wtns", test_tmpdir(), k);
        REQUIRE(wtns_load(&w, orig, NULL) == CUZK_OK);
        REQUIRE(wtns_write(out, w.w, w.n, NULL) == CUZK_OK);
        uint8_t *a, *b;
        size_t na, nb;
        REQUIRE(file_bytes(orig, &a, &na) && file_bytes(out, &b, &nb));
        CHECK_EQ_INT(na, nb);
        if (na == nb) CHECK_MEM(a, b, na);
        free(a);
        free(b);
        wtns_free(&w);
    }
}

/* ---- r1cs --------------------------------------------------------------------------------- */

TEST(formats, r1cs_multiplier_vs_json) {
    r1cs cs;
    cuzk_error err = {0};
    REQUIRE(r1cs_load(&cs, test_fixture("bls12381/multiplier/circuit.r1cs"), &err) == CUZK_OK);
    json_t *j = load_json("bls12381/multiplier/r1cs.json");
    REQUIRE(j);
    CHECK_EQ_INT(cs.n_vars, json_integer_value(json_object_get(j, "nVars")));
    CHECK_EQ_INT(cs.n_constraints, json_integer_value(json_object_get(j, "nConstraints")));
    CHECK_EQ_INT(cs.n_public, json_integer_value(json_object_get(j, "nOutputs")) +
                                  json_integer_value(json_object_get(j, "nPubInputs")));
    json_t *cons = json_object_get(j, "constraints");
    CHECK_EQ_INT(json_array_size(cons), cs.n_constraints);
    const csr_matrix *m[3] = {&cs.a, &cs.b, &cs.c};
    for (uint32_t r = 0; r < cs.n_constraints; r++) {
        for (int k = 0; k < 3; k++) {
            json_t *lc = json_array_get(json_array_get(cons, r), (size_t)k);
            CHECK_EQ_INT(json_object_size(lc), m[k]->row_ptr[r + 1] - m[k]->row_ptr[r]);
            for (uint64_t t = m[k]->row_ptr[r]; t < m[k]->row_ptr[r + 1]; t++) {
                char key[16];
                snprintf(key, sizeof key, "%u", m[k]->col[t]);
                CHECK_MSG(fr_dec_eq(csr_val(m[k], t), json_object_get(lc, key)), "row %u matrix %d wire %s", r, k, key);
            }
        }
    }
    json_decref(j);
    r1cs_free(&cs);
}

/* Naive <M_j, w> from the CSR arrays, one row at a time. */
static void naive_row(fr *out, const csr_matrix *m, const fr *w, uint32_t j) {
    fr acc, t;
    fr_zero(&acc);
    for (uint64_t k = m->row_ptr[j]; k < m->row_ptr[j + 1]; k++) {
        fr_mul(&t, csr_val(m, k), &w[m->col[k]]);
        fr_add(&acc, &acc, &t);
    }
    *out = acc;
}

static void check_witness_fixture(const char *dir) {
    char p1[512], p2[512];
    snprintf(p1, sizeof p1, "%s/circuit.r1cs", test_fixture(dir));
    snprintf(p2, sizeof p2, "%s/witness.wtns", test_fixture(dir));
    r1cs cs;
    wtns w;
    cuzk_error err = {0};
    REQUIRE(r1cs_load(&cs, p1, &err) == CUZK_OK);
    REQUIRE(wtns_load(&w, p2, &err) == CUZK_OK);
    CHECK_EQ_INT(w.n, cs.n_vars);
    uint32_t bad = UINT32_MAX;
    CHECK_MSG(r1cs_check_witness(&cs, w.w, w.n, &bad, &err) == CUZK_OK, "%s: %s", dir, err.msg);
    /* wrong size */
    CHECK(r1cs_check_witness(&cs, w.w, w.n - 1, &bad, NULL) == CUZK_ERR_MISMATCH);
    /* change a few wires; the first failing row, found by evaluating every row naively (a row
     * that uses the wire can still hold, e.g. when its other factor is 0: seed 47684522968057) */
    for (int it = 0; it < 4; it++) {
        uint32_t wire = 1 + (uint32_t)(test_rand64() % (cs.n_vars - 1));
        fr saved = w.w[wire], one;
        fr_one(&one);
        fr_add(&w.w[wire], &w.w[wire], &one);
        uint32_t expect = UINT32_MAX;
        for (uint32_t r = 0; r < cs.n_constraints && expect == UINT32_MAX; r++) {
            fr ra, rb, rc, ab;
            naive_row(&ra, &cs.a, w.w, r);
            naive_row(&rb, &cs.b, w.w, r);
            naive_row(&rc, &cs.c, w.w, r);
            fr_mul(&ab, &ra, &rb);
            if (!fr_eq(&ab, &rc)) expect = r;
        }
        if (expect == UINT32_MAX) { w.w[wire] = saved; continue; } /* the wire is unconstrained */
        bad = UINT32_MAX;
        CHECK(r1cs_check_witness(&cs, w.w, w.n, &bad, &err) == CUZK_ERR_UNSAT);
        CHECK_MSG(bad == expect, "%s: wire %u: first bad row %u, expected %u", dir, wire, bad, expect);
        char want[64];
        snprintf(want, sizeof want, "constraint %u", expect);
        CHECK(strstr(err.msg, want) != NULL);
        w.w[wire] = saved;
    }
    /* spmv against the naive loop */
    fr *out = malloc(sizeof(fr) * (cs.n_constraints + 1));
    const csr_matrix *m[3] = {&cs.a, &cs.b, &cs.c};
    for (int k = 0; k < 3; k++) {
        csr_spmv(out, m[k], w.w, 0);
        for (uint32_t r = 0; r < cs.n_constraints; r++) {
            fr e;
            naive_row(&e, m[k], w.w, r);
            if (!fr_eq(&e, &out[r])) { CHECK_MSG(0, "%s: spmv matrix %d row %u", dir, k, r); break; }
        }
    }
    free(out);
    wtns_free(&w);
    r1cs_free(&cs);
}

TEST(formats, r1cs_check_witness_fixtures) {
    check_witness_fixture("bls12381/multiplier");
    check_witness_fixture("bls12381/merkle_mimc5");
}

TEST(formats, csr_spmv_random_vs_naive) {
    for (int it = 0; it < test_iters(6); it++) {
        uint32_t rows = it == 0 ? 0 : it == 1 ? 1 : 1 + (uint32_t)(test_rand64() % 5000);
        uint32_t cols = 1 + (uint32_t)(test_rand64() % 300);
        /* coefficients: every one distinct on even iterations, a mix of repeated and edge values
         * (0, 1, -1, 2^i) and random ones on odd iterations */
        test_csr t;
        REQUIRE(test_csr_make(&t, rows, cols, 5, it & 1 ? TEST_COEF_MIXED : TEST_COEF_DISTINCT, it & 2));
        const csr_matrix *m = &t.m;
        fr *w = malloc(sizeof(fr) * cols), *out = malloc(sizeof(fr) * (rows + 1));
        for (uint32_t i = 0; i < cols; i++) {
            uint8_t b[64];
            test_rand_bytes(b, sizeof b);
            fr_from_bytes_wide_le(&w[i], b, sizeof b);
        }
        for (int th = 1; th <= 4; th += 3) {
            csr_spmv(out, m, w, th);
            for (uint32_t r = 0; r < rows; r++) {
                /* independent: from the values that went in (not the table), in a different
                 * summation order */
                fr e, p;
                fr_zero(&e);
                for (uint64_t k = t.row_ptr[r + 1]; k-- > t.row_ptr[r];) {
                    fr_mul(&p, &w[t.col[k]], &t.val[k]);
                    fr_add(&e, &e, &p);
                }
                if (!fr_eq(&e, &out[r])) { CHECK_MSG(0, "row %u threads %d", r, th); break; }
            }
        }
        free(w); free(out);
        test_csr_free(&t);
    }
}

/* ---- zkey --------------------------------------------------------------------------------- */

TEST(formats, zkey_multiplier_vs_json) {
    zkey z;
    cuzk_error err = {0};
    REQUIRE(zkey_load(&z, test_fixture("bls12381/multiplier/circuit_final.zkey"), true, &err) == CUZK_OK);
    json_t *j = load_json("bls12381/multiplier/zkey.json");
    REQUIRE(j);
    CHECK_EQ_INT(z.n_vars, json_integer_value(json_object_get(j, "nVars")));
    CHECK_EQ_INT(z.n_public, json_integer_value(json_object_get(j, "nPublic")));
    CHECK_EQ_INT(z.domain_size, json_integer_value(json_object_get(j, "domainSize")));
    CHECK_EQ_INT(z.log_domain, json_integer_value(json_object_get(j, "power")));
    CHECK(g1_json_eq(&z.alpha1, json_object_get(j, "vk_alpha_1")));
    CHECK(g1_json_eq(&z.beta1, json_object_get(j, "vk_beta_1")));
    CHECK(g2_json_eq(&z.beta2, json_object_get(j, "vk_beta_2")));
    CHECK(g2_json_eq(&z.gamma2, json_object_get(j, "vk_gamma_2")));
    CHECK(g1_json_eq(&z.delta1, json_object_get(j, "vk_delta_1")));
    CHECK(g2_json_eq(&z.delta2, json_object_get(j, "vk_delta_2")));
    json_t *ic = json_object_get(j, "IC");
    CHECK_EQ_INT(json_array_size(ic), z.n_public + 1);
    for (uint32_t i = 0; i <= z.n_public; i++) CHECK_MSG(g1_json_eq(&z.ic[i], json_array_get(ic, i)), "IC[%u]", i);
    json_t *cc = json_object_get(j, "ccoefs");
    CHECK_EQ_INT(json_array_size(cc), z.n_coefs);
    for (uint32_t i = 0; i < z.n_coefs && i < json_array_size(cc); i++) {
        json_t *e = json_array_get(cc, i);
        CHECK_EQ_INT(z.coefs[i].matrix, json_integer_value(json_object_get(e, "matrix")));
        CHECK_EQ_INT(z.coefs[i].row, json_integer_value(json_object_get(e, "constraint")));
        CHECK_EQ_INT(z.coefs[i].wire, json_integer_value(json_object_get(e, "signal")));
        CHECK_MSG(fr_dec_eq(&z.coefs[i].value, json_object_get(e, "value")), "coef %u value", i);
    }
    json_t *A = json_object_get(j, "A"), *B1 = json_object_get(j, "B1"), *B2 = json_object_get(j, "B2"),
           *C = json_object_get(j, "C"), *H = json_object_get(j, "hExps");
    for (uint32_t i = 0; i < z.n_vars; i++) {
        CHECK_MSG(g1_json_eq(&z.a[i], json_array_get(A, i)), "A[%u]", i);
        CHECK_MSG(g1_json_eq(&z.b1[i], json_array_get(B1, i)), "B1[%u]", i);
        CHECK_MSG(g2_json_eq(&z.b2[i], json_array_get(B2, i)), "B2[%u]", i);
        if (i > z.n_public) CHECK_MSG(g1_json_eq(&z.c[i - z.n_public - 1], json_array_get(C, i)), "C[%u]", i);
    }
    CHECK_EQ_INT(json_array_size(H), z.domain_size);
    for (uint32_t i = 0; i < z.domain_size; i++) CHECK_MSG(g1_json_eq(&z.h[i], json_array_get(H, i)), "H[%u]", i);
    json_decref(j);
    zkey_free(&z);
    zkey_free(&z); /* idempotent on a zeroed struct */
}

TEST(formats, zkey_all_fixtures_consistent) {
    const char *dirs[] = {"bls12381/multiplier", "bls12381/merkle_mimc5"};
    for (int d = 0; d < 2; d++) {
        char p[512];
        zkey z;
        r1cs cs;
        wtns w;
        cuzk_error err = {0};
        snprintf(p, sizeof p, "%s/circuit_final.zkey", test_fixture(dirs[d]));
        REQUIRE(zkey_load(&z, p, d == 0, &err) == CUZK_OK);
        snprintf(p, sizeof p, "%s/circuit.r1cs", test_fixture(dirs[d]));
        REQUIRE(r1cs_load(&cs, p, &err) == CUZK_OK);
        snprintf(p, sizeof p, "%s/witness.wtns", test_fixture(dirs[d]));
        REQUIRE(wtns_load(&w, p, &err) == CUZK_OK);
        CHECK_EQ_INT(z.n_vars, cs.n_vars);
        CHECK_EQ_INT(z.n_public, cs.n_public);
        CHECK_EQ_INT(w.n, cs.n_vars);
        CHECK(z.domain_size >= cs.n_constraints + cs.n_public + 1);
        CHECK(z.domain_size / 2 < cs.n_constraints + cs.n_public + 1);
        /* section 4 = the A and B terms of the r1cs (+ nPublic + 1 public rows), same values */
        CHECK_EQ_INT(z.n_coefs, cs.a.nnz + cs.b.nnz + cs.n_public + 1);
        uint64_t ka = 0, kb = 0;
        bool ok = true;
        for (uint32_t i = 0; i < z.n_coefs && ok; i++) {
            const zkey_coef *c = &z.coefs[i];
            if (c->row >= cs.n_constraints) {
                fr one;
                fr_one(&one);
                ok = c->matrix == 0 && c->wire == c->row - cs.n_constraints && fr_eq(&c->value, &one);
                continue;
            }
            const csr_matrix *m = c->matrix == 0 ? &cs.a : &cs.b;
            uint64_t *k = c->matrix == 0 ? &ka : &kb;
            ok = *k < m->nnz && m->col[*k] == c->wire && fr_eq(csr_val(m, *k), &c->value) &&
                 *k >= m->row_ptr[c->row] && *k < m->row_ptr[c->row + 1];
            (*k)++;
        }
        CHECK_MSG(ok, "%s: zkey coefficients differ from the r1cs A/B terms", dirs[d]);
        wtns_free(&w);
        r1cs_free(&cs);
        zkey_free(&z);
    }
}

/* ---- JSON --------------------------------------------------------------------------------- */

static bool g1_same(const g1_affine *a, const g1_affine *b) { return !memcmp(a, b, sizeof *a); }
static bool g2_same(const g2_affine *a, const g2_affine *b) { return !memcmp(a, b, sizeof *a); }

TEST(formats, proof_public_vk_json_round_trip) {
    const char *dirs[] = {"bls12381/multiplier", "bls12381/merkle_mimc5"};
    for (int d = 0; d < 2; d++) {
        char p[512], q[512];
        cuzk_error err = {0};
        groth16_proof pr, pr2;
        snprintf(p, sizeof p, "%s/proof.json", test_fixture(dirs[d]));
        REQUIRE(proof_json_read(&pr, p, &err) == CUZK_OK);
        json_t *j = json_load_file(p, 0, NULL);
        CHECK(g1_json_eq(&pr.a, json_object_get(j, "pi_a")));
        CHECK(g2_json_eq(&pr.b, json_object_get(j, "pi_b")));
        CHECK(g1_json_eq(&pr.c, json_object_get(j, "pi_c")));
        json_decref(j);
        snprintf(q, sizeof q, "%s/proof%d.json", test_tmpdir(), d);
        REQUIRE(proof_json_write(q, &pr, &err) == CUZK_OK);
        REQUIRE(proof_json_read(&pr2, q, &err) == CUZK_OK);
        {
            json_t *orig = json_load_file(p, 0, NULL), *ours = json_load_file(q, 0, NULL);
            CHECK_MSG(orig && ours && json_equal(orig, ours), "%s: written proof differs from snarkjs's", dirs[d]);
            json_decref(orig);
            json_decref(ours);
        }
        CHECK(g1_same(&pr.a, &pr2.a) && g2_same(&pr.b, &pr2.b) && g1_same(&pr.c, &pr2.c));

        fr *pub, *pub2;
        size_t n, n2;
        snprintf(p, sizeof p, "%s/public.json", test_fixture(dirs[d]));
        REQUIRE(public_json_read(&pub, &n, p, &err) == CUZK_OK);
        snprintf(q, sizeof q, "%s/public%d.json", test_tmpdir(), d);
        REQUIRE(public_json_write(q, pub, n, &err) == CUZK_OK);
        REQUIRE(public_json_read(&pub2, &n2, q, &err) == CUZK_OK);
        CHECK(n == n2 && !memcmp(pub, pub2, n * sizeof(fr)));
        free(pub);
        free(pub2);

        groth16_vk vk, vk2;
        snprintf(p, sizeof p, "%s/verification_key.json", test_fixture(dirs[d]));
        REQUIRE(vk_json_read(&vk, p, &err) == CUZK_OK);
        j = json_load_file(p, 0, NULL);
        CHECK_EQ_INT(vk.n_public, json_integer_value(json_object_get(j, "nPublic")));
        CHECK(g1_json_eq(&vk.alpha1, json_object_get(j, "vk_alpha_1")));
        CHECK(g2_json_eq(&vk.delta2, json_object_get(j, "vk_delta_2")));
        for (uint32_t i = 0; i <= vk.n_public; i++) CHECK(g1_json_eq(&vk.ic[i], json_array_get(json_object_get(j, "IC"), i)));
        json_decref(j);
        snprintf(q, sizeof q, "%s/vk%d.json", test_tmpdir(), d);
        REQUIRE(vk_json_write(q, &vk, &err) == CUZK_OK);
        REQUIRE(vk_json_read(&vk2, q, &err) == CUZK_OK);
        /* e(alpha, beta) written like snarkjs, and the whole file equal to snarkjs's as JSON */
        json_t *orig = json_load_file(p, 0, NULL), *ours = json_load_file(q, 0, NULL);
        CHECK(orig && ours && json_equal(json_object_get(orig, "vk_alphabeta_12"), json_object_get(ours, "vk_alphabeta_12")));
        CHECK_MSG(json_equal(orig, ours), "%s: written verification key differs from snarkjs's", dirs[d]);
        json_decref(orig);
        json_decref(ours);
        CHECK(vk.n_public == vk2.n_public && g1_same(&vk.alpha1, &vk2.alpha1) && g2_same(&vk.beta2, &vk2.beta2) &&
              g2_same(&vk.gamma2, &vk2.gamma2) && g2_same(&vk.delta2, &vk2.delta2) &&
              !memcmp(vk.ic, vk2.ic, sizeof(g1_affine) * (vk.n_public + 1)));
        groth16_vk_free(&vk);
        groth16_vk_free(&vk2);
    }
}

TEST(formats, snarkjs_accepts_our_json) {
    const char *sj = test_snarkjs();
    if (!sj) SKIP("snarkjs not installed under tests/js");
    char out[4096];
    if (test_run(out, sizeof out, "node --version") != 0) SKIP("node not available");
    const char *dir = "bls12381/merkle_mimc5";
    char p[512], vkp[512], prp[512], pbp[512];
    groth16_proof pr;
    groth16_vk vk;
    fr *pub;
    size_t n;
    snprintf(p, sizeof p, "%s/proof_fixed.json", test_fixture(dir));
    REQUIRE(proof_json_read(&pr, p, NULL) == CUZK_OK);
    snprintf(p, sizeof p, "%s/verification_key.json", test_fixture(dir));
    REQUIRE(vk_json_read(&vk, p, NULL) == CUZK_OK);
    snprintf(p, sizeof p, "%s/public.json", test_fixture(dir));
    REQUIRE(public_json_read(&pub, &n, p, NULL) == CUZK_OK);
    snprintf(vkp, sizeof vkp, "%s/sj_vk.json", test_tmpdir());
    snprintf(prp, sizeof prp, "%s/sj_proof.json", test_tmpdir());
    snprintf(pbp, sizeof pbp, "%s/sj_public.json", test_tmpdir());
    REQUIRE(vk_json_write(vkp, &vk, NULL) == CUZK_OK);
    REQUIRE(proof_json_write(prp, &pr, NULL) == CUZK_OK);
    REQUIRE(public_json_write(pbp, pub, n, NULL) == CUZK_OK);
    int rc = test_run(out, sizeof out, "node %s groth16 verify %s %s %s", sj, vkp, pbp, prp);
    CHECK_MSG(rc == 0 && strstr(out, "OK") != NULL, "snarkjs verify rc %d: %s", rc, out);
    /* and a tampered public input must fail */
    fr one;
    fr_one(&one);
    fr_add(&pub[0], &pub[0], &one);
    REQUIRE(public_json_write(pbp, pub, n, NULL) == CUZK_OK);
    rc = test_run(out, sizeof out, "node %s groth16 verify %s %s %s", sj, vkp, pbp, prp);
    CHECK_MSG(rc != 0, "snarkjs accepted a wrong public input: %s", out);
    free(pub);
    groth16_vk_free(&vk);
}

/* ---- bellperson --------------------------------------------------------------------------- */


static void rand_vk(groth16_vk *vk, uint32_t n_public) {
    memset(vk, 0, sizeof *vk);
    test_rand_g1(&vk->alpha1); test_rand_g1(&vk->beta1); test_rand_g2(&vk->beta2);
    test_rand_g2(&vk->gamma2); test_rand_g1(&vk->delta1); test_rand_g2(&vk->delta2);
    vk->n_public = n_public;
    vk->ic = malloc(sizeof(g1_affine) * (n_public + 1));
    for (uint32_t i = 0; i <= n_public; i++) test_rand_g1(&vk->ic[i]);
}

static bool vk_same(const groth16_vk *a, const groth16_vk *b) {
    return a->n_public == b->n_public && g1_same(&a->alpha1, &b->alpha1) && g1_same(&a->beta1, &b->beta1) &&
           g2_same(&a->beta2, &b->beta2) && g2_same(&a->gamma2, &b->gamma2) && g1_same(&a->delta1, &b->delta1) &&
           g2_same(&a->delta2, &b->delta2) && !memcmp(a->ic, b->ic, sizeof(g1_affine) * (a->n_public + 1));
}

/* Makes small random params; shared with the bad_input suite through a file. */
static void rand_params(bellperson_params *p) {
    memset(p, 0, sizeof *p);
    rand_vk(&p->vk, 2);
    p->n_h = 7; p->n_l = 5; p->n_a = 4; p->n_b_g1 = 3; p->n_b_g2 = 3;
    p->h = malloc(sizeof(g1_affine) * p->n_h);
    p->l = malloc(sizeof(g1_affine) * p->n_l);
    p->a = malloc(sizeof(g1_affine) * p->n_a);
    p->b_g1 = malloc(sizeof(g1_affine) * p->n_b_g1);
    p->b_g2 = malloc(sizeof(g2_affine) * p->n_b_g2);
    for (uint32_t i = 0; i < p->n_h; i++) test_rand_g1(&p->h[i]);
    for (uint32_t i = 0; i < p->n_l; i++) test_rand_g1(&p->l[i]);
    for (uint32_t i = 0; i < p->n_a; i++) test_rand_g1(&p->a[i]);
    for (uint32_t i = 0; i < p->n_b_g1; i++) test_rand_g1(&p->b_g1[i]);
    for (uint32_t i = 0; i < p->n_b_g2; i++) test_rand_g2(&p->b_g2[i]);
}

TEST(formats, bellperson_params_vk_round_trip) {
    bellperson_params p, p2;
    cuzk_error err = {0};
    char path[512], vkpath[512];
    rand_params(&p);
    snprintf(path, sizeof path, "%s/rt.params", test_tmpdir());
    snprintf(vkpath, sizeof vkpath, "%s/rt.vk", test_tmpdir());
    REQUIRE(bellperson_params_write(path, &p, &err) == CUZK_OK);
    REQUIRE(bellperson_params_load(&p2, path, true, &err) == CUZK_OK);
    CHECK(vk_same(&p.vk, &p2.vk));
    CHECK(p2.n_h == p.n_h && p2.n_l == p.n_l && p2.n_a == p.n_a && p2.n_b_g1 == p.n_b_g1 && p2.n_b_g2 == p.n_b_g2);
    CHECK(!memcmp(p.h, p2.h, sizeof(g1_affine) * p.n_h) && !memcmp(p.l, p2.l, sizeof(g1_affine) * p.n_l) &&
          !memcmp(p.a, p2.a, sizeof(g1_affine) * p.n_a) && !memcmp(p.b_g1, p2.b_g1, sizeof(g1_affine) * p.n_b_g1) &&
          !memcmp(p.b_g2, p2.b_g2, sizeof(g2_affine) * p.n_b_g2));
    /* expected size: 3*96 + 3*192 + 6 counts + points */
    uint8_t *bytes;
    size_t nb;
    REQUIRE(file_bytes(path, &bytes, &nb));
    CHECK_EQ_INT(nb, 864 + 6 * 4 + 96 * (3 + 7 + 5 + 4 + 3) + 192 * 3);
    free(bytes);
    REQUIRE(bellperson_vk_write(vkpath, &p.vk, &err) == CUZK_OK);
    groth16_vk vk;
    REQUIRE(bellperson_vk_load(&vk, vkpath, &err) == CUZK_OK);
    CHECK(vk_same(&vk, &p.vk));
    /* the .vk is a byte prefix of the .params */
    uint8_t *pb, *vb;
    size_t npb, nvb;
    REQUIRE(file_bytes(path, &pb, &npb) && file_bytes(vkpath, &vb, &nvb));
    CHECK(nvb < npb && !memcmp(pb, vb, nvb));
    free(pb);
    free(vb);
    groth16_vk_free(&vk);
    bellperson_params_free(&p2);
    bellperson_params_free(&p);
}

TEST(formats, bellperson_proof_round_trip) {
    for (int it = 0; it < test_iters(8); it++) {
        groth16_proof p, q;
        test_rand_g1(&p.a);
        test_rand_g2(&p.b);
        test_rand_g1(&p.c);
        uint8_t enc[BELLPERSON_PROOF_BYTES], enc2[BELLPERSON_PROOF_BYTES];
        bellperson_proof_encode(enc, &p);
        CHECK(enc[0] & 0x80);
        CHECK(enc[48] & 0x80);
        CHECK(enc[144] & 0x80);
        cuzk_error err = {0};
        REQUIRE(bellperson_proof_decode(&q, enc, &err) == CUZK_OK);
        CHECK(g1_same(&p.a, &q.a) && g2_same(&p.b, &q.b) && g1_same(&p.c, &q.c));
        bellperson_proof_encode(enc2, &q);
        CHECK_MEM(enc, enc2, sizeof enc);
    }
}

/* ---- describe ----------------------------------------------------------------------------- */

TEST(formats, file_describe_kinds) {
    struct { const char *rel; const char *want[3]; } cases[] = {
        {"bls12381/multiplier/circuit_final.zkey", {"zkey", "bls12381", "domain: 4"}},
        {"bls12381/merkle_mimc5/circuit.r1cs", {"r1cs", "constraints: 1568", "wires: 1578"}},
        {"bls12381/multiplier/witness.wtns", {"wtns", "values: 4", "bls12381"}},
        {"bn128/multiplier/circuit_final.zkey", {"zkey", "bn128", "vars: 4"}},
        {"bls12381/multiplier/proof.json", {"proof", "bls12381", NULL}},
        {"bls12381/multiplier/verification_key.json", {"verification key", "IC points 2", NULL}},
        {"bls12381/multiplier/public.json", {"array of 1", NULL, NULL}},
    };
    char buf[2048];
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        cuzk_error err = {0};
        CHECK_MSG(file_describe(buf, sizeof buf, test_fixture(cases[i].rel), &err) == CUZK_OK, "%s: %s", cases[i].rel, err.msg);
        for (int k = 0; k < 3; k++)
            if (cases[i].want[k]) CHECK_MSG(strstr(buf, cases[i].want[k]) != NULL, "%s: no '%s' in:\n%s", cases[i].rel, cases[i].want[k], buf);
    }
    /* bellperson params and vk */
    bellperson_params p;
    rand_params(&p);
    char path[512];
    snprintf(path, sizeof path, "%s/d.params", test_tmpdir());
    REQUIRE(bellperson_params_write(path, &p, NULL) == CUZK_OK);
    REQUIRE(file_describe(buf, sizeof buf, path, NULL) == CUZK_OK);
    CHECK_MSG(strstr(buf, "bellperson parameters") && strstr(buf, "h 7"), "%s", buf);
    snprintf(path, sizeof path, "%s/d.vk", test_tmpdir());
    REQUIRE(bellperson_vk_write(path, &p.vk, NULL) == CUZK_OK);
    REQUIRE(file_describe(buf, sizeof buf, path, NULL) == CUZK_OK);
    CHECK_MSG(strstr(buf, "verifying key") && strstr(buf, "ic: 3"), "%s", buf);
    /* tiny buffer: truncated, terminated */
    REQUIRE(file_describe(buf, 8, path, NULL) == CUZK_OK);
    CHECK(strlen(buf) == 7);
    bellperson_params_free(&p);
}

/* Shapes from headers (cuzk_file_shape_read, cuzk_file_shape_check; include/cuzk/groth16.h): a
 * zkey, its r1cs and its bellman MPC export agree on the circuit; other kinds of file, truncated
 * files and files of another circuit are refused naming the file; the PoRep circuits' shapes. */
TEST(formats, file_shape) {
    static const char *const dirs[] = {"multiplier", "bellman_chain"};
    for (int d = 0; d < 2; d++) {
        char rel[128];
        cuzk_file_shape z, r, p;
        cuzk_error e = {0};
        snprintf(rel, sizeof rel, "bls12381/%s/circuit_final.zkey", dirs[d]);
        REQUIRE_MSG(cuzk_file_shape_read(&z, test_fixture(rel), &e) == CUZK_OK, "%s", e.msg);
        snprintf(rel, sizeof rel, "bls12381/%s/circuit.r1cs", dirs[d]);
        REQUIRE_MSG(cuzk_file_shape_read(&r, test_fixture(rel), &e) == CUZK_OK, "%s", e.msg);
        snprintf(rel, sizeof rel, "bls12381/%s/bellman_mpc.params", dirs[d]);
        REQUIRE_MSG(cuzk_file_shape_read(&p, test_fixture(rel), &e) == CUZK_OK, "%s", e.msg);
        CHECK(!strcmp(z.kind, "zkey") && !strcmp(r.kind, "r1cs") && !strcmp(p.kind, "phase-2 MPC params"));
        CHECK(z.curve == CUZK_CURVE_BLS12_381 && r.curve == z.curve && p.curve == z.curve);
        CHECK(z.n_public == r.n_public && p.n_public == r.n_public && z.n_aux == r.n_aux && p.n_aux == r.n_aux);
        CHECK(r.n_constraints > 0 && z.n_constraints == 0 && r.domain == p.domain && z.domain >= r.n_public + 1);
        CHECK(r.file_bytes > 0 && z.file_bytes > r.file_bytes / 100);
        /* the r1cs and the MPC file are of the zkey's circuit */
        snprintf(rel, sizeof rel, "bls12381/%s/circuit.r1cs", dirs[d]);
        CHECK_EQ_INT(cuzk_file_shape_check(test_fixture(rel), &z, "the zkey", &e), CUZK_OK);
        snprintf(rel, sizeof rel, "bls12381/%s/bellman_mpc.params", dirs[d]);
        CHECK_EQ_INT(cuzk_file_shape_check(test_fixture(rel), &r, "the r1cs", &e), CUZK_OK);
    }
    cuzk_file_shape s, want;
    cuzk_error e = {0};
    /* another circuit: MISMATCH naming the file and both shapes */
    REQUIRE(cuzk_file_shape_read(&want, test_fixture("bls12381/bellman_chain/circuit.r1cs"), &e) == CUZK_OK);
    const char *mul = test_fixture("bls12381/multiplier/circuit.r1cs");
    CHECK_EQ_INT(cuzk_file_shape_check(mul, &want, "circuit x", &e), CUZK_ERR_MISMATCH);
    CHECK_MSG(strstr(e.msg, mul) && strstr(e.msg, "circuit x needs") && strstr(e.msg, "made for another circuit"), "%s", e.msg);
    /* another curve */
    CHECK_EQ_INT(cuzk_file_shape_check(test_fixture("bn128/multiplier/circuit.r1cs"), &want, "circuit x", &e), CUZK_ERR_CURVE);
    /* not a key or circuit; missing; truncated */
    CHECK_EQ_INT(cuzk_file_shape_read(&s, test_fixture("bls12381/multiplier/witness.wtns"), &e), CUZK_ERR_FORMAT);
    CHECK(s.kind == NULL && strstr(e.msg, "witness.wtns"));
    CHECK_EQ_INT(cuzk_file_shape_read(&s, "/no/such/file.params", &e), CUZK_ERR_IO);
    char path[1024];
    snprintf(path, sizeof path, "%s/trunc_shape.zkey", test_tmpdir());
    size_t n = 0;
    uint8_t *zk = test_slurp(test_fixture("bls12381/multiplier/circuit_final.zkey"), &n);
    REQUIRE(zk && n > 100);
    FILE *f = fopen(path, "wb");
    REQUIRE(f);
    fwrite(zk, 1, n - 1, f);
    fclose(f);
    free(zk);
    CHECK_EQ_INT(cuzk_file_shape_read(&s, path, &e), CUZK_ERR_FORMAT);
    CHECK_MSG(strstr(e.msg, path), "%s", e.msg);
    remove(path);
    /* the PoRep circuits by name (CIRCUITS.md section 5: 32 GiB 130,278,541 constraints, 328 inputs) */
    REQUIRE(cuzk_porep_circuit_shape(&s, "porep-32g", &e) == CUZK_OK);
    CHECK(s.n_public == 327 && s.n_constraints == 130278541 && s.n_aux == 130169893 && s.domain == (1ull << 27));
    REQUIRE(cuzk_porep_circuit_shape(&s, "porep-2k", &e) == CUZK_OK);
    CHECK(s.n_public == 39 && s.n_constraints == 2687921 && s.domain == (1ull << 22));
    CHECK_EQ_INT(cuzk_porep_circuit_shape(&s, "porep-1t", &e), CUZK_ERR_ARG);
    /* the SnapDeals circuits by name (issue 24: 32 GiB 81,049,499 constraints a partition, 5 inputs) */
    REQUIRE(cuzk_snap_circuit_shape(&s, "snap-32g", &e) == CUZK_OK);
    CHECK(s.n_public == 4 && s.n_constraints == 81049499 && s.domain == (1ull << 27));
    REQUIRE(cuzk_snap_circuit_shape(&s, "snap-2k", &e) == CUZK_OK);
    CHECK(s.n_public == 4 && s.n_constraints == 1705039 && s.n_aux == 1703569 && s.domain == (1ull << 21));
    CHECK_EQ_INT(cuzk_snap_circuit_shape(&s, "snap-1t", &e), CUZK_ERR_ARG);
    CHECK_EQ_INT(cuzk_snap_circuit_shape(&s, "porep-2k", &e), CUZK_ERR_ARG);
    const char *c = "x";
    CHECK_EQ_INT(cuzk_porep_circuit_of_file(mul, &c, &e), CUZK_ERR_MISMATCH);
    CHECK_MSG(c == NULL && strstr(e.msg, "not made for any PoRep circuit"), "%s", e.msg);
}
