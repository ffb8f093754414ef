/* dprover on the in-memory public API (include/cuzk/prover.h): a loaded key is a cuzk_pk bound
 * to a backend once (cuzk_prover: on the GPU backend the key's G1 queries stay resident); every
 * proof reads the .wtns bytes straight from the request, nothing touches the disk. */
#include "dprover.h"

#include "cuzk/groth16.h"
#include "cuzk/prover.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

struct dp_key {
    cuzk_prover *prover; /* holds the key's reference */
    int has_circuit;
};

const char *dp_impl_name(void) { return "in-memory (cuzk_prover)"; }

static cuzk_backend backend_of(const char *s) {
    if (s && strcmp(s, "cpu") == 0) return CUZK_BACKEND_CPU;
    if (s && strcmp(s, "gpu") == 0) return CUZK_BACKEND_GPU;
    return CUZK_BACKEND_AUTO;
}

cuzk_status dp_key_load(const dcfg_circuit *c, const char *backend, int nthreads, dp_key **out, uint64_t *bytes,
                        cuzk_error *err) {
    *out = NULL;
    *bytes = 0;
    if (c->filecoin) {
        /* No Filecoin circuit in this build: check the file's headers so a bad path or a truncated
         * file is still reported as such, then say what is missing. */
        char desc[2048];
        cuzk_status st = cuzk_describe_file(desc, sizeof desc, c->params, err);
        if (st) return st;
        return cuzk_error_set(err, CUZK_ERR_UNSUPPORTED, __FILE__, __LINE__,
                              "cuzk cannot prove %s yet: this build has no Filecoin circuits (its parameter file "
                              "%s was checked)", c->id, c->params);
    }
    cuzk_pk_load_opts lo;
    memset(&lo, 0, sizeof lo);
    lo.nthreads = nthreads;
    lo.r1cs_path = c->zkey ? c->r1cs : NULL;
    cuzk_pk *pk = NULL;
    cuzk_status st = c->zkey ? cuzk_pk_load_zkey(&pk, c->zkey, &lo, err)
                             : cuzk_pk_load_params(&pk, c->params, c->r1cs, &lo, err);
    if (st) return st;
    cuzk_pk_info info;
    memset(&info, 0, sizeof info);
    cuzk_pk_describe(pk, &info, NULL);
    cuzk_prover_opts po;
    memset(&po, 0, sizeof po);
    po.backend = backend_of(backend);
    po.nthreads = nthreads;
    dp_key *k = calloc(1, sizeof *k);
    if (!k) {
        cuzk_pk_release(pk);
        return cuzk_error_set(err, CUZK_ERR_NOMEM, __FILE__, __LINE__, "out of memory");
    }
    st = cuzk_prover_create(&k->prover, pk, &po, err);
    cuzk_pk_release(pk); /* the prover holds its own reference */
    if (st) {
        free(k);
        return st;
    }
    k->has_circuit = info.has_circuit;
    *bytes = info.host_bytes;
    *out = k;
    return CUZK_OK;
}

void dp_key_free(dp_key *k) {
    if (!k) return;
    cuzk_prover_destroy(k->prover);
    free(k);
}

cuzk_status dp_prove(dp_key *k, const uint8_t *wtns, size_t wtns_len, const volatile int *cancel,
                     uint64_t delay_ms, dp_proof *out, cuzk_error *err) {
    memset(out, 0, sizeof *out);
    struct timespec t0, t1;
    for (uint64_t waited = 0; waited < delay_ms; waited += 5) {
        if (*cancel) return cuzk_error_set(err, CUZK_ERR_CANCELLED, __FILE__, __LINE__, "cancelled");
        struct timespec ts = {0, 5000000};
        nanosleep(&ts, NULL);
    }
    if (*cancel) return cuzk_error_set(err, CUZK_ERR_CANCELLED, __FILE__, __LINE__, "cancelled");
    cuzk_witness w = {CUZK_WITNESS_WTNS, wtns, wtns_len};
    cuzk_proof_opts po;
    memset(&po, 0, sizeof po);
    po.check_witness = k->has_circuit; /* names the first failing constraint; self-verify catches the rest */
    cuzk_proof p;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    cuzk_status st = cuzk_prove(k->prover, &p, &w, &po, NULL, err);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    out->prove_ms = (t1.tv_sec - t0.tv_sec) * 1e3 + (t1.tv_nsec - t0.tv_nsec) / 1e6;
    if (st) return st;
    if (p.has_bellperson) {
        out->proof = malloc(CUZK_PROOF_BELLPERSON_BYTES);
        if (out->proof) {
            memcpy(out->proof, p.bellperson, CUZK_PROOF_BELLPERSON_BYTES);
            out->proof_len = CUZK_PROOF_BELLPERSON_BYTES;
        }
    }
    out->proof_json = p.proof_json ? strdup(p.proof_json) : NULL;
    out->public_json = p.public_json ? strdup(p.public_json) : NULL;
    int has_bellperson = p.has_bellperson;
    cuzk_proof_free(&p);
    if ((has_bellperson && !out->proof) || !out->public_json) {
        dp_proof_free(out);
        return cuzk_error_set(err, CUZK_ERR_NOMEM, __FILE__, __LINE__, "out of memory for the proof");
    }
    if (*cancel) {
        dp_proof_free(out);
        return cuzk_error_set(err, CUZK_ERR_CANCELLED, __FILE__, __LINE__, "cancelled");
    }
    return CUZK_OK;
}

void dp_proof_free(dp_proof *p) {
    free(p->proof);
    free(p->proof_json);
    free(p->public_json);
    memset(p, 0, sizeof *p);
}
