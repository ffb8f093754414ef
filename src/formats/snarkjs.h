/* snarkjs/circom binary files: .zkey (Groth16), .wtns (the .r1cs reader and writer, which build
 * and read CSR, are in src/r1cs/r1cs.h: formats sits below r1cs). Byte layouts: tests/fixtures/FORMATS.md
 * (snarkjs 0.7.6, circom 2.2.3). These readers are compiled once per curve (src/curves/curve.h):
 * the default compile reads bls12381 files, the BN254 one (bn254_zkey_load, ...) bn128 files; a
 * file of the other curve gets CUZK_ERR_CURVE naming both, any other prime CUZK_ERR_CURVE.
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
#include "curves/curve.h"

/* One coefficient of zkey section 4: matrix 0 = A, 1 = B. */
typedef struct zkey_coef {
    uint32_t matrix, row, wire;
    fr value; /* Montgomery form of the coefficient v (the file's M2 value reduced once) */
} zkey_coef;

typedef struct zkey {
    uint32_t n_vars;       /* wires, ONE included */
    uint32_t n_public;     /* outputs + public inputs (ONE not counted) */
    uint32_t domain_size;  /* n = 2^log_domain */
    int log_domain;
    uint32_t n_constraints; /* R1CS rows: the highest coefficient row minus n_public (snarkjs adds
                               the n_public + 1 input rows after the constraints) */
    g1_affine alpha1, beta1, delta1;
    g2_affine beta2, gamma2, delta2;
    g1_affine *ic;   /* n_public + 1 */
    g1_affine *a;    /* n_vars (infinity where a wire is absent from A) */
    g1_affine *b1;   /* n_vars */
    g2_affine *b2;   /* n_vars */
    g1_affine *c;    /* n_vars - n_public - 1: entry j is wire j + n_public + 1 */
    g1_affine *h;    /* domain_size: Lagrange basis of the odd coset (FORMATS.md section 3) */
    uint32_t n_coefs;
    zkey_coef *coefs; /* n_coefs, file order */
} zkey;

/* check_subgroup: also run the (slower) prime-order subgroup check on every point. */
cuzk_status zkey_load(zkey *z, const char *path, bool check_subgroup, cuzk_error *err);
/* zkey_load of a .zkey image of size bytes in memory (read during the call only); `name` stands
 * for the path in messages. */
cuzk_status zkey_load_mem(zkey *z, const uint8_t *data, size_t size, const char *name, bool check_subgroup,
                          cuzk_error *err);
void zkey_free(zkey *z);

/* Streaming .zkey writer (Groth16, bls12381, version 1, 10 sections; FORMATS.md section 3), so
 * that a generator writes each point section as soon as it is computed and frees it.
 *   open:     file header, section 1 (protocol 1) and section 2 from h's n_vars, n_public,
 *             domain_size and the six vk points (every other field of h is ignored);
 *   coef_section + coef_records: section 4 announced with its record count, then exactly that
 *             many 44-byte records (zkey_coef_encode: u32 matrix, row, wire, then the value as
 *             v*R^2 mod r, "M2"), in one or several calls. zkey_writer_coefs (src/r1cs/r1cs.h)
 *             writes the section from a constraint system;
 *   section + g1s/g2s: one point section (3 IC, 5 A, 6 B1, 7 B2 (G2), 8 C, 9 H) announced with
 *             its point count, then exactly that many points in one or several calls; points are
 *             written as they are in memory (Montgomery little-endian limbs = snarkjs's form;
 *             (0, 0) = infinity = zero bytes);
 *   close:    section 10 (a zero 64-byte circuit hash: no ceremony; 0 contributions), checks that
 *             sections 1-10 were each written completely once, closes and frees w (always).
 * Sections may come in any order (readers use the section table). Errors are sticky and reported
 * by close: CUZK_ERR_IO (write failed, errno kept), CUZK_ERR_ARG (sizes or order misused).
 * The caller removes a partial file. Not thread-safe per writer. */
typedef struct zkey_writer zkey_writer;
cuzk_status zkey_writer_open(zkey_writer **w, const char *path, const zkey *h, cuzk_error *err);
#define ZKEY_COEF_BYTES 44
/* One section-4 record: matrix (0 = A, 1 = B), row, wire, and v (Montgomery form in memory)
 * written as v*R^2 mod r. */
void zkey_coef_encode(uint8_t rec[ZKEY_COEF_BYTES], uint32_t matrix, uint32_t row, uint32_t wire, const fr *v);
void zkey_writer_coef_section(zkey_writer *w, uint64_t n_coefs);
void zkey_writer_coef_records(zkey_writer *w, const uint8_t *rec, size_t n);
/* false after any error so far (reported in full by close). */
bool zkey_writer_ok(const zkey_writer *w);
/* Marks the writer failed with ENOMEM (a caller's buffer could not be allocated). */
void zkey_writer_fail_nomem(zkey_writer *w);
void zkey_writer_section(zkey_writer *w, uint32_t id, uint64_t n_points);
void zkey_writer_g1s(zkey_writer *w, const g1_affine *p, size_t n);
void zkey_writer_g2s(zkey_writer *w, const g2_affine *p, size_t n);
uint64_t zkey_writer_bytes(const zkey_writer *w);
cuzk_status zkey_writer_close(zkey_writer *w, const char *path, cuzk_error *err);

typedef struct wtns {
    uint32_t n;   /* nWitness, w[0] = 1 */
    fr *w;        /* n values, Montgomery form */
} wtns;
cuzk_status wtns_load(wtns *w, const char *path, cuzk_error *err);
/* wtns_load of a .wtns image in memory (read during the call only). */
cuzk_status wtns_load_mem(wtns *w, const uint8_t *data, size_t size, const char *name, cuzk_error *err);
/* The value count of a .wtns image after checking its layout (header, prime of this compile's
 * curve, section sizes) without reading the values. Errors as wtns_load_mem. */
cuzk_status wtns_count_mem(uint32_t *n, const uint8_t *data, size_t size, const char *name, cuzk_error *err);
/* Writes a version-2 .wtns with n values (Montgomery in, normal form on disk). */
cuzk_status wtns_write(const char *path, const fr *w, uint32_t n, cuzk_error *err);
void wtns_free(wtns *w);


/* Short description of any supported file (zkey, wtns, r1cs, bellperson params/vk, proof/vk
 * JSON): kind, curve, sizes, sections, written into buf (NUL-terminated, truncated to cap). */
cuzk_status file_describe(char *buf, size_t cap, const char *path, cuzk_error *err);
/* file_describe, and for bellperson .params also bellperson_params_decode(NULL, ...) with
 * *check (NULL: no point checks); a line "points: ..." is added on success. */
struct bellperson_load_opts;
cuzk_status file_describe_ex(char *buf, size_t cap, const char *path, const struct bellperson_load_opts *check,
                             cuzk_error *err);

#endif
