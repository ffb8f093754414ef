/* Merkle inclusion gadget (merkle.h). */
#include "gadgets/merkle.h"

int merkle_levels(const merkle_shape *s) { return s->base_levels + (s->sub_arity ? 1 : 0) + (s->top_arity ? 1 : 0); }

int merkle_level_arity(const merkle_shape *s, int level) {
    if (level < s->base_levels) return s->base_arity;
    if (level == s->base_levels && s->sub_arity) return s->sub_arity;
    return s->top_arity;
}

uint64_t merkle_leaves(const merkle_shape *s) {
    uint64_t n = 1;
    for (int l = 0; l < merkle_levels(s); l++) n *= (uint64_t)merkle_level_arity(s, l);
    return n;
}

static int log2i(int a) { int k = 0; while ((1 << k) < a) k++; return k; }

uint64_t merkle_path_leaf_index(const merkle_shape *s, const merkle_path *p) {
    uint64_t idx = 0;
    int shift = 0;
    for (int l = 0; l < merkle_levels(s); l++) {
        idx |= (uint64_t)p->index[l] << shift;
        shift += log2i(merkle_level_arity(s, l));
    }
    return idx;
}

void merkle_path_root(fr *root, const merkle_shape *s, const merkle_path *p, const fr *leaf) {
    fr cur = *leaf, pre[16];
    for (int l = 0; l < merkle_levels(s); l++) {
        int a = merkle_level_arity(s, l), k = 0;
        for (int i = 0; i < a; i++) pre[i] = (uint32_t)i == p->index[l] ? cur : p->siblings[l][k++];
        poseidon_hash(&cur, pre, a);
    }
    *root = cur;
}

void por_gadget(cs *cs, const merkle_shape *s, const fr *leaf, const merkle_path *p, const cs_num *root) {
    cs_num cur = num_alloc(cs, leaf);
    por_gadget_leaf(cs, s, &cur, p, root);
}

void por_gadget_leaf(cs *cs, const merkle_shape *s, const cs_num *leaf, const merkle_path *p, const cs_num *root) {
    cs_num cur = *leaf;
    cs_bool bits[64];
    int nbits = 0;
    for (int l = 0; l < merkle_levels(s); l++) {
        int a = merkle_level_arity(s, l), nb = log2i(a);
        cs_bool *ib = bits + nbits;
        for (int i = 0; i < nb; i++) ib[i] = bool_alloc(cs, (p->index[l] >> i) & 1);
        nbits += nb;
        cs_num sib[15], ins[16];
        for (int i = 0; i < a - 1; i++) sib[i] = num_alloc(cs, &p->siblings[l][i]);
        num_insert(cs, ins, &cur, ib, sib, a);
        cur = poseidon_gadget(cs, ins, a);
    }
    pack_into_inputs(cs, bits, (size_t)nbits);
    num_enforce_equal(cs, &cur, root);
}
