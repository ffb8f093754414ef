/* The one boundary between host C code and the CUDA backend (the .cu files of src/cuda).
 *
 * Plain C11, includable from C and C++; nothing CUDA-specific crosses it. Every function returns a
 * cuzk_status and, when `err` is not NULL, fills the caller-owned cuzk_error on failure
 * (err->cuda_error holds the cudaError_t). Status classes:
 *   CUZK_ERR_ARG           NULL pointer or size out of range (nothing was done)
 *   CUZK_ERR_UNSUPPORTED   no CUDA device (or no usable driver) on this machine
 *   CUZK_ERR_NOMEM_DEVICE  a device allocation failed (cudaErrorMemoryAllocation)
 *   CUZK_ERR_DEVICE        any other CUDA failure; after a sticky fault (illegal address, launch
 *                          failure) the CUDA context of this process is dead
 * On failure, outputs are unspecified.
 *
 * Data layout: exactly the host structs of src/ff/fields.h, src/ec/ec.h, src/msm/msm.h: an Fp
 * element is 6 x uint64 little-endian limbs in Montgomery form (R = 2^384), Fr is 4 x uint64
 * (R = 2^256); affine G1 (x, y) with (0, 0) = infinity; Jacobian (X, Y, Z) with Z = 0 = infinity.
 * All pointers here are HOST pointers (pageable is fine); each call copies in, computes on device 0
 * (or the current device), copies out, and frees its device memory before returning. Calls are
 * synchronous. Exceptions: the functions that take a gpu_ctx (device context, resident bases,
 * gpu_g1_msm_run) and those named _async, whose sections say which pointers are device pointers
 * (named d_...) and what runs asynchronously on which stream.
 *
 * Debugging: environment CUZK_CUDA_SYNC=1 synchronizes after every kernel launch, so that a fault
 * is reported at the launch that caused it.
 *
 * Thread-safety: functions may be called from several threads; they use the current CUDA device of
 * the calling thread and the default stream of that thread's context (calls serialize on the GPU).
 */
#ifndef CUZK_CUDA_GPU_H
#define CUZK_CUDA_GPU_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "cuzk/cuzk.h"
#include "cuzk/prover.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Layout-compatible with the host types of the same tags (src/ff, src/ec, src/msm). */
struct fr;
struct g1_affine;
struct g1_jacobian;
struct g2_affine;
struct g2_jacobian;
struct scalar256;

/* *count = number of CUDA devices (0 when there is no driver or no device: then CUZK_OK). */
cuzk_status gpu_device_count(int *count, cuzk_error *err);

/* One line describing device `dev` ("NVIDIA H200, sm_90, 132 SMs, 139.8 GiB, 1980 MHz, driver
 * 13000, runtime 13000") into buf (cap bytes, NUL-terminated, truncated to fit). */
cuzk_status gpu_device_info(int dev, char *buf, size_t cap, cuzk_error *err);

/* Memory of device `dev` now: *total_bytes and *free_bytes (cudaMemGetInfo; creates the device's
 * primary context if the process has none yet), and its name into name (cap bytes, may be NULL /
 * 0). The calling thread's current device is left as it was. CUZK_ERR_ARG, CUZK_ERR_DEVICE. */
cuzk_status gpu_device_mem_info(int dev, size_t *total_bytes, size_t *free_bytes, char *name, size_t cap,
                                cuzk_error *err);

/* ---- element-wise field arithmetic (for tests of the device arithmetic) ------------------- */
typedef enum { GPU_FIELD_FP = 0, GPU_FIELD_FR = 1, GPU_FIELD_FP2 = 2 } gpu_field;
typedef enum { GPU_OP_ADD = 0, GPU_OP_SUB = 1, GPU_OP_MUL = 2, GPU_OP_SQR = 3, GPU_OP_NEG = 4 } gpu_field_op;

/* out[i] = a[i] op b[i] for i < n, Montgomery form (b unused for SQR and NEG, may be NULL).
 * out, a, b: n elements of 6 (Fp), 4 (Fr) or 12 (Fp2: c0 then c1, the host fp2) uint64 limbs
 * each, inputs < modulus; out may alias. */
cuzk_status gpu_field_op_array(gpu_field field, gpu_field_op op, uint64_t *out, const uint64_t *a,
                               const uint64_t *b, size_t n, cuzk_error *err);

/* ---- NTT over Fr ------------------------------------------------------------------------ */
/* Root conventions; the values equal src/poly/ntt.h's ntt_roots. omega_m = root^(2^(32-log_m))
 * with root = 7^((r-1)/2^32) (bellperson/blst) or 5^((r-1)/2^32) (snarkjs). */
typedef enum { GPU_ROOTS_BELLPERSON = 0, GPU_ROOTS_SNARKJS = 1 } gpu_roots;
typedef enum { GPU_NTT_FORWARD = 0, GPU_NTT_INVERSE = 1 } gpu_ntt_dir;

/* In place on `batch` vectors of m = 2^log_m Fr elements each (Montgomery form, natural order,
 * vector v at data + v*m), 1 <= log_m <= 28:
 *   FORWARD: a_j <- sum_i a_i * shift^i * omega^(ij)          (shift = 1 when shift == NULL)
 *   INVERSE: a_i <- shift^(-i) * (1/m) * sum_j a_j * omega^(-ij)
 * so that INVERSE with the same shift undoes FORWARD (coset NTT: evaluations at shift*omega^j;
 * ntt_coset_forward / ntt_coset_inverse of src/poly/ntt.h). shift: one Fr, Montgomery, nonzero.
 * Algorithm: Cooley-Tukey decimation in time in shared-memory passes (src/cuda/ntt_internal.cuh):
 * the bit-reversed gather and stages 0..10 in the first pass, the rest in passes of up to 9
 * stages (2^27: 3 passes); radix-4 butterflies in registers. Twiddles come from the cache that
 * gpu_h_cache_bytes reports (built on first use of a (roots, log_m)). */
cuzk_status gpu_ntt(struct fr *data, size_t batch, int log_m, gpu_ntt_dir dir, gpu_roots roots,
                    const struct fr *shift, cuzk_error *err);

/* ---- MSM over G1 -------------------------------------------------------------------------- */
/* *out = sum_{i<n} scalars[i] * bases[i] (Jacobian, Montgomery coordinates; Z = 0 if infinity).
 * bases: n affine points, (0,0) = infinity allowed, assumed on the curve. scalars: n canonical
 * little-endian integers < 2^255 (every x < r qualifies; Montgomery scalars must be converted
 * first). n = 0 gives infinity.
 * Runs gpu_g1_msm_run (below: the 0/1 split, then Pippenger with signed c-bit window digits,
 * (bucket, point) pairs sorted by CUB DeviceRadixSort, XYZZ bucket accumulation, running-sum
 * bucket reduction, windows combined on the host) on a ctx of its own on the calling thread's
 * current device, copying bases and scalars in first. */
cuzk_status gpu_g1_msm(struct g1_jacobian *out, const struct g1_affine *bases,
                       const struct scalar256 *scalars, size_t n, cuzk_error *err);

/* ==== device context: one per device and worker ================================================
 * A gpu_ctx owns one non-blocking CUDA stream on one device. Everything below that takes a ctx
 * enqueues its work on that stream (in call order) and first makes the ctx's device current for
 * the calling thread. Device temporaries come from the device's default stream-ordered memory pool,
 * whose release threshold gpu_ctx_create raises to UINT64_MAX: memory freed into the pool stays
 * reserved by the process and is reused by later allocations without a device-wide
 * synchronization (the pool is shared by every ctx of the device; gpu_ctx_destroy trims the
 * unused part).
 *
 * Errors: on top of the classes at the top of this file,
 *   - a sticky CUDA fault (illegal address, misaligned address, illegal instruction, launch
 *     failure, hardware stack error, invalid PC, uncorrectable ECC, ...) marks the ctx DEAD: the
 *     call reports CUZK_ERR_DEVICE and every later call on the ctx (and on objects made from it)
 *     returns CUZK_ERR_DEVICE with the message "GPU context is dead since <first error>", without
 *     touching the device. The CUDA context of the process on that device is unusable then: the
 *     service destroys the ctx and restarts the worker (in practice, the process).
 *   - a failed device allocation (cudaErrorMemoryAllocation) is CUZK_ERR_NOMEM_DEVICE; the error is
 *     cleared and the ctx stays usable.
 * Faults inside kernels surface at the next call that waits (gpu_sync, gpu_event_sync,
 * gpu_g1_msm_run, ...), which then reports them.
 *
 * Thread-safety: a ctx and the objects made from it are used by one thread at a time (a worker);
 * different ctxs may be used from different threads concurrently. gpu_host_alloc_pinned /
 * gpu_host_free_pinned are thread-safe. */
typedef struct gpu_ctx gpu_ctx;

/* *out = a new ctx on CUDA device `device` (0-based): its own non-blocking stream, the device's
 * default memory pool with release threshold UINT64_MAX. Returns CUZK_ERR_ARG (out NULL, device
 * out of range), CUZK_ERR_UNSUPPORTED (no device/driver), CUZK_ERR_DEVICE; *out = NULL then. */
cuzk_status gpu_ctx_create(gpu_ctx **out, int device, cuzk_error *err);
/* Waits for the stream (errors ignored), frees everything the ctx holds (not the gpu_g1_bases
 * made on it: free those first), destroys the stream, trims the pool. NULL is ignored. */
void gpu_ctx_destroy(gpu_ctx *ctx);
/* The device ordinal of ctx. */
int gpu_ctx_device(const gpu_ctx *ctx);
/* The ctx's cudaStream_t, as void *: for callers that launch their own kernels on it. */
void *gpu_ctx_stream(const gpu_ctx *ctx);
/* True after a sticky fault (see above): every later call on the ctx returns CUZK_ERR_DEVICE. */
bool gpu_ctx_dead(const gpu_ctx *ctx);

typedef struct gpu_mem_stats {
    size_t device_total_bytes, device_free_bytes;   /* cudaMemGetInfo of the ctx's device */
    size_t pool_reserved_bytes, pool_used_bytes;    /* the device's default stream-ordered pool
                                                       (cudaMemPoolAttrReservedMemCurrent /
                                                       cudaMemPoolAttrUsedMemCurrent), all ctxs */
    size_t pool_used_high_bytes;                    /* cudaMemPoolAttrUsedMemHigh (since the last
                                                       gpu_ctx_mem_reset_high), all ctxs */
    size_t resident_bytes;                          /* device bytes of the gpu_g1_bases and
                                                       gpu_g2_bases (and other resident objects)
                                                       alive on this ctx */
    size_t arena_bytes;                             /* the ctx's arena (gpu_ctx_arena_set), 0: none */
    size_t arena_used_bytes, arena_high_bytes;      /* in use now; high-water mark since the arena
                                                       was made or gpu_ctx_mem_reset_high */
    uint64_t arena_overflows;                       /* allocations the arena could not hold, which
                                                       went to the pool instead (a plan that is too
                                                       small: a bug the tests look for) */
} gpu_mem_stats;
/* Fills *out. CUZK_ERR_ARG, CUZK_ERR_DEVICE (dead ctx or CUDA failure). */
cuzk_status gpu_ctx_mem(gpu_ctx *ctx, gpu_mem_stats *out, cuzk_error *err);
/* Restarts the high-water marks of gpu_ctx_mem (the arena's, and the device pool's UsedMemHigh at
 * its current use). NULL or a dead ctx: nothing. */
void gpu_ctx_mem_reset_high(gpu_ctx *ctx);

/* The ctx's arena (issue 23: a memory plan per device, never exceeded at run time): one plain
 * cudaMalloc of `bytes` made now, from which every later device temporary of the ctx is taken
 * (gpu_buf_alloc, the MSMs' scratch and staging buffers) as a stack: an allocation takes the top
 * (512-byte aligned), a free marks its block and gives back every freed block at the top. So a
 * proof whose allocations the plan bounds cannot run out of device memory once the arena exists.
 * Stream order makes the reuse safe: every user of the ctx's memory runs on the ctx stream (the
 * streamed MSM's copy stream is joined before its staging buffers are freed). An allocation
 * the arena cannot hold goes to the pool (cudaMallocAsync) and is counted in arena_overflows.
 * bytes = 0 frees the arena (temporaries go to the pool again). Replacing an arena waits for the
 * stream; blocks still in use are CUZK_ERR_ARG (nothing changed). Errors: CUZK_ERR_NOMEM_DEVICE
 * (cudaMalloc failed: the ctx keeps no arena and stays usable), CUZK_ERR_ARG, CUZK_ERR_DEVICE. */
cuzk_status gpu_ctx_arena_set(gpu_ctx *ctx, size_t bytes, cuzk_error *err);
/* Trims the device's default pool to what is in use now (cudaMemPoolTrimTo), so that memory it
 * reserved but holds idle can be made resident (a plan for another circuit on the device). */
void gpu_ctx_pool_trim(gpu_ctx *ctx);

/* Device buffers: stream-ordered (cudaMallocAsync / cudaFreeAsync on the ctx stream, from the
 * pool). *d_ptr = `bytes` bytes of device memory (256-byte aligned), usable by work enqueued on
 * the ctx stream after this call (other streams: after gpu_sync). bytes = 0 gives *d_ptr = NULL.
 * CUZK_ERR_NOMEM_DEVICE on OOM (ctx still usable), CUZK_ERR_ARG, CUZK_ERR_DEVICE; *d_ptr = NULL on
 * failure. gpu_buf_free enqueues the free after all work so far on the stream (the memory returns
 * to the pool when that work is done); NULL ok; errors are ignored (dead ctx: nothing is done). */
cuzk_status gpu_buf_alloc(gpu_ctx *ctx, void **d_ptr, size_t bytes, cuzk_error *err);
void gpu_buf_free(gpu_ctx *ctx, void *d_ptr);
/* Long-lived device buffers that are not a proof's temporaries (a prover's selection lists): a
 * plain cudaMalloc, never taken from the arena (a block of the arena that outlives a proof would
 * pin the arena's stack and keep it from being resized), counted in gpu_ctx_mem's resident_bytes
 * until gpu_buf_free_resident(ctx, d_ptr, bytes) with the same bytes (which waits for the ctx
 * stream). bytes = 0 gives *d_ptr = NULL. Errors as gpu_buf_alloc. */
cuzk_status gpu_buf_alloc_resident(gpu_ctx *ctx, void **d_ptr, size_t bytes, cuzk_error *err);
void gpu_buf_free_resident(gpu_ctx *ctx, void *d_ptr, size_t bytes);
/* Enqueue a copy of `bytes` bytes (host <-> device) or a memset on the ctx stream. With pinned host
 * memory the call returns at once and the host buffer must stay valid and unchanged until the
 * stream reaches the copy (gpu_sync, gpu_event_sync); with pageable memory CUDA stages it and the
 * call may block (d2h: until the copy is done). bytes = 0 does nothing. CUZK_ERR_ARG,
 * CUZK_ERR_DEVICE. */
cuzk_status gpu_copy_h2d_async(gpu_ctx *ctx, void *d_dst, const void *src, size_t bytes, cuzk_error *err);
cuzk_status gpu_copy_d2h_async(gpu_ctx *ctx, void *dst, const void *d_src, size_t bytes, cuzk_error *err);
cuzk_status gpu_memset_async(gpu_ctx *ctx, void *d_dst, int value, size_t bytes, cuzk_error *err);
/* Waits until everything enqueued on the ctx stream is done. Reports a kernel fault that happened
 * meanwhile (CUZK_ERR_DEVICE; sticky ones mark the ctx dead). */
cuzk_status gpu_sync(gpu_ctx *ctx, cuzk_error *err);

/* Pinned (page-locked, portable: usable with every device) host memory, cudaHostAlloc.
 * bytes = 0 gives *h_ptr = NULL. CUZK_ERR_NOMEM when the allocation fails, CUZK_ERR_UNSUPPORTED
 * without a device, CUZK_ERR_ARG. gpu_host_free_pinned: NULL ok. Thread-safe. Freeing pinned
 * memory synchronizes the device: keep it off hot paths (the reaper). */
cuzk_status gpu_host_alloc_pinned(void **h_ptr, size_t bytes, cuzk_error *err);
void gpu_host_free_pinned(void *h_ptr);
/* Page-locks an existing host range [h_ptr, h_ptr + bytes) (cudaHostRegister, portable), so
 * copies from it run at the bus's speed and overlap kernels (the streamed MSMs' bases).
 * gpu_host_unregister undoes it; it must come before the range is freed. Slow (the pages are
 * locked one by one, about 1 s per 4 GiB): at preload. Errors: CUZK_ERR_NOMEM (locking failed),
 * CUZK_ERR_ARG, CUZK_ERR_UNSUPPORTED (no device). Thread-safe. */
cuzk_status gpu_host_register(void *h_ptr, size_t bytes, cuzk_error *err);
void gpu_host_unregister(void *h_ptr);
/* True when h_ptr is page-locked host memory (cudaHostAlloc'd or registered). */
bool gpu_host_is_pinned(const void *h_ptr);

/* Events, for the reaper: free a buffer only after the GPU work that reads it has finished.
 * gpu_event_record: *out = a new event marking the current end of the ctx stream (work enqueued
 * later is not covered). gpu_event_sync waits until the stream reaches it (CUZK_ERR_DEVICE on a
 * fault: sticky ones mark the ctx dead). An event refers to its ctx: destroy it before the ctx.
 * gpu_event_destroy: NULL ok. An event may be synced and destroyed from another thread than the
 * one using the ctx (the reaper), once gpu_event_record has returned. */
typedef struct gpu_event gpu_event;
cuzk_status gpu_event_record(gpu_ctx *ctx, gpu_event **out, cuzk_error *err);
cuzk_status gpu_event_sync(gpu_event *ev, cuzk_error *err);
void gpu_event_destroy(gpu_event *ev);

/* ==== SRS-resident G1 bases ===================================================================
 * *out = a device copy of n affine points (host array `bases`, pageable or pinned, layout of
 * src/ec/ec.h g1_affine: x, y in Montgomery form, (0, 0) = infinity; assumed on the curve, not
 * checked). The copy is made with a plain cudaMalloc (not the pool: freeing returns the memory to
 * the device) and completes before the call returns (the host array may be freed then). The
 * points stay on the device until gpu_g1_bases_free, which must come before gpu_ctx_destroy.
 * n = 0 is allowed (an empty set). n < 2^31. CUZK_ERR_ARG, CUZK_ERR_NOMEM (host struct),
 * CUZK_ERR_NOMEM_DEVICE (ctx still usable), CUZK_ERR_DEVICE; *out = NULL on failure.
 * resident_bytes of gpu_ctx_mem counts gpu_g1_bases_bytes of every live set. */
typedef struct gpu_g1_bases gpu_g1_bases;
cuzk_status gpu_g1_bases_upload(gpu_ctx *ctx, gpu_g1_bases **out, const struct g1_affine *bases, size_t n,
                                cuzk_error *err);
/* = gpu_g1_bases_upload, with the points made chunk by chunk on the host instead of read from one
 * host array: fill(fill_ctx, first, count, dst, err) writes points [first, first + count) into dst
 * (page-locked staging of chunk_points points; 0: 2^20 = 96 MiB) and returns CUZK_OK, or an error
 * that ends the upload with that status and message (nothing is kept). Two staging buffers: chunk
 * i + 1 is filled while chunk i is copied, so a fill slower than the bus (a .params decode:
 * bellperson_params_read) hides the copy. The host never holds more than two chunks. fill runs
 * on the calling thread, in order of `first`. stats (NULL: none): bytes uploaded, the fill's
 * time and the wall time. Errors as gpu_g1_bases_upload, plus fill's. */
typedef cuzk_status (*gpu_bases_fill_fn)(void *fill_ctx, size_t first, size_t count, void *dst, cuzk_error *err);
typedef struct gpu_upload_stats {
    size_t bytes;
    double fill_ms, wall_ms;
} gpu_upload_stats;
cuzk_status gpu_g1_bases_upload_fill(gpu_ctx *ctx, gpu_g1_bases **out, size_t n, size_t chunk_points,
                                     gpu_bases_fill_fn fill, void *fill_ctx, gpu_upload_stats *stats, cuzk_error *err);
size_t gpu_g1_bases_count(const gpu_g1_bases *b);   /* n */
size_t gpu_g1_bases_bytes(const gpu_g1_bases *b);   /* device bytes held (n * 96) */
/* Waits for the ctx stream (work reading the points), then frees them. NULL ok. */
void gpu_g1_bases_free(gpu_g1_bases *b);

/* ==== G1 MSM over resident bases, with the 0/1 split ========================================== */
typedef enum { GPU_SCALARS_CANONICAL = 0, GPU_SCALARS_MONTGOMERY = 1 } gpu_scalar_form;
/* How the tail's Pippenger pass accumulates its sorted (bucket, point) pairs into buckets (the
 * values of include/cuzk/prover.h cuzk_gpu_msm_accum):
 *   GPU_MSM_ACCUM_DEFAULT (0): TASKS.
 *   GPU_MSM_ACCUM_TASKS: a bucket is split into tasks of at most K pairs, one thread per task.
 *   GPU_MSM_ACCUM_RUNS: every thread adds a run of the same number of sorted pairs and cuts it at
 *     bucket boundaries; the pieces of buckets that cross runs are added after (an experiment:
 *     bench/GPU_RESULTS.md session 4 has its measurements).
 * (Value 3 was a batch-affine accumulation, removed: 1.65x slower than TASKS on an H100, issue 25.)
 * All give the same result (tests/test_gpu_msm.c runs each against the CPU). A field of each job's
 * tuning, read when its plan is made: no process-wide state. G2 MSMs (gpu_g2_msm_run) always use
 * the tasks (RUNS is taken as TASKS there); an unknown value is TASKS. */
typedef enum {
    GPU_MSM_ACCUM_DEFAULT = 0,
    GPU_MSM_ACCUM_TASKS = 1,
    GPU_MSM_ACCUM_RUNS = 2
} gpu_msm_accum;
/* Tuning of one MSM; zeros (the default of a zero-initialized job) mean automatic. */
typedef struct gpu_msm_tuning {
    int window_bits;      /* Pippenger window c of the tail, 0: gpu_msm_window_bits(chunk points);
                             else clamped to 2..22 */
    size_t chunk_points;  /* tail points per pass, 0: 2^25 (bounds the tail's scratch); smaller
                             values are raised to 64 */
    gpu_msm_accum accum;  /* the tail's bucket accumulation (above), 0: TASKS */
    size_t stream_points; /* streamed jobs (h_bases): points per copied chunk, 0: the chunk limit
                             (chunk_points or 2^25); smaller values are raised to 64 */
} gpu_msm_tuning;
/* The device tuning of the public MSM options (include/cuzk/prover.h cuzk_msm_opts: window,
 * chunk, accumulation; b_g2_on_gpu is the prover's, not an MSM's). NULL: zeros (automatic).
 * Values are passed as they are (the device code clamps them). */
static inline gpu_msm_tuning gpu_msm_tuning_of(const cuzk_msm_opts *o) {
    gpu_msm_tuning t;
    memset(&t, 0, sizeof t);
    if (!o) return t;
    t.window_bits = o->window_bits > 0 ? o->window_bits : 0;
    t.chunk_points = o->chunk_points;
    t.accum = (gpu_msm_accum)o->accumulation;
    return t;
}
typedef struct gpu_msm_job {
    const gpu_g1_bases *bases;  /* made on the same ctx; NULL: h_bases (streamed) */
    size_t base_offset;         /* uses bases[base_offset .. base_offset + n) */
    size_t n;                   /* base_offset + n <= gpu_g1_bases_count(bases); n < 2^31 */
    const void *d_scalars;      /* DEVICE array of 4 x uint64 little-endian Fr elements: n of them
                                   (d_index NULL), or as many as d_index reaches */
    gpu_scalar_form form;       /* Montgomery (x*R mod r, R = 2^256) or canonical; every value < r
                                   (canonical values below 2^255 are summed correctly too) */
    const uint32_t *d_index;    /* optional DEVICE array of n: scalar of base k (k < n) is
                                   d_scalars[d_index[k]]; repeats allowed; NULL: d_scalars[k] */
    void *out;                  /* HOST result: sum_{k<n} scalar_k * bases[base_offset + k]
                                   (Jacobian, Montgomery coordinates, Z = 0 at infinity) on the
                                   curve of the run function: a g1_jacobian for gpu_g1_msm_run, a
                                   bn254_g1_jacobian for gpu_bn254_g1_msm_run (GN(g1_msm_run),
                                   src/ff/ns.h). Untyped because the job serves both curves, as
                                   its bases do; the run checks the bases' curve, not out's */
    gpu_msm_tuning tuning;      /* zeros: automatic */
    const void *h_bases;        /* used when `bases` is NULL: a HOST array of the group's affine
                                   points (the layout of gpu_g1_bases_upload's input; page-locked
                                   for copy/compute overlap: gpu_host_alloc_pinned or
                                   gpu_host_register, pageable works but copies synchronously),
                                   streamed: see "Streamed bases" below */
} gpu_msm_job;
typedef struct gpu_msm_stats {
    float classify_ms, ones_ms, tail_ms, total_ms;   /* CUDA-event times summed over the jobs:
                                                        classification and compaction, the sum of
                                                        the bases of scalars 1, the Pippenger tail
                                                        (its kernels overlap nothing), and the whole
                                                        job from first to last kernel */
    size_t n_zero, n_one, n_other;                   /* scalar counts summed over the jobs */
    /* the tail, split further (CUDA-event ms summed over jobs and chunks) */
    float tail_digits_ms;                            /* window digits of the scalars */
    float tail_accum_ms;                             /* bucket accumulation (mixed additions) */
    float tail_reduce_ms;                            /* bucket reduction to window sums (the
                                                        window combination runs on the host) */
    size_t tail_chunks;                              /* Pippenger passes (chunks of points) run */
    float tail_sort_ms;                              /* radix sort of the (bucket, point) pairs */
    float tail_buckets_ms;                           /* bucket bounds and task offsets */
    int tail_window_bits;                            /* window c of the last job with a tail (0:
                                                        no tail ran) */
    size_t stream_bytes;                             /* streamed jobs: bases copied host -> device */
    float stream_copy_ms;                            /* their copies' CUDA-event time (copy stream) */
    size_t stream_chunks;                            /* chunks copied */
} gpu_msm_stats;
/* Runs the jobs in order on the ctx stream and waits for them; job i writes *jobs[i].out.
 * Per job, each scalar is classified (Montgomery 1 is R mod r, canonical 1 is 1):
 *   0      skipped;
 *   1      its base is summed by a parallel addition of the compacted list of such bases
 *          (XYZZ mixed additions per thread, then a tree of XYZZ additions);
 *   other  Pippenger over the compacted (index, scalar) list, "the tail": signed c-bit window
 *          digits, (bucket, point) pairs radix-sorted (CUB), XYZZ bucket accumulation, running-sum
 *          bucket reduction, windows combined by Horner on the host (the algorithm of gpu_g1_msm
 *          below). Tails longer than the chunk limit (2^25 points; the job's tuning.chunk_points
 *          lowers it) run as several passes whose results are summed.
 * Montgomery scalars are converted on the device. The results do not depend on the chunking.
 * Scratch comes from the ctx's stream-ordered pool (reused across calls): about
 * 16 * W * min(n_other, chunk) bytes for the tail (W = 255/c + 1 windows of c bits) plus 4 * n.
 * stats may be NULL (then no events are recorded); it is overwritten, not accumulated into.
 * Returns CUZK_ERR_ARG (NULL pointers, offset/size out of range, bases of another ctx: nothing was
 * run), CUZK_ERR_NOMEM_DEVICE (scratch: ctx still usable), CUZK_ERR_DEVICE (a bad device pointer
 * or index faults here: the ctx is dead); the outputs of jobs not completed are unspecified. */
cuzk_status gpu_g1_msm_run(gpu_ctx *ctx, const gpu_msm_job *jobs, size_t n_jobs, gpu_msm_stats *stats,
                           cuzk_error *err);
/* Streamed bases (issue 23 item 2): a job with bases NULL and h_bases set reads its points from
 * host memory, h_bases[base_offset .. base_offset + n), in chunks of S = min(n,
 * tuning.stream_points) points: two device staging buffers of S points (from the ctx's arena or
 * pool), chunk i + 1 copied on the ctx's copy stream while chunk i's MSM (the algorithm above,
 * over those S bases and their scalars) runs on the ctx stream; the chunks' sums are added on the
 * host. Same result as the resident job. Device scratch: gpu_g1_msm_stream_scratch_bytes. Stats
 * add stream_bytes and stream_copy_ms (the copies' CUDA-event time, for the bus's rate). */

/* Upper bound of the device bytes one gpu_g1_msm_run job of n scalars with `tuning` (NULL: the
 * defaults) takes from the ctx's pool at its peak (the two index lists, the ones partial sums,
 * CUB temporaries and the tail plan of min(n, chunk) points at the job's window), i.e. as if every
 * scalar were neither 0 nor 1.
 * Host arithmetic only (CUB's temporary-size queries allocate nothing); 0 when n is 0. For budget
 * checks (the engine's GPU budget): the real peak is lower when most scalars are 0 or 1. */
size_t gpu_g1_msm_scratch_bytes(size_t n, const gpu_msm_tuning *tuning);
/* The same for a streamed job (h_bases) of n points: the two staging buffers of S points plus the
 * scratch of an MSM of S points (S = min(n, stream points of tuning)). G2: 192-byte points. */
size_t gpu_g1_msm_stream_scratch_bytes(size_t n, const gpu_msm_tuning *tuning);
size_t gpu_g2_msm_stream_scratch_bytes(size_t n, const gpu_msm_tuning *tuning);

/* Makes the first gpu_g1_msm_run (or gpu_g2_msm_run) of jobs up to n_max scalars cost what later
 * ones cost: sizes the ctx's pinned host scratch for such a job of either group (growing it waits for the stream and calls
 * cudaFreeHost/cudaHostAlloc, slow when much host memory is pinned or held by the page cache) and
 * grows the stream-ordered pool by allocating pool_bytes once and freeing it (the pool keeps it:
 * release threshold UINT64_MAX), then waits for the stream. For a prover's preload, off the
 * proving path. Errors: CUZK_ERR_NOMEM_DEVICE (pool_bytes not available: nothing kept; the ctx
 * stays usable), CUZK_ERR_NOMEM (pinned host), CUZK_ERR_DEVICE. */
cuzk_status gpu_g1_msm_reserve(gpu_ctx *ctx, size_t n_max, size_t pool_bytes, cuzk_error *err);

/* ==== G2 MSM (issue 11 item 4) =================================================================
 * The G1 MSM above run over G2: one set of kernels (src/cuda/gpu_msm.cu) is a template over the
 * group, so the classification and 0/1 split, the signed window digits, the CUB radix sort, the
 * XYZZ bucket accumulation with its heavy-bucket paths, the bucket reduction and the host Horner
 * are those of gpu_g1_msm_run, over points of Fp2 = Fp[u]/(u^2 + 1) (fp2_t, src/cuda/fields.cuh).
 * Points have the layout of src/ec/ec.h g2_affine / g2_jacobian: each coordinate c0 then c1, each
 * an Fp element (6 x uint64, Montgomery); affine (0, 0) = infinity (192 bytes), Jacobian
 * (X, Y, Z) with Z = 0 at infinity (288 bytes). Scalars, statuses, stream and thread rules: as for
 * G1. Costs (operation counts): a G2 mixed addition is 10 Fp2 products = ~28 Fp products (3 per
 * product, 2 per squaring), ~2.8x a G1 one; points are twice the bytes. */

/* *out = sum_{i<n} scalars[i] * bases[i] over G2. Host arrays: bases n affine G2 points (on the
 * curve, not checked; infinity allowed), scalars n canonical little-endian integers < 2^255.
 * n = 0 gives infinity. A ctx of its own on the calling thread's current device; device memory:
 * the n bases (192 n bytes), the scalars (32 n) and the scratch of gpu_g2_msm_scratch_bytes(n),
 * all freed before returning. Synchronous; thread-safe. Errors as gpu_g1_msm. */
cuzk_status gpu_g2_msm(struct g2_jacobian *out, const struct g2_affine *bases,
                       const struct scalar256 *scalars, size_t n, cuzk_error *err);

/* SRS-resident G2 bases: as gpu_g1_bases (plain cudaMalloc, copied before the call returns, freed
 * by gpu_g2_bases_free before gpu_ctx_destroy, counted in gpu_ctx_mem's resident_bytes), with n
 * points of 192 bytes (src/ec/ec.h g2_affine). n < 2^31; n = 0 is an empty set. Errors:
 * CUZK_ERR_ARG, CUZK_ERR_NOMEM (host struct), CUZK_ERR_NOMEM_DEVICE (ctx still usable),
 * CUZK_ERR_DEVICE; *out = NULL on failure. Used by one thread at a time with its ctx. */
typedef struct gpu_g2_bases gpu_g2_bases;
cuzk_status gpu_g2_bases_upload(gpu_ctx *ctx, gpu_g2_bases **out, const struct g2_affine *bases, size_t n,
                                cuzk_error *err);
/* = gpu_g1_bases_upload_fill for G2 points (g2_affine layout; staging of chunk_points points, 0: 2^20
 * = 192 MiB). */
cuzk_status gpu_g2_bases_upload_fill(gpu_ctx *ctx, gpu_g2_bases **out, size_t n, size_t chunk_points,
                                     gpu_bases_fill_fn fill, void *fill_ctx, gpu_upload_stats *stats, cuzk_error *err);
size_t gpu_g2_bases_count(const gpu_g2_bases *b);   /* n */
size_t gpu_g2_bases_bytes(const gpu_g2_bases *b);   /* device bytes held (n * 192) */
/* Waits for the ctx stream (work reading the points), then frees them. NULL ok. */
void gpu_g2_bases_free(gpu_g2_bases *b);

/* One G2 MSM over resident bases: the fields of gpu_msm_job with G2 bases and a G2 result. */
typedef struct gpu_g2_msm_job {
    const gpu_g2_bases *bases;  /* made on the same ctx; NULL: h_bases (streamed) */
    size_t base_offset;         /* uses bases[base_offset .. base_offset + n) */
    size_t n;                   /* base_offset + n <= gpu_g2_bases_count(bases); n < 2^31 */
    const void *d_scalars;      /* DEVICE Fr array, as gpu_msm_job's (n of them, or as many as
                                   d_index reaches) */
    gpu_scalar_form form;       /* Montgomery or canonical, every value < r */
    const uint32_t *d_index;    /* optional DEVICE array of n: scalar of base k is d_scalars[d_index[k]] */
    void *out;                  /* HOST result: sum_{k<n} scalar_k * bases[base_offset + k]
                                   (Jacobian over Fp2, Montgomery, Z = 0 at infinity) on the
                                   curve of the run function, as gpu_msm_job's: a g2_jacobian for
                                   gpu_g2_msm_run, a bn254_g2_jacobian for gpu_bn254_g2_msm_run */
    gpu_msm_tuning tuning;      /* zeros: automatic (the G1 defaults: window gpu_msm_window_bits,
                                   chunks of 2^25) */
    const void *h_bases;        /* bases NULL: HOST G2 points streamed as gpu_msm_job's h_bases
                                   (B_G2 on the device when its query is not resident) */
} gpu_g2_msm_job;
/* Runs the jobs in order on the ctx stream and waits for them: gpu_g1_msm_run's algorithm, its
 * classification of the scalars (0 skipped, 1 summed directly, the rest by Pippenger in chunks)
 * and its stats, over G2. Device scratch from the ctx's pool, at most gpu_g2_msm_scratch_bytes(n)
 * per job (about 16 W n bytes for the sorted pairs plus 384 bytes per bucket and per partial sum).
 * Errors as gpu_g1_msm_run: CUZK_ERR_ARG (NULL pointers, offset/size out of range, bases of
 * another ctx or of another curve: nothing was run), CUZK_ERR_NOMEM_DEVICE (ctx still usable),
 * CUZK_ERR_DEVICE (a bad device pointer faults: the ctx is dead). The ctx's pinned host scratch
 * grows on the first job that needs more (gpu_g1_msm_reserve sizes it for G2 too). */
cuzk_status gpu_g2_msm_run(gpu_ctx *ctx, const gpu_g2_msm_job *jobs, size_t n_jobs, gpu_msm_stats *stats,
                           cuzk_error *err);
/* Upper bound of the device bytes one gpu_g2_msm_run job of n scalars takes from the pool, as
 * gpu_g1_msm_scratch_bytes (host arithmetic only; 0 when n is 0). */
size_t gpu_g2_msm_scratch_bytes(size_t n, const gpu_msm_tuning *tuning);

/* ---- benchmarks (device-resident data, CUDA-event timed, results handed back to be checked) ---- */
/* The benchmark bases (every gpu_bench_*msm*): base i of n is
 *   [gpu_bench_dlog(i mod GPU_BENCH_NT) + gpu_bench_dlog(GPU_BENCH_NT + i / GPU_BENCH_NT)] * G
 * for the generator G the caller gives, made on the device before timing (a table of the
 * GPU_BENCH_NT + ceil(n / GPU_BENCH_NT) multiples, then one affine addition per base). Their
 * discrete logarithms are known, so the caller can check a timed MSM against
 * [sum_i s_i dlog_i] * G with field arithmetic and one scalar multiplication (src/benchkit/gpu.c).
 * The multiples are distinct odd 64-bit values with the top bit set, so no sum is P + P or P - P. */
#define GPU_BENCH_NT 1024
#ifdef __CUDACC__
__host__ __device__
#endif
static inline uint64_t gpu_bench_dlog(uint64_t j) {
    uint64_t z = 0x1234 + j * 0x9e3779b97f4a7c15ull + 0x9e3779b97f4a7c15ull; /* SplitMix64 of j */
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return (z ^ (z >> 31)) | 1 | (1ull << 63);
}
/* What a timed MSM benchmark reads and hands back (the caller's memory). */
typedef struct gpu_bench_msm_io {
    const void *generator; /* IN, required: G of the group, affine, Montgomery, the host layout of the
                              curve's g1_affine / g2_affine (bn254_g1_affine for the BN254 bench) */
    void *result;          /* OUT, may be NULL: the last timed run's MSM, the host g1_jacobian /
                              g2_jacobian of the curve (Montgomery, Z = 0 at infinity) */
    uint64_t *scalars;     /* OUT, may be NULL: n x 4 uint64, the last timed run's scalars exactly as
                              the MSM read them (Montgomery when the bench was asked for it) */
} gpu_bench_msm_io;
/* G1 MSM of n points over the bases above, scalars uniform below r, both generated on the device
 * and kept there. Runs `warmup` untimed then `reps` timed MSMs (fresh scalars each); writes each
 * time in milliseconds to times_ms[reps] (not sorted). window_bits <= 0: default for n. tuning
 * (may be NULL: the defaults) is the job's (accumulation, chunk points; a window_bits > 0 argument
 * overrides its window). io: above (required for its generator). */
cuzk_status gpu_bench_g1_msm(size_t n, int window_bits, const gpu_msm_tuning *tuning, int warmup, int reps,
                             float *times_ms, const gpu_bench_msm_io *io, cuzk_error *err);
/* MSM over n resident bench bases through gpu_g1_msm_run (one job): a fraction `frac01` of the
 * scalars (evenly spread, chosen by a hash) are 0 or 1 (half each), the rest uniform below r;
 * generated on the device in canonical form (`montgomery`: converted to Montgomery form first, so
 * the run converts back). Runs `warmup` untimed then `reps` timed runs, CUDA-event times of the
 * whole gpu_g1_msm_run (its host synchronizations included) into times_ms[reps]; *stats (may be
 * NULL) gets the stats of the last run. tuning (may be NULL: the defaults) is the job's. */
cuzk_status gpu_bench_g1_msm01(size_t n, double frac01, bool montgomery, const gpu_msm_tuning *tuning, int warmup,
                               int reps, float *times_ms, gpu_msm_stats *stats, const gpu_bench_msm_io *io,
                               cuzk_error *err);
/* G2 MSM over n resident bench bases of G2 through gpu_g2_msm_run (one job); scalars as
 * gpu_bench_g1_msm01's (frac01 of them 0 or 1, the rest uniform below r; Montgomery when
 * `montgomery`); window_bits <= 0: the default for the tail, else 2..20. CUDA-event times of the
 * whole run into times_ms[reps] after `warmup` untimed runs; *stats (may be NULL) gets the last
 * run's. Device memory: 192 n + 32 n bytes plus the MSM's scratch. */
cuzk_status gpu_bench_g2_msm(size_t n, int window_bits, double frac01, bool montgomery, int warmup, int reps,
                             float *times_ms, gpu_msm_stats *stats, const gpu_bench_msm_io *io, cuzk_error *err);
/* NTT of `batch` vectors of 2^log_m random elements, forward, bellperson roots, data on device,
 * out of place. x_out, y_out (may be NULL; HOST, batch << log_m Fr each, Montgomery): the last
 * timed run's input and output, for the caller's check. */
cuzk_status gpu_bench_ntt(int log_m, size_t batch, int warmup, int reps, float *times_ms, void *x_out, void *y_out,
                          cuzk_error *err);

/* Default Pippenger window (bits) for a tail (chunk) of n points; a job's tuning.window_bits
 * overrides it (experiments; bench/GPU_RESULTS.md has the measured sweep). Inline, plain C: the
 * memory plan (src/groth16/memplan.c) sizes the MSM scratch by the same rule without CUDA.
 * lg - 4 up to 2^23 points (c <= 16); 18 at 2^24; 20 from 2^25 (the chunk of large MSMs).
 * Measured (bench/GPU_RESULTS.md session 8, uniform scalars below r, buckets in size order):
 * 2^24: c = 16 116.1 ms, 17 117.1, 18 114.2, 20 115.6; 2^26 (two 2^25 chunks): 16 457.2,
 * 18 439.4, 20 417.1. Before the size ordering (session 3) the short, uneven buckets of large
 * windows lost (c = 20: 399 ms at 2^24 against 251 at c = 16). Used for G2 as well (every step
 * costs ~3x, so the balance between accumulation and reduction is the same to first order). */
static inline int gpu_msm_window_bits(size_t n) {
    int lg = 0;
    while (lg < 63 && ((size_t)2 << lg) <= n) lg++;
    int c = lg - 4;
    if (c < 4) c = 4;
    if (c > 16) c = 16;
    if (lg == 24) c = 18;
    if (lg >= 25) c = 20;
    return c;
}

/* ---- H on the device (issue 3 item 2) ------------------------------------------------------ */
/* The Groth16 H step of src/poly/ntt.h on device-resident vectors, enqueued on `stream` (a
 * cudaStream_t passed as void *, NULL = the legacy default stream); the call returns once the
 * work is enqueued: the caller synchronizes the stream before reading d_a or reusing d_b/d_c.
 * d_a, d_b, d_c: DEVICE arrays of m = 2^log_m Fr each (4 x uint64, Montgomery), 1 <= log_m <= 28,
 * distinct, not overlapping.
 *   bellperson: the row evaluations a, b, c exactly as h_bellperson takes them; on completion d_a
 *     holds what h_bellperson leaves in a (the m H-MSM scalars h_i, Montgomery). Steps fused on
 *     the device: iNTT(a, b, c) -> coset NTT (g = 7) -> (a*b - c) * (g^m - 1)^-1 -> coset iNTT
 *     (roots 7^t).
 *   snarkjs: a, b in (c is scratch, its input ignored); on completion d_a holds what h_snarkjs
 *     leaves in a: A(g w^j) B(g w^j) - C(g w^j), C = A*B on the rows, g = omega_2m (roots 5^t).
 * d_b and d_c are clobbered in both. Device scratch: none beyond the three vectors (stream-ordered
 * cudaMallocAsync of a few KiB for constants, freed on the stream).
 * Twiddle tables are built on first use (synchronously) and cached per (device, log_m, roots) for
 * the process lifetime; gpu_h_cache_bytes says how many bytes they hold.
 * Returns CUZK_OK, CUZK_ERR_ARG (NULL pointer, log_m out of range), CUZK_ERR_NOMEM_DEVICE,
 * CUZK_ERR_DEVICE. Thread-safety: may be called from several threads (the cache is locked). */
cuzk_status gpu_h_bellperson_async(void *stream, struct fr *d_a, struct fr *d_b, struct fr *d_c,
                                   int log_m, cuzk_error *err);
cuzk_status gpu_h_snarkjs_async(void *stream, struct fr *d_a, struct fr *d_b, struct fr *d_c,
                                int log_m, cuzk_error *err);
/* The bellperson H (coset g = 7, the h coefficients in d_a) with the rows interpolated on `roots`:
 * GPU_ROOTS_BELLPERSON is gpu_h_bellperson_async; GPU_ROOTS_SNARKJS (5^t) is what bellperson
 * parameters from `snarkjs zkey export bellman` need (src/formats/bellperson.h, domain), the same
 * values as h_bellperson over an NTT_ROOTS_SNARKJS domain. Tables cached per (device, log_m, roots)
 * like the others (a third kind). Errors as gpu_h_bellperson_async, and CUZK_ERR_ARG for bad roots. */
cuzk_status gpu_h_bellperson_roots_async(void *stream, struct fr *d_a, struct fr *d_b, struct fr *d_c, int log_m,
                                         gpu_roots roots, cuzk_error *err);
/* Synchronous host-array form (tests, CPU-backend fallback users): a, b, c are HOST arrays of
 * m = 2^log_m Fr (Montgomery); `convention` GPU_ROOTS_BELLPERSON runs h_bellperson,
 * GPU_ROOTS_SNARKJS h_snarkjs; on CUZK_OK a holds the result, b and c are unchanged (c is not
 * read for snarkjs). Device memory: 3 * 32 * m bytes (stream-ordered, freed before returning). */
cuzk_status gpu_h(gpu_roots convention, struct fr *a, struct fr *b, struct fr *c, int log_m,
                  cuzk_error *err);
/* The same for gpu_h_bellperson_roots_async (host arrays; a gets the h coefficients). */
cuzk_status gpu_h_bellperson_roots(gpu_roots roots, struct fr *a, struct fr *b, struct fr *c, int log_m,
                                   cuzk_error *err);
/* Bytes of device memory held by the NTT/H table cache on the current device (0 when empty).
 * Per (roots, log_m) used so far: (max(1, m/2) + 7 + 2 * (1024 + max(1, m/1024))) * 32 bytes,
 * i.e. the twiddles omega^j, j < m/2 (2 GiB at log_m = 27, 4 GiB at 28), the constants and the
 * coset scale tables (8 MiB at 27). gpu_ntt uses (and fills) the same cache. */
size_t gpu_h_cache_bytes(void);

/* ---- fixed-base batch scalar multiplication (setup, issue 5) -------------------------------- */
/* out[i] = scalars[i] * gen, affine, for i < n: byte-identical to the CPU's g1_mul_fr_vartime (g2_mul_fr_vartime)
 * followed by g1_jacobian_to_affine (g2_...): Montgomery coordinates, (0, 0) for infinity (scalar
 * 0, or gen = (0, 0) = infinity). gen: one affine point on the curve (not checked). scalars: n Fr,
 * Montgomery, host. out: n affine points, host; may not alias scalars. n = 0 does nothing.
 * Algorithm: fixed-base windows (w = 8: 32 windows of 256 precomputed multiples
 * j * 2^(8k) * gen, built once per call on the device); each thread sums the 32 table entries of
 * its scalar in XYZZ, then Montgomery's batch inversion per block gives affine. Points go through
 * in chunks with host<->device copies overlapped (two streams, pinned staging).
 * Returns CUZK_OK, CUZK_ERR_ARG (NULL with n > 0), CUZK_ERR_NOMEM (pinned host staging),
 * CUZK_ERR_NOMEM_DEVICE, CUZK_ERR_DEVICE. Synchronous; thread-safe (own streams per call). */
cuzk_status gpu_g1_fixed_base(struct g1_affine *out, const struct g1_affine *gen,
                              const struct fr *scalars, size_t n, cuzk_error *err);
cuzk_status gpu_g2_fixed_base(struct g2_affine *out, const struct g2_affine *gen,
                              const struct fr *scalars, size_t n, cuzk_error *err);
/* Tests only: points per chunk of the fixed-base pipeline (0 = the default, 2^20). Not
 * thread-safe: set it before the calls it should affect. */
void gpu_fixed_base_set_chunk(size_t points);

/* ---- benchmarks of this section ---------------------------------------------------------- */
/* H of random device vectors a, b of 2^log_m elements and c = a * b on the rows (a satisfied
 * system; cached tables built before timing), CUDA-event time of the whole gpu_h_*_async sequence
 * per repeat into times_ms[reps]. ab_out (2 m Fr: a then b) and h_out (m Fr), HOST, each may be
 * NULL: the last timed run's inputs and result (Montgomery), for the caller's check. */
cuzk_status gpu_bench_h(gpu_roots convention, int log_m, int warmup, int reps, float *times_ms, void *ab_out,
                        void *h_out, cuzk_error *err);
/* gpu_g1_fixed_base (g2 = 0) or gpu_g2_fixed_base (g2 = 1) of the zcash generator with n random
 * host scalars into a host array: wall_ms[r] = host wall-clock time of the whole call (table
 * build, pinned staging, copies both ways); kernel_ms[r] = CUDA-event time of its kernels
 * (summed over chunks; the two streams may overlap). scalars_out (n x 4 uint64: the scalars as
 * Montgomery Fr) and points_out (n host g1_affine / g2_affine), each may be NULL: what every run
 * computed (the same each run), for the caller's check. */
cuzk_status gpu_bench_fixed_base(int g2, size_t n, int warmup, int reps, float *wall_ms, float *kernel_ms,
                                 uint64_t *scalars_out, void *points_out, cuzk_error *err);

/* ---- BN254 (snarkjs / circom "bn128") -------------------------------------------------------
 * The same kernels instantiated for BN254 (src/cuda/curve_bn254.cuh); the bytes are those of the
 * host types of src/curves/bn254/curve.h (bn254_fr, bn254_g1_affine, bn254_g1_jacobian: 4 x uint64
 * per coordinate, Montgomery). Contracts as the BLS12-381 functions of the same name without
 * "bn254_" above, with these differences:
 *   gpu_bn254_g1_msm: scalars canonical < r of BN254 (any value < 2^255 is accepted and summed as
 *     an integer).
 *   gpu_bn254_ntt: roots must be GPU_ROOTS_SNARKJS (5^t, two-adicity 28: 1 <= log_m <= 28; anything
 *     else is CUZK_ERR_ARG); shift (optional) as gpu_ntt's.
 *   gpu_bn254_g1_bases_upload: resident BN254 bases (64 bytes per point); gpu_g1_bases_count,
 *     _bytes and _free serve both curves. gpu_bn254_g1_msm_run takes only jobs over such bases
 *     (and gpu_g1_msm_run only BLS12-381 ones): a job over bases of the other curve is CUZK_ERR_ARG.
 *     The job's `out` points to a bn254_g1_jacobian. gpu_g1_msm_scratch_bytes (BLS12-381 points)
 *     bounds the scratch of a BN254 MSM of the same n.
 *   gpu_bench_bn254_*: as gpu_bench_g1_msm / gpu_bench_ntt (one vector, forward, snarkjs roots).
 *   gpu_bn254_g2_msm, gpu_bn254_g2_bases_upload, gpu_bn254_g2_msm_run: the G2 MSM over BN254's
 *     G2 (the D-twist over Fp2 = Fp[u]/(u^2 + 1); bn254_g2_affine 128 bytes, bn254_g2_jacobian
 *     192), as the BLS12-381 gpu_g2_* functions; gpu_g2_bases_count, _bytes and _free serve both
 *     curves, and each run refuses bases of the other curve (CUZK_ERR_ARG).
 * The BN254 instance of src/groth16/gpu_prover_impl.h reaches these as GN(name) (src/ff/ns.h). */
struct bn254_fr;
struct bn254_g1_affine;
struct bn254_g1_jacobian;
struct bn254_g2_affine;
struct bn254_g2_jacobian;
cuzk_status gpu_bn254_g1_msm(struct bn254_g1_jacobian *out, const struct bn254_g1_affine *bases,
                             const struct scalar256 *scalars, size_t n, cuzk_error *err);
cuzk_status gpu_bn254_ntt(struct bn254_fr *data, size_t batch, int log_m, gpu_ntt_dir dir, gpu_roots roots,
                          const struct bn254_fr *shift, cuzk_error *err);
cuzk_status gpu_bn254_g1_bases_upload(gpu_ctx *ctx, gpu_g1_bases **out, const struct bn254_g1_affine *bases, size_t n,
                                      cuzk_error *err);
cuzk_status gpu_bn254_g1_msm_run(gpu_ctx *ctx, const gpu_msm_job *jobs, size_t n_jobs, gpu_msm_stats *stats,
                                 cuzk_error *err);
cuzk_status gpu_bn254_g2_msm(struct bn254_g2_jacobian *out, const struct bn254_g2_affine *bases,
                             const struct scalar256 *scalars, size_t n, cuzk_error *err);
cuzk_status gpu_bn254_g2_bases_upload(gpu_ctx *ctx, gpu_g2_bases **out, const struct bn254_g2_affine *bases, size_t n,
                                      cuzk_error *err);
cuzk_status gpu_bn254_g2_msm_run(gpu_ctx *ctx, const gpu_g2_msm_job *jobs, size_t n_jobs, gpu_msm_stats *stats,
                                 cuzk_error *err);
/* The H step of snarkjs (gpu_h_snarkjs_async / gpu_h with GPU_ROOTS_SNARKJS above) over BN254's Fr,
 * 1 <= log_m <= 27 (the coset shift is omega_2m, and BN254's two-adicity is 28). gpu_bn254_h: HOST
 * a, b of m Fr each (Montgomery); on CUZK_OK a holds the result, b is unchanged. */
cuzk_status gpu_bn254_h_snarkjs_async(void *stream, struct bn254_fr *d_a, struct bn254_fr *d_b, struct bn254_fr *d_c,
                                      int log_m, cuzk_error *err);
cuzk_status gpu_bn254_h(struct bn254_fr *a, const struct bn254_fr *b, int log_m, cuzk_error *err);
cuzk_status gpu_bench_bn254_g1_msm(size_t n, int window_bits, const gpu_msm_tuning *tuning, int warmup, int reps,
                                   float *times_ms, const gpu_bench_msm_io *io, cuzk_error *err);
cuzk_status gpu_bench_bn254_ntt(int log_m, int warmup, int reps, float *times_ms, void *x_out, void *y_out,
                                cuzk_error *err);

#ifdef __cplusplus
}
#endif
#endif
