/* Regressions from outside reports and hostile inputs (issue 15): each test failed before its fix.
 * They run the CLI as a user does, on fixtures made by circom/snarkjs
 * (tests/fixtures/regen_dropped_wires.sh) or on files crafted here. */
#include "test.h"

#include <stdarg.h>
#include <stdlib.h>
#include <unistd.h>

#include <jansson.h>

#include "formats/json.h"
#include "formats/snarkjs.h"
#include "groth16/groth16.h"
#include "util/text.h"
#include "test_rand.h"
#include "curves/bn254/curve.h"

#define CLI CUZK_CLI_PATH
#define FIX(c, f) test_fixture("bls12381/" c "/" f)

static char g_log[1 << 16];

/* Runs the CLI; stdout and stderr both land in g_log. */
static int cli(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int cli(const char *fmt, ...) {
    char args[16384], cmd[17000];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(args, sizeof args, fmt, ap);
    va_end(ap);
    snprintf(cmd, sizeof cmd, "'%s' %s", CLI, args);
    return test_run(g_log, sizeof g_log, "%s", cmd);
}

static const char *tmp(const char *name) {
    static char pool[16][1024];
    static int next;
    char *p = pool[next++ % 16];
    snprintf(p, sizeof pool[0], "%s/%s", test_tmpdir(), name);
    return p;
}

static __attribute__((unused)) bool write_text(const char *path, const char *text) {
    FILE *f = fopen(path, "wb");
    if (!f) return false;
    bool ok = fputs(text, f) >= 0;
    return (fclose(f) == 0) && ok;
}

/* circom (at its default --O1) drops a private input that no constraint uses, one fixed by
 * `k === 15` and one tied by `x === y`, yet counts it in nPrvInputs: 4 wires for 5 labels.
 * setup, prove --params, prove --check --r1cs and verify all accept the circuit, as snarkjs does,
 * and the public output is the one snarkjs computed. */
TEST(reports, circom_dropped_wires_are_accepted) {
    const char *kinds[] = {"dropped_unused", "dropped_const", "dropped_equal"};
    for (int k = 0; k < 3; k++) {
        char dir[256];
        snprintf(dir, sizeof dir, "bls12381/%s/", kinds[k]);
        char r1cs[1024], wtns[1024], zkey[1024], vkj[1024], pubj[1024];
        snprintf(r1cs, sizeof r1cs, "%s/%scircuit.r1cs", CUZK_FIXTURES_DIR, dir);
        snprintf(wtns, sizeof wtns, "%s/%switness.wtns", CUZK_FIXTURES_DIR, dir);
        snprintf(zkey, sizeof zkey, "%s/%scircuit_final.zkey", CUZK_FIXTURES_DIR, dir);
        snprintf(vkj, sizeof vkj, "%s/%sverification_key.json", CUZK_FIXTURES_DIR, dir);
        snprintf(pubj, sizeof pubj, "%s/%spublic.json", CUZK_FIXTURES_DIR, dir);
        const char *params = tmp("dw.params"), *vk = tmp("dw.vk"), *ourzkey = tmp("dw.zkey");
        const char *proof = tmp("dw_proof.bin"), *pub = tmp("dw_public.json");
        const char *proofj = tmp("dw_proof.json"), *pub2 = tmp("dw_public2.json");
        int rc = cli("setup -q --seed 7 '%s' '%s' '%s' --zkey '%s'", r1cs, params, vk, ourzkey);
        CHECK_MSG(rc == 0, "%s setup: rc %d: %s", kinds[k], rc, g_log);
        if (rc) continue;
        rc = cli("prove -q --params '%s' --r1cs '%s' '%s' '%s' '%s'", params, r1cs, wtns, proof, pub);
        CHECK_MSG(rc == 0, "%s prove --params: rc %d: %s", kinds[k], rc, g_log);
        rc = cli("verify --vk '%s' '%s' '%s'", vk, pub, proof);
        CHECK_MSG(rc == 0 && strstr(g_log, "OK"), "%s verify --vk: rc %d: %s", kinds[k], rc, g_log);
        /* the public values are snarkjs's */
        size_t n1, n2;
        char *a = (char *)test_slurp(pub, &n1), *b = (char *)test_slurp(pubj, &n2);
        REQUIRE(a && b);
        char *sa = a, *sb = b; /* compare ignoring white space */
        for (char *p = a; *p; p++) if (*p > ' ') *sa++ = *p;
        *sa = 0;
        for (char *p = b; *p; p++) if (*p > ' ') *sb++ = *p;
        *sb = 0;
        CHECK_MSG(!strcmp(a, b), "%s: public %s, snarkjs %s", kinds[k], a, b);
        free(a);
        free(b);
        /* snarkjs's zkey, checked against the .r1cs */
        rc = cli("prove -q --check --r1cs '%s' '%s' '%s' '%s' '%s'", r1cs, zkey, wtns, proofj, pub2);
        CHECK_MSG(rc == 0, "%s prove --check --r1cs: rc %d: %s", kinds[k], rc, g_log);
        rc = cli("verify '%s' '%s' '%s'", vkj, pub2, proofj);
        CHECK_MSG(rc == 0 && strstr(g_log, "OK"), "%s verify: rc %d: %s", kinds[k], rc, g_log);
        const char *sj = test_snarkjs();
        if (sj) {
            rc = test_run(g_log, sizeof g_log, "node '%s' groth16 verify '%s' '%s' '%s'", sj, vkj, pub2, proofj);
            CHECK_MSG(rc == 0 && strstr(g_log, "OK"), "%s snarkjs verify: rc %d: %s", kinds[k], rc, g_log);
        }
        /* our zkey of the same circuit (every proof is checked against its key before it is written) */
        rc = cli("prove -q --check --r1cs '%s' '%s' '%s' '%s' '%s'", r1cs, ourzkey, wtns, proofj, pub2);
        CHECK_MSG(rc == 0, "%s prove (cuzk zkey): rc %d: %s", kinds[k], rc, g_log);
    }
}

/* A wire that circom kept (--O0) but that is in no constraint cannot go into a bellperson
 * .params (its L point is infinity). The advice given must be one that works: no zkey-only
 * mode exists, recompiling at circom's default optimisation does (the test above). */
TEST(reports, setup_wire_in_no_constraint_advice_works) {
    int rc = cli("setup -q --seed 1 '%s' '%s' '%s'", FIX("dropped_unused", "circuit_O0.r1cs"), tmp("o0.params"),
                 tmp("o0.vk"));
    CHECK_MSG(rc == 3 || rc == 2, "rc %d: %s", rc, g_log);
    CHECK_MSG(strstr(g_log, "in no constraint") != NULL, "%s", g_log);
    CHECK_MSG(strstr(g_log, "only the .zkey") == NULL, "advice that cannot be followed: %s", g_log);
    CHECK_MSG(strstr(g_log, "--O1") != NULL, "no working advice: %s", g_log);
}

/* ---- degenerate keys and proofs -------------------------------------------------------------- */

static json_t *g1_inf(void) { return json_pack("[sss]", "0", "1", "0"); }
static json_t *g2_inf(void) { return json_pack("[[ss][ss][ss]]", "0", "0", "1", "0", "0", "0"); }

/* The report: a verification_key.json whose vk_alpha_1 and IC points are infinity, with the
 * all-infinity proof, verified for any public input. Now every such key is a bad key (exit 3,
 * the point named), in every format; a proof with a point at infinity is refused as an invalid
 * proof (exit 1, as one off the curve) naming the point, and `info` calls it a bad file. */
TEST(reports, degenerate_keys_and_proofs_are_refused) {
    json_error_t je;
    json_t *vk = json_load_file(FIX("multiplier", "verification_key.json"), 0, &je);
    json_t *pr = json_load_file(FIX("multiplier", "proof.json"), 0, &je);
    REQUIRE(vk && pr);
    const char *pub = FIX("multiplier", "public.json"), *good_vk = FIX("multiplier", "verification_key.json");
    const char *good_proof = FIX("multiplier", "proof.json");
    const char *vk_bad = tmp("degenerate_vk.json"), *pr_bad = tmp("infinity_proof.json");

    /* the report's key and proof */
    json_t *v = json_deep_copy(vk);
    json_object_set_new(v, "vk_alpha_1", g1_inf());
    json_t *ic = json_object_get(v, "IC");
    for (size_t i = 0; i < json_array_size(ic); i++) json_array_set_new(ic, i, g1_inf());
    json_t *p = json_deep_copy(pr);
    json_object_set_new(p, "pi_a", g1_inf());
    json_object_set_new(p, "pi_b", g2_inf());
    json_object_set_new(p, "pi_c", g1_inf());
    REQUIRE(json_dump_file(v, vk_bad, 0) == 0 && json_dump_file(p, pr_bad, 0) == 0);
    int rc = cli("verify '%s' '%s' '%s'", vk_bad, pub, pr_bad);
    CHECK_MSG(rc == 3 && strstr(g_log, "vk_alpha_1 is the point at infinity"), "rc %d: %s", rc, g_log);
    rc = cli("info '%s'", vk_bad);
    CHECK_MSG(rc == 3 && strstr(g_log, "point at infinity"), "info: rc %d: %s", rc, g_log);
    json_decref(v);
    json_decref(p);

    /* each vk point alone */
    const char *g1k[] = {"vk_alpha_1"}, *g2k[] = {"vk_beta_2", "vk_gamma_2", "vk_delta_2"};
    for (int i = 0; i < 4; i++) {
        const char *name = i == 0 ? g1k[0] : g2k[i - 1];
        v = json_deep_copy(vk);
        json_object_set_new(v, name, i == 0 ? g1_inf() : g2_inf());
        REQUIRE(json_dump_file(v, vk_bad, 0) == 0);
        json_decref(v);
        rc = cli("verify '%s' '%s' '%s'", vk_bad, pub, good_proof);
        CHECK_MSG(rc == 3 && strstr(g_log, name) && strstr(g_log, "infinity"), "%s: rc %d: %s", name, rc, g_log);
    }
    for (size_t i = 0; i < json_array_size(json_object_get(vk, "IC")); i++) {
        v = json_deep_copy(vk);
        json_array_set_new(json_object_get(v, "IC"), i, g1_inf());
        REQUIRE(json_dump_file(v, vk_bad, 0) == 0);
        json_decref(v);
        char name[32];
        snprintf(name, sizeof name, "IC[%zu]", i);
        rc = cli("verify '%s' '%s' '%s'", vk_bad, pub, good_proof);
        CHECK_MSG(rc == 3 && strstr(g_log, name) && strstr(g_log, "infinity"), "%s: rc %d: %s", name, rc, g_log);
    }
    /* each proof point alone, against the genuine key; the message names the point */
    const char *pk[] = {"pi_a", "pi_b", "pi_c"};
    for (int i = 0; i < 3; i++) {
        p = json_deep_copy(pr);
        json_object_set_new(p, pk[i], i == 1 ? g2_inf() : g1_inf());
        REQUIRE(json_dump_file(p, pr_bad, 0) == 0);
        json_decref(p);
        rc = cli("verify '%s' '%s' '%s'", good_vk, pub, pr_bad); /* an invalid proof, like one off the curve */
        CHECK_MSG(rc == 1 && strstr(g_log, pk[i]) && strstr(g_log, "infinity"), "%s: rc %d: %s", pk[i], rc, g_log);
        rc = cli("info '%s'", pr_bad);
        CHECK_MSG(rc == 3 && strstr(g_log, pk[i]), "info %s: rc %d: %s", pk[i], rc, g_log);
    }
    rc = cli("verify '%s' '%s' '%s'", good_vk, pub, good_proof);
    CHECK_MSG(rc == 0, "the genuine key and proof: rc %d: %s", rc, g_log);
    json_decref(vk);
    json_decref(pr);
}

/* Offset of section `id`'s payload in an iden3 file (zkey, r1cs), or 0. */
static size_t iden3_payload(const uint8_t *b, size_t n, uint32_t id) {
    size_t off = 12;
    uint32_t ns;
    memcpy(&ns, b + 8, 4);
    for (uint32_t i = 0; i < ns && off + 12 <= n; i++) {
        uint32_t sid;
        uint64_t sz;
        memcpy(&sid, b + off, 4);
        memcpy(&sz, b + off + 4, 8);
        if (sid == id) return off + 12;
        off += 12 + (size_t)sz;
    }
    return 0;
}

static const char *write_bytes(const char *name, const uint8_t *b, size_t n) {
    const char *path = tmp(name);
    FILE *f = fopen(path, "wb");
    if (!f) return NULL;
    size_t w = fwrite(b, 1, n, f);
    return fclose(f) == 0 && w == n ? path : NULL;
}

/* The same in the binary key formats: a zkey's header points and IC, a bellperson .vk. */
TEST(reports, degenerate_binary_keys_are_refused) {
    size_t n;
    uint8_t *z = test_slurp(FIX("multiplier", "circuit_final.zkey"), &n);
    REQUIRE(z);
    const char *wt = FIX("multiplier", "witness.wtns");
    size_t h = iden3_payload(z, n, 2), icp = iden3_payload(z, n, 3);
    REQUIRE(h && icp);
    /* header: n8q q n8r r nVars nPublic domain, then alpha1 beta1 beta2 gamma2 delta1 delta2 */
    static const char *const names[6] = {"alpha1", "beta1", "beta2", "gamma2", "delta1", "delta2"};
    static const size_t sizes[6] = {96, 96, 192, 192, 96, 192};
    size_t off = h + 4 + 48 + 4 + 32 + 12;
    for (int i = 0; i < 6; i++) {
        uint8_t *c = malloc(n);
        REQUIRE(c);
        memcpy(c, z, n);
        memset(c + off, 0, sizes[i]); /* snarkjs writes infinity as zeros */
        const char *path = write_bytes("degenerate.zkey", c, n);
        free(c);
        REQUIRE(path);
        int rc = cli("prove '%s' '%s' '%s' '%s'", path, wt, tmp("dz_proof.json"), tmp("dz_public.json"));
        CHECK_MSG(rc == 3 && strstr(g_log, names[i]) && strstr(g_log, "infinity"), "zkey %s: rc %d: %s", names[i], rc,
                  g_log);
        off += sizes[i];
    }
    for (int i = 0; i < 2; i++) { /* IC[0], IC[1] */
        uint8_t *c = malloc(n);
        REQUIRE(c);
        memcpy(c, z, n);
        memset(c + icp + (size_t)i * 96, 0, 96);
        const char *path = write_bytes("degenerate_ic.zkey", c, n);
        free(c);
        REQUIRE(path);
        int rc = cli("prove '%s' '%s' '%s' '%s'", path, wt, tmp("dz_proof.json"), tmp("dz_public.json"));
        CHECK_MSG(rc == 3 && strstr(g_log, "IC") && strstr(g_log, "infinity"), "zkey IC[%d]: rc %d: %s", i, rc, g_log);
    }
    free(z);

    /* bellperson .vk: alpha_g1 (first point) as the uncompressed infinity 0x40 0...0 */
    const char *params = tmp("deg.params"), *vk = tmp("deg.vk"), *proof = tmp("deg_proof.bin"), *pub = tmp("deg_pub.json");
    int rc = cli("setup -q --seed 3 '%s' '%s' '%s'", FIX("multiplier", "circuit.r1cs"), params, vk);
    REQUIRE(rc == 0);
    rc = cli("prove -q --params '%s' --r1cs '%s' '%s' '%s' '%s'", params, FIX("multiplier", "circuit.r1cs"), wt, proof, pub);
    REQUIRE(rc == 0);
    uint8_t *b = test_slurp(vk, &n);
    REQUIRE(b && n > 96);
    memset(b, 0, 96);
    b[0] = 0x40;
    const char *bad = write_bytes("deg_bad.vk", b, n);
    free(b);
    REQUIRE(bad);
    rc = cli("verify --vk '%s' '%s' '%s'", bad, pub, proof);
    CHECK_MSG(rc == 3 && strstr(g_log, "alpha") && strstr(g_log, "infinity"), "bellperson vk: rc %d: %s", rc, g_log);
}

/* The verifier itself (for library users that build a key in memory): every vk point it uses at
 * infinity is a bad key, a proof point at infinity an invalid proof. */
TEST(reports, verifier_refuses_infinity_in_memory) {
    groth16_vk vk = {0};
    groth16_proof p;
    fr *pub = NULL;
    size_t n_pub = 0;
    cuzk_error e = {0};
    REQUIRE(vk_json_read(&vk, FIX("multiplier", "verification_key.json"), &e) == CUZK_OK);
    REQUIRE(proof_json_read(&p, FIX("multiplier", "proof.json"), &e) == CUZK_OK);
    REQUIRE(public_json_read(&pub, &n_pub, FIX("multiplier", "public.json"), &e) == CUZK_OK);
    CHECK_EQ_INT(groth16_verify(&vk, pub, n_pub, &p, &e), CUZK_OK);
    for (int i = 0; i < 4 + (int)n_pub + 1; i++) {
        groth16_vk v = vk;
        g1_affine ic[8];
        REQUIRE(n_pub + 1 <= 8);
        memcpy(ic, vk.ic, (n_pub + 1) * sizeof *ic);
        v.ic = ic;
        if (i == 0) g1_affine_set_infinity(&v.alpha1);
        else if (i == 1) g2_affine_set_infinity(&v.beta2);
        else if (i == 2) g2_affine_set_infinity(&v.gamma2);
        else if (i == 3) g2_affine_set_infinity(&v.delta2);
        else g1_affine_set_infinity(&ic[i - 4]);
        CHECK_MSG(groth16_verify(&v, pub, n_pub, &p, &e) == CUZK_ERR_POINT && strstr(e.msg, "infinity"), "vk point %d: %s",
                  i, e.msg);
    }
    for (int i = 0; i < 3; i++) {
        groth16_proof q = p;
        if (i == 0) g1_affine_set_infinity(&q.a);
        else if (i == 1) g2_affine_set_infinity(&q.b);
        else g1_affine_set_infinity(&q.c);
        CHECK_MSG(groth16_verify(&vk, pub, n_pub, &q, &e) == CUZK_ERR_INVALID && strstr(e.msg, "infinity"),
                  "proof point %d: %s", i, e.msg);
    }
    free(pub);
    groth16_vk_free(&vk);
}

/* ---- strings from files reach the terminal escaped ------------------------------------------ */

/* true when s holds a byte that drives a terminal: a control other than \n, DEL, or a C1 control */
static bool has_raw_control(const char *s) {
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if ((*p < 0x20 && *p != '\n') || *p == 0x7f) return true;
        if (*p == 0xc2 && p[1] >= 0x80 && p[1] <= 0x9f) return true;
    }
    return false;
}

/* A JSON "curve" (and "protocol") holding a newline, an escape sequence and a C1 CSI: the error
 * of verify stays one line, info forges no line, neither passes the escape through. */
TEST(reports, control_characters_from_files_are_escaped) {
    static const char evil[] = "bls\n\x1b[31mFORGED: OK\x07\r\xc2\x9b" "2J";
    json_error_t je;
    json_t *vk = json_load_file(FIX("multiplier", "verification_key.json"), 0, &je);
    json_t *pr = json_load_file(FIX("multiplier", "proof.json"), 0, &je);
    REQUIRE(vk && pr);
    json_object_set_new(vk, "curve", json_string(evil));
    json_object_set_new(pr, "curve", json_string(evil));
    json_object_set_new(pr, "protocol", json_string(evil));
    const char *vkp = tmp("evil_vk.json"), *prp = tmp("evil_proof.json");
    REQUIRE(json_dump_file(vk, vkp, 0) == 0 && json_dump_file(pr, prp, 0) == 0);
    json_decref(vk);
    json_decref(pr);
    char cmd[8192];
    snprintf(cmd, sizeof cmd, "{ '%s' verify '%s' '%s' '%s' 2>&1 >/dev/null; }", CLI, vkp, FIX("multiplier", "public.json"),
             FIX("multiplier", "proof.json"));
    int rc = test_run(g_log, sizeof g_log, "%s", cmd);
    int lines = 0;
    for (const char *p = g_log; *p; p++) lines += *p == '\n';
    CHECK_MSG(rc == 3 && lines == 1 && !has_raw_control(g_log) && strstr(g_log, "\\x1b[31m"), "verify: rc %d, %d lines: %s",
              rc, lines, g_log);
    /* info: the curve is shown escaped, on its own line as the description has it */
    for (int i = 0; i < 2; i++) {
        rc = cli("info '%s'", i ? prp : vkp);
        CHECK_MSG(!has_raw_control(g_log) && !strstr(g_log, "\nFORGED") && strstr(g_log, "\\n\\x1b[31mFORGED"),
                  "info %d: rc %d: %s", i, rc, g_log);
    }
}

/* A long string field: info's description used to stop at 8 KiB in the middle of a line and still
 * exit 0. Now a file string is cut with an explicit mark (the long curve is refused, in one line
 * that quotes it cut), and a description longer than the caller's buffer ends with a mark. */
TEST(reports, info_long_field_is_cut_with_a_mark) {
    json_error_t je;
    json_t *vk = json_load_file(FIX("multiplier", "verification_key.json"), 0, &je);
    REQUIRE(vk);
    char *longcurve = malloc(20001);
    REQUIRE(longcurve);
    memset(longcurve, 'c', 20000);
    longcurve[20000] = 0;
    json_object_set_new(vk, "curve", json_string(longcurve));
    free(longcurve);
    const char *vkp = tmp("long_curve_vk.json");
    REQUIRE(json_dump_file(vk, vkp, 0) == 0);
    json_decref(vk);
    int rc = cli("info '%s'", vkp);
    int lines = 0;
    for (const char *p = g_log; *p; p++) lines += *p == '\n';
    CHECK_MSG(rc == 3 || rc == 0, "rc %d", rc);
    CHECK_MSG(strstr(g_log, "more bytes)") != NULL, "no mark: %.300s", g_log);
    CHECK_MSG(strlen(g_log) < 2048 && (rc == 0 || lines == 1), "%zu bytes, %d lines", strlen(g_log), lines);
    /* the description into a buffer too small for it: complete lines, then the mark */
    char small[160];
    cuzk_error e = {0};
    cuzk_status st = file_describe(small, sizeof small, FIX("merkle_mimc5", "circuit_final.zkey"), &e);
    CHECK_MSG(st == CUZK_OK && strstr(small, "[description cut: longer than the output buffer]\n") &&
                  strlen(small) < sizeof small, "%s", small);
    const char *mark = strstr(small, "[description cut");
    CHECK_MSG(mark && (mark == small || mark[-1] == '\n'), "the mark does not start a line: %s", small);
}

/* text_escape against hand-made answers: printable ASCII and UTF-8 pass, controls do not, the cut
 * is at a character boundary with its mark. */
TEST(reports, text_escape_known_answers) {
    char o[128];
    text_escape(o, sizeof o, "a\nb\tc\\d\x1b[0m\x7f", (size_t)-1, 0);
    CHECK_MSG(!strcmp(o, "a\\nb\\tc\\\\d\\x1b[0m\\x7f"), "%s", o);
    text_escape(o, sizeof o, "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x99\x82", (size_t)-1, 0); /* é € 🙂 */
    CHECK_MSG(!strcmp(o, "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x99\x82"), "%s", o);
    text_escape(o, sizeof o, "\xc2\x9b" "2J \xff \xc3 \xed\xa0\x80", (size_t)-1, 0); /* C1 CSI, bad bytes, surrogate */
    CHECK_MSG(!strcmp(o, "\\xc2\\x9b2J \\xff \\xc3 \\xed\\xa0\\x80"), "%s", o);
    text_escape(o, sizeof o, "abcdef", (size_t)-1, 3);
    CHECK_MSG(!strcmp(o, "abc... (3 more bytes)"), "%s", o);
    text_escape(o, 40, "0123456789012345678901234567890123456789012345", (size_t)-1, 0);
    CHECK_MSG(strlen(o) < 40 && strstr(o, "more bytes)"), "%s", o);
    text_escape(o, sizeof o, "\xc3\xa9\xc3\xa9", (size_t)-1, 3); /* never half a character */
    CHECK_MSG(!strcmp(o, "\xc3\xa9... (2 more bytes)"), "%s", o);
}

/* ---- secret scalars in constant time ----------------------------------------------------- */

/* The constant-time fixed-window multiplication (used for every product with r, s) gives the
 * same points as the variable-time double-and-add, on random and edge scalars (0, 1, 2, r - 1,
 * r - 2, powers of two, every window value, all-ones windows), random points and infinity, in
 * G1 and G2; and the prover's proofs still match snarkjs's (groth16 suite, proof_fixed.json). */
TEST(reports, consttime_mul_matches_vartime) {
    fr ks[64];
    int n = 0;
    fr one, t;
    fr_one(&one);
    fr_zero(&ks[n++]);
    ks[n++] = one;
    fr_add(&ks[n++], &one, &one);
    fr_neg(&ks[n++], &one);                     /* r - 1 */
    fr_sub(&ks[n], &ks[n - 1], &one); n++;      /* r - 2 */
    t = one;
    for (int i = 0; i < 255; i++) {             /* 2^i for a spread of i */
        if (i % 37 == 0 || i == 254 || i == 63 || i == 64) ks[n++] = t;
        fr_add(&t, &t, &t);
    }
    {                                           /* 0xF...F in the low 252 bits: every window 15 */
        uint64_t c[4] = {~0ull, ~0ull, ~0ull, 0x0fffffffffffffffull};
        fr_from_canon(&ks[n++], c);
        uint64_t d[4] = {0x0123456789abcdefull, 0xfedcba9876543210ull, 0x0f1e2d3c4b5a6978ull, 0x0102030405060708ull};
        fr_from_canon(&ks[n++], d);             /* every window value */
    }
    while (n < 40) test_rand_fr(&ks[n++]);
    for (int pi = 0; pi < 4; pi++) {
        g1_affine a1;
        g2_affine a2;
        if (pi == 0) { g1_generator(&a1); g2_generator(&a2); }
        else if (pi == 1) { g1_affine_set_infinity(&a1); g2_affine_set_infinity(&a2); }
        else { test_rand_g1(&a1); test_rand_g2(&a2); }
        g1_jacobian p1, r1, v1;
        g2_jacobian p2, r2, v2;
        g1_jacobian_from_affine(&p1, &a1);
        g2_jacobian_from_affine(&p2, &a2);
        for (int i = 0; i < n; i++) {
            g1_mul_fr_consttime(&r1, &p1, &ks[i]);
            g1_mul_fr_vartime(&v1, &p1, &ks[i]);
            CHECK_MSG(g1_jacobian_eq(&r1, &v1) && g1_jacobian_is_infinity(&r1) == g1_jacobian_is_infinity(&v1),
                      "G1 point %d scalar %d", pi, i);
            g2_mul_fr_consttime(&r2, &p2, &ks[i]);
            g2_mul_fr_vartime(&v2, &p2, &ks[i]);
            CHECK_MSG(g2_jacobian_eq(&r2, &v2) && g2_jacobian_is_infinity(&r2) == g2_jacobian_is_infinity(&v2),
                      "G2 point %d scalar %d", pi, i);
        }
        /* aliasing, and a non-normalised Jacobian input (Z != 1) */
        g1_jacobian_dbl(&p1, &p1);
        g1_mul_fr_vartime(&v1, &p1, &ks[n - 1]);
        g1_mul_fr_consttime(&p1, &p1, &ks[n - 1]);
        CHECK_MSG(g1_jacobian_eq(&p1, &v1), "G1 aliased, point %d", pi);
        g2_jacobian_dbl(&p2, &p2);
        g2_mul_fr_vartime(&v2, &p2, &ks[n - 1]);
        g2_mul_fr_consttime(&p2, &p2, &ks[n - 1]);
        CHECK_MSG(g2_jacobian_eq(&p2, &v2), "G2 aliased, point %d", pi);
    }
    /* the result is on the curve in affine form */
    g1_affine g;
    g1_jacobian j, o;
    g1_generator(&g);
    g1_jacobian_from_affine(&j, &g);
    g1_mul_fr_consttime(&o, &j, &ks[n - 1]);
    g1_jacobian_to_affine(&g, &o);
    CHECK(g1_affine_is_on_curve(&g) && !g1_affine_is_infinity(&g));
}

/* ---- a build from a source archive knows its version ------------------------------------------ */

/* `git archive` (and GitHub's tarballs) write the commit into cmake/archive-commit.txt; the
 * version logic run on such a tree, outside any git repository, reports that commit instead of
 * "unknown". And `cuzk version` says which commit it is. */
TEST(reports, version_from_a_source_archive) {
    char head[64], out[4096];
    if (test_run(head, sizeof head, "command -v git") != 0)
        SKIP("git is not installed (tools/install-deps.sh installs it)");
    if (test_run(head, sizeof head, "git -C '%s' rev-parse --short HEAD 2>/dev/null", CUZK_SOURCE_DIR) != 0)
        SKIP("the sources are not a git checkout (e.g. a source archive)");
    head[strcspn(head, "\n")] = 0;
    const char *dir = tmp("archive");
    int rc = test_run(out, sizeof out,
                      "rm -rf '%s' && mkdir -p '%s' && git -C '%s' archive HEAD cmake | tar -x -C '%s' && "
                      "cd / && GIT_DIR=/nonexistent cmake -DCUZK_SOURCE_DIR='%s' -P '%s/cmake/cuzk_version.cmake' 2>&1",
                      dir, dir, CUZK_SOURCE_DIR, dir, dir, dir);
    CHECK_MSG(rc == 0 && strstr(out, head) && strstr(out, "source archive"), "rc %d, HEAD %s: %s", rc, head, out);
    /* a tree that is neither: an explicit "not built from git" */
    rc = test_run(out, sizeof out, "rm -f '%s/cmake/archive-commit.txt' && cd / && GIT_DIR=/nonexistent cmake "
                  "-DCUZK_SOURCE_DIR='%s' -P '%s/cmake/cuzk_version.cmake' 2>&1", dir, dir, dir);
    CHECK_MSG(rc == 0 && strstr(out, "not built from git"), "rc %d: %s", rc, out);
    rc = cli("version");
    CHECK_MSG(rc == 0 && strstr(g_log, "cuzk ") && strstr(g_log, "(git ") && !strstr(g_log, "unknown"), "%s", g_log);
    /* the library answers the same at run time (the commit of the build: HEAD when configured
     * at HEAD, so only its form is checked here) */
    char want[256];
    snprintf(want, sizeof want, "cuzk %s (git %s)\n", cuzk_version_string(), cuzk_git_commit());
    CHECK_MSG(!strcmp(g_log, want), "cuzk version printed '%s', the library says '%s'", g_log, want);
    CHECK(!strcmp(cuzk_version_string(), CUZK_VERSION));
    CHECK_MSG(strlen(cuzk_git_commit()) >= 7 && !strstr(cuzk_git_commit(), "not built from git"),
              "cuzk_git_commit() = '%s' in a build from a git checkout", cuzk_git_commit());
}

/* ---- what a new user reads --------------------------------------------------------------- */

/* prove --json for a zkey reported "constraints": 0; the count is in the zkey's coefficient rows
 * (snarkjs puts the public-input rows after the constraints), checked against the r1cs. */
TEST(reports, prove_json_reports_zkey_constraints) {
    struct { const char *c; unsigned n; } cases[] = {{"multiplier", 1}, {"merkle_mimc5", 1568}, {"dropped_const", 1}};
    for (int i = 0; i < 3; i++) {
        char zk[1024], wt[1024];
        snprintf(zk, sizeof zk, "%s/bls12381/%s/circuit_final.zkey", CUZK_FIXTURES_DIR, cases[i].c);
        snprintf(wt, sizeof wt, "%s/bls12381/%s/witness.wtns", CUZK_FIXTURES_DIR, cases[i].c);
        int rc = cli("prove --json '%s' '%s' '%s' '%s'", zk, wt, tmp("pj_proof.json"), tmp("pj_public.json"));
        char want[64];
        snprintf(want, sizeof want, "\"constraints\": %u,", cases[i].n);
        CHECK_MSG(rc == 0 && strstr(g_log, want), "%s: rc %d: %s", cases[i].c, rc, g_log);
    }
}

/* The constant-time multiplication is part of the generic group law: the BN254 instance (another
 * b, another twist) agrees with its variable-time double-and-add too. */
TEST(reports, consttime_mul_matches_vartime_bn254) {
    bn254_g1_affine g1;
    bn254_g2_affine g2;
    bn254_g1_generator(&g1);
    bn254_g2_generator(&g2);
    bn254_g1_jacobian p1, r1, v1;
    bn254_g2_jacobian p2, r2, v2;
    bn254_g1_jacobian_from_affine(&p1, &g1);
    bn254_g2_jacobian_from_affine(&p2, &g2);
    bn254_g1_jacobian_dbl(&p1, &p1); /* Z != 1 */
    bn254_g2_jacobian_dbl(&p2, &p2);
    for (int i = 0; i < 24; i++) {
        uint64_t c[4] = {0, 0, 0, 0};
        if (i == 1) c[0] = 1;
        else if (i == 2) c[3] = 0x3000000000000000ull;
        else if (i > 2) { test_rand_bytes(c, sizeof c); c[3] &= 0x0fffffffffffffffull; }
        bn254_fr k;
        bn254_fr_from_canon(&k, c);
        bn254_g1_mul_fr_consttime(&r1, &p1, &k);
        bn254_g1_mul_fr_vartime(&v1, &p1, &k);
        CHECK_MSG(bn254_g1_jacobian_eq(&r1, &v1), "BN254 G1 scalar %d", i);
        bn254_g2_mul_fr_consttime(&r2, &p2, &k);
        bn254_g2_mul_fr_vartime(&v2, &p2, &k);
        CHECK_MSG(bn254_g2_jacobian_eq(&r2, &v2), "BN254 G2 scalar %d", i);
    }
}
