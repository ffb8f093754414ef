/* BN254 (snarkjs "bn128") end to end, through the public file and in-memory APIs: every bn128
 * fixture proves with fixed r, s to exactly proof_fixed.json / public.json (made by
 * tests/fixtures/tools/refprove.mjs, checked by snarkjs), our proofs verify in snarkjs and
 * snarkjs's verify in ours, tampered proofs and wrong public inputs are rejected, off-curve and
 * out-of-subgroup points in a zkey or a proof are refused with a clear error, files of different
 * curves are CUZK_ERR_CURVE (exit 3), and the BLS12-381-only parts say so for bn128 files. */
#include "test.h"

#include <jansson.h>
#include <stdlib.h>
#include <unistd.h>

#include "cuzk/groth16.h"
#include "cuzk/prover.h"
#include "curves/bn254/curve.h"
#include "bn254_circuit.h"

#define FIXED_R "0x1ab4b9a7f2c0d3e5a6978877665544332211ffeeddccbbaa9988776655443322"
#define FIXED_S "0x2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f90a1b"

static const char *k_bn[] = {"multiplier", "merkle_mimc5", "merkle_poseidon"};

static const char *fx(const char *circ, const char *file) {
    static char buf[8][4096];
    static int k;
    char *b = buf[k++ % 8];
    snprintf(b, 4096, "%s", test_fixture("bn128/"));
    size_t n = strlen(b);
    snprintf(b + n, 4096 - n, "%s/%s", circ, file);
    return b;
}
static const char *tmp(const char *name) {
    static char buf[8][4096];
    static int k;
    char *b = buf[k++ % 8];
    snprintf(b, 4096, "%s/%s", test_tmpdir(), name);
    return b;
}
static char *slurp_text(const char *path, size_t *n) { return (char *)test_slurp(path, n); }
TEST(bn128, fixed_rs_proofs_equal_snarkjs_reference) {
    for (size_t i = 0; i < sizeof k_bn / sizeof *k_bn; i++) {
        const char *out = tmp("bn_fixed_proof.json"), *pub = tmp("bn_fixed_public.json");
        cuzk_prove_opts o = {.fixed_r = FIXED_R, .fixed_s = FIXED_S, .backend = CUZK_BACKEND_CPU};
        cuzk_error e = {0};
        cuzk_status st = cuzk_prove_zkey_files(fx(k_bn[i], "circuit_final.zkey"), fx(k_bn[i], "witness.wtns"), out, pub,
                                               &o, NULL, &e);
        CHECK_MSG(st == CUZK_OK, "%s: %s", k_bn[i], e.msg);
        if (st != CUZK_OK) continue;
        size_t na, nb;
        char *a = slurp_text(out, &na), *b = slurp_text(fx(k_bn[i], "proof_fixed.json"), &nb);
        REQUIRE(a && b);
        if (nb && b[nb - 1] == '\n') b[--nb] = 0; /* refprove.mjs adds a newline, snarkjs does not */
        CHECK_MSG(na == nb && memcmp(a, b, na) == 0, "%s: proof.json differs from proof_fixed.json", k_bn[i]);
        free(a);
        free(b);
        a = slurp_text(pub, &na);
        b = slurp_text(fx(k_bn[i], "public.json"), &nb);
        REQUIRE(a && b);
        CHECK_MSG(na == nb && memcmp(a, b, na) == 0, "%s: public.json differs", k_bn[i]);
        free(a);
        free(b);
    }
}

/* A proof.json text with one member replaced by another's value (or by `val`). */
static char *proof_with(const char *proof_text, size_t n, const char *member, const char *from_member, json_t *val) {
    json_t *root = json_loadb(proof_text, n, 0, NULL);
    if (!root) return NULL;
    json_t *v = val ? val : json_deep_copy(json_object_get(root, from_member));
    json_object_set_new(root, member, v);
    char *s = json_dumps(root, JSON_INDENT(1));
    json_decref(root);
    return s;
}

static json_t *dec_fp(const bn254_fp *a) {
    uint64_t l[4];
    bn254_fp_to_canon(l, a);
    /* decimal of a 256-bit value: repeated division by 10 */
    char d[90];
    int k = 0;
    while (l[0] | l[1] | l[2] | l[3]) {
        __extension__ unsigned __int128 r = 0;
        for (int i = 3; i >= 0; i--) {
            __extension__ unsigned __int128 cur = (r << 64) | l[i];
            l[i] = (uint64_t)(cur / 10);
            r = cur % 10;
        }
        d[k++] = (char)('0' + (int)r);
    }
    if (!k) d[k++] = '0';
    char s[90];
    for (int i = 0; i < k; i++) s[i] = d[k - 1 - i];
    s[k] = 0;
    return json_string(s);
}

TEST(bn128, verify_accepts_snarkjs_rejects_tampered) {
    for (size_t i = 0; i < sizeof k_bn / sizeof *k_bn; i++) {
        cuzk_error e = {0};
        const char *vkp = fx(k_bn[i], "verification_key.json"), *pubp = fx(k_bn[i], "public.json");
        CHECK_MSG(cuzk_verify_json_files(vkp, pubp, fx(k_bn[i], "proof.json"), &e) == CUZK_OK, "%s: %s", k_bn[i], e.msg);
        CHECK_MSG(cuzk_verify_json_files(vkp, pubp, fx(k_bn[i], "proof_fixed.json"), &e) == CUZK_OK, "%s: %s", k_bn[i],
                  e.msg);
        size_t nv, np, nu;
        char *vkt = slurp_text(vkp, &nv), *pt = slurp_text(fx(k_bn[i], "proof.json"), &np), *ut = slurp_text(pubp, &nu);
        REQUIRE(vkt && pt && ut);
        cuzk_vk *vk = NULL;
        REQUIRE(cuzk_vk_load_json(&vk, vkt, nv, &e) == CUZK_OK);
        CHECK(cuzk_vk_n_public(vk) >= 1);
        CHECK_EQ_INT(cuzk_verify(vk, CUZK_PUBLIC_JSON, ut, nu, CUZK_PROOF_SNARKJS_JSON, pt, np, &e), CUZK_OK);
        /* rapidsnark writes no "curve" (snarkjs verifies with the key's curve): accepted, and still
         * checked (A and C swapped: invalid); a bls12381 proof without "curve" is refused */
        {
            json_t *root = json_loadb(pt, np, 0, NULL);
            REQUIRE(root && json_object_del(root, "curve") == 0);
            char *nc = json_dumps(root, 0);
            CHECK_MSG(cuzk_verify(vk, CUZK_PUBLIC_JSON, ut, nu, CUZK_PROOF_SNARKJS_JSON, nc, strlen(nc), &e) == CUZK_OK,
                      "%s: proof without \"curve\": %s", k_bn[i], e.msg);
            json_t *a = json_deep_copy(json_object_get(root, "pi_a"));
            json_object_set(root, "pi_a", json_object_get(root, "pi_c"));
            json_object_set_new(root, "pi_c", a);
            char *sw = json_dumps(root, 0);
            CHECK_EQ_INT(cuzk_verify(vk, CUZK_PUBLIC_JSON, ut, nu, CUZK_PROOF_SNARKJS_JSON, sw, strlen(sw), &e), CUZK_ERR_INVALID);
            free(nc);
            free(sw);
            json_decref(root);
            size_t nb;
            char *bt = slurp_text(test_fixture("bls12381/multiplier/proof.json"), &nb);
            REQUIRE(bt);
            root = json_loadb(bt, nb, 0, NULL);
            REQUIRE(root && json_object_del(root, "curve") == 0);
            nc = json_dumps(root, 0);
            cuzk_status bst = cuzk_verify(vk, CUZK_PUBLIC_JSON, ut, nu, CUZK_PROOF_SNARKJS_JSON, nc, strlen(nc), &e);
            CHECK_MSG(bst != CUZK_OK, "%s: a bls12381 proof without \"curve\" verified", k_bn[i]);
            free(nc);
            free(bt);
            json_decref(root);
        }
        /* A and C swapped */
        char *t = proof_with(pt, np, "pi_a", "pi_c", NULL);
        json_t *orig = json_loadb(pt, np, 0, NULL);
        REQUIRE(orig);
        char *t2 = proof_with(t, strlen(t), "pi_c", NULL, json_deep_copy(json_object_get(orig, "pi_a")));
        json_decref(orig);
        CHECK_EQ_INT(cuzk_verify(vk, CUZK_PUBLIC_JSON, ut, nu, CUZK_PROOF_SNARKJS_JSON, t2, strlen(t2), &e), CUZK_ERR_INVALID);
        free(t);
        free(t2);
        /* A = -A (negated y) */
        json_t *root = json_loadb(pt, np, 0, NULL);
        bn254_fp y, ny;
        const char *ys = json_string_value(json_array_get(json_object_get(root, "pi_a"), 1));
        bn254_fp ten, dgt;
        bn254_fp_zero(&y);
        bn254_fp_from_u64(&ten, 10);
        for (const char *c = ys; *c; c++) {
            bn254_fp_mul(&y, &y, &ten);
            bn254_fp_from_u64(&dgt, (uint64_t)(*c - '0'));
            bn254_fp_add(&y, &y, &dgt);
        }
        bn254_fp_neg(&ny, &y);
        json_array_set_new(json_object_get(root, "pi_a"), 1, dec_fp(&ny));
        t = json_dumps(root, 0);
        CHECK_EQ_INT(cuzk_verify(vk, CUZK_PUBLIC_JSON, ut, nu, CUZK_PROOF_SNARKJS_JSON, t, strlen(t), &e), CUZK_ERR_INVALID);
        free(t);
        /* A off the curve (y + 1): an invalid proof, the message says why */
        bn254_fp one;
        bn254_fp_one(&one);
        bn254_fp_add(&ny, &y, &one);
        json_array_set_new(json_object_get(root, "pi_a"), 1, dec_fp(&ny));
        t = json_dumps(root, 0);
        CHECK_EQ_INT(cuzk_verify(vk, CUZK_PUBLIC_JSON, ut, nu, CUZK_PROOF_SNARKJS_JSON, t, strlen(t), &e), CUZK_ERR_INVALID);
        CHECK_MSG(strstr(e.msg, "curve") != NULL, "off-curve A: %s", e.msg);
        free(t);
        json_decref(root);
        /* B on the twist but outside G2 */
        {
            static const bn254_fp2 B = BN254_G2_B_MONT;
            bn254_g2_affine q;
            for (uint64_t xv = 1;; xv++) {
                bn254_fp2 rhs;
                bn254_fp_from_u64(&q.x.c0, xv);
                bn254_fp_from_u64(&q.x.c1, 7);
                bn254_fp2_sqr(&rhs, &q.x);
                bn254_fp2_mul(&rhs, &rhs, &q.x);
                bn254_fp2_add(&rhs, &rhs, &B);
                if (bn254_fp2_sqrt(&q.y, &rhs) && !bn254_g2_affine_is_in_subgroup(&q)) break;
            }
            json_t *pb = json_pack("[[o,o],[o,o],[s,s]]", dec_fp(&q.x.c0), dec_fp(&q.x.c1), dec_fp(&q.y.c0),
                                   dec_fp(&q.y.c1), "1", "0");
            t = proof_with(pt, np, "pi_b", NULL, pb);
            CHECK_EQ_INT(cuzk_verify(vk, CUZK_PUBLIC_JSON, ut, nu, CUZK_PROOF_SNARKJS_JSON, t, strlen(t), &e),
                         CUZK_ERR_INVALID);
            CHECK_MSG(strstr(e.msg, "subgroup") != NULL, "B outside G2: %s", e.msg);
            free(t);
        }
        /* a wrong public input: the first one plus one (as a decimal string) */
        json_t *pubj = json_loadb(ut, nu, 0, NULL);
        REQUIRE(json_is_array(pubj));
        const char *p0 = json_string_value(json_array_get(pubj, 0));
        char w[100];
        snprintf(w, sizeof w, "%s", p0);
        size_t L = strlen(w);
        int k = (int)L - 1;
        while (k >= 0 && w[k] == '9') w[k--] = '0';
        if (k >= 0) w[k]++;
        else { memmove(w + 1, w, L + 1); w[0] = '1'; }
        json_array_set_new(pubj, 0, json_string(w));
        char *ub = json_dumps(pubj, 0);
        CHECK_EQ_INT(cuzk_verify(vk, CUZK_PUBLIC_JSON, ub, strlen(ub), CUZK_PROOF_SNARKJS_JSON, pt, np, &e), CUZK_ERR_INVALID);
        free(ub);
        json_decref(pubj);
        /* bellperson proof form: BLS12-381 only */
        uint8_t zero[192] = {0};
        CHECK_EQ_INT(cuzk_verify(vk, CUZK_PUBLIC_JSON, ut, nu, CUZK_PROOF_BELLPERSON, zero, sizeof zero, &e),
                     CUZK_ERR_UNSUPPORTED);
        CHECK(strstr(e.msg, "BLS12-381 only") != NULL);
        cuzk_vk_free(vk);
        free(vkt);
        free(pt);
        free(ut);
    }
}

TEST(bn128, random_proofs_verify_here_and_in_snarkjs) {
    const char *snarkjs = test_snarkjs();
    for (size_t i = 0; i < sizeof k_bn / sizeof *k_bn; i++) {
        const char *out = tmp("bn_rand_proof.json"), *pub = tmp("bn_rand_public.json");
        cuzk_error e = {0};
        cuzk_prove_opts o = {.backend = CUZK_BACKEND_AUTO};
        REQUIRE(cuzk_prove_zkey_files(fx(k_bn[i], "circuit_final.zkey"), fx(k_bn[i], "witness.wtns"), out, pub, &o, NULL,
                                      &e) == CUZK_OK);
        CHECK_MSG(cuzk_verify_json_files(fx(k_bn[i], "verification_key.json"), pub, out, &e) == CUZK_OK, "%s", e.msg);
        if (!snarkjs) continue;
        char log[4096];
        int rc = test_run(log, sizeof log, "node '%s' groth16 verify '%s' '%s' '%s'", snarkjs,
                          fx(k_bn[i], "verification_key.json"), pub, out);
        CHECK_MSG(rc == 0 && strstr(log, "OK"), "snarkjs rejected our %s proof (rc %d): %s", k_bn[i], rc, log);
    }
    if (!snarkjs) SKIP("snarkjs not installed (tools/install-deps.sh --test); checked our verifier only");
}

/* In-memory API: load, describe, prove from .wtns bytes and from canonical limbs, vk from pk. */
TEST(bn128, in_memory_api) {
    size_t nz, nw;
    uint8_t *z = test_slurp(fx("merkle_mimc5", "circuit_final.zkey"), &nz);
    uint8_t *w = test_slurp(fx("merkle_mimc5", "witness.wtns"), &nw);
    REQUIRE(z && w);
    cuzk_error e = {0};
    cuzk_pk *pk = NULL;
    REQUIRE(cuzk_pk_load_zkey_mem(&pk, z, nz, NULL, &e) == CUZK_OK);
    cuzk_pk_info info;
    REQUIRE(cuzk_pk_describe(pk, &info, &e) == CUZK_OK);
    CHECK(info.curve == CUZK_CURVE_BN254 && info.convention == CUZK_CONVENTION_SNARKJS);
    cuzk_prover *pv = NULL;
    /* --backend gpu: the BN254 GPU backend where a device is present (tests/test_gpu_bn254.c
     * compares its proofs), else CUZK_ERR_DEVICE; auto: the GPU or, without one, the CPU */
    cuzk_prover_opts po = {.backend = CUZK_BACKEND_GPU};
    cuzk_status gst = cuzk_prover_create(&pv, pk, &po, &e);
    CHECK_MSG(gst == CUZK_OK || gst == CUZK_ERR_DEVICE || gst == CUZK_ERR_UNSUPPORTED, "--backend gpu on bn128: %s (%s)",
              cuzk_status_str(gst), e.msg);
    const bool gpu = gst == CUZK_OK;
    if (gpu) CHECK(!strcmp(cuzk_prover_backend_name(pv), "gpu"));
    cuzk_prover_destroy(pv);
    pv = NULL;
    po.backend = CUZK_BACKEND_AUTO;
    REQUIRE(cuzk_prover_create(&pv, pk, &po, &e) == CUZK_OK);
    CHECK(!strcmp(cuzk_prover_backend_name(pv), gpu ? "gpu" : "cpu"));
    cuzk_witness wit = {CUZK_WITNESS_WTNS, w, nw};
    cuzk_proof proof;
    REQUIRE(cuzk_prove(pv, &proof, &wit, NULL, NULL, &e) == CUZK_OK);
    CHECK(proof.curve == CUZK_CURVE_BN254 && !proof.has_bellperson && strstr(proof.proof_json, "\"bn128\""));
    cuzk_vk *vk = NULL;
    REQUIRE(cuzk_vk_from_pk(&vk, pk, &e) == CUZK_OK);
    CHECK_EQ_INT(cuzk_verify(vk, CUZK_PUBLIC_CANON, proof.public_inputs, (size_t)proof.n_public * 32,
                             CUZK_PROOF_SNARKJS_JSON, proof.proof_json, proof.proof_json_len, &e), CUZK_OK);
    CHECK_EQ_INT(cuzk_verify(vk, CUZK_PUBLIC_JSON, proof.public_json, proof.public_json_len, CUZK_PROOF_SNARKJS_JSON,
                             proof.proof_json, proof.proof_json_len, &e), CUZK_OK);
    cuzk_proof_free(&proof);
    /* a bls12381 witness image for this bn128 key */
    size_t nb;
    uint8_t *bw = test_slurp(test_fixture("bls12381/merkle_mimc5/witness.wtns"), &nb);
    REQUIRE(bw);
    cuzk_witness bwit = {CUZK_WITNESS_WTNS, bw, nb};
    CHECK_EQ_INT(cuzk_prove(pv, &proof, &bwit, NULL, NULL, &e), CUZK_ERR_CURVE);
    CHECK(strstr(e.msg, "bls12381") && strstr(e.msg, "bn128"));
    free(bw);
    cuzk_vk_free(vk);
    cuzk_prover_destroy(pv);
    cuzk_pk_release(pk);
    free(z);
    free(w);
}

/* Points of a zkey: one off the curve (G1, section 5 = A), one outside G2 (section 7 = B2). */
static size_t section_offset(const uint8_t *z, size_t n, uint32_t id) {
    uint32_t ns = (uint32_t)z[8] | (uint32_t)z[9] << 8;
    size_t off = 12;
    for (uint32_t i = 0; i < ns && off + 12 <= n; i++) {
        uint32_t sid = (uint32_t)z[off] | (uint32_t)z[off + 1] << 8;
        uint64_t sz = 0;
        for (int k = 0; k < 8; k++) sz |= (uint64_t)z[off + 4 + k] << (8 * k);
        if (sid == id) return off + 12;
        off += 12 + (size_t)sz;
    }
    return 0;
}

TEST(bn128, zkey_bad_points_refused) {
    size_t n;
    uint8_t *z = test_slurp(fx("multiplier", "circuit_final.zkey"), &n);
    REQUIRE(z);
    cuzk_error e = {0};
    cuzk_pk *pk = NULL;
    /* a G1 point of section 5 (A) moved off the curve: y + 1 in Montgomery form */
    uint8_t *b = malloc(n);
    memcpy(b, z, n);
    size_t a5 = section_offset(b, n, 5);
    REQUIRE(a5);
    bn254_g1_affine p;
    size_t idx = 0;
    for (;; idx++) { /* first non-infinity point */
        memcpy(&p, b + a5 + idx * 64, 64);
        if (!bn254_g1_affine_is_infinity(&p)) break;
    }
    bn254_fp one;
    bn254_fp_one(&one);
    bn254_fp_add(&p.y, &p.y, &one);
    memcpy(b + a5 + idx * 64, &p, 64);
    CHECK_EQ_INT(cuzk_pk_load_zkey_mem(&pk, b, n, NULL, &e), CUZK_ERR_POINT);
    CHECK_MSG(strstr(e.msg, "section 5") && strstr(e.msg, "curve"), "%s", e.msg);
    /* a B2 point replaced by a point of the twist outside G2 */
    memcpy(b, z, n);
    size_t b7 = section_offset(b, n, 7);
    REQUIRE(b7);
    static const bn254_fp2 B = BN254_G2_B_MONT;
    bn254_g2_affine q;
    for (uint64_t xv = 3;; xv++) {
        bn254_fp2 rhs;
        bn254_fp_from_u64(&q.x.c0, xv);
        bn254_fp_from_u64(&q.x.c1, 1);
        bn254_fp2_sqr(&rhs, &q.x);
        bn254_fp2_mul(&rhs, &rhs, &q.x);
        bn254_fp2_add(&rhs, &rhs, &B);
        if (bn254_fp2_sqrt(&q.y, &rhs) && !bn254_g2_affine_is_in_subgroup(&q)) break;
    }
    /* B2 entry 3 is the private wire of multiplier (value 11 != 0, so it enters B) */
    memcpy(b + b7 + 3 * 128, &q, 128);
    cuzk_pk_load_opts full = {.check = CUZK_CHECK_FULL};
    CHECK_EQ_INT(cuzk_pk_load_zkey_mem(&pk, b, n, &full, &e), CUZK_ERR_POINT);
    CHECK_MSG(strstr(e.msg, "section 7") && strstr(e.msg, "subgroup"), "%s", e.msg);
    /* by default (no per-point subgroup checks on B2) the proof fails its self-verification */
    REQUIRE(cuzk_pk_load_zkey_mem(&pk, b, n, NULL, &e) == CUZK_OK);
    {
        size_t nw;
        uint8_t *w = test_slurp(fx("multiplier", "witness.wtns"), &nw);
        cuzk_prover *pv = NULL;
        cuzk_prover_opts po = {.backend = CUZK_BACKEND_CPU};
        REQUIRE(w && cuzk_prover_create(&pv, pk, &po, &e) == CUZK_OK);
        cuzk_witness wit = {CUZK_WITNESS_WTNS, w, nw};
        cuzk_proof proof;
        CHECK_EQ_INT(cuzk_prove(pv, &proof, &wit, NULL, NULL, &e), CUZK_ERR_UNSAT);
        CHECK_MSG(strstr(e.msg, "does not verify"), "%s", e.msg);
        cuzk_prover_destroy(pv);
        cuzk_pk_release(pk);
        pk = NULL;
        free(w);
    }
    /* gamma2 (header, section 2) outside G2: refused at load on BN254 */
    memcpy(b, z, n);
    size_t h2 = section_offset(b, n, 2);
    REQUIRE(h2);
    /* section 2: n8q, q, n8r, r, nVars, nPublic, domain, alpha1, beta1, beta2, gamma2, ... */
    memcpy(b + h2 + 4 + 32 + 4 + 32 + 12 + 2 * 64 + 128, &q, 128);
    CHECK_EQ_INT(cuzk_pk_load_zkey_mem(&pk, b, n, NULL, &e), CUZK_ERR_POINT);
    CHECK_MSG(strstr(e.msg, "gamma2") && strstr(e.msg, "subgroup"), "%s", e.msg);
    /* a coordinate >= p */
    memcpy(b, z, n);
    memset(b + a5 + idx * 64, 0xff, 32);
    CHECK_EQ_INT(cuzk_pk_load_zkey_mem(&pk, b, n, NULL, &e), CUZK_ERR_POINT);
    CHECK(pk == NULL);
    free(b);
    free(z);
}

TEST(bn128, curves_do_not_mix_and_bls_only_parts_say_so) {
    cuzk_error e = {0};
    const char *out = tmp("mix_proof.json"), *pub = tmp("mix_public.json");
    unlink(out);
    CHECK_EQ_INT(cuzk_prove_zkey_files(fx("multiplier", "circuit_final.zkey"),
                                       test_fixture("bls12381/multiplier/witness.wtns"), out, pub, NULL, NULL, &e),
                 CUZK_ERR_CURVE);
    CHECK_MSG(strstr(e.msg, "bls12381") && strstr(e.msg, "bn128"), "%s", e.msg);
    CHECK_EQ_INT(cuzk_prove_zkey_files(test_fixture("bls12381/multiplier/circuit_final.zkey"),
                                       fx("multiplier", "witness.wtns"), out, pub, NULL, NULL, &e),
                 CUZK_ERR_CURVE);
    CHECK_EQ_INT(cuzk_exit_code(CUZK_ERR_CURVE), 3);
    CHECK(access(out, F_OK) != 0);
    /* a bls12381 proof against a bn128 vk */
    CHECK_EQ_INT(cuzk_verify_json_files(fx("multiplier", "verification_key.json"), fx("multiplier", "public.json"),
                                        test_fixture("bls12381/multiplier/proof.json"), &e),
                 CUZK_ERR_CURVE);
    /* setup and the bellperson flavour are BLS12-381 only */
    cuzk_setup_opts so;
    cuzk_setup_opts_init(&so);
    CHECK_EQ_INT(cuzk_setup(fx("multiplier", "circuit.r1cs"), tmp("bn.params"), tmp("bn.vk"), &so, NULL, &e), CUZK_ERR_CURVE);
    CHECK_MSG(strstr(e.msg, "BLS12-381 only"), "%s", e.msg);
    CHECK_EQ_INT(cuzk_prove_params_files(test_fixture("bls12381/multiplier/circuit_final.zkey"), fx("multiplier", "circuit.r1cs"),
                                         fx("multiplier", "witness.wtns"), tmp("bn.proof"), tmp("bn.pub"), NULL, NULL, &e),
                 CUZK_ERR_CURVE);
    CHECK_MSG(strstr(e.msg, "BLS12-381 only"), "%s", e.msg);
    /* info names the curve and checks the points */
    char buf[4096];
    CHECK_EQ_INT(cuzk_describe_file(buf, sizeof buf, fx("merkle_mimc5", "circuit_final.zkey"), &e), CUZK_OK);
    CHECK(strstr(buf, "curve: bn128") != NULL);
    CHECK_EQ_INT(cuzk_describe_file(buf, sizeof buf, fx("merkle_mimc5", "verification_key.json"), &e), CUZK_OK);
    CHECK(strstr(buf, "bn128") && strstr(buf, "in their subgroups"));
}

/* The command line: prove --fixed-rs --json, verify, info, and exit 3 for mixed curves. */
TEST(bn128, cli) {
    char log[8192];
    const char *out = tmp("cli_bn_proof.json"), *pub = tmp("cli_bn_public.json");
    int rc = test_run(log, sizeof log, "'%s' prove --json --fixed-rs %s %s '%s' '%s' '%s' '%s'", CUZK_CLI_PATH, FIXED_R,
                      FIXED_S, fx("merkle_mimc5", "circuit_final.zkey"), fx("merkle_mimc5", "witness.wtns"), out, pub);
    CHECK_MSG(rc == 0 && strstr(log, "\"status\": \"ok\""), "rc %d: %s", rc, log);
    rc = test_run(log, sizeof log, "'%s' verify '%s' '%s' '%s'", CUZK_CLI_PATH, fx("merkle_mimc5", "verification_key.json"),
                  pub, out);
    CHECK_MSG(rc == 0, "rc %d: %s", rc, log);
    rc = test_run(log, sizeof log, "'%s' prove --check --r1cs '%s' '%s' '%s' '%s' '%s'", CUZK_CLI_PATH,
                  fx("merkle_mimc5", "circuit.r1cs"), fx("merkle_mimc5", "circuit_final.zkey"),
                  fx("merkle_mimc5", "witness.wtns"), tmp("cli_bn_p2.json"), tmp("cli_bn_pub2.json"));
    CHECK_MSG(rc == 0, "--check: rc %d: %s", rc, log);
    rc = test_run(log, sizeof log, "'%s' prove '%s' '%s' '%s' '%s'", CUZK_CLI_PATH, fx("merkle_mimc5", "circuit_final.zkey"),
                  test_fixture("bls12381/merkle_mimc5/witness.wtns"), tmp("cli_mix.json"), tmp("cli_mix_pub.json"));
    CHECK_MSG(rc == 3 && strstr(log, "bn128") && strstr(log, "bls12381"), "mixed curves: rc %d: %s", rc, log);
    rc = test_run(log, sizeof log, "'%s' info '%s'", CUZK_CLI_PATH, fx("merkle_mimc5", "circuit_final.zkey"));
    CHECK_MSG(rc == 0 && strstr(log, "bn128"), "info: rc %d: %s", rc, log);
}

/* ---- setup: `cuzk setup circuit.r1cs --zkey out.zkey` on bn128 circuits ----------------------- */

/* Random circuits (tests/bn254_circuit.c, an independent .r1cs/.wtns writer): setup -> prove with
 * fixed and random r, s -> verify, a wrong public input rejected; snarkjs reads our zkey, verifies
 * our proof and proves with it (2^10). Domains 2^2 .. 2^10 and 2^14 (and 2^16 with CUZK_TEST_ITERS >= 4);
 * where the CPU has AVX-512 IFMA every fixed-r,s proof is also made by the scalar code: same bytes. */
TEST(bn128, setup_random_circuits_prove_verify) {
    static const cuzk_backend cpu[] = {CUZK_BACKEND_CPU};
    bn254_random_circuit_check(2, 2, cpu, 1, false); /* 1 constraint */
    bn254_random_circuit_check(5, 0, cpu, 1, false); /* no public input */
    bn254_random_circuit_check(10, 3, cpu, 1, true);
    bn254_random_circuit_check(14, 4, cpu, 1, false); /* windows of >= 10 bits: the 8-lane MSM */
    if (test_iters(1) >= 4) bn254_random_circuit_check(16, 8, cpu, 1, false);
    if (!test_snarkjs()) SKIP("snarkjs not installed (tools/install-deps.sh --test); checked our loader, prover and verifier only");
}

/* Every bn128 fixture's .r1cs: a zkey that proves the fixture's witness (verified), the same bytes
 * for the same seed on any thread count, other bytes for another seed; the command line; and the
 * refusals: .params/.vk for a bn128 circuit (exit 3, nothing written), a missing output. */
TEST(bn128, setup_zkey_fixtures_cli_and_refusals) {
    cuzk_error e = {0};
    for (size_t i = 0; i < sizeof k_bn / sizeof *k_bn; i++) {
        const char *z1 = tmp("bn_setup_1.zkey"), *z2 = tmp("bn_setup_2.zkey"), *z3 = tmp("bn_setup_3.zkey");
        cuzk_setup_opts so;
        cuzk_setup_opts_init(&so);
        uint64_t seed = test_rand64(), seed2 = seed + 1;
        so.seed = &seed;
        so.zkey_path = z1;
        so.nthreads = 1;
        cuzk_setup_timings t = {0};
        REQUIRE(cuzk_setup(fx(k_bn[i], "circuit.r1cs"), NULL, NULL, &so, &t, &e) == CUZK_OK);
        CHECK(t.zkey_bytes > 0 && t.params_bytes == 0 && !strcmp(t.backend, "cpu"));
        so.zkey_path = z2;
        so.nthreads = 3;
        REQUIRE(cuzk_setup(fx(k_bn[i], "circuit.r1cs"), NULL, NULL, &so, NULL, &e) == CUZK_OK);
        so.zkey_path = z3;
        so.seed = &seed2;
        REQUIRE(cuzk_setup(fx(k_bn[i], "circuit.r1cs"), NULL, NULL, &so, NULL, &e) == CUZK_OK);
        size_t n1, n2, n3;
        uint8_t *b1 = test_slurp(z1, &n1), *b2 = test_slurp(z2, &n2), *b3 = test_slurp(z3, &n3);
        REQUIRE(b1 && b2 && b3);
        CHECK_MSG(n1 == t.zkey_bytes && n1 == n2 && !memcmp(b1, b2, n1), "%s: same seed, different zkey", k_bn[i]);
        CHECK_MSG(n1 == n3 && memcmp(b1, b3, n1) != 0, "%s: another seed, the same zkey", k_bn[i]);
        free(b1);
        free(b2);
        free(b3);
        char buf[4096];
        REQUIRE(cuzk_describe_file(buf, sizeof buf, z1, &e) == CUZK_OK);
        CHECK_MSG(strstr(buf, "curve: bn128") != NULL, "%s", buf);
        /* the fixture's witness proves with it, and the proof verifies against its key */
        const char *out = tmp("bn_setup_proof.json"), *pub = tmp("bn_setup_public.json");
        cuzk_prove_opts o = {.backend = CUZK_BACKEND_CPU};
        REQUIRE(cuzk_prove_zkey_files(z1, fx(k_bn[i], "witness.wtns"), out, pub, &o, NULL, &e) == CUZK_OK);
        cuzk_pk *pk = NULL;
        cuzk_vk *vk = NULL;
        REQUIRE(cuzk_pk_load_zkey(&pk, z1, NULL, &e) == CUZK_OK && cuzk_vk_from_pk(&vk, pk, &e) == CUZK_OK);
        size_t np, nq;
        char *p = slurp_text(out, &np), *q = slurp_text(pub, &nq);
        REQUIRE(p && q);
        CHECK_MSG(cuzk_verify(vk, CUZK_PUBLIC_JSON, q, nq, CUZK_PROOF_SNARKJS_JSON, p, np, &e) == CUZK_OK, "%s: %s", k_bn[i],
                  e.msg);
        /* not against the fixture's own (ceremony) key */
        CHECK(cuzk_verify_json_files(fx(k_bn[i], "verification_key.json"), pub, out, &e) == CUZK_ERR_INVALID);
        free(p);
        free(q);
        cuzk_vk_free(vk);
        cuzk_pk_release(pk);
    }
    /* refusals */
    cuzk_setup_opts so;
    cuzk_setup_opts_init(&so);
    const char *zk = tmp("bn_refused.zkey");
    unlink(zk);
    so.zkey_path = zk;
    CHECK_EQ_INT(cuzk_setup(fx("multiplier", "circuit.r1cs"), tmp("bn2.params"), tmp("bn2.vk"), &so, NULL, &e), CUZK_ERR_CURVE);
    CHECK_MSG(strstr(e.msg, "BLS12-381 only") && strstr(e.msg, "--zkey"), "%s", e.msg);
    CHECK(access(zk, F_OK) != 0 && access(tmp("bn2.params"), F_OK) != 0);
    CHECK_EQ_INT(cuzk_setup(fx("multiplier", "circuit.r1cs"), tmp("bn2.params"), NULL, &so, NULL, &e), CUZK_ERR_ARG);
    so.zkey_path = NULL;
    CHECK_EQ_INT(cuzk_setup(fx("multiplier", "circuit.r1cs"), NULL, NULL, &so, NULL, &e), CUZK_ERR_ARG);
    /* the command line */
    char log[8192];
    const char *cz = tmp("cli_bn_setup.zkey"), *cp = tmp("cli_bn_setup_proof.json"), *cpub = tmp("cli_bn_setup_pub.json");
    int rc = test_run(log, sizeof log, "'%s' setup --seed 7 '%s' --zkey '%s'", CUZK_CLI_PATH,
                      fx("merkle_mimc5", "circuit.r1cs"), cz);
    CHECK_MSG(rc == 0 && strstr(log, "domain 2^11") && strstr(log, "INSECURE"), "rc %d: %s", rc, log);
    rc = test_run(log, sizeof log, "'%s' setup --json --seed 7 '%s' --zkey '%s'", CUZK_CLI_PATH,
                  fx("merkle_mimc5", "circuit.r1cs"), tmp("cli_bn_setup2.zkey"));
    CHECK_MSG(rc == 0 && strstr(log, "\"zkey\": ") && !strstr(log, "\"params\""), "rc %d: %s", rc, log);
    CHECK_MSG(test_run(log, sizeof log, "cmp '%s' '%s'", cz, tmp("cli_bn_setup2.zkey")) == 0, "--seed 7 twice: %s", log);
    rc = test_run(log, sizeof log, "'%s' prove '%s' '%s' '%s' '%s'", CUZK_CLI_PATH, cz, fx("merkle_mimc5", "witness.wtns"),
                  cp, cpub);
    CHECK_MSG(rc == 0, "prove with the setup's zkey: rc %d: %s", rc, log);
    rc = test_run(log, sizeof log, "'%s' setup '%s' '%s' '%s'", CUZK_CLI_PATH, fx("merkle_mimc5", "circuit.r1cs"),
                  tmp("cli_bn.params"), tmp("cli_bn.vk"));
    CHECK_MSG(rc == 3 && strstr(log, "BLS12-381 only"), "bn128 .params: rc %d: %s", rc, log);
    rc = test_run(log, sizeof log, "'%s' setup '%s'", CUZK_CLI_PATH, fx("merkle_mimc5", "circuit.r1cs"));
    CHECK_MSG(rc == 2, "no output: rc %d: %s", rc, log);
}
