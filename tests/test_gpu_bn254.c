/* GPU suite for BN254 (snarkjs / circom "bn128"): the device kernels instantiated for BN254
 * (src/cuda/curve_bn254.cuh) against the CPU reference of src/curves/bn254: the G1 MSM on random
 * and adversarial inputs (host arrays, and resident bases with Montgomery scalars, an index and
 * the 0/1 split), the NTT both ways and with a coset shift; then the GPU backend end to end: every
 * bn128 fixture proved with --backend gpu and fixed r, s gives the CPU backend's bytes and
 * snarkjs's reference proof, and verifies; so does each with B_G2 on the device and on CPU threads
 * (cuzk_msm_opts.b_g2_on_gpu 1, 0, -1; the timings say where it ran); random circuits up to 2^20
 * constraints likewise (GPU bytes = CPU bytes); the engine on the GPU with a BN254 and a BLS12-381
 * circuit at once gives the CPU engine's bytes, B_G2 on the device. Skips cleanly without CUDA at
 * build time or without a device at run time. */
#include "test.h"

#ifndef CUZK_HAVE_CUDA

TEST(gpu_bn254, available) { SKIP(TEST_NO_GPU); }

#else

#include <stdlib.h>
#include <string.h>

#include "cuda/gpu.h"
#include "cuzk/engine.h"
#include "cuzk/groth16.h"
#include "cuzk/prover.h"
#include "curves/bn254/curve.h"
#include "bn254_circuit.h"
#include "gpu_msm_test.h" /* BN254 scalars (bn254_rand_scalar, bn254_r_minus), adversarial_bases_bn254_g1 */
#include "formats/snarkjs.h"
#include "groth16/groth16.h"
#include "groth16/prove.h"
#include "curves/bn254/ns.h"
#include "gpu_zkey_b2_impl.h" /* bn254_zkey_b2_check */
#include "curves/ns_reset.h"

/* n random multiples of the generator (affine), one inversion for all */
static void rand_bases(bn254_g1_affine *b, size_t n) {
    bn254_g1_affine g;
    bn254_g1_jacobian gj;
    bn254_g1_generator(&g);
    bn254_g1_jacobian_from_affine(&gj, &g);
    bn254_g1_jacobian *j = malloc(n * sizeof *j);
    if (!j) abort();
    for (size_t i = 0; i < n; i++) {
        scalar256 s;
        bn254_fr k;
        bn254_rand_scalar(&s);
        bn254_fr_from_canon(&k, s.l);
        bn254_g1_mul_fr_vartime(&j[i], &gj, &k);
    }
    bn254_g1s_jacobian_to_affine(b, j, n);
    free(j);
}

static void check_msm(const char *what, const bn254_g1_affine *b, const scalar256 *s, size_t n) {
    bn254_g1_jacobian ref, got;
    bn254_g1_msm(&ref, b, s, n, 2);
    memset(&got, 0x5a, sizeof got);
    cuzk_error e = {0};
    cuzk_status st = gpu_bn254_g1_msm((struct bn254_g1_jacobian *)&got, (const struct bn254_g1_affine *)b,
                                      (const struct scalar256 *)s, n, &e);
    CHECK_MSG(st == CUZK_OK, "%s (n=%zu): %s (%s)", what, n, cuzk_status_str(st), e.msg);
    if (st == CUZK_OK) CHECK_MSG(bn254_g1_jacobian_eq(&got, &ref), "%s (n=%zu): GPU != bn254_g1_msm", what, n);
}

TEST(gpu_bn254, msm_vs_cpu) {
    NEED_GPU();
    static const size_t sizes[] = {0, 1, 2, 3, 17, 257, 1000, 4099, 20011};
    const size_t nmax = 20011;
    bn254_g1_affine *b = malloc(nmax * sizeof *b);
    scalar256 *s = malloc(nmax * sizeof *s);
    REQUIRE(b && s);
    for (size_t t = 0; t < sizeof sizes / sizeof *sizes; t++) {
        const size_t n = sizes[t];
        rand_bases(b, n ? n : 1);
        for (size_t i = 0; i < n; i++) bn254_rand_scalar(&s[i]);
        check_msm("random", b, s, n);
        /* 0, 1, 2, r-1, random; infinity, repeated and opposite bases */
        for (size_t i = 0; i < n; i++) {
            switch (i % 5) {
            case 0: small_scalar(&s[i], 0); break;
            case 1: small_scalar(&s[i], 1); break;
            case 2: small_scalar(&s[i], 2); break;
            case 3: bn254_r_minus(&s[i], 1); break;
            default: bn254_rand_scalar(&s[i]); break;
            }
        }
        adversarial_bases_bn254_g1(b, n);
        check_msm("kinds, inf/repeated/opposite bases", b, s, n);
        for (size_t i = 0; i < n; i++) bn254_r_minus(&s[i], 1);
        check_msm("all r-1 (one bucket per window)", b, s, n);
    }
    /* P next to -P with equal scalars: the hot bucket sums to infinity */
    const size_t n = 4099;
    rand_bases(b, n);
    for (size_t i = 1; i < n; i += 2) bn254_g1_affine_neg(&b[i], &b[i - 1]);
    bn254_g1_affine_set_infinity(&b[n - 1]);
    scalar256 common;
    bn254_rand_scalar(&common);
    for (size_t i = 0; i < n; i++) s[i] = common;
    check_msm("equal scalars, P/-P pairs", b, s, n);
    free(b);
    free(s);
}

TEST(gpu_bn254, ntt_vs_cpu) {
    NEED_GPU();
    for (int lg = 1; lg <= 20; lg++) {
        const size_t m = (size_t)1 << lg;
        bn254_fr *x = malloc(m * sizeof *x), *y = malloc(m * sizeof *y);
        REQUIRE(x && y);
        for (size_t i = 0; i < m; i++) {
            scalar256 s;
            bn254_rand_scalar(&s);
            bn254_fr_from_canon(&x[i], s.l);
        }
        bn254_ntt_domain d;
        REQUIRE(bn254_ntt_domain_init(&d, lg, NTT_ROOTS_SNARKJS) == CUZK_OK);
        for (int dir = 0; dir < 2; dir++) {
            memcpy(y, x, m * sizeof *x);
            cuzk_error e = {0};
            cuzk_status st = gpu_bn254_ntt((struct bn254_fr *)y, 1, lg, dir ? GPU_NTT_INVERSE : GPU_NTT_FORWARD,
                                           GPU_ROOTS_SNARKJS, NULL, &e);
            CHECK_MSG(st == CUZK_OK, "log_m %d dir %d: %s (%s)", lg, dir, cuzk_status_str(st), e.msg);
            if (dir) bn254_ntt_inverse(&d, x, 2);
            else bn254_ntt_forward(&d, x, 2);
            CHECK_MSG(st != CUZK_OK || memcmp(x, y, m * sizeof *x) == 0, "log_m %d dir %d: GPU != CPU", lg, dir);
            if (dir == 0) memcpy(x, y, m * sizeof *x); /* then the inverse of the forward */
        }
        bn254_ntt_domain_free(&d);
        free(x);
        free(y);
    }
    cuzk_error e = {0};
    CHECK(gpu_bn254_ntt(NULL, 1, 29, GPU_NTT_FORWARD, GPU_ROOTS_SNARKJS, NULL, &e) == CUZK_ERR_ARG);
    CHECK(gpu_bn254_ntt(NULL, 1, 0, GPU_NTT_FORWARD, GPU_ROOTS_SNARKJS, NULL, &e) == CUZK_ERR_ARG);
    bn254_fr one;
    bn254_fr_one(&one);
    CHECK(gpu_bn254_ntt(&one, 1, 1, GPU_NTT_FORWARD, GPU_ROOTS_BELLPERSON, NULL, &e) == CUZK_ERR_ARG);
}

/* Forward NTT with a coset shift g (H's step: values on g*<omega>) = forward NTT of x_i * g^i on
 * the CPU; g = omega_2m as the H of the snarkjs convention uses, and a random g. Batch of 3. */
TEST(gpu_bn254, ntt_shifted_vs_cpu) {
    NEED_GPU();
    static const int logs[] = {1, 2, 5, 10, 11, 12, 17, 20};
    for (size_t t = 0; t < sizeof logs / sizeof *logs; t++) {
        const int lg = logs[t];
        const size_t m = (size_t)1 << lg, batch = 3;
        bn254_fr *x = malloc(batch * m * sizeof *x), *y = malloc(batch * m * sizeof *y);
        REQUIRE(x && y);
        for (size_t i = 0; i < batch * m; i++) {
            scalar256 s;
            bn254_rand_scalar(&s);
            bn254_fr_from_canon(&x[i], s.l);
        }
        bn254_ntt_domain d;
        REQUIRE(bn254_ntt_domain_init(&d, lg, NTT_ROOTS_SNARKJS) == CUZK_OK);
        for (int which = 0; which < 2; which++) {
            bn254_fr g;
            if (which == 0) {
                bn254_ntt_root_of_unity(&g, lg + 1, NTT_ROOTS_SNARKJS);
            } else {
                scalar256 s;
                bn254_rand_scalar(&s);
                bn254_fr_from_canon(&g, s.l);
            }
            memcpy(y, x, batch * m * sizeof *x);
            cuzk_error e = {0};
            cuzk_status st = gpu_bn254_ntt((struct bn254_fr *)y, batch, lg, GPU_NTT_FORWARD, GPU_ROOTS_SNARKJS,
                                           (const struct bn254_fr *)&g, &e);
            CHECK_MSG(st == CUZK_OK, "log_m %d shift %d: %s (%s)", lg, which, cuzk_status_str(st), e.msg);
            for (size_t v = 0; v < batch && st == CUZK_OK; v++) {
                bn254_fr *ref = malloc(m * sizeof *ref), pw;
                REQUIRE(ref);
                bn254_fr_one(&pw);
                for (size_t i = 0; i < m; i++) {
                    bn254_fr_mul(&ref[i], &x[v * m + i], &pw);
                    bn254_fr_mul(&pw, &pw, &g);
                }
                bn254_ntt_forward(&d, ref, 2);
                CHECK_MSG(memcmp(ref, y + v * m, m * sizeof *ref) == 0, "log_m %d shift %d vector %zu: GPU != CPU", lg,
                          which, v);
                free(ref);
            }
        }
        bn254_ntt_domain_free(&d);
        free(x);
        free(y);
    }
}

/* The snarkjs H step on the device (what the BN254 GPU prover runs) against bn254_h_snarkjs, on
 * random vectors and on all-zero / all-(r-1) edges; log_m 28 is refused (the coset shift needs
 * omega_2m). */
TEST(gpu_bn254, h_snarkjs_vs_cpu) {
    NEED_GPU();
    static const int logs[] = {1, 2, 3, 10, 11, 16, 20};
    for (size_t t = 0; t < sizeof logs / sizeof *logs; t++) {
        const int lg = logs[t];
        const size_t m = (size_t)1 << lg;
        bn254_fr *a = malloc(m * sizeof *a), *b = malloc(m * sizeof *b), *c = malloc(m * sizeof *c),
                 *ga = malloc(m * sizeof *ga), *rb = malloc(m * sizeof *rb);
        REQUIRE(a && b && c && ga && rb);
        bn254_ntt_domain d;
        REQUIRE(bn254_ntt_domain_init(&d, lg, NTT_ROOTS_SNARKJS) == CUZK_OK);
        for (int kind = 0; kind < 3; kind++) {
            for (size_t i = 0; i < m; i++) {
                scalar256 s;
                if (kind == 0) bn254_rand_scalar(&s);
                else if (kind == 1) small_scalar(&s, 0);
                else bn254_r_minus(&s, 1);
                bn254_fr_from_canon(&a[i], s.l);
                if (kind == 0) bn254_rand_scalar(&s);
                bn254_fr_from_canon(&b[i], s.l);
            }
            memcpy(ga, a, m * sizeof *a);
            memcpy(rb, b, m * sizeof *b);
            bn254_h_snarkjs(&d, a, rb, c, 2);
            cuzk_error e = {0};
            cuzk_status st = gpu_bn254_h((struct bn254_fr *)ga, (const struct bn254_fr *)b, lg, &e);
            CHECK_MSG(st == CUZK_OK, "log_m %d kind %d: %s (%s)", lg, kind, cuzk_status_str(st), e.msg);
            if (st == CUZK_OK) CHECK_MSG(!memcmp(ga, a, m * sizeof *a), "log_m %d kind %d: GPU H != bn254_h_snarkjs", lg, kind);
        }
        bn254_ntt_domain_free(&d);
        free(a);
        free(b);
        free(c);
        free(ga);
        free(rb);
    }
    cuzk_error e = {0};
    bn254_fr one;
    bn254_fr_one(&one);
    CHECK(gpu_bn254_h(&one, &one, 28, &e) == CUZK_ERR_ARG);
    CHECK(gpu_bn254_h(&one, &one, 0, &e) == CUZK_ERR_ARG);
    CHECK(gpu_bn254_h(NULL, &one, 1, &e) == CUZK_ERR_ARG);
}

/* The resident path the prover uses: gpu_bn254_g1_bases_upload + gpu_bn254_g1_msm_run, scalars
 * Montgomery and canonical, with and without an index, a base offset, several jobs in one call, a
 * large share of 0 and 1 scalars (the 0/1 split); the other curve's bases are refused. */
TEST(gpu_bn254, resident_msm_vs_cpu) {
    NEED_GPU();
    const size_t n = 30011, n_idx = 20000;
    bn254_g1_affine *b = malloc(n * sizeof *b);
    scalar256 *s = malloc(n * sizeof *s), *sm = malloc(n * sizeof *sm), *sel = malloc(n_idx * sizeof *sel);
    uint32_t *idx = malloc(n_idx * sizeof *idx);
    REQUIRE(b && s && sm && sel && idx);
    rand_bases(b, n);
    for (size_t i = 0; i < n; i++) {
        uint64_t k = test_rand64() % 10;
        if (k < 3) small_scalar(&s[i], 0);      /* 30 % zeros */
        else if (k < 6) small_scalar(&s[i], 1); /* 30 % ones */
        else if (k == 6) bn254_r_minus(&s[i], 1);
        else bn254_rand_scalar(&s[i]);
        bn254_fr f;
        bn254_fr_from_canon(&f, s[i].l);
        memcpy(sm[i].l, &f, 32); /* Montgomery bytes */
    }
    for (size_t k = 0; k < n_idx; k++) {
        idx[k] = (uint32_t)(test_rand64() % n); /* repeats allowed */
        sel[k] = s[idx[k]];
    }
    for (size_t i = 0; i < n; i += 97) bn254_g1_affine_set_infinity(&b[i]);
    cuzk_error e = {0};
    gpu_ctx *ctx = NULL;
    gpu_g1_bases *gb = NULL, *bls = NULL;
    void *d_s = NULL, *d_sm = NULL, *d_idx = NULL;
    REQUIRE(gpu_ctx_create(&ctx, 0, &e) == CUZK_OK);
    REQUIRE(gpu_bn254_g1_bases_upload(ctx, &gb, (const struct bn254_g1_affine *)b, n, &e) == CUZK_OK);
    CHECK(gpu_g1_bases_count(gb) == n && gpu_g1_bases_bytes(gb) == n * 64);
    REQUIRE(gpu_buf_alloc(ctx, &d_s, n * 32, &e) == CUZK_OK && gpu_buf_alloc(ctx, &d_sm, n * 32, &e) == CUZK_OK &&
            gpu_buf_alloc(ctx, &d_idx, n_idx * 4, &e) == CUZK_OK);
    REQUIRE(gpu_copy_h2d_async(ctx, d_s, s, n * 32, &e) == CUZK_OK && gpu_copy_h2d_async(ctx, d_sm, sm, n * 32, &e) == CUZK_OK &&
            gpu_copy_h2d_async(ctx, d_idx, idx, n_idx * 4, &e) == CUZK_OK);
    bn254_g1_jacobian got[4], ref[4];
    const size_t off = 1234;
    gpu_msm_job jobs[4] = {
        {.bases = gb, .n = n, .d_scalars = d_s, .form = GPU_SCALARS_CANONICAL, .out = &got[0]},
        {.bases = gb, .n = n, .d_scalars = d_sm, .form = GPU_SCALARS_MONTGOMERY, .out = &got[1]},
        {.bases = gb, .n = n_idx, .d_scalars = d_sm, .form = GPU_SCALARS_MONTGOMERY, .d_index = (const uint32_t *)d_idx,
         .out = &got[2]},
        {.bases = gb, .base_offset = off, .n = n - off, .d_scalars = (const char *)d_s + off * 32,
         .form = GPU_SCALARS_CANONICAL, .out = &got[3]},
    };
    gpu_msm_stats ms;
    cuzk_status st = gpu_bn254_g1_msm_run(ctx, jobs, 4, &ms, &e);
    CHECK_MSG(st == CUZK_OK, "gpu_bn254_g1_msm_run: %s (%s)", cuzk_status_str(st), e.msg);
    if (st == CUZK_OK) CHECK(ms.n_zero > 0 && ms.n_one > 0);
    bn254_g1_msm(&ref[0], b, s, n, 2);
    ref[1] = ref[0];
    /* indexed: base k with scalar s[idx[k]] */
    bn254_g1_msm(&ref[2], b, sel, n_idx, 2);
    bn254_g1_msm(&ref[3], b + off, s + off, n - off, 2);
    for (int j = 0; j < 4 && st == CUZK_OK; j++) CHECK_MSG(bn254_g1_jacobian_eq(&got[j], &ref[j]), "job %d: GPU != CPU", j);
    /* a BN254 job through the BLS12-381 entry point (and the reverse) is refused */
    CHECK_EQ_INT(gpu_g1_msm_run(ctx, jobs, 1, NULL, &e), CUZK_ERR_ARG);
    CHECK(strstr(e.msg, "another curve") != NULL);
    static const uint64_t zero_pt[12];
    REQUIRE(gpu_g1_bases_upload(ctx, &bls, (const struct g1_affine *)zero_pt, 1, &e) == CUZK_OK);
    gpu_msm_job jb = {.bases = bls, .n = 1, .d_scalars = d_s, .out = &got[0]};
    CHECK_EQ_INT(gpu_bn254_g1_msm_run(ctx, &jb, 1, NULL, &e), CUZK_ERR_ARG);
    CHECK(!gpu_ctx_dead(ctx));
    gpu_buf_free(ctx, d_s);
    gpu_buf_free(ctx, d_sm);
    gpu_buf_free(ctx, d_idx);
    gpu_g1_bases_free(gb);
    gpu_g1_bases_free(bls);
    gpu_ctx_destroy(ctx);
    free(b);
    free(s);
    free(sm);
    free(sel);
    free(idx);
}

/* ---- the GPU backend on bn128 keys --------------------------------------------------------- */
#define FIXED_R "0x1ab4b9a7f2c0d3e5a6978877665544332211ffeeddccbbaa9988776655443322"
#define FIXED_S "0x2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f90a1b"

static const char *bn_fx(const char *circ, const char *file) {
    static char buf[8][4096];
    static int k;
    char *b = buf[k++ % 8];
    snprintf(b, 4096, "%s%s/%s", test_fixture("bn128/"), circ, file);
    return b;
}

/* Every bn128 fixture: --backend gpu with fixed r, s = --backend cpu = snarkjs's proof_fixed.json,
 * byte for byte, and the GPU proof verifies; then the in-memory API on the GPU backend (random r,
 * s: the proof verifies; fixed: equal to the CPU prover's). */
TEST(gpu_bn254, prove_fixtures_byte_identical_to_cpu) {
    NEED_GPU();
    {   /* a GPU is present (NEED_GPU above), so the BN254 GPU prover must be available: an
         * UNSUPPORTED answer here is a regression, never a skip */
        cuzk_pk *pk = NULL;
        cuzk_prover *pv = NULL;
        cuzk_error e0 = {0};
        REQUIRE(cuzk_pk_load_zkey(&pk, bn_fx("multiplier", "circuit_final.zkey"), NULL, &e0) == CUZK_OK);
        cuzk_prover_opts po = {.backend = CUZK_BACKEND_GPU};
        cuzk_status gst = cuzk_prover_create(&pv, pk, &po, &e0);
        cuzk_prover_destroy(pv);
        cuzk_pk_release(pk);
        REQUIRE_MSG(gst == CUZK_OK, "BN254 prover with --backend gpu on a machine with a GPU: %s (%s)",
                    cuzk_status_str(gst), e0.msg);
    }
    static const char *circ[] = {"multiplier", "merkle_mimc5", "merkle_poseidon"};
    for (size_t i = 0; i < sizeof circ / sizeof *circ; i++) {
        char out[2][4096], pub[4096];
        snprintf(pub, sizeof pub, "%s/gbn_public.json", test_tmpdir());
        for (int be = 0; be < 2; be++) {
            snprintf(out[be], sizeof out[be], "%s/gbn_proof_%d.json", test_tmpdir(), be);
            cuzk_prove_opts o = {.fixed_r = FIXED_R, .fixed_s = FIXED_S,
                                 .backend = be ? CUZK_BACKEND_GPU : CUZK_BACKEND_CPU};
            cuzk_prove_timings t = {0};
            cuzk_error e = {0};
            cuzk_status st = cuzk_prove_zkey_files(bn_fx(circ[i], "circuit_final.zkey"), bn_fx(circ[i], "witness.wtns"),
                                                   out[be], pub, &o, &t, &e);
            CHECK_MSG(st == CUZK_OK, "%s backend %s: %s (%s)", circ[i], be ? "gpu" : "cpu", cuzk_status_str(st), e.msg);
            CHECK_MSG(t.backend && !strcmp(t.backend, be ? "gpu" : "cpu"), "%s: backend %s", circ[i],
                      t.backend ? t.backend : "(null)");
        }
        size_t na = 0, nb = 0, nr = 0;
        char *a = (char *)test_slurp(out[0], &na), *b = (char *)test_slurp(out[1], &nb);
        char *r = (char *)test_slurp(bn_fx(circ[i], "proof_fixed.json"), &nr);
        REQUIRE(a && b && r);
        if (nr && r[nr - 1] == '\n') r[--nr] = 0; /* refprove.mjs adds a newline */
        CHECK_MSG(na > 0 && na == nb && !memcmp(a, b, na), "%s: GPU proof differs from CPU proof", circ[i]);
        CHECK_MSG(nb == nr && !memcmp(b, r, nr), "%s: GPU proof differs from snarkjs's proof_fixed.json", circ[i]);
        free(a);
        free(b);
        free(r);
        cuzk_error e = {0};
        CHECK_MSG(cuzk_verify_json_files(bn_fx(circ[i], "verification_key.json"), pub, out[1], &e) == CUZK_OK, "%s: %s",
                  circ[i], e.msg);
    }

    /* in memory: a GPU prover on the largest fixture */
    size_t nz, nw;
    uint8_t *z = test_slurp(bn_fx("merkle_poseidon", "circuit_final.zkey"), &nz);
    uint8_t *w = test_slurp(bn_fx("merkle_poseidon", "witness.wtns"), &nw);
    REQUIRE(z && w);
    cuzk_error e = {0};
    cuzk_pk *pk = NULL;
    REQUIRE(cuzk_pk_load_zkey_mem(&pk, z, nz, NULL, &e) == CUZK_OK);
    cuzk_prover *pg = NULL, *pc = NULL;
    cuzk_prover_opts og = {.backend = CUZK_BACKEND_GPU}, oc = {.backend = CUZK_BACKEND_CPU};
    REQUIRE(cuzk_prover_create(&pg, pk, &og, &e) == CUZK_OK);
    REQUIRE(cuzk_prover_create(&pc, pk, &oc, &e) == CUZK_OK);
    CHECK(!strcmp(cuzk_prover_backend_name(pg), "gpu"));
    cuzk_witness wit = {CUZK_WITNESS_WTNS, w, nw};
    uint8_t rb[32] = {0}, sb[32] = {0};
    for (int k = 0; k < 31; k++) { rb[k] = (uint8_t)(3 * k + 1); sb[k] = (uint8_t)(5 * k + 7); }
    cuzk_proof_opts fo = {.fixed_r = rb, .fixed_s = sb};
    cuzk_proof pgp, pcp;
    cuzk_status st = cuzk_prove(pg, &pgp, &wit, &fo, NULL, &e);
    CHECK_MSG(st == CUZK_OK, "gpu prove: %s", e.msg);
    REQUIRE(cuzk_prove(pc, &pcp, &wit, &fo, NULL, &e) == CUZK_OK);
    if (st == CUZK_OK) {
        CHECK(pgp.proof_json_len == pcp.proof_json_len && !memcmp(pgp.proof_json, pcp.proof_json, pcp.proof_json_len));
        cuzk_proof_free(&pgp);
    }
    {   /* B_G2 kept on CPU threads (b_g2_on_gpu = -1): the same bytes */
        cuzk_prover *pg2 = NULL;
        cuzk_prover_opts og2 = {.backend = CUZK_BACKEND_GPU};
        og2.msm.b_g2_on_gpu = -1;
        REQUIRE(cuzk_prover_create(&pg2, pk, &og2, &e) == CUZK_OK);
        st = cuzk_prove(pg2, &pgp, &wit, &fo, NULL, &e);
        CHECK_MSG(st == CUZK_OK, "gpu prove (B_G2 on CPU threads): %s", e.msg);
        if (st == CUZK_OK) {
            CHECK_MSG(pgp.proof_json_len == pcp.proof_json_len && !memcmp(pgp.proof_json, pcp.proof_json, pcp.proof_json_len),
                      "GPU proof with B_G2 on CPU threads differs from the CPU's");
            cuzk_proof_free(&pgp);
        }
        cuzk_prover_destroy(pg2);
    }
    cuzk_proof_free(&pcp);
    for (int rep = 0; rep < 3; rep++) { /* random r, s: self-verified inside, and verified here */
        st = cuzk_prove(pg, &pgp, &wit, NULL, NULL, &e);
        CHECK_MSG(st == CUZK_OK, "gpu prove (random r, s): %s", e.msg);
        if (st != CUZK_OK) break;
        cuzk_vk *vk = NULL;
        REQUIRE(cuzk_vk_from_pk(&vk, pk, &e) == CUZK_OK);
        CHECK_EQ_INT(cuzk_verify(vk, CUZK_PUBLIC_JSON, pgp.public_json, pgp.public_json_len, CUZK_PROOF_SNARKJS_JSON,
                                 pgp.proof_json, pgp.proof_json_len, &e), CUZK_OK);
        cuzk_vk_free(vk);
        cuzk_proof_free(&pgp);
    }
    cuzk_prover_destroy(pg);
    cuzk_prover_destroy(pc);
    cuzk_pk_release(pk);
    free(z);
    free(w);
}


/* Every bn128 fixture on the GPU backend value with B_G2 on the device (b_g2_on_gpu 1 and the
 * automatic 0) and on CPU threads (-1): fixed r, s give the CPU backend's bytes, the timings say
 * where B_G2 ran, the query is counted (tests/gpu_zkey_b2_impl.h). */
TEST(gpu_bn254, zkey_device_b_g2_byte_identical_to_cpu) {
    NEED_GPU();
    static const char *circ[] = {"multiplier", "merkle_mimc5", "merkle_poseidon"};
    for (size_t i = 0; i < sizeof circ / sizeof *circ; i++)
        bn254_zkey_b2_check(bn_fx(circ[i], "circuit_final.zkey"), bn_fx(circ[i], "witness.wtns"));
}

/* Random bn128 circuits (tests/bn254_circuit.c) of 2^10, 2^16 and 2^20 constraints (domain exactly
 * 2^k): `cuzk setup` zkey, then --backend gpu and --backend cpu with fixed r, s give the same bytes,
 * the proof verifies and a wrong public input does not, random r, s verify on both; at 2^10
 * snarkjs also verifies our proof and proves with our zkey (when installed). */
TEST(gpu_bn254, random_circuits_byte_identical_to_cpu) {
    NEED_GPU();
    static const cuzk_backend be[] = {CUZK_BACKEND_GPU, CUZK_BACKEND_CPU};
    bn254_random_circuit_check(10, 3, be, 2, true);
    bn254_random_circuit_check(16, 8, be, 2, false);
    bn254_random_circuit_check(20, 2, be, 2, false);
}

/* The engine on the GPU backend with a BN254 circuit (merkle_poseidon) and a BLS12-381 one
 * (multiplier) preloaded side by side on one device: jobs of both curves interleaved give, with fixed
 * r, s, the bytes of a CPU engine, and every proof verifies against snarkjs's verification key. */
typedef struct { const uint8_t *w; size_t n; cuzk_curve curve; } eng_wtns;
static cuzk_status eng_synth(void *ctx, uint32_t part, uint64_t *witness, size_t n_vars, cuzk_error *err) {
    (void)part;
    const eng_wtns *s = ctx;
    cuzk_witness w = {CUZK_WITNESS_WTNS, s->w, s->n};
    return cuzk_witness_convert(&w, s->curve, CUZK_WITNESS_FR_MONT, witness, n_vars, err);
}
TEST(gpu_bn254, engine_gpu_equals_cpu_with_both_curves) {
    NEED_GPU();
    char bz[4096], bw[4096], bv[4096];
    snprintf(bz, sizeof bz, "%s", test_fixture("bls12381/multiplier/circuit_final.zkey"));
    snprintf(bw, sizeof bw, "%s", test_fixture("bls12381/multiplier/witness.wtns"));
    snprintf(bv, sizeof bv, "%s", test_fixture("bls12381/multiplier/verification_key.json"));
    size_t nnw = 0, nbw = 0, nnv = 0, nbv = 0;
    uint8_t *nwb = test_slurp(bn_fx("merkle_poseidon", "witness.wtns"), &nnw), *bwb = test_slurp(bw, &nbw);
    char *nvj = (char *)test_slurp(bn_fx("merkle_poseidon", "verification_key.json"), &nnv);
    char *bvj = (char *)test_slurp(bv, &nbv);
    REQUIRE(nwb && bwb && nvj && bvj);
    cuzk_error e = {0};
    cuzk_pk *pn = NULL, *pb = NULL;
    cuzk_vk *vn = NULL, *vb = NULL;
    REQUIRE(cuzk_pk_load_zkey(&pn, bn_fx("merkle_poseidon", "circuit_final.zkey"), NULL, &e) == CUZK_OK);
    REQUIRE(cuzk_pk_load_zkey(&pb, bz, NULL, &e) == CUZK_OK);
    REQUIRE(cuzk_vk_load_json(&vn, nvj, nnv, &e) == CUZK_OK && cuzk_vk_load_json(&vb, bvj, nbv, &e) == CUZK_OK);
    cuzk_circuit *cn = NULL, *cb = NULL;
    REQUIRE(cuzk_circuit_create(&cn, pn, &e) == CUZK_OK && cuzk_circuit_create(&cb, pb, &e) == CUZK_OK);
    eng_wtns sn = {nwb, nnw, CUZK_CURVE_BN254}, sb = {bwb, nbw, CUZK_CURVE_BLS12_381};
    /* fixed r, s: small values below both groups' orders, Montgomery limbs as given */
    uint64_t rs[2 * 8];
    for (int k = 0; k < 16; k++) rs[k] = (k % 4 == 3) ? 0 : (uint64_t)(0x1234567 * (k + 1));
    uint8_t *bytes[2][4] = {{0}};
    size_t pbytes[4] = {0};
    for (int be = 0; be < 2; be++) {
        cuzk_engine_opts o = {0};
        o.backend = be ? CUZK_BACKEND_GPU : CUZK_BACKEND_CPU;
        o.synthesis_workers = 2;
        o.no_trace = 1;
        cuzk_engine *eng = NULL;
        REQUIRE(cuzk_engine_create(&eng, &o, &e) == CUZK_OK);
        CHECK(!strcmp(cuzk_engine_backend_name(eng), be ? "gpu" : "cpu"));
        CHECK_MSG(cuzk_engine_preload(eng, cn, &e) == CUZK_OK, "preload bn254: %s", e.msg);
        CHECK_MSG(cuzk_engine_preload(eng, cb, &e) == CUZK_OK, "preload bls12-381: %s", e.msg);
        cuzk_job_id id[4];
        for (int j = 0; j < 4; j++) {
            cuzk_job_desc d = {0};
            d.circuit = j % 2 ? cb : cn;
            d.n_partitions = 2;
            d.synth = eng_synth;
            d.synth_ctx = j % 2 ? &sb : &sn;
            d.fixed_rs = rs;
            REQUIRE(cuzk_engine_submit(eng, &d, &id[j], &e) == CUZK_OK);
        }
        for (int j = 0; j < 4; j++) {
            cuzk_job_result res = {0};
            REQUIRE(cuzk_engine_wait(eng, id[j], &res, &e) == CUZK_OK);
            CHECK_MSG(res.state == CUZK_JOB_DONE, "backend %s job %d: %s", be ? "gpu" : "cpu", j, e.msg);
            if (res.state == CUZK_JOB_DONE) {
                CHECK(res.curve == (j % 2 ? CUZK_CURVE_BLS12_381 : CUZK_CURVE_BN254));
                for (uint32_t k = 0; k < res.n_partitions; k++)
                    CHECK_EQ_INT(cuzk_verify(j % 2 ? vb : vn, CUZK_PUBLIC_CANON, res.public_inputs + 32 * (size_t)res.n_public * k,
                                             32 * (size_t)res.n_public, CUZK_PROOF_CURVE_BYTES,
                                             res.proofs + res.proof_bytes * k, res.proof_bytes, &e), CUZK_OK);
                for (uint32_t k = 0; k < res.n_partitions; k++) /* zkeys of both curves: B_G2 on the device */
                    CHECK_MSG(res.timings && res.timings[k].b2_on_device == be, "backend %s job %d: B_G2 ran %s",
                              be ? "gpu" : "cpu", j, res.timings && res.timings[k].b2_on_device ? "on the GPU" : "on CPU");
                pbytes[j] = res.proof_bytes * res.n_partitions;
                bytes[be][j] = malloc(pbytes[j]);
                if (bytes[be][j]) memcpy(bytes[be][j], res.proofs, pbytes[j]);
            }
            cuzk_job_result_free(&res);
        }
        cuzk_engine_destroy(eng);
    }
    for (int j = 0; j < 4; j++) {
        CHECK_MSG(bytes[0][j] && bytes[1][j] && !memcmp(bytes[0][j], bytes[1][j], pbytes[j]),
                  "job %d (%s): GPU engine proof differs from the CPU engine's", j, j % 2 ? "bls12-381" : "bn254");
        free(bytes[0][j]);
        free(bytes[1][j]);
    }
    cuzk_circuit_destroy(cn);
    cuzk_circuit_destroy(cb);
    cuzk_vk_free(vn);
    cuzk_vk_free(vb);
    cuzk_pk_release(pn);
    cuzk_pk_release(pb);
    free(nwb);
    free(bwb);
    free(nvj);
    free(bvj);
}

#endif
