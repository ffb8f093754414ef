/* Groth16 parameter generation on one curve (groth16/setup.h): a declaration template, included
 * once per curve by groth16/setup.h with the curve's name space set (src/curves/<curve>/ns.h);
 * every curve-dependent name is CN(name). No include guard. */
/* The toxic waste. Secret: wipe with groth16_toxic_wipe. */
typedef struct CN(groth16_toxic) {
    CN(fr) tau, alpha, beta, gamma, delta;
} CN(groth16_toxic);

/* seed != NULL: a SplitMix64 stream from *seed, 512 bits per element reduced mod r
 * (reproducible); NULL: uniform from the OS RNG (CUZK_ERR_RANDOM on failure). Every element is
 * nonzero and tau is not a root of unity of order dividing 2^32 (so Z(tau) != 0 for every
 * domain): a draw that fails is replaced by the next one. */
cuzk_status CN(groth16_toxic_draw)(CN(groth16_toxic) *t, const uint64_t *seed, cuzk_error *err);
void CN(groth16_toxic_wipe)(CN(groth16_toxic) *t);

/* out[j - begin] = scale / (x0 * step^j - 1) for begin <= j < end (Montgomery), all threads
 * (nthreads <= 0: all CPUs): one inversion per thread chunk (Montgomery's trick), 5
 * multiplications per element. Every x0 * step^j must differ from 1. With x0 = tau,
 * step = omega^-1 and scale = (tau^m - 1) / m this is the Lagrange basis
 * L_j(tau) = (omega^j / m) (tau^m - 1) / (tau - omega^j). */
void CN(setup_lagrange_range)(CN(fr) *out, size_t begin, size_t end, const CN(fr) *x0, const CN(fr) *step, const CN(fr) *scale,
                              int nthreads);

/* out[j] = L_j(tau) * scale for j < m = 2^log_m with the roots of `roots` (scale NULL: 1). */
void CN(setup_lagrange)(CN(fr) *out, int log_m, ntt_roots roots, const CN(fr) *tau, const CN(fr) *scale, int nthreads);

/* The parameters x0, step, s of the zkey H basis on [begin, end): out[j] = s / (x0 step^j - 1) =
 * L^(2m)_(2j+1)(tau) * scale, the size-2m Lagrange basis (snarkjs roots 5^t) at the odd points
 * omega_2m^(2j+1), j < m (FORMATS.md section 3, section 9). */
void CN(setup_odd_coset_params)(CN(fr) *x0, CN(fr) *step, CN(fr) *s, int log_m, const CN(fr) *tau, const CN(fr) *scale);

/* Transposed SpMV: out[i] = sum_j M[j][i] * lag[j] for every column i < n_cols (Montgomery), and
 * dens[i] = 1 iff column i has a nonzero coefficient in some row (dens may be NULL). Every column
 * index of M must be < n_cols; lag holds at least M->n_rows values. Parallel and race-free (see
 * the file comment); the result does not depend on nthreads. Scratch: 8 (nnz + n_cols + 1) bytes
 * + 40 x 64 per task. Errors: CUZK_ERR_NOMEM. */
cuzk_status CN(setup_qap_columns)(CN(fr) *out, uint8_t *dens, const CN(csr_matrix) *M, size_t n_cols, const CN(fr) *lag, int nthreads,
                                  cuzk_error *err);

/* A snarkjs .zkey for cs written to path (the caller removes it on failure), on this curve
 * (BN254: largest domain 2^27). Stages: "zkey
 * scalars", "zkey ic", "zkey a", "zkey b1", "zkey b2", "zkey c", "zkey h", "zkey write".
 * *bytes (may be NULL): the file size. Errors: as groth16_setup_params (no UNSUPPORTED: zkey
 * points may be infinity), CUZK_ERR_IO. */
cuzk_status CN(groth16_setup_zkey)(const CN(r1cs) *cs, const CN(groth16_toxic) *tw, const char *path, uint64_t *bytes,
                                   const groth16_setup_run *run, cuzk_error *err);

/* The .zkey alone for the circuit of the .r1cs file at r1cs_path (of this curve: cuzk_setup's
 * path for bn128 circuits is bn254_groth16_setup_zkey_r1cs): loads it
 * (stage "circuit"), draws the toxic waste from seed (NULL: the OS RNG; groth16_toxic_draw), writes
 * zkey_path (the caller's temporary name: the caller commits it or removes it on failure) as
 * groth16_setup_zkey, wipes the toxic waste and frees the circuit (stage "free"). run->t (may be
 * NULL) also gets n_constraints, n_vars, n_public, domain_size and zkey_bytes. Errors: the .r1cs
 * load errors (CUZK_ERR_CURVE for a file of the other curve), groth16_toxic_draw's and
 * groth16_setup_zkey's. */
cuzk_status CN(groth16_setup_zkey_r1cs)(const char *r1cs_path, const uint64_t *seed, const char *zkey_path,
                                        const groth16_setup_run *run, cuzk_error *err);

#if CURVE_BELLPERSON /* bellperson .params are BLS12-381's */
/* Tests: the chunk size from which the in-memory sink copies a chunk on all threads (default
 * 4 MiB; 0 restores it). Not thread-safe: set it before a setup starts. */
void setup_test_set_parallel_copy_min(size_t bytes);

/* Receives the parameters as they are made, in .params file order: vk (with ic), then for each
 * of h, l, a, b_g1 (G1) and b_g2 (G2): begin(set, n) and the n points in order through one or
 * more g1s / g2s calls (chunks of the set as they come out of the fixed-base hook). Everything
 * passed is borrowed for the call. A callback's error stops the setup. */
typedef struct groth16_params_sink {
    void *ctx;
    cuzk_status (*vk)(void *ctx, const CN(groth16_vk) *vk, cuzk_error *err);
    cuzk_status (*begin)(void *ctx, groth16_setup_set set, uint32_t n, cuzk_error *err);
    cuzk_status (*g1s)(void *ctx, const CN(g1_affine) *pts, size_t n, cuzk_error *err);
    cuzk_status (*g2s)(void *ctx, const CN(g2_affine) *pts, size_t n, cuzk_error *err);
} groth16_params_sink;

/* bellperson parameters for cs into sink. Stages: "scalars", "vk+ic", "h", "l", "a", "b_g1",
 * "b_g2". Errors: CUZK_ERR_ARG (domain > 2^28), CUZK_ERR_UNSUPPORTED (a wire in no constraint),
 * CUZK_ERR_NOMEM, the backend's and the sink's errors. */
cuzk_status groth16_setup_params(const CN(r1cs) *cs, const CN(groth16_toxic) *tw, const groth16_params_sink *sink,
                                 const groth16_setup_run *run, cuzk_error *err);

/* A sink that writes a .params file (and the .vk when vk_path is not NULL) as the chunks arrive;
 * timed as stage "write" (its progress is that of the point set being written). */
typedef struct groth16_params_file_sink groth16_params_file_sink;
cuzk_status groth16_params_file_sink_open(groth16_params_file_sink **s, groth16_params_sink *sink, const char *params_path,
                                          const char *vk_path, const groth16_setup_run *run, cuzk_error *err);
/* Closes the files; returns the first write error. *params_bytes, *vk_bytes may be NULL. Frees s. */
cuzk_status groth16_params_file_sink_close(groth16_params_file_sink *s, uint64_t *params_bytes, uint64_t *vk_bytes,
                                           cuzk_error *err);

/* groth16_setup_bellperson (src/groth16/groth16.h) with the point sets computed on backend be
 * (the same bytes on either). */
cuzk_status groth16_setup_bellperson_on(groth16_backend be, bellperson_params *out, const CN(r1cs) *cs, const uint64_t *seed,
                                        int nthreads, cuzk_error *err);
/* The same, reporting progress through progress(progress_user, stage, done, total) (may be NULL;
 * called from the calling thread and the setup's helper threads, one call at a time). */
cuzk_status groth16_setup_bellperson_progress(groth16_backend be, bellperson_params *out, const CN(r1cs) *cs,
                                              const uint64_t *seed, int nthreads, cuzk_progress_fn progress,
                                              void *progress_user, cuzk_error *err);
/* The same, adding each stage's time to *t (may be NULL; stages as groth16_setup_params). */
cuzk_status groth16_setup_bellperson_timed(groth16_backend be, bellperson_params *out, const CN(r1cs) *cs, const uint64_t *seed,
                                           int nthreads, cuzk_progress_fn progress, void *progress_user,
                                           cuzk_setup_timings *t, cuzk_error *err);
#endif
