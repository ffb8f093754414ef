/* cuzk command line: prove, verify, setup, info, bench. Follows snarkjs/rapidsnark habits
 * (positional file arguments in the same order). Exit codes: 0 ok, 1 invalid proof, 2 usage,
 * 3 bad input file, 4 resources (memory, GPU, RNG). */
#include <ctype.h>
#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bench_exec.h"
#include "frontend.h"
#include "cuzk/cuzk.h"
#include "cuzk/filecoin.h"
#include "cuzk/prover.h"
#include "cuzk/groth16.h"
#include "porep_cmds.h"
#include "snap_cmds.h"
#include "cli_util.h"
#include "progress.h" /* the progress line: the CLI's own terminal helper */

static const char *g_prog = "cuzk";

#define INSECURE_BANNER "INSECURE: single-party test parameters"

static void print_main_help(FILE *f) {
    fprintf(f,
        "cuzk %s - Groth16 prover and verifier for BLS12-381 and BN254 (circom bn128)\n"
        "          (snarkjs/circom .zkey/.wtns files and bellperson/Filecoin .params files)\n"
        "\n"
        "usage: cuzk <command> [options] [files]\n"
        "\n"
        "commands:\n"
        "  prove    make a proof            cuzk prove circuit.zkey witness.wtns proof.json public.json\n"
        "  verify   check a proof           cuzk verify verification_key.json public.json proof.json\n"
        "  setup    INSECURE test params    cuzk setup circuit.r1cs circuit.params circuit.vk\n"
        "           (" INSECURE_BANNER ": whoever runs it can forge proofs)\n"
        "  prove-post  Filecoin PoSt        cuzk prove-post --circuit window-post-32g ... proof.bin public.json\n"
        "  prove-porep Filecoin PoRep C2    cuzk prove-porep --params porep.params c1.json proof.bin\n"
        "  verify-seal check a PoRep proof  cuzk verify-seal --vk porep.vk --registered-proof 8 ... proof.bin\n"
        "  make-c1  PoRep C1 test data      cuzk make-c1 --registered-proof 5 c1.json\n"
        "  prove-update  SnapDeals update   cuzk prove-update --params snap.params --registered-proof 3 ... vproofs.json proof.bin\n"
        "  verify-update check an update    cuzk verify-update --vk snap.vk --registered-proof 3 ... proof.bin\n"
        "  make-update   update test data   cuzk make-update --registered-proof 0 vproofs.json\n"
        "  export-vk  verification key     cuzk export-vk circuit.zkey verification_key.json\n"
        "  info     describe a file         cuzk info circuit.zkey\n"
        "  srs-cache pre-decoded .params    cuzk srs-cache make porep.params (loads it in seconds)\n"
        "  bench    benchmarks              cuzk bench field|ntt|msm|prove|pipeline|load|post|gpu\n"
        "  version  print the version\n"
        "\n"
        "Run 'cuzk <command> --help' for the options of a command.\n"
        "Exit codes: 0 ok, 1 invalid proof, 2 usage error, 3 bad input file, 4 out of resources,\n"
        "130 / 143 interrupted (SIGINT / SIGTERM; partial outputs are removed).\n"
        "Environment: CUZK_THREADS=<n> caps worker threads (default: all CPUs); CUZK_MSM_WINDOW=<bits>\n"
        "and CUZK_MSM_CHUNK=<points> tune the GPU MSMs of prove and prove-post (default: automatic);\n"
        "their B_G2 MSM (bellperson keys and zkeys) runs on the GPU when its query fits there, else on\n"
        "CPU threads; when the GPU backend proves, CUZK_GPU_B2=1 requires the GPU for it and\n"
        "CUZK_GPU_B2=0 keeps it on CPU threads; CUZK_GPU_MSM_ACCUM=tasks|runs|default picks the bucket\n"
        "accumulation of the GPU's G1 MSMs (default: tasks); CUZK_GPU_ZKEY_ROWS=0 keeps a .zkey's a/b\n"
        "on CPU threads (default 1: its A and B rows on the GPU when they fit, the start whole there);\n"
        "CUZK_SRS_CACHE=off ignores pre-decoded SRS caches (cuzk srs-cache);\n"
        "CUZK_VERBOSE=1 prints the library's notices.\n",
        cuzk_version_string());
}

static void print_prove_help(FILE *f) {
    fprintf(f,
        "usage: cuzk prove [options] circuit.zkey witness.wtns proof.json public.json\n"
        "       cuzk prove [options] --params circuit.params --r1cs circuit.r1cs witness.wtns proof.bin public.json\n"
        "\n"
        "Makes a Groth16 proof. The first form reads a snarkjs proving key (.zkey) and a circom witness\n"
        "(.wtns) and writes snarkjs's proof.json and public.json ('snarkjs groth16 verify' accepts them).\n"
        "The second form reads bellperson parameters, the circuit's R1CS and the witness, and writes the\n"
        "192-byte bellperson proof (A | B | C, compressed) and public.json.\n"
        "Every proof is verified against the key before it is written; a witness that does not satisfy\n"
        "the circuit gives an error (exit 3) and no output files.\n"
        "\n"
        "options:\n"
        "  --params FILE      bellperson .params, or phase-2 MPC parameters (bellman's, or\n"
        "                     `snarkjs zkey export bellman` of a bls12381 zkey) (second form)\n"
        "  --proof-json FILE  second form: also write the proof as snarkjs proof.json, for\n"
        "                     `snarkjs groth16 verify` with the key's verification_key.json\n"
        "  --r1cs FILE        the circuit's .r1cs (second form; with a zkey, only with --check)\n"
        "  --check            check every constraint first and name the first one that fails\n"
        "  --fixed-rs R S     use fixed randomness r, s (decimal or 0x-hex, nonzero; tests only: a proof with\n"
        "                     known r, s reveals the witness)\n"
        "  --threads N        worker threads (default: all CPUs)\n"
        "  --no-check         do not check the points of --params (on curve, canonical): faster\n"
        "                     loading of a trusted file; a corrupt one then gives wrong proofs\n"
        "  --full-check       also check that every point of --params is in the prime-order subgroup\n"
        "                     (much slower; once per new file is enough, see 'cuzk info --full-check')\n"
        "  --progress         show the --params loading progress on stderr even when it is not a\n"
        "                     terminal (it is shown on a terminal by default; -q hides it)\n"
        "  --backend B        cpu | gpu | auto (default auto: the GPU when present)\n"
        "  --no-self-verify   skip verifying the proof before writing it\n"
        "  --timings          print the time of every stage\n"
        "  --json             print a JSON summary (status, timings) on stdout\n"
        "  -q, --quiet        print nothing on success\n"
        "\n"
        "examples:\n"
        "  cuzk prove circuit_final.zkey witness.wtns proof.json public.json --timings\n"
        "  cuzk prove --params c.params --r1cs c.r1cs witness.wtns proof.bin public.json\n"
        "\n"
        "rapidsnark's interface: run through a link named 'prover' (or 'rapidsnark'), cuzk is\n"
        "'cuzk prove -q' with rapidsnark's exit codes: 0 ok, 1 any failure (README.md).\n"
        "\n"
        "environment (GPU backend): CUZK_MSM_WINDOW=<bits> and CUZK_MSM_CHUNK=<points> tune the MSMs\n"
        "(default automatic); the B_G2 MSM (either form) runs on the GPU when its query fits there,\n"
        "else on CPU threads: CUZK_GPU_B2=0 keeps it on CPU threads, CUZK_GPU_B2=1 makes a GPU prove\n"
        "fail rather than fall back; CUZK_GPU_MSM_ACCUM=tasks|runs|default picks the G1 MSMs' bucket\n"
        "accumulation; CUZK_GPU_ZKEY_ROWS=0 keeps a .zkey's a/b on CPU threads (default 1: its A and\n"
        "B rows on the GPU too when they fit, the whole start there);\n"
        "CUZK_THREADS=<n> caps the CPU threads.\n");
}

static void print_verify_help(FILE *f) {
    fprintf(f,
        "usage: cuzk verify verification_key.json public.json proof.json\n"
        "       cuzk verify --vk circuit.vk public.json proof.bin\n"
        "\n"
        "Checks a Groth16 proof. Prints OK and exits 0 when it is valid; prints INVALID and exits 1\n"
        "when it is not, whatever is wrong with its values (a point off the curve, a coordinate >= q:\n"
        "not a field element); exits 3 when an input file cannot be used (missing, not JSON, not a\n"
        "proof.json or a 192-byte proof at all, another curve, a bad key or public.json).\n"
        "\n"
        "options:\n"
        "  --vk FILE   bellperson verifying key (.vk), or phase-2 MPC parameters (their vk); the proof\n"
        "              is the 192-byte bellperson encoding\n"
        "  --json      print {\"valid\": true|false, ...} on stdout\n"
        "  -q          print nothing; the exit code tells\n"
        "\n"
        "examples:\n"
        "  cuzk verify verification_key.json public.json proof.json\n"
        "  cuzk verify --vk circuit.vk public.json proof.bin\n");
}

static void print_setup_help(FILE *f) {
    fprintf(f,
        "usage: cuzk setup [options] circuit.r1cs out.params out.vk\n"
        "       cuzk setup [options] circuit.r1cs --zkey out.zkey\n"
        "       cuzk setup --synthetic porep --constraints N [options] out.params out.vk\n"
        "       cuzk setup --circuit NAME [--sectors N] [options] [out.r1cs] out.params out.vk\n"
        "\n"
        INSECURE_BANNER ".\n"
        "Makes Groth16 parameters (bellperson .params + .vk, and with --zkey a snarkjs .zkey) for the\n"
        "circuit. The toxic waste is known to whoever runs it, who can then forge proofs: for tests and\n"
        "benchmarks only; real circuits need a multi-party ceremony. The curve is the .r1cs file's: a\n"
        "bn128 (BN254) circuit gets a .zkey alone (bellperson .params are BLS12-381 only).\n"
        "Progress goes to stderr (redrawn on a terminal, a line every few seconds otherwise); the time\n"
        "of every stage is printed at the end.\n"
        "\n"
        "options:\n"
        "  --zkey FILE          write a snarkjs Groth16 .zkey (the circuit's curve: bls12381 or bn128), from\n"
        "                       the same toxic waste as the .params when both are asked for\n"
        "  --seed S             reproducible toxic waste from the integer S (same bytes on every run,\n"
        "                       backend and thread count; default: OS random)\n"
        "  --backend B          cpu | gpu | auto (default auto: the GPU when present) for the points\n"
        "  --threads N          worker threads (default: all CPUs)\n"
        "  --synthetic porep    the PoRep-shaped synthetic circuit instead of an .r1cs file:\n"
        "    --constraints N    its rows (required; N + K + 1 <= 2^28)\n"
        "    --public K         public inputs (default 328)\n"
        "    --frac01 F         fraction of 0/1 aux values (default 0.95)\n"
        "    --circuit-seed S   structure seed (default 1; the pipeline bench uses the same defaults)\n"
        "  --circuit NAME       a Filecoin circuit, recorded natively (in memory; also written to out.r1cs\n"
        "                       when given: ~41 GB for porep-32g, whose .params is ~47 GB):\n"
        "                       window-post-SIZE, winning-post-SIZE, porep-SIZE (one PoRep partition) or\n"
        "                       snap-SIZE (one SnapDeals update partition),\n"
        "                       SIZE 2k 8m 512m 32g 64g\n"
        "    --sectors N        (PoSt) N sectors per circuit instead of the real count (a smaller test circuit)\n"
        "  --json               print a JSON summary on stdout\n"
        "  -q, --quiet          no progress and no summary (errors still go to stderr)\n"
        "\n"
        "examples:\n"
        "  cuzk setup --seed 1 circuit.r1cs circuit.params circuit.vk --zkey circuit.zkey\n"
        "  cuzk setup bn128_circuit.r1cs --zkey circuit_final.zkey\n"
        "  cuzk setup --synthetic porep --constraints 130000000 porep.params porep.vk\n"
        "  cuzk setup --circuit window-post-32g --sectors 1 post.r1cs post.params post.vk\n");
}

static void print_info_help(FILE *f) {
    fprintf(f,
        "usage: cuzk info [options] FILE...\n"
        "\n"
        "Describes files cuzk reads: snarkjs .zkey/.wtns/.r1cs, bellperson .params/.vk, proof.json,\n"
        "public.json, verification_key.json: kind, curve, sizes and sections.\n"
        "A bellperson .params file is also loaded and every point checked (on the curve, canonical,\n"
        "not infinity) on all threads, with a progress line on a terminal; the first bad point is\n"
        "named by section and index (exit 3).\n"
        "\n"
        "options:\n"
        "  --no-check     headers and sizes only: do not read the points of a .params file\n"
        "  --full-check   also check that every point is in the prime-order subgroup (slower)\n"
        "  --progress     show the progress line even when stderr is not a terminal\n"
        "  -q, --quiet    no progress line\n"
        "  --threads N    worker threads (default: all CPUs)\n"
        "\n"
        "examples:\n"
        "  cuzk info circuit_final.zkey witness.wtns\n"
        "  cuzk info --full-check porep-32g.params\n");
}

/* ---- progress line ------------------------------------------------------------------------ */
/* "loading params [h]  12.30 / 47.00 GB   26%  1.85 GB/s  ETA 0:19" on stderr. On a terminal the
 * line is redrawn in place with \r (at most 10 a second); elsewhere (--progress into a log) one
 * plain line every 5 s. No line before the rate is known (no "--" ETA, no "0.00 GB/s"); the final
 * line ("done in") is printed exactly once. */
typedef struct progress_line {
    bool on, tty, finished;
    const char *label;
    double t0, last;
    size_t width;            /* length of the last line drawn in place, to blank leftovers */
} progress_line;

static double mono_s(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static void progress_init(progress_line *p, const char *label, bool forced, bool quiet) {
    memset(p, 0, sizeof *p);
    p->tty = isatty(STDERR_FILENO);
    p->on = !quiet && (forced || p->tty);
    p->label = label;
    p->t0 = mono_s();
}

static void progress_cb(void *user, const char *what, uint64_t done, uint64_t total) {
    progress_line *p = user;
    if (!p->on || p->finished) return;
    double now = mono_s(), el = now - p->t0;
    bool end = done >= total;
    double rate = el > 0 ? (double)done / el : 0;
    if (!end) {
        if (done == 0 || el < 0.2 || rate <= 0) return;              /* no rate yet: nothing to show */
        if (now - p->last < (p->tty ? 0.1 : 5.0)) return;
    }
    p->last = now;
    char eta[32];
    if (end) snprintf(eta, sizeof eta, "done in %.1f s", el);
    else {
        long sec = (long)((double)(total - done) / rate + 0.5);
        snprintf(eta, sizeof eta, "ETA %ld:%02ld", sec / 60, sec % 60);
    }
    char line[256];
    double unit = total >= 1e9 ? 1e9 : 1e6;
    const char *un = total >= 1e9 ? "GB" : "MB";
    bool gb = rate >= 1e8;
    int n = snprintf(line, sizeof line, "%s [%s]  %.2f / %.2f %s  %3.0f%%  %.2f %s  %s", p->label, end ? "all" : what,
                     (double)done / unit, (double)total / unit, un,
                     total ? 100.0 * (double)done / (double)total : 100.0, rate / (gb ? 1e9 : 1e6),
                     gb ? "GB/s" : "MB/s", eta);
    size_t len = n < 0 ? 0 : (size_t)n >= sizeof line ? sizeof line - 1 : (size_t)n;
    if (p->tty) {
        fprintf(stderr, "\r%s%*s", line, p->width > len ? (int)(p->width - len) : 0, "");
        p->width = len;
        if (end) fputc('\n', stderr);
    } else {
        fprintf(stderr, "%s\n", line);
    }
    if (end) {
        p->finished = true;
        p->width = 0;
    }
    fflush(stderr);
}

/* A line that was started and not ended (an error stopped the load) gets its newline. */
static void progress_finish(progress_line *p) {
    if (p->on && p->tty && p->width && !p->finished) {
        fputc('\n', stderr);
        p->width = 0;
    }
}

static int fail(cuzk_status st, const cuzk_error *e) {
    fprintf(stderr, "%s: error: %s (%s)\n", g_prog, e->msg[0] ? e->msg : cuzk_status_str(st), cuzk_status_str(st));
    return cuzk_exit_code(st);
}

static bool g_rapidsnark; /* running as rapidsnark's `prover`: it has no subcommands */

static int usage_error(const char *cmd, const char *fmt, const char *arg) {
    if (g_rapidsnark) fprintf(stderr, "%s: ", g_prog);
    else fprintf(stderr, "%s %s: ", g_prog, cmd);
    fprintf(stderr, fmt, arg);
    if (g_rapidsnark) fprintf(stderr, "\nRun '%s --help' for usage.\n", g_prog);
    else fprintf(stderr, "\nRun '%s %s --help' for usage.\n", g_prog, cmd);
    return 2;
}

static bool parse_int(const char *s, long *out) {
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno || *end || end == s) return false;
    *out = v;
    return true;
}

static void print_timings(FILE *f, const cuzk_prove_timings *t) {
    fprintf(f, "stage timings (ms), backend %s\n", t->backend ? t->backend : "cpu");
    const bool gpu_res = t->gpu_setup_ms > 0 || t->upload_ms > 0; /* the resident GPU prover ran */
    struct { const char *name; double v; bool show, in_sum; } rows[] = {
        {"load + validate", t->load_ms, true, true},
        {"witness check", t->check_ms, true, true},
        {"GPU setup (resident)", t->gpu_setup_ms, gpu_res, true},
        {"witness upload", t->upload_ms, gpu_res, true},
        {"a/b/c evaluation", t->abc_ms, true, true},
        {"H (NTTs)", t->h_ms, true, true},
        {"MSM A (G1)", t->msm_a_ms, true, true},
        {"MSM B (G1)", t->msm_b1_ms, true, true},
        {"MSM B (G2)", t->msm_b2_ms, true, !t->b2_overlapped},
        {"MSM L/C (G1)", t->msm_l_ms, true, true},
        {"MSM H (G1)", t->msm_h_ms, true, true},
        {"assemble", t->assemble_ms, true, true},
        {"self-verify", t->verify_ms, true, true},
        {"write", t->write_ms, true, true},
        {"free", t->free_ms, true, true},
    };
    double sum = 0;
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        if (!rows[i].show) continue;
        fprintf(f, "  %-22s %10.2f%s\n", rows[i].name, rows[i].v,
                rows[i].in_sum ? "" : "   (CPU threads during the GPU stages: not in the sum)");
        if (rows[i].in_sum) sum += rows[i].v;
    }
    fprintf(f, "  %-22s %10.2f\n", "total (wall)", t->total_ms);
    fprintf(f, "  %-22s %10.2f   (wall minus the stages above: time no stage accounts for)\n", "unaccounted",
            t->total_ms - sum);
}

static void print_timings_json(const cuzk_prove_timings *t) {
    printf("\"timings_ms\": {\"load\": %.3f, \"check\": %.3f, \"abc\": %.3f, \"h\": %.3f, \"msm_a\": %.3f, "
           "\"msm_b1\": %.3f, \"msm_b2\": %.3f, \"msm_l\": %.3f, \"msm_h\": %.3f, \"assemble\": %.3f, "
           "\"verify\": %.3f, \"write\": %.3f, \"free\": %.3f, \"gpu_setup\": %.3f, \"upload\": %.3f, "
           "\"b2_overlapped\": %s, \"total\": %.3f}",
           t->load_ms, t->check_ms, t->abc_ms, t->h_ms, t->msm_a_ms, t->msm_b1_ms, t->msm_b2_ms, t->msm_l_ms,
           t->msm_h_ms, t->assemble_ms, t->verify_ms, t->write_ms, t->free_ms, t->gpu_setup_ms, t->upload_ms,
           t->b2_overlapped ? "true" : "false", t->total_ms);
}

static void json_escape_print(const char *s) {
    putchar('"');
    for (; *s; s++) {
        if (*s == '"' || *s == '\\') printf("\\%c", *s);
        else if ((unsigned char)*s < 0x20) printf("\\u%04x", *s);
        else putchar(*s);
    }
    putchar('"');
}

/* A cache given where its .params is expected. */
static bool is_srs_cache_arg(const char *cmd, const char *opt, const char *path) {
    if (!path || cuzk_srs_cache_level(path) == CUZK_CHECK_DEFAULT) return false;
    fprintf(stderr, "%s %s: %s %s is an SRS cache (cuzk srs-cache): give the .params it was made from (its cache is "
            "read from beside it)\n", g_prog, cmd, opt, path);
    return true;
}

static int cmd_prove(int argc, char **argv) {
    cuzk_prove_opts o = {0};
    const char *params = NULL, *pos[4];
    int npos = 0, timings = 0, json = 0, quiet = 0, force_progress = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) { print_prove_help(stdout); return 0; }
        else if (!strcmp(a, "--params")) { if (++i >= argc) return usage_error("prove", "%s needs a file", a); params = argv[i]; }
        else if (!strcmp(a, "--r1cs")) { if (++i >= argc) return usage_error("prove", "%s needs a file", a); o.r1cs_path = argv[i]; }
        else if (!strcmp(a, "--proof-json")) { if (++i >= argc) return usage_error("prove", "%s needs a file", a); o.proof_json_path = argv[i]; }
        else if (!strcmp(a, "--check")) o.check_witness = 1;
        else if (!strcmp(a, "--fixed-rs")) {
            if (i + 2 >= argc) return usage_error("prove", "%s needs two numbers R S", a);
            o.fixed_r = argv[++i];
            o.fixed_s = argv[++i];
        } else if (!strcmp(a, "--threads")) {
            long v;
            if (++i >= argc || !parse_int(argv[i], &v) || v < 0 || v > 4096) return usage_error("prove", "%s needs a thread count", "--threads");
            o.nthreads = (int)v;
        } else if (!strcmp(a, "--backend")) {
            if (++i >= argc) return usage_error("prove", "%s needs cpu, gpu or auto", a);
            if (!strcmp(argv[i], "cpu")) o.backend = CUZK_BACKEND_CPU;
            else if (!strcmp(argv[i], "gpu")) o.backend = CUZK_BACKEND_GPU;
            else if (!strcmp(argv[i], "auto")) o.backend = CUZK_BACKEND_AUTO;
            else return usage_error("prove", "unknown backend '%s' (cpu, gpu or auto)", argv[i]);
        } else if (!strcmp(a, "--no-self-verify")) o.skip_self_verify = 1;
        else if (!strcmp(a, "--no-check")) o.params_check = CUZK_CHECK_NONE;
        else if (!strcmp(a, "--full-check")) o.params_check = CUZK_CHECK_FULL;
        else if (!strcmp(a, "--progress")) force_progress = 1;
        else if (!strcmp(a, "--timings")) timings = 1;
        else if (!strcmp(a, "--json")) json = 1;
        else if (!strcmp(a, "-q") || !strcmp(a, "--quiet")) quiet = 1;
        else if (a[0] == '-' && a[1]) return usage_error("prove", "unknown option '%s'", a);
        else {
            if (npos == 4) return usage_error("prove", "too many arguments ('%s')", a);
            pos[npos++] = a;
        }
    }
    if (!cli_msm_from_env(&o.msm, "cuzk prove")) return 2;
    if (is_srs_cache_arg("prove", "--params", params)) return 2;
    cuzk_prove_timings t = {0};
    cuzk_error e = {0};
    cuzk_status st;
    const char *proof_out, *public_out;
    if (params) {
        if (!o.r1cs_path) return usage_error("prove", "%s", "--params needs --r1cs circuit.r1cs");
        if (npos != 3) return usage_error("prove", "%s", "expected: --params P --r1cs R witness.wtns proof.bin public.json");
        proof_out = pos[1];
        public_out = pos[2];
        progress_line pl;
        progress_init(&pl, "loading params", force_progress, quiet);
        o.progress = progress_cb;
        o.progress_user = &pl;
        st = cuzk_prove_params_files(params, o.r1cs_path, pos[0], pos[1], pos[2], &o, &t, &e);
        progress_finish(&pl);
    } else {
        if (npos != 4) return usage_error("prove", "%s", "expected: circuit.zkey witness.wtns proof.json public.json");
        if (o.proof_json_path)
            return usage_error("prove", "%s", "--proof-json is for the --params form (a zkey's proof is proof.json already)");
        if (o.r1cs_path && !o.check_witness)
            return usage_error("prove", "%s", "--r1cs with a zkey is read only by --check: add --check, or leave --r1cs out");
        proof_out = pos[2];
        public_out = pos[3];
        st = cuzk_prove_zkey_files(pos[0], pos[1], pos[2], pos[3], &o, &t, &e);
    }
    if (params) {
        cli_srs_cache_quiet_warning(quiet);
        if (st == CUZK_ERR_INVALID || st == CUZK_ERR_UNSAT) cli_srs_cache_note(&e); /* fails to verify or satisfy */
    }
    if (json) {
        printf("{\"status\": \"%s\", ", st == CUZK_OK ? "ok" : "error");
        if (st != CUZK_OK) { printf("\"error\": "); json_escape_print(e.msg); printf(", "); }
        else { printf("\"proof\": "); json_escape_print(proof_out); printf(", \"public\": "); json_escape_print(public_out); printf(", "); }
        if (params) cli_srs_cache_json();
        printf("\"backend\": \"%s\", ", t.backend ? t.backend : "cpu");
        printf("\"constraints\": %u, \"domain_size\": %u, \"n_vars\": %u, \"n_public\": %u, ", t.constraints,
               t.domain_size, t.n_vars, t.n_public);
        print_timings_json(&t);
        printf("}\n");
    }
    if (st != CUZK_OK) return fail(st, &e);
    if (!json && !quiet) {
        const char *be = t.backend ? t.backend : "cpu";
        if (o.proof_json_path) printf("snarkjs proof.json written to %s\n", o.proof_json_path);
        printf("proof written to %s, public inputs to %s (%.1f ms, %s%s)\n", proof_out, public_out, t.total_ms,
               !strcmp(be, "gpu") ? "on the GPU" : "on the CPU",
               o.backend == CUZK_BACKEND_AUTO && strcmp(be, "gpu") ? ": no usable GPU (or no CUDA in this build)" : "");
    }
    if (timings) print_timings(json ? stderr : stdout, &t);
    return 0;
}

/* Whether the file at path starts (after white space) with '{': a JSON object, e.g. a snarkjs file. */
static bool looks_like_json(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) return false;
    int c;
    do c = fgetc(f); while (c == ' ' || c == '\t' || c == '\n' || c == '\r');
    fclose(f);
    return c == '{';
}

static void print_export_vk_help(FILE *f) {
    fprintf(f,
        "usage: cuzk export-vk KEY verification_key.json|-\n"
        "\n"
        "Writes the verification key of KEY as snarkjs's verification_key.json (what `snarkjs zkey\n"
        "export verificationkey` writes; `snarkjs groth16 verify` and `cuzk verify` read it). KEY is a\n"
        "snarkjs .zkey (bls12381 or bn128: only its header and IC sections are read, milliseconds\n"
        "whatever its size) or a bellperson .vk (BLS12-381; also the start of a bellperson .params or\n"
        "phase-2 MPC parameters file, which begin with it): proofs written as proof.json by\n"
        "`cuzk prove --proof-json` then verify in snarkjs too. Every point is checked on the curve\n"
        "and in the subgroup. The output is written whole or not at all; - writes it to stdout.\n"
        "\n"
        "options:\n"
        "  -q, --quiet   print nothing on success\n"
        "\n"
        "exit codes: 0 written, 2 usage error, 3 bad key file, 4 out of memory\n"
        "\n"
        "example:\n"
        "  cuzk export-vk circuit_final.zkey verification_key.json\n");
}

/* KEY: whatever cuzk_vk_load_key_file reads (a .zkey, a bellperson .vk, .params or MPC file) */
static int cmd_export_vk(int argc, char **argv) {
    const char *pos[2];
    int npos = 0, quiet = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) { print_export_vk_help(stdout); return 0; }
        else if (!strcmp(a, "-q") || !strcmp(a, "--quiet")) quiet = 1;
        else if (a[0] == '-' && a[1]) return usage_error("export-vk", "unknown option '%s'", a);
        else {
            if (npos == 2) return usage_error("export-vk", "too many arguments ('%s')", a);
            if (!*a) return usage_error("export-vk", "%s", "an empty file name");
            pos[npos++] = a;
        }
    }
    if (npos != 2) return usage_error("export-vk", "%s", "expected: KEY (.zkey or bellperson .vk) verification_key.json (or - for stdout)");
    const bool to_stdout = !strcmp(pos[1], "-");
    cuzk_error e = {0};
    const char *ins[1] = {pos[0]}, *outs[1] = {pos[1]};
    if (!to_stdout && cuzk_check_outputs(ins, 1, outs, 1, &e) != CUZK_OK) return fail(e.code, &e);
    cuzk_vk *vk = NULL;
    cuzk_status st = cuzk_vk_load_key_file(&vk, pos[0], &e);
    if (st != CUZK_OK) return fail(st, &e);
    char *json = NULL;
    size_t len = 0;
    st = cuzk_vk_json(vk, &json, &len, &e);
    const uint32_t n_public = cuzk_vk_n_public(vk);
    cuzk_vk_free(vk);
    if (st == CUZK_OK && to_stdout) {
        if (fwrite(json, 1, len, stdout) != len || fputc('\n', stdout) == EOF || fflush(stdout) != 0)
            st = cuzk_error_set(&e, CUZK_ERR_IO, __FILE__, __LINE__, "cannot write the verification key to stdout: %s", strerror(errno));
    } else if (st == CUZK_OK) {
        st = cuzk_write_outputs(pos[1], json, len, NULL, NULL, &e);
    }
    free(json);
    if (st != CUZK_OK) return fail(st, &e);
    /* the note goes to stderr: stdout stays the JSON's when the output is - or /dev/stdout */
    if (!quiet && !to_stdout) fprintf(stderr, "%s: verification key of %s (%u public inputs)\n", pos[1], pos[0], n_public);
    return 0;
}

static int cmd_verify(int argc, char **argv) {
    const char *vk = NULL, *pos[3];
    int npos = 0, json = 0, quiet = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) { print_verify_help(stdout); return 0; }
        else if (!strcmp(a, "--vk")) { if (++i >= argc) return usage_error("verify", "%s needs a file", a); vk = argv[i]; }
        else if (!strcmp(a, "--json")) json = 1;
        else if (!strcmp(a, "-q") || !strcmp(a, "--quiet")) quiet = 1;
        else if (a[0] == '-' && a[1]) return usage_error("verify", "unknown option '%s'", a);
        else {
            if (npos == 3) return usage_error("verify", "too many arguments ('%s')", a);
            pos[npos++] = a;
        }
    }
    cuzk_error e = {0};
    cuzk_status st;
    if (vk) {
        if (npos != 2) return usage_error("verify", "%s", "expected: --vk circuit.vk public.json proof.bin");
        if (is_srs_cache_arg("verify", "--vk", vk)) return 2;
        st = cuzk_verify_bellperson_files(vk, pos[0], pos[1], &e);
    } else {
        if (npos != 3) return usage_error("verify", "%s", "expected: verification_key.json public.json proof.json");
        st = cuzk_verify_json_files(pos[0], pos[1], pos[2], &e);
    }
    if (json) {
        printf("{\"valid\": %s", st == CUZK_OK ? "true" : "false");
        if (st != CUZK_OK) { printf(", \"status\": \"%s\", \"reason\": ", cuzk_status_str(st)); json_escape_print(e.msg); }
        printf("}\n");
    }
    if (st == CUZK_OK) {
        if (!json && !quiet) printf("OK\n");
        return 0;
    }
    if (st == CUZK_ERR_INVALID) {
        if (!json && !quiet) printf("INVALID: %s\n", e.msg);
        return 1;
    }
    /* --vk takes the bellperson pair (.vk, 192-byte proof): snarkjs JSON files given to it get the
     * form that reads them */
    if (vk && st != CUZK_ERR_IO && st != CUZK_ERR_NOMEM) {
        const char *js = looks_like_json(vk) ? vk : looks_like_json(pos[1]) ? pos[1] : NULL;
        if (js) {
            fprintf(stderr, "%s: error: %s is a JSON file (snarkjs?), but --vk takes a bellperson .vk and a 192-byte proof: "
                    "verify it without --vk: cuzk verify verification_key.json public.json proof.json (%s)\n",
                    g_prog, js, cuzk_status_str(CUZK_ERR_FORMAT));
            return cuzk_exit_code(CUZK_ERR_FORMAT);
        }
    }
    return fail(st, &e);
}

/* setup's progress: the INSECURE banner comes once the circuit is read (arguments, outputs and the
 * circuit checked: an error before that is one line, alone), then the bar. */
typedef struct setup_view {
    progress *bar;
    bool banner; /* print the banner (not -q, not --json) */
    bool banner_done;
} setup_view;

static void setup_progress(void *user, const char *stage, uint64_t done, uint64_t total) {
    setup_view *v = user;
    if (!v->banner_done) {
        if (!strcmp(stage, "circuit") && done < total) return; /* still reading the circuit */
        v->banner_done = true;
        if (v->banner) fprintf(stderr, "%s: whoever runs this setup knows the toxic waste and can forge proofs\n", INSECURE_BANNER);
    }
    progress_update(v->bar, stage, done, total);
}

static bool parse_u64(const char *s, uint64_t *out) {
    char *end;
    if (!s[0] || s[0] == '-') return false;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 0);
    if (errno || *end || end == s) return false;
    *out = v;
    return true;
}

static int cmd_setup(int argc, char **argv) {
    const char *pos[3], *synthetic = NULL, *named = NULL;
    uint64_t named_sectors = 0;
    int npos = 0, json = 0, quiet = 0;
    uint64_t seed = 0, v;
    bool seeded = false, have_n = false, synth_opt = false;
    cuzk_setup_opts o;
    cuzk_setup_opts_init(&o);
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (cli_repeated(argv, i)) return usage_error("setup", "%s is given twice", a);
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) { print_setup_help(stdout); return 0; }
        else if (!strcmp(a, "--seed")) {
            if (++i >= argc || !parse_u64(argv[i], &seed)) return usage_error("setup", "%s needs a non-negative integer", "--seed");
            seeded = true;
        } else if (!strcmp(a, "--threads")) {
            long t;
            if (++i >= argc || !parse_int(argv[i], &t) || t < 0 || t > 4096) return usage_error("setup", "%s needs a thread count", "--threads");
            o.nthreads = (int)t;
        } else if (!strcmp(a, "--backend")) {
            if (++i >= argc) return usage_error("setup", "%s needs cpu, gpu or auto", a);
            if (!strcmp(argv[i], "cpu")) o.backend = CUZK_BACKEND_CPU;
            else if (!strcmp(argv[i], "gpu")) o.backend = CUZK_BACKEND_GPU;
            else if (!strcmp(argv[i], "auto")) o.backend = CUZK_BACKEND_AUTO;
            else return usage_error("setup", "unknown backend '%s' (cpu, gpu or auto)", argv[i]);
        } else if (!strcmp(a, "--zkey")) {
            if (++i >= argc) return usage_error("setup", "%s needs a file", a);
            o.zkey_path = argv[i];
        } else if (!strcmp(a, "--circuit")) {
            if (++i >= argc) return usage_error("setup", "%s needs a circuit name (window-post-32g, porep-2k, ...)", a);
            named = argv[i];
        } else if (!strcmp(a, "--sectors")) {
            if (++i >= argc || !parse_u64(argv[i], &named_sectors) || named_sectors == 0 || named_sectors > 100000)
                return usage_error("setup", "%s needs a number of sectors (1 .. 100000)", a);
        } else if (!strcmp(a, "--synthetic")) {
            if (++i >= argc) return usage_error("setup", "%s needs a kind (porep)", a);
            synthetic = argv[i];
            if (strcmp(synthetic, "porep") != 0)
                return usage_error("setup", "unknown --synthetic kind '%s' (known: porep)", synthetic);
        } else if (!strcmp(a, "--constraints")) {
            if (++i >= argc || !parse_u64(argv[i], &v)) return usage_error("setup", "%s needs a number of constraints N", "--constraints");
            if (v > UINT32_MAX) return usage_error("setup", "--constraints %s is too large (N + K + 1 must be at most 2^28)", argv[i]);
            o.synth_constraints = (uint32_t)v;
            have_n = true;
            synth_opt = true;
        } else if (!strcmp(a, "--public")) {
            if (++i >= argc || !parse_u64(argv[i], &v) || v > UINT32_MAX) return usage_error("setup", "%s needs a number of public inputs K", "--public");
            o.synth_public = (uint32_t)v;
            synth_opt = true;
        } else if (!strcmp(a, "--frac01")) {
            char *end;
            if (++i >= argc) return usage_error("setup", "%s needs a fraction between 0 and 1", "--frac01");
            double f = strtod(argv[i], &end);
            if (*end || end == argv[i] || !(f >= 0 && f <= 1)) return usage_error("setup", "--frac01 '%s' is not a fraction between 0 and 1", argv[i]);
            o.synth_frac01 = f;
            synth_opt = true;
        } else if (!strcmp(a, "--circuit-seed")) {
            if (++i >= argc || !parse_u64(argv[i], &o.synth_seed)) return usage_error("setup", "%s needs a non-negative integer", "--circuit-seed");
            synth_opt = true;
        } else if (!strcmp(a, "--json")) json = 1;
        else if (!strcmp(a, "-q") || !strcmp(a, "--quiet")) quiet = 1;
        else if (a[0] == '-' && a[1]) return usage_error("setup", "unknown option '%s'", a);
        else {
            if (npos == 3) return usage_error("setup", "too many arguments ('%s')", a);
            pos[npos++] = a;
        }
    }
    const char *r1cs_path = NULL, *params_path = NULL, *vk_path = NULL;
    int named_in_memory = 0; /* --circuit NAME out.params out.vk: recorded in memory, no .r1cs written */
    if (named_sectors && !named) return usage_error("setup", "%s", "--sectors needs --circuit NAME");
    if (named && synthetic) return usage_error("setup", "%s", "--circuit and --synthetic exclude each other");
    if (named) {
        if (synth_opt) return usage_error("setup", "%s", "--constraints, --public, --frac01 and --circuit-seed need --synthetic porep");
        if (npos != 2 && npos != 3)
            return usage_error("setup", "%s", "expected: --circuit NAME [out.r1cs] out.params out.vk");
        int porep = !strncmp(named, "porep-", 6), snap = !strncmp(named, "snap-", 5);
        if (!porep && !snap && strncmp(named, "window-post-", 12) && strncmp(named, "winning-post-", 13))
            return usage_error("setup", "unknown circuit '%s' (window-post-SIZE, winning-post-SIZE, porep-SIZE or snap-SIZE; "
                               "SIZE 2k 8m 512m 32g 64g)", named);
        if ((porep || snap) && named_sectors) return usage_error("setup", "%s", "--sectors is for PoSt circuits, not porep-SIZE or snap-SIZE");
        cuzk_error e = {0};
        if (npos == 2) { /* recorded in memory, no .r1cs file: below, with cuzk_{porep,snap,post}_setup */
            named_in_memory = 1;
        } else {
            const char *outs[] = {pos[0], pos[1], pos[2]};
            if (cuzk_check_outputs(NULL, 0, outs, 3, &e) != CUZK_OK) return fail(e.code, &e);
            if (!quiet && !json) fprintf(stderr, "cuzk setup: recording %s%s into %s\n", named, named_sectors ? " (sector count reduced: a test circuit)" : "", pos[0]);
            cuzk_status wst = porep  ? cuzk_porep_r1cs_write(named, pos[0], NULL, NULL, &e)
                              : snap ? cuzk_snap_r1cs_write(named, pos[0], NULL, NULL, &e)
                                     : cuzk_post_r1cs_write(named, (uint32_t)named_sectors, pos[0], NULL, NULL, &e);
            if (wst != CUZK_OK) return fail(wst, &e);
        }
    }
    if (synthetic) {
        if (!have_n) return usage_error("setup", "%s", "--synthetic porep needs --constraints N (the number of rows)");
        if (npos != 2) return usage_error("setup", "%s", "expected: --synthetic porep --constraints N out.params out.vk");
        o.circuit = CUZK_SETUP_SYNTHETIC_POREP;
        params_path = pos[0];
        vk_path = pos[1];
    } else {
        if (synth_opt) return usage_error("setup", "%s", "--constraints, --public, --frac01 and --circuit-seed need --synthetic porep");
        if (named_in_memory) {
            params_path = pos[0];
            vk_path = pos[1];
        } else if (npos == 1 && o.zkey_path) { /* the .zkey alone */
            r1cs_path = pos[0];
        } else {
            if (npos != 3) return usage_error("setup", "%s", "expected: circuit.r1cs out.params out.vk, or circuit.r1cs --zkey out.zkey");
            r1cs_path = pos[0];
            params_path = pos[1];
            vk_path = pos[2];
        }
    }
    if (seeded) o.seed = &seed;
    {
        /* the arguments first, then the banner: a typo gets its error alone */
        cuzk_error e = {0};
        const char *ins[1] = {r1cs_path}, *outs[3];
        int n_out = 0;
        if (params_path) outs[n_out++] = params_path;
        if (vk_path) outs[n_out++] = vk_path;
        if (o.zkey_path) outs[n_out++] = o.zkey_path;
        if (r1cs_path && access(r1cs_path, R_OK) != 0) {
            snprintf(e.msg, sizeof e.msg, "%s: %s", r1cs_path, strerror(errno));
            return fail(CUZK_ERR_IO, &e);
        }
        if (cuzk_check_outputs(ins, r1cs_path ? 1 : 0, outs, n_out, &e) != CUZK_OK) return fail(e.code, &e);
    }
    setup_view view = {progress_new(stderr, -1, !quiet && !json), !quiet && !json, false};
    o.progress = setup_progress;
    o.progress_user = &view;
    cuzk_setup_timings t = {0};
    cuzk_error e = {0};
    cuzk_status st;
    if (named_in_memory) {
        if (!quiet && !json) fprintf(stderr, "cuzk setup: recording %s%s in memory\n", named, named_sectors ? " (sector count reduced: a test circuit)" : "");
        st = !strncmp(named, "porep-", 6) ? cuzk_porep_setup(named, params_path, vk_path, &o, &t, &e)
             : !strncmp(named, "snap-", 5) ? cuzk_snap_setup(named, params_path, vk_path, &o, &t, &e)
                                           : cuzk_post_setup(named, (uint32_t)named_sectors, params_path, vk_path, &o, &t, &e);
    } else {
        st = cuzk_setup(r1cs_path, params_path, vk_path, &o, &t, &e);
    }
    progress_free(view.bar);
    if (json) {
        printf("{\"status\": \"%s\", \"insecure\": true, ", st == CUZK_OK ? "ok" : "error");
        if (st != CUZK_OK) { printf("\"error\": "); json_escape_print(e.msg); printf(", "); }
        else {
            const char *sep = "";
            if (params_path) {
                printf("\"params\": "); json_escape_print(params_path);
                printf(", \"vk\": "); json_escape_print(vk_path);
                sep = ", ";
            }
            if (o.zkey_path) { printf("%s\"zkey\": ", sep); json_escape_print(o.zkey_path); }
            printf(", ");
        }
        printf("\"backend\": \"%s\", \"constraints\": %u, \"n_vars\": %u, \"n_public\": %u, \"domain_size\": %u, "
               "\"params_bytes\": %llu, \"zkey_bytes\": %llu, \"peak_rss_bytes\": %llu, \"timings_ms\": {",
               t.backend ? t.backend : "cpu", t.n_constraints, t.n_vars, t.n_public, t.domain_size,
               (unsigned long long)t.params_bytes, (unsigned long long)t.zkey_bytes, (unsigned long long)t.peak_rss_bytes);
        for (int i = 0; i < t.n_stages; i++) printf("\"%s\": %.3f, ", t.stage[i].name, t.stage[i].ms);
        printf("\"total\": %.3f}}\n", t.total_ms);
    }
    if (st != CUZK_OK) {
        if (named && r1cs_path) cuzk_discard_output(r1cs_path); /* the .r1cs recorded above: outputs only on success */
        return fail(st, &e);
    }
    if (quiet || json) return 0;
    int log_m = 0;
    while (t.domain_size && (1u << log_m) < t.domain_size) log_m++;
    printf("INSECURE test parameters (see the warning above; tests and benchmarks only)\n");
    printf("circuit: %u constraints, %u public inputs, %u variables, domain 2^%d%s\n", t.n_constraints, t.n_public,
           t.n_vars, log_m, synthetic ? " (synthetic porep)" : "");
    printf("wrote ");
    if (params_path) printf("%s (%.1f MiB), %s%s", params_path, (double)t.params_bytes / 1048576.0, vk_path, o.zkey_path ? ", " : "");
    if (o.zkey_path) printf("%s (%.1f MiB)", o.zkey_path, (double)t.zkey_bytes / 1048576.0);
    printf("\nstage timings (ms), points on the %s\n", t.backend ? t.backend : "cpu");
    double sum = 0;
    for (int i = 0; i < t.n_stages; i++) {
        printf("  %-14s %10.1f\n", t.stage[i].name, t.stage[i].ms);
        sum += t.stage[i].ms;
    }
    printf("  %-14s %10.1f\n", "total (wall)", t.total_ms);
    printf("  %-14s %10.1f   (wall minus the stages above%s)\n", "unaccounted", t.total_ms - sum,
           t.total_ms - sum < 0 ? "; negative: writing overlaps computing the points" : "");
    printf("peak memory %.2f GiB\n", (double)t.peak_rss_bytes / (1024.0 * 1024 * 1024));
    return 0;
}

/* ---- prove-post: Filecoin PoSt from vanilla proofs ---- */
static void print_prove_post_help(FILE *f) {
    fprintf(f,
        "usage: cuzk prove-post --circuit NAME [--sectors N] --params P --r1cs R --randomness HEX\n"
        "                       --vanilla FILE [--vanilla FILE ...] [options] proof.bin public.json\n"
        "\n"
        "Proves a Filecoin PoSt (WindowPoSt or WinningPoSt, rust-fil-proofs FallbackPoSt) from vanilla\n"
        "proofs: reads each sector's vanilla proof (bincode, one file per sector), checks it as the\n"
        "verifier would (paths hash to comm_r_last, comm_r = Poseidon(comm_c, comm_r_last), the opened\n"
        "leaves are the challenges derived from the randomness and sector id), pads the partition with\n"
        "the last sector, synthesizes the witness natively, proves, and writes the 192-byte proof and\n"
        "public.json: the public inputs derived again from the public data (comm_r, sector ids,\n"
        "randomness). A vanilla proof that fails a check is refused with the reason (exit 3), no files.\n"
        "\n"
        "options:\n"
        "  --circuit NAME     window-post-SIZE or winning-post-SIZE, SIZE 2k 8m 512m 32g 64g\n"
        "  --sectors N        the reduced test circuit 'cuzk setup --circuit NAME --sectors N' made\n"
        "  --params FILE      parameters of the circuit (cuzk setup --circuit, or Filecoin's)\n"
        "  --r1cs FILE        the circuit's .r1cs (cuzk setup --circuit writes it)\n"
        "  --randomness HEX   64 hex digits: the 32 randomness bytes, in order (a canonical Fr,\n"
        "                     little-endian; callers clear the top two bits of the last byte)\n"
        "  --vanilla FILE     one sector's vanilla proof; repeat per sector, in partition order\n"
        "                     (WinningPoSt: one file, the challenged sector's proof of 66 challenges,\n"
        "                     one per circuit slot; with --sectors N, N challenges)\n"
        "  --partition K      partition index (default 0)\n"
        "  --api V            1.0, 1.1 or 1.2: how challenge indices run over sectors (default: 1.2\n"
        "                     for WindowPoSt, 1.0 for WinningPoSt, as Filecoin's proofs are)\n"
        "  --prover-id N      the miner's actor id; FallbackPoSt's circuit does not use it (accepted\n"
        "                     for the record, printed in the summary)\n"
        "  --backend B        cpu | gpu | auto (default auto)\n"
        "  --threads N        threads for synthesis and the CPU stages (default: all CPUs)\n"
        "  -q, --quiet        no summary\n"
        "\n"
        "example:\n"
        "  cuzk setup --circuit window-post-32g --sectors 1 post.r1cs post.params post.vk\n"
        "  cuzk prove-post --circuit window-post-32g --sectors 1 --params post.params --r1cs post.r1cs \\\n"
        "      --randomness 0000000000000000000000000000000000000000000000000000000000000000 \\\n"
        "      --vanilla tests/fixtures/filecoin/post.vproof proof.bin public.json\n"
        "  cuzk verify --vk post.vk public.json proof.bin\n");
}

static double wall_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

static int cmd_prove_post(int argc, char **argv) {
    const char *pos[2], *params = NULL, *r1cs = NULL, *rnd_hex = NULL, *vanilla[4096];
    size_t n_vanilla = 0;
    int npos = 0, quiet = 0;
    uint64_t sectors = 0, partition = 0, prover_id = 0;
    cuzk_post_request req;
    memset(&req, 0, sizeof req);
    cuzk_prover_opts po;
    memset(&po, 0, sizeof po);
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) { print_prove_post_help(stdout); return 0; }
        else if (!strcmp(a, "--circuit")) { if (++i >= argc) return usage_error("prove-post", "%s needs a circuit name", a); req.circuit = argv[i]; }
        else if (!strcmp(a, "--sectors")) {
            if (++i >= argc || !parse_u64(argv[i], &sectors) || sectors == 0 || sectors > 100000) return usage_error("prove-post", "%s needs a number of sectors (1 .. 100000)", a);
        } else if (!strcmp(a, "--params")) { if (++i >= argc) return usage_error("prove-post", "%s needs a file", a); params = argv[i]; }
        else if (!strcmp(a, "--r1cs")) { if (++i >= argc) return usage_error("prove-post", "%s needs a file", a); r1cs = argv[i]; }
        else if (!strcmp(a, "--randomness")) { if (++i >= argc) return usage_error("prove-post", "%s needs 64 hex digits", a); rnd_hex = argv[i]; }
        else if (!strcmp(a, "--vanilla")) {
            if (++i >= argc) return usage_error("prove-post", "%s needs a file", a);
            if (n_vanilla == sizeof vanilla / sizeof *vanilla) return usage_error("prove-post", "%s", "too many --vanilla files");
            vanilla[n_vanilla++] = argv[i];
        } else if (!strcmp(a, "--partition")) {
            if (++i >= argc || !parse_u64(argv[i], &partition)) return usage_error("prove-post", "%s needs a partition index", a);
        } else if (!strcmp(a, "--prover-id")) {
            if (++i >= argc || !parse_u64(argv[i], &prover_id)) return usage_error("prove-post", "%s needs an actor id", a);
        } else if (!strcmp(a, "--api")) {
            if (++i >= argc) return usage_error("prove-post", "%s needs 1.0, 1.1 or 1.2", a);
            if (!strcmp(argv[i], "1.0")) req.api_version = 10;
            else if (!strcmp(argv[i], "1.1")) req.api_version = 11;
            else if (!strcmp(argv[i], "1.2")) req.api_version = 12;
            else return usage_error("prove-post", "unknown --api '%s' (1.0, 1.1 or 1.2)", argv[i]);
        } else if (!strcmp(a, "--backend")) {
            if (++i >= argc) return usage_error("prove-post", "%s needs cpu, gpu or auto", a);
            if (!strcmp(argv[i], "cpu")) po.backend = CUZK_BACKEND_CPU;
            else if (!strcmp(argv[i], "gpu")) po.backend = CUZK_BACKEND_GPU;
            else if (!strcmp(argv[i], "auto")) po.backend = CUZK_BACKEND_AUTO;
            else return usage_error("prove-post", "unknown backend '%s' (cpu, gpu or auto)", argv[i]);
        } else if (!strcmp(a, "--threads")) {
            long t;
            if (++i >= argc || !parse_int(argv[i], &t) || t < 0 || t > 4096) return usage_error("prove-post", "%s needs a thread count", a);
            po.nthreads = req.nthreads = (int)t;
        } else if (!strcmp(a, "-q") || !strcmp(a, "--quiet")) quiet = 1;
        else if (a[0] == '-' && a[1]) return usage_error("prove-post", "unknown option '%s'", a);
        else {
            if (npos == 2) return usage_error("prove-post", "too many arguments ('%s')", a);
            pos[npos++] = a;
        }
    }
    if (!cli_msm_from_env(&po.msm, "cuzk prove-post")) return 2;
    if (!req.circuit) return usage_error("prove-post", "%s", "--circuit NAME is required");
    if (!params || !r1cs) return usage_error("prove-post", "%s", "--params and --r1cs are required");
    if (!rnd_hex) return usage_error("prove-post", "%s", "--randomness HEX is required");
    if (n_vanilla == 0) return usage_error("prove-post", "%s", "at least one --vanilla FILE is required");
    if (npos != 2) return usage_error("prove-post", "%s", "expected: proof.bin public.json");
    if (strlen(rnd_hex) != 64) return usage_error("prove-post", "--randomness '%s' is not 64 hex digits", rnd_hex);
    for (int k = 0; k < 32; k++) {
        unsigned v;
        if (!isxdigit((unsigned char)rnd_hex[2 * k]) || !isxdigit((unsigned char)rnd_hex[2 * k + 1]) || sscanf(rnd_hex + 2 * k, "%2x", &v) != 1)
            return usage_error("prove-post", "--randomness '%s' is not 64 hex digits", rnd_hex);
        req.randomness[k] = (uint8_t)v;
    }
    req.sectors = (uint32_t)sectors;
    req.partition = partition;
    req.vanilla_paths = vanilla;
    req.n_vanilla = n_vanilla;
    cuzk_error e = {0};
    /* every input, each --vanilla file included: an output naming one is refused before any work */
    const char *ins[2 + sizeof vanilla / sizeof *vanilla];
    ins[0] = params;
    ins[1] = r1cs;
    memcpy(ins + 2, vanilla, n_vanilla * sizeof *vanilla);
    const char *outs[] = {pos[0], pos[1]};
    cuzk_status st = cuzk_check_outputs(ins, 2 + (int)n_vanilla, outs, 2, &e);
    if (st != CUZK_OK) return fail(st, &e);
    /* the key's files must at least open before the checks and the synthesis (a full partition's
     * witness is GBs and seconds of work); their contents are checked when the key loads */
    for (int k = 0; k < 2; k++) {
        FILE *f = fopen(ins[k], "rb");
        if (!f) {
            st = cuzk_error_set(&e, CUZK_ERR_IO, __FILE__, __LINE__, "%s: cannot open: %s", ins[k], strerror(errno));
            return fail(st, &e);
        }
        fclose(f);
    }
    uint8_t *w = NULL, *pub = NULL;
    size_t wlen = 0, npub = 0;
    cuzk_pk *pk = NULL;
    cuzk_prover *pr = NULL;
    cuzk_proof proof;
    memset(&proof, 0, sizeof proof);
    int rc = 0;
    double t0 = wall_ms();
    if (!quiet) fprintf(stderr, "cuzk prove-post: checking %zu vanilla proof(s) and synthesizing %s\n", n_vanilla, req.circuit);
    if ((st = cuzk_post_witness(&req, &w, &wlen, &pub, &npub, &e)) != CUZK_OK) {
        rc = fail(st, &e);
        if (st == CUZK_ERR_INVALID) rc = 3;   /* a vanilla proof that fails its checks is bad input, not an invalid Groth16 proof */
        goto out;
    }
    double t1 = wall_ms();
    if (!quiet) fprintf(stderr, "cuzk prove-post: loading %s\n", params);
    st = cuzk_pk_load_params(&pk, params, r1cs, NULL, &e);
    cli_srs_cache_quiet_warning(quiet);
    if (st != CUZK_OK) { rc = fail(st, &e); goto out; }
    if ((st = cuzk_prover_create(&pr, pk, &po, &e)) != CUZK_OK) { rc = fail(st, &e); goto out; }
    double t2 = wall_ms();
    if (!quiet) fprintf(stderr, "cuzk prove-post: proving (%s)\n", cuzk_prover_backend_name(pr));
    cuzk_witness wit = {CUZK_WITNESS_FR_MONT, w, wlen};
    if ((st = cuzk_prove(pr, &proof, &wit, NULL, NULL, &e)) != CUZK_OK) {
        if (st == CUZK_ERR_INVALID || st == CUZK_ERR_UNSAT) cli_srs_cache_note(&e); /* fails to verify or satisfy */
        rc = fail(st, &e);
        goto out;
    }
    double t3 = wall_ms();
    if (proof.n_public != npub || memcmp(proof.public_inputs, pub, npub * 32)) {
        st = cuzk_error_set(&e, CUZK_ERR_MISMATCH, __FILE__, __LINE__, "the proof's public inputs are not the ones derived from the public data");
        rc = fail(st, &e);
        goto out;
    }
    if ((st = cuzk_write_outputs(pos[0], proof.bellperson, CUZK_PROOF_BELLPERSON_BYTES, pos[1], proof.public_json, &e)) !=
        CUZK_OK) {
        rc = fail(st, &e);
        goto out;
    }
    if (!quiet)
        fprintf(stderr, "cuzk prove-post: %s, %zu vanilla proof(s), %zu public inputs, prover id %llu: checks + synthesis %.1f ms, "
                        "key %.1f ms, prove %.1f ms; wrote %s and %s\n",
                req.circuit, n_vanilla, npub, (unsigned long long)prover_id, t1 - t0, t2 - t1, t3 - t2, pos[0], pos[1]);
out:
    cuzk_proof_free(&proof);
    cuzk_prover_destroy(pr);
    if (pk) cuzk_pk_release(pk);
    cuzk_post_free(w);
    cuzk_post_free(pub);
    return rc;
}

static int cmd_info(int argc, char **argv) {
    int rc = 0, n = 0, nthreads = 0;
    bool force_progress = false, quiet = false;
    cuzk_check_level level = CUZK_CHECK_CURVE;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) { print_info_help(stdout); return 0; }
        else if (!strcmp(a, "--no-check")) level = CUZK_CHECK_NONE;
        else if (!strcmp(a, "--full-check")) level = CUZK_CHECK_FULL;
        else if (!strcmp(a, "--progress")) force_progress = true;
        else if (!strcmp(a, "-q") || !strcmp(a, "--quiet")) quiet = true;
        else if (!strcmp(a, "--threads")) {
            long v;
            if (++i >= argc || !parse_int(argv[i], &v) || v < 0 || v > 4096) return usage_error("info", "%s needs a thread count", "--threads");
            nthreads = (int)v;
        } else if (a[0] == '-' && a[1]) return usage_error("info", "unknown option '%s'", a);
    }
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--threads")) { i++; continue; }
        if (a[0] == '-' && a[1]) continue;
        char buf[8192];
        cuzk_error e = {0};
        progress_line pl;
        progress_init(&pl, "checking points", force_progress, quiet);
        cuzk_status st = cuzk_describe_file_checked(buf, sizeof buf, a, level, nthreads, progress_cb, &pl, &e);
        progress_finish(&pl);
        n++;
        if (st != CUZK_OK) { rc = fail(st, &e); continue; }
        printf("%s\n", buf);
    }
    if (n == 0) return usage_error("info", "%s", "expected at least one FILE");
    return rc;
}

static void print_srs_cache_help(FILE *f) {
    fprintf(f,
        "usage: cuzk srs-cache make  [--full-check] [--threads N] [--cache PATH] circuit.params\n"
        "       cuzk srs-cache check [--full-check] [--verify | --compare] [--threads N] [--cache PATH] circuit.params\n"
        "\n"
        "The pre-decoded SRS cache of a bellperson .params file: its points decoded once (affine,\n"
        "Montgomery form: cuzk's memory layout) into circuit.params.cuzk-srs, next to it. Every load of\n"
        "that .params (cuzk prove --params, prove-porep, prove-update, prove-post, cuzkd's preload)\n"
        "then reads the cache at disk or memory speed instead of decoding and checking 47 GB of points,\n"
        "as long as the cache is valid: same format version, made from this very file (its size, mtime\n"
        "and a sampled content digest are recorded), its points checked then at a level at least the\n"
        "one asked for, and every 4 MiB chunk matching its checksum. A stale, corrupt or truncated\n"
        "cache is refused with a warning that says why, and the .params is decoded as before (remake\n"
        "the cache after replacing the .params). CUZK_SRS_CACHE=off ignores caches.\n"
        "\n"
        "  make           decode circuit.params with every point checked (on the curve; --full-check:\n"
        "                 also in the prime-order subgroup, ~100x slower, then the cache serves\n"
        "                 full-check loads too) and write the cache (atomically: a temporary, renamed)\n"
        "  check          say whether the cache would be used, from its header only: version,\n"
        "                 staleness, counts against the .params header, level (the chunks are not\n"
        "                 read: a load still refuses a cache whose chunk checksums differ)\n"
        "    --verify     also read every chunk and compare its checksum (what a load checks)\n"
        "    --compare    also decode circuit.params again and compare the cache with it byte for byte\n"
        "  --full-check   the level: make checks the subgroup too; check asks for a full-check cache\n"
        "  --threads N    worker threads (default: all CPUs)\n"
        "  --cache PATH   the cache file (default: circuit.params.cuzk-srs)\n"
        "Exit codes: 0 ok (check: the cache is valid), 2 usage (or --cache naming an input or a file that\n"
        "is not a cache), 3 bad .params or bad/stale cache, 4 I/O (a missing file, a failed write) or memory.\n");
}

static int cmd_srs_cache(int argc, char **argv) {
    if (argc < 2) { print_srs_cache_help(stderr); return 2; }
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) { print_srs_cache_help(stdout); return 0; }
    const char *sub = argv[1], *params = NULL, *cache = NULL;
    if (strcmp(sub, "make") && strcmp(sub, "check")) return usage_error("srs-cache", "unknown subcommand '%s' (make or check)", sub);
    int nthreads = 0, thorough = 0;
    cuzk_check_level level = CUZK_CHECK_CURVE;
    for (int i = 2; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) { print_srs_cache_help(stdout); return 0; }
        else if (!strcmp(a, "--full-check")) level = CUZK_CHECK_FULL;
        else if (!strcmp(a, "--verify") && !strcmp(sub, "check")) thorough = thorough > 1 ? thorough : 1;
        else if (!strcmp(a, "--compare") && !strcmp(sub, "check")) thorough = 2;
        else if (!strcmp(a, "--cache")) {
            if (++i >= argc) return usage_error("srs-cache", "%s needs a path", "--cache");
            cache = argv[i];
        } else if (!strcmp(a, "--threads")) {
            long v;
            if (++i >= argc || !parse_int(argv[i], &v) || v < 0 || v > 4096)
                return usage_error("srs-cache", "%s needs a thread count", "--threads");
            nthreads = (int)v;
        } else if (a[0] == '-' && a[1]) return usage_error("srs-cache", "unknown option '%s'", a);
        else if (params) return usage_error("srs-cache", "%s", "expected one .params file");
        else params = a;
    }
    if (!params) return usage_error("srs-cache", "%s", "expected a .params file");
    cuzk_error e = {0};
    double t0 = wall_ms();
    cuzk_status st = !strcmp(sub, "make") ? cuzk_srs_cache_make(params, cache, level, nthreads, &e)
                                          : cuzk_srs_cache_check(params, cache, level, thorough, nthreads, &e);
    if (st != CUZK_OK) {
        int rc = fail(st, &e);
        return st == CUZK_ERR_IO ? 4 : rc; /* as the help says: 4 for I/O */
    }
    char cpath[4200];
    snprintf(cpath, sizeof cpath, "%s%s", cache ? cache : params, cache ? "" : ".cuzk-srs");
    cuzk_check_level rec = cuzk_srs_cache_level(cpath);
    if (rec == CUZK_CHECK_DEFAULT) rec = level;
    if (!strcmp(sub, "make"))
        printf("cuzk srs-cache: made %s%s in %.1f s (points checked at the %s level)\n", cache ? cache : params,
               cache ? "" : ".cuzk-srs", (wall_ms() - t0) / 1e3, cuzk_check_level_str(level));
    else
        printf("cuzk srs-cache: %s: %s for %s (points checked at the %s level when made; serves %s loads)%s (%.1f s)\n",
               cpath, thorough ? "valid" : "header valid", params, cuzk_check_level_str(rec),
               rec == CUZK_CHECK_FULL ? "full-check and curve-check" : "curve-check",
               thorough == 2 ? ", checksums verified, equal to a fresh decode"
               : thorough ? ", checksums verified" : "; chunks not read: --verify reads and checks them",
               (wall_ms() - t0) / 1e3);
    return 0;
}

/* rapidsnark's interface, when this program runs under rapidsnark's name (a link named `prover`,
 * what rapidsnark's build makes, or `rapidsnark`): `prover circuit.zkey witness.wtns proof.json
 * public.json` is `cuzk prove -q` with the same files, and, as rapidsnark, every failure exits 1
 * (EXIT_FAILURE) with the reason on stderr, a wrong argument count too (rapidsnark's
 * "Invalid number of parameters" and its usage line). cuzk's own options stay accepted. Exit
 * 130 / 143 on SIGINT / SIGTERM are kept (what a shell reports for rapidsnark killed so). */
static bool rapidsnark_name(const char *argv0) {
    const char *b = strrchr(argv0 ? argv0 : "", '/');
    b = b ? b + 1 : argv0 ? argv0 : "";
    return !strcmp(b, "prover") || !strcmp(b, "rapidsnark");
}

static int rapidsnark_main(int argc, char **argv) {
    int files = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) { print_prove_help(stdout); return 0; }
        if (a[0] != '-' || !a[1]) files++;
        else if (!strcmp(a, "--threads") || !strcmp(a, "--backend") || !strcmp(a, "--r1cs")) i++; /* their value */
        else if (!strcmp(a, "--fixed-rs")) i += 2;
    }
    if (files != 4) {
        fprintf(stderr, "Invalid number of parameters\n");
        fprintf(stderr, "Usage: %s <circuit.zkey> <witness.wtns> <proof.json> <public.json>\n", g_prog);
        return 1;
    }
    char **av = malloc(((size_t)argc + 2) * sizeof *av);
    if (!av) { fprintf(stderr, "Error: out of memory\n"); return 1; }
    av[0] = (char *)"prove";
    av[1] = (char *)"-q";
    for (int i = 1; i < argc; i++) av[i + 1] = argv[i];
    av[argc + 1] = NULL;
    int rc = cmd_prove(argc + 1, av);
    free(av);
    return rc == 0 || rc == 130 || rc == 143 ? rc : 1;
}

int main(int argc, char **argv) {
    if (argc >= 1 && rapidsnark_name(argv[0])) {
        g_prog = "prover";
        g_rapidsnark = true;
        if (!cli_frontend_init(argc, argv, g_prog)) return 1;
        return rapidsnark_main(argc, argv);
    }
    if (!cli_frontend_init(argc, argv, "cuzk")) return 2;
    if (argc < 2) { print_main_help(stderr); return 2; }
    const char *cmd = argv[1];
    if (!strcmp(cmd, "--help") || !strcmp(cmd, "-h") || !strcmp(cmd, "help")) { print_main_help(stdout); return 0; }
    if (!strcmp(cmd, "version") || !strcmp(cmd, "--version")) { printf("cuzk %s (git %s)\n", cuzk_version_string(), cuzk_git_commit()); return 0; }
    if (!strcmp(cmd, "prove")) return cmd_prove(argc - 1, argv + 1);
    if (!strcmp(cmd, "verify")) return cmd_verify(argc - 1, argv + 1);
    if (!strcmp(cmd, "setup")) return cmd_setup(argc - 1, argv + 1);
    if (!strcmp(cmd, "prove-post")) return cmd_prove_post(argc - 1, argv + 1);
    if (!strcmp(cmd, "prove-porep")) return cli_cmd_prove_porep(argc - 1, argv + 1);
    if (!strcmp(cmd, "verify-seal")) return cli_cmd_verify_seal(argc - 1, argv + 1);
    if (!strcmp(cmd, "make-c1")) return cli_cmd_make_c1(argc - 1, argv + 1);
    if (!strcmp(cmd, "prove-update")) return cli_cmd_prove_update(argc - 1, argv + 1);
    if (!strcmp(cmd, "verify-update")) return cli_cmd_verify_update(argc - 1, argv + 1);
    if (!strcmp(cmd, "make-update")) return cli_cmd_make_update(argc - 1, argv + 1);
    if (!strcmp(cmd, "export-vk")) return cmd_export_vk(argc - 1, argv + 1);
    if (!strcmp(cmd, "info")) return cmd_info(argc - 1, argv + 1);
    if (!strcmp(cmd, "srs-cache")) return cmd_srs_cache(argc - 1, argv + 1);
    if (!strcmp(cmd, "bench")) return cli_exec_bench(argc - 1, argv + 1);
    fprintf(stderr, "%s: unknown command '%s'\n", g_prog, cmd);
    fprintf(stderr, "run '%s --help' for the commands\n", g_prog);
    return 2;
}
