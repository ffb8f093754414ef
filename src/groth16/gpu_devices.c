/* The public device list (include/cuzk/prover.h: cuzk_gpu_device_count, cuzk_gpu_device_info) over
 * the device code's (src/cuda/gpu.h). Builds without CUDA answer CUZK_ERR_UNSUPPORTED. Compiled
 * once (not curve-generic). */
#include "cuzk/prover.h"

#include "util/log.h"
#ifdef CUZK_HAVE_CUDA
#include "cuda/gpu.h"
#endif

#define NO_CUDA(what) ERR(err, CUZK_ERR_UNSUPPORTED, "%s: this build has no CUDA backend (built without nvcc or with -DCUZK_CUDA=OFF)", what)

cuzk_status cuzk_gpu_device_count(int *count, cuzk_error *err) {
    if (!count) return ERR(err, CUZK_ERR_ARG, "cuzk_gpu_device_count: NULL argument");
    *count = 0;
#ifdef CUZK_HAVE_CUDA
    return gpu_device_count(count, err);
#else
    return NO_CUDA("cuzk_gpu_device_count");
#endif
}

cuzk_status cuzk_gpu_device_info(int device, char *buf, size_t cap, cuzk_error *err) {
    if (!buf || !cap || device < 0) return ERR(err, CUZK_ERR_ARG, "cuzk_gpu_device_info: NULL buffer or bad device");
    buf[0] = 0;
#ifdef CUZK_HAVE_CUDA
    return gpu_device_info(device, buf, cap, err);
#else
    return NO_CUDA("cuzk_gpu_device_info");
#endif
}
