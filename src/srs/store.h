/* The SRS store: keeps Groth16 parameters (bellperson .params, DESIGN.md section 5) hot across
 * proofs, in tiers, within a byte budget per tier, and never frees one a proof is using.
 *
 * Tiers, coldest to hottest (an SRS may be present in several at once):
 *   DISK    known to the store, nothing held; the next use loads it (map, check, decode).
 *   MAPPED  "warm": the .params file is memory-mapped (read-only, MAP_PRIVATE, pages in the page
 *           cache) and its points were checked at the store's level; counts the file's bytes.
 *           Making it PINNED from here decodes without checking again and without disk reads
 *           (about 2x faster than a warm load at the CURVE level on the dev VM, bench/RESULTS.md).
 *           Handles never use the mapping.
 *   PINNED  the decoded host view, a bellperson_params (Montgomery affine points, one block from
 *           the ops' pinned allocator, or plain aligned host memory when there is none); counts
 *           bellperson_layout.host_bytes. Needed by every handle (vk, b_g2 stay on the host).
 *   GPU     "hot": a device copy made by ops->upload from the PINNED view (for the real backend:
 *           device-resident G1 bases); counts the bytes upload reports. GPU implies PINNED:
 *           dropping an SRS's PINNED copy drops its GPU copy first. With
 *           srs_store_opts.release_host_g1 the PINNED view of an SRS on the GPU is "lean": its G1
 *           queries are freed after the upload (see there).
 *
 * Budgets: budget_bytes[tier] caps the bytes of each tier (0: unlimited; DISK has none). Bytes
 * count from the moment a load reserves them until the memory is actually freed (a copy being
 * freed, by this thread or the reaper, still counts), so the memory the ops allocate for a tier
 * never exceeds its budget. When a load does not fit, the least recently used copies in that
 * tier that no handle needs are evicted first (LRU over acquire/release/preload); if it still
 * cannot fit, the load fails with CUZK_ERR_NOMEM (host tiers) or CUZK_ERR_NOMEM_DEVICE (GPU) and
 * nothing already loaded is lost beyond the evicted copies. Loads never wait for handles to be
 * released (that could deadlock a caller holding one); they fail instead.
 *
 * Reference counts: a handle (srs_store_acquire) pins its SRS at PINNED, and at GPU too when it
 * was acquired at GPU. A pinned copy is never evicted: srs_store_evict returns CUZK_ERR_BUSY and
 * frees nothing, and LRU eviction passes over it.
 *
 * Threads: one mutex guards the store; long work (mapping, checking and decoding 47 GB, upload,
 * freeing) runs outside it. An SRS being loaded is in a "loading" state: other threads that need
 * it wait for that load and then use its result (or get its error); a second SRS loads in
 * parallel. Every function is thread-safe except srs_store_destroy, which must not race with
 * other calls on the same store.
 *
 * Keys: an SRS is named by its file, resolved with realpath(3), so "./x.params" and
 * "/abs/x.params" are the same SRS. Files must not change while the store knows them (a changed
 * file is not detected; evict it to DISK first).
 *
 * Freeing: copies are freed by the thread that evicts them, after the mutex is released, or by
 * the reaper when opts.reaper is set (multi-GiB frees off the caller's path, DESIGN.md section 7).
 */
#ifndef CUZK_SRS_STORE_H
#define CUZK_SRS_STORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cuzk/cuzk.h"
#include "util/reaper.h"
#include "formats/bellperson.h"

typedef enum srs_tier { SRS_TIER_DISK = 0, SRS_TIER_MAPPED = 1, SRS_TIER_PINNED = 2, SRS_TIER_GPU = 3 } srs_tier;
#define SRS_TIERS 4
/* "disk", "mapped", "pinned", "gpu"; "?" for anything else. */
const char *srs_tier_str(srs_tier t);

/* How the store reaches the device and pinned host memory (supplied at creation, copied; every
 * function may be NULL as stated). Called without the store's mutex held, possibly from several
 * threads at once (for different SRSs) and from the reaper thread.
 *   pinned_alloc(ctx, bytes)   page-locked host memory, >= 64-byte aligned, or NULL when out of
 *                              memory. NULL function: aligned_alloc(64) (pageable).
 *   pinned_free(ctx, h_ptr, bytes)  releases what pinned_alloc returned (NULL function: free()).
 *   device_bytes(ctx, params)  device bytes an upload of params will take at most; reserved
 *                              before the upload. NULL: the G1 bases h, l, a, b_g1 as affine
 *                              points (96 bytes each).
 *   upload(ctx, &d_handle, &bytes, params, err)  makes the device copy; on CUZK_OK *d_handle is
 *                              an opaque non-NULL handle and *bytes the device bytes it holds
 *                              (<= device_bytes, else the copy is freed and the load fails with
 *                              CUZK_ERR_NOMEM_DEVICE); on error nothing is held. Synchronous:
 *                              params may be read during the call only (the device copy must not
 *                              refer to host memory; device_free gets no params).
 *                              NULL: the store has no GPU tier (CUZK_ERR_UNSUPPORTED).
 *   device_free(ctx, d_handle, bytes)  releases the device copy.
 * The real backend plugs gpu_g1_bases_upload (src/cuda/gpu.h) in here; tests use a fake. */
typedef struct srs_device_ops {
    void *ctx;
    void *(*pinned_alloc)(void *ctx, size_t bytes);
    void (*pinned_free)(void *ctx, void *h_ptr, size_t bytes);
    size_t (*device_bytes)(void *ctx, const bellperson_params *params);
    cuzk_status (*upload)(void *ctx, void **d_handle, size_t *bytes, const bellperson_params *params, cuzk_error *err);
    void (*device_free)(void *ctx, void *d_handle, size_t bytes);
} srs_device_ops;

/* The GPU prover's hooks (src/srs/gpu_ops.c) for device `device`: upload = groth16_gpu_srs_create
 * (the opaque device handle is a groth16_gpu_srs *, src/groth16/gpu_prover.h) of the four G1
 * queries, device_bytes = groth16_gpu_srs_bytes_for, pinned memory from groth16_gpu_pinned_alloc.
 * srs_gpu_ops_b_g2: the same with the B_G2 query in the device copy too (GROTH16_GPU_SRS_B_G2:
 * n_b_g2 x 192 bytes more in the GPU tier), for provers that run B_G2 on the device
 * (groth16_gpu_prover_set_b_g2 then uses it instead of uploading its own). The returned tables
 * are static per device (0..15); NULL for another device and in builds without CUDA.
 * Thread-safe. */
const srs_device_ops *srs_gpu_ops(int device);
const srs_device_ops *srs_gpu_ops_b_g2(int device);

typedef struct srs_store_opts {
    size_t budget_bytes[SRS_TIERS];  /* per tier, 0: unlimited; [SRS_TIER_DISK] is ignored */
    cuzk_check_level check;          /* point checks on first load (cuzk.h); DEFAULT = CURVE */
    int nthreads;                    /* threads of one load; 0: cuzk_num_threads() */
    const srs_device_ops *ops;       /* NULL: no GPU tier; PINNED is plain aligned host memory */
    reaper *reaper;                  /* NULL: free inline; else freed by the reaper (must outlive
                                        the store) */
    cuzk_progress_fn progress;       /* progress of every load (file bytes; `what` = section);
                                        calls are serialized across loads; NULL: none */
    void *progress_user;
    /* Host memory of SRSs hot on a GPU (issue 13: a 47 GB PoRep file within a 64 GiB host):
     *  - every read of a file drops the pages it read from this process (the mapping stays, and
     *    the page cache keeps the file warm: bellperson_load_opts.release_input), so the MAPPED
     *    tier adds no resident pages after a load;
     *  - the PINNED view keeps b_g2 apart (bellperson_load_opts.g2_apart), and once the GPU copy
     *    is made, the host copy of the G1 queries (h, l, a, b_g1: ~41 of the 45 GB of a PoRep
     *    view) is freed; the view keeps vk, ic, b_g2 and the counts (what the CPU side of a GPU
     *    proof reads: B_G2, the verifying key). Its PINNED bytes drop by that much. Such a "lean"
     *    SRS serves GPU handles only: acquire at PINNED answers CUZK_ERR_UNSUPPORTED, and dropping
     *    its GPU copy (evict, LRU) drops the lean view too (the next use decodes it again).
     *    The release is skipped (the view stays whole) while a PINNED handle holds the SRS.
     * false: views stay whole and mapped pages stay resident (the behaviour before). */
    bool release_host_g1;
} srs_store_opts;

typedef struct srs_store srs_store;

/* Creates an empty store. opts NULL: no budgets, CURVE checks, no GPU tier.
 * Errors: CUZK_ERR_ARG (out NULL, check out of range), CUZK_ERR_NOMEM. */
cuzk_status srs_store_create(srs_store **out, const srs_store_opts *opts, cuzk_error *err);

/* Frees every copy and the store. CUZK_ERR_BUSY (and nothing is done) while a handle is held
 * or a load runs. NULL: CUZK_OK. Drains opts.reaper when set. Not thread-safe (see above). */
cuzk_status srs_store_destroy(srs_store *s);

/* A reference to an SRS held in the store; caller-owned (no allocation), filled by acquire,
 * emptied by release. Fields are read-only for the caller and valid until release:
 *   params        the host view (always; in PINNED memory)
 *   device        the opaque device handle from ops->upload when acquired at SRS_TIER_GPU, else NULL
 *   device_bytes  the device bytes upload reported (0 unless at GPU)
 * Thread-safety: the params may be read from any number of threads; a handle is released once. */
typedef struct srs_handle {
    const bellperson_params *params;
    void *device;
    size_t device_bytes;
    srs_tier tier;              /* SRS_TIER_PINNED or SRS_TIER_GPU */
    struct srs_entry *entry_;   /* private */
} srs_handle;

/* Makes the SRS in `path` present at `tier` (PINNED or GPU; the tiers below it as needed) and
 * takes a reference: out->params (and out->device at GPU) stay valid and are never evicted until
 * srs_store_release. A hit when it already was there; else a miss, which loads it in this thread
 * (or waits for another thread loading it). Points are checked at the store's level on the first
 * load of the file only.
 * Errors (out is zeroed; no reference held):
 *   CUZK_ERR_ARG          NULL s/out/path, tier not PINNED or GPU
 *   CUZK_ERR_UNSUPPORTED  tier GPU without ops->upload
 *   CUZK_ERR_IO, _FORMAT, _POINT  the file cannot be read or is bad (bellperson_params_decode;
 *                         the message names section and index); waiters of a failed load get
 *                         the same status and message
 *   CUZK_ERR_NOMEM / CUZK_ERR_NOMEM_DEVICE  the copy does not fit the tier's budget even after
 *                         LRU eviction, or the allocator / upload failed for lack of memory
 *   other statuses from ops->upload */
cuzk_status srs_store_acquire(srs_store *s, srs_handle *out, const char *path, srs_tier tier, cuzk_error *err);

/* Drops the reference of h (NULL or an empty handle: no-op) and zeroes it; the SRS stays where
 * it is (most recently used). */
void srs_store_release(srs_store *s, srs_handle *h);

/* Makes `path` present at `tier` (MAPPED, PINNED or GPU) without taking a reference: it stays
 * until evicted (explicitly or by LRU). Errors as srs_store_acquire; tier DISK: CUZK_ERR_ARG. */
cuzk_status srs_store_preload(srs_store *s, const char *path, srs_tier tier, cuzk_error *err);

/* Drops the copies of `path` in tier `from` and every hotter tier (from = MAPPED or DISK: all
 * of them; the SRS becomes cold but stays known). CUZK_OK also when there was nothing to drop
 * (unknown path; a path whose file is gone is matched as given).
 * CUZK_ERR_BUSY, freeing nothing at all, when the SRS is being loaded or a copy to drop is in
 * use: PINNED while any handle is held, GPU while a handle acquired at GPU is held (the mapping
 * is never in use). CUZK_ERR_ARG: NULL s or path, from out of range. */
cuzk_status srs_store_evict(srs_store *s, const char *path, srs_tier from, cuzk_error *err);

typedef struct srs_store_stats {
    size_t budget_bytes[SRS_TIERS];   /* as created (0: unlimited) */
    size_t held_bytes[SRS_TIERS];     /* copies present; [DISK]: file bytes of cold SRSs */
    size_t used_bytes[SRS_TIERS];     /* held + reserved by loads in flight + being freed */
    size_t peak_used_bytes[SRS_TIERS];
    uint32_t entries;                 /* SRSs the store knows (any tier, DISK included) */
    uint32_t in_use;                  /* SRSs with at least one handle */
    uint32_t handles;                 /* handles held */
    uint32_t loading;                 /* SRSs being loaded now */
    uint64_t hits, misses;            /* acquire + preload calls that found / did not find */
    uint64_t loads[SRS_TIERS];        /* successful loads into each tier */
    uint64_t load_failures;
    double load_ms[SRS_TIERS];        /* wall time of those loads, summed */
    uint64_t evictions[SRS_TIERS];    /* copies dropped (LRU or explicit) */
    uint64_t lru_evictions;           /* of which by LRU to make room */
} srs_store_stats;

/* A consistent snapshot. */
void srs_store_get_stats(srs_store *s, srs_store_stats *out);

typedef struct srs_entry_info {
    bool present[SRS_TIERS];          /* [DISK] true when known and nothing is held */
    bool loading;
    bool host_g1_released;            /* the PINNED view is lean (release_host_g1) */
    uint32_t refs, refs_device;       /* handles; handles at GPU */
    size_t file_bytes, host_bytes, device_bytes; /* host_bytes: a whole view (the layout's) */
    size_t pinned_bytes;              /* host bytes the PINNED view holds now (0: none) */
    double last_load_ms[SRS_TIERS];   /* wall time of the last load into each tier */
    uint64_t last_use;                /* LRU clock: larger is more recent */
} srs_entry_info;

/* Snapshot of one SRS. CUZK_ERR_ARG for NULL arguments; CUZK_ERR_IO (errno ENOENT) when the
 * store does not know path. */
cuzk_status srs_store_entry_info(srs_store *s, const char *path, srs_entry_info *out, cuzk_error *err);

#endif
