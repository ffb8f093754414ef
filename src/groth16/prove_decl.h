/* The prover orchestration of one curve (groth16/prove.h): a declaration template, included once
 * per curve by groth16/prove.h with the curve's name space set (src/curves/<curve>/ns.h); every
 * curve-dependent name is CN(name). No include guard. */

/* ---- the key and its a/b/c source ------------------------------------------------------------ */
/* Borrowed views: whoever made the groth16_key keeps what it points to alive for the prover's
 * life (a cuzk_pk, or a test's own structs). */
typedef struct CN(groth16_key) {
    cuzk_curve curve;              /* CURVE_ID: the curve of the types below */
    cuzk_convention convention;
    const CN(zkey) *z;                 /* SNARKJS */
#if CURVE_BELLPERSON
    const bellperson_params *p;    /* BELLPERSON */
#endif
    const CN(r1cs) *cs;                /* BELLPERSON: the circuit (required); SNARKJS: optional (witness checks) */
} CN(groth16_key);

/* Witness length of the key (n_vars: ONE, public inputs, aux), public inputs, domain size m. */
size_t CN(groth16_key_n_vars)(const CN(groth16_key) *k);
uint32_t CN(groth16_key_n_public)(const CN(groth16_key) *k);
size_t CN(groth16_key_domain)(const CN(groth16_key) *k);
/* The key's verification key as a view (ic borrowed from the key: do not groth16_vk_free it). */
void CN(groth16_key_vk)(CN(groth16_vk) *out, const CN(groth16_key) *k);
/* The key as an erased handle for this curve's table (and back: only for a handle made so). */
static inline const groth16_key_any *CN(groth16_key_erase)(const CN(groth16_key) *k) { return (const groth16_key_any *)k; }
static inline const CN(groth16_key) *CN(groth16_key_unerase)(const groth16_key_any *k) { return (const CN(groth16_key) *)k; }

/* ---- the prover ------------------------------------------------------------------------------------ */
typedef struct CN(groth16_backend_ops) CN(groth16_backend_ops); /* below */
typedef struct CN(groth16_prover) CN(groth16_prover);

/* Binds k (borrowed for the prover's life) to ops (bind runs here, once). cfg may be NULL. */
cuzk_status CN(groth16_prover_create)(CN(groth16_prover) **out, const CN(groth16_key) *k, const CN(groth16_backend_ops) *ops,
                                      const groth16_backend_cfg *cfg, cuzk_error *err);
void CN(groth16_prover_destroy)(CN(groth16_prover) *pv);
const CN(groth16_backend_ops) *CN(groth16_prover_ops)(const CN(groth16_prover) *pv);
void *CN(groth16_prover_state)(const CN(groth16_prover) *pv);
const CN(groth16_key) *CN(groth16_prover_key)(const CN(groth16_prover) *pv);

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
cuzk_status CN(groth16_prove_start)(CN(groth16_prover) *pv, CN(groth16_pending) **out, const CN(fr) *w, size_t n_w, const CN(fr) *r,
                                    const CN(fr) *s, int nthreads, groth16_release_fn release, void *release_ctx,
                                    groth16_timings *t, cuzk_error *err);
/* Finish: B_G2 (computed, or joined when start launched it) and the proof (see
 * groth16_prove_bellperson_finish, which it is). */
cuzk_status CN(groth16_prove_finish)(CN(groth16_proof) *out, CN(groth16_pending) *pend, int nthreads, groth16_timings *t,
                                     cuzk_error *err);
/* start + finish + free, timings merged (b2 in msm_b2_ms; total = start + finish). */
cuzk_status CN(groth16_prove_one)(CN(groth16_prover) *pv, CN(groth16_proof) *out, const CN(fr) *w, size_t n_w, const CN(fr) *r,
                                  const CN(fr) *s, int nthreads, groth16_timings *t, cuzk_error *err);

/* ---- ONE sequence per convention, its stages per backend ---------------------------------------
 * groth16_prove_start runs the key's convention as one sequence, written once (prove_impl.h):
 *   snarkjs     groth16_zkey_start: a/b by the zkey's coefficient rows and C = A*B on the host, H on
 *               the odd coset, the four G1 MSMs, [B_G2 on the device]; else B_G2 in finish;
 *   bellperson  groth16_bellperson_start: [the witness to the device], a/b/c, H (with the B
 *               scalars and B_G2's launch on CPU threads while the device runs H), the four G1
 *               MSMs, [B_G2 on the device]; else B_G2 in finish;
 * over the stages of the prover's backend (groth16_backend_ops.snarkjs / .bellperson): the CPU's
 * run on CPU threads over host arrays (src/poly, src/msm), the GPU's on the device over the key's
 * resident data. The checks, cancellation points, timings, release hook and pending are the
 * sequence's, the same on every backend. */

/* snarkjs stages (ctx: the backend state; the CPU's take any). The sequence calls [begin], then
 * resident_start when the stages have it and it runs, else H, the four g1_msm (A, B1, L, H),
 * [b2_msm when begin put B_G2 on the device]; then [end]. */
typedef struct CN(groth16_stages) {
    void *ctx;
    /* optional: around one start (the GPU: one start on the device at a time). *b2 (where this
     * proof's B_G2 MSM runs) is GROTH16_B2_IN_FINISH on entry: begin may set GROTH16_B2_ON_DEVICE
     * when the stages have b2_msm (the GPU: its state holds the zkey's B_G2 query); any other
     * value, or no begin, leaves B_G2 to finish (CPU threads). */
    cuzk_status (*begin)(void *ctx, groth16_b2_place *b2, cuzk_error *err);
    void (*end)(void *ctx);
    /* out = sum scalars[i] * bases[i], bases = the query q of the key on the host (the CPU uses
     * them; a device backend its resident copy), scalars canonical on the host. */
    cuzk_status (*g1_msm)(void *ctx, CN(g1_jacobian) *out, groth16_query q, const CN(g1_affine) *bases,
                              const scalar256 *scalars, size_t n, int nthreads, cuzk_error *err);
    /* h_snarkjs of src/poly/ntt.h (same inputs and outputs). */
    cuzk_status (*h_snarkjs)(void *ctx, const CN(ntt_domain) *d, CN(fr) *a, CN(fr) *b, CN(fr) *c, int nthreads, cuzk_error *err);
    /* optional (NULL: B_G2 in finish, on CPU threads): out = sum scalars[i] * bases[i] over G2, run
     * after the G1 MSMs when begin set GROTH16_B2_ON_DEVICE. bases = the zkey's B_G2 query on the
     * host (z->b2; a device backend uses its resident copy), scalars = the witness, canonical on
     * the host, n = n_vars: exactly what finish's CPU B_G2 would sum. */
    cuzk_status (*b2_msm)(void *ctx, CN(g2_jacobian) *out, const CN(g2_affine) *bases, const scalar256 *scalars, size_t n,
                          int nthreads, cuzk_error *err);
    /* optional (NULL: the stages above on host vectors): the same start where the zkey's rows are
     * resident with its queries (the GPU: the witness w, n_w values, Montgomery, goes up once; a/b
     * by the rows, C = A*B and H run there; the four G1 MSMs, and B_G2 when with_b2, read scalars
     * that never leave the device; only points come back). Called after begin, with the
     * sequence's cancellation points between its steps; sets *g1[q] for each groth16_query q (A,
     * B1, L, H), and *b2 unless b2 is NULL (B_G2 then in finish), and tm's upload, abc, h and
     * msm_* times. CUZK_ERR_UNSUPPORTED, returned before any work (the rows are not resident: the
     * device had no room), sends the sequence to the host stages; any other error ends the start. */
    cuzk_status (*resident_start)(void *ctx, const CN(fr) *w, size_t n_w, CN(g1_jacobian) *const g1[4], CN(g2_jacobian) *b2,
                                  groth16_timings *tm, cuzk_error *err);
} CN(groth16_stages);
extern const CN(groth16_stages) CN(groth16_stages_cpu);

/* snarkjs convention start over the given stages: a/b by the zkey's rows, C = A*B, H on the odd
 * coset, the G1 MSMs, then B_G2 by stg->b2_msm when begin put it on the device (the pending is
 * then done with B_G2: b2_done, the start timings' b2_device and msm_b2_ms, and the witness
 * scalars go back through release right after it); else the pending keeps the witness scalars
 * for finish's B_G2 over z->b2 (borrowed). */
cuzk_status CN(groth16_zkey_start)(CN(groth16_pending) **out, const CN(zkey) *z, const CN(groth16_stages) *stg, const CN(fr) *w,
                                   size_t n_w, const CN(fr) *r, const CN(fr) *s, int nthreads, groth16_release_fn release,
                                   void *release_ctx, groth16_timings *t, cuzk_error *err);
size_t CN(groth16_zkey_start_bytes)(const CN(zkey) *z);

#if CURVE_BELLPERSON
/* bellperson stages, over one proof's state `run` that begin makes and end gives back (on every
 * path): host scratch on the CPU; on the GPU the prover's lock and the device buffers. The
 * sequence calls begin, [upload], abc, h, [b_scalars with B_G2 on threads], [h_wait], the four
 * g1_msm (A, B1, L, H), [b2_msm with B_G2 on the device], end; every stage may fail (its status
 * ends the start). Large host buffers go through the start's release hook. */
typedef struct groth16_bp_stages {
    /* ctx: the backend state (the CPU's: any). p, cs, w (n_w = cs->n_vars values, Montgomery,
     * w[0] = 1) are read until end. *b2: where B_G2 runs for this proof. */
    cuzk_status (*begin)(void *ctx, void **run, const bellperson_params *p, const CN(r1cs) *cs, const CN(fr) *w, size_t n_w,
                         groth16_release_fn release, void *release_ctx, groth16_b2_place *b2, cuzk_error *err);
    /* optional: the witness to where abc runs (the GPU: the device) */
    cuzk_status (*upload)(void *run, cuzk_error *err);
    /* a, b, c = A w, B w, C w, plus one A row per input */
    cuzk_status (*abc)(void *run, int nthreads, cuzk_error *err);
    /* H on the roots of the parameters' QAP (p->domain); with h_wait it may only launch it */
    cuzk_status (*h)(void *run, int nthreads, cuzk_error *err);
    cuzk_status (*h_wait)(void *run, cuzk_error *err); /* optional */
    /* the B-selected witness values, canonical: out[0 .. p->n_b_g2) (B_G2's scalars, and the B1
     * MSM's on the CPU). CUZK_ERR_MISMATCH when the circuit selects another count. */
    cuzk_status (*b_scalars)(void *run, scalar256 *out, int nthreads, cuzk_error *err);
    /* out = the G1 MSM over query q of the key (A, B1, L, H) with the proof's scalars; b_scalars:
     * those of the B selection (b_scalars' output) when the sequence holds them, else NULL. */
    cuzk_status (*g1_msm)(void *run, CN(g1_jacobian) *out, groth16_query q, const scalar256 *b_scalars, int nthreads,
                              cuzk_error *err);
    /* optional: B_G2 on the device (*b2 == GROTH16_B2_ON_DEVICE) */
    cuzk_status (*b2_msm)(void *run, CN(g2_jacobian) *out, cuzk_error *err);
    void (*end)(void *run);
} groth16_bp_stages;
extern const groth16_bp_stages groth16_bp_stages_cpu;

/* bellperson convention start over the given stages (ctx: the stages' backend state). Contract as
 * groth16_prove_bellperson_start (groth16.h), which is this over groth16_bp_stages_cpu. */
cuzk_status groth16_bellperson_start(CN(groth16_pending) **out, const bellperson_params *p, const CN(r1cs) *cs,
                                     const groth16_bp_stages *stg, void *ctx, const CN(fr) *w, size_t n_w, const CN(fr) *r,
                                     const CN(fr) *s, int nthreads, groth16_release_fn release, void *release_ctx,
                                     groth16_timings *t, cuzk_error *err);
#endif

/* ---- backends ------------------------------------------------------------------------------------ */
typedef struct CN(groth16_backend_ops) {
    groth16_backend_info info;         /* first: name, caps, device queries (no curve type) */
    /* Makes the per-key state (GPU: context and uploads). k is borrowed for the state's life.
     * Errors: CUZK_ERR_UNSUPPORTED (a convention or curve it cannot run), those of the device. */
    cuzk_status (*bind)(void **state, const CN(groth16_key) *k, const groth16_backend_cfg *cfg, cuzk_error *err);
    void (*unbind)(void *state);
    /* Upper bound of the host bytes one start of key k allocates, the pending included (a budget
     * reserves it before binding: no state needed). */
    size_t (*start_bytes)(const CN(groth16_key) *k, int nthreads);
    /* The stages groth16_prove_start runs, per convention, their ctx the state bind made (the
     * sequences are the orchestration's, the same on every backend: see above). */
    const CN(groth16_stages) *snarkjs;
#if CURVE_BELLPERSON
    const groth16_bp_stages *bellperson;
#endif
} CN(groth16_backend_ops);

extern const CN(groth16_backend_ops) CN(groth16_backend_cpu_ops);
extern const CN(groth16_backend_ops) CN(groth16_backend_gpu_ops); /* builds without CUDA: bind is UNSUPPORTED */

/* Resolves a user request to this curve's backend ops: AUTO -> GPU when this build has CUDA and
 * a device is present, else CPU (an INFO log line); GPU -> CUZK_ERR_DEVICE when there is none;
 * CPU -> CPU. */
cuzk_status CN(groth16_backend_pick)(cuzk_backend requested, const CN(groth16_backend_ops) **out, cuzk_error *err);

/* ---- a proof as bytes (groth16/prove.h: 192 bytes on BLS12-381, 256 on BN254) ------------------ */
size_t CN(groth16_proof_bytes)(void);
void CN(groth16_proof_to_bytes)(uint8_t *out, const CN(groth16_proof) *p);
/* len must be groth16_proof_bytes() (CUZK_ERR_FORMAT otherwise). The points are decoded and checked
 * on their curves and in their subgroups: CUZK_ERR_POINT (or CUZK_ERR_FORMAT for BLS12-381 bytes
 * that are no compressed point encoding) names the point. */
cuzk_status CN(groth16_proof_from_bytes)(CN(groth16_proof) *p, const uint8_t *in, size_t len, cuzk_error *err);

/* This curve's table (groth16/prove.h; groth16_curve_get hands it out). */
struct groth16_curve;
extern const struct groth16_curve CN(groth16_curve_table);
