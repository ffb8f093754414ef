/* Gadgets of the SDR PoRep circuit (rust-fil-proofs 87348a74 storage-proofs-porep
 * stacked/circuit/{create_label.rs,hash.rs,column.rs}, storage-proofs-core gadgets/{uint64.rs,
 * encode.rs}, util.rs reverse_bit_numbering, filecoin-hashers sha256.rs hash_multi_leaf_circuit,
 * bellpepper multipack::pack_bits), in the constraint order of those sources.
 *
 * Bit conventions: a field element's to_bits_le gives 255 bits, bit i of the canonical integer;
 * reverse_bit_numbering pads to whole bytes with constant false and reverses the bits of every
 * byte, so a 32-byte little-endian value becomes its bytes in order, each most significant bit
 * first: the bit order bellpepper's sha256 takes. Digests go back the same way: the 254 low bits
 * of the digest read little-endian (byte 31 & 0x3f) are packed into one Fr.
 * Thread-safety: as the cs they use. Every gadget allocates at most one small buffer per hash.
 */
#ifndef CUZK_GADGETS_SDR_H
#define CUZK_GADGETS_SDR_H

#include "gadgets/merkle.h"
#include "gadgets/sha256.h"

#define SDR_LABEL_PARENTS 37  /* TOTAL_PARENTS */

/* util::reverse_bit_numbering: in[0..n) padded with constant false to a multiple of 8, then the
 * bits of each byte reversed. out: room for (n + 7) / 8 * 8 Booleans (may not alias in). Returns
 * that count. No constraints. */
size_t sdr_reverse_bit_numbering(cs_bool *out, const cs_bool *in, size_t n);

/* UInt64::alloc: 64 allocated bits of value, least significant first (64 constraints). */
void sdr_u64_alloc(cs *cs, cs_bool bits[64], uint64_t value);

/* multipack::pack_bits: one aux x = sum_{i < min(n, 254)} 2^i bits[i], then A = that sum,
 * B = ONE, C = x. */
cs_num sdr_pack_bits(cs *cs, const cs_bool *bits, size_t n);

/* A node of tree D (Sha256Function::hash_multi_leaf_circuit over two leaves): each leaf to_bits_le
 * (255 bits + the packing row), reverse_bit_numbering, SHA-256 of the 512 bits, the digest's 254
 * low bits (LE) packed (sdr_pack_bits). */
cs_num sdr_sha256_node_gadget(cs *cs, const cs_num *left, const cs_num *right);

/* PoR in tree D (binary SHA-256, `levels` levels) with an allocated leaf: per level the index bit,
 * the sibling (p->siblings[l][0]), insert_2, sdr_sha256_node_gadget; the path bits packed into ONE
 * input (pack_into_inputs); A = computed root, B = ONE, C = root. */
void sdr_por_sha256_gadget(cs *cs, int levels, const cs_num *leaf, const merkle_path *p, const cs_num *root);

/* create_label_circuit: SHA-256 of replica_id (256 bits) | layer u32 BE (constants) | node u64 BE
 * | zero pad to 512 bits | 37 parents of 256 bits each (20 blocks after padding), then the
 * digest's 254 low bits (reverse_bit_numbering, LE) packed into the label (sdr_pack_bits).
 * replica_id: 256 Booleans (reverse_bit_numbering of its to_bits_le); node_le: the challenge's
 * UInt64 bits, least significant first; parents[i]: 256 Booleans each (reverse_bit_numbering of a
 * parent label's to_bits_le). Upstream's test (create_label.rs test_create_label: 9,728 allocated
 * input bits, constant node) counts 532,025 constraints with the allocations. */
cs_num sdr_create_label_gadget(cs *cs, const cs_bool replica_id[256], const cs_bool *const parents[SDR_LABEL_PARENTS],
                               uint32_t layer, const cs_bool node_le[64]);

/* hash_single_column: Poseidon of the column's rows (arity = layers: 2 or 11); another count
 * fails the cs (CUZK_ERR_UNSUPPORTED). */
cs_num sdr_column_hash_gadget(cs *cs, const cs_num *rows, int layers);

/* encode: replica = key + value (constraint::add: A = key + value, B = ONE, C = r). */
static inline cs_num sdr_encode_gadget(cs *cs, const cs_num *key, const cs_num *value) { return num_add(cs, key, value); }

#endif
