/* snarkjs/circom binary files: .zkey (Groth16), .wtns (the .r1cs reader and writer, which build
 * and read CSR, are in src/r1cs/r1cs.h: formats sits below r1cs). Byte layouts: tests/fixtures/FORMATS.md
 * (snarkjs 0.7.6, circom 2.2.3). The readers and writers are declared once per curve
 * (formats/snarkjs_decl.h, src/curves/curve.h): zkey_load reads bls12381 files, bn254_zkey_load
 * bn128 files; a file of the other curve gets CUZK_ERR_CURVE naming both, any other prime
 * CUZK_ERR_CURVE.
 *
 * Every loader maps the file, checks the container (magic, version, section table: ids, sizes,
 * duplicates, truncation) and copies what it needs into owned host arrays (aligned, converted to
 * cuzk's representation), then unmaps. Errors: CUZK_ERR_IO (open/read), CUZK_ERR_FORMAT
 * (magic, version, missing/duplicate/short section, counts inconsistent with sizes, non-canonical
 * field element), CUZK_ERR_CURVE (prime), CUZK_ERR_POINT (a point not on its curve; the message
 * names the section and index), CUZK_ERR_NOMEM. On error the output struct is left zeroed.
 * The *_free functions accept zeroed structs. Not thread-safe per object; distinct objects are
 * independent.
 */
#ifndef CUZK_FORMATS_SNARKJS_H
#define CUZK_FORMATS_SNARKJS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cuzk/cuzk.h"
#include "cuzk/groth16.h"
#include "curves/curve.h"
#include "formats/json.h" /* groth16_vk: zkey_load_vk */

#define ZKEY_COEF_BYTES 44

/* one declaration pass per curve: zkey, bn254_zkey, ... */
#include "curves/bls12_381/ns.h"
#include "formats/snarkjs_decl.h"
#include "curves/bn254/ns.h"
#include "formats/snarkjs_decl.h"
#include "curves/ns_reset.h"


/* Short description of any supported file (zkey, wtns, r1cs, bellperson params/vk, proof/vk
 * JSON): kind, curve, sizes, sections, written into buf (NUL-terminated, truncated to cap). */
cuzk_status file_describe(char *buf, size_t cap, const char *path, cuzk_error *err);
/* file_describe, and for bellperson .params also bellperson_params_decode(NULL, ...) with
 * *check (NULL: no point checks); a line "points: ..." is added on success. */
struct bellperson_load_opts;
cuzk_status file_describe_ex(char *buf, size_t cap, const char *path, const struct bellperson_load_opts *check,
                             cuzk_error *err);

/* cuzk_file_shape_read (include/cuzk/groth16.h): a .params, .zkey or .r1cs file's shape from its
 * headers (src/formats/shape.c). */
cuzk_status file_shape_read(cuzk_file_shape *out, const char *path, cuzk_error *err);
/* bellperson's evaluation domain m of a circuit: the smallest power of two >= n_constraints +
 * n_public + 1 (ONE), at least 2. */
uint64_t file_shape_domain(uint64_t n_constraints, uint64_t n_public);

#endif
