/* The memory budget's ordered dispatcher (engine_internal.h). Waiters live on their own threads'
 * stacks only while they wait inside budget_reserve and unlink themselves before returning. */
#include "engine/engine_internal.h"

#include "util/timer.h"

struct budget_waiter {
    uint64_t hi, lo;
    budget_waiter *next;
};

void budget_init(budget *b, size_t limit) {
    pthread_mutex_init(&b->mu, NULL);
    pthread_cond_init(&b->cv, NULL);
    b->limit = limit;
    b->reserved = b->max_reserved = 0;
    b->wait_ms = 0;
    b->waiters = NULL;
}

void budget_destroy(budget *b) {
    pthread_mutex_destroy(&b->mu);
    pthread_cond_destroy(&b->cv);
}

static int fits(const budget *b, size_t bytes) { return b->limit == 0 || b->reserved + bytes <= b->limit; }

int budget_reserve(budget *b, uint64_t key_hi, uint64_t key_lo, size_t bytes, int (*dead)(void *), void *dead_ctx,
                   double *waited_ms) {
    double t0 = now_ms();
    int granted = 0;
    pthread_mutex_lock(&b->mu);
    budget_waiter me = {key_hi, key_lo, NULL}, **pp = &b->waiters;
    while (*pp && ((*pp)->hi < key_hi || ((*pp)->hi == key_hi && (*pp)->lo <= key_lo))) pp = &(*pp)->next;
    me.next = *pp;
    *pp = &me;
    for (;;) {
        if (dead && dead(dead_ctx)) break;
        if (b->waiters == &me && fits(b, bytes)) { granted = 1; break; }
        pthread_cond_wait(&b->cv, &b->mu);
    }
    for (pp = &b->waiters; *pp != &me; pp = &(*pp)->next) {}
    *pp = me.next;
    if (granted) {
        b->reserved += bytes;
        if (b->reserved > b->max_reserved) b->max_reserved = b->reserved;
    }
    double w = now_ms() - t0;
    b->wait_ms += w;
    pthread_cond_broadcast(&b->cv); /* the next waiter may be the head now */
    pthread_mutex_unlock(&b->mu);
    if (waited_ms) *waited_ms = w;
    return granted;
}

void budget_release(budget *b, size_t bytes) {
    if (!bytes) return;
    pthread_mutex_lock(&b->mu);
    b->reserved = bytes > b->reserved ? 0 : b->reserved - bytes;
    pthread_cond_broadcast(&b->cv);
    pthread_mutex_unlock(&b->mu);
}

void budget_force(budget *b, size_t bytes) {
    if (!bytes) return;
    pthread_mutex_lock(&b->mu);
    b->reserved += bytes;
    if (b->reserved > b->max_reserved) b->max_reserved = b->reserved;
    pthread_mutex_unlock(&b->mu);
}

void budget_wake(budget *b) {
    pthread_mutex_lock(&b->mu);
    pthread_cond_broadcast(&b->cv);
    pthread_mutex_unlock(&b->mu);
}
