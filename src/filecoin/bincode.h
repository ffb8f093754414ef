/* Internal: a bounded reader of bincode (the serde encoding rust-fil-proofs gives its vanilla
 * proofs: bincode 1.x default options, fixed-width little-endian integers, u64 lengths before
 * every Vec, enum variants as u32, no padding), and the one structure the PoSt and SnapDeals
 * vanilla proofs share, storage-proofs-core's MerkleProof.
 *
 * Every read checks the bytes left first (never reads past n, no size arithmetic can overflow:
 * `n - off` with off <= n), names the field it reads and the byte it starts at on failure, and
 * after the first failure does nothing (returns zeros), so a decoder reads straight through and
 * tests bincode_ok() where it must branch. The first failure is the one reported:
 *   "<prefix>[<unit> <index>: ][<section>: ][<path> level <l>: ]<message>"  (CUZK_ERR_FORMAT)
 * e.g. "SnapDeals partition proof: challenge 3: proof_r_new: truncated: sibling at byte 8710
 * needs 32 bytes, 5 left". The reader borrows the buffer; it allocates nothing. One reader per
 * thread.
 */
#ifndef CUZK_FILECOIN_BINCODE_H
#define CUZK_FILECOIN_BINCODE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gadgets/merkle.h"
#include "util/log.h"

typedef struct bincode_reader {
    const uint8_t *p;       /* the input, n bytes (host memory, borrowed) */
    size_t n, off;          /* off <= n always */
    cuzk_error *err;        /* may be NULL */
    cuzk_status st;         /* CUZK_OK until the first failure */
    const char *prefix;     /* "vanilla proof: ", "SnapDeals partition proof: " (static) */
    const char *unit;       /* with index >= 0: "challenge" (static), named in a failure */
    long index;             /* -1: outside any unit */
    const char *section;    /* NULL or the part being read: "proof_r_old" (static) */
    const char *path;       /* with level >= 0: the Merkle path being read ("base path") */
    int level;              /* -1: outside a path's levels */
} bincode_reader;

/* A reader of data[0..n) whose failures start with prefix (a static string). */
void bincode_init(bincode_reader *r, const uint8_t *data, size_t n, const char *prefix, cuzk_error *err);
static inline bool bincode_ok(const bincode_reader *r) { return r->st == CUZK_OK; }
/* Records a failure (CUZK_ERR_FORMAT) with the reader's unit and section, unless one is recorded. */
void bincode_fail(bincode_reader *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* true when k more bytes are there; else fails "truncated: <field> at byte B needs k bytes, L left". */
bool bincode_need(bincode_reader *r, size_t k, const char *field);
uint32_t bincode_u32(bincode_reader *r, const char *field);
uint64_t bincode_u64(bincode_reader *r, const char *field);
/* A u64 that must be want (every Vec length of these proofs is fixed by the parameters: a length
 * is checked before anything is allocated or looped over); else fails "<field> is G at byte B,
 * expected want for this sector size". Returns the value read (0 after a failure). */
uint64_t bincode_u64_eq(bincode_reader *r, uint64_t want, const char *field);
/* A field element: 32 bytes little-endian, canonical (< r); else fails "<field> at byte B is not a
 * canonical Fr (>= r)". *out is zero after a failure. */
void bincode_fr(bincode_reader *r, fr *out, const char *field);
/* Fails "T trailing bytes after byte B" unless the whole input was read. Returns bincode_ok(). */
bool bincode_end(bincode_reader *r);

/* storage-proofs-core merkle/proof.rs MerkleProof of a tree of shape sh: a u32 variant (0
 * SingleProof {root, leaf, path}, 1 SubProof {base_proof, sub_proof, root, leaf}, 2 TopProof
 * {base_proof, sub_proof, top_proof, root, leaf}) that must be the shape's, each InclusionPath a
 * Vec of levels {Vec of arity - 1 Fr siblings, u64 index < arity} with the shape's level count
 * (path levels: base first, then sub, then top, as merkle_path holds them). Failures name the
 * path ("path", "base path", "sub path", "top path"), the level and the byte. */
void bincode_merkle_proof(bincode_reader *r, const merkle_shape *sh, merkle_path *path, fr *leaf, fr *root);

#endif
