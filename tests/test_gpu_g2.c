/* gpu_g2 suite: the G2 MSM on the device (src/cuda/gpu.h: gpu_g2_msm, gpu_g2_bases_*,
 * gpu_g2_msm_run; the G1 MSM's kernels instantiated over G2, src/cuda/gpu_msm.cu) against the CPU
 * reference (src/msm/msm.h g2_msm, canonical scalars; bn254_g2_msm for BN254), every result
 * compared as a point (affine), on random and adversarial inputs: n = 0, 1, 2, 3, 17, 1000, 4099,
 * 65539; scalars 0 / 1 / 2 / r-1 / random and their mixes; infinity, repeated and opposite bases
 * (the formulas' doubling and infinity branches: P + P and P + (-P) inside a bucket, in the ones
 * sum and in the trees); Montgomery and canonical scalars; index and offset; several jobs per call;
 * chunks, forced windows, both accumulations; heavy buckets; bad arguments.
 * Skips cleanly without CUDA at build time or without a device at run time. */
#include "test.h"

#ifndef CUZK_HAVE_CUDA

TEST(gpu_g2, available) { SKIP(TEST_NO_GPU); }

#else

#include <stdlib.h>

#include "cuda/gpu.h"
#include "curves/bls12_381/curve.h"
#include "curves/bn254/curve.h"
#include "gpu_msm_test.h"

/* inputs: tests/gpu_msm_test.h */

/* The tuning check_case gives its jobs (zeros: automatic). */
static gpu_msm_tuning g_tuning;


/* One job over resident bases: sum_{k<n} s[idx ? idx[k] : k] * b[off + k] (s: ns canonical
 * scalars), on the GPU in both scalar forms, checked against g2_msm and the classification
 * counts; the canonical run's stats into *stats_out. */
static void check_case(gpu_ctx *ctx, const char *what, const g2_affine *b, size_t nb, size_t off,
                       const scalar256 *s, size_t ns, const uint32_t *idx, size_t n, gpu_msm_stats *stats_out) {
    cuzk_error e = {0};
    gpu_g2_bases *gb = NULL;
    cuzk_status st = gpu_g2_bases_upload(ctx, &gb, (const struct g2_affine *)b, nb, &e);
    CHECK_MSG(st == CUZK_OK, "%s: upload: %s", what, e.msg);
    if (st != CUZK_OK) return;
    CHECK(gpu_g2_bases_count(gb) == nb && gpu_g2_bases_bytes(gb) == nb * sizeof(g2_affine));
    g2_jacobian ref;
    ref_msm_g2(&ref, b + off, s, idx, n);
    size_t c[3];
    count_kinds(s, idx, n, c);
    void *d_idx = idx ? upload_u32(ctx, idx, n) : NULL;
    for (int mont = 0; mont < 2; mont++) {
        void *d_s = upload_scalars(ctx, s, ns, mont, CUZK_CURVE_BLS12_381);
        g2_jacobian got;
        memset(&got, 0x5a, sizeof got);
        gpu_g2_msm_job job = {.bases = gb, .base_offset = off, .n = n, .d_scalars = d_s,
                              .form = mont ? GPU_SCALARS_MONTGOMERY : GPU_SCALARS_CANONICAL,
                              .d_index = d_idx, .out = (struct g2_jacobian *)&got, .tuning = g_tuning};
        gpu_msm_stats stats;
        st = gpu_g2_msm_run(ctx, &job, 1, &stats, &e);
        CHECK_MSG(st == CUZK_OK, "%s (n=%zu, %s): %s (%s)", what, n, mont ? "mont" : "canon", cuzk_status_str(st),
                  e.msg);
        if (st == CUZK_OK) {
            CHECK_MSG(same_point_g2(&got, &ref), "%s (n=%zu, %s): GPU != g2_msm", what, n, mont ? "mont" : "canon");
            CHECK_MSG(stats.n_zero == c[0] && stats.n_one == c[1] && stats.n_other == c[2],
                      "%s: counts %zu/%zu/%zu, want %zu/%zu/%zu", what, stats.n_zero, stats.n_one, stats.n_other, c[0],
                      c[1], c[2]);
            if (!mont && stats_out) *stats_out = stats;
        }
        gpu_buf_free(ctx, d_s);
    }
    gpu_buf_free(ctx, d_idx);
    gpu_g2_bases_free(gb);
}

/* ---- the host-array form ---------------------------------------------------------------------- */

/* gpu_g2_msm against g2_msm at the sizes of the brief, random scalars and a 0/1/2/r-1 mix */
TEST(gpu_g2, host_array_sizes) {
    NEED_GPU();
    static const size_t sizes[] = {0, 1, 2, 3, 17, 1000, 4099, 65539};
    const size_t nmax = 65539;
    g2_affine *b = malloc(nmax * sizeof *b);
    scalar256 *s = malloc(nmax * sizeof *s);
    REQUIRE(b && s);
    rand_bases_g2(b, nmax);
    for (size_t t = 0; t < sizeof sizes / sizeof *sizes; t++) {
        const size_t n = sizes[t];
        for (int pass = 0; pass < 2; pass++) {
            if (pass == 0) for (size_t i = 0; i < n; i++) rand_scalar(&s[i]);
            else for (size_t i = 0; i < n; i++) scalar_of_kind(&s[i], (int)(test_rand64() % 5));
            g2_jacobian ref, got;
            memset(&got, 0x5a, sizeof got);
            g2_msm(&ref, b, s, n, 0);
            cuzk_error e = {0};
            cuzk_status st = gpu_g2_msm((struct g2_jacobian *)&got, (const struct g2_affine *)b,
                                        (const struct scalar256 *)s, n, &e);
            CHECK_MSG(st == CUZK_OK, "gpu_g2_msm n=%zu: %s", n, e.msg);
            if (st == CUZK_OK)
                CHECK_MSG(same_point_g2(&got, &ref), "gpu_g2_msm n=%zu (%s): GPU != g2_msm", n, pass ? "kinds" : "random");
            if (n == 0 && st == CUZK_OK) CHECK(g2_jacobian_is_infinity(&got));
        }
    }
    free(b);
    free(s);
}

/* ---- the resident form -------------------------------------------------------------------------- */

TEST(gpu_g2, small_sizes) {
    NEED_GPU();
    gpu_ctx *ctx = new_ctx();
    REQUIRE(ctx);
    static const size_t sizes[] = {0, 1, 2, 3, 4, 5, 7, 17, 31, 100, 129, 257};
    g2_affine b[257];
    scalar256 s[257];
    for (size_t t = 0; t < sizeof sizes / sizeof *sizes; t++) {
        const size_t n = sizes[t];
        rand_bases_g2(b, n ? n : 1);
        for (size_t i = 0; i < n; i++) rand_scalar(&s[i]);
        check_case(ctx, "random", b, n, 0, s, n, NULL, n, NULL);
        mix_scalars(s, n, 0.6);
        check_case(ctx, "mixed", b, n, 0, s, n, NULL, n, NULL);
    }
    /* single scalars 0 / 1 / 2 / r-1 / random on one base, and on infinity */
    for (int kind = K_RANDOM; kind <= K_TWO; kind++) {
        scalar_of_kind(&s[0], kind);
        check_case(ctx, "single", b, 1, 0, s, 1, NULL, 1, NULL);
    }
    g2_affine_set_infinity(&b[0]);
    rand_scalar(&s[0]);
    check_case(ctx, "single, base at infinity", b, 1, 0, s, 1, NULL, 1, NULL);
    /* two bases: P + P and P + (-P) with every scalar pair kind (the doubling and infinity
     * branches with one or two points) */
    rand_bases_g2(b, 1);
    for (int k0 = K_RANDOM; k0 <= K_TWO; k0++)
        for (int k1 = K_RANDOM; k1 <= K_TWO; k1++) {
            scalar_of_kind(&s[0], k0);
            scalar_of_kind(&s[1], k1);
            if (k0 == K_RANDOM && k1 == K_RANDOM) s[1] = s[0];
            b[1] = b[0];
            check_case(ctx, "P, P", b, 2, 0, s, 2, NULL, 2, NULL);
            g2_affine_neg(&b[1], &b[0]);
            check_case(ctx, "P, -P", b, 2, 0, s, 2, NULL, 2, NULL);
        }
    gpu_ctx_destroy(ctx);
}

TEST(gpu_g2, adversarial) {
    NEED_GPU();
    gpu_ctx *ctx = new_ctx();
    REQUIRE(ctx);
    const size_t n = 4099;
    g2_affine *b = malloc(n * sizeof *b);
    scalar256 *s = malloc(n * sizeof *s);
    REQUIRE(b && s);
    rand_bases_g2(b, n);
    gpu_msm_stats st;

    for (size_t i = 0; i < n; i++) small_scalar(&s[i], 0);
    check_case(ctx, "all zero", b, n, 0, s, n, NULL, n, &st);
    CHECK(st.n_zero == n && st.tail_chunks == 0);
    for (size_t i = 0; i < n; i++) small_scalar(&s[i], 1);
    check_case(ctx, "all one", b, n, 0, s, n, NULL, n, &st);
    CHECK(st.n_one == n && st.tail_chunks == 0);
    for (size_t i = 0; i < n; i++) r_minus(&s[i], 1);
    check_case(ctx, "all r-1", b, n, 0, s, n, NULL, n, NULL);
    for (size_t i = 0; i < n; i++) small_scalar(&s[i], 2);
    check_case(ctx, "all two", b, n, 0, s, n, NULL, n, NULL);
    for (size_t i = 0; i < n; i++) small_scalar(&s[i], i & 1);
    check_case(ctx, "alternating 0/1", b, n, 0, s, n, NULL, n, NULL);
    mix_scalars(s, n, 0.95);
    check_case(ctx, "95% 0/1", b, n, 0, s, n, NULL, n, NULL);
    /* every kind, with infinity bases, repeated bases, P next to -P */
    for (size_t i = 0; i < n; i++) scalar_of_kind(&s[i], (int)(i % 5));
    for (size_t i = 0; i < n; i += 13) g2_affine_set_infinity(&b[i]);
    for (size_t i = 5; i + 1 < n; i += 11) b[i + 1] = b[i];
    for (size_t i = 8; i + 1 < n; i += 17) g2_affine_neg(&b[i + 1], &b[i]);
    check_case(ctx, "kinds, inf/repeated/opposite bases", b, n, 0, s, n, NULL, n, NULL);
    for (size_t i = 0; i < n; i++) small_scalar(&s[i], 1);
    check_case(ctx, "ones, inf/repeated/opposite bases", b, n, 0, s, n, NULL, n, NULL);
    /* one base everywhere: the ones sum and every bucket double (mixed and XYZZ doubling) */
    for (size_t i = 1; i < n; i++) b[i] = b[1];
    check_case(ctx, "ones, one repeated base", b, n, 0, s, n, NULL, n, NULL);
    for (size_t i = 0; i < n; i++) small_scalar(&s[i], 2 + (i & 3));
    check_case(ctx, "small scalars, one repeated base", b, n, 0, s, n, NULL, n, NULL);
    mix_scalars(s, n, 0.3);
    check_case(ctx, "mixed, one repeated base", b, n, 0, s, n, NULL, n, NULL);
    /* alternating P, -P: sums that cancel to infinity and restart */
    for (size_t i = 1; i < n; i += 2) g2_affine_neg(&b[i], &b[i - 1]);
    mix_scalars(s, n, 0.9);
    check_case(ctx, "mixed, P and -P", b, n, 0, s, n, NULL, n, NULL);
    for (size_t i = 0; i < n; i++) small_scalar(&s[i], 1);
    check_case(ctx, "ones, P and -P", b, n, 0, s, n, NULL, n, NULL);
    scalar256 common;
    rand_scalar(&common);
    for (size_t i = 0; i < n; i++) s[i] = common;
    check_case(ctx, "equal scalars, P and -P", b, n, 0, s, n, NULL, n, NULL);
    /* equal scalars (one hot bucket per window), both digit signs */
    rand_bases_g2(b, n);
    for (size_t i = 0; i < n; i++) small_scalar(&s[i], (i % 2) ? 0xffffffffull : 12345);
    check_case(ctx, "equal small scalars", b, n, 0, s, n, NULL, n, NULL);
    /* all bases at infinity */
    for (size_t i = 0; i < n; i++) g2_affine_set_infinity(&b[i]);
    mix_scalars(s, n, 0.5);
    check_case(ctx, "all bases infinity", b, n, 0, s, n, NULL, n, &st);
    free(b);
    free(s);
    gpu_ctx_destroy(ctx);
}

TEST(gpu_g2, index_and_offset) {
    NEED_GPU();
    gpu_ctx *ctx = new_ctx();
    REQUIRE(ctx);
    const size_t nb = 3001, ns = 997, n = 2500, off = 333;
    g2_affine *b = malloc(nb * sizeof *b);
    scalar256 *s = malloc(ns * sizeof *s);
    uint32_t *idx = malloc(n * sizeof *idx);
    REQUIRE(b && s && idx);
    rand_bases_g2(b, nb);
    mix_scalars(s, ns, 0.7);
    for (size_t k = 0; k < n; k++) idx[k] = (uint32_t)(test_rand64() % ns); /* gathers with repeats */
    check_case(ctx, "gather + offset", b, nb, off, s, ns, idx, n, NULL);
    for (size_t k = 0; k < n; k++) idx[k] = (uint32_t)((k * 7) % 13); /* few scalars, many repeats */
    check_case(ctx, "gather of 13", b, nb, nb - n, s, ns, idx, n, NULL);
    check_case(ctx, "offset, no index", b, nb, 17, s, ns, NULL, ns, NULL);
    check_case(ctx, "offset at the end, n = 0", b, nb, nb, s, ns, NULL, 0, NULL);
    free(b);
    free(s);
    free(idx);
    gpu_ctx_destroy(ctx);
}

TEST(gpu_g2, several_jobs) {
    NEED_GPU();
    cuzk_error e = {0};
    gpu_ctx *ctx = new_ctx();
    REQUIRE(ctx);
    const size_t nb = 5000;
    g2_affine *b = malloc(nb * sizeof *b);
    scalar256 *s = malloc(nb * sizeof *s);
    REQUIRE(b && s);
    rand_bases_g2(b, nb);
    mix_scalars(s, nb, 0.8);
    gpu_g2_bases *gb = NULL;
    CHECK_OK(gpu_g2_bases_upload(ctx, &gb, (const struct g2_affine *)b, nb, &e));
    REQUIRE(gb);
    void *d_c = upload_scalars(ctx, s, nb, false, CUZK_CURVE_BLS12_381);
    void *d_m = upload_scalars(ctx, s, nb, true, CUZK_CURVE_BLS12_381);
    enum { J = 5 };
    const size_t offs[J] = {0, 100, 4999, 0, 2500}, ns[J] = {5000, 1000, 1, 0, 2500};
    g2_jacobian got[J], ref[J];
    gpu_g2_msm_job jobs[J];
    size_t tot[3] = {0, 0, 0};
    for (int j = 0; j < J; j++) {
        jobs[j] = (gpu_g2_msm_job){.bases = gb, .base_offset = offs[j], .n = ns[j],
                                   .d_scalars = (const uint8_t *)(j % 2 ? d_m : d_c) + 32 * offs[j],
                                   .form = j % 2 ? GPU_SCALARS_MONTGOMERY : GPU_SCALARS_CANONICAL,
                                   .out = (struct g2_jacobian *)&got[j]};
        ref_msm_g2(&ref[j], b + offs[j], s + offs[j], NULL, ns[j]);
        size_t c[3];
        count_kinds(s + offs[j], NULL, ns[j], c);
        for (int k = 0; k < 3; k++) tot[k] += c[k];
    }
    gpu_msm_stats st;
    cuzk_status rc = gpu_g2_msm_run(ctx, jobs, J, &st, &e);
    CHECK_MSG(rc == CUZK_OK, "gpu_g2_msm_run: %s", e.msg);
    for (int j = 0; j < J && rc == CUZK_OK; j++) CHECK_MSG(same_point_g2(&got[j], &ref[j]), "job %d wrong", j);
    CHECK(g2_jacobian_is_infinity(&got[3]));
    CHECK(st.n_zero == tot[0] && st.n_one == tot[1] && st.n_other == tot[2]);
    CHECK(st.total_ms > 0 && st.total_ms >= st.classify_ms);
    printf("  stats: classify %.3f ones %.3f tail %.3f (accumulate %.3f reduce %.3f) total %.3f ms\n", st.classify_ms,
           st.ones_ms, st.tail_ms, st.tail_accum_ms, st.tail_reduce_ms, st.total_ms);
    gpu_buf_free(ctx, d_c);
    gpu_buf_free(ctx, d_m);
    gpu_g2_bases_free(gb);
    free(b);
    free(s);
    gpu_ctx_destroy(ctx);
}

/* Chunked tails, forced windows, and the accumulation switch (G2 always accumulates by tasks:
 * the runs experiment is compiled for G1 only, so both settings must give the tasks' result). */
TEST(gpu_g2, chunks_windows_accumulations) {
    NEED_GPU();
    gpu_ctx *ctx = new_ctx();
    REQUIRE(ctx);
    const size_t n = 5003;
    g2_affine *b = malloc(n * sizeof *b);
    scalar256 *s = malloc(n * sizeof *s);
    REQUIRE(b && s);
    rand_bases_g2(b, n);
    for (size_t i = 0; i < n; i++) rand_scalar(&s[i]);
    for (size_t i = 0; i < n; i += 7) r_minus(&s[i], 1);
    gpu_msm_stats st;
    g_tuning = (gpu_msm_tuning){.chunk_points = 1000};
    check_case(ctx, "random, chunks of 1000", b, n, 0, s, n, NULL, n, &st);
    CHECK_MSG(st.tail_chunks == 6, "tail_chunks %zu, want 6", st.tail_chunks);
    g_tuning = (gpu_msm_tuning){.chunk_points = 64};
    mix_scalars(s, n, 0.5);
    size_t c[3];
    count_kinds(s, NULL, n, c);
    check_case(ctx, "50% 0/1, chunks of 64", b, n, 0, s, n, NULL, n, &st);
    CHECK(st.tail_chunks == (c[2] + 63) / 64);
    static const int windows[] = {2, 5, 9, 13, 16};
    for (size_t w = 0; w < sizeof windows / sizeof *windows; w++) {
        char what[64];
        g_tuning = (gpu_msm_tuning){.window_bits = windows[w]};
        for (size_t i = 0; i < n; i++) rand_scalar(&s[i]);
        snprintf(what, sizeof what, "random, c=%d", windows[w]);
        check_case(ctx, what, b, n, 0, s, n, NULL, n, &st);
        CHECK_MSG(st.tail_window_bits == windows[w], "tail window %d, want %d", st.tail_window_bits, windows[w]);
    }
    g_tuning = (gpu_msm_tuning){0};
    for (int mode = 0; mode < 2; mode++) {
        g_tuning = (gpu_msm_tuning){.accum = mode ? GPU_MSM_ACCUM_RUNS : GPU_MSM_ACCUM_TASKS}; /* G2: tasks both */
        const char *mn = mode ? "runs" : "tasks";
        char what[96];
        for (size_t i = 0; i < n; i++) scalar_of_kind(&s[i], (int)(i % 5));
        for (size_t i = 0; i < n; i += 13) g2_affine_set_infinity(&b[i]);
        for (size_t i = 5; i + 1 < n; i += 11) b[i + 1] = b[i];
        for (size_t i = 8; i + 1 < n; i += 17) g2_affine_neg(&b[i + 1], &b[i]);
        snprintf(what, sizeof what, "%s: kinds, inf/repeated/opposite bases", mn);
        check_case(ctx, what, b, n, 0, s, n, NULL, n, NULL);
        for (size_t i = 0; i < n; i++) r_minus(&s[i], 1);
        snprintf(what, sizeof what, "%s: all r-1 (one heavy bucket per window)", mn);
        check_case(ctx, what, b, n, 0, s, n, NULL, n, NULL);
    }
    g_tuning = (gpu_msm_tuning){0};
    free(b);
    free(s);
    gpu_ctx_destroy(ctx);
}

/* Heavy buckets at 2^16 + 3 points: scalars sharing their high digits (r - small, all equal), with
 * repeated and opposite bases inside the hot bucket, so the block trees sum partials that double
 * and cancel. */
TEST(gpu_g2, heavy_buckets) {
    NEED_GPU();
    gpu_ctx *ctx = new_ctx();
    REQUIRE(ctx);
    const size_t n = 65539;
    g2_affine *b = malloc(n * sizeof *b);
    scalar256 *s = malloc(n * sizeof *s);
    REQUIRE(b && s);
    rand_bases_g2(b, n);
    for (size_t i = 0; i < n; i++) r_minus(&s[i], 1 + (test_rand64() & 0xffff));
    check_case(ctx, "r - small (16 bits)", b, n, 0, s, n, NULL, n, NULL);
    scalar256 common;
    rand_scalar(&common);
    for (size_t i = 0; i < n; i++) s[i] = common;
    for (size_t i = 0; i + 1 < n; i += 7) b[i + 1] = b[i];
    for (size_t i = 3; i + 1 < n; i += 9) g2_affine_neg(&b[i + 1], &b[i]);
    for (size_t i = 0; i < n; i += 101) g2_affine_set_infinity(&b[i]);
    check_case(ctx, "all equal, repeated/opposite/infinity bases", b, n, 0, s, n, NULL, n, NULL);
    for (size_t i = 1; i < n; i += 2) g2_affine_neg(&b[i], &b[i - 1]);
    g2_affine_set_infinity(&b[n - 1]);
    check_case(ctx, "all equal, P/-P pairs (sum at infinity)", b, n, 0, s, n, NULL, n, NULL);
    free(b);
    free(s);
    gpu_ctx_destroy(ctx);
}

/* Misuse: NULL pointers, sizes out of range, bases of another ctx or curve; resident bytes follow
 * the bases; an impossible upload is NOMEM_DEVICE and leaves the ctx usable. */
TEST(gpu_g2, bad_args_and_memory) {
    NEED_GPU();
    cuzk_error e = {0};
    gpu_ctx *ctx = new_ctx();
    REQUIRE(ctx);
    g2_affine b[4];
    rand_bases_g2(b, 4);
    gpu_g2_bases *gb = NULL, *bad = (gpu_g2_bases *)1;
    CHECK_EQ_INT(gpu_g2_bases_upload(ctx, NULL, (const struct g2_affine *)b, 4, &e), CUZK_ERR_ARG);
    CHECK_EQ_INT(gpu_g2_bases_upload(ctx, &bad, NULL, 4, &e), CUZK_ERR_ARG);
    CHECK(bad == NULL);
    CHECK_EQ_INT(gpu_g2_bases_upload(ctx, &bad, (const struct g2_affine *)b, (size_t)1 << 31, &e), CUZK_ERR_ARG);
    CHECK_EQ_INT(gpu_g2_bases_upload(NULL, &bad, (const struct g2_affine *)b, 4, &e), CUZK_ERR_ARG);
    CHECK_OK(gpu_g2_bases_upload(ctx, &gb, (const struct g2_affine *)b, 4, &e));
    gpu_mem_stats ms;
    CHECK_OK(gpu_ctx_mem(ctx, &ms, &e));
    CHECK(ms.resident_bytes == 4 * 192);
    g2_jacobian out;
    void *d_s = NULL;
    CHECK_OK(gpu_buf_alloc(ctx, &d_s, 4 * 32, &e));
    CHECK_OK(gpu_memset_async(ctx, d_s, 0, 4 * 32, &e));
    gpu_g2_msm_job job = {.bases = gb, .base_offset = 1, .n = 4, .d_scalars = d_s, .out = (struct g2_jacobian *)&out};
    CHECK_EQ_INT(gpu_g2_msm_run(ctx, &job, 1, NULL, &e), CUZK_ERR_ARG); /* offset + n > count */
    CHECK_MSG(strstr(e.msg, "gpu_g2_msm_run") != NULL, "message: %s", e.msg);
    job.base_offset = 0;
    job.out = NULL;
    CHECK_EQ_INT(gpu_g2_msm_run(ctx, &job, 1, NULL, &e), CUZK_ERR_ARG);
    job.out = (struct g2_jacobian *)&out;
    job.d_scalars = NULL;
    CHECK_EQ_INT(gpu_g2_msm_run(ctx, &job, 1, NULL, &e), CUZK_ERR_ARG);
    job.d_scalars = d_s;
    job.form = (gpu_scalar_form)7;
    CHECK_EQ_INT(gpu_g2_msm_run(ctx, &job, 1, NULL, &e), CUZK_ERR_ARG);
    job.form = GPU_SCALARS_CANONICAL;
    job.n = (size_t)1 << 31;
    CHECK_EQ_INT(gpu_g2_msm_run(ctx, &job, 1, NULL, &e), CUZK_ERR_ARG);
    job.n = 4;
    CHECK_EQ_INT(gpu_g2_msm_run(ctx, NULL, 1, NULL, &e), CUZK_ERR_ARG);
    CHECK_EQ_INT(gpu_g2_msm_run(ctx, NULL, 0, NULL, &e), CUZK_OK);
    CHECK_EQ_INT(gpu_g2_msm_run(NULL, &job, 1, NULL, &e), CUZK_ERR_ARG);
    /* BLS12-381 G2 bases are not BN254 ones */
    CHECK_EQ_INT(gpu_bn254_g2_msm_run(ctx, &job, 1, NULL, &e), CUZK_ERR_ARG);
    CHECK_MSG(strstr(e.msg, "another curve") != NULL, "message: %s", e.msg);
    /* bases of another ctx */
    gpu_ctx *other = new_ctx();
    if (other) {
        CHECK_EQ_INT(gpu_g2_msm_run(other, &job, 1, NULL, &e), CUZK_ERR_ARG);
        gpu_ctx_destroy(other);
    }
    /* all-zero scalars: infinity, and the job still works after the refusals */
    CHECK_OK(gpu_g2_msm_run(ctx, &job, 1, NULL, &e));
    CHECK(g2_jacobian_is_infinity(&out));
    /* host-array form */
    CHECK_EQ_INT(gpu_g2_msm(NULL, (const struct g2_affine *)b, NULL, 0, &e), CUZK_ERR_ARG);
    CHECK_EQ_INT(gpu_g2_msm((struct g2_jacobian *)&out, NULL, NULL, 3, &e), CUZK_ERR_ARG);
    /* an upload no device holds (2^31 - 1 points = 412 GB): the host array is never read */
    gpu_g2_bases *huge = NULL;
    cuzk_status st = gpu_g2_bases_upload(ctx, &huge, (const struct g2_affine *)b, ((size_t)1 << 31) - 1, &e);
    CHECK_MSG(st == CUZK_ERR_NOMEM_DEVICE, "absurd gpu_g2_bases_upload: %s (%s)", cuzk_status_str(st), e.msg);
    CHECK(huge == NULL);
    CHECK(!gpu_ctx_dead(ctx));
    CHECK_OK(gpu_ctx_mem(ctx, &ms, &e));
    CHECK(ms.resident_bytes == 4 * 192);
    gpu_buf_free(ctx, d_s);
    gpu_g2_bases_free(gb);
    gpu_g2_bases_free(NULL);
    CHECK_OK(gpu_ctx_mem(ctx, &ms, &e));
    CHECK(ms.resident_bytes == 0);
    gpu_ctx_destroy(ctx);
}

/* ---- BN254 (the same templates over BN254's G2) ------------------------------------------------- */


TEST(gpu_g2, bn254_vs_cpu) {
    NEED_GPU();
    static const size_t sizes[] = {0, 1, 2, 3, 17, 1000, 4099};
    const size_t nmax = 4099;
    bn254_g2_affine *b = malloc(nmax * sizeof *b);
    scalar256 *s = malloc(nmax * sizeof *s);
    REQUIRE(b && s);
    for (size_t t = 0; t < sizeof sizes / sizeof *sizes; t++) {
        const size_t n = sizes[t];
        rand_bases_bn254_g2(b, n);
        for (int pass = 0; pass < 3; pass++) {
            for (size_t i = 0; i < n; i++)
                scalar_of_kind_on(&s[i], pass == 0 ? K_RANDOM : (int)(test_rand64() % 5), CUZK_CURVE_BN254);
            if (pass == 2) {
                /* infinity, repeated and opposite bases */
                for (size_t i = 0; i < n; i += 13) bn254_g2_affine_set_infinity(&b[i]);
                for (size_t i = 5; i + 1 < n; i += 11) b[i + 1] = b[i];
                for (size_t i = 8; i + 1 < n; i += 17) bn254_g2_affine_neg(&b[i + 1], &b[i]);
            }
            bn254_g2_jacobian ref, got;
            memset(&got, 0x5a, sizeof got);
            bn254_g2_msm(&ref, b, s, n, 0);
            cuzk_error e = {0};
            cuzk_status st = gpu_bn254_g2_msm((struct bn254_g2_jacobian *)&got, (const struct bn254_g2_affine *)b,
                                              (const struct scalar256 *)s, n, &e);
            CHECK_MSG(st == CUZK_OK, "gpu_bn254_g2_msm n=%zu: %s", n, e.msg);
            if (st == CUZK_OK) CHECK_MSG(same_point_bn254_g2(&got, &ref), "gpu_bn254_g2_msm n=%zu pass %d: GPU != CPU", n, pass);
        }
    }
    /* the resident form: Montgomery scalars through an index, an offset; G2 bases of BLS12-381 refused */
    gpu_ctx *ctx = new_ctx();
    REQUIRE(ctx);
    const size_t n = 3001, off = 98;
    rand_bases_bn254_g2(b, n + off);
    for (size_t i = 0; i < n; i++) scalar_of_kind_on(&s[i], (int)(test_rand64() % 5), CUZK_CURVE_BN254);
    uint32_t *idx = malloc(n * sizeof *idx);
    scalar256 *g = malloc(n * sizeof *g);
    REQUIRE(idx && g);
    for (size_t k = 0; k < n; k++) idx[k] = (uint32_t)(test_rand64() % n);
    for (size_t k = 0; k < n; k++) g[k] = s[idx[k]];
    cuzk_error e = {0};
    gpu_g2_bases *gb = NULL;
    CHECK_OK(gpu_bn254_g2_bases_upload(ctx, &gb, (const struct bn254_g2_affine *)b, n + off, &e));
    CHECK(gpu_g2_bases_bytes(gb) == (n + off) * 128);
    void *d_s = upload_scalars(ctx, s, n, true, CUZK_CURVE_BN254), *d_idx = upload_u32(ctx, idx, n);
    bn254_g2_jacobian ref, got;
    bn254_g2_msm(&ref, b + off, g, n, 0);
    gpu_g2_msm_job job = {.bases = gb, .base_offset = off, .n = n, .d_scalars = d_s, .form = GPU_SCALARS_MONTGOMERY,
                          .d_index = d_idx, .out = (struct g2_jacobian *)&got};
    cuzk_status st = gpu_bn254_g2_msm_run(ctx, &job, 1, NULL, &e);
    CHECK_MSG(st == CUZK_OK, "gpu_bn254_g2_msm_run: %s", e.msg);
    if (st == CUZK_OK) CHECK_MSG(same_point_bn254_g2(&got, &ref), "gpu_bn254_g2_msm_run (mont, index, offset): GPU != CPU");
    CHECK_EQ_INT(gpu_g2_msm_run(ctx, &job, 1, NULL, &e), CUZK_ERR_ARG); /* BN254 bases, BLS12-381 run */
    gpu_buf_free(ctx, d_s);
    gpu_buf_free(ctx, d_idx);
    gpu_g2_bases_free(gb);
    gpu_ctx_destroy(ctx);
    free(idx);
    free(g);
    free(b);
    free(s);
}

/* ---- streamed bases (issue 23 item 2): B_G2 on the device when its query is not resident ---------
 * One job over host G2 points in chunks of S (pinned or pageable), both scalar forms, against the
 * CPU, inside an arena of exactly the planned size (gpu_g2_msm_stream_scratch_bytes + scalars). */
static void check_streamed(gpu_ctx *ctx, const char *what, const g2_affine *hb, size_t off, const scalar256 *s, size_t ns,
                           const uint32_t *idx, size_t n, size_t S) {
    cuzk_error e = {0};
    g2_jacobian ref;
    ref_msm_g2(&ref, hb + off, s, idx, n);
    gpu_msm_tuning t = g_tuning;
    t.stream_points = S;
    const size_t need = 2 * (ns * 32 + 512) + (idx ? n * 4 + 512 : 0) + gpu_g2_msm_stream_scratch_bytes(n, &t);
    CHECK_OK(gpu_ctx_arena_set(ctx, need, &e));
    gpu_ctx_mem_reset_high(ctx);
    void *d_idx = idx ? upload_u32(ctx, idx, n) : NULL;
    for (int mont = 0; mont < 2; mont++) {
        void *d_s = upload_scalars(ctx, s, ns, mont, CUZK_CURVE_BLS12_381);
        g2_jacobian got;
        memset(&got, 0x5a, sizeof got);
        gpu_g2_msm_job job = {.h_bases = hb, .base_offset = off, .n = n, .d_scalars = d_s,
                              .form = mont ? GPU_SCALARS_MONTGOMERY : GPU_SCALARS_CANONICAL,
                              .d_index = d_idx, .out = (struct g2_jacobian *)&got, .tuning = t};
        gpu_msm_stats stats;
        cuzk_status st = gpu_g2_msm_run(ctx, &job, 1, &stats, &e);
        CHECK_MSG(st == CUZK_OK, "%s (n=%zu, S=%zu): %s (%s)", what, n, S, cuzk_status_str(st), e.msg);
        if (st == CUZK_OK) {
            CHECK_MSG(same_point_g2(&got, &ref), "%s (n=%zu, S=%zu, %s): streamed GPU != g2_msm", what, n, S,
                      mont ? "mont" : "canon");
            CHECK(n == 0 || stats.stream_bytes == n * sizeof(g2_affine));
        }
        gpu_buf_free(ctx, d_s);
    }
    gpu_buf_free(ctx, d_idx);
    gpu_mem_stats ms;
    CHECK_OK(gpu_ctx_mem(ctx, &ms, &e));
    CHECK_MSG(ms.arena_overflows == 0, "%s: %llu allocations overflowed the planned arena", what,
              (unsigned long long)ms.arena_overflows);
    CHECK_OK(gpu_ctx_arena_set(ctx, 0, &e));
}

TEST(gpu_g2, streamed_bases) {
    NEED_GPU();
    cuzk_error e = {0};
    gpu_ctx *ctx = new_ctx();
    REQUIRE(ctx);
    const size_t nmax = 3001;
    g2_affine *pageable = malloc(nmax * sizeof *pageable), *pinned = NULL;
    scalar256 *s = malloc(nmax * sizeof *s);
    uint32_t *idx = malloc(nmax * sizeof *idx);
    REQUIRE(pageable && s && idx);
    CHECK_OK(gpu_host_alloc_pinned((void **)&pinned, nmax * sizeof *pinned, &e));
    REQUIRE(pinned);
    rand_bases_g2(pageable, nmax);
    memcpy(pinned, pageable, nmax * sizeof *pinned);
    static const size_t ns_[] = {1, 64, 65, 1000, 3001};
    static const size_t Ss[] = {64, 100, 1000, 4096};
    for (size_t i = 0; i < sizeof ns_ / sizeof *ns_; i++)
        for (size_t j = 0; j < sizeof Ss / sizeof *Ss; j++) {
            mix_scalars(s, ns_[i], (i + j) % 2 ? 0.95 : 0.3);
            check_streamed(ctx, j % 2 ? "mixed, pageable" : "mixed, pinned", j % 2 ? pageable : pinned, 0, s, ns_[i],
                           NULL, ns_[i], Ss[j]);
        }
    /* the prover's B_G2 shape: a gather through the B selection, Montgomery witness values */
    for (size_t k = 0; k < 2000; k++) idx[k] = (uint32_t)(test_rand64() % 1500);
    mix_scalars(s, 1500, 0.9);
    check_streamed(ctx, "gather + offset", pinned, 1000, s, 1500, idx, 2000, 333);
    /* adversarial: kinds, infinity, repeated and opposite bases across chunk boundaries */
    const size_t n = 1500;
    for (size_t i = 0; i < n; i++) scalar_of_kind(&s[i], (int)(i % 5));
    for (size_t i = 0; i < n; i += 13) g2_affine_set_infinity(&pinned[i]);
    for (size_t i = 5; i + 1 < n; i += 11) pinned[i + 1] = pinned[i];
    for (size_t i = 8; i + 1 < n; i += 17) g2_affine_neg(&pinned[i + 1], &pinned[i]);
    check_streamed(ctx, "kinds, inf/repeated/opposite bases", pinned, 0, s, n, NULL, n, 200);
    for (size_t i = 0; i < n; i++) small_scalar(&s[i], 1);
    check_streamed(ctx, "all one", pinned, 0, s, n, NULL, n, 200);
    for (size_t i = 0; i < n; i++) r_minus(&s[i], 1);
    check_streamed(ctx, "all r-1", pinned, 0, s, n, NULL, n, 700);
    CHECK(!gpu_ctx_dead(ctx));
    gpu_host_free_pinned(pinned);
    free(pageable);
    free(s);
    free(idx);
    gpu_ctx_destroy(ctx);
}

#endif
