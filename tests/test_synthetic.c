/* synthetic suite: the PoRep-shaped synthetic circuit (src/r1cs/synthetic.h). */
#include "test.h"

#include <stdlib.h>

#include "r1cs/synthetic.h"
#include "util/timer.h"

static int near(double got, double want, double rel) { return got >= want * (1 - rel) && got <= want * (1 + rel); }

TEST(synthetic, witness_satisfies_and_shape) {
    const uint32_t sizes[] = {1u << 10, 3000, 1u << 12};
    for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++) {
        synthetic_params p;
        synthetic_params_default(&p, sizes[si]);
        p.n_public = 16;
        p.seed = test_rand64();
        r1cs cs;
        cuzk_error e = {0};
        REQUIRE(synthetic_r1cs(&cs, &p, &e) == CUZK_OK);
        CHECK_EQ_INT(cs.n_vars, 1 + 16 + sizes[si]);
        fr *w = malloc(cs.n_vars * sizeof *w);
        REQUIRE(w);
        for (int ws = 0; ws < 2; ws++) {
            REQUIRE(synthetic_witness(w, cs.n_vars, &cs, &p, test_rand64(), &e) == CUZK_OK);
            uint32_t bad = 0;
            CHECK_MSG(r1cs_check_witness(&cs, w, cs.n_vars, &bad, &e) == CUZK_OK, "n=%u: %s", sizes[si], e.msg);
            synthetic_stats st;
            REQUIRE(synthetic_stats_compute(&st, &cs, w, &e) == CUZK_OK);
            CHECK_MSG(near(st.a_per_row, 2.4, 0.10), "A/row %.3f", st.a_per_row);
            CHECK_MSG(near(st.b_per_row, 1.0, 0.10), "B/row %.3f", st.b_per_row);
            CHECK_MSG(near(st.c_per_row, 2.2, 0.10), "C/row %.3f", st.c_per_row);
            CHECK_MSG(st.aux_in_a > 0.985 && st.aux_in_a < 1.0, "aux in A %.4f", st.aux_in_a);
            CHECK_MSG(near(st.aux_in_b, 0.254, 0.15), "aux in B %.4f", st.aux_in_b);
            CHECK_MSG(near(st.aux_01, 0.95, 0.03), "aux 0/1 %.4f", st.aux_01);
            CHECK_MSG(st.aux_1 > 0.1 && st.aux_1 < 0.7, "aux ones %.4f", st.aux_1);
        }
        /* a corrupted value is caught: +2, since +1 can turn a 0 bit into a valid 1 bit */
        fr two;
        fr_from_u64(&two, 2);
        fr_add(&w[cs.n_vars - 1], &w[cs.n_vars - 1], &two);
        uint32_t bad = 0;
        CHECK(r1cs_check_witness(&cs, w, cs.n_vars, &bad, NULL) == CUZK_ERR_UNSAT);
        CHECK_EQ_INT(bad, sizes[si] - 1);
        free(w);
        r1cs_free(&cs);
    }
}

TEST(synthetic, deterministic_and_seeded) {
    synthetic_params p;
    synthetic_params_default(&p, 2048);
    p.n_public = 4;
    r1cs a, b, c;
    REQUIRE(synthetic_r1cs(&a, &p, NULL) == CUZK_OK);
    REQUIRE(synthetic_r1cs(&b, &p, NULL) == CUZK_OK);
    p.seed++;
    REQUIRE(synthetic_r1cs(&c, &p, NULL) == CUZK_OK);
    CHECK(a.a.nnz == b.a.nnz && a.c.nnz == b.c.nnz);
    CHECK_MEM(a.a.col, b.a.col, a.a.nnz * sizeof *a.a.col);
    CHECK_MEM(a.c.coef_id, b.c.coef_id, a.c.nnz * sizeof *a.c.coef_id);
    CHECK(a.c.n_coef == b.c.n_coef);
    CHECK_MEM(a.c.coef, b.c.coef, a.c.n_coef * sizeof *a.c.coef);
    CHECK(a.a.nnz != c.a.nnz || memcmp(a.a.col, c.a.col, a.a.nnz * sizeof *a.a.col) != 0);
    p.seed--;
    fr *w1 = malloc(a.n_vars * sizeof *w1), *w2 = malloc(a.n_vars * sizeof *w2);
    REQUIRE(w1 && w2);
    REQUIRE(synthetic_witness(w1, a.n_vars, &a, &p, 7, NULL) == CUZK_OK);
    REQUIRE(synthetic_witness(w2, a.n_vars, &a, &p, 7, NULL) == CUZK_OK);
    CHECK_MEM(w1, w2, a.n_vars * sizeof *w1);
    REQUIRE(synthetic_witness(w2, a.n_vars, &a, &p, 8, NULL) == CUZK_OK);
    CHECK(memcmp(w1, w2, a.n_vars * sizeof *w1) != 0);
    /* a witness for another shape is refused */
    CHECK_EQ_INT(synthetic_witness(w1, a.n_vars, &c, &p, 7, NULL), CUZK_ERR_ARG);
    free(w1); free(w2);
    r1cs_free(&a); r1cs_free(&b); r1cs_free(&c);
}

TEST(synthetic, frac01_and_edges) {
    synthetic_params p;
    synthetic_params_default(&p, 4096);
    p.n_public = 0;
    const double fr01[] = {0.7, 0.99};
    for (int i = 0; i < 2; i++) {
        p.frac01 = fr01[i];
        r1cs cs;
        REQUIRE(synthetic_r1cs(&cs, &p, NULL) == CUZK_OK);
        fr *w = malloc(cs.n_vars * sizeof *w);
        REQUIRE(w);
        REQUIRE(synthetic_witness(w, cs.n_vars, &cs, &p, 3, NULL) == CUZK_OK);
        CHECK(r1cs_check_witness(&cs, w, cs.n_vars, NULL, NULL) == CUZK_OK);
        synthetic_stats st;
        REQUIRE(synthetic_stats_compute(&st, &cs, w, NULL) == CUZK_OK);
        CHECK_MSG(near(st.aux_01, fr01[i], 0.04), "frac01 %.2f: got %.4f", fr01[i], st.aux_01);
        CHECK_MSG(near(st.a_per_row, 2.4, 0.10), "A/row %.3f", st.a_per_row);
        free(w);
        r1cs_free(&cs);
    }
    r1cs cs;
    p.n_constraints = 7;
    CHECK_EQ_INT(synthetic_r1cs(&cs, &p, NULL), CUZK_ERR_ARG);
    CHECK_EQ_INT(synthetic_r1cs(NULL, &p, NULL), CUZK_ERR_ARG);
}

/* 2^18 rows: generation must be fast (the bench makes 2^20..2^27). Reported, loosely bounded. */
TEST(synthetic, speed) {
    synthetic_params p;
    synthetic_params_default(&p, 1u << 18);
    r1cs cs;
    double t0 = now_ms();
    REQUIRE(synthetic_r1cs(&cs, &p, NULL) == CUZK_OK);
    double t1 = now_ms();
    fr *w = malloc(cs.n_vars * sizeof *w);
    REQUIRE(w);
    REQUIRE(synthetic_witness(w, cs.n_vars, &cs, &p, 1, NULL) == CUZK_OK);
    double t2 = now_ms();
    printf("  2^18 rows: matrices %.1f ms (%.1f M rows/s), witness %.1f ms (%.1f M rows/s)\n", t1 - t0,
           (1 << 18) / (t1 - t0) / 1e3, t2 - t1, (1 << 18) / (t2 - t1) / 1e3);
    CHECK(t1 - t0 < 5000);
    CHECK(t2 - t1 < 5000);
    free(w);
    r1cs_free(&cs);
}
