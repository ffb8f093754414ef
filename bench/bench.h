/* `cuzk bench ...`: benchmarks of every layer, medians of repeats. Results are tracked in
 * bench/RESULTS.md; benchmarks never pass or fail. */
#ifndef CUZK_BENCH_BENCH_H
#define CUZK_BENCH_BENCH_H
/* argv[0] is "bench"; returns the process exit code. */
int cuzk_bench_main(int argc, char **argv);
#endif
