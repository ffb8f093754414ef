#include "frontend.h"

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

void cli_frontend_init(int argc, char **argv) {
    bool quiet = false;
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "-q") || !strcmp(argv[i], "--quiet")) quiet = true;
    const char *verbose = getenv("CUZK_VERBOSE");
    if (!quiet) cuzk_set_log(log_to_stderr, NULL, verbose && *verbose && *verbose != '0' ? CUZK_LOG_DEBUG : CUZK_LOG_WARN);
    signal(SIGINT, on_fatal_signal);
    signal(SIGTERM, on_fatal_signal);
    signal(SIGHUP, on_fatal_signal);
}
