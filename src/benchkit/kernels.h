/* Internal to src/benchkit: the per-curve table of the CPU kernel timings (src/benchkit/benchkit.h,
 * section 1). kernels_impl.h is written once over the unprefixed curve names and instantiated per
 * curve by kernels_bls12_381.c and kernels_bn254.c; kernels.c dispatches on the curve. */
#ifndef CUZK_BENCHKIT_KERNELS_H
#define CUZK_BENCHKIT_KERNELS_H

#include <stddef.h>
#include <stdint.h>

#include "benchkit/benchkit.h"

typedef struct benchkit_curve {
    cuzk_status (*op_time)(benchkit_op op, uint64_t iters, double *ns_per_op, cuzk_error *err);
    cuzk_status (*ntt_create)(void **h, int log_m, uint64_t seed, cuzk_error *err);
    cuzk_status (*ntt_run)(void *h, int nthreads, double *forward_ms, double *coset_inverse_ms);
    void (*ntt_free)(void *h);
    cuzk_status (*msm_create)(void **h, int group, size_t n_max, uint64_t seed, cuzk_error *err);
    /* n <= the n_max of create (checked by the caller) */
    void (*msm_run)(void *h, size_t n, benchkit_scalars kind, int nthreads, int xyzz, double *ms);
    void (*msm_free)(void *h);
    /* The checks of the GPU benchmarks' results (src/benchkit/gpu.c) by the CPU code of the curve:
     * CUZK_OK, or CUZK_ERR_DEVICE naming what differs (CUZK_ERR_NOMEM). group 1: G1, 2: G2. */
    void (*generator)(int group, void *out); /* affine, Montgomery */
    /* result (the group's Jacobian) = sum_i s_i base_i over the bench bases of src/cuda/gpu.h;
     * scalars n x 4 limbs, canonical or (montgomery) Montgomery */
    cuzk_status (*gpu_msm_check)(int group, const void *result, const uint64_t *scalars, size_t n, int montgomery,
                                 int nthreads, cuzk_error *err);
    /* y = the forward NTT of x (batch vectors of 2^log_m, Montgomery, the curve's bench roots), at
     * indices 0, 1, m - 1 and extra mod m of the first and last vector (naive sums) */
    cuzk_status (*gpu_ntt_check)(int log_m, size_t batch, const void *x, const void *y, uint64_t extra, int nthreads,
                                 cuzk_error *err);
    /* h = the H step (snarkjs 0: bellperson, 1: snarkjs) of rows a, b (ab: a then b, m each) and
     * c = a * b, by the polynomial identity at a random point (bellperson) or at sampled coset
     * points (snarkjs); seed draws them */
    cuzk_status (*gpu_h_check)(int snarkjs, int log_m, const void *ab, const void *h, uint64_t seed, int nthreads,
                               cuzk_error *err);
    /* points[i] = scalars[i] G (affine) at 64 indices: 0, n - 1 and 62 drawn from the seed rng */
    cuzk_status (*gpu_fixed_base_check)(int group, const uint64_t *scalars, const void *points, size_t n, uint64_t rng,
                                        cuzk_error *err);
} benchkit_curve;

extern const benchkit_curve benchkit_bls12_381;
extern const benchkit_curve benchkit_bn254;

#endif
