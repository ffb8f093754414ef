/* SnapDeals parameters, challenges, randomness, partition proofs and their checks (snap.h). */
#include "filecoin/snap.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "filecoin/bincode.h"
#include "filecoin/porep.h"
#include "gadgets/poseidon.h"
#include "util/base64.h"
#include "util/log.h"

/* ---- parameters ------------------------------------------------------------------------------ */

static const struct {
    int log2_nodes;
    int sub, top;           /* tree R shape: base 8, then these (validate_tree_r_shape) */
    uint64_t registered;    /* RegisteredUpdateProof, UINT64_MAX for test sizes */
    const char *name;
} g_sizes[] = {
    {5, 4, 0, UINT64_MAX, "1k"},  {6, 0, 0, 0, "2k"},          {7, 2, 0, UINT64_MAX, "4k"},
    {8, 4, 0, UINT64_MAX, "8k"},  {9, 8, 0, UINT64_MAX, "16k"}, {10, 8, 2, UINT64_MAX, "32k"},
    {18, 0, 0, 1, "8m"},          {19, 2, 0, UINT64_MAX, "16m"}, {24, 0, 0, 2, "512m"},
    {30, 8, 0, 3, "32g"},         {31, 8, 2, 4, "64g"},
};
#define N_SIZES (sizeof g_sizes / sizeof g_sizes[0])

static int ilog2(uint64_t v) { int k = 0; while (v > 1) { v >>= 1; k++; } return k; }

static void derive(snap_params *sp) {
    sp->h = sp->hs[sp->h_index];
    sp->bits_per_challenge = sp->challenge_bit_len - sp->partition_bit_len;
    sp->challenges_per_digest = 254 / sp->bits_per_challenge;
    sp->digests = (sp->challenges + sp->challenges_per_digest - 1) / sp->challenges_per_digest;
}

cuzk_status snap_params_init(snap_params *out, uint64_t sector_size, cuzk_error *err) {
    memset(out, 0, sizeof *out);
    for (size_t i = 0; i < N_SIZES; i++) {
        uint64_t nodes = 1ull << g_sizes[i].log2_nodes;
        if (nodes * 32 != sector_size) continue;
        out->registered_proof = g_sizes[i].registered;
        out->sector_size = sector_size;
        out->nodes = nodes;
        out->challenge_bit_len = g_sizes[i].log2_nodes;
        out->partitions = nodes <= (1u << 8) ? 1 : nodes <= (1u << 10) ? 2 : nodes <= (1u << 19) ? 4 : 16;
        out->partition_bit_len = ilog2((uint64_t)out->partitions);
        out->challenges = nodes <= (1u << 19) ? 10 : 86;
        out->apex_leaves = nodes <= (1u << 8) ? 8 : 128;
        out->apex_bit_len = ilog2((uint64_t)out->apex_leaves);
        for (int j = 0; j < SNAP_HS; j++) out->hs[j] = nodes <= (1u << 10) ? 1 : 7 + j;
        /* h = h_default = hs[3]; h_select is the bit of its FIRST position in hs (circuit.rs
         * PublicInputs::new): 3 for [7..12], 0 for [1; 6] */
        out->h_index = 3;
        while (out->h_index > 0 && out->hs[out->h_index - 1] == out->hs[3]) out->h_index--;
        int rest = out->challenge_bit_len - ilog2((uint64_t)(g_sizes[i].sub ? g_sizes[i].sub : 1)) -
                   ilog2((uint64_t)(g_sizes[i].top ? g_sizes[i].top : 1));
        out->shape = (merkle_shape){8, rest / 3, g_sizes[i].sub, g_sizes[i].top};
        derive(out);
        return CUZK_OK;
    }
    return ERR(err, CUZK_ERR_ARG,
               "SnapDeals: no EmptySectorUpdate circuit for sectors of %llu bytes (1, 2, 4, 8, 16, 32 KiB, 8, 16, 512 MiB, "
               "32, 64 GiB)", (unsigned long long)sector_size);
}

cuzk_status snap_params_from_proof(snap_params *out, uint64_t registered_proof, cuzk_error *err) {
    for (size_t i = 0; i < N_SIZES; i++)
        if (g_sizes[i].registered == registered_proof && registered_proof != UINT64_MAX)
            return snap_params_init(out, 32ull << g_sizes[i].log2_nodes, err);
    memset(out, 0, sizeof *out);
    return ERR(err, CUZK_ERR_ARG,
               "SnapDeals: RegisteredUpdateProof %llu is not one of 0..4 (StackedDrg2KiBV1, 8MiB, 512MiB, 32GiB, 64GiB)",
               (unsigned long long)registered_proof);
}

cuzk_status snap_params_from_name(snap_params *out, const char *name, cuzk_error *err) {
    if (name && !strncmp(name, "snap-", 5))
        for (size_t i = 0; i < N_SIZES; i++)
            if (!strcmp(name + 5, g_sizes[i].name)) return snap_params_init(out, 32ull << g_sizes[i].log2_nodes, err);
    memset(out, 0, sizeof *out);
    return ERR(err, CUZK_ERR_ARG, "SnapDeals: unknown circuit name '%.64s' (snap-2k, snap-8m, snap-512m, snap-32g, snap-64g)",
               name ? name : "(null)");
}

cuzk_status snap_params_set_h_index(snap_params *sp, int h_index, cuzk_error *err) {
    if (h_index < 0 || h_index >= SNAP_HS) return ERR(err, CUZK_ERR_ARG, "SnapDeals: h_select index %d (0..5)", h_index);
    sp->h_index = h_index;
    derive(sp);
    return CUZK_OK;
}

uint64_t snap_k_and_h_select(const snap_params *sp, uint32_t k) {
    return (uint64_t)k | ((uint64_t)1 << sp->h_index) << sp->partition_bit_len;
}

/* ---- randomness and challenges ------------------------------------------------------------------ */

void snap_tag(fr *out) { fr_from_u64(out, 1ull << 40); }

static void hash_tag(fr *out, const fr *a, const fr *b) {
    fr in[2] = {*a, *b}, tag;
    snap_tag(&tag);
    poseidon_hash_tag(out, in, 2, &tag);
}

void snap_phi(fr *out, const fr *comm_d_new, const fr *comm_r_old) { hash_tag(out, comm_d_new, comm_r_old); }

void snap_rho(fr *out, const fr *phi, uint32_t high) {
    fr h;
    fr_from_u64(&h, high);
    hash_tag(out, phi, &h);
}

cuzk_status snap_challenges(uint32_t *out, const snap_params *sp, const uint8_t comm_r_new[32], uint32_t k,
                            cuzk_error *err) {
    if (k >= (uint32_t)sp->partitions)
        return ERR(err, CUZK_ERR_ARG, "SnapDeals challenges: partition %u of %d", k, sp->partitions);
    fr crn;
    if (!fr_from_bytes_le(&crn, comm_r_new, 32)) return ERR(err, CUZK_ERR_ARG, "SnapDeals challenges: comm_r_new is not a canonical Fr");
    int b = sp->bits_per_challenge, q = sp->challenges_per_digest;
    uint64_t digest_index = (uint64_t)k * (uint64_t)sp->digests;
    uint64_t bits[4] = {0};
    for (int i = 0, j = 0; i < sp->challenges; i++) {
        if (j == 0) {
            fr di, d;
            fr_from_u64(&di, digest_index);
            hash_tag(&d, &crn, &di);
            fr_to_canon(bits, &d);
        }
        uint64_t c = 0;
        for (int t = 0; t < b; t++) {
            int bit = j * b + t;
            c |= ((bits[bit / 64] >> (bit % 64)) & 1) << t;
        }
        out[i] = (uint32_t)(c | (uint64_t)k << b);
        if (++j == q) { j = 0; digest_index++; }
    }
    return CUZK_OK;
}

/* ---- partition proofs: bincode ------------------------------------------------------------------ */

void snap_partition_proof_free(snap_partition_proof *p) {
    if (!p) return;
    free(p->proofs);
    memset(p, 0, sizeof *p);
}

static merkle_shape tree_d_shape(const snap_params *sp) { return (merkle_shape){2, sp->challenge_bit_len, 0, 0}; }

cuzk_status snap_partition_proof_read(snap_partition_proof *out, const snap_params *sp, const uint8_t *data, size_t n,
                                      cuzk_error *err) {
    if (!out || !sp || (!data && n)) return ERR(err, CUZK_ERR_ARG, "SnapDeals partition proof: NULL argument");
    memset(out, 0, sizeof *out);
    /* storage-proofs-update vanilla.rs PartitionProof {comm_c, apex_leafs, challenge_proofs} */
    bincode_reader r;
    bincode_init(&r, data, n, "SnapDeals partition proof: ", err);
    bincode_fr(&r, &out->comm_c, "comm_c");
    bincode_u64_eq(&r, (uint64_t)sp->apex_leaves, "apex_leafs count");
    for (int i = 0; i < sp->apex_leaves; i++) bincode_fr(&r, &out->apex_leafs[i], "apex leaf");
    bincode_u64_eq(&r, (uint64_t)sp->challenges, "challenge_proofs count");
    if (!bincode_ok(&r)) return r.st;
    out->proofs = calloc((size_t)sp->challenges, sizeof *out->proofs);
    if (!out->proofs) return ERR(err, CUZK_ERR_NOMEM, "SnapDeals partition proof: out of memory");
    out->n_challenges = (uint32_t)sp->challenges;
    merkle_shape d = tree_d_shape(sp);
    r.unit = "challenge";
    for (int c = 0; c < sp->challenges && bincode_ok(&r); c++) {
        snap_challenge_proof *q = &out->proofs[c];
        r.index = c;
        r.section = "proof_r_old";
        bincode_merkle_proof(&r, &sp->shape, &q->path_r_old, &q->leaf_r_old, &q->root_r_old);
        r.section = "proof_d_new";
        bincode_merkle_proof(&r, &d, &q->path_d_new, &q->leaf_d_new, &q->root_d_new);
        r.section = "proof_r_new";
        bincode_merkle_proof(&r, &sp->shape, &q->path_r_new, &q->leaf_r_new, &q->root_r_new);
    }
    r.index = -1;
    r.section = NULL;
    if (!bincode_end(&r)) snap_partition_proof_free(out);
    return r.st;
}

typedef struct wr { uint8_t *p; size_t n, cap; bool oom; } wr;
static void w_bytes(wr *w, const void *b, size_t k) {
    if (w->oom) return;
    if (w->n + k > w->cap) {
        size_t cap = w->cap ? w->cap : 4096;
        while (cap < w->n + k) cap *= 2;
        uint8_t *q = realloc(w->p, cap);
        if (!q) { w->oom = true; return; }
        w->p = q;
        w->cap = cap;
    }
    memcpy(w->p + w->n, b, k);
    w->n += k;
}
static void w_u64(wr *w, uint64_t v) {
    uint8_t b[8];
    for (int i = 0; i < 8; i++) b[i] = (uint8_t)(v >> (8 * i));
    w_bytes(w, b, 8);
}
static void w_u32(wr *w, uint32_t v) {
    uint8_t b[4];
    for (int i = 0; i < 4; i++) b[i] = (uint8_t)(v >> (8 * i));
    w_bytes(w, b, 4);
}
static void w_fr(wr *w, const fr *a) {
    uint8_t b[32];
    fr_to_bytes_le(b, 32, a);
    w_bytes(w, b, 32);
}
static void w_path(wr *w, const merkle_path *p, int first, int levels, int arity) {
    w_u64(w, (uint64_t)levels);
    for (int l = 0; l < levels; l++) {
        w_u64(w, (uint64_t)arity - 1);
        for (int s = 0; s < arity - 1; s++) w_fr(w, &p->siblings[first + l][s]);
        w_u64(w, p->index[first + l]);
    }
}
static void w_merkle(wr *w, const merkle_shape *sh, const merkle_path *p, const fr *leaf, const fr *root) {
    uint32_t variant = sh->top_arity ? 2 : sh->sub_arity ? 1 : 0;
    w_u32(w, variant);
    if (variant == 0) {
        w_fr(w, root);
        w_fr(w, leaf);
        w_path(w, p, 0, sh->base_levels, sh->base_arity);
        return;
    }
    w_path(w, p, 0, sh->base_levels, sh->base_arity);
    w_path(w, p, sh->base_levels, 1, sh->sub_arity);
    if (variant == 2) w_path(w, p, sh->base_levels + 1, 1, sh->top_arity);
    w_fr(w, root);
    w_fr(w, leaf);
}

cuzk_status snap_partition_proof_write(const snap_partition_proof *p, const snap_params *sp, uint8_t **out, size_t *len,
                                       cuzk_error *err) {
    if (!p || !sp || !out || !len) return ERR(err, CUZK_ERR_ARG, "SnapDeals partition proof write: NULL argument");
    *out = NULL;
    *len = 0;
    if (p->n_challenges != (uint32_t)sp->challenges || !p->proofs)
        return ERR(err, CUZK_ERR_ARG, "SnapDeals partition proof write: %u challenge proofs, %d for this sector size",
                   p->n_challenges, sp->challenges);
    wr w = {0};
    w_fr(&w, &p->comm_c);
    w_u64(&w, (uint64_t)sp->apex_leaves);
    for (int i = 0; i < sp->apex_leaves; i++) w_fr(&w, &p->apex_leafs[i]);
    w_u64(&w, (uint64_t)sp->challenges);
    merkle_shape d = tree_d_shape(sp);
    for (int c = 0; c < sp->challenges; c++) {
        const snap_challenge_proof *q = &p->proofs[c];
        w_merkle(&w, &sp->shape, &q->path_r_old, &q->leaf_r_old, &q->root_r_old);
        w_merkle(&w, &d, &q->path_d_new, &q->leaf_d_new, &q->root_d_new);
        w_merkle(&w, &sp->shape, &q->path_r_new, &q->leaf_r_new, &q->root_r_new);
    }
    if (w.oom) {
        free(w.p);
        return ERR(err, CUZK_ERR_NOMEM, "SnapDeals partition proof write: out of memory");
    }
    *out = w.p;
    *len = w.n;
    return CUZK_OK;
}

/* ---- Curio's file: a JSON array of base64 strings --------------------------------------------- */

void snap_blobs_free(snap_blob *parts, size_t n) {
    if (!parts) return;
    for (size_t i = 0; i < n; i++) free(parts[i].data);
    free(parts);
}

static size_t skip_ws(const uint8_t *s, size_t n, size_t i) {
    while (i < n && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r')) i++;
    return i;
}

cuzk_status snap_vproofs_json_split(snap_blob **parts, size_t *n_parts, size_t max_parts, const uint8_t *json, size_t n,
                                    cuzk_error *err) {
    if (!parts || !n_parts || (!json && n)) return ERR(err, CUZK_ERR_ARG, "SnapDeals vanilla proofs: NULL argument");
    *parts = NULL;
    *n_parts = 0;
    snap_blob *v = calloc(max_parts ? max_parts : 1, sizeof *v);
    if (!v) return ERR(err, CUZK_ERR_NOMEM, "SnapDeals vanilla proofs: out of memory");
    size_t i = skip_ws(json, n, 0), k = 0;
    cuzk_status st = CUZK_OK;
    if (i >= n || json[i] != '[') {
        st = ERR(err, CUZK_ERR_FORMAT, "SnapDeals vanilla proofs: not a JSON array of base64 strings (byte %zu)", i);
        goto out;
    }
    i = skip_ws(json, n, i + 1);
    if (i < n && json[i] == ']') {
        i++;
    } else {
        for (;;) {
            if (i >= n || json[i] != '"') {
                st = ERR(err, CUZK_ERR_FORMAT, "SnapDeals vanilla proofs: a base64 string expected at byte %zu", i);
                goto out;
            }
            size_t s0 = ++i;
            while (i < n && json[i] != '"') {
                if (json[i] == '\\') i++;
                i++;
            }
            if (i >= n) {
                st = ERR(err, CUZK_ERR_FORMAT, "SnapDeals vanilla proofs: unterminated string at byte %zu", s0 - 1);
                goto out;
            }
            if (k == max_parts) {
                st = ERR(err, CUZK_ERR_FORMAT, "SnapDeals vanilla proofs: more than %zu partition proofs", max_parts);
                goto out;
            }
            size_t bad = 0, len = 0, cap = base64_decoded_max(i - s0);
            v[k].data = malloc(cap + 1);
            if (!v[k].data) { st = ERR(err, CUZK_ERR_NOMEM, "SnapDeals vanilla proofs: out of memory"); goto out; }
            if (!base64_decode(v[k].data, cap, &len, (const char *)json + s0, i - s0, BASE64_JSON_SLASH, &bad)) {
                char why[64];
                base64_describe(why, sizeof why, (const char *)json + s0, i - s0, bad);
                st = ERR(err, CUZK_ERR_FORMAT, "SnapDeals vanilla proofs: partition %zu: not base64: %s of the string at byte %zu", k,
                         why, s0);
                k++;
                goto out;
            }
            v[k++].len = len;
            i = skip_ws(json, n, i + 1);
            if (i < n && json[i] == ',') { i = skip_ws(json, n, i + 1); continue; }
            if (i < n && json[i] == ']') { i++; break; }
            st = ERR(err, CUZK_ERR_FORMAT, "SnapDeals vanilla proofs: ',' or ']' expected at byte %zu", i);
            goto out;
        }
    }
    i = skip_ws(json, n, i);
    if (i != n) st = ERR(err, CUZK_ERR_FORMAT, "SnapDeals vanilla proofs: trailing characters at byte %zu", i);
out:
    if (st != CUZK_OK) {
        snap_blobs_free(v, k);
        return st;
    }
    *parts = v;
    *n_parts = k;
    return CUZK_OK;
}

cuzk_status snap_vproofs_json_join(uint8_t **out, size_t *len, const snap_blob *parts, size_t n, cuzk_error *err) {
    if (!out || !len || (!parts && n)) return ERR(err, CUZK_ERR_ARG, "SnapDeals vanilla proofs: NULL argument");
    size_t cap = 3;
    for (size_t i = 0; i < n; i++) cap += base64_encoded_len(parts[i].len) + 3;
    uint8_t *s = malloc(cap), *o = s;
    if (!s) return ERR(err, CUZK_ERR_NOMEM, "SnapDeals vanilla proofs: out of memory");
    *o++ = '[';
    for (size_t i = 0; i < n; i++) {
        if (i) *o++ = ',';
        *o++ = '"';
        base64_encode((char *)o, parts[i].data, parts[i].len);
        o += base64_encoded_len(parts[i].len);
        *o++ = '"';
    }
    *o++ = ']';
    *o = 0;
    *out = s;
    *len = (size_t)(o - s);
    return CUZK_OK;
}

/* ---- checks ------------------------------------------------------------------------------------- */

static void fr_bytes(uint8_t b[32], const fr *a) { fr_to_bytes_le(b, 32, a); }

/* tree D: the node at height `upto` of the path from leaf (height 0 = the leaf) */
static void tree_d_node(uint8_t out[32], const merkle_path *p, const fr *leaf, int upto) {
    uint8_t cur[32], sib[32];
    fr_bytes(cur, leaf);
    for (int l = 0; l < upto; l++) {
        fr_bytes(sib, &p->siblings[l][0]);
        if (p->index[l]) porep_sha256_node(cur, sib, cur);
        else porep_sha256_node(cur, cur, sib);
    }
    memcpy(out, cur, 32);
}

static bool same_level(const merkle_path *a, const merkle_path *b, int l) {
    return a->index[l] == b->index[l] && fr_eq(&a->siblings[l][0], &b->siblings[l][0]);
}

#define INVALID(...) ERR(err, CUZK_ERR_INVALID, __VA_ARGS__)

cuzk_status snap_partition_check(const snap_params *sp, const snap_partition_proof *p, uint32_t k, const snap_public *pub,
                                 cuzk_error *err) {
    if (!sp || !p || !pub) return ERR(err, CUZK_ERR_ARG, "SnapDeals check: NULL argument");
    if (k >= (uint32_t)sp->partitions) return ERR(err, CUZK_ERR_ARG, "SnapDeals check: partition %u of %d", k, sp->partitions);
    fr comm_r_old, comm_d_new, comm_r_new;
    if (!fr_from_bytes_le(&comm_r_old, pub->comm_r_old, 32)) return ERR(err, CUZK_ERR_ARG, "SnapDeals check: comm_r_old is not a canonical Fr");
    if (!fr_from_bytes_le(&comm_d_new, pub->comm_d_new, 32)) return ERR(err, CUZK_ERR_ARG, "SnapDeals check: comm_d_new is not a canonical Fr");
    if (!fr_from_bytes_le(&comm_r_new, pub->comm_r_new, 32)) return ERR(err, CUZK_ERR_ARG, "SnapDeals check: comm_r_new is not a canonical Fr");
    if (p->n_challenges != (uint32_t)sp->challenges || !p->proofs)
        return INVALID("partition %u: %u challenge proofs, %d for this sector size", k, p->n_challenges, sp->challenges);
    const snap_challenge_proof *p0 = &p->proofs[0];
    fr calc, in[2];
    in[0] = p->comm_c;
    in[1] = p0->root_r_old;
    poseidon_hash(&calc, in, 2);
    if (!fr_eq(&calc, &comm_r_old))
        return INVALID("partition %u: comm_r_old is not Poseidon(comm_c, root of challenge 0's proof_r_old)", k);
    in[1] = p0->root_r_new;
    poseidon_hash(&calc, in, 2);
    if (!fr_eq(&calc, &comm_r_new))
        return INVALID("partition %u: comm_r_new is not Poseidon(comm_c, root of challenge 0's proof_r_new)", k);

    uint32_t ch[SNAP_MAX_CHALLENGES];
    cuzk_status st = snap_challenges(ch, sp, pub->comm_r_new, k, err);
    if (st != CUZK_OK) return st;
    fr phi;
    snap_phi(&phi, &comm_d_new, &comm_r_old);

    /* the apex tree: leaves, then each row up to the partition's apex root */
    int A = sp->apex_leaves, cbl = sp->challenge_bit_len, pbl = sp->partition_bit_len, abl = sp->apex_bit_len;
    uint8_t row[SNAP_MAX_APEX][32];
    for (int i = 0; i < A; i++) fr_bytes(row[i], &p->apex_leafs[i]);
    for (int w = A; w > 1; w /= 2)
        for (int i = 0; i < w / 2; i++) porep_sha256_node(row[i], row[2 * i], row[2 * i + 1]);
    const uint8_t *apex_root = row[0];
    int apex_height = cbl - pbl - abl;   /* the apex leaves' row in tree D */
    merkle_shape dsh = tree_d_shape(sp);

    for (int c = 0; c < sp->challenges; c++) {
        const snap_challenge_proof *q = &p->proofs[c];
        uint64_t node = ch[c];
        /* the same roots everywhere */
        if (!fr_eq(&q->root_r_old, &p0->root_r_old))
            return INVALID("partition %u challenge %d: proof_r_old: root differs from challenge 0's", k, c);
        if (!fr_eq(&q->root_r_new, &p0->root_r_new))
            return INVALID("partition %u challenge %d: proof_r_new: root differs from challenge 0's", k, c);
        if (!fr_eq(&q->root_d_new, &comm_d_new))
            return INVALID("partition %u challenge %d: proof_d_new: root is not comm_d_new", k, c);
        /* the paths open the challenge */
        uint64_t io = merkle_path_leaf_index(&sp->shape, &q->path_r_old), id = merkle_path_leaf_index(&dsh, &q->path_d_new),
                 in_ = merkle_path_leaf_index(&sp->shape, &q->path_r_new);
        if (io != node)
            return INVALID("partition %u challenge %d: proof_r_old opens node %llu, the challenge is node %llu", k, c,
                           (unsigned long long)io, (unsigned long long)node);
        if (id != node)
            return INVALID("partition %u challenge %d: proof_d_new opens node %llu, the challenge is node %llu", k, c,
                           (unsigned long long)id, (unsigned long long)node);
        if (in_ != node)
            return INVALID("partition %u challenge %d: proof_r_new opens node %llu, the challenge is node %llu", k, c,
                           (unsigned long long)in_, (unsigned long long)node);
        /* the paths hash to their roots */
        fr root;
        merkle_path_root(&root, &sp->shape, &q->path_r_old, &q->leaf_r_old);
        if (!fr_eq(&root, &q->root_r_old))
            return INVALID("partition %u challenge %d (node %llu): proof_r_old: the path does not hash the leaf to the root", k, c,
                           (unsigned long long)node);
        merkle_path_root(&root, &sp->shape, &q->path_r_new, &q->leaf_r_new);
        if (!fr_eq(&root, &q->root_r_new))
            return INVALID("partition %u challenge %d (node %llu): proof_r_new: the path does not hash the leaf to the root", k, c,
                           (unsigned long long)node);
        uint8_t dn[32], want[32];
        tree_d_node(dn, &q->path_d_new, &q->leaf_d_new, cbl);
        fr_bytes(want, &comm_d_new);
        if (memcmp(dn, want, 32))
            return INVALID("partition %u challenge %d (node %llu): proof_d_new: the path does not hash the leaf to comm_d_new", k,
                           c, (unsigned long long)node);
        /* the encoding */
        fr rho, enc;
        snap_rho(&rho, &phi, snap_high(sp, node));
        fr_mul(&enc, &q->leaf_d_new, &rho);
        fr_add(&enc, &enc, &q->leaf_r_old);
        if (!fr_eq(&enc, &q->leaf_r_new))
            return INVALID("partition %u challenge %d (node %llu): leaf of proof_r_new is not leaf_r_old + leaf_d_new * rho "
                           "(rho of the high %d bits %u)", k, c, (unsigned long long)node, sp->h, snap_high(sp, node));
        /* the apex leaf, the apex root and the partition path */
        uint64_t apex_idx = (node >> apex_height) & (uint64_t)(A - 1);
        tree_d_node(dn, &q->path_d_new, &q->leaf_d_new, apex_height);
        fr_bytes(want, &p->apex_leafs[apex_idx]);
        if (memcmp(dn, want, 32))
            return INVALID("partition %u challenge %d (node %llu): proof_d_new: the node at the apex-leaf row (height %d) is not "
                           "apex_leafs[%llu]", k, c, (unsigned long long)node, apex_height, (unsigned long long)apex_idx);
        tree_d_node(dn, &q->path_d_new, &q->leaf_d_new, apex_height + abl);
        if (memcmp(dn, apex_root, 32))
            return INVALID("partition %u challenge %d (node %llu): proof_d_new: the node at the apex root's row (height %d) is not "
                           "the root of the apex leaves", k, c, (unsigned long long)node, apex_height + abl);
        for (int l = cbl - pbl; l < cbl; l++)
            if (!same_level(&q->path_d_new, &p0->path_d_new, l))
                return INVALID("partition %u challenge %d (node %llu): proof_d_new: level %d of the partition path differs from "
                               "challenge 0's", k, c, (unsigned long long)node, l);
    }
    return CUZK_OK;
}
