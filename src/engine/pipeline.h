/* The engine's internals shared by its files (include/cuzk/engine.h is the contract). Not installed.
 *
 *   queue.c           the bounded FIFO between two stages (producers enter by ticket)
 *   trace.c           span recording and the Chrome trace writer
 *   workers.c         the partitions' life: synthesis workers, one prove-start worker per device,
 *                     finish workers, the release hook and the reaper observer
 *   engine.c          the public API: create / destroy, submit, cancel, wait, stats, preload,
 *                     circuits made from proving keys
 *   backend_cpu.c     the stateless CPU backend (engine_internal.h; tests wrap it)
 *   backend_prover.c  the engine backend over the prover orchestration: CPU or GPU, one per device
 *   budget.c          the memory budget's ordered dispatcher
 *
 * Ownership: a partition (struct part) is owned by exactly one stage at a time; it moves through
 * the queues with its witness, its pending proof and the budget bytes it still holds. Every
 * buffer leaves through part_release -> the reaper, which returns the budget when the buffer is
 * actually freed. One engine mutex (mu) guards the job list and every job's shared fields;
 * per-partition timing fields are written by the stage that owns the partition and read after
 * the partition became terminal (under mu). Lock order: budget.mu and the queues' locks are never
 * held while taking mu, except that the reaper observer takes mu (it holds no other lock).
 */
#ifndef CUZK_ENGINE_PIPELINE_H
#define CUZK_ENGINE_PIPELINE_H

#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "cuzk/engine.h"
#include "engine/engine_internal.h"
#include "util/reaper.h"

/* Trace tracks (Chrome "tid"s): synthesis workers, prove-start workers (one per device), finish
 * workers, the reaper, the device streams and the B_G2 threads (one per device). */
enum { TID_SYNTH = 1, TID_PROVE = 100, TID_FINISH = 200, TID_REAPER = 300, TID_GPU = 400, TID_B2 = 500 };

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
    const groth16_curve *gc;  /* the circuit's curve: every Fr operation and the proof's bytes */
    size_t proof_bytes;       /* gc->proof_bytes: one proof's encoding (BLS12-381 192, BN254 256) */
    uint32_t P, n_public;
    size_t n_vars, part_bytes;
    cuzk_synth_fn synth;
    void *synth_ctx;
    groth16_fr_any *rs;       /* 2P values (the circuit's Fr, Montgomery) or NULL */
    int check_witness;
    cuzk_witness_form witness_form;
    uint32_t next_synth, n_terminal;
    atomic_int dead;          /* failed or cancelled: drop partitions at the next stage boundary */
    int failed, cancelled, complete, waiting;
    cuzk_status status;
    cuzk_error err;
    uint32_t failed_part;
    uint8_t *proofs;          /* P * proof_bytes, partition order */
    groth16_fr_any *pub;      /* P * n_public values of the circuit's Fr (Montgomery) */
    cuzk_partition_timings *tm; /* P */
    double submit_ms, done_ms;
    cuzk_progress_fn progress;  /* the job's progress reports (cuzk_job_desc), or NULL */
    void *progress_user;
    pthread_mutex_t progress_mu; /* one report at a time; guards n_proved */
    uint32_t n_proved;          /* partitions whose proof is stored */
    struct job *next;
} job;

/* A progress report of job j (no-op without a progress function): "partition <idx>: <stage>",
 * done = partitions proved so far, total = P. Called before the partition is terminal (the job
 * lives); proved = 1 counts partition idx proved first. */
void engine_job_progress(job *j, uint32_t idx, const char *stage, int proved);

typedef struct part {
    cuzk_engine *e;
    job *j;
    uint32_t idx;
    int dev;                  /* the device whose prove worker started it (its pending is that backend's) */
    int routed;               /* holds a residency reference on dev (backend route), dropped by part_unroute */
    uint32_t retries;         /* times restarted on another device after a device was lost */
    groth16_fr_any *w;        /* n_vars values of the circuit's Fr */
    size_t w_bytes;
    int w_pooled;             /* w came from a backend's witness_alloc (returned through witness_free) */
    void *w_ctx;              /* that backend context */
    void *pending;
    size_t reserved;          /* budget bytes still held, not yet handed to the reaper */
    double t_push_begin, t_enq;
    double t_b2;              /* B_G2 overlapped: when start launched its threads (the span is traced by
                                 finish, when the MSM's time is known) */
    struct part *next;
} part;

typedef struct worker_arg { struct cuzk_engine *e; int idx; } worker_arg;

#define ENGINE_MAX_WORKERS_PER_DEVICE 4

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
    int n_dev;                      /* devices, one prove-start worker and one backend context each */
    void *be_ctx[CUZK_ENGINE_MAX_DEVICES];
    int dev_id[CUZK_ENGINE_MAX_DEVICES]; /* their ordinals (for names) */
    unsigned caps;                  /* GROTH16_CAP_* the backend declares (device 0's) */
    const char *backend_name;
    int owns_be_ctx;                /* cuzk_engine_create made the contexts: destroy frees them */
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
    int wpd;                        /* prove-start workers per device (opts.gpu_workers_per_device) */
    atomic_int dev_dead[CUZK_ENGINE_MAX_DEVICES]; /* a sticky fault was seen: takes no partition */
    atomic_int n_live;              /* devices not dead */
    pthread_t *synth_th, prove_th[CUZK_ENGINE_MAX_DEVICES * ENGINE_MAX_WORKERS_PER_DEVICE], *finish_th;
    int n_synth, n_prove, n_finish;
    worker_arg *wa;           /* the workers' arguments (live as long as the threads) */
    pthread_mutex_t tmu;
    span *spans;
    size_t n_spans, cap_spans;
    double t0;
};

/* ---- queue.c ---- */
void pq_init(pqueue *q, int cap);
void pq_destroy(pqueue *q);
/* Blocks while full or while earlier producers wait; 0 (not queued) once closed. Sets p->t_enq
 * when inserted; *t_enq (may be NULL) gets it too: after the push p belongs to the consumer. */
int pq_push(pqueue *q, part *p, double *t_enq);
/* Blocks while empty; NULL once closed and empty. */
part *pq_pop(pqueue *q);
/* Takes the first partition take(ctx, p, pass) accepts, trying pass 0 over the whole queue, then
 * pass 1; blocks while none is accepted (take is re-asked after every push and pq_kick). Once
 * closed: the head whatever take says (shutdown drops it), NULL when empty. take runs under the queue's lock. */
part *pq_pop_match(pqueue *q, int (*take)(void *ctx, part *p, int pass), void *ctx);
/* Puts p at the head, whatever the capacity (a retried partition; never blocks). 0 once closed. */
int pq_push_front(pqueue *q, part *p);
/* Wakes the consumers so they re-ask take (residency or device state changed). */
void pq_kick(pqueue *q);
void pq_close(pqueue *q);

/* ---- trace.c ---- */
/* Records one span (no-op with opts.no_trace; at most 2^22 spans). Thread-safe. */
void trace_add(cuzk_engine *e, const char *name, int tid, double t0, double t1, uint64_t jid, uint32_t part,
               uint64_t bytes);

/* ---- workers.c ---- */
void *engine_synth_main(void *arg);   /* arg: worker_arg (idx: synthesis worker) */
void *engine_prove_main(void *arg);   /* arg: worker_arg (idx: device) */
void *engine_finish_main(void *arg);  /* arg: worker_arg (idx: finish worker) */
/* The reaper observer: returns the budget of each freed buffer, traces the free. */
void engine_on_free(void *ctx, const reaper_item *it, double t0, double t1);
int engine_job_dead(void *vj);
/* Under mu. */
void engine_job_check_complete_locked(cuzk_engine *e, job *j);
void engine_job_kill_locked(cuzk_engine *e, job *j);
void engine_job_free(job *j);

#endif
