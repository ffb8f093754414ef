/* cuzk-bench: the benchmarks (`cuzk bench ...` runs this executable; see bench.h). A separate
 * program because the benchmarks time internal layers (fields, NTT, MSM, the engine) directly and
 * so link the internal static library, while the cuzk CLI uses only the public API. */
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "cuzk/cuzk.h"
#include "cuzk/groth16.h"

/* SIGINT/SIGTERM/SIGHUP: remove the temporaries of outputs being written (a trace), then die of
 * the signal, as the CLI does. */
static void on_fatal_signal(int sig) {
    cuzk_remove_partial_outputs();
    signal(sig, SIG_DFL);
    raise(sig);
}

/* The library's warnings on stderr as the CLI prints them (-q silences them; CUZK_VERBOSE=1 adds
 * its notices). */
static void log_to_stderr(void *user, cuzk_log_level level, const char *msg) {
    (void)user;
    fprintf(stderr, "cuzk: %s%s\n", level == CUZK_LOG_ERROR ? "error: " : level == CUZK_LOG_WARN ? "warning: " : "", msg);
}

int main(int argc, char **argv) {
    bool quiet = false;
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "-q") || !strcmp(argv[i], "--quiet")) quiet = true;
    const char *verbose = getenv("CUZK_VERBOSE");
    if (!quiet) cuzk_set_log(log_to_stderr, NULL, verbose && *verbose && *verbose != '0' ? CUZK_LOG_DEBUG : CUZK_LOG_WARN);
    signal(SIGINT, on_fatal_signal);
    signal(SIGTERM, on_fatal_signal);
    signal(SIGHUP, on_fatal_signal);
    /* cuzk_bench_main wants argv[0] = "bench", argv[1] = the benchmark */
    argv[0] = "bench";
    return cuzk_bench_main(argc, argv);
}
