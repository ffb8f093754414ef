/* cuzk bench post: synthesis speed of the Filecoin PoSt circuits (include/cuzk/bench.h section 5:
 * cuzk_bench_post_*, over the circuits of include/cuzk/filecoin.h).
 *
 *   witness    witness-only synthesis of one partition on --threads threads (sectors split over
 *              threads), median of --repeat runs; and on 1 thread
 *   record     one recording pass that counts densities (CS_DENSITY, no matrices kept), --record
 *   matrices   one recording pass with the CSR matrices (CS_MATRICES), --matrices (memory: ~10 GB
 *              at a full 32 GiB WindowPoSt partition)
 * Sectors: the vanilla proof given with --vproof (checked first; randomness 0), padded to the
 * circuit's sector count as rust-fil-proofs pads; without it one blank sector (all values 0:
 * the same work, a witness that does not satisfy). */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench.h"
#include "cuzk/bench.h"

#ifndef CUZK_GIT_HASH
#define CUZK_GIT_HASH "unknown"
#endif

int bench_post_main(int argc, char **argv);

static double cpu_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

static int cmp_d(const void *a, const void *b) { double x = *(const double *)a, y = *(const double *)b; return (x > y) - (x < y); }

static void help(FILE *f) {
    fprintf(f, "usage: cuzk bench post --circuit NAME [--sectors N] [--vproof FILE] [--threads T] [--repeat R] [--record] [--matrices]\n"
               "  NAME: window-post-SIZE or winning-post-SIZE, SIZE 2k 8m 512m 32g 64g\n"
               "  --sectors N  circuit with N sectors instead of the real count (INSECURE test shapes)\n"
               "example:\n"
               "  cuzk bench post --circuit window-post-32g --sectors 16 --vproof tests/fixtures/filecoin/post.vproof --record\n");
}

int bench_post_main(int argc, char **argv) {
    const char *circuit = NULL, *vproof = NULL;
    long sectors = 0, threads = 0, repeat = 3;
    bool record = false, matrices = false;
    for (int i = 2; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) { help(stdout); return 0; }
        else if (!strcmp(a, "--circuit") && i + 1 < argc) circuit = argv[++i];
        else if (!strcmp(a, "--vproof") && i + 1 < argc) vproof = argv[++i];
        else if (!strcmp(a, "--sectors") && i + 1 < argc) { if (!bench_parse_long(a, argv[++i], 1, 100000, &sectors)) return 2; }
        else if (!strcmp(a, "--threads") && i + 1 < argc) { if (!bench_parse_long(a, argv[++i], 1, 4096, &threads)) return 2; }
        else if (!strcmp(a, "--repeat") && i + 1 < argc) { if (!bench_parse_long(a, argv[++i], 1, 1000, &repeat)) return 2; }
        else if (!strcmp(a, "--record")) record = true;
        else if (!strcmp(a, "--matrices")) matrices = true;
        else { fprintf(stderr, "cuzk bench post: unknown option '%s'\n", a); help(stderr); return 2; }
    }
    if (!circuit) { fprintf(stderr, "cuzk bench post: --circuit NAME is required\n"); help(stderr); return 2; }
    cuzk_error e = {0};
    cuzk_bench_post *h = NULL;
    cuzk_status st = cuzk_bench_post_create(&h, circuit, (uint32_t)sectors, vproof, &e);
    if (st != CUZK_OK) {
        fprintf(stderr, "cuzk bench post: %s\n", e.msg);
        return st == CUZK_ERR_ARG ? 2 : st == CUZK_ERR_NOMEM ? 4 : 3;
    }
    cuzk_bench_post_info sz;
    cuzk_bench_post_describe(h, &sz);
    int nt = threads > 0 ? (int)threads : cuzk_threads();
    printf("# cuzk bench post  git %s  circuit %s  sectors %u x %u challenges  inputs %llu  aux %llu  constraints %llu  threads %d\n",
           CUZK_GIT_HASH, circuit, sz.sector_count, sz.challenge_count, (unsigned long long)sz.n_inputs, (unsigned long long)sz.n_aux,
           (unsigned long long)sz.n_constraints, nt);
    size_t nw = (size_t)(sz.n_inputs + sz.n_aux);
    uint64_t *w = malloc(nw * 32);
    if (!w) { fprintf(stderr, "cuzk bench post: out of memory for %zu witness values\n", nw); cuzk_bench_post_destroy(h); return 4; }
    double *ms = calloc((size_t)repeat, sizeof *ms), *cms = calloc((size_t)repeat, sizeof *cms);
    int thread_counts[2] = {nt, 1};
    for (int k = 0; k < (nt > 1 ? 2 : 1); k++) {
        for (long r = 0; r < repeat; r++) {
            double t0 = bench_now_ms(), c0 = cpu_ms();
            if (cuzk_bench_post_witness(h, w, nw, thread_counts[k], &e) != CUZK_OK) {
                fprintf(stderr, "cuzk bench post: %s\n", e.msg);
                return 3;
            }
            ms[r] = bench_now_ms() - t0;
            cms[r] = cpu_ms() - c0;
        }
        qsort(ms, (size_t)repeat, sizeof *ms, cmp_d);
        qsort(cms, (size_t)repeat, sizeof *cms, cmp_d);
        printf("witness-only  threads %-3d  wall median %10.1f ms  min %10.1f  max %10.1f  cpu median %10.1f ms  (%.0f ns cpu per constraint)\n",
               thread_counts[k], ms[repeat / 2], ms[0], ms[repeat - 1], cms[repeat / 2], cms[repeat / 2] * 1e6 / (double)sz.n_constraints);
        if (k == 0 && repeat > 1 && nt > 1) repeat = 1;   /* one single-thread run is enough */
    }
    free(ms);
    free(cms);
    free(w);
    for (int m = 0; m < 2; m++) {
        if (m == 0 ? !record : !matrices) continue;
        cuzk_bench_post_record rec;
        double t0 = bench_now_ms(), c0 = cpu_ms();
        st = cuzk_bench_post_record_pass(h, m, &rec, &e);
        double dt = bench_now_ms() - t0, dc = cpu_ms() - c0;
        if (st != CUZK_OK) { fprintf(stderr, "cuzk bench post: %s\n", e.msg); cuzk_bench_post_destroy(h); return 3; }
        if (m == 0)
            printf("record (densities)   wall %10.1f ms  cpu %10.1f ms  constraints %llu  a_aux %llu  b_aux %llu\n", dt, dc, (unsigned long long)rec.n_constraints,
                   (unsigned long long)rec.a_aux, (unsigned long long)rec.b_aux);
        else
            printf("record (matrices)    wall %10.1f ms  cpu %10.1f ms  nnz A %llu  B %llu  C %llu\n", dt, dc, (unsigned long long)rec.nnz_a,
                   (unsigned long long)rec.nnz_b, (unsigned long long)rec.nnz_c);
    }
    cuzk_bench_post_destroy(h);
    return 0;
}
