/* snarkjs .wtns reader and writer (FORMATS.md section 2) of one curve: a template, instantiated per
 * curve (src/formats/formats_<curve>.c); every curve-dependent name is CN(name). */
#include "formats/fmt_util.h"
#include "formats/iden3.h"
#include "formats/snarkjs.h"
#include "util/log.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pthread.h>

#include "util/parallel.h"

static cuzk_status wtns_parse(CN(wtns) *w, uint32_t *count, const uint8_t **values, const mapped_file *f,
                              cuzk_error *err);


cuzk_status CN(wtns_load)(CN(wtns) *w, const char *path, cuzk_error *err) {
    mapped_file f;
    cuzk_status st;
    memset(w, 0, sizeof *w);
    if ((st = mapped_file_open(&f, path, err))) return st;
    st = wtns_parse(w, NULL, NULL, &f, err);
    mapped_file_close(&f);
    return st;
}

cuzk_status CN(wtns_load_mem)(CN(wtns) *w, const uint8_t *data, size_t size, const char *name, cuzk_error *err) {
    mapped_file f;
    memset(w, 0, sizeof *w);
    if (!data && size) return ERR(err, CUZK_ERR_ARG, "wtns: NULL data");
    mapped_file_borrow(&f, data, size, name);
    cuzk_status st = wtns_parse(w, NULL, NULL, &f, err);
    mapped_file_close(&f);
    return st;
}

cuzk_status CN(wtns_count_mem)(uint32_t *n, const uint8_t *data, size_t size, const char *name, cuzk_error *err) {
    mapped_file f;
    *n = 0;
    if (!data && size) return ERR(err, CUZK_ERR_ARG, "wtns: NULL data");
    mapped_file_borrow(&f, data, size, name);
    cuzk_status st = wtns_parse(NULL, n, NULL, &f, err);
    mapped_file_close(&f);
    return st;
}

/* n values of 32 canonical little-endian bytes each (vals) -> out (4 limbs each): Montgomery
 * (mont) or canonical limbs, on nthreads threads (<= 0: default); chunks of the range run in
 * parallel. CUZK_ERR_FORMAT names the first value >= r (out is then partly written). */
typedef struct {
    const uint8_t *vals;
    uint64_t *out;
    bool mont;
    uint32_t bad; /* the lowest value index >= r, UINT32_MAX if none (under mu) */
    pthread_mutex_t mu;
} CN(wtns_conv);

static void CN(wtns_conv_run)(void *vctx, size_t begin, size_t end, int tid) {
    (void)tid;
    CN(wtns_conv) *x = vctx;
    for (size_t i = begin; i < end; i++) {
        const uint8_t *b = x->vals + i * 32;
        uint64_t *o = x->out + 4 * i, t[4];
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
        memcpy(t, b, 32); /* the file's little-endian limbs as they are */
#else
        for (int l = 0; l < 4; l++) {
            uint64_t v = 0;
            for (int k = 7; k >= 0; k--) v = v << 8 | b[8 * l + k];
            t[l] = v;
        }
#endif
        const bool ok = CN(fr_is_canon)(t);
        if (ok && x->mont) CN(fr_from_canon)((CN(fr) *)o, t);
        else if (ok) memcpy(o, t, sizeof t);
        if (!ok) {
            pthread_mutex_lock(&x->mu);
            if (i < x->bad) x->bad = (uint32_t)i;
            pthread_mutex_unlock(&x->mu);
            return; /* the chunk's first bad value; a lower one elsewhere wins */
        }
    }
}

static cuzk_status wtns_values(const uint8_t *vals, uint32_t n, uint64_t *out, bool mont, int nthreads, const char *path,
                               cuzk_error *err) {
    CN(wtns_conv) x = {vals, out, mont, UINT32_MAX, PTHREAD_MUTEX_INITIALIZER};
    /* one thread below 2^14 values: a thread's start costs more than it saves */
    parallel_for(n, n < (1u << 14) ? 1 : nthreads, CN(wtns_conv_run), &x);
    pthread_mutex_destroy(&x.mu);
    if (x.bad != UINT32_MAX)
        return ERR(err, CUZK_ERR_FORMAT, "wtns: %s: witness value %u is not canonical (>= r)", path, x.bad);
    return CUZK_OK;
}

/* Parses into w; with w NULL checks the layout only (prime, sizes; values not read) and gives
 * the value count in *count, and with values non-NULL where the values lie (*values). */
static cuzk_status wtns_parse(CN(wtns) *w, uint32_t *count, const uint8_t **values, const mapped_file *f,
                              cuzk_error *err) {
    const char *path = f->path;
    iden3_file t;
    byte_cursor c;
    cuzk_status st;
    if ((st = iden3_parse(&t, f, "wtns", 2, "wtns", err))) goto out;

    /* section 1: u32 n8, prime, u32 nWitness */
    if ((st = iden3_section_open(&c, &t, f, 1, "wtns", err))) goto out;
    uint32_t n8, n;
    const uint8_t *prime, *vals;
    if (!cursor_u32le(&c, &n8)) { st = ERR(err, CUZK_ERR_FORMAT, "wtns: %s: section 1 truncated", path); goto out; }
    if (n8 == 0 || n8 % 8 != 0 || n8 > 64) {
        st = ERR(err, CUZK_ERR_FORMAT, "wtns: %s: field element size n8 = %u is not valid", path, n8);
        goto out;
    }
    if (!cursor_take(&c, n8, &prime) || !cursor_u32le(&c, &n)) {
        st = ERR(err, CUZK_ERR_FORMAT, "wtns: %s: section 1 truncated", path);
        goto out;
    }
    if ((st = iden3_check_prime(prime, n8, CURVE_PRIME_R, "wtns", path, err))) goto out;
    if (c.left != 0) {
        st = ERR(err, CUZK_ERR_FORMAT, "wtns: %s: section 1 has %zu extra bytes", path, c.left);
        goto out;
    }
    /* section 2: n values */
    if ((st = iden3_section_open(&c, &t, f, 2, "wtns", err))) goto out;
    if (c.left != (uint64_t)n * 32) {
        st = ERR(err, CUZK_ERR_FORMAT, "wtns: %s: section 2 is %zu bytes, %u values need %llu", path, c.left, n,
                 (unsigned long long)n * 32);
        goto out;
    }
    if (n == 0) { st = ERR(err, CUZK_ERR_FORMAT, "wtns: %s: empty witness (w[0] = 1 missing)", path); goto out; }
    cursor_take(&c, (size_t)n * 32, &vals);
    if (!w) { /* wtns_count_mem; wtns_convert_mem takes the values where they are */
        *count = n;
        if (values) *values = vals;
        goto out;
    }
    CN(fr) *v = fmt_aligned_array(n, sizeof(CN(fr)));
    if (!v) { st = ERR(err, CUZK_ERR_NOMEM, "wtns: %s: cannot allocate %u values", path, n); goto out; }
    if ((st = wtns_values(vals, n, (uint64_t *)v, true, 0, path, err)) != CUZK_OK) {
        free(v);
        goto out;
    }
    w->n = n;
    w->w = v;
out:
    return st;
}

cuzk_status CN(wtns_convert_mem)(const uint8_t *data, size_t size, const char *name, uint64_t *out, size_t n_out,
                                 bool mont, int nthreads, uint32_t *n, cuzk_error *err) {
    mapped_file f;
    const uint8_t *vals = NULL;
    uint32_t cnt = 0;
    if (n) *n = 0;
    if ((!data && size) || !out) return ERR(err, CUZK_ERR_ARG, "wtns: NULL data or output");
    mapped_file_borrow(&f, data, size, name);
    cuzk_status st = wtns_parse(NULL, &cnt, &vals, &f, err);
    if (st == CUZK_OK && n) *n = cnt;
    if (st == CUZK_OK && cnt != n_out)
        st = ERR(err, CUZK_ERR_MISMATCH, "the witness has %u values but the circuit has %zu variables", cnt, n_out);
    if (st == CUZK_OK) st = wtns_values(vals, cnt, out, mont, nthreads, f.path, err);
    mapped_file_close(&f);
    return st;
}

void CN(wtns_free)(CN(wtns) *w) {
    if (!w) return;
    free(w->w);
    memset(w, 0, sizeof *w);
}

static void wtns_put_u32(uint8_t *p, uint32_t v) { for (int i = 0; i < 4; i++) p[i] = (uint8_t)(v >> (8 * i)); }
static void wtns_put_u64(uint8_t *p, uint64_t v) { for (int i = 0; i < 8; i++) p[i] = (uint8_t)(v >> (8 * i)); }

cuzk_status CN(wtns_write)(const char *path, const CN(fr) *w, uint32_t n, cuzk_error *err) {
    if (!path || (!w && n)) return ERR(err, CUZK_ERR_ARG, "wtns_write: NULL argument");
    FILE *f = fopen(path, "wb");
    if (!f) return ERR(err, CUZK_ERR_IO, "wtns: cannot create %s: %s", path, strerror(errno));
    const uint64_t *r = CN(fr_MODULUS);
    uint8_t hdr[12 + 12 + 40 + 12];
    memcpy(hdr, "wtns", 4);
    wtns_put_u32(hdr + 4, 2);
    wtns_put_u32(hdr + 8, 2);
    wtns_put_u32(hdr + 12, 1);
    wtns_put_u64(hdr + 16, 40);
    wtns_put_u32(hdr + 24, 32);
    for (int i = 0; i < 32; i++) hdr[28 + i] = (uint8_t)(r[i / 8] >> (8 * (i % 8)));
    wtns_put_u32(hdr + 60, n);
    wtns_put_u32(hdr + 64, 2);
    wtns_put_u64(hdr + 68, (uint64_t)n * 32);
    bool ok = fwrite(hdr, 1, sizeof hdr, f) == sizeof hdr;
    uint8_t buf[32 * 256];
    for (uint32_t i = 0; ok && i < n;) {
        uint32_t k = 0;
        for (; k < 256 && i < n; k++, i++) CN(fr_to_bytes_le)(buf + 32 * k, 32, &w[i]);
        ok = fwrite(buf, 32, k, f) == k;
    }
    int e = errno;
    if (fclose(f) != 0) { ok = false; e = errno; }
    if (!ok) {
        errno = e;
        return ERR(err, CUZK_ERR_IO, "wtns: writing %s failed: %s", path, strerror(e));
    }
    return CUZK_OK;
}
