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
 * Curves: the orchestration is written once over the field/group types of src/ff and src/ec and
 * reached per curve through a groth16_curve table (below). These sources (prove.c, prover.c,
 * gpu_prover.c, ...) are compiled once per curve (CUZK_CURVE_GENERIC_SRC in CMakeLists.txt); the
 * BN254 copy has a CPU and a GPU backend for the snarkjs convention (bellperson keys are
 * BLS12-381 only: both backends refuse them on BN254 with CUZK_ERR_UNSUPPORTED).
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

/* ---- the key and its a/b/c source ------------------------------------------------------------ */
/* Borrowed views: whoever made the groth16_key keeps what it points to alive for the prover's
 * life (a cuzk_pk, or a test's own structs). */
typedef struct groth16_key {
    cuzk_curve curve;
    cuzk_convention convention;
    const zkey *z;                 /* SNARKJS */
    const bellperson_params *p;    /* BELLPERSON */
    const r1cs *cs;                /* BELLPERSON: the circuit (required); SNARKJS: optional (witness checks) */
} groth16_key;

/* Witness length of the key (n_vars: ONE, public inputs, aux), public inputs, domain size m. */
size_t groth16_key_n_vars(const groth16_key *k);
uint32_t groth16_key_n_public(const groth16_key *k);
size_t groth16_key_domain(const groth16_key *k);
/* The key's verification key as a view (ic borrowed from the key: do not groth16_vk_free it). */
void groth16_key_vk(groth16_vk *out, const groth16_key *k);

/* ---- backends ------------------------------------------------------------------------------------ */
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
                                          GROTH16_CAP_SHARED_SRS backends only) */
    size_t gpu_budget;                 /* GPU backend: the engine's device budget for the key (0: none);
                                          the automatic B_G2 choice stays on CPU threads when the
                                          query on the device would not fit it */
} groth16_backend_cfg;
/* CUZK_ERR_ARG naming `who` when the MSM options hold a value no backend takes (an accumulation
 * outside cuzk_gpu_msm_accum, affine pairs per thread outside 0..256); the other fields are
 * clamped by the device code. NULL o: CUZK_OK. Checked by every entry point that takes them
 * (cuzk_prover_create, cuzk_engine_create), whatever the backend. Thread-safe. */
cuzk_status groth16_msm_opts_check(const cuzk_msm_opts *o, const char *who, cuzk_error *err);

typedef struct groth16_backend_ops {
    const char *name;                  /* "cpu", "gpu" */
    unsigned caps;                     /* GROTH16_CAP_* */
    /* Makes the per-key state (GPU: context and uploads). k is borrowed for the state's life.
     * Errors: CUZK_ERR_UNSUPPORTED (a convention or curve it cannot run), those of the device. */
    cuzk_status (*bind)(void **state, const groth16_key *k, const groth16_backend_cfg *cfg, cuzk_error *err);
    void (*unbind)(void *state);
    /* Upper bound of the host bytes one start of key k allocates, the pending included (a budget
     * reserves it before binding: no state needed). */
    size_t (*start_bytes)(const groth16_key *k, int nthreads);
    /* groth16_prove_start's work (see there). */
    cuzk_status (*start)(void *state, groth16_pending **out, const fr *w, size_t n_w, const fr *r, const fr *s,
                         int nthreads, groth16_release_fn release, void *release_ctx, groth16_timings *t,
                         cuzk_error *err);
    /* optional (NULL on the CPU): device bytes resident for the key (a borrowed SRS included), one
     * proof's device peak, the device pool and used bytes, a dead device, pinned host memory */
    size_t (*device_bytes)(void *state);
    size_t (*proof_device_bytes)(void *state);
    void (*device_mem)(void *state, size_t *pool_bytes, size_t *device_used);
    bool (*dead)(void *state);
    void *(*host_alloc)(size_t bytes);        /* NULL when it cannot (caller falls back to malloc) */
    void (*host_free)(void *ptr);
    /* optional (NULL on the CPU): the whole device `device` now, no state needed: total and free
     * bytes, its name (cap bytes). CUZK_OK or the device's error. */
    cuzk_status (*device_query)(int device, size_t *total_bytes, size_t *free_bytes, char *name, size_t cap,
                                cuzk_error *err);
} groth16_backend_ops;

extern const groth16_backend_ops groth16_backend_cpu_ops;
extern const groth16_backend_ops groth16_backend_gpu_ops; /* builds without CUDA: bind is UNSUPPORTED */

/* Resolves a user request to the backend ops of `curve`: AUTO -> GPU when this build has CUDA and
 * a device is present, else CPU (an INFO log line); GPU -> CUZK_ERR_DEVICE when there is none;
 * CPU -> CPU. CUZK_ERR_UNSUPPORTED for a curve this build does not instantiate. */
cuzk_status groth16_backend_pick(cuzk_curve curve, cuzk_backend requested, const groth16_backend_ops **out,
                                 cuzk_error *err);

/* ---- the prover ------------------------------------------------------------------------------------ */
typedef struct groth16_prover groth16_prover;

/* Binds k (borrowed for the prover's life) to ops (bind runs here, once). cfg may be NULL. */
cuzk_status groth16_prover_create(groth16_prover **out, const groth16_key *k, const groth16_backend_ops *ops,
                                  const groth16_backend_cfg *cfg, cuzk_error *err);
void groth16_prover_destroy(groth16_prover *pv);
const groth16_backend_ops *groth16_prover_ops(const groth16_prover *pv);
void *groth16_prover_state(const groth16_prover *pv);
const groth16_key *groth16_prover_key(const groth16_prover *pv);

/* Start of one proof. w: n_w = key n_vars values (Montgomery, host, w[0] = 1), read during the
 * call only; r, s copied into the pending. release: every large host buffer start frees goes
 * through it (NULL: free). On CUZK_OK *out is a pending (finish it with groth16_prove_finish, free
 * it with groth16_pending_free); on failure *out = NULL and everything was released, with one
 * exception: CUZK_ERR_CANCELLED may come with a pending in *out whose B_G2 threads still run
 * (the GPU backend, cancelled between its G1 MSMs), for the caller to free off its own path.
 * Cancellation: start (and finish, before a B_G2 it computes itself) asks the calling thread's
 * abort probe (util/abort.h) at every stage boundary: before a/b/c, H, each G1 MSM (GPU: also
 * before the witness upload, and before B_G2 when it runs on the device) and stops there with
 * CUZK_ERR_CANCELLED.
 * Errors: CUZK_ERR_ARG, CUZK_ERR_MISMATCH (witness length, w[0] != 1, a key that does not fit its
 * circuit), CUZK_ERR_NOMEM, CUZK_ERR_CANCELLED, and the backend's device errors. */
cuzk_status groth16_prove_start(groth16_prover *pv, groth16_pending **out, const fr *w, size_t n_w, const fr *r,
                                const fr *s, int nthreads, groth16_release_fn release, void *release_ctx,
                                groth16_timings *t, cuzk_error *err);
/* Finish: B_G2 (computed, or joined when start launched it) and the proof (see
 * groth16_prove_bellperson_finish, which it is). */
cuzk_status groth16_prove_finish(groth16_proof *out, groth16_pending *pend, int nthreads, groth16_timings *t,
                                 cuzk_error *err);
/* start + finish + free, timings merged (b2 in msm_b2_ms; total = start + finish). */
cuzk_status groth16_prove_one(groth16_prover *pv, groth16_proof *out, const fr *w, size_t n_w, const fr *r,
                              const fr *s, int nthreads, groth16_timings *t, cuzk_error *err);

/* ---- the stages a convention's start calls, per backend ----------------------------------------- */
/* Which query set of the key an MSM runs over (so a device backend can use its resident copy). */
typedef enum { GROTH16_Q_A = 0, GROTH16_Q_B1 = 1, GROTH16_Q_L = 2, GROTH16_Q_H = 3 } groth16_query;
typedef struct groth16_stages {
    void *ctx;
    /* out = sum scalars[i] * bases[i], bases = the query q of the key on the host (the CPU uses
     * them; a device backend its resident copy), scalars canonical on the host. */
    cuzk_status (*g1_msm)(void *ctx, g1_jacobian *out, groth16_query q, const g1_affine *bases,
                          const scalar256 *scalars, size_t n, int nthreads, cuzk_error *err);
    /* h_snarkjs of src/poly/ntt.h (same inputs and outputs). */
    cuzk_status (*h_snarkjs)(void *ctx, const ntt_domain *d, fr *a, fr *b, fr *c, int nthreads, cuzk_error *err);
} groth16_stages;
extern const groth16_stages groth16_stages_cpu;

/* snarkjs convention start over the given stages (prover.c): a/b by the zkey's rows, C = A*B, H on
 * the odd coset, the G1 MSMs; the pending keeps the witness scalars for B_G2 over z->b2 (borrowed). */
cuzk_status groth16_zkey_start(groth16_pending **out, const zkey *z, const groth16_stages *stg, const fr *w,
                               size_t n_w, const fr *r, const fr *s, int nthreads, groth16_release_fn release,
                               void *release_ctx, groth16_timings *t, cuzk_error *err);
size_t groth16_zkey_start_bytes(const zkey *z);

/* ---- a proof as bytes, per curve ------------------------------------------------------------ */
/* The byte encoding of one proof on this compile's curve, as the engine returns proofs
 * (cuzk_job_result.proofs) and cuzk_proof_from_bytes reads them:
 *   BLS12-381  192 bytes: bellperson's, A (G1, 48) | B (G2, 96) | C (G1, 48), compressed zcash points;
 *   BN254      256 bytes: A (G1, 64) | B (G2, 128) | C (G1, 64) in snarkjs's LEM encoding (as in
 *              .zkey files: little-endian Montgomery coordinates; infinity is all zero bytes). */
#define GROTH16_PROOF_MAX_BYTES 256
size_t groth16_proof_bytes(void);
void groth16_proof_to_bytes(uint8_t *out, const groth16_proof *p);
/* len must be groth16_proof_bytes() (CUZK_ERR_FORMAT otherwise). The points are decoded and checked
 * on their curves and in their subgroups: CUZK_ERR_POINT (or CUZK_ERR_FORMAT for BLS12-381 bytes
 * that are no compressed point encoding) names the point. */
cuzk_status groth16_proof_from_bytes(groth16_proof *p, const uint8_t *in, size_t len, cuzk_error *err);

/* ---- per-curve table --------------------------------------------------------------------------- */
/* Each compile of these sources (BLS12-381, BN254) defines one table, groth16_curve_table (the
 * BN254 one is bn254_groth16_curve_table); groth16_curve_get (src/groth16/curves.c, compiled once)
 * returns the table of any curve, whichever compile asks. Code compiled once (the engine) reaches a
 * curve only through its table, so the entries from key_n_vars on take no curve type: an Fr value
 * is 4 x uint64 limbs (32 bytes, least significant limb first: the layout of fr on every curve),
 * Montgomery unless said otherwise; provers and pendings are opaque; groth16_key, groth16_timings
 * and groth16_backend_cfg hold no curve type. Of a table's backend ops, code of another compile
 * calls only the members without a curve type (name, caps, bind through prover_create,
 * start_bytes, device_bytes, proof_device_bytes, device_mem, dead, host_alloc, host_free,
 * device_query). Immutable; thread-safe. */
typedef struct groth16_curve {
    cuzk_curve id;
    const char *name;
    const groth16_backend_ops *cpu, *gpu;
    size_t proof_bytes; /* groth16_proof_bytes() of the curve */
    /* the key: groth16_key_n_vars, _n_public, _domain */
    size_t (*key_n_vars)(const groth16_key *k);
    uint32_t (*key_n_public)(const groth16_key *k);
    size_t (*key_domain)(const groth16_key *k);
    /* the prover: groth16_prover_create (ops: this table's cpu or gpu), _destroy, _ops, _state */
    cuzk_status (*prover_create)(groth16_prover **out, const groth16_key *k, const groth16_backend_ops *ops,
                                 const groth16_backend_cfg *cfg, cuzk_error *err);
    void (*prover_destroy)(groth16_prover *pv);
    const groth16_backend_ops *(*prover_ops)(const groth16_prover *pv);
    void *(*prover_state)(const groth16_prover *pv);
    /* groth16_prove_start: w n_w values, r and s one value each (Montgomery) */
    cuzk_status (*prove_start)(groth16_prover *pv, groth16_pending **out, const uint64_t *w, size_t n_w,
                               const uint64_t *r, const uint64_t *s, int nthreads, groth16_release_fn release,
                               void *release_ctx, groth16_timings *t, cuzk_error *err);
    /* groth16_prove_finish, the proof written to proof[0 .. proof_bytes) */
    cuzk_status (*prove_finish)(uint8_t *proof, groth16_pending *pend, int nthreads, groth16_timings *t,
                                cuzk_error *err);
    size_t (*pending_bytes)(const groth16_pending *pend);
    void (*pending_free)(groth16_pending *pend);
    /* r or s: uniform in Fr from the OS RNG (groth16_random_fr), Montgomery */
    cuzk_status (*random_fr)(uint64_t *out, cuzk_error *err);
    /* A witness of n values made ready for a prover, in place: canonical != 0 converts canonical
     * values to Montgomery (a value >= r: CUZK_ERR_FORMAT naming its index); then value 0 must be
     * ONE (CUZK_ERR_MISMATCH). */
    cuzk_status (*witness_ready)(uint64_t *w, size_t n, int canonical, cuzk_error *err);
    /* r1cs_check_witness over the curve's r1cs (a key's cs) */
    cuzk_status (*check_witness)(const r1cs *cs, const uint64_t *w, size_t n, uint32_t *bad_row, cuzk_error *err);
    /* one value, Montgomery, as 32 canonical little-endian bytes */
    void (*fr_to_bytes)(uint8_t *out, const uint64_t *in);
} groth16_curve;
/* This compile's table. */
extern const groth16_curve groth16_curve_table;
/* The table of curve c, NULL for a curve this build does not have (callers answer
 * CUZK_ERR_UNSUPPORTED). */
const groth16_curve *groth16_curve_get(cuzk_curve c);

#endif
