/* snarkjs/circom binary files: .zkey (Groth16), .wtns, .r1cs. Byte layouts: tests/fixtures/FORMATS.md
 * (snarkjs 0.7.6, circom 2.2.3). Only BLS12-381 is supported in this build: a file whose prime is
 * the BN254 one gets CUZK_ERR_CURVE ("bn128 is not supported yet"), any other prime CUZK_ERR_CURVE.
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
#include "ec/ec.h"
#include "r1cs/r1cs.h"

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
void zkey_free(zkey *z);

typedef struct wtns {
    uint32_t n;   /* nWitness, w[0] = 1 */
    fr *w;        /* n values, Montgomery form */
} wtns;
cuzk_status wtns_load(wtns *w, const char *path, cuzk_error *err);
/* Writes a version-2 .wtns with n values (Montgomery in, normal form on disk). */
cuzk_status wtns_write(const char *path, const fr *w, uint32_t n, cuzk_error *err);
void wtns_free(wtns *w);

/* .r1cs -> CSR (src/r1cs/r1cs.h); n_public = nOutputs + nPubInputs. Coefficients converted to
 * Montgomery form; rows keep file term order. Custom-gate sections are rejected as unsupported. */
cuzk_status r1cs_load(r1cs *cs, const char *path, cuzk_error *err);

/* Short description of any supported file (zkey, wtns, r1cs, bellperson params/vk, proof/vk
 * JSON): kind, curve, sizes, sections, written into buf (NUL-terminated, truncated to cap). */
cuzk_status file_describe(char *buf, size_t cap, const char *path, cuzk_error *err);
/* file_describe, and for bellperson .params also bellperson_params_decode(NULL, ...) with
 * *check (NULL: no point checks); a line "points: ..." is added on success. */
struct bellperson_load_opts;
cuzk_status file_describe_ex(char *buf, size_t cap, const char *path, const struct bellperson_load_opts *check,
                             cuzk_error *err);

#endif
