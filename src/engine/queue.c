/* The bounded FIFO between two engine stages (src/engine/pipeline.h): producers blocked on a
 * full queue enter by ticket, first come first in. */
#include "engine/pipeline.h"

#include "util/timer.h"

void pq_init(pqueue *q, int cap) {
    pthread_mutex_init(&q->mu, NULL);
    pthread_cond_init(&q->not_empty, NULL);
    pthread_cond_init(&q->not_full, NULL);
    q->head = q->tail = NULL;
    q->n = 0;
    q->cap = cap;
    q->closed = 0;
    q->next_ticket = q->serving = 0;
}
void pq_destroy(pqueue *q) {
    pthread_mutex_destroy(&q->mu);
    pthread_cond_destroy(&q->not_empty);
    pthread_cond_destroy(&q->not_full);
}
int pq_push(pqueue *q, part *p, double *t_enq) {
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
part *pq_pop(pqueue *q) {
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
void pq_close(pqueue *q) {
    pthread_mutex_lock(&q->mu);
    q->closed = 1;
    pthread_cond_broadcast(&q->not_empty);
    pthread_cond_broadcast(&q->not_full);
    pthread_mutex_unlock(&q->mu);
}
