/* GPU facilities of the public API that are not a prover: the device list (include/cuzk/prover.h:
 * cuzk_gpu_device_count, cuzk_gpu_device_info) over the device code's (src/cuda/gpu.h; builds
 * without CUDA answer CUZK_ERR_UNSUPPORTED), and the check of the MSM options (prove.h:
 * groth16_msm_opts_check). Compiled once (not curve-generic). */
#include "cuzk/prover.h"
#include "groth16/prove.h"

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

cuzk_status groth16_msm_opts_check(const cuzk_msm_opts *o, const char *who, cuzk_error *err) {
    if (!o) return CUZK_OK;
    if (o->accumulation != CUZK_GPU_MSM_ACCUM_DEFAULT && o->accumulation != CUZK_GPU_MSM_ACCUM_TASKS &&
        o->accumulation != CUZK_GPU_MSM_ACCUM_RUNS)
        return ERR(err, CUZK_ERR_ARG, "%s: unknown MSM accumulation %d (cuzk_gpu_msm_accum: 0 default, 1 tasks, "
                   "2 runs; 3, the batch-affine accumulation, was removed)", who, (int)o->accumulation);
    return CUZK_OK;
}
