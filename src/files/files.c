/* The file API (include/cuzk/groth16.h: prove and verify from files, output checks, exit codes),
 * the `cuzk_files` layer above the core.
 *
 * Every call here reaches the core through its public in-memory API only (include/cuzk/prover.h:
 * cuzk_pk_load_*, cuzk_prove, cuzk_vk_load_*, cuzk_verify), which picks the curve of each file
 * itself; src/util supplies the output files (a temporary and a rename, outfile.h) and the clock.
 * tools/check-layers.sh holds it to that: src/files may include util/ and include/ only, and no
 * layer below includes it.
 *
 * What this layer adds to the in-memory API: reading the inputs (the witness is mapped, not
 * copied), refusing outputs that would clobber an input before any work, the witness matched to
 * the circuit before a large key is read, fixed r and s given as decimal or 0x-hex text, errors
 * that name the files (the in-memory API calls its inputs "<wtns in memory>" etc.: those names
 * are replaced by the paths), and outputs written only on success, both or neither.
 */
#include "cuzk/groth16.h"
#include "cuzk/prover.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/log.h"
#include "util/outfile.h"
#include "util/timer.h"

int cuzk_exit_code(cuzk_status st) {
    switch (st) {
    case CUZK_OK: return 0;
    case CUZK_ERR_INVALID: return 1;
    case CUZK_ERR_ARG: return 2;
    case CUZK_ERR_IO:
    case CUZK_ERR_FORMAT:
    case CUZK_ERR_CURVE:
    case CUZK_ERR_POINT:
    case CUZK_ERR_MISMATCH:
    case CUZK_ERR_UNSAT:
    case CUZK_ERR_UNSUPPORTED: return 3;
    case CUZK_ERR_NOMEM:
    case CUZK_ERR_NOMEM_DEVICE:
    case CUZK_ERR_DEVICE:
    case CUZK_ERR_RANDOM:
    case CUZK_ERR_CANCELLED:
    case CUZK_ERR_BUSY: return 4;
    }
    return 4;
}

/* Outputs go through a temporary and a rename (src/util/outfile.h): a failure never leaves a
 * partial output, and a signal handler can remove the temporaries in progress. */
void cuzk_remove_partial_outputs(void) { outfile_remove_partials(); }

cuzk_status cuzk_check_outputs(const char *const *ins, int n_in, const char *const *outs, int n_out, cuzk_error *err) {
    if ((n_in && !ins) || (n_out && !outs) || n_in < 0 || n_out < 0)
        return ERR(err, CUZK_ERR_ARG, "cuzk_check_outputs: NULL argument");
    return outfile_check_paths(ins, n_in, outs, n_out, err);
}

/* ---- inputs ------------------------------------------------------------------------------------ */
/* The in-memory API names its inputs with placeholders; every occurrence of `placeholder` in the
 * message becomes `path`. */
static void name_input(cuzk_error *err, const char *placeholder, const char *path) {
    if (!err || !path) return;
    for (int k = 0; k < 4; k++) {
        char *p = strstr(err->msg, placeholder);
        if (!p) return;
        char buf[sizeof err->msg];
        snprintf(buf, sizeof buf, "%.*s%s%s", (int)(p - err->msg), err->msg, path, p + strlen(placeholder));
        memcpy(err->msg, buf, sizeof buf);
    }
}

/* A failure that is about the file at path: its message names it (prefixed when it does not). */
static void own_input(cuzk_status st, cuzk_error *err, const char *path) {
    if (st == CUZK_OK || !err || !path || strstr(err->msg, path)) return;
    char m[2 * sizeof err->msg + 4200];
    size_t n = (size_t)snprintf(m, sizeof m, "%s: %s", path, err->msg);
    if (n >= sizeof err->msg) n = sizeof err->msg - 1;
    memcpy(err->msg, m, n);
    err->msg[n] = 0;
}

/* An input file's bytes: mapped read-only (a multi-GB witness is not copied), or for small text
 * files read into a NUL-terminated malloc'd buffer. Regular files only. */
typedef struct input {
    const uint8_t *data;
    size_t len;
    void *map;  /* munmap on free */
    char *heap; /* free on free */
} input;

static void input_free(input *in) {
    if (in->map) munmap(in->map, in->len);
    free(in->heap);
    memset(in, 0, sizeof *in);
}

static cuzk_status input_open(input *in, const char *path, bool text, cuzk_error *err) {
    memset(in, 0, sizeof *in);
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK); /* a FIFO: refused below, not waited on */
    if (fd < 0) return ERR(err, CUZK_ERR_IO, "%s: cannot open: %s", path, strerror(errno));
    struct stat st;
    if (fstat(fd, &st) != 0) {
        int e = errno;
        close(fd);
        return ERR(err, CUZK_ERR_IO, "%s: cannot stat: %s", path, strerror(e));
    }
    if (!S_ISREG(st.st_mode)) {
        close(fd);
        return ERR(err, CUZK_ERR_IO, "%s: not a regular file", path);
    }
    size_t n = (size_t)st.st_size;
    cuzk_status s = CUZK_OK;
    if (text) {
        in->heap = malloc(n + 1);
        if (!in->heap) s = ERR(err, CUZK_ERR_NOMEM, "%s: cannot allocate %zu bytes", path, n + 1);
        size_t got = 0;
        while (s == CUZK_OK && got < n) {
            ssize_t r = read(fd, in->heap + got, n - got);
            if (r < 0 && errno == EINTR) continue;
            if (r <= 0) s = ERR(err, CUZK_ERR_IO, "%s: cannot read: %s", path, r < 0 ? strerror(errno) : "file shrank");
            else got += (size_t)r;
        }
        if (s == CUZK_OK) {
            in->heap[n] = 0;
            in->data = (const uint8_t *)in->heap;
            in->len = n;
        }
    } else if (n == 0) {
        static const uint8_t empty[1];
        in->data = empty;
    } else {
        void *m = mmap(NULL, n, PROT_READ, MAP_PRIVATE, fd, 0);
        if (m == MAP_FAILED) /* ENOMEM: out of address space or memory, not I/O */
            s = ERR(err, errno == ENOMEM ? CUZK_ERR_NOMEM : CUZK_ERR_IO, "%s: cannot map %zu bytes: %s", path, n,
                    strerror(errno));
        else {
            in->map = m;
            in->data = m;
            in->len = n;
        }
    }
    close(fd);
    if (s != CUZK_OK) input_free(in);
    return s;
}

/* Fixed r or s: a decimal or 0x-hex integer below 2^256 into 32 bytes little-endian (the key's
 * prove checks it is below the group order r: CUZK_ERR_ARG otherwise, never reduced). */
static cuzk_status parse_scalar(uint8_t out[32], const char *s, const char *what, cuzk_error *err) {
    uint64_t l[4] = {0};
    const char *p = s;
    bool hex = p[0] == '0' && (p[1] == 'x' || p[1] == 'X');
    if (hex) p += 2;
    if (!*p) return ERR(err, CUZK_ERR_ARG, "%s: empty number", what);
    for (; *p; p++) {
        int d;
        if (*p >= '0' && *p <= '9') d = *p - '0';
        else if (hex && *p >= 'a' && *p <= 'f') d = *p - 'a' + 10;
        else if (hex && *p >= 'A' && *p <= 'F') d = *p - 'A' + 10;
        else return ERR(err, CUZK_ERR_ARG, "%s: '%s' is not a %s number", what, s, hex ? "hex" : "decimal");
        unsigned __int128 carry = (unsigned)d;
        for (int i = 0; i < 4; i++) {
            unsigned __int128 t = (unsigned __int128)l[i] * (hex ? 16 : 10) + carry;
            l[i] = (uint64_t)t;
            carry = t >> 64;
        }
        if (carry) return ERR(err, CUZK_ERR_ARG, "%s: '%s' is larger than 2^256 (it must be below the group order r)", what, s);
    }
    if (!(l[0] | l[1] | l[2] | l[3]))
        return ERR(err, CUZK_ERR_ARG, "%s: 0 is refused (the blinding must be nonzero, or the proof leaks the witness)", what);
    for (int i = 0; i < 32; i++) out[i] = (uint8_t)(l[i / 8] >> (8 * (i % 8)));
    return CUZK_OK;
}

/* ---- outputs ----------------------------------------------------------------------------------- */
/* n bytes into tmp (outfile_tmp_name of path); errors name path, the output the user asked for. */
static cuzk_status write_bytes(const char *tmp, const char *path, const void *b, size_t n, cuzk_error *err) {
    FILE *f = fopen(tmp, "wb");
    if (!f) return ERR(err, CUZK_ERR_IO, "cannot create %s: %s", path, strerror(errno));
    size_t w = fwrite(b, 1, n, f);
    int e = errno;
    if (fclose(f) != 0) e = errno;
    else if (w == n) return CUZK_OK;
    outfile_discard(tmp);
    return ERR(err, CUZK_ERR_IO, "cannot write %s: %s", path, strerror(e ? e : EIO));
}

/* The proof (text or bytes) and public.json text through temporaries, committed together: both
 * or neither (a failed second rename removes the first output again). */
static cuzk_status write_pair(const char *proof_path, const void *proof, size_t proof_len, const char *public_path,
                              const char *public_json, cuzk_error *err) {
    char tp[4200], tq[4200];
    outfile_tmp_name(tp, sizeof tp, proof_path);
    outfile_tmp_name(tq, sizeof tq, public_path);
    cuzk_status st = write_bytes(tp, proof_path, proof, proof_len, err);
    if (st == CUZK_OK) st = write_bytes(tq, public_path, public_json, strlen(public_json), err);
    if (st != CUZK_OK) {
        outfile_discard(tp);
        outfile_discard(tq);
        return st;
    }
    if ((st = outfile_commit(tp, proof_path, err)) != CUZK_OK) {
        outfile_discard(tq);
        return st;
    }
    if ((st = outfile_commit(tq, public_path, err)) != CUZK_OK) outfile_discard(proof_path);
    return st;
}

cuzk_status cuzk_write_outputs(const char *proof_path, const void *proof, size_t proof_len, const char *public_path,
                               const char *public_json, cuzk_error *err) {
    if (!proof_path || !proof || (public_path && !public_json)) return ERR(err, CUZK_ERR_ARG, "cuzk_write_outputs: NULL argument");
    if (!public_path) { /* the proof alone */
        char tp[4200];
        outfile_tmp_name(tp, sizeof tp, proof_path);
        cuzk_status st = write_bytes(tp, proof_path, proof, proof_len, err);
        if (st == CUZK_OK) st = outfile_commit(tp, proof_path, err);
        if (st != CUZK_OK) outfile_discard(tp);
        return st;
    }
    return write_pair(proof_path, proof, proof_len, public_path, public_json, err);
}

void cuzk_discard_output(const char *path) {
    if (path) outfile_discard(path);
}

/* ---- prove ------------------------------------------------------------------------------------- */
/* One proof of a loaded key from a mapped .wtns, through the in-memory API: a prover on the
 * requested backend (its creation is gpu_setup_ms on the GPU), cuzk_prove with fixed or random
 * r, s. The timings of the prove land in *tm (load_ms added to the file reading). */
static cuzk_status prove_loaded(cuzk_proof *proof, cuzk_pk *pk, const input *w, const char *wtns_path,
                                const cuzk_prove_opts *o, const uint8_t *r, const uint8_t *s, cuzk_prove_timings *tm,
                                cuzk_error *err) {
    cuzk_prover *pv = NULL;
    cuzk_prover_opts po = {0};
    cuzk_proof_opts pr = {0};
    po.backend = o->backend;
    po.nthreads = o->nthreads;
    po.msm = o->msm;
    pr.fixed_r = r;
    pr.fixed_s = s;
    pr.skip_self_verify = o->skip_self_verify;
    pr.check_witness = o->check_witness;
    double t0 = now_ms();
    cuzk_status st = cuzk_prover_create(&pv, pk, &po, err);
    if (st == CUZK_OK && !strcmp(cuzk_prover_backend_name(pv), "gpu")) tm->gpu_setup_ms = now_ms() - t0;
    if (st == CUZK_OK) {
        cuzk_prove_timings mt = {0};
        cuzk_witness wit = {CUZK_WITNESS_WTNS, w->data, w->len};
        st = cuzk_prove(pv, proof, &wit, &pr, &mt, err);
        name_input(err, "<wtns in memory>", wtns_path);
        /* the key is loaded: a bad format or curve here is the witness's */
        if (st == CUZK_ERR_FORMAT || st == CUZK_ERR_CURVE) own_input(st, err, wtns_path);
        tm->load_ms += mt.load_ms;
        tm->check_ms = mt.check_ms;
        tm->abc_ms = mt.abc_ms;
        tm->h_ms = mt.h_ms;
        tm->msm_a_ms = mt.msm_a_ms;
        tm->msm_b1_ms = mt.msm_b1_ms;
        tm->msm_b2_ms = mt.msm_b2_ms;
        tm->msm_l_ms = mt.msm_l_ms;
        tm->msm_h_ms = mt.msm_h_ms;
        tm->assemble_ms = mt.assemble_ms;
        tm->upload_ms = mt.upload_ms;
        tm->b2_overlapped = mt.b2_overlapped;
        tm->verify_ms = mt.verify_ms;
        tm->backend = mt.backend;
    }
    cuzk_prover_destroy(pv);
    return st;
}

/* What a prove failed on, in the command line's terms and naming the files: the in-memory API
 * speaks of check_witness, the command line of --check (and --r1cs for a zkey). key_path: the
 * zkey or .params; r1cs_path: the .r1cs (NULL for a zkey without --check). */
static cuzk_status file_prove_failure(cuzk_status st, cuzk_error *err, bool zkey, const char *key_path,
                                      const char *r1cs_path, const char *wtns_path) {
    if (st == CUZK_OK || !err) return st;
    char m[sizeof err->msg + 3 * 4200];
    if (st == CUZK_ERR_UNSAT && strstr(err->msg, "does not verify")) {
        if (zkey)
            snprintf(m, sizeof m, "the proof from %s does not verify against the key %s: the witness does not satisfy "
                     "the circuit, or the key is corrupt (use --check --r1cs FILE to find a failing constraint)",
                     wtns_path, key_path);
        else
            snprintf(m, sizeof m, "the proof from %s does not verify against the parameters %s: the witness does not "
                     "satisfy the circuit, or the parameters are corrupt or for another circuit (use --check to find a "
                     "failing constraint)", wtns_path, key_path);
    } else if (st == CUZK_ERR_UNSAT && r1cs_path && !strstr(err->msg, wtns_path)) {
        snprintf(m, sizeof m, "%s (checked against %s): %s", wtns_path, r1cs_path, err->msg);
    } else if (st == CUZK_ERR_MISMATCH && strstr(err->msg, "witness value 0") && !strstr(err->msg, wtns_path)) {
        snprintf(m, sizeof m, "%s: %s", wtns_path, err->msg);
    } else if (st == CUZK_ERR_MISMATCH && strstr(err->msg, "do not fit the circuit") && !strstr(err->msg, key_path)) {
        if (r1cs_path) snprintf(m, sizeof m, "%s and %s: %s", key_path, r1cs_path, err->msg);
        else snprintf(m, sizeof m, "%s: %s", key_path, err->msg);
    } else {
        return st;
    }
    ERR(err, st, "%s", m);
    return st;
}

/* What every prove call checks and reads before its key: paths, outputs, r and s, the witness
 * (mapped, its count and curve). */
typedef struct prove_in {
    uint8_t r[32], s[32];
    bool fixed;
    input w;
    size_t n_w;
    cuzk_curve w_curve;
} prove_in;

static cuzk_status prove_begin(prove_in *pi, const char *const *ins, int n_in, const char *const *outs, int n_out,
                               const char *wtns_path, const cuzk_prove_opts *o, cuzk_error *err) {
    cuzk_status st;
    memset(pi, 0, sizeof *pi);
    if ((st = cuzk_check_outputs(ins, n_in, outs, n_out, err)) != CUZK_OK) return st;
    if ((o->fixed_r != NULL) != (o->fixed_s != NULL)) return ERR(err, CUZK_ERR_ARG, "fixed r and s must be given together");
    if (o->fixed_r) {
        if ((st = parse_scalar(pi->r, o->fixed_r, "r", err)) != CUZK_OK) return st;
        if ((st = parse_scalar(pi->s, o->fixed_s, "s", err)) != CUZK_OK) return st;
        pi->fixed = true;
    }
    if ((st = input_open(&pi->w, wtns_path, false, err)) != CUZK_OK) return st;
    cuzk_witness wit = {CUZK_WITNESS_WTNS, pi->w.data, pi->w.len};
    st = cuzk_witness_count(&wit, &pi->n_w, &pi->w_curve, err);
    name_input(err, "<wtns in memory>", wtns_path);
    own_input(st, err, wtns_path);
    if (st != CUZK_OK) input_free(&pi->w);
    return st;
}

static void prove_end(prove_in *pi) {
    input_free(&pi->w);
    explicit_bzero(pi->r, sizeof pi->r);
    explicit_bzero(pi->s, sizeof pi->s);
}

static void key_counts(cuzk_prove_timings *tm, const cuzk_pk *pk) {
    cuzk_pk_info info;
    if (cuzk_pk_describe(pk, &info, NULL) != CUZK_OK) return;
    tm->n_vars = info.n_vars;
    tm->n_public = info.n_public;
    tm->domain_size = info.domain_size;
    tm->constraints = info.n_constraints;
}

cuzk_status cuzk_prove_zkey_files(const char *zkey_path, const char *wtns_path, const char *proof_json_path,
                                  const char *public_json_path, const cuzk_prove_opts *opts,
                                  cuzk_prove_timings *t, cuzk_error *err) {
    cuzk_prove_opts dflt = {0};
    const cuzk_prove_opts *o = opts ? opts : &dflt;
    cuzk_prove_timings tm = {0};
    double t_start = now_ms(), t0 = t_start, t1;
    cuzk_pk *pk = NULL;
    cuzk_proof proof = {0};
    prove_in pi;
    cuzk_status st;
    memset(&pi, 0, sizeof pi);
    if (!zkey_path || !wtns_path || !proof_json_path || !public_json_path)
        return ERR(err, CUZK_ERR_ARG, "prove: missing path");
    const char *ins[] = {zkey_path, wtns_path, o->r1cs_path}, *outs[] = {proof_json_path, public_json_path};
    if ((st = prove_begin(&pi, ins, 3, outs, 2, wtns_path, o, err)) != CUZK_OK) goto out;
    if (o->check_witness && !o->r1cs_path) {
        st = ERR(err, CUZK_ERR_ARG, "--check with a zkey needs the circuit's .r1cs (--r1cs FILE): the zkey does not store C");
        goto out;
    }
    {
        cuzk_pk_load_opts lo = {0};
        lo.nthreads = o->nthreads;
        lo.r1cs_path = o->check_witness ? o->r1cs_path : NULL;
        if ((st = cuzk_pk_load_zkey(&pk, zkey_path, &lo, err)) != CUZK_OK) {
            if (st == CUZK_ERR_MISMATCH) {
                /* "the r1cs (N wires, P public) does not belong to the zkey (...)" */
                name_input(err, "the r1cs", o->r1cs_path);
                name_input(err, "the zkey", zkey_path);
            }
            goto out;
        }
    }
    key_counts(&tm, pk);
    t1 = now_ms(); tm.load_ms = t1 - t0; t0 = t1;
    if (pi.n_w != tm.n_vars) {
        /* a witness of another curve is named by the prove below (CUZK_ERR_CURVE) */
        cuzk_pk_info info;
        cuzk_pk_describe(pk, &info, NULL);
        if (pi.w_curve == info.curve) {
            st = ERR(err, CUZK_ERR_MISMATCH, "%s has %zu witness values but %s expects %u (wrong witness for this circuit?)",
                     wtns_path, pi.n_w, zkey_path, tm.n_vars);
            goto out;
        }
    }
    st = file_prove_failure(prove_loaded(&proof, pk, &pi.w, wtns_path, o, pi.fixed ? pi.r : NULL, pi.fixed ? pi.s : NULL,
                                         &tm, err), err, true, zkey_path, o->check_witness ? o->r1cs_path : NULL, wtns_path);
    t0 = now_ms();
    if (st != CUZK_OK) goto out;
    st = write_pair(proof_json_path, proof.proof_json, proof.proof_json_len, public_json_path, proof.public_json, err);
    t1 = now_ms(); tm.write_ms = t1 - t0; t0 = t1;
out:
    cuzk_proof_free(&proof);
    cuzk_pk_release(pk);
    prove_end(&pi);
    t1 = now_ms();
    tm.free_ms = t1 - t0;
    tm.total_ms = t1 - t_start;
    if (t) *t = tm;
    return st;
}

cuzk_status cuzk_prove_params_files(const char *params_path, const char *r1cs_path, const char *wtns_path,
                                    const char *proof_bin_path, const char *public_json_path,
                                    const cuzk_prove_opts *opts, cuzk_prove_timings *t, cuzk_error *err) {
    cuzk_prove_opts dflt = {0};
    const cuzk_prove_opts *o = opts ? opts : &dflt;
    cuzk_prove_timings tm = {0};
    double t_start = now_ms(), t0 = t_start, t1;
    cuzk_pk *pk = NULL;
    cuzk_proof proof = {0};
    prove_in pi;
    cuzk_status st;
    memset(&pi, 0, sizeof pi);
    if (!params_path || !r1cs_path || !wtns_path || !proof_bin_path || !public_json_path)
        return ERR(err, CUZK_ERR_ARG, "prove: missing path");
    const char *ins[] = {params_path, r1cs_path, wtns_path}, *outs[] = {proof_bin_path, public_json_path, o->proof_json_path};
    if ((st = prove_begin(&pi, ins, 3, outs, o->proof_json_path ? 3 : 2, wtns_path, o, err)) != CUZK_OK) goto out;
    if (pi.w_curve != CUZK_CURVE_BLS12_381) {
        st = ERR(err, CUZK_ERR_CURVE, "%s is a %s witness; the bellperson flavour is BLS12-381 only (bn128 circuits prove "
                 "from a .zkey)", wtns_path, pi.w_curve == CUZK_CURVE_BN254 ? "bn128 (BN254)" : cuzk_curve_name(pi.w_curve));
        goto out;
    }
    {
        /* the witness is matched to the circuit before the (large) parameters are read */
        cuzk_pk_load_opts lo = {0};
        lo.curve = CUZK_CURVE_BLS12_381;
        lo.check = o->params_check;
        lo.nthreads = o->nthreads;
        lo.progress = o->progress;
        lo.progress_user = o->progress_user;
        lo.expect_n_vars = pi.n_w;
        if ((st = cuzk_pk_load_params(&pk, params_path, r1cs_path, &lo, err)) != CUZK_OK) {
            if (st == CUZK_ERR_MISMATCH) name_input(err, "the witness", wtns_path);
            if (st == CUZK_ERR_CURVE && err && strstr(err->msg, "the file is for bn128"))
                ERR(err, st, "the bellperson flavour: %s is a bn128 (BN254) file; the bellperson flavour is BLS12-381 "
                    "only (bn128 circuits prove from a .zkey)", r1cs_path);
            goto out;
        }
    }
    key_counts(&tm, pk);
    t1 = now_ms(); tm.load_ms = t1 - t0; t0 = t1;
    st = file_prove_failure(prove_loaded(&proof, pk, &pi.w, wtns_path, o, pi.fixed ? pi.r : NULL, pi.fixed ? pi.s : NULL,
                                         &tm, err), err, false, params_path, r1cs_path, wtns_path);
    t0 = now_ms();
    if (st != CUZK_OK) goto out;
    if (o->proof_json_path) {
        /* the JSON first, committed after the pair: all three outputs or none */
        char tj[4200];
        outfile_tmp_name(tj, sizeof tj, o->proof_json_path);
        if ((st = write_bytes(tj, o->proof_json_path, proof.proof_json, proof.proof_json_len, err)) != CUZK_OK) {
            outfile_discard(tj);
            goto out;
        }
        st = write_pair(proof_bin_path, proof.bellperson, sizeof proof.bellperson, public_json_path, proof.public_json, err);
        if (st == CUZK_OK && (st = outfile_commit(tj, o->proof_json_path, err)) != CUZK_OK) {
            outfile_discard(proof_bin_path);
            outfile_discard(public_json_path);
        }
        if (st != CUZK_OK) outfile_discard(tj);
    } else {
        st = write_pair(proof_bin_path, proof.bellperson, sizeof proof.bellperson, public_json_path, proof.public_json, err);
    }
    t1 = now_ms(); tm.write_ms = t1 - t0; t0 = t1;
out:
    cuzk_proof_free(&proof);
    cuzk_pk_release(pk);
    prove_end(&pi);
    t1 = now_ms();
    tm.free_ms = t1 - t0;
    tm.total_ms = t1 - t_start;
    if (t) *t = tm;
    return st;
}

/* ---- verify ------------------------------------------------------------------------------------ */
/* cuzk_verify of opened inputs, its errors naming the files: public.json (and the proof JSON when
 * proof_json_path is set; a binary proof's errors name no file of their own), and for a
 * public-input count mismatch (detail CUZK_DETAIL_PUBLIC_COUNT, kept) public.json and the key. */
static cuzk_status verify_inputs(const cuzk_vk *vk, const input *pub_in, const char *public_json_path, cuzk_proof_form pf,
                                 const input *proof_in, const char *proof_json_path, const char *vk_path, cuzk_error *err) {
    cuzk_status st = cuzk_verify(vk, CUZK_PUBLIC_JSON, pub_in->data, pub_in->len, pf, proof_in->data, proof_in->len, err);
    name_input(err, "<public.json in memory>", public_json_path);
    if (proof_json_path) name_input(err, "<proof.json in memory>", proof_json_path);
    if (st == CUZK_ERR_MISMATCH && err && err->detail == CUZK_DETAIL_PUBLIC_COUNT) {
        char m[sizeof err->msg + 3 * 4200];
        snprintf(m, sizeof m, "%s: %s (%s)", public_json_path, err->msg, vk_path);
        ERR(err, st, "%s", m);
        err->detail = CUZK_DETAIL_PUBLIC_COUNT;
    }
    return st;
}

cuzk_status cuzk_verify_json_files(const char *vk_json_path, const char *public_json_path,
                                   const char *proof_json_path, cuzk_error *err) {
    input vk_in = {0}, pub_in = {0}, proof_in = {0};
    cuzk_vk *vk = NULL;
    cuzk_status st;
    if (!vk_json_path || !public_json_path || !proof_json_path) return ERR(err, CUZK_ERR_ARG, "verify: missing path");
    if ((st = input_open(&vk_in, vk_json_path, true, err)) != CUZK_OK) goto out;
    st = cuzk_vk_load_json(&vk, (const char *)vk_in.data, vk_in.len, err);
    name_input(err, "<verification_key.json in memory>", vk_json_path);
    own_input(st, err, vk_json_path);
    if (st != CUZK_OK) goto out;
    if ((st = input_open(&pub_in, public_json_path, true, err)) != CUZK_OK) goto out;
    if ((st = input_open(&proof_in, proof_json_path, true, err)) != CUZK_OK) goto out;
    st = verify_inputs(vk, &pub_in, public_json_path, CUZK_PROOF_SNARKJS_JSON, &proof_in, proof_json_path, vk_json_path, err);
out:
    cuzk_vk_free(vk);
    input_free(&vk_in);
    input_free(&pub_in);
    input_free(&proof_in);
    return st;
}

/* ---- the verification key of a key file ------------------------------------------------------- */
/* A bellperson verifying key at the start of f: alpha_g1, beta_g1, beta_g2, gamma_g2, delta_g1,
 * delta_g2 (uncompressed G1 96 bytes, G2 192), a big-endian u32 count, that many IC points of 96
 * bytes. A .vk is exactly that; .params and phase-2 MPC parameters begin with it: only those bytes
 * are read. *buf is malloc'd. */
static cuzk_status read_bellperson_vk(FILE *f, const char *path, uint64_t file_size, uint8_t **buf, size_t *len,
                                      cuzk_error *err) {
    enum { HEAD = 96 + 96 + 192 + 192 + 96 + 192 };
    uint8_t h[HEAD + 4];
    *buf = NULL;
    *len = 0;
    rewind(f);
    if (fread(h, 1, sizeof h, f) != sizeof h)
        return ERR(err, CUZK_ERR_FORMAT, "%s: neither a .zkey (no \"zkey\" magic) nor a bellperson .vk: too short for a "
                   "verification key", path);
    const uint64_t n_ic = (uint64_t)h[HEAD] << 24 | (uint64_t)h[HEAD + 1] << 16 | (uint64_t)h[HEAD + 2] << 8 | h[HEAD + 3];
    const uint64_t need = sizeof h + 96 * n_ic;
    if (n_ic == 0 || need > file_size)
        return ERR(err, CUZK_ERR_FORMAT, "%s: neither a .zkey (no \"zkey\" magic) nor a bellperson .vk: its IC count %llu %s",
                   path, (unsigned long long)n_ic, n_ic ? "runs past the end of the file" : "is zero");
    uint8_t *b = malloc((size_t)need);
    if (!b) return ERR(err, CUZK_ERR_NOMEM, "%s: cannot allocate %llu bytes for the verification key", path, (unsigned long long)need);
    memcpy(b, h, sizeof h);
    if (fread(b + sizeof h, 1, (size_t)(need - sizeof h), f) != need - sizeof h) {
        const bool io = ferror(f) != 0;
        free(b);
        return ERR(err, io ? CUZK_ERR_IO : CUZK_ERR_FORMAT, "%s: %s", path, io ? "read error" : "truncated verification key");
    }
    *buf = b;
    *len = (size_t)need;
    return CUZK_OK;
}

cuzk_status cuzk_vk_load_key_file(cuzk_vk **out, const char *key_path, cuzk_error *err) {
    if (out) *out = NULL;
    if (!out || !key_path) return ERR(err, CUZK_ERR_ARG, "cuzk_vk_load_key_file: NULL argument");
    /* a regular file: a FIFO or device would block or never end; a directory is named */
    struct stat sb;
    if (stat(key_path, &sb) != 0) return ERR(err, CUZK_ERR_IO, "%s: %s", key_path, strerror(errno));
    if (S_ISDIR(sb.st_mode)) return ERR(err, CUZK_ERR_IO, "%s: is a directory, not a key file", key_path);
    if (!S_ISREG(sb.st_mode)) return ERR(err, CUZK_ERR_IO, "%s: not a regular file", key_path);
    FILE *f = fopen(key_path, "rb");
    if (!f) return ERR(err, CUZK_ERR_IO, "%s: %s", key_path, strerror(errno));
    char magic[4] = {0};
    const bool got = fread(magic, 1, 4, f) == 4;
    if (got && !memcmp(magic, "zkey", 4)) {
        fclose(f);
        return cuzk_vk_load_zkey(out, key_path, err);
    }
    if (got && (!memcmp(magic, "r1cs", 4) || !memcmp(magic, "wtns", 4))) {
        fclose(f);
        return ERR(err, CUZK_ERR_FORMAT, "%s: is a .%.4s file, not a key: give the circuit's .zkey or bellperson .vk",
                   key_path, magic);
    }
    uint8_t *buf = NULL;
    size_t len = 0;
    cuzk_status st = read_bellperson_vk(f, key_path, (uint64_t)sb.st_size, &buf, &len, err);
    fclose(f);
    if (st != CUZK_OK) return st;
    st = cuzk_vk_load_bellperson(out, buf, len, err);
    free(buf);
    if (st != CUZK_OK && st != CUZK_ERR_NOMEM && err) {
        static const char ph[] = "bellperson vk <in memory>: ";
        const char *why = strncmp(err->msg, ph, sizeof ph - 1) ? err->msg : err->msg + sizeof ph - 1;
        char m[sizeof err->msg];
        snprintf(m, sizeof m, "%s", why);
        ERR(err, st, "%s: neither a .zkey (no \"zkey\" magic) nor a bellperson .vk: %s", key_path, m);
    }
    return st;
}

cuzk_status cuzk_verify_bellperson_files(const char *vk_path, const char *public_json_path,
                                         const char *proof_bin_path, cuzk_error *err) {
    input vk_in = {0}, pub_in = {0}, proof_in = {0};
    cuzk_vk *vk = NULL;
    cuzk_status st;
    if (!vk_path || !public_json_path || !proof_bin_path) return ERR(err, CUZK_ERR_ARG, "verify: missing path");
    if ((st = input_open(&vk_in, vk_path, false, err)) != CUZK_OK) goto out;
    st = cuzk_vk_load_bellperson(&vk, vk_in.data, vk_in.len, err);
    name_input(err, "bellperson vk <in memory>", vk_path);
    own_input(st, err, vk_path);
    if (st != CUZK_OK) goto out;
    if ((st = input_open(&pub_in, public_json_path, true, err)) != CUZK_OK) goto out;
    {
        struct stat sb;
        if (stat(proof_bin_path, &sb) == 0 && S_ISDIR(sb.st_mode)) {
            st = ERR(err, CUZK_ERR_IO, "%s is a directory, not a proof file", proof_bin_path);
            goto out;
        }
    }
    if ((st = input_open(&proof_in, proof_bin_path, false, err)) != CUZK_OK) goto out;
    if (proof_in.len != CUZK_PROOF_BELLPERSON_BYTES) {
        st = ERR(err, CUZK_ERR_FORMAT, "%s: a bellperson proof is exactly 192 bytes (got %zu)", proof_bin_path, proof_in.len);
        goto out;
    }
    st = verify_inputs(vk, &pub_in, public_json_path, CUZK_PROOF_BELLPERSON, &proof_in, NULL, vk_path, err);
out:
    cuzk_vk_free(vk);
    input_free(&vk_in);
    input_free(&pub_in);
    input_free(&proof_in);
    return st;
}
