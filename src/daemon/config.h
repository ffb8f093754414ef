/* cuzkd's configuration: a TOML file (the format of Curio's own daemon), validated at start with
 * errors that name the key. Every key is optional except at least one [circuits.<id>] or listen
 * address; unknown keys are errors (a typo must not silently fall back to a default).
 * See README.md ("cuzkd") and src/daemon/cuzkd.example.toml for every key. */
#ifndef CUZKD_CONFIG_H
#define CUZKD_CONFIG_H

#include <stddef.h>
#include <stdint.h>

typedef struct dcfg_circuit {
    char *id;        /* circuit id: a generic name, or one of Curio's ("porep-32g", ...) */
    char *zkey;      /* snarkjs .zkey, or NULL */
    char *params;    /* bellperson .params, or NULL */
    char *r1cs;      /* with params: the circuit's .r1cs; with zkey: optional, for witness checks */
    int preload;     /* load at start (a failure stops the daemon) */
    int filecoin;    /* 1: one of Curio's Filecoin ids */
    /* PoSt ids ("wpost-32g", "winning-32g", ...: dcfg_post_id): the cuzk circuit
     * ("window-post-32g", ...; include/cuzk/filecoin.h), its proof kind (3 WINDOW_POST_PARTITION,
     * 4 WINNING_POST) and sector size; the R1CS is recorded in memory (no r1cs key). 0/NULL for
     * other ids. */
    const char *post_circuit;
    int post_kind;
    uint64_t post_sector_size;
    /* PoRep ids ("porep-2k" ... "porep-64g": dcfg_porep_id): the cuzk circuit ("porep-32g", ...;
     * include/cuzk/filecoin.h) and sector size; the R1CS is recorded in memory. NULL/0 for others. */
    const char *porep_circuit;
    uint64_t porep_sector_size;
    /* SnapDeals ids ("snap-2k" ... "snap-64g": dcfg_snap_id): the cuzk circuit of the same name
     * (include/cuzk/filecoin.h) and sector size; the R1CS is recorded in memory. NULL/0 for others. */
    const char *snap_circuit;
    uint64_t snap_sector_size;
    uint32_t sectors;   /* testing only (key `sectors`): a PoSt circuit of this many sectors, a
                           different circuit than Filecoin's (INSECURE test parameters); 0: real */
} dcfg_circuit;

typedef struct dcfg {
    char **listen;               /* gRPC addresses: "unix:///run/curio/cuzk.sock", "127.0.0.1:9820" */
    int n_listen;
    char *http;                  /* "host:port" of the HTTP /metrics and /status endpoint, or NULL */
    int socket_mode;             /* permissions of unix sockets (e.g. 0660); -1: umask's */
    size_t max_message_bytes;    /* gRPC send/receive limit (default 128 MiB; >= 1 MiB) */
    int log_level;               /* DLOG_* */
    char *backend;               /* "auto", "cpu", "gpu" */
    int gpu_fallback_cpu;        /* engine.gpu_fallback: 1 "cpu": a circuit that cannot be made resident on
                                    the GPU (device out of memory, over gpu_budget, no usable device) is
                                    proved on the CPU, with a warning; 0 "none" (default): its preload and
                                    jobs fail with the reason */
    int workers;                 /* jobs proved at once (default 1: one GPU worker) */
    int prove_threads;           /* CPU threads per proof (0: all) */
    uint64_t host_budget_bytes;  /* host memory for loaded keys (0: unlimited) */
    uint64_t job_budget_bytes;   /* host memory of proofs in flight: the engine's dispatcher (0: unlimited) */
    uint64_t gpu_budget_bytes;   /* device memory a circuit may use per GPU (0: the device's free memory) */
    uint64_t pinned_budget_bytes;/* pinned witness buffers (GPU backend; 0: 16 GiB) */
    int devices[16];             /* CUDA ordinals of engine.devices */
    int n_devices;               /* 0: device 0 */
    int zkey_rows_on_gpu;        /* engine.zkey_rows_on_gpu: snarkjs keys' A and B rows on the device
                                    too, a proof's start there whole (cuzk_msm_opts.zkey_rows_on_gpu:
                                    true 1, false -1, absent 0 = the library's default, on) */
    int msm_accumulation;        /* engine.msm_accumulation: the GPU G1 MSMs' bucket accumulation, a
                                    cuzk_gpu_msm_accum value (0 default, 1 tasks, 2 runs) */
    uint64_t result_retention_ms;/* finished jobs are kept this long (default 10 min) */
    uint32_t max_retained;       /* and at most this many (default 10000) */
    uint32_t max_queued;         /* queued jobs beyond this are refused (default 100000) */
    uint32_t max_waiting_calls;  /* concurrent Prove/AwaitProof calls (default 4096) */
    uint64_t grace_ms;           /* SIGTERM: in-flight jobs may finish for this long (default 30 s) */
    uint64_t srs_idle_evict_ms;  /* a key unused this long is released (0: never; default 5 min) */
    int srs_from_file;           /* srs.from_file: 1 leaves a .params key's SRS queries in the file at load and
                                    decodes them straight into the device at preload (GPU backend;
                                    cuzk_pk_load_opts.defer_queries); 0 (default until it has run on a
                                    GPU): decoded whole at load */
    int keep_host_g1;            /* srs.keep_host_g1: 1 keeps the host copy of a .params key's G1 queries
                                    once they are resident on the GPU (default 0: released) */
    uint64_t debug_prove_delay_ms; /* testing only: every proof takes at least this long */
    char *debug_hold_circuit;    /* testing only: jobs of this circuit wait until cancelled */
    dcfg_circuit *circuits;
    int n_circuits;
} dcfg;

/* Loads and validates; on failure returns -1 with one line in err ("<file>: <key>: reason"). */
int dcfg_load(dcfg *c, const char *path, char *err, size_t err_cap);
void dcfg_free(dcfg *c);
const dcfg_circuit *dcfg_find_circuit(const dcfg *c, const char *id);
/* The circuit id of a PoSt proof kind (3 or 4) and sector size in bytes, e.g. "wpost-32g",
 * "winning-2k"; NULL for another kind or size. */
const char *dcfg_post_id(int kind, uint64_t sector_size);
/* The PoRep circuit id of a sector size ("porep-32g"), or NULL. */
const char *dcfg_porep_id(uint64_t sector_size);
/* The SnapDeals circuit id of a sector size ("snap-32g"), or NULL. */
const char *dcfg_snap_id(uint64_t sector_size);

#endif
