/* engine suite: the reaper (src/engine/reaper.h), the split prover (groth16_prove_bellperson_start /
 * _finish), and the pipeline (include/cuzk/engine.h). Small circuits (2^10..2^12 rows). */
#include "test.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <time.h>

#include "engine/reaper.h"
#include "util/timer.h"

static void sleep_ms(double ms) {
    struct timespec ts = {(time_t)(ms / 1000), (long)((ms - 1000.0 * (time_t)(ms / 1000)) * 1e6)};
    while (nanosleep(&ts, &ts) != 0) {}
}

/* ---- reaper -------------------------------------------------------------------------------- */
typedef struct { atomic_int freed; atomic_int order[64]; atomic_int n; double sleep; } free_log;
static void logging_free(void *ctx, void *ptr) {
    free_log *l = ctx;
    if (l->sleep > 0) sleep_ms(l->sleep);
    int idx = *(int *)ptr;
    int k = atomic_fetch_add(&l->n, 1);
    if (k < 64) atomic_store(&l->order[k], idx);
    free(ptr);
    atomic_fetch_add(&l->freed, 1);
}
static cuzk_status waiting(void *ctx) { atomic_fetch_add((atomic_int *)ctx, 100); return CUZK_OK; }
typedef struct { atomic_int calls; atomic_llong bytes; } obs_log;
static void observer(void *ctx, const reaper_item *it, double t0, double t1) {
    obs_log *o = ctx;
    (void)t0; (void)t1;
    atomic_fetch_add(&o->calls, 1);
    atomic_fetch_add(&o->bytes, (long long)it->bytes);
}

TEST(engine, reaper_fifo_drain_and_accounting) {
    obs_log ob = {0};
    reaper *r = NULL;
    REQUIRE(reaper_create(&r, observer, &ob, NULL) == CUZK_OK);
    free_log fl = {0};
    fl.sleep = 2;
    atomic_int waited = 0;
    for (int i = 0; i < 20; i++) {
        int *p = malloc(4096);
        REQUIRE(p);
        *p = i;
        reaper_item it = {0};
        it.ptr = p;
        it.bytes = 4096;
        it.free_fn = logging_free;
        it.free_ctx = &fl;
        if (i % 2) { it.wait_fn = waiting; it.wait_ctx = &waited; }
        reaper_push(r, &it);
    }
    CHECK(reaper_pending_bytes(r) > 0);
    reaper_drain(r);
    CHECK_EQ_INT(reaper_pending_bytes(r), 0);
    CHECK_EQ_INT(atomic_load(&fl.freed), 20);
    CHECK_EQ_INT(atomic_load(&waited), 1000);
    for (int i = 0; i < 20; i++) CHECK_EQ_INT(atomic_load(&fl.order[i]), i);
    CHECK_EQ_INT(atomic_load(&ob.calls), 20);
    CHECK_EQ_INT(atomic_load(&ob.bytes), 20 * 4096);
    reaper_stats st;
    reaper_get_stats(r, &st);
    CHECK_EQ_INT(st.items_freed, 20);
    CHECK_EQ_INT(st.bytes_freed, 20 * 4096);
    CHECK(st.max_pending_bytes >= 4096);
    /* destroy with items still queued frees them all (LSan checks nothing leaks) */
    for (int i = 0; i < 5; i++) reaper_push_free(r, malloc(1 << 20), 1 << 20);
    reaper_destroy(r);
    reaper_destroy(NULL);
}

/* A slow free must not slow the pusher: 10 frees of 50 ms each, pushes return at once. */
TEST(engine, reaper_slow_free_off_the_caller) {
    reaper *r = NULL;
    REQUIRE(reaper_create(&r, NULL, NULL, NULL) == CUZK_OK);
    free_log fl = {0};
    fl.sleep = 50;
    double t0 = now_ms();
    for (int i = 0; i < 10; i++) {
        int *p = malloc(sizeof *p);
        REQUIRE(p);
        *p = i;
        reaper_item it = {0};
        it.ptr = p;
        it.bytes = sizeof *p;
        it.free_fn = logging_free;
        it.free_ctx = &fl;
        reaper_push(r, &it);
    }
    double t1 = now_ms();
    CHECK_MSG(t1 - t0 < 50, "pushes took %.1f ms", t1 - t0);
    reaper_drain(r);
    double t2 = now_ms();
    CHECK_MSG(t2 - t0 >= 450, "drain returned after %.1f ms", t2 - t0);
    CHECK_EQ_INT(atomic_load(&fl.freed), 10);
    reaper_destroy(r);
}
