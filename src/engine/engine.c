/* The proving pipeline (include/cuzk/engine.h).
 *
 * Ownership: a partition (struct part) is owned by exactly one stage at a time; it moves through
 * the queues with its witness, its pending proof and the budget bytes it still holds. Every
 * buffer leaves through part_release -> the reaper, which returns the budget when the buffer is
 * actually freed. One engine mutex (mu) guards the job list and every job's shared fields;
 * per-partition timing fields are written by the stage that owns the partition and read after
 * the partition became terminal (under mu). Lock order: budget.mu and the queues' locks are never
 * held while taking mu, except that the reaper observer takes mu (it holds no other lock).
 */
#include "cuzk/engine.h"

#include <errno.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "engine/engine_internal.h"
#include "util/reaper.h"
#include "groth16/backend.h"
#include "groth16/pk.h"
#include "util/log.h"
#include "util/outfile.h"
#include "util/parallel.h"
#include "util/timer.h"

enum { TID_SYNTH = 1, TID_PROVE = 100, TID_FINISH = 200, TID_REAPER = 300, TID_GPU = 400, TID_B2 = 500 };

/* ---- the CPU backend ------------------------------------------------------------------------ */
static size_t cpu_start_bytes(void *ctx, const cuzk_circuit *c, int nthreads) {
    (void)ctx;
    return groth16_bellperson_start_bytes(c->params, c->cs, nthreads);
}
static cuzk_status cpu_start(void *ctx, void **pending, uint64_t job, uint32_t partition, const cuzk_circuit *c,
                             const fr *w, size_t n_w, const fr *r, const fr *s, int nthreads,
                             groth16_release_fn release, void *release_ctx, groth16_timings *t, cuzk_error *err) {
    (void)ctx;
    (void)job;
    (void)partition;
    groth16_pending *p = NULL;
    cuzk_status st = groth16_prove_bellperson_start(&p, c->params, c->cs, w, n_w, r, s, nthreads, release,
                                                    release_ctx, t, err);
    *pending = p;
    return st;
}
static cuzk_status cpu_finish(void *ctx, groth16_proof *out, void *pending, uint64_t job, uint32_t partition,
                              int nthreads, groth16_timings *t, cuzk_error *err) {
    (void)ctx;
    (void)job;
    (void)partition;
    return groth16_prove_bellperson_finish(out, pending, nthreads, t, err);
}
static size_t cpu_pending_bytes(void *ctx, const void *pending) {
    (void)ctx;
    return groth16_pending_bytes(pending);
}
static void cpu_pending_free(void *ctx, void *pending) {
    (void)ctx;
    groth16_pending_free(pending);
}
const engine_backend engine_backend_cpu = {"cpu", cpu_start_bytes, cpu_start, cpu_finish, cpu_pending_bytes,
                                           cpu_pending_free, NULL, NULL, NULL, NULL};

/* ---- types ---------------------------------------------------------------------------------- */
typedef struct span {
    const char *name;
    int tid;
    double t0, t1;
    uint64_t job, bytes;
    uint32_t part;
} span;

typedef struct job {
    uint64_t id;
    cuzk_circuit circ;
    uint32_t P, n_public;
    size_t n_vars, part_bytes;
    cuzk_synth_fn synth;
    void *synth_ctx;
    fr *rs;                   /* 2P values or NULL */
    int check_witness;
    cuzk_witness_form witness_form;
    uint32_t next_synth, n_terminal;
    atomic_int dead;          /* failed or cancelled: drop partitions at the next stage boundary */
    int failed, cancelled, complete, waiting;
    cuzk_status status;
    cuzk_error err;
    uint32_t failed_part;
    groth16_proof *proofs;    /* P */
    fr *pub;                  /* P * n_public */
    cuzk_partition_timings *tm; /* P */
    double submit_ms, done_ms;
    struct job *next;
} job;

typedef struct part {
    cuzk_engine *e;
    job *j;
    uint32_t idx;
    fr *w;
    size_t w_bytes;
    int w_pooled;                  /* w came from the backend's witness_alloc (returned through witness_free) */
    void *pending;
    size_t reserved;          /* budget bytes still held, not yet handed to the reaper */
    double t_push_begin, t_enq;
    double t_b2;              /* GPU backend: when start launched the B_G2 threads (its span is
                                 traced by finish, when the MSM's time is known) */
    struct part *next;
} part;

typedef struct worker_arg { struct cuzk_engine *e; int idx; } worker_arg;

/* A bounded FIFO between two stages. Producers blocked on a full queue get in by ticket, in the
 * order they arrived (a condition variable alone wakes them in any order, so a partition that
 * waited longest could be overtaken again and again). */
typedef struct pqueue {
    pthread_mutex_t mu;
    pthread_cond_t not_empty, not_full;
    part *head, *tail;
    int n, cap, closed;
    uint64_t next_ticket, serving; /* producers' tickets: the next to hand out, the next to enter */
} pqueue;

struct cuzk_engine {
    cuzk_engine_opts o;
    const engine_backend *be;
    void *be_ctx;
    int owns_be_ctx;                /* cuzk_engine_create made be_ctx: destroy frees it */
    pthread_mutex_t mu;
    pthread_cond_t cv_work, cv_done;
    job *jobs;
    uint64_t next_id;
    int stop;
    pqueue prove_q, finish_q;
    budget bud;
    reaper *rp;
    atomic_ullong underestimates;
    double free_delay_ms;     /* test knob */
    pthread_t *synth_th, prove_th, *finish_th;
    int n_synth, prove_started, n_finish;
    worker_arg *wa;           /* the workers' arguments (live as long as the threads) */
    pthread_mutex_t tmu;
    span *spans;
    size_t n_spans, cap_spans;
    double t0;
};


/* ---- queues ----------------------------------------------------------------------------------- */
static void pq_init(pqueue *q, int cap) {
    pthread_mutex_init(&q->mu, NULL);
    pthread_cond_init(&q->not_empty, NULL);
    pthread_cond_init(&q->not_full, NULL);
    q->head = q->tail = NULL;
    q->n = 0;
    q->cap = cap;
    q->closed = 0;
    q->next_ticket = q->serving = 0;
}
static void pq_destroy(pqueue *q) {
    pthread_mutex_destroy(&q->mu);
    pthread_cond_destroy(&q->not_empty);
    pthread_cond_destroy(&q->not_full);
}
/* Blocks while full or while earlier producers wait (tickets: first come, first in); 0 (not
 * queued) once closed. Sets p->t_enq when inserted; *t_enq (may be NULL) gets it too: after the
 * push p belongs to the consumer, so the caller must not read it. */
static int pq_push(pqueue *q, part *p, double *t_enq) {
    pthread_mutex_lock(&q->mu);
    const uint64_t ticket = q->next_ticket++;
    while ((q->n >= q->cap || ticket != q->serving) && !q->closed) pthread_cond_wait(&q->not_full, &q->mu);
    q->serving++;
    if (q->closed) {
        pthread_cond_broadcast(&q->not_full);
        pthread_mutex_unlock(&q->mu);
        return 0;
    }
    /* the next ticket holder may fit too */
    if (q->n + 1 < q->cap) pthread_cond_broadcast(&q->not_full);
    p->next = NULL;
    p->t_enq = now_ms();
    if (t_enq) *t_enq = p->t_enq;
    if (q->tail) q->tail->next = p;
    else q->head = p;
    q->tail = p;
    q->n++;
    pthread_cond_signal(&q->not_empty);
    pthread_mutex_unlock(&q->mu);
    return 1;
}
/* Blocks while empty; NULL once closed and empty. */
static part *pq_pop(pqueue *q) {
    pthread_mutex_lock(&q->mu);
    while (!q->head && !q->closed) pthread_cond_wait(&q->not_empty, &q->mu);
    part *p = q->head;
    if (p) {
        q->head = p->next;
        if (!q->head) q->tail = NULL;
        q->n--;
        pthread_cond_broadcast(&q->not_full); /* the waiter holding the next ticket must wake */
    }
    pthread_mutex_unlock(&q->mu);
    return p;
}
static void pq_close(pqueue *q) {
    pthread_mutex_lock(&q->mu);
    q->closed = 1;
    pthread_cond_broadcast(&q->not_empty);
    pthread_cond_broadcast(&q->not_full);
    pthread_mutex_unlock(&q->mu);
}

/* ---- trace ------------------------------------------------------------------------------------ */
static void trace_add(cuzk_engine *e, const char *name, int tid, double t0, double t1, uint64_t jid, uint32_t part,
                      uint64_t bytes) {
    if (e->o.no_trace) return;
    pthread_mutex_lock(&e->tmu);
    if (e->n_spans == e->cap_spans && e->cap_spans < ((size_t)1 << 22)) {
        size_t cap = e->cap_spans ? 2 * e->cap_spans : 1024;
        span *ns = realloc(e->spans, cap * sizeof *ns);
        if (ns) { e->spans = ns; e->cap_spans = cap; }
    }
    if (e->n_spans < e->cap_spans) e->spans[e->n_spans++] = (span){name, tid, t0, t1, jid, bytes, part};
    pthread_mutex_unlock(&e->tmu);
}

/* ---- jobs ------------------------------------------------------------------------------------- */
static int job_dead(void *vj) { return atomic_load(&((job *)vj)->dead); }

static void job_check_complete_locked(cuzk_engine *e, job *j) {
    if (!j->complete && j->n_terminal == j->P) {
        j->complete = 1;
        j->done_ms = now_ms();
        pthread_cond_broadcast(&e->cv_done);
    }
}
/* Under mu: no further partitions of j start synthesis. */
static void job_kill_locked(cuzk_engine *e, job *j) {
    atomic_store(&j->dead, 1);
    j->n_terminal += j->P - j->next_synth;
    j->next_synth = j->P;
    job_check_complete_locked(e, j);
}

static void job_free(job *j) {
    if (!j) return;
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
        it.free_ctx = p->e->be_ctx;
        p->w_pooled = 0;
    }
    reaper_push(p->e->rp, &it);
}

/* The last touch of p: stores the proof (if any), counts the partition terminal, frees p. */
static void part_terminal(part *p, const groth16_proof *proof) {
    cuzk_engine *e = p->e;
    job *j = p->j;
    pthread_mutex_lock(&e->mu);
    if (proof) j->proofs[p->idx] = *proof;
    j->n_terminal++;
    job_check_complete_locked(e, j);
    pthread_mutex_unlock(&e->mu);
    free(p);
}

/* Drops a partition: every buffer to the reaper, the rest of its budget back, terminal. */
static void part_drop(part *p) {
    cuzk_engine *e = p->e;
    if (p->pending) { e->be->pending_free(e->be_ctx, p->pending); p->pending = NULL; }
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
        job_kill_locked(e, j);
    }
    pthread_mutex_unlock(&e->mu);
    budget_wake(&e->bud);
    part_drop(p);
}

/* ---- stage workers ------------------------------------------------------------------------------ */
static job *next_synth_job_locked(cuzk_engine *e) {
    for (job *j = e->jobs; j; j = j->next)
        if (j->next_synth < j->P) return j;
    return NULL;
}

static void *synth_main(void *arg) {
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
                job_kill_locked(e, j);
            }
            j->n_terminal++;
            job_check_complete_locked(e, j);
            pthread_mutex_unlock(&e->mu);
            continue;
        }
        p->e = e;
        p->j = j;
        p->idx = idx;
        double waited = 0;
        int granted = budget_reserve(&e->bud, j->id, idx, j->part_bytes, job_dead, j, &waited);
        tm->reserve_ms = waited;
        if (waited > 0.05) trace_add(e, "budget wait", tid, t_pick, t_pick + waited, j->id, idx, j->part_bytes);
        if (!granted) { part_drop(p); continue; }
        p->reserved = j->part_bytes;

        double ts0 = now_ms();
        cuzk_error perr = {0};
        cuzk_status st = CUZK_OK;
        p->w_bytes = j->n_vars * sizeof(fr);
        p->w = e->be->witness_alloc ? e->be->witness_alloc(e->be_ctx, p->w_bytes) : NULL;
        p->w_pooled = p->w != NULL;
        if (!p->w) p->w = malloc(p->w_bytes);
        double tc0 = now_ms(), tc1 = tc0;
        if (!p->w) st = ERR(&perr, CUZK_ERR_NOMEM, "partition %u: witness of %zu bytes", idx, p->w_bytes);
        else {
            st = j->synth(j->synth_ctx, idx, (uint64_t *)p->w, j->n_vars, &perr);
            tc1 = now_ms();
            if (st == CUZK_OK && j->witness_form == CUZK_WITNESS_FR_CANON) {
                /* canonical limbs -> Montgomery, in place */
                for (size_t i = 0; i < j->n_vars && st == CUZK_OK; i++) {
                    uint64_t l[4];
                    memcpy(l, p->w[i].l, sizeof l);
                    if (!fr_is_canon(l)) st = ERR(&perr, CUZK_ERR_FORMAT, "partition %u: witness value %zu is not canonical (>= r)", idx, i);
                    else fr_from_canon(&p->w[i], l);
                }
            }
            if (st == CUZK_OK && !fr_is_one(&p->w[0]))
                st = ERR(&perr, CUZK_ERR_MISMATCH, "partition %u: witness value 0 is not ONE", idx);
            if (st == CUZK_OK && j->check_witness) {
                uint32_t bad = 0;
                st = r1cs_check_witness(j->circ.cs, p->w, j->n_vars, &bad, &perr);
            }
        }
        tm->synth_call_ms = tc1 - tc0;
        trace_add(e, "synthesis (callback)", tid, tc0, tc1, j->id, idx, p->w_bytes);
        if (st != CUZK_OK) { part_fail(p, st, &perr); continue; }
        if (j->n_public) memcpy(&j->pub[(size_t)idx * j->n_public], p->w + 1, j->n_public * sizeof(fr));
        double ts1 = now_ms();
        tm->synth_stage_ms = ts1 - ts0;
        trace_add(e, "synthesis stage", tid, ts0, ts1, j->id, idx, 0);
        if (job_dead(j)) { part_drop(p); continue; }
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
 * itself only waits for it. */
static void trace_stages(cuzk_engine *e, int tid, double t, const groth16_timings *g, int finish, uint64_t jid,
                         uint32_t idx, double t_b2) {
    int gpu = e->be == &engine_backend_gpu;
    if (!finish) {
        const char *n[7] = {"witness upload", "a/b/c (SpMV)", "H (NTTs)", "MSM A (G1)", "MSM B (G1)", "MSM L (G1)",
                            "MSM H (G1)"};
        double d[7] = {g->upload_ms, g->abc_ms, g->h_ms, g->msm_a_ms, g->msm_b1_ms, g->msm_l_ms, g->msm_h_ms};
        int stid = gpu ? TID_GPU : tid;
        for (int i = 0; i < 7; i++) {
            if (i == 0 && d[i] <= 0) continue;
            trace_add(e, n[i], stid, t, t + d[i], jid, idx, 0);
            t += d[i];
        }
    } else {
        if (gpu) trace_add(e, "MSM B (G2, CPU threads)", TID_B2, t_b2, t_b2 + g->msm_b2_ms, jid, idx, 0);
        if (!gpu) trace_add(e, "MSM B (G2)", tid, t, t + g->msm_b2_ms, jid, idx, 0);
        else trace_add(e, "wait for B_G2", tid, t, t + g->b2_wait_ms, jid, idx, 0);
        t += gpu ? g->b2_wait_ms : g->msm_b2_ms;
        trace_add(e, "assemble", tid, t, t + g->assemble_ms, jid, idx, 0);
    }
}

static void *prove_main(void *arg) {
    cuzk_engine *e = arg;
    part *p;
    while ((p = pq_pop(&e->prove_q))) {
        job *j = p->j;
        cuzk_partition_timings *tm = &j->tm[p->idx];
        double t_pop = now_ms();
        tm->push_wait_ms = p->t_enq - p->t_push_begin;
        tm->queue_start_ms = t_pop - p->t_enq;
        if (job_dead(j)) { part_drop(p); continue; }
        fr r, s;
        cuzk_error perr = {0};
        cuzk_status st = CUZK_OK;
        if (j->rs) { r = j->rs[2 * (size_t)p->idx]; s = j->rs[2 * (size_t)p->idx + 1]; }
        else if ((st = groth16_random_fr(&r, &perr)) == CUZK_OK) st = groth16_random_fr(&s, &perr);
        if (st != CUZK_OK) { part_fail(p, st, &perr); continue; }
        groth16_timings gt = {0};
        double tc0 = now_ms();
        st = e->be->start(e->be_ctx, &p->pending, j->id, p->idx, &j->circ, p->w, j->n_vars, &r, &s, e->o.prove_threads, part_release,
                          p, &gt, &perr);
        double tc1 = now_ms();
        explicit_bzero(&r, sizeof r);
        explicit_bzero(&s, sizeof s);
        part_release(p, p->w, p->w_bytes); /* the witness is done with */
        p->w = NULL;
        if (st == CUZK_OK) {
            /* what start reserved but no longer holds (MSM buckets, freed inside) goes back now */
            size_t keep = e->be->pending_bytes(e->be_ctx, p->pending);
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
        trace_add(e, "prove start (call)", TID_PROVE, tc0, tc1, j->id, p->idx, 0);
        trace_stages(e, TID_PROVE, tc0, &gt, 0, j->id, p->idx, 0);
        p->t_b2 = tc0 + gt.upload_ms + gt.abc_ms;
        if (st != CUZK_OK) { part_fail(p, st, &perr); continue; }
        double t_end = now_ms();
        tm->start_stage_ms = t_end - t_pop;
        trace_add(e, "prove start stage", TID_PROVE, t_pop, t_end, j->id, p->idx, 0);
        if (job_dead(j)) { part_drop(p); continue; }
        p->t_push_begin = t_end;
        if (!pq_push(&e->finish_q, p, NULL)) part_drop(p);
    }
    return NULL;
}

static void *finish_main(void *arg) {
    worker_arg *wa = arg;
    cuzk_engine *e = wa->e;
    int tid = TID_FINISH + wa->idx;
    part *p;
    while ((p = pq_pop(&e->finish_q))) {
        job *j = p->j;
        cuzk_partition_timings *tm = &j->tm[p->idx];
        double t_pop = now_ms();
        tm->queue_finish_ms = t_pop - p->t_push_begin;
        if (job_dead(j)) { part_drop(p); continue; }
        groth16_timings gt = {0};
        groth16_proof proof;
        cuzk_error perr = {0};
        double tc0 = now_ms();
        cuzk_status st = e->be->finish(e->be_ctx, &proof, p->pending, j->id, p->idx, e->o.finish_threads, &gt, &perr);
        double tc1 = now_ms();
        e->be->pending_free(e->be_ctx, p->pending);
        p->pending = NULL;
        tm->finish_call_ms = tc1 - tc0;
        tm->finish_inner_ms = gt.total_ms;
        tm->msm_b2_ms = gt.msm_b2_ms;
        trace_add(e, "prove finish (call)", tid, tc0, tc1, j->id, p->idx, 0);
        trace_stages(e, tid, tc0, &gt, 1, j->id, p->idx, p->t_b2);
        if (st != CUZK_OK) { part_fail(p, st, &perr); continue; }
        budget_release(&e->bud, p->reserved); /* the pending struct itself, freed directly */
        p->reserved = 0;
        double t_end = now_ms();
        tm->finish_stage_ms = t_end - t_pop;
        tm->t_end_ms = t_end;
        tm->total_ms = t_end - tm->t_begin_ms;
        trace_add(e, "prove finish stage", tid, t_pop, t_end, j->id, p->idx, 0);
        if (job_dead(j)) { part_terminal(p, NULL); continue; }
        part_terminal(p, &proof);
    }
    return NULL;
}

static void on_free(void *ctx, const reaper_item *it, double t0, double t1) {
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

/* ---- public API --------------------------------------------------------------------------------- */
static void engine_stop_and_free(cuzk_engine *e) {
    pthread_mutex_lock(&e->mu);
    e->stop = 1;
    for (job *j = e->jobs; j; j = j->next)
        if (!j->complete) {
            if (!j->failed) j->cancelled = 1;
            job_kill_locked(e, j);
        }
    pthread_cond_broadcast(&e->cv_work);
    pthread_mutex_unlock(&e->mu);
    budget_wake(&e->bud);
    for (int i = 0; i < e->n_synth; i++) pthread_join(e->synth_th[i], NULL);
    pq_close(&e->prove_q);
    if (e->prove_started) pthread_join(e->prove_th, NULL);
    pq_close(&e->finish_q);
    for (int i = 0; i < e->n_finish; i++) pthread_join(e->finish_th[i], NULL);
    reaper_destroy(e->rp); /* drains: every buffer freed, every budget byte returned */
    e->rp = NULL;
    while (e->jobs) {
        job *j = e->jobs;
        e->jobs = j->next;
        job_free(j);
    }
    free(e->synth_th);
    free(e->finish_th);
    free(e->wa);
    free(e->spans);
    pq_destroy(&e->prove_q);
    pq_destroy(&e->finish_q);
    budget_destroy(&e->bud);
    pthread_mutex_destroy(&e->mu);
    pthread_cond_destroy(&e->cv_work);
    pthread_cond_destroy(&e->cv_done);
    pthread_mutex_destroy(&e->tmu);
    if (e->owns_be_ctx && e->be->destroy) e->be->destroy(e->be_ctx);
    free(e);
}

cuzk_status engine_create_with_backend(cuzk_engine **out, const cuzk_engine_opts *opts, const engine_backend *be,
                                       void *be_ctx, cuzk_error *err) {
    if (!out || !be) return ERR(err, CUZK_ERR_ARG, "cuzk_engine_create: NULL argument");
    *out = NULL;
    cuzk_engine *e = calloc(1, sizeof *e);
    if (!e) return ERR(err, CUZK_ERR_NOMEM, "cuzk_engine_create");
    if (opts) e->o = *opts;
    if (e->o.synthesis_workers <= 0) e->o.synthesis_workers = 1;
    if (e->o.finish_workers <= 0) e->o.finish_workers = 1;
    if (e->o.finish_threads <= 0) e->o.finish_threads = 1;
    if (e->o.prove_threads <= 0) e->o.prove_threads = cuzk_num_threads();
    if (e->o.queue_depth <= 0) e->o.queue_depth = 2;
    e->be = be;
    e->be_ctx = be_ctx;
    e->next_id = 1;
    e->t0 = now_ms();
    atomic_init(&e->underestimates, 0);
    pthread_mutex_init(&e->mu, NULL);
    pthread_cond_init(&e->cv_work, NULL);
    pthread_cond_init(&e->cv_done, NULL);
    pthread_mutex_init(&e->tmu, NULL);
    pq_init(&e->prove_q, e->o.queue_depth);
    pq_init(&e->finish_q, e->o.queue_depth);
    budget_init(&e->bud, e->o.host_budget_bytes);
    cuzk_status st = reaper_create(&e->rp, on_free, e, err);
    if (st != CUZK_OK) {
        e->rp = NULL;
        engine_stop_and_free(e);
        return st;
    }
    int S = e->o.synthesis_workers, F = e->o.finish_workers;
    e->synth_th = calloc((size_t)S, sizeof *e->synth_th);
    e->finish_th = calloc((size_t)F, sizeof *e->finish_th);
    worker_arg *wa = e->wa = calloc((size_t)(S + F), sizeof *wa);
    if (!e->synth_th || !e->finish_th || !wa) {
        engine_stop_and_free(e);
        return ERR(err, CUZK_ERR_NOMEM, "cuzk_engine_create: worker tables");
    }
    int ok = 1;
    for (int i = 0; i < S && ok; i++) {
        wa[i] = (worker_arg){e, i};
        if (pthread_create(&e->synth_th[i], NULL, synth_main, &wa[i]) == 0) e->n_synth++;
        else ok = 0;
    }
    if (ok) {
        if (pthread_create(&e->prove_th, NULL, prove_main, e) == 0) e->prove_started = 1;
        else ok = 0;
    }
    for (int i = 0; i < F && ok; i++) {
        wa[S + i] = (worker_arg){e, i};
        if (pthread_create(&e->finish_th[i], NULL, finish_main, &wa[S + i]) == 0) e->n_finish++;
        else ok = 0;
    }
    if (!ok) {
        engine_stop_and_free(e);
        return ERR(err, CUZK_ERR_NOMEM, "cuzk_engine_create: cannot start worker threads");
    }
    *out = e;
    return CUZK_OK;
}

cuzk_status cuzk_engine_create(cuzk_engine **out, const cuzk_engine_opts *opts, cuzk_error *err) {
    if (!out) return ERR(err, CUZK_ERR_ARG, "cuzk_engine_create: NULL argument");
    *out = NULL;
    groth16_backend b;
    cuzk_status st = groth16_backend_resolve(opts ? opts->backend : CUZK_BACKEND_AUTO, &b, err);
    if (st != CUZK_OK) return st;
    if (b == GROTH16_BACKEND_CPU) return engine_create_with_backend(out, opts, &engine_backend_cpu, NULL, err);
    void *g = NULL;
    /* witnesses alive at once: one per synthesis worker, a full prove queue, the one in start */
    size_t S = opts && opts->synthesis_workers > 0 ? (size_t)opts->synthesis_workers : 1;
    size_t Q = opts && opts->queue_depth > 0 ? (size_t)opts->queue_depth : 2;
    if ((st = engine_gpu_ctx_create(&g, opts ? opts->gpu_device : 0, opts ? opts->pinned_budget_bytes : 0,
                                    opts ? opts->gpu_budget_bytes : 0, S + Q + 1, err)) != CUZK_OK)
        return st;
    if (opts) engine_gpu_set_msm(g, &opts->msm);
    if ((st = engine_create_with_backend(out, opts, &engine_backend_gpu, g, err)) != CUZK_OK) {
        engine_backend_gpu.destroy(g);
        return st;
    }
    (*out)->owns_be_ctx = 1;
    return CUZK_OK;
}

const char *cuzk_engine_backend_name(const cuzk_engine *e) { return e ? e->be->name : "none"; }
int cuzk_engine_n_devices(const cuzk_engine *e) { return e ? 1 : 0; }

/* ---- circuits from proving keys ---------------------------------------------------------------- */
cuzk_status cuzk_circuit_create(cuzk_circuit **out, cuzk_pk *pk, cuzk_error *err) {
    if (!out || !pk) return ERR(err, CUZK_ERR_ARG, "cuzk_circuit_create: NULL argument");
    *out = NULL;
    const groth16_key *k = groth16_pk_key(pk);
    if (k->convention != CUZK_CONVENTION_BELLPERSON)
        return ERR(err, CUZK_ERR_UNSUPPORTED,
                   "cuzk_circuit_create: the engine proves bellperson keys (.params + .r1cs); this key is %s",
                   cuzk_convention_name(k->convention));
    cuzk_circuit *c = calloc(1, sizeof *c);
    if (!c) return ERR(err, CUZK_ERR_NOMEM, "cuzk_circuit_create");
    c->cs = k->cs;
    c->params = k->p;
    c->pk = cuzk_pk_retain(pk);
    *out = c;
    return CUZK_OK;
}

void cuzk_circuit_destroy(cuzk_circuit *c) {
    if (!c) return;
    cuzk_pk_release(c->pk);
    free(c);
}

size_t cuzk_circuit_n_vars(const cuzk_circuit *c) { return c && c->cs ? c->cs->n_vars : 0; }
uint32_t cuzk_circuit_n_public(const cuzk_circuit *c) { return c && c->cs ? c->cs->n_public : 0; }

cuzk_status cuzk_engine_preload(cuzk_engine *e, const cuzk_circuit *c, cuzk_error *err) {
    if (!e || !c || !c->cs || !c->params) return ERR(err, CUZK_ERR_ARG, "cuzk_engine_preload: NULL argument");
    if (e->be != &engine_backend_gpu) return CUZK_OK;
    return engine_gpu_preload(e->be_ctx, c, err);
}

void cuzk_engine_destroy(cuzk_engine *e) {
    if (e) engine_stop_and_free(e);
}

cuzk_status cuzk_engine_submit(cuzk_engine *e, const cuzk_job_desc *d, cuzk_job_id *id, cuzk_error *err) {
    if (!e || !d || !id || !d->circuit || !d->circuit->cs || !d->circuit->params || !d->synth)
        return ERR(err, CUZK_ERR_ARG, "cuzk_engine_submit: NULL argument");
    if (d->n_partitions == 0) return ERR(err, CUZK_ERR_ARG, "cuzk_engine_submit: a job needs at least one partition");
    if (d->witness_form != 0 && d->witness_form != CUZK_WITNESS_FR_MONT && d->witness_form != CUZK_WITNESS_FR_CANON)
        return ERR(err, CUZK_ERR_ARG, "cuzk_engine_submit: the synthesis callback writes Fr limbs (Montgomery or canonical), not %d",
                   (int)d->witness_form);
    const r1cs *cs = d->circuit->cs;
    size_t part_bytes = (size_t)cs->n_vars * sizeof(fr) + e->be->start_bytes(e->be_ctx, d->circuit, e->o.prove_threads);
    if (e->o.host_budget_bytes && part_bytes > e->o.host_budget_bytes)
        return ERR(err, CUZK_ERR_MISMATCH,
                   "cuzk_engine_submit: one partition needs %zu bytes of host memory but the budget is %zu", part_bytes,
                   e->o.host_budget_bytes);
    job *j = calloc(1, sizeof *j);
    if (!j) return ERR(err, CUZK_ERR_NOMEM, "cuzk_engine_submit");
    uint32_t P = d->n_partitions;
    j->circ = *d->circuit;
    j->P = P;
    j->n_public = cs->n_public;
    j->n_vars = cs->n_vars;
    j->part_bytes = part_bytes;
    j->synth = d->synth;
    j->synth_ctx = d->synth_ctx;
    j->check_witness = d->check_witness;
    j->witness_form = d->witness_form;
    atomic_init(&j->dead, 0);
    j->proofs = calloc(P, sizeof *j->proofs);
    j->pub = calloc((size_t)P * (j->n_public ? j->n_public : 1), sizeof *j->pub);
    j->tm = calloc(P, sizeof *j->tm);
    if (d->fixed_rs) {
        j->rs = malloc(2 * (size_t)P * sizeof *j->rs);
        if (j->rs) memcpy(j->rs, d->fixed_rs, 2 * (size_t)P * sizeof *j->rs);
    }
    if (!j->proofs || !j->pub || !j->tm || (d->fixed_rs && !j->rs)) {
        job_free(j);
        return ERR(err, CUZK_ERR_NOMEM, "cuzk_engine_submit: job of %u partitions", P);
    }
    pthread_mutex_lock(&e->mu);
    if (e->stop) {
        pthread_mutex_unlock(&e->mu);
        job_free(j);
        return ERR(err, CUZK_ERR_ARG, "cuzk_engine_submit: the engine is shutting down");
    }
    j->id = e->next_id++;
    j->submit_ms = now_ms();
    job **pp = &e->jobs;
    while (*pp) pp = &(*pp)->next;
    *pp = j;
    *id = j->id;
    pthread_cond_broadcast(&e->cv_work);
    pthread_mutex_unlock(&e->mu);
    return CUZK_OK;
}

cuzk_status cuzk_engine_cancel(cuzk_engine *e, cuzk_job_id id) {
    if (!e) return CUZK_ERR_ARG;
    cuzk_status st = CUZK_ERR_ARG;
    pthread_mutex_lock(&e->mu);
    for (job *j = e->jobs; j; j = j->next)
        if (j->id == id) {
            if (!j->complete) {
                if (!j->failed) j->cancelled = 1;
                job_kill_locked(e, j);
                st = CUZK_OK;
            }
            break;
        }
    pthread_mutex_unlock(&e->mu);
    if (st == CUZK_OK) budget_wake(&e->bud);
    return st;
}

void cuzk_job_result_free(cuzk_job_result *r) {
    if (!r) return;
    free(r->proofs);
    free(r->public_inputs);
    free(r->timings);
    r->proofs = NULL;
    r->public_inputs = NULL;
    r->timings = NULL;
}

cuzk_status cuzk_engine_wait(cuzk_engine *e, cuzk_job_id id, cuzk_job_result *out, cuzk_error *err) {
    if (!e || !out) return ERR(err, CUZK_ERR_ARG, "cuzk_engine_wait: NULL argument");
    pthread_mutex_lock(&e->mu);
    job **pp = &e->jobs;
    while (*pp && (*pp)->id != id) pp = &(*pp)->next;
    job *j = *pp;
    if (!j || j->waiting) {
        pthread_mutex_unlock(&e->mu);
        return ERR(err, CUZK_ERR_ARG, "cuzk_engine_wait: no job %llu to wait for", (unsigned long long)id);
    }
    j->waiting = 1;
    while (!j->complete) pthread_cond_wait(&e->cv_done, &e->mu);
    for (pp = &e->jobs; *pp != j; pp = &(*pp)->next) {}
    *pp = j->next; /* forgotten: the reaper observer no longer finds it */
    pthread_mutex_unlock(&e->mu);
    memset(out, 0, sizeof *out);

    cuzk_status st = CUZK_OK;
    out->state = j->failed ? CUZK_JOB_FAILED : j->cancelled ? CUZK_JOB_CANCELLED : CUZK_JOB_DONE;
    out->status = j->failed ? j->status : CUZK_OK;
    out->failed_partition = j->failed_part;
    out->n_partitions = j->P;
    out->n_public = j->n_public;
    out->submit_ms = j->submit_ms;
    out->done_ms = j->done_ms;
    if (j->failed && err) *err = j->err;
    out->timings = malloc(j->P * sizeof *out->timings);
    if (out->timings) memcpy(out->timings, j->tm, j->P * sizeof *out->timings);
    else st = ERR(err, CUZK_ERR_NOMEM, "cuzk_engine_wait: result");
    if (out->state == CUZK_JOB_DONE && st == CUZK_OK) {
        out->proofs = malloc((size_t)j->P * BELLPERSON_PROOF_BYTES);
        out->public_inputs = malloc((size_t)j->P * (j->n_public ? j->n_public : 1) * 32);
        if (!out->proofs || !out->public_inputs) st = ERR(err, CUZK_ERR_NOMEM, "cuzk_engine_wait: result");
        else {
            for (uint32_t i = 0; i < j->P; i++)
                bellperson_proof_encode(out->proofs + (size_t)i * BELLPERSON_PROOF_BYTES, &j->proofs[i]);
            for (size_t i = 0; i < (size_t)j->P * j->n_public; i++) fr_to_bytes_le(out->public_inputs + 32 * i, 32, &j->pub[i]);
        }
    }
    if (st != CUZK_OK) cuzk_job_result_free(out);
    job_free(j);
    out->wait_return_ms = now_ms();
    return st;
}

void cuzk_engine_get_stats(cuzk_engine *e, cuzk_engine_stats *out) {
    memset(out, 0, sizeof *out);
    if (!e) return;
    pthread_mutex_lock(&e->bud.mu);
    out->budget_limit = e->bud.limit;
    out->budget_reserved = e->bud.reserved;
    out->budget_max_reserved = e->bud.max_reserved;
    out->budget_wait_ms = e->bud.wait_ms;
    pthread_mutex_unlock(&e->bud.mu);
    out->budget_underestimates = atomic_load(&e->underestimates);
    reaper_stats rs;
    reaper_get_stats(e->rp, &rs);
    out->reaper_pending_bytes = reaper_pending_bytes(e->rp);
    out->reaper_max_pending_bytes = rs.max_pending_bytes;
    out->reaper_items_freed = rs.items_freed;
    out->reaper_bytes_freed = rs.bytes_freed;
    if (e->be->device_bytes) out->gpu_resident_bytes = e->be->device_bytes(e->be_ctx);
    if (e->be == &engine_backend_gpu) {
        size_t in_use = 0;
        engine_gpu_pinned_stats(e->be_ctx, &out->pinned_bytes, &in_use, &out->pinned_fallbacks);
        engine_gpu_mem_stats(e->be_ctx, &out->gpu_pool_bytes, &out->gpu_device_used_bytes);
    }
    out->reaper_busy_ms = rs.busy_ms;
}

void cuzk_engine_drain_frees(cuzk_engine *e) {
    if (e) reaper_drain(e->rp);
}

static const char *tid_name(int tid, char *buf, size_t cap) {
    if (tid >= TID_B2) snprintf(buf, cap, "B_G2 MSM (CPU threads)");
    else if (tid >= TID_GPU) snprintf(buf, cap, "GPU stream");
    else if (tid >= TID_REAPER) snprintf(buf, cap, "reaper (deferred free)");
    else if (tid >= TID_FINISH) snprintf(buf, cap, "finish worker %d", tid - TID_FINISH);
    else if (tid >= TID_PROVE) snprintf(buf, cap, "prove-start worker");
    else snprintf(buf, cap, "synthesis worker %d", tid - TID_SYNTH);
    return buf;
}

cuzk_status cuzk_engine_trace_write(cuzk_engine *e, const char *path, cuzk_error *err) {
    if (!e || !path || !*path) return ERR(err, CUZK_ERR_ARG, "cuzk_engine_trace_write: NULL or empty path");
    /* written whole to a temporary and renamed (src/util/outfile.h): a failed write leaves no
     * partial trace; a FIFO or device is written in place */
    char tmp[4200];
    outfile_tmp_name(tmp, sizeof tmp, path);
    FILE *f = fopen(tmp, "w");
    if (!f) {
        cuzk_status st = ERR(err, CUZK_ERR_IO, "cannot write %s: %s", tmp, strerror(errno));
        outfile_discard(tmp);
        return st;
    }
    pthread_mutex_lock(&e->tmu);
    fprintf(f, "{\"displayTimeUnit\": \"ms\", \"traceEvents\": [\n");
    fprintf(f, "{\"name\": \"process_name\", \"ph\": \"M\", \"pid\": 1, \"tid\": 0, \"args\": {\"name\": \"cuzk engine (%s backend)\"}}",
            e->be->name);
    int tids[] = {TID_PROVE, TID_REAPER, TID_GPU, TID_B2};
    char nb[64];
    for (int i = 0; i < e->o.synthesis_workers; i++)
        fprintf(f, ",\n{\"name\": \"thread_name\", \"ph\": \"M\", \"pid\": 1, \"tid\": %d, \"args\": {\"name\": \"%s\"}}",
                TID_SYNTH + i, tid_name(TID_SYNTH + i, nb, sizeof nb));
    for (int i = 0; i < (e->be == &engine_backend_gpu ? 4 : 2); i++)
        fprintf(f, ",\n{\"name\": \"thread_name\", \"ph\": \"M\", \"pid\": 1, \"tid\": %d, \"args\": {\"name\": \"%s\"}}",
                tids[i], tid_name(tids[i], nb, sizeof nb));
    for (int i = 0; i < e->o.finish_workers; i++)
        fprintf(f, ",\n{\"name\": \"thread_name\", \"ph\": \"M\", \"pid\": 1, \"tid\": %d, \"args\": {\"name\": \"%s\"}}",
                TID_FINISH + i, tid_name(TID_FINISH + i, nb, sizeof nb));
    for (size_t i = 0; i < e->n_spans; i++) {
        const span *s = &e->spans[i];
        fprintf(f,
                ",\n{\"name\": \"%s\", \"cat\": \"cuzk\", \"ph\": \"X\", \"pid\": 1, \"tid\": %d, \"ts\": %.3f, "
                "\"dur\": %.3f, \"args\": {\"job\": %llu, \"partition\": %u, \"bytes\": %llu}}",
                s->name, s->tid, (s->t0 - e->t0) * 1e3, (s->t1 - s->t0) * 1e3, (unsigned long long)s->job, s->part,
                (unsigned long long)s->bytes);
    }
    fprintf(f, "\n]}\n");
    pthread_mutex_unlock(&e->tmu);
    int bad = ferror(f);
    if (fclose(f) != 0 || bad) {
        cuzk_status st = ERR(err, CUZK_ERR_IO, "cannot write %s: %s", path, strerror(errno ? errno : EIO));
        outfile_discard(tmp);
        return st;
    }
    return outfile_commit(tmp, path, err);
}
