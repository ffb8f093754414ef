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

#ifndef CUZK_GIT_HASH
#define CUZK_GIT_HASH "none (not built from git)"
#endif

static void usage(FILE *f) {
    fprintf(f,
            "usage: cuzkd [--config FILE] [--check-config]\n"
            "  --config FILE     TOML configuration (default /etc/cuzk/cuzkd.toml)\n"
            "  --check-config    validate the configuration and the circuits' files (preloaded ones are loaded;\n"
            "                    the others' headers checked: size, counts, circuit) and exit\n"
            "  --version         print the version and the git commit it was built from\n"
            "Serves cuzk.v1.ProvingEngine (gRPC) on server.listen, /metrics and /status on server.http.\n"
            "SIGTERM/SIGINT: stop taking jobs, let running ones finish for jobs.shutdown_grace_s, cancel the\n"
            "rest, exit 0 (a second signal cancels at once).\n"
            "Every setting, with its default and meaning: src/daemon/cuzkd.example.toml in the source tree\n"
            "(installed as share/doc/cuzk/cuzkd.example.toml); a one-circuit start: src/daemon/cuzkd.demo.toml.\n");
}

static void lib_log(void *user, cuzk_log_level level, const char *msg) {
    (void)user;
    dlog((int)level, "cuzk: %s", msg);
}

/* gRPC's own lines: its errors as warnings, the rest at debug (silent at the default level). */
static void grpc_log(int severity, const char *file, int line, const char *msg) {
    const char *base = strrchr(file, '/');
    dlog(severity == 2 ? DLOG_WARN : DLOG_DEBUG, "grpc: %s (%s:%d)", msg, base ? base + 1 : file, line);
}

/* "unix:///p", "unix:/p" -> "/p"; NULL for TCP. */
static const char *unix_path(const char *addr) {
    if (strncmp(addr, "unix:", 5) != 0) return NULL;
    const char *p = addr + 5;
    while (p[0] == '/' && p[1] == '/') p++;
    return p;
}

/* What a start would fail on before binding: a unix socket whose directory is missing, or a file
 * that is not a socket at the socket path. 0 or -1 with err set. */
static int check_listen_paths(const dcfg *cfg, char *err, size_t cap) {
    for (int i = 0; i < cfg->n_listen; i++) {
        const char *p = unix_path(cfg->listen[i]);
        if (!p) continue;
        char dir[128]; /* dcfg_load refused paths of 108 bytes or more */
        size_t dl = (size_t)(strrchr(p, '/') - p);
        snprintf(dir, sizeof dir, "%.*s", (int)(dl ? dl : 1), p);
        struct stat st;
        if (stat(dir, &st) != 0) {
            snprintf(err, cap, "server.listen: %s: the socket's directory %s: %s", cfg->listen[i], dir,
                     strerror(errno));
            return -1;
        }
        if (!S_ISDIR(st.st_mode)) {
            snprintf(err, cap, "server.listen: %s: %s is not a directory", cfg->listen[i], dir);
            return -1;
        }
        if (lstat(p, &st) == 0 && !S_ISSOCK(st.st_mode)) {
            snprintf(err, cap, "server.listen: %s exists and is not a socket: refusing to start (nothing was changed)",
                     p);
            return -1;
        }
    }
    return 0;
}

int main(int argc, char **argv) {
    const char *cfg_path = "/etc/cuzk/cuzkd.toml";
    int check_only = 0;
    for (int i = 1; i < argc; i++) {
        const char *val = NULL;
        if (strcmp(argv[i], "--config") == 0) val = i + 1 < argc ? argv[++i] : "";
        else if (strncmp(argv[i], "--config=", 9) == 0) val = argv[i] + 9;
        if (val) {
            if (!*val) {
                fprintf(stderr, "cuzkd: --config needs a file name (--config /etc/cuzk/cuzkd.toml)\n");
                return 2;
            }
            cfg_path = val;
        } else if (strcmp(argv[i], "--check-config") == 0) check_only = 1;
        else if (strcmp(argv[i], "--version") == 0) {
            printf("cuzkd %s (git %s; prover: %s)\n", cuzk_version_string(), cuzk_git_commit(), dp_impl_name());
            return 0;
        }
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
    cgrpc_set_log(grpc_log); /* before gRPC starts: none of its lines reach stderr raw */
    {
        /* the library reads no environment: $CUZK_THREADS caps its default thread count here */
        const char *threads = getenv("CUZK_THREADS");
        if (threads && *threads) {
            char *end;
            errno = 0;
            long t = strtol(threads, &end, 10);
            if (errno || end == threads || *end || t < 0 || t > 4096) {
                fprintf(stderr, "cuzkd: CUZK_THREADS must be an integer from 0 to 4096 (got '%s')\n", threads);
                dcfg_free(&cfg);
                return 2;
            }
            if (t > 0) cuzk_set_threads((int)t);
        }
    }
    if (check_listen_paths(&cfg, err, sizeof err)) {
        if (check_only) fprintf(stderr, "cuzkd: %s: configuration error: %s\n", cfg_path, err);
        else dlog(DLOG_ERROR, "%s", err);
        dcfg_free(&cfg);
        return check_only ? 2 : 1;
    }
    if (check_only) {
        /* the same loader as preload: a key that would stop the start stops the check too */
        jobs *CJ = cfg.n_circuits ? jobs_create(&cfg, err, sizeof err) : NULL;
        if (cfg.n_circuits && !CJ) {
            fprintf(stderr, "cuzkd: %s: %s\n", cfg_path, err);
            dcfg_free(&cfg);
            return 2;
        }
        for (int i = 0; i < cfg.n_circuits; i++) {
            if (!cfg.circuits[i].preload) {
                /* not loaded at the start: its files' headers are checked (sizes, counts, circuit) */
                cuzk_error kerr;
                memset(&kerr, 0, sizeof kerr);
                if (dp_key_files_check(&cfg.circuits[i], &kerr) != CUZK_OK) {
                    fprintf(stderr, "cuzkd: %s: circuit %s: %s (preload = false: the daemon would start, and every "
                            "job of this circuit would fail)\n", cfg_path, cfg.circuits[i].id, kerr.msg);
                    jobs_destroy(CJ);
                    dcfg_free(&cfg);
                    return 2;
                }
                continue;
            }
            char msg[600];
            int pr = jobs_preload_at_start(CJ, cfg.circuits[i].id, msg, sizeof msg);
            if (pr == 1) /* the daemon would start and serve the rest */
                fprintf(stderr, "cuzkd: %s: warning: preload of circuit %s failed: %s\n", cfg_path, cfg.circuits[i].id, msg);
            if (pr < 0) {
                fprintf(stderr, "cuzkd: %s: preload of circuit %s failed: %s\n", cfg_path, cfg.circuits[i].id, msg);
                jobs_destroy(CJ);
                dcfg_free(&cfg);
                return 2;
            }
        }
        jobs_destroy(CJ);
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
    /* the socket each unix address got from our bind (device, inode); bound[i] = 0: none */
    struct stat *sock_st = calloc(cfg.n_listen, sizeof *sock_st);
    int *bound = calloc(cfg.n_listen, sizeof(int));
    if (!lock_fds || !sock_st || !bound) {
        dlog(DLOG_ERROR, "out of memory");
        free(lock_fds);
        free(sock_st);
        free(bound);
        dcfg_free(&cfg);
        return 1;
    }
    for (int i = 0; i < cfg.n_listen; i++) lock_fds[i] = -1;
    jobs *J = NULL;
    cgrpc_server *srv = NULL;
    dhttp *http = NULL;
    service svc = {&cfg, NULL, NULL};

    /* check_listen_paths above refused a non-socket file at a socket path before any lock file was
     * created, so a refused start changes nothing on disk; the exit below unlinks only our socket. */
    /* One daemon per socket: gRPC unlinks a live socket before binding, so a second instance would
     * silently steal it. A lock next to the socket refuses the second one instead. The holder may
     * unlink the lock file at exit, so after taking the lock we check that the file we locked is
     * still the one at the path (else another holder removed it between our open and flock). */
    for (int i = 0; i < cfg.n_listen; i++) {
        const char *p = unix_path(cfg.listen[i]);
        if (!p) continue;
        char lp[4200];
        snprintf(lp, sizeof lp, "%s.lock", p);
        for (int attempt = 0;; attempt++) {
            lock_fds[i] = open(lp, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
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
            struct stat fs, ps;
            if (fstat(lock_fds[i], &fs) == 0 && stat(lp, &ps) == 0 && fs.st_dev == ps.st_dev && fs.st_ino == ps.st_ino)
                break;
            close(lock_fds[i]);
            lock_fds[i] = -1;
            if (attempt == 10) {
                dlog(DLOG_ERROR, "the socket lock %s keeps changing: refusing to start", lp);
                goto out;
            }
        }
    }

    /* again under the locks: nothing may have appeared at a socket path since the first check */
    if (check_listen_paths(&cfg, err, sizeof err)) {
        dlog(DLOG_ERROR, "%s", err);
        goto out;
    }
    J = jobs_create(&cfg, err, sizeof err);
    if (!J) {
        dlog(DLOG_ERROR, "%s", err);
        goto out;
    }
    svc.J = J;
    jobs_check_key_files(J); /* the circuits not preloaded: their files' headers (errors logged, the rest served) */
    for (int i = 0; i < cfg.n_circuits; i++) {
        if (!cfg.circuits[i].preload) continue;
        char msg[600];
        int pr = jobs_preload_at_start(J, cfg.circuits[i].id, msg, sizeof msg);
        if (pr) dlog(DLOG_ERROR, "preload of circuit %s failed: %s%s", cfg.circuits[i].id, msg,
                     pr > 0 ? " (the daemon serves the other circuits; this one's jobs fail)" : "");
        if (pr < 0) goto out;
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
        if (p && lstat(p, &sock_st[i]) == 0 && S_ISSOCK(sock_st[i].st_mode)) bound[i] = 1;
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
    dlog(DLOG_INFO, "cuzkd %s (git %s) ready: %d circuit(s), %d worker(s), backend %s, prover %s", CUZK_VERSION,
         CUZK_GIT_HASH, cfg.n_circuits, cfg.workers, cfg.backend, dp_impl_name());
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
        /* only the socket our bind made (same inode), and only while holding its lock */
        struct stat st;
        if (bound[i] && lstat(p, &st) == 0 && S_ISSOCK(st.st_mode) && st.st_dev == sock_st[i].st_dev &&
            st.st_ino == sock_st[i].st_ino)
            unlink(p);
        /* the lock file: removed while we still hold it, if it is still the (empty) file we locked */
        char lp[4200];
        snprintf(lp, sizeof lp, "%s.lock", p);
        struct stat fs, ls;
        if (fstat(lock_fds[i], &fs) == 0 && lstat(lp, &ls) == 0 && S_ISREG(ls.st_mode) && ls.st_size == 0 &&
            fs.st_dev == ls.st_dev && fs.st_ino == ls.st_ino)
            unlink(lp);
        close(lock_fds[i]);
    }
    free(lock_fds);
    free(sock_st);
    free(bound);
    if (rc == 0) dlog(DLOG_INFO, "stopped");
    dcfg_free(&cfg);
    return rc;
}
