/* bellman_mpc suite: phase-2 MPC parameters as `snarkjs zkey export bellman` writes them (the
 * bellman/Filecoin ceremony format: bellperson Parameters + circuit hash + contributions), read by
 * the bellperson loader and proved on the bellperson path (src/formats/bellperson.h).
 *
 * Oracles, all outside the code under test:
 *   - the same circuit's .zkey, read by the zkey loader (another file format, another reader):
 *     every vk/IC/L/A/B point of the export equals the zkey's (the A/B queries without the points
 *     at infinity), and the export's monomial H equals the transform of the zkey's Lagrange H
 *     computed here from FORMATS.md section 5 (snarkjs's roots 5^t);
 *   - proof_fixed.json of tools/refprove.mjs (a BigInt prover of its own): with the same r, s the
 *     bellperson path over the export gives exactly those bytes (multiplier, bellman_chain);
 *   - snarkjs itself (when installed): it exports the params from the zkeys here, verifies cuzk's
 *     proof.json for 7 circuits (domains 4 to 2048), and rejects tampered proofs / inputs.
 * Fixtures: tests/fixtures/regen_bellman_mpc.sh (small committed exports); merkle_mimc5's
 * export (1 MB) is made at test time by snarkjs. */
#include "test.h"

#include <jansson.h>
#include <stdarg.h>
#include <stdlib.h>
#include <unistd.h>

#include "cuzk/groth16.h"
#include "cuzk/prover.h"
#include "curves/bls12_381/curve.h"
#include "formats/bellperson.h"
#include "formats/snarkjs.h"
#include "groth16/groth16.h"
#include "poly/ntt.h"
#include "r1cs/r1cs.h"

#define CLI CUZK_CLI_PATH
#define FIX(c, f) test_fixture("bls12381/" c "/" f)
#define FIXED_R "0x1ab4b9a7f2c0d3e5a6978877665544332211ffeeddccbbaa9988776655443322"
#define FIXED_S "0x2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f90a1b"

static char g_log[1 << 16];

/* Runs the CLI; stdout and stderr both land in g_log. */
static int cli(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int cli(const char *fmt, ...) {
    char args[16384];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(args, sizeof args, fmt, ap);
    va_end(ap);
    return test_run(g_log, sizeof g_log, "'%s' %s", CLI, args);
}

static const char *tmp(const char *name) {
    static char pool[16][1024];
    static int next;
    char *p = pool[next++ % 16];
    snprintf(p, sizeof pool[0], "%s/mpc_%s", test_tmpdir(), name);
    return p;
}

static bool write_file(const char *path, const uint8_t *b, size_t n) {
    FILE *f = fopen(path, "wb");
    if (!f) return false;
    bool ok = fwrite(b, 1, n, f) == n;
    return fclose(f) == 0 && ok;
}

/* The committed exports with their zkeys (regen_bellman_mpc.sh). */
static const char *const k_exported[] = {"multiplier", "dropped_unused", "bellman_chain"};

/* ---- the loader ------------------------------------------------------------------------------ */

/* out = the finite points of in[0, n), in order; returns their count */
static size_t finite_g1(g1_affine *out, const g1_affine *in, size_t n) {
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (!g1_affine_is_infinity(&in[i])) out[k++] = in[i];
    return k;
}
static size_t finite_g2(g2_affine *out, const g2_affine *in, size_t n) {
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (!g2_affine_is_infinity(&in[i])) out[k++] = in[i];
    return k;
}

/* bellman's H from snarkjs's (FORMATS.md section 5): Hb_i = -2 w2^i sum_j wn^(ij) H_j, i < n-1,
 * wn = w2^2, w2 = snarkjs's root of order 2n. Plain scalar multiplications (small n only). */
static void bellman_h_from_zkey(g1_affine *out, const zkey *z) {
    const size_t n = z->domain_size;
    fr w2, wn, m2, one, two, ci, wij;
    ntt_root_of_unity(&w2, z->log_domain + 1, NTT_ROOTS_SNARKJS);
    fr_sqr(&wn, &w2);
    fr_one(&one);
    fr_add(&two, &one, &one);
    fr_neg(&m2, &two);
    ci = m2;
    for (size_t i = 0; i + 1 < n; i++) {
        g1_jacobian acc, t, p;
        g1_jacobian_set_infinity(&acc);
        fr wi; /* wn^i */
        uint64_t e = i;
        fr_pow_vartime(&wi, &wn, &e, 1);
        fr_one(&wij);
        for (size_t j = 0; j < n; j++) {
            g1_jacobian_from_affine(&p, &z->h[j]);
            g1_mul_fr_vartime(&t, &p, &wij);
            g1_jacobian_add(&acc, &acc, &t);
            fr_mul(&wij, &wij, &wi);
        }
        g1_mul_fr_vartime(&t, &acc, &ci); /* ci = -2 w2^i */
        g1_jacobian_to_affine(&out[i], &t);
        fr_mul(&ci, &ci, &w2);
    }
}

TEST(bellman_mpc, loader_matches_the_zkey) {
    for (size_t k = 0; k < sizeof k_exported / sizeof *k_exported; k++) {
        const char *c = k_exported[k];
        char p1[1024], p2[1200], p3[1200], pr[1200];
        snprintf(p1, sizeof p1, "%s", test_fixture("bls12381/"));
        snprintf(p2, sizeof p2, "%s%s/bellman_mpc.params", p1, c);
        snprintf(p3, sizeof p3, "%s%s/circuit_final.zkey", p1, c);
        snprintf(pr, sizeof pr, "%s%s/circuit.r1cs", p1, c);
        bellperson_params p;
        zkey z;
        r1cs cs;
        cuzk_error e = {0};
        REQUIRE_MSG(bellperson_params_load(&p, p2, true, &e) == CUZK_OK, "%s: %s", c, e.msg);
        REQUIRE_MSG(zkey_load(&z, p3, true, &e) == CUZK_OK, "%s: %s", c, e.msg);
        REQUIRE_MSG(r1cs_load(&cs, pr, &e) == CUZK_OK, "%s: %s", c, e.msg);
        CHECK_MSG(p.origin == BELLPERSON_ORIGIN_MPC_SNARKJS && p.domain == BELLPERSON_DOMAIN_SNARKJS,
                  "%s: origin %d domain %d", c, (int)p.origin, (int)p.domain);
        CHECK_EQ_INT(p.n_contributions, 1); /* one zkey beacon */
        /* vk and IC */
        CHECK(g1_affine_eq(&p.vk.alpha1, &z.alpha1) && g1_affine_eq(&p.vk.beta1, &z.beta1));
        CHECK(g2_affine_eq(&p.vk.beta2, &z.beta2) && g2_affine_eq(&p.vk.gamma2, &z.gamma2));
        CHECK(g1_affine_eq(&p.vk.delta1, &z.delta1) && g2_affine_eq(&p.vk.delta2, &z.delta2));
        REQUIRE(p.vk.n_public == z.n_public);
        for (uint32_t i = 0; i <= z.n_public; i++) CHECK_MSG(g1_affine_eq(&p.vk.ic[i], &z.ic[i]), "%s: ic %u", c, i);
        /* L = the zkey's C, infinity included */
        REQUIRE(p.n_l == z.n_vars - z.n_public - 1);
        for (uint32_t i = 0; i < p.n_l; i++) CHECK_MSG(g1_affine_eq(&p.l[i], &z.c[i]), "%s: l %u", c, i);
        /* A, B: the zkey's without the points at infinity, as many as the circuit's densities say */
        g1_affine *f1 = malloc((z.n_vars > z.domain_size ? z.n_vars : z.domain_size) * sizeof *f1);
        g2_affine *f2 = malloc(z.n_vars * sizeof *f2);
        REQUIRE(f1 && f2);
        size_t na = finite_g1(f1, z.a, z.n_vars);
        CHECK_EQ_INT(p.n_a, na);
        for (size_t i = 0; i < na && i < p.n_a; i++) CHECK_MSG(g1_affine_eq(&p.a[i], &f1[i]), "%s: a %zu", c, i);
        size_t nb = finite_g1(f1, z.b1, z.n_vars);
        CHECK_EQ_INT(p.n_b_g1, nb);
        for (size_t i = 0; i < nb && i < p.n_b_g1; i++) CHECK_MSG(g1_affine_eq(&p.b_g1[i], &f1[i]), "%s: b_g1 %zu", c, i);
        nb = finite_g2(f2, z.b2, z.n_vars);
        CHECK_EQ_INT(p.n_b_g2, nb);
        for (size_t i = 0; i < nb && i < p.n_b_g2; i++) CHECK_MSG(g2_affine_eq(&p.b_g2[i], &f2[i]), "%s: b_g2 %zu", c, i);
        r1cs_density da, db;
        REQUIRE(r1cs_density_of(&da, &cs.a, cs.n_vars, 1, &e) == CUZK_OK);
        REQUIRE(r1cs_density_of(&db, &cs.b, cs.n_vars, 1, &e) == CUZK_OK);
        size_t want_a = (size_t)cs.n_public + 1, want_b = 0;
        for (size_t i = 0; i < cs.n_vars; i++) {
            if (i > cs.n_public && r1cs_density_test(&da, i)) want_a++;
            if (r1cs_density_test(&db, i)) want_b++;
        }
        CHECK_MSG(p.n_a == want_a && p.n_b_g1 == want_b, "%s: a %u b %u, the r1cs selects %zu / %zu", c, p.n_a, p.n_b_g1,
                  want_a, want_b);
        r1cs_density_free(&da);
        r1cs_density_free(&db);
        /* H: monomial, m - 1 points, the transform of the zkey's Lagrange H */
        REQUIRE(p.n_h == z.domain_size - 1);
        bellman_h_from_zkey(f1, &z);
        for (uint32_t i = 0; i < p.n_h; i++) CHECK_MSG(g1_affine_eq(&p.h[i], &f1[i]), "%s: h %u", c, i);
        free(f1);
        free(f2);
        bellperson_params_free(&p);
        zkey_free(&z);
        r1cs_free(&cs);
    }
}

/* The layout alone: counts as in the file, the trailer, the origin; a plain .params stays one. */
TEST(bellman_mpc, layout_reports_the_origin) {
    size_t n;
    uint8_t *d = test_slurp(FIX("bellman_chain", "bellman_mpc.params"), &n);
    REQUIRE(d);
    bellperson_layout lay;
    cuzk_error e = {0};
    REQUIRE_MSG(bellperson_params_layout(&lay, d, n, "chain", &e) == CUZK_OK, "%s", e.msg);
    CHECK(lay.origin == BELLPERSON_ORIGIN_MPC_SNARKJS && lay.domain == BELLPERSON_DOMAIN_SNARKJS);
    CHECK_EQ_INT(lay.n_contributions, 1);
    CHECK_EQ_INT(lay.file_bytes, n);
    CHECK_EQ_INT(lay.params_bytes, n - (64 + 4 + 544)); /* hash, count, one contribution */
    CHECK_EQ_INT(lay.n_a, lay.n_ic + lay.n_l);           /* a point per wire */
    CHECK_EQ_INT(lay.n_h, 31);
    CHECK(strstr(bellperson_origin_str(lay.origin), "snarkjs") != NULL);
    CHECK(strstr(bellperson_domain_str(lay.domain), "5^t") != NULL);
    /* our own setup's .params: plain, bellman roots */
    const char *cp = tmp("chain_setup.params"), *cv = tmp("chain_setup.vk");
    int rc = cli("setup -q --seed 7 '%s' '%s' '%s'", FIX("bellman_chain", "circuit.r1cs"), cp, cv);
    REQUIRE_MSG(rc == 0, "setup: %s", g_log);
    bellperson_params q;
    REQUIRE_MSG(bellperson_params_load(&q, cp, false, &e) == CUZK_OK, "%s", e.msg);
    CHECK(q.origin == BELLPERSON_ORIGIN_PARAMS && q.domain == BELLPERSON_DOMAIN_BELLMAN && q.n_contributions == 0);
    bellperson_params_free(&q);
    free(d);
}

/* bellman's phase2 writes the MPC format with filtered A/B queries on bellman's roots: our own
 * setup's .params with a trailer appended (the trailer is sized, not verified) is read as such,
 * proved on 7^t, and the proof verifies; `info` says so. */
TEST(bellman_mpc, bellman_phase2_origin_keeps_bellman_roots) {
    const char *cp = tmp("phase2.params"), *cv = tmp("phase2.vk"), *mpc = tmp("phase2_mpc.params");
    int rc = cli("setup -q --seed 11 '%s' '%s' '%s'", FIX("bellman_chain", "circuit.r1cs"), cp, cv);
    REQUIRE_MSG(rc == 0, "setup: %s", g_log);
    size_t n;
    uint8_t *d = test_slurp(cp, &n);
    REQUIRE(d);
    uint8_t *m = calloc(n + 64 + 4 + 2 * 544, 1);
    REQUIRE(m);
    memcpy(m, d, n);
    for (size_t i = 0; i < 64; i++) m[n + i] = (uint8_t)(0xa0 + i); /* circuit hash */
    m[n + 64 + 3] = 2;                                              /* two contributions */
    memset(m + n + 68, 0x5a, 2 * 544);
    REQUIRE(write_file(mpc, m, n + 68 + 2 * 544));
    bellperson_params p;
    cuzk_error e = {0};
    REQUIRE_MSG(bellperson_params_load(&p, mpc, false, &e) == CUZK_OK, "%s", e.msg);
    CHECK(p.origin == BELLPERSON_ORIGIN_MPC && p.domain == BELLPERSON_DOMAIN_BELLMAN && p.n_contributions == 2);
    CHECK(p.n_a < p.vk.n_public + 1 + p.n_l || p.n_b_g1 < p.vk.n_public + 1 + p.n_l); /* filtered */
    bellperson_params_free(&p);
    rc = cli("info '%s'", mpc);
    CHECK_MSG(rc == 0 && strstr(g_log, "(bellman phase2)") && strstr(g_log, "2 contributions") &&
                  strstr(g_log, "bellman (7^t), chosen from the file"),
              "info: rc %d: %s", rc, g_log);
    const char *bin = tmp("phase2.bin"), *pub = tmp("phase2_public.json");
    rc = cli("prove -q --backend cpu --params '%s' --r1cs '%s' '%s' '%s' '%s'", mpc, FIX("bellman_chain", "circuit.r1cs"),
             FIX("bellman_chain", "witness.wtns"), bin, pub);
    CHECK_MSG(rc == 0, "prove: rc %d: %s", rc, g_log);
    rc = cli("verify --vk '%s' '%s' '%s'", cv, pub, bin);
    CHECK_MSG(rc == 0 && strstr(g_log, "OK"), "verify: rc %d: %s", rc, g_log);
    free(m);
    free(d);
}

/* ---- proving ----------------------------------------------------------------------------------- */

/* exact text equality, refprove.mjs's trailing newline aside */
static bool same_json_text(const char *a_path, const char *b_path) {
    size_t na, nb;
    char *a = (char *)test_slurp(a_path, &na), *b = (char *)test_slurp(b_path, &nb);
    bool same = false;
    if (a && b) {
        if (nb && b[nb - 1] == '\n') nb--;
        if (na && a[na - 1] == '\n') na--;
        same = na == nb && memcmp(a, b, na) == 0;
    }
    free(a);
    free(b);
    return same;
}

/* With refprove's r, s the bellperson path over the export gives refprove's proof exactly: the
 * A/B/L MSMs run over the same points as the zkey's, and H evaluates h(tau)Z(tau)/delta, the
 * same group element as snarkjs's odd-coset sum. */
TEST(bellman_mpc, fixed_rs_proof_equals_refprove) {
    static const char *const circ[] = {"multiplier", "bellman_chain"};
    for (size_t k = 0; k < 2; k++) {
        const char *c = circ[k];
        char params[1024], r1cs_p[1024], wtns_p[1024], fixed[1024], vkj[1024], pubj[1024];
        snprintf(params, sizeof params, "%s", test_fixture("bls12381/"));
        size_t base = strlen(params);
        snprintf(params + base, sizeof params - base, "%s/bellman_mpc.params", c);
        snprintf(r1cs_p, sizeof r1cs_p, "%.*s%s/circuit.r1cs", (int)base, params, c);
        snprintf(wtns_p, sizeof wtns_p, "%.*s%s/witness.wtns", (int)base, params, c);
        snprintf(fixed, sizeof fixed, "%.*s%s/proof_fixed.json", (int)base, params, c);
        snprintf(vkj, sizeof vkj, "%.*s%s/verification_key.json", (int)base, params, c);
        snprintf(pubj, sizeof pubj, "%.*s%s/public.json", (int)base, params, c);
        const char *bin = tmp("fixed.bin"), *pub = tmp("fixed_public.json"), *pj = tmp("fixed_proof.json");
        cuzk_prove_opts o = {.fixed_r = FIXED_R, .fixed_s = FIXED_S, .backend = CUZK_BACKEND_CPU, .proof_json_path = pj};
        cuzk_error e = {0};
        cuzk_status st = cuzk_prove_params_files(params, r1cs_p, wtns_p, bin, pub, &o, NULL, &e);
        CHECK_MSG(st == CUZK_OK, "%s: %s", c, e.msg);
        if (st != CUZK_OK) continue;
        CHECK_MSG(same_json_text(pj, fixed), "%s: proof.json differs from refprove's proof_fixed.json", c);
        CHECK_MSG(same_json_text(pub, pubj), "%s: public.json differs from snarkjs's", c);
        /* the 192-byte proof verifies against the MPC file's own vk (verify --vk accepts it), the
         * JSON one against snarkjs's verification_key.json */
        st = cuzk_verify_bellperson_files(params, pub, bin, &e);
        CHECK_MSG(st == CUZK_OK, "%s: verify --vk <mpc>: %s", c, e.msg);
        st = cuzk_verify_json_files(vkj, pub, pj, &e);
        CHECK_MSG(st == CUZK_OK, "%s: verify verification_key.json: %s", c, e.msg);
    }
}

/* The pitfall: the export's A/B/L points are Lagrange evaluations on snarkjs's roots (5^t); a
 * prover that interpolates the rows on bellman's roots (7^t) gets another h and an invalid proof
 * (domain 32 here). With the roots the loader chose, the proof is valid. */
TEST(bellman_mpc, rows_must_be_interpolated_on_snarkjs_roots) {
    bellperson_params p;
    r1cs cs;
    wtns w;
    cuzk_error e = {0};
    REQUIRE(bellperson_params_load(&p, FIX("bellman_chain", "bellman_mpc.params"), false, &e) == CUZK_OK);
    REQUIRE(r1cs_load(&cs, FIX("bellman_chain", "circuit.r1cs"), &e) == CUZK_OK);
    REQUIRE(wtns_load(&w, FIX("bellman_chain", "witness.wtns"), &e) == CUZK_OK);
    fr r, s;
    fr_from_u64(&r, 12345);
    fr_from_u64(&s, 67890);
    const fr *pub = w.w + 1;
    for (int dom = 0; dom < 2; dom++) {
        p.domain = dom ? BELLPERSON_DOMAIN_SNARKJS : BELLPERSON_DOMAIN_BELLMAN;
        groth16_proof pf;
        REQUIRE_MSG(groth16_prove_bellperson(&pf, &p, &cs, w.w, w.n, &r, &s, 0, NULL, &e) == CUZK_OK, "%s", e.msg);
        cuzk_status st = groth16_verify(&p.vk, pub, p.vk.n_public, &pf, &e);
        if (dom) CHECK_MSG(st == CUZK_OK, "snarkjs roots: %s", e.msg);
        else CHECK_MSG(st == CUZK_ERR_INVALID, "bellman roots gave status %d, want an invalid proof", (int)st);
    }
    bellperson_params_free(&p);
    r1cs_free(&cs);
    wtns_free(&w);
}

/* circom --O0 keeps an unused input as a wire in no constraint: its L point is infinity, which
 * the export writes as zeros; the MSMs take it. */
TEST(bellman_mpc, wire_in_no_constraint) {
    const char *bin = tmp("o0.bin"), *pub = tmp("o0_public.json"), *pj = tmp("o0_proof.json");
    int rc = cli("prove -q --backend cpu --params '%s' --r1cs '%s' '%s' '%s' '%s' --proof-json '%s'",
                 FIX("dropped_unused", "bellman_mpc_O0.params"), FIX("dropped_unused", "circuit_O0.r1cs"),
                 FIX("dropped_unused", "witness_O0.wtns"), bin, pub, pj);
    REQUIRE_MSG(rc == 0, "prove: rc %d: %s", rc, g_log);
    bellperson_params p;
    cuzk_error e = {0};
    REQUIRE(bellperson_params_load(&p, FIX("dropped_unused", "bellman_mpc_O0.params"), false, &e) == CUZK_OK);
    size_t inf = 0;
    for (uint32_t i = 0; i < p.n_l; i++) inf += g1_affine_is_infinity(&p.l[i]);
    CHECK_MSG(inf == 1, "%zu L points at infinity, want 1", inf);
    bellperson_params_free(&p);
    rc = cli("verify '%s' '%s' '%s'", FIX("dropped_unused", "verification_key_O0.json"), pub, pj);
    CHECK_MSG(rc == 0 && strstr(g_log, "OK"), "verify json: rc %d: %s", rc, g_log);
    const char *sj = test_snarkjs();
    if (!sj) SKIP("snarkjs not installed (tools/install-deps.sh --test); verified by cuzk only");
    rc = test_run(g_log, sizeof g_log, "node '%s' groth16 verify '%s' '%s' '%s'", sj,
                  FIX("dropped_unused", "verification_key_O0.json"), pub, pj);
    CHECK_MSG(rc == 0 && strstr(g_log, "OK"), "snarkjs verify: rc %d: %s", rc, g_log);
}

/* A plain .params records no roots: writing snarkjs-rooted parameters as one would lose them. */
TEST(bellman_mpc, write_refuses_snarkjs_rooted_params) {
    bellperson_params p;
    cuzk_error e = {0};
    REQUIRE(bellperson_params_load(&p, FIX("multiplier", "bellman_mpc.params"), false, &e) == CUZK_OK);
    cuzk_status st = bellperson_params_write(tmp("lost_roots.params"), &p, &e);
    CHECK_MSG(st == CUZK_ERR_UNSUPPORTED && strstr(e.msg, "5^t"), "status %d: %s", (int)st, e.msg);
    bellperson_params_free(&p);
}

/* ---- the CLI ------------------------------------------------------------------------------------ */

TEST(bellman_mpc, info_names_the_origin_and_the_roots) {
    int rc = cli("info '%s'", FIX("bellman_chain", "bellman_mpc.params"));
    CHECK_MSG(rc == 0, "rc %d: %s", rc, g_log);
    CHECK_MSG(strstr(g_log, "phase-2 MPC parameters (snarkjs zkey export bellman)") && strstr(g_log, "1 contribution") &&
                  strstr(g_log, "snarkjs (5^t), chosen from the file") && strstr(g_log, "h 31 (domain 32)") &&
                  strstr(g_log, "points: all"),
              "%s", g_log);
    /* --vk takes the MPC file's vk */
    const char *bin = tmp("info.bin"), *pub = tmp("info_public.json");
    rc = cli("prove -q --backend cpu --params '%s' --r1cs '%s' '%s' '%s' '%s'", FIX("multiplier", "bellman_mpc.params"),
             FIX("multiplier", "circuit.r1cs"), FIX("multiplier", "witness.wtns"), bin, pub);
    REQUIRE_MSG(rc == 0, "prove: %s", g_log);
    rc = cli("verify --vk '%s' '%s' '%s'", FIX("multiplier", "bellman_mpc.params"), pub, bin);
    CHECK_MSG(rc == 0 && strstr(g_log, "OK"), "rc %d: %s", rc, g_log);
    /* --proof-json belongs to the --params form */
    rc = cli("prove --proof-json '%s' '%s' '%s' '%s' '%s'", tmp("x.json"), FIX("multiplier", "circuit_final.zkey"),
             FIX("multiplier", "witness.wtns"), tmp("y.json"), tmp("z.json"));
    CHECK_MSG(rc == 2 && strstr(g_log, "--proof-json is for the --params form"), "rc %d: %s", rc, g_log);
}

/* ---- bad input ---------------------------------------------------------------------------------- */

TEST(bellman_mpc, truncated_and_altered_files) {
    size_t n;
    uint8_t *d = test_slurp(FIX("multiplier", "bellman_mpc.params"), &n);
    REQUIRE(d && n == 3708);
    const size_t params_bytes = n - 612;
    bellperson_params p;
    cuzk_error e = {0};
    cuzk_status st;
    /* cut inside the contributions, inside the hash, inside b_g2 */
    static const size_t cuts[] = {3708 - 100, 3096 + 30, 3000};
    for (size_t k = 0; k < 3; k++) {
        st = bellperson_params_decode(&p, d, cuts[k], "cut", NULL, &e);
        CHECK_MSG(st == CUZK_ERR_FORMAT, "cut at %zu: status %d", cuts[k], (int)st);
        CHECK_MSG(k == 2 ? strstr(e.msg, "truncated: b_g2 claims 4 points") != NULL
                         : strstr(e.msg, "trailing bytes after b_g2") != NULL,
                  "cut at %zu: %s", cuts[k], e.msg);
        if (k == 0) CHECK_MSG(strstr(e.msg, "count says 1 contributions, which take 612 bytes"), "%s", e.msg);
        const char *path = tmp("cut.params");
        REQUIRE(write_file(path, d, cuts[k]));
        int rc = cli("prove --backend cpu --params '%s' --r1cs '%s' '%s' '%s' '%s'", path, FIX("multiplier", "circuit.r1cs"),
                     FIX("multiplier", "witness.wtns"), tmp("cut.bin"), tmp("cut.json"));
        CHECK_MSG(rc == 3 && (strstr(g_log, "truncated") || strstr(g_log, "trailing bytes")), "cut %zu: rc %d: %s", cuts[k],
                  rc, g_log);
        CHECK(access(tmp("cut.bin"), F_OK) != 0);
    }
    /* a count of 2 with one contribution */
    uint8_t *c2 = malloc(n);
    REQUIRE(c2);
    memcpy(c2, d, n);
    c2[params_bytes + 64 + 3] = 2;
    st = bellperson_params_decode(&p, c2, n, "two", NULL, &e);
    CHECK_MSG(st == CUZK_ERR_FORMAT && strstr(e.msg, "count says 2 contributions"), "%s", e.msg);
    /* the point at infinity is valid only in l, a, b of an MPC file: not in h, nor in a plain
     * .params (the same file without its trailer: its A query has a zero point) */
    memcpy(c2, d, n);
    size_t h0 = 3 * 96 + 3 * 192 + 4 + 2 * 96 + 4; /* vk, ic (2 points), the h count */
    memset(c2 + h0, 0, 96);
    st = bellperson_params_decode(&p, c2, n, "h zero", NULL, &e);
    CHECK_MSG(st == CUZK_ERR_POINT && strstr(e.msg, "h point 0"), "status %d: %s", (int)st, e.msg);
    st = bellperson_params_decode(&p, d, params_bytes, "no trailer", NULL, &e);
    CHECK_MSG(st == CUZK_ERR_POINT && strstr(e.msg, "b_g1 point") == NULL && strstr(e.msg, "a point 3"),
              "status %d: %s", (int)st, e.msg);
    free(c2);
    free(d);
}

TEST(bellman_mpc, bn128_export_is_named) {
    const char *bn = test_fixture("bn128/multiplier/bellman_mpc.params");
    int rc = cli("info '%s'", bn);
    CHECK_MSG(rc == 3 && strstr(g_log, "BN254 (bn128) parameters file") && strstr(g_log, "prove a bn128 circuit from its .zkey"),
              "info: rc %d: %s", rc, g_log);
    rc = cli("prove --backend cpu --params '%s' --r1cs '%s' '%s' '%s' '%s'", bn, FIX("multiplier", "circuit.r1cs"),
             FIX("multiplier", "witness.wtns"), tmp("bn.bin"), tmp("bn.json"));
    CHECK_MSG(rc == 3 && strstr(g_log, "BN254 (bn128) parameters file"), "prove: rc %d: %s", rc, g_log);
    rc = cli("verify --vk '%s' '%s' '%s'", bn, FIX("multiplier", "public.json"), tmp("bn.bin"));
    CHECK_MSG(rc == 3 && strstr(g_log, "BN254 (bn128)"), "verify: rc %d: %s", rc, g_log);
    cuzk_error e = {0};
    bellperson_params p;
    CHECK(bellperson_params_load(&p, bn, false, &e) == CUZK_ERR_CURVE);
}

TEST(bellman_mpc, wrong_circuit) {
    /* other counts: named before proving */
    int rc = cli("prove --backend cpu --params '%s' --r1cs '%s' '%s' '%s' '%s'", FIX("bellman_chain", "bellman_mpc.params"),
                 FIX("multiplier", "circuit.r1cs"), FIX("multiplier", "witness.wtns"), tmp("w.bin"), tmp("w.json"));
    CHECK_MSG(rc == 3 && strstr(g_log, "do not fit the circuit"), "rc %d: %s", rc, g_log);
    /* the same counts (dropped_unused and dropped_const: 4 wires, 2 public, domain 4): the proof
     * does not verify, and nothing is written */
    rc = cli("prove --backend cpu --params '%s' --r1cs '%s' '%s' '%s' '%s'", FIX("dropped_unused", "bellman_mpc.params"),
             FIX("dropped_const", "circuit.r1cs"), FIX("dropped_const", "witness.wtns"), tmp("w.bin"), tmp("w.json"));
    CHECK_MSG(rc == 3 && strstr(g_log, "does not verify against the parameters"), "rc %d: %s", rc, g_log);
    CHECK(access(tmp("w.bin"), F_OK) != 0);
}

/* ---- snarkjs as the oracle -------------------------------------------------------------------- */

/* For 7 circuits (domains 4 to 2048, linear rows, dropped wires, a wire in no constraint):
 * snarkjs exports the bellman params, cuzk proves on the CPU with them, snarkjs verifies; the
 * proof with pi_c replaced (a valid point) is rejected by snarkjs, and for the first three the
 * public inputs with one value changed. The committed exports equal snarkjs's output byte for byte. */
TEST(bellman_mpc, snarkjs_verifies_cuzk_proofs) {
    const char *sj = test_snarkjs();
    if (!sj) SKIP("snarkjs not installed (tools/install-deps.sh --test)");
    static const struct { const char *c, *zkey, *r1cs, *wtns, *vk, *committed; } k[] = {
        {"multiplier", "circuit_final.zkey", "circuit.r1cs", "witness.wtns", "verification_key.json", "bellman_mpc.params"},
        {"merkle_mimc5", "circuit_final.zkey", "circuit.r1cs", "witness.wtns", "verification_key.json", NULL},
        {"bellman_chain", "circuit_final.zkey", "circuit.r1cs", "witness.wtns", "verification_key.json", "bellman_mpc.params"},
        {"dropped_unused", "circuit_final.zkey", "circuit.r1cs", "witness.wtns", "verification_key.json", "bellman_mpc.params"},
        {"dropped_const", "circuit_final.zkey", "circuit.r1cs", "witness.wtns", "verification_key.json", NULL},
        {"dropped_equal", "circuit_final.zkey", "circuit.r1cs", "witness.wtns", "verification_key.json", NULL},
        {"dropped_unused", NULL, "circuit_O0.r1cs", "witness_O0.wtns", "verification_key_O0.json", "bellman_mpc_O0.params"},
    };
    char dir[1024];
    snprintf(dir, sizeof dir, "%s", test_fixture("bls12381/"));
    for (size_t i = 0; i < sizeof k / sizeof *k; i++) {
        char zkey[1200], r1cs_p[1200], wtns_p[1200], vk[1200], committed[1200];
        snprintf(r1cs_p, sizeof r1cs_p, "%s%s/%s", dir, k[i].c, k[i].r1cs);
        snprintf(wtns_p, sizeof wtns_p, "%s%s/%s", dir, k[i].c, k[i].wtns);
        snprintf(vk, sizeof vk, "%s%s/%s", dir, k[i].c, k[i].vk);
        const char *params = tmp("sj.params");
        if (k[i].zkey) {
            snprintf(zkey, sizeof zkey, "%s%s/%s", dir, k[i].c, k[i].zkey);
            int rc = test_run(g_log, sizeof g_log, "node '%s' zkey export bellman '%s' '%s'", sj, zkey, params);
            REQUIRE_MSG(rc == 0, "%s: snarkjs zkey export bellman: rc %d: %s", k[i].c, rc, g_log);
            if (k[i].committed) {
                snprintf(committed, sizeof committed, "%s%s/%s", dir, k[i].c, k[i].committed);
                CHECK_MSG(test_run(g_log, sizeof g_log, "cmp '%s' '%s'", params, committed) == 0,
                          "%s: the committed export differs from snarkjs's: %s", k[i].c, g_log);
            }
        } else {
            snprintf(committed, sizeof committed, "%s%s/%s", dir, k[i].c, k[i].committed);
            params = committed; /* no zkey committed for the --O0 build */
        }
        const char *bin = tmp("sj.bin"), *pub = tmp("sj_public.json"), *pj = tmp("sj_proof.json");
        int rc = cli("prove -q --backend cpu --params '%s' --r1cs '%s' '%s' '%s' '%s' --proof-json '%s'", params, r1cs_p,
                     wtns_p, bin, pub, pj);
        CHECK_MSG(rc == 0, "%s (%s): cuzk prove: rc %d: %s", k[i].c, k[i].r1cs, rc, g_log);
        if (rc != 0) continue;
        rc = test_run(g_log, sizeof g_log, "node '%s' groth16 verify '%s' '%s' '%s'", sj, vk, pub, pj);
        CHECK_MSG(rc == 0 && strstr(g_log, "OK!"), "%s (%s): snarkjs rejects cuzk's proof: rc %d: %s", k[i].c, k[i].r1cs, rc,
                  g_log);
        rc = cli("verify --vk '%s' '%s' '%s'", params, pub, bin);
        CHECK_MSG(rc == 0, "%s: cuzk verify --vk: rc %d: %s", k[i].c, rc, g_log);
        /* tampered: pi_c := pi_a (a valid G1 point); one public input changed */
        json_error_t je;
        json_t *proof = json_load_file(pj, 0, &je), *pubv = json_load_file(pub, 0, &je);
        REQUIRE(proof && pubv);
        json_object_set(proof, "pi_c", json_object_get(proof, "pi_a"));
        const char *bad_proof = tmp("sj_bad_proof.json"), *bad_pub = tmp("sj_bad_public.json");
        REQUIRE(json_dump_file(proof, bad_proof, 0) == 0);
        rc = test_run(g_log, sizeof g_log, "node '%s' groth16 verify '%s' '%s' '%s'", sj, vk, pub, bad_proof);
        CHECK_MSG(rc != 0 && !strstr(g_log, "OK!"), "%s: snarkjs accepts a tampered proof: %s", k[i].c, g_log);
        if (i < 3) { /* (each node start costs ~2 s) */
            const char *v0 = json_string_value(json_array_get(pubv, 0));
            json_array_set_new(pubv, 0, json_string(v0 && !strcmp(v0, "1234567") ? "7654321" : "1234567"));
            REQUIRE(json_dump_file(pubv, bad_pub, 0) == 0);
            rc = test_run(g_log, sizeof g_log, "node '%s' groth16 verify '%s' '%s' '%s'", sj, vk, bad_pub, pj);
            CHECK_MSG(rc != 0 && !strstr(g_log, "OK!"), "%s: snarkjs accepts a changed public input: %s", k[i].c, g_log);
        }
        json_decref(proof);
        json_decref(pubv);
    }
    /* the committed bn128 export is snarkjs's too */
    int rc = test_run(g_log, sizeof g_log, "node '%s' zkey export bellman '%s' '%s' && cmp '%s' '%s'", sj,
                      test_fixture("bn128/multiplier/circuit_final.zkey"), tmp("bn.params"), tmp("bn.params"),
                      test_fixture("bn128/multiplier/bellman_mpc.params"));
    CHECK_MSG(rc == 0, "bn128 export: %s", g_log);
}
