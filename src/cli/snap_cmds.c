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

#include "cli_partitions.h"
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

/* the three commitments: --comm-r-old, --comm-d-new, --comm-r-new (hex or CID, cli_parse_commitment);
 * returns 0, 2 (usage) or -1 (not one of them) */
static int parse_comm(const char *cmd, const char *a, const char *v, uint8_t old[32], uint8_t d[32], uint8_t neu[32], int have[3]) {
    int k = !strcmp(a, "--comm-r-old") ? 0 : !strcmp(a, "--comm-d-new") ? 1 : !strcmp(a, "--comm-r-new") ? 2 : -1;
    if (k < 0) return -1;
    uint8_t *dst = k == 0 ? old : k == 1 ? d : neu;
    int rc = cli_parse_commitment(cmd, a, v, k == 1 ? CUZK_COMMITMENT_UNSEALED : CUZK_COMMITMENT_SEALED, dst);
    if (!rc) have[k] = 1;
    return rc;
}
static int need_comms(const char *cmd, const int have[3]) {
    static const char *const N[3] = {"--comm-r-old", "--comm-d-new", "--comm-r-new"};
    for (int k = 0; k < 3; k++)
        if (!have[k]) return cli_usage_error(cmd, "%s HEX|CID is required", N[k]);
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
        "  --comm-r-old HEX|CID, --comm-d-new HEX|CID, --comm-r-new HEX|CID   the commitments: 64 hex\n"
        "                          digits, the 32 bytes as stored (little-endian field elements: the\n"
        "                          digests of the CIDs), or the CIDs as lotus and Curio print them\n"
        "                          (bagboea4b... for comm_r, baga6ea4seaq... for comm_d) or in hex\n"
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

static cuzk_status snap_public_inputs(const void *job, uint32_t k, uint8_t *out, cuzk_error *err) {
    return cuzk_snap_job_public_inputs(job, k, out, err);
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
    cli_prove_partitions pp = {
        .cmd = cmd, .job = job, .circuit = circuit, .partitions = P, .n_vars = cuzk_snap_job_n_vars(job),
        .n_public = cuzk_snap_job_n_public(job), .registered_proof = rp, .params = params, .r1cs = r1cs,
        .synthesized_for = "the partition proofs are", .pk_load = cuzk_snap_pk_load, .synth = cuzk_snap_job_synth,
        .public_inputs = snap_public_inputs, .engine = &eo, .nthreads = req.nthreads, .out_path = pos[1], .json = json,
        .quiet = quiet, .t0 = t0, .t1 = t1};
    rc = cli_prove_partitions_run(&pp);
out:
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
        "  --comm-r-old HEX|CID, --comm-d-new HEX|CID, --comm-r-new HEX|CID   64 hex digits (32 bytes as\n"
        "                          stored) or the CID (bagboea4b... comm_r, baga6ea4seaq... comm_d)\n"
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
    rc = cli_verify_partitions_run(inputs, P, np, print, quiet, vk_path, proof_path, "the update circuit", "another circuit",
                                   "this update's proof");
    cuzk_post_free(inputs);
    return rc;
}
