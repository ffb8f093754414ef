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
#endif
