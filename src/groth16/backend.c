/* The backend of parameter generation (src/groth16/backend.h): resolution, compiled once; the
 * per-curve fixed-base hook is in backend_impl.h. */
#include "groth16/backend.h"

#include "util/log.h"
#ifdef CUZK_HAVE_CUDA
#include "cuda/gpu.h"
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
