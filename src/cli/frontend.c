#include "frontend.h"

#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/cuzk.h"
#include "cuzk/groth16.h"

static void on_fatal_signal(int sig) {
    cuzk_remove_partial_outputs();
    signal(sig, SIG_DFL);
    raise(sig);
}

/* Errors and warnings always; informational notices (e.g. "no GPU found: proving on the CPU")
 * only with CUZK_VERBOSE=1: a command's own summary line says which backend ran, and an error
 * stays one line. */
static void log_to_stderr(void *user, cuzk_log_level level, const char *msg) {
    (void)user;
    fprintf(stderr, "cuzk: %s%s\n", level == CUZK_LOG_ERROR ? "error: " : level == CUZK_LOG_WARN ? "warning: " : "", msg);
}

static int env_long(const char *name, const char *prog, long lo, long hi, long *out);

int cli_threads_from_env(const char *prog) {
    long t;
    if (!env_long("CUZK_THREADS", prog, 0, 4096, &t)) return 0;
    if (t > 0) cuzk_set_threads((int)t);
    return 1;
}

int cli_frontend_init(int argc, char **argv, const char *prog) {
    bool quiet = false;
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "-q") || !strcmp(argv[i], "--quiet")) quiet = true;
    const char *verbose = getenv("CUZK_VERBOSE");
    if (!quiet) cuzk_set_log(log_to_stderr, NULL, verbose && *verbose && *verbose != '0' ? CUZK_LOG_DEBUG : CUZK_LOG_WARN);
    if (!cli_threads_from_env(prog)) return 0;
    signal(SIGINT, on_fatal_signal);
    signal(SIGTERM, on_fatal_signal);
    signal(SIGHUP, on_fatal_signal);
    return 1;
}

static int env_long(const char *name, const char *prog, long lo, long hi, long *out) {
    const char *s = getenv(name);
    *out = 0;
    if (!s || !*s) return 1;
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno || end == s || *end || v < lo || v > hi) {
        fprintf(stderr, "%s: %s must be an integer from %ld to %ld (got '%s')\n", prog, name, lo, hi, s);
        return 0;
    }
    *out = v;
    return 1;
}

int cli_msm_accum_parse(const char *s, cuzk_gpu_msm_accum *out) {
    static const struct { const char *name; cuzk_gpu_msm_accum v; } names[] = {
        {"default", CUZK_GPU_MSM_ACCUM_DEFAULT}, {"tasks", CUZK_GPU_MSM_ACCUM_TASKS},
        {"runs", CUZK_GPU_MSM_ACCUM_RUNS}};
    for (size_t i = 0; s && i < sizeof names / sizeof *names; i++)
        if (!strcmp(s, names[i].name)) {
            *out = names[i].v;
            return 1;
        }
    return 0;
}

int cli_msm_from_env(cuzk_msm_opts *o, const char *prog) {
    long w, c, b2, rows;
    memset(o, 0, sizeof *o);
    if (!env_long("CUZK_MSM_WINDOW", prog, 2, 22, &w) || !env_long("CUZK_MSM_CHUNK", prog, 64, 2147483647L, &c) ||
        !env_long("CUZK_GPU_B2", prog, 0, 1, &b2) || !env_long("CUZK_GPU_ZKEY_ROWS", prog, 0, 1, &rows))
        return 0;
    /* $CUZK_GPU_ZKEY_ROWS: 0 keeps a .zkey's a/b on CPU threads; 1 or unset: its whole start on the
     * device when the rows fit (the default) */
    const char *rs = getenv("CUZK_GPU_ZKEY_ROWS");
    o->zkey_rows_on_gpu = rs && *rs && !rows ? -1 : (int)rows;
    o->window_bits = (int)w;
    o->chunk_points = (size_t)c;
    /* $CUZK_GPU_B2: 1 the GPU, 0 CPU threads, unset: automatic (the GPU when its query fits) */
    const char *b2s = getenv("CUZK_GPU_B2");
    o->b_g2_on_gpu = !b2s || !*b2s ? 0 : b2 ? 1 : -1;
    /* $CUZK_GPU_MSM_ACCUM: the G1 MSMs' bucket accumulation (the library reads none: it becomes a
     * field of the options) */
    const char *acc = getenv("CUZK_GPU_MSM_ACCUM");
    if (acc && *acc && !cli_msm_accum_parse(acc, &o->accumulation)) {
        if (!strcmp(acc, "affine"))
            fprintf(stderr, "%s: CUZK_GPU_MSM_ACCUM=affine: the GPU batch-affine accumulation was removed (it was "
                            "slower than tasks); CUZK_GPU_MSM_ACCUM must be tasks, runs or default\n", prog);
        else
            fprintf(stderr, "%s: CUZK_GPU_MSM_ACCUM must be tasks, runs or default (got '%s')\n", prog, acc);
        return 0;
    }
    return 1;
}
