/* cuzk bench post --prove: whole Filecoin PoSt proofs in one process, laid out so that a full
 * 32 GiB WindowPoSt partition (125M constraints, 2^27 domain) fits a 128 GiB host with a 64 GiB
 * disk and a 10-minute limit: nothing large touches the disk.
 *
 *   1. the vanilla proofs are read and checked first (cuzk_post_job_create: bad input fails in
 *      milliseconds, before any heavy work);
 *   2. the circuit is recorded once, in memory, in the engine's CSR form, on all cores
 *      (post_record_parallel; no .r1cs file: at full size it would be ~41 GB);
 *   3. INSECURE test parameters are made in memory from that shape (random toxic waste from a
 *      fixed seed, point sets on the GPU with the GPU backend: groth16_setup_bellperson_timed;
 *      no .params file: ~61 GB at full size);
 *   4. the engine makes the circuit resident (preload) and the host copies of the G1 queries are
 *      released;
 *   5. jobs through the engine: synthesis is witness-only on all cores (cuzk_post_job_synth),
 *      then prove start (GPU), B_G2 (CPU threads), finish (assembly); every proof is verified
 *      against public inputs derived again from the public data alone (and must fail with one
 *      input changed). With --repeat R, R jobs follow one warm-up job; each job's latency is
 *      job creation (vanilla read + checks) + submit -> proof, what a proving daemon's caller
 *      waits for with the key hot.
 * Every stage's time, the predicted and measured peak host memory, and GPU memory are printed;
 * lines start with a fixed word for tools/post-full-gpu.sh. Exit: 0 every proof verified, 1 a
 * proof did not verify, 2 usage, 3 a vanilla proof refused, 4 resources (memory, device). A run
 * the memory model says may not fit MemAvailable gets a warning, not a refusal (the memory of the
 * device machines grows as it is used and reads low before). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "cli/progress.h"
#include "cuzk/engine.h"
#include "cuzk/filecoin.h"
#include "engine/engine_internal.h"
#include "filecoin/post.h"
#include "formats/bellperson.h"
#include "groth16/backend.h"
#include "groth16/groth16.h"
#include "groth16/setup.h"
#include "util/parallel.h"
#include "util/sysmem.h"
#include "util/timer.h"

#ifndef CUZK_GIT_HASH
#define CUZK_GIT_HASH "unknown"
#endif

#define GIB (1024.0 * 1024.0 * 1024.0)

static long peak_rss_kib(void) {
    FILE *f = fopen("/proc/self/status", "r");
    if (!f) return -1;
    char line[256];
    long v = -1;
    while (fgets(line, sizeof line, f))
        if (!strncmp(line, "VmHWM:", 6)) { v = atol(line + 6); break; }
    fclose(f);
    return v;
}

static int cmp_d(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* setup progress: the progress line, and each stage's first report time (for the stage table) */
typedef struct {
    progress *bar;
} setup_prog;
static void setup_progress(void *user, const char *stage, uint64_t done, uint64_t total) {
    setup_prog *s = user;
    char name[48];
    snprintf(name, sizeof name, "params: %s", stage);
    progress_update(s->bar, name, done, total);
}

static size_t csr_bytes(const csr_matrix *m) { return 8 * ((size_t)m->n_rows + 1) + 8 * (size_t)m->nnz + 32 * (size_t)m->n_coef; }

/* Host memory model of the run (bytes), from the recorded circuit and its densities; the terms
 * follow src/groth16/setup.h ("Work and memory") and the GPU prover's preload. */
typedef struct {
    double circuit, qap, points, preload, prove, peak, params;
} mem_model;
static void model_memory(mem_model *mm, const r1cs *r, size_t n_a, size_t n_b, bool gpu) {
    double nv = r->n_vars, ni = (double)r->n_public + 1, naux = nv - ni;
    size_t m = 1;
    while (m < (size_t)r->n_constraints + ni) m <<= 1;
    double nnz_max = (double)r->a.nnz;
    if (r->b.nnz > nnz_max) nnz_max = (double)r->b.nnz;
    if (r->c.nnz > nnz_max) nnz_max = (double)r->c.nnz;
    memset(mm, 0, sizeof *mm);
    mm->circuit = (double)(csr_bytes(&r->a) + csr_bytes(&r->b) + csr_bytes(&r->c));
    /* Lagrange basis, u v k, densities, the column index, one matrix's column-ordered products */
    mm->qap = 32.0 * (double)m + 3 * 32.0 * nv + 3 * nv + 8 * (nv + 1) + 32 * nnz_max;
    mm->params = 96.0 * ((double)m - 1) + 96 * naux + 96.0 * (double)n_a + 96.0 * (double)n_b + 192.0 * (double)n_b + 96 * ni;
    /* at the last point set: every set in memory, the compacted u and v, densities, two G2
     * chunk buffers (GPU: 2^25 points each) */
    double chunk = gpu ? 2.0 * 33554432.0 * 192.0 : 0;
    mm->points = mm->params + 32.0 * (double)(n_a + n_b) + 3 * nv + chunk;
    /* preload: the parameters, two pinned witness buffers, the B scalars */
    mm->preload = mm->params + 2 * 32.0 * nv + 32.0 * (double)n_b;
    /* proving after the G1 queries are released (GPU): B_G2 + vk, witnesses, B scalars; on the
     * CPU every parameter stays, plus the prover's a/b/c and H vectors (~7 x 32 m) */
    mm->prove = gpu ? 192.0 * (double)n_b + 2 * 32.0 * nv + 32.0 * (double)n_b
                    : mm->params + 32.0 * nv + 7 * 32.0 * (double)m;
    double extra = mm->qap;
    if (mm->points > extra) extra = mm->points;
    if (mm->preload > extra) extra = mm->preload;
    if (mm->prove > extra) extra = mm->prove;
    mm->peak = mm->circuit + extra;
}

int post_prove_run(const post_prove_opts *o) {
    int T = o->threads > 0 ? o->threads : cuzk_num_threads();
    cuzk_error err = {0};
    cuzk_backend req;
    if (!strcmp(o->backend, "cpu")) req = CUZK_BACKEND_CPU;
    else if (!strcmp(o->backend, "gpu")) req = CUZK_BACKEND_GPU;
    else if (!strcmp(o->backend, "auto")) req = CUZK_BACKEND_AUTO;
    else { fprintf(stderr, "cuzk bench post: --backend must be cpu, gpu or auto (got '%s')\n", o->backend); return 2; }
    groth16_backend gb;
    if (groth16_backend_resolve(req, &gb, &err) != CUZK_OK) { fprintf(stderr, "cuzk bench post: %s\n", err.msg); return 4; }
    bool gpu = gb == GROTH16_BACKEND_GPU;

    cuzk_post_request rq;
    memset(&rq, 0, sizeof rq);
    rq.circuit = o->circuit;
    rq.sectors = o->sectors;
    rq.vanilla_paths = o->vproofs;
    rq.n_vanilla = o->n_vproofs;
    memcpy(rq.randomness, o->randomness, 32);
    rq.nthreads = T;
    post_params pp;
    if (post_params_from_name(&pp, o->circuit, &err) != CUZK_OK) { fprintf(stderr, "cuzk bench post: %s\n", err.msg); return 2; }
    if (o->sectors) pp.sector_count = o->sectors;
    post_sizes sz;
    post_circuit_sizes(&pp, &sz);
    printf("# cuzk bench post --prove | git %s | circuit %s | %u sectors x %u challenges | inputs %llu aux %llu constraints %llu "
           "| backend %s | %d threads | %zu vanilla proof file(s)\n",
           CUZK_GIT_HASH, o->circuit, pp.sector_count, pp.challenge_count, (unsigned long long)sz.n_inputs,
           (unsigned long long)sz.n_aux, (unsigned long long)sz.n_constraints, groth16_backend_name(gb), T, o->n_vproofs);

    /* 1. the vanilla proofs, read and checked before anything heavy (this is the warm-up job) */
    double t0 = now_ms();
    cuzk_post_job *job0 = NULL;
    if (cuzk_post_job_create(&job0, &rq, &err) != CUZK_OK) {
        fprintf(stderr, "cuzk bench post: %s\n", err.msg);
        return err.code == CUZK_ERR_NOMEM ? 4 : err.code == CUZK_ERR_ARG ? 2 : 3;
    }
    if (cuzk_post_job_partitions(job0) != 1) {
        fprintf(stderr, "cuzk bench post: %zu vanilla proofs make %u partitions: --prove takes one partition (at most %u files)\n",
                o->n_vproofs, cuzk_post_job_partitions(job0), pp.sector_count);
        cuzk_post_job_free(job0);
        return 2;
    }
    printf("vanilla: %zu file(s) read and checked (paths hash to comm_r_last, comm_r = Poseidon(comm_c, comm_r_last), "
           "leaves = the derived challenges) in %.1f ms; the partition is padded with the last\n", o->n_vproofs, now_ms() - t0);

    int rc = 0;
    r1cs r;
    memset(&r, 0, sizeof r);
    bellperson_params bp;
    memset(&bp, 0, sizeof bp);
    cuzk_engine *eng = NULL;
    double *lat = calloc((size_t)o->repeat + 1, sizeof *lat);
    double *synth = calloc((size_t)o->repeat + 1, sizeof *synth);
    if (!lat || !synth) { fprintf(stderr, "cuzk bench post: out of memory\n"); rc = 4; goto out; }

    /* 2. record */
    t0 = now_ms();
    if (post_record_parallel(&r, &pp, T, &err) != CUZK_OK) {
        fprintf(stderr, "cuzk bench post: recording: %s\n", err.msg);
        rc = 4;
        goto out;
    }
    double t_rec = now_ms() - t0;
    size_t n_a = 0, n_b = 0;
    {
        r1cs_density da = {0}, db = {0};
        if (r1cs_density_of(&da, &r.a, r.n_vars, T, &err) != CUZK_OK || r1cs_density_of(&db, &r.b, r.n_vars, T, &err) != CUZK_OK) {
            fprintf(stderr, "cuzk bench post: densities: %s\n", err.msg);
            r1cs_density_free(&da);
            rc = 4;
            goto out;
        }
        n_b = db.count;
        n_a = da.count;
        for (size_t i = 0; i <= r.n_public; i++) n_a += !r1cs_density_test(&da, i);   /* every input is in A's query */
        r1cs_density_free(&da);
        r1cs_density_free(&db);
    }
    mem_model mm;
    model_memory(&mm, &r, n_a, n_b, gpu);
    printf("record: %.1f ms on %d threads (post_record_parallel): %u constraints, %u vars, nnz A %llu B %llu C %llu, "
           "circuit %.2f GiB in memory; queries A %zu, B %zu\n", t_rec, T, r.n_constraints, r.n_vars, (unsigned long long)r.a.nnz,
           (unsigned long long)r.b.nnz, (unsigned long long)r.c.nnz, mm.circuit / GIB, n_a, n_b);
    double avail = sysmem_available_bytes();
    printf("memory model: circuit %.2f + max(QAP %.2f, point sets %.2f, preload %.2f, proving %.2f) = peak %.2f GiB "
           "(parameters %.2f GiB); MemAvailable besides the circuit %.1f GiB\n", mm.circuit / GIB, mm.qap / GIB, mm.points / GIB,
           mm.preload / GIB, mm.prove / GIB, mm.peak / GIB, mm.params / GIB, avail > 0 ? avail / GIB : -1);
    if (avail > 0 && mm.peak - mm.circuit > avail)
        /* a warning, not a refusal: the memory of some VMs grows as it is used and reads low
         * before (the device machines of bench/RESULTS.md section 17) */
        fprintf(stderr, "cuzk bench post: warning: this run needs about %.1f GiB of host memory besides its %.1f GiB of "
                "matrices (model above) and MemAvailable reads %.1f GiB: it may be killed for memory\n",
                (mm.peak - mm.circuit) / GIB, mm.circuit / GIB, avail / GIB);

    /* 3. parameters in memory */
    {
        cuzk_setup_timings st;
        memset(&st, 0, sizeof st);
        setup_prog sp = {progress_new(stderr, -1, true)};
        uint64_t seed = o->seed;
        t0 = now_ms();
        cuzk_status s = groth16_setup_bellperson_timed(gb, &bp, &r, &seed, T, setup_progress, &sp, &st, &err);
        progress_free(sp.bar);
        if (s != CUZK_OK) {
            fprintf(stderr, "cuzk bench post: setup: %s\n", err.msg);
            rc = 4;
            goto out;
        }
        double t_setup = now_ms() - t0;
        double pbytes = 96.0 * ((double)bp.n_h + bp.n_l + bp.n_a + bp.n_b_g1) + 192.0 * bp.n_b_g2;
        printf("setup: %.1f ms, INSECURE test parameters in memory (seed %llu; point sets on the %s), %.2f GiB:", t_setup,
               (unsigned long long)o->seed, groth16_backend_name(gb), pbytes / GIB);
        for (int i = 0; i < st.n_stages; i++) printf(" %s %.0f", st.stage[i].name, st.stage[i].ms);
        printf(" ms; peak RSS so far %.2f GiB\n", (double)peak_rss_kib() / 1048576.0);
    }

    /* 4. the engine, the circuit resident */
    cuzk_engine_opts eo;
    memset(&eo, 0, sizeof eo);
    eo.synthesis_workers = 1;
    eo.finish_workers = 1;
    eo.prove_threads = T;
    eo.backend = gpu ? CUZK_BACKEND_GPU : CUZK_BACKEND_CPU;
    eo.pinned_budget_bytes = 2 * 32 * (size_t)r.n_vars + 4096;
    eo.no_trace = 1;
    if (cuzk_engine_create(&eng, &eo, &err) != CUZK_OK) {
        fprintf(stderr, "cuzk bench post: engine: %s\n", err.msg);
        rc = 4;
        goto out;
    }
    cuzk_circuit cc = {&r, &bp, NULL, NULL};
    t0 = now_ms();
    if (cuzk_engine_preload(eng, &cc, &err) != CUZK_OK) {
        fprintf(stderr, "cuzk bench post: preload: %s\n", err.msg);
        rc = 4;
        goto out;
    }
    double t_pre = now_ms() - t0;
    cuzk_engine_stats es;
    cuzk_engine_get_stats(eng, &es);
    printf("preload: %.1f ms", t_pre);
    if (gpu) {
        size_t freed = ((size_t)bp.n_a + bp.n_b_g1 + bp.n_l + bp.n_h) * sizeof(g1_affine);
        free(bp.a); free(bp.b_g1); free(bp.l); free(bp.h);
        bp.a = bp.b_g1 = bp.l = bp.h = NULL;
        printf(": G1 queries + matrices resident on the GPU, %.2f GiB; host copies of the G1 queries released (%.2f GiB)",
               (double)es.gpu_resident_bytes / GIB, (double)freed / GIB);
    }
    printf("\n");

    /* 5. jobs: the warm-up (job0, already created) and --repeat more */
    size_t np = cuzk_post_job_n_public(job0);
    uint8_t *pub = malloc(np * 32);
    fr *pubf = malloc(np * sizeof *pubf);
    if (!pub || !pubf) { free(pub); free(pubf); rc = 4; goto out; }
    int n_jobs = o->repeat + (o->repeat > 0 ? 1 : 0), n_ok = 0;
    if (n_jobs == 0) n_jobs = 1;
    for (int j = 0; j < n_jobs && rc == 0; j++) {
        cuzk_post_job *job = job0;
        double tc = 0, tj = now_ms();
        if (j > 0) {
            if (cuzk_post_job_create(&job, &rq, &err) != CUZK_OK) { fprintf(stderr, "cuzk bench post: %s\n", err.msg); rc = 3; break; }
            tc = now_ms() - tj;
        }
        cuzk_job_desc d;
        memset(&d, 0, sizeof d);
        d.circuit = &cc;
        d.n_partitions = 1;
        d.synth = cuzk_post_job_synth;
        d.synth_ctx = job;
        d.check_witness = o->check_witness;
        cuzk_job_id id;
        cuzk_job_result res;
        memset(&res, 0, sizeof res);
        if (cuzk_engine_submit(eng, &d, &id, &err) != CUZK_OK || cuzk_engine_wait(eng, id, &res, &err) != CUZK_OK ||
            res.state != CUZK_JOB_DONE) {
            fprintf(stderr, "cuzk bench post: job %d failed: %s\n", j, err.msg);
            cuzk_job_result_free(&res);
            if (job != job0) cuzk_post_job_free(job);
            rc = 4;
            break;
        }
        double t_proof = res.wait_return_ms - res.submit_ms;
        /* verify against public inputs derived again from the public data */
        double tv = now_ms();
        bool ok = cuzk_post_job_public_inputs(job, 0, pub, &err) == CUZK_OK && !memcmp(pub, res.public_inputs, np * 32);
        for (size_t i = 0; ok && i < np; i++) ok = fr_from_bytes_le(&pubf[i], pub + 32 * i, 32);
        groth16_proof pr;
        ok = ok && bellperson_proof_decode(&pr, res.proofs, &err) == CUZK_OK && groth16_verify(&bp.vk, pubf, np, &pr, &err) == CUZK_OK;
        double t_ver = now_ms() - tv;
        bool neg = false;
        if (ok && j == 0) {
            /* and not against another statement: the last challenge index + 1 */
            fr one;
            fr_one(&one);
            fr_add(&pubf[np - 1], &pubf[np - 1], &one);
            neg = groth16_verify(&bp.vk, pubf, np, &pr, NULL) == CUZK_ERR_INVALID;
            ok = neg;
        }
        n_ok += ok;
        const cuzk_partition_timings *t = &res.timings[0];
        lat[j] = tc + t_proof;
        synth[j] = t->synth_call_ms;
        printf("job %d%s: create (vanilla read + checks) %.1f ms | synthesis %.1f | prove start %.1f (upload %.1f, a/b/c %.1f, H %.1f, "
               "MSM A %.1f B1 %.1f L %.1f H %.1f) | B_G2 %.1f (CPU threads%s) | finish (assembly) %.1f | submit -> proof %.1f | "
               "latency %.1f ms | verify %.1f ms: %s%s\n",
               j, j == 0 && n_jobs > 1 ? " (warm-up)" : "", tc, t->synth_call_ms, t->start_inner_ms, t->upload_ms, t->abc_ms, t->h_ms,
               t->msm_a_ms, t->msm_b1_ms, t->msm_l_ms, t->msm_h_ms, t->msm_b2_ms, gpu ? ", overlapped with the GPU" : "",
               t->finish_inner_ms, t_proof, lat[j], t_ver, ok ? "OK" : "FAILED",
               j == 0 ? (neg ? " (and INVALID with a changed input)" : "") : "");
        cuzk_job_result_free(&res);
        if (job != job0) cuzk_post_job_free(job);
    }
    free(pub);
    free(pubf);
    if (rc == 0) {
        printf("verified: %d/%d proofs valid%s\n", n_ok, n_jobs, n_ok == n_jobs ? "" : "  <-- FAILURES");
        if (n_ok != n_jobs) {
            fprintf(stderr, "cuzk bench post: %d of %d proofs did not verify\n", n_jobs - n_ok, n_jobs);
            rc = 1;
        }
        if (n_jobs > 1) {
            /* the jobs after the warm-up */
            double *v = lat + 1, *s = synth + 1;
            size_t k = (size_t)n_jobs - 1;
            qsort(v, k, sizeof *v, cmp_d);
            qsort(s, k, sizeof *s, cmp_d);
            printf("latency: %zu jobs after a warm-up: median %.1f ms, min %.1f, max %.1f (create + submit -> proof); "
                   "synthesis median %.1f ms\n", k, v[k / 2], v[0], v[k - 1], s[k / 2]);
        }
    }
    cuzk_engine_get_stats(eng, &es);
    if (gpu)
        printf("GPU memory: resident %.2f GiB, pool high-water %.2f GiB, device used %.2f GiB; pinned witness buffers %.2f GiB\n",
               (double)es.gpu_resident_bytes / GIB, (double)es.gpu_pool_bytes / GIB, (double)es.gpu_device_used_bytes / GIB,
               (double)es.pinned_bytes / GIB);
    printf("memory: peak host RSS (VmHWM) %.2f GiB; model %.2f GiB\n", (double)peak_rss_kib() / 1048576.0, mm.peak / GIB);
out:
    cuzk_engine_destroy(eng);
    free(lat);
    free(synth);
    bellperson_params_free(&bp);
    r1cs_free(&r);
    cuzk_post_job_free(job0);
    return rc;
}
