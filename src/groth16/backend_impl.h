/* The fixed-base hook of parameter generation (src/groth16/backend.h) for one curve: a template,
 * instantiated per curve (src/groth16/groth16_<curve>.c); every curve-dependent name is CN(name). */
#include "groth16/backend.h"

#include <stdatomic.h>

#include "curves/curve.h"
#include "util/log.h"
#ifdef CUZK_HAVE_CUDA
#include "cuda/gpu.h"
#endif

/* The GPU fixed-base path (gpu_g1/g2_fixed_base of src/cuda/gpu.h). Build with
 * -DCUZK_GPU_FIXED_BASE=0 to keep parameter generation on the CPU comb with --backend gpu. */
#ifndef CUZK_GPU_FIXED_BASE
#define CUZK_GPU_FIXED_BASE 1
#endif
/* The device fixed-base kernels are BLS12-381's only (CURVE_GPU_FIXED_BASE): BN254 computes its
 * points with the CPU comb on either backend (the same bytes; noted once at INFO when the GPU was
 * asked for). */
#undef GPU_FB
#if defined(CUZK_HAVE_CUDA) && CUZK_GPU_FIXED_BASE && CURVE_GPU_FIXED_BASE
#define GPU_FB 1
#else
#define GPU_FB 0
#endif

#if GPU_FB
/* A build whose CUDA side does not implement fixed-base yet answers CUZK_ERR_UNSUPPORTED: the
 * CPU comb computes the same bytes, so fall back to it (noted once at INFO). */
static _Atomic int g_fb_fallback_noted;
static bool gpu_fb_fallback(cuzk_status st, const cuzk_error *gerr) {
    if (st != CUZK_ERR_UNSUPPORTED) return false;
    if (!atomic_exchange(&g_fb_fallback_noted, 1))
        cuzk_log(CUZK_LOG_INFO, "GPU fixed-base unavailable (%s): points on the CPU", gerr->msg);
    return true;
}
#elif !CURVE_GPU_FIXED_BASE
static _Atomic int g_fb_cpu_noted;
static void note_cpu_points(groth16_backend be) {
    if (be == GROTH16_BACKEND_GPU && !atomic_exchange(&g_fb_cpu_noted, 1))
        cuzk_log(CUZK_LOG_INFO, "%s setup: the GPU fixed-base kernels are BLS12-381 only: points on the CPU", CURVE_NAME);
}
#endif

cuzk_status CN(groth16_g1_fixed_base)(groth16_backend be, CN(g1_affine) *out, const CN(g1_affine) *gen, const CN(fr) *scalars, size_t n,
                                      int nthreads, cuzk_error *err) {
    (void)be; /* builds without CUDA compute on the CPU whatever be says */
    if (n == 0) return CUZK_OK;
    if (!out || !gen || !scalars) return ERR(err, CUZK_ERR_ARG, "g1 fixed-base: NULL argument");
#if !GPU_FB && !CURVE_GPU_FIXED_BASE
    note_cpu_points(be);
#endif
#if GPU_FB
    if (be == GROTH16_BACKEND_GPU) {
        cuzk_error gerr = {0};
        cuzk_status st = gpu_g1_fixed_base(out, gen, scalars, n, &gerr);
        if (!gpu_fb_fallback(st, &gerr)) {
            if (st != CUZK_OK && err) *err = gerr;
            return st;
        }
    }
#endif
    if (!CN(g1s_fixed_base_mul)(out, gen, scalars, n, nthreads))
        return ERR(err, CUZK_ERR_NOMEM, "g1 fixed-base: cannot allocate the comb table or scratch");
    return CUZK_OK;
}

cuzk_status CN(groth16_g2_fixed_base)(groth16_backend be, CN(g2_affine) *out, const CN(g2_affine) *gen, const CN(fr) *scalars, size_t n,
                                      int nthreads, cuzk_error *err) {
    (void)be; /* builds without CUDA compute on the CPU whatever be says */
    if (n == 0) return CUZK_OK;
    if (!out || !gen || !scalars) return ERR(err, CUZK_ERR_ARG, "g2 fixed-base: NULL argument");
#if !GPU_FB && !CURVE_GPU_FIXED_BASE
    note_cpu_points(be);
#endif
#if GPU_FB
    if (be == GROTH16_BACKEND_GPU) {
        cuzk_error gerr = {0};
        cuzk_status st = gpu_g2_fixed_base(out, gen, scalars, n, &gerr);
        if (!gpu_fb_fallback(st, &gerr)) {
            if (st != CUZK_OK && err) *err = gerr;
            return st;
        }
    }
#endif
    if (!CN(g2s_fixed_base_mul)(out, gen, scalars, n, nthreads))
        return ERR(err, CUZK_ERR_NOMEM, "g2 fixed-base: cannot allocate the comb table or scratch");
    return CUZK_OK;
}
