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

/* ---- split prover ---------------------------------------------------------------------------- */
#include "groth16/groth16.h"
#include "r1cs/synthetic.h"

typedef struct {
    synthetic_params sp;
    r1cs cs;
    bellperson_params p;
} small_circuit;

static int small_circuit_make(small_circuit *c, uint32_t rows, uint32_t n_public) {
    memset(c, 0, sizeof *c);
    synthetic_params_default(&c->sp, rows);
    c->sp.n_public = n_public;
    c->sp.seed = 42;
    cuzk_error e = {0};
    if (synthetic_r1cs(&c->cs, &c->sp, &e) != CUZK_OK) return 0;
    uint64_t seed = 7;
    if (groth16_setup_bellperson(&c->p, &c->cs, &seed, 2, &e) != CUZK_OK) { r1cs_free(&c->cs); return 0; }
    return 1;
}
static void small_circuit_free(small_circuit *c) {
    bellperson_params_free(&c->p);
    r1cs_free(&c->cs);
}
static void fixed_rs(fr *r, fr *s, uint64_t k) {
    fr_from_u64(r, 1000 + k);
    fr_from_u64(s, 2000 + 3 * k);
}

typedef struct { size_t bytes, calls; } release_count;
static void counting_release(void *ctx, void *ptr, size_t bytes) {
    release_count *rc = ctx;
    rc->bytes += bytes;
    rc->calls++;
    free(ptr);
}

TEST(engine, split_prover_equals_single_call) {
    small_circuit c;
    REQUIRE(small_circuit_make(&c, 1000, 4));
    fr *w = malloc(c.cs.n_vars * sizeof *w);
    REQUIRE(w);
    REQUIRE(synthetic_witness(w, c.cs.n_vars, &c.cs, &c.sp, 5, NULL) == CUZK_OK);
    fr r, s;
    fixed_rs(&r, &s, 1);
    groth16_proof one, split;
    cuzk_error e = {0};
    REQUIRE(groth16_prove_bellperson(&one, &c.p, &c.cs, w, c.cs.n_vars, &r, &s, 2, NULL, &e) == CUZK_OK);
    CHECK(groth16_verify(&c.p.vk, w + 1, c.cs.n_public, &one, &e) == CUZK_OK);
    groth16_pending *pend = NULL;
    release_count rc = {0};
    groth16_timings ts, tf;
    REQUIRE(groth16_prove_bellperson_start(&pend, &c.p, &c.cs, w, c.cs.n_vars, &r, &s, 2, counting_release, &rc, &ts,
                                           &e) == CUZK_OK);
    size_t start_bytes = groth16_bellperson_start_bytes(&c.p, &c.cs, 2);
    size_t pend_bytes = groth16_pending_bytes(pend);
    CHECK(rc.bytes + pend_bytes <= start_bytes);
    CHECK(rc.calls >= 9);
    /* the witness and the circuit may go away before finish; finish runs on another thread */
    memset(w, 0xff, c.cs.n_vars * sizeof *w);
    REQUIRE(groth16_prove_bellperson_finish(&split, pend, 1, &tf, &e) == CUZK_OK);
    CHECK_EQ_INT(groth16_prove_bellperson_finish(&split, pend, 1, NULL, NULL), CUZK_ERR_ARG);
    size_t before_free = rc.bytes;
    groth16_pending_free(pend);
    CHECK(rc.bytes > before_free && rc.bytes - before_free < pend_bytes); /* B scalars came back too */
    uint8_t b1[192], b2[192];
    bellperson_proof_encode(b1, &one);
    bellperson_proof_encode(b2, &split);
    CHECK_MEM(b1, b2, 192);
    CHECK(ts.total_ms > 0 && tf.total_ms >= 0);
    /* failures release everything: wrong witness length */
    rc = (release_count){0};
    CHECK_EQ_INT(groth16_prove_bellperson_start(&pend, &c.p, &c.cs, w, c.cs.n_vars - 1, &r, &s, 1, counting_release,
                                                &rc, NULL, NULL),
                 CUZK_ERR_MISMATCH);
    CHECK(pend == NULL);
    free(w);
    small_circuit_free(&c);
}
