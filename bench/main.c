/* cuzk-bench: the benchmarks (`cuzk bench ...` runs this executable; see bench.h). A program of
 * its own next to the cuzk CLI, a front end like it: the public API (include/cuzk) and the kernel
 * timings and synthetic circuits of the bench kit (src/benchkit/benchkit.h), linked statically
 * against the bench kit and the core (not libcuzk.so). */
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "../src/cli/frontend.h" /* the front ends' shared start-up (public API only) */
#include "cuzk/cuzk.h"
#include "cuzk/groth16.h"

int main(int argc, char **argv) {
    if (!cli_frontend_init(argc, argv, "cuzk-bench")) return 2;
    /* bench_main wants argv[0] = "bench", argv[1] = the benchmark */
    argv[0] = "bench";
    return bench_main(argc, argv);
}
