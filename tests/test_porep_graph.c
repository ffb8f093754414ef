/* porep_graph suite: the SDR graph and its derivations (src/filecoin/porep_graph.c) against
 *  - the parent-cache digests rust-fil-proofs publishes (storage-proofs-porep/parent_cache.json),
 *    whole caches at 2 KiB and 8 MiB (512 MiB with CUZK_TEST_FULL=1; 32 and 64 GiB, one test
 *    per id, with CUZK_TEST_HUGE=1: minutes each on 16 cores);
 *  - tests/fixtures/filecoin/porep_graph.txt (tools/gen_porep_graph_fixture.py): parents of chosen
 *    nodes at every size for ids 0..14 from the independent Python oracle sdr_graph_check.py,
 *    labels (sdr_labels_check.py, which reproduces the last labels hard-coded in rust-fil-proofs
 *    create_label/multi.rs), interactive and synthetic challenges, replica_id, BLAKE2b and
 *    ChaCha20 from hashlib / the 'cryptography' package;
 *  - rust-fil-proofs challenges.rs test_synth_challenges_against_hardcoded (known answers);
 *  - OpenSSL (SHA-256, BLAKE2b-512) on fresh random inputs. */
#include "test.h"

#include <openssl/evp.h>
#include <openssl/sha.h>
#include <stdlib.h>
#include <string.h>

#include "filecoin/porep.h"
#include "filecoin/porep_graph.h"
#include "util/timer.h"

/* ---- the fixture ---- */

typedef struct { char **lines; size_t n; char *text; } fixture;

static bool fixture_load(fixture *f) {
    size_t n;
    memset(f, 0, sizeof *f);
    f->text = (char *)test_slurp(test_fixture("filecoin/porep_graph.txt"), &n);
    if (!f->text) return false;
    size_t cap = 1;
    for (size_t i = 0; i < n; i++) cap += f->text[i] == '\n';
    f->lines = calloc(cap, sizeof *f->lines);
    for (char *save = NULL, *l = strtok_r(f->text, "\n", &save); l; l = strtok_r(NULL, "\n", &save))
        if (l[0] != '#') f->lines[f->n++] = l;
    return true;
}
static void fixture_free(fixture *f) { free(f->lines); free(f->text); }

/* Splits a copy of line into at most max tokens; returns their count. */
static int tokens(char *buf, size_t cap, const char *line, char **tok, int max) {
    snprintf(buf, cap, "%s", line);
    int n = 0;
    for (char *save = NULL, *t = strtok_r(buf, " ", &save); t && n < max; t = strtok_r(NULL, " ", &save)) tok[n++] = t;
    return n;
}
/* Hex to bytes: the number of bytes, -1 on a bad digit. "-" is empty. */
static long unhex(uint8_t *out, size_t cap, const char *h) {
    if (!strcmp(h, "-")) return 0;
    size_t n = strlen(h) / 2;
    if (n > cap || strlen(h) % 2) return -1;
    for (size_t i = 0; i < n; i++) {
        unsigned v;
        if (sscanf(h + 2 * i, "%2x", &v) != 1) return -1;
        out[i] = (uint8_t)v;
    }
    return (long)n;
}
static void hex32(char out[65], const uint8_t b[32]) {
    for (int i = 0; i < 32; i++) sprintf(out + 2 * i, "%02x", b[i]);
}
static uint64_t reg_of_nodes(uint64_t nodes, uint64_t group) {
    static const uint64_t sz[5] = {2048, 8 << 20, 512 << 20, 32ull << 30, 64ull << 30};
    for (uint64_t i = 0; i < 5; i++)
        if (sz[i] / 32 == nodes) return group * 5 + i;
    return UINT64_MAX;
}

/* ---- parameters ---- */

TEST(porep_graph, params) {
    static const uint64_t sizes[5] = {2048, 8 << 20, 512 << 20, 32ull << 30, 64ull << 30};
    for (uint64_t id = 0; id < 15; id++) {
        porep_params pp;
        cuzk_error e = {0};
        REQUIRE_MSG(porep_params_from_proof(&pp, id, &e) == CUZK_OK, "id %llu: %s", (unsigned long long)id, e.msg);
        bool big = id % 5 >= 3;
        CHECK_EQ_INT(pp.registered_proof, id);
        CHECK_EQ_INT(pp.sector_size, sizes[id % 5]);
        CHECK_EQ_INT(pp.nodes, sizes[id % 5] / 32);
        CHECK_EQ_INT(pp.layers, big ? 11 : 2);
        CHECK_EQ_INT(pp.partitions, big ? 10 : 1);
        CHECK_EQ_INT(pp.challenges, big ? 18 : 2);
        CHECK_EQ_INT(pp.api_version, 10 + (int)(id / 5));
        CHECK(pp.synthetic == (id >= 10));
        CHECK_EQ_INT(1ull << pp.d_levels, pp.nodes);
        CHECK_EQ_INT(merkle_leaves(&pp.shape), pp.nodes);
        CHECK_EQ_INT(pp.shape.base_arity, 8);
        CHECK_EQ_INT(pp.shape.sub_arity, big ? 8 : 0);
        CHECK_EQ_INT(pp.shape.top_arity, id % 5 == 4 ? 2 : 0);
        /* porep_id = u64 LE id || u64 LE nonce 0 || 0^16 (POREP.md section 1) */
        uint8_t pid[32] = {0};
        pid[0] = (uint8_t)id;
        CHECK_MEM(pp.porep_id, pid, 32);
        /* derived seeds: SHA-256 of the domain tag and porep_id (OpenSSL here, one shot) */
        uint8_t buf[64], h[32];
        memcpy(buf, "Filecoin_DRSample", 17);
        memcpy(buf + 17, pid, 32);
        SHA256(buf, 49, h);
        CHECK_MEM(pp.drg_seed, h, 28);
        memcpy(buf, "Filecoin_Feistel", 16);
        memcpy(buf + 16, pid, 32);
        SHA256(buf, 48, h);
        for (int i = 0; i < 3; i++) {
            uint64_t k = 0;
            for (int j = 7; j >= 0; j--) k = k << 8 | h[8 * i + j];
            CHECK_EQ_INT(pp.feistel_keys[i], k);
        }
        /* names round trip */
        const char *name = porep_proof_name(id);
        REQUIRE(name);
        CHECK_EQ_INT(porep_proof_from_name(name), id);
    }
    CHECK(!strcmp(porep_proof_name(8), "StackedDrg32GiBV1_1"));
    CHECK(!strcmp(porep_proof_name(3), "StackedDrg32GiBV1"));
    CHECK(!strcmp(porep_proof_name(13), "StackedDrg32GiBV1_1_Feat_SyntheticPoRep"));
    CHECK(!strcmp(porep_proof_name(18), "StackedDrg32GiBV1_2_Feat_NonInteractivePoRep"));
    CHECK_EQ_INT(porep_proof_from_name("StackedDrg64GiBV1_2_Feat_NonInteractivePoRep"), 19);
    CHECK(porep_proof_name(20) == NULL);
    CHECK(porep_proof_from_name("StackedDrg32GiBV1_2") == UINT64_MAX);
    CHECK(porep_proof_from_name("") == UINT64_MAX);
    CHECK(porep_proof_from_name(NULL) == UINT64_MAX);

    /* porep_params_init gives the same parameters, registered_proof aside */
    porep_params a, b;
    REQUIRE(porep_params_from_proof(&a, 13, NULL) == CUZK_OK);
    REQUIRE(porep_params_init(&b, 32ull << 30, a.porep_id, 12, true, NULL) == CUZK_OK);
    CHECK(b.registered_proof == UINT64_MAX);
    b.registered_proof = a.registered_proof;
    CHECK_MEM(&a, &b, sizeof a);
}

TEST(porep_graph, bad_args) {
    porep_params pp;
    cuzk_error e = {0};
    for (uint64_t id = 15; id < 20; id++) {
        CHECK_EQ_INT(porep_params_from_proof(&pp, id, &e), CUZK_ERR_ARG);
        CHECK_MSG(strstr(e.msg, "NI-PoRep") != NULL, "id %llu: %s", (unsigned long long)id, e.msg);
    }
    CHECK_EQ_INT(porep_params_from_proof(&pp, 20, &e), CUZK_ERR_ARG);
    CHECK_EQ_INT(porep_params_from_proof(&pp, UINT64_MAX, &e), CUZK_ERR_ARG);
    CHECK_EQ_INT(porep_params_from_proof(NULL, 5, &e), CUZK_ERR_ARG);
    uint8_t pid[32] = {5};
    CHECK_EQ_INT(porep_params_init(&pp, 4096, pid, 11, false, &e), CUZK_ERR_ARG);
    CHECK(strstr(e.msg, "4096") != NULL);
    CHECK_EQ_INT(porep_params_init(&pp, 1ull << 30, pid, 11, false, &e), CUZK_ERR_ARG);
    CHECK_EQ_INT(porep_params_init(&pp, 2048, pid, 13, false, &e), CUZK_ERR_ARG);
    CHECK_EQ_INT(porep_params_init(&pp, 2048, pid, 9, false, &e), CUZK_ERR_ARG);
    CHECK_EQ_INT(porep_params_init(&pp, 2048, pid, 11, true, &e), CUZK_ERR_ARG);
    CHECK(strstr(e.msg, "Synthetic") != NULL);
    CHECK_EQ_INT(porep_params_init(&pp, 2048, NULL, 11, false, &e), CUZK_ERR_ARG);
    CHECK_EQ_INT(porep_params_init(&pp, 2048, pid, 12, false, &e), CUZK_OK);

    uint8_t rid[32] = {1}, seed[32] = {2}, commr[32] = {3};
    uint64_t ch[POREP_MAX_CHALLENGES];
    REQUIRE(porep_params_from_proof(&pp, 8, NULL) == CUZK_OK);
    CHECK_EQ_INT(porep_challenges(ch, &pp, rid, NULL, seed, 9, &e), CUZK_OK);
    CHECK_EQ_INT(porep_challenges(ch, &pp, rid, NULL, seed, 10, &e), CUZK_ERR_ARG);
    CHECK(strstr(e.msg, "partition 10") != NULL);
    CHECK_EQ_INT(porep_challenges(ch, &pp, rid, NULL, seed, UINT32_MAX, &e), CUZK_ERR_ARG);
    CHECK_EQ_INT(porep_challenges(ch, &pp, NULL, NULL, seed, 0, &e), CUZK_ERR_ARG);
    CHECK_EQ_INT(porep_challenges(ch, &pp, rid, NULL, NULL, 0, &e), CUZK_ERR_ARG);
    REQUIRE(porep_params_from_proof(&pp, 10, NULL) == CUZK_OK);
    CHECK_EQ_INT(porep_challenges(ch, &pp, rid, NULL, seed, 0, &e), CUZK_ERR_ARG);
    CHECK(strstr(e.msg, "comm_r") != NULL);
    CHECK_EQ_INT(porep_challenges(ch, &pp, rid, commr, seed, 1, &e), CUZK_ERR_ARG);
    CHECK_EQ_INT(porep_challenges(ch, &pp, rid, commr, seed, 0, &e), CUZK_OK);

    uint8_t(*labels)[32] = malloc(64 * 32);
    REQUIRE(labels);
    REQUIRE(porep_params_from_proof(&pp, 8, NULL) == CUZK_OK); /* 2^30 nodes: too many to hold */
    CHECK_EQ_INT(porep_labels_all(labels, &pp, rid, 1, &e), CUZK_ERR_ARG);
    REQUIRE(porep_params_from_proof(&pp, 5, NULL) == CUZK_OK);
    CHECK_EQ_INT(porep_labels_all(NULL, &pp, rid, 1, &e), CUZK_ERR_ARG);
    CHECK_EQ_INT(porep_labels_all(labels, &pp, NULL, 1, &e), CUZK_ERR_ARG);
    pp.layers = 12;
    CHECK_EQ_INT(porep_labels_all(labels, &pp, rid, 1, &e), CUZK_ERR_ARG);
    free(labels);
}

/* ---- parents ---- */

TEST(porep_graph, parents) {
    fixture f;
    REQUIRE_MSG(fixture_load(&f), "fixture filecoin/porep_graph.txt missing");
    int checked = 0, per_id[15] = {0};
    for (size_t li = 0; li < f.n; li++) {
        if (strncmp(f.lines[li], "parents ", 8)) continue;
        char buf[512], *t[20];
        REQUIRE(tokens(buf, sizeof buf, f.lines[li], t, 20) == 17);
        uint64_t id = strtoull(t[1], NULL, 10), node = strtoull(t[2], NULL, 10);
        porep_params pp;
        REQUIRE(porep_params_from_proof(&pp, id, NULL) == CUZK_OK);
        uint32_t p[POREP_PARENTS], d[POREP_DRG_DEGREE], x[POREP_EXP_DEGREE], r[1][POREP_PARENTS];
        porep_parents(&pp, node, p);
        porep_drg_parents(&pp, node, d);
        porep_exp_parents(&pp, node, x);
        porep_parents_range(&pp, node, 1, r, 1);
        bool ok = true;
        for (int j = 0; j < POREP_PARENTS; j++) {
            uint32_t want = (uint32_t)strtoul(t[3 + j], NULL, 10);
            ok &= p[j] == want && r[0][j] == want && (j < POREP_DRG_DEGREE ? d[j] : x[j - POREP_DRG_DEGREE]) == want;
        }
        CHECK_MSG(ok, "id %llu node %llu: parents differ from the oracle (%s)", (unsigned long long)id,
                  (unsigned long long)node, f.lines[li]);
        /* the predecessor's slot: 5 under api 1.0, 0 later */
        if (node >= 2) CHECK_EQ_INT(p[pp.api_version == 10 ? 5 : 0], node - 1);
        checked++;
        per_id[id]++;
    }
    for (int id = 0; id < 15; id++) CHECK_MSG(per_id[id] >= 8, "id %d: %d nodes in the fixture", id, per_id[id]);
    printf("  %d nodes' parents match the oracle (ids 0..14, 2 KiB .. 64 GiB)\n", checked);
    fixture_free(&f);
}

/* The batched path (porep_parents_range: the Feistel in vector lanes, walks across passes)
 * against porep_parents node by node, every id, ranges not aligned to its batches. */
TEST(porep_graph, parents_batch) {
    enum { N = 203 };
    uint32_t(*r)[POREP_PARENTS] = malloc(N * sizeof *r);
    REQUIRE(r);
    int bad = 0;
    for (uint64_t id = 0; id < 15; id++) {
        porep_params pp;
        REQUIRE(porep_params_from_proof(&pp, id, NULL) == CUZK_OK);
        uint64_t firsts[3] = {0, pp.nodes - N, 2 + test_rand64() % (pp.nodes - N - 2)};
        for (int s = 0; s < 3; s++) {
            uint64_t first = firsts[s], count = pp.nodes < N ? pp.nodes : N;
            if (pp.nodes < N) first = 0;
            porep_parents_range(&pp, first, count, r, 2);
            for (uint64_t i = 0; i < count; i++) {
                uint32_t p[POREP_PARENTS];
                porep_parents(&pp, first + i, p);
                bad += memcmp(p, r[i], sizeof p) != 0;
            }
        }
    }
    CHECK_EQ_INT(bad, 0);
    free(r);
}

/* The parent cache digest of registered proof id, computed node by node with porep_parents (one
 * path) or by porep_parent_cache_digest (the batch path). */
static void cache_digest_single(uint8_t out[32], const porep_params *pp) {
    EVP_MD_CTX *md = EVP_MD_CTX_new();
    EVP_DigestInit_ex(md, EVP_sha256(), NULL);
    for (uint64_t v = 0; v < pp->nodes; v++) {
        uint32_t p[POREP_PARENTS];
        uint8_t b[4 * POREP_PARENTS];
        porep_parents(pp, v, p);
        for (int j = 0; j < POREP_PARENTS; j++)
            for (int k = 0; k < 4; k++) b[4 * j + k] = (uint8_t)(p[j] >> (8 * k));
        EVP_DigestUpdate(md, b, sizeof b);
    }
    unsigned len = 32;
    EVP_DigestFinal_ex(md, out, &len);
    EVP_MD_CTX_free(md);
}

/* The parent caches of size size_index (0..4: 2 KiB .. 64 GiB) for ids 0..9 (only_id: just that
 * one, or UINT64_MAX for both) against the published digests. */
static void check_caches(uint64_t size_index, uint64_t only_id, int nthreads) {
    fixture f;
    REQUIRE_MSG(fixture_load(&f), "fixture filecoin/porep_graph.txt missing");
    int checked = 0;
    for (size_t li = 0; li < f.n; li++) {
        if (strncmp(f.lines[li], "cache ", 6)) continue;
        char buf[256], *t[4];
        REQUIRE(tokens(buf, sizeof buf, f.lines[li], t, 4) == 3);
        uint64_t id = strtoull(t[1], NULL, 10);
        if (id % 5 != size_index || (only_id != UINT64_MAX && id != only_id)) continue;
        porep_params pp;
        REQUIRE(porep_params_from_proof(&pp, id, NULL) == CUZK_OK);
        uint8_t want[32], got[32];
        REQUIRE(unhex(want, 32, t[2]) == 32);
        double t0 = now_ms();
        cuzk_error e = {0};
        REQUIRE_MSG(porep_parent_cache_digest(got, &pp, nthreads, &e) == CUZK_OK, "%s", e.msg);
        char hx[65];
        hex32(hx, got);
        CHECK_MSG(!memcmp(got, want, 32), "%s: parent cache digest %s, published %s", porep_proof_name(id), hx, t[2]);
        printf("  %s: parent cache digest %s parent_cache.json (%.0f ms)\n", porep_proof_name(id),
               memcmp(got, want, 32) ? "DIFFERS from" : "matches", now_ms() - t0);
        if (pp.nodes <= 64) {
            cache_digest_single(got, &pp);
            CHECK_MEM(got, want, 32);
        }
        checked++;
    }
    CHECK_EQ_INT(checked, only_id == UINT64_MAX ? 2 : 1);
    fixture_free(&f);
}

TEST(porep_graph, cache_2k) { check_caches(0, UINT64_MAX, 1); }
TEST(porep_graph, cache_8m) { check_caches(1, UINT64_MAX, 0); }
TEST(porep_graph, cache_512m) {
    if (!getenv("CUZK_TEST_FULL")) SKIP("2 x 2^24 nodes (~1.5 min on one core): CUZK_TEST_FULL=1 runs it");
    check_caches(2, UINT64_MAX, 0);
}
/* 2^30 / 2^31 nodes each: about 2.5 us per node on one core plus SHA-256 of 56 / 112 GiB, so
 * ~3 / ~6 minutes on 16 cores; one id per test to stay inside a 10-minute run. */
#define HUGE_SKIP() \
    if (!getenv("CUZK_TEST_HUGE")) SKIP("2^30+ nodes (minutes on 16 cores): CUZK_TEST_HUGE=1 runs it")
TEST(porep_graph, cache_32g_v1) { HUGE_SKIP(); check_caches(3, 3, 0); }
TEST(porep_graph, cache_32g_v1_1) { HUGE_SKIP(); check_caches(3, 8, 0); }
TEST(porep_graph, cache_64g_v1) { HUGE_SKIP(); check_caches(4, 4, 0); }
TEST(porep_graph, cache_64g_v1_1) { HUGE_SKIP(); check_caches(4, 9, 0); }

/* Printed, not asserted beyond the parents' ranges: the cost of one node's parents at 32 GiB. */
TEST(porep_graph, measure_32g) {
    porep_params pp;
    REQUIRE(porep_params_from_proof(&pp, 8, NULL) == CUZK_OK);
    const uint64_t n = 4096, first = pp.nodes - n - 12345;
    uint32_t(*p)[POREP_PARENTS] = malloc(n * sizeof *p);
    REQUIRE(p);
    double t0 = now_ms();
    for (uint64_t i = 0; i < n; i++) porep_parents(&pp, first + i, p[i]);
    double ms = now_ms() - t0;
    t0 = now_ms();
    uint32_t d[POREP_DRG_DEGREE];
    for (uint64_t i = 0; i < n; i++) porep_drg_parents(&pp, first + i, d);
    double ms_drg = now_ms() - t0;
    uint32_t(*q)[POREP_PARENTS] = malloc(n * sizeof *q);
    REQUIRE(q);
    t0 = now_ms();
    porep_parents_range(&pp, first, n, q, 1);
    double ms_batch = now_ms() - t0;
    CHECK(!memcmp(p, q, n * sizeof *q));
    free(q);
    bool ok = true;
    for (uint64_t i = 0; i < n; i++)
        for (int j = 0; j < POREP_PARENTS; j++)
            ok &= j < POREP_DRG_DEGREE ? p[i][j] < first + i : p[i][j] < pp.nodes;
    CHECK(ok);
    printf("  32 GiB parents, one thread, %llu nodes: porep_parents %.2f us/node (DRG %.2f us, expander %.2f us); "
           "porep_parents_range %.2f us/node\n", (unsigned long long)n, 1e3 * ms / (double)n, 1e3 * ms_drg / (double)n,
           1e3 * (ms - ms_drg) / (double)n, 1e3 * ms_batch / (double)n);
    free(p);
}

/* ---- labels ---- */

TEST(porep_graph, labels) {
    fixture f;
    REQUIRE_MSG(fixture_load(&f), "fixture filecoin/porep_graph.txt missing");
    int checked = 0;
    for (size_t li = 0; li < f.n; li++) {
        if (strncmp(f.lines[li], "labels ", 7)) continue;
        char buf[512], *t[10];
        REQUIRE(tokens(buf, sizeof buf, f.lines[li], t, 10) == 8);
        uint64_t nodes = strtoull(t[1], NULL, 10);
        int layers = atoi(t[2]), v10 = atoi(t[4]);
        uint8_t pid[32], rid[32], last[32], all[32];
        REQUIRE(unhex(pid, 32, t[3]) == 32 && unhex(rid, 32, t[5]) == 32 && unhex(last, 32, t[6]) == 32);
        porep_params pp;
        REQUIRE(porep_params_init(&pp, 2048, pid, v10 ? 10 : 11, false, NULL) == CUZK_OK);
        pp.nodes = nodes; /* the known answers use 128 nodes too (porep_graph.h: graph functions read these) */
        pp.layers = layers;
        uint8_t(*l)[32] = malloc(nodes * (size_t)layers * 32);
        REQUIRE(l);
        cuzk_error e = {0};
        REQUIRE_MSG(porep_labels_all(l, &pp, rid, 2, &e) == CUZK_OK, "%s", e.msg);
        CHECK_MSG(!memcmp(l[nodes * (size_t)layers - 1], last, 32), "last label: %s", f.lines[li]);
        if (strcmp(t[7], "-")) {
            REQUIRE(unhex(all, 32, t[7]) == 32);
            uint8_t h[32];
            SHA256((const uint8_t *)l, nodes * (size_t)layers * 32, h);
            CHECK_MSG(!memcmp(h, all, 32), "all labels: %s", f.lines[li]);
        }
        /* the parents computed in chunks (a size that does not divide nodes) give the same labels */
        uint8_t(*l2)[32] = malloc(nodes * (size_t)layers * 32);
        REQUIRE(l2);
        REQUIRE(porep_labels_all_chunked(l2, &pp, rid, 2, 7, &e) == CUZK_OK);
        CHECK(!memcmp(l, l2, nodes * (size_t)layers * 32));
        free(l2);
        /* every label is a domain value */
        bool masked = true;
        for (size_t i = 0; i < nodes * (size_t)layers; i++) masked &= l[i][31] < 0x40;
        CHECK(masked);
        free(l);
        checked++;
    }
    CHECK_EQ_INT(checked, 7);
    fixture_free(&f);
}

TEST(porep_graph, label_pieces) {
    /* porep_expand_parents: layer 1 cycles the 6 DRG labels, later layers the 14 */
    uint8_t in[POREP_PARENTS][32], ex[POREP_LABEL_PARENTS][32];
    test_rand_bytes(in, sizeof in);
    for (uint32_t layer = 1; layer <= 3; layer++) {
        porep_expand_parents(ex, (const uint8_t(*)[32])in, layer);
        for (int i = 0; i < POREP_LABEL_PARENTS; i++)
            CHECK_MEM(ex[i], in[layer == 1 ? i % 6 : i % 14], 32);
    }
    /* porep_label against SHA-256 of the layout spelled out here */
    uint8_t rid[32], out[32], want[32], buf[64 + 37 * 32] = {0};
    test_rand_bytes(rid, 32);
    uint64_t node = test_rand64() >> 34;
    uint32_t layer = 1 + (uint32_t)(test_rand64() % 11);
    memcpy(buf, rid, 32);
    buf[32] = (uint8_t)(layer >> 24), buf[33] = (uint8_t)(layer >> 16), buf[34] = (uint8_t)(layer >> 8), buf[35] = (uint8_t)layer;
    for (int i = 0; i < 8; i++) buf[36 + i] = (uint8_t)(node >> (56 - 8 * i));
    memcpy(buf + 64, ex, sizeof ex);
    SHA256(buf, sizeof buf, want);
    want[31] &= 0x3f;
    porep_label(out, rid, layer, node, (const uint8_t(*)[32])ex);
    CHECK_MEM(out, want, 32);
    SHA256(buf, 64, want);
    want[31] &= 0x3f;
    porep_label(out, rid, layer, 0, NULL); /* node 0: the prefix only */
    buf[36] = buf[37] = buf[38] = buf[39] = buf[40] = buf[41] = buf[42] = buf[43] = 0;
    SHA256(buf, 64, want);
    want[31] &= 0x3f;
    CHECK_MEM(out, want, 32);
    /* porep_sha256_node */
    uint8_t lr[64];
    test_rand_bytes(lr, 64);
    SHA256(lr, 64, want);
    want[31] &= 0x3f;
    porep_sha256_node(out, lr, lr + 32);
    CHECK_MEM(out, want, 32);
}

/* ---- challenges ---- */

static void check_challenge_lines(const char *kind) {
    fixture f;
    REQUIRE_MSG(fixture_load(&f), "fixture filecoin/porep_graph.txt missing");
    bool synth = kind[0] == 's';
    int checked = 0, per_size[5] = {0};
    for (size_t li = 0; li < f.n; li++) {
        if (strncmp(f.lines[li], kind, 6)) continue;
        char buf[1024], *t[40];
        int nt = tokens(buf, sizeof buf, f.lines[li], t, 40);
        int base = synth ? 7 : 6;
        uint64_t nodes = strtoull(t[1], NULL, 10);
        uint32_t cpp = (uint32_t)atoi(t[2]), k = (uint32_t)atoi(t[3]);
        REQUIRE(nt == base + (int)cpp);
        uint8_t rid[32], commr[32], seed[32];
        REQUIRE(unhex(rid, 32, t[4]) == 32);
        if (synth) REQUIRE(unhex(commr, 32, t[5]) == 32);
        REQUIRE(unhex(seed, 32, t[synth ? 6 : 5]) == 32);
        uint64_t id = reg_of_nodes(nodes, synth ? 2 : 1);
        porep_params pp;
        REQUIRE(porep_params_from_proof(&pp, id, NULL) == CUZK_OK);
        REQUIRE(pp.challenges == (int)cpp);
        uint64_t ch[POREP_MAX_CHALLENGES];
        cuzk_error e = {0};
        REQUIRE_MSG(porep_challenges(ch, &pp, rid, synth ? commr : NULL, seed, k, &e) == CUZK_OK, "%s", e.msg);
        bool ok = true;
        for (uint32_t i = 0; i < cpp; i++) ok &= ch[i] == strtoull(t[base + i], NULL, 10);
        CHECK_MSG(ok, "challenges differ: %s", f.lines[li]);
        checked++;
        per_size[id % 5]++;
    }
    for (int s = 0; s < 5; s++) CHECK(per_size[s] >= 2);
    printf("  %d partitions of %s challenges match the Python derivation\n", checked, synth ? "synthetic" : "interactive");
    fixture_free(&f);
}

TEST(porep_graph, challenges_interactive) { check_challenge_lines("ichal "); }
TEST(porep_graph, challenges_synthetic) { check_challenge_lines("schal "); }

TEST(porep_graph, challenges_synthetic_kat) {
    /* rust-fil-proofs challenges.rs test_synth_challenges_against_hardcoded: 2^10 nodes,
     * replica_id = Fr 55, comm_r = Fr 101, 21 synthetic challenges, 10 porep challenges, rand [1; 32] */
    static const uint64_t synth[21] = {178, 297, 869, 211, 875, 477, 94, 781, 124, 332, 856,
                                       801, 176, 692, 429, 691, 290, 204, 986, 210, 973};
    static const uint64_t porep[10] = {176, 781, 801, 986, 290, 211, 692, 856, 986, 332};
    uint8_t rid[32] = {55}, commr[32] = {101}, rand[32];
    memset(rand, 1, 32);
    for (uint64_t i = 0; i < 21; i++) CHECK_EQ_INT(porep_synth_challenge(rid, commr, 1024, i), synth[i]);
    uint64_t idx[10];
    porep_synth_indexes(idx, rid, rand, 0, 10, 21);
    for (int i = 0; i < 10; i++) CHECK_EQ_INT(porep_synth_challenge(rid, commr, 1024, idx[i]), porep[i]);
    /* partitions are windows of one selection stream */
    uint64_t a[18], b[6];
    porep_synth_indexes(a, rid, rand, 0, 18, 1u << 18);
    porep_synth_indexes(b, rid, rand, 12, 6, 1u << 18);
    CHECK(!memcmp(a + 12, b, sizeof b));
}

TEST(porep_graph, challenges_range) {
    /* random replica ids and seeds at every size: challenges in [1, nodes), partition k of the
     * interactive set equals challenge j = cpp k + i */
    for (uint64_t id = 5; id < 15; id++) {
        porep_params pp;
        REQUIRE(porep_params_from_proof(&pp, id, NULL) == CUZK_OK);
        uint8_t rid[32], commr[32], seed[32];
        test_rand_bytes(rid, 32), test_rand_bytes(commr, 32), test_rand_bytes(seed, 32);
        rid[31] &= 0x3f, commr[31] &= 0x3f;
        for (uint32_t k = 0; k < (uint32_t)pp.partitions; k++) {
            uint64_t ch[POREP_MAX_CHALLENGES];
            REQUIRE(porep_challenges(ch, &pp, rid, commr, seed, k, NULL) == CUZK_OK);
            for (int i = 0; i < pp.challenges; i++) {
                CHECK(ch[i] >= 1 && ch[i] < pp.nodes);
                if (!pp.synthetic)
                    CHECK_EQ_INT(ch[i], porep_interactive_challenge(rid, seed, (uint32_t)pp.challenges * k + (uint32_t)i, pp.nodes));
            }
        }
    }
}

/* ---- replica_id, hashes ---- */

TEST(porep_graph, replica_id) {
    fixture f;
    REQUIRE_MSG(fixture_load(&f), "fixture filecoin/porep_graph.txt missing");
    int checked = 0;
    for (size_t li = 0; li < f.n; li++) {
        if (strncmp(f.lines[li], "replica ", 8)) continue;
        char buf[512], *t[10];
        REQUIRE(tokens(buf, sizeof buf, f.lines[li], t, 10) == 7);
        uint8_t prover[32], ticket[32], commd[32], pid[32], want[32], got[32];
        REQUIRE(unhex(prover, 32, t[1]) == 32 && unhex(ticket, 32, t[3]) == 32 && unhex(commd, 32, t[4]) == 32 &&
                unhex(pid, 32, t[5]) == 32 && unhex(want, 32, t[6]) == 32);
        porep_replica_id(got, prover, strtoull(t[2], NULL, 10), ticket, commd, pid);
        CHECK_MSG(!memcmp(got, want, 32), "replica_id: %s", f.lines[li]);
        checked++;
    }
    CHECK_EQ_INT(checked, 4);
    /* the prover id is the payload of the ID address f0<id>: unsigned LEB128 (go-address
     * NewIDAddress), zero-padded; known answers of the encoding */
    static const struct { uint64_t id; uint8_t n, b[10]; } KAT[] = {
        {0, 1, {0x00}}, {127, 1, {0x7f}}, {128, 2, {0x80, 0x01}}, {1000, 2, {0xe8, 0x07}},
        {1234567, 3, {0x87, 0xad, 0x4b}}, {UINT64_MAX, 10, {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01}}};
    for (size_t k = 0; k < sizeof KAT / sizeof *KAT; k++) {
        uint8_t p[32], want[32] = {0};
        memcpy(want, KAT[k].b, KAT[k].n);
        porep_prover_id(p, KAT[k].id);
        CHECK_MEM(p, want, 32);
    }
    fixture_free(&f);
}

TEST(porep_graph, blake2b_chacha20) {
    fixture f;
    REQUIRE_MSG(fixture_load(&f), "fixture filecoin/porep_graph.txt missing");
    int nb = 0, nc = 0;
    for (size_t li = 0; li < f.n; li++) {
        char buf[4096], *t[8];
        if (!strncmp(f.lines[li], "blake2b ", 8)) {
            REQUIRE(tokens(buf, sizeof buf, f.lines[li], t, 8) == 5);
            size_t outlen = (size_t)atoi(t[1]);
            uint8_t key[64], in[1024], want[64], got[64];
            long kl = unhex(key, sizeof key, t[2]), il = unhex(in, sizeof in, t[3]);
            REQUIRE(kl >= 0 && il >= 0 && unhex(want, 64, t[4]) == (long)outlen);
            porep_blake2b(got, outlen, key, (size_t)kl, in, (size_t)il);
            CHECK_MSG(!memcmp(got, want, outlen), "blake2b: %s", f.lines[li]);
            nb++;
        } else if (!strncmp(f.lines[li], "chacha20 ", 9)) {
            REQUIRE(tokens(buf, sizeof buf, f.lines[li], t, 8) == 6);
            uint8_t key[32], nonce[12], want[256], got[256];
            size_t n = (size_t)atoi(t[4]);
            REQUIRE(unhex(key, 32, t[1]) == 32 && unhex(nonce, 12, t[2]) == 12 && unhex(want, sizeof want, t[5]) == (long)n);
            porep_chacha20_stream(got, n, key, nonce, strtoull(t[3], NULL, 10));
            CHECK_MSG(!memcmp(got, want, n), "chacha20: %s", f.lines[li]);
            nc++;
        }
    }
    CHECK_EQ_INT(nb, 10);
    CHECK_EQ_INT(nc, 6);
    /* OpenSSL's BLAKE2b-512 on fresh inputs of every length up to 300 bytes */
    uint8_t in[300], got[64], want[64];
    test_rand_bytes(in, sizeof in);
    bool ok = true;
    for (size_t n = 0; n <= sizeof in; n++) {
        unsigned len = 64;
        EVP_Digest(in, n, want, &len, EVP_blake2b512(), NULL);
        porep_blake2b(got, 64, NULL, 0, in, n);
        ok &= !memcmp(got, want, 64);
    }
    CHECK(ok);
    /* ChaCha20, RFC 8439 section 2.3.2 test vector: key 00..1f, nonce 000000090000004a00000000, counter 1 */
    uint32_t st[16] = {0x61707865, 0x3320646e, 0x79622d32, 0x6b206574}, out[16];
    for (int i = 0; i < 8; i++)
        st[4 + i] = (uint32_t)(4 * i) | (uint32_t)(4 * i + 1) << 8 | (uint32_t)(4 * i + 2) << 16 | (uint32_t)(4 * i + 3) << 24;
    st[12] = 1, st[13] = 0x09000000, st[14] = 0x4a000000, st[15] = 0;
    porep_chacha_block(out, st, 20);
    static const uint32_t rfc[16] = {0xe4e7f110, 0x15593bd1, 0x1fdd0f50, 0xc47120a3, 0xc7f4d1c7, 0x0368c033,
                                     0x9aaa2204, 0x4e6cd4c3, 0x466482d2, 0x09aa9f07, 0x05d7c214, 0xa2028bd9,
                                     0xd19c12b5, 0xb94e16de, 0xe883d0cb, 0x4e3c50a2};
    CHECK(!memcmp(out, rfc, sizeof rfc));
    fixture_free(&f);
}
