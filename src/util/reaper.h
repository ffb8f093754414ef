/* The reaper: deferred, serialized freeing of large buffers (DESIGN.md section 7; redis's
 * lazyfree applied to the lesson of the seeds, where 10 s of destructors hid behind a 26 s prove).
 *
 * One background thread takes items from a FIFO and, for each: calls wait_fn (if any; e.g. a
 * CUDA event synchronize, so device work that still reads the buffer finishes first), then
 * free_fn(free_ctx, ptr) (free(ptr) when free_fn is NULL), then the observer (timing, budget
 * release). Items are released in push order. The reaper counts the bytes pushed but not yet
 * freed (reaper_pending_bytes).
 *
 * Ownership: reaper_push takes ownership of ptr; the caller must not touch it afterwards.
 * free_ctx / wait_ctx must stay valid until the item is freed (reaper_drain returns).
 * Thread-safety: every function but reaper_destroy may be called from any thread concurrently.
 * reaper_destroy drains the queue, joins the thread and must not race with other calls.
 */
#ifndef CUZK_UTIL_REAPER_H
#define CUZK_UTIL_REAPER_H

#include <stddef.h>
#include <stdint.h>

#include "cuzk/cuzk.h"

typedef struct reaper reaper;

typedef void (*reaper_free_fn)(void *free_ctx, void *ptr);
/* Called on the reaper thread before the free; a non-OK status is logged and the buffer freed
 * anyway (the caller must only pass events that complete). */
typedef cuzk_status (*reaper_wait_fn)(void *wait_ctx);

typedef struct reaper_item {
    void *ptr;                 /* NULL: nothing to free (the observer still runs) */
    size_t bytes;              /* size for accounting */
    reaper_free_fn free_fn;    /* NULL: free(ptr) */
    void *free_ctx;
    reaper_wait_fn wait_fn;    /* NULL: none */
    void *wait_ctx;
    uint64_t tag;              /* opaque to the reaper, handed to the observer (job id, ...) */
    uint32_t tag2;             /* likewise (partition, ...) */
    size_t budgeted;           /* likewise (engine: bytes to release from its budget) */
} reaper_item;

/* Called on the reaper thread after each item is freed, with the monotonic times (now_ms) around
 * the wait + free. May be NULL. Must not call reaper_drain / reaper_destroy. */
typedef void (*reaper_observer_fn)(void *obs_ctx, const reaper_item *it, double t0_ms, double t1_ms);

/* Starts the thread. Errors: CUZK_ERR_ARG (out NULL), CUZK_ERR_NOMEM (allocation or thread). */
cuzk_status reaper_create(reaper **out, reaper_observer_fn obs, void *obs_ctx, cuzk_error *err);

/* Queues *it (copied). O(1), never blocks on the free itself. If the queue node cannot be
 * allocated the item is freed synchronously on the caller's thread (logged as a warning). */
void reaper_push(reaper *r, const reaper_item *it);
/* Convenience: queues free(ptr) of `bytes` bytes. */
void reaper_push_free(reaper *r, void *ptr, size_t bytes);

/* Blocks until every item pushed before the call has been freed. */
void reaper_drain(reaper *r);

/* Bytes pushed and not yet freed. */
size_t reaper_pending_bytes(reaper *r);

typedef struct reaper_stats {
    uint64_t items_freed, bytes_freed;
    double busy_ms;          /* total time spent in wait_fn + free_fn */
    size_t max_pending_bytes;
} reaper_stats;
void reaper_get_stats(reaper *r, reaper_stats *out);

/* Drains, stops and joins the thread, frees the reaper. NULL is a no-op. */
void reaper_destroy(reaper *r);

#endif
