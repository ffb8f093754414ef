/* Merkle inclusion (storage-proofs-core gadgets/por.rs, PoRCircuit with a private root):
 * a tree of base-arity levels, then optionally one sub-tree level and one top-tree level, Poseidon
 * at every node. Per level: the index bits (log2 arity, least significant first), the arity - 1
 * siblings, insert, hash; then all path bits packed into ONE input (the leaf's index), then
 * A = computed root, B = ONE, C = root.
 */
#ifndef CUZK_GADGETS_MERKLE_H
#define CUZK_GADGETS_MERKLE_H

#include "gadgets/poseidon.h"

#define MERKLE_MAX_LEVELS 40

typedef struct merkle_shape {
    int base_arity, base_levels; /* base_arity^base_levels leaves per sub-tree */
    int sub_arity;               /* 0: none */
    int top_arity;               /* 0: none */
} merkle_shape;

/* Levels of the whole path and the arity of level l. */
int merkle_levels(const merkle_shape *s);
int merkle_level_arity(const merkle_shape *s, int level);
/* Number of leaves: base^levels * sub * top. */
uint64_t merkle_leaves(const merkle_shape *s);

/* The per-level data of one path: siblings[level][0 .. arity-1) and index[level] < arity. */
typedef struct merkle_path {
    fr siblings[MERKLE_MAX_LEVELS][15];
    uint32_t index[MERKLE_MAX_LEVELS];
} merkle_path;

/* The challenged leaf's index as the path encodes it (base indices first, least significant). */
uint64_t merkle_path_leaf_index(const merkle_shape *s, const merkle_path *p);
/* The root the path hashes the leaf to (host side, poseidon_hash: the optimised form). Reentrant. */
void merkle_path_root(fr *root, const merkle_shape *s, const merkle_path *p, const fr *leaf);

/* The circuit: allocates the leaf ("value"), runs the path, packs the path bits into one input
 * and enforces the computed root equals root. */
void por_gadget(cs *cs, const merkle_shape *s, const fr *leaf, const merkle_path *p, const cs_num *root);
/* The same with an already allocated leaf (PoRCircuit with Root::Var value, as
 * storage-proofs-porep's enforce_inclusion calls it): nothing is allocated for the leaf. */
void por_gadget_leaf(cs *cs, const merkle_shape *s, const cs_num *leaf, const merkle_path *p, const cs_num *root);

#endif
