// cgrpc.cc: cgrpc.h on the gRPC C++ callback generic API (Debian libgrpc++ 1.51).
//
// One CallbackGenericService receives every method, so an unknown method is answered
// UNIMPLEMENTED at once instead of hanging until the client's deadline (the C core's pitfall).
// Each call is a bidi reactor used as unary: read one message, answer once. Handlers classified
// CGRPC_BLOCKING run on a thread of their own (at most max_blocking_calls at once) because they
// wait for proofs; the others run inline on gRPC's callback threads and must not block.
// No C++ exception or type crosses into the C side.
#include "cgrpc.h"

#include <grpcpp/generic/async_generic_service.h>
#include <grpcpp/grpcpp.h>
#include <grpcpp/security/server_credentials.h>
#include <grpcpp/server_builder.h>
#include <grpc/grpc.h>
#include <grpc/support/log.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

struct cgrpc_call {
    std::atomic<bool> cancelled{false};
    std::string peer;
    double flatten_ms = 0; /* the request's slices copied into one buffer (cgrpc_call_flatten_ms) */
    double receive_ms = 0; /* the call's start to its message read whole (cgrpc_call_receive_ms) */
    grpc::Slice flat;      /* the request as one buffer, the handler's req (cgrpc_call_keep_request) */
    std::chrono::steady_clock::time_point t_start = std::chrono::steady_clock::now();
};

struct cgrpc_server;

namespace {

class UnaryReactor final : public grpc::ServerGenericBidiReactor {
  public:
    UnaryReactor(cgrpc_server *s, grpc::GenericCallbackServerContext *ctx);
    void OnReadDone(bool ok) override;
    void OnWriteDone(bool) override {}
    void OnCancel() override;
    void OnDone() override;

  private:
    void Run();
    cgrpc_server *s_;
    grpc::GenericCallbackServerContext *ctx_;
    std::string method_;
    grpc::ByteBuffer req_, resp_;
    cgrpc_call call_;
    bool blocking_ = false;
};

class Service final : public grpc::CallbackGenericService {
  public:
    explicit Service(cgrpc_server *s) : s_(s) {}
    grpc::ServerGenericBidiReactor *CreateReactor(grpc::GenericCallbackServerContext *ctx) override {
        return new UnaryReactor(s_, ctx);
    }

  private:
    cgrpc_server *s_;
};

} // namespace

struct cgrpc_server {
    cgrpc_classify_fn classify = nullptr;
    cgrpc_handle_fn handle = nullptr;
    void *user = nullptr;
    int max_blocking = 1024;
    std::unique_ptr<Service> service;
    std::unique_ptr<grpc::Server> server;
    std::mutex mu;
    std::condition_variable cv;
    int live = 0;          // reactors not yet done
    int blocking_now = 0;  // blocking handlers running
    std::atomic<bool> shutting_down{false};
    std::atomic<uint64_t> calls{0}, unimplemented{0}, blocking_refused{0};
};

namespace {

// Status messages carry request text (method names, ids): control characters are sent as \xNN.
std::string escaped(const std::string &in) {
    static const char hex[] = "0123456789abcdef";
    std::string out;
    out.reserve(in.size());
    for (unsigned char c : in) {
        if (c < 0x20 || c == 0x7f) {
            out += "\\x";
            out += hex[c >> 4];
            out += hex[c & 15];
        } else {
            out += static_cast<char>(c);
        }
    }
    return out;
}

grpc::Status status(grpc::StatusCode code, const std::string &msg) { return grpc::Status(code, escaped(msg)); }

cgrpc_log_fn g_log_fn = nullptr;

void log_bridge(gpr_log_func_args *a) {
    cgrpc_log_fn fn = g_log_fn;
    if (!fn || !a) return;
    int sev = a->severity == GPR_LOG_SEVERITY_ERROR ? 2 : a->severity == GPR_LOG_SEVERITY_INFO ? 1 : 0;
    fn(sev, a->file ? a->file : "", a->line, a->message ? a->message : "");
}

UnaryReactor::UnaryReactor(cgrpc_server *s, grpc::GenericCallbackServerContext *ctx) : s_(s), ctx_(ctx) {
    method_ = ctx->method();
    call_.peer = ctx->peer();
    {
        std::lock_guard<std::mutex> lk(s_->mu);
        s_->live++;
    }
    s_->calls++;
    StartRead(&req_);
}

void UnaryReactor::OnCancel() { call_.cancelled = true; }

void UnaryReactor::OnReadDone(bool ok) {
    call_.receive_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - call_.t_start).count();
    if (!ok) {
        // No request message: the client half-closed without one, cancelled, or the message was
        // refused by the transport (over the size limit: gRPC reports that to the client itself).
        Finish(status(grpc::StatusCode::INVALID_ARGUMENT, "no request message received"));
        return;
    }
    cgrpc_mode mode = s_->classify(s_->user, method_.c_str());
    if (mode == CGRPC_UNKNOWN) {
        s_->unimplemented++;
        Finish(status(grpc::StatusCode::UNIMPLEMENTED, "unknown method " + method_));
        return;
    }
    if (mode == CGRPC_INLINE) {
        Run();
        return;
    }
    {
        std::lock_guard<std::mutex> lk(s_->mu);
        if (s_->blocking_now >= s_->max_blocking) {
            s_->blocking_refused++;
            Finish(status(grpc::StatusCode::RESOURCE_EXHAUSTED,
                          "too many waiting calls (limit " + std::to_string(s_->max_blocking) + ")"));
            return;
        }
        s_->blocking_now++;
    }
    blocking_ = true;
    try {
        std::thread([this] { Run(); }).detach();
    } catch (...) {
        {
            std::lock_guard<std::mutex> lk(s_->mu);
            s_->blocking_now--;
        }
        blocking_ = false;
        Finish(status(grpc::StatusCode::RESOURCE_EXHAUSTED, "cannot start a thread for the call"));
    }
}

static void free_body(void *p) { std::free(p); }

void UnaryReactor::Run() {
    cgrpc_reply out;
    std::memset(&out, 0, sizeof out);
    grpc::Slice &flat = call_.flat;
    const uint8_t *data = nullptr;
    size_t len = 0;
    if (req_.Length() > 0) {
        const auto t0 = std::chrono::steady_clock::now();
        const bool ok = req_.DumpToSingleSlice(&flat).ok();
        call_.flatten_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
        if (!ok) {
            out.code = CGRPC_INTERNAL;
            std::snprintf(out.msg, sizeof out.msg, "cannot read the request message");
        } else {
            data = flat.begin();
            len = flat.size();
        }
    }
    if (out.code == CGRPC_OK)
        s_->handle(s_->user, &call_, method_.c_str(), data, len, &out);
    req_.Clear();
    flat = grpc::Slice();
    if (blocking_) {
        std::lock_guard<std::mutex> lk(s_->mu);
        s_->blocking_now--;
    }
    if (out.code != CGRPC_OK) {
        std::free(out.body);
        out.msg[sizeof out.msg - 1] = 0;
        Finish(status(static_cast<grpc::StatusCode>(out.code), out.msg));
        return;
    }
    if (out.body && out.body_len) {
        grpc::Slice s(out.body, out.body_len, free_body);
        resp_ = grpc::ByteBuffer(&s, 1);
    } else {
        std::free(out.body);
        grpc::Slice s;
        resp_ = grpc::ByteBuffer(&s, 1);
    }
    StartWriteAndFinish(&resp_, grpc::WriteOptions(), grpc::Status::OK);
}

void UnaryReactor::OnDone() {
    cgrpc_server *s = s_;
    delete this;
    std::lock_guard<std::mutex> lk(s->mu);
    s->live--;
    s->cv.notify_all();
}

} // namespace

extern "C" cgrpc_server *cgrpc_start(const cgrpc_opts *o, cgrpc_classify_fn classify, cgrpc_handle_fn handle,
                                     void *user, char *err, size_t err_cap) {
    cgrpc_server *s = nullptr;
    try {
        s = new cgrpc_server();
        s->classify = classify;
        s->handle = handle;
        s->user = user;
        if (o->max_blocking_calls > 0)
            s->max_blocking = o->max_blocking_calls;
        s->service.reset(new Service(s));
        grpc::ServerBuilder b;
        std::vector<int> ports(o->n_listen, 0);
        for (int i = 0; i < o->n_listen; i++)
            b.AddListeningPort(o->listen[i], grpc::InsecureServerCredentials(), &ports[i]);
        int lim = o->max_message_bytes > 0x7fffffff ? 0x7fffffff : (int)o->max_message_bytes;
        b.SetMaxReceiveMessageSize(lim);
        b.SetMaxSendMessageSize(lim);
        b.AddChannelArgument(GRPC_ARG_ALLOW_REUSEPORT, 0);
        b.RegisterCallbackGenericService(s->service.get());
        s->server = b.BuildAndStart();
        if (!s->server) {
            std::string all;
            for (int i = 0; i < o->n_listen; i++) all += (i ? ", " : "") + std::string(o->listen[i]);
            std::snprintf(err, err_cap, "cannot listen on %s (address in use, bad address, or no permission)",
                          all.c_str());
            delete s;
            return nullptr;
        }
        for (int i = 0; i < o->n_listen; i++) {
            if (ports[i] == 0) {
                std::snprintf(err, err_cap, "cannot listen on %s", o->listen[i]);
                s->server->Shutdown();
                s->server->Wait();
                delete s;
                return nullptr;
            }
        }
        return s;
    } catch (const std::exception &e) {
        std::snprintf(err, err_cap, "gRPC server: %s", e.what());
    } catch (...) {
        std::snprintf(err, err_cap, "gRPC server: unknown failure");
    }
    delete s;
    return nullptr;
}

extern "C" void cgrpc_set_log(cgrpc_log_fn fn) {
    g_log_fn = fn;
    // every line reaches the bridge, which hands it to fn with its severity (fn filters); set once
    // before gRPC initializes, so GRPC_VERBOSITY is not read
    gpr_set_log_verbosity(GPR_LOG_SEVERITY_DEBUG);
    gpr_set_log_function(log_bridge);
}

extern "C" int cgrpc_call_cancelled(const cgrpc_call *call) { return call->cancelled.load() ? 1 : 0; }

extern "C" const char *cgrpc_call_peer(const cgrpc_call *call) { return call->peer.c_str(); }

extern "C" double cgrpc_call_flatten_ms(const cgrpc_call *call) { return call ? call->flatten_ms : 0; }
extern "C" double cgrpc_call_receive_ms(const cgrpc_call *call) { return call ? call->receive_ms : 0; }

extern "C" void *cgrpc_call_keep_request(cgrpc_call *call) {
    if (!call || call->flat.size() == 0) return nullptr;
    try {
        return new grpc::Slice(call->flat); // one more reference to the same bytes, no copy
    } catch (...) {
        return nullptr;
    }
}

extern "C" void cgrpc_request_release(void *kept) { delete static_cast<grpc::Slice *>(kept); }

extern "C" void cgrpc_shutdown(cgrpc_server *s, uint64_t grace_ms) {
    if (!s || !s->server)
        return;
    s->shutting_down = true;
    s->server->Shutdown(std::chrono::system_clock::now() + std::chrono::milliseconds(grace_ms));
    s->server->Wait();
    std::unique_lock<std::mutex> lk(s->mu);
    s->cv.wait(lk, [s] { return s->live == 0 && s->blocking_now == 0; });
}

extern "C" void cgrpc_destroy(cgrpc_server *s) { delete s; }

extern "C" void cgrpc_get_stats(cgrpc_server *s, cgrpc_stats *out) {
    out->calls = s->calls;
    out->unimplemented = s->unimplemented;
    out->blocking_refused = s->blocking_refused;
    std::lock_guard<std::mutex> lk(s->mu);
    out->blocking_now = s->blocking_now;
}
