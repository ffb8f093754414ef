/* cuzkd's request decoding and checks, apart from the gRPC server and the job table: what
 * service.c does with a request's bytes before anything is queued. Pure functions of the request
 * and the configuration (no I/O, no global state), so that the fuzz harness
 * (tools/fuzz/fuzz_daemon.c) runs exactly the daemon's code on arbitrary bytes.
 * Thread-safety: reentrant. */
#ifndef CUZKD_REQUEST_H
#define CUZKD_REQUEST_H

#include <stddef.h>
#include <stdint.h>

#include "cgrpc.h"
#include "config.h"
#include "jobs.h"
#include "proving.pb-c.h"

/* Sets out->code and out->msg (printf format, truncated to the message buffer). */
void request_fail(cgrpc_reply *out, int code, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* Decodes a serialized request of message type d: the wire-level UTF-8 check of every string field
 * (pbvalid.c), then protobuf-c's unpack. Returns the message (free with
 * protobuf_c_message_free_unpacked), or NULL with out set to INVALID_ARGUMENT and the reason
 * ("<Message>: field <name>: ..." or "<Message>: malformed protobuf message"). */
ProtobufCMessage *request_decode(const ProtobufCMessageDescriptor *d, const uint8_t *req, size_t len, cgrpc_reply *out);
/* request_decode of a SubmitProofRequest, or of a ProveRequest holding one, that leaves a large
 * generic witness (field 101, at least min_split bytes, and not empty: cuzkd's
 * REQUEST_SPLIT_MIN; the fuzz harness takes 1) where it is: when the field occurs once (in the one
 * submit of a ProveRequest), the message is unpacked without it and *w_off, *w_len give its bytes
 * inside req (the decoded witness is empty: the caller points it there, keeps req alive while it
 * is used, and empties it again before free_unpacked). Otherwise *w_len = 0 and this is
 * request_decode (another message type, a small or repeated witness, bytes that are not a
 * message: the same error as request_decode). The decoded fields are those of request_decode in
 * every case. */
#define REQUEST_SPLIT_MIN ((size_t)1 << 20) /* a smaller witness is copied: nothing to win */
ProtobufCMessage *request_decode_split(const ProtobufCMessageDescriptor *d, const uint8_t *req, size_t len,
                                       size_t min_split, cgrpc_reply *out, size_t *w_off, size_t *w_len);

/* Checks a decoded SubmitProofRequest against the configuration and fills *js (zeroed here) for
 * jobs_submit: kind, priority (0 -> NORMAL), request_id, the input hash (request_id deduplication)
 * and per kind the circuit, the witness (generic: the .wtns bytes; PoSt: the vanilla proofs
 * concatenated, their lengths in vanilla_lens; PoRep: the C1 output) copied into malloc'd buffers
 * that the caller frees after jobs_submit (which takes them over, setting them NULL).
 * Returns 0 when the request may be queued: either as a job to prove, or, when cuzk cannot prove
 * it here (no such circuit configured, a PoSt/PoRep request whose fields do not fit its
 * registered proof, SnapDeals), as a job that completes FAILED at once with js->fail_message =
 * failmsg (cap bytes, the reason). Returns -1 when the call itself is refused, out set:
 * INVALID_ARGUMENT (unknown proof kind or priority, request_id over 1024 bytes, a generic request
 * without circuit_id or witness, or naming a Filecoin circuit), NOT_FOUND (generic circuit_id not
 * configured), RESOURCE_EXHAUSTED (out of memory); nothing is left allocated in *js then.
 * A generic request's witness moves from r into js->witness on success (r->witness is emptied, so
 * the caller's free_unpacked of r leaves it): no copy of a witness of any size. */
int request_submit_check(const dcfg *cfg, Cuzk__V1__SubmitProofRequest *r, job_submit *js, char *failmsg,
                         size_t cap, cgrpc_reply *out);

#endif
