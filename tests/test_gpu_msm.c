/* gpu_msm suite: the device context (src/cuda/gpu.h: gpu_ctx_*, buffers, events, pinned memory,
 * OOM, dead-on-sticky-fault) and the G1 MSM over resident bases with the 0/1 split
 * (gpu_g1_msm_run), every result against the CPU reference (src/msm/msm.h g1_msm, canonical
 * scalars) compared as affine points, on random and adversarial inputs. The checks and the case
 * sequences it shares with the G2 suite (tests/test_gpu_g2.c) are tests/gpu_msm_test_impl.h's.
 * Suite gpu_fault (run by gpu_msm/sticky_fault in a child process, only with
 * CUZK_TEST_GPU_FAULT=1): an illegal address inside the MSM must leave a dead ctx that reports
 * CUZK_ERR_DEVICE, not a crash.
 * Skips cleanly without CUDA at build time or without a device at run time. */
#include "test.h"

#ifndef CUZK_HAVE_CUDA

TEST(gpu_msm, available) { SKIP(TEST_NO_GPU); }

#else

#include <stdlib.h>
#include <unistd.h>

#include "cuda/gpu.h"
#include "gpu_msm_test.h"
#include "curves/bls12_381/curve.h"

/* inputs, check_case_g1 and the shared case sequences: tests/gpu_msm_test.h */

/* ---- the device context ------------------------------------------------------------------- */

TEST(gpu_msm, ctx_basics) {
    NEED_GPU();
    cuzk_error e = {0};
    gpu_ctx *bad = (gpu_ctx *)1;
    CHECK(gpu_ctx_create(NULL, 0, &e) == CUZK_ERR_ARG);
    CHECK(gpu_ctx_create(&bad, 1 << 20, &e) == CUZK_ERR_ARG);
    CHECK(bad == NULL);
    gpu_ctx_destroy(NULL);
    gpu_ctx *ctx = new_ctx();
    REQUIRE(ctx);
    CHECK(gpu_ctx_device(ctx) == 0);
    CHECK(gpu_ctx_stream(ctx) != NULL);
    CHECK(!gpu_ctx_dead(ctx));

    /* buffers, copies, memset, events, pinned memory */
    const size_t n = 100003;
    uint8_t *h = NULL, *back = malloc(n);
    REQUIRE(back);
    CHECK_OK(gpu_host_alloc_pinned((void **)&h, n, &e));
    REQUIRE(h);
    for (size_t i = 0; i < n; i++) h[i] = (uint8_t)(i * 7 + 3);
    void *d = NULL, *zero = (void *)1;
    CHECK_OK(gpu_buf_alloc(ctx, &zero, 0, &e));
    CHECK(zero == NULL);
    CHECK_OK(gpu_buf_alloc(ctx, &d, n, &e));
    REQUIRE(d);
    CHECK_OK(gpu_copy_h2d_async(ctx, d, h, n, &e));
    CHECK_OK(gpu_memset_async(ctx, (uint8_t *)d + 10, 0xee, 5, &e));
    gpu_event *ev = NULL;
    CHECK_OK(gpu_event_record(ctx, &ev, &e));
    CHECK(ev != NULL);
    CHECK_OK(gpu_copy_d2h_async(ctx, back, d, n, &e));
    CHECK_OK(gpu_event_sync(ev, &e));
    gpu_event_destroy(ev);
    gpu_event_destroy(NULL);
    CHECK_OK(gpu_sync(ctx, &e));
    for (size_t i = 10; i < 15; i++) h[i] = 0xee;
    CHECK(memcmp(h, back, n) == 0);

    gpu_mem_stats ms;
    CHECK_OK(gpu_ctx_mem(ctx, &ms, &e));
    CHECK(ms.device_total_bytes > 0 && ms.device_free_bytes <= ms.device_total_bytes);
    CHECK(ms.pool_used_bytes >= n);
    CHECK(ms.pool_reserved_bytes >= ms.pool_used_bytes);
    CHECK(ms.resident_bytes == 0);
    gpu_buf_free(ctx, d);
    gpu_buf_free(ctx, NULL);

    /* resident bytes follow the bases */
    g1_affine b[7];
    rand_bases_g1(b, 7);
    gpu_g1_bases *gb = NULL, *empty = NULL;
    CHECK_OK(gpu_g1_bases_upload(ctx, &gb, b, 7, &e));
    CHECK_OK(gpu_g1_bases_upload(ctx, &empty, NULL, 0, &e));
    CHECK(gpu_g1_bases_count(gb) == 7 && gpu_g1_bases_bytes(gb) == 7 * 96);
    CHECK(gpu_g1_bases_count(empty) == 0);
    CHECK_OK(gpu_ctx_mem(ctx, &ms, &e));
    CHECK(ms.resident_bytes == 7 * 96);
    gpu_g1_bases_free(gb);
    gpu_g1_bases_free(empty);
    gpu_g1_bases_free(NULL);
    CHECK_OK(gpu_ctx_mem(ctx, &ms, &e));
    CHECK(ms.resident_bytes == 0);

    gpu_host_free_pinned(h);
    gpu_host_free_pinned(NULL);
    free(back);
    gpu_ctx_destroy(ctx);
}

/* Misuse of gpu_g1_msm_run (job_misuse_g1): refused, the ctx still alive. */
TEST(gpu_msm, bad_args) {
    NEED_GPU();
    gpu_ctx *ctx = new_ctx();
    REQUIRE(ctx);
    g1_affine b[4];
    gpu_g1_bases *gb = resident_bases_g1(ctx, b, 4);
    g1_jacobian out;
    cuzk_error e = {0};
    void *d_s = NULL;
    CHECK_OK(gpu_buf_alloc(ctx, &d_s, 4 * 32, &e));
    gpu_msm_job job = {.bases = gb, .n = 4, .d_scalars = d_s, .out = &out};
    job_misuse_g1(ctx, &job);
    CHECK(!gpu_ctx_dead(ctx));
    gpu_buf_free(ctx, d_s);
    gpu_g1_bases_free(gb);
    gpu_ctx_destroy(ctx);
}

TEST(gpu_msm, oom_keeps_ctx) {
    NEED_GPU();
    cuzk_error e = {0};
    gpu_ctx *ctx = new_ctx();
    REQUIRE(ctx);
    gpu_mem_stats ms;
    CHECK_OK(gpu_ctx_mem(ctx, &ms, &e));
    void *d = (void *)1;
    cuzk_status st = gpu_buf_alloc(ctx, &d, 2 * ms.device_total_bytes, &e); /* twice the device */
    CHECK_MSG(st == CUZK_ERR_NOMEM_DEVICE, "absurd gpu_buf_alloc: %s (%s)", cuzk_status_str(st), e.msg);
    CHECK(d == NULL);
    CHECK(!gpu_ctx_dead(ctx));
    /* bases too large for any device (2^31 - 1 points = 206 GB): the host array is never read */
    g1_affine one_point[1];
    rand_bases_g1(one_point, 1);
    gpu_g1_bases *gb = NULL;
    st = gpu_g1_bases_upload(ctx, &gb, one_point, ((size_t)1 << 31) - 1, &e);
    CHECK_MSG(st == CUZK_ERR_NOMEM_DEVICE, "absurd gpu_g1_bases_upload: %s (%s)", cuzk_status_str(st), e.msg);
    CHECK(gb == NULL);
    CHECK(!gpu_ctx_dead(ctx));
    CHECK_OK(gpu_sync(ctx, &e));
    /* still works */
    const size_t n = 300;
    g1_affine *b = malloc(n * sizeof *b);
    scalar256 *s = malloc(n * sizeof *s);
    REQUIRE(b && s);
    rand_bases_g1(b, n);
    mix_scalars(s, n, 0.5);
    check_case_g1(ctx, "after OOM", b, n, 0, s, n, NULL, n, NULL);
    free(b);
    free(s);
    gpu_ctx_destroy(ctx);
}

/* The child's side of gpu_msm/sticky_fault. */
TEST(gpu_fault, illegal_address) {
    const char *env = getenv("CUZK_TEST_GPU_FAULT");
    if (!env || strcmp(env, "1")) SKIP("runs only in the child of gpu_msm/sticky_fault");
    NEED_GPU();
    cuzk_error e = {0};
    gpu_ctx *ctx = new_ctx();
    REQUIRE(ctx);
    g1_affine b[64];
    gpu_g1_bases *gb = resident_bases_g1(ctx, b, 64);
    g1_jacobian out;
    gpu_msm_job job = {.bases = gb, .n = 64, .d_scalars = (const void *)(uintptr_t)0x1000, .out = &out};
    cuzk_status st = gpu_g1_msm_run(ctx, &job, 1, NULL, &e);
    printf("  faulting run: %s: %s\n", cuzk_status_str(st), e.msg);
    CHECK(st == CUZK_ERR_DEVICE);
    CHECK(gpu_ctx_dead(ctx));
    /* every later call fails fast with the first error */
    memset(&e, 0, sizeof e);
    void *d = NULL;
    st = gpu_buf_alloc(ctx, &d, 64, &e);
    CHECK(st == CUZK_ERR_DEVICE);
    CHECK_MSG(strstr(e.msg, "GPU context is dead since") != NULL, "message: %s", e.msg);
    printf("  later call: %s\n", e.msg);
    CHECK(gpu_sync(ctx, &e) == CUZK_ERR_DEVICE);
    CHECK(gpu_g1_msm_run(ctx, &job, 1, NULL, &e) == CUZK_ERR_DEVICE);
    gpu_mem_stats ms;
    CHECK(gpu_ctx_mem(ctx, &ms, &e) == CUZK_ERR_DEVICE);
    gpu_event *ev = NULL;
    CHECK(gpu_event_record(ctx, &ev, &e) == CUZK_ERR_DEVICE);
    gpu_g1_bases_free(gb);
    gpu_ctx_destroy(ctx);
}

TEST(gpu_msm, sticky_fault) {
    NEED_GPU();
    char exe[4096];
    ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
    REQUIRE(len > 0);
    exe[len] = 0;
    static char out[16384];
    int rc = test_run(out, sizeof out, "CUZK_TEST_GPU_FAULT=1 '%s' --suite gpu_fault", exe);
    CHECK_MSG(rc == 0, "child exit %d; output:\n%s", rc, out);
    CHECK_MSG(strstr(out, "1 passed, 0 failed") != NULL, "child output:\n%s", out);
}

/* ---- the MSM ----------------------------------------------------------------------------- */

TEST(gpu_msm, small_sizes) {
    NEED_GPU();
    gpu_ctx *ctx = new_ctx();
    REQUIRE(ctx);
    small_sizes_g1(ctx);
    gpu_ctx_destroy(ctx);
}

static void adversarial(gpu_ctx *ctx, g1_affine *b, scalar256 *s, size_t n) {
    uniform_scalars_g1(ctx, b, s, n);
    for (int rep = 0; rep < 2; rep++) {
        gpu_msm_stats st;
        size_t c[3];
        mix_scalars(s, n, 0.95);
        count_kinds(s, NULL, n, c);
        check_case_g1(ctx, "95% 0/1", b, n, 0, s, n, NULL, n, &st);
        CHECK(st.n_zero == c[0] && st.n_one == c[1] && st.n_other == c[2]);
    }
    adversarial_bases_cases_g1(ctx, b, s, n);
    opposite_pairs_case_g1(ctx, b, s, n); /* the ones sum doubles and cancels */
    equal_scalars_and_infinity_g1(ctx, b, s, n);
}
TEST(gpu_msm, adversarial) { NEED_GPU(); with_msm_inputs_g1(2011, adversarial); }

static void chunking(gpu_ctx *ctx, g1_affine *b, scalar256 *s, size_t n) {
    static const size_t chunks[] = {1000, 64, 1}; /* 1 is raised to the minimum, 64 */
    chunk_cases_g1(ctx, b, s, n, chunks, 3);
}
TEST(gpu_msm, chunking) { NEED_GPU(); with_msm_inputs_g1(5003, chunking); }

/* Heavy buckets: scalars sharing their high digits (r - small, a random common value + small,
 * all equal), at a size where a bucket's task partials outnumber the serial limit, so the block
 * tree (msm_heavy_bucket_kernel) sums them; with repeated and opposite bases inside the heavy
 * bucket (partials that double or cancel to infinity). */
static void heavy_buckets(gpu_ctx *ctx, g1_affine *b, scalar256 *s, size_t n) {
    r_small_case_g1(ctx, b, s, n);
    scalar256 common;
    rand_scalar(&common);
    common.l[0] &= ~0xffffffull;
    for (size_t i = 0; i < n; i++) {
        s[i] = common;
        s[i].l[0] |= test_rand64() & 0xffffff;
    }
    check_case_g1(ctx, "common high bits + 24 random bits", b, n, 0, s, n, NULL, n, NULL);
    for (size_t i = 0; i < n; i++) s[i] = common;
    check_case_g1(ctx, "all scalars equal (random)", b, n, 0, s, n, NULL, n, NULL);
    heavy_equal_cases_g1(ctx, b, s, n);
}
TEST(gpu_msm, heavy_buckets) { NEED_GPU(); with_msm_inputs_g1(((size_t)1 << 16) + 5, heavy_buckets); }

/* The two accumulations of the tail (GPU_MSM_ACCUM_RUNS and GPU_MSM_ACCUM_TASKS, the default every
 * other test uses, each the job's tuning.accum) against the CPU: odd and non-power-of-two sizes,
 * buckets that cross the runs of R pairs (random scalars at small windows), one bucket over
 * thousands of runs (all equal scalars: the heavy path), scalars 0 / 1 / r-1, repeated, opposite
 * and infinity bases. */
static void accum_modes(gpu_ctx *ctx, g1_affine *b, scalar256 *s, size_t nmax, bool large) {
    static const size_t sizes[] = {1, 2, 3, 17, 257, 1000, 4099, 20011};
    for (int mode = 0; mode < 2; mode++) {
        static const gpu_msm_accum modes[] = {GPU_MSM_ACCUM_RUNS, GPU_MSM_ACCUM_TASKS};
        static const char *names[] = {"runs", "tasks"};
        g_tuning = (gpu_msm_tuning){.accum = modes[mode]};
        const char *mn = names[mode];
        char what[96];
        for (size_t t = 0; t < sizeof sizes / sizeof *sizes && !large; t++) {
            const size_t n = sizes[t];
            rand_bases_g1(b, n);
            for (size_t i = 0; i < n; i++) rand_scalar(&s[i]);
            snprintf(what, sizeof what, "%s: random", mn);
            check_case_g1(ctx, what, b, n, 0, s, n, NULL, n, NULL);
            kinds_then_r_minus_1_g1(ctx, b, s, n, mn);
        }
        if (!large) continue;
        const size_t n = nmax;
        rand_bases_g1(b, n);
        scalar256 common;
        rand_scalar(&common);
        for (size_t i = 0; i < n; i++) s[i] = common;
        snprintf(what, sizeof what, "%s: 2^16+5 equal scalars", mn);
        check_case_g1(ctx, what, b, n, 0, s, n, NULL, n, NULL);
        for (size_t i = 1; i < n; i += 2) g1_affine_neg(&b[i], &b[i - 1]);
        snprintf(what, sizeof what, "%s: 2^16+5 equal scalars, P/-P pairs", mn);
        check_case_g1(ctx, what, b, n, 0, s, n, NULL, n, NULL);
        rand_bases_g1(b, n);
        for (size_t i = 0; i < n; i++) r_minus(&s[i], 1 + (test_rand64() & 0xffff));
        snprintf(what, sizeof what, "%s: 2^16+5 r - small", mn);
        check_case_g1(ctx, what, b, n, 0, s, n, NULL, n, NULL);
        for (size_t i = 0; i < n; i++) rand_scalar(&s[i]);
        snprintf(what, sizeof what, "%s: 2^16+5 random", mn);
        check_case_g1(ctx, what, b, n, 0, s, n, NULL, n, NULL);
    }
    g_tuning = (gpu_msm_tuning){0};
}
/* small: sizes up to 20011 (all r-1 at n >= 1000 already takes the heavy path: one bucket over
 * more than 32 runs); run under compute-sanitizer by tools/test-gpu.sh */
static void accum_modes_small(gpu_ctx *ctx, g1_affine *b, scalar256 *s, size_t n) { accum_modes(ctx, b, s, n, false); }
static void accum_modes_large(gpu_ctx *ctx, g1_affine *b, scalar256 *s, size_t n) { accum_modes(ctx, b, s, n, true); }
TEST(gpu_msm, accum_modes_small) { NEED_GPU(); with_msm_inputs_g1(((size_t)1 << 16) + 5, accum_modes_small); }
TEST(gpu_msm, accum_modes_large) { NEED_GPU(); with_msm_inputs_g1(((size_t)1 << 16) + 5, accum_modes_large); }

/* The accumulation is a field of each job (no process-wide mode): one gpu_g1_msm_run of four jobs
 * over the same bases and scalars with DEFAULT, RUNS, an unknown value (3, once the removed
 * batch-affine accumulation: taken as TASKS) and TASKS gives the CPU's sum in every job; the
 * scratch bound follows each job's tuning (DEFAULT's and the unknown value's are the tasks'). */
static void accum_per_job(gpu_ctx *ctx, g1_affine *b, scalar256 *s, size_t n) {
    for (size_t i = 0; i < n; i++) scalar_of_kind(&s[i], (int)(i % 5));
    g1_jacobian ref;
    ref_msm_g1(&ref, b, s, NULL, n);
    cuzk_error e = {0};
    gpu_g1_bases *gb = NULL;
    CHECK_MSG(gpu_g1_bases_upload(ctx, &gb, b, n, &e) == CUZK_OK, "upload: %s", e.msg);
    void *d_s = gb ? upload_scalars(ctx, s, n, true, CUZK_CURVE_BLS12_381) : NULL;
    if (gb && d_s) {
        static const gpu_msm_accum modes[4] = {GPU_MSM_ACCUM_DEFAULT, GPU_MSM_ACCUM_RUNS, (gpu_msm_accum)3,
                                               GPU_MSM_ACCUM_TASKS};
        g1_jacobian got[4];
        gpu_msm_job jobs[4];
        memset(got, 0x5a, sizeof got);
        for (int j = 0; j < 4; j++)
            jobs[j] = (gpu_msm_job){.bases = gb, .n = n, .d_scalars = d_s, .form = GPU_SCALARS_MONTGOMERY,
                                    .out = &got[j], .tuning = {.window_bits = 8, .accum = modes[j]}};
        cuzk_status st = gpu_g1_msm_run(ctx, jobs, 4, NULL, &e);
        CHECK_MSG(st == CUZK_OK, "4 jobs: %s", e.msg);
        for (int j = 0; st == CUZK_OK && j < 4; j++)
            CHECK_MSG(same_point_g1(&got[j], &ref), "job %d (accum %d) != g1_msm", j, (int)modes[j]);
        const size_t s_tasks = gpu_g1_msm_scratch_bytes(n, &jobs[3].tuning);
        CHECK(s_tasks > 0);
        CHECK(gpu_g1_msm_scratch_bytes(n, &jobs[0].tuning) == s_tasks); /* DEFAULT is TASKS */
        CHECK(gpu_g1_msm_scratch_bytes(n, &jobs[2].tuning) == s_tasks); /* so is an unknown value */
    }
    gpu_buf_free(ctx, d_s);
    gpu_g1_bases_free(gb);
}
TEST(gpu_msm, accum_per_job) { NEED_GPU(); with_msm_inputs_g1(40009, accum_per_job); }

/* Windows of 13..18 bits (forced through the job's tuning on a small MSM: the experiments'
 * windows) against the CPU, with random, 95 % 0/1 and r - small scalars. */
static void forced_windows(gpu_ctx *ctx, g1_affine *b, scalar256 *s, size_t n) {
    for (int c = 13; c <= 18; c++) {
        char what[64];
        g_tuning = (gpu_msm_tuning){.window_bits = c};
        gpu_msm_stats st;
        for (size_t i = 0; i < n; i++) rand_scalar(&s[i]);
        snprintf(what, sizeof what, "random, c=%d", c);
        check_case_g1(ctx, what, b, n, 0, s, n, NULL, n, &st);
        CHECK_MSG(st.tail_window_bits == c, "tail window %d, want %d", st.tail_window_bits, c);
        mix_scalars(s, n, 0.95);
        snprintf(what, sizeof what, "95%% 0/1, c=%d", c);
        check_case_g1(ctx, what, b, n, 0, s, n, NULL, n, NULL);
        for (size_t i = 0; i < n; i++) r_minus(&s[i], 1 + (test_rand64() & 0xfff));
        snprintf(what, sizeof what, "r - small, c=%d", c);
        check_case_g1(ctx, what, b, n, 0, s, n, NULL, n, NULL);
    }
    /* out of range: clamped to 2..22 (c = 2: 128 windows, more than the default host scratch) */
    g_tuning = (gpu_msm_tuning){.window_bits = 1};
    {
        gpu_msm_stats st;
        check_case_g1(ctx, "r - small, c=1 (2: 128 windows)", b, n, 0, s, n, NULL, n, &st);
        CHECK_EQ_INT(st.tail_window_bits, 2);
    }
    g_tuning = (gpu_msm_tuning){0};
    /* the defaults: lg - 4 up to 16 below 2^24, 18 at 2^24, 20 from 2^25 */
    CHECK_EQ_INT(gpu_msm_window_bits((size_t)1 << 12), 8);
    CHECK_EQ_INT(gpu_msm_window_bits((size_t)1 << 20), 16);
    CHECK_EQ_INT(gpu_msm_window_bits((size_t)1 << 23), 16);
    CHECK_EQ_INT(gpu_msm_window_bits((size_t)1 << 24), 18);
    CHECK_EQ_INT(gpu_msm_window_bits((size_t)1 << 25), 20);
    CHECK_EQ_INT(gpu_msm_window_bits((size_t)1 << 27), 20);
}
TEST(gpu_msm, forced_windows) { NEED_GPU(); with_msm_inputs_g1(20011, forced_windows); }

static void size_2_16_plus_3(gpu_ctx *ctx, g1_affine *b, scalar256 *s, size_t n) {
    gpu_msm_stats st;
    for (size_t i = 0; i < n; i++) rand_scalar(&s[i]);
    check_case_g1(ctx, "random 2^16+3", b, n, 0, s, n, NULL, n, &st);
    printf("  random:  classify %.3f ones %.3f tail %.3f (digits+sort %.3f accum %.3f reduce %.3f) total %.3f ms\n",
           st.classify_ms, st.ones_ms, st.tail_ms, st.tail_digits_ms, st.tail_accum_ms, st.tail_reduce_ms,
           st.total_ms);
    mix_scalars(s, n, 0.95);
    check_case_g1(ctx, "95% 0/1 2^16+3", b, n, 0, s, n, NULL, n, &st);
    printf("  95%% 0/1: classify %.3f ones %.3f tail %.3f total %.3f ms\n", st.classify_ms, st.ones_ms, st.tail_ms,
           st.total_ms);
    for (size_t i = 0; i < n; i++) small_scalar(&s[i], test_rand64() & 1);
    check_case_g1(ctx, "all 0/1 2^16+3", b, n, 0, s, n, NULL, n, &st);
}
TEST(gpu_msm, size_2_16_plus_3) { NEED_GPU(); with_msm_inputs_g1(((size_t)1 << 16) + 3, size_2_16_plus_3); }

/* index_and_offset, several_jobs: tests/gpu_msm_test_suite.h */
#define MSMT_G g1
#define MSMT_GPU_G g1
#define MSMT_JOB gpu_msm_job
#define MSMT_CURVE CUZK_CURVE_BLS12_381
#define MSMT_SUITE gpu_msm
#include "gpu_msm_test_suite.h"

/* ---- streamed bases (issue 23 item 2): the job's points in host memory, copied in chunks ---------
 * check_streamed_g1 (tests/gpu_msm_test_impl.h) over pinned, pageable and registered host memory:
 * sizes around the chunk, index and offset, adversarial scalars and bases, a resident and a
 * streamed job in one run. */
TEST(gpu_msm, streamed_bases) {
    NEED_GPU();
    cuzk_error e = {0};
    gpu_ctx *ctx = new_ctx();
    REQUIRE(ctx);
    const size_t nmax = 5003;
    g1_affine *pageable = malloc(nmax * sizeof *pageable), *pinned = NULL;
    scalar256 *s = malloc(nmax * sizeof *s);
    uint32_t *idx = malloc(nmax * sizeof *idx);
    REQUIRE(pageable && s && idx);
    CHECK_OK(gpu_host_alloc_pinned((void **)&pinned, nmax * sizeof *pinned, &e));
    REQUIRE(pinned);
    rand_bases_g1(pageable, nmax);
    memcpy(pinned, pageable, nmax * sizeof *pinned);
    CHECK(gpu_host_is_pinned(pinned) && !gpu_host_is_pinned(pageable));
    /* sizes around the chunk: n < S, n = S, n = kS, n = kS + 1, S below the minimum (64) */
    static const size_t ns_[] = {1, 63, 64, 65, 1000, 5003};
    static const size_t Ss[] = {1, 64, 100, 1000, 4096, 10000};
    for (size_t i = 0; i < sizeof ns_ / sizeof *ns_; i++)
        for (size_t j = 0; j < sizeof Ss / sizeof *Ss; j++) {
            const size_t n = ns_[i];
            mix_scalars(s, n, (i + j) % 2 ? 0.95 : 0.3);
            char what[64];
            snprintf(what, sizeof what, "mixed, %s", j % 2 ? "pageable" : "pinned");
            check_streamed_g1(ctx, what, j % 2 ? pageable : pinned, 0, s, n, NULL, n, Ss[j], j == 2);
        }
    /* the resident job over the same points and scalars gives the same point */
    mix_scalars(s, nmax, 0.5);
    check_case_g1(ctx, "resident (reference run)", pinned, nmax, 0, s, nmax, NULL, nmax, NULL);
    check_streamed_g1(ctx, "5003 in chunks of 128", pinned, 0, s, nmax, NULL, nmax, 128, true);
    /* index and offset: chunk boundaries cut the index list */
    for (size_t k = 0; k < 2500; k++) idx[k] = (uint32_t)(test_rand64() % 997);
    check_streamed_g1(ctx, "gather + offset", pinned, 333, s, 997, idx, 2500, 300, true);
    check_streamed_g1(ctx, "offset, no index", pinned, 17, s, 3000, NULL, 3000, 777, false);
    /* adversarial scalars and bases, across chunks */
    const size_t n = 2011;
    for (size_t i = 0; i < n; i++) small_scalar(&s[i], 0);
    check_streamed_g1(ctx, "all zero", pinned, 0, s, n, NULL, n, 500, true);
    for (size_t i = 0; i < n; i++) small_scalar(&s[i], 1);
    check_streamed_g1(ctx, "all one", pinned, 0, s, n, NULL, n, 500, false);
    for (size_t i = 0; i < n; i++) r_minus(&s[i], 1);
    check_streamed_g1(ctx, "all r-1", pinned, 0, s, n, NULL, n, 500, false);
    for (size_t i = 0; i < n; i++) scalar_of_kind(&s[i], (int)(i % 5));
    adversarial_bases_g1(pinned, n);
    check_streamed_g1(ctx, "kinds, inf/repeated/opposite bases", pinned, 0, s, n, NULL, n, 250, true);
    for (size_t i = 0; i < n; i++) small_scalar(&s[i], 12345);
    check_streamed_g1(ctx, "equal scalars", pinned, 0, s, n, NULL, n, 1000, false);
    /* a tail chunk below the stream chunk, and the window of the tuning */
    mix_scalars(s, n, 0.2);
    g_tuning = (gpu_msm_tuning){.chunk_points = 200, .window_bits = 7};
    check_streamed_g1(ctx, "tail chunks of 200, window 7", pinned, 0, s, n, NULL, n, 700, true);
    g_tuning = (gpu_msm_tuning){0};
    /* n = 0 gives infinity without touching h_bases */
    check_streamed_g1(ctx, "n = 0", pinned, 0, s, 0, NULL, 0, 64, false);
    /* two jobs in one run: one resident, one streamed */
    {
        gpu_g1_bases *gb = NULL;
        CHECK_OK(gpu_g1_bases_upload(ctx, &gb, pinned, n, &e));
        void *d_s = upload_scalars(ctx, s, n, true, CUZK_CURVE_BLS12_381);
        g1_jacobian got[2], ref;
        gpu_msm_job jobs[2] = {
            {.bases = gb, .n = n, .d_scalars = d_s, .form = GPU_SCALARS_MONTGOMERY, .out = &got[0]},
            {.h_bases = pinned, .n = n, .d_scalars = d_s, .form = GPU_SCALARS_MONTGOMERY,
             .out = &got[1], .tuning = {.stream_points = 300}}};
        ref_msm_g1(&ref, pinned, s, NULL, n);
        CHECK_OK(gpu_g1_msm_run(ctx, jobs, 2, NULL, &e));
        CHECK(same_point_g1(&got[0], &ref) && same_point_g1(&got[1], &ref));
        /* neither bases nor h_bases: misuse */
        jobs[1].h_bases = NULL;
        CHECK(gpu_g1_msm_run(ctx, &jobs[1], 1, NULL, &e) == CUZK_ERR_ARG);
        gpu_buf_free(ctx, d_s);
        gpu_g1_bases_free(gb);
    }
    /* registered (page-locked in place) pageable memory */
    CHECK_OK(gpu_host_register(pageable, nmax * sizeof *pageable, &e));
    CHECK(gpu_host_is_pinned(pageable));
    mix_scalars(s, nmax, 0.9);
    check_streamed_g1(ctx, "registered host memory", pageable, 0, s, nmax, NULL, nmax, 1024, true);
    gpu_host_unregister(pageable);
    CHECK(!gpu_host_is_pinned(pageable));
    CHECK(!gpu_ctx_dead(ctx));
    gpu_host_free_pinned(pinned);
    free(pageable);
    free(s);
    free(idx);
    gpu_ctx_destroy(ctx);
}

/* The ctx's arena (gpu_ctx_arena_set): a stack of 512-byte aligned blocks; a block freed out of
 * order comes back once the blocks above it are freed; what does not fit goes to the pool and is
 * counted; the arena cannot be replaced while a block is in use. */
TEST(gpu_msm, arena) {
    NEED_GPU();
    cuzk_error e = {0};
    gpu_ctx *ctx = new_ctx();
    REQUIRE(ctx);
    CHECK_OK(gpu_ctx_arena_set(ctx, 10000, &e));
    gpu_mem_stats ms;
    CHECK_OK(gpu_ctx_mem(ctx, &ms, &e));
    CHECK(ms.arena_bytes == 10240 && ms.arena_used_bytes == 0 && ms.arena_high_bytes == 0);
    void *a = NULL, *b = NULL, *c = NULL, *d = NULL;
    CHECK_OK(gpu_buf_alloc(ctx, &a, 1000, &e));
    CHECK_OK(gpu_buf_alloc(ctx, &b, 3000, &e));
    CHECK((char *)b - (char *)a == 1024);
    CHECK_OK(gpu_buf_alloc(ctx, &c, 100, &e));
    CHECK_OK(gpu_ctx_mem(ctx, &ms, &e));
    CHECK(ms.arena_used_bytes == 1024 + 3072 + 512 && ms.arena_overflows == 0);
    CHECK(gpu_ctx_arena_set(ctx, 20000, &e) == CUZK_ERR_ARG); /* blocks in use */
    gpu_buf_free(ctx, b); /* not the top: kept until c goes */
    CHECK_OK(gpu_ctx_mem(ctx, &ms, &e));
    CHECK(ms.arena_used_bytes == 1024 + 3072 + 512);
    gpu_buf_free(ctx, c);
    CHECK_OK(gpu_ctx_mem(ctx, &ms, &e));
    CHECK(ms.arena_used_bytes == 1024);
    CHECK_OK(gpu_buf_alloc(ctx, &d, 20000, &e)); /* too large: the pool */
    CHECK_OK(gpu_ctx_mem(ctx, &ms, &e));
    CHECK(ms.arena_overflows == 1 && ms.arena_used_bytes == 1024);
    /* the blocks are real device memory */
    uint8_t h[1000], back[1000];
    for (int i = 0; i < 1000; i++) h[i] = (uint8_t)(i * 13);
    CHECK_OK(gpu_copy_h2d_async(ctx, a, h, 1000, &e));
    CHECK_OK(gpu_copy_d2h_async(ctx, back, a, 1000, &e));
    CHECK_OK(gpu_sync(ctx, &e));
    CHECK(!memcmp(h, back, 1000));
    gpu_buf_free(ctx, d);
    gpu_buf_free(ctx, a);
    CHECK_OK(gpu_ctx_mem(ctx, &ms, &e));
    CHECK(ms.arena_used_bytes == 0 && ms.arena_high_bytes == 1024 + 3072 + 512);
    gpu_ctx_mem_reset_high(ctx);
    CHECK_OK(gpu_ctx_mem(ctx, &ms, &e));
    CHECK(ms.arena_high_bytes == 0 && ms.arena_overflows == 0);
    /* an absurd arena: NOMEM_DEVICE, the ctx stays usable without one */
    CHECK(gpu_ctx_arena_set(ctx, 2 * ms.device_total_bytes, &e) == CUZK_ERR_NOMEM_DEVICE);
    CHECK_OK(gpu_ctx_mem(ctx, &ms, &e));
    CHECK(ms.arena_bytes == 0 && !gpu_ctx_dead(ctx));
    CHECK_OK(gpu_buf_alloc(ctx, &a, 1000, &e));
    gpu_buf_free(ctx, a);
    CHECK_OK(gpu_ctx_arena_set(ctx, 0, &e));
    gpu_ctx_destroy(ctx);
}

#endif
