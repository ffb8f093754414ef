/* The life of a partition through the engine's stages (src/engine/pipeline.h): synthesis
 * workers (budget, witness, the caller's callback, checks), one prove-start worker per device
 * (r, s, the backend's start), finish workers (the backend's finish, the proof stored), and the
 * release hook that hands every buffer to the reaper. */
#include "engine/pipeline.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "groth16/prove.h"
#include "util/abort.h"
#include "util/log.h"
#include "util/timer.h"

/* ---- jobs ------------------------------------------------------------------------------------- */
int engine_job_dead(void *vj) { return atomic_load(&((job *)vj)->dead); }

void engine_job_check_complete_locked(cuzk_engine *e, job *j) {
    if (!j->complete && j->n_terminal == j->P) {
        j->complete = 1;
        j->done_ms = now_ms();
        pthread_cond_broadcast(&e->cv_done);
    }
}
/* Under mu: no further partitions of j start synthesis. */
void engine_job_kill_locked(cuzk_engine *e, job *j) {
    atomic_store(&j->dead, 1);
    j->n_terminal += j->P - j->next_synth;
    j->next_synth = j->P;
    engine_job_check_complete_locked(e, j);
}

void engine_job_progress(job *j, uint32_t idx, const char *stage, int proved) {
    if (!j->progress) return;
    char what[96];
    snprintf(what, sizeof what, "partition %u: %s", idx, stage);
    pthread_mutex_lock(&j->progress_mu);
    if (proved) j->n_proved++;
    j->progress(j->progress_user, what, j->n_proved, j->P);
    pthread_mutex_unlock(&j->progress_mu);
}

/* The stage notes of a prover call (util/abort.h) as the job's progress reports. */
typedef struct stage_ctx { job *j; uint32_t idx; } stage_ctx;
static void stage_note(void *ctx, const char *stage) {
    stage_ctx *sc = ctx;
    engine_job_progress(sc->j, sc->idx, stage, 0);
}

void engine_job_free(job *j) {
    if (!j) return;
    pthread_mutex_destroy(&j->progress_mu);
    if (j->rs) explicit_bzero(j->rs, 2 * (size_t)j->P * sizeof *j->rs);
    free(j->rs);
    free(j->proofs);
    free(j->pub);
    free(j->tm);
    free(j);
}

static void slow_free(void *ctx, void *ptr) {
    double ms = *(const double *)ctx;
    struct timespec ts = {(time_t)(ms / 1000), (long)((ms - 1000.0 * (double)(time_t)(ms / 1000)) * 1e6)};
    while (nanosleep(&ts, &ts) != 0) {}
    free(ptr);
}

void engine_test_set_free_delay(cuzk_engine *e, double ms) { e->free_delay_ms = ms; }

/* ---- partitions ------------------------------------------------------------------------------- */
/* The release hook of the prover and of the engine's own buffers: queue on the reaper, with the
 * budget bytes this buffer accounts for. */
static void part_release(void *ctx, void *ptr, size_t bytes) {
    part *p = ctx;
    if (!ptr) return;
    size_t budgeted = bytes;
    if (budgeted > p->reserved) {
        atomic_fetch_add(&p->e->underestimates, 1);
        budgeted = p->reserved;
    }
    p->reserved -= budgeted;
    reaper_item it = {0};
    it.ptr = ptr;
    it.bytes = bytes;
    it.tag = p->j->id;
    it.tag2 = p->idx;
    it.budgeted = budgeted;
    if (p->e->free_delay_ms > 0) { it.free_fn = slow_free; it.free_ctx = &p->e->free_delay_ms; }
    if (ptr == p->w && p->w_pooled) {
        /* back to the backend's pool (pinned), still on the reaper thread */
        it.free_fn = p->e->be->witness_free;
        it.free_ctx = p->w_ctx;
        p->w_pooled = 0;
    }
    reaper_push(p->e->rp, &it);
}

/* The last touch of p: stores the proof (if any: j->proof_bytes bytes), counts the partition
 * terminal, frees p. */
static void part_terminal(part *p, const uint8_t *proof) {
    cuzk_engine *e = p->e;
    job *j = p->j;
    if (proof) engine_job_progress(j, p->idx, "proved", 1); /* before it is terminal: the job lives */
    pthread_mutex_lock(&e->mu);
    if (proof) memcpy(j->proofs + (size_t)p->idx * j->proof_bytes, proof, j->proof_bytes);
    j->n_terminal++;
    engine_job_check_complete_locked(e, j);
    pthread_mutex_unlock(&e->mu);
    free(p);
}

/* Drops p's residency reference on its device (routing backends), so waiting partitions of
 * other circuits may be admitted there. */
static void part_unroute(part *p) {
    cuzk_engine *e = p->e;
    if (!p->routed) return;
    p->routed = 0;
    e->be->unroute(e->be_ctx[p->dev], &p->j->circ);
    pq_kick(&e->prove_q);
}

/* Drops a partition: every buffer to the reaper, the rest of its budget back, terminal. */
static void part_drop(part *p) {
    cuzk_engine *e = p->e;
    part_unroute(p);
    if (p->pending) { e->be->pending_free(e->be_ctx[p->dev], &p->j->circ, p->pending); p->pending = NULL; }
    if (p->w) { part_release(p, p->w, p->w_bytes); p->w = NULL; }
    budget_release(&e->bud, p->reserved);
    p->reserved = 0;
    part_terminal(p, NULL);
}

static void part_fail(part *p, cuzk_status st, const cuzk_error *perr) {
    cuzk_engine *e = p->e;
    job *j = p->j;
    pthread_mutex_lock(&e->mu);
    if (!j->failed && !j->cancelled) {
        j->failed = 1;
        j->status = st;
        if (perr && perr->code == st) j->err = *perr;
        else cuzk_error_set(&j->err, st, __FILE__, __LINE__, "partition %u failed: %s", p->idx, cuzk_status_str(st));
        j->failed_part = p->idx;
        engine_job_kill_locked(e, j);
    }
    pthread_mutex_unlock(&e->mu);
    budget_wake(&e->bud);
    part_drop(p);
}

/* Marks device d dead (once): its workers take no further partition while another device lives. */
static void device_mark_dead(cuzk_engine *e, int d, uint64_t jid, uint32_t idx) {
    if (atomic_exchange(&e->dev_dead[d], 1) != 0) return;
    atomic_fetch_sub(&e->n_live, 1);
    double t = now_ms();
    trace_add(e, "device lost (sticky fault)", TID_PROVE + d * e->wpd, t, t, jid, idx, 0);
    pq_kick(&e->prove_q);
}

/* A start or finish of p failed on its device. A sticky fault (the backend says the device is
 * lost) marks the device dead and puts p back at the head of the prove queue for another live
 * device, its witness kept for that and its budget topped up to a whole partition again; any
 * other failure, or no live device left, fails the job. p->pending must be freed already. */
static void part_device_failure(part *p, cuzk_status st, const cuzk_error *perr) {
    cuzk_engine *e = p->e;
    job *j = p->j;
    const int d = p->dev;
    if (!e->be->lost || !e->be->lost(e->be_ctx[d])) {
        part_fail(p, st, perr);
        return;
    }
    device_mark_dead(e, d, j->id, p->idx);
    part_unroute(p);
    if (engine_job_dead(j)) {
        part_drop(p);
        return;
    }
    if (!p->w || atomic_load(&e->n_live) == 0) {
        cuzk_error lost = {0};
        ERR(&lost, CUZK_ERR_DEVICE, "partition %u: device %d was lost (%s) and no live device is left to retry it", p->idx,
            e->dev_id[d], perr && perr->msg[0] ? perr->msg : cuzk_status_str(st));
        part_fail(p, CUZK_ERR_DEVICE, &lost);
        return;
    }
    if (p->reserved < j->part_bytes) {
        budget_force(&e->bud, j->part_bytes - p->reserved);
        p->reserved = j->part_bytes;
    }
    p->retries++;
    double t = now_ms();
    trace_add(e, "retry on another device", TID_PROVE + d * e->wpd, t, t, j->id, p->idx, 0);
    if (!pq_push_front(&e->prove_q, p)) part_drop(p);
}

/* Which partitions the prove workers of device d take (pq_pop_match). Pass 0: those whose
 * circuit is resident on d; pass 1: those d's budget can make resident now, or that no live
 * device could ever hold (start then fails with the budget's message). A dead device takes
 * nothing while another lives, and everything (to fail it) once none does. */
typedef struct take_ctx { cuzk_engine *e; int dev; } take_ctx;
static int take_for_device(void *vctx, part *p, int pass) {
    take_ctx *tc = vctx;
    cuzk_engine *e = tc->e;
    const int d = tc->dev;
    if (atomic_load(&e->dev_dead[d])) return atomic_load(&e->n_live) == 0;
    if (engine_job_dead(p->j) || !e->be->route) return 1;
    const cuzk_circuit *c = &p->j->circ;
    if (pass == 0) return p->routed = e->be->route(e->be_ctx[d], c, ENGINE_ROUTE_RESIDENT);
    if (e->be->route(e->be_ctx[d], c, ENGINE_ROUTE_ADMIT)) return p->routed = 1;
    for (int k = 0; k < e->n_dev; k++)
        if (!atomic_load(&e->dev_dead[k]) && e->be->route(e->be_ctx[k], c, ENGINE_ROUTE_CAN)) return 0;
    return 1;
}

/* ---- stage workers ------------------------------------------------------------------------------ */
static job *next_synth_job_locked(cuzk_engine *e) {
    for (job *j = e->jobs; j; j = j->next)
        if (j->next_synth < j->P) return j;
    return NULL;
}

void *engine_synth_main(void *arg) {
    worker_arg *wa = arg;
    cuzk_engine *e = wa->e;
    int tid = TID_SYNTH + wa->idx;
    for (;;) {
        pthread_mutex_lock(&e->mu);
        job *j;
        while (!e->stop && !(j = next_synth_job_locked(e))) pthread_cond_wait(&e->cv_work, &e->mu);
        if (e->stop) { pthread_mutex_unlock(&e->mu); break; }
        uint32_t idx = j->next_synth++;
        pthread_mutex_unlock(&e->mu);

        double t_pick = now_ms();
        cuzk_partition_timings *tm = &j->tm[idx];
        tm->t_begin_ms = t_pick;
        tm->queue_synth_ms = t_pick - j->submit_ms;
        part *p = calloc(1, sizeof *p);
        if (!p) {
            /* cannot even track the partition: fail the job and count this one terminal */
            pthread_mutex_lock(&e->mu);
            if (!j->failed && !j->cancelled) {
                j->failed = 1;
                j->status = CUZK_ERR_NOMEM;
                cuzk_error_set(&j->err, CUZK_ERR_NOMEM, __FILE__, __LINE__, "partition %u: no memory", idx);
                j->failed_part = idx;
                engine_job_kill_locked(e, j);
            }
            j->n_terminal++;
            engine_job_check_complete_locked(e, j);
            pthread_mutex_unlock(&e->mu);
            continue;
        }
        p->e = e;
        p->j = j;
        p->idx = idx;
        double waited = 0;
        int granted = budget_reserve(&e->bud, j->id, idx, j->part_bytes, engine_job_dead, j, &waited);
        tm->reserve_ms = waited;
        if (waited > 0.05) trace_add(e, "budget wait", tid, t_pick, t_pick + waited, j->id, idx, j->part_bytes);
        if (!granted) { part_drop(p); continue; }
        p->reserved = j->part_bytes;

        double ts0 = now_ms();
        cuzk_error perr = {0};
        cuzk_status st = CUZK_OK;
        p->w_bytes = j->n_vars * sizeof(groth16_fr_any);
        /* witness buffers come from device 0's pool (pinned memory serves every device) */
        p->w = e->be->witness_alloc ? e->be->witness_alloc(e->be_ctx[0], p->w_bytes) : NULL;
        p->w_pooled = p->w != NULL;
        p->w_ctx = e->be_ctx[0];
        if (!p->w) p->w = malloc(p->w_bytes);
        double tc0 = now_ms(), tc1 = tc0;
        if (!p->w) st = ERR(&perr, CUZK_ERR_NOMEM, "partition %u: witness of %zu bytes", idx, p->w_bytes);
        else {
            engine_job_progress(j, idx, "synthesis", 0);
            st = j->synth(j->synth_ctx, idx, (uint64_t *)p->w, j->n_vars, &perr);
            tc1 = now_ms();
            if (st == CUZK_OK) {
                /* in the circuit's field: canonical limbs -> Montgomery in place, value 0 is ONE */
                cuzk_error werr = {0};
                st = j->gc->witness_ready(p->w, j->n_vars, j->witness_form == CUZK_WITNESS_FR_CANON, &werr);
                if (st != CUZK_OK) ERR(&perr, st, "partition %u: %s", idx, werr.msg);
            }
            if (st == CUZK_OK && j->check_witness && (j->check_witness != CUZK_CHECK_WITNESS_FIRST || idx == 0)) {
                engine_job_progress(j, idx, "witness check", 0);
                uint32_t bad = 0;
                groth16_key raw;
                cuzk_error cerr = {0};
                st = j->gc->check_witness(engine_circuit_key(&j->circ, &raw), p->w, j->n_vars, &bad, &cerr);
                if (st != CUZK_OK && j->P > 1) ERR(&perr, st, "partition %u: %s", idx, cerr.msg);
                else if (st != CUZK_OK) perr = cerr;
            }
        }
        tm->synth_call_ms = tc1 - tc0;
        trace_add(e, "synthesis (callback)", tid, tc0, tc1, j->id, idx, p->w_bytes);
        if (st != CUZK_OK) { part_fail(p, st, &perr); continue; }
        if (j->n_public) memcpy(&j->pub[(size_t)idx * j->n_public], p->w + 1, j->n_public * sizeof *p->w);
        double ts1 = now_ms();
        tm->synth_stage_ms = ts1 - ts0;
        trace_add(e, "synthesis stage", tid, ts0, ts1, j->id, idx, 0);
        if (engine_job_dead(j)) { part_drop(p); continue; }
        p->t_push_begin = ts1;
        double t_enq = 0;
        uint64_t jid = j->id;
        if (!pq_push(&e->prove_q, p, &t_enq)) { part_drop(p); continue; }
        /* the witness waits on this worker while the prove queue is full (backpressure) */
        if (t_enq - ts1 > 0.05) trace_add(e, "blocked: prove queue full", tid, ts1, t_enq, jid, idx, 0);
    }
    return NULL;
}

/* The prover's own stages as spans, named as in `cuzk bench pipeline`'s table. CPU backend: on
 * the calling worker's track. GPU backend: the start's stages on the "GPU stream" track, and the
 * B_G2 MSM (CPU threads started by start after a/b/c, overlapping H and the G1 MSMs) on its own
 * track from t_b2, added by finish (the MSM's time is known only once finish joined it); finish
 * itself only waits for it. With the device B_G2 (g->b2_device) the MSM is the start's last stage
 * on the GPU track and finish only assembles. */
static void trace_stages(cuzk_engine *e, int tid, int dev, double t, const groth16_timings *g, int finish,
                         const job *j, uint32_t idx, double t_b2) {
    const uint64_t jid = j->id;
    int gpu = (e->caps & GROTH16_CAP_DEVICE) != 0;
    /* the overlap is the bellperson convention's (a zkey's B_G2 runs in its finish, or on the
     * device at the end of its start: g->b2_device) */
    groth16_key raw;
    int b2_overlap = (e->caps & GROTH16_CAP_B2_OVERLAP) != 0 &&
                     j->gc->key_convention(engine_circuit_key(&j->circ, &raw)) == CUZK_CONVENTION_BELLPERSON;
    if (!finish) {
        const char *n[8] = {"witness upload", "a/b/c (SpMV)", "H (NTTs)", "MSM A (G1)", "MSM B (G1)", "MSM L (G1)",
                            "MSM H (G1)", "MSM B (G2)"};
        double d[8] = {g->upload_ms, g->abc_ms, g->h_ms, g->msm_a_ms, g->msm_b1_ms, g->msm_l_ms, g->msm_h_ms,
                       g->msm_b2_ms};
        int stid = gpu ? TID_GPU + dev : tid;
        for (int i = 0; i < (g->b2_device ? 8 : 7); i++) {
            if (i == 0 && d[i] <= 0) continue;
            trace_add(e, n[i], stid, t, t + d[i], jid, idx, 0);
            t += d[i];
        }
    } else if (g->b2_device) {
        trace_add(e, "assemble", tid, t, t + g->assemble_ms, jid, idx, 0);
    } else {
        if (b2_overlap) trace_add(e, "MSM B (G2, CPU threads)", TID_B2 + dev, t_b2, t_b2 + g->msm_b2_ms, jid, idx, 0);
        if (!b2_overlap) trace_add(e, "MSM B (G2)", tid, t, t + g->msm_b2_ms, jid, idx, 0);
        else trace_add(e, "wait for B_G2", tid, t, t + g->b2_wait_ms, jid, idx, 0);
        t += b2_overlap ? g->b2_wait_ms : g->msm_b2_ms;
        trace_add(e, "assemble", tid, t, t + g->assemble_ms, jid, idx, 0);
    }
}

void *engine_prove_main(void *arg) {
    worker_arg *wa = arg;
    cuzk_engine *e = wa->e;
    const int dev = wa->idx / e->wpd, tid = TID_PROVE + wa->idx;
    void *be_ctx = e->be_ctx[dev];
    /* a retry on another device needs the witness: kept until the proof is done */
    const int keep_w = e->n_dev > 1 && e->be->lost;
    take_ctx tc = {e, dev};
    part *p;
    while ((p = pq_pop_match(&e->prove_q, take_for_device, &tc))) {
        p->dev = dev;
        job *j = p->j;
        cuzk_partition_timings *tm = &j->tm[p->idx];
        double t_pop = now_ms();
        if (!p->retries) {
            tm->push_wait_ms = p->t_enq - p->t_push_begin;
            tm->queue_start_ms = t_pop - p->t_enq;
        }
        if (engine_job_dead(j)) { part_drop(p); continue; }
        if (atomic_load(&e->dev_dead[dev])) {
            cuzk_error lost = {0};
            ERR(&lost, CUZK_ERR_DEVICE, "partition %u: every device was lost", p->idx);
            part_fail(p, CUZK_ERR_DEVICE, &lost);
            continue;
        }
        groth16_fr_any r, s;
        cuzk_error perr = {0};
        cuzk_status st = CUZK_OK;
        if (j->rs) { r = j->rs[2 * (size_t)p->idx]; s = j->rs[2 * (size_t)p->idx + 1]; }
        else if ((st = j->gc->random_fr(&r, &perr)) == CUZK_OK) st = j->gc->random_fr(&s, &perr); /* in the circuit's Fr */
        if (st != CUZK_OK) { part_fail(p, st, &perr); continue; }
        groth16_timings gt = {0};
        double tc0 = now_ms();
        /* a cancellation stops the start at its next stage boundary (util/abort.h), where the
         * job's progress hears the stage's name */
        stage_ctx sn = {j, p->idx};
        engine_job_progress(j, p->idx, "prove start", 0);
        abort_probe_set(engine_job_dead, j);
        abort_stage_set(stage_note, &sn);
        st = e->be->start(be_ctx, &p->pending, j->id, p->idx, &j->circ, p->w, j->n_vars, &r, &s, e->o.prove_threads,
                          part_release, p, &gt, &perr);
        abort_stage_set(NULL, NULL);
        abort_probe_set(NULL, NULL);
        double tc1 = now_ms();
        explicit_bzero(&r, sizeof r);
        explicit_bzero(&s, sizeof s);
        if (!keep_w) {
            part_release(p, p->w, p->w_bytes); /* the witness is done with */
            p->w = NULL;
        }
        if (st == CUZK_OK) {
            /* what start reserved but no longer holds (MSM buckets, freed inside) goes back now */
            size_t keep = e->be->pending_bytes(be_ctx, &j->circ, p->pending) + (p->w ? p->w_bytes : 0);
            if (p->reserved > keep) { budget_release(&e->bud, p->reserved - keep); p->reserved = keep; }
        }
        tm->start_call_ms = tc1 - tc0;
        tm->start_inner_ms = gt.total_ms;
        tm->upload_ms = gt.upload_ms;
        tm->abc_ms = gt.abc_ms;
        tm->h_ms = gt.h_ms;
        tm->msm_a_ms = gt.msm_a_ms;
        tm->msm_b1_ms = gt.msm_b1_ms;
        tm->msm_l_ms = gt.msm_l_ms;
        tm->msm_h_ms = gt.msm_h_ms;
        tm->b2_on_device = gt.b2_device ? 1 : 0;
        trace_add(e, "prove start (call)", tid, tc0, tc1, j->id, p->idx, 0);
        trace_stages(e, tid, dev, tc0, &gt, 0, j, p->idx, 0);
        p->t_b2 = tc0 + gt.upload_ms + gt.abc_ms;
        tm->device = (uint32_t)e->dev_id[dev];
        tm->retries = p->retries;
        if (engine_job_dead(j) && (st == CUZK_OK || st == CUZK_ERR_CANCELLED)) {
            /* cancelled during or right after the start: what it left (a pending whose B_G2 threads
             * may still run) is dropped by a finish worker, off this device's path */
            double t_end = now_ms();
            trace_add(e, st == CUZK_OK ? "prove start stage (job cancelled)" : "prove start (cancelled at a stage boundary)",
                      tid, t_pop, t_end, j->id, p->idx, 0);
            if (!p->pending || !pq_push(&e->finish_q, p, NULL)) part_drop(p);
            continue;
        }
        if (st != CUZK_OK) {
            if (p->pending) { e->be->pending_free(be_ctx, &j->circ, p->pending); p->pending = NULL; }
            part_device_failure(p, st, &perr);
            continue;
        }
        double t_end = now_ms();
        tm->start_stage_ms = t_end - t_pop;
        trace_add(e, "prove start stage", tid, t_pop, t_end, j->id, p->idx, 0);
        p->t_push_begin = t_end;
        if (!pq_push(&e->finish_q, p, NULL)) part_drop(p);
    }
    return NULL;
}

void *engine_finish_main(void *arg) {
    worker_arg *wa = arg;
    cuzk_engine *e = wa->e;
    int tid = TID_FINISH + wa->idx;
    part *p;
    while ((p = pq_pop(&e->finish_q))) {
        job *j = p->j;
        cuzk_partition_timings *tm = &j->tm[p->idx];
        double t_pop = now_ms();
        tm->queue_finish_ms = t_pop - p->t_push_begin;
        if (engine_job_dead(j)) { part_drop(p); continue; }
        groth16_timings gt = {0};
        uint8_t proof[GROTH16_PROOF_MAX_BYTES]; /* j->proof_bytes of them: the encoding of the circuit's curve */
        cuzk_error perr = {0};
        double tc0 = now_ms();
        stage_ctx sn = {j, p->idx};
        engine_job_progress(j, p->idx, "finish", 0);
        abort_probe_set(engine_job_dead, j);
        abort_stage_set(stage_note, &sn);
        cuzk_status st = e->be->finish(e->be_ctx[p->dev], &j->circ, proof, p->pending, j->id, p->idx, e->o.finish_threads,
                                       &gt, &perr);
        abort_stage_set(NULL, NULL);
        abort_probe_set(NULL, NULL);
        double tc1 = now_ms();
        e->be->pending_free(e->be_ctx[p->dev], &j->circ, p->pending);
        p->pending = NULL;
        tm->finish_call_ms = tc1 - tc0;
        tm->finish_inner_ms = gt.total_ms;
        tm->msm_b2_ms = gt.msm_b2_ms;
        trace_add(e, "prove finish (call)", tid, tc0, tc1, j->id, p->idx, 0);
        trace_stages(e, tid, p->dev, tc0, &gt, 1, j, p->idx, p->t_b2);
        if (st == CUZK_ERR_CANCELLED && engine_job_dead(j)) { part_drop(p); continue; }
        if (st != CUZK_OK) { part_device_failure(p, st, &perr); continue; }
        part_unroute(p);
        if (p->w) { part_release(p, p->w, p->w_bytes); p->w = NULL; } /* kept for a retry */
        budget_release(&e->bud, p->reserved); /* the pending struct itself, freed directly */
        p->reserved = 0;
        double t_end = now_ms();
        tm->finish_stage_ms = t_end - t_pop;
        tm->t_end_ms = t_end;
        tm->total_ms = t_end - tm->t_begin_ms;
        trace_add(e, "prove finish stage", tid, t_pop, t_end, j->id, p->idx, 0);
        if (engine_job_dead(j)) { part_terminal(p, NULL); continue; }
        part_terminal(p, proof);
    }
    return NULL;
}

void engine_on_free(void *ctx, const reaper_item *it, double t0, double t1) {
    cuzk_engine *e = ctx;
    budget_release(&e->bud, it->budgeted);
    trace_add(e, "free", TID_REAPER, t0, t1, it->tag, it->tag2, it->bytes);
    pthread_mutex_lock(&e->mu);
    for (job *j = e->jobs; j; j = j->next)
        if (j->id == it->tag) {
            if (it->tag2 < j->P) j->tm[it->tag2].free_ms += t1 - t0;
            break;
        }
    pthread_mutex_unlock(&e->mu);
}
