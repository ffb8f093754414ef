/* synthetic suite: the PoRep-shaped synthetic circuit (src/r1cs/synthetic.h). */
#include "test.h"

#include <math.h>
#include <stdlib.h>

#include "r1cs/synthetic.h"
#include "util/rng.h"
#include "util/timer.h"

static int near(double got, double want, double rel) { return got >= want * (1 - rel) && got <= want * (1 + rel); }
/* A share p measured over n draws: within rel of want, or within 6 binomial standard deviations
 * when n is small enough for the sampling noise to exceed rel (at 2^10 rows the share of aux in B
 * has sigma 0.0136 = 5.4 % of 0.254, so a fixed 15 % failed on about 1 seed in 130). */
static int near_share(double got, double want, double rel, uint32_t n) {
    double tol = want * rel, sigma6 = 6.0 * sqrt(want * (1.0 - want) / (double)n);
    if (sigma6 > tol) tol = sigma6;
    return fabs(got - want) <= tol;
}

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
            CHECK_MSG(near_share(st.aux_in_b, 0.254, 0.15, sizes[si]), "aux in B %.4f", st.aux_in_b);
            CHECK_MSG(near_share(st.aux_01, 0.95, 0.03, sizes[si]), "aux 0/1 %.4f", st.aux_01);
            /* the share of ones among aux values is a property of the witness seed, not of the
             * shape: over 300 seeds x 2 witnesses it averaged 0.25 at every size, but AND chains over
             * a few zero bits pull small systems far down (min 0.097 seen at 2^10, seed
             * 57245120275777). Only a degenerate witness (all zeros or all ones) fails here. */
            CHECK_MSG(st.aux_1 > 0.02 && st.aux_1 < 0.7, "aux ones %.4f", st.aux_1);
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

/* ---- the parallel witness against the sequential algorithm it replaced ---------------------- */

/* The oracle: synthetic_witness as it was before it went parallel (row by row in the field; each
 * row solved for its fresh variable, the last C entry), with its seeds; it tells a BIT row by its
 * structure (its A entry is its own output) instead of recomputing the row kinds, and does no
 * validation. */

static void reference_dot_row(fr *acc, const csr_matrix *m, uint32_t j, uint64_t end, const fr *w, const fr *one) {
    fr t;
    fr_zero(acc);
    for (uint64_t e = m->row_ptr[j]; e < end; e++) {
        const fr *v = &w[m->col[e]];
        if (fr_is_zero(v)) continue;
        if (fr_eq(csr_val(m, e), one)) fr_add(acc, acc, v);
        else { fr_mul(&t, csr_val(m, e), v); fr_add(acc, acc, &t); }
    }
}

static void reference_witness(fr *w, const r1cs *cs, uint64_t witness_seed) {
    fr one, zero;
    fr_one(&one);
    fr_zero(&zero);
    uint32_t n_inputs = cs->n_public + 1;
    uint64_t wkey = splitmix64_mix(witness_seed ^ 0x3c6ef372fe94f82bull);
    w[0] = one;
    for (uint32_t i = 1; i < n_inputs; i++) {
        uint64_t l[4];
        for (int q = 0; q < 4; q++) l[q] = splitmix64_mix(wkey + (uint64_t)i * 4 + (uint64_t)q);
        l[3] &= 0x3fffffffffffffffull;
        fr_from_canon(&w[i], l);
    }
    uint64_t bkey = splitmix64_mix(wkey ^ 0xb17b17ull);
    for (uint32_t j = 0; j < cs->n_constraints; j++) {
        uint32_t z = n_inputs + j;
        uint64_t ce = cs->c.row_ptr[j + 1];
        if (cs->a.col[cs->a.row_ptr[j]] == z) { /* BIT: x * x = x with x = z */
            w[z] = (splitmix64_mix(bkey + j) >> 63) ? one : zero;
            continue;
        }
        fr a, b, c;
        reference_dot_row(&a, &cs->a, j, cs->a.row_ptr[j + 1], w, &one);
        reference_dot_row(&b, &cs->b, j, cs->b.row_ptr[j + 1], w, &one);
        reference_dot_row(&c, &cs->c, j, ce - 1, w, &one);
        fr_mul(&a, &a, &b);
        if (fr_eq(csr_val(&cs->c, ce - 1), &one)) fr_sub(&w[z], &a, &c);
        else fr_sub(&w[z], &c, &a);
    }
}

/* Every size / frac01 / n_public below, random structure and witness seeds, every thread count:
 * bit-identical to the reference, and satisfying. */
TEST(synthetic, witness_mt_matches_reference) {
    const uint32_t sizes[] = {8, 9, 100, 3000, 4097};
    const double fracs[] = {0.65, 0.95, 0.995, 0.2}; /* 0.2: PACK rate clamped to 0.35 */
    const uint32_t publics[] = {0, 1, 328};
    const int threads[] = {1, 2, 3, 7, 16};
    size_t systems = 0;
    for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++)
        for (size_t fi = 0; fi < sizeof fracs / sizeof fracs[0]; fi++)
            for (size_t pi = 0; pi < sizeof publics / sizeof publics[0]; pi++) {
                synthetic_params p;
                synthetic_params_default(&p, sizes[si]);
                p.frac01 = fracs[fi];
                p.n_public = publics[pi];
                p.seed = test_rand64();
                uint64_t ws = test_rand64();
                r1cs cs;
                cuzk_error e = {0};
                REQUIRE(synthetic_r1cs(&cs, &p, &e) == CUZK_OK);
                fr *ref = malloc(cs.n_vars * sizeof *ref), *w = malloc(cs.n_vars * sizeof *w);
                REQUIRE(ref && w);
                reference_witness(ref, &cs, ws);
                uint32_t bad = 0;
                CHECK_MSG(r1cs_check_witness(&cs, ref, cs.n_vars, &bad, &e) == CUZK_OK, "reference: %s", e.msg);
                for (size_t ti = 0; ti < sizeof threads / sizeof threads[0]; ti++) {
                    memset(w, 0xa5, cs.n_vars * sizeof *w);
                    cuzk_status st = synthetic_witness_mt(w, cs.n_vars, &cs, &p, ws, threads[ti], &e);
                    CHECK_MSG(st == CUZK_OK, "n=%u frac01=%.3f public=%u threads=%d: %s", sizes[si], fracs[fi],
                              publics[pi], threads[ti], e.msg);
                    CHECK_MSG(memcmp(w, ref, cs.n_vars * sizeof *w) == 0,
                              "n=%u frac01=%.3f public=%u threads=%d seed=%llu wseed=%llu: differs from the reference",
                              sizes[si], fracs[fi], publics[pi], threads[ti], (unsigned long long)p.seed,
                              (unsigned long long)ws);
                }
                CHECK(r1cs_check_witness(&cs, w, cs.n_vars, &bad, &e) == CUZK_OK);
                /* the default entry point is the same function */
                memset(w, 0, cs.n_vars * sizeof *w);
                CHECK(synthetic_witness(w, cs.n_vars, &cs, &p, ws, &e) == CUZK_OK);
                CHECK_MEM(w, ref, cs.n_vars * sizeof *w);
                free(ref);
                free(w);
                r1cs_free(&cs);
                systems++;
            }
    CHECK_EQ_INT(systems, 5 * 4 * 3);
}

/* Past the 64Ki-row pick window, PoRep's public inputs and frac01: one larger system, as made and
 * with operands far back. */
TEST(synthetic, witness_mt_matches_reference_large) {
    synthetic_params p;
    synthetic_params_default(&p, 70001);
    p.seed = test_rand64();
    uint64_t ws = test_rand64();
    r1cs cs;
    REQUIRE(synthetic_r1cs(&cs, &p, NULL) == CUZK_OK);
    fr *ref = malloc(cs.n_vars * sizeof *ref), *w = malloc(cs.n_vars * sizeof *w);
    REQUIRE(ref && w);
    reference_witness(ref, &cs, ws);
    const int threads[] = {1, 3, 16};
    for (int round = 0; round < 2; round++) {
        for (int ti = 0; ti < 3; ti++) {
            cuzk_error e = {0};
            CHECK_MSG(synthetic_witness_mt(w, cs.n_vars, &cs, &p, ws, threads[ti], &e) == CUZK_OK, "%s", e.msg);
            CHECK_MSG(memcmp(w, ref, cs.n_vars * sizeof *w) == 0, "round %d threads=%d seed=%llu wseed=%llu", round,
                      threads[ti], (unsigned long long)p.seed, (unsigned long long)ws);
        }
        CHECK(r1cs_check_witness(&cs, w, cs.n_vars, NULL, NULL) == CUZK_OK);
        if (round) break;
        /* round 2: operands more than 2^16 - 1 rows back (the generator picks within 2^16 rows):
         * 32 AND rows' y and 32 XOR rows' x become early booleans (rows 0..7 are BIT rows). Still
         * systems the witness accepts; it must still be the reference's solution. */
        uint32_t n_inputs = p.n_public + 1, n_xor = 0, n_and = 0;
        for (uint32_t j = 69000; j < cs.n_constraints && (n_xor < 32 || n_and < 32); j++) {
            uint64_t a0 = cs.a.row_ptr[j], c0 = cs.c.row_ptr[j];
            if (cs.c.row_ptr[j + 1] - c0 == 3 && n_xor < 32) {
                cs.a.col[a0] = cs.c.col[c0] = n_inputs + n_xor++ % 8;
            } else if (cs.c.row_ptr[j + 1] - c0 == 1 && cs.b.col[j] != 0 && cs.a.col[a0] != n_inputs + j &&
                       n_and < 32) {
                cs.b.col[j] = n_inputs + n_and++ % 8;
            }
        }
        REQUIRE(n_xor == 32 && n_and == 32);
        reference_witness(ref, &cs, ws);
    }
    free(ref);
    free(w);
    r1cs_free(&cs);
}

/* Expects CUZK_ERR_ARG naming row j, for 1 and 5 threads. */
static void expect_bad_row(fr *w, const r1cs *cs, const synthetic_params *p, uint32_t j, const char *what) {
    char want[32];
    snprintf(want, sizeof want, "row %u ", j);
    for (int t = 1; t <= 5; t += 4) {
        cuzk_error e = {0};
        cuzk_status st = synthetic_witness_mt(w, cs->n_vars, cs, p, 11, t, &e);
        CHECK_MSG(st == CUZK_ERR_ARG, "%s (threads %d): status %d", what, t, (int)st);
        CHECK_MSG(strstr(e.msg, want) != NULL, "%s (threads %d): '%s' does not name row %u", what, t, e.msg, j);
    }
}

/* Systems not made from the params are refused (CUZK_ERR_ARG), with the row named; so are the
 * wrong sizes and NULLs. One changed column or coefficient per case, restored after it. */
TEST(synthetic, witness_mt_refuses_other_systems) {
    synthetic_params p;
    synthetic_params_default(&p, 5000);
    p.n_public = 3;
    p.seed = test_rand64();
    r1cs cs;
    REQUIRE(synthetic_r1cs(&cs, &p, NULL) == CUZK_OK);
    fr *w = malloc(cs.n_vars * sizeof *w);
    REQUIRE(w);
    REQUIRE(synthetic_witness_mt(w, cs.n_vars, &cs, &p, 11, 3, NULL) == CUZK_OK);

    /* sizes and NULLs */
    CHECK_EQ_INT(synthetic_witness_mt(NULL, cs.n_vars, &cs, &p, 11, 2, NULL), CUZK_ERR_ARG);
    CHECK_EQ_INT(synthetic_witness_mt(w, cs.n_vars, NULL, &p, 11, 2, NULL), CUZK_ERR_ARG);
    CHECK_EQ_INT(synthetic_witness_mt(w, cs.n_vars, &cs, NULL, 11, 2, NULL), CUZK_ERR_ARG);
    CHECK_EQ_INT(synthetic_witness_mt(w, cs.n_vars - 1, &cs, &p, 11, 2, NULL), CUZK_ERR_ARG);
    synthetic_params q = p;
    q.n_public = 4;
    CHECK_EQ_INT(synthetic_witness_mt(w, cs.n_vars, &cs, &q, 11, 2, NULL), CUZK_ERR_ARG);
    q = p;
    q.n_constraints = 4999;
    CHECK_EQ_INT(synthetic_witness_mt(w, cs.n_vars, &cs, &q, 11, 2, NULL), CUZK_ERR_ARG);
    /* same sizes, other structure seed or frac01: the row kinds differ somewhere */
    q = p;
    q.seed ^= 1;
    CHECK_EQ_INT(synthetic_witness_mt(w, cs.n_vars, &cs, &q, 11, 2, NULL), CUZK_ERR_ARG);
    q = p;
    q.frac01 = 0.9;
    CHECK_EQ_INT(synthetic_witness_mt(w, cs.n_vars, &cs, &q, 11, 2, NULL), CUZK_ERR_ARG);

    /* the rows of each kind after the first thousand, told by their structure */
    uint32_t n_inputs = p.n_public + 1, j_xor = 0, j_and = 0, j_pack = 0;
    for (uint32_t j = 1000; j < cs.n_constraints && !(j_xor && j_and && j_pack); j++) {
        uint64_t a0 = cs.a.row_ptr[j], c0 = cs.c.row_ptr[j];
        if (cs.c.row_ptr[j + 1] - c0 == 3) { if (!j_xor) j_xor = j; }
        else if (cs.b.col[j] == 0) { if (!j_pack) j_pack = j; }
        else if (cs.a.col[a0] != n_inputs + j && !j_and) j_and = j;
    }
    REQUIRE(j_xor && j_and && j_pack);
    fr one;
    fr_one(&one);
    uint32_t col, saved, one_a = csr_coef_find(&cs.a, &one), one_c = csr_coef_find(&cs.c, &one);
    REQUIRE(one_a != CSR_NO_COEF && one_c != CSR_NO_COEF);
    /* a coefficient: XOR's 2x becomes x */
    uint64_t e = cs.a.row_ptr[j_xor];
    saved = cs.a.coef_id[e];
    cs.a.coef_id[e] = one_a;
    expect_bad_row(w, &cs, &p, j_xor, "XOR coefficient");
    cs.a.coef_id[e] = saved;
    /* XOR's -z becomes z */
    e = cs.c.row_ptr[j_xor] + 2;
    saved = cs.c.coef_id[e];
    cs.c.coef_id[e] = one_c;
    expect_bad_row(w, &cs, &p, j_xor, "XOR -z");
    cs.c.coef_id[e] = saved;
    /* an AND operand that is a public input, not a boolean */
    col = cs.b.col[j_and];
    cs.b.col[j_and] = 1;
    expect_bad_row(w, &cs, &p, j_and, "AND public operand");
    cs.b.col[j_and] = col;
    /* an AND operand from a later row */
    e = cs.a.row_ptr[j_and];
    col = cs.a.col[e];
    cs.a.col[e] = n_inputs + j_and + 1;
    expect_bad_row(w, &cs, &p, j_and, "AND forward operand");
    cs.a.col[e] = col;
    /* a PACK bit term that is a field element (the row's own chain input u) */
    e = cs.a.row_ptr[j_pack];
    col = cs.a.col[e + 1];
    cs.a.col[e + 1] = cs.a.col[e];
    expect_bad_row(w, &cs, &p, j_pack, "PACK non-boolean bit term");
    cs.a.col[e + 1] = col;
    /* a PACK row whose chain input is not the previous PACK output */
    col = cs.a.col[e];
    cs.a.col[e] = 2;
    expect_bad_row(w, &cs, &p, j_pack, "PACK chain input");
    cs.a.col[e] = col;
    /* a PACK row whose B is not ONE */
    cs.b.col[j_pack] = cs.a.col[e + 1];
    expect_bad_row(w, &cs, &p, j_pack, "PACK B");
    cs.b.col[j_pack] = 0;
    /* the output column of a row (the check synthetic_witness always made) */
    e = cs.c.row_ptr[j_and];
    col = cs.c.col[e];
    cs.c.col[e] = col - 1;
    expect_bad_row(w, &cs, &p, j_and, "AND output column");
    cs.c.col[e] = col;

    /* restored: accepted again, and still the reference */
    fr *ref = malloc(cs.n_vars * sizeof *ref);
    REQUIRE(ref);
    reference_witness(ref, &cs, 11);
    CHECK(synthetic_witness_mt(w, cs.n_vars, &cs, &p, 11, 2, NULL) == CUZK_OK);
    CHECK_MEM(w, ref, cs.n_vars * sizeof *w);
    free(ref);
    free(w);
    r1cs_free(&cs);
}
