/* Filecoin PoSt synthesis without proving (include/cuzk/bench.h, section 5): one partition's
 * sectors (a checked vanilla proof, or one blank sector) and the witness-only and recording
 * passes of src/filecoin/post.h. */
#include "cuzk/bench.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "circuit/cs.h"
#include "filecoin/post.h"
#include "formats/mapped_file.h"
#include "util/log.h"

struct cuzk_bench_post {
    post_params pp;
    post_sector s;
    post_sizes sz;
};

void cuzk_bench_post_destroy(cuzk_bench_post *h) {
    if (!h) return;
    post_sector_free(&h->s);
    free(h);
}

cuzk_status cuzk_bench_post_create(cuzk_bench_post **out, const char *circuit, uint32_t sectors, const char *vproof_path,
                                   cuzk_error *err) {
    if (!out || !circuit) return ERR(err, CUZK_ERR_ARG, "cuzk_bench_post_create: NULL argument");
    *out = NULL;
    cuzk_bench_post *h = calloc(1, sizeof *h);
    if (!h) return ERR(err, CUZK_ERR_NOMEM, "cuzk_bench_post_create");
    cuzk_status st = post_params_from_name(&h->pp, circuit, err);
    if (st != CUZK_OK) {
        free(h);
        return st;
    }
    if (sectors) h->pp.sector_count = sectors;
    if (vproof_path) {
        mapped_file f;
        uint8_t rnd[32] = {0};
        if ((st = mapped_file_open(&f, vproof_path, err)) == CUZK_OK) {
            st = post_vproof_read(&h->s, &h->pp, f.m_data, f.size_bytes, err);
            mapped_file_close(&f);
        }
        if (st == CUZK_OK) st = post_sector_check(&h->pp, &h->s, rnd, 0, err);
        if (st != CUZK_OK && err && !strstr(err->msg, vproof_path)) {
            char m[sizeof err->msg];
            memcpy(m, err->msg, sizeof m);
            ERR(err, st, "%s: %.400s", vproof_path, m);
        }
    } else {
        /* one blank sector: all values 0 (the same work; a witness that does not satisfy) */
        h->s.n_challenges = h->pp.challenge_count;
        h->s.leaves = calloc(h->s.n_challenges, sizeof(fr));
        h->s.roots = calloc(h->s.n_challenges, sizeof(fr));
        h->s.paths = calloc(h->s.n_challenges, sizeof(merkle_path));
        if (!h->s.leaves || !h->s.roots || !h->s.paths) st = ERR(err, CUZK_ERR_NOMEM, "blank sector");
    }
    if (st != CUZK_OK) {
        cuzk_bench_post_destroy(h);
        return st;
    }
    post_circuit_sizes(&h->pp, &h->sz);
    *out = h;
    return CUZK_OK;
}

void cuzk_bench_post_describe(const cuzk_bench_post *h, cuzk_bench_post_info *out) {
    if (!out) return;
    memset(out, 0, sizeof *out);
    if (!h) return;
    out->sector_count = h->pp.sector_count;
    out->challenge_count = h->pp.challenge_count;
    out->n_inputs = h->sz.n_inputs;
    out->n_aux = h->sz.n_aux;
    out->n_constraints = h->sz.n_constraints;
}

cuzk_status cuzk_bench_post_witness(const cuzk_bench_post *h, uint64_t *w, size_t n_vars, int nthreads, cuzk_error *err) {
    if (!h || !w || nthreads < 0) return ERR(err, CUZK_ERR_ARG, "cuzk_bench_post_witness: NULL argument");
    if (n_vars != h->sz.n_inputs + h->sz.n_aux)
        return ERR(err, CUZK_ERR_MISMATCH, "cuzk_bench_post_witness: %zu values, the circuit has %llu", n_vars,
                   (unsigned long long)(h->sz.n_inputs + h->sz.n_aux));
    return post_witness_parallel((fr *)w, n_vars, &h->pp, &h->s, 1, nthreads, err);
}

cuzk_status cuzk_bench_post_record_pass(const cuzk_bench_post *h, int matrices, cuzk_bench_post_record *out,
                                        cuzk_error *err) {
    if (out) memset(out, 0, sizeof *out);
    if (!h || !out) return ERR(err, CUZK_ERR_ARG, "cuzk_bench_post_record_pass: NULL argument");
    cs c;
    cuzk_status st = cs_init(&c, matrices ? CS_MATRICES : CS_DENSITY);
    if (st != CUZK_OK) {
        cs_free(&c);
        return ERR(err, st, "PoSt recording: cannot start the constraint system");
    }
    post_synthesize(&c, &h->pp, &h->s, 1);
    r1cs r;
    memset(&r, 0, sizeof r);
    if (matrices && c.status == CUZK_OK) cs_finish_r1cs(&c, &r);
    st = c.status;
    if (st != CUZK_OK) {
        if (err) *err = c.err;
    } else {
        out->n_constraints = c.n_constraints;
        if (!matrices) {
            out->a_aux = cs_bits_count(&c.a_aux);
            out->b_aux = cs_bits_count(&c.b_aux);
        } else {
            out->nnz_a = r.a.nnz;
            out->nnz_b = r.b.nnz;
            out->nnz_c = r.c.nnz;
        }
    }
    r1cs_free(&r);
    cs_free(&c);
    return st;
}
