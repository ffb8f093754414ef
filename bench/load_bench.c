/* cuzk bench load: .params loading throughput (GB/s of file) per check level.
 *
 * Makes (once, or takes --file) a bellperson .params file of valid points in PoRep proportions
 * (h : l : a : b_g1 : b_g2 = 4 : 4 : 4 : 1 : 1 by count; points from a pool of random subgroup
 * points, so the file is cheap to write and every point passes every check), then times:
 *   check   every point checked, nothing kept (cuzk info)
 *   load    checked and decoded into host memory (cuzk prove)
 * (benchkit_params_read of src/benchkit/benchkit.h; the points from benchkit_random_points)
 * at the levels none and curve on the whole file and full on a 1/256 sample (the subgroup check
 * costs ~100x more). --cold drops the file's pages from the page cache before every run
 * (posix_fadvise DONTNEED on this file only), so the disk is timed too. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bench.h"
#include "../src/benchkit/benchkit.h" /* the bench kit (static, internal: not in libcuzk.so) */

int bench_load_main(int argc, char **argv);

enum { POOL = 64 };

/* POOL random subgroup points of G1 and G2, uncompressed as a .params file holds them */
static int pool_points(uint8_t g1[POOL][96], uint8_t g2[POOL][192]) {
    cuzk_error e = {0};
    if (benchkit_random_points(CUZK_CURVE_BLS12_381, 1, POOL, 0x5eed5eed12345678ull, &g1[0][0], &e) != CUZK_OK ||
        benchkit_random_points(CUZK_CURVE_BLS12_381, 2, POOL, 0x5eed5eed87654321ull, &g2[0][0], &e) != CUZK_OK) {
        fprintf(stderr, "cuzk bench load: %s\n", e.msg);
        return -1;
    }
    return 0;
}

static int put_u32be(FILE *f, uint32_t v) {
    uint8_t b[4] = {(uint8_t)(v >> 24), (uint8_t)(v >> 16), (uint8_t)(v >> 8), (uint8_t)v};
    return fwrite(b, 1, 4, f) == 4 ? 0 : -1;
}

/* Writes a .params with n_h = n_l = n_a = 4 q, n_b_g1 = n_b_g2 = q, ic 2; returns 0 on success. */
static int make_file(const char *path, uint32_t q) {
    static uint8_t g1[POOL][96], g2[POOL][192];
    if (pool_points(g1, g2) != 0) return -1;
    FILE *f = fopen(path, "wb");
    if (!f) return -1;
    static uint8_t buf[1 << 20];
    int rc = 0;
    /* vk */
    rc |= fwrite(g1[0], 1, 96, f) != 96;
    rc |= fwrite(g1[1], 1, 96, f) != 96;
    rc |= fwrite(g2[0], 1, 192, f) != 192;
    rc |= fwrite(g2[1], 1, 192, f) != 192;
    rc |= fwrite(g1[2], 1, 96, f) != 96;
    rc |= fwrite(g2[2], 1, 192, f) != 192;
    rc |= put_u32be(f, 2);
    rc |= fwrite(g1[3], 1, 96, f) != 96;
    rc |= fwrite(g1[4], 1, 96, f) != 96;
    uint32_t counts[5] = {4 * q, 4 * q, 4 * q, q, q};
    for (int s = 0; s < 5 && !rc; s++) {
        size_t elt = s == 4 ? 192 : 96, per = sizeof buf / elt, k = 0;
        rc |= put_u32be(f, counts[s]);
        for (uint32_t i = 0; i < counts[s] && !rc; i++) {
            memcpy(buf + k * elt, s == 4 ? g2[(i * 7 + s) % POOL] : g1[(i * 7 + s) % POOL], elt);
            if (++k == per || i + 1 == counts[s]) {
                rc |= fwrite(buf, 1, k * elt, f) != k * elt;
                k = 0;
            }
        }
    }
    rc |= fclose(f) != 0;
    return rc ? -1 : 0;
}

static void drop_cache(const char *path) {
    int fd = open(path, O_RDONLY);
    if (fd < 0) return;
    (void)fdatasync(fd);
    (void)posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
    close(fd);
}


/* One row: `what` at `level` over path, repeat times; prints GB/s median (min..max). */
static int bench_row(const char *path, const char *what, cuzk_check_level level, int repeat, int nthreads, int cold) {
    benchkit_read_mode mode = !strcmp(what, "check")   ? BENCHKIT_READ_CHECK_MMAP
                              : !strcmp(what, "load")  ? BENCHKIT_READ_DECODE_MMAP
                              : !strcmp(what, "pread") ? BENCHKIT_READ_DECODE_PREAD
                                                       : BENCHKIT_READ_CACHE;
    char cache[600];
    snprintf(cache, sizeof cache, "%s.cuzk-srs", path);
    double gbs[64];
    size_t size = 0;
    if (repeat > 64) repeat = 64;
    for (int r = 0; r < repeat; r++) {
        if (cold) drop_cache(mode == BENCHKIT_READ_CACHE ? cache : path);
        cuzk_error e = {0};
        uint64_t bytes = 0;
        double t0 = bench_now_ms();
        cuzk_status st = benchkit_params_read_mode(path, level, nthreads, mode, &bytes, &e);
        double s = (bench_now_ms() - t0) / 1e3;
        if (st) {
            fprintf(stderr, "cuzk bench load: %s\n", e.msg);
            return 3;
        }
        size = (size_t)bytes;
        gbs[r] = (double)size / s / 1e9;
    }
    qsort(gbs, (size_t)repeat, sizeof gbs[0], bench_cmp_double);
    double med = repeat % 2 ? gbs[repeat / 2] : (gbs[repeat / 2 - 1] + gbs[repeat / 2]) / 2;
    printf("| %-5s | %-5s | %8.3f GB | %s | %8.4f GB/s | %.4f..%.4f |\n", what, cuzk_check_level_str(level),
           (double)size / 1e9, cold ? "cold" : "warm", med, gbs[0], gbs[repeat - 1]);
    fflush(stdout);
    return 0;
}

static void help(FILE *f) {
    fprintf(f,
        "usage: cuzk bench load [--gb G] [--file PATH] [--levels L] [--repeat N] [--threads N] [--cold] [--keep]\n"
        "                       [--no-cache]\n"
        "\n"
        ".params loading throughput per check level (none, curve on the whole file; full on a 1/256\n"
        "sample): 'check' checks every point and keeps nothing (cuzk info), 'load' also decodes into\n"
        "host memory through the file's mapping (the path before issue 23), 'pread' decodes with\n"
        "pread(2) per thread (cuzk prove now), 'cache' reads the pre-decoded cache <file>.cuzk-srs\n"
        "(made first at the curve level, its make time printed; GB/s of the cache file). The file\n"
        "is made of valid random points in PoRep proportions.\n"
        "  --no-cache   no pread/cache rows (the rows before issue 23 only)\n"
        "  --gb G       size of the generated file in GB (default 1; a PoRep SRS is ~47)\n"
        "  --file PATH  time this .params file instead (full on the whole file: slow)\n"
        "  --levels L   comma-separated subset of none,curve,full (default all three)\n"
        "  --repeat N   runs per row (default 3)\n"
        "  --threads N  worker threads (default: all CPUs)\n"
        "  --cold       drop the file's pages from the page cache before every run\n"
        "  --keep       keep the generated files (in $TMPDIR or /tmp)\n");
}

int bench_load_main(int argc, char **argv) {
    double gb = 1.0;
    const char *file = NULL;
    int repeat = 3, nthreads = 0, cold = 0, keep = 0, no_cache = 0;
    const char *levels = "none,curve,full";
    for (int i = 2; i < argc; i++) {
        if (!strcmp(argv[i], "--gb") && i + 1 < argc) gb = atof(argv[++i]);
        else if (!strcmp(argv[i], "--file") && i + 1 < argc) file = argv[++i];
        else if (!strcmp(argv[i], "--repeat") && i + 1 < argc) repeat = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--threads") && i + 1 < argc) nthreads = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--cold")) cold = 1;
        else if (!strcmp(argv[i], "--levels") && i + 1 < argc) levels = argv[++i];
        else if (!strcmp(argv[i], "--keep")) keep = 1;
        else if (!strcmp(argv[i], "--no-cache")) no_cache = 1;
        else if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) { help(stdout); return 0; }
        else { help(stderr); return 2; }
    }
    if (repeat < 1) repeat = 1;
    if (gb <= 0 || gb > 1000) { fprintf(stderr, "cuzk bench load: --gb wants a size in (0, 1000]\n"); return 2; }
    char big[512], small[512];
    const char *tmp = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
    if (file) {
        snprintf(big, sizeof big, "%s", file);
        snprintf(small, sizeof small, "%s", file);
    } else {
        /* bytes = 96 (12 q + q) + 192 q + header = 1440 q */
        uint32_t q = (uint32_t)(gb * 1e9 / 1440.0);
        uint32_t qs = q / 256 ? q / 256 : 1;
        snprintf(big, sizeof big, "%s/cuzk-bench-load-%u.params", tmp, q);
        snprintf(small, sizeof small, "%s/cuzk-bench-load-%u.params", tmp, qs);
        struct stat sb;
        double t0 = bench_now_ms();
        if (stat(big, &sb) != 0 && make_file(big, q) != 0) { fprintf(stderr, "cuzk bench load: cannot write %s\n", big); return 4; }
        if (stat(small, &sb) != 0 && make_file(small, qs) != 0) { fprintf(stderr, "cuzk bench load: cannot write %s\n", small); return 4; }
        fprintf(stderr, "files ready in %.1f s: %s, %s\n", (bench_now_ms() - t0) / 1e3, big, small);
    }
    printf("# cuzk bench load | cuzk %s (git %s) | %d threads | median of %d (min..max), GB/s of file\n", cuzk_version_string(),
           cuzk_git_commit(), nthreads > 0 ? nthreads : cuzk_threads(), repeat);
    printf("| what  | level | file        | page cache | median        | min..max |\n");
    printf("|---|---|---|---|---|---|\n");
    int rc = 0;
    char cache[600];
    snprintf(cache, sizeof cache, "%s.cuzk-srs", big);
    if (!no_cache) {
        struct stat cb;
        int had = stat(cache, &cb) == 0;
        double md = 0, mw = 0;
        cuzk_error e = {0};
        if (benchkit_srs_cache_make(big, CUZK_CHECK_CURVE, nthreads, &md, &mw, &e) != CUZK_OK) {
            fprintf(stderr, "cuzk bench load: making the cache: %s\n", e.msg);
            return 3;
        }
        printf("# cache %s made: decode (curve, pread) %.2f s + write %.2f s%s\n", cache, md / 1e3, mw / 1e3,
               had ? " (replaced the one there)" : "");
    }
    const char *whats[] = {"check", "load", "pread", "cache"};
    for (int w = 0; w < (no_cache ? 2 : 4) && !rc; w++) {
        if (strstr(levels, "none")) rc |= bench_row(big, whats[w], CUZK_CHECK_NONE, repeat, nthreads, cold);
        if (!rc && strstr(levels, "curve")) rc |= bench_row(big, whats[w], CUZK_CHECK_CURVE, repeat, nthreads, cold);
        if (!rc && w < 2 && strstr(levels, "full")) rc |= bench_row(small, whats[w], CUZK_CHECK_FULL, repeat, nthreads, cold);
    }
    if (!no_cache && (!file || !keep)) unlink(cache);
    if (!file && !keep) {
        unlink(big);
        unlink(small);
    }
    return rc;
}
