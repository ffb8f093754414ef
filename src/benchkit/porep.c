/* Filecoin PoRep circuits for benchmarks (src/benchkit/benchkit.h, section 6): the StackedCircuit of
 * one partition recorded in memory (src/filecoin/porep_circuit.h) and a key with INSECURE
 * parameters for it (keys.c). */
#include "benchkit/benchkit.h"

#include <string.h>

#include "benchkit/keys.h"
#include "filecoin/porep.h"
#include "filecoin/porep_circuit.h"
#include "util/log.h"
#include "util/timer.h"

/* "porep-32g" -> the V1_1 registered proof of that size (the R1CS is the same for every version) */
static cuzk_status params_of(porep_params *pp, const char *circuit, cuzk_error *err) {
    static const char *const SIZES[5] = {"2k", "8m", "512m", "32g", "64g"};
    if (circuit && !strncmp(circuit, "porep-", 6))
        for (int i = 0; i < 5; i++)
            if (!strcmp(circuit + 6, SIZES[i])) return porep_params_from_proof(pp, 5 + (uint64_t)i, err);
    return ERR(err, CUZK_ERR_ARG, "unknown PoRep circuit '%s' (porep-2k, porep-8m, porep-512m, porep-32g, porep-64g)",
               circuit ? circuit : "(null)");
}

cuzk_status benchkit_porep_setup(cuzk_pk **out, const char *circuit, const uint64_t *seed, cuzk_backend backend,
                                   int nthreads, cuzk_progress_fn progress, void *progress_user, benchkit_post_record *rec,
                                 cuzk_setup_timings *t, cuzk_error *err) {
    if (rec) memset(rec, 0, sizeof *rec);
    if (!out) return ERR(err, CUZK_ERR_ARG, "benchkit_porep_setup: NULL argument");
    *out = NULL;
    porep_params pp;
    cuzk_status st = params_of(&pp, circuit, err);
    if (st != CUZK_OK) return st;
    r1cs r;
    memset(&r, 0, sizeof r);
    double t0 = now_ms();
    if ((st = porep_record_parallel(&r, &pp, nthreads, err)) != CUZK_OK) return st;
    if (rec) {
        rec->parts_ms = now_ms() - t0;
        rec->n_inputs = (uint64_t)r.n_public + 1;
        rec->n_aux = r.n_vars - rec->n_inputs;
        rec->n_constraints = r.n_constraints;
        rec->nnz_a = r.a.nnz;
        rec->nnz_b = r.b.nnz;
        rec->nnz_c = r.c.nnz;
        rec->matrix_bytes = benchkit_csr_bytes(&r.a) + benchkit_csr_bytes(&r.b) + benchkit_csr_bytes(&r.c);
        t0 = now_ms();
        st = benchkit_query_sizes(&r, nthreads, &rec->query_a, &rec->query_b, err);
        rec->queries_ms = now_ms() - t0;
        if (st != CUZK_OK) {
            r1cs_free(&r);
            return st;
        }
    }
    st = benchkit_setup_key(out, &r, NULL, NULL, seed, backend, nthreads, progress, progress_user, t, err);
    if (st != CUZK_OK) r1cs_free(&r);
    return st;
}
