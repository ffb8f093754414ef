/* SHA-256 gadgets (FIPS 180-4) in bellpepper's constraint order (bellpepper gadgets/sha256.rs):
 * the compression function with MultiEq-batched additions and deferred sums, and the padded hash.
 * Bits are Booleans, most significant bit of each byte first (big-endian bit order), as
 * bellpepper's sha256 takes them. Costs (model/test_gadgets.py): a compression of a variable
 * block with the constant IV 25,840 constraints; a 512-bit message 44,874.
 */
#ifndef CUZK_GADGETS_SHA256_H
#define CUZK_GADGETS_SHA256_H

#include "gadgets/boolean.h"

/* out = compression of the 512 bits of block into state cur (8 words); out may alias cur. */
void sha256_compress_gadget(cs *cs, cs_u32 out[8], const cs_bool *block, const cs_u32 cur[8]);
/* out[256] = SHA-256 of n_bits input bits (n_bits % 8 == 0), big-endian bits. */
void sha256_gadget(cs *cs, cs_bool out[256], const cs_bool *in, size_t n_bits);

#endif
