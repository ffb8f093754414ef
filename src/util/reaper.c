/* The reaper thread (reaper.h). */
#include "util/reaper.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "util/log.h"
#include "util/timer.h"

enum { POLL_MS = 2, IDLE_MS = 200 };
#define WAKE_BYTES ((size_t)1 << 30) /* this much queued: wake the thread at once */

typedef struct node {
    reaper_item it;
    struct node *next;
} node;

struct reaper {
    pthread_mutex_t mu;
    pthread_cond_t cv_work;  /* items queued or stop */
    pthread_cond_t cv_done;  /* an item finished */
    node *head, *tail;
    uint64_t pushed, done;   /* sequence numbers: items pushed / fully released */
    size_t pending_bytes;
    int stop;
    int deep_sleep;          /* the thread waits without a timeout: a push must signal it */
    int drainers;            /* threads blocked in reaper_drain: signal at once */
    reaper_stats st;
    reaper_observer_fn obs;
    void *obs_ctx;
    pthread_t th;
};

static void release_item(reaper *r, const reaper_item *it, double *t0, double *t1) {
    *t0 = now_ms();
    if (it->wait_fn) {
        cuzk_status s = it->wait_fn(it->wait_ctx);
        if (s != CUZK_OK) cuzk_log(CUZK_LOG_WARN, "reaper: wait before free failed (%s)", cuzk_status_str(s));
    }
    if (it->ptr) {
        if (it->free_fn) it->free_fn(it->free_ctx, it->ptr);
        else free(it->ptr);
    }
    *t1 = now_ms();
    if (r->obs) r->obs(r->obs_ctx, it, *t0, *t1);
}

static void *reaper_main(void *arg) {
    reaper *r = arg;
    pthread_mutex_lock(&r->mu);
    double idle_since = now_ms();
    for (;;) {
        /* Lazy wake-up: while work arrives now and then, the thread polls every POLL_MS instead of
         * being signalled by each push. A signal would make the pusher (a pipeline stage) yield its
         * CPU to the reaper on a busy machine, which showed up as milliseconds of "cleanup gap" in
         * the stage that pushed. After IDLE_MS without work it sleeps until signalled. */
        while (!r->head && !r->stop) {
            if (now_ms() - idle_since > IDLE_MS) {
                r->deep_sleep = 1;
                pthread_cond_wait(&r->cv_work, &r->mu);
                r->deep_sleep = 0;
            } else {
                struct timespec ts;
                clock_gettime(CLOCK_REALTIME, &ts);
                ts.tv_nsec += POLL_MS * 1000000L;
                if (ts.tv_nsec >= 1000000000L) { ts.tv_sec++; ts.tv_nsec -= 1000000000L; }
                pthread_cond_timedwait(&r->cv_work, &r->mu, &ts);
            }
        }
        if (!r->head) break; /* stop and empty */
        node *n = r->head;
        r->head = n->next;
        if (!r->head) r->tail = NULL;
        pthread_mutex_unlock(&r->mu);
        double t0, t1;
        release_item(r, &n->it, &t0, &t1);
        pthread_mutex_lock(&r->mu);
        r->pending_bytes -= n->it.bytes;
        r->done++;
        r->st.items_freed++;
        r->st.bytes_freed += n->it.bytes;
        r->st.busy_ms += t1 - t0;
        pthread_cond_broadcast(&r->cv_done);
        free(n);
        idle_since = now_ms();
    }
    pthread_mutex_unlock(&r->mu);
    return NULL;
}

cuzk_status reaper_create(reaper **out, reaper_observer_fn obs, void *obs_ctx, cuzk_error *err) {
    if (!out) return ERR(err, CUZK_ERR_ARG, "reaper_create: NULL argument");
    *out = NULL;
    reaper *r = calloc(1, sizeof *r);
    if (!r) return ERR(err, CUZK_ERR_NOMEM, "reaper_create");
    pthread_mutex_init(&r->mu, NULL);
    pthread_cond_init(&r->cv_work, NULL);
    pthread_cond_init(&r->cv_done, NULL);
    r->obs = obs;
    r->obs_ctx = obs_ctx;
    if (pthread_create(&r->th, NULL, reaper_main, r) != 0) {
        pthread_mutex_destroy(&r->mu);
        pthread_cond_destroy(&r->cv_work);
        pthread_cond_destroy(&r->cv_done);
        free(r);
        return ERR(err, CUZK_ERR_NOMEM, "reaper_create: cannot start the thread");
    }
    *out = r;
    return CUZK_OK;
}

void reaper_push(reaper *r, const reaper_item *it) {
    node *n = malloc(sizeof *n);
    if (!n) {
        cuzk_log(CUZK_LOG_WARN, "reaper: no memory for a queue node; freeing %zu bytes synchronously", it->bytes);
        double t0, t1;
        release_item(r, it, &t0, &t1);
        return;
    }
    n->it = *it;
    n->next = NULL;
    pthread_mutex_lock(&r->mu);
    if (r->tail) r->tail->next = n;
    else r->head = n;
    r->tail = n;
    r->pushed++;
    r->pending_bytes += it->bytes;
    if (r->pending_bytes > r->st.max_pending_bytes) r->st.max_pending_bytes = r->pending_bytes;
    if (r->deep_sleep || r->drainers || r->pending_bytes >= WAKE_BYTES) pthread_cond_signal(&r->cv_work);
    pthread_mutex_unlock(&r->mu);
}

void reaper_push_free(reaper *r, void *ptr, size_t bytes) {
    reaper_item it = {0};
    it.ptr = ptr;
    it.bytes = bytes;
    reaper_push(r, &it);
}

void reaper_drain(reaper *r) {
    if (!r) return;
    pthread_mutex_lock(&r->mu);
    uint64_t target = r->pushed;
    r->drainers++;
    pthread_cond_signal(&r->cv_work);
    while (r->done < target) pthread_cond_wait(&r->cv_done, &r->mu);
    r->drainers--;
    pthread_mutex_unlock(&r->mu);
}

size_t reaper_pending_bytes(reaper *r) {
    pthread_mutex_lock(&r->mu);
    size_t b = r->pending_bytes;
    pthread_mutex_unlock(&r->mu);
    return b;
}

void reaper_get_stats(reaper *r, reaper_stats *out) {
    pthread_mutex_lock(&r->mu);
    *out = r->st;
    pthread_mutex_unlock(&r->mu);
}

void reaper_destroy(reaper *r) {
    if (!r) return;
    pthread_mutex_lock(&r->mu);
    r->stop = 1;
    pthread_cond_signal(&r->cv_work);
    pthread_mutex_unlock(&r->mu);
    pthread_join(r->th, NULL); /* the thread empties the queue before it exits */
    pthread_mutex_destroy(&r->mu);
    pthread_cond_destroy(&r->cv_work);
    pthread_cond_destroy(&r->cv_done);
    free(r);
}
