/* srs_gpu_ops, srs_gpu_ops_b_g2 (store.h): the SRS store's device hooks over the GPU prover's
 * resident SRS (src/groth16/gpu_prover.h). */
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
/* ctx: the device ordinal, plus SRS_GPU_B_G2 when the copy holds the B_G2 query too */
#define SRS_GPU_B_G2 0x100
static unsigned ops_parts(void *ctx) { return ((intptr_t)ctx & SRS_GPU_B_G2) ? GROTH16_GPU_SRS_B_G2 : 0; }
static int ops_device(void *ctx) { return (int)((intptr_t)ctx & (SRS_GPU_B_G2 - 1)); }
static size_t ops_device_bytes(void *ctx, const bellperson_params *params) {
    return groth16_gpu_srs_bytes_for(params, ops_parts(ctx));
}
static cuzk_status ops_upload(void *ctx, void **d_handle, size_t *bytes, const bellperson_params *params, cuzk_error *err) {
    groth16_gpu_srs *srs = NULL;
    cuzk_status st = groth16_gpu_srs_create(&srs, params, ops_device(ctx), ops_parts(ctx), err);
    *d_handle = srs;
    *bytes = groth16_gpu_srs_bytes(srs);
    return st;
}
static void ops_device_free(void *ctx, void *d_handle, size_t bytes) {
    (void)ctx;
    (void)bytes;
    groth16_gpu_srs_free(d_handle);
}
static srs_device_ops g_srs_ops[2][SRS_GPU_MAX_DEVICES]; /* [with B_G2][device] */
static pthread_once_t g_srs_ops_once = PTHREAD_ONCE_INIT;
static void srs_ops_init(void) {
    for (int b2 = 0; b2 < 2; b2++)
        for (int d = 0; d < SRS_GPU_MAX_DEVICES; d++) {
            srs_device_ops o = {(void *)(intptr_t)(d | (b2 ? SRS_GPU_B_G2 : 0)), ops_pinned_alloc, ops_pinned_free,
                                ops_device_bytes, ops_upload, ops_device_free};
            g_srs_ops[b2][d] = o;
        }
}
const srs_device_ops *srs_gpu_ops(int device) {
    if (device < 0 || device >= SRS_GPU_MAX_DEVICES) return NULL;
    pthread_once(&g_srs_ops_once, srs_ops_init);
    return &g_srs_ops[0][device];
}
const srs_device_ops *srs_gpu_ops_b_g2(int device) {
    if (device < 0 || device >= SRS_GPU_MAX_DEVICES) return NULL;
    pthread_once(&g_srs_ops_once, srs_ops_init);
    return &g_srs_ops[1][device];
}

#else

const srs_device_ops *srs_gpu_ops(int device) {
    (void)device;
    return NULL;
}
const srs_device_ops *srs_gpu_ops_b_g2(int device) {
    (void)device;
    return NULL;
}

#endif
