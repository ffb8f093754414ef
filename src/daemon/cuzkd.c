/* cuzkd: the cuzk proving daemon. Serves cuzk.v1.ProvingEngine over gRPC (unix socket and TCP),
 * Prometheus /metrics and JSON /status over HTTP. See README.md, section "cuzkd".
 *
 *   cuzkd --config /etc/cuzk/cuzkd.toml            run
 *   cuzkd --config /etc/cuzk/cuzkd.toml --check-config
 *
 * Exit codes: 0 clean shutdown (SIGTERM/SIGINT) or config OK, 1 runtime failure (cannot listen,
 * preload failed), 2 usage or configuration error. */
#include "cgrpc.h"
#include "config.h"
#include "cuzk/cuzk.h"
#include "dlog.h"
#include "dprover.h"
#include "http.h"
#include "jobs.h"
#include "service.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static void usage(FILE *f) {
    fprintf(f,
            "usage: cuzkd [--config FILE] [--check-config]\n"
            "  --config FILE     TOML configuration (default /etc/cuzk/cuzkd.toml)\n"
            "  --check-config    validate the configuration (and the circuits' files) and exit\n"
            "  --version         print the version\n"
            "Serves cuzk.v1.ProvingEngine (gRPC) on server.listen, /metrics and /status on server.http.\n"
            "SIGTERM/SIGINT: stop taking jobs, let running ones finish for jobs.shutdown_grace_s, cancel the\n"
            "rest, exit 0 (a second signal cancels at once).\n");
}

static void lib_log(void *user, cuzk_log_level level, const char *msg) {
    (void)user;
    dlog((int)level, "cuzk: %s", msg);
}

/* "unix:///p", "unix:/p" -> "/p"; NULL for TCP. */
static const char *unix_path(const char *addr) {
    if (strncmp(addr, "unix:", 5) != 0) return NULL;
    const char *p = addr + 5;
    while (p[0] == '/' && p[1] == '/') p++;
    return p;
}

int main(int argc, char **argv) {
    const char *cfg_path = "/etc/cuzk/cuzkd.toml";
    int check_only = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--config") == 0 && i + 1 < argc) cfg_path = argv[++i];
        else if (strncmp(argv[i], "--config=", 9) == 0) cfg_path = argv[i] + 9;
        else if (strcmp(argv[i], "--check-config") == 0) check_only = 1;
        else if (strcmp(argv[i], "--version") == 0) { printf("cuzkd %s (prover: %s)\n", CUZK_VERSION, dp_impl_name()); return 0; }
        else if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) { usage(stdout); return 0; }
        else { fprintf(stderr, "cuzkd: unknown argument %s\n", argv[i]); usage(stderr); return 2; }
    }
    dcfg cfg;
    char err[1024];
    if (dcfg_load(&cfg, cfg_path, err, sizeof err)) {
        fprintf(stderr, "cuzkd: configuration error: %s\n", err);
        return 2;
    }
    dlog_set_level(cfg.log_level);
    cuzk_set_log(lib_log, NULL, (cuzk_log_level)cfg.log_level);
    if (check_only) {
        printf("cuzkd: %s: OK: %d listen address(es), %d circuit(s), http %s\n", cfg_path, cfg.n_listen,
               cfg.n_circuits, cfg.http ? cfg.http : "off");
        dcfg_free(&cfg);
        return 0;
    }

    /* Signals: blocked in every thread (gRPC's included: they inherit this mask), taken by sigwait. */
    sigset_t sigs;
    sigemptyset(&sigs);
    sigaddset(&sigs, SIGINT);
    sigaddset(&sigs, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &sigs, NULL);
    signal(SIGPIPE, SIG_IGN);

    int rc = 1;
    int *lock_fds = calloc(cfg.n_listen, sizeof(int));
    for (int i = 0; i < cfg.n_listen; i++) lock_fds[i] = -1;
    jobs *J = NULL;
    cgrpc_server *srv = NULL;
    dhttp *http = NULL;
    service svc = {&cfg, NULL, NULL};

    /* One daemon per socket: gRPC unlinks a live socket before binding, so a second instance would
     * silently steal it. A lock next to the socket refuses the second one instead. */
    for (int i = 0; i < cfg.n_listen; i++) {
        const char *p = unix_path(cfg.listen[i]);
        if (!p) continue;
        char lp[4200];
        snprintf(lp, sizeof lp, "%s.lock", p);
        lock_fds[i] = open(lp, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
        if (lock_fds[i] < 0) {
            dlog(DLOG_ERROR, "cannot open the socket lock %s: %s", lp, strerror(errno));
            goto out;
        }
        if (flock(lock_fds[i], LOCK_EX | LOCK_NB) != 0) {
            dlog(DLOG_ERROR, "another cuzkd is serving %s (lock %s is held): refusing to start", p, lp);
            close(lock_fds[i]);
            lock_fds[i] = -1;
            goto out;
        }
    }

    J = jobs_create(&cfg);
    if (!J) { dlog(DLOG_ERROR, "out of memory"); goto out; }
    svc.J = J;
    for (int i = 0; i < cfg.n_circuits; i++) {
        if (!cfg.circuits[i].preload) continue;
        int already;
        uint64_t ms;
        char msg[600];
        int st = jobs_preload(J, cfg.circuits[i].id, &already, &ms, msg, sizeof msg);
        if (st != CGRPC_OK) {
            dlog(DLOG_ERROR, "preload of circuit %s failed: %s", cfg.circuits[i].id, msg);
            goto out;
        }
    }

    cgrpc_opts o;
    memset(&o, 0, sizeof o);
    o.listen = (const char *const *)cfg.listen;
    o.n_listen = cfg.n_listen;
    o.max_message_bytes = cfg.max_message_bytes;
    o.max_blocking_calls = (int)cfg.max_waiting_calls;
    srv = cgrpc_start(&o, service_classify, service_handle, &svc, err, sizeof err);
    if (!srv) {
        dlog(DLOG_ERROR, "%s", err);
        goto out;
    }
    svc.server = srv;
    for (int i = 0; i < cfg.n_listen; i++) {
        const char *p = unix_path(cfg.listen[i]);
        if (p && cfg.socket_mode >= 0 && chmod(p, (mode_t)cfg.socket_mode) != 0)
            dlog(DLOG_WARN, "chmod %s: %s", p, strerror(errno));
        dlog(DLOG_INFO, "listening on %s", cfg.listen[i]);
    }
    if (cfg.http) {
        http = dhttp_start(cfg.http, &svc, err, sizeof err);
        if (!http) {
            dlog(DLOG_ERROR, "%s", err);
            goto out;
        }
        dlog(DLOG_INFO, "http /metrics and /status on %s", cfg.http);
    }
    dlog(DLOG_INFO, "cuzkd %s ready: %d circuit(s), %d worker(s), backend %s, prover %s", CUZK_VERSION,
         cfg.n_circuits, cfg.workers, cfg.backend, dp_impl_name());
    printf("cuzkd: ready\n");
    fflush(stdout);

    int sig = 0;
    sigwait(&sigs, &sig);
    dlog(DLOG_INFO, "%s: no new jobs; waiting up to %llu ms for jobs in flight", sig == SIGTERM ? "SIGTERM" : "SIGINT",
         (unsigned long long)cfg.grace_ms);
    jobs_begin_shutdown(J);
    double deadline = jobs_now_ms() + (double)cfg.grace_ms;
    int idle = 0;
    for (;;) {
        double step = jobs_now_ms() + 200;
        if ((idle = jobs_wait_idle(J, step < deadline ? step : deadline))) break;
        if (jobs_now_ms() >= deadline) break;
        struct timespec zero = {0, 0};
        if (sigtimedwait(&sigs, NULL, &zero) > 0) {
            dlog(DLOG_INFO, "second signal: cancelling at once");
            break;
        }
    }
    if (!idle) {
        dlog(DLOG_INFO, "cancelling the jobs still in flight");
        jobs_cancel_all(J);
        jobs_wait_idle(J, jobs_now_ms() + 10000);
    }
    rc = 0;
out:
    if (srv) {
        cgrpc_shutdown(srv, 2000);
        cgrpc_destroy(srv);
    }
    dhttp_stop(http);
    jobs_destroy(J);
    for (int i = 0; i < cfg.n_listen; i++) {
        if (lock_fds[i] < 0) continue;
        const char *p = unix_path(cfg.listen[i]);
        unlink(p); /* ours: we held its lock */
        close(lock_fds[i]);
    }
    free(lock_fds);
    if (rc == 0) dlog(DLOG_INFO, "stopped");
    dcfg_free(&cfg);
    return rc;
}
