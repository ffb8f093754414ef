/* cuzk's SnapDeals commands: make-update (test data: an update of a small sector sealed in
 * memory, or a sparse update of any size), prove-update (the partition proofs + parameters -> one
 * Groth16 proof per partition, through the engine), verify-update (Filecoin's
 * verify_empty_sector_update_proof: the public inputs from public data alone).
 * Front-end code: the public API only (include/cuzk/). */
#include "snap_cmds.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_util.h"
#include "frontend.h"
#include "cuzk/engine.h"
#include "cuzk/filecoin.h"
#include "cuzk/groth16.h"
#include "cuzk/prover.h"

/* --registered-proof N: RegisteredUpdateProof 0..4 */
static int parse_update_proof(const char *cmd, const char *v, uint64_t *out) {
    if (!v || !cli_parse_u64(v, out) || *out > 4)
        return cli_usage_error(cmd, "--registered-proof needs a RegisteredUpdateProof id 0..4 (got '%s'); 3 is 32 GiB", v ? v : "");
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

/* the three commitments: --comm-r-old, --comm-d-new, --comm-r-new; returns 0, 2 (usage) or -1 (not one of them) */
static int parse_comm(const char *cmd, const char *a, const char *v, uint8_t old[32], uint8_t d[32], uint8_t neu[32], int have[3]) {
    int k = !strcmp(a, "--comm-r-old") ? 0 : !strcmp(a, "--comm-d-new") ? 1 : !strcmp(a, "--comm-r-new") ? 2 : -1;
    if (k < 0) return -1;
    uint8_t *dst = k == 0 ? old : k == 1 ? d : neu;
    int rc = parse_hex32(cmd, a, v, dst);
    if (!rc) have[k] = 1;
    return rc;
}
static int need_comms(const char *cmd, const int have[3]) {
    static const char *const N[3] = {"--comm-r-old", "--comm-d-new", "--comm-r-new"};
    for (int k = 0; k < 3; k++)
        if (!have[k]) return cli_usage_error(cmd, "%s HEX is required", N[k]);
    return 0;
}

/* ---- make-update ---- */

static void print_make_update_help(FILE *f) {
    fprintf(f,
        "usage: cuzk make-update --registered-proof N [options] vproofs.json\n"
        "\n"
        "Makes a SnapDeals update's vanilla partition proofs as TEST DATA, in the file Curio keeps in the\n"
        "update cache (a JSON array of base64 strings, each one partition's PartitionProof in bincode, the\n"
        "bytes Curio sends cuzkd as vanilla_proofs): seals a small sector in memory (2 KiB, 8 MiB) from\n"
        "pseudo-random data, updates it with other pseudo-random data (tree D new, phi, rho, the new\n"
        "replica, tree R new) and opens every partition's challenges; with --sparse, makes a consistent\n"
        "update of any size (32 GiB included) without a sector. Prints comm_r_old, comm_d_new and\n"
        "comm_r_new (prove-update and verify-update take them). Not an updater for storage.\n"
        "\n"
        "options:\n"
        "  --registered-proof N  RegisteredUpdateProof: 0 2 KiB, 1 8 MiB, 2 512 MiB, 3 32 GiB, 4 64 GiB\n"
        "  --data-seed S         the pseudo-random data (and sparse salt) from the integer S (default 1)\n"
        "  --sparse              no sector: sparse consistent trees (any size)\n"
        "  --threads N           worker threads (default: all CPUs)\n"
        "  --json                print {\"comm_r_old\": hex, \"comm_d_new\": hex, \"comm_r_new\": hex, ...} on stdout\n"
        "  -q, --quiet           print nothing on success\n"
        "\n"
        "example:\n"
        "  cuzk make-update --registered-proof 0 vproofs.json\n");
}

int cli_cmd_make_update(int argc, char **argv) {
    const char *cmd = "make-update";
    cuzk_snap_update_request req;
    memset(&req, 0, sizeof req);
    req.data_seed = 1;
    uint64_t rp = UINT64_MAX;
    const char *out = NULL;
    int json = 0, quiet = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (cli_repeated(argv, i)) return cli_usage_error(cmd, "%s is given twice", a);
        int rc;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) { print_make_update_help(stdout); return 0; }
        else if (!strcmp(a, "--registered-proof")) { if ((rc = parse_update_proof(cmd, v, &rp))) return rc; i++; }
        else if (!strcmp(a, "--data-seed")) { if (!v || !cli_parse_u64(v, &req.data_seed)) return cli_usage_error(cmd, "--data-seed needs an integer (got '%s')", v ? v : ""); i++; }
        else if (!strcmp(a, "--sparse")) req.sparse = 1;
        else if (!strcmp(a, "--threads")) {
            long t;
            if (!v || !cli_parse_int(v, &t) || t < 0 || t > 4096) return cli_usage_error(cmd, "--threads needs a thread count (got '%s')", v ? v : "");
            req.nthreads = (int)t;
            i++;
        } else if (!strcmp(a, "--json")) json = 1;
        else if (!strcmp(a, "-q") || !strcmp(a, "--quiet")) quiet = 1;
        else if (a[0] == '-' && a[1]) return cli_usage_error(cmd, "unknown option '%s'", a);
        else if (out) return cli_usage_error(cmd, "too many arguments ('%s'): expected vproofs.json", a);
        else out = a;
    }
    if (rp == UINT64_MAX) return cli_usage_error(cmd, "%s", "--registered-proof N is required");
    if (!out) return cli_usage_error(cmd, "%s", "expected: vproofs.json");
    req.registered_proof = rp;
    cuzk_error e = {0};
    const char *outs[1] = {out};
    cuzk_status st = cuzk_check_outputs(NULL, 0, outs, 1, &e);
    if (st) return cli_fail(st, &e);
    uint8_t *js = NULL, c[3][32];
    size_t len = 0;
    double t0 = cli_wall_ms();
    if (!quiet) fprintf(stderr, "cuzk make-update: %s registered update proof %" PRIu64 "\n", req.sparse ? "sparse update of" : "sealing and updating a sector of", rp);
    st = cuzk_snap_make_update(&req, &js, &len, c[0], c[1], c[2], &e);
    if (st) return cli_fail(st, &e);
    double t1 = cli_wall_ms();
    st = cuzk_write_outputs(out, js, len, NULL, NULL, &e);
    cuzk_post_free(js);
    if (st) return cli_fail(st, &e);
    char h[3][65];
    for (int k = 0; k < 3; k++) cli_hex(h[k], c[k], 32);
    if (json)
        printf("{\"registered_proof\": %" PRIu64 ", \"comm_r_old\": \"%s\", \"comm_d_new\": \"%s\", \"comm_r_new\": \"%s\", "
               "\"bytes\": %zu, \"ms\": %.1f}\n", rp, h[0], h[1], h[2], len, t1 - t0);
    else if (!quiet)
        fprintf(stderr, "cuzk make-update: wrote %s (%zu bytes) in %.1f ms\ncomm_r_old %s\ncomm_d_new %s\ncomm_r_new %s\n", out, len,
                t1 - t0, h[0], h[1], h[2]);
    return 0;
}

/* ---- prove-update ---- */

static void print_prove_update_help(FILE *f) {
    fprintf(f,
        "usage: cuzk prove-update --params FILE --registered-proof N --comm-r-old HEX --comm-d-new HEX\n"
        "                         --comm-r-new HEX [options] vproofs.json proof.bin\n"
        "\n"
        "SnapDeals: proves a sector's update from its vanilla partition proofs (Curio's file: a JSON array\n"
        "of base64 strings of each partition's PartitionProof bincode) with the update parameters of its\n"
        "size (Filecoin's .params, or INSECURE test ones from 'cuzk setup --circuit snap-SIZE'). First every\n"
        "partition proof is checked as Filecoin's verifier would (counts, the challenges comm_r_new gives,\n"
        "Merkle paths and roots, comm_r_old / comm_r_new = Poseidon(comm_c, root), the apex leaves and the\n"
        "partition path to comm_d_new, the encoding with rho); a failing one is refused with the partition,\n"
        "challenge and field (exit 3) before any synthesis. The partitions then go through the engine, every\n"
        "proof is verified, and proof.bin gets partitions x 192 bytes (16 x 192 = 3,072 bytes for 32 GiB).\n"
        "\n"
        "options:\n"
        "  --params FILE           the update .params of the sector size (required)\n"
        "  --r1cs FILE             the circuit as a .r1cs file (default: recorded in memory)\n"
        "  --registered-proof N    RegisteredUpdateProof: 0 2 KiB, 1 8 MiB, 2 512 MiB, 3 32 GiB, 4 64 GiB\n"
        "  --comm-r-old HEX, --comm-d-new HEX, --comm-r-new HEX   the commitments, 32 bytes each as stored\n"
        "                          (little-endian field elements: the digests of the CIDs)\n"
        "  --backend B             cpu | gpu | auto (default auto)\n"
        "  --threads N             CPU threads (default: all CPUs)\n"
        "  --synthesis-workers N   partitions synthesized at once (default 2)\n"
        "  --json                  print a JSON summary on stdout\n"
        "  -q, --quiet             print nothing on success\n"
        "\n"
        "example:\n"
        "  cuzk setup --circuit snap-2k snap2k.r1cs snap2k.params snap2k.vk      # INSECURE\n"
        "  cuzk make-update --registered-proof 0 vproofs.json                    # prints the commitments\n"
        "  cuzk prove-update --params snap2k.params --r1cs snap2k.r1cs --registered-proof 0 \\\n"
        "      --comm-r-old ... --comm-d-new ... --comm-r-new ... vproofs.json proof.bin\n");
}

typedef struct synth_ctx {
    cuzk_snap_job *job;
    uint32_t partitions;
    int quiet;
    double t0;
    volatile uint32_t done;
} synth_ctx;

static cuzk_status synth_progress(void *user, uint32_t partition, uint64_t *w, size_t n_vars, cuzk_error *err) {
    synth_ctx *c = user;
    double t = cli_wall_ms();
    cuzk_status st = cuzk_snap_job_synth(c->job, partition, w, n_vars, err);
    if (st == CUZK_OK) {
        uint32_t d = __atomic_add_fetch(&c->done, 1, __ATOMIC_RELAXED);
        if (!c->quiet)
            fprintf(stderr, "cuzk prove-update: partition %u synthesized in %.1f s (%u of %u, %.1f s since start)\n", partition,
                    (cli_wall_ms() - t) / 1e3, d, c->partitions, (cli_wall_ms() - c->t0) / 1e3);
    }
    return st;
}

int cli_cmd_prove_update(int argc, char **argv) {
    const char *cmd = "prove-update";
    const char *params = NULL, *r1cs = NULL, *pos[2] = {NULL, NULL};
    int npos = 0, json = 0, quiet = 0, have[3] = {0, 0, 0};
    uint64_t rp = UINT64_MAX;
    cuzk_snap_request req;
    memset(&req, 0, sizeof req);
    cuzk_engine_opts eo;
    memset(&eo, 0, sizeof eo);
    eo.synthesis_workers = 2;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (cli_repeated(argv, i)) return cli_usage_error(cmd, "%s is given twice", a);
        int rc;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) { print_prove_update_help(stdout); return 0; }
        else if ((rc = parse_comm(cmd, a, v, req.comm_r_old, req.comm_d_new, req.comm_r_new, have)) >= 0) { if (rc) return rc; i++; }
        else if (!strcmp(a, "--params")) { if (!v) return cli_usage_error(cmd, "%s needs a file", a); params = v; i++; }
        else if (!strcmp(a, "--r1cs")) { if (!v) return cli_usage_error(cmd, "%s needs a file", a); r1cs = v; i++; }
        else if (!strcmp(a, "--registered-proof")) { if ((rc = parse_update_proof(cmd, v, &rp))) return rc; i++; }
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
        else if (npos == 2) return cli_usage_error(cmd, "too many arguments ('%s'): expected vproofs.json proof.bin", a);
        else pos[npos++] = a;
    }
    int rc = 0;
    if (!params) return cli_usage_error(cmd, "%s", "--params FILE is required");
    if (rp == UINT64_MAX) return cli_usage_error(cmd, "%s", "--registered-proof N is required");
    if ((rc = need_comms(cmd, have))) return rc;
    if (npos != 2) return cli_usage_error(cmd, "%s", "expected: vproofs.json proof.bin");
    if (!cli_msm_from_env(&eo.msm, "cuzk prove-update")) return 2;
    req.registered_proof = rp;
    cuzk_error e = {0};
    const char *ins[3] = {pos[0], params, r1cs};
    const char *outs[1] = {pos[1]};
    cuzk_status st = cuzk_check_outputs(ins, 3, outs, 1, &e);
    if (st) return cli_fail(st, &e);
    for (int k = 1; k < 3; k++) {   /* the key's files must open before the checks */
        if (!ins[k]) continue;
        FILE *f = fopen(ins[k], "rb");
        if (!f) return cli_fail(cuzk_error_set(&e, CUZK_ERR_IO, __FILE__, __LINE__, "%s: cannot open", ins[k]), &e);
        fclose(f);
    }
    req.json_path = pos[0];
    cuzk_snap_job *job = NULL;
    cuzk_pk *pk = NULL;
    cuzk_vk *vk = NULL;
    cuzk_engine *eng = NULL;
    cuzk_circuit *circ = NULL;
    cuzk_job_result res;
    memset(&res, 0, sizeof res);
    uint8_t *pub = NULL;
    double t0 = cli_wall_ms();
    if (!quiet) fprintf(stderr, "cuzk prove-update: reading and checking %s\n", pos[0]);
    if ((st = cuzk_snap_job_create(&job, &req, &e))) {
        rc = cli_fail(st, &e);
        if (st == CUZK_ERR_INVALID) rc = 3; /* a vanilla proof that fails its checks is bad input */
        if (st == CUZK_ERR_ARG) rc = 2;
        goto out;
    }
    double t1 = cli_wall_ms();
    const char *circuit = cuzk_snap_job_circuit(job);
    uint32_t P = cuzk_snap_job_partitions(job);
    if (!quiet) fprintf(stderr, "cuzk prove-update: %s, %u partition(s), checked in %.1f ms; loading %s\n", circuit, P, t1 - t0, params);
    {
        /* the key files' headers against the circuit the partition proofs are for, before the
         * circuit is recorded and the key loaded (gigabytes at 32 GiB) */
        cuzk_file_shape want;
        char what[300];
        snprintf(what, sizeof what, "circuit %s (the partition proofs' sector size)", circuit);
        if ((st = cuzk_snap_circuit_shape(&want, circuit, &e)) || (st = cuzk_file_shape_check(params, &want, what, &e)) ||
            (r1cs && (st = cuzk_file_shape_check(r1cs, &want, what, &e)))) {
            rc = cli_fail(st, &e);
            goto out;
        }
    }
    cuzk_pk_load_opts lo;
    memset(&lo, 0, sizeof lo);
    lo.nthreads = req.nthreads;
    st = r1cs ? cuzk_pk_load_params(&pk, params, r1cs, &lo, &e) : cuzk_snap_pk_load(&pk, circuit, params, &lo, &e);
    if (st) { rc = cli_fail(st, &e); goto out; }
    if ((st = cuzk_vk_from_pk(&vk, pk, &e))) { rc = cli_fail(st, &e); goto out; }
    double t2 = cli_wall_ms();
    if ((st = cuzk_engine_create(&eng, &eo, &e))) { rc = cli_fail(st, &e); goto out; }
    if ((st = cuzk_circuit_create(&circ, pk, &e))) { rc = cli_fail(st, &e); goto out; }
    if (cuzk_circuit_n_vars(circ) != cuzk_snap_job_n_vars(job)) {
        st = cuzk_error_set(&e, CUZK_ERR_MISMATCH, __FILE__, __LINE__, "%s has %zu variables, the %s circuit %zu: parameters of another circuit",
                            r1cs ? r1cs : params, cuzk_circuit_n_vars(circ), circuit, cuzk_snap_job_n_vars(job));
        rc = cli_fail(st, &e);
        goto out;
    }
    if ((st = cuzk_engine_preload(eng, circ, &e))) { rc = cli_fail(st, &e); goto out; }
    double t3 = cli_wall_ms();
    if (!quiet) fprintf(stderr, "cuzk prove-update: proving on %s (key %.1f s, preload %.1f s)\n", cuzk_engine_backend_name(eng),
                        (t2 - t1) / 1e3, (t3 - t2) / 1e3);
    synth_ctx sc = {job, P, quiet, t3, 0};
    cuzk_job_desc jd;
    memset(&jd, 0, sizeof jd);
    jd.circuit = circ;
    jd.n_partitions = P;
    jd.synth = synth_progress;
    jd.synth_ctx = &sc;
    jd.witness_form = CUZK_WITNESS_FR_MONT;
    /* a .r1cs from a file: partition 0's witness is checked against it before that partition is
     * proved (a changed constraint is named now, not found as a proof that does not verify) */
    if (r1cs) jd.check_witness = CUZK_CHECK_WITNESS_FIRST;
    cuzk_job_id id;
    if ((st = cuzk_engine_submit(eng, &jd, &id, &e))) { rc = cli_fail(st, &e); goto out; }
    if ((st = cuzk_engine_wait(eng, id, &res, &e))) { rc = cli_fail(st, &e); goto out; }
    if (res.state != CUZK_JOB_DONE) {
        st = res.status ? res.status : CUZK_ERR_CANCELLED;
        if (!e.msg[0]) cuzk_error_set(&e, st, __FILE__, __LINE__, "partition %u failed", res.failed_partition);
        else if (st == CUZK_ERR_UNSAT && r1cs) {
            char m[sizeof e.msg];
            memcpy(m, e.msg, sizeof m);
            cuzk_error_set(&e, st, __FILE__, __LINE__, "%s: %.500s: not the %s circuit the partition proofs are synthesized "
                           "for (changed or corrupt)", r1cs, m, circuit);
        }
        rc = cli_fail(st, &e);
        goto out;
    }
    double t4 = cli_wall_ms();
    size_t np = cuzk_snap_job_n_public(job);
    pub = malloc(np * 32);
    if (!pub) { rc = cli_fail(cuzk_error_set(&e, CUZK_ERR_NOMEM, __FILE__, __LINE__, "out of memory"), &e); goto out; }
    for (uint32_t k = 0; k < P; k++) {
        if ((st = cuzk_snap_job_public_inputs(job, k, pub, &e))) { rc = cli_fail(st, &e); goto out; }
        if (res.n_public != np || memcmp(res.public_inputs + (size_t)k * np * 32, pub, np * 32)) {
            st = cuzk_error_set(&e, CUZK_ERR_MISMATCH, __FILE__, __LINE__,
                                "partition %u: the witness's public inputs are not the ones derived from the public data", k);
            rc = cli_fail(st, &e);
            goto out;
        }
        st = cuzk_verify(vk, CUZK_PUBLIC_CANON, pub, np * 32, CUZK_PROOF_CURVE_BYTES, res.proofs + (size_t)k * res.proof_bytes,
                         res.proof_bytes, &e);
        if (st == CUZK_ERR_INVALID) {
            /* made from checked partition proofs with this key, the proof verifies against the key's
             * own verifying key unless the key files are not one key of the circuit: a bad input file */
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
               circuit, rp, P, cuzk_engine_backend_name(eng), t1 - t0, t2 - t1, t3 - t2, t4 - t3, t5 - t4, synth / P, start / P,
               fin / P, (size_t)P * res.proof_bytes);
        for (size_t i = 0; i < (size_t)P * res.proof_bytes; i++) printf("%02x", res.proofs[i]);
        printf("\"}\n");
    } else if (!quiet) {
        fprintf(stderr,
                "cuzk prove-update: %u partition(s) proved and verified; wrote %s (%zu bytes)\n"
                "  checks %.1f ms | key %.1f s | preload %.1f s | prove %.2f s (%.2f s per partition) | verify %.1f ms\n"
                "  per partition: synthesis %.2f s, prove start %.2f s, finish %.2f s\n",
                P, pos[1], (size_t)P * res.proof_bytes, t1 - t0, (t2 - t1) / 1e3, (t3 - t2) / 1e3, (t4 - t3) / 1e3,
                (t4 - t3) / 1e3 / P, t5 - t4, synth / P / 1e3, start / P / 1e3, fin / P / 1e3);
    }
out:
    free(pub);
    cuzk_job_result_free(&res);
    if (eng) cuzk_engine_destroy(eng);
    cuzk_circuit_destroy(circ);
    cuzk_vk_free(vk);
    if (pk) cuzk_pk_release(pk);
    cuzk_snap_job_free(job);
    return rc;
}

/* ---- verify-update ---- */

static void print_verify_update_help(FILE *f) {
    fprintf(f,
        "usage: cuzk verify-update --vk FILE --registered-proof N --comm-r-old HEX --comm-d-new HEX\n"
        "                          --comm-r-new HEX [--print-inputs] proof.bin\n"
        "       cuzk verify-update --print-inputs --registered-proof N --comm-r-old HEX --comm-d-new HEX\n"
        "                          --comm-r-new HEX              (the public inputs alone: no --vk, no proof)\n"
        "\n"
        "What Filecoin's verify_empty_sector_update_proof does: derives every partition's public inputs\n"
        "from the public data alone (k | h_select << log2(partitions), comm_r_old, comm_d_new, comm_r_new)\n"
        "and checks each 192-byte partition proof of proof.bin (partitions x 192 bytes, partition order)\n"
        "against the update verifying key. Prints OK (exit 0) or INVALID: partition k: reason (exit 1);\n"
        "2 usage, 3 bad input file.\n"
        "\n"
        "options:\n"
        "  --vk FILE               the update verifying key (bellperson .vk) of the sector size\n"
        "  --registered-proof N    RegisteredUpdateProof: 0 2 KiB, 1 8 MiB, 2 512 MiB, 3 32 GiB, 4 64 GiB\n"
        "  --comm-r-old HEX, --comm-d-new HEX, --comm-r-new HEX   32 bytes each as stored\n"
        "  --print-inputs          print the derived public inputs as JSON on stdout: an array (per\n"
        "                          partition) of arrays of decimal strings (ONE not included); the verdict\n"
        "                          then goes to stderr; with no proof file: print only, exit 0\n"
        "  -q                      print nothing; the exit code tells\n");
}

int cli_cmd_verify_update(int argc, char **argv) {
    const char *cmd = "verify-update";
    cuzk_snap_public pubd;
    memset(&pubd, 0, sizeof pubd);
    uint64_t rp = UINT64_MAX;
    const char *vk_path = NULL, *proof_path = NULL;
    int print = 0, quiet = 0, have[3] = {0, 0, 0};
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (cli_repeated(argv, i)) return cli_usage_error(cmd, "%s is given twice", a);
        int rc;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) { print_verify_update_help(stdout); return 0; }
        else if ((rc = parse_comm(cmd, a, v, pubd.comm_r_old, pubd.comm_d_new, pubd.comm_r_new, have)) >= 0) { if (rc) return rc; i++; }
        else if (!strcmp(a, "--vk")) { if (!v) return cli_usage_error(cmd, "%s needs a file", a); vk_path = v; i++; }
        else if (!strcmp(a, "--registered-proof")) { if ((rc = parse_update_proof(cmd, v, &rp))) return rc; i++; }
        else if (!strcmp(a, "--print-inputs")) print = 1;
        else if (!strcmp(a, "-q") || !strcmp(a, "--quiet")) quiet = 1;
        else if (a[0] == '-' && a[1]) return cli_usage_error(cmd, "unknown option '%s'", a);
        else if (proof_path) return cli_usage_error(cmd, "too many arguments ('%s'): expected proof.bin", a);
        else proof_path = a;
    }
    int rc = 0;
    if (rp == UINT64_MAX) return cli_usage_error(cmd, "%s", "--registered-proof N is required");
    if ((rc = need_comms(cmd, have))) return rc;
    if (!proof_path && !print) return cli_usage_error(cmd, "%s", "expected: proof.bin");
    if (proof_path && !vk_path) return cli_usage_error(cmd, "%s", "--vk FILE is required to verify");
    pubd.registered_proof = rp;
    cuzk_error e = {0};
    uint32_t P = 0;
    size_t np = 0;
    uint8_t *inputs = NULL;
    cuzk_status st = cuzk_snap_public_inputs(&pubd, &P, &np, &inputs, &e);
    if (st) {
        rc = cli_fail(st, &e);
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
        st = cuzk_error_set(&e, CUZK_ERR_MISMATCH, __FILE__, __LINE__, "%s has %u public inputs; the update circuit has %zu: the "
                            "verifying key of another circuit", vk_path, cuzk_vk_n_public(vk), np);
        rc = cli_fail(st, &e);
        goto out;
    }
    if (!(proof = cli_slurp(proof_path, &proof_len, &e))) { rc = cli_fail(CUZK_ERR_IO, &e); goto out; }
    if (proof_len != (size_t)P * CUZK_PROOF_BELLPERSON_BYTES) {
        st = cuzk_error_set(&e, CUZK_ERR_FORMAT, __FILE__, __LINE__, "%s: %zu bytes; this update's proof is %u partition(s) x 192 = %u bytes",
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
    if (!quiet) fprintf(print ? stderr : stdout, "OK\n");
out:
    cuzk_vk_free(vk);
    free(vkb);
    free(proof);
    cuzk_post_free(inputs);
    return rc;
}
