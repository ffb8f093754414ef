/* cuzk bench post: speed of the Filecoin PoSt circuits (src/benchkit/benchkit.h section 5:
 * benchkit_post_*, over the circuits of include/cuzk/filecoin.h).
 *
 *   witness    witness-only synthesis of one partition on --threads threads (sectors split over
 *              threads), median of --repeat runs; and on 1 thread (--no-single skips it)
 *   record     --record: one recording pass that counts densities (no matrices kept) on --threads
 *              threads (BENCHKIT_POST_COUNT), the counts printed on a "counts:" line
 *   matrices   --matrices: the CSR matrices recorded on --threads threads (BENCHKIT_POST_MATRICES;
 *              memory ~12 GB at a full 32 GiB WindowPoSt partition); --serial adds the same on
 *              one builder and checks that both give the same R1CS (BENCHKIT_POST_SERIAL)
 *   prove      --prove: whole proofs in one process (bench/post_prove.c)
 * Sectors: the vanilla proof given with --vproof (checked first; --randomness, default 0), padded
 * to the circuit's sector count as rust-fil-proofs pads; without it one blank sector (all values
 * 0: the same work, a witness that does not satisfy). */
#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench.h"
#include "../src/benchkit/benchkit.h" /* the bench kit (static, internal: not in libcuzk.so) */

int bench_post_main(int argc, char **argv);

static double cpu_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}


static void help(FILE *f) {
    fprintf(f, "usage: cuzk bench post --circuit NAME [--sectors N] [--vproof FILE]... [--randomness HEX] [--threads T]\n"
               "                       [--repeat R] [--record] [--matrices [--serial]] [--no-witness] [--no-single]\n"
               "       cuzk bench post --prove --circuit NAME [--sectors N] --vproof FILE... [--randomness HEX]\n"
               "                       [--backend cpu|gpu|auto] [--threads T] [--repeat R] [--seed S] [--check-witness]\n"
               "                       [--gpu-budget GIB[,GIB...]]\n"
               "  NAME: window-post-SIZE or winning-post-SIZE, SIZE 2k 8m 512m 32g 64g\n"
               "  --sectors N      circuit with N sectors instead of the real count (INSECURE test shapes)\n"
               "  --vproof FILE    a vanilla proof (bincode, one sector); repeat for more sectors (--prove: one\n"
               "                   partition's worth, padded with the last)\n"
               "  --randomness HEX 64 hex digits, the 32 randomness bytes in order (default all zero)\n"
               "  --record         counts and A/B densities from a recording pass on all threads (\"counts:\" line)\n"
               "  --matrices       record the CSR matrices on all threads; --serial also on one and compare\n"
               "  --prove          record the circuit in memory, make INSECURE test parameters in memory, make it\n"
               "                   resident, prove through the engine and verify (--repeat R: R jobs after a\n"
               "                   warm-up; latency = job creation + submit -> proof)\n"
               "  --check-witness  --prove: the engine checks every constraint after synthesis\n"
               "  --gpu-budget GIB[,GIB...]  --prove: device memory the circuit may use (0: the device's free\n"
               "                   memory); a list runs one engine each (preload + jobs, every proof verified)\n"
               "                   over the same parameters; a budget too small for any plan is refused at preload\n"
               "examples:\n"
               "  cuzk bench post --circuit window-post-32g --sectors 16 --vproof tests/fixtures/filecoin/post.vproof --record\n"
               "  cuzk bench post --prove --circuit winning-post-32g --vproof tests/fixtures/filecoin/winning-66.vproof --repeat 10\n");
}

static bool parse_hex32(const char *h, uint8_t out[32]) {
    if (strlen(h) != 64) return false;
    for (int k = 0; k < 32; k++) {
        unsigned v;
        char two[3] = {h[2 * k], h[2 * k + 1], 0};
        if (!isxdigit((unsigned char)two[0]) || !isxdigit((unsigned char)two[1]) || sscanf(two, "%x", &v) != 1) return false;
        out[k] = (uint8_t)v;
    }
    return true;
}

#define MAX_VPROOFS 4096

int bench_post_main(int argc, char **argv) {
    const char *circuit = NULL, *backend = "auto";
    static const char *vproofs[MAX_VPROOFS];
    size_t n_vproofs = 0;
    long sectors = 0, threads = 0, repeat = -1, seed = 1;
    double gpu_budgets[8] = {0};
    int n_budgets = 0;
    bool record = false, matrices = false, serial = false, prove = false, check_witness = false, no_witness = false,
         no_single = false;
    uint8_t rnd[32] = {0};
    for (int i = 2; i < argc; i++) {
        const char *a = argv[i];
        bool more = i + 1 < argc;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) { help(stdout); return 0; }
        else if (!strcmp(a, "--circuit") && more) circuit = argv[++i];
        else if (!strcmp(a, "--vproof") && more) {
            if (n_vproofs == MAX_VPROOFS) { fprintf(stderr, "cuzk bench post: at most %d --vproof files\n", MAX_VPROOFS); return 2; }
            vproofs[n_vproofs++] = argv[++i];
        }
        else if (!strcmp(a, "--randomness") && more) {
            if (!parse_hex32(argv[++i], rnd)) { fprintf(stderr, "cuzk bench post: --randomness '%s' is not 64 hex digits\n", argv[i]); return 2; }
        }
        else if (!strcmp(a, "--backend") && more) backend = argv[++i];
        else if (!strcmp(a, "--sectors") && more) { if (!bench_parse_long(a, argv[++i], 1, 100000, &sectors)) return 2; }
        else if (!strcmp(a, "--threads") && more) { if (!bench_parse_long(a, argv[++i], 1, 4096, &threads)) return 2; }
        else if (!strcmp(a, "--repeat") && more) { if (!bench_parse_long(a, argv[++i], 0, 1000, &repeat)) return 2; }
        else if (!strcmp(a, "--seed") && more) { if (!bench_parse_long(a, argv[++i], 0, 0x7fffffffL, &seed)) return 2; }
        else if (!strcmp(a, "--gpu-budget") && more) {
            /* one budget, or a comma-separated list: one engine each over the same parameters */
            char buf[256];
            snprintf(buf, sizeof buf, "%s", argv[++i]);
            n_budgets = 0;
            for (char *tok = strtok(buf, ","); tok; tok = strtok(NULL, ",")) {
                if (n_budgets == (int)(sizeof gpu_budgets / sizeof *gpu_budgets)) {
                    fprintf(stderr, "cuzk bench post: --gpu-budget takes at most %d budgets\n",
                            (int)(sizeof gpu_budgets / sizeof *gpu_budgets));
                    return 2;
                }
                if (!bench_parse_double(a, tok, 0, 1e6, &gpu_budgets[n_budgets])) return 2;
                n_budgets++;
            }
            if (!n_budgets) { fprintf(stderr, "cuzk bench post: --gpu-budget needs a number of GiB (or a list)\n"); return 2; }
        }
        else if (!strcmp(a, "--record")) record = true;
        else if (!strcmp(a, "--matrices")) matrices = true;
        else if (!strcmp(a, "--serial")) serial = true;
        else if (!strcmp(a, "--prove")) prove = true;
        else if (!strcmp(a, "--check-witness")) check_witness = true;
        else if (!strcmp(a, "--no-witness")) no_witness = true;
        else if (!strcmp(a, "--no-single")) no_single = true;
        else { fprintf(stderr, "cuzk bench post: unknown option or missing value '%s'\n", a); help(stderr); return 2; }
    }
    if (!circuit) { fprintf(stderr, "cuzk bench post: --circuit NAME is required\n"); help(stderr); return 2; }
    cuzk_error e = {0};
    if (prove) {
        if (!n_vproofs) { fprintf(stderr, "cuzk bench post: --prove needs --vproof FILE\n"); return 2; }
        if (record || matrices || serial || no_witness || no_single) {
            fprintf(stderr, "cuzk bench post: --prove runs alone (no --record, --matrices, --serial, --no-witness, --no-single)\n");
            return 2;
        }
        post_prove_opts po = {circuit, (uint32_t)sectors, vproofs, n_vproofs, {0}, backend, (int)threads, repeat < 0 ? 0 : (int)repeat,
                              (uint64_t)seed, check_witness, {0}, n_budgets};
        memcpy(po.gpu_budgets, gpu_budgets, sizeof gpu_budgets);
        memcpy(po.randomness, rnd, 32);
        return post_prove_run(&po);
    }
    if (serial && !matrices) { fprintf(stderr, "cuzk bench post: --serial goes with --matrices\n"); return 2; }
    if (check_witness) { fprintf(stderr, "cuzk bench post: --check-witness goes with --prove\n"); return 2; }
    if (repeat < 0) repeat = 3;
    if (repeat == 0) { fprintf(stderr, "cuzk bench post: --repeat must be >= 1 here\n"); return 2; }
    /* the circuit and its sectors: every vanilla proof read and checked (with --randomness) */
    benchkit_post *h = NULL;
    cuzk_status st = benchkit_post_create(&h, circuit, (uint32_t)sectors, vproofs, n_vproofs, rnd, &e);
    if (st != CUZK_OK) {
        fprintf(stderr, "cuzk bench post: %s\n", e.msg);
        return st == CUZK_ERR_ARG ? 2 : st == CUZK_ERR_NOMEM ? 4 : 3;
    }
    benchkit_post_info sz;
    benchkit_post_describe(h, &sz);
    int nt = threads > 0 ? (int)threads : cuzk_threads();
    printf("# cuzk bench post  git %s  circuit %s  sectors %u x %u challenges  inputs %llu  aux %llu  constraints %llu  threads %d\n",
           cuzk_git_commit(), circuit, sz.sector_count, sz.challenge_count, (unsigned long long)sz.n_inputs, (unsigned long long)sz.n_aux,
           (unsigned long long)sz.n_constraints, nt);
    int rc = 0;
    if (!no_witness) {
        size_t nw = (size_t)(sz.n_inputs + sz.n_aux);
        uint64_t *w = malloc(nw * 32);
        double *ms = calloc((size_t)repeat, sizeof *ms), *cms = calloc((size_t)repeat, sizeof *cms);
        if (!w || !ms || !cms) {
            fprintf(stderr, "cuzk bench post: out of memory for %zu witness values\n", nw);
            free(w); free(ms); free(cms);
            benchkit_post_destroy(h);
            return 4;
        }
        int thread_counts[2] = {nt, 1};
        long reps = repeat;
        for (int k = 0; k < (nt > 1 && !no_single ? 2 : 1) && !rc; k++) {
            /* one untimed run first: page faults of the witness buffer, caches */
            if (k == 0 && benchkit_post_witness(h, w, nw, thread_counts[k], &e) != CUZK_OK) {
                fprintf(stderr, "cuzk bench post: %s\n", e.msg);
                rc = 3;
                break;
            }
            for (long r = 0; r < reps; r++) {
                double t0 = bench_now_ms(), c0 = cpu_ms();
                benchkit_post_witness(h, w, nw, thread_counts[k], &e);
                ms[r] = bench_now_ms() - t0;
                cms[r] = cpu_ms() - c0;
            }
            qsort(ms, (size_t)reps, sizeof *ms, bench_cmp_double);
            qsort(cms, (size_t)reps, sizeof *cms, bench_cmp_double);
            printf("witness-only  threads %-3d  wall median %10.1f ms  min %10.1f  max %10.1f  cpu median %10.1f ms  (%.0f ns cpu per "
                   "constraint)\n", thread_counts[k], ms[reps / 2], ms[0], ms[reps - 1], cms[reps / 2],
                   cms[reps / 2] * 1e6 / (double)sz.n_constraints);
            reps = 1;   /* one single-thread run is enough */
        }
        free(ms);
        free(cms);
        free(w);
    }
    if (record && !rc) {
        benchkit_post_record pc;
        double t0 = bench_now_ms(), c0 = cpu_ms();
        if (benchkit_post_record_pass(h, BENCHKIT_POST_COUNT, nt, &pc, &e) != CUZK_OK) {
            fprintf(stderr, "cuzk bench post: %s\n", e.msg);
            rc = 4;
        } else {
            printf("record (densities)   wall %10.1f ms  cpu %10.1f ms  threads %d\n", bench_now_ms() - t0, cpu_ms() - c0, nt);
            printf("counts: %s sectors %u inputs %llu aux %llu constraints %llu a_aux %llu b_aux %llu b_inputs %llu\n", circuit,
                   sz.sector_count, (unsigned long long)pc.n_inputs, (unsigned long long)pc.n_aux, (unsigned long long)pc.n_constraints,
                   (unsigned long long)pc.a_aux, (unsigned long long)pc.b_aux, (unsigned long long)pc.b_inputs);
        }
    }
    if (matrices && !rc) {
        benchkit_post_record r;
        double t0 = bench_now_ms(), c0 = cpu_ms();
        if (benchkit_post_record_pass(h, BENCHKIT_POST_MATRICES, nt, &r, &e) != CUZK_OK) {
            fprintf(stderr, "cuzk bench post: %s\n", e.msg);
            rc = 4;
        } else {
            printf("record (matrices)    wall %10.1f ms  cpu %10.1f ms  threads %d  nnz A %llu  B %llu  C %llu\n", bench_now_ms() - t0,
                   cpu_ms() - c0, nt, (unsigned long long)r.nnz_a, (unsigned long long)r.nnz_b, (unsigned long long)r.nnz_c);
        }
        if (serial && !rc) {
            benchkit_post_record r1;
            t0 = bench_now_ms(), c0 = cpu_ms();
            if (benchkit_post_record_pass(h, BENCHKIT_POST_SERIAL, 1, &r1, &e) != CUZK_OK) {
                fprintf(stderr, "cuzk bench post: %s\n", e.msg);
                rc = 4;
            } else {
                printf("record (matrices)    wall %10.1f ms  cpu %10.1f ms  one builder; same R1CS as on %d threads: %s\n",
                       bench_now_ms() - t0, cpu_ms() - c0, nt, r1.same_as_kept ? "yes" : "NO");
                if (!r1.same_as_kept) rc = 1;
            }
        }
    }
    benchkit_post_destroy(h);
    return rc;
}
