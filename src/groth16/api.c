/* File-to-file Groth16 API (include/cuzk/groth16.h) on top of the CPU prover. */
#include "cuzk/groth16.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "groth16/backend.h"
#include "groth16/gpu_prover.h"
#include "groth16/groth16.h"
#include "groth16/setup.h"
#include "r1cs/synthetic.h"
#include "util/parallel.h"
#include "util/sysmem.h"
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

/* r and s: fixed when given (tests), else uniform from the OS RNG. */
static cuzk_status get_rs(fr *r, fr *s, const cuzk_prove_opts *o, cuzk_error *err) {
    cuzk_status st;
    if ((o->fixed_r != NULL) != (o->fixed_s != NULL))
        return ERR(err, CUZK_ERR_ARG, "fixed r and s must be given together");
    if (o->fixed_r) {
        if ((st = parse_scalar(r, o->fixed_r, "r", err)) != CUZK_OK) return st;
        return parse_scalar(s, o->fixed_s, "s", err);
    }
    if ((st = groth16_random_fr(r, err)) != CUZK_OK) return st;
    return groth16_random_fr(s, err);
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

static void copy_timings(cuzk_prove_timings *t, const groth16_timings *g) {
    t->abc_ms = g->abc_ms;
    t->h_ms = g->h_ms;
    t->msm_a_ms = g->msm_a_ms;
    t->msm_b1_ms = g->msm_b1_ms;
    t->msm_b2_ms = g->msm_b2_ms;
    t->msm_l_ms = g->msm_l_ms;
    t->msm_h_ms = g->msm_h_ms;
    t->assemble_ms = g->assemble_ms;
    t->upload_ms = g->upload_ms;
}

/* Writes proof.json and public.json (w[1..n_public]) atomically: both or neither. */
static cuzk_status write_json_outputs(const char *proof_path, const char *public_path, const groth16_proof *p,
                                      const fr *pub, size_t n_pub, cuzk_error *err) {
    char tp[4200], tq[4200];
    outfile_tmp_name(tp, sizeof tp, proof_path);
    outfile_tmp_name(tq, sizeof tq, public_path);
    cuzk_status st = proof_json_write(tp, p, err);
    if (st != CUZK_OK) { outfile_discard(tp); return st; }
    st = public_json_write(tq, pub, n_pub, err);
    if (st != CUZK_OK) { outfile_discard(tp); outfile_discard(tq); return st; }
    return commit_pair(tp, proof_path, tq, public_path, err);
}

cuzk_status cuzk_prove_zkey_files(const char *zkey_path, const char *wtns_path, const char *proof_json_path,
                                  const char *public_json_path, const cuzk_prove_opts *opts,
                                  cuzk_prove_timings *t, cuzk_error *err) {
    cuzk_prove_opts dflt = {0};
    const cuzk_prove_opts *o = opts ? opts : &dflt;
    cuzk_prove_timings tm = {0};
    double t_start = now_ms(), t0 = t_start, t1;
    zkey z = {0};
    wtns w = {0};
    r1cs cs = {0};
    fr r, s;
    cuzk_status st;
    if (!zkey_path || !wtns_path || !proof_json_path || !public_json_path)
        return ERR(err, CUZK_ERR_ARG, "prove: missing path");
    {
        const char *ins[] = {zkey_path, wtns_path, o->r1cs_path}, *outs[] = {proof_json_path, public_json_path};
        if ((st = cuzk_check_outputs(ins, 3, outs, 2, err)) != CUZK_OK) return st;
    }
    groth16_backend be;
    if ((st = groth16_backend_resolve(o->backend, &be, err)) != CUZK_OK) return st;
    groth16_backend_set(be);
    tm.backend = groth16_backend_name(be);
    if ((st = get_rs(&r, &s, o, err)) != CUZK_OK) return st;
    if ((st = zkey_load(&z, zkey_path, false, err)) != CUZK_OK) goto out;
    if ((st = wtns_load(&w, wtns_path, err)) != CUZK_OK) goto out;
    if (w.n != z.n_vars) {
        st = ERR(err, CUZK_ERR_MISMATCH, "%s has %u witness values but %s expects %u (wrong witness for this circuit?)",
                 wtns_path, w.n, zkey_path, z.n_vars);
        goto out;
    }
    tm.n_vars = z.n_vars;
    tm.n_public = z.n_public;
    tm.domain_size = z.domain_size;
    tm.constraints = z.n_constraints;
    t1 = now_ms(); tm.load_ms = t1 - t0; t0 = t1;
    if (o->check_witness) {
        if (!o->r1cs_path) {
            st = ERR(err, CUZK_ERR_ARG, "--check with a zkey needs the circuit's .r1cs (--r1cs FILE): the zkey does not store C");
            goto out;
        }
        if ((st = r1cs_load(&cs, o->r1cs_path, err)) != CUZK_OK) goto out;
        if (cs.n_vars != z.n_vars || cs.n_public != z.n_public) {
            st = ERR(err, CUZK_ERR_MISMATCH, "%s (%u wires, %u public) does not belong to %s (%u wires, %u public)",
                     o->r1cs_path, cs.n_vars, cs.n_public, zkey_path, z.n_vars, z.n_public);
            goto out;
        }
        uint32_t bad;
        if ((st = r1cs_check_witness(&cs, w.w, w.n, &bad, err)) != CUZK_OK) goto out;
        tm.constraints = cs.n_constraints;
        t1 = now_ms(); tm.check_ms = t1 - t0; t0 = t1;
    }
    groth16_proof proof;
    groth16_timings gt;
    st = groth16_prove_zkey(&proof, &z, w.w, w.n, &r, &s, o->nthreads, &gt, err);
    copy_timings(&tm, &gt);
    t0 = now_ms();
    if (st != CUZK_OK) goto out;
    if (!o->skip_self_verify) {
        groth16_vk vk = {.alpha1 = z.alpha1, .beta1 = z.beta1, .beta2 = z.beta2, .gamma2 = z.gamma2,
                         .delta1 = z.delta1, .delta2 = z.delta2, .n_public = z.n_public, .ic = z.ic};
        cuzk_error verr = {0};
        if (groth16_verify(&vk, w.w + 1, z.n_public, &proof, &verr) != CUZK_OK) {
            st = ERR(err, CUZK_ERR_UNSAT,
                     "the proof does not verify against the key: the witness does not satisfy the circuit, or the "
                     "key is corrupt (use --check --r1cs FILE to find a failing constraint)");
            goto out;
        }
        t1 = now_ms(); tm.verify_ms = t1 - t0; t0 = t1;
    }
    st = write_json_outputs(proof_json_path, public_json_path, &proof, w.w + 1, z.n_public, err);
    t1 = now_ms(); tm.write_ms = t1 - t0; t0 = t1;
out:
    explicit_bzero(&r, sizeof r);
    explicit_bzero(&s, sizeof s);
    zkey_free(&z);
    wtns_free(&w);
    r1cs_free(&cs);
    t1 = now_ms();
    tm.free_ms = t1 - t0;
    tm.total_ms = t1 - t_start;
    if (t) *t = tm;
    return st;
}

/* One bellperson proof on a freshly made GPU prover (src/groth16/gpu_prover.h). *setup_ms: the
 * time to make the prover (uploads). */
static cuzk_status prove_bellperson_gpu(groth16_proof *proof, const bellperson_params *p, const r1cs *cs, const fr *w,
                                        size_t n_w, const fr *r, const fr *s, int nthreads, groth16_timings *gt,
                                        double *setup_ms, cuzk_error *err) {
    groth16_gpu_prover *gp = NULL;
    groth16_pending *pend = NULL;
    groth16_timings ts = {0}, tf = {0};
    double t0 = now_ms();
    cuzk_status st = groth16_gpu_prover_create(&gp, p, cs, 0, err);
    *setup_ms = now_ms() - t0;
    if (st == CUZK_OK) st = groth16_gpu_prove_start(&pend, gp, w, n_w, r, s, nthreads, NULL, NULL, &ts, err);
    if (st == CUZK_OK) st = groth16_prove_bellperson_finish(proof, pend, nthreads, &tf, err);
    groth16_pending_free(pend);
    groth16_gpu_prover_destroy(gp);
    *gt = ts;
    gt->msm_b2_ms = tf.msm_b2_ms;
    gt->b2_wait_ms = tf.b2_wait_ms;
    gt->assemble_ms = tf.assemble_ms;
    gt->total_ms = ts.total_ms + tf.total_ms;
    return st;
}

cuzk_status cuzk_prove_params_files(const char *params_path, const char *r1cs_path, const char *wtns_path,
                                    const char *proof_bin_path, const char *public_json_path,
                                    const cuzk_prove_opts *opts, cuzk_prove_timings *t, cuzk_error *err) {
    cuzk_prove_opts dflt = {0};
    const cuzk_prove_opts *o = opts ? opts : &dflt;
    cuzk_prove_timings tm = {0};
    double t_start = now_ms(), t0 = t_start, t1;
    bellperson_params p = {0};
    r1cs cs = {0};
    wtns w = {0};
    fr r, s;
    cuzk_status st;
    if (!params_path || !r1cs_path || !wtns_path || !proof_bin_path || !public_json_path)
        return ERR(err, CUZK_ERR_ARG, "prove: missing path");
    {
        const char *ins[] = {params_path, r1cs_path, wtns_path}, *outs[] = {proof_bin_path, public_json_path};
        if ((st = cuzk_check_outputs(ins, 3, outs, 2, err)) != CUZK_OK) return st;
    }
    groth16_backend be;
    if ((st = groth16_backend_resolve(o->backend, &be, err)) != CUZK_OK) return st;
    groth16_backend_set(be);
    tm.backend = groth16_backend_name(be);
    if ((st = get_rs(&r, &s, o, err)) != CUZK_OK) return st;
    if ((st = r1cs_load(&cs, r1cs_path, err)) != CUZK_OK) goto out;
    if ((st = wtns_load(&w, wtns_path, err)) != CUZK_OK) goto out;
    if (w.n != cs.n_vars) {
        st = ERR(err, CUZK_ERR_MISMATCH, "%s has %u witness values but %s has %u wires (wrong witness for this circuit?)",
                 wtns_path, w.n, r1cs_path, cs.n_vars);
        goto out;
    }
    {
        bellperson_load_opts lo = {0};
        lo.check = o->params_check;
        lo.nthreads = o->nthreads;
        lo.progress = o->progress;
        lo.progress_user = o->progress_user;
        if ((st = bellperson_params_load_ex(&p, params_path, &lo, err)) != CUZK_OK) goto out;
    }
    tm.n_vars = cs.n_vars;
    tm.n_public = cs.n_public;
    tm.constraints = cs.n_constraints;
    tm.domain_size = p.n_h + 1;
    t1 = now_ms(); tm.load_ms = t1 - t0; t0 = t1;
    if (o->check_witness) {
        uint32_t bad;
        if ((st = r1cs_check_witness(&cs, w.w, w.n, &bad, err)) != CUZK_OK) goto out;
        t1 = now_ms(); tm.check_ms = t1 - t0; t0 = t1;
    }
    groth16_proof proof;
    groth16_timings gt;
    if (be == GROTH16_BACKEND_GPU) {
        /* the resident GPU prover: SRS G1 queries and matrices to the device once, a/b/c, H and the
         * G1 MSMs there, B_G2 on CPU threads meanwhile */
        st = prove_bellperson_gpu(&proof, &p, &cs, w.w, w.n, &r, &s, o->nthreads, &gt, &tm.gpu_setup_ms, err);
        tm.b2_overlapped = 1;
    } else {
        st = groth16_prove_bellperson(&proof, &p, &cs, w.w, w.n, &r, &s, o->nthreads, &gt, err);
    }
    copy_timings(&tm, &gt);
    t0 = now_ms();
    if (st != CUZK_OK) goto out;
    if (!o->skip_self_verify) {
        cuzk_error verr = {0};
        if (groth16_verify(&p.vk, w.w + 1, cs.n_public, &proof, &verr) != CUZK_OK) {
            st = ERR(err, CUZK_ERR_UNSAT,
                     "the proof does not verify against the parameters: the witness does not satisfy the "
                     "circuit, or the parameters are corrupt or for another circuit (use --check to find a failing constraint)");
            goto out;
        }
        t1 = now_ms(); tm.verify_ms = t1 - t0; t0 = t1;
    }
    {
        uint8_t bytes[BELLPERSON_PROOF_BYTES];
        bellperson_proof_encode(bytes, &proof);
        char tp[4200], tq[4200];
        outfile_tmp_name(tp, sizeof tp, proof_bin_path);
        outfile_tmp_name(tq, sizeof tq, public_json_path);
        if ((st = write_bytes(tp, bytes, sizeof bytes, err)) != CUZK_OK) goto out;
        if ((st = public_json_write(tq, w.w + 1, cs.n_public, err)) != CUZK_OK) { outfile_discard(tp); outfile_discard(tq); goto out; }
        st = commit_pair(tp, proof_bin_path, tq, public_json_path, err);
    }
    t1 = now_ms(); tm.write_ms = t1 - t0; t0 = t1;
out:
    explicit_bzero(&r, sizeof r);
    explicit_bzero(&s, sizeof s);
    bellperson_params_free(&p);
    r1cs_free(&cs);
    wtns_free(&w);
    t1 = now_ms();
    tm.free_ms = t1 - t0;
    tm.total_ms = t1 - t_start;
    if (t) *t = tm;
    return st;
}

cuzk_status cuzk_verify_json_files(const char *vk_json_path, const char *public_json_path,
                                   const char *proof_json_path, cuzk_error *err) {
    groth16_vk vk = {0};
    groth16_proof p;
    fr *pub = NULL;
    size_t n_pub = 0;
    cuzk_status st;
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
                             opts->progress_user, &tm, 0};
    tm.backend = "cpu";

    if (!params_path || !vk_path) { st = ERR(err, CUZK_ERR_ARG, "setup: missing output path"); goto done; }
    bool synth = opts->circuit == CUZK_SETUP_SYNTHETIC_POREP;
    if (opts->circuit != CUZK_SETUP_R1CS && !synth) {
        st = ERR(err, CUZK_ERR_ARG, "setup: unknown circuit kind %d", (int)opts->circuit);
        goto done;
    }
    if (!synth && !r1cs_path) { st = ERR(err, CUZK_ERR_ARG, "setup: missing circuit.r1cs"); goto done; }
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
    groth16_backend_set(be);
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
