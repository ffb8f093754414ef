/* cuzk bench field|ntt|msm|prove|pipeline|load|gpu: benchmarks (GPU ones are added by the CUDA backend).
 * Every figure is the median of --repeat runs after one warm-up run; min and max are printed too. */
#include "bench.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../src/benchkit/benchkit.h" /* the bench kit (static, internal: not in libcuzk.so) */
#include "cuzk/groth16.h"

#ifndef CUZK_SOURCE_DIR_STR
#define CUZK_SOURCE_DIR_STR "."
#endif

typedef struct {
    int repeat;
    int lo, hi;       /* log2 sizes */
    int nthreads;
    const char *zkey, *wtns;
    cuzk_backend backend;
    cuzk_curve curve; /* field, ntt, msm */
    int group;        /* msm: 1 (G1) or 2 (G2) */
    int compare;      /* msm: also the per-point XYZZ accumulation, random scalars, and the ratio */
    int xyzz;         /* msm: every run with the per-point XYZZ accumulation */
} bench_opts;

int bench_cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}
double bench_median(double *v, size_t n) {
    if (!n) return 0;
    qsort(v, n, sizeof *v, bench_cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* The value after `key` on its line of a /proc file (-1: no file or no such line). */
static double proc_value(const char *path, const char *key) {
    FILE *f = fopen(path, "r");
    if (!f) return -1;
    char line[256];
    size_t k = strlen(key);
    double v = -1;
    while (fgets(line, sizeof line, f))
        if (!strncmp(line, key, k)) {
            v = atof(line + k);
            break;
        }
    fclose(f);
    return v;
}
double bench_mem_available_bytes(void) {
    double kib = proc_value("/proc/meminfo", "MemAvailable:");
    return kib < 0 ? -1 : kib * 1024.0;
}
long bench_rss_kib(void) { return (long)proc_value("/proc/self/status", "VmRSS:"); }
long bench_peak_rss_kib(void) { return (long)proc_value("/proc/self/status", "VmHWM:"); }
typedef struct { double med, min, max; } stat3;
static stat3 stats(double *v, int n) {
    qsort(v, (size_t)n, sizeof *v, bench_cmp_double);
    stat3 s = {n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2, v[0], v[n - 1]};
    return s;
}

static void header(const char *what, const bench_opts *o) {
    char cpu[256] = "unknown";
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (f) {
        char line[512];
        while (fgets(line, sizeof line, f)) {
            if (!strncmp(line, "model name", 10)) {
                char *c = strchr(line, ':');
                if (c) { snprintf(cpu, sizeof cpu, "%s", c + 2); cpu[strcspn(cpu, "\n")] = 0; }
                break;
            }
        }
        fclose(f);
    }
    char curve[48] = "";
    if (o->curve != CUZK_CURVE_BLS12_381) snprintf(curve, sizeof curve, " (%s)", cuzk_curve_name(o->curve));
    printf("# cuzk bench %s%s | cuzk %s (git %s) | CPU: %s, %d threads | median of %d (min..max)\n", what, curve,
           cuzk_version_string(), cuzk_git_commit(), cpu, o->nthreads > 0 ? o->nthreads : cuzk_threads(), o->repeat);
}

static int fail_status(const char *what, cuzk_status st, const cuzk_error *e) {
    fprintf(stderr, "cuzk bench %s: %s\n", what, e->msg[0] ? e->msg : cuzk_status_str(st));
    return cuzk_exit_code(st);
}

/* ---- field and group ops (timed inside the library: src/benchkit/benchkit.h) ---------------------- */
static int bench_field(const bench_opts *o) {
    header("field", o);
    printf("%-28s %12s %12s %12s\n", "op", "ns/op", "min", "max");
    double v[64];
    int R = o->repeat > 64 ? 64 : o->repeat;
    /* iterations per timed run, by the cost of the operation */
    static const uint64_t iters[BENCHKIT_N_OPS] = {2000000, 2000000, 2000000, 2000, 500000, 500000, 500000, 500000, 200000};
    for (int op = 0; op < BENCHKIT_N_OPS; op++) {
        for (int rep = -1; rep < R; rep++) {
            cuzk_error e = {0};
            double ns = 0;
            cuzk_status st = benchkit_op_time(o->curve, (benchkit_op)op, iters[op], &ns, &e);
            if (st != CUZK_OK) return fail_status("field", st, &e);
            if (rep >= 0) v[rep] = ns;
        }
        stat3 s = stats(v, R);
        printf("%-28s %12.1f %12.1f %12.1f\n", benchkit_op_name((benchkit_op)op), s.med, s.min, s.max);
    }
    return 0;
}

/* ---- NTT ----------------------------------------------------------------------------------- */
static int bench_ntt(const bench_opts *o) {
    header("ntt", o);
    printf("%-10s %12s %12s %12s %14s\n", "size", "fwd ms", "min", "max", "coset-inv ms");
    for (int lg = o->lo; lg <= o->hi; lg++) {
        benchkit_ntt *h = NULL;
        cuzk_error e = {0};
        cuzk_status st = benchkit_ntt_create(&h, o->curve, lg, 0x853c49e6748fea9bull + (uint64_t)lg, &e);
        if (st != CUZK_OK) {
            printf("2^%d: %s\n", lg, st == CUZK_ERR_NOMEM ? "out of memory" : e.msg);
            continue;
        }
        double v[64], w[64];
        int R = o->repeat > 64 ? 64 : o->repeat;
        for (int rep = -1; rep < R && st == CUZK_OK; rep++) {
            double fwd = 0, inv = 0;
            st = benchkit_ntt_run(h, o->nthreads, &fwd, &inv, &e);
            if (rep >= 0) { v[rep] = fwd; w[rep] = inv; }
        }
        benchkit_ntt_destroy(h);
        if (st != CUZK_OK) return fail_status("ntt", st, &e);
        stat3 s = stats(v, R), s2 = stats(w, R);
        printf("2^%-8d %12.2f %12.2f %12.2f %14.2f\n", lg, s.med, s.min, s.max, s2.med);
    }
    return 0;
}

/* ---- MSM ----------------------------------------------------------------------------------- */
static int bench_msm(const bench_opts *o) {
    header("msm", o);
    benchkit_msm *h = NULL;
    cuzk_error e = {0};
    cuzk_status st = benchkit_msm_create_group(&h, o->curve, o->group, (size_t)1 << o->hi, 0x853c49e6748fea9bull, &e);
    if (o->group == 2) printf("group: G2\n");
    if (st == CUZK_OK && o->xyzz) {
        benchkit_msm_set_xyzz(h, 1);
        printf("accumulation: one XYZZ mixed addition per point (--xyzz)\n");
    }
    if (st != CUZK_OK) return fail_status("msm", st, &e);
    if (o->compare)
        printf("%-10s %8s %12s %12s %12s %16s %14s %14s\n", "size", "window", "random ms", "min", "max", "95% 0/1 ms",
               "xyzz random", "affine/xyzz");
    else
        printf("%-10s %8s %12s %12s %12s %16s\n", "size", "window", "random ms", "min", "max", "95% 0/1 ms");
    for (int lg = o->lo; lg <= o->hi && st == CUZK_OK; lg++) {
        size_t n = (size_t)1 << lg;
        double v[64], w[64], x[64];
        int R = o->repeat > 64 ? 64 : o->repeat;
        for (int rep = -1; rep < R && st == CUZK_OK; rep++) {
            double t_rand = 0, t_01 = 0, t_x = 0;
            st = benchkit_msm_run(h, n, BENCHKIT_SCALARS_RANDOM, o->nthreads, &t_rand, &e);
            if (st == CUZK_OK) st = benchkit_msm_run(h, n, BENCHKIT_SCALARS_01, o->nthreads, &t_01, &e);
            if (st == CUZK_OK && o->compare) { /* interleaved with the others: the same machine state */
                benchkit_msm_set_xyzz(h, 1);
                st = benchkit_msm_run(h, n, BENCHKIT_SCALARS_RANDOM, o->nthreads, &t_x, &e);
                benchkit_msm_set_xyzz(h, o->xyzz);
            }
            if (rep >= 0) { v[rep] = t_rand; w[rep] = t_01; x[rep] = t_x; }
        }
        if (st != CUZK_OK) break;
        stat3 s = stats(v, R), s2 = stats(w, R), s3 = stats(x, R);
        if (o->compare)
            printf("2^%-8d %8d %12.2f %12.2f %12.2f %16.2f %14.2f %14.3f\n", lg, benchkit_msm_window_bits(n), s.med, s.min,
                   s.max, s2.med, s3.med, s.med / s3.med);
        else
            printf("2^%-8d %8d %12.2f %12.2f %12.2f %16.2f\n", lg, benchkit_msm_window_bits(n), s.med, s.min, s.max, s2.med);
    }
    benchkit_msm_destroy(h);
    if (st == CUZK_OK && o->compare)
        printf("(the library adds affine buckets in batches from window %d up for %s, one XYZZ point at a time below:\n"
               " there both columns run the same method and the ratio is noise)\n", o->group == 2 ? 11 : 13, o->group == 2 ? "G2" : "G1");
    return st == CUZK_OK ? 0 : fail_status("msm", st, &e);
}

/* ---- prove --------------------------------------------------------------------------------- */
/* The curve of a .wtns (the prime in its header: cuzk_witness_count over a mapping of the file),
 * for the prove table's curve column; "?" when the file does not say. */
static const char *wtns_curve(const char *wt) {
    const char *name = "?";
    int fd = open(wt, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return name;
    struct stat sb;
    if (fstat(fd, &sb) == 0 && sb.st_size > 0) {
        void *m = mmap(NULL, (size_t)sb.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
        if (m != MAP_FAILED) {
            cuzk_witness w = {CUZK_WITNESS_WTNS, m, (size_t)sb.st_size};
            size_t n = 0;
            cuzk_curve c = CUZK_CURVE_UNKNOWN;
            if (cuzk_witness_count(&w, &n, &c, NULL) == CUZK_OK && c != CUZK_CURVE_UNKNOWN) name = cuzk_curve_name(c);
            munmap(m, (size_t)sb.st_size);
        }
    }
    close(fd);
    return name;
}

static int bench_prove_one(const bench_opts *o, const char *zk, const char *wt) {
    char proof[4096], pub[4096];
    snprintf(proof, sizeof proof, "/tmp/cuzk-bench-proof-%d.json", (int)getpid());
    snprintf(pub, sizeof pub, "/tmp/cuzk-bench-public-%d.json", (int)getpid());
    cuzk_prove_opts po = {0};
    po.nthreads = o->nthreads;
    po.skip_self_verify = 1;
    po.backend = o->backend;
    int R = o->repeat > 64 ? 64 : o->repeat;
    double tot[64], h[64], msm[64], load[64];
    cuzk_prove_timings t;
    for (int rep = -1; rep < R; rep++) {
        cuzk_error e = {0};
        cuzk_status st = cuzk_prove_zkey_files(zk, wt, proof, pub, &po, &t, &e);
        if (st != CUZK_OK) { fprintf(stderr, "bench prove %s: %s\n", zk, e.msg); return cuzk_exit_code(st); }
        if (rep >= 0) {
            tot[rep] = t.total_ms;
            h[rep] = t.h_ms;
            msm[rep] = t.msm_a_ms + t.msm_b1_ms + t.msm_b2_ms + t.msm_l_ms + t.msm_h_ms;
            load[rep] = t.load_ms;
        }
    }
    stat3 a = stats(tot, R), b = stats(h, R), c = stats(msm, R), d = stats(load, R);
    /* name: the last two path components (circuit folder / file) */
    const char *name = zk, *p = zk + strlen(zk);
    int slashes = 0;
    while (p > zk) { p--; if (*p == '/' && ++slashes == 2) { name = p + 1; break; } }
    printf("%-40s %-10s %8u %-8s %10.2f %10.2f %10.2f %10.2f %10.2f %10.2f\n", name, wtns_curve(wt), t.domain_size,
           t.backend ? t.backend : "cpu", a.med, a.min, a.max, d.med, b.med, c.med);
    unlink(proof);
    unlink(pub);
    return 0;
}

static int bench_prove(const bench_opts *o) {
    header("prove", o);
    printf("backend requested: %s (the backend each proof ran on is in the 'ran on' column)\n",
           o->backend == CUZK_BACKEND_CPU ? "cpu" : o->backend == CUZK_BACKEND_GPU ? "gpu" : "auto");
    printf("%-40s %-10s %8s %-8s %10s %10s %10s %10s %10s %10s\n", "circuit", "curve", "domain", "ran on", "total ms", "min",
           "max", "load", "H", "MSMs");
    if (o->zkey) return bench_prove_one(o, o->zkey, o->wtns);
    /* the fixtures of both curves (the file's curve picks the curve) */
    const char *circ[][2] = {{"bls12381", "multiplier"}, {"bls12381", "merkle_mimc5"},
                             {"bn128", "multiplier"},    {"bn128", "merkle_poseidon"}};
    int rc = 0;
    for (size_t i = 0; i < sizeof circ / sizeof *circ; i++) {
        char zk[4096], wt[4096];
        snprintf(zk, sizeof zk, "%s/tests/fixtures/%s/%s/circuit_final.zkey", CUZK_SOURCE_DIR_STR, circ[i][0],
                 circ[i][1]);
        snprintf(wt, sizeof wt, "%s/tests/fixtures/%s/%s/witness.wtns", CUZK_SOURCE_DIR_STR, circ[i][0], circ[i][1]);
        if (access(zk, R_OK) != 0) { fprintf(stderr, "missing %s (use --zkey/--wtns)\n", zk); rc = 3; continue; }
        int r = bench_prove_one(o, zk, wt);
        if (r) rc = r;
    }
    return rc;
}

static void bench_help(FILE *f) {
    fprintf(f,
        "usage: cuzk bench field|ntt|msm|prove|pipeline|load|post|porep|gpu [options]\n"
        "       cuzk-bench field|ntt|msm|prove|pipeline|load|post|porep|gpu [options]   (the same program)\n"
        "\n"
        "Benchmarks; each figure is the median of --repeat runs after a warm-up (min and max too).\n"
        "  field   ns per Fp/Fr multiplication, inversion, G1/G2 additions\n"
        "  ntt     forward NTT and inverse coset NTT, sizes 2^lo..2^hi (default 16..22)\n"
        "  msm     G1 (or --group g2) MSM, random scalars and SHA-256-like 95%% 0/1 scalars (default 2^16..2^20)\n"
        "  prove   whole proofs of the bundled circuits, or --zkey Z --wtns W\n"
        "  pipeline  the proving engine on a synthetic PoRep-shaped circuit (cuzk bench pipeline --help)\n"
        "  load      .params loading throughput per check level, GB/s (cuzk bench load --help)\n"
        "  post      Filecoin PoSt: synthesis (witness-only, recording) and whole proofs in memory (cuzk bench post --help)\n"
        "  porep     Filecoin PoRep C2: whole sectors proved in memory from a C1 (cuzk bench porep --help)\n"
        "  gpu       device-resident GPU MSM/NTT: cuzk bench gpu msm 24 ntt 27 (CUDA builds)\n"
        "options:\n"
        "  --repeat N       repeats (default 5)\n"
        "  --sizes LO..HI   log2 size range, e.g. 16..20\n"
        "  --threads N      worker threads (default: all CPUs)\n"
        "  --zkey F --wtns W  circuit for 'prove'\n"
        "  --backend B      prove: cpu | gpu | auto (default auto)\n"
        "  --curve C        field, ntt, msm: bls12-381 (default) | bn254\n"
        "  --group G        msm: g1 (default) | g2 (the provers' CPU B_G2 MSM)\n"
        "  --compare        msm: also time the per-point XYZZ accumulation (random scalars) and print the ratio\n"
        "  --xyzz           msm: every run with the per-point XYZZ accumulation (the method before)\n"
        "examples:\n"
        "  cuzk bench msm --sizes 16..18 --repeat 3\n"
        "  cuzk bench prove --zkey circuit_final.zkey --wtns witness.wtns\n"
        "Record results in bench/RESULTS.md (machine, size, median).\n");
}

int bench_pipeline_main(int argc, char **argv); /* bench/pipeline_bench.c */
int bench_load_main(int argc, char **argv);     /* bench/load_bench.c */
int bench_post_main(int argc, char **argv);     /* bench/post_bench.c */
int bench_gpu_main(int argc, char **argv); /* bench/gpu_bench.c */

/* The options of bench_main that take a value (a missing value is named as such). */
static int is_value_option(const char *a) {
    static const char *const v[] = {"--repeat", "--sizes", "--threads", "--zkey", "--wtns", "--backend", "--curve", "--group"};
    for (size_t i = 0; i < sizeof v / sizeof *v; i++)
        if (!strcmp(a, v[i])) return 1;
    return 0;
}

int bench_main(int argc, char **argv) {
    if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) { bench_help(argc < 2 ? stderr : stdout); return argc < 2 ? 2 : 0; }
    const char *what = argv[1];
    if (!strcmp(what, "pipeline")) return bench_pipeline_main(argc, argv);
    if (!strcmp(what, "load")) return bench_load_main(argc, argv);
    if (!strcmp(what, "post")) return bench_post_main(argc, argv);
    if (!strcmp(what, "porep")) return bench_porep_main(argc, argv);
    if (!strcmp(what, "gpu")) {
        /* argv[1] is "gpu": the GPU bench reads "msm LOG_N [W]" / "ntt LOG_M [BATCH]" pairs after it */
        return bench_gpu_main(argc - 1, argv + 1);
    }
    bench_opts o = {5, -1, -1, 0, NULL, NULL, CUZK_BACKEND_AUTO, CUZK_CURVE_BLS12_381, 1, 0, 0};
    for (int i = 2; i < argc; i++) {
        long v;
        if (!strcmp(argv[i], "--repeat") && i + 1 < argc) {
            if (!bench_parse_long("--repeat", argv[++i], 1, 1000, &v)) return 2;
            o.repeat = (int)v;
        } else if (!strcmp(argv[i], "--threads") && i + 1 < argc) {
            if (!bench_parse_long("--threads", argv[++i], 1, 4096, &v)) return 2;
            o.nthreads = (int)v;
        }
        else if (!strcmp(argv[i], "--sizes") && i + 1 < argc) {
            int used = 0;
            const char *sz = argv[++i];
            if (sscanf(sz, "%d..%d%n", &o.lo, &o.hi, &used) != 2 || sz[used] != '\0' || o.lo < 1 || o.hi < o.lo || o.hi > 28) {
                fprintf(stderr, "cuzk bench: --sizes wants LO..HI with 1 <= LO <= HI <= 28\n");
                return 2;
            }
        } else if (!strcmp(argv[i], "--zkey") && i + 1 < argc) o.zkey = argv[++i];
        else if (!strcmp(argv[i], "--wtns") && i + 1 < argc) o.wtns = argv[++i];
        else if (!strcmp(argv[i], "--backend") && i + 1 < argc) {
            const char *b = argv[++i];
            if (!strcmp(b, "cpu")) o.backend = CUZK_BACKEND_CPU;
            else if (!strcmp(b, "gpu")) o.backend = CUZK_BACKEND_GPU;
            else if (!strcmp(b, "auto")) o.backend = CUZK_BACKEND_AUTO;
            else { fprintf(stderr, "cuzk bench: --backend wants cpu, gpu or auto\n"); return 2; }
        }
        else if (!strcmp(argv[i], "--compare")) o.compare = 1;
        else if (!strcmp(argv[i], "--xyzz")) o.xyzz = 1;
        else if (!strcmp(argv[i], "--group") && i + 1 < argc) {
            const char *g = argv[++i];
            if (!strcmp(g, "g1") || !strcmp(g, "1")) o.group = 1;
            else if (!strcmp(g, "g2") || !strcmp(g, "2")) o.group = 2;
            else { fprintf(stderr, "cuzk bench: --group wants g1 or g2 (got '%s')\n", g); return 2; }
        }
        else if (!strcmp(argv[i], "--curve") && i + 1 < argc) {
            const char *c = argv[++i];
            if (!strcmp(c, "bls12-381") || !strcmp(c, "bls12381")) o.curve = CUZK_CURVE_BLS12_381;
            else if (!strcmp(c, "bn254") || !strcmp(c, "bn128")) o.curve = CUZK_CURVE_BN254;
            else { fprintf(stderr, "cuzk bench: --curve wants bls12-381 or bn254 (got '%s')\n", c); return 2; }
        }
        else if (!strcmp(argv[i], "--help")) { bench_help(stdout); return 0; }
        else if (i + 1 == argc && is_value_option(argv[i])) {
            fprintf(stderr, "cuzk bench: %s needs a value\n", argv[i]);
            return 2;
        }
        else { fprintf(stderr, "cuzk bench: unknown option '%s'\n", argv[i]); bench_help(stderr); return 2; }
    }
    if (o.repeat < 1) o.repeat = 1;
    if (o.compare && o.xyzz) { fprintf(stderr, "cuzk bench msm: --compare and --xyzz exclude each other\n"); return 2; }
    if ((o.compare || o.xyzz || o.group != 1) && strcmp(what, "msm") != 0) {
        fprintf(stderr, "cuzk bench %s: --group, --compare and --xyzz are options of 'msm'\n", what);
        return 2;
    }
    if ((o.zkey != NULL) != (o.wtns != NULL)) { fprintf(stderr, "cuzk bench prove: --zkey and --wtns go together\n"); return 2; }
    if (!strcmp(what, "field")) return bench_field(&o);
    if (!strcmp(what, "ntt")) { if (o.lo < 0) { o.lo = 16; o.hi = 22; } return bench_ntt(&o); }
    if (!strcmp(what, "msm")) { if (o.lo < 0) { o.lo = 16; o.hi = 20; } return bench_msm(&o); }
    if (!strcmp(what, "prove")) return bench_prove(&o);
    fprintf(stderr, "cuzk bench: unknown benchmark '%s'\n", what);
    bench_help(stderr);
    return 2;
}

int bench_parse_long(const char *opt, const char *s, long lo, long hi, long *out) {
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno || end == s || *end || v < lo || v > hi) {
        fprintf(stderr, "cuzk bench: %s must be an integer from %ld to %ld (got '%s')\n", opt, lo, hi, s);
        return 0;
    }
    *out = v;
    return 1;
}

int bench_parse_double(const char *opt, const char *s, double lo, double hi, double *out) {
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (errno || end == s || *end || !(v >= lo && v <= hi)) {
        fprintf(stderr, "cuzk bench: %s must be a number from %g to %g (got '%s')\n", opt, lo, hi, s);
        return 0;
    }
    *out = v;
    return 1;
}
