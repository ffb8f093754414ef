/* The lean H of the memory plan (src/groth16/memplan.h): the Groth16 H step of bellperson on two
 * device vectors, c waiting in page-locked host memory (issue 23: a 2^27 circuit on a 16 GiB
 * card). Part of the src/cuda boundary (plain C, extern "C"; conventions of src/cuda/gpu.h).
 * Implementation: src/cuda/gpu_ntt.cu. */
#ifndef CUZK_CUDA_GPU_H_PARKED_H
#define CUZK_CUDA_GPU_H_PARKED_H

#include "cuda/gpu.h"

#ifdef __cplusplus
extern "C" {
#endif

/* gpu_h_bellperson_roots_async with c in host memory: d_a, d_b DEVICE (2^log_m Fr each, natural-
 * order evaluations a, b, Montgomery), h_c HOST (page-locked, 2^log_m Fr, c; read by a copy on
 * `stream`, so it must stay unchanged until the stream passes it). Enqueued on `stream`: a and b
 * to coefficients and to the coset, a = a * b, c copied into d_b, c to coefficients and to the
 * coset, a = (a - c) / Z, a back to coefficients: d_a gets the h coefficients exactly as
 * gpu_h_bellperson_roots_async's d_a; d_b is scratch. Same device tables, same errors
 * (CUZK_ERR_ARG: log_m out of [1, 28], bad roots, NULL or overlapping vectors). */
cuzk_status gpu_h_bellperson_parked_async(void *stream, struct fr *d_a, struct fr *d_b, const struct fr *h_c, int log_m,
                                          gpu_roots roots, cuzk_error *err);

#ifdef __cplusplus
}
#endif
#endif
