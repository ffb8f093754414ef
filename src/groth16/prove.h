/* The one Groth16 prover orchestration (issue 10 item 2, DESIGN.md sections 1 and 4).
 *
 * Every proof, whatever its front end (the public in-memory API, the file API, the engine), runs
 *
 *     groth16_prove_start(prover, witness, r, s)  ->  pending  ->  groth16_prove_finish(pending)
 *
 * over a groth16_prover = (key, a/b/c source, backend):
 *   key + a/b/c source  a groth16_key: a snarkjs .zkey (a/b from the zkey's coefficient rows, H on
 *                       the odd coset) or bellperson parameters with their R1CS (a/b/c = A*w, B*w,
 *                       C*w plus one A row per input, H by coset division, density selections);
 *   backend             a VALUE (groth16_backend_ops + the state it made for this key), never a
 *                       process-wide switch: the CPU backend (src/poly, src/msm on CPU threads) or
 *                       the GPU backend (src/groth16/gpu_prover.h: device context, the key's G1
 *                       queries and the circuit resident in the state, made once by bind).
 * start computes a/b/c, H and the four G1 MSMs (A, B1, L, H) and leaves the B_G2 MSM either to
 * finish (CPU) or running on CPU threads it launched (GPU: GROTH16_CAP_B2_OVERLAP); finish joins or
 * computes B_G2 and assembles the proof with r, s (DESIGN.md section 4 item 8). With fixed r, s
 * the proof bytes do not depend on the backend, the thread count or the convention's path.
 *
 * Curves: the orchestration is written once, every curve-dependent name CN(name), and
 * instantiated per curve (src/groth16/groth16_<curve>.c; src/curves/curve.h): groth16_prover and
 * groth16_prove_start for BLS12-381, bn254_groth16_prover and bn254_groth16_prove_start for BN254,
 * distinct types. Code compiled once (the engine, the public API's entry points) reaches a curve
 * through its groth16_curve table (below). BN254 has a CPU and a GPU backend for the snarkjs
 * convention (bellperson keys are BLS12-381 only).
 *
 * Thread-safety: a prover may run several starts at once on the CPU backend; the GPU backend
 * serializes its starts (one proof on the device at a time). A pending is used by one thread at a
 * time. Not installed.
 */
#ifndef CUZK_GROTH16_PROVE_H
#define CUZK_GROTH16_PROVE_H

#include <stdbool.h>
#include <stddef.h>

#include "cuzk/prover.h"
#include "groth16/groth16.h"
#include "msm/msm.h"
#include "poly/ntt.h"

/* ---- backends: what every curve's backend has in common ---------------------------------------- */
/* Capabilities a backend declares; callers (the engine) test these, never the backend's identity. */
enum {
    GROTH16_CAP_DEVICE = 1u << 0,          /* heavy stages run on a GPU, key data resident there */
    GROTH16_CAP_B2_OVERLAP = 1u << 1,      /* bellperson keys: start launches B_G2 on CPU threads
                                              while the device works; finish joins it */
    GROTH16_CAP_PINNED_HOST = 1u << 2,     /* host_alloc gives page-locked memory (fast uploads) */
    GROTH16_CAP_SHARED_SRS = 1u << 3       /* bind can borrow an SRS already resident (cfg.gpu_srs) */
};

struct groth16_gpu_srs;
typedef struct groth16_backend_cfg {
    int device;                        /* CUDA ordinal (GPU backend) */
    cuzk_msm_opts msm;                 /* GPU MSM tuning (0: automatic) */
    struct groth16_gpu_srs *gpu_srs;   /* optional resident G1 queries of the key's params (borrowed;
                                          GROTH16_CAP_SHARED_SRS backends only; BLS12-381) */
    size_t gpu_budget;                 /* GPU backend: the engine's device budget for the key (0: none);
                                          the automatic B_G2 choice stays on CPU threads when the
                                          query on the device would not fit it */
    int zkey_rows_resident;            /* GPU backend, snarkjs keys: 1 puts the zkey's A and B rows
                                          on the device when they fit, and a proof's start runs there
                                          whole (zkey_bind_rows), whatever msm.zkey_rows_on_gpu (the
                                          public switch) says; 0: as msm says (default: resident;
                                          -1 there keeps a/b on CPU threads, the host stages;
                                          tests/gpu_zkey_b2_impl.h checks both against the CPU) */
} groth16_backend_cfg;
/* CUZK_ERR_ARG naming `who` when the MSM options hold a value no backend takes (an accumulation
 * outside cuzk_gpu_msm_accum: 0 default, 1 tasks, 2 runs); the other fields are clamped by the
 * device code. NULL o: CUZK_OK. Checked by every entry point that takes them
 * (cuzk_prover_create, cuzk_engine_create), whatever the backend. Thread-safe. */
cuzk_status groth16_msm_opts_check(const cuzk_msm_opts *o, const char *who, cuzk_error *err);

/* The part of a backend that holds no curve type: its name, capabilities and what it tells about
 * its device. The first member of every curve's groth16_backend_ops (ops.info); code compiled once
 * (the engine) holds backends as these. The optional members (NULL on the CPU) take the state bind
 * made (groth16_prover_state): device bytes resident for the key (a borrowed SRS included), one
 * proof's device peak, the device pool and used bytes, a dead device, pinned host memory; and
 * device_query: the whole device `device` now, no state needed: total and free bytes, its name
 * (cap bytes), CUZK_OK or the device's error. */
typedef struct groth16_backend_info {
    const char *name;                  /* "cpu", "gpu" */
    unsigned caps;                     /* GROTH16_CAP_* */
    size_t (*device_bytes)(void *state);
    size_t (*proof_device_bytes)(void *state);
    void (*device_mem)(void *state, size_t *pool_bytes, size_t *device_used);
    bool (*dead)(void *state);
    void *(*host_alloc)(size_t bytes);        /* NULL when it cannot (caller falls back to malloc) */
    void (*host_free)(void *ptr);
    cuzk_status (*device_query)(int device, size_t *total_bytes, size_t *free_bytes, char *name, size_t cap,
                                cuzk_error *err);
    /* the state's device memory plan (src/groth16/memplan.h): one line into buf[cap] (memplan_describe),
     * *streamed_bytes the bytes it copies host -> device per proof; "" and 0 without a plan */
    void (*memory_plan)(void *state, char *buf, size_t cap, size_t *streamed_bytes);
} groth16_backend_info;

/* Which query set of the key an MSM runs over (so a device backend can use its resident copy). */
typedef enum { GROTH16_Q_A = 0, GROTH16_Q_B1 = 1, GROTH16_Q_L = 2, GROTH16_Q_H = 3 } groth16_query;

/* Where a proof's B_G2 MSM runs: in finish (the CPU backend; a snarkjs key whose B_G2 query is
 * not on the device), on CPU threads that start launches while the device runs H (finish joins
 * them; bellperson keys only), or on the device after the G1 MSMs. */
typedef enum { GROTH16_B2_IN_FINISH = 0, GROTH16_B2_ON_THREADS = 1, GROTH16_B2_ON_DEVICE = 2 } groth16_b2_place;

/* ---- a proof as bytes ------------------------------------------------------------------------ */
/* The byte encoding of one proof (groth16_proof_to_bytes of each curve), as the engine returns
 * proofs (cuzk_job_result.proofs) and cuzk_proof_from_bytes reads them:
 *   BLS12-381  192 bytes: bellperson's, A (G1, 48) | B (G2, 96) | C (G1, 48), compressed zcash points;
 *   BN254      256 bytes: A (G1, 64) | B (G2, 128) | C (G1, 64) in snarkjs's LEM encoding (as in
 *              .zkey files: little-endian Montgomery coordinates; infinity is all zero bytes). */
#define GROTH16_PROOF_MAX_BYTES 256

/* ---- erased values and handles: a curve's Fr values, key, prover and pending as code compiled
 * once holds them ----------------------------------------------------------------------------------
 * groth16_fr_any: one Fr value of some curve (the engine's witnesses, r and s, public inputs): 4 x
 * 64-bit limbs, least significant first, Montgomery unless said otherwise; the layout of every
 * curve's fr (each instance checks it), read as a value only by that curve's table. */
typedef struct groth16_fr_any { uint64_t l[4]; } groth16_fr_any;
/* The handles are never defined: a groth16_key_any * is a pointer to the groth16_key of the curve whose table it
 * goes to (CN(groth16_key_erase) makes one), and likewise for provers and pendings. */
typedef struct groth16_key_any groth16_key_any;
typedef struct groth16_prover_any groth16_prover_any;
typedef struct groth16_pending_any groth16_pending_any;

/* one declaration pass per curve: groth16_key, bn254_groth16_key, groth16_prove_start, ... */
#include "curves/bls12_381/ns.h"
#include "groth16/prove_decl.h"
#include "curves/bn254/ns.h"
#include "groth16/prove_decl.h"
#include "curves/ns_reset.h"

/* ---- per-curve table --------------------------------------------------------------------------- */
/* Each curve's instantiation defines one table (groth16_curve_table, bn254_groth16_curve_table;
 * src/groth16/prove_impl.h); groth16_curve_get (src/groth16/curves.c, compiled once) returns the
 * table of any curve. Code compiled once (the engine, the public API's entry points) reaches a
 * curve only through its table, so the entries take no curve type: Fr values are
 * groth16_fr_any (Montgomery unless said otherwise), keys, provers and pendings erased handles
 * (above) of the table's curve; public handles (cuzk_pk, cuzk_prover, cuzk_vk) must be of the table's curve (their
 * curve tag; src/groth16/pk.h). Immutable; thread-safe. */
typedef struct groth16_curve {
    cuzk_curve id;
    const char *name;
    const groth16_backend_info *cpu, *gpu; /* the curve's backends (gpu: NULL when the device code
                                              does not handle the curve) */
    size_t proof_bytes;                    /* groth16_proof_bytes() of the curve */
    /* the key: groth16_key_n_vars, _n_public, _domain, its convention; key_has_cs: the circuit is held (witness
     * checks); key_same: the same key data (the same zkey, parameters and circuit) */
    size_t (*key_n_vars)(const groth16_key_any *k);
    uint32_t (*key_n_public)(const groth16_key_any *k);
    size_t (*key_domain)(const groth16_key_any *k);
    cuzk_convention (*key_convention)(const groth16_key_any *k);
    bool (*key_has_cs)(const groth16_key_any *k);
    bool (*key_same)(const groth16_key_any *a, const groth16_key_any *b);
    /* backend->start_bytes of the key (backend: this table's cpu or gpu) */
    size_t (*start_bytes)(const groth16_key_any *k, const groth16_backend_info *backend, int nthreads);
    /* the prover: groth16_prover_create (backend: this table's cpu or gpu, else CUZK_ERR_ARG),
     * _destroy, the backend it was made with, the state its bind made */
    cuzk_status (*prover_create)(groth16_prover_any **out, const groth16_key_any *k, const groth16_backend_info *backend,
                                 const groth16_backend_cfg *cfg, cuzk_error *err);
    void (*prover_destroy)(groth16_prover_any *pv);
    const groth16_backend_info *(*prover_backend)(const groth16_prover_any *pv);
    void *(*prover_state)(const groth16_prover_any *pv);
    /* groth16_prove_start: w n_w values, r and s one value each (Montgomery) */
    cuzk_status (*prove_start)(groth16_prover_any *pv, groth16_pending_any **out, const groth16_fr_any *w, size_t n_w,
                               const groth16_fr_any *r, const groth16_fr_any *s, int nthreads,
                               groth16_release_fn release, void *release_ctx, groth16_timings *t, cuzk_error *err);
    /* groth16_prove_finish, the proof written to proof[0 .. proof_bytes) */
    cuzk_status (*prove_finish)(uint8_t *proof, groth16_pending_any *pend, int nthreads, groth16_timings *t,
                                cuzk_error *err);
    size_t (*pending_bytes)(const groth16_pending_any *pend);
    void (*pending_free)(groth16_pending_any *pend);
    /* r or s: uniform in Fr from the OS RNG (groth16_random_fr), Montgomery */
    cuzk_status (*random_fr)(groth16_fr_any *out, cuzk_error *err);
    /* A witness of n values made ready for a prover, in place: canonical != 0 converts canonical
     * values to Montgomery (a value >= r: CUZK_ERR_FORMAT naming its index); then value 0 must be
     * ONE (CUZK_ERR_MISMATCH). */
    cuzk_status (*witness_ready)(groth16_fr_any *w, size_t n, int canonical, cuzk_error *err);
    /* r1cs_check_witness over the key's circuit (key_has_cs must hold) */
    cuzk_status (*check_witness)(const groth16_key_any *k, const groth16_fr_any *w, size_t n, uint32_t *bad_row,
                                 cuzk_error *err);
    /* one value, Montgomery, as 32 canonical little-endian bytes */
    void (*fr_to_bytes)(uint8_t *out, const groth16_fr_any *in);

    /* ---- the public API's per-curve half (include/cuzk/prover.h; src/groth16/pk_impl.h) ----------
     * The public functions (src/groth16/prover_api.c) check their arguments, pick the table by the
     * file's or the handle's curve and call these, which have their contracts. */
    cuzk_status (*pk_load_zkey)(cuzk_pk **out, const char *path, const uint8_t *bytes, size_t len,
                                const cuzk_pk_load_opts *o, cuzk_error *err);
    void (*pk_free)(cuzk_pk *pk);      /* at the last release */
    cuzk_status (*pk_describe)(const cuzk_pk *pk, cuzk_pk_info *out);
    const groth16_key_any *(*pk_key)(const cuzk_pk *pk);
    cuzk_status (*prover_new)(cuzk_prover **out, cuzk_pk *pk, const cuzk_prover_opts *o, cuzk_error *err);
    void (*prover_free)(cuzk_prover *p);
    const char *(*prover_backend_name)(const cuzk_prover *p);
    cuzk_status (*prove)(cuzk_prover *p, cuzk_proof *out, const cuzk_witness *w, const cuzk_proof_opts *o,
                         cuzk_prove_timings *t, cuzk_error *err);
    cuzk_status (*witness_count)(const cuzk_witness *w, size_t *n_values, cuzk_error *err);
    cuzk_status (*witness_convert)(const cuzk_witness *w, cuzk_witness_form out_form, uint64_t *out, size_t n_vars,
                                   cuzk_error *err);
    cuzk_status (*proof_from_bytes)(cuzk_proof *out, const uint8_t *proof, size_t proof_len,
                                    const uint8_t *public_inputs, uint32_t n_public, cuzk_error *err);
    cuzk_status (*vk_load_json)(cuzk_vk **out, const char *json, size_t len, cuzk_error *err);
    cuzk_status (*vk_load_zkey)(cuzk_vk **out, const char *zkey_path, cuzk_error *err);
    cuzk_status (*vk_json)(const cuzk_vk *vk, char **json, size_t *len, cuzk_error *err);
    cuzk_status (*vk_from_pk)(cuzk_vk **out, const cuzk_pk *pk, cuzk_error *err);
    uint32_t (*vk_n_public)(const cuzk_vk *vk);
    void (*vk_free)(cuzk_vk *vk);
    cuzk_status (*verify)(const cuzk_vk *vk, cuzk_public_form public_form, const void *public_inputs,
                          size_t public_len, cuzk_proof_form proof_form, const void *proof, size_t proof_len,
                          cuzk_error *err);
} groth16_curve;

/* The table of curve c, NULL for a curve this build does not have (callers answer
 * CUZK_ERR_UNSUPPORTED). */
const groth16_curve *groth16_curve_get(cuzk_curve c);

#endif
