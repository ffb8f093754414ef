/* dprover on the file API of include/cuzk/groth16.h (interim, until include/cuzk/prover.h
 * brings in-memory keys): a "loaded" key is the configured files, checked by
 * cuzk_describe_file; each proof writes the witness to a private temporary directory, proves
 * file to file (the key is read again every time: correct, not fast) and reads the outputs back. */
#include "dprover.h"

#include "cuzk/groth16.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

struct dp_key {
    dcfg_circuit c; /* borrowed strings: the configuration outlives every key */
    cuzk_backend backend;
    int nthreads;
};

const char *dp_impl_name(void) { return "file-api"; }

static cuzk_backend backend_of(const char *s) {
    if (s && strcmp(s, "cpu") == 0) return CUZK_BACKEND_CPU;
    if (s && strcmp(s, "gpu") == 0) return CUZK_BACKEND_GPU;
    return CUZK_BACKEND_AUTO;
}

static uint64_t file_size(const char *p) {
    struct stat st;
    return stat(p, &st) == 0 ? (uint64_t)st.st_size : 0;
}

cuzk_status dp_key_load(const dcfg_circuit *c, const char *backend, int nthreads, dp_key **out, uint64_t *bytes,
                        cuzk_error *err) {
    char desc[2048];
    cuzk_status st;
    *out = NULL;
    *bytes = 0;
    const char *main_file = c->zkey ? c->zkey : c->params;
    st = cuzk_describe_file(desc, sizeof desc, main_file, err);
    if (st) return st;
    if (c->zkey && !strstr(desc, "zkey"))
        return cuzk_error_set(err, CUZK_ERR_FORMAT, __FILE__, __LINE__, "%s: not a snarkjs .zkey", c->zkey);
    if (c->r1cs && (st = cuzk_describe_file(desc, sizeof desc, c->r1cs, err))) return st;
    if (c->filecoin)
        return cuzk_error_set(err, CUZK_ERR_UNSUPPORTED, __FILE__, __LINE__,
                              "cuzk cannot prove %s yet: this build has no Filecoin circuits (its parameter file "
                              "%s was checked)", c->id, c->params);
    dp_key *k = calloc(1, sizeof *k);
    if (!k) return cuzk_error_set(err, CUZK_ERR_NOMEM, __FILE__, __LINE__, "out of memory");
    k->c = *c;
    k->backend = backend_of(backend);
    k->nthreads = nthreads;
    *bytes = file_size(main_file);
    *out = k;
    return CUZK_OK;
}

void dp_key_free(dp_key *k) { free(k); }

static char *slurp(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    char *buf = NULL;
    size_t cap = 0, n = 0;
    for (;;) {
        if (n + 4096 + 1 > cap) {
            cap = cap ? cap * 2 : 8192;
            char *nb = realloc(buf, cap);
            if (!nb) { free(buf); fclose(f); return NULL; }
            buf = nb;
        }
        size_t r = fread(buf + n, 1, cap - n - 1, f);
        n += r;
        if (r == 0) break;
    }
    fclose(f);
    buf[n] = 0;
    if (len) *len = n;
    return buf;
}

/* The temporary file's name is an implementation detail: messages name "the witness" instead. */
static void scrub(cuzk_error *err, const char *tmp_path) {
    if (!err) return;
    char *p;
    size_t tl = strlen(tmp_path);
    while ((p = strstr(err->msg, tmp_path))) {
        static const char w[] = "<witness>";
        size_t rest = strlen(p + tl);
        memmove(p + sizeof w - 1, p + tl, rest + 1);
        memcpy(p, w, sizeof w - 1);
    }
}

cuzk_status dp_prove(dp_key *k, const uint8_t *wtns, size_t wtns_len, const volatile int *cancel,
                     uint64_t delay_ms, dp_proof *out, cuzk_error *err) {
    memset(out, 0, sizeof *out);
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (uint64_t waited = 0; waited < delay_ms; waited += 5) {
        if (*cancel) return cuzk_error_set(err, CUZK_ERR_CANCELLED, __FILE__, __LINE__, "cancelled");
        struct timespec ts = {0, 5000000};
        nanosleep(&ts, NULL);
    }
    if (*cancel) return cuzk_error_set(err, CUZK_ERR_CANCELLED, __FILE__, __LINE__, "cancelled");

    const char *tmpdir = getenv("TMPDIR");
    char dir[512], w[600], pj[600], pub[600];
    snprintf(dir, sizeof dir, "%s/cuzkd-XXXXXX", tmpdir && *tmpdir ? tmpdir : "/tmp");
    if (!mkdtemp(dir))
        return cuzk_error_set(err, CUZK_ERR_IO, __FILE__, __LINE__, "cannot make a temporary directory in %s: %s",
                              tmpdir && *tmpdir ? tmpdir : "/tmp", strerror(errno));
    snprintf(w, sizeof w, "%s/witness.wtns", dir);
    snprintf(pj, sizeof pj, "%s/%s", dir, k->c.zkey ? "proof.json" : "proof.bin");
    snprintf(pub, sizeof pub, "%s/public.json", dir);
    cuzk_status st = CUZK_OK;
    FILE *f = fopen(w, "wb");
    if (!f || fwrite(wtns, 1, wtns_len, f) != wtns_len || fclose(f) != 0) {
        if (f) fclose(f);
        st = cuzk_error_set(err, CUZK_ERR_IO, __FILE__, __LINE__, "cannot write the witness to %s: %s", dir,
                            strerror(errno));
        goto out;
    }
    cuzk_prove_opts o;
    memset(&o, 0, sizeof o);
    o.nthreads = k->nthreads;
    o.backend = k->backend;
    o.r1cs_path = k->c.zkey ? k->c.r1cs : NULL;
    o.check_witness = k->c.r1cs != NULL;
    if (k->c.zkey)
        st = cuzk_prove_zkey_files(k->c.zkey, w, pj, pub, &o, NULL, err);
    else
        st = cuzk_prove_params_files(k->c.params, k->c.r1cs, w, pj, pub, &o, NULL, err);
    if (st) {
        scrub(err, w);
        goto out;
    }
    size_t len = 0;
    char *proof = slurp(pj, &len);
    out->public_json = slurp(pub, NULL);
    if (!proof || !out->public_json) {
        free(proof);
        st = cuzk_error_set(err, CUZK_ERR_IO, __FILE__, __LINE__, "cannot read the prover's output back");
        goto out;
    }
    if (k->c.zkey) {
        out->proof_json = proof;
    } else {
        out->proof = (uint8_t *)proof;
        out->proof_len = len;
    }
    if (*cancel) st = cuzk_error_set(err, CUZK_ERR_CANCELLED, __FILE__, __LINE__, "cancelled");
out:
    unlink(w);
    unlink(pj);
    unlink(pub);
    rmdir(dir);
    if (st) dp_proof_free(out);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    out->prove_ms = (t1.tv_sec - t0.tv_sec) * 1e3 + (t1.tv_nsec - t0.tv_nsec) / 1e6;
    return st;
}

void dp_proof_free(dp_proof *p) {
    free(p->proof);
    free(p->proof_json);
    free(p->public_json);
    memset(p, 0, sizeof *p);
}
