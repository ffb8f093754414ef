/* GPU suite: every device kernel against the CPU reference (src/ff, src/poly, src/ec, src/msm) on
 * fresh random and adversarial inputs. Skips cleanly without CUDA at build time or without a
 * device at run time (CI has nvcc but no GPU). */
#include "test.h"

#ifndef CUZK_HAVE_CUDA

TEST(gpu, available) { SKIP(TEST_NO_GPU); }

#else

#include <stdlib.h>

#include "cuda/gpu.h"
#include "cuda/gpu_r1cs.h"
#include "gpu_msm_test.h"
#include "test_csr.h"
#include "curves/bls12_381/curve.h"


static void check_status(cuzk_status st, const cuzk_error *e, const char *what) {
    CHECK_MSG(st == CUZK_OK, "%s: %s (%s, cuda %d)", what, cuzk_status_str(st), e->msg, e->cuda_error);
}

TEST(gpu, info) {
    NEED_GPU();
    char buf[256];
    cuzk_error e = {0};
    cuzk_status st = gpu_device_info(0, buf, sizeof buf, &e);
    check_status(st, &e, "gpu_device_info");
    printf("  device 0: %s\n", buf);
}

TEST(gpu, bad_args) {
    NEED_GPU();
    cuzk_error e = {0};
    CHECK(gpu_ntt(NULL, 1, 0, GPU_NTT_FORWARD, GPU_ROOTS_BELLPERSON, NULL, &e) == CUZK_ERR_ARG);
    CHECK(gpu_ntt(NULL, 1, 29, GPU_NTT_FORWARD, GPU_ROOTS_BELLPERSON, NULL, &e) == CUZK_ERR_ARG);
    CHECK(gpu_ntt(NULL, 0, 5, GPU_NTT_FORWARD, GPU_ROOTS_BELLPERSON, NULL, &e) == CUZK_OK);
    CHECK(gpu_g1_msm(NULL, NULL, NULL, 0, &e) == CUZK_ERR_ARG);
}

/* ---- field arithmetic ------------------------------------------------------------------- */

/* n values: edge values first (0, 1, 2, m-1, m-2, R-ish), then random below m. */
static void fill_fp(fp *v, size_t n) {
    static const uint64_t m[6] = BLS12_381_FP_MODULUS;
    for (size_t i = 0; i < n; i++) {
        uint64_t t[6];
        test_rand_bytes(t, sizeof t);
        fp_mod(v[i].l, t);
    }
    if (n >= 6) {
        fp_zero(&v[0]);
        fp_one(&v[1]);
        memset(&v[2], 0, sizeof v[2]); v[2].l[0] = 1;     /* R^-1 as an element */
        memcpy(v[3].l, m, sizeof m); v[3].l[0] -= 1;      /* m - 1 */
        memcpy(v[4].l, m, sizeof m); v[4].l[0] -= 2;      /* m - 2 */
        fp_neg(&v[5], &v[1]);                             /* -1 */
    }
}
static void fill_fr(fr *v, size_t n) {
    static const uint64_t m[4] = BLS12_381_FR_MODULUS;
    for (size_t i = 0; i < n; i++) {
        uint64_t t[4];
        test_rand_bytes(t, sizeof t);
        fr_mod(v[i].l, t);
    }
    if (n >= 6) {
        fr_zero(&v[0]);
        fr_one(&v[1]);
        memset(&v[2], 0, sizeof v[2]); v[2].l[0] = 1;
        memcpy(v[3].l, m, sizeof m); v[3].l[0] -= 1;
        memcpy(v[4].l, m, sizeof m); v[4].l[0] -= 2;
        fr_neg(&v[5], &v[1]);
    }
}

#define FIELD_TEST(F, GF, LIMBS)                                                                 \
    TEST(gpu, F##_ops) {                                                                         \
        NEED_GPU();                                                                              \
        const size_t E = 6, n = E * E + (size_t)test_iters(20000);                               \
        F *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b), *o = malloc(n * sizeof *o);     \
        REQUIRE(a && b && o);                                                                    \
        fill_##F(a, n);                                                                          \
        fill_##F(b, n);                                                                          \
        F edge[6];                                                                               \
        memcpy(edge, a, sizeof edge);                                                            \
        for (size_t i = 0; i < E * E; i++) { a[i] = edge[i / E]; b[i] = edge[i % E]; }           \
        static const char *names[] = {"add", "sub", "mul", "sqr", "neg"};                        \
        for (int op = GPU_OP_ADD; op <= GPU_OP_NEG; op++) {                                      \
            cuzk_error e = {0};                                                                  \
            memset(o, 0xa5, n * sizeof *o); /* poison */                                         \
            cuzk_status st = gpu_field_op_array(GF, (gpu_field_op)op, o[0].l, a[0].l, b[0].l, n, &e); \
            check_status(st, &e, names[op]);                                                     \
            if (st != CUZK_OK) break;                                                            \
            size_t bad = 0, first = 0;                                                           \
            for (size_t i = 0; i < n; i++) {                                                     \
                F r;                                                                             \
                switch (op) {                                                                    \
                case GPU_OP_ADD: F##_add(&r, &a[i], &b[i]); break;                               \
                case GPU_OP_SUB: F##_sub(&r, &a[i], &b[i]); break;                               \
                case GPU_OP_MUL: F##_mul(&r, &a[i], &b[i]); break;                               \
                case GPU_OP_SQR: F##_sqr(&r, &a[i]); break;                                      \
                default: F##_neg(&r, &a[i]); break;                                              \
                }                                                                                \
                if (!F##_eq(&r, &o[i])) { if (!bad) first = i; bad++; }                          \
            }                                                                                    \
            CHECK_MSG(bad == 0, #F " %s: %zu of %zu wrong, first at %zu", names[op], bad, n, first); \
        }                                                                                        \
        free(a); free(b); free(o);                                                               \
    }
FIELD_TEST(fp, GPU_FIELD_FP, 6)
FIELD_TEST(fr, GPU_FIELD_FR, 4)

/* ---- NTT --------------------------------------------------------------------------------- */

/* naive DFT: out_j = sum_i a_i w^(ij) */
static void naive_dft(fr *out, const fr *a, size_t m, const fr *w) {
    fr wj, x;
    fr_one(&wj);
    for (size_t j = 0; j < m; j++) {
        fr acc, p;
        fr_zero(&acc);
        fr_one(&p);
        for (size_t i = 0; i < m; i++) {
            fr_mul(&x, &a[i], &p);
            fr_add(&acc, &acc, &x);
            fr_mul(&p, &p, &wj);
        }
        out[j] = acc;
        fr_mul(&wj, &wj, w);
    }
}

static void ntt_case(int log_m, size_t batch, ntt_roots roots, int variant) {
    const size_t m = (size_t)1 << log_m;
    fr *a = malloc(batch * m * sizeof *a), *g = malloc(batch * m * sizeof *g);
    REQUIRE(a && g);
    fill_fr(a, batch * m);
    memcpy(g, a, batch * m * sizeof *a);
    ntt_domain d;
    REQUIRE(ntt_domain_init(&d, log_m, roots) == CUZK_OK);
    fr shift;
    fr_from_u64(&shift, 7 + (uint64_t)(test_rand64() % 1000));
    const bool coset = variant >= 2;
    const gpu_ntt_dir dir = (variant & 1) ? GPU_NTT_INVERSE : GPU_NTT_FORWARD;
    cuzk_error e = {0};
    cuzk_status st = gpu_ntt((struct fr *)g, batch, log_m, dir, (gpu_roots)roots, coset ? &shift : NULL, &e);
    check_status(st, &e, "gpu_ntt");
    size_t bad = 0;
    for (size_t v = 0; v < batch && st == CUZK_OK; v++) {
        fr *av = a + v * m;
        switch (variant) {
        case 0: ntt_forward(&d, av, 0); break;
        case 1: ntt_inverse(&d, av, 0); break;
        case 2: ntt_coset_forward(&d, av, &shift, 0); break;
        default: ntt_coset_inverse(&d, av, &shift, 0); break;
        }
        for (size_t i = 0; i < m; i++) bad += !fr_eq(&av[i], &g[v * m + i]);
    }
    CHECK_MSG(bad == 0, "ntt log_m %d batch %zu roots %d variant %d: %zu wrong", log_m, batch, (int)roots,
              variant, bad);
    ntt_domain_free(&d);
    free(a);
    free(g);
}

TEST(gpu, ntt_naive_dft) {
    NEED_GPU();
    for (int roots = 0; roots < 2; roots++) {
        for (int log_m = 1; log_m <= 6; log_m++) {
            const size_t m = (size_t)1 << log_m;
            fr a[64], g[64], r[64];
            fill_fr(a, m);
            memcpy(g, a, sizeof a);
            ntt_domain d;
            REQUIRE(ntt_domain_init(&d, log_m, (ntt_roots)roots) == CUZK_OK);
            naive_dft(r, a, m, &d.omega);
            cuzk_error e = {0};
            check_status(gpu_ntt((struct fr *)g, 1, log_m, GPU_NTT_FORWARD, (gpu_roots)roots, NULL, &e), &e, "gpu_ntt");
            CHECK_MSG(memcmp(r, g, m * sizeof *g) == 0, "naive DFT mismatch roots %d log_m %d", roots, log_m);
            ntt_domain_free(&d);
        }
    }
}

TEST(gpu, ntt_vs_cpu) {
    NEED_GPU();
    for (int roots = 0; roots < 2; roots++)
        for (int log_m = 1; log_m <= 20; log_m++) {
            if (log_m > 13 && log_m % 2 && log_m != 19) continue; /* keep the run short */
            size_t batch = log_m <= 10 ? 5 : log_m <= 16 ? 3 : 1;
            for (int variant = 0; variant < 4; variant++) ntt_case(log_m, batch, (ntt_roots)roots, variant);
        }
}

TEST(gpu, ntt_roundtrip_2_22) {
    NEED_GPU();
    const int log_m = 22;
    const size_t m = (size_t)1 << log_m;
    fr *a = malloc(m * sizeof *a), *g = malloc(m * sizeof *g);
    REQUIRE(a && g);
    fill_fr(a, m);
    memcpy(g, a, m * sizeof *a);
    cuzk_error e = {0};
    fr shift;
    fr_from_u64(&shift, 7);
    check_status(gpu_ntt((struct fr *)g, 1, log_m, GPU_NTT_FORWARD, GPU_ROOTS_SNARKJS, &shift, &e), &e, "fwd");
    CHECK(memcmp(a, g, m * sizeof *a) != 0);
    check_status(gpu_ntt((struct fr *)g, 1, log_m, GPU_NTT_INVERSE, GPU_ROOTS_SNARKJS, &shift, &e), &e, "inv");
    CHECK(memcmp(a, g, m * sizeof *a) == 0);
    free(a);
    free(g);
}

/* ---- MSM --------------------------------------------------------------------------------- */

static void naive_msm(g1_jacobian *out, const g1_affine *b, const scalar256 *s, size_t n) {
    g1_jacobian_set_infinity(out);
    for (size_t i = 0; i < n; i++) {
        g1_jacobian bj, t;
        g1_jacobian_from_affine(&bj, &b[i]);
        g1_mul_vartime(&t, &bj, s[i].l, 4);
        g1_jacobian_add(out, out, &t);
    }
}

/* GPU vs CPU g1_msm, and vs the naive sum when n is small. */
static void msm_check(const char *what, const g1_affine *b, const scalar256 *s, size_t n) {
    g1_jacobian gpu, cpu;
    cuzk_error e = {0};
    memset(&gpu, 0x5a, sizeof gpu);
    cuzk_status st = gpu_g1_msm((struct g1_jacobian *)&gpu, (const struct g1_affine *)b,
                                (const struct scalar256 *)s, n, &e);
    check_status(st, &e, what);
    if (st != CUZK_OK) return;
    if (n <= 1100) {
        naive_msm(&cpu, b, s, n);
        CHECK_MSG(g1_jacobian_eq(&gpu, &cpu), "%s (n=%zu): GPU != naive sum", what, n);
    }
    g1_msm(&cpu, b, s, n, 0);
    CHECK_MSG(g1_jacobian_eq(&gpu, &cpu), "%s (n=%zu): GPU != g1_msm", what, n);
}

TEST(gpu, msm_small) {
    NEED_GPU();
    static const size_t sizes[] = {0, 1, 2, 3, 5, 17, 100};
    g1_affine b[100];
    scalar256 s[100];
    for (size_t k = 0; k < sizeof sizes / sizeof *sizes; k++) {
        size_t n = sizes[k];
        if (n) rand_bases_g1(b, n);
        for (size_t i = 0; i < n; i++) rand_scalar(&s[i]);
        msm_check("random", b, s, n);
    }
}

TEST(gpu, msm_1000) {
    NEED_GPU();
    const size_t n = 1000;
    g1_affine *b = malloc(n * sizeof *b);
    scalar256 *s = malloc(n * sizeof *s);
    REQUIRE(b && s);
    rand_bases_g1(b, n);
    for (size_t i = 0; i < n; i++) rand_scalar(&s[i]);
    msm_check("random 1000", b, s, n);
    free(b);
    free(s);
}

TEST(gpu, msm_adversarial) {
    NEED_GPU();
    const size_t n = 1000;
    g1_affine *b = malloc(n * sizeof *b);
    scalar256 *s = malloc(n * sizeof *s);
    REQUIRE(b && s);
    static const uint64_t r[4] = BLS12_381_FR_MODULUS;
    rand_bases_g1(b, n);
    /* all zero */
    memset(s, 0, n * sizeof *s);
    msm_check("all-zero scalars", b, s, n);
    /* all one */
    for (size_t i = 0; i < n; i++) { memset(&s[i], 0, sizeof s[i]); s[i].l[0] = 1; }
    msm_check("all-one scalars", b, s, n);
    /* all r - 1 */
    for (size_t i = 0; i < n; i++) { memcpy(s[i].l, r, sizeof r); s[i].l[0] -= 1; }
    msm_check("all r-1 scalars", b, s, n);
    /* mixed 0 / 1 / r-1 / 2^k / random, with infinity bases, repeats, P next to -P */
    for (size_t i = 0; i < n; i++) {
        memset(&s[i], 0, sizeof s[i]);
        switch (i % 7) {
        case 0: break;
        case 1: s[i].l[0] = 1; break;
        case 2: memcpy(s[i].l, r, sizeof r); s[i].l[0] -= 1; break;
        case 3: s[i].l[(i / 7) % 4] = (uint64_t)1 << ((i / 28) % 64); break;
        default: rand_scalar(&s[i]); break;
        }
    }
    adversarial_bases_g1(b, n); /* infinity, repeated bases, P next to -P */
    msm_check("mixed adversarial", b, s, n);
    /* same scalar everywhere with repeated and opposite bases: P + P and P + (-P) in one bucket */
    for (size_t i = 0; i < n; i++) {
        memset(&s[i], 0, sizeof s[i]);
        s[i].l[0] = 12345;
        if (i % 2) s[i].l[0] = 0xffffffffull; /* digits of both signs */
    }
    for (size_t i = 0; i < n; i++) b[i] = b[i % 3 == 2 ? i - 1 : i];
    for (size_t i = 0; i + 1 < n; i += 4) g1_affine_neg(&b[i + 1], &b[i]);
    msm_check("equal scalars, repeated bases", b, s, n);
    free(b);
    free(s);
}

TEST(gpu, msm_65539) {
    NEED_GPU();
    const size_t n = ((size_t)1 << 16) + 3;
    g1_affine *b = malloc(n * sizeof *b);
    scalar256 *s = malloc(n * sizeof *s);
    REQUIRE(b && s);
    rand_bases_g1(b, n);
    for (size_t i = 0; i < n; i++) rand_scalar(&s[i]);
    msm_check("random 2^16+3", b, s, n);
    /* one hot bucket: every scalar equal (one bucket per window holds all n points) */
    for (size_t i = 0; i < n; i++) s[i] = s[0];
    msm_check("equal scalars 2^16+3", b, s, n);
    free(b);
    free(s);
}

/* ---- constraint system SpMV (gpu_r1cs) -------------------------------------------------- */

/* A, B, C = three random dictionary-coded matrices of one kind; on the device a = A w (plus the
 * input rows a[rows + i] = w[i]), b = B w, c = C w, zero up to m: against csr_spmv on the host,
 * with the +-1 ids given (the prover's fast path) and withheld (every nonzero through the table
 * and a product), and with a table that holds 1 twice (the second copy takes the product). */
static void r1cs_spmv_check(gpu_ctx *ctx, uint32_t rows, uint32_t n_vars, int kind) {
    const uint32_t n_inputs = n_vars < 5 ? n_vars : 5;
    const size_t m = (size_t)rows + n_inputs + 3;
    test_csr t[3];
    for (int i = 0; i < 3; i++) REQUIRE(test_csr_make(&t[i], rows, n_vars, 6, kind, i & 1));
    fr *w = malloc(n_vars * sizeof *w), *want = malloc(3 * m * sizeof *want), *got = malloc(3 * m * sizeof *got);
    REQUIRE(w && want && got);
    for (uint32_t i = 0; i < n_vars; i++) test_rand_fr(&w[i]);
    memset(want, 0, 3 * m * sizeof *want);
    for (int i = 0; i < 3; i++) csr_spmv(want + i * m, &t[i].m, w, 0);
    for (uint32_t i = 0; i < n_inputs; i++) want[rows + i] = w[i];
    fr one, minus_one;
    fr_one(&one);
    fr_neg(&minus_one, &one);
    /* a copy of B's table with 1 appended: B's nonzeros of value 1 alternate between the copies */
    csr_matrix *bm = &t[1].m;
    uint32_t b_one = csr_coef_find(bm, &one);
    fr *coef2 = malloc(((size_t)bm->n_coef + 1) * sizeof *coef2);
    uint32_t *id2 = malloc((bm->nnz + 1) * sizeof *id2);
    REQUIRE(coef2 && id2);
    if (bm->n_coef) memcpy(coef2, bm->coef, bm->n_coef * sizeof *coef2);
    coef2[bm->n_coef] = one;
    for (uint64_t k = 0; k < bm->nnz; k++) id2[k] = bm->coef_id[k] == b_one && (k & 1) ? bm->n_coef : bm->coef_id[k];
    cuzk_error e = {0};
    fr *d_w = NULL, *d_abc = NULL;
    REQUIRE(gpu_buf_alloc(ctx, (void **)&d_w, n_vars * sizeof(fr), &e) == CUZK_OK);
    REQUIRE(gpu_buf_alloc(ctx, (void **)&d_abc, 3 * m * sizeof(fr), &e) == CUZK_OK);
    check_status(gpu_copy_h2d_async(ctx, d_w, w, n_vars * sizeof(fr), &e), &e, "h2d w");
    /* modes 0-2 resident; 3-5 the same matrices streamed from host memory in row blocks of 1, 7
     * and 1000 (block 1: every row of more than one nonzero is a block alone) */
    static const uint64_t blocks[3] = {1, 7, 1000};
    for (int mode = 0; mode < 6; mode++) {
        const int streamed = mode >= 3;
        if (streamed && mode == 3 && rows > 6000) continue; /* one block per row: too many launches */
        gpu_csr_host h[3];
        for (int i = 0; i < 3; i++) {
            const csr_matrix *x = &t[i].m;
            h[i] = (gpu_csr_host){x->n_rows, x->nnz, x->row_ptr, x->col, x->coef_id, x->n_coef,
                                  (const struct fr *)x->coef, csr_coef_find(x, &one), csr_coef_find(x, &minus_one)};
            if (mode % 3 == 1) h[i].id_one = h[i].id_minus_one = UINT32_MAX;
        }
        if (mode % 3 == 2) {
            h[1].coef_id = id2;
            h[1].n_coef = bm->n_coef + 1;
            h[1].coef = (const struct fr *)coef2;
        }
        gpu_r1cs *cs = NULL;
        cuzk_status st = streamed ? gpu_r1cs_attach_host(ctx, &cs, &h[0], &h[1], &h[2], n_inputs, blocks[mode - 3], &e)
                                  : gpu_r1cs_upload(ctx, &cs, &h[0], &h[1], &h[2], n_inputs, &e);
        check_status(st, &e, streamed ? "gpu_r1cs_attach_host" : "gpu_r1cs_upload");
        if (st != CUZK_OK) break;
        CHECK(gpu_r1cs_streamed(cs) == (streamed != 0));
        size_t bytes = 0;
        for (int i = 0; i < 3; i++)
            bytes += (streamed ? 0 : ((size_t)rows + 1) * 8 + h[i].nnz * 8) + (size_t)h[i].n_coef * 32;
        CHECK_EQ_INT(gpu_r1cs_bytes(cs), bytes);
        memset(got, 0xa5, 3 * m * sizeof *got);
        check_status(gpu_memset_async(ctx, d_abc, 0xa5, 3 * m * sizeof(fr), &e), &e, "memset");
        check_status(gpu_r1cs_abc_async(ctx, d_abc, d_abc + m, d_abc + 2 * m, m, cs, d_w, &e), &e, "abc");
        check_status(gpu_copy_d2h_async(ctx, got, d_abc, 3 * m * sizeof(fr), &e), &e, "d2h abc");
        check_status(gpu_sync(ctx, &e), &e, "sync");
        size_t bad = SIZE_MAX;
        for (size_t i = 0; i < 3 * m && bad == SIZE_MAX; i++)
            if (!fr_eq(&got[i], &want[i])) bad = i;
        CHECK_MSG(bad == SIZE_MAX, "kind %d rows %u mode %d: %s[%zu] differs", kind, rows, mode,
                  bad == SIZE_MAX ? "" : bad / m == 0 ? "a" : bad / m == 1 ? "b" : "c", bad % m);
        gpu_r1cs_free(cs);
    }
    gpu_buf_free(ctx, d_w);
    gpu_buf_free(ctx, d_abc);
    check_status(gpu_sync(ctx, &e), &e, "sync");
    free(coef2); free(id2); free(w); free(want); free(got);
    for (int i = 0; i < 3; i++) test_csr_free(&t[i]);
}

TEST(gpu, r1cs_spmv_vs_cpu) {
    NEED_GPU();
    gpu_ctx *ctx = NULL;
    cuzk_error e = {0};
    cuzk_status st = gpu_ctx_create(&ctx, 0, &e);
    REQUIRE(st == CUZK_OK && ctx);
    const uint32_t sizes[] = {1, 255, 257, 5000};
    for (size_t si = 0; si < sizeof sizes / sizeof *sizes; si++)
        for (int kind = 0; kind < 3; kind++) r1cs_spmv_check(ctx, sizes[si], 1 + (uint32_t)(test_rand64() % 3000), kind);
    r1cs_spmv_check(ctx, 1 + (uint32_t)(test_rand64() % 70000), 100000, TEST_COEF_MIXED);
    /* misuse */
    test_csr t;
    REQUIRE(test_csr_make(&t, 10, 10, 3, TEST_COEF_SMALL, true));
    gpu_csr_host h = {t.m.n_rows, t.m.nnz, t.m.row_ptr, t.m.col, t.m.coef_id, t.m.n_coef, (const struct fr *)t.m.coef,
                      t.m.n_coef, UINT32_MAX};
    gpu_r1cs *cs = NULL;
    CHECK(gpu_r1cs_upload(ctx, &cs, &h, &h, &h, 0, &e) == CUZK_ERR_ARG && cs == NULL);
    h.id_one = UINT32_MAX;
    h.n_coef = 0;
    CHECK(t.m.nnz == 0 || (gpu_r1cs_upload(ctx, &cs, &h, &h, &h, 0, &e) == CUZK_ERR_ARG && cs == NULL));
    CHECK(t.m.nnz == 0 || (gpu_r1cs_attach_host(ctx, &cs, &h, &h, &h, 0, 0, &e) == CUZK_ERR_ARG && cs == NULL));
    /* row offsets that do not end at nnz (a corrupt host CSR) */
    h.n_coef = t.m.n_coef;
    h.nnz = t.m.nnz + 1;
    CHECK(gpu_r1cs_attach_host(ctx, &cs, &h, &h, &h, 0, 0, &e) == CUZK_ERR_ARG && cs == NULL);
    test_csr_free(&t);
    gpu_ctx_destroy(ctx);
}

#endif
