#include "util/parallel.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <unistd.h>

#include "cuzk/cuzk.h"

/* The process-wide default set by cuzk_set_threads (0: the online CPUs). The library reads no
 * environment variable for it: the programs map $CUZK_THREADS onto it (src/cli/frontend.c). */
static atomic_int g_default_threads;

void cuzk_set_threads(int n) { atomic_store(&g_default_threads, n > 0 ? n : 0); }

int cuzk_threads(void) { return cuzk_num_threads(); }

int cuzk_num_threads(void) {
    int set = atomic_load(&g_default_threads);
    if (set > 0) return set;
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (int)n : 1;
}

typedef struct {
    parallel_fn fn;
    void *ctx;
    size_t begin, end;
    int tid;
} chunk;

static void *run_chunk(void *arg) {
    chunk *c = arg;
    c->fn(c->ctx, c->begin, c->end, c->tid);
    return NULL;
}

void parallel_for(size_t n, int nthreads, parallel_fn fn, void *ctx) {
    if (n == 0) return;
    if (nthreads <= 0) nthreads = cuzk_num_threads();
    if ((size_t)nthreads > n) nthreads = (int)n;
    if (nthreads <= 1) { fn(ctx, 0, n, 0); return; }
    chunk *cs = calloc((size_t)nthreads, sizeof *cs);
    pthread_t *th = calloc((size_t)nthreads, sizeof *th);
    if (!cs || !th) { free(cs); free(th); fn(ctx, 0, n, 0); return; }
    int started = 0;
    for (int t = 0; t < nthreads; t++) {
        cs[t] = (chunk){fn, ctx, n * (size_t)t / (size_t)nthreads, n * (size_t)(t + 1) / (size_t)nthreads, t};
    }
    /* chunk 0 runs on the caller; a thread that fails to start runs inline too */
    char *ok = calloc((size_t)nthreads, 1);
    for (int t = 1; t < nthreads; t++) {
        if (ok && pthread_create(&th[t], NULL, run_chunk, &cs[t]) == 0) { ok[t] = 1; started++; }
        else run_chunk(&cs[t]);
    }
    run_chunk(&cs[0]);
    for (int t = 1; t < nthreads; t++)
        if (ok && ok[t]) pthread_join(th[t], NULL);
    (void)started;
    free(ok);
    free(cs);
    free(th);
}
