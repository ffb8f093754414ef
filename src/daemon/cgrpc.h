/* cgrpc: the small C interface cuzkd's C code uses to serve gRPC (implemented in cgrpc.cc on the
 * gRPC C++ callback generic API from Debian's libgrpc++; shared/api/grpc-in-c.md explains why).
 *
 * Every unary call of any method reaches two callbacks: classify (which decides, from the full
 * method name "/pkg.Service/Method", whether the handler may run inline on gRPC's callback
 * thread, must run on a thread of its own because it blocks (Prove, AwaitProof), or the method is
 * unknown and is answered UNIMPLEMENTED), then handle with the request's serialized bytes.
 *
 * Thread-safety: handlers run concurrently on many threads. cgrpc_call_* may be called from the
 * handler's thread during the handler only. */
#ifndef CUZKD_CGRPC_H
#define CUZKD_CGRPC_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct cgrpc_server cgrpc_server;
typedef struct cgrpc_call cgrpc_call;

typedef enum { CGRPC_INLINE = 0, CGRPC_BLOCKING = 1, CGRPC_UNKNOWN = 2 } cgrpc_mode;

/* gRPC status codes used by cuzkd (the numbers are gRPC's). */
enum {
    CGRPC_OK = 0, CGRPC_CANCELLED = 1, CGRPC_UNKNOWN_ERR = 2, CGRPC_INVALID_ARGUMENT = 3,
    CGRPC_DEADLINE_EXCEEDED = 4, CGRPC_NOT_FOUND = 5, CGRPC_ALREADY_EXISTS = 6,
    CGRPC_RESOURCE_EXHAUSTED = 8, CGRPC_FAILED_PRECONDITION = 9, CGRPC_ABORTED = 10,
    CGRPC_UNIMPLEMENTED = 12, CGRPC_INTERNAL = 13, CGRPC_UNAVAILABLE = 14, CGRPC_DATA_LOSS = 15
};

/* What a handler answers. body: malloc'd serialized response (may be NULL with body_len 0: an
 * empty message), freed by cgrpc. When code != CGRPC_OK the body is ignored and msg is sent as
 * the status message. */
typedef struct cgrpc_reply {
    int code;
    char msg[512];
    uint8_t *body;
    size_t body_len;
} cgrpc_reply;

typedef cgrpc_mode (*cgrpc_classify_fn)(void *user, const char *method);
typedef void (*cgrpc_handle_fn)(void *user, cgrpc_call *call, const char *method, const uint8_t *req,
                                size_t req_len, cgrpc_reply *out);

typedef struct cgrpc_opts {
    const char *const *listen;  /* gRPC addresses: "unix:///abs/path", "host:port" */
    int n_listen;
    size_t max_message_bytes;   /* send and receive limit (both) */
    int max_blocking_calls;     /* concurrent CGRPC_BLOCKING calls; beyond: RESOURCE_EXHAUSTED */
} cgrpc_opts;

/* Starts the server on every address (SO_REUSEPORT off). Returns NULL with a message in err if
 * any address cannot be bound. */
cgrpc_server *cgrpc_start(const cgrpc_opts *o, cgrpc_classify_fn classify, cgrpc_handle_fn handle, void *user,
                          char *err, size_t err_cap);

/* 1 if the client cancelled the call, its deadline passed, or the server is shutting down. */
int cgrpc_call_cancelled(const cgrpc_call *call);
/* The client's address ("unix:", "ipv4:127.0.0.1:5555"); valid during the handler. */
const char *cgrpc_call_peer(const cgrpc_call *call);
/* Milliseconds the server took to copy the request's received slices into the one buffer the
 * handler gets (0 for an empty request or a NULL call); valid during the handler. */
double cgrpc_call_flatten_ms(const cgrpc_call *call);
/* Milliseconds from the call's start (its headers arrived) to its request message read whole: the
 * message's trip over the connection (0 for a NULL call); valid during the handler. */
double cgrpc_call_receive_ms(const cgrpc_call *call);
/* Keeps the handler's request bytes (req, len) alive past the handler's return, without a copy,
 * until cgrpc_request_release(the handle returned): for a job that uses a large field in place.
 * NULL for a NULL call, an empty request, or out of memory (nothing kept). Thread-safety: the
 * handle may be released on any thread. */
void *cgrpc_call_keep_request(cgrpc_call *call);
void cgrpc_request_release(void *kept);

/* Stops accepting calls, lets calls in flight finish until grace_ms has passed, then cancels the
 * rest, and waits for every handler to return. */
void cgrpc_shutdown(cgrpc_server *s, uint64_t grace_ms);

/* Where gRPC's own log lines go (its C core's gpr_log): fn(severity, file, line, message) with
 * severity 0 debug, 1 info, 2 error, for every line gRPC makes (GRPC_VERBOSITY is not consulted);
 * fn NULL: gRPC's lines are dropped. Call once, before cgrpc_start; fn must be thread-safe. */
typedef void (*cgrpc_log_fn)(int severity, const char *file, int line, const char *msg);
void cgrpc_set_log(cgrpc_log_fn fn);
/* Frees the server (after cgrpc_shutdown). NULL is fine. */
void cgrpc_destroy(cgrpc_server *s);

/* Calls answered so far: total, and those refused for each reason (unknown method, limit). */
typedef struct cgrpc_stats {
    uint64_t calls, unimplemented, blocking_refused;
    int blocking_now;
} cgrpc_stats;
void cgrpc_get_stats(cgrpc_server *s, cgrpc_stats *out);

#ifdef __cplusplus
}
#endif
#endif
