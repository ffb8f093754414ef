/* porep_c1 suite: the C1 output's JSON (src/filecoin/porep_c1.h).
 *   - write -> read round trips on random C1 structures of every tree variant (Single 2 KiB and
 *     8 MiB, Sub 32 GiB, Top 64 GiB), plain and in Curio's wrapper;
 *   - the serde fixture (tests/fixtures/filecoin/c1_2k_serde.json, made by
 *     tools/gen_porep_c1_fixture.py from the Rust sources' shape): read, spot-checked against
 *     jansson's reading of the same file, written back byte for byte; the same document re-keyed
 *     and re-spaced by jansson (sorted keys, indentation) reads to the same structure;
 *   - the writer's Sub / Top proofs have serde's keys in serde's order (checked with jansson);
 *   - the wrapper's base64 against OpenSSL's encoder;
 *   - corrupted inputs refused with CUZK_ERR_FORMAT and a message naming the field.
 */
#include "test.h"
#include "test_rand.h"

#include <jansson.h>
#include <openssl/evp.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cuzk/filecoin.h"
#include "filecoin/porep_c1.h"

/* ---- helpers ---- */

static void rand_bytes32(uint8_t b[32]) {
    test_rand_bytes(b, 32);
    b[31] &= 0x3f;
}

static void rand_path(merkle_path *p, const merkle_shape *s) {
    for (int l = 0; l < merkle_levels(s); l++) {
        int a = merkle_level_arity(s, l);
        for (int j = 0; j < a - 1; j++) test_rand_fr(&p->siblings[l][j]);
        p->index[l] = (uint32_t)(test_rand64() % (uint64_t)a);
    }
}

static void rand_column(porep_column_proof *cp, const porep_params *pp) {
    cp->index = (uint32_t)(test_rand64() % pp->nodes);
    for (int l = 0; l < pp->layers; l++) test_rand_fr(&cp->rows[l]);
    rand_path(&cp->path, &pp->shape);
    test_rand_fr(&cp->leaf);
    test_rand_fr(&cp->root);
}

static void rand_label(porep_label_proof *lp, uint32_t layer, uint64_t node) {
    lp->layer_index = layer;
    lp->node = node;
    for (int j = 0; j < POREP_LABEL_PARENTS; j++) test_rand_fr(&lp->parents[j]);
}

/* A C1 structure of registered proof id with random contents (the unused parts zero, as the
 * reader leaves them). */
static bool rand_c1(porep_c1 *c1, uint64_t id) {
    memset(c1, 0, sizeof *c1);
    if (porep_params_from_proof(&c1->pp, id, NULL) != CUZK_OK) return false;
    const porep_params *pp = &c1->pp;
    c1->n_partitions = (uint32_t)pp->partitions;
    c1->n_challenges = (uint32_t)pp->challenges;
    c1->proofs = calloc((size_t)pp->partitions * (size_t)pp->challenges, sizeof *c1->proofs);
    if (!c1->proofs) return false;
    rand_bytes32(c1->comm_r);
    rand_bytes32(c1->comm_d);
    rand_bytes32(c1->replica_id);
    test_rand_bytes(c1->seed, 32);
    test_rand_bytes(c1->ticket, 32);
    const merkle_shape d_shape = {2, pp->d_levels, 0, 0};
    for (size_t t = 0; t < (size_t)pp->partitions * (size_t)pp->challenges; t++) {
        porep_challenge_proof *p = &c1->proofs[t];
        uint64_t node = 1 + test_rand64() % (pp->nodes - 1);
        rand_path(&p->comm_d_path, &d_shape);
        test_rand_fr(&p->comm_d_leaf);
        test_rand_fr(&p->comm_d_root);
        rand_path(&p->comm_r_last_path, &pp->shape);
        test_rand_fr(&p->comm_r_last_leaf);
        test_rand_fr(&p->comm_r_last_root);
        rand_column(&p->c_x, pp);
        for (int j = 0; j < POREP_DRG_DEGREE; j++) rand_column(&p->drg[j], pp);
        for (int j = 0; j < POREP_EXP_DEGREE; j++) rand_column(&p->exp[j], pp);
        for (int l = 0; l < pp->layers; l++) rand_label(&p->labeling[l], (uint32_t)l + 1, node);
        rand_label(&p->encoding, (uint32_t)pp->layers, node);
    }
    return true;
}

static bool c1_equal(const porep_c1 *a, const porep_c1 *b) {
    if (memcmp(&a->pp, &b->pp, sizeof a->pp) != 0) return false;
    if (memcmp(a->comm_r, b->comm_r, 32) || memcmp(a->comm_d, b->comm_d, 32) || memcmp(a->replica_id, b->replica_id, 32) ||
        memcmp(a->seed, b->seed, 32) || memcmp(a->ticket, b->ticket, 32))
        return false;
    if (a->n_partitions != b->n_partitions || a->n_challenges != b->n_challenges) return false;
    return memcmp(a->proofs, b->proofs, (size_t)a->n_partitions * a->n_challenges * sizeof *a->proofs) == 0;
}

static void fr_le(uint8_t out[32], const fr *x) { fr_to_bytes_le(out, 32, x); }

/* The bytes of a jansson array of 32 integers. */
static bool json_bytes32(uint8_t out[32], const json_t *a) {
    if (!json_is_array(a) || json_array_size(a) != 32) return false;
    for (size_t i = 0; i < 32; i++) {
        json_t *v = json_array_get(a, i);
        if (!json_is_integer(v)) return false;
        out[i] = (uint8_t)json_integer_value(v);
    }
    return true;
}

static uint8_t *load_fixture(size_t *n) { return test_slurp(test_fixture("filecoin/c1_2k_serde.json"), n); }

/* ---- round trips ---- */

static void roundtrip(uint64_t id, int wrapper) {
    porep_c1 a, b;
    REQUIRE_MSG(rand_c1(&a, id), "rand_c1 %llu", (unsigned long long)id);
    uint8_t *txt = NULL;
    size_t n = 0;
    cuzk_error e = {0};
    uint64_t sector = test_rand64() >> 1, got_sector = 0;
    CHECK_EQ_INT(porep_c1_write(&a, wrapper, sector, &txt, &n, &e), CUZK_OK);
    REQUIRE(txt && n > 0 && txt[n] == 0 && strlen((char *)txt) == n);
    cuzk_status st = porep_c1_read(&b, txt, n, &got_sector, &e);
    CHECK_MSG(st == CUZK_OK, "id %llu wrapper %d: %s", (unsigned long long)id, wrapper, e.msg);
    if (st == CUZK_OK) {
        CHECK_MSG(c1_equal(&a, &b), "id %llu wrapper %d: read back differs", (unsigned long long)id, wrapper);
        CHECK(got_sector == (wrapper ? sector : UINT64_MAX));
        /* writing what was read gives the same text */
        uint8_t *txt2 = NULL;
        size_t n2 = 0;
        CHECK_EQ_INT(porep_c1_write(&b, wrapper, sector, &txt2, &n2, &e), CUZK_OK);
        CHECK(n2 == n && txt2 && memcmp(txt, txt2, n) == 0);
        free(txt2);
    }
    free(txt);
    porep_c1_free(&a);
    porep_c1_free(&b);
    CHECK(b.proofs == NULL);
}

TEST(porep_c1, roundtrip_json) {
    roundtrip(5, 0);    /* 2 KiB V1_1: Single */
    roundtrip(1, 0);    /* 8 MiB V1 */
    roundtrip(13, 0);   /* 32 GiB synthetic: Sub, 10 x 18 */
    roundtrip(9, 0);    /* 64 GiB V1_1: Top */
}

TEST(porep_c1, roundtrip_wrapper) {
    roundtrip(5, 1);
    roundtrip(10, 1);   /* 2 KiB synthetic */
    roundtrip(8, 1);    /* 32 GiB */
}

/* The wrapper's Phase1Out is the plain JSON in standard base64 (OpenSSL's encoder as the oracle);
 * its keys are Curio's, in Go's struct order. */
TEST(porep_c1, wrapper_base64) {
    for (int it = 0; it < 3; it++) {
        porep_c1 a;
        REQUIRE(rand_c1(&a, 5));
        /* vary the length mod 3 so every padding case comes up */
        a.seed[0] = (uint8_t)(it * 100);
        a.ticket[1] = (uint8_t)(it * 7);
        uint8_t *plain = NULL, *wrapped = NULL;
        size_t np = 0, nw = 0;
        REQUIRE(porep_c1_write(&a, 0, 0, &plain, &np, NULL) == CUZK_OK);
        REQUIRE(porep_c1_write(&a, 1, 77 + (uint64_t)it, &wrapped, &nw, NULL) == CUZK_OK);
        unsigned char *b64 = malloc(4 * ((np + 2) / 3) + 1);
        REQUIRE(b64);
        int nb = EVP_EncodeBlock(b64, plain, (int)np);
        char head[64];
        snprintf(head, sizeof head, "{\"SectorNum\":%d,\"Phase1Out\":\"", 77 + it);
        size_t hl = strlen(head);
        const char *tail = "\",\"SectorSize\":2048}";
        CHECK(nw == hl + (size_t)nb + strlen(tail));
        CHECK(memcmp(wrapped, head, hl) == 0);
        CHECK(memcmp(wrapped + hl, b64, (size_t)nb) == 0);
        CHECK(memcmp(wrapped + hl + nb, tail, strlen(tail)) == 0);
        /* a wrapper with keys in another order and "\/" escapes still reads */
        json_t *w = json_object();
        json_object_set_new(w, "SectorSize", json_integer(2048));
        json_object_set_new(w, "Phase1Out", json_stringn((const char *)b64, (size_t)nb));
        json_object_set_new(w, "SectorNum", json_integer(5));
        char *t = json_dumps(w, JSON_ESCAPE_SLASH | JSON_INDENT(2));
        porep_c1 b;
        uint64_t num = 0;
        cuzk_error e = {0};
        CHECK_MSG(porep_c1_read(&b, (uint8_t *)t, strlen(t), &num, &e) == CUZK_OK, "%s", e.msg);
        CHECK(num == 5);
        CHECK(c1_equal(&a, &b));
        porep_c1_free(&b);
        free(t);
        json_decref(w);
        free(b64);
        free(plain);
        free(wrapped);
        porep_c1_free(&a);
    }
}

/* ---- the serde fixture ---- */

TEST(porep_c1, serde_fixture) {
    size_t n;
    uint8_t *fx = load_fixture(&n);
    REQUIRE_MSG(fx, "fixture filecoin/c1_2k_serde.json missing");
    porep_c1 c1;
    cuzk_error e = {0};
    uint64_t num = 0;
    REQUIRE_MSG(porep_c1_read(&c1, fx, n, &num, &e) == CUZK_OK, "%s", e.msg);
    CHECK(num == UINT64_MAX);
    CHECK(c1.pp.registered_proof == 5);
    CHECK(c1.pp.sector_size == 2048);
    CHECK(c1.n_partitions == 1 && c1.n_challenges == 2);

    /* spot checks against jansson's reading of the same text */
    json_error_t je;
    json_t *root = json_loadb((const char *)fx, n, 0, &je);
    REQUIRE(root);
    uint8_t b[32], g[32];
    CHECK(json_bytes32(b, json_object_get(root, "comm_r")) && memcmp(b, c1.comm_r, 32) == 0);
    CHECK(json_bytes32(b, json_object_get(root, "ticket")) && memcmp(b, c1.ticket, 32) == 0);
    json_t *parts = json_object_get(json_object_get(root, "vanilla_proofs"), "StackedDrg2KiBV1");
    for (size_t i = 0; i < 2; i++) {
        json_t *p = json_array_get(json_array_get(parts, 0), i);
        const porep_challenge_proof *cp = porep_c1_proof(&c1, 0, (uint32_t)i);
        json_t *d = json_object_get(json_object_get(json_object_get(p, "comm_d_proofs"), "data"), "Single");
        CHECK(json_bytes32(b, json_object_get(d, "root")));
        fr_le(g, &cp->comm_d_root);
        CHECK(memcmp(b, g, 32) == 0);
        json_t *pe = json_array_get(json_object_get(json_object_get(d, "path"), "path"), 5);
        CHECK(json_bytes32(b, json_array_get(json_object_get(pe, "hashes"), 0)));
        fr_le(g, &cp->comm_d_path.siblings[5][0]);
        CHECK(memcmp(b, g, 32) == 0);
        CHECK((uint32_t)json_integer_value(json_object_get(pe, "index")) == cp->comm_d_path.index[5]);
        json_t *ex = json_array_get(json_object_get(json_object_get(p, "replica_column_proofs"), "exp_parents"), 7);
        json_t *col = json_object_get(ex, "column");
        CHECK((uint32_t)json_integer_value(json_object_get(col, "index")) == cp->exp[7].index);
        CHECK(json_bytes32(b, json_array_get(json_object_get(col, "rows"), 1)));
        fr_le(g, &cp->exp[7].rows[1]);
        CHECK(memcmp(b, g, 32) == 0);
        json_t *rl = json_object_get(json_object_get(json_object_get(ex, "inclusion_proof"), "data"), "Single");
        json_t *pe2 = json_array_get(json_object_get(json_object_get(rl, "path"), "path"), 1);
        CHECK(json_bytes32(b, json_array_get(json_object_get(pe2, "hashes"), 6)));
        fr_le(g, &cp->exp[7].path.siblings[1][6]);
        CHECK(memcmp(b, g, 32) == 0);
        json_t *lp = json_array_get(json_object_get(p, "labeling_proofs"), 1);
        CHECK(json_bytes32(b, json_array_get(json_object_get(lp, "parents"), 36)));
        fr_le(g, &cp->labeling[1].parents[36]);
        CHECK(memcmp(b, g, 32) == 0);
        CHECK((uint64_t)json_integer_value(json_object_get(lp, "node")) == cp->labeling[1].node);
        CHECK((uint64_t)json_integer_value(json_object_get(json_object_get(p, "encoding_proof"), "layer_index")) == cp->encoding.layer_index);
    }

    /* the writer reproduces serde's text byte for byte */
    uint8_t *w = NULL;
    size_t nw = 0;
    CHECK(porep_c1_write(&c1, 0, 0, &w, &nw, &e) == CUZK_OK);
    CHECK_MSG(nw == n && memcmp(w, fx, n) == 0, "writer output (%zu bytes) differs from the serde fixture (%zu bytes)", nw, n);
    free(w);

    /* keys in another order (sorted: Go's encoding of the mirror types sorts nothing, but a
     * re-encoder may), whitespace, and an unknown key: the same structure */
    json_object_set_new(root, "zz_unknown", json_pack("{s:[i,{s:n}]}", "x", 1, "y"));
    char *t = json_dumps(root, JSON_SORT_KEYS | JSON_INDENT(1));
    REQUIRE(t);
    CHECK(strncmp(t, "{\n \"comm_d\"", 11) == 0);
    porep_c1 c2;
    CHECK_MSG(porep_c1_read(&c2, (uint8_t *)t, strlen(t), NULL, &e) == CUZK_OK, "%s", e.msg);
    CHECK(c1_equal(&c1, &c2));
    porep_c1_free(&c2);
    free(t);
    json_decref(root);
    porep_c1_free(&c1);
    free(fx);
}

/* The keys of a jansson object in order, joined by ','. */
static void keys_of(char *out, size_t cap, json_t *o) {
    out[0] = 0;
    const char *k;
    json_t *v;
    size_t len = 0;
    json_object_foreach(o, k, v) {
        int w = snprintf(out + len, cap - len, "%s%s", len ? "," : "", k);
        if (w < 0 || (size_t)w >= cap - len) break;
        len += (size_t)w;
    }
}

/* The writer's Sub (32 GiB) and Top (64 GiB) proofs: serde's variant, keys and counts. Only the
 * first challenge proof is handed to jansson. */
TEST(porep_c1, writer_shapes) {
    static const struct { uint64_t id; const char *variant, *keys; int base, sub, top; } T[] = {
        {8, "Sub", "base_proof,sub_proof,root,leaf", 9, 1, 0},
        {9, "Top", "base_proof,sub_proof,top_proof,root,leaf", 9, 1, 1},
    };
    for (size_t t = 0; t < 2; t++) {
        porep_c1 a;
        REQUIRE(rand_c1(&a, T[t].id));
        uint8_t *txt = NULL;
        size_t n = 0;
        REQUIRE(porep_c1_write(&a, 0, 0, &txt, &n, NULL) == CUZK_OK);
        const char *s = (const char *)txt, *b = strstr(s, ":[[{\"comm_d_proofs\"");
        const char *e = b ? strstr(b + 3, ",{\"comm_d_proofs\"") : NULL;
        REQUIRE(b && e);
        json_error_t je;
        json_t *p = json_loadb(b + 3, (size_t)(e - (b + 3)), 0, &je);
        REQUIRE_MSG(p, "jansson: %s", je.text);
        char keys[256];
        keys_of(keys, sizeof keys, p);
        CHECK_MSG(!strcmp(keys, "comm_d_proofs,comm_r_last_proof,replica_column_proofs,labeling_proofs,encoding_proof"), "%s", keys);
        json_t *rl = json_object_get(json_object_get(json_object_get(p, "comm_r_last_proof"), "data"), T[t].variant);
        REQUIRE(rl);
        keys_of(keys, sizeof keys, rl);
        CHECK_MSG(!strcmp(keys, T[t].keys), "%s", keys);
        CHECK(json_array_size(json_object_get(json_object_get(rl, "base_proof"), "path")) == (size_t)T[t].base);
        CHECK(json_array_size(json_object_get(json_object_get(rl, "sub_proof"), "path")) == 1);
        json_t *h = json_object_get(json_array_get(json_object_get(json_object_get(rl, "sub_proof"), "path"), 0), "hashes");
        CHECK(json_array_size(h) == 7);
        if (T[t].top) {
            h = json_object_get(json_array_get(json_object_get(json_object_get(rl, "top_proof"), "path"), 0), "hashes");
            CHECK(json_array_size(h) == 1);
        }
        /* tree D stays Single and binary: 30 / 31 levels of one hash */
        json_t *d = json_object_get(json_object_get(json_object_get(p, "comm_d_proofs"), "data"), "Single");
        json_t *dp = json_object_get(json_object_get(d, "path"), "path");
        CHECK(json_array_size(dp) == (size_t)a.pp.d_levels);
        CHECK(json_array_size(json_object_get(json_array_get(dp, 0), "hashes")) == 1);
        json_t *rcp = json_object_get(p, "replica_column_proofs");
        keys_of(keys, sizeof keys, rcp);
        CHECK_MSG(!strcmp(keys, "c_x,drg_parents,exp_parents"), "%s", keys);
        json_t *cx = json_object_get(rcp, "c_x");
        keys_of(keys, sizeof keys, json_object_get(cx, "column"));
        CHECK_MSG(!strcmp(keys, "index,rows,_h"), "%s", keys);
        CHECK(json_is_null(json_object_get(json_object_get(cx, "column"), "_h")));
        CHECK(json_array_size(json_object_get(json_object_get(cx, "column"), "rows")) == 11);
        CHECK(json_array_size(json_object_get(rcp, "drg_parents")) == 6);
        CHECK(json_array_size(json_object_get(rcp, "exp_parents")) == 8);
        json_t *lps = json_object_get(p, "labeling_proofs");
        CHECK(json_array_size(lps) == 11);
        keys_of(keys, sizeof keys, json_array_get(lps, 10));
        CHECK_MSG(!strcmp(keys, "parents,layer_index,node"), "%s", keys);
        CHECK(json_array_size(json_object_get(json_array_get(lps, 10), "parents")) == 37);
        json_decref(p);
        /* the top level */
        CHECK(strncmp(s, "{\"registered_proof\":\"", 21) == 0);
        CHECK(strstr(s, T[t].id == 8 ? "\"vanilla_proofs\":{\"StackedDrg32GiBV1\":[[" : "\"vanilla_proofs\":{\"StackedDrg64GiBV1\":[["));
        const char *tl = strstr(s, "]]},\"comm_r\":[");
        CHECK(tl && strstr(tl, ",\"comm_d\":[") && strstr(tl, ",\"replica_id\":[") && strstr(tl, ",\"seed\":[") &&
              strstr(tl, ",\"ticket\":["));
        free(txt);
        porep_c1_free(&a);
    }
}

/* ---- corrupted inputs: CUZK_ERR_FORMAT naming the field ---- */

/* One past the end of the JSON value starting at s[pos] (an array, object, number or string). */
static size_t value_end(const char *s, size_t pos) {
    int depth = 0;
    bool in_str = false;
    size_t i = pos;
    for (; s[i]; i++) {
        char c = s[i];
        if (in_str) {
            if (c == '\\') i++;
            else if (c == '"') {
                in_str = false;
                if (depth == 0) return i + 1;
            }
            continue;
        }
        if (c == '"') in_str = true;
        else if (c == '[' || c == '{') depth++;
        else if (c == ']' || c == '}') {
            if (--depth == 0) return i + 1;
            if (depth < 0) return i;
        } else if (depth == 0 && (c == ',')) return i;
    }
    return i;
}

/* A new string: s with [pos, pos + len) replaced by with. */
static char *splice(const char *s, size_t pos, size_t len, const char *with) {
    size_t n = strlen(s), w = strlen(with);
    char *o = malloc(n - len + w + 1);
    memcpy(o, s, pos);
    memcpy(o + pos, with, w);
    memcpy(o + pos + w, s + pos + len, n - pos - len + 1);
    return o;
}

/* The position of the value of the k-th (0-based) occurrence of "key": after from. */
static size_t value_at(const char *s, const char *key, int k) {
    char pat[96];
    snprintf(pat, sizeof pat, "\"%s\":", key);
    const char *p = s;
    for (int i = 0; i <= k; i++) {
        p = strstr(p, pat);
        if (!p) return SIZE_MAX;
        p += strlen(pat);
    }
    return (size_t)(p - s);
}

/* s with the value of the k-th "key" replaced by with. */
static char *replace_value(const char *s, const char *key, int k, const char *with) {
    size_t at = value_at(s, key, k);
    if (at == SIZE_MAX) return NULL;
    return splice(s, at, value_end(s, at) - at, with);
}

static void expect_format(const char *what, const char *txt, size_t n, cuzk_status want, const char *const *needles) {
    porep_c1 c1;
    cuzk_error e = {0};
    if (!txt) {
        CHECK_MSG(false, "%s: corruption not made", what);
        return;
    }
    cuzk_status st = porep_c1_read(&c1, (const uint8_t *)txt, n, NULL, &e);
    if (getenv("C1_VERBOSE")) printf("    %-32s %s\n", what, e.msg);
    CHECK_MSG(st == want, "%s: status %d, expected %d (%s)", what, st, want, e.msg);
    for (int i = 0; needles[i]; i++) CHECK_MSG(strstr(e.msg, needles[i]) != NULL, "%s: message \"%s\" lacks \"%s\"", what, e.msg, needles[i]);
    CHECK(c1.proofs == NULL);
    if (st == CUZK_OK) porep_c1_free(&c1);
}
#define EXPECT_FORMAT(what, txt, ...)                                                              \
    do {                                                                                           \
        char *t_ = (txt);                                                                          \
        static const char *const nd_[] = {__VA_ARGS__, NULL};                                      \
        expect_format(what, t_, t_ ? strlen(t_) : 0, CUZK_ERR_FORMAT, nd_);                        \
        free(t_);                                                                                  \
    } while (0)

/* The base64 of text as a Curio wrapper with SectorSize size. */
static char *wrap(const char *text, uint64_t size) {
    size_t n = strlen(text);
    unsigned char *b64 = malloc(4 * ((n + 2) / 3) + 1);
    EVP_EncodeBlock(b64, (const unsigned char *)text, (int)n);
    size_t m = strlen((char *)b64) + 128;
    char *o = malloc(m);
    snprintf(o, m, "{\"SectorNum\":9,\"Phase1Out\":\"%s\",\"SectorSize\":%llu}", b64, (unsigned long long)size);
    free(b64);
    return o;
}

/* The size bound (porep_c1_max_bytes): what the writer makes at the widest fits (8 x of it is
 * the bound); a 32 GiB C1 is tens of MB; a longer input is refused naming the bound, a file longer
 * than any C1 before it is read. */
TEST(porep_c1, size_bound) {
    static const uint64_t ids[] = {5, 8, 9, 13};
    for (size_t t = 0; t < sizeof ids / sizeof ids[0]; t++) {
        porep_c1 a;
        REQUIRE(rand_c1(&a, ids[t]));
        for (int wrapper = 0; wrapper < 2; wrapper++) {
            uint8_t *txt = NULL;
            size_t n = 0;
            cuzk_error e = {0};
            REQUIRE(porep_c1_write(&a, wrapper, UINT64_MAX >> 1, &txt, &n, &e) == CUZK_OK);
            size_t max = porep_c1_max_bytes(&a.pp, wrapper), widest = max / POREP_C1_WHITESPACE_FACTOR;
            CHECK_MSG(n <= widest && n > widest / 2, "id %llu wrapper %d: %zu bytes written, widest %zu",
                      (unsigned long long)ids[t], wrapper, n, widest);
            CHECK(max <= porep_c1_max_bytes_any());
            if (ids[t] == 8 && !wrapper) {
                printf("  32 GiB C1 output: %zu bytes written (random values), %zu at the widest\n", n, widest);
                CHECK(widest < (64u << 20)); /* tens of MB */
            }
            free(txt);
        }
        porep_c1_free(&a);
    }
    /* the 2 KiB fixture: fits; with whitespace past the bound: refused when registered_proof is read */
    size_t n;
    uint8_t *fx = load_fixture(&n);
    REQUIRE(fx);
    porep_params pp;
    REQUIRE(porep_params_from_proof(&pp, 5, NULL) == CUZK_OK);
    size_t max = porep_c1_max_bytes(&pp, 0);
    REQUIRE(n < max);
    uint8_t *big = malloc(max + 1);
    REQUIRE(big);
    memcpy(big, fx, n);
    memset(big + n, ' ', max + 1 - n);
    porep_c1 c;
    cuzk_error e = {0};
    CHECK_EQ_INT(porep_c1_read(&c, big, max, NULL, &e), CUZK_OK); /* whitespace up to the bound is fine */
    porep_c1_free(&c);
    CHECK_EQ_INT(porep_c1_read(&c, big, max + 1, NULL, &e), CUZK_ERR_FORMAT);
    CHECK_MSG(strstr(e.msg, "longer than any C1 output of StackedDrg2KiBV1_1") && strstr(e.msg, "at most"), "%s", e.msg);
    free(big);
    free(fx);
    /* longer than any C1: refused before a byte is read (the buffer is one byte) */
    uint8_t one = '{';
    memset(&e, 0, sizeof e);
    CHECK_EQ_INT(porep_c1_read(&c, &one, porep_c1_max_bytes_any() + 1, NULL, &e), CUZK_ERR_FORMAT);
    CHECK_MSG(strstr(e.msg, "longer than any C1 output can be"), "%s", e.msg);
    /* a file: refused from its size (a sparse file: nothing on disk), before it is read */
    char path[1024];
    snprintf(path, sizeof path, "%s/huge_c1.json", test_tmpdir());
    FILE *f = fopen(path, "w");
    REQUIRE(f);
    CHECK(ftruncate(fileno(f), (off_t)porep_c1_max_bytes_any() + 1) == 0);
    fclose(f);
    cuzk_porep_request rq;
    memset(&rq, 0, sizeof rq);
    rq.c1_path = path;
    cuzk_porep_job *job = NULL;
    memset(&e, 0, sizeof e);
    CHECK_EQ_INT(cuzk_porep_job_create(&job, &rq, &e), CUZK_ERR_FORMAT);
    CHECK_MSG(job == NULL && strstr(e.msg, path) && strstr(e.msg, "nothing was read"), "%s", e.msg);
    remove(path);
}

TEST(porep_c1, format_errors) {
    size_t n;
    char *fx = (char *)load_fixture(&n);
    REQUIRE(fx);
    porep_c1 ok;
    REQUIRE(porep_c1_read(&ok, (uint8_t *)fx, n, NULL, NULL) == CUZK_OK);
    porep_c1_free(&ok);

    /* 1 truncated JSON */
    char *t = strdup(fx);
    t[value_at(fx, "comm_r_last_proof", 1)] = 0;
    EXPECT_FORMAT("truncated", t, "partition 0 challenge 1: comm_r_last_proof: expected '{'", "found the end of the input");
    EXPECT_FORMAT("empty", strdup(""), "expected '{'");
    EXPECT_FORMAT("not JSON", strdup("PK\x03\x04 zip"), "expected '{'");
    /* 2 unknown registered proof */
    EXPECT_FORMAT("unknown proof", replace_value(fx, "registered_proof", 0, "\"StackedDrg2KiBV9\""), "registered_proof",
                  "unknown registered proof \"StackedDrg2KiBV9\"");
    /* 3 a registered proof of another size than the proofs */
    EXPECT_FORMAT("other size", replace_value(fx, "registered_proof", 0, "\"StackedDrg8MiBV1_1\""), "vanilla_proofs.StackedDrg2KiBV1",
                  "another sector size", "StackedDrg8MiBV1");
    /* 4 NI-PoRep */
    EXPECT_FORMAT("ni-porep", replace_value(fx, "registered_proof", 0, "\"StackedDrg2KiBV1_2_Feat_NonInteractivePoRep\""),
                  "registered_proof");
    /* 5 wrong partition count: the partition twice */
    {
        size_t at = value_at(fx, "StackedDrg2KiBV1", 0) + 1;   /* the first partition's '[' */
        size_t end = value_end(fx, at);
        size_t plen = end - at;
        char *part = malloc(plen + 2);
        part[0] = ',';
        memcpy(part + 1, fx + at, plen);
        part[plen + 1] = 0;
        EXPECT_FORMAT("partitions", splice(fx, end, 0, part), "vanilla_proofs.StackedDrg2KiBV1: 2 partitions, 1 expected");
        free(part);
    }
    /* 6 wrong challenge count: the second challenge dropped */
    {
        size_t at = value_at(fx, "StackedDrg2KiBV1", 0) + 2;   /* the first challenge's '{' */
        size_t end = value_end(fx, at);
        EXPECT_FORMAT("challenges", splice(fx, end, value_end(fx, end + 1) - end, ""), "partition 0: 1 challenges, 2 expected");
    }
    /* 7 path length: a level dropped from challenge 1's comm_d path */
    {
        size_t at = value_at(fx, "comm_d_proofs", 1);
        at = value_at(fx + at, "path", 1) + at + 1;  /* the InclusionPath's array: its first element */
        size_t end = value_end(fx, at);
        EXPECT_FORMAT("levels", splice(fx, at, end + 1 - at, ""), "partition 0 challenge 1: comm_d_proofs.data.Single.path.path: 5 levels, 6 expected");
    }
    /* 8 a sibling count */
    {
        /* "hashes" 0-5 comm_d, 6-7 comm_r_last, 8-9 c_x, 10-21 drg, 22-37 exp of challenge 0 */
        size_t at = value_at(fx, "hashes", 30) + 1;
        size_t end = value_end(fx, at);
        char *t2 = splice(fx, at, end + 1 - at, "");
        EXPECT_FORMAT("hashes", t2, "partition 0 challenge 0: replica_column_proofs.exp_parents[4].inclusion_proof.data.Single.path.path[0].hashes: 6 hashes, 7 expected");
    }
    /* 9 a value that is not a field element */
    EXPECT_FORMAT("non-field", replace_value(fx, "leaf", 2, "[255,255,255,255,255,255,255,255,255,255,255,255,255,255,255,255,"
                                                          "255,255,255,255,255,255,255,255,255,255,255,255,255,255,255,255]"),
                  "partition 0 challenge 0: replica_column_proofs.c_x.inclusion_proof.data.Single.leaf", "not a field element");
    /* 10 a byte out of range, a negative, a fraction */
    EXPECT_FORMAT("byte", replace_value(fx, "comm_r", 0, "[256,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0]"),
                  "comm_r: 256 out of range 0..255");
    EXPECT_FORMAT("negative", replace_value(fx, "node", 0, "-3"), "labeling_proofs[0].node", "negative");
    EXPECT_FORMAT("fraction", replace_value(fx, "layer_index", 1, "2.0"), "labeling_proofs[1].layer_index", "not an integer");
    /* 11 a 31-byte value */
    EXPECT_FORMAT("31 bytes", replace_value(fx, "seed", 0, "[1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31]"),
                  "seed: 31 bytes, 32 expected");
    /* 12 a path index >= arity */
    {
        size_t at = value_at(fx, "comm_r_last_proof", 0);
        size_t rel = value_at(fx + at, "index", 0);
        char *t2 = splice(fx, at + rel, value_end(fx, at + rel) - (at + rel), "8");
        EXPECT_FORMAT("index", t2, "comm_r_last_proof.data.Single.path.path[0].index: 8 out of range 0..7");
    }
    /* 13 the wrong Merkle variant */
    {
        const char *p = strstr(fx, "\"comm_r_last_proof\":{\"data\":{\"Single\"");
        REQUIRE(p);
        EXPECT_FORMAT("variant", splice(fx, (size_t)(p - fx) + 28, 10, "{\"Top\":"),
                      "partition 0 challenge 0: comm_r_last_proof.data.Top: a Top proof, this tree's proofs are Single");
    }
    /* 14 counts of rows, column proofs, labeling proofs, parents */
    EXPECT_FORMAT("rows", replace_value(fx, "rows", 3, "[]"), "drg_parents[2].column.rows: 0 rows, 2 expected");
    EXPECT_FORMAT("drg count", replace_value(fx, "drg_parents", 1, "[]"), "partition 0 challenge 1: replica_column_proofs.drg_parents: 0 column proofs, 6 expected");
    {
        size_t at = value_at(fx, "labeling_proofs", 0) + 1;
        size_t end = value_end(fx, at);
        EXPECT_FORMAT("labeling count", splice(fx, at, end + 1 - at, ""), "labeling_proofs: 1 labeling proofs (layers), 2 expected");
    }
    /* 15 huge array lengths: 200000 parents, 100000 partitions (only counted, nothing allocated) */
    {
        /* the 37 parents, then 200000 more */
        size_t at = value_at(fx, "parents", 0), end = value_end(fx, at) - 1;   /* the closing ']' */
        size_t big = 200000;
        char *more = malloc(big * 2 + 1);
        for (size_t i = 0; i < big; i++) memcpy(more + 2 * i, ",0", 2);
        more[2 * big] = 0;
        EXPECT_FORMAT("huge parents", splice(fx, end, 0, more), "labeling_proofs[0].parents: 200037 parents, 37 expected");
        free(more);
        /* the partition, then 100000 more */
        at = value_at(fx, "StackedDrg2KiBV1", 0);
        end = value_end(fx, at) - 1;
        size_t np = 100000;
        char *parts = malloc(np * 3 + 1);
        for (size_t i = 0; i < np; i++) memcpy(parts + 3 * i, ",[]", 3);
        parts[3 * np] = 0;
        EXPECT_FORMAT("huge partitions", splice(fx, end, 0, parts), "vanilla_proofs.StackedDrg2KiBV1: 100001 partitions, 1 expected");
        free(parts);
        char *t2 = replace_value(fx, "StackedDrg2KiBV1", 0, "[[]]");
        EXPECT_FORMAT("no challenges", t2, "partition 0: 0 challenges, 2 expected");
    }
    /* 16 missing and duplicate fields */
    {
        size_t at = value_at(fx, "seed", 0) - 8;   /* ,"seed":[...] */
        EXPECT_FORMAT("missing", splice(fx, at, value_end(fx, at + 8) - at, ""), "missing field `seed`");
        char *t2 = strdup(fx);
        char *q = strstr(t2, "\"ticket\"");
        memcpy(q, "\"comm_r\"", 8);
        EXPECT_FORMAT("duplicate", t2, "duplicate field `comm_r`");
        EXPECT_FORMAT("no parents in the encoding proof", replace_value(fx, "encoding_proof", 0, "{\"parents\":[],\"node\":1}"),
                      "encoding_proof.parents: 0 parents, 37 expected");
        EXPECT_FORMAT("missing layer_index", replace_value(fx, "encoding_proof", 1, "{\"node\":1}"), "partition 0 challenge 1: encoding_proof",
                      "missing field `parents`");
    }
    /* 17 trailing characters, deep nesting in an unknown field, bad syntax */
    {
        size_t m = strlen(fx);
        char *t2 = malloc(m + 4);
        memcpy(t2, fx, m);
        memcpy(t2 + m, " x", 3);
        EXPECT_FORMAT("trailing", t2, "trailing characters");
        char *deep = malloc(2 * 200 + 16);
        size_t k = 0;
        k += (size_t)sprintf(deep, "{\"x\":");
        for (int i = 0; i < 200; i++) deep[k++] = '[';
        for (int i = 0; i < 200; i++) deep[k++] = ']';
        sprintf(deep + k, ",");
        EXPECT_FORMAT("deep", splice(fx, 0, 1, deep), "x: nesting deeper than 64");
        free(deep);
        EXPECT_FORMAT("trailing comma", replace_value(fx, "seed", 0, "[1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31,32,]"),
                      "seed", "expected an unsigned integer");
        EXPECT_FORMAT("leading zero", replace_value(fx, "index", 0, "01"), "leading zero");
        EXPECT_FORMAT("_h not null", replace_value(fx, "_h", 0, "{}"), "replica_column_proofs.c_x.column._h", "expected null");
        EXPECT_FORMAT("bad escape", replace_value(fx, "registered_proof", 0, "\"Stacked\\q\""), "bad escape");
        EXPECT_FORMAT("control char", replace_value(fx, "registered_proof", 0, "\"Stacked\x01\""), "control character");
    }
    /* 18 the wrapper: bad base64, SectorSize mismatch, the error inside Phase1Out */
    {
        char *w = wrap(fx, 2048);
        porep_c1 c;
        uint64_t num = 0;
        cuzk_error e = {0};
        CHECK_MSG(porep_c1_read(&c, (uint8_t *)w, strlen(w), &num, &e) == CUZK_OK, "%s", e.msg);
        CHECK(num == 9);
        porep_c1_free(&c);
        char *b = strdup(w);
        b[40] = '*';
        EXPECT_FORMAT("bad base64", b, "Phase1Out: not base64: '*' at character");
        b = strdup(w);
        memmove(b + 40, b + 41, strlen(b + 41) + 1);
        EXPECT_FORMAT("base64 length", b, "Phase1Out: not base64", "not a multiple of 4");
        free(w);
        EXPECT_FORMAT("SectorSize", wrap(fx, 34359738368ull), "SectorSize 34359738368", "2048-byte sectors");
        char *inner = replace_value(fx, "seed", 0, "[1]");
        EXPECT_FORMAT("inside the wrapper", wrap(inner, 2048), "Phase1Out: seed: 1 bytes, 32 expected");
        free(inner);
        EXPECT_FORMAT("wrapper missing Phase1Out", strdup("{\"SectorNum\":1,\"SectorSize\":2048}"), "missing field `Phase1Out`");
        EXPECT_FORMAT("wrapper SectorNum", strdup("{\"SectorNum\":-1,\"Phase1Out\":\"\",\"SectorSize\":2048}"), "SectorNum", "negative");
    }
    /* 19 vanilla_proofs before registered_proof (another encoder's order) still reads; without
     * registered_proof it is refused */
    {
        size_t at = value_at(fx, "vanilla_proofs", 0);
        size_t end = value_end(fx, at);
        size_t l = end - at;
        char *t2 = malloc(n + 64);
        int k = sprintf(t2, "{\"vanilla_proofs\":");
        memcpy(t2 + k, fx + at, l);
        k += (int)l;
        k += sprintf(t2 + k, ",\"registered_proof\":\"StackedDrg2KiBV1_1\"");
        strcpy(t2 + k, fx + end);
        porep_c1 c;
        cuzk_error e = {0};
        CHECK_MSG(porep_c1_read(&c, (uint8_t *)t2, strlen(t2), NULL, &e) == CUZK_OK, "%s", e.msg);
        porep_c1 ref;
        REQUIRE(porep_c1_read(&ref, (uint8_t *)fx, n, NULL, NULL) == CUZK_OK);
        CHECK(c1_equal(&c, &ref));
        porep_c1_free(&c);
        porep_c1_free(&ref);
        char *t3 = replace_value(t2, "registered_proof", 0, "0");
        EXPECT_FORMAT("registered_proof not a string", t3, "registered_proof", "expected a string");
        /* drop registered_proof entirely: ,"registered_proof":"StackedDrg2KiBV1_1" */
        char *q = strstr(t2, ",\"registered_proof\"");
        memmove(q, q + 40, strlen(q + 40) + 1);
        EXPECT_FORMAT("no registered_proof", t2, "missing field `registered_proof`");
    }
    free(fx);
}

/* ---- the checks on real C1 outputs (porep_seal.h makes them) ---- */

#include "filecoin/porep_seal.h"
#include "util/timer.h"

/* A sealed 2 KiB sector of random data for registered proof id, and its C1 for a random seed. */
static bool sealed_2k(porep_c1 *c1, porep_c1_check_opts *opts, uint64_t id) {
    porep_params pp;
    if (porep_params_from_proof(&pp, id, NULL) != CUZK_OK) return false;
    uint8_t data[2048], ticket[32], seed[32];
    test_rand_bytes(data, sizeof data);
    for (int v = 0; v < 64; v++) data[32 * v + 31] &= 0x3f;
    memset(opts, 0, sizeof *opts);
    opts->check_replica_id = true;
    test_rand_bytes(opts->prover_id, 8);
    opts->sector_id = test_rand64() >> 20;
    opts->nthreads = 2;
    test_rand_bytes(ticket, 32);
    test_rand_bytes(seed, 32);
    porep_sector s;
    cuzk_error e;
    if (porep_seal(&s, &pp, data, opts->prover_id, opts->sector_id, ticket, 1, &e) != CUZK_OK) return false;
    cuzk_status st = porep_c1_from_sector(c1, &s, seed, 1, &e);
    porep_sector_free(&s);
    return st == CUZK_OK;
}

/* The C1 after a trip through the JSON writer and reader. */
static bool via_json(porep_c1 *out, const porep_c1 *c1, int wrapper) {
    uint8_t *t = NULL;
    size_t n = 0;
    cuzk_error e = {0};
    if (porep_c1_write(c1, wrapper, 1, &t, &n, &e) != CUZK_OK) return false;
    cuzk_status st = porep_c1_read(out, t, n, NULL, &e);
    free(t);
    return st == CUZK_OK;
}

TEST(porep_c1, check_sealed_2k) {
    static const uint64_t ids[] = {0, 5, 10};   /* V1 (predecessor in slot 5), V1_1, V1_1 synthetic */
    for (size_t t = 0; t < 3; t++)
        for (int it = 0; it < test_iters(1); it++) {
            porep_c1 c1, r;
            porep_c1_check_opts o;
            REQUIRE_MSG(sealed_2k(&c1, &o, ids[t]), "seal id %llu", (unsigned long long)ids[t]);
            cuzk_error e = {0};
            CHECK_MSG(porep_c1_check(&c1, &o, &e) == CUZK_OK, "id %llu: %s", (unsigned long long)ids[t], e.msg);
            REQUIRE(via_json(&r, &c1, (int)t & 1));
            CHECK(c1_equal(&c1, &r));
            CHECK_MSG(porep_c1_check(&r, &o, &e) == CUZK_OK, "id %llu after JSON: %s", (unsigned long long)ids[t], e.msg);
            o.nthreads = 1;
            CHECK(porep_c1_check(&r, &o, &e) == CUZK_OK);
            CHECK(porep_c1_check(&r, NULL, &e) == CUZK_OK);
            porep_c1_free(&r);
            porep_c1_free(&c1);
        }
}

TEST(porep_c1, check_sparse_2k) {
    porep_params pp;
    REQUIRE(porep_params_from_proof(&pp, 5, NULL) == CUZK_OK);
    porep_c1_check_opts o = {.check_replica_id = true, .sector_id = 77, .nthreads = 2};
    o.prover_id[0] = 0xe8;
    o.prover_id[1] = 0x07;
    uint8_t ticket[32], seed[32], salt[32];
    test_rand_bytes(ticket, 32);
    test_rand_bytes(seed, 32);
    test_rand_bytes(salt, 32);
    porep_c1 c1;
    cuzk_error e = {0};
    REQUIRE_MSG(porep_c1_sparse(&c1, &pp, o.prover_id, o.sector_id, ticket, seed, salt, 1, &e) == CUZK_OK, "%s", e.msg);
    CHECK_MSG(porep_c1_check(&c1, &o, &e) == CUZK_OK, "%s", e.msg);
    porep_c1_free(&c1);
}

/* Sparse C1 outputs of the big shapes: 32 GiB (Sub trees, 10 x 18 challenges, 11 layers) and
 * 64 GiB (Top trees), through the JSON and checked; ~30 s each on 2 cores, mostly making them. */
TEST(porep_c1, check_sparse_32g_64g) {
    if (!getenv("CUZK_TEST_FULL")) SKIP("sparse 32 GiB and 64 GiB C1 outputs (~1 min on 2 cores): CUZK_TEST_FULL=1 runs it");
    static const uint64_t ids[] = {8, 9};
    for (int t = 0; t < 2; t++) {
        porep_params pp;
        REQUIRE(porep_params_from_proof(&pp, ids[t], NULL) == CUZK_OK);
        porep_c1_check_opts o = {.check_replica_id = true, .sector_id = 4242, .nthreads = 0};
        o.prover_id[0] = 0x10;
        uint8_t ticket[32], seed[32], salt[32];
        test_rand_bytes(ticket, 32);
        test_rand_bytes(seed, 32);
        test_rand_bytes(salt, 32);
        porep_c1 c1, r;
        cuzk_error e = {0};
        REQUIRE_MSG(porep_c1_sparse(&c1, &pp, o.prover_id, o.sector_id, ticket, seed, salt, 0, &e) == CUZK_OK, "%s", e.msg);
        double t0 = now_ms();
        uint8_t *txt = NULL;
        size_t n = 0;
        REQUIRE(porep_c1_write(&c1, 1, 4242, &txt, &n, &e) == CUZK_OK);
        double t1 = now_ms();
        REQUIRE_MSG(porep_c1_read(&r, txt, n, NULL, &e) == CUZK_OK, "%s", e.msg);
        double t2 = now_ms();
        CHECK(c1_equal(&c1, &r));
        CHECK_MSG(porep_c1_check(&r, &o, &e) == CUZK_OK, "%s", e.msg);
        double t3 = now_ms();
        printf("  %s: wrapper %.1f MB, write %.2f s, read %.2f s, check %.2f s\n", porep_proof_name(ids[t]), n / 1e6,
               (t1 - t0) / 1e3, (t2 - t1) / 1e3, (t3 - t2) / 1e3);
        /* a flipped hash in the last challenge of the last partition */
        fr one;
        fr_one(&one);
        porep_challenge_proof *p = &r.proofs[(size_t)r.n_partitions * r.n_challenges - 1];
        fr_add(&p->exp[7].path.siblings[merkle_levels(&pp.shape) - 1][0], &p->exp[7].path.siblings[merkle_levels(&pp.shape) - 1][0], &one);
        CHECK(porep_c1_check(&r, &o, &e) == CUZK_ERR_INVALID);
        CHECK_MSG(strstr(e.msg, "partition 9 challenge 17: exp_parents[7]: the inclusion proof's path does not hash"), "%s", e.msg);
        free(txt);
        porep_c1_free(&r);
        porep_c1_free(&c1);
    }
}

/* One corruption of a sealed C1: what it changes, the status and message expected. */
typedef struct corruption {
    const char *what;
    void (*apply)(porep_c1 *c, porep_c1_check_opts *o);
    const char *needle;     /* in the message */
    bool via_json;          /* also through the writer and reader (the reader keeps what it can hold) */
} corruption;

static void add_one(fr *x) {
    fr one;
    fr_one(&one);
    fr_add(x, x, &one);
}
static porep_challenge_proof *P1(porep_c1 *c) { return &c->proofs[1]; }   /* challenge 1: not the one the roots come from */

static void c_path_hash(porep_c1 *c, porep_c1_check_opts *o) { (void)o; add_one(&P1(c)->comm_r_last_path.siblings[1][3]); }
static void c_d_path_hash(porep_c1 *c, porep_c1_check_opts *o) { (void)o; add_one(&P1(c)->comm_d_path.siblings[2][0]); }
static void c_d_root(porep_c1 *c, porep_c1_check_opts *o) { (void)o; add_one(&P1(c)->comm_d_root); }
static void c_r_root(porep_c1 *c, porep_c1_check_opts *o) { (void)o; add_one(&P1(c)->comm_r_last_root); }
static void c_c_root(porep_c1 *c, porep_c1_check_opts *o) { (void)o; add_one(&P1(c)->exp[5].root); }
static void c_comm_r(porep_c1 *c, porep_c1_check_opts *o) { (void)o; c->comm_r[0] ^= 1; }
static void c_comm_r_big(porep_c1 *c, porep_c1_check_opts *o) { (void)o; memset(c->comm_r, 0xff, 32); }
static void c_comm_d(porep_c1 *c, porep_c1_check_opts *o) { (void)o; c->comm_d[5] ^= 0x10; o->check_replica_id = false; }
static void c_parent_index(porep_c1 *c, porep_c1_check_opts *o) { (void)o; P1(c)->drg[2].index ^= 1; }
static void c_parent_path(porep_c1 *c, porep_c1_check_opts *o) {
    (void)o;
    P1(c)->exp[3].path.index[0] = (P1(c)->exp[3].path.index[0] + 1) % 8;
}
static void c_row(porep_c1 *c, porep_c1_check_opts *o) { (void)o; add_one(&P1(c)->drg[0].rows[0]); }
static void c_label(porep_c1 *c, porep_c1_check_opts *o) { (void)o; add_one(&P1(c)->labeling[1].parents[5]); }
/* the challenge's own label in layer 1: its column no longer hashes to the opened leaf */
static void c_label_row(porep_c1 *c, porep_c1_check_opts *o) { (void)o; add_one(&P1(c)->c_x.rows[0]); }
static void c_layer_index(porep_c1 *c, porep_c1_check_opts *o) { (void)o; P1(c)->labeling[0].layer_index = 2; }
static void c_label_node(porep_c1 *c, porep_c1_check_opts *o) { (void)o; P1(c)->labeling[1].node += 1; }
static void c_encoding(porep_c1 *c, porep_c1_check_opts *o) { (void)o; add_one(&P1(c)->encoding.parents[36]); }
static void c_encoding_layer(porep_c1 *c, porep_c1_check_opts *o) { (void)o; P1(c)->encoding.layer_index = 1; }
static void c_replica_id(porep_c1 *c, porep_c1_check_opts *o) { (void)c; o->sector_id += 1; }
static void c_replica_id_prover(porep_c1 *c, porep_c1_check_opts *o) { (void)c; o->prover_id[31] ^= 0x80; }
static void c_seed(porep_c1 *c, porep_c1_check_opts *o) { (void)o; c->seed[7] ^= 4; }
static void c_counts(porep_c1 *c, porep_c1_check_opts *o) { (void)o; c->n_challenges = 1; }
static void c_arity(porep_c1 *c, porep_c1_check_opts *o) { (void)o; P1(c)->comm_r_last_path.index[0] = 8; }
static void c_first_wins(porep_c1 *c, porep_c1_check_opts *o) {
    (void)o;
    add_one(&c->proofs[1].exp[0].rows[1]);
    add_one(&c->proofs[0].drg[4].leaf);
}

TEST(porep_c1, check_corruptions) {
    static const corruption T[] = {
        {"flipped R-last path hash", c_path_hash, "partition 0 challenge 1: comm_r_last_proof: the path does not hash to comm_r_last", true},
        {"flipped tree D path hash", c_d_path_hash, "partition 0 challenge 1: comm_d_proofs: the path does not hash to comm_d", true},
        {"wrong comm_d root", c_d_root, "partition 0 challenge 1: comm_d_proofs: the root is not comm_d", true},
        {"wrong comm_r_last root", c_r_root, "partition 0 challenge 1: comm_r_last_proof: the root is not comm_r_last", true},
        {"wrong comm_c root", c_c_root, "partition 0 challenge 1: exp_parents[5]: the inclusion proof's root is not comm_c", true},
        {"comm_r mismatch", c_comm_r, "comm_r is not Poseidon(comm_c, comm_r_last)", true},
        {"comm_r not a field element", c_comm_r_big, "comm_r is not a field element", true},
        {"comm_d changed", c_comm_d, "partition 0 challenge 0: comm_d_proofs: the root is not comm_d", true},
        {"wrong DRG parent index", c_parent_index, "partition 0 challenge 1: drg_parents[2]: column index", true},
        {"wrong expander parent path", c_parent_path, "partition 0 challenge 1: exp_parents[3]: the inclusion proof opens node", true},
        {"column row changed", c_row, "partition 0 challenge 1: drg_parents[0]: the inclusion proof's leaf is not the hash of the column's rows", true},
        {"label not matching parents", c_label, "partition 0 challenge 1: labeling_proofs[1]: the label of its parents is not the challenge's label", true},
        {"challenge's row changed", c_label_row, "partition 0 challenge 1: c_x: the inclusion proof's leaf is not the hash", true},
        {"layer_index", c_layer_index, "partition 0 challenge 1: labeling_proofs[0]: layer_index 2, expected 1", true},
        {"labeling node", c_label_node, "partition 0 challenge 1: labeling_proofs[1]: node", true},
        {"encoding mismatch", c_encoding, "partition 0 challenge 1: encoding_proof: the replica leaf", true},
        {"encoding layer", c_encoding_layer, "partition 0 challenge 1: encoding_proof: layer_index 1, expected 2", true},
        {"replica_id vs sector_id", c_replica_id, "replica_id is not SHA-256(prover_id, sector_id", true},
        {"replica_id vs prover_id", c_replica_id_prover, "replica_id is not SHA-256", true},
        {"wrong seed: other challenges", c_seed, "comm_d_proofs: opens node", true},
        {"challenge count", c_counts, "1 challenges", false},
        {"path index >= arity", c_arity, "partition 0 challenge 1: comm_r_last_proof: path index 8 at level 0, arity 8", false},
        {"first failure reported", c_first_wins, "partition 0 challenge 0: drg_parents[4]: the inclusion proof's leaf", true},
    };
    porep_c1 good;
    porep_c1_check_opts o0;
    REQUIRE(sealed_2k(&good, &o0, 5));
    cuzk_error e = {0};
    REQUIRE_MSG(porep_c1_check(&good, &o0, &e) == CUZK_OK, "%s", e.msg);
    size_t bytes = (size_t)good.n_partitions * good.n_challenges * sizeof *good.proofs;
    for (size_t t = 0; t < sizeof T / sizeof T[0]; t++) {
        for (int j = 0; j < (T[t].via_json ? 2 : 1); j++) {
            porep_c1 c = good;
            porep_c1_check_opts o = o0;
            c.proofs = malloc(bytes);
            REQUIRE(c.proofs);
            memcpy(c.proofs, good.proofs, bytes);
            T[t].apply(&c, &o);
            porep_c1 r;
            const porep_c1 *use = &c;
            if (j) {
                REQUIRE_MSG(via_json(&r, &c, (int)t & 1), "%s: the JSON trip failed", T[t].what);
                use = &r;
            }
            if (getenv("C1_VERBOSE")) {
                porep_c1_check(use, &o, &e);
                printf("    %-30s %s\n", T[t].what, e.msg);
            }
            memset(&e, 0, sizeof e);
            cuzk_status st = porep_c1_check(use, &o, &e);
            CHECK_MSG(st == CUZK_ERR_INVALID, "%s%s: status %d (%s)", T[t].what, j ? " (via JSON)" : "", st, e.msg);
            CHECK_MSG(strstr(e.msg, T[t].needle) != NULL, "%s%s: message \"%s\" lacks \"%s\"", T[t].what, j ? " (via JSON)" : "",
                      e.msg, T[t].needle);
            if (j) porep_c1_free(&r);
            free(c.proofs);
        }
    }
    CHECK(porep_c1_check(NULL, &o0, &e) == CUZK_ERR_ARG);
    porep_c1_free(&good);
}
