/* cuzkd job table and scheduler (jobs.h). One mutex guards the whole table; proofs run outside it. */
#include "jobs.h"

#include "cgrpc.h"
#include "dlog.h"
#include "dprover.h"
#include "pbvalid.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <jansson.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define NBUCKETS 4096

enum { JS_QUEUED = 0, JS_RUNNING = 1, JS_DONE = 2 };

typedef struct job {
    char id[32];
    char *request_id;
    uint64_t h[2];
    int kind, kidx, priority;
    char *circuit_id;
    uint8_t *witness;        /* GENERIC: the .wtns bytes; PoSt: the vanilla proofs, concatenated */
    size_t witness_len;
    void *witness_owner;     /* the block witness lies in (job_submit.witness_owner), or NULL */
    void (*witness_release)(void *owner);
    size_t *vanilla_lens;    /* PoSt: the length of each vanilla proof */
    size_t n_vanilla;
    uint8_t randomness[32];
    uint64_t partition;
    int api_version;
    int porep;               /* PoRep: witness holds the C1 output */
    uint64_t sector_id, miner_id, registered_proof;
    int snap;                /* SnapDeals: witness holds the partition proofs (vanilla_lens) */
    uint8_t comm_r_old[32], comm_d_new[32], comm_r_new[32];
    int state;               /* JS_* */
    int result;              /* JR_* once JS_DONE */
    volatile int cancel;
    uint64_t engine_job;     /* the engine's id while it proves (0: none), for cancellation */
    char *error;
    dp_proof res;
    uint64_t completion_seq;
    double t_submit, t_start, t_end, srs_ms, prove_ms, synth_ms;
    int refs;                /* the table's (1 while in it) + awaiters + the worker's */
    int in_table;
    struct job *prev, *next; /* queue or done list */
    struct job *id_next;     /* id hash chain */
    struct job *rid_next;    /* request_id hash chain (only the newest job of an id is in it) */
    int in_rid;
} job;

typedef struct list { job *head, *tail; uint32_t n; } list;

typedef struct srs_entry {
    const dcfg_circuit *c;
    dp_key *key;
    int loading;
    uint64_t bytes;
    uint32_t refs;
    double last_used, load_ms;
    char load_error[600];    /* the last failure to load the key ("" once loaded): the server's files */
    uint64_t load_failures;
} srs_entry;

#define HIST_N 14
static const double HIST_BOUNDS[HIST_N] = {0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300};

struct jobs {
    const dcfg *cfg;
    dp_engine *E;
    pthread_mutex_t mu;
    pthread_cond_t work_cv, done_cv, srs_cv, jan_cv;
    job *by_id[NBUCKETS];
    job *by_rid[NBUCKETS];
    list q[5];               /* index = priority 1..4 */
    list done;
    uint32_t n_queued;
    uint32_t pending[JOBS_N_KINDS], running[JOBS_N_KINDS];
    uint64_t completed[JOBS_N_KINDS], failed[JOBS_N_KINDS], cancelled[JOBS_N_KINDS];
    uint64_t hist[JOBS_N_KINDS][HIST_N + 1];
    double hist_sum[JOBS_N_KINDS];
    uint64_t next_id, completion_counter;
    double t_start;
    int stopping, shutting_down;
    int n_workers;
    pthread_t *threads;
    job **current;           /* per worker */
    pthread_t janitor;
    int n_srs;
    srs_entry *srs;
};

static const int KINDS[JOBS_N_KINDS] = {JK_POREP, JK_SNAP, JK_WPOST, JK_WINNING, JK_GENERIC};

const char *jobs_kind_name(int kind) {
    switch (kind) {
    case JK_POREP: return "POREP_SEAL_COMMIT";
    case JK_SNAP: return "SNAP_DEALS_UPDATE";
    case JK_WPOST: return "WINDOW_POST_PARTITION";
    case JK_WINNING: return "WINNING_POST";
    case JK_GENERIC: return "GENERIC_GROTH16";
    default: return NULL;
    }
}

static int kind_index(int kind) {
    for (int i = 0; i < JOBS_N_KINDS; i++)
        if (KINDS[i] == kind) return i;
    return -1;
}

double jobs_now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static uint32_t hstr(const char *s) {
    uint64_t h = 1469598103934665603ull;
    for (; *s; s++) h = (h ^ (uint8_t)*s) * 1099511628211ull;
    return (uint32_t)(h ^ (h >> 32)) % NBUCKETS;
}

static void list_push(list *l, job *j) {
    j->next = NULL;
    j->prev = l->tail;
    if (l->tail) l->tail->next = j; else l->head = j;
    l->tail = j;
    l->n++;
}

static void list_remove(list *l, job *j) {
    if (j->prev) j->prev->next = j->next; else l->head = j->next;
    if (j->next) j->next->prev = j->prev; else l->tail = j->prev;
    j->prev = j->next = NULL;
    l->n--;
}

/* Lets the witness go: its block of its own, or the request it lies in. */
static void job_witness_free(job *j) {
    if (j->witness_owner) j->witness_release(j->witness_owner);
    else free(j->witness);
    j->witness = NULL;
    j->witness_owner = NULL;
    j->witness_len = 0;
}

static void job_free(job *j) {
    free(j->request_id);
    free(j->circuit_id);
    job_witness_free(j);
    free(j->vanilla_lens);
    free(j->error);
    dp_proof_free(&j->res);
    free(j);
}

static void job_unref(job *j) {
    if (--j->refs == 0) job_free(j);
}

static job *find_id(jobs *J, const char *id) {
    for (job *j = J->by_id[hstr(id)]; j; j = j->id_next)
        if (strcmp(j->id, id) == 0) return j;
    return NULL;
}

static job *find_rid(jobs *J, const char *rid) {
    for (job *j = J->by_rid[hstr(rid)]; j; j = j->rid_next)
        if (strcmp(j->request_id, rid) == 0) return j;
    return NULL;
}

static void rid_remove(jobs *J, job *j) {
    if (!j->in_rid) return;
    job **pp = &J->by_rid[hstr(j->request_id)];
    while (*pp && *pp != j) pp = &(*pp)->rid_next;
    if (*pp) *pp = j->rid_next;
    j->in_rid = 0;
}

/* Removes a finished job from the table (its id is forgotten). */
static void table_remove(jobs *J, job *j) {
    job **pp = &J->by_id[hstr(j->id)];
    while (*pp && *pp != j) pp = &(*pp)->id_next;
    if (*pp) *pp = j->id_next;
    rid_remove(J, j);
    list_remove(&J->done, j);
    j->in_table = 0;
    job_unref(j);
}

/* Marks a job finished (lock held); frees its inputs. */
static void finish_locked(jobs *J, job *j, int result, const char *error) {
    if (j->state == JS_QUEUED) {
        list_remove(&J->q[j->priority], j);
        J->n_queued--;
        J->pending[j->kidx]--;
    } else if (j->state == JS_RUNNING) {
        J->running[j->kidx]--;
    }
    j->state = JS_DONE;
    j->result = result;
    j->t_end = jobs_now_ms();
    j->completion_seq = ++J->completion_counter;
    if (error && !j->error) j->error = strdup(error);
    job_witness_free(j);
    free(j->vanilla_lens);
    j->vanilla_lens = NULL;
    j->n_vanilla = 0;
    if (result == JR_COMPLETED) {
        J->completed[j->kidx]++;
        double s = (j->t_end - j->t_submit) / 1e3;
        int b = 0;
        while (b < HIST_N && s > HIST_BOUNDS[b]) b++;
        J->hist[j->kidx][b]++;
        J->hist_sum[j->kidx] += s;
    } else if (result == JR_FAILED) {
        J->failed[j->kidx]++;
    } else {
        J->cancelled[j->kidx]++;
    }
    list_push(&J->done, j);
    pthread_cond_broadcast(&J->done_cv);
}

/* ---- keys ---------------------------------------------------------------------------------- */

static srs_entry *srs_find(jobs *J, const char *id) {
    for (int i = 0; i < J->n_srs; i++)
        if (strcmp(J->srs[i].c->id, id) == 0) return &J->srs[i];
    return NULL;
}

/* A message cut to its buffer may end inside a UTF-8 sequence (a path in it): drop the partial
 * character, since the message goes out as a protobuf string and in JSON. */
static void utf8_cut(char *s) {
    size_t n = strlen(s);
    for (int k = 0; k < 3 && n && !utf8_valid((const uint8_t *)s, n); k++) s[--n] = 0;
}

/* Takes a reference on a loaded key, loading it if needed (lock held on entry and exit). */
static cuzk_status srs_acquire_locked(jobs *J, srs_entry *e, int *was_loaded, double *load_ms, cuzk_error *err) {
    while (e->loading) pthread_cond_wait(&J->srs_cv, &J->mu);
    *was_loaded = e->key != NULL;
    *load_ms = 0;
    if (!e->key) {
        e->loading = 1;
        pthread_mutex_unlock(&J->mu);
        double t0 = jobs_now_ms();
        dp_key *k = NULL;
        uint64_t bytes = 0;
        dlog(DLOG_INFO, "loading circuit %s", e->c->id);
        cuzk_status st = dp_key_load(J->E, e->c, &k, &bytes, err);
        double ms = jobs_now_ms() - t0;
        pthread_mutex_lock(&J->mu);
        e->loading = 0;
        pthread_cond_broadcast(&J->srs_cv);
        if (st) {
            /* the daemon's own files: an error of this server, whoever's job asked for the key */
            snprintf(e->load_error, sizeof e->load_error, "%s", err && err->msg[0] ? err->msg : cuzk_status_str(st));
            utf8_cut(e->load_error);
            e->load_failures++;
            dlog(DLOG_ERROR, "circuit %s cannot be loaded: %s", e->c->id, e->load_error);
            return st;
        }
        e->load_error[0] = 0;
        uint64_t budget = J->cfg->host_budget_bytes;
        if (budget) {
            /* Host budget: release idle keys, least recently used first, until the new one fits. */
            for (;;) {
                uint64_t used = 0;
                srs_entry *lru = NULL;
                for (int i = 0; i < J->n_srs; i++) {
                    srs_entry *o = &J->srs[i];
                    used += o->bytes;
                    if (o != e && o->key && !o->refs && !o->loading && (!lru || o->last_used < lru->last_used)) lru = o;
                }
                if (used + bytes <= budget) break;
                if (!lru) {
                    dp_key_free(J->E, k);
                    dlog(DLOG_WARN, "circuit %s does not fit the host budget", e->c->id);
                    return cuzk_error_set(err, CUZK_ERR_NOMEM, __FILE__, __LINE__,
                                          "circuit %s needs %" PRIu64 " bytes of host memory; engine.host_budget is %"
                                          PRIu64 " with %" PRIu64 " held by keys in use", e->c->id, bytes, budget, used);
                }
                dlog(DLOG_INFO, "circuit %s released to make room for %s (engine.host_budget)", lru->c->id, e->c->id);
                dp_key_free(J->E, lru->key);
                lru->key = NULL;
                lru->bytes = 0;
            }
        }
        dlog(DLOG_INFO, "circuit %s loaded in %.0f ms (%" PRIu64 " bytes)", e->c->id, ms, bytes);
        e->key = k;
        e->bytes = bytes;
        e->load_ms = ms;
        *load_ms = ms;
    }
    e->refs++;
    e->last_used = jobs_now_ms();
    return CUZK_OK;
}

static void srs_release_locked(jobs *J, srs_entry *e) {
    (void)J;
    e->refs--;
    e->last_used = jobs_now_ms();
}

/* ---- workers ------------------------------------------------------------------------------- */

typedef struct worker_arg { jobs *J; int index; } worker_arg;

typedef struct started_arg { jobs *J; job *j; } started_arg;
/* dp_input.started: the job's engine id, for jobs_cancel */
static void job_started(void *ctx, uint64_t engine_job) {
    started_arg *a = ctx;
    pthread_mutex_lock(&a->J->mu);
    a->j->engine_job = engine_job;
    pthread_mutex_unlock(&a->J->mu);
}

static job *pop_locked(jobs *J) {
    for (int p = 4; p >= 1; p--) {
        job *j = J->q[p].head;
        if (j) {
            list_remove(&J->q[p], j);
            J->n_queued--;
            J->pending[j->kidx]--;
            return j;
        }
    }
    return NULL;
}

static const char *status_phrase(cuzk_status st) {
    switch (st) {
    case CUZK_ERR_UNSAT: return "the witness does not satisfy the circuit";
    case CUZK_ERR_MISMATCH: return "the witness does not fit the circuit";
    case CUZK_ERR_CURVE: return "the witness is for another curve";
    case CUZK_ERR_FORMAT: return "bad witness or key file";
    default: return cuzk_status_str(st);
    }
}

static void *worker_main(void *arg) {
    worker_arg *wa = arg;
    jobs *J = wa->J;
    int w = wa->index;
    free(wa);
    pthread_mutex_lock(&J->mu);
    for (;;) {
        job *j = NULL;
        while (!J->stopping && !(j = pop_locked(J))) pthread_cond_wait(&J->work_cv, &J->mu);
        if (J->stopping) break;
        j->state = JS_RUNNING;
        J->running[j->kidx]++;
        j->t_start = jobs_now_ms();
        j->refs++;
        J->current[w] = j;
        srs_entry *e = srs_find(J, j->circuit_id);
        cuzk_error err;
        memset(&err, 0, sizeof err);
        cuzk_status st = CUZK_OK;
        int was_loaded = 0, key_failed = 0;
        double load_ms = 0;
        if (!e) st = cuzk_error_set(&err, CUZK_ERR_ARG, __FILE__, __LINE__, "unknown circuit %s", j->circuit_id);
        else key_failed = (st = srs_acquire_locked(J, e, &was_loaded, &load_ms, &err)) != CUZK_OK;
        j->srs_ms = load_ms;
        dp_proof res;
        memset(&res, 0, sizeof res);
        if (st == CUZK_OK) {
            dp_key *key = e->key;
            started_arg sa = {J, j};
            dp_input in;
            memset(&in, 0, sizeof in);
            in.wtns = j->witness;
            in.wtns_len = j->witness_len;
            in.vanilla_lens = j->vanilla_lens;
            in.n_vanilla = j->n_vanilla;
            memcpy(in.randomness, j->randomness, 32);
            in.partition = j->partition;
            in.api_version = j->api_version;
            in.porep = j->porep;
            in.sector_id = j->sector_id;
            in.miner_id = j->miner_id;
            in.registered_proof = j->registered_proof;
            in.snap = j->snap;
            memcpy(in.comm_r_old, j->comm_r_old, 32);
            memcpy(in.comm_d_new, j->comm_d_new, 32);
            memcpy(in.comm_r_new, j->comm_r_new, 32);
            in.cancel = &j->cancel;
            in.delay_ms = J->cfg->debug_prove_delay_ms;
            in.hold = J->cfg->debug_hold_circuit && strcmp(J->cfg->debug_hold_circuit, j->circuit_id) == 0;
            in.started = job_started;
            in.started_ctx = &sa;
            pthread_mutex_unlock(&J->mu);
            dlog(DLOG_DEBUG, "job %s: proving circuit %s (%s %zu bytes)", j->id, j->circuit_id,
                 j->porep ? "C1 output" : j->snap ? "partition proofs" : j->n_vanilla ? "vanilla proofs" : "witness",
                 j->witness_len);
            st = dp_prove(J->E, key, &in, &res, &err);
            pthread_mutex_lock(&J->mu);
            j->engine_job = 0;
            srs_release_locked(J, e);
        }
        j->prove_ms = res.prove_ms;
        j->synth_ms = res.synth_ms;
        J->current[w] = NULL;
        if (j->cancel) {
            dp_proof_free(&res);
            finish_locked(J, j, JR_CANCELLED, "cancelled while proving");
            dlog(DLOG_INFO, "job %s cancelled while proving", j->id);
        } else if (st == CUZK_OK) {
            j->res = res;
            finish_locked(J, j, JR_COMPLETED, NULL);
            /* where the job's time went: the queue, the witness into the prover's form (the
             * synthesis of a generic job), the prover, and the rest (the engine's hand-offs, the
             * proof's check against the key, its JSON) */
            const double total = j->t_end - j->t_submit, queue = j->t_start - j->t_submit;
            dlog(DLOG_INFO, "job %s completed in %.1f ms (queue %.1f, %s %.1f, prover %.1f, other %.1f ms)", j->id,
                 total, queue, j->n_vanilla || j->porep || j->snap ? "synthesis" : "witness", j->synth_ms,
                 j->prove_ms, total - queue - j->synth_ms - j->prove_ms);
        } else {
            char msg[900];
            if (key_failed) /* not the request's fault: say whose it is, and which file */
                snprintf(msg, sizeof msg, "server error: the key of circuit %s cannot be loaded, nothing was proved (the "
                         "daemon's own file is at fault, not the request): %s: %s", j->circuit_id, cuzk_status_str(st),
                         err.msg[0] ? err.msg : cuzk_status_str(st));
            else if (j->porep && (st == CUZK_ERR_FORMAT || st == CUZK_ERR_INVALID || st == CUZK_ERR_IO))
                snprintf(msg, sizeof msg, "the C1 output was refused, nothing was proved: %s",
                         err.msg[0] ? err.msg : cuzk_status_str(st));
            else if (j->snap && (st == CUZK_ERR_FORMAT || st == CUZK_ERR_INVALID || st == CUZK_ERR_IO))
                snprintf(msg, sizeof msg, "the partition proofs were refused, nothing was proved: %s",
                         err.msg[0] ? err.msg : cuzk_status_str(st));
            else if (j->n_vanilla && (st == CUZK_ERR_FORMAT || st == CUZK_ERR_INVALID || st == CUZK_ERR_IO))
                snprintf(msg, sizeof msg, "a vanilla proof was refused, nothing was proved: %s",
                         err.msg[0] ? err.msg : cuzk_status_str(st));
            else if (!strncmp(err.msg, "server error: ", 14)) /* the daemon's own fault, said as such */
                snprintf(msg, sizeof msg, "%s", err.msg);
            else
                snprintf(msg, sizeof msg, "%s: %s", j->n_vanilla || j->porep ? cuzk_status_str(st) : status_phrase(st),
                         err.msg[0] ? err.msg : cuzk_status_str(st));
            utf8_cut(msg);
            finish_locked(J, j, JR_FAILED, msg);
            dlog(DLOG_INFO, "job %s failed: %s", j->id, msg);
        }
        job_unref(j);
    }
    pthread_mutex_unlock(&J->mu);
    return NULL;
}

/* Expires finished jobs and evicts idle keys. */
static void *janitor_main(void *arg) {
    jobs *J = arg;
    pthread_mutex_lock(&J->mu);
    while (!J->stopping) {
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        ts.tv_nsec += 250000000;
        if (ts.tv_nsec >= 1000000000) { ts.tv_sec++; ts.tv_nsec -= 1000000000; }
        pthread_cond_timedwait(&J->jan_cv, &J->mu, &ts);
        double now = jobs_now_ms();
        job *j = J->done.head;
        while (j) {
            job *next = j->next;
            int too_many = J->done.n > J->cfg->max_retained;
            if (too_many || now - j->t_end >= (double)J->cfg->result_retention_ms) table_remove(J, j);
            else break;
            j = next;
        }
        if (J->cfg->srs_idle_evict_ms) {
            for (int i = 0; i < J->n_srs; i++) {
                srs_entry *e = &J->srs[i];
                if (e->key && !e->refs && !e->loading && now - e->last_used >= (double)J->cfg->srs_idle_evict_ms) {
                    dlog(DLOG_INFO, "circuit %s idle for %.0f s: released", e->c->id, (now - e->last_used) / 1e3);
                    dp_key_free(J->E, e->key);
                    e->key = NULL;
                    e->bytes = 0;
                }
            }
        }
    }
    pthread_mutex_unlock(&J->mu);
    return NULL;
}

jobs *jobs_create(const dcfg *cfg, char *msg, size_t cap) {
    jobs *J = calloc(1, sizeof *J);
    if (!J) {
        snprintf(msg, cap, "out of memory");
        return NULL;
    }
    J->cfg = cfg;
    cuzk_error err;
    memset(&err, 0, sizeof err);
    cuzk_status st = dp_engine_create(&J->E, cfg, &err);
    if (st != CUZK_OK) {
        snprintf(msg, cap, "engine (backend %s): %s", cfg->backend, err.msg[0] ? err.msg : cuzk_status_str(st));
        free(J);
        return NULL;
    }
    pthread_mutex_init(&J->mu, NULL);
    pthread_cond_init(&J->work_cv, NULL);
    pthread_cond_init(&J->done_cv, NULL);
    pthread_cond_init(&J->srs_cv, NULL);
    pthread_cond_init(&J->jan_cv, NULL);
    J->t_start = jobs_now_ms();
    J->n_srs = cfg->n_circuits;
    J->srs = calloc(cfg->n_circuits + 1, sizeof(srs_entry));
    for (int i = 0; i < cfg->n_circuits; i++) J->srs[i].c = &cfg->circuits[i];
    J->n_workers = cfg->workers;
    J->threads = calloc(J->n_workers, sizeof(pthread_t));
    J->current = calloc(J->n_workers, sizeof(job *));
    for (int i = 0; i < J->n_workers; i++) {
        worker_arg *wa = malloc(sizeof *wa);
        wa->J = J;
        wa->index = i;
        pthread_create(&J->threads[i], NULL, worker_main, wa);
    }
    pthread_create(&J->janitor, NULL, janitor_main, J);
    return J;
}

void jobs_begin_shutdown(jobs *J) {
    pthread_mutex_lock(&J->mu);
    J->shutting_down = 1;
    pthread_mutex_unlock(&J->mu);
}

int jobs_wait_idle(jobs *J, double deadline_ms) {
    pthread_mutex_lock(&J->mu);
    for (;;) {
        int busy = J->n_queued > 0;
        for (int i = 0; i < JOBS_N_KINDS; i++) busy |= J->running[i] > 0;
        if (!busy) { pthread_mutex_unlock(&J->mu); return 1; }
        double now = jobs_now_ms();
        if (now >= deadline_ms) { pthread_mutex_unlock(&J->mu); return 0; }
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        double wait = deadline_ms - now;
        if (wait > 100) wait = 100;
        long ns = ts.tv_nsec + (long)(wait * 1e6);
        ts.tv_sec += ns / 1000000000;
        ts.tv_nsec = ns % 1000000000;
        pthread_cond_timedwait(&J->done_cv, &J->mu, &ts);
    }
}

void jobs_cancel_all(jobs *J) {
    pthread_mutex_lock(&J->mu);
    for (int p = 1; p <= 4; p++)
        while (J->q[p].head) finish_locked(J, J->q[p].head, JR_CANCELLED, "cancelled: the daemon is shutting down");
    for (int i = 0; i < J->n_workers; i++)
        if (J->current[i]) {
            J->current[i]->cancel = 1;
            dp_cancel(J->E, J->current[i]->engine_job);
        }
    pthread_mutex_unlock(&J->mu);
}

void jobs_destroy(jobs *J) {
    if (!J) return;
    jobs_cancel_all(J);
    pthread_mutex_lock(&J->mu);
    J->stopping = 1;
    pthread_cond_broadcast(&J->work_cv);
    pthread_cond_broadcast(&J->jan_cv);
    pthread_mutex_unlock(&J->mu);
    for (int i = 0; i < J->n_workers; i++) pthread_join(J->threads[i], NULL);
    pthread_join(J->janitor, NULL);
    while (J->done.head) table_remove(J, J->done.head);
    for (int i = 0; i < J->n_srs; i++) dp_key_free(J->E, J->srs[i].key);
    dp_engine_destroy(J->E);
    free(J->srs);
    free(J->threads);
    free(J->current);
    pthread_mutex_destroy(&J->mu);
    pthread_cond_destroy(&J->work_cv);
    pthread_cond_destroy(&J->done_cv);
    pthread_cond_destroy(&J->srs_cv);
    pthread_cond_destroy(&J->jan_cv);
    free(J);
}

static uint32_t queue_pos_locked(jobs *J, job *j) {
    if (j->state != JS_QUEUED) return 0;
    uint32_t n = 1;
    for (int p = 4; p > j->priority; p--) n += J->q[p].n;
    for (job *o = J->q[j->priority].head; o && o != j; o = o->next) n++;
    return n;
}

int jobs_submit(jobs *J, job_submit *s, char job_id[32], uint32_t *queue_pos, int *deduplicated, char *msg,
                size_t cap) {
    int kidx = kind_index(s->kind);
    *deduplicated = 0;
    if (kidx < 0) {
        snprintf(msg, cap, "unknown proof_kind %d", s->kind);
        return CGRPC_INVALID_ARGUMENT;
    }
    pthread_mutex_lock(&J->mu);
    if (J->shutting_down) {
        pthread_mutex_unlock(&J->mu);
        snprintf(msg, cap, "the daemon is shutting down");
        return CGRPC_UNAVAILABLE;
    }
    const char *rid = s->request_id && *s->request_id ? s->request_id : NULL;
    if (rid) {
        job *o = find_rid(J, rid);
        if (o && o->h[0] == s->input_hash[0] && o->h[1] == s->input_hash[1] &&
            !(o->state == JS_DONE && o->result != JR_COMPLETED)) {
            snprintf(job_id, 32, "%s", o->id);
            *queue_pos = queue_pos_locked(J, o);
            *deduplicated = 1;
            pthread_mutex_unlock(&J->mu);
            return CGRPC_OK;
        }
        if (o) rid_remove(J, o); /* a retry of a failed job, or other inputs: a new job takes the id */
    }
    if (!s->fail_message && J->n_queued >= J->cfg->max_queued) {
        pthread_mutex_unlock(&J->mu);
        snprintf(msg, cap, "the queue is full (%u jobs queued, jobs.max_queued)", J->cfg->max_queued);
        return CGRPC_RESOURCE_EXHAUSTED;
    }
    job *j = calloc(1, sizeof *j);
    if (!j) {
        pthread_mutex_unlock(&J->mu);
        snprintf(msg, cap, "out of memory");
        return CGRPC_RESOURCE_EXHAUSTED;
    }
    snprintf(j->id, sizeof j->id, "job-%" PRIu64, ++J->next_id);
    j->request_id = strdup(rid ? rid : "");
    j->h[0] = s->input_hash[0];
    j->h[1] = s->input_hash[1];
    j->kind = s->kind;
    j->kidx = kidx;
    j->priority = s->priority < 1 || s->priority > 4 ? 2 : s->priority;
    j->circuit_id = strdup(s->circuit_id ? s->circuit_id : "");
    j->t_submit = jobs_now_ms();
    j->refs = 1;
    j->in_table = 1;
    uint32_t b = hstr(j->id);
    j->id_next = J->by_id[b];
    J->by_id[b] = j;
    if (rid) {
        b = hstr(rid);
        j->rid_next = J->by_rid[b];
        J->by_rid[b] = j;
        j->in_rid = 1;
    }
    if (s->fail_message) {
        j->state = JS_RUNNING; /* counted as running for an instant so finish_locked balances */
        J->running[kidx]++;
        finish_locked(J, j, JR_FAILED, s->fail_message);
    } else {
        j->witness = s->witness;
        j->witness_len = s->witness_len;
        j->witness_owner = s->witness_owner;
        j->witness_release = s->witness_release;
        s->witness = NULL;
        s->witness_owner = NULL;
        j->vanilla_lens = s->vanilla_lens;
        j->n_vanilla = s->n_vanilla;
        s->vanilla_lens = NULL;
        memcpy(j->randomness, s->randomness, 32);
        j->partition = s->partition;
        j->api_version = s->api_version;
        j->porep = s->porep;
        j->sector_id = s->sector_id;
        j->miner_id = s->miner_id;
        j->registered_proof = s->registered_proof;
        j->snap = s->snap;
        memcpy(j->comm_r_old, s->comm_r_old, 32);
        memcpy(j->comm_d_new, s->comm_d_new, 32);
        memcpy(j->comm_r_new, s->comm_r_new, 32);
        j->state = JS_QUEUED;
        list_push(&J->q[j->priority], j);
        J->n_queued++;
        J->pending[kidx]++;
        pthread_cond_signal(&J->work_cv);
    }
    snprintf(job_id, 32, "%s", j->id);
    *queue_pos = queue_pos_locked(J, j);
    pthread_mutex_unlock(&J->mu);
    return CGRPC_OK;
}

void job_outcome_free(job_outcome *o) {
    free(o->proof);
    free(o->proof_json);
    free(o->public_json);
    free(o->error);
    memset(o, 0, sizeof *o);
}

static char *dup_or_null(const char *s) { return s ? strdup(s) : NULL; }

int jobs_await(jobs *J, const char *job_id, uint64_t timeout_ms, int (*cancelled)(const void *), const void *cctx,
               job_outcome *out, char *msg, size_t cap) {
    memset(out, 0, sizeof *out);
    double deadline = timeout_ms ? jobs_now_ms() + (double)timeout_ms : 0;
    pthread_mutex_lock(&J->mu);
    job *j = find_id(J, job_id);
    if (!j) {
        pthread_mutex_unlock(&J->mu);
        snprintf(msg, cap, "no job %s (unknown, or its result has expired)", job_id);
        return CGRPC_NOT_FOUND;
    }
    j->refs++;
    int rc = CGRPC_OK;
    while (j->state != JS_DONE) {
        if (cancelled && cancelled(cctx)) { rc = CGRPC_CANCELLED; break; }
        double now = jobs_now_ms();
        if (deadline && now >= deadline) break;
        double wait = 50;
        if (deadline && deadline - now < wait) wait = deadline - now;
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        long ns = ts.tv_nsec + (long)(wait * 1e6);
        ts.tv_sec += ns / 1000000000;
        ts.tv_nsec = ns % 1000000000;
        pthread_cond_timedwait(&J->done_cv, &J->mu, &ts);
    }
    if (rc == CGRPC_CANCELLED) {
        snprintf(msg, cap, "the call was cancelled by the client (the job goes on)");
    } else if (j->state != JS_DONE) {
        out->status = JR_TIMEOUT;
        char m[128];
        snprintf(m, sizeof m, "job %s not finished after %" PRIu64 " ms (it goes on)", j->id, timeout_ms);
        out->error = strdup(m);
    } else {
        out->status = j->result;
        if (j->res.proof) {
            out->proof = malloc(j->res.proof_len);
            memcpy(out->proof, j->res.proof, j->res.proof_len);
            out->proof_len = j->res.proof_len;
        }
        out->proof_json = dup_or_null(j->res.proof_json);
        out->public_json = dup_or_null(j->res.public_json);
        out->error = dup_or_null(j->error);
        out->completion_seq = j->completion_seq;
        double start = j->t_start ? j->t_start : j->t_end;
        out->queue_wait_ms = (uint64_t)(start - j->t_submit);
        out->srs_load_ms = (uint64_t)j->srs_ms;
        out->synthesis_ms = (uint64_t)j->synth_ms;
        out->gpu_compute_ms = (uint64_t)j->prove_ms;
        out->prover_us = (uint64_t)(j->prove_ms * 1e3);
        out->total_ms = (uint64_t)(j->t_end - j->t_submit);
    }
    job_unref(j);
    pthread_mutex_unlock(&J->mu);
    return rc;
}

int jobs_cancel(jobs *J, const char *job_id, int *found, int *was_running) {
    *found = 0;
    *was_running = 0;
    pthread_mutex_lock(&J->mu);
    job *j = find_id(J, job_id);
    if (j) {
        *found = 1;
        if (j->state == JS_QUEUED) {
            finish_locked(J, j, JR_CANCELLED, "cancelled while queued");
            dlog(DLOG_INFO, "job %s cancelled while queued", j->id);
        } else if (j->state == JS_RUNNING) {
            j->cancel = 1;
            dp_cancel(J->E, j->engine_job); /* the engine drops it at its next stage boundary */
            *was_running = 1;
        }
    }
    pthread_mutex_unlock(&J->mu);
    return j ? 0 : -1;
}

/* jobs_preload, with the library's status in *status. */
static int preload(jobs *J, const char *circuit_id, int *already_loaded, uint64_t *load_ms, cuzk_status *status,
                   char *msg, size_t cap) {
    *already_loaded = 0;
    *load_ms = 0;
    *status = CUZK_OK;
    pthread_mutex_lock(&J->mu);
    srs_entry *e = srs_find(J, circuit_id);
    if (!e) {
        pthread_mutex_unlock(&J->mu);
        snprintf(msg, cap, "unknown circuit_id \"%s\" (not in the configuration)", circuit_id);
        *status = CUZK_ERR_ARG;
        return CGRPC_NOT_FOUND;
    }
    cuzk_error err;
    memset(&err, 0, sizeof err);
    double ms = 0;
    cuzk_status st = srs_acquire_locked(J, e, already_loaded, &ms, &err);
    if (st == CUZK_OK) srs_release_locked(J, e);
    pthread_mutex_unlock(&J->mu);
    *load_ms = (uint64_t)ms;
    *status = st;
    if (st) {
        const char *why = err.msg[0] ? err.msg : cuzk_status_str(st);
        char named[64 + 128];
        snprintf(named, sizeof named, "circuit %s ", circuit_id);
        if (strncmp(why, named, strlen(named)) == 0) snprintf(msg, cap, "%s", why); /* it names the circuit already */
        else snprintf(msg, cap, "circuit %s: %s", circuit_id, why);
        return st == CUZK_ERR_UNSUPPORTED ? CGRPC_UNIMPLEMENTED
               : st == CUZK_ERR_NOMEM || st == CUZK_ERR_NOMEM_DEVICE ? CGRPC_RESOURCE_EXHAUSTED
               : st == CUZK_ERR_DEVICE ? CGRPC_UNAVAILABLE
                                       : CGRPC_FAILED_PRECONDITION;
    }
    return CGRPC_OK;
}

int jobs_preload(jobs *J, const char *circuit_id, int *already_loaded, uint64_t *load_ms, char *msg, size_t cap) {
    cuzk_status st;
    return preload(J, circuit_id, already_loaded, load_ms, &st, msg, cap);
}

int jobs_preload_at_start(jobs *J, const char *circuit_id, char *msg, size_t cap) {
    int already;
    uint64_t ms;
    cuzk_status st;
    if (preload(J, circuit_id, &already, &ms, &st, msg, cap) == CGRPC_OK) return 0;
    /* a GPU that cannot hold the circuit (engine.gpu_fallback = "none"): the rest is served */
    return st == CUZK_ERR_NOMEM_DEVICE || st == CUZK_ERR_DEVICE ? 1 : -1;
}

int jobs_check_key_files(jobs *J) {
    int failed = 0;
    for (int i = 0; i < J->n_srs; i++) {
        srs_entry *e = &J->srs[i];
        if (e->c->preload) continue;
        cuzk_error err;
        memset(&err, 0, sizeof err);
        cuzk_status st = dp_key_files_check(e->c, &err); /* headers only: no lock needed, nothing loads yet */
        if (st == CUZK_OK) continue;
        failed++;
        pthread_mutex_lock(&J->mu);
        if (!e->key) {
            snprintf(e->load_error, sizeof e->load_error, "%s", err.msg[0] ? err.msg : cuzk_status_str(st));
            utf8_cut(e->load_error);
        }
        pthread_mutex_unlock(&J->mu);
        dlog(DLOG_ERROR, "circuit %s: its key files are not what it needs: %s (the daemon serves the other circuits; "
                         "this one's jobs fail until the file is fixed)", e->c->id, err.msg[0] ? err.msg : cuzk_status_str(st));
    }
    return failed;
}

int jobs_evict(jobs *J, const char *circuit_id, int *was_loaded, uint64_t *freed_bytes, char *msg, size_t cap) {
    *was_loaded = 0;
    *freed_bytes = 0;
    pthread_mutex_lock(&J->mu);
    srs_entry *e = srs_find(J, circuit_id);
    int rc = CGRPC_OK;
    if (!e) {
        snprintf(msg, cap, "unknown circuit_id \"%s\" (not in the configuration)", circuit_id);
        rc = CGRPC_NOT_FOUND;
    } else if (e->refs || e->loading) {
        snprintf(msg, cap, "circuit %s is in use by %u proof(s): not evicted", circuit_id, e->refs);
        rc = CGRPC_FAILED_PRECONDITION;
    } else if (e->key) {
        dp_key_free(J->E, e->key);
        e->key = NULL;
        *was_loaded = 1;
        *freed_bytes = e->bytes;
        e->bytes = 0;
        dlog(DLOG_INFO, "circuit %s evicted", circuit_id);
    }
    pthread_mutex_unlock(&J->mu);
    return rc;
}

/* The engine's devices (queried outside J->mu: a device call). *n: how many; malloc'd. */
static dp_device *devices_snapshot(jobs *J, int *n) {
    dp_device tmp[16];
    *n = dp_engine_devices(J->E, tmp, 16);
    if (*n > 16) *n = 16;
    dp_device *d = calloc((size_t)*n + 1, sizeof *d);
    if (!d) {
        *n = 0;
        return NULL;
    }
    memcpy(d, tmp, (size_t)*n * sizeof *d);
    return d;
}

void jobs_get_status(jobs *J, jobs_status *st) {
    memset(st, 0, sizeof *st);
    st->devices = devices_snapshot(J, &st->n_devices);
    dp_engine_mem_stats(J->E, &st->mem);
    st->engine_backend = dp_engine_backend(J->E);
    pthread_mutex_lock(&J->mu);
    for (int i = 0; i < JOBS_N_KINDS; i++) {
        st->kinds[i] = KINDS[i];
        st->pending[i] = J->pending[i];
        st->running[i] = J->running[i];
        st->completed += J->completed[i];
        st->failed += J->failed[i];
        st->cancelled += J->cancelled[i];
    }
    st->retained = J->done.n;
    st->uptime_s = (uint64_t)((jobs_now_ms() - J->t_start) / 1e3);
    st->srs = calloc(J->n_srs + 1, sizeof(jobs_srs_info));
    for (int i = 0; i < J->n_srs; i++) {
        srs_entry *e = &J->srs[i];
        jobs_srs_info *s = &st->srs[st->n_srs++];
        s->circuit_id = e->c->id;
        s->tier = e->key ? 0 : 2;
        s->size_bytes = e->bytes;
        s->ref_count = e->refs;
        s->backend = e->key ? dp_key_backend(e->key) : "";
        s->host_released_bytes = dp_key_host_released(e->key);
        snprintf(s->load_error, sizeof s->load_error, "%s", e->key ? "" : e->load_error);
        s->load_failures = e->load_failures;
    }
    st->n_workers = J->n_workers;
    st->workers = calloc(J->n_workers, sizeof(jobs_worker_info));
    for (int i = 0; i < J->n_workers; i++)
        if (J->current[i]) {
            snprintf(st->workers[i].current_job_id, 32, "%s", J->current[i]->id);
            st->workers[i].current_kind = J->current[i]->kind;
        }
    st->backend = J->cfg->backend;
    pthread_mutex_unlock(&J->mu);
}

void jobs_status_free(jobs_status *st) {
    free(st->srs);
    free(st->workers);
    free(st->devices);
    memset(st, 0, sizeof *st);
}

typedef struct sbuf { char *p; size_t n, cap; } sbuf;
static void sb_printf(sbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void sb_printf(sbuf *b, const char *fmt, ...) {
    for (;;) {
        va_list ap;
        va_start(ap, fmt);
        int n = vsnprintf(b->p ? b->p + b->n : NULL, b->p ? b->cap - b->n : 0, fmt, ap);
        va_end(ap);
        if (n < 0) return;
        if (b->p && b->n + (size_t)n < b->cap) { b->n += (size_t)n; return; }
        size_t nc = b->cap ? b->cap * 2 : 4096;
        while (nc < b->n + (size_t)n + 1) nc *= 2;
        char *np = realloc(b->p, nc);
        if (!np) return;
        b->p = np;
        b->cap = nc;
    }
}

char *jobs_metrics_text(jobs *J) {
    sbuf b = {0};
    sb_printf(&b, "%s", "");
    int n_dev = 0;
    dp_device *dev = devices_snapshot(J, &n_dev);
    dp_engine_mem mem;
    dp_engine_mem_stats(J->E, &mem);
    static const struct { const char *name, *help; } G[] = {
        {"cuzk_gpu_vram_total_bytes", "Device memory of each of the engine's GPUs (0 on the CPU backend)."},
        {"cuzk_gpu_vram_free_bytes", "Free device memory of each GPU now."},
        {"cuzk_gpu_resident_bytes", "Device bytes of the circuits resident on each GPU (SRS G1 queries, matrices)."},
        {"cuzk_gpu_pool_bytes", "Each GPU's proof memory: the circuits' arenas and the pool (high-water mark)."},
        {"cuzk_gpu_streamed_bytes", "SRS bytes each GPU's memory plans stream from host memory per proof."},
    };
    for (int m = 0; m < 5; m++) {
        sb_printf(&b, "# HELP %s %s\n# TYPE %s gauge\n", G[m].name, G[m].help, G[m].name);
        for (int d = 0; d < n_dev; d++) {
            uint64_t v = m == 0 ? dev[d].total_bytes : m == 1 ? dev[d].free_bytes : m == 2 ? dev[d].resident_bytes
                         : m == 3 ? dev[d].pool_bytes : dev[d].streamed_bytes;
            sb_printf(&b, "%s{ordinal=\"%d\"} %" PRIu64 "\n", G[m].name, dev[d].ordinal, v);
        }
    }
    free(dev);
    sb_printf(&b, "# HELP cuzk_job_budget_bytes Host memory budget of proofs in flight (engine.job_budget; 0: unlimited).\n"
                  "# TYPE cuzk_job_budget_bytes gauge\ncuzk_job_budget_bytes %" PRIu64 "\n", mem.budget_limit);
    sb_printf(&b, "# HELP cuzk_job_budget_reserved_bytes Host memory reserved by proofs in flight now.\n"
                  "# TYPE cuzk_job_budget_reserved_bytes gauge\ncuzk_job_budget_reserved_bytes %" PRIu64 "\n",
              mem.budget_reserved);
    sb_printf(&b, "# HELP cuzk_job_budget_max_reserved_bytes High-water mark of cuzk_job_budget_reserved_bytes.\n"
                  "# TYPE cuzk_job_budget_max_reserved_bytes gauge\ncuzk_job_budget_max_reserved_bytes %" PRIu64 "\n",
              mem.budget_max_reserved);
    sb_printf(&b, "# HELP cuzk_pinned_bytes Pinned host memory of witness buffers (GPU backend).\n"
                  "# TYPE cuzk_pinned_bytes gauge\ncuzk_pinned_bytes %" PRIu64 "\n", mem.pinned_bytes);
    pthread_mutex_lock(&J->mu);
    static const struct { const char *name, *help, *type; } M[] = {
        {"cuzk_proofs_completed_total", "Proofs completed, by proof kind.", "counter"},
        {"cuzk_proofs_failed_total", "Proofs that failed, by proof kind.", "counter"},
        {"cuzk_proofs_cancelled_total", "Jobs cancelled (by a client or at shutdown), by proof kind.", "counter"},
        {"cuzk_queue_depth", "Jobs queued, by proof kind.", "gauge"},
        {"cuzk_running_jobs", "Jobs proving now, by proof kind.", "gauge"},
    };
    for (int m = 0; m < 5; m++) {
        sb_printf(&b, "# HELP %s %s\n# TYPE %s %s\n", M[m].name, M[m].help, M[m].name, M[m].type);
        for (int i = 0; i < JOBS_N_KINDS; i++) {
            uint64_t v = m == 0 ? J->completed[i] : m == 1 ? J->failed[i] : m == 2 ? J->cancelled[i]
                       : m == 3 ? J->pending[i] : J->running[i];
            sb_printf(&b, "%s{proof_kind=\"%s\"} %" PRIu64 "\n", M[m].name, jobs_kind_name(KINDS[i]), v);
        }
    }
    sb_printf(&b, "# HELP cuzk_proof_duration_seconds Time from submit to proof, completed jobs.\n"
                  "# TYPE cuzk_proof_duration_seconds histogram\n");
    for (int i = 0; i < JOBS_N_KINDS; i++) {
        uint64_t cum = 0;
        const char *k = jobs_kind_name(KINDS[i]);
        for (int h = 0; h < HIST_N; h++) {
            cum += J->hist[i][h];
            sb_printf(&b, "cuzk_proof_duration_seconds_bucket{proof_kind=\"%s\",le=\"%g\"} %" PRIu64 "\n", k,
                      HIST_BOUNDS[h], cum);
        }
        cum += J->hist[i][HIST_N];
        sb_printf(&b, "cuzk_proof_duration_seconds_bucket{proof_kind=\"%s\",le=\"+Inf\"} %" PRIu64 "\n", k, cum);
        sb_printf(&b, "cuzk_proof_duration_seconds_sum{proof_kind=\"%s\"} %.6f\n", k, J->hist_sum[i]);
        sb_printf(&b, "cuzk_proof_duration_seconds_count{proof_kind=\"%s\"} %" PRIu64 "\n", k, cum);
    }
    sb_printf(&b, "# HELP cuzk_gpu_workers Proving workers.\n# TYPE cuzk_gpu_workers gauge\ncuzk_gpu_workers %d\n",
              J->n_workers);
    sb_printf(&b, "# HELP cuzk_uptime_seconds Seconds since the daemon started.\n# TYPE cuzk_uptime_seconds gauge\n"
                  "cuzk_uptime_seconds %.0f\n", (jobs_now_ms() - J->t_start) / 1e3);
    sb_printf(&b, "# HELP cuzk_jobs_retained Finished jobs whose results are kept.\n# TYPE cuzk_jobs_retained gauge\n"
                  "cuzk_jobs_retained %u\n", J->done.n);
    sb_printf(&b, "# HELP cuzk_srs_loaded 1 if the circuit's key is loaded.\n# TYPE cuzk_srs_loaded gauge\n");
    for (int i = 0; i < J->n_srs; i++)
        sb_printf(&b, "cuzk_srs_loaded{circuit_id=\"%s\"} %d\n", J->srs[i].c->id, J->srs[i].key != NULL);
    sb_printf(&b, "# HELP cuzk_srs_bytes Host bytes of the circuit's loaded key.\n# TYPE cuzk_srs_bytes gauge\n");
    for (int i = 0; i < J->n_srs; i++)
        sb_printf(&b, "cuzk_srs_bytes{circuit_id=\"%s\"} %" PRIu64 "\n", J->srs[i].c->id, J->srs[i].bytes);
    sb_printf(&b, "# HELP cuzk_srs_host_released_bytes Host bytes of the circuit's G1 queries released once they "
                  "were resident on the GPU (srs.keep_host_g1 = false).\n# TYPE cuzk_srs_host_released_bytes gauge\n");
    for (int i = 0; i < J->n_srs; i++)
        sb_printf(&b, "cuzk_srs_host_released_bytes{circuit_id=\"%s\"} %" PRIu64 "\n", J->srs[i].c->id,
                  dp_key_host_released(J->srs[i].key));
    sb_printf(&b, "# HELP cuzk_srs_gpu_fallback 1 if the circuit is proved on the CPU because it cannot be made "
                  "resident on the GPU (engine.gpu_fallback = \"cpu\").\n# TYPE cuzk_srs_gpu_fallback gauge\n");
    for (int i = 0; i < J->n_srs; i++)
        sb_printf(&b, "cuzk_srs_gpu_fallback{circuit_id=\"%s\"} %d\n", J->srs[i].c->id,
                  J->srs[i].key && strcmp(dp_key_backend(J->srs[i].key), "cpu (GPU fallback)") == 0);
    sb_printf(&b, "# HELP cuzk_srs_load_failures_total Loads of the circuit's key that failed (its files are at "
                  "fault: GetStatus and /status give the reason).\n# TYPE cuzk_srs_load_failures_total counter\n");
    for (int i = 0; i < J->n_srs; i++)
        sb_printf(&b, "cuzk_srs_load_failures_total{circuit_id=\"%s\"} %" PRIu64 "\n", J->srs[i].c->id,
                  J->srs[i].load_failures);
    sb_printf(&b, "# HELP cuzk_srs_ref_count Proofs running on the circuit's key.\n# TYPE cuzk_srs_ref_count gauge\n");
    for (int i = 0; i < J->n_srs; i++)
        sb_printf(&b, "cuzk_srs_ref_count{circuit_id=\"%s\"} %u\n", J->srs[i].c->id, J->srs[i].refs);
    pthread_mutex_unlock(&J->mu);
    return b.p;
}

char *jobs_status_json(jobs *J) {
    jobs_status st;
    jobs_get_status(J, &st);
    json_t *o = json_object();
    json_object_set_new(o, "total_proofs_completed", json_integer((json_int_t)st.completed));
    json_object_set_new(o, "total_proofs_failed", json_integer((json_int_t)st.failed));
    json_object_set_new(o, "total_proofs_cancelled", json_integer((json_int_t)st.cancelled));
    json_object_set_new(o, "jobs_retained", json_integer((json_int_t)st.retained));
    json_object_set_new(o, "uptime_seconds", json_integer((json_int_t)st.uptime_s));
    json_object_set_new(o, "backend", json_string(st.backend));
    json_object_set_new(o, "prover", json_string(dp_impl_name()));
    json_t *q = json_array();
    for (int i = 0; i < JOBS_N_KINDS; i++) {
        json_t *e = json_object();
        json_object_set_new(e, "proof_kind", json_string(jobs_kind_name(st.kinds[i])));
        json_object_set_new(e, "pending", json_integer(st.pending[i]));
        json_object_set_new(e, "in_progress", json_integer(st.running[i]));
        json_array_append_new(q, e);
    }
    json_object_set_new(o, "queues", q);
    json_t *s = json_array();
    for (int i = 0; i < st.n_srs; i++) {
        json_t *e = json_object();
        json_object_set_new(e, "circuit_id", json_string(st.srs[i].circuit_id));
        json_object_set_new(e, "tier", json_string(st.srs[i].tier == 0 ? "HOT" : "COLD"));
        json_object_set_new(e, "size_bytes", json_integer((json_int_t)st.srs[i].size_bytes));
        json_object_set_new(e, "ref_count", json_integer(st.srs[i].ref_count));
        json_object_set_new(e, "backend", json_string(st.srs[i].backend));
        json_object_set_new(e, "host_released_bytes", json_integer((json_int_t)st.srs[i].host_released_bytes));
        json_object_set_new(e, "load_error", json_string(st.srs[i].load_error));
        json_object_set_new(e, "load_failures", json_integer((json_int_t)st.srs[i].load_failures));
        json_array_append_new(s, e);
    }
    json_object_set_new(o, "loaded_srs", s);
    json_t *w = json_array();
    for (int i = 0; i < st.n_workers; i++) {
        json_t *e = json_object();
        json_object_set_new(e, "ordinal", json_integer(i));
        json_object_set_new(e, "current_job_id", json_string(st.workers[i].current_job_id));
        const char *k = jobs_kind_name(st.workers[i].current_kind);
        json_object_set_new(e, "current_proof_kind", json_string(k ? k : ""));
        json_array_append_new(w, e);
    }
    json_object_set_new(o, "workers", w);
    json_t *g = json_array();
    for (int i = 0; i < st.n_devices; i++) {
        json_t *e = json_object();
        json_object_set_new(e, "ordinal", json_integer(st.devices[i].ordinal));
        json_object_set_new(e, "name", json_string(st.devices[i].name));
        json_object_set_new(e, "vram_total_bytes", json_integer((json_int_t)st.devices[i].total_bytes));
        json_object_set_new(e, "vram_free_bytes", json_integer((json_int_t)st.devices[i].free_bytes));
        json_object_set_new(e, "resident_bytes", json_integer((json_int_t)st.devices[i].resident_bytes));
        json_object_set_new(e, "pool_bytes", json_integer((json_int_t)st.devices[i].pool_bytes));
        json_object_set_new(e, "streamed_bytes", json_integer((json_int_t)st.devices[i].streamed_bytes));
        json_object_set_new(e, "memory_plan", json_string(st.devices[i].memory_plan));
        json_object_set_new(e, "dead", json_boolean(st.devices[i].dead));
        json_array_append_new(g, e);
    }
    json_object_set_new(o, "gpus", g);
    json_object_set_new(o, "engine_backend", json_string(st.engine_backend));
    json_object_set_new(o, "job_budget_bytes", json_integer((json_int_t)st.mem.budget_limit));
    json_object_set_new(o, "job_budget_reserved_bytes", json_integer((json_int_t)st.mem.budget_reserved));
    json_object_set_new(o, "pinned_memory_bytes", json_integer((json_int_t)st.mem.pinned_bytes));
    json_object_set_new(o, "pinned_memory_limit_bytes", json_integer((json_int_t)st.mem.pinned_limit));
    char *txt = json_dumps(o, JSON_INDENT(2));
    json_decref(o);
    jobs_status_free(&st);
    return txt;
}
