/* Internal helpers shared by the .cu files of src/cuda: status mapping, checked CUDA calls,
 * launch checks with the CUZK_CUDA_SYNC=1 debug switch. Not part of the C boundary. */
#ifndef CUZK_CUDA_UTIL_CUH
#define CUZK_CUDA_UTIL_CUH

#include <cuda_runtime.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "cuda/gpu.h"

namespace cuzk_dev {

/* Fill err (if any) for a CUDA failure; returns the mapped status. */
static inline cuzk_status gpu_fail(cuzk_error *err, cudaError_t e, const char *file, int line,
                                   const char *what) {
    cuzk_status st;
    if (e == cudaErrorMemoryAllocation) st = CUZK_ERR_NOMEM_DEVICE;
    else if (e == cudaErrorNoDevice || e == cudaErrorInsufficientDriver) st = CUZK_ERR_UNSUPPORTED;
    else st = CUZK_ERR_DEVICE;
    if (err) {
        err->code = st;
        err->sys_errno = 0;
        err->cuda_error = (int)e;
        err->file = file;
        err->line = line;
        snprintf(err->msg, sizeof err->msg, "%s: %s (%s)", what, cudaGetErrorString(e),
                 cudaGetErrorName(e));
    }
    (void)cudaGetLastError(); /* clear a non-sticky error */
    return st;
}

static inline cuzk_status gpu_arg_error(cuzk_error *err, const char *file, int line, const char *msg) {
    if (err) {
        err->code = CUZK_ERR_ARG;
        err->sys_errno = 0;
        err->cuda_error = 0;
        err->file = file;
        err->line = line;
        snprintf(err->msg, sizeof err->msg, "%s", msg);
    }
    return CUZK_ERR_ARG;
}

/* CUZK_CUDA_SYNC is read here on purpose (not a tuning knob, and not an API option): a debugging
 * switch that makes a device fault surface at the launch that caused it, in any program and
 * entry point, without rebuilding; results never depend on it. */
static inline bool gpu_sync_debug() {
    static int v = -1;
    if (v < 0) {
        const char *s = getenv("CUZK_CUDA_SYNC");
        v = (s && *s && *s != '0') ? 1 : 0;
    }
    return v == 1;
}

/* After every launch: the launch error, and with CUZK_CUDA_SYNC=1 the execution error. */
static inline cudaError_t gpu_launch_check() {
    cudaError_t e = cudaGetLastError();
    if (e == cudaSuccess && gpu_sync_debug()) e = cudaDeviceSynchronize();
    return e;
}

}  // namespace cuzk_dev

/* In a function with `cuzk_status st` and `cuzk_error *err` and an `out:` cleanup label. */
#define CU(call)                                                                          \
    do {                                                                                  \
        cudaError_t e_ = (call);                                                          \
        if (e_ != cudaSuccess) {                                                          \
            st = cuzk_dev::gpu_fail(err, e_, __FILE__, __LINE__, #call);                  \
            goto out;                                                                     \
        }                                                                                 \
    } while (0)
#define CU_LAUNCH(what)                                                                   \
    do {                                                                                  \
        cudaError_t e_ = cuzk_dev::gpu_launch_check();                                    \
        if (e_ != cudaSuccess) {                                                          \
            st = cuzk_dev::gpu_fail(err, e_, __FILE__, __LINE__, "launch " what);         \
            goto out;                                                                     \
        }                                                                                 \
    } while (0)
#define GPU_ARG(cond, msg)                                                                \
    do {                                                                                  \
        if (!(cond)) return cuzk_dev::gpu_arg_error(err, __FILE__, __LINE__, msg);        \
    } while (0)

#endif
