/* File-to-file Groth16 API (include/cuzk/groth16.h) on top of the CPU prover. */
#include "cuzk/groth16.h"
#include "cuzk/prover.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "groth16/backend.h"
#include "groth16/groth16.h"
#include "groth16/setup.h"
#include "r1cs/synthetic.h"
#include "util/parallel.h"
#include "util/sysmem.h"
#include "util/log.h"
#include "util/outfile.h"
#include "util/timer.h"

/* Compiled once per curve (CMakeLists.txt, CUZK_CURVE_GENERIC_SRC): the BN254 compile keeps the
 * snarkjs file functions (prove from .zkey + .wtns, verify proof.json); the BLS12-381 compile holds
 * the public functions and hands BN254 files to it. The bellperson flavour and setup are
 * BLS12-381 only and say so when given BN254 files. */
#ifndef CUZK_CURVE_BOUND_BN254
#include "formats/curve_sniff.h"
#include "groth16/curve_dispatch.h"

static cuzk_status bls_only(const char *what, const char *path, cuzk_error *err) {
    return ERR(err, CUZK_ERR_CURVE,
               "%s: %s is a bn128 (BN254) file; %s is BLS12-381 only (bn128 circuits prove from a .zkey)", what, path,
               what);
}
#endif

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

/* Parse a decimal or 0x-hex integer; it must be < r (no silent reduction). */
static cuzk_status parse_scalar(fr *out, const char *s, const char *what, cuzk_error *err) {
    uint64_t l[4] = {0};
    const char *p = s;
    bool any = false;
    if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
        p += 2;
        for (; *p; p++) {
            int dgt;
            if (*p >= '0' && *p <= '9') dgt = *p - '0';
            else if (*p >= 'a' && *p <= 'f') dgt = *p - 'a' + 10;
            else if (*p >= 'A' && *p <= 'F') dgt = *p - 'A' + 10;
            else return ERR(err, CUZK_ERR_ARG, "%s: '%s' is not a hex number", what, s);
            if (l[3] >> 60) return ERR(err, CUZK_ERR_ARG, "%s: '%s' is larger than 2^256", what, s);
            for (int i = 3; i > 0; i--) l[i] = (l[i] << 4) | (l[i - 1] >> 60);
            l[0] = (l[0] << 4) | (uint64_t)dgt;
            any = true;
        }
    } else {
        if (!decimal_to_limbs(l, 4, s, fr_MODULUS))
            return ERR(err, CUZK_ERR_ARG, "%s: '%s' is not a decimal number below the group order r", what, s);
        any = true;
    }
    if (!any) return ERR(err, CUZK_ERR_ARG, "%s: empty number", what);
    if (!fr_is_canon(l)) return ERR(err, CUZK_ERR_ARG, "%s: '%s' is not below the group order r", what, s);
    fr_from_canon(out, l);
    return CUZK_OK;
}

/* Outputs go through a temporary and a rename (src/util/outfile.h): a failure never leaves a
 * partial output, and a signal handler can remove the temporaries in progress. */
void cuzk_remove_partial_outputs(void) { outfile_remove_partials(); }

/* Two outputs are committed together: if the second rename fails, the first is removed again,
 * so a failed call leaves neither. */
static cuzk_status commit_pair(const char *t1, const char *p1, const char *t2, const char *p2, cuzk_error *err) {
    cuzk_status st = outfile_commit(t1, p1, err);
    if (st != CUZK_OK) { outfile_discard(t2); return st; }
    if ((st = outfile_commit(t2, p2, err)) != CUZK_OK) outfile_discard(p1);
    return st;
}

/* Output paths must differ from each other and from every input, and must not be directories:
 * checked before any work so that a typo never overwrites a key or a witness. */
static bool same_file(const char *a, const char *b) {
    struct stat sa, sb;
    if (!strcmp(a, b)) return true;
    return stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}
cuzk_status cuzk_check_outputs(const char *const *ins, int n_in, const char *const *outs, int n_out, cuzk_error *err) {
    for (int i = 0; i < n_out; i++) {
        struct stat st;
        if (stat(outs[i], &st) == 0 && S_ISDIR(st.st_mode))
            return ERR(err, CUZK_ERR_ARG, "output %s is a directory", outs[i]);
        for (int j = 0; j < n_in; j++)
            if (ins[j] && same_file(outs[i], ins[j]))
                return ERR(err, CUZK_ERR_ARG, "output %s is also an input: refusing to overwrite it", outs[i]);
        for (int j = 0; j < i; j++)
            if (same_file(outs[i], outs[j]) && !outfile_is_special(outs[i]))
                return ERR(err, CUZK_ERR_ARG, "the two outputs are the same file (%s)", outs[i]);
        /* the directory must exist and be writable now, not after minutes of work */
        char dir[4200];
        snprintf(dir, sizeof dir, "%s", outs[i]);
        char *slash = strrchr(dir, '/');
        if (slash == dir) dir[1] = 0;
        else if (slash) *slash = 0;
        else snprintf(dir, sizeof dir, ".");
        if (access(dir, W_OK) != 0) {
            int e = errno; /* is_special_file's stat must not replace the reason */
            if (!outfile_is_special(outs[i]))
                return ERR(err, CUZK_ERR_IO, "cannot write %s: %s (directory %s)", outs[i], strerror(e), dir);
        }
    }
    return CUZK_OK;
}

static cuzk_status write_bytes(const char *path, const uint8_t *b, size_t n, cuzk_error *err) {
    FILE *f = fopen(path, "wb");
    if (!f) return ERR(err, CUZK_ERR_IO, "cannot create %s: %s", path, strerror(errno));
    size_t w = fwrite(b, 1, n, f);
    int e = fclose(f);
    if (w != n || e != 0) {
        outfile_discard(path);
        return ERR(err, CUZK_ERR_IO, "cannot write %s: %s", path, strerror(errno));
    }
    return CUZK_OK;
}

/* Writes the proof (text or bytes) and public.json text to their paths through temporaries:
 * both or neither. */
static cuzk_status write_pair(const char *proof_path, const void *proof, size_t proof_len, const char *public_path,
                              const char *public_json, cuzk_error *err) {
    char tp[4200], tq[4200];
    outfile_tmp_name(tp, sizeof tp, proof_path);
    outfile_tmp_name(tq, sizeof tq, public_path);
    cuzk_status st = write_bytes(tp, proof, proof_len, err);
    if (st != CUZK_OK) { outfile_discard(tp); return st; }
    st = write_bytes(tq, (const uint8_t *)public_json, strlen(public_json), err);
    if (st != CUZK_OK) { outfile_discard(tp); outfile_discard(tq); return st; }
    return commit_pair(tp, proof_path, tq, public_path, err);
}

/* The stage timings of the in-memory prove (include/cuzk/prover.h) into the file API's. */
static void merge_timings(cuzk_prove_timings *t, const cuzk_prove_timings *m) {
    t->abc_ms = m->abc_ms;
    t->h_ms = m->h_ms;
    t->msm_a_ms = m->msm_a_ms;
    t->msm_b1_ms = m->msm_b1_ms;
    t->msm_b2_ms = m->msm_b2_ms;
    t->msm_l_ms = m->msm_l_ms;
    t->msm_h_ms = m->msm_h_ms;
    t->assemble_ms = m->assemble_ms;
    t->upload_ms = m->upload_ms;
    t->b2_overlapped = m->b2_overlapped;
    t->verify_ms = m->verify_ms;
    t->backend = m->backend;
}

/* One proof of a loaded key with a loaded witness, through the in-memory API: a prover on the
 * requested backend (its creation is gpu_setup_ms on the GPU), cuzk_prove with fixed or random
 * r, s. */
static cuzk_status prove_loaded(cuzk_proof *proof, cuzk_pk *pk, const wtns *w, const cuzk_prove_opts *o, int check,
                                cuzk_prove_timings *tm, cuzk_error *err) {
    cuzk_prover *pv = NULL;
    cuzk_prover_opts po = {0};
    cuzk_proof_opts pr = {0};
    uint8_t rb[32], sb[32];
    fr r, s;
    cuzk_status st;
    if ((o->fixed_r != NULL) != (o->fixed_s != NULL)) return ERR(err, CUZK_ERR_ARG, "fixed r and s must be given together");
    if (o->fixed_r) {
        if ((st = parse_scalar(&r, o->fixed_r, "r", err)) != CUZK_OK) return st;
        if ((st = parse_scalar(&s, o->fixed_s, "s", err)) != CUZK_OK) return st;
        fr_to_bytes_le(rb, 32, &r);
        fr_to_bytes_le(sb, 32, &s);
        pr.fixed_r = rb;
        pr.fixed_s = sb;
    }
    pr.skip_self_verify = o->skip_self_verify;
    pr.check_witness = check;
    po.backend = o->backend;
    po.nthreads = o->nthreads;
    po.msm = o->msm;
    double t0 = now_ms();
    st = cuzk_prover_create(&pv, pk, &po, err);
    if (st == CUZK_OK && !strcmp(cuzk_prover_backend_name(pv), "gpu")) tm->gpu_setup_ms = now_ms() - t0;
    if (st == CUZK_OK) {
        cuzk_prove_timings mt = {0};
        cuzk_witness wit = {CUZK_WITNESS_FR_MONT, w->w, (size_t)w->n * sizeof(fr)};
        st = cuzk_prove(pv, proof, &wit, &pr, &mt, err);
        merge_timings(tm, &mt);
        if (check) tm->check_ms = mt.check_ms;
    }
    cuzk_prover_destroy(pv);
    explicit_bzero(&r, sizeof r);
    explicit_bzero(&s, sizeof s);
    explicit_bzero(rb, sizeof rb);
    explicit_bzero(sb, sizeof sb);
    return st;
}

/* Names what a prove failed on in the command line's terms: the in-memory API speaks of
 * check_witness, the command line of --check (and --r1cs for a zkey). */
static cuzk_status file_unsat_hint(cuzk_status st, cuzk_error *err, bool zkey) {
    if (st == CUZK_ERR_UNSAT && err && strstr(err->msg, "does not verify"))
        ERR(err, CUZK_ERR_UNSAT, "%s",
            zkey ? "the proof does not verify against the key: the witness does not satisfy the circuit, or the key "
                   "is corrupt (use --check --r1cs FILE to find a failing constraint)"
                 : "the proof does not verify against the parameters: the witness does not satisfy the circuit, or the "
                   "parameters are corrupt or for another circuit (use --check to find a failing constraint)");
    return st;
}

/* A witness check against the circuit, for the file API (messages name the files). */
static cuzk_status check_witness_file(cuzk_prove_timings *tm, const r1cs *cs, const wtns *w, cuzk_error *err) {
    double t0 = now_ms();
    uint32_t bad;
    cuzk_status st = r1cs_check_witness(cs, w->w, w->n, &bad, err);
    tm->check_ms = now_ms() - t0;
    return st;
}

cuzk_status cuzk_prove_zkey_files(const char *zkey_path, const char *wtns_path, const char *proof_json_path,
                                  const char *public_json_path, const cuzk_prove_opts *opts,
                                  cuzk_prove_timings *t, cuzk_error *err) {
    cuzk_prove_opts dflt = {0};
    const cuzk_prove_opts *o = opts ? opts : &dflt;
    cuzk_prove_timings tm = {0};
    double t_start = now_ms(), t0 = t_start, t1;
    cuzk_pk *pk = NULL;
    wtns w = {0};
    r1cs cs = {0};
    cuzk_proof proof = {0};
    cuzk_status st;
    if (!zkey_path || !wtns_path || !proof_json_path || !public_json_path)
        return ERR(err, CUZK_ERR_ARG, "prove: missing path");
#ifndef CUZK_CURVE_BOUND_BN254
    if (curve_sniff_iden3_file(zkey_path) == CUZK_CURVE_BN254)
        return bn254_cuzk_prove_zkey_files(zkey_path, wtns_path, proof_json_path, public_json_path, opts, t, err);
#endif
    {
        const char *ins[] = {zkey_path, wtns_path, o->r1cs_path}, *outs[] = {proof_json_path, public_json_path};
        if ((st = cuzk_check_outputs(ins, 3, outs, 2, err)) != CUZK_OK) return st;
    }
    if ((o->fixed_r != NULL) != (o->fixed_s != NULL)) return ERR(err, CUZK_ERR_ARG, "fixed r and s must be given together");
    {
        cuzk_pk_load_opts lo = {0};
        lo.nthreads = o->nthreads;
        if ((st = cuzk_pk_load_zkey(&pk, zkey_path, &lo, err)) != CUZK_OK) goto out;
    }
    if ((st = wtns_load(&w, wtns_path, err)) != CUZK_OK) goto out;
    cuzk_pk_info info;
    cuzk_pk_describe(pk, &info, NULL);
    if (w.n != info.n_vars) {
        st = ERR(err, CUZK_ERR_MISMATCH, "%s has %u witness values but %s expects %u (wrong witness for this circuit?)",
                 wtns_path, w.n, zkey_path, info.n_vars);
        goto out;
    }
    tm.n_vars = info.n_vars;
    tm.n_public = info.n_public;
    tm.domain_size = info.domain_size;
    tm.constraints = info.n_constraints;
    t1 = now_ms(); tm.load_ms = t1 - t0; t0 = t1;
    if (o->check_witness) {
        if (!o->r1cs_path) {
            st = ERR(err, CUZK_ERR_ARG, "--check with a zkey needs the circuit's .r1cs (--r1cs FILE): the zkey does not store C");
            goto out;
        }
        if ((st = r1cs_load(&cs, o->r1cs_path, err)) != CUZK_OK) goto out;
        if (cs.n_vars != info.n_vars || cs.n_public != info.n_public) {
            st = ERR(err, CUZK_ERR_MISMATCH, "%s (%u wires, %u public) does not belong to %s (%u wires, %u public)",
                     o->r1cs_path, cs.n_vars, cs.n_public, zkey_path, info.n_vars, info.n_public);
            goto out;
        }
        tm.constraints = cs.n_constraints;
        if ((st = check_witness_file(&tm, &cs, &w, err)) != CUZK_OK) goto out;
        t0 = now_ms();
    }
    st = file_unsat_hint(prove_loaded(&proof, pk, &w, o, 0, &tm, err), err, true);
    t0 = now_ms();
    if (st != CUZK_OK) goto out;
    st = write_pair(proof_json_path, proof.proof_json, proof.proof_json_len, public_json_path, proof.public_json, err);
    t1 = now_ms(); tm.write_ms = t1 - t0; t0 = t1;
out:
    cuzk_proof_free(&proof);
    cuzk_pk_release(pk);
    wtns_free(&w);
    r1cs_free(&cs);
    t1 = now_ms();
    tm.free_ms = t1 - t0;
    tm.total_ms = t1 - t_start;
    if (t) *t = tm;
    return st;
}

#ifndef CUZK_CURVE_BOUND_BN254
cuzk_status cuzk_prove_params_files(const char *params_path, const char *r1cs_path, const char *wtns_path,
                                    const char *proof_bin_path, const char *public_json_path,
                                    const cuzk_prove_opts *opts, cuzk_prove_timings *t, cuzk_error *err) {
    cuzk_prove_opts dflt = {0};
    const cuzk_prove_opts *o = opts ? opts : &dflt;
    cuzk_prove_timings tm = {0};
    double t_start = now_ms(), t0 = t_start, t1;
    cuzk_pk *pk = NULL;
    wtns w = {0};
    cuzk_proof proof = {0};
    cuzk_status st;
    if (!params_path || !r1cs_path || !wtns_path || !proof_bin_path || !public_json_path)
        return ERR(err, CUZK_ERR_ARG, "prove: missing path");
    {
        const char *ins[] = {params_path, r1cs_path, wtns_path}, *outs[] = {proof_bin_path, public_json_path};
        if ((st = cuzk_check_outputs(ins, 3, outs, 2, err)) != CUZK_OK) return st;
    }
    if ((o->fixed_r != NULL) != (o->fixed_s != NULL)) return ERR(err, CUZK_ERR_ARG, "fixed r and s must be given together");
    if (curve_sniff_iden3_file(r1cs_path) == CUZK_CURVE_BN254) return bls_only("the bellperson flavour", r1cs_path, err);
    {
        /* the witness is matched to the circuit before the (large) parameters are read */
        r1cs cs = {0};
        if ((st = r1cs_load(&cs, r1cs_path, err)) != CUZK_OK) goto out;
        uint32_t n_vars = cs.n_vars;
        r1cs_free(&cs);
        if ((st = wtns_load(&w, wtns_path, err)) != CUZK_OK) goto out;
        if (w.n != n_vars) {
            st = ERR(err, CUZK_ERR_MISMATCH, "%s has %u witness values but %s has %u wires (wrong witness for this circuit?)",
                     wtns_path, w.n, r1cs_path, n_vars);
            goto out;
        }
    }
    {
        cuzk_pk_load_opts lo = {0};
        lo.check = o->params_check;
        lo.nthreads = o->nthreads;
        lo.progress = o->progress;
        lo.progress_user = o->progress_user;
        if ((st = cuzk_pk_load_params(&pk, params_path, r1cs_path, &lo, err)) != CUZK_OK) goto out;
    }
    cuzk_pk_info info;
    cuzk_pk_describe(pk, &info, NULL);
    tm.n_vars = info.n_vars;
    tm.n_public = info.n_public;
    tm.constraints = info.n_constraints;
    tm.domain_size = info.domain_size;
    t1 = now_ms(); tm.load_ms = t1 - t0; t0 = t1;
    st = file_unsat_hint(prove_loaded(&proof, pk, &w, o, o->check_witness, &tm, err), err, false);
    t0 = now_ms();
    if (st != CUZK_OK) goto out;
    st = write_pair(proof_bin_path, proof.bellperson, sizeof proof.bellperson, public_json_path, proof.public_json, err);
    t1 = now_ms(); tm.write_ms = t1 - t0; t0 = t1;
out:
    cuzk_proof_free(&proof);
    cuzk_pk_release(pk);
    wtns_free(&w);
    t1 = now_ms();
    tm.free_ms = t1 - t0;
    tm.total_ms = t1 - t_start;
    if (t) *t = tm;
    return st;
}
#endif

cuzk_status cuzk_verify_json_files(const char *vk_json_path, const char *public_json_path,
                                   const char *proof_json_path, cuzk_error *err) {
    groth16_vk vk = {0};
    groth16_proof p;
    fr *pub = NULL;
    size_t n_pub = 0;
    cuzk_status st;
#ifndef CUZK_CURVE_BOUND_BN254
    if (curve_sniff_json_file(vk_json_path) == CUZK_CURVE_BN254)
        return bn254_cuzk_verify_json_files(vk_json_path, public_json_path, proof_json_path, err);
#endif
    if ((st = vk_json_read(&vk, vk_json_path, err)) != CUZK_OK) goto out;
    if ((st = public_json_read(&pub, &n_pub, public_json_path, err)) != CUZK_OK) goto out;
    if ((st = proof_json_read(&p, proof_json_path, err)) != CUZK_OK) {
        /* a proof whose points are off the curve is an invalid proof, not a bad file */
        if (st == CUZK_ERR_POINT) st = CUZK_ERR_INVALID;
        goto out;
    }
    st = groth16_verify(&vk, pub, n_pub, &p, err);
out:
    free(pub);
    groth16_vk_free(&vk);
    return st;
}

#ifndef CUZK_CURVE_BOUND_BN254
cuzk_status cuzk_verify_bellperson_files(const char *vk_path, const char *public_json_path,
                                         const char *proof_bin_path, cuzk_error *err) {
    groth16_vk vk = {0};
    groth16_proof p;
    fr *pub = NULL;
    size_t n_pub = 0;
    uint8_t bytes[BELLPERSON_PROOF_BYTES + 1];
    cuzk_status st;
    FILE *f = NULL;
    if ((st = bellperson_vk_load(&vk, vk_path, err)) != CUZK_OK) goto out;
    if ((st = public_json_read(&pub, &n_pub, public_json_path, err)) != CUZK_OK) goto out;
    {
        struct stat sb;
        if (stat(proof_bin_path, &sb) == 0 && S_ISDIR(sb.st_mode)) {
            st = ERR(err, CUZK_ERR_IO, "%s is a directory, not a proof file", proof_bin_path);
            goto out;
        }
    }
    f = fopen(proof_bin_path, "rb");
    if (!f) { st = ERR(err, CUZK_ERR_IO, "cannot open %s: %s", proof_bin_path, strerror(errno)); goto out; }
    size_t got = fread(bytes, 1, sizeof bytes, f);
    if (got != BELLPERSON_PROOF_BYTES) {
        st = ERR(err, CUZK_ERR_FORMAT, "%s: a bellperson proof is exactly 192 bytes (got %s%zu)", proof_bin_path,
                 got > BELLPERSON_PROOF_BYTES ? "more than " : "", got > BELLPERSON_PROOF_BYTES ? (size_t)192 : got);
        goto out;
    }
    if ((st = bellperson_proof_decode(&p, bytes, err)) != CUZK_OK) {
        if (st == CUZK_ERR_POINT) st = CUZK_ERR_INVALID;
        goto out;
    }
    st = groth16_verify(&vk, pub, n_pub, &p, err);
out:
    if (f) fclose(f);
    free(pub);
    groth16_vk_free(&vk);
    return st;
}

/* ---- setup ------------------------------------------------------------------------------- */

void cuzk_setup_opts_init(cuzk_setup_opts *o) {
    memset(o, 0, sizeof *o);
    synthetic_params sp;
    synthetic_params_default(&sp, 8);
    o->synth_public = sp.n_public;
    o->synth_frac01 = sp.frac01;
    o->synth_seed = sp.seed;
}

static uint64_t peak_rss_bytes(void) {
    FILE *f = fopen("/proc/self/status", "r");
    if (!f) return 0;
    char line[256];
    uint64_t v = 0;
    while (fgets(line, sizeof line, f))
        if (!strncmp(line, "VmHWM:", 6)) { v = (uint64_t)strtoull(line + 6, NULL, 10) * 1024; break; }
    fclose(f);
    return v;
}

#define SETUP_MAX_DOMAIN ((uint64_t)1 << 28)

cuzk_status cuzk_setup(const char *r1cs_path, const char *params_path, const char *vk_path,
                       const cuzk_setup_opts *opts, cuzk_setup_timings *t, cuzk_error *err) {
    cuzk_setup_opts dflt;
    if (!opts) {
        cuzk_setup_opts_init(&dflt);
        opts = &dflt;
    }
    cuzk_setup_timings tm = {0};
    double t_start = now_ms(), t0;
    r1cs cs = {0};
    groth16_toxic tw;
    groth16_params_file_sink *fs = NULL;
    groth16_params_sink sink;
    char tp[4200] = "", tv[4200] = "", tz[4200] = "";
    bool wrote = false;
    cuzk_status st;
    memset(&tw, 0, sizeof tw);
    groth16_setup_run run = {opts->nthreads > 0 ? opts->nthreads : cuzk_num_threads(), opts->progress,
                             opts->progress_user, &tm, 0, GROTH16_BACKEND_CPU};
    tm.backend = "cpu";

    if (!params_path || !vk_path) { st = ERR(err, CUZK_ERR_ARG, "setup: missing output path"); goto done; }
    bool synth = opts->circuit == CUZK_SETUP_SYNTHETIC_POREP;
    if (opts->circuit != CUZK_SETUP_R1CS && !synth) {
        st = ERR(err, CUZK_ERR_ARG, "setup: unknown circuit kind %d", (int)opts->circuit);
        goto done;
    }
    if (!synth && !r1cs_path) { st = ERR(err, CUZK_ERR_ARG, "setup: missing circuit.r1cs"); goto done; }
    if (!synth && curve_sniff_iden3_file(r1cs_path) == CUZK_CURVE_BN254) {
        st = bls_only("setup", r1cs_path, err);
        goto done;
    }
    if (synth && r1cs_path) {
        st = ERR(err, CUZK_ERR_ARG, "setup: give either an .r1cs file or a synthetic circuit, not both");
        goto done;
    }
    if (synth) {
        uint64_t rows = (uint64_t)opts->synth_constraints + opts->synth_public + 1;
        if (opts->synth_constraints < 8) {
            st = ERR(err, CUZK_ERR_ARG, "setup: the synthetic circuit needs at least 8 constraints (got %u)",
                     opts->synth_constraints);
            goto done;
        }
        if (rows > SETUP_MAX_DOMAIN) {
            st = ERR(err, CUZK_ERR_ARG,
                     "setup: %u constraints + %u public inputs + 1 = %llu rows exceed the largest domain 2^28 "
                     "(at most %llu constraints with %u public inputs)",
                     opts->synth_constraints, opts->synth_public, (unsigned long long)rows,
                     (unsigned long long)(SETUP_MAX_DOMAIN - opts->synth_public - 1), opts->synth_public);
            goto done;
        }
        if (!(opts->synth_frac01 >= 0 && opts->synth_frac01 <= 1)) {
            st = ERR(err, CUZK_ERR_ARG, "setup: --frac01 must be between 0 and 1 (got %g)", opts->synth_frac01);
            goto done;
        }
    }
    {
        const char *ins[] = {r1cs_path}, *outs[] = {params_path, vk_path, opts->zkey_path};
        if ((st = cuzk_check_outputs(ins, 1, outs, opts->zkey_path ? 3 : 2, err)) != CUZK_OK) goto done;
    }
    groth16_backend be;
    if ((st = groth16_backend_resolve(opts->backend, &be, err)) != CUZK_OK) goto done;
    run.backend = be;
    tm.backend = groth16_backend_name(be);
    outfile_tmp_name(tp, sizeof tp, params_path);
    outfile_tmp_name(tv, sizeof tv, vk_path);
    if (opts->zkey_path) outfile_tmp_name(tz, sizeof tz, opts->zkey_path);

    /* the circuit */
    t0 = now_ms();
    if (run.progress) run.progress(run.progress_user, "circuit", 0, 1);
    if (synth) {
        /* peak of setup at 2^27: ~285 bytes per constraint. The model of bench/RESULTS.md
         * section 8 (57.5 GB, ~440 B per constraint, with one Fr per nonzero) with the circuit at
         * 68.8 instead of 225.6 bytes per row (dictionary-coded coefficients, src/r1cs/r1cs.h;
         * measured at 2^22): 57.5 - 29.3 + 8.9 = 37.1 GB; not yet measured at 2^27 */
        double need = 285.0 * opts->synth_constraints, avail = sysmem_available_bytes();
        if (avail > 0 && need > avail) {
            st = ERR(err, CUZK_ERR_NOMEM, "setup: %u constraints need about %.1f GiB of host memory, %.1f GiB are available",
                     opts->synth_constraints, need / 1073741824.0, avail / 1073741824.0);
            goto done;
        }
        synthetic_params sp;
        synthetic_params_default(&sp, opts->synth_constraints);
        sp.n_public = opts->synth_public;
        sp.frac01 = opts->synth_frac01;
        sp.seed = opts->synth_seed;
        if ((st = synthetic_r1cs(&cs, &sp, err)) != CUZK_OK) goto done;
    } else if ((st = r1cs_load(&cs, r1cs_path, err)) != CUZK_OK) {
        goto done;
    }
    if (run.progress) run.progress(run.progress_user, "circuit", 1, 1);
    groth16_setup_stage_add(&tm, "circuit", now_ms() - t0);
    tm.n_constraints = cs.n_constraints;
    tm.n_vars = cs.n_vars;
    tm.n_public = cs.n_public;
    {
        uint64_t n = (uint64_t)cs.n_constraints + cs.n_public + 1, m = 1;
        while (m < n) m <<= 1;
        tm.domain_size = m > UINT32_MAX ? 0 : (uint32_t)m;
    }

    if ((st = groth16_toxic_draw(&tw, opts->seed, err)) != CUZK_OK) goto done;
    wrote = true;
    if ((st = groth16_params_file_sink_open(&fs, &sink, tp, tv, &run, err)) != CUZK_OK) goto done;
    st = groth16_setup_params(&cs, &tw, &sink, &run, err);
    {
        cuzk_status cst = groth16_params_file_sink_close(fs, &tm.params_bytes, &tm.vk_bytes, st == CUZK_OK ? err : NULL);
        if (st == CUZK_OK) st = cst;
    }
    if (st != CUZK_OK) goto done;
    if (opts->zkey_path && (st = groth16_setup_zkey(&cs, &tw, tz, &tm.zkey_bytes, &run, err)) != CUZK_OK) goto done;

    /* all outputs or none */
    if ((st = outfile_commit(tp, params_path, err)) != CUZK_OK) goto done;
    if ((st = outfile_commit(tv, vk_path, err)) != CUZK_OK) { outfile_discard(params_path); goto done; }
    if (opts->zkey_path && (st = outfile_commit(tz, opts->zkey_path, err)) != CUZK_OK) {
        outfile_discard(params_path);
        outfile_discard(vk_path);
        goto done;
    }
    wrote = false;
done:
    /* temporaries left (failure) are removed and forgotten; committed ones are gone already */
    (void)wrote;
    if (tp[0]) outfile_discard(tp);
    if (tv[0]) outfile_discard(tv);
    if (opts && opts->zkey_path && tz[0]) outfile_discard(tz);
    groth16_toxic_wipe(&tw);
    t0 = now_ms();
    r1cs_free(&cs);
    groth16_setup_stage_add(&tm, "free", now_ms() - t0);
    tm.total_ms = now_ms() - t_start;
    tm.peak_rss_bytes = peak_rss_bytes();
    if (t) *t = tm;
    return st;
}

cuzk_status cuzk_setup_files(const char *r1cs_path, const char *params_path, const char *vk_path,
                             const uint64_t *seed, int nthreads, cuzk_error *err) {
    cuzk_setup_opts o;
    cuzk_setup_opts_init(&o);
    o.seed = seed;
    o.nthreads = nthreads;
    return cuzk_setup(r1cs_path, params_path, vk_path, &o, NULL, err);
}

cuzk_status cuzk_describe_file(char *buf, size_t cap, const char *path, cuzk_error *err) {
    return file_describe(buf, cap, path, err);
}

cuzk_status cuzk_describe_file_checked(char *buf, size_t cap, const char *path, cuzk_check_level level, int nthreads,
                                       cuzk_progress_fn progress, void *progress_user, cuzk_error *err) {
    if (level == CUZK_CHECK_NONE) return file_describe(buf, cap, path, err);
    bellperson_load_opts lo = {0};
    lo.check = level;
    lo.nthreads = nthreads;
    lo.progress = progress;
    lo.progress_user = progress_user;
    return file_describe_ex(buf, cap, path, &lo, err);
}
#endif

