/* `cuzk bench ...`: benchmarks of every layer, medians of repeats. Results are tracked in
 * bench/RESULTS.md; benchmarks never pass or fail. */
#ifndef CUZK_BENCH_BENCH_H
#define CUZK_BENCH_BENCH_H
/* argv[0] is "bench"; returns the process exit code. */
int cuzk_bench_main(int argc, char **argv);

/* Strict option values for the benchmarks: the whole string must be a number within [lo, hi];
 * otherwise prints "cuzk bench: <opt> must be ... (got '<s>')" on stderr and returns 0. */
int bench_parse_long(const char *opt, const char *s, long lo, long hi, long *out);
int bench_parse_double(const char *opt, const char *s, double lo, double hi, double *out);

/* The GPU MSM tuning from the environment ($CUZK_MSM_WINDOW, $CUZK_MSM_CHUNK): cli_msm_from_env
 * of src/cli/frontend.h, shared with the CLI (the library itself reads neither). */

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
} post_prove_opts;
int post_prove_run(const post_prove_opts *o);
#endif
