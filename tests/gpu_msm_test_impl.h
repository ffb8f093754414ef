/* The per-group part of tests/gpu_msm_test.h: an X-include template (DESIGN.md section 2, the way
 * src/ec/curve_impl.h is written), no include guard. gpu_msm_test.h includes it once per group
 * after defining:
 *
 *   MSMT_G      the host group's prefix (g1, g2, bn254_g1, bn254_g2): its types and functions are
 *               TG(suffix) (TG(_affine) -> g1_affine), its device entry points TD(suffix)
 *               (TD(_msm_run) -> gpu_g1_msm_run, gpu_bn254_g2_msm_run)
 *   MSMT_GPU_G  the device bases of the group, shared by the curves (g1, g2): TB(_bases) ->
 *               gpu_g1_bases, TB(_bases_free) -> gpu_g1_bases_free
 *   MSMT_JOB    the group's device job (gpu_msm_job, gpu_g2_msm_job)
 *   MSMT_CURVE  the curve of the scalars (CUZK_CURVE_BLS12_381, CUZK_CURVE_BN254)
 *
 * and gets, for that group, the helpers below, each named <helper>_<group> (TESTG(check_case) ->
 * check_case_g1; TG, TD, TB and TESTG are defined by gpu_msm_test.h): random bases, point equality and the CPU reference (every group), then checks of
 * the device MSM against it and the case sequences the G1 and G2 suites share (tests/test_gpu_msm.c,
 * tests/test_gpu_g2.c). Every check is a CHECK* of tests/test.h and counts as one. */
#if !defined(MSMT_G) || !defined(MSMT_GPU_G) || !defined(MSMT_JOB) || !defined(MSMT_CURVE)
#error "define MSMT_G, MSMT_GPU_G, MSMT_JOB and MSMT_CURVE before including gpu_msm_test_impl.h"
#endif

/* ---- bases, equality, the CPU reference ---------------------------------------------------------
 * rand_bases_G(out, n): n affine points, P_0 a random multiple of the generator, P_{i+1} = P_i + Q,
 * Q a random multiple (one inversion for all). */
static inline void TESTG(rand_bases)(TG(_affine) *out, size_t n) {
    TG(_affine) g, q;
    TG(_jacobian) gj, p, qj;
    TG(_generator)(&g);
    TG(_jacobian_from_affine)(&gj, &g);
    scalar256 k;
    rand_scalar_on(&k, MSMT_CURVE);
    TG(_mul_vartime)(&p, &gj, k.l, 4);
    rand_scalar_on(&k, MSMT_CURVE);
    TG(_mul_vartime)(&qj, &gj, k.l, 4);
    TG(_jacobian_to_affine)(&q, &qj);
    TG(_jacobian) *tmp = malloc((n ? n : 1) * sizeof *tmp);
    if (!tmp) abort();
    for (size_t i = 0; i < n; i++) {
        tmp[i] = p;
        TG(_jacobian_add_mixed)(&p, &p, &q);
    }
    TG(s_jacobian_to_affine)(out, tmp, n);
    free(tmp);
}
/* a and b (Jacobian) are the same point */
static inline bool TESTG(same_point)(const TG(_jacobian) *a, const TG(_jacobian) *b) {
    TG(_affine) x, y;
    TG(_jacobian_to_affine)(&x, a);
    TG(_jacobian_to_affine)(&y, b);
    return TG(_affine_eq)(&x, &y);
}
/* out = sum_{k<n} s[idx ? idx[k] : k] * b[k] on the CPU */
static inline void TESTG(ref_msm)(TG(_jacobian) *out, const TG(_affine) *b, const scalar256 *s, const uint32_t *idx,
                                  size_t n) {
    scalar256 *g = calloc(n ? n : 1, sizeof *g); /* calloc: gcc -O3 sees g[0] maybe uninitialized at n = 0 */
    if (!g) abort();
    for (size_t k = 0; k < n; k++) g[k] = s[idx ? idx[k] : k];
    TG(_msm)(out, b, g, n, 0);
    free(g);
}
/* The adversarial bases of most cases: every 13th at infinity, b[i+1] = b[i] (i = 5, 16, 27, ...)
 * and b[i+1] = -b[i] (i = 8, 25, 42, ...): P + P, P + (-P) and infinity inside buckets and sums. */
static inline void TESTG(adversarial_bases)(TG(_affine) *b, size_t n) {
    for (size_t i = 0; i < n; i += 13) TG(_affine_set_infinity)(&b[i]);
    for (size_t i = 5; i + 1 < n; i += 11) b[i + 1] = b[i];
    for (size_t i = 8; i + 1 < n; i += 17) TG(_affine_neg)(&b[i + 1], &b[i]);
}

/* ---- the host-array form ------------------------------------------------------------------------
 * gpu_G_msm(b, s, n) (s canonical) against G_msm: checks its status and, when it ran, its point
 * (two checks); *got gets the GPU's result. Returns the status. */
static inline cuzk_status TESTG(check_host_msm)(TG(_jacobian) *got, const char *what, const TG(_affine) *b,
                                                const scalar256 *s, size_t n) {
    TG(_jacobian) ref;
    memset(got, 0x5a, sizeof *got);
    TG(_msm)(&ref, b, s, n, 0);
    cuzk_error e = {0};
    cuzk_status st = TD(_msm)(got, b, s, n, &e);
    CHECK_MSG(st == CUZK_OK, "gpu_%s_msm %s (n=%zu): %s", TG_NAME, what, n, e.msg);
    if (st == CUZK_OK) CHECK_MSG(TESTG(same_point)(got, &ref), "gpu_%s_msm %s (n=%zu): GPU != CPU", TG_NAME, what, n);
    return st;
}

/* ---- resident bases ------------------------------------------------------------------------------
 * The frame of most resident-MSM tests: body(ctx, b, s, n) over a new device context, n random bases
 * (rand_bases_G) and room for n scalars, all freed after. The context and the host arrays are
 * checked (as the REQUIREs of each test were); body does not run without them. */
static inline void TESTG(with_msm_inputs)(size_t n, void (*body)(gpu_ctx *ctx, TG(_affine) *b, scalar256 *s, size_t n)) {
    gpu_ctx *ctx = new_ctx();
    REQUIRE(ctx);
    TG(_affine) *b = malloc(n * sizeof *b);
    scalar256 *s = malloc(n * sizeof *s);
    CHECK_MSG(b && s, "out of host memory for %zu bases and scalars", n);
    if (b && s) {
        TESTG(rand_bases)(b, n);
        body(ctx, b, s, n);
    }
    free(b);
    free(s);
    gpu_ctx_destroy(ctx);
}
/* b[0..n) random (rand_bases_G), resident on ctx (checked): the bases, NULL when the upload failed */
static inline TB(_bases) *TESTG(resident_bases)(gpu_ctx *ctx, TG(_affine) *b, size_t n) {
    cuzk_error e = {0};
    TB(_bases) *gb = NULL;
    TESTG(rand_bases)(b, n);
    CHECK_OK(TD(_bases_upload)(ctx, &gb, b, n, &e));
    return gb;
}

/* One job over resident bases: sum_{k<n} s[idx ? idx[k] : k] * b[off + k] (s: ns canonical
 * scalars) with the tuning g_tuning, on the GPU in both scalar forms, checked against the CPU and
 * the classification counts; the bases' count and bytes checked after the upload. The canonical
 * run's stats into *stats_out (may be NULL). */
static inline void TESTG(check_case)(gpu_ctx *ctx, const char *what, const TG(_affine) *b, size_t nb, size_t off,
                                     const scalar256 *s, size_t ns, const uint32_t *idx, size_t n,
                                     gpu_msm_stats *stats_out) {
    cuzk_error e = {0};
    TB(_bases) *gb = NULL;
    cuzk_status st = TD(_bases_upload)(ctx, &gb, b, nb, &e);
    CHECK_MSG(st == CUZK_OK, "%s: upload: %s", what, e.msg);
    if (st != CUZK_OK) return;
    CHECK(TB(_bases_count)(gb) == nb && TB(_bases_bytes)(gb) == nb * sizeof(TG(_affine)));
    TG(_jacobian) ref;
    TESTG(ref_msm)(&ref, b + off, s, idx, n);
    size_t c[3];
    count_kinds(s, idx, n, c);
    void *d_idx = idx ? upload_u32(ctx, idx, n) : NULL;
    for (int mont = 0; mont < 2; mont++) {
        void *d_s = upload_scalars(ctx, s, ns, mont, MSMT_CURVE);
        TG(_jacobian) got;
        memset(&got, 0x5a, sizeof got);
        MSMT_JOB job = {.bases = gb, .base_offset = off, .n = n, .d_scalars = d_s,
                        .form = mont ? GPU_SCALARS_MONTGOMERY : GPU_SCALARS_CANONICAL,
                        .d_index = d_idx, .out = &got, .tuning = g_tuning};
        gpu_msm_stats stats;
        st = TD(_msm_run)(ctx, &job, 1, &stats, &e);
        CHECK_MSG(st == CUZK_OK, "%s (n=%zu, %s): %s (%s)", what, n, mont ? "mont" : "canon", cuzk_status_str(st),
                  e.msg);
        if (st == CUZK_OK) {
            CHECK_MSG(TESTG(same_point)(&got, &ref), "%s (n=%zu, %s): GPU != %s_msm", what, n,
                      mont ? "mont" : "canon", TG_NAME);
            CHECK_MSG(stats.n_zero == c[0] && stats.n_one == c[1] && stats.n_other == c[2],
                      "%s: counts %zu/%zu/%zu, want %zu/%zu/%zu", what, stats.n_zero, stats.n_one, stats.n_other, c[0],
                      c[1], c[2]);
            if (!mont && stats_out) *stats_out = stats;
        }
        gpu_buf_free(ctx, d_s);
    }
    gpu_buf_free(ctx, d_idx);
    TB(_bases_free)(gb);
}

/* ---- streamed bases (issue 23 item 2) -------------------------------------------------------------
 * One job over h_bases (the n points hb[off .. off + n) in HOST memory, pinned or pageable) in
 * chunks of S points, with the tuning g_tuning and stream_points S, in both scalar forms, against
 * the CPU; the stats count the copied bytes and chunks (S below 64 is raised to 64) and every
 * scalar once. With `arena` the ctx's arena is exactly room for the scalars (twice), the index
 * and TB(_msm_stream_scratch_bytes)(n) (the prover's plan), and nothing may overflow it; the arena
 * is dropped after. The suites use it for BLS12-381, whose queries the bellperson prover streams
 * (for BN254 the scratch bound, sized for BLS12-381's points, would only over-count). */
static inline void TESTG(check_streamed)(gpu_ctx *ctx, const char *what, const TG(_affine) *hb, size_t off,
                                         const scalar256 *s, size_t ns, const uint32_t *idx, size_t n, size_t S,
                                         bool arena) {
    cuzk_error e = {0};
    TG(_jacobian) ref;
    TESTG(ref_msm)(&ref, hb + off, s, idx, n);
    gpu_msm_tuning t = g_tuning;
    t.stream_points = S;
    if (arena) {
        const size_t need = 2 * (ns * 32 + 512) + (idx ? n * 4 + 512 : 0) + TB(_msm_stream_scratch_bytes)(n, &t);
        cuzk_status st = gpu_ctx_arena_set(ctx, need, &e);
        CHECK_MSG(st == CUZK_OK, "%s: arena of %zu bytes: %s", what, need, e.msg);
        gpu_ctx_mem_reset_high(ctx);
    }
    void *d_idx = idx ? upload_u32(ctx, idx, n) : NULL;
    for (int mont = 0; mont < 2; mont++) {
        void *d_s = upload_scalars(ctx, s, ns, mont, MSMT_CURVE);
        TG(_jacobian) got;
        memset(&got, 0x5a, sizeof got);
        MSMT_JOB job = {.h_bases = hb, .base_offset = off, .n = n, .d_scalars = d_s,
                        .form = mont ? GPU_SCALARS_MONTGOMERY : GPU_SCALARS_CANONICAL,
                        .d_index = d_idx, .out = &got, .tuning = t};
        gpu_msm_stats stats;
        cuzk_status st = TD(_msm_run)(ctx, &job, 1, &stats, &e);
        CHECK_MSG(st == CUZK_OK, "%s (n=%zu, S=%zu, %s): %s (%s)", what, n, S, mont ? "mont" : "canon",
                  cuzk_status_str(st), e.msg);
        if (st == CUZK_OK) {
            CHECK_MSG(TESTG(same_point)(&got, &ref), "%s (n=%zu, S=%zu, %s): streamed GPU != %s_msm", what, n, S,
                      mont ? "mont" : "canon", TG_NAME);
            const size_t Se = S < 64 ? 64 : S;
            CHECK_MSG(n == 0 || (stats.stream_bytes == n * sizeof(TG(_affine)) && stats.stream_chunks == (n + Se - 1) / Se),
                      "%s: streamed %zu bytes in %zu chunks (n=%zu, S=%zu)", what, stats.stream_bytes, stats.stream_chunks,
                      n, S);
            CHECK(stats.n_zero + stats.n_one + stats.n_other == n);
        }
        gpu_buf_free(ctx, d_s);
    }
    gpu_buf_free(ctx, d_idx);
    if (arena) {
        gpu_mem_stats ms;
        CHECK_OK(gpu_ctx_mem(ctx, &ms, &e));
        CHECK_MSG(ms.arena_overflows == 0, "%s: %llu allocations overflowed an arena of the planned size", what,
                  (unsigned long long)ms.arena_overflows);
        CHECK(ms.arena_high_bytes <= ms.arena_bytes && ms.arena_used_bytes == 0);
        CHECK_OK(gpu_ctx_arena_set(ctx, 0, &e));
    }
}

/* ---- case sequences shared by the G1 and G2 suites (scalars of MSMT_CURVE) ----------------------- */

/* n of 0, 1, 2, 3, 4, 5, 7, 17, 31, 100, 129, 257 with random and mixed scalars; one base with each
 * single scalar 0 / 1 / 2 / r-1 / random */
static inline void TESTG(small_sizes)(gpu_ctx *ctx) {
    static const size_t sizes[] = {0, 1, 2, 3, 4, 5, 7, 17, 31, 100, 129, 257};
    TG(_affine) b[257];
    scalar256 s[257];
    for (size_t t = 0; t < sizeof sizes / sizeof *sizes; t++) {
        const size_t n = sizes[t];
        TESTG(rand_bases)(b, n ? n : 1);
        for (size_t i = 0; i < n; i++) rand_scalar_on(&s[i], MSMT_CURVE);
        TESTG(check_case)(ctx, "random", b, n, 0, s, n, NULL, n, NULL);
        mix_scalars_on(s, n, 0.6, MSMT_CURVE);
        TESTG(check_case)(ctx, "mixed", b, n, 0, s, n, NULL, n, NULL);
    }
    for (int kind = K_RANDOM; kind <= K_TWO; kind++) {
        scalar_of_kind_on(&s[0], kind, MSMT_CURVE);
        TESTG(check_case)(ctx, "single", b, 1, 0, s, 1, NULL, 1, NULL);
    }
}

/* Over the n bases b: every scalar 0 (nothing reaches the tail), every scalar 1 (all in the ones
 * sum), every scalar r-1, every scalar 2, and 0/1 alternating. */
static inline void TESTG(uniform_scalars)(gpu_ctx *ctx, const TG(_affine) *b, scalar256 *s, size_t n) {
    gpu_msm_stats st;
    for (size_t i = 0; i < n; i++) small_scalar(&s[i], 0);
    TESTG(check_case)(ctx, "all zero", b, n, 0, s, n, NULL, n, &st);
    CHECK(st.n_zero == n && st.n_one == 0 && st.n_other == 0 && st.tail_chunks == 0);
    for (size_t i = 0; i < n; i++) small_scalar(&s[i], 1);
    TESTG(check_case)(ctx, "all one", b, n, 0, s, n, NULL, n, &st);
    CHECK(st.n_one == n && st.tail_chunks == 0);
    for (size_t i = 0; i < n; i++) r_minus_on(&s[i], 1, MSMT_CURVE);
    TESTG(check_case)(ctx, "all r-1", b, n, 0, s, n, NULL, n, NULL);
    for (size_t i = 0; i < n; i++) small_scalar(&s[i], 2);
    TESTG(check_case)(ctx, "all two", b, n, 0, s, n, NULL, n, NULL);
    for (size_t i = 0; i < n; i++) small_scalar(&s[i], i & 1);
    TESTG(check_case)(ctx, "alternating 0/1", b, n, 0, s, n, NULL, n, NULL);
}

/* The bases made adversarial (adversarial_bases_G) under every scalar kind, then under ones; then
 * b[1] everywhere from b[1] on under ones (the ones sum doubles). Leaves b so, and s all ones. */
static inline void TESTG(adversarial_bases_cases)(gpu_ctx *ctx, TG(_affine) *b, scalar256 *s, size_t n) {
    for (size_t i = 0; i < n; i++) scalar_of_kind_on(&s[i], (int)(i % 5), MSMT_CURVE);
    TESTG(adversarial_bases)(b, n);
    TESTG(check_case)(ctx, "kinds, inf/repeated/opposite bases", b, n, 0, s, n, NULL, n, NULL);
    for (size_t i = 0; i < n; i++) small_scalar(&s[i], 1);
    TESTG(check_case)(ctx, "ones, inf/repeated/opposite bases", b, n, 0, s, n, NULL, n, NULL);
    for (size_t i = 1; i < n; i++) b[i] = b[1];
    TESTG(check_case)(ctx, "ones, one repeated base", b, n, 0, s, n, NULL, n, NULL);
}

/* Alternating P, -P (b[2i+1] = -b[2i]) under 0/1-heavy scalars: sums that cancel to infinity and
 * restart. Leaves b and s so. */
static inline void TESTG(opposite_pairs_case)(gpu_ctx *ctx, TG(_affine) *b, scalar256 *s, size_t n) {
    for (size_t i = 1; i < n; i += 2) TG(_affine_neg)(&b[i], &b[i - 1]);
    mix_scalars_on(s, n, 0.9, MSMT_CURVE);
    TESTG(check_case)(ctx, "mixed, P and -P", b, n, 0, s, n, NULL, n, NULL);
}

/* Fresh random bases with two equal small scalars alternating (one hot bucket per window, both
 * digit signs); then every base at infinity under mixed scalars. */
static inline void TESTG(equal_scalars_and_infinity)(gpu_ctx *ctx, TG(_affine) *b, scalar256 *s, size_t n) {
    TESTG(rand_bases)(b, n);
    for (size_t i = 0; i < n; i++) small_scalar(&s[i], (i % 2) ? 0xffffffffull : 12345);
    TESTG(check_case)(ctx, "equal small scalars", b, n, 0, s, n, NULL, n, NULL);
    for (size_t i = 0; i < n; i++) TG(_affine_set_infinity)(&b[i]);
    mix_scalars_on(s, n, 0.5, MSMT_CURVE);
    TESTG(check_case)(ctx, "all bases infinity", b, n, 0, s, n, NULL, n, NULL);
}

/* Chunked tails over the n bases b: random scalars with r-1 every 7th in chunks of 1000 (six
 * passes at n = 5003), then 50 % 0/1 scalars in chunks of each of chunks[0..k) points (a size
 * below 64 is raised to 64), the number of passes checked each time. Leaves s the 50 % mix. */
static inline void TESTG(chunk_cases)(gpu_ctx *ctx, const TG(_affine) *b, scalar256 *s, size_t n,
                                      const size_t *chunks, size_t k) {
    for (size_t i = 0; i < n; i++) rand_scalar_on(&s[i], MSMT_CURVE);
    for (size_t i = 0; i < n; i += 7) r_minus_on(&s[i], 1, MSMT_CURVE);
    gpu_msm_stats st;
    g_tuning = (gpu_msm_tuning){.chunk_points = 1000};
    TESTG(check_case)(ctx, "random, chunks of 1000", b, n, 0, s, n, NULL, n, &st);
    CHECK_MSG(st.tail_chunks == (n - 1) / 1000 + 1, "tail_chunks %zu, want %zu", st.tail_chunks, (n - 1) / 1000 + 1);
    mix_scalars_on(s, n, 0.5, MSMT_CURVE);
    size_t c[3];
    count_kinds(s, NULL, n, c);
    for (size_t j = 0; j < k; j++) {
        const size_t chunk = chunks[j] < 64 ? 64 : chunks[j];
        char what[64];
        snprintf(what, sizeof what, "50%% 0/1, chunks of %zu (%zu)", chunks[j], chunk);
        g_tuning = (gpu_msm_tuning){.chunk_points = chunks[j]};
        TESTG(check_case)(ctx, what, b, n, 0, s, n, NULL, n, &st);
        CHECK_MSG(st.tail_chunks == (c[2] + chunk - 1) / chunk, "%s: tail_chunks %zu", what, st.tail_chunks);
    }
    g_tuning = (gpu_msm_tuning){0};
}

/* Under the tuning the caller set (`mode` in the messages): every scalar kind over adversarial bases
 * (adversarial_bases_G), then every scalar r-1 (one heavy bucket per window). Leaves b so. */
static inline void TESTG(kinds_then_r_minus_1)(gpu_ctx *ctx, TG(_affine) *b, scalar256 *s, size_t n, const char *mode) {
    char what[96];
    for (size_t i = 0; i < n; i++) scalar_of_kind_on(&s[i], (int)(i % 5), MSMT_CURVE);
    TESTG(adversarial_bases)(b, n);
    snprintf(what, sizeof what, "%s: kinds 0/1/2/r-1/random, inf/repeated/opposite bases", mode);
    TESTG(check_case)(ctx, what, b, n, 0, s, n, NULL, n, NULL);
    for (size_t i = 0; i < n; i++) r_minus_on(&s[i], 1, MSMT_CURVE);
    snprintf(what, sizeof what, "%s: all r-1 (one heavy bucket per window)", mode);
    TESTG(check_case)(ctx, what, b, n, 0, s, n, NULL, n, NULL);
}

/* Scalars r - k, k random in 1..2^16: the high digits shared, one heavy bucket per high window */
static inline void TESTG(r_small_case)(gpu_ctx *ctx, const TG(_affine) *b, scalar256 *s, size_t n) {
    for (size_t i = 0; i < n; i++) r_minus_on(&s[i], 1 + (test_rand64() & 0xffff), MSMT_CURVE);
    TESTG(check_case)(ctx, "r - small (16 bits)", b, n, 0, s, n, NULL, n, NULL);
}

/* Heavy buckets: s all equal (the caller's), with b[i+1] = b[i] every 7th, b[i+1] = -b[i] every 9th
 * from 3 and every 101st at infinity (partial sums that double and cancel inside the hot bucket);
 * then P, -P pairs only and the last base at infinity (the bucket sums to infinity). */
static inline void TESTG(heavy_equal_cases)(gpu_ctx *ctx, TG(_affine) *b, const scalar256 *s, size_t n) {
    for (size_t i = 0; i + 1 < n; i += 7) b[i + 1] = b[i];
    for (size_t i = 3; i + 1 < n; i += 9) TG(_affine_neg)(&b[i + 1], &b[i]);
    for (size_t i = 0; i < n; i += 101) TG(_affine_set_infinity)(&b[i]);
    TESTG(check_case)(ctx, "all equal, repeated/opposite/infinity bases", b, n, 0, s, n, NULL, n, NULL);
    for (size_t i = 1; i < n; i += 2) TG(_affine_neg)(&b[i], &b[i - 1]);
    TG(_affine_set_infinity)(&b[n - 1]);
    TESTG(check_case)(ctx, "all equal, P/-P pairs (sum at infinity)", b, n, 0, s, n, NULL, n, NULL);
}

/* Misuse of the run entry point, each refused with CUZK_ERR_ARG naming it and nothing run: *job (a
 * job of n = 4 over the 4 bases of ctx with d_s; its out, d_scalars, form and n are changed and
 * put back) at offset 1 (offset + n > count), with a NULL out, NULL d_scalars, a bad form, n = 2^31;
 * NULL jobs (n_jobs 0 is fine), a NULL ctx, and a ctx the bases are not on. */
static inline void TESTG(job_misuse)(gpu_ctx *ctx, MSMT_JOB *job) {
    cuzk_error e = {0};
    void *out = job->out;
    const void *d_s = job->d_scalars;
    job->base_offset = 1;
    CHECK_EQ_INT(TD(_msm_run)(ctx, job, 1, NULL, &e), CUZK_ERR_ARG); /* offset + n > count */
    CHECK_MSG(strstr(e.msg, "gpu_" TG_STR(MSMT_GPU_G) "_msm_run") != NULL, "message: %s", e.msg);
    job->base_offset = 0;
    job->out = NULL;
    CHECK_EQ_INT(TD(_msm_run)(ctx, job, 1, NULL, &e), CUZK_ERR_ARG);
    job->out = out;
    job->d_scalars = NULL;
    CHECK_EQ_INT(TD(_msm_run)(ctx, job, 1, NULL, &e), CUZK_ERR_ARG);
    job->d_scalars = d_s;
    job->form = (gpu_scalar_form)7;
    CHECK_EQ_INT(TD(_msm_run)(ctx, job, 1, NULL, &e), CUZK_ERR_ARG);
    job->form = GPU_SCALARS_CANONICAL;
    job->n = (size_t)1 << 31;
    CHECK_EQ_INT(TD(_msm_run)(ctx, job, 1, NULL, &e), CUZK_ERR_ARG);
    job->n = 4;
    CHECK_EQ_INT(TD(_msm_run)(ctx, NULL, 1, NULL, &e), CUZK_ERR_ARG);
    CHECK_EQ_INT(TD(_msm_run)(ctx, NULL, 0, NULL, &e), CUZK_OK);
    CHECK_EQ_INT(TD(_msm_run)(NULL, job, 1, NULL, &e), CUZK_ERR_ARG);
    gpu_ctx *other = new_ctx();
    if (other) {
        CHECK_EQ_INT(TD(_msm_run)(other, job, 1, NULL, &e), CUZK_ERR_ARG);
        gpu_ctx_destroy(other);
    }
}

#undef MSMT_CURVE
#undef MSMT_JOB
#undef MSMT_GPU_G
#undef MSMT_G
