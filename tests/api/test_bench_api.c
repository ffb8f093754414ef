/* The bench kit's interface (src/benchkit/benchkit.h) as cuzk-bench uses it: built with include/
 * as its only include path plus that one header (by relative path; tools/check-layers.sh allows
 * nothing else of src/), and linked as cuzk-bench is, against the static bench kit and core
 * (cuzk_benchkit, cuzk_core): libcuzk.so exports none of it.
 *
 *   1. CPU kernels on both curves: every operation, NTT and MSM runs and reports a positive time;
 *      bad arguments are CUZK_ERR_ARG (never a crash).
 *   2. GPU kernels: a build without CUDA says UNSUPPORTED with 0 devices (the public device
 *      count); with CUDA and no device the count is 0; bad arguments are CUZK_ERR_ARG either way.
 *   3. A synthetic circuit: its witnesses prove (cuzk_prove) into proofs that verify against the
 *      key's vk (the oracle: the pairing check), for a key made in memory and for one loaded from
 *      the .params file cuzk_setup writes for the same circuit (fixed r, s: the same proof bytes
 *      from both keys, since cuzk_setup with the same seed makes the same parameters); parameters
 *      of another circuit are MISMATCH; an engine on 2 fake devices proves a job of 4 partitions
 *      that verify; after benchkit_drop_host_g1 a new prover is refused (ARG).
 *   4. .params reads at each level, random points decode (a file of them passes FULL checks), a
 *      truncated file is FORMAT.
 *   5. PoSt: a blank sector and the golden vanilla proofs: sizes, witness (the same on 1 and 2
 *      threads), the counting and recording passes (parallel and serial give the same R1CS), and
 *      a key made in memory for the recorded circuit whose engine jobs (cuzk_post_job_synth)
 *      verify, and fail to verify with a public input changed.
 * Exit status 0 when every check passed. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../src/benchkit/benchkit.h"
#include "cuzk/cuzk.h"
#include "cuzk/engine.h"
#include "cuzk/filecoin.h"
#include "cuzk/groth16.h"
#include "cuzk/prover.h"

#ifndef CUZK_FIXTURES_DIR
#error "CUZK_FIXTURES_DIR must name tests/fixtures"
#endif

static int g_fail, g_checks;
#define CHECK(cond)                                                                                                    \
    do {                                                                                                               \
        g_checks++;                                                                                                    \
        if (!(cond)) {                                                                                                 \
            g_fail++;                                                                                                  \
            fprintf(stderr, "FAIL %s:%d: %s\n", __FILE__, __LINE__, #cond);                                            \
        }                                                                                                              \
    } while (0)
#define CHECK_ST(call, want)                                                                                           \
    do {                                                                                                               \
        cuzk_status got_ = (call);                                                                                     \
        g_checks++;                                                                                                    \
        if (got_ != (want)) {                                                                                          \
            g_fail++;                                                                                                  \
            fprintf(stderr, "FAIL %s:%d: %s -> %s, expected %s (%s)\n", __FILE__, __LINE__, #call,                     \
                    cuzk_status_str(got_), cuzk_status_str(want), e.msg);                                              \
        }                                                                                                              \
    } while (0)

static void test_cpu_kernels(void) {
    cuzk_error e = {0};
    const cuzk_curve curves[2] = {CUZK_CURVE_BLS12_381, CUZK_CURVE_BN254};
    for (int c = 0; c < 2; c++) {
        for (int op = 0; op < BENCHKIT_N_OPS; op++) {
            double ns = -1;
            CHECK_ST(benchkit_op_time(curves[c], (benchkit_op)op, 50, &ns, &e), CUZK_OK);
            CHECK(ns > 0);
            CHECK(strcmp(benchkit_op_name((benchkit_op)op), "?") != 0);
        }
        benchkit_ntt *n = NULL;
        CHECK_ST(benchkit_ntt_create(&n, curves[c], 8, 1, &e), CUZK_OK);
        double f = -1, i = -1;
        if (n) CHECK_ST(benchkit_ntt_run(n, 1, &f, &i, &e), CUZK_OK);
        CHECK(f >= 0 && i >= 0);
        benchkit_ntt_destroy(n);
        benchkit_msm *m = NULL;
        CHECK_ST(benchkit_msm_create(&m, curves[c], 300, 2, &e), CUZK_OK);
        double ms = -1;
        if (m) {
            CHECK_ST(benchkit_msm_run(m, 300, BENCHKIT_SCALARS_RANDOM, 2, &ms, &e), CUZK_OK);
            CHECK(ms >= 0);
            CHECK_ST(benchkit_msm_run(m, 200, BENCHKIT_SCALARS_01, 0, &ms, &e), CUZK_OK);
            CHECK_ST(benchkit_msm_run(m, 301, BENCHKIT_SCALARS_RANDOM, 1, &ms, &e), CUZK_ERR_ARG);
            CHECK_ST(benchkit_msm_run(m, 0, BENCHKIT_SCALARS_RANDOM, 1, &ms, &e), CUZK_ERR_ARG);
        }
        benchkit_msm_destroy(m);
    }
    double ns;
    CHECK_ST(benchkit_op_time(CUZK_CURVE_UNKNOWN, BENCHKIT_FP_MUL, 10, &ns, &e), CUZK_ERR_ARG);
    CHECK_ST(benchkit_op_time(CUZK_CURVE_BLS12_381, BENCHKIT_N_OPS, 10, &ns, &e), CUZK_ERR_ARG);
    CHECK_ST(benchkit_op_time(CUZK_CURVE_BLS12_381, BENCHKIT_FP_MUL, 0, &ns, &e), CUZK_ERR_ARG);
    benchkit_ntt *n = (benchkit_ntt *)1;
    CHECK_ST(benchkit_ntt_create(&n, CUZK_CURVE_BLS12_381, 0, 1, &e), CUZK_ERR_ARG);
    CHECK(n == NULL);
    CHECK_ST(benchkit_ntt_create(&n, CUZK_CURVE_BN254, 29, 1, &e), CUZK_ERR_ARG);
    benchkit_msm *m = NULL;
    CHECK_ST(benchkit_msm_create(&m, CUZK_CURVE_BLS12_381, 0, 1, &e), CUZK_ERR_ARG);
    CHECK(benchkit_msm_window_bits(1 << 16) > 0);
    benchkit_ntt_destroy(NULL);
    benchkit_msm_destroy(NULL);
}

static void test_gpu_kernels(void) {
    cuzk_error e = {0};
    int count = -1;
    cuzk_status st = cuzk_gpu_device_count(&count, &e);
    CHECK((st == CUZK_OK && count >= 0) || (st == CUZK_ERR_UNSUPPORTED && count == 0));
    float t[4];
    CHECK_ST(benchkit_gpu_msm(CUZK_CURVE_BLS12_381, 1024, 0, NULL, 0, 0, t, &e), CUZK_ERR_ARG);
    /* MSM options no prover takes (an unknown accumulation; 3, the removed batch-affine one) */
    cuzk_msm_opts bad = {0};
    bad.accumulation = (cuzk_gpu_msm_accum)7;
    CHECK_ST(benchkit_gpu_msm(CUZK_CURVE_BLS12_381, 1024, 0, &bad, 0, 1, t, &e), CUZK_ERR_ARG);
    bad.accumulation = (cuzk_gpu_msm_accum)3;
    CHECK_ST(benchkit_gpu_msm01(1024, 0.5, 0, &bad, 0, 1, t, NULL, &e), CUZK_ERR_ARG);
    CHECK_ST(benchkit_gpu_ntt(CUZK_CURVE_BN254, 10, 2, 0, 1, t, &e), CUZK_ERR_ARG);
    CHECK_ST(benchkit_gpu_msm01(1024, 1.5, 0, NULL, 0, 1, t, NULL, &e), CUZK_ERR_ARG);
    CHECK_ST(benchkit_gpu_fixed_base(3, 1024, 0, 1, t, t, &e), CUZK_ERR_ARG);
    CHECK_ST(benchkit_gpu_msm2(1024, 0, -0.5, 0, 0, 1, t, NULL, &e), CUZK_ERR_ARG);
    CHECK_ST(benchkit_gpu_msm2(1024, 21, 0.5, 0, 0, 1, t, NULL, &e), CUZK_ERR_ARG);
    CHECK_ST(benchkit_gpu_msm2(0, 0, 0.5, 0, 0, 1, t, NULL, &e), CUZK_ERR_ARG);
    if (st == CUZK_ERR_UNSUPPORTED || count == 0) {
        /* no device to time on: a well-formed request fails cleanly (no CUDA in the build or no
         * usable driver: UNSUPPORTED; no device: DEVICE) */
        cuzk_status s2 = benchkit_gpu_ntt(CUZK_CURVE_BLS12_381, 10, 1, 0, 1, t, &e);
        CHECK(s2 == CUZK_ERR_UNSUPPORTED || s2 == CUZK_ERR_DEVICE);
        CHECK(st != CUZK_ERR_UNSUPPORTED || s2 == CUZK_ERR_UNSUPPORTED);
        char info[64];
        CHECK(cuzk_gpu_device_info(0, info, sizeof info, &e) != CUZK_OK);
    } else {
        /* a device: every kernel runs and reports positive times */
        const cuzk_msm_opts runs = {.accumulation = CUZK_GPU_MSM_ACCUM_RUNS};
        const cuzk_msm_opts tasks = {.accumulation = CUZK_GPU_MSM_ACCUM_TASKS};
        CHECK_ST(benchkit_gpu_msm(CUZK_CURVE_BLS12_381, 1 << 12, 0, &runs, 0, 2, t, &e), CUZK_OK);
        CHECK(t[0] > 0 && t[1] > 0);
        CHECK_ST(benchkit_gpu_ntt(CUZK_CURVE_BN254, 12, 1, 0, 1, t, &e), CUZK_OK);
        benchkit_gpu_msm_stats s;
        CHECK_ST(benchkit_gpu_msm01(1 << 12, 0.9, 1, &tasks, 0, 1, t, &s, &e), CUZK_OK);
        CHECK(s.n_zero + s.n_one + s.n_other == (size_t)1 << 12);
        CHECK_ST(benchkit_gpu_msm01(1 << 14, 0.2, 1, &runs, 0, 1, t, &s, &e), CUZK_OK);
        CHECK(s.n_zero + s.n_one + s.n_other == (size_t)1 << 14 && t[0] > 0);
        CHECK_ST(benchkit_gpu_msm2(1 << 12, 0, 0.5, 1, 0, 1, t, &s, &e), CUZK_OK);
        CHECK(s.n_zero + s.n_one + s.n_other == (size_t)1 << 12 && t[0] > 0);
    }
}

/* ---- 3: synthetic circuits ----------------------------------------------------------------------- */
typedef struct {
    const benchkit_synthetic *s;
} job_ctx;
static cuzk_status job_synth(void *ctx, uint32_t partition, uint64_t *witness, size_t n_vars, cuzk_error *err) {
    const job_ctx *j = ctx;
    return benchkit_synthetic_witness(j->s, 100 + partition, witness, n_vars, 1, err);
}

/* proves witness seed `ws` of s with pk (fixed r, s when fixed), verifies it against the pk's vk;
 * the proof's 192 bytes into out when not NULL */
static void prove_verify(cuzk_pk *pk, const benchkit_synthetic *s, uint64_t ws, int fixed, uint8_t *out) {
    cuzk_error e = {0};
    benchkit_synthetic_info si;
    benchkit_synthetic_describe(s, &si);
    uint64_t *w = malloc((size_t)si.n_vars * 32);
    cuzk_prover *pv = NULL;
    cuzk_vk *vk = NULL;
    cuzk_proof p = {0};
    CHECK(w != NULL);
    if (!w) return;
    CHECK_ST(benchkit_synthetic_witness(s, ws, w, si.n_vars, 0, &e), CUZK_OK);
    cuzk_prover_opts po = {0};
    po.backend = CUZK_BACKEND_CPU;
    CHECK_ST(cuzk_prover_create(&pv, pk, &po, &e), CUZK_OK);
    CHECK_ST(cuzk_vk_from_pk(&vk, pk, &e), CUZK_OK);
    uint8_t r[32] = {5, 1}, sv[32] = {9, 2};
    cuzk_proof_opts fo = {0};
    if (fixed) {
        fo.fixed_r = r;
        fo.fixed_s = sv;
    }
    fo.check_witness = 1;
    cuzk_witness wit = {CUZK_WITNESS_FR_MONT, w, (size_t)si.n_vars * 32};
    if (pv) CHECK_ST(cuzk_prove(pv, &p, &wit, &fo, NULL, &e), CUZK_OK);
    if (p.has_bellperson && vk) {
        CHECK(p.n_public == si.n_public);
        CHECK_ST(cuzk_verify(vk, CUZK_PUBLIC_CANON, p.public_inputs, 32 * (size_t)p.n_public, CUZK_PROOF_BELLPERSON,
                             p.bellperson, 192, &e), CUZK_OK);
        if (out) memcpy(out, p.bellperson, 192);
    }
    cuzk_proof_free(&p);
    cuzk_prover_destroy(pv);
    cuzk_vk_free(vk);
    free(w);
}

static void test_synthetic(const char *tmp) {
    cuzk_error e = {0};
    benchkit_synthetic_opts so;
    benchkit_synthetic_opts_init(&so, 200);
    CHECK(so.constraints == 200 && so.n_public == 328 && so.frac01 > 0.9 && so.seed == 1);
    so.n_public = 3;
    benchkit_synthetic *s = NULL;
    CHECK_ST(benchkit_synthetic_create(&s, &so, &e), CUZK_OK);
    if (!s) return;
    benchkit_synthetic_info si;
    benchkit_synthetic_describe(s, &si);
    CHECK(si.n_constraints == 200 && si.n_public == 3 && si.n_vars == 204 && si.domain_size == 256);
    CHECK(si.a_per_row > 0 && si.b_per_row > 0 && si.host_bytes > 0);
    uint64_t *w = malloc((size_t)si.n_vars * 32);
    CHECK_ST(benchkit_synthetic_witness(s, 1, w, si.n_vars - 1, 1, &e), CUZK_ERR_MISMATCH);
    free(w);

    /* a key made in memory (seed 7): proofs of two witnesses verify */
    cuzk_pk *pk = NULL;
    uint64_t seed = 7;
    CHECK_ST(benchkit_synthetic_setup(&pk, s, &seed, CUZK_BACKEND_CPU, 0, NULL, NULL, &e), CUZK_OK);
    uint8_t proof_mem[192] = {0}, proof_file[192] = {1};
    if (pk) {
        cuzk_pk_info pi;
        CHECK_ST(cuzk_pk_describe(pk, &pi, &e), CUZK_OK);
        CHECK(pi.convention == CUZK_CONVENTION_BELLPERSON && pi.has_circuit && pi.n_vars == si.n_vars &&
              pi.n_constraints == 200 && pi.domain_size == si.domain_size);
        prove_verify(pk, s, 1, 1, proof_mem);
        prove_verify(pk, s, 2, 0, NULL);
    }

    /* the same parameters from the file cuzk_setup writes (same circuit options and seed): the same
     * fixed-r, s proof */
    char params[1024], vkp[1024];
    snprintf(params, sizeof params, "%s/syn.params", tmp);
    snprintf(vkp, sizeof vkp, "%s/syn.vk", tmp);
    cuzk_setup_opts o;
    cuzk_setup_opts_init(&o);
    o.seed = &seed;
    o.backend = CUZK_BACKEND_CPU;
    o.circuit = CUZK_SETUP_SYNTHETIC_POREP;
    o.synth_constraints = 200;
    o.synth_public = 3;
    o.synth_frac01 = so.frac01;
    o.synth_seed = so.seed;
    CHECK_ST(cuzk_setup(NULL, params, vkp, &o, NULL, &e), CUZK_OK);
    cuzk_pk *pkf = NULL;
    benchkit_params_load_report rep;
    benchkit_params_load_opts lo = {CUZK_CHECK_FULL, 0, -1, 0, 0, 0, 0};
    CHECK_ST(benchkit_synthetic_load_params(&pkf, s, params, &lo, &rep, &e), CUZK_OK);
    if (pkf) {
        CHECK(rep.file_bytes > 0 && rep.host_bytes > 0 && rep.device_bytes == 0 && !rep.pinned);
        prove_verify(pkf, s, 1, 1, proof_file);
        CHECK(!memcmp(proof_mem, proof_file, 192));
    }
    lo.gpu_resident = 1; /* without a device */
    cuzk_pk *bad = NULL;
    CHECK_ST(benchkit_synthetic_load_params(&bad, s, params, &lo, NULL, &e), CUZK_ERR_ARG);
    /* parameters of another circuit */
    benchkit_synthetic *other = NULL;
    so.constraints = 201;
    CHECK_ST(benchkit_synthetic_create(&other, &so, &e), CUZK_OK);
    lo.gpu_resident = 0;
    if (other) CHECK_ST(benchkit_synthetic_load_params(&bad, other, params, &lo, NULL, &e), CUZK_ERR_MISMATCH);
    CHECK(bad == NULL && strstr(e.msg, params));
    benchkit_synthetic_release(other);
    CHECK_ST(benchkit_drop_host_g1(pkf, NULL, &e), CUZK_ERR_ARG); /* not a setup key */
    cuzk_pk_release(pkf);
    unlink(params);
    unlink(vkp);

    /* an engine on 2 fake devices: 4 partitions, every proof verifies */
    cuzk_circuit *c = NULL;
    cuzk_engine *eng = NULL;
    cuzk_vk *vk = NULL;
    if (pk) {
        CHECK_ST(cuzk_circuit_create(&c, pk, &e), CUZK_OK);
        CHECK_ST(cuzk_vk_from_pk(&vk, pk, &e), CUZK_OK);
        cuzk_engine_opts eo = {0};
        eo.backend = CUZK_BACKEND_CPU;
        eo.prove_threads = 1;
        eo.no_trace = 1;
        CHECK_ST(benchkit_engine_create_fake(&eng, &eo, 2, &e), CUZK_OK);
        eo.backend = CUZK_BACKEND_GPU;
        cuzk_engine *no = NULL;
        CHECK_ST(benchkit_engine_create_fake(&no, &eo, 2, &e), CUZK_ERR_ARG);
    }
    if (eng && c && vk) {
        CHECK(cuzk_engine_n_devices(eng) == 2);
        job_ctx jc = {s};
        cuzk_job_desc d = {0};
        d.circuit = c;
        d.n_partitions = 4;
        d.synth = job_synth;
        d.synth_ctx = &jc;
        cuzk_job_id id;
        cuzk_job_result res = {0};
        CHECK_ST(cuzk_engine_submit(eng, &d, &id, &e), CUZK_OK);
        CHECK_ST(cuzk_engine_wait(eng, id, &res, &e), CUZK_OK);
        CHECK(res.state == CUZK_JOB_DONE && res.n_public == 3);
        for (uint32_t i = 0; res.state == CUZK_JOB_DONE && i < 4; i++)
            CHECK_ST(cuzk_verify(vk, CUZK_PUBLIC_CANON, res.public_inputs + 96 * (size_t)i, 96, CUZK_PROOF_BELLPERSON,
                                 res.proofs + 192 * (size_t)i, 192, &e), CUZK_OK);
        cuzk_job_result_free(&res);
    }
    cuzk_engine_destroy(eng);
    cuzk_circuit_destroy(c);
    cuzk_vk_free(vk);

    /* the host G1 queries given back: no new prover (they would need them) */
    if (pk) {
        size_t freed = 0;
        CHECK_ST(benchkit_drop_host_g1(pk, &freed, &e), CUZK_OK);
        CHECK(freed > 200 * 96);
        cuzk_prover *pv = NULL;
        cuzk_prover_opts po = {0};
        po.backend = CUZK_BACKEND_CPU;
        CHECK_ST(cuzk_prover_create(&pv, pk, &po, &e), CUZK_ERR_ARG);
        CHECK(pv == NULL && strstr(e.msg, "released"));
    }
    cuzk_pk_release(pk);
    benchkit_synthetic_release(s); /* after the keys: they hold references of their own */
    so.constraints = 4;
    CHECK_ST(benchkit_synthetic_create(&s, &so, &e), CUZK_ERR_ARG);
    so.constraints = 100;
    so.frac01 = 2;
    CHECK_ST(benchkit_synthetic_create(&s, &so, &e), CUZK_ERR_ARG);
}

/* ---- 4: .params files ------------------------------------------------------------------------------ */
static void put_u32be(FILE *f, uint32_t v) {
    uint8_t b[4] = {(uint8_t)(v >> 24), (uint8_t)(v >> 16), (uint8_t)(v >> 8), (uint8_t)v};
    fwrite(b, 1, 4, f);
}

static void test_params(const char *tmp) {
    cuzk_error e = {0};
    uint8_t g1[8][96], g2[4][192];
    CHECK_ST(benchkit_random_points(CUZK_CURVE_BLS12_381, 1, 8, 3, &g1[0][0], &e), CUZK_OK);
    CHECK_ST(benchkit_random_points(CUZK_CURVE_BLS12_381, 2, 4, 4, &g2[0][0], &e), CUZK_OK);
    CHECK(memcmp(g1[0], g1[1], 96) != 0);
    CHECK_ST(benchkit_random_points(CUZK_CURVE_BN254, 1, 1, 3, &g1[0][0], &e), CUZK_ERR_ARG);
    CHECK_ST(benchkit_random_points(CUZK_CURVE_BLS12_381, 3, 1, 3, &g1[0][0], &e), CUZK_ERR_ARG);
    /* a .params of these points (DESIGN.md section 5): vk, ic, then h, l, a, b_g1, b_g2 */
    char path[1024];
    snprintf(path, sizeof path, "%s/rand.params", tmp);
    FILE *f = fopen(path, "wb");
    CHECK(f != NULL);
    if (!f) return;
    fwrite(g1[0], 1, 96, f);
    fwrite(g1[1], 1, 96, f);
    fwrite(g2[0], 1, 192, f);
    fwrite(g2[1], 1, 192, f);
    fwrite(g1[2], 1, 96, f);
    fwrite(g2[2], 1, 192, f);
    put_u32be(f, 2);
    fwrite(g1[3], 1, 96, f);
    fwrite(g1[4], 1, 96, f);
    for (int s = 0; s < 5; s++) {
        put_u32be(f, 2);
        for (int i = 0; i < 2; i++) fwrite(s == 4 ? g2[i + 2] : g1[5 + i], 1, s == 4 ? 192 : 96, f);
    }
    fclose(f);
    const cuzk_check_level levels[3] = {CUZK_CHECK_NONE, CUZK_CHECK_CURVE, CUZK_CHECK_FULL};
    for (int l = 0; l < 3; l++)
        for (int decode = 0; decode < 2; decode++) {
            uint64_t bytes = 0;
            CHECK_ST(benchkit_params_read(path, levels[l], 1, decode, &bytes, &e), CUZK_OK);
            CHECK(bytes == 96 * 5 + 192 * 3 + 4 * 6 + 96 * 8 + 192 * 2);
        }
    CHECK(truncate(path, 700) == 0);
    CHECK_ST(benchkit_params_read(path, CUZK_CHECK_CURVE, 1, 1, NULL, &e), CUZK_ERR_FORMAT);
    unlink(path);
    CHECK_ST(benchkit_params_read(path, CUZK_CHECK_CURVE, 1, 0, NULL, &e), CUZK_ERR_IO);
}

/* ---- 5: PoSt ----------------------------------------------------------------------------------------- */
static void test_post(void) {
    cuzk_error e = {0};
    benchkit_post *h = NULL;
    char vproof[1024], winning[1024];
    snprintf(vproof, sizeof vproof, "%s/filecoin/post.vproof", CUZK_FIXTURES_DIR);
    snprintf(winning, sizeof winning, "%s/filecoin/winning.vproof", CUZK_FIXTURES_DIR);
    const char *files[1] = {vproof};
    for (int k = 0; k < 2; k++) {
        CHECK_ST(benchkit_post_create(&h, k ? "window-post-32g" : "window-post-2k", 2, k ? files : NULL, (size_t)k, NULL, &e),
                 CUZK_OK);
        if (!h) continue;
        benchkit_post_info in;
        benchkit_post_describe(h, &in);
        CHECK(in.sector_count == 2 && in.challenge_count == 10 && in.n_inputs == 1 + 2 * 11 && in.n_constraints > 0);
        size_t n = (size_t)(in.n_inputs + in.n_aux);
        uint64_t *w = malloc(n * 32), *w1 = malloc(n * 32);
        CHECK_ST(benchkit_post_witness(h, w, n, 2, &e), CUZK_OK);
        CHECK_ST(benchkit_post_witness(h, w1, n, 1, &e), CUZK_OK);
        CHECK(!memcmp(w, w1, n * 32)); /* the thread count changes nothing */
        CHECK_ST(benchkit_post_witness(h, w, n - 1, 1, &e), CUZK_ERR_MISMATCH);
        free(w);
        free(w1);
        benchkit_post_record r0, r1, r2;
        CHECK_ST(benchkit_post_record_pass(h, BENCHKIT_POST_SERIAL, 1, &r2, &e), CUZK_ERR_ARG); /* nothing kept */
        CHECK_ST(benchkit_post_record_pass(h, BENCHKIT_POST_COUNT, 2, &r0, &e), CUZK_OK);
        CHECK_ST(benchkit_post_record_pass(h, BENCHKIT_POST_MATRICES, 2, &r1, &e), CUZK_OK);
        CHECK_ST(benchkit_post_record_pass(h, BENCHKIT_POST_SERIAL, 1, &r2, &e), CUZK_OK);
        CHECK(r0.n_constraints == in.n_constraints && r1.n_constraints == in.n_constraints && r2.n_constraints == in.n_constraints);
        CHECK(r0.n_inputs == in.n_inputs && r0.n_aux == in.n_aux && r1.n_aux == in.n_aux);
        CHECK(r0.a_aux > 0 && r0.b_aux > 0 && r1.nnz_a > 0 && r1.nnz_b > 0 && r1.nnz_c > 0 && r1.matrix_bytes > 0);
        CHECK(r2.same_as_kept == 1 && r2.nnz_a == r1.nnz_a && r2.nnz_c == r1.nnz_c);
        /* the key's queries: the aux wires in A and B plus the inputs (A: every one) */
        CHECK(r1.query_a == r0.a_aux + r0.n_inputs && r1.query_b == r0.b_aux + r0.b_inputs);
        benchkit_post_destroy(h);
        h = NULL;
    }
    CHECK_ST(benchkit_post_create(&h, "window-post-3g", 0, NULL, 0, NULL, &e), CUZK_ERR_ARG);
    const char *none[1] = {"/nonexistent.vproof"};
    CHECK_ST(benchkit_post_create(&h, "window-post-32g", 2, none, 1, NULL, &e), CUZK_ERR_IO);
    const char *three[3] = {vproof, vproof, vproof};
    CHECK_ST(benchkit_post_create(&h, "window-post-32g", 2, three, 3, NULL, &e), CUZK_ERR_ARG); /* more files than sectors */
    /* a vanilla proof for another sector size; another randomness (the leaf is not the challenge) */
    cuzk_status st = benchkit_post_create(&h, "window-post-2k", 2, files, 1, NULL, &e);
    CHECK(st == CUZK_ERR_FORMAT || st == CUZK_ERR_INVALID);
    CHECK(h == NULL && strstr(e.msg, "post.vproof"));
    uint8_t rnd[32] = {1};
    CHECK_ST(benchkit_post_create(&h, "window-post-32g", 2, files, 1, rnd, &e), CUZK_ERR_INVALID);

    /* a key for the recorded WinningPoSt circuit (2 sectors): engine jobs of the golden vanilla
     * proof verify against the public inputs derived from the public data, and not with one changed */
    const char *wf[1] = {winning};
    CHECK_ST(benchkit_post_create(&h, "winning-post-32g", 2, NULL, 0, NULL, &e), CUZK_OK);
    cuzk_pk *pk = NULL;
    uint64_t seed = 5;
    if (h) {
        cuzk_setup_timings t;
        CHECK_ST(benchkit_post_setup(&pk, h, &seed, CUZK_BACKEND_CPU, 2, NULL, NULL, &t, &e), CUZK_ERR_ARG); /* not recorded */
        benchkit_post_record r;
        CHECK_ST(benchkit_post_record_pass(h, BENCHKIT_POST_MATRICES, 2, &r, &e), CUZK_OK);
        CHECK_ST(benchkit_post_setup(&pk, h, &seed, CUZK_BACKEND_CPU, 2, NULL, NULL, &t, &e), CUZK_OK);
        CHECK(t.n_stages > 0);
        /* the matrices moved into the key */
        CHECK_ST(benchkit_post_record_pass(h, BENCHKIT_POST_SERIAL, 1, &r, &e), CUZK_ERR_ARG);
        benchkit_post_destroy(h);
        h = NULL;
    }
    cuzk_post_request rq;
    memset(&rq, 0, sizeof rq);
    rq.circuit = "winning-post-32g";
    rq.sectors = 2;
    rq.vanilla_paths = wf;
    rq.n_vanilla = 1;
    rq.nthreads = 2;
    cuzk_post_job *job = NULL;
    CHECK_ST(cuzk_post_job_create(&job, &rq, &e), CUZK_OK);
    cuzk_circuit *c = NULL;
    cuzk_engine *eng = NULL;
    cuzk_vk *vk = NULL;
    if (pk && job) {
        CHECK_ST(cuzk_circuit_create(&c, pk, &e), CUZK_OK);
        CHECK_ST(cuzk_vk_from_pk(&vk, pk, &e), CUZK_OK);
        cuzk_engine_opts eo = {0};
        eo.backend = CUZK_BACKEND_CPU;
        eo.prove_threads = 2;
        eo.no_trace = 1;
        CHECK_ST(cuzk_engine_create(&eng, &eo, &e), CUZK_OK);
    }
    if (c && vk && eng) {
        cuzk_job_desc d = {0};
        d.circuit = c;
        d.n_partitions = 1;
        d.synth = cuzk_post_job_synth;
        d.synth_ctx = job;
        d.check_witness = 1;
        cuzk_job_id id;
        cuzk_job_result res = {0};
        CHECK_ST(cuzk_engine_submit(eng, &d, &id, &e), CUZK_OK);
        CHECK_ST(cuzk_engine_wait(eng, id, &res, &e), CUZK_OK);
        CHECK(res.state == CUZK_JOB_DONE);
        size_t np = cuzk_post_job_n_public(job);
        uint8_t *pub = malloc(np * 32);
        if (res.state == CUZK_JOB_DONE && pub) {
            CHECK_ST(cuzk_post_job_public_inputs(job, 0, pub, &e), CUZK_OK);
            CHECK(!memcmp(pub, res.public_inputs, np * 32));
            CHECK_ST(cuzk_verify(vk, CUZK_PUBLIC_CANON, pub, np * 32, CUZK_PROOF_BELLPERSON, res.proofs, 192, &e), CUZK_OK);
            pub[32 * (np - 1)] ^= 1;
            CHECK_ST(cuzk_verify(vk, CUZK_PUBLIC_CANON, pub, np * 32, CUZK_PROOF_BELLPERSON, res.proofs, 192, &e),
                     CUZK_ERR_INVALID);
        }
        free(pub);
        cuzk_job_result_free(&res);
    }
    cuzk_engine_destroy(eng);
    cuzk_circuit_destroy(c);
    cuzk_vk_free(vk);
    cuzk_post_job_free(job);
    /* the host G1 copies of a key made in memory can be given back */
    size_t freed = 0;
    if (pk) CHECK_ST(benchkit_drop_host_g1(pk, &freed, &e), CUZK_OK);
    CHECK(!pk || freed > 0);
    cuzk_pk_release(pk);
}

int main(void) {
    char tmp[] = "/tmp/benchkit_api.XXXXXX";
    if (!mkdtemp(tmp)) {
        perror("mkdtemp");
        return 1;
    }
    test_cpu_kernels();
    test_gpu_kernels();
    test_synthetic(tmp);
    test_params(tmp);
    test_post();
    rmdir(tmp);
    printf("bench API test: %d checks, %d failed\n", g_checks, g_fail);
    return g_fail ? 1 : 0;
}
