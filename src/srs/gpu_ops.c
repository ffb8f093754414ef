/* srs_gpu_ops (store.h): the SRS store's device hooks over the GPU prover's resident SRS
 * (src/groth16/gpu_prover.h). */
#include "srs/store.h"

#include <pthread.h>
#include <stdint.h>

#include "groth16/gpu_prover.h"

#ifdef CUZK_HAVE_CUDA

#define SRS_GPU_MAX_DEVICES 16

static void *ops_pinned_alloc(void *ctx, size_t bytes) {
    (void)ctx;
    void *p = NULL;
    cuzk_error e = {0};
    return groth16_gpu_pinned_alloc(&p, bytes, &e) == CUZK_OK ? p : NULL;
}
static void ops_pinned_free(void *ctx, void *h_ptr, size_t bytes) {
    (void)ctx;
    (void)bytes;
    groth16_gpu_pinned_free(h_ptr);
}
static cuzk_status ops_upload(void *ctx, void **d_handle, size_t *bytes, const bellperson_params *params, cuzk_error *err) {
    groth16_gpu_srs *srs = NULL;
    cuzk_status st = groth16_gpu_srs_create(&srs, params, (int)(intptr_t)ctx, err);
    *d_handle = srs;
    *bytes = groth16_gpu_srs_bytes(srs);
    return st;
}
static void ops_device_free(void *ctx, void *d_handle, size_t bytes) {
    (void)ctx;
    (void)bytes;
    groth16_gpu_srs_free(d_handle);
}
static srs_device_ops g_srs_ops[SRS_GPU_MAX_DEVICES];
static pthread_once_t g_srs_ops_once = PTHREAD_ONCE_INIT;
static void srs_ops_init(void) {
    for (int d = 0; d < SRS_GPU_MAX_DEVICES; d++) {
        srs_device_ops o = {(void *)(intptr_t)d, ops_pinned_alloc, ops_pinned_free, NULL, ops_upload, ops_device_free};
        g_srs_ops[d] = o;
    }
}
const srs_device_ops *srs_gpu_ops(int device) {
    if (device < 0 || device >= SRS_GPU_MAX_DEVICES) return NULL;
    pthread_once(&g_srs_ops_once, srs_ops_init);
    return &g_srs_ops[device];
}

#else

const srs_device_ops *srs_gpu_ops(int device) {
    (void)device;
    return NULL;
}

#endif
