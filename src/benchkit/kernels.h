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
} benchkit_curve;

extern const benchkit_curve benchkit_bls12_381;
extern const benchkit_curve benchkit_bn254;

#endif
