/* The update of a sector sealed in memory, and its vanilla partition proofs (snap_seal.h). */
#include "filecoin/snap_seal.h"

#include <stdlib.h>
#include <string.h>

#include "gadgets/poseidon.h"
#include "util/log.h"
#include "util/parallel.h"

void snap_update_free(snap_update *u) {
    if (!u) return;
    free(u->data);
    free(u->tree_d);
    free(u->tree_r_old);
    free(u->tree_r_new);
    memset(u, 0, sizeof *u);
}

typedef struct enc_ctx {
    snap_update *u;
    const fr *rhos;             /* 2^h */
    int shr;                    /* log2(nodes) - h */
    int level;                  /* tree passes: the level hashed into level + 1 */
    int arity;
    uint64_t d_off, d_size;     /* tree D: the level's first entry and size */
} enc_ctx;

static void encode_range(void *ctx, size_t b, size_t e, int tid) {
    (void)tid;
    enc_ctx *c = ctx;
    snap_update *u = c->u;
    for (size_t v = b; v < e; v++) {
        fr d, x;
        (void)fr_from_bytes_le(&d, u->data[v], 32);   /* fr32-padded: below the modulus */
        fr_mul(&x, &d, &c->rhos[v >> c->shr]);
        fr_add(&u->tree_r_new[v], &u->tree_r_old[v], &x);
    }
}

static void tree_r_range(void *ctx, size_t b, size_t e, int tid) {
    (void)tid;
    enc_ctx *c = ctx;
    const fr *lo = c->u->tree_r_new + c->u->tree_offset[c->level];
    fr *hi = c->u->tree_r_new + c->u->tree_offset[c->level + 1];
    for (size_t p = b; p < e; p++) poseidon_hash(&hi[p], lo + p * (size_t)c->arity, c->arity);
}

static void tree_d_range(void *ctx, size_t b, size_t e, int tid) {
    (void)tid;
    enc_ctx *c = ctx;
    uint8_t (*lo)[32] = c->u->tree_d + c->d_off, (*hi)[32] = c->u->tree_d + c->d_off + c->d_size;
    for (size_t p = b; p < e; p++) porep_sha256_node(hi[p], lo[2 * p], lo[2 * p + 1]);
}

static bool same_shape(const merkle_shape *a, const merkle_shape *b) {
    return a->base_arity == b->base_arity && a->base_levels == b->base_levels && a->sub_arity == b->sub_arity &&
           a->top_arity == b->top_arity;
}

cuzk_status snap_update_encode(snap_update *out, const snap_params *sp, const porep_sector *old, const uint8_t *data_new,
                               int nthreads, cuzk_error *err) {
    if (out) memset(out, 0, sizeof *out);
    if (!out || !sp || !old || !data_new) return ERR(err, CUZK_ERR_ARG, "snap update: NULL argument");
    if (!old->tree_r || !old->tree_c) return ERR(err, CUZK_ERR_ARG, "snap update: the old sector is not sealed (porep_seal)");
    if (old->nodes != sp->nodes || !same_shape(&old->pp.shape, &sp->shape) || old->tree_levels != merkle_levels(&sp->shape))
        return ERR(err, CUZK_ERR_ARG, "snap update: the sealed sector (%llu bytes) is not of the update's size and tree shape (%llu bytes)",
                   (unsigned long long)old->pp.sector_size, (unsigned long long)sp->sector_size);
    uint64_t n = sp->nodes;
    for (uint64_t v = 0; v < n; v++)
        if (data_new[32 * v + 31] & 0xc0)
            return ERR(err, CUZK_ERR_ARG, "snap update: new data node %llu is not fr32-padded (top two bits of byte %llu set)",
                       (unsigned long long)v, (unsigned long long)(32 * v + 31));
    snap_update *u = out;
    u->sp = *sp;
    u->nodes = n;
    u->tree_levels = old->tree_levels;
    memcpy(u->tree_offset, old->tree_offset, sizeof u->tree_offset);
    size_t tree_len = (size_t)old->tree_offset[old->tree_levels] + 1;
    int h = sp->h;
    u->data = malloc(n * 32);
    u->tree_d = malloc((2 * n - 1) * 32);
    u->tree_r_old = malloc(tree_len * sizeof(fr));
    u->tree_r_new = malloc(tree_len * sizeof(fr));
    fr *rhos = malloc(((size_t)1 << h) * sizeof *rhos);
    if (!u->data || !u->tree_d || !u->tree_r_old || !u->tree_r_new || !rhos) {
        free(rhos);
        snap_update_free(u);
        return ERR(err, CUZK_ERR_NOMEM, "snap update: out of memory for a %llu-byte sector", (unsigned long long)sp->sector_size);
    }
    memcpy(u->data, data_new, n * 32);
    memcpy(u->tree_r_old, old->tree_r, tree_len * sizeof(fr));
    memcpy(u->comm_c, old->comm_c, 32);
    memcpy(u->comm_r_last_old, old->comm_r_last, 32);
    memcpy(u->pub.comm_r_old, old->comm_r, 32);

    /* tree D new */
    memcpy(u->tree_d, data_new, n * 32);
    uint64_t off = 0, sz = n;
    for (int l = 0; l < sp->challenge_bit_len; l++) {
        enc_ctx c = {u, NULL, 0, l, 2, off, sz};
        parallel_for((size_t)(sz / 2), nthreads, tree_d_range, &c);
        off += sz;
        sz /= 2;
    }
    memcpy(u->pub.comm_d_new, u->tree_d[2 * n - 2], 32);

    /* phi, the rhos, the new replica */
    fr phi, cdn, cro;
    (void)fr_from_bytes_le(&cdn, u->pub.comm_d_new, 32);
    (void)fr_from_bytes_le(&cro, u->pub.comm_r_old, 32);
    snap_phi(&phi, &cdn, &cro);
    for (uint32_t hi = 0; hi < (1u << h); hi++) snap_rho(&rhos[hi], &phi, hi);
    enc_ctx ec = {u, rhos, sp->challenge_bit_len - h, 0, 0, 0, 0};
    parallel_for((size_t)n, nthreads, encode_range, &ec);
    free(rhos);

    /* tree R new, comm_r_new */
    for (int l = 0; l < u->tree_levels; l++) {
        int a = merkle_level_arity(&sp->shape, l);
        enc_ctx c = {u, NULL, 0, l, a, 0, 0};
        parallel_for((size_t)(u->tree_offset[l + 1] - u->tree_offset[l]) / (size_t)a, nthreads, tree_r_range, &c);
    }
    fr in[2], crn;
    (void)fr_from_bytes_le(&in[0], u->comm_c, 32);
    in[1] = u->tree_r_new[tree_len - 1];
    fr_to_bytes_le(u->comm_r_last_new, 32, &in[1]);
    poseidon_hash(&crn, in, 2);
    fr_to_bytes_le(u->pub.comm_r_new, 32, &crn);
    return CUZK_OK;
}

static void tree_r_path(const snap_update *u, const fr *tree, uint64_t node, merkle_path *p, fr *leaf) {
    uint64_t pos = node;
    for (int l = 0; l < u->tree_levels; l++) {
        uint64_t a = (uint64_t)merkle_level_arity(&u->sp.shape, l), idx = pos % a, first = u->tree_offset[l] + pos - idx;
        p->index[l] = (uint32_t)idx;
        int k = 0;
        for (uint64_t i = 0; i < a; i++)
            if (i != idx) p->siblings[l][k++] = tree[first + i];
        pos /= a;
    }
    *leaf = tree[node];
}

static void tree_d_path(const snap_update *u, uint64_t node, merkle_path *p, fr *leaf) {
    uint64_t off = 0, sz = u->nodes, pos = node;
    (void)fr_from_bytes_le(leaf, u->tree_d[node], 32);
    for (int l = 0; l < u->sp.challenge_bit_len; l++) {
        p->index[l] = (uint32_t)(pos & 1);
        (void)fr_from_bytes_le(&p->siblings[l][0], u->tree_d[off + (pos ^ 1)], 32);
        off += sz;
        sz >>= 1;
        pos >>= 1;
    }
}

cuzk_status snap_update_partition_proof(snap_partition_proof *out, const snap_update *u, uint32_t k, cuzk_error *err) {
    if (out) memset(out, 0, sizeof *out);
    if (!out || !u || !u->tree_d) return ERR(err, CUZK_ERR_ARG, "snap update proof: NULL argument");
    const snap_params *sp = &u->sp;
    uint32_t ch[SNAP_MAX_CHALLENGES];
    cuzk_status st = snap_challenges(ch, sp, u->pub.comm_r_new, k, err);
    if (st != CUZK_OK) return st;
    out->proofs = calloc((size_t)sp->challenges, sizeof *out->proofs);
    if (!out->proofs) return ERR(err, CUZK_ERR_NOMEM, "snap update proof: out of memory");
    out->n_challenges = (uint32_t)sp->challenges;
    (void)fr_from_bytes_le(&out->comm_c, u->comm_c, 32);
    /* the apex row: partitions x apex_leaves nodes */
    uint64_t off = 0, sz = u->nodes;
    while (sz > (uint64_t)sp->partitions * (uint64_t)sp->apex_leaves) { off += sz; sz >>= 1; }
    for (int i = 0; i < sp->apex_leaves; i++)
        (void)fr_from_bytes_le(&out->apex_leafs[i], u->tree_d[off + (uint64_t)k * (uint64_t)sp->apex_leaves + (uint64_t)i], 32);
    size_t tree_len = (size_t)u->tree_offset[u->tree_levels] + 1;
    fr cdn;
    (void)fr_from_bytes_le(&cdn, u->pub.comm_d_new, 32);
    for (int c = 0; c < sp->challenges; c++) {
        snap_challenge_proof *q = &out->proofs[c];
        tree_r_path(u, u->tree_r_old, ch[c], &q->path_r_old, &q->leaf_r_old);
        q->root_r_old = u->tree_r_old[tree_len - 1];
        tree_d_path(u, ch[c], &q->path_d_new, &q->leaf_d_new);
        q->root_d_new = cdn;
        tree_r_path(u, u->tree_r_new, ch[c], &q->path_r_new, &q->leaf_r_new);
        q->root_r_new = u->tree_r_new[tree_len - 1];
    }
    return CUZK_OK;
}
