/* Multi-scalar multiplication on the CPU: out = sum_i scalars[i] * bases[i], for G1 and G2 of every
 * curve (scalars < r < 2^255 for both BLS12-381 and BN254).
 *
 * Pippenger's bucket method with signed window digits (digits in [-2^(c-1), 2^(c-1)], so half
 * the buckets), window c chosen from n; affine buckets accumulated with batched affine additions
 * (one inversion per batch; msm_impl.h), reduced by the running-sum method. Multithreaded: windows x point ranges are split
 * over threads, partial results added at the end.
 * Source: Pippenger 1976; Bernstein, Doumen, Lange, Oosterwijk, "Faster batch forgery
 * identification" (2012) for the signed-digit bucket variant.
 *
 * scalars: n entries of 4 x 64-bit little-endian limbs, CANONICAL integers (< r, not Montgomery);
 *          bellperson and snarkjs both feed normal-form scalars to their MSMs.
 * bases:   n affine points (Montgomery coordinates), the point at infinity (0,0) allowed.
 * n = 0 gives infinity. nthreads <= 0 means cuzk_num_threads(). Thread-safety: reentrant.
 */
#ifndef CUZK_MSM_MSM_H
#define CUZK_MSM_MSM_H

#include <stddef.h>
#include <stdint.h>

typedef struct scalar256 { uint64_t l[4]; } scalar256;  /* canonical integer, little-endian limbs */

/* How the buckets are accumulated (benchmarks and tests compare them; the result is the same
 * point): MSM_ACCUM_AUTO (default) batched affine additions from the group's window threshold up
 * (G1: c >= 13, G2: c >= 11; measured in bench/RESULTS.md section 20), one XYZZ mixed addition
 * per point below; MSM_ACCUM_XYZZ and MSM_ACCUM_AFFINE force one of them. */
typedef enum msm_accum { MSM_ACCUM_AUTO = 0, MSM_ACCUM_XYZZ = 1, MSM_ACCUM_AFFINE = 2 } msm_accum;
typedef struct msm_opts { msm_accum accum; } msm_opts;  /* NULL / zeros: the defaults */

/* Declares <G>_msm(out, bases, scalars, n, nthreads) for the group G (g1, g2, bn254_g1,
 * bn254_g2); each curve's curve.h uses it, its msm.c defines them with MSM_DEFINE
 * (src/msm/msm_impl.h). Arguments may be macros (CN(g1)). */
#define MSM_DECLARE(G) MSM_DECLARE_(G)
#define MSM_DECLARE_(G)                                                                          \
    void G##_msm(G##_jacobian *out, const G##_affine *bases, const scalar256 *scalars, size_t n, \
                 int nthreads);                                                                  \
    void G##_msm_with(G##_jacobian *out, const G##_affine *bases, const scalar256 *scalars,      \
                      size_t n, int nthreads, const msm_opts *opts);

/* Window size (bits) that the MSMs use for n points; exposed for benchmarks. */
int msm_window_bits(size_t n);
/* Number of c-bit signed-digit windows covering a scalar < 2^255 (msm_impl.h). */
int msm_windows(int c);

#endif
