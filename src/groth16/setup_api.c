/* The public functions of the core that write or describe the formats themselves
 * (include/cuzk/groth16.h): INSECURE test setup (streams .params, .vk and .zkey point sets to
 * their files as they are computed) and `info` descriptions with point checks. They need the
 * format writers and readers, so they live in the core; the file API that proves and verifies
 * from files is a layer above, over the public in-memory API (src/files/files.c). Bellperson
 * parameters are BLS12-381's: a bn128 .r1cs gets a .zkey alone, made by the BN254 instance of
 * src/groth16/setup_impl.h (bn254_groth16_setup_zkey_r1cs), and .params/.vk for it are
 * CUZK_ERR_CURVE. */
#include "cuzk/groth16.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats/curve_sniff.h"
#include "groth16/backend.h"
#include "groth16/groth16.h"
#include "groth16/setup.h"
#include "r1cs/synthetic.h"
#include "util/log.h"
#include "util/outfile.h"
#include "util/parallel.h"
#include "util/sysmem.h"
#include "util/timer.h"

/* ---- stage bookkeeping (groth16/setup.h) ------------------------------------------------- */

void groth16_setup_stage_add(cuzk_setup_timings *t, const char *name, double ms) {
    if (!t) return;
    for (int i = 0; i < t->n_stages; i++)
        if (!strcmp(t->stage[i].name, name)) {
            t->stage[i].ms += ms;
            return;
        }
    if (t->n_stages < CUZK_SETUP_MAX_STAGES) t->stage[t->n_stages++] = (cuzk_setup_stage){name, ms};
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

/* A bn128 .r1cs: the .zkey alone, by the BN254 instance of setup_impl.h */
static cuzk_status setup_bn254(const char *r1cs_path, const char *zkey_path, const cuzk_setup_opts *opts,
                               groth16_setup_run *run, cuzk_error *err) {
    char tz[4200];
    const char *ins[] = {r1cs_path}, *outs[] = {zkey_path};
    cuzk_status st = outfile_check_paths(ins, 1, outs, 1, err);
    if (st != CUZK_OK) return st;
    groth16_backend be;
    if ((st = groth16_backend_resolve(opts->backend, &be, err)) != CUZK_OK) return st;
    run->backend = be; /* the BN254 points are computed by the CPU comb on either (src/groth16/backend.c) */
    outfile_tmp_name(tz, sizeof tz, zkey_path);
    st = bn254_groth16_setup_zkey_r1cs(r1cs_path, opts->seed, tz, run, err);
    if (st != CUZK_OK) outfile_name_output(err, tz, zkey_path);
    if (st == CUZK_OK) st = outfile_commit(tz, zkey_path, err);
    outfile_discard(tz); /* gone already when committed */
    return st;
}

/* cuzk_setup's body, for a circuit read from r1cs_path, the synthetic one, or one recorded by the
 * caller (recorded != NULL: taken, *recorded zeroed; record_ms is reported as its stage "record"). */
static cuzk_status setup_run(const char *r1cs_path, r1cs *recorded, double record_ms, const char *params_path,
                             const char *vk_path, const cuzk_setup_opts *opts, cuzk_setup_timings *t, cuzk_error *err) {
    cuzk_setup_opts dflt;
    if (!opts) {
        cuzk_setup_opts_init(&dflt);
        opts = &dflt;
    }
    cuzk_setup_timings tm = {0};
    double t_start = now_ms(), t0;
    r1cs cs = {0};
    if (recorded) {
        cs = *recorded;
        memset(recorded, 0, sizeof *recorded);
        groth16_setup_stage_add(&tm, "record", record_ms);
    }
    groth16_toxic tw;
    char tp[4200] = "", tv[4200] = "", tz[4200] = "";
    cuzk_status st;
    memset(&tw, 0, sizeof tw);
    groth16_setup_run run = {opts->nthreads > 0 ? opts->nthreads : cuzk_num_threads(), opts->progress,
                             opts->progress_user, &tm, 0, GROTH16_BACKEND_CPU};
    tm.backend = "cpu";
    /* outputs: .params + .vk (bellperson), optionally with a .zkey; or a .zkey alone */
    const bool with_params = params_path || vk_path;
    if ((params_path == NULL) != (vk_path == NULL) || (!with_params && !opts->zkey_path)) {
        st = ERR(err, CUZK_ERR_ARG, "setup: missing output path (give .params and .vk, a .zkey, or all three)");
        goto done;
    }
    bool synth = opts->circuit == CUZK_SETUP_SYNTHETIC_POREP;
    if (opts->circuit != CUZK_SETUP_R1CS && !synth) {
        st = ERR(err, CUZK_ERR_ARG, "setup: unknown circuit kind %d", (int)opts->circuit);
        goto done;
    }
    if (!synth && !r1cs_path && !recorded) { st = ERR(err, CUZK_ERR_ARG, "setup: missing circuit.r1cs"); goto done; }
    if (synth && recorded) { st = ERR(err, CUZK_ERR_ARG, "setup: a recorded circuit is not the synthetic one"); goto done; }
    if (r1cs_path && recorded) { st = ERR(err, CUZK_ERR_ARG, "setup: give either an .r1cs file or a recorded circuit"); goto done; }
    if (r1cs_path && !synth && curve_sniff_iden3_file(r1cs_path) == CUZK_CURVE_BN254) {
        if (with_params)
            st = ERR(err, CUZK_ERR_CURVE,
                     "setup: %s is a bn128 (BN254) circuit; bellperson .params/.vk are BLS12-381 only: write a "
                     "snarkjs .zkey alone (cuzk setup %s --zkey out.zkey)", r1cs_path, r1cs_path);
        else
            st = setup_bn254(r1cs_path, opts->zkey_path, opts, &run, err);
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
        const char *ins[] = {r1cs_path}, *outs[3];
        int n_outs = 0;
        if (with_params) {
            outs[n_outs++] = params_path;
            outs[n_outs++] = vk_path;
        }
        if (opts->zkey_path) outs[n_outs++] = opts->zkey_path;
        if ((st = outfile_check_paths(ins, 1, outs, n_outs, err)) != CUZK_OK) goto done;
    }
    groth16_backend be;
    if ((st = groth16_backend_resolve(opts->backend, &be, err)) != CUZK_OK) goto done;
    run.backend = be;
    tm.backend = groth16_backend_name(be);
    if (with_params) {
        outfile_tmp_name(tp, sizeof tp, params_path);
        outfile_tmp_name(tv, sizeof tv, vk_path);
    }
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
    } else if (!recorded && (st = r1cs_load(&cs, r1cs_path, err)) != CUZK_OK) {
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
    if (with_params) {
        groth16_params_file_sink *fs = NULL;
        groth16_params_sink sink;
        if ((st = groth16_params_file_sink_open(&fs, &sink, tp, tv, &run, err)) != CUZK_OK) goto done;
        st = groth16_setup_params(&cs, &tw, &sink, &run, err);
        cuzk_status cst = groth16_params_file_sink_close(fs, &tm.params_bytes, &tm.vk_bytes, st == CUZK_OK ? err : NULL);
        if (st == CUZK_OK) st = cst;
        if (st != CUZK_OK) goto done;
    }
    if (opts->zkey_path && (st = groth16_setup_zkey(&cs, &tw, tz, &tm.zkey_bytes, &run, err)) != CUZK_OK) goto done;

    /* all outputs or none */
    if (with_params) {
        if ((st = outfile_commit(tp, params_path, err)) != CUZK_OK) goto done;
        if ((st = outfile_commit(tv, vk_path, err)) != CUZK_OK) { outfile_discard(params_path); goto done; }
    }
    if (opts->zkey_path && (st = outfile_commit(tz, opts->zkey_path, err)) != CUZK_OK) {
        if (with_params) {
            outfile_discard(params_path);
            outfile_discard(vk_path);
        }
        goto done;
    }
done:
    /* a writer's error names the user's output, not its temporary */
    if (st != CUZK_OK) {
        if (tp[0]) outfile_name_output(err, tp, params_path);
        if (tv[0]) outfile_name_output(err, tv, vk_path);
        if (tz[0]) outfile_name_output(err, tz, opts->zkey_path);
    }
    /* temporaries left (failure) are removed and forgotten; committed ones are gone already */
    if (tp[0]) outfile_discard(tp);
    if (tv[0]) outfile_discard(tv);
    if (tz[0]) outfile_discard(tz);
    groth16_toxic_wipe(&tw);
    t0 = now_ms();
    r1cs_free(&cs);
    groth16_setup_stage_add(&tm, "free", now_ms() - t0);
    tm.total_ms = now_ms() - t_start;
    tm.peak_rss_bytes = peak_rss_bytes();
    if (t) *t = tm;
    return st;
}

cuzk_status cuzk_setup(const char *r1cs_path, const char *params_path, const char *vk_path,
                       const cuzk_setup_opts *opts, cuzk_setup_timings *t, cuzk_error *err) {
    return setup_run(r1cs_path, NULL, 0, params_path, vk_path, opts, t, err);
}

cuzk_status groth16_setup_recorded(r1cs *cs, double record_ms, const char *params_path, const char *vk_path,
                                   const cuzk_setup_opts *opts, cuzk_setup_timings *t, cuzk_error *err) {
    if (!cs) return ERR(err, CUZK_ERR_ARG, "setup: no circuit");
    if (opts && opts->circuit != CUZK_SETUP_R1CS) {
        r1cs_free(cs);
        return ERR(err, CUZK_ERR_ARG, "setup: a recorded circuit takes opts->circuit = CUZK_SETUP_R1CS");
    }
    return setup_run(NULL, cs, record_ms, params_path, vk_path, opts, t, err);
}

cuzk_status groth16_setup_record(groth16_record_fn record, const void *ctx, const char *params_path, const char *vk_path,
                                 const cuzk_setup_opts *opts, cuzk_setup_timings *t, cuzk_error *err) {
    cuzk_progress_fn progress = opts ? opts->progress : NULL;
    void *pu = opts ? opts->progress_user : NULL;
    if (progress) progress(pu, "record", 0, 1);
    double t0 = now_ms();
    r1cs r;
    cuzk_status st = record(&r, ctx, opts ? opts->nthreads : 0, err);
    if (st != CUZK_OK) return st;
    if (progress) progress(pu, "record", 1, 1);
    return groth16_setup_recorded(&r, now_ms() - t0, params_path, vk_path, opts, t, err); /* r taken */
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

cuzk_status cuzk_file_shape_read(cuzk_file_shape *out, const char *path, cuzk_error *err) {
    return file_shape_read(out, path, err);
}

/* "40 public inputs, 2686853 private variables, domain 2^22, 2687880 constraints" (what is known) */
static void shape_desc(char *buf, size_t cap, const cuzk_file_shape *s) {
    int lg = 0;
    while (lg < 63 && ((uint64_t)1 << lg) < s->domain) lg++;
    int n = snprintf(buf, cap, "%llu public inputs, %llu private variables", (unsigned long long)s->n_public,
                     (unsigned long long)s->n_aux);
    if (n > 0 && (size_t)n < cap && s->domain)
        n += snprintf(buf + n, cap - (size_t)n, ", domain 2^%d", lg);
    if (n > 0 && (size_t)n < cap && s->n_constraints)
        snprintf(buf + n, cap - (size_t)n, ", %llu constraints", (unsigned long long)s->n_constraints);
}

cuzk_status cuzk_file_shape_check(const char *path, const cuzk_file_shape *want, const char *what, cuzk_error *err) {
    if (!path || !want) return ERR(err, CUZK_ERR_ARG, "cuzk_file_shape_check: NULL argument");
    if (!what) what = "the circuit";
    cuzk_file_shape got;
    cuzk_status st = file_shape_read(&got, path, err);
    if (st) return st;
    if (want->curve != CUZK_CURVE_UNKNOWN && got.curve != want->curve)
        return ERR(err, CUZK_ERR_CURVE, "%s: a %s of curve %s; %s is of curve %s", path, got.kind, cuzk_curve_name(got.curve),
                   what, cuzk_curve_name(want->curve));
    bool zkey = !strcmp(got.kind, "zkey") || (want->kind && !strcmp(want->kind, "zkey"));
    if (got.n_public != want->n_public || got.n_aux != want->n_aux ||
        (!zkey && got.domain && want->domain && got.domain != want->domain) ||
        (got.n_constraints && want->n_constraints && got.n_constraints != want->n_constraints)) {
        char g[200], w[200];
        shape_desc(g, sizeof g, &got);
        shape_desc(w, sizeof w, want);
        return ERR(err, CUZK_ERR_MISMATCH, "%s: %s of %s; %s needs %s: made for another circuit", path, got.kind, g, what, w);
    }
    return CUZK_OK;
}
