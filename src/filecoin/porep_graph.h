/* Internals of porep_graph.c (the SDR graph, its hashes, the challenge derivations) for tests and
 * for the other PoRep modules; the graph's main interface is in porep.h.
 * Sources: rust-fil-proofs 87348a74 storage-proofs-core drgraph.rs:138-252 (BucketGraph),
 * crypto/feistel.rs, storage-proofs-porep stacked/vanilla/graph.rs:80-91,341-386 (expander),
 * stacked/vanilla/challenges.rs (interactive and synthetic); rand_chacha 0.3 (ChaCha8Rng), the
 * chacha20 crate (IETF ChaCha20, 32-bit block counter); RFC 7693 (BLAKE2b); POREP.md sections 2, 4.
 *
 * The graph functions (porep_parents, porep_drg_parents, porep_exp_parents, porep_parents_range,
 * porep_parent_cache_digest, porep_labels_all) read only pp->nodes, pp->layers, pp->api_version,
 * pp->drg_seed and pp->feistel_keys, so a test may shrink or grow a porep_params made by
 * porep_params_init to sizes no registered proof has (the 128-node known answers), keeping
 * nodes a power of two >= 4 and < 2^32.
 * Thread-safety: every function is reentrant.
 */
#ifndef CUZK_FILECOIN_POREP_GRAPH_H
#define CUZK_FILECOIN_POREP_GRAPH_H

#include <stddef.h>
#include <stdint.h>

#include "filecoin/porep.h"

#define POREP_SYNTH_CHALLENGES_MAX (1u << 18) /* DEFAULT_SYNTH_CHALLENGE_COUNT */

/* BLAKE2b (RFC 7693): out[0 .. out_len) = BLAKE2b-(8 out_len) of in[0 .. in_len), keyed with
 * key[0 .. key_len) (key_len 0: unkeyed). 1 <= out_len <= 64, key_len <= 64 (else nothing is
 * written). */
void porep_blake2b(uint8_t *out, size_t out_len, const uint8_t *key, size_t key_len, const uint8_t *in,
                   size_t in_len);

/* One ChaCha block: out[i] = (rounds of ChaCha over state)[i] + state[i], i < 16, as words (the
 * keystream block is out serialised little-endian). state: the 4 constants, the 8 key words, then
 * the counter/nonce words of the variant (rand_chacha: counter low, high, stream low, high; IETF:
 * counter, 3 nonce words). rounds: 8 or 20 (even). */
void porep_chacha_block(uint32_t out[16], const uint32_t state[16], int rounds);

/* Bytes [offset, offset + n) of the IETF ChaCha20 keystream (RFC 8439; the chacha20 crate's
 * ChaCha20 seeked to byte offset) of key and nonce, block counter from 0 (offset < 2^38). */
void porep_chacha20_stream(uint8_t *out, size_t n, const uint8_t key[32], const uint8_t nonce[12], uint64_t offset);

/* feistel::permute: index in [0, n) mapped by the 3-round Feistel network over the smallest
 * power of 4 >= n (halves of log4 bits each), keys[0..3), cycle-walking until < n. */
uint64_t porep_feistel_permute(uint64_t n, uint64_t index, const uint64_t keys[3]);

/* The 6 DRG parents of node (BucketGraph::parents): nodes 0 and 1 all 0; else 5 drawn from
 * ChaCha8Rng(drg_seed || u32 LE node) and the predecessor node - 1 in slot 5 (api 1.0) or slot 0. */
void porep_drg_parents(const porep_params *pp, uint64_t node, uint32_t out[POREP_DRG_DEGREE]);
/* The 8 expander parents: feistel_permute(8 nodes, 8 node + i) / 8, i < 8; under api 1.0 the
 * permuted index is first truncated to u32 (graph.rs:377, `transformed as u32`), which changes
 * parents at 32 and 64 GiB only (8 nodes > 2^32). */
void porep_exp_parents(const porep_params *pp, uint64_t node, uint32_t out[POREP_EXP_DEGREE]);

/* porep_parents of nodes [first, first + count) into out[0 .. count), on nthreads threads (<= 0:
 * cuzk_num_threads()). first + count <= pp->nodes. */
void porep_parents_range(const porep_params *pp, uint64_t first, uint64_t count, uint32_t (*out)[POREP_PARENTS],
                         int nthreads);
/* SHA-256 of the parent cache file of pp (per node its 14 parents as u32 LE, nodes in order:
 * 56 * nodes bytes), the digest storage-proofs-porep/parent_cache.json publishes per porep_id.
 * Streams in chunks (a few MiB of memory); time ~ nodes * 14 parents on nthreads threads.
 * Errors: CUZK_ERR_NOMEM, CUZK_ERR_ARG (NULL). */
cuzk_status porep_parent_cache_digest(uint8_t out[32], const porep_params *pp, int nthreads, cuzk_error *err);

/* porep_labels_all with the parents computed chunk_nodes nodes at a time in every layer
 * (chunk_nodes 0: porep_labels_all's choice, all nodes at once up to 2^20 nodes, else 2^16;
 * >= nodes: all at once). The labels do not depend on it. Errors: those of porep_labels_all. */
cuzk_status porep_labels_all_chunked(uint8_t (*out)[32], const porep_params *pp, const uint8_t replica_id[32],
                                     int nthreads, uint64_t chunk_nodes, cuzk_error *err);

/* Interactive challenge j (challenges.rs:36-56): (LE integer of SHA-256(replica_id || seed ||
 * u32 LE j)) mod (nodes - 1) + 1. nodes >= 2. */
uint64_t porep_interactive_challenge(const uint8_t replica_id[32], const uint8_t seed[32], uint32_t j, uint64_t nodes);

/* Synthetic challenge i (SynthChallengeGenerator::gen_synth_challenge): bytes [32 i, 32 i + 32)
 * of the ChaCha20 stream keyed BLAKE2b-256(key "filecoin.io|PoRep|1|Synthetic|1|Generation";
 * replica_id || comm_r), nonce "synth-porep\0", read as an LE integer, mod (nodes - 1) + 1.
 * nodes >= 2, 32 i + 32 <= 2^32. */
uint64_t porep_synth_challenge(const uint8_t replica_id[32], const uint8_t comm_r[32], uint64_t nodes, uint64_t i);
/* The synthetic challenge indexes of porep challenges first .. first + count
 * (gen_partition_synth_indexes): u32 LE words at byte 4 (first + t) of the ChaCha20 stream keyed
 * BLAKE2b-256(key "...|Synthetic|1|Selection"; replica_id || seed), mod num_synth (>= 1). */
void porep_synth_indexes(uint64_t *out, const uint8_t replica_id[32], const uint8_t seed[32], uint64_t first,
                         uint32_t count, uint64_t num_synth);

#endif
