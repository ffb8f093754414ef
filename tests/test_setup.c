/* setup suite: Groth16 parameter generation (src/groth16/setup.h, cuzk_setup, `cuzk setup`).
 * Pieces against independent oracles (fixed-base against g1_mul_fr_vartime, the closed-form Lagrange basis
 * against an iNTT of the powers of tau, the column-index SpMV against a serial loop), then
 * setup -> prove -> verify for random and synthetic circuits in both conventions, reproducibility,
 * the loaders reading what setup wrote, snarkjs proving with our zkey and verifying our proofs,
 * and the command line. */
#include "test.h"
#include "test_rand.h"

#include <stdarg.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cuzk/groth16.h"
#include "formats/bellperson.h"
#include "formats/json.h"
#include "formats/snarkjs.h"
#include "groth16/backend.h"
#include "groth16/groth16.h"
#include "groth16/setup.h"
#include "curves/bls12_381/curve.h"
#include "r1cs/synthetic.h"
#include "cli/progress.h"
#include "util/timer.h"

#define CLI CUZK_CLI_PATH
#define FIXED_R "0x1ab4b9a7f2c0d3e5a6978877665544332211ffeeddccbbaa9988776655443322"
#define FIXED_S "0x2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f90a1b"


static bool have_gpu(void) {
    groth16_backend be;
    return groth16_backend_resolve(CUZK_BACKEND_GPU, &be, NULL) == CUZK_OK && be == GROTH16_BACKEND_GPU;
}

static char *tmp_path(char *buf, size_t cap, const char *name) {
    snprintf(buf, cap, "%s/%s", test_tmpdir(), name);
    return buf;
}

static size_t slurp(const char *p, uint8_t **out) {
    FILE *f = fopen(p, "rb");
    *out = NULL;
    if (!f) return 0;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    *out = malloc(n > 0 ? (size_t)n : 1);
    size_t got = *out ? fread(*out, 1, (size_t)n, f) : 0;
    fclose(f);
    return got;
}
static bool same_bytes(const char *a, const char *b) {
    uint8_t *x, *y;
    size_t nx = slurp(a, &x), ny = slurp(b, &y);
    bool eq = nx > 0 && nx == ny && memcmp(x, y, nx) == 0;
    free(x);
    free(y);
    return eq;
}
static bool file_exists(const char *p) {
    struct stat st;
    return stat(p, &st) == 0;
}

/* ---- a random satisfiable circuit --------------------------------------------------------
 * n_vars = 1 + n_public + n_aux (n_aux <= n_rows). Row j: A and B draw 0..3 and 0..2 random terms
 * (any variable, ONE and public inputs included; sometimes a zero coefficient, sometimes a
 * repeated variable), C draws 0..2 terms plus a "solver" term on aux (j mod n_aux) whose
 * coefficient makes the row hold for the random witness (witness values are random and nonzero).
 * Every aux variable is a solver, so every wire is in some constraint. */
/* Appends (col, *v) to b's open row; a failure fails the test. */
static void cb_push(csr_builder *b, uint32_t col, const fr *v) {
    cuzk_status st = csr_builder_push(b, col, v);
    CHECK_MSG(st == CUZK_OK, "csr_builder_push: %s", cuzk_status_str(st));
}

static void random_circuit(r1cs *cs, fr **w_out, uint32_t n_rows, uint32_t n_public, uint32_t n_aux) {
    uint32_t n_vars = 1 + n_public + n_aux;
    fr *w = malloc(n_vars * sizeof *w);
    fr_one(&w[0]);
    for (uint32_t i = 1; i < n_vars; i++) {
        do test_rand_fr(&w[i]); while (fr_is_zero(&w[i]));
    }
    /* no hints: the builders' arrays grow */
    csr_builder b[3];
    for (int k = 0; k < 3; k++) CHECK(csr_builder_init(&b[k], 0, 0) == CUZK_OK);
    for (uint32_t j = 0; j < n_rows; j++) {
        fr acc[2];
        for (int k = 0; k < 2; k++) {
            fr_zero(&acc[k]);
            int terms = (int)(test_rand64() % (k == 0 ? 4 : 3));
            uint32_t last = 0;
            for (int t = 0; t < terms; t++) {
                uint64_t r = test_rand64();
                uint32_t col = (r & 7) == 0 && t > 0 ? last : (r >> 8) % 4 == 0 ? (uint32_t)((r >> 16) % (n_public + 1))
                                                                               : (uint32_t)((r >> 16) % n_vars);
                fr v;
                if ((r & 0xff) == 0x10) fr_zero(&v);
                else test_rand_fr(&v);
                cb_push(&b[k], col, &v);
                fr p;
                fr_mul(&p, &v, &w[col]);
                fr_add(&acc[k], &acc[k], &p);
                last = col;
            }
        }
        fr rhs, sum;
        fr_mul(&rhs, &acc[0], &acc[1]);
        fr_zero(&sum);
        int terms = (int)(test_rand64() % 3);
        for (int t = 0; t < terms; t++) {
            uint32_t col = (uint32_t)(test_rand64() % n_vars);
            fr v, p;
            test_rand_fr(&v);
            cb_push(&b[2], col, &v);
            fr_mul(&p, &v, &w[col]);
            fr_add(&sum, &sum, &p);
        }
        uint32_t solver = 1 + n_public + j % n_aux;
        while (fr_eq(&rhs, &sum)) { /* the solver's coefficient must not be 0: one more C term */
            uint32_t col = (uint32_t)(test_rand64() % n_vars);
            fr v, p;
            test_rand_fr(&v);
            cb_push(&b[2], col, &v);
            fr_mul(&p, &v, &w[col]);
            fr_add(&sum, &sum, &p);
        }
        fr c, inv;
        fr_sub(&c, &rhs, &sum);
        fr_inv(&inv, &w[solver]);
        fr_mul(&c, &c, &inv);
        cb_push(&b[2], solver, &c);
        for (int k = 0; k < 3; k++) CHECK(csr_builder_end_row(&b[k]) == CUZK_OK);
    }
    memset(cs, 0, sizeof *cs);
    cs->n_constraints = n_rows;
    cs->n_vars = n_vars;
    cs->n_public = n_public;
    csr_builder_finish(&b[0], &cs->a);
    csr_builder_finish(&b[1], &cs->b);
    csr_builder_finish(&b[2], &cs->c);
    *w_out = w;
}

/* ---- pieces ------------------------------------------------------------------------------ */

TEST(setup, fixed_base_equals_mul_fr) {
    const size_t sizes[] = {0, 1, 2, 31, 32, 33, 40, 257, 400};
    g1_affine g1;
    g2_affine g2;
    g1_generator(&g1);
    g2_generator(&g2);
    /* another base: 5 * G */
    fr five;
    fr_from_u64(&five, 5);
    g1_jacobian j5;
    g1_jacobian_from_affine(&j5, &g1);
    g1_mul_fr_vartime(&j5, &j5, &five);
    g1_affine g1b;
    g1_jacobian_to_affine(&g1b, &j5);
    bool gpu = have_gpu();
    for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++) {
        size_t n = sizes[si];
        fr *k = malloc((n + 1) * sizeof *k);
        g1_affine *o1 = malloc((n + 1) * sizeof *o1), *o1g = malloc((n + 1) * sizeof *o1g);
        g2_affine *o2 = malloc((n + 1) * sizeof *o2), *o2g = malloc((n + 1) * sizeof *o2g);
        REQUIRE(k && o1 && o2 && o1g && o2g);
        for (size_t i = 0; i < n; i++) {
            switch (i % 7) {
            case 0: fr_zero(&k[i]); break;
            case 1: fr_one(&k[i]); break;
            case 2: fr_from_u64(&k[i], 1); fr_neg(&k[i], &k[i]); break; /* r - 1 */
            case 3: fr_from_u64(&k[i], 256); break;                     /* one nonzero byte */
            default: test_rand_fr(&k[i]);
            }
        }
        for (int gi = 0; gi < 2; gi++) {
            const g1_affine *base = gi ? &g1b : &g1;
            for (int threads = 1; threads <= 3; threads += 2) {
                REQUIRE(groth16_g1_fixed_base(GROTH16_BACKEND_CPU, o1, base, k, n, threads, NULL) == CUZK_OK);
                for (size_t i = 0; i < n; i++) {
                    g1_jacobian j, jb;
                    g1_affine a;
                    g1_jacobian_from_affine(&jb, base);
                    g1_mul_fr_vartime(&j, &jb, &k[i]);
                    g1_jacobian_to_affine(&a, &j);
                    CHECK_MSG(!memcmp(&a, &o1[i], sizeof a), "G1 n=%zu i=%zu threads=%d", n, i, threads);
                }
            }
            if (gpu) {
                REQUIRE(groth16_g1_fixed_base(GROTH16_BACKEND_GPU, o1g, base, k, n, 0, NULL) == CUZK_OK);
                CHECK_MSG(n == 0 || !memcmp(o1g, o1, n * sizeof *o1), "GPU G1 differs from CPU, n=%zu", n);
            }
        }
        if (n <= 40) {
            REQUIRE(groth16_g2_fixed_base(GROTH16_BACKEND_CPU, o2, &g2, k, n, 2, NULL) == CUZK_OK);
            for (size_t i = 0; i < n; i++) {
                g2_jacobian j, jb;
                g2_affine a;
                g2_jacobian_from_affine(&jb, &g2);
                g2_mul_fr_vartime(&j, &jb, &k[i]);
                g2_jacobian_to_affine(&a, &j);
                CHECK_MSG(!memcmp(&a, &o2[i], sizeof a), "G2 n=%zu i=%zu", n, i);
            }
            if (gpu) {
                REQUIRE(groth16_g2_fixed_base(GROTH16_BACKEND_GPU, o2g, &g2, k, n, 0, NULL) == CUZK_OK);
                CHECK_MSG(n == 0 || !memcmp(o2g, o2, n * sizeof *o2), "GPU G2 differs from CPU, n=%zu", n);
            }
        }
        free(k); free(o1); free(o2); free(o1g); free(o2g);
    }
    CHECK_EQ_INT(groth16_g1_fixed_base(GROTH16_BACKEND_CPU, NULL, &g1, NULL, 3, 1, NULL), CUZK_ERR_ARG);
    CHECK_EQ_INT(groth16_g1_fixed_base(GROTH16_BACKEND_CPU, NULL, &g1, NULL, 0, 1, NULL), CUZK_OK);
}

/* L = iNTT(1, tau, ..., tau^(m-1)): sum_j L_j f(omega^j) = f(tau) for deg f < m, and the NTT
 * matrix is symmetric. */
TEST(setup, lagrange_equals_intt_of_tau_powers) {
    const int logs[] = {1, 2, 5, 10, 13};
    for (size_t li = 0; li < sizeof logs / sizeof logs[0]; li++) {
        int log_m = logs[li];
        size_t m = (size_t)1 << log_m;
        fr tau, scale, one;
        test_rand_fr(&tau);
        test_rand_fr(&scale);
        fr_one(&one);
        fr *got = malloc(2 * m * sizeof *got), *want = malloc(2 * m * sizeof *want);
        REQUIRE(got && want);
        for (int roots = 0; roots < 2; roots++) {
            ntt_domain d = {0};
            REQUIRE(ntt_domain_init(&d, log_m, (ntt_roots)roots) == CUZK_OK);
            fr p;
            fr_one(&p);
            for (size_t i = 0; i < m; i++) { fr_mul(&want[i], &p, &scale); fr_mul(&p, &p, &tau); }
            ntt_inverse(&d, want, 2);
            setup_lagrange(got, log_m, (ntt_roots)roots, &tau, &scale, 1 + (int)(li % 3));
            CHECK_MSG(!memcmp(got, want, m * sizeof *got), "Lagrange basis 2^%d roots %d", log_m, roots);
            ntt_domain_free(&d);
        }
        /* the zkey H basis: the odd entries of the size-2m basis (snarkjs roots) */
        ntt_domain d2 = {0};
        REQUIRE(ntt_domain_init(&d2, log_m + 1, NTT_ROOTS_SNARKJS) == CUZK_OK);
        fr p;
        fr_one(&p);
        for (size_t i = 0; i < 2 * m; i++) { fr_mul(&want[i], &p, &scale); fr_mul(&p, &p, &tau); }
        ntt_inverse(&d2, want, 2);
        fr x0, step, s;
        setup_odd_coset_params(&x0, &step, &s, log_m, &tau, &scale);
        /* in two pieces, as setup generates it chunk by chunk */
        setup_lagrange_range(got, 0, m / 2, &x0, &step, &s, 2);
        setup_lagrange_range(got + m / 2, m / 2, m, &x0, &step, &s, 3);
        for (size_t j = 0; j < m; j++)
            CHECK_MSG(!memcmp(&got[j], &want[2 * j + 1], sizeof *got), "odd coset basis 2^%d j=%zu", log_m, j);
        ntt_domain_free(&d2);
        free(got);
        free(want);
    }
}

static void naive_columns(fr *out, uint8_t *dens, const csr_matrix *m, size_t n_cols, const fr *lag) {
    memset(out, 0, n_cols * sizeof *out);
    memset(dens, 0, n_cols);
    for (uint32_t j = 0; j < m->n_rows; j++)
        for (uint64_t e = m->row_ptr[j]; e < m->row_ptr[j + 1]; e++) {
            fr t;
            fr_mul(&t, csr_val(m, e), &lag[j]);
            fr_add(&out[m->col[e]], &out[m->col[e]], &t);
            if (!fr_is_zero(csr_val(m, e))) dens[m->col[e]] = 1;
        }
}

TEST(setup, qap_columns_equal_serial_loop) {
    const uint32_t rows[] = {0, 1, 7, 5000, 20000};
    for (size_t ri = 0; ri < sizeof rows / sizeof rows[0]; ri++) {
        uint32_t n_rows = rows[ri], n_aux = n_rows ? n_rows : 1;
        r1cs cs;
        fr *w;
        if (n_rows == 0) {
            memset(&cs, 0, sizeof cs);
            cs.n_vars = 3;
            for (int k = 0; k < 3; k++) {
                csr_matrix *m = k == 0 ? &cs.a : k == 1 ? &cs.b : &cs.c;
                m->row_ptr = calloc(1, sizeof *m->row_ptr);
                m->col = malloc(4);
                m->coef_id = malloc(4);
            }
            w = malloc(sizeof *w);
        } else {
            random_circuit(&cs, &w, n_rows, 3, n_aux);
        }
        size_t n = cs.n_vars;
        fr *lag = malloc((n_rows + 1) * sizeof *lag), *got = malloc(n * sizeof *got), *want = malloc(n * sizeof *want);
        uint8_t *dg = malloc(n), *dw = malloc(n);
        REQUIRE(lag && got && want && dg && dw);
        for (uint32_t j = 0; j < n_rows; j++) test_rand_fr(&lag[j]);
        for (int k = 0; k < 3; k++) {
            const csr_matrix *m = k == 0 ? &cs.a : k == 1 ? &cs.b : &cs.c;
            naive_columns(want, dw, m, n, lag);
            for (int threads = 1; threads <= 8; threads *= 3) {
                memset(dg, 7, n);
                REQUIRE(setup_qap_columns(got, dg, m, n, lag, threads, NULL) == CUZK_OK);
                CHECK_MSG(!memcmp(got, want, n * sizeof *got), "rows %u matrix %d threads %d", n_rows, k, threads);
                CHECK_MSG(!memcmp(dg, dw, n), "density rows %u matrix %d threads %d", n_rows, k, threads);
            }
        }
        free(lag); free(got); free(want); free(dg); free(dw); free(w);
        r1cs_free(&cs);
    }
}

/* The shapes the QAP split treats differently: ONE (col 0) and the other hot columns (< 64) in
 * most rows, a cold column in most rows (one long column in the index), coefficients 0 (skipped),
 * 1 (no multiplication) and -1/random, empty columns, rows past one task (>= 4096 rows). */
TEST(setup, qap_columns_heavy_columns_equal_serial_loop) {
    const uint32_t rows[] = {300, 9000};
    fr one, zero, mone, vals[5];
    fr_one(&one);
    fr_zero(&zero);
    fr_neg(&mone, &one);
    for (int v = 0; v < 5; v++) test_rand_fr(&vals[v]);
    for (size_t ri = 0; ri < sizeof rows / sizeof rows[0]; ri++) {
        uint32_t n_rows = rows[ri];
        size_t n = 64 + 3 * (size_t)n_rows;
        csr_builder b;
        REQUIRE(csr_builder_init(&b, 0, 0) == CUZK_OK);
        for (uint32_t j = 0; j < n_rows; j++) {
            uint64_t r = test_rand64();
            const fr *pick[8] = {&one, &one, &one, &mone, &zero, &vals[r % 5], &vals[(r >> 3) % 5], &one};
            if (r & 1) REQUIRE(csr_builder_push(&b, 0, pick[(r >> 8) & 7]) == CUZK_OK);          /* ONE */
            if ((r >> 12) % 3) REQUIRE(csr_builder_push(&b, 1 + (uint32_t)((r >> 16) % 63), pick[(r >> 24) & 7]) == CUZK_OK);
            if ((r >> 28) % 4) REQUIRE(csr_builder_push(&b, 100, pick[(r >> 32) & 7]) == CUZK_OK); /* a long cold column */
            for (int t = 0; t < (int)((r >> 36) % 4); t++) /* near the row: most columns short */
                REQUIRE(csr_builder_push(&b, 64 + 3 * j + (uint32_t)t, pick[(r >> (40 + 3 * t)) & 7]) == CUZK_OK);
            if (((r >> 52) & 15) == 0) REQUIRE(csr_builder_push(&b, 63, &zero) == CUZK_OK); /* zero only: not dense */
            REQUIRE(csr_builder_end_row(&b) == CUZK_OK);
        }
        csr_matrix m;
        csr_builder_finish(&b, &m);
        fr *lag = malloc(n_rows * sizeof *lag), *got = malloc(n * sizeof *got), *want = malloc(n * sizeof *want);
        uint8_t *dg = malloc(n), *dw = malloc(n);
        REQUIRE(lag && got && want && dg && dw);
        for (uint32_t j = 0; j < n_rows; j++) test_rand_fr(&lag[j]);
        naive_columns(want, dw, &m, n, lag);
        for (int threads = 1; threads <= 16; threads *= 2) {
            memset(dg, 7, n);
            memset(got, 0x5a, n * sizeof *got);
            REQUIRE(setup_qap_columns(got, dg, &m, n, lag, threads, NULL) == CUZK_OK);
            CHECK_MSG(!memcmp(got, want, n * sizeof *got), "rows %u threads %d", n_rows, threads);
            CHECK_MSG(!memcmp(dg, dw, n), "density rows %u threads %d", n_rows, threads);
            REQUIRE(setup_qap_columns(got, NULL, &m, n, lag, threads, NULL) == CUZK_OK); /* densities optional */
            CHECK_MSG(!memcmp(got, want, n * sizeof *got), "no densities: rows %u threads %d", n_rows, threads);
        }
        CHECK(dw[0] && dw[100]); /* the shape has its long columns */
        free(lag); free(got); free(want); free(dg); free(dw);
        free(m.row_ptr); free(m.col); free(m.coef_id); free(m.coef);
    }
}

/* ---- setup -> prove -> verify ------------------------------------------------------------- */

/* bellperson: in-memory setup, prove, verify; a wrong public input fails. */
static void prove_verify_bellperson(const r1cs *cs, const fr *w, uint64_t seed, const char *what) {
    bellperson_params p;
    cuzk_error e = {0};
    cuzk_status st = groth16_setup_bellperson(&p, cs, &seed, 0, &e);
    CHECK_MSG(st == CUZK_OK, "%s: setup: %s", what, e.msg);
    if (st != CUZK_OK) return;
    fr r, s;
    test_rand_fr(&r);
    test_rand_fr(&s);
    groth16_proof proof;
    st = groth16_prove_bellperson(&proof, &p, cs, w, cs->n_vars, &r, &s, 0, NULL, &e);
    CHECK_MSG(st == CUZK_OK, "%s: prove: %s", what, e.msg);
    if (st == CUZK_OK) {
        CHECK_MSG(groth16_verify(&p.vk, w + 1, cs->n_public, &proof, &e) == CUZK_OK, "%s: verify: %s", what, e.msg);
        if (cs->n_public) {
            fr *bad = malloc(cs->n_public * sizeof *bad);
            memcpy(bad, w + 1, cs->n_public * sizeof *bad);
            fr one;
            fr_one(&one);
            fr_add(&bad[0], &bad[0], &one);
            CHECK_MSG(groth16_verify(&p.vk, bad, cs->n_public, &proof, NULL) == CUZK_ERR_INVALID, "%s: wrong input", what);
            free(bad);
        }
    }
    bellperson_params_free(&p);
}

/* snarkjs convention: zkey written by setup, read back by our loader, proof, verify. */
static void prove_verify_zkey(const r1cs *cs, const fr *w, uint64_t seed, const char *what) {
    char path[1024];
    tmp_path(path, sizeof path, "rand.zkey");
    groth16_toxic tw;
    cuzk_error e = {0};
    REQUIRE(groth16_toxic_draw(&tw, &seed, &e) == CUZK_OK);
    groth16_setup_run run = {.nthreads = 0};
    uint64_t bytes = 0;
    cuzk_status st = groth16_setup_zkey(cs, &tw, path, &bytes, &run, &e);
    groth16_toxic_wipe(&tw);
    CHECK_MSG(st == CUZK_OK, "%s: zkey setup: %s", what, e.msg);
    if (st != CUZK_OK) return;
    struct stat sb;
    CHECK(stat(path, &sb) == 0 && (uint64_t)sb.st_size == bytes);
    zkey z;
    st = zkey_load(&z, path, true, &e);
    CHECK_MSG(st == CUZK_OK, "%s: zkey_load: %s", what, e.msg);
    if (st != CUZK_OK) return;
    CHECK_EQ_INT(z.n_vars, cs->n_vars);
    CHECK_EQ_INT(z.n_public, cs->n_public);
    CHECK_EQ_INT(z.n_coefs, cs->a.nnz + cs->b.nnz + cs->n_public + 1);
    fr r, s;
    test_rand_fr(&r);
    test_rand_fr(&s);
    groth16_proof proof;
    st = groth16_prove_zkey(&proof, &z, w, cs->n_vars, &r, &s, 0, NULL, &e);
    CHECK_MSG(st == CUZK_OK, "%s: zkey prove: %s", what, e.msg);
    groth16_vk vk = {.alpha1 = z.alpha1, .beta1 = z.beta1, .beta2 = z.beta2, .gamma2 = z.gamma2,
                     .delta1 = z.delta1, .delta2 = z.delta2, .n_public = z.n_public, .ic = z.ic};
    if (st == CUZK_OK)
        CHECK_MSG(groth16_verify(&vk, w + 1, cs->n_public, &proof, &e) == CUZK_OK, "%s: zkey verify: %s", what, e.msg);
    zkey_free(&z);
}

TEST(setup, random_circuits_prove_verify_both_conventions) {
    struct { uint32_t rows, pub, aux; } shapes[] = {{1, 0, 1}, {3, 2, 2}, {40, 5, 30}, {1000, 7, 900}, {1500, 20, 1500}};
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++) {
        r1cs cs;
        fr *w;
        random_circuit(&cs, &w, shapes[i].rows, shapes[i].pub, shapes[i].aux);
        uint32_t bad;
        REQUIRE(r1cs_check_witness(&cs, w, cs.n_vars, &bad, NULL) == CUZK_OK);
        char what[64];
        snprintf(what, sizeof what, "random %u rows %u public", shapes[i].rows, shapes[i].pub);
        uint64_t seed = test_rand64();
        prove_verify_bellperson(&cs, w, seed, what);
        prove_verify_zkey(&cs, w, seed, what);
        free(w);
        r1cs_free(&cs);
    }
}

TEST(setup, synthetic_circuits_prove_verify) {
    /* domains 2^10, 2^12, 2^14 (and 2^16 with CUZK_TEST_ITERS >= 4) */
    uint32_t sizes[] = {600, 3500, 16000, 65000};
    int count = test_iters(1) >= 4 ? 4 : 3;
    for (int i = 0; i < count; i++) {
        synthetic_params sp;
        synthetic_params_default(&sp, sizes[i]);
        sp.n_public = i == 0 ? 4 : 328;
        sp.seed = test_rand64();
        r1cs cs;
        cuzk_error e = {0};
        REQUIRE(synthetic_r1cs(&cs, &sp, &e) == CUZK_OK);
        fr *w = malloc(cs.n_vars * sizeof *w);
        REQUIRE(w);
        REQUIRE(synthetic_witness(w, cs.n_vars, &cs, &sp, test_rand64(), &e) == CUZK_OK);
        char what[64];
        snprintf(what, sizeof what, "synthetic %u", sizes[i]);
        double t0 = now_ms();
        prove_verify_bellperson(&cs, w, test_rand64(), what);
        double t1 = now_ms();
        if (i < 1) prove_verify_zkey(&cs, w, test_rand64(), what);
        printf("  %s: setup+prove+verify %.0f ms\n", what, t1 - t0);
        free(w);
        r1cs_free(&cs);
    }
}

/* A wire in no constraint would need an L point at infinity: .params refuses, the zkey is fine. */
TEST(setup, unused_wire_is_refused_for_params) {
    r1cs cs;
    fr *w;
    random_circuit(&cs, &w, 20, 2, 10);
    /* add a wire no row mentions */
    cs.n_vars++;
    bellperson_params p;
    cuzk_error e = {0};
    uint64_t seed = 1;
    CHECK_EQ_INT(groth16_setup_bellperson(&p, &cs, &seed, 0, &e), CUZK_ERR_UNSUPPORTED);
    CHECK_MSG(strstr(e.msg, "no constraint") != NULL, "%s", e.msg);
    char path[1024];
    groth16_toxic tw;
    REQUIRE(groth16_toxic_draw(&tw, &seed, NULL) == CUZK_OK);
    groth16_setup_run run = {.nthreads = 1};
    CHECK_EQ_INT(groth16_setup_zkey(&cs, &tw, tmp_path(path, sizeof path, "unused.zkey"), NULL, &run, &e), CUZK_OK);
    free(w);
    r1cs_free(&cs);
}

/* ---- files: reproducibility, loaders, snarkjs ------------------------------------------- */

static cuzk_status setup_fixture(const char *circ, const char *tag, const uint64_t *seed, int threads, bool zkey,
                                 char *par, char *vk, char *zk, cuzk_setup_timings *t, cuzk_error *e) {
    char r1[1024], name[256];
    snprintf(r1, sizeof r1, "%s", test_fixture("bls12381/"));
    snprintf(r1 + strlen(r1), sizeof r1 - strlen(r1), "%s/circuit.r1cs", circ);
    snprintf(name, sizeof name, "%s_%s.params", circ, tag);
    tmp_path(par, 1024, name);
    snprintf(name, sizeof name, "%s_%s.vk", circ, tag);
    tmp_path(vk, 1024, name);
    snprintf(name, sizeof name, "%s_%s.zkey", circ, tag);
    tmp_path(zk, 1024, name);
    cuzk_setup_opts o;
    cuzk_setup_opts_init(&o);
    o.seed = seed;
    o.nthreads = threads;
    o.backend = CUZK_BACKEND_CPU;
    o.zkey_path = zkey ? zk : NULL;
    return cuzk_setup(r1, par, vk, &o, t, e);
}

TEST(setup, seed_reproducible_and_params_roundtrip) {
    char p1[1024], v1[1024], z1[1024], p2[1024], v2[1024], z2[1024], p3[1024], v3[1024], z3[1024];
    cuzk_error e = {0};
    uint64_t seed = test_rand64(), seed2 = seed + 1;
    cuzk_setup_timings t;
    REQUIRE(setup_fixture("multiplier", "s1", &seed, 1, true, p1, v1, z1, &t, &e) == CUZK_OK);
    CHECK(t.n_stages > 5 && t.total_ms > 0 && t.params_bytes > 0 && t.zkey_bytes > 0);
    REQUIRE(setup_fixture("multiplier", "s2", &seed, 3, true, p2, v2, z2, NULL, &e) == CUZK_OK);
    CHECK_MSG(same_bytes(p1, p2), "same seed, different .params");
    CHECK_MSG(same_bytes(v1, v2), "same seed, different .vk");
    CHECK_MSG(same_bytes(z1, z2), "same seed, different .zkey");
    REQUIRE(setup_fixture("multiplier", "s3", &seed2, 2, true, p3, v3, z3, NULL, &e) == CUZK_OK);
    CHECK(!same_bytes(p1, p3) && !same_bytes(v1, v3) && !same_bytes(z1, z3));
    REQUIRE(setup_fixture("multiplier", "r1", NULL, 2, false, p2, v2, z2, NULL, &e) == CUZK_OK);
    REQUIRE(setup_fixture("multiplier", "r2", NULL, 2, false, p3, v3, z3, NULL, &e) == CUZK_OK);
    CHECK_MSG(!same_bytes(p2, p3), "two OS-random setups gave the same parameters");
    /* a bigger circuit for the rest */
    REQUIRE(setup_fixture("merkle_mimc5", "s1", &seed, 2, true, p1, v1, z1, &t, &e) == CUZK_OK);

    /* the streamed file reads back (subgroup checks on) and equals the in-memory setup */
    bellperson_params f = {0}, m = {0};
    REQUIRE(bellperson_params_load(&f, p1, true, &e) == CUZK_OK);
    r1cs cs;
    REQUIRE(r1cs_load(&cs, test_fixture("bls12381/merkle_mimc5/circuit.r1cs"), &e) == CUZK_OK);
    REQUIRE(groth16_setup_bellperson(&m, &cs, &seed, 2, &e) == CUZK_OK);
    CHECK(f.n_h == m.n_h && f.n_l == m.n_l && f.n_a == m.n_a && f.n_b_g1 == m.n_b_g1 && f.n_b_g2 == m.n_b_g2);
    if (f.n_h == m.n_h && f.n_l == m.n_l && f.n_a == m.n_a && f.n_b_g1 == m.n_b_g1 && f.n_b_g2 == m.n_b_g2) {
        CHECK_MEM(f.h, m.h, f.n_h * sizeof *f.h);
        CHECK_MEM(f.l, m.l, f.n_l * sizeof *f.l);
        CHECK_MEM(f.a, m.a, f.n_a * sizeof *f.a);
        CHECK_MEM(f.b_g1, m.b_g1, f.n_b_g1 * sizeof *f.b_g1);
        CHECK_MEM(f.b_g2, m.b_g2, f.n_b_g2 * sizeof *f.b_g2);
        CHECK_MEM(f.vk.ic, m.vk.ic, (f.vk.n_public + 1) * sizeof *f.vk.ic);
        CHECK(g1_affine_eq(&f.vk.alpha1, &m.vk.alpha1) && g2_affine_eq(&f.vk.delta2, &m.vk.delta2));
    }
    groth16_vk vk = {0};
    REQUIRE(bellperson_vk_load(&vk, v1, &e) == CUZK_OK);
    CHECK_MEM(vk.ic, f.vk.ic, (vk.n_public + 1) * sizeof *vk.ic);
    /* the zkey shares the toxic waste: same alpha, beta, gamma, delta points */
    zkey z;
    REQUIRE(zkey_load(&z, z1, true, &e) == CUZK_OK);
    CHECK(g1_affine_eq(&z.alpha1, &f.vk.alpha1) && g1_affine_eq(&z.beta1, &f.vk.beta1) &&
          g2_affine_eq(&z.beta2, &f.vk.beta2) && g2_affine_eq(&z.gamma2, &f.vk.gamma2) &&
          g1_affine_eq(&z.delta1, &f.vk.delta1) && g2_affine_eq(&z.delta2, &f.vk.delta2));
    CHECK_EQ_INT(z.domain_size, f.n_h + 1);
    zkey_free(&z);
    groth16_vk_free(&vk);
    bellperson_params_free(&f);
    bellperson_params_free(&m);
    r1cs_free(&cs);
    /* and proves: the file API end to end, fixed r, s */
    char pr[1024], pub[1024];
    tmp_path(pr, sizeof pr, "setup_proof.bin");
    tmp_path(pub, sizeof pub, "setup_public.json");
    cuzk_prove_opts o = {.fixed_r = FIXED_R, .fixed_s = FIXED_S, .backend = CUZK_BACKEND_CPU};
    CHECK_MSG(cuzk_prove_params_files(p1, test_fixture("bls12381/merkle_mimc5/circuit.r1cs"),
                                      test_fixture("bls12381/merkle_mimc5/witness.wtns"), pr, pub, &o, NULL, &e) == CUZK_OK,
              "%s", e.msg);
    CHECK_MSG(cuzk_verify_bellperson_files(v1, pub, pr, &e) == CUZK_OK, "%s", e.msg);
}

/* snarkjs proves with our zkey and cuzk verifies; cuzk proves with it and snarkjs verifies. */
TEST(setup, zkey_interoperates_with_snarkjs) {
    const char *snarkjs = test_snarkjs();
    const char *circs[] = {"merkle_mimc5"}; /* multiplier: covered by the same code; node is slow */
    for (int c = 0; c < 1; c++) {
        char par[1024], vk[1024], zk[1024], wt[1024], vkj[1024], ourvkj[1024], pr[1024], pub[1024], pr2[1024], pub2[1024];
        cuzk_error e = {0};
        uint64_t seed = test_rand64();
        REQUIRE(setup_fixture(circs[c], "snarkjs", &seed, 0, true, par, vk, zk, NULL, &e) == CUZK_OK);
        snprintf(wt, sizeof wt, "%s", test_fixture("bls12381/"));
        snprintf(wt + strlen(wt), sizeof wt - strlen(wt), "%s/witness.wtns", circs[c]);
        tmp_path(pr, sizeof pr, "sj_ours_proof.json");
        tmp_path(pub, sizeof pub, "sj_ours_public.json");
        tmp_path(pr2, sizeof pr2, "sj_theirs_proof.json");
        tmp_path(pub2, sizeof pub2, "sj_theirs_public.json");
        tmp_path(vkj, sizeof vkj, "sj_vk.json");
        tmp_path(ourvkj, sizeof ourvkj, "sj_our_vk.json");
        /* our loader reads it back; our prover proves with it (it self-verifies against the key) */
        zkey z;
        REQUIRE(zkey_load(&z, zk, true, &e) == CUZK_OK);
        groth16_vk v = {.alpha1 = z.alpha1, .beta1 = z.beta1, .beta2 = z.beta2, .gamma2 = z.gamma2,
                        .delta1 = z.delta1, .delta2 = z.delta2, .n_public = z.n_public, .ic = z.ic};
        REQUIRE(vk_json_write(ourvkj, &v, &e) == CUZK_OK);
        zkey_free(&z);
        cuzk_prove_opts o = {.backend = CUZK_BACKEND_CPU};
        CHECK_MSG(cuzk_prove_zkey_files(zk, wt, pr, pub, &o, NULL, &e) == CUZK_OK, "%s: %s", circs[c], e.msg);
        CHECK_MSG(cuzk_verify_json_files(ourvkj, pub, pr, &e) == CUZK_OK, "%s: %s", circs[c], e.msg);
        if (!snarkjs) continue;
        char log[8192];
        int rc = test_run(log, sizeof log, "node '%s' zkey export verificationkey '%s' '%s'", snarkjs, zk, vkj);
        REQUIRE(rc == 0);
        rc = test_run(log, sizeof log, "node '%s' groth16 verify '%s' '%s' '%s'", snarkjs, vkj, pub, pr);
        CHECK_MSG(rc == 0 && strstr(log, "OK"), "%s: snarkjs rejected cuzk's proof with our zkey: %s", circs[c], log);
        rc = test_run(log, sizeof log, "node '%s' groth16 prove '%s' '%s' '%s' '%s'", snarkjs, zk, wt, pr2, pub2);
        CHECK_MSG(rc == 0, "%s: snarkjs could not prove with our zkey: %s", circs[c], log);
        CHECK_MSG(cuzk_verify_json_files(vkj, pub2, pr2, &e) == CUZK_OK, "%s: cuzk rejected snarkjs's proof: %s", circs[c], e.msg);
        CHECK_MSG(cuzk_verify_json_files(ourvkj, pub2, pr2, &e) == CUZK_OK, "%s: (our vk json) %s", circs[c], e.msg);
        /* a proof for the fixture's own key does not verify against ours */
        CHECK(cuzk_verify_json_files(vkj, pub2, test_fixture("bls12381/merkle_mimc5/proof.json"), &e) == CUZK_ERR_INVALID);
    }
    if (!snarkjs) SKIP("snarkjs not installed (tools/install-deps.sh --test); checked our loader, prover and verifier only");
}

/* ---- the command line ------------------------------------------------------------------- */

static char g_log[1 << 16];
static int cli(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int cli(const char *fmt, ...) {
    char args[16384], cmd[20000];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(args, sizeof args, fmt, ap);
    va_end(ap);
    snprintf(cmd, sizeof cmd, "'%s' %s", CLI, args);
    return test_run(g_log, sizeof g_log, "%s", cmd);
}

TEST(setup, cli_synthetic_setup_proves) {
    char par[1024], vk[1024], zk[1024];
    tmp_path(par, sizeof par, "cli_syn.params");
    tmp_path(vk, sizeof vk, "cli_syn.vk");
    tmp_path(zk, sizeof zk, "cli_syn.zkey");
    /* 5000 rows: the QAP splits rows over several tasks, so --threads 1 vs 2 below is a real check */
    int rc = cli("setup --synthetic porep --constraints 5000 --public 4 --frac01 0.9 --circuit-seed 9 --seed 5 "
                 "--backend cpu --zkey '%s' '%s' '%s'", zk, par, vk);
    CHECK_MSG(rc == 0, "rc %d: %s", rc, g_log);
    CHECK_MSG(strstr(g_log, "INSECURE: single-party test parameters") != NULL, "no banner: %s", g_log);
    const char *stages[] = {"scalars", "h", "l", "b_g2", "write", "zkey h", "total"};
    for (size_t i = 0; i < sizeof stages / sizeof *stages; i++)
        CHECK_MSG(strstr(g_log, stages[i]) != NULL, "no stage '%s' in: %s", stages[i], g_log);
    /* the same circuit, rebuilt here, proves and verifies against the files */
    synthetic_params sp;
    synthetic_params_default(&sp, 5000);
    sp.n_public = 4;
    sp.frac01 = 0.9;
    sp.seed = 9;
    r1cs cs;
    cuzk_error e = {0};
    REQUIRE(synthetic_r1cs(&cs, &sp, &e) == CUZK_OK);
    fr *w = malloc(cs.n_vars * sizeof *w);
    REQUIRE(w && synthetic_witness(w, cs.n_vars, &cs, &sp, 77, &e) == CUZK_OK);
    bellperson_params p;
    REQUIRE(bellperson_params_load(&p, par, false, &e) == CUZK_OK);
    groth16_vk vkf = {0};
    REQUIRE(bellperson_vk_load(&vkf, vk, &e) == CUZK_OK);
    fr r, s;
    test_rand_fr(&r);
    test_rand_fr(&s);
    groth16_proof proof;
    CHECK_MSG(groth16_prove_bellperson(&proof, &p, &cs, w, cs.n_vars, &r, &s, 0, NULL, &e) == CUZK_OK, "%s", e.msg);
    CHECK_MSG(groth16_verify(&vkf, w + 1, cs.n_public, &proof, &e) == CUZK_OK, "%s", e.msg);
    zkey z;
    REQUIRE(zkey_load(&z, zk, false, &e) == CUZK_OK);
    CHECK_MSG(groth16_prove_zkey(&proof, &z, w, cs.n_vars, &r, &s, 0, NULL, &e) == CUZK_OK, "%s", e.msg);
    groth16_vk zv = {.alpha1 = z.alpha1, .beta2 = z.beta2, .gamma2 = z.gamma2, .delta2 = z.delta2,
                     .n_public = z.n_public, .ic = z.ic};
    CHECK_MSG(groth16_verify(&zv, w + 1, cs.n_public, &proof, &e) == CUZK_OK, "zkey: %s", e.msg);
    zkey_free(&z);
    groth16_vk_free(&vkf);
    bellperson_params_free(&p);
    free(w);
    r1cs_free(&cs);
    /* --seed: the same bytes again; -q prints nothing; --json is one object */
    char par2[1024], vk2[1024];
    tmp_path(par2, sizeof par2, "cli_syn2.params");
    tmp_path(vk2, sizeof vk2, "cli_syn2.vk");
    rc = cli("setup -q --synthetic porep --constraints 5000 --public 4 --frac01 0.9 --circuit-seed 9 --seed 5 "
             "--threads 1 '%s' '%s'", par2, vk2);
    CHECK_MSG(rc == 0 && g_log[0] == 0, "rc %d, output: %s", rc, g_log);
    CHECK(same_bytes(par, par2) && same_bytes(vk, vk2));
    rc = cli("setup --json --synthetic porep --constraints 100 --public 2 '%s' '%s'", par2, vk2);
    CHECK_MSG(rc == 0 && strstr(g_log, "\"insecure\": true") && strstr(g_log, "\"timings_ms\""), "%s", g_log);
}

TEST(setup, cli_bad_arguments_exit_2) {
    char par[1024], vk[1024];
    tmp_path(par, sizeof par, "bad.params");
    tmp_path(vk, sizeof vk, "bad.vk");
    unlink(par);
    struct { const char *args, *want; } cases[] = {
        {"setup --synthetic porep '%s' '%s'", "--constraints"},                       /* missing N */
        {"setup --synthetic porep --constraints '%s' '%s'", "--constraints"},         /* N not a number */
        {"setup --synthetic porep --constraints 300000000 '%s' '%s'", "2^28"},        /* N too large */
        {"setup --synthetic porep --constraints 268435455 '%s' '%s'", "2^28"},        /* N + K + 1 > 2^28 */
        {"setup --synthetic porep --constraints 99999999999 '%s' '%s'", "too large"}, /* beyond 32 bits */
        {"setup --synthetic porep --constraints 4 '%s' '%s'", "at least 8"},          /* too small */
        {"setup --synthetic sha256 --constraints 100 '%s' '%s'", "unknown --synthetic kind"},
        {"setup --synthetic porep --constraints 100 --frac01 2 '%s' '%s'", "frac01"},
        {"setup --constraints 100 '%s' '%s'", "--synthetic"},                          /* option without --synthetic */
        {"setup --synthetic porep --constraints 100 --backend tpu '%s' '%s'", "backend"},
        {"setup --synthetic porep --constraints 100 '%s'", "expected"},               /* one output */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        int rc = cli(cases[i].args, par, vk);
        CHECK_MSG(rc == 2, "case %zu (%s): exit %d: %s", i, cases[i].args, rc, g_log);
        CHECK_MSG(strstr(g_log, cases[i].want) != NULL, "case %zu: message lacks '%s': %s", i, cases[i].want, g_log);
        CHECK_MSG(!file_exists(par), "case %zu wrote %s", i, par);
    }
    int rc = cli("setup --synthetic porep --constraints 100 --zkey '%s' '%s' '%s'", par, par, vk);
    CHECK_MSG(rc == 2 && strstr(g_log, "same file"), "zkey = params: exit %d: %s", rc, g_log);
    rc = cli("setup --help");
    CHECK(rc == 0 && strstr(g_log, "INSECURE: single-party test parameters") && strstr(g_log, "--synthetic"));
    rc = cli("--help");
    CHECK(rc == 0 && strstr(g_log, "INSECURE: single-party test parameters"));
    /* a missing .r1cs is a bad input (3), not a usage error */
    rc = cli("setup /nonexistent/c.r1cs '%s' '%s'", par, vk);
    CHECK_MSG(rc == 3, "exit %d: %s", rc, g_log);
}

/* The progress line: redrawn in place on a terminal, plain lines (rate-limited) otherwise,
 * nothing when disabled. */
TEST(setup, progress_line_modes) {
    char path[1024];
    tmp_path(path, sizeof path, "progress.txt");
    for (int mode = 0; mode < 3; mode++) {
        FILE *f = fopen(path, "w+");
        REQUIRE(f);
        progress *p = progress_new(f, mode == 0 ? 1 : 0, mode != 2);
        REQUIRE(p);
        progress_update(p, "h", 0, 1000);
        progress_update(p, "h", 500, 1000);
        progress_update(p, "h", 1000, 1000);
        progress_update(p, "l", 10, 0);
        progress_free(p);
        fflush(f);
        fseek(f, 0, SEEK_SET);
        char buf[4096];
        size_t n = fread(buf, 1, sizeof buf - 1, f);
        buf[n] = 0;
        fclose(f);
        if (mode == 0) {
            CHECK_MSG(strstr(buf, "\r\033[K") && strstr(buf, "100.0%") && strstr(buf, "1000/1000") &&
                      strstr(buf, "l ") && buf[n - 1] == '\n', "tty: '%s'", buf);
        } else {
            /* plain lines only every PROGRESS_LOG_SECONDS; disabled: nothing */
            CHECK_MSG(n == 0, "mode %d wrote '%s'", mode, buf);
        }
    }
    char b[16];
    CHECK(!strcmp(progress_fmt_count(b, sizeof b, 1310000), "1.31M"));
    CHECK(!strcmp(progress_fmt_count(b, sizeof b, 999), "999"));
}

/* A long step inside a stage: progress_tick draws the stage again with the time spent and the
 * detail, before any rate is known; progress_message prints a line above the bar and draws the
 * bar again; a log gets no tick line before PROGRESS_LOG_SECONDS. */
TEST(setup, progress_tick_detail_message) {
    char path[1024];
    tmp_path(path, sizeof path, "progress_tick.txt");
    for (int mode = 0; mode < 2; mode++) {
        FILE *f = fopen(path, "w+");
        REQUIRE(f);
        progress *p = progress_new(f, mode == 0 ? 1 : 0, true);
        REQUIRE(p);
        progress_tick(p); /* no stage yet: nothing */
        progress_detail(p, "partition 0: MSM L");
        progress_update(p, "proving", 0, 2);
        struct timespec ts = {0, 150 * 1000000L};
        nanosleep(&ts, NULL);
        progress_tick(p);
        progress_message(p, "a line of its own");
        progress_free(p);
        fflush(f);
        fseek(f, 0, SEEK_SET);
        char buf[4096];
        size_t n = fread(buf, 1, sizeof buf - 1, f);
        buf[n] = 0;
        fclose(f);
        if (mode == 0) {
            char *tick = strstr(buf, "step 0/2"), *msg = strstr(buf, "a line of its own\n");
            CHECK_MSG(tick && strstr(buf, "so far  partition 0: MSM L") && msg && tick < msg &&
                          strstr(msg, "partition 0: MSM L"), "tty: '%s'", buf);
        } else {
            CHECK_MSG(!strcmp(buf, "a line of its own\n"), "plain: '%s'", buf);
        }
    }
}

/* Small chunks (many fixed-base calls, writes overlapped with computing) give the same bytes as
 * the default chunking, for .params, .vk and .zkey. */
TEST(setup, chunked_writes_equal_default) {
    synthetic_params sp;
    synthetic_params_default(&sp, 900);
    sp.n_public = 3;
    sp.seed = test_rand64();
    r1cs cs;
    cuzk_error e = {0};
    REQUIRE(synthetic_r1cs(&cs, &sp, &e) == CUZK_OK);
    uint64_t seed = test_rand64();
    groth16_toxic tw;
    REQUIRE(groth16_toxic_draw(&tw, &seed, &e) == CUZK_OK);
    char p[2][1024], v[2][1024], z[2][1024];
    for (int c = 0; c < 2; c++) {
        char name[64];
        snprintf(name, sizeof name, "chunk%d.params", c);
        tmp_path(p[c], sizeof p[c], name);
        snprintf(name, sizeof name, "chunk%d.vk", c);
        tmp_path(v[c], sizeof v[c], name);
        snprintf(name, sizeof name, "chunk%d.zkey", c);
        tmp_path(z[c], sizeof z[c], name);
        cuzk_setup_timings t = {0};
        groth16_setup_run run = {.nthreads = c ? 3 : 2, .t = &t, .chunk_points = c ? 300 : 0};
        groth16_params_sink sink;
        groth16_params_file_sink *fs;
        REQUIRE(groth16_params_file_sink_open(&fs, &sink, p[c], v[c], &run, &e) == CUZK_OK);
        cuzk_status st = groth16_setup_params(&cs, &tw, &sink, &run, &e);
        CHECK_MSG(st == CUZK_OK, "%s", e.msg);
        REQUIRE(groth16_params_file_sink_close(fs, NULL, NULL, &e) == CUZK_OK);
        CHECK_MSG(groth16_setup_zkey(&cs, &tw, z[c], NULL, &run, &e) == CUZK_OK, "%s", e.msg);
        /* every stage was timed */
        const char *want[] = {"scalars", "vk+ic", "h", "l", "a", "b_g1", "b_g2", "write", "zkey scalars", "zkey h", "zkey write"};
        for (size_t i = 0; i < sizeof want / sizeof *want; i++) {
            bool found = false;
            for (int k = 0; k < t.n_stages; k++) found |= !strcmp(t.stage[k].name, want[i]);
            CHECK_MSG(found, "no stage %s", want[i]);
        }
    }
    groth16_toxic_wipe(&tw);
    CHECK_MSG(same_bytes(p[0], p[1]), "chunked .params differ");
    CHECK_MSG(same_bytes(v[0], v[1]), "chunked .vk differ");
    CHECK_MSG(same_bytes(z[0], z[1]), "chunked .zkey differ");
    bellperson_params bp;
    CHECK_MSG(bellperson_params_load(&bp, p[1], false, &e) == CUZK_OK, "%s", e.msg);
    /* in memory, every chunk copied into place on all threads (the path of large chunks): the
     * same points as the file */
    bellperson_params m;
    setup_test_set_parallel_copy_min(1);
    cuzk_status st = groth16_setup_bellperson(&m, &cs, &seed, 3, &e);
    setup_test_set_parallel_copy_min(0);
    CHECK_MSG(st == CUZK_OK, "%s", e.msg);
    if (st == CUZK_OK) {
        CHECK(bp.n_h == m.n_h && bp.n_l == m.n_l && bp.n_a == m.n_a && bp.n_b_g1 == m.n_b_g1 && bp.n_b_g2 == m.n_b_g2);
        if (bp.n_h == m.n_h && bp.n_l == m.n_l && bp.n_a == m.n_a && bp.n_b_g1 == m.n_b_g1 && bp.n_b_g2 == m.n_b_g2) {
            CHECK_MEM(bp.h, m.h, m.n_h * sizeof *m.h);
            CHECK_MEM(bp.l, m.l, m.n_l * sizeof *m.l);
            CHECK_MEM(bp.a, m.a, m.n_a * sizeof *m.a);
            CHECK_MEM(bp.b_g1, m.b_g1, m.n_b_g1 * sizeof *m.b_g1);
            CHECK_MEM(bp.b_g2, m.b_g2, m.n_b_g2 * sizeof *m.b_g2);
        }
        bellperson_params_free(&m);
    }
    bellperson_params_free(&bp);
    r1cs_free(&cs);
}

/* `cuzk setup circuit.r1cs --zkey out.zkey`: the .zkey alone equals the one written next to the
 * .params from the same seed; one of .params/.vk without the other is a usage error. */
TEST(setup, zkey_alone_equals_zkey_with_params) {
    char par[1024], vk[1024], zk[1024], zk2[1024];
    cuzk_error e = {0};
    uint64_t seed = test_rand64();
    REQUIRE(setup_fixture("merkle_mimc5", "both", &seed, 2, true, par, vk, zk, NULL, &e) == CUZK_OK);
    tmp_path(zk2, sizeof zk2, "alone.zkey");
    cuzk_setup_opts o;
    cuzk_setup_opts_init(&o);
    o.seed = &seed;
    o.nthreads = 1;
    o.backend = CUZK_BACKEND_CPU;
    o.zkey_path = zk2;
    cuzk_setup_timings t = {0};
    REQUIRE(cuzk_setup(test_fixture("bls12381/merkle_mimc5/circuit.r1cs"), NULL, NULL, &o, &t, &e) == CUZK_OK);
    CHECK(t.params_bytes == 0 && t.vk_bytes == 0 && t.zkey_bytes > 0);
    CHECK_MSG(same_bytes(zk, zk2), "the zkey alone differs from the zkey written with the .params");
    CHECK_EQ_INT(cuzk_setup(test_fixture("bls12381/merkle_mimc5/circuit.r1cs"), par, NULL, &o, NULL, &e), CUZK_ERR_ARG);
    CHECK_EQ_INT(cuzk_setup(test_fixture("bls12381/merkle_mimc5/circuit.r1cs"), NULL, vk, &o, NULL, &e), CUZK_ERR_ARG);
    o.zkey_path = NULL;
    CHECK_EQ_INT(cuzk_setup(test_fixture("bls12381/merkle_mimc5/circuit.r1cs"), NULL, NULL, &o, NULL, &e), CUZK_ERR_ARG);
    char z3[1024];
    tmp_path(z3, sizeof z3, "alone_cli.zkey");
    CHECK_MSG(cli("setup -q --seed %llu --threads 3 '%s' --zkey '%s'", (unsigned long long)seed,
                  test_fixture("bls12381/merkle_mimc5/circuit.r1cs"), z3) == 0, "%s", g_log);
    CHECK_MSG(same_bytes(zk, z3), "cuzk setup --zkey alone: other bytes");
}
