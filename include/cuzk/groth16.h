/* cuzk public API: Groth16 proving and verification over BLS12-381, file to file.
 *
 * Two file families, one proof system:
 *   snarkjs/circom  circuit.zkey + witness.wtns -> proof.json + public.json, verified with
 *                   verification_key.json (snarkjs 0.7.6 formats, tests/fixtures/FORMATS.md).
 *   bellperson      circuit.params + circuit.r1cs + witness.wtns -> 192-byte proof + public.json,
 *                   verified with circuit.vk (DESIGN.md section 5).
 *
 * Output paths must differ from each other and from every input (CUZK_ERR_ARG otherwise, checked
 * before any work). Every call reads its inputs fully, validates them (bounds, magic, sizes, curve, points on the
 * curve), and writes outputs only on success: a failed call never leaves a proof file behind
 * (outputs are written to a temporary name and renamed). A proof is verified against the key
 * before it is written unless opts->skip_self_verify is set, so an unsatisfying witness yields
 * CUZK_ERR_UNSAT, never a proof.
 *
 * Layers: the prove/verify functions, cuzk_check_outputs, cuzk_remove_partial_outputs and
 * cuzk_exit_code are the file layer (src/files/), written over the public in-memory API of
 * include/cuzk/prover.h alone, which any program could do the same way; setup and describe write
 * and read the formats themselves and are part of the core. Error messages name the files.
 *
 * Status codes (include/cuzk/cuzk.h): CUZK_ERR_IO, _FORMAT, _CURVE, _POINT for bad files,
 * _MISMATCH for inputs that do not belong together, _UNSAT for a witness that does not satisfy the
 * circuit, _INVALID for a proof that does not verify, _NOMEM / _RANDOM for the environment.
 * Thread-safety: all functions are reentrant; they share no state.
 */
#ifndef CUZK_GROTH16_PUBLIC_H
#define CUZK_GROTH16_PUBLIC_H

#include <stdint.h>

#include "cuzk/cuzk.h"
#include "cuzk/prover.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct cuzk_prove_opts {
    const char *fixed_r;     /* decimal or 0x-hex integer, 0 < it < r (else CUZK_ERR_ARG); NULL: OS RNG (default) */
    const char *fixed_s;     /* likewise */
    const char *r1cs_path;   /* snarkjs mode: optional .r1cs for check_witness */
    int check_witness;       /* check every constraint first; CUZK_ERR_UNSAT names the first bad row */
    int skip_self_verify;    /* do not verify the proof before writing it */
    int nthreads;            /* worker threads; 0 = all online CPUs (cuzk_set_threads) */
    cuzk_backend backend;    /* AUTO (default): the GPU when this build has CUDA and a device is
                              * present, else the CPU; GPU: CUZK_ERR_DEVICE (exit 4) without one */
    cuzk_check_level params_check; /* bellperson .params point checks (cuzk.h); DEFAULT = CURVE.
                              * The zkey loader always checks on-curve and ignores this. */
    cuzk_progress_fn progress;     /* progress of loading the .params (file bytes); NULL: none */
    void *progress_user;
    cuzk_msm_opts msm;       /* GPU MSM tuning (include/cuzk/prover.h); zero: automatic. The cuzk
                              * CLI maps $CUZK_MSM_WINDOW / $CUZK_MSM_CHUNK onto it */
    const char *proof_json_path; /* bellperson files: also write the proof as snarkjs proof.json
                              * ("curve": "bls12381"; `snarkjs groth16 verify` reads it with the
                              * key's verification_key.json). NULL: not written. Ignored by
                              * cuzk_prove_zkey_files (its proof is JSON already). */
} cuzk_prove_opts;

/* cuzk_backend and cuzk_prove_timings: include/cuzk/prover.h. */

/* Removes the temporary files of outputs being written right now by the file API (prove, setup:
 * each output goes to "<path>.tmp.<pid>" until it is complete). Async-signal-safe (only unlink):
 * meant for a SIGINT/SIGTERM handler, so an interrupted 47 GB setup leaves nothing behind.
 * Outputs that are not regular files (/dev/null, a FIFO) are written in place, never renamed
 * over, and never removed. */
CUZK_API void cuzk_remove_partial_outputs(void);

/* Checks output paths before any work, as every command of the file API does: each output must
 * not be a directory, must not be the same file as an input (same path, or same device and inode:
 * links) or as another output (two outputs that are the same device or FIFO, e.g. /dev/null, are
 * allowed: they are written in place), and its directory must exist and be writable (a special
 * file that exists is writable in place). ins[j] may be NULL (skipped). Opens nothing.
 * Returns CUZK_OK, CUZK_ERR_ARG (directory, output = input, outputs equal; err names the path)
 * or CUZK_ERR_IO (missing or unwritable directory: err gives the reason). Thread-safe. */
CUZK_API cuzk_status cuzk_check_outputs(const char *const *ins, int n_in, const char *const *outs, int n_out, cuzk_error *err);

/* Writes a proof and its public.json as every output of the file API is written (for front ends
 * that prove in memory, e.g. PoSt): each to "<path>.tmp.<pid>" renamed over path when complete,
 * both or neither (a failed second rename removes the first output again); an output that exists
 * and is not a regular file (/dev/null, a FIFO, a device) is written in place, never replaced.
 * proof: proof_len bytes (binary or text); public_json: a NUL-terminated string. public_path NULL
 * (public_json ignored): the proof file alone (PoRep proofs, C1 outputs). Errors: CUZK_ERR_ARG (NULL), CUZK_ERR_IO naming the path and the reason (e.g. /dev/full: no space).
 * Thread-safe (distinct paths). */
CUZK_API cuzk_status cuzk_write_outputs(const char *proof_path, const void *proof, size_t proof_len, const char *public_path,
                                        const char *public_json, cuzk_error *err);
/* Removes an output this process wrote after a later step failed: a regular file only (a device,
 * FIFO or directory is never removed). NULL: nothing. */
CUZK_API void cuzk_discard_output(const char *path);

/* Prove from a snarkjs zkey and wtns; write snarkjs proof.json and public.json.
 * opts and t may be NULL (defaults; no timings). */
CUZK_API cuzk_status cuzk_prove_zkey_files(const char *zkey_path, const char *wtns_path, const char *proof_json_path,
                                  const char *public_json_path, const cuzk_prove_opts *opts,
                                  cuzk_prove_timings *t, cuzk_error *err);

/* Prove from bellperson parameters (a .params, or a phase-2 MPC parameters file: bellman's, or
 * `snarkjs zkey export bellman` of a bls12381 zkey), the circuit's .r1cs and a .wtns; write the
 * 192-byte proof and public.json (and opts->proof_json_path when set: all outputs or none). */
CUZK_API cuzk_status cuzk_prove_params_files(const char *params_path, const char *r1cs_path, const char *wtns_path,
                                    const char *proof_bin_path, const char *public_json_path,
                                    const cuzk_prove_opts *opts, cuzk_prove_timings *t, cuzk_error *err);

/* Verify: CUZK_OK when the proof is valid, CUZK_ERR_INVALID when it is not (reason in err), any
 * other status when an input cannot be used. A public.json whose count differs from the key's is
 * CUZK_ERR_MISMATCH with err->detail CUZK_DETAIL_PUBLIC_COUNT and a message naming both files. */
CUZK_API cuzk_status cuzk_verify_json_files(const char *vk_json_path, const char *public_json_path,
                                   const char *proof_json_path, cuzk_error *err);
CUZK_API cuzk_status cuzk_verify_bellperson_files(const char *vk_path, const char *public_json_path,
                                         const char *proof_bin_path, cuzk_error *err);

/* The verification key of a key file (`cuzk export-vk`): a snarkjs .zkey (its header and IC
 * sections only: cuzk_vk_load_zkey), a bellperson .vk, or a bellperson .params / phase-2 MPC
 * parameters file, which begin with their verifying key (only those bytes are read, whatever the
 * file's size). *out is the caller's (cuzk_vk_free). Errors name the file: CUZK_ERR_ARG,
 * CUZK_ERR_IO (cannot open or read; a directory, FIFO or device), CUZK_ERR_FORMAT (an .r1cs or
 * .wtns, a truncated key, none of these kinds), CUZK_ERR_CURVE, CUZK_ERR_POINT, CUZK_ERR_NOMEM.
 * Reentrant. */
CUZK_API cuzk_status cuzk_vk_load_key_file(cuzk_vk **out, const char *key_path, cuzk_error *err);

/* ---- setup: single-party, INSECURE test parameters ------------------------------------------
 * Whoever runs a setup knows the toxic waste (tau, alpha, beta, gamma, delta) and can forge
 * proofs for the circuit: for tests and benchmarks only; real circuits need a ceremony. */

/* Progress reports: cuzk_progress_fn (include/cuzk/cuzk.h); a setup reports its stages ("h", "l",
 * ...) in work items. */

typedef enum {
    CUZK_SETUP_R1CS = 0,            /* the circuit of the .r1cs file given to cuzk_setup */
    CUZK_SETUP_SYNTHETIC_POREP = 1  /* the PoRep-shaped synthetic circuit (src/r1cs/synthetic.h) */
} cuzk_setup_circuit;

typedef struct cuzk_setup_opts {
    const uint64_t *seed;       /* non-NULL: toxic waste derived from *seed (reproducible: same
                                 * circuit and seed give the same bytes on any backend and thread
                                 * count); NULL (default): OS RNG */
    int nthreads;               /* worker threads; 0 = all online CPUs (cuzk_set_threads) */
    cuzk_backend backend;       /* where the point sets are computed: AUTO (default) GPU when
                                 * present, else CPU; GPU: CUZK_ERR_DEVICE without one */
    const char *zkey_path;      /* non-NULL: also write a snarkjs Groth16 .zkey of the same circuit
                                 * from the same toxic waste */
    cuzk_setup_circuit circuit; /* default CUZK_SETUP_R1CS */
    uint32_t synth_constraints; /* synthetic: rows N (8 <= N, N + synth_public + 1 <= 2^28) */
    uint32_t synth_public;      /* synthetic: public inputs (default 328, as one PoRep partition) */
    double synth_frac01;        /* synthetic: fraction of 0/1 aux values (default 0.95) */
    uint64_t synth_seed;        /* synthetic: structure seed (default 1) */
    cuzk_progress_fn progress;  /* NULL: no progress reports */
    void *progress_user;
} cuzk_setup_opts;

/* Defaults: all zero/NULL except synth_public 328, synth_frac01 0.95, synth_seed 1 (the defaults
 * of `cuzk bench pipeline`). */
CUZK_API void cuzk_setup_opts_init(cuzk_setup_opts *o);

#define CUZK_SETUP_MAX_STAGES 24
typedef struct cuzk_setup_stage {
    const char *name; /* static: "circuit", "scalars", "vk+ic", "h", "l", "a", "b_g1", "b_g2",
                       * "write", "zkey scalars", "zkey ic", "zkey a", "zkey b1", "zkey b2",
                       * "zkey c", "zkey h", "zkey write", "free" (the circuit) */
    double ms;        /* wall-clock milliseconds */
} cuzk_setup_stage;

typedef struct cuzk_setup_timings {
    const char *backend; /* "cpu" or "gpu": where the point sets were computed (static string) */
    uint32_t n_constraints, n_vars, n_public, domain_size;
    uint64_t params_bytes, vk_bytes, zkey_bytes;
    int n_stages;        /* stages in the order they first ran */
    cuzk_setup_stage stage[CUZK_SETUP_MAX_STAGES];
    double total_ms;     /* the whole call */
    uint64_t peak_rss_bytes; /* the process's peak resident memory at the end (0 if unknown) */
} cuzk_setup_timings;

/* Writes params_path (bellperson .params), vk_path (.vk) and, with opts->zkey_path, a snarkjs
 * .zkey, for the circuit in r1cs_path (opts->circuit == CUZK_SETUP_R1CS) or the synthetic circuit
 * (r1cs_path must then be NULL). params_path and vk_path may both be NULL when opts->zkey_path is
 * set: the .zkey alone. The curve is the .r1cs file's: a bn128 (BN254) circuit gets a .zkey alone
 * (FORMATS.md section 3, BN254 sizes; snarkjs and rapidsnark prove with it); with params_path or
 * vk_path it is CUZK_ERR_CURVE (the bellperson format and the synthetic circuit are BLS12-381
 * only). BN254 points are computed on the CPU whatever opts->backend says (the device fixed-base
 * kernels are BLS12-381 only); its largest domain is 2^27 (the zkey's H points need the roots of
 * unity of twice the domain; BN254's Fr has two-adicity 28). Outputs are streamed to temporary
 * names as each point set is computed (so the whole parameter set is never in memory at once) and
 * renamed at the end: a failed call leaves no output. opts, t may be NULL. t is filled on success
 * and failure.
 * Errors: CUZK_ERR_ARG (paths, options, synthetic size out of range, domain > 2^28), the load
 * errors of the .r1cs, CUZK_ERR_CURVE (above), CUZK_ERR_UNSUPPORTED (a wire in no constraint: its
 * .params L point would be the point at infinity, which the format forbids), CUZK_ERR_NOMEM,
 * CUZK_ERR_RANDOM, CUZK_ERR_IO, CUZK_ERR_DEVICE / _NOMEM_DEVICE (GPU). */
CUZK_API cuzk_status cuzk_setup(const char *r1cs_path, const char *params_path, const char *vk_path,
                       const cuzk_setup_opts *opts, cuzk_setup_timings *t, cuzk_error *err);

/* cuzk_setup for an .r1cs with only a seed and a thread count (CPU or GPU: AUTO). */
CUZK_API cuzk_status cuzk_setup_files(const char *r1cs_path, const char *params_path, const char *vk_path,
                             const uint64_t *seed, int nthreads, cuzk_error *err);

/* Human-readable description of any file cuzk reads (zkey, wtns, r1cs, params, vk, JSON):
 * kind, curve, sizes, sections. Writes at most cap bytes (NUL-terminated). Reads headers only. */
CUZK_API cuzk_status cuzk_describe_file(char *buf, size_t cap, const char *path, cuzk_error *err);

/* cuzk_describe_file, and for a bellperson .params file also a check of every point at `level`
 * (NONE: headers only, as cuzk_describe_file), on nthreads threads (0: all CPUs), reporting to
 * progress (may be NULL). On success a line "points: N checked (level), T s, R GB/s" is added.
 * Errors: those of cuzk_describe_file, CUZK_ERR_POINT naming the section and index of the first
 * bad point (the description is then left in buf). Other kinds of file are described only. */
CUZK_API cuzk_status cuzk_describe_file_checked(char *buf, size_t cap, const char *path, cuzk_check_level level, int nthreads,
                                       cuzk_progress_fn progress, void *progress_user, cuzk_error *err);

/* ---- shapes: the circuit a key or circuit file is made for, from its headers ------------------
 * What cuzk_file_shape_read finds in a file's headers, or what a named circuit needs
 * (cuzk_porep_circuit_shape, cuzk_post_circuit_shape: include/cuzk/filecoin.h). A count the
 * source does not hold is 0. */
typedef struct cuzk_file_shape {
    const char *kind;        /* "bellperson params", "phase-2 MPC params", "zkey", "r1cs", "circuit" (static) */
    cuzk_curve curve;
    uint64_t n_public;       /* public inputs, ONE not counted */
    uint64_t n_aux;          /* private variables: a witness is 1 + n_public + n_aux values */
    uint64_t n_constraints;  /* the circuit's own constraints (.r1cs and named circuits; else 0) */
    uint64_t domain;         /* the evaluation domain m: .params h + 1; .zkey its header's; .r1cs and
                                named circuits bellperson's, the smallest power of two >=
                                n_constraints + n_public + 1 (at least 2) */
    uint64_t file_bytes;     /* the file's size (0 for a named circuit) */
} cuzk_file_shape;

/* Reads the shape of a bellperson .params (or phase-2 MPC parameters), snarkjs Groth16 .zkey or
 * circom .r1cs file from its headers alone: a few pages of the file, no point decoded, no
 * constraint read (milliseconds for a 47 GB .params). Checks the size against the headers:
 * .params to the byte (as the loader), .zkey every point section, .r1cs its container and
 * wire map. Errors: CUZK_ERR_ARG (NULL), CUZK_ERR_IO (missing, unreadable, not a regular file),
 * CUZK_ERR_FORMAT (another kind of file, truncated, sizes that disagree with the counts, a .zkey
 * of another protocol), CUZK_ERR_CURVE (a prime of no supported curve; BN254 points in the
 * bellperson layout). Messages name the file. *out is zeroed on error. Reentrant. */
CUZK_API cuzk_status cuzk_file_shape_read(cuzk_file_shape *out, const char *path, cuzk_error *err);

/* The cheap check before a key is loaded: cuzk_file_shape_read(path), then the file must be made
 * for the circuit `want` describes (named `what` in messages, e.g. "circuit porep-32g"): the same
 * curve, public inputs and private variables, and the same domain and constraint count where
 * both know them (a .zkey's domain is not compared). Errors: those of cuzk_file_shape_read;
 * CUZK_ERR_CURVE (another curve), CUZK_ERR_MISMATCH ("<path>: bellperson params of 40 public
 * inputs, 2686853 private variables, domain 2^22; circuit porep-32g needs 328, ..."). Reentrant. */
CUZK_API cuzk_status cuzk_file_shape_check(const char *path, const cuzk_file_shape *want, const char *what, cuzk_error *err);

/* Exit code of the cuzk CLI for a status: 0 ok, 1 invalid proof, 2 usage, 3 bad input,
 * 4 resources (memory, GPU, RNG, output not writable). */
CUZK_API int cuzk_exit_code(cuzk_status st);

#ifdef __cplusplus
}
#endif
#endif
