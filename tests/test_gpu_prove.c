/* The GPU backend against the CPU reference: proofs with fixed r, s must be byte-identical
 * (DESIGN.md section 4 item 8), for every fixture (snarkjs flavour), for bellperson parameters,
 * and for random PoRep-shaped synthetic circuits. Skips without a CUDA build or device. */
#include "test.h"

#include <stdlib.h>

#include "cuzk/groth16.h"
#include "formats/bellperson.h"
#include "formats/json.h"
#include "groth16/backend.h"
#include "groth16/groth16.h"
#include "groth16/prove.h"
#include "groth16/setup.h"
#include "r1cs/synthetic.h"
#include "synth_circuit.h"

#define FIXED_R "0x1ab4b9a7f2c0d3e5a6978877665544332211ffeeddccbbaa9988776655443322"
#define FIXED_S "0x2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f90a1b"

static bool have_gpu(void) {
    groth16_backend be;
    return groth16_backend_resolve(CUZK_BACKEND_GPU, &be, NULL) == CUZK_OK && be == GROTH16_BACKEND_GPU;
}

static size_t slurp(const char *p, char *buf, size_t cap) {
    FILE *f = fopen(p, "rb");
    if (!f) return 0;
    size_t n = fread(buf, 1, cap, f);
    fclose(f);
    return n;
}

TEST(gpu_prove, prove_fixtures_byte_identical_to_cpu) {
    if (!have_gpu()) SKIP(TEST_NO_GPU);
    const char *circ[] = {"multiplier", "merkle_mimc5"};
    for (int i = 0; i < 2; i++) {
        char zk[1024], wt[1024], vk[1024], out[2][1024], pub[1024];
        snprintf(zk, sizeof zk, "%s", test_fixture("bls12381/"));
        snprintf(zk + strlen(zk), sizeof zk - strlen(zk), "%s/circuit_final.zkey", circ[i]);
        snprintf(wt, sizeof wt, "%s", test_fixture("bls12381/"));
        snprintf(wt + strlen(wt), sizeof wt - strlen(wt), "%s/witness.wtns", circ[i]);
        snprintf(vk, sizeof vk, "%s", test_fixture("bls12381/"));
        snprintf(vk + strlen(vk), sizeof vk - strlen(vk), "%s/verification_key.json", circ[i]);
        snprintf(pub, sizeof pub, "%s/gp_public.json", test_tmpdir());
        for (int b = 0; b < 2; b++) {
            snprintf(out[b], sizeof out[b], "%s/gp_proof_%d.json", test_tmpdir(), b);
            cuzk_prove_opts o = {.fixed_r = FIXED_R, .fixed_s = FIXED_S,
                                 .backend = b ? CUZK_BACKEND_GPU : CUZK_BACKEND_CPU};
            cuzk_prove_timings t = {0};
            cuzk_error e = {0};
            cuzk_status st = cuzk_prove_zkey_files(zk, wt, out[b], pub, &o, &t, &e);
            CHECK_MSG(st == CUZK_OK, "%s backend %d: %s", circ[i], b, e.msg);
            CHECK(t.backend && !strcmp(t.backend, b ? "gpu" : "cpu"));
        }
        static char x[1 << 16], y[1 << 16];
        size_t nx = slurp(out[0], x, sizeof x), ny = slurp(out[1], y, sizeof y);
        CHECK_MSG(nx > 0 && nx == ny && !memcmp(x, y, nx), "%s: GPU proof differs from CPU proof", circ[i]);
        cuzk_error e = {0};
        CHECK(cuzk_verify_json_files(vk, pub, out[1], &e) == CUZK_OK);
    }
}

/* ---- snarkjs keys: B_G2 on the device (cuzk_msm_opts.b_g2_on_gpu) ----------------------------- */
#include "formats/snarkjs.h"
#include "curves/bls12_381/ns.h"
#include "gpu_zkey_b2_impl.h" /* zkey_b2_check */
#include "curves/ns_reset.h"

/* The bls12381 zkey fixtures on the GPU backend value with B_G2 on the device (b_g2_on_gpu 1 and
 * the automatic 0) and on CPU threads (-1): fixed r, s give the CPU backend's bytes, the timings
 * say where B_G2 ran, the query is counted (tests/gpu_zkey_b2_impl.h). */
TEST(gpu_prove, zkey_device_b_g2_byte_identical_to_cpu) {
    if (!have_gpu()) SKIP(TEST_NO_GPU);
    static const char *const circ[] = {"multiplier", "merkle_mimc5"};
    for (size_t i = 0; i < sizeof circ / sizeof *circ; i++) {
        char zk[1024], wt[1024];
        snprintf(zk, sizeof zk, "%s%s/circuit_final.zkey", test_fixture("bls12381/"), circ[i]);
        snprintf(wt, sizeof wt, "%s%s/witness.wtns", test_fixture("bls12381/"), circ[i]);
        zkey_b2_check(zk, wt);
    }
}

/* Phase-2 MPC parameters from `snarkjs zkey export bellman` (tests/fixtures/regen_bellman_mpc.sh):
 * the GPU's H on snarkjs's roots (gpu_h_bellperson_roots_async) and its MSMs over the queries
 * without their points at infinity give the CPU's bytes, which are refprove's proof_fixed.json
 * (the bellman_mpc suite checks that on the CPU). bellman_chain: domain 32, where the roots matter;
 * dropped_unused --O0: an L point at infinity. */
TEST(gpu_prove, snarkjs_mpc_params_byte_identical_to_cpu) {
    if (!have_gpu()) SKIP("no CUDA device (or no CUDA in this build)");
    static const char *const f[][3] = {{"bellman_chain", "bellman_mpc.params", "circuit.r1cs"},
                                       {"multiplier", "bellman_mpc.params", "circuit.r1cs"},
                                       {"dropped_unused", "bellman_mpc_O0.params", "circuit_O0.r1cs"}};
    static const char *const wtns[] = {"witness.wtns", "witness.wtns", "witness_O0.wtns"};
    for (int i = 0; i < 3; i++) {
        char dir[1024], params[1200], r1cs_p[1200], wt[1200], bin[2][1200], js[2][1200], pub[1200];
        snprintf(dir, sizeof dir, "%s", test_fixture("bls12381/"));
        snprintf(params, sizeof params, "%s%s/%s", dir, f[i][0], f[i][1]);
        snprintf(r1cs_p, sizeof r1cs_p, "%s%s/%s", dir, f[i][0], f[i][2]);
        snprintf(wt, sizeof wt, "%s%s/%s", dir, f[i][0], wtns[i]);
        snprintf(pub, sizeof pub, "%s/gp_mpc_public.json", test_tmpdir());
        for (int b = 0; b < 2; b++) {
            snprintf(bin[b], sizeof bin[b], "%s/gp_mpc_%d.bin", test_tmpdir(), b);
            snprintf(js[b], sizeof js[b], "%s/gp_mpc_%d.json", test_tmpdir(), b);
            cuzk_prove_opts o = {.fixed_r = FIXED_R, .fixed_s = FIXED_S, .proof_json_path = js[b],
                                 .backend = b ? CUZK_BACKEND_GPU : CUZK_BACKEND_CPU};
            cuzk_prove_timings t = {0};
            cuzk_error e = {0};
            cuzk_status st = cuzk_prove_params_files(params, r1cs_p, wt, bin[b], pub, &o, &t, &e);
            CHECK_MSG(st == CUZK_OK, "%s backend %d: %s", f[i][0], b, e.msg);
            CHECK(t.backend && !strcmp(t.backend, b ? "gpu" : "cpu"));
        }
        static char x[1 << 16], y[1 << 16];
        size_t nx = slurp(bin[0], x, sizeof x), ny = slurp(bin[1], y, sizeof y);
        CHECK_MSG(nx == 192 && nx == ny && !memcmp(x, y, nx), "%s: GPU proof differs from CPU proof", f[i][0]);
        nx = slurp(js[0], x, sizeof x);
        ny = slurp(js[1], y, sizeof y);
        CHECK_MSG(nx > 0 && nx == ny && !memcmp(x, y, nx), "%s: GPU proof.json differs from CPU's", f[i][0]);
        cuzk_error e = {0};
        CHECK(cuzk_verify_bellperson_files(params, pub, bin[1], &e) == CUZK_OK);
    }
}

/* bellperson flavour on synthetic PoRep-shaped circuits of several sizes (odd, non-power-of-two),
 * through groth16_prover_create with the GPU backend value. */
TEST(gpu_prove, prove_synthetic_byte_identical_to_cpu) {
    if (!have_gpu()) SKIP(TEST_NO_GPU);
    const uint32_t sizes[] = {1000, 4093, 1u << 16};
    for (size_t k = 0; k < sizeof sizes / sizeof *sizes; k++) {
        synthetic_params sp;
        synthetic_params_default(&sp, sizes[k]);
        sp.n_public = 7;
        sp.seed = test_rand64();
        cuzk_error e = {0};
        r1cs cs = {0};
        REQUIRE(synthetic_r1cs(&cs, &sp, &e) == CUZK_OK);
        fr *w = malloc(cs.n_vars * sizeof *w);
        REQUIRE(w);
        REQUIRE(synthetic_witness(w, cs.n_vars, &cs, &sp, test_rand64(), &e) == CUZK_OK);
        bellperson_params p = {0};
        uint64_t seed = test_rand64();
        REQUIRE(groth16_setup_bellperson(&p, &cs, &seed, 0, &e) == CUZK_OK);
        fr r, s;
        fr_from_u64(&r, test_rand64());
        fr_from_u64(&s, test_rand64());
        groth16_proof pc, pg;
        cuzk_status st = groth16_prove_bellperson(&pc, &p, &cs, w, cs.n_vars, &r, &s, 0, NULL, &e);
        CHECK_MSG(st == CUZK_OK, "cpu %u: %s", sizes[k], e.msg);
        /* the one orchestration with the GPU backend as a value (src/groth16/prove.h) */
        groth16_key key = {CUZK_CURVE_BLS12_381, CUZK_CONVENTION_BELLPERSON, NULL, &p, &cs};
        groth16_prover *pv = NULL;
        st = groth16_prover_create(&pv, &key, &groth16_backend_gpu_ops, NULL, &e);
        if (st == CUZK_OK) st = groth16_prove_one(pv, &pg, w, cs.n_vars, &r, &s, 0, NULL, &e);
        groth16_prover_destroy(pv);
        CHECK_MSG(st == CUZK_OK, "gpu %u: %s", sizes[k], e.msg);
        uint8_t bc[192], bg[192];
        bellperson_proof_encode(bc, &pc);
        bellperson_proof_encode(bg, &pg);
        CHECK_MSG(!memcmp(bc, bg, 192), "%u constraints: GPU proof differs from CPU proof", sizes[k]);
        CHECK(groth16_verify(&p.vk, w + 1, cs.n_public, &pg, &e) == CUZK_OK);
        bellperson_params_free(&p);
        r1cs_free(&cs);
        free(w);
    }
}

/* ---- the resident GPU prover (src/groth16/gpu_prover.h) ------------------------------------ */
#include "engine/engine_internal.h"
#include "groth16/gpu_prover.h"

/* The suite's circuits: tests/synth_circuit.h with random seeds, the parameters made on the GPU
 * when the setup's fixed-base step can use it (the same bytes as the CPU's). */
typedef synth_circuit gp_circuit;
static bool gp_make(gp_circuit *c, uint32_t n_constraints, uint32_t n_public) {
    const uint64_t circuit_seed = test_rand64(), setup_seed = test_rand64();
    return synth_circuit_make(c, n_constraints, n_public, circuit_seed, setup_seed, GROTH16_BACKEND_GPU, 0);
}

static void gp_log_stdout(void *user, cuzk_log_level level, const char *msg) {
    (void)user;
    (void)level;
    printf("  log: %s\n", msg);
}

/* Sizes from tiny to 2^20 constraints (odd, non-power-of-two, exactly at a power of two boundary),
 * two witnesses per prover (the resident parts are reused), fixed r, s: byte-identical to the CPU
 * prover, and valid. */
TEST(gpu_prove, resident_prover_byte_identical_to_cpu) {
    if (!have_gpu()) SKIP(TEST_NO_GPU);
    const uint32_t sizes[] = {8, 9, 1000, 4093, (1u << 14) - 329 - 1, 1u << 16, (1u << 20) - 1000};
    const uint32_t pubs[] = {0, 1, 7, 328, 328, 5, 328};
    for (size_t k = 0; k < sizeof sizes / sizeof *sizes; k++) {
        gp_circuit c;
        REQUIRE(gp_make(&c, sizes[k], pubs[k]));
        cuzk_error e = {0};
        groth16_gpu_prover *gp = NULL;
        cuzk_status st = groth16_gpu_prover_create(&gp, &c.p, &c.cs, 0, &e);
        CHECK_MSG(st == CUZK_OK, "create %u: %s", sizes[k], e.msg);
        if (st != CUZK_OK) { synth_circuit_free(&c); continue; }
        fr *w = malloc(c.cs.n_vars * sizeof *w);
        REQUIRE(w);
        for (int rep = 0; rep < 2; rep++) {
            REQUIRE(synthetic_witness(w, c.cs.n_vars, &c.cs, &c.sp, test_rand64(), &e) == CUZK_OK);
            fr r, s;
            fr_from_u64(&r, test_rand64());
            fr_from_u64(&s, test_rand64());
            if (rep == 1) fr_neg(&s, &s); /* a large s too */
            groth16_proof pc, pg;
            st = groth16_prove_bellperson(&pc, &c.p, &c.cs, w, c.cs.n_vars, &r, &s, 0, NULL, &e);
            CHECK_MSG(st == CUZK_OK, "cpu %u: %s", sizes[k], e.msg);
            groth16_pending *pend = NULL;
            groth16_timings ts = {0}, tf = {0};
            /* the MSM phase split of the large cases in the test log (CUZK_LOG_DEBUG lines) */
            if (sizes[k] >= (1u << 16) && rep == 0) cuzk_set_log(gp_log_stdout, NULL, CUZK_LOG_DEBUG);
            st = groth16_gpu_prove_start(&pend, gp, w, c.cs.n_vars, &r, &s, 0, NULL, NULL, &ts, &e);
            cuzk_set_log(NULL, NULL, CUZK_LOG_WARN);
            CHECK_MSG(st == CUZK_OK, "gpu start %u: %s", sizes[k], e.msg);
            if (st == CUZK_OK) st = groth16_prove_bellperson_finish(&pg, pend, 0, &tf, &e);
            CHECK_MSG(st == CUZK_OK, "gpu finish %u: %s", sizes[k], e.msg);
            groth16_pending_free(pend);
            if (st != CUZK_OK) continue;
            uint8_t bc[192], bg[192];
            bellperson_proof_encode(bc, &pc);
            bellperson_proof_encode(bg, &pg);
            CHECK_MSG(!memcmp(bc, bg, 192), "%u constraints, witness %d: GPU proof differs from CPU proof", sizes[k], rep);
            CHECK(groth16_verify(&c.p.vk, w + 1, c.cs.n_public, &pg, &e) == CUZK_OK);
            if (sizes[k] >= (1u << 16))
                printf("  %u constraints: gpu start %.1f ms (upload %.1f, abc %.1f, H %.1f, MSM A %.1f B1 %.1f L %.1f H %.1f), "
                       "B2 %.1f ms on CPU threads, finish waited %.1f ms\n",
                       sizes[k], ts.total_ms, ts.upload_ms, ts.abc_ms, ts.h_ms, ts.msm_a_ms, ts.msm_b1_ms, ts.msm_l_ms,
                       ts.msm_h_ms, tf.msm_b2_ms, tf.b2_wait_ms);
        }
        /* a start whose pending is freed without finish: the B_G2 thread is joined, nothing leaks */
        groth16_pending *pend = NULL;
        fr r, s;
        fr_from_u64(&r, 3);
        fr_from_u64(&s, 5);
        if (groth16_gpu_prove_start(&pend, gp, w, c.cs.n_vars, &r, &s, 0, NULL, NULL, NULL, &e) == CUZK_OK)
            groth16_pending_free(pend);
        else CHECK_MSG(0, "start (no finish): %s", e.msg);
        CHECK(!groth16_gpu_prover_dead(gp));
        groth16_gpu_prover_destroy(gp);
        free(w);
        synth_circuit_free(&c);
    }
}

/* Misuse and bad data: parameters of another circuit, wrong witness length, witness[0] != 1,
 * a witness that does not satisfy (the proof must not verify). */
TEST(gpu_prove, resident_prover_rejects_bad_input) {
    if (!have_gpu()) SKIP(TEST_NO_GPU);
    gp_circuit c, d;
    REQUIRE(gp_make(&c, 1000, 3));
    REQUIRE(gp_make(&d, 2000, 3));
    cuzk_error e = {0};
    groth16_gpu_prover *gp = NULL;
    CHECK_EQ_INT(groth16_gpu_prover_create(&gp, &d.p, &c.cs, 0, &e), CUZK_ERR_MISMATCH);
    CHECK(gp == NULL);
    REQUIRE(groth16_gpu_prover_create(&gp, &c.p, &c.cs, 0, &e) == CUZK_OK);
    fr *w = malloc(c.cs.n_vars * sizeof *w);
    REQUIRE(w);
    REQUIRE(synthetic_witness(w, c.cs.n_vars, &c.cs, &c.sp, 77, &e) == CUZK_OK);
    fr r, s;
    fr_from_u64(&r, 11);
    fr_from_u64(&s, 13);
    groth16_pending *pend = NULL;
    CHECK_EQ_INT(groth16_gpu_prove_start(&pend, gp, w, c.cs.n_vars - 1, &r, &s, 0, NULL, NULL, NULL, &e), CUZK_ERR_MISMATCH);
    CHECK(pend == NULL);
    fr one = w[0];
    fr_from_u64(&w[0], 2);
    CHECK_EQ_INT(groth16_gpu_prove_start(&pend, gp, w, c.cs.n_vars, &r, &s, 0, NULL, NULL, NULL, &e), CUZK_ERR_MISMATCH);
    w[0] = one;
    /* break one aux value: the prover still runs, the proof must not verify */
    fr_add(&w[c.cs.n_vars - 1], &w[c.cs.n_vars - 1], &one);
    REQUIRE(groth16_gpu_prove_start(&pend, gp, w, c.cs.n_vars, &r, &s, 0, NULL, NULL, NULL, &e) == CUZK_OK);
    groth16_proof pg;
    REQUIRE(groth16_prove_bellperson_finish(&pg, pend, 0, NULL, &e) == CUZK_OK);
    groth16_pending_free(pend);
    CHECK(groth16_verify(&c.p.vk, w + 1, c.cs.n_public, &pg, &e) == CUZK_ERR_INVALID);
    CHECK(!groth16_gpu_prover_dead(gp));
    groth16_gpu_prover_destroy(gp);
    free(w);
    synth_circuit_free(&c);
    synth_circuit_free(&d);
}

/* The engine on the GPU backend: 2 jobs x 3 partitions with fixed r, s give the CPU single-call
 * proofs, in partition order. */
typedef struct { const r1cs *cs; const synthetic_params *sp; } gp_synth;
static cuzk_status gp_synth_cb(void *ctx, uint32_t part, uint64_t *w, size_t n_vars, cuzk_error *err) {
    const gp_synth *g = ctx;
    return synthetic_witness((fr *)w, n_vars, g->cs, g->sp, 1000 + part, err);
}

/* One job of P partitions of c on eng (the key cc, or c's own parameters when cc is NULL;
 * witnesses from gp_synth_cb; r and s of partition i at rs[8i], rs[8i + 4]), submitted and waited
 * for; false (e set) when either call fails. */
static bool gp_engine_job(cuzk_engine *eng, gp_circuit *c, const cuzk_circuit *cc, uint32_t P, const uint64_t *rs,
                          cuzk_job_result *res, cuzk_error *e) {
    cuzk_circuit own = {&c->cs, &c->p, NULL, NULL};
    gp_synth gs = {&c->cs, &c->sp};
    cuzk_job_desc d = {cc ? cc : &own, P, gp_synth_cb, &gs, rs, 0, CUZK_WITNESS_FR_MONT, NULL, NULL};
    cuzk_job_id id;
    return cuzk_engine_submit(eng, &d, &id, e) == CUZK_OK && cuzk_engine_wait(eng, id, res, e) == CUZK_OK;
}

/* The CPU's 192-byte proof of partition i of such a job (w: scratch of n_vars values); false (e
 * set) when the CPU prover fails. */
static bool gp_cpu_partition_proof(uint8_t out[192], gp_circuit *c, fr *w, const uint64_t *rs, uint32_t i,
                                   cuzk_error *e) {
    if (synthetic_witness(w, c->cs.n_vars, &c->cs, &c->sp, 1000 + i, e) != CUZK_OK) return false;
    fr r, s;
    memcpy(&r, &rs[8 * i], sizeof r);
    memcpy(&s, &rs[8 * i + 4], sizeof s);
    groth16_proof pc;
    if (groth16_prove_bellperson(&pc, &c->p, &c->cs, w, c->cs.n_vars, &r, &s, 0, NULL, e) != CUZK_OK) return false;
    bellperson_proof_encode(out, &pc);
    return true;
}

TEST(gpu_prove, engine_gpu_backend_equals_cpu_single_calls) {
    if (!have_gpu()) SKIP(TEST_NO_GPU);
    gp_circuit c;
    REQUIRE(gp_make(&c, 3000, 9));
    enum { P = 3 };
    uint64_t rs[8 * P];
    for (int i = 0; i < 8 * P; i += 4) {
        fr x;
        fr_from_u64(&x, test_rand64());
        memcpy(&rs[i], &x, sizeof x);
    }
    cuzk_engine_opts o = {0};
    o.backend = CUZK_BACKEND_GPU;
    o.synthesis_workers = 2;
    cuzk_engine *eng = NULL;
    cuzk_error e = {0};
    REQUIRE(cuzk_engine_create(&eng, &o, &e) == CUZK_OK);
    CHECK(!strcmp(cuzk_engine_backend_name(eng), "gpu"));
    cuzk_circuit cc = {&c.cs, &c.p, NULL, NULL};
    gp_synth gs = {&c.cs, &c.sp};
    cuzk_job_id ids[2];
    for (int k = 0; k < 2; k++) {
        cuzk_job_desc d = {&cc, P, gp_synth_cb, &gs, rs, 0, CUZK_WITNESS_FR_MONT, NULL, NULL};
        REQUIRE(cuzk_engine_submit(eng, &d, &ids[k], &e) == CUZK_OK);
    }
    fr *w = malloc(c.cs.n_vars * sizeof *w);
    REQUIRE(w);
    for (int k = 0; k < 2; k++) {
        cuzk_job_result res = {0};
        REQUIRE(cuzk_engine_wait(eng, ids[k], &res, &e) == CUZK_OK);
        CHECK_MSG(res.state == CUZK_JOB_DONE, "job %d: %s", k, e.msg);
        for (uint32_t i = 0; i < P && res.state == CUZK_JOB_DONE; i++) {
            uint8_t bc[192];
            REQUIRE_MSG(gp_cpu_partition_proof(bc, &c, w, rs, i, &e), "CPU proof: %s", e.msg);
            CHECK_MSG(!memcmp(bc, res.proofs + 192 * (size_t)i, 192), "job %d partition %u differs from the CPU proof", k, i);
        }
        cuzk_job_result_free(&res);
    }
    cuzk_engine_stats st;
    cuzk_engine_get_stats(eng, &st);
    CHECK(st.gpu_resident_bytes > 0);
    char path[1024];
    snprintf(path, sizeof path, "%s/gpu_trace.json", test_tmpdir());
    CHECK(cuzk_engine_trace_write(eng, path, &e) == CUZK_OK);
    char buf[1 << 14];
    size_t n = slurp(path, buf, sizeof buf - 1);
    buf[n] = 0;
    CHECK(strstr(buf, "GPU stream") != NULL);
    cuzk_engine_destroy(eng);
    free(w);
    synth_circuit_free(&c);
}

/* The SRS store's GPU tier with the real device hooks: the SRS written to a .params file, loaded
 * and kept hot by the store, a prover on the store's device copy gives the CPU proof; evicting
 * the GPU copy while a handle holds it is BUSY; after release it goes. */
#include "srs/store.h"

TEST(gpu_prove, srs_store_gpu_tier_feeds_the_prover) {
    if (!have_gpu()) SKIP(TEST_NO_GPU);
    gp_circuit c;
    REQUIRE(gp_make(&c, 5000, 4));
    char path[1024];
    snprintf(path, sizeof path, "%s/store_gpu.params", test_tmpdir());
    cuzk_error e = {0};
    REQUIRE(bellperson_params_write(path, &c.p, &e) == CUZK_OK);
    srs_store_opts so = {0};
    so.ops = srs_gpu_ops(0);
    REQUIRE(so.ops != NULL);
    srs_store *store = NULL;
    REQUIRE(srs_store_create(&store, &so, &e) == CUZK_OK);
    srs_handle h = {0};
    cuzk_status st = srs_store_acquire(store, &h, path, SRS_TIER_GPU, &e);
    CHECK_MSG(st == CUZK_OK, "acquire at GPU: %s", e.msg);
    if (st == CUZK_OK) {
        CHECK(h.device != NULL && h.device_bytes > 0);
        groth16_gpu_prover *gp = NULL;
        st = groth16_gpu_prover_create_on(&gp, h.device, h.params, &c.cs, &e);
        CHECK_MSG(st == CUZK_OK, "prover on the store's SRS: %s", e.msg);
        fr *w = malloc(c.cs.n_vars * sizeof *w);
        REQUIRE(w);
        REQUIRE(synthetic_witness(w, c.cs.n_vars, &c.cs, &c.sp, 9, &e) == CUZK_OK);
        fr r, s;
        fr_from_u64(&r, test_rand64());
        fr_from_u64(&s, test_rand64());
        groth16_proof pc, pg;
        REQUIRE(groth16_prove_bellperson(&pc, &c.p, &c.cs, w, c.cs.n_vars, &r, &s, 0, NULL, &e) == CUZK_OK);
        groth16_pending *pend = NULL;
        if (st == CUZK_OK && groth16_gpu_prove_start(&pend, gp, w, c.cs.n_vars, &r, &s, 0, NULL, NULL, NULL, &e) == CUZK_OK &&
            groth16_prove_bellperson_finish(&pg, pend, 0, NULL, &e) == CUZK_OK) {
            uint8_t bc[192], bg[192];
            bellperson_proof_encode(bc, &pc);
            bellperson_proof_encode(bg, &pg);
            CHECK_MSG(!memcmp(bc, bg, 192), "proof on the store's SRS differs from the CPU proof");
        } else {
            CHECK_MSG(0, "prove on the store's SRS: %s", e.msg);
        }
        groth16_pending_free(pend);
        /* in use: the store must refuse to evict it */
        CHECK_EQ_INT(srs_store_evict(store, path, SRS_TIER_GPU, &e), CUZK_ERR_BUSY);
        groth16_gpu_prover_destroy(gp);
        srs_store_release(store, &h);
        CHECK_EQ_INT(srs_store_evict(store, path, SRS_TIER_GPU, &e), CUZK_OK);
        free(w);
    }
    CHECK_EQ_INT(srs_store_destroy(store), CUZK_OK);
    synth_circuit_free(&c);
}

/* The engine on an SRS store's device copy (cuzk_circuit.gpu_srs): proofs equal the CPU's and the
 * engine uploads only the circuit; its GPU budget counts the borrowed SRS, and a budget that holds
 * the borrowed SRS and nothing more fails the preload with CUZK_ERR_NOMEM_DEVICE (the queries are
 * given, so no plan streams them; the matrices and the lean H still need an arena) while one at
 * the prover's need passes. (One byte below the need is not a refusal any more: the plan then
 * streams the matrices or parks a, b, c.) */
TEST(gpu_prove, engine_on_store_srs_and_gpu_budget) {
    if (!have_gpu()) SKIP(TEST_NO_GPU);
    gp_circuit c;
    REQUIRE(gp_make(&c, 2500, 5));
    char path[1024];
    snprintf(path, sizeof path, "%s/engine_store.params", test_tmpdir());
    cuzk_error e = {0};
    REQUIRE(bellperson_params_write(path, &c.p, &e) == CUZK_OK);
    srs_store_opts so = {0};
    so.ops = srs_gpu_ops(0);
    srs_store *store = NULL;
    REQUIRE(srs_store_create(&store, &so, &e) == CUZK_OK);
    srs_handle h = {0};
    REQUIRE(srs_store_acquire(store, &h, path, SRS_TIER_GPU, &e) == CUZK_OK);
    cuzk_circuit cc = {&c.cs, h.params, h.device, NULL};
    size_t need = 0;
    {
        /* the need, from a prover made the same way */
        groth16_gpu_prover *gp = NULL;
        REQUIRE(groth16_gpu_prover_create_on(&gp, h.device, h.params, &c.cs, &e) == CUZK_OK);
        need = groth16_gpu_prover_device_bytes(gp) + groth16_gpu_proof_device_bytes(gp) + groth16_gpu_srs_bytes(h.device);
        CHECK(groth16_gpu_proof_device_bytes(gp) > ((size_t)c.cs.n_vars + 3) * sizeof(fr));
        groth16_gpu_prover_destroy(gp);
    }
    for (int pass = 0; pass < 2; pass++) {
        cuzk_engine_opts o = {0};
        o.backend = CUZK_BACKEND_GPU;
        o.gpu_budget_bytes = pass == 0 ? groth16_gpu_srs_bytes(h.device) + ((size_t)1 << 20) : need;
        cuzk_engine *eng = NULL;
        REQUIRE(cuzk_engine_create(&eng, &o, &e) == CUZK_OK);
        cuzk_status st = cuzk_engine_preload(eng, &cc, &e);
        if (pass == 0) {
            CHECK_EQ_INT(st, CUZK_ERR_NOMEM_DEVICE);
            CHECK_MSG(strstr(e.msg, "GPU budget") != NULL, "message: %s", e.msg);
            cuzk_engine_stats es;
            cuzk_engine_get_stats(eng, &es);
            CHECK_EQ_INT(es.gpu_resident_bytes, 0); /* nothing kept */
        } else {
            CHECK_MSG(st == CUZK_OK, "preload within the budget: %s", e.msg);
            uint64_t rs[8];
            for (int i = 0; i < 8; i += 4) {
                fr x;
                fr_from_u64(&x, test_rand64());
                memcpy(&rs[i], &x, sizeof x);
            }
            cuzk_job_result res = {0};
            REQUIRE_MSG(gp_engine_job(eng, &c, &cc, 1, rs, &res, &e), "job: %s", e.msg);
            CHECK_MSG(res.state == CUZK_JOB_DONE, "job: %s", e.msg);
            if (res.state == CUZK_JOB_DONE) {
                fr *w = malloc(c.cs.n_vars * sizeof *w);
                REQUIRE(w);
                uint8_t bc[192];
                const bool ok = gp_cpu_partition_proof(bc, &c, w, rs, 0, &e);
                free(w);
                REQUIRE_MSG(ok, "CPU proof: %s", e.msg);
                CHECK_MSG(!memcmp(bc, res.proofs, 192), "engine proof on the store's SRS differs from the CPU proof");
            }
            cuzk_engine_stats es;
            cuzk_engine_get_stats(eng, &es);
            CHECK(es.gpu_resident_bytes >= groth16_gpu_srs_bytes(h.device)); /* the borrowed SRS is counted */
            cuzk_job_result_free(&res);
        }
        cuzk_engine_destroy(eng);
    }
    /* the engines are gone: the store may evict its copy again */
    srs_store_release(store, &h);
    CHECK_EQ_INT(srs_store_evict(store, path, SRS_TIER_GPU, &e), CUZK_OK);
    CHECK_EQ_INT(srs_store_destroy(store), CUZK_OK);
    synth_circuit_free(&c);
}

/* ---- B_G2 on the device (groth16_gpu_prover_set_b_g2, cuzk_msm_opts.b_g2_on_gpu) ----------------- */

/* One proof through the resident prover; 0 on success. */
static int gp_prove(groth16_proof *out, groth16_gpu_prover *gp, const gp_circuit *c, const fr *w, const fr *r,
                    const fr *s, groth16_timings *ts, groth16_timings *tf, cuzk_error *e) {
    groth16_pending *pend = NULL;
    cuzk_status st = groth16_gpu_prove_start(&pend, gp, w, c->cs.n_vars, r, s, 0, NULL, NULL, ts, e);
    if (st == CUZK_OK) st = groth16_prove_bellperson_finish(out, pend, 0, tf, e);
    groth16_pending_free(pend);
    return st != CUZK_OK;
}

static bool same_proof(const groth16_proof *a, const groth16_proof *b) {
    uint8_t x[192], y[192];
    bellperson_proof_encode(x, a);
    bellperson_proof_encode(y, b);
    return !memcmp(x, y, 192);
}

/* The device B_G2 gives the CPU proof byte for byte (fixed r, s), from tiny circuits to 2^20
 * constraints, twice per prover; its timings say where B_G2 ran; the prover's own B_G2 copy is
 * counted in its device bytes and dropped when the option is turned off again (then the CPU
 * threads compute it, same proof). */
TEST(gpu_prove, device_b_g2_byte_identical_to_cpu) {
    if (!have_gpu()) SKIP(TEST_NO_GPU);
    const uint32_t sizes[] = {8, 9, 1000, 4093, 1u << 16, (1u << 20) - 1000};
    const uint32_t pubs[] = {0, 1, 7, 328, 5, 328};
    for (size_t k = 0; k < sizeof sizes / sizeof *sizes; k++) {
        gp_circuit c;
        REQUIRE(gp_make(&c, sizes[k], pubs[k]));
        cuzk_error e = {0};
        groth16_gpu_prover *gp = NULL;
        cuzk_status st = groth16_gpu_prover_create(&gp, &c.p, &c.cs, 0, &e);
        CHECK_MSG(st == CUZK_OK, "create %u: %s", sizes[k], e.msg);
        if (st != CUZK_OK) { synth_circuit_free(&c); continue; }
        const size_t dev0 = groth16_gpu_prover_device_bytes(gp), peak0 = groth16_gpu_proof_device_bytes(gp);
        CHECK(!groth16_gpu_prover_b_g2_on_device(gp));
        st = groth16_gpu_prover_set_b_g2(gp, true, &e);
        CHECK_MSG(st == CUZK_OK, "set_b_g2 %u: %s", sizes[k], e.msg);
        CHECK(groth16_gpu_prover_b_g2_on_device(gp));
        CHECK_MSG(groth16_gpu_prover_device_bytes(gp) == dev0 + (size_t)c.p.n_b_g2 * sizeof(g2_affine),
                  "%u: device bytes %zu, want %zu + %u x 192", sizes[k], groth16_gpu_prover_device_bytes(gp), dev0,
                  c.p.n_b_g2);
        CHECK(groth16_gpu_proof_device_bytes(gp) >= peak0);
        CHECK_EQ_INT(groth16_gpu_prover_set_b_g2(gp, true, &e), CUZK_OK); /* idempotent */
        fr *w = malloc(c.cs.n_vars * sizeof *w);
        REQUIRE(w);
        for (int rep = 0; rep < 3; rep++) {
            REQUIRE(synthetic_witness(w, c.cs.n_vars, &c.cs, &c.sp, test_rand64(), &e) == CUZK_OK);
            fr r, s;
            fr_from_u64(&r, test_rand64());
            fr_from_u64(&s, test_rand64());
            if (rep == 1) fr_neg(&s, &s);
            if (rep == 2) {
                /* back on CPU threads: the own copy goes, the proof stays the same */
                CHECK_EQ_INT(groth16_gpu_prover_set_b_g2(gp, false, &e), CUZK_OK);
                CHECK(groth16_gpu_prover_device_bytes(gp) == dev0);
            }
            groth16_proof pc, pg;
            st = groth16_prove_bellperson(&pc, &c.p, &c.cs, w, c.cs.n_vars, &r, &s, 0, NULL, &e);
            CHECK_MSG(st == CUZK_OK, "cpu %u: %s", sizes[k], e.msg);
            groth16_timings ts = {0}, tf = {0};
            if (sizes[k] >= (1u << 16) && rep == 0) cuzk_set_log(gp_log_stdout, NULL, CUZK_LOG_DEBUG);
            int bad = gp_prove(&pg, gp, &c, w, &r, &s, &ts, &tf, &e);
            cuzk_set_log(NULL, NULL, CUZK_LOG_WARN);
            CHECK_MSG(!bad, "gpu %u rep %d: %s", sizes[k], rep, e.msg);
            if (bad) continue;
            CHECK_MSG(same_proof(&pc, &pg), "%u constraints, rep %d (B_G2 on the %s): GPU proof differs from CPU proof",
                      sizes[k], rep, rep < 2 ? "device" : "CPU");
            CHECK(groth16_verify(&c.p.vk, w + 1, c.cs.n_public, &pg, &e) == CUZK_OK);
            CHECK_EQ_INT(ts.b2_device, rep < 2);
            CHECK_EQ_INT(tf.b2_device, rep < 2);
            if (rep < 2) CHECK(tf.b2_wait_ms < 50 && ts.msm_b2_ms > 0 && tf.msm_b2_ms == ts.msm_b2_ms);
            if (sizes[k] >= (1u << 16) && rep == 0)
                printf("  %u constraints: gpu start %.1f ms (MSM A %.1f B1 %.1f L %.1f H %.1f, B2 on the device %.1f), "
                       "finish %.1f ms\n", sizes[k], ts.total_ms, ts.msm_a_ms, ts.msm_b1_ms, ts.msm_l_ms, ts.msm_h_ms,
                       ts.msm_b2_ms, tf.total_ms);
        }
        /* a start with the device B_G2 whose pending is freed without finish */
        CHECK_EQ_INT(groth16_gpu_prover_set_b_g2(gp, true, &e), CUZK_OK);
        groth16_pending *pend = NULL;
        fr r, s;
        fr_from_u64(&r, 3);
        fr_from_u64(&s, 5);
        if (groth16_gpu_prove_start(&pend, gp, w, c.cs.n_vars, &r, &s, 0, NULL, NULL, NULL, &e) == CUZK_OK)
            groth16_pending_free(pend);
        else CHECK_MSG(0, "start (no finish): %s", e.msg);
        CHECK(!groth16_gpu_prover_dead(gp));
        groth16_gpu_prover_destroy(gp);
        free(w);
        synth_circuit_free(&c);
    }
}

/* The B_G2 tests' case: a 3000-constraint synthetic circuit (gp_make), the witness of seed 1000,
 * random r and s, and the CPU's proof with them. *w is malloc'd (the caller frees it, and c). */
static bool b2_case(gp_circuit *c, fr **w, fr *r, fr *s, groth16_proof *pc) {
    cuzk_error e = {0};
    *w = NULL;
    if (!gp_make(c, 3000, 9)) return false;
    *w = malloc(c->cs.n_vars * sizeof **w);
    if (!*w || synthetic_witness(*w, c->cs.n_vars, &c->cs, &c->sp, 1000, &e) != CUZK_OK) return false;
    fr_from_u64(r, test_rand64());
    fr_from_u64(s, test_rand64());
    return groth16_prove_bellperson(pc, &c->p, &c->cs, *w, c->cs.n_vars, r, s, 0, NULL, &e) == CUZK_OK;
}

/* The automatic B_G2 choice (cuzk_msm_opts.b_g2_on_gpu = 0, the default): the GPU when the query
 * fits; -1 keeps CPU threads. Under an engine GPU budget (the memory plan, src/groth16/memplan.h):
 * one that fits the circuit but not the B_G2 query on top keeps B_G2 on the device (the plan
 * streams what does not fit: H first, then B_G2) rather than on CPU threads; one that fits only
 * the circuit with B_G2 on CPU threads (not even the G2 MSM's scratch) puts it there, and the job
 * still proves. Every proof equals the CPU's; the partition timings say where B_G2 ran. */
TEST(gpu_prove, automatic_b_g2_choice) {
    if (!have_gpu()) SKIP(TEST_NO_GPU);
    gp_circuit c;
    fr *w = NULL, r, s;
    groth16_proof pc;
    REQUIRE(b2_case(&c, &w, &r, &s, &pc));
    cuzk_error e = {0};
    groth16_key key = {CUZK_CURVE_BLS12_381, CUZK_CONVENTION_BELLPERSON, NULL, &c.p, &c.cs};
    size_t bytes_cpu = 0, bytes_dev = 0, proof_dev = 0, proof_cpu = 0;
    for (int mode = -1; mode <= 0; mode++) {
        groth16_backend_cfg cfg = {0};
        cfg.msm.b_g2_on_gpu = mode;
        groth16_prover *pv = NULL;
        cuzk_status st = groth16_prover_create(&pv, &key, &groth16_backend_gpu_ops, &cfg, &e);
        CHECK_MSG(st == CUZK_OK, "prover (b_g2_on_gpu %d): %s", mode, e.msg);
        if (st != CUZK_OK) continue;
        groth16_proof pg;
        groth16_timings t = {0};
        st = groth16_prove_one(pv, &pg, w, c.cs.n_vars, &r, &s, 0, &t, &e);
        CHECK_MSG(st == CUZK_OK, "prove_one (b_g2_on_gpu %d): %s", mode, e.msg);
        if (st == CUZK_OK) {
            CHECK_MSG(same_proof(&pc, &pg), "b_g2_on_gpu %d: proof differs from the CPU's", mode);
            CHECK_MSG(t.b2_device == (mode == 0), "b_g2_on_gpu %d: B_G2 ran %s", mode, t.b2_device ? "on the GPU" : "on CPU threads");
        }
        void *state = groth16_prover_state(pv);
        if (mode < 0) {
            bytes_cpu = groth16_backend_gpu_ops.info.device_bytes(state);
            proof_cpu = groth16_backend_gpu_ops.info.proof_device_bytes(state);
        } else {
            bytes_dev = groth16_backend_gpu_ops.info.device_bytes(state);
            proof_dev = groth16_backend_gpu_ops.info.proof_device_bytes(state);
        }
        groth16_prover_destroy(pv);
    }
    CHECK_MSG(bytes_dev > bytes_cpu, "the device B_G2 query is not counted (%zu vs %zu bytes)", bytes_dev, bytes_cpu);
    CHECK_MSG(proof_dev > proof_cpu, "the G2 MSM's scratch is not in the device B_G2's arena (%zu vs %zu bytes)", proof_dev,
              proof_cpu);

    /* the engine under two GPU budgets: between the two needs (B_G2 stays on the device), and
     * room for the circuit with B_G2 on CPU threads only (it goes there) */
    if (bytes_dev > bytes_cpu && proof_dev > proof_cpu + ((size_t)8 << 20)) {
        uint64_t rs[8];
        memcpy(&rs[0], &r, sizeof r);
        memcpy(&rs[4], &s, sizeof s);
        const size_t budgets[2] = {bytes_cpu + proof_dev + (bytes_dev - bytes_cpu) / 2,
                                   bytes_cpu + proof_cpu + ((size_t)4 << 20)};
        for (int k = 0; k < 2; k++) {
            cuzk_engine_opts o = {0};
            o.backend = CUZK_BACKEND_GPU;
            o.gpu_budget_bytes = budgets[k];
            cuzk_engine *eng = NULL;
            REQUIRE(cuzk_engine_create(&eng, &o, &e) == CUZK_OK);
            cuzk_job_result res = {0};
            REQUIRE_MSG(gp_engine_job(eng, &c, NULL, 1, rs, &res, &e), "job: %s", e.msg);
            CHECK_MSG(res.state == CUZK_JOB_DONE, "job under the budget %d: %s", k, e.msg);
            if (res.state == CUZK_JOB_DONE) {
                uint8_t bc[192];
                bellperson_proof_encode(bc, &pc);
                CHECK_MSG(!memcmp(bc, res.proofs, 192), "engine proof (budget %d) differs from the CPU proof", k);
                CHECK_MSG(res.timings && res.timings[0].b2_on_device == (k == 0), "budget %d: B_G2 ran %s", k,
                          res.timings && res.timings[0].b2_on_device ? "on the GPU" : "on CPU threads");
            }
            cuzk_device_stats ds;
            if (cuzk_engine_device_stats(eng, 0, &ds) == CUZK_OK) printf("  budget %d: %s\n", k, ds.memory_plan);
            cuzk_job_result_free(&res);
            cuzk_engine_destroy(eng);
        }
    }
    free(w);
    synth_circuit_free(&c);
}

/* The G1 MSMs' accumulation is per prover (cuzk_msm_opts.accumulation, carried by the backend
 * config down to each MSM job; issue 26 item 4): three provers of one key alive at once in one
 * process, with DEFAULT, RUNS and TASKS, prove in interleaved order, twice each, and every proof
 * equals the CPU's; an engine with RUNS proves a partition equal to the CPU's. */
TEST(gpu_prove, msm_accumulation_per_prover) {
    if (!have_gpu()) SKIP(TEST_NO_GPU);
    gp_circuit c;
    fr *w = NULL, r, s;
    groth16_proof pc;
    REQUIRE(b2_case(&c, &w, &r, &s, &pc));
    cuzk_error e = {0};
    groth16_key key = {CUZK_CURVE_BLS12_381, CUZK_CONVENTION_BELLPERSON, NULL, &c.p, &c.cs};
    static const cuzk_gpu_msm_accum modes[3] = {CUZK_GPU_MSM_ACCUM_DEFAULT, CUZK_GPU_MSM_ACCUM_RUNS,
                                                CUZK_GPU_MSM_ACCUM_TASKS};
    groth16_prover *pv[3] = {NULL};
    for (int m = 0; m < 3; m++) {
        groth16_backend_cfg cfg = {0};
        cfg.msm.accumulation = modes[m];
        cfg.msm.window_bits = 7; /* long buckets at 3000 rows */
        cuzk_status st = groth16_prover_create(&pv[m], &key, &groth16_backend_gpu_ops, &cfg, &e);
        CHECK_MSG(st == CUZK_OK, "prover (accumulation %d): %s", (int)modes[m], e.msg);
    }
    for (int round = 0; round < 2; round++)
        for (int k = 0; k < 3; k++) {
            const int m = round ? 2 - k : k;
            if (!pv[m]) continue;
            groth16_proof pg;
            groth16_timings t = {0};
            cuzk_status st = groth16_prove_one(pv[m], &pg, w, c.cs.n_vars, &r, &s, 0, &t, &e);
            CHECK_MSG(st == CUZK_OK, "prove_one (accumulation %d): %s", (int)modes[m], e.msg);
            if (st == CUZK_OK)
                CHECK_MSG(same_proof(&pc, &pg), "accumulation %d, round %d: proof differs from the CPU's", (int)modes[m],
                          round);
        }
    for (int m = 0; m < 3; m++) groth16_prover_destroy(pv[m]);

    uint64_t rs[8];
    memcpy(&rs[0], &r, sizeof r);
    memcpy(&rs[4], &s, sizeof s);
    cuzk_engine_opts o = {0};
    o.backend = CUZK_BACKEND_GPU;
    o.msm.accumulation = CUZK_GPU_MSM_ACCUM_RUNS;
    cuzk_engine *eng = NULL;
    REQUIRE(cuzk_engine_create(&eng, &o, &e) == CUZK_OK);
    cuzk_job_result res = {0};
    REQUIRE_MSG(gp_engine_job(eng, &c, NULL, 1, rs, &res, &e), "job: %s", e.msg);
    CHECK_MSG(res.state == CUZK_JOB_DONE, "engine job with the runs accumulation: %s", e.msg);
    if (res.state == CUZK_JOB_DONE) {
        uint8_t bc[192];
        bellperson_proof_encode(bc, &pc);
        CHECK_MSG(!memcmp(bc, res.proofs, 192), "engine proof (runs accumulation) differs from the CPU proof");
    }
    cuzk_job_result_free(&res);
    cuzk_engine_destroy(eng);
    free(w);
    synth_circuit_free(&c);
}

/* The option as the prover and engine take it (cuzk_msm_opts.b_g2_on_gpu in the backend config):
 * groth16_prove_one on a GPU backend value, and the engine (proofs of 2 partitions equal the CPU's;
 * its trace shows B_G2 on the GPU track and no wait in finish); an SRS store's device copy made with
 * srs_gpu_ops_b_g2 holds the B_G2 query (counted in its GPU tier), and a prover on it uses that
 * copy instead of uploading its own. */
TEST(gpu_prove, device_b_g2_through_backend_engine_and_store) {
    if (!have_gpu()) SKIP(TEST_NO_GPU);
    gp_circuit c;
    fr *w = NULL, r, s;
    groth16_proof pc, pg;
    REQUIRE(b2_case(&c, &w, &r, &s, &pc));
    cuzk_error e = {0};

    /* 1. the backend value with the option in its config */
    groth16_key key = {CUZK_CURVE_BLS12_381, CUZK_CONVENTION_BELLPERSON, NULL, &c.p, &c.cs};
    groth16_backend_cfg cfg = {0};
    cfg.msm.b_g2_on_gpu = 1;
    groth16_prover *pv = NULL;
    cuzk_status st = groth16_prover_create(&pv, &key, &groth16_backend_gpu_ops, &cfg, &e);
    CHECK_MSG(st == CUZK_OK, "prover: %s", e.msg);
    groth16_timings t = {0};
    if (st == CUZK_OK) st = groth16_prove_one(pv, &pg, w, c.cs.n_vars, &r, &s, 0, &t, &e);
    CHECK_MSG(st == CUZK_OK, "prove_one: %s", e.msg);
    if (st == CUZK_OK) {
        CHECK_MSG(same_proof(&pc, &pg), "backend with b_g2_on_gpu: proof differs from the CPU's");
        CHECK(t.b2_device == 1);
    }
    groth16_prover_destroy(pv);

    /* 2. the engine, 2 partitions with fixed r, s */
    {
        uint64_t rs[16];
        for (int i = 0; i < 16; i += 4) {
            fr x;
            fr_from_u64(&x, test_rand64());
            memcpy(&rs[i], &x, sizeof x);
        }
        cuzk_engine_opts o = {0};
        o.backend = CUZK_BACKEND_GPU;
        o.msm.b_g2_on_gpu = 1;
        cuzk_engine *eng = NULL;
        REQUIRE(cuzk_engine_create(&eng, &o, &e) == CUZK_OK);
        cuzk_job_result res = {0};
        REQUIRE_MSG(gp_engine_job(eng, &c, NULL, 2, rs, &res, &e), "job: %s", e.msg);
        CHECK_MSG(res.state == CUZK_JOB_DONE, "job: %s", e.msg);
        for (uint32_t i = 0; i < 2 && res.state == CUZK_JOB_DONE; i++) {
            uint8_t bc[192];
            REQUIRE_MSG(gp_cpu_partition_proof(bc, &c, w, rs, i, &e), "CPU proof: %s", e.msg);
            CHECK_MSG(!memcmp(bc, res.proofs + 192 * (size_t)i, 192), "engine partition %u differs from the CPU proof", i);
            CHECK(res.timings && res.timings[i].msm_b2_ms > 0);
        }
        cuzk_job_result_free(&res);
        char path[1024];
        snprintf(path, sizeof path, "%s/gpu_b2_trace.json", test_tmpdir());
        CHECK(cuzk_engine_trace_write(eng, path, &e) == CUZK_OK);
        static char buf[1 << 16];
        size_t n = slurp(path, buf, sizeof buf - 1);
        buf[n] = 0;
        CHECK_MSG(strstr(buf, "MSM B (G2)") != NULL, "no device B_G2 span in the trace");
        CHECK_MSG(strstr(buf, "wait for B_G2") == NULL && strstr(buf, "MSM B (G2, CPU threads)") == NULL,
                  "a CPU B_G2 span in a device-B_G2 trace");
        cuzk_engine_destroy(eng);
    }

    /* 3. the SRS store's GPU tier with the B_G2 query */
    char path[1024];
    snprintf(path, sizeof path, "%s/store_b2.params", test_tmpdir());
    REQUIRE(bellperson_params_write(path, &c.p, &e) == CUZK_OK);
    srs_store_opts so = {0};
    so.ops = srs_gpu_ops_b_g2(0);
    REQUIRE(so.ops != NULL);
    srs_store *store = NULL;
    REQUIRE(srs_store_create(&store, &so, &e) == CUZK_OK);
    srs_handle h = {0};
    st = srs_store_acquire(store, &h, path, SRS_TIER_GPU, &e);
    CHECK_MSG(st == CUZK_OK, "acquire at GPU: %s", e.msg);
    if (st == CUZK_OK) {
        CHECK(groth16_gpu_srs_has_b_g2(h.device));
        CHECK(h.device_bytes == groth16_gpu_srs_bytes_for(&c.p, GROTH16_GPU_SRS_B_G2));
        CHECK(h.device_bytes == groth16_gpu_srs_bytes_for(&c.p, 0) + (size_t)c.p.n_b_g2 * sizeof(g2_affine));
        groth16_gpu_prover *gp = NULL;
        st = groth16_gpu_prover_create_on(&gp, h.device, h.params, &c.cs, &e);
        CHECK_MSG(st == CUZK_OK, "prover on the store's SRS: %s", e.msg);
        if (st == CUZK_OK) {
            size_t dev0 = groth16_gpu_prover_device_bytes(gp);
            CHECK_EQ_INT(groth16_gpu_prover_set_b_g2(gp, true, &e), CUZK_OK);
            CHECK(groth16_gpu_prover_device_bytes(gp) == dev0); /* the SRS's copy, none of its own */
            REQUIRE(synthetic_witness(w, c.cs.n_vars, &c.cs, &c.sp, 1000, &e) == CUZK_OK);
            groth16_timings ts = {0}, tf = {0};
            CHECK_MSG(!gp_prove(&pg, gp, &c, w, &r, &s, &ts, &tf, &e), "prove on the store's SRS: %s", e.msg);
            CHECK_MSG(same_proof(&pc, &pg), "device B_G2 from the store's SRS: proof differs from the CPU's");
            CHECK(ts.b2_device == 1);
            groth16_gpu_prover_destroy(gp);
        }
        srs_store_release(store, &h);
    }
    CHECK_EQ_INT(srs_store_destroy(store), CUZK_OK);
    free(w);
    synth_circuit_free(&c);
}

/* cuzk_engine_release_host_g1: a .params key on the GPU engine gives back the host copy of its G1
 * queries; its describe shrinks by that much, the engine's proofs still verify (from the device
 * copy), and a CPU prover of the key is refused instead of reading freed memory. */
#include "cuzk/engine.h"

typedef struct { const uint8_t *wtns; size_t len; } rg_synth;
static cuzk_status rg_synth_cb(void *ctx, uint32_t partition, uint64_t *witness, size_t n_vars, cuzk_error *err) {
    (void)partition;
    const rg_synth *s = ctx;
    cuzk_witness w = {CUZK_WITNESS_WTNS, s->wtns, s->len};
    return cuzk_witness_convert(&w, CUZK_CURVE_BLS12_381, CUZK_WITNESS_FR_MONT, witness, n_vars, err);
}

TEST(gpu_prove, engine_release_host_g1_keeps_proving) {
    if (!have_gpu()) SKIP(TEST_NO_GPU);
    char r1cs_path[1024], params[1024], vkp[1024], wp[1024];
    snprintf(r1cs_path, sizeof r1cs_path, "%s", test_fixture("bls12381/merkle_mimc5/circuit.r1cs"));
    snprintf(wp, sizeof wp, "%s", test_fixture("bls12381/merkle_mimc5/witness.wtns"));
    snprintf(params, sizeof params, "%s/rg.params", test_tmpdir());
    snprintf(vkp, sizeof vkp, "%s/rg.vk", test_tmpdir());
    cuzk_error e = {0};
    uint64_t seed = 7;
    REQUIRE(cuzk_setup_files(r1cs_path, params, vkp, &seed, 0, &e) == CUZK_OK);
    static uint8_t wb[1 << 20], vb[1 << 16];
    size_t wlen = slurp(wp, (char *)wb, sizeof wb), vlen = slurp(vkp, (char *)vb, sizeof vb);
    REQUIRE(wlen > 0 && vlen > 0);
    cuzk_pk *pk = NULL;
    cuzk_vk *vk = NULL;
    REQUIRE(cuzk_pk_load_params(&pk, params, r1cs_path, NULL, &e) == CUZK_OK);
    REQUIRE(cuzk_vk_load_bellperson(&vk, vb, vlen, &e) == CUZK_OK);
    cuzk_pk_info before, after;
    CHECK_EQ_INT(cuzk_pk_describe(pk, &before, &e), CUZK_OK);
    cuzk_circuit *circ = NULL;
    REQUIRE(cuzk_circuit_create(&circ, pk, &e) == CUZK_OK);
    cuzk_engine_opts o = {0};
    o.backend = CUZK_BACKEND_GPU;
    o.no_trace = 1;
    cuzk_engine *eng = NULL;
    REQUIRE(cuzk_engine_create(&eng, &o, &e) == CUZK_OK);
    size_t freed = 0;
    CHECK_MSG(cuzk_engine_release_host_g1(eng, circ, &freed, &e) == CUZK_OK, "%s", e.msg);
    /* the G1 queries: A, B_G1, L, H at 96 bytes a point, most of the key */
    CHECK_MSG(freed > 0 && freed < before.host_bytes, "freed %zu of %llu", freed, (unsigned long long)before.host_bytes);
    CHECK_EQ_INT(cuzk_pk_describe(pk, &after, &e), CUZK_OK);
    CHECK(after.host_bytes + freed == before.host_bytes);
    size_t again = 1;
    CHECK(cuzk_engine_release_host_g1(eng, circ, &again, &e) == CUZK_OK && again == 0);
    cuzk_prover *pv = NULL;
    cuzk_prover_opts po = {0};
    po.backend = CUZK_BACKEND_CPU;
    CHECK(cuzk_prover_create(&pv, pk, &po, &e) == CUZK_ERR_ARG && strstr(e.msg, "released"));
    cuzk_prover_destroy(pv);
    rg_synth s = {wb, wlen};
    cuzk_job_desc d = {0};
    d.circuit = circ;
    d.n_partitions = 2;
    d.synth = rg_synth_cb;
    d.synth_ctx = &s;
    cuzk_job_id id = 0;
    REQUIRE(cuzk_engine_submit(eng, &d, &id, &e) == CUZK_OK);
    cuzk_job_result res = {0};
    REQUIRE(cuzk_engine_wait(eng, id, &res, &e) == CUZK_OK);
    CHECK_MSG(res.state == CUZK_JOB_DONE, "job: %s", e.msg);
    for (uint32_t i = 0; res.state == CUZK_JOB_DONE && i < 2; i++)
        CHECK(cuzk_verify(vk, CUZK_PUBLIC_CANON, res.public_inputs + 32 * (size_t)res.n_public * i,
                          32 * (size_t)res.n_public, CUZK_PROOF_BELLPERSON, res.proofs + 192 * (size_t)i, 192,
                          &e) == CUZK_OK);
    cuzk_job_result_free(&res);
    cuzk_engine_destroy(eng);
    cuzk_circuit_destroy(circ);
    cuzk_pk_release(pk);
    cuzk_vk_free(vk);
}

/* ---- the memory plan (src/groth16/memplan.h, issue 23): budgets forced down from "everything
 * resident" until the plan streams every query, then below the leanest plan. Each plan's prover
 * gives the CPU's proof byte for byte (fixed r, s; B_G2 on the device: resident, then streamed),
 * its proofs stay inside the arena the plan sized (no allocation spills to the pool: the
 * allocator's high-water mark is within the plan), and a budget below the leanest plan is
 * refused at creation (preload) with the bytes it needs. Streamed chunks of 512 points, so that
 * a 20000-constraint circuit streams in many chunks. */
static bool mp_prove_check(groth16_gpu_prover *gp, gp_circuit *c, const fr *w, const fr *r, const fr *s,
                           const groth16_proof *pc, const char *what) {
    cuzk_error e = {0};
    groth16_gpu_arena_stats as;
    groth16_gpu_prover_arena(gp, &as, true);
    const memplan *p = groth16_gpu_prover_plan(gp);
    groth16_proof pg;
    groth16_timings ts = {0}, tf = {0};
    int bad = gp_prove(&pg, gp, c, w, r, s, &ts, &tf, &e);
    CHECK_MSG(!bad, "%s: prove: %s", what, e.msg);
    if (bad) return false;
    CHECK_MSG(same_proof(pc, &pg), "%s: proof differs from the CPU's", what);
    CHECK(groth16_verify(&c->p.vk, w + 1, c->cs.n_public, &pg, &e) == CUZK_OK);
    CHECK_MSG(ts.b2_device == (p->place[MEMPLAN_B2] != MEMPLAN_HOST_THREADS), "%s: B_G2 ran %s", what,
              ts.b2_device ? "on the device" : "on CPU threads");
    groth16_gpu_prover_arena(gp, &as, false);
    CHECK_MSG(as.arena_bytes >= p->arena_bytes && as.high_bytes <= as.arena_bytes,
              "%s: arena %zu (plan %zu), high-water %zu", what, as.arena_bytes, p->arena_bytes, as.high_bytes);
    CHECK_MSG(as.overflows == 0, "%s: %llu allocations spilled out of the planned arena", what,
              (unsigned long long)as.overflows);
    CHECK_MSG(as.pool_transient_bytes <= ((size_t)16 << 20), "%s: %zu pool bytes beside the arena", what,
              as.pool_transient_bytes);
    printf("  %-28s arena high-water %.1f of %.1f MiB (plan %.1f), pool beside it %.1f KiB\n", what,
           as.high_bytes / 1048576.0, as.arena_bytes / 1048576.0, p->arena_bytes / 1048576.0,
           as.pool_transient_bytes / 1024.0);
    return true;
}

static int mp_streamed(const memplan *p) {
    int k = 0;
    for (int q = 0; q < MEMPLAN_NQ; q++) k += p->place[q] == MEMPLAN_STREAMED;
    return k;
}

TEST(gpu_prove, memory_plan_budgets) {
    if (!have_gpu()) SKIP(TEST_NO_GPU);
    gp_circuit c;
    REQUIRE(gp_make(&c, 20000, 9));
    fr *w = malloc(c.cs.n_vars * sizeof *w);
    REQUIRE(w);
    cuzk_error e = {0};
    REQUIRE(synthetic_witness(w, c.cs.n_vars, &c.cs, &c.sp, 77, &e) == CUZK_OK);
    fr r, s;
    fr_from_u64(&r, test_rand64());
    fr_from_u64(&s, test_rand64());
    fr_neg(&s, &s);
    groth16_proof pc;
    REQUIRE(groth16_prove_bellperson(&pc, &c.p, &c.cs, w, c.cs.n_vars, &r, &s, 0, NULL, &e) == CUZK_OK);

    groth16_gpu_plan_opts o;
    memset(&o, 0, sizeof o);
    o.msm.b_g2_on_gpu = 1;
    o.stream_points = 512;
    /* 1. no budget: everything resident (the device holds far more) */
    groth16_gpu_prover *gp = NULL;
    cuzk_set_log(gp_log_stdout, NULL, CUZK_LOG_INFO);
    cuzk_status st = groth16_gpu_prover_create_planned(&gp, NULL, &c.p, &c.cs, 0, &o, &e);
    cuzk_set_log(NULL, NULL, CUZK_LOG_WARN);
    REQUIRE_MSG(st == CUZK_OK, "create: %s", e.msg);
    const memplan full = *groth16_gpu_prover_plan(gp);
    REQUIRE(full.fits);
    CHECK(mp_streamed(&full) == 0 && full.place[MEMPLAN_B2] == MEMPLAN_RESIDENT);
    CHECK(groth16_gpu_proof_device_bytes(gp) == full.arena_bytes);
    mp_prove_check(gp, &c, w, &r, &s, &pc, "everything resident");
    /* a second proof reuses the arena: still inside it */
    mp_prove_check(gp, &c, w, &r, &s, &pc, "everything resident, again");
    groth16_gpu_prover_destroy(gp);

    /* 2. each budget is one byte below the need of the plan before it, so the plan must stream
     * more (with the stream chunk given and a tail chunk above n, no other choice shrinks it):
     * queries go in the streaming order (H, B_G2, L, A, B_G1), each plan fits its budget, and
     * proofs stay byte-identical, until every query streams, then the matrices (their row blocks
     * copied for a/b/c each proof: src/cuda/gpu_r1cs.h), and the next budget is refused. Which
     * budget streams which query is not asserted: at this size the MSM scratch, not the queries,
     * dominates the arena, and streaming B_G2 saves more than L's bytes. */
    static const int order[MEMPLAN_NQ] = {MEMPLAN_H, MEMPLAN_B2, MEMPLAN_L, MEMPLAN_A, MEMPLAN_B1};
    int prev = 0, seen_b2_streamed = 0, steps = 0, cs_streamed = 0;
    size_t prev_need = full.need_bytes;
    while ((prev < MEMPLAN_NQ || !cs_streamed) && steps < 2 * MEMPLAN_NQ + 2) {
        steps++;
        o.budget_bytes = prev_need - 1;
        char what[64];
        snprintf(what, sizeof what, "budget %zu (step %d)", o.budget_bytes, steps);
        gp = NULL;
        st = groth16_gpu_prover_create_planned(&gp, NULL, &c.p, &c.cs, 0, &o, &e);
        CHECK_MSG(st == CUZK_OK, "%s: %s (previous plan streamed %d queries)", what, e.msg, prev);
        if (st != CUZK_OK) break;
        const memplan *p = groth16_gpu_prover_plan(gp);
        char line[640];
        memplan_describe(p, line, sizeof line);
        printf("  %s: %s\n", what, line);
        CHECK(p->fits && p->need_bytes <= o.budget_bytes);
        const int k = mp_streamed(p);
        /* more queries stream at each step, except where the matrices start to stream (then as
         * few queries as fit beside them); the matrices stream only once every query streamed */
        const int cs_now = p->circuit == MEMPLAN_STREAMED;
        CHECK_MSG(k > prev || (cs_now && !cs_streamed), "%s: %d queries streamed, %d before", what, k, prev);
        CHECK_MSG(!cs_now || cs_streamed || prev == MEMPLAN_NQ, "%s: matrices streamed before every query did", what);
        CHECK_MSG(cs_streamed <= cs_now, "%s: matrices resident again", what);
        cs_streamed = cs_now;
        for (int i = 0; i < MEMPLAN_NQ; i++) /* a prefix of the order */
            CHECK_MSG((p->place[order[i]] == MEMPLAN_STREAMED) == (i < k), "%s: %s %s", what,
                      memplan_query_name(order[i]), i < k ? "not streamed" : "streamed out of order");
        CHECK(p->place[MEMPLAN_B2] != MEMPLAN_HOST_THREADS); /* b_g2_on_gpu = 1 */
        seen_b2_streamed |= p->place[MEMPLAN_B2] == MEMPLAN_STREAMED;
        CHECK(groth16_gpu_prover_device_bytes(gp) + p->streamed_bytes >= p->query_bytes);
        mp_prove_check(gp, &c, w, &r, &s, &pc, what);
        prev = k;
        prev_need = p->need_bytes;
        groth16_gpu_prover_destroy(gp);
    }
    CHECK_MSG(prev == MEMPLAN_NQ && cs_streamed, "the descent ended with %d queries streamed, matrices %s", prev,
              cs_streamed ? "streamed" : "resident");
    CHECK(seen_b2_streamed);
    /* the key's host G1 copy is borrowed while a prover streams it, and given back after */
    CHECK(c.p.g1_stream_borrows == 0);

    /* 3. below the leanest plan: refused at creation, naming the bytes it needs */
    o.budget_bytes = full.phase_bytes[0] / 2;
    gp = NULL;
    st = groth16_gpu_prover_create_planned(&gp, NULL, &c.p, &c.cs, 0, &o, &e);
    CHECK_MSG(st == CUZK_ERR_NOMEM_DEVICE, "a budget of %zu bytes: %s (%s)", o.budget_bytes, cuzk_status_str(st), e.msg);
    CHECK(gp == NULL);
    CHECK_MSG(strstr(e.msg, "needs at least") != NULL, "refusal message: %s", e.msg);
    printf("  refusal: %s\n", e.msg);

    /* 4. B_G2 automatic under a budget without room for its query: on the device, streamed (not
     * CPU threads) */
    o.msm.b_g2_on_gpu = 0;
    o.budget_bytes = full.need_bytes - full.q_bytes[MEMPLAN_H] - full.q_bytes[MEMPLAN_B2] / 2;
    gp = NULL;
    st = groth16_gpu_prover_create_planned(&gp, NULL, &c.p, &c.cs, 0, &o, &e);
    CHECK_MSG(st == CUZK_OK, "automatic B_G2 under a budget: %s", e.msg);
    if (st == CUZK_OK) {
        const memplan *p = groth16_gpu_prover_plan(gp);
        CHECK_MSG(p->place[MEMPLAN_B2] == MEMPLAN_STREAMED, "B_G2 %s although streaming it fits",
                  p->place[MEMPLAN_B2] == MEMPLAN_HOST_THREADS ? "on CPU threads" : "resident");
        mp_prove_check(gp, &c, w, &r, &s, &pc, "automatic B_G2, tight budget");
        groth16_gpu_prover_destroy(gp);
    }

    /* 5. the lean H (c and b parked in host memory, the witness given back during H; the plan
     * takes it only below ~16 GiB at 2^27, so forced here): first with no budget, then descending
     * as in 2 until every query and the matrices stream too; byte-identical proofs, every
     * allocation inside the planned arena */
    {
        groth16_gpu_plan_opts lo = o;
        lo.budget_bytes = 0;
        lo.lean_h = 1;
        int lsteps = 0, lk = -1, lcs = 0;
        while (lsteps < 2 * MEMPLAN_NQ + 2 && !(lk == MEMPLAN_NQ && lcs)) {
            lsteps++;
            char what[64];
            snprintf(what, sizeof what, "lean H, budget %zu", lo.budget_bytes);
            gp = NULL;
            st = groth16_gpu_prover_create_planned(&gp, NULL, &c.p, &c.cs, 0, &lo, &e);
            CHECK_MSG(st == CUZK_OK, "%s: %s", what, e.msg);
            if (st != CUZK_OK) break;
            const memplan *p = groth16_gpu_prover_plan(gp);
            char line[640];
            memplan_describe(p, line, sizeof line);
            printf("  %s: %s\n", what, line);
            CHECK(p->fits && p->h_parked && strstr(line, "lean H") != NULL);
            {   /* c and b: two vectors of the domain (a power of two >= constraints + inputs) */
                const size_t dm = p->park_bytes / (2 * sizeof(fr)), need_m = (size_t)c.cs.n_constraints + c.cs.n_public + 1;
                CHECK(p->park_bytes == 2 * dm * sizeof(fr) && dm && !(dm & (dm - 1)) && dm >= need_m && dm < 2 * need_m);
            }
            const int k = mp_streamed(p);
            CHECK_MSG(k > lk || (p->circuit == MEMPLAN_STREAMED && !lcs), "%s: %d queries streamed, %d before", what, k, lk);
            lk = k;
            lcs = p->circuit == MEMPLAN_STREAMED;
            mp_prove_check(gp, &c, w, &r, &s, &pc, what);
            if (lsteps == 1) mp_prove_check(gp, &c, w, &r, &s, &pc, "lean H, again");
            lo.budget_bytes = p->need_bytes - 1;
            groth16_gpu_prover_destroy(gp);
        }
        CHECK_MSG(lk == MEMPLAN_NQ && lcs, "the lean H descent ended with %d queries streamed, matrices %s", lk,
                  lcs ? "streamed" : "resident");
    }

    /* 6. through the engine: a GPU budget that streams H, proofs equal the CPU's, the device's
     * status reports the plan */
    {
        uint64_t rs[8];
        memcpy(&rs[0], &r, sizeof r);
        memcpy(&rs[4], &s, sizeof s);
        cuzk_engine_opts eo = {0};
        eo.backend = CUZK_BACKEND_GPU;
        /* the engine's plan chooses its own stream chunks (down to 2^12 points): H, B_G2 and L go */
        eo.gpu_budget_bytes = full.need_bytes - full.q_bytes[MEMPLAN_H] - full.q_bytes[MEMPLAN_B2] - full.q_bytes[MEMPLAN_L] +
                              ((size_t)2 << 20);
        cuzk_engine *eng = NULL;
        REQUIRE(cuzk_engine_create(&eng, &eo, &e) == CUZK_OK);
        cuzk_job_result res = {0};
        REQUIRE_MSG(gp_engine_job(eng, &c, NULL, 1, rs, &res, &e), "job: %s", e.msg);
        CHECK_MSG(res.state == CUZK_JOB_DONE, "engine job under a GPU budget: %s", e.msg);
        if (res.state == CUZK_JOB_DONE) {
            uint8_t bc[192];
            fr *w2 = malloc(c.cs.n_vars * sizeof *w2);
            REQUIRE(w2);
            REQUIRE(gp_cpu_partition_proof(bc, &c, w2, rs, 0, &e));
            CHECK_MSG(!memcmp(bc, res.proofs, 192), "engine proof under a GPU budget differs from the CPU proof");
            free(w2);
        }
        cuzk_job_result_free(&res);
        cuzk_device_stats ds;
        CHECK(cuzk_engine_device_stats(eng, 0, &ds) == CUZK_OK);
        CHECK_MSG(strstr(ds.memory_plan, "fits") == ds.memory_plan && !strstr(ds.memory_plan, "streamed []"),
                  "device status plan: '%s'", ds.memory_plan);
        CHECK(ds.streamed_bytes >= full.q_bytes[MEMPLAN_H]);
        cuzk_engine_stats es;
        cuzk_engine_get_stats(eng, &es);
        CHECK(es.gpu_streamed_bytes == ds.streamed_bytes);
        printf("  engine status: %s\n", ds.memory_plan);
        cuzk_engine_destroy(eng);
    }
    free(w);
    synth_circuit_free(&c);
}

/* Deferred queries (cuzk_pk_load_opts.defer_queries, as cuzkd loads a .params on the GPU): the
 * prover decodes the resident queries (B_G2 too) from the file straight into the device, through staging
 * chunks of 512 points (stream_points; odd tails), and proves the CPU's bytes without any host
 * copy of them; a plan that streams H brings H alone into host memory; a bad point of a G1 query
 * is CUZK_ERR_POINT at creation (after some chunks went up: nothing kept, the device still
 * proves); the engine's CPU fallback materializes. */
TEST(gpu_prove, deferred_g1_from_the_file_byte_identical_to_cpu) {
    if (!have_gpu()) SKIP(TEST_NO_GPU);
    gp_circuit c;
    REQUIRE(gp_make(&c, 20000, 9));
    char path[1200], bad[1200];
    snprintf(path, sizeof path, "%s/deferred.params", test_tmpdir());
    snprintf(bad, sizeof bad, "%s/deferred_bad.params", test_tmpdir());
    cuzk_error e = {0};
    REQUIRE(bellperson_params_write(path, &c.p, &e) == CUZK_OK);
    fr *w = malloc(c.cs.n_vars * sizeof *w);
    REQUIRE(w);
    REQUIRE(synthetic_witness(w, c.cs.n_vars, &c.cs, &c.sp, 91, &e) == CUZK_OK);
    fr r, s;
    fr_from_u64(&r, test_rand64());
    fr_from_u64(&s, test_rand64());
    groth16_proof pc;
    REQUIRE(groth16_prove_bellperson(&pc, &c.p, &c.cs, w, c.cs.n_vars, &r, &s, 0, NULL, &e) == CUZK_OK);
    bellperson_load_opts lo;
    memset(&lo, 0, sizeof lo);
    lo.defer_queries = 1;
    lo.g2_apart = 1;
    lo.no_cache = 1;
    bellperson_params p;
    REQUIRE(bellperson_params_load_ex(&p, path, &lo, &e) == CUZK_OK);
    REQUIRE(p.q_src && !p.h && !p.a && !p.b_g2);
    groth16_gpu_plan_opts o;
    memset(&o, 0, sizeof o);
    o.stream_points = 512;
    groth16_gpu_prover *gp = NULL;
    /* 1. everything resident: from the file to the device, nothing in host memory */
    cuzk_set_log(gp_log_stdout, NULL, CUZK_LOG_INFO);
    cuzk_status st = groth16_gpu_prover_create_planned(&gp, NULL, &p, &c.cs, 0, &o, &e);
    cuzk_set_log(NULL, NULL, CUZK_LOG_WARN);
    REQUIRE_MSG(st == CUZK_OK, "create from the file: %s", e.msg);
    const memplan full = *groth16_gpu_prover_plan(gp);
    CHECK(mp_streamed(&full) == 0 && full.place[MEMPLAN_B2] == MEMPLAN_RESIDENT);
    CHECK(!p.h && !p.l && !p.a && !p.b_g1 && !p.b_g2);
    mp_prove_check(gp, &c, w, &r, &s, &pc, "deferred, all resident");
    /* B_G2 moved to CPU threads: its query comes into host memory, the same proof */
    REQUIRE_MSG(groth16_gpu_prover_set_b_g2(gp, false, &e) == CUZK_OK, "%s", e.msg);
    CHECK(p.b_g2 != NULL && !memcmp(p.b_g2, c.p.b_g2, sizeof(g2_affine) * c.p.n_b_g2));
    mp_prove_check(gp, &c, w, &r, &s, &pc, "deferred, B_G2 on CPU threads");
    groth16_gpu_prover_destroy(gp);
    bellperson_params_free(&p);
    REQUIRE(bellperson_params_load_ex(&p, path, &lo, &e) == CUZK_OK);
    /* 2. a budget that streams H: H alone comes into host memory */
    o.budget_bytes = full.need_bytes - 1;
    gp = NULL;
    st = groth16_gpu_prover_create_planned(&gp, NULL, &p, &c.cs, 0, &o, &e);
    REQUIRE_MSG(st == CUZK_OK, "create from the file, H streamed: %s", e.msg);
    const memplan *pl = groth16_gpu_prover_plan(gp);
    CHECK(pl->place[MEMPLAN_H] == MEMPLAN_STREAMED);
    CHECK(p.h != NULL && !memcmp(p.h, c.p.h, sizeof(g1_affine) * c.p.n_h));
    for (int q = 0; q < 3; q++)
        CHECK_MSG((pl->place[q] == MEMPLAN_STREAMED) == !bellperson_params_in_file(&p, q), "query %d", q);
    mp_prove_check(gp, &c, w, &r, &s, &pc, "deferred, H streamed");
    groth16_gpu_prover_destroy(gp);
    bellperson_params_free(&p);
    /* 3. a bad point late in A (several chunks in): refused at creation, naming it */
    {
        size_t n = 0;
        uint8_t *b = test_slurp(path, &n);
        REQUIRE(b);
        bellperson_layout lay;
        REQUIRE(bellperson_params_layout(&lay, b, n, "t", &e) == CUZK_OK);
        /* a's offset: vk (864) + ic + h + l, with their u32 counts */
        size_t off_a = 864 + 4 + 96 * (size_t)lay.n_ic + 4 + 96 * (size_t)lay.n_h + 4 + 96 * (size_t)lay.n_l + 4;
        const uint32_t k = lay.n_a - 3;
        b[off_a + 96 * (size_t)k + 95] ^= 1;
        FILE *f = fopen(bad, "wb");
        REQUIRE(f && fwrite(b, 1, n, f) == n);
        fclose(f);
        free(b);
        REQUIRE(bellperson_params_load_ex(&p, bad, &lo, &e) == CUZK_OK); /* A is not read at load */
        o.budget_bytes = 0;
        gp = NULL;
        st = groth16_gpu_prover_create_planned(&gp, NULL, &p, &c.cs, 0, &o, &e);
        CHECK_EQ_INT(st, CUZK_ERR_POINT);
        CHECK(gp == NULL);
        char want[64];
        snprintf(want, sizeof want, "a point %u: ", k);
        CHECK_MSG(strstr(e.msg, want) != NULL, "%s", e.msg);
        bellperson_params_free(&p);
    }
    /* the device is fine: the good file proves again */
    REQUIRE(bellperson_params_load_ex(&p, path, &lo, &e) == CUZK_OK);
    gp = NULL;
    REQUIRE_MSG(groth16_gpu_prover_create_planned(&gp, NULL, &p, &c.cs, 0, &o, &e) == CUZK_OK, "%s", e.msg);
    mp_prove_check(gp, &c, w, &r, &s, &pc, "deferred, after a refused file");
    groth16_gpu_prover_destroy(gp);
    /* 4. the CPU backend on the deferred key: materialized whole, the same proof */
    {
        groth16_key key = {CUZK_CURVE_BLS12_381, CUZK_CONVENTION_BELLPERSON, NULL, &p, &c.cs};
        groth16_prover *pv = NULL;
        groth16_proof pg;
        st = groth16_prover_create(&pv, &key, &groth16_backend_cpu_ops, NULL, &e);
        if (st == CUZK_OK) st = groth16_prove_one(pv, &pg, w, c.cs.n_vars, &r, &s, 0, NULL, &e);
        groth16_prover_destroy(pv);
        CHECK_MSG(st == CUZK_OK, "cpu on the deferred key: %s", e.msg);
        CHECK(st != CUZK_OK || same_proof(&pc, &pg));
        CHECK(p.h && p.l && p.a && p.b_g1 && p.b_g2);
    }
    bellperson_params_free(&p);
    free(w);
    synth_circuit_free(&c);
}
