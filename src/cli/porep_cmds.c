/* cuzk's PoRep commands: make-c1 (test data: seal a small sector in memory, or a sparse C1 of
 * any size), prove-porep (C2: a C1 output + parameters -> one proof per partition, through the
 * engine), verify-seal (Filecoin's verify_seal: the public inputs from public data alone).
 * Front-end code: the public API only (include/cuzk/). */
#include "porep_cmds.h"

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

/* ---- shared argument parsing ---- */

#define MINER_ID_USAGE "--miner-id needs an actor id: 1000, or its ID address f01000 / t01000 (got '%s')"

/* --registered-proof N: 0..14 */
static int parse_registered_proof(const char *cmd, const char *v, uint64_t *out) {
    if (!v || !cli_parse_u64(v, out) || *out > 14)
        return cli_usage_error(cmd, "--registered-proof needs a RegisteredSealProof id 0..14 (got '%s'); 8 is 32 GiB V1_1", v ? v : "");
    return 0;
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
        else if (!strcmp(a, "--ticket")) { if ((rc = cli_parse_hex32(cmd, a, v, req.ticket))) return rc; i++; }
        else if (!strcmp(a, "--seed")) { if ((rc = cli_parse_hex32(cmd, a, v, req.seed))) return rc; i++; }
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

static cuzk_status porep_public_inputs(const void *job, uint32_t k, uint8_t *out, cuzk_error *err) {
    return cuzk_porep_job_public_inputs(job, k, out, err);
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
    int rc = 0;
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
    cli_prove_partitions pp = {
        .cmd = cmd, .job = job, .circuit = circuit, .partitions = P, .n_vars = cuzk_porep_job_n_vars(job),
        .n_public = cuzk_porep_job_n_public(job), .registered_proof = cuzk_porep_job_registered_proof(job), .params = params,
        .r1cs = r1cs, .vars_of = pos[0], .synthesized_for = "the C1 output is", .pk_load = cuzk_porep_pk_load,
        .synth = cuzk_porep_job_synth, .public_inputs = porep_public_inputs, .engine = &eo, .nthreads = req.nthreads,
        .out_path = pos[1], .trace_path = trace, .json = json, .quiet = quiet, .t0 = t0, .t1 = t1};
    rc = cli_prove_partitions_run(&pp);
out:
    cuzk_porep_job_free(job);
    return rc;
}

/* ---- verify-seal ---- */

static void print_verify_seal_help(FILE *f) {
    fprintf(f,
        "usage: cuzk verify-seal --vk FILE (--registered-proof N | --porep-id HEX --api-version V [--synthetic]\n"
        "                        --sector-size BYTES) --comm-r HEX|CID --comm-d HEX|CID --prover-id HEX --sector-id N\n"
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
        "  --comm-r HEX|CID, --comm-d HEX|CID   the commitments: 64 hex digits, the 32 bytes as stored\n"
        "                          (little-endian field elements), or their CIDs as lotus and Curio print\n"
        "                          them (bagboea4b... for comm_r, baga6ea4seaq... for comm_d) or in hex\n"
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
        else if (!strcmp(a, "--porep-id")) { if ((rc = cli_parse_hex32(cmd, a, v, pub.porep_id))) return rc; have_pid = 1; i++; }
        else if (!strcmp(a, "--api-version")) {
            if (!v) return cli_usage_error(cmd, "%s needs 1.0, 1.1 or 1.2", a);
            if (!strcmp(v, "1.0")) pub.api_version = 10;
            else if (!strcmp(v, "1.1")) pub.api_version = 11;
            else if (!strcmp(v, "1.2")) pub.api_version = 12;
            else return cli_usage_error(cmd, "unknown --api-version '%s' (1.0, 1.1 or 1.2)", v);
            i++;
        } else if (!strcmp(a, "--synthetic")) pub.synthetic = 1;
        else if (!strcmp(a, "--sector-size")) { if (!v || !cli_parse_u64(v, &pub.sector_size)) return cli_usage_error(cmd, "--sector-size needs bytes (got '%s')", v ? v : ""); i++; }
        else if (!strcmp(a, "--comm-r")) { if ((rc = cli_parse_commitment(cmd, a, v, CUZK_COMMITMENT_SEALED, pub.comm_r))) return rc; have[0] = 1; i++; }
        else if (!strcmp(a, "--comm-d")) { if ((rc = cli_parse_commitment(cmd, a, v, CUZK_COMMITMENT_UNSEALED, pub.comm_d))) return rc; have[1] = 1; i++; }
        else if ((!strcmp(a, "--prover-id") || !strcmp(a, "--miner-id")) && have[2])
            return cli_usage_error(cmd, "%s", "give --prover-id or --miner-id, not both");
        else if (!strcmp(a, "--prover-id")) { if ((rc = cli_parse_hex32(cmd, a, v, pub.prover_id))) return rc; have[2] = 1; i++; }
        else if (!strcmp(a, "--miner-id")) {
            uint64_t m;
            if (!v || !cli_parse_miner_id(v, &m)) return cli_usage_error(cmd, MINER_ID_USAGE, v ? v : "");
            cuzk_porep_prover_id(pub.prover_id, m);
            have[2] = 1;
            i++;
        } else if (!strcmp(a, "--sector-id")) { if (!v || !cli_parse_u64(v, &pub.sector_id)) return cli_usage_error(cmd, "--sector-id needs a number (got '%s')", v ? v : ""); have[3] = 1; i++; }
        else if (!strcmp(a, "--ticket")) { if ((rc = cli_parse_hex32(cmd, a, v, pub.ticket))) return rc; have[4] = 1; i++; }
        else if (!strcmp(a, "--seed")) { if ((rc = cli_parse_hex32(cmd, a, v, pub.seed))) return rc; have[5] = 1; i++; }
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
    int rc = cli_verify_partitions_run(inputs, P, np, print, quiet, vk_path, proof_path, "this sector's PoRep circuit",
                                       "another circuit or sector size", "this sector's proof");
    cuzk_post_free(inputs);
    return rc;
}
