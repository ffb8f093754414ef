/* cuzk bench pipeline: K jobs of P partitions of a PoRep-shaped synthetic circuit through the
 * engine (include/cuzk/engine.h); every proof verified; throughput, per-stage medians, the cleanup
 * gap of every layer, peak host RSS, and a Chrome trace. The circuit, its keys and the fake
 * devices come from src/benchkit/benchkit.h: parameters from the INSECURE single-party test setup
 * (benchkit_synthetic_setup), made once per run, or from a .params file (`cuzk setup --synthetic
 * porep` with the same circuit options) loaded through the SRS store (benchkit_synthetic_load_params):
 * mapped, checked, decoded into pinned memory and made resident on the GPU, each step timed, so
 * the run also gives the cold-start cost and the time to the first proof. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sys/stat.h>

#include "bench.h"
#include "../src/benchkit/benchkit.h" /* the bench kit (static, internal: not in libcuzk.so) */
#include "cuzk/engine.h"
#include "cuzk/groth16.h"
#include "../src/cli/frontend.h" /* the CLI's helpers, shared with the benchmarks: MSM tuning from the environment */
#include "../src/cli/progress.h" /* the CLI's progress line */

int bench_pipeline_main(int argc, char **argv);

typedef struct {
    const benchkit_synthetic *syn;
    uint64_t job;
    int threads; /* S synthesis workers run at once: each takes its share of the CPUs */
    progress *bar;              /* the proving progress line (stderr) */
    unsigned *synthesized;      /* partitions synthesized so far, all jobs (atomic) */
    unsigned total;             /* partitions in all jobs */
} bench_synth;

/* setup progress (cuzk_progress_fn) onto the progress line */
static void bench_setup_progress(void *user, const char *stage, uint64_t done, uint64_t total) {
    char name[48];
    snprintf(name, sizeof name, "params: %s", stage);
    progress_update(user, name, done, total);
}

static cuzk_status bench_synth_cb(void *ctx, uint32_t part, uint64_t *w, size_t n_vars, cuzk_error *err) {
    const bench_synth *b = ctx;
    cuzk_status st = benchkit_synthetic_witness(b->syn, b->job * 1000003u + part, w, n_vars, b->threads, err);
    /* the engine proves a partition right after its synthesis (bounded queues): the count of
     * synthesized partitions is the proving progress */
    unsigned k = __atomic_add_fetch(b->synthesized, 1, __ATOMIC_RELAXED);
    progress_update(b->bar, "proving (partitions synthesized)", k, b->total);
    return st;
}

static double maxv(const double *v, size_t n) {
    double m = 0;
    for (size_t i = 0; i < n; i++) if (v[i] > m) m = v[i];
    return m;
}
static double sumv(const double *v, size_t n) {
    double s = 0;
    for (size_t i = 0; i < n; i++) s += v[i];
    return s;
}

/* "X GiB" from a plan's refusal ("... needs at least X GiB of GPU memory ..."), for the runs' table */
static const char *pst_need(const char *msg) {
    static char buf[32];
    const char *p = strstr(msg, "at least ");
    if (!p) return "more";
    p += strlen("at least ");
    size_t n = 0;
    while (p[n] && n + 1 < sizeof buf && strncmp(p + n, " of", 3)) n++;
    memcpy(buf, p, n);
    buf[n] = 0;
    return buf;
}

static void usage(FILE *f) {
    fprintf(f,
        "usage: cuzk bench pipeline [options]\n"
        "  --partitions P          partitions per job (default 2)\n"
        "  --constraints N         rows of the synthetic PoRep-shaped circuit (default 16000: domain 2^14)\n"
        "  --proofs K              jobs (default 3)\n"
        "  --synthesis-workers S   synthesis threads (default 1)\n"
        "  --finish-workers F      finish threads (default 1)\n"
        "  --threads T             threads inside each prove-start call (default: all CPUs)\n"
        "  --backend cpu|gpu|auto  prover backend (default auto: the GPU when there is one)\n"
        "  --device D              CUDA device for the GPU backend (default 0)\n"
        "  --devices D0,D1,...     several CUDA devices (distinct, at most 16): one engine over all of\n"
        "                          them, each with its own resident copy of the circuit; the summary\n"
        "                          gives partitions and busy time per device\n"
        "  --workers-per-device W  prove-start workers per device (1..4, default 1)\n"
        "  --fake-devices N        for testing the multi-device engine without a GPU: N fake devices\n"
        "                          (the CPU prover behind the device interface; --backend cpu)\n"
        "  --budget-mib M          host memory budget (default: unlimited, still accounted)\n"
        "  --gpu-budget GIB[,GIB]  device memory the circuit may use on each GPU (default, or 0: the\n"
        "                          device's free memory); its memory plan streams what does not fit\n"
        "                          from host memory, and a budget too small for any plan fails the\n"
        "                          preload. A list runs the jobs once per budget over the same key\n"
        "                          (host copies kept) and ends with a table of the runs\n"
        "  --public N              public inputs (default 328)\n"
        "  --frac01 F              fraction of 0/1 aux values (default 0.95)\n"
        "  --circuit-seed S        structure seed of the synthetic circuit (default 1)\n"
        "  --params FILE           bellperson .params for this circuit, made by\n"
        "                          `cuzk setup --synthetic porep --constraints N` with the same\n"
        "                          --public/--frac01/--circuit-seed; loaded through the SRS store\n"
        "                          (map + point checks + decode, then GPU upload), each step timed.\n"
        "                          Default: INSECURE parameters made in-process for the run\n"
        "  --no-check              with --params: skip the point checks of the load (a corrupt file\n"
        "                          then gives proofs that do not verify: exit 1)\n"
        "  --full-check            with --params: also check every point's subgroup (slow)\n"
        "  --keep-host-srs         with --params on the GPU: keep the host copy of the G1 queries and\n"
        "                          the mapped pages (default: released once on the GPU, so the peak\n"
        "                          host RSS is about the decoded file, not twice it)\n"
        "  --from-file             with --params: load as cuzkd does on the GPU, not through the SRS\n"
        "                          store: vk and ic decoded now, the queries decoded from the file\n"
        "                          straight into the device copy at the preload (read once, never\n"
        "                          whole in host memory; a CPU prover decodes them into host memory)\n"
        "  --trace FILE            write a Chrome trace (open in https://ui.perfetto.dev); written\n"
        "                          even when a proof fails (it is a diagnostic)\n"
        "  --timings               per-job, per-partition breakdown tables\n"
        "exit codes: 0 every proof verified, 1 a proof did not verify, 2 usage, 3 bad --params file\n"
        "or parameters of another circuit, 4 out of memory (host or GPU) or no GPU for --backend gpu\n");
}

int bench_pipeline_main(int argc, char **argv) {
    uint32_t P = 2, N = 16000, K = 3, n_public = 328;
    int S = 1, F = 1, T = 0, timings = 0;
    double frac01 = 0.95, budget_mib = 0, gpu_budget_gib = 0;
    double budgets[8] = {0}; /* --gpu-budget LIST: GiB per run, 0 unlimited */
    int n_budgets = 1;
    const char *trace = NULL, *backend = "auto", *params_path = NULL;
    uint64_t circuit_seed = 1;
    cuzk_msm_opts msm; /* GPU MSM tuning: $CUZK_MSM_WINDOW / $CUZK_MSM_CHUNK / $CUZK_GPU_B2 (0 / 1: B_G2 on CPU
                          threads / the GPU; unset: automatic) / $CUZK_GPU_MSM_ACCUM */
    for (int i = 1; i < argc; i++) /* --help answers whatever the environment says */
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            usage(stdout);
            return 0;
        }
    if (!cli_msm_from_env(&msm, "cuzk bench")) return 2;
    cuzk_check_level params_check = CUZK_CHECK_CURVE;
    int check_given = 0, keep_host_srs = 0, direct_srs = 0;
    int device = 0, device_given = 0, n_devices = 0, wpd = 1, n_fake = 0;
    int devices[CUZK_ENGINE_MAX_DEVICES] = {0};
    static const char *const with_value[] = {"--partitions", "--constraints", "--proofs", "--synthesis-workers",
                                             "--finish-workers", "--threads", "--device", "--public", "--backend",
                                             "--devices", "--workers-per-device", "--fake-devices",
                                             "--budget-mib", "--frac01", "--trace", "--params", "--circuit-seed",
                                             "--gpu-budget"};
    for (int i = 2; i < argc; i++) {
        const char *a = argv[i];
        int more = i + 1 < argc;
        for (size_t q = 0; q < sizeof with_value / sizeof *with_value; q++)
            if (!strcmp(a, with_value[q]) && (!more || !strncmp(argv[i + 1], "--", 2))) {
                fprintf(stderr, "cuzk bench pipeline: %s needs a value%s%s%s\n", a, more ? " (got '" : "",
                        more ? argv[i + 1] : "", more ? "')" : "");
                fprintf(stderr, "  (cuzk bench pipeline --help lists the options)\n");
                return 2;
            }
        long v;
        double d;
#define LONG_OPT(name, lo, hi, dst)                                                                 \
    if (!strcmp(a, name) && more) {                                                                 \
        if (!bench_parse_long(name, argv[++i], lo, hi, &v)) return 2;                                \
        dst = v;                                                                                    \
        continue;                                                                                   \
    }
        LONG_OPT("--partitions", 1, 1000, P)
        LONG_OPT("--constraints", 8, 268435127, N) /* domain <= 2^28 with 328 public inputs */
        LONG_OPT("--proofs", 1, 10000, K)
        LONG_OPT("--synthesis-workers", 1, 256, S)
        LONG_OPT("--finish-workers", 1, 256, F)
        LONG_OPT("--threads", 1, 4096, T)
        if (!strcmp(a, "--device") && more) device_given = 1;
        LONG_OPT("--device", 0, 63, device)
        LONG_OPT("--workers-per-device", 1, 4, wpd)
        LONG_OPT("--fake-devices", 1, CUZK_ENGINE_MAX_DEVICES, n_fake)
        LONG_OPT("--public", 0, 100000, n_public)
#undef LONG_OPT
        if (!strcmp(a, "--devices") && more) {
            const char *list = argv[++i];
            n_devices = 0;
            for (const char *q = list; *q;) {
                char *end = NULL;
                errno = 0;
                long dv = strtol(q, &end, 10);
                if (end == q || errno || dv < 0 || dv > 63 || (*end && *end != ',') || n_devices == CUZK_ENGINE_MAX_DEVICES) {
                    fprintf(stderr, "cuzk bench pipeline: --devices takes distinct CUDA ordinals 0..63 separated by "
                            "commas, at most %d (got '%s')\n", CUZK_ENGINE_MAX_DEVICES, list);
                    return 2;
                }
                for (int k = 0; k < n_devices; k++)
                    if (devices[k] == (int)dv) {
                        fprintf(stderr, "cuzk bench pipeline: --devices lists device %ld twice\n", dv);
                        return 2;
                    }
                devices[n_devices++] = (int)dv;
                q = *end ? end + 1 : end;
                if (*end && !*q) {
                    fprintf(stderr, "cuzk bench pipeline: --devices ends with a comma ('%s')\n", list);
                    return 2;
                }
            }
            if (!n_devices) {
                fprintf(stderr, "cuzk bench pipeline: --devices needs at least one ordinal\n");
                return 2;
            }
            continue;
        }
        if (!strcmp(a, "--backend") && more) backend = argv[++i];
        else if (!strcmp(a, "--budget-mib") && more) {
            if (!bench_parse_double("--budget-mib", argv[++i], 0, 1e9, &d)) return 2;
            budget_mib = d;
        } else if (!strcmp(a, "--gpu-budget") && more) {
            /* one budget, or a comma-separated list: one run each over the same key */
            char buf[256];
            snprintf(buf, sizeof buf, "%s", argv[++i]);
            n_budgets = 0;
            for (char *tok = strtok(buf, ","); tok; tok = strtok(NULL, ",")) {
                if (n_budgets == (int)(sizeof budgets / sizeof *budgets)) {
                    fprintf(stderr, "cuzk bench pipeline: --gpu-budget takes at most %d budgets\n",
                            (int)(sizeof budgets / sizeof *budgets));
                    return 2;
                }
                if (!bench_parse_double("--gpu-budget", tok, 0, 1e6, &d)) return 2;
                budgets[n_budgets++] = d;
            }
            if (!n_budgets) {
                fprintf(stderr, "cuzk bench pipeline: --gpu-budget needs a number of GiB (or a list)\n");
                return 2;
            }
            gpu_budget_gib = 0;
            for (int q = 0; q < n_budgets; q++)
                if (budgets[q] > gpu_budget_gib) gpu_budget_gib = budgets[q];
        } else if (!strcmp(a, "--frac01") && more) {
            if (!bench_parse_double("--frac01", argv[++i], 0, 1, &d)) return 2;
            frac01 = d;
        }
        else if ((!strcmp(a, "--trace") || !strcmp(a, "--params")) && more) {
            const char **dst = !strcmp(a, "--trace") ? &trace : &params_path;
            if (*dst || !*argv[i + 1]) {
                fprintf(stderr, "cuzk bench pipeline: %s %s\n  (cuzk bench pipeline --help lists the options)\n", a,
                        *dst ? "given twice" : "needs a file name (got an empty one)");
                return 2;
            }
            *dst = argv[++i];
        } else if (!strcmp(a, "--no-check") || !strcmp(a, "--full-check")) {
            cuzk_check_level want = !strcmp(a, "--no-check") ? CUZK_CHECK_NONE : CUZK_CHECK_FULL;
            if (check_given && params_check != want) {
                fprintf(stderr, "cuzk bench pipeline: --no-check and --full-check contradict each other\n"
                        "  (cuzk bench pipeline --help lists the options)\n");
                return 2;
            }
            params_check = want;
            check_given = 1;
        }
        else if (!strcmp(a, "--circuit-seed") && more) {
            if (!bench_parse_long("--circuit-seed", argv[++i], 0, LONG_MAX, &v)) return 2;
            circuit_seed = (uint64_t)v;
        }
        else if (!strcmp(a, "--timings")) timings = 1;
        else if (!strcmp(a, "--keep-host-srs")) keep_host_srs = 1;
        else if (!strcmp(a, "--from-file")) direct_srs = 1;
        else if (!strcmp(a, "--help") || !strcmp(a, "-h")) { usage(stdout); return 0; }
        else {
            fprintf(stderr, "cuzk bench pipeline: unknown option '%s'\n  (cuzk bench pipeline --help lists the options)\n", a);
            return 2;
        }
    }
    if (trace) {
        /* fail now, not after the run; nothing is opened (a FIFO would see an early end) */
        const char *ins[1] = {params_path};
        const char *outs[1] = {trace};
        cuzk_error oe = {0};
        cuzk_status ost = cuzk_check_outputs(ins, 1, outs, 1, &oe);
        if (ost != CUZK_OK) {
            fprintf(stderr, "cuzk bench pipeline: --trace: %s\n", oe.msg);
            return ost == CUZK_ERR_ARG ? 2 : 3;
        }
    }
    if (n_devices && device_given) {
        fprintf(stderr, "cuzk bench pipeline: give --device D or --devices LIST, not both\n"
                "  (cuzk bench pipeline --help lists the options)\n");
        return 2;
    }
    if (n_fake && (n_devices || device_given || strcmp(backend, "cpu") != 0)) {
        fprintf(stderr, "cuzk bench pipeline: --fake-devices runs on the CPU: it needs --backend cpu and no "
                "--device/--devices\n  (cuzk bench pipeline --help lists the options)\n");
        return 2;
    }
    if (n_devices) device = devices[0];
    if ((direct_srs || keep_host_srs) && !params_path) {
        fprintf(stderr, "cuzk bench pipeline: --from-file / --keep-host-srs apply to --params FILE only\n"
                "  (cuzk bench pipeline --help lists the options)\n");
        return 2;
    }
    if (direct_srs && keep_host_srs) {
        fprintf(stderr, "cuzk bench pipeline: --from-file and --keep-host-srs exclude each other (--from-file never makes "
                "the host copy that --keep-host-srs keeps): give one of them\n"
                "  (cuzk bench pipeline --help lists the options)\n");
        return 2;
    }
    if (check_given && !params_path) {
        fprintf(stderr, "cuzk bench pipeline: --no-check / --full-check apply to --params FILE only\n"
                "  (cuzk bench pipeline --help lists the options)\n");
        return 2;
    }
    double params_file_bytes = 0;
    if (params_path) {
        struct stat stb;
        if (stat(params_path, &stb) != 0) {
            fprintf(stderr, "cuzk bench pipeline: cannot read the parameters %s: %s\n", params_path, strerror(errno));
            return 3;
        }
        params_file_bytes = (double)stb.st_size;
    }
    {
        /* host memory: ~495 bytes per constraint (circuit, parameters, setup scratch) + the
         * witnesses in flight. Measured at 2^27 with one Fr per nonzero: ~650 (84.6 GB peak,
         * bench/RESULTS.md section 9); the dictionary-coded coefficients (src/r1cs/r1cs.h) take
         * the synthetic circuit, held throughout, from 225.6 to 68.8 bytes per row (measured at
         * 2^22): 650 - 156.8 ~ 495. With --params: the circuit (~70 bytes per constraint) + the
         * decoded copy (about the file's size) */
        double need = (params_path ? 70.0 * N + params_file_bytes : 495.0 * N) +
                      32.0 * ((double)N + n_public) * (S + 3);
        double avail = bench_mem_available_bytes();
        if (avail > 0 && need > avail) {
            fprintf(stderr, "cuzk bench pipeline: %u constraints need about %.1f GiB of host memory, %.1f GiB are "
                    "available\n", N, need / 1073741824.0, avail / 1073741824.0);
            return 4;
        }
    }
    cuzk_backend req;
    if (!strcmp(backend, "cpu")) req = CUZK_BACKEND_CPU;
    else if (!strcmp(backend, "gpu")) req = CUZK_BACKEND_GPU;
    else if (!strcmp(backend, "auto")) req = CUZK_BACKEND_AUTO;
    else { fprintf(stderr, "cuzk bench pipeline: --backend must be cpu, gpu or auto (got '%s')\n", backend); return 2; }
    int threads = T > 0 ? T : cuzk_threads();
    cuzk_error err = {0};
    cuzk_backend gb;
    if (cuzk_backend_resolve(req, &gb, &err) != CUZK_OK) { fprintf(stderr, "cuzk bench pipeline: %s\n", err.msg); return 4; }
    const int gpu = gb == CUZK_BACKEND_GPU;
    const char *gb_name = gpu ? "gpu" : "cpu";
    if (n_devices > 1 && !gpu) {
        fprintf(stderr, "cuzk bench pipeline: --devices with %d devices needs the GPU backend (this run resolved to "
                "%s; --fake-devices N tests several devices on the CPU)\n", n_devices, gb_name);
        return 4;
    }
    /* the devices of the run: the list, the one --device, or the fake ones */
    int n_dev_run = n_fake ? n_fake : n_devices ? n_devices : 1;
    char devs_s[200] = "";
    if (n_fake) snprintf(devs_s, sizeof devs_s, " | %d fake devices (CPU prover behind the device interface)", n_fake);
    else if (n_devices > 1 || wpd > 1) {
        size_t off = (size_t)snprintf(devs_s, sizeof devs_s, " | devices");
        for (int k = 0; k < n_dev_run && off < sizeof devs_s; k++)
            off += (size_t)snprintf(devs_s + off, sizeof devs_s - off, "%s%d", k ? "," : " ", n_devices ? devices[k] : device);
    }
    if (wpd > 1 && strlen(devs_s) + 40 < sizeof devs_s)
        snprintf(devs_s + strlen(devs_s), sizeof devs_s - strlen(devs_s), ", %d prove-start workers each", wpd);
    /* a non-default G1 MSM accumulation is part of what was measured */
    static const char *const accum_names[] = {"default", "tasks", "runs"};
    char accum_s[64] = "";
    if (msm.accumulation != CUZK_GPU_MSM_ACCUM_DEFAULT && (unsigned)msm.accumulation < 3)
        snprintf(accum_s, sizeof accum_s, " | MSM accumulation %s", accum_names[msm.accumulation]);
    printf("# cuzk bench pipeline | cuzk %s (git %s) | backend %s | %d CPUs, prove threads %d | synthesis workers %d, "
           "finish workers %d%s%s\n",
           cuzk_version_string(), cuzk_git_commit(), gb_name, cuzk_threads(), threads, S, F, devs_s, accum_s);

    benchkit_synthetic_opts sopt;
    benchkit_synthetic_opts_init(&sopt, N);
    sopt.n_public = n_public;
    sopt.frac01 = frac01;
    sopt.seed = circuit_seed;
    benchkit_synthetic *syn = NULL;
    double t0 = bench_now_ms();
    if (benchkit_synthetic_create(&syn, &sopt, &err) != CUZK_OK) {
        fprintf(stderr, "cuzk bench pipeline: synthetic circuit: %s\n", err.msg);
        return 4;
    }
    double t_gen = bench_now_ms() - t0;
    benchkit_synthetic_info ss;
    benchkit_synthetic_describe(syn, &ss);
    printf("circuit: synthetic PoRep-shaped, %u constraints, %u public, %u vars, domain 2^%d (%.1f%% full); "
           "nnz/row A %.2f B %.2f C %.2f; aux in A %.1f%%, in B %.1f%%; made in %.1f ms\n",
           N, n_public, ss.n_vars, __builtin_ctzll((unsigned long long)ss.domain_size),
           100.0 * ((double)N + n_public + 1) / (double)ss.domain_size, ss.a_per_row, ss.b_per_row, ss.c_per_row,
           100 * ss.aux_in_a, 100 * ss.aux_in_b, t_gen);
    cuzk_pk *pk = NULL;
    int srs_resident = 0; /* the key's G1 queries were made resident by the load (one device) */
    double t_cold = 0; /* SRS load + preload: what a first proof pays before its own work */
    if (params_path) {
        benchkit_params_load_opts lo = {0};
        lo.check = params_check;
        lo.gpu_device = gpu ? device : -1;
        /* a store's device copy serves one device: several devices each upload their own (preload) */
        /* with --gpu-budget the memory plan decides what is resident: the store keeps the pinned host copy */
        lo.gpu_resident = gpu && n_dev_run == 1 && gpu_budget_gib <= 0 && !direct_srs;
        lo.direct_srs = direct_srs;
        /* on the GPU the host needs only vk, ic and b_g2 once the upload is done (issue 13) */
        lo.release_host_g1 = lo.gpu_resident && !keep_host_srs;
        /* with $CUZK_GPU_B2=1 the device copy holds the B_G2 query too (the provers use it); the
         * automatic choice (unset) uploads a prover's own copy when it fits, else keeps CPU threads */
        lo.gpu_b_g2 = lo.gpu_resident && msm.b_g2_on_gpu > 0;
        benchkit_params_load_report rep;
        t0 = bench_now_ms();
        cuzk_status st = benchkit_synthetic_load_params(&pk, syn, params_path, &lo, &rep, &err);
        if (st == CUZK_ERR_MISMATCH) {
            fprintf(stderr, "cuzk bench pipeline: %s; parameters for this circuit are made by `cuzk setup --synthetic "
                    "porep --constraints %u --public %u --frac01 %g --circuit-seed %llu`\n", err.msg, N, n_public, frac01,
                    (unsigned long long)circuit_seed);
            benchkit_synthetic_release(syn);
            return 3;
        }
        if (st != CUZK_OK) {
            fprintf(stderr, "cuzk bench pipeline: --params: %s\n", err.msg); /* err names the file */
            benchkit_synthetic_release(syn);
            return st == CUZK_ERR_NOMEM || st == CUZK_ERR_NOMEM_DEVICE ? 4 : 3;
        }
        t_cold = bench_now_ms() - t0;
        srs_resident = rep.device_bytes > 0;
        double gb_file = (double)rep.file_bytes / 1e9;
        if (direct_srs && rep.direct)
            printf("parameters: %s (%.2f GB) loaded directly: vk and ic decoded and checked (%s) in %.1f ms "
                   "(%.2f GB in host memory); the queries are decoded from the file at the preload (a GPU: straight "
                   "into its device copy; the CPU: into host memory) (RSS %.1f GiB now)", params_path, gb_file, cuzk_check_level_str(params_check), rep.host_ms,
                   (double)rep.host_bytes / 1e9, (double)bench_rss_kib() / 1048576.0);
        else if (direct_srs)
            printf("parameters: %s (%.2f GB) from its pre-decoded SRS cache, whole, in %.1f ms (--from-file decodes "
                   "a .params only)", params_path, gb_file, rep.host_ms);
        else
            printf("parameters: %s (%.2f GB) through the SRS store, %.1f ms in all: mapped + checked (%s) %.1f ms "
                   "(%.2f GB/s), decoded to %s host memory %.1f ms (%.2f GB/s)",
                   params_path, gb_file, t_cold, cuzk_check_level_str(params_check), rep.mapped_ms,
                   rep.mapped_ms > 0 ? gb_file / (rep.mapped_ms / 1e3) : 0, rep.pinned ? "pinned" : "aligned", rep.host_ms,
                   rep.host_ms > 0 ? (double)rep.host_bytes / 1e9 / (rep.host_ms / 1e3) : 0);
        if (srs_resident)
            printf(", %s to GPU %d %.1f ms (%.2f GB, %.2f GB/s)", lo.gpu_b_g2 ? "G1 and B_G2 queries" : "G1 queries",
                   device, rep.gpu_ms, (double)rep.device_bytes / 1e9,
                   rep.gpu_ms > 0 ? (double)rep.device_bytes / 1e9 / (rep.gpu_ms / 1e3) : 0);
        if (rep.host_g1_released)
            printf("; host copy of the G1 queries released after the upload: the view keeps %.2f GB (vk, ic, b_g2) "
                   "of %.2f, RSS %.1f GiB now (peak so far %.1f GiB)", (double)rep.host_bytes_now / 1e9,
                   (double)rep.host_bytes / 1e9, (double)bench_rss_kib() / 1048576.0, (double)bench_peak_rss_kib() / 1048576.0);
        printf("; every proof is verified against its vk\n");
    } else {
        uint64_t seed = 0x5eed;
        t0 = bench_now_ms();
        progress *sbar = progress_new(stderr, -1, true);
        cuzk_status sst = benchkit_synthetic_setup(&pk, syn, &seed, gb, 0, bench_setup_progress, sbar, &err);
        progress_free(sbar);
        if (sst != CUZK_OK) {
            fprintf(stderr, "cuzk bench pipeline: setup: %s\n", err.msg);
            benchkit_synthetic_release(syn);
            return 4;
        }
        printf("parameters: INSECURE single-party test parameters (benchkit_synthetic_setup, fixed seed), made in "
               "%.1f ms; every proof is verified against them\n", bench_now_ms() - t0);
    }

    cuzk_engine *e = NULL;
    int rc = 0, rc_refused = 0;
    progress *pbar = NULL;
    cuzk_circuit *cc = NULL;
    cuzk_vk *vk = NULL;
    bench_synth *bs = NULL;
    cuzk_job_id *ids = NULL;
    cuzk_job_result *res = NULL;
    double *v = NULL;
    char brow[8][1024];
    memset(brow, 0, sizeof brow);
    for (int bi = 0; bi < n_budgets; bi++) {
    const double run_budget_gib = budgets[bi];
    double run_busy = 0;
    char bname[32];
    if (run_budget_gib > 0) snprintf(bname, sizeof bname, "%g GiB", run_budget_gib);
    else snprintf(bname, sizeof bname, "unlimited");
    if (n_budgets > 1) printf("\n==== run %d of %d: GPU budget %s ====\n", bi + 1, n_budgets, bname);
    cuzk_engine_opts o = {0};
    o.synthesis_workers = S;
    o.finish_workers = F;
    o.prove_threads = threads;
    o.host_budget_bytes = (size_t)(budget_mib * 1048576.0);
    o.gpu_budget_bytes = (size_t)(run_budget_gib * 1073741824.0);
    o.backend = gb;
    o.gpu_device = device;
    o.gpu_workers_per_device = wpd;
    if (n_devices > 1) {
        o.n_gpu_devices = n_devices;
        memcpy(o.gpu_devices, devices, sizeof devices);
    }
    o.msm = msm;
    e = NULL;
    unsigned n_synthesized = 0;
    pbar = NULL; /* freed after the engine: its synthesis workers update it */
    cc = NULL;
    vk = NULL;
    bs = calloc(K, sizeof *bs);
    ids = calloc(K, sizeof *ids);
    res = calloc(K, sizeof *res);
    if (!bs || !ids || !res ||
        (n_fake ? benchkit_engine_create_fake(&e, &o, n_fake, &err) : cuzk_engine_create(&e, &o, &err)) != CUZK_OK ||
        cuzk_circuit_create(&cc, pk, &err) != CUZK_OK || cuzk_vk_from_pk(&vk, pk, &err) != CUZK_OK) {
        fprintf(stderr, "cuzk bench pipeline: engine: %s\n", err.msg);
        rc = 4;
        goto out;
    }
    t0 = bench_now_ms();
    {
        cuzk_status pst = cuzk_engine_preload(e, cc, &err);
        if (pst == CUZK_ERR_NOMEM_DEVICE && n_budgets > 1) {
            /* this budget is too small for any plan: said, and the next budget runs */
            printf("preload: refused: %s\n", err.msg);
            snprintf(brow[bi], sizeof brow[bi], "%-10s refused at preload (%s needed)", bname, pst_need(err.msg));
            rc_refused++;
            goto next_budget;
        }
        if (pst != CUZK_OK) {
            fprintf(stderr, "cuzk bench pipeline: preload: %s%s\n", err.msg,
                    pst == CUZK_ERR_MISMATCH && params_path ? " (are the parameters for this circuit? see --circuit-seed / --frac01)" : "");
            /* a bad .params point or read found at the preload (--from-file reads the queries
             * there) is the file's fault, as at the load */
            rc = pst == CUZK_ERR_MISMATCH || pst == CUZK_ERR_POINT || pst == CUZK_ERR_IO || pst == CUZK_ERR_FORMAT ? 3 : 4;
            goto out;
        }
    }
    t_cold += bench_now_ms() - t0;
    if (!gpu) printf("preload: %.1f ms\n", bench_now_ms() - t0);
    if (gpu) {
        cuzk_engine_stats es0;
        cuzk_engine_get_stats(e, &es0);
        if (n_dev_run > 1)
            printf("preload: SRS G1 queries + circuit matrices resident on each of %d GPUs: %.2f GiB each in %.1f ms in "
                   "all (once per circuit and device)\n", n_dev_run,
                   (double)es0.gpu_resident_bytes / n_dev_run / 1073741824.0, bench_now_ms() - t0);
        else
            printf("preload: %s + circuit matrices resident on GPU %d: %.2f GiB in %.1f ms (once per circuit)\n",
                   srs_resident ? "the store's SRS" : "SRS G1 queries of the memory plan", device,
                   (double)es0.gpu_resident_bytes / 1073741824.0, bench_now_ms() - t0);
        for (int d = 0; d < n_dev_run; d++) {
            cuzk_device_stats ds;
            if (cuzk_engine_device_stats(e, d, &ds) == CUZK_OK && ds.memory_plan[0])
                printf("memory plan, GPU %d%s: %s\n", ds.ordinal, gpu_budget_gib > 0 ? " (--gpu-budget)" : "",
                       ds.memory_plan);
        }
    }
    if (gpu && !params_path && n_budgets == 1) {
        /* the host copies of the G1 queries are not read again (the device holds them; B_G2 and the
         * vk stay on the host): give their memory back */
        size_t freed = 0;
        if (benchkit_drop_host_g1(pk, &freed, &err) == CUZK_OK)
            printf("host: released the host copies of the G1 queries (%.2f GiB)\n", (double)freed / 1073741824.0);
    }
    double t_submit = bench_now_ms();
    int synth_threads = cuzk_threads() / S > 1 ? cuzk_threads() / S : 1;
    pbar = progress_new(stderr, -1, true);
    for (uint32_t k = 0; k < K; k++) {
        bs[k] = (bench_synth){syn, k, synth_threads, pbar, &n_synthesized, K * P};
        cuzk_job_desc d = {.circuit = cc, .n_partitions = P, .synth = bench_synth_cb, .synth_ctx = &bs[k]};
        if (cuzk_engine_submit(e, &d, &ids[k], &err) != CUZK_OK) {
            fprintf(stderr, "cuzk bench pipeline: submit: %s\n", err.msg);
            rc = 4;
            goto out;
        }
    }
    for (uint32_t k = 0; k < K; k++) {
        if (cuzk_engine_wait(e, ids[k], &res[k], &err) != CUZK_OK || res[k].state != CUZK_JOB_DONE) {
            fprintf(stderr, "cuzk bench pipeline: job %llu failed: %s%s\n", (unsigned long long)ids[k], err.msg,
                    params_path ? " (are the parameters for this circuit? see --circuit-seed / --frac01)" : "");
            rc = 3;
        }
    }
    progress_free(pbar);
    pbar = NULL;
    double t_all = bench_now_ms() - t_submit;
    cuzk_engine_stats est;
    cuzk_engine_get_stats(e, &est);
    size_t pending_at_end = est.reaper_pending_bytes;
    double t_drain0 = bench_now_ms();
    cuzk_engine_drain_frees(e);
    double t_drain = bench_now_ms() - t_drain0;
    cuzk_engine_get_stats(e, &est);

    /* verify every proof */
    uint32_t ok = 0, total = 0;
    double t_ver0 = bench_now_ms();
    for (uint32_t k = 0; k < K; k++) {
        if (res[k].state != CUZK_JOB_DONE) continue;
        for (uint32_t i = 0; i < P; i++) {
            total++;
            /* public inputs come back canonical, 32 bytes each; the proof in the 192-byte encoding */
            if (cuzk_verify(vk, CUZK_PUBLIC_CANON, res[k].public_inputs + 32 * (size_t)n_public * i, 32 * (size_t)n_public,
                            CUZK_PROOF_BELLPERSON, res[k].proofs + 192 * (size_t)i, 192, NULL) == CUZK_OK)
                ok++;
        }
    }
    double t_ver = bench_now_ms() - t_ver0;
    printf("verified: %u/%u proofs valid (%.1f ms)%s\n", ok, K * P, t_ver, ok == K * P ? "" : "  <-- FAILURES");
    if (ok != total) {
        /* exit 1 (invalid proof), with the one line on stderr every failing command gives */
        fprintf(stderr, "cuzk bench pipeline: %u of %u proofs did not verify%s\n", total - ok, total,
                params_path && params_check == CUZK_CHECK_NONE
                    ? " (the parameters were loaded with --no-check: a corrupt file gives invalid proofs; run without it)"
                    : params_path ? " (are the parameters for this circuit? see --circuit-seed / --frac01)" : "");
        if (rc == 0) rc = 1;
    }

    /* per-stage medians over all partitions */
    size_t np = (size_t)K * P;
    v = malloc(np * sizeof *v);
    if (!v) { rc = 4; goto out; }
#define COLLECT(expr)                                                                              \
    do {                                                                                           \
        size_t q = 0;                                                                              \
        for (uint32_t k = 0; k < K; k++)                                                           \
            if (res[k].timings)                                                                    \
                for (uint32_t i = 0; i < P; i++) { const cuzk_partition_timings *t = &res[k].timings[i]; (void)t; v[q++] = (expr); } \
        nq = q;                                                                                    \
    } while (0)
    size_t nq = 0;
    printf("\nthroughput: %u jobs x %u partitions in %.2f s: %.3f s per job (one proof per partition), %.3f s/partition\n", K, P,
           t_all / 1e3, t_all / 1e3 / K, t_all / 1e3 / (double)np);
    double lat[64];
    size_t nl = 0;
    for (uint32_t k = 0; k < K && nl < 64; k++) lat[nl++] = res[k].done_ms - res[k].submit_ms;
    printf("job latency (submit -> last proof): median %.1f ms (jobs are submitted together)\n", bench_median(lat, nl));
    if (res[0].timings) {
        /* first proof: what a cold process pays (load + preload) plus the first partition, against
         * the steady state (the median partition) */
        double first_end = 1e300;
        for (uint32_t i = 0; i < P; i++)
            if (res[0].timings[i].t_end_ms - t_submit < first_end) first_end = res[0].timings[i].t_end_ms - t_submit;
        printf("first proof: %.1f ms after submit (%.1f ms with %s); steady state %.1f ms per partition\n",
               first_end, first_end + t_cold, params_path ? "the SRS load and the preload" : "the preload", t_all / (double)np);
    }
    {
        /* the prove-start worker is the GPU's only client: its prover-stage time is the GPU's busy time */
        COLLECT(t->start_inner_ms);
        double busy = sumv(v, nq);
        run_busy = t_all > 0 ? 100 * busy / t_all : 0;
        if (n_dev_run == 1)
            printf("%s busy: %.1f%% of the run (prove-start stages %.1f ms of %.1f ms)\n",
                   gpu ? "GPU" : "prove-start worker", t_all > 0 ? 100 * busy / t_all : 0, busy, t_all);
        /* per device: partitions proved there, busy = its prove-start stages over the run
         * (with several workers per device their stages overlap: can exceed 100%) */
        for (int dv = 0; dv < n_dev_run && n_dev_run > 1; dv++) {
            int ord = n_fake ? dv : devices[dv];
            double b = 0;
            uint32_t parts = 0, retried = 0;
            for (uint32_t k = 0; k < K; k++)
                for (uint32_t i = 0; res[k].timings && i < P; i++) {
                    const cuzk_partition_timings *t = &res[k].timings[i];
                    retried += t->retries;
                    if (t->total_ms > 0 && (int)t->device == ord) { b += t->start_inner_ms; parts++; }
                }
            printf("%s %d: %u partitions, busy %.1f%% of the run (prove-start stages %.1f ms)%s\n",
                   n_fake ? "fake device" : "GPU", ord, parts, t_all > 0 ? 100 * b / t_all : 0, b,
                   dv == n_dev_run - 1 && retried ? " (some partitions were retried after a device was lost)" : "");
        }
    }
    /* where B_G2 ran (the automatic choice: the GPU when it fits), from the partitions */
    uint32_t b2_dev = 0, b2_all = 0;
    for (uint32_t k = 0; k < K; k++)
        for (uint32_t i = 0; res[k].timings && i < P; i++)
            if (res[k].timings[i].total_ms > 0) {
                b2_all++;
                b2_dev += res[k].timings[i].b2_on_device ? 1 : 0;
            }
    char b2_label[64];
    snprintf(b2_label, sizeof b2_label, "  MSM B (G2, on the GPU in %u of %u)", b2_dev, b2_all);
    printf("\n%-34s %10s %10s %10s\n", "stage (per partition)", "median ms", "max ms", "sum ms");
#define ROW(label, expr)                                                                           \
    do {                                                                                           \
        COLLECT(expr);                                                                             \
        double mx = maxv(v, nq), sm = sumv(v, nq);                                                 \
        printf("%-34s %10.2f %10.2f %10.1f\n", label, bench_median(v, nq), mx, sm);                      \
    } while (0)
    ROW("queue before synthesis", t->queue_synth_ms);
    ROW("budget wait", t->reserve_ms);
    ROW("synthesis (callback)", t->synth_call_ms);
    ROW("synthesis stage", t->synth_stage_ms);
    ROW("blocked: prove queue full", t->push_wait_ms);
    ROW("prove queue", t->queue_start_ms);
    ROW("prove start (prover stages)", t->start_inner_ms);
    ROW("  witness upload", t->upload_ms);
    ROW("  a/b/c (SpMV)", t->abc_ms);
    ROW("  H (NTTs)", t->h_ms);
    ROW("  MSM A (G1)", t->msm_a_ms);
    ROW("  MSM B (G1)", t->msm_b1_ms);
    ROW("  MSM L (G1)", t->msm_l_ms);
    ROW("  MSM H (G1)", t->msm_h_ms);
    if (gpu && b2_dev == b2_all && b2_all) ROW("  MSM B (G2, on the GPU)", t->msm_b2_ms);
    else if (gpu && b2_dev) ROW(b2_label, t->msm_b2_ms);
    else if (gpu) ROW("  MSM B (G2, CPU threads, overlapped)", t->msm_b2_ms);
    ROW("prove start (call)", t->start_call_ms);
    ROW("prove start stage", t->start_stage_ms);
    ROW("finish queue", t->queue_finish_ms);
    ROW("prove finish (prover stages)", t->finish_inner_ms);
    if (!gpu) ROW("  MSM B (G2)", t->msm_b2_ms);
    ROW("prove finish (call)", t->finish_call_ms);
    ROW("prove finish stage", t->finish_stage_ms);
    ROW("free (reaper, off the path)", t->free_ms);
    ROW("partition total (synth -> proof)", t->total_ms);
    printf("(each step three ways: \"(prover stages)\" is timed inside the prover, \"(call)\" around the call,\n"
           " \"stage\" is the worker's whole step; their differences are the cleanup gaps below)\n");

    printf("\n%-44s %10s %10s %9s\n", "cleanup gap: layer - layer inside it", "median ms", "max ms", "% of layer");
#define GAP(label, outer, inner)                                                                   \
    do {                                                                                           \
        COLLECT((outer) - (inner));                                                                \
        double mx = maxv(v, nq), sg = sumv(v, nq);                                                 \
        double med = bench_median(v, nq);                                                                \
        COLLECT(outer);                                                                            \
        double so = sumv(v, nq);                                                                   \
        printf("%-44s %10.3f %10.3f %8.2f%%\n", label, med, mx, so > 0 ? 100 * sg / so : 0);       \
    } while (0)
    GAP("prover start: call - prover stages", t->start_call_ms, t->start_inner_ms);
    GAP("prover finish: call - prover stages", t->finish_call_ms, t->finish_inner_ms);
    GAP("synthesis stage - synth callback", t->synth_stage_ms, t->synth_call_ms);
    GAP("start stage - start call", t->start_stage_ms, t->start_call_ms);
    GAP("finish stage - finish call", t->finish_stage_ms, t->finish_call_ms);
    {
        double g[64], lay[64];
        size_t ng = 0;
        for (uint32_t k = 0; k < K && ng < 64; k++) {
            g[ng] = res[k].wait_return_ms - res[k].done_ms;
            lay[ng++] = res[k].wait_return_ms - res[k].submit_ms;
        }
        double mx = maxv(g, ng), sg = sumv(g, ng), sl = sumv(lay, ng);
        printf("%-44s %10.3f %10.3f %8.2f%%\n", "job: wait return - last proof stored", bench_median(g, ng), mx,
               sl > 0 ? 100 * sg / sl : 0);
    }
    printf("\nfrees: %llu buffers, %.1f MiB, reaper busy %.1f ms; %.1f MiB still queued when the last job "
           "returned (drained in %.1f ms)\n",
           (unsigned long long)est.reaper_items_freed, (double)est.reaper_bytes_freed / 1048576.0, est.reaper_busy_ms,
           (double)pending_at_end / 1048576.0, t_drain);
    if (gpu)
        printf("GPU memory: resident %.2f GiB (SRS queries of the memory plan + matrices), arena + pool %.2f GiB "
               "(per-proof vectors + MSM scratch), streamed %.2f GiB per proof, device used now %.2f GiB; pinned witness "
               "buffers %.2f GiB, pageable fallbacks %llu\n",
               (double)est.gpu_resident_bytes / 1073741824.0, (double)est.gpu_pool_bytes / 1073741824.0,
               (double)est.gpu_streamed_bytes / 1073741824.0, (double)est.gpu_device_used_bytes / 1073741824.0,
               (double)est.pinned_bytes / 1073741824.0, (unsigned long long)est.pinned_fallbacks);
    char budget_s[64];
    if (est.budget_limit) snprintf(budget_s, sizeof budget_s, "%.1f MiB", (double)est.budget_limit / 1048576.0);
    else snprintf(budget_s, sizeof budget_s, "unlimited");
    printf("memory: peak host RSS (VmHWM) %.1f MiB; host budget %s, most reserved at once %.1f MiB, waited for "
           "it %.1f ms, reservations that proved too small %llu\n",
           (double)bench_peak_rss_kib() / 1024.0, budget_s, (double)est.budget_max_reserved / 1048576.0, est.budget_wait_ms,
           (unsigned long long)est.budget_underestimates);

    if (timings) {
        for (uint32_t k = 0; k < K; k++) {
            if (!res[k].timings) continue;
            printf("\njob %llu (%s): latency %.1f ms\n", (unsigned long long)ids[k],
                   res[k].state == CUZK_JOB_DONE ? "done" : "not done", res[k].done_ms - res[k].submit_ms);
            printf("%4s %4s %8s %8s %8s %8s %8s %8s %8s %8s %8s %8s %8s %8s %8s\n", "part", "dev", "q.syn", "budget", "synth",
                   "blocked", "q.start", "start", "st.gap", "q.fin", "finish", "fi.gap", "free", "total", "end@ms");
            for (uint32_t i = 0; i < P; i++) {
                const cuzk_partition_timings *t = &res[k].timings[i];
                printf("%4u %4u %8.1f %8.1f %8.1f %8.1f %8.1f %8.1f %8.2f %8.1f %8.1f %8.2f %8.1f %8.1f %8.1f\n", i,
                       t->device, t->queue_synth_ms, t->reserve_ms, t->synth_stage_ms, t->push_wait_ms, t->queue_start_ms,
                       t->start_stage_ms, t->start_call_ms - t->start_inner_ms, t->queue_finish_ms,
                       t->finish_stage_ms, t->finish_call_ms - t->finish_inner_ms, t->free_ms, t->total_ms,
                       t->t_end_ms - t_submit);
            }
        }
        printf("(dev: the device that proved the partition (its CUDA ordinal; 0 on the CPU backend);\n"
               " ms per partition: q.syn queued before synthesis; budget waiting for host memory; synth the\n"
               " synthesis stage; blocked waiting for room in the prove queue; q.start in the prove queue;\n"
               " start the prove-start stage (with --backend gpu: the GPU's work); st.gap its cleanup gap\n"
               " (call - prover stages); q.fin in the finish queue; finish the finish stage; fi.gap its\n"
               " cleanup gap; free handed to the reaper, off the path; total from synthesis start to proof\n"
               " stored (q.syn not included); end@ms when the proof was stored, from the first submit. Job\n"
               " numbers are the engine's job ids, as in the trace.)\n");
    }
    if (trace) {
        if (cuzk_engine_trace_write(e, trace, &err) != CUZK_OK) {
            fprintf(stderr, "cuzk bench pipeline: --trace: %s\n", err.msg);
            rc = 3;
        }
        else printf("\ntrace: %s (open in https://ui.perfetto.dev or chrome://tracing)\n", trace);
    }
    free(v);
    v = NULL;
    if (n_budgets > 1) {
        cuzk_device_stats ds0;
        memset(&ds0, 0, sizeof ds0);
        (void)cuzk_engine_device_stats(e, 0, &ds0);
        snprintf(brow[bi], sizeof brow[bi], "%-10s %3u/%-3u %9.3f %8.1f%% %8.2f %8.2f %8.2f  %s", bname, ok, K * P,
                 t_all / 1e3 / K, run_busy, (double)est.gpu_resident_bytes / 1073741824.0,
                 (double)est.gpu_pool_bytes / 1073741824.0, (double)est.gpu_streamed_bytes / 1073741824.0,
                 ds0.memory_plan);
    }
next_budget:
    /* this run's engine and results go; the key stays for the next budget */
    cuzk_engine_destroy(e);
    e = NULL;
    cuzk_circuit_destroy(cc);
    cc = NULL;
    cuzk_vk_free(vk);
    vk = NULL;
    progress_free(pbar);
    pbar = NULL;
    if (res)
        for (uint32_t k = 0; k < K; k++) cuzk_job_result_free(&res[k]);
    free(res);
    free(ids);
    free(bs);
    res = NULL;
    ids = NULL;
    bs = NULL;
    }
    if (n_budgets > 1) {
        printf("\n==== cuzk bench pipeline: one run per GPU budget (%u jobs x %u partitions each) ====\n", K, P);
        printf("%-10s %-7s %9s %9s %8s %8s %8s  %s\n", "budget", "valid", "s/proof", "GPU busy", "resident", "arena",
               "streamed", "memory plan (sizes in GiB)");
        for (int bi = 0; bi < n_budgets; bi++) printf("%s\n", brow[bi]);
    }
out:
    free(v);
    cuzk_engine_destroy(e);
    cuzk_circuit_destroy(cc);
    cuzk_vk_free(vk);
    cuzk_pk_release(pk);
    benchkit_synthetic_release(syn);
    progress_free(pbar);
    if (res)
        for (uint32_t k = 0; k < K; k++) cuzk_job_result_free(&res[k]);
    free(res);
    free(ids);
    free(bs);
    return rc;
}
