/* cuzk bench porep --prove: whole PoRep C2 proofs (every partition of a sector) in one process,
 * laid out so that a 32 GiB sector (10 partitions of 130,278,541 constraints) fits a 128 GiB host
 * with a 64 GiB disk and a 10-minute limit: nothing large touches the disk.
 *
 *   1. the C1 output: a file (--c1), or a sparse consistent one made in memory for the registered
 *      proof (cuzk_porep_seal_c1 sparse: only the challenged nodes, their parents' columns and the
 *      paths are real; every check passes); read and checked in full (cuzk_porep_job_create);
 *   2. the circuit recorded once in memory on all cores and INSECURE test parameters made in
 *      memory (benchkit_porep_setup: no .r1cs, ~44 GB at 32 GiB, no .params, ~45 GB);
 *   3. the engine makes the circuit resident and the host copies of the G1 queries are released;
 *   4. one engine job per sector of every partition: synthesis (witness-only, all cores, up to
 *      --synthesis-workers partitions at once) beside the GPU's proof of the one before; every
 *      partition's proof is verified against the public inputs derived again from the public
 *      data alone (replica_id, comm_d, comm_r, seed, the graph), and must fail with one changed.
 * Every stage's time, per-partition synthesis, peak host RSS and GPU memory are printed; lines
 * start with a fixed word for tools/porep-full-gpu.sh. Exit: 0 every proof verified, 1 a proof did
 * not verify, 2 usage, 3 a C1 refused, 4 resources (memory, device).
 * The public API only (include/cuzk/: filecoin.h, bench.h, engine.h, prover.h). */
#include <inttypes.h>
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

static uint8_t *slurp(const char *path, size_t *n) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    uint8_t *b = NULL;
    size_t cap = 0, len = 0;
    for (;;) {
        if (len == cap) {
            uint8_t *t = realloc(b, cap = cap ? 2 * cap : 1 << 20);
            if (!t) { free(b); fclose(f); return NULL; }
            b = t;
        }
        size_t r = fread(b + len, 1, cap - len, f);
        len += r;
        if (r == 0) break;
    }
    fclose(f);
    *n = len;
    return b;
}

int porep_prove_run(const porep_prove_opts *o) {
    int T = o->threads > 0 ? o->threads : cuzk_threads();
    cuzk_error err = {0};
    setvbuf(stdout, NULL, _IOLBF, 0);
    g_run_t0 = bench_now_ms();
    cuzk_backend req;
    if (!strcmp(o->backend, "cpu")) req = CUZK_BACKEND_CPU;
    else if (!strcmp(o->backend, "gpu")) req = CUZK_BACKEND_GPU;
    else if (!strcmp(o->backend, "auto")) req = CUZK_BACKEND_AUTO;
    else { fprintf(stderr, "cuzk bench porep: --backend must be cpu, gpu or auto (got '%s')\n", o->backend); return 2; }
    cuzk_backend gb;
    if (cuzk_backend_resolve(req, &gb, &err) != CUZK_OK) { fprintf(stderr, "cuzk bench porep: %s\n", err.msg); return 4; }
    int gpu = gb == CUZK_BACKEND_GPU;

    /* 1. the C1 output */
    double t0 = bench_now_ms();
    uint8_t *c1 = NULL;
    size_t c1_len = 0;
    uint8_t prover_id[32];
    const uint64_t miner = 1000, sector = 1;
    cuzk_porep_prover_id(prover_id, miner);
    if (o->c1) {
        if (!(c1 = slurp(o->c1, &c1_len))) { fprintf(stderr, "cuzk bench porep: cannot read %s\n", o->c1); return 3; }
    } else {
        cuzk_porep_seal_request sr;
        memset(&sr, 0, sizeof sr);
        sr.registered_proof = o->registered_proof;
        sr.data_seed = 1;
        sr.sparse = 1;
        memcpy(sr.prover_id, prover_id, 32);
        sr.sector_id = sector;
        for (int i = 0; i < 32; i++) sr.seed[i] = (uint8_t)(0x11 * (i % 7)), sr.ticket[i] = (uint8_t)(3 * i + 1);
        sr.seed[31] &= 0x3f;
        sr.ticket[31] &= 0x3f;
        sr.nthreads = T;
        if (cuzk_porep_seal_c1(&sr, &c1, &c1_len, NULL, NULL, &err) != CUZK_OK) {
            fprintf(stderr, "cuzk bench porep: making the sparse C1: %s\n", err.msg);
            return err.code == CUZK_ERR_NOMEM ? 4 : 2;
        }
    }
    double t_c1 = bench_now_ms() - t0;
    stage_line(o->c1 ? "C1 read" : "C1 made (sparse)", t_c1, NULL);
    cuzk_porep_request rq;
    memset(&rq, 0, sizeof rq);
    rq.c1 = c1;
    rq.c1_len = c1_len;
    rq.check_replica_id = o->c1 ? 0 : 1;
    memcpy(rq.prover_id, prover_id, 32);
    rq.sector_id = sector;
    rq.nthreads = T;
    t0 = bench_now_ms();
    cuzk_porep_job *job = NULL;
    if (cuzk_porep_job_create(&job, &rq, &err) != CUZK_OK) {
        fprintf(stderr, "cuzk bench porep: %s\n", err.msg);
        free(c1);
        return err.code == CUZK_ERR_NOMEM ? 4 : 3;
    }
    double t_check = bench_now_ms() - t0;
    stage_line("C1 checks", t_check, NULL);
    const char *circuit = cuzk_porep_job_circuit(job);
    uint32_t parts = cuzk_porep_job_partitions(job);
    size_t np = cuzk_porep_job_n_public(job), nv = cuzk_porep_job_n_vars(job);
    printf("# cuzk bench porep --prove | git %s | registered proof %" PRIu64 " | circuit %s | %u partitions | %zu vars, %zu public "
           "inputs | backend %s | %d threads | %d synthesis workers | C1 %s (%zu bytes)\n",
           cuzk_git_commit(), cuzk_porep_job_registered_proof(job), circuit, parts, nv, np, gpu ? "gpu" : "cpu", T,
           o->synthesis_workers, o->c1 ? o->c1 : "sparse, made in memory", c1_len);
    printf("c1: %s %.1f ms; read + every check (challenges, paths, roots, parents, labels, encoding, replica_id) %.1f ms\n",
           o->c1 ? "read" : "made", t_c1, t_check);

    int rc = 0;
    cuzk_pk *pk = NULL;
    cuzk_vk *vk = NULL;
    cuzk_circuit *cc = NULL;
    cuzk_engine *eng = NULL;
    uint8_t *pub = NULL;
    benchkit_post_record r;
    memset(&r, 0, sizeof r);

    /* 2. record + parameters in memory */
    {
        cuzk_setup_timings st;
        memset(&st, 0, sizeof st);
        setup_prog sp;
        memset(&sp, 0, sizeof sp);
        sp.bar = progress_new(stderr, -1, true);
        stage_line("record + setup begin", 0, NULL);
        uint64_t seed = o->seed;
        t0 = bench_now_ms();
        cuzk_status s = benchkit_porep_setup(&pk, circuit, &seed, gb, T, setup_progress, &sp, &r, &st, &err);
        progress_free(sp.bar);
        if (s != CUZK_OK || cuzk_vk_from_pk(&vk, pk, &err) != CUZK_OK) {
            fprintf(stderr, "cuzk bench porep: record/setup: %s\n", err.msg);
            rc = 4;
            goto out;
        }
        double t_setup = bench_now_ms() - t0;
        printf("record: %.1f ms on %d threads: %" PRIu64 " constraints, %" PRIu64 " inputs, %" PRIu64 " aux, nnz A %" PRIu64
               " B %" PRIu64 " C %" PRIu64 ", %.2f GiB; queries A %" PRIu64 " B %" PRIu64 "\n",
               r.parts_ms, T, r.n_constraints, r.n_inputs, r.n_aux, r.nnz_a, r.nnz_b, r.nnz_c, (double)r.matrix_bytes / GIB,
               r.query_a, r.query_b);
        if (r.n_inputs + r.n_aux != nv || r.n_inputs - 1 != np) {
            fprintf(stderr, "cuzk bench porep: the recorded circuit has %" PRIu64 " vars and %" PRIu64 " inputs, the job %zu and %zu\n",
                    r.n_inputs + r.n_aux, r.n_inputs - 1, nv, np);
            rc = 4;
            goto out;
        }
        stage_line("record + setup", t_setup, NULL);
        printf("setup: %.1f ms (record %.1f ms included), INSECURE test parameters in memory (seed %" PRIu64 ", point sets on the %s):",
               t_setup, r.parts_ms, o->seed, gpu ? "gpu" : "cpu");
        for (int i = 0; i < st.n_stages; i++) printf(" %s %.0f", st.stage[i].name, st.stage[i].ms);
        printf(" ms; peak RSS so far %.2f GiB\n", (double)bench_peak_rss_kib() / 1048576.0);
    }

    /* 3. the engine, the circuit resident */
    cuzk_engine_opts eo;
    memset(&eo, 0, sizeof eo);
    eo.synthesis_workers = o->synthesis_workers;
    eo.finish_workers = 2;
    eo.prove_threads = T;
    eo.backend = gpu ? CUZK_BACKEND_GPU : CUZK_BACKEND_CPU;
    eo.pinned_budget_bytes = (size_t)(o->synthesis_workers + 1) * 32 * nv + 4096;
    eo.no_trace = 1;
    if (!cli_msm_from_env(&eo.msm, "cuzk bench porep")) { rc = 2; goto out; }
    if (cuzk_engine_create(&eng, &eo, &err) != CUZK_OK) { fprintf(stderr, "cuzk bench porep: engine: %s\n", err.msg); rc = 4; goto out; }
    if (cuzk_circuit_create(&cc, pk, &err) != CUZK_OK) { fprintf(stderr, "cuzk bench porep: engine circuit: %s\n", err.msg); rc = 4; goto out; }
    t0 = bench_now_ms();
    if (cuzk_engine_preload(eng, cc, &err) != CUZK_OK) { fprintf(stderr, "cuzk bench porep: preload: %s\n", err.msg); rc = 4; goto out; }
    double t_pre = bench_now_ms() - t0;
    stage_line("preload", t_pre, NULL);
    cuzk_engine_stats es;
    cuzk_engine_get_stats(eng, &es);
    printf("preload: %.1f ms", t_pre);
    if (gpu) {
        size_t freed = 0;
        if (benchkit_drop_host_g1(pk, &freed, &err) != CUZK_OK) { fprintf(stderr, "cuzk bench porep: %s\n", err.msg); rc = 4; goto out; }
        printf(": resident on the GPU %.2f GiB; host copies of the G1 queries released (%.2f GiB)", (double)es.gpu_resident_bytes / GIB,
               (double)freed / GIB);
    }
    printf("\n");

    /* 4. the sectors: one engine job of every partition each */
    pub = malloc((size_t)parts * np * 32 + 32);
    if (!pub) { rc = 4; goto out; }
    for (uint32_t k = 0; k < parts; k++)
        if (cuzk_porep_job_public_inputs(job, k, pub + (size_t)k * np * 32, &err) != CUZK_OK) {
            fprintf(stderr, "cuzk bench porep: public inputs of partition %u: %s\n", k, err.msg);
            rc = 3;
            goto out;
        }
    int n_ok = 0, n_all = 0;
    double sum_proof = 0;
    for (int j = 0; j < o->proofs && rc == 0; j++) {
        cuzk_job_desc d;
        memset(&d, 0, sizeof d);
        d.circuit = cc;
        d.n_partitions = parts;
        d.synth = cuzk_porep_job_synth;
        d.synth_ctx = job;
        d.check_witness = o->check_witness;
        cuzk_job_id id;
        cuzk_job_result res;
        memset(&res, 0, sizeof res);
        char name[64];
        snprintf(name, sizeof name, "sector %d begins (%u partitions)", j, parts);
        stage_line(name, 0, NULL);
        if (cuzk_engine_submit(eng, &d, &id, &err) != CUZK_OK || cuzk_engine_wait(eng, id, &res, &err) != CUZK_OK ||
            res.state != CUZK_JOB_DONE) {
            fprintf(stderr, "cuzk bench porep: sector %d failed: %s\n", j, err.msg);
            cuzk_job_result_free(&res);
            rc = 4;
            break;
        }
        double t_proof = res.wait_return_ms - res.submit_ms;
        sum_proof += t_proof;
        snprintf(name, sizeof name, "sector %d (submit -> %u proofs)", j, parts);
        stage_line(name, t_proof, NULL);
        double tv = bench_now_ms();
        int ok_all = 1;
        for (uint32_t k = 0; k < parts; k++) {
            const uint8_t *pk_pub = pub + (size_t)k * np * 32;
            int ok = !memcmp(pk_pub, res.public_inputs + (size_t)k * np * 32, np * 32) &&
                     cuzk_verify(vk, CUZK_PUBLIC_CANON, pk_pub, np * 32, CUZK_PROOF_BELLPERSON, res.proofs + (size_t)k * 192, 192,
                                 &err) == CUZK_OK;
            n_ok += ok;
            n_all++;
            ok_all &= ok;
            const cuzk_partition_timings *t = &res.timings[k];
            printf("partition %d.%u: synthesis %.1f ms | prove start %.1f (upload %.1f, a/b/c %.1f, H %.1f, MSM A %.1f B1 %.1f L %.1f "
                   "H %.1f) | B_G2 %.1f | finish %.1f | %s\n",
                   j, k, t->synth_call_ms, t->start_inner_ms, t->upload_ms, t->abc_ms, t->h_ms, t->msm_a_ms, t->msm_b1_ms, t->msm_l_ms,
                   t->msm_h_ms, t->msm_b2_ms, t->finish_inner_ms, ok ? "verified" : "DOES NOT VERIFY");
        }
        if (j == 0 && ok_all) {
            /* and not against another statement: comm_r (input 1) changed by one */
            uint8_t save = pub[32];
            pub[32] ^= 1;
            int neg = cuzk_verify(vk, CUZK_PUBLIC_CANON, pub, np * 32, CUZK_PROOF_BELLPERSON, res.proofs, 192, NULL) == CUZK_ERR_INVALID;
            pub[32] = save;
            printf("negative: partition 0 with a changed public input: %s\n", neg ? "INVALID (as it must)" : "ACCEPTED  <-- FAILURE");
            if (!neg) n_ok--;
        }
        double s_synth = 0;
        for (uint32_t k = 0; k < parts; k++) s_synth += res.timings[k].synth_call_ms;
        printf("sector %d: %u proofs in %.2f s (%.2f s per partition); synthesis %.2f s per partition on %d threads; verify %.1f ms\n", j,
               parts, t_proof / 1000.0, t_proof / 1000.0 / parts, s_synth / 1000.0 / parts, T, bench_now_ms() - tv);
        cuzk_job_result_free(&res);
    }
    if (rc == 0) {
        printf("verified: %d/%d partition proofs valid%s\n", n_ok, n_all, n_ok == n_all ? "" : "  <-- FAILURES");
        printf("throughput: %.2f s per proof (%u partitions each, %d sector(s))\n", sum_proof / 1000.0 / o->proofs, parts, o->proofs);
        if (n_ok != n_all) rc = 1;
    }
    cuzk_engine_get_stats(eng, &es);
    if (gpu)
        printf("GPU memory: resident %.2f GiB, pool high-water %.2f GiB, device used %.2f GiB; pinned witness buffers %.2f GiB\n",
               (double)es.gpu_resident_bytes / GIB, (double)es.gpu_pool_bytes / GIB, (double)es.gpu_device_used_bytes / GIB,
               (double)es.pinned_bytes / GIB);
    printf("memory: peak host RSS (VmHWM) %.2f GiB\n", (double)bench_peak_rss_kib() / 1048576.0);
out:
    free(pub);
    cuzk_engine_destroy(eng);
    cuzk_circuit_destroy(cc);
    cuzk_vk_free(vk);
    cuzk_pk_release(pk);
    cuzk_porep_job_free(job);
    free(c1);
    return rc;
}

static void porep_help(FILE *f) {
    fprintf(f,
            "usage: cuzk bench porep --prove [options]\n"
            "Whole PoRep C2 proofs in one process: a C1 output (a file, or a sparse consistent one made in\n"
            "memory), the circuit recorded in memory, INSECURE test parameters made in memory, the circuit\n"
            "resident, then every partition proved through the engine and verified. Nothing large is written.\n"
            "options:\n"
            "  --registered-proof N  RegisteredSealProof 0..14 of the sparse C1 (default 8: 32 GiB V1_1)\n"
            "  --c1 FILE             prove this C1 output (JSON or Curio's wrapper) instead\n"
            "  --backend B           cpu | gpu | auto (default auto)\n"
            "  --threads N           CPU threads (default: all)\n"
            "  --synthesis-workers N partitions synthesized at once (default 2)\n"
            "  --proofs K            sectors proved one after the other (default 1)\n"
            "  --seed S              toxic-waste seed of the test parameters (default 1)\n"
            "  --check-witness       check every constraint after synthesis (slow)\n"
            "exit: 0 every proof verified, 1 a proof did not, 2 usage, 3 the C1 was refused, 4 resources\n"
            "example (a 2 KiB sector on the CPU): cuzk bench porep --prove --registered-proof 5 --backend cpu\n");
}

int bench_porep_main(int argc, char **argv) {
    porep_prove_opts o = {8, NULL, "auto", 0, 2, 1, 1, 0};
    int prove = 0;
    for (int i = 2; i < argc; i++) {
        const char *a = argv[i];
        int more = i + 1 < argc;
        long v;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) { porep_help(stdout); return 0; }
        else if (!strcmp(a, "--prove")) prove = 1;
        else if (!strcmp(a, "--check-witness")) o.check_witness = 1;
        else if (!strcmp(a, "--registered-proof") && more) { if (!bench_parse_long(a, argv[++i], 0, 14, &v)) return 2; o.registered_proof = (uint64_t)v; }
        else if (!strcmp(a, "--c1") && more) o.c1 = argv[++i];
        else if (!strcmp(a, "--backend") && more) o.backend = argv[++i];
        else if (!strcmp(a, "--threads") && more) { if (!bench_parse_long(a, argv[++i], 1, 4096, &v)) return 2; o.threads = (int)v; }
        else if (!strcmp(a, "--synthesis-workers") && more) { if (!bench_parse_long(a, argv[++i], 1, 64, &v)) return 2; o.synthesis_workers = (int)v; }
        else if (!strcmp(a, "--proofs") && more) { if (!bench_parse_long(a, argv[++i], 1, 1000, &v)) return 2; o.proofs = (int)v; }
        else if (!strcmp(a, "--seed") && more) { if (!bench_parse_long(a, argv[++i], 0, 0x7fffffffL, &v)) return 2; o.seed = (uint64_t)v; }
        else { fprintf(stderr, "cuzk bench porep: unknown option or missing value '%s'\n", a); porep_help(stderr); return 2; }
    }
    if (!prove) { fprintf(stderr, "cuzk bench porep: --prove is the one mode\n"); porep_help(stderr); return 2; }
    return porep_prove_run(&o);
}
