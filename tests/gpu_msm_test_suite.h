/* The tests the G1 and G2 suites run the same way, defined once: an X-include template (as
 * tests/gpu_msm_test_impl.h, whose helpers and names it uses), no include guard. A suite includes it
 * after tests/gpu_msm_test.h with
 *
 *   MSMT_G      its group (g1, g2), as for gpu_msm_test_impl.h
 *   MSMT_JOB    the group's device job (gpu_msm_job, gpu_g2_msm_job)
 *   MSMT_GPU_G  the device bases of the group (g1, g2)
 *   MSMT_CURVE  the curve of the scalars
 *   MSMT_SUITE  its suite (gpu_msm, gpu_g2)
 *
 * and gets the tests <suite>/index_and_offset and <suite>/several_jobs. */
#if !defined(MSMT_G) || !defined(MSMT_GPU_G) || !defined(MSMT_JOB) || !defined(MSMT_CURVE) || !defined(MSMT_SUITE)
#error "define MSMT_G, MSMT_GPU_G, MSMT_JOB, MSMT_CURVE and MSMT_SUITE before including gpu_msm_test_suite.h"
#endif

#define MSMT_TEST(suite, name) TEST(suite, name) /* expands MSMT_SUITE first */

/* 3001 bases, 997 scalars, jobs of 2500 through an index (random gathers with repeats, then 13
 * scalars repeated) at offsets 333 and the end, an offset without an index, and n = 0 at the end. */
MSMT_TEST(MSMT_SUITE, index_and_offset) {
    NEED_GPU();
    gpu_ctx *ctx = new_ctx();
    REQUIRE(ctx);
    const size_t nb = 3001, ns = 997, n = 2500, off = 333;
    TG(_affine) *b = malloc(nb * sizeof *b);
    scalar256 *s = malloc(ns * sizeof *s);
    uint32_t *idx = malloc(n * sizeof *idx);
    REQUIRE(b && s && idx);
    TESTG(rand_bases)(b, nb);
    mix_scalars_on(s, ns, 0.7, MSMT_CURVE);
    for (size_t k = 0; k < n; k++) idx[k] = (uint32_t)(test_rand64() % ns); /* gathers with repeats */
    gpu_msm_stats st;
    size_t c[3];
    count_kinds(s, idx, n, c);
    TESTG(check_case)(ctx, "gather + offset", b, nb, off, s, ns, idx, n, &st);
    CHECK(st.n_zero == c[0] && st.n_one == c[1] && st.n_other == c[2]);
    for (size_t k = 0; k < n; k++) idx[k] = (uint32_t)((k * 7) % 13); /* few scalars, many repeats */
    TESTG(check_case)(ctx, "gather of 13", b, nb, nb - n, s, ns, idx, n, NULL);
    TESTG(check_case)(ctx, "offset, no index", b, nb, 17, s, ns, NULL, ns, NULL);
    TESTG(check_case)(ctx, "offset at the end, n = 0", b, nb, nb, s, ns, NULL, 0, NULL);
    free(b);
    free(s);
    free(idx);
    gpu_ctx_destroy(ctx);
}

/* Five jobs in one run over one set of 5000 bases (offsets 0, 100, 4999, 0, 2500; n 5000, 1000, 1,
 * 0, 2500; canonical and Montgomery scalars alternating): each against the CPU, n = 0 at infinity,
 * the stats summed over the jobs. */
MSMT_TEST(MSMT_SUITE, several_jobs) {
    NEED_GPU();
    gpu_ctx *ctx = new_ctx();
    REQUIRE(ctx);
    const size_t nb = 5000;
    TG(_affine) *b = malloc(nb * sizeof *b);
    scalar256 *s = malloc(nb * sizeof *s);
    REQUIRE(b && s);
    TB(_bases) *gb = TESTG(resident_bases)(ctx, b, nb);
    REQUIRE(gb);
    mix_scalars_on(s, nb, 0.8, MSMT_CURVE);
    void *d_c = upload_scalars(ctx, s, nb, false, MSMT_CURVE);
    void *d_m = upload_scalars(ctx, s, nb, true, MSMT_CURVE);
    enum { J = 5 };
    const size_t offs[J] = {0, 100, 4999, 0, 2500}, ns[J] = {5000, 1000, 1, 0, 2500};
    TG(_jacobian) got[J], ref[J];
    MSMT_JOB jobs[J];
    size_t tot[3] = {0, 0, 0};
    for (int j = 0; j < J; j++) {
        jobs[j] = (MSMT_JOB){.bases = gb, .base_offset = offs[j], .n = ns[j],
                             .d_scalars = (const uint8_t *)(j % 2 ? d_m : d_c) + 32 * offs[j],
                             .form = j % 2 ? GPU_SCALARS_MONTGOMERY : GPU_SCALARS_CANONICAL, .out = &got[j]};
        TESTG(ref_msm)(&ref[j], b + offs[j], s + offs[j], NULL, ns[j]);
        size_t c[3];
        count_kinds(s + offs[j], NULL, ns[j], c);
        for (int k = 0; k < 3; k++) tot[k] += c[k];
    }
    gpu_msm_stats st;
    cuzk_error e = {0};
    cuzk_status rc = TD(_msm_run)(ctx, jobs, J, &st, &e);
    CHECK_MSG(rc == CUZK_OK, "gpu_%s_msm_run: %s", TG_NAME, e.msg);
    for (int j = 0; j < J && rc == CUZK_OK; j++) CHECK_MSG(TESTG(same_point)(&got[j], &ref[j]), "job %d wrong", j);
    CHECK(TG(_jacobian_is_infinity)(&got[3]));
    CHECK(st.n_zero == tot[0] && st.n_one == tot[1] && st.n_other == tot[2]);
    CHECK(st.total_ms > 0 && st.total_ms >= st.classify_ms);
    printf("  stats: classify %.3f ones %.3f tail %.3f (accumulate %.3f reduce %.3f) total %.3f ms\n", st.classify_ms,
           st.ones_ms, st.tail_ms, st.tail_accum_ms, st.tail_reduce_ms, st.total_ms);
    gpu_buf_free(ctx, d_c);
    gpu_buf_free(ctx, d_m);
    TB(_bases_free)(gb);
    free(b);
    free(s);
    gpu_ctx_destroy(ctx);
}

#undef MSMT_TEST
#undef MSMT_SUITE
#undef MSMT_CURVE
#undef MSMT_JOB
#undef MSMT_GPU_G
#undef MSMT_G
