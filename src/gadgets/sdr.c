/* Gadgets of the SDR PoRep circuit (sdr.h). */
#include "gadgets/sdr.h"

#include <stdlib.h>

size_t sdr_reverse_bit_numbering(cs_bool *out, const cs_bool *in, size_t n) {
    /* out[j] = in[j ^ 7] (bits of each byte reversed); the pad of a partial last byte is false.
     * One index loop: GCC 12 at -O3 reads the nested byte/bit form as out of bounds. */
    size_t m = (n + 7) / 8 * 8;
    for (size_t j = 0; j < m; j++) {
        size_t src = j ^ 7;
        if (src < n)
            out[j] = in[src];
        else
            out[j] = bool_const(false);
    }
    return m;
}

void sdr_u64_alloc(cs *cs, cs_bool bits[64], uint64_t value) {
    for (int i = 0; i < 64; i++) bits[i] = bool_alloc(cs, (value >> i) & 1);
}

cs_num sdr_pack_bits(cs *cs, const cs_bool *bits, size_t n) {
    if (n > 254) n = 254;
    fr v;
    fr_zero(&v);
    for (size_t i = 0; i < n; i++)
        if (bits[i].value) fr_add(&v, &v, &cs->pow2[i]);
    cs_num r = num_alloc(cs, &v);
    cs_lc *A = cs_tmp(cs, 0), *B = cs_tmp(cs, 1), *C = cs_tmp(cs, 2);
    for (size_t i = 0; i < n; i++) bool_lc_add(cs, A, bits[i], &cs->pow2[i]);
    cs_lc_add(cs, B, CS_ONE, NULL);
    cs_lc_add(cs, C, r.var, NULL);
    cs_enforce(cs, A, B, C);
    return r;
}

/* SHA-256 of n_bits message bits, the digest's 254 low bits (LE) packed */
static cs_num sha256_packed(cs *cs, const cs_bool *msg, size_t n_bits) {
    cs_bool be[256], le[256];
    sha256_gadget(cs, be, msg, n_bits);
    sdr_reverse_bit_numbering(le, be, 256);
    return sdr_pack_bits(cs, le, 254);
}

cs_num sdr_sha256_node_gadget(cs *cs, const cs_num *left, const cs_num *right) {
    cs_bool bits[255], msg[512];
    num_to_bits_le(cs, bits, left);
    sdr_reverse_bit_numbering(msg, bits, 255);
    num_to_bits_le(cs, bits, right);
    sdr_reverse_bit_numbering(msg + 256, bits, 255);
    return sha256_packed(cs, msg, 512);
}

void sdr_por_sha256_gadget(cs *cs, int levels, const cs_num *leaf, const merkle_path *p, const cs_num *root) {
    if (levels < 0 || levels > MERKLE_MAX_LEVELS) {
        cs_fail(cs, CUZK_ERR_ARG, "PoR (SHA-256): %d levels (at most %d)", levels, MERKLE_MAX_LEVELS);
        return;
    }
    cs_num cur = *leaf;
    cs_bool bits[MERKLE_MAX_LEVELS];
    for (int l = 0; l < levels && cs->status == CUZK_OK; l++) {
        bits[l] = bool_alloc(cs, p->index[l] & 1);
        cs_num sib = num_alloc(cs, &p->siblings[l][0]), ins[2];
        num_insert(cs, ins, &cur, &bits[l], &sib, 2);
        cur = sdr_sha256_node_gadget(cs, &ins[0], &ins[1]);
    }
    pack_into_inputs(cs, bits, (size_t)levels);
    num_enforce_equal(cs, &cur, root);
}

cs_num sdr_create_label_gadget(cs *cs, const cs_bool replica_id[256], const cs_bool *const parents[SDR_LABEL_PARENTS],
                               uint32_t layer, const cs_bool node_le[64]) {
    enum { N = (2 + SDR_LABEL_PARENTS) * 256 };
    cs_num r = {CS_AUX, {{0}}};
    cs_bool *msg = malloc(N * sizeof *msg);
    if (!msg) { cs_fail(cs, CUZK_ERR_NOMEM, "create_label: out of memory"); return r; }
    size_t n = 0;
    for (int i = 0; i < 256; i++) msg[n++] = replica_id[i];
    for (int i = 31; i >= 0; i--) msg[n++] = bool_const((layer >> i) & 1);
    for (int i = 63; i >= 0; i--) msg[n++] = node_le[i];
    while (n < 512) msg[n++] = bool_const(false);
    for (int k = 0; k < SDR_LABEL_PARENTS; k++)
        for (int i = 0; i < 256; i++) msg[n++] = parents[k][i];
    r = sha256_packed(cs, msg, N);
    free(msg);
    return r;
}

cs_num sdr_column_hash_gadget(cs *cs, const cs_num *rows, int layers) {
    if (layers != 2 && layers != 11) {
        cs_num r = {CS_AUX, {{0}}};
        cs_fail(cs, CUZK_ERR_UNSUPPORTED, "column hash: %d layers (2 or 11)", layers);
        return r;
    }
    return poseidon_gadget(cs, rows, layers);
}
