/* engine suite: the reaper (src/engine/reaper.h), the split prover (groth16_prove_bellperson_start /
 * _finish), and the pipeline (include/cuzk/engine.h). Small circuits (2^10..2^12 rows). */
#include "test.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <time.h>

#include "util/abort.h"
#include "util/log.h"
#include "util/reaper.h"
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
#include <string.h>

#include "formats/snarkjs.h"
#include "groth16/groth16.h"
#include "groth16/prove.h"
#include "synth_circuit.h"

/* The suite's circuits: tests/synth_circuit.h with fixed seeds (circuit 42, setup 7 on the CPU with
 * two threads). */
typedef synth_circuit small_circuit;
static bool small_circuit_make(small_circuit *c, uint32_t rows, uint32_t n_public) {
    return synth_circuit_make(c, rows, n_public, 42, 7, GROTH16_BACKEND_CPU, 2);
}
static void fixed_rs(fr *r, fr *s, uint64_t k) {
    fr_from_u64(r, 1000 + k);
    fr_from_u64(s, 2000 + 3 * k);
}

/* c's synthetic witness for seed (malloc'd, caller frees), NULL (a failed check) if it cannot be made. */
static fr *witness_for(const small_circuit *c, uint64_t seed) {
    fr *w = malloc(c->cs.n_vars * sizeof *w);
    CHECK_MSG(w, "witness: out of memory");
    if (w && synthetic_witness(w, c->cs.n_vars, &c->cs, &c->sp, seed, NULL) != CUZK_OK) {
        CHECK_MSG(0, "synthetic_witness failed");
        free(w);
        w = NULL;
    }
    return w;
}

/* The split prover tests' case: *c the 1000-row circuit with 4 public inputs, r and s fixed (k = 1);
 * returns its witness of seed 5 (caller frees both), or NULL after a failed check, with nothing
 * left to free. */
static fr *split_case(small_circuit *c, fr *r, fr *s) {
    bool made = small_circuit_make(c, 1000, 4);
    CHECK_MSG(made, "the 1000-row circuit");
    fr *w = made ? witness_for(c, 5) : NULL;
    if (!w && made) synth_circuit_free(c);
    fixed_rs(r, s, 1);
    return w;
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
    fr r, s, *w = split_case(&c, &r, &s);
    REQUIRE(w);
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
    synth_circuit_free(&c);
}

/* Cancellation inside a start (util/abort.h): a probe that fires at its k-th question stops the
 * CPU start at the k-th stage boundary (a/b/c, H, MSM A, B1, L, H), CUZK_ERR_CANCELLED naming the
 * stage, no pending, every buffer handed back through the release hook (leaks: ASan); the probe is
 * asked exactly k times. Past the last boundary the start completes, and finish stops before B_G2. */
typedef struct { int fire_at, asked; } probe_state;
static int counting_probe(void *ctx) {
    probe_state *ps = ctx;
    return ++ps->asked == ps->fire_at;
}

TEST(engine, start_stops_at_every_stage_boundary) {
    small_circuit c;
    fr r, s, *w = split_case(&c, &r, &s);
    REQUIRE(w);
    static const char *const stage[6] = {"a/b/c", "H", "MSM A", "MSM B1", "MSM L", "MSM H"};
    for (int k = 1; k <= 7; k++) {
        probe_state ps = {k, 0};
        release_count rc = {0};
        groth16_pending *pend = NULL;
        cuzk_error e = {0};
        abort_probe_set(counting_probe, &ps);
        cuzk_status st = groth16_prove_bellperson_start(&pend, &c.p, &c.cs, w, c.cs.n_vars, &r, &s, 2, counting_release,
                                                        &rc, NULL, &e);
        abort_probe_set(NULL, NULL);
        if (k <= 6) {
            CHECK_EQ_INT(st, CUZK_ERR_CANCELLED);
            CHECK(pend == NULL);
            CHECK_EQ_INT(ps.asked, k);
            CHECK_MSG(strstr(e.msg, stage[k - 1]) != NULL, "k %d: \"%s\" should name %s", k, e.msg, stage[k - 1]);
            CHECK(rc.calls >= 1); /* the scratch went back through the hook */
        } else {
            /* seven questions never reach the 7th: the start completes; finish asks before B_G2 */
            CHECK_EQ_INT(st, CUZK_OK);
            CHECK_EQ_INT(ps.asked, 6);
            REQUIRE(pend);
            probe_state fin = {1, 0};
            groth16_proof pr;
            abort_probe_set(counting_probe, &fin);
            CHECK_EQ_INT(groth16_prove_bellperson_finish(&pr, pend, 1, NULL, &e), CUZK_ERR_CANCELLED);
            abort_probe_set(NULL, NULL);
            CHECK(strstr(e.msg, "B (G2)") != NULL);
            CHECK_EQ_INT(groth16_prove_bellperson_finish(&pr, pend, 1, NULL, &e), CUZK_OK); /* no probe: it proves */
            CHECK(groth16_verify(&c.p.vk, w + 1, c.cs.n_public, &pr, &e) == CUZK_OK);
            groth16_pending_free(pend);
        }
    }
    /* no probe on this thread: never aborted */
    CHECK_EQ_INT(abort_requested(), 0);
    free(w);
    synth_circuit_free(&c);

    /* the snarkjs convention's start: the same six boundaries */
    zkey z;
    wtns wt = {0};
    REQUIRE(zkey_load(&z, CUZK_FIXTURES_DIR "/bls12381/multiplier/circuit_final.zkey", false, NULL) == CUZK_OK);
    REQUIRE(wtns_load(&wt, CUZK_FIXTURES_DIR "/bls12381/multiplier/witness.wtns", NULL) == CUZK_OK);
    static const char *const zstage[6] = {"a/b", "H", "MSM A", "MSM B1", "MSM L", "MSM H"};
    for (int k = 1; k <= 6; k++) {
        probe_state ps = {k, 0};
        groth16_pending *pend = NULL;
        cuzk_error e = {0};
        abort_probe_set(counting_probe, &ps);
        cuzk_status st = groth16_zkey_start(&pend, &z, &groth16_stages_cpu, wt.w, wt.n, &r, &s, 1, NULL, NULL, NULL, &e);
        abort_probe_set(NULL, NULL);
        CHECK_EQ_INT(st, CUZK_ERR_CANCELLED);
        CHECK(pend == NULL && ps.asked == k);
        CHECK_MSG(strstr(e.msg, zstage[k - 1]) != NULL, "zkey k %d: \"%s\" should name %s", k, e.msg, zstage[k - 1]);
    }
    wtns_free(&wt);
    zkey_free(&z);
}

/* The snarkjs sequence's optional B_G2 stage (groth16_stages.b2_msm: the GPU backend's device
 * B_G2), here over the CPU's G2 MSM with the CPU's other stages. A begin that puts B_G2 there
 * (GROTH16_B2_ON_DEVICE) gets it called once, after the G1 MSMs, with finish's CPU inputs (the
 * zkey's b2, the whole witness canonical, n_vars); the pending is done with B_G2: it keeps no
 * witness scalars (they came back through the release hook inside start), finish computes nothing
 * and reports start's B_G2 time, both timings say b2_device, and the proof is the CPU's. Without
 * the stage (begin's ON_DEVICE is then ignored), or with a begin that leaves B_G2 in finish, the
 * stage is not called and finish computes it (same proof). A failing stage fails the start (its
 * status, no pending, end called, every buffer back); a probe that fires at the 7th stage boundary
 * cancels before the device B_G2 ("MSM B2"). */
typedef struct {
    groth16_b2_place place; /* what begin sets */
    cuzk_status fail;       /* the stage's status (CUZK_OK: it computes) */
    const zkey *z;
    const fr *w;
    int begins, ends, calls, args_ok;
} b2_stage_state;
static cuzk_status b2_test_begin(void *ctx, groth16_b2_place *b2, cuzk_error *err) {
    (void)err;
    b2_stage_state *x = ctx;
    x->begins++;
    CHECK_EQ_INT(*b2, GROTH16_B2_IN_FINISH);
    *b2 = x->place;
    return CUZK_OK;
}
static void b2_test_end(void *ctx) { ((b2_stage_state *)ctx)->ends++; }
static cuzk_status b2_test_msm(void *ctx, g2_jacobian *out, const g2_affine *bases, const scalar256 *scalars, size_t n,
                               int nthreads, cuzk_error *err) {
    b2_stage_state *x = ctx;
    x->calls++;
    int ok = bases == x->z->b2 && n == x->z->n_vars;
    for (size_t i = 0; ok && i < n; i++) {
        scalar256 c;
        fr_to_canon(c.l, &x->w[i]);
        ok = !memcmp(c.l, scalars[i].l, sizeof c.l);
    }
    x->args_ok = ok;
    if (x->fail != CUZK_OK) return ERR(err, x->fail, "the test's B_G2 stage fails");
    g2_msm(out, bases, scalars, n, nthreads);
    return CUZK_OK;
}

TEST(engine, zkey_start_runs_the_b2_stage) {
    zkey z;
    wtns wt = {0};
    REQUIRE(zkey_load(&z, CUZK_FIXTURES_DIR "/bls12381/merkle_mimc5/circuit_final.zkey", false, NULL) == CUZK_OK);
    REQUIRE(wtns_load(&wt, CUZK_FIXTURES_DIR "/bls12381/merkle_mimc5/witness.wtns", NULL) == CUZK_OK);
    fr r, s;
    fixed_rs(&r, &s, 3);
    cuzk_error e = {0};
    groth16_proof ref;
    REQUIRE(groth16_prove_zkey(&ref, &z, wt.w, wt.n, &r, &s, 2, NULL, &e) == CUZK_OK);
    uint8_t bref[192], bgot[192];
    bellperson_proof_encode(bref, &ref);
    const size_t ws_bytes = (size_t)wt.n * sizeof(scalar256);
    /* place, stage present, the stage's status */
    static const struct { groth16_b2_place place; int stage; cuzk_status fail; } cases[] = {
        {GROTH16_B2_ON_DEVICE, 1, CUZK_OK},    {GROTH16_B2_ON_DEVICE, 0, CUZK_OK},
        {GROTH16_B2_IN_FINISH, 1, CUZK_OK},    {GROTH16_B2_ON_DEVICE, 1, CUZK_ERR_NOMEM_DEVICE}};
    size_t pb[4] = {0};
    for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
        b2_stage_state x = {cases[k].place, cases[k].fail, &z, wt.w, 0, 0, 0, 0};
        groth16_stages stg = groth16_stages_cpu;
        stg.ctx = &x;
        stg.begin = b2_test_begin;
        stg.end = b2_test_end;
        stg.b2_msm = cases[k].stage ? b2_test_msm : NULL;
        const int device = cases[k].place == GROTH16_B2_ON_DEVICE && cases[k].stage;
        groth16_pending *pend = NULL;
        groth16_timings ts = {0}, tf = {0};
        release_count rc = {0};
        cuzk_status st = groth16_zkey_start(&pend, &z, &stg, wt.w, wt.n, &r, &s, 2, counting_release, &rc, &ts, &e);
        CHECK_EQ_INT(x.begins, 1);
        CHECK_EQ_INT(x.ends, 1);
        CHECK_EQ_INT(x.calls, device);
        if (device) CHECK_MSG(x.args_ok, "case %zu: the B_G2 stage got other inputs than finish's CPU B_G2", k);
        if (cases[k].fail != CUZK_OK) {
            CHECK_EQ_INT(st, cases[k].fail);
            CHECK(pend == NULL);
            CHECK(rc.calls >= 5); /* a, b, c, h scalars, witness scalars */
            continue;
        }
        CHECK_MSG(st == CUZK_OK, "case %zu: %s", k, e.msg);
        if (st != CUZK_OK) continue;
        pb[k] = groth16_pending_bytes(pend);
        CHECK(rc.calls == (device ? 5u : 4u)); /* a, b, c, the h scalars, [the witness scalars] */
        CHECK_EQ_INT(ts.b2_device, device);
        if (device) CHECK(ts.msm_b2_ms > 0 && ts.total_ms >= ts.msm_b2_ms);
        else CHECK(ts.msm_b2_ms == 0);
        st = groth16_prove_bellperson_finish(&ref, pend, 2, &tf, &e);
        groth16_pending_free(pend);
        CHECK_MSG(st == CUZK_OK, "case %zu finish: %s", k, e.msg);
        if (st != CUZK_OK) continue;
        CHECK_EQ_INT(tf.b2_device, device);
        if (device) CHECK(tf.msm_b2_ms == ts.msm_b2_ms);
        bellperson_proof_encode(bgot, &ref);
        CHECK_MSG(!memcmp(bref, bgot, 192), "case %zu: the proof differs from groth16_prove_zkey's", k);
    }
    /* the device B_G2's pending holds no witness scalars; B_G2 in finish keeps them */
    CHECK_MSG(pb[0] + ws_bytes == pb[1] && pb[1] == pb[2], "pending bytes %zu (device), %zu, %zu (finish)", pb[0], pb[1],
              pb[2]);
    /* cancelled before the device B_G2: the 7th boundary */
    {
        b2_stage_state x = {GROTH16_B2_ON_DEVICE, CUZK_OK, &z, wt.w, 0, 0, 0, 0};
        groth16_stages stg = groth16_stages_cpu;
        stg.ctx = &x;
        stg.begin = b2_test_begin;
        stg.end = b2_test_end;
        stg.b2_msm = b2_test_msm;
        probe_state ps = {7, 0};
        groth16_pending *pend = NULL;
        abort_probe_set(counting_probe, &ps);
        cuzk_status st = groth16_zkey_start(&pend, &z, &stg, wt.w, wt.n, &r, &s, 1, NULL, NULL, NULL, &e);
        abort_probe_set(NULL, NULL);
        CHECK_EQ_INT(st, CUZK_ERR_CANCELLED);
        CHECK(pend == NULL && ps.asked == 7 && x.calls == 0 && x.ends == 1);
        CHECK_MSG(strstr(e.msg, "MSM B2") != NULL, "\"%s\" should name MSM B2", e.msg);
    }
    wtns_free(&wt);
    zkey_free(&z);
}

/* ---- the pipeline ------------------------------------------------------------------------------ */
#include <jansson.h>

#include "cuzk/engine.h"
#include "engine/engine_internal.h"

typedef struct {
    const small_circuit *c;
    double delay_ms[16];     /* per partition synthesis delay */
    int corrupt_partition;   /* -1: none; else its witness gets a wrong value */
    atomic_int calls;
} synth_ctx;

static cuzk_status synth_cb(void *vctx, uint32_t part, uint64_t *witness, size_t n_vars, cuzk_error *err) {
    synth_ctx *s = vctx;
    atomic_fetch_add(&s->calls, 1);
    if (part < 16 && s->delay_ms[part] > 0) sleep_ms(s->delay_ms[part]);
    fr *w = (fr *)witness;
    cuzk_status st = synthetic_witness(w, n_vars, &s->c->cs, &s->c->sp, 100 + part, err);
    if (st == CUZK_OK && (int)part == s->corrupt_partition) {
        fr one;
        fr_one(&one);
        fr_add(&w[n_vars / 2], &w[n_vars / 2], &one);
    }
    return st;
}

/* A synthesis context for c: no delays, no corrupt partition. */
static void synth_init(synth_ctx *sc, const small_circuit *c) {
    memset(sc, 0, sizeof *sc);
    sc->c = c;
    sc->corrupt_partition = -1;
}

/* Submits d and waits for it: its id in *id, the result in *r (caller frees). */
static cuzk_status submit_wait(cuzk_engine *e, const cuzk_job_desc *d, cuzk_job_id *id, cuzk_job_result *r,
                               cuzk_error *err) {
    cuzk_status st = cuzk_engine_submit(e, d, id, err);
    return st == CUZK_OK ? cuzk_engine_wait(e, *id, r, err) : st;
}

/* Submits d and waits for it (the result in *r, caller frees): checks the wait and that the job
 * ended DONE; false (after a failed check, *r unset) when it could not be submitted or waited for. */
static bool submit_wait_done(cuzk_engine *e, const cuzk_job_desc *d, cuzk_job_result *r) {
    cuzk_job_id id;
    cuzk_status st = submit_wait(e, d, &id, r, NULL);
    CHECK_EQ_INT(st, CUZK_OK);
    if (st != CUZK_OK) return false;
    CHECK_EQ_INT(r->state, CUZK_JOB_DONE);
    return true;
}

/* d runs and fails as a whole: state FAILED with status `want`, no proofs, the message naming
 * `needle`. */
static void check_job_fails(cuzk_engine *e, const cuzk_job_desc *d, cuzk_status want, const char *needle) {
    cuzk_job_id id;
    cuzk_job_result r;
    cuzk_error err = {0};
    REQUIRE(submit_wait(e, d, &id, &r, &err) == CUZK_OK);
    CHECK_EQ_INT(r.state, CUZK_JOB_FAILED);
    CHECK_EQ_INT(r.status, want);
    CHECK(r.proofs == NULL);
    CHECK_MSG(strstr(err.msg, needle) != NULL, "message: %s (should name %s)", err.msg, needle);
    cuzk_job_result_free(&r);
}

/* The engine's trace written to file (in the test folder) and read back (caller json_decref's); NULL,
 * after a failed check, when it cannot be written or read. */
static json_t *trace_read(cuzk_engine *e, const char *file) {
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", test_tmpdir(), file);
    cuzk_status st = cuzk_engine_trace_write(e, path, NULL);
    CHECK_EQ_INT(st, CUZK_OK);
    json_error_t je;
    json_t *root = st == CUZK_OK ? json_load_file(path, 0, &je) : NULL;
    CHECK_MSG(root, "trace %s: not JSON", path);
    return root;
}
/* The engine's trace (trace_read): how many events name a thread for which match() holds; -1 (a
 * failed check) when the trace cannot be written or read. */
static int trace_names(cuzk_engine *e, const char *file, bool (*match)(const char *name)) {
    json_t *root = trace_read(e, file);
    if (!root) return -1;
    int named = 0;
    json_t *ev;
    size_t k;
    json_array_foreach(json_object_get(root, "traceEvents"), k, ev) {
        const char *nm = json_string_value(json_object_get(json_object_get(ev, "args"), "name"));
        if (nm && match(nm)) named++;
    }
    json_decref(root);
    return named;
}
static bool one_worker_per_device(const char *nm) { return !strncmp(nm, "prove-start worker (device ", 27); }
static bool two_workers_per_device(const char *nm) {
    return !strcmp(nm, "prove-start worker 1 (device 1)") || !strcmp(nm, "prove-start worker 0 (device 0)");
}

/* Backends wrapping the CPU one (engine_backend_cpu): a wrap_be is its context, with hooks around
 * the CPU's start, finish and free (each may be NULL), embedded first in each test backend's own
 * context. The engine holds a wrap_pending: the CPU's pending, its partition and the wrap_be that
 * started it. */
typedef struct wrap_be wrap_be;
struct wrap_be {
    cuzk_status (*before_start)(wrap_be *w, uint32_t part, cuzk_error *err); /* non-OK: the start fails so */
    void (*after_start)(wrap_be *w, uint32_t part, cuzk_status st);           /* the CPU start's status */
    cuzk_status (*before_finish)(wrap_be *w, uint32_t part, const wrap_be *started_by, cuzk_error *err);
    void (*after_finish)(wrap_be *w, uint32_t part, cuzk_status st);
    void (*before_free)(wrap_be *w, const wrap_be *started_by);
};
typedef struct { void *inner; uint32_t part; const wrap_be *started_by; } wrap_pending;

static size_t wb_start_bytes(void *ctx, const cuzk_circuit *c, int nthreads) {
    (void)ctx;
    return engine_backend_cpu.start_bytes(NULL, c, nthreads) + sizeof(wrap_pending);
}
static cuzk_status wb_start(void *ctx, void **pending, uint64_t job, uint32_t part, const cuzk_circuit *c,
                            const groth16_fr_any *w, size_t n_w, const groth16_fr_any *r, const groth16_fr_any *s,
                            int nthreads, groth16_release_fn rel, void *rel_ctx,
                            groth16_timings *t, cuzk_error *err) {
    wrap_be *wb = ctx;
    *pending = NULL;
    cuzk_status st = wb->before_start ? wb->before_start(wb, part, err) : CUZK_OK;
    if (st != CUZK_OK) return st;
    wrap_pending *wp = malloc(sizeof *wp);
    if (!wp) return CUZK_ERR_NOMEM;
    wp->part = part;
    wp->started_by = wb;
    st = engine_backend_cpu.start(NULL, &wp->inner, job, part, c, w, n_w, r, s, nthreads, rel, rel_ctx, t, err);
    if (wb->after_start) wb->after_start(wb, part, st);
    if (st != CUZK_OK) { free(wp); return st; }
    *pending = wp;
    return CUZK_OK;
}
static cuzk_status wb_finish(void *ctx, const cuzk_circuit *c, uint8_t *out, void *pending, uint64_t job,
                             uint32_t part, int nthreads, groth16_timings *t, cuzk_error *err) {
    wrap_be *wb = ctx;
    wrap_pending *wp = pending;
    cuzk_status st = wb->before_finish ? wb->before_finish(wb, part, wp->started_by, err) : CUZK_OK;
    if (st != CUZK_OK) return st;
    st = engine_backend_cpu.finish(NULL, c, out, wp->inner, job, part, nthreads, t, err);
    if (wb->after_finish) wb->after_finish(wb, part, st);
    return st;
}
static size_t wb_pending_bytes(void *ctx, const cuzk_circuit *c, const void *pending) {
    (void)ctx;
    const wrap_pending *wp = pending;
    return engine_backend_cpu.pending_bytes(NULL, c, wp->inner) + sizeof *wp;
}
static void wb_pending_free(void *ctx, const cuzk_circuit *c, void *pending) {
    wrap_be *wb = ctx;
    wrap_pending *wp = pending;
    if (!wp) return;
    if (wb->before_free) wb->before_free(wb, wp->started_by);
    engine_backend_cpu.pending_free(NULL, c, wp->inner);
    free(wp);
}
static const engine_backend k_wrap_backend = {.name = "cpu-wrapped",
                                              .start_bytes = wb_start_bytes,
                                              .start = wb_start,
                                              .finish = wb_finish,
                                              .pending_bytes = wb_pending_bytes,
                                              .pending_free = wb_pending_free};

/* The test backend: per-partition delays and injected failures. */
typedef struct {
    wrap_be w;
    double start_delay_ms[16], finish_delay_ms[16];
    int fail_start_partition, fail_finish_partition; /* -1: none */
    int finish_after[16];      /* finish of partition i waits until partition finish_after[i] - 1 finished (0: none) */
    atomic_int finished[16];
} test_be;
static cuzk_status tb_before_start(wrap_be *w, uint32_t part, cuzk_error *err) {
    test_be *tb = (test_be *)w;
    if (part < 16 && tb->start_delay_ms[part] > 0) sleep_ms(tb->start_delay_ms[part]);
    if ((int)part == tb->fail_start_partition) return cuzk_error_set(err, CUZK_ERR_DEVICE, __FILE__, __LINE__, "injected");
    return CUZK_OK;
}
static cuzk_status tb_before_finish(wrap_be *w, uint32_t part, const wrap_be *started_by, cuzk_error *err) {
    test_be *tb = (test_be *)w;
    (void)started_by;
    if (part < 16 && tb->finish_delay_ms[part] > 0) sleep_ms(tb->finish_delay_ms[part]);
    if (part < 16 && tb->finish_after[part] > 0)
        for (int k = 0; k < 2000 && !atomic_load(&tb->finished[tb->finish_after[part] - 1]); k++) sleep_ms(5);
    if ((int)part == tb->fail_finish_partition) return cuzk_error_set(err, CUZK_ERR_DEVICE, __FILE__, __LINE__, "injected");
    return CUZK_OK;
}
static void tb_after_finish(wrap_be *w, uint32_t part, cuzk_status st) {
    (void)st;
    if (part < 16) atomic_store(&((test_be *)w)->finished[part], 1);
}
static void test_be_init(test_be *tb) {
    memset(tb, 0, sizeof *tb);
    tb->w = (wrap_be){.before_start = tb_before_start, .before_finish = tb_before_finish, .after_finish = tb_after_finish};
    tb->fail_start_partition = tb->fail_finish_partition = -1;
}

/* Expected proofs: single calls with the same witnesses and fixed r, s. */
static void expected_proofs(uint8_t *out, const small_circuit *c, uint32_t P, const uint64_t *rs) {
    fr *w = malloc(c->cs.n_vars * sizeof *w);
    for (uint32_t i = 0; i < P && w; i++) {
        groth16_proof pr;
        REQUIRE(synthetic_witness(w, c->cs.n_vars, &c->cs, &c->sp, 100 + i, NULL) == CUZK_OK);
        REQUIRE(groth16_prove_bellperson(&pr, &c->p, &c->cs, w, c->cs.n_vars, (const fr *)(rs + 8 * i),
                                         (const fr *)(rs + 8 * i + 4), 2, NULL, NULL) == CUZK_OK);
        bellperson_proof_encode(out + 192 * i, &pr);
    }
    free(w);
}
static void make_rs(uint64_t *rs, uint32_t P) {
    for (uint32_t i = 0; i < P; i++) fixed_rs((fr *)(rs + 8 * i), (fr *)(rs + 8 * i + 4), i);
}
static int verify_all(const small_circuit *c, const cuzk_job_result *res) {
    for (uint32_t i = 0; i < res->n_partitions; i++) {
        groth16_proof pr;
        if (bellperson_proof_decode(&pr, res->proofs + 192 * i, NULL) != CUZK_OK) return 0;
        /* public inputs come back canonical, 32 bytes each */
        fr pub[64];
        if (res->n_public > 64) return 0;
        for (uint32_t q = 0; q < res->n_public; q++)
            if (!fr_from_bytes_le(&pub[q], res->public_inputs + 32 * ((size_t)res->n_public * i + q), 32)) return 0;
        if (groth16_verify(&c->p.vk, pub, res->n_public, &pr, NULL) != CUZK_OK) return 0;
    }
    return 1;
}
static void check_all_released(cuzk_engine *e) {
    cuzk_engine_drain_frees(e);
    cuzk_engine_stats st;
    cuzk_engine_get_stats(e, &st);
    CHECK_EQ_INT(st.budget_reserved, 0);
    CHECK_EQ_INT(st.reaper_pending_bytes, 0);
    CHECK_EQ_INT(st.budget_underestimates, 0);
}

static small_circuit g_circ;
static int g_circ_ok;
static const small_circuit *circ(void) {
    if (!g_circ_ok) g_circ_ok = small_circuit_make(&g_circ, 1000, 4) ? 1 : -1;
    return g_circ_ok == 1 ? &g_circ : NULL;
}
__attribute__((destructor)) static void circ_free(void) {
    if (g_circ_ok == 1) synth_circuit_free(&g_circ);
}

/* A job of P <= 16 partitions of c as the tests submit it: c, c as the engine takes it (cc), the
 * synthesis context (synth_init), the description d (Montgomery witnesses, no witness check), r and
 * s random (JOB_RS_RANDOM) or fixed (fixed_rs(k) for partition k, in rs), and with
 * JOB_RS_EXPECTED the proofs single calls give with them (want, expected_proofs). Made in place
 * (d points into it), never copied. */
typedef enum { JOB_RS_RANDOM, JOB_RS_FIXED, JOB_RS_EXPECTED } job_rs;
typedef struct {
    const small_circuit *c;
    cuzk_circuit cc;
    synth_ctx sc;
    cuzk_job_desc d;
    uint64_t rs[8 * 16];
    uint8_t want[192 * 16];
} test_job;
static void test_job_init(test_job *j, const small_circuit *c, uint32_t P, job_rs rs) {
    j->c = c;
    j->cc = (cuzk_circuit){&c->cs, &c->p, NULL, NULL};
    synth_init(&j->sc, c);
    j->d = (cuzk_job_desc){&j->cc, P, synth_cb, &j->sc, rs != JOB_RS_RANDOM ? j->rs : NULL, 0, CUZK_WITNESS_FR_MONT, NULL, NULL};
    if (rs != JOB_RS_RANDOM) make_rs(j->rs, P);
    if (rs == JOB_RS_EXPECTED) expected_proofs(j->want, c, P, j->rs);
}
/* *j a job of P partitions of the suite's circuit (circ(), test_job_init); false (after a failed
 * check) when the circuit cannot be made. */
static bool circ_job(test_job *j, uint32_t P, job_rs rs) {
    const small_circuit *c = circ();
    CHECK_MSG(c, "the suite's circuit");
    if (c) test_job_init(j, c, P, rs);
    return c != NULL;
}
/* Waits for job id, which must end CANCELLED with no proofs. */
static void check_cancelled(cuzk_engine *e, cuzk_job_id id) {
    cuzk_job_result r;
    REQUIRE(cuzk_engine_wait(e, id, &r, NULL) == CUZK_OK);
    CHECK_EQ_INT(r.state, CUZK_JOB_CANCELLED);
    CHECK(r.proofs == NULL);
    cuzk_job_result_free(&r);
}
/* The end of a test: its last result r freed (NULL: none), every buffer, budget byte and pending
 * free back (check_all_released), then e destroyed. */
static void engine_done(cuzk_engine *e, cuzk_job_result *r) {
    if (r) cuzk_job_result_free(r);
    check_all_released(e);
    cuzk_engine_destroy(e);
}

/* A job's progress reports, as a front end would draw them. */
typedef struct progress_log {
    atomic_int inside;       /* a report in progress: calls must never overlap */
    int overlapped, n, decreasing;
    uint64_t last_done, total;
    char what[256][96];
} progress_log;
static void progress_rec(void *user, const char *what, uint64_t done, uint64_t total) {
    progress_log *pl = user;
    if (atomic_fetch_add(&pl->inside, 1) != 0) pl->overlapped = 1;
    if (done < pl->last_done) pl->decreasing = 1;
    pl->last_done = done;
    pl->total = total;
    if (pl->n < 256) snprintf(pl->what[pl->n++], sizeof pl->what[0], "%s", what);
    atomic_fetch_sub(&pl->inside, 1);
}
static int progress_saw(const progress_log *pl, const char *what) {
    for (int i = 0; i < pl->n; i++)
        if (!strcmp(pl->what[i], what)) return 1;
    return 0;
}

TEST(engine, pipeline_proofs_verify_and_equal_single_calls) {
    enum { P = 3 };
    test_job j;
    if (!circ_job(&j, P, JOB_RS_EXPECTED)) return;
    j.d.check_witness = 1;
    /* the CPU backend, whose stage names the progress check below lists (AUTO picks the GPU on a
     * GPU machine: its stages differ; the gpu_prove suite checks that backend) */
    cuzk_engine_opts o = {.backend = CUZK_BACKEND_CPU, .synthesis_workers = 2, .prove_threads = 2};
    cuzk_engine *e = NULL;
    REQUIRE(cuzk_engine_create(&e, &o, NULL) == CUZK_OK);
    static progress_log pl; /* job 1 reports its progress: every stage of every partition, one call at a time */
    memset(&pl, 0, sizeof pl);
    j.d.progress = progress_rec;
    j.d.progress_user = &pl;
    cuzk_job_id id1, id2;
    REQUIRE(cuzk_engine_submit(e, &j.d, &id1, NULL) == CUZK_OK);
    j.d.progress = NULL;
    j.d.fixed_rs = NULL; /* second job: random r, s, proofs must still verify */
    REQUIRE(cuzk_engine_submit(e, &j.d, &id2, NULL) == CUZK_OK);
    cuzk_job_result r1, r2;
    cuzk_error err = {0};
    REQUIRE(cuzk_engine_wait(e, id1, &r1, &err) == CUZK_OK);
    REQUIRE(cuzk_engine_wait(e, id2, &r2, &err) == CUZK_OK);
    CHECK_EQ_INT(r1.state, CUZK_JOB_DONE);
    CHECK_EQ_INT(r2.state, CUZK_JOB_DONE);
    REQUIRE(r1.proofs && r2.proofs);
    CHECK_MEM(r1.proofs, j.want, 192 * P);
    CHECK(verify_all(j.c, &r1));
    CHECK(verify_all(j.c, &r2));
    CHECK(memcmp(r1.proofs, r2.proofs, 192 * P) != 0);
    /* the progress reports: from synthesis to "proved" for every partition, the prover's own steps
     * in between (the CPU prover's stage boundaries), partitions proved counted up to P */
    CHECK(!pl.overlapped && !pl.decreasing && pl.last_done == P && pl.total == P && pl.n > 8 * P);
    for (int i = 0; i < P; i++) {
        static const char *const stages[] = {"synthesis", "witness check", "prove start", "a/b/c", "H", "MSM A", "MSM B1",
                                             "MSM L", "MSM H", "finish", "MSM B (G2)", "proved"};
        for (size_t k = 0; k < sizeof stages / sizeof stages[0]; k++) {
            char w[64];
            snprintf(w, sizeof w, "partition %d: %s", i, stages[k]);
            CHECK_MSG(progress_saw(&pl, w), "no progress report '%s' (%d reports)", w, pl.n);
        }
    }
    CHECK_MSG(pl.n > 0 && !strncmp(pl.what[pl.n - 1], "partition ", 10) && strstr(pl.what[pl.n - 1], ": proved"), "last: %s",
              pl.n ? pl.what[pl.n - 1] : "");
    /* timings are filled and the layers nest */
    for (int i = 0; i < P; i++) {
        const cuzk_partition_timings *t = &r1.timings[i];
        CHECK(t->synth_call_ms > 0 && t->synth_stage_ms >= t->synth_call_ms);
        CHECK(t->start_call_ms >= t->start_inner_ms && t->start_inner_ms > 0);
        CHECK(t->start_stage_ms >= t->start_call_ms);
        CHECK(t->finish_call_ms >= t->finish_inner_ms && t->finish_stage_ms >= t->finish_call_ms);
        CHECK(t->total_ms >= t->start_stage_ms + t->finish_stage_ms);
    }
    /* several jobs overlap: job 2 started synthesis before job 1's last proof */
    double j1_end = 0, j2_begin = 1e300;
    for (int i = 0; i < P; i++) {
        if (r1.timings[i].t_end_ms > j1_end) j1_end = r1.timings[i].t_end_ms;
        if (r2.timings[i].t_begin_ms < j2_begin) j2_begin = r2.timings[i].t_begin_ms;
    }
    CHECK_MSG(j2_begin < j1_end, "job 2 began %.1f ms after job 1 ended", j2_begin - j1_end);
    CHECK_EQ_INT(cuzk_engine_wait(e, id1, &r1, NULL), CUZK_ERR_ARG); /* already waited */
    CHECK_EQ_INT(cuzk_engine_cancel(e, id1), CUZK_ERR_ARG);
    /* the trace is valid JSON with complete events on several threads */
    json_t *root = trace_read(e, "trace.json");
    if (!root) return;
    json_t *ev = json_object_get(root, "traceEvents");
    CHECK(json_is_array(ev) && json_array_size(ev) > 20);
    int n_x = 0, saw_free = 0, saw_start = 0;
    for (size_t i = 0; i < json_array_size(ev); i++) {
        json_t *x = json_array_get(ev, i);
        const char *ph = json_string_value(json_object_get(x, "ph"));
        const char *nm = json_string_value(json_object_get(x, "name"));
        if (ph && !strcmp(ph, "X")) n_x++;
        if (nm && !strcmp(nm, "free")) saw_free = 1;
        if (nm && !strcmp(nm, "prove start (call)")) saw_start = 1;
    }
    json_decref(root);
    CHECK(n_x > 20 && saw_free && saw_start);
    cuzk_job_result_free(&r1);
    engine_done(e, &r2);
}

TEST(engine, out_of_order_completion_in_order_proofs) {
    enum { P = 4 };
    test_job j;
    if (!circ_job(&j, P, JOB_RS_EXPECTED)) return;
    j.sc.delay_ms[0] = 150; /* partition 0 synthesizes after partition 1 */
    test_be tb;
    test_be_init(&tb);
    tb.finish_after[0] = 3 + 1; /* and finishes after partition 3 */
    tb.finish_after[1] = 2 + 1; /* and 1 after 2 */
    cuzk_engine_opts o = {.synthesis_workers = 2, .finish_workers = 3, .prove_threads = 2};
    cuzk_engine *e = NULL;
    REQUIRE(engine_create_with_backend(&e, &o, &k_wrap_backend, &tb.w, NULL) == CUZK_OK);
    cuzk_job_result r;
    if (!submit_wait_done(e, &j.d, &r)) return;
    REQUIRE(r.proofs);
    CHECK_MEM(r.proofs, j.want, 192 * P);
    CHECK_MSG(r.timings[0].t_end_ms > r.timings[3].t_end_ms && r.timings[1].t_end_ms > r.timings[2].t_end_ms,
              "completion order was not shuffled");
    CHECK(verify_all(j.c, &r));
    engine_done(e, &r);
}

TEST(engine, failing_partition_fails_job_and_frees_everything) {
    const small_circuit *c = circ();
    REQUIRE(c);
    test_be tb;
    test_be_init(&tb);
    cuzk_engine_opts o = {.synthesis_workers = 2, .finish_workers = 2, .prove_threads = 2};
    cuzk_engine *e = NULL;
    REQUIRE(engine_create_with_backend(&e, &o, &k_wrap_backend, &tb.w, NULL) == CUZK_OK);
    /* 1. a corrupted witness of partition 2, caught by the witness check: UNSAT */
    test_job j;
    test_job_init(&j, c, 4, JOB_RS_RANDOM);
    j.sc.corrupt_partition = 2;
    j.d.check_witness = 1;
    cuzk_job_desc *d = &j.d;
    cuzk_job_id id;
    REQUIRE(cuzk_engine_submit(e, d, &id, NULL) == CUZK_OK);
    cuzk_job_result r;
    cuzk_error err = {0};
    REQUIRE(cuzk_engine_wait(e, id, &r, &err) == CUZK_OK);
    CHECK_EQ_INT(r.state, CUZK_JOB_FAILED);
    CHECK_EQ_INT(r.status, CUZK_ERR_UNSAT);
    CHECK_EQ_INT(r.failed_partition, 2);
    CHECK_EQ_INT(err.code, CUZK_ERR_UNSAT);
    CHECK(r.proofs == NULL);
    CHECK_MSG(strstr(err.msg, "partition 2: witness does not satisfy constraint"), "%s", err.msg);
    cuzk_job_result_free(&r);
    /* 1b. CUZK_CHECK_WITNESS_FIRST checks partition 0 only: the same job goes through (partition
     * 2's proof is made from its bad witness), a bad partition 0 fails it with UNSAT */
    d->check_witness = CUZK_CHECK_WITNESS_FIRST;
    REQUIRE(cuzk_engine_submit(e, d, &id, NULL) == CUZK_OK);
    REQUIRE(cuzk_engine_wait(e, id, &r, &err) == CUZK_OK);
    CHECK_EQ_INT(r.state, CUZK_JOB_DONE);
    cuzk_job_result_free(&r);
    j.sc.corrupt_partition = 0;
    REQUIRE(cuzk_engine_submit(e, d, &id, NULL) == CUZK_OK);
    REQUIRE(cuzk_engine_wait(e, id, &r, &err) == CUZK_OK);
    CHECK_EQ_INT(r.state, CUZK_JOB_FAILED);
    CHECK_EQ_INT(r.status, CUZK_ERR_UNSAT);
    CHECK_EQ_INT(r.failed_partition, 0);
    CHECK_MSG(strstr(err.msg, "partition 0: witness does not satisfy constraint"), "%s", err.msg);
    cuzk_job_result_free(&r);
    d->check_witness = 1;
    /* 2. an injected failure in start of partition 1, and 3. in finish of partition 3; a healthy
     * job submitted behind them still succeeds */
    j.sc.corrupt_partition = -1;
    tb.fail_start_partition = 1;
    d->check_witness = 0;
    REQUIRE(cuzk_engine_submit(e, d, &id, NULL) == CUZK_OK);
    REQUIRE(cuzk_engine_wait(e, id, &r, &err) == CUZK_OK);
    CHECK_EQ_INT(r.state, CUZK_JOB_FAILED);
    CHECK_EQ_INT(r.status, CUZK_ERR_DEVICE);
    CHECK_EQ_INT(r.failed_partition, 1);
    cuzk_job_result_free(&r);
    tb.fail_start_partition = -1;
    tb.fail_finish_partition = 3;
    cuzk_job_id id2;
    REQUIRE(cuzk_engine_submit(e, d, &id, NULL) == CUZK_OK);
    d->n_partitions = 2; /* partitions 0, 1 only: never reaches the failing one */
    REQUIRE(cuzk_engine_submit(e, d, &id2, NULL) == CUZK_OK);
    REQUIRE(cuzk_engine_wait(e, id, &r, &err) == CUZK_OK);
    CHECK_EQ_INT(r.state, CUZK_JOB_FAILED);
    CHECK_EQ_INT(r.failed_partition, 3);
    cuzk_job_result_free(&r);
    REQUIRE(cuzk_engine_wait(e, id2, &r, &err) == CUZK_OK);
    CHECK_EQ_INT(r.state, CUZK_JOB_DONE);
    CHECK(verify_all(c, &r));
    cuzk_job_result_free(&r);
    check_all_released(e);
    /* misuse */
    cuzk_job_desc bad = *d;
    bad.n_partitions = 0;
    CHECK_EQ_INT(cuzk_engine_submit(e, &bad, &id, NULL), CUZK_ERR_ARG);
    bad = *d;
    bad.synth = NULL;
    CHECK_EQ_INT(cuzk_engine_submit(e, &bad, &id, NULL), CUZK_ERR_ARG);
    CHECK_EQ_INT(cuzk_engine_wait(e, 12345, &r, NULL), CUZK_ERR_ARG);
    cuzk_engine_destroy(e);
}

/* Every buffer is freed by a function that sleeps 100 ms: the prover calls must not get slower
 * (they only queue the frees), and the job completes long before the reaper is done. */
TEST(engine, slow_free_does_not_lengthen_prove_latency) {
    const small_circuit *c = circ();
    REQUIRE(c);
    enum { P = 2 };
    double call_ms[2] = {0, 0};
    double done_pending[2] = {0, 0};
    for (int slow = 0; slow < 2; slow++) {
        /* the CPU backend: its partitions' buffers are host memory freed through the reaper (on the
         * GPU backend most of a partition lives in device buffers and pools, not the reaper) */
        cuzk_engine_opts o = {.backend = CUZK_BACKEND_CPU, .prove_threads = 2};
        cuzk_engine *e = NULL;
        REQUIRE(cuzk_engine_create(&e, &o, NULL) == CUZK_OK);
        if (slow) engine_test_set_free_delay(e, 100);
        test_job j;
        test_job_init(&j, c, P, JOB_RS_RANDOM);
        cuzk_job_result r;
        if (!submit_wait_done(e, &j.d, &r)) return;
        CHECK(verify_all(c, &r));
        cuzk_engine_stats st;
        cuzk_engine_get_stats(e, &st);
        done_pending[slow] = (double)st.reaper_pending_bytes;
        for (int i = 0; i < P; i++) {
            double m = r.timings[i].start_call_ms + r.timings[i].finish_call_ms;
            if (m > call_ms[slow]) call_ms[slow] = m;
            /* the gap between the call and the prover's own stages stays small */
            CHECK_MSG(r.timings[i].start_call_ms - r.timings[i].start_inner_ms < 20, "start gap %.1f ms",
                      r.timings[i].start_call_ms - r.timings[i].start_inner_ms);
        }
        cuzk_job_result_free(&r);
        double t0 = now_ms();
        check_all_released(e);
        if (slow) CHECK_MSG(now_ms() - t0 > 200, "the reaper finished within %.1f ms", now_ms() - t0);
        cuzk_engine_destroy(e);
    }
    printf("  start+finish call: %.1f ms with plain frees, %.1f ms with 100 ms frees\n", call_ms[0], call_ms[1]);
    CHECK(done_pending[1] > 0); /* job done while frees were still queued */
    CHECK_MSG(call_ms[1] < 1.5 * call_ms[0] + 100, "calls got slower: %.1f -> %.1f ms", call_ms[0], call_ms[1]);
}

TEST(engine, budget_never_exceeded_under_concurrency) {
    const small_circuit *c = circ();
    REQUIRE(c);
    size_t part = (size_t)c->cs.n_vars * sizeof(fr) + groth16_bellperson_start_bytes(&c->p, &c->cs, 2);
    /* the CPU backend, whose host bytes per partition `part` is (the GPU backend's differ) */
    cuzk_engine_opts o = {.backend = CUZK_BACKEND_CPU, .synthesis_workers = 3, .finish_workers = 2, .prove_threads = 2,
                          .queue_depth = 4, .host_budget_bytes = part * 2 + part / 2}; /* room for two partitions at a time */
    cuzk_engine *e = NULL;
    REQUIRE(cuzk_engine_create(&e, &o, NULL) == CUZK_OK);
    engine_test_set_free_delay(e, 5); /* frees lag a little: the budget must wait for them */
    test_job j;
    test_job_init(&j, c, 3, JOB_RS_RANDOM);
    cuzk_job_id ids[3];
    for (int k = 0; k < 3; k++) REQUIRE(cuzk_engine_submit(e, &j.d, &ids[k], NULL) == CUZK_OK);
    for (int k = 0; k < 3; k++) {
        cuzk_job_result r;
        REQUIRE(cuzk_engine_wait(e, ids[k], &r, NULL) == CUZK_OK);
        CHECK_EQ_INT(r.state, CUZK_JOB_DONE);
        CHECK(verify_all(c, &r));
        cuzk_job_result_free(&r);
    }
    cuzk_engine_stats st;
    cuzk_engine_get_stats(e, &st);
    printf("  budget %zu bytes (%.1f partitions): max reserved %zu, waited %.1f ms\n", st.budget_limit,
           (double)st.budget_limit / (double)part, st.budget_max_reserved, st.budget_wait_ms);
    CHECK(st.budget_max_reserved <= st.budget_limit);
    CHECK(st.budget_max_reserved >= part);
    CHECK(st.budget_wait_ms > 0); /* backpressure happened */
    check_all_released(e);
    /* a job whose partition cannot fit at all is refused up front */
    cuzk_engine_destroy(e);
    o.host_budget_bytes = part / 2;
    REQUIRE(cuzk_engine_create(&e, &o, NULL) == CUZK_OK);
    cuzk_job_id id;
    CHECK_EQ_INT(cuzk_engine_submit(e, &j.d, &id, NULL), CUZK_ERR_MISMATCH);
    cuzk_engine_destroy(e);
}

TEST(engine, cancel_queued_and_running_jobs) {
    const small_circuit *c = circ();
    REQUIRE(c);
    cuzk_engine_opts o = {.prove_threads = 2};
    cuzk_engine *e = NULL;
    REQUIRE(cuzk_engine_create(&e, &o, NULL) == CUZK_OK);
    test_job j;
    test_job_init(&j, c, 6, JOB_RS_RANDOM);
    for (int i = 0; i < 16; i++) j.sc.delay_ms[i] = 150;
    cuzk_job_id running, queued;
    double t0 = now_ms();
    REQUIRE(cuzk_engine_submit(e, &j.d, &running, NULL) == CUZK_OK);
    REQUIRE(cuzk_engine_submit(e, &j.d, &queued, NULL) == CUZK_OK);
    CHECK_EQ_INT(cuzk_engine_cancel(e, queued), CUZK_OK);
    sleep_ms(200); /* the first job is running: partition 0 synthesized, partition 1 synthesizing */
    CHECK_EQ_INT(cuzk_engine_cancel(e, running), CUZK_OK);
    check_cancelled(e, queued);
    check_cancelled(e, running);
    double dt = now_ms() - t0;
    int calls = atomic_load(&j.sc.calls);
    CHECK_MSG(calls <= 3, "%d partitions were synthesized after the cancellations", calls);
    CHECK_MSG(dt < 12 * 150, "cancellation took %.1f ms", dt);
    check_all_released(e);
    /* a job still queued at destroy is cancelled and freed by destroy */
    REQUIRE(cuzk_engine_submit(e, &j.d, &queued, NULL) == CUZK_OK);
    cuzk_engine_destroy(e);
}

/* A cancel while a partition is inside its prove start stops that start at its next stage
 * boundary: the backend below enters start, waits until the job is cancelled (its thread's probe,
 * set by the engine's prove worker, says so), then runs the real CPU start, which must answer
 * CUZK_ERR_CANCELLED at its first boundary; finish never runs, the job ends CANCELLED and every
 * budget byte comes back. A second job on the same engine then proves normally. */
typedef struct {
    wrap_be w;
    atomic_int entered, inner_status, finishes;
} cancel_be;
static cuzk_status cb_before_start(wrap_be *w, uint32_t part, cuzk_error *err) {
    (void)part;
    (void)err;
    if (atomic_fetch_add(&((cancel_be *)w)->entered, 1) == 0)
        for (int i = 0; i < 4000 && !abort_requested(); i++) sleep_ms(1); /* the first start waits for the cancel */
    return CUZK_OK;
}
static void cb_after_start(wrap_be *w, uint32_t part, cuzk_status st) {
    (void)part;
    atomic_store(&((cancel_be *)w)->inner_status, (int)st);
}
static cuzk_status cb_before_finish(wrap_be *w, uint32_t part, const wrap_be *started_by, cuzk_error *err) {
    (void)part;
    (void)started_by;
    (void)err;
    atomic_fetch_add(&((cancel_be *)w)->finishes, 1);
    return CUZK_OK;
}

TEST(engine, cancel_stops_a_running_start_at_a_stage_boundary) {
    const small_circuit *c = circ();
    REQUIRE(c);
    cancel_be cb = {.w = {.before_start = cb_before_start, .after_start = cb_after_start,
                          .before_finish = cb_before_finish}};
    atomic_init(&cb.entered, 0);
    atomic_init(&cb.inner_status, -1);
    atomic_init(&cb.finishes, 0);
    cuzk_engine_opts o = {.prove_threads = 2, .host_budget_bytes = (size_t)1 << 30};
    cuzk_engine *e = NULL;
    REQUIRE(engine_create_with_backend(&e, &o, &k_wrap_backend, &cb.w, NULL) == CUZK_OK);
    test_job j;
    test_job_init(&j, c, 1, JOB_RS_RANDOM);
    cuzk_job_id id;
    REQUIRE(cuzk_engine_submit(e, &j.d, &id, NULL) == CUZK_OK);
    for (int i = 0; i < 5000 && !atomic_load(&cb.entered); i++) sleep_ms(1);
    REQUIRE(atomic_load(&cb.entered) == 1);
    double t0 = now_ms();
    CHECK_EQ_INT(cuzk_engine_cancel(e, id), CUZK_OK);
    cuzk_job_result r;
    REQUIRE(cuzk_engine_wait(e, id, &r, NULL) == CUZK_OK);
    double dt = now_ms() - t0;
    CHECK_EQ_INT(r.state, CUZK_JOB_CANCELLED);
    CHECK_EQ_INT(atomic_load(&cb.inner_status), CUZK_ERR_CANCELLED);
    CHECK_EQ_INT(atomic_load(&cb.finishes), 0);
    CHECK_MSG(dt < 2000, "the cancelled start took %.1f ms to stop", dt);
    cuzk_job_result_free(&r);
    check_all_released(e);
    /* the engine goes on: the next job proves and verifies */
    REQUIRE(cuzk_engine_submit(e, &j.d, &id, NULL) == CUZK_OK);
    REQUIRE(cuzk_engine_wait(e, id, &r, NULL) == CUZK_OK);
    CHECK_EQ_INT(r.state, CUZK_JOB_DONE);
    CHECK(r.state == CUZK_JOB_DONE && verify_all(c, &r));
    CHECK_EQ_INT(atomic_load(&cb.finishes), 1);
    engine_done(e, &r);
}

/* Producers blocked on a full prove queue get in first come, first in: with a slow prove stage
 * (60 ms), a queue of one and partitions reaching the queue 15 ms apart, every partition that
 * arrived clearly earlier (> 5 ms) is proved earlier (one finish worker: proofs are stored in
 * prove order). Arrival = submit + queue + budget wait + synthesis stage (one job, submitted at
 * once). */
TEST(engine, blocked_producers_enter_in_arrival_order) {
    enum { P = 8 };
    test_job j;
    if (!circ_job(&j, P, JOB_RS_FIXED)) return;
    for (int i = 0; i < P; i++) j.sc.delay_ms[i] = 20 + 15 * i;
    test_be tb;
    test_be_init(&tb);
    for (int i = 0; i < P; i++) tb.start_delay_ms[i] = 60;
    cuzk_engine_opts o = {.synthesis_workers = 4, .finish_workers = 1, .queue_depth = 1, .prove_threads = 1};
    cuzk_engine *e = NULL;
    REQUIRE(engine_create_with_backend(&e, &o, &k_wrap_backend, &tb.w, NULL) == CUZK_OK);
    cuzk_job_result r;
    if (!submit_wait_done(e, &j.d, &r)) return;
    REQUIRE(r.timings);
    double arrive[P], blocked = 0;
    for (int i = 0; i < P; i++) {
        const cuzk_partition_timings *t = &r.timings[i];
        arrive[i] = t->queue_synth_ms + t->reserve_ms + t->synth_stage_ms;
        blocked += t->push_wait_ms;
    }
    CHECK_MSG(blocked > 100, "the queue never filled (blocked %.1f ms in all): the test shows nothing", blocked);
    for (int i = 0; i < P; i++)
        for (int k = 0; k < P; k++)
            if (arrive[k] - arrive[i] > 5)
                CHECK_MSG(r.timings[i].t_end_ms < r.timings[k].t_end_ms,
                          "partition %d arrived %.1f ms before %d but was proved after it", i, arrive[k] - arrive[i], k);
    CHECK(verify_all(j.c, &r));
    engine_done(e, &r);
}

/* Several devices: one prove-start worker per backend context, all fed by the one prove queue;
 * each pending is finished and freed by the context that started it; proofs equal single calls. */
typedef struct {
    wrap_be w;
    int dev;
    atomic_int starts, finishes, mismatched;
} dev_be;
static cuzk_status db_before_start(wrap_be *w, uint32_t part, cuzk_error *err) {
    (void)w;
    (void)part;
    (void)err;
    sleep_ms(30); /* a device is busy for a while: the other workers take the next partitions */
    return CUZK_OK;
}
static void db_after_start(wrap_be *w, uint32_t part, cuzk_status st) {
    (void)part;
    if (st == CUZK_OK) atomic_fetch_add(&((dev_be *)w)->starts, 1);
}
static cuzk_status db_before_finish(wrap_be *w, uint32_t part, const wrap_be *started_by, cuzk_error *err) {
    dev_be *d = (dev_be *)w;
    (void)part;
    (void)err;
    if (started_by != w) atomic_fetch_add(&d->mismatched, 1);
    atomic_fetch_add(&d->finishes, 1);
    return CUZK_OK;
}
static void db_before_free(wrap_be *w, const wrap_be *started_by) {
    if (started_by != w) atomic_fetch_add(&((dev_be *)w)->mismatched, 1);
}

TEST(engine, several_devices_one_prove_worker_each) {
    enum { P = 6, D = 3 };
    test_job j;
    if (!circ_job(&j, P, JOB_RS_EXPECTED)) return;
    dev_be devs[D];
    void *ctx[D];
    for (int i = 0; i < D; i++) {
        devs[i].w = (wrap_be){.before_start = db_before_start, .after_start = db_after_start,
                              .before_finish = db_before_finish, .before_free = db_before_free};
        devs[i].dev = i;
        atomic_init(&devs[i].starts, 0);
        atomic_init(&devs[i].finishes, 0);
        atomic_init(&devs[i].mismatched, 0);
        ctx[i] = &devs[i].w;
    }
    cuzk_engine_opts o = {.synthesis_workers = 3, .finish_workers = 2, .prove_threads = 1, .queue_depth = 4};
    cuzk_engine *e = NULL;
    REQUIRE(engine_create_with_backends(&e, &o, &k_wrap_backend, ctx, D, NULL) == CUZK_OK);
    CHECK_EQ_INT(cuzk_engine_n_devices(e), D);
    cuzk_job_result r;
    if (!submit_wait_done(e, &j.d, &r)) return;
    REQUIRE(r.proofs);
    CHECK_MEM(r.proofs, j.want, 192 * P);
    CHECK(verify_all(j.c, &r));
    int total = 0;
    for (int i = 0; i < D; i++) {
        int n = atomic_load(&devs[i].starts);
        CHECK_MSG(n >= 1, "device %d started no partition", i);
        CHECK_EQ_INT(atomic_load(&devs[i].finishes), n);
        CHECK_EQ_INT(atomic_load(&devs[i].mismatched), 0);
        total += n;
    }
    CHECK_EQ_INT(total, P);
    /* the trace names one prove-start worker per device */
    CHECK_EQ_INT(trace_names(e, "engine_devices_trace.json", one_worker_per_device), D);
    engine_done(e, &r);
}

/* ---- fake devices (engine_internal.h: engine_backend_fake): routing, budgets, isolation ------
 * N fake devices are the CPU backend behind the device interface, each with its own device
 * budget, resident circuits with reference counts and an injected sticky fault. Every job's
 * proofs are compared with single calls (fixed r, s) and verified. */
static small_circuit g_circ_b;
static int g_circ_b_ok;
static const small_circuit *circ_b(void) { /* a second, smaller circuit */
    if (!g_circ_b_ok) g_circ_b_ok = small_circuit_make(&g_circ_b, 400, 2) ? 1 : -1;
    return g_circ_b_ok == 1 ? &g_circ_b : NULL;
}
__attribute__((destructor)) static void circ_b_free(void) {
    if (g_circ_b_ok == 1) synth_circuit_free(&g_circ_b);
}

static cuzk_engine_opts dev_opts(void) {
    return (cuzk_engine_opts){.synthesis_workers = 2, .finish_workers = 2, .prove_threads = 1, .queue_depth = 4};
}
/* *e = an engine of dev_opts() over n fake devices configured by cfg[0..n) */
static cuzk_status fake_engine(cuzk_engine **e, int n, const engine_fake_cfg *cfg) {
    cuzk_engine_opts o = dev_opts();
    return engine_create_fake(e, &o, n, cfg, NULL);
}

/* Submits P <= 16 partitions of c (fixed r, s), waits, and checks state DONE, proofs equal to
 * single calls, in partition order, and verifying. Returns the result (caller frees) in *out. */
static int run_job_checked(cuzk_engine *e, const small_circuit *c, uint32_t P, cuzk_job_result *out) {
    test_job j;
    test_job_init(&j, c, P, JOB_RS_EXPECTED);
    cuzk_job_id id;
    cuzk_error err = {0};
    if (submit_wait(e, &j.d, &id, out, &err) != CUZK_OK) return 0;
    CHECK_MSG(out->state == CUZK_JOB_DONE, "job state %d: %s", (int)out->state, err.msg);
    if (out->state != CUZK_JOB_DONE || !out->proofs) return 0;
    CHECK_MEM(out->proofs, j.want, 192 * (size_t)P);
    CHECK(verify_all(c, out));
    return memcmp(out->proofs, j.want, 192 * (size_t)P) == 0;
}

/* Two circuits, two devices whose budgets each hold one of them: every partition goes to the
 * device holding its circuit, both jobs running at once, no device ever above its budget. */
TEST(engine_devices, partitions_go_to_the_device_holding_their_srs) {
    const small_circuit *a = circ(), *b = circ_b();
    REQUIRE(a && b);
    cuzk_circuit ca = {&a->cs, &a->p, NULL, NULL}, cb = {&b->cs, &b->p, NULL, NULL};
    size_t need_a = engine_fake_srs_bytes(&ca) + engine_fake_proof_bytes(&ca);
    size_t need_b = engine_fake_srs_bytes(&cb) + engine_fake_proof_bytes(&cb);
    REQUIRE(need_b < need_a);
    /* device 0 holds A alone (A + B does not fit), device 1 B alone (A never fits) */
    engine_fake_cfg cfg[2] = {{.budget_bytes = need_a, .start_delay_ms = 10}, {.budget_bytes = need_b, .start_delay_ms = 10}};
    cuzk_engine *e = NULL;
    REQUIRE(fake_engine(&e, 2, cfg) == CUZK_OK);
    void *d0 = engine_device_ctx(e, 0), *d1 = engine_device_ctx(e, 1);
    REQUIRE(d0 && d1 && !engine_device_ctx(e, 2));
    REQUIRE(engine_backend_fake.preload(d0, &ca, NULL) == CUZK_OK);
    REQUIRE(engine_backend_fake.preload(d1, &cb, NULL) == CUZK_OK);
    /* the budget is checked: A does not fit device 1 */
    cuzk_error err = {0};
    CHECK_EQ_INT(engine_backend_fake.preload(d1, &ca, &err), CUZK_ERR_NOMEM_DEVICE);
    enum { PA = 5, PB = 5 };
    test_job ja, jb;
    test_job_init(&ja, a, PA, JOB_RS_EXPECTED);
    test_job_init(&jb, b, PB, JOB_RS_EXPECTED);
    cuzk_job_id ia, ib;
    REQUIRE(cuzk_engine_submit(e, &ja.d, &ia, NULL) == CUZK_OK);
    REQUIRE(cuzk_engine_submit(e, &jb.d, &ib, NULL) == CUZK_OK);
    cuzk_job_result ra, rb;
    REQUIRE(cuzk_engine_wait(e, ia, &ra, NULL) == CUZK_OK);
    REQUIRE(cuzk_engine_wait(e, ib, &rb, NULL) == CUZK_OK);
    CHECK_EQ_INT(ra.state, CUZK_JOB_DONE);
    CHECK_EQ_INT(rb.state, CUZK_JOB_DONE);
    REQUIRE(ra.proofs && rb.proofs);
    CHECK_MEM(ra.proofs, ja.want, 192 * PA);
    CHECK_MEM(rb.proofs, jb.want, 192 * PB);
    CHECK(verify_all(a, &ra));
    CHECK(verify_all(b, &rb));
    for (int i = 0; i < PA; i++) CHECK_EQ_INT(ra.timings[i].device, 0);
    for (int i = 0; i < PB; i++) CHECK_EQ_INT(rb.timings[i].device, 1);
    engine_fake_info i0, i1;
    engine_fake_get_info(d0, &i0);
    engine_fake_get_info(d1, &i1);
    CHECK_EQ_INT(i0.starts, PA);
    CHECK_EQ_INT(i1.starts, PB);
    CHECK_EQ_INT(i0.starts_of[engine_fake_circuit_slot(d0, &ca)], PA);
    CHECK_EQ_INT(i1.starts_of[engine_fake_circuit_slot(d1, &cb)], PB);
    CHECK_EQ_INT(i0.loads, 1); /* the preloads only: nothing was uploaded twice */
    CHECK_EQ_INT(i1.loads, 1);
    CHECK_MSG(i0.max_need_bytes <= cfg[0].budget_bytes, "device 0 used %zu of %zu", i0.max_need_bytes, cfg[0].budget_bytes);
    CHECK_MSG(i1.max_need_bytes <= cfg[1].budget_bytes, "device 1 used %zu of %zu", i1.max_need_bytes, cfg[1].budget_bytes);
    CHECK_EQ_INT(i0.refs, 0);
    CHECK_EQ_INT(i1.refs, 0);
    cuzk_job_result_free(&ra);
    engine_done(e, &rb);
}

/* A circuit resident on device 0 only: device 1, whose budget allows it, takes partitions too and
 * makes the circuit resident once (counted in its budget); device 2, whose budget does not, takes
 * none and loads nothing. */
TEST(engine_devices, second_device_only_when_its_budget_allows) {
    const small_circuit *a = circ();
    REQUIRE(a);
    cuzk_circuit ca = {&a->cs, &a->p, NULL, NULL};
    size_t srs = engine_fake_srs_bytes(&ca), need = srs + engine_fake_proof_bytes(&ca);
    engine_fake_cfg cfg[3] = {{.budget_bytes = need, .start_delay_ms = 40},
                              {.budget_bytes = need, .start_delay_ms = 40},
                              {.budget_bytes = need - 1, .start_delay_ms = 40}};
    cuzk_engine_opts o = dev_opts();
    o.synthesis_workers = 3;
    cuzk_engine *e = NULL;
    REQUIRE(engine_create_fake(&e, &o, 3, cfg, NULL) == CUZK_OK);
    CHECK_EQ_INT(cuzk_engine_n_devices(e), 3);
    REQUIRE(engine_backend_fake.preload(engine_device_ctx(e, 0), &ca, NULL) == CUZK_OK);
    enum { P = 8 };
    cuzk_job_result r;
    CHECK(run_job_checked(e, a, P, &r));
    engine_fake_info in[3];
    for (int i = 0; i < 3; i++) engine_fake_get_info(engine_device_ctx(e, i), &in[i]);
    CHECK_MSG(in[0].starts >= 1 && in[1].starts >= 1, "starts: %llu, %llu", (unsigned long long)in[0].starts,
              (unsigned long long)in[1].starts);
    CHECK_EQ_INT(in[0].starts + in[1].starts, P);
    CHECK_EQ_INT(in[1].loads, 1);
    CHECK_EQ_INT(in[1].resident_bytes, srs);
    CHECK(in[1].max_need_bytes <= cfg[1].budget_bytes);
    CHECK_EQ_INT(in[2].starts, 0);
    CHECK_EQ_INT(in[2].loads, 0);
    CHECK_EQ_INT(in[2].resident_bytes, 0);
    int on[3] = {0};
    for (int i = 0; i < P && r.timings; i++)
        if (r.timings[i].device < 3) on[r.timings[i].device]++;
    CHECK_EQ_INT(on[0], in[0].starts);
    CHECK_EQ_INT(on[1], in[1].starts);
    engine_done(e, &r);
}

/* No device's budget can ever hold the circuit: the job fails with CUZK_ERR_NOMEM_DEVICE and a
 * message saying how much is needed, nothing left allocated, no hang. */
TEST(engine_devices, circuit_too_large_for_every_device_fails_cleanly) {
    const small_circuit *a = circ();
    REQUIRE(a);
    cuzk_circuit ca = {&a->cs, &a->p, NULL, NULL};
    size_t need = engine_fake_srs_bytes(&ca) + engine_fake_proof_bytes(&ca);
    engine_fake_cfg cfg[2] = {{.budget_bytes = need / 2}, {.budget_bytes = need / 2}};
    cuzk_engine *e = NULL;
    REQUIRE(fake_engine(&e, 2, cfg) == CUZK_OK);
    test_job j;
    test_job_init(&j, a, 4, JOB_RS_RANDOM);
    check_job_fails(e, &j.d, CUZK_ERR_NOMEM_DEVICE, "budget");
    for (int i = 0; i < 2; i++) {
        engine_fake_info in;
        engine_fake_get_info(engine_device_ctx(e, i), &in);
        CHECK_EQ_INT(in.refs, 0);
        CHECK_EQ_INT(in.resident_bytes, 0);
    }
    engine_done(e, NULL);
}

/* A device hits a sticky fault (at its start or at a finish): it is marked dead, the partition it
 * held is restarted on the other device, the job ends DONE with every proof equal to the single
 * call's and verifying, and later jobs run on the live device alone. */
static void failing_device_case(int at_finish) {
    const small_circuit *a = circ();
    REQUIRE(a);
    engine_fake_cfg cfg[2] = {{.start_delay_ms = 30}, {.start_delay_ms = 30}};
    if (at_finish) cfg[1].fail_at_finish = 2;
    else cfg[1].fail_at_start = 2;
    cuzk_engine *e = NULL;
    REQUIRE(fake_engine(&e, 2, cfg) == CUZK_OK);
    enum { P = 8 };
    cuzk_job_result r;
    CHECK(run_job_checked(e, a, P, &r));
    CHECK(!engine_device_dead(e, 0));
    CHECK(engine_device_dead(e, 1));
    engine_fake_info i0, i1;
    engine_fake_get_info(engine_device_ctx(e, 0), &i0);
    engine_fake_get_info(engine_device_ctx(e, 1), &i1);
    CHECK(i1.lost);
    CHECK_MSG(i1.faults >= 1, "faults %llu", (unsigned long long)i1.faults);
    CHECK_MSG(i1.finishes <= 1, "device 1 finished %llu partitions", (unsigned long long)i1.finishes);
    /* every partition's proof came from a finish on a live device: device 1 at most its first */
    CHECK_EQ_INT(i0.finishes + i1.finishes, P);
    uint32_t retried = 0;
    for (int i = 0; i < P && r.timings; i++) {
        retried += r.timings[i].retries;
        if (r.timings[i].retries) CHECK_EQ_INT(r.timings[i].device, 0);
    }
    CHECK_MSG(retried >= 1, "no partition was retried");
    cuzk_job_result_free(&r);
    /* the engine keeps proving on device 0 */
    CHECK(run_job_checked(e, a, 3, &r));
    for (int i = 0; i < 3 && r.timings; i++) CHECK_EQ_INT(r.timings[i].device, 0);
    cuzk_job_result_free(&r);
    engine_fake_get_info(engine_device_ctx(e, 0), &i0);
    engine_fake_get_info(engine_device_ctx(e, 1), &i1);
    CHECK_EQ_INT(i0.refs, 0);
    CHECK_EQ_INT(i1.refs, 0);
    /* a trace with a track per device and the loss on it */
    json_t *root = trace_read(e, "engine_dev_fault_trace.json");
    if (!root) return;
    int tracks = 0, lost = 0;
    json_t *ev;
    size_t k;
    json_array_foreach(json_object_get(root, "traceEvents"), k, ev) {
        const char *nm = json_string_value(json_object_get(json_object_get(ev, "args"), "name"));
        const char *en = json_string_value(json_object_get(ev, "name"));
        if (nm && !strncmp(nm, "prove-start worker (device ", 27)) tracks++;
        if (en && !strcmp(en, "device lost (sticky fault)")) {
            lost++;
            CHECK_EQ_INT(json_integer_value(json_object_get(ev, "tid")), 101);
        }
    }
    CHECK_EQ_INT(tracks, 2);
    CHECK_EQ_INT(lost, 1);
    json_decref(root);
    engine_done(e, NULL);
}
TEST(engine_devices, failing_device_at_start_partitions_retried_elsewhere) { failing_device_case(0); }
TEST(engine_devices, failing_device_at_finish_partitions_retried_elsewhere) { failing_device_case(1); }

/* Every device lost: the job fails with CUZK_ERR_DEVICE (no hang), everything is released, and a
 * later job fails the same way at once. */
TEST(engine_devices, every_device_lost_fails_the_job_cleanly) {
    test_job j;
    if (!circ_job(&j, 6, JOB_RS_RANDOM)) return;
    cuzk_engine *e = NULL;
    REQUIRE(fake_engine(&e, 2, (engine_fake_cfg[]){{.fail_at_start = 1}, {.fail_at_finish = 1}}) == CUZK_OK);
    for (int round = 0; round < 2; round++) check_job_fails(e, &j.d, CUZK_ERR_DEVICE, "device");
    CHECK(engine_device_dead(e, 0) && engine_device_dead(e, 1));
    engine_done(e, NULL);
}

/* Cancelling a job spread over devices: it ends CANCELLED, every buffer and budget byte and every
 * device's residency reference comes back, and the engine proves the next job correctly. */
TEST(engine_devices, cancel_releases_every_device) {
    test_job j;
    if (!circ_job(&j, 12, JOB_RS_RANDOM)) return;
    cuzk_engine *e = NULL;
    REQUIRE(fake_engine(&e, 2, (engine_fake_cfg[]){{.start_delay_ms = 80}, {.start_delay_ms = 80}}) == CUZK_OK);
    cuzk_job_id id;
    REQUIRE(cuzk_engine_submit(e, &j.d, &id, NULL) == CUZK_OK);
    sleep_ms(150); /* both devices are in a start */
    CHECK_EQ_INT(cuzk_engine_cancel(e, id), CUZK_OK);
    check_cancelled(e, id);
    int started = 0;
    for (int i = 0; i < 2; i++) {
        engine_fake_info in;
        engine_fake_get_info(engine_device_ctx(e, i), &in);
        CHECK_EQ_INT(in.refs, 0);
        started += (int)in.starts;
    }
    CHECK_MSG(started < 12, "%d of 12 partitions started after the cancellation", started);
    check_all_released(e);
    cuzk_job_result r;
    CHECK(run_job_checked(e, j.c, 4, &r));
    engine_done(e, &r);
}

/* Two prove-start workers per device on devices of different speeds: partitions complete out of
 * order, results come back in partition order and verify; the trace names each worker. */
TEST(engine_devices, two_workers_per_device_results_in_partition_order) {
    const small_circuit *a = circ();
    REQUIRE(a);
    engine_fake_cfg cfg[2] = {{.start_delay_ms = 5}, {.start_delay_ms = 90}}; /* a fast and a slow device */
    cuzk_engine_opts o = dev_opts();
    o.synthesis_workers = 3;
    o.gpu_workers_per_device = 2;
    cuzk_engine *e = NULL;
    REQUIRE(engine_create_fake(&e, &o, 2, cfg, NULL) == CUZK_OK);
    enum { P = 8 };
    cuzk_job_result r;
    CHECK(run_job_checked(e, a, P, &r));
    int on1 = 0;
    for (int i = 0; i < P && r.timings; i++) on1 += r.timings[i].device == 1;
    CHECK_MSG(on1 >= 1 && on1 < P, "%d of %d partitions on device 1", on1, P);
    cuzk_job_result_free(&r);
    CHECK_EQ_INT(trace_names(e, "engine_dev_wpd_trace.json", two_workers_per_device), 2);
    engine_done(e, NULL);
    /* out of range */
    o.gpu_workers_per_device = 5;
    cuzk_error err = {0};
    CHECK_EQ_INT(engine_create_fake(&e, &o, 2, cfg, &err), CUZK_ERR_ARG);
    CHECK(e == NULL);
}
