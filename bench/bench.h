/* `cuzk bench ...`: benchmarks of every layer, medians of repeats. Results are tracked in
 * bench/RESULTS.md; benchmarks never pass or fail.
 *
 * cuzk-bench is a front end like the cuzk CLI: it reaches the library through include/cuzk and,
 * for the kernels, synthetic circuits and fake devices it times beyond proving, the bench kit's
 * one header src/benchkit/benchkit.h (itself include/-only); tools/check-layers.sh holds it to
 * that. It links the static bench kit and core (cuzk_benchkit, cuzk_core), not libcuzk.so, whose
 * exports are the public API alone. Its own helpers are declared here. */
#ifndef CUZK_BENCH_BENCH_H
#define CUZK_BENCH_BENCH_H

#include <stddef.h>
#include <time.h>
/* argv[0] is "bench"; returns the process exit code. */
int bench_main(int argc, char **argv);

/* Strict option values for the benchmarks: the whole string must be a number within [lo, hi];
 * otherwise prints "cuzk bench: <opt> must be ... (got '<s>')" on stderr and returns 0. */
int bench_parse_long(const char *opt, const char *s, long lo, long hi, long *out);
int bench_parse_double(const char *opt, const char *s, double lo, double hi, double *out);

/* Host figures from /proc (bench/bench.c), for the memory lines of the reports:
 * MemAvailable of /proc/meminfo in bytes (-1: unknown); this process's VmRSS and VmHWM (peak) in
 * KiB (-1: unknown). */
double bench_mem_available_bytes(void);
long bench_rss_kib(void);
long bench_peak_rss_kib(void);

/* qsort comparator of doubles, and the median of v[0..n) (sorts v in place; 0 when n is 0). */
int bench_cmp_double(const void *a, const void *b);
double bench_median(double *v, size_t n);

/* Monotonic wall clock in milliseconds. */
static inline double bench_now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

/* The GPU MSM tuning from the environment ($CUZK_MSM_WINDOW, $CUZK_MSM_CHUNK, $CUZK_GPU_B2):
 * cli_msm_from_env of src/cli/frontend.h, shared with the CLI (the library itself reads none). */

/* cuzk bench post --prove (bench/post_prove.c): whole PoSt proofs in one process. */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
typedef struct post_prove_opts {
    const char *circuit;       /* window-post-SIZE / winning-post-SIZE */
    uint32_t sectors;          /* 0: the real count */
    const char **vproofs;      /* vanilla-proof files, one partition's worth (padded with the last) */
    size_t n_vproofs;
    uint8_t randomness[32];
    const char *backend;       /* cpu | gpu | auto */
    int threads;               /* 0: all CPUs */
    int repeat;                /* jobs after the warm-up job (0: one job) */
    uint64_t seed;             /* toxic-waste seed of the test parameters */
    int check_witness;         /* the engine checks every constraint after synthesis */
    double gpu_budgets[8];     /* the engine's GPU budget per run, GiB (0: the device's free memory;
                                  issue 23's memory plan streams what does not fit): one engine,
                                  preload and job set each, over the same record and parameters */
    int n_budgets;             /* 0 or 1: one run */
} post_prove_opts;
int post_prove_run(const post_prove_opts *o);

/* cuzk bench porep --prove (bench/porep_prove.c): whole PoRep C2 proofs in one process. */
typedef struct porep_prove_opts {
    uint64_t registered_proof; /* RegisteredSealProof 0..14 (8: 32 GiB V1_1) */
    const char *c1;            /* a C1 output file, or NULL: a sparse consistent C1 made in memory */
    const char *backend;       /* cpu | gpu | auto */
    int threads;               /* 0: all CPUs */
    int synthesis_workers;     /* partitions synthesized at once */
    int proofs;                /* sectors proved one after the other (1: one) */
    uint64_t seed;             /* toxic-waste seed of the test parameters */
    int check_witness;
} porep_prove_opts;
int porep_prove_run(const porep_prove_opts *o);
int bench_porep_main(int argc, char **argv); /* bench/porep_prove.c */

/* Shared by the whole-proof benches (bench/post_prove.c): "stage:" lines (+seconds since
 * g_run_t0, the stage, its wall ms, flushed at once), and the setup's progress callback whose user
 * is a setup_prog (the progress line plus a stage line when each setup stage ends). */
struct progress;
typedef struct setup_prog {
    struct progress *bar;
    char stage[48];
    uint64_t done, total;
    double t_stage, t_step, t_last_line;
} setup_prog;
extern double g_run_t0;
void stage_line(const char *name, double ms, const char *note);
void setup_progress(void *user, const char *stage, uint64_t done, uint64_t total);
#endif
