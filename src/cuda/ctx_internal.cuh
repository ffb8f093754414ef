/* The device context (src/cuda/gpu.h: gpu_ctx) as the .cu files of src/cuda see it: the struct,
 * the dead-context bookkeeping, and checked-call macros that route every CUDA failure through
 * ctx_fail (sticky faults mark the ctx dead; OOM is cleared and leaves it usable).
 * Not part of the C boundary. Implementation: src/cuda/gpu_ctx.cu. */
#ifndef CUZK_CUDA_CTX_INTERNAL_CUH
#define CUZK_CUDA_CTX_INTERNAL_CUH

#include <atomic>

#include "cuda/util.cuh"

/* The ctx's arena (gpu.h gpu_ctx_arena_set): one cudaMalloc used as a stack of blocks. */
struct gpu_arena {
    char *base;                          /* NULL: no arena (temporaries from the pool) */
    size_t cap, top, high;
    enum { MAX_BLOCKS = 1024 };
    struct block {
        size_t off, bytes;
        bool freed;
    } blk[MAX_BLOCKS];
    int nblk;
    uint64_t overflows;                  /* allocations that went to the pool */
};

struct gpu_ctx {
    int device;
    cudaStream_t stream;
    cudaStream_t copy_stream;            /* streamed MSMs' host -> device copies (made on first use) */
    gpu_arena arena;
    cudaMemPool_t pool;                  /* the device's default pool */
    std::atomic<int> dead;               /* 0 alive, 1 being marked, 2 dead (dead_msg set) */
    char dead_msg[400];                  /* the first sticky error, written once (0 -> 1 -> 2) */
    int dead_cuda_error;
    std::atomic<size_t> resident_bytes;  /* gpu_g1_bases alive on this ctx */
    int sm_count;
    void *h_small;                       /* pinned host scratch (MSM counts and results) */
    size_t h_small_bytes;
};

namespace cuzk_dev {

/* Fill err (if any) with a non-CUDA failure; returns code. (cuzk_error_set lives in the host
 * library, which the standalone GPU benchmark does not link.) */
static inline cuzk_status dev_error(cuzk_error *err, cuzk_status code, const char *file, int line, const char *fmt,
                                    ...) {
    if (err) {
        va_list ap;
        err->code = code;
        err->sys_errno = 0;
        err->cuda_error = 0;
        err->file = file;
        err->line = line;
        va_start(ap, fmt);
        vsnprintf(err->msg, sizeof err->msg, fmt, ap);
        va_end(ap);
    }
    return code;
}

/* True for the CUDA errors after which the CUDA context of the process is unusable. */
bool cuda_error_is_sticky(cudaError_t e);

/* Map a CUDA failure on ctx to a status (filling err like gpu_fail); a sticky fault marks ctx dead
 * (the first one's description is kept). OOM and other non-sticky errors are cleared. */
cuzk_status ctx_fail(gpu_ctx *ctx, cuzk_error *err, cudaError_t e, const char *file, int line, const char *what);

/* CUZK_ERR_DEVICE with "GPU context is dead since ..." when ctx is dead, else CUZK_OK after making
 * its device current (a failure there is reported through ctx_fail). */
cuzk_status ctx_enter(gpu_ctx *ctx, cuzk_error *err, const char *file, int line);

/* Pinned host scratch of at least `bytes` in ctx->h_small (grown on demand; waits for the stream
 * before replacing it). */
cuzk_status ctx_host_scratch(gpu_ctx *ctx, size_t bytes, cuzk_error *err);

/* A device temporary of `bytes` for work on ctx->stream: from the ctx's arena when it has one and
 * the block fits (else counted as an overflow), otherwise cudaMallocAsync on ctx->stream. *p =
 * NULL on failure. ctx_free gives it back (arena: marks the block, pops freed blocks at the top;
 * pool: cudaFreeAsync on ctx->stream); NULL ok. One thread at a time per ctx (the ctx's rule). */
cudaError_t ctx_alloc(gpu_ctx *ctx, void **p, size_t bytes);
void ctx_free(gpu_ctx *ctx, void *p);
/* ctx->copy_stream, made on first use. */
cudaError_t ctx_copy_stream(gpu_ctx *ctx, cudaStream_t *out);

}  // namespace cuzk_dev

/* In a function with `gpu_ctx *ctx`, `cuzk_status st`, `cuzk_error *err` and an `out:` label. */
#define CTX_CU(call)                                                                      \
    do {                                                                                  \
        cudaError_t e_ = (call);                                                          \
        if (e_ != cudaSuccess) {                                                          \
            st = cuzk_dev::ctx_fail(ctx, err, e_, __FILE__, __LINE__, #call);             \
            goto out;                                                                     \
        }                                                                                 \
    } while (0)
/* After a launch on ctx->stream: the launch error; with CUZK_CUDA_SYNC=1 the execution error. */
#define CTX_LAUNCH(what)                                                                  \
    do {                                                                                  \
        cudaError_t e_ = cudaGetLastError();                                              \
        if (e_ == cudaSuccess && cuzk_dev::gpu_sync_debug())                              \
            e_ = cudaStreamSynchronize(ctx->stream);                                      \
        if (e_ != cudaSuccess) {                                                          \
            st = cuzk_dev::ctx_fail(ctx, err, e_, __FILE__, __LINE__, "launch " what);    \
            goto out;                                                                     \
        }                                                                                 \
    } while (0)
#define CTX_ENTER()                                                                       \
    do {                                                                                  \
        cuzk_status s_ = cuzk_dev::ctx_enter(ctx, err, __FILE__, __LINE__);               \
        if (s_ != CUZK_OK) return s_;                                                     \
    } while (0)

#endif
