/* cuzk-bench: the benchmarks (`cuzk bench ...` runs this executable; see bench.h). A separate
 * program because the benchmarks time internal layers (fields, NTT, MSM, the engine) directly and
 * so link the internal static library, while the cuzk CLI uses only the public API. */
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "cli/frontend.h"
#include "cuzk/cuzk.h"
#include "cuzk/groth16.h"

int main(int argc, char **argv) {
    cli_frontend_init(argc, argv);
    /* cuzk_bench_main wants argv[0] = "bench", argv[1] = the benchmark */
    argv[0] = "bench";
    return cuzk_bench_main(argc, argv);
}
