/* cli_exec_bench (bench_exec.h). */
#include "bench_exec.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define BENCH_BIN "cuzk-bench"

int cli_exec_bench(int argc, char **argv) {
    char **args = calloc((size_t)argc + 1, sizeof *args);
    if (!args) {
        fprintf(stderr, "cuzk bench: out of memory\n");
        return 4;
    }
    args[0] = BENCH_BIN;
    for (int i = 1; i < argc; i++) args[i] = argv[i];
    args[argc] = NULL;
    fflush(stdout);
    fflush(stderr);

    char self[PATH_MAX], path[PATH_MAX + sizeof BENCH_BIN + 1];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    int sibling_errno = ENOENT;
    path[0] = '\0';
    if (n > 0) {
        self[n] = '\0';
        char *slash = strrchr(self, '/');
        if (slash) {
            *slash = '\0';
            snprintf(path, sizeof path, "%s/%s", self, BENCH_BIN);
            execv(path, args);
            sibling_errno = errno; /* execv returns only on failure */
        }
    }
    execvp(BENCH_BIN, args);
    int path_errno = errno;
    if (path[0])
        fprintf(stderr, "cuzk bench: cannot run %s (%s) nor %s from $PATH (%s): the benchmarks are not installed\n",
                path, strerror(sibling_errno), BENCH_BIN, strerror(path_errno));
    else
        fprintf(stderr, "cuzk bench: cannot run %s from $PATH (%s): the benchmarks are not installed\n", BENCH_BIN,
                strerror(path_errno));
    free(args);
    return 4;
}
