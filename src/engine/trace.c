/* The engine's trace: spans recorded by every stage, written as a Chrome trace
 * (include/cuzk/engine.h: cuzk_engine_trace_write). */
#include "engine/pipeline.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/log.h"
#include "util/outfile.h"

void trace_add(cuzk_engine *e, const char *name, int tid, double t0, double t1, uint64_t jid, uint32_t part,
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

static const char *tid_name(const cuzk_engine *e, int tid, char *buf, size_t cap) {
    /* one device: the names of the single-device engine; several: the device ordinal is named */
    int multi = e->n_dev > 1;
    if (tid >= TID_B2) {
        if (multi) snprintf(buf, cap, "B_G2 MSM (CPU threads, device %d)", e->dev_id[tid - TID_B2]);
        else snprintf(buf, cap, "B_G2 MSM (CPU threads)");
    } else if (tid >= TID_GPU) {
        if (multi) snprintf(buf, cap, "GPU %d stream", e->dev_id[tid - TID_GPU]);
        else snprintf(buf, cap, "GPU stream");
    } else if (tid >= TID_REAPER) snprintf(buf, cap, "reaper (deferred free)");
    else if (tid >= TID_FINISH) snprintf(buf, cap, "finish worker %d", tid - TID_FINISH);
    else if (tid >= TID_PROVE) {
        int w = tid - TID_PROVE, d = w / e->wpd;
        if (e->wpd > 1) snprintf(buf, cap, "prove-start worker %d (device %d)", w % e->wpd, e->dev_id[d]);
        else if (multi) snprintf(buf, cap, "prove-start worker (device %d)", e->dev_id[d]);
        else snprintf(buf, cap, "prove-start worker");
    } else snprintf(buf, cap, "synthesis worker %d", tid - TID_SYNTH);
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
        cuzk_status st = ERR(err, CUZK_ERR_IO, "cannot write %s: %s", path, strerror(errno));
        outfile_discard(tmp);
        return st;
    }
    pthread_mutex_lock(&e->tmu);
    fprintf(f, "{\"displayTimeUnit\": \"ms\", \"traceEvents\": [\n");
    fprintf(f, "{\"name\": \"process_name\", \"ph\": \"M\", \"pid\": 1, \"tid\": 0, \"args\": {\"name\": \"cuzk engine (%s backend)\"}}",
            e->backend_name);
    char nb[64];
    for (int i = 0; i < e->o.synthesis_workers; i++)
        fprintf(f, ",\n{\"name\": \"thread_name\", \"ph\": \"M\", \"pid\": 1, \"tid\": %d, \"args\": {\"name\": \"%s\"}}",
                TID_SYNTH + i, tid_name(e, TID_SYNTH + i, nb, sizeof nb));
    /* per device: its prove-start worker, and with a device its stream and B_G2 threads */
    int tids[(2 + ENGINE_MAX_WORKERS_PER_DEVICE) * CUZK_ENGINE_MAX_DEVICES + 1], nt = 0;
    for (int w = 0; w < e->n_dev * e->wpd; w++) tids[nt++] = TID_PROVE + w;
    tids[nt++] = TID_REAPER;
    for (int d = 0; d < e->n_dev && (e->caps & GROTH16_CAP_DEVICE); d++) tids[nt++] = TID_GPU + d;
    for (int d = 0; d < e->n_dev && (e->caps & GROTH16_CAP_B2_OVERLAP); d++) tids[nt++] = TID_B2 + d;
    for (int i = 0; i < nt; i++)
        fprintf(f, ",\n{\"name\": \"thread_name\", \"ph\": \"M\", \"pid\": 1, \"tid\": %d, \"args\": {\"name\": \"%s\"}}",
                tids[i], tid_name(e, tids[i], nb, sizeof nb));
    for (int i = 0; i < e->o.finish_workers; i++)
        fprintf(f, ",\n{\"name\": \"thread_name\", \"ph\": \"M\", \"pid\": 1, \"tid\": %d, \"args\": {\"name\": \"%s\"}}",
                TID_FINISH + i, tid_name(e, TID_FINISH + i, nb, sizeof nb));
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
