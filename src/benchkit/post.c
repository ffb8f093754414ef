/* Filecoin PoSt circuits for benchmarks (src/benchkit/benchkit.h, section 5): one partition's
 * sectors (checked vanilla proofs, or one blank sector), the witness-only and recording passes of
 * src/filecoin/post.h, and keys with INSECURE parameters for the recorded matrices (keys.c). */
#include "benchkit/benchkit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "benchkit/keys.h"
#include "circuit/cs.h"
#include "filecoin/post.h"
#include "formats/mapped_file.h"
#include "util/log.h"
#include "util/timer.h"

struct benchkit_post {
    post_params pp;
    post_sector *secs;
    size_t n_secs;
    post_sizes sz;
    r1cs kept;      /* the matrices of the last MATRICES pass */
    int has_kept;
};

void benchkit_post_destroy(benchkit_post *h) {
    if (!h) return;
    for (size_t k = 0; k < h->n_secs; k++) post_sector_free(&h->secs[k]);
    free(h->secs);
    r1cs_free(&h->kept);
    free(h);
}

/* the message names the file */
static void name_file(cuzk_status st, cuzk_error *err, const char *path) {
    if (st == CUZK_OK || !err || strstr(err->msg, path)) return;
    char m[sizeof err->msg];
    memcpy(m, err->msg, sizeof m);
    ERR(err, st, "%s: %.400s", path, m);
}

cuzk_status benchkit_post_create(benchkit_post **out, const char *circuit, uint32_t sectors,
                                 const char *const *vproof_paths, size_t n_vproofs, const uint8_t *randomness,
                                 cuzk_error *err) {
    if (!out || !circuit || (n_vproofs && !vproof_paths)) return ERR(err, CUZK_ERR_ARG, "benchkit_post_create: NULL argument");
    *out = NULL;
    static const uint8_t zero[32];
    const uint8_t *rnd = randomness ? randomness : zero;
    benchkit_post *h = calloc(1, sizeof *h);
    if (!h) return ERR(err, CUZK_ERR_NOMEM, "benchkit_post_create");
    cuzk_status st = post_params_from_name(&h->pp, circuit, err);
    if (st != CUZK_OK) {
        free(h);
        return st;
    }
    if (sectors) h->pp.sector_count = sectors;
    int winning = h->pp.kind == POST_WINNING;
    if (winning ? n_vproofs > 1 : n_vproofs > h->pp.sector_count) {
        uint32_t n_sec = h->pp.sector_count;
        free(h);
        return winning ? ERR(err, CUZK_ERR_ARG, "%zu vanilla proofs for a WinningPoSt circuit: it takes one (the challenged "
                                              "sector's, one challenge per slot)", n_vproofs)
                       : ERR(err, CUZK_ERR_ARG, "%zu vanilla proofs for a circuit of %u sectors", n_vproofs, n_sec);
    }
    h->n_secs = n_vproofs ? (winning ? h->pp.sector_count : n_vproofs) : 1;
    h->secs = calloc(h->n_secs, sizeof *h->secs);
    if (!h->secs) st = ERR(err, CUZK_ERR_NOMEM, "benchkit_post_create: %zu sectors", h->n_secs);
    /* every file read first (up to the first that cannot be), then the sectors read checked on all
     * threads: the error reported is the first in file order, as reading and checking each file
     * in turn gives (cuzk_post_job_create does the same) */
    cuzk_error rerr;
    memset(&rerr, 0, sizeof rerr);
    cuzk_status rst = CUZK_OK;
    size_t n_read = 0;
    for (size_t k = 0; st == CUZK_OK && k < n_vproofs; k++) {
        mapped_file f;
        const char *path = vproof_paths[k];
        if (!path) {
            rst = ERR(&rerr, CUZK_ERR_ARG, "benchkit_post_create: vanilla proof %zu: NULL path", k);
            break;
        }
        if ((rst = mapped_file_open(&f, path, &rerr)) == CUZK_OK) {
            size_t got = 0; /* WindowPoSt: sector k; WinningPoSt: every slot */
            rst = post_vanilla_read(&h->secs[k], &got, &h->pp, f.m_data, f.size_bytes, k, &rerr);
            mapped_file_close(&f);
            n_read += got;
        }
        name_file(rst, &rerr, path);
        if (rst != CUZK_OK) break;
    }
    if (st == CUZK_OK) {
        size_t bad = 0;
        st = post_sectors_check(&h->pp, h->secs, n_read, 0, rnd, 0, &bad, err);
        if (st != CUZK_OK) name_file(st, err, vproof_paths[winning ? 0 : bad]);
        else if (rst != CUZK_OK) {
            st = rst;
            if (err) *err = rerr;
        }
    }
    if (st == CUZK_OK && !n_vproofs) {
        /* one blank sector: all values 0 (the same work; a witness that does not satisfy) */
        post_sector *s = &h->secs[0];
        s->n_challenges = h->pp.challenge_count;
        s->leaves = calloc(s->n_challenges, sizeof(fr));
        s->roots = calloc(s->n_challenges, sizeof(fr));
        s->paths = calloc(s->n_challenges, sizeof(merkle_path));
        if (!s->leaves || !s->roots || !s->paths) st = ERR(err, CUZK_ERR_NOMEM, "blank sector");
    }
    if (st != CUZK_OK) {
        benchkit_post_destroy(h);
        return st;
    }
    post_circuit_sizes(&h->pp, &h->sz);
    *out = h;
    return CUZK_OK;
}

void benchkit_post_describe(const benchkit_post *h, benchkit_post_info *out) {
    if (!out) return;
    memset(out, 0, sizeof *out);
    if (!h) return;
    out->sector_count = h->pp.sector_count;
    out->challenge_count = h->pp.challenge_count;
    out->n_inputs = h->sz.n_inputs;
    out->n_aux = h->sz.n_aux;
    out->n_constraints = h->sz.n_constraints;
}

cuzk_status benchkit_post_witness(const benchkit_post *h, uint64_t *w, size_t n_vars, int nthreads, cuzk_error *err) {
    if (!h || !w || nthreads < 0) return ERR(err, CUZK_ERR_ARG, "benchkit_post_witness: NULL argument");
    if (n_vars != h->sz.n_inputs + h->sz.n_aux)
        return ERR(err, CUZK_ERR_MISMATCH, "benchkit_post_witness: %zu values, the circuit has %llu", n_vars,
                   (unsigned long long)(h->sz.n_inputs + h->sz.n_aux));
    return post_witness_parallel((fr *)w, n_vars, &h->pp, h->secs, h->n_secs, nthreads, err);
}

static int r1cs_equal(const r1cs *x, const r1cs *y) {
    if (x->n_constraints != y->n_constraints || x->n_vars != y->n_vars || x->n_public != y->n_public) return 0;
    const csr_matrix *a[3] = {&x->a, &x->b, &x->c}, *b[3] = {&y->a, &y->b, &y->c};
    for (int k = 0; k < 3; k++) {
        if (a[k]->n_rows != b[k]->n_rows || a[k]->nnz != b[k]->nnz || a[k]->n_coef != b[k]->n_coef) return 0;
        if (memcmp(a[k]->row_ptr, b[k]->row_ptr, ((size_t)a[k]->n_rows + 1) * sizeof *a[k]->row_ptr) ||
            memcmp(a[k]->col, b[k]->col, a[k]->nnz * sizeof *a[k]->col) ||
            memcmp(a[k]->coef_id, b[k]->coef_id, a[k]->nnz * sizeof *a[k]->coef_id) ||
            (a[k]->n_coef && memcmp(a[k]->coef, b[k]->coef, a[k]->n_coef * sizeof(fr))))
            return 0;
    }
    return 1;
}

cuzk_status benchkit_post_record_pass(benchkit_post *h, benchkit_post_pass pass, int nthreads,
                                      benchkit_post_record *out, cuzk_error *err) {
    if (out) memset(out, 0, sizeof *out);
    if (!h || !out || nthreads < 0) return ERR(err, CUZK_ERR_ARG, "benchkit_post_record_pass: NULL argument");
    cuzk_status st;
    switch (pass) {
    case BENCHKIT_POST_COUNT: {
        post_counts pc;
        if ((st = post_count_parallel(&pc, &h->pp, nthreads, err)) != CUZK_OK) return st;
        out->n_inputs = pc.n_inputs;
        out->n_aux = pc.n_aux;
        out->n_constraints = pc.n_constraints;
        out->a_aux = pc.a_aux;
        out->b_aux = pc.b_aux;
        out->b_inputs = pc.b_in;
        return CUZK_OK;
    }
    case BENCHKIT_POST_MATRICES: {
        r1cs_free(&h->kept);
        h->has_kept = 0;
        double ms[2];
        if ((st = post_record_parallel_timed(&h->kept, &h->pp, nthreads, ms, err)) != CUZK_OK) return st;
        out->parts_ms = ms[0];
        out->join_ms = ms[1];
        h->has_kept = 1;
        const r1cs *r = &h->kept;
        out->n_inputs = (uint64_t)r->n_public + 1;
        out->n_aux = r->n_vars - out->n_inputs;
        out->n_constraints = r->n_constraints;
        out->nnz_a = r->a.nnz;
        out->nnz_b = r->b.nnz;
        out->nnz_c = r->c.nnz;
        out->matrix_bytes = benchkit_csr_bytes(&r->a) + benchkit_csr_bytes(&r->b) + benchkit_csr_bytes(&r->c);
        double t0 = now_ms();
        st = benchkit_query_sizes(r, nthreads, &out->query_a, &out->query_b, err);
        out->queries_ms = now_ms() - t0;
        return st;
    }
    case BENCHKIT_POST_SERIAL: {
        if (!h->has_kept)
            return ERR(err, CUZK_ERR_ARG, "benchkit_post_record_pass: SERIAL compares with kept matrices: run MATRICES first");
        cs c;
        r1cs r1;
        memset(&r1, 0, sizeof r1);
        if ((st = cs_init(&c, CS_MATRICES)) != CUZK_OK) {
            cs_free(&c);
            return ERR(err, st, "PoSt recording: cannot start the constraint system");
        }
        post_synthesize(&c, &h->pp, &h->secs[0], 1);
        if (c.status == CUZK_OK) cs_finish_r1cs(&c, &r1);
        st = c.status;
        if (st != CUZK_OK) {
            if (err) *err = c.err;
        } else {
            out->n_inputs = (uint64_t)r1.n_public + 1;
            out->n_aux = r1.n_vars - out->n_inputs;
            out->n_constraints = r1.n_constraints;
            out->nnz_a = r1.a.nnz;
            out->nnz_b = r1.b.nnz;
            out->nnz_c = r1.c.nnz;
            out->same_as_kept = r1cs_equal(&h->kept, &r1);
        }
        cs_free(&c);
        r1cs_free(&r1);
        return st;
    }
    }
    return ERR(err, CUZK_ERR_ARG, "benchkit_post_record_pass: unknown pass %d", (int)pass);
}

cuzk_status benchkit_post_setup(cuzk_pk **out, benchkit_post *h, const uint64_t *seed, cuzk_backend backend,
                                int nthreads, cuzk_progress_fn progress, void *progress_user, cuzk_setup_timings *t,
                                cuzk_error *err) {
    if (!out || !h) return ERR(err, CUZK_ERR_ARG, "benchkit_post_setup: NULL argument");
    *out = NULL;
    if (!h->has_kept) return ERR(err, CUZK_ERR_ARG, "benchkit_post_setup: no recorded matrices (a MATRICES pass first)");
    cuzk_status st = benchkit_setup_key(out, &h->kept, NULL, NULL, seed, backend, nthreads, progress, progress_user, t, err);
    if (st == CUZK_OK) h->has_kept = 0; /* moved into the key */
    return st;
}
