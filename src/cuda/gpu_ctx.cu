/* The device context (src/cuda/gpu.h: gpu_ctx_*, gpu_buf_*, gpu_copy_*, gpu_host_*_pinned,
 * gpu_event_*): one non-blocking stream per ctx, stream-ordered allocations from the device's
 * default pool (release threshold UINT64_MAX, so freed memory is kept and reused), and the
 * dead-context rule: the first sticky CUDA fault is recorded and every later call fails fast with
 * it, without touching the device. */
#include <new>

#include "cuda/ctx_internal.cuh"

using namespace cuzk_dev;

namespace cuzk_dev {

bool cuda_error_is_sticky(cudaError_t e) {
    switch (e) {
    case cudaErrorIllegalAddress:
    case cudaErrorLaunchFailure:
    case cudaErrorHardwareStackError:
    case cudaErrorIllegalInstruction:
    case cudaErrorMisalignedAddress:
    case cudaErrorInvalidAddressSpace:
    case cudaErrorInvalidPc:
    case cudaErrorECCUncorrectable:
    case cudaErrorAssert:
    case cudaErrorLaunchTimeout:
    case cudaErrorTensorMemoryLeak:
    case cudaErrorContextIsDestroyed:
    case cudaErrorExternalDevice:
        return true;
    default:
        return false;
    }
}

static void dead_error(const gpu_ctx *ctx, cuzk_error *err, const char *file, int line) {
    if (!err) return;
    err->code = CUZK_ERR_DEVICE;
    err->sys_errno = 0;
    err->cuda_error = ctx->dead_cuda_error;
    err->file = file;
    err->line = line;
    if (ctx->dead.load(std::memory_order_acquire) == 2)
        snprintf(err->msg, sizeof err->msg, "GPU context is dead since %s", ctx->dead_msg);
    else
        snprintf(err->msg, sizeof err->msg, "GPU context is dead (fault being recorded)");
}

cuzk_status ctx_fail(gpu_ctx *ctx, cuzk_error *err, cudaError_t e, const char *file, int line, const char *what) {
    cuzk_status st = gpu_fail(err, e, file, line, what);
    if (ctx && cuda_error_is_sticky(e)) {
        int expect = 0;
        if (ctx->dead.compare_exchange_strong(expect, 1, std::memory_order_acq_rel)) {
            snprintf(ctx->dead_msg, sizeof ctx->dead_msg, "%s:%d: %s: %s (%s)", file, line, what,
                     cudaGetErrorString(e), cudaGetErrorName(e));
            ctx->dead_cuda_error = (int)e;
            ctx->dead.store(2, std::memory_order_release);
        }
        st = CUZK_ERR_DEVICE;
        if (err) err->code = st;
    }
    return st;
}

cuzk_status ctx_enter(gpu_ctx *ctx, cuzk_error *err, const char *file, int line) {
    if (!ctx) return gpu_arg_error(err, file, line, "gpu ctx is NULL");
    if (ctx->dead.load(std::memory_order_acquire)) {
        dead_error(ctx, err, file, line);
        return CUZK_ERR_DEVICE;
    }
    int cur = -1;
    cudaError_t e = cudaGetDevice(&cur);
    if (e == cudaSuccess && cur != ctx->device) e = cudaSetDevice(ctx->device);
    if (e != cudaSuccess) return ctx_fail(ctx, err, e, file, line, "cudaSetDevice");
    return CUZK_OK;
}

cuzk_status ctx_host_scratch(gpu_ctx *ctx, size_t bytes, cuzk_error *err) {
    cuzk_status st = CUZK_OK;
    if (ctx->h_small_bytes >= bytes) return CUZK_OK;
    if (bytes < 4096) bytes = 4096;
    CTX_CU(cudaStreamSynchronize(ctx->stream));
    if (ctx->h_small) cudaFreeHost(ctx->h_small);
    ctx->h_small = NULL;
    ctx->h_small_bytes = 0;
    CTX_CU(cudaHostAlloc(&ctx->h_small, bytes, cudaHostAllocPortable));
    ctx->h_small_bytes = bytes;
out:
    return st;
}

static const size_t ARENA_ALIGN = 512;

cudaError_t ctx_alloc(gpu_ctx *ctx, void **p, size_t bytes) {
    *p = NULL;
    gpu_arena *a = &ctx->arena;
    if (a->base) {
        const size_t sz = ((bytes ? bytes : 1) + ARENA_ALIGN - 1) / ARENA_ALIGN * ARENA_ALIGN;
        if (a->nblk < gpu_arena::MAX_BLOCKS && sz <= a->cap - a->top) {
            gpu_arena::block *b = &a->blk[a->nblk++];
            b->off = a->top;
            b->bytes = sz;
            b->freed = false;
            *p = a->base + a->top;
            a->top += sz;
            if (a->top > a->high) a->high = a->top;
            return cudaSuccess;
        }
        a->overflows++;
    }
    return cudaMallocAsync(p, bytes ? bytes : 1, ctx->stream);
}

void ctx_free(gpu_ctx *ctx, void *p) {
    if (!p) return;
    gpu_arena *a = &ctx->arena;
    if (a->base && (char *)p >= a->base && (char *)p < a->base + a->cap) {
        const size_t off = (size_t)((char *)p - a->base);
        for (int i = a->nblk - 1; i >= 0; i--)
            if (a->blk[i].off == off && !a->blk[i].freed) {
                a->blk[i].freed = true;
                break;
            }
        while (a->nblk > 0 && a->blk[a->nblk - 1].freed) {
            a->nblk--;
            a->top = a->blk[a->nblk].off;
        }
        return;
    }
    if (ctx->dead.load()) return;
    cudaError_t e = cudaFreeAsync(p, ctx->stream);
    if (e != cudaSuccess) (void)ctx_fail(ctx, NULL, e, __FILE__, __LINE__, "cudaFreeAsync");
}

cudaError_t ctx_copy_stream(gpu_ctx *ctx, cudaStream_t *out) {
    if (!ctx->copy_stream) {
        cudaError_t e = cudaStreamCreateWithFlags(&ctx->copy_stream, cudaStreamNonBlocking);
        if (e != cudaSuccess) {
            ctx->copy_stream = NULL;
            return e;
        }
    }
    *out = ctx->copy_stream;
    return cudaSuccess;
}

}  // namespace cuzk_dev

/* ---- context -------------------------------------------------------------------------------- */

extern "C" cuzk_status gpu_ctx_create(gpu_ctx **out, int device, cuzk_error *err) {
    GPU_ARG(out, "gpu_ctx_create: out is NULL");
    *out = NULL;
    int ndev = 0;
    cuzk_status st = gpu_device_count(&ndev, err);
    if (st != CUZK_OK) return st;
    if (ndev == 0) return dev_error(err, CUZK_ERR_UNSUPPORTED, __FILE__, __LINE__, "no CUDA device");
    GPU_ARG(device >= 0 && device < ndev, "gpu_ctx_create: device out of range");
    gpu_ctx *ctx = new (std::nothrow) gpu_ctx;
    if (!ctx) return dev_error(err, CUZK_ERR_NOMEM, __FILE__, __LINE__, "gpu_ctx_create: out of memory");
    ctx->device = device;
    ctx->stream = NULL;
    ctx->copy_stream = NULL;
    memset(&ctx->arena, 0, sizeof ctx->arena);
    ctx->pool = NULL;
    ctx->dead.store(0);
    ctx->dead_msg[0] = 0;
    ctx->dead_cuda_error = 0;
    ctx->resident_bytes.store(0);
    ctx->sm_count = 0;
    ctx->h_small = NULL;
    ctx->h_small_bytes = 0;
    {
        int pools = 0;
        uint64_t threshold = UINT64_MAX;
        CTX_CU(cudaSetDevice(device));
        CTX_CU(cudaDeviceGetAttribute(&pools, cudaDevAttrMemoryPoolsSupported, device));
        if (!pools) {
            st = dev_error(err, CUZK_ERR_UNSUPPORTED, __FILE__, __LINE__,
                                "gpu_ctx_create: device %d has no stream-ordered memory pools", device);
            goto out;
        }
        CTX_CU(cudaDeviceGetAttribute(&ctx->sm_count, cudaDevAttrMultiProcessorCount, device));
        CTX_CU(cudaStreamCreateWithFlags(&ctx->stream, cudaStreamNonBlocking));
        CTX_CU(cudaDeviceGetDefaultMemPool(&ctx->pool, device));
        CTX_CU(cudaMemPoolSetAttribute(ctx->pool, cudaMemPoolAttrReleaseThreshold, &threshold));
        st = ctx_host_scratch(ctx, 4096, err);
        if (st != CUZK_OK) goto out;
    }
    *out = ctx;
    return CUZK_OK;
out:
    gpu_ctx_destroy(ctx);
    return st;
}

extern "C" void gpu_ctx_destroy(gpu_ctx *ctx) {
    if (!ctx) return;
    int cur = -1;
    if (cudaGetDevice(&cur) == cudaSuccess && cur != ctx->device) (void)cudaSetDevice(ctx->device);
    if (ctx->copy_stream) {
        (void)cudaStreamSynchronize(ctx->copy_stream);
        (void)cudaStreamDestroy(ctx->copy_stream);
    }
    if (ctx->stream) {
        (void)cudaStreamSynchronize(ctx->stream);
        (void)cudaStreamDestroy(ctx->stream);
    }
    if (ctx->arena.base && !ctx->dead.load()) (void)cudaFree(ctx->arena.base);
    if (ctx->h_small) (void)cudaFreeHost(ctx->h_small);
    if (ctx->pool && !ctx->dead.load()) (void)cudaMemPoolTrimTo(ctx->pool, 0);
    (void)cudaGetLastError();
    delete ctx;
}

extern "C" int gpu_ctx_device(const gpu_ctx *ctx) { return ctx ? ctx->device : -1; }
extern "C" void *gpu_ctx_stream(const gpu_ctx *ctx) { return ctx ? (void *)ctx->stream : NULL; }
extern "C" bool gpu_ctx_dead(const gpu_ctx *ctx) { return ctx && ctx->dead.load(std::memory_order_acquire) != 0; }

extern "C" cuzk_status gpu_ctx_mem(gpu_ctx *ctx, gpu_mem_stats *out, cuzk_error *err) {
    GPU_ARG(out, "gpu_ctx_mem: out is NULL");
    CTX_ENTER();
    cuzk_status st = CUZK_OK;
    size_t fr = 0, tot = 0;
    uint64_t res = 0, used = 0, high = 0;
    memset(out, 0, sizeof *out);
    CTX_CU(cudaMemGetInfo(&fr, &tot));
    CTX_CU(cudaMemPoolGetAttribute(ctx->pool, cudaMemPoolAttrReservedMemCurrent, &res));
    CTX_CU(cudaMemPoolGetAttribute(ctx->pool, cudaMemPoolAttrUsedMemCurrent, &used));
    CTX_CU(cudaMemPoolGetAttribute(ctx->pool, cudaMemPoolAttrUsedMemHigh, &high));
    out->device_total_bytes = tot;
    out->device_free_bytes = fr;
    out->pool_reserved_bytes = (size_t)res;
    out->pool_used_bytes = (size_t)used;
    out->pool_used_high_bytes = (size_t)high;
    out->resident_bytes = ctx->resident_bytes.load();
    out->arena_bytes = ctx->arena.cap;
    out->arena_used_bytes = ctx->arena.top;
    out->arena_high_bytes = ctx->arena.high;
    out->arena_overflows = ctx->arena.overflows;
out:
    return st;
}

extern "C" void gpu_ctx_mem_reset_high(gpu_ctx *ctx) {
    if (!ctx || ctx->dead.load() || ctx_enter(ctx, NULL, __FILE__, __LINE__) != CUZK_OK) return;
    ctx->arena.high = ctx->arena.top;
    ctx->arena.overflows = 0;
    uint64_t zero = 0;
    (void)cudaMemPoolSetAttribute(ctx->pool, cudaMemPoolAttrUsedMemHigh, &zero);
    (void)cudaGetLastError();
}

extern "C" cuzk_status gpu_ctx_arena_set(gpu_ctx *ctx, size_t bytes, cuzk_error *err) {
    CTX_ENTER();
    cuzk_status st = CUZK_OK;
    void *p = NULL;
    if (ctx->arena.nblk > 0)
        return dev_error(err, CUZK_ERR_ARG, __FILE__, __LINE__,
                         "gpu_ctx_arena_set: %d arena blocks are still in use", ctx->arena.nblk);
    bytes = (bytes + ARENA_ALIGN - 1) / ARENA_ALIGN * ARENA_ALIGN;
    if (bytes == ctx->arena.cap && ctx->arena.base) return CUZK_OK;
    CTX_CU(cudaStreamSynchronize(ctx->stream));
    if (ctx->arena.base) {
        CTX_CU(cudaFree(ctx->arena.base));
        memset(&ctx->arena, 0, sizeof ctx->arena);
    }
    if (bytes) {
        /* idle pool memory first goes back to the device, so the arena can take it */
        (void)cudaMemPoolTrimTo(ctx->pool, 0);
        CTX_CU(cudaMalloc(&p, bytes)); /* out of memory: NOMEM_DEVICE, the ctx keeps no arena */
        ctx->arena.base = (char *)p;
        ctx->arena.cap = bytes;
    }
out:
    return st;
}

extern "C" void gpu_ctx_pool_trim(gpu_ctx *ctx) {
    if (!ctx || ctx->dead.load() || ctx_enter(ctx, NULL, __FILE__, __LINE__) != CUZK_OK) return;
    (void)cudaStreamSynchronize(ctx->stream);
    (void)cudaMemPoolTrimTo(ctx->pool, 0);
    (void)cudaGetLastError();
}

/* ---- buffers and copies --------------------------------------------------------------------- */

extern "C" cuzk_status gpu_buf_alloc(gpu_ctx *ctx, void **d_ptr, size_t bytes, cuzk_error *err) {
    GPU_ARG(d_ptr, "gpu_buf_alloc: d_ptr is NULL");
    *d_ptr = NULL;
    CTX_ENTER();
    cuzk_status st = CUZK_OK;
    if (bytes == 0) return CUZK_OK;
    CTX_CU(ctx_alloc(ctx, d_ptr, bytes));
    return CUZK_OK;
out:
    *d_ptr = NULL;
    return st;
}

extern "C" cuzk_status gpu_buf_alloc_resident(gpu_ctx *ctx, void **d_ptr, size_t bytes, cuzk_error *err) {
    GPU_ARG(d_ptr, "gpu_buf_alloc_resident: d_ptr is NULL");
    *d_ptr = NULL;
    CTX_ENTER();
    cuzk_status st = CUZK_OK;
    if (bytes == 0) return CUZK_OK;
    CTX_CU(cudaMalloc(d_ptr, bytes));
    ctx->resident_bytes += bytes;
    return CUZK_OK;
out:
    *d_ptr = NULL;
    return st;
}

extern "C" void gpu_buf_free_resident(gpu_ctx *ctx, void *d_ptr, size_t bytes) {
    if (!ctx || !d_ptr) return;
    ctx->resident_bytes -= bytes;
    if (ctx->dead.load() || ctx_enter(ctx, NULL, __FILE__, __LINE__) != CUZK_OK) return;
    (void)cudaStreamSynchronize(ctx->stream);
    (void)cudaFree(d_ptr);
    (void)cudaGetLastError();
}

extern "C" void gpu_buf_free(gpu_ctx *ctx, void *d_ptr) {
    if (!ctx || !d_ptr) return;
    if (ctx->dead.load()) {
        ctx_free(ctx, d_ptr); /* an arena block is bookkeeping only; a pool one is left alone */
        return;
    }
    if (ctx_enter(ctx, NULL, __FILE__, __LINE__) != CUZK_OK) return;
    ctx_free(ctx, d_ptr);
}

extern "C" cuzk_status gpu_copy_h2d_async(gpu_ctx *ctx, void *d_dst, const void *src, size_t bytes,
                                          cuzk_error *err) {
    GPU_ARG(bytes == 0 || (d_dst && src), "gpu_copy_h2d_async: NULL pointer");
    CTX_ENTER();
    cuzk_status st = CUZK_OK;
    if (bytes) CTX_CU(cudaMemcpyAsync(d_dst, src, bytes, cudaMemcpyHostToDevice, ctx->stream));
out:
    return st;
}

extern "C" cuzk_status gpu_copy_d2h_async(gpu_ctx *ctx, void *dst, const void *d_src, size_t bytes,
                                          cuzk_error *err) {
    GPU_ARG(bytes == 0 || (dst && d_src), "gpu_copy_d2h_async: NULL pointer");
    CTX_ENTER();
    cuzk_status st = CUZK_OK;
    if (bytes) CTX_CU(cudaMemcpyAsync(dst, d_src, bytes, cudaMemcpyDeviceToHost, ctx->stream));
out:
    return st;
}

extern "C" cuzk_status gpu_memset_async(gpu_ctx *ctx, void *d_dst, int value, size_t bytes, cuzk_error *err) {
    GPU_ARG(bytes == 0 || d_dst, "gpu_memset_async: NULL pointer");
    CTX_ENTER();
    cuzk_status st = CUZK_OK;
    if (bytes) CTX_CU(cudaMemsetAsync(d_dst, value, bytes, ctx->stream));
out:
    return st;
}

extern "C" cuzk_status gpu_sync(gpu_ctx *ctx, cuzk_error *err) {
    CTX_ENTER();
    cuzk_status st = CUZK_OK;
    CTX_CU(cudaStreamSynchronize(ctx->stream));
out:
    return st;
}

/* ---- pinned host memory ---------------------------------------------------------------------- */

extern "C" cuzk_status gpu_host_alloc_pinned(void **h_ptr, size_t bytes, cuzk_error *err) {
    GPU_ARG(h_ptr, "gpu_host_alloc_pinned: h_ptr is NULL");
    *h_ptr = NULL;
    if (bytes == 0) return CUZK_OK;
    cudaError_t e = cudaHostAlloc(h_ptr, bytes, cudaHostAllocPortable);
    if (e == cudaSuccess) return CUZK_OK;
    *h_ptr = NULL;
    cuzk_status st = gpu_fail(err, e, __FILE__, __LINE__, "cudaHostAlloc");
    if (st == CUZK_ERR_NOMEM_DEVICE || e == cudaErrorInvalidValue) {
        st = CUZK_ERR_NOMEM; /* host memory (pinned) is what ran out */
        if (err) err->code = st;
    }
    return st;
}

extern "C" void gpu_host_free_pinned(void *h_ptr) {
    if (h_ptr) (void)cudaFreeHost(h_ptr);
}

extern "C" cuzk_status gpu_host_register(void *h_ptr, size_t bytes, cuzk_error *err) {
    GPU_ARG(h_ptr || bytes == 0, "gpu_host_register: h_ptr is NULL");
    if (bytes == 0) return CUZK_OK;
    cudaError_t e = cudaHostRegister(h_ptr, bytes, cudaHostRegisterPortable);
    if (e == cudaSuccess) return CUZK_OK;
    cuzk_status st = gpu_fail(err, e, __FILE__, __LINE__, "cudaHostRegister");
    if (st == CUZK_ERR_NOMEM_DEVICE || e == cudaErrorInvalidValue || e == cudaErrorHostMemoryAlreadyRegistered) {
        st = CUZK_ERR_NOMEM; /* host memory could not be locked */
        if (err) err->code = st;
    }
    return st;
}

extern "C" void gpu_host_unregister(void *h_ptr) {
    if (h_ptr && cudaHostUnregister(h_ptr) != cudaSuccess) (void)cudaGetLastError();
}

extern "C" bool gpu_host_is_pinned(const void *h_ptr) {
    if (!h_ptr) return false;
    cudaPointerAttributes a;
    if (cudaPointerGetAttributes(&a, h_ptr) != cudaSuccess) {
        (void)cudaGetLastError();
        return false;
    }
    return a.type == cudaMemoryTypeHost;
}

/* ---- events ---------------------------------------------------------------------------------- */

struct gpu_event {
    gpu_ctx *ctx;
    cudaEvent_t ev;
};

extern "C" cuzk_status gpu_event_record(gpu_ctx *ctx, gpu_event **out, cuzk_error *err) {
    GPU_ARG(out, "gpu_event_record: out is NULL");
    *out = NULL;
    CTX_ENTER();
    cuzk_status st = CUZK_OK;
    gpu_event *ev = new (std::nothrow) gpu_event;
    if (!ev) return dev_error(err, CUZK_ERR_NOMEM, __FILE__, __LINE__, "gpu_event_record: out of memory");
    ev->ctx = ctx;
    ev->ev = NULL;
    CTX_CU(cudaEventCreateWithFlags(&ev->ev, cudaEventDisableTiming));
    CTX_CU(cudaEventRecord(ev->ev, ctx->stream));
    *out = ev;
    return CUZK_OK;
out:
    if (ev->ev) (void)cudaEventDestroy(ev->ev);
    delete ev;
    return st;
}

extern "C" cuzk_status gpu_event_sync(gpu_event *ev, cuzk_error *err) {
    GPU_ARG(ev, "gpu_event_sync: ev is NULL");
    gpu_ctx *ctx = ev->ctx;
    CTX_ENTER();
    cuzk_status st = CUZK_OK;
    CTX_CU(cudaEventSynchronize(ev->ev));
out:
    return st;
}

extern "C" void gpu_event_destroy(gpu_event *ev) {
    if (!ev) return;
    if (ev->ev) (void)cudaEventDestroy(ev->ev);
    delete ev;
}
