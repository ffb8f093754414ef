/* libFuzzer harness for cuzkd's request decoding and checks: the code service.c runs on a
 * request's bytes before anything reaches the job table (src/daemon/request.h), without gRPC.
 * Input layout (explicit):
 *   byte 0      the method, value mod 8: 0 SubmitProof, 1 Prove, 2 AwaitProof, 3 CancelProof,
 *               4 GetStatus, 5 GetMetrics, 6 PreloadSRS, 7 EvictSRS
 *   bytes 1..   the serialized request message of that method (cuzk.v1, src/daemon/proving.proto)
 * Every message goes through request_decode (the wire-level UTF-8 check of pbvalid.c, then
 * protobuf-c's unpack); a SubmitProof or Prove message also through request_decode_split (its
 * witness left in the bytes), which must decode the same message. A SubmitProofRequest (Prove: its submit field) then goes through
 * request_submit_check against a fixed configuration loaded by the daemon's own loader
 * (dcfg_load: PoSt circuits real and reduced, PoRep 2 KiB and 32 GiB, SnapDeals 2 KiB and 32 GiB,
 * one generic circuit), and a request it accepts for proving goes on to what the worker does first
 * (dprover_api.c, the same dp_post_request / dp_porep_request / dp_snap_request): the PoSt vanilla
 * proofs to cuzk_post_job_create, the PoRep C1 output to cuzk_porep_job_create, the SnapDeals
 * partition proofs and commitments to cuzk_snap_job_create, all on one thread. The other messages stop after decoding: their handlers only look the job table up.
 * Invariants checked (a violation aborts: a finding): a refused call has a gRPC status and a
 * message; a refused submit leaves nothing allocated; an accepted PoSt or SnapDeals request's
 * vanilla proofs fill its witness exactly; a failing job has a reason. Nothing may crash, read out of bounds,
 * overflow or leak.
 *   make fuzz       # runs every target in tools/fuzz (tools/fuzz/run.sh)
 * Seeds: tools/fuzz/corpus/daemon (tools/fuzz/make_seeds.py). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "cuzk/filecoin.h"
#include "dprover.h"
#include "request.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static dcfg CFG;

/* An in-memory file with these bytes; its path in path (/proc/self/fd/N). */
static int memfile(const char *name, const char *text, char path[64]) {
    int fd = memfd_create(name, 0);
    if (fd < 0) return -1;
    size_t n = strlen(text);
    if (n && write(fd, text, n) != (ssize_t)n) return -1;
    snprintf(path, 64, "/proc/self/fd/%d", fd);
    return fd;
}

int LLVMFuzzerInitialize(int *argc, char ***argv) {
    (void)argc;
    (void)argv;
    char key[64], toml_path[64], toml[2048], err[512];
    /* the key files are only checked to be readable at load: an empty file will do */
    if (memfile("cuzk-fuzz-key", "", key) < 0) abort();
    snprintf(toml, sizeof toml,
             "[circuits.wpost-32g]\nparams = \"%s\"\nsectors = 2\n"
             "[circuits.winning-32g]\nparams = \"%s\"\nsectors = 2\n"
             "[circuits.wpost-2k]\nparams = \"%s\"\n"
             "[circuits.winning-2k]\nparams = \"%s\"\n"
             "[circuits.wpost-64g]\nparams = \"%s\"\n"
             "[circuits.porep-2k]\nparams = \"%s\"\n"
             "[circuits.porep-32g]\nparams = \"%s\"\n"
             "[circuits.snap-2k]\nparams = \"%s\"\n"
             "[circuits.snap-32g]\nparams = \"%s\"\n"
             "[circuits.multiplier]\nzkey = \"%s\"\n",
             key, key, key, key, key, key, key, key, key, key);
    if (memfile("cuzk-fuzz-toml", toml, toml_path) < 0 || dcfg_load(&CFG, toml_path, err, sizeof err) != 0) {
        fprintf(stderr, "fuzz_daemon: the configuration does not load: %s\n", err);
        abort();
    }
    return 0;
}

/* What a worker would get for the job (jobs.c: the job's fields as a dp_input). */
static void input_of(dp_input *in, const job_submit *js) {
    memset(in, 0, sizeof *in);
    in->wtns = js->witness;
    in->wtns_len = js->witness_len;
    in->vanilla_lens = js->vanilla_lens;
    in->n_vanilla = js->n_vanilla;
    memcpy(in->randomness, js->randomness, 32);
    in->partition = js->partition;
    in->api_version = js->api_version;
    in->porep = js->porep;
    in->sector_id = js->sector_id;
    in->miner_id = js->miner_id;
    in->registered_proof = js->registered_proof;
    in->snap = js->snap;
    memcpy(in->comm_r_old, js->comm_r_old, 32);
    memcpy(in->comm_d_new, js->comm_d_new, 32);
    memcpy(in->comm_r_new, js->comm_r_new, 32);
}

/* The worker's first step on an accepted PoSt request (dprover_api.c prove_post, through the same
 * dp_post_request). */
static void post_worker(const dcfg_circuit *c, const job_submit *js) {
    const uint8_t **bufs = calloc(js->n_vanilla, sizeof *bufs);
    if (!bufs) return;
    dp_input in;
    input_of(&in, js);
    cuzk_post_request rq;
    cuzk_error e = {0};
    /* an accepted request's proofs fill its witness exactly */
    if (dp_post_request(&rq, bufs, c->post_circuit, c->sectors, &in, 1, &e) != CUZK_OK) abort();
    cuzk_post_job *job = NULL;
    cuzk_status st = cuzk_post_job_create(&job, &rq, &e);
    free(bufs);
    if (st != CUZK_OK) {
        if (job || !e.msg[0]) abort();
        return;
    }
    size_t np = cuzk_post_job_n_public(job);
    uint8_t *pub = malloc(np * 32 + 1);
    if (pub && cuzk_post_job_partitions(job) >= 1) (void)cuzk_post_job_public_inputs(job, 0, pub, &e);
    free(pub);
    cuzk_post_job_free(job);
}

/* The worker's first step on an accepted PoRep request (dprover_api.c prove_porep, through the same
 * dp_porep_request). */
static void porep_worker(const job_submit *js) {
    dp_input in;
    input_of(&in, js);
    cuzk_porep_request rq;
    dp_porep_request(&rq, &in, 1);
    cuzk_porep_job *job = NULL;
    cuzk_error e = {0};
    cuzk_status st = cuzk_porep_job_create(&job, &rq, &e);
    if (st != CUZK_OK) {
        if (job || !e.msg[0]) abort();
        return;
    }
    (void)cuzk_porep_job_registered_proof(job);
    size_t np = cuzk_porep_job_n_public(job);
    uint8_t *pub = malloc(np * 32 + 1);
    if (pub && cuzk_porep_job_partitions(job) >= 1) (void)cuzk_porep_job_public_inputs(job, 0, pub, &e);
    free(pub);
    cuzk_porep_job_free(job);
}

/* The worker's first step on an accepted SnapDeals request (dprover_api.c prove_snap, through the
 * same dp_snap_request). */
static void snap_worker(const job_submit *js) {
    const uint8_t **bufs = calloc(js->n_vanilla, sizeof *bufs);
    if (!bufs) return;
    dp_input in;
    input_of(&in, js);
    cuzk_snap_request rq;
    cuzk_error e = {0};
    /* an accepted request's partition proofs fill its witness exactly */
    if (dp_snap_request(&rq, bufs, &in, 1, &e) != CUZK_OK) abort();
    cuzk_snap_job *job = NULL;
    cuzk_status st = cuzk_snap_job_create(&job, &rq, &e);
    free(bufs);
    if (st != CUZK_OK) {
        if (job || !e.msg[0]) abort();
        return;
    }
    size_t np = cuzk_snap_job_n_public(job);
    uint8_t *pub = malloc(np * 32 + 1);
    if (pub && cuzk_snap_job_partitions(job) >= 1) (void)cuzk_snap_job_public_inputs(job, 0, pub, &e);
    free(pub);
    cuzk_snap_job_free(job);
}

static void submit(Cuzk__V1__SubmitProofRequest *r) {
    job_submit js;
    char failmsg[400];
    cgrpc_reply out;
    memset(&out, 0, sizeof out);
    if (request_submit_check(&CFG, r, &js, failmsg, sizeof failmsg, &out) != 0) {
        if (out.code == CGRPC_OK || !out.msg[0] || js.witness || js.vanilla_lens) abort();
        return;
    }
    /* accepted: a job that fails at once names its reason, a job to prove its circuit */
    if (out.code != CGRPC_OK || (!js.fail_message && !js.circuit_id)) abort();
    if (js.fail_message) {
        if (js.fail_message != failmsg || !failmsg[0] || js.witness || js.vanilla_lens) abort();
    } else if (js.kind == JK_WPOST || js.kind == JK_WINNING) {
        const dcfg_circuit *c = dcfg_find_circuit(&CFG, js.circuit_id);
        if (!c || !c->post_circuit || c->post_kind != js.kind || !js.n_vanilla || !js.vanilla_lens) abort();
        post_worker(c, &js);
    } else if (js.kind == JK_POREP) {
        const dcfg_circuit *c = dcfg_find_circuit(&CFG, js.circuit_id);
        if (!c || !c->porep_circuit || !js.porep || !js.witness_len) abort();
        porep_worker(&js);
    } else if (js.kind == JK_SNAP) {
        const dcfg_circuit *c = dcfg_find_circuit(&CFG, js.circuit_id);
        if (!c || !c->snap_circuit || !js.snap || !js.n_vanilla || !js.vanilla_lens) abort();
        snap_worker(&js);
    } else if (js.kind == JK_GENERIC) {
        const dcfg_circuit *c = dcfg_find_circuit(&CFG, js.circuit_id);
        if (!c || c->filecoin || !js.witness_len) abort();
    }
    free(js.witness);
    free(js.vanilla_lens);
}

/* request_decode_split (every witness split: min_split 1) against request_decode's message m of
 * the same bytes: it decodes too, and with its witness pointed into the bytes it packs to what m
 * packs to (the same fields, the same unknown fields). */
static void split_check(const ProtobufCMessageDescriptor *d, const uint8_t *req, size_t len, const ProtobufCMessage *m) {
    cgrpc_reply out;
    memset(&out, 0, sizeof out);
    size_t w_off = 0, w_len = 0;
    ProtobufCMessage *sm = request_decode_split(d, req, len, 1, &out, &w_off, &w_len);
    if (!sm || out.code != CGRPC_OK) abort();
    Cuzk__V1__SubmitProofRequest *sub = d == &cuzk__v1__prove_request__descriptor
                                            ? ((Cuzk__V1__ProveRequest *)sm)->submit
                                            : (Cuzk__V1__SubmitProofRequest *)sm;
    if (w_len) {
        if (!sub || sub->witness.len || w_off + w_len > len) abort();
        sub->witness.data = (uint8_t *)req + w_off;
        sub->witness.len = w_len;
    }
    size_t a = protobuf_c_message_get_packed_size(m), b = protobuf_c_message_get_packed_size(sm);
    uint8_t *pa = malloc(a + 1), *pb = malloc(b + 1);
    if (!pa || !pb) abort();
    if (a != b || protobuf_c_message_pack(m, pa) != a || protobuf_c_message_pack(sm, pb) != b || memcmp(pa, pb, a))
        abort();
    free(pa);
    free(pb);
    if (w_len) {
        sub->witness.data = NULL;
        sub->witness.len = 0;
    }
    protobuf_c_message_free_unpacked(sm, NULL);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static const ProtobufCMessageDescriptor *const METHODS[8] = {
        &cuzk__v1__submit_proof_request__descriptor, &cuzk__v1__prove_request__descriptor,
        &cuzk__v1__await_proof_request__descriptor,  &cuzk__v1__cancel_proof_request__descriptor,
        &cuzk__v1__get_status_request__descriptor,   &cuzk__v1__get_metrics_request__descriptor,
        &cuzk__v1__preload_srs_request__descriptor,  &cuzk__v1__evict_srs_request__descriptor};
    if (size < 1) return 0;
    int method = data[0] % 8;
    cgrpc_reply out;
    memset(&out, 0, sizeof out);
    ProtobufCMessage *m = request_decode(METHODS[method], data + 1, size - 1, &out);
    if (!m) {
        if (out.code != CGRPC_INVALID_ARGUMENT || !out.msg[0]) abort();
        return 0;
    }
    if (out.code != CGRPC_OK) abort();
    if (method <= 1) split_check(METHODS[method], data + 1, size - 1, m);
    if (method == 0) {
        submit((Cuzk__V1__SubmitProofRequest *)m);
    } else if (method == 1) {
        const Cuzk__V1__ProveRequest *p = (const Cuzk__V1__ProveRequest *)m;
        if (p->submit) submit(p->submit);
    } else if (method == 6 || method == 7) {
        /* PreloadSRS / EvictSRS name a circuit the job table looks up in the configuration */
        const char *id = method == 6 ? ((Cuzk__V1__PreloadSrsRequest *)m)->circuit_id
                                     : ((Cuzk__V1__EvictSrsRequest *)m)->circuit_id;
        (void)dcfg_find_circuit(&CFG, id);
    }
    protobuf_c_message_free_unpacked(m, NULL);
    return 0;
}
