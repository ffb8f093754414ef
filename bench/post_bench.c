/* cuzk bench post: speed of the Filecoin PoSt circuits (src/filecoin/post.h).
 *
 *   witness    witness-only synthesis of one partition on --threads threads (sectors split over
 *              threads), median of --repeat runs; and on 1 thread (--no-single skips it)
 *   record     --record: one recording pass that counts densities (CS_DENSITY, no matrices kept) on
 *              --threads threads (post_count_parallel), the counts printed on a "counts:" line
 *   matrices   --matrices: the CSR matrices recorded on --threads threads (post_record_parallel;
 *              memory ~12 GB at a full 32 GiB WindowPoSt partition); --serial adds the same on
 *              one builder and checks that both give the same R1CS
 *   prove      --prove: whole proofs in one process (bench/post_prove.c)
 * Sectors: the vanilla proof given with --vproof (checked first; --randomness, default 0), padded
 * to the circuit's sector count as rust-fil-proofs pads; without it one blank sector (all values
 * 0: the same work, a witness that does not satisfy). */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench.h"
#include "filecoin/post.h"
#include "util/parallel.h"
#include "util/timer.h"

#ifndef CUZK_GIT_HASH
#define CUZK_GIT_HASH "unknown"
#endif

int cuzk_bench_post(int argc, char **argv);

static double cpu_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

static int cmp_d(const void *a, const void *b) { double x = *(const double *)a, y = *(const double *)b; return (x > y) - (x < y); }

static void help(FILE *f) {
    fprintf(f, "usage: cuzk bench post --circuit NAME [--sectors N] [--vproof FILE]... [--randomness HEX] [--threads T]\n"
               "                       [--repeat R] [--record] [--matrices [--serial]] [--no-witness] [--no-single]\n"
               "       cuzk bench post --prove --circuit NAME [--sectors N] --vproof FILE... [--randomness HEX]\n"
               "                       [--backend cpu|gpu|auto] [--threads T] [--repeat R] [--seed S] [--check-witness]\n"
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
               "examples:\n"
               "  cuzk bench post --circuit window-post-32g --sectors 16 --vproof tests/fixtures/filecoin/post.vproof --record\n"
               "  cuzk bench post --prove --circuit winning-post-32g --vproof tests/fixtures/filecoin/winning.vproof --repeat 10\n");
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

static bool r1cs_equal(const r1cs *x, const r1cs *y) {
    if (x->n_constraints != y->n_constraints || x->n_vars != y->n_vars || x->n_public != y->n_public) return false;
    const csr_matrix *a[3] = {&x->a, &x->b, &x->c}, *b[3] = {&y->a, &y->b, &y->c};
    for (int k = 0; k < 3; k++) {
        if (a[k]->n_rows != b[k]->n_rows || a[k]->nnz != b[k]->nnz || a[k]->n_coef != b[k]->n_coef) return false;
        if (memcmp(a[k]->row_ptr, b[k]->row_ptr, ((size_t)a[k]->n_rows + 1) * 8) || memcmp(a[k]->col, b[k]->col, a[k]->nnz * 4) ||
            memcmp(a[k]->coef_id, b[k]->coef_id, a[k]->nnz * 4) || (a[k]->n_coef && memcmp(a[k]->coef, b[k]->coef, a[k]->n_coef * sizeof(fr))))
            return false;
    }
    return true;
}

#define MAX_VPROOFS 4096

int cuzk_bench_post(int argc, char **argv) {
    const char *circuit = NULL, *backend = "auto";
    static const char *vproofs[MAX_VPROOFS];
    size_t n_vproofs = 0;
    long sectors = 0, threads = 0, repeat = -1, seed = 1;
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
    post_params pp;
    cuzk_error e = {0};
    if (post_params_from_name(&pp, circuit, &e) != CUZK_OK) { fprintf(stderr, "cuzk bench post: %s\n", e.msg); return 2; }
    if (sectors) pp.sector_count = (uint32_t)sectors;
    if (prove) {
        if (!n_vproofs) { fprintf(stderr, "cuzk bench post: --prove needs --vproof FILE\n"); return 2; }
        if (record || matrices || serial || no_witness || no_single) {
            fprintf(stderr, "cuzk bench post: --prove runs alone (no --record, --matrices, --serial, --no-witness, --no-single)\n");
            return 2;
        }
        post_prove_opts po = {circuit, (uint32_t)sectors, vproofs, n_vproofs, {0}, backend, (int)threads, repeat < 0 ? 0 : (int)repeat,
                              (uint64_t)seed, check_witness};
        memcpy(po.randomness, rnd, 32);
        return post_prove_run(&po);
    }
    if (serial && !matrices) { fprintf(stderr, "cuzk bench post: --serial goes with --matrices\n"); return 2; }
    if (check_witness) { fprintf(stderr, "cuzk bench post: --check-witness goes with --prove\n"); return 2; }
    if (repeat < 0) repeat = 3;
    if (repeat == 0) { fprintf(stderr, "cuzk bench post: --repeat must be >= 1 here\n"); return 2; }
    if (n_vproofs > pp.sector_count) {
        fprintf(stderr, "cuzk bench post: %zu --vproof files for a circuit of %u sectors\n", n_vproofs, pp.sector_count);
        return 2;
    }
    post_sector *secs = calloc(n_vproofs ? n_vproofs : 1, sizeof *secs);
    size_t n_secs = n_vproofs ? n_vproofs : 1;
    if (!secs) { fprintf(stderr, "cuzk bench post: out of memory\n"); return 4; }
    for (size_t k = 0; k < n_vproofs; k++) {
        const char *vproof = vproofs[k];
        FILE *f = fopen(vproof, "rb");
        if (!f) { fprintf(stderr, "cuzk bench post: cannot open %s\n", vproof); return 3; }
        fseek(f, 0, SEEK_END);
        long n = ftell(f);
        fseek(f, 0, SEEK_SET);
        uint8_t *d = malloc(n > 0 ? (size_t)n : 1);
        size_t got = d ? fread(d, 1, (size_t)n, f) : 0;
        fclose(f);
        if (!d || got != (size_t)n || post_vproof_read(&secs[k], &pp, d, got, &e) != CUZK_OK ||
            post_sector_check(&pp, &secs[k], rnd, k, &e) != CUZK_OK) {
            fprintf(stderr, "cuzk bench post: %s: %s\n", vproof, e.msg);
            free(d);
            return 3;
        }
        free(d);
    }
    if (!n_vproofs) {
        secs[0].n_challenges = pp.challenge_count;
        secs[0].leaves = calloc(pp.challenge_count, sizeof(fr));
        secs[0].roots = calloc(pp.challenge_count, sizeof(fr));
        secs[0].paths = calloc(pp.challenge_count, sizeof(merkle_path));
    }
    post_sizes sz;
    post_circuit_sizes(&pp, &sz);
    int nt = threads > 0 ? (int)threads : cuzk_num_threads();
    printf("# cuzk bench post  git %s  circuit %s  sectors %u x %u challenges  inputs %llu  aux %llu  constraints %llu  threads %d\n",
           CUZK_GIT_HASH, circuit, pp.sector_count, pp.challenge_count, (unsigned long long)sz.n_inputs, (unsigned long long)sz.n_aux,
           (unsigned long long)sz.n_constraints, nt);
    if (!no_witness) {
        size_t nw = (size_t)(sz.n_inputs + sz.n_aux);
        fr *w = malloc(nw * sizeof *w);
        if (!w) { fprintf(stderr, "cuzk bench post: out of memory for %zu witness values\n", nw); return 4; }
        double *ms = calloc((size_t)repeat, sizeof *ms), *cms = calloc((size_t)repeat, sizeof *cms);
        int thread_counts[2] = {nt, 1};
        long reps = repeat;
        for (int k = 0; k < (nt > 1 && !no_single ? 2 : 1); k++) {
            /* one untimed run first: page faults of the witness buffer, caches */
            if (k == 0 && post_witness_parallel(w, nw, &pp, secs, n_secs, thread_counts[k], &e) != CUZK_OK) {
                fprintf(stderr, "cuzk bench post: %s\n", e.msg);
                return 3;
            }
            for (long r = 0; r < reps; r++) {
                double t0 = now_ms(), c0 = cpu_ms();
                post_witness_parallel(w, nw, &pp, secs, n_secs, thread_counts[k], &e);
                ms[r] = now_ms() - t0;
                cms[r] = cpu_ms() - c0;
            }
            qsort(ms, (size_t)reps, sizeof *ms, cmp_d);
            qsort(cms, (size_t)reps, sizeof *cms, cmp_d);
            printf("witness-only  threads %-3d  wall median %10.1f ms  min %10.1f  max %10.1f  cpu median %10.1f ms  (%.0f ns cpu per "
                   "constraint)\n", thread_counts[k], ms[reps / 2], ms[0], ms[reps - 1], cms[reps / 2],
                   cms[reps / 2] * 1e6 / (double)sz.n_constraints);
            reps = 1;   /* one single-thread run is enough */
        }
        free(ms);
        free(cms);
        free(w);
    }
    if (record) {
        post_counts pc;
        double t0 = now_ms(), c0 = cpu_ms();
        if (post_count_parallel(&pc, &pp, nt, &e) != CUZK_OK) { fprintf(stderr, "cuzk bench post: %s\n", e.msg); return 4; }
        printf("record (densities)   wall %10.1f ms  cpu %10.1f ms  threads %d\n", now_ms() - t0, cpu_ms() - c0, nt);
        printf("counts: %s sectors %u inputs %llu aux %llu constraints %llu a_aux %llu b_aux %llu b_inputs %llu\n", circuit,
               pp.sector_count, (unsigned long long)pc.n_inputs, (unsigned long long)pc.n_aux, (unsigned long long)pc.n_constraints,
               (unsigned long long)pc.a_aux, (unsigned long long)pc.b_aux, (unsigned long long)pc.b_in);
    }
    if (matrices) {
        r1cs r;
        double t0 = now_ms(), c0 = cpu_ms();
        if (post_record_parallel(&r, &pp, nt, &e) != CUZK_OK) { fprintf(stderr, "cuzk bench post: %s\n", e.msg); return 4; }
        printf("record (matrices)    wall %10.1f ms  cpu %10.1f ms  threads %d  nnz A %llu  B %llu  C %llu\n", now_ms() - t0,
               cpu_ms() - c0, nt, (unsigned long long)r.a.nnz, (unsigned long long)r.b.nnz, (unsigned long long)r.c.nnz);
        if (serial) {
            cs c;
            r1cs r1;
            memset(&r1, 0, sizeof r1);
            t0 = now_ms(), c0 = cpu_ms();
            cs_init(&c, CS_MATRICES);
            post_synthesize(&c, &pp, &secs[0], 1);
            if (c.status == CUZK_OK) cs_finish_r1cs(&c, &r1);
            if (c.status != CUZK_OK) { fprintf(stderr, "cuzk bench post: %s\n", c.err.msg); cs_free(&c); return 4; }
            printf("record (matrices)    wall %10.1f ms  cpu %10.1f ms  one builder; same R1CS as on %d threads: %s\n", now_ms() - t0,
                   cpu_ms() - c0, nt, r1cs_equal(&r, &r1) ? "yes" : "NO");
            bool same = r1cs_equal(&r, &r1);
            cs_free(&c);
            r1cs_free(&r1);
            if (!same) { r1cs_free(&r); return 1; }
        }
        r1cs_free(&r);
    }
    for (size_t k = 0; k < n_secs; k++) post_sector_free(&secs[k]);
    free(secs);
    return 0;
}
