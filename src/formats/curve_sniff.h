/* Which curve a file is for, without loading it: the dispatch of the public API between the
 * per-curve instances of the snarkjs path (src/curves/curve.h). Compiled once (curve-neutral).
 *
 * Every function returns CUZK_CURVE_UNKNOWN when it cannot tell (unreadable, truncated, another
 * magic, a prime of no supported curve, JSON without a known "curve"); the caller then lets the
 * default (BLS12-381) loader produce the precise error. They never fail otherwise and allocate
 * nothing that outlives the call. Thread-safe.
 */
#ifndef CUZK_FORMATS_CURVE_SNIFF_H
#define CUZK_FORMATS_CURVE_SNIFF_H

#include <stddef.h>
#include <stdint.h>

#include "cuzk/prover.h"

/* An iden3 image (.zkey: the header's q; .wtns, .r1cs: their prime). */
cuzk_curve curve_sniff_iden3(const uint8_t *data, size_t len);
cuzk_curve curve_sniff_iden3_file(const char *path);
/* snarkjs JSON text (verification_key.json, proof.json): the "curve" member ("bn128"/"bn254",
 * "bls12381"). */
cuzk_curve curve_sniff_json(const char *text, size_t len);
cuzk_curve curve_sniff_json_file(const char *path);

#endif
