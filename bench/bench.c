/* cuzk bench field|ntt|msm|prove|pipeline|load|gpu: benchmarks (GPU ones are added by the CUDA backend).
 * Every figure is the median of --repeat runs after one warm-up run; min and max are printed too. */
#include "bench.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cuzk/groth16.h"
#include "curves/bls12_381/curve.h"
#include "util/parallel.h"
#include "util/rng.h"
#include "util/timer.h"

#ifndef CUZK_GIT_HASH
#define CUZK_GIT_HASH "unknown"
#endif
#ifndef CUZK_SOURCE_DIR_STR
#define CUZK_SOURCE_DIR_STR "."
#endif

typedef struct {
    int repeat;
    int lo, hi;       /* log2 sizes */
    int nthreads;
    const char *zkey, *wtns;
    cuzk_backend backend;
} bench_opts;

static uint64_t g_rng = 0x853c49e6748fea9bull;
static uint64_t rnd(void) { return splitmix64_next(&g_rng); }
static void rand_fr(fr *x) {
    uint8_t b[64];
    for (int i = 0; i < 8; i++) { uint64_t v = rnd(); memcpy(b + 8 * i, &v, 8); }
    fr_from_bytes_wide_le(x, b, sizeof b);
}

static int cmp_dbl(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}
typedef struct { double med, min, max; } stat3;
static stat3 stats(double *v, int n) {
    qsort(v, (size_t)n, sizeof *v, cmp_dbl);
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
    printf("# cuzk bench %s | cuzk %s (git %s) | CPU: %s, %d threads | median of %d (min..max)\n", what,
           CUZK_VERSION, CUZK_GIT_HASH, cpu, o->nthreads > 0 ? o->nthreads : cuzk_num_threads(), o->repeat);
}

/* ---- field and group ops ------------------------------------------------------------------ */
static int bench_field(const bench_opts *o) {
    header("field", o);
    enum { N = 1 << 14 };
    fr *a = malloc(N * sizeof *a);
    fp *x = malloc(N * sizeof *x);
    if (!a || !x) return 4;
    for (int i = 0; i < N; i++) {
        rand_fr(&a[i]);
        uint64_t l[6];
        for (int k = 0; k < 6; k++) l[k] = rnd();
        l[5] &= 0x0fffffffffffffffull;
        fp_from_canon(&x[i], l);
    }
    printf("%-28s %12s %12s %12s\n", "op", "ns/op", "min", "max");
    double v[64];
    int R = o->repeat > 64 ? 64 : o->repeat;
#define TIME_LOOP(label, iters, body)                                                        \
    do {                                                                                     \
        for (int rep = -1; rep < R; rep++) {                                                 \
            double t0 = now_ms();                                                            \
            for (long it = 0; it < (iters); it++) { body; }                                  \
            double dt = (now_ms() - t0) * 1e6 / (double)(iters);                             \
            if (rep >= 0) v[rep] = dt;                                                       \
        }                                                                                    \
        stat3 s = stats(v, R);                                                               \
        printf("%-28s %12.1f %12.1f %12.1f\n", label, s.med, s.min, s.max);                  \
    } while (0)
    fp acc = x[0];
    fr facc = a[0];
    TIME_LOOP("fp_mul", 2000000L, fp_mul(&acc, &acc, &x[it & (N - 1)]));
    TIME_LOOP("fp_sqr", 2000000L, fp_sqr(&acc, &acc));
    TIME_LOOP("fr_mul", 2000000L, fr_mul(&facc, &facc, &a[it & (N - 1)]));
    TIME_LOOP("fp_inv", 2000L, fp_inv(&acc, &acc));
    g1_affine g;
    g1_generator(&g);
    g1_jacobian j, gj;
    g1_jacobian_from_affine(&j, &g);
    g1_jacobian_dbl(&gj, &j);
    g1_xyzz xz;
    g1_xyzz_from_affine(&xz, &g);
    g1_xyzz_dbl(&xz, &xz);
    TIME_LOOP("g1_jacobian_add_mixed", 500000L, g1_jacobian_add_mixed(&j, &j, &g));
    TIME_LOOP("g1_jacobian_add", 500000L, g1_jacobian_add(&j, &j, &gj));
    TIME_LOOP("g1_xyzz_add_mixed", 500000L, g1_xyzz_add_mixed(&xz, &xz, &g));
    TIME_LOOP("g1_jacobian_dbl", 500000L, g1_jacobian_dbl(&j, &j));
    g2_affine h;
    g2_generator(&h);
    g2_jacobian k;
    g2_jacobian_from_affine(&k, &h);
    g2_jacobian_dbl(&k, &k);
    TIME_LOOP("g2_jacobian_add_mixed", 200000L, g2_jacobian_add_mixed(&k, &k, &h));
    if (fp_is_zero(&acc) && fr_is_zero(&facc) && g1_jacobian_is_infinity(&j)) printf("(unlikely)\n");
    free(a);
    free(x);
    return 0;
}

/* ---- NTT ----------------------------------------------------------------------------------- */
static int bench_ntt(const bench_opts *o) {
    header("ntt", o);
    printf("%-10s %12s %12s %12s %14s\n", "size", "fwd ms", "min", "max", "coset-inv ms");
    for (int lg = o->lo; lg <= o->hi; lg++) {
        size_t m = (size_t)1 << lg;
        ntt_domain d;
        if (ntt_domain_init(&d, lg, NTT_ROOTS_BELLPERSON) != CUZK_OK) { printf("2^%d: cannot build domain\n", lg); continue; }
        fr *a = malloc(m * sizeof *a);
        if (!a) { ntt_domain_free(&d); printf("2^%d: out of memory\n", lg); continue; }
        for (size_t i = 0; i < m; i++) rand_fr(&a[i]);
        double v[64], w[64];
        int R = o->repeat > 64 ? 64 : o->repeat;
        fr g;
        fr_from_u64(&g, 7);
        for (int rep = -1; rep < R; rep++) {
            double t0 = now_ms();
            ntt_forward(&d, a, o->nthreads);
            double t1 = now_ms();
            ntt_coset_inverse(&d, a, &g, o->nthreads);
            double t2 = now_ms();
            if (rep >= 0) { v[rep] = t1 - t0; w[rep] = t2 - t1; }
        }
        stat3 s = stats(v, R), s2 = stats(w, R);
        printf("2^%-8d %12.2f %12.2f %12.2f %14.2f\n", lg, s.med, s.min, s.max, s2.med);
        free(a);
        ntt_domain_free(&d);
    }
    return 0;
}

/* ---- MSM ----------------------------------------------------------------------------------- */
/* n distinct-looking bases cheaply: P_i = P_{i-1} + Q_{i mod 64} over 64 random multiples of G. */
static g1_affine *make_bases(size_t n) {
    g1_affine *out = malloc(n * sizeof *out);
    g1_jacobian *tmp = malloc(n * sizeof *tmp);
    g1_affine q[64], g;
    g1_jacobian jq[64];
    if (!out || !tmp) { free(out); free(tmp); return NULL; }
    g1_generator(&g);
    for (int i = 0; i < 64; i++) {
        fr k;
        rand_fr(&k);
        g1_jacobian_from_affine(&jq[i], &g);
        g1_mul_fr_vartime(&jq[i], &jq[i], &k);
    }
    g1s_jacobian_to_affine(q, jq, 64);
    g1_jacobian acc;
    g1_jacobian_from_affine(&acc, &q[0]);
    for (size_t i = 0; i < n; i++) {
        g1_jacobian_add_mixed(&acc, &acc, &q[i & 63]);
        tmp[i] = acc;
    }
    g1s_jacobian_to_affine(out, tmp, n);
    free(tmp);
    return out;
}

static int bench_msm(const bench_opts *o) {
    header("msm", o);
    size_t nmax = (size_t)1 << o->hi;
    g1_affine *bases = make_bases(nmax);
    scalar256 *sc = malloc(nmax * sizeof *sc), *sc01 = malloc(nmax * sizeof *sc01);
    if (!bases || !sc || !sc01) { fprintf(stderr, "out of memory\n"); return 4; }
    for (size_t i = 0; i < nmax; i++) {
        fr k;
        rand_fr(&k);
        fr_to_canon(sc[i].l, &k);
        memset(&sc01[i], 0, sizeof sc01[i]);
        uint64_t r = rnd() % 100;    /* SHA-256-like: mostly 0 and 1 */
        if (r < 50) {}
        else if (r < 95) sc01[i].l[0] = 1;
        else sc01[i] = sc[i];
    }
    printf("%-10s %8s %12s %12s %12s %16s\n", "size", "window", "random ms", "min", "max", "95% 0/1 ms");
    for (int lg = o->lo; lg <= o->hi; lg++) {
        size_t n = (size_t)1 << lg;
        double v[64], w[64];
        int R = o->repeat > 64 ? 64 : o->repeat;
        g1_jacobian out;
        for (int rep = -1; rep < R; rep++) {
            double t0 = now_ms();
            g1_msm(&out, bases, sc, n, o->nthreads);
            double t1 = now_ms();
            g1_msm(&out, bases, sc01, n, o->nthreads);
            double t2 = now_ms();
            if (rep >= 0) { v[rep] = t1 - t0; w[rep] = t2 - t1; }
        }
        stat3 s = stats(v, R), s2 = stats(w, R);
        printf("2^%-8d %8d %12.2f %12.2f %12.2f %16.2f\n", lg, msm_window_bits(n), s.med, s.min, s.max, s2.med);
    }
    free(bases);
    free(sc);
    free(sc01);
    return 0;
}

/* ---- prove --------------------------------------------------------------------------------- */
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
    printf("%-40s %8u %-8s %10.2f %10.2f %10.2f %10.2f %10.2f %10.2f\n", name, t.domain_size,
           t.backend ? t.backend : "cpu", a.med, a.min, a.max, d.med, b.med, c.med);
    unlink(proof);
    unlink(pub);
    return 0;
}

static int bench_prove(const bench_opts *o) {
    header("prove", o);
    printf("backend requested: %s (the backend each proof ran on is in the 'ran on' column)\n",
           o->backend == CUZK_BACKEND_CPU ? "cpu" : o->backend == CUZK_BACKEND_GPU ? "gpu" : "auto");
    printf("%-40s %8s %-8s %10s %10s %10s %10s %10s %10s\n", "circuit", "domain", "ran on", "total ms", "min", "max",
           "load", "H", "MSMs");
    if (o->zkey) return bench_prove_one(o, o->zkey, o->wtns);
    const char *circ[] = {"multiplier", "merkle_mimc5"};
    int rc = 0;
    for (int i = 0; i < 2; i++) {
        char zk[4096], wt[4096];
        snprintf(zk, sizeof zk, "%s/tests/fixtures/bls12381/%s/circuit_final.zkey", CUZK_SOURCE_DIR_STR, circ[i]);
        snprintf(wt, sizeof wt, "%s/tests/fixtures/bls12381/%s/witness.wtns", CUZK_SOURCE_DIR_STR, circ[i]);
        if (access(zk, R_OK) != 0) { fprintf(stderr, "missing %s (use --zkey/--wtns)\n", zk); rc = 3; continue; }
        int r = bench_prove_one(o, zk, wt);
        if (r) rc = r;
    }
    return rc;
}

static void bench_help(FILE *f) {
    fprintf(f,
        "usage: cuzk bench field|ntt|msm|prove|pipeline|load|gpu [options]\n"
        "\n"
        "Benchmarks; each figure is the median of --repeat runs after a warm-up (min and max too).\n"
        "  field   ns per Fp/Fr multiplication, inversion, G1/G2 additions\n"
        "  ntt     forward NTT and inverse coset NTT, sizes 2^lo..2^hi (default 16..22)\n"
        "  msm     G1 MSM, random scalars and SHA-256-like 95%% 0/1 scalars (default 2^16..2^20)\n"
        "  prove   whole proofs of the bundled circuits, or --zkey Z --wtns W\n"
        "  pipeline  the proving engine on a synthetic PoRep-shaped circuit (cuzk bench pipeline --help)\n"
        "  load      .params loading throughput per check level, GB/s (cuzk bench load --help)\n"
        "  post      Filecoin PoSt: synthesis (witness-only, recording) and whole proofs in memory (cuzk bench post --help)\n"
        "  gpu       device-resident GPU MSM/NTT: cuzk bench gpu msm 24 ntt 27 (CUDA builds)\n"
        "options:\n"
        "  --repeat N       repeats (default 5)\n"
        "  --sizes LO..HI   log2 size range, e.g. 16..20\n"
        "  --threads N      worker threads (default: all CPUs)\n"
        "  --zkey F --wtns W  circuit for 'prove'\n"
        "  --backend B      prove: cpu | gpu | auto (default auto)\n"
        "examples:\n"
        "  cuzk bench msm --sizes 16..18 --repeat 3\n"
        "  cuzk bench prove --zkey circuit_final.zkey --wtns witness.wtns\n"
        "Record results in bench/RESULTS.md (machine, size, median).\n");
}

int cuzk_bench_pipeline(int argc, char **argv); /* bench/pipeline_bench.c */
int cuzk_bench_load(int argc, char **argv);     /* bench/load_bench.c */
int cuzk_bench_post(int argc, char **argv);     /* bench/post_bench.c */
#ifdef CUZK_HAVE_CUDA
int cuzk_gpu_bench_main(int argc, char **argv); /* bench/gpu_bench.c */
#endif

int cuzk_bench_main(int argc, char **argv) {
    if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) { bench_help(argc < 2 ? stderr : stdout); return argc < 2 ? 2 : 0; }
    const char *what = argv[1];
    if (!strcmp(what, "pipeline")) return cuzk_bench_pipeline(argc, argv);
    if (!strcmp(what, "load")) return cuzk_bench_load(argc, argv);
    if (!strcmp(what, "post")) return cuzk_bench_post(argc, argv);
    if (!strcmp(what, "gpu")) {
#ifdef CUZK_HAVE_CUDA
        /* argv[1] is "gpu": the GPU bench reads "msm LOG_N [W]" / "ntt LOG_M [BATCH]" pairs after it */
        int rc = cuzk_gpu_bench_main(argc - 1, argv + 1);
        if (rc == 77) fprintf(stderr, "cuzk bench gpu: no CUDA device on this machine\n");
        return rc == 77 ? 4 : rc; /* 77 is the test runner's skip code, not a documented exit code */
#else
        fprintf(stderr, "cuzk bench gpu: this build has no CUDA backend\n");
        return 4;
#endif
    }
    bench_opts o = {5, -1, -1, 0, NULL, NULL, CUZK_BACKEND_AUTO};
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
            if (sscanf(argv[++i], "%d..%d", &o.lo, &o.hi) != 2 || o.lo < 1 || o.hi < o.lo || o.hi > 28) {
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
        else if (!strcmp(argv[i], "--help")) { bench_help(stdout); return 0; }
        else { fprintf(stderr, "cuzk bench: unknown option '%s'\n", argv[i]); bench_help(stderr); return 2; }
    }
    if (o.repeat < 1) o.repeat = 1;
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
