/* Fixed-base batch scalar multiplication on the CPU: out[i] = scalars[i] * gen for one base.
 *
 * Algorithm: a byte-wise comb (Lim-Lee / "fixed-base windowing" with w = 8): a table of
 * 32 x 256 affine points T[k][j] = j * 2^(8k) * gen is built once per call (32 x 255 Jacobian
 * additions and one batch inversion per row, rows in parallel), then every scalar (canonical,
 * 32 bytes) costs at most 32 mixed XYZZ additions (one per nonzero byte; cheaper than Jacobian
 * ones) and no doubling. Results are converted to affine in blocks of FIXED_BASE_BLOCK points with
 * one field inversion each (Montgomery's trick), so scratch is O(nthreads * FIXED_BASE_BLOCK)
 * points, never O(n).
 * Source: C. H. Lim, P. J. Lee, "More flexible exponentiation with precomputation", CRYPTO 1994;
 * the table layout is the one of the former src/groth16/setup.c.
 *
 * out:     n affine points (Montgomery coordinates, host memory); (0, 0) where scalars[i] = 0 or
 *          gen is the point at infinity. Affine coordinates are unique, so the bytes equal
 *          g1_mul_fr_vartime followed by g1_jacobian_to_affine (and those of any other correct method,
 *          e.g. the GPU's gpu_g1_fixed_base).
 * gen:     one affine point on the curve (not checked).
 * scalars: n elements of Fr in Montgomery form (host). out and scalars must not overlap.
 * nthreads <= 0: cuzk_num_threads(). Work is split in equal contiguous ranges.
 * Returns false only when the table or the per-thread scratch cannot be allocated (out is then
 * unspecified); n = 0 returns true at once. Thread-safety: reentrant.
 */
#ifndef CUZK_MSM_FIXED_BASE_H
#define CUZK_MSM_FIXED_BASE_H

#include <stdbool.h>
#include <stddef.h>

#include <stdbool.h>
#include <stddef.h>

#define FIXED_BASE_BLOCK 256

/* Declares <G>s_fixed_base_mul for the group G with scalars in FR (g1/fr, bn254_g2/bn254_fr...);
 * arguments may be macros. Defined by FIXED_BASE_DEFINE (src/msm/fixed_base_impl.h). */
#define FIXED_BASE_DECLARE(G, FR) FIXED_BASE_DECLARE_(G, FR)
#define FIXED_BASE_DECLARE_(G, FR)                                                               \
    bool G##s_fixed_base_mul(G##_affine *out, const G##_affine *gen, const FR *scalars, size_t n, \
                             int nthreads);

#endif
