/* The public API alone (issue 10 item 7): built with include/ as its only include path, linked
 * against the library like any user program.
 *
 *   1. load the bundled BLS12-381 zkeys from a path and from memory; describe them;
 *   2. prove from in-memory witnesses (.wtns bytes, canonical limbs parsed here from snarkjs's
 *      witness.json / the wtns file, Montgomery limbs) with the fixtures' fixed r, s: the proof.json
 *      text equals snarkjs's proof_fixed.json (the independent oracle), in every witness form;
 *   3. verify in memory (vk JSON, vk from the pk, bellperson encoding and JSON), and reject a
 *      tampered proof, a wrong public input and a wrong input count;
 *   4. bad inputs give the documented statuses, never a crash;
 *   5. bellperson parameters made by cuzk_setup for the merkle circuit, loaded from memory, an
 *      engine circuit made from the pk, an engine job of 3 partitions whose synthesis callback
 *      writes canonical limbs: every proof verifies against the .vk bytes, and a fixed-r, s
 *      prove of the same key gives a proof that verifies too;
 *   6. engine circuits from zkeys (multiplier, merkle_mimc5): jobs of 3 partitions whose proofs
 *      verify against snarkjs's verification_key.json, and with the fixtures' fixed r, s (given to
 *      the job in Montgomery form, computed here by 256 modular doublings) equal byte for byte the
 *      proof cuzk_prove gives, whose proof.json is snarkjs's proof_fixed.json; check_witness with
 *      the zkey's .r1cs (a job of a bad witness fails UNSAT) and without it (CUZK_ERR_ARG);
 *   7. cuzk_witness_convert (.wtns bytes to Montgomery and canonical limbs, its errors), a job's
 *      192 bytes through cuzk_proof_from_bellperson give snarkjs's proof_fixed.json, a circuit is
 *      released (CUZK_ERR_BUSY while a job holds it) and proves again, the CPU backend's device
 *      figures (cuzk_engine_device_stats);
 *   8. BN254 (bn128) zkeys as engine circuits: jobs of 3 partitions from .wtns bytes whose 256-byte
 *      proofs verify against snarkjs's verification_key.json and, with the fixtures' r, s, give
 *      cuzk_prove's proof and snarkjs's proof_fixed.json / public.json (cuzk_proof_from_bytes);
 *      witnesses of the wrong length or curve, unsatisfied (check_witness), not canonical in
 *      BN254's field or without ONE fail the job with the reason; BLS12-381 and BN254 jobs
 *      interleaved in one engine under one host budget; a queued BN254 job cancelled;
 *   9. the device list (cuzk_gpu_device_count / cuzk_gpu_device_info); the MSM options
 *      (cuzk_msm_opts: a bad accumulation, the removed batch-affine one (3) included, refused by
 *      prover and engine, valid ones taken per prover).
 * Exit status 0 when every check passed, 1 otherwise; one line per failed check on stderr.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cuzk/cuzk.h"
#include "cuzk/engine.h"
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
        cuzk_error e_ = {0};                                                                                           \
        (void)e_;                                                                                                      \
        cuzk_status got_ = (call);                                                                                     \
        g_checks++;                                                                                                    \
        if (got_ != (want)) {                                                                                          \
            g_fail++;                                                                                                  \
            fprintf(stderr, "FAIL %s:%d: %s -> %s, expected %s\n", __FILE__, __LINE__, #call, cuzk_status_str(got_),   \
                    cuzk_status_str(want));                                                                            \
        }                                                                                                              \
    } while (0)

/* ---- helpers ------------------------------------------------------------------------------------ */
static uint8_t *slurp(const char *rel, size_t *len) {
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", CUZK_FIXTURES_DIR, rel);
    FILE *f = fopen(path, "rb");
    if (!f) { fprintf(stderr, "cannot open %s\n", path); return NULL; }
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *b = malloc((size_t)n + 1);
    if (b && fread(b, 1, (size_t)n, f) != (size_t)n) { free(b); b = NULL; }
    fclose(f);
    if (b) b[n] = 0;
    *len = (size_t)n;
    return b;
}

static uint8_t *slurp_abs(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *b = malloc((size_t)n + 1);
    if (b && fread(b, 1, (size_t)n, f) != (size_t)n) { free(b); b = NULL; }
    fclose(f);
    *len = (size_t)n;
    return b;
}

/* 0x-hex (at most 64 digits) -> 32 bytes little-endian */
static void hex_le32(uint8_t out[32], const char *hex) {
    memset(out, 0, 32);
    size_t n = strlen(hex);
    for (size_t i = 0; i < n && i < 64; i++) {
        char c = hex[n - 1 - i];
        int v = c >= 'a' ? c - 'a' + 10 : c >= 'A' ? c - 'A' + 10 : c - '0';
        out[i / 2] |= (uint8_t)(v << (4 * (i % 2)));
    }
}

/* decimal string -> 4 limbs (canonical limbs of the public API), by multiply-and-add */
static void dec_limbs(uint64_t l[4], const char *s) {
    memset(l, 0, 32);
    for (; *s >= '0' && *s <= '9'; s++) {
        unsigned __int128 carry = (unsigned)(*s - '0');
        for (int i = 0; i < 4; i++) {
            unsigned __int128 t = (unsigned __int128)l[i] * 10 + carry;
            l[i] = (uint64_t)t;
            carry = t >> 64;
        }
    }
}

/* witness.json of snarkjs (an array of decimal strings) -> n canonical values */
static uint64_t *witness_json_canon(const char *text, size_t *n) {
    size_t cap = 16, k = 0;
    uint64_t *w = malloc(cap * 32);
    for (const char *p = text; w && (p = strchr(p, '"')); ) {
        p++;
        if (k == cap) { cap *= 2; w = realloc(w, cap * 32); if (!w) break; }
        dec_limbs(w + 4 * k++, p);
        p = strchr(p, '"');
        if (!p) break;
        p++;
    }
    *n = k;
    return w;
}

/* .wtns bytes -> n canonical values (FORMATS.md section 2: sections 1 (n8, prime, n) and 2 (values,
 * little-endian canonical): parsed here independently of the library) */
static uint64_t *wtns_canon(const uint8_t *b, size_t len, size_t *n) {
    *n = 0;
    if (len < 12 || memcmp(b, "wtns", 4)) return NULL;
    uint32_t nsec;
    memcpy(&nsec, b + 8, 4);
    size_t off = 12;
    uint32_t count = 0;
    const uint8_t *vals = NULL;
    for (uint32_t s = 0; s < nsec && off + 12 <= len; s++) {
        uint32_t id;
        uint64_t sz;
        memcpy(&id, b + off, 4);
        memcpy(&sz, b + off + 4, 8);
        off += 12;
        if (id == 1) memcpy(&count, b + off + 4 + 32, 4);
        if (id == 2) vals = b + off;
        off += sz;
    }
    if (!vals || !count) return NULL;
    uint64_t *w = malloc((size_t)count * 32);
    if (w) memcpy(w, vals, (size_t)count * 32);
    *n = count;
    return w;
}

static int text_eq_trim(const char *a, size_t na, const char *b, size_t nb) {
    while (na && (a[na - 1] == '\n' || a[na - 1] == ' ')) na--;
    while (nb && (b[nb - 1] == '\n' || b[nb - 1] == ' ')) nb--;
    return na == nb && !memcmp(a, b, na);
}

static const char *k_r_hex = "1ab4b9a7f2c0d3e5a6978877665544332211ffeeddccbbaa9988776655443322";
static const char *k_s_hex = "2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f90a1b";
/* r of BLS12-381 (the group order), little-endian: a fixed r equal to it must be refused */
static const char *k_order_hex = "73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001";

/* The engine options of the CPU engine tests: 2 synthesis workers, 2 prove threads, no trace. */
static cuzk_engine_opts cpu_engine_opts(void) {
    cuzk_engine_opts eo = {0};
    eo.backend = CUZK_BACKEND_CPU;
    eo.synthesis_workers = 2;
    eo.prove_threads = 2;
    eo.no_trace = 1;
    return eo;
}

/* A CPU prover on pk (*pv, the caller frees it) proves w with fixed r, s (32 bytes each) into *out;
 * checks the create, the prove and that the proof JSON equals want (flen bytes: snarkjs's
 * proof_fixed.json for the fixtures' r, s). */
static void prove_fixed_rs(cuzk_prover **pv, cuzk_pk *pk, const cuzk_witness *w, const uint8_t *r, const uint8_t *s,
                           cuzk_proof *out, const char *want, size_t flen, cuzk_error *e) {
    cuzk_prover_opts po = {0};
    po.backend = CUZK_BACKEND_CPU;
    CHECK_ST(cuzk_prover_create(pv, pk, &po, e), CUZK_OK);
    cuzk_proof_opts fo = {0};
    fo.fixed_r = r;
    fo.fixed_s = s;
    if (*pv) CHECK_ST(cuzk_prove(*pv, out, w, &fo, NULL, e), CUZK_OK);
    CHECK(out->proof_json && text_eq_trim(out->proof_json, out->proof_json_len, want, flen));
}

/* ---- 1-3: snarkjs keys --------------------------------------------------------------------------- */
static void test_zkey_circuit(const char *dir) {
    char rel[256];
    size_t zlen = 0, wlen = 0, vlen = 0, flen = 0;
    snprintf(rel, sizeof rel, "bls12381/%s/circuit_final.zkey", dir);
    uint8_t *zbytes = slurp(rel, &zlen);
    snprintf(rel, sizeof rel, "bls12381/%s/witness.wtns", dir);
    uint8_t *wbytes = slurp(rel, &wlen);
    snprintf(rel, sizeof rel, "bls12381/%s/verification_key.json", dir);
    char *vkjson = (char *)slurp(rel, &vlen);
    snprintf(rel, sizeof rel, "bls12381/%s/proof_fixed.json", dir);
    char *want = (char *)slurp(rel, &flen);
    CHECK(zbytes && wbytes && vkjson && want);
    if (!zbytes || !wbytes || !vkjson || !want) goto out;

    /* 1. from a path and from memory: the same description */
    cuzk_pk *pk = NULL, *pk_mem = NULL;
    cuzk_error e = {0};
    char path[1024];
    snprintf(path, sizeof path, "%s/bls12381/%s/circuit_final.zkey", CUZK_FIXTURES_DIR, dir);
    CHECK_ST(cuzk_pk_load_zkey(&pk, path, NULL, &e), CUZK_OK);
    CHECK_ST(cuzk_pk_load_zkey_mem(&pk_mem, zbytes, zlen, NULL, &e), CUZK_OK);
    if (!pk || !pk_mem) goto out;
    free(zbytes); /* the key holds its own copy */
    zbytes = NULL;
    cuzk_pk_info a, b;
    CHECK_ST(cuzk_pk_describe(pk, &a, NULL), CUZK_OK);
    CHECK_ST(cuzk_pk_describe(pk_mem, &b, NULL), CUZK_OK);
    CHECK(a.curve == CUZK_CURVE_BLS12_381 && a.convention == CUZK_CONVENTION_SNARKJS);
    CHECK(a.n_vars == b.n_vars && a.n_public == b.n_public && a.domain_size == b.domain_size);
    /* the zkey's own count (from its coefficient rows), the same as the .r1cs has */
    CHECK(a.host_bytes > 0 && !a.has_circuit && a.n_constraints > 0 && a.n_constraints == b.n_constraints);
    CHECK(a.domain_size && (a.domain_size & (a.domain_size - 1)) == 0);

    /* 2. prove with the fixtures' r, s in three witness forms */
    cuzk_prover *pv = NULL;
    cuzk_prover_opts po = {0};
    po.backend = CUZK_BACKEND_CPU;
    po.nthreads = 2;
    CHECK_ST(cuzk_prover_create(&pv, pk_mem, &po, &e), CUZK_OK);
    if (!pv) goto out_pk;
    CHECK(!strcmp(cuzk_prover_backend_name(pv), "cpu"));
    cuzk_pk_release(pk_mem); /* the prover holds its own reference */
    pk_mem = NULL;
    uint8_t r[32], s[32];
    hex_le32(r, k_r_hex);
    hex_le32(s, k_s_hex);
    cuzk_proof_opts fo = {0};
    fo.fixed_r = r;
    fo.fixed_s = s;
    size_t n_canon = 0;
    uint64_t *canon = wtns_canon(wbytes, wlen, &n_canon);
    CHECK(canon && n_canon == a.n_vars);
    {
        /* where snarkjs's witness.json is bundled, it gives the same canonical values */
        size_t jlen = 0, nj = 0;
        snprintf(rel, sizeof rel, "bls12381/%s/witness.json", dir);
        char full[1024];
        snprintf(full, sizeof full, "%s/%s", CUZK_FIXTURES_DIR, rel);
        char *wj = access(full, R_OK) == 0 ? (char *)slurp(rel, &jlen) : NULL;
        if (wj && canon) {
            uint64_t *wjc = witness_json_canon(wj, &nj);
            CHECK(wjc && nj == n_canon && !memcmp(wjc, canon, 32 * nj));
            free(wjc);
        }
        free(wj);
    }
    cuzk_witness forms[2] = {{CUZK_WITNESS_WTNS, wbytes, wlen}, {CUZK_WITNESS_FR_CANON, canon, n_canon * 32}};
    {
        /* counts without proving: the .wtns header, the limbs' length */
        size_t cnt = 0;
        cuzk_curve cv = CUZK_CURVE_UNKNOWN;
        CHECK_ST(cuzk_witness_count(&forms[0], &cnt, &cv, &e), CUZK_OK);
        CHECK(cnt == a.n_vars && cv == CUZK_CURVE_BLS12_381);
        CHECK_ST(cuzk_witness_count(&forms[1], &cnt, &cv, &e), CUZK_OK);
        CHECK(cnt == a.n_vars && cv == CUZK_CURVE_UNKNOWN);
        cuzk_witness tw = {CUZK_WITNESS_WTNS, wbytes, wlen - 1};
        CHECK_ST(cuzk_witness_count(&tw, &cnt, NULL, &e), CUZK_ERR_FORMAT);
        CHECK_ST(cuzk_witness_count(NULL, &cnt, NULL, &e), CUZK_ERR_ARG);
        size_t blen = 0;
        uint8_t *bw = slurp("bn128/multiplier/witness.wtns", &blen);
        cuzk_witness bn = {CUZK_WITNESS_WTNS, bw, blen};
        if (bw) CHECK_ST(cuzk_witness_count(&bn, &cnt, &cv, &e), CUZK_OK);
        CHECK(!bw || (cnt == 4 && cv == CUZK_CURVE_BN254));
        free(bw);
        /* a key loaded for a witness of another length: refused at load */
        cuzk_pk *x = NULL;
        cuzk_pk_load_opts lo = {0};
        lo.expect_n_vars = a.n_vars + 1;
        CHECK_ST(cuzk_pk_load_zkey(&x, path, &lo, &e), CUZK_ERR_MISMATCH);
        CHECK(x == NULL);
        lo.expect_n_vars = a.n_vars;
        CHECK_ST(cuzk_pk_load_zkey(&x, path, &lo, &e), CUZK_OK);
        cuzk_pk_release(x);
    }
    cuzk_proof proofs[2];
    memset(proofs, 0, sizeof proofs);
    for (int f = 0; f < 2; f++) {
        cuzk_prove_timings t = {0};
        cuzk_status st = cuzk_prove(pv, &proofs[f], &forms[f], &fo, &t, &e);
        CHECK(st == CUZK_OK);
        if (st != CUZK_OK) { fprintf(stderr, "  %s form %d: %s\n", dir, f, e.msg); continue; }
        CHECK(text_eq_trim(proofs[f].proof_json, proofs[f].proof_json_len, want, flen));
        CHECK(proofs[f].has_bellperson && proofs[f].n_public == a.n_public);
        CHECK(t.backend && !strcmp(t.backend, "cpu") && t.n_vars == a.n_vars);
    }
    CHECK(!memcmp(proofs[0].bellperson, proofs[1].bellperson, 192));
    CHECK(proofs[0].n_public == 0 || !memcmp(proofs[0].public_inputs, canon + 4, 32 * (size_t)a.n_public));

    /* 3. verify in memory */
    cuzk_vk *vk = NULL, *vk_pk = NULL;
    CHECK_ST(cuzk_vk_load_json(&vk, vkjson, vlen, &e), CUZK_OK);
    CHECK_ST(cuzk_vk_from_pk(&vk_pk, pk, &e), CUZK_OK);
    if (vk && vk_pk && proofs[0].proof_json) {
        const cuzk_proof *p = &proofs[0];
        CHECK(cuzk_vk_n_public(vk) == a.n_public);
        CHECK_ST(cuzk_verify(vk, CUZK_PUBLIC_CANON, p->public_inputs, 32 * (size_t)p->n_public, CUZK_PROOF_BELLPERSON,
                             p->bellperson, 192, &e), CUZK_OK);
        CHECK_ST(cuzk_verify(vk_pk, CUZK_PUBLIC_JSON, p->public_json, p->public_json_len, CUZK_PROOF_SNARKJS_JSON,
                             p->proof_json, p->proof_json_len, &e), CUZK_OK);
        /* snarkjs's own proof verifies with our key from the pk */
        CHECK_ST(cuzk_verify(vk_pk, CUZK_PUBLIC_JSON, p->public_json, p->public_json_len, CUZK_PROOF_SNARKJS_JSON, want,
                             flen, &e), CUZK_OK);
        /* the key of the zkey's header alone (cuzk_vk_load_zkey), and the JSON text of a key
         * (cuzk_vk_json) read back: both verify the proof */
        cuzk_vk *vk_z = NULL, *vk_j = NULL;
        char *vtext = NULL;
        size_t vtlen = 0;
        CHECK_ST(cuzk_vk_load_zkey(&vk_z, path, &e), CUZK_OK);
        CHECK_ST(cuzk_vk_json(vk_pk, &vtext, &vtlen, &e), CUZK_OK);
        CHECK(vtext && vtlen == strlen(vtext) && strstr(vtext, "\"vk_alphabeta_12\""));
        if (vtext) CHECK_ST(cuzk_vk_load_json(&vk_j, vtext, vtlen, &e), CUZK_OK);
        for (int k = 0; k < 2; k++) {
            const cuzk_vk *v = k ? vk_j : vk_z;
            if (!v) continue;
            CHECK(cuzk_vk_n_public(v) == a.n_public);
            CHECK_ST(cuzk_verify(v, CUZK_PUBLIC_JSON, p->public_json, p->public_json_len, CUZK_PROOF_SNARKJS_JSON,
                                 p->proof_json, p->proof_json_len, &e), CUZK_OK);
        }
        free(vtext);
        cuzk_vk_free(vk_z);
        cuzk_vk_free(vk_j);
        /* the key-file loader reads the zkey the same way */
        CHECK_ST(cuzk_vk_load_key_file(&vk_z, path, &e), CUZK_OK);
        if (vk_z)
            CHECK_ST(cuzk_verify(vk_z, CUZK_PUBLIC_JSON, p->public_json, p->public_json_len, CUZK_PROOF_SNARKJS_JSON,
                                 p->proof_json, p->proof_json_len, &e), CUZK_OK);
        cuzk_vk_free(vk_z);
        vk_z = NULL;
        CHECK_ST(cuzk_vk_load_zkey(&vk_z, NULL, &e), CUZK_ERR_ARG);
        CHECK_ST(cuzk_vk_json(NULL, &vtext, NULL, &e), CUZK_ERR_ARG);
        /* a wrong public input */
        uint8_t *bad_pub = malloc(32 * (size_t)p->n_public + 32);
        memcpy(bad_pub, p->public_inputs, 32 * (size_t)p->n_public);
        bad_pub[0] ^= 1;
        CHECK_ST(cuzk_verify(vk, CUZK_PUBLIC_CANON, bad_pub, 32 * (size_t)p->n_public, CUZK_PROOF_BELLPERSON,
                             p->bellperson, 192, &e), CUZK_ERR_INVALID);
        CHECK(e.detail == CUZK_DETAIL_NONE);
        /* one input too many (the count is told apart by err.detail, not by the text), one too few,
         * and a non-canonical input */
        memset(bad_pub + 32 * (size_t)p->n_public, 0, 32);
        CHECK_ST(cuzk_verify(vk, CUZK_PUBLIC_CANON, bad_pub, 32 * ((size_t)p->n_public + 1), CUZK_PROOF_BELLPERSON,
                             p->bellperson, 192, &e), CUZK_ERR_MISMATCH);
        CHECK(e.detail == CUZK_DETAIL_PUBLIC_COUNT);
        if (p->n_public) {
            CHECK_ST(cuzk_verify(vk_pk, CUZK_PUBLIC_JSON, "[]", 2, CUZK_PROOF_SNARKJS_JSON, p->proof_json,
                                 p->proof_json_len, &e), CUZK_ERR_MISMATCH);
            CHECK(e.detail == CUZK_DETAIL_PUBLIC_COUNT);
        }
        memset(bad_pub, 0xff, 32);
        CHECK_ST(cuzk_verify(vk, CUZK_PUBLIC_CANON, bad_pub, 32 * (size_t)p->n_public, CUZK_PROOF_BELLPERSON,
                             p->bellperson, 192, &e), CUZK_ERR_FORMAT);
        CHECK(e.detail == CUZK_DETAIL_NONE); /* a later failure resets it */
        free(bad_pub);
        /* a tampered proof: C replaced by A (a valid point, wrong proof), and garbage bytes */
        uint8_t tp[192];
        memcpy(tp, p->bellperson, 192);
        memcpy(tp + 144, p->bellperson, 48);
        CHECK_ST(cuzk_verify(vk, CUZK_PUBLIC_CANON, p->public_inputs, 32 * (size_t)p->n_public, CUZK_PROOF_BELLPERSON,
                             tp, 192, &e), CUZK_ERR_INVALID);
        memset(tp, 0x5a, sizeof tp);
        CHECK_ST(cuzk_verify(vk, CUZK_PUBLIC_CANON, p->public_inputs, 32 * (size_t)p->n_public, CUZK_PROOF_BELLPERSON,
                             tp, 192, &e), CUZK_ERR_INVALID);
        CHECK_ST(cuzk_verify(vk, CUZK_PUBLIC_CANON, p->public_inputs, 32 * (size_t)p->n_public, CUZK_PROOF_BELLPERSON,
                             tp, 191, &e), CUZK_ERR_FORMAT);
        CHECK_ST(cuzk_verify(vk, CUZK_PUBLIC_JSON, "[", 1, CUZK_PROOF_SNARKJS_JSON, p->proof_json, p->proof_json_len, &e),
                 CUZK_ERR_FORMAT);
        CHECK_ST(cuzk_verify(NULL, CUZK_PUBLIC_CANON, NULL, 0, CUZK_PROOF_BELLPERSON, tp, 192, &e), CUZK_ERR_ARG);
    }
    cuzk_vk_free(vk);
    cuzk_vk_free(vk_pk);

    /* 4. bad inputs */
    {
        cuzk_proof bad = {0};
        cuzk_witness w = forms[1];
        w.len -= 32; /* one value short */
        CHECK_ST(cuzk_prove(pv, &bad, &w, &fo, NULL, &e), CUZK_ERR_MISMATCH);
        CHECK(bad.proof_json == NULL);
        w.len = forms[1].len - 1; /* not a multiple of 32 */
        CHECK_ST(cuzk_prove(pv, &bad, &w, &fo, NULL, &e), CUZK_ERR_ARG);
        CHECK_ST(cuzk_prove(pv, &bad, NULL, &fo, NULL, &e), CUZK_ERR_ARG);
        CHECK_ST(cuzk_prove(NULL, &bad, &forms[0], &fo, NULL, &e), CUZK_ERR_ARG);
        cuzk_proof_opts half = {0};
        half.fixed_r = r;
        CHECK_ST(cuzk_prove(pv, &bad, &forms[0], &half, NULL, &e), CUZK_ERR_ARG);
        uint8_t order[32];
        hex_le32(order, k_order_hex);
        cuzk_proof_opts big = fo;
        big.fixed_r = order;
        CHECK_ST(cuzk_prove(pv, &bad, &forms[0], &big, NULL, &e), CUZK_ERR_ARG);
        cuzk_proof_opts chk = fo;
        chk.check_witness = 1; /* a zkey loaded without its r1cs */
        CHECK_ST(cuzk_prove(pv, &bad, &forms[0], &chk, NULL, &e), CUZK_ERR_ARG);
        /* w[0] != 1; a value >= r in canonical form; a wrong value (does not satisfy) */
        uint64_t *mod = malloc(n_canon * 32);
        memcpy(mod, canon, n_canon * 32);
        mod[0] = 2;
        w = forms[1];
        w.data = mod;
        CHECK_ST(cuzk_prove(pv, &bad, &w, &fo, NULL, &e), CUZK_ERR_MISMATCH);
        mod[0] = 1;
        memset(mod + 4 * (n_canon - 1), 0xff, 32);
        CHECK_ST(cuzk_prove(pv, &bad, &w, &fo, NULL, &e), CUZK_ERR_FORMAT);
        memcpy(mod, canon, n_canon * 32);
        mod[4 * (n_canon - 1)] ^= 1;
        CHECK_ST(cuzk_prove(pv, &bad, &w, &fo, NULL, &e), CUZK_ERR_UNSAT);
        free(mod);
        /* a truncated .wtns image */
        cuzk_witness tw = {CUZK_WITNESS_WTNS, wbytes, wlen - 7};
        CHECK_ST(cuzk_prove(pv, &bad, &tw, &fo, NULL, &e), CUZK_ERR_FORMAT);
        cuzk_witness uf = {(cuzk_witness_form)99, wbytes, wlen};
        CHECK_ST(cuzk_prove(pv, &bad, &uf, &fo, NULL, &e), CUZK_ERR_ARG);
        cuzk_proof_free(&bad);
    }
    cuzk_proof_free(&proofs[0]);
    cuzk_proof_free(&proofs[1]);
    free(canon);
    cuzk_prover_destroy(pv);
out_pk:
    cuzk_pk_release(pk);
    cuzk_pk_release(pk_mem);
out:
    free(zbytes);
    free(wbytes);
    free(vkjson);
    free(want);
}

static void test_bad_keys(void) {
    cuzk_pk *pk = (cuzk_pk *)1;
    cuzk_error e = {0};
    size_t zlen = 0;
    uint8_t *z = slurp("bls12381/multiplier/circuit_final.zkey", &zlen);
    CHECK(z);
    if (!z) return;
    CHECK_ST(cuzk_pk_load_zkey_mem(&pk, z, zlen / 2, NULL, &e), CUZK_ERR_FORMAT);
    CHECK(pk == NULL);
    CHECK_ST(cuzk_pk_load_zkey_mem(&pk, (const uint8_t *)"garbage!", 8, NULL, &e), CUZK_ERR_FORMAT);
    CHECK_ST(cuzk_pk_load_zkey_mem(&pk, NULL, 10, NULL, &e), CUZK_ERR_ARG);
    CHECK_ST(cuzk_pk_load_zkey(&pk, "/nonexistent/circuit.zkey", NULL, &e), CUZK_ERR_IO);
    cuzk_pk_load_opts bn = {0};
    bn.curve = CUZK_CURVE_BN254;
    CHECK_ST(cuzk_pk_load_zkey_mem(&pk, z, zlen, &bn, &e), CUZK_ERR_CURVE); /* a bls12381 key, bn254 asked */
    CHECK(pk == NULL);
    free(z);
    /* a bn128 key loads as BN254; asking for BLS12-381 is a curve error */
    uint8_t *bz = slurp("bn128/multiplier/circuit_final.zkey", &zlen);
    if (bz) {
        CHECK_ST(cuzk_pk_load_zkey_mem(&pk, bz, zlen, NULL, &e), CUZK_OK);
        cuzk_pk_info bi;
        CHECK_ST(cuzk_pk_describe(pk, &bi, &e), CUZK_OK);
        CHECK(bi.curve == CUZK_CURVE_BN254 && bi.n_vars == 4 && bi.n_public == 1);
        cuzk_pk_release(pk);
        pk = NULL;
        cuzk_pk_load_opts bls = {0};
        bls.curve = CUZK_CURVE_BLS12_381;
        CHECK_ST(cuzk_pk_load_zkey_mem(&pk, bz, zlen, &bls, &e), CUZK_ERR_CURVE);
        CHECK(pk == NULL);
        free(bz);
    }
    CHECK_ST(cuzk_pk_describe(NULL, NULL, &e), CUZK_ERR_ARG);
    CHECK_ST(cuzk_vk_load_json(&(cuzk_vk *){NULL}, "{}", 2, &e), CUZK_ERR_FORMAT);
    CHECK_ST(cuzk_vk_load_bellperson(&(cuzk_vk *){NULL}, (const uint8_t *)"xx", 2, &e), CUZK_ERR_FORMAT);
    CHECK(!strcmp(cuzk_curve_name(CUZK_CURVE_BLS12_381), "bls12-381"));
    cuzk_pk_release(NULL);
    cuzk_prover_destroy(NULL);
    cuzk_proof_free(NULL);
    cuzk_vk_free(NULL);
}

/* ---- 5: bellperson key, engine job of 3 partitions -------------------------------------------- */
typedef struct {
    const uint64_t *canon; /* n values, canonical */
    size_t n;
    int calls[3];
} synth_state;

static cuzk_status synth(void *ctx, uint32_t partition, uint64_t *witness, size_t n_vars, cuzk_error *err) {
    synth_state *s = ctx;
    if (n_vars != s->n) return cuzk_error_set(err, CUZK_ERR_MISMATCH, __FILE__, __LINE__, "n_vars %zu", n_vars);
    if (partition < 3) s->calls[partition]++;
    memcpy(witness, s->canon, n_vars * 32);
    return CUZK_OK;
}

static void test_engine_job(const char *tmp) {
    char r1cs_path[1024], params[1024], vkp[1024];
    snprintf(r1cs_path, sizeof r1cs_path, "%s/bls12381/merkle_mimc5/circuit.r1cs", CUZK_FIXTURES_DIR);
    snprintf(params, sizeof params, "%s/api.params", tmp);
    snprintf(vkp, sizeof vkp, "%s/api.vk", tmp);
    cuzk_error e = {0};
    uint64_t seed = 42;
    cuzk_status st = cuzk_setup_files(r1cs_path, params, vkp, &seed, 2, &e);
    CHECK(st == CUZK_OK);
    if (st != CUZK_OK) { fprintf(stderr, "  setup: %s\n", e.msg); return; }
    size_t plen = 0, rlen = 0, vlen = 0, wlen = 0;
    uint8_t *pb = slurp_abs(params, &plen), *rb = slurp_abs(r1cs_path, &rlen), *vb = slurp_abs(vkp, &vlen);
    uint8_t *wb = slurp("bls12381/merkle_mimc5/witness.wtns", &wlen);
    size_t n = 0;
    uint64_t *canon = wb ? wtns_canon(wb, wlen, &n) : NULL;
    CHECK(pb && rb && vb && canon);
    cuzk_pk *pk = NULL;
    cuzk_vk *vk = NULL;
    cuzk_circuit *circ = NULL;
    cuzk_engine *eng = NULL;
    if (!pb || !rb || !vb || !canon) goto out;
    {
        /* the witness length is checked against the circuit before the parameters are decoded */
        cuzk_pk_load_opts lo = {0};
        lo.expect_n_vars = n + 1;
        CHECK_ST(cuzk_pk_load_params_mem(&pk, pb, plen, rb, rlen, &lo, &e), CUZK_ERR_MISMATCH);
        CHECK(pk == NULL && strstr(e.msg, "wires"));
        lo.expect_n_vars = n;
        CHECK_ST(cuzk_pk_load_params_mem(&pk, pb, plen, rb, rlen, &lo, &e), CUZK_OK);
        cuzk_pk_release(pk);
        pk = NULL;
    }
    CHECK_ST(cuzk_pk_load_params_mem(&pk, pb, plen, rb, rlen, NULL, &e), CUZK_OK);
    CHECK_ST(cuzk_vk_load_bellperson(&vk, vb, vlen, &e), CUZK_OK);
    if (!pk || !vk) goto out;
    cuzk_pk_info info;
    CHECK_ST(cuzk_pk_describe(pk, &info, &e), CUZK_OK);
    CHECK(info.convention == CUZK_CONVENTION_BELLPERSON && info.has_circuit && info.n_vars == n);
    CHECK(info.n_constraints == 1568 && info.n_public == 2 && info.domain_size == 2048);

    /* one prove of the same key with check_witness (the circuit is held) and fixed r, s */
    {
        cuzk_prover *pv = NULL;
        cuzk_prover_opts po = {0};
        po.backend = CUZK_BACKEND_CPU;
        CHECK_ST(cuzk_prover_create(&pv, pk, &po, &e), CUZK_OK);
        uint8_t r[32], s[32];
        hex_le32(r, k_r_hex);
        hex_le32(s, k_s_hex);
        cuzk_proof_opts fo = {r, s, 1, 0};
        cuzk_witness w = {CUZK_WITNESS_FR_CANON, canon, n * 32};
        cuzk_proof p = {0};
        if (pv) CHECK_ST(cuzk_prove(pv, &p, &w, &fo, NULL, &e), CUZK_OK);
        if (p.has_bellperson)
            CHECK_ST(cuzk_verify(vk, CUZK_PUBLIC_CANON, p.public_inputs, 32 * (size_t)p.n_public, CUZK_PROOF_BELLPERSON,
                                 p.bellperson, 192, &e), CUZK_OK);
        /* a wrong value: check_witness names a failing constraint */
        uint64_t *bad = malloc(n * 32);
        memcpy(bad, canon, n * 32);
        bad[4 * (n - 1)] ^= 1;
        cuzk_witness bw = {CUZK_WITNESS_FR_CANON, bad, n * 32};
        cuzk_proof q = {0};
        if (pv) CHECK_ST(cuzk_prove(pv, &q, &bw, &fo, NULL, &e), CUZK_ERR_UNSAT);
        free(bad);
        cuzk_proof_free(&p);
        cuzk_prover_destroy(pv);
    }

    /* the engine: a circuit from the pk, 3 partitions, canonical limbs from the callback */
    CHECK_ST(cuzk_circuit_create(&circ, pk, &e), CUZK_OK);
    cuzk_pk_release(pk); /* the circuit holds its own reference */
    pk = NULL;
    if (!circ) goto out;
    CHECK(cuzk_circuit_n_vars(circ) == n && cuzk_circuit_n_public(circ) == 2);
    cuzk_engine_opts eo = cpu_engine_opts();
    CHECK_ST(cuzk_engine_create(&eng, &eo, &e), CUZK_OK);
    if (!eng) goto out;
    CHECK(cuzk_engine_n_devices(eng) == 1);
    {
        /* the CPU backend proves from the host copies of the G1 queries: they are never released
         * (the job below proves from them) */
        size_t freed = 1;
        CHECK_ST(cuzk_engine_release_host_g1(eng, circ, &freed, &e), CUZK_ERR_UNSUPPORTED);
        CHECK(freed == 0 && strstr(e.msg, "cpu backend proves from the host copies"));
        CHECK_ST(cuzk_engine_release_host_g1(NULL, circ, &freed, &e), CUZK_ERR_ARG);
        CHECK_ST(cuzk_engine_release_host_g1(eng, NULL, NULL, &e), CUZK_ERR_ARG);
    }
    synth_state ss = {canon, n, {0, 0, 0}};
    cuzk_job_desc d = {0};
    d.circuit = circ;
    d.n_partitions = 3;
    d.synth = synth;
    d.synth_ctx = &ss;
    d.witness_form = CUZK_WITNESS_FR_CANON;
    cuzk_job_id id = 0;
    CHECK_ST(cuzk_engine_submit(eng, &d, &id, &e), CUZK_OK);
    cuzk_job_result res = {0};
    CHECK_ST(cuzk_engine_wait(eng, id, &res, &e), CUZK_OK);
    CHECK(res.state == CUZK_JOB_DONE && res.status == CUZK_OK && res.n_partitions == 3 && res.n_public == 2);
    CHECK(ss.calls[0] == 1 && ss.calls[1] == 1 && ss.calls[2] == 1);
    if (res.state == CUZK_JOB_DONE) {
        for (uint32_t i = 0; i < 3; i++) {
            const uint8_t *pub = res.public_inputs + 32 * 2 * (size_t)i;
            CHECK(!memcmp(pub, canon + 4, 64));
            CHECK_ST(cuzk_verify(vk, CUZK_PUBLIC_CANON, pub, 64, CUZK_PROOF_BELLPERSON, res.proofs + 192 * (size_t)i, 192,
                                 &e), CUZK_OK);
        }
        /* random r, s per partition: three different proofs of one witness */
        CHECK(memcmp(res.proofs, res.proofs + 192, 192) && memcmp(res.proofs + 192, res.proofs + 384, 192));
    }
    cuzk_job_result_free(&res);
    /* a callback writing a value >= r fails the job with CUZK_ERR_FORMAT */
    {
        uint64_t *bad = malloc(n * 32);
        memcpy(bad, canon, n * 32);
        memset(bad + 4 * (n - 1), 0xff, 32);
        synth_state bs = {bad, n, {0, 0, 0}};
        d.synth_ctx = &bs;
        d.n_partitions = 1;
        CHECK_ST(cuzk_engine_submit(eng, &d, &id, &e), CUZK_OK);
        cuzk_job_result br = {0};
        CHECK_ST(cuzk_engine_wait(eng, id, &br, &e), CUZK_OK);
        CHECK(br.state == CUZK_JOB_FAILED && br.status == CUZK_ERR_FORMAT);
        cuzk_job_result_free(&br);
        d.witness_form = CUZK_WITNESS_WTNS;
        CHECK_ST(cuzk_engine_submit(eng, &d, &id, &e), CUZK_ERR_ARG);
        free(bad);
    }
out:
    cuzk_engine_destroy(eng);
    cuzk_circuit_destroy(circ);
    cuzk_pk_release(pk);
    cuzk_vk_free(vk);
    free(pb);
    free(rb);
    free(vb);
    free(wb);
    free(canon);
    unlink(params);
    unlink(vkp);
}

/* ---- 6: engine circuits from zkeys ----------------------------------------------------------- */
/* The group order of BLS12-381, limbs least significant first. */
static const uint64_t k_order[4] = {0xffffffff00000001ull, 0x53bda402fffe5bfeull, 0x3339d80809a1d805ull,
                                    0x73eda753299d7d48ull};

/* x < order: x * 2^256 mod order (the Montgomery form the job's fixed_rs takes), by 256 doublings */
static void to_mont(uint64_t out[4], const uint8_t le[32]) {
    uint64_t x[4];
    memcpy(x, le, 32);
    for (int k = 0; k < 256; k++) {
        uint64_t top = x[3] >> 63;
        for (int i = 3; i > 0; i--) x[i] = (x[i] << 1) | (x[i - 1] >> 63);
        x[0] <<= 1;
        int ge = top;
        for (int i = 3; i >= 0 && !ge; i--) {
            if (x[i] != k_order[i]) { ge = x[i] > k_order[i]; break; }
            if (i == 0) ge = 1;
        }
        if (ge) {
            unsigned __int128 borrow = 0;
            for (int i = 0; i < 4; i++) {
                unsigned __int128 d = (unsigned __int128)x[i] - k_order[i] - (uint64_t)borrow;
                x[i] = (uint64_t)d;
                borrow = (d >> 64) & 1;
            }
        }
    }
    memcpy(out, x, 32);
}

static void test_zkey_engine(const char *dir) {
    char zpath[1024], rpath[1024], rel[256];
    snprintf(zpath, sizeof zpath, "%s/bls12381/%s/circuit_final.zkey", CUZK_FIXTURES_DIR, dir);
    snprintf(rpath, sizeof rpath, "%s/bls12381/%s/circuit.r1cs", CUZK_FIXTURES_DIR, dir);
    size_t wlen = 0, vlen = 0, flen = 0, n = 0;
    snprintf(rel, sizeof rel, "bls12381/%s/witness.wtns", dir);
    uint8_t *wb = slurp(rel, &wlen);
    snprintf(rel, sizeof rel, "bls12381/%s/verification_key.json", dir);
    char *vkjson = (char *)slurp(rel, &vlen);
    snprintf(rel, sizeof rel, "bls12381/%s/proof_fixed.json", dir);
    char *want = (char *)slurp(rel, &flen);
    uint64_t *canon = wb ? wtns_canon(wb, wlen, &n) : NULL;
    cuzk_pk *pk = NULL, *pk_r1cs = NULL;
    cuzk_vk *vk = NULL;
    cuzk_prover *pv = NULL;
    cuzk_circuit *circ = NULL, *circ_r1cs = NULL;
    cuzk_engine *eng = NULL;
    cuzk_proof direct = {0};
    cuzk_error e = {0};
    CHECK(wb && vkjson && want && canon);
    if (!wb || !vkjson || !want || !canon) goto out;
    CHECK_ST(cuzk_pk_load_zkey(&pk, zpath, NULL, &e), CUZK_OK);
    CHECK_ST(cuzk_vk_load_json(&vk, vkjson, vlen, &e), CUZK_OK);
    if (!pk || !vk) goto out;
    cuzk_pk_info info;
    CHECK_ST(cuzk_pk_describe(pk, &info, &e), CUZK_OK);

    /* the direct prove with the fixtures' r, s: snarkjs's proof_fixed.json */
    uint8_t r[32], s[32];
    hex_le32(r, k_r_hex);
    hex_le32(s, k_s_hex);
    {
        cuzk_witness w = {CUZK_WITNESS_FR_CANON, canon, n * 32};
        prove_fixed_rs(&pv, pk, &w, r, s, &direct, want, flen, &e);
        CHECK(direct.has_bellperson);
    }

    /* an engine circuit from the zkey: 3 partitions, fixed r, s for partitions 0 and 2 (Montgomery),
     * other values for partition 1 */
    CHECK_ST(cuzk_circuit_create(&circ, pk, &e), CUZK_OK);
    if (!circ) { fprintf(stderr, "  %s: %s\n", dir, e.msg); goto out; }
    CHECK(cuzk_circuit_n_vars(circ) == info.n_vars && cuzk_circuit_n_public(circ) == info.n_public);
    cuzk_engine_opts eo = cpu_engine_opts();
    CHECK_ST(cuzk_engine_create(&eng, &eo, &e), CUZK_OK);
    if (!eng) goto out;
    uint64_t rs[3 * 8];
    to_mont(rs, r);
    to_mont(rs + 4, s);
    memcpy(rs + 16, rs, 64);
    {
        uint8_t r1[32] = {7}, s1[32] = {9};
        to_mont(rs + 8, r1);
        to_mont(rs + 12, s1);
    }
    synth_state ss = {canon, n, {0, 0, 0}};
    cuzk_job_desc d = {0};
    d.circuit = circ;
    d.n_partitions = 3;
    d.synth = synth;
    d.synth_ctx = &ss;
    d.witness_form = CUZK_WITNESS_FR_CANON;
    d.fixed_rs = rs;
    cuzk_job_id id = 0;
    cuzk_job_result res = {0};
    CHECK_ST(cuzk_engine_submit(eng, &d, &id, &e), CUZK_OK);
    CHECK_ST(cuzk_engine_wait(eng, id, &res, &e), CUZK_OK);
    CHECK(res.state == CUZK_JOB_DONE && res.n_partitions == 3 && res.n_public == info.n_public);
    if (res.state == CUZK_JOB_DONE) {
        size_t np = info.n_public;
        for (uint32_t i = 0; i < 3; i++) {
            const uint8_t *pub = res.public_inputs + 32 * np * i;
            CHECK(np == 0 || !memcmp(pub, canon + 4, 32 * np));
            CHECK_ST(cuzk_verify(vk, CUZK_PUBLIC_CANON, pub, 32 * np, CUZK_PROOF_BELLPERSON, res.proofs + 192 * (size_t)i,
                                 192, &e), CUZK_OK);
        }
        CHECK(!memcmp(res.proofs, direct.bellperson, 192));
        CHECK(!memcmp(res.proofs + 384, direct.bellperson, 192));
        CHECK(memcmp(res.proofs + 192, direct.bellperson, 192) != 0);
    } else {
        fprintf(stderr, "  %s: job: %s\n", dir, e.msg);
    }
    cuzk_job_result_free(&res);

    /* check_witness: refused without the circuit's .r1cs; with it, a bad witness fails UNSAT */
    d.check_witness = 1;
    d.n_partitions = 1;
    d.fixed_rs = NULL;
    CHECK_ST(cuzk_engine_submit(eng, &d, &id, &e), CUZK_ERR_ARG);
    cuzk_pk_load_opts lo = {0};
    lo.r1cs_path = rpath;
    CHECK_ST(cuzk_pk_load_zkey(&pk_r1cs, zpath, &lo, &e), CUZK_OK);
    if (pk_r1cs) CHECK_ST(cuzk_circuit_create(&circ_r1cs, pk_r1cs, &e), CUZK_OK);
    if (circ_r1cs) {
        d.circuit = circ_r1cs;
        CHECK_ST(cuzk_engine_submit(eng, &d, &id, &e), CUZK_OK);
        CHECK_ST(cuzk_engine_wait(eng, id, &res, &e), CUZK_OK);
        CHECK(res.state == CUZK_JOB_DONE);
        if (res.state == CUZK_JOB_DONE)
            CHECK_ST(cuzk_verify(vk, CUZK_PUBLIC_CANON, res.public_inputs, 32 * (size_t)info.n_public,
                                 CUZK_PROOF_BELLPERSON, res.proofs, 192, &e), CUZK_OK);
        cuzk_job_result_free(&res);
        uint64_t *bad = malloc(n * 32);
        memcpy(bad, canon, n * 32);
        bad[4 * (n - 1)] ^= 1;
        synth_state bs = {bad, n, {0, 0, 0}};
        d.synth_ctx = &bs;
        CHECK_ST(cuzk_engine_submit(eng, &d, &id, &e), CUZK_OK);
        CHECK_ST(cuzk_engine_wait(eng, id, &res, &e), CUZK_OK);
        CHECK(res.state == CUZK_JOB_FAILED && res.status == CUZK_ERR_UNSAT);
        cuzk_job_result_free(&res);
        free(bad);
    }
out:
    cuzk_engine_destroy(eng);
    cuzk_circuit_destroy(circ);
    cuzk_circuit_destroy(circ_r1cs);
    cuzk_prover_destroy(pv);
    cuzk_proof_free(&direct);
    cuzk_pk_release(pk);
    cuzk_pk_release(pk_r1cs);
    cuzk_vk_free(vk);
    free(wb);
    free(vkjson);
    free(want);
    free(canon);
}

/* ---- 8: BN254 (circom bn128) engine circuits ------------------------------------------------ */
/* canonical limbs -> Montgomery limbs of `curve`, through the library (cuzk_witness_convert checks
 * w[0] == 1: the pair [1, x] is converted) */
static int mont_of(uint64_t out[4], const uint8_t le[32], cuzk_curve curve) {
    uint64_t in[8] = {1, 0, 0, 0}, m[8];
    memcpy(in + 4, le, 32);
    cuzk_witness w = {CUZK_WITNESS_FR_CANON, in, 64};
    if (cuzk_witness_convert(&w, curve, CUZK_WITNESS_FR_MONT, m, 2, NULL) != CUZK_OK) return 0;
    memcpy(out, m + 4, 32);
    return 1;
}

/* A synthesis callback over a .wtns image, in the key's field (as cuzkd writes its witnesses); an
 * optional gate holds it (a job kept in synthesis) */
typedef struct {
    const uint8_t *wtns;
    size_t len;
    cuzk_curve curve;
    volatile int gate; /* 0: waits */
} wtns_curve_state;
static cuzk_status synth_wtns_curve(void *ctx, uint32_t partition, uint64_t *witness, size_t n_vars, cuzk_error *err) {
    (void)partition;
    wtns_curve_state *s = ctx;
    while (!s->gate) usleep(1000);
    cuzk_witness w = {CUZK_WITNESS_WTNS, s->wtns, s->len};
    return cuzk_witness_convert(&w, s->curve, CUZK_WITNESS_FR_MONT, witness, n_vars, err);
}

/* The group order of BN254, little-endian hex: a canonical witness value equal to it is < BLS12-381's
 * r but not < BN254's, so only the circuit's own field refuses it */
static const char *k_bn254_order_hex = "30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f0000001";

/* A BN254 zkey's engine circuit: proofs verify against snarkjs's verification_key.json, with the
 * fixtures' r, s equal cuzk_prove's and snarkjs's proof_fixed.json (the independent oracle), public
 * inputs are the witness's; bad witnesses fail the job with the reason. */
static void test_bn254_engine(const char *dir) {
    char zpath[1024], rpath[1024], rel[256];
    snprintf(zpath, sizeof zpath, "%s/bn128/%s/circuit_final.zkey", CUZK_FIXTURES_DIR, dir);
    snprintf(rpath, sizeof rpath, "%s/bn128/%s/circuit.r1cs", CUZK_FIXTURES_DIR, dir);
    size_t wlen = 0, vlen = 0, flen = 0, plen = 0, n = 0, blslen = 0;
    snprintf(rel, sizeof rel, "bn128/%s/witness.wtns", dir);
    uint8_t *wb = slurp(rel, &wlen);
    snprintf(rel, sizeof rel, "bn128/%s/verification_key.json", dir);
    char *vkjson = (char *)slurp(rel, &vlen);
    snprintf(rel, sizeof rel, "bn128/%s/proof_fixed.json", dir);
    char *want = (char *)slurp(rel, &flen);
    snprintf(rel, sizeof rel, "bn128/%s/public.json", dir);
    char *want_pub = (char *)slurp(rel, &plen);
    uint8_t *blsw = slurp("bls12381/multiplier/witness.wtns", &blslen);
    uint64_t *canon = wb ? wtns_canon(wb, wlen, &n) : NULL;
    cuzk_pk *pk = NULL;
    cuzk_vk *vk = NULL;
    cuzk_prover *pv = NULL;
    cuzk_circuit *circ = NULL;
    cuzk_engine *eng = NULL;
    cuzk_proof direct = {0};
    cuzk_error e = {0};
    CHECK(wb && vkjson && want && want_pub && blsw && canon);
    if (!wb || !vkjson || !want || !want_pub || !blsw || !canon) goto out;
    cuzk_pk_load_opts lo = {0};
    lo.r1cs_path = rpath; /* check_witness needs the circuit */
    CHECK_ST(cuzk_pk_load_zkey(&pk, zpath, &lo, &e), CUZK_OK);
    CHECK_ST(cuzk_vk_load_json(&vk, vkjson, vlen, &e), CUZK_OK);
    if (!pk || !vk) goto out;
    cuzk_pk_info info;
    CHECK_ST(cuzk_pk_describe(pk, &info, &e), CUZK_OK);
    CHECK(info.curve == CUZK_CURVE_BN254 && info.n_vars == n && info.has_circuit);
    CHECK(cuzk_proof_bytes(CUZK_CURVE_BN254) == CUZK_PROOF_BN254_BYTES &&
          cuzk_proof_bytes(CUZK_CURVE_BLS12_381) == CUZK_PROOF_BELLPERSON_BYTES && cuzk_proof_bytes(CUZK_CURVE_UNKNOWN) == 0);

    /* the direct prove with the fixtures' r, s: snarkjs's proof_fixed.json */
    uint8_t r[32], s[32];
    hex_le32(r, k_r_hex);
    hex_le32(s, k_s_hex);
    {
        cuzk_witness w = {CUZK_WITNESS_WTNS, wb, wlen};
        prove_fixed_rs(&pv, pk, &w, r, s, &direct, want, flen, &e);
        CHECK(!direct.has_bellperson);
        if (!direct.proof_json) goto out;
    }

    CHECK_ST(cuzk_circuit_create(&circ, pk, &e), CUZK_OK);
    if (!circ) { fprintf(stderr, "  bn128/%s: %s\n", dir, e.msg); goto out; }
    CHECK(cuzk_circuit_n_vars(circ) == info.n_vars && cuzk_circuit_n_public(circ) == info.n_public);
    cuzk_engine_opts eo = cpu_engine_opts();
    CHECK_ST(cuzk_engine_create(&eng, &eo, &e), CUZK_OK);
    if (!eng) goto out;
    CHECK_ST(cuzk_engine_preload(eng, circ, &e), CUZK_OK);

    /* 3 partitions from the .wtns in BN254's field, checked constraint by constraint; the fixtures'
     * r, s (BN254 Montgomery) for partitions 0 and 2, other values for partition 1 */
    uint64_t rs[3 * 8];
    {
        uint8_t r1[32] = {7}, s1[32] = {9};
        CHECK(mont_of(rs, r, CUZK_CURVE_BN254) && mont_of(rs + 4, s, CUZK_CURVE_BN254));
        CHECK(mont_of(rs + 8, r1, CUZK_CURVE_BN254) && mont_of(rs + 12, s1, CUZK_CURVE_BN254));
        memcpy(rs + 16, rs, 64);
        uint64_t bls_r[4];
        CHECK(mont_of(bls_r, r, CUZK_CURVE_BLS12_381) && memcmp(bls_r, rs, 32) != 0); /* the field matters */
    }
    wtns_curve_state ws = {wb, wlen, CUZK_CURVE_BN254, 1};
    cuzk_job_desc d = {0};
    d.circuit = circ;
    d.n_partitions = 3;
    d.synth = synth_wtns_curve;
    d.synth_ctx = &ws;
    d.fixed_rs = rs;
    d.check_witness = 1;
    cuzk_job_id id = 0;
    cuzk_job_result res = {0};
    CHECK_ST(cuzk_engine_submit(eng, &d, &id, &e), CUZK_OK);
    CHECK_ST(cuzk_engine_wait(eng, id, &res, &e), CUZK_OK);
    CHECK(res.state == CUZK_JOB_DONE && res.n_partitions == 3 && res.n_public == info.n_public);
    CHECK(res.curve == CUZK_CURVE_BN254 && res.proof_bytes == CUZK_PROOF_BN254_BYTES);
    if (res.state == CUZK_JOB_DONE && res.proof_bytes == CUZK_PROOF_BN254_BYTES) {
        size_t np = info.n_public, pb = res.proof_bytes;
        for (uint32_t i = 0; i < 3; i++) {
            const uint8_t *pub = res.public_inputs + 32 * np * i;
            CHECK(np == 0 || !memcmp(pub, canon + 4, 32 * np)); /* w[1 .. n_public], canonical */
            CHECK_ST(cuzk_verify(vk, CUZK_PUBLIC_CANON, pub, 32 * np, CUZK_PROOF_CURVE_BYTES, res.proofs + pb * i, pb, &e),
                     CUZK_OK);
        }
        CHECK(!memcmp(res.proofs, res.proofs + 2 * pb, pb));
        CHECK(memcmp(res.proofs, res.proofs + pb, pb) != 0);
        /* partition 0 as snarkjs JSON: cuzk_prove's proof, snarkjs's proof_fixed.json and public.json */
        cuzk_proof p = {0};
        CHECK_ST(cuzk_proof_from_bytes(&p, CUZK_CURVE_BN254, res.proofs, pb, res.public_inputs, (uint32_t)np, &e), CUZK_OK);
        CHECK(p.curve == CUZK_CURVE_BN254 && !p.has_bellperson && p.n_public == np);
        CHECK(p.proof_json && !strcmp(p.proof_json, direct.proof_json) && text_eq_trim(p.proof_json, p.proof_json_len, want, flen));
        CHECK(p.public_json && !strcmp(p.public_json, direct.public_json) &&
              text_eq_trim(p.public_json, p.public_json_len, want_pub, plen));
        if (p.proof_json && p.public_json)
            CHECK_ST(cuzk_verify(vk, CUZK_PUBLIC_JSON, p.public_json, p.public_json_len, CUZK_PROOF_SNARKJS_JSON, p.proof_json,
                                 p.proof_json_len, &e), CUZK_OK);
        cuzk_proof_free(&p);
        /* the bytes' errors: length, curve, points; a proof with A and C swapped is invalid */
        CHECK_ST(cuzk_proof_from_bytes(&p, CUZK_CURVE_BN254, res.proofs, 192, res.public_inputs, (uint32_t)np, &e), CUZK_ERR_ARG);
        CHECK_ST(cuzk_proof_from_bytes(&p, CUZK_CURVE_BLS12_381, res.proofs, pb, res.public_inputs, (uint32_t)np, &e),
                 CUZK_ERR_ARG);
        CHECK_ST(cuzk_proof_from_bytes(&p, CUZK_CURVE_UNKNOWN, res.proofs, pb, res.public_inputs, (uint32_t)np, &e), CUZK_ERR_ARG);
        uint8_t bad[CUZK_PROOF_BN254_BYTES];
        memcpy(bad, res.proofs, pb);
        bad[0] ^= 1; /* A.x changes: no longer on the curve */
        CHECK_ST(cuzk_proof_from_bytes(&p, CUZK_CURVE_BN254, bad, pb, res.public_inputs, (uint32_t)np, &e), CUZK_ERR_POINT);
        CHECK(p.proof_json == NULL && strstr(e.msg, "A"));
        CHECK_ST(cuzk_verify(vk, CUZK_PUBLIC_CANON, res.public_inputs, 32 * np, CUZK_PROOF_CURVE_BYTES, bad, pb, &e),
                 CUZK_ERR_INVALID);
        memcpy(bad, res.proofs + 192, 64);
        memcpy(bad + 192, res.proofs, 64);
        CHECK_ST(cuzk_verify(vk, CUZK_PUBLIC_CANON, res.public_inputs, 32 * np, CUZK_PROOF_CURVE_BYTES, bad, pb, &e),
                 CUZK_ERR_INVALID);
        CHECK_ST(cuzk_verify(vk, CUZK_PUBLIC_CANON, res.public_inputs, 32 * np, CUZK_PROOF_CURVE_BYTES, res.proofs, 192, &e),
                 CUZK_ERR_FORMAT);
        CHECK_ST(cuzk_verify(vk, CUZK_PUBLIC_CANON, res.public_inputs, 32 * np, CUZK_PROOF_BELLPERSON, res.proofs, 192, &e),
                 CUZK_ERR_UNSUPPORTED);
    } else {
        fprintf(stderr, "  bn128/%s: job: %s\n", dir, e.msg);
    }
    cuzk_job_result_free(&res);

    /* random r, s: still a valid proof */
    d.fixed_rs = NULL;
    d.n_partitions = 1;
    CHECK_ST(cuzk_engine_submit(eng, &d, &id, &e), CUZK_OK);
    CHECK_ST(cuzk_engine_wait(eng, id, &res, &e), CUZK_OK);
    CHECK(res.state == CUZK_JOB_DONE);
    if (res.state == CUZK_JOB_DONE)
        CHECK_ST(cuzk_verify(vk, CUZK_PUBLIC_CANON, res.public_inputs, 32 * (size_t)res.n_public, CUZK_PROOF_CURVE_BYTES,
                             res.proofs, res.proof_bytes, &e), CUZK_OK);
    cuzk_job_result_free(&res);

    /* bad witnesses fail the job with the reason, and the engine keeps proving */
    {
        /* a witness of another circuit (wrong length) */
        size_t olen = 0;
        snprintf(rel, sizeof rel, "bn128/%s/witness.wtns", strcmp(dir, "multiplier") ? "multiplier" : "merkle_mimc5");
        uint8_t *other = slurp(rel, &olen);
        wtns_curve_state os = {other, olen, CUZK_CURVE_BN254, 1};
        d.synth_ctx = &os;
        memset(&e, 0, sizeof e);
        CHECK_ST(cuzk_engine_submit(eng, &d, &id, &e), CUZK_OK);
        CHECK_ST(cuzk_engine_wait(eng, id, &res, &e), CUZK_OK);
        CHECK(res.state == CUZK_JOB_FAILED && res.status == CUZK_ERR_MISMATCH && strstr(e.msg, "values") &&
              strstr(e.msg, "variables"));
        cuzk_job_result_free(&res);
        free(other);
        /* a BLS12-381 witness for the BN254 circuit */
        wtns_curve_state bs = {blsw, blslen, CUZK_CURVE_BN254, 1};
        d.synth_ctx = &bs;
        memset(&e, 0, sizeof e);
        CHECK_ST(cuzk_engine_submit(eng, &d, &id, &e), CUZK_OK);
        CHECK_ST(cuzk_engine_wait(eng, id, &res, &e), CUZK_OK);
        CHECK(res.state == CUZK_JOB_FAILED && res.status == CUZK_ERR_CURVE);
        cuzk_job_result_free(&res);
        /* a witness that does not satisfy the circuit: check_witness names the constraint */
        uint8_t *uw = malloc(wlen);
        memcpy(uw, wb, wlen);
        uw[wlen - 32] ^= 1; /* the last wire's low byte: still canonical, no longer a solution */
        wtns_curve_state us = {uw, wlen, CUZK_CURVE_BN254, 1};
        d.synth_ctx = &us;
        memset(&e, 0, sizeof e);
        CHECK_ST(cuzk_engine_submit(eng, &d, &id, &e), CUZK_OK);
        CHECK_ST(cuzk_engine_wait(eng, id, &res, &e), CUZK_OK);
        CHECK(res.state == CUZK_JOB_FAILED && res.status == CUZK_ERR_UNSAT && strstr(e.msg, "constraint"));
        cuzk_job_result_free(&res);
        free(uw);
        /* canonical limbs: BN254's r is below BLS12-381's but not a BN254 value; value 0 must be ONE */
        uint64_t *cw = malloc(32 * n);
        memcpy(cw, canon, 32 * n);
        uint8_t order[32];
        hex_le32(order, k_bn254_order_hex);
        memcpy(cw + 4 * (n - 1), order, 32);
        synth_state cs = {cw, n, {0, 0, 0}};
        d.synth = synth;
        d.synth_ctx = &cs;
        d.witness_form = CUZK_WITNESS_FR_CANON;
        d.check_witness = 0;
        memset(&e, 0, sizeof e);
        CHECK_ST(cuzk_engine_submit(eng, &d, &id, &e), CUZK_OK);
        CHECK_ST(cuzk_engine_wait(eng, id, &res, &e), CUZK_OK);
        CHECK(res.state == CUZK_JOB_FAILED && res.status == CUZK_ERR_FORMAT && strstr(e.msg, "not canonical") &&
              strstr(e.msg, "bn254"));
        cuzk_job_result_free(&res);
        memcpy(cw, canon, 32 * n);
        cw[0] = 2;
        memset(&e, 0, sizeof e);
        CHECK_ST(cuzk_engine_submit(eng, &d, &id, &e), CUZK_OK);
        CHECK_ST(cuzk_engine_wait(eng, id, &res, &e), CUZK_OK);
        CHECK(res.state == CUZK_JOB_FAILED && res.status == CUZK_ERR_MISMATCH && strstr(e.msg, "not ONE"));
        cuzk_job_result_free(&res);
        /* the good canonical witness proves and verifies */
        memcpy(cw, canon, 32 * n);
        CHECK_ST(cuzk_engine_submit(eng, &d, &id, &e), CUZK_OK);
        CHECK_ST(cuzk_engine_wait(eng, id, &res, &e), CUZK_OK);
        CHECK(res.state == CUZK_JOB_DONE);
        if (res.state == CUZK_JOB_DONE)
            CHECK_ST(cuzk_verify(vk, CUZK_PUBLIC_CANON, res.public_inputs, 32 * (size_t)res.n_public, CUZK_PROOF_CURVE_BYTES,
                                 res.proofs, res.proof_bytes, &e), CUZK_OK);
        cuzk_job_result_free(&res);
        free(cw);
    }
    {
        cuzk_engine_stats st;
        cuzk_engine_drain_frees(eng);
        cuzk_engine_get_stats(eng, &st);
        CHECK(st.budget_reserved == 0 && st.reaper_pending_bytes == 0 && st.budget_underestimates == 0);
    }
out:
    cuzk_engine_destroy(eng);
    cuzk_circuit_destroy(circ);
    cuzk_prover_destroy(pv);
    cuzk_proof_free(&direct);
    cuzk_pk_release(pk);
    cuzk_vk_free(vk);
    free(wb);
    free(vkjson);
    free(want);
    free(want_pub);
    free(blsw);
    free(canon);
}

/* BLS12-381 and BN254 circuits in one engine at once: jobs of both curves interleaved, under a
 * host budget that admits one partition at a time (one dispatcher for both), each proof in its
 * curve's bytes and verified with its curve's key; a queued BN254 job is cancelled while a held
 * BLS12-381 job keeps the only synthesis worker. */
static void test_mixed_curves_engine(void) {
    char zb[1024], zn[1024];
    snprintf(zb, sizeof zb, "%s/bls12381/multiplier/circuit_final.zkey", CUZK_FIXTURES_DIR);
    snprintf(zn, sizeof zn, "%s/bn128/merkle_mimc5/circuit_final.zkey", CUZK_FIXTURES_DIR);
    size_t bl = 0, nl = 0, bvl = 0, nvl = 0;
    uint8_t *bw = slurp("bls12381/multiplier/witness.wtns", &bl);
    uint8_t *nw = slurp("bn128/merkle_mimc5/witness.wtns", &nl);
    char *bvj = (char *)slurp("bls12381/multiplier/verification_key.json", &bvl);
    char *nvj = (char *)slurp("bn128/merkle_mimc5/verification_key.json", &nvl);
    cuzk_pk *pb = NULL, *pn = NULL;
    cuzk_vk *vb = NULL, *vn = NULL;
    cuzk_circuit *cb = NULL, *cn = NULL;
    cuzk_engine *eng = NULL;
    cuzk_error e = {0};
    CHECK(bw && nw && bvj && nvj);
    if (!bw || !nw || !bvj || !nvj) goto out;
    CHECK_ST(cuzk_pk_load_zkey(&pb, zb, NULL, &e), CUZK_OK);
    CHECK_ST(cuzk_pk_load_zkey(&pn, zn, NULL, &e), CUZK_OK);
    CHECK_ST(cuzk_vk_load_json(&vb, bvj, bvl, &e), CUZK_OK);
    CHECK_ST(cuzk_vk_load_json(&vn, nvj, nvl, &e), CUZK_OK);
    if (!pb || !pn || !vb || !vn) goto out;
    CHECK_ST(cuzk_circuit_create(&cb, pb, &e), CUZK_OK);
    CHECK_ST(cuzk_circuit_create(&cn, pn, &e), CUZK_OK);
    if (!cb || !cn) goto out;
    cuzk_engine_opts eo = cpu_engine_opts();
    /* a budget of 2 MiB: each partition (~1 MiB for the bn128 merkle circuit) waits its turn */
    eo.host_budget_bytes = (size_t)2 << 20;
    CHECK_ST(cuzk_engine_create(&eng, &eo, &e), CUZK_OK);
    if (!eng) goto out;
    wtns_curve_state sb = {bw, bl, CUZK_CURVE_BLS12_381, 1}, sn = {nw, nl, CUZK_CURVE_BN254, 1};
    enum { J = 6 };
    cuzk_job_id ids[J];
    for (int i = 0; i < J; i++) {
        cuzk_job_desc d = {0};
        d.circuit = i % 2 ? cn : cb;
        d.n_partitions = 2;
        d.synth = synth_wtns_curve;
        d.synth_ctx = i % 2 ? (void *)&sn : (void *)&sb;
        CHECK_ST(cuzk_engine_submit(eng, &d, &ids[i], &e), CUZK_OK);
    }
    for (int i = 0; i < J; i++) {
        cuzk_job_result res = {0};
        CHECK_ST(cuzk_engine_wait(eng, ids[i], &res, &e), CUZK_OK);
        int bn = i % 2;
        CHECK(res.state == CUZK_JOB_DONE && res.curve == (bn ? CUZK_CURVE_BN254 : CUZK_CURVE_BLS12_381) &&
              res.proof_bytes == (bn ? 256u : 192u));
        for (uint32_t k = 0; res.state == CUZK_JOB_DONE && k < res.n_partitions; k++)
            CHECK_ST(cuzk_verify(bn ? vn : vb, CUZK_PUBLIC_CANON, res.public_inputs + 32 * (size_t)res.n_public * k,
                                 32 * (size_t)res.n_public, CUZK_PROOF_CURVE_BYTES, res.proofs + res.proof_bytes * k,
                                 res.proof_bytes, &e), CUZK_OK);
        /* a proof of one curve is no proof for the other's key */
        if (res.state == CUZK_JOB_DONE)
            CHECK(cuzk_verify(bn ? vb : vn, CUZK_PUBLIC_CANON, res.public_inputs, 32 * (size_t)res.n_public,
                              CUZK_PROOF_CURVE_BYTES, res.proofs, res.proof_bytes, NULL) != CUZK_OK);
        cuzk_job_result_free(&res);
    }
    {
        cuzk_engine_stats st;
        cuzk_engine_drain_frees(eng);
        cuzk_engine_get_stats(eng, &st);
        CHECK(st.budget_limit == eo.host_budget_bytes && st.budget_max_reserved <= st.budget_limit);
        CHECK(st.budget_reserved == 0 && st.budget_underestimates == 0);
    }
    cuzk_engine_destroy(eng);
    eng = NULL;

    /* cancel of a queued BN254 job: one synthesis worker held by a BLS12-381 job */
    eo.synthesis_workers = 1;
    eo.host_budget_bytes = 0;
    CHECK_ST(cuzk_engine_create(&eng, &eo, &e), CUZK_OK);
    if (!eng) goto out;
    {
        wtns_curve_state held = {bw, bl, CUZK_CURVE_BLS12_381, 0};
        cuzk_job_desc d = {0};
        d.circuit = cb;
        d.n_partitions = 1;
        d.synth = synth_wtns_curve;
        d.synth_ctx = &held;
        cuzk_job_id a = 0, b = 0, c = 0;
        CHECK_ST(cuzk_engine_submit(eng, &d, &a, &e), CUZK_OK);
        d.circuit = cn;
        d.synth_ctx = &sn;
        d.n_partitions = 3;
        CHECK_ST(cuzk_engine_submit(eng, &d, &b, &e), CUZK_OK);
        d.n_partitions = 1;
        CHECK_ST(cuzk_engine_submit(eng, &d, &c, &e), CUZK_OK);
        CHECK_ST(cuzk_engine_cancel(eng, b), CUZK_OK);
        held.gate = 1;
        cuzk_job_result ra = {0}, rb = {0}, rc = {0};
        CHECK_ST(cuzk_engine_wait(eng, b, &rb, &e), CUZK_OK);
        CHECK(rb.state == CUZK_JOB_CANCELLED && rb.proofs == NULL);
        for (uint32_t k = 0; k < rb.n_partitions && rb.timings; k++) CHECK(rb.timings[k].total_ms == 0); /* never ran */
        CHECK_ST(cuzk_engine_cancel(eng, b), CUZK_ERR_ARG); /* forgotten */
        CHECK_ST(cuzk_engine_wait(eng, a, &ra, &e), CUZK_OK);
        CHECK_ST(cuzk_engine_wait(eng, c, &rc, &e), CUZK_OK);
        CHECK(ra.state == CUZK_JOB_DONE && rc.state == CUZK_JOB_DONE);
        if (rc.state == CUZK_JOB_DONE)
            CHECK_ST(cuzk_verify(vn, CUZK_PUBLIC_CANON, rc.public_inputs, 32 * (size_t)rc.n_public, CUZK_PROOF_CURVE_BYTES,
                                 rc.proofs, rc.proof_bytes, &e), CUZK_OK);
        cuzk_job_result_free(&ra);
        cuzk_job_result_free(&rb);
        cuzk_job_result_free(&rc);
        cuzk_engine_stats st;
        cuzk_engine_drain_frees(eng);
        cuzk_engine_get_stats(eng, &st);
        CHECK(st.budget_reserved == 0 && st.reaper_pending_bytes == 0);
    }
out:
    cuzk_engine_destroy(eng);
    cuzk_circuit_destroy(cb);
    cuzk_circuit_destroy(cn);
    cuzk_pk_release(pb);
    cuzk_pk_release(pn);
    cuzk_vk_free(vb);
    cuzk_vk_free(vn);
    free(bw);
    free(nw);
    free(bvj);
    free(nvj);
}

/* ---- 7: witness conversion, proofs from their 192 bytes, circuits released, device figures -- */
typedef struct {
    const uint8_t *wtns;
    size_t len;
    volatile int gate; /* 0: the callback waits (a job held in synthesis) */
} wtns_gate_state;

static cuzk_status synth_wtns_gate(void *ctx, uint32_t partition, uint64_t *witness, size_t n_vars, cuzk_error *err) {
    (void)partition;
    wtns_gate_state *s = ctx;
    while (!s->gate) usleep(1000);
    cuzk_witness w = {CUZK_WITNESS_WTNS, s->wtns, s->len};
    return cuzk_witness_convert(&w, CUZK_CURVE_BLS12_381, CUZK_WITNESS_FR_MONT, witness, n_vars, err);
}

/* The loaded library names its version (the headers' CUZK_VERSION when both are of one build) and
 * its commit: static strings, never NULL or empty, the same on every call. */
static void test_version(void) {
    const char *v = cuzk_version_string(), *c = cuzk_git_commit();
    CHECK(v && !strcmp(v, CUZK_VERSION));
    CHECK(c && c[0] && strlen(c) < 128);
    CHECK(cuzk_version_string() == v && cuzk_git_commit() == c);
}

/* The device list (cuzk_gpu_device_count, cuzk_gpu_device_info): a build without CUDA says
 * UNSUPPORTED with 0 devices; with CUDA the count is >= 0 and each device describes itself in one
 * NUL-terminated line; an ordinal past the count fails; bad arguments are CUZK_ERR_ARG. */
static void test_devices(void) {
    cuzk_error e = {0};
    int n = -1;
    cuzk_status st = cuzk_gpu_device_count(&n, &e);
    CHECK((st == CUZK_OK && n >= 0) || (st == CUZK_ERR_UNSUPPORTED && n == 0));
    char info[160];
    for (int d = 0; st == CUZK_OK && d < n; d++) {
        CHECK_ST(cuzk_gpu_device_info(d, info, sizeof info, &e), CUZK_OK);
        CHECK(info[0] && strlen(info) < sizeof info && !strchr(info, '\n'));
    }
    info[0] = 'x';
    CHECK(cuzk_gpu_device_info(n > 0 ? n : 0, info, sizeof info, &e) != CUZK_OK && info[0] == 0);
    CHECK_ST(cuzk_gpu_device_count(NULL, &e), CUZK_ERR_ARG);
    CHECK_ST(cuzk_gpu_device_info(-1, info, sizeof info, &e), CUZK_ERR_ARG);
    CHECK_ST(cuzk_gpu_device_info(0, NULL, 16, &e), CUZK_ERR_ARG);
    CHECK_ST(cuzk_gpu_device_info(0, info, 0, &e), CUZK_ERR_ARG);
}

/* The GPU MSM options are per prover and engine (cuzk_msm_opts): an accumulation outside
 * cuzk_gpu_msm_accum (3 among them: the batch-affine accumulation, removed; the message says so
 * and lists the valid values) is CUZK_ERR_ARG from cuzk_prover_create and cuzk_engine_create,
 * whatever the backend; valid ones are taken by the CPU
 * backend (which ignores them), and two provers of one key with different options prove the same
 * proof with the same r, s. */
static void test_msm_opts(void) {
    cuzk_error e = {0};
    char path[1024];
    snprintf(path, sizeof path, "%s/bls12381/multiplier/circuit_final.zkey", CUZK_FIXTURES_DIR);
    size_t wlen = 0;
    uint8_t *wbytes = slurp("bls12381/multiplier/witness.wtns", &wlen);
    cuzk_pk *pk = NULL;
    CHECK_ST(cuzk_pk_load_zkey(&pk, path, NULL, &e), CUZK_OK);
    CHECK(wbytes != NULL);
    if (!pk || !wbytes) goto out;
    cuzk_prover_opts po = {0};
    cuzk_prover *pv = (cuzk_prover *)1;
    po.backend = CUZK_BACKEND_CPU;
    po.msm.accumulation = (cuzk_gpu_msm_accum)4;
    CHECK_ST(cuzk_prover_create(&pv, pk, &po, &e), CUZK_ERR_ARG);
    CHECK(pv == NULL && strstr(e.msg, "accumulation"));
    pv = (cuzk_prover *)1;
    po.msm.accumulation = (cuzk_gpu_msm_accum)3; /* the removed batch-affine accumulation */
    CHECK_ST(cuzk_prover_create(&pv, pk, &po, &e), CUZK_ERR_ARG);
    CHECK(pv == NULL && strstr(e.msg, "unknown MSM accumulation 3") && strstr(e.msg, "0 default, 1 tasks, 2 runs") &&
          strstr(e.msg, "removed"));
    cuzk_engine_opts eo = {0};
    cuzk_engine *eng = (cuzk_engine *)1;
    eo.backend = CUZK_BACKEND_CPU;
    eo.msm.accumulation = (cuzk_gpu_msm_accum)-1;
    CHECK_ST(cuzk_engine_create(&eng, &eo, &e), CUZK_ERR_ARG);
    CHECK(eng == NULL);
    eo.msm.accumulation = (cuzk_gpu_msm_accum)3;
    CHECK_ST(cuzk_engine_create(&eng, &eo, &e), CUZK_ERR_ARG);
    CHECK(eng == NULL && strstr(e.msg, "accumulation 3"));
    eo.msm.accumulation = CUZK_GPU_MSM_ACCUM_RUNS;
    CHECK_ST(cuzk_engine_create(&eng, &eo, &e), CUZK_OK);
    cuzk_engine_destroy(eng);
    /* valid options on the CPU backend: the same proof bytes for two provers of one key */
    static const uint8_t r[32] = {7}, s[32] = {11};
    cuzk_proof_opts pr = {0};
    pr.fixed_r = r;
    pr.fixed_s = s;
    cuzk_witness w = {CUZK_WITNESS_WTNS, wbytes, wlen};
    cuzk_proof p1 = {0}, p2 = {0};
    cuzk_prover *a = NULL, *b = NULL;
    po.msm.accumulation = CUZK_GPU_MSM_ACCUM_RUNS;
    CHECK_ST(cuzk_prover_create(&a, pk, &po, &e), CUZK_OK);
    po.msm.accumulation = CUZK_GPU_MSM_ACCUM_TASKS;
    CHECK_ST(cuzk_prover_create(&b, pk, &po, &e), CUZK_OK);
    if (a && b) {
        CHECK_ST(cuzk_prove(a, &p1, &w, &pr, NULL, &e), CUZK_OK);
        CHECK_ST(cuzk_prove(b, &p2, &w, &pr, NULL, &e), CUZK_OK);
        CHECK(p1.has_bellperson && p2.has_bellperson && !memcmp(p1.bellperson, p2.bellperson, sizeof p1.bellperson) &&
              p1.proof_json && p2.proof_json &&
              !strcmp(p1.proof_json, p2.proof_json));
    }
    cuzk_proof_free(&p1);
    cuzk_proof_free(&p2);
    cuzk_prover_destroy(a);
    cuzk_prover_destroy(b);
out:
    cuzk_pk_release(pk);
    free(wbytes);
}

static void test_engine_helpers(void) {
    cuzk_pk *pk = NULL;
    cuzk_circuit *c = NULL;
    cuzk_engine *eng = NULL;
    cuzk_vk *vk = NULL;
    cuzk_error e = {0};
    char path[1024], r1cs_path[1024];
    snprintf(path, sizeof path, "%s/bls12381/multiplier/circuit_final.zkey", CUZK_FIXTURES_DIR);
    snprintf(r1cs_path, sizeof r1cs_path, "%s/bls12381/multiplier/circuit.r1cs", CUZK_FIXTURES_DIR);
    size_t wlen = 0, flen = 0, blen = 0, n = 0;
    uint8_t *wb = slurp("bls12381/multiplier/witness.wtns", &wlen);
    uint8_t *bnw = slurp("bn128/multiplier/witness.wtns", &blen);
    char *want = (char *)slurp("bls12381/multiplier/proof_fixed.json", &flen);
    uint64_t *canon = wb ? wtns_canon(wb, wlen, &n) : NULL;
    CHECK(wb && bnw && want && canon);
    if (!wb || !bnw || !want || !canon) goto out;

    /* cuzk_witness_convert: canonical out = the file's values; Montgomery -> canonical round trip */
    {
        uint64_t *o = calloc(n, 32), *m = calloc(n, 32);
        cuzk_witness w = {CUZK_WITNESS_WTNS, wb, wlen};
        CHECK_ST(cuzk_witness_convert(&w, CUZK_CURVE_BLS12_381, CUZK_WITNESS_FR_CANON, o, n, &e), CUZK_OK);
        CHECK(!memcmp(o, canon, 32 * n));
        CHECK_ST(cuzk_witness_convert(&w, CUZK_CURVE_BLS12_381, CUZK_WITNESS_FR_MONT, m, n, &e), CUZK_OK);
        CHECK(memcmp(m, canon, 32 * n) != 0); /* Montgomery form differs from the integers */
        cuzk_witness wm = {CUZK_WITNESS_FR_MONT, m, 32 * n};
        memset(o, 0, 32 * n);
        CHECK_ST(cuzk_witness_convert(&wm, CUZK_CURVE_BLS12_381, CUZK_WITNESS_FR_CANON, o, n, &e), CUZK_OK);
        CHECK(!memcmp(o, canon, 32 * n));
        CHECK_ST(cuzk_witness_convert(&w, CUZK_CURVE_BLS12_381, CUZK_WITNESS_FR_CANON, o, n + 1, &e), CUZK_ERR_MISMATCH);
        CHECK_ST(cuzk_witness_convert(&w, CUZK_CURVE_BLS12_381, CUZK_WITNESS_WTNS, o, n, &e), CUZK_ERR_ARG);
        cuzk_witness wbn = {CUZK_WITNESS_WTNS, bnw, blen};
        CHECK_ST(cuzk_witness_convert(&wbn, CUZK_CURVE_BLS12_381, CUZK_WITNESS_FR_MONT, o, n, &e), CUZK_ERR_CURVE);
        CHECK_ST(cuzk_witness_convert(&wbn, CUZK_CURVE_BN254, CUZK_WITNESS_FR_CANON, o, n, &e), CUZK_OK);
        cuzk_witness junk = {CUZK_WITNESS_WTNS, (const uint8_t *)"not a witness", 13};
        CHECK_ST(cuzk_witness_convert(&junk, CUZK_CURVE_BLS12_381, CUZK_WITNESS_FR_MONT, o, n, &e), CUZK_ERR_FORMAT);
        uint64_t *c2 = malloc(32 * n);
        memcpy(c2, canon, 32 * n);
        c2[0] = 2; /* w[0] must be ONE */
        cuzk_witness wc = {CUZK_WITNESS_FR_CANON, c2, 32 * n};
        CHECK_ST(cuzk_witness_convert(&wc, CUZK_CURVE_BLS12_381, CUZK_WITNESS_FR_MONT, o, n, &e), CUZK_ERR_MISMATCH);
        free(c2);
        free(o);
        free(m);
    }

    /* the zkey with its r1cs: an engine circuit; fixed r, s give snarkjs's proof_fixed.json */
    cuzk_pk_load_opts lo = {0};
    lo.r1cs_path = r1cs_path;
    CHECK_ST(cuzk_pk_load_zkey(&pk, path, &lo, &e), CUZK_OK);
    if (!pk) goto out;
    CHECK_ST(cuzk_vk_from_pk(&vk, pk, &e), CUZK_OK);
    CHECK_ST(cuzk_circuit_create(&c, pk, &e), CUZK_OK);
    if (!c || !vk) goto out;
    CHECK(cuzk_circuit_n_vars(c) == n && cuzk_circuit_n_public(c) == 1);
    cuzk_engine_opts eo = {0};
    eo.backend = CUZK_BACKEND_CPU;
    eo.no_trace = 1;
    CHECK_ST(cuzk_engine_create(&eng, &eo, &e), CUZK_OK);
    if (!eng) goto out;
    {
        cuzk_device_stats ds;
        CHECK_ST(cuzk_engine_device_stats(eng, 0, &ds), CUZK_OK);
        CHECK(!strcmp(ds.name, "cpu") && ds.total_bytes == 0 && ds.ordinal == 0 && !ds.dead);
        CHECK_ST(cuzk_engine_device_stats(eng, 1, &ds), CUZK_ERR_ARG);
    }
    CHECK_ST(cuzk_engine_preload(eng, c, &e), CUZK_OK);
    uint64_t rs[8];
    {
        /* the fixtures' r and s, as Montgomery limbs (the engine's fixed_rs form) */
        uint8_t r[32], s2[32];
        hex_le32(r, k_r_hex);
        hex_le32(s2, k_s_hex);
        /* cuzk_witness_convert checks w[0] == 1: convert the pairs [1, r] and [1, s] */
        uint64_t pr[8] = {1, 0, 0, 0}, ps[8] = {1, 0, 0, 0}, mr[8], ms[8];
        memcpy(pr + 4, r, 32);
        memcpy(ps + 4, s2, 32);
        cuzk_witness one_r = {CUZK_WITNESS_FR_CANON, pr, 64}, one_s = {CUZK_WITNESS_FR_CANON, ps, 64};
        CHECK_ST(cuzk_witness_convert(&one_r, CUZK_CURVE_BLS12_381, CUZK_WITNESS_FR_MONT, mr, 2, &e), CUZK_OK);
        CHECK_ST(cuzk_witness_convert(&one_s, CUZK_CURVE_BLS12_381, CUZK_WITNESS_FR_MONT, ms, 2, &e), CUZK_OK);
        memcpy(rs, mr + 4, 32);
        memcpy(rs + 4, ms + 4, 32);
    }
    wtns_gate_state ws = {wb, wlen, 1};
    cuzk_job_desc d = {0};
    d.circuit = c;
    d.n_partitions = 1;
    d.synth = synth_wtns_gate;
    d.synth_ctx = &ws;
    d.fixed_rs = rs;
    d.check_witness = 1;
    cuzk_job_id id = 0;
    CHECK_ST(cuzk_engine_submit(eng, &d, &id, &e), CUZK_OK);
    cuzk_job_result res = {0};
    CHECK_ST(cuzk_engine_wait(eng, id, &res, &e), CUZK_OK);
    CHECK(res.state == CUZK_JOB_DONE && res.n_public == 1);
    if (res.state == CUZK_JOB_DONE) {
        CHECK(!memcmp(res.public_inputs, canon + 4, 32));
        CHECK_ST(cuzk_verify(vk, CUZK_PUBLIC_CANON, res.public_inputs, 32, CUZK_PROOF_BELLPERSON, res.proofs, 192, &e),
                 CUZK_OK);
        cuzk_proof p = {0};
        CHECK_ST(cuzk_proof_from_bellperson(&p, res.proofs, res.public_inputs, 1, &e), CUZK_OK);
        /* the independent oracle: snarkjs's proof with the same r, s */
        CHECK(p.proof_json && text_eq_trim(p.proof_json, p.proof_json_len, want, flen));
        CHECK(p.has_bellperson && !memcmp(p.bellperson, res.proofs, 192) && p.n_public == 1);
        CHECK(p.public_json && !strncmp(p.public_json, "[", 1));
        cuzk_proof_free(&p);
        uint8_t bad[192];
        memset(bad, 0x5a, sizeof bad);
        CHECK_ST(cuzk_proof_from_bellperson(&p, bad, res.public_inputs, 1, &e), CUZK_ERR_POINT);
        CHECK(p.proof_json == NULL);
        uint8_t big[32];
        memset(big, 0xff, sizeof big);
        CHECK_ST(cuzk_proof_from_bellperson(&p, res.proofs, big, 1, &e), CUZK_ERR_FORMAT);
        CHECK_ST(cuzk_proof_from_bellperson(&p, NULL, big, 1, &e), CUZK_ERR_ARG);
    }
    cuzk_job_result_free(&res);

    /* release: BUSY while a job of the circuit is held in synthesis, then OK; the circuit proves
     * again afterwards (made ready again on first use) */
    ws.gate = 0;
    d.fixed_rs = NULL;
    CHECK_ST(cuzk_engine_submit(eng, &d, &id, &e), CUZK_OK);
    CHECK_ST(cuzk_engine_release_circuit(eng, c, &e), CUZK_ERR_BUSY);
    ws.gate = 1;
    CHECK_ST(cuzk_engine_wait(eng, id, &res, &e), CUZK_OK);
    CHECK(res.state == CUZK_JOB_DONE);
    cuzk_job_result_free(&res);
    CHECK_ST(cuzk_engine_release_circuit(eng, c, &e), CUZK_OK);
    CHECK_ST(cuzk_engine_release_circuit(eng, c, &e), CUZK_OK); /* nothing held: still OK */
    CHECK_ST(cuzk_engine_submit(eng, &d, &id, &e), CUZK_OK);
    CHECK_ST(cuzk_engine_wait(eng, id, &res, &e), CUZK_OK);
    CHECK(res.state == CUZK_JOB_DONE);
    if (res.state == CUZK_JOB_DONE)
        CHECK_ST(cuzk_verify(vk, CUZK_PUBLIC_CANON, res.public_inputs, 32, CUZK_PROOF_BELLPERSON, res.proofs, 192, &e),
                 CUZK_OK);
    cuzk_job_result_free(&res);
    /* a witness that does not satisfy the circuit: check_witness fails the job with UNSAT */
    {
        uint8_t *bw = malloc(wlen);
        memcpy(bw, wb, wlen);
        bw[wlen - 1] ^= 1; /* the last wire's top byte: still canonical, no longer a*b = c */
        wtns_gate_state bs = {bw, wlen, 1};
        d.synth_ctx = &bs;
        CHECK_ST(cuzk_engine_submit(eng, &d, &id, &e), CUZK_OK);
        CHECK_ST(cuzk_engine_wait(eng, id, &res, &e), CUZK_OK);
        CHECK(res.state == CUZK_JOB_FAILED && res.status == CUZK_ERR_UNSAT);
        cuzk_job_result_free(&res);
        free(bw);
    }
    CHECK_ST(cuzk_engine_release_circuit(eng, NULL, &e), CUZK_ERR_ARG);
out:
    cuzk_engine_destroy(eng);
    cuzk_circuit_destroy(c);
    cuzk_pk_release(pk);
    cuzk_vk_free(vk);
    free(wb);
    free(bnw);
    free(want);
    free(canon);
}

int main(void) {
    char tmp[] = "/tmp/cuzk_api_test.XXXXXX";
    if (!mkdtemp(tmp)) {
        perror("mkdtemp");
        return 1;
    }
    test_version();
    test_devices();
    test_msm_opts();
    test_zkey_circuit("multiplier");
    test_zkey_circuit("merkle_mimc5");
    test_bad_keys();
    test_zkey_engine("multiplier");
    test_zkey_engine("merkle_mimc5");
    test_bn254_engine("multiplier");
    test_bn254_engine("merkle_mimc5");
    test_mixed_curves_engine();
    test_engine_helpers();
    test_engine_job(tmp);
    rmdir(tmp);
    printf("public API test: %d checks, %d failed\n", g_checks, g_fail);
    return g_fail ? 1 : 0;
}
