/* What every cuzk front-end program does first (the `cuzk` CLI, `cuzk-bench`): route the
 * library's log to stderr as one "cuzk: warning: ..." line each (-q / --quiet anywhere in argv
 * silences it; CUZK_VERBOSE=1 adds the informational notices), map $CUZK_THREADS (a positive
 * integer; anything else is ignored) onto cuzk_set_threads, and on SIGINT/SIGTERM/SIGHUP remove
 * the temporaries of outputs being written (cuzk_remove_partial_outputs), then die of the signal
 * (exit 130 / 143 / 129 as the shell reports it). Call once, at the start of main, before other
 * threads exist. Uses the public API only (include/cuzk/), like the programs that call it. */
#ifndef CUZK_CLI_FRONTEND_H
#define CUZK_CLI_FRONTEND_H

#include "cuzk/prover.h"

void cli_frontend_init(int argc, char **argv);

/* The GPU MSM tuning from the environment (the library reads none): $CUZK_MSM_WINDOW (window
 * bits, 2..22) and $CUZK_MSM_CHUNK (tail points per pass, 64..2^31-1) into *o; unset or empty:
 * 0 (automatic). A bad value prints "<prog>: CUZK_MSM_WINDOW must be an integer from 2 to 22
 * (got '...')" on stderr and returns 0 (the caller exits 2); else 1. */
int cli_msm_from_env(cuzk_msm_opts *o, const char *prog);

#endif
