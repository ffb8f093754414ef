/* `cuzk bench gpu`: G1 MSM, Fr NTT, H and fixed-base on device-resident data, CUDA-event timed,
 * median of repeats after warm-up, through the bench kit's GPU kernel timings (src/benchkit/benchkit.h:
 * benchkit_gpu_*). Run by tools/test-gpu.sh (`cuzk-bench gpu ...`).
 * Usage: cuzk bench gpu [msm LOG_N [WINDOW]]... [ntt LOG_M [BATCH]]... [h LOG_M [1 = snarkjs]]...
 *                  [msm01 LOG_N [FRAC] [mont]]... [msm2 LOG_N [FRAC] [mont] [wWINDOW]]...
 *                  [fb1 LOG_N]... [fb2 LOG_N]... [tasks | runs] (G1 MSM accumulation for the cases after
 *                  it, given to them as a prover's cuzk_msm_opts)
 *                  [bn254 | bls12_381] (the curve of the msm / ntt cases after it; BLS12-381 first)
 * Prints one line per case: kind, size, median / min / max ms, and a floor estimate (fb1/fb2:
 * wall-clock of the whole host-to-host call, its kernel time, points per second). Every timed
 * case's result is checked by the bench kit (src/benchkit/gpu.c: MSMs against the known discrete
 * logarithms of their bases, NTTs against naive sums at sampled indices, fixed-base products at
 * sampled indices); a case whose result is wrong prints FAILED with the reason instead of its
 * times, and the exit status is 1. RESULT lines end in "checked". */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../src/benchkit/benchkit.h" /* the bench kit (static, internal: not in libcuzk.so) */
#include "../src/cli/frontend.h"       /* the CLI's helpers: the MSM knobs of the environment */

static int cmpf(const void *a, const void *b) {
    float x = *(const float *)a, y = *(const float *)b;
    return (x > y) - (x < y);
}

/* Floor from operation counts (DESIGN.md section 6): ~10.9e12 independent 32-bit mad.lo/mad.hi
 * pairs per second on an H200; an Fp product ~ 576 pairs (12x32 limbs), an Fr product ~ 256. */
#define MAD_PER_S 10.9e12

/* msm01 LOG_N FRAC [mont]: the prover's G1 MSM (benchkit_gpu_msm01) over 2^LOG_N resident random points, a fraction FRAC of
 * the scalars 0 or 1 (half each), the rest random (Montgomery form with "mont"); CUDA-event time of
 * the whole run, median of repeats, then the phases of the last run (classification, the ones
 * sum, the Pippenger tail split into digits / sort / bucket bounds / accumulation / reduction).
 * Floor: the ones as n_one mixed XYZZ additions of 10 products, the tail as n_other * W mixed
 * additions of 11. */
/* " T" while "tasks" is selected (labels of the MSM cases) */
static char accum[24] = "";
/* the MSM options the MSM cases run with (the accumulation; the library's default until one is
 * named), as a prover would carry them */
static cuzk_msm_opts msm_opts;
/* "bn254" / "bls12_381": the curve of the msm and ntt cases that follow (BLS12-381 first) */
static bool bn254 = false;

/* The cases' words and numbers, checked before anything runs: a usage error is exit 2 (with a
 * message) on any machine, not a device error, and no case is timed before a later word fails. */
static bool is_uint(const char *a) {
    if (!*a) return false;
    for (; *a; a++)
        if (*a < '0' || *a > '9') return false;
    return true;
}
static bool is_frac(const char *a) { /* FRAC of msm01 / msm2: digits and one '.' */
    int dots = 0, digits = 0;
    for (; *a; a++) {
        if (*a == '.') dots++;
        else if (*a >= '0' && *a <= '9') digits++;
        else return false;
    }
    return digits > 0 && dots <= 1;
}
static bool args_valid(int argc, char **argv) {
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "tasks") || !strcmp(a, "runs") || !strcmp(a, "bn254") || !strcmp(a, "bls12_381")) continue;
        if (!strcmp(a, "affine")) {
            fprintf(stderr, "cuzk bench gpu: the GPU batch-affine accumulation was removed (it was slower than "
                            "tasks); the accumulations are tasks and runs\n");
            return false;
        }
        const bool m01 = !strcmp(a, "msm01"), m2 = !strcmp(a, "msm2");
        if (m01 || m2 || !strcmp(a, "msm") || !strcmp(a, "ntt") || !strcmp(a, "h") || !strcmp(a, "fb1") ||
            !strcmp(a, "fb2")) {
            if (i + 1 >= argc || !is_uint(argv[i + 1]) || atoi(argv[i + 1]) < 1 || atoi(argv[i + 1]) > 28) {
                fprintf(stderr, "cuzk bench gpu: %s needs a size LOG (1..28), got %s (--help)\n", a,
                        i + 1 < argc ? argv[i + 1] : "nothing");
                return false;
            }
            i++;
            /* the optional words of each case, in their order (their values are checked by the case) */
            if (m01 || m2) {
                if (i + 1 < argc && is_frac(argv[i + 1])) i++;
                if (i + 1 < argc && !strcmp(argv[i + 1], "mont")) i++;
                if (m2 && i + 1 < argc && argv[i + 1][0] == 'w' && is_uint(argv[i + 1] + 1)) i++;
            } else if (i + 1 < argc && is_uint(argv[i + 1])) {
                i++;
            }
            continue;
        }
        fprintf(stderr, "cuzk bench gpu: unknown argument '%s' (--help lists the cases)\n", a);
        return false;
    }
    return true;
}

static int bench_msm01(int argc, char **argv, int *i) {
    cuzk_error e;
    memset(&e, 0, sizeof e);
    if (*i + 1 >= argc) return 2;
    int lg = atoi(argv[++*i]);
    double frac = 1.0;
    if (*i + 1 < argc && ((argv[*i + 1][0] >= '0' && argv[*i + 1][0] <= '9') || argv[*i + 1][0] == '.'))
        frac = atof(argv[++*i]);
    bool mont = false;
    if (*i + 1 < argc && !strcmp(argv[*i + 1], "mont")) { mont = true; ++*i; }
    size_t n = (size_t)1 << lg;
    int reps = lg >= 24 ? 5 : 9;
    float t[16];
    benchkit_gpu_msm_stats s;
    char label[64];
    snprintf(label, sizeof label, "msm01 2^%d f=%.2f%s%s", lg, frac, mont ? " m" : "", accum);
    cuzk_status st = benchkit_gpu_msm01(n, frac, mont, &msm_opts, 1, reps, t, &s, &e);
    if (st != CUZK_OK) {
        printf("%-22s FAILED: %s (cuda %d)\n", label, e.msg, e.cuda_error);
        return 1;
    }
    qsort(t, (size_t)reps, sizeof *t, cmpf);
    int c = benchkit_gpu_msm_window_bits(s.n_other ? s.n_other : 1);
    double floor_ms = ((double)s.n_one * 10 + (double)s.n_other * (255 / c + 1) * 11) * 576 / MAD_PER_S * 1e3;
    printf("RESULT %-22s median %9.2f ms  min %9.2f  max %9.2f  (floor %.1f ms, %.1fx)  checked\n", label, t[reps / 2], t[0],
           t[reps - 1], floor_ms, t[reps / 2] / floor_ms);
    printf("       last run: classify %.2f, ones %.2f, tail %.2f (digits %.2f, sort %.2f, buckets %.2f, accumulate %.2f, "
           "reduce %.2f; %zu chunk%s), total %.2f ms; scalars 0: %zu, 1: %zu, other: %zu\n",
           s.classify_ms, s.ones_ms, s.tail_ms, s.tail_digits_ms, s.tail_sort_ms, s.tail_buckets_ms, s.tail_accum_ms,
           s.tail_reduce_ms, s.tail_chunks, s.tail_chunks == 1 ? "" : "s", s.total_ms, s.n_zero, s.n_one, s.n_other);
    fflush(stdout);
    return 0;
}

/* msm2 LOG_N [FRAC] [mont] [wC]: the prover's G2 MSM (BLS12-381 G2, benchkit_gpu_msm2) over
 * 2^LOG_N resident random G2 points, FRAC of the scalars 0 or 1 (default 0: all random below r; the
 * prover's B_G2 sees its witness's mix, e.g. 0.95), Montgomery with "mont", window C with "wC"
 * (default: benchkit_gpu_msm_window_bits of the tail). Same output as msm01.
 * Floor: a G2 mixed XYZZ addition (madd-2008-s, 8M + 2S over Fp2) is 8 x 3 + 2 x 2 = 28 Fp
 * products (Karatsuba products, complex squarings) against 10 for G1: 2.8x; the ones as n_one such
 * additions, the tail as n_other * W. Points are 192 bytes (G1: 96), so the memory-bound parts
 * (the ones' gathers, the accumulation's base loads) cost ~2x, the sort and classification the
 * same as G1 (they see only scalars). */
static int bench_msm2(int argc, char **argv, int *i) {
    cuzk_error e;
    memset(&e, 0, sizeof e);
    if (*i + 1 >= argc) return 2;
    int lg = atoi(argv[++*i]);
    double frac = 0.0;
    if (*i + 1 < argc && ((argv[*i + 1][0] >= '0' && argv[*i + 1][0] <= '9') || argv[*i + 1][0] == '.'))
        frac = atof(argv[++*i]);
    bool mont = false;
    if (*i + 1 < argc && !strcmp(argv[*i + 1], "mont")) { mont = true; ++*i; }
    int window = 0;
    if (*i + 1 < argc && argv[*i + 1][0] == 'w') window = atoi(argv[++*i] + 1);
    if (lg < 1 || lg > 30 || (window != 0 && (window < 2 || window > 20))) return 2;
    size_t n = (size_t)1 << lg;
    int reps = lg >= 24 ? 5 : 9;
    float t[16];
    benchkit_gpu_msm_stats s;
    char label[64];
    char wtxt[16] = "";
    if (window) snprintf(wtxt, sizeof wtxt, " w%d", window);
    snprintf(label, sizeof label, "msm2 2^%d f=%.2f%s%s", lg, frac, mont ? " m" : "", wtxt);
    cuzk_status st = benchkit_gpu_msm2(n, window, frac, mont, 1, reps, t, &s, &e);
    if (st != CUZK_OK) {
        printf("%-22s FAILED: %s (cuda %d)\n", label, e.msg, e.cuda_error);
        return 1;
    }
    qsort(t, (size_t)reps, sizeof *t, cmpf);
    int c = s.tail_window_bits ? s.tail_window_bits : benchkit_gpu_msm_window_bits(s.n_other ? s.n_other : 1);
    double floor_ms = ((double)s.n_one + (double)s.n_other * (255 / c + 1)) * 28 * 576 / MAD_PER_S * 1e3;
    printf("RESULT %-22s median %9.2f ms  min %9.2f  max %9.2f  (floor %.1f ms, %.1fx)  checked\n", label, t[reps / 2], t[0],
           t[reps - 1], floor_ms, t[reps / 2] / floor_ms);
    printf("       last run: classify %.2f, ones %.2f, tail %.2f (digits %.2f, sort %.2f, buckets %.2f, accumulate %.2f, "
           "reduce %.2f; %zu chunk%s, c = %d), total %.2f ms; scalars 0: %zu, 1: %zu, other: %zu\n",
           s.classify_ms, s.ones_ms, s.tail_ms, s.tail_digits_ms, s.tail_sort_ms, s.tail_buckets_ms, s.tail_accum_ms,
           s.tail_reduce_ms, s.tail_chunks, s.tail_chunks == 1 ? "" : "s", c, s.total_ms, s.n_zero, s.n_one, s.n_other);
    fflush(stdout);
    return 0;
}

/* argv[0] = "gpu", argv[1..]: the cases; returns the exit code (4: no CUDA or no device). */
int bench_gpu_main(int argc, char **argv);
int bench_gpu_main(int argc, char **argv) {
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            printf("usage: cuzk bench gpu [msm LOG_N [WINDOW]]... [ntt LOG_M [BATCH]]... [h LOG_M [1 = snarkjs]]...\n"
                   "                      [msm01 LOG_N [FRAC] [mont]]... [msm2 LOG_N [FRAC] [mont] [wWINDOW]]...\n"
                   "                      [fb1 LOG_N]... [fb2 LOG_N]... [tasks | runs] [bn254 | bls12_381]\n"
                   "\n"
                   "Times GPU kernels on device-resident data (CUDA events; median, min and max of repeats after a\n"
                   "warm-up) and prints one RESULT line per case with a floor estimate:\n"
                   "  msm LOG_N [WINDOW]   G1 MSM of 2^LOG_N random points and scalars (WINDOW: Pippenger bits)\n"
                   "  msm01 LOG_N [FRAC] [mont]  the prover's G1 MSM: a fraction FRAC of 0/1 scalars, phases\n"
                   "  msm2 LOG_N ...       the same over G2\n"
                   "  ntt LOG_M [BATCH]    forward Fr NTT of BATCH vectors of 2^LOG_M\n"
                   "  h LOG_M [1]          the Groth16 H step (1: snarkjs roots)\n"
                   "  fb1 / fb2 LOG_N      fixed-base G1 / G2 multiplication (setup), host to host\n"
                   "  tasks | runs         the G1 MSM accumulation of the cases after it (before either:\n"
                   "                       $CUZK_GPU_MSM_ACCUM, else the library's default)\n"
                   "  bn254 | bls12_381    the curve of the msm / ntt cases after it (default BLS12-381)\n"
                   "Needs a CUDA build and device (exit 4 otherwise); tools/bench-vs-peer.sh puts sppark next to it.\n");
            return 0;
        }
    if (!args_valid(argc, argv)) return 2; /* usage errors before any device question */
    char info[256];
    cuzk_error e;
    memset(&e, 0, sizeof e);
    int ndev = 0;
    cuzk_status dst = cuzk_gpu_device_count(&ndev, &e);
    if (dst == CUZK_ERR_UNSUPPORTED) {
        fprintf(stderr, "cuzk bench gpu: this build has no CUDA backend\n");
        return 4;
    }
    if (dst != CUZK_OK || ndev == 0) {
        printf("gpu_bench: no CUDA device\n");
        fprintf(stderr, "cuzk bench gpu: no CUDA device on this machine\n");
        return 4;
    }
    if (cuzk_gpu_device_info(0, info, sizeof info, &e) == CUZK_OK) printf("device: %s\n", info);
    /* $CUZK_GPU_MSM_ACCUM: the accumulation of the MSM cases until a "tasks" / "runs" case names
     * another (the window and chunk are the cases' own) */
    cuzk_msm_opts env;
    if (!cli_msm_from_env(&env, "cuzk bench gpu")) return 2;
    msm_opts.accumulation = env.accumulation;
    if (env.accumulation == CUZK_GPU_MSM_ACCUM_TASKS) snprintf(accum, sizeof accum, " T");
    int rc = 0;
    for (int i = 1; i < argc; i++) {
        /* "tasks" / "runs": the MSM accumulation for the cases that follow
         * (cuzk_msm_opts.accumulation); labels carry " T" (tasks) */
        if (!strcmp(argv[i], "tasks") || !strcmp(argv[i], "runs")) {
            const bool tasks = !strcmp(argv[i], "tasks");
            msm_opts.accumulation = tasks ? CUZK_GPU_MSM_ACCUM_TASKS : CUZK_GPU_MSM_ACCUM_RUNS;
            snprintf(accum, sizeof accum, "%s", tasks ? " T" : "");
            continue;
        }
        if (!strcmp(argv[i], "affine")) {
            fprintf(stderr, "cuzk bench gpu: affine: the GPU batch-affine accumulation was removed (it was slower "
                            "than tasks); the accumulations are tasks and runs\n");
            return 2;
        }
        if (!strcmp(argv[i], "bn254") || !strcmp(argv[i], "bls12_381")) {
            bn254 = !strcmp(argv[i], "bn254");
            continue;
        }
        if (!strcmp(argv[i], "msm01")) {
            int r = bench_msm01(argc, argv, &i);
            if (r == 2) return 2;
            rc |= r;
            continue;
        }
        if (!strcmp(argv[i], "msm2")) {
            int r = bench_msm2(argc, argv, &i);
            if (r == 2) { fprintf(stderr, "usage: msm2 LOG_N [FRAC] [mont] [wWINDOW]\n"); return 2; }
            rc |= r;
            continue;
        }
        int is_msm = !strcmp(argv[i], "msm");
        int is_h = !strcmp(argv[i], "h");
        int is_fb = !strcmp(argv[i], "fb1") ? 1 : !strcmp(argv[i], "fb2") ? 2 : 0;
        if (!is_msm && !is_h && !is_fb && strcmp(argv[i], "ntt")) { fprintf(stderr, "bad arg %s\n", argv[i]); return 2; }
        if (i + 1 >= argc) return 2;
        int lg = atoi(argv[++i]);
        int extra = 0;
        if (i + 1 < argc && argv[i + 1][0] >= '0' && argv[i + 1][0] <= '9') extra = atoi(argv[++i]);
        float t[16];
        int reps = lg >= 24 ? 5 : 9;
        cuzk_status st;
        double floor_ms;
        char label[64];
        if (is_fb) {
            size_t n = (size_t)1 << lg;
            float kt[16];
            reps = lg >= 24 ? 3 : 5;
            st = benchkit_gpu_fixed_base(is_fb, n, 1, reps, t, kt, &e);
            snprintf(label, sizeof label, "fb_g%d 2^%d", is_fb, lg);
            if (st != CUZK_OK) {
                printf("%-22s FAILED: %s (cuda %d)\n", label, e.msg, e.cuda_error);
                rc = 1;
                continue;
            }
            qsort(t, (size_t)reps, sizeof *t, cmpf);
            qsort(kt, (size_t)reps, sizeof *kt, cmpf);
            /* floor: 32 mixed XYZZ additions of 11 products (G2: 3 Fp products each) per point */
            floor_ms = (double)n * 32 * 11 * (is_fb == 2 ? 3 : 1) * 576 / MAD_PER_S * 1e3;
            printf("RESULT %-22s median %9.2f ms  min %9.2f  max %9.2f  kernels %.2f ms  %.2f Mpt/s wall, %.2f Mpt/s kernels  (floor %.1f ms)  checked\n",
                   label, t[reps / 2], t[0], t[reps - 1], kt[reps / 2], n / (t[reps / 2] * 1e3),
                   n / (kt[reps / 2] * 1e3), floor_ms);
            fflush(stdout);
            continue;
        } else if (is_h) {
            st = benchkit_gpu_h(extra == 1 ? CUZK_CONVENTION_SNARKJS : CUZK_CONVENTION_BELLPERSON, lg, 1, reps, t, &e);
            /* bellperson: 7 transforms (snarkjs 6) of (m/2) log m products */
            double m = (double)((size_t)1 << lg);
            floor_ms = (extra == 1 ? 6 : 7) * (m / 2) * lg * 256 / MAD_PER_S * 1e3;
            snprintf(label, sizeof label, "h_%s 2^%d", extra == 1 ? "snarkjs" : "bellperson", lg);
        } else if (is_msm) {
            size_t n = (size_t)1 << lg;
            int c = extra > 0 ? extra : benchkit_gpu_msm_window_bits(n);
            st = benchkit_gpu_msm(bn254 ? CUZK_CURVE_BN254 : CUZK_CURVE_BLS12_381, n, c, &msm_opts, 1, reps, t, &e);
            int W = 255 / c + 1;
            /* bucket accumulation: n*W mixed additions ~ 11 Fp products (8M + 3S) */
            floor_ms = (double)n * W * 11 * (bn254 ? 256 : 576) / MAD_PER_S * 1e3; /* BN254 Fp: 8 limbs */
            snprintf(label, sizeof label, "msm_g1%s 2^%d c=%d%s", bn254 ? "_bn254" : "", lg, c, accum);
        } else {
            size_t batch = extra > 0 ? (size_t)extra : 1;
            st = benchkit_gpu_ntt(bn254 ? CUZK_CURVE_BN254 : CUZK_CURVE_BLS12_381, lg, bn254 ? 1 : batch, 1, reps, t, &e);
            /* floor = the larger of the memory floor (read + write once, 32 B per element, ~4.3 TB/s
             * measured copy rate) and the radix-2 product floor ((m/2) log m Fr products of 256
             * 32-bit multiply-adds each): the NTT is multiply-bound (bench/GPU_RESULTS.md) */
            double m = (double)((size_t)1 << lg);
            double mem_ms = 2.0 * 32.0 * (double)batch * m / 4.3e12 * 1e3;
            double mul_ms = (double)batch * (m / 2) * lg * 256 / MAD_PER_S * 1e3;
            floor_ms = mem_ms > mul_ms ? mem_ms : mul_ms;
            snprintf(label, sizeof label, "ntt%s 2^%d x%zu", bn254 ? "_bn254" : "", lg, bn254 ? (size_t)1 : batch);
        }
        if (st != CUZK_OK) {
            printf("%-22s FAILED: %s (cuda %d)\n", label, e.msg, e.cuda_error);
            rc = 1;
            continue;
        }
        qsort(t, (size_t)reps, sizeof *t, cmpf);
        printf("RESULT %-22s median %9.2f ms  min %9.2f  max %9.2f  (floor %.1f ms, %.1fx)  checked\n", label,
               t[reps / 2], t[0], t[reps - 1], floor_ms, t[reps / 2] / floor_ms);
        fflush(stdout);
    }
    return rc;
}

