/* r1cs suite: the dictionary-coded CSR matrices (src/r1cs/r1cs.h). csr_builder must give back
 * every value it was given (via csr_val), with a table that holds each distinct value exactly
 * once, whatever the mix (0, 1, -1, powers of two, repeated and distinct random values) and
 * whether its arrays were sized up front or grew; csr_spmv must equal a naive evaluation from the
 * original values. */
#include "test.h"

#include <stdlib.h>

#include "formats/snarkjs.h"
#include "r1cs/r1cs.h"
#include "test_csr.h"

static int fr_cmp_bytes(const void *a, const void *b) { return memcmp(a, b, sizeof(fr)); }

/* Distinct values among v[0..n-1] (sorts a copy). */
static size_t count_distinct(const fr *v, size_t n) {
    if (n == 0) return 0;
    fr *s = malloc(n * sizeof *s);
    if (!s) return 0;
    memcpy(s, v, n * sizeof *s);
    qsort(s, n, sizeof *s, fr_cmp_bytes);
    size_t d = 1;
    for (size_t i = 1; i < n; i++) d += memcmp(&s[i - 1], &s[i], sizeof *s) != 0;
    free(s);
    return d;
}

/* The matrix's own invariants: ids in range, every table value used, the table deduplicated. */
static void check_table(const csr_matrix *m, const char *what) {
    bool ids_ok = true;
    uint8_t *used = calloc(m->n_coef ? m->n_coef : 1, 1);
    REQUIRE(used);
    for (uint64_t k = 0; k < m->nnz && ids_ok; k++) {
        ids_ok = m->coef_id[k] < m->n_coef;
        if (ids_ok) used[m->coef_id[k]] = 1;
    }
    CHECK_MSG(ids_ok, "%s: a coefficient id is outside the table", what);
    size_t n_used = 0;
    for (uint32_t i = 0; i < m->n_coef; i++) n_used += used[i];
    free(used);
    CHECK_MSG(n_used == m->n_coef, "%s: %zu of %u table values used", what, n_used, m->n_coef);
    CHECK_MSG(count_distinct(m->coef, m->n_coef) == m->n_coef, "%s: the table holds a value twice", what);
    CHECK_MSG((m->n_coef == 0) == (m->coef == NULL), "%s: table pointer vs n_coef %u", what, m->n_coef);
    CHECK_MSG(m->col && m->coef_id && m->row_ptr, "%s: arrays not allocated", what);
}

TEST(r1cs, builder_round_trip) {
    static const char *const kind_name[3] = {"mixed", "distinct", "small"};
    for (int it = 0; it < test_iters(4); it++) {
        for (int kind = 0; kind < 3; kind++) {
            for (int exact = 0; exact < 2; exact++) {
                uint32_t rows = it == 0 ? (uint32_t)exact : 1 + (uint32_t)(test_rand64() % 4000);
                test_csr t;
                REQUIRE(test_csr_make(&t, rows, 1 + (uint32_t)(test_rand64() % 1000), 7, kind, exact));
                char what[64];
                snprintf(what, sizeof what, "%s rows %u exact %d", kind_name[kind], rows, exact);
                const csr_matrix *m = &t.m;
                CHECK_EQ_INT(m->n_rows, rows);
                CHECK_EQ_INT(m->nnz, t.nnz);
                CHECK_MSG(!memcmp(m->row_ptr, t.row_ptr, ((size_t)rows + 1) * sizeof *m->row_ptr), "%s: row_ptr", what);
                CHECK_MSG(t.nnz == 0 || !memcmp(m->col, t.col, t.nnz * sizeof *m->col), "%s: col", what);
                uint64_t bad = UINT64_MAX;
                for (uint64_t k = 0; k < t.nnz && bad == UINT64_MAX; k++)
                    if (!fr_eq(csr_val(m, k), &t.val[k])) bad = k;
                CHECK_MSG(bad == UINT64_MAX, "%s: value of nonzero %llu differs", what, (unsigned long long)bad);
                CHECK_MSG(m->n_coef == count_distinct(t.val, t.nnz), "%s: %u table values, %zu distinct", what,
                          m->n_coef, count_distinct(t.val, t.nnz));
                if (kind == TEST_COEF_DISTINCT) CHECK(m->n_coef == t.nnz);
                if (kind == TEST_COEF_SMALL) CHECK(m->n_coef <= 3);
                check_table(m, what);
                /* csr_coef_find: the id of 1 and of -1, or none */
                fr one, minus_one;
                fr_one(&one);
                fr_neg(&minus_one, &one);
                const fr *probe[2] = {&one, &minus_one};
                for (int q = 0; q < 2; q++) {
                    bool present = false;
                    for (uint64_t k = 0; k < t.nnz && !present; k++) present = fr_eq(&t.val[k], probe[q]);
                    uint32_t id = csr_coef_find(m, probe[q]);
                    if (present) CHECK_MSG(id < m->n_coef && fr_eq(&m->coef[id], probe[q]), "%s: find %d", what, q);
                    else CHECK_MSG(id == CSR_NO_COEF, "%s: find %d of an absent value", what, q);
                }
                test_csr_free(&t);
            }
        }
    }
}

/* Edge values one by one: 0, 1, r - 1, 2^i for every i < 256, then each again: a table of
 * 259 values (2^0 = 1), and ids that repeat exactly. */
TEST(r1cs, builder_edge_values) {
    csr_builder b;
    REQUIRE(csr_builder_init(&b, 1, 1) == CUZK_OK);
    fr v[259];
    fr_zero(&v[0]);
    fr_one(&v[1]);
    fr_neg(&v[2], &v[1]);
    {
        /* r - 1 from its canonical bytes, independently of fr_neg */
        static const uint64_t r_minus_1[4] = {0xffffffff00000000ull, 0x53bda402fffe5bfeull, 0x3339d80809a1d805ull,
                                              0x73eda753299d7d48ull};
        fr t;
        fr_from_canon(&t, r_minus_1);
        CHECK(fr_eq(&t, &v[2]));
    }
    fr p = v[1];
    for (int i = 1; i < 256; i++) {
        fr_add(&p, &p, &p);
        v[2 + i] = p;
    }
    size_t n = 2 + 256;
    uint32_t id1[259], id2[259];
    for (size_t i = 0; i < n; i++) REQUIRE(csr_builder_coef(&b, &id1[i], &v[i]) == CUZK_OK);
    for (size_t i = n; i-- > 0;) REQUIRE(csr_builder_coef(&b, &id2[i], &v[i]) == CUZK_OK);
    CHECK_EQ_INT(b.m.n_coef, count_distinct(v, n));
    for (size_t i = 0; i < n; i++) {
        CHECK_MSG(id1[i] == id2[i], "value %zu: ids %u then %u", i, id1[i], id2[i]);
        CHECK(fr_eq(&b.m.coef[id1[i]], &v[i]));
    }
    CHECK(id1[0] == 0 && id1[1] == 1 && id1[2] == 2); /* order of first appearance */
    for (size_t i = 0; i < n; i++) REQUIRE(csr_builder_push_id(&b, (uint32_t)i, id1[i]) == CUZK_OK);
    REQUIRE(csr_builder_end_row(&b) == CUZK_OK);
    /* misuse: an id outside the table */
    CHECK(csr_builder_push_id(&b, 0, b.m.n_coef) == CUZK_ERR_ARG);
    CHECK(csr_builder_push_id(&b, 0, CSR_NO_COEF) == CUZK_ERR_ARG);
    /* an unclosed row is dropped by finish */
    REQUIRE(csr_builder_push(&b, 5, &v[7]) == CUZK_OK);
    csr_matrix m;
    csr_builder_finish(&b, &m);
    CHECK_EQ_INT(m.n_rows, 1);
    CHECK_EQ_INT(m.nnz, n);
    for (size_t i = 0; i < n; i++) CHECK(m.col[i] == i && fr_eq(csr_val(&m, i), &v[i]));
    check_table(&m, "edge values");
    r1cs cs = {0};
    cs.a = m;
    r1cs_free(&cs);
    /* an empty matrix: no rows, and rows without nonzeros */
    for (uint32_t rows = 0; rows < 3; rows++) {
        REQUIRE(csr_builder_init(&b, 0, 0) == CUZK_OK);
        for (uint32_t r = 0; r < rows; r++) REQUIRE(csr_builder_end_row(&b) == CUZK_OK);
        csr_builder_finish(&b, &m);
        CHECK(m.n_rows == rows && m.nnz == 0 && m.n_coef == 0 && m.coef == NULL);
        for (uint32_t r = 0; r <= rows; r++) CHECK(m.row_ptr[r] == 0);
        check_table(&m, "empty");
        fr out[3], w;
        fr_one(&w);
        csr_spmv(out, &m, &w, 0);
        for (uint32_t r = 0; r < rows; r++) CHECK(fr_is_zero(&out[r]));
        cs.a = m;
        r1cs_free(&cs);
    }
    csr_builder_free(&b); /* of an empty builder: a no-op */
}

TEST(r1cs, spmv_vs_naive_from_values) {
    for (int it = 0; it < test_iters(3); it++) {
        for (int kind = 0; kind < 3; kind++) {
            uint32_t rows = 1 + (uint32_t)(test_rand64() % 6000), cols = 1 + (uint32_t)(test_rand64() % 500);
            test_csr t;
            REQUIRE(test_csr_make(&t, rows, cols, 6, kind, it & 1));
            fr *w = malloc(cols * sizeof *w), *out = malloc(rows * sizeof *out);
            REQUIRE(w && out);
            for (uint32_t i = 0; i < cols; i++) test_rand_fr(&w[i]);
            for (int th = 1; th <= 4; th += 3) {
                csr_spmv(out, &t.m, w, th);
                uint32_t bad = UINT32_MAX;
                for (uint32_t r = 0; r < rows && bad == UINT32_MAX; r++) {
                    fr e, p;
                    fr_zero(&e);
                    for (uint64_t k = t.row_ptr[r]; k < t.row_ptr[r + 1]; k++) {
                        fr_mul(&p, &t.val[k], &w[t.col[k]]);
                        fr_add(&e, &e, &p);
                    }
                    if (!fr_eq(&e, &out[r])) bad = r;
                }
                CHECK_MSG(bad == UINT32_MAX, "kind %d rows %u threads %d: row %u", kind, rows, th, bad);
            }
            free(w);
            free(out);
            test_csr_free(&t);
        }
    }
}

/* The loader deduplicates: the fixtures' tables hold each value once, every value used. */
TEST(r1cs, loaded_tables_deduplicated) {
    const char *fx[] = {"bls12381/multiplier/circuit.r1cs", "bls12381/merkle_mimc5/circuit.r1cs"};
    for (int i = 0; i < 2; i++) {
        r1cs cs;
        cuzk_error e = {0};
        REQUIRE(r1cs_load(&cs, test_fixture(fx[i]), &e) == CUZK_OK);
        const csr_matrix *m[3] = {&cs.a, &cs.b, &cs.c};
        for (int k = 0; k < 3; k++) {
            char what[128];
            snprintf(what, sizeof what, "%s matrix %d", fx[i], k);
            check_table(m[k], what);
            CHECK(m[k]->n_coef <= m[k]->nnz);
            printf("  %s: %llu nonzeros, %u distinct coefficients\n", what, (unsigned long long)m[k]->nnz,
                   m[k]->n_coef);
        }
        r1cs_free(&cs);
    }
}

/* The synthetic system's tables: A holds powers of two (1, 2, 2^i), B only 1, C 1 and -1; each
 * value once. */
#include "r1cs/synthetic.h"
TEST(r1cs, synthetic_tables) {
    synthetic_params sp;
    synthetic_params_default(&sp, 5000);
    sp.frac01 = 0.99; /* PACK rows with many bit terms: 2^i up to i = 63 */
    sp.seed = test_rand64();
    r1cs cs;
    REQUIRE(synthetic_r1cs(&cs, &sp, NULL) == CUZK_OK);
    fr one, minus_one, p;
    fr_one(&one);
    fr_neg(&minus_one, &one);
    check_table(&cs.a, "A");
    check_table(&cs.b, "B");
    check_table(&cs.c, "C");
    CHECK(cs.a.n_coef <= 64);
    for (uint32_t i = 0; i < cs.a.n_coef; i++) {
        bool pow2 = false;
        p = one;
        for (int e = 0; e < 64 && !pow2; e++, fr_add(&p, &p, &p)) pow2 = fr_eq(&cs.a.coef[i], &p);
        CHECK_MSG(pow2, "A table value %u is not a power of two below 2^64", i);
    }
    CHECK(cs.b.n_coef == 1 && fr_eq(&cs.b.coef[0], &one));
    CHECK(cs.c.n_coef == 2 && csr_coef_find(&cs.c, &one) != CSR_NO_COEF &&
          csr_coef_find(&cs.c, &minus_one) != CSR_NO_COEF);
    r1cs_free(&cs);
}

/* Density bitmaps against a naive byte map from the values that went in: a column counts only
 * with a nonzero coefficient (MIXED draws zeros), any n_vars (not a multiple of 64), 1..7
 * threads; a column beyond n_vars is refused. */
TEST(r1cs, density_bitmap_vs_naive) {
    for (int it = 0; it < test_iters(4); it++) {
        for (int kind = 0; kind < 3; kind++) {
            uint32_t rows = 1 + (uint32_t)(test_rand64() % 3000), cols = 1 + (uint32_t)(test_rand64() % 700);
            test_csr t;
            REQUIRE(test_csr_make(&t, rows, cols, 3, kind, true));
            uint8_t *naive = calloc(cols, 1);
            REQUIRE(naive);
            size_t want = 0;
            for (uint64_t k = 0; k < t.nnz; k++)
                if (!fr_is_zero(&t.val[k]) && !naive[t.col[k]]) { naive[t.col[k]] = 1; want++; }
            for (int th = 1; th <= 7; th += 3) {
                r1cs_density d;
                REQUIRE(r1cs_density_of(&d, &t.m, cols, th, NULL) == CUZK_OK);
                CHECK_EQ_INT(d.n_vars, cols);
                CHECK_MSG(d.count == want, "kind %d threads %d: count %zu, naive %zu", kind, th, d.count, want);
                size_t bad = SIZE_MAX;
                for (size_t i = 0; i < cols && bad == SIZE_MAX; i++)
                    if (r1cs_density_test(&d, i) != naive[i]) bad = i;
                CHECK_MSG(bad == SIZE_MAX, "kind %d threads %d: column %zu", kind, th, bad);
                /* the bits past n_vars in the last word stay clear */
                if (cols % 64) CHECK((d.words[cols / 64] >> (cols % 64)) == 0);
                r1cs_density_free(&d);
                CHECK(d.words == NULL);
            }
            /* a matrix with columns beyond n_vars */
            if (t.nnz) {
                uint32_t maxc = 0;
                for (uint64_t k = 0; k < t.nnz; k++) if (t.col[k] > maxc) maxc = t.col[k];
                r1cs_density d;
                cuzk_error e = {0};
                bool any_nonzero_at_max = false;
                for (uint64_t k = 0; k < t.nnz; k++)
                    if (t.col[k] == maxc && !fr_is_zero(&t.val[k])) any_nonzero_at_max = true;
                if (any_nonzero_at_max) {
                    CHECK_EQ_INT(r1cs_density_of(&d, &t.m, maxc, 2, &e), CUZK_ERR_ARG);
                    CHECK(d.words == NULL && d.count == 0);
                }
            }
            free(naive);
            test_csr_free(&t);
        }
    }
    CHECK_EQ_INT(r1cs_density_of(NULL, NULL, 1, 1, NULL), CUZK_ERR_ARG);
}
