/* The multi-partition prove of prove-porep and prove-update (cli_partitions.h). */
#include "cli_partitions.h"

#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli_util.h"
#include "progress.h"
#include "cuzk/prover.h"

/* What the operator sees while a sector proves: one progress line (progress.h) with the engine's
 * stage reports ("partition 0: MSM L"), the time spent, partitions proved of all; redrawn on a
 * terminal, a plain line every PROGRESS_LOG_SECONDS in a log, also while one step runs for minutes
 * (a CPU partition on a small machine): a timer thread ticks the line. */
typedef struct run_ctx {
    const cli_prove_partitions *pp;
    double t0;
    volatile uint32_t done;
    progress *bar;
    pthread_t ticker;
    int ticking;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    int stop;
    char step[96];      /* the last stage report, and when it came (under mu) */
    double step_ms;
} run_ctx;

/* The line's detail: the step, and how long it has run once that is a while. */
static void show_step(run_ctx *c) {
    char d[128];
    double s = (cli_wall_ms() - c->step_ms) / 1e3;
    if (s >= 10) snprintf(d, sizeof d, "%s, %.0f s in it", c->step, s);
    else snprintf(d, sizeof d, "%s", c->step);
    progress_detail(c->bar, d);
}

/* cuzk_job_desc.synth: the family's synthesis, and a line when a partition is done */
static cuzk_status synth_progress(void *user, uint32_t partition, uint64_t *w, size_t n_vars, cuzk_error *err) {
    run_ctx *c = user;
    double t = cli_wall_ms();
    cuzk_status st = c->pp->synth(c->pp->job, partition, w, n_vars, err);
    if (st == CUZK_OK) {
        uint32_t d = __atomic_add_fetch(&c->done, 1, __ATOMIC_RELAXED);
        char line[200];
        snprintf(line, sizeof line, "cuzk %s: partition %u synthesized in %.1f s (%u of %u, %.1f s since start)", c->pp->cmd,
                 partition, (cli_wall_ms() - t) / 1e3, d, c->pp->partitions, (cli_wall_ms() - c->t0) / 1e3);
        progress_message(c->bar, line);
    }
    return st;
}

static void report_step(run_ctx *c, const char *stage, const char *what, uint64_t done, uint64_t total) {
    pthread_mutex_lock(&c->mu);
    snprintf(c->step, sizeof c->step, "%s", what);
    c->step_ms = cli_wall_ms();
    show_step(c);
    pthread_mutex_unlock(&c->mu);
    progress_update(c->bar, stage, done, total);
}

/* cuzk_job_desc.progress: the engine's stage reports on the line */
static void prove_progress(void *user, const char *what, uint64_t done, uint64_t total) {
    report_step(user, "proving", what, done, total);
}

/* cuzk_pk_load_opts.progress: the key's file bytes decoded */
static void load_progress(void *user, const char *what, uint64_t done, uint64_t total) {
    report_step(user, "loading key", what, done, total);
}

static void *ticker_main(void *arg) {
    run_ctx *c = arg;
    pthread_mutex_lock(&c->mu);
    while (!c->stop) {
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        ts.tv_nsec += 250000000;
        if (ts.tv_nsec >= 1000000000) { ts.tv_sec++; ts.tv_nsec -= 1000000000; }
        pthread_cond_timedwait(&c->cv, &c->mu, &ts);
        if (c->stop) break;
        if (c->step[0]) show_step(c);
        progress_tick(c->bar);
    }
    pthread_mutex_unlock(&c->mu);
    return NULL;
}

/* Ends the line (and its timer) so that other output can follow. */
static void progress_end(run_ctx *c) {
    if (c->ticking) {
        pthread_mutex_lock(&c->mu);
        c->stop = 1;
        pthread_cond_signal(&c->cv);
        pthread_mutex_unlock(&c->mu);
        pthread_join(c->ticker, NULL);
        c->ticking = 0;
    }
    progress_free(c->bar);
    c->bar = NULL;
}

int cli_prove_partitions_run(const cli_prove_partitions *pp) {
    const char *cmd = pp->cmd, *circuit = pp->circuit, *params = pp->params, *r1cs = pp->r1cs;
    const uint32_t P = pp->partitions;
    cuzk_error e = {0};
    cuzk_status st;
    cuzk_pk *pk = NULL;
    cuzk_vk *vk = NULL;
    cuzk_engine *eng = NULL;
    cuzk_circuit *circ = NULL;
    cuzk_job_result res;
    memset(&res, 0, sizeof res);
    uint8_t *pub = NULL;
    int rc = 0;
    run_ctx sc;
    memset(&sc, 0, sizeof sc);
    sc.pp = pp;
    pthread_mutex_init(&sc.mu, NULL);
    pthread_cond_init(&sc.cv, NULL);
    /* from here on the progress line: the key's load, then every stage of every partition */
    sc.bar = progress_new(stderr, -1, !pp->quiet);
    sc.ticking = sc.bar && !pp->quiet && pthread_create(&sc.ticker, NULL, ticker_main, &sc) == 0;
    const double t0 = pp->t0, t1 = pp->t1;
    cuzk_pk_load_opts lo;
    memset(&lo, 0, sizeof lo);
    lo.nthreads = pp->nthreads;
    lo.progress = load_progress;
    lo.progress_user = &sc;
    st = r1cs ? cuzk_pk_load_params(&pk, params, r1cs, &lo, &e) : pp->pk_load(&pk, circuit, params, &lo, &e);
    cli_srs_cache_quiet_warning(pp->quiet);
    if (st) goto fail;
    if ((st = cuzk_vk_from_pk(&vk, pk, &e))) goto fail;
    double t2 = cli_wall_ms();
    if ((st = cuzk_engine_create(&eng, pp->engine, &e))) goto fail;
    if ((st = cuzk_circuit_create(&circ, pk, &e))) goto fail;
    if (cuzk_circuit_n_vars(circ) != pp->n_vars) {
        st = cuzk_error_set(&e, CUZK_ERR_MISMATCH, __FILE__, __LINE__, "%s has %zu variables, the %s circuit%s%s %zu: parameters of "
                            "another circuit", r1cs ? r1cs : params, cuzk_circuit_n_vars(circ), circuit,
                            pp->vars_of ? " of " : "", pp->vars_of ? pp->vars_of : "", pp->n_vars);
        goto fail;
    }
    if ((st = cuzk_engine_preload(eng, circ, &e))) goto fail;
    double t3 = cli_wall_ms();
    char line[200];
    snprintf(line, sizeof line, "cuzk %s: proving on %s (key %.1f s, preload %.1f s)", cmd, cuzk_engine_backend_name(eng),
             (t2 - t1) / 1e3, (t3 - t2) / 1e3);
    progress_message(sc.bar, line);
    sc.t0 = t3;
    cuzk_job_desc jd;
    memset(&jd, 0, sizeof jd);
    jd.circuit = circ;
    jd.n_partitions = P;
    jd.synth = synth_progress;
    jd.synth_ctx = &sc;
    jd.witness_form = CUZK_WITNESS_FR_MONT;
    jd.progress = prove_progress;
    jd.progress_user = &sc;
    /* a .r1cs from a file: partition 0's witness is checked against it before that partition is
     * proved (a changed constraint is named now, not found as a proof that does not verify) */
    if (r1cs) jd.check_witness = CUZK_CHECK_WITNESS_FIRST;
    cuzk_job_id id;
    if ((st = cuzk_engine_submit(eng, &jd, &id, &e))) goto fail;
    st = cuzk_engine_wait(eng, id, &res, &e);
    progress_end(&sc); /* the job is over: no report comes any more */
    if (st) goto fail;
    if (res.state != CUZK_JOB_DONE) {
        st = res.status ? res.status : CUZK_ERR_CANCELLED;
        if (!e.msg[0]) cuzk_error_set(&e, st, __FILE__, __LINE__, "partition %u failed", res.failed_partition);
        else if (st == CUZK_ERR_UNSAT && r1cs) {
            char m[sizeof e.msg];
            memcpy(m, e.msg, sizeof m);
            cuzk_error_set(&e, st, __FILE__, __LINE__, "%s: %.500s: not the %s circuit %s synthesized for (changed or corrupt)", r1cs,
                           m, circuit, pp->synthesized_for);
        }
        goto fail;
    }
    double t4 = cli_wall_ms();
    size_t np = pp->n_public;
    pub = malloc(np * 32);
    if (!pub) { st = cuzk_error_set(&e, CUZK_ERR_NOMEM, __FILE__, __LINE__, "out of memory"); goto fail; }
    for (uint32_t k = 0; k < P; k++) {
        if ((st = pp->public_inputs(pp->job, k, pub, &e))) goto fail;
        if (res.n_public != np || memcmp(res.public_inputs + (size_t)k * np * 32, pub, np * 32)) {
            st = cuzk_error_set(&e, CUZK_ERR_MISMATCH, __FILE__, __LINE__,
                                "partition %u: the witness's public inputs are not the ones derived from the public data", k);
            goto fail;
        }
        st = cuzk_verify(vk, CUZK_PUBLIC_CANON, pub, np * 32, CUZK_PROOF_CURVE_BYTES, res.proofs + (size_t)k * res.proof_bytes,
                         res.proof_bytes, &e);
        if (st == CUZK_ERR_INVALID) {
            /* made from checked vanilla proofs with this key, the proof verifies against the key's own
             * verifying key unless the key files are not one key of the circuit: a bad input file */
            char m[sizeof e.msg];
            memcpy(m, e.msg, sizeof m);
            st = cuzk_error_set(&e, CUZK_ERR_MISMATCH, __FILE__, __LINE__,
                                "partition %u: the proof does not verify against the key's own verifying key (%.300s): "
                                "%s%s%s is not a consistent key of circuit %s (changed or corrupt)", k, m, params,
                                r1cs ? " with " : "", r1cs ? r1cs : "", circuit);
            cli_srs_cache_note(&e);
            goto fail;
        }
        if (st) {
            char m[sizeof e.msg];
            memcpy(m, e.msg, sizeof m);
            cuzk_error_set(&e, st, __FILE__, __LINE__, "partition %u: the proof does not verify: %.400s", k, m);
            goto fail;
        }
    }
    double t5 = cli_wall_ms();
    size_t bytes = (size_t)P * res.proof_bytes;
    if ((st = cuzk_write_outputs(pp->out_path, res.proofs, bytes, NULL, NULL, &e))) goto fail;
    if (pp->trace_path && (st = cuzk_engine_trace_write(eng, pp->trace_path, &e))) goto fail;
    double synth = 0, start = 0, fin = 0;
    for (uint32_t k = 0; k < P; k++) {
        synth += res.timings[k].synth_call_ms;
        start += res.timings[k].start_call_ms;
        fin += res.timings[k].finish_call_ms;
    }
    if (pp->json) {
        printf("{\"circuit\": \"%s\", \"registered_proof\": %" PRIu64 ", \"partitions\": %u, \"backend\": \"%s\", "
               "\"check_ms\": %.1f, \"key_ms\": %.1f, \"preload_ms\": %.1f, \"prove_ms\": %.1f, \"verify_ms\": %.1f, "
               "\"synthesis_ms_per_partition\": %.1f, \"prove_start_ms_per_partition\": %.1f, \"finish_ms_per_partition\": %.1f, "
               "\"proof_bytes\": %zu, ",
               circuit, pp->registered_proof, P, cuzk_engine_backend_name(eng), t1 - t0, t2 - t1, t3 - t2, t4 - t3, t5 - t4,
               synth / P, start / P, fin / P, bytes);
        cli_srs_cache_json();
        printf("\"proof\": \"");
        for (size_t i = 0; i < bytes; i++) printf("%02x", res.proofs[i]);
        printf("\"}\n");
    } else if (!pp->quiet) {
        fprintf(stderr,
                "cuzk %s: %u partition(s) proved and verified; wrote %s (%zu bytes)\n"
                "  checks %.1f ms | key %.1f s | preload %.1f s | prove %.2f s (%.2f s per partition) | verify %.1f ms\n"
                "  per partition: synthesis %.2f s, prove start %.2f s, finish %.2f s\n",
                cmd, P, pp->out_path, bytes, t1 - t0, (t2 - t1) / 1e3, (t3 - t2) / 1e3, (t4 - t3) / 1e3, (t4 - t3) / 1e3 / P,
                t5 - t4, synth / P / 1e3, start / P / 1e3, fin / P / 1e3);
    }
    goto out;
fail:
    progress_end(&sc);   /* before the error line */
    if (st == CUZK_ERR_INVALID || st == CUZK_ERR_UNSAT) cli_srs_cache_note(&e); /* fails to verify or satisfy */
    rc = cli_fail(st, &e);
out:
    progress_end(&sc);
    pthread_cond_destroy(&sc.cv);
    pthread_mutex_destroy(&sc.mu);
    free(pub);
    cuzk_job_result_free(&res);
    if (eng) cuzk_engine_destroy(eng);
    cuzk_circuit_destroy(circ);
    cuzk_vk_free(vk);
    if (pk) cuzk_pk_release(pk);
    return rc;
}

int cli_verify_partitions_run(const uint8_t *inputs, uint32_t P, size_t np, int print, int quiet,
                              const char *vk_path, const char *proof_path, const char *circuit_desc, const char *another,
                              const char *proof_desc) {
    if (print) {
        printf("[");
        for (uint32_t k = 0; k < P; k++) {
            printf("%s\n  [", k ? "," : "");
            for (size_t i = 0; i < np; i++) {
                char d[80];
                cli_le32_decimal(d, inputs + ((size_t)k * np + i) * 32);
                printf("%s\"%s\"", i ? ", " : "", d);
            }
            printf("]");
        }
        printf("\n]\n");
        if (!proof_path) return 0;
    }
    cuzk_error e = {0};
    cuzk_status st;
    int rc = 0;
    size_t vk_len = 0, proof_len = 0;
    uint8_t *vkb = NULL, *proof = NULL;
    cuzk_vk *vk = NULL;
    if (!(vkb = cli_slurp(vk_path, &vk_len, &e))) { rc = cli_fail(CUZK_ERR_IO, &e); goto out; }
    if ((st = cuzk_vk_load_bellperson(&vk, vkb, vk_len, &e))) {
        char m[sizeof e.msg];
        memcpy(m, e.msg, sizeof m);
        cuzk_error_set(&e, st, __FILE__, __LINE__, "%s: %.400s", vk_path, m);
        rc = cli_fail(st, &e);
        goto out;
    }
    if (cuzk_vk_n_public(vk) != np) {
        st = cuzk_error_set(&e, CUZK_ERR_MISMATCH, __FILE__, __LINE__, "%s has %u public inputs; %s has %zu: the verifying key of %s",
                            vk_path, cuzk_vk_n_public(vk), circuit_desc, np, another);
        rc = cli_fail(st, &e);
        goto out;
    }
    if (!(proof = cli_slurp(proof_path, &proof_len, &e))) { rc = cli_fail(CUZK_ERR_IO, &e); goto out; }
    if (proof_len != (size_t)P * CUZK_PROOF_BELLPERSON_BYTES) {
        st = cuzk_error_set(&e, CUZK_ERR_FORMAT, __FILE__, __LINE__, "%s: %zu bytes; %s is %u partition(s) x 192 = %u bytes",
                            proof_path, proof_len, proof_desc, P, P * CUZK_PROOF_BELLPERSON_BYTES);
        rc = cli_fail(st, &e);
        goto out;
    }
    for (uint32_t k = 0; k < P; k++) {
        cuzk_error ve = {0};
        st = cuzk_verify(vk, CUZK_PUBLIC_CANON, inputs + (size_t)k * np * 32, np * 32, CUZK_PROOF_BELLPERSON,
                         proof + (size_t)k * CUZK_PROOF_BELLPERSON_BYTES, CUZK_PROOF_BELLPERSON_BYTES, &ve);
        if (st == CUZK_ERR_INVALID) {
            if (!quiet) fprintf(print ? stderr : stdout, "INVALID: partition %u: %s\n", k, ve.msg[0] ? ve.msg : "the pairing check fails");
            rc = 1;
            goto out;
        }
        if (st) { rc = cli_fail(st, &ve); goto out; }
    }
    if (!quiet) fprintf(print ? stderr : stdout, "OK\n");   /* stdout stays JSON with --print-inputs */
out:
    cuzk_vk_free(vk);
    free(vkb);
    free(proof);
    return rc;
}
