/* `cuzk bench ...`: the benchmarks are their own executable, cuzk-bench (built from bench/, which
 * measures internal layers and so links the internal library), installed next to cuzk. */
#ifndef CUZK_CLI_BENCH_EXEC_H
#define CUZK_CLI_BENCH_EXEC_H

/* argv[0] is "bench", argv[1..] the benchmark and its options. Replaces the process with
 * cuzk-bench: first the one in the directory of this executable (/proc/self/exe), else the first
 * on $PATH, with argv[0] = "cuzk-bench" and the same arguments after it; the exit code is then
 * cuzk-bench's. Returns only on failure: prints one line on stderr and returns 4 (the install is
 * incomplete). */
int cli_exec_bench(int argc, char **argv);

#endif
