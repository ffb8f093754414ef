/* The Filecoin PoSt public API (include/cuzk/filecoin.h). */
#include "cuzk/filecoin.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "filecoin/post.h"
#include "formats/snarkjs.h"
#include "util/log.h"

static cuzk_status params_of(post_params *pp, const char *circuit, uint32_t sectors, cuzk_error *err) {
    if (!circuit) return ERR(err, CUZK_ERR_ARG, "PoSt: no circuit name");
    cuzk_status st = post_params_from_name(pp, circuit, err);
    if (st == CUZK_OK && sectors) pp->sector_count = sectors;
    return st;
}

cuzk_status cuzk_post_r1cs_write(const char *circuit, uint32_t sectors, const char *r1cs_path, cuzk_progress_fn progress,
                                 void *progress_user, cuzk_error *err) {
    post_params pp;
    cuzk_status st;
    if (!r1cs_path) return ERR(err, CUZK_ERR_ARG, "PoSt: no output path");
    if ((st = params_of(&pp, circuit, sectors, err)) != CUZK_OK) return st;
    post_sector s;
    memset(&s, 0, sizeof s);
    s.n_challenges = pp.challenge_count;
    s.leaves = calloc(s.n_challenges, sizeof(fr));
    s.roots = calloc(s.n_challenges, sizeof(fr));
    s.paths = calloc(s.n_challenges, sizeof(merkle_path));
    if (!s.leaves || !s.roots || !s.paths) { post_sector_free(&s); return ERR(err, CUZK_ERR_NOMEM, "PoSt: out of memory"); }
    if (progress) progress(progress_user, "record", 0, 1);
    cs c;
    r1cs r;
    memset(&r, 0, sizeof r);
    if ((st = cs_init(&c, CS_MATRICES)) == CUZK_OK && (st = post_synthesize(&c, &pp, &s, 1)) == CUZK_OK) st = cs_finish_r1cs(&c, &r);
    if (st != CUZK_OK && err) *err = c.err;
    cs_free(&c);
    post_sector_free(&s);
    if (progress) progress(progress_user, "record", 1, 1);
    if (st == CUZK_OK) {
        if (progress) progress(progress_user, "write", 0, 1);
        st = r1cs_save(r1cs_path, &r, err);
        if (progress) progress(progress_user, "write", 1, 1);
    }
    r1cs_free(&r);
    return st;
}

static uint8_t *slurp(const char *path, size_t *n, cuzk_error *err, cuzk_status *st) {
    *n = 0;
    FILE *f = fopen(path, "rb");
    if (!f) { *st = ERR(err, CUZK_ERR_IO, "cannot open vanilla proof %s: %s", path, strerror(errno)); return NULL; }
    struct stat sb;
    if (fstat(fileno(f), &sb) != 0 || !S_ISREG(sb.st_mode)) { fclose(f); *st = ERR(err, CUZK_ERR_IO, "%s is not a regular file", path); return NULL; }
    uint8_t *d = malloc(sb.st_size > 0 ? (size_t)sb.st_size : 1);
    if (!d) { fclose(f); *st = ERR(err, CUZK_ERR_NOMEM, "out of memory reading %s", path); return NULL; }
    if (fread(d, 1, (size_t)sb.st_size, f) != (size_t)sb.st_size) {
        fclose(f); free(d);
        *st = ERR(err, CUZK_ERR_IO, "cannot read %s", path);
        return NULL;
    }
    fclose(f);
    *n = (size_t)sb.st_size;
    *st = CUZK_OK;
    return d;
}

cuzk_status cuzk_post_witness(const cuzk_post_request *req, uint8_t **witness, size_t *witness_len, uint8_t **public_inputs,
                              size_t *n_public, cuzk_error *err) {
    if (witness) *witness = NULL;
    if (witness_len) *witness_len = 0;
    if (public_inputs) *public_inputs = NULL;
    if (n_public) *n_public = 0;
    if (!req || !witness || !witness_len || !public_inputs || !n_public) return ERR(err, CUZK_ERR_ARG, "cuzk_post_witness: NULL argument");
    post_params pp;
    cuzk_status st;
    if ((st = params_of(&pp, req->circuit, req->sectors, err)) != CUZK_OK) return st;
    if (req->api_version) {
        if (req->api_version != 10 && req->api_version != 11 && req->api_version != 12)
            return ERR(err, CUZK_ERR_ARG, "PoSt: api_version %d (10, 11 or 12)", req->api_version);
        pp.api_version = req->api_version;
    }
    if (req->n_vanilla == 0 || req->n_vanilla > pp.sector_count || !req->vanilla_paths)
        return ERR(err, CUZK_ERR_ARG, "PoSt: %zu vanilla proofs for a circuit of %u sectors", req->n_vanilla, pp.sector_count);
    post_sector *secs = calloc(req->n_vanilla, sizeof *secs);
    fr *w = NULL, *pub = NULL;
    uint8_t *pub_bytes = NULL;
    if (!secs) return ERR(err, CUZK_ERR_NOMEM, "PoSt: out of memory");
    for (size_t i = 0; i < req->n_vanilla; i++) {
        size_t n;
        uint8_t *d = slurp(req->vanilla_paths[i], &n, err, &st);
        if (!d) goto out;
        st = post_vproof_read(&secs[i], &pp, d, n, err);
        free(d);
        if (st == CUZK_OK) st = post_sector_check(&pp, &secs[i], req->randomness, req->partition * pp.sector_count + i, err);
        if (st != CUZK_OK) {
            if (err) {
                char m[2 * sizeof err->msg];
                snprintf(m, sizeof m, "%s: %s", req->vanilla_paths[i], err->msg);
                memcpy(err->msg, m, sizeof err->msg - 1);
                err->msg[sizeof err->msg - 1] = 0;
            }
            goto out;
        }
    }
    post_sizes sz;
    post_circuit_sizes(&pp, &sz);
    size_t nw = (size_t)(sz.n_inputs + sz.n_aux), np = (size_t)(sz.n_inputs - 1);
    w = malloc(nw * sizeof *w);
    pub = malloc(np * sizeof *pub);
    pub_bytes = malloc(np * 32);
    if (!w || !pub || !pub_bytes) { st = ERR(err, CUZK_ERR_NOMEM, "PoSt: out of memory for %zu witness values", nw); goto out; }
    if ((st = post_public_inputs(pub, &pp, secs, req->n_vanilla, req->partition, req->randomness, err)) != CUZK_OK) goto out;
    if ((st = post_witness_parallel(w, nw, &pp, secs, req->n_vanilla, req->nthreads, err)) != CUZK_OK) goto out;
    if (memcmp(pub, w + 1, np * sizeof *pub)) { st = ERR(err, CUZK_ERR_INVALID, "PoSt: the witness's inputs are not the derived public inputs"); goto out; }
    for (size_t i = 0; i < np; i++) fr_to_bytes_le(pub_bytes + 32 * i, 32, &pub[i]);
    *witness = (uint8_t *)w;
    *witness_len = nw * sizeof *w;
    *public_inputs = pub_bytes;
    *n_public = np;
    w = NULL;
    pub_bytes = NULL;
out:
    for (size_t i = 0; i < req->n_vanilla; i++) post_sector_free(&secs[i]);
    free(secs);
    free(w);
    free(pub);
    free(pub_bytes);
    return st;
}

void cuzk_post_free(void *p) { free(p); }
