/* Device-side NTT plan, shared by the .cu files of src/cuda (the future fused H step uses it).
 * Not part of the C boundary. */
#ifndef CUZK_CUDA_NTT_INTERNAL_CUH
#define CUZK_CUDA_NTT_INTERNAL_CUH

#include <string.h>
#include <cuda_runtime.h>

#include "cuda/fields.cuh"
#include "cuzk/cuzk.h"

struct ntt_plan {
    int log_m, inverse, need_scale;
    uint32_t n_hi;
    cuzk_dev::fr_t *d_consts;  /* omega (or omega^-1), scale base, scale prefactor, one */
    cuzk_dev::fr_t *d_tw;      /* m/2 twiddles */
    cuzk_dev::fr_t *d_lo, *d_hi; /* scale tables (first halves), omega tables (second halves) */
};

/* Builds twiddles (and the coset / 1/m scale tables) for one transform; h_shift is a host
 * pointer to one Fr (Montgomery) or NULL. Synchronous allocations; kernels on stream 0. */
cuzk_status ntt_plan_init(ntt_plan *p, int log_m, int inverse, int roots,
                          const cuzk_dev::fr_t *h_shift, cuzk_error *err);
void ntt_plan_free(ntt_plan *p);
/* d_x (batch * 2^log_m elements) is read and clobbered; the result is written to d_y. */
cuzk_status ntt_plan_run(const ntt_plan *p, cuzk_dev::fr_t *d_y, cuzk_dev::fr_t *d_x, size_t batch,
                         cudaStream_t stream, cuzk_error *err);

#endif
