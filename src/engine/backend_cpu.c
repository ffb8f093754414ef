/* The engine's stateless CPU backend (engine_internal.h): the prover orchestration's CPU backend
 * (src/groth16/prove.h) on the key of the circuit, bound per call (binding the CPU backend holds
 * nothing). */
#include "engine/engine_internal.h"

#include <string.h>

#include "groth16/pk.h"

/* The key of a circuit: its proving key's when made from one (cuzk_circuit_create), reached
 * through the table of the key's curve; else the bellperson key of (cs, params) on BLS12-381
 * (circuits assembled by internal code and tests). */
const groth16_key_any *engine_circuit_key(const cuzk_circuit *c, groth16_key *raw) {
    if (c->pk) return groth16_curve_get(c->pk->curve)->pk_key(c->pk);
    memset(raw, 0, sizeof *raw);
    raw->curve = CUZK_CURVE_BLS12_381;
    raw->convention = CUZK_CONVENTION_BELLPERSON;
    raw->p = c->params;
    raw->cs = c->cs;
    return groth16_key_erase(raw);
}

const groth16_curve *engine_circuit_curve(const cuzk_circuit *c) {
    return groth16_curve_get(c->pk ? c->pk->curve : CUZK_CURVE_BLS12_381);
}

int engine_circuit_valid(const cuzk_circuit *c) {
    return c && (c->pk || (c->cs && c->params)) && engine_circuit_curve(c) != NULL;
}

size_t engine_circuit_n_vars(const cuzk_circuit *c) {
    groth16_key raw;
    return engine_circuit_curve(c)->key_n_vars(engine_circuit_key(c, &raw));
}

uint32_t engine_circuit_n_public(const cuzk_circuit *c) {
    groth16_key raw;
    return engine_circuit_curve(c)->key_n_public(engine_circuit_key(c, &raw));
}

int engine_circuit_same(const cuzk_circuit *a, const cuzk_circuit *b) {
    const groth16_curve *ga = engine_circuit_curve(a), *gb = engine_circuit_curve(b);
    groth16_key ra, rb;
    return ga == gb && a->gpu_srs == b->gpu_srs && ga->key_same(engine_circuit_key(a, &ra), engine_circuit_key(b, &rb));
}

static size_t cpu_start_bytes(void *ctx, const cuzk_circuit *c, int nthreads) {
    (void)ctx;
    const groth16_curve *gc = engine_circuit_curve(c);
    groth16_key raw;
    return gc->start_bytes(engine_circuit_key(c, &raw), gc->cpu, nthreads);
}

static cuzk_status cpu_start(void *ctx, void **pending, uint64_t job, uint32_t partition, const cuzk_circuit *c,
                             const groth16_fr_any *w, size_t n_w, const groth16_fr_any *r, const groth16_fr_any *s, int nthreads,
                             groth16_release_fn release, void *release_ctx, groth16_timings *t, cuzk_error *err) {
    (void)ctx;
    (void)job;
    (void)partition;
    const groth16_curve *gc = engine_circuit_curve(c);
    groth16_key raw;
    groth16_prover_any *pv = NULL;
    groth16_pending_any *p = NULL;
    *pending = NULL;
    cuzk_status st = gc->prover_create(&pv, engine_circuit_key(c, &raw), gc->cpu, NULL, err);
    if (st == CUZK_OK)
        st = gc->prove_start(pv, &p, w, n_w, r, s, nthreads, release,
                             release_ctx, t, err);
    gc->prover_destroy(pv); /* the pending owns what finish needs; the key's data is the circuit's */
    *pending = p;
    return st;
}

static cuzk_status cpu_finish(void *ctx, const cuzk_circuit *c, uint8_t *proof, void *pending, uint64_t job,
                              uint32_t partition, int nthreads, groth16_timings *t, cuzk_error *err) {
    (void)ctx;
    (void)job;
    (void)partition;
    return engine_circuit_curve(c)->prove_finish(proof, pending, nthreads, t, err);
}

static size_t cpu_pending_bytes(void *ctx, const cuzk_circuit *c, const void *pending) {
    (void)ctx;
    return engine_circuit_curve(c)->pending_bytes(pending);
}

static void cpu_pending_free(void *ctx, const cuzk_circuit *c, void *pending) {
    (void)ctx;
    engine_circuit_curve(c)->pending_free(pending);
}

const engine_backend engine_backend_cpu = {
    .name = "cpu",
    .start_bytes = cpu_start_bytes,
    .start = cpu_start,
    .finish = cpu_finish,
    .pending_bytes = cpu_pending_bytes,
    .pending_free = cpu_pending_free,
};
