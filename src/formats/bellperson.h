/* bellperson Groth16 parameter files (.params, .vk) and the 192-byte proof (DESIGN.md section 5).
 *
 * .params (no header, u32 counts big-endian, points zcash-uncompressed, none at infinity):
 *   vk: alpha_g1, beta_g1, beta_g2, gamma_g2, delta_g1, delta_g2; u32 n_ic + ic (G1);
 *   u32 + h (G1); u32 + l (G1); u32 + a (G1); u32 + b_g1 (G1); u32 + b_g2 (G2).
 * .vk is the vk part alone (through ic).
 * proof: A compressed G1 (48) | B compressed G2 (96) | C compressed G1 (48).
 *
 * Loading validates every point (canonical, on curve; subgroup unless check_subgroup is false)
 * and names the section and index of the first bad one (CUZK_ERR_POINT). A size check against
 * the header counts gives CUZK_ERR_FORMAT for truncated or oversized files. Arrays are owned
 * host memory; bellperson_params_free releases them. Not thread-safe per object.
 */
#ifndef CUZK_FORMATS_BELLPERSON_H
#define CUZK_FORMATS_BELLPERSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cuzk/cuzk.h"
#include "formats/json.h"

typedef struct bellperson_params {
    groth16_vk vk;            /* alpha1, beta1, beta2, gamma2, delta1, delta2, ic */
    uint32_t n_h, n_l, n_a, n_b_g1, n_b_g2;
    g1_affine *h;             /* n_h = m - 1: [tau^i Z(tau)/delta]_1 */
    g1_affine *l;             /* n_l = aux variables */
    g1_affine *a;             /* inputs then A-dense aux */
    g1_affine *b_g1;          /* B-dense inputs then B-dense aux */
    g2_affine *b_g2;
} bellperson_params;

cuzk_status bellperson_params_write(const char *path, const bellperson_params *p, cuzk_error *err);
cuzk_status bellperson_params_load(bellperson_params *p, const char *path, bool check_subgroup, cuzk_error *err);
void bellperson_params_free(bellperson_params *p);

cuzk_status bellperson_vk_write(const char *path, const groth16_vk *vk, cuzk_error *err);

/* Streaming writer: a .params (or .vk) file written piece by piece in file order, so that a
 * generator can write each point list as soon as it is computed and free it (parameter
 * generation at 2^27 does not hold all 47 GB at once). Usage:
 *   open; vk; then for each of h, l, a, b_g1: count(n) + g1s(...) (one or several calls
 *   totalling n points); count(n) + g2s(...) for b_g2; close.
 * The writer does not check that the counts match the points that follow (the loader does).
 * g1s/g2s encode zcash-uncompressed big-endian points in blocks over nthreads threads (<= 0: all
 * CPUs). Write errors are sticky: the calls after one do nothing, and close reports it
 * (CUZK_ERR_IO with errno). close always closes the file and frees w; the caller removes a
 * partial file. Not thread-safe per writer. */
typedef struct bellperson_writer bellperson_writer;
cuzk_status bellperson_writer_open(bellperson_writer **w, const char *path, cuzk_error *err);
void bellperson_writer_vk(bellperson_writer *w, const groth16_vk *vk); /* 6 points, u32 + ic */
void bellperson_writer_count(bellperson_writer *w, uint32_t n);        /* u32 big-endian */
void bellperson_writer_g1s(bellperson_writer *w, const g1_affine *p, size_t n, int nthreads);
void bellperson_writer_g2s(bellperson_writer *w, const g2_affine *p, size_t n, int nthreads);
uint64_t bellperson_writer_bytes(const bellperson_writer *w);          /* written so far */
cuzk_status bellperson_writer_close(bellperson_writer *w, const char *path, cuzk_error *err);
cuzk_status bellperson_vk_load(groth16_vk *vk, const char *path, cuzk_error *err);

#define BELLPERSON_PROOF_BYTES 192
void bellperson_proof_encode(uint8_t out[192], const groth16_proof *p);
/* CUZK_ERR_FORMAT for a bad encoding, CUZK_ERR_POINT if off-curve or not in the subgroup. */
cuzk_status bellperson_proof_decode(groth16_proof *p, const uint8_t in[192], cuzk_error *err);

#endif
