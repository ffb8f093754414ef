/* The Filecoin PoSt public API (include/cuzk/filecoin.h). */
#include "cuzk/filecoin.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "filecoin/post.h"
#include "groth16/pk.h"
#include "groth16/setup.h"
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
    if (progress) progress(progress_user, "record", 0, 1);
    r1cs r;
    st = post_record_parallel(&r, &pp, 0, err);   /* all cores; the same R1CS as one builder gives */
    if (progress) progress(progress_user, "record", 1, 1);
    if (st == CUZK_OK) {
        if (progress) progress(progress_user, "write", 0, 1);
        st = r1cs_save(r1cs_path, &r, err);
        if (progress) progress(progress_user, "write", 1, 1);
    }
    r1cs_free(&r);
    return st;
}

static cuzk_status record_post(r1cs *out, const void *ctx, int nthreads, cuzk_error *err) {
    return post_record_parallel(out, (post_params const *)ctx, nthreads, err);
}

cuzk_status cuzk_post_setup(const char *circuit, uint32_t sectors, const char *params_path, const char *vk_path,
                                      const cuzk_setup_opts *opts, cuzk_setup_timings *t, cuzk_error *err) {
    post_params pp;
    cuzk_status st;
    if ((st = params_of(&pp, circuit, sectors, err)) != CUZK_OK) return st;
    return groth16_setup_record(record_post, &pp, params_path, vk_path, opts, t, err);
}

cuzk_status cuzk_post_pk_load(cuzk_pk **out, const char *circuit, uint32_t sectors, const char *params_path,
                              const cuzk_pk_load_opts *opts, cuzk_error *err) {
    if (out) *out = NULL;
    if (!out || !params_path) return ERR(err, CUZK_ERR_ARG, "cuzk_post_pk_load: NULL argument");
    post_params pp;
    cuzk_status st;
    if ((st = params_of(&pp, circuit, sectors, err)) != CUZK_OK) return st;
    /* the file's headers first: a file of another circuit or sector count, or a truncated one, is
     * named before the circuit is recorded */
    cuzk_file_shape want;
    char what[96];
    snprintf(what, sizeof what, "circuit %s%s", circuit, sectors ? " (a reduced sector count)" : "");
    if ((st = cuzk_post_circuit_shape(&want, circuit, sectors, err)) != CUZK_OK ||
        (st = cuzk_file_shape_check(params_path, &want, what, err)) != CUZK_OK)
        return st;
    r1cs r;
    if ((st = post_record_parallel(&r, &pp, opts ? opts->nthreads : 0, err)) != CUZK_OK) return st;
    st = groth16_pk_load_params_cs(out, params_path, &r, opts, err); /* r moved into the key */
    if (st == CUZK_ERR_MISMATCH && err) {
        char m[sizeof err->msg];
        memcpy(m, err->msg, sizeof m);
        ERR(err, st, "%s for circuit %s%s: %.400s", params_path, circuit, sectors ? " (reduced sector count)" : "", m);
    }
    return st;
}

cuzk_status cuzk_post_circuit_shape(cuzk_file_shape *out, const char *circuit, uint32_t sectors, cuzk_error *err) {
    if (!out) return ERR(err, CUZK_ERR_ARG, "cuzk_post_circuit_shape: NULL argument");
    memset(out, 0, sizeof *out);
    post_params pp;
    cuzk_status st = params_of(&pp, circuit, sectors, err);
    if (st != CUZK_OK) return st;
    post_sizes sz;
    post_circuit_sizes(&pp, &sz); /* one blank sector counted: nothing recorded */
    if (!sz.n_inputs) return ERR(err, CUZK_ERR_NOMEM, "PoSt: out of memory sizing circuit %s", circuit);
    out->kind = "circuit";
    out->curve = CUZK_CURVE_BLS12_381;
    out->n_public = sz.n_inputs - 1;
    out->n_aux = sz.n_aux;
    out->n_constraints = sz.n_constraints;
    out->domain = file_shape_domain(sz.n_constraints, out->n_public);
    return CUZK_OK;
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

struct cuzk_post_job {
    post_params pp;
    uint64_t first_partition;
    uint32_t n_partitions;
    int nthreads;
    uint8_t randomness[32];
    size_t n_sectors;     /* real sectors over all partitions */
    post_sector *secs;
    post_sizes sz;
};

void cuzk_post_job_free(cuzk_post_job *job) {
    if (!job) return;
    for (size_t i = 0; i < job->n_sectors; i++) post_sector_free(&job->secs[i]);
    free(job->secs);
    free(job);
}


/* "NAME: message", NAME the path of vanilla proof i or "vanilla proof i" for a buffer */
static void name_vanilla(cuzk_error *err, const cuzk_post_request *req, size_t i) {
    if (!err) return;
    char name[64];
    const char *what = name;
    if (req->vanilla_bufs) snprintf(name, sizeof name, "vanilla proof %zu", i);
    else what = req->vanilla_paths[i];
    char m[2 * sizeof err->msg];
    snprintf(m, sizeof m, "%s: %s", what, err->msg);
    memcpy(err->msg, m, sizeof err->msg - 1);
    err->msg[sizeof err->msg - 1] = 0;
}

cuzk_status cuzk_post_job_create(cuzk_post_job **out, const cuzk_post_request *req, cuzk_error *err) {
    if (out) *out = NULL;
    if (!out || !req) return ERR(err, CUZK_ERR_ARG, "cuzk_post_job_create: NULL argument");
    cuzk_post_job *job = calloc(1, sizeof *job);
    if (!job) return ERR(err, CUZK_ERR_NOMEM, "PoSt: out of memory");
    cuzk_status st;
    if ((st = params_of(&job->pp, req->circuit, req->sectors, err)) != CUZK_OK) goto fail;
    if (req->api_version) {
        if (req->api_version != 10 && req->api_version != 11 && req->api_version != 12) {
            st = ERR(err, CUZK_ERR_ARG, "PoSt: api_version %d (10, 11 or 12)", req->api_version);
            goto fail;
        }
        job->pp.api_version = req->api_version;
    }
    if (req->n_vanilla == 0 || (!req->vanilla_paths && !req->vanilla_bufs)) { st = ERR(err, CUZK_ERR_ARG, "PoSt: no vanilla proofs"); goto fail; }
    if (req->vanilla_paths && req->vanilla_bufs) {
        st = ERR(err, CUZK_ERR_ARG, "PoSt: vanilla proofs given both as files and as buffers (give one)");
        goto fail;
    }
    if (req->vanilla_bufs && !req->vanilla_lens) { st = ERR(err, CUZK_ERR_ARG, "PoSt: vanilla_bufs without vanilla_lens"); goto fail; }
    /* WinningPoSt: one vanilla proof, the challenged sector's, unrolled into the circuit's slots */
    int winning = job->pp.kind == POST_WINNING;
    if (winning && job->pp.api_version >= 12) {
        st = ERR(err, CUZK_ERR_ARG, "PoSt: WinningPoSt proofs are ApiVersion 1.0.0 (filecoin-proofs-api); under 1.2 every slot "
                 "would take challenge index 0 while the vanilla proof opens challenges 0..%u", post_vanilla_challenges(&job->pp) - 1);
        goto fail;
    }
    if (winning && req->n_vanilla != 1) {
        st = ERR(err, CUZK_ERR_ARG, "PoSt: %zu vanilla proofs for a WinningPoSt circuit: it takes one, the challenged sector's "
                 "(%u challenges)", req->n_vanilla, post_vanilla_challenges(&job->pp));
        goto fail;
    }
    /* checked once here, so that its error names no vanilla proof */
    if ((st = post_check_randomness(req->randomness, err)) != CUZK_OK) goto fail;
    job->first_partition = req->partition;
    job->nthreads = req->nthreads;
    memcpy(job->randomness, req->randomness, 32);
    job->n_partitions = (uint32_t)((req->n_vanilla + job->pp.sector_count - 1) / job->pp.sector_count);
    job->secs = calloc(winning ? job->pp.sector_count : req->n_vanilla, sizeof *job->secs);
    if (!job->secs) { st = ERR(err, CUZK_ERR_NOMEM, "PoSt: out of memory"); goto fail; }
    /* Every vanilla proof is read first, up to the first that cannot be (its error is kept), then
     * the sectors read are checked on the job's threads: the error reported is the one reading
     * and checking each file in turn would give first (a check of an earlier file before a read
     * error of a later one). */
    cuzk_error rerr;
    memset(&rerr, 0, sizeof rerr);
    cuzk_status rst = CUZK_OK;
    size_t r_at = req->n_vanilla;   /* the file that could not be read */
    bool r_name = false;            /* its error gets the file's name in front */
    for (size_t i = 0; i < req->n_vanilla; i++) {
        const uint8_t *d;
        size_t n;
        uint8_t *owned = NULL;
        if (req->vanilla_bufs) {
            if (!req->vanilla_bufs[i]) { rst = ERR(&rerr, CUZK_ERR_ARG, "PoSt: vanilla proof %zu: NULL buffer", i); r_at = i; break; }
            d = req->vanilla_bufs[i];
            n = req->vanilla_lens[i];
        } else {
            if (!req->vanilla_paths[i]) { rst = ERR(&rerr, CUZK_ERR_ARG, "PoSt: vanilla proof path %zu is NULL", i); r_at = i; break; }
            owned = slurp(req->vanilla_paths[i], &n, &rerr, &rst);
            if (!owned) { r_at = i; break; }
            d = owned;
        }
        size_t got = 0;
        rst = post_vanilla_read(&job->secs[job->n_sectors], &got, &job->pp, d, n, req->partition * job->pp.sector_count + i, &rerr);
        job->n_sectors += got;
        free(owned);
        if (rst != CUZK_OK) { r_at = i; r_name = true; break; }
    }
    size_t bad = 0;
    st = post_sectors_check(&job->pp, job->secs, job->n_sectors, req->partition * job->pp.sector_count, req->randomness,
                            job->nthreads, &bad, err);
    if (st != CUZK_OK) {
        name_vanilla(err, req, winning ? 0 : bad);   /* WindowPoSt: sector k is file k */
        goto fail;
    }
    if (rst != CUZK_OK) {
        if (err) *err = rerr;
        if (r_name) name_vanilla(err, req, r_at);
        st = rst;
        goto fail;
    }
    post_circuit_sizes(&job->pp, &job->sz);
    *out = job;
    return CUZK_OK;
fail:
    cuzk_post_job_free(job);
    return st;
}

uint32_t cuzk_post_job_partitions(const cuzk_post_job *job) { return job ? job->n_partitions : 0; }
size_t cuzk_post_job_n_vars(const cuzk_post_job *job) { return job ? (size_t)(job->sz.n_inputs + job->sz.n_aux) : 0; }
size_t cuzk_post_job_n_public(const cuzk_post_job *job) { return job ? (size_t)(job->sz.n_inputs - 1) : 0; }

/* the real sectors of partition k */
static const post_sector *part_secs(const cuzk_post_job *job, uint32_t k, size_t *n) {
    size_t b = (size_t)k * job->pp.sector_count, e = b + job->pp.sector_count;
    if (e > job->n_sectors) e = job->n_sectors;
    *n = e - b;
    return job->secs + b;
}

cuzk_status cuzk_post_job_public_inputs(const cuzk_post_job *job, uint32_t k, uint8_t *out, cuzk_error *err) {
    if (!job || !out || k >= job->n_partitions) return ERR(err, CUZK_ERR_ARG, "cuzk_post_job_public_inputs: bad argument or partition %u", k);
    size_t n, np = cuzk_post_job_n_public(job);
    const post_sector *s = part_secs(job, k, &n);
    fr *pub = malloc(np * sizeof *pub);
    if (!pub) return ERR(err, CUZK_ERR_NOMEM, "PoSt: out of memory");
    cuzk_status st = post_public_inputs(pub, &job->pp, s, n, job->first_partition + k, job->randomness, err);
    if (st == CUZK_OK)
        for (size_t i = 0; i < np; i++) fr_to_bytes_le(out + 32 * i, 32, &pub[i]);
    free(pub);
    return st;
}

cuzk_status cuzk_post_job_synth(void *ctx, uint32_t partition, uint64_t *witness, size_t n_vars, cuzk_error *err) {
    cuzk_post_job *job = ctx;
    if (!job || !witness || partition >= job->n_partitions)
        return ERR(err, CUZK_ERR_ARG, "PoSt synthesis: bad argument or partition %u", partition);
    if (n_vars != cuzk_post_job_n_vars(job))
        return ERR(err, CUZK_ERR_ARG, "PoSt synthesis: a buffer of %zu values, the circuit has %zu", n_vars, cuzk_post_job_n_vars(job));
    size_t n;
    const post_sector *s = part_secs(job, partition, &n);
    return post_witness_parallel((fr *)(void *)witness, n_vars, &job->pp, s, n, job->nthreads, err);
}

cuzk_status cuzk_post_witness(const cuzk_post_request *req, uint8_t **witness, size_t *witness_len, uint8_t **public_inputs,
                              size_t *n_public, cuzk_error *err) {
    if (witness) *witness = NULL;
    if (witness_len) *witness_len = 0;
    if (public_inputs) *public_inputs = NULL;
    if (n_public) *n_public = 0;
    if (!req || !witness || !witness_len || !public_inputs || !n_public) return ERR(err, CUZK_ERR_ARG, "cuzk_post_witness: NULL argument");
    cuzk_post_job *job = NULL;
    cuzk_status st = cuzk_post_job_create(&job, req, err);
    if (st != CUZK_OK) return st;
    if (job->n_partitions != 1) {
        uint32_t sc = job->pp.sector_count;
        cuzk_post_job_free(job);
        return ERR(err, CUZK_ERR_ARG, "PoSt: %zu vanilla proofs for a circuit of %u sectors (one partition)", req->n_vanilla, sc);
    }
    size_t nw = cuzk_post_job_n_vars(job), np = cuzk_post_job_n_public(job);
    uint64_t *w = malloc(nw * 32);
    uint8_t *pub = malloc(np * 32);
    if (!w || !pub) st = ERR(err, CUZK_ERR_NOMEM, "PoSt: out of memory for %zu witness values", nw);
    if (st == CUZK_OK) st = cuzk_post_job_public_inputs(job, 0, pub, err);
    if (st == CUZK_OK) st = cuzk_post_job_synth(job, 0, w, nw, err);
    if (st == CUZK_OK) {
        /* the witness's inputs are the derived public inputs */
        uint8_t b[32];
        for (size_t i = 0; i < np && st == CUZK_OK; i++) {
            fr x;
            memcpy(x.l, w + 4 * (i + 1), 32);
            fr_to_bytes_le(b, 32, &x);
            if (memcmp(b, pub + 32 * i, 32)) st = ERR(err, CUZK_ERR_INVALID, "PoSt: the witness's input %zu is not the derived public input", i);
        }
    }
    cuzk_post_job_free(job);
    if (st != CUZK_OK) { free(w); free(pub); return st; }
    *witness = (uint8_t *)w;
    *witness_len = nw * 32;
    *public_inputs = pub;
    *n_public = np;
    return CUZK_OK;
}

void cuzk_post_free(void *p) { free(p); }
