/* Suite "bad_input": every loader on corrupted, truncated, foreign-curve and missing files.
 * Each case expects a specific status (never a crash; run under ASan/UBSan with
 * -DCUZK_SANITIZE=ON). Corrupted copies are written into test_tmpdir(). */
#include "test.h"
#include "test_rand.h"

#include "curves/bls12_381/curve.h"
#include "formats/bellperson.h"
#include "formats/json.h"
#include "formats/snarkjs.h"
#include "r1cs/r1cs.h"

#include <stdlib.h>

typedef enum { K_ZKEY, K_WTNS, K_R1CS, K_PARAMS, K_VK, K_PROOF_JSON, K_VK_JSON, K_PUBLIC_JSON } kind;

/* Runs the loader for `k` on path, frees what it loaded, returns the status; err filled. */
static cuzk_status load(kind k, const char *path, cuzk_error *err) {
    cuzk_status st = CUZK_OK;
    memset(err, 0, sizeof *err);
    switch (k) {
    case K_ZKEY: { zkey z; st = zkey_load(&z, path, false, err); zkey_free(&z); break; }
    case K_WTNS: { wtns w; st = wtns_load(&w, path, err); wtns_free(&w); break; }
    case K_R1CS: { r1cs c; st = r1cs_load(&c, path, err); r1cs_free(&c); break; }
    case K_PARAMS: { bellperson_params p; st = bellperson_params_load(&p, path, false, err); bellperson_params_free(&p); break; }
    case K_VK: { groth16_vk v; st = bellperson_vk_load(&v, path, err); groth16_vk_free(&v); break; }
    case K_PROOF_JSON: { groth16_proof p; st = proof_json_read(&p, path, err); break; }
    case K_VK_JSON: { groth16_vk v; st = vk_json_read(&v, path, err); groth16_vk_free(&v); break; }
    case K_PUBLIC_JSON: { fr *v = NULL; size_t n; st = public_json_read(&v, &n, path, err); free(v); break; }
    }
    /* file_describe must survive whatever the loader saw */
    char buf[1024];
    file_describe(buf, sizeof buf, path, NULL);
    return st;
}

static uint8_t *slurp(const char *path, size_t *n) {
    uint8_t *b = test_slurp(path, n);
    if (!b) test_fail(__FILE__, __LINE__, "cannot open %s", path);
    return b;
}

static const char *tmp_write(const char *name, const uint8_t *b, size_t n) {
    static char path[512];
    snprintf(path, sizeof path, "%s/%s", test_tmpdir(), name);
    FILE *f = fopen(path, "wb");
    if (!f) { test_fail(__FILE__, __LINE__, "cannot create %s", path); return path; }
    if (n) fwrite(b, 1, n, f);
    fclose(f);
    return path;
}

static const char *tmp_write_str(const char *name, const char *s) { return tmp_write(name, (const uint8_t *)s, strlen(s)); }

static uint32_t get_u32(const uint8_t *p) { return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24; }
static void put_u32(uint8_t *p, uint32_t v) { for (int i = 0; i < 4; i++) p[i] = (uint8_t)(v >> (8 * i)); }
static void put_u64(uint8_t *p, uint64_t v) { for (int i = 0; i < 8; i++) p[i] = (uint8_t)(v >> (8 * i)); }
static uint64_t get_u64(const uint8_t *p) { return (uint64_t)get_u32(p) | (uint64_t)get_u32(p + 4) << 32; }

/* Independent walk of an iden3 section table: offset of the header (id, size) of section `id`
 * (the payload starts 12 bytes later), or 0 if absent. */
static size_t section_hdr(const uint8_t *b, size_t n, uint32_t id) {
    uint32_t ns = get_u32(b + 8);
    size_t off = 12;
    for (uint32_t i = 0; i < ns && off + 12 <= n; i++) {
        if (get_u32(b + off) == id) return off;
        off += 12 + (size_t)get_u64(b + off + 4);
    }
    return 0;
}

#define EXPECT(k, path, want)                                                                             \
    do {                                                                                                  \
        cuzk_error e_;                                                                                    \
        cuzk_status s_ = load((k), (path), &e_);                                                          \
        CHECK_MSG(s_ == (want), "%s: got %s (%s), want %s", #k, cuzk_status_str(s_), e_.msg, cuzk_status_str(want)); \
    } while (0)

static const struct { kind k; const char *rel; } IDEN3[] = {
    {K_ZKEY, "bls12381/multiplier/circuit_final.zkey"},
    {K_WTNS, "bls12381/multiplier/witness.wtns"},
    {K_R1CS, "bls12381/multiplier/circuit.r1cs"},
};

TEST(bad_input, iden3_every_prefix) {
    for (int f = 0; f < 3; f++) {
        size_t n;
        uint8_t *b = slurp(test_fixture(IDEN3[f].rel), &n);
        REQUIRE(b);
        EXPECT(IDEN3[f].k, test_fixture(IDEN3[f].rel), CUZK_OK);
        int fails = 0;
        /* every byte through the table and header, then a stride through the points */
        for (size_t cut = 0; cut < n && fails < 5; cut += (cut < 1200 ? 1 : 11)) {
            cuzk_error e;
            cuzk_status s = load(IDEN3[f].k, tmp_write("prefix.bin", b, cut), &e);
            if (s != CUZK_ERR_FORMAT) { fails++; CHECK_MSG(0, "%s cut at %zu: %s (%s)", IDEN3[f].rel, cut, cuzk_status_str(s), e.msg); }
        }
        /* one extra byte is also an error */
        uint8_t *bb = malloc(n + 1);
        memcpy(bb, b, n);
        bb[n] = 0;
        EXPECT(IDEN3[f].k, tmp_write("plus1.bin", bb, n + 1), CUZK_ERR_FORMAT);
        free(bb);
        free(b);
    }
}

TEST(bad_input, big_files_sampled_cuts) {
    const struct { kind k; const char *rel; } big[] = {
        {K_ZKEY, "bls12381/merkle_mimc5/circuit_final.zkey"},
        {K_WTNS, "bls12381/merkle_mimc5/witness.wtns"},
        {K_R1CS, "bls12381/merkle_mimc5/circuit.r1cs"},
    };
    for (int f = 0; f < 3; f++) {
        size_t n;
        uint8_t *b = slurp(test_fixture(big[f].rel), &n);
        REQUIRE(b);
        for (int it = 0; it < test_iters(40); it++) {
            size_t cut = it < 8 ? (size_t)it * 7 : (size_t)(test_rand64() % n);
            cuzk_error e;
            cuzk_status s = load(big[f].k, tmp_write("cut.bin", b, cut), &e);
            CHECK_MSG(s == CUZK_ERR_FORMAT, "%s cut at %zu: %s (%s)", big[f].rel, cut, cuzk_status_str(s), e.msg);
        }
        free(b);
    }
}

TEST(bad_input, iden3_header_and_table) {
    for (int f = 0; f < 3; f++) {
        size_t n;
        uint8_t *orig = slurp(test_fixture(IDEN3[f].rel), &n);
        REQUIRE(orig);
        uint8_t *b = malloc(n);
        cuzk_error e;
        /* magic */
        memcpy(b, orig, n); b[0] ^= 0x20;
        EXPECT(IDEN3[f].k, tmp_write("magic.bin", b, n), CUZK_ERR_FORMAT);
        /* version */
        memcpy(b, orig, n); put_u32(b + 4, get_u32(b + 4) + 1);
        EXPECT(IDEN3[f].k, tmp_write("version.bin", b, n), CUZK_ERR_FORMAT);
        /* nSections huge / +1 */
        memcpy(b, orig, n); put_u32(b + 8, 0xffffffffu);
        EXPECT(IDEN3[f].k, tmp_write("nsec.bin", b, n), CUZK_ERR_FORMAT);
        memcpy(b, orig, n); put_u32(b + 8, get_u32(b + 8) + 1);
        EXPECT(IDEN3[f].k, tmp_write("nsec1.bin", b, n), CUZK_ERR_FORMAT);
        /* duplicate: section 2 renamed to 1 */
        memcpy(b, orig, n);
        size_t h2 = section_hdr(b, n, 2);
        REQUIRE(h2);
        put_u32(b + h2, 1);
        CHECK(load(IDEN3[f].k, tmp_write("dup.bin", b, n), &e) == CUZK_ERR_FORMAT);
        CHECK_MSG(strstr(e.msg, "duplicate") != NULL, "%s", e.msg);
        /* missing section: 2 renamed to an unused id */
        memcpy(b, orig, n); put_u32(b + h2, 30);
        CHECK(load(IDEN3[f].k, tmp_write("missing.bin", b, n), &e) == CUZK_ERR_FORMAT);
        CHECK_MSG(strstr(e.msg, "missing") != NULL, "%s", e.msg);
        /* oversized section lengths */
        uint64_t bad_sizes[] = {UINT64_MAX, (uint64_t)1 << 63, (uint64_t)n, get_u64(orig + h2 + 4) + 1};
        for (int i = 0; i < 4; i++) {
            memcpy(b, orig, n); put_u64(b + h2 + 4, bad_sizes[i]);
            EXPECT(IDEN3[f].k, tmp_write("oversize.bin", b, n), CUZK_ERR_FORMAT);
        }
        /* a short section 2 with the file still consistent: shrink by 4 and cut the last 4 bytes of it */
        free(b);
        free(orig);
    }
}

TEST(bad_input, bn128_is_curve_error) {
    const struct { kind k; const char *rel; } bn[] = {
        {K_ZKEY, "bn128/multiplier/circuit_final.zkey"},   {K_WTNS, "bn128/multiplier/witness.wtns"},
        {K_R1CS, "bn128/multiplier/circuit.r1cs"},         {K_ZKEY, "bn128/merkle_poseidon/circuit_final.zkey"},
        {K_R1CS, "bn128/merkle_mimc5/circuit.r1cs"},       {K_PROOF_JSON, "bn128/multiplier/proof.json"},
        {K_VK_JSON, "bn128/multiplier/verification_key.json"},
    };
    for (size_t i = 0; i < sizeof bn / sizeof bn[0]; i++) {
        cuzk_error e;
        cuzk_status s = load(bn[i].k, test_fixture(bn[i].rel), &e);
        CHECK_MSG(s == CUZK_ERR_CURVE, "%s: %s", bn[i].rel, cuzk_status_str(s));
        /* the BLS12-381 loaders name both curves (the public API hands bn128 files to the BN254 ones) */
        CHECK_MSG(strstr(e.msg, "bn128") && strstr(e.msg, "bls12381"), "%s: %s", bn[i].rel, e.msg);
    }
    /* some other prime: flip a bit of the wtns prime */
    size_t n;
    uint8_t *b = slurp(test_fixture("bls12381/multiplier/witness.wtns"), &n);
    REQUIRE(b);
    size_t h1 = section_hdr(b, n, 1);
    b[h1 + 12 + 4 + 5] ^= 1;
    EXPECT(K_WTNS, tmp_write("prime.wtns", b, n), CUZK_ERR_CURVE);
    free(b);
}

static const uint64_t RMOD[4] = BLS12_381_FR_MODULUS;
static void put_r(uint8_t *p) { for (int i = 0; i < 32; i++) p[i] = (uint8_t)(RMOD[i / 8] >> (8 * (i % 8))); }

TEST(bad_input, wtns_values_and_counts) {
    size_t n;
    uint8_t *orig = slurp(test_fixture("bls12381/multiplier/witness.wtns"), &n);
    REQUIRE(orig);
    uint8_t *b = malloc(n);
    size_t h1 = section_hdr(orig, n, 1), h2 = section_hdr(orig, n, 2);
    cuzk_error e;
    memcpy(b, orig, n); put_r(b + h2 + 12 + 2 * 32);
    CHECK(load(K_WTNS, tmp_write("nc.wtns", b, n), &e) == CUZK_ERR_FORMAT);
    CHECK_MSG(strstr(e.msg, "value 2") != NULL, "%s", e.msg);
    memcpy(b, orig, n); put_u32(b + h1 + 12 + 36, 5); /* nWitness 5, 4 values */
    EXPECT(K_WTNS, tmp_write("cnt.wtns", b, n), CUZK_ERR_FORMAT);
    memcpy(b, orig, n); put_u32(b + h1 + 12, 48); /* n8 48 with a 32-byte prime */
    EXPECT(K_WTNS, tmp_write("n8.wtns", b, n), CUZK_ERR_FORMAT);
    free(b);
    free(orig);
}

TEST(bad_input, r1cs_terms) {
    size_t n;
    uint8_t *orig = slurp(test_fixture("bls12381/multiplier/circuit.r1cs"), &n);
    REQUIRE(orig);
    uint8_t *b = malloc(n + 12);
    size_t h1 = section_hdr(orig, n, 1), h2 = section_hdr(orig, n, 2);
    size_t t0 = h2 + 12 + 4; /* first term of A of constraint 0: u32 wire, 32-byte coefficient */
    REQUIRE(get_u32(orig + h2 + 12) >= 1);
    cuzk_error e;
    memcpy(b, orig, n); put_r(b + t0 + 4);
    CHECK(load(K_R1CS, tmp_write("nc.r1cs", b, n), &e) == CUZK_ERR_FORMAT);
    CHECK_MSG(strstr(e.msg, "constraint 0") && strstr(e.msg, "canonical"), "%s", e.msg);
    memcpy(b, orig, n); put_u32(b + t0, 4); /* nWires is 4 */
    CHECK(load(K_R1CS, tmp_write("wire.r1cs", b, n), &e) == CUZK_ERR_FORMAT);
    CHECK_MSG(strstr(e.msg, "wire 4") != NULL, "%s", e.msg);
    memcpy(b, orig, n); put_u32(b + h2 + 12, 0x10000000); /* nTerms huge */
    EXPECT(K_R1CS, tmp_write("nterms.r1cs", b, n), CUZK_ERR_FORMAT);
    /* header counts: nConstraints + 1, outputs > wires */
    size_t hdr = h1 + 12 + 4 + 32;
    memcpy(b, orig, n); put_u32(b + hdr + 24, get_u32(b + hdr + 24) + 1);
    EXPECT(K_R1CS, tmp_write("ncons.r1cs", b, n), CUZK_ERR_FORMAT);
    memcpy(b, orig, n); put_u32(b + hdr + 4, 100);
    EXPECT(K_R1CS, tmp_write("nout.r1cs", b, n), CUZK_ERR_FORMAT);
    /* custom gates: append an empty section 4 */
    memcpy(b, orig, n); put_u32(b + 8, get_u32(b + 8) + 1);
    put_u32(b + n, 4); put_u64(b + n + 4, 0);
    EXPECT(K_R1CS, tmp_write("custom.r1cs", b, n + 12), CUZK_ERR_UNSUPPORTED);
    free(b);
    free(orig);
}

TEST(bad_input, zkey_points_and_records) {
    size_t n;
    uint8_t *orig = slurp(test_fixture("bls12381/multiplier/circuit_final.zkey"), &n);
    REQUIRE(orig);
    uint8_t *b = malloc(n);
    cuzk_error e;
    /* flip the low byte of x of the last non-infinity point of each point section */
    const uint32_t secs[] = {3, 5, 6, 7, 8, 9};
    for (int s = 0; s < 6; s++) {
        size_t h = section_hdr(orig, n, secs[s]);
        REQUIRE(h);
        size_t elt = secs[s] == 7 ? 192 : 96, cnt = (size_t)get_u64(orig + h + 4) / elt;
        size_t idx = cnt;
        for (size_t i = cnt; i-- > 0 && idx == cnt;) {
            const uint8_t *p = orig + h + 12 + i * elt;
            for (size_t k = 0; k < elt; k++) if (p[k]) { idx = i; break; }
        }
        REQUIRE(idx < cnt);
        memcpy(b, orig, n);
        b[h + 12 + idx * elt] ^= 1;
        CHECK(load(K_ZKEY, tmp_write("pt.zkey", b, n), &e) == CUZK_ERR_POINT);
        char want[64];
        snprintf(want, sizeof want, "section %u", secs[s]);
        CHECK_MSG(strstr(e.msg, want) != NULL, "%s", e.msg);
        snprintf(want, sizeof want, "point %zu", idx);
        CHECK_MSG(strstr(e.msg, want) != NULL, "%s", e.msg);
        /* a coordinate >= q */
        memcpy(b, orig, n);
        memset(b + h + 12 + idx * elt + 40, 0xff, 8);
        CHECK(load(K_ZKEY, tmp_write("ptq.zkey", b, n), &e) == CUZK_ERR_POINT);
        CHECK_MSG(strstr(e.msg, "canonical") != NULL, "%s", e.msg);
    }
    /* header point alpha1 (after n8q, q, n8r, r, nVars, nPublic, domainSize) */
    size_t h2 = section_hdr(orig, n, 2);
    memcpy(b, orig, n);
    b[h2 + 12 + 4 + 48 + 4 + 32 + 12] ^= 1;
    CHECK(load(K_ZKEY, tmp_write("alpha.zkey", b, n), &e) == CUZK_ERR_POINT);
    CHECK_MSG(strstr(e.msg, "alpha1") != NULL, "%s", e.msg);
    /* header counts */
    size_t cnts = h2 + 12 + 4 + 48 + 4 + 32;
    memcpy(b, orig, n); put_u32(b + cnts, get_u32(b + cnts) + 1);   /* nVars */
    EXPECT(K_ZKEY, tmp_write("nvars.zkey", b, n), CUZK_ERR_FORMAT);
    memcpy(b, orig, n); put_u32(b + cnts + 8, 3);                   /* domain not a power of 2 */
    EXPECT(K_ZKEY, tmp_write("dom.zkey", b, n), CUZK_ERR_FORMAT);
    memcpy(b, orig, n); put_u32(b + cnts + 4, 100);                 /* nPublic > nVars */
    EXPECT(K_ZKEY, tmp_write("npub.zkey", b, n), CUZK_ERR_FORMAT);
    /* protocol */
    size_t h1 = section_hdr(orig, n, 1);
    memcpy(b, orig, n); put_u32(b + h1 + 12, 2);
    EXPECT(K_ZKEY, tmp_write("plonk.zkey", b, n), CUZK_ERR_UNSUPPORTED);
    /* coefficient records: matrix, row, wire, value */
    size_t h4 = section_hdr(orig, n, 4), rec = h4 + 12 + 4;
    memcpy(b, orig, n); put_u32(b + rec, 2);
    EXPECT(K_ZKEY, tmp_write("mat.zkey", b, n), CUZK_ERR_FORMAT);
    memcpy(b, orig, n); put_u32(b + rec + 4, 4);
    EXPECT(K_ZKEY, tmp_write("row.zkey", b, n), CUZK_ERR_FORMAT);
    memcpy(b, orig, n); put_u32(b + rec + 8, 4);
    EXPECT(K_ZKEY, tmp_write("wire.zkey", b, n), CUZK_ERR_FORMAT);
    memcpy(b, orig, n); put_r(b + rec + 12);
    EXPECT(K_ZKEY, tmp_write("coef.zkey", b, n), CUZK_ERR_FORMAT);
    memcpy(b, orig, n); put_u32(b + h4 + 12, get_u32(b + h4 + 12) + 1);
    EXPECT(K_ZKEY, tmp_write("ncoef.zkey", b, n), CUZK_ERR_FORMAT);
    free(b);
    free(orig);
}

TEST(bad_input, paths_empty_directory) {
    const kind all[] = {K_ZKEY, K_WTNS, K_R1CS, K_PARAMS, K_VK, K_PROOF_JSON, K_VK_JSON, K_PUBLIC_JSON};
    char missing[512];
    snprintf(missing, sizeof missing, "%s/does/not/exist", test_tmpdir());
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) {
        cuzk_error e;
        CHECK_MSG(load(all[i], missing, &e) == CUZK_ERR_IO, "kind %zu missing: %s", i, e.msg);
        CHECK(e.sys_errno != 0);
        CHECK_MSG(load(all[i], test_tmpdir(), &e) == CUZK_ERR_IO, "kind %zu directory: %s", i, e.msg);
        CHECK_MSG(load(all[i], tmp_write("empty.bin", NULL, 0), &e) == CUZK_ERR_FORMAT, "kind %zu empty: %s", i, e.msg);
    }
    char buf[256];
    cuzk_error e;
    CHECK(file_describe(buf, sizeof buf, missing, &e) == CUZK_ERR_IO);
    CHECK(file_describe(buf, sizeof buf, tmp_write("junk.bin", (const uint8_t *)"junk", 4), &e) == CUZK_ERR_FORMAT);
}

/* ---- bellperson ------------------------------------------------------------------------ */


/* ic 3, h 7, l 5, a 4, b_g1 3, b_g2 3 */
static const char *make_params(size_t *size) {
    bellperson_params p;
    memset(&p, 0, sizeof p);
    test_rand_g1(&p.vk.alpha1); test_rand_g1(&p.vk.beta1); test_rand_g2(&p.vk.beta2);
    test_rand_g2(&p.vk.gamma2); test_rand_g1(&p.vk.delta1); test_rand_g2(&p.vk.delta2);
    p.vk.n_public = 2;
    p.vk.ic = malloc(3 * sizeof(g1_affine));
    for (int i = 0; i < 3; i++) test_rand_g1(&p.vk.ic[i]);
    p.n_h = 7; p.n_l = 5; p.n_a = 4; p.n_b_g1 = 3; p.n_b_g2 = 3;
    p.h = malloc(7 * sizeof(g1_affine)); p.l = malloc(5 * sizeof(g1_affine)); p.a = malloc(4 * sizeof(g1_affine));
    p.b_g1 = malloc(3 * sizeof(g1_affine)); p.b_g2 = malloc(3 * sizeof(g2_affine));
    for (int i = 0; i < 7; i++) test_rand_g1(&p.h[i]);
    for (int i = 0; i < 5; i++) test_rand_g1(&p.l[i]);
    for (int i = 0; i < 4; i++) test_rand_g1(&p.a[i]);
    for (int i = 0; i < 3; i++) { test_rand_g1(&p.b_g1[i]); test_rand_g2(&p.b_g2[i]); }
    static char path[512];
    snprintf(path, sizeof path, "%s/bad.params", test_tmpdir());
    if (bellperson_params_write(path, &p, NULL) != CUZK_OK) test_fail(__FILE__, __LINE__, "write params");
    bellperson_params_free(&p);
    *size = 864 + 6 * 4 + 96 * (3 + 7 + 5 + 4 + 3) + 192 * 3;
    return path;
}

TEST(bad_input, bellperson_params) {
    size_t n, nn;
    const char *pp = make_params(&n);
    uint8_t *orig = slurp(pp, &nn);
    REQUIRE(orig && nn == n);
    EXPECT(K_PARAMS, pp, CUZK_OK);
    uint8_t *b = malloc(n + 1);
    cuzk_error e;
    for (size_t cut = 0; cut < n; cut += (cut < 100 ? 1 : 13)) {
        cuzk_status s = load(K_PARAMS, tmp_write("p.params", orig, cut), &e);
        if (s != CUZK_ERR_FORMAT) { CHECK_MSG(0, "cut %zu: %s (%s)", cut, cuzk_status_str(s), e.msg); break; }
    }
    memcpy(b, orig, n); b[n] = 0;
    EXPECT(K_PARAMS, tmp_write("p1.params", b, n + 1), CUZK_ERR_FORMAT);
    /* vk file = first 864 + 4 + 3*96 bytes */
    size_t vkn = 864 + 4 + 3 * 96;
    EXPECT(K_VK, tmp_write("v.vk", orig, vkn), CUZK_OK);
    for (size_t cut = 0; cut < vkn; cut += (cut < 100 || cut + 8 > vkn ? 1 : 11)) {
        cuzk_status s = load(K_VK, tmp_write("v.vk", orig, cut), &e);
        if (s != CUZK_ERR_FORMAT) { CHECK_MSG(0, "vk cut %zu: %s (%s)", cut, cuzk_status_str(s), e.msg); break; }
    }
    EXPECT(K_VK, tmp_write("v.vk", orig, vkn + 4), CUZK_ERR_FORMAT);
    /* l point 2: offset vk + h block + l count + 2 points */
    size_t l_off = vkn + 4 + 7 * 96 + 4;
    memcpy(b, orig, n); b[l_off + 2 * 96 + 47] ^= 1; /* low byte of x (big-endian) */
    CHECK(load(K_PARAMS, tmp_write("l.params", b, n), &e) == CUZK_ERR_POINT);
    CHECK_MSG(strstr(e.msg, "l point 2") != NULL, "%s", e.msg);
    /* infinity is rejected: 0x40 flag and zeros */
    memcpy(b, orig, n); memset(b + l_off, 0, 96); b[l_off] = 0x40;
    CHECK(load(K_PARAMS, tmp_write("inf.params", b, n), &e) == CUZK_ERR_POINT);
    CHECK_MSG(strstr(e.msg, "l point 0") && strstr(e.msg, "infinity"), "%s", e.msg);
    /* compressed flag on an uncompressed point */
    memcpy(b, orig, n); b[l_off] |= 0x80;
    EXPECT(K_PARAMS, tmp_write("flag.params", b, n), CUZK_ERR_POINT);
    /* a vk point */
    memcpy(b, orig, n); b[96 + 95] ^= 1;
    CHECK(load(K_PARAMS, tmp_write("beta.params", b, n), &e) == CUZK_ERR_POINT);
    CHECK_MSG(strstr(e.msg, "beta_g1") != NULL, "%s", e.msg);
    /* counts: l count huge, ic count 0 */
    memcpy(b, orig, n); b[l_off - 4] = 0x7f;
    EXPECT(K_PARAMS, tmp_write("cnt.params", b, n), CUZK_ERR_FORMAT);
    memcpy(b, orig, n); memset(b + 864, 0, 4);
    EXPECT(K_PARAMS, tmp_write("ic0.params", b, n), CUZK_ERR_FORMAT);
    /* b_g2 point (last): G2 */
    memcpy(b, orig, n); b[n - 1] ^= 1;
    CHECK(load(K_PARAMS, tmp_write("bg2.params", b, n), &e) == CUZK_ERR_POINT);
    CHECK_MSG(strstr(e.msg, "b_g2 point 2") != NULL, "%s", e.msg);
    free(b);
    free(orig);
}

/* The check levels on bad .params files: sizes are checked at every level (NONE too), a point
 * outside the subgroup only at FULL, an off-curve one at CURVE and FULL; NONE never crashes. */
TEST(bad_input, bellperson_params_check_levels) {
    size_t n, nn;
    const char *pp = make_params(&n);
    uint8_t *orig = slurp(pp, &nn), *b = malloc(n + 1);
    REQUIRE(orig && nn == n && b);
    bellperson_params p;
    bellperson_load_opts o;
    memset(&o, 0, sizeof o);
    cuzk_error e;
    o.check = CUZK_CHECK_NONE;
    for (size_t cut = 0; cut < n; cut += 7) {
        cuzk_status st = bellperson_params_load_ex(&p, tmp_write("lv_cut.params", orig, cut), &o, &e);
        if (st != CUZK_ERR_FORMAT) { CHECK_MSG(0, "NONE, cut %zu: %s", cut, e.msg); break; }
    }
    memcpy(b, orig, n); b[n] = 7;
    CHECK_EQ_INT(bellperson_params_load_ex(&p, tmp_write("lv_over.params", b, n + 1), &o, &e), CUZK_ERR_FORMAT);
    CHECK_MSG(strstr(e.msg, "1 trailing bytes after b_g2"), "%s", e.msg);
    /* h point 5 (vk 864 + ic count 4 + 3 ic + h count 4): a curve point outside G1 */
    size_t h5 = 864 + 4 + 3 * 96 + 4 + 5 * 96;
    g1_affine q;
    for (;;) {
        uint8_t xb[48];
        test_rand_bytes(xb, sizeof xb);
        xb[0] &= 0x0f;
        fp x, y, rhs, four;
        if (!fp_from_bytes_be(&x, xb, 48)) continue;
        fp_sqr(&rhs, &x); fp_mul(&rhs, &rhs, &x); fp_from_u64(&four, 4); fp_add(&rhs, &rhs, &four);
        if (!fp_sqrt(&y, &rhs)) continue;
        q.x = x; q.y = y;
        if (!g1_affine_is_in_subgroup(&q)) break;
    }
    memcpy(b, orig, n);
    g1_affine_to_uncompressed(b + h5, &q);
    const char *sub = tmp_write("lv_sub.params", b, n);
    cuzk_check_level lv[] = {CUZK_CHECK_NONE, CUZK_CHECK_CURVE, CUZK_CHECK_FULL};
    cuzk_status want_sub[] = {CUZK_OK, CUZK_OK, CUZK_ERR_POINT};
    for (int i = 0; i < 3; i++) {
        o.check = lv[i];
        CHECK_EQ_INT(bellperson_params_load_ex(&p, sub, &o, &e), want_sub[i]);
        bellperson_params_free(&p);
    }
    CHECK_MSG(strstr(e.msg, "h point 5: not in the prime-order subgroup"), "%s", e.msg);
    memcpy(b, orig, n);
    b[h5 + 50] ^= 0x40;
    const char *off = tmp_write("lv_off.params", b, n);
    cuzk_status want_off[] = {CUZK_OK, CUZK_ERR_POINT, CUZK_ERR_POINT};
    for (int i = 0; i < 3; i++) {
        o.check = lv[i];
        CHECK_EQ_INT(bellperson_params_load_ex(&p, off, &o, &e), want_off[i]);
        if (want_off[i]) CHECK_MSG(strstr(e.msg, "h point 5: not on the curve"), "%s", e.msg);
        bellperson_params_free(&p);
    }
    free(b);
    free(orig);
}

TEST(bad_input, bellperson_proof_decode) {
    groth16_proof p, q;
    test_rand_g1(&p.a);
    test_rand_g2(&p.b);
    test_rand_g1(&p.c);
    uint8_t enc[192], b[192];
    bellperson_proof_encode(enc, &p);
    cuzk_error e;
    REQUIRE(bellperson_proof_decode(&q, enc, &e) == CUZK_OK);
    memcpy(b, enc, 192); b[0] &= 0x7f;              /* compression flag cleared */
    CHECK(bellperson_proof_decode(&q, b, &e) == CUZK_ERR_FORMAT);
    memcpy(b, enc, 192); memset(b + 144, 0, 48); b[144] = 0xc0; /* C = infinity */
    CHECK(bellperson_proof_decode(&q, b, &e) == CUZK_ERR_POINT);
    memcpy(b, enc, 192); b[0] = 0x9f; memset(b + 1, 0xff, 47); /* x >= p */
    CHECK(bellperson_proof_decode(&q, b, &e) == CUZK_ERR_FORMAT);
    /* random garbage: never OK-with-garbage, never a crash */
    int ok = 0;
    for (int it = 0; it < test_iters(200); it++) {
        test_rand_bytes(b, sizeof b);
        b[0] |= 0x80; b[48] |= 0x80; b[144] |= 0x80;
        b[0] &= 0x9f; b[48] &= 0x9f; b[144] &= 0x9f;
        if (bellperson_proof_decode(&q, b, &e) == CUZK_OK) ok++;
    }
    CHECK(ok < 10); /* three independent x must each be on the curve (~1/2) and in the subgroup */
}

/* ---- JSON ------------------------------------------------------------------------------ */

static const char *replace_in_file(const char *rel, const char *from, const char *to, const char *name) {
    size_t n;
    uint8_t *b = slurp(test_fixture(rel), &n);
    if (!b) return "";
    b[n] = 0;
    char *hit = strstr((char *)b, from);
    if (!hit) { test_fail(__FILE__, __LINE__, "'%s' not in %s", from, rel); free(b); return ""; }
    size_t pre = (size_t)(hit - (char *)b), fl = strlen(from), tl = strlen(to);
    uint8_t *o = malloc(n - fl + tl + 1);
    memcpy(o, b, pre);
    memcpy(o + pre, to, tl);
    memcpy(o + pre + tl, hit + fl, n - pre - fl);
    const char *p = tmp_write(name, o, n - fl + tl);
    free(o);
    free(b);
    return p;
}

TEST(bad_input, json_files) {
    const char *P = "bls12381/multiplier/proof.json", *V = "bls12381/multiplier/verification_key.json";
    size_t n;
    uint8_t *b = slurp(test_fixture(P), &n);
    REQUIRE(b);
    cuzk_error e;
    for (size_t cut = 0; cut < n; cut += 7) {
        cuzk_status s = load(K_PROOF_JSON, tmp_write("cut.json", b, cut), &e);
        if (s != CUZK_ERR_FORMAT) { CHECK_MSG(0, "proof cut %zu: %s", cut, cuzk_status_str(s)); break; }
    }
    /* pi_a.x changed in its last digit: off the curve */
    char *x = strstr((char *)b, "\"pi_a\"");
    REQUIRE(x);
    char *q1 = strchr(x + 7, '"') + 1, *q2 = strchr(q1, '"');
    char num[200];
    snprintf(num, sizeof num, "%.*s", (int)(q2 - q1), q1);
    char mod[200];
    snprintf(mod, sizeof mod, "%s", num);
    mod[strlen(mod) - 1] = mod[strlen(mod) - 1] == '0' ? '1' : '0';
    CHECK(load(K_PROOF_JSON, replace_in_file(P, num, mod, "offcurve.json"), &e) == CUZK_ERR_POINT);
    CHECK_MSG(strstr(e.msg, "pi_a") != NULL, "%s", e.msg);
    /* q itself is not a field element: a point no proof can have (POINT, which a verification
     * reports as INVALID), named as such */
    CHECK(load(K_PROOF_JSON,
               replace_in_file(P, num, "4002409555221667393417789825735904156556882819939007885332058136124031650490837864442687629129015664037894272559787", "q.json"),
               &e) == CUZK_ERR_POINT);
    CHECK_MSG(strstr(e.msg, "pi_a.x is >= q: not a field element") != NULL, "%s", e.msg);
    EXPECT(K_PROOF_JSON, replace_in_file(P, num, "-1", "neg.json"), CUZK_ERR_FORMAT);
    EXPECT(K_PROOF_JSON, replace_in_file(P, "\"bls12381\"", "\"bn254x\"", "curve.json"), CUZK_ERR_CURVE);
    EXPECT(K_PROOF_JSON, replace_in_file(P, "\"groth16\"", "\"plonk\"", "proto.json"), CUZK_ERR_UNSUPPORTED);
    EXPECT(K_PROOF_JSON, replace_in_file(P, "\"pi_c\"", "\"pi_x\"", "nopic.json"), CUZK_ERR_FORMAT);
    free(b);
    /* vk: nPublic inconsistent with IC */
    EXPECT(K_VK_JSON, replace_in_file(V, "\"nPublic\": 1", "\"nPublic\": 2", "np.json"), CUZK_ERR_FORMAT);
    EXPECT(K_VK_JSON, replace_in_file(V, "\"nPublic\": 1", "\"nPublic\": -1", "npn.json"), CUZK_ERR_FORMAT);
    EXPECT(K_VK_JSON, test_fixture(P), CUZK_ERR_FORMAT); /* a proof is not a vk */
    /* public: not an array, non-canonical */
    EXPECT(K_PUBLIC_JSON, test_fixture(P), CUZK_ERR_FORMAT);
    EXPECT(K_PUBLIC_JSON, tmp_write_str("pub.json", "[\"52435875175126190479447740508185965837690552500527637822603658699938581184513\"]"), CUZK_ERR_FORMAT);
    EXPECT(K_PUBLIC_JSON, tmp_write_str("pub2.json", "[33]"), CUZK_ERR_FORMAT);
    EXPECT(K_PUBLIC_JSON, tmp_write_str("pub3.json", "[]"), CUZK_OK);
}
