/* cuzk.v1.ProvingEngine handlers. Every request is decoded and checked by request.c (UTF-8 at
 * the wire level, protobuf-c's unpack, then a SubmitProofRequest against the configuration); a
 * request that cannot be decoded is INVALID_ARGUMENT. Witness bytes and proofs are never logged. */
#include "service.h"

#include "dlog.h"
#include "request.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PFX "/cuzk.v1.ProvingEngine/"

static const char *const BLOCKING[] = {"Prove", "AwaitProof", "PreloadSRS", NULL};
static const char *const INLINE[] = {"SubmitProof", "CancelProof", "GetStatus", "GetMetrics", "EvictSRS", NULL};

cgrpc_mode service_classify(void *svc, const char *method) {
    (void)svc;
    if (strncmp(method, PFX, sizeof PFX - 1) != 0) return CGRPC_UNKNOWN;
    const char *m = method + sizeof PFX - 1;
    for (int i = 0; BLOCKING[i]; i++)
        if (strcmp(m, BLOCKING[i]) == 0) return CGRPC_BLOCKING;
    for (int i = 0; INLINE[i]; i++)
        if (strcmp(m, INLINE[i]) == 0) return CGRPC_INLINE;
    return CGRPC_UNKNOWN;
}

static void reply(cgrpc_reply *out, const ProtobufCMessage *m) {
    size_t n = protobuf_c_message_get_packed_size(m);
    out->body = n ? malloc(n) : NULL;
    if (n && !out->body) {
        request_fail(out, CGRPC_RESOURCE_EXHAUSTED, "out of memory for the reply");
        return;
    }
    out->body_len = n ? protobuf_c_message_pack(m, out->body) : 0;
}

/* Submits; fills job_id/pos. Returns 0 or -1 with out set. *created: a new job was made.
 * call (may be NULL) and decode_ms: what the request's trip, its copy into one buffer and its
 * decoding took (for the debug line that says where a request's time went before its job).
 * in_place: r's witness when it lies in the call's request bytes (request_decode_split; else
 * NULL): the job then keeps the request instead of a block of its own. */
static int submit(service *s, Cuzk__V1__SubmitProofRequest *r, char job_id[32], uint32_t *pos, int *created,
                  cgrpc_call *call, const uint8_t *in_place, double decode_ms, cgrpc_reply *out) {
    const double flatten_ms = cgrpc_call_flatten_ms(call);
    job_submit js;
    char failmsg[400];
    *created = 0;
    const double t0 = jobs_now_ms();
    if (request_submit_check(s->cfg, r, &js, failmsg, sizeof failmsg, out)) return -1;
    if (in_place && js.witness == in_place) { /* the job keeps the received request, not a copy */
        js.witness_owner = cgrpc_call_keep_request(call);
        js.witness_release = cgrpc_request_release;
        if (!js.witness_owner) {
            js.witness = NULL;
            free(js.vanilla_lens);
            request_fail(out, CGRPC_RESOURCE_EXHAUSTED, "out of memory keeping the request's witness");
            return -1;
        }
    }
    const double t1 = jobs_now_ms();
    const char *kname = jobs_kind_name(js.kind);
    int dedup = 0;
    int rc = jobs_submit(s->J, &js, job_id, pos, &dedup, out->msg, sizeof out->msg);
    if (js.witness_owner) js.witness_release(js.witness_owner); /* NULL when the job took it */
    else free(js.witness);
    free(js.vanilla_lens);
    if (rc != CGRPC_OK) {
        out->code = rc;
        return -1;
    }
    *created = !dedup;
    dlog(DLOG_DEBUG, "submit %s kind %s priority %d request_id \"%.100s\"%s -> %s (position %u; request received in "
         "%.1f ms, then %.1f ms here: flatten %.1f, decode %.1f%s, checks and input hash %.1f, submit %.1f)",
         js.circuit_id ? js.circuit_id : "-", kname, js.priority, r->request_id, dedup ? " (same job)" : "", job_id,
         *pos, cgrpc_call_receive_ms(call), flatten_ms + decode_ms + (jobs_now_ms() - t0), flatten_ms, decode_ms,
         in_place ? " (the witness left in place)" : "", t1 - t0, jobs_now_ms() - t1);
    return 0;
}

static void fill_await(Cuzk__V1__AwaitProofResponse *a, const char *job_id, job_outcome *o) {
    a->job_id = (char *)job_id;
    a->status = (Cuzk__V1__AwaitProofResponse__Status)o->status;
    if (o->proof) {
        a->proof.data = o->proof;
        a->proof.len = o->proof_len;
    }
    if (o->error) a->error_message = o->error;
    a->queue_wait_ms = o->queue_wait_ms;
    a->srs_load_ms = o->srs_load_ms;
    a->synthesis_ms = o->synthesis_ms;
    a->gpu_compute_ms = o->gpu_compute_ms;
    a->total_ms = o->total_ms;
    if (o->proof_json) a->proof_json = o->proof_json;
    if (o->public_json) a->public_json = o->public_json;
    a->completion_seq = o->completion_seq;
    a->prover_us = o->prover_us;
}

static int call_cancelled(const void *c) { return cgrpc_call_cancelled((const cgrpc_call *)c); }

/* The witness that request_decode_split left in the request bytes, set into r; NULL when there is
 * none (then r's witness is protobuf-c's own block, or empty). */
static const uint8_t *witness_in_place(Cuzk__V1__SubmitProofRequest *r, const uint8_t *req, size_t w_off, size_t w_len) {
    if (!w_len) return NULL;
    r->witness.data = (uint8_t *)req + w_off;
    r->witness.len = w_len;
    return r->witness.data;
}
/* Before free_unpacked: a witness still pointing into the request bytes is not protobuf-c's. */
static void witness_unset(Cuzk__V1__SubmitProofRequest *r, const uint8_t *in_place) {
    if (in_place && r->witness.data == in_place) {
        r->witness.data = NULL;
        r->witness.len = 0;
    }
}

static void h_submit(service *s, cgrpc_call *call, const uint8_t *req, size_t len, cgrpc_reply *out) {
    const double t0 = jobs_now_ms();
    size_t w_off, w_len;
    Cuzk__V1__SubmitProofRequest *r = (Cuzk__V1__SubmitProofRequest *)request_decode_split(
        &cuzk__v1__submit_proof_request__descriptor, req, len, REQUEST_SPLIT_MIN, out, &w_off, &w_len);
    if (!r) return;
    const uint8_t *in_place = witness_in_place(r, req, w_off, w_len);
    char id[32];
    uint32_t pos = 0;
    int created;
    if (submit(s, r, id, &pos, &created, call, in_place, jobs_now_ms() - t0, out) == 0) {
        Cuzk__V1__SubmitProofResponse resp = CUZK__V1__SUBMIT_PROOF_RESPONSE__INIT;
        resp.job_id = id;
        resp.queue_position = pos;
        reply(out, &resp.base);
    }
    witness_unset(r, in_place);
    cuzk__v1__submit_proof_request__free_unpacked(r, NULL);
}

static void h_await(service *s, cgrpc_call *call, const uint8_t *req, size_t len, cgrpc_reply *out) {
    Cuzk__V1__AwaitProofRequest *r =
        (Cuzk__V1__AwaitProofRequest *)request_decode(&cuzk__v1__await_proof_request__descriptor, req, len, out);
    if (!r) return;
    job_outcome o;
    int rc = jobs_await(s->J, r->job_id, r->timeout_ms, call_cancelled, call, &o, out->msg, sizeof out->msg);
    if (rc != CGRPC_OK) {
        out->code = rc;
    } else {
        Cuzk__V1__AwaitProofResponse a = CUZK__V1__AWAIT_PROOF_RESPONSE__INIT;
        fill_await(&a, r->job_id, &o);
        reply(out, &a.base);
    }
    job_outcome_free(&o);
    cuzk__v1__await_proof_request__free_unpacked(r, NULL);
}

static void h_prove(service *s, cgrpc_call *call, const uint8_t *req, size_t len, cgrpc_reply *out) {
    const double t0 = jobs_now_ms();
    size_t w_off, w_len;
    Cuzk__V1__ProveRequest *r = (Cuzk__V1__ProveRequest *)request_decode_split(
        &cuzk__v1__prove_request__descriptor, req, len, REQUEST_SPLIT_MIN, out, &w_off, &w_len);
    if (!r) return;
    if (!r->submit) { /* (a split decode always has a submit: the witness was found in it) */
        request_fail(out, CGRPC_INVALID_ARGUMENT, "ProveRequest: submit (field 1) is missing");
        cuzk__v1__prove_request__free_unpacked(r, NULL);
        return;
    }
    const uint8_t *in_place = witness_in_place(r->submit, req, w_off, w_len);
    char id[32];
    uint32_t pos;
    int created;
    if (submit(s, r->submit, id, &pos, &created, call, in_place, jobs_now_ms() - t0, out) == 0) {
        job_outcome o;
        int rc = jobs_await(s->J, id, 0, call_cancelled, call, &o, out->msg, sizeof out->msg);
        if (rc == CGRPC_CANCELLED && created) {
            int found, was_running;
            jobs_cancel(s->J, id, &found, &was_running);
            dlog(DLOG_INFO, "job %s: the Prove call was cancelled by the client: job cancelled", id);
        }
        if (rc != CGRPC_OK) {
            out->code = rc;
        } else {
            Cuzk__V1__AwaitProofResponse a = CUZK__V1__AWAIT_PROOF_RESPONSE__INIT;
            fill_await(&a, id, &o);
            Cuzk__V1__ProveResponse resp = CUZK__V1__PROVE_RESPONSE__INIT;
            resp.result = &a;
            reply(out, &resp.base);
        }
        job_outcome_free(&o);
    }
    witness_unset(r->submit, in_place);
    cuzk__v1__prove_request__free_unpacked(r, NULL);
}

static void h_cancel(service *s, const uint8_t *req, size_t len, cgrpc_reply *out) {
    Cuzk__V1__CancelProofRequest *r =
        (Cuzk__V1__CancelProofRequest *)request_decode(&cuzk__v1__cancel_proof_request__descriptor, req, len, out);
    if (!r) return;
    int found, was_running;
    jobs_cancel(s->J, r->job_id, &found, &was_running);
    Cuzk__V1__CancelProofResponse resp = CUZK__V1__CANCEL_PROOF_RESPONSE__INIT;
    resp.was_running = was_running;
    resp.found = found;
    reply(out, &resp.base);
    cuzk__v1__cancel_proof_request__free_unpacked(r, NULL);
}

static void h_status(service *s, const uint8_t *req, size_t len, cgrpc_reply *out) {
    ProtobufCMessage *r = request_decode(&cuzk__v1__get_status_request__descriptor, req, len, out);
    if (!r) return;
    protobuf_c_message_free_unpacked(r, NULL);
    jobs_status st;
    jobs_get_status(s->J, &st);
    Cuzk__V1__GetStatusResponse resp = CUZK__V1__GET_STATUS_RESPONSE__INIT;
    resp.total_proofs_completed = st.completed;
    resp.total_proofs_failed = st.failed;
    resp.total_proofs_cancelled = st.cancelled;
    resp.jobs_retained = st.retained;
    resp.uptime_seconds = st.uptime_s;
    Cuzk__V1__QueueStatus qs[JOBS_N_KINDS], *qp[JOBS_N_KINDS];
    for (int i = 0; i < JOBS_N_KINDS; i++) {
        cuzk__v1__queue_status__init(&qs[i]);
        qs[i].proof_kind = (char *)jobs_kind_name(st.kinds[i]);
        qs[i].pending = st.pending[i];
        qs[i].in_progress = st.running[i];
        qp[i] = &qs[i];
    }
    resp.n_queues = JOBS_N_KINDS;
    resp.queues = qp;
    Cuzk__V1__SRSStatus *ss = calloc(st.n_srs + 1, sizeof *ss);
    Cuzk__V1__SRSStatus **sp = calloc(st.n_srs + 1, sizeof *sp);
    for (int i = 0; i < st.n_srs; i++) {
        cuzk__v1__srsstatus__init(&ss[i]);
        ss[i].circuit_id = (char *)st.srs[i].circuit_id;
        ss[i].tier = (Cuzk__V1__SRSStatus__Tier)st.srs[i].tier;
        ss[i].size_bytes = st.srs[i].size_bytes;
        ss[i].ref_count = st.srs[i].ref_count;
        ss[i].backend = (char *)st.srs[i].backend;
        ss[i].host_released_bytes = st.srs[i].host_released_bytes;
        ss[i].load_error = st.srs[i].load_error;
        ss[i].load_failures = st.srs[i].load_failures;
        sp[i] = &ss[i];
    }
    resp.n_loaded_srs = (size_t)st.n_srs;
    resp.loaded_srs = sp;
    /* one entry per engine device (the CPU backend: one "cpu" entry with no VRAM figures); with
     * one device every running job is on it */
    Cuzk__V1__GPUStatus *gs = calloc(st.n_devices + 1, sizeof *gs);
    Cuzk__V1__GPUStatus **gp = calloc(st.n_devices + 1, sizeof *gp);
    char running[256] = "";
    const char *running_kind = "";
    for (int i = 0; i < st.n_workers; i++)
        if (st.workers[i].current_job_id[0]) {
            size_t l = strlen(running);
            snprintf(running + l, sizeof running - l, "%s%s", l ? "," : "", st.workers[i].current_job_id);
            const char *k = jobs_kind_name(st.workers[i].current_kind);
            if (k) running_kind = k;
        }
    for (int i = 0; gs && gp && i < st.n_devices; i++) {
        cuzk__v1__gpustatus__init(&gs[i]);
        gs[i].ordinal = (uint32_t)st.devices[i].ordinal;
        gs[i].name = st.devices[i].name;
        gs[i].vram_total_bytes = st.devices[i].total_bytes;
        gs[i].vram_free_bytes = st.devices[i].free_bytes;
        gs[i].current_job_id = st.n_devices == 1 ? running : (char *)"";
        gs[i].current_proof_kind = (char *)(st.n_devices == 1 ? running_kind : "");
        gp[i] = &gs[i];
    }
    resp.n_gpus = gs && gp ? (size_t)st.n_devices : 0;
    resp.gpus = gp;
    resp.pinned_memory_bytes = st.mem.pinned_bytes;
    resp.pinned_memory_limit_bytes = st.mem.pinned_limit;
    reply(out, &resp.base);
    free(ss);
    free(sp);
    free(gs);
    free(gp);
    jobs_status_free(&st);
}

char *service_metrics_text(service *s) {
    char *t = jobs_metrics_text(s->J);
    if (!s->server || !t) return t;
    cgrpc_stats cs;
    cgrpc_get_stats(s->server, &cs);
    char extra[1024];
    int n = snprintf(extra, sizeof extra,
                     "# HELP cuzk_grpc_calls_total gRPC calls received.\n# TYPE cuzk_grpc_calls_total counter\n"
                     "cuzk_grpc_calls_total %" PRIu64 "\n"
                     "# HELP cuzk_grpc_unimplemented_total Calls of unknown methods.\n"
                     "# TYPE cuzk_grpc_unimplemented_total counter\ncuzk_grpc_unimplemented_total %" PRIu64 "\n"
                     "# HELP cuzk_grpc_waiting_calls Prove/AwaitProof calls waiting now.\n"
                     "# TYPE cuzk_grpc_waiting_calls gauge\ncuzk_grpc_waiting_calls %d\n",
                     cs.calls, cs.unimplemented, cs.blocking_now);
    size_t tl = strlen(t);
    char *r = realloc(t, tl + (size_t)n + 1);
    if (!r) return t;
    memcpy(r + tl, extra, (size_t)n + 1);
    return r;
}

static void h_metrics(service *s, const uint8_t *req, size_t len, cgrpc_reply *out) {
    ProtobufCMessage *r = request_decode(&cuzk__v1__get_metrics_request__descriptor, req, len, out);
    if (!r) return;
    protobuf_c_message_free_unpacked(r, NULL);
    Cuzk__V1__GetMetricsResponse resp = CUZK__V1__GET_METRICS_RESPONSE__INIT;
    char *t = service_metrics_text(s);
    resp.prometheus_text = t ? t : (char *)"";
    reply(out, &resp.base);
    free(t);
}

static void h_preload(service *s, const uint8_t *req, size_t len, cgrpc_reply *out) {
    Cuzk__V1__PreloadSrsRequest *r =
        (Cuzk__V1__PreloadSrsRequest *)request_decode(&cuzk__v1__preload_srs_request__descriptor, req, len, out);
    if (!r) return;
    int already;
    uint64_t ms;
    int rc = jobs_preload(s->J, r->circuit_id, &already, &ms, out->msg, sizeof out->msg);
    if (rc != CGRPC_OK) {
        out->code = rc;
    } else {
        Cuzk__V1__PreloadSrsResponse resp = CUZK__V1__PRELOAD_SRS_RESPONSE__INIT;
        resp.already_loaded = already;
        resp.load_time_ms = ms;
        reply(out, &resp.base);
    }
    cuzk__v1__preload_srs_request__free_unpacked(r, NULL);
}

static void h_evict(service *s, const uint8_t *req, size_t len, cgrpc_reply *out) {
    Cuzk__V1__EvictSrsRequest *r =
        (Cuzk__V1__EvictSrsRequest *)request_decode(&cuzk__v1__evict_srs_request__descriptor, req, len, out);
    if (!r) return;
    int was;
    uint64_t freed;
    int rc = jobs_evict(s->J, r->circuit_id, &was, &freed, out->msg, sizeof out->msg);
    if (rc != CGRPC_OK) {
        out->code = rc;
    } else {
        Cuzk__V1__EvictSrsResponse resp = CUZK__V1__EVICT_SRS_RESPONSE__INIT;
        resp.was_loaded = was;
        resp.freed_bytes = freed;
        reply(out, &resp.base);
    }
    cuzk__v1__evict_srs_request__free_unpacked(r, NULL);
}

void service_handle(void *svc, cgrpc_call *call, const char *method, const uint8_t *req, size_t len,
                    cgrpc_reply *out) {
    service *s = svc;
    const char *m = method + sizeof PFX - 1;
    if (strcmp(m, "SubmitProof") == 0) h_submit(s, call, req, len, out);
    else if (strcmp(m, "AwaitProof") == 0) h_await(s, call, req, len, out);
    else if (strcmp(m, "Prove") == 0) h_prove(s, call, req, len, out);
    else if (strcmp(m, "CancelProof") == 0) h_cancel(s, req, len, out);
    else if (strcmp(m, "GetStatus") == 0) h_status(s, req, len, out);
    else if (strcmp(m, "GetMetrics") == 0) h_metrics(s, req, len, out);
    else if (strcmp(m, "PreloadSRS") == 0) h_preload(s, req, len, out);
    else if (strcmp(m, "EvictSRS") == 0) h_evict(s, req, len, out);
    else request_fail(out, CGRPC_UNIMPLEMENTED, "unknown method %s", method);
    if (out->code != CGRPC_OK) dlog(DLOG_DEBUG, "%s from %s: status %d: %s", m, cgrpc_call_peer(call), out->code, out->msg);
}
