/* Fixed-base batch scalar multiplication on the GPU for `cuzk setup` (src/cuda/gpu.h:
 * gpu_g1_fixed_base, gpu_g2_fixed_base). Stub until the implementation lands. */
#include "cuda/ec.cuh"
#include "cuda/util.cuh"

using namespace cuzk_dev;

static cuzk_status fb_unsupported(cuzk_error *err, const char *what) {
    if (err) {
        err->code = CUZK_ERR_UNSUPPORTED;
        err->sys_errno = 0;
        err->cuda_error = 0;
        err->file = __FILE__;
        err->line = __LINE__;
        snprintf(err->msg, sizeof err->msg, "%s: not implemented yet", what);
    }
    return CUZK_ERR_UNSUPPORTED;
}

extern "C" cuzk_status gpu_g1_fixed_base(struct g1_affine *out, const struct g1_affine *gen,
                                         const struct fr *scalars, size_t n, cuzk_error *err) {
    (void)out; (void)gen; (void)scalars; (void)n;
    return fb_unsupported(err, "gpu_g1_fixed_base");
}

extern "C" cuzk_status gpu_g2_fixed_base(struct g2_affine *out, const struct g2_affine *gen,
                                         const struct fr *scalars, size_t n, cuzk_error *err) {
    (void)out; (void)gen; (void)scalars; (void)n;
    return fb_unsupported(err, "gpu_g2_fixed_base");
}

extern "C" cuzk_status gpu_h_bellperson_async(void *stream, struct fr *d_a, struct fr *d_b,
                                              struct fr *d_c, int log_m, cuzk_error *err) {
    (void)stream; (void)d_a; (void)d_b; (void)d_c; (void)log_m;
    return fb_unsupported(err, "gpu_h_bellperson_async");
}

extern "C" cuzk_status gpu_h_snarkjs_async(void *stream, struct fr *d_a, struct fr *d_b,
                                           struct fr *d_c, int log_m, cuzk_error *err) {
    (void)stream; (void)d_a; (void)d_b; (void)d_c; (void)log_m;
    return fb_unsupported(err, "gpu_h_snarkjs_async");
}

extern "C" size_t gpu_h_cache_bytes(void) { return 0; }
