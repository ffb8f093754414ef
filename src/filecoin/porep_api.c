/* The Filecoin PoRep public API (include/cuzk/filecoin.h, PoRep section): circuits by name, key
 * loading with the circuit recorded in memory, C2 jobs for the engine from a C1 output, public
 * inputs from public data (verify-seal), and C1 test data (sealing small sectors, sparse C1s). */
#include "cuzk/filecoin.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "filecoin/porep.h"
#include "filecoin/porep_c1.h"
#include "filecoin/porep_circuit.h"
#include "filecoin/porep_seal.h"
#include "groth16/pk.h"
#include "groth16/setup.h"
#include "util/log.h"

static const struct { const char *name; uint64_t size; } SIZES[5] = {
    {"2k", 2048ull}, {"8m", 8ull << 20}, {"512m", 512ull << 20}, {"32g", 32ull << 30}, {"64g", 64ull << 30}};

/* The circuit's parameters from "porep-SIZE": any registered proof of that size gives the same
 * R1CS (V1_1's are used). */
static cuzk_status params_of_name(porep_params *pp, const char *circuit, cuzk_error *err) {
    if (!circuit || strncmp(circuit, "porep-", 6))
        return ERR(err, CUZK_ERR_ARG, "PoRep: unknown circuit '%s' (porep-2k, porep-8m, porep-512m, porep-32g, porep-64g)",
                   circuit ? circuit : "(null)");
    for (int i = 0; i < 5; i++)
        if (!strcmp(circuit + 6, SIZES[i].name)) return porep_params_from_proof(pp, 5 + (uint64_t)i, err);
    return ERR(err, CUZK_ERR_ARG, "PoRep: unknown circuit '%s' (porep-2k, porep-8m, porep-512m, porep-32g, porep-64g)", circuit);
}

static const char *name_of_size(uint64_t size) {
    static const char *const NAMES[5] = {"porep-2k", "porep-8m", "porep-512m", "porep-32g", "porep-64g"};
    for (int i = 0; i < 5; i++)
        if (SIZES[i].size == size) return NAMES[i];
    return "porep-?";
}

void cuzk_porep_prover_id(uint8_t out[32], uint64_t miner_id) { porep_prover_id(out, miner_id); }

cuzk_status cuzk_porep_r1cs_write(const char *circuit, const char *r1cs_path, cuzk_progress_fn progress, void *progress_user,
                                  cuzk_error *err) {
    porep_params pp;
    cuzk_status st;
    if (!r1cs_path) return ERR(err, CUZK_ERR_ARG, "PoRep: no output path");
    if ((st = params_of_name(&pp, circuit, err)) != CUZK_OK) return st;
    if (progress) progress(progress_user, "record", 0, 1);
    r1cs r;
    st = porep_record_parallel(&r, &pp, 0, err);
    if (progress) progress(progress_user, "record", 1, 1);
    if (st == CUZK_OK) {
        if (progress) progress(progress_user, "write", 0, 1);
        st = r1cs_save(r1cs_path, &r, err);
        if (progress) progress(progress_user, "write", 1, 1);
    }
    r1cs_free(&r);
    return st;
}

static cuzk_status record_porep(r1cs *out, const void *ctx, int nthreads, cuzk_error *err) {
    return porep_record_parallel(out, (porep_params const *)ctx, nthreads, err);
}

cuzk_status cuzk_porep_setup(const char *circuit, const char *params_path, const char *vk_path,
                                      const cuzk_setup_opts *opts, cuzk_setup_timings *t, cuzk_error *err) {
    porep_params pp;
    cuzk_status st;
    if ((st = params_of_name(&pp, circuit, err)) != CUZK_OK) return st;
    return groth16_setup_record(record_porep, &pp, params_path, vk_path, opts, t, err);
}

cuzk_status cuzk_porep_circuit_shape(cuzk_file_shape *out, const char *circuit, cuzk_error *err) {
    if (!out) return ERR(err, CUZK_ERR_ARG, "cuzk_porep_circuit_shape: NULL argument");
    memset(out, 0, sizeof *out);
    porep_params pp;
    cuzk_status st = params_of_name(&pp, circuit, err);
    if (st != CUZK_OK) return st;
    porep_sizes sz;
    porep_circuit_sizes(&pp, &sz); /* from the units' sizes: nothing recorded */
    if (!sz.n_inputs) return ERR(err, CUZK_ERR_NOMEM, "PoRep: cannot size circuit %s", circuit);
    out->kind = "circuit";
    out->curve = CUZK_CURVE_BLS12_381;
    out->n_public = sz.n_inputs - 1;
    out->n_aux = sz.n_aux;
    out->n_constraints = sz.n_constraints;
    out->domain = file_shape_domain(sz.n_constraints, out->n_public);
    return CUZK_OK;
}

cuzk_status cuzk_porep_circuit_of_file(const char *path, const char **circuit, cuzk_error *err) {
    if (circuit) *circuit = NULL;
    if (!path || !circuit) return ERR(err, CUZK_ERR_ARG, "cuzk_porep_circuit_of_file: NULL argument");
    cuzk_file_shape got;
    cuzk_status st = cuzk_file_shape_read(&got, path, err);
    if (st != CUZK_OK) return st;
    static const char *const NAMES[5] = {"porep-2k", "porep-8m", "porep-512m", "porep-32g", "porep-64g"};
    char known[200];
    size_t n = 0;
    known[0] = 0;
    for (int i = 0; i < 5; i++) {
        cuzk_file_shape want;
        if (cuzk_porep_circuit_shape(&want, NAMES[i], NULL) != CUZK_OK) continue;
        if (got.curve == want.curve && got.n_public == want.n_public && got.n_aux == want.n_aux &&
            (!strcmp(got.kind, "zkey") || !got.domain || got.domain == want.domain) &&
            (!got.n_constraints || got.n_constraints == want.n_constraints)) {
            *circuit = NAMES[i];
            return CUZK_OK;
        }
        int k = snprintf(known + n, sizeof known - n, "%s%s %llu", n ? ", " : "", NAMES[i] + 6,
                         (unsigned long long)want.n_public);
        if (k > 0 && (size_t)k < sizeof known - n) n += (size_t)k;
    }
    return ERR(err, CUZK_ERR_MISMATCH, "%s: a %s of %llu public inputs and %llu private variables: not made for any PoRep "
               "circuit (public inputs: %s)", path, got.kind, (unsigned long long)got.n_public,
               (unsigned long long)got.n_aux, known);
}

cuzk_status cuzk_porep_pk_load(cuzk_pk **out, const char *circuit, const char *params_path, const cuzk_pk_load_opts *opts,
                               cuzk_error *err) {
    if (out) *out = NULL;
    if (!out || !params_path) return ERR(err, CUZK_ERR_ARG, "cuzk_porep_pk_load: NULL argument");
    porep_params pp;
    cuzk_status st;
    if ((st = params_of_name(&pp, circuit, err)) != CUZK_OK) return st;
    /* the file's headers first: a file of another circuit, or a truncated one, is named before the
     * circuit is recorded (a minute at 32 GiB) */
    cuzk_file_shape want;
    char what[64];
    snprintf(what, sizeof what, "circuit %s", circuit);
    if ((st = cuzk_porep_circuit_shape(&want, circuit, err)) != CUZK_OK ||
        (st = cuzk_file_shape_check(params_path, &want, what, err)) != CUZK_OK)
        return st;
    r1cs r;
    if ((st = porep_record_parallel(&r, &pp, opts ? opts->nthreads : 0, err)) != CUZK_OK) return st;
    st = groth16_pk_load_params_cs(out, params_path, &r, opts, err); /* r moved into the key */
    if (st == CUZK_ERR_MISMATCH && err) {
        char m[sizeof err->msg];
        memcpy(m, err->msg, sizeof m);
        ERR(err, st, "%s for circuit %s: %.400s", params_path, circuit, m);
    }
    return st;
}

/* ---- jobs ---- */

struct cuzk_porep_job {
    porep_c1 c1;
    porep_sizes sz;
    int nthreads;
};

void cuzk_porep_job_free(cuzk_porep_job *job) {
    if (!job) return;
    porep_c1_free(&job->c1);
    free(job);
}

static uint8_t *slurp(const char *path, size_t *n, cuzk_error *err, cuzk_status *st) {
    *n = 0;
    FILE *f = fopen(path, "rb");
    if (!f) { *st = ERR(err, CUZK_ERR_IO, "cannot open C1 output %s: %s", path, strerror(errno)); return NULL; }
    struct stat sb;
    if (fstat(fileno(f), &sb) != 0 || !S_ISREG(sb.st_mode)) { fclose(f); *st = ERR(err, CUZK_ERR_IO, "%s is not a regular file", path); return NULL; }
    if ((uint64_t)sb.st_size > porep_c1_max_bytes_any()) { /* refused before it is read */
        fclose(f);
        *st = ERR(err, CUZK_ERR_FORMAT, "%s: %llu bytes, longer than any C1 output can be (a 64 GiB sector's in Curio's "
                  "wrapper: %zu bytes at most, whitespace included): not a C1 output; nothing was read", path,
                  (unsigned long long)sb.st_size, porep_c1_max_bytes_any());
        return NULL;
    }
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

/* "NAME: message" */
static void prefix_err(cuzk_error *err, const char *name) {
    if (!err || !name) return;
    char m[2 * sizeof err->msg];
    snprintf(m, sizeof m, "%s: %s", name, err->msg);
    memcpy(err->msg, m, sizeof err->msg - 1);
    err->msg[sizeof err->msg - 1] = 0;
}

cuzk_status cuzk_porep_job_create(cuzk_porep_job **out, const cuzk_porep_request *req, cuzk_error *err) {
    if (out) *out = NULL;
    if (!out || !req) return ERR(err, CUZK_ERR_ARG, "cuzk_porep_job_create: NULL argument");
    if (!!req->c1 == !!req->c1_path) return ERR(err, CUZK_ERR_ARG, "PoRep: give the C1 output either in memory or as a file");
    const uint8_t *buf = req->c1;
    size_t len = req->c1_len;
    uint8_t *owned = NULL;
    cuzk_status st = CUZK_OK;
    if (req->c1_path && !(owned = slurp(req->c1_path, &len, err, &st))) return st;
    if (owned) buf = owned;
    cuzk_porep_job *job = calloc(1, sizeof *job);
    if (!job) {
        free(owned);
        return ERR(err, CUZK_ERR_NOMEM, "PoRep: out of memory");
    }
    job->nthreads = req->nthreads;
    uint64_t wrapper_sector = UINT64_MAX;
    st = porep_c1_read(&job->c1, buf, len, &wrapper_sector, err);
    free(owned);
    /* Curio's wrapper names its sector: a request for another sector is refused (the proof would be
     * for the request's sector id, the wrapper's bookkeeping for another) */
    /* the key's circuit: a C1 output of another sector size is refused before the (costly) checks */
    if (st == CUZK_OK && req->circuit && strcmp(req->circuit, name_of_size(job->c1.pp.sector_size)) != 0)
        st = ERR(err, CUZK_ERR_MISMATCH, "C1 output: registered proof %s is circuit %s; the key is for circuit %s",
                 porep_proof_name(job->c1.pp.registered_proof), name_of_size(job->c1.pp.sector_size), req->circuit);
    if (st == CUZK_OK && req->check_replica_id && wrapper_sector != UINT64_MAX && wrapper_sector != req->sector_id)
        st = ERR(err, CUZK_ERR_INVALID, "C1 output: Curio's wrapper says SectorNum %llu, the request is for sector %llu",
                 (unsigned long long)wrapper_sector, (unsigned long long)req->sector_id);
    if (st == CUZK_OK) {
        porep_c1_check_opts co;
        memset(&co, 0, sizeof co);
        co.check_replica_id = req->check_replica_id != 0;
        memcpy(co.prover_id, req->prover_id, 32);
        co.sector_id = req->sector_id;
        co.nthreads = req->nthreads;
        st = porep_c1_check(&job->c1, &co, err);
    }
    if (st != CUZK_OK) {
        /* the reader's and checker's messages begin "C1 output: " already: name the file only */
        if (req->c1_path) prefix_err(err, req->c1_path);
        cuzk_porep_job_free(job);
        return st;
    }
    porep_circuit_sizes(&job->c1.pp, &job->sz);
    *out = job;
    return CUZK_OK;
}

uint32_t cuzk_porep_job_partitions(const cuzk_porep_job *job) { return job ? job->c1.n_partitions : 0; }
const char *cuzk_porep_job_circuit(const cuzk_porep_job *job) { return job ? name_of_size(job->c1.pp.sector_size) : NULL; }
uint64_t cuzk_porep_job_registered_proof(const cuzk_porep_job *job) { return job ? job->c1.pp.registered_proof : UINT64_MAX; }
void cuzk_porep_job_commitments(const cuzk_porep_job *job, uint8_t comm_r[32], uint8_t comm_d[32]) {
    if (!job) return;
    if (comm_r) memcpy(comm_r, job->c1.comm_r, 32);
    if (comm_d) memcpy(comm_d, job->c1.comm_d, 32);
}
size_t cuzk_porep_job_n_vars(const cuzk_porep_job *job) { return job ? (size_t)(job->sz.n_inputs + job->sz.n_aux) : 0; }
size_t cuzk_porep_job_n_public(const cuzk_porep_job *job) { return job ? (size_t)(job->sz.n_inputs - 1) : 0; }

static cuzk_status public_inputs_bytes(uint8_t *out, const porep_params *pp, const uint8_t replica_id[32], const uint8_t comm_d[32],
                                       const uint8_t comm_r[32], const uint8_t seed[32], uint32_t k, size_t np, cuzk_error *err) {
    fr *pub = malloc(np * sizeof *pub);
    if (!pub) return ERR(err, CUZK_ERR_NOMEM, "PoRep: out of memory");
    cuzk_status st = porep_public_inputs(pub, pp, replica_id, comm_d, comm_r, seed, k, err);
    if (st == CUZK_OK)
        for (size_t i = 0; i < np; i++) fr_to_bytes_le(out + 32 * i, 32, &pub[i]);
    free(pub);
    return st;
}

cuzk_status cuzk_porep_job_public_inputs(const cuzk_porep_job *job, uint32_t k, uint8_t *out, cuzk_error *err) {
    if (!job || !out || k >= job->c1.n_partitions)
        return ERR(err, CUZK_ERR_ARG, "cuzk_porep_job_public_inputs: bad argument or partition %u", k);
    return public_inputs_bytes(out, &job->c1.pp, job->c1.replica_id, job->c1.comm_d, job->c1.comm_r, job->c1.seed, k,
                               cuzk_porep_job_n_public(job), err);
}

cuzk_status cuzk_porep_job_synth(void *ctx, uint32_t partition, uint64_t *witness, size_t n_vars, cuzk_error *err) {
    cuzk_porep_job *job = ctx;
    if (!job || !witness || partition >= job->c1.n_partitions)
        return ERR(err, CUZK_ERR_ARG, "PoRep synthesis: bad argument or partition %u", partition);
    if (n_vars != cuzk_porep_job_n_vars(job))
        return ERR(err, CUZK_ERR_ARG, "PoRep synthesis: a buffer of %zu values, the circuit has %zu", n_vars, cuzk_porep_job_n_vars(job));
    return porep_witness_parallel((fr *)(void *)witness, n_vars, &job->c1.pp, &job->c1, partition, job->nthreads, err);
}

/* ---- verify-seal: public inputs from public data ---- */

cuzk_status cuzk_porep_public_inputs(const cuzk_porep_public *pub, uint32_t *n_partitions, size_t *n_public, uint8_t **out,
                                     cuzk_error *err) {
    if (out) *out = NULL;
    if (!pub || !n_partitions || !n_public || !out) return ERR(err, CUZK_ERR_ARG, "cuzk_porep_public_inputs: NULL argument");
    porep_params pp;
    cuzk_status st = pub->registered_proof == CUZK_POREP_BY_ID
                         ? porep_params_init(&pp, pub->sector_size, pub->porep_id, pub->api_version, pub->synthetic != 0, err)
                         : porep_params_from_proof(&pp, pub->registered_proof, err);
    if (st != CUZK_OK) return st;
    fr x;
    if (!fr_from_bytes_le(&x, pub->comm_r, 32)) return ERR(err, CUZK_ERR_ARG, "PoRep: comm_r is not a field element (>= r)");
    if (!fr_from_bytes_le(&x, pub->comm_d, 32)) return ERR(err, CUZK_ERR_ARG, "PoRep: comm_d is not a field element (>= r)");
    uint8_t replica_id[32];
    porep_replica_id(replica_id, pub->prover_id, pub->sector_id, pub->ticket, pub->comm_d, pp.porep_id);
    porep_sizes sz;
    porep_circuit_sizes(&pp, &sz);
    size_t np = (size_t)(sz.n_inputs - 1);
    uint8_t *buf = malloc((size_t)pp.partitions * np * 32);
    if (!buf) return ERR(err, CUZK_ERR_NOMEM, "PoRep: out of memory");
    for (uint32_t k = 0; k < (uint32_t)pp.partitions; k++)
        if ((st = public_inputs_bytes(buf + (size_t)k * np * 32, &pp, replica_id, pub->comm_d, pub->comm_r, pub->seed, k, np, err))) {
            free(buf);
            return st;
        }
    *n_partitions = (uint32_t)pp.partitions;
    *n_public = np;
    *out = buf;
    return CUZK_OK;
}

/* ---- test data ---- */

/* splitmix64: the pseudo-random data of a seed */
static uint64_t mix64(uint64_t *s) {
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

cuzk_status cuzk_porep_seal_c1(const cuzk_porep_seal_request *req, uint8_t **c1_out, size_t *c1_len, uint8_t comm_r[32],
                               uint8_t comm_d[32], cuzk_error *err) {
    if (c1_out) *c1_out = NULL;
    if (c1_len) *c1_len = 0;
    if (!req || !c1_out || !c1_len) return ERR(err, CUZK_ERR_ARG, "cuzk_porep_seal_c1: NULL argument");
    porep_params pp;
    cuzk_status st = porep_params_from_proof(&pp, req->registered_proof, err);
    if (st != CUZK_OK) return st;
    porep_c1 c1;
    memset(&c1, 0, sizeof c1);
    if (req->sparse) {
        uint8_t salt[32] = {0};
        uint64_t s = req->data_seed;
        for (int i = 0; i < 4; i++) {
            uint64_t v = mix64(&s);
            memcpy(salt + 8 * i, &v, 8);
        }
        st = porep_c1_sparse(&c1, &pp, req->prover_id, req->sector_id, req->ticket, req->seed, salt, req->nthreads, err);
    } else {
        if (pp.sector_size > (512ull << 20))
            return ERR(err, CUZK_ERR_ARG, "PoRep: sealing in memory is for sectors up to 512 MiB (this is %llu bytes): use a sparse C1",
                       (unsigned long long)pp.sector_size);
        uint8_t *data = NULL;
        const uint8_t *d = req->data;
        if (d && req->data_len != pp.sector_size)
            return ERR(err, CUZK_ERR_ARG, "PoRep: the data is %zu bytes; registered proof %llu seals %llu-byte sectors",
                       req->data_len, (unsigned long long)req->registered_proof, (unsigned long long)pp.sector_size);
        for (uint64_t i = 31; d && i < pp.sector_size; i += 32)
            if (d[i] & 0xc0)
                return ERR(err, CUZK_ERR_ARG, "PoRep: data node %llu is not a field element (the top two bits of its "
                           "last byte must be zero; Filecoin's padding (Fr32) guarantees it)", (unsigned long long)(i / 32));
        if (!d) {
            data = malloc(pp.sector_size);
            if (!data) return ERR(err, CUZK_ERR_NOMEM, "PoRep: out of memory for %llu bytes of data", (unsigned long long)pp.sector_size);
            uint64_t s = req->data_seed;
            for (uint64_t i = 0; i < pp.sector_size; i += 8) {
                uint64_t v = mix64(&s);
                memcpy(data + i, &v, 8);
            }
            for (uint64_t i = 31; i < pp.sector_size; i += 32) data[i] &= 0x3f;
            d = data;
        }
        porep_sector sec;
        st = porep_seal(&sec, &pp, d, req->prover_id, req->sector_id, req->ticket, req->nthreads, err);
        free(data);
        if (st != CUZK_OK) return st;
        st = porep_c1_from_sector(&c1, &sec, req->seed, req->nthreads, err);
        porep_sector_free(&sec);
    }
    if (st != CUZK_OK) return st;
    memcpy(c1.ticket, req->ticket, 32);
    if (comm_r) memcpy(comm_r, c1.comm_r, 32);
    if (comm_d) memcpy(comm_d, c1.comm_d, 32);
    st = porep_c1_write(&c1, req->curio_wrapper ? 1 : 0, req->sector_id, c1_out, c1_len, err);
    porep_c1_free(&c1);
    return st;
}
