/* cuzk bench post --prove: whole Filecoin PoSt proofs in one process, laid out so that a full
 * 32 GiB WindowPoSt partition (125M constraints, 2^27 domain) fits a 128 GiB host with a 64 GiB
 * disk and a 10-minute limit: nothing large touches the disk.
 *
 *   1. the vanilla proofs are read and checked first (cuzk_post_job_create: bad input fails in
 *      milliseconds, before any heavy work);
 *   2. the circuit is recorded once, in memory, in the engine's CSR form, on all cores
 *      (benchkit_post_record_pass MATRICES; no .r1cs file: at full size it would be ~41 GB);
 *   3. INSECURE test parameters are made in memory from that shape (random toxic waste from a
 *      fixed seed, point sets on the GPU with the GPU backend: benchkit_post_setup; no .params
 *      file: ~61 GB at full size);
 *   4. the engine makes the circuit resident (preload) and the host copies of the G1 queries are
 *      released;
 *   5. jobs through the engine: synthesis is witness-only on all cores (cuzk_post_job_synth),
 *      then prove start (GPU), B_G2 (on the GPU when it fits, else CPU threads), finish (assembly); every proof is verified
 *      against public inputs derived again from the public data alone (and must fail with one
 *      input changed). With --repeat R, R jobs follow one warm-up job; each job's latency is
 *      job creation (vanilla read + checks) + submit -> proof, what a proving daemon's caller
 *      waits for with the key hot.
 * Every stage's time, the predicted and measured peak host memory, and GPU memory are printed;
 * lines start with a fixed word for tools/post-full-gpu.sh. Exit: 0 every proof verified, 1 a
 * proof did not verify, 2 usage, 3 a vanilla proof refused, 4 resources (memory, device). A run
 * the memory model says may not fit MemAvailable gets a warning, not a refusal (the memory of the
 * device machines grows as it is used and reads low before).
 * The public API only (include/cuzk/: filecoin.h for the jobs, bench.h for the recorded circuit and
 * its key, engine.h, prover.h to verify). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "../src/cli/frontend.h" /* the CLI's helpers: MSM tuning from the environment */
#include "../src/cli/progress.h" /* the CLI's progress line */
#include "../src/benchkit/benchkit.h" /* the bench kit (static, internal: not in libcuzk.so) */
#include "cuzk/engine.h"
#include "cuzk/filecoin.h"
#include "cuzk/prover.h"

#define GIB (1024.0 * 1024.0 * 1024.0)

/* "stage:" lines, printed (and flushed) as each stage ends, so that a run stopped by a time limit
 * still shows where its time went: +seconds since the run began, the stage, its wall ms. */
double g_run_t0;
void stage_line(const char *name, double ms, const char *note) {
    printf("stage: +%.1f s %s %.1f ms%s%s\n", (bench_now_ms() - g_run_t0) / 1000.0, name, ms, note ? " " : "", note ? note : "");
    fflush(stdout);
}

/* setup progress: the progress line, and a stage line when each setup stage (and each step of
 * "scalars": Lagrange basis, QAP A, B, C, combine) ends */
static const char *scalar_step(uint64_t done) {
    static const char *names[] = {"", "Lagrange basis", "QAP A", "QAP B", "QAP C", "combine"};
    return done < 6 ? names[done] : "?";
}
void setup_progress(void *user, const char *stage, uint64_t done, uint64_t total) {
    setup_prog *s = user;
    char name[64];
    snprintf(name, sizeof name, "params: %s", stage);
    progress_update(s->bar, name, done, total);
    double now = bench_now_ms();
    if (strcmp(s->stage, stage)) {
        if (s->stage[0] && (!strcmp(s->stage, "scalars") || s->done != s->total)) { /* else printed at done == total */
            snprintf(name, sizeof name, "setup %s", s->stage);
            stage_line(name, now - s->t_stage, NULL);
        }
        snprintf(s->stage, sizeof s->stage, "%s", stage);
        s->t_stage = s->t_step = s->t_last_line = now;
        s->done = 0;
    }
    if (!strcmp(stage, "scalars") && done > s->done && done <= 5) {
        snprintf(name, sizeof name, "setup scalars: %s", scalar_step(done));
        stage_line(name, now - s->t_step, NULL);
        s->t_step = now;
    } else if (done > s->done && (done == total || now - s->t_last_line >= 10000.0)) {
        /* a point set: its progress every 10 s, and its rate */
        char note[96];
        snprintf(note, sizeof note, "(%llu/%llu points, %.2f M/s so far)", (unsigned long long)done, (unsigned long long)total,
                 now > s->t_stage ? (double)done / (now - s->t_stage) / 1000.0 : 0.0);
        snprintf(name, sizeof name, "setup %s%s", stage, done == total ? "" : " (running)");
        stage_line(name, now - s->t_stage, note);
        s->t_last_line = now;
    }
    s->done = done;
    s->total = total;
}

/* canonical little-endian 32 bytes + 1 (a public input that is a small index: no wrap) */
static void le_add_one(uint8_t *x) {
    for (int i = 0; i < 32; i++)
        if (++x[i] != 0) break;
}

/* Host memory model of the run (bytes), from the recorded circuit and its densities; the terms
 * follow src/groth16/setup.h ("Work and memory") and the GPU prover's preload. */
typedef struct {
    double circuit, qap, points, preload, prove, peak, params;
} mem_model;
static void model_memory(mem_model *mm, const benchkit_post_record *r, size_t n_a, size_t n_b, bool gpu) {
    double ni = (double)r->n_inputs, nv = ni + (double)r->n_aux, naux = nv - ni;
    size_t m = 1;
    while (m < (size_t)r->n_constraints + ni) m <<= 1;
    double nnz_max = (double)r->nnz_a;
    if (r->nnz_b > nnz_max) nnz_max = (double)r->nnz_b;
    if (r->nnz_c > nnz_max) nnz_max = (double)r->nnz_c;
    memset(mm, 0, sizeof *mm);
    mm->circuit = (double)r->matrix_bytes;
    /* Lagrange basis, u v k, densities, the column index, one matrix's transposed (row, id) index */
    mm->qap = 32.0 * (double)m + 3 * 32.0 * nv + 3 * nv + 8 * (nv + 1) + 8 * nnz_max;
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
    int T = o->threads > 0 ? o->threads : cuzk_threads();
    cuzk_error err = {0};
    /* line-buffered even into a file: a run stopped by a time limit keeps every line printed */
    setvbuf(stdout, NULL, _IOLBF, 0);
    g_run_t0 = bench_now_ms();
    cuzk_backend req;
    if (!strcmp(o->backend, "cpu")) req = CUZK_BACKEND_CPU;
    else if (!strcmp(o->backend, "gpu")) req = CUZK_BACKEND_GPU;
    else if (!strcmp(o->backend, "auto")) req = CUZK_BACKEND_AUTO;
    else { fprintf(stderr, "cuzk bench post: --backend must be cpu, gpu or auto (got '%s')\n", o->backend); return 2; }
    cuzk_backend gb;
    if (cuzk_backend_resolve(req, &gb, &err) != CUZK_OK) { fprintf(stderr, "cuzk bench post: %s\n", err.msg); return 4; }
    bool gpu = gb == CUZK_BACKEND_GPU;
    const char *gb_name = gpu ? "gpu" : "cpu";

    cuzk_post_request rq;
    memset(&rq, 0, sizeof rq);
    rq.circuit = o->circuit;
    rq.sectors = o->sectors;
    rq.vanilla_paths = o->vproofs;
    rq.n_vanilla = o->n_vproofs;
    memcpy(rq.randomness, o->randomness, 32);
    rq.nthreads = T;
    /* the circuit's shape (its sectors do not matter to the matrices: one blank sector) */
    benchkit_post *h = NULL;
    if (benchkit_post_create(&h, o->circuit, o->sectors, NULL, 0, NULL, &err) != CUZK_OK) {
        fprintf(stderr, "cuzk bench post: %s\n", err.msg);
        return err.code == CUZK_ERR_NOMEM ? 4 : 2;
    }
    benchkit_post_info pp;
    benchkit_post_describe(h, &pp);
    const benchkit_post_info sz = pp;
    printf("# cuzk bench post --prove | git %s | circuit %s | %u sectors x %u challenges | inputs %llu aux %llu constraints %llu "
           "| backend %s | %d threads | %zu vanilla proof file(s)\n",
           cuzk_git_commit(), o->circuit, pp.sector_count, pp.challenge_count, (unsigned long long)sz.n_inputs,
           (unsigned long long)sz.n_aux, (unsigned long long)sz.n_constraints, gb_name, T, o->n_vproofs);

    /* 1. the vanilla proofs, read and checked before anything heavy (this is the warm-up job) */
    double t0 = bench_now_ms();
    cuzk_post_job *job0 = NULL;
    if (cuzk_post_job_create(&job0, &rq, &err) != CUZK_OK) {
        fprintf(stderr, "cuzk bench post: %s\n", err.msg);
        benchkit_post_destroy(h);
        return err.code == CUZK_ERR_NOMEM ? 4 : err.code == CUZK_ERR_ARG ? 2 : 3;
    }
    if (cuzk_post_job_partitions(job0) != 1) {
        fprintf(stderr, "cuzk bench post: %zu vanilla proofs make %u partitions: --prove takes one partition (at most %u files)\n",
                o->n_vproofs, cuzk_post_job_partitions(job0), pp.sector_count);
        cuzk_post_job_free(job0);
        benchkit_post_destroy(h);
        return 2;
    }
    printf("vanilla: %zu file(s) read and checked (paths hash to comm_r_last, comm_r = Poseidon(comm_c, comm_r_last), "
           "leaves = the derived challenges) in %.1f ms; the partition is padded with the last\n", o->n_vproofs, bench_now_ms() - t0);

    int rc = 0;
    benchkit_post_record r;
    memset(&r, 0, sizeof r);
    cuzk_pk *pk = NULL;
    cuzk_vk *vk = NULL;
    cuzk_circuit *cc = NULL;
    cuzk_engine *eng = NULL;
    uint8_t *pub = NULL;
    double *lat = calloc((size_t)o->repeat + 1, sizeof *lat);
    double *synth = calloc((size_t)o->repeat + 1, sizeof *synth);
    if (!lat || !synth) { fprintf(stderr, "cuzk bench post: out of memory\n"); rc = 4; goto out; }

    /* 2. record (kept in the handle for the setup) */
    stage_line("record begins", 0, NULL);
    t0 = bench_now_ms();
    if (benchkit_post_record_pass(h, BENCHKIT_POST_MATRICES, T, &r, &err) != CUZK_OK) {
        fprintf(stderr, "cuzk bench post: recording: %s\n", err.msg);
        rc = 4;
        goto out;
    }
    double t_rec = bench_now_ms() - t0;
    {
        char note[160];
        snprintf(note, sizeof note, "(parts %.1f ms on %d threads, join %.1f ms, query densities %.1f ms)", r.parts_ms, T,
                 r.join_ms, r.queries_ms);
        stage_line("record", t_rec, note);
    }
    size_t n_a = (size_t)r.query_a, n_b = (size_t)r.query_b;
    const uint32_t r_n_vars = (uint32_t)(r.n_inputs + r.n_aux);
    mem_model mm;
    model_memory(&mm, &r, n_a, n_b, gpu);
    printf("record: %.1f ms on %d threads (post_record_parallel): %u constraints, %u vars, nnz A %llu B %llu C %llu, "
           "circuit %.2f GiB in memory; queries A %zu, B %zu\n", t_rec, T, (uint32_t)r.n_constraints, r_n_vars,
           (unsigned long long)r.nnz_a, (unsigned long long)r.nnz_b, (unsigned long long)r.nnz_c, mm.circuit / GIB, n_a, n_b);
    double avail = bench_mem_available_bytes();
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
        setup_prog sp;
        memset(&sp, 0, sizeof sp);
        sp.bar = progress_new(stderr, -1, true);
        stage_line("setup begins", 0, NULL);
        uint64_t seed = o->seed;
        t0 = bench_now_ms();
        cuzk_status s = benchkit_post_setup(&pk, h, &seed, gb, T, setup_progress, &sp, &st, &err);
        progress_free(sp.bar);
        if (s == CUZK_OK && sp.stage[0] && sp.done != sp.total) {
            char name[64];
            snprintf(name, sizeof name, "setup %s", sp.stage);
            stage_line(name, bench_now_ms() - sp.t_stage, NULL);
        }
        if (s != CUZK_OK || cuzk_vk_from_pk(&vk, pk, &err) != CUZK_OK) {
            fprintf(stderr, "cuzk bench post: setup: %s\n", err.msg);
            rc = 4;
            goto out;
        }
        double t_setup = bench_now_ms() - t0;
        stage_line("setup", t_setup, NULL);
        /* h + l + a + b_g1 (G1, 96 bytes each) + b_g2 (G2, 192): the parameter set's size */
        double m = 1;
        while (m < (double)r.n_constraints + (double)r.n_inputs) m *= 2;
        double pbytes = 96.0 * ((m - 1) + (double)r.n_aux + (double)n_a + (double)n_b) + 192.0 * (double)n_b;
        printf("setup: %.1f ms, INSECURE test parameters in memory (seed %llu; point sets on the %s), %.2f GiB:", t_setup,
               (unsigned long long)o->seed, gb_name, pbytes / GIB);
        for (int i = 0; i < st.n_stages; i++) printf(" %s %.0f", st.stage[i].name, st.stage[i].ms);
        printf(" ms; peak RSS so far %.2f GiB\n", (double)bench_peak_rss_kib() / 1048576.0);
    }

    /* 4. per GPU budget: the engine, the circuit resident (the plan), the jobs */
    const int n_budgets = o->n_budgets > 0 ? o->n_budgets : 1;
    int n_refused = 0;
    size_t np = cuzk_post_job_n_public(job0);
    if (!(pub = malloc(np * 32))) { rc = 4; goto out; }
    for (int bi = 0; bi < n_budgets && rc == 0; bi++) {
        const double budget_gib = o->n_budgets > 0 ? o->gpu_budgets[bi] : 0;
        if (n_budgets > 1)
            printf("budget: %.0f GiB%s (run %d of %d)\n", budget_gib,
                   budget_gib > 0 ? "" : " (unlimited: the device's free memory)", bi + 1, n_budgets);
        cuzk_engine_opts eo;
        memset(&eo, 0, sizeof eo);
        eo.synthesis_workers = 1;
        eo.finish_workers = 1;
        eo.prove_threads = T;
        eo.backend = gpu ? CUZK_BACKEND_GPU : CUZK_BACKEND_CPU;
        eo.pinned_budget_bytes = 2 * 32 * (size_t)r_n_vars + 4096;
        eo.gpu_budget_bytes = (size_t)(budget_gib * 1073741824.0);
        eo.no_trace = 1;
        /* $CUZK_MSM_WINDOW / $CUZK_MSM_CHUNK / $CUZK_GPU_B2 (B_G2 on the GPU) / $CUZK_GPU_MSM_ACCUM,
         * as the pipeline bench */
        if (!cli_msm_from_env(&eo.msm, "cuzk bench post")) {
            rc = 2;
            goto out;
        }
        if (cuzk_engine_create(&eng, &eo, &err) != CUZK_OK) {
            fprintf(stderr, "cuzk bench post: engine: %s\n", err.msg);
            rc = 4;
            goto out;
        }
        if (!cc && cuzk_circuit_create(&cc, pk, &err) != CUZK_OK) {
            fprintf(stderr, "cuzk bench post: engine circuit: %s\n", err.msg);
            rc = 4;
            goto out;
        }
        stage_line("preload begins", 0, NULL);
        t0 = bench_now_ms();
        if (cuzk_engine_preload(eng, cc, &err) != CUZK_OK) {
            fprintf(stderr, "cuzk bench post: preload: %s\n", err.msg);
            if (n_budgets > 1 && err.code == CUZK_ERR_NOMEM_DEVICE) {
                /* a budget below every plan: refused before any work, as it must be; the next budget runs */
                printf("budget %.0f GiB: refused at preload: %s\n", budget_gib, err.msg);
                n_refused++;
                cuzk_engine_destroy(eng);
                eng = NULL;
                continue;
            }
            rc = 4;
            goto out;
        }
        double t_pre = bench_now_ms() - t0;
        stage_line("preload", t_pre, NULL);
        cuzk_engine_stats es;
        cuzk_engine_get_stats(eng, &es);
        printf("preload: %.1f ms", t_pre);
        if (gpu) {
            cuzk_device_stats ds;
            if (cuzk_engine_device_stats(eng, 0, &ds) == CUZK_OK && ds.memory_plan[0])
                printf(": plan %s;", ds.memory_plan);
            /* with one run the host copies of the resident G1 queries go (streamed ones stay borrowed);
             * a later budget's preload needs them all */
            size_t freed = 0;
            if (n_budgets == 1 && benchkit_drop_host_g1(pk, &freed, &err) != CUZK_OK) {
                fprintf(stderr, "cuzk bench post: %s\n", err.msg);
                rc = 4;
                goto out;
            }
            printf(" resident on the GPU %.2f GiB (queries of the plan + matrices); host copies of the G1 queries released "
                   "(%.2f GiB)", (double)es.gpu_resident_bytes / GIB, (double)freed / GIB);
        }
        printf("\n");

        /* 5. jobs: the warm-up (job0 for the first budget) and --repeat more */
        int n_jobs = o->repeat + (o->repeat > 0 ? 1 : 0), n_ok = 0;
        double last_ms = 0;
        if (n_jobs == 0) n_jobs = 1;
        for (int j = 0; j < n_jobs && rc == 0; j++) {
            cuzk_post_job *job = job0;
            double tc = 0, tj = bench_now_ms();
            if (j > 0 || bi > 0) {
                if (cuzk_post_job_create(&job, &rq, &err) != CUZK_OK) { fprintf(stderr, "cuzk bench post: %s\n", err.msg); rc = 3; break; }
                tc = bench_now_ms() - tj;
            }
            cuzk_job_desc d;
            memset(&d, 0, sizeof d);
            d.circuit = cc;
            d.n_partitions = 1;
            d.synth = cuzk_post_job_synth;
            d.synth_ctx = job;
            d.check_witness = o->check_witness;
            cuzk_job_id id;
            cuzk_job_result res;
            memset(&res, 0, sizeof res);
            if (j == 0) stage_line("job 0 begins (synthesis, prove, B_G2, finish)", 0, NULL);
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
            double tv = bench_now_ms();
            bool ok = cuzk_post_job_public_inputs(job, 0, pub, &err) == CUZK_OK && !memcmp(pub, res.public_inputs, np * 32);
            ok = ok && cuzk_verify(vk, CUZK_PUBLIC_CANON, pub, np * 32, CUZK_PROOF_BELLPERSON, res.proofs, 192, &err) == CUZK_OK;
            double t_ver = bench_now_ms() - tv;
            if (j == 0) stage_line("job 0 (submit -> proof)", t_proof, NULL);
            bool neg = false;
            if (ok && j == 0) {
                /* and not against another statement: the last challenge index + 1 */
                le_add_one(pub + 32 * (np - 1));
                neg = cuzk_verify(vk, CUZK_PUBLIC_CANON, pub, np * 32, CUZK_PROOF_BELLPERSON, res.proofs, 192, NULL) == CUZK_ERR_INVALID;
                ok = neg;
            }
            n_ok += ok;
            const cuzk_partition_timings *t = &res.timings[0];
            lat[j] = tc + t_proof;
            last_ms = t_proof;
            synth[j] = t->synth_call_ms;
            printf("job %d%s: create (vanilla read + checks) %.1f ms | synthesis %.1f | prove start %.1f (upload %.1f, a/b/c %.1f, H %.1f, "
                   "MSM A %.1f B1 %.1f L %.1f H %.1f) | B_G2 %.1f (%s) | finish (assembly) %.1f | submit -> proof %.1f | "
                   "latency %.1f ms | verify %.1f ms: %s%s\n",
                   j, j == 0 && n_jobs > 1 ? " (warm-up)" : "", tc, t->synth_call_ms, t->start_inner_ms, t->upload_ms, t->abc_ms, t->h_ms,
                   t->msm_a_ms, t->msm_b1_ms, t->msm_l_ms, t->msm_h_ms, t->msm_b2_ms,
                   gpu && t->b2_on_device ? "on the GPU" : gpu ? "CPU threads, overlapped with the GPU" : "CPU threads",
                   t->finish_inner_ms, t_proof, lat[j], t_ver, ok ? "OK" : "FAILED",
                   j == 0 ? (neg ? " (and INVALID with a changed input)" : "") : "");
            cuzk_job_result_free(&res);
            if (job != job0) cuzk_post_job_free(job);
        }
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
                qsort(v, k, sizeof *v, bench_cmp_double);
                qsort(s, k, sizeof *s, bench_cmp_double);
                printf("latency: %zu jobs after a warm-up: median %.1f ms, min %.1f, max %.1f (create + submit -> proof); "
                       "synthesis median %.1f ms\n", k, v[k / 2], v[0], v[k - 1], s[k / 2]);
            }
        }
        cuzk_engine_get_stats(eng, &es);
        if (gpu)
            printf("GPU memory: resident %.2f GiB, pool high-water %.2f GiB, device used %.2f GiB; pinned witness buffers %.2f GiB\n",
                   (double)es.gpu_resident_bytes / GIB, (double)es.gpu_pool_bytes / GIB, (double)es.gpu_device_used_bytes / GIB,
                   (double)es.pinned_bytes / GIB);
        if (n_budgets > 1) {
            cuzk_device_stats ds;
            memset(&ds, 0, sizeof ds);
            (void)cuzk_engine_device_stats(eng, 0, &ds);
            printf("budget %.0f GiB: %d/%d verified, submit -> proof %.1f ms (last job), GPU resident %.2f GiB, streamed %.2f GiB "
                   "a proof, device used %.2f GiB\n", budget_gib, n_ok, n_jobs, last_ms, (double)es.gpu_resident_bytes / GIB,
                   (double)ds.streamed_bytes / GIB, (double)es.gpu_device_used_bytes / GIB);
        }
        cuzk_engine_destroy(eng);
        eng = NULL;
    }
    if (rc == 0 && n_refused == n_budgets) rc = 4;
    printf("memory: peak host RSS (VmHWM) %.2f GiB; model %.2f GiB\n", (double)bench_peak_rss_kib() / 1048576.0, mm.peak / GIB);
out:
    free(pub);
    cuzk_engine_destroy(eng);
    cuzk_circuit_destroy(cc);
    cuzk_vk_free(vk);
    cuzk_pk_release(pk);
    benchkit_post_destroy(h);
    free(lat);
    free(synth);
    cuzk_post_job_free(job0);
    return rc;
}
