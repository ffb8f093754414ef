/* cuzk's PoRep commands: make-c1 (test data: seal a small sector in memory, or a sparse C1 of
 * any size), prove-porep (C2: a C1 output + parameters -> one proof per partition, through the
 * engine), verify-seal (Filecoin's verify_seal: the public inputs from public data alone).
 * Front-end code: the public API only (include/cuzk/). */
#include "porep_cmds.h"

#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli_util.h"
#include "frontend.h"
#include "progress.h"
#include "cuzk/engine.h"
#include "cuzk/filecoin.h"
#include "cuzk/groth16.h"
#include "cuzk/prover.h"

/* ---- shared argument parsing ---- */

#define MINER_ID_USAGE "--miner-id needs an actor id: 1000, or its ID address f01000 / t01000 (got '%s')"

/* --registered-proof N: 0..14 */
static int parse_registered_proof(const char *cmd, const char *v, uint64_t *out) {
    if (!v || !cli_parse_u64(v, out) || *out > 14)
        return cli_usage_error(cmd, "--registered-proof needs a RegisteredSealProof id 0..14 (got '%s'); 8 is 32 GiB V1_1", v ? v : "");
    return 0;
}

static int parse_hex32(const char *cmd, const char *opt, const char *v, uint8_t out[32]) {
    if (!v || !cli_parse_hex(v, out, 32)) {
        fprintf(stderr, "cuzk %s: %s needs 64 hex digits (32 bytes, in the order they are stored)", cmd, opt);
        fprintf(stderr, "; got '%s'\nRun 'cuzk %s --help' for usage.\n", v ? v : "", cmd);
        return 2;
    }
    return 0;
}

/* 32 bytes little-endian -> decimal string (out: 80 bytes) */
static void le32_decimal(char *out, const uint8_t b[32]) {
    uint64_t l[4];
    for (int i = 0; i < 4; i++) {
        l[i] = 0;
        for (int j = 7; j >= 0; j--) l[i] = l[i] << 8 | b[8 * i + j];
    }
    char tmp[80];
    int n = 0;
    do {
        unsigned __int128 r = 0;
        for (int i = 3; i >= 0; i--) {
            unsigned __int128 cur = (r << 64) | l[i];
            l[i] = (uint64_t)(cur / 10);
            r = cur % 10;
        }
        tmp[n++] = (char)('0' + (int)r);
    } while (l[0] | l[1] | l[2] | l[3]);
    for (int i = 0; i < n; i++) out[i] = tmp[n - 1 - i];
    out[n] = 0;
}

/* ---- make-c1 ---- */

static void print_make_c1_help(FILE *f) {
    fprintf(f,
        "usage: cuzk make-c1 --registered-proof N [options] c1.json\n"
        "\n"
        "Makes a PoRep C1 output (rust-fil-proofs' SealCommitPhase1Output, serde JSON) as TEST DATA:\n"
        "seals a small sector in memory (2 KiB, 8 MiB; 512 MiB needs ~40 GB) from --data or pseudo-random\n"
        "data, derives the challenges from --seed and writes the vanilla proofs; with --sparse, makes a\n"
        "consistent C1 of any size (32 GiB included) without sealing: only the challenged nodes, their\n"
        "parents' columns and the Merkle paths are real, so every check of prove-porep passes.\n"
        "Prints comm_r and comm_d (verify-seal takes them). Not a sealer for storage.\n"
        "\n"
        "options:\n"
        "  --registered-proof N  RegisteredSealProof id: 0..4 V1, 5..9 V1_1, 10..14 V1_1 + Synthetic\n"
        "                        (2 KiB, 8 MiB, 512 MiB, 32 GiB, 64 GiB in each group; 8 = 32 GiB V1_1)\n"
        "  --miner-id M          the miner's actor id (1000, f01000 or t01000), gives prover_id (default 1000)\n"
        "  --sector-id N         sector number (default 1)\n"
        "  --ticket HEX          32 bytes (default: all zero)\n"
        "  --seed HEX            the interactive seed, 32 bytes (default: all zero)\n"
        "  --data FILE           the sector's data (exactly the sector size; every 32-byte node must be a\n"
        "                        field element: top two bits of its last byte zero)\n"
        "  --data-seed S         pseudo-random data from the integer S (default 1)\n"
        "  --sparse              do not seal: a sparse consistent C1 (any size)\n"
        "  --curio               wrap the JSON as Curio sends it ({\"SectorNum\", \"Phase1Out\", \"SectorSize\"})\n"
        "  --threads N           worker threads (default: all CPUs)\n"
        "  --json                print {\"comm_r\": hex, \"comm_d\": hex, ...} on stdout\n"
        "  -q, --quiet           print nothing on success\n"
        "\n"
        "example:\n"
        "  cuzk make-c1 --registered-proof 5 --seed 0101010101010101010101010101010101010101010101010101010101010101 c1.json\n");
}

int cli_cmd_make_c1(int argc, char **argv) {
    const char *cmd = "make-c1";
    cuzk_porep_seal_request req;
    memset(&req, 0, sizeof req);
    req.data_seed = 1;
    uint64_t rp = UINT64_MAX, miner = 1000;
    req.sector_id = 1;
    const char *data_path = NULL, *out = NULL;
    int json = 0, quiet = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (cli_repeated(argv, i)) return cli_usage_error(cmd, "%s is given twice", a);
        int rc;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) { print_make_c1_help(stdout); return 0; }
        else if (!strcmp(a, "--registered-proof")) { if ((rc = parse_registered_proof(cmd, v, &rp))) return rc; i++; }
        else if (!strcmp(a, "--miner-id")) { if (!v || !cli_parse_miner_id(v, &miner)) return cli_usage_error(cmd, MINER_ID_USAGE, v ? v : ""); i++; }
        else if (!strcmp(a, "--sector-id")) { if (!v || !cli_parse_u64(v, &req.sector_id)) return cli_usage_error(cmd, "--sector-id needs a number (got '%s')", v ? v : ""); i++; }
        else if (!strcmp(a, "--ticket")) { if ((rc = parse_hex32(cmd, a, v, req.ticket))) return rc; i++; }
        else if (!strcmp(a, "--seed")) { if ((rc = parse_hex32(cmd, a, v, req.seed))) return rc; i++; }
        else if (!strcmp(a, "--data")) { if (!v) return cli_usage_error(cmd, "%s needs a file", a); data_path = v; i++; }
        else if (!strcmp(a, "--data-seed")) { if (!v || !cli_parse_u64(v, &req.data_seed)) return cli_usage_error(cmd, "--data-seed needs an integer (got '%s')", v ? v : ""); i++; }
        else if (!strcmp(a, "--sparse")) req.sparse = 1;
        else if (!strcmp(a, "--curio")) req.curio_wrapper = 1;
        else if (!strcmp(a, "--threads")) {
            long t;
            if (!v || !cli_parse_int(v, &t) || t < 0 || t > 4096) return cli_usage_error(cmd, "--threads needs a thread count (got '%s')", v ? v : "");
            req.nthreads = (int)t;
            i++;
        } else if (!strcmp(a, "--json")) json = 1;
        else if (!strcmp(a, "-q") || !strcmp(a, "--quiet")) quiet = 1;
        else if (a[0] == '-' && a[1]) return cli_usage_error(cmd, "unknown option '%s'", a);
        else if (out) return cli_usage_error(cmd, "too many arguments ('%s'): expected c1.json", a);
        else out = a;
    }
    if (rp == UINT64_MAX) return cli_usage_error(cmd, "%s", "--registered-proof N is required");
    if (!out) return cli_usage_error(cmd, "%s", "expected: c1.json");
    if (data_path && req.sparse) return cli_usage_error(cmd, "%s", "--data and --sparse exclude each other");
    req.registered_proof = rp;
    cuzk_porep_prover_id(req.prover_id, miner);
    cuzk_error e = {0};
    const char *ins[1] = {data_path};
    const char *outs[1] = {out};
    cuzk_status st = cuzk_check_outputs(ins, 1, outs, 1, &e);
    if (st) return cli_fail(st, &e);
    uint8_t *data = NULL;
    if (data_path) {
        size_t n;
        if (!(data = cli_slurp(data_path, &n, &e))) return cli_fail(e.code ? e.code : CUZK_ERR_IO, &e);
        req.data = data;
        req.data_len = n; /* the library checks the size against the registered proof */
    }
    uint8_t *c1 = NULL, comm_r[32], comm_d[32];
    size_t c1_len = 0;
    double t0 = cli_wall_ms();
    if (!quiet) fprintf(stderr, "cuzk make-c1: %s registered proof %" PRIu64 "\n", req.sparse ? "sparse C1 of" : "sealing a sector of", rp);
    st = cuzk_porep_seal_c1(&req, &c1, &c1_len, comm_r, comm_d, &e);
    free(data);
    if (st) return cli_fail(st, &e);
    double t1 = cli_wall_ms();
    st = cuzk_write_outputs(out, c1, c1_len, NULL, NULL, &e);
    cuzk_post_free(c1);
    if (st) return cli_fail(st, &e);
    char hr[65], hd[65];
    cli_hex(hr, comm_r, 32);
    cli_hex(hd, comm_d, 32);
    if (json)
        printf("{\"registered_proof\": %" PRIu64 ", \"comm_r\": \"%s\", \"comm_d\": \"%s\", \"bytes\": %zu, \"ms\": %.1f}\n", rp, hr,
               hd, c1_len, t1 - t0);
    else if (!quiet)
        fprintf(stderr, "cuzk make-c1: wrote %s (%zu bytes) in %.1f ms\ncomm_r %s\ncomm_d %s\n", out, c1_len, t1 - t0, hr, hd);
    return 0;
}

/* ---- prove-porep ---- */

static void print_prove_porep_help(FILE *f) {
    fprintf(f,
        "usage: cuzk prove-porep --params FILE [options] c1.json proof.bin\n"
        "\n"
        "PoRep C2: proves a sector from its C1 output (rust-fil-proofs' SealCommitPhase1Output JSON, or\n"
        "Curio's wrapper {\"SectorNum\", \"Phase1Out\", \"SectorSize\"}) with the PoRep parameters of its\n"
        "size (Filecoin's .params, or INSECURE test ones from 'cuzk setup --circuit porep-SIZE').\n"
        "First every field of the C1 output is checked as a verifier would (sizes, challenges from the\n"
        "seed, Merkle paths, roots, labels from their parents, the encoding); a failing one is refused\n"
        "with the partition, challenge and field (exit 3) before any synthesis. The partitions then go\n"
        "through the engine (synthesis of the next partition while the previous one proves), every\n"
        "proof is verified against the key's verifying key, and proof.bin gets partitions x 192 bytes\n"
        "(bellperson encoding, partition order: 1,920 bytes for 32 GiB), what Curio expects.\n"
        "\n"
        "options:\n"
        "  --params FILE        the PoRep .params of the C1's sector size (required)\n"
        "  --r1cs FILE          the circuit as a .r1cs file (cuzk setup --circuit porep-SIZE writes one);\n"
        "                       default: recorded in memory (~14 GB and ~1 min at 32 GiB)\n"
        "  --miner-id M         with --sector-id: check replica_id against prover_id(M), the sector id,\n"
        "  --sector-id N        the ticket, comm_d and porep_id (default: the C1's replica_id is used);\n"
        "                       M is the actor id: 1000, or its ID address f01000 / t01000\n"
        "  --backend B          cpu | gpu | auto (default auto: the GPU when present)\n"
        "  --threads N          CPU threads (default: all CPUs)\n"
        "  --synthesis-workers N  partitions synthesized at once (default 2)\n"
        "  --trace FILE         write a Chrome trace of the run (open in Perfetto)\n"
        "  --json               print a JSON summary (partitions, stage times, proof hex) on stdout\n"
        "  -q, --quiet          print nothing on success\n"
        "\n"
        "examples:\n"
        "  cuzk setup --circuit porep-2k porep2k.r1cs porep2k.params porep2k.vk      # INSECURE\n"
        "  cuzk make-c1 --registered-proof 5 c1.json\n"
        "  cuzk prove-porep --params porep2k.params --r1cs porep2k.r1cs c1.json proof.bin\n");
}

/* What the operator sees while a sector proves: one progress line (progress.h) with the engine's
 * stage reports ("partition 0: MSM L"), the time spent, partitions proved of all; redrawn on a
 * terminal, a plain line every PROGRESS_LOG_SECONDS in a log, also while one step runs for minutes
 * (a CPU partition on a small machine): a timer thread ticks the line. */
typedef struct synth_ctx {
    cuzk_porep_job *job;
    uint32_t partitions;
    double t0;
    volatile uint32_t done;
    progress *bar;
    pthread_t ticker;
    int ticking;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    int stop;
    char step[96];      /* the last stage report, and when it came (under mu) */
    double step_ms;
} synth_ctx;

/* The line's detail: the step, and how long it has run once that is a while. */
static void show_step(synth_ctx *c) {
    char d[128];
    double s = (cli_wall_ms() - c->step_ms) / 1e3;
    if (s >= 10) snprintf(d, sizeof d, "%s, %.0f s in it", c->step, s);
    else snprintf(d, sizeof d, "%s", c->step);
    progress_detail(c->bar, d);
}

static cuzk_status synth_progress(void *user, uint32_t partition, uint64_t *w, size_t n_vars, cuzk_error *err) {
    synth_ctx *c = user;
    double t = cli_wall_ms();
    cuzk_status st = cuzk_porep_job_synth(c->job, partition, w, n_vars, err);
    if (st == CUZK_OK) {
        uint32_t d = __atomic_add_fetch(&c->done, 1, __ATOMIC_RELAXED);
        char line[200];
        snprintf(line, sizeof line, "cuzk prove-porep: partition %u synthesized in %.1f s (%u of %u, %.1f s since start)",
                 partition, (cli_wall_ms() - t) / 1e3, d, c->partitions, (cli_wall_ms() - c->t0) / 1e3);
        progress_message(c->bar, line);
    }
    return st;
}

/* cuzk_job_desc.progress: the engine's stage reports on the line */
static void prove_progress(void *user, const char *what, uint64_t done, uint64_t total) {
    synth_ctx *c = user;
    pthread_mutex_lock(&c->mu);
    snprintf(c->step, sizeof c->step, "%s", what);
    c->step_ms = cli_wall_ms();
    show_step(c);
    pthread_mutex_unlock(&c->mu);
    progress_update(c->bar, "proving", done, total);
}

/* cuzk_pk_load_opts.progress: the key's file bytes decoded */
static void load_progress(void *user, const char *what, uint64_t done, uint64_t total) {
    synth_ctx *c = user;
    pthread_mutex_lock(&c->mu);
    snprintf(c->step, sizeof c->step, "%s", what);
    c->step_ms = cli_wall_ms();
    show_step(c);
    pthread_mutex_unlock(&c->mu);
    progress_update(c->bar, "loading key", done, total);
}

static void *ticker_main(void *arg) {
    synth_ctx *c = arg;
    pthread_mutex_lock(&c->mu);
    while (!c->stop) {
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        ts.tv_nsec += 250000000;
        if (ts.tv_nsec >= 1000000000) { ts.tv_sec++; ts.tv_nsec -= 1000000000; }
        pthread_cond_timedwait(&c->cv, &c->mu, &ts);
        if (c->stop) break;
        if (c->step[0]) show_step(c);
        progress_tick(c->bar);
    }
    pthread_mutex_unlock(&c->mu);
    return NULL;
}

/* Ends the line (and its timer) so that other output can follow. */
static void progress_end(synth_ctx *c) {
    if (c->ticking) {
        pthread_mutex_lock(&c->mu);
        c->stop = 1;
        pthread_cond_signal(&c->cv);
        pthread_mutex_unlock(&c->mu);
        pthread_join(c->ticker, NULL);
        c->ticking = 0;
    }
    progress_free(c->bar);
    c->bar = NULL;
}

int cli_cmd_prove_porep(int argc, char **argv) {
    const char *cmd = "prove-porep";
    const char *params = NULL, *r1cs = NULL, *trace = NULL, *pos[2] = {NULL, NULL};
    int npos = 0, json = 0, quiet = 0, have_miner = 0, have_sector = 0;
    uint64_t miner = 0;
    cuzk_porep_request req;
    memset(&req, 0, sizeof req);
    cuzk_engine_opts eo;
    memset(&eo, 0, sizeof eo);
    eo.synthesis_workers = 2;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (cli_repeated(argv, i)) return cli_usage_error(cmd, "%s is given twice", a);
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) { print_prove_porep_help(stdout); return 0; }
        else if (!strcmp(a, "--params")) { if (!v) return cli_usage_error(cmd, "%s needs a file", a); params = v; i++; }
        else if (!strcmp(a, "--r1cs")) { if (!v) return cli_usage_error(cmd, "%s needs a file", a); r1cs = v; i++; }
        else if (!strcmp(a, "--trace")) { if (!v) return cli_usage_error(cmd, "%s needs a file", a); trace = v; i++; }
        else if (!strcmp(a, "--miner-id")) { if (!v || !cli_parse_miner_id(v, &miner)) return cli_usage_error(cmd, MINER_ID_USAGE, v ? v : ""); have_miner = 1; i++; }
        else if (!strcmp(a, "--sector-id")) { if (!v || !cli_parse_u64(v, &req.sector_id)) return cli_usage_error(cmd, "--sector-id needs a number (got '%s')", v ? v : ""); have_sector = 1; i++; }
        else if (!strcmp(a, "--backend")) {
            if (!v) return cli_usage_error(cmd, "%s needs cpu, gpu or auto", a);
            if (!strcmp(v, "cpu")) eo.backend = CUZK_BACKEND_CPU;
            else if (!strcmp(v, "gpu")) eo.backend = CUZK_BACKEND_GPU;
            else if (!strcmp(v, "auto")) eo.backend = CUZK_BACKEND_AUTO;
            else return cli_usage_error(cmd, "unknown backend '%s' (cpu, gpu or auto)", v);
            i++;
        } else if (!strcmp(a, "--threads")) {
            long t;
            if (!v || !cli_parse_int(v, &t) || t < 0 || t > 4096) return cli_usage_error(cmd, "--threads needs a thread count (got '%s')", v ? v : "");
            req.nthreads = (int)t;
            eo.prove_threads = (int)t;
            i++;
        } else if (!strcmp(a, "--synthesis-workers")) {
            long t;
            if (!v || !cli_parse_int(v, &t) || t < 1 || t > 64) return cli_usage_error(cmd, "--synthesis-workers needs 1 .. 64 (got '%s')", v ? v : "");
            eo.synthesis_workers = (int)t;
            i++;
        } else if (!strcmp(a, "--json")) json = 1;
        else if (!strcmp(a, "-q") || !strcmp(a, "--quiet")) quiet = 1;
        else if (a[0] == '-' && a[1]) return cli_usage_error(cmd, "unknown option '%s'", a);
        else if (npos == 2) return cli_usage_error(cmd, "too many arguments ('%s'): expected c1.json proof.bin", a);
        else pos[npos++] = a;
    }
    if (!params) return cli_usage_error(cmd, "%s", "--params FILE is required");
    if (npos != 2) return cli_usage_error(cmd, "%s", "expected: c1.json proof.bin");
    if (have_miner != have_sector) return cli_usage_error(cmd, "%s", "--miner-id and --sector-id go together");
    if (!cli_msm_from_env(&eo.msm, "cuzk prove-porep")) return 2;
    cuzk_error e = {0};
    cuzk_status st;
    /* The cheap checks first, before the C1 output is read and long before any synthesis: the
     * backend, the outputs, and the key files' headers (which circuit the .params is for; the
     * .r1cs's counts against it). */
    if (eo.backend == CUZK_BACKEND_GPU) {
        cuzk_backend b;
        if ((st = cuzk_backend_resolve(CUZK_BACKEND_GPU, &b, &e))) return cli_fail(st, &e);
    }
    const char *ins[3] = {pos[0], params, r1cs};
    const char *outs[2] = {pos[1], trace};   /* --trace too: refused now, not after the prove */
    st = cuzk_check_outputs(ins, 3, outs, trace ? 2 : 1, &e);
    if (st) return cli_fail(st, &e);
    const char *key_circuit = NULL;
    if ((st = cuzk_porep_circuit_of_file(params, &key_circuit, &e))) return cli_fail(st, &e);
    if (r1cs) {
        cuzk_file_shape want;
        char what[1200];
        snprintf(what, sizeof what, "circuit %s (the one %s is for)", key_circuit, params);
        if ((st = cuzk_porep_circuit_shape(&want, key_circuit, &e)) || (st = cuzk_file_shape_check(r1cs, &want, what, &e)))
            return cli_fail(st, &e);
    }
    if (have_miner) {
        req.check_replica_id = 1;
        cuzk_porep_prover_id(req.prover_id, miner);
    }
    req.c1_path = pos[0];
    req.circuit = key_circuit; /* a C1 of another sector size: refused before its checks */
    cuzk_porep_job *job = NULL;
    cuzk_pk *pk = NULL;
    cuzk_vk *vk = NULL;
    cuzk_engine *eng = NULL;
    cuzk_circuit *circ = NULL;
    cuzk_job_result res;
    memset(&res, 0, sizeof res);
    uint8_t *pub = NULL;
    int rc = 0;
    synth_ctx sc;
    memset(&sc, 0, sizeof sc);
    pthread_mutex_init(&sc.mu, NULL);
    pthread_cond_init(&sc.cv, NULL);
    double t0 = cli_wall_ms();
    if (!quiet) fprintf(stderr, "cuzk prove-porep: %s is for %s; reading and checking %s\n", params, key_circuit, pos[0]);
    if ((st = cuzk_porep_job_create(&job, &req, &e))) {
        if (st == CUZK_ERR_MISMATCH) { /* a C1 of another size than the key's: name the key */
            char m[sizeof e.msg];
            memcpy(m, e.msg, sizeof m);
            cuzk_error_set(&e, st, __FILE__, __LINE__, "%.700s (--params %s)", m, params);
        }
        rc = cli_fail(st, &e);
        if (st == CUZK_ERR_INVALID) rc = 3; /* a C1 output that fails its checks is bad input, not an invalid Groth16 proof */
        goto out;
    }
    double t1 = cli_wall_ms();
    const char *circuit = cuzk_porep_job_circuit(job);
    uint32_t P = cuzk_porep_job_partitions(job);
    if (!quiet)
        fprintf(stderr, "cuzk prove-porep: %s (registered proof %" PRIu64 "), %u partition(s), checked in %.1f ms; loading %s\n",
                circuit, cuzk_porep_job_registered_proof(job), P, t1 - t0, params);
    /* from here on the progress line: the key's load, then every stage of every partition */
    sc.job = job;
    sc.partitions = P;
    sc.bar = progress_new(stderr, -1, !quiet);
    sc.ticking = sc.bar && !quiet && pthread_create(&sc.ticker, NULL, ticker_main, &sc) == 0;
    cuzk_pk_load_opts lo;
    memset(&lo, 0, sizeof lo);
    lo.nthreads = req.nthreads;
    lo.progress = load_progress;
    lo.progress_user = &sc;
    st = r1cs ? cuzk_pk_load_params(&pk, params, r1cs, &lo, &e) : cuzk_porep_pk_load(&pk, circuit, params, &lo, &e);
    if (st) { progress_end(&sc); rc = cli_fail(st, &e); goto out; }
    if ((st = cuzk_vk_from_pk(&vk, pk, &e))) { progress_end(&sc); rc = cli_fail(st, &e); goto out; }
    double t2 = cli_wall_ms();
    if ((st = cuzk_engine_create(&eng, &eo, &e))) { progress_end(&sc); rc = cli_fail(st, &e); goto out; }
    if ((st = cuzk_circuit_create(&circ, pk, &e))) { progress_end(&sc); rc = cli_fail(st, &e); goto out; }
    if (cuzk_circuit_n_vars(circ) != cuzk_porep_job_n_vars(job)) {
        st = cuzk_error_set(&e, CUZK_ERR_MISMATCH, __FILE__, __LINE__,
                            "%s has %zu variables, the %s circuit of %s %zu: parameters of another circuit",
                            r1cs ? r1cs : params, cuzk_circuit_n_vars(circ), circuit, pos[0], cuzk_porep_job_n_vars(job));
        progress_end(&sc);
        rc = cli_fail(st, &e);
        goto out;
    }
    if ((st = cuzk_engine_preload(eng, circ, &e))) { progress_end(&sc); rc = cli_fail(st, &e); goto out; }
    double t3 = cli_wall_ms();
    char line[200];
    snprintf(line, sizeof line, "cuzk prove-porep: proving on %s (key %.1f s, preload %.1f s)", cuzk_engine_backend_name(eng),
             (t2 - t1) / 1e3, (t3 - t2) / 1e3);
    progress_message(sc.bar, line);
    sc.t0 = t3;
    cuzk_job_desc jd;
    memset(&jd, 0, sizeof jd);
    jd.circuit = circ;
    jd.n_partitions = P;
    jd.synth = synth_progress;
    jd.synth_ctx = &sc;
    jd.witness_form = CUZK_WITNESS_FR_MONT;
    jd.progress = prove_progress;
    jd.progress_user = &sc;
    /* a .r1cs from a file: partition 0's witness is checked against it before that partition is
     * proved (a changed constraint is named now, not found as a proof that does not verify) */
    if (r1cs) jd.check_witness = CUZK_CHECK_WITNESS_FIRST;
    cuzk_job_id id;
    if ((st = cuzk_engine_submit(eng, &jd, &id, &e))) { progress_end(&sc); rc = cli_fail(st, &e); goto out; }
    st = cuzk_engine_wait(eng, id, &res, &e);
    progress_end(&sc); /* the job is over: no report comes any more */
    if (st) { rc = cli_fail(st, &e); goto out; }
    if (res.state != CUZK_JOB_DONE) {
        st = res.status ? res.status : CUZK_ERR_CANCELLED;
        if (!e.msg[0]) cuzk_error_set(&e, st, __FILE__, __LINE__, "partition %u failed", res.failed_partition);
        else if (st == CUZK_ERR_UNSAT && r1cs) {
            char m[sizeof e.msg];
            memcpy(m, e.msg, sizeof m);
            cuzk_error_set(&e, st, __FILE__, __LINE__, "%s: %.500s: not the %s circuit the C1 output is synthesized for "
                           "(changed or corrupt)", r1cs, m, circuit);
        }
        rc = cli_fail(st, &e);
        goto out;
    }
    double t4 = cli_wall_ms();
    size_t np = cuzk_porep_job_n_public(job);
    pub = malloc(np * 32);
    if (!pub) { rc = cli_fail(cuzk_error_set(&e, CUZK_ERR_NOMEM, __FILE__, __LINE__, "out of memory"), &e); goto out; }
    for (uint32_t k = 0; k < P; k++) {
        if ((st = cuzk_porep_job_public_inputs(job, k, pub, &e))) { rc = cli_fail(st, &e); goto out; }
        if (res.n_public != np || memcmp(res.public_inputs + (size_t)k * np * 32, pub, np * 32)) {
            st = cuzk_error_set(&e, CUZK_ERR_MISMATCH, __FILE__, __LINE__,
                                "partition %u: the witness's public inputs are not the ones derived from the public data", k);
            rc = cli_fail(st, &e);
            goto out;
        }
        st = cuzk_verify(vk, CUZK_PUBLIC_CANON, pub, np * 32, CUZK_PROOF_CURVE_BYTES, res.proofs + (size_t)k * res.proof_bytes,
                         res.proof_bytes, &e);
        if (st == CUZK_ERR_INVALID) {
            /* made from a checked C1 output with this key, the proof verifies against the key's own
             * verifying key unless the key files are not one key of the circuit: a bad input file */
            char m[sizeof e.msg];
            memcpy(m, e.msg, sizeof m);
            st = cuzk_error_set(&e, CUZK_ERR_MISMATCH, __FILE__, __LINE__,
                                "partition %u: the proof does not verify against the key's own verifying key (%.300s): "
                                "%s%s%s is not a consistent key of circuit %s (changed or corrupt)", k, m, params,
                                r1cs ? " with " : "", r1cs ? r1cs : "", circuit);
            rc = cli_fail(st, &e);
            goto out;
        }
        if (st) {
            char m[sizeof e.msg];
            memcpy(m, e.msg, sizeof m);
            cuzk_error_set(&e, st, __FILE__, __LINE__, "partition %u: the proof does not verify: %.400s", k, m);
            rc = cli_fail(st, &e);
            goto out;
        }
    }
    double t5 = cli_wall_ms();
    if ((st = cuzk_write_outputs(pos[1], res.proofs, (size_t)P * res.proof_bytes, NULL, NULL, &e))) { rc = cli_fail(st, &e); goto out; }
    if (trace && (st = cuzk_engine_trace_write(eng, trace, &e))) { rc = cli_fail(st, &e); goto out; }
    double synth = 0, start = 0, fin = 0;
    for (uint32_t k = 0; k < P; k++) {
        synth += res.timings[k].synth_call_ms;
        start += res.timings[k].start_call_ms;
        fin += res.timings[k].finish_call_ms;
    }
    if (json) {
        printf("{\"circuit\": \"%s\", \"registered_proof\": %" PRIu64 ", \"partitions\": %u, \"backend\": \"%s\", "
               "\"check_ms\": %.1f, \"key_ms\": %.1f, \"preload_ms\": %.1f, \"prove_ms\": %.1f, \"verify_ms\": %.1f, "
               "\"synthesis_ms_per_partition\": %.1f, \"prove_start_ms_per_partition\": %.1f, \"finish_ms_per_partition\": %.1f, "
               "\"proof_bytes\": %zu, \"proof\": \"",
               circuit, cuzk_porep_job_registered_proof(job), P, cuzk_engine_backend_name(eng), t1 - t0, t2 - t1, t3 - t2, t4 - t3,
               t5 - t4, synth / P, start / P, fin / P, (size_t)P * res.proof_bytes);
        for (size_t i = 0; i < (size_t)P * res.proof_bytes; i++) printf("%02x", res.proofs[i]);
        printf("\"}\n");
    } else if (!quiet) {
        fprintf(stderr,
                "cuzk prove-porep: %u partition(s) proved and verified; wrote %s (%zu bytes)\n"
                "  checks %.1f ms | key %.1f s | preload %.1f s | prove %.2f s (%.2f s per partition) | verify %.1f ms\n"
                "  per partition: synthesis %.2f s, prove start %.2f s, finish %.2f s\n",
                P, pos[1], (size_t)P * res.proof_bytes, t1 - t0, (t2 - t1) / 1e3, (t3 - t2) / 1e3, (t4 - t3) / 1e3,
                (t4 - t3) / 1e3 / P, t5 - t4, synth / P / 1e3, start / P / 1e3, fin / P / 1e3);
    }
out:
    progress_end(&sc);
    pthread_cond_destroy(&sc.cv);
    pthread_mutex_destroy(&sc.mu);
    free(pub);
    cuzk_job_result_free(&res);
    if (eng) cuzk_engine_destroy(eng);
    cuzk_circuit_destroy(circ);
    cuzk_vk_free(vk);
    if (pk) cuzk_pk_release(pk);
    cuzk_porep_job_free(job);
    return rc;
}

/* ---- verify-seal ---- */

static void print_verify_seal_help(FILE *f) {
    fprintf(f,
        "usage: cuzk verify-seal --vk FILE (--registered-proof N | --porep-id HEX --api-version V [--synthetic]\n"
        "                        --sector-size BYTES) --comm-r HEX --comm-d HEX --prover-id HEX --sector-id N\n"
        "                        --ticket HEX --seed HEX [--print-inputs] proof.bin\n"
        "\n"
        "What Filecoin's verify_seal does: derives every partition's public inputs from the public data\n"
        "alone (replica_id from prover_id, sector id, ticket, comm_d and porep_id; the challenges from\n"
        "the seed; their parents from the SDR graph) and checks each 192-byte partition proof of\n"
        "proof.bin (partitions x 192 bytes, partition order) against the PoRep verifying key.\n"
        "Prints OK (exit 0) or INVALID: partition k: reason (exit 1); 2 usage, 3 bad input file.\n"
        "\n"
        "options:\n"
        "  --vk FILE               the PoRep verifying key (bellperson .vk) of the sector size\n"
        "  --registered-proof N    RegisteredSealProof id 0..14 (8 = 32 GiB V1_1); or instead:\n"
        "  --porep-id HEX          32 bytes, with --api-version 1.0|1.1|1.2, --sector-size BYTES and\n"
        "  --synthetic             (Synthetic PoRep challenges, 1.2 only)\n"
        "  --comm-r HEX, --comm-d HEX   the commitments, 32 bytes each as stored (little-endian field elements)\n"
        "  --prover-id HEX         32 bytes (a miner f0<id>: the id as a LEB128 varint, zero-padded)\n"
        "  --miner-id M            instead of --prover-id: the actor id (1000, f01000 or t01000)\n"
        "  --sector-id N, --ticket HEX, --seed HEX\n"
        "  --print-inputs          print the derived public inputs as JSON on stdout: an array (per\n"
        "                          partition) of arrays of decimal strings (ONE not included), then verify\n"
        "                          (OK / INVALID then go to stderr, so stdout stays one JSON document)\n"
        "                          (with --print-inputs and no proof file: print only, exit 0)\n"
        "  -q                      print nothing; the exit code tells\n");
}

int cli_cmd_verify_seal(int argc, char **argv) {
    const char *cmd = "verify-seal";
    cuzk_porep_public pub;
    memset(&pub, 0, sizeof pub);
    pub.registered_proof = UINT64_MAX - 1; /* unset */
    const char *vk_path = NULL, *proof_path = NULL;
    int print = 0, quiet = 0, have[7] = {0}, have_pid = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (cli_repeated(argv, i)) return cli_usage_error(cmd, "%s is given twice", a);
        int rc;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) { print_verify_seal_help(stdout); return 0; }
        else if (!strcmp(a, "--vk")) { if (!v) return cli_usage_error(cmd, "%s needs a file", a); vk_path = v; i++; }
        else if (!strcmp(a, "--registered-proof")) { if ((rc = parse_registered_proof(cmd, v, &pub.registered_proof))) return rc; i++; }
        else if (!strcmp(a, "--porep-id")) { if ((rc = parse_hex32(cmd, a, v, pub.porep_id))) return rc; have_pid = 1; i++; }
        else if (!strcmp(a, "--api-version")) {
            if (!v) return cli_usage_error(cmd, "%s needs 1.0, 1.1 or 1.2", a);
            if (!strcmp(v, "1.0")) pub.api_version = 10;
            else if (!strcmp(v, "1.1")) pub.api_version = 11;
            else if (!strcmp(v, "1.2")) pub.api_version = 12;
            else return cli_usage_error(cmd, "unknown --api-version '%s' (1.0, 1.1 or 1.2)", v);
            i++;
        } else if (!strcmp(a, "--synthetic")) pub.synthetic = 1;
        else if (!strcmp(a, "--sector-size")) { if (!v || !cli_parse_u64(v, &pub.sector_size)) return cli_usage_error(cmd, "--sector-size needs bytes (got '%s')", v ? v : ""); i++; }
        else if (!strcmp(a, "--comm-r")) { if ((rc = parse_hex32(cmd, a, v, pub.comm_r))) return rc; have[0] = 1; i++; }
        else if (!strcmp(a, "--comm-d")) { if ((rc = parse_hex32(cmd, a, v, pub.comm_d))) return rc; have[1] = 1; i++; }
        else if ((!strcmp(a, "--prover-id") || !strcmp(a, "--miner-id")) && have[2])
            return cli_usage_error(cmd, "%s", "give --prover-id or --miner-id, not both");
        else if (!strcmp(a, "--prover-id")) { if ((rc = parse_hex32(cmd, a, v, pub.prover_id))) return rc; have[2] = 1; i++; }
        else if (!strcmp(a, "--miner-id")) {
            uint64_t m;
            if (!v || !cli_parse_miner_id(v, &m)) return cli_usage_error(cmd, MINER_ID_USAGE, v ? v : "");
            cuzk_porep_prover_id(pub.prover_id, m);
            have[2] = 1;
            i++;
        } else if (!strcmp(a, "--sector-id")) { if (!v || !cli_parse_u64(v, &pub.sector_id)) return cli_usage_error(cmd, "--sector-id needs a number (got '%s')", v ? v : ""); have[3] = 1; i++; }
        else if (!strcmp(a, "--ticket")) { if ((rc = parse_hex32(cmd, a, v, pub.ticket))) return rc; have[4] = 1; i++; }
        else if (!strcmp(a, "--seed")) { if ((rc = parse_hex32(cmd, a, v, pub.seed))) return rc; have[5] = 1; i++; }
        else if (!strcmp(a, "--print-inputs")) print = 1;
        else if (!strcmp(a, "-q") || !strcmp(a, "--quiet")) quiet = 1;
        else if (a[0] == '-' && a[1]) return cli_usage_error(cmd, "unknown option '%s'", a);
        else if (proof_path) return cli_usage_error(cmd, "too many arguments ('%s'): expected proof.bin", a);
        else proof_path = a;
    }
    static const char *const NAMES[6] = {"--comm-r", "--comm-d", "--prover-id (or --miner-id)", "--sector-id", "--ticket", "--seed"};
    for (int k = 0; k < 6; k++)
        if (!have[k]) return cli_usage_error(cmd, "%s is required", NAMES[k]);
    int by_id = pub.registered_proof != UINT64_MAX - 1;
    if (by_id && (have_pid || pub.api_version || pub.synthetic || pub.sector_size))
        return cli_usage_error(cmd, "%s", "--registered-proof excludes --porep-id, --api-version, --synthetic and --sector-size");
    if (!by_id) {
        if (!have_pid || !pub.api_version || !pub.sector_size)
            return cli_usage_error(cmd, "%s", "give --registered-proof N, or --porep-id with --api-version and --sector-size");
        pub.registered_proof = CUZK_POREP_BY_ID;
    }
    if (!proof_path && !print) return cli_usage_error(cmd, "%s", "expected: proof.bin");
    if (proof_path && !vk_path) return cli_usage_error(cmd, "%s", "--vk FILE is required to verify");
    cuzk_error e = {0};
    uint32_t P = 0;
    size_t np = 0;
    uint8_t *inputs = NULL;
    cuzk_status st = cuzk_porep_public_inputs(&pub, &P, &np, &inputs, &e);
    if (st) {
        int rc = cli_fail(st, &e);
        return st == CUZK_ERR_ARG ? 2 : rc;
    }
    if (print) {
        printf("[");
        for (uint32_t k = 0; k < P; k++) {
            printf("%s\n  [", k ? "," : "");
            for (size_t i = 0; i < np; i++) {
                char d[80];
                le32_decimal(d, inputs + ((size_t)k * np + i) * 32);
                printf("%s\"%s\"", i ? ", " : "", d);
            }
            printf("]");
        }
        printf("\n]\n");
        if (!proof_path) {
            cuzk_post_free(inputs);
            return 0;
        }
    }
    int rc = 0;
    size_t vk_len = 0, proof_len = 0;
    uint8_t *vkb = NULL, *proof = NULL;
    cuzk_vk *vk = NULL;
    if (!(vkb = cli_slurp(vk_path, &vk_len, &e))) { rc = cli_fail(CUZK_ERR_IO, &e); goto out; }
    if ((st = cuzk_vk_load_bellperson(&vk, vkb, vk_len, &e))) {
        char m[sizeof e.msg];
        memcpy(m, e.msg, sizeof m);
        cuzk_error_set(&e, st, __FILE__, __LINE__, "%s: %.400s", vk_path, m);
        rc = cli_fail(st, &e);
        goto out;
    }
    if (cuzk_vk_n_public(vk) != np) {
        st = cuzk_error_set(&e, CUZK_ERR_MISMATCH, __FILE__, __LINE__, "%s has %u public inputs; this sector's PoRep circuit has %zu: "
                            "the verifying key of another circuit or sector size", vk_path, cuzk_vk_n_public(vk), np);
        rc = cli_fail(st, &e);
        goto out;
    }
    if (!(proof = cli_slurp(proof_path, &proof_len, &e))) { rc = cli_fail(CUZK_ERR_IO, &e); goto out; }
    if (proof_len != (size_t)P * CUZK_PROOF_BELLPERSON_BYTES) {
        st = cuzk_error_set(&e, CUZK_ERR_FORMAT, __FILE__, __LINE__, "%s: %zu bytes; this sector's proof is %u partition(s) x 192 = %u bytes",
                            proof_path, proof_len, P, P * CUZK_PROOF_BELLPERSON_BYTES);
        rc = cli_fail(st, &e);
        goto out;
    }
    for (uint32_t k = 0; k < P; k++) {
        cuzk_error ve = {0};
        st = cuzk_verify(vk, CUZK_PUBLIC_CANON, inputs + (size_t)k * np * 32, np * 32, CUZK_PROOF_BELLPERSON,
                         proof + (size_t)k * CUZK_PROOF_BELLPERSON_BYTES, CUZK_PROOF_BELLPERSON_BYTES, &ve);
        if (st == CUZK_ERR_INVALID) {
            if (!quiet) fprintf(print ? stderr : stdout, "INVALID: partition %u: %s\n", k, ve.msg[0] ? ve.msg : "the pairing check fails");
            rc = 1;
            goto out;
        }
        if (st) { rc = cli_fail(st, &ve); goto out; }
    }
    if (!quiet) fprintf(print ? stderr : stdout, "OK\n");   /* stdout stays JSON with --print-inputs */
out:
    cuzk_vk_free(vk);
    free(vkb);
    free(proof);
    cuzk_post_free(inputs);
    return rc;
}
