/* The backend of parameter generation (src/groth16/backend.h). */
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
/* Compiled once per curve (CMakeLists.txt, CUZK_CURVE_GENERIC_SRC). The device fixed-base kernels
 * are BLS12-381 only: the BN254 compile computes its points with the CPU comb on either backend
 * (the same bytes; noted once at INFO when the GPU was asked for). */
#if defined(CUZK_HAVE_CUDA) && CUZK_GPU_FIXED_BASE && !defined(CUZK_CURVE_BOUND_BN254)
#define GPU_FB 1
#else
#define GPU_FB 0
#endif

const char *groth16_backend_name(groth16_backend b) { return b == GROTH16_BACKEND_GPU ? "gpu" : "cpu"; }

cuzk_status groth16_backend_resolve(cuzk_backend requested, groth16_backend *out, cuzk_error *err) {
    *out = GROTH16_BACKEND_CPU;
    if (requested == CUZK_BACKEND_CPU) return CUZK_OK;
    int count = 0;
#ifdef CUZK_HAVE_CUDA
    cuzk_error gerr = {0};
    if (gpu_device_count(&count, &gerr) != CUZK_OK) count = 0;
#endif
    if (count > 0) {
        *out = GROTH16_BACKEND_GPU;
        return CUZK_OK;
    }
    if (requested == CUZK_BACKEND_GPU) {
#ifdef CUZK_HAVE_CUDA
        return ERR(err, CUZK_ERR_DEVICE, "--backend gpu: no CUDA device found");
#else
        return ERR(err, CUZK_ERR_DEVICE, "--backend gpu: this build has no CUDA backend (built without nvcc or with -DCUZK_CUDA=OFF)");
#endif
    }
#ifdef CUZK_HAVE_CUDA
    cuzk_log(CUZK_LOG_INFO, "no GPU found: proving on the CPU");
#else
    cuzk_log(CUZK_LOG_INFO, "this build has no CUDA backend: proving on the CPU");
#endif
    return CUZK_OK;
}

#ifndef CUZK_CURVE_BOUND_BN254 /* the public function: one copy (the BLS12-381 compile) */
cuzk_status cuzk_backend_resolve(cuzk_backend requested, cuzk_backend *out, cuzk_error *err) {
    if (!out) return ERR(err, CUZK_ERR_ARG, "cuzk_backend_resolve: NULL argument");
    *out = CUZK_BACKEND_CPU;
    if (requested != CUZK_BACKEND_AUTO && requested != CUZK_BACKEND_CPU && requested != CUZK_BACKEND_GPU)
        return ERR(err, CUZK_ERR_ARG, "cuzk_backend_resolve: unknown backend %d", (int)requested);
    groth16_backend b;
    cuzk_status st = groth16_backend_resolve(requested, &b, err);
    if (st == CUZK_OK) *out = b == GROTH16_BACKEND_GPU ? CUZK_BACKEND_GPU : CUZK_BACKEND_CPU;
    return st;
}
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
#elif defined(CUZK_CURVE_BOUND_BN254)
static _Atomic int g_fb_cpu_noted;
static void note_cpu_points(groth16_backend be) {
    if (be == GROTH16_BACKEND_GPU && !atomic_exchange(&g_fb_cpu_noted, 1))
        cuzk_log(CUZK_LOG_INFO, "BN254 setup: the GPU fixed-base kernels are BLS12-381 only: points on the CPU");
}
#endif

cuzk_status groth16_g1_fixed_base(groth16_backend be, g1_affine *out, const g1_affine *gen, const fr *scalars, size_t n,
                                  int nthreads, cuzk_error *err) {
    (void)be; /* builds without CUDA compute on the CPU whatever be says */
    if (n == 0) return CUZK_OK;
    if (!out || !gen || !scalars) return ERR(err, CUZK_ERR_ARG, "g1 fixed-base: NULL argument");
#if !GPU_FB && defined(CUZK_CURVE_BOUND_BN254)
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
    if (!g1s_fixed_base_mul(out, gen, scalars, n, nthreads))
        return ERR(err, CUZK_ERR_NOMEM, "g1 fixed-base: cannot allocate the comb table or scratch");
    return CUZK_OK;
}

cuzk_status groth16_g2_fixed_base(groth16_backend be, g2_affine *out, const g2_affine *gen, const fr *scalars, size_t n,
                                  int nthreads, cuzk_error *err) {
    (void)be; /* builds without CUDA compute on the CPU whatever be says */
    if (n == 0) return CUZK_OK;
    if (!out || !gen || !scalars) return ERR(err, CUZK_ERR_ARG, "g2 fixed-base: NULL argument");
#if !GPU_FB && defined(CUZK_CURVE_BOUND_BN254)
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
    if (!g2s_fixed_base_mul(out, gen, scalars, n, nthreads))
        return ERR(err, CUZK_ERR_NOMEM, "g2 fixed-base: cannot allocate the comb table or scratch");
    return CUZK_OK;
}
