/* porep_circuit suite: the SDR gadgets (src/gadgets/sdr.h) against OpenSSL SHA-256 and upstream's
 * constraint count, and the StackedCircuit (src/filecoin/porep_circuit.h): counts and densities
 * against the counting model (tests/fixtures/filecoin/model_counts.txt, CIRCUITS.md section 5),
 * recording in parts against one builder byte for byte, and witnesses of C1 outputs that satisfy
 * the recorded R1CS.
 *
 * C1 outputs: sealed 2 KiB sectors and sparse 8 MiB / 32 GiB / 64 GiB C1s (filecoin/porep_seal.h),
 * and C1s made here over sparse trees (only the challenged leaves, their parents' columns and the
 * paths exist; every other leaf is one default value) whose labels are OpenSSL SHA-256 of the
 * columns' rows and whose parents are either the graph's or arbitrary nodes (the circuit takes
 * them from the columns it is given; the graph only enters through the public inputs). */
#include "test.h"
#include "test_filecoin.h"

#include <openssl/sha.h>
#include <stdlib.h>
#include <string.h>

#include "filecoin/porep_circuit.h"
#include "filecoin/porep_seal.h"
#include "gadgets/sdr.h"
#include "r1cs/r1cs.h"
#include "util/timer.h"

/* ---- parameters (the shapes of filecoin-proofs' constants.rs, CIRCUITS.md section 5) ---- */
static void pp_for(porep_params *pp, uint64_t sector_size) {
    memset(pp, 0, sizeof *pp);
    pp->sector_size = sector_size;
    pp->nodes = sector_size / 32;
    pp->d_levels = 0;
    while ((1ull << pp->d_levels) < pp->nodes) pp->d_levels++;
    pp->api_version = 11;
    pp->shape.base_arity = 8;
    bool big = sector_size >= (32ull << 30);
    pp->layers = big ? 11 : 2;
    pp->partitions = big ? 10 : 1;
    pp->challenges = big ? 18 : 2;
    int bits = pp->d_levels;
    if (big) { pp->shape.sub_arity = 8; bits -= 3; }
    if (sector_size == (64ull << 30)) { pp->shape.top_arity = 2; bits -= 1; }
    pp->shape.base_levels = bits / 3;
}

/* ---- host-side hashes (the independent oracle: OpenSSL SHA-256, poseidon_hash) ---- */
static void fr_le(uint8_t out[32], const fr *x) { fr_to_bytes_le(out, 32, x); }

static void sha_domain(fr *out, const uint8_t *m, size_t n) {
    uint8_t d[32];
    SHA256(m, n, d);
    d[31] &= 0x3f;
    CHECK(fr_from_bytes_le(out, d, 32));
}

static void node_sha(fr *out, const fr *in, int arity) {
    (void)arity;
    uint8_t m[64];
    fr_le(m, &in[0]);
    fr_le(m + 32, &in[1]);
    sha_domain(out, m, 64);
}
static void node_poseidon(fr *out, const fr *in, int arity) { CHECK(poseidon_hash(out, in, arity)); }

/* a pseudo-random Fr of 254 bits from (tag, a, b) */
static void fr_of(fr *out, uint64_t tag, uint64_t a, uint64_t b) {
    static uint64_t salt;
    if (!salt) salt = test_rand64() | 1;
    uint64_t m[4] = {salt, tag, a, b};
    sha_domain(out, (const uint8_t *)m, sizeof m);
}

/* The label of node in layer from the 37 expanded parents (POREP.md section 3). */
static void label_host(fr *out, const uint8_t replica_id[32], uint32_t layer, uint64_t node, const fr parents[37]) {
    uint8_t m[64 + 37 * 32];
    memset(m, 0, sizeof m);
    memcpy(m, replica_id, 32);
    for (int i = 0; i < 4; i++) m[32 + i] = (uint8_t)(layer >> (24 - 8 * i));
    for (int i = 0; i < 8; i++) m[36 + i] = (uint8_t)(node >> (56 - 8 * i));
    for (int k = 0; k < 37; k++) fr_le(m + 64 + 32 * k, &parents[k]);
    sha_domain(out, m, sizeof m);
}

/* ---- a sparse Merkle tree: the leaves set[0..n) (index, value), every other leaf dflt ---- */
typedef struct { uint64_t idx; fr v; } sleaf;

static int sleaf_cmp(const void *a, const void *b) {
    uint64_t x = ((const sleaf *)a)->idx, y = ((const sleaf *)b)->idx;
    return x < y ? -1 : x > y;
}

/* root, and the paths of the leaves track[0..nt) (indices among the set ones) */
static void sparse_tree(fr *root, merkle_path *paths, const uint64_t *track, size_t nt, const sleaf *set, size_t n,
                        const int *arity, int levels, fr dflt, void (*h)(fr *, const fr *, int)) {
    sleaf *cur = malloc(n * sizeof *cur);
    uint64_t *pos = malloc((nt ? nt : 1) * sizeof *pos);
    memcpy(cur, set, n * sizeof *cur);
    memcpy(pos, track, nt * sizeof *pos);
    for (int l = 0; l < levels; l++) {
        int a = arity[l];
        qsort(cur, n, sizeof *cur, sleaf_cmp);
        size_t m = 0;
        for (size_t i = 0; i < n; i++)
            if (m == 0 || cur[m - 1].idx != cur[i].idx) cur[m++] = cur[i];
            else CHECK(fr_eq(&cur[m - 1].v, &cur[i].v));   /* one value per leaf */
        n = m;
        fr ch[16];
        /* paths: the children of each tracked node's parent */
        for (size_t t = 0; t < nt; t++) {
            uint64_t g = pos[t] / (uint64_t)a;
            for (int j = 0; j < a; j++) ch[j] = dflt;
            for (size_t i = 0; i < n; i++)
                if (cur[i].idx / (uint64_t)a == g) ch[cur[i].idx % (uint64_t)a] = cur[i].v;
            int k = 0;
            for (int j = 0; j < a; j++)
                if ((uint64_t)j != pos[t] % (uint64_t)a) paths[t].siblings[l][k++] = ch[j];
            paths[t].index[l] = (uint32_t)(pos[t] % (uint64_t)a);
            pos[t] = g;
        }
        /* the next level's set nodes */
        size_t q = 0;
        for (size_t i = 0; i < n;) {
            uint64_t g = cur[i].idx / (uint64_t)a;
            for (int j = 0; j < a; j++) ch[j] = dflt;
            while (i < n && cur[i].idx / (uint64_t)a == g) { ch[cur[i].idx % (uint64_t)a] = cur[i].v; i++; }
            cur[q].idx = g;
            h(&cur[q].v, ch, a);
            q++;
        }
        n = q;
        for (int j = 0; j < a; j++) ch[j] = dflt;
        h(&dflt, ch, a);
    }
    *root = n ? cur[0].v : dflt;
    free(cur);
    free(pos);
}

/* ---- a C1 output satisfying the circuit (one partition, pp->challenges challenges) ---- */
/* every node's column: its labels from the sealed layers (all_labels: layers x nodes, porep_labels_all),
 * or pseudo-random rows */
static void column_host(fr *rows, const porep_params *pp, uint64_t node, const uint8_t (*all_labels)[32]) {
    for (int r = 0; r < pp->layers; r++) {
        if (all_labels) CHECK(fr_from_bytes_le(&rows[r], all_labels[(uint64_t)r * pp->nodes + node], 32));
        else fr_of(&rows[r], 1, node, (uint64_t)r);
    }
}

/* The C1 and, in parents[c][14], each challenge's parents (the public inputs' nodes).
 * all_labels NULL: random challenges at odd nodes and random parents at even ones (a parent's
 * column is random, a challenge's is its labels). all_labels given (the sector's labels for
 * c1->replica_id, which must be set): the challenges of porep_challenges (interactive pp), the
 * graph's parents, every column the node's labels. */
static void fake_c1(porep_c1 *c1, uint64_t (*parents)[POREP_PARENTS], const porep_params *pp, const uint8_t (*all_labels)[32]) {
    uint8_t rid[32];
    memcpy(rid, c1->replica_id, 32);
    memset(c1, 0, sizeof *c1);
    c1->pp = *pp;
    if (all_labels) memcpy(c1->replica_id, rid, 32);
    else test_rand_bytes(c1->replica_id, 32);
    c1->replica_id[31] &= 0x3f;
    test_rand_bytes(c1->seed, 32);
    test_rand_bytes(c1->ticket, 32);
    uint32_t nc = (uint32_t)pp->challenges;
    c1->n_partitions = 1;
    c1->n_challenges = nc;
    c1->proofs = calloc(nc, sizeof *c1->proofs);
    REQUIRE(c1->proofs);
    uint64_t node[POREP_MAX_CHALLENGES];
    if (all_labels) {
        cuzk_error e = {0};
        REQUIRE_MSG(porep_challenges(node, pp, c1->replica_id, NULL, c1->seed, 0, &e) == CUZK_OK, "%s", e.msg);
        for (uint32_t i = 0; i < nc; i++) {
            uint32_t p[POREP_PARENTS];
            porep_parents(pp, node[i], p);
            for (int j = 0; j < POREP_PARENTS; j++) parents[i][j] = p[j];
        }
    } else {
        for (uint32_t i = 0; i < nc; i++) {
            bool again;
            do {
                node[i] = (test_rand64() % (pp->nodes / 2)) * 2 + 1;
                again = false;
                for (uint32_t j = 0; j < i; j++) again |= node[j] == node[i];
            } while (again);
            for (int j = 0; j < POREP_PARENTS; j++) parents[i][j] = (test_rand64() % (pp->nodes / 2)) * 2;
        }
    }
    int L = pp->layers;
    /* labels and columns */
    fr labels[POREP_MAX_CHALLENGES][POREP_MAX_LAYERS];
    for (uint32_t i = 0; i < nc; i++) {
        porep_challenge_proof *pr = &c1->proofs[i];
        for (int j = 0; j < POREP_PARENTS; j++) {
            porep_column_proof *col = j < POREP_DRG_DEGREE ? &pr->drg[j] : &pr->exp[j - POREP_DRG_DEGREE];
            col->index = (uint32_t)parents[i][j];
            column_host(col->rows, pp, parents[i][j], all_labels);
        }
        for (int l = 1; l <= L; l++) {
            fr p[POREP_PARENTS], e[37];
            int np = 0;
            for (int j = 0; j < POREP_DRG_DEGREE; j++) p[np++] = pr->drg[j].rows[l - 1];
            if (l > 1)
                for (int j = 0; j < POREP_EXP_DEGREE; j++) p[np++] = pr->exp[j].rows[l - 2];
            for (int k = 0; k < 37; k++) e[k] = l > 1 ? p[k % 14] : (k < 36 ? p[k % 6] : p[0]);
            label_host(&labels[i][l - 1], c1->replica_id, (uint32_t)l, node[i], e);
            if (all_labels) {   /* the sealed label of the challenge (porep_labels_all) */
                fr sealed;
                CHECK(fr_from_bytes_le(&sealed, all_labels[(uint64_t)(l - 1) * pp->nodes + node[i]], 32));
                CHECK_MSG(fr_eq(&sealed, &labels[i][l - 1]), "challenge %u layer %d: label differs from porep_labels_all", i, l);
            }
            pr->labeling[l - 1].layer_index = (uint32_t)l;
            pr->labeling[l - 1].node = node[i];
            memcpy(pr->labeling[l - 1].parents, e, sizeof e);
        }
        pr->encoding = pr->labeling[L - 1];
        pr->c_x.index = (uint32_t)node[i];
        memcpy(pr->c_x.rows, labels[i], (size_t)L * sizeof(fr));
    }
    /* tree C: the parents' and the challenges' column hashes */
    size_t nl = (size_t)nc * (POREP_PARENTS + 1);
    sleaf *set = malloc(nl * sizeof *set);
    uint64_t *track = malloc(nl * sizeof *track);
    merkle_path *paths = calloc(nl, sizeof *paths);
    REQUIRE(set && track && paths);
    int arity[MERKLE_MAX_LEVELS];
    int lv = merkle_levels(&pp->shape);
    for (int l = 0; l < lv; l++) arity[l] = merkle_level_arity(&pp->shape, l);
    size_t k = 0;
    for (uint32_t i = 0; i < nc; i++) {
        porep_challenge_proof *pr = &c1->proofs[i];
        for (int j = 0; j <= POREP_PARENTS; j++) {
            porep_column_proof *col = j == POREP_PARENTS ? &pr->c_x : j < POREP_DRG_DEGREE ? &pr->drg[j] : &pr->exp[j - POREP_DRG_DEGREE];
            CHECK(poseidon_hash(&col->leaf, col->rows, L));
            set[k].idx = col->index;
            set[k].v = col->leaf;
            track[k] = col->index;
            k++;
        }
    }
    fr dflt, comm_c, comm_r_last, comm_d;
    fr_of(&dflt, 2, 0, 0);
    sparse_tree(&comm_c, paths, track, nl, set, nl, arity, lv, dflt, node_poseidon);
    k = 0;
    for (uint32_t i = 0; i < nc; i++)
        for (int j = 0; j <= POREP_PARENTS; j++, k++) {
            porep_challenge_proof *pr = &c1->proofs[i];
            porep_column_proof *col = j == POREP_PARENTS ? &pr->c_x : j < POREP_DRG_DEGREE ? &pr->drg[j] : &pr->exp[j - POREP_DRG_DEGREE];
            col->path = paths[k];
            col->root = comm_c;
        }
    /* tree R-last: replica = last label + data; tree D: the data */
    for (uint32_t i = 0; i < nc; i++) {
        porep_challenge_proof *pr = &c1->proofs[i];
        fr_of(&pr->comm_d_leaf, 3, node[i], 0);
        fr_add(&pr->comm_r_last_leaf, &labels[i][L - 1], &pr->comm_d_leaf);
        set[i].idx = node[i];
        set[i].v = pr->comm_r_last_leaf;
        track[i] = node[i];
    }
    fr_of(&dflt, 4, 0, 0);
    sparse_tree(&comm_r_last, paths, track, nc, set, nc, arity, lv, dflt, node_poseidon);
    for (uint32_t i = 0; i < nc; i++) {
        c1->proofs[i].comm_r_last_path = paths[i];
        c1->proofs[i].comm_r_last_root = comm_r_last;
        set[i].v = c1->proofs[i].comm_d_leaf;
    }
    int two[MERKLE_MAX_LEVELS];
    for (int l = 0; l < pp->d_levels; l++) two[l] = 2;
    fr_of(&dflt, 5, 0, 0);
    sparse_tree(&comm_d, paths, track, nc, set, nc, two, pp->d_levels, dflt, node_sha);
    for (uint32_t i = 0; i < nc; i++) {
        c1->proofs[i].comm_d_path = paths[i];
        c1->proofs[i].comm_d_root = comm_d;
    }
    fr cr, in2[2] = {comm_c, comm_r_last};
    CHECK(poseidon_hash(&cr, in2, 2));
    fr_le(c1->comm_r, &cr);
    fr_le(c1->comm_d, &comm_d);
    free(set);
    free(track);
    free(paths);
}

/* the public inputs the C1's challenges and parents give (generate_public_inputs' order) */
static void expected_inputs(fr *out, const porep_c1 *c1, uint64_t (*parents)[POREP_PARENTS]) {
    size_t k = 0;
    REQUIRE(fr_from_bytes_le(&out[k++], c1->replica_id, 32));
    REQUIRE(fr_from_bytes_le(&out[k++], c1->comm_d, 32));
    REQUIRE(fr_from_bytes_le(&out[k++], c1->comm_r, 32));
    for (uint32_t i = 0; i < c1->n_challenges; i++) {
        uint64_t c = c1->proofs[i].labeling[0].node;
        fr_from_u64(&out[k++], c);
        for (int j = 0; j < POREP_PARENTS; j++) fr_from_u64(&out[k++], parents[i][j]);
        for (int j = 0; j < 3; j++) fr_from_u64(&out[k++], c);
    }
}

/* ---- gadgets ---- */
TEST(porep_circuit, reverse_bit_numbering_and_uint64) {
    cs c;
    REQUIRE(cs_init(&c, CS_MATRICES | CS_WITNESS) == CUZK_OK);
    uint64_t v = test_rand64();
    cs_bool bits[64], out[72];
    sdr_u64_alloc(&c, bits, v);
    CHECK_EQ_INT(c.n_constraints, 64);
    CHECK_EQ_INT(c.n_aux, 64);
    for (int i = 0; i < 64; i++) CHECK(bits[i].kind == BOOL_IS && bits[i].value == ((v >> i) & 1));
    /* 61 bits: 64 out, bits of each byte reversed, the last byte padded with false first */
    CHECK_EQ_INT(sdr_reverse_bit_numbering(out, bits, 61), 64);
    for (int i = 0; i < 56; i++) CHECK(out[i].var == bits[(i / 8) * 8 + 7 - i % 8].var);
    for (int i = 56; i < 59; i++) CHECK(out[i].kind == BOOL_CONST && !out[i].value);
    for (int i = 59; i < 64; i++) CHECK(out[i].var == bits[56 + 63 - i].var);
    /* pack_bits: one aux of the value, one row */
    cs_num x = sdr_pack_bits(&c, bits, 64);
    fr want;
    fr_from_u64(&want, v);
    CHECK(fr_eq(&x.value, &want));
    CHECK_EQ_INT(c.n_constraints, 65);
    uint32_t bad;
    char msg[600];
    CHECK_MSG(cs_check_recorded(&c, &bad, msg, sizeof msg), "%s", msg);
    cs_free(&c);
}

/* create_label in the circuit equals SHA-256 of the label's bytes; the witness satisfies */
TEST(porep_circuit, label_gadget_equals_sha256) {
    for (int it = 0; it < test_iters(2); it++) {
        cs c;
        REQUIRE(cs_init(&c, CS_MATRICES | CS_WITNESS) == CUZK_OK);
        uint8_t rid[32];
        test_rand_bytes(rid, 32);
        rid[31] &= 0x3f;
        fr ridf, par[14], e[37];
        REQUIRE(fr_from_bytes_le(&ridf, rid, 32));
        uint32_t layer = 1 + (uint32_t)(test_rand64() % 11);
        uint64_t node = test_rand64() >> (it ? 34 : 0);
        for (int j = 0; j < 14; j++) fr_of(&par[j], 9, (uint64_t)it, (uint64_t)j);
        cs_num rn = num_alloc(&c, &ridf);
        cs_bool tb[255], rb[256], pb[14][256], nb[64];
        num_to_bits_le(&c, tb, &rn);
        sdr_reverse_bit_numbering(rb, tb, 255);
        for (int j = 0; j < 14; j++) {
            cs_num pn = num_alloc(&c, &par[j]);
            num_to_bits_le(&c, tb, &pn);
            sdr_reverse_bit_numbering(pb[j], tb, 255);
        }
        sdr_u64_alloc(&c, nb, node);
        const cs_bool *ex[37];
        for (int k = 0; k < 37; k++) { ex[k] = pb[k % 14]; e[k] = par[k % 14]; }
        cs_num lab = sdr_create_label_gadget(&c, rb, ex, layer, nb);
        fr want;
        label_host(&want, rid, layer, node, e);
        CHECK_MSG(fr_eq(&lab.value, &want), "label of layer %u node %llu differs from SHA-256", layer, (unsigned long long)node);
        uint32_t bad;
        char msg[600];
        CHECK_MSG(cs_check_recorded(&c, &bad, msg, sizeof msg), "%s", msg);
        cs_free(&c);
    }
}

/* SHA-256 on a witness-only builder (gadgets/sha256.c's lean path) equals the generic gadget on a
 * recording builder: the same aux values, counts, and output Booleans; messages and states mixing
 * constants, allocated bits and negations, several lengths (1 to 3 blocks) */
TEST(porep_circuit, sha256_witness_path_equals_generic) {
    for (int it = 0; it < test_iters(24); it++) {
        size_t nbytes = (size_t)(test_rand64() % 150);
        unsigned mix = (unsigned)(it % 8);   /* 0: no constants ... 7: almost all constants */
        bool compress = it % 3 == 2;
        uint64_t seed = test_rand64();
        cs c[2];
        cs_bool out[2][256];
        for (int m = 0; m < 2; m++) {
            REQUIRE(cs_init(&c[m], m ? CS_MATRICES | CS_WITNESS : CS_WITNESS) == CUZK_OK);
            CHECK(c[m].lc_on == (m == 1));
            /* the same inputs in both builders: replay the generator */
            uint64_t x = seed;
            cs_bool *msg = malloc((8 * nbytes + 1024) * sizeof *msg);
            REQUIRE(msg);
            for (size_t i = 0; i < 8 * nbytes + 1024; i++) {
                x = x * 6364136223846793005ull + 1442695040888963407ull;
                bool v = (x >> 33) & 1;
                unsigned k = (unsigned)((x >> 40) % 8);
                if (k < mix) msg[i] = bool_const(v);
                else {
                    cs_bool b = bool_alloc(&c[m], v);
                    msg[i] = k == 7 ? bool_not(b) : b;
                }
            }
            if (compress) {   /* one compression of a state of mixed kinds */
                cs_u32 cur[8], o[8];
                for (int k = 0; k < 8; k++) cur[k] = u32_from_bits_be(msg + 32 * k);
                sha256_compress_gadget(&c[m], o, msg + 256, cur);
                for (int k = 0; k < 8; k++) u32_to_bits_be(out[m] + 32 * k, &o[k]);
            } else {
                sha256_gadget(&c[m], out[m], msg, 8 * nbytes);
            }
            free(msg);
            REQUIRE(c[m].status == CUZK_OK);
        }
        CHECK_EQ_INT(c[0].n_aux, c[1].n_aux);
        CHECK_EQ_INT(c[0].n_constraints, c[1].n_constraints);
        CHECK_MSG(c[0].n_aux == c[1].n_aux && !memcmp(c[0].aux_w, c[1].aux_w, c[0].n_aux * sizeof(fr)),
                  "iteration %d (%zu bytes, mix %u): other aux values", it, nbytes, mix);
        for (int i = 0; i < 256; i++)
            CHECK_MSG(out[0][i].kind == out[1][i].kind && out[0][i].value == out[1][i].value &&
                          (out[0][i].kind == BOOL_CONST || out[0][i].var == out[1][i].var),
                      "iteration %d: output bit %d differs", it, i);
        if (!compress) {   /* and the recorded one is satisfied */
            uint32_t bad;
            char msg[600];
            CHECK_MSG(cs_check_recorded(&c[1], &bad, msg, sizeof msg), "%s", msg);
        }
        cs_free(&c[0]);
        cs_free(&c[1]);
    }
}

/* upstream's count (create_label.rs test_create_label): 38 x 256 allocated bits (replica_id and
 * 37 parents, bytes_into_boolean_vec_be), layer 3, node 22 a constant: 532,025 constraints */
TEST(porep_circuit, label_gadget_upstream_count) {
    cs c;
    REQUIRE(cs_init(&c, 0) == CUZK_OK);
    cs_bool id[256], par[37][256], node[64];
    const cs_bool *ex[37];
    for (int i = 0; i < 256; i++) id[i] = bool_alloc(&c, false);
    for (int k = 0; k < 37; k++) {
        for (int i = 0; i < 256; i++) par[k][i] = bool_alloc(&c, false);
        ex[k] = par[k];
    }
    for (int i = 0; i < 64; i++) node[i] = bool_const((22ULL >> i) & 1);
    sdr_create_label_gadget(&c, id, ex, 3, node);
    CHECK_EQ_INT(c.n_constraints, 532025);
    cs_free(&c);
}

/* tree D: the node gadget is SHA-256 of the two leaves (byte 31 & 0x3f); a path's root and input */
TEST(porep_circuit, tree_d_path_equals_sha256) {
    const int levels = 5;
    sleaf set[3];
    uint64_t track[3];
    for (int i = 0; i < 3; i++) {
        set[i].idx = track[i] = test_rand64() % 32;
        fr_of(&set[i].v, 7, set[i].idx, 0);
    }
    int two[5] = {2, 2, 2, 2, 2};
    fr root, dflt;
    fr_of(&dflt, 8, 0, 0);
    merkle_path paths[3];
    memset(paths, 0, sizeof paths);
    sparse_tree(&root, paths, track, 3, set, 3, two, levels, dflt, node_sha);
    for (int i = 0; i < 3; i++) {
        cs c;
        REQUIRE(cs_init(&c, CS_MATRICES | CS_WITNESS) == CUZK_OK);
        cs_num rt = num_alloc(&c, &root), leaf = num_alloc(&c, &set[i].v);
        sdr_por_sha256_gadget(&c, levels, &leaf, &paths[i], &rt);
        CHECK_EQ_INT(c.n_inputs, 2);
        fr *w;
        size_t nw;
        REQUIRE(cs_witness(&c, &w, &nw) == CUZK_OK);
        fr idx;
        fr_from_u64(&idx, track[i]);
        CHECK(fr_eq(&w[1], &idx));
        free(w);
        uint32_t bad;
        char msg[600];
        CHECK_MSG(cs_check_recorded(&c, &bad, msg, sizeof msg), "leaf %llu: %s", (unsigned long long)track[i], msg);
        cs_free(&c);
        /* a wrong sibling: unsatisfied */
        merkle_path p = paths[i];
        fr one;
        fr_one(&one);
        fr_add(&p.siblings[2][0], &p.siblings[2][0], &one);
        REQUIRE(cs_init(&c, CS_MATRICES | CS_WITNESS) == CUZK_OK);
        rt = num_alloc(&c, &root);
        leaf = num_alloc(&c, &set[i].v);
        sdr_por_sha256_gadget(&c, levels, &leaf, &p, &rt);
        CHECK(!cs_check_recorded(&c, &bad, msg, sizeof msg));
        cs_free(&c);
    }
}

/* ---- counts ---- */
static void check_model_counts(const char *name, uint64_t sector_size) {
    porep_params pp;
    pp_for(&pp, sector_size);
    uint64_t want[5];
    static const char *keys[5] = {"inputs", "aux", "constraints", "a_aux", "b_aux"};
    for (int k = 0; k < 5; k++) REQUIRE_MSG(model_lookup("porep", name, keys[k], &want[k]), "model_counts.txt: porep %s %s", name, keys[k]);
    cs c;
    REQUIRE(cs_init(&c, CS_DENSITY) == CUZK_OK);
    REQUIRE_MSG(porep_synthesize(&c, &pp, NULL, 0) == CUZK_OK, "%s", c.err.msg);
    uint64_t got[5] = {c.n_inputs, c.n_aux, c.n_constraints, cs_bits_count(&c.a_aux), cs_bits_count(&c.b_aux)};
    for (int k = 0; k < 5; k++)
        CHECK_MSG(got[k] == want[k], "porep %s: %s %llu, model %llu", name, keys[k], (unsigned long long)got[k],
                  (unsigned long long)want[k]);
    CHECK_EQ_INT(cs_bits_count(&c.b_in), 1);
    porep_sizes sz;
    porep_circuit_sizes(&pp, &sz);
    CHECK(sz.n_inputs == c.n_inputs && sz.n_aux == c.n_aux && sz.n_constraints == c.n_constraints);
    porep_counts pc;
    cuzk_error e = {0};
    REQUIRE_MSG(porep_count_parallel(&pc, &pp, 3, &e) == CUZK_OK, "%s", e.msg);
    CHECK(pc.n_inputs == c.n_inputs && pc.n_aux == c.n_aux && pc.n_constraints == c.n_constraints);
    CHECK(pc.a_aux == got[3] && pc.b_aux == got[4] && pc.b_in == 1);
    cs_free(&c);
}

/* CIRCUITS.md section 5: 2 KiB 2,687,921 constraints, 40 inputs; 8 MiB per the model */
TEST(porep_circuit, counts_and_densities_equal_model) {
    uint64_t v;
    REQUIRE(model_lookup("porep", "2k", "constraints", &v));
    CHECK_EQ_INT(v, 2687921);
    REQUIRE(model_lookup("porep", "2k", "inputs", &v));
    CHECK_EQ_INT(v, 40);
    check_model_counts("2k", 2048);
    check_model_counts("8m", 8ull << 20);
}

/* the 32 GiB partition from a CS_DENSITY pass on all threads (CIRCUITS.md section 5): 12 s on two
 * shared cores */
TEST(porep_circuit, counts_32g_partition) {
    if (getenv("CUZK_ASAN") && !getenv("CUZK_TEST_FULL"))
        SKIP("130M-constraint counting pass: slow under the sanitizers (CUZK_TEST_FULL=1 runs it)");
    porep_params pp;
    pp_for(&pp, 32ull << 30);
    porep_sizes sz;
    double t0 = now_ms();
    porep_circuit_sizes(&pp, &sz);
    printf("  32 GiB sizes (layout pass): %.2f s\n", (now_ms() - t0) / 1000);
    CHECK_EQ_INT(sz.n_inputs, 328);
    CHECK_EQ_INT(sz.n_aux, 130169893);
    CHECK_EQ_INT(sz.n_constraints, 130278541);
    porep_counts pc;
    cuzk_error e = {0};
    t0 = now_ms();
    REQUIRE_MSG(porep_count_parallel(&pc, &pp, 0, &e) == CUZK_OK, "%s", e.msg);
    printf("  32 GiB counting pass (densities, all threads): %.1f s\n", (now_ms() - t0) / 1000);
    CHECK_EQ_INT(pc.n_inputs, 328);
    CHECK_EQ_INT(pc.n_aux, 130169893);
    CHECK_EQ_INT(pc.n_constraints, 130278541);
    CHECK_EQ_INT(pc.a_aux, 129753292);
    CHECK_EQ_INT(pc.b_aux, 33112281);
    CHECK_EQ_INT(pc.b_in, 1);
}

static bool r1cs_same(const r1cs *x, const r1cs *y) {
    if (x->n_constraints != y->n_constraints || x->n_vars != y->n_vars || x->n_public != y->n_public) return false;
    const csr_matrix *a[3] = {&x->a, &x->b, &x->c}, *b[3] = {&y->a, &y->b, &y->c};
    for (int k = 0; k < 3; k++) {
        if (a[k]->n_rows != b[k]->n_rows || a[k]->nnz != b[k]->nnz || a[k]->n_coef != b[k]->n_coef) return false;
        if (memcmp(a[k]->row_ptr, b[k]->row_ptr, ((size_t)a[k]->n_rows + 1) * sizeof *a[k]->row_ptr) ||
            memcmp(a[k]->col, b[k]->col, a[k]->nnz * sizeof *a[k]->col) ||
            memcmp(a[k]->coef_id, b[k]->coef_id, a[k]->nnz * sizeof *a[k]->coef_id) ||
            (a[k]->n_coef && memcmp(a[k]->coef, b[k]->coef, a[k]->n_coef * sizeof(fr))))
            return false;
    }
    return true;
}

/* recording in parts on several threads gives one builder's R1CS byte for byte */
TEST(porep_circuit, recorded_in_parts_equals_one_builder) {
    porep_params pp;
    pp_for(&pp, 2048);
    cs c;
    REQUIRE(cs_init(&c, CS_MATRICES) == CUZK_OK);
    REQUIRE_MSG(porep_synthesize(&c, &pp, NULL, 0) == CUZK_OK, "%s", c.err.msg);
    r1cs one;
    REQUIRE(cs_finish_r1cs(&c, &one) == CUZK_OK);
    cs_free(&c);
    CHECK_EQ_INT(one.n_constraints, 2687921);
    CHECK_EQ_INT(one.n_public, 39);
    static const int threads[] = {1, 2, 3, 7};
    for (size_t t = 0; t < sizeof threads / sizeof *threads; t++) {
        r1cs par;
        cuzk_error e = {0};
        REQUIRE_MSG(porep_record_parallel(&par, &pp, threads[t], &e) == CUZK_OK, "%s", e.msg);
        CHECK_MSG(r1cs_same(&one, &par), "2 KiB on %d threads: another R1CS than one builder's", threads[t]);
        r1cs_free(&par);
    }
    r1cs_free(&one);
}

/* ---- witnesses ---- */
/* A C1 for pp (graph: the sector's real labels, the graph's challenges and parents; else random
 * columns): the parallel witness (2 threads) holds the C1's public inputs (and with the graph,
 * porep_public_inputs' values); with one_builder, it equals one builder's witness, which
 * satisfies the recorded R1CS, and a changed column row does not. */
static void check_witness(const porep_params *pp, bool graph, bool one_builder) {
    porep_c1 c1;
    uint64_t parents[POREP_MAX_CHALLENGES][POREP_PARENTS];
    uint8_t (*all)[32] = NULL;
    cuzk_error e = {0};
    if (graph) {
        test_rand_bytes(c1.replica_id, 32);
        c1.replica_id[31] &= 0x3f;
        all = malloc((size_t)pp->layers * pp->nodes * 32);
        REQUIRE(all);
        double t0 = now_ms();
        REQUIRE_MSG(porep_labels_all(all, pp, c1.replica_id, 2, &e) == CUZK_OK, "%s", e.msg);
        printf("  %llu-byte sector: labels %.0f ms\n", (unsigned long long)pp->sector_size, now_ms() - t0);
    }
    fake_c1(&c1, parents, pp, (const uint8_t (*)[32])all);
    free(all);
    porep_sizes sz;
    porep_circuit_sizes(pp, &sz);
    size_t nw = (size_t)(sz.n_inputs + sz.n_aux), npub = (size_t)sz.n_inputs - 1;
    fr *w2 = malloc(nw * sizeof *w2), *want = malloc(npub * sizeof *want);
    REQUIRE(w2 && want);
    double t0 = now_ms();
    REQUIRE_MSG(porep_witness_parallel(w2, nw, pp, &c1, 0, 2, &e) == CUZK_OK, "%s", e.msg);
    printf("  %llu-byte sector: witness (2 threads) %.0f ms\n", (unsigned long long)pp->sector_size, now_ms() - t0);
    expected_inputs(want, &c1, parents);
    CHECK_MSG(!memcmp(want, w2 + 1, npub * sizeof *want), "the witness's inputs are not the C1's public inputs");
    if (graph) {
        REQUIRE_MSG(porep_public_inputs(want, pp, c1.replica_id, c1.comm_d, c1.comm_r, c1.seed, 0, &e) == CUZK_OK, "%s", e.msg);
        CHECK_MSG(!memcmp(want, w2 + 1, npub * sizeof *want), "porep_public_inputs differs from the witness's inputs");
    }
    if (one_builder) {
        cs c;
        REQUIRE(cs_init(&c, CS_MATRICES | CS_WITNESS) == CUZK_OK);
        REQUIRE_MSG(porep_synthesize(&c, pp, &c1, 0) == CUZK_OK, "%s", c.err.msg);
        fr *w;
        size_t n1;
        REQUIRE(cs_witness(&c, &w, &n1) == CUZK_OK);
        CHECK_EQ_INT(n1, nw);
        CHECK_MSG(n1 == nw && !memcmp(w, w2, nw * sizeof *w), "the parallel witness differs from one builder's");
        free(w);
        uint32_t bad;
        char msg[600];
        CHECK_MSG(cs_check_recorded(&c, &bad, msg, sizeof msg), "%s", msg);
        cs_free(&c);
        /* a column row changed: the labels no longer open in tree C; the unit-by-unit check
         * finds the row the whole R1CS's check finds */
        fr one;
        fr_one(&one);
        fr_add(&c1.proofs[1].exp[3].rows[0], &c1.proofs[1].exp[3].rows[0], &one);
        REQUIRE(cs_init(&c, CS_MATRICES | CS_WITNESS) == CUZK_OK);
        REQUIRE(porep_synthesize(&c, pp, &c1, 0) == CUZK_OK);
        CHECK(!cs_check_recorded(&c, &bad, msg, sizeof msg));
        cs_free(&c);
        REQUIRE_MSG(porep_witness_parallel(w2, nw, pp, &c1, 0, 2, &e) == CUZK_OK, "%s", e.msg);
        uint64_t bad2;
        CHECK(porep_check_witness_parallel(w2, nw, pp, 3, &bad2, &e) == CUZK_ERR_UNSAT);
        CHECK_MSG(bad2 == bad, "unit check: row %llu, whole R1CS: row %u", (unsigned long long)bad2, bad);
    } else {
        uint64_t bad;
        CHECK_MSG(porep_check_witness_parallel(w2, nw, pp, 2, &bad, &e) == CUZK_OK, "%s", e.msg);
    }
    free(w2);
    free(want);
    free(c1.proofs);
}

TEST(porep_circuit, witness_satisfies_2k) {
    porep_params pp;
    pp_for(&pp, 2048);
    check_witness(&pp, false, false);
    cuzk_error e = {0};
    static const uint64_t ids[] = {0, 5};   /* 2 KiB V1 and V1_1 (interactive challenges) */
    for (size_t i = 0; i < 2; i++) {
        REQUIRE_MSG(porep_params_from_proof(&pp, ids[i], &e) == CUZK_OK, "%s", e.msg);
        check_witness(&pp, true, i == 1);
    }
}

/* A C1 output from porep_seal / porep_c1_sparse, partition k: the parallel witness holds
 * porep_public_inputs' values from the public data alone; with one_builder it equals one
 * builder's witness, which satisfies the recorded R1CS; else (large sizes) it is checked unit by
 * unit. */
static void check_c1(const porep_c1 *c1, uint32_t k, bool one_builder, const char *what) {
    const porep_params *pp = &c1->pp;
    porep_sizes sz;
    porep_circuit_sizes(pp, &sz);
    size_t nw = (size_t)(sz.n_inputs + sz.n_aux), npub = (size_t)sz.n_inputs - 1;
    fr *w = malloc(nw * sizeof *w), *pub = malloc(npub * sizeof *pub);
    REQUIRE(w && pub);
    cuzk_error e = {0};
    double t0 = now_ms();
    REQUIRE_MSG(porep_witness_parallel(w, nw, pp, c1, k, 0, &e) == CUZK_OK, "%s: %s", what, e.msg);
    printf("  %s partition %u: witness (all threads) %.0f ms\n", what, k, now_ms() - t0);
    REQUIRE_MSG(porep_public_inputs(pub, pp, c1->replica_id, c1->comm_d, c1->comm_r, c1->seed, k, &e) == CUZK_OK, "%s", e.msg);
    CHECK_MSG(!memcmp(pub, w + 1, npub * sizeof *pub), "%s partition %u: porep_public_inputs differs from the witness's inputs", what, k);
    if (one_builder) {
        cs c;
        REQUIRE(cs_init(&c, CS_MATRICES | CS_WITNESS) == CUZK_OK);
        REQUIRE_MSG(porep_synthesize(&c, pp, c1, k) == CUZK_OK, "%s", c.err.msg);
        fr *w1;
        size_t n1;
        REQUIRE(cs_witness(&c, &w1, &n1) == CUZK_OK);
        CHECK_MSG(n1 == nw && !memcmp(w1, w, nw * sizeof *w), "%s: the parallel witness differs from one builder's", what);
        free(w1);
        uint32_t bad;
        char msg[600];
        CHECK_MSG(cs_check_recorded(&c, &bad, msg, sizeof msg), "%s: %s", what, msg);
        cs_free(&c);
    } else {
        uint64_t bad;
        t0 = now_ms();
        CHECK_MSG(porep_check_witness_parallel(w, nw, pp, 0, &bad, &e) == CUZK_OK, "%s: %s", what, e.msg);
        printf("  %s partition %u: checked unit by unit (all threads) %.1f s\n", what, k, (now_ms() - t0) / 1000);
    }
    free(w);
    free(pub);
}

/* sealed 2 KiB sectors (porep_seal, porep_c1_from_sector): V1, V1_1 and V1_1 + Synthetic PoRep */
TEST(porep_circuit, sealed_2k_sectors_satisfy) {
    static const uint64_t ids[] = {0, 5, 10};
    for (size_t i = 0; i < 3; i++) {
        porep_params pp;
        cuzk_error e = {0};
        REQUIRE(porep_params_from_proof(&pp, ids[i], &e) == CUZK_OK);
        uint8_t *data = malloc(pp.sector_size), prover[32], ticket[32], seed[32];
        REQUIRE(data);
        test_rand_bytes(data, pp.sector_size);
        for (uint64_t v = 0; v < pp.nodes; v++) data[32 * v + 31] &= 0x3f;
        porep_prover_id(prover, 1000 + i);
        test_rand_bytes(ticket, 32);
        test_rand_bytes(seed, 32);
        porep_sector s;
        REQUIRE_MSG(porep_seal(&s, &pp, data, prover, 7 + i, ticket, 2, &e) == CUZK_OK, "%s", e.msg);
        porep_c1 c1;
        REQUIRE_MSG(porep_c1_from_sector(&c1, &s, seed, 2, &e) == CUZK_OK, "%s", e.msg);
        char what[64];
        snprintf(what, sizeof what, "sealed 2 KiB (proof %llu)", (unsigned long long)ids[i]);
        check_c1(&c1, 0, i != 1, what);   /* V1_1 checked unit by unit, the others on one builder */
        free(c1.proofs);
        porep_sector_free(&s);
        free(data);
    }
}

/* a sparse 8 MiB C1 (porep_c1_sparse): 3.8M constraints satisfied on one builder */
TEST(porep_circuit, sparse_8m_c1_satisfies) {
    porep_params pp;
    cuzk_error e = {0};
    REQUIRE(porep_params_from_proof(&pp, 6, &e) == CUZK_OK);
    uint8_t prover[32], ticket[32], seed[32], salt[32];
    porep_prover_id(prover, 1234);
    test_rand_bytes(ticket, 32);
    test_rand_bytes(seed, 32);
    test_rand_bytes(salt, 32);
    porep_c1 c1;
    REQUIRE_MSG(porep_c1_sparse(&c1, &pp, prover, 42, ticket, seed, salt, 2, &e) == CUZK_OK, "%s", e.msg);
    check_c1(&c1, 0, true, "sparse 8 MiB");
    free(c1.proofs);
}

/* 32 GiB and 64 GiB sparse C1s: partitions 0 and 9 witnessed on all threads, checked unit by unit
 * (4.2 GB witness each; on two busy shared cores: witness 7-14 s, checks 48 s and 94 s) */
TEST(porep_circuit, sparse_32g_64g_c1_satisfy) {
    if (!getenv("CUZK_TEST_LONG")) SKIP("130M-value witnesses, 4.2 GB, minutes of checking (CUZK_TEST_LONG=1 runs it)");
    static const uint64_t ids[] = {8, 9};
    for (size_t i = 0; i < 2; i++) {
        porep_params pp;
        cuzk_error e = {0};
        REQUIRE(porep_params_from_proof(&pp, ids[i], &e) == CUZK_OK);
        uint8_t prover[32], ticket[32], seed[32], salt[32];
        porep_prover_id(prover, 1000);
        test_rand_bytes(ticket, 32);
        test_rand_bytes(seed, 32);
        test_rand_bytes(salt, 32);
        porep_c1 c1;
        REQUIRE_MSG(porep_c1_sparse(&c1, &pp, prover, 1, ticket, seed, salt, 0, &e) == CUZK_OK, "%s", e.msg);
        check_c1(&c1, i ? 9 : 0, false, i ? "sparse 64 GiB" : "sparse 32 GiB");
        free(c1.proofs);
    }
}

/* the graph's parameters have the shapes the counts were checked for */
TEST(porep_circuit, graph_params_have_the_circuit_shapes) {
    static const uint64_t sizes[] = {2048, 8ull << 20, 512ull << 20, 32ull << 30, 64ull << 30};
    for (uint64_t id = 0; id < 15; id++) {
        porep_params a, b;
        cuzk_error e = {0};
        REQUIRE_MSG(porep_params_from_proof(&a, id, &e) == CUZK_OK, "%s", e.msg);
        pp_for(&b, sizes[id % 5]);
        CHECK_MSG(a.sector_size == b.sector_size && a.nodes == b.nodes && a.layers == b.layers && a.challenges == b.challenges &&
                      a.d_levels == b.d_levels && a.partitions == b.partitions && !memcmp(&a.shape, &b.shape, sizeof a.shape),
                  "proof %llu: another shape", (unsigned long long)id);
        CHECK(porep_circuit_check(&a, &e) == CUZK_OK);
    }
}

/* bad parameters and C1 outputs: refused with CUZK_ERR_ARG naming the problem, nothing crashes */
TEST(porep_circuit, bad_input_refused) {
    porep_params pp, bad;
    pp_for(&pp, 2048);
    cuzk_error e = {0};
    bad = pp; bad.layers = 3;
    CHECK(porep_circuit_check(&bad, &e) == CUZK_ERR_ARG && strstr(e.msg, "layers"));
    bad = pp; bad.challenges = 0;
    CHECK(porep_circuit_check(&bad, &e) == CUZK_ERR_ARG && strstr(e.msg, "challenges"));
    bad = pp; bad.nodes = 96;
    CHECK(porep_circuit_check(&bad, &e) == CUZK_ERR_ARG);
    bad = pp; bad.shape.base_levels = 3;
    CHECK(porep_circuit_check(&bad, &e) == CUZK_ERR_ARG && strstr(e.msg, "shape"));
    porep_sizes sz;
    porep_circuit_sizes(&bad, &sz);
    CHECK(sz.n_inputs == 0 && sz.n_aux == 0 && sz.n_constraints == 0);
    r1cs r;
    CHECK(porep_record_parallel(&r, &bad, 2, &e) == CUZK_ERR_ARG && r.n_constraints == 0);
    porep_counts pc;
    CHECK(porep_count_parallel(&pc, &bad, 2, &e) == CUZK_ERR_ARG);
    cs c;
    REQUIRE(cs_init(&c, 0) == CUZK_OK);
    CHECK(porep_synthesize(&c, &bad, NULL, 0) == CUZK_ERR_ARG && c.status == CUZK_ERR_ARG);
    cs_free(&c);

    porep_c1 c1;
    uint64_t parents[POREP_MAX_CHALLENGES][POREP_PARENTS];
    fake_c1(&c1, parents, &pp, NULL);
    porep_circuit_sizes(&pp, &sz);
    size_t nw = (size_t)(sz.n_inputs + sz.n_aux);
    fr *w = malloc(nw * sizeof *w), pub[39];
    REQUIRE(w);
    CHECK(porep_witness_parallel(w, nw - 1, &pp, &c1, 0, 2, &e) == CUZK_ERR_ARG && strstr(e.msg, "values"));
    CHECK(porep_witness_parallel(w, nw, &pp, NULL, 0, 2, &e) == CUZK_ERR_ARG);
    CHECK(porep_witness_parallel(w, nw, &pp, &c1, 1, 2, &e) == CUZK_ERR_ARG && strstr(e.msg, "partition"));
    REQUIRE(cs_init(&c, 0) == CUZK_OK);
    CHECK(porep_synthesize(&c, &pp, &c1, 1) == CUZK_ERR_ARG);
    cs_free(&c);
    c1.n_challenges = 1;
    CHECK(porep_witness_parallel(w, nw, &pp, &c1, 0, 2, &e) == CUZK_ERR_ARG && strstr(e.msg, "challenges"));
    c1.n_challenges = 2;
    uint8_t keep[32];
    memcpy(keep, c1.replica_id, 32);
    memset(c1.replica_id, 0xff, 32);
    CHECK(porep_witness_parallel(w, nw, &pp, &c1, 0, 2, &e) == CUZK_ERR_ARG && strstr(e.msg, "replica_id"));
    REQUIRE(cs_init(&c, 0) == CUZK_OK);
    CHECK(porep_synthesize(&c, &pp, &c1, 0) == CUZK_ERR_ARG);
    cs_free(&c);
    memcpy(c1.replica_id, keep, 32);
    uint64_t row;
    CHECK(porep_check_witness_parallel(w, nw + 1, &pp, 2, &row, &e) == CUZK_ERR_ARG);

    /* public inputs: a value that is not a canonical Fr, a partition past the last */
    porep_params ppg;
    REQUIRE(porep_params_from_proof(&ppg, 5, &e) == CUZK_OK);
    uint8_t big[32];
    memset(big, 0xff, 32);
    CHECK(porep_public_inputs(pub, &ppg, c1.replica_id, c1.comm_d, big, c1.seed, 0, &e) == CUZK_ERR_ARG && strstr(e.msg, "comm_r"));
    CHECK(porep_public_inputs(pub, &ppg, c1.replica_id, big, c1.comm_r, c1.seed, 0, &e) == CUZK_ERR_ARG && strstr(e.msg, "comm_d"));
    CHECK(porep_public_inputs(pub, &ppg, c1.replica_id, c1.comm_d, c1.comm_r, c1.seed, 1, &e) == CUZK_ERR_ARG);
    CHECK(porep_public_inputs(pub, &ppg, c1.replica_id, c1.comm_d, c1.comm_r, c1.seed, 0, &e) == CUZK_OK);
    free(w);
    free(c1.proofs);
}

/* the witness's speed (CUZK_TEST_BENCH=1): 8 MiB, one thread, a few runs */
TEST(porep_circuit, bench_witness_8m) {
    if (!getenv("CUZK_TEST_BENCH")) SKIP("benchmark (CUZK_TEST_BENCH=1 runs it)");
    porep_params pp;
    pp_for(&pp, 8ull << 20);
    porep_c1 c1;
    uint64_t parents[POREP_MAX_CHALLENGES][POREP_PARENTS];
    fake_c1(&c1, parents, &pp, NULL);
    porep_sizes sz;
    porep_circuit_sizes(&pp, &sz);
    size_t nw = (size_t)(sz.n_inputs + sz.n_aux);
    fr *w = malloc(nw * sizeof *w);
    REQUIRE(w);
    memset(w, 0, nw * sizeof *w);
    cuzk_error e = {0};
    for (int it = 0; it < 5; it++) {
        double t0 = now_ms();
        REQUIRE_MSG(porep_witness_parallel(w, nw, &pp, &c1, 0, 1, &e) == CUZK_OK, "%s", e.msg);
        double ms = now_ms() - t0;
        printf("  8 MiB witness, one thread: %.0f ms (%.1f ns per aux)\n", ms, ms * 1e6 / (double)sz.n_aux);
    }
    free(w);
    free(c1.proofs);
}
