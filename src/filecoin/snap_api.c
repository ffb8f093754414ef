/* The Filecoin SnapDeals public API (include/cuzk/filecoin.h, SnapDeals section): circuits by
 * name, key loading with the circuit recorded in memory, update jobs for the engine from the
 * partition proofs, public inputs from public data (verify-update), and update test data. */
#include "cuzk/filecoin.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "filecoin/porep.h"
#include "filecoin/porep_seal.h"
#include "filecoin/snap.h"
#include "filecoin/snap_circuit.h"
#include "filecoin/snap_seal.h"
#include "formats/snarkjs.h"
#include "groth16/pk.h"
#include "groth16/setup.h"
#include "util/log.h"
#include "util/parallel.h"

#define SNAP_NAMES "snap-2k, snap-8m, snap-512m, snap-32g, snap-64g"

static cuzk_status params_of_name(snap_params *sp, const char *circuit, cuzk_error *err) {
    static const char *const OK[5] = {"snap-2k", "snap-8m", "snap-512m", "snap-32g", "snap-64g"};
    for (int i = 0; circuit && i < 5; i++)
        if (!strcmp(circuit, OK[i])) return snap_params_from_name(sp, circuit, err);
    return ERR(err, CUZK_ERR_ARG, "SnapDeals: unknown circuit '%.64s' (" SNAP_NAMES ")", circuit ? circuit : "(null)");
}

static const char *name_of_size(uint64_t size) {
    switch (size) {
    case 2048ull: return "snap-2k";
    case 8ull << 20: return "snap-8m";
    case 512ull << 20: return "snap-512m";
    case 32ull << 30: return "snap-32g";
    case 64ull << 30: return "snap-64g";
    default: return "snap-?";
    }
}

cuzk_status cuzk_snap_r1cs_write(const char *circuit, const char *r1cs_path, cuzk_progress_fn progress, void *progress_user,
                                 cuzk_error *err) {
    snap_params sp;
    cuzk_status st;
    if (!r1cs_path) return ERR(err, CUZK_ERR_ARG, "SnapDeals: no output path");
    if ((st = params_of_name(&sp, circuit, err)) != CUZK_OK) return st;
    if (progress) progress(progress_user, "record", 0, 1);
    r1cs r;
    st = snap_record_parallel(&r, &sp, 0, err);
    if (progress) progress(progress_user, "record", 1, 1);
    if (st == CUZK_OK) {
        if (progress) progress(progress_user, "write", 0, 1);
        st = r1cs_save(r1cs_path, &r, err);
        if (progress) progress(progress_user, "write", 1, 1);
    }
    r1cs_free(&r);
    return st;
}

static cuzk_status record_snap(r1cs *out, const void *ctx, int nthreads, cuzk_error *err) {
    return snap_record_parallel(out, (snap_params const *)ctx, nthreads, err);
}

cuzk_status cuzk_snap_setup(const char *circuit, const char *params_path, const char *vk_path,
                            const cuzk_setup_opts *opts, cuzk_setup_timings *t, cuzk_error *err) {
    snap_params sp;
    cuzk_status st;
    if ((st = params_of_name(&sp, circuit, err)) != CUZK_OK) return st;
    return groth16_setup_record(record_snap, &sp, params_path, vk_path, opts, t, err);
}

cuzk_status cuzk_snap_pk_load(cuzk_pk **out, const char *circuit, const char *params_path, const cuzk_pk_load_opts *opts,
                              cuzk_error *err) {
    if (out) *out = NULL;
    if (!out || !params_path) return ERR(err, CUZK_ERR_ARG, "cuzk_snap_pk_load: NULL argument");
    snap_params sp;
    cuzk_status st;
    if ((st = params_of_name(&sp, circuit, err)) != CUZK_OK) return st;
    r1cs r;
    if ((st = snap_record_parallel(&r, &sp, opts ? opts->nthreads : 0, err)) != CUZK_OK) return st;
    st = groth16_pk_load_params_cs(out, params_path, &r, opts, err); /* r moved into the key */
    if (st == CUZK_ERR_MISMATCH && err) {
        char m[sizeof err->msg];
        memcpy(m, err->msg, sizeof m);
        ERR(err, st, "%s for circuit %s: %.400s", params_path, circuit, m);
    }
    return st;
}

cuzk_status cuzk_snap_circuit_shape(cuzk_file_shape *out, const char *circuit, cuzk_error *err) {
    if (!out) return ERR(err, CUZK_ERR_ARG, "cuzk_snap_circuit_shape: NULL argument");
    memset(out, 0, sizeof *out);
    snap_params sp;
    cuzk_status st = params_of_name(&sp, circuit, err);
    if (st != CUZK_OK) return st;
    snap_sizes sz;
    snap_circuit_sizes(&sp, &sz); /* from the layout: nothing recorded */
    if (!sz.n_inputs) return ERR(err, CUZK_ERR_NOMEM, "SnapDeals: cannot size circuit %s", circuit);
    out->kind = "circuit";
    out->curve = CUZK_CURVE_BLS12_381;
    out->n_public = sz.n_inputs - 1;
    out->n_aux = sz.n_aux;
    out->n_constraints = sz.n_constraints;
    out->domain = file_shape_domain(sz.n_constraints, out->n_public);
    return CUZK_OK;
}

/* ---- jobs ---- */

struct cuzk_snap_job {
    snap_params sp;
    snap_public pub;
    snap_sizes sz;
    uint32_t n_partitions;
    snap_partition_proof parts[SNAP_MAX_PARTITIONS];
    int nthreads;
};

void cuzk_snap_job_free(cuzk_snap_job *job) {
    if (!job) return;
    for (uint32_t k = 0; k < SNAP_MAX_PARTITIONS; k++) snap_partition_proof_free(&job->parts[k]);
    free(job);
}

static uint8_t *slurp(const char *path, size_t *n, cuzk_error *err, cuzk_status *st) {
    *n = 0;
    FILE *f = fopen(path, "rb");
    if (!f) { *st = ERR(err, CUZK_ERR_IO, "cannot open %s: %s", path, strerror(errno)); return NULL; }
    struct stat sb;
    if (fstat(fileno(f), &sb) != 0 || !S_ISREG(sb.st_mode)) { fclose(f); *st = ERR(err, CUZK_ERR_IO, "%s is not a regular file", path); return NULL; }
    uint8_t *d = malloc(sb.st_size > 0 ? (size_t)sb.st_size : 1);
    if (!d) { fclose(f); *st = ERR(err, CUZK_ERR_NOMEM, "out of memory reading %s", path); return NULL; }
    if (fread(d, 1, (size_t)sb.st_size, f) != (size_t)sb.st_size) {
        fclose(f);
        free(d);
        *st = ERR(err, CUZK_ERR_IO, "cannot read %s", path);
        return NULL;
    }
    fclose(f);
    *n = (size_t)sb.st_size;
    *st = CUZK_OK;
    return d;
}

/* "PREFIX: message" */
static void prefix_err(cuzk_error *err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void prefix_err(cuzk_error *err, const char *fmt, ...) {
    if (!err) return;
    char p[128], m[2 * sizeof err->msg];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(p, sizeof p, fmt, ap);
    va_end(ap);
    snprintf(m, sizeof m, "%s: %s", p, err->msg);
    memcpy(err->msg, m, sizeof err->msg - 1);
    err->msg[sizeof err->msg - 1] = 0;
}

/* the partitions' checks on several threads; the failure reported is the first in partition order */
typedef struct chk { cuzk_snap_job *job; cuzk_status st[SNAP_MAX_PARTITIONS]; cuzk_error err[SNAP_MAX_PARTITIONS]; } chk;
static void check_range(void *ctx, size_t b, size_t e, int tid) {
    (void)tid;
    chk *c = ctx;
    for (size_t k = b; k < e; k++) c->st[k] = snap_partition_check(&c->job->sp, &c->job->parts[k], (uint32_t)k, &c->job->pub, &c->err[k]);
}

cuzk_status cuzk_snap_job_create(cuzk_snap_job **out, const cuzk_snap_request *req, cuzk_error *err) {
    if (out) *out = NULL;
    if (!out || !req) return ERR(err, CUZK_ERR_ARG, "cuzk_snap_job_create: NULL argument");
    int given = !!req->json + !!req->json_path + !!req->parts;
    if (given != 1)
        return ERR(err, CUZK_ERR_ARG, "SnapDeals: give the partition proofs one way: Curio's JSON in memory or in a file, or the "
                   "bincode of each partition");
    cuzk_snap_job *job = calloc(1, sizeof *job);
    if (!job) return ERR(err, CUZK_ERR_NOMEM, "SnapDeals: out of memory");
    job->nthreads = req->nthreads;
    cuzk_status st = snap_params_from_proof(&job->sp, req->registered_proof, err);
    fr x;
    if (st == CUZK_OK && !fr_from_bytes_le(&x, req->comm_r_old, 32)) st = ERR(err, CUZK_ERR_ARG, "SnapDeals: comm_r_old is not a field element (>= r)");
    if (st == CUZK_OK && !fr_from_bytes_le(&x, req->comm_d_new, 32)) st = ERR(err, CUZK_ERR_ARG, "SnapDeals: comm_d_new is not a field element (>= r)");
    if (st == CUZK_OK && !fr_from_bytes_le(&x, req->comm_r_new, 32)) st = ERR(err, CUZK_ERR_ARG, "SnapDeals: comm_r_new is not a field element (>= r)");
    if (st != CUZK_OK) { cuzk_snap_job_free(job); return st; }
    memcpy(job->pub.comm_r_old, req->comm_r_old, 32);
    memcpy(job->pub.comm_d_new, req->comm_d_new, 32);
    memcpy(job->pub.comm_r_new, req->comm_r_new, 32);
    uint32_t P = (uint32_t)job->sp.partitions;
    snap_blob *blobs = NULL;
    size_t n_blobs = 0;
    const char *src = req->json_path ? req->json_path : "vanilla proofs";
    if (req->parts) {
        if (!req->part_lens)
            st = ERR(err, CUZK_ERR_ARG, "SnapDeals: partition proofs without their lengths");
        else if (req->n_parts != P)
            st = ERR(err, CUZK_ERR_FORMAT, "SnapDeals: %zu partition proofs, registered update proof %llu has %u partitions",
                     req->n_parts, (unsigned long long)req->registered_proof, P);
        for (size_t k = 0; st == CUZK_OK && k < P; k++) {
            if (!req->parts[k] && req->part_lens[k]) { st = ERR(err, CUZK_ERR_ARG, "SnapDeals: partition proof %zu is NULL", k); break; }
            st = snap_partition_proof_read(&job->parts[k], &job->sp, req->parts[k], req->part_lens[k], err);
            if (st != CUZK_OK) prefix_err(err, "partition %zu", k);
        }
    } else {
        const uint8_t *buf = req->json;
        size_t len = req->json_len;
        uint8_t *owned = NULL;
        if (req->json_path && !(owned = slurp(req->json_path, &len, err, &st))) { cuzk_snap_job_free(job); return st; }
        if (owned) buf = owned;
        st = snap_vproofs_json_split(&blobs, &n_blobs, SNAP_MAX_PARTITIONS, buf, len, err);
        free(owned);
        if (st == CUZK_OK && n_blobs != P)
            st = ERR(err, CUZK_ERR_FORMAT, "SnapDeals: %zu partition proofs, registered update proof %llu has %u partitions", n_blobs,
                     (unsigned long long)req->registered_proof, P);
        for (size_t k = 0; st == CUZK_OK && k < P; k++) {
            st = snap_partition_proof_read(&job->parts[k], &job->sp, blobs[k].data, blobs[k].len, err);
            if (st != CUZK_OK) prefix_err(err, "partition %zu", k);
        }
        snap_blobs_free(blobs, n_blobs);
    }
    if (st == CUZK_OK) {
        chk *c = calloc(1, sizeof *c);
        if (!c) st = ERR(err, CUZK_ERR_NOMEM, "SnapDeals: out of memory");
        else {
            c->job = job;
            parallel_for(P, req->nthreads, check_range, c);
            for (uint32_t k = 0; k < P && st == CUZK_OK; k++)
                if (c->st[k] != CUZK_OK) {
                    st = c->st[k];
                    if (err) *err = c->err[k];
                }
            free(c);
        }
    }
    if (st != CUZK_OK) {
        if (req->json_path) prefix_err(err, "%s", src);
        cuzk_snap_job_free(job);
        return st;
    }
    job->n_partitions = P;
    snap_circuit_sizes(&job->sp, &job->sz);
    *out = job;
    return CUZK_OK;
}

uint32_t cuzk_snap_job_partitions(const cuzk_snap_job *job) { return job ? job->n_partitions : 0; }
const char *cuzk_snap_job_circuit(const cuzk_snap_job *job) { return job ? name_of_size(job->sp.sector_size) : NULL; }
size_t cuzk_snap_job_n_vars(const cuzk_snap_job *job) { return job ? (size_t)(job->sz.n_inputs + job->sz.n_aux) : 0; }
size_t cuzk_snap_job_n_public(const cuzk_snap_job *job) { return job ? (size_t)(job->sz.n_inputs - 1) : 0; }

static cuzk_status inputs_bytes(uint8_t *out, const snap_params *sp, uint32_t k, const snap_public *pub, cuzk_error *err) {
    fr v[4];
    cuzk_status st = snap_public_inputs(v, sp, k, pub, err);
    if (st == CUZK_OK)
        for (int i = 0; i < 4; i++) fr_to_bytes_le(out + 32 * i, 32, &v[i]);
    return st;
}

cuzk_status cuzk_snap_job_public_inputs(const cuzk_snap_job *job, uint32_t k, uint8_t *out, cuzk_error *err) {
    if (!job || !out || k >= job->n_partitions)
        return ERR(err, CUZK_ERR_ARG, "cuzk_snap_job_public_inputs: bad argument or partition %u", k);
    return inputs_bytes(out, &job->sp, k, &job->pub, err);
}

cuzk_status cuzk_snap_job_synth(void *ctx, uint32_t partition, uint64_t *witness, size_t n_vars, cuzk_error *err) {
    cuzk_snap_job *job = ctx;
    if (!job || !witness || partition >= job->n_partitions)
        return ERR(err, CUZK_ERR_ARG, "SnapDeals synthesis: bad argument or partition %u", partition);
    if (n_vars != cuzk_snap_job_n_vars(job))
        return ERR(err, CUZK_ERR_ARG, "SnapDeals synthesis: a buffer of %zu values, the circuit has %zu", n_vars,
                   cuzk_snap_job_n_vars(job));
    snap_witness_src src = {&job->pub, &job->parts[partition], partition};
    return snap_witness_parallel((fr *)(void *)witness, n_vars, &job->sp, &src, job->nthreads, err);
}

/* ---- verify-update: public inputs from public data ---- */

cuzk_status cuzk_snap_public_inputs(const cuzk_snap_public *pub, uint32_t *n_partitions, size_t *n_public, uint8_t **out,
                                    cuzk_error *err) {
    if (out) *out = NULL;
    if (!pub || !n_partitions || !n_public || !out) return ERR(err, CUZK_ERR_ARG, "cuzk_snap_public_inputs: NULL argument");
    snap_params sp;
    cuzk_status st = snap_params_from_proof(&sp, pub->registered_proof, err);
    if (st != CUZK_OK) return st;
    snap_public p;
    memcpy(p.comm_r_old, pub->comm_r_old, 32);
    memcpy(p.comm_d_new, pub->comm_d_new, 32);
    memcpy(p.comm_r_new, pub->comm_r_new, 32);
    uint8_t *buf = malloc((size_t)sp.partitions * 4 * 32);
    if (!buf) return ERR(err, CUZK_ERR_NOMEM, "SnapDeals: out of memory");
    for (uint32_t k = 0; k < (uint32_t)sp.partitions; k++)
        if ((st = inputs_bytes(buf + (size_t)k * 4 * 32, &sp, k, &p, err)) != CUZK_OK) {
            free(buf);
            return st;
        }
    *n_partitions = (uint32_t)sp.partitions;
    *n_public = 4;
    *out = buf;
    return CUZK_OK;
}

/* ---- commitments as Curio sends them ---- */

cuzk_status cuzk_commitment_from_bytes(uint8_t out[32], const uint8_t *in, size_t in_len, cuzk_commitment_kind kind,
                                       cuzk_error *err) {
    if (!out || (!in && in_len)) return ERR(err, CUZK_ERR_ARG, "cuzk_commitment_from_bytes: NULL argument");
    if (in_len == 32) {
        memcpy(out, in, 32);
        return CUZK_OK;
    }
    /* CIDv1 = 0x01 | varint codec | varint multihash code | varint 32 | digest */
    static const uint8_t SEALED[8] = {0x01, 0x82, 0xe2, 0x03, 0x81, 0xe8, 0x02, 0x20};
    static const uint8_t UNSEALED[7] = {0x01, 0x81, 0xe2, 0x03, 0x92, 0x20, 0x20};
    const uint8_t *pre = kind == CUZK_COMMITMENT_SEALED ? SEALED : UNSEALED;
    size_t np = kind == CUZK_COMMITMENT_SEALED ? sizeof SEALED : sizeof UNSEALED;
    const char *what = kind == CUZK_COMMITMENT_SEALED ? "a sealed commitment (CIDv1 fil-commitment-sealed, poseidon-bls12_381-a2-fc1)"
                                                      : "an unsealed commitment (CIDv1 fil-commitment-unsealed, sha2-256-trunc254-padded)";
    if (in_len != np + 32 || memcmp(in, pre, np) != 0)
        return ERR(err, CUZK_ERR_FORMAT, "%zu bytes are neither 32 raw bytes nor %s (%zu bytes)", in_len, what, np + 32);
    memcpy(out, in + np, 32);
    return CUZK_OK;
}

/* ---- test data ---- */

static uint64_t mix64(uint64_t *s) {
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static void fill(uint8_t *d, size_t n, uint64_t seed) {
    for (size_t i = 0; i < n; i += 8) {
        uint64_t v = mix64(&seed);
        memcpy(d + i, &v, 8);
    }
    for (size_t i = 31; i < n; i += 32) d[i] &= 0x3f;
}

cuzk_status cuzk_snap_make_update(const cuzk_snap_update_request *req, uint8_t **json, size_t *len, uint8_t comm_r_old[32],
                                  uint8_t comm_d_new[32], uint8_t comm_r_new[32], cuzk_error *err) {
    if (json) *json = NULL;
    if (len) *len = 0;
    if (!req || !json || !len) return ERR(err, CUZK_ERR_ARG, "cuzk_snap_make_update: NULL argument");
    snap_params sp;
    cuzk_status st = snap_params_from_proof(&sp, req->registered_proof, err);
    if (st != CUZK_OK) return st;
    snap_partition_proof parts[SNAP_MAX_PARTITIONS];
    memset(parts, 0, sizeof parts);
    snap_public pub;
    memset(&pub, 0, sizeof pub);
    uint32_t P = (uint32_t)sp.partitions;
    if (req->sparse) {
        uint8_t salt[32];
        uint64_t s = req->data_seed;
        for (int i = 0; i < 4; i++) {
            uint64_t v = mix64(&s);
            memcpy(salt + 8 * i, &v, 8);
        }
        snap_sparse *sp_ = NULL;
        st = snap_sparse_make(&sp_, &sp, salt, err);
        if (st == CUZK_OK) pub = *snap_sparse_public(sp_);
        for (uint32_t k = 0; st == CUZK_OK && k < P; k++) st = snap_sparse_partition_proof(&parts[k], sp_, k, err);
        snap_sparse_free(sp_);
    } else {
        if (sp.sector_size > (8ull << 20))
            return ERR(err, CUZK_ERR_ARG, "SnapDeals: updating a sector in memory is for 2 KiB and 8 MiB sectors (this is %llu "
                       "bytes): use a sparse update", (unsigned long long)sp.sector_size);
        porep_params pp;
        /* the sealed sector: V1_1 of the same size (registered seal proof 5 + the size's index) */
        st = porep_params_from_proof(&pp, 5 + req->registered_proof, err);
        uint8_t *old = malloc(sp.sector_size), *neu = malloc(sp.sector_size), prover[32], ticket[32] = {0};
        if (st == CUZK_OK && (!old || !neu)) st = ERR(err, CUZK_ERR_NOMEM, "SnapDeals: out of memory");
        porep_sector sec;
        memset(&sec, 0, sizeof sec);
        snap_update u;
        memset(&u, 0, sizeof u);
        if (st == CUZK_OK) {
            fill(old, sp.sector_size, req->data_seed);
            fill(neu, sp.sector_size, req->data_seed ^ 0x5eed5eed5eed5eedull);
            porep_prover_id(prover, 1000);
            st = porep_seal(&sec, &pp, old, prover, 1, ticket, req->nthreads, err);
        }
        if (st == CUZK_OK) st = snap_update_encode(&u, &sp, &sec, neu, req->nthreads, err);
        if (st == CUZK_OK) pub = u.pub;
        for (uint32_t k = 0; st == CUZK_OK && k < P; k++) st = snap_update_partition_proof(&parts[k], &u, k, err);
        snap_update_free(&u);
        porep_sector_free(&sec);
        free(old);
        free(neu);
    }
    snap_blob blobs[SNAP_MAX_PARTITIONS];
    memset(blobs, 0, sizeof blobs);
    for (uint32_t k = 0; st == CUZK_OK && k < P; k++) st = snap_partition_proof_write(&parts[k], &sp, &blobs[k].data, &blobs[k].len, err);
    if (st == CUZK_OK) st = snap_vproofs_json_join(json, len, blobs, P, err);
    for (uint32_t k = 0; k < P; k++) {
        free(blobs[k].data);
        snap_partition_proof_free(&parts[k]);
    }
    if (st != CUZK_OK) return st;
    if (comm_r_old) memcpy(comm_r_old, pub.comm_r_old, 32);
    if (comm_d_new) memcpy(comm_d_new, pub.comm_d_new, 32);
    if (comm_r_new) memcpy(comm_r_new, pub.comm_r_new, 32);
    return CUZK_OK;
}
