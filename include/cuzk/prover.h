/* cuzk public API: Groth16 proving keys, provers and verification, in memory.
 *
 * The objects, in the order a user meets them:
 *   cuzk_pk      a proving key loaded once (snarkjs .zkey, or bellperson .params + the circuit's
 *                .r1cs), from files or from caller memory; immutable, reference-counted, shared
 *                by every prover and engine circuit made from it.
 *   cuzk_prover  a proving key bound to a backend value (CPU threads, or one GPU with the key's
 *                G1 queries and the circuit resident on it). Making it pays the one-time costs
 *                (GPU context, uploads); every cuzk_prove on it reuses them.
 *   cuzk_proof   the bytes of one proof: the 192-byte bellperson encoding, the snarkjs proof.json
 *                text, the public inputs (32-byte canonical little-endian each, and snarkjs
 *                public.json text). Owned by the caller, freed with cuzk_proof_free.
 *   cuzk_vk      a verification key (snarkjs verification_key.json, bellperson .vk, or a pk's).
 *
 * Field elements at this boundary are 32 bytes each: four 64-bit limbs, least significant limb
 * first, each limb in the host's byte order (= little-endian bytes on every supported host). A
 * "canonical" value is the integer v itself, 0 <= v < r (the curve's group order); a "Montgomery"
 * value is v * 2^256 mod r (how cuzk and snarkjs's .wtns readers hold Fr internally).
 *
 * Curves: BLS12-381 and BN254 (snarkjs "bn128"); the file's curve picks the curve. BN254 keys are
 * snarkjs .zkey files (the bellperson convention, its 192-byte proofs and .vk files are
 * BLS12-381 only) and prove on either backend (AUTO: the GPU when one is usable, as for
 * BLS12-381). Files of different curves given together (a bn128 witness for a bls12381 key, ...)
 * are CUZK_ERR_CURVE.
 *
 * Conventions (DESIGN.md section 4): SNARKJS = a .zkey (circom/snarkjs 0.7 Groth16: H on the odd
 * coset, roots from 5); BELLPERSON = bellperson/Filecoin parameters (+ the circuit's R1CS; one
 * extra A row per input, H by coset division with g = 7, density-selected A/B queries). A proof
 * of either is a Groth16 proof (A, B, C) checked by the same verification equation.
 *
 * Errors: every fallible call returns a cuzk_status (include/cuzk/cuzk.h) and fills the optional
 * caller-owned cuzk_error. Misuse (NULL, sizes that do not fit, options that contradict) is
 * CUZK_ERR_ARG; bad data is FORMAT / CURVE / POINT / MISMATCH / UNSAT / INVALID; the
 * environment is IO / NOMEM / NOMEM_DEVICE / DEVICE / RANDOM / UNSUPPORTED. On failure every
 * output argument is left empty (NULL handles, zeroed structs) and nothing needs freeing.
 *
 * Thread-safety: loading, describing and verifying are reentrant. A cuzk_pk and a cuzk_vk are
 * immutable after loading and may be used from any number of threads; cuzk_pk_retain /
 * cuzk_pk_release are atomic. A cuzk_prover may be used by several threads at once: calls on the
 * GPU backend are serialized inside (one proof on the device at a time); CPU calls run
 * concurrently. cuzk_prover_destroy must not race with any other call on the same prover.
 * The library never prints (cuzk_set_log).
 */
#ifndef CUZK_PROVER_H
#define CUZK_PROVER_H

#include <stddef.h>
#include <stdint.h>

#include "cuzk/cuzk.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- curves, conventions, backends ----------------------------------------------------------- */

typedef enum cuzk_curve {
    CUZK_CURVE_UNKNOWN = 0,   /* as a load option: take the curve the file names (default) */
    CUZK_CURVE_BLS12_381 = 1, /* Fr 255 bits, Fp 381 bits; bellperson/Filecoin, snarkjs "bls12381" */
    CUZK_CURVE_BN254 = 2      /* alt_bn128, snarkjs "bn128": Fr and Fp 254 bits; snarkjs .zkey only */
} cuzk_curve;
/* "bls12-381", "bn254", "unknown". Never NULL. */
CUZK_API const char *cuzk_curve_name(cuzk_curve c);

typedef enum cuzk_convention {
    CUZK_CONVENTION_SNARKJS = 1,   /* a .zkey */
    CUZK_CONVENTION_BELLPERSON = 2 /* a .params with its .r1cs */
} cuzk_convention;
/* "snarkjs", "bellperson", "unknown". Never NULL. */
CUZK_API const char *cuzk_convention_name(cuzk_convention c);

/* Where the heavy stages (a/b/c, the NTTs of H, the G1 MSMs) run. B_G2 (a G2 MSM) and the proof
 * assembly always run on CPU threads. AUTO: the GPU when this build has CUDA and a device is
 * present, else the CPU (one INFO log line). GPU without a device: CUZK_ERR_DEVICE. */
typedef enum { CUZK_BACKEND_AUTO = 0, CUZK_BACKEND_CPU = 1, CUZK_BACKEND_GPU = 2 } cuzk_backend;
/* What a request resolves to on this machine, as provers, engines and setup resolve it: *out is
 * CPU or GPU (AUTO: GPU when this build has CUDA and a device is present, else CPU with one INFO
 * log line). Errors: CUZK_ERR_DEVICE (GPU requested, none present or no CUDA in this build),
 * CUZK_ERR_ARG (NULL, an unknown value). Thread-safe. */
CUZK_API cuzk_status cuzk_backend_resolve(cuzk_backend requested, cuzk_backend *out, cuzk_error *err);

/* ---- proving keys ---------------------------------------------------------------------------- */

typedef struct cuzk_pk cuzk_pk;

typedef struct cuzk_pk_load_opts {
    cuzk_curve curve;         /* expected curve; UNKNOWN (default): any the build supports.
                                 A file of another curve: CUZK_ERR_CURVE */
    cuzk_check_level check;   /* bellperson .params point checks (cuzk.h); DEFAULT = CURVE. The
                                 .zkey loader always checks every point is on its curve (BN254: and
                                 the vk's G2 points in G2); FULL adds every point's subgroup check */
    int nthreads;             /* threads for decoding and checking; 0: all online CPUs */
    cuzk_progress_fn progress;/* progress of decoding a .params (file bytes); NULL: none */
    void *progress_user;
    /* snarkjs only, optional: the circuit's .r1cs (a path, or bytes + length; give at most one),
     * needed for cuzk_proof_opts.check_witness because a .zkey does not store C. It must belong
     * to the zkey (same wire and public counts: CUZK_ERR_MISMATCH otherwise). Ignored (must be
     * NULL) for bellperson keys, which always have their circuit. */
    const char *r1cs_path;
    const uint8_t *r1cs_bytes;
    size_t r1cs_len;
    /* Optional: the witness length (n_vars, ONE included) the caller will prove with, e.g. from
     * cuzk_witness_count. Nonzero: a circuit of another length is CUZK_ERR_MISMATCH, found as soon
     * as it is known (bellperson: after the .r1cs, before the parameters are read; snarkjs: after
     * the zkey's header). 0: not checked here (cuzk_prove checks every witness). */
    size_t expect_n_vars;
    /* bellperson .params only (cuzk_pk_load_params, cuzk_porep/post/snap_pk_load): 1 leaves the
     * SRS queries h, l, a, b_g1 and b_g2 (all but the vk: ~45 of the 47 GB of a PoRep file) in the
     * file at load: only the vk and ic are decoded and checked then, and the key keeps the file
     * open. A GPU prover (the engine's preload) decodes and checks each query it keeps resident
     * chunk by chunk straight into its device copy, so the host never holds them (the file is read
     * once); queries its memory plan streams or runs on CPU threads (B_G2), and every query of a
     * CPU prover, are decoded into host memory when that prover is made. So a bad point is
     * CUZK_ERR_POINT at preload, not at load, and the file must stay as it is while the key lives
     * (a failed read is CUZK_ERR_IO then). Not deferred (decoded whole at load, as with 0): a valid
     * pre-decoded SRS cache next to the file (cuzk_srs_cache_make: read whole, faster than a
     * decode), phase-2 MPC files exported by snarkjs, .zkey keys (ignored). */
    int defer_queries;
} cuzk_pk_load_opts;

/* Loads a snarkjs Groth16 .zkey (snarkjs 0.7.6 layout, tests/fixtures/FORMATS.md section 3).
 * opts may be NULL (defaults). *out gets a new key with one reference (cuzk_pk_release).
 * Host memory: every point section decoded (affine, Montgomery), about 1.1x the file.
 * Errors: CUZK_ERR_ARG, CUZK_ERR_IO (path), CUZK_ERR_FORMAT (truncated, wrong magic, sizes),
 * CUZK_ERR_CURVE (a prime of no supported curve; opts->curve set to another curve than the
 * file's; an r1cs of another curve), CUZK_ERR_POINT (a point off its curve),
 * CUZK_ERR_UNSUPPORTED (not Groth16), CUZK_ERR_MISMATCH (an r1cs of another circuit),
 * CUZK_ERR_NOMEM. */
CUZK_API cuzk_status cuzk_pk_load_zkey(cuzk_pk **out, const char *zkey_path, const cuzk_pk_load_opts *opts, cuzk_error *err);
/* The same from len bytes at `bytes` (a .zkey image in host memory). The bytes are read during
 * the call only (the key holds its own decoded copy): the caller may free them after. */
CUZK_API cuzk_status cuzk_pk_load_zkey_mem(cuzk_pk **out, const uint8_t *bytes, size_t len, const cuzk_pk_load_opts *opts,
                                  cuzk_error *err);

/* Loads bellperson Groth16 parameters (.params, DESIGN.md section 5) and the circuit they were
 * made for (a circom .r1cs; the bellperson convention adds one A row per input itself). The
 * counts must fit each other (CUZK_ERR_MISMATCH otherwise: ic = inputs + 1, l = aux, h = m - 1,
 * a/b by the circuit's densities). Host memory: the decoded parameters (about the file size) plus
 * the circuit in CSR form. Errors: those of cuzk_pk_load_zkey, CUZK_ERR_POINT naming the section
 * and index of a bad point (at opts->check). */
CUZK_API cuzk_status cuzk_pk_load_params(cuzk_pk **out, const char *params_path, const char *r1cs_path,
                                const cuzk_pk_load_opts *opts, cuzk_error *err);
/* The same from memory: params_len bytes of a .params image and r1cs_len bytes of a .r1cs
 * image, read during the call only. */
CUZK_API cuzk_status cuzk_pk_load_params_mem(cuzk_pk **out, const uint8_t *params, size_t params_len, const uint8_t *r1cs,
                                    size_t r1cs_len, const cuzk_pk_load_opts *opts, cuzk_error *err);

/* The pre-decoded SRS cache of a bellperson .params file (issue 23, the cold start): the file's
 * points decoded once into cuzk's memory layout (affine, Montgomery form, little-endian limbs) in
 * `<params>.cuzk-srs`, with a header recording the format version, the .params' size, mtime and a
 * sampled content digest, the check level the points were verified at, and a checksum per 4 MiB.
 * cuzk_pk_load_params (and the Filecoin key loaders, cuzkd's preload, the SRS store) then read
 * the cache instead of decoding the file when it is valid for that file and a check level >= the
 * one asked for; a stale, corrupt, truncated or weaker cache is refused with a warning naming the
 * reason, and the .params is decoded as before. CUZK_SRS_CACHE=off in the environment ignores
 * every cache. Format: src/formats/srs_cache.h.
 *
 * cuzk_srs_cache_make: decodes params_path with every point checked at `check` (DEFAULT: CURVE;
 * FULL adds the subgroup check; NONE is refused) on nthreads threads (<= 0: all), then writes
 * cache_path (NULL: params_path + ".cuzk-srs") atomically (a temporary file, renamed). Host
 * memory: the decoded parameters (about the .params' size). Errors: CUZK_ERR_ARG, those of
 * cuzk_pk_load_params for the file (IO, FORMAT, POINT, CURVE), CUZK_ERR_IO writing, CUZK_ERR_NOMEM.
 *
 * cuzk_srs_cache_make refuses (CUZK_ERR_ARG) a cache_path that is params_path itself (or the same
 * file through a link) or an existing file that is not a cache; the temporary has a unique name.
 *
 * cuzk_srs_cache_check: whether the cache would be used for a load at `check`: its header,
 * staleness, counts and kind against the .params' header, and level (thorough 0: no chunk read), then (thorough 1) every chunk's checksum, then (thorough 2) also a decode of
 * the .params at `check` compared with the cache byte for byte. CUZK_OK: valid. Errors:
 * CUZK_ERR_IO (no cache, errno ENOENT; unreadable), CUZK_ERR_FORMAT (corrupt, truncated, other
 * version), CUZK_ERR_MISMATCH (stale, weaker check, or a thorough-2 difference), and those of the
 * .params' decode. Both functions are thread-safe (reentrant). */
CUZK_API cuzk_status cuzk_srs_cache_make(const char *params_path, const char *cache_path, cuzk_check_level check,
                                         int nthreads, cuzk_error *err);
CUZK_API cuzk_status cuzk_srs_cache_check(const char *params_path, const char *cache_path, cuzk_check_level check,
                                          int thorough, int nthreads, cuzk_error *err);

/* What the last load of a .params in this process did with its SRS cache: 0 no cache was read
 * (none there, CUZK_SRS_CACHE=off, no load yet), 1 the points came from a cache (buf: its path),
 * 2 a cache was refused and the .params decoded (buf: the warning, with the reason). buf may be
 * NULL. For messages and summaries (a failed proof names the cache its points came from).
 * Thread-safe; with concurrent loads the last one wins. */
CUZK_API int cuzk_srs_cache_last_use(char *buf, size_t cap);

/* The check level recorded in the header of the SRS cache at cache_path (CURVE or FULL); DEFAULT
 * when the file is no intact cache (cannot be read, not a cache, corrupt header). */
CUZK_API cuzk_check_level cuzk_srs_cache_level(const char *cache_path);

/* Adds a reference and returns pk (NULL stays NULL). Atomic. */
CUZK_API cuzk_pk *cuzk_pk_retain(cuzk_pk *pk);
/* Drops a reference; the last one frees the key. Provers, vks and engine circuits made from a
 * key hold their own reference, so a caller may release its reference right after making them.
 * NULL is a no-op. Atomic; the final free must not race with a use through a borrowed pointer. */
CUZK_API void cuzk_pk_release(cuzk_pk *pk);

typedef struct cuzk_pk_info {
    cuzk_curve curve;
    cuzk_convention convention;
    uint32_t n_constraints; /* the circuit's own constraints (R1CS rows); for a .zkey loaded without
                               its .r1cs, counted from the zkey's coefficient rows (snarkjs puts
                               the public-input rows after the constraints) */
    uint32_t n_public;      /* public inputs, ONE not counted */
    uint32_t n_vars;        /* witness length: ONE + public inputs + private (aux) variables */
    uint32_t domain_size;   /* m: the NTT domain (a power of two) */
    uint64_t host_bytes;    /* host memory the key holds (points, circuit, coefficients) */
    int has_circuit;        /* 1: the R1CS is held (check_witness possible) */
} cuzk_pk_info;
/* Fills *out. Errors: CUZK_ERR_ARG (NULL). Thread-safe. */
CUZK_API cuzk_status cuzk_pk_describe(const cuzk_pk *pk, cuzk_pk_info *out, cuzk_error *err);

/* ---- provers --------------------------------------------------------------------------------- */

/* How a GPU G1 MSM adds its sorted (bucket, point) pairs into buckets (cuzk_msm_opts.accumulation).
 * The same sums every way (tests/test_gpu_msm.c runs each against the CPU); only time and scratch
 * differ. G2 MSMs (B_G2 on the device) always use TASKS.
 *   DEFAULT  the library's choice: TASKS.
 *   TASKS    a bucket is split into tasks of at most K pairs, one thread per task.
 *   RUNS     every thread adds a run of the same number of sorted pairs, cut at bucket
 *            boundaries (an experiment: bench/GPU_RESULTS.md session 4).
 * Any other value is CUZK_ERR_ARG. (3 was a batch-affine accumulation, removed: 1.65x slower than
 * TASKS on an H100, bench/GPU_RESULTS.md session 9.) */
typedef enum cuzk_gpu_msm_accum {
    CUZK_GPU_MSM_ACCUM_DEFAULT = 0,
    CUZK_GPU_MSM_ACCUM_TASKS = 1,
    CUZK_GPU_MSM_ACCUM_RUNS = 2
} cuzk_gpu_msm_accum;

/* Tuning of the GPU MSMs, carried by each prover (cuzk_prover_opts.msm) and engine
 * (cuzk_engine_opts.msm) down to its MSM launches: two provers of one process may be tuned
 * differently. 0 everywhere means automatic (the tuned defaults). Values the device code cannot
 * honour are clamped by it, except an unknown accumulation (CUZK_ERR_ARG from the call that takes
 * the options). Ignored by the CPU backend.
 * The library reads no environment variable for these (the programs map $CUZK_MSM_WINDOW,
 * $CUZK_MSM_CHUNK, $CUZK_GPU_B2 and $CUZK_GPU_MSM_ACCUM onto them; cuzkd its [engine] keys). Proofs do not depend on them, only time and device memory. */
typedef struct cuzk_msm_opts {
    int window_bits;      /* Pippenger window c for the non-0/1 scalars, 0: automatic (lg n - 4 up
                             to 2^23 points, 18 at 2^24, 20 from 2^25 per chunk); else clamped
                             to 2..22 */
    size_t chunk_points;  /* points per MSM chunk (bounds the scratch), 0: automatic */
    int b_g2_on_gpu;      /* the GPU backend, where the B_G2 MSM (over G2) runs: 1: on the GPU
                             after the G1 MSMs, over a resident copy of the key's B_G2 query (192
                             bytes per point on BLS12-381, 128 on BN254, on top of the G1 queries;
                             counted in the prover's device bytes and the engine's GPU budget;
                             binding fails when it does not fit); -1: on CPU threads (nthreads of
                             them; bellperson keys: while the GPU works; snarkjs keys: in the
                             proof's finish step); 0 (default): automatic, the GPU unless the query
                             and the G2 MSM's scratch do not fit the device or the engine's GPU
                             budget, then CPU threads (one log line says which). Both conventions:
                             bellperson keys, and snarkjs .zkey keys (whose B_G2 query of n_vars
                             points is resident or B_G2 stays on CPU threads: never streamed
                             like a bellperson plan's). Measured on an H200
                             (bench/RESULTS.md section 25): a 2^27 PoRep partition's B_G2 takes
                             16 ms there against 2.7-5.3 s on 16 CPU threads */
    cuzk_gpu_msm_accum accumulation; /* the G1 MSMs' bucket accumulation (above): 0 DEFAULT,
                             1 TASKS, 2 RUNS */
    int zkey_rows_on_gpu; /* the GPU backend, snarkjs .zkey keys: 0 (default) or 1 also puts the
                             zkey's A and B coefficient rows on the device when they fit (counted
                             like the queries; else a/b stay on CPU threads) and runs a proof's
                             start there whole: the witness goes up once, a/b by SpMV, H and every
                             MSM read it there, only points come back (H100: a 2^20 proof's prover
                             time 181 -> 12 ms, bench/GPU_RESULTS.md session 20); -1: a/b summed on
                             CPU threads, then H and the MSMs on the device. Same proofs */
} cuzk_msm_opts;

typedef struct cuzk_prover_opts {
    cuzk_backend backend; /* AUTO (default), CPU or GPU */
    int nthreads;         /* CPU threads per proof (CPU MSMs and NTTs, B_G2 on both backends);
                             0: all online CPUs (cuzk_set_threads) */
    int device;           /* CUDA device ordinal for the GPU backend (default 0) */
    cuzk_msm_opts msm;    /* GPU MSM tuning */
} cuzk_prover_opts;

/* The CUDA devices this process sees, for the device fields of cuzk_prover_opts and
 * cuzk_engine_opts: *count = the number of devices (0 when there is no driver or no device, also
 * CUZK_OK). A build without CUDA: *count = 0 and CUZK_ERR_UNSUPPORTED. Errors: CUZK_ERR_ARG
 * (NULL count), CUZK_ERR_DEVICE (a CUDA failure other than "no device"). Thread-safe. */
CUZK_API cuzk_status cuzk_gpu_device_count(int *count, cuzk_error *err);
/* One line describing device `device` ("NVIDIA H200, sm_90, 132 SMs, 139.8 GiB, ...") into buf
 * (cap bytes, NUL-terminated, truncated to fit; "" on failure). Errors: CUZK_ERR_ARG (NULL buf,
 * cap 0, device < 0), CUZK_ERR_UNSUPPORTED (a build without CUDA), CUZK_ERR_DEVICE (no such
 * device, a CUDA failure). Thread-safe. */
CUZK_API cuzk_status cuzk_gpu_device_info(int device, char *buf, size_t cap, cuzk_error *err);

typedef struct cuzk_prover cuzk_prover;

/* Binds pk (a reference is taken) to the backend opts resolves to. opts may be NULL (defaults).
 * GPU backend: creates the device context and uploads the key's G1 queries (and, for bellperson
 * keys, the circuit's matrices and density selections) once; the handle keeps them until
 * cuzk_prover_destroy. Errors: CUZK_ERR_ARG, CUZK_ERR_DEVICE (GPU requested, none present, or a
 * CUDA failure), CUZK_ERR_NOMEM_DEVICE (the key does not fit on the device), CUZK_ERR_NOMEM,
 * CUZK_ERR_UNSUPPORTED (a curve or convention the backend does not handle). */
CUZK_API cuzk_status cuzk_prover_create(cuzk_prover **out, cuzk_pk *pk, const cuzk_prover_opts *opts, cuzk_error *err);
/* Frees the backend state and drops the key reference. NULL is a no-op. */
CUZK_API void cuzk_prover_destroy(cuzk_prover *p);
/* "cpu" or "gpu": the backend the prover resolved to. Never NULL ("none" for NULL). */
CUZK_API const char *cuzk_prover_backend_name(const cuzk_prover *p);
/* The key the prover was made from (borrowed: valid while the prover lives). */
CUZK_API const cuzk_pk *cuzk_prover_pk(const cuzk_prover *p);

/* A witness in caller memory. len is always in bytes.
 *   FR_MONT / FR_CANON: n_vars values of 32 bytes (len = 32 * n_vars), Montgomery or canonical
 *                       (see the top of this file), w[0] = ONE, then the public inputs, then aux.
 *   WTNS:               a snarkjs .wtns file image (iden3 binary, FORMATS.md section 2).
 * The bytes are read during the prove call only. */
typedef enum cuzk_witness_form {
    CUZK_WITNESS_FR_MONT = 1,
    CUZK_WITNESS_FR_CANON = 2,
    CUZK_WITNESS_WTNS = 3
} cuzk_witness_form;
typedef struct cuzk_witness {
    cuzk_witness_form form;
    const void *data; /* host memory; FR forms: 8-byte aligned */
    size_t len;       /* bytes */
} cuzk_witness;

/* The number of values of a witness without proving: FR forms len / 32 (CUZK_ERR_ARG when len is
 * not a positive multiple of 32), *curve = CUZK_CURVE_UNKNOWN (limbs do not say); WTNS: the count
 * its header states after checking the image's layout (magic, version, the prime of a supported
 * curve, section sizes; the values themselves are not read), *curve = the curve of its prime.
 * curve may be NULL. Errors: CUZK_ERR_ARG, CUZK_ERR_FORMAT, CUZK_ERR_CURVE (a prime of no
 * supported curve). Reads the bytes during the call only. Thread-safe. */
CUZK_API cuzk_status cuzk_witness_count(const cuzk_witness *w, size_t *n_values, cuzk_curve *curve, cuzk_error *err);

typedef struct cuzk_proof_opts {
    /* Fixed r and s (tests: proofs become reproducible, byte for byte on every backend); both or
     * neither (CUZK_ERR_ARG). 32 bytes each, canonical, < r (CUZK_ERR_ARG otherwise).
     * NULL: drawn uniformly from the OS RNG per proof (the production setting). */
    const uint8_t *fixed_r;
    const uint8_t *fixed_s;
    int check_witness;    /* check every constraint first: CUZK_ERR_UNSAT names the first failing
                             row. Needs the circuit (cuzk_pk_info.has_circuit; else CUZK_ERR_ARG) */
    int skip_self_verify; /* do not verify the proof against the key before returning it. By
                             default a proof that does not verify (a witness that does not satisfy
                             the circuit, a corrupt key) is CUZK_ERR_UNSAT and never returned */
} cuzk_proof_opts;

/* Wall-clock milliseconds per stage of one prove call (also the file API's timings). */
typedef struct cuzk_prove_timings {
    double load_ms;      /* reading and validating key, circuit and witness (file API; in memory: the witness) */
    double check_ms;     /* witness check (check_witness) */
    double abc_ms;       /* a/b/c evaluation vectors */
    double h_ms;         /* the NTTs of H */
    double msm_a_ms, msm_b1_ms, msm_b2_ms, msm_l_ms, msm_h_ms;
    double assemble_ms;  /* r, s terms, affine conversion */
    double gpu_setup_ms; /* GPU backend: making the key resident (file API: once per call) */
    double upload_ms;    /* GPU backend, bellperson: witness host -> device */
    int b2_overlapped;   /* 1: msm_b2_ms ran on CPU threads during the GPU stages (not in the wall sum) */
    double verify_ms;    /* self-verification of the proof */
    double write_ms;     /* writing proof and public inputs (file API); encoding (in memory) */
    double free_ms;      /* releasing keys and buffers */
    double total_ms;     /* the whole call, measured around it */
    uint32_t constraints, domain_size, n_vars, n_public;
    const char *backend; /* "cpu" or "gpu": where the MSMs and NTTs ran (static string) */
} cuzk_prove_timings;

#define CUZK_PROOF_BELLPERSON_BYTES 192
#define CUZK_FR_BYTES 32

/* One proof, as bytes. Every pointer is owned by the struct (cuzk_proof_free). */
typedef struct cuzk_proof {
    cuzk_curve curve;
    int has_bellperson;       /* 1 on BLS12-381: `bellperson` holds the proof */
    uint8_t bellperson[CUZK_PROOF_BELLPERSON_BYTES]; /* A (G1, 48) | B (G2, 96) | C (G1, 48),
                                 compressed zcash encoding (DESIGN.md section 3), as bellperson and
                                 Filecoin write proofs */
    char *proof_json;         /* snarkjs proof.json text (NUL-terminated), as snarkjs writes it */
    size_t proof_json_len;    /* strlen(proof_json) */
    uint32_t n_public;        /* public inputs (ONE not counted) */
    uint8_t *public_inputs;   /* n_public * 32 bytes: canonical Fr (w[1 .. n_public]); NULL if 0 */
    char *public_json;        /* snarkjs public.json text (decimal strings), NUL-terminated */
    size_t public_json_len;
} cuzk_proof;

/* Proves one witness: a Groth16 proof (A, B, C) of the key's circuit (DESIGN.md section 4),
 * encoded into *out (caller frees with cuzk_proof_free). opts and t may be NULL (defaults: random
 * r, s, self-verified; no timings).
 * Errors: CUZK_ERR_ARG (NULL, a witness length that is not a multiple of 32, r or s >= r, one of
 * r/s only, check_witness without a circuit), CUZK_ERR_FORMAT (a bad .wtns image, a value >= r in
 * a canonical witness), CUZK_ERR_CURVE (a .wtns of another field), CUZK_ERR_MISMATCH (n_vars
 * differs from the key's, w[0] != 1), CUZK_ERR_UNSAT (check_witness found a failing constraint,
 * or the proof did not self-verify), CUZK_ERR_RANDOM, CUZK_ERR_NOMEM, CUZK_ERR_NOMEM_DEVICE,
 * CUZK_ERR_DEVICE (after a sticky CUDA fault the prover is dead: destroy it, make another).
 * On failure *out is zeroed. Thread-safety: see the top of this file. */
CUZK_API cuzk_status cuzk_prove(cuzk_prover *p, cuzk_proof *out, const cuzk_witness *w, const cuzk_proof_opts *opts,
                       cuzk_prove_timings *t, cuzk_error *err);

/* Frees the buffers of a proof and zeroes it. NULL and zeroed proofs are fine. */
CUZK_API void cuzk_proof_free(cuzk_proof *proof);

/* Converts a witness of any form (a .wtns image, canonical or Montgomery limbs) of curve `curve`
 * into n_vars values of out_form (CUZK_WITNESS_FR_MONT or CUZK_WITNESS_FR_CANON) written to out:
 * n_vars * 4 uint64 limbs, caller memory (e.g. an engine synthesis callback's buffer). w's bytes
 * are read during the call only. Checks: a .wtns must be of curve's field; every value must be
 * canonical (< r); the count must be n_vars; w[0] must be 1.
 * Errors: CUZK_ERR_ARG (NULL, out_form WTNS, a length not a multiple of 32, unaligned limbs),
 * CUZK_ERR_FORMAT (a bad .wtns image, a value >= r), CUZK_ERR_CURVE (a .wtns of another field),
 * CUZK_ERR_MISMATCH (not n_vars values, w[0] != 1), CUZK_ERR_UNSUPPORTED (a curve this build does
 * not have), CUZK_ERR_NOMEM. On failure out's content is unspecified. Thread-safe. */
CUZK_API cuzk_status cuzk_witness_convert(const cuzk_witness *w, cuzk_curve curve, cuzk_witness_form out_form,
                                          uint64_t *out, size_t n_vars, cuzk_error *err);

/* The byte encoding of one proof on each curve (the engine's cuzk_job_result.proofs, read by
 * cuzk_proof_from_bytes and by cuzk_verify's CUZK_PROOF_CURVE_BYTES):
 *   BLS12-381  192 bytes: the bellperson encoding (cuzk_proof.bellperson);
 *   BN254      256 bytes: A (G1, 64) | B (G2, 128) | C (G1, 64) in snarkjs's LEM encoding, as points
 *              are stored in .zkey files (FORMATS.md section 0): each coordinate 32 bytes, its
 *              Montgomery form (x * 2^256 mod p) little-endian; G2 coordinates c0 then c1;
 *              the point at infinity all zero bytes. */
#define CUZK_PROOF_BN254_BYTES 256
/* cuzk_proof_bytes(c): 192, 256, or 0 for a curve this build does not have. Thread-safe. */
CUZK_API size_t cuzk_proof_bytes(cuzk_curve c);

/* A cuzk_proof from the proof_len bytes of a proof of `curve` in that curve's encoding (above;
 * e.g. one proof of an engine job's cuzk_job_result.proofs) and its n_public public inputs (32
 * bytes each, canonical): fills proof_json, public_inputs, public_json, and on BLS12-381 bellperson,
 * as cuzk_prove does (caller frees with cuzk_proof_free). The points are decoded and checked on
 * their curves and in their subgroups; nothing is verified against a key (cuzk_verify does that).
 * Errors: CUZK_ERR_ARG (NULL, an unknown curve, proof_len not cuzk_proof_bytes(curve)),
 * CUZK_ERR_POINT (bytes that are not three valid points, the point named), CUZK_ERR_FORMAT (a
 * public input >= r), CUZK_ERR_NOMEM. On failure *out is zeroed. Thread-safe. */
CUZK_API cuzk_status cuzk_proof_from_bytes(cuzk_proof *out, cuzk_curve curve, const uint8_t *proof, size_t proof_len,
                                           const uint8_t *public_inputs, uint32_t n_public, cuzk_error *err);
/* cuzk_proof_from_bytes of a BLS12-381 proof's 192 bytes. */
CUZK_API cuzk_status cuzk_proof_from_bellperson(cuzk_proof *out, const uint8_t proof[CUZK_PROOF_BELLPERSON_BYTES],
                                                const uint8_t *public_inputs, uint32_t n_public, cuzk_error *err);

/* ---- verification ---------------------------------------------------------------------------- */

typedef struct cuzk_vk cuzk_vk;

/* A verification key from snarkjs verification_key.json text (len bytes; need not be
 * NUL-terminated). Errors: CUZK_ERR_ARG, CUZK_ERR_FORMAT (not JSON, wrong shape, a number not
 * canonical), CUZK_ERR_CURVE ("curve" is neither bls12381 nor bn128), CUZK_ERR_POINT, CUZK_ERR_NOMEM. */
CUZK_API cuzk_status cuzk_vk_load_json(cuzk_vk **out, const char *json, size_t len, cuzk_error *err);
/* A verification key from a bellperson .vk image (len bytes): alpha1, beta1, beta2, gamma2,
 * delta1, delta2 (uncompressed), u32 big-endian count + ic points. Errors as above. */
CUZK_API cuzk_status cuzk_vk_load_bellperson(cuzk_vk **out, const uint8_t *bytes, size_t len, cuzk_error *err);
/* The verification key of a snarkjs .zkey file (bls12381 or bn128), read from the file's header and
 * IC sections alone (milliseconds whatever the key's size; what `snarkjs zkey export
 * verificationkey` exports): every point checked on the curve and in the subgroup, none at
 * infinity. Errors: CUZK_ERR_ARG, CUZK_ERR_IO (cannot open or map), CUZK_ERR_FORMAT (not a zkey,
 * truncated, a section of the wrong size), CUZK_ERR_UNSUPPORTED (not Groth16), CUZK_ERR_CURVE,
 * CUZK_ERR_POINT (naming the point), CUZK_ERR_NOMEM. */
CUZK_API cuzk_status cuzk_vk_load_zkey(cuzk_vk **out, const char *zkey_path, cuzk_error *err);
/* vk as snarkjs verification_key.json text (the keys, order and layout snarkjs writes: protocol,
 * curve, nPublic, vk_alpha_1, vk_beta_2, vk_gamma_2, vk_delta_2, vk_alphabeta_12, IC; numbers as
 * decimal strings; a BLS12-381 key of any origin, bellperson's .vk too, as "bls12381"). *json is
 * NUL-terminated, allocated with malloc: release it with free(); *len (may be NULL) its length
 * without the NUL. Errors: CUZK_ERR_ARG, CUZK_ERR_NOMEM. Reentrant. */
CUZK_API cuzk_status cuzk_vk_json(const cuzk_vk *vk, char **json, size_t *len, cuzk_error *err);
/* The verification key of a proving key (copied: the vk does not reference pk). */
CUZK_API cuzk_status cuzk_vk_from_pk(cuzk_vk **out, const cuzk_pk *pk, cuzk_error *err);
/* Public inputs the key expects (ONE not counted). 0 for NULL. */
CUZK_API uint32_t cuzk_vk_n_public(const cuzk_vk *vk);
/* NULL is a no-op. */
CUZK_API void cuzk_vk_free(cuzk_vk *vk);

typedef enum cuzk_proof_form {
    CUZK_PROOF_BELLPERSON = 1,  /* exactly 192 bytes (cuzk_proof.bellperson); BLS12-381 keys only */
    CUZK_PROOF_SNARKJS_JSON = 2,/* proof.json text */
    CUZK_PROOF_CURVE_BYTES = 3  /* the encoding of the key's curve (cuzk_proof_bytes: BLS12-381 the
                                   192 bellperson bytes, BN254 256 bytes), as engine jobs return proofs */
} cuzk_proof_form;
typedef enum cuzk_public_form {
    CUZK_PUBLIC_CANON = 1,      /* n_public * 32 bytes, canonical (cuzk_proof.public_inputs) */
    CUZK_PUBLIC_JSON = 2        /* public.json text: an array of decimal strings */
} cuzk_public_form;

/* Checks e(A, B) = e(alpha1, beta2) * e(sum_i x_i ic_i, gamma2) * e(C, delta2) with x_0 = 1 and
 * x_1.. the public inputs (one multi-Miller loop and a final exponentiation), after checking the
 * proof's points are on their curves and in the prime-order subgroups. Buffers: len in bytes, read
 * during the call only. Returns CUZK_OK (valid) or CUZK_ERR_INVALID (not valid: the reason in
 * err; also for a proof whose points do not decode or are off the curve); CUZK_ERR_MISMATCH (the
 * number of public inputs differs from the key's; err->detail is CUZK_DETAIL_PUBLIC_COUNT), CUZK_ERR_ARG (NULL, lengths), CUZK_ERR_FORMAT
 * (public inputs not canonical or not parseable; a byte proof of the wrong length; JSON that
 * does not parse), CUZK_ERR_UNSUPPORTED (CUZK_PROOF_BELLPERSON with a BN254 key), CUZK_ERR_POINT (a degenerate key: gamma2 or delta2 at infinity).
 * Thread-safe: any number of threads may verify with one vk. */
CUZK_API cuzk_status cuzk_verify(const cuzk_vk *vk, cuzk_public_form public_form, const void *public_inputs, size_t public_len,
                        cuzk_proof_form proof_form, const void *proof, size_t proof_len, cuzk_error *err);

#ifdef __cplusplus
}
#endif
#endif
