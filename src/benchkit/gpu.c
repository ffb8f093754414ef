/* The GPU kernel timings of the bench kit (benchkit.h, section 2) over the device code's benchmark
 * entry points (src/cuda/gpu.h: gpu_bench_*): arguments checked here, and every timed kernel's
 * result checked after the timing by the CPU code of the curve (kernels_impl.h): an MSM against
 * [K] G for the known discrete logarithms of the bench bases, an NTT against naive sums at sampled
 * indices, the fixed-base products at sampled indices against scalar multiplications. A wrong
 * result is CUZK_ERR_DEVICE and no time is reported for it. Builds without CUDA answer
 * CUZK_ERR_UNSUPPORTED. */
#include "benchkit/benchkit.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "benchkit/kernels.h"

#include "groth16/prove.h"
#include "util/log.h"
#ifdef CUZK_HAVE_CUDA
#include "cuda/gpu.h"
#endif

#define NO_CUDA(what) ERR(err, CUZK_ERR_UNSUPPORTED, "%s: this build has no CUDA backend (built without nvcc or with -DCUZK_CUDA=OFF)", what)

static cuzk_status check_reps(const char *what, int warmup, int reps, const void *times, cuzk_error *err) {
    if (!times || reps < 1 || reps > 64 || warmup < 0 || warmup > 16)
        return ERR(err, CUZK_ERR_ARG, "%s: reps %d (1..64), warmup %d (0..16), times %s", what, reps, warmup,
                   times ? "given" : "NULL");
    return CUZK_OK;
}

int benchkit_gpu_msm_window_bits(size_t n) {
#ifdef CUZK_HAVE_CUDA
    return gpu_msm_window_bits(n ? n : 1);
#else
    (void)n;
    return 0;
#endif
}

#ifdef CUZK_HAVE_CUDA
/* The check of one timed MSM benchmark: the generator in, the last run's result and scalars out. */
typedef struct msm_check {
    uint64_t gen[48];    /* the largest affine point: BLS12-381 G2, 4 x 6 limbs (24 words) */
    uint64_t result[36]; /* the largest Jacobian: BLS12-381 G2, 6 x 6 limbs */
    gpu_bench_msm_io io;
} msm_check;

static cuzk_status msm_check_begin(msm_check *c, const benchkit_curve *k, int group, size_t n, const char *what,
                                   cuzk_error *err) {
    memset(c, 0, sizeof *c);
    k->generator(group, c->gen);
    c->io.generator = c->gen;
    c->io.result = c->result;
    c->io.scalars = malloc(n * 4 * sizeof(uint64_t));
    if (!c->io.scalars) return ERR(err, CUZK_ERR_NOMEM, "%s: a copy of %zu scalars for the check", what, n);
    return CUZK_OK;
}

/* st: the benchmark's status; on CUZK_OK the result is checked (and the scalars freed either way) */
static cuzk_status msm_check_end(msm_check *c, const benchkit_curve *k, int group, size_t n, int montgomery,
                                 cuzk_status st, cuzk_error *err) {
    if (st == CUZK_OK) st = k->gpu_msm_check(group, c->result, c->io.scalars, n, montgomery, 0, err);
    free(c->io.scalars);
    c->io.scalars = NULL;
    return st;
}

/* a fresh seed for the sampled checks (indices differ from run to run) */
static uint64_t fresh_seed(void) {
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (uint64_t)ts.tv_sec * 1000000007ull ^ (uint64_t)ts.tv_nsec * 0x9e3779b97f4a7c15ull;
}
#endif

cuzk_status benchkit_gpu_msm(cuzk_curve curve, size_t n, int window_bits, const cuzk_msm_opts *msm, int warmup,
                             int reps, float *times_ms, cuzk_error *err) {
    const char *what = "benchkit_gpu_msm";
    cuzk_status st;
    if ((st = check_reps(what, warmup, reps, times_ms, err)) != CUZK_OK ||
        (st = groth16_msm_opts_check(msm, what, err)) != CUZK_OK) /* the options as provers check them */
        return st;
    if (n == 0 || n > ((size_t)1 << 28)) return ERR(err, CUZK_ERR_ARG, "%s: %zu points (1 .. 2^28)", what, n);
    if (curve != CUZK_CURVE_BLS12_381 && curve != CUZK_CURVE_BN254)
        return ERR(err, CUZK_ERR_ARG, "%s: unknown curve %d", what, (int)curve);
#ifdef CUZK_HAVE_CUDA
    int c = window_bits > 0 ? window_bits : gpu_msm_window_bits(n);
    gpu_msm_tuning t = gpu_msm_tuning_of(msm);
    t.window_bits = 0; /* the window is c */
    const benchkit_curve *k = curve == CUZK_CURVE_BN254 ? &benchkit_bn254 : &benchkit_bls12_381;
    msm_check mc;
    if ((st = msm_check_begin(&mc, k, 1, n, what, err)) != CUZK_OK) return st;
    st = curve == CUZK_CURVE_BN254 ? gpu_bench_bn254_g1_msm(n, c, &t, warmup, reps, times_ms, &mc.io, err)
                                   : gpu_bench_g1_msm(n, c, &t, warmup, reps, times_ms, &mc.io, err);
    return msm_check_end(&mc, k, 1, n, 0, st, err);
#else
    (void)window_bits;
    return NO_CUDA(what);
#endif
}

#ifdef CUZK_HAVE_CUDA
/* the device MSM's phase figures (src/cuda/gpu.h gpu_msm_stats) as the public struct */
static void msm_stats_out(benchkit_gpu_msm_stats *o, const gpu_msm_stats *s) {
    o->classify_ms = s->classify_ms;
    o->ones_ms = s->ones_ms;
    o->tail_ms = s->tail_ms;
    o->total_ms = s->total_ms;
    o->tail_digits_ms = s->tail_digits_ms;
    o->tail_sort_ms = s->tail_sort_ms;
    o->tail_buckets_ms = s->tail_buckets_ms;
    o->tail_accum_ms = s->tail_accum_ms;
    o->tail_reduce_ms = s->tail_reduce_ms;
    o->tail_chunks = s->tail_chunks;
    o->n_zero = s->n_zero;
    o->n_one = s->n_one;
    o->n_other = s->n_other;
    o->tail_window_bits = s->tail_window_bits;
}
#endif

cuzk_status benchkit_gpu_msm01(size_t n, double frac01, int montgomery, const cuzk_msm_opts *msm, int warmup, int reps,
                               float *times_ms, benchkit_gpu_msm_stats *stats, cuzk_error *err) {
    const char *what = "benchkit_gpu_msm01";
    cuzk_status st;
    if (stats) memset(stats, 0, sizeof *stats);
    if ((st = check_reps(what, warmup, reps, times_ms, err)) != CUZK_OK ||
        (st = groth16_msm_opts_check(msm, what, err)) != CUZK_OK) /* the options as provers check them */
        return st;
    if (n == 0 || n > ((size_t)1 << 28)) return ERR(err, CUZK_ERR_ARG, "%s: %zu points (1 .. 2^28)", what, n);
    if (!(frac01 >= 0 && frac01 <= 1)) return ERR(err, CUZK_ERR_ARG, "%s: fraction %g outside [0, 1]", what, frac01);
#ifdef CUZK_HAVE_CUDA
    gpu_msm_stats s;
    memset(&s, 0, sizeof s);
    const gpu_msm_tuning t = gpu_msm_tuning_of(msm);
    msm_check mc;
    if ((st = msm_check_begin(&mc, &benchkit_bls12_381, 1, n, what, err)) != CUZK_OK) return st;
    st = gpu_bench_g1_msm01(n, frac01, montgomery != 0, &t, warmup, reps, times_ms, &s, &mc.io, err);
    st = msm_check_end(&mc, &benchkit_bls12_381, 1, n, montgomery != 0, st, err);
    if (st == CUZK_OK && stats) msm_stats_out(stats, &s);
    return st;
#else
    (void)montgomery;
    return NO_CUDA(what);
#endif
}

cuzk_status benchkit_gpu_msm2(size_t n, int window_bits, double frac01, int montgomery, int warmup, int reps,
                              float *times_ms, benchkit_gpu_msm_stats *stats, cuzk_error *err) {
    const char *what = "benchkit_gpu_msm2";
    cuzk_status st;
    if (stats) memset(stats, 0, sizeof *stats);
    if ((st = check_reps(what, warmup, reps, times_ms, err)) != CUZK_OK) return st;
    if (n == 0 || n > ((size_t)1 << 28)) return ERR(err, CUZK_ERR_ARG, "%s: %zu points (1 .. 2^28)", what, n);
    if (!(frac01 >= 0 && frac01 <= 1)) return ERR(err, CUZK_ERR_ARG, "%s: fraction %g outside [0, 1]", what, frac01);
    if (window_bits > 20 || (window_bits > 0 && window_bits < 2))
        return ERR(err, CUZK_ERR_ARG, "%s: window %d (2..20, or <= 0: the default)", what, window_bits);
#ifdef CUZK_HAVE_CUDA
    gpu_msm_stats s;
    memset(&s, 0, sizeof s);
    msm_check mc;
    if ((st = msm_check_begin(&mc, &benchkit_bls12_381, 2, n, what, err)) != CUZK_OK) return st;
    st = gpu_bench_g2_msm(n, window_bits > 0 ? window_bits : 0, frac01, montgomery != 0, warmup, reps, times_ms, &s,
                          &mc.io, err);
    st = msm_check_end(&mc, &benchkit_bls12_381, 2, n, montgomery != 0, st, err);
    if (st == CUZK_OK && stats) msm_stats_out(stats, &s);
    return st;
#else
    (void)montgomery;
    return NO_CUDA(what);
#endif
}

cuzk_status benchkit_gpu_ntt(cuzk_curve curve, int log_m, size_t batch, int warmup, int reps, float *times_ms,
                             cuzk_error *err) {
    const char *what = "benchkit_gpu_ntt";
    cuzk_status st;
    if ((st = check_reps(what, warmup, reps, times_ms, err)) != CUZK_OK) return st;
    if (log_m < 1 || log_m > 28 || batch < 1) return ERR(err, CUZK_ERR_ARG, "%s: log_m %d (1..28), batch %zu", what, log_m, batch);
    if (curve == CUZK_CURVE_BN254 && batch != 1) return ERR(err, CUZK_ERR_ARG, "%s: the BN254 NTT runs one vector (batch 1)", what);
    if (curve != CUZK_CURVE_BLS12_381 && curve != CUZK_CURVE_BN254)
        return ERR(err, CUZK_ERR_ARG, "%s: unknown curve %d", what, (int)curve);
#ifdef CUZK_HAVE_CUDA
    const size_t total = batch << log_m;
    void *x = malloc(total * 32), *y = malloc(total * 32);
    if (!x || !y) {
        free(x);
        free(y);
        return ERR(err, CUZK_ERR_NOMEM, "%s: copies of 2 x %zu elements for the check", what, total);
    }
    st = curve == CUZK_CURVE_BN254 ? gpu_bench_bn254_ntt(log_m, warmup, reps, times_ms, x, y, err)
                                   : gpu_bench_ntt(log_m, batch, warmup, reps, times_ms, x, y, err);
    if (st == CUZK_OK) {
        const benchkit_curve *k = curve == CUZK_CURVE_BN254 ? &benchkit_bn254 : &benchkit_bls12_381;
        st = k->gpu_ntt_check(log_m, batch, x, y, fresh_seed(), 0, err);
    }
    free(x);
    free(y);
    return st;
#else
    return NO_CUDA(what);
#endif
}

cuzk_status benchkit_gpu_h(cuzk_convention convention, int log_m, int warmup, int reps, float *times_ms, cuzk_error *err) {
    const char *what = "benchkit_gpu_h";
    cuzk_status st;
    if ((st = check_reps(what, warmup, reps, times_ms, err)) != CUZK_OK) return st;
    if (log_m < 1 || log_m > 28) return ERR(err, CUZK_ERR_ARG, "%s: log_m %d (1..28)", what, log_m);
    if (convention != CUZK_CONVENTION_BELLPERSON && convention != CUZK_CONVENTION_SNARKJS)
        return ERR(err, CUZK_ERR_ARG, "%s: unknown convention %d", what, (int)convention);
#ifdef CUZK_HAVE_CUDA
    const size_t m = (size_t)1 << log_m;
    void *ab = malloc(2 * m * 32), *h = malloc(m * 32);
    if (!ab || !h) {
        free(ab);
        free(h);
        return ERR(err, CUZK_ERR_NOMEM, "%s: copies of 3 x %zu elements for the check", what, m);
    }
    const int snarkjs = convention == CUZK_CONVENTION_SNARKJS;
    st = gpu_bench_h(snarkjs ? GPU_ROOTS_SNARKJS : GPU_ROOTS_BELLPERSON, log_m, warmup, reps, times_ms, ab, h, err);
    if (st == CUZK_OK) st = benchkit_bls12_381.gpu_h_check(snarkjs, log_m, ab, h, fresh_seed(), 0, err);
    free(ab);
    free(h);
    return st;
#else
    return NO_CUDA(what);
#endif
}

cuzk_status benchkit_gpu_fixed_base(int group, size_t n, int warmup, int reps, float *wall_ms, float *kernel_ms,
                                    cuzk_error *err) {
    const char *what = "benchkit_gpu_fixed_base";
    cuzk_status st;
    if ((st = check_reps(what, warmup, reps, wall_ms, err)) != CUZK_OK) return st;
    if (!kernel_ms || (group != 1 && group != 2) || n == 0 || n > ((size_t)1 << 28))
        return ERR(err, CUZK_ERR_ARG, "%s: group %d (1 or 2), %zu points, kernel times %s", what, group, n,
                   kernel_ms ? "given" : "NULL");
#ifdef CUZK_HAVE_CUDA
    uint64_t *sc = malloc(n * 4 * sizeof *sc);
    void *pts = malloc(n * (group == 2 ? 192 : 96)); /* BLS12-381 g2_affine / g1_affine */
    if (!sc || !pts) {
        free(sc);
        free(pts);
        return ERR(err, CUZK_ERR_NOMEM, "%s: copies of %zu scalars and points for the check", what, n);
    }
    st = gpu_bench_fixed_base(group == 2, n, warmup, reps, wall_ms, kernel_ms, sc, pts, err);
    if (st == CUZK_OK) st = benchkit_bls12_381.gpu_fixed_base_check(group, sc, pts, n, fresh_seed(), err);
    free(sc);
    free(pts);
    return st;
#else
    return NO_CUDA(what);
#endif
}
