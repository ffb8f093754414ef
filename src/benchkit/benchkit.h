/* The bench kit: what the benchmarks (cuzk-bench, bench/) time beyond proving. Internal, not
 * part of libcuzk.so nor of include/: the static library cuzk_benchkit (the .c files of
 * src/benchkit, over the core's internals) that cuzk-bench and the test bench_api link together
 * with the static core (cuzk_core). This header itself includes only include/cuzk, so the bench
 * programs, front ends under the layer rules (tools/check-layers.sh), see nothing else of src/.
 *
 *   1. CPU kernels: field and group operations, NTTs and G1 MSMs of a curve, timed inside the
 *      library on data it generates (ns per operation, ms per transform or MSM).
 *   2. GPU kernels (CUDA builds): MSM, NTT, H and fixed-base multiplications on device-resident
 *      random data, CUDA-event timed. Builds without CUDA answer CUZK_ERR_UNSUPPORTED (the device
 *      list is public: cuzk_gpu_device_count, include/cuzk/prover.h).
 *   3. Synthetic PoRep-shaped circuits (DESIGN.md section 8): the R1CS, satisfying witnesses, and
 *      proving keys for them, with INSECURE parameters made in memory or loaded from a .params
 *      file through the SRS store (each step timed); engines on fake devices.
 *   4. Loading throughput of bellperson .params files, and the random points to write test files.
 *   5. Filecoin PoSt circuits: synthesis and recording without proving, and keys with INSECURE
 *      parameters made in memory for a recorded circuit (whole proofs through the engine).
 *   6. Filecoin PoRep circuits: the recorded StackedCircuit and its INSECURE key.
 *
 * Nothing here is needed to prove, and nothing here is a stable interface: it changes with the
 * benchmarks. Timings are wall-clock milliseconds (monotonic clock) unless a name says ns. Every
 * fallible call returns a cuzk_status and fills the optional err (include/cuzk/cuzk.h); on
 * failure output handles are NULL and output numbers 0. Handles are owned by the caller and freed
 * with their destroy / release function (NULL is a no-op there).
 * Thread-safety: every function is reentrant; a handle may be used by one thread at a time unless
 * its section says otherwise. The GPU functions are not to be run concurrently with each other or
 * with GPU proofs in the same process (they time the whole device).
 */
#ifndef CUZK_BENCHKIT_BENCHKIT_H
#define CUZK_BENCHKIT_BENCHKIT_H

#include <stddef.h>
#include <stdint.h>

#include "cuzk/cuzk.h"
#include "cuzk/engine.h"
#include "cuzk/groth16.h"
#include "cuzk/prover.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- 1. CPU kernels ----------------------------------------------------------------------------
 * curve: CUZK_CURVE_BLS12_381 or CUZK_CURVE_BN254 (another value: CUZK_ERR_ARG). */

typedef enum benchkit_op {
    BENCHKIT_FP_MUL = 0,          /* Fp multiplication (Montgomery) */
    BENCHKIT_FP_SQR = 1,          /* Fp squaring */
    BENCHKIT_FR_MUL = 2,          /* Fr multiplication */
    BENCHKIT_FP_INV = 3,          /* Fp inversion */
    BENCHKIT_G1_ADD_MIXED = 4,    /* G1 Jacobian + affine */
    BENCHKIT_G1_ADD = 5,          /* G1 Jacobian + Jacobian */
    BENCHKIT_G1_XYZZ_ADD_MIXED = 6, /* G1 XYZZ + affine (the MSM bucket addition) */
    BENCHKIT_G1_DBL = 7,          /* G1 Jacobian doubling */
    BENCHKIT_G2_ADD_MIXED = 8,    /* G2 Jacobian + affine */
    BENCHKIT_N_OPS = 9
} benchkit_op;
/* "fp_mul", "fp_sqr", "fr_mul", "fp_inv", "g1_jacobian_add_mixed", "g1_jacobian_add",
 * "g1_xyzz_add_mixed", "g1_jacobian_dbl", "g2_jacobian_add_mixed"; "?" otherwise. Never NULL. */
const char *benchkit_op_name(benchkit_op op);
/* Runs `iters` >= 1 dependent operations (each result feeds the next; the other operand walks
 * over 2^14 random elements or a fixed point) and gives the mean time of one in *ns_per_op. The
 * operands are made before the clock starts. Errors: CUZK_ERR_ARG (curve, op, iters 0, NULL),
 * CUZK_ERR_NOMEM. */
cuzk_status benchkit_op_time(cuzk_curve curve, benchkit_op op, uint64_t iters, double *ns_per_op,
                             cuzk_error *err);

/* A vector of 2^log_m random Fr values (from seed) and its NTT domain: BLS12-381 with the
 * bellperson roots, BN254 with the snarkjs roots (its only convention). 1 <= log_m <= 28 (BN254:
 * its two-adicity, 28). Host memory: 32 bytes per element plus the domain's tables. */
typedef struct benchkit_ntt benchkit_ntt;
cuzk_status benchkit_ntt_create(benchkit_ntt **out, cuzk_curve curve, int log_m, uint64_t seed,
                                cuzk_error *err);
/* One forward NTT of the vector in place, then one inverse NTT on the coset of 7 (the bellperson
 * H step's shape), on nthreads threads (0: cuzk_threads()); their times in *forward_ms and
 * *coset_inverse_ms (either may be NULL). The vector changes with every call (the timing does
 * not). Errors: CUZK_ERR_ARG. */
cuzk_status benchkit_ntt_run(benchkit_ntt *h, int nthreads, double *forward_ms, double *coset_inverse_ms,
                             cuzk_error *err);
void benchkit_ntt_destroy(benchkit_ntt *h);

/* n_max distinct G1 points of the curve (P_i = P_{i-1} + Q_{i mod 64} over 64 random multiples of
 * the generator, so that making them costs little) and two scalar sets of n_max (canonical):
 * uniform random below r, and "SHA-256-like" (50 % zero, 45 % one, 5 % uniform, the shape of
 * Filecoin witnesses). Host memory: about 2 * 32 + the point size (96 / 64 bytes) per point.
 * Errors: CUZK_ERR_ARG (curve, n_max 0 or above 2^28), CUZK_ERR_NOMEM. */
typedef struct benchkit_msm benchkit_msm;
typedef enum benchkit_scalars {
    BENCHKIT_SCALARS_RANDOM = 0,  /* uniform below r */
    BENCHKIT_SCALARS_01 = 1       /* 95 % zero or one */
} benchkit_scalars;
cuzk_status benchkit_msm_create(benchkit_msm **out, cuzk_curve curve, size_t n_max, uint64_t seed,
                                cuzk_error *err);
/* The same over group 1 (G1, as benchkit_msm_create) or 2 (G2: points of 192 / 128 bytes, the
 * CPU B_G2 MSM of the provers). Errors: those of benchkit_msm_create, CUZK_ERR_ARG (group). */
cuzk_status benchkit_msm_create_group(benchkit_msm **out, cuzk_curve curve, int group, size_t n_max,
                                      uint64_t seed, cuzk_error *err);
/* One CPU MSM (Pippenger with the 0/1 split; the handle's group) over the first n <= n_max points and scalars of
 * `kind`, on nthreads threads (0: cuzk_threads()); its time in *ms. Errors: CUZK_ERR_ARG. */
cuzk_status benchkit_msm_run(benchkit_msm *h, size_t n, benchkit_scalars kind, int nthreads, double *ms,
                             cuzk_error *err);
void benchkit_msm_destroy(benchkit_msm *h);
/* The bucket accumulation of the handle's later runs: 0 the library's (batched affine additions
 * from a window threshold per group up, XYZZ below), 1 one XYZZ mixed addition per point at every
 * size (the method before; for comparisons). */
void benchkit_msm_set_xyzz(benchkit_msm *h, int xyzz);
/* The Pippenger window (bits) the CPU MSM uses for n points (any curve). */
int benchkit_msm_window_bits(size_t n);

/* ---- 2. GPU kernels ----------------------------------------------------------------------------
 * All run on the calling thread's current CUDA device (0 unless the program changed it), on data
 * generated on the device and kept there, after `warmup` untimed runs; times_ms[0 .. reps) gets
 * each timed run (unsorted), 1 <= reps <= 64, 0 <= warmup <= 16. After the timing, the last timed
 * run's result is checked on the CPU by code independent of the kernel (src/benchkit/gpu.c): MSMs
 * against [K] G for the known discrete logarithms of their bases, NTTs and the H step against
 * naive sums / the polynomial identity at sampled points, fixed-base products at sampled indices.
 * Errors of all: CUZK_ERR_ARG, CUZK_ERR_UNSUPPORTED (a build without CUDA, a CUDA driver too old or
 * missing, or a curve the kernel has no instance for), CUZK_ERR_DEVICE (no device, a CUDA failure,
 * or a wrong result: the message says which check failed), CUZK_ERR_NOMEM_DEVICE, CUZK_ERR_NOMEM
 * (the host copies for the check: up to 32 bytes a scalar, 64 an NTT element). */

/* The default Pippenger window (bits) of a GPU MSM tail (chunk) of n points (BLS12-381). */
int benchkit_gpu_msm_window_bits(size_t n);

/* A G1 MSM of n resident points of G1 (src/cuda/gpu.h gpu_bench_dlog: sums of two known multiples
 * of the generator) with uniform scalars below r, window window_bits (<= 0: the default
 * for n). curve: BLS12-381 or BN254. msm (may be NULL: automatic): the options a prover would
 * carry (include/cuzk/prover.h); its accumulation and chunk points are used (its window is
 * window_bits; b_g2_on_gpu does not apply). */
cuzk_status benchkit_gpu_msm(cuzk_curve curve, size_t n, int window_bits, const cuzk_msm_opts *msm, int warmup,
                             int reps, float *times_ms, cuzk_error *err);

/* Phases of the last timed run of benchkit_gpu_msm01 (CUDA-event ms; counts of scalars). */
typedef struct benchkit_gpu_msm_stats {
    float classify_ms, ones_ms, tail_ms, total_ms;   /* classification + compaction, the sum of the
                                                        bases of scalars 1, the Pippenger tail, all */
    float tail_digits_ms, tail_sort_ms, tail_buckets_ms, tail_accum_ms, tail_reduce_ms; /* the tail */
    size_t tail_chunks;                              /* Pippenger passes run */
    size_t n_zero, n_one, n_other;                   /* scalars 0, 1 and others */
    int tail_window_bits;                            /* window of the tail (0: no tail ran) */
} benchkit_gpu_msm_stats;
/* The prover's BLS12-381 G1 MSM (classification, the ones, the Pippenger tail) over n resident
 * random points, a fraction frac01 in [0, 1] of the scalars 0 or 1 (half each), the rest uniform
 * below r (Montgomery form when montgomery != 0, as the prover's witness), tuned by msm as a
 * prover's (may be NULL: automatic; b_g2_on_gpu does not apply). stats may be NULL. */
cuzk_status benchkit_gpu_msm01(size_t n, double frac01, int montgomery, const cuzk_msm_opts *msm, int warmup,
                               int reps, float *times_ms, benchkit_gpu_msm_stats *stats, cuzk_error *err);
/* The prover's BLS12-381 G2 MSM (the same design as the G1 one, over G2: the device B_G2 of
 * cuzk_msm_opts.b_g2_on_gpu) over n resident random G2 points (sums of random multiples of the
 * generator, made on the device before timing), scalars as benchkit_gpu_msm01's; window_bits
 * <= 0: the default for the tail, else 2..20. Always the TASKS accumulation (as the provers' G2
 * MSMs). stats may be NULL. */
cuzk_status benchkit_gpu_msm2(size_t n, int window_bits, double frac01, int montgomery, int warmup, int reps,
                              float *times_ms, benchkit_gpu_msm_stats *stats, cuzk_error *err);
/* Forward NTTs of `batch` vectors of 2^log_m random elements: BLS12-381 (bellperson roots, any
 * batch >= 1) or BN254 (snarkjs roots, batch 1 only: else CUZK_ERR_ARG). */
cuzk_status benchkit_gpu_ntt(cuzk_curve curve, int log_m, size_t batch, int warmup, int reps, float *times_ms,
                             cuzk_error *err);
/* The Groth16 H step of a convention (BELLPERSON: coset division by g = 7; SNARKJS: the odd
 * coset) on three random resident vectors of 2^log_m BLS12-381 elements, tables built before
 * timing. */
cuzk_status benchkit_gpu_h(cuzk_convention convention, int log_m, int warmup, int reps, float *times_ms,
                           cuzk_error *err);
/* The fixed-base multiplication of setup: n random host scalars times the BLS12-381 G1 (group 1)
 * or G2 (group 2) generator into a host array; wall_ms[r] the whole host-to-host call, kernel_ms[r]
 * its kernels (both reps entries). */
cuzk_status benchkit_gpu_fixed_base(int group, size_t n, int warmup, int reps, float *wall_ms, float *kernel_ms,
                                    cuzk_error *err);

/* ---- 3. synthetic PoRep-shaped circuits --------------------------------------------------------
 * The circuit of `cuzk bench pipeline` and `cuzk setup --synthetic porep` (src/r1cs/synthetic.h):
 * N rows shaped like a PoRep partition (SHA-256-like boolean rows and Poseidon-like rows, most aux
 * values 0 or 1), n_public public inputs, made from a structure seed; a witness seed gives a
 * satisfying witness. BLS12-381. */
typedef struct benchkit_synthetic_opts {
    uint32_t constraints;   /* rows N: 8 <= N and N + n_public + 1 <= 2^28 */
    uint32_t n_public;      /* public inputs (ONE not counted) */
    double frac01;          /* fraction of aux values that are 0 or 1, in [0, 1] */
    uint64_t seed;          /* structure seed */
} benchkit_synthetic_opts;
/* Defaults: the given constraints, n_public 328 (one PoRep partition), frac01 0.95, seed 1 (those
 * of `cuzk setup --synthetic porep`). */
void benchkit_synthetic_opts_init(benchkit_synthetic_opts *o, uint32_t constraints);

typedef struct benchkit_synthetic benchkit_synthetic;
typedef struct benchkit_synthetic_info {
    uint32_t n_constraints, n_public, n_vars; /* n_vars: ONE + public + aux */
    uint32_t domain_size;                     /* the bellperson domain: rows + inputs, to a power of 2 */
    double a_per_row, b_per_row, c_per_row;   /* nonzeros per row of A, B, C */
    double aux_in_a, aux_in_b;                /* fraction of the aux wires present in A, in B */
    uint64_t host_bytes;                      /* memory the circuit holds */
} benchkit_synthetic_info;

/* Makes the circuit (host memory: about 70 bytes per row). *out has one reference.
 * Errors: CUZK_ERR_ARG (sizes, frac01 outside [0, 1]), CUZK_ERR_NOMEM. */
cuzk_status benchkit_synthetic_create(benchkit_synthetic **out, const benchkit_synthetic_opts *o, cuzk_error *err);
/* Fills *out (zeroed for NULL s). Thread-safe. */
void benchkit_synthetic_describe(const benchkit_synthetic *s, benchkit_synthetic_info *out);
/* A satisfying witness for witness_seed: n_vars values (= the circuit's; else CUZK_ERR_MISMATCH)
 * into w (n_vars * 4 limbs, 8-byte aligned), Montgomery form (CUZK_WITNESS_FR_MONT), w[0] = ONE;
 * on nthreads threads (0: cuzk_threads()). Thread-safe: several witnesses may be made at once
 * (a cuzk_synth_fn may call it). Errors: CUZK_ERR_ARG, CUZK_ERR_MISMATCH, CUZK_ERR_NOMEM. */
cuzk_status benchkit_synthetic_witness(const benchkit_synthetic *s, uint64_t witness_seed, uint64_t *w, size_t n_vars,
                                       int nthreads, cuzk_error *err);
/* Reference counting (atomic): keys made from the circuit hold a reference of their own. */
benchkit_synthetic *benchkit_synthetic_retain(benchkit_synthetic *s);
void benchkit_synthetic_release(benchkit_synthetic *s);

/* INSECURE single-party Groth16 parameters for the circuit, made in memory (the setup of
 * `cuzk setup`, toxic waste from *seed when seed is non-NULL, else the OS RNG): a bellperson
 * proving key (include/cuzk/prover.h) holding the parameters and a reference to s. Whoever runs
 * it can forge proofs: benchmarks and tests only. backend: where the point sets are computed
 * (AUTO, CPU, GPU); nthreads 0: cuzk_threads(); progress may be NULL (stage names as cuzk_setup's).
 * Host memory: about the size of the .params file (~360 bytes per row). Errors: those of
 * cuzk_setup (CUZK_ERR_NOMEM, CUZK_ERR_RANDOM, CUZK_ERR_DEVICE, ...). */
cuzk_status benchkit_synthetic_setup(cuzk_pk **out, benchkit_synthetic *s, const uint64_t *seed, cuzk_backend backend,
                                     int nthreads, cuzk_progress_fn progress, void *progress_user, cuzk_error *err);

typedef struct benchkit_params_load_opts {
    cuzk_check_level check;   /* point checks (cuzk.h); DEFAULT = CURVE */
    int nthreads;             /* 0: cuzk_threads() */
    int gpu_device;           /* -1: host only (aligned host memory). >= 0: the host copy in pinned
                                 memory of that device (fast uploads; CUDA builds), and with
                                 gpu_resident the G1 queries uploaded to it once */
    int gpu_resident;         /* 1: upload now; engine circuits made from the key use that copy
                                 instead of uploading their own (single-device engines only) */
    int release_host_g1;      /* with gpu_resident: once uploaded, free the host copy of the G1
                                 queries (~41 of the 45 GB of a PoRep key; the key keeps vk, ic,
                                          b_g2) and drop the pages the load read from this process. The key
                                          then proves only on the GPU copy: engine circuits made from it on
                                          that device; any other prover is CUZK_ERR_ARG */
    int gpu_b_g2;             /* with gpu_resident: the device copy holds the B_G2 query too (n_b_g2
                                          x 192 bytes more, in device_bytes), for provers that run B_G2 on
                                          the GPU (cuzk_msm_opts.b_g2_on_gpu: they use this copy instead of
                                                   uploading their own) */
    int direct_srs;           /* 1: as cuzkd loads a .params for the GPU (cuzk_pk_load_opts.defer_queries),
                                 not through the SRS store: vk and ic decoded and checked now
                                 (host_ms), the queries left in the file for the engine's preload to
                                 decode straight into its device copy (never whole in host memory).
                                 gpu_resident, release_host_g1 and gpu_b_g2 must be 0 */
} benchkit_params_load_opts;
typedef struct benchkit_params_load_report {
    uint64_t file_bytes, host_bytes, device_bytes;
    double mapped_ms;         /* map the file and check every point (the disk-read rate) */
    double host_ms;           /* decode into host memory (no second check, no disk read) */
    double gpu_ms;            /* upload the G1 queries (0 without gpu_resident) */
    int pinned;               /* 1: the host copy is in pinned memory */
    int host_g1_released;     /* 1: release_host_g1 took effect */
    uint64_t host_bytes_now;  /* host bytes the key's parameters hold after the load (host_bytes,
                                                   or less once the G1 queries are released) */
    int direct;               /* direct_srs took effect: the queries are in the file (a valid SRS
                                 cache next to it is read whole instead) */
} benchkit_params_load_report;
/* The key of s from a bellperson .params file made for it (`cuzk setup --synthetic porep` with
 * the same options) through the SRS store (src/srs/store.h): mapped and checked, decoded, and
 * made resident, each step timed into *report (may be NULL). The key holds the parameters, the
 * device copy and a reference to s. Errors: CUZK_ERR_IO, _FORMAT, _POINT (the file, named),
 * CUZK_ERR_MISMATCH (parameters of another circuit: the counts are named), CUZK_ERR_NOMEM,
 * CUZK_ERR_NOMEM_DEVICE, CUZK_ERR_DEVICE, CUZK_ERR_UNSUPPORTED (gpu_device in a build without
 * CUDA). */
cuzk_status benchkit_synthetic_load_params(cuzk_pk **out, benchkit_synthetic *s, const char *params_path,
                                           const benchkit_params_load_opts *o, benchkit_params_load_report *report,
                                           cuzk_error *err);

/* Frees the host copies of the G1 queries (A, B1, L, H: the bulk of a key) of a key made in
 * memory (benchkit_synthetic_setup, benchkit_post_setup), once every prover that will ever prove it
 * holds them on a GPU (made, e.g. by cuzk_engine_preload of a GPU engine): at 2^27 constraints
 * this gives back ~40 GB. B_G2, the verification key and the circuit stay. Afterwards making a
 * prover of the key (a CPU prover, an engine on another device, a CPU engine's start) fails with
 * CUZK_ERR_ARG naming the reason; the provers made before keep proving. *freed_bytes (may be
 * NULL) gets the bytes released. Must not run concurrently with any call that makes or uses a
 * prover of pk other than the GPU provers already made. Errors: CUZK_ERR_ARG (NULL, a key not
 * made in memory by those functions). */
cuzk_status benchkit_drop_host_g1(cuzk_pk *pk, size_t *freed_bytes, cuzk_error *err);

/* An engine (include/cuzk/engine.h) on n fake devices, 1 <= n <= CUZK_ENGINE_MAX_DEVICES: the CPU
 * prover behind the device interface (one prove-start worker per device, routing and per-device
 * statistics as on GPUs), to test and time the multi-device engine without a GPU. opts->backend
 * must be CPU (or AUTO: taken as CPU); device fields of opts are ignored. Proofs are real.
 * Errors: those of cuzk_engine_create. */
cuzk_status benchkit_engine_create_fake(cuzk_engine **out, const cuzk_engine_opts *opts, int n, cuzk_error *err);

/* ---- 4. bellperson .params files -------------------------------------------------------------- */
/* n random points of the BLS12-381 G1 (group 1) or G2 (group 2) prime-order subgroup, from seed,
 * uncompressed as bellperson .params files hold them (96 / 192 bytes each, DESIGN.md section 5)
 * into out (n * 96 or n * 192 bytes). Errors: CUZK_ERR_ARG (NULL, group, curve not BLS12-381). */
cuzk_status benchkit_random_points(cuzk_curve curve, int group, size_t n, uint64_t seed, uint8_t *out,
                                   cuzk_error *err);
/* Reads the .params file at path with every point checked at `level` on nthreads threads (0:
 * cuzk_threads()): decode 0 keeps nothing (what `cuzk info` does), decode 1 also decodes it into
 * host memory (what a prove does) and frees that before returning. *file_bytes (may be NULL) gets
 * the file's size. Errors: CUZK_ERR_IO, _FORMAT, _POINT (section and index named), CUZK_ERR_NOMEM. */
cuzk_status benchkit_params_read(const char *path, cuzk_check_level level, int nthreads, int decode,
                                 uint64_t *file_bytes, cuzk_error *err);
/* How benchkit_params_read_mode reads (issue 23 item 4: the cold start's phases). */
typedef enum benchkit_read_mode {
    BENCHKIT_READ_CHECK_MMAP = 0,  /* = benchkit_params_read decode 0: through the mapping, nothing kept */
    BENCHKIT_READ_DECODE_MMAP = 1, /* = decode 1: decoded through the mapping (the path before issue 23) */
    BENCHKIT_READ_DECODE_PREAD = 2,/* decoded with pread(2) per thread (bellperson_params_load_ex, no cache) */
    BENCHKIT_READ_CACHE = 3        /* loaded from the pre-decoded cache <path>.cuzk-srs (CUZK_ERR_MISMATCH /
                                      _FORMAT / _IO when it is stale, corrupt or missing: no fallback) */
} benchkit_read_mode;
/* Reads path as `mode` says at `level` on nthreads threads; *file_bytes: the bytes read (the
 * .params, or the cache). Errors as benchkit_params_read. */
cuzk_status benchkit_params_read_mode(const char *path, cuzk_check_level level, int nthreads, benchkit_read_mode mode,
                                      uint64_t *file_bytes, cuzk_error *err);
/* Makes <path>.cuzk-srs (src/formats/srs_cache.h) from the .params at path, checked at level
 * (CURVE or FULL) on nthreads threads; *ms_decode / *ms_write (may be NULL) the two phases. */
cuzk_status benchkit_srs_cache_make(const char *path, cuzk_check_level level, int nthreads, double *ms_decode,
                                    double *ms_write, cuzk_error *err);

/* ---- 5. Filecoin PoSt circuits ---------------------------------------------------------------
 * One partition of a PoSt circuit (names as include/cuzk/filecoin.h; sectors > 0: that many
 * sectors) over the vanilla proofs in vproof_paths[0 .. n_vproofs) (one sector each, checked
 * first against `randomness`, 32 bytes, as sectors 0, 1, ... of the partition, and padded to the
 * circuit's sector count as rust-fil-proofs pads), or over one blank sector (all values 0: the
 * same work, a witness that does not satisfy) when n_vproofs is 0. randomness NULL: all zero.
 * Errors: CUZK_ERR_ARG (unknown name, more files than sectors), CUZK_ERR_IO, CUZK_ERR_FORMAT,
 * CUZK_ERR_INVALID (a vanilla proof: the file and the reason named), CUZK_ERR_NOMEM. */
typedef struct benchkit_post benchkit_post;
typedef struct benchkit_post_info {
    uint32_t sector_count, challenge_count;
    uint64_t n_inputs, n_aux, n_constraints; /* n_inputs: ONE included; witness = inputs + aux */
} benchkit_post_info;
cuzk_status benchkit_post_create(benchkit_post **out, const char *circuit, uint32_t sectors,
                                 const char *const *vproof_paths, size_t n_vproofs, const uint8_t *randomness,
                                 cuzk_error *err);
void benchkit_post_describe(const benchkit_post *h, benchkit_post_info *out);
/* Witness-only synthesis of the partition into w (n_vars = n_inputs + n_aux values, Montgomery),
 * sectors split over nthreads threads (0: cuzk_threads()). Errors: CUZK_ERR_ARG,
 * CUZK_ERR_MISMATCH (n_vars). */
cuzk_status benchkit_post_witness(const benchkit_post *h, uint64_t *w, size_t n_vars, int nthreads,
                                  cuzk_error *err);

typedef enum benchkit_post_pass {
    BENCHKIT_POST_COUNT = 0,    /* counts and A/B densities, recorded on nthreads threads */
    BENCHKIT_POST_MATRICES = 1, /* the CSR matrices recorded on nthreads threads, kept in the handle
                                     (replacing any kept before) for _SERIAL and benchkit_post_setup.
                                     Memory: ~12 GB at a full 32 GiB WindowPoSt partition */
    BENCHKIT_POST_SERIAL = 2    /* the matrices recorded on one builder (over the first sector),
                                     compared with the kept ones, then freed */
} benchkit_post_pass;
typedef struct benchkit_post_record {
    uint64_t n_inputs, n_aux, n_constraints;
    uint64_t a_aux, b_aux, b_inputs; /* COUNT: aux wires present in A, in B; inputs present in B */
    uint64_t nnz_a, nnz_b, nnz_c;    /* MATRICES, SERIAL: nonzeros of A, B, C */
    uint64_t matrix_bytes;           /* MATRICES: host bytes of the kept matrices */
    uint64_t query_a, query_b;       /* MATRICES: points of the key's A query (the aux wires in A and
                                        every input) and B queries (the wires in B) */
    int same_as_kept;                /* SERIAL: 1 when its R1CS equals the kept one, entry by entry */
    double parts_ms, join_ms, queries_ms; /* MATRICES: wall ms of recording the parts (all threads),
                                        joining them, and the A/B densities of the queries */
} benchkit_post_record;
/* One recording pass (nthreads 0: cuzk_threads(); SERIAL ignores it). Errors: CUZK_ERR_ARG (SERIAL
 * with nothing kept), CUZK_ERR_NOMEM, the recording's status. */
cuzk_status benchkit_post_record_pass(benchkit_post *h, benchkit_post_pass pass, int nthreads,
                                      benchkit_post_record *out, cuzk_error *err);
/* INSECURE test parameters made in memory for the kept matrices (benchkit_post_record_pass
 * MATRICES first; they move into the key, which holds them and the parameters): a bellperson
 * proving key whose engine circuits prove cuzk_post_job_synth jobs of the same circuit. Toxic
 * waste from *seed (NULL: the OS RNG); backend: where the point sets are computed; nthreads 0:
 * cuzk_threads(); progress may be NULL; t (may be NULL) gets the setup's stage times. Host
 * memory: the parameters (~61 GB at a full WindowPoSt partition). Errors: CUZK_ERR_ARG (nothing
 * kept), those of cuzk_setup. */
cuzk_status benchkit_post_setup(cuzk_pk **out, benchkit_post *h, const uint64_t *seed, cuzk_backend backend,
                                int nthreads, cuzk_progress_fn progress, void *progress_user,
                                cuzk_setup_timings *t, cuzk_error *err);
void benchkit_post_destroy(benchkit_post *h);

/* ---- 6. Filecoin PoRep circuits ----------------------------------------------------------------
 * The StackedCircuit of one partition of a sector size ("porep-2k" ... "porep-64g", as
 * include/cuzk/filecoin.h), recorded in memory on nthreads threads (0: cuzk_threads()) with its
 * INSECURE test parameters made in memory (toxic waste from *seed, NULL: the OS RNG; point sets on
 * `backend`): a bellperson proving key whose engine circuits prove cuzk_porep_job_synth jobs of
 * that size. rec (may be NULL) gets the recording's numbers (the MATRICES fields of
 * benchkit_post_record: counts, nonzeros, matrix bytes, query sizes, parts_ms = the recording's
 * wall ms, queries_ms); t (may be NULL) the setup's stage times; progress may be NULL. Host memory
 * at 32 GiB: the matrices (~14 GB) plus the parameters (~45 GB). Errors: CUZK_ERR_ARG (unknown
 * name), CUZK_ERR_NOMEM, those of cuzk_setup. */
cuzk_status benchkit_porep_setup(cuzk_pk **out, const char *circuit, const uint64_t *seed, cuzk_backend backend,
                                 int nthreads, cuzk_progress_fn progress, void *progress_user,
                                 benchkit_post_record *rec, cuzk_setup_timings *t, cuzk_error *err);

#ifdef __cplusplus
}
#endif
#endif
