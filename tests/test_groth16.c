/* End-to-end Groth16: our proofs against snarkjs's (fixed r, s: exact match), our verifier against
 * snarkjs's proofs, snarkjs's verifier against ours, tampering, unsatisfying witnesses, and the
 * bellperson flavour (setup -> params file -> prove -> 192-byte proof -> verify). */
#include "test.h"

#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cuzk/groth16.h"
#include "formats/bellperson.h"
#include "formats/json.h"
#include "formats/snarkjs.h"
#include "groth16/groth16.h"

#define FIXED_R "0x1ab4b9a7f2c0d3e5a6978877665544332211ffeeddccbbaa9988776655443322"
#define FIXED_S "0x2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f90a1b"

static const char *k_circuits[] = {"multiplier", "merkle_mimc5"};

static char *path_in(char *buf, size_t cap, const char *circ, const char *file) {
    snprintf(buf, cap, "%s", test_fixture("bls12381/"));
    size_t n = strlen(buf);
    snprintf(buf + n, cap - n, "%s/%s", circ, file);
    return buf;
}
static char *tmp_path(char *buf, size_t cap, const char *name) {
    snprintf(buf, cap, "%s/%s", test_tmpdir(), name);
    return buf;
}
static bool file_exists(const char *p) { struct stat st; return stat(p, &st) == 0; }
static size_t read_all(const char *p, char *buf, size_t cap) {
    FILE *f = fopen(p, "rb");
    if (!f) return 0;
    size_t n = fread(buf, 1, cap - 1, f);
    buf[n] = 0;
    fclose(f);
    return n;
}
static bool proofs_equal(const groth16_proof *a, const groth16_proof *b) {
    return g1_affine_eq(&a->a, &b->a) && g2_affine_eq(&a->b, &b->b) && g1_affine_eq(&a->c, &b->c);
}

TEST(groth16, fixed_rs_equals_snarkjs_reference) {
    for (size_t i = 0; i < sizeof k_circuits / sizeof *k_circuits; i++) {
        char zk[4096], wt[4096], ref[4096], out[4096], pub[4096], refpub[4096];
        path_in(zk, sizeof zk, k_circuits[i], "circuit_final.zkey");
        path_in(wt, sizeof wt, k_circuits[i], "witness.wtns");
        path_in(ref, sizeof ref, k_circuits[i], "proof_fixed.json");
        path_in(refpub, sizeof refpub, k_circuits[i], "public.json");
        tmp_path(out, sizeof out, "fixed_proof.json");
        tmp_path(pub, sizeof pub, "fixed_public.json");
        cuzk_prove_opts o = {.fixed_r = FIXED_R, .fixed_s = FIXED_S};
        cuzk_error e = {0};
        cuzk_status st = cuzk_prove_zkey_files(zk, wt, out, pub, &o, NULL, &e);
        CHECK_MSG(st == CUZK_OK, "%s: %s", k_circuits[i], e.msg);
        if (st != CUZK_OK) continue;
        groth16_proof ours, theirs;
        REQUIRE(proof_json_read(&ours, out, &e) == CUZK_OK);
        REQUIRE(proof_json_read(&theirs, ref, &e) == CUZK_OK);
        CHECK_MSG(proofs_equal(&ours, &theirs), "%s: proof differs from proof_fixed.json", k_circuits[i]);
        /* byte for byte, in snarkjs's layout (JSON.stringify with indent 1, no final newline as
         * `snarkjs groth16 prove` writes it; refprove.mjs, which made proof_fixed.json, adds one) */
        static char a[1 << 16], b[1 << 16];
        size_t na = read_all(out, a, sizeof a), nb = read_all(ref, b, sizeof b);
        if (nb && b[nb - 1] == '\n') b[--nb] = 0;
        CHECK_MSG(na == nb && memcmp(a, b, na) == 0, "%s: proof.json bytes differ from proof_fixed.json", k_circuits[i]);
        na = read_all(pub, a, sizeof a);
        nb = read_all(refpub, b, sizeof b);
        CHECK_MSG(na == nb && memcmp(a, b, na) == 0, "%s: public.json bytes differ", k_circuits[i]);
    }
}

TEST(groth16, verifier_accepts_snarkjs_proofs_rejects_tampered) {
    for (size_t i = 0; i < sizeof k_circuits / sizeof *k_circuits; i++) {
        char vkp[4096], pubp[4096], prp[4096], fixp[4096];
        path_in(vkp, sizeof vkp, k_circuits[i], "verification_key.json");
        path_in(pubp, sizeof pubp, k_circuits[i], "public.json");
        path_in(prp, sizeof prp, k_circuits[i], "proof.json");
        path_in(fixp, sizeof fixp, k_circuits[i], "proof_fixed.json");
        cuzk_error e = {0};
        CHECK_MSG(cuzk_verify_json_files(vkp, pubp, prp, &e) == CUZK_OK, "%s proof.json: %s", k_circuits[i], e.msg);
        CHECK_MSG(cuzk_verify_json_files(vkp, pubp, fixp, &e) == CUZK_OK, "%s proof_fixed.json: %s", k_circuits[i], e.msg);

        groth16_vk vk = {0};
        groth16_proof p, t;
        fr *pub = NULL;
        size_t n_pub = 0;
        REQUIRE(vk_json_read(&vk, vkp, &e) == CUZK_OK);
        REQUIRE(public_json_read(&pub, &n_pub, pubp, &e) == CUZK_OK);
        REQUIRE(proof_json_read(&p, prp, &e) == CUZK_OK);
        CHECK(groth16_verify(&vk, pub, n_pub, &p, &e) == CUZK_OK);
        /* tampered A (negated), C (plus the generator), B (doubled) */
        t = p; g1_affine_neg(&t.a, &p.a);
        CHECK(groth16_verify(&vk, pub, n_pub, &t, &e) == CUZK_ERR_INVALID);
        t = p;
        g1_jacobian j; g1_affine g; g1_generator(&g);
        g1_jacobian_from_affine(&j, &p.c); g1_jacobian_add_mixed(&j, &j, &g); g1_jacobian_to_affine(&t.c, &j);
        CHECK(groth16_verify(&vk, pub, n_pub, &t, &e) == CUZK_ERR_INVALID);
        t = p;
        g2_jacobian k; g2_jacobian_from_affine(&k, &p.b); g2_jacobian_dbl(&k, &k); g2_jacobian_to_affine(&t.b, &k);
        CHECK(groth16_verify(&vk, pub, n_pub, &t, &e) == CUZK_ERR_INVALID);
        /* A and C swapped */
        t = p; t.a = p.c; t.c = p.a;
        CHECK(groth16_verify(&vk, pub, n_pub, &t, &e) == CUZK_ERR_INVALID);
        /* wrong public input */
        fr one; fr_one(&one);
        fr_add(&pub[0], &pub[0], &one);
        CHECK(groth16_verify(&vk, pub, n_pub, &p, &e) == CUZK_ERR_INVALID);
        /* wrong number of public inputs */
        CHECK(groth16_verify(&vk, pub, n_pub - 1, &p, &e) == CUZK_ERR_MISMATCH);
        /* a degenerate key (gamma or delta at infinity) is a bad key, not an invalid proof */
        fr_sub(&pub[0], &pub[0], &one);
        g2_affine keep = vk.delta2;
        memset(&vk.delta2, 0, sizeof vk.delta2);
        REQUIRE(g2_affine_is_infinity(&vk.delta2));
        CHECK_EQ_INT(groth16_verify(&vk, pub, n_pub, &p, &e), CUZK_ERR_POINT);
        CHECK(strstr(e.msg, "delta2") != NULL);
        vk.delta2 = keep;
        keep = vk.gamma2;
        memset(&vk.gamma2, 0, sizeof vk.gamma2);
        CHECK_EQ_INT(groth16_verify(&vk, pub, n_pub, &p, &e), CUZK_ERR_POINT);
        vk.gamma2 = keep;
        CHECK(groth16_verify(&vk, pub, n_pub, &p, &e) == CUZK_OK);
        free(pub);
        groth16_vk_free(&vk);
    }
}

TEST(groth16, random_rs_proofs_verify_here_and_in_snarkjs) {
    const char *snarkjs = test_snarkjs();
    for (size_t i = 0; i < sizeof k_circuits / sizeof *k_circuits; i++) {
        char zk[4096], wt[4096], vkp[4096], out[4096], pub[4096], out2[4096], pub2[4096];
        path_in(zk, sizeof zk, k_circuits[i], "circuit_final.zkey");
        path_in(wt, sizeof wt, k_circuits[i], "witness.wtns");
        path_in(vkp, sizeof vkp, k_circuits[i], "verification_key.json");
        tmp_path(out, sizeof out, "rand_proof.json");
        tmp_path(pub, sizeof pub, "rand_public.json");
        tmp_path(out2, sizeof out2, "rand_proof2.json");
        tmp_path(pub2, sizeof pub2, "rand_public2.json");
        cuzk_error e = {0};
        REQUIRE(cuzk_prove_zkey_files(zk, wt, out, pub, NULL, NULL, &e) == CUZK_OK);
        REQUIRE(cuzk_prove_zkey_files(zk, wt, out2, pub2, NULL, NULL, &e) == CUZK_OK);
        CHECK_MSG(cuzk_verify_json_files(vkp, pub, out, &e) == CUZK_OK, "%s", e.msg);
        groth16_proof p1, p2;
        REQUIRE(proof_json_read(&p1, out, &e) == CUZK_OK && proof_json_read(&p2, out2, &e) == CUZK_OK);
        CHECK_MSG(!g1_affine_eq(&p1.a, &p2.a), "two proofs with OS-random r, s are identical");
        if (!snarkjs) continue;
        char log[4096];
        int rc = test_run(log, sizeof log, "node '%s' groth16 verify '%s' '%s' '%s'", snarkjs, vkp, pub, out);
        CHECK_MSG(rc == 0 && strstr(log, "OK"), "snarkjs rejected our %s proof (rc %d): %s", k_circuits[i], rc, log);
        /* and snarkjs rejects a tampered one (sanity of the oracle) */
        if (i == 0) {
            rc = test_run(log, sizeof log, "node '%s' groth16 verify '%s' '%s' '%s'", snarkjs, vkp, pub,
                          test_fixture("bls12381/merkle_mimc5/proof.json"));
            CHECK_MSG(rc != 0, "snarkjs accepted a proof for another circuit");
        }
    }
    if (!snarkjs) SKIP("snarkjs not installed (tools/install-deps.sh --test); checked our verifier only");
}

/* A witness with one private value changed no longer satisfies the circuit: no proof. */
TEST(groth16, unsatisfying_witness_gives_no_proof) {
    char zk[4096], wt[4096], r1[4096], bad[4096], out[4096], pub[4096];
    path_in(zk, sizeof zk, "merkle_mimc5", "circuit_final.zkey");
    path_in(wt, sizeof wt, "merkle_mimc5", "witness.wtns");
    path_in(r1, sizeof r1, "merkle_mimc5", "circuit.r1cs");
    tmp_path(bad, sizeof bad, "bad_witness.wtns");
    tmp_path(out, sizeof out, "unsat_proof.json");
    tmp_path(pub, sizeof pub, "unsat_public.json");
    unlink(out);
    unlink(pub);
    cuzk_error e = {0};
    wtns w = {0};
    REQUIRE(wtns_load(&w, wt, &e) == CUZK_OK);
    fr one;
    fr_one(&one);
    fr_add(&w.w[w.n - 1], &w.w[w.n - 1], &one);
    REQUIRE(wtns_write(bad, w.w, w.n, &e) == CUZK_OK);
    wtns_free(&w);
    cuzk_status st = cuzk_prove_zkey_files(zk, bad, out, pub, NULL, NULL, &e);
    CHECK_EQ_INT(st, CUZK_ERR_UNSAT);
    CHECK(!file_exists(out) && !file_exists(pub));
    cuzk_prove_opts o = {.check_witness = 1, .r1cs_path = r1};
    st = cuzk_prove_zkey_files(zk, bad, out, pub, &o, NULL, &e);
    CHECK_EQ_INT(st, CUZK_ERR_UNSAT);
    CHECK_MSG(strstr(e.msg, "constraint") != NULL, "message does not name the constraint: %s", e.msg);
    CHECK(!file_exists(out) && !file_exists(pub));
    /* the good witness passes --check */
    st = cuzk_prove_zkey_files(zk, wt, out, pub, &o, NULL, &e);
    CHECK_MSG(st == CUZK_OK, "%s", e.msg);
}

TEST(groth16, witness_of_another_circuit_is_a_mismatch) {
    char zk[4096], wt[4096], out[4096], pub[4096];
    path_in(zk, sizeof zk, "merkle_mimc5", "circuit_final.zkey");
    path_in(wt, sizeof wt, "multiplier", "witness.wtns");
    tmp_path(out, sizeof out, "mm_proof.json");
    tmp_path(pub, sizeof pub, "mm_public.json");
    cuzk_error e = {0};
    CHECK_EQ_INT(cuzk_prove_zkey_files(zk, wt, out, pub, NULL, NULL, &e), CUZK_ERR_MISMATCH);
    CHECK(!file_exists(out));
}

/* bellperson flavour: setup -> .params/.vk files -> load -> prove -> 192 bytes -> verify */
TEST(groth16, bellperson_params_roundtrip_prove_verify) {
    for (size_t i = 0; i < sizeof k_circuits / sizeof *k_circuits; i++) {
        char r1[4096], wt[4096], par[4096], vk[4096], pr[4096], pub[4096], pr2[4096], pub2[4096];
        path_in(r1, sizeof r1, k_circuits[i], "circuit.r1cs");
        path_in(wt, sizeof wt, k_circuits[i], "witness.wtns");
        tmp_path(par, sizeof par, "c.params");
        tmp_path(vk, sizeof vk, "c.vk");
        tmp_path(pr, sizeof pr, "proof.bin");
        tmp_path(pub, sizeof pub, "bp_public.json");
        tmp_path(pr2, sizeof pr2, "proof2.bin");
        tmp_path(pub2, sizeof pub2, "bp_public2.json");
        cuzk_error e = {0};
        uint64_t seed = test_rand64();
        REQUIRE(cuzk_setup_files(r1, par, vk, &seed, 0, &e) == CUZK_OK);
        /* the parameters survive a write/read round trip */
        bellperson_params p = {0};
        REQUIRE(bellperson_params_load(&p, par, true, &e) == CUZK_OK);
        bellperson_params_free(&p);
        cuzk_prove_opts o = {.fixed_r = FIXED_R, .fixed_s = FIXED_S, .check_witness = 1};
        cuzk_status st = cuzk_prove_params_files(par, r1, wt, pr, pub, &o, NULL, &e);
        CHECK_MSG(st == CUZK_OK, "%s: %s", k_circuits[i], e.msg);
        if (st != CUZK_OK) continue;
        CHECK_MSG(cuzk_verify_bellperson_files(vk, pub, pr, &e) == CUZK_OK, "%s: %s", k_circuits[i], e.msg);
        /* deterministic with fixed r, s; different with random r, s; both valid */
        REQUIRE(cuzk_prove_params_files(par, r1, wt, pr2, pub2, &o, NULL, &e) == CUZK_OK);
        char a[256], b[256];
        CHECK(read_all(pr, a, sizeof a) == 192 && read_all(pr2, b, sizeof b) == 192 && memcmp(a, b, 192) == 0);
        o.fixed_r = o.fixed_s = NULL;
        REQUIRE(cuzk_prove_params_files(par, r1, wt, pr2, pub2, &o, NULL, &e) == CUZK_OK);
        CHECK(read_all(pr2, b, sizeof b) == 192 && memcmp(a, b, 192) != 0);
        CHECK(cuzk_verify_bellperson_files(vk, pub2, pr2, &e) == CUZK_OK);
        /* a proof verified against another setup's key fails */
        char vk2[4096], par2[4096];
        tmp_path(vk2, sizeof vk2, "other.vk");
        tmp_path(par2, sizeof par2, "other.params");
        uint64_t seed2 = seed + 1;
        REQUIRE(cuzk_setup_files(r1, par2, vk2, &seed2, 0, &e) == CUZK_OK);
        CHECK_EQ_INT(cuzk_verify_bellperson_files(vk2, pub, pr, &e), CUZK_ERR_INVALID);
        /* flipped bytes in the proof: invalid (or undecodable), never OK */
        for (int pos = 0; pos < 192; pos += 37) {
            char c[256];
            memcpy(c, a, 192);
            c[pos] ^= 0x04;
            char bad[4096];
            tmp_path(bad, sizeof bad, "bad_proof.bin");
            FILE *f = fopen(bad, "wb");
            REQUIRE(f);
            fwrite(c, 1, 192, f);
            fclose(f);
            st = cuzk_verify_bellperson_files(vk, pub, bad, &e);
            CHECK_MSG(st == CUZK_ERR_INVALID || st == CUZK_ERR_FORMAT, "flip at %d gave %d", pos, st);
        }
    }
}
