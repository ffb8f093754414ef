/* Minimal data parallelism on the system's pthreads.
 *
 * parallel_for(n, nthreads, fn, ctx) calls fn(ctx, begin, end, tid) over disjoint chunks that
 * cover [0, n), using up to nthreads threads (the calling thread is one of them). It returns when
 * every chunk is done. nthreads <= 0 means cuzk_num_threads(). Thread-safety: reentrant; fn must
 * be safe to run concurrently on disjoint ranges.
 */
#ifndef CUZK_UTIL_PARALLEL_H
#define CUZK_UTIL_PARALLEL_H

#include <stddef.h>

typedef void (*parallel_fn)(void *ctx, size_t begin, size_t end, int tid);

/* Number of worker threads cuzk uses by default: what cuzk_set_threads set (include/cuzk/cuzk.h),
 * else the online CPUs. */
int cuzk_num_threads(void);
/* Runs fn over [0, n) split in `nthreads` contiguous chunks (fewer if n is small). */
void parallel_for(size_t n, int nthreads, parallel_fn fn, void *ctx);

#endif
