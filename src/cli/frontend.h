/* What every cuzk front-end program does first (the `cuzk` CLI, `cuzk-bench`): route the
 * library's log to stderr as one "cuzk: warning: ..." line each (-q / --quiet anywhere in argv
 * silences it; CUZK_VERBOSE=1 adds the informational notices), and on SIGINT/SIGTERM/SIGHUP
 * remove the temporaries of outputs being written (cuzk_remove_partial_outputs), then die of the
 * signal (exit 130 / 143 / 129 as the shell reports it). Call once, at the start of main, before
 * other threads exist. */
#ifndef CUZK_CLI_FRONTEND_H
#define CUZK_CLI_FRONTEND_H

void cli_frontend_init(int argc, char **argv);

#endif
