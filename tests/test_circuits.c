/* circuits suite: the constraint-system builder and the gadgets (src/circuit, src/gadgets)
 * against independent oracles: OpenSSL's SHA-256 and the FIPS 180-4 vectors, the Poseidon known
 * answers of CIRCUITS.md, the counting model's constraint/aux counts and neptune's witness values
 * (tests/fixtures/filecoin/model_counts.txt, made by tools/gen_filecoin_fixtures.py). Every
 * circuit built here is recorded and its witness checked against every constraint. */
#include "test.h"
#include "test_filecoin.h"

#include <openssl/evp.h>
#include <openssl/sha.h>
#include <stdlib.h>

#include "circuit/cs.h"
#include "gadgets/merkle.h"
#include "gadgets/sha256.h"
#include "r1cs/pce.h"
#include "util/timer.h"
#include "groth16/groth16.h"

/* ---- helpers shared with the filecoin suite (test_filecoin.h) ---- */
bool model_lookup(const char *kind, const char *name, const char *key, uint64_t *out) {
    size_t n;
    char *txt = (char *)test_slurp(test_fixture("filecoin/model_counts.txt"), &n);
    if (!txt) return false;
    bool found = false;
    for (char *line = strtok(txt, "\n"); line && !found; line = strtok(NULL, "\n")) {
        char k[64], nm[64];
        int off = 0;
        if (sscanf(line, "%63s %63s %n", k, nm, &off) != 2 || strcmp(k, kind) || strcmp(nm, name)) continue;
        char *p = line + off, key_[64], val[128];
        int used;
        while (sscanf(p, "%63s %127s %n", key_, val, &used) == 2) {
            if (!strcmp(key_, key)) { *out = strtoull(val, NULL, 0); found = true; break; }
            p += used;
        }
    }
    free(txt);
    return found;
}

bool model_lookup_str(const char *kind, const char *name, const char *key, char *out, size_t cap) {
    size_t n;
    char *txt = (char *)test_slurp(test_fixture("filecoin/model_counts.txt"), &n);
    if (!txt) return false;
    bool found = false;
    for (char *line = strtok(txt, "\n"); line && !found; line = strtok(NULL, "\n")) {
        char k[64], nm[64];
        int off = 0;
        if (sscanf(line, "%63s %63s %n", k, nm, &off) != 2 || strcmp(k, kind) || strcmp(nm, name)) continue;
        char *p = line + off, key_[64], val[128];
        int used;
        while (sscanf(p, "%63s %127s %n", key_, val, &used) == 2) {
            if (!strcmp(key_, key)) { snprintf(out, cap, "%s", val); found = true; break; }
            p += used;
        }
    }
    free(txt);
    return found;
}

bool cs_check_recorded(cs *c, uint32_t *bad_row, char *msg, size_t cap) {
    r1cs r;
    fr *w = NULL;
    size_t nw = 0;
    cuzk_error e = {0};
    bool ok = cs_witness(c, &w, &nw) == CUZK_OK && cs_finish_r1cs(c, &r) == CUZK_OK;
    if (!ok) { snprintf(msg, cap, "no r1cs/witness: %s", c->err.msg); free(w); return false; }
    ok = r1cs_check_witness(&r, w, nw, bad_row, &e) == CUZK_OK;
    if (!ok) snprintf(msg, cap, "%s", e.msg);
    r1cs_free(&r);
    free(w);
    return ok;
}

void fr_from_hex_be(fr *out, const char *hex) {
    uint8_t b[32] = {0};
    size_t n = strlen(hex);
    for (size_t i = 0; i < n && i < 64; i++) {
        char c = hex[n - 1 - i];
        int v = c >= 'a' ? c - 'a' + 10 : c >= 'A' ? c - 'A' + 10 : c - '0';
        b[i / 2] |= (uint8_t)(v << (4 * (i % 2)));
    }
    fr_from_bytes_le(out, b, 32);
}

/* ---- builder ---- */
TEST(circuits, lc_merges_and_sorts_like_bellpepper) {
    cs c;
    REQUIRE(cs_init(&c, CS_MATRICES | CS_WITNESS) == CUZK_OK);
    fr v;
    fr_from_u64(&v, 5);
    cs_var a = cs_alloc(&c, &v), b = cs_alloc(&c, &v), x = cs_alloc_input(&c, &v);
    cs_lc lc = {0};
    cs_lc_add(&c, &lc, b, NULL);
    cs_lc_add(&c, &lc, a, NULL);
    cs_lc_add(&c, &lc, x, NULL);
    cs_lc_add(&c, &lc, b, &c.two);
    cs_lc_sub(&c, &lc, a);
    REQUIRE(lc.n == 3);
    CHECK(lc.t[0].var == x && lc.t[1].var == a && lc.t[2].var == b);
    fr three;
    fr_from_u64(&three, 3);
    CHECK(fr_is_zero(&lc.t[1].coef));   /* a - a: a zero term kept, as bellpepper's Indexer does */
    CHECK(fr_eq(&lc.t[2].coef, &three));
    cs_lc_free(&lc);
    /* finish maps aux after all inputs: ONE, x, then a, b */
    cs_lc *A = cs_tmp(&c, 0), *B = cs_tmp(&c, 1), *C = cs_tmp(&c, 2);
    cs_lc_add(&c, A, a, NULL);
    cs_lc_add(&c, B, CS_ONE, NULL);
    cs_lc_add(&c, C, x, NULL);
    cs_enforce(&c, A, B, C);
    r1cs r;
    REQUIRE(cs_finish_r1cs(&c, &r) == CUZK_OK);
    CHECK_EQ_INT(r.n_vars, 4);
    CHECK_EQ_INT(r.n_public, 1);
    CHECK_EQ_INT(r.n_constraints, 1);
    CHECK_EQ_INT(r.a.col[0], 2);
    CHECK_EQ_INT(r.c.col[0], 1);
    r1cs_free(&r);
    cs_free(&c);
}

/* ---- Boolean gadgets: every operand kind and value, folding as bellpepper ---- */
static cs_bool mk(cs *c, int kind, bool v) {
    if (kind == 0) return bool_const(v);
    cs_bool b = bool_alloc(c, kind == 1 ? v : !v);
    return kind == 1 ? b : bool_not(b);
}

TEST(circuits, boolean_ops_all_kinds) {
    for (int op = 0; op < 4; op++)
        for (int ka = 0; ka < 3; ka++)
            for (int kb = 0; kb < 3; kb++)
                for (int kc = 0; kc < 3; kc++)
                    for (int vals = 0; vals < 8; vals++) {
                        if (op < 2 && kc) continue;
                        bool va = vals & 1, vb = (vals >> 1) & 1, vcv = (vals >> 2) & 1;
                        cs c;
                        REQUIRE(cs_init(&c, CS_MATRICES | CS_WITNESS) == CUZK_OK);
                        cs_bool a = mk(&c, ka, va), b = mk(&c, kb, vb), cc = mk(&c, kc, vcv), r;
                        uint64_t c0 = c.n_constraints;
                        bool want;
                        if (op == 0) { r = bool_xor(&c, a, b); want = va ^ vb; }
                        else if (op == 1) { r = bool_and(&c, a, b); want = va & vb; }
                        else if (op == 2) { r = bool_sha256_ch(&c, a, b, cc); want = (va & vb) ^ (!va & vcv); }
                        else { r = bool_sha256_maj(&c, a, b, cc); want = (va & vb) ^ (va & vcv) ^ (vb & vcv); }
                        uint64_t used = c.n_constraints - c0;
                        CHECK_MSG(r.value == want, "op %d kinds %d%d%d vals %d", op, ka, kb, kc, vals);
                        if (r.kind != BOOL_CONST) {
                            fr x;
                            cs_value(&c, &x, r.var);
                            bool vv = r.kind == BOOL_IS ? r.value : !r.value;
                            CHECK(vv ? fr_is_one(&x) : fr_is_zero(&x));
                        }
                        /* folding: no constraint iff the result comes from constants alone or an
                         * operand; an all-constant call never allocates */
                        if (ka == 0 && kb == 0 && (op < 2 || kc == 0)) CHECK(used == 0 && r.kind == BOOL_CONST);
                        if (op >= 2 && ka && kb && kc) CHECK_EQ_INT(used, op == 2 ? 1 : 2);
                        if (op < 2 && ka && kb) CHECK_EQ_INT(used, 1);
                        uint32_t bad;
                        char msg[600];
                        CHECK_MSG(cs_check_recorded(&c, &bad, msg, sizeof msg), "op %d: %s", op, msg);
                        cs_free(&c);
                    }
}

/* ---- SHA-256 ---- */
static void bytes_to_bits_be(cs *c, cs_bool *bits, const uint8_t *m, size_t n, bool alloc) {
    for (size_t i = 0; i < 8 * n; i++) {
        bool v = (m[i / 8] >> (7 - i % 8)) & 1;
        bits[i] = alloc ? bool_alloc(c, v) : bool_const(v);
    }
}
static void bits_be_to_bytes(uint8_t *out, const cs_bool *bits, size_t nbytes) {
    for (size_t i = 0; i < nbytes; i++) {
        out[i] = 0;
        for (int k = 0; k < 8; k++) out[i] |= (uint8_t)(bits[8 * i + k].value << (7 - k));
    }
}

/* SHA-256 of m in the circuit (alloc: message bits allocated), result bytes; checks the record */
static bool sha_circuit(uint8_t out[32], const uint8_t *m, size_t n, unsigned flags, bool alloc, uint64_t *constraints,
                        uint64_t *aux) {
    cs c;
    if (cs_init(&c, flags) != CUZK_OK) return false;
    cs_bool *bits = malloc((8 * n + 1) * sizeof *bits), res[256];
    bytes_to_bits_be(&c, bits, m, n, alloc);
    uint64_t c0 = c.n_constraints, a0 = c.n_aux;
    sha256_gadget(&c, res, bits, 8 * n);
    bits_be_to_bytes(out, res, 32);
    if (constraints) *constraints = c.n_constraints - c0;
    if (aux) *aux = c.n_aux - a0;
    bool ok = c.status == CUZK_OK;
    if (ok && (flags & CS_MATRICES)) {
        uint32_t bad;
        char msg[600];
        ok = cs_check_recorded(&c, &bad, msg, sizeof msg);
        if (!ok) printf("    sha256 circuit unsatisfied: %s\n", msg);
    }
    free(bits);
    cs_free(&c);
    return ok;
}

TEST(circuits, sha256_fips180_vectors) {
    static const struct { const char *msg; const char *hex; } v[] = {
        {"abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"},
        {"", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"},
        {"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
         "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"},
        {"abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
         "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1"}};
    for (size_t i = 0; i < sizeof v / sizeof *v; i++) {
        uint8_t got[32], want[32];
        for (int k = 0; k < 32; k++) sscanf(v[i].hex + 2 * k, "%2hhx", &want[k]);
        for (int mode = 0; mode < 2; mode++) {
            REQUIRE(sha_circuit(got, (const uint8_t *)v[i].msg, strlen(v[i].msg), mode ? CS_WITNESS : CS_MATRICES | CS_WITNESS,
                                true, NULL, NULL));
            CHECK_MSG(!memcmp(got, want, 32), "vector %zu mode %d", i, mode);
        }
    }
}

TEST(circuits, sha256_random_vs_openssl) {
    int iters = test_iters(6);
    for (int it = 0; it < iters; it++) {
        size_t n = (size_t)(test_rand64() % 130);
        uint8_t m[130], got[32], want[32];
        test_rand_bytes(m, n);
        SHA256(m, n, want);
        bool alloc = it % 3 != 2;   /* also constant messages: everything folds */
        REQUIRE(sha_circuit(got, m, n, it % 2 ? CS_WITNESS : CS_MATRICES | CS_WITNESS, alloc, NULL, NULL));
        CHECK_MSG(!memcmp(got, want, 32), "len %zu alloc %d", n, alloc);
    }
}

TEST(circuits, sha256_counts_equal_model) {
    static const struct { const char *name; size_t bytes; } v[] = {
        {"sha256_512", 64}, {"sha256_len_8", 1}, {"sha256_len_440", 55}, {"sha256_len_448", 56}, {"sha256_len_1024", 128}};
    uint8_t m[128], out[32];
    test_rand_bytes(m, sizeof m);
    for (size_t i = 0; i < sizeof v / sizeof *v; i++) {
        uint64_t want_c, want_a, got_c[2], got_a[2];
        REQUIRE(model_lookup("gadget", v[i].name, "constraints", &want_c) && model_lookup("gadget", v[i].name, "aux", &want_a));
        for (int mode = 0; mode < 2; mode++) {
            REQUIRE(sha_circuit(out, m, v[i].bytes, mode ? 0 : CS_MATRICES | CS_WITNESS, true, &got_c[mode], &got_a[mode]));
            CHECK_MSG(got_c[mode] == want_c && got_a[mode] == want_a, "%s mode %d: %llu/%llu, model %llu/%llu", v[i].name, mode,
                      (unsigned long long)got_c[mode], (unsigned long long)got_a[mode], (unsigned long long)want_c,
                      (unsigned long long)want_a);
        }
    }
    /* one compression with the constant IV (25,840) and a fully variable state (26,192) */
    for (int var = 0; var < 2; var++) {
        cs c;
        REQUIRE(cs_init(&c, CS_MATRICES | CS_WITNESS) == CUZK_OK);
        cs_bool blk[512];
        bytes_to_bits_be(&c, blk, m, 64, true);
        cs_u32 cur[8];
        static const uint32_t iv[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
        for (int k = 0; k < 8; k++) {
            cur[k] = u32_constant(iv[k]);
            if (var) for (int b = 0; b < 32; b++) cur[k].bits[b] = bool_alloc(&c, cur[k].bits[b].value);
        }
        uint64_t c0 = c.n_constraints, a0 = c.n_aux, want_c, want_a;
        sha256_compress_gadget(&c, cur, blk, cur);
        const char *nm = var ? "sha256_compress_var" : "sha256_compress_const_iv";
        REQUIRE(model_lookup("gadget", nm, "constraints", &want_c) && model_lookup("gadget", nm, "aux", &want_a));
        CHECK_EQ_INT(c.n_constraints - c0, want_c);
        CHECK_EQ_INT(c.n_aux - a0, want_a);
        uint32_t bad;
        char msg[600];
        CHECK_MSG(cs_check_recorded(&c, &bad, msg, sizeof msg), "%s", msg);
        cs_free(&c);
    }
}

/* ---- AllocatedNum ---- */
TEST(circuits, num_gadgets) {
    cs c;
    REQUIRE(cs_init(&c, CS_MATRICES | CS_WITNESS) == CUZK_OK);
    fr x, y;
    uint64_t r[4];
    for (int i = 0; i < 4; i++) r[i] = test_rand64();
    r[3] &= 0x3fffffffffffffffull;
    fr_from_canon(&x, r);
    fr_from_u64(&y, test_rand64());
    cs_num a = num_alloc(&c, &x), b = num_alloc(&c, &y);
    cs_num s = num_add(&c, &a, &b), p = num_mul(&c, &a, &b), sq = num_square(&c, &a);
    fr t;
    fr_add(&t, &x, &y);
    CHECK(fr_eq(&s.value, &t));
    fr_mul(&t, &x, &y);
    CHECK(fr_eq(&p.value, &t));
    fr_sqr(&t, &x);
    CHECK(fr_eq(&sq.value, &t));
    cs_num in = num_inputize(&c, &p);
    CHECK_EQ_INT(c.n_inputs, 2);
    num_enforce_equal(&c, &p, &p);
    uint64_t c0 = c.n_constraints, a0 = c.n_aux, want_c, want_a;
    cs_bool bits[255];
    num_to_bits_le(&c, bits, &a);
    REQUIRE(model_lookup("gadget", "to_bits_le", "constraints", &want_c) && model_lookup("gadget", "to_bits_le", "aux", &want_a));
    CHECK_EQ_INT(c.n_constraints - c0, want_c);
    CHECK_EQ_INT(c.n_aux - a0, want_a);
    for (int i = 0; i < 255; i++) CHECK(bits[i].value == ((r[i / 64] >> (i % 64)) & 1));
    pack_into_inputs(&c, bits, 255);   /* 2 inputs: 254 + 1 bits */
    CHECK_EQ_INT(c.n_inputs, 4);
    (void)in;
    uint32_t bad;
    char msg[600];
    CHECK_MSG(cs_check_recorded(&c, &bad, msg, sizeof msg), "%s", msg);
    cs_free(&c);
    /* a wrong value is caught: the check is not vacuous */
    REQUIRE(cs_init(&c, CS_MATRICES | CS_WITNESS) == CUZK_OK);
    a = num_alloc(&c, &x);
    b = num_alloc(&c, &y);
    p = num_mul(&c, &a, &b);
    fr_add(&c.aux_w[p.var & ~CS_AUX], &c.aux_w[p.var & ~CS_AUX], &c.one);
    CHECK(!cs_check_recorded(&c, &bad, msg, sizeof msg));
    cs_free(&c);
}

TEST(circuits, insert_every_position) {
    for (int arity = 2; arity <= 8; arity *= 2) {
        int nb = arity == 2 ? 1 : arity == 4 ? 2 : 3;
        for (int idx = 0; idx < arity; idx++) {
            cs c;
            REQUIRE(cs_init(&c, CS_MATRICES | CS_WITNESS) == CUZK_OK);
            fr v;
            fr_from_u64(&v, 1000);
            cs_num el = num_alloc(&c, &v), sib[7], out[8];
            for (int i = 0; i < arity - 1; i++) { fr_from_u64(&v, (uint64_t)i + 1); sib[i] = num_alloc(&c, &v); }
            cs_bool bits[3];
            for (int i = 0; i < nb; i++) bits[i] = bool_alloc(&c, (idx >> i) & 1);
            uint64_t c0 = c.n_constraints, a0 = c.n_aux, want_c, want_a;
            num_insert(&c, out, &el, bits, sib, arity);
            char nm[32];
            snprintf(nm, sizeof nm, "insert_%d", arity);
            REQUIRE(model_lookup("gadget", nm, "constraints", &want_c) && model_lookup("gadget", nm, "aux", &want_a));
            CHECK_EQ_INT(c.n_constraints - c0, want_c);
            CHECK_EQ_INT(c.n_aux - a0, want_a);
            for (int pos = 0, k = 0; pos < arity; pos++) {
                fr want;
                if (pos == idx) fr_from_u64(&want, 1000);
                else fr_from_u64(&want, (uint64_t)(k++) + 1);
                CHECK_MSG(fr_eq(&out[pos].value, &want), "arity %d index %d position %d", arity, idx, pos);
            }
            uint32_t bad;
            char msg[600];
            CHECK_MSG(cs_check_recorded(&c, &bad, msg, sizeof msg), "%s", msg);
            cs_free(&c);
        }
    }
}

/* ---- Poseidon ---- */
static const char *kat_hex(int a) {
    switch (a) {
    case 2: return "396508d75e76a56b739e0fd902efe161a6fba9339d05a69d2e203c369a02e7ff";
    case 4: return "58a54b10a9e5848a00db3c6579229399fb6b4605bf1327ec019814ff6662075d";
    case 8: return "2394611da3a5de5512010042116770774b682e9d9cc4aed92a9934f56d38a5e6";
    default: return "0c0fc1b2e5227f286ca537e232ebe87a09f3dcd8ccb08fc1cee3bbc32b693163";
    }
}

TEST(circuits, poseidon_known_answers_both_modes) {
    static const int ar[4] = {2, 4, 8, 11};
    for (int k = 0; k < 4; k++) {
        int a = ar[k];
        fr want, in[11], got;
        fr_from_hex_be(&want, kat_hex(a));
        for (int i = 0; i < a; i++) fr_from_u64(&in[i], (uint64_t)i);
        REQUIRE(poseidon_hash_plain(&got, in, a));
        CHECK_MSG(fr_eq(&got, &want), "plain arity %d", a);
        REQUIRE(poseidon_hash(&got, in, a));
        CHECK_MSG(fr_eq(&got, &want), "optimised arity %d", a);
        uint64_t want_c, want_a, want_wa;
        char nm[32], hexsum[80];
        snprintf(nm, sizeof nm, "poseidon_%d", a);
        REQUIRE(model_lookup("gadget", nm, "constraints", &want_c) && model_lookup("gadget", nm, "aux", &want_a));
        char an[8];
        snprintf(an, sizeof an, "%d", a);
        REQUIRE(model_lookup("poseidon_witness", an, "aux", &want_wa) && model_lookup_str("poseidon_witness", an, "sha256", hexsum, sizeof hexsum));
        fr *wit[2] = {NULL, NULL};
        for (int mode = 0; mode < 2; mode++) {
            cs c;
            REQUIRE(cs_init(&c, mode ? CS_WITNESS : CS_MATRICES | CS_DENSITY | CS_WITNESS) == CUZK_OK);
            cs_num nin[11];
            for (int i = 0; i < a; i++) nin[i] = num_alloc(&c, &in[i]);
            uint64_t c0 = c.n_constraints, a0 = c.n_aux;
            cs_num h = poseidon_gadget(&c, nin, a);
            REQUIRE(c.status == CUZK_OK);
            CHECK_MSG(fr_eq(&h.value, &want), "circuit arity %d mode %d", a, mode);
            CHECK_EQ_INT(c.n_constraints - c0, want_c);
            CHECK_EQ_INT(c.n_aux - a0, want_a);
            fr check;
            cs_value(&c, &check, h.var);
            CHECK(fr_eq(&check, &want));
            /* the aux values equal neptune's optimised-form witness (model/neptune_circuit_witness.py) */
            uint8_t dg[32], b[32];
            EVP_MD_CTX *sc = EVP_MD_CTX_new();
            REQUIRE(sc && EVP_DigestInit_ex(sc, EVP_sha256(), NULL));
            for (uint64_t j = a0; j < c.n_aux; j++) { fr_to_bytes_le(b, 32, &c.aux_w[j]); EVP_DigestUpdate(sc, b, 32); }
            unsigned dl = 0;
            EVP_DigestFinal_ex(sc, dg, &dl);
            EVP_MD_CTX_free(sc);
            char hx[65];
            for (int j = 0; j < 32; j++) snprintf(hx + 2 * j, 3, "%02x", dg[j]);
            CHECK_MSG(!strcmp(hx, hexsum), "arity %d mode %d: witness digest %s, model %s", a, mode, hx, hexsum);
            CHECK_EQ_INT(c.n_aux - a0, want_wa);
            wit[mode] = malloc(c.n_aux * sizeof(fr));
            memcpy(wit[mode], c.aux_w, c.n_aux * sizeof(fr));
            if (!mode) {
                uint32_t bad;
                char msg[600];
                CHECK_MSG(cs_check_recorded(&c, &bad, msg, sizeof msg), "arity %d: %s", a, msg);
            }
            cs_free(&c);
        }
        CHECK(!memcmp(wit[0], wit[1], (size_t)(a + want_a) * sizeof(fr)));
        free(wit[0]);
        free(wit[1]);
    }
}

TEST(circuits, poseidon_random_inputs_circuit_equals_plain) {
    static const int ar[4] = {2, 4, 8, 11};
    for (int it = 0; it < test_iters(2); it++)
        for (int k = 0; k < 4; k++) {
            int a = ar[k];
            fr in[11], want;
            for (int i = 0; i < a; i++) {
                uint8_t b[64];
                test_rand_bytes(b, 64);
                fr_from_bytes_wide_le(&in[i], b, 64);
            }
            REQUIRE(poseidon_hash_plain(&want, in, a));
            cs c;
            REQUIRE(cs_init(&c, CS_MATRICES | CS_WITNESS) == CUZK_OK);
            cs_num nin[11];
            for (int i = 0; i < a; i++) nin[i] = num_alloc(&c, &in[i]);
            cs_num h = poseidon_gadget(&c, nin, a);
            CHECK_MSG(fr_eq(&h.value, &want), "arity %d", a);
            uint32_t bad;
            char msg[600];
            CHECK_MSG(cs_check_recorded(&c, &bad, msg, sizeof msg), "arity %d: %s", a, msg);
            cs_free(&c);
        }
}

/* The optimised form (poseidon_hash_tag) against the plain permutation (poseidon_hash_plain_tag)
 * on random inputs and edge inputs, with the default tag and other tags; then one timing note. */
static void rand_fr_c(fr *x) {
    uint8_t b[64];
    test_rand_bytes(b, 64);
    fr_from_bytes_wide_le(x, b, 64);
}

TEST(circuits, poseidon_optimised_equals_plain) {
    static const int ar[4] = {2, 4, 8, 11};
    fr zero, one, rm1;
    fr_zero(&zero);
    fr_one(&one);
    fr_neg(&rm1, &one);   /* r - 1 */
    int n_cmp = 0;
    for (int k = 0; k < 4; k++) {
        int a = ar[k];
        const poseidon_consts *pc = poseidon_consts_get(a);
        REQUIRE(pc);
        fr in[11], tags[4], f, p;
        tags[0] = pc->tag;   /* the default, given explicitly */
        tags[1] = zero;
        tags[2] = rm1;
        rand_fr_c(&tags[3]);
        /* edge inputs: all 0, all r - 1, alternating, one r - 1 among zeros, 0..arity-1 */
        for (int e = 0; e < 5; e++) {
            for (int i = 0; i < a; i++) {
                switch (e) {
                case 0: in[i] = zero; break;
                case 1: in[i] = rm1; break;
                case 2: in[i] = i & 1 ? rm1 : one; break;
                case 3: in[i] = i == a - 1 ? rm1 : zero; break;
                default: fr_from_u64(&in[i], (uint64_t)i); break;
                }
            }
            REQUIRE(poseidon_hash(&f, in, a) && poseidon_hash_plain(&p, in, a));
            CHECK_MSG(fr_eq(&f, &p), "arity %d edge input %d, default tag", a, e);
            n_cmp++;
            for (int g = 0; g < 4; g++) {
                REQUIRE(poseidon_hash_tag(&f, in, a, &tags[g]) && poseidon_hash_plain_tag(&p, in, a, &tags[g]));
                CHECK_MSG(fr_eq(&f, &p), "arity %d edge input %d tag %d", a, e, g);
                n_cmp++;
            }
        }
        for (int it = 0; it < test_iters(60); it++) {
            for (int i = 0; i < a; i++) rand_fr_c(&in[i]);
            fr tag, f2;
            rand_fr_c(&tag);
            REQUIRE(poseidon_hash(&f, in, a) && poseidon_hash_plain(&p, in, a));
            CHECK_MSG(fr_eq(&f, &p), "arity %d random input %d, default tag", a, it);
            REQUIRE(poseidon_hash_tag(&f2, in, a, &tag) && poseidon_hash_plain_tag(&p, in, a, &tag));
            CHECK_MSG(fr_eq(&f2, &p), "arity %d random input %d, random tag", a, it);
            CHECK_MSG(!fr_eq(&f, &f2), "arity %d: another tag gives the same hash", a);   /* the tag is used */
            n_cmp += 2;
        }
    }
    CHECK_EQ_INT(n_cmp, 4 * (5 * 5 + 2 * test_iters(60)));
    /* unsupported arities: false from both */
    fr in[16] = {{{0}}}, out;
    CHECK(!poseidon_hash(&out, in, 3) && !poseidon_hash_plain(&out, in, 3));
    CHECK(!poseidon_hash(&out, in, 16) && !poseidon_hash_plain(&out, in, 16));
    /* timing note (not asserted): arity 8, one chained hash after another */
    for (int i = 0; i < 8; i++) rand_fr_c(&in[i]);
    double ns[2];
    int reps = 400;
    for (int form = 0; form < 2; form++) {
        fr x[8];
        memcpy(x, in, sizeof x);
        double t0 = now_ms();
        for (int r = 0; r < reps; r++) {
            if (form) poseidon_hash_plain(&x[r & 7], x, 8);
            else poseidon_hash(&x[r & 7], x, 8);
        }
        ns[form] = (now_ms() - t0) * 1e6 / reps;
    }
    printf("  arity 8, one thread: optimised %.1f us, plain %.1f us per hash (%.2fx)\n", ns[0] / 1e3, ns[1] / 1e3, ns[1] / ns[0]);
}

/* ---- PCE: a recorded R1CS saved and loaded back ---- */
TEST(circuits, pce_save_load_roundtrip) {
    cs c;
    REQUIRE(cs_init(&c, CS_MATRICES | CS_WITNESS) == CUZK_OK);
    fr in[8];
    for (int i = 0; i < 8; i++) fr_from_u64(&in[i], test_rand64());
    cs_num nin[8];
    for (int i = 0; i < 8; i++) nin[i] = num_alloc(&c, &in[i]);
    cs_num h = poseidon_gadget(&c, nin, 8);
    num_inputize(&c, &h);
    r1cs r, back;
    REQUIRE(cs_finish_r1cs(&c, &r) == CUZK_OK);
    char path[512];
    snprintf(path, sizeof path, "%s/poseidon8.pce", test_tmpdir());
    cuzk_error e = {0};
    REQUIRE(pce_save(path, &r, &e) == CUZK_OK);
    REQUIRE(pce_load(&back, path, &e) == CUZK_OK);
    CHECK(back.n_constraints == r.n_constraints && back.n_vars == r.n_vars && back.n_public == r.n_public);
    const csr_matrix *m1[3] = {&r.a, &r.b, &r.c}, *m2[3] = {&back.a, &back.b, &back.c};
    for (int k = 0; k < 3; k++) {
        REQUIRE(m1[k]->nnz == m2[k]->nnz && m1[k]->n_rows == m2[k]->n_rows && m1[k]->n_coef == m2[k]->n_coef);
        CHECK_MEM(m1[k]->row_ptr, m2[k]->row_ptr, (m1[k]->n_rows + 1) * sizeof(uint64_t));
        CHECK_MEM(m1[k]->col, m2[k]->col, m1[k]->nnz * sizeof(uint32_t));
        CHECK_MEM(m1[k]->coef_id, m2[k]->coef_id, m1[k]->nnz * sizeof(uint32_t));
        CHECK_MEM(m1[k]->coef, m2[k]->coef, m1[k]->n_coef * sizeof(fr));
    }
    /* the loaded R1CS gives the same proof (fixed r, s) as the recorded one, and it verifies */
    {
        fr *w = NULL;
        size_t nw = 0;
        REQUIRE(cs_witness(&c, &w, &nw) == CUZK_OK);
        bellperson_params bp;
        uint64_t seed = test_rand64();
        REQUIRE(groth16_setup_bellperson(&bp, &r, &seed, 0, &e) == CUZK_OK);
        fr rr, ss;
        fr_from_u64(&rr, test_rand64());
        fr_from_u64(&ss, test_rand64());
        groth16_proof p1, p2;
        REQUIRE(groth16_prove_bellperson(&p1, &bp, &r, w, nw, &rr, &ss, 0, NULL, &e) == CUZK_OK);
        REQUIRE(groth16_prove_bellperson(&p2, &bp, &back, w, nw, &rr, &ss, 0, NULL, &e) == CUZK_OK);
        CHECK(!memcmp(&p1, &p2, sizeof p1));
        CHECK_MSG(groth16_verify(&bp.vk, w + 1, r.n_public, &p2, &e) == CUZK_OK, "%s", e.msg);
        bellperson_params_free(&bp);
        free(w);
    }
    r1cs_free(&back);
    /* truncated and corrupted files are refused */
    size_t n;
    uint8_t *data = test_slurp(path, &n);
    REQUIRE(data);
    char bad[512];
    snprintf(bad, sizeof bad, "%s/bad.pce", test_tmpdir());
    for (int v = 0; v < 3; v++) {
        FILE *f = fopen(bad, "wb");
        REQUIRE(f);
        if (v == 0) fwrite(data, 1, n - 5, f);
        else if (v == 1) { data[0] ^= 1; fwrite(data, 1, n, f); data[0] ^= 1; }
        else { uint8_t cp = data[n - 40]; data[n - 40] = 0xff; fwrite(data, 1, n, f); data[n - 40] = cp; }
        fclose(f);
        cuzk_status st = pce_load(&back, bad, &e);
        CHECK_MSG(st == CUZK_ERR_FORMAT, "variant %d: %d", v, (int)st);
        if (st == CUZK_OK) r1cs_free(&back);
    }
    free(data);
    r1cs_free(&r);
    cs_free(&c);
}
