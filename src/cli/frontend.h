/* What every cuzk front-end program does first (the `cuzk` CLI, `cuzk-bench`): route the
 * library's log to stderr as one "cuzk: warning: ..." line each (-q / --quiet anywhere in argv
 * silences it; CUZK_VERBOSE=1 adds the informational notices), map $CUZK_THREADS (an integer
 * from 0 to 4096, as --threads; unset, empty or 0: all CPUs) onto cuzk_set_threads, and on SIGINT/SIGTERM/SIGHUP remove
 * the temporaries of outputs being written (cuzk_remove_partial_outputs), then die of the signal
 * (exit 130 / 143 / 129 as the shell reports it). Call once, at the start of main, before other
 * threads exist. Uses the public API only (include/cuzk/), like the programs that call it. */
#ifndef CUZK_CLI_FRONTEND_H
#define CUZK_CLI_FRONTEND_H

#include "cuzk/prover.h"

/* Returns 1, or 0 after printing "<prog>: CUZK_THREADS must be an integer from 0 to 4096 (got
 * '...')" on stderr when $CUZK_THREADS is malformed or out of range (the caller exits 2). */
int cli_frontend_init(int argc, char **argv, const char *prog);

/* $CUZK_THREADS alone, checked as above, onto cuzk_set_threads: 1 ok, 0 bad (message printed). */
int cli_threads_from_env(const char *prog);

/* The GPU MSM tuning from the environment (the library reads none): $CUZK_MSM_WINDOW (window
 * bits, 2..22), $CUZK_MSM_CHUNK (tail points per pass, 64..2^31-1), $CUZK_GPU_B2 (1: B_G2 MSM on
 * the GPU, cuzk_msm_opts.b_g2_on_gpu = 1; 0: on CPU threads, -1), $CUZK_GPU_MSM_ACCUM (the G1
 * MSMs' bucket accumulation, cuzk_msm_opts.accumulation: tasks, runs or default; "affine", the
 * removed batch-affine accumulation, is refused with a message that says so) into *o; unset or
 * empty: 0 (automatic; for B_G2: the GPU when its query fits). A bad value prints "<prog>:
 * CUZK_MSM_WINDOW must be an integer from 2 to 22 (got '...')" on stderr and returns 0 (the caller
 * exits 2); else 1. */
int cli_msm_from_env(cuzk_msm_opts *o, const char *prog);

/* The accumulation named s ("tasks", "runs", "default") into *out: 1, or 0 for another name or
 * NULL (*out unchanged). */
int cli_msm_accum_parse(const char *s, cuzk_gpu_msm_accum *out);

#endif
