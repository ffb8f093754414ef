/* Per-curve NTT declarations (X-include template, no include guard). Include with CURVE_NS
 * defined and, from the curve's generated constants:
 *   NTT_TWO_ADICITY            s, with r - 1 = 2^s t, t odd
 *   NTT_ROOT_SNARKJS_CANON     nqr^t (canonical limbs): snarkjs's root of unity of order 2^s
 *   NTT_ROOT_BELLPERSON_CANON  optional: 7^t, bellperson's root; without it the curve has only the
 *                              snarkjs convention (ntt_domain_init refuses NTT_ROOTS_BELLPERSON and
 *                              h_bellperson is not declared)
 *   NTT_BELLPERSON_COSET_SHIFT with the former: the coset shift of h_bellperson (7)
 * See src/poly/ntt.h for the conventions.
 */
#include "ff/ns.h"
#include "poly/ntt.h"

typedef struct CN(ntt_domain) {
    int log_m;
    size_t m;
    CN(fr) omega, omega_inv, m_inv;
    CN(fr) *twiddles;      /* m/2 powers omega^0..omega^(m/2-1), owned */
    CN(fr) *twiddles_inv;  /* m/2 powers of omega^-1, owned */
} CN(ntt_domain);

/* *r = the primitive root of unity of order 2^log_n (0 <= log_n <= s) of the convention, in
 * Montgomery form: root^(2^(s - log_n)). Allocates nothing (for callers that need omega at sizes
 * whose twiddle tables they do not want, e.g. parameter generation at 2^27). */
void CN(ntt_root_of_unity)(CN(fr) *r, int log_n, ntt_roots roots);

/* *r = the coset shift g of the H computation of the convention for a domain of size 2^log_m,
 * Montgomery form: bellperson 7 (the multiplicative generator), snarkjs omega_2m (the root of order
 * 2^(log_m + 1); log_m + 1 <= s). Allocates nothing. */
void CN(h_coset_shift)(CN(fr) *r, int log_m, ntt_roots roots);

/* CUZK_OK, CUZK_ERR_ARG (log_m out of range), CUZK_ERR_NOMEM. */
cuzk_status CN(ntt_domain_init)(CN(ntt_domain) *d, int log_m, ntt_roots roots);
void CN(ntt_domain_free)(CN(ntt_domain) *d);

/* a (m values) <- NTT(a): a_j <- sum_i a_i omega^(ij). */
void CN(ntt_forward)(const CN(ntt_domain) *d, CN(fr) *a, int nthreads);
/* a <- iNTT(a): a_i <- (1/m) sum_j a_j omega^(-ij). */
void CN(ntt_inverse)(const CN(ntt_domain) *d, CN(fr) *a, int nthreads);
/* Coset NTT: evaluations at shift*omega^j of the polynomial with coefficients a: multiply a_i by
 * shift^i, then NTT. */
void CN(ntt_coset_forward)(const CN(ntt_domain) *d, CN(fr) *a, const CN(fr) *shift, int nthreads);
/* Inverse of ntt_coset_forward: iNTT, then multiply coefficient i by shift^(-i). */
void CN(ntt_coset_inverse)(const CN(ntt_domain) *d, CN(fr) *a, const CN(fr) *shift, int nthreads);

#ifdef NTT_ROOT_BELLPERSON_CANON
/* H, bellperson convention (DESIGN.md section 4, step 5): a, b, c hold the n <= m row
 * evaluations followed by zeros up to m (each an m-array). On return a holds the m coefficients of
 * h = (A*B - C)/Z on the domain (h_{m-1} = 0 for a satisfying witness); b and c are clobbered.
 * Coset shift g = 7, Z(g*omega^j) = g^m - 1. */
void CN(h_bellperson)(const CN(ntt_domain) *d, CN(fr) *a, CN(fr) *b, CN(fr) *c, int nthreads);
#endif

/* H, snarkjs convention (FORMATS.md section 5): a, b are the m row evaluations of A and B
 * (c is scratch, m entries). On return a[j] = A(g w^j) B(g w^j) - C(g w^j) with C = A*B on the
 * rows and g = omega_2m (snarkjs's roots), Montgomery form, j = 0..m-1: the scalars of the H MSM.
 * The domain d must be built with NTT_ROOTS_SNARKJS and log_m + 1 <= s. */
void CN(h_snarkjs)(const CN(ntt_domain) *d, CN(fr) *a, CN(fr) *b, CN(fr) *c, int nthreads);

