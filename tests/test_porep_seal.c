/* porep_seal suite: sealing small sectors in memory and the C1 vanilla proofs (src/filecoin/
 * porep_seal.h). Oracles: the Python sealer tools/gen_porep_seal_fixture.py (2 KiB commitments,
 * replica_id, challenges: tests/fixtures/filecoin/porep_seal_2k.txt, with the known comm_d of a
 * zero sector), and a C1 checker written here from POREP.md, independent of the sealing code's
 * paths: tree D paths hashed with OpenSSL's SHA-256, Poseidon paths and column hashes with the
 * plain Poseidon permutation, labels re-hashed from the labeling proofs' parents with OpenSSL,
 * the parents' expansion written out again, the parents' labels taken from the parents' columns. */
#include "test.h"

#include <openssl/sha.h>
#include <stdlib.h>
#include <string.h>

#include "filecoin/porep_seal.h"
#include "util/timer.h"

/* ---- fixture ------------------------------------------------------------------------------ */

typedef struct seal_case {
    char name[80];
    uint64_t reg, sector_id;
    uint8_t prover_id[32], ticket[32], seed[32];
    uint8_t data[2048];
    uint8_t comm_d[32], replica_id[32], comm_c[32], comm_r_last[32], comm_r[32];
    uint64_t challenges[2];
} seal_case;

static bool hex32(uint8_t out[32], const char *h) {
    for (int i = 0; i < 32; i++) {
        unsigned v;
        if (sscanf(h + 2 * i, "%2x", &v) != 1) return false;
        out[i] = (uint8_t)v;
    }
    return true;
}

/* Reads the fixture's cases; returns their count (0 on a malformed file). */
static int load_cases(seal_case *cs, int max) {
    size_t n;
    char *txt = (char *)test_slurp(test_fixture("filecoin/porep_seal_2k.txt"), &n);
    if (!txt) return 0;
    char *buf = realloc(txt, n + 1);
    if (!buf) { free(txt); return 0; }
    buf[n] = 0;
    int nc = 0;
    bool ok = true;
    seal_case *c = NULL;
    for (char *line = strtok(buf, "\n"); line && ok; line = strtok(NULL, "\n")) {
        char key[32], v1[80], v2[80];
        int f = sscanf(line, "%31s %79s %79s", key, v1, v2);
        if (f < 1 || key[0] == '#' || !strcmp(key, "end")) continue;
        if (!strcmp(key, "case")) {
            if (nc == max) { ok = false; break; }
            c = &cs[nc++];
            memset(c, 0, sizeof *c);
            snprintf(c->name, sizeof c->name, "%s", v1);
        } else if (!c || f < 2) ok = false;
        else if (!strcmp(key, "registered_proof")) c->reg = strtoull(v1, NULL, 10);
        else if (!strcmp(key, "sector_id")) c->sector_id = strtoull(v1, NULL, 10);
        else if (!strcmp(key, "prover_id")) ok = hex32(c->prover_id, v1);
        else if (!strcmp(key, "ticket")) ok = hex32(c->ticket, v1);
        else if (!strcmp(key, "seed")) ok = hex32(c->seed, v1);
        else if (!strcmp(key, "data")) {
            unsigned long i = strtoul(v1, NULL, 10);
            ok = f == 3 && i < 64 && hex32(c->data + 32 * i, v2);
        } else if (!strcmp(key, "comm_d")) ok = hex32(c->comm_d, v1);
        else if (!strcmp(key, "replica_id")) ok = hex32(c->replica_id, v1);
        else if (!strcmp(key, "comm_c")) ok = hex32(c->comm_c, v1);
        else if (!strcmp(key, "comm_r_last")) ok = hex32(c->comm_r_last, v1);
        else if (!strcmp(key, "comm_r")) ok = hex32(c->comm_r, v1);
        else if (!strcmp(key, "challenges")) {
            c->challenges[0] = strtoull(v1, NULL, 10);
            c->challenges[1] = f == 3 ? strtoull(v2, NULL, 10) : 0;
        }
    }
    free(buf);
    return ok ? nc : 0;
}

/* ---- the independent C1 checker ------------------------------------------------------------ */

static void fr_bytes(uint8_t b[32], const fr *a) { fr_to_bytes_le(b, 32, a); }
static bool fr_eq_bytes(const fr *a, const uint8_t b[32]) {
    uint8_t x[32];
    fr_bytes(x, a);
    return memcmp(x, b, 32) == 0;
}

/* A tree D path: SHA-256 of the two children's bytes, byte 31 &= 0x3f, from the leaf up. */
static bool check_sha_path(const merkle_path *p, int levels, const fr *leaf, const fr *root, uint64_t node) {
    uint8_t cur[32], buf[64];
    fr_bytes(cur, leaf);
    uint64_t idx = 0;
    for (int l = 0; l < levels; l++) {
        if (p->index[l] > 1) return false;
        idx |= (uint64_t)p->index[l] << l;
        uint8_t sib[32];
        fr_bytes(sib, &p->siblings[l][0]);
        memcpy(buf + (p->index[l] ? 32 : 0), cur, 32);
        memcpy(buf + (p->index[l] ? 0 : 32), sib, 32);
        SHA256(buf, 64, cur);
        cur[31] &= 0x3f;
    }
    return idx == node && fr_eq_bytes(root, cur);
}

/* Poseidon hashing of the checker: the plain permutation (the independent reference), or the
 * optimised form where the plain one is too slow (32 GiB: ~30,000 path hashes; the two forms are
 * tested equal in the circuits suite). */
static bool g_plain = true;
static uint32_t g_partition_step = 1; /* check partitions 0, step, 2 step, ... */
static bool check_hash(fr *out, const fr *in, int arity) {
    return g_plain ? poseidon_hash_plain(out, in, arity) : poseidon_hash(out, in, arity);
}

/* A Poseidon path of shape sh. */
static bool check_poseidon_path(const merkle_shape *sh, const merkle_path *p, const fr *leaf, const fr *root,
                                uint64_t node) {
    fr cur = *leaf, in[16];
    uint64_t idx = 0;
    int shift = 0;
    for (int l = 0; l < merkle_levels(sh); l++) {
        int a = merkle_level_arity(sh, l), k = 0, bits = a == 2 ? 1 : a == 4 ? 2 : 3;
        if (p->index[l] >= (uint32_t)a) return false;
        idx |= (uint64_t)p->index[l] << shift;
        shift += bits;
        for (int i = 0; i < a; i++) in[i] = (uint32_t)i == p->index[l] ? cur : p->siblings[l][k++];
        if (!check_hash(&cur, in, a)) return false;
    }
    return idx == node && fr_eq(&cur, root);
}

/* label = SHA-256(replica_id || layer BE32 || node BE64 || 0^20 || 37 parents), byte 31 &= 0x3f. */
static void ref_label(uint8_t out[32], const uint8_t rid[32], uint32_t layer, uint64_t node, const fr *parents) {
    uint8_t buf[64 + 37 * 32];
    memset(buf, 0, sizeof buf);
    memcpy(buf, rid, 32);
    for (int i = 0; i < 4; i++) buf[32 + i] = (uint8_t)(layer >> (24 - 8 * i));
    for (int i = 0; i < 8; i++) buf[36 + i] = (uint8_t)(node >> (56 - 8 * i));
    size_t len = 64;
    if (node > 0)
        for (int i = 0; i < 37; i++, len += 32) fr_bytes(buf + len, &parents[i]);
    SHA256(buf, len, out);
    out[31] &= 0x3f;
}

/* Interactive challenge j: (LE integer of SHA-256(replica_id || seed || u32 LE j)) mod (nodes - 1) + 1. */
static uint64_t ref_challenge(const uint8_t rid[32], const uint8_t seed[32], uint32_t j, uint64_t nodes) {
    uint8_t buf[68], h[32];
    memcpy(buf, rid, 32);
    memcpy(buf + 32, seed, 32);
    for (int i = 0; i < 4; i++) buf[64 + i] = (uint8_t)(j >> (8 * i));
    SHA256(buf, sizeof buf, h);
    unsigned __int128 r = 0;
    for (int i = 31; i >= 0; i--) r = ((r << 8) | h[i]) % (nodes - 1);
    return (uint64_t)r + 1;
}

static int g_fail_budget;
#define C1_CHECK(cond, ...)                                                                   \
    do {                                                                                      \
        if (!(cond)) {                                                                        \
            bad++;                                                                            \
            if (report && g_fail_budget-- > 0) test_fail(__FILE__, __LINE__, __VA_ARGS__);    \
        }                                                                                     \
    } while (0)

static int check_column(const porep_params *pp, const porep_column_proof *c, uint64_t node, const fr *comm_c,
                        bool report) {
    int bad = 0;
    fr h;
    C1_CHECK(c->index == node, "column index %u, expected node %llu", c->index, (unsigned long long)node);
    C1_CHECK(check_hash(&h, c->rows, pp->layers) && fr_eq(&h, &c->leaf), "column %u: leaf is not the column hash",
             c->index);
    C1_CHECK(fr_eq(&c->root, comm_c), "column %u: root is not comm_c", c->index);
    C1_CHECK(check_poseidon_path(&pp->shape, &c->path, &c->leaf, comm_c, node), "column %u: tree C path", c->index);
    return bad;
}

/* Checks everything a verifier checks of a C1 (and the field values the circuit takes): returns
 * the number of failed checks; reports the first few when report. */
static int check_c1(const porep_c1 *c1, bool report) {
    const porep_params *pp = &c1->pp;
    int bad = 0, L = pp->layers;
    cuzk_error e;
    fr comm_d, comm_r, comm_c = {{0}}, comm_r_last = {{0}}, h;
    fr_from_bytes_le(&comm_d, c1->comm_d, 32);
    fr_from_bytes_le(&comm_r, c1->comm_r, 32);
    C1_CHECK(c1->n_partitions == (uint32_t)pp->partitions && c1->n_challenges == (uint32_t)pp->challenges,
             "%u partitions of %u challenges", c1->n_partitions, c1->n_challenges);
    C1_CHECK(c1->proofs != NULL, "no proofs");
    if (bad) return bad;
    comm_c = c1->proofs[0].c_x.root;
    comm_r_last = c1->proofs[0].comm_r_last_root;
    fr pair[2] = {comm_c, comm_r_last};
    C1_CHECK(poseidon_hash_plain(&h, pair, 2) && fr_eq(&h, &comm_r), "comm_r != Poseidon2(comm_c, comm_r_last)");
    for (uint32_t k = 0; k < c1->n_partitions; k += g_partition_step) {
        uint64_t ch[POREP_MAX_CHALLENGES];
        C1_CHECK(porep_challenges(ch, pp, c1->replica_id, c1->comm_r, c1->seed, k, &e) == CUZK_OK, "challenges: %s",
                 e.msg);
        for (uint32_t i = 0; i < c1->n_challenges; i++) {
            const porep_challenge_proof *p = porep_c1_proof(c1, k, i);
            uint64_t c = p->c_x.index;
            C1_CHECK(c == ch[i], "partition %u challenge %u: node %llu, porep_challenges says %llu", k, i,
                     (unsigned long long)c, (unsigned long long)ch[i]);
            if (!pp->synthetic)
                C1_CHECK(c == ref_challenge(c1->replica_id, c1->seed, k * c1->n_challenges + i, pp->nodes),
                         "partition %u challenge %u: node %llu is not the interactive challenge", k, i, (unsigned long long)c);
            /* tree D */
            C1_CHECK(fr_eq(&p->comm_d_root, &comm_d), "challenge %llu: tree D root is not comm_d", (unsigned long long)c);
            C1_CHECK(check_sha_path(&p->comm_d_path, pp->d_levels, &p->comm_d_leaf, &comm_d, c),
                     "challenge %llu: tree D path", (unsigned long long)c);
            /* columns */
            bad += check_column(pp, &p->c_x, c, &comm_c, report);
            uint32_t par[POREP_PARENTS];
            porep_parents(pp, c, par);
            for (int j = 0; j < POREP_DRG_DEGREE; j++) bad += check_column(pp, &p->drg[j], par[j], &comm_c, report);
            for (int j = 0; j < POREP_EXP_DEGREE; j++)
                bad += check_column(pp, &p->exp[j], par[POREP_DRG_DEGREE + j], &comm_c, report);
            /* labels: each layer's label of c from the parents' labels in their columns */
            for (int l = 1; l <= L; l++) {
                const porep_label_proof *lp = &p->labeling[l - 1];
                fr want[37], base[14];
                int nb = l == 1 ? 6 : 14;
                for (int j = 0; j < 6; j++) base[j] = p->drg[j].rows[l - 1];
                if (l > 1)
                    for (int j = 0; j < 8; j++) base[6 + j] = p->exp[j].rows[l - 2];
                for (int j = 0; j < 37; j++) want[j] = base[j % nb];
                bool same = lp->layer_index == (uint32_t)l && lp->node == c;
                for (int j = 0; j < 37; j++) same = same && fr_eq(&want[j], &lp->parents[j]);
                C1_CHECK(same, "challenge %llu layer %d: labeling proof's parents are not the parents' labels",
                         (unsigned long long)c, l);
                uint8_t lab[32];
                ref_label(lab, c1->replica_id, (uint32_t)l, c, lp->parents);
                C1_CHECK(fr_eq_bytes(&p->c_x.rows[l - 1], lab), "challenge %llu layer %d: label does not follow from parents",
                         (unsigned long long)c, l);
            }
            C1_CHECK(!memcmp(&p->encoding, &p->labeling[L - 1], sizeof p->encoding), "challenge %llu: encoding proof",
                     (unsigned long long)c);
            /* the encoding, tree R-last */
            fr enc;
            fr_add(&enc, &p->c_x.rows[L - 1], &p->comm_d_leaf);
            C1_CHECK(fr_eq(&enc, &p->comm_r_last_leaf), "challenge %llu: replica leaf != last label + data",
                     (unsigned long long)c);
            C1_CHECK(fr_eq(&p->comm_r_last_root, &comm_r_last), "challenge %llu: tree R-last root", (unsigned long long)c);
            C1_CHECK(check_poseidon_path(&pp->shape, &p->comm_r_last_path, &p->comm_r_last_leaf, &comm_r_last, c),
                     "challenge %llu: tree R-last path", (unsigned long long)c);
        }
    }
    /* replica_id from comm_d (the public data agree) is checked by the callers that know the ids */
    return bad;
}

static void c1_release(porep_c1 *c1) {
    free(c1->proofs);
    memset(c1, 0, sizeof *c1);
}

static void ref_replica_id(uint8_t out[32], const uint8_t prover[32], uint64_t sector_id, const uint8_t ticket[32],
                           const uint8_t comm_d[32], const uint8_t porep_id[32]) {
    uint8_t buf[32 + 8 + 32 + 32 + 32];
    memcpy(buf, prover, 32);
    for (int i = 0; i < 8; i++) buf[32 + i] = (uint8_t)(sector_id >> (56 - 8 * i));
    memcpy(buf + 40, ticket, 32);
    memcpy(buf + 72, comm_d, 32);
    memcpy(buf + 104, porep_id, 32);
    SHA256(buf, sizeof buf, out);
    out[31] &= 0x3f;
}

/* ---- tests ------------------------------------------------------------------------------ */

TEST(porep_seal, seal_2k_matches_python_oracle) {
    static seal_case cs[4];
    int n = load_cases(cs, 4);
    REQUIRE_MSG(n == 3, "fixture porep_seal_2k.txt: %d cases", n);
    for (int i = 0; i < n; i++) {
        seal_case *c = &cs[i];
        cuzk_error e;
        porep_params pp;
        REQUIRE(porep_params_from_proof(&pp, c->reg, &e) == CUZK_OK);
        porep_sector s;
        REQUIRE_MSG(porep_seal(&s, &pp, c->data, c->prover_id, c->sector_id, c->ticket, 1, &e) == CUZK_OK, "%s: %s",
                    c->name, e.msg);
        CHECK_MSG(!memcmp(s.comm_d, c->comm_d, 32), "%s: comm_d", c->name);
        CHECK_MSG(!memcmp(s.replica_id, c->replica_id, 32), "%s: replica_id", c->name);
        CHECK_MSG(!memcmp(s.comm_c, c->comm_c, 32), "%s: comm_c", c->name);
        CHECK_MSG(!memcmp(s.comm_r_last, c->comm_r_last, 32), "%s: comm_r_last", c->name);
        CHECK_MSG(!memcmp(s.comm_r, c->comm_r, 32), "%s: comm_r", c->name);
        porep_c1 c1;
        REQUIRE_MSG(porep_c1_from_sector(&c1, &s, c->seed, 2, &e) == CUZK_OK, "%s: %s", c->name, e.msg);
        CHECK(c1.n_partitions == 1 && c1.n_challenges == 2);
        CHECK_MSG(c1.proofs[0].c_x.index == c->challenges[0] && c1.proofs[1].c_x.index == c->challenges[1],
                  "%s: challenges %u %u, oracle %llu %llu", c->name, c1.proofs[0].c_x.index, c1.proofs[1].c_x.index,
                  (unsigned long long)c->challenges[0], (unsigned long long)c->challenges[1]);
        CHECK(!memcmp(c1.comm_r, c->comm_r, 32) && !memcmp(c1.comm_d, c->comm_d, 32) &&
              !memcmp(c1.replica_id, c->replica_id, 32) && !memcmp(c1.seed, c->seed, 32) &&
              !memcmp(c1.ticket, c->ticket, 32));
        g_fail_budget = 10;
        CHECK_EQ_INT(check_c1(&c1, true), 0);
        c1_release(&c1);
        porep_sector_free(&s);
    }
}

/* Every C1 of a random 2 KiB sector and seed is consistent, for V1 and V1_1; and the checker
 * catches tampering (it is not vacuous). */
TEST(porep_seal, c1_2k_random_consistent_and_tamper_caught) {
    for (int it = 0; it < test_iters(2); it++) {
        uint64_t reg = it % 2 ? 0 : 5;
        cuzk_error e;
        porep_params pp;
        REQUIRE(porep_params_from_proof(&pp, reg, &e) == CUZK_OK);
        uint8_t data[2048], prover[32], ticket[32], seed[32];
        test_rand_bytes(data, sizeof data);
        for (int v = 0; v < 64; v++) data[32 * v + 31] &= 0x3f;
        test_rand_bytes(prover, 32);
        test_rand_bytes(ticket, 32);
        test_rand_bytes(seed, 32);
        porep_sector s;
        REQUIRE(porep_seal(&s, &pp, data, prover, 1234 + (uint64_t)it, ticket, 1, &e) == CUZK_OK);
        uint8_t rid[32];
        ref_replica_id(rid, prover, 1234 + (uint64_t)it, ticket, s.comm_d, pp.porep_id);
        CHECK(!memcmp(rid, s.replica_id, 32));
        porep_c1 c1;
        REQUIRE(porep_c1_from_sector(&c1, &s, seed, 1, &e) == CUZK_OK);
        g_fail_budget = 10;
        CHECK_EQ_INT(check_c1(&c1, true), 0);
        /* tampering: a label in a parent's column, a data leaf, a path index, a labeling parent */
        porep_challenge_proof *p = &c1.proofs[1];
        fr one;
        fr_one(&one);
        fr_add(&p->drg[3].rows[0], &p->drg[3].rows[0], &one);
        CHECK(check_c1(&c1, false) > 0);
        fr_sub(&p->drg[3].rows[0], &p->drg[3].rows[0], &one);
        CHECK_EQ_INT(check_c1(&c1, false), 0);
        fr_add(&p->comm_d_leaf, &p->comm_d_leaf, &one);
        CHECK(check_c1(&c1, false) > 0);
        fr_sub(&p->comm_d_leaf, &p->comm_d_leaf, &one);
        p->comm_r_last_path.index[0] ^= 1;
        CHECK(check_c1(&c1, false) > 0);
        p->comm_r_last_path.index[0] ^= 1;
        fr_add(&p->labeling[1].parents[36], &p->labeling[1].parents[36], &one);
        CHECK(check_c1(&c1, false) > 0);
        c1_release(&c1);
        porep_sector_free(&s);
    }
}

/* ~25 s on one core (Poseidon trees ~60 %, the expander's BLAKE2b ~30 %): run with
 * CUZK_TEST_FULL=1. */
TEST(porep_seal, seal_8m_consistent) {
    if (!getenv("CUZK_TEST_FULL")) SKIP("8 MiB seal: ~25 s of CPU (CUZK_TEST_FULL=1 runs it)");
    cuzk_error e;
    porep_params pp;
    REQUIRE(porep_params_from_proof(&pp, 6, &e) == CUZK_OK); /* 8 MiB V1_1 */
    REQUIRE(pp.nodes == (1u << 18) && pp.partitions == 1);
    uint8_t *data = malloc(pp.sector_size), prover[32], ticket[32], seed[32];
    REQUIRE(data);
    test_rand_bytes(data, pp.sector_size);
    for (uint64_t v = 0; v < pp.nodes; v++) data[32 * v + 31] &= 0x3f;
    test_rand_bytes(prover, 32);
    test_rand_bytes(ticket, 32);
    test_rand_bytes(seed, 32);
    double t0 = now_ms();
    porep_sector s;
    cuzk_status st = porep_seal(&s, &pp, data, prover, 5, ticket, 0, &e);
    double t1 = now_ms();
    free(data);
    REQUIRE_MSG(st == CUZK_OK, "%s", e.msg);
    printf("  8 MiB seal: %.1f s\n", (t1 - t0) / 1e3);
    /* spot checks on the whole trees: a random tree C leaf is its column's hash, a random replica
     * node is label + data, the top of tree D */
    for (int i = 0; i < 8; i++) {
        uint64_t v = test_rand64() % pp.nodes;
        fr rows[2], h, d, r;
        fr_from_bytes_le(&rows[0], s.labels[v], 32);
        fr_from_bytes_le(&rows[1], s.labels[pp.nodes + v], 32);
        CHECK(poseidon_hash_plain(&h, rows, 2) && fr_eq(&h, &s.tree_c[v]));
        fr_from_bytes_le(&d, s.data[v], 32);
        fr_add(&r, &rows[1], &d);
        CHECK(fr_eq(&r, &s.tree_r[v]));
    }
    porep_c1 c1;
    REQUIRE(porep_c1_from_sector(&c1, &s, seed, 1, &e) == CUZK_OK);
    g_fail_budget = 10;
    CHECK_EQ_INT(check_c1(&c1, true), 0);
    uint8_t rid[32];
    ref_replica_id(rid, prover, 5, ticket, s.comm_d, pp.porep_id);
    CHECK(!memcmp(rid, c1.replica_id, 32));
    c1_release(&c1);
    porep_sector_free(&s);
}

TEST(porep_seal, sparse_2k_consistent) {
    for (int it = 0; it < test_iters(2); it++) {
        uint64_t reg = it % 2 ? 0 : 5;
        cuzk_error e;
        porep_params pp;
        REQUIRE(porep_params_from_proof(&pp, reg, &e) == CUZK_OK);
        uint8_t prover[32], ticket[32], seed[32], salt[32];
        test_rand_bytes(prover, 32);
        test_rand_bytes(ticket, 32);
        test_rand_bytes(seed, 32);
        test_rand_bytes(salt, 32);
        porep_c1 a, b;
        REQUIRE_MSG(porep_c1_sparse(&a, &pp, prover, 9, ticket, seed, salt, 1, &e) == CUZK_OK, "%s", e.msg);
        g_fail_budget = 10;
        CHECK_EQ_INT(check_c1(&a, true), 0);
        uint8_t rid[32];
        ref_replica_id(rid, prover, 9, ticket, a.comm_d, pp.porep_id);
        CHECK(!memcmp(rid, a.replica_id, 32));
        /* deterministic in its inputs; another salt gives another sector */
        REQUIRE(porep_c1_sparse(&b, &pp, prover, 9, ticket, seed, salt, 2, &e) == CUZK_OK);
        CHECK(!memcmp(a.comm_r, b.comm_r, 32) && !memcmp(a.comm_d, b.comm_d, 32));
        CHECK(!memcmp(&a.proofs[1], &b.proofs[1], sizeof a.proofs[1]));
        c1_release(&b);
        salt[0] ^= 1;
        REQUIRE(porep_c1_sparse(&b, &pp, prover, 9, ticket, seed, salt, 1, &e) == CUZK_OK);
        CHECK(memcmp(a.comm_r, b.comm_r, 32) && memcmp(a.comm_d, b.comm_d, 32));
        CHECK_EQ_INT(check_c1(&b, true), 0);
        c1_release(&b);
        c1_release(&a);
    }
}

/* Sparse C1 at full scale: 32 GiB V1_1 (tree shape base 8 + sub 8) and 64 GiB V1 (+ top 2). */
static void sparse_full_scale(uint64_t reg, int layers, int tree_levels, uint32_t partition_step) {
    cuzk_error e;
    porep_params pp;
    REQUIRE(porep_params_from_proof(&pp, reg, &e) == CUZK_OK);
    REQUIRE(pp.partitions == 10 && pp.challenges == 18 && pp.layers == layers);
    REQUIRE(merkle_levels(&pp.shape) == tree_levels);
    uint8_t prover[32] = {0x10, 0x27}, ticket[32], seed[32], salt[32];
    test_rand_bytes(ticket, 32);
    ticket[31] &= 0x3f;
    test_rand_bytes(seed, 32);
    test_rand_bytes(salt, 32);
    double t0 = now_ms();
    porep_c1 c1;
    cuzk_status st = porep_c1_sparse(&c1, &pp, prover, 4242, ticket, seed, salt, 0, &e);
    double t1 = now_ms();
    REQUIRE_MSG(st == CUZK_OK, "%s", e.msg);
    printf("  %llu GiB sparse C1 (10 x 18 challenges): %.2f s\n", (unsigned long long)(pp.sector_size >> 30),
           (t1 - t0) / 1e3);
    g_fail_budget = 10;
    g_plain = false;
    g_partition_step = partition_step;
    CHECK_EQ_INT(check_c1(&c1, true), 0);
    g_plain = true;
    g_partition_step = 1;
    uint8_t rid[32];
    ref_replica_id(rid, prover, 4242, ticket, c1.comm_d, pp.porep_id);
    CHECK(!memcmp(rid, c1.replica_id, 32));
    c1_release(&c1);
}

TEST(porep_seal, sparse_32g_consistent) { sparse_full_scale(8, 11, 10, 1); }
/* partitions 0 and 9 checked (the checker's time) */
TEST(porep_seal, sparse_64g_v1_consistent) { sparse_full_scale(4, 11, 11, 9); }

TEST(porep_seal, bad_input) {
    cuzk_error e;
    porep_params pp;
    REQUIRE(porep_params_from_proof(&pp, 5, &e) == CUZK_OK);
    uint8_t data[2048] = {0}, id[32] = {0};
    porep_sector s;
    data[32 * 17 + 31] = 0x80;
    CHECK(porep_seal(&s, &pp, data, id, 1, id, 1, &e) == CUZK_ERR_ARG);
    CHECK(strstr(e.msg, "node 17") != NULL);
    CHECK(s.data == NULL);
    CHECK(porep_seal(&s, &pp, NULL, id, 1, id, 1, &e) == CUZK_ERR_ARG);
    porep_c1 c1;
    CHECK(porep_c1_from_sector(&c1, &s, id, 1, &e) == CUZK_ERR_ARG); /* s zeroed: not sealed */
    porep_params big;
    REQUIRE(porep_params_from_proof(&big, 8, &e) == CUZK_OK);
    CHECK(porep_seal(&s, &big, data, id, 1, id, 1, &e) == CUZK_ERR_ARG); /* 32 GiB: sparse only */
    porep_params syn;
    REQUIRE(porep_params_from_proof(&syn, 10, &e) == CUZK_OK);
    CHECK(porep_c1_sparse(&c1, &syn, id, 1, id, id, id, 1, &e) == CUZK_ERR_UNSUPPORTED);
    CHECK(c1.proofs == NULL);
    CHECK(porep_c1_sparse(&c1, NULL, id, 1, id, id, id, 1, &e) == CUZK_ERR_ARG);
    porep_sector_free(&s);
    porep_sector_free(NULL);
}

/* A synthetic-PoRep 2 KiB sector seals and its C1 is consistent (challenges from comm_r). */
TEST(porep_seal, c1_2k_synthetic_consistent) {
    cuzk_error e;
    porep_params pp;
    REQUIRE(porep_params_from_proof(&pp, 10, &e) == CUZK_OK);
    REQUIRE(pp.synthetic);
    uint8_t data[2048], prover[32], ticket[32], seed[32];
    test_rand_bytes(data, sizeof data);
    for (int v = 0; v < 64; v++) data[32 * v + 31] &= 0x3f;
    test_rand_bytes(prover, 32);
    test_rand_bytes(ticket, 32);
    test_rand_bytes(seed, 32);
    porep_sector s;
    REQUIRE(porep_seal(&s, &pp, data, prover, 3, ticket, 1, &e) == CUZK_OK);
    porep_c1 c1;
    REQUIRE_MSG(porep_c1_from_sector(&c1, &s, seed, 1, &e) == CUZK_OK, "%s", e.msg);
    g_fail_budget = 10;
    CHECK_EQ_INT(check_c1(&c1, true), 0);
    c1_release(&c1);
    porep_sector_free(&s);
}
