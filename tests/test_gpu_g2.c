/* gpu_g2 suite: the G2 MSM on the device (src/cuda/gpu.h: gpu_g2_msm, gpu_g2_bases_*,
 * gpu_g2_msm_run; the G1 MSM's kernels instantiated over G2, src/cuda/gpu_msm.cu) against the CPU
 * reference (src/msm/msm.h g2_msm, canonical scalars; bn254_g2_msm for BN254), every result
 * compared as a point (affine), on random and adversarial inputs: n = 0, 1, 2, 3, 17, 1000, 4099,
 * 65539; scalars 0 / 1 / 2 / r-1 / random and their mixes; infinity, repeated and opposite bases
 * (the formulas' doubling and infinity branches: P + P and P + (-P) inside a bucket, in the ones
 * sum and in the trees); Montgomery and canonical scalars; index and offset; several jobs per call;
 * chunks, forced windows, both accumulations; heavy buckets; bad arguments. The checks and the case
 * sequences it shares with the G1 suite (tests/test_gpu_msm.c) are tests/gpu_msm_test_impl.h's.
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

/* inputs, check_case_g2 and the shared case sequences: tests/gpu_msm_test.h */

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
            g2_jacobian got;
            cuzk_status st = check_host_msm_g2(&got, pass ? "kinds" : "random", b, s, n);
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
    small_sizes_g2(ctx);
    /* one base at infinity; two bases: P + P and P + (-P) with every scalar pair kind (the
     * doubling and infinity branches with one or two points) */
    g2_affine b[2];
    scalar256 s[2];
    g2_affine_set_infinity(&b[0]);
    rand_scalar(&s[0]);
    check_case_g2(ctx, "single, base at infinity", b, 1, 0, s, 1, NULL, 1, NULL);
    rand_bases_g2(b, 1);
    for (int k0 = K_RANDOM; k0 <= K_TWO; k0++)
        for (int k1 = K_RANDOM; k1 <= K_TWO; k1++) {
            scalar_of_kind(&s[0], k0);
            scalar_of_kind(&s[1], k1);
            if (k0 == K_RANDOM && k1 == K_RANDOM) s[1] = s[0];
            b[1] = b[0];
            check_case_g2(ctx, "P, P", b, 2, 0, s, 2, NULL, 2, NULL);
            g2_affine_neg(&b[1], &b[0]);
            check_case_g2(ctx, "P, -P", b, 2, 0, s, 2, NULL, 2, NULL);
        }
    gpu_ctx_destroy(ctx);
}

static void adversarial(gpu_ctx *ctx, g2_affine *b, scalar256 *s, size_t n) {
    uniform_scalars_g2(ctx, b, s, n);
    mix_scalars(s, n, 0.95);
    check_case_g2(ctx, "95% 0/1", b, n, 0, s, n, NULL, n, NULL);
    adversarial_bases_cases_g2(ctx, b, s, n);
    /* one base everywhere: every bucket doubles too (mixed and XYZZ doubling) */
    for (size_t i = 0; i < n; i++) small_scalar(&s[i], 2 + (i & 3));
    check_case_g2(ctx, "small scalars, one repeated base", b, n, 0, s, n, NULL, n, NULL);
    mix_scalars(s, n, 0.3);
    check_case_g2(ctx, "mixed, one repeated base", b, n, 0, s, n, NULL, n, NULL);
    opposite_pairs_case_g2(ctx, b, s, n);
    for (size_t i = 0; i < n; i++) small_scalar(&s[i], 1);
    check_case_g2(ctx, "ones, P and -P", b, n, 0, s, n, NULL, n, NULL);
    scalar256 common;
    rand_scalar(&common);
    for (size_t i = 0; i < n; i++) s[i] = common;
    check_case_g2(ctx, "equal scalars, P and -P", b, n, 0, s, n, NULL, n, NULL);
    equal_scalars_and_infinity_g2(ctx, b, s, n);
}
TEST(gpu_g2, adversarial) { NEED_GPU(); with_msm_inputs_g2(4099, adversarial); }

/* Chunked tails, forced windows, and the accumulation switch (G2 always accumulates by tasks:
 * the runs experiment is compiled for G1 only, so both settings must give the tasks' result). */
static void chunks_windows_accumulations(gpu_ctx *ctx, g2_affine *b, scalar256 *s, size_t n) {
    static const size_t chunks[] = {64};
    chunk_cases_g2(ctx, b, s, n, chunks, 1);
    gpu_msm_stats st;
    static const int windows[] = {2, 5, 9, 13, 16};
    for (size_t w = 0; w < sizeof windows / sizeof *windows; w++) {
        char what[64];
        g_tuning = (gpu_msm_tuning){.window_bits = windows[w]};
        for (size_t i = 0; i < n; i++) rand_scalar(&s[i]);
        snprintf(what, sizeof what, "random, c=%d", windows[w]);
        check_case_g2(ctx, what, b, n, 0, s, n, NULL, n, &st);
        CHECK_MSG(st.tail_window_bits == windows[w], "tail window %d, want %d", st.tail_window_bits, windows[w]);
    }
    g_tuning = (gpu_msm_tuning){0};
    for (int mode = 0; mode < 2; mode++) {
        g_tuning = (gpu_msm_tuning){.accum = mode ? GPU_MSM_ACCUM_RUNS : GPU_MSM_ACCUM_TASKS}; /* G2: tasks both */
        kinds_then_r_minus_1_g2(ctx, b, s, n, mode ? "runs" : "tasks");
    }
    g_tuning = (gpu_msm_tuning){0};
}
TEST(gpu_g2, chunks_windows_accumulations) { NEED_GPU(); with_msm_inputs_g2(5003, chunks_windows_accumulations); }

/* Heavy buckets at 2^16 + 3 points: scalars sharing their high digits (r - small, all equal), with
 * repeated and opposite bases inside the hot bucket, so the block trees sum partials that double
 * and cancel. */
static void heavy_buckets(gpu_ctx *ctx, g2_affine *b, scalar256 *s, size_t n) {
    r_small_case_g2(ctx, b, s, n);
    scalar256 common;
    rand_scalar(&common);
    for (size_t i = 0; i < n; i++) s[i] = common;
    heavy_equal_cases_g2(ctx, b, s, n);
}
TEST(gpu_g2, heavy_buckets) { NEED_GPU(); with_msm_inputs_g2(65539, heavy_buckets); }

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
    CHECK_EQ_INT(gpu_g2_bases_upload(ctx, NULL, b, 4, &e), CUZK_ERR_ARG);
    CHECK_EQ_INT(gpu_g2_bases_upload(ctx, &bad, NULL, 4, &e), CUZK_ERR_ARG);
    CHECK(bad == NULL);
    CHECK_EQ_INT(gpu_g2_bases_upload(ctx, &bad, b, (size_t)1 << 31, &e), CUZK_ERR_ARG);
    CHECK_EQ_INT(gpu_g2_bases_upload(NULL, &bad, b, 4, &e), CUZK_ERR_ARG);
    CHECK_OK(gpu_g2_bases_upload(ctx, &gb, b, 4, &e));
    gpu_mem_stats ms;
    CHECK_OK(gpu_ctx_mem(ctx, &ms, &e));
    CHECK(ms.resident_bytes == 4 * 192);
    g2_jacobian out;
    void *d_s = NULL;
    CHECK_OK(gpu_buf_alloc(ctx, &d_s, 4 * 32, &e));
    CHECK_OK(gpu_memset_async(ctx, d_s, 0, 4 * 32, &e));
    gpu_g2_msm_job job = {.bases = gb, .n = 4, .d_scalars = d_s, .out = &out};
    job_misuse_g2(ctx, &job);
    /* BLS12-381 G2 bases are not BN254 ones */
    CHECK_EQ_INT(gpu_bn254_g2_msm_run(ctx, &job, 1, NULL, &e), CUZK_ERR_ARG);
    CHECK_MSG(strstr(e.msg, "another curve") != NULL, "message: %s", e.msg);
    /* all-zero scalars: infinity, and the job still works after the refusals */
    CHECK_OK(gpu_g2_msm_run(ctx, &job, 1, NULL, &e));
    CHECK(g2_jacobian_is_infinity(&out));
    /* host-array form */
    CHECK_EQ_INT(gpu_g2_msm(NULL, b, NULL, 0, &e), CUZK_ERR_ARG);
    CHECK_EQ_INT(gpu_g2_msm(&out, NULL, NULL, 3, &e), CUZK_ERR_ARG);
    /* an upload no device holds (2^31 - 1 points = 412 GB): the host array is never read */
    gpu_g2_bases *huge = NULL;
    cuzk_status st = gpu_g2_bases_upload(ctx, &huge, b, ((size_t)1 << 31) - 1, &e);
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

/* The host-array form at n of 0 .. nmax = 4099 with random scalars, every kind, and every kind over
 * adversarial bases; then the resident form */
static void bn254_vs_cpu(gpu_ctx *ctx, bn254_g2_affine *b, scalar256 *s, size_t nmax) {
    static const size_t sizes[] = {0, 1, 2, 3, 17, 1000, 4099};
    for (size_t t = 0; t < sizeof sizes / sizeof *sizes && sizes[t] <= nmax; t++) {
        const size_t n = sizes[t];
        rand_bases_bn254_g2(b, n);
        for (int pass = 0; pass < 3; pass++) {
            for (size_t i = 0; i < n; i++)
                scalar_of_kind_on(&s[i], pass == 0 ? K_RANDOM : (int)(test_rand64() % 5), CUZK_CURVE_BN254);
            if (pass == 2) adversarial_bases_bn254_g2(b, n);
            static const char *const pass_name[3] = {"random", "kinds", "kinds, inf/repeated/opposite bases"};
            bn254_g2_jacobian got;
            check_host_msm_bn254_g2(&got, pass_name[pass], b, s, n);
        }
    }
    /* the resident form: Montgomery scalars through an index, an offset; G2 bases of BLS12-381 refused */
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
    CHECK_OK(gpu_bn254_g2_bases_upload(ctx, &gb, b, n + off, &e));
    CHECK(gpu_g2_bases_bytes(gb) == (n + off) * 128);
    void *d_s = upload_scalars(ctx, s, n, true, CUZK_CURVE_BN254), *d_idx = upload_u32(ctx, idx, n);
    bn254_g2_jacobian ref, got;
    bn254_g2_msm(&ref, b + off, g, n, 0);
    gpu_g2_msm_job job = {.bases = gb, .base_offset = off, .n = n, .d_scalars = d_s, .form = GPU_SCALARS_MONTGOMERY,
                          .d_index = d_idx, .out = &got};
    cuzk_status st = gpu_bn254_g2_msm_run(ctx, &job, 1, NULL, &e);
    CHECK_MSG(st == CUZK_OK, "gpu_bn254_g2_msm_run: %s", e.msg);
    if (st == CUZK_OK) CHECK_MSG(same_point_bn254_g2(&got, &ref), "gpu_bn254_g2_msm_run (mont, index, offset): GPU != CPU");
    CHECK_EQ_INT(gpu_g2_msm_run(ctx, &job, 1, NULL, &e), CUZK_ERR_ARG); /* BN254 bases, BLS12-381 run */
    gpu_buf_free(ctx, d_s);
    gpu_buf_free(ctx, d_idx);
    gpu_g2_bases_free(gb);
    free(idx);
    free(g);
}
TEST(gpu_g2, bn254_vs_cpu) { NEED_GPU(); with_msm_inputs_bn254_g2(4099, bn254_vs_cpu); }

/* index_and_offset, several_jobs: tests/gpu_msm_test_suite.h */
#define MSMT_G g2
#define MSMT_GPU_G g2
#define MSMT_JOB gpu_g2_msm_job
#define MSMT_CURVE CUZK_CURVE_BLS12_381
#define MSMT_SUITE gpu_g2
#include "gpu_msm_test_suite.h"

/* ---- streamed bases (issue 23 item 2): B_G2 on the device when its query is not resident ---------
 * check_streamed_g2 (tests/gpu_msm_test_impl.h), always inside an arena of exactly the planned size,
 * over pinned and pageable host G2 points: sizes around the chunk, the prover's gather, adversarial
 * scalars and bases. */
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
            check_streamed_g2(ctx, j % 2 ? "mixed, pageable" : "mixed, pinned", j % 2 ? pageable : pinned, 0, s, ns_[i],
                              NULL, ns_[i], Ss[j], true);
        }
    /* the prover's B_G2 shape: a gather through the B selection, Montgomery witness values */
    for (size_t k = 0; k < 2000; k++) idx[k] = (uint32_t)(test_rand64() % 1500);
    mix_scalars(s, 1500, 0.9);
    check_streamed_g2(ctx, "gather + offset", pinned, 1000, s, 1500, idx, 2000, 333, true);
    /* adversarial: kinds, infinity, repeated and opposite bases across chunk boundaries */
    const size_t n = 1500;
    for (size_t i = 0; i < n; i++) scalar_of_kind(&s[i], (int)(i % 5));
    adversarial_bases_g2(pinned, n);
    check_streamed_g2(ctx, "kinds, inf/repeated/opposite bases", pinned, 0, s, n, NULL, n, 200, true);
    for (size_t i = 0; i < n; i++) small_scalar(&s[i], 1);
    check_streamed_g2(ctx, "all one", pinned, 0, s, n, NULL, n, 200, true);
    for (size_t i = 0; i < n; i++) r_minus(&s[i], 1);
    check_streamed_g2(ctx, "all r-1", pinned, 0, s, n, NULL, n, 700, true);
    CHECK(!gpu_ctx_dead(ctx));
    gpu_host_free_pinned(pinned);
    free(pageable);
    free(s);
    free(idx);
    gpu_ctx_destroy(ctx);
}

#endif
