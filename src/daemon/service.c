/* cuzk.v1.ProvingEngine handlers. Every request is checked at the wire level for UTF-8
 * (pbvalid.c) and then unpacked by protobuf-c; a request that cannot be decoded is
 * INVALID_ARGUMENT. Witness bytes and proofs are never logged. */
#include "service.h"

#include "dlog.h"
#include "pbvalid.h"
#include "proving.pb-c.h"

#include <inttypes.h>
#include <stdarg.h>
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

static void fail(cgrpc_reply *out, int code, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void fail(cgrpc_reply *out, int code, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(out->msg, sizeof out->msg, fmt, ap);
    va_end(ap);
    out->code = code;
}

static void reply(cgrpc_reply *out, const ProtobufCMessage *m) {
    size_t n = protobuf_c_message_get_packed_size(m);
    out->body = n ? malloc(n) : NULL;
    if (n && !out->body) {
        fail(out, CGRPC_RESOURCE_EXHAUSTED, "out of memory for the reply");
        return;
    }
    out->body_len = n ? protobuf_c_message_pack(m, out->body) : 0;
}

/* Decodes a request of type d, after the UTF-8 check. NULL: out is set. */
static ProtobufCMessage *decode(const ProtobufCMessageDescriptor *d, const uint8_t *req, size_t len,
                                cgrpc_reply *out) {
    char msg[300];
    if (pb_check_strings(d, req, len, msg, sizeof msg)) {
        fail(out, CGRPC_INVALID_ARGUMENT, "%s: %s", d->short_name, msg);
        return NULL;
    }
    ProtobufCMessage *m = protobuf_c_message_unpack(d, NULL, len, req);
    if (!m) fail(out, CGRPC_INVALID_ARGUMENT, "%s: malformed protobuf message", d->short_name);
    return m;
}

/* Two independent 64-bit hashes of the request's inputs (every field but request_id and
 * priority), for request_id deduplication. */
static int input_hash(const Cuzk__V1__SubmitProofRequest *r, uint64_t h[2]) {
    Cuzk__V1__SubmitProofRequest c = *r;
    c.request_id = (char *)"";
    c.priority = 0;
    size_t n = cuzk__v1__submit_proof_request__get_packed_size(&c);
    uint8_t *b = malloc(n ? n : 1);
    if (!b) return -1;
    cuzk__v1__submit_proof_request__pack(&c, b);
    uint64_t a = 1469598103934665603ull, z = 0x9e3779b97f4a7c15ull ^ n;
    for (size_t i = 0; i < n; i++) {
        a = (a ^ b[i]) * 1099511628211ull;
        z = (z + b[i] + 1) * 0xff51afd7ed558ccdull;
        z ^= z >> 29;
    }
    free(b);
    h[0] = a;
    h[1] = z;
    return 0;
}

/* ---- PoSt requests ----
 * registered_proof is a RegisteredPoStProof (go-state-types abi/sector.go): 0..4
 * StackedDrgWinning{2KiB,8MiB,512MiB,32GiB,64GiB}V1, 5..9 StackedDrgWindow...V1, 10..14
 * StackedDrgWindow...V1_1. Winning and Window V1 prove with rust-fil-proofs ApiVersion 1.0.0;
 * Window V1_1 is filecoin-ffi's StackedDrgWindow...V1_2, ApiVersion 1.2.0. */
static const uint64_t POST_SIZES[5] = {2048ull, 8ull << 20, 512ull << 20, 32ull << 30, 64ull << 30};
static const char *const POST_SIZE_NAMES[5] = {"2KiB", "8MiB", "512MiB", "32GiB", "64GiB"};

/* BLS12-381 r, little-endian: randomness must be a canonical field element (rust-fil-proofs refuses
 * others; Lotus and Curio clear the top two bits before sending) */
static int fr_canonical_le(const uint8_t b[32]) {
    static const uint8_t R_LE[32] = {0x01, 0x00, 0x00, 0x00, 0xff, 0xff, 0xff, 0xff, 0xfe, 0x5b, 0xfe, 0xff, 0x02, 0xa4, 0xbd, 0x53,
                                     0x05, 0xd8, 0xa1, 0x09, 0x08, 0xd8, 0x39, 0x33, 0x48, 0x7d, 0x9d, 0x29, 0x53, 0xa7, 0xed, 0x73};
    for (int i = 31; i >= 0; i--)
        if (b[i] != R_LE[i]) return b[i] < R_LE[i];
    return 0;
}

/* Checks a WINDOW_POST_PARTITION / WINNING_POST request and fills js (circuit, vanilla proofs
 * copied and concatenated, randomness, partition, ApiVersion). 0: ok; 1: refused, the reason in
 * why (the job then completes FAILED with it); -1: out of memory (out set). */
static int post_request(service *s, const Cuzk__V1__SubmitProofRequest *r, job_submit *js, char *why, size_t cap,
                        cgrpc_reply *out) {
    int kind = (int)r->proof_kind;
    uint64_t rp = r->registered_proof;
    const char *kname = jobs_kind_name(kind);
    if (rp > 14) {
        snprintf(why, cap, "cuzk cannot prove this %s request: registered_proof %" PRIu64 " is not a RegisteredPoStProof "
                 "(0..4 WinningPoSt V1, 5..9 WindowPoSt V1, 10..14 WindowPoSt V1_1)", kname, rp);
        return 1;
    }
    int winning = rp <= 4;
    int size_i = (int)(rp % 5);
    char pname[64];
    snprintf(pname, sizeof pname, "StackedDrg%s%sV1%s", winning ? "Winning" : "Window", POST_SIZE_NAMES[size_i],
             rp >= 10 ? "_1" : "");
    if (winning != (kind == JK_WINNING)) {
        snprintf(why, cap, "cuzk cannot prove this %s request: registered_proof %" PRIu64 " (%s) is a %s proof", kname, rp,
                 pname, winning ? "WinningPoSt" : "WindowPoSt");
        return 1;
    }
    uint64_t size = POST_SIZES[size_i];
    if (r->sector_size && r->sector_size != size) {
        snprintf(why, cap, "cuzk cannot prove this %s request: sector_size %" PRIu64 " does not match registered_proof %" PRIu64
                 " (%s: %" PRIu64 " bytes)", kname, r->sector_size, rp, pname, size);
        return 1;
    }
    const char *id = dcfg_post_id(kind, size);
    const dcfg_circuit *c = id ? dcfg_find_circuit(s->cfg, id) : NULL;
    if (!c) {
        snprintf(why, cap, "cuzk cannot prove %s %s here: no [circuits.\"%s\"] (its params) in the configuration", kname,
                 POST_SIZE_NAMES[size_i], id ? id : "?");
        return 1;
    }
    if (r->randomness.len != 32 || !fr_canonical_le(r->randomness.data)) {
        snprintf(why, cap, "%s: randomness (field 22) must be 32 bytes, a canonical BLS12-381 scalar little-endian (got %zu "
                 "bytes%s)", kname, r->randomness.len, r->randomness.len == 32 ? ", >= the field modulus" : "");
        return 1;
    }
    uint32_t max_sectors = c->sectors ? c->sectors : size == (32ull << 30) ? 2349 : size == (64ull << 30) ? 2300 : 2;
    if (winning && r->n_vanilla_proofs != 1) {
        snprintf(why, cap, "%s: %zu vanilla proofs (field 11); WinningPoSt takes one, the challenged sector's, with one "
                 "challenge per circuit slot (%u)", kname, r->n_vanilla_proofs, c->sectors ? c->sectors : 66);
        return 1;
    }
    if (r->n_vanilla_proofs == 0 || r->n_vanilla_proofs > max_sectors) {
        snprintf(why, cap, "%s: %zu vanilla proofs (field 11); circuit %s takes 1 to %u (one per sector of the partition)", kname,
                 r->n_vanilla_proofs, id, max_sectors);
        return 1;
    }
    if (winning && r->partition_index != 0) {
        snprintf(why, cap, "%s: partition_index %u: WinningPoSt has one partition (0)", kname, r->partition_index);
        return 1;
    }
    size_t total = 0;
    for (size_t i = 0; i < r->n_vanilla_proofs; i++) total += r->vanilla_proofs[i].len;
    js->vanilla_lens = malloc(r->n_vanilla_proofs * sizeof *js->vanilla_lens);
    js->witness = malloc(total ? total : 1);
    if (!js->vanilla_lens || !js->witness) {
        free(js->vanilla_lens);
        free(js->witness);
        js->vanilla_lens = NULL;
        js->witness = NULL;
        fail(out, CGRPC_RESOURCE_EXHAUSTED, "out of memory for the vanilla proofs");
        return -1;
    }
    size_t off = 0;
    for (size_t i = 0; i < r->n_vanilla_proofs; i++) {
        if (r->vanilla_proofs[i].len) memcpy(js->witness + off, r->vanilla_proofs[i].data, r->vanilla_proofs[i].len);
        js->vanilla_lens[i] = r->vanilla_proofs[i].len;
        off += r->vanilla_proofs[i].len;
    }
    js->witness_len = total;
    js->n_vanilla = r->n_vanilla_proofs;
    memcpy(js->randomness, r->randomness.data, 32);
    js->partition = r->partition_index;
    js->api_version = rp >= 10 ? 12 : 10;
    js->circuit_id = c->id;
    return 0;
}

/* ---- PoRep requests ----
 * registered_proof is a RegisteredSealProof (go-state-types abi/sector.go): 0..4
 * StackedDrg{2KiB,8MiB,512MiB,32GiB,64GiB}V1, 5..9 ...V1_1, 10..14 ...V1_1_Feat_SyntheticPoRep;
 * 15..19 (NI-PoRep) is not proved here. vanilla_proof carries the C1 output (Curio's wrapper or
 * the bare JSON); it is read and checked by the worker (a bad one FAILS the job, named). Checks
 * the request only: 0 ok; 1 refused (why); -1 out of memory (out set). */
static int porep_request(service *s, const Cuzk__V1__SubmitProofRequest *r, job_submit *js, char *why, size_t cap,
                         cgrpc_reply *out) {
    static const char *const SIZE_NAMES[5] = {"2KiB", "8MiB", "512MiB", "32GiB", "64GiB"};
    uint64_t rp = r->registered_proof;
    if (rp > 14) {
        snprintf(why, cap, "cuzk cannot prove this POREP_SEAL_COMMIT request: registered_proof %" PRIu64 " is not a "
                 "RegisteredSealProof cuzk proves (0..4 V1, 5..9 V1_1, 10..14 V1_1 + SyntheticPoRep; 15..19 NI-PoRep is "
                 "not supported)", rp);
        return 1;
    }
    uint64_t size = POST_SIZES[rp % 5];
    if (r->sector_size && r->sector_size != size) {
        snprintf(why, cap, "cuzk cannot prove this POREP_SEAL_COMMIT request: sector_size %" PRIu64 " does not match "
                 "registered_proof %" PRIu64 " (%s: %" PRIu64 " bytes)", r->sector_size, rp, SIZE_NAMES[rp % 5], size);
        return 1;
    }
    const char *id = dcfg_porep_id(size);
    const dcfg_circuit *c = id ? dcfg_find_circuit(s->cfg, id) : NULL;
    if (!c) {
        snprintf(why, cap, "cuzk cannot prove POREP_SEAL_COMMIT %s here: no [circuits.\"%s\"] (its params) in the "
                 "configuration", SIZE_NAMES[rp % 5], id ? id : "?");
        return 1;
    }
    if (r->vanilla_proof.len == 0) {
        snprintf(why, cap, "POREP_SEAL_COMMIT: vanilla_proof (field 10) is empty: it carries the C1 output "
                 "({\"SectorNum\", \"Phase1Out\", \"SectorSize\"})");
        return 1;
    }
    js->witness = malloc(r->vanilla_proof.len);
    if (!js->witness) {
        fail(out, CGRPC_RESOURCE_EXHAUSTED, "out of memory for the C1 output (%zu bytes)", r->vanilla_proof.len);
        return -1;
    }
    memcpy(js->witness, r->vanilla_proof.data, r->vanilla_proof.len);
    js->witness_len = r->vanilla_proof.len;
    js->porep = 1;
    js->sector_id = r->sector_number;
    js->miner_id = r->miner_id;
    js->registered_proof = rp;
    js->circuit_id = c->id;
    return 0;
}

/* Submits; fills job_id/pos. Returns 0 or -1 with out set. *created: a new job was made. */
static int submit(service *s, Cuzk__V1__SubmitProofRequest *r, char job_id[32], uint32_t *pos, int *created,
                  cgrpc_reply *out) {
    job_submit js;
    memset(&js, 0, sizeof js);
    char failmsg[400];
    *created = 0;
    const char *kname = jobs_kind_name((int)r->proof_kind);
    if (!kname) {
        fail(out, CGRPC_INVALID_ARGUMENT, "unknown proof_kind %d (known: 1..4, 100 = GENERIC_GROTH16)",
             (int)r->proof_kind);
        return -1;
    }
    if ((int)r->priority < 0 || (int)r->priority > 4) {
        fail(out, CGRPC_INVALID_ARGUMENT, "unknown priority %d (known: 0..4)", (int)r->priority);
        return -1;
    }
    js.kind = (int)r->proof_kind;
    js.priority = r->priority == 0 ? 2 : (int)r->priority;
    js.request_id = r->request_id;
    if (strlen(r->request_id) > 1024) {
        fail(out, CGRPC_INVALID_ARGUMENT, "request_id longer than 1024 bytes");
        return -1;
    }
    if (js.kind == JK_GENERIC) {
        const dcfg_circuit *c = dcfg_find_circuit(s->cfg, r->circuit_id);
        if (!*r->circuit_id) {
            fail(out, CGRPC_INVALID_ARGUMENT, "GENERIC_GROTH16 needs circuit_id (field 100)");
            return -1;
        }
        if (!c) {
            fail(out, CGRPC_NOT_FOUND, "unknown circuit_id \"%.200s\" (not in the configuration)", r->circuit_id);
            return -1;
        }
        if (c->filecoin) {
            fail(out, CGRPC_INVALID_ARGUMENT, "circuit %s is a Filecoin circuit: send its own proof kind", c->id);
            return -1;
        }
        if (r->witness.len == 0) {
            fail(out, CGRPC_INVALID_ARGUMENT, "GENERIC_GROTH16 needs witness (field 101: .wtns bytes)");
            return -1;
        }
        js.circuit_id = c->id;
    } else if (js.kind == JK_WPOST || js.kind == JK_WINNING) {
        int pr = post_request(s, r, &js, failmsg, sizeof failmsg, out);
        if (pr < 0) return -1;
        if (pr > 0) js.fail_message = failmsg;
    } else if (js.kind == JK_POREP) {
        int pr = porep_request(s, r, &js, failmsg, sizeof failmsg, out);
        if (pr < 0) return -1;
        if (pr > 0) js.fail_message = failmsg;
    } else {
        snprintf(failmsg, sizeof failmsg,
                 "cuzk cannot prove %s yet: this build has no SnapDeals circuit (the job was not attempted)", kname);
        js.fail_message = failmsg;
    }
    if (input_hash(r, js.input_hash)) {
        free(js.witness);
        free(js.vanilla_lens);
        fail(out, CGRPC_RESOURCE_EXHAUSTED, "out of memory");
        return -1;
    }
    if (js.kind == JK_GENERIC) {
        js.witness = malloc(r->witness.len);
        if (!js.witness) {
            fail(out, CGRPC_RESOURCE_EXHAUSTED, "out of memory for the witness");
            return -1;
        }
        memcpy(js.witness, r->witness.data, r->witness.len);
        js.witness_len = r->witness.len;
    }
    int dedup = 0;
    int rc = jobs_submit(s->J, &js, job_id, pos, &dedup, out->msg, sizeof out->msg);
    free(js.witness); /* NULL when the job took it */
    free(js.vanilla_lens);
    if (rc != CGRPC_OK) {
        out->code = rc;
        return -1;
    }
    *created = !dedup;
    dlog(DLOG_DEBUG, "submit %s kind %s priority %d request_id \"%.100s\"%s -> %s (position %u)",
         js.circuit_id ? js.circuit_id : "-", kname, js.priority, r->request_id, dedup ? " (same job)" : "", job_id,
         *pos);
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

static void h_submit(service *s, const uint8_t *req, size_t len, cgrpc_reply *out) {
    Cuzk__V1__SubmitProofRequest *r =
        (Cuzk__V1__SubmitProofRequest *)decode(&cuzk__v1__submit_proof_request__descriptor, req, len, out);
    if (!r) return;
    char id[32];
    uint32_t pos = 0;
    int created;
    if (submit(s, r, id, &pos, &created, out) == 0) {
        Cuzk__V1__SubmitProofResponse resp = CUZK__V1__SUBMIT_PROOF_RESPONSE__INIT;
        resp.job_id = id;
        resp.queue_position = pos;
        reply(out, &resp.base);
    }
    cuzk__v1__submit_proof_request__free_unpacked(r, NULL);
}

static void h_await(service *s, cgrpc_call *call, const uint8_t *req, size_t len, cgrpc_reply *out) {
    Cuzk__V1__AwaitProofRequest *r =
        (Cuzk__V1__AwaitProofRequest *)decode(&cuzk__v1__await_proof_request__descriptor, req, len, out);
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
    Cuzk__V1__ProveRequest *r = (Cuzk__V1__ProveRequest *)decode(&cuzk__v1__prove_request__descriptor, req, len, out);
    if (!r) return;
    if (!r->submit) {
        fail(out, CGRPC_INVALID_ARGUMENT, "ProveRequest: submit (field 1) is missing");
        cuzk__v1__prove_request__free_unpacked(r, NULL);
        return;
    }
    char id[32];
    uint32_t pos;
    int created;
    if (submit(s, r->submit, id, &pos, &created, out) == 0) {
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
    cuzk__v1__prove_request__free_unpacked(r, NULL);
}

static void h_cancel(service *s, const uint8_t *req, size_t len, cgrpc_reply *out) {
    Cuzk__V1__CancelProofRequest *r =
        (Cuzk__V1__CancelProofRequest *)decode(&cuzk__v1__cancel_proof_request__descriptor, req, len, out);
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
    ProtobufCMessage *r = decode(&cuzk__v1__get_status_request__descriptor, req, len, out);
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
    ProtobufCMessage *r = decode(&cuzk__v1__get_metrics_request__descriptor, req, len, out);
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
        (Cuzk__V1__PreloadSrsRequest *)decode(&cuzk__v1__preload_srs_request__descriptor, req, len, out);
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
        (Cuzk__V1__EvictSrsRequest *)decode(&cuzk__v1__evict_srs_request__descriptor, req, len, out);
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
    if (strcmp(m, "SubmitProof") == 0) h_submit(s, req, len, out);
    else if (strcmp(m, "AwaitProof") == 0) h_await(s, call, req, len, out);
    else if (strcmp(m, "Prove") == 0) h_prove(s, call, req, len, out);
    else if (strcmp(m, "CancelProof") == 0) h_cancel(s, req, len, out);
    else if (strcmp(m, "GetStatus") == 0) h_status(s, req, len, out);
    else if (strcmp(m, "GetMetrics") == 0) h_metrics(s, req, len, out);
    else if (strcmp(m, "PreloadSRS") == 0) h_preload(s, req, len, out);
    else if (strcmp(m, "EvictSRS") == 0) h_evict(s, req, len, out);
    else fail(out, CGRPC_UNIMPLEMENTED, "unknown method %s", method);
    if (out->code != CGRPC_OK) dlog(DLOG_DEBUG, "%s from %s: status %d: %s", m, cgrpc_call_peer(call), out->code, out->msg);
}
