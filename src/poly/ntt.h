/* Radix-2 NTT over BLS12-381 Fr on the CPU, multithreaded, and the Groth16 H polynomial in the
 * two conventions cuzk supports.
 *
 * A domain of size m = 2^log_m (1 <= log_m <= 28 here; the field allows 32) is built from a root
 * of unity of order 2^32: bellperson/blst use 7^t (BLS12_381_FR_ROOT_7_CANON), snarkjs 5^t
 * (BLS12_381_FR_ROOT_5_CANON); omega_m = root^(2^(32 - log_m)). Vectors are natural order in and
 * out, Montgomery form. Cooley-Tukey decimation-in-time with a bit-reversal permutation.
 */
#ifndef CUZK_POLY_NTT_H
#define CUZK_POLY_NTT_H

#include <stddef.h>
#include <stdint.h>

#include "cuzk/cuzk.h"
#include "ff/fields.h"

typedef enum { NTT_ROOTS_BELLPERSON = 0, NTT_ROOTS_SNARKJS = 1 } ntt_roots;

typedef struct ntt_domain {
    int log_m;
    size_t m;
    fr omega, omega_inv, m_inv;
    fr *twiddles;      /* m/2 powers omega^0..omega^(m/2-1), owned */
    fr *twiddles_inv;  /* m/2 powers of omega^-1, owned */
} ntt_domain;

/* *r = the primitive root of unity of order 2^log_n (0 <= log_n <= 32) of the convention, in
 * Montgomery form: root^(2^(32 - log_n)). Allocates nothing (for callers that need omega at sizes
 * whose twiddle tables they do not want, e.g. parameter generation at 2^27). */
void ntt_root_of_unity(fr *r, int log_n, ntt_roots roots);

/* CUZK_OK, CUZK_ERR_ARG (log_m out of range), CUZK_ERR_NOMEM. */
cuzk_status ntt_domain_init(ntt_domain *d, int log_m, ntt_roots roots);
void ntt_domain_free(ntt_domain *d);

/* a (m values) <- NTT(a): a_j <- sum_i a_i omega^(ij). */
void ntt_forward(const ntt_domain *d, fr *a, int nthreads);
/* a <- iNTT(a): a_i <- (1/m) sum_j a_j omega^(-ij). */
void ntt_inverse(const ntt_domain *d, fr *a, int nthreads);
/* Coset NTT: evaluations at shift*omega^j of the polynomial with coefficients a: multiply a_i by
 * shift^i, then NTT. */
void ntt_coset_forward(const ntt_domain *d, fr *a, const fr *shift, int nthreads);
/* Inverse of ntt_coset_forward: iNTT, then multiply coefficient i by shift^(-i). */
void ntt_coset_inverse(const ntt_domain *d, fr *a, const fr *shift, int nthreads);

/* H, bellperson convention (DESIGN.md section 4, step 5): a, b, c hold the n <= m row
 * evaluations followed by zeros up to m (each an m-array). On return a holds the m coefficients of
 * h = (A*B - C)/Z on the domain (h_{m-1} = 0 for a satisfying witness); b and c are clobbered.
 * Coset shift g = 7, Z(g*omega^j) = g^m - 1. */
void h_bellperson(const ntt_domain *d, fr *a, fr *b, fr *c, int nthreads);

/* H, snarkjs convention (FORMATS.md section 5): a, b are the m row evaluations of A and B
 * (c is scratch, m entries). On return a[j] = A(g w^j) B(g w^j) - C(g w^j) with C = A*B on the
 * rows and g = omega_2m (snarkjs's roots), Montgomery form, j = 0..m-1: the scalars of the H MSM.
 * The domain d must be built with NTT_ROOTS_SNARKJS and log_m + 1 <= 32. */
void h_snarkjs(const ntt_domain *d, fr *a, fr *b, fr *c, int nthreads);

#endif
